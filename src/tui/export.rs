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
use crate::formats::AnimRef;
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::mesh::{ScenePose, SceneRequest};
use crate::session::Opened;
use std::path::Path;
use std::sync::Arc;

/// Whether the document `opened` exports its models as OBJ (its format has meshes).
pub fn offers_obj(opened: &Opened) -> bool {
    opened.has_meshes()
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

/// Whether `path` asks for a glTF export (`.glb` or `.gltf`), by the CLI's rule.
pub fn wants_gltf(path: &Path) -> bool {
    crate::export::OutputKind::of_path(path) == Some(crate::export::OutputKind::Gltf)
}

/// Write the posed `clip` (named after the bytes `input`) to `path`: glTF (skeleton, skin,
/// animation) for a `.glb`/`.gltf` path, else matrix JSON; the message says what was
/// written. None when the clip has no poses (checked before asking for a path).
pub fn write_matrix_json(
    clip: &Clip,
    input: &str,
    path: &Path,
    force: bool,
    limits: &Limits,
) -> Option<Result<String, String>> {
    write_clip(clip, None, input, path, force, limits)
}

/// [`write_matrix_json`], with the scene's meshes (at rest, skinned to the clip's skeleton)
/// when the format has models and the path asks for glTF.
pub fn write_clip(
    clip: &Clip,
    scene: Option<&crate::model::mesh::Scene>,
    input: &str,
    path: &Path,
    force: bool,
    limits: &Limits,
) -> Option<Result<String, String>> {
    clip.poses.as_ref()?;
    if wants_gltf(path) {
        let req = crate::export::gltf::GltfRequest {
            out_path: path.to_path_buf(),
            force,
            limits: *limits,
            ..Default::default()
        };
        return Some(match crate::export::gltf::export_gltf(Some(clip), scene, input, &req) {
            Ok(done) => Ok(format!("wrote {}: {done}", path.display())),
            Err(e) => Err(format!("export {}: {e}", path.display())),
        });
    }
    // The same service as `animscope export` without --skeleton (the poses' built-in skeleton).
    let req = crate::export::ExportRequest {
        out_path: path.to_string_lossy().into_owned(),
        force,
        limits: *limits,
        ..crate::export::ExportRequest::default()
    };
    Some(match crate::export::export_matrices(clip, input, &req) {
        Ok(done) => Ok(format!("wrote {}: {} frames, {} bones", path.display(), done.frames, done.bones)),
        Err(e) => Err(format!("export {}: {e}", path.display())),
    })
}

/// Write the models of `opened` as OBJ to `path`, posed at `frame` of `anim` when one is
/// selected (as that animation poses them); the message says what was written.
pub fn write_obj(
    opened: &Opened,
    anim: Option<&AnimRef>,
    frame: usize,
    path: &Path,
    force: bool,
    limits: &Limits,
) -> Result<String, String> {
    if !offers_obj(opened) {
        return Err("export: OBJ export is for CCSF scenes; use a .json path".into());
    }
    let frame = u32::try_from(frame).unwrap_or(0);
    let pose = anim.map_or(ScenePose::Rest, |a| opened.scene_pose(a, frame));
    let scene = opened.scene(&SceneRequest { model: None, pose }, limits);
    scene
        .map_err(crate::export::ExportError::from)
        .and_then(|scene| crate::export::obj::write_obj(&scene, path, force, limits.max_output))
        .map_err(|e| format!("export {}: {e}", path.display()))
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
        let msg = write_matrix_json(&clip, "in", &glb, false, &Limits::default()).unwrap().unwrap();
        assert!(msg.contains("1 frames, 1 joints"), "{msg}");
        assert_eq!(&std::fs::read(&glb).unwrap()[..4], b"glTF");
        let json = dir.path().join("c.json");
        write_matrix_json(&clip, "in", &json, false, &Limits::default()).unwrap().unwrap();
        assert!(std::fs::read_to_string(&json).unwrap().contains("sc6-armature-matrices-v1"));
        assert!(!wants_gltf(Path::new("c.obj")) && wants_gltf(Path::new("x.gltf")));
    }

    /// The export prompt's glTF of a CCSF scene carries its meshes, as `export --gltf` does.
    #[test]
    fn gltf_of_a_scene_carries_its_meshes() {
        use crate::model::mesh::{ScenePose, SceneRequest};
        let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ccsf/chara.cmp")).unwrap();
        let src = std::sync::Arc::new(crate::source::Source::from_vec("chara.cmp", data));
        let o = Opened::from_source(src, None, &Limits::default(), Vec::new()).unwrap();
        let anim = o
            .animations()
            .into_iter()
            .find(|a| o.decode(a, &Default::default(), &Limits::default()).is_ok_and(|c| c.poses.is_some()))
            .unwrap();
        let clip = o.decode(&anim, &Default::default(), &Limits::default()).unwrap();
        let scene = o.scene(&SceneRequest { model: None, pose: ScenePose::Rest }, &Limits::default()).unwrap();
        assert!(!scene.meshes.is_empty());
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("scene.gltf");
        let msg = write_clip(&clip, Some(&scene), "chara.cmp", &out, false, &Limits::default()).unwrap().unwrap();
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        // meshes without triangles are left out (glTF has no use for them)
        let drawn = scene.meshes.iter().filter(|m| !m.triangles.is_empty()).count();
        assert!(drawn > 0);
        assert_eq!(doc["meshes"].as_array().map(Vec::len), Some(drawn), "{msg}");
        let without = dir.path().join("bare.gltf");
        write_clip(&clip, None, "chara.cmp", &without, false, &Limits::default()).unwrap().unwrap();
        let bare: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&without).unwrap()).unwrap();
        assert!(bare["meshes"].as_array().is_none_or(Vec::is_empty));
    }
}
