//! JSON wire goldens: each test parses the binary's real `--json` output on a fixture into
//! the crate's own wire types (`animscope::wire`, the types the output is written from;
//! every struct `deny_unknown_fields`), so a key the types do not declare, or a declared
//! one missing, fails here; `the_wire_keys_are_the_documented_ones` checks the declared
//! keys against docs/GUIDE.md. The matrix JSON (`export`, the contract in
//! docs/GUIDE.md#matrix-json) is still read through a mirror typed from that document.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, dead_code)]

use crate::support::animscope;
use animscope::wire::{
    Change, CheckFinding, Decode, Info, MeaningJson, Node as TreeNode, SummaryLine, SurveyLine, UnitLine, WalkStep,
};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Parse one JSON document as `T`, naming the verb and the line on failure.
fn parse<'a, T: Deserialize<'a>>(verb: &str, line: &'a str) -> T {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{verb} --json: {e}\n{line}"))
}

/// Run the binary; assert the exit code is one of `codes`; stdout.
fn run(args: &[&str], codes: &[i32]) -> String {
    let (code, out, err) = animscope(args);
    assert!(codes.contains(&code), "{args:?}: exit {code}\n{err}");
    assert!(!out.trim().is_empty(), "{args:?}: no output");
    out
}

/// The top-level keys docs/GUIDE.md's "JSON output" lists for `VERB --json` (the first
/// `{...}` of its bullet): the required ones and the ones marked `?`.
fn guide_keys(verb: &str) -> (Vec<String>, Vec<String>) {
    let guide = std::fs::read_to_string("docs/GUIDE.md").unwrap();
    let section = &guide[guide.find("## JSON output").unwrap()..];
    let bullet = &section[section.find(&format!("- `{verb} --json`")).unwrap_or_else(|| panic!("no {verb} bullet"))..];
    let bullet = &bullet[..bullet[1..].find("\n- ").map_or(bullet.len(), |e| e + 1)];
    let open = bullet.find('{').unwrap();
    let (mut depth, mut key, mut keys) = (0, String::new(), Vec::new());
    for c in bullet[open..].chars() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            break;
        }
        match c {
            ',' if depth == 1 => keys.push(std::mem::take(&mut key)),
            ':' if depth == 1 => key.push('\0'),
            c if depth == 1 && !key.contains('\0') && (c.is_alphanumeric() || c == '_' || c == '?') => key.push(c),
            _ => {}
        }
    }
    keys.push(key);
    let keys: Vec<String> = keys.iter().map(|k| k.trim_end_matches('\0').to_string()).collect();
    let (opt, req): (Vec<_>, Vec<_>) = keys.into_iter().partition(|k| k.ends_with('?'));
    (req, opt.iter().map(|k| k.trim_end_matches('?').to_string()).collect())
}

/// Every object in `line` has its keys in alphabetical order, as the guide says (read
/// from the text, since `serde_json::Value` sorts them itself).
fn assert_sorted(verb: &str, line: &str) {
    let mut de = serde_json::Deserializer::from_str(line);
    let ordered = OrderedKeys::deserialize(&mut de).unwrap();
    assert!(ordered.0, "{verb} --json: keys out of alphabetical order in {line}");
}

/// Deserialised from any JSON value: whether every object in it lists its keys in order.
struct OrderedKeys(bool);

impl<'de> Deserialize<'de> for OrderedKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = OrderedKeys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<OrderedKeys, A::Error> {
                let (mut ok, mut last) = (true, None::<String>);
                while let Some(k) = m.next_key::<String>()? {
                    ok &= last.as_ref().is_none_or(|l| *l < k);
                    ok &= m.next_value::<OrderedKeys>()?.0;
                    last = Some(k);
                }
                Ok(OrderedKeys(ok))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<OrderedKeys, A::Error> {
                let mut ok = true;
                while let Some(v) = s.next_element::<OrderedKeys>()? {
                    ok &= v.0;
                }
                Ok(OrderedKeys(ok))
            }
            fn visit_bool<E>(self, _: bool) -> Result<OrderedKeys, E> {
                Ok(OrderedKeys(true))
            }
            fn visit_i64<E>(self, _: i64) -> Result<OrderedKeys, E> {
                Ok(OrderedKeys(true))
            }
            fn visit_u64<E>(self, _: u64) -> Result<OrderedKeys, E> {
                Ok(OrderedKeys(true))
            }
            fn visit_f64<E>(self, _: f64) -> Result<OrderedKeys, E> {
                Ok(OrderedKeys(true))
            }
            fn visit_str<E>(self, _: &str) -> Result<OrderedKeys, E> {
                Ok(OrderedKeys(true))
            }
            fn visit_unit<E>(self) -> Result<OrderedKeys, E> {
                Ok(OrderedKeys(true))
            }
        }
        d.deserialize_any(V)
    }
}

/// `line`'s top-level keys are the guide's for `verb`: every required one, no other
/// than the optional ones.
fn documented(verb: &str, line: &str) {
    let (req, opt) = guide_keys(verb);
    let v: Value = serde_json::from_str(line).unwrap();
    assert_sorted(verb, line);
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    for k in &req {
        assert!(keys.contains(&k), "{verb} --json: the guide's key {k} is missing from {line}");
    }
    for k in &keys {
        assert!(
            req.contains(k) || opt.contains(k),
            "{verb} --json: key {k} is not in the guide ({req:?}, optional {opt:?})"
        );
    }
}

// ---------------------------------------------------------------------------------------
// info --json: `{file, format, format_description, size, mapped, nodes, fields,
// walk_steps, errors, warnings, node}`, and `pending` for documents built on demand.

#[test]
fn info_json_has_the_documented_keys() {
    for f in ["fixtures/motn/vector_a.mot", "fixtures/sc6/fixture_a.mot", "fixtures/ccsf/mini.cmp"] {
        let out = run(&["info", f, "--json"], &[0, 1]);
        let i: Info = parse("info", out.trim());
        assert_eq!(i.size, std::fs::metadata(f).unwrap().len(), "{f}: size");
        assert!(i.nodes >= 1 && i.node.depth == 0, "{f}: {i:?}");
        documented("info", out.trim());
    }
}

// ---------------------------------------------------------------------------------------
// tree --json: JSON Lines `{path, key, kind, depth, start, end, summary, children, member,
// alias, anim?, fields?}`; fields `{name, start, end, value: {raw, display, meaning},
// bit_start?, bits?, note?}`; meaning null, "unknown", {label}, {ref}, {value, unit},
// {flags}. fields --json: one node object with `fields`.

#[test]
fn tree_and_fields_json_have_the_documented_keys() {
    let mut meanings = [0usize; 5];
    let mut lines = 0;
    for f in [
        "fixtures/motn/vector_a.mot",
        "fixtures/sc6/fixture_a.mot",
        "fixtures/ccsf/mini.cmp",
        "fixtures/motn/motion.pks",
    ] {
        let out = run(&["tree", f, "--json", "--fields"], &[0, 1]);
        for line in out.lines() {
            let n: TreeNode = parse("tree", line);
            documented("tree", line);
            assert!(n.start <= n.end, "{f}: {n:?}");
            for fl in n.fields.iter().flatten() {
                assert!(fl.start <= fl.end && fl.start >= n.start.min(fl.start), "{f}: {fl:?}");
                if let Some(m) = &fl.value.meaning {
                    meanings[match m {
                        MeaningJson::Unknown(_) => 0,
                        MeaningJson::Label(_) => 1,
                        MeaningJson::Ref(_) => 2,
                        MeaningJson::Number(_) => 3,
                        MeaningJson::Flags(_) => 4,
                    }] += 1;
                }
            }
            lines += 1;
        }
        let one = run(&["fields", f, "@0", "--json"], &[0]);
        let n: TreeNode = parse("fields", one.trim());
        assert!(n.fields.is_some_and(|v| !v.is_empty()), "{f}: fields --json has fields");
    }
    assert!(lines > 20, "{lines} tree lines");
    // every documented meaning shape occurs in these fixtures (so each mirror is exercised)
    assert!(meanings.iter().all(|&m| m > 0), "meanings seen (unknown, label, ref, number, flags): {meanings:?}");
}

// ---------------------------------------------------------------------------------------
// walk --json: JSON Lines `{step, start, end, what, detail, next, node}`, steps from 1.

#[test]
fn walk_json_has_the_documented_keys() {
    for f in ["fixtures/ccsf/mini.cmp", "fixtures/motn/multi.mot"] {
        let out = run(&["walk", f, "--json"], &[0]);
        let steps: Vec<WalkStep> = out.lines().map(|l| parse("walk", l)).collect();
        out.lines().for_each(|l| documented("walk", l));
        assert_eq!(steps.iter().map(|s| s.step).collect::<Vec<_>>(), (1..=steps.len() as u64).collect::<Vec<_>>());
    }
}

// ---------------------------------------------------------------------------------------
// decode --json: `{name, fps, frame_count, notes, tables: [{name, columns, rows}], tracks:
// [{name, target, unit, unknown, keys: [{frame, value, detail}], samples}]}`; every track
// has `frame_count` samples.

#[test]
fn decode_json_has_the_documented_keys() {
    for (f, sel) in [
        ("fixtures/motn/vector_a.mot", "TEST_SEQ"),
        ("fixtures/sc6/fixture_a.mot", "0"),
        ("fixtures/ccsf/chara.cmp", "ANM_walk"),
    ] {
        let out = run(&["decode", f, "--anim", sel, "--json"], &[0]);
        let d: Decode = parse("decode", out.trim());
        documented("decode", out.trim());
        assert!(!d.tracks.is_empty(), "{f}: tracks");
        for t in &d.tracks {
            assert_eq!(t.samples.len() as u64, d.frame_count, "{f}: track {} samples", t.name);
        }
    }
}

// ---------------------------------------------------------------------------------------
// survey --json: JSON Lines, one `{name, format, counters, findings}` per file, then
// totals. check --json: JSON Lines, one `{file, severity, offset, path, message}` each.

#[test]
fn survey_json_has_the_documented_keys() {
    let files = ["fixtures/motn/vector_a.mot", "fixtures/sc6/fixture_a.mot", "fixtures/ccsf/mini.cmp"];
    let out = run(&[&["survey"][..], &files, &["--json"]].concat(), &[0, 1]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), files.len() + 1, "one line per file, then totals:\n{out}");
    for l in &lines[..files.len()] {
        let line: SurveyLine = parse("survey", l);
        assert!(line.findings.iter().all(|f| f.file.is_none()), "a survey finding names a file: {l}");
        documented("survey", l);
    }
    // the guide does not list the totals line's keys; it has the per-file shape
    let totals: SurveyLine = parse("survey", lines[files.len()]);
    assert!(!totals.counters.is_empty(), "totals line: {totals:?}");
}

#[test]
fn check_json_has_the_documented_keys() {
    let out = run(&["check", "fixtures/ccsf/x_parent_cycle.ccs", "fixtures/motn/x_block_order.mot", "--json"], &[1]);
    let findings: Vec<CheckFinding> = out.lines().map(|l| parse("check", l)).collect();
    out.lines().for_each(|l| documented("check", l));
    assert!(findings.iter().all(|f| f.file.is_some()), "a check line without its file: {findings:?}");
    let file = |f: &CheckFinding, name: &str| f.file.as_deref().is_some_and(|n| n.ends_with(name));
    assert!(findings.iter().any(|f| file(f, "x_parent_cycle.ccs")), "{findings:?}");
    assert!(findings.iter().any(|f| file(f, "x_block_order.mot")), "{findings:?}");
}

// ---------------------------------------------------------------------------------------
// diff --json (docs/GUIDE.md "Comparing two files"): change lines, then one summary line.

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DiffLine<'a> {
    #[serde(borrow)]
    Summary(SummaryLine<'a>),
    #[serde(borrow)]
    Change(Box<Change<'a>>),
}

const CHANGE_KINDS: [&str; 6] = ["only_in_a", "only_in_b", "bytes", "alias", "anim", "unreadable"];

#[test]
fn diff_json_has_the_documented_keys() {
    let mut seen = std::collections::BTreeSet::new();
    for (a, b) in [
        ("fixtures/sc6/fixture_a.mot", "fixtures/sc6/fixture_b.mot"),
        ("fixtures/motn/vector_a.mot", "fixtures/motn/vector_b.mot"),
    ] {
        for extra in [&[][..], &["--keys"][..]] {
            let out = run(&[&["diff", a, b, "--json"][..], extra].concat(), &[1]);
            let lines: Vec<DiffLine> = out.lines().map(|l| parse("diff", l)).collect();
            let (last, changes) = lines.split_last().unwrap();
            let DiffLine::Summary(s) = last else { panic!("the last line is the summary: {last:?}") };
            assert_eq!(s.summary.changes as usize, changes.len(), "{a} {b}: summary counts the change lines");
            for c in changes {
                let DiffLine::Change(c) = c else { panic!("one summary, at the end") };
                assert!(CHANGE_KINDS.contains(&c.change.as_ref()), "{c:?}");
                seen.insert(c.change.to_string());
            }
        }
    }
    assert!(seen.contains("bytes") && seen.contains("anim"), "change kinds seen: {seen:?}");
}

// ---------------------------------------------------------------------------------------
// export: `sc6-armature-matrices-v1` (docs/GUIDE.md#matrix-json: schema, action, fps, matrix_space,
// frames [{frame, bones}]; provenance keys source, input, clip, skeleton,
// conversion, generator).

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Matrices {
    schema: String,
    action: String,
    fps: f64,
    matrix_space: String,
    frames: Vec<MatrixFrame>,
    source: String,
    input: Value,
    clip: Value,
    skeleton: Value,
    conversion: Value,
    generator: Value,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatrixFrame {
    frame: u64,
    bones: BTreeMap<String, [f64; 16]>,
}

#[test]
fn export_json_has_the_documented_keys() {
    for (f, sel, source) in [
        ("fixtures/sc6/fixture_a.mot", "0", "authored mot sample"),
        ("fixtures/motn/vector_a.mot", "TEST_SEQ", "motn sequence"),
        ("fixtures/ccsf/chara.cmp", "ANM_walk", "ccsf anime"),
    ] {
        let out = run(&["export", f, "--anim", sel, "-o", "-"], &[0]);
        let m: Matrices = parse("export", &out);
        assert_eq!((m.schema.as_str(), m.matrix_space.as_str()), ("sc6-armature-matrices-v1", "blender_armature"));
        assert_eq!(m.source, source, "{f}");
        let bones: Vec<_> = m.frames[0].bones.keys().collect();
        for (i, fr) in m.frames.iter().enumerate() {
            assert_eq!(fr.frame, i as u64, "{f}: frames are numbered in order");
            assert_eq!(fr.bones.keys().collect::<Vec<_>>(), bones, "{f}: the same bones every frame");
        }
    }
}

// diff --summary --json (docs/GUIDE.md "Comparing two files"): one object per changed unit
// `{unit, kind, changes, by_change, aliases, anim?: {frames, channels_only_in_a,
// channels_only_in_b, channels_changed}}`, then the summary line of `diff --json`.

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DiffSummaryLine<'a> {
    #[serde(borrow)]
    Summary(SummaryLine<'a>),
    #[serde(borrow)]
    Unit(UnitLine<'a>),
}

#[test]
fn diff_summary_json_has_the_documented_keys() {
    let out = run(&["diff", "fixtures/sc6/fixture_a.mot", "fixtures/sc6/fixture_b.mot", "--summary", "--json"], &[1]);
    let lines: Vec<DiffSummaryLine> = out.lines().map(|l| parse("diff --summary", l)).collect();
    let (last, units) = lines.split_last().unwrap();
    let DiffSummaryLine::Summary(s) = last else { panic!("the last line is the summary: {last:?}") };
    let mut counted = 0;
    for u in units {
        let DiffSummaryLine::Unit(u) = u else { panic!("one summary, at the end") };
        assert_eq!(u.by_change.values().sum::<u64>(), u.changes, "{u:?}");
        counted += u.changes;
    }
    assert_eq!(counted, s.summary.changes, "the units' changes add up to the summary's");
    // fixture_a.mot is a bank of 2 aliased slots over one clip, fixture_b.mot one other clip
    // (fixtures/README.md): clip 0 differs and is also named clip[1]
    assert!(
        units.iter().any(|u| matches!(u, DiffSummaryLine::Unit(u) if u.anim.is_some() && u.aliases == ["clip[1]"])),
        "{out}"
    );
}
