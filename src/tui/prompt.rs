//! The prompt line: a one-line editor at the bottom of the screen (goto, search, export
//! path, find, overwrite confirmation) and what keys do to it.
//!
//! Editing is `tui-input`'s (grapheme-aware cursor, word moves, kill and yank); the keys
//! are readline's: Ctrl-A/E or Home/End, Left/Right or Ctrl-B/F, Alt-B/F by word, Ctrl-U
//! kills to the start, Ctrl-K to the end, Ctrl-W or Alt-Backspace the word before, Ctrl-Y
//! yanks, Delete/Ctrl-D deletes forward. Each prompt keeps its own history (Up/Down, or
//! Ctrl-P/N in the finder, where Up/Down move through the results); Tab completes file
//! paths in the export prompt.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tui_input::{Input, InputRequest};

/// Entries kept per prompt history.
const HISTORY_MAX: usize = 100;

/// Completion candidates listed on the prompt line at most.
const CANDIDATES_SHOWN: usize = 8;

/// What a prompt asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptKind {
    /// Offset or node path.
    Goto,
    /// Hex bytes or text.
    Search,
    /// Path for the clip export.
    ExportPath,
    /// A fuzzy name to find among the nodes of every opened document.
    Find,
    /// Overwrite this file? (y/n)
    ConfirmOverwrite(PathBuf),
    /// The export path's folder does not exist: create it? (y/n)
    ConfirmCreateDir(PathBuf),
    /// The second file of diff mode.
    DiffFile,
    /// Path for the raw bytes `span` of document `doc` (a node without animation, or the
    /// shift-selected range).
    ExportBytes {
        /// Document the bytes are in.
        doc: usize,
        /// The bytes.
        span: crate::model::Span,
    },
    /// A name for the bookmark at this offset of the selected document's bytes.
    BookmarkName(u64),
    /// The decode pane's channel filter (applied as it is typed); the filter before it
    /// was opened, put back on Esc.
    ChannelFilter(String),
    /// A user layout field (`TYPE NAME`) to add at this offset (the layout builder).
    LayoutField(u64),
    /// The name of the user layout to save, and where: `places[at]` (Tab moves on).
    LayoutName {
        /// The folders it may be saved in.
        places: Vec<LayoutPlace>,
        /// The one chosen.
        at: usize,
    },
    /// A frame of the decoded clip to go to (the clip's last frame said).
    Frame(usize),
    /// A layout file of this name exists in this folder: replace it? (y/n)
    ConfirmLayoutReplace(String, PathBuf),
    /// A new value for field `index` of `node` in document `doc` (`label` names it).
    EditField {
        /// The document.
        doc: usize,
        /// The node whose field it is.
        node: crate::model::NodeId,
        /// Index in the node's fields.
        index: usize,
        /// The field as the prompt names it.
        label: String,
    },
    /// Bytes (hex) to lay at `offset` of document `doc`.
    EditBytes {
        /// The document.
        doc: usize,
        /// Where the bytes go.
        offset: u64,
    },
    /// The path to write the edited file to.
    EditWritePath,
    /// Write the edited file to this path? (y/n): it exists (`overwrite`), or its check
    /// found what the original's did not (`force`).
    ConfirmEditWrite {
        /// The output.
        path: PathBuf,
        /// Replace the file there.
        overwrite: bool,
        /// Write past new findings.
        force: bool,
    },
}

/// A folder the layout builder can save in.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutPlace {
    /// What it is to the user ("your config folder", "the file's folder").
    pub what: &'static str,
    /// The folder.
    pub dir: PathBuf,
}

impl PromptKind {
    /// The history this kind of prompt shares (None: a one-key question keeps none).
    fn history_slot(&self) -> Option<u8> {
        match self {
            PromptKind::Goto => Some(0),
            PromptKind::Search => Some(1),
            PromptKind::ExportPath => Some(2),
            PromptKind::Find => Some(3),
            PromptKind::ConfirmOverwrite(_)
            | PromptKind::ConfirmCreateDir(_)
            | PromptKind::ConfirmLayoutReplace(..)
            | PromptKind::ConfirmEditWrite { .. } => None,
            PromptKind::DiffFile => Some(4),
            // paths: the same history as the clip export's
            PromptKind::ExportBytes { .. } => Some(2),
            PromptKind::BookmarkName(_) => Some(5),
            PromptKind::ChannelFilter(_) => Some(6),
            PromptKind::LayoutField(_) => Some(7),
            PromptKind::LayoutName { .. } => Some(8),
            PromptKind::Frame(_) => Some(9),
            PromptKind::EditField { .. } => Some(10),
            PromptKind::EditBytes { .. } => Some(11),
            PromptKind::EditWritePath => Some(2),
        }
    }
}

/// What was submitted at each kind of prompt, oldest first (kept for the session).
#[derive(Debug, Clone, Default)]
pub struct History {
    lines: HashMap<u8, Vec<String>>,
}

impl History {
    /// Remember `line` submitted at a `kind` prompt (an empty line or a repeat of the last
    /// one is not kept twice).
    pub fn push(&mut self, kind: &PromptKind, line: &str) {
        let Some(slot) = kind.history_slot() else { return };
        if line.trim().is_empty() {
            return;
        }
        let v = self.lines.entry(slot).or_default();
        v.retain(|l| l != line);
        v.push(line.to_string());
        if v.len() > HISTORY_MAX {
            v.remove(0);
        }
    }

    /// The lines of `kind`'s history, oldest first.
    pub fn of(&self, kind: &PromptKind) -> &[String] {
        kind.history_slot().and_then(|s| self.lines.get(&s)).map_or(&[], Vec::as_slice)
    }
}

/// An open prompt.
#[derive(Debug, Clone)]
pub struct Prompt {
    /// What it asks for.
    pub kind: PromptKind,
    /// The line being edited and its cursor.
    pub line: Input,
    /// This kind's history when the prompt opened, oldest first.
    history: Vec<String>,
    /// Which history entry is shown (None: the line being typed).
    recall: Option<usize>,
    /// The line being typed, kept while history is browsed.
    draft: String,
    /// Shown after the input (completion candidates), until the next key.
    pub hint: Option<String>,
    /// Finder: the highlighted result (Up/Down move it; the app clamps it).
    pub selected: usize,
}

/// What a key did to an open prompt.
#[derive(Debug, Clone)]
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

/// The editing request for a readline key, if it is one.
fn request(k: &KeyEvent) -> Option<InputRequest> {
    use InputRequest::*;
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    // Terminals send Alt-x as ESC x, which crossterm reports as ALT (META on some).
    let alt = k.modifiers.intersects(KeyModifiers::ALT | KeyModifiers::META);
    Some(match k.code {
        KeyCode::Backspace if alt => DeletePrevWord,
        KeyCode::Backspace => DeletePrevChar,
        KeyCode::Delete if ctrl => DeleteNextWord,
        KeyCode::Delete => DeleteNextChar,
        KeyCode::Left if ctrl || alt => GoToPrevWord,
        KeyCode::Right if ctrl || alt => GoToNextWord,
        KeyCode::Left => GoToPrevChar,
        KeyCode::Right => GoToNextChar,
        KeyCode::Home => GoToStart,
        KeyCode::End => GoToEnd,
        KeyCode::Char(c) if ctrl && !alt => match c {
            'a' => GoToStart,
            'e' => GoToEnd,
            'b' => GoToPrevChar,
            'f' => GoToNextChar,
            'h' => DeletePrevChar,
            'd' => DeleteNextChar,
            'u' => DeleteFromStart,
            'k' => DeleteTillEnd,
            'w' => DeletePrevWord,
            'y' => Yank,
            _ => return None,
        },
        KeyCode::Char(c) if alt && !ctrl => match c {
            'b' => GoToPrevWord,
            'f' => GoToNextWord,
            'd' => DeleteNextWord,
            _ => return None,
        },
        KeyCode::Char(c) => InsertChar(c),
        _ => return None,
    })
}

impl Prompt {
    /// An empty prompt asking for `kind`, with `kind`'s history.
    pub fn new(kind: PromptKind, history: &History) -> Prompt {
        Prompt::with_input(kind, String::new(), history)
    }

    /// A prompt asking for `kind` with `input` typed in (cursor at its end).
    pub fn with_input(kind: PromptKind, input: String, history: &History) -> Prompt {
        let history = history.of(&kind).to_vec();
        Prompt { kind, line: Input::new(input), history, recall: None, draft: String::new(), hint: None, selected: 0 }
    }

    /// The text typed so far.
    pub fn text(&self) -> &str {
        self.line.value()
    }

    /// The label in front of the input.
    pub fn label(&self) -> String {
        match &self.kind {
            PromptKind::Goto => "goto (0x150, +0x20, path, name, MEMBER@0x1a0)> ".to_string(),
            PromptKind::Search => "search (hex: 1f 8b · text · i:text any case)> ".to_string(),
            PromptKind::ExportPath => "export clip to (tab completes)> ".to_string(),
            PromptKind::Find => "find> ".to_string(),
            PromptKind::ConfirmOverwrite(path) => format!("{} exists; overwrite? (y/n)> ", path.display()),
            PromptKind::ConfirmCreateDir(path) => {
                let dir = path.parent().unwrap_or(path);
                // the question first: a long path is cut at the right edge
                format!("create the missing directory? (y/n) {}> ", dir.display())
            }
            PromptKind::DiffFile => "diff against file (tab completes)> ".to_string(),
            PromptKind::ExportBytes { span, .. } => {
                format!("export bytes 0x{:x}..0x{:x} ({} B) to (tab completes)> ", span.start, span.end, span.len())
            }
            PromptKind::BookmarkName(off) => format!("name for the bookmark at 0x{off:x}> "),
            PromptKind::ChannelFilter(_) => "channels matching (words, any case; empty: all)> ".to_string(),
            PromptKind::LayoutField(off) => format!(
                "layout field at 0x{off:x}: TYPE NAME (u32 n, f32 x, strz s, {{f32 x, f32 y}}[n] p), \
                 -NAME removes, OLD=NEW renames> "
            ),
            PromptKind::LayoutName { places, at } => match places.get(*at) {
                Some(p) => {
                    let other = if places.len() > 1 { ", Tab: elsewhere" } else { "" };
                    let dir = crate::model::sanitize(&p.dir.display().to_string()).into_owned();
                    format!("save the user layout as (a name) in {} {dir}{other}> ", p.what)
                }
                None => "save the user layout as (a name)> ".to_string(),
            },
            PromptKind::Frame(last) => format!("go to frame (0..{last})> "),
            PromptKind::ConfirmLayoutReplace(name, _) => {
                format!("a layout {}.toml exists; replace it? (y/n)> ", crate::model::sanitize(name))
            }
            PromptKind::EditField { label, .. } => format!("set {label} to> "),
            PromptKind::EditBytes { offset, .. } => format!("bytes at 0x{offset:x} (hex, XX XX..)> "),
            PromptKind::EditWritePath => "write the edited file to (never the input; tab completes)> ".to_string(),
            PromptKind::ConfirmEditWrite { path, force: true, .. } => format!(
                "{}: the written file has findings the original has not (L lists them); write anyway? (y/n)> ",
                crate::model::sanitize(&path.display().to_string())
            ),
            PromptKind::ConfirmEditWrite { path, .. } => {
                format!("{} exists; overwrite? (y/n)> ", crate::model::sanitize(&path.display().to_string()))
            }
        }
    }

    /// Show history entry `i` (None: the draft) in the line.
    fn recall(&mut self, i: Option<usize>) {
        if self.recall.is_none() {
            self.draft = self.text().to_string();
        }
        self.recall = i;
        let shown = match i.and_then(|i| self.history.get(i)) {
            Some(s) => s.clone(),
            None => std::mem::take(&mut self.draft),
        };
        self.line = Input::new(shown);
    }

    /// One step back (older) or forward (newer) in this prompt's history.
    fn history_step(&mut self, older: bool) {
        let n = self.history.len();
        if n == 0 {
            return;
        }
        let next = match (self.recall, older) {
            (None, true) => Some(n - 1),
            (None, false) => return,
            (Some(0), true) => Some(0),
            (Some(i), true) => Some(i - 1),
            (Some(i), false) if i + 1 < n => Some(i + 1),
            (Some(_), false) => None,
        };
        self.recall(next);
    }

    /// Tab in the export prompt: complete the path being typed (relative paths from the
    /// working directory).
    fn complete(&mut self) {
        let c = complete_path(self.text(), Path::new("."));
        if let Some(line) = c.line {
            self.line = Input::new(line);
        }
        self.hint = match c.candidates.len() {
            0 | 1 => None,
            n => {
                let shown: Vec<&str> = c.candidates.iter().take(CANDIDATES_SHOWN).map(String::as_str).collect();
                let more =
                    if n > CANDIDATES_SHOWN { format!(" … {} more", n - CANDIDATES_SHOWN) } else { String::new() };
                Some(format!("{}{more}", shown.join("  ")))
            }
        };
    }

    /// Apply key `k`.
    pub fn edit(mut self, k: &KeyEvent) -> Edited {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        self.hint = None;
        // a y/n question takes one key
        if let PromptKind::ConfirmOverwrite(_) | PromptKind::ConfirmCreateDir(_) | PromptKind::ConfirmEditWrite { .. } =
            self.kind
        {
            return match k.code {
                KeyCode::Esc => Edited::Cancelled,
                KeyCode::Char('c') if ctrl => Edited::Closed,
                KeyCode::Enter => Edited::Submit(self),
                KeyCode::Char(c) => {
                    self.line = Input::new(c.to_string());
                    Edited::Submit(self)
                }
                _ => Edited::Open(self),
            };
        }
        let find = self.kind == PromptKind::Find;
        match k.code {
            KeyCode::Esc => return Edited::Cancelled,
            KeyCode::Char('c') | KeyCode::Char('g') if ctrl => return Edited::Closed,
            KeyCode::Enter => return Edited::Submit(self),
            KeyCode::Tab
                if matches!(
                    self.kind,
                    PromptKind::ExportPath
                        | PromptKind::DiffFile
                        | PromptKind::ExportBytes { .. }
                        | PromptKind::EditWritePath
                ) =>
            {
                self.complete()
            }
            KeyCode::Tab if matches!(self.kind, PromptKind::LayoutName { .. }) => {
                if let PromptKind::LayoutName { places, at } = &mut self.kind {
                    *at = (*at + 1) % places.len().max(1);
                }
            }
            KeyCode::Up if find => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down if find => self.selected = self.selected.saturating_add(1),
            KeyCode::PageUp if find => self.selected = self.selected.saturating_sub(10),
            KeyCode::PageDown if find => self.selected = self.selected.saturating_add(10),
            KeyCode::Up => self.history_step(true),
            KeyCode::Down => self.history_step(false),
            KeyCode::Char('p') if ctrl => self.history_step(true),
            KeyCode::Char('n') if ctrl => self.history_step(false),
            _ => {
                if let Some(r) = request(k) {
                    let changed = self.line.handle(r).is_some_and(|c| c.value);
                    if changed {
                        self.recall = None;
                        self.selected = 0;
                    }
                }
            }
        }
        Edited::Open(self)
    }
}

/// What Tab completion made of a path.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Completion {
    /// The new line, when completion added anything.
    pub line: Option<String>,
    /// The names that matched (directories end with `/`), sorted.
    pub candidates: Vec<String>,
}

/// Complete the last path component of `input` among the entries of its directory
/// (relative directories taken from `cwd`): one match completes fully (a directory gets
/// its `/`), several complete to their longest common prefix and are listed. `~/` stands
/// for `$HOME`, as in a shell. Hidden entries are offered only for a typed leading dot.
pub fn complete_path(input: &str, cwd: &Path) -> Completion {
    let (dir_part, stem) = match input.rfind('/') {
        Some(i) => input.split_at(i + 1),
        None => ("", input),
    };
    let dir: PathBuf = if dir_part.is_empty() {
        cwd.to_path_buf()
    } else if let Some(rest) = dir_part.strip_prefix("~/") {
        match std::env::var_os("HOME") {
            Some(h) => PathBuf::from(h).join(rest),
            None => return Completion::default(),
        }
    } else if Path::new(dir_part).is_absolute() {
        PathBuf::from(dir_part)
    } else {
        cwd.join(dir_part)
    };
    let Ok(entries) = std::fs::read_dir(&dir) else { return Completion::default() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if !name.starts_with(stem) || (name.starts_with('.') && !stem.starts_with('.')) {
                return None;
            }
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir())
                || (e.file_type().is_ok_and(|t| t.is_symlink()) && e.path().is_dir());
            Some(if is_dir { format!("{name}/") } else { name })
        })
        .collect();
    names.sort();
    let common = match names.as_slice() {
        [] => return Completion::default(),
        [one] => one.clone(),
        [first, rest @ ..] => {
            let mut n = first.len();
            for r in rest {
                n = n.min(first.bytes().zip(r.bytes()).take_while(|(a, b)| a == b).count());
            }
            while !first.is_char_boundary(n) {
                n -= 1;
            }
            first.get(..n).unwrap_or("").to_string()
        }
    };
    let line = (common.len() > stem.len()).then(|| format!("{dir_part}{common}"));
    Completion { line, candidates: names }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    fn typed(p: Prompt, s: &str) -> Prompt {
        s.chars().fold(p, |p, c| open(p.edit(&key(KeyCode::Char(c), KeyModifiers::NONE))))
    }

    fn open(e: Edited) -> Prompt {
        match e {
            Edited::Open(p) => p,
            other => panic!("closed: {other:?}"),
        }
    }

    fn ctrl(p: Prompt, c: char) -> Prompt {
        open(p.edit(&key(KeyCode::Char(c), KeyModifiers::CONTROL)))
    }

    fn alt(p: Prompt, c: char) -> Prompt {
        open(p.edit(&key(KeyCode::Char(c), KeyModifiers::ALT)))
    }

    fn code(p: Prompt, c: KeyCode) -> Prompt {
        open(p.edit(&key(c, KeyModifiers::NONE)))
    }

    #[test]
    fn readline_keys_edit_instead_of_inserting_letters() {
        let h = History::default();
        let p = typed(Prompt::new(PromptKind::ExportPath, &h), "out clip one");
        // Ctrl-W deletes the word before the cursor (readline: up to whitespace)
        let p = ctrl(p, 'w');
        assert_eq!(p.text(), "out clip ");
        // Ctrl-A then typing inserts at the start
        let p = typed(ctrl(p, 'a'), "x");
        assert_eq!(p.text(), "xout clip ");
        // Ctrl-E, Left twice, Ctrl-K kills to the end
        let p = ctrl(code(code(ctrl(p, 'e'), KeyCode::Left), KeyCode::Left), 'k');
        assert_eq!(p.text(), "xout cli");
        // Alt-B goes back to the start of "cli"; Ctrl-U kills what is before the cursor
        let p = ctrl(alt(p, 'b'), 'u');
        assert_eq!(p.text(), "cli");
        // Home, Right, Delete
        let p = code(code(code(p, KeyCode::Home), KeyCode::Right), KeyCode::Delete);
        assert_eq!(p.text(), "ci");
        // Alt-F from the start reaches the end of the word
        let p = typed(alt(code(p, KeyCode::Home), 'f'), "k");
        assert_eq!(p.text(), "cik");
        // Ctrl-U on the whole line, then Ctrl-Y yanks it back
        let p = ctrl(p, 'u');
        assert_eq!(p.text(), "");
        assert_eq!(ctrl(p, 'y').text(), "cik");
    }

    #[test]
    fn each_prompt_has_its_own_history() {
        let mut h = History::default();
        h.push(&PromptKind::Goto, "0x150");
        h.push(&PromptKind::Goto, "clip[1]");
        h.push(&PromptKind::Search, "1f 8b");
        h.push(&PromptKind::Goto, "0x150"); // moves to the newest
        assert_eq!(h.of(&PromptKind::Goto), ["clip[1]", "0x150"]);
        let p = typed(Prompt::new(PromptKind::Goto, &h), "dra");
        let p = code(p, KeyCode::Up);
        assert_eq!(p.text(), "0x150");
        let p = code(p, KeyCode::Up);
        assert_eq!(p.text(), "clip[1]");
        let p = code(p, KeyCode::Up);
        assert_eq!(p.text(), "clip[1]", "stays at the oldest");
        let p = code(code(p, KeyCode::Down), KeyCode::Down);
        assert_eq!(p.text(), "dra", "back to the draft");
        let s = code(Prompt::new(PromptKind::Search, &h), KeyCode::Up);
        assert_eq!(s.text(), "1f 8b");
        assert!(h.of(&PromptKind::Find).is_empty());
    }

    #[test]
    fn tab_completes_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("exports")).unwrap();
        std::fs::write(dir.path().join("walk_a.json"), "").unwrap();
        std::fs::write(dir.path().join("walk_b.json"), "").unwrap();
        std::fs::write(dir.path().join(".hidden"), "").unwrap();
        std::fs::write(dir.path().join("exports/run.json"), "").unwrap();
        let c = complete_path("ex", dir.path());
        assert_eq!(c.line.as_deref(), Some("exports/"));
        let c = complete_path("exports/r", dir.path());
        assert_eq!(c.line.as_deref(), Some("exports/run.json"));
        let c = complete_path("w", dir.path());
        assert_eq!(c.line.as_deref(), Some("walk_"));
        assert_eq!(c.candidates, ["walk_a.json", "walk_b.json"]);
        let c = complete_path("", dir.path());
        assert_eq!(c.candidates, ["exports/", "walk_a.json", "walk_b.json"], "no hidden entries");
        assert_eq!(complete_path(".h", dir.path()).line.as_deref(), Some(".hidden"));
        let abs = format!("{}/walk_a", dir.path().display());
        assert_eq!(complete_path(&abs, Path::new("/")).line, Some(format!("{abs}.json")));
        assert_eq!(complete_path("nothing", dir.path()), Completion::default());
    }

    #[test]
    fn confirm_takes_one_key() {
        let p = Prompt::new(PromptKind::ConfirmOverwrite(PathBuf::from("a")), &History::default());
        match p.edit(&key(KeyCode::Char('y'), KeyModifiers::NONE)) {
            Edited::Submit(p) => assert_eq!(p.text(), "y"),
            other => panic!("{other:?}"),
        }
    }
}
