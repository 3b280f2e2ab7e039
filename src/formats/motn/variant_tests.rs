//! Variant layouts: the spec's hand-annotated vectors (docs/formats/motn.md#baked-frame-layout and docs/formats/motn.md#node-track-layout)
//! parsed field by field and written byte for byte, writer → parser → decoder round trips
//! for both layouts (proptest), and the strict checks.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::float_cmp, clippy::expect_used, clippy::panic)]

use super::*;
use crate::formats::motn::Motn;
use crate::formats::motn::parse::read_seq_header;
use crate::formats::motn::write::{
    self, BakedFrame, BakedSpec, NodeTrackSpec, RecordSpec, ScaleSpec, baked_values_per_node, binary_angle,
};
use proptest::prelude::*;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// docs/formats/motn.md#baked-frame-layout, one line per field as the spec annotates it (74 bytes).
#[rustfmt::skip]
const BAKED_EXAMPLE: [u8; 74] = [
    0x03, 0x00,                         // frame_word: n = 3
    0x00, 0x80,                         // kind_word 0x8000: baked, skeleton type 0
    0x14, 0x00,                         // stride = 20
    0x00, 0x00, 0x00, 0x80, 0x04, 0x00, 0x00, 0x00, // mask0..3: mask1 bit 15 -> node 31; mask2 bit 2 -> node 34
    0x00, 0x00, 0x00, 0x3c, 0x00, 0x00, // frame 0: root px, py, pz = 0, 1.0, 0 (f16)
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //          root rx, ry, rz = 0, 0, 0
    0x00, 0x01, 0x00, 0x02, 0x00, 0x00, //          node 31 rx, ry, rz = 0x0100 (1.40625 deg), 0x0200, 0
    0x00, 0x10,                         //          node 34 bend = 0x1000 (22.5 deg)
    0x00, 0x00, 0x00, 0x3c, 0x00, 0x34, // frame 1: root pos = 0, 1.0, 0.25
    0x00, 0x00, 0x00, 0x40, 0x00, 0x00, //          root ry = 0x4000 (90 deg)
    0x80, 0x01, 0x00, 0x02, 0x00, 0x00, //          node 31 rx = 0x0180
    0x00, 0x18,                         //          node 34 bend = 0x1800 (33.75 deg)
    0x00, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // frame 2 = copy of frame 0 (loop closure)
    0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x10,
];

/// The spec's contiguous form of docs/formats/motn.md#baked-frame-layout, as printed.
const BAKED_EXAMPLE_CONTIGUOUS: &str = "03 00 00 80 14 00 00 00 00 80 04 00 00 00 00 00 00 3c 00 00 00 00 00 00 00 00 00 01 \
    00 02 00 00 00 10 00 00 00 3c 00 34 00 00 00 40 00 00 80 01 00 02 00 00 00 18 00 00 00 3c 00 00 \
    00 00 00 00 00 00 00 01 00 02 00 00 00 10";

/// docs/formats/motn.md#node-track-layout, one line per field as the spec annotates it (130 bytes).
#[rustfmt::skip]
const TRACK_EXAMPLE: [u8; 130] = [
    0x02, 0x00, 0xff, 0xff,             // 00 n = 2; kind_word 0xFFFF
    0x00, 0x3c, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, // 04 unk_04 = 1.0; unk_06 = 0; k = 2; unk_0A = 0
    0x00, 0x00,                         // 0C rec0 scale_ofs = 0 (static)
    0x00, 0x3c, 0x00, 0x3c, 0x00, 0x3c, // 0E      scale = 1, 1, 1
    0x4c, 0x00, 0x00, 0x00,             // 14      rx: track @0x4C, first sample 0
    0x52, 0x00, 0x00, 0x00,             // 18      ry: track @0x52, first sample 0
    0x58, 0x00, 0x00, 0x70,             // 1C      rz: track @0x58, first sample 0x7000 (157.5 deg)
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x38, 0x00, 0x00, 0x00, 0x00, // 20 px = 0, py = 0.5, pz = 0 (offsets 0)
    0x5e, 0x00,                         // 2C rec1 scale_ofs = 0x5E
    0x00, 0x3c, 0x00, 0x3c, 0x00, 0x3c, // 2E      static scale = first block sample = 1, 1, 1
    0x70, 0x00, 0x00, 0x00, 0x76, 0x00, 0x00, 0x08, 0x7c, 0x00, 0x00, 0x00, // 34 rx @0x70 (0), ry @0x76 (0x0800), rz @0x7C (0)
    0x00, 0x00, 0x00, 0x34, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // 40 px = 0.25, py = 0, pz = 0
    0x00, 0x00, 0x00, 0x20, 0x00, 0x40, // 4C rec0 rx = 0, 0x2000 (45 deg), 0x4000 (90 deg)
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // 52 rec0 ry = 0, 0, 0
    0x00, 0x70, 0x00, 0x80, 0x00, 0x90, // 58 rec0 rz = 0x7000, 0x8000 (180), 0x9000 (-157.5): wraps
    0x00, 0x3c, 0x00, 0x3c, 0x00, 0x3c, // 5E rec1 scale frame 0 = 1, 1, 1
    0x00, 0x3c, 0x00, 0x3c, 0x00, 0x3e, // 64           frame 1 = 1, 1, 1.5
    0x00, 0x3c, 0x00, 0x3c, 0x00, 0x40, // 6A           frame 2 = 1, 1, 2.0
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // 70 rec1 rx
    0x00, 0x08, 0x00, 0x08, 0x00, 0x08, // 76 rec1 ry = 0x0800 (11.25 deg) x3
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // 7C rec1 rz; sequence ends at 0x82
];

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace().map(|w| u8::from_str_radix(w, 16).unwrap()).collect()
}

fn parse_at0(bytes: &[u8]) -> Result<Variant> {
    let b = Bytes::new(bytes);
    let hd = read_seq_header(&b, 0).unwrap();
    parse(&b, &hd, b.end(), &Limits::default())
}

fn deg(d: f64) -> f64 {
    d.to_radians()
}

/// Element-wise equal within 1e-12 (degrees → radians rounds differently from s16 → radians).
fn near(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12)
}

#[test]
fn baked_vector_parses_as_the_spec_says() {
    assert_eq!(hex(BAKED_EXAMPLE_CONTIGUOUS), BAKED_EXAMPLE.to_vec(), "the annotated and contiguous forms agree");
    let Variant::Baked(s) = parse_at0(&BAKED_EXAMPLE).unwrap() else { panic!("baked") };
    assert_eq!((s.frames(), s.skeleton_type(), s.stride), (3, 0, 20));
    assert_eq!(s.masks, [0, 0x8000, 0x0004, 0]);
    assert_eq!(s.mask(), (1 << 31) | (1 << 34));
    assert_eq!(s.nodes, vec![(31, 3), (34, 1)]);
    assert_eq!(s.end, 74);
    // only the loop-closure note
    assert_eq!(s.findings.len(), 1, "{:?}", s.findings);
    assert_eq!((s.findings[0].offset, s.findings[0].severity), (14 + 2 * 20, Severity::Info));
    let cols: Vec<(u8, &str, u64)> = s.columns().iter().map(|c| (c.node, c.channel, c.rel)).collect();
    assert_eq!(
        cols,
        vec![
            (0, "px", 0),
            (0, "py", 2),
            (0, "pz", 4),
            (0, "rx", 6),
            (0, "ry", 8),
            (0, "rz", 10),
            (31, "rx", 12),
            (31, "ry", 14),
            (31, "rz", 16),
            (34, "bend", 18)
        ]
    );
    let b = Bytes::new(&BAKED_EXAMPLE);
    let clip = clip("B", &Variant::Baked(s), &b, None, true).unwrap();
    assert_eq!((clip.fps, clip.frame_count), (30.0, 3));
    let t = |n: &str| clip.track(n).unwrap_or_else(|| panic!("{n}")).samples.clone();
    assert_eq!(t("Root.py"), vec![1.0, 1.0, 1.0]);
    assert_eq!(t("Root.pz"), vec![0.0, 0.25, 0.0]);
    assert_eq!(t("Root.ry"), vec![0.0, FRAC_PI_2, 0.0]);
    assert!(near(&t("Shoulder_L.rx"), &[deg(1.40625), deg(2.109375), deg(1.40625)]));
    assert!(near(&t("Shoulder_L.ry"), &[deg(2.8125); 3]));
    assert!(near(&t("node_34.bend"), &[deg(22.5), deg(33.75), deg(22.5)]));
    assert!(clip.tracks.iter().all(|t| t.keys.is_empty()), "dense: sampled, not keyed");
    assert_eq!(clip.track("Root.px").unwrap().unit, Unit::GameUnits);
    assert_eq!(clip.track("node_34.bend").unwrap().unit, Unit::Radians);
    assert!(clip.notes.iter().any(|n| n.contains("axis is unknown")), "{:?}", clip.notes);
}

#[test]
fn baked_vector_is_what_the_writer_makes() {
    let frame = |pos: [f32; 3], ry: i16, rx31: i16, bend: i16| BakedFrame {
        root_position: pos,
        root_rotation: [0, ry, 0],
        values: vec![rx31, 0x0200, 0, bend],
    };
    let spec = BakedSpec {
        skeleton_type: 0,
        nodes: vec![34, 31], // any order: written ascending
        frames: vec![
            frame([0.0, 1.0, 0.0], 0, 0x0100, 0x1000),
            frame([0.0, 1.0, 0.25], 0x4000, 0x0180, 0x1800),
            frame([0.0, 1.0, 0.0], 0, 0x0100, 0x1000),
        ],
    };
    assert_eq!(spec.stride(), 20);
    assert_eq!(write::encode_baked(&spec).unwrap(), BAKED_EXAMPLE.to_vec());
    assert_eq!(write::encode_baked(&write::baked_example()).unwrap(), BAKED_EXAMPLE.to_vec());
}

#[test]
fn node_track_vector_parses_as_the_spec_says() {
    let Variant::NodeTrack(s) = parse_at0(&TRACK_EXAMPLE).unwrap() else { panic!("node track") };
    assert_eq!((s.frames(), s.samples(), s.k), (2, 3, 2));
    assert_eq!((s.unk_04, s.unk_06, s.unk_0a), (0x3c00, 0, 0));
    assert_eq!(s.table_end(), 0x4c);
    assert_eq!(s.end, 0x82);
    assert!(s.findings.is_empty(), "{:?}", s.findings);
    let r0 = &s.records[0];
    assert_eq!((r0.at, r0.scale_ofs, r0.scale), (0x0c, 0, [0x3c00; 3]));
    assert_eq!(r0.rotation, [(0x4c, 0), (0x52, 0), (0x58, 0x7000)]);
    assert_eq!(r0.translation, [(0, 0), (0, 0x3800), (0, 0)]);
    let r1 = &s.records[1];
    assert_eq!((r1.at, r1.scale_ofs, r1.scale), (0x2c, 0x5e, [0x3c00; 3]));
    assert_eq!(r1.rotation, [(0x70, 0), (0x76, 0x0800), (0x7c, 0)]);
    assert_eq!(r1.translation, [(0, 0x3400), (0, 0), (0, 0)]);
    let blocks: Vec<(String, u64, u64)> = s.blocks.iter().map(|b| (b.name(), b.start, b.end)).collect();
    assert_eq!(
        blocks,
        [
            ("record[0].rx", 0x4c, 0x52),
            ("record[0].ry", 0x52, 0x58),
            ("record[0].rz", 0x58, 0x5e),
            ("record[1].scale", 0x5e, 0x70),
            ("record[1].rx", 0x70, 0x76),
            ("record[1].ry", 0x76, 0x7c),
            ("record[1].rz", 0x7c, 0x82),
        ]
        .map(|(n, a, b)| (n.to_string(), a, b))
    );
    let b = Bytes::new(&TRACK_EXAMPLE);
    let clip = clip("T", &Variant::NodeTrack(s), &b, None, true).unwrap();
    assert_eq!(clip.frame_count, 3, "n + 1 samples");
    let t = |n: &str| clip.track(n).unwrap_or_else(|| panic!("{n}")).samples.clone();
    assert!(near(&t("record[0].rx"), &[0.0, deg(45.0), FRAC_PI_2]));
    assert!(near(&t("record[0].rz"), &[deg(157.5), -PI, deg(-157.5)]), "wraps at ±180° as stored");
    assert_eq!(t("record[0].py"), vec![0.5; 3]);
    assert_eq!(t("record[0].sz"), vec![1.0; 3]);
    assert_eq!(t("record[1].sz"), vec![1.0, 1.5, 2.0]);
    assert_eq!(t("record[1].sx"), vec![1.0; 3]);
    assert!(near(&t("record[1].ry"), &[deg(11.25); 3]));
    assert_eq!(t("record[1].px"), vec![0.25; 3]);
    let names: Vec<&str> = clip.tracks.iter().take(9).map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "record[0].px",
            "record[0].py",
            "record[0].pz",
            "record[0].rx",
            "record[0].ry",
            "record[0].rz",
            "record[0].sx",
            "record[0].sy",
            "record[0].sz"
        ]
    );
    assert!(clip.notes.iter().any(|n| n.contains("no known mapping to model nodes")), "{:?}", clip.notes);
}

#[test]
fn node_track_vector_is_what_the_writer_makes() {
    let a = |v: u16| v as i16;
    let spec = NodeTrackSpec {
        frames: 2,
        records: vec![
            RecordSpec {
                scale: ScaleSpec::Static([1.0, 1.0, 1.0]),
                rotation: [vec![0, 0x2000, 0x4000], vec![0, 0, 0], vec![0x7000, a(0x8000), a(0x9000)]],
                translation: [0.0, 0.5, 0.0],
            },
            RecordSpec {
                scale: ScaleSpec::Animated(vec![[1.0, 1.0, 1.0], [1.0, 1.0, 1.5], [1.0, 1.0, 2.0]]),
                rotation: [vec![0, 0, 0], vec![0x0800, 0x0800, 0x0800], vec![0, 0, 0]],
                translation: [0.25, 0.0, 0.0],
            },
        ],
    };
    assert_eq!(write::encode_node_track(&spec).unwrap(), TRACK_EXAMPLE.to_vec());
    assert_eq!(write::encode_node_track(&write::node_track_example()).unwrap(), TRACK_EXAMPLE.to_vec());
}

#[test]
fn binary_angles_round_and_wrap() {
    assert_eq!(binary_angle(0.25), 0x4000);
    assert_eq!(binary_angle(0.5), -32768);
    assert_eq!(binary_angle(-0.5), -32768);
    assert_eq!(binary_angle(-0.25), -0x4000);
    assert_eq!(binary_angle(1.0), 0);
    assert_eq!(binary_angle(0.49999), 32767);
    assert_eq!(binary_angle(22.5 / 360.0), 0x1000);
    assert_eq!(angle_deg(0x1000), 22.5);
    assert_eq!(angle_rad(-32768), -PI);
    assert_eq!(angle_rad(0x4000), TAU / 4.0);
}

#[test]
fn layouts_follow_the_kind_word() {
    assert_eq!(Layout::of(0), Layout::Standard);
    assert_eq!(Layout::of(0x0d), Layout::Standard);
    assert_eq!(Layout::of(0x8000), Layout::Baked);
    assert_eq!(Layout::of(0x800d), Layout::Baked);
    assert_eq!(Layout::of(0xfffe), Layout::Baked);
    assert_eq!(Layout::of(0xffff), Layout::NodeTrack);
}

/// Every strict rule fails with its own error at the offending field; nothing is read
/// past `limit`.
#[test]
fn strict_checks_are_errors_with_offsets() {
    let err = |bytes: &[u8], limit: u64| {
        let b = Bytes::new(bytes);
        let hd = read_seq_header(&b, 0).unwrap();
        parse(&b, &hd, limit, &Limits::default()).unwrap_err()
    };
    let patch = |src: &[u8], at: usize, w: u16| {
        let mut v = src.to_vec();
        v[at..at + 2].copy_from_slice(&w.to_le_bytes());
        v
    };
    // B: wide flag, n = 0, mask bit 0, stride, truncated final frame (limit one byte short)
    let e = err(&patch(&BAKED_EXAMPLE, 0, 0x8003), 74);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "frame_word", .. }) && e.offset == 0, "{e}");
    let e = err(&patch(&BAKED_EXAMPLE, 0, 0), 74);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "frame count", .. }) && e.offset == 0, "{e}");
    let e = err(&patch(&BAKED_EXAMPLE, 6, 1), 74);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "node mask", .. }) && e.offset == 6, "{e}");
    let e = err(&patch(&BAKED_EXAMPLE, 4, 18), 74);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "stride", .. }) && e.offset == 4, "{e}");
    let e = err(&BAKED_EXAMPLE, 73);
    assert_eq!((e.offset, e.kind), (14, ErrorKind::CountTooLarge { what: "baked frame", count: 3, max: 2 }));
    // T: n = 0, k = 0, record table past the limit, odd / inside-table / past-limit /
    // overlapping blocks, a translation offset
    let e = err(&patch(&TRACK_EXAMPLE, 0, 0), 130);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "frame count", .. }), "{e}");
    let e = err(&patch(&TRACK_EXAMPLE, 8, 0), 130);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "record count", .. }) && e.offset == 8, "{e}");
    let e = err(&TRACK_EXAMPLE, 60);
    assert_eq!((e.offset, e.kind), (12, ErrorKind::CountTooLarge { what: "node-track record", count: 2, max: 1 }));
    let e = err(&patch(&TRACK_EXAMPLE, 0x18, 0x53), 130);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "block offset", .. }) && e.offset == 0x18, "{e}");
    let e = err(&patch(&TRACK_EXAMPLE, 0x14, 0x40), 130);
    assert_eq!(
        (e.offset, e.kind),
        (0x14, ErrorKind::OffsetOutOfRange { what: "node-track block", offset: 0x40, start: 0x4c, end: 130 })
    );
    let e = err(&TRACK_EXAMPLE, 0x80);
    assert_eq!(
        (e.offset, e.kind),
        (0x3c, ErrorKind::OffsetOutOfRange { what: "node-track block end", offset: 0x82, start: 0x4c, end: 0x80 })
    );
    let e = err(&patch(&TRACK_EXAMPLE, 0x34, 0x76), 130);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "block offsets", .. }) && e.offset == 0x38, "{e}");
    let e = err(&patch(&TRACK_EXAMPLE, 0x24, 0x4c), 130);
    assert!(matches!(e.kind, ErrorKind::Unsupported(_)) && e.offset == 0x24, "{e}");
}

/// Rules the spec calls "warn" are findings, not errors.
#[test]
fn soft_checks_are_findings() {
    let mut v = TRACK_EXAMPLE.to_vec();
    v[0x1e] = 0x01; // rz0 0x7001 ≠ sample 0 (0x7000)
    v[6] = 0x05; // unk_06 = 5
    let Variant::NodeTrack(s) = parse_at0(&v).unwrap() else { panic!() };
    let got: Vec<(u64, Severity)> = s.findings.iter().map(|f| (f.offset, f.severity)).collect();
    assert_eq!(got, vec![(6, Severity::Warning), (0x1e, Severity::Warning)], "{:?}", s.findings);
    // a gap after the sequence (limit beyond its end) is a warning at the end
    let mut more = BAKED_EXAMPLE.to_vec();
    more.extend([0, 0]);
    let Variant::Baked(s) = parse_at0(&more).unwrap() else { panic!() };
    assert!(s.findings.iter().any(|f| f.offset == 74 && f.severity == Severity::Warning), "{:?}", s.findings);
    // mask3 set: nodes 48..63, a warning
    let spec = BakedSpec {
        skeleton_type: 0x0d,
        nodes: vec![50],
        frames: vec![BakedFrame { root_position: [0.0; 3], root_rotation: [0; 3], values: vec![1, 2, 3] }],
    };
    let Variant::Baked(s) = parse_at0(&write::encode_baked(&spec).unwrap()).unwrap() else { panic!() };
    assert_eq!(s.nodes, vec![(50, 3)]);
    assert_eq!(s.findings.iter().map(|f| f.offset).collect::<Vec<_>>(), vec![12]);
}

#[test]
fn writer_rejects_bad_inputs() {
    let mut b = write::baked_example();
    b.frames[1].values.pop();
    assert!(write::encode_baked(&b).is_err());
    let mut b = write::baked_example();
    b.nodes.push(0);
    assert!(write::encode_baked(&b).is_err());
    let mut b = write::baked_example();
    b.nodes.push(31);
    assert!(write::encode_baked(&b).is_err());
    let mut b = write::baked_example();
    b.frames.clear();
    assert!(write::encode_baked(&b).is_err());
    let mut t = write::node_track_example();
    t.records[0].rotation[1].pop();
    assert!(write::encode_node_track(&t).is_err());
    let mut t = write::node_track_example();
    t.records.clear();
    assert!(write::encode_node_track(&t).is_err());
    let mut t = write::node_track_example();
    t.frames = 3;
    assert!(write::encode_node_track(&t).is_err());
}

fn f16r(v: f32) -> f64 {
    f64::from(half::f16::from_f32(v).to_f32())
}

fn arb_pos() -> impl Strategy<Value = [f32; 3]> {
    [-8.0f32..8.0, -8.0f32..8.0, -8.0f32..8.0]
}

fn arb_baked() -> impl Strategy<Value = BakedSpec> {
    // Skeleton type 0x7FFF would make the kind word 0xFFFF, which is the node-track layout
    // (docs/formats/motn.md#node-track-layout): not a baked sequence.
    (0u16..0x7fff, proptest::collection::btree_set(1u8..64, 0..10), 1usize..24).prop_flat_map(|(ty, nodes, n)| {
        let nodes: Vec<u8> = nodes.into_iter().collect();
        let values: usize = nodes.iter().map(|&id| baked_values_per_node(id)).sum();
        let frame =
            (arb_pos(), [any::<i16>(), any::<i16>(), any::<i16>()], proptest::collection::vec(any::<i16>(), values))
                .prop_map(|(root_position, root_rotation, values)| BakedFrame { root_position, root_rotation, values });
        (Just(ty), Just(nodes), proptest::collection::vec(frame, n))
            .prop_map(|(skeleton_type, nodes, frames)| BakedSpec { skeleton_type, nodes, frames })
    })
}

fn arb_node_track() -> impl Strategy<Value = NodeTrackSpec> {
    (1u16..16, 1usize..5).prop_flat_map(|(n, k)| {
        let s = usize::from(n) + 1;
        let track = move || proptest::collection::vec(any::<i16>(), s);
        let scale = prop_oneof![
            arb_pos().prop_map(ScaleSpec::Static),
            proptest::collection::vec(arb_pos(), s).prop_map(ScaleSpec::Animated),
        ];
        let record = (scale, [track(), track(), track()], arb_pos())
            .prop_map(|(scale, rotation, translation)| RecordSpec { scale, rotation, translation });
        (Just(n), proptest::collection::vec(record, k)).prop_map(|(frames, records)| NodeTrackSpec { frames, records })
    })
}

/// A one-sequence file around `seq` (base 0x50 for a name this short).
fn file_of(seq: Vec<u8>) -> Vec<u8> {
    write::encode_file(&[("VAR".into(), seq)], None)
}

fn decode(file: &[u8], curves_only: bool) -> Clip {
    let opts = DecodeOptions { curves_only, ..DecodeOptions::default() };
    Motn.decode(file, "seq:VAR", &opts, &Limits::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Writer → parser → decoder for baked-frame sequences: the layout is detected from the
    /// kind word, the parse gives back the spec's header, nodes and size, the clip has one
    /// sample per frame equal to the inputs (f16-rounded positions, angles × 2π/65536), the
    /// document keeps the span contract and the strict check finds nothing but mask3.
    #[test]
    fn baked_round_trip(spec in arb_baked()) {
        let bytes = write::encode_baked(&spec).unwrap();
        // the generator produced a baked-frame case of the size the formula gives
        prop_assert_eq!(Layout::of(u16::from_le_bytes([bytes[2], bytes[3]])), Layout::Baked);
        prop_assert_eq!(bytes.len(), 14 + spec.frames.len() * spec.stride());
        let Variant::Baked(s) = parse_at0(&bytes).unwrap() else { panic!("baked") };
        prop_assert_eq!(usize::from(s.frames()), spec.frames.len());
        prop_assert_eq!(s.skeleton_type(), spec.skeleton_type);
        prop_assert_eq!(s.nodes.iter().map(|(id, _)| *id).collect::<Vec<_>>(), spec.sorted_nodes());
        prop_assert_eq!(s.end, bytes.len() as u64);
        let file = file_of(bytes);
        let clip = decode(&file, false);
        prop_assert_eq!(clip.frame_count, spec.frames.len());
        let ty = spec.skeleton_type;
        let mut want: Vec<(String, Vec<f64>)> = Vec::new();
        for (a, c) in ["px", "py", "pz"].iter().enumerate() {
            want.push((format!("{}.{c}", node_name(ty, 0)), spec.frames.iter().map(|f| f16r(f.root_position[a])).collect()));
        }
        for (a, c) in ["rx", "ry", "rz"].iter().enumerate() {
            want.push((format!("{}.{c}", node_name(ty, 0)), spec.frames.iter().map(|f| angle_rad(f.root_rotation[a])).collect()));
        }
        let mut i = 0;
        for id in spec.sorted_nodes() {
            let chans: &[&str] = if baked_values_per_node(id) == 1 { &["bend"] } else { &["rx", "ry", "rz"] };
            for c in chans {
                want.push((format!("{}.{c}", node_name(ty, id)), spec.frames.iter().map(|f| angle_rad(f.values[i])).collect()));
                i += 1;
            }
        }
        let got: Vec<(String, Vec<f64>)> = clip.tracks.iter().map(|t| (t.name.clone(), t.samples.clone())).collect();
        prop_assert_eq!(got, want);
        let curves = decode(&file, true);
        prop_assert!(curves.tables.is_empty());
        prop_assert_eq!(&curves.tracks, &clip.tracks);
        let lim = Limits::default();
        let doc = Motn.describe(&file, "v.mot", &lim).unwrap();
        prop_assert_eq!(doc.validate(), Ok(()));
        let found = Motn.check(&file, "v.mot", &lim).unwrap();
        let mask3 = spec.nodes.iter().any(|&id| id >= 48);
        prop_assert_eq!(found.len(), usize::from(mask3), "{:?}", found);
    }

    /// Writer → parser → decoder for node-track sequences: n + 1 samples per track, blocks
    /// laid out back to back from 12 + 32k, every track equal to its input.
    #[test]
    fn node_track_round_trip(spec in arb_node_track()) {
        let bytes = write::encode_node_track(&spec).unwrap();
        prop_assert_eq!(Layout::of(u16::from_le_bytes([bytes[2], bytes[3]])), Layout::NodeTrack);
        let s = usize::from(spec.frames) + 1;
        let k = spec.records.len();
        let animated = spec.records.iter().filter(|r| matches!(r.scale, ScaleSpec::Animated(_))).count();
        // the size rule of docs/formats/motn.md#node-track-layout
        prop_assert_eq!(bytes.len(), 12 + 32 * k + 6 * k * s + 6 * s * animated);
        let Variant::NodeTrack(p) = parse_at0(&bytes).unwrap() else { panic!("node track") };
        prop_assert!(p.findings.is_empty(), "{:?}", p.findings);
        prop_assert_eq!(usize::from(p.k), k);
        prop_assert_eq!(p.blocks.len(), 3 * k + animated);
        prop_assert!(p.blocks.windows(2).all(|w| w[0].end == w[1].start));
        let file = file_of(bytes);
        let clip = decode(&file, false);
        prop_assert_eq!(clip.frame_count, s);
        let mut want: Vec<(String, Vec<f64>)> = Vec::new();
        for (r, rec) in spec.records.iter().enumerate() {
            for (a, c) in ["px", "py", "pz"].iter().enumerate() {
                want.push((format!("record[{r}].{c}"), vec![f16r(rec.translation[a]); s]));
            }
            for (a, c) in ["rx", "ry", "rz"].iter().enumerate() {
                want.push((format!("record[{r}].{c}"), rec.rotation[a].iter().map(|v| angle_rad(*v)).collect()));
            }
            for (a, c) in ["sx", "sy", "sz"].iter().enumerate() {
                let v = match &rec.scale {
                    ScaleSpec::Static(t) => vec![f16r(t[a]); s],
                    ScaleSpec::Animated(f) => f.iter().map(|t| f16r(t[a])).collect(),
                };
                want.push((format!("record[{r}].{c}"), v));
            }
        }
        let got: Vec<(String, Vec<f64>)> = clip.tracks.iter().map(|t| (t.name.clone(), t.samples.clone())).collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(&decode(&file, true).tracks, &clip.tracks);
        let lim = Limits::default();
        let doc = Motn.describe(&file, "v.mot", &lim).unwrap();
        prop_assert_eq!(doc.validate(), Ok(()));
        prop_assert_eq!(Motn.check(&file, "v.mot", &lim).unwrap(), vec![]);
    }
}

/// The strategies reach the cases the spec's writer sections ask for: hinge and plain
/// masks, angles on both sides of ±180°, mask3 nodes, n = 1, static and animated scales.
#[test]
fn strategies_cover_the_writer_cases() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut hinge, mut plain, mut high, mut wrap) = (false, false, false, false);
    for _ in 0..64 {
        let s = arb_baked().new_tree(&mut runner).unwrap().current();
        hinge |= s.nodes.iter().any(|n| write::HINGE_NODES.contains(n));
        plain |= !s.nodes.is_empty() && s.nodes.iter().all(|n| !write::HINGE_NODES.contains(n));
        high |= s.nodes.iter().any(|&n| n >= 48);
        wrap |= s
            .frames
            .windows(2)
            .any(|w| (i32::from(w[0].root_rotation[1]) - i32::from(w[1].root_rotation[1])).abs() > 32768);
    }
    assert!(hinge && plain && high && wrap, "hinge {hinge} plain {plain} mask3 {high} wrap {wrap}");
    let (mut one, mut stat, mut anim) = (false, false, false);
    for _ in 0..64 {
        let s = arb_node_track().new_tree(&mut runner).unwrap().current();
        one |= s.frames == 1;
        stat |= s.records.iter().any(|r| matches!(r.scale, ScaleSpec::Static(_)));
        anim |= s.records.iter().any(|r| matches!(r.scale, ScaleSpec::Animated(_)));
    }
    assert!(one && stat && anim, "n=1 {one} static {stat} animated {anim}");
}
