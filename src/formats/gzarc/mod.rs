//! Sector-aligned gzip archives (`gzarc`): `DATA/DATA.BIN` and `STREAM/*.BIN` of
//! .hack//Infection (spec `shared/specs/ccsf.md` §2), and plain single-member gzip files.
//!
//! There is no header and no directory: members are gzip streams laid end to end, each
//! starting on a 2048-byte boundary and followed by zero padding up to the next boundary.
//! A member starts at sector offset `o` iff bytes `o..o+3` are `1f 8b 08`; the pattern also
//! occurs inside compressed data off the boundaries, so only boundaries are probed. A
//! member's extent runs to the next member's start (or the end of the file) and includes
//! its padding. A plain `.gz` file is the one-member case.
//!
//! Listing is incremental ([`scan`]) so consumers can show members as they are found in a
//! multi-gigabyte archive. Members are inflated on demand ([`inflate`], capped by
//! `Limits::max_inflated`). Caching: [`MemberCache`] is a small memory-bounded cache
//! (`Limits::cache_bytes`) a consumer may hold; the `Format` methods themselves never cache
//! (they are called from parallel survey workers and from one-shot CLI verbs).
//!
//! Unknown / not handled: whether any stream member is stored uncompressed (a gzip scan
//! cannot list such a member, spec §13.7); FCOMMENT and FHCRC never occur on the disc but
//! are skipped when present.

mod listing;
pub mod write;

pub use listing::{
    ListingProgress, ReadAt, TAIL_KEY, TAIL_KIND, apply_probe, apply_probe_reading, continue_listing, listing_progress,
    next_probe_range, probe, probe_reader,
};

use super::{Format, Member, Survey};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, Severity, Span};
use rayon::prelude::*;
use std::io::Read;
use std::sync::{Arc, Mutex};

/// Members start only on multiples of this.
pub const SECTOR: u64 = 2048;
/// The 3-byte member magic (ID1, ID2, CM = deflate).
pub const MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

const FTEXT: u8 = 0x01;
const FHCRC: u8 = 0x02;
const FEXTRA: u8 = 0x04;
const FNAME: u8 = 0x08;
const FCOMMENT: u8 = 0x10;

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
    /// FNAME bytes (without the NUL), when present; span covers the NUL too.
    pub name: Option<(Vec<u8>, Span)>,
    /// FCOMMENT span (with the NUL), when present.
    pub comment: Option<Span>,
    /// Absolute offset where the deflate data starts.
    pub data_start: u64,
    /// A header problem (the member is still listed; inflating will likely fail).
    pub header_error: Option<ParseError>,
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

    /// Display name: FNAME decoded as Latin-1, or `member[i]`.
    pub fn display_name(&self) -> String {
        match &self.name {
            Some((n, _)) if !n.is_empty() => n.iter().map(|&b| char::from(b)).collect(),
            _ => format!("member[{}]", self.index),
        }
    }
}

/// Parse the gzip header at `offset` (which holds `1f 8b 08`). `end` bounds the member.
fn parse_header(b: &Bytes<'_>, index: u32, offset: u64, end: u64) -> MemberInfo {
    let mut info = MemberInfo {
        index,
        offset,
        end,
        flags: 0,
        mtime: 0,
        xfl: 0,
        os: 0,
        extra: None,
        name: None,
        comment: None,
        data_start: offset.saturating_add(10).min(end),
        header_error: None,
    };
    let r = (|| -> Result<()> {
        let m = b.sub(offset, end)?;
        info.flags = m.u8(offset + 3)?;
        info.mtime = m.u32_le(offset + 4)?;
        info.xfl = m.u8(offset + 8)?;
        info.os = m.u8(offset + 9)?;
        let mut p = offset + 10;
        if info.flags & FEXTRA != 0 {
            let xlen = u64::from(m.u16_le(p)?);
            m.slice(p + 2, xlen)?;
            info.extra = Some(Span::at(p + 2, xlen));
            p += 2 + xlen;
        }
        if info.flags & FNAME != 0 {
            let n = m.cstr(p, 1024)?;
            let len = n.len() as u64 + 1;
            info.name = Some((n.to_vec(), Span::at(p, len)));
            p += len;
        }
        if info.flags & FCOMMENT != 0 {
            let n = m.cstr(p, 1 << 16)?;
            let len = n.len() as u64 + 1;
            info.comment = Some(Span::at(p, len));
            p += len;
        }
        if info.flags & FHCRC != 0 {
            m.u16_le(p)?;
            p += 2;
        }
        info.data_start = p;
        Ok(())
    })();
    if let Err(e) = r {
        info.header_error = Some(e.within(format!("member[{index}] header")));
    }
    info
}

fn is_member_start(data: &[u8], o: u64) -> bool {
    usize::try_from(o).ok().and_then(|o| data.get(o..o.checked_add(3)?)).is_some_and(|s| s == MAGIC)
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
    const STEP: u64 = 64 << 20;
    let len = data.len() as u64;
    let mut starts = Vec::new();
    let mut from = 0u64;
    while from < len {
        let to = from.saturating_add(STEP).min(len);
        starts.extend(listing::probe(data, from, to));
        probed(to - from);
        from = to;
    }
    members_from_starts(&Bytes::new(data), &starts, 0, len)
}

/// Inflate one gzip member from its extent. The output is capped at `limits.max_inflated`
/// bytes (a bomb stops with `LimitExceeded`, never exhausting memory); a stream that does
/// not inflate is an `Inflate` error at the member's offset.
pub fn inflate(data: &[u8], m: &MemberInfo, limits: &Limits) -> Result<Vec<u8>> {
    let path = format!("member[{}] {}", m.index, m.display_name());
    if let Some(e) = &m.header_error {
        return Err(e.clone());
    }
    let slice = Bytes::new(data).slice(m.offset, m.end.saturating_sub(m.offset)).map_err(|e| e.within(&path))?;
    let max = limits.max_inflated;
    // Size the output from the trailer's ISIZE (inflated length mod 2^32), trusted only up
    // to the cap and to deflate's best ratio (1032:1), so a lying trailer cannot make a big
    // allocation; a wrong guess only costs regrowth.
    let isize_hint = slice
        .last_chunk::<4>()
        .map_or(0, |t| u64::from(u32::from_le_bytes(*t)).min(max).min(slice.len() as u64 * 1032));
    let mut out = Vec::with_capacity(usize::try_from(isize_hint).unwrap_or(0));
    // bufread: the decoder reads the mapped bytes in place (no intermediate buffer copy).
    let mut dec = flate2::bufread::GzDecoder::new(slice).take(max.saturating_add(1));
    dec.read_to_end(&mut out).map_err(|e| {
        ParseError::new(m.offset, ErrorKind::Inflate(format!("member does not inflate: {e}"))).within(&path)
    })?;
    if out.len() as u64 > max {
        return Err(ParseError::new(
            m.offset,
            ErrorKind::LimitExceeded { what: "inflated bytes", value: max + 1, max },
        )
        .within(&path));
    }
    Ok(out)
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
/// touching only the member's own bytes (`GzArc`'s [`Format::member_in`]). [`Format::member`]
/// only gets an index and so has to probe every boundary before the member.
pub fn member_at(data: &[u8], index: u32, span: Span, limits: &Limits) -> Result<Member> {
    let m = MemberInfo::at(data, index, span).ok_or_else(|| {
        ParseError::new(span.start, ErrorKind::NotFound(format!("gzip member {index} at 0x{:x}", span.start)))
    })?;
    let bytes = inflate(data, &m, limits)?;
    Ok(Member { name: m.display_name(), bytes, inflated: true })
}

/// The sector-gzip archive format.
#[derive(Debug, Clone, Copy)]
pub struct GzArc;

fn flag_names(f: u8) -> Vec<String> {
    let mut v = Vec::new();
    for (bit, n) in [(FTEXT, "FTEXT"), (FHCRC, "FHCRC"), (FEXTRA, "FEXTRA"), (FNAME, "FNAME"), (FCOMMENT, "FCOMMENT")] {
        if f & bit != 0 {
            v.push(n.to_string());
        }
    }
    if f & 0xe0 != 0 {
        v.push(format!("reserved 0x{:02x}", f & 0xe0));
    }
    v
}

impl Format for GzArc {
    fn listing_progress(&self, doc: &Document) -> Option<super::ListingProgress> {
        listing::listing_progress(doc).map(|p| super::ListingProgress {
            members: p.members,
            listed_bytes: p.listed_to,
            probed_bytes: p.probed_to,
            len: p.len,
        })
    }

    fn next_probe_range(&self, doc: &Document, step: u64) -> Option<(u64, u64)> {
        listing::next_probe_range(doc, step)
    }

    fn probe(
        &self,
        read_at: &mut dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize>,
        from: u64,
        to: u64,
    ) -> std::io::Result<Vec<u64>> {
        listing::probe_reader(read_at, from, to)
    }

    fn apply_probe(
        &self,
        data: &[u8],
        doc: &mut Document,
        step: &super::ListingStep,
        read_at: &mut dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize>,
    ) -> bool {
        listing::apply_probe_reading(data, doc, step.from, step.to, &step.starts, read_at)
    }

    fn id(&self) -> &'static str {
        "gzarc"
    }

    fn description(&self) -> &'static str {
        "sector-aligned gzip archive (DATA.BIN, STREAM/*.BIN) or a single gzip file"
    }

    fn sniff(&self, data: &[u8], name: &str) -> u8 {
        if !data.starts_with(&MAGIC) {
            return 0;
        }
        if name.to_ascii_lowercase().ends_with(".bin") { 90 } else { 80 }
    }

    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        let len = data.len() as u64;
        let mut doc = Document::new("gzarc", name, "gzip archive", len);
        listing::start(&mut doc);
        continue_listing(data, &mut doc, limits.list_budget);
        let members = doc.root().children.len();
        if members >= limits.max_nodes {
            return Err(ParseError::new(
                0,
                ErrorKind::LimitExceeded { what: "members", value: members as u64, max: limits.max_nodes as u64 },
            ));
        }
        Ok(doc)
    }

    fn check(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let doc = self.describe(data, name, limits)?;
        self.check_parsed(data, name, &doc, limits)
    }

    fn check_parsed(&self, data: &[u8], _name: &str, doc: &Document, limits: &Limits) -> Result<Vec<Diagnostic>> {
        // Every member inflated and checked by its own format, in parallel, reported in order.
        let mut out: Vec<Diagnostic> =
            doc.diagnostics.iter().filter(|d| d.severity >= Severity::Warning).cloned().collect();
        let members = list(data);
        let per: Vec<Vec<Diagnostic>> = members
            .par_iter()
            .map(|m| {
                let mname = m.display_name();
                let r = inflate(data, m, limits)
                    .and_then(|bytes| super::sniff(&bytes, &mname).check(&bytes, &mname, limits));
                match r {
                    Ok(ds) => ds
                        .into_iter()
                        .map(|mut d| {
                            d.path = if d.path.is_empty() { mname.clone() } else { format!("{mname} > {}", d.path) };
                            d.message = format!("{} (offset in the inflated member)", d.message);
                            d
                        })
                        .collect(),
                    Err(e) => vec![Diagnostic::from_error(&e)],
                }
            })
            .collect();
        out.extend(per.into_iter().flatten());
        Ok(out)
    }

    fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let (ms, _) = scan(data, 0, 0, usize::try_from(index).unwrap_or(usize::MAX).saturating_add(1));
        let m = ms
            .into_iter()
            .nth(usize::try_from(index).unwrap_or(usize::MAX))
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("gzip member {index}"))))?;
        let bytes = inflate(data, &m, limits)?;
        Ok(Member { name: m.display_name(), bytes, inflated: true })
    }

    fn member_in(&self, data: &[u8], index: u32, span: Span, limits: &Limits) -> Result<Member> {
        member_at(data, index, span, limits)
    }

    fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        self.survey_progress(data, name, limits, &|_| {})
    }

    fn survey_progress(&self, data: &[u8], name: &str, limits: &Limits, done: &(dyn Fn(u64) + Sync)) -> Result<Survey> {
        // Progress: listing reads every byte once and surveying reads every member again,
        // so each counts for half (cumulative halves, so the reports add up to the length).
        let len = data.len() as u64;
        let half = |x: u64| x / 2;
        let listed = std::sync::atomic::AtomicU64::new(0);
        let members = list_reporting(data, &|n| {
            let old = listed.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            done(half(old + n) - half(old));
        });
        let surveyed = std::sync::atomic::AtomicU64::new(0);
        let survey_done = |n: u64| {
            let old = surveyed.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            done((old + n - half(old + n)) - (old - half(old)));
        };
        let extents: u64 = members.iter().map(|m| m.end - m.offset).sum();
        // the bytes outside members (gaps before the first member) need no second pass
        survey_done(len.saturating_sub(extents));
        let results: Vec<(u64, Result<Survey>)> = members
            .par_iter()
            .map(|m| {
                let r = inflate(data, m, limits).and_then(|bytes| {
                    let mname = m.display_name();
                    let f = super::sniff(&bytes, &mname);
                    let mut s = f.survey(&bytes, &mname, limits).map_err(|e| e.within(&mname))?;
                    s.add("members.inflated_bytes", bytes.len() as u64);
                    s.add(format!("members.format.{}", f.id()), 1);
                    Ok(s)
                });
                survey_done(m.end - m.offset);
                (m.end - m.offset, r)
            })
            .collect();
        let mut total = Survey { format: "gzarc", name: name.to_string(), ..Survey::default() };
        total.add("members", members.len() as u64);
        for (csize, r) in results {
            total.add("members.extent_bytes", csize);
            match r {
                Ok(s) => {
                    total.add("members.inflated", 1);
                    total.merge(s);
                }
                Err(e) => {
                    total.add("members.failed", 1);
                    total.findings.push(Diagnostic::from_error(&e));
                }
            }
        }
        if members.is_empty() {
            total.findings.push(Diagnostic::new(
                Severity::Error,
                Some(0),
                "",
                "no gzip member at any 2048-byte boundary",
            ));
        }
        Ok(total)
    }
}

#[cfg(test)]
mod vectors;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests {
    use super::*;
    use crate::model::{Node, WalkStep};

    fn arc(members: &[(&str, &[u8])]) -> Vec<u8> {
        write::archive(&members.iter().map(|(n, b)| (n.to_string(), b.to_vec())).collect::<Vec<_>>())
    }

    /// Survey progress arrives per listing step and per member and adds up to the
    /// archive's length; the counters are those of the plain survey.
    #[test]
    fn survey_progress_adds_up_member_by_member() {
        let payloads: Vec<Vec<u8>> = (0..5u8).map(|i| vec![i; 3000 + usize::from(i) * 5000]).collect();
        let named: Vec<(&str, &[u8])> =
            ["a.bin", "b.bin", "c.bin", "d.bin", "e.bin"].into_iter().zip(payloads.iter().map(Vec::as_slice)).collect();
        let small = arc(&named);
        // and one over several 64 MiB listing steps: the same members 100 MiB apart
        let mut big = vec![0u8; 130 << 20];
        big[..small.len()].copy_from_slice(&small);
        big[100 << 20..(100 << 20) + small.len()].copy_from_slice(&small);
        let lim = Limits::default();
        for (data, steps) in [(small, 1), (big, 3)] {
            let calls = Mutex::new(Vec::new());
            let s = GzArc.survey_progress(&data, "p.bin", &lim, &|n| calls.lock().unwrap().push(n)).unwrap();
            let calls = calls.into_inner().unwrap();
            let members = list(&data);
            assert_eq!(list_reporting(&data, &|_| {}), members);
            assert_eq!(calls.len(), steps + 1 + members.len(), "listing steps, the gaps, each member: {calls:?}");
            assert_eq!(calls.iter().sum::<u64>(), data.len() as u64);
            assert_eq!(s, GzArc.survey(&data, "p.bin", &lim).unwrap());
        }
    }

    #[test]
    fn header_fields_from_hand_written_member() {
        // A gzip header written by hand (RFC 1952), then a stored deflate block.
        let mut m = vec![
            0x1f, 0x8b, // ID1 ID2
            0x08, // CM = deflate
            0x0c, // FLG = FEXTRA | FNAME
            0x3e, 0x0b, 0x08, 0x3a, // MTIME = 0x3a080b3e = 973605694
            0x00, // XFL
            0x03, // OS = unix
            0x02, 0x00, // XLEN = 2
            0xaa, 0xbb, // extra payload
            b'a', b'.', b'c', b'm', b'p', 0x00, // FNAME "a.cmp"
        ];
        // stored block "hi", crc32, isize
        m.extend([0x01, 0x02, 0x00, 0xfd, 0xff, b'h', b'i']);
        let crc = {
            let mut c = flate2::Crc::new();
            c.update(b"hi");
            c.sum()
        };
        m.extend(crc.to_le_bytes());
        m.extend(2u32.to_le_bytes());
        let (ms, next) = scan(&m, 0, 0, 10);
        assert_eq!(next, None);
        assert_eq!(ms.len(), 1);
        let i = &ms[0];
        assert_eq!(i.flags, 0x0c);
        assert_eq!(i.mtime, 973_605_694);
        assert_eq!(i.os, 3);
        assert_eq!(i.extra, Some(Span::new(12, 14)));
        assert_eq!(i.name.as_ref().map(|(n, s)| (n.as_slice(), *s)), Some((&b"a.cmp"[..], Span::new(14, 20))));
        assert_eq!(i.data_start, 20);
        assert_eq!(inflate(&m, i, &Limits::default()).unwrap(), b"hi");
    }

    #[test]
    fn only_sector_boundaries_are_probed() {
        let mut a = arc(&[("a.cmp", b"first"), ("b.cmp", b"second")]);
        // the magic off a boundary (inside padding) must not start a member
        let off = 2048 - 8;
        a[off..off + 3].copy_from_slice(&MAGIC);
        let ms = list(&a);
        assert_eq!(ms.iter().map(|m| m.offset).collect::<Vec<_>>(), vec![0, 2048]);
        assert_eq!(ms[0].end, 2048);
        assert_eq!(ms[1].end, 4096);
        assert_eq!(ms[1].display_name(), "b.cmp");
        assert_eq!(inflate(&a, &ms[1], &Limits::default()).unwrap(), b"second");
    }

    #[test]
    fn incremental_scan_resumes() {
        let a = arc(&[("a", b"1"), ("b", b"2"), ("c", b"3")]);
        let (first, next) = scan(&a, 0, 0, 2);
        assert_eq!(first.len(), 2);
        assert_eq!(next, Some(4096));
        assert_eq!(first[1].end, 4096);
        let (rest, next) = scan(&a, next.unwrap(), 2, 2);
        assert_eq!(next, None);
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].index, 2);
        assert_eq!(rest[0].display_name(), "c");
    }

    #[test]
    fn gzip_bomb_stops_at_the_limit() {
        let a = arc(&[("bomb", &vec![0u8; 1 << 20])]);
        let m = &list(&a)[0];
        let limits = Limits { max_inflated: 4096, ..Limits::default() };
        let e = inflate(&a, m, &limits).unwrap_err();
        assert_eq!(e.kind, ErrorKind::LimitExceeded { what: "inflated bytes", value: 4097, max: 4096 });
        assert_eq!(e.offset, 0);
    }

    #[test]
    fn corrupt_member_is_an_inflate_error_at_its_offset() {
        let mut a = arc(&[("a", b"ok"), ("b", b"this will break")]);
        for x in &mut a[2048 + 12..2048 + 30] {
            *x = 0xff;
        }
        let ms = list(&a);
        let e = inflate(&a, &ms[1], &Limits::default()).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Inflate(_)), "{e}");
        assert_eq!(e.offset, 2048);
        assert!(e.path.contains("member[1] b"), "{e}");
    }

    proptest::proptest! {
        #[test]
        fn archives_round_trip(members in proptest::collection::vec(("[a-z]{1,12}\\.cmp", proptest::collection::vec(proptest::prelude::any::<u8>(), 0..5000)), 1..6)) {
            let a = write::archive(&members);
            let ms = list(&a);
            proptest::prop_assert_eq!(ms.len(), members.len());
            for (m, (name, bytes)) in ms.iter().zip(&members) {
                proptest::prop_assert_eq!(m.offset % SECTOR, 0);
                proptest::prop_assert_eq!(&m.display_name(), name);
                proptest::prop_assert_eq!(m.mtime, write::FIXTURE_MTIME);
                proptest::prop_assert_eq!(&inflate(&a, m, &Limits::default()).unwrap(), bytes);
            }
        }
    }

    /// Everything a consumer sees of a document, for comparing listings.
    fn snapshot(d: &Document) -> (Vec<Node>, Vec<Diagnostic>, Vec<WalkStep>) {
        (d.nodes.clone(), d.diagnostics.clone(), d.walk.clone())
    }

    fn list_in_steps(data: &[u8], first: u64, step: u64) -> Document {
        let limits = Limits { list_budget: first, ..Limits::default() };
        let mut doc = GzArc.describe(data, "a.bin", &limits).unwrap();
        assert_eq!(doc.validate(), Ok(()));
        for _ in 0..10_000 {
            if continue_listing(data, &mut doc, step) {
                break;
            }
            assert_eq!(doc.validate(), Ok(()));
        }
        assert_eq!(doc.validate(), Ok(()));
        doc
    }

    #[test]
    fn progressive_listing_steps_by_hand() {
        // members a, b, c at 0x0, 0x800, 0x1000; the file ends at 0x1800
        let a = arc(&[("a", b"1"), ("b", b"2"), ("c", b"3")]);
        assert_eq!(a.len(), 0x1800);
        let limits = Limits { list_budget: 0x800, ..Limits::default() };
        let mut doc = GzArc.describe(&a, "a.bin", &limits).unwrap();
        // step 1 probed 0x0..0x800: a found, its end unknown, so nothing listed yet
        let p = listing_progress(&doc).unwrap();
        assert_eq!(p, ListingProgress { members: 0, listed_to: 0, probed_to: 0x800, len: 0x1800 });
        assert!(!p.complete());
        let tail = doc.nodes.last().unwrap();
        assert_eq!((tail.key.as_str(), tail.kind.as_str(), tail.span), (TAIL_KEY, TAIL_KIND, Span::new(0, 0x1800)));
        assert!(doc.diagnostics.iter().any(|d| d.severity == Severity::Info && d.offset == Some(0)));
        assert_eq!(doc.validate(), Ok(()));
        // step 2 probes 0x800..0x1000: b starts at 0x800, so a (0x0..0x800) is listed
        assert!(!continue_listing(&a, &mut doc, 0x800));
        let p = listing_progress(&doc).unwrap();
        assert_eq!(p, ListingProgress { members: 1, listed_to: 0x800, probed_to: 0x1000, len: 0x1800 });
        assert_eq!(doc.find_path("a.bin/a").map(|n| doc.node(n).unwrap().span), Some(Span::new(0, 0x800)));
        assert_eq!(doc.nodes.last().unwrap().span, Span::new(0x800, 0x1800));
        assert_eq!(doc.validate(), Ok(()));
        // step 3 reaches the end: b and c listed, no placeholder, no info diagnostic left
        assert!(continue_listing(&a, &mut doc, 0x800));
        assert_eq!(
            listing_progress(&doc).unwrap(),
            ListingProgress { members: 3, listed_to: 0x1800, probed_to: 0x1800, len: 0x1800 }
        );
        assert!(doc.nodes.iter().all(|n| n.kind != TAIL_KIND));
        assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
        assert_eq!(doc.root().summary, "3 members");
        assert!(continue_listing(&a, &mut doc, 0x800), "a complete listing stays complete");
    }

    #[test]
    fn listing_in_steps_equals_listing_at_once() {
        let mut lead = vec![0x55u8; 2 * 2048]; // two sectors with no member start
        lead.extend(arc(&[("x.cmp", &[7u8; 9000]), ("x.cmp", b"dup"), ("y/z", &[1u8; 5000]), ("w", b"")]));
        let cases: Vec<Vec<u8>> = vec![
            arc(&[("a", b"1"), ("b", &[9u8; 7000]), ("c", b"3")]),
            lead,
            vec![0u8; 3 * 2048 + 5], // no member at all
            arc(&[("only", &(0..20000u32).map(|i| (i * 7919 % 251) as u8).collect::<Vec<_>>())]),
        ];
        for data in &cases {
            let once = GzArc.describe(data, "a.bin", &Limits::default()).unwrap();
            for (first, step) in [(0, 1), (2048, 2048), (4096, 6144), (1, 1 << 30)] {
                let stepped = list_in_steps(data, first, step);
                assert_eq!(snapshot(&stepped), snapshot(&once), "first {first} step {step}");
                // the same through a reader (pread-style), headers included
                let mut read_at = |o: u64, buf: &mut [u8]| -> std::io::Result<usize> {
                    let src = data.get(o as usize..).unwrap_or(&[]);
                    let n = src.len().min(buf.len());
                    buf[..n].copy_from_slice(&src[..n]);
                    Ok(n)
                };
                let mut doc =
                    GzArc.describe(data, "a.bin", &Limits { list_budget: first, ..Limits::default() }).unwrap();
                while let Some((from, to)) = next_probe_range(&doc, step) {
                    let starts = probe_reader(&mut read_at, from, to).unwrap();
                    let done = apply_probe_reading(data, &mut doc, from, to, &starts, &mut read_at);
                    assert_eq!(doc.validate(), Ok(()));
                    if done {
                        break;
                    }
                }
                assert_eq!(snapshot(&doc), snapshot(&once), "reader: first {first} step {step}");
            }
        }
    }

    #[test]
    fn reader_probe_agrees_with_memory_probe() {
        let mut a = arc(&[("a", &[1u8; 3_000_000]), ("b", b"2")]);
        a.extend(vec![0u8; (3 << 20) + 2048]); // past several 1 MiB chunks
        a.extend(arc(&[("c", b"3")]));
        a.extend([0u8; 100]); // an end off the sector grid
        let len = a.len() as u64;
        let mut read_at = |o: u64, buf: &mut [u8]| -> std::io::Result<usize> {
            let o = o as usize;
            let n = buf.len().min(a.len().saturating_sub(o)).min(777_777); // short reads too
            buf[..n].copy_from_slice(&a[o..o + n]);
            Ok(n)
        };
        for (from, to) in [(0, len), (2048, len - 1), (4096, 1 << 20), (len, len)] {
            assert_eq!(probe_reader(&mut read_at, from, to).unwrap(), probe(&a, from, to), "{from}..{to}");
        }
        let starts = probe(&a, 0, len);
        assert_eq!(starts.len(), 3);
        let mut doc = GzArc.describe(&a, "a.bin", &Limits { list_budget: 0, ..Limits::default() }).unwrap();
        let (from, to) = next_probe_range(&doc, u64::MAX).unwrap();
        assert_eq!(from, 2048, "the first step probed one sector");
        let found = probe_reader(&mut read_at, from, to).unwrap();
        assert!(!apply_probe(&a, &mut doc, from + 2048, to, &found), "a range that does not continue is ignored");
        let mut doc2 = GzArc.describe(&a, "a.bin", &Limits { list_budget: 0, ..Limits::default() }).unwrap();
        assert!(apply_probe(&a, &mut doc, from, to, &found));
        assert_eq!(snapshot(&doc), snapshot(&GzArc.describe(&a, "a.bin", &Limits::default()).unwrap()));
        // headers read through the reader give the same document
        assert!(apply_probe_reading(&a, &mut doc2, from, to, &found, &mut read_at));
        assert_eq!(snapshot(&doc2), snapshot(&doc));
    }

    #[test]
    fn member_at_opens_a_listed_node_like_member() {
        let a = arc(&[("a", b"first"), ("b", &[3u8; 5000]), ("c", b"third")]);
        let doc = GzArc.describe(&a, "a.bin", &Limits::default()).unwrap();
        for n in doc.nodes.iter().filter(|n| n.member.is_some()) {
            let i = n.member.unwrap();
            let by_index = GzArc.member(&a, i, &Limits::default()).unwrap();
            assert_eq!(member_at(&a, i, n.span, &Limits::default()).unwrap(), by_index);
            assert_eq!(GzArc.member_in(&a, i, n.span, &Limits::default()).unwrap(), by_index);
        }
        let e = member_at(&a, 0, Span::new(10, 2048), &Limits::default()).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::NotFound(_)), "{e}");
        assert!(member_at(&a, 0, Span::new(0, 1 << 40), &Limits::default()).is_err());
    }

    #[test]
    fn info_on_a_large_archive_lists_only_its_budget_and_says_so() {
        use clap::Parser;
        // member a at 0, then b just past the interactive budget: info lists a's start only
        let budget = crate::limits::INTERACTIVE_LIST_BUDGET;
        let mut data = arc(&[("a.cmp", b"first")]);
        data.resize(budget as usize + 2048, 0);
        data.extend(arc(&[("b.cmp", b"second")]));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("BIG.BIN");
        std::fs::write(&path, &data).unwrap();
        let run = |args: &[&str]| {
            let mut out = Vec::new();
            let cli = crate::cli::Cli::try_parse_from(args).unwrap();
            crate::cli::run(cli, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let p = path.to_str().unwrap();
        let text = run(&["animscope", "info", p]);
        // 0..budget probed; a found, but its end (b's start) lies beyond: nothing listed yet
        assert!(text.contains("listing   partial: 0 members in the first 0 bytes (0x0, 0.0% of the file)"), "{text}");
        let j: serde_json::Value = serde_json::from_str(run(&["animscope", "info", "--json", p]).trim()).unwrap();
        assert_eq!(j["listing"]["probed_bytes"], budget);
        assert_eq!(j["listing"]["members_listed"], 0);
        // a full listing (tree) sees both; info on a member node uses it too
        let tree = run(&["animscope", "tree", p]);
        assert!(tree.contains("a.cmp") && tree.contains("b.cmp"), "{tree}");
        assert!(!run(&["animscope", "info", p, "b.cmp"]).contains("partial"));
        // a small archive is listed completely by info: no listing line
        let small = dir.path().join("S.BIN");
        std::fs::write(&small, arc(&[("a", b"1")])).unwrap();
        assert!(!run(&["animscope", "info", small.to_str().unwrap()]).contains("listing"));
    }

    #[test]
    fn cache_is_bounded() {
        let a = arc(&[("a", &[1u8; 3000]), ("b", &[2u8; 3000])]);
        let ms = list(&a);
        let limits = Limits { cache_bytes: 4000, ..Limits::default() };
        let c = MemberCache::new();
        assert_eq!(c.get(&a, &ms[0], &limits).unwrap().len(), 3000);
        assert_eq!(c.get(&a, &ms[1], &limits).unwrap()[0], 2);
        assert_eq!(c.held_bytes(), 3000);
    }
}
