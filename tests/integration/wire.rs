//! JSON wire goldens: a serde mirror of every `--json` output docs/GUIDE.md documents
//! ("JSON output", "Comparing two files") and of the matrix JSON (`export`, the contract in
//! docs/GUIDE.md#matrix-json), field names typed from
//! those documents, every struct `deny_unknown_fields`. Each test parses the real output of
//! the binary on a fixture, so a renamed, dropped or added key fails here (optional keys are
//! the ones the guide marks `?`).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, dead_code)]

use crate::support::animscope;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeMap;

/// Parse one JSON document as `T`, naming the verb and the line on failure.
fn parse<T: DeserializeOwned>(verb: &str, line: &str) -> T {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{verb} --json: {e}\n{line}"))
}

/// Run the binary; assert the exit code is one of `codes`; stdout.
fn run(args: &[&str], codes: &[i32]) -> String {
    let (code, out, err) = animscope(args);
    assert!(codes.contains(&code), "{args:?}: exit {code}\n{err}");
    assert!(!out.trim().is_empty(), "{args:?}: no output");
    out
}

// ---------------------------------------------------------------------------------------
// info --json: `{file, format, format_description, size, mapped, nodes, fields,
// walk_steps, errors, warnings, node}`, and `pending` for documents built on demand.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Info {
    file: String,
    format: String,
    format_description: String,
    size: u64,
    mapped: bool,
    nodes: u64,
    fields: u64,
    walk_steps: u64,
    errors: u64,
    warnings: u64,
    node: Value,
    #[serde(default)]
    pending: Option<Value>,
}

#[test]
fn info_json_has_the_documented_keys() {
    for f in ["fixtures/motn/vector_a.mot", "fixtures/sc6/fixture_a.mot", "fixtures/ccsf/mini.cmp"] {
        let out = run(&["info", f, "--json"], &[0, 1]);
        let i: Info = parse("info", out.trim());
        assert_eq!(i.size, std::fs::metadata(f).unwrap().len(), "{f}: size");
        assert!(i.nodes >= 1 && i.node.is_object(), "{f}: {i:?}");
    }
}

// ---------------------------------------------------------------------------------------
// tree --json: JSON Lines `{path, key, kind, depth, start, end, summary, children, member,
// alias, anim?, fields?}`; fields `{name, start, end, value: {raw, display, meaning},
// bit_start?, bits?, note?}`; meaning null, "unknown", {label}, {ref}, {value, unit},
// {flags}. fields --json: one node object with `fields`.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeNode {
    path: String,
    key: String,
    kind: String,
    depth: u64,
    start: u64,
    end: u64,
    summary: String,
    children: Value,
    member: Value,
    alias: Value,
    #[serde(default)]
    anim: Option<Value>,
    #[serde(default)]
    fields: Option<Vec<FieldJson>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldJson {
    name: String,
    start: u64,
    end: u64,
    value: ValueJson,
    #[serde(default)]
    bit_start: Option<u64>,
    #[serde(default)]
    bits: Option<u64>,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ValueJson {
    raw: Value,
    display: String,
    meaning: Option<Meaning>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Meaning {
    Unknown(UnknownWord),
    Label(Label),
    Ref(Ref),
    Number(Number),
    Flags(Flags),
}

#[derive(Debug, Deserialize)]
enum UnknownWord {
    #[serde(rename = "unknown")]
    Unknown,
}
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Label {
    label: String,
}
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ref {
    #[serde(rename = "ref")]
    target: String,
}
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Number {
    value: f64,
    unit: String,
}
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Flags {
    flags: Vec<String>,
}

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
            assert!(n.start <= n.end, "{f}: {n:?}");
            for fl in n.fields.iter().flatten() {
                assert!(fl.start <= fl.end && fl.start >= n.start.min(fl.start), "{f}: {fl:?}");
                if let Some(m) = &fl.value.meaning {
                    meanings[match m {
                        Meaning::Unknown(_) => 0,
                        Meaning::Label(_) => 1,
                        Meaning::Ref(_) => 2,
                        Meaning::Number(_) => 3,
                        Meaning::Flags(_) => 4,
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WalkStep {
    step: u64,
    start: u64,
    end: u64,
    what: String,
    detail: Value,
    next: Value,
    node: Value,
}

#[test]
fn walk_json_has_the_documented_keys() {
    for f in ["fixtures/ccsf/mini.cmp", "fixtures/motn/multi.mot"] {
        let out = run(&["walk", f, "--json"], &[0]);
        let steps: Vec<WalkStep> = out.lines().map(|l| parse("walk", l)).collect();
        assert_eq!(steps.iter().map(|s| s.step).collect::<Vec<_>>(), (1..=steps.len() as u64).collect::<Vec<_>>());
    }
}

// ---------------------------------------------------------------------------------------
// decode --json: `{name, fps, frame_count, notes, tables: [{name, columns, rows}], tracks:
// [{name, target, unit, unknown, keys: [{frame, value, detail}], samples}]}`; every track
// has `frame_count` samples.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Decode {
    name: String,
    fps: f64,
    frame_count: u64,
    notes: Vec<Value>,
    tables: Vec<Table>,
    tracks: Vec<Track>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    name: String,
    columns: Vec<Value>,
    rows: Vec<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Track {
    name: String,
    target: Value,
    unit: Value,
    unknown: bool,
    keys: Vec<Key>,
    samples: Vec<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Key {
    frame: Value,
    value: Value,
    detail: Value,
}

#[test]
fn decode_json_has_the_documented_keys() {
    for (f, sel) in [
        ("fixtures/motn/vector_a.mot", "TEST_SEQ"),
        ("fixtures/sc6/fixture_a.mot", "0"),
        ("fixtures/ccsf/chara.cmp", "ANM_walk"),
    ] {
        let out = run(&["decode", f, "--anim", sel, "--json"], &[0]);
        let d: Decode = parse("decode", out.trim());
        assert!(!d.tracks.is_empty(), "{f}: tracks");
        for t in &d.tracks {
            assert_eq!(t.samples.len() as u64, d.frame_count, "{f}: track {} samples", t.name);
        }
    }
}

// ---------------------------------------------------------------------------------------
// survey --json: JSON Lines, one `{name, format, counters, findings}` per file, then
// totals. check --json: JSON Lines, one `{file, severity, offset, path, message}` each.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SurveyFile {
    name: String,
    format: String,
    counters: Value,
    findings: Value,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Finding {
    file: String,
    severity: String,
    offset: Value,
    path: String,
    message: String,
}

#[test]
fn survey_json_has_the_documented_keys() {
    let files = ["fixtures/motn/vector_a.mot", "fixtures/sc6/fixture_a.mot", "fixtures/ccsf/mini.cmp"];
    let out = run(&[&["survey"][..], &files, &["--json"]].concat(), &[0, 1]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), files.len() + 1, "one line per file, then totals:\n{out}");
    for l in &lines[..files.len()] {
        let _: SurveyFile = parse("survey", l);
    }
    // the guide does not list the totals line's keys; it has the per-file shape
    let totals: SurveyFile = parse("survey", lines[files.len()]);
    assert!(totals.counters.is_object(), "totals line: {totals:?}");
}

#[test]
fn check_json_has_the_documented_keys() {
    let out = run(&["check", "fixtures/ccsf/x_parent_cycle.ccs", "fixtures/motn/x_block_order.mot", "--json"], &[1]);
    let findings: Vec<Finding> = out.lines().map(|l| parse("check", l)).collect();
    assert!(findings.iter().any(|f| f.file.ends_with("x_parent_cycle.ccs")), "{findings:?}");
    assert!(findings.iter().any(|f| f.file.ends_with("x_block_order.mot")), "{findings:?}");
}

// ---------------------------------------------------------------------------------------
// diff --json (docs/GUIDE.md "Comparing two files"): change lines, then one summary line.

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DiffLine {
    Summary(SummaryLine),
    Change(Box<Change>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SummaryLine {
    summary: Summary,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Summary {
    changes: u64,
    by_change: BTreeMap<String, u64>,
    identical: u64,
    identical_by_kind: BTreeMap<String, u64>,
    containers: u64,
    moved_pointers: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Change {
    change: String,
    path: String,
    kind: String,
    a: Option<SpanJson>,
    b: Option<SpanJson>,
    #[serde(default)]
    fields: Option<Vec<FieldChange>>,
    #[serde(default)]
    new_kind: Option<String>,
    #[serde(default)]
    old: Option<Value>,
    #[serde(default)]
    new: Option<Value>,
    #[serde(default)]
    anim: Option<AnimChange>,
    #[serde(default)]
    aliases: Option<Vec<String>>,
    #[serde(default)]
    side: Option<Value>,
    #[serde(default)]
    message: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpanJson {
    start: u64,
    end: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldChange {
    name: String,
    old: Value,
    new: Value,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnimChange {
    name: String,
    frames: [Value; 2],
    channels_only_in_a: Value,
    channels_only_in_b: Value,
    channels: Vec<ChannelChange>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChannelChange {
    name: String,
    keys: [Value; 2],
    key_changes: Vec<KeyChange>,
    largest: Option<Largest>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyChange {
    index: u64,
    a: Option<KeyJson>,
    b: Option<KeyJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyJson {
    frame: Value,
    value: Value,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Largest {
    frame: Value,
    a: Value,
    b: Value,
    delta: Value,
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
                assert!(CHANGE_KINDS.contains(&c.change.as_str()), "{c:?}");
                seen.insert(c.change.clone());
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
enum DiffSummaryLine {
    Summary(SummaryLine),
    Unit(UnitLine),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitLine {
    unit: String,
    kind: String,
    changes: u64,
    by_change: BTreeMap<String, u64>,
    aliases: Vec<String>,
    #[serde(default)]
    anim: Option<UnitAnim>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitAnim {
    frames: [Value; 2],
    channels_only_in_a: u64,
    channels_only_in_b: u64,
    channels_changed: u64,
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
