//! Budgets that bound every parse and decode, so hostile counts cannot exhaust memory or time.

use crate::error::{ErrorKind, ParseError, Result};

/// Upper bounds applied while parsing and decoding untrusted input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most nodes one document may hold.
    pub max_nodes: usize,
    /// Most fields one document may hold.
    pub max_fields: usize,
    /// Most keys or keyframes one clip may hold.
    pub max_keys: usize,
    /// Most bytes one inflated member may have (gzip bombs stop here).
    pub max_inflated: u64,
    /// Most bytes the inflated-member cache keeps.
    pub cache_bytes: u64,
    /// Abstract decode work units (e.g. words decoded) one clip may take.
    pub max_decode_work: u64,
    /// Deepest chain (parent links, targets, nested containers) followed.
    pub max_depth: usize,
    /// Most bytes an archive's `describe` probes eagerly for members (gzarc); the rest is
    /// covered by a "not yet listed" placeholder node and listed later in steps
    /// (`formats::gzarc::continue_listing`). Unbounded by default (complete listings for
    /// `tree`, `survey`, `check`); interactive consumers use [`Limits::interactive`].
    pub list_budget: u64,
    /// Most bytes one input file is read into memory (files below the map threshold,
    /// `--no-mmap`). A larger file is refused; a file that grows while read is read only
    /// up to its size at open. Mapped files are not copied and not bounded by this.
    pub max_input: u64,
    /// Most bytes a side file given on the command line (a skeleton, a frames file) may
    /// have: these are read whole into memory.
    pub max_side_file: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: 4_000_000,
            max_fields: 16_000_000,
            max_keys: 4_000_000,
            max_inflated: 128 << 20,
            cache_bytes: 64 << 20,
            max_decode_work: 200_000_000,
            max_depth: 64,
            list_budget: u64::MAX,
            max_input: 4 << 30,
            max_side_file: 64 << 20,
        }
    }
}

/// Eager listing budget for interactive opens (`info`, the TUI's first frame): 16 MiB of
/// boundaries probe in a few milliseconds even from a cold page cache.
pub const INTERACTIVE_LIST_BUDGET: u64 = 16 << 20;

impl Limits {
    /// Defaults with a small eager listing budget ([`INTERACTIVE_LIST_BUDGET`]), for opens
    /// that must show something at once and list the rest progressively.
    pub fn interactive() -> Limits {
        Limits { list_budget: INTERACTIVE_LIST_BUDGET, ..Limits::default() }
    }

    /// Fail with `LimitExceeded` at `offset` when `value > max`.
    pub fn check(what: &'static str, value: u64, max: u64, offset: u64) -> Result<()> {
        if value > max { Err(ParseError::new(offset, ErrorKind::LimitExceeded { what, value, max })) } else { Ok(()) }
    }
}
