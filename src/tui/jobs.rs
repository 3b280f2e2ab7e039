//! The one runner for background work: opening archive members (to show them, or to read
//! their node names for the finder), decoding clips, comparing two files (diff mode), hashing
//! a large input for its bookmarks and probing the rest of a member listing. Each job runs
//! on a named worker thread and posts a [`Done`] to one channel; the UI thread takes the
//! results between frames, so input never blocks. This module owns every worker thread
//! and the channel; nothing else in the TUI spawns.

use super::bookmarks;
use super::find::{MemberName, member_names};
use crate::diff::Change;
use crate::formats::{AnimRef, DecodeOptions};
use crate::limits::Limits;
use crate::model::NodeId;
use crate::model::anim::Clip;
use crate::session::{ListingProber, ListingStep, Opened};
use crate::source::Source;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// Bytes one background listing step probes (about 15 ms by `pread` from the page cache).
pub const LISTING_STEP: u64 = 64 << 20;

/// Name of background threads; the TUI's panic hook leaves the terminal alone for them.
pub const WORKER: &str = "animscope-worker";

/// What finished in the background.
// One message per finished job: moving a large variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Done {
    /// An archive member opened (or failed to).
    Member {
        /// Document holding the member's node.
        doc: usize,
        /// The member's node.
        node: NodeId,
        /// The opened member.
        result: Result<Opened, String>,
    },
    /// A clip decoded (or failed to).
    Clip {
        /// Document holding the clip's node.
        doc: usize,
        /// The node carrying `anim`.
        node: NodeId,
        /// The complete clip (curves, per-key text, tables, poses): the plot, the pose
        /// view and the export prompt all use this one decode.
        result: Result<Clip, String>,
    },
    /// The node names of an archive member that is not opened (for the finder), read by
    /// opening it on a worker; the member's document is not kept.
    MemberNames {
        /// Document holding the member's node.
        doc: usize,
        /// The member's node.
        node: NodeId,
        /// Its names, or why it did not open.
        result: Result<Vec<Arc<MemberName>>, String>,
    },
    /// A probed range of the top document's unfinished member listing.
    Listing(Result<ListingStep, String>),
    /// Bookmarks of a large input, loaded after hashing it.
    Bookmarks(bookmarks::Store),
    /// The changes between the inspector's file and a second one (diff mode).
    Diff {
        /// The progress counters the comparison was started with (which comparison this is).
        progress: Arc<DiffProgress>,
        /// Every change in report order, or why the comparison stopped.
        result: Result<Vec<Change>, String>,
    },
}

/// How far a background comparison has got: aligned structure pairs compared and changes
/// found so far (the status line shows them while it runs).
#[derive(Debug, Default)]
pub struct DiffProgress {
    /// Structure pairs compared (shared with [`crate::diff::Options::progress`]).
    pub compared: Arc<AtomicU64>,
    /// Changes found.
    pub changes: AtomicU64,
}

/// Runs background jobs and hands back their results in the order they finish.
#[derive(Debug)]
pub struct Jobs {
    tx: Sender<Done>,
    rx: Receiver<Done>,
    /// Jobs started and not finished (the member listing is not counted).
    in_flight: usize,
    /// Set when the runner is dropped: the background prober and bookmark hashing stop.
    stop: Arc<AtomicBool>,
    /// Budget of member opening and decoding.
    limits: Limits,
}

impl Jobs {
    /// The memory budget decodes and member opens draw on (`--limit memory=`).
    pub fn memory_budget(&self) -> u64 {
        self.limits.max_memory
    }
}

impl Drop for Jobs {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Jobs {
    /// The budgets background work runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A runner whose jobs draw from `limits`.
    pub fn new(limits: Limits) -> Jobs {
        let (tx, rx) = channel();
        Jobs { tx, rx, in_flight: 0, stop: Arc::new(AtomicBool::new(false)), limits }
    }

    /// Jobs other than the member listing still running.
    pub fn working(&self) -> bool {
        self.in_flight > 0
    }

    /// A finished result, if one is waiting.
    pub fn try_next(&mut self) -> Option<Done> {
        let d = self.rx.try_recv().ok()?;
        self.received(&d);
        Some(d)
    }

    /// The next finished result, waiting at most `timeout` for it.
    pub fn next_within(&mut self, timeout: Duration) -> Option<Done> {
        let d = self.rx.recv_timeout(timeout).ok()?;
        self.received(&d);
        Some(d)
    }

    /// Count a job finished: every result but a listing step (the listing is not counted).
    fn received(&mut self, d: &Done) {
        if !matches!(d, Done::Listing(_)) {
            self.in_flight = self.in_flight.saturating_sub(1);
        }
    }

    /// Run `f` on a worker as a counted job.
    fn start(&mut self, f: impl FnOnce() + Send + 'static) -> Result<(), String> {
        self.in_flight += 1;
        let spawned = spawn_worker(f);
        if spawned.is_err() {
            self.in_flight -= 1;
        }
        spawned
    }

    /// Open member `n` of document `d` (`opened`).
    pub fn open_member(&mut self, opened: Arc<Opened>, d: usize, n: NodeId) -> Result<(), String> {
        let tx = self.tx.clone();
        let limits = self.limits;
        self.start(move || {
            let result = guarded(|| opened.open_member(n, &limits).map_err(|e| e.to_string()));
            // let go of the document before saying so (see `decode_clip`)
            drop(opened);
            let _ = tx.send(Done::Member { doc: d, node: n, result });
        })
    }

    /// Open member `n` of document `d` (`opened`) to read its node names for the finder.
    pub fn read_member_names(&mut self, opened: Arc<Opened>, d: usize, n: NodeId) -> Result<(), String> {
        let tx = self.tx.clone();
        let limits = self.limits;
        self.start(move || {
            let result = guarded(|| {
                let m = opened.open_member(n, &limits).map_err(|e| e.to_string())?;
                Ok(member_names(m.doc()))
            });
            drop(opened);
            let _ = tx.send(Done::MemberNames { doc: d, node: n, result });
        })
    }

    /// Decode the animation `anim` of node `n` in document `d` (`opened`) once, complete:
    /// the plot, the pose view and the export prompt share it, so selecting a clip and
    /// posing or exporting it decodes it once. Where the format makes them on demand
    /// (`tracks_on_demand`), the curves are stored and the rest (table rows, a key's
    /// detail text, poses) is made from the same decode when it is looked at.
    ///
    /// The decode, and the curves it stores, draw on what is left of `opened`'s budget (the
    /// run's, shared by the members opened from it and the clips kept, which hold their
    /// bytes until they are dropped), under `opened`'s limits (a member's: what its enclosing
    /// documents left), as the CLI decodes (`Opened::decode_held`); the budget error says so
    /// when they do not fit.
    pub fn decode_clip(&mut self, opened: Arc<Opened>, anim: AnimRef, d: usize, n: NodeId) -> Result<(), String> {
        let tx = self.tx.clone();
        self.start(move || {
            let opts = DecodeOptions { tracks_on_demand: true, ..DecodeOptions::default() };
            let result = guarded(|| {
                let mut clip = opened.decode_held(&anim, &opts).map_err(|e| e.to_string())?;
                // the curves are reserved before they are stored, then the keys made with
                // them; the clip holds the whole of it
                let samples = clip.curve_samples_bytes();
                let budget = opened.budget();
                let mut held = budget.reserve("the clip's samples", samples, 0).map_err(|e| e.to_string())?;
                clip.store_curves();
                let more = clip.stored_bytes().saturating_sub(samples);
                held.grow("the clip's samples and keys", more, 0).map_err(|e| e.to_string())?;
                clip.held = crate::limits::Held::new(held);
                Ok(clip)
            });
            // The inspector builds a document's nodes only while no worker holds it: let go
            // of it before saying the work is done, so what is built on that news is built.
            drop(opened);
            let _ = tx.send(Done::Clip { doc: d, node: n, result });
        })
    }

    /// Probe the rest of a member listing with `prober`, one [`Done::Listing`] per step.
    /// Not counted as a job: the workspace tracks the listing's progress itself.
    pub fn list(&mut self, mut prober: ListingProber) -> Result<(), String> {
        let tx = self.tx.clone();
        let stop = Arc::clone(&self.stop);
        spawn_worker(move || {
            // Probes run ahead of the UI (each result is a few offsets); the thread ends at
            // the end of the file, on an error, or when the runner is gone.
            while let Some(step) = prober.next_step_unless(&stop) {
                let step = step.map_err(|e| format!("listing stopped: {e}"));
                let failed = step.is_err();
                if tx.send(Done::Listing(step)).is_err() || failed {
                    break;
                }
            }
        })
    }

    /// Compare `a` with `b` (on copies of the documents: the walk builds and drops nodes),
    /// counting in `progress`; stops early once the runner is gone.
    pub fn diff(&mut self, a: Arc<Opened>, b: Arc<Opened>, progress: Arc<DiffProgress>) -> Result<(), String> {
        let tx = self.tx.clone();
        let stop = Arc::clone(&self.stop);
        let limits = self.limits;
        self.start(move || {
            // Copies at once, so the inspector's own documents are not held (their nodes
            // are built only while no worker holds them).
            let (mut a, mut b) = (a.clone_document(), b.clone_document());
            let opts =
                crate::diff::Options { limits, progress: Some(Arc::clone(&progress.compared)), ..Default::default() };
            let result = guarded(|| {
                let mut out = Vec::new();
                crate::diff::diff_roots(&mut *a, &mut *b, &opts, &mut |c| {
                    if stop.load(Ordering::Relaxed) {
                        return Err(std::io::Error::from(std::io::ErrorKind::Interrupted));
                    }
                    progress.changes.fetch_add(1, Ordering::Relaxed);
                    out.push(c.clone());
                    Ok(())
                })
                .map_err(|e| format!("comparison stopped: {e}"))?;
                Ok(out)
            });
            let _ = tx.send(Done::Diff { progress, result });
        })
    }

    /// Hash `source` (by `pread`) and load its bookmarks from `dir`.
    pub fn hash_bookmarks(&mut self, source: Arc<Source>, dir: PathBuf) {
        let tx = self.tx.clone();
        let stop = Arc::clone(&self.stop);
        let _ = self.start(move || {
            // gives up (reads fail) once the runner is gone
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
    }
}

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
