//! Exports written frame by frame from poses made on demand (`DecodeOptions::
//! poses_on_demand`, what `export` asks for) give the same bytes as the in-memory export of
//! the stored poses: the whole clip as one `serde_json` value, pretty-printed, for every
//! animation of every committed fixture, whole, cut (`--frames`) and root only.

use animscope::export::skeleton::to_blender;
use animscope::export::{ExportRequest, export_matrices, matrix_json};
use animscope::formats::{self, DecodeOptions};
use animscope::limits::Limits;
use animscope::source::Source;
use std::path::Path;
use std::sync::Arc;

fn text(clip: &animscope::model::anim::Clip, req: &ExportRequest) -> Result<String, String> {
    export_matrices(clip, "in.bin", req).map(|d| d.text.unwrap_or_default()).map_err(|e| e.to_string())
}

#[test]
fn streamed_exports_equal_the_in_memory_export_on_every_fixture() {
    let paths = crate::support::files_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"), &|p| {
        p.extension().is_none_or(|e| e != "md")
    });
    let limits = Limits::default();
    let (mut compared, mut on_demand) = (0usize, 0usize);
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(parsed) = formats::open(Arc::new(Source::from_vec(&name, bytes)), None, &limits) else { continue };
        for anim in parsed.animations().iter().take(24) {
            for root_only in [false, true] {
                let mut stored_opts = DecodeOptions::default();
                if root_only {
                    stored_opts.extra.insert("root_only".into(), "1".into());
                }
                let lazy_opts = DecodeOptions { poses_on_demand: true, ..stored_opts.clone() };
                let Ok(stored) = parsed.require_clips_for(anim).and_then(|c| c.decode(anim, &stored_opts, &limits))
                else {
                    continue;
                };
                let Some(poses) = stored.poses.as_ref() else { continue };
                let lazy = parsed
                    .require_clips_for(anim)
                    .and_then(|c| c.decode(anim, &lazy_opts, &limits))
                    .expect("decodes as the stored one did");
                let what = format!("{name} {} root_only={root_only}", anim.name());
                if lazy.on_demand.is_some() {
                    on_demand += 1;
                    assert!(lazy.tracks.is_empty(), "{what}: tracks kept beside poses on demand");
                    assert!(lazy.poses.as_ref().is_some_and(|p| p.frames.is_empty()), "{what}: frames stored");
                }
                assert_eq!(lazy.pose_frames(), poses.frames.len(), "{what}: frame count");
                // Today's bytes: the whole clip converted, as one JSON value.
                let reference = to_blender(poses, None)
                    .map_err(|e| e.to_string())
                    .and_then(|(bp, _)| matrix_json(&stored, &bp, "in.bin").map_err(|e| e.to_string()))
                    .map(|v| serde_json::to_string_pretty(&v).unwrap());
                let whole = ExportRequest { out_path: "-".into(), ..ExportRequest::default() };
                assert_eq!(text(&lazy, &whole), reference, "{what}: on demand");
                assert_eq!(text(&stored, &whole), reference, "{what}: stored");
                // A cut: frames numbered from its first; same bytes either way.
                let n = poses.frames.len();
                if n >= 3 {
                    let cut = ExportRequest { frames: Some((1, n - 2)), ..whole.clone() };
                    let (a, b) = (text(&lazy, &cut), text(&stored, &cut));
                    assert_eq!(a, b, "{what}: cut");
                    let numbered = |t: &String| t.contains("\"frame\": 1\n") && !t.contains("\"frame\": 0\n");
                    assert!(a.as_ref().is_ok_and(numbered), "{what}: the cut is numbered from frame 1");
                }
                compared += 1;
            }
        }
    }
    assert!(compared >= 20, "only {compared} clips with poses among the fixtures");
    assert!(on_demand >= 10, "only {on_demand} clips exported from poses on demand");
    eprintln!("{compared} exports compared, {on_demand} from poses on demand");
}
