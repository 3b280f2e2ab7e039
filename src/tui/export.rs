//! Export to disk from the TUI (`e`): the selected clip's posed matrices as JSON, the
//! same conversion as `animscope export` without `--skeleton`; or, for a CCSF scene, its
//! models as OBJ (+MTL, PNG), posed at the decode pane's frame of the selected Anime.
//!
//! The TUI reaches behind the format seam (and into the export module) only here and in
//! the clip decode of the job runner: each such spot is one small function marked
//! `seam:`, to be swapped for the parsed-object API in one place.

use super::app::Level;
use super::workspace::Load;
use crate::model::anim::Clip;
use crate::session::Opened;
use std::path::Path;
use std::sync::Arc;

/// Whether the document `opened` exports its models as OBJ (a CCSF scene).
pub fn offers_obj(opened: &Opened) -> bool {
    // seam: only CCSF scenes have models to export, asked by format id.
    opened.format.id() == "ccsf"
}

/// The name of the CCSF Anime an animation key stands for, if it names one.
pub fn anime_of_key(key: &str) -> Option<&str> {
    // seam: CCSF mints its Anime animation keys as `anime:NAME`; the OBJ export wants NAME.
    key.strip_prefix("anime:")
}

/// Path offered for an OBJ export of `opened`: `<stem>.obj`.
pub fn default_obj_path(opened: &Opened) -> String {
    let stem = opened.source.name().split(['.', ' ']).next().unwrap_or("scene").to_string();
    format!("{stem}.obj")
}

/// Path offered for the matrix JSON of `clip`: its name made safe for a file name.
pub fn default_json_path(clip: Option<&Load<Arc<Clip>>>) -> String {
    let name = match clip {
        Some(Load::Ready(c)) => c.name.clone(),
        _ => "clip".into(),
    };
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    format!("{safe}.json")
}

/// Whether the clip of the selection can be written as matrix JSON; else why not.
pub fn check_clip(clip: Option<&Load<Arc<Clip>>>) -> Result<(), (Level, String)> {
    match clip {
        None => Err((Level::Error, "export: the selected node carries no animation".into())),
        Some(Load::Pending(_)) => Err((Level::Info, "export: the clip is still decoding".into())),
        Some(Load::Failed(e)) => Err((Level::Error, format!("export: the clip did not decode: {e}"))),
        Some(Load::Ready(c)) if c.poses.is_none() => Err((
            Level::Error,
            format!("export: {} has tracks but no posed matrices, so there is nothing to export", c.name),
        )),
        Some(Load::Ready(_)) => Ok(()),
    }
}

/// Whether `path` asks for an OBJ export (by its extension).
pub fn wants_obj(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("obj"))
}

/// Write the matrix JSON of `clip` (named after the bytes `input`) to `path`; the message
/// says what was written. None when the clip has no poses (checked before asking for a path).
pub fn write_matrix_json(clip: &Clip, input: &str, path: &Path, force: bool) -> Option<Result<String, String>> {
    let poses = clip.poses.as_ref()?;
    // seam: the same conversion as `animscope export` without --skeleton (the poses'
    // built-in skeleton), called straight into the export module.
    let res = crate::export::skeleton::to_blender(poses, None)
        .and_then(|(bp, _)| crate::export::matrix_json(clip, &bp, input))
        .and_then(|j| serde_json::to_string_pretty(&j).map_err(|e| e.to_string()))
        .and_then(|t| write_atomic(path, t.as_bytes(), force).map_err(|e| e.to_string()));
    Some(match res {
        Ok(()) => Ok(format!("wrote {}: {} frames, {} bones", path.display(), poses.frames.len(), poses.bones.len())),
        Err(e) => Err(format!("export {}: {e}", path.display())),
    })
}

/// Write the models of the CCSF document `opened` as OBJ to `path`, posed at `frame` of
/// the Anime `anime` when one is given; the message says what was written.
pub fn write_obj(
    opened: &Opened,
    anime: Option<&str>,
    frame: usize,
    path: &Path,
    force: bool,
) -> Result<String, String> {
    if !offers_obj(opened) {
        return Err("export: OBJ export is for CCSF scenes; use a .json path".into());
    }
    let anime = anime.map(str::to_string);
    let frame = anime.as_ref().map(|_| u32::try_from(frame).unwrap_or(0));
    let req = crate::export::obj::ObjRequest {
        out_path: path.to_string_lossy().into_owned(),
        force,
        model: None,
        anime,
        frame,
        frames_from: None,
    };
    // seam: the CLI's OBJ export, on the raw bytes; its error is the CLI's error type,
    // shown only as text here.
    crate::export::obj::write_files(opened.source.bytes(), &req).map_err(|e| format!("export {}: {e}", path.display()))
}

/// Write `bytes` to `path` through a temporary file renamed into place (the export and
/// the bookmarks file); an existing file is replaced only with `force`.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> std::io::Result<()> {
    // seam: the export module's writer, shared with `animscope export`.
    crate::export::write_atomic(path, bytes, force)
}
