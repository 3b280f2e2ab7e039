//! Shenmue containers that carry MOTN blobs (docs/formats/pak.md): **PKS**
//! (`PAKS` header + IPAC), **IPAC** (a dictionary of 20-byte entries: 8-char name, 4-char
//! extension, offset from the IPAC start, size) and **PKF** (`PAKF` header, optional `DUMY`
//! chunk, `file count` chunks `{token, size incl. header}`, then possibly a trailing IPAC at
//! `content size`). Every IPAC entry is a nested member (`Parsed::member`), so opening it
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

/// Counters for a container: entries by extension, plus every MOTN entry's survey.
fn survey_ipac(data: &[u8], ip: &Ipac, s: &mut Survey, limits: &Limits) {
    s.findings.extend(ip.recovered.iter().cloned());
    for e in &ip.entries {
        s.add("entries", 1);
        s.add(format!("entries.{}", escape_text(e.ext())), 1);
        match &e.data {
            Err(err) => s.findings.push(Diagnostic::from_error(err)),
            Ok(span) if e.ext() == b"MOTN" => {
                let bytes = Bytes::new(data).slice(span.start, span.len()).unwrap_or_default();
                // surveyed by the format the entry's bytes sniff as (MOTN for a sound entry)
                let name = e.member_name();
                let f = super::sniff(bytes, &name);
                let entry = Source::from_vec(name, bytes.to_vec());
                let mut inner = Tally::default();
                match f.survey(&entry, limits, &|_| {}, &mut inner) {
                    Ok(()) => s.merge(inner.into_survey(f.id(), entry.name())),
                    Err(err) => s.findings.push(Diagnostic::from_error(&err.within(entry.name()))),
                }
            }
            Ok(_) => {}
        }
    }
}

/// A stand-alone IPAC archive.
#[derive(Debug, Clone, Copy)]
pub struct IpacFormat;

impl IpacFormat {
    /// The permissive parse.
    pub fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        describe::describe_ipac_file(data, name, limits)
    }
    /// Entry `index`'s bytes.
    pub fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        ipac_member(data, &parse_ipac(&b, 0, b.len(), limits)?, index)
    }
    /// Totals for `survey`.
    pub fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
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
    pub fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        describe::describe_pks(data, name, limits)
    }
    /// Entry `index`'s bytes.
    pub fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        let (start, _) = pks_ipac_start(&b)?;
        ipac_member(data, &parse_ipac(&b, start, b.len(), limits)?, index)
    }
    /// Totals for `survey`.
    pub fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
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
    pub fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        let p = parse_pkf(&Bytes::new(data), limits).map_err(|e| e.within("pkf"))?;
        Ok(describe::describe_pkf(data, name, &p, limits))
    }
    /// Entry `index`'s bytes (of the trailing IPAC).
    pub fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let b = Bytes::new(data);
        match parse_pkf(&b, limits)?.ipac {
            Some(ip) => ipac_member(data, &ip?, index),
            None => Err(ParseError::new(0, ErrorKind::NotFound(format!("pkf member {index}: no trailing IPAC")))),
        }
    }
    /// Totals for `survey`.
    pub fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
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
                Ok(Box::new(ContainerParsed { kind: $kind, doc: LazyDocument::ready(source, doc) }))
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

    fn member(&self, node: NodeId, limits: &Limits) -> Result<Member> {
        let doc = self.doc.get();
        let idx = doc
            .node(node)
            .and_then(|n| n.member)
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", doc.path(node)))))?;
        let data = self.doc.source().bytes();
        match self.kind {
            Container::Ipac => IpacFormat.member(data, idx, limits),
            Container::Pks => Pks.member(data, idx, limits),
            Container::Pkf => Pkf.member(data, idx, limits),
        }
    }
}

#[cfg(test)]
mod vectors;
