//! How often the costly steps ran, for tests that prove a command does each once (`export
//! FILE.ccs --gltf` opens and walks the file once and decodes each model once; selecting a
//! clip in the TUI decodes it once). Process-wide (one relaxed atomic add per step), so
//! tests that read them run in their own test binary, one at a time. They count only in
//! test builds (unit tests, or the `harness` feature the integration tests turn on): a
//! release build compiles [`bump`] to nothing and every count stays 0.
#![doc(hidden)]

use std::sync::atomic::{AtomicUsize, Ordering};

/// Files opened from a path (`Source::open_bounded`).
pub static FILE_OPENS: AtomicUsize = AtomicUsize::new(0);
/// CCSF chunk walks.
pub static CCSF_WALKS: AtomicUsize = AtomicUsize::new(0);
/// CCSF Model chunks decoded (either generation's decoder, any caller).
pub static CCSF_MODEL_PARSES: AtomicUsize = AtomicUsize::new(0);
/// Animations decoded through a parsed object (`Clips::decode`).
pub static ANIM_DECODES: AtomicUsize = AtomicUsize::new(0);
/// MOTN standard sequence bodies parsed (Blocks 1–5 walked, any caller).
pub static MOTN_SEQUENCE_PARSES: AtomicUsize = AtomicUsize::new(0);

/// The counts at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// [`FILE_OPENS`].
    pub file_opens: usize,
    /// [`CCSF_WALKS`].
    pub ccsf_walks: usize,
    /// [`CCSF_MODEL_PARSES`].
    pub ccsf_model_parses: usize,
    /// [`ANIM_DECODES`].
    pub anim_decodes: usize,
    /// [`MOTN_SEQUENCE_PARSES`].
    pub motn_sequence_parses: usize,
}

impl Counts {
    /// The counts now.
    pub fn now() -> Counts {
        Counts {
            file_opens: FILE_OPENS.load(Ordering::Relaxed),
            ccsf_walks: CCSF_WALKS.load(Ordering::Relaxed),
            ccsf_model_parses: CCSF_MODEL_PARSES.load(Ordering::Relaxed),
            anim_decodes: ANIM_DECODES.load(Ordering::Relaxed),
            motn_sequence_parses: MOTN_SEQUENCE_PARSES.load(Ordering::Relaxed),
        }
    }

    /// What was counted since `before`.
    pub fn since(before: Counts) -> Counts {
        let n = Counts::now();
        Counts {
            file_opens: n.file_opens - before.file_opens,
            ccsf_walks: n.ccsf_walks - before.ccsf_walks,
            ccsf_model_parses: n.ccsf_model_parses - before.ccsf_model_parses,
            anim_decodes: n.anim_decodes - before.anim_decodes,
            motn_sequence_parses: n.motn_sequence_parses - before.motn_sequence_parses,
        }
    }
}

/// Count one step (test builds only).
#[inline(always)]
pub(crate) fn bump(counter: &AtomicUsize) {
    #[cfg(any(test, feature = "harness"))]
    counter.fetch_add(1, Ordering::Relaxed);
    #[cfg(not(any(test, feature = "harness")))]
    let _ = counter;
}
