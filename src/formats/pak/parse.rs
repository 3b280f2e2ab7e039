//! Walking PKS, IPAC and PKF containers (docs/formats/pak.md): the records of
//! `raw.rs` read at the offsets the headers give, with every offset, size and count checked
//! against the bytes and `Limits` before anything is read or allocated.

use super::raw::{ChunkHeader, IpacDictionary, IpacEntry, IpacHeader, PkfHeader, PksHeader, trim_nul};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{self, Count, FixedSize, Prefix, Spanned};
use crate::limits::Limits;
use crate::model::{Diagnostic, Severity, Span, escape_text};

/// One IPAC dictionary entry as read, with where its bytes are.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub index: usize,
    /// The entry record.
    pub raw: Spanned<IpacEntry>,
    /// Absolute span of the entry's bytes, or why it is not inside the IPAC.
    pub data: Result<Span>,
}

impl Entry {
    /// Name without its NUL padding.
    pub(super) fn name(&self) -> &[u8] {
        trim_nul(self.raw.name.as_slice())
    }

    /// Extension without its NUL padding.
    pub(super) fn ext(&self) -> &[u8] {
        trim_nul(self.raw.extension.as_slice())
    }

    /// `NAME.EXT`, escaped.
    pub(super) fn member_name(&self) -> String {
        format!("{}.{}", escape_text(self.name()), escape_text(self.ext()))
    }
}

/// An IPAC block: its header and entries.
#[derive(Debug, Clone)]
pub(super) struct Ipac {
    pub start: u64,
    pub end: u64,
    pub header: IpacHeader,
    /// Where the dictionary starts.
    pub dict_at: u64,
    pub entries: Vec<Entry>,
    /// Set when the dictionary offset leaves too few bytes for the table and the
    /// content-size field places it where it fits exactly: the table is read from there,
    /// and this finding says so (a recovered reading, never a silent one).
    pub recovered: Option<Diagnostic>,
}

/// Where the dictionary of `file_count` entries is read: at `dict_at` when the table fits
/// before `end`; else where the content-size field points (the reference writer puts the
/// dictionary there) when the table fits there exactly, with a finding saying so; else an
/// error saying what does not fit and where.
fn dictionary_at(header: &IpacHeader, start: u64, dict_at: u64, end: u64) -> Result<(u64, Option<Diagnostic>)> {
    let count = u64::from(*header.file_count);
    let need = count.saturating_mul(IpacEntry::SIZE);
    let remain = end.saturating_sub(dict_at);
    if need <= remain {
        return Ok((dict_at, None));
    }
    let alt = start.saturating_add(u64::from(*header.content_size));
    if alt != dict_at && alt >= start.saturating_add(IpacHeader::SIZE) && alt <= end && end - alt == need {
        let note = format!(
            "recovered reading: the dictionary offset +0x{:x} leaves {remain} bytes for a table of {count} entries \
             ({need} bytes); the content-size field +0x{:x} places the table at 0x{alt:x}, where {count} entries \
             end exactly at the IPAC's end 0x{end:x}: the table is read from there",
            *header.dictionary_ofs, *header.content_size
        );
        let d = Diagnostic::new(Severity::Warning, Some(header.dictionary_ofs.span.start), "ipac > header", note);
        return Ok((alt, Some(d)));
    }
    Err(ParseError::new(
        header.file_count.span.start,
        ErrorKind::BadValue {
            what: "ipac entry count",
            value: count.to_string(),
            why: format!(
                "the table at 0x{dict_at:x} needs {need} bytes ({count} entries of {}), {remain} remain before the \
                 IPAC's end 0x{end:x}",
                IpacEntry::SIZE
            ),
        },
    ))
}

/// Parse the IPAC at absolute `start` whose bytes may reach `end`.
pub(super) fn parse_ipac(b: &Bytes, start: u64, end: u64, limits: &Limits) -> Result<Ipac> {
    let w = b.sub(start, end)?;
    let header: IpacHeader = record::read_at(&w, start)?;
    let dict_at = start + u64::from(*header.dictionary_ofs);
    if dict_at > end {
        return Err(ParseError::new(
            header.dictionary_ofs.span.start,
            ErrorKind::OffsetOutOfRange { what: "ipac dictionary", offset: dict_at, start, end },
        ));
    }
    let (dict_at, recovered) = dictionary_at(&header, start, dict_at, end)?;
    let n = Count::checked(
        &w,
        "ipac entry",
        dict_at,
        u64::from(*header.file_count),
        IpacEntry::SIZE,
        limits.max_nodes as u64,
    )?;
    let dict: IpacDictionary = record::read(&w, dict_at, (n,))?;
    let entries = dict
        .entry
        .into_iter()
        .enumerate()
        .map(|(index, raw)| {
            let from = start + u64::from(*raw.offset);
            let to = from + u64::from(*raw.size);
            let data = if to <= end {
                Ok(Span::new(from, to))
            } else {
                Err(ParseError::new(
                    raw.offset.span.start,
                    ErrorKind::OffsetOutOfRange { what: "ipac entry end", offset: to, start, end },
                ))
            };
            Entry { index, raw, data }
        })
        .collect();
    Ok(Ipac { start, end, header, dict_at, entries, recovered })
}

/// The PKS header as far as the file holds it (at least the IPAC offset).
pub(super) fn pks_header(b: &Bytes) -> Result<Prefix<PksHeader>> {
    match record::read_prefix::<PksHeader>(b, 0) {
        Some(p) if p.record.ipac_ofs.span.end <= p.end => Ok(p),
        _ => Err(record::read_at::<PksHeader>(b, 0)
            .err()
            .unwrap_or_else(|| ParseError::new(0, ErrorKind::Other("PKS header unreadable".into())))),
    }
}

/// Where a PKS's IPAC starts: the header's offset when an IPAC is there, else right after
/// the header (with a note saying so).
pub(super) fn pks_ipac_start(b: &Bytes) -> Result<(u64, Option<String>)> {
    let h = pks_header(b)?;
    let ofs = u64::from(*h.record.ipac_ofs);
    if b.slice(ofs, 4).is_ok_and(|m| m == b"IPAC") {
        return Ok((ofs, None));
    }
    Ok((PksHeader::SIZE, Some(format!("ipac offset 0x{ofs:x} does not point at an IPAC; reading after the header"))))
}

/// One PKF chunk: its header; the payload runs to `at + size`.
#[derive(Debug, Clone)]
pub(super) struct Chunk {
    pub at: u64,
    pub header: ChunkHeader,
}

impl Chunk {
    /// The whole chunk, header included.
    pub(super) fn span(&self) -> Span {
        Span::at(self.at, u64::from(*self.header.size))
    }
}

/// The parsed PKF: header, chunks, where the walk stopped and why, trailing IPAC.
pub(super) struct PkfFile {
    pub header: PkfHeader,
    pub dummy: Option<Chunk>,
    pub chunks: Vec<Chunk>,
    pub stop: Option<ParseError>,
    pub ipac: Option<Result<Ipac>>,
}

fn read_chunk(b: &Bytes, at: u64, end: u64) -> Result<Chunk> {
    let header: ChunkHeader = record::read_at(b, at)?;
    let size = *header.size;
    if u64::from(size) < ChunkHeader::SIZE {
        return Err(ParseError::new(
            header.size.span.start,
            ErrorKind::BadValue {
                what: "chunk size",
                value: size.to_string(),
                why: "smaller than its 8-byte header".into(),
            },
        ));
    }
    if at + u64::from(size) > end {
        return Err(ParseError::new(
            header.size.span.start,
            ErrorKind::OffsetOutOfRange { what: "chunk end", offset: at + u64::from(size), start: at, end },
        ));
    }
    Ok(Chunk { at, header })
}

/// Read a PKF: the header, the optional `DUMY` chunk, up to `file_count` chunks (as far as
/// they go), and the IPAC at the content size if there is one.
pub(super) fn parse_pkf(b: &Bytes, limits: &Limits) -> Result<PkfFile> {
    let header: PkfHeader = record::read_at(b, 0)?;
    let file_count = *header.file_count;
    // chunks live before the trailing IPAC when content_size points inside the file
    let cs = u64::from(*header.content_size);
    let chunk_end = if cs >= PkfHeader::SIZE && cs <= b.len() { cs } else { b.len() };
    let mut at = PkfHeader::SIZE;
    let mut dummy = None;
    let mut stop = None;
    if b.slice(at, 4).is_ok_and(|t| t == b"DUMY") {
        match read_chunk(b, at, chunk_end) {
            Ok(c) => {
                at += u64::from(*c.header.size);
                dummy = Some(c);
            }
            Err(e) => stop = Some(e),
        }
    }
    let max = b.remaining_from(at) / ChunkHeader::SIZE;
    let n = if stop.is_some() {
        0
    } else {
        file_count.min(u32::try_from(max.min(limits.max_nodes as u64)).unwrap_or(u32::MAX))
    };
    let mut chunks = Vec::new();
    for _ in 0..n {
        if at >= chunk_end {
            break;
        }
        match read_chunk(b, at, chunk_end) {
            Ok(c) => {
                at += u64::from(*c.header.size);
                chunks.push(c);
            }
            Err(e) => {
                stop = Some(e);
                break;
            }
        }
    }
    if stop.is_none() && (chunks.len() as u64) < u64::from(file_count) {
        stop = Some(ParseError::new(
            at,
            ErrorKind::CountTooLarge { what: "pkf chunk", count: u64::from(file_count), max: chunks.len() as u64 },
        ));
    }
    let ipac = (cs < b.len() && b.slice(cs, 4).is_ok_and(|m| m == b"IPAC")).then(|| parse_ipac(b, cs, b.len(), limits));
    Ok(PkfFile { header, dummy, chunks, stop, ipac })
}
