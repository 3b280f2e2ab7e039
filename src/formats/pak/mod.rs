//! Shenmue containers that carry MOTN blobs (spec `shared/specs/motn.md` §6): **PKS**
//! (`PAKS` header + IPAC), **IPAC** (a dictionary of 20-byte entries: 8-char name, 4-char
//! extension, offset from the IPAC start, size) and **PKF** (`PAKF` header, optional `DUMY`
//! chunk, `file count` chunks `{token, size incl. header}`, then possibly a trailing IPAC at
//! `content size`). Every IPAC entry is a nested member (`Format::member`), so opening it
//! re-sniffs the bytes: an entry with extension `MOTN` opens as a MOTN blob.
//!
//! Unknown: the PKS words at 0x08 and 0x0C, the PKF word at 0x08, the IPAC `content size`
//! (the reference writer puts the dictionary there [I]); PKF chunk payloads (mostly `TEXN`
//! textures) are shown as bytes, not decoded. Gzip-wrapped containers are inflated by the
//! gzip archive format, not here.

pub mod write;

use super::{Format, Member, Survey};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::build::{fill_gaps, place};
use crate::model::{Diagnostic, Document, Field, NodeId, Severity, Span, Value, WalkStep, escape_text};

/// Size of an IPAC dictionary entry.
const IPAC_ENTRY_LEN: u64 = 20;
/// Size of the PKS, IPAC and PKF headers.
const HEADER_LEN: u64 = 16;

/// One IPAC dictionary entry.
#[derive(Debug, Clone)]
struct IpacEntry {
    index: usize,
    /// Absolute offset of the dictionary entry.
    at: u64,
    name: Vec<u8>,
    ext: Vec<u8>,
    offset: u32,
    size: u32,
    /// Absolute span of the entry's bytes, or why it is not inside the IPAC.
    data: Result<Span>,
}

impl IpacEntry {
    fn member_name(&self) -> String {
        format!("{}.{}", escape_text(&self.name), escape_text(&self.ext))
    }
}

/// An IPAC block: header fields and entries.
#[derive(Debug, Clone)]
struct Ipac {
    start: u64,
    end: u64,
    dict_ofs: u32,
    count: u32,
    content_size: u32,
    entries: Vec<IpacEntry>,
}

fn trim_nul(b: &[u8]) -> Vec<u8> {
    b.iter().copied().take_while(|&c| c != 0).collect()
}

/// Parse the IPAC at absolute `start` whose bytes may reach `end`.
fn parse_ipac(b: &Bytes, start: u64, end: u64, limits: &Limits) -> Result<Ipac> {
    let w = b.sub(start, end)?;
    let magic = w.slice(start, 4)?;
    if magic != b"IPAC" {
        return Err(ParseError::new(start, ErrorKind::BadMagic { expected: "IPAC".into(), found: escape_text(magic) }));
    }
    let dict_ofs = w.u32_le(start + 4)?;
    let count = w.u32_le(start + 8)?;
    let content_size = w.u32_le(start + 12)?;
    let dict_at = start + u64::from(dict_ofs);
    if dict_at > end {
        return Err(ParseError::new(
            start + 4,
            ErrorKind::OffsetOutOfRange { what: "ipac dictionary", offset: dict_at, start, end },
        ));
    }
    let n = w.check_count("ipac entry", dict_at, u64::from(count), IPAC_ENTRY_LEN, limits.max_nodes as u64)?;
    let mut entries = Vec::with_capacity(n);
    for index in 0..n {
        let at = dict_at + index as u64 * IPAC_ENTRY_LEN;
        let offset = w.u32_le(at + 12)?;
        let size = w.u32_le(at + 16)?;
        let from = start + u64::from(offset);
        let to = from + u64::from(size);
        let data = if to <= end {
            Ok(Span::new(from, to))
        } else {
            Err(ParseError::new(
                at + 12,
                ErrorKind::OffsetOutOfRange { what: "ipac entry end", offset: to, start, end },
            ))
        };
        entries.push(IpacEntry {
            index,
            at,
            name: trim_nul(w.slice(at, 8)?),
            ext: trim_nul(w.slice(at + 8, 4)?),
            offset,
            size,
            data,
        });
    }
    Ok(Ipac { start, end, dict_ofs, count, content_size, entries })
}

fn ext_label(ext: &[u8]) -> &'static str {
    match ext {
        b"MOTN" => "MOTN motion (opens as motn)",
        b"CHRT" => "CHRT (character table; not decoded)",
        b"MT5" | b"MT5C" => "MT5 model (not decoded)",
        b"TEXN" => "TEXN texture (not decoded)",
        _ => "unknown type",
    }
}

fn u32f(doc: &mut Document, node: NodeId, name: &str, at: u64, v: u32, note: Option<&str>) {
    let mut f = Field::new(name, Span::at(at, 4), Value::uint(u64::from(v), 4));
    if let Some(n) = note {
        f = f.note(n);
        if n.contains("unknown") {
            f.value = f.value.unknown();
        }
    }
    doc.add_field(node, f);
}

/// Add the IPAC's nodes under `parent`: header, dictionary, one member node per entry.
fn describe_ipac(doc: &mut Document, parent: NodeId, data: &[u8], ip: &Ipac) -> NodeId {
    let id = place(doc, parent, "ipac", "IPAC", Span::new(ip.start, ip.end));
    let hn = doc.add_node(id, "header", "IPAC header", Span::at(ip.start, HEADER_LEN));
    doc.add_field(hn, Field::new("magic", Span::at(ip.start, 4), Value::text(b"IPAC")));
    u32f(doc, hn, "dictionary_ofs", ip.start + 4, ip.dict_ofs, Some("from the IPAC start"));
    u32f(doc, hn, "file_count", ip.start + 8, ip.count, None);
    u32f(
        doc,
        hn,
        "content_size",
        ip.start + 12,
        ip.content_size,
        Some("meaning not certain; the reference writer puts the dictionary there [I]"),
    );
    let dict_at = ip.start + u64::from(ip.dict_ofs);
    let dn =
        place(doc, id, "dictionary", "IPAC dictionary", Span::at(dict_at, ip.entries.len() as u64 * IPAC_ENTRY_LEN));
    doc.walk.push(WalkStep {
        span: Span::at(ip.start, HEADER_LEN),
        what: "IPAC header".into(),
        detail: format!("{} entries, dictionary at +0x{:x}", ip.count, ip.dict_ofs),
        next: Some(dict_at),
        node: Some(hn),
    });
    let mut used: Vec<String> = Vec::new();
    for e in &ip.entries {
        let en = doc.add_node(dn, format!("entry[{}]", e.index), "IPAC entry", Span::at(e.at, IPAC_ENTRY_LEN));
        doc.add_field(en, Field::new("name", Span::at(e.at, 8), Value::text(&e.name)).note("NUL-padded"));
        doc.add_field(en, Field::new("extension", Span::at(e.at + 8, 4), Value::text(&e.ext).label(ext_label(&e.ext))));
        u32f(doc, en, "offset", e.at + 12, e.offset, Some("from the IPAC start"));
        u32f(doc, en, "size", e.at + 16, e.size, None);
        if let Some(x) = doc.node_mut(en) {
            x.summary = e.member_name();
        }
        match &e.data {
            Ok(span) => {
                let mut key = e.member_name();
                if used.contains(&key) {
                    key = format!("{key}[{}]", e.index);
                }
                used.push(key.clone());
                let mn = place(doc, id, &key, "IPAC member", *span);
                if let Some(x) = doc.node_mut(mn) {
                    x.member = Some(u32::try_from(e.index).unwrap_or(u32::MAX));
                    x.summary = format!("{}, {} bytes", ext_label(&e.ext), span.len());
                }
                doc.add_field(
                    mn,
                    Field::new("bytes", *span, Value::bytes(span.len())).note("open the member to see inside"),
                );
                doc.walk.push(WalkStep {
                    span: *span,
                    what: format!("entry {}", e.member_name()),
                    detail: format!("{} bytes at +0x{:x}: nested member {}", e.size, e.offset, e.index),
                    next: None,
                    node: Some(mn),
                });
            }
            Err(err) => {
                doc.diag(Diagnostic::from_error(&err.clone().within(format!("ipac > entry[{}]", e.index))));
                doc.walk.push(WalkStep {
                    span: Span::at(e.at, IPAC_ENTRY_LEN),
                    what: format!("entry {}", e.member_name()),
                    detail: format!("skipped: {}", err.kind),
                    next: None,
                    node: Some(en),
                });
            }
        }
    }
    fill_gaps(doc, id, data);
    id
}

/// The bytes of IPAC entry `index` as a member.
fn ipac_member(data: &[u8], ip: &Ipac, index: u32) -> Result<Member> {
    let e = ip
        .entries
        .get(index as usize)
        .ok_or_else(|| ParseError::new(ip.start, ErrorKind::NotFound(format!("ipac entry {index}"))))?;
    let span = e.data.clone()?;
    let bytes = Bytes::new(data).slice(span.start, span.len())?.to_vec();
    Ok(Member { name: e.member_name(), bytes, inflated: false })
}

/// Counters for a container: entries by extension, plus every MOTN entry's survey.
fn survey_ipac(data: &[u8], ip: &Ipac, s: &mut Survey, limits: &Limits) {
    for e in &ip.entries {
        s.add("entries", 1);
        s.add(format!("entries.{}", escape_text(&e.ext)), 1);
        match &e.data {
            Err(err) => s.findings.push(Diagnostic::from_error(err)),
            Ok(span) if e.ext == b"MOTN" => {
                let bytes = Bytes::new(data).slice(span.start, span.len()).unwrap_or_default();
                // surveyed by the format the entry's bytes sniff as (MOTN for a sound entry)
                let name = e.member_name();
                match super::sniff(bytes, &name).survey(bytes, &name, limits) {
                    Ok(inner) => s.merge(inner),
                    Err(err) => s.findings.push(Diagnostic::from_error(&err.within(e.member_name()))),
                }
            }
            Ok(_) => {}
        }
    }
}

/// A stand-alone IPAC archive.
#[derive(Debug, Clone, Copy)]
pub struct IpacFormat;

impl Format for IpacFormat {
    fn id(&self) -> &'static str {
        "ipac"
    }
    fn description(&self) -> &'static str {
        "Shenmue IPAC archive (dictionary of named entries; MOTN entries open as motn)"
    }
    fn sniff(&self, data: &[u8], _name: &str) -> u8 {
        if data.starts_with(b"IPAC") { 100 } else { 0 }
    }
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        let b = Bytes::new(data);
        let ip = parse_ipac(&b, 0, b.len(), limits)?;
        let mut doc = Document::new("ipac", name, "IPAC file", b.len());
        describe_ipac(&mut doc, NodeId::ROOT, data, &ip);
        fill_gaps(&mut doc, NodeId::ROOT, data);
        Ok(doc)
    }
    fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        ipac_member(data, &parse_ipac(&b, 0, b.len(), limits)?, index)
    }
    fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        let b = Bytes::new(data);
        let mut s = Survey { format: "ipac", name: name.to_string(), ..Survey::default() };
        survey_ipac(data, &parse_ipac(&b, 0, b.len(), limits)?, &mut s, limits);
        Ok(s)
    }
}

/// PKS: a `PAKS` header and an IPAC.
#[derive(Debug, Clone, Copy)]
pub struct Pks;

/// Where a PKS's IPAC starts: the header's offset when an IPAC is there, else 16.
fn pks_ipac_start(b: &Bytes) -> Result<(u64, Option<String>)> {
    let magic = b.slice(0, 4)?;
    if magic != b"PAKS" {
        return Err(ParseError::new(0, ErrorKind::BadMagic { expected: "PAKS".into(), found: escape_text(magic) }));
    }
    let ofs = u64::from(b.u32_le(4)?);
    if b.slice(ofs, 4).is_ok_and(|m| m == b"IPAC") {
        return Ok((ofs, None));
    }
    Ok((HEADER_LEN, Some(format!("ipac offset 0x{ofs:x} does not point at an IPAC; reading after the header"))))
}

impl Format for Pks {
    fn id(&self) -> &'static str {
        "pks"
    }
    fn description(&self) -> &'static str {
        "Shenmue PKS package (PAKS header + IPAC; MOTN entries open as motn)"
    }
    fn sniff(&self, data: &[u8], _name: &str) -> u8 {
        if data.starts_with(b"PAKS") { 100 } else { 0 }
    }
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        let b = Bytes::new(data);
        let (start, note) = pks_ipac_start(&b).map_err(|e| e.within("pks"))?;
        let mut doc = Document::new("pks", name, "PKS file", b.len());
        let hn = place(&mut doc, NodeId::ROOT, "header", "PKS header", Span::new(0, HEADER_LEN.min(b.len())));
        doc.add_field(hn, Field::new("magic", Span::at(0, 4), Value::text(b"PAKS")));
        for (i, (fname, note)) in [
            ("ipac_ofs", None),
            ("unknown_08", Some("unknown")),
            ("unknown_0c", Some("unknown (one writer stores the entry count − 1)")),
        ]
        .into_iter()
        .enumerate()
        {
            let at = 4 + 4 * i as u64;
            if let Ok(v) = b.u32_le(at) {
                u32f(&mut doc, hn, fname, at, v, note);
            }
        }
        if let Some(n) = note {
            doc.diag(Diagnostic::new(Severity::Warning, Some(4), "header", n));
        }
        doc.walk.push(WalkStep {
            span: Span::new(0, HEADER_LEN),
            what: "PKS header".into(),
            detail: format!("IPAC at 0x{start:x}"),
            next: Some(start),
            node: Some(hn),
        });
        match parse_ipac(&b, start, b.len(), limits) {
            Ok(ip) => {
                describe_ipac(&mut doc, NodeId::ROOT, data, &ip);
            }
            Err(e) => doc.diag(Diagnostic::from_error(&e.within("ipac"))),
        }
        fill_gaps(&mut doc, NodeId::ROOT, data);
        Ok(doc)
    }
    fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        let (start, _) = pks_ipac_start(&b)?;
        ipac_member(data, &parse_ipac(&b, start, b.len(), limits)?, index)
    }
    fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        let b = Bytes::new(data);
        let (start, _) = pks_ipac_start(&b)?;
        let mut s = Survey { format: "pks", name: name.to_string(), ..Survey::default() };
        match parse_ipac(&b, start, b.len(), limits) {
            Ok(ip) => survey_ipac(data, &ip, &mut s, limits),
            Err(e) => s.findings.push(Diagnostic::from_error(&e.within("ipac"))),
        }
        Ok(s)
    }
}

/// PKF: a `PAKF` header, chunks, and possibly a trailing IPAC.
#[derive(Debug, Clone, Copy)]
pub struct Pkf;

/// One PKF chunk.
#[derive(Debug, Clone)]
struct Chunk {
    at: u64,
    token: Vec<u8>,
    size: u32,
}

/// The parsed PKF: header words, chunks, where the walk stopped and why, trailing IPAC.
struct PkfFile {
    content_size: u32,
    unknown: u32,
    file_count: u32,
    dummy: Option<Chunk>,
    chunks: Vec<Chunk>,
    stop: Option<ParseError>,
    ipac: Option<Result<Ipac>>,
}

fn read_chunk(b: &Bytes, at: u64, end: u64) -> Result<Chunk> {
    let token = b.slice(at, 4)?.to_vec();
    let size = b.u32_le(at + 4)?;
    if u64::from(size) < 8 {
        return Err(ParseError::new(
            at + 4,
            ErrorKind::BadValue {
                what: "chunk size",
                value: size.to_string(),
                why: "smaller than its 8-byte header".into(),
            },
        ));
    }
    if at + u64::from(size) > end {
        return Err(ParseError::new(
            at + 4,
            ErrorKind::OffsetOutOfRange { what: "chunk end", offset: at + u64::from(size), start: at, end },
        ));
    }
    Ok(Chunk { at, token, size })
}

fn parse_pkf(b: &Bytes, limits: &Limits) -> Result<PkfFile> {
    let magic = b.slice(0, 4)?;
    if magic != b"PAKF" {
        return Err(ParseError::new(0, ErrorKind::BadMagic { expected: "PAKF".into(), found: escape_text(magic) }));
    }
    let content_size = b.u32_le(4)?;
    let unknown = b.u32_le(8)?;
    let file_count = b.u32_le(12)?;
    // chunks live before the trailing IPAC when content_size points inside the file
    let cs = u64::from(content_size);
    let chunk_end = if cs >= HEADER_LEN && cs <= b.len() { cs } else { b.len() };
    let mut at = HEADER_LEN;
    let mut dummy = None;
    let mut stop = None;
    if b.slice(at, 4).is_ok_and(|t| t == b"DUMY") {
        match read_chunk(b, at, chunk_end) {
            Ok(c) => {
                at += u64::from(c.size);
                dummy = Some(c);
            }
            Err(e) => stop = Some(e),
        }
    }
    let max = b.remaining_from(at) / 8;
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
                at += u64::from(c.size);
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
    Ok(PkfFile { content_size, unknown, file_count, dummy, chunks, stop, ipac })
}

fn chunk_node(doc: &mut Document, key: String, c: &Chunk) {
    let span = Span::at(c.at, u64::from(c.size));
    let id = place(doc, NodeId::ROOT, &key, "PKF chunk", span);
    doc.add_field(id, Field::new("token", Span::at(c.at, 4), Value::text(&c.token).label(ext_label(&c.token))));
    doc.add_field(
        id,
        Field::new("size", Span::at(c.at + 4, 4), Value::uint(u64::from(c.size), 4)).note("includes the 8-byte header"),
    );
    doc.add_field(
        id,
        Field::new("payload", Span::new(c.at + 8, span.end), Value::bytes(span.len() - 8)).note("not decoded"),
    );
    if let Some(x) = doc.node_mut(id) {
        x.summary = format!("{} bytes", c.size);
    }
    doc.walk.push(WalkStep {
        span,
        what: format!("chunk {}", escape_text(&c.token)),
        detail: format!("size 0x{:x} including header", c.size),
        next: Some(span.end),
        node: Some(id),
    });
}

impl Format for Pkf {
    fn id(&self) -> &'static str {
        "pkf"
    }
    fn description(&self) -> &'static str {
        "Shenmue PKF package (PAKF chunks + trailing IPAC; MOTN entries open as motn)"
    }
    fn sniff(&self, data: &[u8], _name: &str) -> u8 {
        if data.starts_with(b"PAKF") { 100 } else { 0 }
    }
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        let b = Bytes::new(data);
        let p = parse_pkf(&b, limits).map_err(|e| e.within("pkf"))?;
        let mut doc = Document::new("pkf", name, "PKF file", b.len());
        let hn = place(&mut doc, NodeId::ROOT, "header", "PKF header", Span::new(0, HEADER_LEN));
        doc.add_field(hn, Field::new("magic", Span::at(0, 4), Value::text(b"PAKF")));
        u32f(
            &mut doc,
            hn,
            "content_size",
            4,
            p.content_size,
            Some("end of the chunks; a trailing IPAC may start here"),
        );
        u32f(&mut doc, hn, "unknown_08", 8, p.unknown, Some("unknown"));
        u32f(&mut doc, hn, "file_count", 12, p.file_count, Some("chunks after the optional DUMY"));
        doc.walk.push(WalkStep {
            span: Span::new(0, HEADER_LEN),
            what: "PKF header".into(),
            detail: format!("{} chunks, content size 0x{:x}", p.file_count, p.content_size),
            next: Some(HEADER_LEN),
            node: Some(hn),
        });
        if let Some(d) = &p.dummy {
            chunk_node(&mut doc, "DUMY".into(), d);
        }
        for (i, c) in p.chunks.iter().enumerate() {
            chunk_node(&mut doc, format!("chunk[{i}] {}", escape_text(&c.token)), c);
        }
        if let Some(e) = &p.stop {
            doc.diag(Diagnostic::from_error(&e.clone().within("pkf > chunks")));
        }
        match &p.ipac {
            Some(Ok(ip)) => {
                describe_ipac(&mut doc, NodeId::ROOT, data, ip);
            }
            Some(Err(e)) => doc.diag(Diagnostic::from_error(&e.clone().within("pkf > ipac"))),
            None => doc.walk.push(WalkStep {
                span: Span::at(u64::from(p.content_size).min(b.len()), 0),
                what: "trailing IPAC".into(),
                detail: "none at the content size".into(),
                next: None,
                node: None,
            }),
        }
        fill_gaps(&mut doc, NodeId::ROOT, data);
        Ok(doc)
    }
    fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        match parse_pkf(&b, limits)?.ipac {
            Some(ip) => ipac_member(data, &ip?, index),
            None => Err(ParseError::new(0, ErrorKind::NotFound(format!("pkf member {index}: no trailing IPAC")))),
        }
    }
    fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        let b = Bytes::new(data);
        let p = parse_pkf(&b, limits)?;
        let mut s = Survey { format: "pkf", name: name.to_string(), ..Survey::default() };
        for c in &p.chunks {
            s.add(format!("chunks.{}", escape_text(&c.token)), 1);
        }
        if let Some(e) = p.stop {
            s.findings.push(Diagnostic::from_error(&e));
        }
        match p.ipac {
            Some(Ok(ip)) => survey_ipac(data, &ip, &mut s, limits),
            Some(Err(e)) => s.findings.push(Diagnostic::from_error(&e)),
            None => {}
        }
        Ok(s)
    }
}

#[cfg(test)]
mod vectors;
