//! Diff mode (`animscope A --diff B`): the changes between the open file (A) and a second
//! one (B) from [`crate::diff`], marks for the tree, next/previous change, both byte runs
//! of the selected node with the differing bytes highlighted, and B's version of the
//! selected clip for the decode pane to overlay.
//!
//! The list of changes is computed once when the mode starts, on a background job
//! ([`super::jobs::Jobs::diff`], on copies of the documents, so the inspector's own stay as
//! the user left them); until it arrives the status line shows its progress and the rest
//! of the inspector works as usual. B's side of the selection (its node by the same path,
//! opened through members, and its clip) is looked up when the selection changes and kept
//! for the next frames.

use super::jobs::DiffProgress;
use super::theme::Theme;
use super::workspace::Workspace;
use crate::diff::{self, Change, Options, What};
use crate::formats::DecodeOptions;
use crate::model::anim::Clip;
use crate::model::{NodeId, Span};
use crate::session::Opened;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Mark of a node in the tree: changed, only in A (removed in B), has children only in B,
/// or holds a change further down.
pub const MARK_CHANGED: char = '~';
/// Only in A.
pub const MARK_REMOVED: char = '-';
/// Has a child only B has.
pub const MARK_ADDED: char = '+';
/// A change is somewhere below.
pub const MARK_INSIDE: char = '·';

/// B's side of one selected path.
struct BSide {
    path: String,
    node: Option<(Opened, NodeId)>,
    clip: Option<Arc<Clip>>,
}

/// The diff mode's state.
pub struct DiffView {
    /// B's name.
    pub title: String,
    /// Every change, in report order (empty while [`DiffView::computing`]).
    pub changes: Vec<Change>,
    /// Mark of each path that has one.
    pub marks: Arc<HashMap<String, char>>,
    /// The change last jumped to.
    pub current: Option<usize>,
    /// The background comparison still running: its progress.
    pub computing: Option<Arc<DiffProgress>>,
    /// A jump to change `.0` waits for the archive member at (document, node) `.1` to open.
    pub waiting: Option<(usize, (usize, NodeId))>,
    b: Arc<Opened>,
    side: RefCell<Option<BSide>>,
}

impl std::fmt::Debug for DiffView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiffView").field("title", &self.title).field("changes", &self.changes.len()).finish()
    }
}

/// The tree's mark of every path a change touches: the node itself (a node only B has:
/// its parent, `+`) and `·` on the nodes above it.
fn marks_of(changes: &[Change]) -> HashMap<String, char> {
    let mut marks: HashMap<String, char> = HashMap::new();
    for c in changes {
        let (at, mark) = match c.what {
            What::OnlyInA => (c.path.as_str(), MARK_REMOVED),
            What::OnlyInB => (parent_of(&c.path), MARK_ADDED),
            _ => (c.path.as_str(), MARK_CHANGED),
        };
        // a node both changed and gaining children shows as changed
        let e = marks.entry(at.to_string()).or_insert(mark);
        if *e == MARK_INSIDE || (*e == MARK_ADDED && mark == MARK_CHANGED) {
            *e = mark;
        }
        let mut up = at;
        while let Some((p, _)) = up.rsplit_once('/') {
            marks.entry(p.to_string()).or_insert(MARK_INSIDE);
            up = p;
        }
    }
    marks
}

/// The mark of a range row of the tree (children of document `d` grouped 100 at a time,
/// `nodes` the range's): `·` when any of them, or anything below one, has a mark; else none.
pub fn range_mark(marks: &HashMap<String, char>, ws: &Workspace, d: usize, nodes: &[NodeId]) -> Option<char> {
    nodes.iter().any(|id| marks.contains_key(&full_path(ws, d, *id))).then_some(MARK_INSIDE)
}

fn parent_of(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(p, _)| p)
}

impl DiffView {
    /// Diff mode against `b` whose changes are being computed (`progress` counts them).
    pub fn computing(b: Arc<Opened>, progress: Arc<DiffProgress>) -> DiffView {
        let title = b.title();
        DiffView {
            title,
            changes: Vec::new(),
            marks: Arc::new(HashMap::new()),
            current: None,
            computing: Some(progress),
            waiting: None,
            b,
            side: RefCell::new(None),
        }
    }

    /// Compare `a` (the inspector's file) with `b` here and now (tests; the TUI computes in
    /// the background).
    pub fn new(a: &Opened, b: Opened) -> DiffView {
        let (mut ca, mut cb) = (a.clone_document(), b.clone_document());
        let (changes, _) = diff::changes(&mut *ca, &mut *cb, &Options::default());
        let mut view = DiffView::computing(Arc::new(b), Arc::default());
        view.computed(changes);
        view
    }

    /// The comparison finished with `changes`: mark the paths.
    pub fn computed(&mut self, changes: Vec<Change>) {
        self.marks = Arc::new(marks_of(&changes));
        self.changes = changes;
        self.computing = None;
    }

    /// A one-line account of the comparison still running (`None` once it is done).
    pub fn progress_text(&self) -> Option<String> {
        let p = self.computing.as_ref()?;
        let (n, c) = (p.compared.load(Ordering::Relaxed), p.changes.load(Ordering::Relaxed));
        Some(format!("⧗ diff: {n} structures compared, {c} changes so far"))
    }

    /// The path in A to show for change `i` (a node only B has: its parent).
    pub fn target(&self, i: usize) -> Option<&str> {
        let c = self.changes.get(i)?;
        Some(if c.what == What::OnlyInB { parent_of(&c.path) } else { &c.path })
    }

    /// The next (`forward`) or previous change from the current one, wrapping around.
    pub fn step(&mut self, forward: bool) -> Option<usize> {
        let n = self.changes.len();
        if n == 0 {
            return None;
        }
        let i = match (self.current, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
        };
        self.current = Some(i);
        Some(i)
    }

    fn with_side<T>(&self, path: &str, f: impl FnOnce(&BSide) -> T) -> T {
        let mut side = self.side.borrow_mut();
        if side.as_ref().is_none_or(|s| s.path != path) {
            *side = Some(self.lookup(path));
        }
        match side.as_ref() {
            Some(s) => f(s),
            None => f(&BSide { path: path.to_string(), node: None, clip: None }),
        }
    }

    fn lookup(&self, path: &str) -> BSide {
        // Paths are named by A's root; B's file may have another name: below the root
        // they are the same.
        let rest = path.split_once('/').map_or("", |(_, r)| r);
        let limits = *self.b.limits();
        let node = self.b.clone_document().resolve(rest, &limits).ok();
        let node = node.map(|(mut o, id)| {
            o.doc_mut().expand(id);
            (o, id)
        });
        let clip = node.as_ref().and_then(|(o, id)| {
            let anim = o.animation_at(*id)?;
            let opts = DecodeOptions { curves_only: true, ..DecodeOptions::default() };
            o.clips()?.decode(&anim, &opts, &limits).ok().map(Arc::new)
        });
        BSide { path: path.to_string(), node, clip }
    }

    /// B's bytes of the node at `path` (None: B has no such node).
    pub fn b_bytes(&self, path: &str) -> Option<(Span, Vec<u8>)> {
        self.with_side(path, |s| {
            let (o, id) = s.node.as_ref()?;
            let span = o.doc().node(*id)?.span;
            let bytes = o.source().bytes();
            let (start, end) = (usize::try_from(span.start).ok()?, usize::try_from(span.end).ok()?);
            Some((span, bytes.get(start..end.min(bytes.len()))?.to_vec()))
        })
    }

    /// B's version of the clip at `path` (the animation of B's node there).
    pub fn b_clip(&self, path: &str) -> Option<Arc<Clip>> {
        self.with_side(path, |s| s.clip.clone())
    }
}

/// The diff path of (document, node): the document's path below the member node it was
/// opened from (`DATA.BIN/x.cmp/Anime[A]`), as the diff names nodes.
pub fn full_path(ws: &Workspace, d: usize, id: NodeId) -> String {
    let mut path = ws.docs.get(d).map(|e| e.doc().path(id)).unwrap_or_default();
    let mut cur = d;
    for _ in 0..ws.docs.len() {
        let Some((pd, pn)) = ws.docs.get(cur).and_then(|e| e.parent) else { break };
        let above = ws.docs.get(pd).map(|e| e.doc().path(pn)).unwrap_or_default();
        let rest = path.split_once('/').map_or("", |(_, r)| r).to_string();
        path = if rest.is_empty() { above } else { format!("{above}/{rest}") };
        cur = pd;
    }
    path
}

/// The deepest node of the opened documents on the way to `path`, and whether it is the
/// node itself.
pub fn locate(ws: &Workspace, path: &str) -> Option<(usize, NodeId, bool)> {
    let mut best: Option<(usize, NodeId, usize)> = None;
    for (d, e) in ws.docs.iter().enumerate() {
        let base = full_path(ws, d, NodeId::ROOT);
        let Some(rest) = path.strip_prefix(base.as_str()) else { continue };
        if !(rest.is_empty() || rest.starts_with('/')) {
            continue;
        }
        let doc = e.doc();
        let mut cur = NodeId::ROOT;
        let mut depth = base.matches('/').count();
        for seg in rest.split('/').filter(|s| !s.is_empty()) {
            let next = doc
                .node(cur)
                .and_then(|n| n.children.iter().copied().find(|c| doc.node(*c).is_some_and(|k| k.key == seg)));
            match next {
                Some(c) => {
                    cur = c;
                    depth += 1;
                }
                None => break,
            }
        }
        if best.is_none_or(|b| depth > b.2) {
            best = Some((d, cur, depth));
        }
    }
    let (d, n, _) = best?;
    Some((d, n, full_path(ws, d, n) == path))
}

/// Both byte runs of the selected node, 8 bytes a row, A's row then B's, bytes that differ
/// from the other side's at the same distance from the node's start highlighted.
pub fn draw_bytes(f: &mut Frame, area: Rect, theme: &Theme, a: (Span, &[u8]), b: Option<(Span, &[u8])>, title: &str) {
    use ratatui::widgets::Block;
    let block = Block::bordered().border_style(theme.border).title(format!("A / B · {title}"));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height == 0 || inner.width < 20 {
        return;
    }
    let buf = f.buffer_mut();
    let Some((sb, bb)) = b else {
        buf.set_stringn(inner.x, inner.y, "B has no node at this path", inner.width as usize, theme.dim);
        return;
    };
    let (sa, ab) = a;
    let differ = theme.error.add_modifier(Modifier::BOLD | Modifier::REVERSED);
    let per_row = 8usize;
    let rows = ab.len().max(bb.len()).div_ceil(per_row).max(1);
    let mut y = inner.y;
    for r in 0..rows {
        for (label, start, mine, other) in [("A", sa.start, ab, bb), ("B", sb.start, bb, ab)] {
            if y >= inner.bottom() {
                return;
            }
            let head = format!("{label} {:08x} ", start + (r * per_row) as u64);
            buf.set_stringn(inner.x, y, &head, inner.width as usize, theme.dim);
            let mut x = inner.x + head.len() as u16;
            for i in r * per_row..(r + 1) * per_row {
                if x + 3 > inner.right() {
                    break;
                }
                let Some(&v) = mine.get(i) else { break };
                let style = if other.get(i) == Some(&v) { Style::new() } else { differ };
                buf.set_string(x, y, format!("{v:02x}"), style);
                x += 3;
            }
            y += 1;
        }
    }
}
