//! Header and Index parsing, the walk, and object-name lookup.

use super::band;
use super::raw;
use super::walk::{self, Walk};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{Count, read_at, read_prefix};
use crate::limits::Limits;
use crate::model::{Diagnostic, Severity, Span, escape_text};

/// The Header chunk (docs/formats/ccsf.md#header-0x0001).
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct Header {
    pub size: u32,
    /// The scene's name, up to its first NUL (inline: one fewer allocation per surveyed member).
    pub name: IndexName,
    pub version: u16,
    pub pad: u16,
    pub frames: u32,
    pub count: u32,
}

/// The Index chunk (docs/formats/ccsf.md#index-0x0002): file paths and object names, kept as bytes. The tables
/// are kept as stored and an entry is read (as its declared record) when asked for: a
/// survey reads one Index per 1 KB member and names two or three of its objects, and
/// converting every entry up front was a sixth of its CCSF parse.
#[derive(Debug, Clone, PartialEq, Default)]
pub(in crate::formats) struct Index {
    pub off: u64,
    /// The file table then the object table, 32 bytes an entry, from file offset `tables_at`.
    tables: Vec<u8>,
    tables_at: u64,
    file_count: usize,
    object_count: usize,
}

/// Bytes of one file-table or object-table entry (docs/formats/ccsf.md#index-0x0002).
const INDEX_ENTRY: u64 = 32;

/// An object-table entry: name, file index, and the spans of the name and file fields.
pub(in crate::formats) type IndexObjectEntry = (IndexName, u16, Span, Span);

/// A file path or object name of the Index (or the Header's scene name), up to its first
/// NUL: at most 32 bytes (the field's size), kept inline, so an Index of a few hundred names
/// is one allocation (a survey reads one Index per 1 KB member).
pub(in crate::formats) type IndexName = crate::formats::inline::Inline<u8, 32>;

/// The bytes of a name field up to its first NUL (at most 32 of them).
fn index_name(field: &[u8]) -> IndexName {
    IndexName::from_slice(trim_nul(field))
}

/// Bytes up to the first NUL.
pub(in crate::formats) fn trim_nul(b: &[u8]) -> &[u8] {
    let n = memchr::memchr(0, b).unwrap_or(b.len());
    b.get(..n).unwrap_or(b)
}

impl crate::formats::record::Names for Index {
    fn name(&self, n: u32) -> String {
        Index::name(self, n)
    }
}

impl Index {
    /// The tables' bytes, at their file offsets.
    fn bytes(&self) -> Bytes<'_> {
        Bytes::with_base(&self.tables, self.tables_at)
    }

    /// Number of object-table entries (the blank entry 0 included).
    pub fn objects_len(&self) -> usize {
        self.object_count
    }

    /// File-table entry `i`: path and its span.
    pub fn file(&self, i: usize) -> Option<(IndexName, Span)> {
        if i >= self.file_count {
            return None;
        }
        let f: raw::IndexFile = read_at(&self.bytes(), self.tables_at + INDEX_ENTRY * i as u64).ok()?;
        Some((index_name(&f.path.0), f.path.span))
    }

    /// Object-table entry `i`.
    pub fn object(&self, i: usize) -> Option<IndexObjectEntry> {
        if i >= self.object_count {
            return None;
        }
        let at = self.tables_at + INDEX_ENTRY * (self.file_count + i) as u64;
        let o: raw::IndexObject = read_at(&self.bytes(), at).ok()?;
        Some((index_name(&o.name.0), *o.file, o.name.span, o.file.span))
    }

    /// Every file-table entry, in order.
    pub fn files(&self) -> impl Iterator<Item = (IndexName, Span)> + '_ {
        (0..self.file_count).filter_map(|i| self.file(i))
    }

    /// Every object-table entry, in order.
    pub fn objects(&self) -> impl Iterator<Item = IndexObjectEntry> + '_ {
        (0..self.object_count).filter_map(|i| self.object(i))
    }

    /// Display name of object `n` (`none` for 0, `?` when out of range).
    pub fn name(&self, n: u32) -> String {
        if n == 0 {
            return "none".into();
        }
        match self.object(n as usize) {
            Some((name, ..)) => escape_text(&name),
            None => format!("out of range (of {})", self.object_count),
        }
    }

    /// Object index of the object named `name` (exact bytes).
    pub fn find(&self, name: &[u8]) -> Option<u32> {
        self.objects().position(|(n, ..)| *n == *name).and_then(|i| u32::try_from(i).ok())
    }
}

/// Header, Index and walk of one CCSF file.
#[derive(Debug, Clone)]
pub(in crate::formats) struct Parsed {
    pub header: Option<Header>,
    pub index: Index,
    pub walk: Walk,
    pub diags: Vec<Diagnostic>,
    /// Models already decoded (offset, result, by increasing offset), so the check and the
    /// scene decode each model once: gen-2 models as the layout findings decoded them when
    /// parsing for the strict check (surveys, `check`), and the models a document on
    /// demand decoded for its skeleton at open. Others are decoded where they are needed.
    pub models: Vec<(u64, Result<super::model_data::ModelData>)>,
}

/// Bytes of the Header chunk's head and its payload up to the word table.
const HEADER_BYTES: u64 = 56;

fn parse_header(b: &Bytes<'_>) -> Result<Header> {
    // A whole header with both magics (every member a survey reads) is taken from its bytes
    // as the declared records read it; anything else goes through them for their errors.
    if let Ok(h) = b.slice(0, HEADER_BYTES)
        && let Some(&[1, 0, 0xcc, 0xcc, s0, s1, s2, s3]) = h.first_chunk::<8>()
        && h.get(8..12) == Some(b"CCSF".as_slice())
        && let Some(name) = h.get(12..44)
        && let Some(&[v0, v1, p0, p1, f0, f1, f2, f3, c0, c1, c2, c3]) = h.get(44..).and_then(|t| t.first_chunk::<12>())
    {
        return Ok(Header {
            size: u32::from_le_bytes([s0, s1, s2, s3]),
            name: index_name(name),
            version: u16::from_le_bytes([v0, v1]),
            pad: u16::from_le_bytes([p0, p1]),
            frames: u32::from_le_bytes([f0, f1, f2, f3]),
            count: u32::from_le_bytes([c0, c1, c2, c3]),
        });
    }
    let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
    let chunk: raw::ChunkHeader = read_at(b, 0).map_err(plain)?;
    if (*chunk.kind, *chunk.tag) != (1, 0xcccc) {
        let word = u32::from(*chunk.tag) << 16 | u32::from(*chunk.kind);
        return Err(ParseError::new(
            0,
            ErrorKind::BadMagic { expected: "header chunk 01 00 cc cc".into(), found: format!("0x{word:08x}") },
        ));
    }
    // A wrong magic is reported as such even when the Header is also cut short.
    let bad_magic = |h: &raw::Header| {
        ParseError::new(
            h.magic.span.start,
            ErrorKind::BadMagic { expected: "\"CCSF\"".into(), found: escape_text(&h.magic.0) },
        )
    };
    let h: raw::Header = match read_at(b, 8) {
        Ok(h) => h,
        Err(e) => {
            return Err(match read_prefix::<raw::Header>(b, 8) {
                Some(p) if p.record.magic.span.end <= p.end && p.record.magic.0 != *b"CCSF" => bad_magic(&p.record),
                _ => plain(e),
            });
        }
    };
    if h.magic.0 != *b"CCSF" {
        return Err(bad_magic(&h));
    }
    Ok(Header {
        size: *chunk.size,
        name: index_name(&h.name.0),
        version: *h.version,
        pad: *h.pad,
        frames: *h.frames,
        count: *h.count,
    })
}

/// Parse the Index chunk at `off` (its header already walked).
pub(in crate::formats) fn parse_index(b: &Bytes<'_>, off: u64, end: u64, limits: &Limits) -> Result<Index> {
    let w = b.sub(off, end)?;
    let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
    let h: raw::IndexHead = read_at(&w, off + 8).map_err(plain)?;
    let (fc, oc) = (u64::from(*h.file_count), u64::from(*h.object_count));
    let max = limits.max_nodes as u64;
    let fcount = Count::checked(&w, "index file", off + 16, fc, INDEX_ENTRY, max)?;
    let ocount = Count::checked(&w, "index object", off + 16 + INDEX_ENTRY * fc, oc, INDEX_ENTRY, max)?;
    // both tables are in the chunk (checked above): kept as stored, read entry by entry
    let (file_count, object_count) = (fcount.get(), ocount.get());
    let stored = w.slice(off + 16, INDEX_ENTRY * (file_count + object_count) as u64)?;
    // the list a survey gave back ([`reuse_tables`]), if any: one per thread, not per file
    let mut tables = REUSED_TABLES.with(|cell| cell.take()).unwrap_or_default();
    tables.clear();
    tables.extend_from_slice(stored);
    Ok(Index { off, tables, tables_at: off + 16, file_count, object_count })
}

std::thread_local! {
    /// A surveyed file's Index tables, given back for the next file's Index.
    static REUSED_TABLES: std::cell::Cell<Option<Vec<u8>>> = const { std::cell::Cell::new(None) };
}

/// Give an Index's table bytes back once its file is surveyed: the next Index parsed on
/// this thread fills them again (one buffer per thread, not one per file).
pub(in crate::formats) fn reuse_tables(index: Index) {
    if index.tables.capacity() <= 64 << 10 {
        REUSED_TABLES.with(|cell| cell.set(Some(index.tables)));
    }
}

/// Parse header, walk, and index. Errors only when the data is not CCSF at all. The walk
/// keeps its chunks but not a step per chunk (see [`parse_traced`]).
pub(in crate::formats) fn parse(data: &[u8], limits: &Limits) -> Result<Parsed> {
    parse_with(data, limits, false, true, false, |_| {})
}

/// [`parse`] with every walk decision recorded as a step (for the document and `walk`).
pub(in crate::formats) fn parse_traced(data: &[u8], limits: &Limits) -> Result<Parsed> {
    parse_with(data, limits, true, true, false, |_| {})
}

/// [`parse`] for the strict check: gen-2 models decoded for the layout findings are kept
/// in [`Parsed::models`] for the check to use.
pub(in crate::formats) fn parse_checking(data: &[u8], limits: &Limits) -> Result<Parsed> {
    parse_with(data, limits, false, true, true, |_| {})
}

/// [`parse`] for surveys: every chunk is shown to `visit` as it is walked, and only the
/// setup section's chunks are kept (see [`walk::walk_visit`]); gen-2 models are kept for
/// the check as by [`parse_checking`].
pub(in crate::formats) fn parse_visiting(
    data: &[u8],
    limits: &Limits,
    visit: impl FnMut(&walk::ChunkRef),
) -> Result<Parsed> {
    parse_with(data, limits, false, false, true, visit)
}

fn parse_with(
    data: &[u8],
    limits: &Limits,
    trace: bool,
    keep_frames: bool,
    keep_models: bool,
    visit: impl FnMut(&walk::ChunkRef),
) -> Result<Parsed> {
    let b = Bytes::new(data);
    let mut diags = Vec::new();
    let header = parse_header(&b)?;
    let mut version = header.version;
    let facts = band::of(version);
    if facts.generation == band::Generation::Refused {
        diags.push(Diagnostic::new(
            Severity::Error,
            Some(0x2c),
            "Header",
            format!("version 0x{version:x} is below 0x90: the game's DecodeHeaderSection crashes on purpose"),
        ));
    } else if facts.generation == band::Generation::Gen1Above {
        diags.push(Diagnostic::new(
            Severity::Warning,
            Some(0x2c),
            "Header",
            format!("version 0x{version:x} is not a .hack//Infection (gen 1, 0x90..0x100) file; walking with the 0x100 rules as far as they hold"),
        ));
        version = band::GEN1_LAST;
    } else if !facts.described {
        diags.push(Diagnostic::new(
            Severity::Warning,
            Some(0x2c),
            "Header",
            format!(
                "version 0x{version:x} is above the highest known version (0x{:x}, docs/formats/ccsf-gen2.md#version-bands); walking by band B7's rules, what does not fit is reported",
                band::HIGHEST_DESCRIBED
            ),
        ));
    }
    let walk = walk::walk_visit(data, version, limits.max_nodes, trace, keep_frames, visit);
    let mut models = Vec::new();
    if band::of(version).gen2() {
        let keep = |off: u64, m: Result<super::model_data::ModelData>| {
            if keep_models {
                models.push((off, m));
            }
        };
        diags.extend(super::gen2::layout_findings(data, &walk.chunks, version, limits, keep));
    }
    let mut index = Index::default();
    match walk.chunks.get(1) {
        Some(c) if c.kind == 2 => match parse_index(&b, c.off, c.end, limits) {
            Ok(i) => index = i,
            Err(e) => diags.push(Diagnostic::from_error(&e.within("Index"))),
        },
        _ => diags.push(Diagnostic::new(
            Severity::Warning,
            Some(walk.chunks.get(1).map_or(0, |c| c.off)),
            "",
            "second chunk is not the Index",
        )),
    }
    if let Some(e) = &walk.lost {
        diags.push(Diagnostic::new(
            Severity::Error,
            Some(e.offset),
            "walk",
            format!("walk left the rails: {}", e.kind),
        ));
    }
    Ok(Parsed { header: Some(header), index, walk, diags, models })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod header_tests {
    use super::*;

    /// The Header taken from its bytes is the one the declared records read.
    #[test]
    fn the_header_from_its_bytes_is_the_declared_reading() {
        for (path, bytes) in crate::fixtures::all() {
            if !path.starts_with("ccsf/") || bytes.len() < HEADER_BYTES as usize {
                continue;
            }
            let b = Bytes::new(&bytes);
            let fast = parse_header(&b).unwrap();
            let chunk: raw::ChunkHeader = read_at(&b, 0).unwrap();
            let h: raw::Header = read_at(&b, 8).unwrap();
            assert_eq!(fast.size, *chunk.size, "{path}");
            assert_eq!(fast.name, index_name(&h.name.0), "{path}");
            assert_eq!(
                (fast.version, fast.pad, fast.frames, fast.count),
                (*h.version, *h.pad, *h.frames, *h.count),
                "{path}"
            );
        }
    }
}
