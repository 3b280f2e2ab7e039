//! MOTN export: posed matrices checked against matrices built here by hand (glam, from the
//! decoded channel samples and the rig documented in `formats::motn` — hierarchy, nominal
//! offsets, Euler order, `C`), the exported matrix JSON, the `export` / `skeleton` /
//! `plot --node` verbs.

use animscope::export::matrix_json;
use animscope::export::skeleton::{SkeletonFile, to_blender};
use animscope::formats::motn::write::{self, Channel, ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec};
use animscope::formats::{self, DecodeOptions};
use animscope::limits::Limits;
use animscope::model::anim::{Clip, Space};
use assert_cmd::Command;
use glam::{Mat4, Vec3, Vec4};

/// The nominal rig as documented (`formats/motn/pose.rs` module docs and table): node id,
/// bone name, parent id, local rest offset (Y up, metres, right side +X).
#[rustfmt::skip]
const RIG: [(u8, &str, Option<u8>, [f32; 3]); 29] = [
    (0, "Root", None, [0.0, 1.1, 0.0]),
    (1, "Hip", Some(0), [0.0, 0.0, 0.0]),
    (4, "node_4", Some(1), [0.0, 0.0, 0.0]),
    (5, "UpperLeg_R", Some(1), [0.1, -0.05, 0.0]),
    (8, "FootIKTarget_R", Some(0), [0.1, -1.0, 0.0]),
    (9, "Foot_R", Some(5), [0.0, -0.9, 0.0]),
    (10, "node_10", Some(9), [0.0, 0.0, 0.0]),
    (12, "UpperLeg_L", Some(1), [-0.1, -0.05, 0.0]),
    (14, "node_14", Some(0), [0.0, 0.0, 0.0]),
    (15, "FootIKTarget_L", Some(0), [-0.1, -1.0, 0.0]),
    (16, "Foot_L", Some(12), [0.0, -0.9, 0.0]),
    (18, "Torso", Some(0), [0.0, 0.1, 0.0]),
    (19, "node_19", Some(18), [0.0, 0.0, 0.0]),
    (20, "UpperTorsoIKTarget", Some(0), [0.0, 0.4, 0.0]),
    (21, "Neck", Some(18), [0.0, 0.42, 0.0]),
    (22, "node_22", Some(21), [0.0, 0.0, 0.0]),
    (23, "HeadLookAtTarget", Some(0), [0.0, 0.6, -1.0]),
    (24, "node_24", Some(21), [0.0, 0.0, 0.0]),
    (25, "Shoulder_R", Some(18), [0.05, 0.38, 0.0]),
    (26, "Arm_R", Some(25), [0.13, 0.0, 0.0]),
    (27, "node_27", Some(0), [0.0, 0.0, 0.0]),
    (28, "node_28", Some(26), [0.0, 0.0, 0.0]),
    (29, "HandIKTarget_R", Some(0), [0.71, 0.48, 0.0]),
    (30, "Hand_R", Some(26), [0.53, 0.0, 0.0]),
    (31, "Shoulder_L", Some(18), [-0.05, 0.38, 0.0]),
    (32, "Arm_L", Some(31), [-0.13, 0.0, 0.0]),
    (33, "node_33", Some(0), [0.0, 0.0, 0.0]),
    (35, "HandIKTarget_L", Some(0), [-0.71, 0.48, 0.0]),
    (36, "Hand_L", Some(32), [-0.53, 0.0, 0.0]),
];

/// `C`: (x, y, z) → (x, −z, y), written as rows.
fn c_matrix() -> Mat4 {
    Mat4::from_cols_array(&[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])
        .transpose()
}

fn key(frame: u16, values: KeyValues) -> KeySpec {
    KeySpec { frame, values }
}

fn ch(channel: Channel, keys: Vec<KeySpec>) -> ChannelSpec {
    ChannelSpec { channel, keys }
}

/// Three keys, a slope in the middle: every frame a different value.
fn curve(channel: Channel, a: f32, b: f32, last: u16) -> ChannelSpec {
    use KeyValues::*;
    ch(channel, vec![key(0, Value(a)), key(last / 2, Slope { tangent: 0.9, value: b }), key(last, Value(a - b * 0.5))])
}

/// A sequence exercising every path: root with all six channels, three-axis rotations down
/// moving chains, a partial rotation (Foot_R without ry), an IK target, a partial
/// translation (HeadLookAtTarget py only), and node 40 that the rig does not list.
fn rich_sequence() -> SequenceSpec {
    let last = 11;
    let node = |node: u8, channels: Vec<ChannelSpec>| NodeSpec { node, channels };
    SequenceSpec {
        frames: last + 1,
        kind_word: 0,
        nodes: vec![
            node(
                0,
                vec![
                    curve(Channel::Px, 0.05, -0.1, last),
                    curve(Channel::Py, 1.1, 1.2, last),
                    curve(Channel::Pz, -0.04, -0.6, last),
                    curve(Channel::Rx, 0.1, -0.2, last),
                    curve(Channel::Ry, 0.7, 1.3, last),
                    curve(Channel::Rz, -0.15, 0.25, last),
                ],
            ),
            node(
                1,
                vec![
                    curve(Channel::Rx, 0.2, 0.4, last),
                    curve(Channel::Ry, -0.3, 0.1, last),
                    curve(Channel::Rz, 0.05, -0.35, last),
                ],
            ),
            node(
                5,
                vec![
                    curve(Channel::Rx, 0.6, -0.5, last),
                    curve(Channel::Ry, 0.2, 0.3, last),
                    curve(Channel::Rz, -0.4, 0.15, last),
                ],
            ),
            node(
                8,
                vec![
                    curve(Channel::Px, 0.12, 0.08, last),
                    curve(Channel::Py, -1.0, -0.8, last),
                    curve(Channel::Pz, 0.1, -0.3, last),
                ],
            ),
            node(9, vec![curve(Channel::Rx, 0.3, -0.6, last), curve(Channel::Rz, 0.5, 0.2, last)]),
            node(23, vec![curve(Channel::Py, 0.55, 0.7, last)]),
            node(
                26,
                vec![
                    curve(Channel::Rx, -0.8, 0.9, last),
                    curve(Channel::Ry, 1.1, -0.4, last),
                    curve(Channel::Rz, 0.3, 0.6, last),
                ],
            ),
            node(30, vec![curve(Channel::Ry, 0.45, -0.25, last)]),
            node(40, vec![curve(Channel::Px, 0.3, 0.2, last), curve(Channel::Rx, 0.35, -0.45, last)]),
        ],
    }
}

fn rich_file() -> Vec<u8> {
    let seq = write::encode_sequence(&rich_sequence()).expect("encodes");
    write::encode_file(&[("POSE_TEST".to_string(), seq)], None)
}

fn decode(data: &[u8], seq: &str, euler: Option<&str>) -> Result<Clip, animscope::error::ParseError> {
    let mut opts = DecodeOptions::default();
    if let Some(o) = euler {
        opts.extra.insert("euler_order".into(), o.into());
    }
    crate::support::decode_key(&formats::motn::Motn, data, &format!("seq:{seq}"), &opts, &Limits::default())
}

fn sample(clip: &Clip, track: &str, f: usize) -> Option<f32> {
    clip.track(track).map(|t| t.samples[f] as f32)
}

/// Model-space world matrices per bone name at frame `f`, built by hand: local =
/// T(translation or rest offset) · R(Euler), world = parent · local. `order` lists the axes
/// in application order; bones not in `RIG` hang under Root at zero offset.
fn expected_world(clip: &Clip, f: usize, order: &str, extra: &[&str]) -> Vec<(String, Mat4)> {
    let mut out: Vec<(String, Mat4)> = Vec::new();
    let rows: Vec<(&str, Option<&str>, [f32; 3])> = RIG
        .iter()
        .map(|(_, name, parent, off)| {
            let p = parent.map(|p| RIG.iter().find(|r| r.0 == p).unwrap().1);
            (*name, p, *off)
        })
        .chain(extra.iter().map(|n| (*n, Some("Root"), [0.0; 3])))
        .collect();
    for (name, parent, off) in rows {
        let t = Vec3::new(
            sample(clip, &format!("{name}.px"), f).unwrap_or(off[0]),
            sample(clip, &format!("{name}.py"), f).unwrap_or(off[1]),
            sample(clip, &format!("{name}.pz"), f).unwrap_or(off[2]),
        );
        let angle = |axis: char| sample(clip, &format!("{name}.r{axis}"), f).unwrap_or(0.0);
        let mut r = Mat4::IDENTITY;
        for axis in order.chars() {
            let m = match axis {
                'x' => Mat4::from_rotation_x(angle('x')),
                'y' => Mat4::from_rotation_y(angle('y')),
                _ => Mat4::from_rotation_z(angle('z')),
            };
            r = m * r; // later axes are applied after (left of) earlier ones
        }
        let local = Mat4::from_translation(t) * r;
        let world = match parent {
            None => local,
            Some(p) => out.iter().find(|(n, _)| n == p).unwrap().1 * local,
        };
        out.push((name.to_string(), world));
    }
    out
}

fn max_abs(a: &Mat4, b: &Mat4) -> f32 {
    a.to_cols_array().iter().zip(b.to_cols_array()).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// Compare the clip's poses and its exported JSON with the hand-built matrices.
fn check_against_hand_built(clip: &Clip, order: &str, extra: &[&str]) {
    let poses = clip.poses.as_ref().expect("human-rig sequences are posed");
    assert_eq!(poses.space, Space::FormatModel);
    assert_eq!(poses.source, "motn sequence");
    assert_eq!(poses.skeleton, "builtin motn");
    assert_eq!(poses.frames.len(), clip.frame_count);
    assert_eq!(poses.bones.len(), RIG.len() + extra.len());
    let (bp, _) = to_blender(poses, None).expect("converts");
    let json = matrix_json(clip, &bp, "test.mot").expect("json");
    assert_eq!(json["fps"], 30.0);
    assert_eq!(json["frames"].as_array().unwrap().len(), clip.frame_count);
    let c = c_matrix();
    let mut worst = 0f32;
    for f in 0..clip.frame_count {
        for (name, world) in expected_world(clip, f, order, extra) {
            let i = poses.bones.iter().position(|b| *b == name).unwrap_or_else(|| panic!("bone {name}"));
            let got = poses.frames[f][i];
            let e = max_abs(&got, &world);
            assert!(e <= 1e-5, "frame {f} {name}: pose off by {e}\n{got}\n{world}");
            // exported: C · world · C⁻¹ (built-in skeleton), row-major with column vectors
            let blender = c * world * c.inverse();
            let rows = json["frames"][f]["bones"][&name].as_array().unwrap_or_else(|| panic!("json {name}"));
            assert_eq!(rows.len(), 16);
            for r in 0..4 {
                for col in 0..4 {
                    let v = rows[r * 4 + col].as_f64().unwrap() as f32;
                    let want = blender.row(r)[col];
                    let e = (v - want).abs();
                    worst = worst.max(e);
                    assert!(e <= 1e-5, "frame {f} {name} row {r} col {col}: {v} vs {want}");
                }
            }
        }
    }
    assert!(worst <= 1e-5);
}

#[test]
fn rich_sequence_poses_match_hand_built_matrices_in_both_orders() {
    let data = rich_file();
    let clip = decode(&data, "POSE_TEST", None).expect("decodes");
    check_against_hand_built(&clip, "xyz", &["node_40"]);
    let zyx = decode(&data, "POSE_TEST", Some("ZYX")).expect("decodes");
    check_against_hand_built(&zyx, "zyx", &["node_40"]);
    let yxz = decode(&data, "POSE_TEST", Some("yxz")).expect("decodes");
    check_against_hand_built(&yxz, "yxz", &["node_40"]);
    // the order matters for this data, so the comparison can fail
    let a = &clip.poses.as_ref().unwrap().frames[5];
    let b = &zyx.poses.as_ref().unwrap().frames[5];
    assert!(a.iter().zip(b).map(|(x, y)| max_abs(x, y)).fold(0.0, f32::max) > 1e-2);
    // notes say which conventions are open
    let notes = clip.notes.join("\n");
    assert!(notes.contains("Euler order xyz") && notes.contains("bind-relative is open"), "{notes}");
    assert!(zyx.notes.join("\n").contains("Euler order zyx"));
}

/// Rotations are turns (docs/formats/motn.md#conventions): a root `ry` that turns by 0.5 over the sequence
/// decodes to π radians and the exported matrix (through the `export` command) is a 180°
/// turn about Blender's up axis: the rotated basis vectors are checked directly, not
/// against matrices built by the same code.
#[test]
fn half_turn_root_ry_exports_a_180_degree_rotation() {
    use KeyValues::*;
    let spec = SequenceSpec {
        frames: 11,
        kind_word: 0,
        nodes: vec![NodeSpec { node: 0, channels: vec![ch(Channel::Ry, vec![key(0, Zero), key(10, Value(0.5))])] }],
    };
    let data = write::encode_file(&[("TURN180".into(), write::encode_sequence(&spec).expect("encodes"))], None);
    let clip = decode(&data, "TURN180", None).expect("decodes");
    let ry = clip.track("Root.ry").expect("ry");
    assert_eq!(ry.samples[10], std::f64::consts::PI);
    let d = tempfile::tempdir().unwrap();
    let (input, out) = (d.path().join("turn.mot"), d.path().join("turn.json"));
    std::fs::write(&input, &data).unwrap();
    let o = bin().arg("export").arg(&input).args(["--seq", "TURN180", "-o"]).arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let m = |f: usize| -> Vec<f64> {
        j["frames"][f]["bones"]["Root"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
    };
    // row-major, column vectors: column c is the image of basis vector c
    let image = |m: &[f64], c: usize| [m[c], m[4 + c], m[8 + c]];
    let near = |a: [f64; 3], b: [f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
    let end = m(10);
    // 180° about Blender Z (model Y up): X → −X, Y → −Y, Z stays
    assert!(near(image(&end, 0), [-1.0, 0.0, 0.0]), "{end:?}");
    assert!(near(image(&end, 1), [0.0, -1.0, 0.0]), "{end:?}");
    assert!(near(image(&end, 2), [0.0, 0.0, 1.0]), "{end:?}");
    // the root stays at its rest offset: model (0, 1.1, 0) → Blender (0, 0, 1.1)
    assert!(near(image(&end, 3), [0.0, 0.0, 1.1]), "{end:?}");
    // halfway (0.25 turn): model X turns to model −Z, which is Blender +Y
    let mid = m(5);
    assert!(near(image(&mid, 0), [0.0, 1.0, 0.0]), "{mid:?}");
    // frame 0: no turn
    assert!(near(image(&m(0), 0), [1.0, 0.0, 0.0]));
}

#[test]
fn rest_is_the_accumulated_nominal_offsets_and_builtin_skeleton_matches() {
    let clip = decode(&rich_file(), "POSE_TEST", None).unwrap();
    let poses = clip.poses.as_ref().unwrap();
    // Foot_R at rest: Root (0, 1.1, 0) + Hip 0 + UpperLeg_R (0.1, -0.05, 0) + (0, -0.9, 0)
    let foot = poses.bones.iter().position(|b| b == "Foot_R").unwrap();
    assert!(poses.rest[foot].abs_diff_eq(Mat4::from_translation(Vec3::new(0.1, 0.15, 0.0)), 1e-6));
    let hand = poses.bones.iter().position(|b| b == "Hand_L").unwrap();
    // Root 1.1 + Torso 0.1 + Shoulder_L (-0.05, 0.38) + Arm_L -0.13 + Hand_L -0.53
    assert!(poses.rest[hand].abs_diff_eq(Mat4::from_translation(Vec3::new(-0.71, 1.58, 0.0)), 1e-6));
    let b = formats::by_id("motn").unwrap().builtin_skeleton().expect("motn has a built-in skeleton");
    assert_eq!(b.name, "builtin motn");
    assert!(b.conversion.abs_diff_eq(c_matrix(), 0.0));
    assert!(b.conversion_note.contains("nominal"));
    assert_eq!(b.skeleton.bones.len(), RIG.len());
    for (bone, (_, name, parent, _)) in b.skeleton.bones.iter().zip(RIG) {
        assert_eq!(bone.name, name);
        let pname = bone.parent.map(|p| b.skeleton.bones[p].name.clone());
        let want = parent.map(|p| RIG.iter().find(|r| r.0 == p).unwrap().1.to_string());
        assert_eq!(pname, want, "{name}");
        let i = poses.bones.iter().position(|x| *x == name).unwrap();
        assert!(bone.rest.abs_diff_eq(poses.rest[i], 1e-6), "{name}");
    }
}

#[test]
fn walk_fixture_poses_match_and_root_moves() {
    let data = std::fs::read("fixtures/motn/multi.mot").unwrap();
    let clip = decode(&data, "A_WALK_L_02", None).unwrap();
    check_against_hand_built(&clip, "xyz", &[]);
    // Root at the last frame, from the writer's inputs: y 1.11, z -0.04 - 1.2·36/30, both as
    // f16; in Blender (x, -z, y).
    let (bp, _) = to_blender(clip.poses.as_ref().unwrap(), None).unwrap();
    let root = bp.bones.iter().position(|b| b == "Root").unwrap();
    let t = bp.frames[36][root].w_axis;
    let y = f32::from(half::f16::from_f32(1.11));
    let z = f32::from(half::f16::from_f32(-0.04 - 1.2 * 36.0 / 30.0));
    assert!(t.abs_diff_eq(Vec4::new(0.0, -z, y, 1.0), 1e-6), "{t}");
}

#[test]
fn other_rigs_are_not_posed_and_bad_orders_are_errors() {
    let data = std::fs::read("fixtures/motn/multi.mot").unwrap();
    let yag = decode(&data, "YAG_LOW_BITS", None).unwrap();
    assert!(yag.poses.is_none());
    assert!(yag.notes.iter().any(|n| n.contains("no poses") && n.contains("0x0011")), "{:?}", yag.notes);
    for bad in ["xy", "xxz", "abc", "xyzw"] {
        let e = decode(&data, "A_WALK_L_02", Some(bad)).expect_err(bad);
        assert!(e.to_string().contains("euler_order"), "{e}");
    }
    // the kind-0x0D rig (YKI_*) is the human one
    assert!(decode(&data, "YKI_WALK", None).unwrap().poses.is_some());
}

fn bin() -> Command {
    Command::cargo_bin("animscope").unwrap()
}

#[test]
fn export_cli_writes_finite_frames_and_a_matching_skeleton() {
    let d = tempfile::tempdir().unwrap();
    let (out, skel) = (d.path().join("walk.json"), d.path().join("walk.skel.json"));
    let o = bin()
        .args(["export", "fixtures/motn/multi.mot", "--seq", "A_WALK_L_02", "-o"])
        .arg(&out)
        .arg("--skeleton-out")
        .arg(&skel)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(j["schema"], "sc6-armature-matrices-v1");
    assert_eq!(j["source"], "motn sequence");
    assert_eq!(j["skeleton"], "builtin motn");
    assert_eq!(j["fps"], 30.0);
    assert!(j["conversion"].as_str().unwrap().contains("(x, y, z) -> (x, -z, y)"));
    let frames = j["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 37, "n = 37: frames 0..36");
    let names: Vec<&String> = frames[0]["bones"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), RIG.len());
    for (i, fr) in frames.iter().enumerate() {
        assert_eq!(fr["frame"], i);
        let bones = fr["bones"].as_object().unwrap();
        assert_eq!(bones.keys().collect::<Vec<_>>(), names, "frame {i}: same bones");
        for (n, m) in bones {
            let m = m.as_array().unwrap();
            assert_eq!(m.len(), 16);
            assert!(m.iter().all(|v| v.as_f64().is_some_and(f64::is_finite)), "frame {i} {n}");
        }
    }
    let s = SkeletonFile::parse(&std::fs::read_to_string(&skel).unwrap()).expect("valid skeleton file");
    assert_eq!(s.bones.len(), RIG.len());
    assert!(s.conversion.abs_diff_eq(c_matrix(), 0.0));
    // refuses to overwrite without --force
    let o = bin().args(["export", "fixtures/motn/multi.mot", "--seq", "A_WALK_L_02", "-o"]).arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    // retargeting onto the built-in skeleton file changes nothing
    let builtin = d.path().join("builtin.json");
    let o = bin().args(["skeleton", "--builtin", "motn", "-o"]).arg(&builtin).output().unwrap();
    assert!(o.status.success());
    let o = bin()
        .args(["export", "fixtures/motn/multi.mot", "--seq", "A_WALK_L_02", "-o", "-", "--skeleton"])
        .arg(&builtin)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let k: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for (a, b) in frames.iter().zip(k["frames"].as_array().unwrap()) {
        for (name, m) in a["bones"].as_object().unwrap() {
            let n = b["bones"][name].as_array().unwrap();
            for (x, y) in m.as_array().unwrap().iter().zip(n) {
                assert!((x.as_f64().unwrap() - y.as_f64().unwrap()).abs() < 1e-6, "{name}");
            }
        }
    }
}

#[test]
fn skeleton_builtin_motn_prints_a_valid_skeleton_file() {
    let o = bin().args(["skeleton", "--builtin", "motn", "-o", "-"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = SkeletonFile::parse(&String::from_utf8(o.stdout).unwrap()).expect("valid skeleton file");
    assert_eq!(s.name, "builtin motn");
    assert_eq!(s.bones.len(), RIG.len());
    let c = c_matrix();
    for (b, (_, name, parent, _)) in s.bones.iter().zip(RIG) {
        assert_eq!(b.name, name);
        assert_eq!(b.parent.as_deref(), parent.map(|p| RIG.iter().find(|r| r.0 == p).unwrap().1));
    }
    // rest in Blender space: Root at model (0, 1.1, 0) → (0, 0, 1.1); HeadLookAtTarget at
    // model (0, 1.7, -1.0) → (0, 1.0, 1.7)
    let at = |n: &str| s.bones.iter().find(|b| b.name == n).unwrap().rest.w_axis;
    assert!(at("Root").abs_diff_eq(Vec4::new(0.0, 0.0, 1.1, 1.0), 1e-6));
    assert!(at("HeadLookAtTarget").abs_diff_eq(Vec4::new(0.0, 1.0, 1.7, 1.0), 1e-6));
    assert!(s.conversion.abs_diff_eq(c, 0.0));
}

fn plot(args: &[&str]) -> (i32, String, String) {
    let o = bin().arg("plot").args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn plot_node_selects_the_channel_of_a_node_id() {
    let f = "fixtures/motn/multi.mot";
    // node 5 = UpperLeg_R; its rx keys are ±0.4 stored as f16 0.39990234375
    let (code, out, err) = plot(&[f, "--seq", "A_WALK_L_02", "--node", "5", "--channel", "rx", "--width", "40"]);
    assert_eq!(code, 0, "{err}");
    // in radians: × 2π (rotations are stored in turns)
    assert!(out.starts_with("UpperLeg_R.rx [rad] frames 0..36 @30 Hz  min -2.51 max 2.51"), "{out}");
    let (code, out, _) = plot(&[f, "--seq", "A_WALK_L_02", "--node", "12", "--channel", "rx", "--channel", "rz"]);
    assert_eq!(code, 0);
    assert!(out.contains("UpperLeg_L.rx [rad]") && out.contains("UpperLeg_L.rz [rad]"), "{out}");
    // a node the rig does not name: node_N
    let (code, out, _) = plot(&[f, "--seq", "YAG_LOW_BITS", "--node", "37", "--channel", "ry"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("node_37.ry [rad] frames 0..7"), "{out}");
    // errors name the node and its channels
    let (code, _, err) = plot(&[f, "--seq", "A_WALK_L_02", "--node", "5", "--channel", "px"]);
    assert_eq!(code, 2);
    assert!(err.contains("node 5 (UpperLeg_R) has no channel px; its channels: rx, ry, rz"), "{err}");
    let (code, _, err) = plot(&[f, "--seq", "A_WALK_L_02", "--node", "7", "--channel", "rx"]);
    assert_eq!(code, 2);
    assert!(err.contains("node 7 (node_7)"), "{err}");
    // without --node, --channel still takes whole track names
    let (code, out, _) = plot(&[f, "--seq", "A_WALK_L_02", "--channel", "Root.pz"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Root.pz [units]"), "{out}");
    let (code, _, _) = plot(&[f, "--seq", "A_WALK_L_02", "--channel", "rx"]);
    assert_eq!(code, 2);
}
