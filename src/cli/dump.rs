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
    visit_tree(doc, from, depth, indent == 0, &mut |_, n, d, _, hidden| {
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

/// What [`visit_tree`] calls for each node: `(doc, node, nesting, level, hidden)`.
pub type TreeVisit<'a> = dyn FnMut(&Document, &Node, usize, usize, usize) -> std::io::Result<()> + 'a;

/// Visit `from` and its descendants in document order, down to `depth` levels:
/// `visit(doc, node, nesting, level, hidden)` where `nesting` is how far below `from` the
/// node is, `level` the depth it counts as (below) and `hidden` counts the children below the depth limit (0 otherwise). Pending nodes are
/// expanded for the visit and collapsed after their subtree.
///
/// A container node inside a file (a PKS's IPAC) costs no level of its own: its children
/// (the members, its header and dictionary) count at its level, so a member is as deep in
/// a PKS as in a bare IPAC file. `from` itself always counts (with `from_counts`), so
/// `tree FILE ipac --depth 1` lists the IPAC's children; a part of a document visited on
/// its own (`from_counts` false) is treated as any node below the top.
pub fn visit_tree(
    doc: &mut Document,
    from: NodeId,
    depth: Option<usize>,
    from_counts: bool,
    visit: &mut TreeVisit<'_>,
) -> std::io::Result<()> {
    enum Step {
        /// node, nesting below `from`, level counted against the depth
        Visit(NodeId, usize, usize),
        Collapse(NodeId),
    }
    let mut stack = vec![Step::Visit(from, 0usize, 0usize)];
    while let Some(step) = stack.pop() {
        let (id, nest, level) = match step {
            Step::Collapse(id) => {
                doc.collapse(id);
                continue;
            }
            Step::Visit(id, nest, level) => (id, nest, level),
        };
        let expanded = doc.expand(id);
        if let Some(b) = doc.budget_exceeded() {
            return Err(std::io::Error::other(format!("{}: {}", sanitize(&doc.name), b.error())));
        }
        let Some(n) = doc.node(id) else { continue };
        let flat =
            !(from_counts && id == from) && n.children.iter().any(|&c| doc.node(c).is_some_and(|c| c.member.is_some()));
        let below = if flat { level } else { level + 1 };
        let deeper = depth.is_none_or(|max| below <= max);
        let hidden = if deeper { 0 } else { n.children.len() };
        visit(doc, n, nest, level, hidden)?;
        let children = if deeper { n.children.clone() } else { Vec::new() };
        if expanded {
            stack.push(Step::Collapse(id));
        }
        stack.extend(children.into_iter().rev().map(|c| Step::Visit(c, nest + 1, below)));
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

/// A node's JSON line written as it is made: the bytes of [`node_json`]'s line, with the
/// fields serialised one at a time into the output instead of gathered into a list and a
/// string first (a node of a million layout fields would hold them twice more).
pub struct NodeLine<'a> {
    doc: &'a Document,
    n: &'a Node,
    depth: usize,
    with_fields: bool,
}

/// [`NodeLine`] of `n`: print it with `{}`.
pub fn node_line_json<'a>(doc: &'a Document, n: &'a Node, depth: usize, with_fields: bool) -> NodeLine<'a> {
    NodeLine { doc, n, depth, with_fields }
}

/// `io::Write` over a formatter, for serde_json's writer: serde_json writes whole UTF-8
/// pieces.
struct FmtIo<'a, 'b>(&'a mut std::fmt::Formatter<'b>);

impl std::io::Write for FmtIo<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let s = std::str::from_utf8(buf).map_err(std::io::Error::other)?;
        self.0.write_str(s).map_err(std::io::Error::other)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::fmt::Display for NodeLine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let head = serde_json::to_string(&wire::Node::new(self.doc, self.n, self.depth, false))
            .map_err(|_| std::fmt::Error)?;
        if !self.with_fields {
            return f.write_str(&head);
        }
        // `fields` comes right before `key` in the line (the wire type's field order); a
        // quote inside a JSON string is escaped, so `,"key":` is that key's own place
        let at = head.find(",\"key\":").ok_or(std::fmt::Error)?;
        f.write_str(head.get(..at).ok_or(std::fmt::Error)?)?;
        f.write_str(",\"fields\":[")?;
        for (i, field) in self.n.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            serde_json::to_writer(FmtIo(f), &wire::Field::new(field)).map_err(|_| std::fmt::Error)?;
        }
        f.write_str("]")?;
        f.write_str(head.get(at..).ok_or(std::fmt::Error)?)
    }
}

/// A node's JSON line (without children): [`crate::wire::Node`], with its fields when
/// `with_fields`.
pub fn node_json<'a>(doc: &'a Document, n: &'a Node, depth: usize, with_fields: bool) -> wire::Node<'a> {
    wire::Node::new(doc, n, depth, with_fields)
}
