//! Bookmarks kept in a sidecar file keyed by a hash of the input's content, under
//! `$XDG_STATE_HOME/animscope/bookmarks/<hash>.tsv` (else `~/.local/state/...`), so they
//! follow the bytes, not the file name. One line per bookmark: `offset<TAB>title`, and
//! `<TAB>name` when it was given a name.

use crate::source::Source;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A bookmark: bytes (by their title, e.g. `demo.bin › xasc00.cmp (inflated)`) and offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Title of the bytes it is in.
    pub title: String,
    /// Offset in those bytes.
    pub offset: u64,
    /// What the user called it (empty: no name).
    pub name: String,
}

/// `name` as a bookmark name: one line, no tabs (the file's separators), trimmed.
pub fn clean_name(name: &str) -> String {
    name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().trim().to_string()
}

/// The bookmarks of the input, read when first wanted (the diagnostics pane shown, a
/// bookmark added, named or jumped to): finding their file hashes every byte of the input
/// (about 2.5 ms for 1.7 MB), which the first frame does not need.
#[derive(Debug, Default)]
pub struct Bookmarks {
    store: std::cell::OnceCell<Store>,
    /// Where they are read from when first wanted: the state directory and the input.
    from: Option<(PathBuf, Arc<Source>)>,
}

impl Bookmarks {
    /// Bookmarks already read (or none, to be merged with [`Store::merge_loaded`]).
    pub fn loaded(store: Store) -> Bookmarks {
        Bookmarks { store: std::cell::OnceCell::from(store), from: None }
    }

    /// The bookmarks of `source` in `state_dir`, read (by `pread`, as the background hash
    /// of a large input reads them) when first wanted.
    pub fn when_wanted(state_dir: PathBuf, source: Arc<Source>) -> Bookmarks {
        Bookmarks { store: std::cell::OnceCell::new(), from: Some((state_dir, source)) }
    }

    /// The bookmarks (read now if they were not yet).
    pub fn get(&self) -> &Store {
        self.store.get_or_init(|| self.read())
    }

    /// The bookmarks to change (read now if they were not yet).
    pub fn get_mut(&mut self) -> &mut Store {
        if self.store.get().is_none() {
            self.store = std::cell::OnceCell::from(self.read());
        }
        self.store.get_mut().expect("set just above")
    }

    fn read(&self) -> Store {
        let Some((dir, source)) = &self.from else { return Store::default() };
        match content_hash_reader(source.len(), &mut |off, buf| source.read_at(off, buf)) {
            Ok(h) => Store::load_hashed(Some(dir), h),
            Err(_) => Store::default(),
        }
    }
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

/// [`content_hash`] of bytes read through `read_at(offset, buf)` (e.g. `pread`), so hashing a
/// large mapped file faults none of its pages into the process.
pub fn content_hash_reader(
    len: u64,
    read_at: &mut dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize>,
) -> std::io::Result<u64> {
    const CAP: u64 = 64 << 20;
    const PART: u64 = 16 << 20;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let ranges = if len <= CAP {
        vec![(0, len)]
    } else {
        eat(&len.to_le_bytes());
        vec![(0, PART), (len - PART, len)]
    };
    let mut buf = vec![0u8; 1 << 20];
    for (mut at, end) in ranges {
        while at < end {
            let want = usize::try_from((end - at).min(buf.len() as u64)).unwrap_or(0);
            let Some(chunk) = buf.get_mut(..want) else { break };
            let n = read_at(at, chunk)?;
            if n == 0 {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "file shorter than its length"));
            }
            eat(chunk.get(..n).unwrap_or_default());
            at += n as u64;
        }
    }
    Ok(h)
}

/// Most bytes of a bookmark file read (larger ones are ignored, as a missing one is).
pub const MAX_BOOKMARK_FILE: u64 = 1 << 20;

/// `$XDG_STATE_HOME/animscope`, else `$HOME/.local/state/animscope`.
pub fn default_state_dir() -> Option<PathBuf> {
    // The XDG base directory spec: a relative value is invalid and ignored.
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("state")))?;
    Some(base.join("animscope"))
}

impl Store {
    /// Load the bookmarks for `data` from `state_dir` (missing file: none yet).
    pub fn load(state_dir: Option<&Path>, data: &[u8]) -> Store {
        if state_dir.is_none() {
            return Store::default();
        }
        Store::load_hashed(state_dir, content_hash(data))
    }

    /// Load the bookmarks saved under the content hash `hash` (see [`content_hash`]).
    pub fn load_hashed(state_dir: Option<&Path>, hash: u64) -> Store {
        let Some(dir) = state_dir else { return Store::default() };
        let file = dir.join("bookmarks").join(format!("{hash:016x}.tsv"));
        // Opened as inputs are (regular files only, never blocking on a FIFO) and capped: a
        // bookmark line is tens of bytes, so the cap is thousands of bookmarks.
        let marks = crate::source::read_small_file(&file, MAX_BOOKMARK_FILE)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map(|t| {
                t.lines()
                    .filter_map(|l| {
                        let mut cols = l.splitn(3, '\t');
                        let (o, title) = (cols.next()?, cols.next()?);
                        let name = cols.next().map(clean_name).unwrap_or_default();
                        Some(Mark { title: title.to_string(), offset: crate::session::parse_offset(o)?, name })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Store { marks, file: Some(file) }
    }

    /// Take the bookmarks loaded in the background (`loaded`); marks added meanwhile are
    /// kept after them and saved.
    pub fn merge_loaded(&mut self, loaded: Store) -> std::io::Result<()> {
        let added = std::mem::take(&mut self.marks);
        *self = loaded;
        if added.is_empty() {
            return Ok(());
        }
        for m in added {
            if !self.marks.contains(&m) {
                self.marks.push(m);
            }
        }
        self.save().map(|_| ())
    }

    /// Add a bookmark, or remove it if present; true when added.
    pub fn toggle(&mut self, title: &str, offset: u64) -> bool {
        if let Some(i) = self.marks.iter().position(|m| m.title == title && m.offset == offset) {
            self.marks.remove(i);
            false
        } else {
            self.marks.push(Mark { title: title.to_string(), offset, name: String::new() });
            true
        }
    }

    /// Name the bookmark at (`title`, `offset`), adding it if there is none (an empty
    /// name removes the name, not the bookmark).
    pub fn set_name(&mut self, title: &str, offset: u64, name: &str) {
        let name = clean_name(name);
        match self.marks.iter_mut().find(|m| m.title == title && m.offset == offset) {
            Some(m) => m.name = name,
            None => self.marks.push(Mark { title: title.to_string(), offset, name }),
        }
    }

    /// The name of the bookmark at (`title`, `offset`), if it has one.
    pub fn name_at(&self, title: &str, offset: u64) -> Option<&str> {
        self.marks
            .iter()
            .find(|m| m.title == title && m.offset == offset && !m.name.is_empty())
            .map(|m| m.name.as_str())
    }

    /// Write the sidecar file; Ok(None) when there is nowhere to save.
    pub fn save(&self) -> std::io::Result<Option<&Path>> {
        let Some(file) = &self.file else { return Ok(None) };
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text: String = self
            .marks
            .iter()
            .map(|m| match m.name.as_str() {
                "" => format!("0x{:x}\t{}\n", m.offset, m.title),
                name => format!("0x{:x}\t{}\t{name}\n", m.offset, m.title),
            })
            .collect();
        // The store's own text, a line per mark: not capped by an export budget.
        super::export::write_atomic(file, text.as_bytes(), true, u64::MAX)?;
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

    #[test]
    fn names_are_kept_in_a_third_column() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::load(Some(dir.path()), b"xyz");
        s.toggle("a.bin", 0x10);
        s.set_name("a.bin", 0x10, "walk\tstart\n");
        s.set_name("a.bin", 0x20, "new one");
        s.save().unwrap();
        let text = std::fs::read_to_string(s.file.as_ref().unwrap()).unwrap();
        assert_eq!(text, "0x10\ta.bin\twalk start\n0x20\ta.bin\tnew one\n");
        let again = Store::load(Some(dir.path()), b"xyz");
        assert_eq!(again.name_at("a.bin", 0x10), Some("walk start"));
        assert_eq!(again.marks.len(), 2);
        // files written before names existed still load
        std::fs::write(s.file.as_ref().unwrap(), "0x5\ta.bin\n").unwrap();
        let old = Store::load(Some(dir.path()), b"xyz");
        assert_eq!(old.marks, [Mark { title: "a.bin".into(), offset: 5, name: String::new() }]);
        assert_eq!(old.name_at("a.bin", 5), None);
    }

    #[test]
    fn hash_by_reader_matches_hash_of_memory() {
        // over and under the 64 MiB cap (which hashes only the length, head and tail)
        for len in [0usize, 5, (1 << 20) + 7, (64 << 20) + 4099] {
            let data: Vec<u8> = (0..len).map(|i| (i * 131 % 251) as u8).collect();
            let mut read_at = |off: u64, buf: &mut [u8]| {
                let src = data.get(off as usize..).unwrap_or_default();
                let n = src.len().min(buf.len()).min(300_001); // short reads too
                buf[..n].copy_from_slice(&src[..n]);
                Ok(n)
            };
            assert_eq!(content_hash_reader(len as u64, &mut read_at).unwrap(), content_hash(&data), "len {len}");
        }
    }

    #[test]
    fn marks_added_while_loading_are_kept_after_the_loaded_ones() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::load_hashed(Some(dir.path()), 7);
        s.toggle("a", 1);
        s.save().unwrap();
        let mut early = Store::default();
        early.toggle("a", 2);
        early.merge_loaded(Store::load_hashed(Some(dir.path()), 7)).unwrap();
        assert_eq!(early.marks.iter().map(|m| m.offset).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(Store::load_hashed(Some(dir.path()), 7).marks, early.marks, "saved after the merge");
    }
}
