//! The prompt line: a one-line input at the bottom of the screen (goto, search, export
//! path, overwrite confirmation) and what keys do to it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::PathBuf;

/// What a prompt asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptKind {
    /// Offset or node path.
    Goto,
    /// Hex bytes or text.
    Search,
    /// Path for the clip export.
    ExportPath,
    /// Overwrite this file? (y/n)
    ConfirmOverwrite(PathBuf),
}

/// An open prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    /// What it asks for.
    pub kind: PromptKind,
    /// Text typed so far.
    pub input: String,
}

/// What a key did to an open prompt.
#[derive(Debug, Clone, PartialEq)]
pub enum Edited {
    /// Still open, with this input.
    Open(Prompt),
    /// Submitted (Enter, or the answer key of a y/n question).
    Submit(Prompt),
    /// Cancelled with Esc (said so on the status line).
    Cancelled,
    /// Closed with Ctrl-C, silently.
    Closed,
}

impl Prompt {
    /// An empty prompt asking for `kind`.
    pub fn new(kind: PromptKind) -> Prompt {
        Prompt { kind, input: String::new() }
    }

    /// The label in front of the input.
    pub fn label(&self) -> String {
        match &self.kind {
            PromptKind::Goto => "goto (0x150, 336, +0x20, node path)> ".to_string(),
            PromptKind::Search => "search (hex: 1f 8b · text)> ".to_string(),
            PromptKind::ExportPath => "export clip to> ".to_string(),
            PromptKind::ConfirmOverwrite(path) => format!("{} exists; overwrite? (y/n)> ", path.display()),
        }
    }

    /// Apply key `k`.
    pub fn edit(mut self, k: &KeyEvent) -> Edited {
        // a y/n question takes one key
        let confirm = matches!(self.kind, PromptKind::ConfirmOverwrite(_));
        match k.code {
            KeyCode::Esc => return Edited::Cancelled,
            KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => return Edited::Closed,
            KeyCode::Enter => return Edited::Submit(self),
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Char(c) if confirm => {
                self.input = c.to_string();
                return Edited::Submit(self);
            }
            KeyCode::Char(c) => self.input.push(c),
            _ => {}
        }
        Edited::Open(self)
    }
}
