//! The comparison on hand-built documents and clips (expected values written from how
//! each pair was built).

use super::*;
use crate::model::anim::{Key, Unit};
use crate::model::{Field, Value};

fn parsed(bytes: Vec<u8>, build: impl Fn(&mut Document)) -> Box<dyn Parsed> {
    let mut doc = Document::new("raw", "f.bin", "file", bytes.len() as u64, &crate::limits::Limits::default());
    build(&mut doc);
    formats::with_document(Arc::new(Source::from_vec("f.bin", bytes)), doc)
}

/// A header of 4 bytes with a `count` field, then one 4-byte record per entry of `recs`
/// keyed `rec[NAME]`, then a 2-byte gap keyed by its offset.
fn file(recs: &[(&str, [u8; 4])]) -> Box<dyn Parsed> {
    let mut bytes = vec![recs.len() as u8, 0, 0, 0];
    for (_, r) in recs {
        bytes.extend_from_slice(r);
    }
    bytes.extend_from_slice(&[0, 0]);
    let names: Vec<String> = recs.iter().map(|(n, _)| (*n).to_string()).collect();
    parsed(bytes, move |d| {
        let h = d.add_node(NodeId::ROOT, "header", "header", Span::new(0, 4));
        d.add_field(h, Field::new("count", Span::new(0, 1), Value::dec(names.len() as u64)));
        for (i, n) in names.iter().enumerate() {
            let at = 4 + 4 * i as u64;
            let r = d.add_node(NodeId::ROOT, format!("rec[{n}]"), "record", Span::new(at, at + 4));
            d.add_field(r, Field::new("word", Span::new(at, at + 4), Value::dec(0)));
        }
        let end = 4 + 4 * names.len() as u64;
        d.add_node(NodeId::ROOT, format!("gap@0x{end:x}"), "gap", Span::new(end, end + 2));
    })
}

fn run(a: &mut dyn Parsed, b: &mut dyn Parsed) -> (Vec<(String, &'static str)>, Summary) {
    let (cs, s) = changes(a, b, &Options::default());
    (cs.into_iter().map(|c| (c.path, c.what.name())).collect(), s)
}

#[test]
fn an_identical_copy_has_no_changes() {
    let (cs, s) = run(&mut *file(&[("x", [1; 4])]), &mut *file(&[("x", [1; 4])]));
    assert!(cs.is_empty());
    assert_eq!((s.identical, s.differs()), (1, false));
}

#[test]
fn an_inserted_record_shifts_nothing_else() {
    // B inserts rec[new] before rec[b]: rec[b] and the gap move by 4 bytes but are equal.
    let mut a = file(&[("a", [1; 4]), ("b", [2; 4])]);
    let mut b = file(&[("a", [1; 4]), ("new", [9; 4]), ("b", [2; 4])]);
    let (cs, s) = changes(&mut *a, &mut *b, &Options::default());
    let listed: Vec<(String, &str)> = cs.iter().map(|c| (c.path.clone(), c.what.name())).collect();
    assert_eq!(listed, [("f.bin/header".to_string(), "bytes"), ("f.bin/rec[new]".to_string(), "only_in_b")], "{cs:#?}");
    let What::Bytes { fields, .. } = &cs[0].what else { panic!() };
    assert_eq!(fields, &[FieldChange { name: "count".into(), old: Some("2".into()), new: Some("3".into()) }]);
    assert_eq!(cs[1].b, Some(Span::new(8, 12)));
    // rec[a], rec[b], gap@… equal; the root differs only inside its children
    assert_eq!((s.identical, s.containers), (3, 1));
    assert_eq!(s.identical_by_kind.get("record"), Some(&2));
}

#[test]
fn a_removed_and_a_changed_record() {
    let mut a = file(&[("a", [1; 4]), ("b", [2; 4])]);
    let mut b = file(&[("b", [3; 4])]);
    let (cs, _) = run(&mut *a, &mut *b);
    assert_eq!(
        cs,
        [
            ("f.bin/header".to_string(), "bytes"),
            ("f.bin/rec[a]".to_string(), "only_in_a"),
            ("f.bin/rec[b]".to_string(), "bytes"),
        ]
    );
}

#[test]
fn offset_keys_align_by_name() {
    assert_eq!(align_key("padding@0x11f"), "padding");
    assert_eq!(align_key("gap@0x"), "gap@0x");
    assert_eq!(align_key("a@b"), "a@b");
    assert_eq!(align_key("clip[3]"), "clip[3]");
}

#[test]
fn repeated_fields_match_by_position() {
    let f = |v: u64| Field::new("x", Span::new(0, 1), Value::dec(v));
    let (got, moved) = field_changes(&[f(1), f(2)], &[f(1), f(3), f(4)]);
    assert!(moved.is_empty());
    assert_eq!(
        got,
        [
            FieldChange { name: "x#2".into(), old: Some("2".into()), new: Some("3".into()) },
            FieldChange { name: "x#3".into(), old: None, new: Some("4".into()) },
        ]
    );
}

#[test]
fn a_pointer_that_only_moved_is_left_out() {
    let to = |v: u64, t: &str| Value::uint(v, 4).refers(t);
    // the same target by name: only the offset moved
    assert!(moved_pointer(&to(0xb8, "clip[2]"), &to(0xc0, "clip[2]")));
    assert!(moved_pointer(&Value::dec(184).refers("Anime[ANM_walk]"), &Value::dec(240).refers("Anime[ANM_walk]")));
    // another target, a target that is itself an offset, the same offset, no pointer: kept
    assert!(!moved_pointer(&to(0x18, "clip[3] (alias of clip[0])"), &to(0x78, "clip[3] (alias of clip[1])")));
    assert!(!moved_pointer(&to(0x20, "0x248"), &to(0x19, "0x241")));
    assert!(!moved_pointer(&to(0x20, "clip[2]"), &to(0x20, "clip[2]")));
    assert!(!moved_pointer(&Value::dec(218), &Value::dec(226)));
    let ptr = |at: u64, v: u64| Field::new("offset", Span::new(at, at + 4), to(v, "clip[2]"));
    let (got, moved) = field_changes(&[ptr(8, 0xb8)], &[ptr(8, 0xc0)]);
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(moved, [(Span::new(8, 12), Span::new(8, 12))]);
}

fn track(name: &str, keys: &[(f64, f64)], samples: &[f64]) -> Track {
    Track {
        name: name.into(),
        target: String::new(),
        unit: Unit::Unitless,
        keys: keys.iter().map(|&(frame, value)| Key { frame, value, detail: String::new() }).collect(),
        samples: samples.to_vec(),
        unknown: false,
    }
}

fn clip(frames: usize, tracks: Vec<Track>) -> Clip {
    let mut c = Clip::new("c", 30.0, frames);
    c.tracks = tracks;
    c
}

#[test]
fn clips_report_channels_keys_and_the_largest_difference() {
    let a = clip(3, vec![track("x", &[(0.0, 1.0), (2.0, 3.0)], &[1.0, 2.0, 3.0]), track("gone", &[], &[0.0; 3])]);
    let b = clip(3, vec![track("x", &[(0.0, 1.0), (2.0, 3.5)], &[1.0, 2.25, 3.5]), track("new", &[], &[0.0; 3])]);
    let c = compare_clips(&a, &b, &Options::default()).unwrap();
    assert_eq!(
        (c.frames, c.channels_only_in_a.clone(), c.channels_only_in_b.clone()),
        ((3, 3), vec!["gone".to_string()], vec!["new".to_string()])
    );
    assert_eq!(c.channels.len(), 1);
    let x = &c.channels[0];
    assert_eq!(x.keys, (2, 2));
    assert_eq!(
        x.key_changes,
        [KeyChange {
            index: 1,
            a: Some(KeyAt { index: 1, frame: 2.0, value: 3.0 }),
            b: Some(KeyAt { index: 1, frame: 2.0, value: 3.5 })
        }]
    );
    assert_eq!(x.largest, Some(SampleChange { frame: 2, a: 3.0, b: 3.5 }));
    // within a tolerance of 0.5 the values are equal; the channel sets still differ
    let c = compare_clips(&a, &b, &Options { tolerance: 0.5, ..Options::default() }).unwrap();
    assert!(c.channels.is_empty());
    assert!(compare_clips(&a, &a, &Options::default()).is_none());
}

#[test]
fn all_keys_lists_every_differing_key() {
    let a = clip(2, vec![track("x", &[(0.0, 1.0), (1.0, 1.0), (2.0, 1.0)], &[])]);
    let b = clip(2, vec![track("x", &[(0.0, 2.0), (1.0, 1.0)], &[])]);
    let first = compare_clips(&a, &b, &Options::default()).unwrap();
    assert_eq!(first.channels[0].key_changes.iter().map(|k| k.index).collect::<Vec<_>>(), [0]);
    let all = compare_clips(&a, &b, &Options { all_keys: true, ..Options::default() }).unwrap();
    assert_eq!(all.channels[0].key_changes.iter().map(|k| k.index).collect::<Vec<_>>(), [0, 2]);
    assert_eq!(all.channels[0].key_changes[1].b, None);
}
