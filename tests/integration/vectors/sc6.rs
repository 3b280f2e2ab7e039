//! Hand-written byte vectors for the SC6 `.mot` records (issue 22), as the describe shows
//! them: the bank header and offset table (docs/formats/sc6-mot.md#bank), the clip header (docs/formats/sc6-mot.md#clip), the group table
//! (docs/formats/sc6-mot.md#counts-and-the-group-table), and a group's base words, code lengths and symbols (docs/formats/sc6-mot.md#group-payload). The bytes are the spec's
//! docs/formats/sc6-mot.md#fixtures-a-and-b Fixtures A and B typed out with a comment per field; field offsets and values come
//! from the spec's tables. (`src/formats/sc6/tests.rs` checks the same fixtures' encoder output and decoded
//! words; this file checks names, spans and values of the describe, and the writer's bank.)
//!
//! Decoded/derived display fields (playback count, channel map, code table) are not part
//! of a record's bytes and are not checked here.
//!
//! [`VECTORS`] is the registry: `every_record_kind_has_a_vector` describes every committed
//! sc6 fixture and fails on a node kind that is neither a vectored record nor a container.

use crate::support::whole_document;
use animscope::formats::sc6::Sc6;
use animscope::formats::sc6::write::{ClipSpec, Codes, encode_bank, encode_clip};
use animscope::limits::Limits;
use animscope::model::{Document, NodeId};
use animscope::test_support::expect::{V::*, assert_has_fields, assert_same_bytes, child, node};

/// The clip flag "half rate" (docs/formats/sc6-mot.md#clip).
const F_HALF: u32 = 0x04;

/// A committed SC6 fixture by its path under `fixtures/`.
fn fixture(path: &str) -> Vec<u8> {
    let all = animscope::formats::sc6::write::fixtures();
    all.into_iter().find(|(p, _)| p == path).map(|(_, b)| b).unwrap()
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| c.is_ascii_hexdigit()).collect();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// Fixture B (docs/formats/sc6-mot.md#fixtures-a-and-b) in a one-slot bank.
fn fixture_b_bank() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend(hex("01000000")); // 0x00 motion_count 1
    v.extend(hex("00000000")); // 0x04 reserved 0
    v.extend(hex("10000000")); // 0x08 offset[0] = 0x10 = align8(8 + 4 × 1)
    v.extend(hex("00000000")); // 0x0c zero padding to the 8-aligned clip
    v.extend(hex("0500")); // 0x10 clip +0x00 frame_count 5
    v.extend(hex("0800")); // 0x12 +0x02 word_bytes 8 → 4 words
    v.extend(hex("04000000")); // 0x14 +0x04 flags 0x04: half rate
    v.extend(hex("0401000000000000")); // 0x18 +0x08 presence_mask 0x104: entries 2 and 8
    v.extend(hex("0000")); // 0x20 +0x10 turn_word 0
    v.extend([0; 10]); // 0x22 +0x12 unknown, 10 bytes
    v.extend(hex("0200")); // 0x2c +0x1c group_table[0] = 2: group 0 at +0x1e
    v.extend(hex("0020 0040 0000 0010")); // 0x2e group 0 base words 8192, 16384, 0, 4096 (LE i16)
    v.extend(hex("43 12 40 00 00 00 00 00 00")); // 0x36 code lengths, 4 bits each, MSB first: 4 3 1 2 4 0…0
    v.extend(hex("75 92")); // 0x3f symbols: 01 1 1 01 | 01 1 001 001 + 1 pad bit
    v.extend(hex("00")); // 0x41 pad to the 16-bit word
    v.extend(hex("0000")); // 0x42 tail pad
    assert_eq!(v.len(), 16 + 52);
    v
}

/// Fixture A (docs/formats/sc6-mot.md#fixtures-a-and-b) in its bank of two aliased slots (110 bytes).
fn fixture_a_bank() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend(hex("02000000")); // 0x00 motion_count 2
    v.extend(hex("00000000")); // 0x04 reserved
    v.extend(hex("10000000")); // 0x08 offset[0] = 0x10
    v.extend(hex("10000000")); // 0x0c offset[1] = 0x10: an alias of slot 0
    v.extend(hex("0a00 0800 00000000")); // 0x10 frame_count 10, word_bytes 8, flags 0
    v.extend(hex("0200000000000000")); // 0x18 presence_mask 0x2: entry 1 = 0x16 root
    v.extend(hex("0000")); // 0x20 turn_word
    v.extend([0; 10]); // 0x22 unknown
    v.extend(hex("0400 2400")); // 0x2c group table: group 0 at +0x20, group 1 at +0x20 + 0x24
    v.extend(hex("0000 bc03 0000 0000")); // 0x30 group 0 base words 0, 956, 0, 0
    v.extend(hex("4444444444444455556d2588f9111f2223e4447c888f9111f2220000")); // 0x38 lengths + symbols
    v.extend(hex("c000 bc03 60ff 0000")); // 0x54 group 1 base words 192, 956, −160, 0
    v.extend(hex("444444444444445555acd2583fffe000")); // 0x5c lengths + keyframe 9's symbols
    v.extend(hex("0000")); // 0x6c tail pad
    assert_eq!(v.len(), 110);
    v
}

fn describe(data: &[u8], name: &str) -> Document {
    let doc = whole_document(Some(&Sc6), name, data, &Limits::default()).unwrap();
    assert_eq!(doc.validate(), Ok(()));
    assert!(doc.diagnostics.iter().all(|d| d.severity == animscope::model::Severity::Info), "{:?}", doc.diagnostics);
    doc
}

#[test]
fn bank_header_and_offset_table() {
    let v = fixture_a_bank();
    let doc = describe(&v, "a.mot");
    assert_has_fields(&doc, NodeId::ROOT, 0, &[("motion_count", 0, 4, N(2)), ("reserved", 4, 4, N(0))]);
    let t = node(&doc, 8, 8, "offset table");
    assert_has_fields(&doc, t, 8, &[("offset[0]", 0, 4, N(0x10)), ("offset[1]", 4, 4, N(0x10))]);
    // the committed fixture is the writer's bank of spec Fixture A in two aliased slots
    assert_same_bytes(&fixture("sc6/fixture_a.mot"), &v);
}

#[test]
fn clip_header_and_group_table() {
    let v = fixture_b_bank();
    let doc = describe(&v, "b.mot");
    let clip = node(&doc, 0x10, 52, "clip");
    let h = child(&doc, clip, "header");
    assert_eq!(doc.node(h).unwrap().span.len(), 0x1c);
    assert_has_fields(
        &doc,
        h,
        0x10,
        &[
            ("frame_count", 0, 2, N(5)),
            ("word_bytes", 2, 2, N(8)),
            ("flags", 4, 4, N(0x04)),
            ("presence_mask", 8, 8, N(0x104)),
            ("turn_word", 0x10, 2, N(0)),
            ("unknown", 0x12, 10, B),
        ],
    );
    let gt = child(&doc, clip, "group_table");
    assert_has_fields(&doc, gt, 0x10, &[("entry[0]", 0x1c, 2, I(2))]);
    // Fixture A: two groups, entry 1 = the size of group 0 (entries are i16)
    let a = fixture_a_bank();
    let doc = describe(&a, "a.mot");
    let gt = child(&doc, child(&doc, NodeId::ROOT, "clip[0]"), "group_table");
    assert_has_fields(&doc, gt, 0x10, &[("entry[0]", 0x1c, 2, I(4)), ("entry[1]", 0x1e, 2, I(0x24))]);
}

#[test]
fn group_base_words_lengths_and_symbols() {
    let v = fixture_b_bank();
    let doc = describe(&v, "b.mot");
    let g = node(&doc, 0x2e, 0x42 - 0x2e, "group");
    assert_has_fields(
        &doc,
        g,
        0x2e,
        &[
            ("base.w0", 0, 2, I(8192)),
            ("base.w1", 2, 2, I(16384)),
            ("base.w2", 4, 2, I(0)),
            ("base.w3", 6, 2, I(4096)),
            // code lengths: 4 bits each, symbol 0 first, MSB first from byte 0x36
            ("len[0]", 8, 1, N(4)),
            ("len[1]", 8, 1, N(3)),
            ("len[2]", 9, 1, N(1)),
            ("len[3]", 9, 1, N(2)),
            ("len[4]", 10, 1, N(4)),
            ("len[17]", 16, 1, N(0)),
            // symbols (codes 2 = 1, 3 = 01, 1 = 001): keyframe 1's four words, keyframe 2's
            ("k1.w0", 0x11, 1, N(0b01)),
            ("k1.w1", 0x11, 1, N(0b1)),
            ("k1.w2", 0x11, 1, N(0b1)),
            ("k1.w3", 0x11, 1, N(0b01)),
            ("k2.w0", 0x11, 1, N(0b01)),
            ("k2.w1", 0x12, 1, N(0b1)),
            ("k2.w2", 0x12, 1, N(0b001)),
            ("k2.w3", 0x12, 1, N(0b001)),
        ],
    );
    // bit positions, MSB first from the file start (docs/formats/sc6-mot.md#group-payload)
    let bits = |name: &str| {
        let f = doc.node(g).unwrap().fields.iter().find(|f| f.name == name).unwrap();
        f.bits.map(|b| (b.start_bit, b.bits))
    };
    assert_eq!(bits("len[0]"), Some((0x36 * 8, 4)));
    assert_eq!(bits("len[1]"), Some((0x36 * 8 + 4, 4)));
    assert_eq!(bits("len[17]"), Some((0x36 * 8 + 68, 4)));
    let s = 0x3f * 8;
    for (name, at, n) in [
        ("k1.w0", s, 2),
        ("k1.w1", s + 2, 1),
        ("k1.w2", s + 3, 1),
        ("k1.w3", s + 4, 2),
        ("k2.w0", s + 6, 2),
        ("k2.w1", s + 8, 1),
        ("k2.w2", s + 9, 3),
        ("k2.w3", s + 12, 3),
    ] {
        assert_eq!(bits(name), Some((at, n)), "{name}");
    }
    // the writer: the spec's keyframes with its fixed code lengths, in a one-slot bank
    let keys = vec![vec![8192, 16384, 0, 4096], vec![8193, 16384, 0, 4097], vec![8195, 16384, -1, 4097]];
    let mut spec = ClipSpec::new(5, F_HALF, 0x104, keys);
    let mut l = [0u8; 18];
    l[..5].copy_from_slice(&[4, 3, 1, 2, 4]);
    spec.codes = Codes::Fixed(l);
    assert_same_bytes(&encode_bank(&[encode_clip(&spec).unwrap()], &[0]), &v);
}

// ---------------------------------------------------------------------------------------
// The registry.

/// Every record of the format with its vector.
const VECTORS: &[(&str, fn())] = &[
    ("bank header", bank_header_and_offset_table),
    ("offset table", bank_header_and_offset_table),
    ("clip header", clip_header_and_group_table),
    ("group table", clip_header_and_group_table),
    ("group", group_base_words_lengths_and_symbols),
];

/// Node kinds and the records they hold: the root holds the bank header's fields; a
/// `clip` is its header, group table and groups (and a tail pad); gap fillers have none.
const NODE_KINDS: &[(&str, &[&str])] = &[
    ("mot bank", &["bank header"]),
    ("offset table", &["offset table"]),
    ("clip", &[]),
    ("clip header", &["clip header"]),
    ("group table", &["group table"]),
    ("group", &["group"]),
    ("padding", &[]),
    ("unknown", &[]),
];

#[test]
fn every_record_kind_has_a_vector() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, data) in animscope::formats::sc6::write::fixtures() {
        let doc = whole_document(Some(&Sc6), &name, &data, &Limits::default()).unwrap();
        seen.extend(doc.nodes.iter().map(|n| n.kind.clone()));
    }
    assert!(seen.contains("group") && seen.contains("clip header"), "{seen:?}");
    for k in &seen {
        let records = NODE_KINDS.iter().find(|n| n.0 == k.as_str()).map(|n| n.1);
        let records = records.unwrap_or_else(|| panic!("sc6 node kind {k} is not in the registry"));
        for r in records {
            assert!(VECTORS.iter().any(|v| v.0 == *r), "{k}: record {r} has no hand-written vector");
        }
    }
    for (_, f) in VECTORS {
        f();
    }
}
