//! The pose viewer and `animscope pose`: the joints it draws are the translations of the
//! matrices the matrix JSON export writes (checked against the exported JSON, parsed), a
//! clip whose root turns a quarter turn shows the figure turned, and the printed picture.

use animscope::export::BlenderFrames;
use animscope::export::pose::{PoseScene, Preset, View, joints};
use animscope::formats::DecodeOptions;
use animscope::limits::Limits;
use animscope::model::anim::Clip;
use animscope::session::Opened;
use animscope::tui::pose::{Palette, PosePicture};
use std::collections::BTreeMap;
use std::path::Path;

use crate::support::animscope;

/// The clip named `name` (or the file's first animation) of a fixture.
fn clip(path: &str, name: Option<&str>) -> Clip {
    let o = Opened::open_path(Path::new(path), Default::default(), None, &Limits::default()).expect("opens");
    let anim = match name {
        Some(n) => o.require_clips().and_then(|c| c.find_animation(n)).expect("named animation"),
        None => o.animations().into_iter().next().expect("an animation"),
    };
    o.require_clips_for(&anim)
        .and_then(|c| c.decode(&anim, &DecodeOptions::default(), &Limits::default()))
        .expect("decodes")
}

/// Bone name → joint position (x, y, z) at `frame`, read from the matrix JSON the
/// `export` verb writes for that one frame: row-major matrices, translation in elements
/// 3, 7 and 11.
fn exported_joints(path: &str, anim: Option<&str>, frame: usize) -> BTreeMap<String, [f64; 3]> {
    let range = format!("{frame}..{frame}");
    let mut args = vec!["export", path, "--frames", &range, "-o", "-"];
    if let Some(a) = anim {
        args.extend(["--anim", a]);
    }
    let (code, out, err) = animscope(&args);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let frames = j["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0]["frame"], frame);
    frames[0]["bones"]
        .as_object()
        .expect("bones")
        .iter()
        .map(|(name, m)| {
            let m: Vec<f64> = m.as_array().expect("16 numbers").iter().map(|v| v.as_f64().expect("number")).collect();
            (name.clone(), [m[3], m[7], m[11]])
        })
        .collect()
}

/// Orthographic projection of the JSON's point, written out independently of `View`:
/// front = (x, z), side = (y, z), top = (x, y).
fn project(p: [f64; 3], view: Preset) -> (f64, f64) {
    match view {
        Preset::Front => (p[0], p[2]),
        Preset::Side => (p[1], p[2]),
        Preset::Top => (p[0], p[1]),
    }
}

/// Equal to f32 precision at the point's magnitude `size`.
fn near(a: (f64, f64), b: (f64, f64), size: f64) -> bool {
    let tol = 1e-5 * (1.0 + size);
    (a.0 - b.0).abs() <= tol && (a.1 - b.1).abs() <= tol
}

fn size(p: [f64; 3]) -> f64 {
    p.iter().map(|v| v.abs()).fold(0.0, f64::max)
}

#[test]
fn drawn_joints_and_bones_are_the_exported_matrices_translations() {
    // one clip of every format that poses: MOTN, SC6, CCSF Anime, CCSF frame section
    let cases: [(&str, Option<&str>, usize); 5] = [
        ("fixtures/motn/turn.mot", Some("TURN_90"), 17),
        ("fixtures/sc6/flags_none.mot", None, 9),
        ("fixtures/ccsf/g123rig.ccs", Some("ANM_wave"), 5),
        ("fixtures/ccsf/chara.cmp", Some("ANM_walk"), 3),
        ("fixtures/ccsf/str0200.tmp", None, 1),
    ];
    for (path, anim, frame) in cases {
        let want = exported_joints(path, anim, frame);
        let c = clip(path, anim);
        let bf = BlenderFrames::new(&c, None, None, &animscope::limits::Limits::default()).expect("poses");
        let scene = PoseScene::new(&bf).expect("scene");
        let at = joints(&bf, frame).expect("frame");
        assert_eq!(scene.bones.len(), want.len(), "{path}: one joint per exported bone");
        for view in [Preset::Front, Preset::Side, Preset::Top] {
            let v = View::preset(view);
            for (i, name) in scene.bones.iter().enumerate() {
                let got = v.project(at[i]);
                let exp = project(want[name], view);
                assert!(
                    near(got, exp, size(want[name])),
                    "{path} frame {frame} {name} {view:?}: drawn {got:?}, exported {exp:?}"
                );
            }
            // every bone segment the picture draws joins the exported parent and child joints
            let pic = PosePicture { scene: &scene, joints: &at, view: &v, highlight: None, palette: Palette::plain() };
            let segs = pic.bone_segments();
            assert_eq!(segs.len(), scene.parents.iter().filter(|p| p.is_some()).count(), "{path}");
            for (child, a, b) in segs {
                let parent = scene.parents[child].expect("a parent");
                let (p, q) = (want[&scene.bones[parent]], want[&scene.bones[child]]);
                assert!(near(a, project(p, view), size(p)), "{path} bone {child} start");
                assert!(near(b, project(q, view), size(q)), "{path} bone {child} end");
            }
        }
    }
}

#[test]
fn a_root_turning_a_quarter_turn_turns_the_figure() {
    // TURN_90: the root turns 0 → 90° about the up axis over frames 0..30. At frame 0 the
    // nominal MOTN T pose has its shoulders across the front view; at frame 30 they point
    // at the viewer (across the side view instead).
    let c = clip("fixtures/motn/turn.mot", Some("TURN_90"));
    let bf = BlenderFrames::new(&c, None, None, &animscope::limits::Limits::default()).expect("poses");
    let scene = PoseScene::new(&bf).expect("scene");
    assert_eq!(scene.frames, 31);
    let idx = |n: &str| scene.bones.iter().position(|b| b == n).expect(n);
    let (l, r) = (idx("Shoulder_L"), idx("Shoulder_R"));
    let span = |frame: usize, view: Preset| {
        let at = joints(&bf, frame).expect("frame");
        let v = View::preset(view);
        (v.project(at[l]).0 - v.project(at[r]).0).abs()
    };
    let width = span(0, Preset::Front);
    assert!(width > 0.1, "shoulders {width} apart across the front view at frame 0");
    assert!(span(0, Preset::Side) < width * 1e-3, "and edge-on from the side");
    assert!(span(30, Preset::Front) < width * 1e-3, "turned: edge-on from the front at frame 30");
    assert!((span(30, Preset::Side) - width).abs() < width * 1e-3, "and across the side view");
    // the root's trail is the quarter circle it walked: from the origin to 1 m along −X
    // and 1 m forward in game space (Blender +Y)
    let (first, last) = (scene.trail[0], scene.trail[30]);
    assert!(first.x.abs() < 1e-3 && first.y.abs() < 1e-3, "{first}");
    assert!((last.x + 1.0).abs() < 1e-2 && (last.y - 1.0).abs() < 1e-2, "{last}");
}

#[test]
fn pose_prints_the_braille_picture() {
    let (code, out, err) = animscope(&[
        "pose",
        "fixtures/motn/turn.mot",
        "--anim",
        "TURN_90",
        "--frame",
        "30",
        "--width",
        "60",
        "--height",
        "20",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21, "a header and 20 rows");
    assert!(lines[1..].iter().all(|l| l.chars().count() == 60), "{out}");
    insta::assert_snapshot!("pose_turn_90_frame_30_front", out);
    let (code, top, _) = animscope(&[
        "pose",
        "fixtures/motn/turn.mot",
        "--frame",
        "30",
        "--view",
        "top",
        "--width",
        "60",
        "--height",
        "20",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("pose_turn_90_frame_30_top", top);
}

#[test]
fn pose_refuses_bad_requests_with_a_usage_error() {
    let (code, _, err) = animscope(&["pose", "fixtures/motn/turn.mot", "--frame", "31"]);
    assert_eq!(code, 2);
    assert!(err.contains("--frame 31: TURN_90 has frames 0..30"), "{err}");
    let (code, _, err) = animscope(&["pose", "fixtures/motn/turn.mot", "--view", "under"]);
    assert_eq!(code, 2);
    assert!(err.contains("--view under: expected front, side or top"), "{err}");
    let (code, _, err) = animscope(&["pose", "fixtures/motn/turn.mot", "--width", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("width and height"), "{err}");
}
