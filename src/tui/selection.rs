//! The selection every pane shares, (document, node) plus the field under the hex cursor,
//! and how it moves: whichever pane moves it, the tree follows (ancestors opened), the hex
//! cursor moves into the node, the field under the cursor is picked, and a clip under the
//! selection starts decoding. Also where panes' [`Effect`]s are applied.

use super::app::App;
use super::component::{Effect, Level, Pane};
use crate::model::NodeId;

/// Walks at most this long follow the selection ([`App::walk_follows_selection`]).
const WALK_FOLLOW_MAX: usize = 200_000;

impl App {
    /// Select a node: tree follows (ancestors opened), hex cursor moves into its span
    /// unless `keep_cursor` and the cursor is already inside.
    pub fn select_node(&mut self, d: usize, n: NodeId, keep_cursor: bool) {
        if !keep_cursor {
            // a jump elsewhere ends a shift-selection
            self.hex.anchor = None;
        }
        self.build_node(d, n);
        self.tree.reveal(self.tree_path(d, n));
        self.sel = (d, n);
        let span = self.workspace.docs.get(d).and_then(|e| e.doc().node(n)).map(|x| x.span).unwrap_or_default();
        let cur = self.cur().cursor;
        if !(keep_cursor && (span.contains(cur) || span.is_empty())) {
            self.cur_mut().cursor = span.start.min(self.cur().doc().len.saturating_sub(1));
        }
        self.refresh_field();
        self.on_selection();
    }

    /// The tree selected (document, node): the hex cursor moves to its start unless it is
    /// already inside.
    pub(super) fn tree_selected(&mut self, d: usize, n: NodeId) {
        self.hex.anchor = None;
        self.build_node(d, n);
        self.sel = (d, n);
        let span = self.workspace.docs.get(d).and_then(|e| e.doc().node(n)).map(|x| x.span).unwrap_or_default();
        if !span.contains(self.cur().cursor) {
            self.cur_mut().cursor = span.start;
        }
        self.refresh_field();
        self.on_selection();
    }

    /// Move the hex cursor to `off` in the selected document; selection follows.
    pub fn set_cursor(&mut self, off: u64) {
        let len = self.cur().doc().len;
        self.cur_mut().cursor = off.min(len.saturating_sub(1));
        self.follow_cursor();
    }

    /// Selection follows the hex cursor: innermost field and node under it.
    pub(super) fn follow_cursor(&mut self) {
        let (d, off) = (self.sel.0, self.cur().cursor);
        self.build_to(d, off);
        let node = self.cur().doc().node_at(off).unwrap_or(NodeId::ROOT);
        self.select_node(d, node, true);
    }

    pub(super) fn refresh_field(&mut self) {
        let e = self.cur();
        self.field_sel = e.doc().field_at(e.cursor);
    }

    /// After the selection changed: start decoding its clip, show it in the decode pane;
    /// the walk follows (the step that produced the node or its nearest ancestor).
    pub(super) fn on_selection(&mut self) {
        self.walk_follows_selection();
        if let Some(n) = self.anim_node() {
            self.workspace.start_clip(&mut self.jobs, self.sel.0, n);
            self.decode.show((self.sel.0, n));
        }
    }

    /// The walk step of the selection: the step that produced the selected node, else
    /// the one of its nearest ancestor that has one (walks longer than [`WALK_FOLLOW_MAX`]
    /// steps are not searched on every move).
    fn walk_follows_selection(&mut self) {
        let doc = self.cur().doc();
        let n = doc.walk.len();
        if n == 0 || n > WALK_FOLLOW_MAX {
            return;
        }
        let mut chain = Vec::new();
        let mut cur = Some(self.sel.1);
        while let Some(id) = cur {
            chain.push(id);
            cur = doc.node(id).and_then(|x| x.parent);
        }
        let mut best: Option<(usize, usize)> = None; // (depth in chain, step)
        for i in 0..n {
            if let Some(node) = doc.walk_node(i)
                && let Some(depth) = chain.iter().position(|c| *c == node)
                && best.is_none_or(|(d, _)| depth < d)
            {
                best = Some((depth, i));
                if depth == 0 {
                    break;
                }
            }
        }
        if best.is_none() {
            // no step names the node: the step whose bytes hold the cursor (the latest start)
            let at = self.cur().cursor;
            let mut by_span: Option<(u64, usize)> = None;
            for i in 0..n {
                if let Some(sp) = doc.walk_span(i)
                    && sp.contains(at)
                    && by_span.is_none_or(|(start, _)| sp.start >= start)
                {
                    by_span = Some((sp.start, i));
                }
            }
            best = by_span.map(|(_, i)| (usize::MAX, i));
        }
        self.cur_mut().walk_step = best.map(|(_, i)| i);
    }

    /// Go to walk step `i` of the selected document.
    pub fn walk_to(&mut self, i: usize) {
        let Some((span, node)) = self.cur().doc().walk_span(i).zip(Some(self.cur().doc().walk_node(i))) else { return };
        self.cur_mut().walk_step = Some(i);
        self.walk.active = true;
        let d = self.sel.0;
        if let Some(n) = node {
            self.select_node(d, n, false);
        }
        let len = self.cur().doc().len;
        self.cur_mut().cursor = span.start.min(len.saturating_sub(1));
        let cursor = self.cur().cursor;
        self.hex.place_near_top(self.sel.0, cursor, len);
        self.refresh_field();
        if node.is_none() {
            self.follow_cursor();
        }
        // (the selection's own step may be another one of the same node)
        self.cur_mut().walk_step = Some(i);
    }

    pub(super) fn goto_doc_offset(&mut self, d: usize, off: u64) {
        if d >= self.workspace.docs.len() {
            self.say((Level::Info, "open that member in the tree first".into()));
            return;
        }
        self.sel.0 = d;
        self.set_cursor(off);
        self.focus = Pane::Hex;
    }

    pub(super) fn focus_pane(&mut self, p: Pane) {
        self.focus = p;
        if matches!(p, Pane::Fields | Pane::Decode | Pane::Walk | Pane::Diagnostics) {
            self.lower = p;
        }
    }

    /// Do what a pane asked for, in order.
    pub(super) fn run(&mut self, effects: Vec<Effect>) {
        for e in effects {
            match e {
                Effect::Cursor(off) => self.set_cursor(off),
                Effect::TreeSelected(d, n) => self.tree_selected(d, n),
                Effect::OpenMember(d, n) => self.workspace.start_member(&mut self.jobs, d, n),
                Effect::Field { node, index, start } => {
                    self.cur_mut().cursor = start;
                    self.field_sel = Some((node, index));
                }
                Effect::Focus(p) => self.focus_pane(p),
                Effect::GotoDoc(d, off) => self.goto_doc_offset(d, off),
                Effect::WalkTo(i) => self.walk_to(i),
                Effect::Osc(seq) => self.osc.push(seq),
                Effect::Message(level, text) => self.say((level, text)),
            }
        }
    }
}
