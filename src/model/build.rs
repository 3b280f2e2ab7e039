//! Building documents: placing a node inside its parent (clipped, with a diagnostic, when
//! a file's offsets say otherwise) and giving every byte no node claims its own node, so
//! every format's tree covers its bytes the same way.

use super::{Diagnostic, Document, Field, NodeId, Severity, Span, Value};

/// Add a node, recording an info diagnostic at the start of any overlap with a sibling
/// (so `validate()` holds even for hostile offsets).
/// A span outside the parent is clipped to it, with a warning (hostile offsets).
pub fn place(doc: &mut Document, parent: NodeId, key: &str, kind: &str, span: Span) -> NodeId {
    let pspan = doc.node(parent).map(|p| p.span).unwrap_or_default();
    let span = if pspan.covers(&span) {
        span
    } else {
        let clipped = Span::new(span.start.clamp(pspan.start, pspan.end), span.end.clamp(pspan.start, pspan.end));
        doc.diag(Diagnostic::new(
            Severity::Warning,
            Some(clipped.start),
            key,
            format!("span {span} reaches outside its parent {pspan}; shown clipped"),
        ));
        clipped
    };
    let mut overlaps = Vec::new();
    if let Some(p) = doc.node(parent) {
        for c in &p.children {
            if let Some(s) = doc.node(*c)
                && s.alias_of.is_none()
                && s.span.overlaps(&span)
            {
                overlaps.push((s.span.start.max(span.start), s.key.clone()));
            }
        }
    }
    for (at, other) in overlaps {
        doc.diag(Diagnostic::new(Severity::Info, Some(at), key, format!("overlaps {other}")));
    }
    doc.add_node(parent, key, kind, span)
}

/// Give every byte of `parent` not covered by a child its own node (`padding` when all
/// zero, else `unknown`), then order the children by offset.
pub fn fill_gaps(doc: &mut Document, parent: NodeId, data: &[u8]) {
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
        let bytes = usize::try_from(g.start).ok().zip(usize::try_from(g.end).ok()).and_then(|(a, e)| data.get(a..e));
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
    kids.sort_by_key(|(s, id)| (s.start, *id));
    if let Some(p) = doc.node_mut(parent) {
        p.children = kids.into_iter().map(|(_, id)| id).collect();
    }
}
