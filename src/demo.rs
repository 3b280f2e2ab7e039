//! The embedded demo archive: a synthetic bundle built by the project's own writers
//! (`animscope gen-fixtures` regenerates `fixtures/demo.bin`), opened when the TUI is
//! started without a file.

use crate::limits::Limits;
use crate::session::{OpenError, Opened};
use crate::source::Source;
use std::sync::Arc;

/// The demo archive's bytes.
pub static DEMO: &[u8] = include_bytes!("../fixtures/demo.bin");

/// Open the demo archive within the command's `limits`.
pub fn open(limits: &Limits) -> Result<Opened, OpenError> {
    Opened::from_source(Arc::new(Source::from_static("demo.bin", DEMO)), None, limits, Vec::new())
}
