//! Keymaps as data: TOML files binding keys or multi-key sequences to [`Action`]s, each
//! with a description. `keymaps/default.toml` is the base; `keymaps/vim.toml` and
//! `keymaps/emacs.toml` patch it; a user file (`$XDG_CONFIG_HOME/animscope/keymap.toml`)
//! and `--keymap FILE` patch the result. A bad file is reported and skipped.
//!
//! ```toml
//! base = "vim"            # optional: a shipped keymap to start from (patch files only)
//! [[bind]]
//! keys = "y h"            # space-separated chords: q, N, ctrl-c, alt-v, shift-tab, pgdn
//! action = "copy_hex"     # an Action name, or "none" to unbind
//! desc = "copy as hex"    # optional; defaults to the action's description
//! ```

use super::action::Action;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The shipped keymaps: (name, TOML text).
pub const SHIPPED: &[(&str, &str)] = &[
    ("default", include_str!("../../keymaps/default.toml")),
    ("vim", include_str!("../../keymaps/vim.toml")),
    ("emacs", include_str!("../../keymaps/emacs.toml")),
];

/// One key press with modifiers, normalised (a shifted letter is its upper-case char).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chord {
    /// The key.
    pub code: KeyCode,
    /// Ctrl/Alt (Shift only for non-character keys).
    pub mods: KeyModifiers,
}

impl Chord {
    /// Normalise a crossterm key event.
    pub fn from_event(k: &KeyEvent) -> Chord {
        let mut mods = k.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match k.code {
            KeyCode::Char(c) => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::Char(c)
            }
            KeyCode::BackTab => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            c => c,
        };
        Chord { code, mods }
    }

    /// Parse `q`, `N`, `ctrl-c`, `alt-v`, `shift-tab`, `pgdn`, `space`, `f5`.
    pub fn parse(s: &str) -> Result<Chord, String> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if rest.len() > 1 && (lower.starts_with("ctrl-") || lower.starts_with("c-")) {
                mods |= KeyModifiers::CONTROL;
                rest = rest.split_once('-').map_or("", |x| x.1);
            } else if rest.len() > 1 && (lower.starts_with("alt-") || lower.starts_with("m-")) {
                mods |= KeyModifiers::ALT;
                rest = rest.split_once('-').map_or("", |x| x.1);
            } else if rest.len() > 1 && lower.starts_with("shift-") {
                mods |= KeyModifiers::SHIFT;
                rest = rest.split_once('-').map_or("", |x| x.1);
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => match rest.to_ascii_lowercase().as_str() {
                "enter" | "return" => KeyCode::Enter,
                "esc" | "escape" => KeyCode::Esc,
                "tab" if mods.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
                "tab" => KeyCode::Tab,
                "backtab" => KeyCode::BackTab,
                "space" => KeyCode::Char(' '),
                "up" => KeyCode::Up,
                "down" => KeyCode::Down,
                "left" => KeyCode::Left,
                "right" => KeyCode::Right,
                "pgup" | "pageup" => KeyCode::PageUp,
                "pgdn" | "pagedown" => KeyCode::PageDown,
                "home" => KeyCode::Home,
                "end" => KeyCode::End,
                "backspace" => KeyCode::Backspace,
                "delete" | "del" => KeyCode::Delete,
                "insert" => KeyCode::Insert,
                f if f.starts_with('f') && f.len() > 1 => {
                    KeyCode::F(f[1..].parse().map_err(|_| format!("unknown key \"{s}\""))?)
                }
                _ => return Err(format!("unknown key \"{s}\"")),
            },
        };
        Ok(Chord::from_event(&KeyEvent::new(code, mods)))
    }
}

impl fmt::Display for Chord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mods.contains(KeyModifiers::CONTROL) {
            f.write_str("ctrl-")?;
        }
        if self.mods.contains(KeyModifiers::ALT) {
            f.write_str("alt-")?;
        }
        if self.mods.contains(KeyModifiers::SHIFT) {
            f.write_str("shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Enter => f.write_str("enter"),
            KeyCode::Esc => f.write_str("esc"),
            KeyCode::Tab => f.write_str("tab"),
            KeyCode::BackTab => f.write_str("shift-tab"),
            KeyCode::Up => f.write_str("up"),
            KeyCode::Down => f.write_str("down"),
            KeyCode::Left => f.write_str("left"),
            KeyCode::Right => f.write_str("right"),
            KeyCode::PageUp => f.write_str("pgup"),
            KeyCode::PageDown => f.write_str("pgdn"),
            KeyCode::Home => f.write_str("home"),
            KeyCode::End => f.write_str("end"),
            KeyCode::Backspace => f.write_str("backspace"),
            KeyCode::Delete => f.write_str("delete"),
            KeyCode::F(n) => write!(f, "f{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// A binding: key sequence → action, with a description for help.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// The chords pressed in order.
    pub keys: Vec<Chord>,
    /// The action.
    pub action: Action,
    /// Shown in help.
    pub desc: String,
}

impl Binding {
    /// The key sequence as written in keymap files.
    pub fn keys_text(&self) -> String {
        self.keys.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBinding {
    keys: String,
    action: String,
    desc: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeymapFile {
    name: Option<String>,
    base: Option<String>,
    #[serde(default)]
    bind: Vec<FileBinding>,
}

/// The active bindings.
#[derive(Debug, Clone, Default)]
pub struct Keymap {
    /// Bindings in help order.
    pub bindings: Vec<Binding>,
    /// Where the bindings came from (`default`, `default + vim`, `+ /path/keymap.toml`).
    pub sources: Vec<String>,
}

/// What pressing one more key did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// A binding completed.
    Action(Action),
    /// The keys so far start a longer binding; wait for more.
    Pending,
    /// Nothing bound.
    Unbound,
}

/// Line and column (from 1, columns in characters) of byte `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Lines (from 1) of the `[[bind]]` table headers in `text`, in order.
fn bind_lines(text: &str) -> Vec<usize> {
    text.lines().enumerate().filter(|(_, l)| l.trim_start().starts_with("[[bind]]")).map(|(n, _)| n + 1).collect()
}

impl Keymap {
    /// Parse a shipped keymap by name (`default`, `vim`, `emacs`), applied over default.
    pub fn shipped(name: &str) -> Result<Keymap, String> {
        let mut km = Keymap::default();
        let text = SHIPPED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|x| x.1)
            .ok_or_else(|| format!("no shipped keymap \"{name}\" (have: default, vim, emacs)"))?;
        if name != "default" {
            km.patch_text(SHIPPED.first().map_or("", |x| x.1), "default")?;
        }
        km.patch_text(text, name)?;
        Ok(km)
    }

    /// Apply a keymap file's text over this one (`origin` names it in messages). On error
    /// the keymap is unchanged.
    pub fn patch_text(&mut self, text: &str, origin: &str) -> Result<(), String> {
        let file: KeymapFile = toml::from_str(text).map_err(|e| {
            // where in the file, as editors count: line and column from 1
            let at = e.span().map(|r| line_col(text, r.start)).map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
            format!("keymap {origin}{at}: {}", e.message().trim_end())
        })?;
        let mut next = self.clone();
        if let Some(base) = &file.base {
            next = Keymap::shipped(base).map_err(|e| format!("keymap {origin}: {e}"))?;
        }
        // Linear in the bindings (a keymap of 20,000 took 41 s when each binding searched
        // the text for its line and the list for its keys): lines found in one pass, the
        // bound sequences indexed by keys.
        let lines = bind_lines(text);
        let mut slot: std::collections::HashMap<Vec<Chord>, usize> =
            next.bindings.iter().enumerate().map(|(i, b)| (b.keys.clone(), i)).collect();
        let mut merged: Vec<Option<Binding>> = std::mem::take(&mut next.bindings).into_iter().map(Some).collect();
        for (i, b) in file.bind.iter().enumerate() {
            let at = lines.get(i).map(|l| format!(":{l}")).unwrap_or_default();
            let ctx = |e: String| format!("keymap {origin}{at}: binding {} (keys \"{}\"): {e}", i + 1, b.keys);
            let keys: Vec<Chord> =
                b.keys.split_whitespace().map(Chord::parse).collect::<Result<_, _>>().map_err(ctx)?;
            if keys.is_empty() {
                return Err(ctx("no keys".into()));
            }
            if let Some(old) = slot.remove(&keys)
                && let Some(o) = merged.get_mut(old)
            {
                *o = None;
            }
            if b.action == "none" {
                continue;
            }
            let action: Action = b.action.parse().map_err(ctx)?;
            let desc = b.desc.clone().unwrap_or_else(|| action.describe().to_string());
            slot.insert(keys.clone(), merged.len());
            merged.push(Some(Binding { keys, action, desc }));
        }
        next.bindings = merged.into_iter().flatten().collect();
        // A sequence that is both bound and the prefix of a longer one could never complete.
        // Found on a trie of the bound sequences (a node is its parent and one chord), so
        // a binding of L chords costs L steps, not a hash of each of its L prefixes.
        const NONE: usize = usize::MAX;
        let mut trie: std::collections::HashMap<(usize, Chord), usize> = std::collections::HashMap::new();
        // per node: the first binding it is a proper prefix of
        let mut starts: Vec<usize> = vec![NONE];
        let mut ends_at: Vec<usize> = Vec::with_capacity(next.bindings.len());
        for (i, b) in next.bindings.iter().enumerate() {
            let mut node = 0usize;
            for (depth, c) in b.keys.iter().enumerate() {
                if depth > 0
                    && let Some(s) = starts.get_mut(node).filter(|s| **s == NONE)
                {
                    *s = i;
                }
                node = *trie.entry((node, *c)).or_insert_with(|| {
                    starts.push(NONE);
                    starts.len() - 1
                });
            }
            ends_at.push(node);
        }
        for (b, node) in next.bindings.iter().zip(&ends_at) {
            if let Some(longer) = starts.get(*node).filter(|s| **s != NONE).and_then(|s| next.bindings.get(*s)) {
                return Err(format!(
                    "keymap {origin}: \"{}\" is bound and also starts \"{}\"; unbind one (action = \"none\")",
                    b.keys_text(),
                    longer.keys_text()
                ));
            }
        }
        next.sources.push(file.name.unwrap_or_else(|| origin.to_string()));
        *self = next;
        Ok(())
    }

    /// Apply a keymap file over this one. A name of a shipped keymap that is not a file
    /// (`vim`) selects that keymap. A file is read up to `cap` bytes.
    pub fn patch_file(&mut self, path: &Path, cap: u64) -> Result<(), String> {
        if !path.exists()
            && let Some(name) = path.to_str().filter(|n| SHIPPED.iter().any(|(s, _)| s == n))
        {
            *self = Keymap::shipped(name)?;
            return Ok(());
        }
        if !path.exists() && path.components().count() == 1 && path.extension().is_none() {
            // `--keymap vi`: a shipped name mistyped, most likely
            let names = SHIPPED.iter().map(|(n, _)| *n);
            let hint = crate::text::did_you_mean(&path.to_string_lossy(), names)
                .map(|n| format!("; did you mean {n}?"))
                .unwrap_or_default();
            let shipped: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "keymap {}: no such file and no shipped keymap of that name{hint} (shipped: {})",
                path.display(),
                shipped.join(", ")
            ));
        }
        // Opened as inputs are: regular files only (a FIFO does not block, /dev/zero is
        // refused, not read forever), at most the side-file cap.
        let bytes = crate::source::read_small_file(path, cap).map_err(|e| format!("keymap: {e}"))?;
        let text = String::from_utf8(bytes).map_err(|_| format!("keymap {}: not UTF-8 text", path.display()))?;
        self.patch_text(&text, &path.display().to_string())
    }

    /// The default keymap, patched by the user file and then `--keymap`, each read up to
    /// `cap` bytes (the command's [`crate::limits::Limits::max_side_file`]). Problems are
    /// returned as messages; each bad file is skipped.
    pub fn load(user_file: Option<&Path>, cli_file: Option<&Path>, cap: u64) -> (Keymap, Vec<String>) {
        let mut km = Keymap::shipped("default").unwrap_or_default();
        let mut problems = Vec::new();
        for p in [user_file, cli_file].into_iter().flatten() {
            if user_file == Some(p) && !p.exists() {
                continue;
            }
            if let Err(e) = km.patch_file(p, cap) {
                problems.push(format!("{e} (file ignored, using {})", km.sources.join(" + ")));
            }
        }
        (km, problems)
    }

    /// Where the user keymap lives: `$XDG_CONFIG_HOME/animscope/keymap.toml`, else
    /// `$HOME/.config/animscope/keymap.toml`.
    pub fn user_path() -> Option<PathBuf> {
        // The XDG base directory spec: a relative value is invalid and ignored.
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
        Some(base.join("animscope").join("keymap.toml"))
    }

    /// Resolve the keys pressed so far.
    pub fn lookup(&self, pressed: &[Chord]) -> Lookup {
        if let Some(b) = self.bindings.iter().find(|b| b.keys == pressed) {
            return Lookup::Action(b.action);
        }
        if self.bindings.iter().any(|b| b.keys.len() > pressed.len() && b.keys.starts_with(pressed)) {
            Lookup::Pending
        } else {
            Lookup::Unbound
        }
    }

    /// The first key sequence bound to `action`, for hints.
    pub fn key_for(&self, action: Action) -> Option<String> {
        self.bindings.iter().find(|b| b.action == action).map(Binding::keys_text)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    /// The side-file cap of the default limits.
    const CAP: u64 = crate::limits::DEFAULT_SIDE_FILE;

    #[test]
    fn every_shipped_keymap_parses_and_binds_quit_and_help() {
        for (name, _) in SHIPPED {
            let km = Keymap::shipped(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(km.key_for(Action::Quit).is_some(), "{name}");
            assert!(km.key_for(Action::Help).is_some(), "{name}");
            for a in [
                Action::Goto,
                Action::Search,
                Action::FocusNext,
                Action::Export,
                Action::Find,
                Action::SelectLeft,
                Action::SelectRight,
                Action::SelectUp,
                Action::SelectDown,
                Action::BookmarkNamed,
            ] {
                assert!(km.key_for(a).is_some(), "{name}: {a} unbound");
            }
        }
    }

    #[test]
    fn every_file_in_keymaps_dir_is_shipped_and_parses() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("keymaps");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
            assert!(SHIPPED.iter().any(|(s, _)| *s == stem), "{} is not in SHIPPED", p.display());
            let mut km = Keymap::shipped("default").unwrap();
            km.patch_file(&p, CAP).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
        assert_eq!(n, SHIPPED.len());
    }

    #[test]
    fn chords_parse_and_print() {
        for s in ["q", "N", "ctrl-c", "alt-v", "shift-tab", "pgdn", "space", "f5", "]", "?"] {
            assert_eq!(Chord::parse(s).unwrap().to_string(), s);
        }
        assert!(Chord::parse("ctrl-nope").is_err());
    }

    #[test]
    fn sequences_and_patches() {
        let mut km = Keymap::shipped("default").unwrap();
        let y = Chord::parse("y").unwrap();
        let h = Chord::parse("h").unwrap();
        assert_eq!(km.lookup(&[y]), Lookup::Pending);
        assert_eq!(km.lookup(&[y, h]), Lookup::Action(Action::CopyHex));
        km.patch_text("[[bind]]\nkeys = \"x\"\naction = \"quit\"\ndesc = \"leave\"\n", "t").unwrap();
        assert_eq!(km.lookup(&[Chord::parse("x").unwrap()]), Lookup::Action(Action::Quit));
        let err = km.patch_text("[[bind]]\nkeys = \"x\"\naction = \"fly\"\n", "bad.toml").unwrap_err();
        assert_eq!(err, "keymap bad.toml:1: binding 1 (keys \"x\"): unknown action \"fly\"");
        // unchanged after the error
        assert_eq!(km.lookup(&[Chord::parse("x").unwrap()]), Lookup::Action(Action::Quit));
        let err = km.patch_text("[[bind]]\nkeys = \"y\"\naction = \"quit\"\n", "p.toml").unwrap_err();
        assert!(err.contains("also starts"), "{err}");
        assert!(km.patch_text("bind = 3", "bad2.toml").unwrap_err().starts_with("keymap bad2.toml:1:8: "));
        // a syntax error names its line and column
        let err = km.patch_text("name = \"x\"\n\n[[bind]]\nkeys = \"q\n", "bad3.toml").unwrap_err();
        assert!(err.starts_with("keymap bad3.toml:4:"), "{err}");
        // the second binding's line
        let two = "[[bind]]\nkeys = \"x\"\naction = \"quit\"\n\n[[bind]]\nkeys = \"z\"\naction = \"sing\"\n";
        let err = km.patch_text(two, "two.toml").unwrap_err();
        assert!(err.starts_with("keymap two.toml:5: binding 2 (keys \"z\")"), "{err}");
    }

    #[test]
    fn user_file_then_cli_file_patch_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("user.toml");
        let cli = dir.path().join("cli.toml");
        std::fs::write(&user, "base = \"emacs\"\n[[bind]]\nkeys = \"x\"\naction = \"help\"\n").unwrap();
        std::fs::write(&cli, "[[bind]]\nkeys = \"x\"\naction = \"zoom\"\ndesc = \"big\"\n").unwrap();
        let (km, problems) = Keymap::load(Some(&user), Some(&cli), CAP);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(km.lookup(&[Chord::parse("x").unwrap()]), Lookup::Action(Action::Zoom));
        assert_eq!(km.lookup(&[Chord::parse("ctrl-n").unwrap()]), Lookup::Action(Action::Down));
        assert_eq!(
            km.sources,
            vec!["default".to_string(), "emacs".into(), user.display().to_string(), cli.display().to_string()]
        );
        // a missing user file is not a problem
        let (_, problems) = Keymap::load(Some(&dir.path().join("none.toml")), None, CAP);
        assert!(problems.is_empty());
    }

    #[test]
    fn bad_files_fall_back() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("k.toml");
        std::fs::write(&bad, "[[bind]]\nkeys = \"ctrl-\"\naction = \"quit\"\n").unwrap();
        let (km, problems) = Keymap::load(None, Some(&bad), CAP);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("unknown key"), "{problems:?}");
        assert!(problems[0].contains("file ignored, using default"), "{problems:?}");
        assert_eq!(km.lookup(&[Chord::parse("q").unwrap()]), Lookup::Action(Action::Quit));
        let (_, p) = Keymap::load(None, Some(Path::new("vi")), CAP);
        assert_eq!(
            p,
            ["keymap vi: no such file and no shipped keymap of that name; did you mean vim? (shipped: default, vim, \
              emacs) (file ignored, using default)"]
        );
        let (vim, p) = Keymap::load(None, Some(Path::new("vim")), CAP);
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(vim.lookup(&[Chord::parse("G").unwrap()]), Lookup::Action(Action::End));
    }

    /// A keymap of 20,000 bindings loads (linearly: each binding used to search the text
    /// for its line and the list for its keys, 41 s), later bindings replace earlier ones
    /// with the same keys in place of order, and a prefix conflict is still found.
    #[test]
    fn a_huge_keymap_loads_and_keeps_its_rules() {
        let mut text = String::new();
        let letters: Vec<char> = ('a'..='z').collect();
        for i in 0..20_000usize {
            let (a, b, c) = (letters[i % 26], letters[(i / 26) % 26], letters[(i / 676) % 26]);
            text.push_str(&format!("[[bind]]\nkeys = \"ctrl-alt-{c} {b} {a}\"\naction = \"quit\"\n"));
        }
        // the same keys again: replaced, not doubled
        text.push_str("[[bind]]\nkeys = \"ctrl-alt-a a a\"\naction = \"help\"\n");
        let mut km = Keymap::shipped("default").unwrap();
        let before = km.bindings.len();
        km.patch_text(&text, "huge.toml").unwrap();
        // 26 × 26 × 26 = 17,576 distinct sequences among the 20,000
        assert_eq!(km.bindings.len(), before + 17_576);
        let keys = |s: &str| s.split(' ').map(|c| Chord::parse(c).unwrap()).collect::<Vec<_>>();
        assert_eq!(km.lookup(&keys("ctrl-alt-a a a")), Lookup::Action(Action::Help));
        assert_eq!(km.bindings.last().map(Binding::keys_text).as_deref(), Some("ctrl-alt-a a a"));
        assert_eq!(km.lookup(&keys("ctrl-alt-z z z")), Lookup::Action(Action::Quit));
        text.push_str("[[bind]]\nkeys = \"ctrl-alt-b c\"\naction = \"quit\"\n");
        let err = km.patch_text(&text, "huge.toml").unwrap_err();
        assert!(err.contains("\"ctrl-alt-b c\" is bound and also starts \"ctrl-alt-b c "), "{err}");
    }

    /// One binding of 20,000 chords (220 KB) loads, walked once on the prefix trie (it
    /// hashed each of its prefixes, O(L²), and stopped the first frame); a binding that is
    /// a prefix of it, or that it is a prefix of, is still refused, naming both.
    #[test]
    fn a_long_binding_loads_and_prefix_conflicts_are_found_both_ways() {
        let long = vec!["ctrl-alt-x"; 20_000].join(" ");
        let mut km = Keymap::shipped("default").unwrap();
        km.patch_text(&format!("[[bind]]\nkeys = \"{long}\"\naction = \"quit\"\n"), "long.toml").unwrap();
        assert_eq!(km.bindings.last().map(|b| b.keys.len()), Some(20_000));
        let shorter = "[[bind]]\nkeys = \"ctrl-alt-x ctrl-alt-x\"\naction = \"help\"\n";
        let err = km.clone().patch_text(shorter, "short.toml").unwrap_err();
        let both = "\"ctrl-alt-x ctrl-alt-x\" is bound and also starts \"ctrl-alt-x ctrl-alt-x ctrl-alt-x";
        assert!(err.contains(both), "{}", &err[..120]);
        let mut km = Keymap::shipped("default").unwrap();
        let text = format!("{shorter}[[bind]]\nkeys = \"ctrl-alt-x ctrl-alt-x ctrl-alt-x\"\naction = \"quit\"\n");
        let err = km.patch_text(&text, "two.toml").unwrap_err();
        assert!(err.contains(&format!("{both}\"")), "{err}");
    }

    /// Keymap files are opened as inputs are: a device or a FIFO is refused at once (never
    /// read forever, never blocking the first frame), and the map falls back.
    #[test]
    fn keymap_side_files_must_be_regular() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("k.toml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        let mut cases = vec![(std::path::PathBuf::from("/dev/zero"), "not a regular file (character device)")];
        if made {
            cases.push((fifo, "not a regular file (fifo)"));
        }
        for (p, want) in cases {
            let (km, problems) = Keymap::load(None, Some(&p), CAP);
            assert_eq!(problems.len(), 1, "{p:?}");
            assert!(problems[0].contains(want), "{p:?}: {problems:?}");
            assert_eq!(km.lookup(&[Chord::parse("q").unwrap()]), Lookup::Action(Action::Quit));
        }
    }

    #[test]
    fn shift_arrows_select_and_emacs_sets_bookmarks_as_emacs_does() {
        let emacs = Keymap::shipped("emacs").unwrap();
        let keys = |s: &str| s.split_whitespace().map(|k| Chord::parse(k).unwrap()).collect::<Vec<_>>();
        assert_eq!(emacs.lookup(&keys("ctrl-x r m")), Lookup::Action(Action::BookmarkNamed));
        for name in ["default", "vim", "emacs"] {
            let km = Keymap::shipped(name).unwrap();
            assert_eq!(km.lookup(&keys("shift-left")), Lookup::Action(Action::SelectLeft), "{name}");
            assert_eq!(km.lookup(&keys("shift-down")), Lookup::Action(Action::SelectDown), "{name}");
            assert_eq!(km.lookup(&keys("B")), Lookup::Action(Action::BookmarkNamed), "{name}");
            assert_eq!(Chord::parse("shift-left").unwrap().to_string(), "shift-left");
        }
    }
}
