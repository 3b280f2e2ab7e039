//! The workspace: every document the inspector has open (the file, and the archive
//! members opened from it), the loads in progress (members opening, clips decoding, the
//! top document's member listing), and whether the file changed on disk. Background work
//! itself runs on the [`Jobs`] runner; the workspace records what was asked and takes the
//! results.

use super::find::MemberName;
use super::jobs::{Done, Jobs};
use crate::model::anim::Clip;
use crate::model::{Document, NodeId};
use crate::session::{ListingProgress, ListingStep, Opened};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

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

/// One opened document (the top file or a nested member) and the positions in it that
/// several panes share.
#[derive(Debug)]
pub struct DocEntry {
    /// The bytes, format and document.
    pub opened: Arc<Opened>,
    /// The node (document, node) whose member this is.
    pub parent: Option<(usize, NodeId)>,
    /// Hex cursor.
    pub cursor: u64,
    /// Current walk step.
    pub walk_step: Option<usize>,
    /// Sorted distinct field starts (for `]`/`[`).
    pub field_starts: Vec<u64>,
    /// Sorted distinct node starts (for `}`/`{`).
    pub node_starts: Vec<u64>,
}

impl DocEntry {
    pub(crate) fn new(opened: Arc<Opened>, parent: Option<(usize, NodeId)>) -> DocEntry {
        let mut e =
            DocEntry { opened, parent, cursor: 0, walk_step: None, field_starts: Vec::new(), node_starts: Vec::new() };
        e.index_starts();
        e
    }

    /// Rebuild the sorted field and node starts (after the document grew).
    pub(super) fn index_starts(&mut self) {
        let doc = &self.opened.doc();
        let mut field_starts: Vec<u64> = doc.live_nodes().flat_map(|n| n.fields.iter().map(|f| f.span.start)).collect();
        field_starts.sort_unstable();
        field_starts.dedup();
        let mut node_starts: Vec<u64> = doc.live_nodes().skip(1).map(|n| n.span.start).collect();
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

/// Decoded clips kept for quick re-selection.
pub const KEEP_CLIPS: usize = 4;

/// The opened documents and the background loads that feed them.
#[derive(Debug)]
pub struct Workspace {
    /// Opened documents; `docs[0]` is the file.
    pub docs: Vec<DocEntry>,
    /// Member loads by (document, node).
    pub members: HashMap<(usize, NodeId), Load<usize>>,
    /// Decoded clips by (document, node carrying `anim`).
    pub clips: HashMap<(usize, NodeId), Load<Arc<Clip>>>,
    /// The clips in the order they were asked for (oldest first).
    clip_order: std::collections::VecDeque<(usize, NodeId)>,
    /// Progress of the top document's member listing while it continues in the
    /// background (None: complete).
    pub listing: Option<ListingProgress>,
    /// Listing steps received from the background, not applied yet.
    listing_queue: VecDeque<ListingStep>,
    /// The file changed on disk since it was opened: its bytes are not read again.
    pub source_changed: bool,
    /// Node names inside archive members that are listed but not opened, read for the
    /// finder by (document, member node).
    pub member_names: HashMap<(usize, NodeId), Load<MemberNames>>,
    /// Members whose names are still to be read (at most [`NAME_JOBS`] at a time).
    names_queue: VecDeque<(usize, NodeId)>,
    /// Member-name jobs running.
    names_running: usize,
}

/// The node names read from one member.
pub type MemberNames = Arc<[Arc<MemberName>]>;

/// Members read for their names at the same time (the machine's other work, the UI and
/// decodes keep the rest).
pub const NAME_JOBS: usize = 2;

impl Workspace {
    /// A workspace on the file `opened`.
    pub fn new(opened: Arc<Opened>) -> Workspace {
        let listing = Some(opened.listing_progress()).filter(|p| !p.complete());
        Workspace {
            docs: vec![DocEntry::new(opened, None)],
            members: HashMap::new(),
            clips: HashMap::new(),
            clip_order: std::collections::VecDeque::new(),
            listing,
            listing_queue: VecDeque::new(),
            source_changed: false,
            member_names: HashMap::new(),
            names_queue: VecDeque::new(),
            names_running: 0,
        }
    }

    /// Queue every listed member that is neither opened nor read for its names yet, and
    /// start reading (the finder is open: what they hold is searched as it arrives).
    pub fn read_member_names(&mut self, jobs: &mut Jobs) {
        for (d, e) in self.docs.iter().enumerate() {
            for n in e.doc().live_nodes().filter(|n| n.member.is_some()) {
                let key = (d, n.id);
                if self.member_names.contains_key(&key) || self.members.contains_key(&key) {
                    continue;
                }
                self.member_names.insert(key, Load::Pending(Instant::now()));
                self.names_queue.push_back(key);
            }
        }
        self.pump_names(jobs);
    }

    /// Start queued member-name reads while fewer than [`NAME_JOBS`] run.
    fn pump_names(&mut self, jobs: &mut Jobs) {
        while self.names_running < NAME_JOBS {
            let Some((d, n)) = self.names_queue.pop_front() else { break };
            let Some(e) = self.docs.get(d) else { continue };
            if self.bytes(d).is_none() {
                self.member_names.insert((d, n), Load::Failed("file changed on disk".into()));
                continue;
            }
            match jobs.read_member_names(Arc::clone(&e.opened), d, n) {
                Ok(()) => self.names_running += 1,
                Err(e) => {
                    self.member_names.insert((d, n), Load::Failed(e));
                }
            }
        }
    }

    /// Members still to be read for their names (queued or being read), and how many were
    /// asked for in all.
    pub fn names_progress(&self) -> (usize, usize) {
        (self.names_queue.len() + self.names_running, self.member_names.len())
    }

    /// Document entry `d` (the file's when `d` is out of range).
    pub fn entry(&self, d: usize) -> &DocEntry {
        self.docs.get(d).or_else(|| self.docs.first()).unwrap_or_else(|| unreachable_doc())
    }

    /// Document entry `d` to change (the file's when `d` is out of range).
    pub fn entry_mut(&mut self, d: usize) -> &mut DocEntry {
        let i = if d < self.docs.len() { d } else { 0 };
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

    /// The node carrying the animation for the selection (document, node): the node or
    /// its nearest ancestor with an `anim` key.
    pub fn anim_node(&self, (d, n): (usize, NodeId)) -> Option<NodeId> {
        let doc = self.entry(d).doc();
        let mut cur = doc.node(n);
        for _ in 0..=doc.nodes.len() {
            let n = cur?;
            if n.anim.is_some() {
                return Some(n.id);
            }
            cur = n.parent.and_then(|p| doc.node(p));
        }
        None
    }

    /// The clip for the selection (document, node), if its decode was started.
    pub fn clip(&self, sel: (usize, NodeId)) -> Option<&Load<Arc<Clip>>> {
        let n = self.anim_node(sel)?;
        self.clips.get(&(sel.0, n))
    }

    /// Listing steps wait to be applied.
    pub fn listing_queued(&self) -> bool {
        !self.listing_queue.is_empty()
    }

    /// Open the member at (document, node) in the background, unless it was asked for.
    pub fn start_member(&mut self, jobs: &mut Jobs, d: usize, n: NodeId) {
        if self.members.contains_key(&(d, n)) {
            return;
        }
        let Some(e) = self.docs.get(d) else { return };
        if self.bytes(d).is_none() {
            self.members.insert((d, n), Load::Failed("file changed on disk; member not opened".into()));
            return;
        }
        let opened = Arc::clone(&e.opened);
        self.members.insert((d, n), Load::Pending(Instant::now()));
        if let Err(e) = jobs.open_member(opened, d, n) {
            self.members.insert((d, n), Load::Failed(e));
        }
    }

    /// Decode the clip of (document, node carrying `anim`) in the background, unless it
    /// was asked for.
    pub fn start_clip(&mut self, jobs: &mut Jobs, d: usize, n: NodeId) {
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
        self.forget_old_clips(jobs.memory_budget());
        self.clips.insert((d, n), Load::Pending(Instant::now()));
        self.clip_order.push_back((d, n));
        if let Err(e) = jobs.decode_clip(opened, anim, d, n) {
            self.clips.insert((d, n), Load::Failed(e));
        }
    }

    /// Document `d` was replaced (parsed again from edited bytes): its decoded clips and
    /// the names read from its members are for the bytes before and are dropped.
    pub fn forget_doc(&mut self, d: usize) {
        self.clips.retain(|(cd, _), _| *cd != d);
        self.clip_order.retain(|(cd, _)| *cd != d);
        self.member_names.retain(|(md, _), l| *md != d || matches!(l, Load::Pending(_)));
    }

    /// Bytes the decoded clips kept hold ([`Clip::stored_bytes`]).
    pub fn clips_held(&self) -> u64 {
        self.clips.values().map(|c| if let Load::Ready(c) = c { c.stored_bytes() } else { 0 }).sum()
    }

    /// Keep the decoded clips of the last [`KEEP_CLIPS`] selections (a clip with poses can
    /// take megabytes; browsing a thousand sequences must not keep them all), and of those
    /// only as many, newest first, as leave half the memory `budget` to the next decode
    /// (which is given what they leave). Clips still decoding stay.
    fn forget_old_clips(&mut self, budget: u64) {
        let mut guard = self.clip_order.len();
        while (self.clip_order.len() >= KEEP_CLIPS || self.clips_held() > budget / 2) && guard > 0 {
            guard -= 1;
            let Some(key) = self.clip_order.pop_front() else { break };
            if matches!(self.clips.get(&key), Some(Load::Pending(_))) {
                self.clip_order.push_back(key);
            } else {
                self.clips.remove(&key);
            }
        }
    }

    /// Take one finished background result; the error to show, if it failed.
    pub fn finish(&mut self, d: Done) -> Option<String> {
        let mut error = None;
        match d {
            Done::Listing(Ok(step)) => {
                if self.listing.is_some() {
                    self.listing_queue.push_back(step);
                }
            }
            Done::Listing(Err(e)) => {
                self.listing = None;
                self.listing_queue.clear();
                error = Some(e);
            }
            Done::Member { doc, node, result } => {
                let state = match result {
                    Ok(o) => {
                        self.docs.push(DocEntry::new(Arc::new(o), Some((doc, node))));
                        Load::Ready(self.docs.len() - 1)
                    }
                    Err(e) => {
                        error = Some(e.clone());
                        Load::Failed(e)
                    }
                };
                self.members.insert((doc, node), state);
            }
            Done::Clip { doc, node, result } => {
                let state = match result {
                    Ok(c) => Load::Ready(Arc::new(c)),
                    Err(e) => Load::Failed(e),
                };
                self.clips.insert((doc, node), state);
            }
            Done::MemberNames { doc, node, result } => {
                self.names_running = self.names_running.saturating_sub(1);
                // a member that does not open has no names to find; that is no error to
                // show (opening it from the tree says why)
                let state = match result {
                    Ok(v) => Load::Ready(Arc::from(v)),
                    Err(e) => Load::Failed(e),
                };
                self.member_names.insert((doc, node), state);
            }
            // the bookmarks are the diagnostics pane's, the changes the diff mode's
            Done::Bookmarks(_) | Done::Diff { .. } => {}
        }
        error
    }

    /// Take one finished result as [`Workspace::finish`] does, starting the next queued
    /// member-name reads.
    pub fn finish_with(&mut self, d: Done, jobs: &mut Jobs) -> Option<String> {
        let e = self.finish(d);
        self.pump_names(jobs);
        e
    }

    /// Apply queued listing steps to the top document until `deadline` (at least one).
    /// Returns None when nothing was applied, else whether `sel` was the placeholder for
    /// the unlisted bytes: its id is gone, so the caller selects what now covers the cursor.
    pub fn apply_listing_steps(&mut self, deadline: Instant, sel: (usize, NodeId)) -> Option<bool> {
        let e = self.docs.first_mut()?;
        let sel_unlisted = sel.0 == 0 && e.opened.unlisted_node() == Some(sel.1);
        if Arc::get_mut(&mut e.opened).is_none() {
            // A worker still reads the document: apply to a copy (the worker keeps its own).
            e.opened = Arc::new(e.opened.clone_document());
        }
        let o = Arc::get_mut(&mut e.opened)?;
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
        Some(sel_unlisted)
    }

    /// Note the file changed underneath; returns the message to show the first time.
    pub fn check_source(&mut self) -> Option<String> {
        if !self.source_changed && self.docs.first().is_some_and(|e| e.opened.source().changed()) {
            self.source_changed = true;
            return Some(
                "the file changed on disk: its bytes are no longer shown (reopen it); the parsed tree stays".into(),
            );
        }
        None
    }
}

fn unreachable_doc() -> &'static DocEntry {
    // docs always holds the opened file; this exists only to avoid a panic path.
    static EMPTY: std::sync::OnceLock<DocEntry> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| {
        let src = crate::source::Source::from_vec("empty", vec![0]);
        let doc = Document::new("raw", "empty", "file", 1, &crate::limits::Limits::default());
        DocEntry::new(
            Arc::new(Opened::from_parsed(crate::formats::with_document(Arc::new(src), doc), Vec::new())),
            None,
        )
    })
}
