//! Building documents: placing a node inside its parent (clipped, with a diagnostic, when
//! a file's offsets say otherwise) and giving every byte no node claims its own node, so
//! every format's tree covers its bytes the same way.

use super::{Diagnostic, Document, Field, NodeId, Severity, Span, Value};

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
