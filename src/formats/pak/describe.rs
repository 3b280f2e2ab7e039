//! PKS, IPAC and PKF → `model::Document`: each header and dictionary entry with the fields
//! of its `raw.rs` declaration, one member node per IPAC entry, one node per PKF chunk, the
//! walk, and gap filling for bytes no record covers.

use super::parse::{Chunk, Ipac, PkfFile, parse_ipac, pks_header, pks_ipac_start};
use super::raw::{IpacHeader, PkfHeader, PksHeader, ext_label};
use crate::bytes::Bytes;
use crate::error::{Context, Result};
use crate::formats::record::{FixedSize, Record};
use crate::limits::Limits;
use crate::model::build::{fill_gaps, place};
use crate::model::{Diagnostic, Document, Field, NodeId, Severity, Span, Value, WalkStep, escape_text};

/// Add the IPAC's nodes under `parent`: header, dictionary, one member node per entry.
pub(super) fn describe_ipac(doc: &mut Document, parent: NodeId, data: &[u8], ip: &Ipac) -> NodeId {
    let id = place(doc, parent, "ipac", "IPAC", Span::new(ip.start, ip.end));
    if let Some(d) = &ip.recovered {
        doc.diag(d.clone());
    }
    let hn = doc.add_node(id, "header", "IPAC header", Span::at(ip.start, IpacHeader::SIZE));
    for f in ip.header.fields() {
        doc.add_field(hn, f);
    }
    let dict_end = ip.entries.last().map_or(ip.dict_at, |e| e.raw.span.end);
    let dn = place(doc, id, "dictionary", "IPAC dictionary", Span::new(ip.dict_at, dict_end));
    doc.walk.push(WalkStep {
        span: Span::at(ip.start, IpacHeader::SIZE),
        what: "IPAC header".into(),
        detail: format!("{} entries, dictionary at +0x{:x}", *ip.header.file_count, *ip.header.dictionary_ofs),
        next: Some(ip.dict_at),
        node: Some(hn),
    });
    let mut used: Vec<String> = Vec::new();
    for e in &ip.entries {
        let en = doc.add_node(dn, format!("entry[{}]", e.index), "IPAC entry", e.raw.span);
        for f in e.raw.fields() {
            doc.add_field(en, f);
        }
        if let Some(x) = doc.node_mut(en) {
            x.summary = e.member_name().into();
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
                    x.summary = format!("{}, {} bytes", ext_label(e.ext()), span.len()).into();
                }
                doc.add_field(
                    mn,
                    Field::new("bytes", *span, Value::bytes(span.len())).note("open the member to see inside"),
                );
                doc.walk.push(WalkStep {
                    span: *span,
                    what: format!("entry {}", e.member_name()),
                    detail: format!("{} bytes at +0x{:x}: nested member {}", *e.raw.size, *e.raw.offset, e.index),
                    next: None,
                    node: Some(mn),
                });
            }
            Err(err) => {
                doc.diag(Diagnostic::from_error(&err.clone().within(format!("ipac > entry[{}]", e.index))));
                doc.walk.push(WalkStep {
                    span: e.raw.span,
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

/// A stand-alone IPAC file.
pub(super) fn describe_ipac_file(data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
    let b = Bytes::new(data);
    let ip = parse_ipac(&b, 0, b.len(), limits)?;
    let mut doc = Document::new("ipac", name, "IPAC file", b.len(), limits);
    describe_ipac(&mut doc, NodeId::ROOT, data, &ip);
    fill_gaps(&mut doc, NodeId::ROOT, data);
    Ok(doc)
}

/// A PKS: its header (as far as the file holds it), then the IPAC.
pub(super) fn describe_pks(data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
    let b = Bytes::new(data);
    let (start, note) = pks_ipac_start(&b).within("pks")?;
    let header = pks_header(&b).within("pks")?;
    let mut doc = Document::new("pks", name, "PKS file", b.len(), limits);
    let hn = place(&mut doc, NodeId::ROOT, "header", "PKS header", Span::new(0, PksHeader::SIZE.min(b.len())));
    for f in header.fields() {
        doc.add_field(hn, f);
    }
    if let Some(n) = note {
        doc.diag(Diagnostic::new(Severity::Warning, Some(header.record.ipac_ofs.span.start), "header", n));
    }
    doc.walk.push(WalkStep {
        // as far as the file holds it (a cut file may end inside the header)
        span: Span::new(0, PksHeader::SIZE.min(b.len())),
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

fn chunk_node(doc: &mut Document, key: String, c: &Chunk) {
    let span = c.span();
    let id = place(doc, NodeId::ROOT, &key, "PKF chunk", span);
    for f in c.header.fields() {
        doc.add_field(id, f);
    }
    let payload = c.header.size.span.end;
    doc.add_field(
        id,
        Field::new("payload", Span::new(payload, span.end), Value::bytes(span.end.saturating_sub(payload)))
            .note("not decoded"),
    );
    if let Some(x) = doc.node_mut(id) {
        x.summary = format!("{} bytes", *c.header.size).into();
    }
    doc.walk.push(WalkStep {
        span,
        what: format!("chunk {}", escape_text(c.header.token.as_slice())),
        detail: format!("size 0x{:x} including header", *c.header.size),
        next: Some(span.end),
        node: Some(id),
    });
}

/// A PKF: header, chunks, the trailing IPAC.
pub(super) fn describe_pkf(data: &[u8], name: &str, p: &PkfFile, limits: &Limits) -> Document {
    let len = data.len() as u64;
    let mut doc = Document::new("pkf", name, "PKF file", len, limits);
    let hn = place(&mut doc, NodeId::ROOT, "header", "PKF header", Span::new(0, PkfHeader::SIZE));
    for f in p.header.fields() {
        doc.add_field(hn, f);
    }
    doc.walk.push(WalkStep {
        span: Span::new(0, PkfHeader::SIZE),
        what: "PKF header".into(),
        detail: format!("{} chunks, content size 0x{:x}", *p.header.file_count, *p.header.content_size),
        next: Some(PkfHeader::SIZE),
        node: Some(hn),
    });
    if let Some(d) = &p.dummy {
        chunk_node(&mut doc, "DUMY".into(), d);
    }
    for (i, c) in p.chunks.iter().enumerate() {
        chunk_node(&mut doc, format!("chunk[{i}] {}", escape_text(c.header.token.as_slice())), c);
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
            span: Span::at(u64::from(*p.header.content_size).min(len), 0),
            what: "trailing IPAC".into(),
            detail: "none at the content size".into(),
            next: None,
            node: None,
        }),
    }
    fill_gaps(&mut doc, NodeId::ROOT, data);
    doc
}
