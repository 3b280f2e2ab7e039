//! Bookmarks kept in a sidecar file keyed by a hash of the input's content, under
//! `$XDG_STATE_HOME/animscope/bookmarks/<hash>.tsv` (else `~/.local/state/...`), so they
//! follow the bytes, not the file name. One line per bookmark: `offset<TAB>title`.

use std::path::{Path, PathBuf};

/// A bookmark: bytes (by their title, e.g. `demo.bin › xasc00.cmp (inflated)`) and offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Title of the bytes it is in.
    pub title: String,
    /// Offset in those bytes.
    pub offset: u64,
}

/// The bookmarks of one input and where they are saved.
#[derive(Debug, Clone, Default)]
pub struct Store {
    /// The bookmarks, in the order added.
    pub marks: Vec<Mark>,
    /// Sidecar file (None: not saved).
    pub file: Option<PathBuf>,
}

/// FNV-1a 64 over the content (inputs over 64 MiB: length plus first and last 16 MiB).
pub fn content_hash(data: &[u8]) -> u64 {
    const CAP: usize = 64 << 20;
    const PART: usize = 16 << 20;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    if data.len() <= CAP {
        eat(data);
    } else {
        eat(&(data.len() as u64).to_le_bytes());
        eat(data.get(..PART).unwrap_or(&[]));
        eat(data.get(data.len() - PART..).unwrap_or(&[]));
    }
    h
}

/// `$XDG_STATE_HOME/animscope`, else `$HOME/.local/state/animscope`.
pub fn default_state_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("state")))?;
    Some(base.join("animscope"))
}

impl Store {
    /// Load the bookmarks for `data` from `state_dir` (missing file: none yet).
    pub fn load(state_dir: Option<&Path>, data: &[u8]) -> Store {
        let Some(dir) = state_dir else { return Store::default() };
        let file = dir.join("bookmarks").join(format!("{:016x}.tsv", content_hash(data)));
        let marks = std::fs::read_to_string(&file)
            .map(|t| {
                t.lines()
                    .filter_map(|l| {
                        let (o, title) = l.split_once('\t')?;
                        Some(Mark { title: title.to_string(), offset: crate::session::parse_offset(o)? })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Store { marks, file: Some(file) }
    }

    /// Add a bookmark, or remove it if present; true when added.
    pub fn toggle(&mut self, title: &str, offset: u64) -> bool {
        if let Some(i) = self.marks.iter().position(|m| m.title == title && m.offset == offset) {
            self.marks.remove(i);
            false
        } else {
            self.marks.push(Mark { title: title.to_string(), offset });
            true
        }
    }

    /// Write the sidecar file; Ok(None) when there is nowhere to save.
    pub fn save(&self) -> std::io::Result<Option<&Path>> {
        let Some(file) = &self.file else { return Ok(None) };
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text: String = self.marks.iter().map(|m| format!("0x{:x}\t{}\n", m.offset, m.title)).collect();
        crate::export::write_atomic(file, text.as_bytes(), true)?;
        Ok(Some(file))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn bookmarks_round_trip_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::load(Some(dir.path()), b"abc");
        assert!(s.toggle("a.bin", 0x10));
        assert!(s.toggle("a.bin › m (inflated)", 3));
        s.save().unwrap();
        let again = Store::load(Some(dir.path()), b"abc");
        assert_eq!(again.marks, s.marks);
        assert!(Store::load(Some(dir.path()), b"abd").marks.is_empty());
        assert!(!s.toggle("a.bin", 0x10));
        assert_eq!(s.marks.len(), 1);
    }
}
