//! Export to disk from the TUI (`e`): the shift-selected bytes or a node without
//! animation as raw bytes; the selected clip's posed matrices as JSON, the
//! same conversion as `animscope export` without `--skeleton` (or as glTF, when the path
//! ends in `.glb`/`.gltf`: the path's extension picks the format); or, for a CCSF scene, its
//! models as OBJ (+MTL, PNG), posed at the decode pane's frame of the selected Anime.
//!
//! Both go through the parsed object (which scenes have models, how an animation poses
//! them) and the export services the CLI uses.

use super::app::Level;
use super::workspace::Load;
use crate::export::{ExportDone, ExportRequest, OutputKind};
use crate::formats::AnimRef;
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::mesh::{ScenePose, SceneRequest};
use crate::session::Opened;
use std::path::Path;
use std::sync::Arc;

/// Whether the document `opened` exports its models as OBJ (its format has meshes).
pub fn offers_obj(opened: &Opened) -> bool {
    opened.meshes().is_some()
}

/// Path offered for an OBJ export of `opened`: `<stem>.obj`.
pub fn default_obj_path(opened: &Opened) -> String {
    let stem = opened.source().name().split(['.', ' ']).next().unwrap_or("scene").to_string();
    format!("{stem}.obj")
}

/// `name` made safe for a file name (letters, digits, `-` and `_`; anything else `_`).
pub fn file_stem_of(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// Path offered for the matrix JSON of `clip`: its name made safe for a file name.
pub fn default_json_path(clip: Option<&Load<Arc<Clip>>>) -> String {
    let name = match clip {
        Some(Load::Ready(c)) => c.name.clone(),
        _ => "clip".into(),
    };
    format!("{}.json", file_stem_of(&name))
}

/// Write the bytes `span` of `bytes` (the bytes titled `title`) to `path` as they are,
/// through a temporary file renamed into place; the message says what was written.
pub fn write_bytes(
    bytes: &[u8],
    span: crate::model::Span,
    title: &str,
    path: &Path,
    force: bool,
    limits: &Limits,
) -> Result<String, String> {
    let slice = usize::try_from(span.start)
        .ok()
        .zip(usize::try_from(span.end).ok())
        .and_then(|(s, e)| bytes.get(s..e))
        .ok_or_else(|| format!("export: 0x{:x}..0x{:x} is past the end of {title}", span.start, span.end))?;
    write_atomic(path, slice, force, limits.max_output).map_err(|e| format!("export {}: {e}", path.display()))?;
    Ok(format!(
        "wrote {}: {} bytes (0x{:x}..0x{:x} of {})",
        path.display(),
        slice.len(),
        span.start,
        span.end,
        crate::model::sanitize(title)
    ))
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

/// The request for an export to `path`: what it writes by the CLI's rule (the path's
/// extension: `.obj` OBJ, `.glb`/`.gltf` glTF, anything else matrix JSON, the poses' built-in
/// skeleton), replacing an existing file only with `force`, within `limits`.
pub fn request(path: &Path, force: bool, limits: &Limits) -> ExportRequest {
    let kind = OutputKind::of_path(path).unwrap_or(OutputKind::Matrices);
    ExportRequest { out_path: path.to_path_buf(), kind, force, limits: *limits, ..ExportRequest::default() }
}

/// Write the posed `clip` (named after the bytes `input`) as `req` asks — glTF (skeleton,
/// skin, animation, and `scene`'s meshes at rest when given) or matrix JSON, by the same
/// service as `animscope export`; the message says what was written. None when the clip
/// has no poses (checked before asking for a path).
pub fn write_clip(
    clip: &Clip,
    scene: Option<&crate::model::mesh::Scene>,
    input: &str,
    req: &ExportRequest,
) -> Option<Result<String, String>> {
    clip.poses.as_ref()?;
    Some(run(Some(clip), scene, input, req))
}

/// Write the models of `opened` as OBJ as `req` asks, posed at `frame` of `anim` when one
/// is selected (as that animation poses them); the message says what was written.
pub fn write_obj(opened: &Opened, anim: Option<&AnimRef>, frame: usize, req: &ExportRequest) -> Result<String, String> {
    let Some(meshes) = opened.meshes() else {
        return Err("export: OBJ export is for CCSF scenes; use a .json path".into());
    };
    let frame = u32::try_from(frame).unwrap_or(0);
    let pose = anim.map_or(ScenePose::Rest, |a| meshes.scene_pose(a, frame));
    match meshes.scene(&SceneRequest { model: None, pose }, &opened.decode_limits()) {
        Ok(scene) => run(None, Some(&scene), &opened.title(), req),
        Err(e) => Err(format!("export {}: {}", req.out_path.display(), crate::export::ExportError::from(e))),
    }
}

/// Run the export `req` of `clip` and `scene` ([`crate::export::export`]), worded for the
/// status line.
fn run(
    clip: Option<&Clip>,
    scene: Option<&crate::model::mesh::Scene>,
    input: &str,
    req: &ExportRequest,
) -> Result<String, String> {
    let path = req.out_path.display();
    match crate::export::export(clip, scene, input, req, &mut std::io::sink()) {
        Ok(ExportDone::Matrices(done)) => Ok(format!("wrote {path}: {} frames, {} bones", done.frames, done.bones)),
        Ok(ExportDone::Gltf(done)) => Ok(format!("wrote {path}: {done}")),
        Ok(ExportDone::Obj(said)) => Ok(said),
        Err(e) => Err(format!("export {path}: {e}")),
    }
}

/// Write `bytes` to `path` through a temporary file renamed into place (the export and
/// the bookmarks file); an existing file is replaced only with `force`, and more than
/// `max_output` bytes is an error.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool, max_output: u64) -> std::io::Result<()> {
    // The export module's writer, shared with `animscope export`.
    crate::export::write_atomic(path, bytes, force, max_output)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::anim::{PoseSeq, Space};
    use glam::Mat4;

    #[test]
    fn the_extension_picks_gltf_or_matrix_json() {
        let dir = tempfile::tempdir().unwrap();
        let mut clip = Clip::new("c", 30.0, 1);
        clip.poses = Some(PoseSeq {
            space: Space::BlenderArmature,
            bones: vec!["root".into()],
            frames: vec![vec![Mat4::IDENTITY]],
            parents: vec![None],
            rest: vec![Mat4::IDENTITY],
            conversion_matrix: Mat4::IDENTITY,
            source: "test".into(),
            skeleton: "test".into(),
            conversion: "none".into(),
        });
        let glb = dir.path().join("c.GLB");
        let msg = write_clip(&clip, None, "in", &request(&glb, false, &Limits::default())).unwrap().unwrap();
        assert!(msg.contains("1 frames, 1 joints"), "{msg}");
        assert_eq!(&std::fs::read(&glb).unwrap()[..4], b"glTF");
        let json = dir.path().join("c.json");
        write_clip(&clip, None, "in", &request(&json, false, &Limits::default())).unwrap().unwrap();
        assert!(std::fs::read_to_string(&json).unwrap().contains("sc6-armature-matrices-v1"));
        let kind = |p: &str| request(Path::new(p), false, &Limits::default()).kind;
        assert_eq!(
            (kind("c.obj"), kind("x.gltf"), kind("x.bin")),
            (OutputKind::Obj, OutputKind::Gltf, OutputKind::Matrices)
        );
    }

    /// The export prompt's glTF of a CCSF scene carries its meshes, as `export --gltf` does.
    #[test]
    fn gltf_of_a_scene_carries_its_meshes() {
        use crate::model::mesh::{ScenePose, SceneRequest};
        let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ccsf/chara.cmp")).unwrap();
        let src = std::sync::Arc::new(crate::source::Source::from_vec("chara.cmp", data));
        let o = Opened::from_source(src, None, &Limits::default(), Vec::new()).unwrap();
        let clips = o.clips().unwrap();
        let anim = clips
            .animations()
            .into_iter()
            .find(|a| clips.decode(a, &Default::default(), &Limits::default()).is_ok_and(|c| c.poses.is_some()))
            .unwrap();
        let clip = clips.decode(&anim, &Default::default(), &Limits::default()).unwrap();
        let scene = o
            .meshes()
            .unwrap()
            .scene(&SceneRequest { model: None, pose: ScenePose::Rest }, &Limits::default())
            .unwrap();
        assert!(!scene.meshes.is_empty());
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("scene.gltf");
        let req = request(&out, false, &Limits::default());
        let msg = write_clip(&clip, Some(&scene), "chara.cmp", &req).unwrap().unwrap();
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        // meshes without triangles are left out (glTF has no use for them)
        let drawn = scene.meshes.iter().filter(|m| !m.triangles.is_empty()).count();
        assert!(drawn > 0);
        assert_eq!(doc["meshes"].as_array().map(Vec::len), Some(drawn), "{msg}");
        let without = dir.path().join("bare.gltf");
        write_clip(&clip, None, "chara.cmp", &request(&without, false, &Limits::default())).unwrap().unwrap();
        let bare: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&without).unwrap()).unwrap();
        assert!(bare["meshes"].as_array().is_none_or(Vec::is_empty));
    }
}
