//! The input bytes: a file mapped read-only (memmap2), read into memory (small files,
//! `--no-mmap`), an inflated archive member, or the embedded demo. The input is never
//! written. Size and mtime are recorded at open so a file changed underneath can be
//! detected before its mapped bytes are touched again.
//!
//! Only regular files are opened. Devices (`/dev/zero` never ends), FIFOs (opening one
//! with no writer blocks forever) and sockets are refused with "not a regular file": the
//! path is checked before opening, opened non-blocking and checked again on the opened
//! descriptor (`fstat`), so a path swapped for a FIFO in between cannot block either.
//! Every read into memory is capped ([`Limits::max_input`], [`read_small_file`]'s cap):
//! a file that grows while read is read up to its size at open.

use crate::limits::Limits;
use crate::text::sanitize;
use std::fs::{File, Metadata};
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

/// Why a source could not be opened. Messages are one line, lowercase, naming the file
/// (control characters in the path shown escaped).
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The file does not exist.
    #[error("{}: no such file", sanitize(.path))]
    NotFound {
        /// The path given.
        path: String,
    },
    /// The path is a directory.
    #[error("{}: is a directory, not a file", sanitize(.path))]
    IsDirectory {
        /// The path given.
        path: String,
    },
    /// The file has no bytes.
    #[error("{}: file is empty", sanitize(.path))]
    Empty {
        /// The path given.
        path: String,
    },
    /// Permission denied.
    #[error("{}: permission denied", sanitize(.path))]
    PermissionDenied {
        /// The path given.
        path: String,
    },
    /// The path is a device, FIFO or socket: reading it could block forever or never end.
    #[error("{}: not a regular file ({kind})", sanitize(.path))]
    NotRegular {
        /// The path given.
        path: String,
        /// What it is instead ("character device", "fifo", ...).
        kind: &'static str,
    },
    /// The file is larger than the cap for reading it into memory.
    #[error("{}: too large to read into memory ({size} bytes, limit {max})", sanitize(.path))]
    TooLarge {
        /// The path given.
        path: String,
        /// Its size (at least this many bytes, when it grew while read).
        size: u64,
        /// The cap.
        max: u64,
    },
    /// Any other I/O error (a socket, a device that refuses reads, an I/O fault).
    #[error("{}: cannot read: {}", sanitize(.path), sanitize(&lowercase_first(&.source.to_string())))]
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
    /// Device, inode and status-change time (seconds, nanoseconds) at open: a rewrite that
    /// keeps size and mtime (`touch -r`, a copy preserving times, a rename over the file)
    /// still moves the ctime or the inode, which no user can set back.
    identity: Option<(u64, u64, i64, i64)>,
}

/// The device, inode and ctime of `m` ([`Source::changed`]).
fn identity(m: &std::fs::Metadata) -> (u64, u64, i64, i64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino(), m.ctime(), m.ctime_nsec())
}

impl Drop for Source {
    fn drop(&mut self) {
        // the handler must not touch the range once it is unmapped (the map drops after this)
        if let Backing::Mapped(m, _) = &self.backing {
            sigbus_net::unregister(m.as_ptr());
        }
    }
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

/// What a non-regular file is, for the error message.
fn kind_of(meta: &Metadata) -> &'static str {
    let ft = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "fifo";
        }
        if ft.is_char_device() {
            return "character device";
        }
        if ft.is_block_device() {
            return "block device";
        }
        if ft.is_socket() {
            return "socket";
        }
    }
    "special file"
}

fn check_regular(path: &Path, meta: &Metadata) -> Result<(), SourceError> {
    let p = || path.display().to_string();
    if meta.is_dir() {
        Err(SourceError::IsDirectory { path: p() })
    } else if !meta.is_file() {
        Err(SourceError::NotRegular { path: p(), kind: kind_of(meta) })
    } else {
        Ok(())
    }
}

/// Open `path` for reading only if it is a regular file: checked by path first (so a
/// device is never opened at all, opening some has side effects), then opened with
/// `O_NONBLOCK | O_NOCTTY` (a FIFO swapped in meanwhile cannot block the open, a terminal
/// cannot become our controlling one) and checked again on the descriptor. For regular
/// files `O_NONBLOCK` changes nothing.
fn open_regular(path: &Path) -> Result<(File, Metadata), SourceError> {
    let before = std::fs::metadata(path).map_err(|e| classify(path, e))?;
    check_regular(path, &before)?;
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = o.open(path).map_err(|e| classify(path, e))?;
    let meta = file.metadata().map_err(|e| classify(path, e))?;
    check_regular(path, &meta)?;
    Ok((file, meta))
}

/// Read an opened regular file into memory, at most `max` bytes. A file is read up to its
/// size at open (bytes appended meanwhile are left; `Source::changed` then reports the
/// change). A file reporting size 0 (procfs and the like) is read until it ends, failing
/// past `max`.
fn read_capped(path: &Path, file: File, meta: &Metadata, max: u64) -> Result<Vec<u8>, SourceError> {
    let len = meta.len();
    let too_large = |size| SourceError::TooLarge { path: path.display().to_string(), size, max };
    if len > max {
        return Err(too_large(len));
    }
    let want = if len == 0 { max.saturating_add(1) } else { len };
    let mut buf = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(want).read_to_end(&mut buf).map_err(|e| classify(path, e))?;
    if buf.len() as u64 > max {
        return Err(too_large(buf.len() as u64));
    }
    Ok(buf)
}

/// Read a small side file (a skeleton, a frames file) whole, refusing what is not a
/// regular file exactly as [`Source::open`] does and anything over `cap` bytes (normally
/// [`Limits::max_side_file`]). An empty file gives an empty vector.
pub fn read_small_file(path: &Path, cap: u64) -> Result<Vec<u8>, SourceError> {
    let (file, meta) = open_regular(path)?;
    read_capped(path, file, &meta, cap)
}

impl Source {
    /// Open `path` read-only. Regular files of at least [`MMAP_THRESHOLD`] bytes are mapped
    /// unless `opts.no_mmap`; smaller ones are read, up to the default
    /// [`Limits::max_input`]. Anything but a regular file is refused.
    pub fn open(path: &Path, opts: OpenOptions) -> Result<Source, SourceError> {
        Source::open_bounded(path, opts, Limits::default().max_input)
    }

    /// [`Source::open`] with an explicit cap on the bytes read into memory (`max_input`,
    /// normally [`Limits::max_input`]). Mapped files are not copied and not capped.
    pub fn open_bounded(path: &Path, opts: OpenOptions, max_input: u64) -> Result<Source, SourceError> {
        crate::counters::bump(&crate::counters::FILE_OPENS);
        let p = path.display().to_string();
        let (file, meta) = open_regular(path)?;
        let name = path.file_name().map_or_else(|| p.clone(), |n| n.to_string_lossy().into_owned());
        let mtime = meta.modified().ok();
        let backing = if meta.len() >= MMAP_THRESHOLD && !opts.no_mmap {
            // SAFETY: the map is read-only (PROT_READ, MAP_PRIVATE semantics via `Mmap`), so we
            // never write through it. The remaining hazard is another process truncating or
            // rewriting the file while mapped, which would make reads fault (SIGBUS) or change
            // under us. We record size and mtime here and consumers call `changed()` before
            // touching mapped bytes again after idle time (the TUI does on each event batch);
            // files below MMAP_THRESHOLD are read into memory instead, and `--no-mmap` avoids
            // mapping entirely for users on volatile filesystems.
            // Verbs and panes read through `read_exact_at` (pread) where a truncation could
            // strike unseen; `sigbus_net` ends the process cleanly if one still does.
            #[allow(unsafe_code)]
            let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| classify(path, e))?;
            sigbus_net::watch(&name);
            sigbus_net::register(map.as_ptr(), map.len());
            Backing::Mapped(map, file)
        } else {
            Backing::Heap(read_capped(path, file, &meta, max_input)?)
        };
        let size = match &backing {
            Backing::Mapped(m, _) => m.len() as u64,
            Backing::Heap(v) => v.len() as u64,
            Backing::Static(s) => s.len() as u64,
        };
        if size == 0 {
            return Err(SourceError::Empty { path: p });
        }
        Ok(Source { name, path: Some(path.to_path_buf()), backing, size, mtime, identity: Some(identity(&meta)) })
    }

    /// Bytes already in memory (an inflated member, a test vector).
    pub fn from_vec(name: impl Into<String>, data: Vec<u8>) -> Source {
        let size = data.len() as u64;
        Source { name: name.into(), path: None, backing: Backing::Heap(data), size, mtime: None, identity: None }
    }

    /// The bytes of a source made by [`Source::from_vec`], given back (None for others).
    pub fn into_vec(mut self) -> Option<Vec<u8>> {
        match std::mem::replace(&mut self.backing, Backing::Static(&[])) {
            Backing::Heap(v) => Some(v),
            other => {
                if let Backing::Mapped(m, _) = &other {
                    sigbus_net::unregister(m.as_ptr());
                }
                None
            }
        }
    }

    /// The name and the bytes of a source made by [`Source::from_vec`], given back (no
    /// bytes for others): a survey reuses both for the next archive member.
    pub fn into_name_and_vec(mut self) -> (String, Option<Vec<u8>>) {
        let name = std::mem::take(&mut self.name);
        (name, self.into_vec())
    }

    /// Bytes built into the binary (the demo archive).
    pub fn from_static(name: impl Into<String>, data: &'static [u8]) -> Source {
        Source {
            name: name.into(),
            path: None,
            backing: Backing::Static(data),
            size: data.len() as u64,
            mtime: None,
            identity: None,
        }
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
    /// toward RSS, page-cache pages read this way do not. A long read that starts in a hole
    /// of a sparse file is given the hole's zeros without reading them ([`hole_at`]).
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        match &self.backing {
            #[cfg(unix)]
            Backing::Mapped(_, file) => {
                use std::os::unix::fs::FileExt;
                let end = self.size.saturating_sub(offset).min(buf.len() as u64);
                let end = usize::try_from(end).unwrap_or(buf.len());
                let want = buf.get_mut(..end).unwrap_or_default();
                if want.len() >= HOLE_READ {
                    let zeros = usize::try_from(hole_at(file, offset)).unwrap_or(usize::MAX).min(want.len());
                    if let Some(z) = want.get_mut(..zeros).filter(|z| !z.is_empty()) {
                        z.fill(0);
                        return Ok(zeros);
                    }
                }
                file.read_at(want, offset)
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

    /// The run of data from `offset` on, as `(start, end)`: the bytes before `start` and from
    /// `end` on are a hole of a sparse file (zeros never written, known without reading them:
    /// `lseek` SEEK_DATA, SEEK_HOLE). `(offset, len)` for bytes in memory or a file system
    /// that cannot say; `(len, len)` when only holes follow. Clamped to the length at open.
    pub fn data_run(&self, offset: u64) -> (u64, u64) {
        let len = self.size;
        let offset = offset.min(len);
        match &self.backing {
            #[cfg(target_os = "linux")]
            Backing::Mapped(_, file) => {
                let start = offset.saturating_add(hole_at(file, offset)).min(len);
                if start >= len {
                    return (len, len);
                }
                let end =
                    rustix::fs::seek(file, rustix::fs::SeekFrom::Hole(start)).map_or(len, |h| h.clamp(start, len));
                // a run that SEEK_HOLE says is empty is not one: read on to the end
                (start, if end > start { end } else { len })
            }
            _ => (offset, len),
        }
    }

    /// Read exactly `buf.len()` bytes at `offset` through the checked path ([`Source::read_at`]:
    /// `pread` for a mapped file, never the map): a file cut shorter than it was at open is
    /// the "file changed on disk" error naming it, never a fault. Streaming verbs and the
    /// TUI's hex pane read this way, since they may wait (on a slow pipe, for a key) between
    /// reads.
    pub fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let mut done = 0usize;
        while let Some(rest) = buf.get_mut(done..).filter(|r| !r.is_empty()) {
            let n = self.read_at(offset.saturating_add(done as u64), rest)?;
            if n == 0 {
                return Err(self.changed_error());
            }
            done += n;
        }
        Ok(())
    }

    /// The bytes `start..end` (clamped to the bytes at open) for code that makes values from
    /// them while the file may change: bytes in memory are lent as they are; a mapped file's
    /// are copied through the checked path ([`Source::read_exact_at`], `pread`), so a file
    /// cut shorter is the "file changed on disk" error at the read, never a fault between a
    /// size check and a read of the map. Field builders that run while a verb streams
    /// (expansions, user layouts) read this way.
    pub fn checked_span(&self, start: u64, end: u64) -> std::io::Result<std::borrow::Cow<'_, [u8]>> {
        let end = end.min(self.size);
        let start = start.min(end);
        match &self.backing {
            Backing::Mapped(..) => {
                let mut buf = vec![0u8; usize::try_from(end - start).map_err(std::io::Error::other)?];
                self.read_exact_at(start, &mut buf)?;
                Ok(std::borrow::Cow::Owned(buf))
            }
            _ => {
                let (s, e) = (usize::try_from(start).unwrap_or(usize::MAX), usize::try_from(end).unwrap_or(usize::MAX));
                Ok(std::borrow::Cow::Borrowed(self.bytes().get(s..e).unwrap_or_default()))
            }
        }
    }

    /// The "file changed on disk" error when the mapped file is now shorter than at open
    /// (one `fstat` of the descriptor the map was made from); Ok for bytes not mapped.
    /// Streaming verbs call it after every write that may have waited (a slow pipe) and
    /// before they touch mapped bytes again, so a truncation made while they waited is this
    /// error, not a fault.
    pub fn check_not_shorter(&self) -> std::io::Result<()> {
        match &self.backing {
            Backing::Mapped(_, file) => match file.metadata() {
                Ok(m) if m.len() >= self.size => Ok(()),
                _ => Err(self.changed_error()),
            },
            _ => Ok(()),
        }
    }

    /// The error for bytes that are no longer there: "NAME: file changed on disk".
    pub fn changed_error(&self) -> std::io::Error {
        std::io::Error::other(format!(
            "{}: file changed on disk (it is shorter than when it was opened); reopen it",
            sanitize(&self.name)
        ))
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

    /// True when the file on disk no longer has the size, mtime, inode or ctime it had at
    /// open (or is gone): one `stat`, cheap enough before every background job. A rewrite
    /// of the same size that restores the mtime is caught by the ctime; a file renamed over
    /// it by the inode. (A chmod or a new hard link also moves the ctime: reported as a
    /// change, the safe side.) Always false for bytes not backed by a file.
    pub fn changed(&self) -> bool {
        let Some(path) = &self.path else { return false };
        match std::fs::metadata(path) {
            Ok(m) => {
                m.len() != self.size
                    || m.modified().ok() != self.mtime
                    || self.identity.is_some_and(|id| identity(&m) != id)
            }
            Err(_) => true,
        }
    }
}

/// Reads at least this long ask the file system for holes first ([`hole_at`]): one
/// `lseek` is nothing beside them, while the many small reads (member headers) skip it.
const HOLE_READ: usize = 256 << 10;

/// Bytes of hole (never written: they read as zeros) from `offset` in `file`, by
/// `lseek(SEEK_DATA)`; 0 when data starts there or the file system cannot say. Scanning a
/// sparse file then costs no reads of its holes: probing a 4 GiB sparse file for archive
/// members read all of it, the kernel zero-filling 4 GiB of page cache first (`check`
/// took 21.5 s when it ran first and met that cost, `survey` 7.9 s after it). Holes past
/// the file's current end are not holes: the file was cut shorter, and the read that
/// follows says so.
fn hole_at(file: &File, offset: u64) -> u64 {
    #[cfg(target_os = "linux")]
    {
        match rustix::fs::seek(file, rustix::fs::SeekFrom::Data(offset)) {
            Ok(data) => data.saturating_sub(offset),
            // no data after `offset`: a hole up to the end, if the file still goes that far
            Err(rustix::io::Errno::NXIO) => file.metadata().map_or(0, |m| m.len().saturating_sub(offset)),
            Err(_) => 0,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (file, offset);
        0
    }
}

/// The last line of defence against a mapped file cut shorter while it is read: a SIGBUS
/// handler. While the TUI runs, a fault inside a mapped input replaces that input's whole
/// map with zero pages and returns, so the read goes on (giving zeros) and the TUI goes on:
/// its next check of the file's size and mtime says the file changed on disk and stops
/// reading it, and what was built stays browsable (docs/GUIDE.md). Elsewhere (the verbs,
/// whose output must not be made from zeros), and for a fault in no registered map, it puts
/// the terminal back (when the TUI holds it), says which file changed on disk and ends the
/// process with status 2, instead of a death by signal (exit 135) that leaves the terminal
/// raw. Paths that may wait between reads use [`Source::read_exact_at`] and never get here;
/// this covers format code reading the map.
#[allow(unsafe_code)]
pub mod sigbus_net {
    use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
    use std::sync::{Mutex, Once, OnceLock};

    /// Mapped inputs (start address, length), for the handler to find the map a fault is
    /// in without a lock; a slot whose start is 0 is free. More maps than slots are still
    /// covered by the process-ending path.
    static MAPS: [(AtomicUsize, AtomicUsize); 64] = [const { (AtomicUsize::new(0), AtomicUsize::new(0)) }; 64];
    /// Maps the handler has replaced with zeros (a file cut shorter was read through one).
    static ZEROED: AtomicUsize = AtomicUsize::new(0);

    /// Register a map of `len` bytes at `start` (an input being mapped).
    pub(super) fn register(start: *const u8, len: usize) {
        let start = start as usize;
        if start == 0 || len == 0 {
            return;
        }
        for (s, l) in &MAPS {
            if s.load(Ordering::SeqCst) == 0 {
                l.store(len, Ordering::SeqCst);
                if s.compare_exchange(0, start, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
                    return;
                }
            }
        }
    }

    /// Forget the map at `start` (before it is unmapped).
    pub(super) fn unregister(start: *const u8) {
        let start = start as usize;
        for (s, _) in &MAPS {
            let _ = s.compare_exchange(start, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }

    /// How many maps were replaced with zeros since the process started (for tests and
    /// status lines: a fault the TUI survived).
    pub fn zeroed_maps() -> usize {
        ZEROED.load(Ordering::SeqCst)
    }

    /// "animscope: NAMES: …" as bytes, leaked (replaced a few times per process at most).
    static MESSAGE: AtomicPtr<Vec<u8>> = AtomicPtr::new(std::ptr::null_mut());
    static NAMES: Mutex<Vec<String>> = Mutex::new(Vec::new());
    static TERMIOS: OnceLock<libc::termios> = OnceLock::new();
    static TUI: AtomicBool = AtomicBool::new(false);
    static INSTALL: Once = Once::new();

    /// Leave the alternate screen, show the cursor, stop mouse reporting.
    const RESTORE: &[u8] = b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1049l\x1b[?25h";

    /// Install the handler (once) and name `name` in its message.
    pub fn watch(name: &str) {
        if let Ok(mut names) = NAMES.lock() {
            names.push(crate::text::sanitize(name).into_owned());
            let text = format!(
                "animscope: {}: file changed on disk (cut shorter while it was mapped and read); stopped\n",
                names.join(" or ")
            );
            MESSAGE.store(Box::into_raw(Box::new(text.into_bytes())), Ordering::SeqCst);
        }
        INSTALL.call_once(|| {
            // SAFETY: a zeroed sigaction is valid; the handler only makes async-signal-safe
            // calls (tcsetattr, write, _exit) on data set before it can run.
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
                sa.sa_flags = libc::SA_SIGINFO;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut());
            }
        });
    }

    /// The TUI takes the terminal: remember its modes (before raw mode) so the handler can
    /// put them back. `false` when it gives the terminal back.
    pub fn tui_holds_terminal(on: bool) {
        if on && TERMIOS.get().is_none() {
            // SAFETY: tcgetattr writes only into the termios we pass.
            let mut t: libc::termios = unsafe { std::mem::zeroed() };
            if unsafe { libc::tcgetattr(libc::STDIN_FILENO, &mut t) } == 0 {
                let _ = TERMIOS.set(t);
            }
        }
        TUI.store(on, Ordering::SeqCst);
    }

    /// Replace the registered map holding `addr` with zero pages (same place, read-only);
    /// false when `addr` is in no registered map or the kernel refused.
    ///
    /// # Safety
    /// Only from the SIGBUS handler: mmap on a range this process maps read-only itself.
    unsafe fn zero_fill(addr: usize) -> bool {
        for (s, l) in &MAPS {
            let (start, len) = (s.load(Ordering::SeqCst), l.load(Ordering::SeqCst));
            if start != 0 && addr >= start && addr - start < len {
                // SAFETY: the range is a live read-only file map of ours (unregistered before
                // it is unmapped); MAP_FIXED swaps its pages for anonymous zero pages in one
                // call, so no other mapping can take the range meanwhile.
                let p = unsafe {
                    libc::mmap(
                        start as *mut libc::c_void,
                        len,
                        libc::PROT_READ,
                        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                        -1,
                        0,
                    )
                };
                if p as usize == start {
                    ZEROED.fetch_add(1, Ordering::SeqCst);
                    return true;
                }
                return false;
            }
        }
        false
    }

    extern "C" fn on_sigbus(_sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
        // SAFETY: async-signal-safe calls only, on buffers that live for the process; the
        // siginfo the kernel passes is valid for the handler's run.
        unsafe {
            // the TUI survives: the faulting read is retried and reads zeros
            if TUI.load(Ordering::SeqCst)
                && let Some(i) = info.as_ref()
                && zero_fill(i.si_addr() as usize)
            {
                return;
            }
            if TUI.load(Ordering::SeqCst) {
                if let Some(t) = TERMIOS.get() {
                    libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, t);
                }
                libc::write(libc::STDOUT_FILENO, RESTORE.as_ptr().cast(), RESTORE.len());
            }
            let m = MESSAGE.load(Ordering::SeqCst);
            if let Some(m) = m.as_ref() {
                libc::write(libc::STDERR_FILENO, m.as_ptr().cast(), m.len());
            }
            libc::_exit(2);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A sparse file read in long chunks through `read_at` (holes given as zeros without
    /// reading them) gives exactly its bytes: data before, between and after holes, a hole
    /// to the end; once the file is cut shorter, reads past its new end give nothing.
    #[test]
    fn long_reads_of_a_sparse_file_give_its_bytes() {
        use std::io::{Seek, SeekFrom, Write};
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sparse.bin");
        let mut f = File::create(&p).unwrap();
        for (at, bytes) in [(0u64, &b"\x1f\x8b\x08head"[..]), (3 << 20, b"middle data"), (5 << 20, b"late")] {
            f.seek(SeekFrom::Start(at)).unwrap();
            f.write_all(bytes).unwrap();
        }
        f.set_len(9 << 20).unwrap();
        f.sync_all().unwrap();
        let whole = std::fs::read(&p).unwrap();
        let s = Source::open(&p, OpenOptions::default()).unwrap();
        assert!(s.is_mapped());
        let mut got = Vec::new();
        let mut buf = vec![0xAAu8; HOLE_READ * 3];
        while (got.len() as u64) < s.len() {
            let n = s.read_at(got.len() as u64, &mut buf).unwrap();
            assert!(n > 0, "a read at {} gave nothing", got.len());
            got.extend_from_slice(&buf[..n]);
        }
        assert!(got == whole, "read_at differs from the file's bytes");
        f.set_len(4 << 20).unwrap();
        assert_eq!(s.read_at(6 << 20, &mut buf).unwrap(), 0);
        assert!(s.read_exact_at(4 << 20, &mut buf).is_err());
    }

    /// `checked_span` gives the bytes of a span, clamped to the bytes at open, lent from
    /// memory or copied from a mapped file; once the mapped file is cut shorter, a span past
    /// its new end is the "file changed on disk" error naming it (read by pread, so no fault).
    #[test]
    fn checked_spans_copy_mapped_bytes_and_see_a_truncation() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.bin");
        let bytes: Vec<u8> = (0..(2usize << 20)).map(|i| (i % 253) as u8).collect();
        std::fs::write(&p, &bytes).unwrap();
        let mapped = Source::open(&p, OpenOptions::default()).unwrap();
        let heap = Source::open(&p, OpenOptions { no_mmap: true }).unwrap();
        assert!(mapped.is_mapped() && !heap.is_mapped());
        for s in [&mapped, &heap] {
            let got = s.checked_span(1000, 5000).unwrap();
            assert_eq!(&got[..], &bytes[1000..5000]);
            assert_eq!(matches!(got, std::borrow::Cow::Owned(_)), s.is_mapped());
            assert_eq!(s.checked_span((2 << 20) - 4, 9 << 20).unwrap().len(), 4, "clamped to the end");
            assert!(s.checked_span(7 << 20, 9 << 20).unwrap().is_empty());
        }
        std::fs::OpenOptions::new().write(true).open(&p).unwrap().set_len(1 << 20).unwrap();
        let e = mapped.checked_span(1 << 20, (1 << 20) + 16).unwrap_err();
        assert!(e.to_string().starts_with("m.bin: file changed on disk"), "{e}");
        assert_eq!(&mapped.checked_span(0, 16).unwrap()[..], &bytes[..16], "bytes still there are read");
        assert_eq!(&heap.checked_span((1 << 20) + 3, (1 << 20) + 7).unwrap()[..], &bytes[(1 << 20) + 3..(1 << 20) + 7]);
    }

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

    /// A rewrite that keeps the size and sets the mtime back, and a file of the same size
    /// and mtime renamed over the input, are both changes; reading the file is not.
    #[test]
    fn same_size_same_mtime_rewrites_are_changes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("in.bin");
        std::fs::write(&p, b"original bytes").unwrap();
        let mtime = std::fs::metadata(&p).unwrap().modified().unwrap();
        let s = Source::open(&p, OpenOptions::default()).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"original bytes");
        assert!(!s.changed(), "reading is no change");
        // In place: same length, mtime restored (as `touch -r` or a time-preserving copy does).
        std::fs::write(&p, b"rewritten byte").unwrap();
        std::fs::File::options().write(true).open(&p).unwrap().set_modified(mtime).unwrap();
        let m = std::fs::metadata(&p).unwrap();
        assert_eq!((m.len(), m.modified().unwrap()), (14, mtime), "size and mtime as at open");
        assert!(s.changed(), "same size, same mtime, new content");
        // Renamed over: another file of the same size and mtime.
        let s = Source::open(&p, OpenOptions::default()).unwrap();
        assert!(!s.changed());
        let q = dir.path().join("new.bin");
        std::fs::write(&q, b"another file!!").unwrap();
        std::fs::File::options().write(true).open(&q).unwrap().set_modified(mtime).unwrap();
        std::fs::rename(&q, &p).unwrap();
        assert!(s.changed(), "a different inode under the same name");
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

    /// Run `f` on another thread; fail (instead of hanging the suite) if it does not
    /// return within a generous guard time. `unblock` runs on timeout to free the thread.
    fn within_guard<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static, unblock: impl FnOnce()) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        match rx.recv_timeout(std::time::Duration::from_secs(20)) {
            Ok(v) => v,
            Err(_) => {
                unblock();
                panic!("hung: did not return within the guard time");
            }
        }
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let st = std::process::Command::new("mkfifo").arg(path).status().unwrap();
        assert!(st.success());
    }

    #[cfg(unix)]
    #[test]
    fn fifo_with_no_writer_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.bin");
        mkfifo(&fifo);
        let (f1, f2, f3) = (fifo.clone(), fifo.clone(), fifo.clone());
        let unblock = move || {
            // A writer opening frees a reader blocked in open(2).
            let _ = std::fs::OpenOptions::new().write(true).open(&f3);
        };
        let e =
            within_guard(move || Source::open(&f1, OpenOptions::default()).map(|_| ()), unblock.clone()).unwrap_err();
        assert!(matches!(e, SourceError::NotRegular { kind: "fifo", .. }), "{e:?}");
        assert!(e.to_string().ends_with("pipe.bin: not a regular file (fifo)"), "{e}");
        let e = within_guard(move || read_small_file(&f2, 1 << 20).map(|_| ()), unblock).unwrap_err();
        assert!(matches!(e, SourceError::NotRegular { kind: "fifo", .. }), "{e:?}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_sockets_are_refused() {
        for dev in ["/dev/zero", "/dev/null", "/dev/urandom"] {
            let p = Path::new(dev);
            if !p.exists() {
                continue;
            }
            for opts in [OpenOptions::default(), OpenOptions { no_mmap: true }] {
                let e = within_guard(move || Source::open(p, opts).map(|_| ()), || ()).unwrap_err();
                assert!(matches!(e, SourceError::NotRegular { kind: "character device", .. }), "{dev}: {e:?}");
                assert_eq!(e.to_string(), format!("{dev}: not a regular file (character device)"));
            }
            let e = within_guard(move || read_small_file(p, 1 << 20).map(|_| ()), || ()).unwrap_err();
            assert!(matches!(e, SourceError::NotRegular { .. }), "{dev}: {e:?}");
        }
        let dir = tempfile::tempdir().unwrap();
        let sock = dir.path().join("sock");
        let _l = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let e = Source::open(&sock, OpenOptions::default()).unwrap_err();
        assert!(e.to_string().ends_with("sock: not a regular file (socket)"), "{e}");
    }

    #[test]
    fn reads_into_memory_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("ten.bin");
        std::fs::write(&f, [1u8; 10]).unwrap();
        assert_eq!(Source::open_bounded(&f, OpenOptions::default(), 10).unwrap().len(), 10);
        let e = Source::open_bounded(&f, OpenOptions::default(), 9).unwrap_err();
        assert!(e.to_string().ends_with("ten.bin: too large to read into memory (10 bytes, limit 9)"), "{e}");
        // A mapped file is not copied, so the read cap does not apply to it.
        let big = dir.path().join("big.bin");
        std::fs::write(&big, vec![0u8; MMAP_THRESHOLD as usize]).unwrap();
        assert!(Source::open_bounded(&big, OpenOptions::default(), 9).unwrap().is_mapped());
        let e = Source::open_bounded(&big, OpenOptions { no_mmap: true }, 9).unwrap_err();
        assert!(matches!(e, SourceError::TooLarge { size, max: 9, .. } if size == MMAP_THRESHOLD), "{e:?}");
        // Side files: the same refusals, an empty file is fine.
        assert_eq!(read_small_file(&f, 10).unwrap(), [1u8; 10]);
        assert!(matches!(read_small_file(&f, 9), Err(SourceError::TooLarge { .. })));
        let empty = dir.path().join("empty");
        std::fs::write(&empty, b"").unwrap();
        assert!(read_small_file(&empty, 10).unwrap().is_empty());
        assert!(matches!(read_small_file(dir.path(), 10), Err(SourceError::IsDirectory { .. })));
        assert!(matches!(read_small_file(&dir.path().join("nope"), 10), Err(SourceError::NotFound { .. })));
    }

    /// procfs files report size 0 but have bytes: they are read until they end, capped.
    #[cfg(target_os = "linux")]
    #[test]
    fn zero_size_files_are_read_to_their_end_under_the_cap() {
        let p = Path::new("/proc/self/status");
        let all = read_small_file(p, 1 << 20).unwrap();
        assert!(all.starts_with(b"Name:"), "{:?}", String::from_utf8_lossy(&all));
        assert!(matches!(read_small_file(p, 8), Err(SourceError::TooLarge { max: 8, .. })));
    }
}
