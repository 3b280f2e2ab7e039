//! Output written as it is made: the matrix JSON of a long clip is serialised frame by
//! frame into the temp file (never built as one JSON value or one string), through a writer
//! that stops once the command's writes reach [`Limits::max_output`] bytes; and the temp files of atomic writes are
//! registered so a signal handler can remove them ([`remove_pending_temps`]).
//!
//! SIGKILL cannot be caught: a killed export leaves its `.tmpXXXXXX` beside the target
//! (the target itself is untouched, as with every other ending).

use super::BlenderFrames;
use super::ExportError;
use crate::limits::Limits;
use crate::model::anim::Clip;
use serde::Serialize;
use serde_json::Value as Json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temp files being written now (removed by [`remove_pending_temps`] on a fatal signal).
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// What the program runs once, before the first temp file is registered (the CLI's
/// signal handler: a verb that writes no file starts no thread for it).
static BEFORE_FIRST_TEMP: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();
static FIRST_TEMP: std::sync::Once = std::sync::Once::new();

/// Run `hook` once, before the first temp file of an atomic write is registered (and so
/// before it is created); only the first hook set counts.
pub fn before_first_temp(hook: fn()) {
    let _ = BEFORE_FIRST_TEMP.set(hook);
}

fn register(p: &Path) {
    FIRST_TEMP.call_once(|| {
        if let Some(hook) = BEFORE_FIRST_TEMP.get() {
            hook();
        }
    });
    if let Ok(mut v) = PENDING.lock() {
        v.push(p.to_path_buf());
    }
}

fn unregister(p: &Path) {
    if let Ok(mut v) = PENDING.lock() {
        v.retain(|q| q != p);
    }
}

/// Remove every temp file an unfinished atomic write left (for a signal handler, before
/// the process ends: SIGTERM, SIGHUP, SIGINT). Never blocks on the registry.
pub fn remove_pending_temps() {
    if let Ok(v) = PENDING.try_lock() {
        for p in v.iter() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Bytes every atomic write of this process has written (the output cap is per command:
/// `export --all` writing many files shares one).
static WRITTEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A writer that fails once more than `max` bytes went through it.
pub struct CappedWriter<W: Write> {
    inner: W,
    written: u64,
    max: u64,
    shared: bool,
}

impl<W: Write> CappedWriter<W> {
    /// Wrap `inner`, allowing at most `max` bytes through this writer.
    pub fn new(inner: W, max: u64) -> Self {
        CappedWriter { inner, written: 0, max, shared: false }
    }

    /// Wrap `inner`, allowing at most `max` bytes through every such writer of the command
    /// (the CLI's standard output and every export file share one count).
    pub fn per_command(inner: W, max: u64) -> Self {
        CappedWriter { inner, written: 0, max, shared: true }
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }
}

/// The message of an output past the cap (also how [`ExportError::Output`] is recognised).
fn over_cap(max: u64) -> std::io::Error {
    std::io::Error::other(format!(
        "output cap of {} MiB reached (--limit output=SIZE raises it, e.g. --limit output=none)",
        max >> 20
    ))
}

impl<W: Write> Write for CappedWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        use std::sync::atomic::Ordering;
        let before = if self.shared { WRITTEN.load(Ordering::Relaxed) } else { self.written };
        if before.saturating_add(buf.len() as u64) > self.max {
            return Err(over_cap(self.max));
        }
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        if self.shared {
            WRITTEN.fetch_add(n as u64, Ordering::Relaxed);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Write `path` atomically by handing `fill` a buffered writer capped per command into a temp file in
/// the same folder (registered for signal clean-up); refuses to replace an existing file
/// unless `force`. On any error the temp file is removed and the target is untouched.
pub fn write_atomic_with(
    path: &Path,
    force: bool,
    max: u64,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<u64> {
    atomic(path, force, &mut |file| buffered(file, max, fill))
}

/// `fill` writing `file` through a buffered writer capped per command at `max`.
fn buffered(
    file: &std::fs::File,
    max: u64,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<u64> {
    let mut w = CappedWriter::per_command(std::io::BufWriter::with_capacity(1 << 16, file), max);
    fill(&mut w)?;
    w.flush()?;
    Ok(w.written())
}

/// `fill` writing `file` at offsets, capped per command at `max`.
fn at_offsets(
    file: &std::fs::File,
    max: u64,
    fill: &mut dyn FnMut(&mut dyn WriteAt) -> std::io::Result<()>,
) -> std::io::Result<u64> {
    let mut w = FileAt { file, max, written: 0 };
    fill(&mut w)?;
    Ok(w.written)
}

/// Writes at byte offsets: output whose parts are made in another order than they lie in
/// the file (a glTF buffer's animation accessors, made frame chunk by frame chunk).
pub trait WriteAt {
    /// Write all of `bytes` at byte `offset` (a gap before it reads as zeros).
    fn write_all_at(&mut self, offset: u64, bytes: &[u8]) -> std::io::Result<()>;
}

impl WriteAt for Vec<u8> {
    fn write_all_at(&mut self, offset: u64, bytes: &[u8]) -> std::io::Result<()> {
        let too_far = || std::io::Error::other(format!("offset {offset} does not fit in memory"));
        let at = usize::try_from(offset).map_err(|_| too_far())?;
        let end = at.checked_add(bytes.len()).ok_or_else(too_far)?;
        if self.len() < end {
            self.resize(end, 0);
        }
        self.get_mut(at..end).ok_or_else(too_far)?.copy_from_slice(bytes);
        Ok(())
    }
}

/// A file written at offsets, counting every byte against the command's output cap.
struct FileAt<'a> {
    file: &'a std::fs::File,
    max: u64,
    written: u64,
}

impl WriteAt for FileAt<'_> {
    fn write_all_at(&mut self, offset: u64, bytes: &[u8]) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        use std::sync::atomic::Ordering;
        let n = bytes.len() as u64;
        if WRITTEN.load(Ordering::Relaxed).saturating_add(n) > self.max {
            return Err(over_cap(self.max));
        }
        self.file.write_all_at(bytes, offset)?;
        self.written += n;
        WRITTEN.fetch_add(n, Ordering::Relaxed);
        Ok(())
    }
}

/// [`write_atomic_with`] for output written at offsets: `fill` writes the temp file through
/// [`WriteAt`], capped per command; the same atomic rename, refusal and clean-up.
pub fn write_atomic_at(
    path: &Path,
    force: bool,
    max: u64,
    fill: &mut dyn FnMut(&mut dyn WriteAt) -> std::io::Result<()>,
) -> std::io::Result<u64> {
    atomic(path, force, &mut |file| at_offsets(file, max, fill))
}

/// The atomic write both writers share: one target written as an [`OutputSet`] of one.
fn atomic(
    path: &Path,
    force: bool,
    fill: &mut dyn FnMut(&std::fs::File) -> std::io::Result<u64>,
) -> std::io::Result<u64> {
    let mut set = OutputSet::new(force);
    set.check(path)?;
    let n = set.add(path, fill)?;
    set.commit()?;
    Ok(n)
}

/// Whether `path` may be written as an export target: its folder exists and is a folder,
/// and the path is absent, or a regular file (replaced only with `force`). A device, FIFO,
/// socket or folder is never replaced, `--force` or not (renaming onto `/dev/null` would
/// replace the device node). The error names what is wrong: the missing folder, or the
/// target.
pub fn check_target(path: &Path, force: bool) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(Error::new(ErrorKind::NotADirectory, format!("{} is not a directory", dir.display())));
        }
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return Err(Error::new(ErrorKind::NotFound, format!("directory {} does not exist", dir.display())));
        }
        Err(e) => return Err(Error::new(e.kind(), format!("directory {}: {e}", dir.display()))),
    }
    match std::fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::new(e.kind(), format!("{}: {e}", path.display()))),
        Ok(m) if !m.is_file() => {
            use std::os::unix::fs::FileTypeExt;
            let t = m.file_type();
            let what = if t.is_dir() {
                "a directory"
            } else if t.is_fifo() {
                "a FIFO"
            } else if t.is_socket() {
                "a socket"
            } else if t.is_char_device() || t.is_block_device() {
                "a device"
            } else {
                "not a regular file"
            };
            Err(Error::new(
                ErrorKind::InvalidInput,
                format!("{} is {what}: exports replace regular files only", path.display()),
            ))
        }
        Ok(_) if !force => {
            Err(Error::new(ErrorKind::AlreadyExists, format!("{} exists (use --force to overwrite)", path.display())))
        }
        Ok(_) => Ok(()),
    }
}

/// The files of one export, written all or nothing: every target is checked before the
/// first byte is written ([`OutputSet::check`]), each is written to a registered temp file
/// beside it, and [`OutputSet::commit`] makes them durable with one `syncfs` per file system
/// (not one `fsync` per file: a scene's OBJ with a hundred textures is a hundred files),
/// renames them all onto their targets, and syncs each folder once. Dropped uncommitted (an
/// error on the way), the temp files are removed and no target is touched. Each temp file
/// is closed once written (its path kept until the commit), so an export of thousands of
/// files holds one descriptor at a time, not one per file.
pub struct OutputSet {
    force: bool,
    /// Each target, its temp file (closed) and the device the temp file is on.
    written: Vec<(PathBuf, tempfile::TempPath, u64)>,
    /// The targets of `written`, to refuse one written twice without a scan per file.
    targets: std::collections::HashSet<PathBuf>,
}

impl OutputSet {
    /// An empty set; `force` allows replacing existing regular files.
    pub fn new(force: bool) -> OutputSet {
        OutputSet { force, written: Vec::new(), targets: std::collections::HashSet::new() }
    }

    /// Check one target ([`check_target`]); call for every target before adding any.
    pub fn check(&self, path: &Path) -> std::io::Result<()> {
        if self.targets.contains(path) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{} is written twice by this export", path.display()),
            ));
        }
        check_target(path, self.force)
    }

    /// Write the temp file of `path` through `fill` (which returns the bytes written).
    pub fn add(
        &mut self,
        path: &Path,
        fill: &mut dyn FnMut(&std::fs::File) -> std::io::Result<u64>,
    ) -> std::io::Result<u64> {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        // Registered before it is created, so a signal arriving at any moment finds it.
        let tmp = tempfile::Builder::new()
            .make_in(dir, |p| {
                register(p);
                let r = std::fs::OpenOptions::new().write(true).create_new(true).open(p);
                if r.is_err() {
                    unregister(p);
                }
                r
            })
            .map_err(|e| std::io::Error::new(e.kind(), format!("a temporary file in {}: {e}", dir.display())))?;
        // an export is an ordinary document (0644), whatever the temp file was made with
        let r = tmp
            .as_file()
            .set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644))
            .and_then(|()| fill(tmp.as_file()));
        let dev = tmp.as_file().metadata().map(|m| std::os::unix::fs::MetadataExt::dev(&m));
        // Closed now (the path stays, removed when dropped); registered until it is
        // renamed or dropped.
        let tmp = tmp.into_temp_path();
        self.targets.insert(path.to_path_buf());
        let dev = match dev {
            Ok(d) => d,
            Err(e) => {
                self.written.push((path.to_path_buf(), tmp, 0));
                return Err(e);
            }
        };
        self.written.push((path.to_path_buf(), tmp, dev));
        r
    }

    /// Write the temp file of `path` with `bytes`, capped per command at `max`.
    pub fn add_bytes(&mut self, path: &Path, bytes: &[u8], max: u64) -> std::io::Result<u64> {
        self.add(path, &mut |file| buffered(file, max, &mut |w| w.write_all(bytes)))
    }

    /// Write the temp file of `path` through `fill` (buffered), capped per command at `max`.
    pub fn add_writer(
        &mut self,
        path: &Path,
        max: u64,
        fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<u64> {
        self.add(path, &mut |file| buffered(file, max, fill))
    }

    /// The temp file `path` is written to until [`OutputSet::commit`] (to re-open and check
    /// what was written before it is kept); None before it is added.
    pub fn pending(&self, path: &Path) -> Option<&Path> {
        self.written.iter().find(|(p, _, _)| p == path).map(|(_, t, _)| &**t)
    }

    /// Write the temp file of `path` through `fill` at offsets, capped per command at `max`.
    pub fn add_at(
        &mut self,
        path: &Path,
        max: u64,
        fill: &mut dyn FnMut(&mut dyn WriteAt) -> std::io::Result<()>,
    ) -> std::io::Result<u64> {
        self.add(path, &mut |file| at_offsets(file, max, fill))
    }

    /// Make every temp file durable, then rename each onto its target (re-checked just
    /// before: a target that appeared meanwhile is not replaced without `force`), then sync
    /// the folders so the renames last.
    pub fn commit(mut self) -> std::io::Result<()> {
        let mut devices = Vec::new();
        for (_, tmp, dev) in &self.written {
            if !devices.contains(dev) {
                devices.push(*dev);
                // one descriptor, for the sync only: the temp file, opened again to name its
                // file system
                rustix::fs::syncfs(std::fs::File::open(tmp)?)?;
            }
        }
        let mut dirs: Vec<PathBuf> = Vec::new();
        for (path, tmp, _) in std::mem::take(&mut self.written) {
            let tmp_path = tmp.to_path_buf();
            let r = if self.force { tmp.persist(&path) } else { tmp.persist_noclobber(&path) };
            unregister(&tmp_path);
            r.map_err(|e| std::io::Error::new(e.error.kind(), format!("{}: {}", path.display(), e.error)))?;
            let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        for d in dirs {
            // A folder that cannot be opened for syncing (no read permission) still has the
            // renamed files; only their durability across a crash is less certain.
            if let Ok(f) = std::fs::File::open(&d) {
                let _ = f.sync_all();
            }
        }
        Ok(())
    }
}

impl Drop for OutputSet {
    fn drop(&mut self) {
        for (_, tmp, _) in &self.written {
            unregister(tmp);
        }
    }
}

/// The frames of a matrix JSON document and their matrices when the check before writing
/// kept them.
#[derive(Clone, Copy)]
struct Made<'a> {
    frames: &'a BlenderFrames<'a>,
    kept: Option<&'a [Vec<glam::Mat4>]>,
}

impl Made<'_> {
    /// Frame `f`'s matrices: kept, or made again.
    fn frame(&self, f: usize) -> Result<std::borrow::Cow<'_, [glam::Mat4]>, ExportError> {
        match self.kept.and_then(|k| k.get(f)) {
            Some(m) => Ok(std::borrow::Cow::Borrowed(m)),
            None => self.frames.frame(f).map(std::borrow::Cow::Owned),
        }
    }
}

/// serde_json's pretty printing (two-space indent) byte for byte, with each line break and
/// its indentation written at once: the matrix JSON is mostly numbers on lines of their
/// own five levels deep, which `PrettyFormatter` ends with seven small writes each.
#[derive(Default)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

/// A comma, a line break and 64 levels of indentation: a value's separator and line are a
/// slice of it.
const SEPARATOR: [u8; 130] = {
    let mut b = [b' '; 130];
    b[0] = b',';
    b[1] = b'\n';
    b
};

impl Pretty {
    /// A line break (after a comma unless `first`) and the indentation of `depth` levels.
    fn line<W: ?Sized + Write>(w: &mut W, depth: usize, first: bool) -> std::io::Result<()> {
        let from = usize::from(first);
        match SEPARATOR.get(from..2 + 2 * depth) {
            Some(s) => w.write_all(s),
            None => {
                w.write_all(&SEPARATOR[from..2])?;
                (0..depth).try_for_each(|_| w.write_all(b"  "))
            }
        }
    }

    /// `[` or `{`: one level deeper, nothing in it yet.
    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    /// `]` or `}`: on a line of its own when something came before it.
    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            Self::line(w, self.depth, true)?;
        }
        w.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        Self::line(w, self.depth, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        Self::line(w, self.depth, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Write the matrix JSON document as it goes: the same bytes `serde_json` with [`Pretty`]
/// writes for [`super::matrix_json`]'s value (keys in sorted order, as its map keeps them,
/// `frames` among them), with frames numbered from the first kept frame, each made and
/// converted when it is written.
fn write_doc<W: Write>(
    head: &serde_json::Map<String, Json>,
    made: Made<'_>,
    input: &str,
    w: &mut W,
) -> Result<(), ExportError> {
    let io = |e: std::io::Error| ExportError::Io { path: PathBuf::from(input), source: e };
    let json = |e: serde_json::Error| match e.io_error_kind() {
        // the writer's own error, as it was (a closed pipe stays one; stdout's is marked)
        Some(_) => io(std::io::Error::from(e)),
        None => ExportError::Json(e),
    };
    w.write_all(b"{").map_err(io)?;
    let mut first = true;
    let mut frames_done = false;
    for (k, v) in head {
        if !frames_done && k.as_str() > "frames" {
            write_frames(made, first, input, w)?;
            (first, frames_done) = (false, true);
        }
        Pretty::line(w, 1, first).map_err(io)?;
        first = false;
        serde_json::to_writer(&mut *w, k).map_err(json)?;
        w.write_all(b": ").map_err(io)?;
        v.serialize(&mut serde_json::Serializer::with_formatter(&mut *w, Pretty { depth: 1, has_value: false }))
            .map_err(json)?;
    }
    if !frames_done {
        write_frames(made, first, input, w)?;
    }
    Pretty::line(w, 0, true).map_err(io)?;
    w.write_all(b"}").map_err(io)
}

/// The `"frames": [...]` entry of [`write_doc`] (the first entry when `first`): each frame's
/// text made in one buffer and written at once.
fn write_frames<W: Write>(made: Made<'_>, first: bool, input: &str, w: &mut W) -> Result<(), ExportError> {
    let io = |e: std::io::Error| ExportError::Io { path: PathBuf::from(input), source: e };
    Pretty::line(w, 1, first).map_err(io)?;
    w.write_all(b"\"frames\": [").map_err(io)?;
    let mut text = Vec::new();
    let mut order = BoneOrder::default();
    for f in 0..made.frames.count {
        text.clear();
        frame_text(made, f, &mut order, &mut text)?;
        w.write_all(&text).map_err(io)?;
    }
    if made.frames.count > 0 {
        Pretty::line(w, 1, true).map_err(io)?;
    }
    w.write_all(b"]").map_err(io)
}

/// The order in which a frame's bones are written, made once for a count of matrices: a
/// JSON object keeps one entry per name, in name order, the last one given winning (as
/// inserting into serde_json's map does).
#[derive(Default)]
struct BoneOrder {
    made_for: Option<usize>,
    order: Vec<usize>,
}

impl BoneOrder {
    /// The indices of `bones` to write, for frames of `count` matrices.
    fn of(&mut self, bones: &[String], count: usize) -> &[usize] {
        if self.made_for != Some(count) {
            let mut order: Vec<usize> = (0..bones.len().min(count)).collect();
            order.sort_by(|&a, &b| bones[a].cmp(&bones[b]).then(b.cmp(&a)));
            order.dedup_by(|a, b| bones[*a] == bones[*b]);
            (self.made_for, self.order) = (Some(count), order);
        }
        &self.order
    }
}

/// Frame `f` of [`write_frames`] as its text, appended to `t`: its separator, the bones'
/// rows of numbers (formatted as serde_json formats an `f64`) and its frame number.
/// (Writes to a `Vec` cannot fail: their results are dropped.)
fn frame_text(made: Made<'_>, f: usize, order: &mut BoneOrder, t: &mut Vec<u8>) -> Result<(), ExportError> {
    use serde_json::ser::{CompactFormatter, Formatter};
    let p = made.frames.head();
    let mats = made.frame(f)?;
    let _ = Pretty::line(t, 2, f == 0);
    t.extend_from_slice(b"{");
    let _ = Pretty::line(t, 3, true);
    t.extend_from_slice(b"\"bones\": {");
    let mut first = true;
    for &i in order.of(&p.bones, mats.len()) {
        let (Some(name), Some(mat)) = (p.bones.get(i), mats.get(i)) else { continue };
        // glam is column-major; the contract is row-major with column vectors.
        let rows = mat.transpose().to_cols_array();
        if let Some(bad) = rows.iter().find(|v| !v.is_finite()) {
            return Err(ExportError::NonFinite { frame: f, bone: name.clone(), value: *bad });
        }
        let _ = Pretty::line(t, 4, first);
        first = false;
        let _ = serde_json::to_writer(&mut *t, name);
        t.extend_from_slice(b": [");
        for (k, v) in rows.iter().enumerate() {
            let _ = Pretty::line(t, 5, k == 0);
            let _ = CompactFormatter.write_f64(t, f64::from(*v));
        }
        let _ = Pretty::line(t, 4, true);
        t.extend_from_slice(b"]");
    }
    if !first {
        let _ = Pretty::line(t, 3, true);
    }
    t.extend_from_slice(b"}");
    let _ = Pretty::line(t, 3, false);
    t.extend_from_slice(b"\"frame\": ");
    let _ = CompactFormatter.write_u64(t, u64::try_from(made.frames.first + f).unwrap_or(u64::MAX));
    let _ = Pretty::line(t, 2, true);
    t.extend_from_slice(b"}");
    Ok(())
}

/// Write the matrix JSON of the kept frames `frames` to `out` as pretty JSON, frame by
/// frame. Non-finite values fail before anything is written: each frame is made to check
/// it, and made again to write it unless the frames' matrices come to at most
/// [`KEPT_MATRICES`] bytes (then they are kept from the check).
pub fn write_matrix_json(
    clip: &Clip,
    frames: &BlenderFrames<'_>,
    input: &str,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    // Checked up front so a bad value is the same error as the in-memory export's.
    let head = frames.head();
    let keep = frames.count.saturating_mul(head.bones.len()).saturating_mul(size_of::<glam::Mat4>()) <= KEPT_MATRICES;
    let mut kept = Vec::with_capacity(if keep { frames.count } else { 0 });
    for f in 0..frames.count {
        let mats = frames.frame(f)?;
        for (name, m) in head.bones.iter().zip(&mats) {
            if let Some(bad) = m.transpose().to_cols_array().iter().find(|v| !v.is_finite()) {
                return Err(ExportError::NonFinite { frame: f, bone: name.clone(), value: *bad });
            }
        }
        if keep {
            kept.push(mats);
        }
    }
    let Json::Object(mut head) = super::matrix_json(clip, head, input)? else {
        return Err(ExportError::Space("matrix JSON is not an object".into()));
    };
    head.remove("frames");
    let made = Made { frames, kept: keep.then_some(kept.as_slice()) };
    // a buffer of the writer's own type: the small writes around the frames are copies, not
    // calls through `out` (see `write_clip_json`)
    let mut buf = std::io::BufWriter::with_capacity(1 << 16, out);
    write_doc(&head, made, input, &mut buf)?;
    let io = |e: std::io::Error| ExportError::Io { path: PathBuf::from(input), source: e };
    buf.flush().map_err(io)
}

/// The most bytes of matrices [`write_matrix_json`] keeps from its check instead of making
/// them again (a 14-frame clip of 36 bones holds 32 KiB).
const KEPT_MATRICES: usize = 1 << 20;

/// Write the matrix JSON to `path` atomically and streamed, capped at `limits.max_output`.
pub fn write_matrix_file(
    clip: &Clip,
    frames: &BlenderFrames<'_>,
    input: &str,
    path: &Path,
    force: bool,
    limits: &Limits,
) -> Result<u64, ExportError> {
    let mut carried = Carried::default();
    let r = write_atomic_with(path, force, limits.max_output, &mut |w| {
        carried.pass(write_matrix_json(clip, frames, input, w))
    });
    carried.finish(path, r)
}

/// An export error carried through an atomic writer whose body may fail only with
/// `std::io::Error`: the body's own error (a budget, a shear) comes back as it was, not as
/// an I/O error of the target.
#[derive(Default)]
pub(super) struct Carried(Option<ExportError>);

impl Carried {
    /// The body's result as the writer wants it, keeping a non-I/O error for [`Carried::finish`].
    pub(super) fn pass<T>(&mut self, r: Result<T, ExportError>) -> std::io::Result<T> {
        r.map_err(|e| match e {
            ExportError::Io { source, .. } => source,
            other => {
                let msg = other.to_string();
                self.0 = Some(other);
                std::io::Error::other(msg)
            }
        })
    }

    /// The writer's result: the carried error if the body failed with one, else an I/O
    /// error naming `path`.
    pub(super) fn finish<T>(self, path: &Path, r: std::io::Result<T>) -> Result<T, ExportError> {
        match (r, self.0) {
            (_, Some(e)) => Err(e),
            (Ok(n), None) => Ok(n),
            (Err(e), None) => Err(ExportError::io(path, e)),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// `Pretty` writes what serde_json's pretty printer writes: empty and nested arrays and
    /// objects, strings with escapes, numbers, null, and nesting past the 64 levels its
    /// one-write line break covers.
    #[test]
    fn pretty_writes_what_serde_jsons_pretty_printer_writes() {
        let mut v = serde_json::json!({"a": [1.5, {"b": [], "c": {}}, "x\n\"y\""], "d": null, "e": [[]]});
        for i in 0..70 {
            v = serde_json::json!([v, {"k": i, "l": [true, -0.25]}]);
        }
        let mut ours = Vec::new();
        v.serialize(&mut serde_json::Serializer::with_formatter(&mut ours, Pretty::default())).unwrap();
        assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string_pretty(&v).unwrap());
    }
}
