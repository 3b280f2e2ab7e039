//! The no-edit round trip of issue #50 on every committed fixture clip of SC6 and MOTN and
//! every member of the fixture archives holding them: `export` → `import` → `decode` equals
//! the original decode within the format's stated quantisation (docs/formats/sc6-mot.md and
//! motn.md, Import), and `diff ORIGINAL OUT --summary` names no change but the clip's own
//! bytes and the offsets and sizes of the structures holding it.
//!
//! The clips are what the fixtures were built with (fixtures/README.md): the expected count of
//! clips per input and of clips without poses comes from there, not from the code.

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
}

/// One input: the file, the member holding the clips (None: the file is the document),
/// the clips with poses and those without (fixtures/README.md), and the bound.
struct Input {
    file: String,
    member: Option<&'static str>,
    posed: usize,
    unposed: usize,
    bound: Bound,
}

fn input(file: &str, member: Option<&'static str>, posed: usize, unposed: usize, bound: Bound) -> Input {
    Input { file: file.to_string(), member, posed, unposed, bound }
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
    ]);
    v
}

/// Fixtures holding clips that the round trip cannot take, and why (the export refuses them:
/// there is nothing to import). `stream_alternate.mot` is posed only on the alternate stream,
/// which has no built-in skeleton; `stream_skill_check.mot` decodes only with
/// `--stream skill-check`; import writes default-stream clips (sc6-mot.md, Import).
const NOT_POSED: [(&str, &str); 2] =
    [("sc6/stream_alternate.mot", "no posed matrices"), ("sc6/stream_skill_check.mot", "default stream consumes")];

/// The samples of every track, by name.
fn samples(clip: &Json) -> Vec<(String, Vec<f64>)> {
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
    }
}

/// Every clip of every input: export (matrix JSON, `--all`), import with no edit, decode and
/// diff. About 200 runs of the binary: ignored (CI runs it with `--ignored`).
#[test]
#[ignore = "about 200 runs of the binary, several seconds"]
fn every_fixture_clip_round_trips_without_edit() {
    let all = inputs();
    // every committed sc6 and motn fixture that is not a hostile one (x_…) is covered
    for dir in ["sc6", "motn"] {
        for e in std::fs::read_dir(fixtures().join(dir)).expect("the fixture folder") {
            let name = e.expect("an entry").file_name().to_string_lossy().into_owned();
            let rel = format!("{dir}/{name}");
            if name.starts_with("x_") {
                continue;
            }
            assert!(
                all.iter().any(|i| i.file == rel) || NOT_POSED.iter().any(|(f, _)| *f == rel),
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
    let mut clips = 0;
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
            let clip = match inp.member {
                Some(m) => format!("{m}/{name}"),
                None => name.clone(),
            };
            let (code, o, e) = animscope(&["import", s(&original), &clip, "--from", s(&json), "-o", s(&out)]);
            assert_eq!(code, 0, "{what}: {o}{e}");
            let (a, b) = (decode(&original, inp.member, &name), decode(&out, inp.member, &name));
            agree(&what, inp.bound, &a, &b);
            diff_names_only_the_clip(&what, &original, &out, &tree_key(inp.bound, &name));
            let (code, o, e) = animscope(&["check", s(&out)]);
            assert_eq!(code, 0, "{what}: the output checks clean: {o}{e}");
            clips += 1;
        }
        assert_eq!(std::fs::read(&original).expect("the fixture"), before, "{what}: the input is unchanged");
    }
    // sc6: aliases 6 + fixture_a 2 + 14 one-clip banks; motn files 7 + 1 + 2 + 1 + 1;
    // motn containers 7 + 7 + 1; demo.bin 2 + 7
    assert_eq!(clips, (6 + 2 + 14) + 12 + 15 + 9, "every posed clip was taken");
}
