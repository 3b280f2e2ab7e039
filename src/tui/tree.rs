//! The tree pane: items are built per frame only for opened nodes (closed nodes with
//! children get one placeholder), long runs of same-kind children are grouped in ranges
//! of [`BUCKET`] named by their kind and first and last names (the few other children
//! stay rows of their own, so a `data` node is not hidden behind 900 records), names too
//! wide for the pane are cut in the middle (the end of a name tells siblings apart), a
//! jump puts its target a quarter from the top, and archive members appear inline under
//! their node once opened in the background.

use super::action::Action;
use super::component::{Component, Ctx, Effect, Pane};
use super::workspace::{Load, Workspace};
use crate::model::{Document, NodeId};
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use std::cell::{Cell, Ref, RefCell};
use std::collections::{HashMap, HashSet};
use tui_tree_widget::{Tree, TreeItem, TreeState};
use unicode_width::UnicodeWidthChar;

/// Children lists longer than this are grouped into ranges of this size in the tree.
pub const BUCKET: usize = 100;

/// In a long children list, a kind with at least this many children is bulk: its runs are
/// grouped into ranges; children of rarer kinds keep rows of their own.
const BULK: usize = 16;

/// How one entry of a node's children shows in the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// The child at this index, as its own row.
    One(usize),
    /// The children in `start..end`, as one range row ([`Tid::B`] of `start`).
    Range(usize, usize),
}

/// How the children of `n` are grouped (see the module docs).
pub fn groups(doc: &Document, n: &crate::model::Node) -> Vec<Group> {
    let kids = &n.children;
    if kids.len() <= BUCKET {
        return (0..kids.len()).map(Group::One).collect();
    }
    let kind = |i: usize| kids.get(i).and_then(|c| doc.node(*c)).map_or("", |c| c.kind.as_str());
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for i in 0..kids.len() {
        *counts.entry(kind(i)).or_default() += 1;
    }
    let bulk = |i: usize| counts.get(kind(i)).is_some_and(|c| *c >= BULK);
    let mut out = Vec::new();
    let mut i = 0;
    while i < kids.len() {
        let mut end = i;
        while end < kids.len() && bulk(end) {
            end += 1;
        }
        if end - i >= BULK {
            for start in (i..end).step_by(BUCKET) {
                out.push(Group::Range(start, (start + BUCKET).min(end)));
            }
            i = end;
        } else {
            out.push(Group::One(i));
            i += 1;
        }
    }
    out
}

/// The range row a child at index `i` of `n` is shown in, if any (its start).
fn range_of(doc: &Document, n: &crate::model::Node, i: usize) -> Option<usize> {
    if n.children.len() <= BUCKET {
        return None;
    }
    groups(doc, n).into_iter().find_map(|g| match g {
        Group::Range(s, e) if (s..e).contains(&i) => Some(s),
        _ => None,
    })
}

/// `s` cut to at most `width` columns by replacing its middle with `…` (the start and
/// the end of a name both tell it apart from its siblings).
pub fn middle_truncate(s: &str, width: usize) -> String {
    let w = |c: char| c.width().unwrap_or(0);
    let total: usize = s.chars().map(w).sum();
    if total <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let head_w = (width - 1) / 2;
    let tail_w = width - 1 - head_w;
    let mut head = String::new();
    let mut used = 0;
    for c in s.chars() {
        if used + w(c) > head_w {
            break;
        }
        used += w(c);
        head.push(c);
    }
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in s.chars().rev() {
        if used + w(c) > tail_w {
            break;
        }
        used += w(c);
        tail.push(c);
    }
    tail.reverse();
    format!("{head}…{}", tail.into_iter().collect::<String>())
}

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
    /// The selection jumped (goto, find, a hex move into another node): the next draw
    /// puts it a quarter from the top when it is out of view.
    jumped: Cell<bool>,
    /// The selected node was just expanded: the next draw scrolls its children into view.
    expanded: Cell<bool>,
    /// Diff mode: the mark of each path that changed (`~`, `-`, `+`, `·` above a change).
    pub diff_marks: Option<std::sync::Arc<HashMap<String, char>>>,
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
                    if let Some(start) = range_of(doc, p, i) {
                        chain.push(Tid::B(u32_of(start)));
                    }
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
        if state.selected() != path.as_slice() {
            self.jumped.set(true);
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
        let items = items(ctx, state.opened(), self.diff_marks.as_deref());
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
        self.expanded.set(true);
        fx
    }

    /// Tree paths after document `d` was parsed again (edited): the nodes of `d` that
    /// opened or selected paths end at are found by `map` (old id to new), their paths
    /// rebuilt; a path whose node is gone is closed.
    pub fn remap_doc(&mut self, ws: &Workspace, d: usize, map: &dyn Fn(NodeId) -> Option<NodeId>) {
        let remap = |p: &[Tid]| -> Option<Vec<Tid>> {
            let i = p.iter().rposition(|t| matches!(t, Tid::N(..)))?;
            let (pd, n) = node_of_path(p)?;
            if pd != d {
                return Some(p.to_vec());
            }
            let n = map(n)?;
            let mut np = path_of(ws, d, n);
            np.extend_from_slice(p.get(i + 1..).unwrap_or(&[]));
            Some(np)
        };
        let tree = self.state.get_mut();
        let opened: Vec<Vec<Tid>> = tree.opened().iter().cloned().collect();
        let new_opened: Vec<Vec<Tid>> = opened.iter().filter_map(|p| remap(p)).collect();
        tree.close_all();
        for np in new_opened {
            tree.open(np);
        }
        let sel = tree.selected().to_vec();
        if let Some(np) = remap(&sel) {
            tree.select(np);
        }
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
        let items = items(ctx, self.state.borrow().opened(), self.diff_marks.as_deref());
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
        let before = state.get_offset();
        f.render_stateful_widget(tree.clone(), area, &mut *state);
        if let Some(target) = self.settle(&state, &items, before, usize::from(inner.height)) {
            state.scroll_up(usize::MAX);
            state.scroll_down(target);
            f.render_stateful_widget(tree, area, &mut *state);
        }
        let rows = (inner.y..inner.bottom())
            .map(|y| state.rendered_at(Position::new(inner.x, y)).map(<[Tid]>::to_vec))
            .collect();
        TreeGeometry { inner, rows }
    }
}

impl TreePane {
    /// After a jump or an expansion, the scroll offset the tree should have instead of
    /// the one the widget settled on (None: keep it). `before` is the offset before this
    /// draw, `height` the rows shown.
    fn settle(
        &self,
        state: &TreeState<Tid>,
        items: &[TreeItem<'static, Tid>],
        before: usize,
        height: usize,
    ) -> Option<usize> {
        let (jumped, expanded) = (self.jumped.replace(false), self.expanded.replace(false));
        if !(jumped || expanded) || height == 0 {
            return None;
        }
        let visible = state.flatten(items);
        let sel = state.selected();
        let idx = visible.iter().position(|f| f.identifier == sel)?;
        let last_top = visible.len().saturating_sub(height);
        let now = state.get_offset();
        let target = if jumped && !(before..before + height).contains(&idx) {
            idx.saturating_sub(height / 4).min(last_top)
        } else if expanded {
            // the expanded node's rows (as many as fit with the node itself on screen)
            let kids = visible.iter().skip(idx + 1).take_while(|f| f.identifier.starts_with(sel)).count();
            let want_bottom = idx + kids.min(height.saturating_sub(1));
            now.max((want_bottom + 1).saturating_sub(height)).min(idx)
        } else {
            return None;
        };
        (target != now).then_some(target)
    }
}

/// The `PREFIX` of a key `PREFIX[NAME]` whose name is not a number (`seq[A_WALK_L_02]`,
/// `Texture[TEX_stripes]`; not `item[203]` or `Top[-1]`, where the prefix is the name).
fn named_prefix(key: &str) -> Option<&str> {
    let (prefix, rest) = key.split_once('[')?;
    let body = rest.strip_suffix(']')?;
    let plain = !prefix.is_empty() && !body.is_empty() && !body.contains(['[', ']']);
    (plain && body.parse::<i64>().is_err()).then_some(prefix)
}

/// Whether `text` (a parent's or a range row's) says `kind`: it holds the kind's first word
/// as a word of its own, ignoring case (`sequence data` says `sequence alias`).
fn says_kind(text: &str, kind: &str) -> bool {
    let Some(first) = kind.split_whitespace().next() else { return false };
    text.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w.eq_ignore_ascii_case(first))
}

/// What the row above a list of children says about their kinds, when it is enough for
/// them to show their bare names: the text naming the kinds (the parent's kind and key, or
/// a range row's kinds), if every `PREFIX[NAME]` child of the list has the same prefix
/// (bare names cannot be confused with another kind's) and a kind that text says.
fn kinds_said(doc: &Document, kids: &[NodeId], text: String) -> Option<String> {
    let mut prefix: Option<&str> = None;
    let mut any = false;
    for c in kids {
        let Some(n) = doc.node(*c) else { continue };
        let Some(p) = named_prefix(&n.key) else { continue };
        if prefix.is_some_and(|q| q != p) || !says_kind(&text, &n.kind) {
            return None;
        }
        prefix = Some(p);
        any = true;
    }
    any.then_some(text)
}

/// A node's row: its name (cut in the middle only when it does not fit), then, dimmed,
/// its kind unless the row above says it (`said`, see [`kinds_said`]), its summary and
/// marks. Under such a row a `PREFIX[NAME]` key shows as `NAME`; the node's address (the
/// path `g`, the CLI and bookmarks use) keeps the whole key.
fn label(ctx: &Ctx<'_>, d: usize, doc: &Document, id: NodeId, width: usize, said: Option<&str>) -> Line<'static> {
    let Some(n) = doc.node(id) else { return Line::from("?") };
    let bare = said.is_some() && named_prefix(&n.key).is_some();
    let shown = if bare { super::find::name_of(&n.key) } else { n.key.as_str() };
    let key = crate::model::sanitize(shown);
    if Span::raw(key.as_ref()).width() > width {
        // the whole name first: nothing else fits beside it
        return Line::from(middle_truncate(&key, width));
    }
    let mut spans = vec![Span::raw(key.into_owned())];
    let mut extra = String::new();
    let kind_said = said.is_some_and(|t| t.to_lowercase().contains(n.kind.to_lowercase().as_str()));
    if !kind_said && !shown.starts_with(n.kind.as_str()) {
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
    /// Diff mode: the mark of each changed path.
    marks: Option<&'c HashMap<String, char>>,
    /// Columns inside the pane's border.
    width: usize,
}

impl Items<'_, '_> {
    /// Columns left for a label at tree depth `depth` (the widget indents two columns per
    /// level and draws a two-column open/closed symbol).
    fn room(&self, depth: usize) -> usize {
        self.width.saturating_sub(2 * depth + 2).max(4)
    }

    /// The row of a range of children and the kinds it names: their kind(s), span of
    /// indexes and first and last names, e.g. `sequence [0..100)  AKI_AKI_YS00_R_ST …
    /// A_WALK_L_02  100 of 1463`. What does not fit goes, least useful first: the count,
    /// the span of indexes, the kind (the names are what tells ranges apart; the parent
    /// and a selected child's status line still say the kind); only then are the names
    /// cut in the middle, the kind back when that leaves them 6 columns each.
    fn range_label(
        &self,
        doc: &Document,
        kids: &[NodeId],
        start: usize,
        total: usize,
        depth: usize,
    ) -> (Line<'static>, String) {
        let mut kinds: Vec<&str> = Vec::new();
        for c in kids {
            let k = doc.node(*c).map_or("", |c| c.kind.as_str());
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        let kind = match kinds.as_slice() {
            [] => "items".to_string(),
            [one] => (*one).to_string(),
            [a, b] => format!("{a}, {b}"),
            [a, ..] => format!("{a}, …"),
        };
        let name = |c: Option<&NodeId>| {
            c.and_then(|c| doc.node(*c))
                .map(|n| crate::model::sanitize(super::find::name_of(&n.key)).into_owned())
                .unwrap_or_default()
        };
        let (first, last) = (name(kids.first()), name(kids.last()));
        let cols = |s: &str| Span::raw(s).width();
        let span = format!("[{start}..{})", start + kids.len());
        let count = format!("  {} of {total}", kids.len());
        let names_w = if kids.len() > 1 { cols(&first) + 3 + cols(&last) } else { cols(&first) };
        let room = self.room(depth);
        // the names cut to `w` columns in all, each to half
        let names_in = |w: usize| {
            if w >= names_w && kids.len() > 1 {
                format!("{first} … {last}")
            } else if kids.len() > 1 {
                let half = w.saturating_sub(3) / 2;
                format!("{} … {}", middle_truncate(&first, half), middle_truncate(&last, half))
            } else {
                middle_truncate(&first, w)
            }
        };
        let dim = self.ctx.theme.dim;
        let head_full = format!("{kind} {span}");
        let numbered = first.parse::<i64>().is_ok() && last.parse::<i64>().is_ok();
        let (head, names, tail) = if numbered {
            // `item[0]`...: the span of indexes says what the names would
            let tail = if cols(&head_full) + cols(&count) <= room { count } else { String::new() };
            (head_full, String::new(), tail)
        } else if cols(&head_full) + 2 + names_w + cols(&count) <= room {
            (head_full, names_in(names_w), count)
        } else if cols(&head_full) + 2 + names_w <= room {
            (head_full, names_in(names_w), String::new())
        } else if cols(&kind) + 2 + names_w <= room {
            (kind.clone(), names_in(names_w), String::new())
        } else if names_w <= room {
            (String::new(), names_in(names_w), String::new())
        } else if cols(&kind) + 2 + 15 <= room {
            (kind.clone(), names_in(room - cols(&kind) - 2), String::new())
        } else {
            (String::new(), names_in(room), String::new())
        };
        let mut spans = Vec::new();
        if !head.is_empty() {
            spans.push(Span::raw(head));
            if !names.is_empty() {
                spans.push(Span::styled(format!("  {names}"), dim));
            }
        } else {
            spans.push(Span::raw(names));
        }
        if !tail.is_empty() {
            spans.push(Span::styled(tail, dim));
        }
        (Line::from(spans), kinds.join(", "))
    }
}

impl Items<'_, '_> {
    /// The item of node `id` and, if open, its children. `said`: what the row above says
    /// about this node's kind ([`kinds_said`]).
    fn node(&self, d: usize, id: NodeId, prefix: &mut Vec<Tid>, said: Option<&str>) -> TreeItem<'static, Tid> {
        let (ctx, theme) = (self.ctx, self.ctx.theme);
        let tid = Tid::N(d as u32, id.0);
        let Some(e) = ctx.ws.docs.get(d) else { return TreeItem::new_leaf(tid, "?") };
        let doc = e.doc();
        let mut text = label(ctx, d, doc, id, self.room(prefix.len()), said);
        if let Some(m) = self.marks.and_then(|m| m.get(&super::diffview::full_path(ctx.ws, d, id))) {
            let style = if *m == super::diffview::MARK_INSIDE { theme.dim } else { theme.warn };
            text.spans.insert(0, Span::styled(format!("{m} "), style));
        }
        let Some(n) = doc.node(id) else { return TreeItem::new_leaf(tid, text) };
        let has_children = !n.children.is_empty() || n.member.is_some() || n.is_pending();
        if !has_children {
            return TreeItem::new_leaf(tid, text);
        }
        prefix.push(tid);
        let open = self.opened.contains(prefix.as_slice());
        let mut kids = Vec::new();
        if open {
            let parent_said = kinds_said(doc, &n.children, format!("{} {}", n.kind, n.key));
            for g in groups(doc, n) {
                let (start, end) = match g {
                    Group::One(i) => {
                        if let Some(c) = n.children.get(i) {
                            kids.push(self.node(d, *c, prefix, parent_said.as_deref()));
                        }
                        continue;
                    }
                    Group::Range(s, e) => (s, e),
                };
                {
                    let chunk = n.children.get(start..end).unwrap_or(&[]);
                    let btid = Tid::B(start as u32);
                    let (mut btext, kinds) = self.range_label(doc, chunk, start, n.children.len(), prefix.len());
                    let range_said = kinds_said(doc, chunk, kinds);
                    // a range holding a changed node is marked as a node holding one is
                    if let Some(m) = self.marks.and_then(|m| super::diffview::range_mark(m, ctx.ws, d, chunk)) {
                        btext.spans.insert(0, Span::styled(format!("{m} "), theme.dim));
                    }
                    prefix.push(btid);
                    let bopen = self.opened.contains(prefix.as_slice());
                    let bkids: Vec<_> = if bopen {
                        chunk.iter().map(|c| self.node(d, *c, prefix, range_said.as_deref())).collect()
                    } else {
                        vec![TreeItem::new_leaf(Tid::Ph, "…")]
                    };
                    prefix.pop();
                    kids.push(TreeItem::new(btid, btext, bkids).unwrap_or_else(|_| TreeItem::new_leaf(btid, "?")));
                }
            }
            if n.member.is_some() {
                match ctx.ws.members.get(&(d, id)) {
                    Some(Load::Ready(md)) => kids.push(self.node(*md, NodeId::ROOT, prefix, None)),
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
fn items(
    ctx: &Ctx<'_>,
    opened: &HashSet<Vec<Tid>>,
    marks: Option<&HashMap<String, char>>,
) -> Vec<TreeItem<'static, Tid>> {
    let width = ctx.area_of(Pane::Tree).map_or(80, |r| usize::from(r.width.saturating_sub(2)));
    vec![Items { ctx, opened, marks, width }.node(0, NodeId::ROOT, &mut Vec::new(), None)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cut_in_the_middle() {
        assert_eq!(middle_truncate("seq[AKI_AKI_YS00_R_ST]", 12), "seq[A…_R_ST]");
        assert_eq!(middle_truncate("seq[AKI_AKI_YS00_L_ST]", 12), "seq[A…_L_ST]");
        assert_eq!(middle_truncate("short", 12), "short");
        assert_eq!(middle_truncate("abcdef", 1), "…");
        assert_eq!(middle_truncate("abcdef", 0), "");
    }

    #[test]
    fn only_named_keys_lose_a_prefix_the_row_above_says() {
        assert_eq!(named_prefix("seq[A_WALK_L_02]"), Some("seq"));
        assert_eq!(named_prefix("Texture[TEX_stripes]"), Some("Texture"));
        // an index is the name: kept
        assert_eq!(named_prefix("item[203]"), None);
        assert_eq!(named_prefix("Top[-1]"), None);
        assert_eq!(named_prefix("padding@0x14"), None);
        assert_eq!(named_prefix("[x]"), None);
        assert!(says_kind("sequence data data", "sequence alias"));
        assert!(says_kind("Texture", "Texture"));
        assert!(!says_kind("CCSF many.cmp", "Texture"));
        // a word, not a part of one
        assert!(!says_kind("Objects", "Obj"));
    }

    #[test]
    fn rare_children_keep_their_rows_beside_ranges_of_bulk_ones() {
        use crate::model::Span;
        let mut d = Document::new("raw", "m", "file", 0x10000, &crate::limits::Limits::default());
        d.add_node(NodeId::ROOT, "header", "file header", Span::new(0, 4));
        for i in 0..250u64 {
            d.add_node(NodeId::ROOT, format!("extra@{i}"), "extra-data record", Span::at(16 + i, 1));
        }
        d.add_node(NodeId::ROOT, "names", "name strings", Span::at(300, 4));
        d.add_node(NodeId::ROOT, "data", "sequence data", Span::at(400, 4));
        let g = groups(&d, d.root());
        assert_eq!(
            g,
            [
                Group::One(0),
                Group::Range(1, 101),
                Group::Range(101, 201),
                Group::Range(201, 251),
                Group::One(251),
                Group::One(252)
            ]
        );
    }
}
