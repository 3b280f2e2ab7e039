//! Shenmue containers that carry MOTN blobs (docs/formats/pak.md): **PKS**
//! (`PAKS` header + IPAC), **IPAC** (a dictionary of 20-byte entries: 8-char name, 4-char
//! extension, offset from the IPAC start, size) and **PKF** (`PAKF` header, optional `DUMY`
//! chunk, `file count` chunks `{token, size incl. header}`, then possibly a trailing IPAC at
//! `content size`). Every IPAC entry is a nested member (`Members::member`), so opening it
//! re-sniffs the bytes: an entry with extension `MOTN` opens as a MOTN blob.
//!
//! Unknown: the PKS words at 0x08 and 0x0C, the PKF word at 0x08, the IPAC `content size`
//! (the reference writer puts the dictionary there [I]); PKF chunk payloads (mostly `TEXN`
//! textures) are shown as bytes, not decoded. Gzip-wrapped containers are inflated by the
//! gzip archive format, not here.

mod decode;
mod describe;
mod fixtures;
mod parse;
pub(in crate::formats) mod raw;
pub mod write;

use super::parsed::{self, LazyDocument};
use super::tally::Tally;
use super::{Format, Member, Parsed, Survey};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, NodeId, escape_text};
use crate::source::Source;
use decode::ipac_member;
use parse::{Ipac, parse_ipac, parse_pkf, pks_ipac_start};
use std::sync::Arc;

/// Findings a container's survey keeps (its entries' own and theirs); past these they are
/// counted (`findings_not_kept`) and one finding says how many were left out.
pub const MAX_SURVEY_FINDINGS: usize = 256;

/// Counters for a container: entries by extension, plus the survey of every distinct MOTN
/// entry. Entries naming bytes already surveyed (the same offset and size) are counted as
/// `entries.aliased` and not surveyed again; the bytes surveyed in all are bounded by
/// [`surveyed_bytes_cap`] (entries past it are counted as `entries.not_surveyed`, with one
/// finding), so a dictionary of many entries over the same or overlapping bytes costs what
/// the file holds, not entries × blob.
fn survey_ipac(data: &[u8], ip: &Ipac, s: &mut Survey, limits: &Limits) {
    let mut seen: std::collections::HashSet<(u64, u64)> = std::collections::HashSet::new();
    let cap = surveyed_bytes_cap(ip);
    let mut surveyed = 0u64;
    let mut skipped: Option<(u64, u64)> = None; // (entries, offset of the first)
    let mut findings = Vec::new();
    let mut not_kept = 0u64;
    let mut keep = |findings: &mut Vec<Diagnostic>, more: &mut dyn Iterator<Item = Diagnostic>| {
        for d in more {
            if findings.len() < MAX_SURVEY_FINDINGS {
                findings.push(d);
            } else {
                not_kept += 1;
            }
        }
    };
    keep(&mut findings, &mut ip.recovered.iter().cloned());
    for e in &ip.entries {
        s.add("entries", 1);
        s.add(format!("entries.{}", escape_text(e.ext())), 1);
        match &e.data {
            Err(err) => keep(&mut findings, &mut std::iter::once(Diagnostic::from_error(err))),
            Ok(span) if e.ext() == b"MOTN" => {
                if !seen.insert((span.start, span.end)) {
                    s.add("entries.aliased", 1);
                    continue;
                }
                if surveyed.saturating_add(span.len()) > cap {
                    let first = skipped.map_or(e.raw.span.start, |(_, at)| at);
                    skipped = Some((skipped.map_or(0, |(n, _)| n) + 1, first));
                    continue;
                }
                surveyed += span.len();
                let bytes = Bytes::new(data).slice(span.start, span.len()).unwrap_or_default();
                // surveyed by the format the entry's bytes sniff as (MOTN for a sound entry)
                let name = e.member_name();
                let f = super::sniff(bytes, &name);
                let entry = Source::from_vec(name, bytes.to_vec());
                let mut inner = Tally::default();
                match f.survey(&entry, limits, &|_| {}, &mut inner) {
                    Ok(()) => {
                        let mut one = inner.into_survey(f.id(), entry.name());
                        keep(&mut findings, &mut std::mem::take(&mut one.findings).into_iter());
                        s.merge(one);
                    }
                    Err(err) => {
                        keep(&mut findings, &mut std::iter::once(Diagnostic::from_error(&err.within(entry.name()))))
                    }
                }
            }
            Ok(_) => {}
        }
    }
    if let Some((n, at)) = skipped {
        s.add("entries.not_surveyed", n);
        keep(
            &mut findings,
            &mut std::iter::once(Diagnostic::new(
                crate::model::Severity::Warning,
                Some(at),
                "ipac > dictionary",
                format!(
                    "{n} MOTN entries not surveyed: their bytes would take the bytes surveyed past {cap} \
                     (twice the IPAC's size): entries overlap"
                ),
            )),
        );
    }
    if not_kept > 0 {
        s.add("findings_not_kept", not_kept);
        findings.push(Diagnostic::new(
            crate::model::Severity::Info,
            Some(ip.dict_at),
            "ipac > dictionary",
            format!("{not_kept} more findings not kept (at most {MAX_SURVEY_FINDINGS} a container)"),
        ));
    }
    s.findings.extend(findings);
}

/// Most bytes [`survey_ipac`] surveys over all the entries of `ip`: twice the IPAC's size
/// (disjoint entries, as every real dictionary has, total at most its size once).
fn surveyed_bytes_cap(ip: &Ipac) -> u64 {
    2 * ip.end.saturating_sub(ip.start)
}

/// A stand-alone IPAC archive.
#[derive(Debug, Clone, Copy)]
pub struct IpacFormat;

impl IpacFormat {
    /// The permissive parse.
    pub(crate) fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        describe::describe_ipac_file(data, name, limits)
    }
    #[cfg(test)]
    /// Entry `index`'s bytes.
    pub(crate) fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        ipac_member(data, &parse_ipac(&b, 0, b.len(), limits)?, index)
    }
    /// Totals for `survey`.
    pub(crate) fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        let b = Bytes::new(data);
        let mut s = Survey { format: "ipac", name: name.to_string(), ..Survey::default() };
        survey_ipac(data, &parse_ipac(&b, 0, b.len(), limits)?, &mut s, limits);
        Ok(s)
    }
}

/// PKS: a `PAKS` header and an IPAC.
#[derive(Debug, Clone, Copy)]
pub struct Pks;

impl Pks {
    /// The permissive parse.
    pub(crate) fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        describe::describe_pks(data, name, limits)
    }
    #[cfg(test)]
    /// Entry `index`'s bytes.
    pub(crate) fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        let (start, _) = pks_ipac_start(&b)?;
        ipac_member(data, &parse_ipac(&b, start, b.len(), limits)?, index)
    }
    /// Totals for `survey`.
    pub(crate) fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
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

impl Pkf {
    /// The permissive parse.
    pub(crate) fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        let p = parse_pkf(&Bytes::new(data), limits).map_err(|e| e.within("pkf"))?;
        Ok(describe::describe_pkf(data, name, &p, limits))
    }
    #[cfg(test)]
    /// Entry `index`'s bytes (of the trailing IPAC).
    pub(crate) fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        match parse_pkf(&b, limits)?.ipac {
            Some(ip) => ipac_member(data, &ip?, index),
            None => Err(ParseError::new(0, ErrorKind::NotFound(format!("pkf member {index}: no trailing IPAC")))),
        }
    }
    /// Totals for `survey`.
    pub(crate) fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        let b = Bytes::new(data);
        let p = parse_pkf(&b, limits)?;
        let mut s = Survey { format: "pkf", name: name.to_string(), ..Survey::default() };
        for c in &p.chunks {
            s.add(format!("chunks.{}", escape_text(c.header.token.as_slice())), 1);
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

/// The three containers, for what they share: the check, the survey and the parsed object.
macro_rules! container_format {
    ($ty:ident, $kind:expr, $id:literal, $magic:literal, $description:literal) => {
        impl Format for $ty {
            fn id(&self) -> &'static str {
                $id
            }
            fn description(&self) -> &'static str {
                $description
            }
            fn sniff(&self, data: &[u8], _name: &str) -> u8 {
                if data.starts_with($magic) { 100 } else { 0 }
            }
            fn open(&self, source: Arc<Source>, limits: &Limits) -> Result<Box<dyn Parsed>> {
                let doc = $ty.describe(source.bytes(), source.name(), limits)?;
                Ok(Box::new(ContainerParsed {
                    kind: $kind,
                    doc: LazyDocument::ready(source, doc),
                    entries: Default::default(),
                }))
            }
            fn check(&self, source: &Source, limits: &Limits) -> Result<Vec<Diagnostic>> {
                let doc = $ty.describe(source.bytes(), source.name(), limits)?;
                if let Some(b) = doc.budget_exceeded() {
                    return Err(b.error());
                }
                Ok(parsed::document_findings(&doc))
            }
            fn survey(
                &self,
                source: &Source,
                limits: &Limits,
                done: &(dyn Fn(u64) + Sync),
                tally: &mut Tally,
            ) -> Result<()> {
                tally.merge_survey($ty.survey(source.bytes(), source.name(), limits)?);
                done(source.len());
                Ok(())
            }
        }
    };
}

container_format!(
    IpacFormat,
    Container::Ipac,
    "ipac",
    b"IPAC",
    "Shenmue IPAC archive (dictionary of named entries; MOTN entries open as motn)"
);
container_format!(
    Pks,
    Container::Pks,
    "pks",
    b"PAKS",
    "Shenmue PKS package (PAKS header + IPAC; MOTN entries open as motn)"
);
container_format!(
    Pkf,
    Container::Pkf,
    "pkf",
    b"PAKF",
    "Shenmue PKF package (PAKF chunks + trailing IPAC; MOTN entries open as motn)"
);

/// Which container a [`ContainerParsed`] is.
#[derive(Debug, Clone, Copy)]
enum Container {
    Ipac,
    Pks,
    Pkf,
}

/// A container opened once: its document lists every entry; an entry opens from the
/// container's dictionary.
#[derive(Clone)]
struct ContainerParsed {
    kind: Container,
    doc: LazyDocument,
    /// The dictionary, parsed at the first member opened and kept: opening every entry of
    /// an IPAC of N entries (`tree --depth`) parses it once, not N times.
    entries: std::sync::OnceLock<Arc<Ipac>>,
}

impl Parsed for ContainerParsed {
    fn format(&self) -> &'static dyn Format {
        match self.kind {
            Container::Ipac => &IpacFormat,
            Container::Pks => &Pks,
            Container::Pkf => &Pkf,
        }
    }

    fn source(&self) -> &Arc<Source> {
        self.doc.source()
    }

    fn document(&self) -> &Document {
        self.doc.get()
    }

    fn document_mut(&mut self) -> &mut Document {
        self.doc.get_mut()
    }

    fn clone_parsed(&self) -> Box<dyn Parsed> {
        Box::new(self.clone())
    }

    fn rebuild(&self) -> Option<&dyn super::Rebuild> {
        Some(self)
    }

    fn members(&self) -> Option<&dyn super::Members> {
        Some(self)
    }
}

impl super::Members for ContainerParsed {
    fn member(&self, node: NodeId, limits: &Limits) -> Result<Member> {
        let idx = self.member_index(node)?;
        ipac_member(self.doc.source().bytes(), self.ipac(idx, limits)?, idx)
    }

    fn member_span(&self, node: NodeId, limits: &Limits) -> Option<(u64, u64)> {
        let idx = self.member_index(node).ok()?;
        let e = self.ipac(idx, limits).ok()?.entries.get(idx as usize)?;
        e.data.as_ref().ok().map(|s| (s.start, s.end))
    }
}

impl ContainerParsed {
    /// The entry number of the member node `node`.
    fn member_index(&self, node: NodeId) -> Result<u32> {
        let doc = self.doc.get();
        doc.node(node)
            .and_then(|n| n.member)
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", doc.path(node)))))
    }

    /// The container's IPAC entries, parsed once (`idx` names the member asked for, for
    /// the error of a PKF without an IPAC).
    fn ipac(&self, idx: u32, limits: &Limits) -> Result<&Ipac> {
        if let Some(ip) = self.entries.get() {
            return Ok(ip);
        }
        let b = Bytes::new(self.doc.source().bytes());
        let ip = match self.kind {
            Container::Ipac => parse_ipac(&b, 0, b.len(), limits)?,
            Container::Pks => parse_ipac(&b, pks_ipac_start(&b)?.0, b.len(), limits)?,
            Container::Pkf => match parse_pkf(&b, limits)?.ipac {
                Some(ip) => ip?,
                None => {
                    let what = format!("pkf member {idx}: no trailing IPAC");
                    return Err(ParseError::new(0, ErrorKind::NotFound(what)));
                }
            },
        };
        Ok(self.entries.get_or_init(|| Arc::new(ip)))
    }
}
