//! The tree pane: items are built per frame only for opened nodes (closed nodes with
//! children get one placeholder), long child lists are grouped by [`BUCKET`], and archive
//! members appear inline under their node once opened in the background.

use super::action::Action;
use super::component::{Component, Ctx, Effect, Pane};
use super::workspace::{Load, Workspace};
use crate::model::{Document, NodeId};
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use std::cell::{Ref, RefCell};
use std::collections::HashSet;
use tui_tree_widget::{Tree, TreeItem, TreeState};

/// Children lists longer than this are grouped into ranges of this size in the tree.
pub const BUCKET: usize = 100;

/// Tree item identifier: unique among siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tid {
    /// Node `1` of document `0`.
    N(u32, u32),
    /// A range of children starting at this index.
    B(u32),
    /// Stands in for children not built yet (closed node) or still loading.
    Ph,
}

/// The tree pane: which paths are open, which is selected, and the scroll offset.
#[derive(Debug, Default)]
pub struct TreePane {
    /// The widget's state. tui-tree-widget settles the scroll offset and records the rows
    /// it drew into its state while rendering, so drawing from `&self` needs the cell.
    state: RefCell<TreeState<Tid>>,
}

/// Which tree path each row of the last frame showed (for mouse clicks).
#[derive(Debug, Default)]
pub struct TreeGeometry {
    /// The rows inside the border.
    inner: Rect,
    /// Path shown on each row of `inner`, top to bottom.
    rows: Vec<Option<Vec<Tid>>>,
}

impl TreeGeometry {
    /// The path drawn at a screen cell.
    pub fn path_at(&self, col: u16, row: u16) -> Option<Vec<Tid>> {
        if !self.inner.contains(Position::new(col, row)) {
            return None;
        }
        self.rows.get(usize::from(row - self.inner.y)).cloned().flatten()
    }
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Tree path of (document, node), through members and buckets.
pub fn path_of(ws: &Workspace, d: usize, n: NodeId) -> Vec<Tid> {
    let mut out = Vec::new();
    let (mut d, mut n) = (d, n);
    for _ in 0..64 {
        let Some(e) = ws.docs.get(d) else { break };
        let doc = e.doc();
        let mut chain = Vec::new();
        let mut cur = doc.node(n);
        let mut guard = 0;
        while let Some(node) = cur {
            chain.push(Tid::N(u32_of(d), node.id.0));
            if let Some(p) = node.parent.and_then(|p| doc.node(p)) {
                if p.children.len() > BUCKET {
                    let i = p.children.iter().position(|c| *c == node.id).unwrap_or(0);
                    chain.push(Tid::B(u32_of(i / BUCKET * BUCKET)));
                }
                cur = Some(p);
            } else {
                cur = None;
            }
            guard += 1;
            if guard > doc.nodes.len() {
                break;
            }
        }
        chain.reverse();
        chain.extend(out);
        out = chain;
        match e.parent {
            Some((pd, pn)) => {
                d = pd;
                n = pn;
            }
            None => break,
        }
    }
    out
}

/// (document, node) a tree path points at: its last node (buckets and placeholders
/// count as their parent).
pub fn node_of_path(path: &[Tid]) -> Option<(usize, NodeId)> {
    path.iter().rev().find_map(|t| match t {
        Tid::N(d, n) => Some((*d as usize, NodeId(*n))),
        _ => None,
    })
}

impl TreePane {
    /// The selected path.
    pub fn selected(&self) -> Vec<Tid> {
        self.state.borrow().selected().to_vec()
    }

    /// The opened paths.
    pub fn opened(&self) -> Ref<'_, HashSet<Vec<Tid>>> {
        Ref::map(self.state.borrow(), TreeState::opened)
    }

    /// Open `path` and its ancestors and select it (the selection moved elsewhere).
    pub fn reveal(&mut self, path: Vec<Tid>) {
        let state = self.state.get_mut();
        for i in 1..path.len() {
            state.open(path.get(..i).unwrap_or(&[]).to_vec());
        }
        state.select(path);
    }

    /// Open `path`.
    pub fn open(&mut self, path: Vec<Tid>) {
        self.state.get_mut().open(path);
    }

    /// Select `path`; the selection follows.
    pub fn select_path(&mut self, p: Vec<Tid>) -> Vec<Effect> {
        let Some((d, n)) = node_of_path(&p) else { return Vec::new() };
        self.state.get_mut().select(p);
        vec![Effect::TreeSelected(d, n)]
    }

    /// Move the selection by `delta` visible rows (clamped).
    pub fn step(&mut self, delta: isize, ctx: &Ctx<'_>) -> Vec<Effect> {
        let vis = self.visible(ctx);
        if vis.is_empty() {
            return Vec::new();
        }
        let sel = self.state.get_mut().selected();
        let cur = vis.iter().position(|p| p.as_slice() == sel).unwrap_or(0);
        let next = cur.saturating_add_signed(delta).min(vis.len() - 1);
        match vis.get(next).cloned() {
            Some(p) => self.select_path(p),
            None => Vec::new(),
        }
    }

    /// Paths of the rows the tree shows (scrolled or not).
    fn visible(&self, ctx: &Ctx<'_>) -> Vec<Vec<Tid>> {
        let state = self.state.borrow();
        let items = items(ctx, state.opened());
        state.flatten(&items).into_iter().map(|f| f.identifier).collect()
    }

    fn is_open(&mut self, path: &[Tid]) -> bool {
        self.state.get_mut().opened().contains(path)
    }

    fn has_children(ws: &Workspace, path: &[Tid]) -> bool {
        match path.last() {
            Some(Tid::B(_)) => true,
            Some(Tid::N(d, n)) => ws
                .docs
                .get(*d as usize)
                .and_then(|e| e.doc().node(NodeId(*n)))
                .is_some_and(|x| !x.children.is_empty() || x.member.is_some() || x.is_pending()),
            _ => false,
        }
    }

    /// Open `path`; a member node's member starts opening in the background.
    fn open_node(&mut self, path: Vec<Tid>, ws: &Workspace) -> Vec<Effect> {
        let mut fx = Vec::new();
        if let Some(Tid::N(d, n)) = path.last()
            && ws.docs.get(*d as usize).and_then(|e| e.doc().node(NodeId(*n))).is_some_and(|x| x.member.is_some())
        {
            fx.push(Effect::OpenMember(*d as usize, NodeId(*n)));
        }
        self.open(path);
        fx
    }

    /// Tree paths after the top document grew: nodes keep their ids, but a children list
    /// that passed [`BUCKET`] entries gains a bucket level, so opened and selected paths
    /// are rebuilt from their last node (and their ancestors opened).
    pub fn remap(&mut self, ws: &Workspace) {
        let remap = |p: &[Tid]| -> Option<Vec<Tid>> {
            let i = p.iter().rposition(|t| matches!(t, Tid::N(..)))?;
            let (d, n) = node_of_path(p)?;
            ws.docs.get(d)?.doc().node(n)?;
            let mut np = path_of(ws, d, n);
            np.extend_from_slice(p.get(i + 1..).unwrap_or(&[]));
            Some(np)
        };
        let tree = self.state.get_mut();
        let opened: Vec<Vec<Tid>> = tree.opened().iter().cloned().collect();
        let mut new_opened = Vec::with_capacity(opened.len());
        for p in &opened {
            if let Some(np) = remap(p) {
                new_opened.push(np);
            }
        }
        if new_opened.iter().any(|np| !tree.opened().contains(np)) {
            tree.close_all();
            for np in new_opened {
                for i in 1..=np.len() {
                    tree.open(np.get(..i).unwrap_or(&[]).to_vec());
                }
            }
        }
        let sel = tree.selected().to_vec();
        if let Some(np) = remap(&sel)
            && np != sel
        {
            for i in 1..np.len() {
                tree.open(np.get(..i).unwrap_or(&[]).to_vec());
            }
            tree.select(np);
        }
    }
}

impl Component for TreePane {
    type Geometry = TreeGeometry;

    fn handle(&mut self, a: Action, ctx: &Ctx<'_>) -> Vec<Effect> {
        let sel = self.state.get_mut().selected().to_vec();
        let page = ctx.area_of(Pane::Tree).map_or(10, |r| r.height.saturating_sub(3)) as isize;
        match a {
            Action::Up => self.step(-1, ctx),
            Action::Down => self.step(1, ctx),
            Action::PageUp => self.step(-page, ctx),
            Action::PageDown => self.step(page, ctx),
            Action::Home => self.step(isize::MIN / 2, ctx),
            Action::End => self.step(isize::MAX / 2, ctx),
            Action::Right => {
                if Self::has_children(ctx.ws, &sel) && !self.is_open(&sel) {
                    self.open_node(sel, ctx.ws)
                } else {
                    self.step(1, ctx)
                }
            }
            Action::Left => {
                if self.is_open(&sel) {
                    self.state.get_mut().close(&sel);
                    Vec::new()
                } else if sel.len() > 1 {
                    self.select_path(sel.get(..sel.len() - 1).unwrap_or(&[]).to_vec())
                } else {
                    Vec::new()
                }
            }
            Action::Activate | Action::Toggle => {
                if self.is_open(&sel) {
                    self.state.get_mut().close(&sel);
                    Vec::new()
                } else if Self::has_children(ctx.ws, &sel) {
                    self.open_node(sel, ctx.ws)
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, ctx: &Ctx<'_>) -> TreeGeometry {
        let items = items(ctx, self.state.borrow().opened());
        let block = ctx.block(Pane::Tree, "Tree".to_string());
        let inner = block.inner(area);
        let hl =
            if ctx.focus == Pane::Tree { ctx.theme.selected } else { Style::new().add_modifier(Modifier::REVERSED) };
        let tree = match Tree::new(&items) {
            Ok(t) => t
                .block(block)
                .highlight_style(hl)
                .node_closed_symbol("▸ ")
                .node_open_symbol("▾ ")
                .node_no_children_symbol("  "),
            Err(_) => return TreeGeometry::default(),
        };
        let mut state = self.state.borrow_mut();
        f.render_stateful_widget(tree, area, &mut *state);
        let rows = (inner.y..inner.bottom())
            .map(|y| state.rendered_at(Position::new(inner.x, y)).map(<[Tid]>::to_vec))
            .collect();
        TreeGeometry { inner, rows }
    }
}

fn label(ctx: &Ctx<'_>, d: usize, doc: &Document, id: NodeId) -> Line<'static> {
    let Some(n) = doc.node(id) else { return Line::from("?") };
    let mut spans = vec![Span::raw(crate::model::sanitize(&n.key).into_owned())];
    let mut extra = String::new();
    if !n.key.starts_with(&n.kind) {
        extra.push_str("  ");
        extra.push_str(&n.kind);
    }
    if !n.summary.is_empty() {
        extra.push_str("  ");
        extra.push_str(&crate::model::sanitize(&n.summary));
    }
    if n.anim.is_some() {
        extra.push_str("  ♪");
    }
    spans.push(Span::styled(extra, ctx.theme.dim));
    if n.member.is_some() {
        let s = match ctx.ws.members.get(&(d, id)) {
            Some(Load::Pending(t)) => format!("  ⧗ opening… {:.1}s", t.elapsed().as_secs_f32()),
            Some(Load::Failed(_)) => "  ✗ failed".to_string(),
            Some(Load::Ready(_)) => String::new(),
            None => "  · not opened".to_string(),
        };
        spans.push(Span::styled(s, ctx.theme.warn));
    }
    Line::from(spans)
}

/// Builds the items of opened paths only.
struct Items<'c, 'a> {
    ctx: &'c Ctx<'a>,
    opened: &'c HashSet<Vec<Tid>>,
}

impl Items<'_, '_> {
    fn node(&self, d: usize, id: NodeId, prefix: &mut Vec<Tid>) -> TreeItem<'static, Tid> {
        let (ctx, theme) = (self.ctx, self.ctx.theme);
        let tid = Tid::N(d as u32, id.0);
        let Some(e) = ctx.ws.docs.get(d) else { return TreeItem::new_leaf(tid, "?") };
        let doc = e.doc();
        let text = label(ctx, d, doc, id);
        let Some(n) = doc.node(id) else { return TreeItem::new_leaf(tid, text) };
        let has_children = !n.children.is_empty() || n.member.is_some() || n.is_pending();
        if !has_children {
            return TreeItem::new_leaf(tid, text);
        }
        prefix.push(tid);
        let open = self.opened.contains(prefix.as_slice());
        let mut kids = Vec::new();
        if open {
            if n.children.len() > BUCKET {
                for (bi, chunk) in n.children.chunks(BUCKET).enumerate() {
                    let start = bi * BUCKET;
                    let btid = Tid::B(start as u32);
                    let kind = chunk.first().and_then(|c| doc.node(*c)).map_or("items", |c| c.kind.as_str());
                    let btext = Line::from(vec![
                        Span::raw(format!("{kind} [{start}..{})", start + chunk.len())),
                        Span::styled(format!("  {} of {}", chunk.len(), n.children.len()), theme.dim),
                    ]);
                    prefix.push(btid);
                    let bopen = self.opened.contains(prefix.as_slice());
                    let bkids: Vec<_> = if bopen {
                        chunk.iter().map(|c| self.node(d, *c, prefix)).collect()
                    } else {
                        vec![TreeItem::new_leaf(Tid::Ph, "…")]
                    };
                    prefix.pop();
                    kids.push(TreeItem::new(btid, btext, bkids).unwrap_or_else(|_| TreeItem::new_leaf(btid, "?")));
                }
            } else {
                kids.extend(n.children.iter().map(|c| self.node(d, *c, prefix)));
            }
            if n.member.is_some() {
                match ctx.ws.members.get(&(d, id)) {
                    Some(Load::Ready(md)) => kids.push(self.node(*md, NodeId::ROOT, prefix)),
                    Some(Load::Pending(t)) => kids.push(TreeItem::new_leaf(
                        Tid::Ph,
                        Line::styled(format!("opening member… {:.1}s", t.elapsed().as_secs_f32()), theme.warn),
                    )),
                    Some(Load::Failed(e)) => {
                        kids.push(TreeItem::new_leaf(Tid::Ph, Line::styled(format!("✗ {e}"), theme.error)))
                    }
                    None => kids.push(TreeItem::new_leaf(Tid::Ph, "…")),
                }
            }
        } else {
            kids.push(TreeItem::new_leaf(Tid::Ph, "…"));
        }
        prefix.pop();
        TreeItem::new(tid, text.clone(), kids).unwrap_or_else(|_| TreeItem::new_leaf(tid, text))
    }
}

/// The items to show: the first document's root, with the `opened` paths expanded.
fn items(ctx: &Ctx<'_>, opened: &HashSet<Vec<Tid>>) -> Vec<TreeItem<'static, Tid>> {
    vec![Items { ctx, opened }.node(0, NodeId::ROOT, &mut Vec::new())]
}
