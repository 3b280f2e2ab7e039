//! Exports: one clip as `sc6-armature-matrices-v1` matrix JSON (see the README), written
//! atomically.

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
    tmp.as_file().sync_all()?;
    if force {
        tmp.persist(path).map_err(|e| e.error)?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| e.error)?;
    }
    Ok(())
}

/// The `export` verb: JSON to `out_path` (or stdout for `-`).
pub fn write_cli(
    clip: &Clip,
    input: &Path,
    out_path: &str,
    force: bool,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let poses = clip
        .poses
        .as_ref()
        .ok_or_else(|| CliError::Usage(format!("{}: this clip has no posed matrices to export", clip.name)))?;
    let name = input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let j = matrix_json(clip, poses, &name).map_err(CliError::Usage)?;
    let text = serde_json::to_string_pretty(&j).map_err(|e| CliError::Usage(e.to_string()))?;
    if out_path == "-" {
        writeln!(out, "{text}")?;
    } else {
        write_atomic(Path::new(out_path), text.as_bytes(), force)
            .map_err(|e| CliError::Usage(format!("{out_path}: {e}")))?;
        eprintln!("wrote {out_path}: {} frames, {} bones ({})", poses.frames.len(), poses.bones.len(), poses.source);
    }
    Ok(Outcome::Clean)
}
