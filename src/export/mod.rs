//! Exports: one clip as `sc6-armature-matrices-v1` matrix JSON (see the README), written
//! atomically.

pub mod names;
pub mod obj;
pub mod skeleton;

use crate::cli::{CliError, Outcome};
use crate::model::anim::{Clip, PoseSeq, Space};
use serde_json::{Value as Json, json};
use std::io::Write;
use std::path::Path;

/// The schema name Blender's side checks, kept for every format.
pub const SCHEMA: &str = "sc6-armature-matrices-v1";

/// Build the matrix JSON for a posed clip. Non-finite numbers are an error.
pub fn matrix_json(clip: &Clip, poses: &PoseSeq, input: &str) -> Result<Json, String> {
    if poses.space != Space::BlenderArmature {
        return Err(format!("poses are in {:?} space, not Blender armature space", poses.space));
    }
    let mut frames = Vec::with_capacity(poses.frames.len());
    for (f, mats) in poses.frames.iter().enumerate() {
        let mut bones = serde_json::Map::new();
        for (name, m) in poses.bones.iter().zip(mats) {
            // glam is column-major; the contract is row-major with column vectors.
            let rows = m.transpose().to_cols_array();
            if let Some(bad) = rows.iter().find(|v| !v.is_finite()) {
                return Err(format!("frame {f} bone {name}: non-finite value {bad}"));
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

/// Write `bytes` to `path` atomically (temp file in the same folder, then rename);
/// refuses to replace an existing file unless `force`.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> std::io::Result<()> {
    if !force && path.exists() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} exists (use --force to overwrite)", path.display()),
        ));
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    // tempfile creates 0600; an export is an ordinary document (0644, as a plain create would
    // give under the usual umask).
    tmp.as_file().set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644))?;
    tmp.as_file().sync_all()?;
    if force {
        tmp.persist(path).map_err(|e| e.error)?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| e.error)?;
    }
    Ok(())
}

/// What the `export` verb was asked for, besides the clip.
#[derive(Debug, Clone, Default)]
pub struct ExportRequest {
    /// Output path (`-` = stdout).
    pub out_path: String,
    /// Replace an existing file.
    pub force: bool,
    /// Skeleton file to retarget onto.
    pub skeleton: Option<std::path::PathBuf>,
    /// Also write the skeleton used (for building a matching armature).
    pub skeleton_out: Option<std::path::PathBuf>,
    /// Keep only logical frames `a..=b`.
    pub frames: Option<(usize, usize)>,
}

/// Parse `A..B` (inclusive, logical frames).
pub fn parse_frames(s: &str) -> Option<(usize, usize)> {
    let (a, b) = s.split_once("..")?;
    let (a, b) = (a.trim().parse().ok()?, b.trim().trim_start_matches('=').parse().ok()?);
    (a <= b).then_some((a, b))
}

/// The `export` verb: JSON to `out_path` (or stdout for `-`).
pub fn write_cli(clip: &Clip, input: &Path, req: &ExportRequest, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let out_path = req.out_path.as_str();
    let poses = clip
        .poses
        .as_ref()
        .ok_or_else(|| CliError::Usage(format!("{}: this clip has no posed matrices to export", clip.name)))?;
    let skel = match &req.skeleton {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| CliError::Usage(format!("{}: {e}", p.display())))?;
            Some(skeleton::SkeletonFile::parse(&text).map_err(|e| CliError::Usage(format!("{}: {e}", p.display())))?)
        }
        None => None,
    };
    let (mut bp, used) = skeleton::to_blender(poses, skel.as_ref()).map_err(CliError::Usage)?;
    let first = match req.frames {
        Some((a, b)) => {
            if b >= bp.frames.len() {
                return Err(CliError::Usage(format!(
                    "--frames {a}..{b}: the clip has frames 0..{}",
                    bp.frames.len().saturating_sub(1)
                )));
            }
            bp.frames = bp.frames.get(a..=b).map(<[_]>::to_vec).unwrap_or_default();
            a
        }
        None => 0,
    };
    let name = input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut j = matrix_json(clip, &bp, &name).map_err(CliError::Usage)?;
    if let Some(frames) = j["frames"].as_array_mut() {
        for (i, f) in frames.iter_mut().enumerate() {
            f["frame"] = json!(first + i);
        }
    }
    let text = serde_json::to_string_pretty(&j).map_err(|e| CliError::Usage(e.to_string()))?;
    if out_path == "-" {
        writeln!(out, "{text}")?;
    } else {
        write_atomic(Path::new(out_path), text.as_bytes(), req.force)
            .map_err(|e| CliError::Usage(format!("{out_path}: {e}")))?;
        eprintln!("wrote {out_path}: {} frames, {} bones ({})", bp.frames.len(), bp.bones.len(), bp.source);
    }
    if let Some(sp) = &req.skeleton_out {
        let text = serde_json::to_string_pretty(&used.to_json()).map_err(|e| CliError::Usage(e.to_string()))?;
        write_atomic(sp, text.as_bytes(), true).map_err(|e| CliError::Usage(format!("{}: {e}", sp.display())))?;
    }
    Ok(Outcome::Clean)
}
