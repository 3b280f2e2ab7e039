//! The input bytes: a file mapped read-only (memmap2), read into memory (small files,
//! pipes, `--no-mmap`), an inflated archive member, or the embedded demo. The input is
//! never written. Size and mtime are recorded at open so a file changed underneath can be
//! detected before its mapped bytes are touched again.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Files smaller than this are read into memory instead of mapped: cheap, and immune to
/// the file being truncated underneath us.
pub const MMAP_THRESHOLD: u64 = 1 << 20;

/// How to open a file.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenOptions {
    /// Never map; always read into memory.
    pub no_mmap: bool,
}

/// Why a source could not be opened. Messages are one line, lowercase, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The file does not exist.
    #[error("{path}: no such file")]
    NotFound {
        /// The path given.
        path: String,
    },
    /// The path is a directory.
    #[error("{path}: is a directory, not a file")]
    IsDirectory {
        /// The path given.
        path: String,
    },
    /// The file has no bytes.
    #[error("{path}: file is empty")]
    Empty {
        /// The path given.
        path: String,
    },
    /// Permission denied.
    #[error("{path}: permission denied")]
    PermissionDenied {
        /// The path given.
        path: String,
    },
    /// Any other I/O error (a socket, a device that refuses reads, an I/O fault).
    #[error("{path}: cannot read: {}", lowercase_first(&.source.to_string()))]
    Io {
        /// The path given.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_lowercase().chain(c).collect()).unwrap_or_default()
}

enum Backing {
    /// The map and the file it maps (kept for `read_at`, which scans without faulting
    /// mapped pages into the process).
    Mapped(memmap2::Mmap, File),
    Heap(Vec<u8>),
    Static(&'static [u8]),
}

/// Bytes to inspect, with where they came from.
pub struct Source {
    name: String,
    path: Option<PathBuf>,
    backing: Backing,
    size: u64,
    mtime: Option<SystemTime>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("name", &self.name)
            .field("size", &self.size)
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

fn classify(path: &Path, e: std::io::Error) -> SourceError {
    let p = path.display().to_string();
    match e.kind() {
        std::io::ErrorKind::NotFound => SourceError::NotFound { path: p },
        std::io::ErrorKind::PermissionDenied => SourceError::PermissionDenied { path: p },
        std::io::ErrorKind::IsADirectory => SourceError::IsDirectory { path: p },
        _ => SourceError::Io { path: p, source: e },
    }
}

impl Source {
    /// Open `path` read-only. Regular files of at least [`MMAP_THRESHOLD`] bytes are mapped
    /// unless `opts.no_mmap`; small files, pipes and character devices are read.
    pub fn open(path: &Path, opts: OpenOptions) -> Result<Source, SourceError> {
        let p = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| classify(path, e))?;
        if meta.is_dir() {
            return Err(SourceError::IsDirectory { path: p });
        }
        let mut file = File::open(path).map_err(|e| classify(path, e))?;
        let name = path.file_name().map_or_else(|| p.clone(), |n| n.to_string_lossy().into_owned());
        let mtime = meta.modified().ok();
        let backing = if meta.is_file() && meta.len() >= MMAP_THRESHOLD && !opts.no_mmap {
            // SAFETY: the map is read-only (PROT_READ, MAP_PRIVATE semantics via `Mmap`), so we
            // never write through it. The remaining hazard is another process truncating or
            // rewriting the file while mapped, which would make reads fault (SIGBUS) or change
            // under us. We record size and mtime here and consumers call `changed()` before
            // touching mapped bytes again after idle time (the TUI does on each event batch);
            // files below MMAP_THRESHOLD are read into memory instead, and `--no-mmap` avoids
            // mapping entirely for users on volatile filesystems.
            #[allow(unsafe_code)]
            let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| classify(path, e))?;
            Backing::Mapped(map, file)
        } else {
            let mut buf = Vec::new();
            file.read_to_end(&mut buf).map_err(|e| classify(path, e))?;
            Backing::Heap(buf)
        };
        let size = match &backing {
            Backing::Mapped(m, _) => m.len() as u64,
            Backing::Heap(v) => v.len() as u64,
            Backing::Static(s) => s.len() as u64,
        };
        if size == 0 {
            return Err(SourceError::Empty { path: p });
        }
        Ok(Source { name, path: Some(path.to_path_buf()), backing, size, mtime })
    }

    /// Bytes already in memory (an inflated member, a test vector).
    pub fn from_vec(name: impl Into<String>, data: Vec<u8>) -> Source {
        let size = data.len() as u64;
        Source { name: name.into(), path: None, backing: Backing::Heap(data), size, mtime: None }
    }

    /// Bytes built into the binary (the demo archive).
    pub fn from_static(name: impl Into<String>, data: &'static [u8]) -> Source {
        Source { name: name.into(), path: None, backing: Backing::Static(data), size: data.len() as u64, mtime: None }
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.backing {
            Backing::Mapped(m, _) => m,
            Backing::Heap(v) => v,
            Backing::Static(s) => s,
        }
    }

    /// Display name (file name, member name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file path, when the bytes came from a file.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Length in bytes at open.
    pub fn len(&self) -> u64 {
        self.size
    }

    /// True when there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// True when the bytes are a live memory map of the file.
    pub fn is_mapped(&self) -> bool {
        matches!(self.backing, Backing::Mapped(..))
    }

    /// Copy bytes at `offset` into `buf`; returns how many were copied (0 at the end). For
    /// a mapped file this reads the file (`pread`) instead of the map, so long scans
    /// (archive listing) do not fault every page into the process: mapped pages count
    /// toward RSS, page-cache pages read this way do not.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        match &self.backing {
            #[cfg(unix)]
            Backing::Mapped(_, file) => {
                use std::os::unix::fs::FileExt;
                let end = self.size.saturating_sub(offset).min(buf.len() as u64);
                let end = usize::try_from(end).unwrap_or(buf.len());
                file.read_at(buf.get_mut(..end).unwrap_or_default(), offset)
            }
            _ => {
                let b = self.bytes();
                let start = usize::try_from(offset).unwrap_or(usize::MAX).min(b.len());
                let src = b.get(start..).unwrap_or_default();
                let n = src.len().min(buf.len());
                if let (Some(d), Some(s)) = (buf.get_mut(..n), src.get(..n)) {
                    d.copy_from_slice(s);
                }
                Ok(n)
            }
        }
    }

    /// Tell the kernel the map will be read front to back (more read-ahead, pages dropped
    /// sooner under memory pressure). A no-op for bytes that are not mapped.
    pub fn advise_sequential(&self) -> std::io::Result<()> {
        match &self.backing {
            #[cfg(unix)]
            Backing::Mapped(m, _) => m.advise(memmap2::Advice::Sequential),
            _ => Ok(()),
        }
    }

    /// Tell the kernel accesses to the map are random (no read-ahead around page faults):
    /// for browsing, where each touch is one member's few pages. A no-op for bytes that are
    /// not mapped. (Linux may still map cached neighbours of a faulting page, up to 64 KiB;
    /// listing therefore reads member headers with [`Source::read_at`], not through the map.)
    pub fn advise_random(&self) -> std::io::Result<()> {
        match &self.backing {
            #[cfg(unix)]
            Backing::Mapped(m, _) => m.advise(memmap2::Advice::Random),
            _ => Ok(()),
        }
    }

    /// Modification time recorded at open.
    pub fn mtime(&self) -> Option<SystemTime> {
        self.mtime
    }

    /// True when the file on disk no longer has the size or mtime it had at open (or is
    /// gone). Always false for bytes not backed by a file.
    pub fn changed(&self) -> bool {
        let Some(path) = &self.path else { return false };
        match std::fs::metadata(path) {
            Ok(m) => m.len() != self.size || m.modified().ok() != self.mtime,
            Err(_) => true,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn small_files_are_read_large_are_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("s.bin");
        std::fs::write(&small, b"abc").unwrap();
        let s = Source::open(&small, OpenOptions::default()).unwrap();
        assert!(!s.is_mapped());
        assert_eq!(s.bytes(), b"abc");
        let big = dir.path().join("b.bin");
        std::fs::write(&big, vec![7u8; MMAP_THRESHOLD as usize]).unwrap();
        let b = Source::open(&big, OpenOptions::default()).unwrap();
        assert!(b.is_mapped());
        assert!(!b.changed());
        let nb = Source::open(&big, OpenOptions { no_mmap: true }).unwrap();
        assert!(!nb.is_mapped());
        // read_at agrees between the mapped and the read copy, and stops at the end
        for s in [&b, &nb] {
            let mut buf = [0u8; 8];
            assert_eq!(s.read_at(MMAP_THRESHOLD - 3, &mut buf).unwrap(), 3);
            assert_eq!(&buf[..3], &[7, 7, 7]);
            assert_eq!(s.read_at(MMAP_THRESHOLD + 5, &mut buf).unwrap(), 0);
        }
        b.advise_sequential().unwrap();
        b.advise_random().unwrap();
        nb.advise_random().unwrap();
        std::fs::write(&big, b"shrunk").unwrap();
        assert!(b.changed());
    }

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let e = Source::open(dir.path(), OpenOptions::default()).unwrap_err();
        assert!(matches!(e, SourceError::IsDirectory { .. }));
        let missing = dir.path().join("nope");
        let e = Source::open(&missing, OpenOptions::default()).unwrap_err();
        assert!(e.to_string().ends_with("nope: no such file"), "{e}");
        let empty = dir.path().join("e");
        std::fs::write(&empty, b"").unwrap();
        assert!(matches!(Source::open(&empty, OpenOptions::default()), Err(SourceError::Empty { .. })));
    }
}
