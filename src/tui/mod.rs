//! The interactive inspector (ratatui + crossterm).

use crate::session::Opened;
use std::path::Path;

/// Run the TUI on an opened document until the user quits.
pub fn run(opened: Opened, _keymap: Option<&Path>) -> std::io::Result<()> {
    // Placeholder until the TUI lands: print the tree so the command is still useful.
    print!("{}", crate::cli::dump::document_text(&opened.doc, crate::model::NodeId::ROOT, Some(3), false));
    Ok(())
}
