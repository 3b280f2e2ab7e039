//! PKS, IPAC and PKF → `model::Document`: each header and dictionary entry with the fields
//! of its `raw.rs` declaration, one member node per IPAC entry, one node per PKF chunk, the
//! walk, and gap filling for bytes no record covers.

use super::parse::{Chunk, Ipac, PkfFile, parse_ipac, pks_header, pks_ipac_start};
use super::raw::{IpacHeader, PkfHeader, PksHeader, ext_label};
use crate::bytes::Bytes;
use crate::error::{Context, Result};
use crate::formats::record::{FixedSize, Record};
use crate::limits::Limits;
use crate::model::build::{fill_gaps, place, placement};
use crate::model::{Diagnostic, Document, Field, NodeId, Severity, Span, Value, WalkStep, escape_text};
use std::collections::{BTreeSet, HashSet};

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
    let members = place_members(doc, id, ip);
    for (e, member) in ip.entries.iter().zip(&members) {
        let en = doc.add_node(dn, format!("entry[{}]", e.index), "IPAC entry", e.raw.span);
        for f in e.raw.fields() {
            doc.add_field(en, f);
        }
        if let Some(x) = doc.node_mut(en) {
            x.summary = e.member_name().into();
        }
        match (&e.data, member) {
            (Ok(span), Some(mn)) => {
                doc.walk.push(WalkStep {
                    span: *span,
                    what: format!("entry {}", e.member_name()),
                    detail: format!("{} bytes at +0x{:x}: nested member {}", *e.raw.size, *e.raw.offset, e.index),
                    next: None,
                    node: Some(*mn),
                });
            }
            (Err(err), _) => {
                doc.diag(Diagnostic::from_error(&err.clone().within(format!("ipac > entry[{}]", e.index))));
                doc.walk.push(WalkStep {
                    span: e.raw.span,
                    what: format!("entry {}", e.member_name()),
                    detail: format!("skipped: {}", err.kind),
                    next: None,
                    node: Some(en),
                });
            }
            (Ok(_), None) => {}
        }
    }
    fill_gaps(doc, id, data);
    id
}

/// Overlapping siblings named one by one before the rest are counted (as `place` does).
const OVERLAPS_NAMED: usize = 8;

/// One member node under the IPAC node `id` per entry whose bytes are inside the IPAC (None
/// for the others), in entry order. A repeated `NAME.EXT` key gets the entry's index.
///
/// What `place` would say, in O(N log N) for N entries instead of a scan of every earlier
/// sibling per entry: the dictionary usually follows the data, so no member is placed
/// past the children already there, and a dictionary whose entries all name the same
/// bytes made every pair an overlap to look at. Members are taken by where they start; each
/// names the header, the dictionary and up to [`OVERLAPS_NAMED`] earlier-starting members
/// it overlaps (those ending first), and counts the rest.
fn place_members(doc: &mut Document, id: NodeId, ip: &Ipac) -> Vec<Option<NodeId>> {
    let pspan = doc.node(id).map(|n| n.span).unwrap_or_default();
    let fixed: Vec<(String, Span)> = doc
        .node(id)
        .map(|p| p.children.iter().filter_map(|c| doc.node(*c)).map(|n| (n.key.to_string(), n.span)).collect())
        .unwrap_or_default();
    let mut used: HashSet<String> = HashSet::new();
    let keys: Vec<Option<(String, Span)>> = ip
        .entries
        .iter()
        .map(|e| {
            let span = *e.data.as_ref().ok()?;
            let mut key = e.member_name();
            if used.contains(&key) {
                key = format!("{key}[{}]", e.index);
            }
            used.insert(key.clone());
            Some((key, span))
        })
        .collect();
    drop(used);
    let mut order: Vec<usize> = (0..keys.len()).filter(|&i| keys.get(i).is_some_and(Option::is_some)).collect();
    let span_of = |i: usize| keys.get(i).and_then(|k| k.as_ref()).map(|(_, s)| *s).unwrap_or_default();
    order.sort_by_key(|&i| (span_of(i).start, i));
    // Ends of the members placed so far (non-empty ones), to find those a member overlaps:
    // every earlier-starting member overlaps it exactly when it ends after it starts.
    let mut ends: Vec<u64> = order.iter().map(|&i| span_of(i).end).collect();
    ends.sort_unstable();
    ends.dedup();
    let mut counts = Fenwick::new(ends.len());
    let mut placed: BTreeSet<(u64, usize)> = BTreeSet::new();
    let mut nodes: Vec<Option<NodeId>> = vec![None; keys.len()];
    for &i in &order {
        let Some(Some((key, span))) = keys.get(i) else { continue };
        let span = *span;
        let mut named: Vec<(&str, Span)> = fixed.iter().map(|(k, s)| (k.as_str(), *s)).collect();
        let mut counted = None;
        if !span.is_empty() {
            // the header and the dictionary are named first, as `place` names siblings in order
            let room = OVERLAPS_NAMED.saturating_sub(fixed.iter().filter(|(_, s)| s.overlaps(&span)).count());
            let earlier = placed.range((span.start.saturating_add(1), 0)..);
            named.extend(earlier.take(room).filter_map(|&(_, j)| keys.get(j)?.as_ref().map(|(k, s)| (k.as_str(), *s))));
            let below = ends.partition_point(|&e| e <= span.start);
            let overlapping = counts.total() - counts.prefix(below);
            let more = overlapping.saturating_sub(room as u64);
            if more > 0 {
                let last = placed.last().map_or(span.end, |&(e, _)| e);
                counted = Some((more, Span::new(span.start, last.min(span.end))));
            }
        }
        let (span, found) = placement(pspan, named, key, span);
        for d in found {
            doc.diag(d);
        }
        if let Some((n, hull)) = counted {
            doc.diag(
                Diagnostic::new(Severity::Info, Some(hull.start), key.as_str(), format!("overlaps {n} more siblings"))
                    .counting_overlaps(hull),
            );
        }
        let mn = doc.add_node(id, key, "IPAC member", span);
        if let (Some(x), Some(e)) = (doc.node_mut(mn), ip.entries.get(i)) {
            x.member = Some(u32::try_from(e.index).unwrap_or(u32::MAX));
            x.summary = format!("{}, {} bytes", ext_label(e.ext()), span.len()).into();
        }
        doc.add_field(mn, Field::new("bytes", span, Value::bytes(span.len())).note("open the member to see inside"));
        if let Some(slot) = nodes.get_mut(i) {
            *slot = Some(mn);
        }
        if !span.is_empty() {
            placed.insert((span.end, i));
            counts.add(ends.partition_point(|&e| e < span.end));
        }
    }
    nodes
}

/// Counts by position with prefix sums in O(log n) (a Fenwick tree).
struct Fenwick {
    tree: Vec<u64>,
    total: u64,
}

impl Fenwick {
    fn new(n: usize) -> Fenwick {
        Fenwick { tree: vec![0; n + 1], total: 0 }
    }

    /// Count one at position `at`.
    fn add(&mut self, at: usize) {
        let mut i = at + 1;
        while let Some(v) = self.tree.get_mut(i) {
            *v += 1;
            i += i & i.wrapping_neg();
        }
        self.total += 1;
    }

    /// How many were counted at positions below `n`.
    fn prefix(&self, n: usize) -> u64 {
        let mut i = n.min(self.tree.len().saturating_sub(1));
        let mut sum = 0;
        while i > 0 {
            sum += self.tree.get(i).copied().unwrap_or(0);
            i -= i & i.wrapping_neg();
        }
        sum
    }

    fn total(&self) -> u64 {
        self.total
    }
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
