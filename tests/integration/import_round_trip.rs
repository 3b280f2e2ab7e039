//! The no-edit round trip of issue #50 on every committed fixture clip of SC6, MOTN and
//! CCSF Anime chunks (gen 1 and later) and every member of the fixture archives holding them: `export` → `import` → `decode` equals
//! the original decode within the format's stated quantisation (docs/formats/sc6-mot.md,
//! motn.md and ccsf.md, Import), and `diff ORIGINAL OUT --summary` names no change but the clip's own
//! bytes and the offsets and sizes of the structures holding it.
//!
//! The clips are what the fixtures were built with (fixtures/README.md): the expected count of
//! clips per input and of clips without poses comes from there, not from the code.

use crate::import::samples;
use crate::support::animscope;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// How the decoded samples of a format must agree after the round trip.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    /// sc6-mot.md, Import: a rotation within half a word step, or a root value within half a
    /// step of its stored words, keeps them: the same words, so the same samples (a
    /// quaternion may come back negated, the same rotation).
    SameWords,
    /// motn.md, Import: each sample within half an f16 step of its value, |v| × 2⁻¹¹, plus
    /// 10⁻⁵ for the f32 matrices the values pass through; rotations modulo whole turns.
    HalfF16Step,
    /// ccsf.md, Import: an object whose local is within half a rotation key step and 10⁻⁵
    /// of its stored one at every frame keeps its controller byte for byte: the same file.
    SameBytes,
}

/// One input: the file, the member holding the clips (None: the file is the document),
/// the clips with poses and those without (fixtures/README.md), the bound, and when every
/// import of the input is refused, what the one line says.
struct Input {
    file: String,
    member: Option<&'static str>,
    posed: usize,
    unposed: usize,
    bound: Bound,
    refused: Option<&'static str>,
}

fn input(file: &str, member: Option<&'static str>, posed: usize, unposed: usize, bound: Bound) -> Input {
    Input { file: file.to_string(), member, posed, unposed, bound, refused: None }
}

/// Every SC6 and MOTN fixture holding clips, and the archive members holding them. Counts
/// from fixtures/README.md: `aliases.mot` 6 slots over 3 clips; `fixture_a.mot` 2 aliased
/// slots; `multi.mot` 10 names of which the baked variant, the node-track variant and
/// `YAG_LOW_BITS` (kind 0x0011, not the human rig) have no poses; `variants.mot` 8 names of
/// which only `A_STAND` and `YKI_STAND` are standard; `demo.bin` holds `chr001.mot` (2 clips)
/// and `motion.bin` (= `multi.mot`).
fn inputs() -> Vec<Input> {
    use Bound::*;
    let mut v: Vec<Input> = [
        ("aliases.mot", 6),
        ("fixture_a.mot", 2),
        ("fixture_b.mot", 1),
        ("flags_extra.mot", 1),
        ("flags_f32.mot", 1),
        ("flags_f32_root16000.mot", 1),
        ("flags_half.mot", 1),
        ("flags_half_extra.mot", 1),
        ("flags_half_f32.mot", 1),
        ("flags_none.mot", 1),
        ("flags_quarter.mot", 1),
        ("flags_quarter_extra.mot", 1),
        ("flags_root16000.mot", 1),
        ("stream_default_full.mot", 1),
        ("unknown_bits.mot", 1),
        ("wrap_extremes.mot", 1),
    ]
    .into_iter()
    .map(|(f, n)| input(&format!("sc6/{f}"), None, n, 0, SameWords))
    .collect();
    v.extend([
        input("motn/multi.mot", None, 7, 3, HalfF16Step),
        input("motn/turn.mot", None, 1, 0, HalfF16Step),
        input("motn/variants.mot", None, 2, 6, HalfF16Step),
        input("motn/vector_a.mot", None, 1, 0, HalfF16Step),
        input("motn/vector_b.mot", None, 1, 0, HalfF16Step),
        input("motn/multi.mot.gz", Some("MULTI.MOT"), 7, 3, HalfF16Step),
        input("motn/motion.pks", Some("ipac/MULTI.MOTN"), 7, 3, HalfF16Step),
        input("motn/motion.pkf", Some("ipac/MOTION.MOTN"), 1, 0, HalfF16Step),
        input("demo.bin", Some("chr001.mot"), 2, 0, SameWords),
        input("demo.bin", Some("motion.bin"), 7, 3, HalfF16Step),
        // gen-1 CCSF (fixtures/README.md): chara.cmp's ANM_walk, town.cmp's ANM_day and its
        // frame section (exported too, not an Anime: refused), the chara.cmp members of
        // demo.bin and gzarc/DATA.BIN
        input("ccsf/chara.cmp", None, 1, 0, SameBytes),
        input("ccsf/town.cmp", None, 2, 0, SameBytes),
        input("demo.bin", Some("chara.cmp"), 1, 0, SameBytes),
        input("gzarc/DATA.BIN", Some("chara.cmp"), 1, 0, SameBytes),
        // frame sections only: exported, refused
        input("ccsf/g125.ccs", None, 1, 0, SameBytes),
        input("ccsf/str0100.tmp", None, 1, 0, SameBytes),
        input("ccsf/str0200.tmp", None, 1, 0, SameBytes),
        input("gzarc/STR.BIN", Some("str0200.tmp"), 1, 0, SameBytes),
    ]);
    // stride.cmp: chara's scene with the 13-frame ANM_stride
    v.push(input("ccsf/stride.cmp", None, 1, 0, SameBytes));
    // later generations: one Anime each (ANM_demo, ANM_wave)
    v.extend(
        ["g115", "g115s", "g123", "g123rig", "g123s15", "g123x"]
            .map(|f| input(&format!("ccsf/{f}.ccs"), None, 1, 0, SameBytes)),
    );
    v
}

/// CCSF fixtures without animations (fixtures/README.md: models, textures, setup only).
const NO_ANIMATIONS: [&str; 12] = [
    "ccsf/g110.ccs",
    "ccsf/g111.ccs",
    "ccsf/g120.ccs",
    "ccsf/g123t.ccs",
    "ccsf/g125n.ccs",
    "ccsf/g130.ccs",
    "ccsf/g131.ccs",
    "ccsf/mini.cmp",
    "ccsf/old90.cmp",
    "ccsf/old95.cmp",
    "ccsf/particle.cmp",
    "ccsf/stripes.cmp",
];

/// Fixtures holding clips that the round trip cannot take, and why (the export refuses them:
/// there is nothing to import). `stream_alternate.mot` is posed only on the alternate stream,
/// which has no built-in skeleton; `stream_skill_check.mot` decodes only with
/// `--stream skill-check`; import writes default-stream clips (sc6-mot.md, Import).
const NOT_POSED: [(&str, &str); 2] =
    [("sc6/stream_alternate.mot", "no posed matrices"), ("sc6/stream_skill_check.mot", "default stream consumes")];

fn decode(file: &Path, member: Option<&str>, clip: &str) -> Json {
    let mut a = vec!["decode", s(file)];
    a.extend(member);
    a.extend(["--anim", clip, "--json"]);
    let (code, o, e) = animscope(&a);
    assert_eq!(code, 0, "{a:?}: {e}");
    serde_json::from_str(&o).expect("decode JSON")
}

/// `a` and `b` (one clip decoded from the original and the output) agree within `bound`.
fn agree(what: &str, bound: Bound, a: &Json, b: &Json) {
    let (sa, sb) = (samples(a), samples(b));
    let names = |v: &[(String, Vec<f64>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&sa), names(&sb), "{what}: the same channels");
    assert!(!sa.is_empty(), "{what}: a clip with channels");
    match bound {
        Bound::SameBytes => assert_eq!(a, b, "{what}: the same decode"),
        Bound::SameWords => {
            assert_eq!(a["tables"], b["tables"], "{what}: the same decoded words");
            for ((name, x), (_, y)) in sa.iter().zip(&sb) {
                let quat = [".qx", ".qy", ".qz", ".qw"].iter().any(|q| name.ends_with(q));
                let same = x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p == q);
                let negated = quat && x.len() == y.len() && x.iter().zip(y).all(|(p, q)| *p == -*q);
                assert!(same || negated, "{what} {name}: {x:?} vs {y:?}");
            }
        }
        Bound::HalfF16Step => {
            let tau = std::f64::consts::TAU;
            for ((name, x), (_, y)) in sa.iter().zip(&sb) {
                let rotation = name.ends_with(".rx") || name.ends_with(".ry") || name.ends_with(".rz");
                assert_eq!(x.len(), y.len(), "{what} {name}: frames");
                for (f, (p, q)) in x.iter().zip(y).enumerate() {
                    let d = if rotation { (p - q + tau / 2.0).rem_euclid(tau) - tau / 2.0 } else { p - q };
                    let bound = p.abs().max(q.abs()) * 2f64.powi(-11) + 1e-5;
                    assert!(d.abs() <= bound, "{what} {name} frame {f}: {p} vs {q} (bound {bound})");
                }
            }
        }
    }
}

/// Kinds of the structures that hold a clip and record its offset or size: what the
/// rebuild rewrites when the clip's length changes (MOTN file size and sequence table, the
/// SC6 slot offsets, IPAC tables, a gzip member's deflate stream).
const HOLDERS: [&str; 6] = ["file header", "sequence table", "offset table", "IPAC", "gzip member", "PKS header"];

/// `diff ORIGINAL OUT --summary --json` names no change but the clip's own unit (named as
/// `clip[N]`/`seq[NAME]` or as one of its aliases; no channel gained or lost, the same frame
/// count) and byte changes of the structures holding it.
fn diff_names_only_the_clip(what: &str, original: &Path, out: &Path, key: &str) {
    let (code, o, e) = animscope(&["diff", s(original), s(out), "--summary", "--json"]);
    assert!(code == 0 || code == 1, "{what}: {e}");
    let mut clip_units = 0;
    for line in o.lines() {
        let u: Json = serde_json::from_str(line).expect("a JSON line");
        if u.get("summary").is_some() {
            continue;
        }
        let unit = u["unit"].as_str().expect("a unit");
        let kind = u["kind"].as_str().expect("a kind");
        let aliases: Vec<&str> = u["aliases"].as_array().expect("aliases").iter().filter_map(Json::as_str).collect();
        if unit.ends_with(&format!("/{key}")) || aliases.contains(&key) {
            clip_units += 1;
            if let Some(anim) = u.get("anim") {
                assert_eq!(anim["channels_only_in_a"], 0, "{what}: {line}");
                assert_eq!(anim["channels_only_in_b"], 0, "{what}: {line}");
                assert_eq!(anim["frames"][0], anim["frames"][1], "{what}: {line}");
            }
            continue;
        }
        let by: Vec<&String> = u["by_change"].as_object().expect("by_change").keys().collect();
        assert!(
            HOLDERS.contains(&kind) && by.iter().all(|k| *k == "bytes"),
            "{what}: a change outside the clip and its holders: {line}"
        );
    }
    assert!(clip_units <= 1, "{what}: {o}");
}

/// The clip's key in the document tree: `clip[N]` for SC6, `seq[NAME]` for MOTN.
fn tree_key(bound: Bound, name: &str) -> String {
    match bound {
        Bound::SameWords => format!("clip[{name}]"),
        Bound::HalfF16Step => format!("seq[{name}]"),
        Bound::SameBytes => format!("Anime[{name}]"),
    }
}

/// Every clip of every input: export (matrix JSON, `--all`), import with no edit, decode and
/// diff. About 200 runs of the binary: ignored (CI runs it with `--ignored`).
#[test]
#[ignore = "about 200 runs of the binary, several seconds"]
fn every_fixture_clip_round_trips_without_edit() {
    let all = inputs();
    // every committed sc6 and motn fixture that is not a hostile one (x_…) is covered
    for dir in ["sc6", "motn", "ccsf"] {
        for e in std::fs::read_dir(fixtures().join(dir)).expect("the fixture folder") {
            let name = e.expect("an entry").file_name().to_string_lossy().into_owned();
            let rel = format!("{dir}/{name}");
            // hostile ones (x_…) and the frame file pairs' setup halves (no frame section)
            if name.starts_with("x_") || rel.ends_with("e.tmp") {
                continue;
            }
            assert!(
                all.iter().any(|i| i.file == rel)
                    || NOT_POSED.iter().any(|(f, _)| *f == rel)
                    || NO_ANIMATIONS.contains(&rel.as_str()),
                "{rel}: a fixture the round trip does not list"
            );
        }
    }
    let d = tempfile::tempdir().expect("a temp dir");
    for (file, says) in NOT_POSED {
        let (code, o, e) =
            animscope(&["export", s(&fixtures().join(file)), "--clip", "0", "-o", s(&d.path().join("x.json"))]);
        assert_eq!(code, 2, "{file}: {o}{e}");
        assert!(e.contains(says), "{file}: {e}");
    }
    let (mut clips, mut refused) = (0, 0);
    for (n, inp) in all.iter().enumerate() {
        let original = fixtures().join(&inp.file);
        let before = std::fs::read(&original).expect("the fixture");
        let dir = d.path().join(format!("in{n}"));
        std::fs::create_dir(&dir).expect("a folder");
        let mut a = vec!["export", s(&original)];
        a.extend(inp.member);
        a.extend(["--all", "-o", s(&dir)]);
        let (code, o, e) = animscope(&a);
        assert_eq!(code, 0, "{a:?}: {o}{e}");
        let what = format!("{} {}", inp.file, inp.member.unwrap_or(""));
        let summary = format!("exported {} of {} animations", inp.posed, inp.posed + inp.unposed);
        assert!(e.contains(&summary), "{what}: {e}");
        let mut jsons: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("the export folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        jsons.sort();
        assert_eq!(jsons.len(), inp.posed, "{what}");
        for json in jsons {
            let name = json.file_stem().expect("a stem").to_string_lossy().into_owned();
            let what = format!("{what} {name}");
            let out = dir.join(format!("{name}.out"));
            let source =
                serde_json::from_slice::<Json>(&std::fs::read(&json).expect("the export")).expect("JSON")["source"]
                    .clone();
            // a frame section is addressed by its Frame chunk
            let frames = source == "ccsf frame section";
            let leaf = if frames { "Frame" } else { name.as_str() };
            let clip = match inp.member {
                Some(m) => format!("{m}/{leaf}"),
                None => leaf.to_string(),
            };
            let (code, o, e) = animscope(&["import", s(&original), &clip, "--from", s(&json), "-o", s(&out)]);
            let says = if frames { Some("the frame section is not an Anime") } else { inp.refused };
            if let Some(says) = says {
                // one line, exit 2, nothing written
                assert_eq!(code, 2, "{what}: {o}{e}");
                assert_eq!(e.trim().lines().count(), 1, "{what}: {e}");
                assert!(e.contains(says), "{what}: {e}");
                assert!(!out.exists(), "{what}");
                refused += 1;
                continue;
            }
            assert_eq!(code, 0, "{what}: {o}{e}");
            if inp.bound == Bound::SameBytes && inp.member.is_none() {
                assert_eq!(std::fs::read(&out).expect("the output"), before, "{what}: the same bytes");
            }
            let (a, b) = (decode(&original, inp.member, &name), decode(&out, inp.member, &name));
            agree(&what, inp.bound, &a, &b);
            diff_names_only_the_clip(&what, &original, &out, &tree_key(inp.bound, &name));
            // the output checks as the original does (g123s15's size warning is its own)
            let (code0, o0, _) = animscope(&["check", s(&original)]);
            let (code, o, e) = animscope(&["check", s(&out)]);
            assert_eq!(code, code0, "{what}: the output checks as the original: {o}{e}");
            assert_eq!(o.replace(s(&out), "FILE"), o0.replace(s(&original), "FILE"), "{what}");
            clips += 1;
        }
        assert_eq!(std::fs::read(&original).expect("the fixture"), before, "{what}: the input is unchanged");
    }
    // sc6: aliases 6 + fixture_a 2 + 14 one-clip banks; motn files 7 + 1 + 2 + 1 + 1;
    // motn containers 7 + 7 + 1; demo.bin 2 + 7; ccsf Animes: chara, town, two members,
    // stride, six of later generations
    assert_eq!(clips, (6 + 2 + 14) + 12 + 15 + 9 + 4 + 1 + 6, "every posed clip was taken");
    // ccsf frame sections: town, g125, str0100, str0200, STR.BIN's
    assert_eq!(refused, 5, "every refusal was seen");
}

/// A matrix of the JSON (16 numbers, row-major, column vectors).
fn mat(v: &Json) -> glam::Mat4 {
    let a: Vec<f32> = v.as_array().expect("16 numbers").iter().map(|x| x.as_f64().expect("a number") as f32).collect();
    glam::Mat4::from_cols_array(&a.try_into().expect("16")).transpose()
}

fn rows(m: glam::Mat4) -> Json {
    Json::from(m.transpose().to_cols_array().iter().map(|v| f64::from(*v)).collect::<Vec<f64>>())
}

/// A CCSF gen-1 edit: `chara.cmp`'s OBJ_leg (driven by the ExtObj copy OBJ_leg_c's constant
/// position (0, 0, −5) and rotation (30°, 0, 0), keyed transparency; fixtures/README.md) set
/// to a quarter turn about its local X at frame 2, OBJ_prop (under it: the same world)
/// following. CCSF matrix JSON is the file's model space (no conversion, ccsf.md Posing), a
/// local is T · Rx · Ry · Rz · S. By ccsf.md, Import and Evaluation the controller becomes
/// keyed: at frame 2 rx = 90° (16384 steps of 1/65536 turn, exact), ry = rz = 0; at the other
/// frames rx stays 30° within half a key step (0.0028°, 30° is not a whole step); position,
/// scale and transparency as they were; every other track the same.
#[test]
fn ccsf_an_edited_rotation_becomes_keyed_controller_values() {
    let d = tempfile::tempdir().expect("a temp dir");
    let input = fixtures().join("ccsf/chara.cmp");
    let json = d.path().join("walk.json");
    let (code, o, e) = animscope(&["export", s(&input), "--anim", "ANM_walk", "-o", s(&json)]);
    assert_eq!(code, 0, "{o}{e}");
    let mut j: Json = serde_json::from_slice(&std::fs::read(&json).expect("the export")).expect("JSON");
    let bones = &j["frames"][2]["bones"];
    let (hip, leg, prop) = (mat(&bones["OBJ_hip"]), mat(&bones["OBJ_leg"]), mat(&bones["OBJ_prop"]));
    let (sc, _, t) = (hip.inverse() * leg).to_scale_rotation_translation();
    let quarter = glam::Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let new_leg = hip * glam::Mat4::from_scale_rotation_translation(sc, quarter, t);
    j["frames"][2]["bones"]["OBJ_leg"] = rows(new_leg);
    j["frames"][2]["bones"]["OBJ_prop"] = rows(new_leg * leg.inverse() * prop);
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.cmp");
    let (code, o, e) = animscope(&["import", s(&input), "ANM_walk", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(e.contains("channel OBJ_leg.rotation: 5 keys") && !e.contains("channel OBJ_hip"), "{e}");
    let (code, o, e) = animscope(&["check", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    diff_names_only_the_clip("chara edit", &input, &out, "Anime[ANM_walk]");
    let (a, b) = (samples(&decode(&input, None, "ANM_walk")), samples(&decode(&out, None, "ANM_walk")));
    let half_step = 360.0 / 65536.0 / 2.0;
    assert_eq!(a.iter().map(|(n, _)| n).collect::<Vec<_>>(), b.iter().map(|(n, _)| n).collect::<Vec<_>>());
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        let Some(ch) = name.strip_prefix("OBJ_leg_c.") else {
            assert_eq!(x, y, "{name} unchanged");
            continue;
        };
        for (f, (p, q)) in x.iter().zip(y).enumerate() {
            let want = match (ch, f) {
                ("rx", 2) => 90.0,
                ("ry" | "rz", 2) => 0.0,
                _ => *p,
            };
            let tol = if ch.starts_with('r') { half_step + 1e-4 } else { 1e-5 };
            assert!((q - want).abs() <= tol, "{name} frame {f}: {q}, want {want}");
        }
    }
    // the controller is keyed now: 5 rotation keys (the table of stored controllers)
    let t = decode(&out, None, "ANM_walk")["tables"][0]["rows"].clone();
    let row = t.as_array().expect("rows").iter().find(|r| r[1] == "OBJ_leg_c" && r[2] == "rotation").cloned();
    let row = row.expect("a rotation row");
    assert_eq!((&row[3], &row[4]), (&Json::from("2"), &Json::from("5")), "{row}");
}

/// A later-generation edit (ccsf-gen2.md: the Anime container and the object controller's
/// fields are gen 1's): `g123.ccs`'s OBJ_arm (under OBJ_root; OBJ_hand under it), whose
/// ANM_demo controller keys its rotation as quaternions (k = 4: rz 0° at frame 0, 90° at
/// frame 2; fixtures/README.md), set to a quarter turn about its local X at frame 1, OBJ_hand
/// following. The controller is rewritten with Euler keys (k = 2) on all 3 frames and a note
/// says so; at frame 1 rx = 90° (16384 steps, exact), ry = rz = 0; at frames 0 and 2 the
/// rotation is the stored one within half a key step; the camera and morph controllers'
/// tracks are the same; the output checks clean and `diff` names only the clip.
#[test]
fn ccsf_gen2_an_edited_rotation_becomes_euler_keys() {
    let d = tempfile::tempdir().expect("a temp dir");
    let input = fixtures().join("ccsf/g123.ccs");
    let json = d.path().join("demo.json");
    let (code, o, e) = animscope(&["export", s(&input), "--anim", "ANM_demo", "-o", s(&json)]);
    assert_eq!(code, 0, "{o}{e}");
    let mut j: Json = serde_json::from_slice(&std::fs::read(&json).expect("the export")).expect("JSON");
    let bones = &j["frames"][1]["bones"];
    let (root, arm, hand) = (mat(&bones["OBJ_root"]), mat(&bones["OBJ_arm"]), mat(&bones["OBJ_hand"]));
    let (sc, _, t) = (root.inverse() * arm).to_scale_rotation_translation();
    let quarter = glam::Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let new_arm = root * glam::Mat4::from_scale_rotation_translation(sc, quarter, t);
    j["frames"][1]["bones"]["OBJ_arm"] = rows(new_arm);
    j["frames"][1]["bones"]["OBJ_hand"] = rows(new_arm * arm.inverse() * hand);
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.ccs");
    let (code, o, e) = animscope(&["import", s(&input), "ANM_demo", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(e.contains("channel OBJ_arm.rotation: 3 keys") && !e.contains("channel OBJ_hand"), "{e}");
    assert!(o.contains("OBJ_arm's keyed-quaternion rotation (k = 4) is written as Euler keys (k = 2)"), "{o}");
    let (code, o, e) = animscope(&["check", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    diff_names_only_the_clip("g123 edit", &input, &out, "Anime[ANM_demo]");
    let (a, b) = (samples(&decode(&input, None, "ANM_demo")), samples(&decode(&out, None, "ANM_demo")));
    let half_step = 360.0 / 65536.0 / 2.0;
    assert_eq!(a.iter().map(|(n, _)| n).collect::<Vec<_>>(), b.iter().map(|(n, _)| n).collect::<Vec<_>>());
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        let Some(ch) = name.strip_prefix("OBJ_arm.") else {
            assert_eq!(x, y, "{name} unchanged");
            continue;
        };
        for (f, (p, q)) in x.iter().zip(y).enumerate() {
            let want = match (ch, f) {
                ("rx", 1) => 90.0,
                ("ry" | "rz", 1) => 0.0,
                _ => *p,
            };
            let tol = if ch.starts_with('r') { half_step + 1e-4 } else { 1e-5 };
            assert!((q - want).abs() <= tol, "{name} frame {f}: {q}, want {want}");
        }
    }
    let t = decode(&out, None, "ANM_demo")["tables"][0]["rows"].clone();
    let row = t.as_array().expect("rows").iter().find(|r| r[1] == "OBJ_arm" && r[2] == "rotation").cloned();
    let row = row.expect("a rotation row");
    assert_eq!((&row[3], &row[4]), (&Json::from("2"), &Json::from("3")), "{row}");
}

/// An object no controller drives gets one: `chara.cmp`'s OBJ_prop (under OBJ_leg at its
/// bind, not driven by ANM_walk; fixtures/README.md) turned a quarter turn about its local
/// Z on every frame. The Anime gains a controller for OBJ_prop (ccsf.md, Import), decoded as
/// tracks `OBJ_prop.*` with rz = 90° at every frame (16384 steps, exact) and rx = ry = 0;
/// every track the Anime had is the same.
#[test]
fn ccsf_an_undriven_object_gets_a_controller() {
    let d = tempfile::tempdir().expect("a temp dir");
    let input = fixtures().join("ccsf/chara.cmp");
    let json = d.path().join("walk.json");
    let (code, o, e) = animscope(&["export", s(&input), "--anim", "ANM_walk", "-o", s(&json)]);
    assert_eq!(code, 0, "{o}{e}");
    let mut j: Json = serde_json::from_slice(&std::fs::read(&json).expect("the export")).expect("JSON");
    for f in j["frames"].as_array_mut().expect("frames") {
        let (leg, prop) = (mat(&f["bones"]["OBJ_leg"]), mat(&f["bones"]["OBJ_prop"]));
        let (sc, _, t) = (leg.inverse() * prop).to_scale_rotation_translation();
        let turned = glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        f["bones"]["OBJ_prop"] = rows(leg * glam::Mat4::from_scale_rotation_translation(sc, turned, t));
    }
    std::fs::write(&json, serde_json::to_vec(&j).expect("JSON")).expect("written");
    let out = d.path().join("out.cmp");
    let (code, o, e) = animscope(&["import", s(&input), "ANM_walk", "--from", s(&json), "-o", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let (code, o, e) = animscope(&["check", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let (a, b) = (samples(&decode(&input, None, "ANM_walk")), samples(&decode(&out, None, "ANM_walk")));
    for (name, x) in &a {
        let y = &b.iter().find(|(n, _)| n == name).expect("the track is kept").1;
        assert_eq!(x, y, "{name} unchanged");
    }
    let track = |c: &str| b.iter().find(|(n, _)| n == &format!("OBJ_prop.{c}")).map(|(_, v)| v.clone());
    for (c, want) in [("rx", 0.0), ("ry", 0.0), ("rz", 90.0)] {
        let v = track(c).unwrap_or_else(|| panic!("an OBJ_prop.{c} track: {b:?}"));
        assert_eq!(v.len(), 5);
        assert!(v.iter().all(|x| (x - want).abs() < 1e-4), "OBJ_prop.{c}: {v:?}");
    }
    assert_eq!(b.len(), a.len() + 9, "OBJ_prop's position, rotation and scale tracks added");
}
