//! Documents on demand in the inspector: before each frame, the nodes the screen shows
//! (opened tree nodes, the selection, the bytes around the hex cursor) are built, and the
//! oldest built structures no longer on screen are dropped once their fields pass a budget,
//! so memory follows what is looked at, not the size of the file.

use super::app::App;
use super::tree::Tid;
use crate::model::{Document, NodeId, Span};
use std::collections::HashSet;
use std::sync::Arc;

/// Fields of built structures the inspector keeps beyond what is on screen (about 300
/// bytes each).
pub const KEEP_FIELDS: usize = 20_000;

impl App {
    /// Run `f` on document `d` to build some of it, when `pending` says it has something
    /// to build (a copy is made if a worker still reads the document).
    pub(crate) fn build_in(&mut self, d: usize, pending: impl Fn(&Document) -> bool, f: impl FnOnce(&mut Document)) {
        let Some(e) = self.workspace.docs.get_mut(d) else { return };
        if !pending(e.doc()) {
            return;
        }
        // A worker (a decode) still reads the document: build on a later frame, when it is
        // done, rather than copy the document for every key.
        let Some(o) = Arc::get_mut(&mut e.opened) else { return };
        f(o.doc_mut());
        e.index_starts();
    }

    /// Build the nodes on the way to `off` in document `d`.
    pub(crate) fn build_to(&mut self, d: usize, off: u64) {
        self.build_in(
            d,
            |doc| doc.node_at(off).and_then(|n| doc.node(n)).is_some_and(|n| n.is_pending()),
            |doc| {
                doc.expand_to(off);
            },
        );
    }

    /// Build node `n` of document `d`.
    pub(crate) fn build_node(&mut self, d: usize, n: NodeId) {
        self.build_in(
            d,
            |doc| doc.node(n).is_some_and(|x| x.is_pending()),
            |doc| {
                doc.expand(n);
            },
        );
    }

    /// Build what the next frame shows and drop what it no longer does.
    pub(crate) fn prepare_view(&mut self) {
        if self.finder_dirty {
            // names arrived from members: the finder's results, once per frame
            self.refresh_finder();
        }
        let opened: Vec<(usize, NodeId)> = self
            .tree
            .opened()
            .iter()
            .filter_map(|p| match p.last() {
                Some(Tid::N(d, n)) => Some((*d as usize, NodeId(*n))),
                _ => None,
            })
            .collect();
        let (bpr, rows) = self.hex.geom;
        let reach = bpr.max(16) * rows.max(64);
        let (sel_d, sel_n) = self.sel;
        for d in 0..self.workspace.docs.len() {
            let Some(cursor) = self.workspace.docs.get(d).map(|e| e.cursor) else { continue };
            let window = (d == sel_d).then(|| Span::new(cursor.saturating_sub(reach), cursor.saturating_add(reach)));
            let mut wanted: Vec<NodeId> = opened.iter().filter(|(od, _)| *od == d).map(|(_, n)| *n).collect();
            if d == sel_d {
                wanted.push(sel_n);
            }
            let needs = |doc: &Document| {
                wanted.iter().any(|n| doc.node(*n).is_some_and(|x| x.is_pending()))
                    || window.is_some_and(|w| any_pending_in(doc, w))
                    || doc.expanded_fields() > KEEP_FIELDS
            };
            // (a document a worker still reads is built by the frame drawn when it is done)
            self.build_in(d, needs, |doc| {
                for n in &wanted {
                    doc.expand(*n);
                }
                if let Some(w) = window {
                    doc.expand_span(w);
                }
                let keep = keep_set(doc, &wanted, window);
                doc.trim(KEEP_FIELDS, &|id| keep.contains(&id));
            });
        }
        self.refresh_field();
    }
}

/// True when a pending node overlaps `span` (walking only nodes that overlap it).
fn any_pending_in(doc: &Document, span: Span) -> bool {
    let mut stack = vec![NodeId::ROOT];
    let mut guard = 0usize;
    while let Some(id) = stack.pop() {
        guard += 1;
        if guard > doc.nodes.len() + 1 {
            break;
        }
        let Some(n) = doc.node(id) else { continue };
        if n.is_pending() {
            return true;
        }
        stack.extend(n.children.iter().copied().filter(|c| doc.node(*c).is_some_and(|k| k.span.overlaps(&span))));
    }
    false
}

/// Nodes whose built contents must stay: the wanted nodes and their ancestors, and every
/// node overlapping the hex window.
fn keep_set(doc: &Document, wanted: &[NodeId], window: Option<Span>) -> HashSet<NodeId> {
    let mut keep = HashSet::new();
    for &n in wanted {
        let mut cur = Some(n);
        while let Some(id) = cur {
            if !keep.insert(id) {
                break;
            }
            cur = doc.node(id).and_then(|x| x.parent);
        }
    }
    if let Some(w) = window {
        let mut stack = vec![NodeId::ROOT];
        while let Some(id) = stack.pop() {
            let Some(n) = doc.node(id) else { continue };
            if n.is_lazy() {
                keep.insert(id);
            }
            stack.extend(n.children.iter().copied().filter(|c| doc.node(*c).is_some_and(|k| k.span.overlaps(&w))));
        }
    }
    keep
}
