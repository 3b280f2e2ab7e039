//! Building documents: placing a node inside its parent (clipped, with a diagnostic, when
//! a file's offsets say otherwise) and giving every byte no node claims its own node, so
//! every format's tree covers its bytes the same way.

use super::{Diagnostic, Document, Field, NodeId, Severity, Span, Value};
use std::collections::BTreeMap;

/// A count with its noun for a node's summary: `1 sequence`, `2 sequences`, `3 entries`.
pub fn count(n: u64, noun: &str) -> String {
    match (n, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

/// Add a node, recording an info diagnostic at the start of any overlap with a sibling
/// (so `validate()` holds even for hostile offsets).
/// A span outside the parent is clipped to it, with a warning (hostile offsets).
pub fn place(doc: &mut Document, parent: NodeId, key: &str, kind: &str, span: Span) -> NodeId {
    let pspan = doc.node(parent).map(|p| p.span).unwrap_or_default();
    // Children placed in file order: nothing before can overlap, skip the scan.
    let clear = span.start >= doc.children_end(parent) && pspan.covers(&span);
    let siblings = doc
        .node(parent)
        .filter(|_| !clear)
        .into_iter()
        .flat_map(|p| p.children.iter().filter_map(|c| doc.node(*c)))
        .filter(|s| s.alias_of.is_none())
        .map(|s| (s.key.as_str(), s.span));
    let (span, found) = placement(pspan, siblings, key, span);
    for d in found {
        doc.diag(d);
    }
    doc.add_node(parent, key, kind, span)
}

/// Places many nodes under one parent in any order, each as [`place`] places it (the same
/// span and findings), in O(log n) a node: [`place`] checks a node placed before the end of
/// its siblings against every one of them, so n nodes placed out of file order (a MOTN
/// file's extra-data records, added after the data area and trailer that follow them)
/// cost O(n²). The placer keeps the bytes the parent's children cover as merged ranges;
/// a node that overlaps none and fits its parent is added directly, any other goes through
/// [`place`] (whose scan names the overlaps). Only nodes added through the placer may be
/// added to the parent while it is in use.
pub struct Placer {
    parent: NodeId,
    pspan: Span,
    /// Bytes covered by the parent's non-alias children: start → end, disjoint (touching
    /// ranges merged), so the range starting last before a span's end ends last of those.
    covered: BTreeMap<u64, u64>,
}

impl Placer {
    /// A placer for the children of `parent` as they are now.
    pub fn new(doc: &Document, parent: NodeId) -> Self {
        let pspan = doc.node(parent).map(|p| p.span).unwrap_or_default();
        let mut placer = Placer { parent, pspan, covered: BTreeMap::new() };
        let spans = doc.node(parent).into_iter().flat_map(|p| p.children.iter().filter_map(|c| doc.node(*c)));
        for s in spans.filter(|s| s.alias_of.is_none()).map(|s| s.span).collect::<Vec<_>>() {
            placer.cover(s);
        }
        placer
    }

    /// True when `span` shares a byte with a child placed so far (as `Span::overlaps`: an
    /// empty span shares none).
    fn overlaps(&self, span: Span) -> bool {
        !span.is_empty() && self.covered.range(..span.end).next_back().is_some_and(|(_, &end)| end > span.start)
    }

    /// Add `span` to the covered bytes, merging the ranges it touches.
    fn cover(&mut self, span: Span) {
        if span.is_empty() {
            return;
        }
        let (mut start, mut end) = (span.start, span.end);
        // ranges starting at or before the span's end that reach its start: merged into it
        while let Some((&s, &e)) = self.covered.range(..=end).next_back() {
            if e < start {
                break;
            }
            self.covered.remove(&s);
            start = start.min(s);
            end = end.max(e);
        }
        self.covered.insert(start, end);
    }

    /// [`place`] a node of `key` and `kind` over `span` under the placer's parent.
    pub fn place(&mut self, doc: &mut Document, key: &str, kind: &str, span: Span) -> NodeId {
        let id = if self.pspan.covers(&span) && !self.overlaps(span) {
            doc.add_node(self.parent, key, kind, span)
        } else {
            place(doc, self.parent, key, kind, span)
        };
        self.cover(doc.node(id).map_or(span, |n| n.span));
        id
    }
}

/// Overlapping siblings [`placement`] names one by one before it counts the rest.
const MAX_OVERLAPS_NAMED: usize = 8;

/// Where [`place`] puts a node of `key` over `span` inside a parent over `pspan` whose
/// (non-alias) children are `siblings`, and the diagnostics it records: for formats that
/// build a node's children later and record its findings now.
pub fn placement<'a>(
    pspan: Span,
    siblings: impl IntoIterator<Item = (&'a str, Span)>,
    key: &str,
    span: Span,
) -> (Span, Vec<Diagnostic>) {
    let mut found = Vec::new();
    let span = if pspan.covers(&span) {
        span
    } else {
        let clipped = Span::new(span.start.clamp(pspan.start, pspan.end), span.end.clamp(pspan.start, pspan.end));
        found.push(Diagnostic::new(
            Severity::Warning,
            Some(clipped.start),
            key,
            format!("span {span} reaches outside its parent {pspan}; shown clipped"),
        ));
        clipped
    };
    // Each overlap named up to a few, then one count: thousands of structures over the same
    // bytes would otherwise make a finding per pair (quadratic).
    // (how many, where the first is, the bytes they all cover)
    let mut more = (0u64, None::<u64>, None::<Span>);
    for (other, s) in siblings {
        if s.overlaps(&span) {
            if found.len() < MAX_OVERLAPS_NAMED {
                found.push(Diagnostic::new(
                    Severity::Info,
                    Some(s.start.max(span.start)),
                    key,
                    format!("overlaps {other}"),
                ));
            } else {
                let overlap = Span::new(s.start.max(span.start), s.end.min(span.end));
                let hull = more.2.map_or(overlap, |h| Span::new(h.start.min(overlap.start), h.end.max(overlap.end)));
                more = (more.0 + 1, more.1.or(Some(overlap.start)), Some(hull));
            }
        }
    }
    if let (n @ 1.., at, Some(hull)) = more {
        found.push(
            Diagnostic::new(Severity::Info, at, key, format!("overlaps {n} more siblings")).counting_overlaps(hull),
        );
    }
    (span, found)
}

/// Give every byte of `parent` not covered by a child its own node (`padding` when all
/// zero, else `unknown`), then order the children by offset.
pub fn fill_gaps(doc: &mut Document, parent: NodeId, data: &[u8]) {
    fill_gaps_from(doc, parent, data, 0);
}

/// [`fill_gaps`] with `data` holding the bytes from absolute offset `base` on (a span read
/// on its own).
pub fn fill_gaps_from(doc: &mut Document, parent: NodeId, data: &[u8], base: u64) {
    let Some(p) = doc.node(parent) else { return };
    let pspan = p.span;
    let mut spans: Vec<Span> = p.children.iter().filter_map(|c| doc.node(*c)).map(|n| n.span).collect();
    spans.sort();
    let mut gaps = Vec::new();
    let mut cur = pspan.start;
    // empty children split gaps too: a gap must not strictly contain one
    for s in &spans {
        if s.start > cur {
            gaps.push(Span::new(cur, s.start));
        }
        cur = cur.max(s.end);
    }
    if cur < pspan.end {
        gaps.push(Span::new(cur, pspan.end));
    }
    for g in gaps {
        let at = |x: u64| x.checked_sub(base).and_then(|r| usize::try_from(r).ok());
        let bytes = at(g.start).zip(at(g.end)).and_then(|(a, e)| data.get(a..e));
        let zero = bytes.is_some_and(|b| b.iter().all(|&x| x == 0));
        let kind = if zero { "padding" } else { "unknown" };
        let id = doc.add_node(parent, format!("{kind}@0x{:x}", g.start), kind, g);
        let value = if zero { Value::bytes(g.len()) } else { Value::unknown_bytes(g.len()) };
        doc.add_field(id, Field::new("bytes", g, value).note(if zero { "all zero" } else { "not understood" }));
    }
    let mut kids: Vec<(Span, NodeId)> = doc
        .node(parent)
        .map(|p| p.children.iter().filter_map(|c| doc.node(*c).map(|n| (n.span, *c))).collect())
        .unwrap_or_default();
    // Stable by creation order (not by id: lazily built nodes may reuse dropped slots).
    kids.sort_by_key(|(s, _)| s.start);
    if let Some(p) = doc.node_mut(parent) {
        p.children = kids.into_iter().map(|(_, id)| id).collect();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    /// Nodes placed by a [`Placer`] get the spans and findings [`place`]'s scan gives, in
    /// any order, with overlaps, empty spans, touching spans and spans outside the parent.
    #[test]
    fn the_placer_places_as_place_does() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % m
        };
        for round in 0..200 {
            let (mut a, mut b) = (
                Document::new("raw", "f.bin", "file", 0x100, &Limits::default()),
                Document::new("raw", "f.bin", "file", 0x100, &Limits::default()),
            );
            // some children placed before the placer starts (in file order, then not)
            for i in 0..next(4) {
                let s = Span::at(next(0x100), next(0x20));
                let s = Span::new(s.start, s.end.min(0x100));
                place(&mut a, NodeId::ROOT, &format!("pre{i}"), "x", s);
                place(&mut b, NodeId::ROOT, &format!("pre{i}"), "x", s);
            }
            let mut placer = Placer::new(&b, NodeId::ROOT);
            // mostly disjoint small spans (the placer's fast path), some wide or outside
            for i in 0..next(40) {
                let start = next(0x110);
                let len = if round % 3 == 0 { next(0x40) } else { next(4) };
                let s = Span::new(start, start + len);
                place(&mut a, NodeId::ROOT, &format!("n{i}"), "x", s);
                placer.place(&mut b, &format!("n{i}"), "x", s);
            }
            let spans = |d: &Document| -> Vec<(String, Span)> {
                d.root().children.iter().map(|c| d.node(*c).unwrap()).map(|n| (n.key.to_string(), n.span)).collect()
            };
            assert_eq!(spans(&a), spans(&b), "round {round}");
            let found = |d: &Document| -> Vec<String> { d.diagnostics.iter().map(|g| format!("{g:?}")).collect() };
            assert_eq!(found(&a), found(&b), "round {round}");
        }
    }

    /// A node placed over more siblings than are named one by one still keeps the span
    /// contract: the rest are counted in one finding (fuzz: `motn`, 2026-12-03).
    #[test]
    fn overlaps_past_the_named_few_keep_the_span_contract() {
        let mut d = Document::new("raw", "f.bin", "file", 0x100, &Limits::default());
        for i in 0..MAX_OVERLAPS_NAMED as u64 + 4 {
            place(&mut d, NodeId::ROOT, &format!("small[{i}]"), "x", Span::new(0x20 + 4 * i, 0x24 + 4 * i));
        }
        place(&mut d, NodeId::ROOT, "wide", "x", Span::new(0x10, 0x90));
        let counted: Vec<_> = d.diagnostics.iter().filter(|g| g.message.ends_with("more siblings")).collect();
        assert_eq!(counted.len(), 1, "{:?}", d.diagnostics);
        assert_eq!(counted[0].message, "overlaps 4 more siblings");
        // small[8..12] at 0x40..0x50: the bytes the counted overlaps cover
        assert_eq!(counted[0].counted_overlaps, Some(Span::new(0x40, 0x50)));
        assert!(d.diagnostics.iter().filter(|g| g.counted_overlaps.is_some()).count() == 1);
        assert_eq!(d.validate(), Ok(()));
    }
}
