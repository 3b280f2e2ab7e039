//! Spec vectors parsed field by field, encoder → parser round-trips, and decode checks.
#![allow(
    clippy::type_complexity,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::float_cmp,
    clippy::expect_used,
    clippy::panic
)]

use super::decode::{eval_keys, evaluate};
use super::parse::{self, Header};
use super::write::{self, ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec};
use super::{Channel, Motn};
use crate::bytes::Bytes;
use crate::error::ErrorKind;
use crate::formats::{DecodeOptions, Format};
use crate::limits::Limits;
use proptest::prelude::*;

/// docs/formats/motn.md#vectors-a-and-b vector A, one comment per field (values from the spec's prose).
#[rustfmt::skip]
const VECTOR_A: [u8; 142] = [
    0x20, 0x00, 0x00, 0x00, // table_ofs = 0x20
    0x40, 0x00, 0x00, 0x00, // names_ofs = 0x40
    0x50, 0x00, 0x00, 0x00, // data_ofs = 0x50
    0x02, 0x00, 0x00, 0x00, // attributes: 2 = 1 sequence + 1
    0x8e, 0x00, 0x00, 0x00, // file_size = 142
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // header padding to 0x20
    0x00, 0x00, 0x00, 0x00, // table[0].data_rel = 0 (relative to data_ofs)
    0x30, 0x00, 0x00, 0x00, // table[0].extra_ofs = 0x30 (absolute)
    0, 0, 0, 0, 0, 0, 0, 0, // terminator entry
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // extra record: 16 zero bytes
    0x44, 0x00, 0x00, 0x00, // name pointer[0] = 0x44
    b'T', b'E', b'S', b'T', b'_', b'S', b'E', b'Q', 0x00, // "TEST_SEQ\0"
    0x00, 0x00, 0x00, // pad to 4 → data_ofs 0x50
    0x0a, 0x00, // frame_word: n = 10, u8 block 2
    0x00, 0x00, // kind_word 0
    0x12, 0x00, // b2
    0x18, 0x00, // b3
    0x1b, 0x00, // b4
    0x22, 0x00, // b5
    0xc0, 0x01, // instr 0x01C0: node 0, px py pz
    0x38, 0x0a, // instr 0x0A38: node 5, rx ry rz
    0x00, 0x00, // terminator
    0x00, 0x01, 0x00, 0x02, 0x00, 0x00, // counts: px 0, py 1, pz 0, rx 2, ry 0, rz 0
    0x04, // py frame 4
    0x03, 0x03, // rx frames 3, 3 (duplicate)
    0xf0, // px codes 3, 3
    0x64, // py codes 1, 2, 1
    0x00, // pz codes 0, 0
    0x55, // rx codes 1, 1, 1, 1
    0x00, // ry
    0x00, // rz
    0x00, // pad to even → b5
    0x00, 0x00, 0x00, 0x42, 0x00, 0x00, // px key 0: in 0, out 3.0, value 0
    0x00, 0x42, 0x00, 0x00, 0x33, 0x3b, // px key 1: in 3.0, out 0, value 0.9 (0.89990234375)
    0x00, 0x3c, // py key 0: 1.0
    0x00, 0x3a, 0x00, 0x3e, // py key 1: tangent 0.75, value 1.5
    0x00, 0x3c, // py key 2: 1.0
    0x00, 0x38, 0x00, 0x38, 0x00, 0xb8, 0x00, 0xb8, // rx: 0.5, 0.5, -0.5, -0.5
];

fn seq_of(data: &[u8], name: &str) -> parse::Sequence {
    let b = Bytes::new(data);
    let h = Header::read(&b).unwrap();
    let e = parse::read_entries(&b, &h, &Limits::default()).unwrap();
    let e = e.iter().find(|e| e.display_name() == name).unwrap();
    parse::parse_sequence(&b, e.base(&h), &Limits::default()).unwrap()
}

#[test]
fn vector_a_parses_as_the_spec_says() {
    let b = Bytes::new(&VECTOR_A);
    let h = Header::read(&b).unwrap();
    assert_eq!((h.table_ofs, h.names_ofs, h.data_ofs, h.file_size), (0x20, 0x40, 0x50, 142));
    assert_eq!(h.seq_count(), 1);
    assert!(h.plausible(142));
    let e = parse::read_entries(&b, &h, &Limits::default()).unwrap();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].name.as_deref().unwrap(), b"TEST_SEQ");
    assert_eq!((e[0].data_rel, e[0].extra_ofs), (0, 0x30));
    let s = seq_of(&VECTOR_A, "TEST_SEQ");
    assert_eq!(s.header.frames(), 10);
    assert!(!s.header.wide2() && !s.header.wide3());
    let body = s.body.as_ref().unwrap();
    assert!(body.findings.is_empty(), "{:?}", body.findings);
    assert_eq!(body.instrs.iter().map(|i| (i.node(), i.channels())).collect::<Vec<_>>(), vec![(0, 0x1c0), (5, 0x38)]);
    let chans: Vec<(u8, Channel, Vec<(u16, u8)>)> =
        body.channels.iter().map(|c| (c.node, c.channel, c.keys.iter().map(|k| (k.frame, k.code)).collect())).collect();
    assert_eq!(
        chans,
        vec![
            (0, Channel::Px, vec![(0, 3), (9, 3)]),
            (0, Channel::Py, vec![(0, 1), (4, 2), (9, 1)]),
            (0, Channel::Pz, vec![(0, 0), (9, 0)]),
            (5, Channel::Rx, vec![(0, 1), (3, 1), (3, 1), (9, 1)]),
            (5, Channel::Ry, vec![(0, 0), (9, 0)]),
            (5, Channel::Rz, vec![(0, 0), (9, 0)]),
        ]
    );
    let px = &body.channels[0].keys;
    assert_eq!((px[0].in_tangent(), px[0].out_tangent(), px[0].value()), (0.0, 3.0, 0.0));
    assert_eq!((px[1].in_tangent(), px[1].out_tangent(), px[1].value()), (3.0, 0.0, 0.899_902_34));
    let py = &body.channels[1].keys;
    assert_eq!((py[1].in_tangent(), py[1].out_tangent(), py[1].value()), (0.75, 0.75, 1.5));
    assert_eq!(body.end, 142);
    // spec table, through the parsed keys
    let ev = eval_keys(&body.channels[1]);
    assert!((evaluate(&ev, 2.5) - 1.327_148).abs() < 1e-5);
    assert!((evaluate(&eval_keys(&body.channels[0]), 8.0) - 0.799_906).abs() < 1e-5);
    assert_eq!(evaluate(&eval_keys(&body.channels[3]), 3.0), 0.5);
    assert_eq!(evaluate(&eval_keys(&body.channels[3]), 3.5), -0.5);
}

#[test]
fn vector_a_is_what_the_writer_makes() {
    assert_eq!(write::fixtures()[0].1, VECTOR_A.to_vec());
}

/// docs/formats/motn.md#vectors-a-and-b vector B (sequence bytes only), one comment per field.
#[rustfmt::skip]
const VECTOR_B: [u8; 32] = [
    0x2c, 0x01, // frame_word: n = 300
    0x00, 0x00, // kind_word 0
    0x10, 0x00, // b2
    0x14, 0x00, // b3 (after 1 pad byte)
    0x16, 0x00, // b4
    0x1a, 0x00, // b5 (after 1 pad byte)
    0xc0, 0x01, 0x00, 0x00, // instr node 0 pos XYZ, terminator
    0x01, 0x00, 0x00, // counts 1, 0, 0
    0x00, // pad: u16 block 3 starts even
    0x96, 0x00, // px frame 150 (u16, n > 255)
    0x54, 0x00, 0x00, // codes: px 1,1,1; py 0,0; pz 0,0
    0x00, // pad
    0x00, 0x00, 0x00, 0x40, 0x00, 0x00, // px values 0.0, 2.0, 0.0
];

#[test]
fn vector_b_parses_with_wide_frames_and_pads() {
    let s = parse::parse_sequence(&Bytes::new(&VECTOR_B), 0, &Limits::default()).unwrap();
    assert!(s.header.wide3() && !s.header.wide2());
    let body = s.body.unwrap();
    assert!(body.findings.is_empty(), "{:?}", body.findings);
    let px: Vec<(u16, f32)> = body.channels[0].keys.iter().map(|k| (k.frame, k.value())).collect();
    assert_eq!(px, vec![(0, 0.0), (150, 2.0), (299, 0.0)]);
    assert_eq!(body.end, 32);
}

#[test]
fn bad_sequences_are_specific_errors() {
    let lim = Limits::default();
    // b3 > b4
    let mut v = VECTOR_B;
    v[6] = 0x17;
    let e = parse::parse_sequence(&Bytes::new(&v), 0, &lim).unwrap_err();
    assert_eq!(e.offset, 4);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "block offsets", .. }));
    // b5 past the end
    let e = parse::parse_sequence(&Bytes::new(&VECTOR_B[..25]), 0, &lim).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OffsetOutOfRange { what: "block 5", offset: 0x1a, start: 0, end: 25 });
    // no terminator
    let mut v = VECTOR_B;
    v[14] = 0x38;
    v[15] = 0x02;
    let mut more = v.to_vec();
    more.truncate(16);
    let mut hd = more.clone();
    hd[10] = 0x10;
    hd[8] = 0x10;
    hd[6] = 0x10;
    hd[4] = 0x10;
    let e = parse::parse_sequence(&Bytes::new(&hd), 0, &lim).unwrap_err();
    assert_eq!(e.offset, 12);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "block 1", .. }));
    // count past the end: px claims 200 frames (u16 each)
    let mut v = VECTOR_B;
    v[16] = 200;
    let e = parse::parse_sequence(&Bytes::new(&v), 0, &lim).unwrap_err();
    assert_eq!(e.offset, 0x14);
    assert!(matches!(e.kind, ErrorKind::CountTooLarge { what: "block 3 frame", count: 200, .. }));
}

#[test]
fn decode_gives_named_tracks_in_units() {
    let clip = Motn.decode(&VECTOR_A, "seq:TEST_SEQ", &DecodeOptions::default(), &Limits::default()).unwrap();
    assert_eq!((clip.fps, clip.frame_count), (30.0, 10));
    let names: Vec<&str> = clip.tracks.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Root.px", "Root.py", "Root.pz", "UpperLeg_R.rx", "UpperLeg_R.ry", "UpperLeg_R.rz"]);
    let rx = clip.track("UpperLeg_R.rx").unwrap();
    assert_eq!(rx.unit, crate::model::anim::Unit::Radians);
    // stored ±0.5 turns = ±π radians
    let pi = std::f64::consts::PI;
    assert_eq!(rx.samples, vec![pi, pi, pi, pi, -pi, -pi, -pi, -pi, -pi, -pi]);
    assert_eq!(rx.keys[0].detail, "code 1 in 0.0 out 0.0 value 0.5 (stored turns, = 180.0°)");
    let py = clip.track("Root.py").unwrap();
    assert_eq!(py.keys[1].detail, "code 2 in 0.75 out 0.75");
    assert!((py.samples[6] - 1.342).abs() < 1e-5);
    assert_eq!(clip.tables[1].rows.len(), 15);
    let e = Motn.decode(&VECTOR_A, "seq:NOPE", &DecodeOptions::default(), &Limits::default()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::NotFound(_)));
}

/// Rotations are stored in turns (docs/formats/motn.md#conventions): a root `ry` that turns by 0.5 decodes to π
/// radians (halfway: π/2), and the fields pane shows the stored 0.5 as turns and 180°.
#[test]
fn rotation_turns_decode_to_radians_and_describe_shows_turns_and_degrees() {
    let keys =
        vec![KeySpec { frame: 0, values: KeyValues::Zero }, KeySpec { frame: 10, values: KeyValues::Value(0.5) }];
    let spec = SequenceSpec {
        frames: 11,
        kind_word: 0,
        nodes: vec![NodeSpec { node: 0, channels: vec![ChannelSpec { channel: Channel::Ry, keys }] }],
    };
    let file = write::encode_file(&[("TURN180".into(), write::encode_sequence(&spec).unwrap())], None);
    let lim = Limits::default();
    let clip = Motn.decode(&file, "seq:TURN180", &DecodeOptions::default(), &lim).unwrap();
    let ry = clip.track("Root.ry").unwrap();
    assert_eq!(ry.unit, crate::model::anim::Unit::Radians);
    assert_eq!((ry.samples[0], ry.samples[10]), (0.0, std::f64::consts::PI));
    assert!((ry.samples[5] - std::f64::consts::FRAC_PI_2).abs() < 1e-12, "{}", ry.samples[5]);
    assert_eq!(ry.keys[1].value, std::f64::consts::PI);
    assert!(clip.notes.iter().any(|n| n.contains("stored in turns")), "{:?}", clip.notes);
    let keys = &clip.tables[1];
    assert_eq!(keys.columns[6..8], ["value".to_string(), "stored unit".to_string()]);
    assert_eq!(keys.rows[1][6..8], ["0.5".to_string(), "turns".to_string()]);
    let doc = Motn.describe(&file, "t.mot", &lim).unwrap();
    let ch = doc.find_path("data/seq[TURN180]/block5/Root.ry").and_then(|id| doc.node(id)).unwrap();
    // key[1]'s value field: the stored half (0.5 = 2⁻¹: exponent 14, 0x3800) in turns, the
    // note its frame, code and 0.5 × 360°
    assert_eq!(ch.fields[1].name, "key[1]");
    assert_eq!(ch.fields[1].value.to_string(), "f16 0x3800 = 0.5 turns");
    assert_eq!(ch.fields[1].note.as_deref(), Some("frame 10 (implicit last key), code 1; 180.0°"));
}

/// The skeleton leaves an extra-data record's two fields to its expansion (MOTION.BIN has
/// 944 records, most of what the skeleton would hold): at open vector A's record is pending
/// without fields, with its summary and walk step; expanded, it has its 12-byte head and
/// 4-byte token stream.
#[test]
fn extra_records_build_their_fields_when_shown() {
    use crate::model::Span;
    let src = std::sync::Arc::new(crate::source::Source::from_vec("a.mot", VECTOR_A.to_vec()));
    let mut doc = super::describe::describe_lazy(&src, &Limits::default()).unwrap();
    let id = doc.find_path("a.mot/extra@0x30").unwrap();
    let n = doc.node(id).unwrap();
    assert!(n.is_pending() && n.fields.is_empty(), "{n:?}");
    assert_eq!((n.span, n.summary.as_str()), (Span::new(0x30, 0x40), "16 bytes, used by 1 sequence (opaque)"));
    let step = doc.walk_steps().find(|s| s.node == Some(id)).unwrap().into_owned();
    assert_eq!(
        (step.span, step.what.as_str(), step.detail.as_str(), step.next),
        (
            Span::new(0x30, 0x40),
            "extra-data record",
            "used by 1 sequence; opaque, extent taken up to the next known structure [I]",
            None
        )
    );
    assert!(doc.expand(id));
    let fields: Vec<(&str, Span)> = doc.node(id).unwrap().fields.iter().map(|f| (f.name.as_str(), f.span)).collect();
    assert_eq!(fields, [("head", Span::new(0x30, 0x3c)), ("tokens", Span::new(0x3c, 0x40))]);
}

#[test]
fn sniff_uses_heuristic_and_names() {
    assert_eq!(Motn.sniff(&VECTOR_A, "x.bin"), 70);
    assert_eq!(Motn.sniff(&VECTOR_A, "MOTION.BIN"), 90);
    assert_eq!(Motn.sniff(&VECTOR_A[..100], "M_FREE.BIN"), 25);
    assert_eq!(Motn.sniff(&VECTOR_A[..100], "free.bin"), 0);
    assert_eq!(Motn.sniff(b"PAKS", "a.mot"), 0);
    assert_eq!(Motn.sniff(&VECTOR_A[..0x14], "a.mot"), 25);
}

fn f16_exact(v: f32) -> f32 {
    half::f16::from_f32(v).to_f32()
}

fn arb_values() -> impl Strategy<Value = KeyValues> {
    let v = -4.0f32..4.0;
    prop_oneof![
        Just(KeyValues::Zero),
        v.clone().prop_map(KeyValues::Value),
        (v.clone(), v.clone()).prop_map(|(tangent, value)| KeyValues::Slope { tangent, value }),
        (v.clone(), v.clone(), v).prop_map(|(in_tangent, out_tangent, value)| KeyValues::InOut {
            in_tangent,
            out_tangent,
            value
        }),
    ]
}

/// A channel for n frames: 0..12 intermediate keys, or 256..300 (forces u16 block 2).
fn arb_channel(n: u16, wide: bool) -> impl Strategy<Value = Vec<KeySpec>> {
    let count = if wide && n >= 3 {
        256usize..300
    } else if n >= 3 {
        0usize..12
    } else {
        0usize..1
    };
    (count, proptest::collection::vec(arb_values(), 302)).prop_flat_map(move |(c, vals)| {
        let frames = if n >= 3 { proptest::collection::vec(1..n - 1, c).boxed() } else { Just(vec![]).boxed() };
        frames.prop_map(move |mut fr| {
            fr.sort_unstable();
            let mut keys = vec![KeySpec { frame: 0, values: vals[0] }];
            keys.extend(fr.iter().enumerate().map(|(i, &f)| KeySpec { frame: f, values: vals[i + 1] }));
            keys.push(KeySpec { frame: n.saturating_sub(1), values: vals[c + 1] });
            keys
        })
    })
}

fn arb_sequence() -> impl Strategy<Value = SequenceSpec> {
    (1u16..400, any::<bool>(), proptest::collection::btree_map(0u8..127, 1u16..0x200, 1..5), 0u16..0x20)
        .prop_flat_map(|(n, wide, nodes, kind)| {
            let chans: Vec<(u8, Channel)> = nodes
                .iter()
                .flat_map(|(&node, &bits)| {
                    Channel::ALL.into_iter().filter(move |c| bits & c.bit() != 0).map(move |c| (node, c))
                })
                .collect();
            let first_wide = wide;
            let strategies: Vec<_> =
                chans.iter().enumerate().map(|(i, _)| arb_channel(n, first_wide && i == 0)).collect();
            (Just(n), Just(kind), Just(chans), strategies)
        })
        .prop_map(|(n, kind, chans, keys)| {
            let mut nodes: Vec<NodeSpec> = Vec::new();
            for ((node, channel), keys) in chans.into_iter().zip(keys) {
                match nodes.iter_mut().find(|x| x.node == node) {
                    Some(x) => x.channels.push(ChannelSpec { channel, keys }),
                    None => nodes.push(NodeSpec { node, channels: vec![ChannelSpec { channel, keys }] }),
                }
            }
            SequenceSpec { frames: n, kind_word: kind, nodes }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Encode → parse gives back every key (frame, code, f16-rounded values) in file order,
    /// the file rules hold (no findings) and the sequence ends exactly where its bytes do.
    #[test]
    fn encode_parse_round_trip(spec in arb_sequence()) {
        let bytes = write::encode_sequence(&spec).unwrap();
        let seq = parse::parse_sequence(&Bytes::new(&bytes), 0, &Limits::default()).unwrap();
        let body = seq.body.as_ref().unwrap();
        prop_assert!(body.findings.is_empty(), "{:?}", body.findings);
        prop_assert_eq!(body.end, bytes.len() as u64);
        let expect = spec.ordered_channels();
        prop_assert_eq!(body.channels.len(), expect.len());
        prop_assert_eq!(seq.header.wide2(), expect.iter().any(|(_, c)| c.keys.len() - 2 > 255));
        for (got, (node, want)) in body.channels.iter().zip(expect) {
            prop_assert_eq!(got.node, node);
            prop_assert_eq!(got.channel, want.channel);
            prop_assert_eq!(got.keys.len(), want.keys.len());
            for (g, w) in got.keys.iter().zip(&want.keys) {
                prop_assert_eq!(g.frame, w.frame);
                prop_assert_eq!(g.code, w.values.code());
                let (i, o, v) = match w.values {
                    KeyValues::Zero => (0.0, 0.0, 0.0),
                    KeyValues::Value(v) => (0.0, 0.0, f16_exact(v)),
                    KeyValues::Slope { tangent, value } => (f16_exact(tangent), f16_exact(tangent), f16_exact(value)),
                    KeyValues::InOut { in_tangent, out_tangent, value } => (f16_exact(in_tangent), f16_exact(out_tangent), f16_exact(value)),
                };
                prop_assert_eq!((g.in_tangent(), g.out_tangent(), g.value()), (i, o, v));
            }
        }
    }
}

#[test]
fn describe_and_survey_stop_at_the_work_budget() {
    let data = write::encode_inputs(&write::multi_inputs(), None).unwrap();
    let lim = Limits { max_decode_work: 10, ..Limits::default() };
    let doc = Motn.describe(&data, "multi.mot", &lim).unwrap();
    assert!(doc.diagnostics.iter().any(|d| d.message.contains("limit exceeded")), "{:?}", doc.diagnostics);
    assert_eq!(doc.validate(), Ok(()));
    let s = Motn.survey(&data, "multi.mot", &lim).unwrap();
    assert!(s.findings.iter().any(|d| d.message.contains("limit exceeded")));
    assert_eq!(s.counters.get("sequences.standard"), Some(&1));
}

#[test]
fn consistency_findings_are_warnings_in_check_and_pads_are_info() {
    let lim = Limits::default();
    // rx's second intermediate frame (0x6a) = 9 = n−1: outside 1..n−2
    let mut v = VECTOR_A;
    v[0x6a] = 9;
    let found = Motn.check(&v, "a.mot", &lim).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].offset, Some(0x6a));
    assert!(found[0].message.contains("outside 1..8"));
    // rx's frames 4 then 3: decreasing
    let mut v = VECTOR_A;
    v[0x69] = 4;
    let found = Motn.check(&v, "a.mot", &lim).unwrap();
    assert_eq!(found[0].offset, Some(0x6a));
    assert!(found[0].message.contains("below the previous"));
    // a non-zero pad byte before Block 5 (0x71) is only noted
    let mut v = VECTOR_A;
    v[0x71] = 0xAA;
    assert_eq!(Motn.check(&v, "a.mot", &lim).unwrap(), vec![]);
    let doc = Motn.describe(&v, "a.mot", &lim).unwrap();
    assert!(doc.diagnostics.iter().any(|d| d.offset == Some(0x71) && d.message.contains("pad byte")));
    // file_size not the blob length
    let mut v = VECTOR_A.to_vec();
    v.push(0);
    let found = Motn.check(&v, "a.mot", &lim).unwrap();
    assert!(found.iter().any(|d| d.offset == Some(0x10)), "{found:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Whole files: names pick one of a few random sequences (so some share data); every
    /// name decodes to its own sequence's keys, shared data becomes aliases, and the
    /// document keeps the span contract.
    #[test]
    fn file_round_trip_with_shared_sequences(
        pool in proptest::collection::vec(arb_sequence(), 1..4),
        picks in proptest::collection::vec(any::<proptest::sample::Index>(), 1..8),
        trailer in any::<bool>(),
    ) {
        let entries: Vec<(String, Vec<u8>)> = picks
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("SEQ_{i}_{}", p.index(pool.len())), write::encode_sequence(p.get(&pool)).unwrap()))
            .collect();
        let data = write::encode_file(&entries, trailer.then_some(write::MULTI_TRAILER));
        let lim = Limits::default();
        let doc = Motn.describe(&data, "p.mot", &lim).unwrap();
        prop_assert_eq!(doc.validate(), Ok(()));
        prop_assert!(Motn.check(&data, "p.mot", &lim).unwrap().is_empty());
        let mut distinct: Vec<&Vec<u8>> = entries.iter().map(|(_, b)| b).collect();
        distinct.sort();
        distinct.dedup();
        let aliases = doc.nodes.iter().filter(|n| n.alias_of.is_some()).count();
        prop_assert_eq!(aliases, entries.len() - distinct.len());
        for (i, p) in picks.iter().enumerate() {
            let spec = p.get(&pool);
            let name = &entries[i].0;
            let clip = Motn.decode(&data, &format!("seq:{name}"), &DecodeOptions::default(), &lim).unwrap();
            prop_assert_eq!(clip.frame_count, usize::from(spec.frames));
            let want = spec.ordered_channels();
            prop_assert_eq!(clip.tracks.len(), want.len());
            for (t, (_, c)) in clip.tracks.iter().zip(want) {
                let frames: Vec<f64> = c.keys.iter().map(|k| f64::from(k.frame)).collect();
                prop_assert_eq!(t.keys.iter().map(|k| k.frame).collect::<Vec<_>>(), frames);
                prop_assert_eq!(t.samples.len(), usize::from(spec.frames));
            }
            // curves only: the same tracks (keys, bit-identical samples), no text, no poses
            let opts = DecodeOptions { curves_only: true, ..DecodeOptions::default() };
            let curves = Motn.decode(&data, &format!("seq:{name}"), &opts, &lim).unwrap();
            prop_assert!(curves.tables.is_empty() && curves.poses.is_none());
            prop_assert_eq!(curves.tracks.len(), clip.tracks.len());
            for (c, f) in curves.tracks.iter().zip(&clip.tracks) {
                prop_assert_eq!((&c.name, &c.target, c.unit, c.unknown), (&f.name, &f.target, f.unit, f.unknown));
                prop_assert_eq!(c.keys.iter().map(|k| (k.frame, k.value)).collect::<Vec<_>>(),
                    f.keys.iter().map(|k| (k.frame, k.value)).collect::<Vec<_>>());
                prop_assert!(c.keys.iter().all(|k| k.detail.is_empty()));
                prop_assert_eq!(c.samples.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    f.samples.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            }
        }
    }

    /// Looking a sequence up by display name (in place, without reading the whole table)
    /// finds what a scan of every entry finds: the first entry with that display name, and
    /// the first other entry sharing its data. Names include bytes that display escaped and
    /// `#n`, the form unreadable names take.
    #[test]
    fn name_lookup_matches_a_full_scan(
        names in proptest::collection::vec(proptest::sample::select(vec!["A", "B", "A\\B", "q\"", "#1", "\u{e9}t\u{e9}", "#0", "A B"]), 1..7),
        shares in proptest::collection::vec(0usize..3, 7),
    ) {
        let seqs: Vec<Vec<u8>> = (0..3u8).map(|i| write::encode_sequence(&SequenceSpec {
            frames: 4 + u16::from(i), kind_word: 0,
            nodes: vec![NodeSpec { node: i, channels: vec![ChannelSpec { channel: Channel::Rx, keys: vec![
                KeySpec { frame: 0, values: KeyValues::Value(f32::from(i)) },
                KeySpec { frame: 3 + u16::from(i), values: KeyValues::Zero },
            ] }] }],
        }).unwrap()).collect();
        let entries: Vec<(String, Vec<u8>)> =
            names.iter().zip(&shares).map(|(n, s)| ((*n).to_string(), seqs[*s].clone())).collect();
        let data = write::encode_file(&entries, None);
        let b = Bytes::new(&data);
        let h = Header::read(&b).unwrap();
        let lim = Limits::default();
        let all = parse::read_entries(&b, &h, &lim).unwrap();
        let mut asked: Vec<String> = all.iter().map(parse::Entry::display_name).collect();
        asked.push("missing".into());
        asked.push("#5".into());
        for wanted in asked {
            let reference = all.iter().find(|e| e.display_name() == wanted);
            let got = parse::find_entry(&b, &h, &wanted, &lim).unwrap();
            prop_assert_eq!(got.as_ref().map(|(e, _)| e.index), reference.map(|e| e.index), "{}", wanted);
            if let (Some((_, alias)), Some(r)) = (got, reference) {
                let want_alias = all.iter().find(|e| e.data_rel == r.data_rel).filter(|e| e.index != r.index);
                prop_assert_eq!(alias.map(|a| a.index), want_alias.map(|a| a.index));
            }
        }
    }
}

#[test]
fn describe_stops_at_the_field_budget() {
    let data = write::encode_inputs(&write::multi_inputs(), None).unwrap();
    let lim = Limits { max_fields: 60, ..Limits::default() };
    let doc = Motn.describe(&data, "multi.mot", &lim).unwrap();
    assert!(doc.diagnostics.iter().any(|d| d.message.contains("limit exceeded: fields")), "{:?}", doc.diagnostics);
    assert_eq!(doc.validate(), Ok(()));
}

/// Three sequences whose headers (and Block 1) are their own but whose Blocks 2–5 are one
/// region (offsets moved to point at the last sequence's blocks): the region is decoded
/// once, every sequence decodes to the same keys, and the later readers' block 3, 4 and
/// channel fields point at the first reader instead of listing the keys again, in the
/// eager and the on-demand document alike.
#[test]
fn a_shared_region_is_listed_once_and_decoded_the_same_for_every_reader() {
    let chans = [Channel::Px, Channel::Rx];
    let spec = SequenceSpec {
        frames: 40,
        kind_word: 0,
        nodes: vec![NodeSpec {
            node: 0,
            channels: chans
                .iter()
                .map(|&channel| ChannelSpec {
                    channel,
                    keys: [0u16, 5, 9, 39]
                        .iter()
                        .map(|&frame| KeySpec { frame, values: KeyValues::Value(f32::from(frame) / 8.0) })
                        .collect(),
                })
                .collect(),
        }],
    };
    let s = write::encode_sequence(&spec).unwrap();
    let h = 12 + 2 * 2; // header + one instruction + terminator
    let at = |i: usize| usize::from(u16::from_le_bytes([s[i], s[i + 1]]));
    let mut entries = Vec::new();
    for k in 0..2usize {
        let shift = (2 - k) * h;
        let mut head = s[..h].to_vec();
        for i in [4, 6, 8, 10] {
            head[i..i + 2].copy_from_slice(&u16::try_from(at(i) + shift).unwrap().to_le_bytes());
        }
        entries.push((format!("R{k}"), head));
    }
    entries.push(("R2".to_string(), s.clone()));
    let file = write::encode_file(&entries, None);
    let lim = Limits::default();
    let clips: Vec<_> = ["R0", "R1", "R2"]
        .iter()
        .map(|n| Motn.decode(&file, &format!("seq:{n}"), &DecodeOptions::default(), &lim).unwrap())
        .collect();
    assert_eq!(clips[0].tracks, clips[2].tracks);
    assert_eq!(clips[1].tracks, clips[2].tracks);
    assert_eq!(clips[0].tracks.len(), 2);

    let eager = Motn.describe(&file, "r.mot", &lim).unwrap();
    let src = std::sync::Arc::new(crate::source::Source::from_vec("r.mot", file.clone()));
    let mut lazy = super::describe::describe_lazy(&src, &lim).unwrap();
    lazy.expand_all();
    for doc in [&eager, &lazy] {
        let field = |path: &str, name: &str| {
            let id = doc.find_path(path).unwrap_or_else(|| panic!("no {path}"));
            doc.node(id).unwrap().fields.iter().find(|f| f.name == name).cloned()
        };
        // the first reader lists the keys; the others point at it
        assert!(field("r.mot/data/seq[R0]/block5/Root.px", "key[1]").is_some());
        for reader in ["R1", "R2"] {
            let shared = field(&format!("r.mot/data/seq[{reader}]/block5/Root.px"), "shared").unwrap();
            assert!(shared.note.as_deref().unwrap().contains("as seq[R0]'s"), "{shared:?}");
            assert!(field(&format!("r.mot/data/seq[{reader}]/block5/Root.px"), "key[1]").is_none());
            assert!(field(&format!("r.mot/data/seq[{reader}]/block3"), "shared").is_some());
            assert!(field(&format!("r.mot/data/seq[{reader}]/block4"), "shared").is_some());
        }
    }
}

/// An expansion of a mapped file reads only the spans it needs, each through the checked
/// path, and each draws on the document's budget while it is held: with room for the
/// skeleton but not the sequence's span, expanding it records the overrun at the span's
/// start instead of reading outside the budget; with room, the document keeps no copy
/// (what it retains after the expansion is far below the file's size).
#[test]
fn the_spans_an_expansion_reads_draw_on_the_budget() {
    let mut file = write::encode_inputs(&write::multi_inputs(), None).unwrap();
    // past the threshold, so the file is mapped (the header's file_size then differs: a
    // warning, the sequences read the same)
    file.resize(crate::source::MMAP_THRESHOLD as usize + 16, 0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.mot");
    std::fs::write(&path, &file).unwrap();
    let src = std::sync::Arc::new(crate::source::Source::open(&path, Default::default()).unwrap());
    assert!(src.is_mapped());
    let open = |max_memory: u64| {
        let mut doc = super::describe::describe_lazy(&src, &Limits { max_memory, ..Limits::default() }).unwrap();
        let seq = doc.find_path("data/seq[TEST_SEQ]").expect("TEST_SEQ");
        let span = doc.node(seq).unwrap().span;
        let before = doc.retained_bytes();
        doc.expand(seq);
        let built = doc.node(seq).unwrap().children.len();
        (before, span, built, doc.retained_bytes(), doc.budget_exceeded())
    };
    let (skeleton, span, built, expanded, none) = open(Limits::default().max_memory);
    assert_eq!(none, None);
    assert!(built >= 6, "header and five blocks: {built}");
    assert!(!span.is_empty() && span.len() < 0x100, "the table's extent of TEST_SEQ: {span}");
    assert!(expanded > skeleton && expanded < skeleton + file.len() as u64 / 4, "{skeleton} -> {expanded}");
    let (_, _, built, _, over) = open(skeleton + span.len() - 1);
    let over = over.expect("the span does not fit");
    assert_eq!((over.offset, over.needed), (span.start, skeleton + span.len()));
    assert_eq!(built, 0, "nothing is built past the budget");
}
