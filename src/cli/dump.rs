//! Plain-text and JSON renderings of documents: the golden oracle for tests and the
//! output of `tree`, `fields`, `walk` and `info`.

use crate::model::{Document, Field, Node, NodeId, sanitize};
use crate::wire;
use std::fmt::Write as _;

/// One line per node (indented by depth): `key  kind  span  summary`; with `fields`, each
/// field below its node as `name = value  @off len`, then diagnostics.
pub fn document_text(doc: &Document, from: NodeId, depth: Option<usize>, fields: bool) -> String {
    let mut out = Vec::new();
    let mut copy = doc.clone();
    // Writing to memory cannot fail.
    let _ = write_document_text(&mut copy, from, depth, fields, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// [`document_text`] written as it goes: pending nodes are expanded when reached and
/// dropped again once printed, so memory follows one subtree, not the file.
pub fn write_document_text(
    doc: &mut Document,
    from: NodeId,
    depth: Option<usize>,
    fields: bool,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    write_subtree_text(doc, from, 0, depth, fields, out)?;
    if from == NodeId::ROOT && !doc.diagnostics.is_empty() {
        writeln!(out, "diagnostics:")?;
        for dg in &doc.diagnostics {
            writeln!(out, "  {dg}")?;
        }
    }
    Ok(())
}

/// The lines of `from`'s subtree (without the diagnostics), indented as if `from` were
/// `indent` levels down.
pub fn write_subtree_text(
    doc: &mut Document,
    from: NodeId,
    indent: usize,
    depth: Option<usize>,
    fields: bool,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    visit_tree(doc, from, depth, &mut |_, n, d, hidden| {
        let pad = "  ".repeat(d + indent);
        writeln!(out, "{pad}{}", node_line(n))?;
        if fields {
            for f in &n.fields {
                writeln!(out, "{pad}  · {}", field_line(f))?;
            }
        }
        if hidden > 0 {
            writeln!(out, "{pad}  … {hidden} children")?;
        }
        Ok(())
    })
}

/// Visit `from` and its descendants in document order, down to `depth`: `visit(doc, node,
/// depth, hidden)` where `hidden` counts the children below the depth limit (0 otherwise).
/// Pending nodes are expanded for the visit and collapsed after their subtree.
pub fn visit_tree(
    doc: &mut Document,
    from: NodeId,
    depth: Option<usize>,
    visit: &mut dyn FnMut(&Document, &Node, usize, usize) -> std::io::Result<()>,
) -> std::io::Result<()> {
    enum Step {
        Visit(NodeId, usize),
        Collapse(NodeId),
    }
    let mut stack = vec![Step::Visit(from, 0usize)];
    while let Some(step) = stack.pop() {
        let (id, d) = match step {
            Step::Collapse(id) => {
                doc.collapse(id);
                continue;
            }
            Step::Visit(id, d) => (id, d),
        };
        let expanded = doc.expand(id);
        if let Some(b) = doc.budget_exceeded() {
            return Err(std::io::Error::other(format!("{}: {}", sanitize(&doc.name), b.error())));
        }
        let Some(n) = doc.node(id) else { continue };
        let deeper = depth.is_none_or(|max| d < max);
        let hidden = if deeper { 0 } else { n.children.len() };
        visit(doc, n, d, hidden)?;
        let children = if deeper { n.children.clone() } else { Vec::new() };
        if expanded {
            stack.push(Step::Collapse(id));
        }
        stack.extend(children.into_iter().rev().map(|c| Step::Visit(c, d + 1)));
    }
    Ok(())
}

/// `key  kind  0x..0x  summary` (alias and member marks appended). Control characters
/// from the file are shown escaped ([`sanitize`]), as in every text line here.
pub fn node_line(n: &Node) -> String {
    let mut s = format!("{}  {}  {}", n.key, n.kind, n.span);
    if !n.summary.is_empty() {
        let _ = write!(s, "  {}", n.summary);
    }
    if n.alias_of.is_some() {
        s.push_str("  (alias)");
    }
    if n.member.is_some() {
        s.push_str("  [member]");
    }
    sanitize(&s).into_owned()
}

/// `name = value  @0x8 4 B  (note)`; bit fields show their bit position.
pub fn field_line(f: &Field) -> String {
    let mut s = format!("{} = {}  @0x{:x} {} B", f.name, f.value, f.span.start, f.span.len());
    if let Some(b) = f.bits {
        let _ = write!(s, " (bits {b})");
    }
    if let Some(n) = &f.note {
        let _ = write!(s, "  ({n})");
    }
    sanitize(&s).into_owned()
}

/// A node's JSON line (without children): [`crate::wire::Node`], with its fields when
/// `with_fields`.
pub fn node_json<'a>(doc: &'a Document, n: &'a Node, depth: usize, with_fields: bool) -> wire::Node<'a> {
    wire::Node::new(doc, n, depth, with_fields)
}
