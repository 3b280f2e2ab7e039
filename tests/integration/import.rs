//! Clip import (`animscope import`): export → import round trips and edits, through a
//! gzip archive. Inputs are the committed fixtures (made by the project's writers) or
//! archives built here with the gzip-archive writer; expected values come from the specs
//! (docs/formats/*.md) and the original files, never from what `import` wrote.

use crate::support::animscope;
use crate::support::{fixture_file as fixture, on_disk};
use animscope::formats::gzarc::write::archive;
use glam::{Mat4, Quat, Vec3};
use serde_json::Value as Json;
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// `export FILE [NODE] --clip|--seq NAME -o OUT` as matrix JSON, parsed.
fn export(args: &[&str], out: &Path) -> Json {
    let mut a = vec!["export"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["-o", s(out)]);
    let (code, o, e) = animscope(&a);
    assert_eq!(code, 0, "{o}{e}");
    serde_json::from_slice(&std::fs::read(out).expect("the export")).expect("JSON")
}

/// `decode … --json`, parsed.
fn decode(args: &[&str]) -> Json {
    let mut a = vec!["decode"];
    a.extend_from_slice(args);
    a.push("--json");
    let (code, o, e) = animscope(&a);
    assert_eq!(code, 0, "{e}");
    serde_json::from_str(&o).expect("decode JSON")
}

/// The samples of every track, by name.
pub(crate) fn samples(clip: &Json) -> Vec<(String, Vec<f64>)> {
    clip["tracks"]
        .as_array()
        .expect("tracks")
        .iter()
        .map(|t| {
            let v = t["samples"].as_array().expect("samples").iter().map(|x| x.as_f64().expect("a number")).collect();
            (t["name"].as_str().expect("a name").to_string(), v)
        })
        .collect()
}

/// The word table's cell of keyframe `key`, column `col` (its header).
fn word(clip: &Json, key: usize, col: &str) -> i64 {
    let t = clip["tables"].as_array().expect("tables").iter().find(|t| t["name"] == "decoded words per keyframe");
    let t = t.expect("the word table");
    let c = t["columns"].as_array().expect("columns").iter().position(|c| c == col).expect("the column");
    t["rows"][key][c].as_str().expect("a cell").parse().expect("a word")
}

/// A matrix of the JSON (16 numbers, row-major, column vectors).
fn mat(v: &Json) -> Mat4 {
    let a: Vec<f32> = v.as_array().expect("16 numbers").iter().map(|x| x.as_f64().expect("a number") as f32).collect();
    Mat4::from_cols_array(&a.try_into().expect("16")).transpose()
}

fn rows(m: Mat4) -> Json {
    Json::from(m.transpose().to_cols_array().iter().map(|v| f64::from(*v)).collect::<Vec<f64>>())
}

/// The conversion the SC6 and MOTN exports use (docs/GUIDE.md, sc6-mot.md/motn.md export
/// skeleton): Y up to Blender's Z up, `(x, y, z) → (x, −z, y)`.
fn c() -> Mat4 {
    Mat4::from_cols_array(&[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])
}

/// The sc6 fixture with every default-stream selector present, unchanged by an export →
/// import round trip: same decoded words and samples, and (same encoder, same words) the
/// same bytes. The input is never changed.
#[test]
fn sc6_round_trip_without_edit_keeps_the_clip() {
    let input = fixture("sc6/stream_default_full.mot");
    let (d, path) = on_disk("full.mot", &input);
    let json = d.path().join("e.json");
    export(&[s(&path), "--clip", "0"], &json);
    let out = d.path().join("out.mot");
    let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("imported 3 frames"), "{o}");
    // every written channel and bone is reported on stderr
    assert!(e.contains("channel MUNE1: 3 keys") && e.contains("bone ATAMA: largest deviation"), "{e}");
    assert_eq!(std::fs::read(&path).expect("the input"), input, "the input is unchanged");
    let a = decode(&[s(&path), "--clip", "0"]);
    let b = decode(&[s(&out), "--clip", "0"]);
    assert_eq!(samples(&a), samples(&b));
    assert_eq!(a["tables"], b["tables"], "the same words");
    assert_eq!(std::fs::read(&out).expect("the output"), input);
}

/// Every sc6 fixture with poses, half/quarter rate, f32 roots, base turns and extreme words
/// included: the round trip decodes to the same samples (a quaternion may come back
/// negated: the same rotation).
#[test]
fn sc6_round_trips_of_every_posed_fixture_decode_the_same() {
    let names = [
        "aliases",
        "fixture_a",
        "fixture_b",
        "flags_extra",
        "flags_f32",
        "flags_f32_root16000",
        "flags_half",
        "flags_half_extra",
        "flags_half_f32",
        "flags_none",
        "flags_quarter",
        "flags_quarter_extra",
        "flags_root16000",
        "unknown_bits",
        "wrap_extremes",
    ];
    let d = tempfile::tempdir().expect("a temp dir");
    for n in names {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("fixtures/sc6/{n}.mot"));
        let json = d.path().join(format!("{n}.json"));
        export(&[s(&path), "--clip", "0"], &json);
        let out = d.path().join(format!("{n}.mot"));
        let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&json), "-o", s(&out)]);
        assert_eq!(code, 0, "{n}: {o}{e}");
        let (a, b) = (samples(&decode(&[s(&path), "--clip", "0"])), samples(&decode(&[s(&out), "--clip", "0"])));
        assert_eq!(a.len(), b.len(), "{n}");
        for ((name, x), (_, y)) in a.iter().zip(&b) {
            let same = x.iter().zip(y).all(|(p, q)| (p - q).abs() <= 1e-9);
            // q and −q are one rotation: the whole quaternion flips, not one component
            let flipped =
                name.ends_with(".qx") || name.ends_with(".qy") || name.ends_with(".qz") || name.ends_with(".qw");
            assert!(same || flipped && x.iter().zip(y).all(|(p, q)| (p + q).abs() <= 1e-9), "{n} {name}: {x:?} {y:?}");
        }
    }
}

/// An edit in the JSON appears in the re-decoded clip. ATAMA (transform 5, a leaf: no
/// transform has it as parent, sc6-mot.md export skeleton) is turned to a quarter turn
/// about its local +X at frame 1. By sc6-mot.md's 0x02 rule (angle, azimuth, elevation as
/// i16 turns × 65536; axis = (cos az·cos el, sin el, −sin az·cos el)) that is the words
/// (16384, 0, 0), and the quaternion (sin 45°, 0, 0, cos 45°). Every other word is kept.
#[test]
fn sc6_an_edited_rotation_is_stored_as_the_spec_words() {
    let input = fixture("sc6/stream_default_full.mot");
    let (d, path) = on_disk("full.mot", &input);
    let json = d.path().join("e.json");
    let mut j = export(&[s(&path), "--clip", "0"], &json);
    // KUBI is ATAMA's parent: ATAMA's new world = KUBI's world · C · T(t) · Rx(90°) · C⁻¹,
    // with t its local translation (unchanged: local = T · R puts t in the last column)
    let bones = &j["frames"][1]["bones"];
    let (parent, old) = (mat(&bones["KUBI"]), mat(&bones["ATAMA"]));
    let local_game = c().inverse() * parent.inverse() * old * c();
    let t = local_game.w_axis.truncate();
    let new = parent
        * c()
        * Mat4::from_rotation_translation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2), t)
        * c().inverse();
    j["frames"][1]["bones"]["ATAMA"] = rows(new);
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.mot");
    let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let (a, b) = (decode(&[s(&path), "--clip", "0"]), decode(&[s(&out), "--clip", "0"]));
    let cols: Vec<String> = (0..3).map(|i| format!("w{} ATAMA[{i}]", atama_word(&a) + i)).collect();
    assert_eq!([0, 1, 2].map(|i| word(&b, 1, &cols[i])), [16384, 0, 0]);
    let (sa, sb) = (samples(&a), samples(&b));
    let h = std::f64::consts::FRAC_1_SQRT_2;
    for ((name, x), (_, y)) in sa.iter().zip(&sb) {
        match name.strip_prefix("ATAMA.") {
            Some(c) => {
                let want = match c {
                    "qx" | "qw" => h,
                    _ => 0.0,
                };
                assert!((y[1] - want).abs() < 1e-6, "{name} {y:?}");
                assert_eq!((x[0], x[2]), (y[0], y[2]), "{name}: frames 0 and 2 unchanged");
            }
            None => assert_eq!(x, y, "{name} unchanged"),
        }
    }
}

/// The first word of ATAMA's channel, from the word table's column headers.
fn atama_word(clip: &Json) -> usize {
    let t = clip["tables"].as_array().expect("tables").iter().find(|t| t["name"] == "decoded words per keyframe");
    let cols = t.expect("the word table")["columns"].as_array().expect("columns").clone();
    let c = cols.iter().find_map(|c| c.as_str().filter(|c| c.ends_with(" ATAMA[0]"))).expect("ATAMA");
    c.trim_start_matches('w').split(' ').next().expect("w").parse().expect("a number")
}

/// Import into a clip inside a sector-gzip archive: the member is re-deflated and the
/// archive's other member is kept byte for byte; the clip decodes as the import says.
#[test]
fn sc6_import_through_a_gzip_archive() {
    let bank = fixture("sc6/stream_default_full.mot");
    let other = vec![7u8; 3000];
    let input = archive(&[("chr.mot".into(), bank.clone()), ("b.bin".into(), other)]);
    let (d, path) = on_disk("DATA.BIN", &input);
    let json = d.path().join("e.json");
    let mut j = export(&[s(&path), "chr.mot", "--clip", "0"], &json);
    // a leaf turned as in the test above, at frame 2
    let bones = &j["frames"][2]["bones"];
    let (parent, old) = (mat(&bones["KUBI"]), mat(&bones["ATAMA"]));
    let t = (c().inverse() * parent.inverse() * old * c()).w_axis.truncate();
    let new = parent
        * c()
        * Mat4::from_rotation_translation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2), t)
        * c().inverse();
    j["frames"][2]["bones"]["ATAMA"] = rows(new);
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.BIN");
    let (code, o, e) = animscope(&["import", s(&path), "chr.mot/clip[0]", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert_eq!(std::fs::read(&path).expect("the input"), input, "the input is unchanged");
    let b = decode(&[s(&out), "chr.mot", "--clip", "0"]);
    let qx = samples(&b).into_iter().find(|(n, _)| n == "ATAMA.qx").expect("ATAMA.qx").1;
    assert!((qx[2] - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-6, "{qx:?}");
    let (code, o, e) = animscope(&["check", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    // the second member starts at the next sector (0x800) in both and is the same
    let got = std::fs::read(&out).expect("the output");
    assert_eq!(got[0x800..], input[0x800..]);
}

/// Bones the import has and the clip's skeleton lacks are an error naming them; nothing is
/// written.
#[test]
fn sc6_import_of_unknown_bones_is_refused_naming_them() {
    let input = fixture("sc6/stream_default_full.mot");
    let (d, path) = on_disk("full.mot", &input);
    let json = d.path().join("e.json");
    let mut j = export(&[s(&path), "--clip", "0"], &json);
    for f in j["frames"].as_array_mut().expect("frames") {
        f["bones"]["TAIL_1"] = rows(Mat4::from_translation(Vec3::ONE));
    }
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.mot");
    let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 2, "{o}{e}");
    assert!(e.contains("bones the clip's skeleton") && e.contains("TAIL_1"), "{e}");
    assert_eq!(e.trim().lines().count(), 1, "one line: {e}");
    assert!(!out.exists());
    assert_eq!(std::fs::read(&path).expect("the input"), input);
}

/// Bones the import lacks keep their stored channels: an import of only ATAMA leaves every
/// other track as it was.
#[test]
fn sc6_bones_the_import_lacks_keep_their_channels() {
    let input = fixture("sc6/stream_default_full.mot");
    let (d, path) = on_disk("full.mot", &input);
    let json = d.path().join("e.json");
    let mut j = export(&[s(&path), "--clip", "0"], &json);
    for f in j["frames"].as_array_mut().expect("frames") {
        let atama = f["bones"]["ATAMA"].clone();
        f["bones"] = serde_json::json!({ "ATAMA": atama });
    }
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.mot");
    let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(e.contains("channel ATAMA") && !e.contains("channel KUBI"), "{e}");
    assert_eq!(std::fs::read(&out).expect("the output"), input);
}

/// Bad import files: one line naming what and where, exit 2, nothing written.
#[test]
fn bad_import_files_are_refused_in_one_line() {
    let input = fixture("sc6/stream_default_full.mot");
    let (d, path) = on_disk("full.mot", &input);
    let json = d.path().join("e.json");
    let good = export(&[s(&path), "--clip", "0"], &json);
    let mut nan = good.clone();
    nan["frames"][0]["bones"]["ATAMA"][0] = Json::from("NaN");
    let mut short = good.clone();
    short["frames"].as_array_mut().expect("frames").pop();
    let mut schema = good.clone();
    schema["schema"] = Json::from("other");
    for (what, j, says) in [
        ("a string in a matrix", nan, "not matrix JSON"),
        ("a frame fewer", short, "changing a clip's length is not supported"),
        ("another schema", schema, "schema is other"),
    ] {
        std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
        let out = d.path().join("out.mot");
        let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&json), "-o", s(&out)]);
        assert_eq!(code, 2, "{what}: {o}{e}");
        assert!(e.contains(says) && e.trim().lines().count() == 1, "{what}: {e}");
        assert!(!out.exists(), "{what}");
    }
    let (code, _, e) = animscope(&["import", s(&path), "0", "--from", s(&json), "-o", s(&path)]);
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("that is the input"), "{e}");
    assert_eq!(std::fs::read(&path).expect("the input"), input);
}

/// Tracks `a` and `b` agree within MOTN's quantisation (docs/formats/motn.md#import): each
/// sample within half an f16 step of its value (relative 2⁻¹¹), plus `abs` (the f32
/// matrices the values pass through, or a fit's tolerance); rotation tracks (radians)
/// modulo whole turns, which Euler angles cannot tell apart.
fn within(name: &str, a: &[f64], b: &[f64], abs: f64) {
    let tau = std::f64::consts::TAU;
    let rotation = name.ends_with(".rx") || name.ends_with(".ry") || name.ends_with(".rz");
    assert_eq!(a.len(), b.len(), "{name}");
    for (f, (x, y)) in a.iter().zip(b).enumerate() {
        let d = if rotation { (x - y + tau / 2.0).rem_euclid(tau) - tau / 2.0 } else { x - y };
        assert!(d.abs() <= x.abs().max(y.abs()) * 2f64.powi(-11) + abs, "{name} frame {f}: {x} vs {y}");
    }
}

fn within_f16(name: &str, a: &[f64], b: &[f64]) {
    within(name, a, b, 1e-5);
}

/// Every posed sequence of the MOTN fixtures survives export → import (a key per frame)
/// within f16 quantisation; unanimated bones gain no channels.
#[test]
fn motn_round_trips_decode_within_f16() {
    let d = tempfile::tempdir().expect("a temp dir");
    for (file, seq) in [
        ("multi.mot", "A_WALK_L_02"),
        ("multi.mot", "TEST_SEQ"),
        ("multi.mot", "LONG_SEQ"),
        ("multi.mot", "YKI_WALK"),
        ("multi.mot", "WIDE_KEYS"),
        ("turn.mot", "TURN_90"),
        ("vector_a.mot", "TEST_SEQ"),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/motn").join(file);
        let json = d.path().join(format!("{file}-{seq}.json"));
        export(&[s(&path), "--seq", seq], &json);
        let out = d.path().join(format!("{file}-{seq}.mot"));
        let (code, o, e) = animscope(&["import", s(&path), seq, "--from", s(&json), "-o", s(&out)]);
        assert_eq!(code, 0, "{file} {seq}: {o}{e}");
        let (a, b) = (samples(&decode(&[s(&path), "--seq", seq])), samples(&decode(&[s(&out), "--seq", seq])));
        let names = |v: &[(String, Vec<f64>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(&a), names(&b), "{file} {seq}: the same channels");
        for ((name, x), (_, y)) in a.iter().zip(&b) {
            within_f16(&format!("{file} {seq} {name}"), x, y);
        }
        let (code, o, e) = animscope(&["check", s(&out)]);
        assert_eq!(code, 0, "{file} {seq}: {o}{e}");
    }
}

/// An edit: Hand_R (node 30, a leaf of the nominal rig: no node has it as parent,
/// motn.md's export skeleton) turned an eighth of a turn about its local X on every frame.
/// motn.md: rotations are stored in turns, so the sequence gains a channel `Hand_R.rx`
/// whose value is 0.125 turns at every frame (exact in f16: 0x3000), decoded as π/4
/// radians; `fit` needs only its first and last key (code 1, 0.125). Other tracks are kept.
#[test]
fn motn_an_edited_rotation_becomes_its_channel() {
    let input = fixture("motn/multi.mot");
    let (d, path) = on_disk("multi.mot", &input);
    let json = d.path().join("e.json");
    let mut j = export(&[s(&path), "--seq", "A_WALK_L_02"], &json);
    for f in j["frames"].as_array_mut().expect("frames") {
        let (parent, old) = (mat(&f["bones"]["Arm_R"]), mat(&f["bones"]["Hand_R"]));
        let t = (c().inverse() * parent.inverse() * old * c()).w_axis.truncate();
        let turn = Mat4::from_rotation_translation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_4), t);
        f["bones"]["Hand_R"] = rows(parent * c() * turn * c().inverse());
    }
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.mot");
    let (code, o, e) =
        animscope(&["import", s(&path), "A_WALK_L_02", "--from", s(&json), "-o", s(&out), "--keys", "fit=0.001"]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("shares its sequence with A_WALK_L_02_COPY"), "{o}");
    assert!(e.contains("channel Hand_R.rx: 2 keys"), "{e}");
    assert_eq!(std::fs::read(&path).expect("the input"), input, "the input is unchanged");
    let clip = decode(&[s(&out), "--seq", "A_WALK_L_02"]);
    let track = clip["tracks"].as_array().expect("tracks").iter().find(|t| t["name"] == "Hand_R.rx");
    let track = track.expect("a Hand_R.rx track");
    let keys: Vec<(f64, f64)> = track["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .map(|k| (k["frame"].as_f64().expect("a frame"), k["value"].as_f64().expect("a value")))
        .collect();
    let quarter_pi = std::f64::consts::FRAC_PI_4;
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert!(keys.iter().all(|(_, v)| (v - quarter_pi).abs() < 1e-9), "{keys:?}");
    assert_eq!((keys[0].0, keys[1].0), (0.0, 36.0));
    let before = samples(&decode(&[s(&path), "--seq", "A_WALK_L_02"]));
    let after = samples(&clip);
    for (name, x) in &before {
        let y = &after.iter().find(|(n, _)| n == name).expect("the track is kept").1;
        // fit=0.001 turns (translations: 0.001 model units)
        within(name, x, y, if name.contains(".r") { 0.001 * std::f64::consts::TAU } else { 0.001 } + 1e-5);
    }
}

/// A sequence shared by two names: `--unshare` gives the named one its own copy and the
/// other keeps the original, sample for sample.
#[test]
fn motn_unshare_writes_a_copy_for_one_name() {
    let input = fixture("motn/multi.mot");
    let (d, path) = on_disk("multi.mot", &input);
    let json = d.path().join("e.json");
    export(&[s(&path), "--seq", "A_WALK_L_02_COPY"], &json);
    let out = d.path().join("out.mot");
    let (code, o, e) = animscope(&[
        "import",
        s(&path),
        "A_WALK_L_02_COPY",
        "--from",
        s(&json),
        "-o",
        s(&out),
        "--unshare",
        "--keys",
        "fit=0.0005",
    ]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("written as its own copy"), "{o}");
    let (code, o, e) = animscope(&["check", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert_eq!(
        samples(&decode(&[s(&path), "--seq", "A_WALK_L_02"])),
        samples(&decode(&[s(&out), "--seq", "A_WALK_L_02"]))
    );
    let (code, tree, _) = animscope(&["tree", s(&out)]);
    assert_eq!(code, 0);
    assert!(!tree.lines().any(|l| l.contains("A_WALK_L_02_COPY") && l.contains("alias")), "{tree}");
}

/// Import into a MOTN blob inside PKS → IPAC: the IPAC and PKS tables are rewritten, the
/// other member kept; the written file checks clean and the other sequences are unchanged.
#[test]
fn motn_import_through_pks_and_ipac() {
    let input = fixture("motn/motion.pks");
    let (d, path) = on_disk("motion.pks", &input);
    let json = d.path().join("e.json");
    export(&[s(&path), "ipac/MULTI.MOTN", "--seq", "TEST_SEQ"], &json);
    let out = d.path().join("out.pks");
    let (code, o, e) = animscope(&["import", s(&path), "ipac/MULTI.MOTN/TEST_SEQ", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert_eq!(std::fs::read(&path).expect("the input"), input);
    let (code, o, e) = animscope(&["check", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let seq = |p: &Path, n: &str| samples(&decode(&[s(p), "ipac/MULTI.MOTN", "--seq", n]));
    assert_eq!(seq(&path, "A_WALK_L_02"), seq(&out, "A_WALK_L_02"));
    for ((name, x), (_, y)) in seq(&path, "TEST_SEQ").iter().zip(&seq(&out, "TEST_SEQ")) {
        within_f16(name, x, y);
    }
}

/// MOTN bones the import lacks keep their keys as stored: importing only Root leaves every
/// other track sample for sample, and unknown bones are refused by name.
#[test]
fn motn_bones_the_import_lacks_keep_their_keys() {
    let input = fixture("motn/multi.mot");
    let (d, path) = on_disk("multi.mot", &input);
    let json = d.path().join("e.json");
    let mut j = export(&[s(&path), "--seq", "A_WALK_L_02"], &json);
    let mut bad = j.clone();
    for f in j["frames"].as_array_mut().expect("frames") {
        let root = f["bones"]["Root"].clone();
        f["bones"] = serde_json::json!({ "Root": root });
    }
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.mot");
    let (code, o, e) = animscope(&["import", s(&path), "A_WALK_L_02", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let (a, b) =
        (samples(&decode(&[s(&path), "--seq", "A_WALK_L_02"])), samples(&decode(&[s(&out), "--seq", "A_WALK_L_02"])));
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        if name.starts_with("Root.") {
            within_f16(name, x, y);
        } else {
            assert_eq!(x, y, "{name} kept");
        }
    }
    for f in bad["frames"].as_array_mut().expect("frames") {
        f["bones"]["Tail"] = f["bones"]["Root"].clone();
    }
    std::fs::write(&json, serde_json::to_vec(&bad).expect("JSON")).expect("written");
    let out = d.path().join("out2.mot");
    let (code, o, e) = animscope(&["import", s(&path), "A_WALK_L_02", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 2, "{o}{e}");
    assert!(e.contains("lacks: Tail"), "{e}");
    assert!(!out.exists());
}

/// The chunks of a glb: (JSON, BIN start offset in the file).
fn glb_chunks(b: &[u8]) -> (Json, usize) {
    let len = u32::from_le_bytes(b[12..16].try_into().expect("4 bytes")) as usize;
    let json: Json = serde_json::from_slice(&b[20..20 + len]).expect("the JSON chunk");
    (json, 20 + len + 8)
}

/// glTF import: an sc6 clip exported as `.glb` comes back byte for byte, and a rotation
/// edited in the glb's animation appears as the spec's words. For SC6 the glTF conversion
/// is the identity on the game's Y-up metres (docs/GUIDE.md glTF export: `K = Y · C`, and
/// `Y · C = I`), so a joint's animated local rotation is the transform's local rotation:
/// ATAMA's at key 1 set to a quarter turn about X, (sin 45°, 0, 0, cos 45°), is stored as
/// the 0x02 words (16384, 0, 0) (sc6-mot.md, selector streams).
#[test]
fn sc6_glb_round_trip_and_edit() {
    let input = fixture("sc6/stream_default_full.mot");
    let (d, path) = on_disk("full.mot", &input);
    let glb = d.path().join("e.glb");
    let (code, o, e) = animscope(&["export", s(&path), "--clip", "0", "-o", s(&glb)]);
    assert_eq!(code, 0, "{o}{e}");
    let out = d.path().join("out.mot");
    let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&glb), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert_eq!(std::fs::read(&out).expect("the output"), input, "unchanged");
    // edit: the rotation output accessor of ATAMA's channel, key 1
    let mut bytes = std::fs::read(&glb).expect("the glb");
    let (j, bin) = glb_chunks(&bytes);
    let node = j["nodes"].as_array().expect("nodes").iter().position(|n| n["name"] == "ATAMA").expect("ATAMA");
    let anim = &j["animations"][0];
    let ch = anim["channels"]
        .as_array()
        .expect("channels")
        .iter()
        .find(|c| c["target"]["node"] == node && c["target"]["path"] == "rotation")
        .expect("ATAMA's rotation channel");
    let acc = &j["accessors"][anim["samplers"][ch["sampler"].as_u64().expect("a sampler") as usize]["output"]
        .as_u64()
        .expect("an accessor") as usize];
    let view = &j["bufferViews"][acc["bufferView"].as_u64().expect("a view") as usize];
    let at =
        bin + view["byteOffset"].as_u64().unwrap_or(0) as usize + acc["byteOffset"].as_u64().unwrap_or(0) as usize + 16; // key 1 of four floats
    let h = std::f32::consts::FRAC_1_SQRT_2;
    for (i, v) in [h, 0.0, 0.0, h].into_iter().enumerate() {
        bytes[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
    std::fs::write(&glb, &bytes).expect("written");
    let out = d.path().join("edited.mot");
    let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&glb), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let (a, b) = (decode(&[s(&path), "--clip", "0"]), decode(&[s(&out), "--clip", "0"]));
    let cols: Vec<String> = (0..3).map(|i| format!("w{} ATAMA[{i}]", atama_word(&a) + i)).collect();
    assert_eq!([0, 1, 2].map(|i| word(&b, 1, &cols[i])), [16384, 0, 0]);
    for ((name, x), (_, y)) in samples(&a).iter().zip(&samples(&b)) {
        if !name.starts_with("ATAMA.") {
            assert_eq!(x, y, "{name} unchanged");
        }
    }
    // a truncated glb: one line, nothing written
    std::fs::write(&glb, &bytes[..bytes.len() / 2]).expect("written");
    let out = d.path().join("bad.mot");
    let (code, o, e) = animscope(&["import", s(&path), "0", "--from", s(&glb), "-o", s(&out)]);
    assert_eq!(code, 2, "{o}{e}");
    assert!(e.contains("e.glb") && e.trim().lines().count() == 1, "{e}");
    assert!(!out.exists());
}

/// A MOTN sequence exported as `.glb` comes back within f16.
#[test]
fn motn_glb_round_trip() {
    let input = fixture("motn/multi.mot");
    let (d, path) = on_disk("multi.mot", &input);
    let glb = d.path().join("e.glb");
    let (code, o, e) = animscope(&["export", s(&path), "--seq", "YKI_WALK", "-o", s(&glb)]);
    assert_eq!(code, 0, "{o}{e}");
    let out = d.path().join("out.mot");
    let (code, o, e) = animscope(&["import", s(&path), "YKI_WALK", "--from", s(&glb), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let (a, b) =
        (samples(&decode(&[s(&path), "--seq", "YKI_WALK"])), samples(&decode(&[s(&out), "--seq", "YKI_WALK"])));
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        within_f16(name, x, y);
    }
}

/// The import file and what it is read into spend the memory budget: set low, the import
/// is refused in one line and nothing is written.
#[test]
fn import_spends_the_memory_budget() {
    let input = fixture("motn/multi.mot");
    let (d, path) = on_disk("multi.mot", &input);
    let json = d.path().join("e.json");
    export(&[s(&path), "--seq", "LONG_SEQ"], &json);
    let out = d.path().join("out.mot");
    let (code, o, e) =
        animscope(&["--limit", "memory=1M", "import", s(&path), "LONG_SEQ", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 2, "{o}{e}");
    assert!(e.contains("memory budget exceeded") && e.contains("--limit memory"), "{e}");
    assert_eq!(e.trim().lines().count(), 1, "{e}");
    assert!(!out.exists());
}
