//! Member starts and member headers: a member starts at a 2048-byte boundary holding
//! `1f 8b 08`; its header is read by the `raw.rs` declarations (fixed part, then the parts
//! FLG announces) within the member's extent.

use super::raw::{MemberHeader, MemberOptions};
use super::{MAGIC, SECTOR};
use crate::bytes::Bytes;
use crate::error::{ParseError, Result};
use crate::formats::record::{self, FixedSize, Prefix, Record, Spanned};
use crate::model::{Field, NodeId, Span, Value, WalkStep};

/// One listed member: where it is and what its gzip header says.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberInfo {
    /// Position in the archive (0-based).
    pub index: u32,
    /// Absolute offset of the member's first byte (a multiple of 2048).
    pub offset: u64,
    /// End of the member's extent (next member's start or end of file; includes padding).
    pub end: u64,
    /// FLG byte.
    pub flags: u8,
    /// MTIME (seconds since 1970, 0 = none).
    pub mtime: u32,
    /// XFL byte.
    pub xfl: u8,
    /// OS byte.
    pub os: u8,
    /// FEXTRA payload span, when present.
    pub extra: Option<Span>,
    /// FCOMMENT span (with the NUL), when present.
    pub comment: Option<Span>,
    /// Absolute offset where the deflate data starts.
    pub data_start: u64,
    /// A header problem (the member is still listed; inflating will likely fail).
    pub header_error: Option<ParseError>,
    /// The fixed header as far as the extent holds it.
    pub(super) header: Option<Prefix<MemberHeader>>,
    /// The optional parts, when they were read.
    pub(super) options: Option<Spanned<MemberOptions>>,
}

impl MemberInfo {
    /// The member listed at `span` (a member node's span) with index `index`: its header
    /// parsed again, touching only the header's bytes. None when no member starts there.
    pub fn at(data: &[u8], index: u32, span: Span) -> Option<MemberInfo> {
        if !is_member_start(data, span.start) || span.end > data.len() as u64 || span.end < span.start {
            return None;
        }
        Some(parse_header(&Bytes::new(data), index, span.start, span.end))
    }

    /// The member a listed node stands for (its `member` index and span).
    pub fn from_node(data: &[u8], node: &crate::model::Node) -> Option<MemberInfo> {
        MemberInfo::at(data, node.member?, node.span)
    }

    /// FNAME bytes (without the NUL), when present, and their span (with the NUL). Read from
    /// the header's optional parts, not copied out of them (one allocation fewer for every
    /// member a survey lists).
    pub fn name(&self) -> Option<(&[u8], Span)> {
        let n = self.options.as_ref()?.fname.as_ref()?;
        Some((&n.0, n.span))
    }

    /// Display name: FNAME decoded as Latin-1, or `member[i]`.
    pub fn display_name(&self) -> String {
        self.name_str().into_owned()
    }

    /// [`MemberInfo::display_name`] borrowed when FNAME is ASCII (the usual case, its own
    /// Latin-1 reading): a survey names every member it sniffs.
    pub fn name_str(&self) -> std::borrow::Cow<'_, str> {
        match self.name() {
            Some((n, _)) if !n.is_empty() => match std::str::from_utf8(n) {
                Ok(s) if n.is_ascii() => std::borrow::Cow::Borrowed(s),
                _ => std::borrow::Cow::Owned(n.iter().map(|&b| char::from(b)).collect()),
            },
            _ => std::borrow::Cow::Owned(format!("member[{}]", self.index)),
        }
    }

    /// The walk step of this member (node `id`) in a file of `len` bytes.
    pub(super) fn walk_step(&self, len: u64, id: NodeId) -> WalkStep {
        WalkStep {
            span: Span::new(self.offset, self.end),
            what: format!("gzip member {} at 0x{:x}", self.index, self.offset),
            detail: format!(
                "1f 8b 08 at a 2048-byte boundary; FLG 0x{:02x}; name {}; extent to {} 0x{:x}",
                self.flags,
                self.name().map_or("(none)".to_string(), |(n, _)| crate::model::escape_text(n)),
                if self.end == len { "end of file" } else { "next member" },
                self.end
            ),
            next: (self.end < len).then_some(self.end),
            node: Some(id),
        }
    }

    /// The member's fields: its header's as far as the extent holds them, the optional
    /// parts, then the deflate data with trailer and padding as one.
    pub(super) fn fields(&self) -> Vec<Field> {
        let mut fields = self.header.as_ref().map(|h| h.fields()).unwrap_or_default();
        if let Some(o) = &self.options {
            fields.extend(o.fields());
        }
        if self.header_error.is_none() {
            let ds = Span::new(self.data_start, self.end);
            fields.push(
                Field::new("deflate", ds, Value::bytes(ds.len()))
                    .note("deflate stream, crc32, isize, then zero padding to the next 2048-byte boundary"),
            );
        }
        fields
    }
}

/// Parse the gzip header at `offset` (which holds `1f 8b 08`). `end` bounds the member.
pub(super) fn parse_header(b: &Bytes<'_>, index: u32, offset: u64, end: u64) -> MemberInfo {
    match named_header(b, index, offset, end) {
        Some(info) => info,
        None => read_header(b, index, offset, end),
    }
}

/// The usual member header, FLG naming a file name and nothing else, read from its bytes:
/// the [`MemberInfo`] the declared records give ([`read_header`]), spans included, without
/// reading through them (a survey parses every member's header). None for any other
/// header, or when the name's NUL is not within the extent and the name field's bound.
fn named_header(b: &Bytes<'_>, index: u32, offset: u64, end: u64) -> Option<MemberInfo> {
    use super::raw::{FNAME, FNAME_MAX};
    let m = b.sub(offset, end).ok()?;
    let fixed = m.slice(offset, MemberHeader::SIZE).ok()?;
    let &[0x1f, 0x8b, 0x08, flg, t0, t1, t2, t3, xfl, os] = fixed.first_chunk::<10>()? else {
        return None;
    };
    if flg != FNAME {
        return None;
    }
    let name_at = offset + MemberHeader::SIZE;
    let field = m.slice(name_at, m.remaining_from(name_at).min(FNAME_MAX)).ok()?;
    let nul = memchr::memchr(0, field)?;
    let name = field.get(..nul)?;
    let at = |o: u64, n: u64| Span::at(offset + o, n);
    let header = MemberHeader {
        magic: Spanned { value: record::Magic, span: at(0, 2) },
        cm: Spanned { value: record::Magic, span: at(2, 1) },
        flg: Spanned { value: flg, span: at(3, 1) },
        mtime: Spanned { value: u32::from_le_bytes([t0, t1, t2, t3]), span: at(4, 4) },
        xfl: Spanned { value: xfl, span: at(8, 1) },
        os: Spanned { value: os, span: at(9, 1) },
    };
    let name_span = Span::at(name_at, nul as u64 + 1);
    let options = MemberOptions {
        fextra: None,
        fname: Some(Spanned { value: record::CString(name.to_vec()), span: name_span }),
        fcomment: None,
        fhcrc: None,
    };
    Some(MemberInfo {
        index,
        offset,
        end,
        flags: flg,
        mtime: *header.mtime,
        xfl,
        os,
        extra: None,
        comment: None,
        data_start: name_span.end,
        header_error: None,
        header: Some(Prefix { record: header, complete: true, end: m.end() }),
        options: Some(Spanned { value: options, span: name_span }),
    })
}

/// [`parse_header`] through the declared records.
fn read_header(b: &Bytes<'_>, index: u32, offset: u64, end: u64) -> MemberInfo {
    let mut info = MemberInfo {
        index,
        offset,
        end,
        flags: 0,
        mtime: 0,
        xfl: 0,
        os: 0,
        extra: None,
        comment: None,
        data_start: offset.saturating_add(MemberHeader::SIZE).min(end),
        header_error: None,
        header: None,
        options: None,
    };
    let r = (|| -> Result<()> {
        let m = b.sub(offset, end)?;
        // Most headers are whole: one read, kept as the prefix too.
        let h = match record::read_at::<MemberHeader>(&m, offset) {
            Ok(h) => h,
            Err(e) => {
                info.header = record::read_prefix::<MemberHeader>(&m, offset);
                return Err(e);
            }
        };
        info.header = Some(Prefix { record: h.clone(), complete: true, end: m.end() });
        info.flags = *h.flg;
        info.mtime = *h.mtime;
        info.xfl = *h.xfl;
        info.os = *h.os;
        let o: Spanned<MemberOptions> = record::read(&m, h.os.span.end, (*h.flg,))?;
        info.extra = o.fextra.as_ref().map(|x| x.extra.span);
        info.comment = o.fcomment.as_ref().map(|c| c.span);
        info.data_start = o.span.end;
        info.options = Some(o);
        Ok(())
    })();
    if let Err(e) = r {
        info.header_error = Some(e.within(format!("member[{index}] header")));
    }
    info
}

/// The member listed at `span` from `head`, a copy of the bytes from `span.start` (at
/// least its header): as [`MemberInfo::at`] without touching the rest of the archive.
pub(super) fn header_in_window(head: &[u8], index: u32, span: Span) -> Option<MemberInfo> {
    if head.get(..3) != Some(&MAGIC[..]) || span.end < span.start {
        return None;
    }
    // Parsed within the window (the header reader views its whole extent), then given the
    // listed extent back.
    let window_end = span.start.saturating_add(head.len() as u64).min(span.end);
    let mut m = parse_header(&Bytes::with_base(head, span.start), index, span.start, window_end);
    m.end = span.end;
    Some(m)
}

pub(super) fn is_member_start(data: &[u8], o: u64) -> bool {
    usize::try_from(o).ok().and_then(|o| data.get(o..o.checked_add(3)?)).is_some_and(|s| s == MAGIC)
}

/// Member starts (offsets of `1f 8b 08` at 2048-byte boundaries) in `from..to` of `data`.
pub fn probe(data: &[u8], from: u64, to: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut o = from.div_ceil(SECTOR).saturating_mul(SECTOR);
    let to = to.min(data.len() as u64);
    while o < to {
        if is_member_start(data, o) {
            out.push(o);
        }
        o = o.saturating_add(SECTOR);
    }
    out
}

/// Like [`probe`], but reading through `read_at(offset, buf) -> bytes read` (e.g. `pread`
/// on the file) in 1 MiB chunks instead of touching a memory map, so a scan of a large
/// file does not fault every page into the process (mapped pages count toward RSS).
pub fn probe_reader(
    read_at: &mut dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize>,
    from: u64,
    to: u64,
) -> std::io::Result<Vec<u64>> {
    const CHUNK: u64 = 1 << 20; // a multiple of SECTOR
    let mut out = Vec::new();
    let mut buf = vec![0u8; CHUNK as usize];
    let mut base = from.div_ceil(SECTOR).saturating_mul(SECTOR);
    while base < to {
        let want = usize::try_from((to - base).min(CHUNK)).unwrap_or(0);
        let Some(chunk) = buf.get_mut(..want) else { break };
        let mut got = 0usize;
        while got < want {
            let Some(rest) = chunk.get_mut(got..) else { break };
            let n = read_at(base + got as u64, rest)?;
            if n == 0 {
                break;
            }
            got += n;
        }
        let filled = chunk.get(..got).unwrap_or(&[]);
        let mut rel = 0usize;
        while rel < got {
            if filled.get(rel..rel + 3).is_some_and(|s| s == MAGIC) {
                out.push(base + rel as u64);
            }
            rel += SECTOR as usize;
        }
        if got < want {
            break; // end of file
        }
        base += CHUNK;
    }
    Ok(out)
}

/// List members progressively: probe 2048-byte boundaries from `from` (rounded up to a
/// boundary) and return at most `max_members` members plus the offset to resume from
/// (`None` when the end of the data was reached). Member indexes continue from
/// `first_index`. Each member's extent ends at the next member's start, so the scan looks
/// one member ahead.
pub fn scan(data: &[u8], from: u64, first_index: u32, max_members: usize) -> (Vec<MemberInfo>, Option<u64>) {
    let b = Bytes::new(data);
    let len = data.len() as u64;
    let mut starts: Vec<u64> = Vec::new();
    let mut o = from.div_ceil(SECTOR).saturating_mul(SECTOR);
    let mut resume = None;
    while o < len {
        if is_member_start(data, o) {
            if starts.len() == max_members {
                resume = Some(o);
                break;
            }
            starts.push(o);
        }
        o = o.saturating_add(SECTOR);
    }
    (members_from_starts(&b, &starts, first_index, resume.unwrap_or(len)), resume)
}

/// Members at `starts` (ascending), numbered from `first_index`; each ends where the next
/// begins, the last at `last_end`.
fn members_from_starts(b: &Bytes, starts: &[u64], first_index: u32, last_end: u64) -> Vec<MemberInfo> {
    let mut out = Vec::with_capacity(starts.len());
    for (i, &s) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(last_end);
        let idx = first_index.saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
        out.push(parse_header(b, idx, s, end));
    }
    out
}

/// Every member of `data` (a convenience over [`scan`]).
pub fn list(data: &[u8]) -> Vec<MemberInfo> {
    scan(data, 0, 0, usize::MAX).0
}

/// [`list`], probing in 64 MiB steps and telling `probed(n)` after each step how many more
/// bytes have been searched (adding up to `data.len()`): listing a big archive reads all of
/// it, which on a slow disk is most of a survey's time.
pub fn list_reporting(data: &[u8], probed: &dyn Fn(u64)) -> Vec<MemberInfo> {
    let starts = starts_reporting(data, probed);
    members_from_starts(&Bytes::new(data), &starts, 0, data.len() as u64)
}

/// The members' starts [`list_reporting`] finds, reporting as it does.
pub fn starts_reporting(data: &[u8], probed: &dyn Fn(u64)) -> Vec<u64> {
    const STEP: u64 = 64 << 20;
    let len = data.len() as u64;
    let mut starts = Vec::new();
    let mut from = 0u64;
    while from < len {
        let to = from.saturating_add(STEP).min(len);
        starts.extend(probe(data, from, to));
        probed(to - from);
        from = to;
    }
    starts
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod named_header_tests {
    use super::*;

    /// The header read from its bytes is the one the declared records read, spans and
    /// all, for every header it takes: the fixtures' members, and headers cut short, with
    /// other flags, or with a name longer than the field allows.
    #[test]
    fn the_named_header_is_the_declared_reading() {
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for (_, bytes) in crate::fixtures::all() {
            for o in (0..bytes.len()).step_by(SECTOR as usize) {
                if is_member_start(&bytes, o as u64) {
                    inputs.push(bytes.get(o..).unwrap().iter().take(4096).copied().collect());
                }
            }
        }
        let mut made = vec![0x1f, 0x8b, 0x08, 0x08, 1, 2, 3, 4, 0, 3];
        made.extend_from_slice(b"name.bin\0rest");
        for flg in [0u8, 0x08, 0x0a, 0x0c, 0x18, 0x09, 0x88] {
            let mut h = made.clone();
            h[3] = flg;
            for cut in [3, 9, 10, 11, 18, 19, h.len()] {
                inputs.push(h[..cut].to_vec());
            }
        }
        let mut long = made[..10].to_vec();
        long.extend(std::iter::repeat_n(b'a', 1100));
        long.push(0);
        inputs.push(long);
        let mut taken = 0;
        for data in &inputs {
            let b = Bytes::new(data);
            for end in [data.len() as u64, (data.len() as u64).min(14)] {
                if let Some(fast) = named_header(&b, 7, 0, end) {
                    taken += 1;
                    assert_eq!(fast, read_header(&b, 7, 0, end));
                }
                let base = Bytes::with_base(data, 4096);
                if let Some(fast) = named_header(&base, 7, 4096, 4096 + end) {
                    assert_eq!(fast, read_header(&base, 7, 4096, 4096 + end));
                }
            }
        }
        assert!(taken > 10, "only {taken} headers taken from their bytes");
    }
}
