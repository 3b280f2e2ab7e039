//! Shenmue containers that carry MOTN blobs (docs/formats/pak.md): **PKS**
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

mod decode;
mod describe;
mod fixtures;
mod parse;
pub(in crate::formats) mod raw;
pub mod write;

use super::{Format, Member, Survey};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, escape_text};
use decode::ipac_member;
use parse::{Ipac, parse_ipac, parse_pkf, pks_ipac_start};

/// Counters for a container: entries by extension, plus every MOTN entry's survey.
fn survey_ipac(data: &[u8], ip: &Ipac, s: &mut Survey, limits: &Limits) {
    for e in &ip.entries {
        s.add("entries", 1);
        s.add(format!("entries.{}", escape_text(e.ext())), 1);
        match &e.data {
            Err(err) => s.findings.push(Diagnostic::from_error(err)),
            Ok(span) if e.ext() == b"MOTN" => {
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
        describe::describe_ipac_file(data, name, limits)
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
        describe::describe_pks(data, name, limits)
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
        let p = parse_pkf(&Bytes::new(data), limits).map_err(|e| e.within("pkf"))?;
        Ok(describe::describe_pkf(data, name, &p, limits))
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

#[cfg(test)]
mod vectors;
