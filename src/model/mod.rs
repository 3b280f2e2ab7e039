//! The format-agnostic model every consumer sees: a [`Document`] tree of [`Node`]s with
//! absolute byte [`Span`]s and typed [`Field`] values, [`Diagnostic`]s, a replayable walk
//! trace, and animation data in [`anim`].
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod anim;
pub mod build;
mod diag;
mod document;
pub mod image;
mod index;
pub mod layout;
pub mod mesh;
mod span;
mod walk;

mod value;

pub use crate::text::{Sanitized, is_unsafe_char, sanitize};
pub use diag::{Diagnostic, Severity, WalkStep};
pub use document::{Annotate, BudgetExceeded, Document, Expand, Field, Node, NodeId, PathDisplay, USER_LAYOUT_NOTE};
pub use index::IntervalIndex;
pub use span::{BitSpan, Span};
pub use value::{Meaning, Raw, Value, escape_bytes as escape_text, fmt_fixed, fmt_num, write_fixed, write_num};
pub use walk::Walk;
