//! Errors as data: every parse failure names where it happened (a structure path) and the
//! absolute byte offset, and carries its numbers so tests can assert them.

use crate::text::{Sanitized, sanitize};
use std::fmt;

/// What went wrong while reading untrusted bytes. Numbers are kept so tests and callers
/// can match on them; `Display` is lowercase and names the offset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A read of `len` bytes at `offset` would pass the end of the data (`available` bytes).
    #[error("read of {len} bytes at 0x{offset:x} passes the end (0x{available:x} bytes)")]
    OutOfBounds {
        /// Absolute offset of the read.
        offset: u64,
        /// Bytes wanted.
        len: u64,
        /// Bytes in the data.
        available: u64,
    },
    /// A count read from the file is larger than what the remaining bytes can hold or a limit allows.
    #[error("{what} count {count} exceeds {max}")]
    CountTooLarge {
        /// What is being counted.
        what: &'static str,
        /// The count found.
        count: u64,
        /// The largest acceptable count.
        max: u64,
    },
    /// An offset read from the file points outside the data or its parent.
    #[error("{what} offset 0x{offset:x} is outside 0x{start:x}..0x{end:x}")]
    OffsetOutOfRange {
        /// What the offset locates.
        what: &'static str,
        /// The offset found.
        offset: u64,
        /// Start of the allowed range.
        start: u64,
        /// End of the allowed range.
        end: u64,
    },
    /// A magic number or tag did not match.
    #[error("bad magic: expected {expected}, found {found}")]
    BadMagic {
        /// What was expected.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A field has a value the format does not allow.
    #[error("{what} is {value}: {why}")]
    BadValue {
        /// The field.
        what: &'static str,
        /// Its value, formatted.
        value: String,
        /// Why it is rejected.
        why: String,
    },
    /// The memory budget of one document ran out (`Limits::max_memory`).
    #[error(
        "memory budget exceeded: the document's nodes and fields need more than {} (--limit memory=SIZE raises it)",
        human_size(*.max)
    )]
    MemoryBudget {
        /// Estimated bytes needed when it ran out (at least).
        needed: u64,
        /// The budget.
        max: u64,
    },
    /// A decoded clip's samples and poses would take more than the memory budget
    /// (`Limits::max_memory`): spent before anything is allocated.
    #[error(
        "memory budget exceeded: {what} would need {} MiB, more than {} (--limit memory=SIZE raises it)",
        .needed.div_ceil(1 << 20),
        human_size(*.max)
    )]
    ClipBudget {
        /// What would be held (`the anime's samples and poses`).
        what: &'static str,
        /// Estimated bytes needed.
        needed: u64,
        /// The budget.
        max: u64,
    },
    /// An archive member inflates past its cap: the inflated-member limit, or what is left
    /// of the memory budget (nested members share their parent's).
    #[error(
        "{}: the member inflates to more than {} (--limit {key}=SIZE raises it)",
        if *.key == "memory" { "memory budget exceeded" } else { "inflated-member limit exceeded" },
        human_size(*.max)
    )]
    InflateBudget {
        /// The cap that bound.
        max: u64,
        /// The `--limit` key that sets it (`memory` or `inflated`).
        key: &'static str,
    },
    /// A `Limits` budget ran out.
    #[error("limit exceeded: {what} {value} > {max}")]
    LimitExceeded {
        /// The budget.
        what: &'static str,
        /// How much was needed.
        value: u64,
        /// The budget's size.
        max: u64,
    },
    /// A chain (parent links, targets) loops or is too deep.
    #[error("{what} chain loops or is deeper than {max} at entry {at}")]
    Cycle {
        /// What chain.
        what: &'static str,
        /// The entry where it was noticed.
        at: u64,
        /// The depth limit.
        max: u64,
    },
    /// Decompression failed.
    #[error("inflate failed: {0}")]
    Inflate(String),
    /// The requested item (clip, sequence, node) does not exist.
    #[error("not found: {0}")]
    NotFound(String),
    /// The operation is not supported for this input (honestly unknown layout).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Anything else, described.
    #[error("{0}")]
    Other(String),
}

/// A parse error: the structure path (`ccsf > model[MDL_a] > mmat[2]`), the absolute
/// offset in the bytes being parsed, and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Absolute byte offset in the data where the problem was found.
    pub offset: u64,
    /// Structure path, outermost first, joined with ` > ` when shown.
    pub path: String,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl ParseError {
    /// A new error at `offset` with an empty path.
    pub fn new(offset: u64, kind: ErrorKind) -> Self {
        ParseError { offset, path: String::new(), kind }
    }

    /// Whether this is the memory budget running out (`--limit memory=` raises it): the
    /// command stops there, where other errors may be reported and passed over.
    pub fn is_memory_budget(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::MemoryBudget { .. }
                | ErrorKind::ClipBudget { .. }
                | ErrorKind::InflateBudget { key: "memory", .. }
        )
    }

    /// Prefix the path with an outer structure name (callers add context on the way out).
    #[must_use]
    pub fn within(mut self, outer: impl AsRef<str>) -> Self {
        let outer = outer.as_ref();
        if self.path.is_empty() {
            self.path = outer.to_string();
        } else if !outer.is_empty() {
            self.path = format!("{outer} > {}", self.path);
        }
        self
    }
}

/// Shown with control characters from the file (names in the path, found magic, values)
/// escaped, so an error printed to a terminal cannot drive it.
impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = Sanitized(&self.kind);
        if self.path.is_empty() {
            write!(f, "{kind} at 0x{:x}", self.offset)
        } else {
            write!(f, "{}: {kind} at 0x{:x}", sanitize(&self.path), self.offset)
        }
    }
}

impl std::error::Error for ParseError {}

/// Shorthand for results of parsing.
pub type Result<T, E = ParseError> = std::result::Result<T, E>;

/// Extension to add structure context to a `Result`.
pub trait Context<T> {
    /// Prefix the error's path with `outer`.
    fn within(self, outer: impl AsRef<str>) -> Result<T>;
}

impl<T> Context<T> for Result<T> {
    fn within(self, outer: impl AsRef<str>) -> Result<T> {
        self.map_err(|e| e.within(outer))
    }
}

/// `96 MiB`, `64 KiB`, `100 bytes`: a budget as a user would give it to `--limit`.
fn human_size(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}
