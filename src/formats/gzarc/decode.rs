//! Inflating members: one member's deflate data inflated on demand, capped by
//! `Limits::max_inflated`, with a small memory-bounded cache for consumers that revisit
//! members, and opening the member a listed node stands for.

use super::MemberInfo;
use super::raw::MemberTrailer;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::Member;
use crate::formats::record;
use crate::limits::Limits;
use crate::model::Span;
use crate::source::Source;
use std::io::Read;
use std::sync::{Arc, Mutex};

/// Inflate one gzip member from its extent. The output is capped at `limits.max_inflated`
/// bytes (a bomb stops with `LimitExceeded`, never exhausting memory); a stream that does
/// not inflate is an `Inflate` error at the member's offset.
pub fn inflate(data: &[u8], m: &MemberInfo, limits: &Limits) -> Result<Vec<u8>> {
    if let Some(e) = &m.header_error {
        return Err(e.clone());
    }
    let slice =
        Bytes::new(data).slice(m.offset, m.end.saturating_sub(m.offset)).map_err(|e| e.within(member_path(m)))?;
    inflate_extent(slice, m, limits, &|| member_path(m))
}

/// The path an error about member `m` names (formatted only for an error: a survey
/// inflates hundreds of thousands of 1 KB members).
fn member_path(m: &MemberInfo) -> String {
    format!("member[{}] {}", m.index, m.name_str())
}

/// [`inflate`] of a member whose extent (`m.offset..m.end`) the caller has read into
/// `extent` (the archive survey and check read a run of small members by one `pread`),
/// into the worker's reused output buffer (`survey` and `check` hand it back by
/// [`reuse_inflated`] when they are done with the member): a buffer made, shrunk and freed
/// per member cost about as much as the survey's own check of a 1 KB member's models. The
/// same bytes and the same errors as [`inflate`].
pub(super) fn inflate_read_extent_reusing(extent: &[u8], m: &MemberInfo, limits: &Limits) -> Result<Vec<u8>> {
    if let Some(e) = &m.header_error {
        return Err(e.clone());
    }
    let buf = INFLATED.with(|cell| cell.take());
    inflate_extent_into(extent, m, limits, &|| member_path(m), buf)
}

/// Keep `bytes` (a member's inflated bytes, no longer needed) as the worker's next output
/// buffer, unless it is larger than [`REUSED_MAX`].
pub(super) fn reuse_inflated(mut bytes: Vec<u8>) {
    if bytes.capacity() <= REUSED_MAX {
        bytes.clear();
        INFLATED.with(|cell| cell.replace(bytes));
    }
}

/// The largest output buffer a survey worker keeps from member to member.
const REUSED_MAX: usize = 1 << 20;

/// Members up to this size are read whole (one `pread`) and inflated from memory by the
/// worker's own inflater; bigger ones are streamed.
const WHOLE_EXTENT: u64 = 4 << 20;

std::thread_local! {
    /// One raw-deflate inflater per thread, reset for each member: setting one up costs
    /// more than inflating a 1 KB member (its tables are zeroed on creation).
    static INFLATER: std::cell::RefCell<Option<flate2::Decompress>> = const { std::cell::RefCell::new(None) };
    /// The compressed bytes of the member being read, reused from member to member.
    static EXTENT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    /// A survey's output buffer, reused from member to member ([`reuse_inflated`]).
    static INFLATED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Inflate a member whose extent (`m.offset..m.end`) is in memory: the deflate stream
/// after the header, then the trailer right after it (CRC-32 and ISIZE checked, as a gzip
/// reader does). Output capped at `limits.max_inflated`.
fn inflate_extent(extent: &[u8], m: &MemberInfo, limits: &Limits, path: &dyn Fn() -> String) -> Result<Vec<u8>> {
    inflate_extent_into(extent, m, limits, path, Vec::new()).map(without_spare)
}

/// [`inflate_extent`] into `buf` (emptied first; its capacity is used when it is at most
/// what the cap allows), the output's spare capacity kept.
fn inflate_extent_into(
    extent: &[u8],
    m: &MemberInfo,
    limits: &Limits,
    path: &dyn Fn() -> String,
    buf: Vec<u8>,
) -> Result<Vec<u8>> {
    use flate2::{FlushDecompress, Status};
    let fail = |why: String| ParseError::new(m.offset, ErrorKind::Inflate(why)).within(path());
    let body_at = usize::try_from(m.data_start.saturating_sub(m.offset)).unwrap_or(usize::MAX);
    let body =
        extent.get(body_at..).ok_or_else(|| fail("member does not inflate: header runs past the extent".into()))?;
    let max = limits.inflate_cap();
    // ISIZE at the extent's end is right for an unpadded file and a guess otherwise: trusted
    // only up to the cap and deflate's best ratio (1032:1); a wrong guess costs regrowth.
    // (the trailer's last four bytes, read as they are: no spans wanted for a hint)
    let tail_isize = extent
        .len()
        .checked_sub(4)
        .and_then(|at| extent.get(at..))
        .and_then(|w| <[u8; 4]>::try_from(w).ok())
        .filter(|_| extent.len() as u64 >= <MemberTrailer as record::FixedSize>::SIZE)
        .map_or(0, |w| u64::from(u32::from_le_bytes(w)));
    // Without it, twice the extent, but at most GUESS_MAX: an extent runs to the next
    // member, and zero-filling a 2 MiB guess for a 1 KB member one MiB before the next
    // cost more than inflating it (the buffer grows by doubling past the guess).
    let guess = (body.len() as u64 * 2).min(GUESS_MAX);
    let hint = tail_isize.min(max).min((body.len() as u64).saturating_mul(1032)).max(guess);
    let first = usize::try_from(hint.min(max.saturating_add(1))).unwrap_or(0);
    // never more room than the cap allows: the output stops growing where a new one would
    let mut out = if buf.capacity() as u64 <= max.saturating_add(1) { buf } else { Vec::new() };
    out.clear();
    out.reserve_exact(first);
    let used = INFLATER.with(|cell| -> Result<usize> {
        let mut slot = cell.borrow_mut();
        let d = slot.get_or_insert_with(|| flate2::Decompress::new(false));
        d.reset(false);
        loop {
            if out.len() == out.capacity() {
                if out.len() as u64 > max {
                    return Err(limits.inflate_error(m.offset).within(path()));
                }
                let room = (out.len() as u64).max(1 << 12).min(max.saturating_add(1) - out.len() as u64);
                out.reserve_exact(usize::try_from(room).unwrap_or(1 << 12));
            }
            let consumed = usize::try_from(d.total_in()).unwrap_or(usize::MAX);
            let rest = body.get(consumed..).unwrap_or_default();
            let (in_before, out_before) = (d.total_in(), out.len());
            let status = d
                .decompress_vec(rest, &mut out, FlushDecompress::None)
                .map_err(|e| fail(format!("member does not inflate: {e}")))?;
            if status == Status::StreamEnd {
                break;
            }
            if d.total_in() == in_before && out.len() == out_before && out.len() < out.capacity() {
                return Err(fail("member does not inflate: the deflate stream ends early".into()));
            }
        }
        if out.len() as u64 > max {
            return Err(limits.inflate_error(m.offset).within(path()));
        }
        Ok(usize::try_from(d.total_in()).unwrap_or(usize::MAX))
    })?;
    let trailer = record::read_at::<MemberTrailer>(&Bytes::new(body), used as u64)
        .map_err(|_| fail("member does not inflate: the trailer is cut off".into()))?;
    let (crc, isize) = (*trailer.crc32, *trailer.isize);
    let mut sum = flate2::Crc::new();
    sum.update(&out);
    if sum.sum() != crc || isize != out.len() as u32 {
        return Err(fail(format!(
            "member does not inflate: its trailer says CRC-32 0x{crc:08x}, {isize} bytes; the inflated bytes have 0x{:08x}, {}",
            sum.sum(),
            out.len()
        )));
    }
    Ok(out)
}

/// `out` without the spare capacity of a wrong size guess. Both inflaters size their output
/// from the extent or the ISIZE found at its end, which for a padded member or one followed
/// by a gap is a guess; a member kept open must not hold it (a 1 KB member one MiB before
/// the next held 2 MiB: browsing 50 of them took 117 MiB instead of 26).
fn without_spare(mut out: Vec<u8>) -> Vec<u8> {
    if out.capacity() - out.len() > out.len().max(WASTE_KEPT) {
        out.shrink_to_fit();
    }
    out
}

/// The largest output buffer guessed from an extent whose end holds no ISIZE.
const GUESS_MAX: u64 = 256 << 10;

/// Unused capacity an inflated member may keep (shrinking a survey's 1 KB members, dropped
/// right after, would cost a reallocation each for nothing).
pub(super) const WASTE_KEPT: usize = 64 << 10;

/// [`inflate`] reading the member through `pread` ([`Source::read_at`]) in chunks into an
/// owned buffer, never through a mapping: a file truncated underneath makes this an error
/// ("file changed on disk"), not a SIGBUS. The file's size, mtime and inode are checked
/// before the job starts. For background work (survey, check, member opens).
pub fn inflate_from_source(src: &Source, m: &MemberInfo, limits: &Limits) -> Result<Vec<u8>> {
    let path = member_path(m);
    if let Some(e) = &m.header_error {
        return Err(e.clone());
    }
    if src.changed() {
        return Err(changed_on_disk(m.offset).within(&path));
    }
    if m.end.saturating_sub(m.offset) <= WHOLE_EXTENT {
        let r = EXTENT.with(|cell| {
            let mut buf = cell.borrow_mut();
            buf.clear();
            buf.resize(usize::try_from(m.end - m.offset).unwrap_or(0), 0);
            match src.read_at(m.offset, &mut buf) {
                Ok(n) if n == buf.len() => inflate_extent(&buf, m, limits, &|| path.clone()),
                _ => Err(changed_on_disk(m.offset).within(&path)),
            }
        });
        return match r {
            Err(_) if src.changed() => Err(changed_on_disk(m.offset).within(&path)),
            r => r,
        };
    }
    let mut tail = [0u8; <MemberTrailer as record::FixedSize>::SIZE as usize];
    let at = m.end.saturating_sub(tail.len() as u64).max(m.offset);
    let isize = match src.read_at(at, &mut tail) {
        Ok(n) if n == tail.len() => {
            record::read_at::<MemberTrailer>(&Bytes::new(&tail), 0).map_or(0, |t| u64::from(*t.isize))
        }
        _ => 0,
    };
    let reader = PreadReader { src, pos: m.offset, end: m.end.min(src.len()) };
    let r = inflate_stream(
        flate2::read::GzDecoder::new(std::io::BufReader::with_capacity(1 << 16, reader)),
        m,
        isize,
        m.end.saturating_sub(m.offset),
        limits,
        &path,
    );
    // A read that came up short (or a stream cut off) on a file that changed is the change.
    match r {
        Err(_) if src.changed() => Err(changed_on_disk(m.offset).within(&path)),
        r => r,
    }
}

/// The input file was truncated or rewritten while a member was read.
fn changed_on_disk(offset: u64) -> ParseError {
    ParseError::new(offset, ErrorKind::Inflate("file changed on disk while reading the member; open it again".into()))
}

/// Reads `pos..end` of a source by `pread`; a read past the file's current end fails.
struct PreadReader<'a> {
    src: &'a Source,
    pos: u64,
    end: u64,
}

impl Read for PreadReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = usize::try_from(self.end.saturating_sub(self.pos)).unwrap_or(usize::MAX).min(buf.len());
        if want == 0 {
            return Ok(0);
        }
        let n = self.src.read_at(self.pos, buf.get_mut(..want).unwrap_or_default())?;
        if n == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "file changed on disk"));
        }
        self.pos += n as u64;
        Ok(n)
    }
}

/// Inflate from `dec` into a vector sized from the trailer's ISIZE (inflated length mod
/// 2^32), trusted only up to the cap and to deflate's best ratio (1032:1), so a lying
/// trailer cannot make a big allocation; a wrong guess only costs regrowth.
fn inflate_stream(
    dec: impl Read,
    m: &MemberInfo,
    isize: u64,
    extent_len: u64,
    limits: &Limits,
    path: &str,
) -> Result<Vec<u8>> {
    let max = limits.inflate_cap();
    let hint = isize.min(max).min(extent_len.saturating_mul(1032));
    let mut out = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
    let mut dec = dec.take(max.saturating_add(1));
    dec.read_to_end(&mut out).map_err(|e| {
        ParseError::new(m.offset, ErrorKind::Inflate(format!("member does not inflate: {e}"))).within(path)
    })?;
    if out.len() as u64 > max {
        return Err(limits.inflate_error(m.offset).within(path));
    }
    Ok(without_spare(out))
}

/// A memory-bounded cache of inflated members, keyed by member offset. Consumers that
/// revisit members (the TUI) may hold one; evicts oldest first when `cache_bytes` is passed.
#[derive(Debug, Default)]
pub struct MemberCache {
    entries: Mutex<Vec<(u64, Arc<Vec<u8>>)>>,
}

impl MemberCache {
    /// An empty cache.
    pub fn new() -> Self {
        MemberCache::default()
    }

    /// The inflated bytes of `m`, from the cache or freshly inflated.
    pub fn get(&self, data: &[u8], m: &MemberInfo, limits: &Limits) -> Result<Arc<Vec<u8>>> {
        if let Ok(e) = self.entries.lock()
            && let Some((_, v)) = e.iter().find(|(o, _)| *o == m.offset)
        {
            return Ok(Arc::clone(v));
        }
        let v = Arc::new(inflate(data, m, limits)?);
        if let Ok(mut e) = self.entries.lock() {
            e.push((m.offset, Arc::clone(&v)));
            let mut total: u64 = e.iter().map(|(_, b)| b.len() as u64).sum();
            while total > limits.cache_bytes && !e.is_empty() {
                total -= e.remove(0).1.len() as u64;
            }
        }
        Ok(v)
    }

    /// Bytes held now.
    pub fn held_bytes(&self) -> u64 {
        self.entries.lock().map(|e| e.iter().map(|(_, b)| b.len() as u64).sum()).unwrap_or(0)
    }
}

/// Open the member a listed node covers (`span` = the node's span, `index` = its
/// `member`) without re-scanning the archive from the start: O(1) in the archive size and
/// touching only the member's own bytes (`GzArc`'s parsed object). [`Format::member`]
/// only gets an index and so has to probe every boundary before the member.
pub fn member_at(data: &[u8], index: u32, span: Span, limits: &Limits) -> Result<Member> {
    let m = MemberInfo::at(data, index, span).ok_or_else(|| {
        ParseError::new(span.start, ErrorKind::NotFound(format!("gzip member {index} at 0x{:x}", span.start)))
    })?;
    let bytes = inflate(data, &m, limits)?;
    Ok(Member { name: m.display_name(), bytes, inflated: true })
}

/// [`member_at`] for background work: the header is read from the listed span and the
/// member inflated through `pread` ([`inflate_from_source`]), never through a mapping.
pub fn member_from_source(src: &Source, index: u32, span: Span, limits: &Limits) -> Result<Member> {
    let not_found =
        || ParseError::new(span.start, ErrorKind::NotFound(format!("gzip member {index} at 0x{:x}", span.start)));
    if src.changed() {
        return Err(changed_on_disk(span.start));
    }
    // The header: at most its fixed part plus names, read by pread (64 KiB covers any
    // real FNAME/FCOMMENT; a longer one reads as a header error, as a cut extent does).
    let head_len = span.len().min(64 << 10);
    let mut head = vec![0u8; usize::try_from(head_len).unwrap_or(0)];
    let n = src.read_at(span.start, &mut head).map_err(|_| changed_on_disk(span.start))?;
    head.truncate(n);
    // MemberInfo::at reads absolute offsets: parse a window positioned at span.start.
    let m = super::parse::header_in_window(&head, index, span).ok_or_else(not_found)?;
    let bytes = inflate_from_source(src, &m, limits)?;
    Ok(Member { name: m.display_name(), bytes, inflated: true })
}
