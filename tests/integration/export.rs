//! Matrix JSON exports checked against matrices computed here, independently of the
//! exporter's posing code: from the decoded channel samples (`decode --json`) and the
//! fixture's known hierarchy, with glam.

use glam::{EulerRot, Mat4, Vec3};
use serde_json::Value;

use super::support::animscope;

fn json(args: &[&str]) -> Value {
    let (code, out, err) = animscope(args);
    assert_eq!(code, 0, "animscope {args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn fixture(p: &str) -> String {
    format!("{}/fixtures/{p}", env!("CARGO_MANIFEST_DIR"))
}

/// Row-major 16 numbers (column-vector convention) → glam.
fn mat(v: &Value) -> Mat4 {
    let a: Vec<f32> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
    assert_eq!(a.len(), 16);
    Mat4::from_cols_array(&a.try_into().unwrap()).transpose()
}

fn samples(decoded: &Value, track: &str) -> Vec<f32> {
    let t = decoded["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == track)
        .unwrap_or_else(|| panic!("no track {track}"));
    t["samples"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect()
}

fn assert_close(got: Mat4, want: Mat4, what: &str) {
    let d = (got - want).to_cols_array().iter().fold(0f32, |m, v| m.max(v.abs()));
    assert!(d <= 1e-4, "{what}: max abs difference {d}\n got {got}\nwant {want}");
}

#[test]
fn sc6_root_only_matches_root_channels() {
    let f = fixture("sc6/flags_half.mot");
    let decoded = json(&["decode", &f, "--clip", "0", "--json"]);
    let export = json(&["export", &f, "--clip", "0", "--root-only", "-o", "-"]);
    assert_eq!(export["schema"], "sc6-armature-matrices-v1");
    assert_eq!(export["source"], "root curve only");
    assert_eq!(export["fps"], 60.0);
    let (x, y, z) = (samples(&decoded, "root.x"), samples(&decoded, "root.y"), samples(&decoded, "root.z"));
    let frames = export["frames"].as_array().unwrap();
    assert_eq!(
        frames.len(),
        decoded["frame_count"].as_u64().unwrap() as usize,
        "every logical frame, terminal included"
    );
    // Lux battle space is Y up with X/Z the ground plane; Blender is Z up: (x, y, z) -> (x, -z, y).
    let to_blender = |v: Vec3| Vec3::new(v.x, -v.z, v.y);
    let mut moved = false;
    for (i, fr) in frames.iter().enumerate() {
        assert_eq!(fr["frame"], i);
        let ground = Mat4::from_translation(to_blender(Vec3::new(x[i], 0.0, z[i])));
        let full = Mat4::from_translation(to_blender(Vec3::new(x[i], y[i], z[i])));
        assert_close(mat(&fr["bones"]["actor_root"]), ground, &format!("frame {i} actor_root"));
        assert_close(mat(&fr["bones"]["motion_root"]), full, &format!("frame {i} motion_root"));
        moved |= x[i] != x[0] || z[i] != z[0];
    }
    assert!(moved, "the fixture's root must move for this test to mean anything");
}

#[test]
fn ccsf_anime_matches_controller_channels_through_the_hierarchy() {
    let f = fixture("ccsf/chara.cmp");
    let decoded = json(&["decode", &f, "--anime", "ANM_walk", "--json"]);
    let export = json(&["export", &f, "--anime", "ANM_walk", "-o", "-"]);
    assert_eq!(export["source"], "ccsf anime");
    // The writer's chara scene: OBJ_root ← OBJ_hip ← OBJ_leg ← OBJ_prop; ExtObj OBJ_hip_c and
    // OBJ_leg_c carry the Anime controllers of OBJ_hip and OBJ_leg; local = T·Rx·Ry·Rz·S (degrees).
    let local = |obj: &str, i: usize| {
        let s = |c: &str| samples(&decoded, &format!("{obj}.{c}"))[i];
        let r = |c: &str| s(c).to_radians();
        Mat4::from_translation(Vec3::new(s("tx"), s("ty"), s("tz")))
            * Mat4::from_euler(EulerRot::XYZ, r("rx"), r("ry"), r("rz"))
            * Mat4::from_scale(Vec3::new(s("sx"), s("sy"), s("sz")))
    };
    let frames = export["frames"].as_array().unwrap();
    assert_eq!(frames.len(), decoded["frame_count"].as_u64().unwrap() as usize);
    for (i, fr) in frames.iter().enumerate() {
        let hip = local("OBJ_hip_c", i);
        let leg = hip * local("OBJ_leg_c", i);
        assert_close(mat(&fr["bones"]["OBJ_root"]), Mat4::IDENTITY, &format!("frame {i} root"));
        assert_close(mat(&fr["bones"]["OBJ_hip"]), hip, &format!("frame {i} hip"));
        assert_close(mat(&fr["bones"]["OBJ_leg"]), leg, &format!("frame {i} leg"));
        assert_close(mat(&fr["bones"]["OBJ_prop"]), leg, &format!("frame {i} prop follows its parent"));
    }
    assert!(mat(&frames[frames.len() - 1]["bones"]["OBJ_hip"]) != Mat4::IDENTITY);
}

#[test]
fn exports_are_atomic_and_never_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clip.json");
    let o = out.to_string_lossy().into_owned();
    let f = fixture("sc6/flags_none.mot");
    let (code, _, err) = animscope(&["export", &f, "--clip", "0", "-o", &o]);
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read(&out).unwrap();
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&out).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o644, "exports are ordinary readable files");
    std::fs::write(&out, b"user data").unwrap();
    let (code, _, err) = animscope(&["export", &f, "--clip", "0", "-o", &o]);
    assert_eq!(code, 2);
    assert!(err.contains("exists (use --force to overwrite)"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"user data", "a refused export leaves the file alone");
    let (code, _, _) = animscope(&["export", &f, "--clip", "0", "-o", &o, "--force"]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&out).unwrap(), first);
    // no temporary files are left behind
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn frame_ranges_and_skeleton_files() {
    let dir = tempfile::tempdir().unwrap();
    let skel = dir.path().join("skel.json");
    let f = fixture("sc6/flags_none.mot");
    let all = json(&["export", &f, "--clip", "0", "-o", "-"]);
    let part = json(&["export", &f, "--clip", "0", "--frames", "2..4", "-o", "-"]);
    let frames = part["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 3);
    assert_eq!(frames[0]["frame"], 2);
    assert_eq!(frames[0]["bones"], all["frames"][2]["bones"]);
    let (code, _, err) = animscope(&["export", &f, "--clip", "0", "--frames", "4..2", "-o", "-"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = animscope(&["skeleton", "--builtin", "sc6", "-o", &skel.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&skel).unwrap()).unwrap();
    assert_eq!(s["schema"], "animscope-skeleton-v1");
    assert_eq!(s["bones"].as_array().unwrap().len(), 32);
    // Retargeting onto the written built-in skeleton gives the same matrices as the default.
    let again = json(&["export", &f, "--clip", "0", "--skeleton", &skel.to_string_lossy(), "-o", "-"]);
    for (a, b) in again["frames"].as_array().unwrap().iter().zip(all["frames"].as_array().unwrap()) {
        for (name, m) in b["bones"].as_object().unwrap() {
            assert_close(mat(&a["bones"][name]), mat(m), name);
        }
    }
}
