//! `diff`: pairs of files built with the writers, each changed in a known way, and the
//! exact list of changes that way implies (derived from how the pair was built, not from
//! the tool's output); identical copies report nothing and exit 0.

use crate::support::animscope;
use animscope::diff::{
    self, AnimChange, Change, ChannelChange, FieldChange, KeyAt, KeyChange, Options, SampleChange, What,
};
use animscope::formats::{self, Parsed, ccsf, gzarc, motn, sc6};
use animscope::limits::Limits;
use animscope::model::Span;
use animscope::source::Source;
use std::sync::Arc;

fn open(name: &str, bytes: Vec<u8>) -> Box<dyn Parsed> {
    formats::open(Arc::new(Source::from_vec(name, bytes)), None, &Limits::default()).expect("opens")
}

fn changes(name: &str, a: &[u8], b: &[u8]) -> Vec<Change> {
    diff::changes(&mut *open(name, a.to_vec()), &mut *open(name, b.to_vec()), &Options::default()).0
}

/// (change name, path) of every change, in report order.
fn listed(cs: &[Change]) -> Vec<(&'static str, String)> {
    cs.iter().map(|c| (c.what.name(), c.path.clone())).collect()
}

/// Both files on disk, for the CLI: (dir, path A, path B).
fn on_disk(name: &str, a: &[u8], b: &[u8]) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (pa, pb) = (dir.path().join("a").join(name), dir.path().join("b").join(name));
    for (p, bytes) in [(&pa, a), (&pb, b)] {
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
        std::fs::write(p, bytes).expect("write");
    }
    (dir, pa.display().to_string(), pb.display().to_string())
}

/// An identical copy: nothing reported, exit 0, one summary line in JSON.
fn assert_identical_copy(name: &str, bytes: &[u8]) {
    assert!(changes(name, bytes, bytes).is_empty(), "{name}");
    let (_d, a, b) = on_disk(name, bytes, bytes);
    let (code, out, err) = animscope(&["diff", &a, &b]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("no differences\n"), "{out}");
    let (code, out, _) = animscope(&["diff", &a, &b, "--json"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("{\"summary\":{"), "{out}");
}

// ------------------------------------------------------------------------------ MOTN

/// The MOTN pair: `multi.mot` as the fixture encodes it, and the same file with
/// `YKI_WALK`'s channels cut down to those with a non-zero key, re-encoded and written over
/// the old sequence in place (its tail zeroed; every other offset unchanged).
struct MotnPair {
    a: Vec<u8>,
    b: Vec<u8>,
    /// Paths (below the file) the cut implies, in report order: (change, path).
    expected: Vec<(&'static str, String)>,
    /// Track names of the removed channels, in file order.
    removed: Vec<String>,
}

fn motn_pair() -> MotnPair {
    use motn::write::{Channel, KeyValues, MULTI_TRAILER, SeqSource, encode_inputs, encode_sequence, multi_inputs};
    const SEQ: usize = 5; // YKI_WALK: a standard sequence nothing aliases
    let inputs = multi_inputs();
    let a = encode_inputs(&inputs, Some(MULTI_TRAILER)).expect("encodes");
    let (name, SeqSource::Standard(spec)) = &inputs[SEQ] else { panic!("YKI_WALK is a standard sequence") };
    assert_eq!(name, "YKI_WALK");
    let zero = |c: &motn::write::ChannelSpec| c.keys.iter().all(|k| k.values == KeyValues::Zero);
    let mut cut = spec.clone();
    for n in &mut cut.nodes {
        n.channels.retain(|c| !zero(c));
    }
    let (old, new) = (encode_sequence(spec).expect("encodes"), encode_sequence(&cut).expect("encodes"));
    assert!(new.len() < old.len());
    let word = |at: usize| u32::from_le_bytes(a[at..at + 4].try_into().expect("4 bytes")) as usize;
    let base = word(8) + word(0x20 + 8 * SEQ); // data_ofs + data_rel (docs/formats/motn.md#blob-layout)
    let mut b = a.clone();
    b[base..base + old.len()].fill(0);
    b[base..base + new.len()].copy_from_slice(&new);

    // The node table names (spec: 0 Root, 5 UpperLeg_R, 12 UpperLeg_L) and channel names.
    let node_name = |n: u8| match n {
        0 => "Root",
        5 => "UpperLeg_R",
        12 => "UpperLeg_L",
        other => panic!("walk() animates nodes 0, 5 and 12, not {other}"),
    };
    let chan = |c: Channel| match c {
        Channel::Px => "px",
        Channel::Py => "py",
        Channel::Pz => "pz",
        Channel::Rx => "rx",
        Channel::Ry => "ry",
        Channel::Rz => "rz",
        _ => panic!("walk() uses translation and rotation channels only"),
    };
    let removed: Vec<String> = spec
        .ordered_channels()
        .into_iter()
        .filter(|(_, c)| zero(c))
        .map(|(n, c)| format!("{}.{}", node_name(n), chan(c.channel)))
        .collect();
    let mut nodes: Vec<u8> = spec.nodes.iter().map(|n| n.node).collect();
    nodes.sort_unstable();
    let seq = "multi.mot/data/seq[YKI_WALK]";
    // What the cut changes, block by block (docs/formats/motn.md#encoder): the decoded channel set; the header
    // (block offsets move as blocks shrink); every instruction whose node lost a channel
    // (its channel mask); the key counts (one per channel) and key codes (one per key);
    // not the key frames (only keys between the first and last are stored there, and every
    // removed channel has just those two) nor the values (code-0 keys store none); the
    // removed channels' entries under block5; and the zeroed tail, a padding run.
    let mut expected = vec![("anim", seq.to_string()), ("bytes", format!("{seq}/header"))];
    for (i, n) in nodes.iter().enumerate() {
        let node = spec.nodes.iter().find(|s| s.node == *n).expect("a node");
        if node.channels.iter().any(zero) {
            expected.push(("bytes", format!("{seq}/block1/instr[{i}]")));
        }
    }
    expected.push(("bytes", format!("{seq}/block2")));
    assert!(spec.nodes.iter().flat_map(|n| &n.channels).filter(|c| zero(c)).all(|c| c.keys.len() == 2));
    expected.push(("bytes", format!("{seq}/block4")));
    expected.extend(removed.iter().map(|r| ("only_in_a", format!("{seq}/block5/{r}"))));
    // the sequence's node spans its table extent (to the next sequence): the bytes freed
    // by the cut are its padding
    expected.push(("only_in_b", format!("{seq}/padding@0x{:x}", base + new.len())));
    MotnPair { a, b, expected, removed }
}

#[test]
fn motn_sequence_cut_down_in_place() {
    let p = motn_pair();
    let cs = changes("multi.mot", &p.a, &p.b);
    assert_eq!(listed(&cs), p.expected, "{cs:#?}");
    let What::Anim(anim) = &cs[0].what else { panic!("{cs:#?}") };
    assert_eq!(anim.frames, (31, 31));
    assert_eq!(anim.channels_only_in_a, p.removed);
    assert!(anim.channels_only_in_b.is_empty() && anim.channels.is_empty(), "{anim:?}");
    // the sequence keeps its table extent (to the next sequence); in B the bytes the cut
    // freed are its padding, from where its blocks end now to that extent's end
    let (sa, sb) = (cs[0].a.expect("A span"), cs[0].b.expect("B span"));
    assert_eq!(sa, sb);
    let tail = cs.last().and_then(|c| c.b).expect("the padding's span");
    assert!(sb.start < tail.start && tail.end == sb.end, "{tail} in {sb}");
    assert_identical_copy("multi.mot", &p.a);
}

#[test]
fn motn_pair_through_the_cli() {
    let p = motn_pair();
    let (_d, a, b) = on_disk("multi.mot", &p.a, &p.b);
    let (code, out, err) = animscope(&["diff", &a, &b, "--json"]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let (summary, changes) = lines.split_last().expect("a summary line");
    let got: Vec<(String, String)> = changes
        .iter()
        .map(|j| (j["change"].as_str().unwrap_or("").to_string(), j["path"].as_str().unwrap_or("").to_string()))
        .collect();
    let want: Vec<(String, String)> = p.expected.iter().map(|(c, p)| (c.to_string(), p.clone())).collect();
    assert_eq!(got, want);
    assert_eq!(summary["summary"]["changes"], p.expected.len());
    // both spans on a change both sides have; null on the side without the node
    assert!(changes[0]["a"]["start"].is_u64() && changes[0]["b"]["end"].is_u64());
    let only_b = changes.last().expect("a change");
    assert!(only_b["a"].is_null() && only_b["b"]["start"].is_u64());
    // text: one head line per change, details indented, the totals at the end
    let (code, text, _) = animscope(&["diff", &a, &b]);
    assert_eq!(code, 1);
    // the removed channels' nodes (consecutive siblings only in A) gathered on one head line
    let heads = text.lines().filter(|l| !l.starts_with(' ')).count();
    assert_eq!(heads, p.expected.len() - p.removed.len() + 1 + 2, "{text}");
    let block5 = "multi.mot/data/seq[YKI_WALK]/block5/";
    assert!(text.contains(&format!("only in A   {block5}  {} × channel", p.removed.len())), "{text}");
    assert!(text.contains(&format!("    {}\n", p.removed.join(", "))), "{text}");
    assert!(text.contains(&format!("    {} channels only in A: Root.px, Root.rx", p.removed.len())), "{text}");
    // the key counts of the removed channels: one line, not one `count[X]: 1 → (none)` each
    assert!(!text.contains("→ (none)"), "{text}");
    assert!(
        text.contains(&format!("    {} fields only in A: count[Root.px], count[Root.rx]", p.removed.len())),
        "{text}"
    );
    // a subtree: only the sequence
    let (code, sub, _) = animscope(&["diff", &a, &b, "data/seq[YKI_WALK]/block1", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(sub.lines().count(), 3 + 1, "{sub}");
    let (code, same, _) = animscope(&["diff", &a, &b, "data/seq[TEST_SEQ]"]);
    assert_eq!((code, same.lines().next()), (0, Some("no differences")));
    // errors exit 2
    let (code, _, err) = animscope(&["diff", &a, "/nonexistent/x.mot"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = animscope(&["diff", &a, &b, "--tolerance", "-1"]);
    assert_eq!(code, 2);
}

// ------------------------------------------------------------------------------- SC6

fn sc6_clip(keys: Vec<Vec<i16>>) -> Vec<u8> {
    let frames = keys.len() as u16;
    let mut spec = sc6::write::ClipSpec::new(frames, 0, 0x2, keys);
    spec.codes = sc6::write::Codes::Flat;
    sc6::write::encode_clip(&spec).expect("encodes")
}

/// Root-only clips (mask bit 1: root x, y, z, facing words), one keyframe per frame.
fn root_keys(frames: i16, f: impl Fn(i16) -> [i16; 4]) -> Vec<Vec<i16>> {
    (0..frames).map(|k| f(k).to_vec()).collect()
}

/// The span of the node at `path` in a parsed copy of `bytes`: where the parser puts it
/// (for nodes inside a structure whose layout the test does not rebuild by hand).
fn span_of(name: &str, bytes: &[u8], path: &str) -> Span {
    let mut p = open(name, bytes.to_vec());
    let id = p.document_mut().find_path_expanding(path).unwrap_or_else(|| panic!("{path} in {name}"));
    p.document().node(id).expect("a node").span
}

fn field(name: &str, old: Option<String>, new: Option<String>) -> FieldChange {
    FieldChange { name: name.into(), old, new }
}

fn bytes_change(path: &str, kind: &str, a: Span, b: Span, fields: Vec<FieldChange>) -> Change {
    Change {
        path: path.into(),
        kind: kind.into(),
        a: Some(a),
        b: Some(b),
        what: What::Bytes { new_kind: None, fields },
    }
}

/// The SC6 pair: a bank of clips 0–2 with slot 3 an alias of clip 0; B changes clip 1's
/// keyframe 3 root.x word 300 → 1300 and makes slot 3 play clip 1.
struct Sc6Pair {
    a: Vec<u8>,
    b: Vec<u8>,
    expected: Vec<Change>,
}

fn sc6_pair() -> Sc6Pair {
    let c0 = sc6_clip(root_keys(10, |k| [3 * k * k, 956, -20 * k, 0]));
    let c1 = root_keys(8, |k| [100 * k, 50, 0, 0]);
    let c2 = sc6_clip(root_keys(5, |k| [0, 10 * k, 0, 0]));
    let mut c1b = c1.clone();
    c1b[3][0] = 1300;
    let (e1, e1b) = (sc6_clip(c1.clone()), sc6_clip(c1b.clone()));
    let a = sc6::write::encode_bank(&[c0.clone(), e1.clone(), c2.clone()], &[0, 1, 2, 0]);
    let b = sc6::write::encode_bank(&[c0.clone(), e1b.clone(), c2], &[0, 1, 2, 1]);

    // The bank (docs/formats/sc6-mot.md#bank): an 8-byte head, a u32 offset per slot, the clips in order, each
    // starting 8-aligned; a clip's span runs to the next one's start.
    let align8 = |n: usize| n.div_ceil(8) as u64 * 8;
    let table = Span::new(8, 8 + 4 * 4);
    let clip0 = Span::new(table.end, table.end + align8(c0.len()));
    let (clip1_a, clip1_b) =
        (Span::new(clip0.end, clip0.end + align8(e1.len())), Span::new(clip0.end, clip0.end + align8(e1b.len())));
    // Slot 3's offset is the alias; slot 2's moves by the length clip 1 gained, but still
    // points at clip[2], so it is left out (a moved pointer).
    let slot3 = |target: Span, of: &str| Some(format!("0x{:08x} → clip[3] (alias of {of})", target.start));
    let offset_table = bytes_change(
        "bank.mot/offset_table",
        "offset table",
        table,
        table,
        vec![field("offset[3]", slot3(clip0, "clip[0]"), slot3(clip1_a, "clip[1]"))],
    );

    // Clip 1's words (docs/formats/sc6-mot.md#group-payload): one group of 8 keyframes, each keyframe's 4 words coded as the
    // second difference of the word's values (docs/formats/sc6-mot.md#symbols-and-deltas; x: 0, 100, 200, 1300, 400, ... gives 0, 0, 0,
    // +1000, -2000, +1000, 0, 0 from keyframe 3 on), in the flat table (docs/formats/sc6-mot.md#code-table: symbol s < 14
    // has the 4-bit code s + 2; #symbols-and-deltas: deltas -2..=1 are symbols 0..=3 with no extra bits,
    // else n extra bits for a delta of bit length n, symbol n + 2, the extra bits the delta
    // mod 2^n).
    let x = |keys: &[Vec<i16>], k: usize| i32::from(keys[k][0]);
    let second = |keys: &[Vec<i16>], k: usize| x(keys, k) - 2 * x(keys, k - 1) + x(keys, k - 2);
    let code = |d: i32| -> (u32, u32, u32) {
        if (-2..=1).contains(&d) {
            return ((d + 2) as u32, 0, 0);
        }
        let n = 32 - if d > 0 { d.leading_zeros() } else { (!d).leading_zeros() };
        (n + 2, n, (d as u32) & ((1 << n) - 1))
    };
    let word = |d: i32| {
        let (sym, n, _) = code(d);
        if n == 0 {
            format!("0b{:04b} sym {sym} → delta {d}", sym + 2)
        } else {
            format!("0b{:04b} sym {sym}, {n} extra bits", sym + 2)
        }
    };
    let extra = |d: i32| {
        let (_, n, raw) = code(d);
        (n > 0).then(|| format!("0b{raw:0w$b} delta {d}", w = n as usize))
    };
    let differing: Vec<usize> = (2..8).filter(|&k| second(&c1, k) != second(&c1b, k)).collect();
    assert_eq!(differing, [3, 4, 5]);
    let mut group_fields: Vec<FieldChange> = differing
        .iter()
        .map(|&k| field(&format!("k{k}.w0"), Some(word(second(&c1, k))), Some(word(second(&c1b, k)))))
        .collect();
    // A codes no extra bits there (all deltas 0); B's extra-bit fields are B's only
    group_fields.extend(differing.iter().map(|&k| field(&format!("k{k}.w0.extra"), None, extra(second(&c1b, k)))));
    let group = |bytes: &[u8]| span_of("bank.mot", bytes, "clip[1]/group[0]");
    let (group_a, group_b) = (group(&a), group(&b));
    // The clip's own bytes after its last group: the padding up to the next clip, grown
    // with the group.
    let tail = |clip: Span, group: Span| Some(format!("{} bytes", clip.end - group.end));
    let clip1 = bytes_change(
        "bank.mot/clip[1]",
        "clip",
        clip1_a,
        clip1_b,
        vec![field("tail", tail(clip1_a, group_a), tail(clip1_b, group_b))],
    );
    // Root words are decoded as word × the f32 0.001 (docs/formats/sc6-mot.md#selector-streams).
    let metres = |w: i32| f64::from(w) * f64::from(0.001f32);
    let key = |keys: &[Vec<i16>]| Some(KeyAt { index: 3, frame: 3.0, value: metres(x(keys, 3)) });
    let anim = Change {
        path: "bank.mot/clip[1]".into(),
        kind: "clip".into(),
        a: Some(clip1_a),
        b: Some(clip1_b),
        what: What::Anim(AnimChange {
            name: "clip 1 (0x1)".into(),
            frames: (8, 8),
            channels_only_in_a: vec![],
            channels_only_in_b: vec![],
            channels: vec![ChannelChange {
                name: "root.x".into(),
                keys: (8, 8),
                key_changes: vec![KeyChange { index: 3, a: key(&c1), b: key(&c1b) }],
                // only keyframe 3's value differs: the largest difference is there
                largest: Some(SampleChange { frame: 3, a: metres(x(&c1, 3)), b: metres(x(&c1b, 3)) }),
            }],
        }),
    };
    let group0 = bytes_change("bank.mot/clip[1]/group[0]", "group", group_a, group_b, group_fields);
    let alias = Change {
        path: "bank.mot/clip[3]".into(),
        kind: "clip".into(),
        a: Some(clip0),
        b: Some(clip1_b),
        what: What::Alias { old: Some("clip[0]".into()), new: Some("clip[1]".into()) },
    };
    Sc6Pair { a, b, expected: vec![offset_table, clip1, anim, group0, alias] }
}

#[test]
fn sc6_words_changed_and_an_alias_redirected() {
    let p = sc6_pair();
    let (cs, summary) =
        diff::changes(&mut *open("bank.mot", p.a.clone()), &mut *open("bank.mot", p.b.clone()), &Options::default());
    assert_eq!(cs, p.expected);
    // clip[2]'s slot offset moved with clip 1's length and was left out
    assert_eq!(summary.moved_pointers, 1);
    // clip[0] and clip[2] are identical (clip[2] only moved)
    assert_eq!(summary.identical_by_kind.get("clip"), Some(&2), "{summary:?}");
    assert_identical_copy("bank.mot", &p.a);
}

// ------------------------------------------------------------------------------ CCSF

/// The CCSF pair: `chara` as the writer makes it; B moves the first ObjCtrl of
/// `ANM_walk` to x = 6 (not 4) at frame 4 and adds an object `DMY_new` with a DummyPos
/// chunk right after Setup, so every later chunk moves by the Index's new entry and the
/// inserted chunk.
struct CcsfPair {
    a: Vec<u8>,
    b: Vec<u8>,
    expected: Vec<Change>,
    /// How far every chunk after Setup moves.
    shift: u64,
}

fn ccsf_pair() -> CcsfPair {
    use ccsf::write::{Chunk, Ctrl};
    let a_file = ccsf::write::chara();
    let mut b_file = a_file.clone();
    let walk = a_file.obj("ANM_walk");
    let mut old_pos = None;
    let mut frames = None;
    let mut hip = None;
    for c in &mut b_file.chunks {
        if let Chunk::Anime { object, frames: n, records } = c
            && *object == walk
            && let Some(Chunk::ObjCtrl { object, pos, .. }) =
                records.iter_mut().find(|r| matches!(r, Chunk::ObjCtrl { .. }))
        {
            old_pos = Some(pos.clone());
            frames = Some(*n as usize);
            hip = Some(*object);
            *pos = Ctrl::keys3(&[(0, [0.0, 0.0, 10.0]), (4, [6.0, 0.0, 10.0])]);
        }
    }
    // A's keys: (0, [0, 0, 10]) and (4, [4, 0, 10])
    assert_eq!(old_pos, Some(Ctrl::keys3(&[(0, [0.0, 0.0, 10.0]), (4, [4.0, 0.0, 10.0])])));
    let frames = frames.expect("ANM_walk has an ObjCtrl");
    let hip = a_file.objects[hip.expect("an object") as usize - 1].0.clone();
    b_file.objects.push(("DMY_new".into(), 0));
    let obj = b_file.obj("DMY_new");
    let setup = b_file.chunks.iter().position(|c| matches!(c, Chunk::Setup)).expect("a Setup");
    b_file.chunks.insert(setup + 1, Chunk::DummyPos { object: obj, pos: [7.0, 8.0, 9.0] });
    let (a, b) = (ccsf::write::write(&a_file), ccsf::write::write(&b_file));

    // The Index (docs/formats/ccsf.md#index-0x0002) sits at 0x3C: an 8-byte chunk head, `size` words; 16 bytes of
    // head and counts, then 32 bytes per file and per object (blank entry 0 included), so
    // size = 2 + 8 * (files + objects). One object more: 32 bytes more.
    let (files, objects) = (a_file.files.len() as u64 + 1, a_file.objects.len() as u64 + 1);
    let size = |objects: u64| 2 + 8 * (files + objects);
    let index = |objects: u64| Span::new(0x3c, 0x3c + 8 + 4 * size(objects));
    let (index_a, index_b) = (index(objects), index(objects + 1));
    let table_start = 0x3c + 16 + 32 * files;
    let index_change = bytes_change(
        "chara.cmp/Index",
        "Index",
        index_a,
        index_b,
        vec![
            field("size", Some(format!("{} words", size(objects))), Some(format!("{} words", size(objects + 1)))),
            field("object_count", Some(objects.to_string()), Some((objects + 1).to_string())),
        ],
    );
    let objects_change = bytes_change(
        "chara.cmp/Index/objects",
        "objects",
        Span::new(table_start, index_a.end),
        Span::new(table_start, index_b.end),
        vec![
            field(&format!("object[{objects}]"), None, Some("\"DMY_new\"".into())),
            // file 0: the blank entry
            field(&format!("object[{objects}].file"), None, Some("0 → blank".into())),
        ],
    );
    // DummyPos: an 8-byte chunk head and 4 words (spec: `u32 object, f32 pos[3]`).
    let dummy_len = 8 + 4 * 4;
    let shift = 32 + dummy_len;
    let setup_a = {
        let p = open("chara.cmp", a.clone());
        let doc = p.document();
        doc.root().children.iter().filter_map(|c| doc.node(*c)).find(|n| n.kind == "Setup").expect("Setup").span
    };
    let dummy_at = setup_a.end + 32;
    let added = Change {
        path: "chara.cmp/DummyPos[DMY_new]".into(),
        kind: "DummyPos".into(),
        a: None,
        b: Some(Span::new(dummy_at, dummy_at + dummy_len)),
        what: What::OnlyInB,
    };
    let moved = |s: Span| Span::new(s.start + shift, s.end + shift);
    let anime_a = span_of("chara.cmp", &a, "Anime[ANM_walk]");
    let pos_path = format!("Anime[ANM_walk]/frame[0]/ObjCtrl[{hip}]/position");
    let pos_a = span_of("chara.cmp", &a, &pos_path);
    let key = |x: f64| Some(KeyAt { index: 1, frame: 4.0, value: x });
    let anim = Change {
        path: "chara.cmp/Anime[ANM_walk]".into(),
        kind: "Anime".into(),
        a: Some(anime_a),
        b: Some(moved(anime_a)),
        what: What::Anim(AnimChange {
            name: "anime ANM_walk".into(),
            frames: (frames, frames),
            channels_only_in_a: vec![],
            channels_only_in_b: vec![],
            channels: vec![ChannelChange {
                name: format!("{hip}.tx"),
                keys: (2, 2),
                key_changes: vec![KeyChange { index: 1, a: key(4.0), b: key(6.0) }],
                // x runs 0 → 4 in A and 0 → 6 in B over frames 0..4: furthest apart at 4
                largest: Some(SampleChange { frame: 4, a: 4.0, b: 6.0 }),
            }],
        }),
    };
    let position = bytes_change(
        &format!("chara.cmp/{pos_path}"),
        "keyed controller",
        pos_a,
        moved(pos_a),
        vec![field("key[1].x", Some("4.0 = 4.0 units".into()), Some("6.0 = 6.0 units".into()))],
    );
    CcsfPair { a, b, expected: vec![index_change, objects_change, added, anim, position], shift }
}

#[test]
fn ccsf_keys_changed_and_a_chunk_inserted() {
    let p = ccsf_pair();
    let (cs, summary) =
        diff::changes(&mut *open("chara.cmp", p.a.clone()), &mut *open("chara.cmp", p.b.clone()), &Options::default());
    assert_eq!(cs, p.expected);
    // Every chunk after the insertion moved by `shift` and, but for the Anime, is equal
    // byte for byte: none of them is reported.
    let (da, db) = (open("chara.cmp", p.a.clone()), open("chara.cmp", p.b.clone()));
    let (doc_a, doc_b) = (da.document(), db.document());
    let setup_end = doc_a
        .root()
        .children
        .iter()
        .filter_map(|c| doc_a.node(*c))
        .find(|n| n.kind == "Setup")
        .expect("Setup")
        .span
        .end;
    let mut moved = 0;
    for n in doc_a.root().children.iter().filter_map(|c| doc_a.node(*c)).filter(|n| n.span.start >= setup_end) {
        let m = doc_b.find_path(&n.key).and_then(|id| doc_b.node(id)).expect("B has the chunk");
        assert_eq!((m.span.start, m.span.end), (n.span.start + p.shift, n.span.end + p.shift), "{}", n.key);
        let path = format!("chara.cmp/{}", n.key);
        if n.key != "Anime[ANM_walk]" {
            assert!(cs.iter().all(|c| c.path != path && !c.path.starts_with(&format!("{path}/"))), "{path}");
            moved += 1;
        }
    }
    assert!(moved >= 5, "{moved}");
    assert!(summary.identical >= moved, "{summary:?}");
    assert_identical_copy("chara.cmp", &p.a);
}

// --------------------------------------------------------------------------- archive

/// The archive pair: `mini.cmp` and the MOTN pair's `multi.mot` as gzip members; B's
/// `multi.mot` is the cut-down one.
fn archive_pair(p: &MotnPair) -> (Vec<u8>, Vec<u8>) {
    let mini = ccsf::write::write(&ccsf::write::mini());
    let a = gzarc::write::archive(&[("mini.cmp".into(), mini.clone()), ("multi.mot".into(), p.a.clone())]);
    let b = gzarc::write::archive(&[("mini.cmp".into(), mini), ("multi.mot".into(), p.b.clone())]);
    (a, b)
}

#[test]
fn archive_with_one_member_replaced() {
    let p = motn_pair();
    let (a, b) = archive_pair(&p);
    let cs = changes("ARCH.BIN", &a, &b);
    // Both members fit a 2048-byte sector: multi.mot is the second sector to the end. Its
    // stored (deflated) bytes differ, which no field names; then the member's changes as
    // in the MOTN pair, under the member's path. mini.cmp is equal and not opened.
    assert!(a.len() == 4096 && b.len() == 4096);
    let member =
        bytes_change("ARCH.BIN/multi.mot", "gzip member", Span::new(2048, 4096), Span::new(2048, 4096), vec![]);
    assert_eq!(cs.first(), Some(&member), "{cs:#?}");
    let inner: Vec<(&'static str, String)> =
        p.expected.iter().map(|(c, path)| (*c, format!("ARCH.BIN/{path}"))).collect();
    assert_eq!(listed(&cs[1..]), inner, "{cs:#?}");
    assert_identical_copy("ARCH.BIN", &a);
}

#[test]
fn a_span_is_reported_in_the_bytes_of_its_member() {
    let p = motn_pair();
    let a = gzarc::write::archive(&[("multi.mot".into(), p.a.clone())]);
    let b = gzarc::write::archive(&[("multi.mot".into(), p.b.clone())]);
    let nested = changes("X.BIN", &a, &b);
    let plain = changes("multi.mot", &p.a, &p.b);
    let spans = |cs: &[Change]| -> Vec<(Option<Span>, Option<Span>)> {
        cs.iter().filter(|c| c.path.contains("/data")).map(|c| (c.a, c.b)).collect()
    };
    assert_eq!(spans(&nested), spans(&plain));
}

// ------------------------------------------------------------------- text goldens

/// `animscope diff A B` as text for each of the four pairs (names from the files' roots,
/// so the temporary directories do not show).
#[test]
fn text_output_of_the_four_pairs() {
    let motn = motn_pair();
    let (arch_a, arch_b) = archive_pair(&motn);
    let (sc6, ccsf) = (sc6_pair(), ccsf_pair());
    let pairs: [(&str, &str, &[u8], &[u8]); 4] = [
        ("motn", "multi.mot", &motn.a, &motn.b),
        ("sc6", "bank.mot", &sc6.a, &sc6.b),
        ("ccsf", "chara.cmp", &ccsf.a, &ccsf.b),
        ("archive", "ARCH.BIN", &arch_a, &arch_b),
    ];
    for (label, name, a, b) in pairs {
        let (_d, pa, pb) = on_disk(name, a, b);
        let (code, out, err) = animscope(&["diff", &pa, &pb]);
        assert_eq!(code, 1, "{err}");
        insta::assert_snapshot!(format!("diff_text_{label}"), out);
    }
}

// ------------------------------------------------------------------- TUI diff mode

mod tui {
    use super::*;
    use animscope::session::Opened;
    use animscope::tui::theme::Theme;
    use animscope::tui::{App, Config, diffview};
    use crossterm::event::KeyEvent;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;
    use ratatui::style::Modifier;

    fn app(name: &str, a: &[u8], b: &[u8]) -> App {
        let mut app = App::new(Opened::from_parsed(open(name, a.to_vec()), Vec::new()), Config::default());
        app.start_diff(Opened::from_parsed(open(name, b.to_vec()), Vec::new()));
        app.wait_idle();
        app
    }

    use crate::support::{press, render};

    fn rows(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height).map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>()).collect()
    }

    fn selected(app: &App) -> String {
        diffview::full_path(&app.workspace, app.sel.0, app.sel.1)
    }

    /// The paths `>` visits: each change's node (a node only B has: its parent).
    fn targets(p: &MotnPair) -> Vec<String> {
        p.expected
            .iter()
            .map(|(what, path)| {
                if *what == "only_in_b" {
                    path.rsplit_once('/').map_or(path.clone(), |(p, _)| p.to_string())
                } else {
                    path.clone()
                }
            })
            .collect()
    }

    #[test]
    fn next_and_previous_change_walk_the_list_and_wrap() {
        let p = motn_pair();
        let want = targets(&p);
        let mut app = app("multi.mot", &p.a, &p.b);
        assert!(
            app.message.as_ref().is_some_and(|m| m.1.contains(&format!("{} changes", want.len()))),
            "{:?}",
            app.message
        );
        for w in &want {
            press(&mut app, ">");
            assert_eq!(&selected(&app), w);
        }
        press(&mut app, ">");
        assert_eq!(selected(&app), want[0], "wraps to the first");
        press(&mut app, "<");
        assert_eq!(&selected(&app), want.last().expect("changes"), "and back to the last");
        press(&mut app, "<");
        assert_eq!(selected(&app), want[want.len() - 2]);
        // an identical copy: nothing to visit
        let mut same = super::tui::app("multi.mot", &p.a, &p.a);
        let before = same.sel;
        press(&mut same, ">");
        assert_eq!(same.sel, before);
        assert!(same.message.as_ref().is_some_and(|m| m.1.contains("no differences")));
    }

    #[test]
    fn a_key_picks_the_second_file() {
        let p = motn_pair();
        let (_d, _a, b) = on_disk("multi.mot", &p.a, &p.b);
        let mut app = App::new(Opened::from_parsed(open("multi.mot", p.a.clone()), Vec::new()), Config::default());
        assert!(app.diff.is_none());
        press(&mut app, "D");
        for ch in b.chars() {
            app.handle_key(KeyEvent::new(crossterm::event::KeyCode::Char(ch), crossterm::event::KeyModifiers::NONE));
        }
        press(&mut app, "enter");
        assert_eq!(app.diff.as_ref().map(|d| d.changes.len()), Some(p.expected.len()), "{:?}", app.message);
        press(&mut app, ">");
        assert_eq!(selected(&app), targets(&p)[0]);
        // a file that is not there: a message, diff mode unchanged
        press(&mut app, "D");
        for ch in "/nonexistent/b.mot".chars() {
            app.handle_key(KeyEvent::new(crossterm::event::KeyCode::Char(ch), crossterm::event::KeyModifiers::NONE));
        }
        press(&mut app, "enter");
        assert!(app.message.as_ref().is_some_and(|m| m.1.starts_with("diff: ")), "{:?}", app.message);
        assert!(app.diff.is_some());
    }

    #[test]
    fn the_tree_marks_changed_removed_and_added_nodes() {
        let p = motn_pair();
        let mut app = app("multi.mot", &p.a, &p.b);
        // the removed channels are under block5: go there (the sequence opens on the way)
        let removed_at = p.expected.iter().position(|(w, _)| *w == "only_in_a").expect("a removed channel");
        for _ in 0..=removed_at {
            press(&mut app, ">");
        }
        // the tree pane only: its 32 columns at this size
        let screen: Vec<String> =
            rows(&render(&mut app, 160, 60)).iter().map(|r| r.chars().take(32).collect()).collect();
        let row = |needle: &str| -> Option<&String> { screen.iter().find(|r| r.contains(needle)) };
        let mark_before = |needle: &str| -> Option<char> {
            let r = row(needle)?;
            let at = r.find(needle)?;
            r[..at].trim_end().chars().last()
        };
        // (the sequence's bare name: its parent says it is a sequence)
        assert_eq!(mark_before("YKI_WALK  31 frames"), Some('~'), "{screen:#?}");
        assert_eq!(mark_before("header  sequence hea"), Some('~'), "{screen:#?}");
        assert_eq!(mark_before(&format!("{}  chan", p.removed[0])), Some('-'), "{screen:#?}");
        assert_eq!(mark_before("block5"), Some('·'), "{screen:#?}");
        // data: a padding run only B has, inside the sequence's table extent: data holds a change
        assert_eq!(mark_before("data  sequence"), Some('·'), "{screen:#?}");
        // a sequence that did not change has no mark
        let test_seq = row("TEST_SEQ  10 frames").expect("TEST_SEQ is listed");
        assert!(test_seq.contains("▸ TEST_SEQ"), "nothing between the symbol and the name: {test_seq}");
    }

    #[test]
    fn hex_shows_both_byte_runs_with_the_differences_highlighted() {
        let p = motn_pair();
        let mut app = app("multi.mot", &p.a, &p.b);
        press(&mut app, "> >"); // the sequence header
        assert!(selected(&app).ends_with("seq[YKI_WALK]/header"));
        let buf = render(&mut app, 160, 60);
        let screen = rows(&buf);
        assert!(screen.iter().any(|r| r.contains("A / B · multi.mot/data/seq[YKI_WALK]/header")), "{screen:#?}");
        let start = app.workspace.docs[0].doc().node(app.sel.1).expect("a node").span.start;
        let a_row = screen.iter().position(|r| r.contains(&format!("A {start:08x} "))).expect("A's row");
        let b_row = screen.iter().position(|r| r.contains(&format!("B {start:08x} "))).expect("B's row");
        assert_eq!(b_row, a_row + 1);
        // the header's first 8 bytes: the frame count and kind are kept, block offsets
        // move; the highlighted cells are exactly the bytes that differ
        let col = screen[a_row].find(&format!("A {start:08x} ")).expect("found") + format!("A {start:08x} ").len();
        let (sa, _) = (start as usize, 0);
        let old = &p.a[sa..sa + 8];
        let new = &p.b[sa..sa + 8];
        for i in 0..8 {
            let x = u16::try_from(screen[a_row][..col].chars().count() + 3 * i).expect("fits");
            for (row, bytes) in [(a_row, old), (b_row, new)] {
                let cell = &buf[(x, u16::try_from(row).expect("fits"))];
                let lit = cell.modifier.contains(Modifier::REVERSED);
                assert_eq!(lit, old[i] != new[i], "byte {i} of row {row}: {:02x}", bytes[i]);
            }
        }
        assert!(old != new);
    }

    #[test]
    fn decode_overlays_the_other_files_curve() {
        let c0 = sc6_clip(root_keys(10, |k| [3 * k * k, 956, -20 * k, 0]));
        let c1 = root_keys(8, |k| [100 * k, 50, 0, 0]);
        let mut c1b = c1.clone();
        c1b[3][0] = 1300;
        let a = sc6::write::encode_bank(&[c0.clone(), sc6_clip(c1)], &[0, 1]);
        let b = sc6::write::encode_bank(&[c0, sc6_clip(c1b)], &[0, 1]);
        let mut app = app("bank.mot", &a, &b);
        for _ in 0..8 {
            if selected(&app) == "bank.mot/clip[1]" {
                break;
            }
            press(&mut app, ">");
        }
        assert_eq!(selected(&app), "bank.mot/clip[1]");
        press(&mut app, "4");
        let buf = render(&mut app, 160, 48);
        let screen = rows(&buf);
        assert!(screen.iter().any(|r| r.contains("Decode A/B · clip 1")), "{screen:#?}");
        let dim = Theme::colour().dim;
        let overlay_cells = buf
            .content
            .iter()
            .filter(|c| {
                c.symbol().chars().next().is_some_and(|ch| ('\u{2801}'..='\u{28ff}').contains(&ch))
                    && c.fg == dim.fg.unwrap_or_default()
            })
            .count();
        assert!(overlay_cells > 0, "B's curve shows where it leaves A's:\n{}", screen.join("\n"));
        // clip[0] is the same in both: nothing overlaid shows
        app.diff = None;
        let plain = render(&mut app, 160, 48);
        let dim_cells = plain
            .content
            .iter()
            .filter(|c| {
                c.symbol().chars().next().is_some_and(|ch| ('\u{2801}'..='\u{28ff}').contains(&ch))
                    && c.fg == dim.fg.unwrap_or_default()
            })
            .count();
        assert_eq!(dim_cells, 0, "without diff mode no curve is drawn dim");
    }

    /// The A/B decode view counts the channels one side lacks, as `diff --summary` does.
    #[test]
    fn decode_says_how_many_channels_only_one_side_has() {
        let p = motn_pair();
        let mut app = app("multi.mot", &p.a, &p.b);
        press(&mut app, ">");
        assert_eq!(selected(&app), "multi.mot/data/seq[YKI_WALK]");
        press(&mut app, "4");
        let want = format!("{} channels only in A", p.removed.len());
        for (w, h) in [(160, 48), (100, 30)] {
            let screen = rows(&render(&mut app, w, h)).join("\n");
            assert!(screen.contains("Decode A/B"), "{screen}");
            assert!(screen.contains(&want), "{w}x{h}:\n{screen}");
        }
        // a sequence both sides have whole says nothing of the kind
        press(&mut app, "g");
        for ch in "TEST_SEQ".chars() {
            app.handle_key(KeyEvent::new(crossterm::event::KeyCode::Char(ch), crossterm::event::KeyModifiers::NONE));
        }
        press(&mut app, "enter");
        let screen = rows(&render(&mut app, 160, 48)).join("\n");
        assert!(screen.contains("Decode A/B · TEST_SEQ") && !screen.contains("only in"), "{screen}");
    }

    fn draw_now(app: &mut App, w: u16, h: u16) -> Vec<String> {
        let mut term = Terminal::new(TestBackend::new(w, h)).expect("a terminal");
        term.draw(|f| animscope::tui::draw(app, f)).expect("draws");
        rows(term.backend().buffer())
    }

    #[test]
    fn the_changes_are_computed_in_the_background_with_progress_shown() {
        let p = motn_pair();
        let mut app = App::new(Opened::from_parsed(open("multi.mot", p.a.clone()), Vec::new()), Config::default());
        app.start_diff(Opened::from_parsed(open("multi.mot", p.b.clone()), Vec::new()));
        // The result waits for the UI to take it between frames: until then the mode is
        // computing, the status line says how far it got, and keys work as usual.
        assert!(app.diff.as_ref().is_some_and(|d| d.computing.is_some() && d.changes.is_empty()));
        let status = draw_now(&mut app, 120, 30).pop().expect("a status line");
        assert!(status.contains("⧗ diff: ") && status.contains("structures compared"), "{status}");
        let before = app.sel;
        app.handle_key(KeyEvent::new(crossterm::event::KeyCode::Down, crossterm::event::KeyModifiers::NONE));
        assert_ne!(app.sel, before, "the tree moves while the diff runs");
        app.handle_key(KeyEvent::new(crossterm::event::KeyCode::Char('>'), crossterm::event::KeyModifiers::NONE));
        assert!(app.message.as_ref().is_some_and(|m| m.1.contains("still comparing")), "{:?}", app.message);
        // poll the job to its end
        app.wait_idle();
        let view = app.diff.as_ref().expect("diff mode");
        assert!(view.computing.is_none());
        assert_eq!(view.changes.len(), p.expected.len());
        assert!(app.message.as_ref().is_some_and(|m| m.1.contains(&format!("{} changes", p.expected.len()))));
        let status = draw_now(&mut app, 120, 30).pop().expect("a status line");
        assert!(!status.contains("⧗ diff"), "{status}");
        press(&mut app, ">");
        assert_eq!(selected(&app), targets(&p)[0]);
    }

    #[test]
    fn next_and_previous_change_go_on_into_archive_members() {
        let p = motn_pair();
        let (a, b) = super::archive_pair(&p);
        let mut app = app("ARCH.BIN", &a, &b);
        // the member's own change, then (the member opened on the way) the first inside it
        press(&mut app, ">");
        assert_eq!(selected(&app), "ARCH.BIN/multi.mot");
        press(&mut app, ">");
        let inner: Vec<String> = targets(&p).iter().map(|t| format!("ARCH.BIN/{t}")).collect();
        assert_eq!(selected(&app), inner[0]);
        // backwards from the first change: the last one, inside the member
        let mut back = super::tui::app("ARCH.BIN", &a, &b);
        press(&mut back, "<");
        assert_eq!(&selected(&back), inner.last().expect("changes"));
    }

    #[test]
    fn a_range_row_is_marked_when_a_node_in_it_changed() {
        let p = motn_pair();
        let mut app = app("multi.mot", &p.a, &p.b);
        press(&mut app, ">"); // builds the sequence list on the way
        let view = app.diff.as_ref().expect("diff mode");
        let doc = app.workspace.docs[0].doc();
        let data = doc.find_path("data").expect("data");
        let kids = doc.node(data).expect("a node").children.clone();
        let seq = |name: &str| {
            kids.iter().copied().find(|c| doc.node(*c).is_some_and(|n| n.key == format!("seq[{name}]"))).expect(name)
        };
        let (changed, same) = (seq("YKI_WALK"), seq("TEST_SEQ"));
        assert_eq!(diffview::range_mark(&view.marks, &app.workspace, 0, &[same, changed]), Some(diffview::MARK_INSIDE));
        assert_eq!(diffview::range_mark(&view.marks, &app.workspace, 0, &[same]), None);
    }
}

/// `diff --summary`: one line per changed animation or top-level structure, counted from
/// how the pair was built (the cut sequence's changes, the padding only in B under `data`).
#[test]
fn motn_pair_summary() {
    let p = motn_pair();
    let (_d, a, b) = on_disk("multi.mot", &p.a, &p.b);
    let (code, out, err) = animscope(&["diff", &a, &b, "--summary"]);
    assert_eq!(code, 1, "{err}");
    let seq = "multi.mot/data/seq[YKI_WALK]";
    let in_seq: Vec<&(&str, String)> = p.expected.iter().filter(|(_, path)| path.starts_with(seq)).collect();
    let count = |k: &str| in_seq.iter().filter(|(c, _)| *c == k).count();
    let want_seq = format!(
        "{seq}  sequence  {} changes (1 animation, {} changed, {} only in A, {} only in B) · animation: {} channels only in A",
        in_seq.len(),
        count("bytes"),
        count("only_in_a"),
        count("only_in_b"),
        p.removed.len()
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..1], [want_seq.as_str()], "{out}");
    assert!(lines[1].starts_with(&format!("{} changes (", p.expected.len())), "{out}");
    // JSON: one object per unit, then the totals
    let (code, out, _) = animscope(&["diff", &a, &b, "--summary", "--json"]);
    assert_eq!(code, 1);
    let units: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(units.len(), 2, "{out}");
    assert_eq!(units[0]["unit"], seq);
    assert_eq!(units[0]["changes"], in_seq.len());
    assert_eq!(units[0]["anim"]["channels_only_in_a"], p.removed.len());
    assert_eq!(units[0]["by_change"]["only_in_b"], 1);
    assert!(units[1]["summary"].is_object());
}

/// A sequence with an alias changed: the summary line, the text report and the JSON name
/// the alias. B is `multi.mot` with TEST_SEQ's last Root.py key value 1.0 → 2.0 (f16
/// 0x3c00 → 0x4000 at 0x1b4, read from the fixture's fields listing); `seq[ERROR]` plays
/// the same data (the fixture's alias).
#[test]
fn a_changed_sequence_names_its_aliases() {
    let a = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/motn/multi.mot")).expect("the fixture");
    assert_eq!(a[0x1b4..0x1b6], [0x00, 0x3c], "f16 1.0 where the fixture's TEST_SEQ Root.py key[2] value is");
    let mut b = a.clone();
    b[0x1b5] = 0x40;
    let (_d, pa, pb) = on_disk("multi.mot", &a, &b);
    let (code, out, err) = animscope(&["diff", &pa, &pb, "--summary"]);
    assert_eq!(code, 1, "{err}");
    let first = out.lines().next().unwrap_or("");
    assert!(first.starts_with("multi.mot/data/seq[TEST_SEQ]  sequence  "), "{out}");
    assert!(first.ends_with(" · animation: 1 channel differ · also named seq[ERROR]"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("multi.mot/")).count(), 1, "{out}");
    let (_, text, _) = animscope(&["diff", &pa, &pb]);
    assert!(text.contains("animation   multi.mot/data/seq[TEST_SEQ]  sequence"), "{text}");
    assert!(text.contains("\n    also named: seq[ERROR]\n"), "{text}");
    assert!(text.contains("    Root.py: key 2: 1.0 @ frame 9.0 → 2.0 @ frame 9.0"), "{text}");
    let (_, json, _) = animscope(&["diff", &pa, &pb, "--json"]);
    let anim = json.lines().find(|l| l.contains("\"change\":\"anim\"")).expect("an anim change");
    let anim: serde_json::Value = serde_json::from_str(anim).expect("JSON");
    assert_eq!(anim["aliases"], serde_json::json!(["seq[ERROR]"]));
}

/// The TUI's in-app diff (`D`, then a path) opens the second file as the first was opened:
/// with `--format raw` forced on the first, the second is compared as raw bytes too (one
/// change over the bytes), not sniffed as MOTN (changes inside its sequences).
#[test]
fn in_app_diff_opens_the_second_file_as_the_first() {
    use animscope::session::Opened;
    use animscope::tui::{App, Config};
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let open = |forced: Option<&str>| {
        let a =
            Opened::open_path("fixtures/motn/vector_a.mot".as_ref(), Default::default(), forced, &Limits::default())
                .unwrap();
        let mut app = App::new(a, Config::default());
        crate::support::press(&mut app, "D");
        for ch in "fixtures/motn/vector_b.mot".chars() {
            app.handle_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE));
        }
        app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        app.wait_idle();
        app.poll_jobs();
        let view = app.diff.as_ref().expect("diff mode");
        assert!(view.computing.is_none(), "the comparison finished");
        view.changes.iter().map(|c| c.path.clone()).collect::<Vec<_>>()
    };
    let sniffed = open(None);
    assert!(sniffed.iter().any(|p| p.contains("seq[")), "sniffed as MOTN: {sniffed:?}");
    let raw = open(Some("raw"));
    assert!(!raw.is_empty() && raw.iter().all(|p| !p.contains("seq[")), "compared as raw: {raw:?}");
}
