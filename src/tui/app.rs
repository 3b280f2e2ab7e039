//! The glue of the inspector. [`App`] holds the panes, the workspace, the job runner and
//! the selection they share; it routes keys and mouse to the focused pane (each pane
//! handles its own actions, see [`Component`]), takes finished background work, and
//! composes the screen from what each pane draws. How the selection moves and what panes
//! ask for ([`Effect`]) is applied in `selection.rs`; the prompt commands (goto, search,
//! export) are in `commands.rs`. Nothing here touches the terminal, so tests drive it
//! with key events and a `TestBackend`.

use super::action::Action;
use super::component::{Component, Ctx, Effect, ctx};
use super::decode::DecodePane;
use super::diagnostics::DiagnosticsPane;
use super::diffview::{self, DiffView};
use super::fields::FieldsPane;
use super::hex::HexPane;
use super::jobs::{DiffProgress, Done, Jobs};
use super::jumps::{self, Jumps};
use super::keymap::{Chord, Keymap, Lookup};
use super::layout::ScreenLayout;
use super::messages::MessageLog;
use super::prompt::{Edited, History};
use super::theme::Theme;
use super::tree::TreePane;
use super::walk::WalkPane;
use super::workspace::Workspace;
use super::{bookmarks, help, hex, layout, status, tree};
use crate::diff::Change;
use crate::limits::Limits;
use crate::model::NodeId;
use crate::model::anim::Clip;
use crate::session::Opened;
use crossterm::event::{KeyEvent, KeyEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

// Kept at their paths from before the panes were split out.
pub use super::component::{Level, Pane};
pub use super::find::Finder;
pub use super::jobs::{LISTING_STEP, WORKER};
pub use super::prompt::{Prompt, PromptKind};
pub use super::tree::{BUCKET, Tid};
pub use super::workspace::{DocEntry, Load};

/// Longest the UI thread spends applying listing steps between two frames.
const LISTING_APPLY_BUDGET: Duration = Duration::from_millis(8);

/// Inputs at most this large have their bookmarks read when first wanted, on the UI thread
/// ([`bookmarks::Bookmarks`]); larger ones are hashed on a background thread (hashing reads
/// up to 32 MiB).
const BOOKMARKS_SYNC_MAX: u64 = 4 << 20;

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
    /// Where the layout builder saves layouts (normally the user's layouts folder).
    pub layouts_dir: Option<PathBuf>,
    /// The project's layouts folder, the builder's other place to save (normally
    /// `layouts/` in the folder the TUI was started in; None: not offered).
    pub project_layouts_dir: Option<PathBuf>,
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
            layouts_dir: None,
            project_layouts_dir: None,
            messages: Vec::new(),
            listing_step: LISTING_STEP,
        }
    }
}

/// The whole inspector.
pub struct App {
    /// The opened documents and their loads.
    pub workspace: Workspace,
    /// Background work.
    pub(super) jobs: Jobs,
    /// The tree pane.
    pub tree: TreePane,
    /// The hex pane.
    pub hex: HexPane,
    /// The fields pane.
    pub fields: FieldsPane,
    /// The decode pane.
    pub decode: DecodePane,
    /// The decode pane's pose view (shown instead of the curves when on).
    pub pose: super::pose::PoseView,
    /// The walk pane.
    pub walk: WalkPane,
    /// The diagnostics pane (and the bookmarks).
    pub diagnostics: DiagnosticsPane,
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
    /// What is typed while help is open: only the lines containing it are shown.
    pub help_filter: String,
    /// The pane whose keys help shows first (the focused one when it was opened).
    pub help_section: Pane,
    /// The pane sizes the user set (side pane wider, lower pane taller), per terminal size.
    pub pane_sizes: std::collections::HashMap<(u16, u16), layout::PaneSizes>,
    /// Open prompt.
    pub prompt: Option<Prompt>,
    /// What was typed at each kind of prompt this session.
    pub history: History,
    /// The finder's index and its results for the text in the find prompt.
    pub finder: Option<Finder>,
    /// Status message.
    pub message: Option<(Level, String)>,
    /// Every status message said this session ([`App::say`]).
    pub log: MessageLog,
    /// Where jumps started, for `back` and `forward`.
    pub jumps: Jumps,
    /// The message log overlay is open, scrolled this many lines up from the newest.
    pub log_open: Option<usize>,
    /// Keys of an unfinished sequence.
    pub pending: Vec<Chord>,
    /// Active keymap.
    pub keymap: Keymap,
    /// Styles.
    pub theme: Theme,
    /// The user layout being built at the cursor ([`crate::layout::builder`]).
    pub layout_builder: Option<crate::layout::builder::LayoutBuilder>,
    /// Where built layouts are saved (None: they cannot be).
    pub layouts_dir: Option<PathBuf>,
    /// The project's layouts folder ([`Config::project_layouts_dir`]).
    pub project_layouts_dir: Option<PathBuf>,
    /// The document and node the layout being built is shown on (as it is typed).
    pub layout_builder_at: Option<(usize, NodeId)>,
    /// OSC 52 sequences waiting to be written to the terminal.
    pub osc: Vec<String>,
    /// Mouse capture wanted.
    pub mouse: bool,
    /// The low-bandwidth mode (no colours; the UI loop applies it).
    pub low_bandwidth: bool,
    /// Set by `quit`.
    pub quit: bool,
    /// What the last frame drew where (for the mouse and paging).
    pub layout: ScreenLayout,
    /// Diff mode: the changes against a second file ([`App::start_diff`]).
    pub diff: Option<DiffView>,
    /// A jump into an archive member that is being opened: where to land once it is.
    pub(super) pending_jump: Option<PendingJump>,
    /// `g NAME` found no whole name yet: the name, looked for among the names members
    /// send as they are read (any key stops looking).
    pub(super) goto_wait: Option<String>,
    /// Names arrived from members since the finder's results were computed.
    pub(super) finder_dirty: bool,
    /// The export prompt answered is for these raw bytes (document, span), not a clip.
    pub(super) raw_export: Option<(usize, crate::model::Span)>,
    /// Field and byte edits of one document, not written yet ([`super::edits`]).
    pub edits: super::edits::Edits,
}

/// Where a jump into a member lands once the member is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// This offset of the member's bytes.
    Offset(u64),
    /// The node at this path of the member's document.
    Path(String),
}

/// A jump waiting for an archive member to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingJump {
    /// The member's (document, node).
    pub member: (usize, NodeId),
    /// Where to land in it.
    pub target: Target,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").field("docs", &self.workspace.docs.len()).field("sel", &self.sel).finish()
    }
}

impl App {
    /// A new inspector on `opened`.
    pub fn new(opened: Opened, cfg: Config) -> App {
        let opened = Arc::new(opened);
        let limits = Limits { list_budget: u64::MAX, ..*opened.limits() };
        let big = opened.source().len() > BOOKMARKS_SYNC_MAX;
        let bookmarks = match &cfg.state_dir {
            Some(dir) if !big => bookmarks::Bookmarks::when_wanted(dir.clone(), Arc::clone(opened.source())),
            _ => bookmarks::Bookmarks::loaded(bookmarks::Store::default()),
        };
        let mut app = App {
            workspace: Workspace::new(opened),
            // Background work spends the command's budget (the input's limits), listing
            // whole archives in steps.
            jobs: Jobs::new(limits),
            tree: TreePane::default(),
            hex: HexPane::default(),
            fields: FieldsPane::default(),
            decode: DecodePane::default(),
            pose: super::pose::PoseView::default(),
            walk: WalkPane::default(),
            diagnostics: DiagnosticsPane { cursor: 0, bookmarks },
            sel: (0, NodeId::ROOT),
            field_sel: None,
            focus: Pane::Tree,
            lower: Pane::Fields,
            zoom: false,
            help: None,
            help_filter: String::new(),
            help_section: Pane::Tree,
            pane_sizes: std::collections::HashMap::new(),
            prompt: None,
            history: History::default(),
            finder: None,
            message: None,
            log: MessageLog::default(),
            jumps: Jumps::default(),
            log_open: None,
            pending: Vec::new(),
            keymap: cfg.keymap,
            theme: cfg.theme,
            layout_builder: None,
            layouts_dir: cfg.layouts_dir.clone(),
            project_layouts_dir: cfg.project_layouts_dir.clone(),
            layout_builder_at: None,
            osc: Vec::new(),
            mouse: false,
            low_bandwidth: false,
            quit: false,
            layout: ScreenLayout::default(),
            diff: None,
            pending_jump: None,
            goto_wait: None,
            finder_dirty: false,
            raw_export: None,
            edits: super::edits::Edits::default(),
        };
        app.tree.open(vec![Tid::N(0, 0)]);
        app.select_node(0, NodeId::ROOT, false);
        if big
            && let Some(dir) = cfg.state_dir
            && let Some(e) = app.workspace.docs.first()
        {
            app.jobs.hash_bookmarks(Arc::clone(e.opened.source()), dir);
        }
        if app.workspace.listing.is_some() {
            app.start_listing(cfg.listing_step);
        }
        for m in cfg.messages {
            app.say((Level::Error, m));
        }
        app
    }

    // ---------------------------------------------------------------- diff mode

    /// Enter diff mode against `b`: the changes are computed on a background job (the
    /// status line shows its progress); then the tree marks what changed, `>`/`<`
    /// (diff_next, diff_prev) jump between changes, hex shows both byte runs, decode
    /// overlays B's curves.
    pub fn start_diff(&mut self, b: Opened) {
        let Some(a) = self.workspace.docs.first().map(|e| Arc::clone(&e.opened)) else { return };
        let b = Arc::new(b);
        let progress = Arc::new(DiffProgress::default());
        let view = DiffView::computing(Arc::clone(&b), Arc::clone(&progress));
        let title = crate::model::sanitize(&view.title).to_string();
        match self.jobs.diff(a, b, progress) {
            Ok(()) => {
                self.tree.diff_marks = None;
                self.diff = Some(view);
                self.say((Level::Info, format!("diff: comparing with {title}…")));
            }
            Err(e) => self.say((Level::Error, format!("diff: {e}"))),
        }
    }

    /// The background comparison finished: mark the tree and say how many changes there
    /// are (a result for a comparison replaced since is dropped).
    fn diff_computed(&mut self, progress: &Arc<DiffProgress>, result: Result<Vec<Change>, String>) {
        let Some(view) = self.diff.as_mut() else { return };
        if !view.computing.as_ref().is_some_and(|p| Arc::ptr_eq(p, progress)) {
            return;
        }
        let title = crate::model::sanitize(&view.title).to_string();
        let changes = match result {
            Ok(c) => c,
            Err(e) => {
                self.diff = None;
                self.tree.diff_marks = None;
                self.say((Level::Error, format!("diff with {title}: {}", crate::model::sanitize(&e))));
                return;
            }
        };
        view.computed(changes);
        let n = view.changes.len();
        self.tree.diff_marks = Some(Arc::clone(&view.marks));
        let keys = |act| self.keymap.key_for(act).unwrap_or_else(|| act.name().to_string());
        let msg = if n == 0 {
            format!("diff: no differences from {title}")
        } else {
            format!(
                "diff: {n} changes against {title} ({} next, {} previous)",
                keys(Action::DiffNext),
                keys(Action::DiffPrev)
            )
        };
        self.say((Level::Info, msg));
    }

    /// Jump to the next (or previous) change.
    fn diff_step(&mut self, forward: bool) {
        let Some(view) = self.diff.as_mut() else {
            self.say((Level::Info, "not in diff mode (animscope A --diff B)".into()));
            return;
        };
        if let Some(p) = view.progress_text() {
            self.say((Level::Info, format!("{p} (still comparing)")));
            return;
        }
        let Some(i) = view.step(forward) else {
            self.say((Level::Info, "diff: no differences".into()));
            return;
        };
        view.waiting = None;
        self.diff_goto(i);
    }

    /// Select change `i`'s node (built on the way). An archive member on the way that is
    /// not open is opened in the background and the jump goes on once it is
    /// ([`App::diff_member_opened`]).
    fn diff_goto(&mut self, i: usize) {
        let Some(view) = self.diff.as_ref() else { return };
        let total = view.changes.len();
        let what = view.changes.get(i).map(|c| c.what.name()).unwrap_or_default();
        let Some(target) = view.target(i).map(str::to_string) else { return };
        let mut last = None;
        // A decode of a small clip ends in milliseconds, but on a loaded machine it can take
        // far longer; the jump is worth waiting for (the user asked for that node).
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut steps = 0;
        let mut opening = None;
        while steps < 256 {
            let Some((d, n, exact)) = diffview::locate(&self.workspace, &target) else { break };
            if last == Some((d, n)) {
                // Building is deferred while a worker reads the document (a decode; or one
                // that has sent its result but not yet dropped its handle): wait a little
                // for it, as typed-ahead keys wait for a clip.
                let deferred = self.workspace.docs.get(d).is_some_and(|e| {
                    Arc::strong_count(&e.opened) > 1 && e.doc().node(n).is_some_and(|x| x.is_pending())
                });
                if !deferred || Instant::now() >= deadline {
                    break;
                }
                if !self.jobs.working() {
                    std::thread::sleep(Duration::from_millis(1));
                } else if let Some(done) = self.jobs.next_within(Duration::from_millis(20)) {
                    self.finish(done);
                }
                self.build_node(d, n);
                continue;
            }
            steps += 1;
            last = Some((d, n));
            self.select_node(d, n, false);
            if exact {
                break;
            }
            let member = self.workspace.docs.get(d).and_then(|e| e.doc().node(n)).is_some_and(|x| x.member.is_some());
            if member && !matches!(self.workspace.members.get(&(d, n)), Some(Load::Ready(_))) {
                self.workspace.start_member(&mut self.jobs, d, n);
                let path = self.tree_path(d, n);
                self.tree.open(path);
                if !matches!(self.workspace.members.get(&(d, n)), Some(Load::Failed(_))) {
                    opening = Some((d, n));
                }
                break;
            }
        }
        if let Some(view) = self.diff.as_mut() {
            view.waiting = opening.map(|m| (i, m));
        }
        let on_the_way = if opening.is_some() { " (opening the member on the way…)" } else { "" };
        self.say((
            Level::Info,
            format!("change {}/{total}: {what} {}{on_the_way}", i + 1, crate::model::sanitize(&target)),
        ));
    }

    /// A member opened: a change jump waiting for it goes on into it.
    fn diff_member_opened(&mut self, key: (usize, NodeId)) {
        let Some(view) = self.diff.as_mut() else { return };
        let Some((i, m)) = view.waiting else { return };
        if m != key {
            return;
        }
        view.waiting = None;
        if let Some(Load::Failed(e)) = self.workspace.members.get(&key) {
            self.say((Level::Error, format!("diff: {}", crate::model::sanitize(e))));
            return;
        }
        self.diff_goto(i);
    }

    /// The diff-file prompt was answered: open that file and enter diff mode against it.
    pub(super) fn diff_with_file(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let path = match text.strip_prefix("~/").zip(std::env::var_os("HOME")) {
            Some((rest, home)) => PathBuf::from(home).join(rest),
            None => PathBuf::from(text),
        };
        let limits = *self.jobs.limits();
        // Opened as the first file was (`--no-mmap`, `--format`, user layouts), as `--diff` does.
        let Some(first) = self.workspace.docs.first().map(|e| Arc::clone(&e.opened)) else { return };
        match first.open_alike(&path, &limits) {
            Ok(b) => self.start_diff(b),
            Err(e) => self.say((Level::Error, format!("diff: {}", crate::model::Sanitized(&e)))),
        }
    }

    /// The diff path of the selection (diff mode).
    fn sel_diff_path(&self) -> String {
        diffview::full_path(&self.workspace, self.sel.0, self.sel.1)
    }

    // ---------------------------------------------------------------- accessors

    /// Show `m` in the status line and keep it in the message log.
    pub fn say(&mut self, m: (Level, String)) {
        self.log.push(m.0, &m.1);
        self.message = Some(m);
    }

    /// The selected document entry.
    pub fn cur(&self) -> &DocEntry {
        self.workspace.entry(self.sel.0)
    }

    pub(super) fn cur_mut(&mut self) -> &mut DocEntry {
        self.workspace.entry_mut(self.sel.0)
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

    /// Tree path of (document, node), through members and buckets.
    pub fn tree_path(&self, d: usize, n: NodeId) -> Vec<Tid> {
        tree::path_of(&self.workspace, d, n)
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
        // the pose view playing: the decode pane's frame follows the clock
        if let Some(Load::Ready(c)) = self.clip()
            && let Some(f) = self.pose.tick(Instant::now(), c.fps, c.frame_count, self.decode.frame)
        {
            self.decode.frame = f;
            changed = true;
        }
        changed
    }

    /// Block until every background job has finished, including the member listing
    /// (tests, benches).
    pub fn wait_idle(&mut self) {
        while self.busy() {
            if self.workspace.listing_queued() {
                self.apply_listing_steps(Instant::now() + Duration::from_secs(3600));
                continue;
            }
            // a hang guard, not a time limit: background work on a loaded machine may be slow
            match self.jobs.next_within(Duration::from_secs(600)) {
                Some(d) => self.finish(d),
                None => break,
            }
        }
    }

    /// Take one listing step from the background and apply it (tests: the listing grows
    /// one step at a time). Returns false when the listing is complete.
    pub fn pump_listing_step(&mut self) -> bool {
        while self.workspace.listing.is_some() && !self.workspace.listing_queued() {
            match self.jobs.next_within(Duration::from_secs(600)) {
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

    /// Keys typed ahead while the clip decodes apply to it once it is ready: wait a
    /// little for a pending decode.
    pub(super) fn wait_clip(&mut self) {
        // A decode of a small clip ends in milliseconds, but on a loaded machine it can take
        // far longer; the jump is worth waiting for (the user asked for that node).
        let deadline = Instant::now() + Duration::from_secs(5);
        while matches!(self.clip(), Some(Load::Pending(_))) && Instant::now() < deadline {
            if let Some(d) = self.jobs.next_within(Duration::from_millis(20)) {
                self.finish(d);
            }
        }
    }

    fn start_listing(&mut self, step: u64) {
        let Some(prober) = self.workspace.docs.first().and_then(|e| e.opened.listing_prober(step)) else {
            self.workspace.listing = None;
            return;
        };
        if let Err(e) = self.jobs.list(prober) {
            self.workspace.listing = None;
            self.say((Level::Error, e));
        }
    }

    /// Apply queued listing steps to the top document until `deadline` (at least one); the
    /// tree follows.
    fn apply_listing_steps(&mut self, deadline: Instant) {
        let Some(sel_unlisted) = self.workspace.apply_listing_steps(deadline, self.sel) else { return };
        self.tree.remap(&self.workspace);
        if sel_unlisted {
            // The placeholder was selected; its id is gone. Select what now covers the
            // cursor: a member listed there, or the new placeholder.
            let node = self.workspace.docs.first().and_then(|e| e.doc().node_at(e.cursor)).unwrap_or(NodeId::ROOT);
            self.select_node(0, node, true);
        }
    }

    pub(super) fn finish(&mut self, d: Done) {
        match d {
            Done::Diff { progress, result } => self.diff_computed(&progress, result),
            Done::Bookmarks(store) => {
                if let Err(e) = self.diagnostics.bookmarks.get_mut().merge_loaded(store) {
                    self.say((Level::Error, format!("saving bookmarks failed: {e}")));
                }
            }
            d => {
                let member = match &d {
                    Done::Member { doc, node, .. } => Some((*doc, *node)),
                    _ => None,
                };
                let names = match &d {
                    Done::MemberNames { doc, node, .. } => Some((*doc, *node)),
                    _ => None,
                };
                if let Some(e) = self.workspace.finish_with(d, &mut self.jobs) {
                    self.say((Level::Error, e));
                }
                // a selection made while a worker read its document was not built (the next
                // frame builds it): build it now, so keys before that frame find its fields
                let (sd, sn) = self.sel;
                self.build_node(sd, sn);
                if self.field_sel.is_none() {
                    self.refresh_field();
                }
                if let Some(key) = member {
                    self.member_opened(key);
                    self.diff_member_opened(key);
                }
                if let Some(key) = names {
                    self.finder_dirty = self.finder.is_some();
                    self.names_read(key);
                }
            }
        }
    }

    /// Note a file changed underneath (called before touching its bytes after events);
    /// true when that was said now.
    pub fn check_source(&mut self) -> bool {
        let Some(m) = self.workspace.check_source() else { return false };
        self.say((Level::Error, m));
        true
    }

    // ---------------------------------------------------------------- input

    /// Handle one key event (only presses count).
    pub fn handle_key(&mut self, k: KeyEvent) {
        if k.kind != KeyEventKind::Press {
            return;
        }
        if let Some(name) = self.goto_wait.take() {
            self.say((Level::Info, format!("stopped looking for {}", crate::model::sanitize(&name))));
        }
        if self.finder_dirty {
            self.refresh_finder();
        }
        if let Some(p) = self.prompt.take() {
            let p_kind = p.kind.clone();
            match p.edit(&k) {
                Edited::Open(p) => {
                    if matches!(p.kind, PromptKind::ChannelFilter(_)) {
                        // the channel list follows as the filter is typed
                        self.decode.set_filter(p.text());
                    }
                    self.prompt = Some(p);
                    self.refresh_finder();
                }
                Edited::Submit(p) => {
                    self.history.push(&p.kind, p.text());
                    let jump = matches!(p.kind, PromptKind::Goto | PromptKind::Find | PromptKind::Search);
                    let before = self.here();
                    self.submit_prompt(p);
                    if jump && self.here() != before {
                        self.jumps.jumped(before);
                    }
                }
                Edited::Cancelled => {
                    if let PromptKind::ChannelFilter(before) = &p_kind {
                        self.decode.set_filter(before);
                    }
                    self.say((Level::Info, "cancelled".into()))
                }
                Edited::Closed => {}
            }
            if self.prompt.as_ref().is_none_or(|p| p.kind != PromptKind::Find) {
                self.finder = None;
            }
            return;
        }
        if self.help.is_some() && self.pending.is_empty() && self.help_typed(&k) {
            return;
        }
        self.pending.push(Chord::from_event(&k));
        match self.keymap.lookup(&self.pending) {
            Lookup::Pending => {}
            Lookup::Action(a) => {
                self.pending.clear();
                let jump = jumps::is_jump(a) || (a == Action::Activate && self.focus == Pane::Fields);
                let before = self.here();
                self.apply(a);
                if jump && self.here() != before {
                    self.jumps.jumped(before);
                }
            }
            Lookup::Unbound => {
                let keys: Vec<String> = self.pending.iter().map(ToString::to_string).collect();
                self.pending.clear();
                if keys.len() > 1 || self.help.is_none() {
                    self.say((Level::Info, format!("{} is not bound (? shows keys)", keys.join(" "))));
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
                let fx = self.tree.step(step * count.min(isize::MAX as usize) as isize, &ctx!(self));
                self.run(fx);
                return;
            }
        }
        for _ in 0..count {
            self.handle_key(k);
        }
    }

    /// Apply an action: app-wide ones here, the focused pane's moves and each pane's own
    /// commands in that pane.
    pub fn apply(&mut self, a: Action) {
        if !matches!(a, Action::SearchNext | Action::SearchPrev) {
            self.message = None;
        }
        if self.apply_to_overlay(a) || self.apply_to_app(a) || self.apply_prompting(a) {
            return;
        }
        let fx = self.pane_effects(a);
        self.run(fx);
    }

    /// The message log or the help screen, when open, takes every action: scrolling moves
    /// it, quit quits, anything else closes it. False when neither is open.
    fn apply_to_overlay(&mut self, a: Action) -> bool {
        if let Some(scroll) = self.log_open {
            match a {
                Action::Up => self.log_open = Some(scroll + 1),
                Action::Down => self.log_open = Some(scroll.saturating_sub(1)),
                Action::PageUp => self.log_open = Some(scroll + 10),
                Action::PageDown => self.log_open = Some(scroll.saturating_sub(10)),
                Action::Home => self.log_open = Some(usize::MAX),
                Action::End => self.log_open = Some(0),
                Action::Quit => self.request_quit(),
                _ => self.log_open = None,
            }
            return true;
        }
        if let Some(scroll) = self.help {
            match a {
                Action::Up => self.help = Some(scroll.saturating_sub(1)),
                Action::Down => self.help = Some(scroll + 1),
                Action::PageUp => self.help = Some(scroll.saturating_sub(10)),
                Action::PageDown => self.help = Some(scroll + 10),
                Action::Quit => self.request_quit(),
                _ => self.help = None,
            }
            return true;
        }
        false
    }

    /// The app's own actions (quit, help, pane sizes, jumps, modes); false for the others.
    fn apply_to_app(&mut self, a: Action) -> bool {
        match a {
            Action::Quit => self.request_quit(),
            Action::Help => {
                self.help = Some(0);
                self.help_filter.clear();
                self.help_section = self.focus;
            }
            Action::SideWider | Action::SideNarrower | Action::LowerTaller | Action::LowerShorter => {
                self.resize_panes(a);
            }
            Action::MessageLog => self.log_open = Some(0),
            Action::Back => self.jump_back(),
            Action::Forward => self.jump_forward(),
            Action::Follow => {
                if !self.follow() {
                    self.say((Level::Info, "the selected field refers to no node or offset".into()));
                }
            }
            Action::Cancel => {
                self.pending_jump = None;
                self.hex.anchor = None;
                self.zoom = false;
                self.walk.active = false;
                self.hex.matched = None;
            }
            Action::Zoom => self.zoom = !self.zoom,
            Action::WalkMode => self.toggle_walk_mode(),
            Action::Export => self.start_export(),
            Action::DiffNext | Action::DiffPrev => self.diff_step(a == Action::DiffNext),
            Action::LowBandwidth => {
                self.low_bandwidth = !self.low_bandwidth;
                let state = if self.low_bandwidth { "on (no colours)" } else { "off" };
                self.say((Level::Info, format!("low-bandwidth mode {state}")));
            }
            Action::ToggleMouse => {
                self.mouse = !self.mouse;
                let state =
                    if self.mouse { "on (click selects, wheel scrolls)" } else { "off (terminal selection works)" };
                self.say((Level::Info, format!("mouse capture {state}")));
            }
            _ => return false,
        }
        true
    }

    /// `w`: into walk mode in the walk pane (its first step taken when none was), or out of
    /// it when it is on there.
    fn toggle_walk_mode(&mut self) {
        if self.walk.active && self.focus == Pane::Walk {
            self.walk.active = false;
        } else {
            self.focus_pane(Pane::Walk);
            if self.cur().walk_step.is_none() {
                let fx = WalkPane::step(0, &ctx!(self));
                self.run(fx);
            } else {
                self.walk.active = true;
            }
        }
    }

    /// Actions that open a prompt (go to, search, edit, layouts, bookmarks, diff) or act on
    /// the edits; false for the others.
    fn apply_prompting(&mut self, a: Action) -> bool {
        match a {
            Action::GotoFrame => self.goto_frame_prompt(),
            Action::LayoutAddField => self.layout_add_prompt(),
            Action::LayoutSave => self.layout_save_prompt(),
            Action::EditValue => self.edit_prompt(),
            Action::EditUndo => self.edit_undo(),
            Action::EditWrite => self.edit_write_prompt(),
            Action::BookmarkNamed => {
                let (title, off) = (self.cur().opened.title(), self.cur().cursor);
                let name = self.diagnostics.bookmarks.get().name_at(&title, off).unwrap_or_default().to_string();
                self.prompt = Some(Prompt::with_input(PromptKind::BookmarkName(off), name, &self.history));
            }
            Action::Goto => self.prompt = Some(Prompt::new(PromptKind::Goto, &self.history)),
            Action::Search => self.prompt = Some(Prompt::new(PromptKind::Search, &self.history)),
            Action::Find => self.open_finder(String::new()),
            Action::ChannelFilter => {
                self.focus_pane(Pane::Decode);
                let text = self.decode.choice.filter.clone();
                self.prompt = Some(Prompt::with_input(PromptKind::ChannelFilter(text.clone()), text, &self.history));
            }
            Action::DiffFile => self.prompt = Some(Prompt::new(PromptKind::DiffFile, &self.history)),
            _ => return false,
        }
        true
    }

    /// What the panes make of an action: the focused pane's moves, and each pane's own
    /// commands wherever the focus is. Every action is named here (the app's own ones make
    /// nothing), so a new one cannot be left out by accident.
    fn pane_effects(&mut self, a: Action) -> Vec<Effect> {
        match a {
            Action::FocusNext | Action::FocusPrev => {
                let i = Pane::ALL.iter().position(|p| *p == self.focus).unwrap_or(0);
                let n = Pane::ALL.len();
                let next = if a == Action::FocusNext { (i + 1) % n } else { (i + n - 1) % n };
                vec![Effect::Focus(Pane::ALL.get(next).copied().unwrap_or(Pane::Tree))]
            }
            Action::FocusTree => vec![Effect::Focus(Pane::Tree)],
            Action::FocusHex => vec![Effect::Focus(Pane::Hex)],
            Action::FocusFields => vec![Effect::Focus(Pane::Fields)],
            Action::FocusDecode => vec![Effect::Focus(Pane::Decode)],
            Action::FocusWalk => vec![Effect::Focus(Pane::Walk)],
            Action::FocusDiagnostics => vec![Effect::Focus(Pane::Diagnostics)],
            Action::Up
            | Action::Down
            | Action::Left
            | Action::Right
            | Action::PageUp
            | Action::PageDown
            | Action::Home
            | Action::End
            | Action::Activate
            | Action::Toggle => self.focused_pane_effects(a),
            Action::NextField
            | Action::PrevField
            | Action::NextNode
            | Action::PrevNode
            | Action::SearchNext
            | Action::SearchPrev
            | Action::ToggleZeros
            | Action::ToggleEndian
            | Action::CopyHex
            | Action::CopyC
            | Action::CopyBase64 => self.hex.handle(a, &ctx!(self)),
            Action::SelectLeft | Action::SelectRight | Action::SelectUp | Action::SelectDown => {
                // shift-selection is the hex pane's, from whichever pane it starts
                self.focus = Pane::Hex;
                self.hex.handle(a, &ctx!(self))
            }
            Action::WalkNext | Action::WalkPrev => self.walk.handle(a, &ctx!(self)),
            Action::FrameNext | Action::FramePrev => {
                self.wait_clip();
                self.decode.handle(a, &ctx!(self))
            }
            Action::ToggleTables | Action::ToggleNormalize => self.decode.handle(a, &ctx!(self)),
            Action::ChannelsAll | Action::ChannelsAnimated => {
                self.focus_pane(Pane::Decode);
                self.wait_clip();
                self.decode.handle(a, &ctx!(self))
            }
            Action::TogglePose
            | Action::PlayPause
            | Action::OrbitLeft
            | Action::OrbitRight
            | Action::TiltUp
            | Action::TiltDown
            | Action::ZoomIn
            | Action::ZoomOut
            | Action::PanLeft
            | Action::PanRight
            | Action::PanUp
            | Action::PanDown
            | Action::NextView
            | Action::FitAll => {
                let said = self.pose.handle(a, self.decode.frame, Instant::now());
                said.map(|m| vec![Effect::Message(Level::Info, m)]).unwrap_or_default()
            }
            Action::Bookmark | Action::NextBookmark => self.diagnostics.handle(a, &ctx!(self)),
            // the app's own ([`App::apply_to_app`], [`App::apply_prompting`])
            Action::Quit
            | Action::Help
            | Action::SideWider
            | Action::SideNarrower
            | Action::LowerTaller
            | Action::LowerShorter
            | Action::GotoFrame
            | Action::MessageLog
            | Action::Back
            | Action::Forward
            | Action::Follow
            | Action::Cancel
            | Action::Zoom
            | Action::LayoutAddField
            | Action::LayoutSave
            | Action::EditValue
            | Action::EditUndo
            | Action::EditWrite
            | Action::BookmarkNamed
            | Action::Goto
            | Action::Search
            | Action::Find
            | Action::WalkMode
            | Action::ChannelFilter
            | Action::Export
            | Action::DiffFile
            | Action::DiffNext
            | Action::DiffPrev
            | Action::LowBandwidth
            | Action::ToggleMouse => Vec::new(),
        }
    }

    /// A move (arrows, pages, ends, activate, toggle) in the focused pane.
    fn focused_pane_effects(&mut self, a: Action) -> Vec<Effect> {
        match self.focus {
            Pane::Tree => self.tree.handle(a, &ctx!(self)),
            Pane::Hex => self.hex.handle(a, &ctx!(self)),
            Pane::Fields => {
                if a == Action::Activate && self.follow() {
                    return Vec::new();
                }
                self.fields.handle(a, &ctx!(self))
            }
            Pane::Decode => {
                self.wait_clip();
                self.decode.handle(a, &ctx!(self))
            }
            Pane::Walk => self.walk.handle(a, &ctx!(self)),
            Pane::Diagnostics => self.diagnostics.handle(a, &ctx!(self)),
        }
    }

    /// A mouse click or wheel at a screen position.
    pub fn mouse_at(&mut self, col: u16, row: u16, wheel: Option<bool>) {
        let Some((pane, r)) = self.layout.panes.iter().rev().find(|(_, r)| r.contains((col, row).into())).copied()
        else {
            return;
        };
        self.focus_pane(pane);
        match wheel {
            Some(down) => {
                let a = if down { Action::Down } else { Action::Up };
                for _ in 0..3 {
                    self.apply(a);
                }
            }
            None => match pane {
                Pane::Tree => {
                    if let Some(p) = self.layout.tree.as_ref().and_then(|g| g.path_at(col, row)) {
                        let fx = self.tree.select_path(p);
                        self.run(fx);
                    }
                }
                Pane::Hex => {
                    let top_row = self.hex.top_row(self.sel.0);
                    if let Some(off) = hex::offset_at(r, self.cur().doc().len, top_row, col, row) {
                        self.set_cursor(off);
                    }
                }
                _ => {}
            },
        }
    }

    // ---------------------------------------------------------------- drawing

    /// Where the panes of a screen of `area` go, and its status line.
    pub fn pane_rects(&self, area: Rect) -> (Vec<(Pane, Rect)>, Rect) {
        let sizes = self.pane_sizes.get(&(area.width, area.height)).copied().unwrap_or_default();
        layout::panes_sized(area, self.zoom, self.focus, self.lower, sizes)
    }

    /// The columns between panes side by side on a screen of `area`: each pane's first
    /// and last column that another pane is beside (blank, [`super::component::Ctx::block`]).
    pub fn pane_edges(&self, area: Rect) -> Vec<u16> {
        let (panes, _) = self.pane_rects(area);
        let mut out = Vec::new();
        for (_, r) in &panes {
            if r.x > area.x {
                out.push(r.x);
            }
            if r.right() < area.right() {
                out.push(r.right() - 1);
            }
        }
        out
    }

    /// Draw the whole screen; what was drawn where comes back for [`App::set_layout`].
    pub fn draw(&self, f: &mut Frame) -> ScreenLayout {
        let area = f.area();
        if area.width < 16 || area.height < 4 {
            f.buffer_mut().set_stringn(area.x, area.y, "terminal too small", area.width as usize, Style::new());
            return ScreenLayout::default();
        }
        let (panes, status) = self.pane_rects(area);
        let ctx = Ctx { panes: &panes, ..ctx!(self) };
        let mut out = ScreenLayout::default();
        let overlay = self.diff.as_ref().and_then(|view| {
            let n = self.anim_node()?;
            view.b_clip(&diffview::full_path(&self.workspace, self.sel.0, n))
        });
        *self.decode.overlay.borrow_mut() = overlay;
        for &(pane, r) in &panes {
            match pane {
                Pane::Tree => out.tree = Some(self.tree.draw(f, r, &ctx)),
                Pane::Hex if self.diff.is_some() && r.height >= 12 => {
                    // diff mode: the lower part shows both byte runs of the selected node
                    let lower = (r.height / 3).max(6);
                    let top = Rect::new(r.x, r.y, r.width, r.height - lower);
                    let bottom = Rect::new(r.x, r.y + top.height, r.width, lower);
                    out.hex = self.hex.draw(f, top, &ctx);
                    self.draw_diff_bytes(f, bottom);
                }
                Pane::Hex => out.hex = self.hex.draw(f, r, &ctx),
                Pane::Fields => self.fields.draw(f, r, &ctx),
                Pane::Decode if self.pose.on => self.pose.draw(f, r, &ctx, self.decode.frame, self.decode.chan),
                Pane::Decode => out.decode = self.decode.draw(f, r, &ctx),
                Pane::Walk => self.walk.draw(f, r, &ctx),
                Pane::Diagnostics => out.diagnostics = self.diagnostics.draw(f, r, &ctx),
            }
        }
        status::draw(self, f, status);
        if let (Some(finder), Some(p)) = (&self.finder, &self.prompt) {
            status::draw_finder(finder, p, self, &self.theme, f, area);
        }
        if let Some(scroll) = self.help {
            let view = help::View { section: self.help_section, filter: &self.help_filter };
            out.help_scroll = Some(help::draw(&self.keymap, &self.theme, scroll, &view, f));
        }
        if let Some(scroll) = self.log_open {
            let key = self.keymap.key_for(Action::MessageLog).unwrap_or_else(|| Action::MessageLog.name().into());
            out.log_scroll = Some(self.log.draw(&self.theme, scroll, &key, f));
        }
        out.panes = panes;
        out.area = area;
        out
    }

    /// A key typed while help is open: a character goes to help's filter, backspace takes
    /// one off (true: the key was taken). `?` and the moves stay what the keymap says.
    fn help_typed(&mut self, k: &KeyEvent) -> bool {
        use crossterm::event::{KeyCode, KeyModifiers};
        if k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) {
            return false;
        }
        match k.code {
            KeyCode::Char('?') => false,
            KeyCode::Char(c) if !c.is_control() => {
                self.help_filter.push(c);
                self.help = Some(0);
                true
            }
            KeyCode::Backspace if !self.help_filter.is_empty() => {
                self.help_filter.pop();
                self.help = Some(0);
                true
            }
            _ => false,
        }
    }

    /// Columns or rows one press of a pane-size key moves a border.
    const RESIZE_STEP: i16 = 4;

    /// Widen or narrow the side pane, or grow or shrink the lower pane, for the terminal
    /// size of the last frame (each size keeps its own).
    fn resize_panes(&mut self, a: Action) {
        let key = (self.layout.area.width, self.layout.area.height);
        let sizes = self.pane_sizes.entry(key).or_default();
        let step = Self::RESIZE_STEP;
        match a {
            Action::SideWider => sizes.side = sizes.side.saturating_add(step),
            Action::SideNarrower => sizes.side = sizes.side.saturating_sub(step),
            Action::LowerTaller => sizes.lower = sizes.lower.saturating_add(step / 2),
            Action::LowerShorter => sizes.lower = sizes.lower.saturating_sub(step / 2),
            _ => {}
        }
        // kept within what the layout can give (so a key pressed past the limit does not
        // need as many presses back)
        let area = self.layout.area;
        let clamped = layout::PaneSizes::clamped(*sizes, area, self.zoom, self.focus, self.lower);
        *sizes = clamped;
        let what = match a {
            Action::SideWider | Action::SideNarrower => format!("side pane {:+} columns", clamped.side),
            _ => format!("lower pane {:+} rows", clamped.lower),
        };
        self.say((Level::Info, format!("{what} from the default at {}×{}", area.width, area.height)));
    }

    /// Open the go-to-frame prompt for the decoded clip of the selection.
    fn goto_frame_prompt(&mut self) {
        self.wait_clip();
        match self.clip() {
            Some(Load::Ready(c)) => {
                let last = c.frame_count.saturating_sub(1);
                self.prompt = Some(Prompt::new(PromptKind::Frame(last), &self.history));
            }
            _ => self.say((Level::Info, "go to frame: no decoded clip for this node".into())),
        }
    }

    /// Go to frame `text` (a number) of the decoded clip whose last frame is `last`.
    pub(super) fn goto_frame(&mut self, text: &str, last: usize) {
        let t = text.trim();
        match crate::session::parse_offset(t).and_then(|n| usize::try_from(n).ok()) {
            Some(n) => {
                let n = n.min(last);
                self.decode.frame = n;
                self.focus_pane(Pane::Decode);
                let clamped = if n.to_string() != t && t.parse::<usize>().is_ok() { " (the last)" } else { "" };
                self.say((Level::Info, format!("frame {n} of 0..{last}{clamped}")));
            }
            None if t.is_empty() => {}
            None => {
                self.say((Level::Error, format!("go to frame: {} is not a frame number", crate::model::sanitize(t))))
            }
        }
    }

    fn draw_diff_bytes(&self, f: &mut Frame, area: Rect) {
        let Some(view) = &self.diff else { return };
        let path = self.sel_diff_path();
        let Some(n) = self.cur().doc().node(self.sel.1) else { return };
        let bytes = self.workspace.bytes(self.sel.0).unwrap_or(&[]);
        let (start, end) = (usize::try_from(n.span.start).unwrap_or(0), usize::try_from(n.span.end).unwrap_or(0));
        let a = bytes.get(start.min(bytes.len())..end.min(bytes.len())).unwrap_or(&[]);
        let b = view.b_bytes(&path);
        let title = crate::model::sanitize(&path).into_owned();
        diffview::draw_bytes(f, area, &self.theme, (n.span, a), b.as_ref().map(|(s, v)| (*s, v.as_slice())), &title);
    }

    /// Keep what the last frame drew: each pane keeps the scroll it settled on, and the
    /// app the rectangles for the mouse and paging.
    pub fn set_layout(&mut self, layout: ScreenLayout) {
        self.hex.after_draw(&layout.hex);
        self.decode.after_draw(&layout.decode);
        self.diagnostics.after_draw(&layout.diagnostics);
        if let Some(scroll) = layout.help_scroll {
            self.help = Some(scroll);
        }
        if let Some(scroll) = layout.log_scroll {
            self.log_open = Some(scroll);
        }
        self.layout = layout;
    }
}
