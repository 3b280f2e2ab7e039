//! Exports: one clip as `sc6-armature-matrices-v1` matrix JSON (docs/GUIDE.md#matrix-json), a scene's
//! meshes as OBJ ([`obj`]), and a clip with its skeleton (and meshes) as glTF 2.0
//! ([`gltf`]), written atomically. Exporters consume `model::anim` and
//! `model::mesh` only; failures are [`ExportError`]s, which the CLI and the TUI word.

pub mod gltf;
pub mod names;
pub mod obj;
pub mod pose;
pub mod skeleton;
pub mod stream;
pub mod wireframe;

use std::path::PathBuf;

use crate::model::anim::{Clip, PoseSeq, Space};
use glam::Mat4;
use serde_json::{Value as Json, json};
use std::io::Write as _;
use std::path::Path;

/// The schema name Blender's side checks, kept for every format.
pub const SCHEMA: &str = "sc6-armature-matrices-v1";

/// Build the matrix JSON for a posed clip. Non-finite numbers are an error.
pub fn matrix_json(clip: &Clip, poses: &PoseSeq, input: &str) -> Result<Json, ExportError> {
    if poses.space != Space::BlenderArmature {
        return Err(ExportError::Space(format!("{:?}", poses.space)));
    }
    let mut frames = Vec::with_capacity(poses.frames.len());
    for (f, mats) in poses.frames.iter().enumerate() {
        let mut bones = serde_json::Map::new();
        for (name, m) in poses.bones.iter().zip(mats) {
            // glam is column-major; the contract is row-major with column vectors.
            let rows = m.transpose().to_cols_array();
            if let Some(bad) = rows.iter().find(|v| !v.is_finite()) {
                return Err(ExportError::NonFinite { frame: f, bone: name.clone(), value: *bad });
            }
            bones.insert(name.clone(), json!(rows.iter().map(|v| f64::from(*v)).collect::<Vec<f64>>()));
        }
        frames.push(json!({"frame": f, "bones": bones}));
    }
    Ok(json!({
        "schema": SCHEMA,
        "action": clip.name,
        "fps": clip.fps,
        "matrix_space": "blender_armature",
        "source": poses.source,
        "input": input,
        "clip": clip.name,
        "skeleton": poses.skeleton,
        "conversion": poses.conversion,
        "generator": format!("animscope {}", env!("CARGO_PKG_VERSION")),
        "frames": frames,
    }))
}

/// Why an export failed. Each carries the numbers a user needs; the CLI and the TUI word it.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The clip carries no posed matrices.
    #[error("{clip}: this clip has no posed matrices to export")]
    NoPoses {
        /// Clip name.
        clip: String,
    },
    /// `--frames A..B` outside the clip.
    #[error("--frames {first}..{last}: the clip has frames 0..{max}")]
    FrameRange {
        /// First frame asked for.
        first: usize,
        /// Last frame asked for.
        last: usize,
        /// The clip's last frame.
        max: usize,
    },
    /// A matrix element is NaN or infinite.
    #[error("frame {frame} bone {bone}: non-finite value {value}")]
    NonFinite {
        /// Logical frame.
        frame: usize,
        /// Bone name.
        bone: String,
        /// The value.
        value: f32,
    },
    /// The poses are not in Blender armature space.
    #[error("poses are in {0} space, not Blender armature space")]
    Space(String),
    /// The clip's bones and the skeleton do not fit together.
    #[error("{0}")]
    Skeleton(String),
    /// A skeleton file could not be read or parsed.
    #[error("{path}: {message}")]
    SkeletonFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A side file (skeleton) could not be read; the error names it.
    #[error(transparent)]
    Read(#[from] crate::source::SourceError),
    /// The input has no scene to export (or building it failed).
    #[error("export --obj: {0}")]
    Scene(#[from] crate::error::ParseError),
    /// Writing an output failed.
    #[error("{path}: {source}")]
    Io {
        /// The output path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An output target that cannot be written: its folder is missing, it is not a regular
    /// file, or it exists and `--force` was not given (the message names it).
    #[error("{0}")]
    Target(std::io::Error),
    /// The clip or scene cannot be written as glTF (what and where is in the message).
    #[error("export --gltf: {0}")]
    Gltf(String),
    /// JSON serialisation failed.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// Nothing of what the kind writes was given (no clip for matrix JSON, no scene for OBJ).
    #[error("nothing to write as {}", .0.describe())]
    Nothing(OutputKind),
}

impl ExportError {
    fn io(path: &Path, source: std::io::Error) -> ExportError {
        ExportError::Io { path: path.to_path_buf(), source }
    }
}

/// Write `bytes` to `path` atomically, as [`write_atomic`], with the path in the error;
/// at most `max_output` bytes (the command's `--limit output=…`).
pub fn write_output(path: &Path, bytes: &[u8], force: bool, max_output: u64) -> Result<(), ExportError> {
    write_all_or_nothing(&[(path.to_path_buf(), bytes)], force, max_output)
}

/// Write several files as one export, all or nothing ([`stream::OutputSet`]): every target
/// is checked before anything is written, and the files appear together. Each file is
/// held to `max` bytes (the command's `--limit output=…`).
pub fn write_all_or_nothing(files: &[(PathBuf, &[u8])], force: bool, max: u64) -> Result<(), ExportError> {
    let mut set = stream::OutputSet::new(force);
    for (path, _) in files {
        set.check(path).map_err(ExportError::Target)?;
    }
    for (path, bytes) in files {
        set.add_bytes(path, bytes, max).map_err(|e| ExportError::io(path, e))?;
    }
    let first = files.first().map_or(Path::new(""), |(p, _)| p.as_path());
    set.commit().map_err(|e| ExportError::io(first, e))
}

/// Write `bytes` to `path` atomically (temp file in the same folder, then rename);
/// refuses to replace an existing file unless `force`; more than `max` bytes (the
/// command's `--limit output=…`) is an error.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool, max: u64) -> std::io::Result<()> {
    // The temp file is registered for removal on SIGTERM/SIGHUP/SIGINT.
    stream::write_atomic_with(path, force, max, &mut |w| w.write_all(bytes)).map(|_| ())
}

/// What an export writes. One rule for the CLI and the TUI ([`OutputKind::choose`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputKind {
    /// `sc6-armature-matrices-v1` matrix JSON.
    #[default]
    Matrices,
    /// glTF 2.0 (`.glb` or `.gltf`).
    Gltf,
    /// Wavefront OBJ (+ MTL, PNG).
    Obj,
}

impl OutputKind {
    /// The kind an output path's extension names: `.glb`/`.gltf` glTF, `.obj` OBJ, `.json`
    /// matrix JSON; None for any other (or no) extension.
    pub fn of_path(path: &Path) -> Option<OutputKind> {
        let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
        match ext.as_str() {
            "glb" | "gltf" => Some(OutputKind::Gltf),
            "obj" => Some(OutputKind::Obj),
            "json" => Some(OutputKind::Matrices),
            _ => None,
        }
    }

    /// The kind of an export to `path` given the `--gltf`/`--obj` flags: the flag when one
    /// is given, else the extension, else matrix JSON. A flag the extension contradicts
    /// (`--obj -o x.glb`) is an error, as is giving both flags.
    pub fn choose(path: &Path, gltf: bool, obj: bool) -> Result<OutputKind, String> {
        let flag = match (gltf, obj) {
            (true, true) => return Err("--gltf and --obj cannot be given together".into()),
            (true, false) => Some(OutputKind::Gltf),
            (false, true) => Some(OutputKind::Obj),
            (false, false) => None,
        };
        let by_ext = if path.as_os_str() == "-" { None } else { OutputKind::of_path(path) };
        match (flag, by_ext) {
            (Some(f), Some(e)) if f != e => Err(format!(
                "{} asks for {} by its extension, but {} was given; drop the flag or change the extension",
                path.display(),
                e.describe(),
                f.flag()
            )),
            (Some(f), _) => Ok(f),
            (None, Some(e)) => Ok(e),
            (None, None) => Ok(OutputKind::Matrices),
        }
    }

    /// What the kind is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            OutputKind::Matrices => "matrix JSON",
            OutputKind::Gltf => "glTF",
            OutputKind::Obj => "OBJ",
        }
    }

    /// The CLI flag that asks for the kind.
    fn flag(self) -> &'static str {
        match self {
            OutputKind::Matrices => "no --gltf/--obj",
            OutputKind::Gltf => "--gltf",
            OutputKind::Obj => "--obj",
        }
    }
}

/// What an export was asked for besides what it exports, the same for every kind and for
/// both front ends (the CLI's `export`, the TUI's export prompt); [`export`] runs it.
#[derive(Debug, Clone, Default)]
pub struct ExportRequest {
    /// Output path (`-` = the caller's output stream, for matrix JSON and OBJ).
    pub out_path: PathBuf,
    /// What is written.
    pub kind: OutputKind,
    /// Replace existing files.
    pub force: bool,
    /// Skeleton file to retarget onto (a glTF then leaves the meshes out: they are bound to
    /// the format's own skeleton).
    pub skeleton: Option<PathBuf>,
    /// Also write the skeleton used (for building a matching armature; matrix JSON).
    pub skeleton_out: Option<PathBuf>,
    /// Keep only logical frames `a..=b`.
    pub frames: Option<(usize, usize)>,
    /// The command's budget: the skeleton file's size cap and the output cap.
    pub limits: crate::limits::Limits,
}

impl ExportRequest {
    /// Whether the output is the caller's stream (`-`), not a file.
    pub fn to_stream(&self) -> bool {
        self.out_path.as_os_str() == "-"
    }
}

/// What an export wrote, by kind.
#[derive(Debug, Clone)]
pub enum ExportDone {
    /// Matrix JSON.
    Matrices(Exported),
    /// glTF.
    Gltf(gltf::GltfSummary),
    /// OBJ: what was written, in words.
    Obj(String),
}

/// The one place that decides which export runs, for the CLI and the TUI: `req.kind` of
/// `clip` (matrix JSON, glTF) and `scene` (glTF meshes at rest, OBJ posed), named after
/// the input `input`. Matrix JSON and OBJ for `-` are written to `out`.
pub fn export(
    clip: Option<&Clip>,
    scene: Option<&crate::model::mesh::Scene>,
    input: &str,
    req: &ExportRequest,
    out: &mut dyn std::io::Write,
) -> Result<ExportDone, ExportError> {
    match req.kind {
        OutputKind::Matrices => {
            let clip = clip.ok_or(ExportError::Nothing(OutputKind::Matrices))?;
            export_matrices_to(clip, input, req, out).map(ExportDone::Matrices)
        }
        OutputKind::Gltf if req.to_stream() => {
            Err(ExportError::Gltf("-o - is not possible; name a .glb or .gltf file".into()))
        }
        OutputKind::Gltf => gltf::export_gltf(clip, scene, input, req).map(ExportDone::Gltf),
        OutputKind::Obj => {
            let scene = scene.ok_or(ExportError::Nothing(OutputKind::Obj))?;
            if req.to_stream() {
                let stem = obj::stem(&req.out_path);
                let text = obj::obj_files(scene, &stem)?.obj;
                out.write_all(text.as_bytes()).map_err(|e| ExportError::io(&req.out_path, e))?;
                Ok(ExportDone::Obj(format!("{} bytes of OBJ", text.len())))
            } else {
                obj::write_obj(scene, &req.out_path, req.force, req.limits.max_output).map(ExportDone::Obj)
            }
        }
    }
}

/// Parse `A..B` (inclusive, logical frames).
pub fn parse_frames(s: &str) -> Option<(usize, usize)> {
    let (a, b) = s.split_once("..")?;
    let (a, b) = (a.trim().parse().ok()?, b.trim().trim_start_matches('=').parse().ok()?);
    (a <= b).then_some((a, b))
}

/// A finished matrix export.
#[derive(Debug, Clone)]
pub struct Exported {
    /// The JSON text, when the request's path was `-` (nothing was written to disk).
    pub text: Option<String>,
    /// Frames written.
    pub frames: usize,
    /// Bones per frame.
    pub bones: usize,
    /// What the matrices are (`authored mot sample`, ...).
    pub source: String,
}

impl std::fmt::Display for Exported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} frames, {} bones ({})", self.frames, self.bones, self.source)
    }
}

/// Read and parse a skeleton file of at most `cap` bytes (the command's
/// [`crate::limits::Limits::max_side_file`]).
pub fn load_skeleton(path: &Path, cap: u64) -> Result<skeleton::SkeletonFile, ExportError> {
    let bad = |message: String| ExportError::SkeletonFile { path: path.to_path_buf(), message };
    // Bounded and regular files only: a device or FIFO named here must not hang the export.
    let bytes = crate::source::read_small_file(path, cap)?;
    let text = String::from_utf8(bytes).map_err(|e| bad(format!("not UTF-8 text: {e}")))?;
    skeleton::SkeletonFile::parse(&text).map_err(bad)
}

/// A clip's poses in Blender armature space on a skeleton, cut to the logical frames asked
/// for, converted one frame at a time as they are read: a clip whose poses are made on
/// demand ([`Clip::on_demand`]) is exported with memory for one frame.
pub struct BlenderFrames<'a> {
    clip: &'a Clip,
    map: skeleton::BlenderMap,
    /// The first logical frame kept.
    pub first: usize,
    /// How many frames are kept.
    pub count: usize,
}

impl<'a> BlenderFrames<'a> {
    /// The clip's poses on the skeleton file at `skeleton` (else the format's built-in
    /// one), cut to logical frames `frames` (inclusive). Every clip export starts here (the
    /// matrix JSON and the glTF read it frame by frame). The skeleton file is read within
    /// `limits` (its side-file cap).
    pub fn new(
        clip: &'a Clip,
        skeleton: Option<&Path>,
        frames: Option<(usize, usize)>,
        limits: &crate::limits::Limits,
    ) -> Result<Self, ExportError> {
        let poses = clip.poses.as_ref().ok_or_else(|| ExportError::NoPoses { clip: clip.name.clone() })?;
        let skel = skeleton.map(|p| load_skeleton(p, limits.max_side_file)).transpose()?;
        let map = skeleton::BlenderMap::new(poses, skel.as_ref()).map_err(ExportError::Skeleton)?;
        let total = clip.pose_frames();
        let (first, count) = match frames {
            Some((a, b)) => {
                if b >= total {
                    return Err(ExportError::FrameRange { first: a, last: b, max: total.saturating_sub(1) });
                }
                (a, b + 1 - a)
            }
            None => (0, total),
        };
        Ok(BlenderFrames { clip, map, first, count })
    }

    /// Bones, parents, rest and conversion of the converted poses (no frames).
    pub fn head(&self) -> &PoseSeq {
        &self.map.head
    }

    /// The skeleton used.
    pub fn used(&self) -> &skeleton::SkeletonFile {
        &self.map.used
    }

    /// The matrices of kept frame `i` (logical frame `first + i`), one per armature bone.
    pub fn frame(&self, i: usize) -> Result<Vec<Mat4>, ExportError> {
        let f = self.first.saturating_add(i);
        self.map.frame(f, &self.clip.pose_frame(f)).map_err(ExportError::Skeleton)
    }
}

/// The matrix export service (CLI and TUI): retarget, cut frames, build the JSON, and write
/// it atomically to `req.out_path` (or return the text for `-`), plus the skeleton file
/// when asked. `input` is the input's file name recorded in the JSON.
pub fn export_matrices(clip: &Clip, input: &str, req: &ExportRequest) -> Result<Exported, ExportError> {
    let mut text = Vec::new();
    let done = export_matrices_to(clip, input, req, &mut text)?;
    // the text is the JSON alone: its caller adds the line end
    if text.last() == Some(&b'\n') {
        text.pop();
    }
    Ok(if req.to_stream() {
        Exported { text: Some(String::from_utf8_lossy(&text).into_owned()), ..done }
    } else {
        done
    })
}

/// [`export_matrices`], writing the JSON for `-` to `out` as it is made (followed by a
/// newline), capped at `--limit output=…`; `text` stays None.
pub fn export_matrices_to(
    clip: &Clip,
    input: &str,
    req: &ExportRequest,
    out: &mut dyn std::io::Write,
) -> Result<Exported, ExportError> {
    let limits = req.limits;
    let bf = BlenderFrames::new(clip, req.skeleton.as_deref(), req.frames, &limits)?;
    let head = bf.head();
    let done = Exported { text: None, frames: bf.count, bones: head.bones.len(), source: head.source.clone() };
    if req.to_stream() {
        let mut w = stream::CappedWriter::new(out, limits.max_output);
        stream::write_matrix_json(clip, &bf, input, &mut w)?;
        w.write_all(b"\n").map_err(|e| ExportError::Io { path: PathBuf::from("-"), source: e })?;
    } else {
        // Written as it is made: a long clip never exists as one JSON value or string.
        stream::write_matrix_file(clip, &bf, input, &req.out_path, req.force, &limits)?;
    }
    if let Some(sp) = &req.skeleton_out {
        let text = serde_json::to_string_pretty(&bf.used().to_json())?;
        write_output(sp, text.as_bytes(), true, limits.max_output)?;
    }
    Ok(done)
}
