//! animscope: inspect game animation and scene archives byte by byte.
//!
//! Data flows one way:
//!
//! ```text
//! file ─► Source (memmap2, read-only) ─► &[u8]
//!            │
//!            ▼
//!   formats               sniff / open -> Parsed: document, animations, decode,
//!                         members, scene, check   (one folder per family)
//!            │
//!            ▼
//!   model (format-agnostic): Document { nodes with byte spans, typed fields,
//!                            diagnostics, walk trace }, anim::{Clip, Track, PoseSeq}
//!            │
//!   ┌────────┼─────────┬──────────┐
//!  tui/     cli/     export/    survey
//! ```
//!
//! Consumers see `model`, `session` and the `formats` dispatch only; a format's on-disk
//! structs never leave its folder. All reads of input bytes are bounds-checked
//! ([`bytes::Bytes`]) and bounded by [`limits::Limits`].
#![deny(missing_docs)]

pub mod bytes;
pub mod cli;
pub mod counters;
pub mod demo;
pub mod diff;
#[cfg(test)]
mod docs_tests;
pub mod edit;
pub mod error;
pub mod export;
pub mod fixtures;
pub mod formats;
#[cfg(feature = "harness")]
pub mod harness;
pub mod import;
pub mod layout;
pub mod limits;
pub mod model;
pub mod session;
pub mod source;
pub mod stdio;
pub mod survey;
#[cfg(any(test, feature = "harness"))]
pub mod test_support;
pub mod text;
pub mod tui;
pub mod wire;
