//! The inspector's state and what every [`Action`] does to it. Rendering lives in the
//! view modules; this module never touches the terminal, so tests drive it with key
//! events and a `TestBackend`.

use super::action::Action;
use super::keymap::{Chord, Keymap, Lookup};
use super::theme::Theme;
use super::{bookmarks, clipboard, search};
use crate::formats::DecodeOptions;
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::{Document, NodeId, Span};
use crate::session::{ListingProgress, ListingStep, Opened};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};
use tui_tree_widget::TreeState;

/// Children lists longer than this are grouped into ranges of this size in the tree.
pub const BUCKET: usize = 100;

/// Bytes one background listing step probes (about 15 ms by `pread` from the page cache).
pub const LISTING_STEP: u64 = 64 << 20;

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

/// Background work in flight or done.
#[derive(Debug, Clone)]
pub enum Load<T> {
    /// Started at.
    Pending(Instant),
    /// Finished.
    Ready(T),
    /// Failed with a message.
    Failed(String),
}

/// One opened document (the top file or a nested member).
#[derive(Debug)]
pub struct DocEntry {
    /// The bytes, format and document.
    pub opened: Arc<Opened>,
    /// The node (document, node) whose member this is.
    pub parent: Option<(usize, NodeId)>,
    /// Hex cursor.
    pub cursor: u64,
    /// First hex row shown (row index, not offset).
    pub top_row: u64,
    /// Current walk step.
    pub walk_step: Option<usize>,
    /// Sorted distinct field starts (for `]`/`[`).
    pub field_starts: Vec<u64>,
    /// Sorted distinct node starts (for `}`/`{`).
    pub node_starts: Vec<u64>,
}

impl DocEntry {
    pub(crate) fn new(opened: Arc<Opened>, parent: Option<(usize, NodeId)>) -> DocEntry {
        let mut e = DocEntry {
            opened,
            parent,
            cursor: 0,
            top_row: 0,
            walk_step: None,
            field_starts: Vec::new(),
            node_starts: Vec::new(),
        };
        e.index_starts();
        e
    }

    /// Rebuild the sorted field and node starts (after the document grew).
    fn index_starts(&mut self) {
        let doc = &self.opened.doc();
        let mut field_starts: Vec<u64> = doc.nodes.iter().flat_map(|n| n.fields.iter().map(|f| f.span.start)).collect();
        field_starts.sort_unstable();
        field_starts.dedup();
        let mut node_starts: Vec<u64> = doc.nodes.iter().skip(1).map(|n| n.span.start).collect();
        node_starts.sort_unstable();
        node_starts.dedup();
        self.field_starts = field_starts;
        self.node_starts = node_starts;
    }

    /// The document.
    pub fn doc(&self) -> &Document {
        self.opened.doc()
    }
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

/// What finished in the background.
// One message per finished job: moving a large variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
enum Done {
    Member {
        doc: usize,
        node: NodeId,
        result: Result<Opened, String>,
    },
    Clip {
        doc: usize,
        node: NodeId,
        result: Result<Clip, String>,
        /// False for the curves-only first result; the complete clip (per-key text, tables,
        /// poses) follows from the same worker.
        last: bool,
    },
    /// A probed range of the top document's unfinished member listing.
    Listing(Result<ListingStep, String>),
    /// Bookmarks of a large input, loaded after hashing it.
    Bookmarks(bookmarks::Store),
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
    /// Opened documents; `docs[0]` is the file.
    pub docs: Vec<DocEntry>,
    /// Member loads by (document, node).
    pub members: HashMap<(usize, NodeId), Load<usize>>,
    /// Decoded clips by (document, node carrying `anim`).
    pub clips: HashMap<(usize, NodeId), Load<Arc<Clip>>>,
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
    /// The file changed on disk since it was opened: its bytes are not read again.
    pub source_changed: bool,
    /// Set by `quit`.
    pub quit: bool,
    /// Pane rectangles from the last render (for mouse and paging).
    pub rects: Vec<(Pane, Rect)>,
    /// Hex bytes per row and visible rows at the last render.
    pub hex_geom: (u64, u64),
    /// Plotted channels (braille dot bits per cell), so scrubbing does not re-plot.
    pub plot_cache: HashMap<super::decode::PlotKey, Arc<Vec<Vec<u8>>>>,
    /// Progress of the top document's member listing while it continues in the
    /// background (None: complete).
    pub listing: Option<ListingProgress>,
    listing_queue: VecDeque<ListingStep>,
    /// Set when the app is dropped: the background prober and bookmark hashing stop.
    listing_stop: Arc<AtomicBool>,
    limits: Limits,
    tx: Sender<Done>,
    rx: Receiver<Done>,
    in_flight: usize,
}

impl Drop for App {
    fn drop(&mut self) {
        self.listing_stop.store(true, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").field("docs", &self.docs.len()).field("sel", &self.sel).finish()
    }
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl App {
    /// A new inspector on `opened`.
    pub fn new(opened: Opened, cfg: Config) -> App {
        let (tx, rx) = channel();
        let opened = Arc::new(opened);
        let big = opened.source().len() > BOOKMARKS_SYNC_MAX;
        let bookmarks = if big {
            bookmarks::Store::default()
        } else {
            bookmarks::Store::load(cfg.state_dir.as_deref(), opened.source().bytes())
        };
        let listing = Some(opened.listing_progress()).filter(|p| !p.complete());
        let mut app = App {
            docs: vec![DocEntry::new(opened, None)],
            members: HashMap::new(),
            clips: HashMap::new(),
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
            source_changed: false,
            quit: false,
            rects: Vec::new(),
            hex_geom: (16, 16),
            plot_cache: HashMap::new(),
            listing,
            listing_queue: VecDeque::new(),
            listing_stop: Arc::new(AtomicBool::new(false)),
            limits: Limits::default(),
            tx,
            rx,
            in_flight: 0,
        };
        app.tree.open(vec![Tid::N(0, 0)]);
        app.select_node(0, NodeId::ROOT, false);
        if big && let Some(dir) = cfg.state_dir {
            app.start_bookmarks(dir);
        }
        if app.listing.is_some() {
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
        self.docs.get(self.sel.0).or_else(|| self.docs.first()).unwrap_or_else(|| unreachable_doc())
    }

    fn cur_mut(&mut self) -> &mut DocEntry {
        let i = if self.sel.0 < self.docs.len() { self.sel.0 } else { 0 };
        #[allow(clippy::indexing_slicing)] // docs is never empty and i is checked above
        &mut self.docs[i]
    }

    /// The bytes of document `d`, unless they come from a file that changed on disk.
    pub fn bytes(&self, d: usize) -> Option<&[u8]> {
        let e = self.docs.get(d)?;
        if self.source_changed && e.opened.source().path().is_some() {
            return None;
        }
        Some(e.opened.source().bytes())
    }

    /// Background jobs still running.
    pub fn busy(&self) -> bool {
        self.in_flight > 0 || self.listing.is_some()
    }

    /// Background jobs other than the member listing still running.
    pub fn working(&self) -> bool {
        self.in_flight > 0
    }

    /// The node carrying the animation for the selection: the selected node or its
    /// nearest ancestor with an `anim` key.
    pub fn anim_node(&self) -> Option<NodeId> {
        let doc = self.cur().doc();
        let mut cur = doc.node(self.sel.1);
        for _ in 0..=doc.nodes.len() {
            let n = cur?;
            if n.anim.is_some() {
                return Some(n.id);
            }
            cur = n.parent.and_then(|p| doc.node(p));
        }
        None
    }

    /// The clip for the selection, if decoded.
    pub fn clip(&self) -> Option<&Load<Arc<Clip>>> {
        let n = self.anim_node()?;
        self.clips.get(&(self.sel.0, n))
    }

    // ---------------------------------------------------------------- background work

    /// Take finished background results; returns true when anything changed.
    /// Listing steps that arrived are applied for at most a few milliseconds per call, so
    /// keys are handled between steps.
    pub fn poll_jobs(&mut self) -> bool {
        let mut changed = false;
        while let Ok(d) = self.rx.try_recv() {
            self.finish(d);
            changed = true;
        }
        if !self.listing_queue.is_empty() {
            self.apply_listing_steps(Instant::now() + LISTING_APPLY_BUDGET);
            changed = true;
        }
        changed
    }

    /// Block until every background job has finished, including the member listing
    /// (tests, benches).
    pub fn wait_idle(&mut self) {
        while self.in_flight > 0 || self.listing.is_some() {
            if !self.listing_queue.is_empty() {
                self.apply_listing_steps(Instant::now() + Duration::from_secs(3600));
                continue;
            }
            match self.rx.recv_timeout(Duration::from_secs(30)) {
                Ok(d) => self.finish(d),
                Err(_) => break,
            }
        }
    }

    /// Take one listing step from the background and apply it (tests: the listing grows
    /// one step at a time). Returns false when the listing is complete.
    pub fn pump_listing_step(&mut self) -> bool {
        while self.listing.is_some() && self.listing_queue.is_empty() {
            match self.rx.recv_timeout(Duration::from_secs(30)) {
                Ok(d) => self.finish(d),
                Err(_) => return false,
            }
        }
        if self.listing_queue.is_empty() {
            return false;
        }
        // a deadline in the past: exactly one step
        self.apply_listing_steps(Instant::now());
        self.listing.is_some()
    }

    fn start_listing(&mut self, step: u64) {
        let Some(mut prober) = self.docs.first().and_then(|e| e.opened.listing_prober(step)) else {
            self.listing = None;
            return;
        };
        let tx = self.tx.clone();
        let stop = Arc::clone(&self.listing_stop);
        let spawned = spawn_worker(move || {
            // Probes run ahead of the UI (each result is a few offsets); the thread ends at
            // the end of the file, on an error, or when the app is gone.
            while let Some(step) = prober.next_step_unless(&stop) {
                let step = step.map_err(|e| format!("listing stopped: {e}"));
                let failed = step.is_err();
                if tx.send(Done::Listing(step)).is_err() || failed {
                    break;
                }
            }
        });
        if let Err(e) = spawned {
            self.listing = None;
            self.message = Some((Level::Error, e));
        }
    }

    fn start_bookmarks(&mut self, dir: PathBuf) {
        let Some(e) = self.docs.first() else { return };
        let source = Arc::clone(e.opened.source());
        let tx = self.tx.clone();
        let stop = Arc::clone(&self.listing_stop);
        self.in_flight += 1;
        let spawned = spawn_worker(move || {
            // gives up (reads fail) once the app is gone
            let mut read_at = |off: u64, buf: &mut [u8]| {
                if stop.load(Ordering::Relaxed) {
                    return Err(std::io::Error::from(std::io::ErrorKind::Interrupted));
                }
                source.read_at(off, buf)
            };
            let store = match bookmarks::content_hash_reader(source.len(), &mut read_at) {
                Ok(h) => bookmarks::Store::load_hashed(Some(&dir), h),
                Err(_) => bookmarks::Store::default(),
            };
            let _ = tx.send(Done::Bookmarks(store));
        });
        if spawned.is_err() {
            self.in_flight -= 1;
        }
    }

    /// Apply queued listing steps to the top document until `deadline` (at least one).
    fn apply_listing_steps(&mut self, deadline: Instant) {
        let Some(e) = self.docs.first_mut() else { return };
        let sel_unlisted = self.sel.0 == 0 && e.opened.unlisted_node() == Some(self.sel.1);
        if Arc::get_mut(&mut e.opened).is_none() {
            // A worker still reads the document: apply to a copy (the worker keeps its own).
            e.opened = Arc::new(e.opened.clone_document());
        }
        let Some(o) = Arc::get_mut(&mut e.opened) else { return };
        let mut complete = false;
        while let Some(step) = self.listing_queue.pop_front() {
            complete = o.apply_listing(&step);
            if complete || Instant::now() >= deadline {
                break;
            }
        }
        let progress = o.listing_progress();
        complete |= progress.complete();
        e.index_starts();
        self.listing = if complete {
            self.listing_queue.clear();
            None
        } else {
            Some(progress)
        };
        self.remap_tree();
        if sel_unlisted {
            // The placeholder was selected; its id is gone. Select what now covers the
            // cursor: a member listed there, or the new placeholder.
            let node = self.docs.first().and_then(|e| e.doc().node_at(e.cursor)).unwrap_or(NodeId::ROOT);
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
            app.docs.get(d)?.doc().node(n)?;
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

    fn finish(&mut self, d: Done) {
        match d {
            Done::Listing(Ok(step)) => {
                if self.listing.is_some() {
                    self.listing_queue.push_back(step);
                }
                return;
            }
            Done::Listing(Err(e)) => {
                self.listing = None;
                self.listing_queue.clear();
                self.message = Some((Level::Error, e));
                return;
            }
            _ => {}
        }
        // A curves-only first result does not end its job: the worker is still on the
        // complete clip.
        if !matches!(d, Done::Clip { last: false, .. }) {
            self.in_flight = self.in_flight.saturating_sub(1);
        }
        match d {
            Done::Member { doc, node, result } => {
                let state = match result {
                    Ok(o) => {
                        self.docs.push(DocEntry::new(Arc::new(o), Some((doc, node))));
                        Load::Ready(self.docs.len() - 1)
                    }
                    Err(e) => {
                        self.message = Some((Level::Error, e.clone()));
                        Load::Failed(e)
                    }
                };
                self.members.insert((doc, node), state);
            }
            Done::Clip { doc, node, result, last } => {
                // The curves arrive first (enough to plot); the complete clip replaces them.
                // A failed curves decode is final: the worker sends nothing after it.
                let pending = matches!(self.clips.get(&(doc, node)), Some(Load::Pending(_)));
                if last || pending {
                    let state = match result {
                        Ok(c) => Load::Ready(Arc::new(c)),
                        Err(e) => Load::Failed(e),
                    };
                    self.clips.insert((doc, node), state);
                }
            }
            Done::Bookmarks(store) => {
                if let Err(e) = self.bookmarks.merge_loaded(store) {
                    self.message = Some((Level::Error, format!("saving bookmarks failed: {e}")));
                }
            }
            Done::Listing(_) => {}
        }
    }

    fn start_member(&mut self, d: usize, n: NodeId) {
        if self.members.contains_key(&(d, n)) {
            return;
        }
        let Some(e) = self.docs.get(d) else { return };
        if self.bytes(d).is_none() {
            self.members.insert((d, n), Load::Failed("file changed on disk; member not opened".into()));
            return;
        }
        let opened = Arc::clone(&e.opened);
        let tx = self.tx.clone();
        let limits = self.limits;
        self.members.insert((d, n), Load::Pending(Instant::now()));
        self.in_flight += 1;
        let spawned = spawn_worker(move || {
            let result = guarded(|| opened.open_member(n, &limits).map_err(|e| e.to_string()));
            let _ = tx.send(Done::Member { doc: d, node: n, result });
        });
        if let Err(e) = spawned {
            self.in_flight -= 1;
            self.members.insert((d, n), Load::Failed(e));
        }
    }

    fn start_clip(&mut self, d: usize, n: NodeId) {
        if self.clips.contains_key(&(d, n)) {
            return;
        }
        let Some(e) = self.docs.get(d) else { return };
        let Some(anim) = e.doc().node(n).filter(|x| x.anim.is_some()).and_then(|_| e.opened.animation_at(n)) else {
            return;
        };
        if self.bytes(d).is_none() {
            self.clips.insert((d, n), Load::Failed("file changed on disk; not decoded".into()));
            return;
        }
        let opened = Arc::clone(&e.opened);
        let tx = self.tx.clone();
        let limits = self.limits;
        self.clips.insert((d, n), Load::Pending(Instant::now()));
        self.in_flight += 1;
        let spawned = spawn_worker(move || {
            // Curves first, so a long clip plots within a frame; then the complete clip
            // (per-key text, tables, poses) when the format left them out.
            let decode =
                |opts: &DecodeOptions| guarded(|| opened.decode(&anim, opts, &limits).map_err(|e| e.to_string()));
            let curves = decode(&DecodeOptions { curves_only: true, ..DecodeOptions::default() });
            let complete = curves.as_ref().is_ok_and(|c| !c.tables.is_empty() || c.poses.is_some());
            if curves.is_err() || complete {
                let _ = tx.send(Done::Clip { doc: d, node: n, result: curves, last: true });
                return;
            }
            let _ = tx.send(Done::Clip { doc: d, node: n, result: curves, last: false });
            let result = decode(&DecodeOptions::default());
            let _ = tx.send(Done::Clip { doc: d, node: n, result, last: true });
        });
        if let Err(e) = spawned {
            self.in_flight -= 1;
            self.clips.insert((d, n), Load::Failed(e));
        }
    }

    /// Note a file changed underneath (called before touching its bytes after events).
    pub fn check_source(&mut self) {
        if !self.source_changed && self.docs.first().is_some_and(|e| e.opened.source().changed()) {
            self.source_changed = true;
            self.message = Some((
                Level::Error,
                "the file changed on disk: its bytes are no longer shown (reopen it); the parsed tree stays".into(),
            ));
        }
    }

    // ---------------------------------------------------------------- tree

    /// Tree path of (document, node), through members and buckets.
    pub fn tree_path(&self, d: usize, n: NodeId) -> Vec<Tid> {
        let mut out = Vec::new();
        let (mut d, mut n) = (d, n);
        for _ in 0..64 {
            let Some(e) = self.docs.get(d) else { break };
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
        let span = self.docs.get(d).and_then(|e| e.doc().node(n)).map(|x| x.span).unwrap_or_default();
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
            let span = self.docs.get(d).and_then(|e| e.doc().node(n)).map(|x| x.span).unwrap_or_default();
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
                .docs
                .get(*d as usize)
                .and_then(|e| e.doc().node(NodeId(*n)))
                .is_some_and(|x| !x.children.is_empty() || x.member.is_some()),
            _ => false,
        }
    }

    fn tree_open(&mut self, path: Vec<Tid>) {
        if let Some(Tid::N(d, n)) = path.last()
            && self.docs.get(*d as usize).and_then(|e| e.doc().node(NodeId(*n))).is_some_and(|x| x.member.is_some())
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
        let Some(node) = self.docs.get(d).and_then(|e| e.doc().node(n)) else { return };
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
            if let Ok(d) = self.rx.recv_timeout(Duration::from_millis(20)) {
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
            let doc = self.docs.iter().position(|e| e.opened.title() == b.title);
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
        if d >= self.docs.len() {
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
                let order: Vec<usize> =
                    std::iter::once(self.sel.0).chain((0..self.docs.len()).filter(|d| *d != self.sel.0)).collect();
                for d in order {
                    if let Some(n) = self.docs.get(d).and_then(|e| e.doc().find_path(input)) {
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

    fn export_default_path(&self) -> String {
        let name = match self.clip() {
            Some(Load::Ready(c)) => c.name.clone(),
            _ => "clip".into(),
        };
        let safe: String =
            name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
        format!("{safe}.json")
    }

    fn export_check(&mut self) -> bool {
        self.wait_clip();
        match self.clip() {
            None => {
                self.message = Some((Level::Error, "export: the selected node carries no animation".into()));
                false
            }
            Some(Load::Pending(_)) => {
                self.message = Some((Level::Info, "export: the clip is still decoding".into()));
                false
            }
            Some(Load::Failed(e)) => {
                self.message = Some((Level::Error, format!("export: the clip did not decode: {e}")));
                false
            }
            Some(Load::Ready(c)) if c.poses.is_none() => {
                self.message = Some((
                    Level::Error,
                    format!("export: {} has tracks but no posed matrices, so there is nothing to export", c.name),
                ));
                false
            }
            Some(Load::Ready(_)) => true,
        }
    }

    fn export_write(&mut self, path: PathBuf, force: bool) {
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("obj")) {
            return self.export_obj(path, force);
        }
        let Some(Load::Ready(clip)) = self.clip().cloned() else { return };
        let input = self.cur().opened.title();
        // seam: the same export service as `animscope export` without --skeleton (the
        // poses' built-in skeleton).
        let req = crate::export::ExportRequest {
            out_path: path.to_string_lossy().into_owned(),
            force,
            ..crate::export::ExportRequest::default()
        };
        self.message = Some(match crate::export::export_matrices(&clip, &input, &req) {
            Ok(done) => {
                (Level::Info, format!("wrote {}: {} frames, {} bones", path.display(), done.frames, done.bones))
            }
            Err(e) => (Level::Error, format!("export {}: {e}", path.display())),
        });
    }

    /// OBJ export of the current document's models, posed at the cursor frame of the
    /// selected animation if there is one.
    fn export_obj(&mut self, path: PathBuf, force: bool) {
        if !self.cur().opened.format().has_meshes() {
            self.message =
                Some((Level::Error, "export: OBJ export is for scenes with models; use a .json path".into()));
            return;
        }
        let anim = self.anim_node().and_then(|n| self.cur().opened.animation_at(n));
        let frame = u32::try_from(self.decode.frame).unwrap_or(0);
        let pose = anim.map_or(crate::model::mesh::ScenePose::Rest, |a| self.cur().opened.scene_pose(&a, frame));
        let req = crate::model::mesh::SceneRequest { model: None, pose };
        let opened = Arc::clone(&self.cur().opened);
        let written = opened
            .scene(&req, &self.limits)
            .map_err(crate::export::ExportError::from)
            .and_then(|scene| crate::export::obj::write_obj(&scene, &path, force));
        self.message = Some(match written {
            Ok(summary) => (Level::Info, summary),
            Err(e) => (Level::Error, format!("export {}: {e}", path.display())),
        });
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
                let meshes = self.cur().opened.format().has_meshes();
                let has_poses = matches!(self.clip(), Some(Load::Ready(c)) if c.poses.is_some());
                if meshes && !has_poses {
                    let stem =
                        self.cur().opened.source().name().split(['.', ' ']).next().unwrap_or("scene").to_string();
                    self.prompt = Some(Prompt { kind: PromptKind::ExportPath, input: format!("{stem}.obj") });
                } else if self.export_check() {
                    let input = self.export_default_path();
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

/// Name of background threads; the TUI's panic hook leaves the terminal alone for them.
pub const WORKER: &str = "animscope-worker";

fn spawn_worker(f: impl FnOnce() + Send + 'static) -> Result<(), String> {
    std::thread::Builder::new()
        .name(WORKER.into())
        .spawn(f)
        .map(|_| ())
        .map_err(|e| format!("could not start a worker thread: {e}"))
}

/// Run background work; a panic (a format bug) becomes an error message instead of
/// taking the UI down.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(format!("internal error (panic) in background work: {msg}"))
        }
    }
}

fn unreachable_doc() -> &'static DocEntry {
    // docs always holds the opened file; this exists only to avoid a panic path.
    static EMPTY: std::sync::OnceLock<DocEntry> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| {
        let src = crate::source::Source::from_vec("empty", vec![0]);
        let doc = Document::new("raw", "empty", "file", 1);
        DocEntry::new(
            Arc::new(Opened::from_parsed(crate::formats::with_document(Arc::new(src), doc), Vec::new())),
            None,
        )
    })
}
