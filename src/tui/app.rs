//! The inspector's state and what every [`Action`] does to it. Rendering lives in the
//! view modules; this module never touches the terminal, so tests drive it with key
//! events and a `TestBackend`.

use super::action::Action;
use super::jobs::Jobs;
use super::keymap::{Chord, Keymap, Lookup};
use super::theme::Theme;
use super::workspace::Workspace;
use super::{bookmarks, clipboard, export, search};
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::{NodeId, Span};
use crate::session::Opened;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tui_tree_widget::TreeState;

pub use super::jobs::{LISTING_STEP, WORKER};
pub use super::workspace::{DocEntry, Load};

/// Children lists longer than this are grouped into ranges of this size in the tree.
pub const BUCKET: usize = 100;

/// Longest the UI thread spends applying listing steps between two frames.
const LISTING_APPLY_BUDGET: Duration = Duration::from_millis(8);

/// Inputs at most this large have their bookmarks loaded at once; larger ones are hashed
/// on a background thread (hashing reads up to 32 MiB).
const BOOKMARKS_SYNC_MAX: u64 = 4 << 20;

/// A pane of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    /// The document tree.
    Tree,
    /// Field-annotated hex.
    Hex,
    /// The selected node's fields.
    Fields,
    /// Plots of the selected clip's channels.
    Decode,
    /// The walk trace.
    Walk,
    /// Diagnostics and bookmarks.
    Diagnostics,
}

impl Pane {
    /// Focus order.
    pub const ALL: [Pane; 6] = [Pane::Tree, Pane::Hex, Pane::Fields, Pane::Decode, Pane::Walk, Pane::Diagnostics];

    /// Title word.
    pub fn name(self) -> &'static str {
        match self {
            Pane::Tree => "Tree",
            Pane::Hex => "Hex",
            Pane::Fields => "Fields",
            Pane::Decode => "Decode",
            Pane::Walk => "Walk",
            Pane::Diagnostics => "Diagnostics",
        }
    }
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

/// A one-line input at the bottom of the screen.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptKind {
    /// Offset or node path.
    Goto,
    /// Hex bytes or text.
    Search,
    /// Path for the clip export.
    ExportPath,
    /// Overwrite this file? (y/n)
    ConfirmOverwrite(PathBuf),
}

/// An open prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    /// What it asks for.
    pub kind: PromptKind,
    /// Text typed so far.
    pub input: String,
}

/// How a status message is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Plain information.
    Info,
    /// Something did not work.
    Error,
}

/// Decode pane state.
#[derive(Debug, Default)]
pub struct DecodeView {
    /// The clip shown: (document, node carrying `anim`).
    pub shown: Option<(usize, NodeId)>,
    /// Channel under the cursor.
    pub chan: usize,
    /// Channels drawn.
    pub enabled: Vec<bool>,
    /// Frame cursor.
    pub frame: usize,
    /// First channel row shown.
    pub chan_top: usize,
    /// Plot each channel scaled to its own range instead of one shared range.
    pub normalize: bool,
    /// Show the clip's stored tables instead of the plot.
    pub tables: bool,
}

/// Options for [`App::new`].
#[derive(Debug, Clone)]
pub struct Config {
    /// Active keymap.
    pub keymap: Keymap,
    /// Styles.
    pub theme: Theme,
    /// Where bookmarks are kept (`None`: bookmarks are not saved).
    pub state_dir: Option<PathBuf>,
    /// Messages to show at start (keymap problems).
    pub messages: Vec<String>,
    /// Bytes probed per background listing step of an archive opened with a partial
    /// listing ([`LISTING_STEP`]).
    pub listing_step: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            keymap: Keymap::shipped("default").unwrap_or_default(),
            theme: Theme::colour(),
            state_dir: None,
            messages: Vec::new(),
            listing_step: LISTING_STEP,
        }
    }
}

/// The whole inspector state.
pub struct App {
    /// The opened documents and their loads.
    pub workspace: Workspace,
    /// Background work.
    jobs: Jobs,
    /// Tree widget state.
    pub tree: TreeState<Tid>,
    /// Selected (document, node).
    pub sel: (usize, NodeId),
    /// Selected field (node, index) in the selected document.
    pub field_sel: Option<(NodeId, usize)>,
    /// Focused pane.
    pub focus: Pane,
    /// Which of fields/decode/walk/diagnostics the small layouts show.
    pub lower: Pane,
    /// Focused pane shown alone.
    pub zoom: bool,
    /// Help overlay open, and its scroll.
    pub help: Option<usize>,
    /// Open prompt.
    pub prompt: Option<Prompt>,
    /// Status message.
    pub message: Option<(Level, String)>,
    /// Keys of an unfinished sequence.
    pub pending: Vec<Chord>,
    /// Active keymap.
    pub keymap: Keymap,
    /// Styles.
    pub theme: Theme,
    /// Collapse runs of zero rows in hex.
    pub collapse_zeros: bool,
    /// Inspector shows big endian first.
    pub big_endian: bool,
    /// Walk mode (walk highlight shown in hex).
    pub walk_mode: bool,
    /// Last search: needle and whether it was text.
    pub search: Option<search::Needle>,
    /// Last match (document, span).
    pub matched: Option<(usize, Span)>,
    /// Decode pane state.
    pub decode: DecodeView,
    /// Diagnostics pane cursor.
    pub diag_cursor: usize,
    /// Bookmarks of this input.
    pub bookmarks: bookmarks::Store,
    /// OSC 52 sequences waiting to be written to the terminal.
    pub osc: Vec<String>,
    /// Mouse capture wanted.
    pub mouse: bool,
    /// Set by `quit`.
    pub quit: bool,
    /// Pane rectangles from the last render (for mouse and paging).
    pub rects: Vec<(Pane, Rect)>,
    /// Hex bytes per row and visible rows at the last render.
    pub hex_geom: (u64, u64),
    /// Plotted channels (braille dot bits per cell), so scrubbing does not re-plot.
    pub plot_cache: HashMap<super::decode::PlotKey, Arc<Vec<Vec<u8>>>>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").field("docs", &self.workspace.docs.len()).field("sel", &self.sel).finish()
    }
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl App {
    /// A new inspector on `opened`.
    pub fn new(opened: Opened, cfg: Config) -> App {
        let opened = Arc::new(opened);
        let big = opened.source.len() > BOOKMARKS_SYNC_MAX;
        let bookmarks = if big {
            bookmarks::Store::default()
        } else {
            bookmarks::Store::load(cfg.state_dir.as_deref(), opened.source.bytes())
        };
        let mut app = App {
            workspace: Workspace::new(opened),
            jobs: Jobs::new(Limits::default()),
            tree: TreeState::default(),
            sel: (0, NodeId::ROOT),
            field_sel: None,
            focus: Pane::Tree,
            lower: Pane::Fields,
            zoom: false,
            help: None,
            prompt: None,
            message: None,
            pending: Vec::new(),
            keymap: cfg.keymap,
            theme: cfg.theme,
            collapse_zeros: false,
            big_endian: false,
            walk_mode: false,
            search: None,
            matched: None,
            decode: DecodeView::default(),
            diag_cursor: 0,
            bookmarks,
            osc: Vec::new(),
            mouse: false,
            quit: false,
            rects: Vec::new(),
            hex_geom: (16, 16),
            plot_cache: HashMap::new(),
        };
        app.tree.open(vec![Tid::N(0, 0)]);
        app.select_node(0, NodeId::ROOT, false);
        if big
            && let Some(dir) = cfg.state_dir
            && let Some(e) = app.workspace.docs.first()
        {
            app.jobs.hash_bookmarks(Arc::clone(&e.opened.source), dir);
        }
        if app.workspace.listing.is_some() {
            app.start_listing(cfg.listing_step);
        }
        if let Some(m) = cfg.messages.into_iter().next() {
            app.message = Some((Level::Error, m));
        }
        app
    }

    // ---------------------------------------------------------------- accessors

    /// The selected document entry.
    pub fn cur(&self) -> &DocEntry {
        self.workspace.entry(self.sel.0)
    }

    fn cur_mut(&mut self) -> &mut DocEntry {
        self.workspace.entry_mut(self.sel.0)
    }

    /// The bytes of document `d`, unless they come from a file that changed on disk.
    pub fn bytes(&self, d: usize) -> Option<&[u8]> {
        self.workspace.bytes(d)
    }

    /// Background jobs still running.
    pub fn busy(&self) -> bool {
        self.jobs.working() || self.workspace.listing.is_some()
    }

    /// Background jobs other than the member listing still running.
    pub fn working(&self) -> bool {
        self.jobs.working()
    }

    /// The node carrying the animation for the selection: the selected node or its
    /// nearest ancestor with an `anim` key.
    pub fn anim_node(&self) -> Option<NodeId> {
        self.workspace.anim_node(self.sel)
    }

    /// The clip for the selection, if decoded.
    pub fn clip(&self) -> Option<&Load<Arc<Clip>>> {
        self.workspace.clip(self.sel)
    }

    // ---------------------------------------------------------------- background work

    /// Take finished background results; returns true when anything changed.
    /// Listing steps that arrived are applied for at most a few milliseconds per call, so
    /// keys are handled between steps.
    pub fn poll_jobs(&mut self) -> bool {
        let mut changed = false;
        while let Some(d) = self.jobs.try_next() {
            self.finish(d);
            changed = true;
        }
        if self.workspace.listing_queued() {
            self.apply_listing_steps(Instant::now() + LISTING_APPLY_BUDGET);
            changed = true;
        }
        changed
    }

    /// Block until every background job has finished, including the member listing
    /// (tests, benches).
    pub fn wait_idle(&mut self) {
        while self.jobs.working() || self.workspace.listing.is_some() {
            if self.workspace.listing_queued() {
                self.apply_listing_steps(Instant::now() + Duration::from_secs(3600));
                continue;
            }
            match self.jobs.next_within(Duration::from_secs(30)) {
                Some(d) => self.finish(d),
                None => break,
            }
        }
    }

    /// Take one listing step from the background and apply it (tests: the listing grows
    /// one step at a time). Returns false when the listing is complete.
    pub fn pump_listing_step(&mut self) -> bool {
        while self.workspace.listing.is_some() && !self.workspace.listing_queued() {
            match self.jobs.next_within(Duration::from_secs(30)) {
                Some(d) => self.finish(d),
                None => return false,
            }
        }
        if !self.workspace.listing_queued() {
            return false;
        }
        // a deadline in the past: exactly one step
        self.apply_listing_steps(Instant::now());
        self.workspace.listing.is_some()
    }

    fn start_listing(&mut self, step: u64) {
        let Some(prober) = self.workspace.docs.first().and_then(|e| e.opened.listing_prober(step)) else {
            self.workspace.listing = None;
            return;
        };
        if let Err(e) = self.jobs.list(prober) {
            self.workspace.listing = None;
            self.message = Some((Level::Error, e));
        }
    }

    /// Apply queued listing steps to the top document until `deadline` (at least one); the
    /// tree follows.
    fn apply_listing_steps(&mut self, deadline: Instant) {
        let Some(sel_unlisted) = self.workspace.apply_listing_steps(deadline, self.sel) else { return };
        self.remap_tree();
        if sel_unlisted {
            // The placeholder was selected; its id is gone. Select what now covers the
            // cursor: a member listed there, or the new placeholder.
            let node = self.workspace.docs.first().and_then(|e| e.doc().node_at(e.cursor)).unwrap_or(NodeId::ROOT);
            self.select_node(0, node, true);
        }
    }

    /// Tree paths after the top document grew: nodes keep their ids, but a children list
    /// that passed [`BUCKET`] entries gains a bucket level, so opened and selected paths
    /// are rebuilt from their last node (and their ancestors opened).
    fn remap_tree(&mut self) {
        let remap = |app: &App, p: &[Tid]| -> Option<Vec<Tid>> {
            let i = p.iter().rposition(|t| matches!(t, Tid::N(..)))?;
            let (d, n) = App::node_of_path(p)?;
            app.workspace.docs.get(d)?.doc().node(n)?;
            let mut np = app.tree_path(d, n);
            np.extend_from_slice(p.get(i + 1..).unwrap_or(&[]));
            Some(np)
        };
        let opened: Vec<Vec<Tid>> = self.tree.opened().iter().cloned().collect();
        let mut new_opened = Vec::with_capacity(opened.len());
        for p in &opened {
            if let Some(np) = remap(self, p) {
                new_opened.push(np);
            }
        }
        if new_opened.iter().any(|np| !self.tree.opened().contains(np)) {
            self.tree.close_all();
            for np in new_opened {
                for i in 1..=np.len() {
                    self.tree.open(np.get(..i).unwrap_or(&[]).to_vec());
                }
            }
        }
        let sel = self.tree.selected().to_vec();
        if let Some(np) = remap(self, &sel)
            && np != sel
        {
            for i in 1..np.len() {
                self.tree.open(np.get(..i).unwrap_or(&[]).to_vec());
            }
            self.tree.select(np);
        }
    }

    fn finish(&mut self, d: super::jobs::Done) {
        let done = self.workspace.finish(d);
        if let Some(e) = done.error {
            self.message = Some((Level::Error, e));
        }
        if let Some(store) = done.bookmarks
            && let Err(e) = self.bookmarks.merge_loaded(store)
        {
            self.message = Some((Level::Error, format!("saving bookmarks failed: {e}")));
        }
    }

    fn start_member(&mut self, d: usize, n: NodeId) {
        self.workspace.start_member(&mut self.jobs, d, n);
    }

    fn start_clip(&mut self, d: usize, n: NodeId) {
        self.workspace.start_clip(&mut self.jobs, d, n);
    }

    /// Note a file changed underneath (called before touching its bytes after events).
    pub fn check_source(&mut self) {
        if let Some(m) = self.workspace.check_source() {
            self.message = Some((Level::Error, m));
        }
    }

    // ---------------------------------------------------------------- tree

    /// Tree path of (document, node), through members and buckets.
    pub fn tree_path(&self, d: usize, n: NodeId) -> Vec<Tid> {
        let mut out = Vec::new();
        let (mut d, mut n) = (d, n);
        for _ in 0..64 {
            let Some(e) = self.workspace.docs.get(d) else { break };
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

    /// Select a node: tree follows (ancestors opened), hex cursor moves into its span
    /// unless `keep_cursor` and the cursor is already inside.
    pub fn select_node(&mut self, d: usize, n: NodeId, keep_cursor: bool) {
        let path = self.tree_path(d, n);
        for i in 1..path.len() {
            self.tree.open(path.get(..i).unwrap_or(&[]).to_vec());
        }
        self.tree.select(path);
        self.sel = (d, n);
        let span = self.workspace.docs.get(d).and_then(|e| e.doc().node(n)).map(|x| x.span).unwrap_or_default();
        let cur = self.cur().cursor;
        if !(keep_cursor && (span.contains(cur) || span.is_empty())) {
            self.cur_mut().cursor = span.start.min(self.cur().doc().len.saturating_sub(1));
        }
        self.refresh_field();
        self.on_selection();
    }

    fn refresh_field(&mut self) {
        let e = self.cur();
        self.field_sel = e.doc().field_at(e.cursor);
    }

    /// After the selection changed: start decoding its clip, reset the decode view.
    fn on_selection(&mut self) {
        if let Some(n) = self.anim_node() {
            let key = (self.sel.0, n);
            self.start_clip(key.0, key.1);
            if self.decode.shown != Some(key) {
                let (normalize, tables) = (self.decode.normalize, self.decode.tables);
                self.decode = DecodeView { shown: Some(key), normalize, tables, ..DecodeView::default() };
            }
        }
    }

    /// Selection follows the hex cursor: innermost field and node under it.
    fn follow_cursor(&mut self) {
        let (d, off) = (self.sel.0, self.cur().cursor);
        let node = self.cur().doc().node_at(off).unwrap_or(NodeId::ROOT);
        self.select_node(d, node, true);
    }

    fn tree_visible(&self) -> Vec<Vec<Tid>> {
        let items = super::tree::items(self);
        self.tree.flatten(&items).into_iter().map(|f| f.identifier).collect()
    }

    fn tree_move(&mut self, delta: isize) {
        let vis = self.tree_visible();
        if vis.is_empty() {
            return;
        }
        let cur = vis.iter().position(|p| p.as_slice() == self.tree.selected()).unwrap_or(0);
        let next = cur.saturating_add_signed(delta).min(vis.len() - 1);
        if let Some(p) = vis.get(next).cloned() {
            self.tree_select_path(p);
        }
    }

    fn tree_select_path(&mut self, p: Vec<Tid>) {
        if let Some((d, n)) = App::node_of_path(&p) {
            self.tree.select(p);
            self.sel = (d, n);
            let span = self.workspace.docs.get(d).and_then(|e| e.doc().node(n)).map(|x| x.span).unwrap_or_default();
            if !span.contains(self.cur().cursor) {
                self.cur_mut().cursor = span.start;
            }
            self.refresh_field();
            self.on_selection();
        }
    }

    fn tree_has_children(&self, path: &[Tid]) -> bool {
        match path.last() {
            Some(Tid::B(_)) => true,
            Some(Tid::N(d, n)) => self
                .workspace
                .docs
                .get(*d as usize)
                .and_then(|e| e.doc().node(NodeId(*n)))
                .is_some_and(|x| !x.children.is_empty() || x.member.is_some()),
            _ => false,
        }
    }

    fn tree_open(&mut self, path: Vec<Tid>) {
        if let Some(Tid::N(d, n)) = path.last()
            && self
                .workspace
                .docs
                .get(*d as usize)
                .and_then(|e| e.doc().node(NodeId(*n)))
                .is_some_and(|x| x.member.is_some())
        {
            self.start_member(*d as usize, NodeId(*n));
        }
        self.tree.open(path);
    }

    fn tree_action(&mut self, a: Action) {
        let sel = self.tree.selected().to_vec();
        let page = self.rects.iter().find(|r| r.0 == Pane::Tree).map_or(10, |r| r.1.height.saturating_sub(3)) as isize;
        match a {
            Action::Up => self.tree_move(-1),
            Action::Down => self.tree_move(1),
            Action::PageUp => self.tree_move(-page),
            Action::PageDown => self.tree_move(page),
            Action::Home => self.tree_move(isize::MIN / 2),
            Action::End => self.tree_move(isize::MAX / 2),
            Action::Right => {
                if self.tree_has_children(&sel) && !self.tree.opened().contains(&sel) {
                    self.tree_open(sel);
                } else {
                    self.tree_move(1);
                }
            }
            Action::Left => {
                if self.tree.opened().contains(&sel) {
                    self.tree.close(&sel);
                } else if sel.len() > 1 {
                    self.tree_select_path(sel.get(..sel.len() - 1).unwrap_or(&[]).to_vec());
                }
            }
            Action::Activate | Action::Toggle => {
                if self.tree.opened().contains(&sel) {
                    self.tree.close(&sel);
                } else if self.tree_has_children(&sel) {
                    self.tree_open(sel);
                }
            }
            _ => {}
        }
    }

    // ---------------------------------------------------------------- hex

    /// Move the hex cursor to `off` in the selected document; selection follows.
    pub fn set_cursor(&mut self, off: u64) {
        let len = self.cur().doc().len;
        self.cur_mut().cursor = off.min(len.saturating_sub(1));
        self.follow_cursor();
    }

    fn hex_action(&mut self, a: Action) {
        let (bpr, rows) = self.hex_geom;
        let cur = self.cur().cursor;
        let len = self.cur().doc().len;
        let next = match a {
            Action::Left => cur.saturating_sub(1),
            Action::Right => cur.saturating_add(1),
            Action::Up => cur.saturating_sub(bpr),
            Action::Down if cur.saturating_add(bpr) < len => cur + bpr,
            Action::Down => cur,
            Action::PageUp => cur.saturating_sub(bpr * rows.max(1)),
            Action::PageDown => cur.saturating_add(bpr * rows.max(1)).min(len.saturating_sub(1)),
            Action::Home => 0,
            Action::End => len.saturating_sub(1),
            _ => return,
        };
        self.set_cursor(next);
    }

    fn jump_start(&mut self, forward: bool, nodes: bool) {
        let e = self.cur();
        let starts = if nodes { &e.node_starts } else { &e.field_starts };
        let cur = e.cursor;
        let target = if forward {
            starts.get(starts.partition_point(|&s| s <= cur)).copied()
        } else {
            let i = starts.partition_point(|&s| s < cur);
            i.checked_sub(1).and_then(|i| starts.get(i)).copied()
        };
        match target {
            Some(t) => self.set_cursor(t),
            None => {
                let what = if nodes { "node" } else { "field" };
                let dir = if forward { "after" } else { "before" };
                self.message = Some((Level::Info, format!("no {what} starts {dir} 0x{cur:x}")));
            }
        }
    }

    // ---------------------------------------------------------------- fields

    fn fields_action(&mut self, a: Action) {
        let (d, n) = self.sel;
        let Some(node) = self.workspace.docs.get(d).and_then(|e| e.doc().node(n)) else { return };
        let count = node.fields.len();
        if count == 0 {
            return;
        }
        let cur = match self.field_sel {
            Some((fnode, i)) if fnode == n => i,
            _ => usize::MAX,
        };
        let next = match a {
            Action::Up if cur == usize::MAX => count - 1,
            Action::Up => cur.saturating_sub(1),
            Action::Down if cur == usize::MAX => 0,
            Action::Down => (cur + 1).min(count - 1),
            Action::Home | Action::PageUp => 0,
            Action::End | Action::PageDown => count - 1,
            Action::Activate => {
                self.focus = Pane::Hex;
                return;
            }
            _ => return,
        };
        if let Some(f) = node.fields.get(next) {
            let start = f.span.start;
            self.cur_mut().cursor = start;
            self.field_sel = Some((n, next));
        }
    }

    // ---------------------------------------------------------------- walk

    /// Go to walk step `i` of the selected document.
    pub fn walk_to(&mut self, i: usize) {
        let Some(step) = self.cur().doc().walk.get(i).cloned() else { return };
        self.cur_mut().walk_step = Some(i);
        self.walk_mode = true;
        let d = self.sel.0;
        if let Some(n) = step.node {
            self.select_node(d, n, false);
        }
        let len = self.cur().doc().len;
        self.cur_mut().cursor = step.span.start.min(len.saturating_sub(1));
        self.refresh_field();
        if step.node.is_none() {
            self.follow_cursor();
        }
    }

    fn walk_step(&mut self, delta: isize) {
        let n = self.cur().doc().walk.len();
        if n == 0 {
            self.message = Some((Level::Info, "this document has no walk trace".into()));
            return;
        }
        let next = match self.cur().walk_step {
            None => 0,
            Some(i) => i.saturating_add_signed(delta).min(n - 1),
        };
        self.walk_to(next);
    }

    // ---------------------------------------------------------------- decode

    /// Keys typed ahead while the clip decodes apply to it once it is ready: wait a
    /// little for a pending decode.
    fn wait_clip(&mut self) {
        let deadline = Instant::now() + Duration::from_millis(500);
        while matches!(self.clip(), Some(Load::Pending(_))) && Instant::now() < deadline {
            if let Some(d) = self.jobs.next_within(Duration::from_millis(20)) {
                self.finish(d);
            }
        }
    }

    fn decode_action(&mut self, a: Action) -> bool {
        self.wait_clip();
        let Some(Load::Ready(clip)) = self.clip().cloned() else { return false };
        let ntracks = clip.tracks.len();
        if self.decode.enabled.len() != ntracks {
            self.decode.enabled = (0..ntracks).map(|i| i < 4).collect();
        }
        let last = clip.frame_count.saturating_sub(1);
        let dv = &mut self.decode;
        match a {
            Action::Up => dv.chan = dv.chan.saturating_sub(1),
            Action::Down => dv.chan = (dv.chan + 1).min(ntracks.saturating_sub(1)),
            Action::Left | Action::FramePrev => dv.frame = dv.frame.saturating_sub(1),
            Action::Right | Action::FrameNext => dv.frame = (dv.frame + 1).min(last),
            Action::PageUp => dv.frame = dv.frame.saturating_sub(10),
            Action::PageDown => dv.frame = (dv.frame + 10).min(last),
            Action::Home => dv.frame = 0,
            Action::End => dv.frame = last,
            Action::Toggle | Action::Activate => {
                if let Some(e) = dv.enabled.get_mut(dv.chan) {
                    *e = !*e;
                }
            }
            _ => return false,
        }
        true
    }

    // ---------------------------------------------------------------- diagnostics & bookmarks

    /// Entries of the diagnostics pane: (document, offset, text).
    pub fn diag_entries(&self) -> Vec<(usize, Option<u64>, String)> {
        let d = self.sel.0;
        let mut v: Vec<(usize, Option<u64>, String)> =
            self.cur().doc().diagnostics.iter().map(|x| (d, x.offset, x.to_string())).collect();
        for b in &self.bookmarks.marks {
            let doc = self.workspace.docs.iter().position(|e| e.opened.title() == b.title);
            v.push((doc.unwrap_or(usize::MAX), Some(b.offset), format!("bookmark {} @0x{:x}", b.title, b.offset)));
        }
        v
    }

    fn diag_action(&mut self, a: Action) {
        let n = self.diag_entries().len();
        if n == 0 {
            return;
        }
        match a {
            Action::Up => self.diag_cursor = self.diag_cursor.saturating_sub(1),
            Action::Down => self.diag_cursor = (self.diag_cursor + 1).min(n - 1),
            Action::Home => self.diag_cursor = 0,
            Action::End => self.diag_cursor = n - 1,
            Action::Activate => {
                if let Some((d, Some(off), _)) = self.diag_entries().get(self.diag_cursor).cloned() {
                    self.goto_doc_offset(d, off);
                }
            }
            _ => {}
        }
    }

    fn goto_doc_offset(&mut self, d: usize, off: u64) {
        if d >= self.workspace.docs.len() {
            self.message = Some((Level::Info, "open that member in the tree first".into()));
            return;
        }
        self.sel.0 = d;
        self.set_cursor(off);
        self.focus = Pane::Hex;
    }

    fn toggle_bookmark(&mut self) {
        let title = self.cur().opened.title();
        let off = self.cur().cursor;
        let added = self.bookmarks.toggle(&title, off);
        let saved = self.bookmarks.save();
        let what = if added { "bookmarked" } else { "bookmark removed:" };
        self.message = Some(match saved {
            Ok(Some(p)) => (Level::Info, format!("{what} 0x{off:x} (saved to {})", p.display())),
            Ok(None) => (Level::Info, format!("{what} 0x{off:x} (not saved: no state directory)")),
            Err(e) => (Level::Error, format!("{what} 0x{off:x} but saving failed: {e}")),
        });
    }

    fn next_bookmark(&mut self) {
        let title = self.cur().opened.title();
        let cur = self.cur().cursor;
        let mut mine: Vec<u64> = self.bookmarks.marks.iter().filter(|b| b.title == title).map(|b| b.offset).collect();
        mine.sort_unstable();
        match mine.iter().find(|&&o| o > cur).or(mine.first()) {
            Some(&o) => self.set_cursor(o),
            None => self.message = Some((Level::Info, "no bookmarks in these bytes (m adds one)".into())),
        }
    }

    // ---------------------------------------------------------------- copy, search, goto, export

    fn copy(&mut self, how: clipboard::As) {
        let (d, n) = self.sel;
        let span = match self.field_sel {
            Some((fnode, i)) => self.cur().doc().node(fnode).and_then(|x| x.fields.get(i)).map(|f| f.span),
            None => self.cur().doc().node(n).map(|x| x.span),
        }
        .unwrap_or_default();
        let Some(bytes) = self.bytes(d) else {
            self.message = Some((Level::Error, "file changed on disk: nothing copied".into()));
            return;
        };
        let end = span.end.min(span.start.saturating_add(clipboard::MAX_COPY));
        let slice = bytes.get(span.start as usize..end as usize).unwrap_or(&[]).to_vec();
        let text = clipboard::format(&slice, how);
        self.osc.push(clipboard::osc52(&text));
        let cut = if end < span.end { " (truncated)" } else { "" };
        self.message = Some((Level::Info, format!("copied {} bytes at 0x{:x} as {how}{cut}", slice.len(), span.start)));
    }

    fn run_search(&mut self, forward: bool, from_next: bool) {
        let Some(needle) = self.search.clone() else {
            self.message = Some((Level::Info, "no search yet (/ starts one)".into()));
            return;
        };
        let d = self.sel.0;
        let Some(bytes) = self.bytes(d) else {
            self.message = Some((Level::Error, "file changed on disk: not searched".into()));
            return;
        };
        let cur = self.cur().cursor;
        let start = if from_next { cur.saturating_add(1) } else { cur };
        match search::find(bytes, &needle.bytes, start, forward) {
            Some((off, wrapped)) => {
                self.matched = Some((d, Span::at(off, needle.bytes.len() as u64)));
                self.set_cursor(off);
                let w = if wrapped { " (wrapped)" } else { "" };
                self.message = Some((Level::Info, format!("{} at 0x{off:x}{w}", needle.text)));
            }
            None => {
                self.matched = None;
                self.message = Some((Level::Error, format!("{} not found", needle.text)));
            }
        }
    }

    fn goto(&mut self, input: &str) {
        let input = input.trim();
        let cur = self.cur().cursor;
        match search::parse_goto(input, cur) {
            Some(off) if off < self.cur().doc().len => {
                self.set_cursor(off);
                self.focus = Pane::Hex;
            }
            Some(off) => {
                self.message =
                    Some((Level::Error, format!("0x{off:x} is past the end (0x{:x} bytes)", self.cur().doc().len)))
            }
            None => {
                // a node path: the selected document first, then every opened one
                let order: Vec<usize> = std::iter::once(self.sel.0)
                    .chain((0..self.workspace.docs.len()).filter(|d| *d != self.sel.0))
                    .collect();
                for d in order {
                    if let Some(n) = self.workspace.docs.get(d).and_then(|e| e.doc().find_path(input)) {
                        self.select_node(d, n, false);
                        return;
                    }
                }
                self.message = Some((
                    Level::Error,
                    format!("goto: {input} is not an offset (0x150, 336, +0x20) or a node path of an opened document"),
                ));
            }
        }
    }

    fn export_check(&mut self) -> bool {
        self.wait_clip();
        match export::check_clip(self.clip()) {
            Ok(()) => true,
            Err(m) => {
                self.message = Some(m);
                false
            }
        }
    }

    fn export_write(&mut self, path: PathBuf, force: bool) {
        let res = if export::wants_obj(&path) {
            // posed at the decode pane's frame when an Anime is selected
            let e = self.cur();
            let anime = self.anim_node().and_then(|n| e.doc().node(n)).and_then(|n| n.anim.as_deref());
            Some(export::write_obj(&e.opened, anime.and_then(export::anime_of_key), self.decode.frame, &path, force))
        } else {
            let Some(Load::Ready(clip)) = self.clip() else { return };
            export::write_matrix_json(clip, &self.cur().opened.title(), &path, force)
        };
        match res {
            Some(Ok(m)) => self.message = Some((Level::Info, m)),
            Some(Err(m)) => self.message = Some((Level::Error, m)),
            None => {}
        }
    }

    fn submit_prompt(&mut self, p: Prompt) {
        match p.kind {
            PromptKind::Goto => self.goto(&p.input),
            PromptKind::Search => match search::parse_needle(&p.input) {
                Ok(n) => {
                    self.search = Some(n);
                    self.run_search(true, false);
                }
                Err(e) => self.message = Some((Level::Error, e)),
            },
            PromptKind::ExportPath => {
                let path = PathBuf::from(p.input.trim());
                if p.input.trim().is_empty() {
                    self.message = Some((Level::Info, "export cancelled".into()));
                } else if path.exists() {
                    self.prompt = Some(Prompt { kind: PromptKind::ConfirmOverwrite(path), input: String::new() });
                } else {
                    self.export_write(path, false);
                }
            }
            PromptKind::ConfirmOverwrite(path) => {
                if p.input.trim().eq_ignore_ascii_case("y") || p.input.trim().eq_ignore_ascii_case("yes") {
                    self.export_write(path, true);
                } else {
                    self.message = Some((Level::Info, format!("not overwritten: {}", path.display())));
                }
            }
        }
    }

    fn prompt_key(&mut self, k: &KeyEvent) {
        let Some(mut p) = self.prompt.take() else { return };
        let confirm = matches!(p.kind, PromptKind::ConfirmOverwrite(_));
        match k.code {
            KeyCode::Esc => {
                self.message = Some((Level::Info, "cancelled".into()));
                return;
            }
            KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => return,
            KeyCode::Enter => return self.submit_prompt(p),
            KeyCode::Backspace => {
                p.input.pop();
            }
            KeyCode::Char(c) if confirm => {
                p.input = c.to_string();
                return self.submit_prompt(p);
            }
            KeyCode::Char(c) => p.input.push(c),
            _ => {}
        }
        self.prompt = Some(p);
    }

    // ---------------------------------------------------------------- input

    /// Handle one key event (only presses count).
    pub fn handle_key(&mut self, k: KeyEvent) {
        if k.kind != KeyEventKind::Press {
            return;
        }
        if self.prompt.is_some() {
            self.prompt_key(&k);
            return;
        }
        self.pending.push(Chord::from_event(&k));
        match self.keymap.lookup(&self.pending) {
            Lookup::Pending => {}
            Lookup::Action(a) => {
                self.pending.clear();
                self.apply(a);
            }
            Lookup::Unbound => {
                let keys: Vec<String> = self.pending.iter().map(ToString::to_string).collect();
                self.pending.clear();
                if keys.len() > 1 || self.help.is_none() {
                    self.message = Some((Level::Info, format!("{} is not bound (? shows keys)", keys.join(" "))));
                }
            }
        }
    }

    /// Handle the same key pressed `count` times in a row (key repeat): tree moves are
    /// applied as one jump, everything else one by one.
    pub fn handle_repeated(&mut self, k: KeyEvent, count: usize) {
        if count > 1
            && self.prompt.is_none()
            && self.pending.is_empty()
            && self.help.is_none()
            && self.focus == Pane::Tree
        {
            let step = match self.keymap.lookup(&[Chord::from_event(&k)]) {
                Lookup::Action(Action::Up) => Some(-1isize),
                Lookup::Action(Action::Down) => Some(1),
                _ => None,
            };
            if let Some(step) = step {
                self.message = None;
                self.tree_move(step * count.min(isize::MAX as usize) as isize);
                return;
            }
        }
        for _ in 0..count {
            self.handle_key(k);
        }
    }

    /// Apply an action.
    pub fn apply(&mut self, a: Action) {
        if !matches!(a, Action::SearchNext | Action::SearchPrev) {
            self.message = None;
        }
        if let Some(scroll) = self.help {
            match a {
                Action::Up => self.help = Some(scroll.saturating_sub(1)),
                Action::Down => self.help = Some(scroll + 1),
                Action::PageUp => self.help = Some(scroll.saturating_sub(10)),
                Action::PageDown => self.help = Some(scroll + 10),
                Action::Quit => self.quit = true,
                _ => self.help = None,
            }
            return;
        }
        match a {
            Action::Quit => self.quit = true,
            Action::Help => self.help = Some(0),
            Action::Cancel => {
                self.zoom = false;
                self.walk_mode = false;
                self.matched = None;
            }
            Action::FocusNext | Action::FocusPrev => {
                let i = Pane::ALL.iter().position(|p| *p == self.focus).unwrap_or(0);
                let n = Pane::ALL.len();
                let next = if a == Action::FocusNext { (i + 1) % n } else { (i + n - 1) % n };
                self.focus_pane(Pane::ALL.get(next).copied().unwrap_or(Pane::Tree));
            }
            Action::FocusTree => self.focus_pane(Pane::Tree),
            Action::FocusHex => self.focus_pane(Pane::Hex),
            Action::FocusFields => self.focus_pane(Pane::Fields),
            Action::FocusDecode => self.focus_pane(Pane::Decode),
            Action::FocusWalk => self.focus_pane(Pane::Walk),
            Action::FocusDiagnostics => self.focus_pane(Pane::Diagnostics),
            Action::Zoom => self.zoom = !self.zoom,
            Action::Up
            | Action::Down
            | Action::Left
            | Action::Right
            | Action::PageUp
            | Action::PageDown
            | Action::Home
            | Action::End
            | Action::Activate
            | Action::Toggle => match self.focus {
                Pane::Tree => self.tree_action(a),
                Pane::Hex => self.hex_action(a),
                Pane::Fields => self.fields_action(a),
                Pane::Decode => {
                    self.decode_action(a);
                }
                Pane::Walk => match a {
                    Action::Up | Action::Left => self.walk_step(-1),
                    Action::Down | Action::Right | Action::Activate => self.walk_step(1),
                    Action::PageUp => self.walk_step(-10),
                    Action::PageDown => self.walk_step(10),
                    Action::Home => self.walk_to(0),
                    Action::End => {
                        let n = self.cur().doc().walk.len();
                        self.walk_to(n.saturating_sub(1));
                    }
                    _ => {}
                },
                Pane::Diagnostics => self.diag_action(a),
            },
            Action::NextField => self.jump_start(true, false),
            Action::PrevField => self.jump_start(false, false),
            Action::NextNode => self.jump_start(true, true),
            Action::PrevNode => self.jump_start(false, true),
            Action::Goto => self.prompt = Some(Prompt { kind: PromptKind::Goto, input: String::new() }),
            Action::Search => self.prompt = Some(Prompt { kind: PromptKind::Search, input: String::new() }),
            Action::SearchNext => self.run_search(true, true),
            Action::SearchPrev => self.run_search(false, true),
            Action::WalkMode => {
                if self.walk_mode && self.focus == Pane::Walk {
                    self.walk_mode = false;
                } else {
                    self.focus_pane(Pane::Walk);
                    if self.cur().walk_step.is_none() {
                        self.walk_step(0);
                    } else {
                        self.walk_mode = true;
                    }
                }
            }
            Action::WalkNext => self.walk_step(1),
            Action::WalkPrev => self.walk_step(-1),
            Action::FrameNext | Action::FramePrev => {
                if !self.decode_action(a) {
                    self.message = Some((Level::Info, "no decoded clip for this node".into()));
                }
            }
            Action::ToggleZeros => self.collapse_zeros = !self.collapse_zeros,
            Action::ToggleEndian => self.big_endian = !self.big_endian,
            Action::ToggleTables => self.decode.tables = !self.decode.tables,
            Action::ToggleNormalize => {
                self.decode.normalize = !self.decode.normalize;
                let how = if self.decode.normalize { "each channel in its own range" } else { "one shared y range" };
                self.message = Some((Level::Info, format!("plots: {how}")));
            }
            Action::Bookmark => self.toggle_bookmark(),
            Action::NextBookmark => self.next_bookmark(),
            Action::CopyHex => self.copy(clipboard::As::Hex),
            Action::CopyC => self.copy(clipboard::As::CArray),
            Action::CopyBase64 => self.copy(clipboard::As::Base64),
            Action::Export => {
                // CCSF documents also export their models as OBJ (+MTL, PNG), posed at the
                // current Anime frame when an Anime is selected: offered when there is no
                // posed clip to write as matrix JSON.
                let has_poses = matches!(self.clip(), Some(Load::Ready(c)) if c.poses.is_some());
                if export::offers_obj(&self.cur().opened) && !has_poses {
                    let input = export::default_obj_path(&self.cur().opened);
                    self.prompt = Some(Prompt { kind: PromptKind::ExportPath, input });
                } else if self.export_check() {
                    let input = export::default_json_path(self.clip());
                    self.prompt = Some(Prompt { kind: PromptKind::ExportPath, input });
                }
            }
            Action::ToggleMouse => {
                self.mouse = !self.mouse;
                let state =
                    if self.mouse { "on (click selects, wheel scrolls)" } else { "off (terminal selection works)" };
                self.message = Some((Level::Info, format!("mouse capture {state}")));
            }
        }
    }

    fn focus_pane(&mut self, p: Pane) {
        self.focus = p;
        if matches!(p, Pane::Fields | Pane::Decode | Pane::Walk | Pane::Diagnostics) {
            self.lower = p;
        }
    }

    /// A mouse click or wheel at a screen position.
    pub fn mouse_at(&mut self, col: u16, row: u16, wheel: Option<bool>) {
        let Some((pane, r)) = self.rects.iter().rev().find(|(_, r)| r.contains((col, row).into())).copied() else {
            return;
        };
        match wheel {
            Some(down) => {
                self.focus_pane(pane);
                let a = if down { Action::Down } else { Action::Up };
                for _ in 0..3 {
                    self.apply(a);
                }
            }
            None => {
                self.focus_pane(pane);
                match pane {
                    Pane::Tree => {
                        if let Some(p) = self.tree.rendered_at((col, row).into()).map(<[Tid]>::to_vec) {
                            self.tree_select_path(p);
                        }
                    }
                    Pane::Hex => {
                        if let Some(off) = super::hex::offset_at(self, r, col, row) {
                            self.set_cursor(off);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
