//! Hand-written byte vectors for the Shenmue containers (issue 22): the PKS header, the
//! IPAC header and dictionary entry, the PKF header and its chunks (`DUMY` and counted),
//! written out byte by byte with a comment per field; field names, offsets and values are
//! typed from docs/formats/pak.md, not produced by the writer. Each is checked
//! both ways: the describe of the bytes, and the writer (`pak::write`) building the same
//! bytes from the same entries.
//!
//! Where the spec leaves a value open the vectors use the reference writer's choice that
//! `pak::write` documents: IPAC entry data 16-aligned from the IPAC start, the dictionary
//! after the data, `content size` = the dictionary offset [I], PKS unknown words 0 (with
//! one entry that is also S4's "entry count − 1").
//!
//! [`VECTORS`] is the registry: `every_record_kind_has_a_vector` describes every committed
//! PKS/PKF/IPAC fixture and fails when it meets a node kind that is neither covered by a
//! vector nor listed as a container without a layout of its own.

use crate::support::{member_at, whole_document};
use animscope::formats::Format;
use animscope::formats::pak::write::{self, Entry};
use animscope::formats::pak::{IpacFormat, Pkf, Pks};
use animscope::limits::Limits;
use animscope::model::{Document, Severity};
use animscope::test_support::expect::{V::*, assert_fields, assert_same_bytes, child, node};

fn w32(v: &mut Vec<u8>, x: u32) {
    v.extend(x.to_le_bytes());
}

fn describe(f: &'static dyn Format, data: &[u8], name: &str) -> Document {
    let doc = whole_document(Some(f), name, data, &Limits::default()).unwrap();
    assert_eq!(doc.validate(), Ok(()));
    let bad: Vec<_> = doc.diagnostics.iter().filter(|d| d.severity > Severity::Info).collect();
    assert!(bad.is_empty(), "{bad:?}");
    doc
}

/// An IPAC of two entries, by hand (docs/formats/pak.md#ipac): `A.MOTN` (5 bytes) and `LONGNAME.CHRT` (3).
fn two_entry_ipac() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend(b"IPAC"); // +0x00 magic
    w32(&mut v, 0x30); // +0x04 dictionary offset (from the IPAC start)
    w32(&mut v, 2); // +0x08 file count
    w32(&mut v, 0x30); // +0x0c content size (the reference writer: the dictionary offset [I])
    v.extend([1, 2, 3, 4, 5]); // +0x10 entry 0's bytes
    v.extend([0; 11]); // +0x15 zero padding to 16
    v.extend([0xaa, 0xbb, 0xcc]); // +0x20 entry 1's bytes
    v.extend([0; 13]); // +0x23 zero padding to 16
    v.extend(b"A\0\0\0\0\0\0\0"); // +0x30 entry 0: name, NUL-padded to 8
    v.extend(b"MOTN"); // +0x38 extension
    w32(&mut v, 0x10); // +0x3c data offset (from the IPAC start)
    w32(&mut v, 5); // +0x40 size
    v.extend(b"LONGNAME"); // +0x44 entry 1: name (8 chars, no NUL)
    v.extend(b"CHRT"); // +0x4c extension
    w32(&mut v, 0x20); // +0x50 data offset
    w32(&mut v, 3); // +0x54 size
    assert_eq!(v.len(), 0x58);
    v
}

fn two_entries() -> Vec<Entry> {
    vec![Entry::new("A", "MOTN", vec![1, 2, 3, 4, 5]), Entry::new("LONGNAME", "CHRT", vec![0xaa, 0xbb, 0xcc])]
}

/// The IPAC header and entries of an IPAC at `base` in `doc`.
fn check_ipac(doc: &Document, base: u64) {
    let ip = node(doc, base, 0x58, "IPAC");
    let h = child(doc, ip, "header");
    assert_fields(
        doc,
        h,
        base,
        &[
            ("magic", 0, 4, T(b"IPAC")),
            ("dictionary_ofs", 4, 4, N(0x30)),
            ("file_count", 8, 4, N(2)),
            ("content_size", 12, 4, N(0x30)),
        ],
    );
    let d = child(doc, ip, "dictionary");
    assert_eq!(doc.node(d).unwrap().span.start, base + 0x30);
    let e0 = child(doc, d, "entry[0]");
    assert_fields(
        doc,
        e0,
        base + 0x30,
        &[("name", 0, 8, T(b"A")), ("extension", 8, 4, T(b"MOTN")), ("offset", 12, 4, N(0x10)), ("size", 16, 4, N(5))],
    );
    let e1 = child(doc, d, "entry[1]");
    assert_fields(
        doc,
        e1,
        base + 0x44,
        &[
            ("name", 0, 8, T(b"LONGNAME")),
            ("extension", 8, 4, T(b"CHRT")),
            ("offset", 12, 4, N(0x20)),
            ("size", 16, 4, N(3)),
        ],
    );
    // each entry is a member over exactly [ipac + offset, + size)
    for (key, at, len, index) in [("A.MOTN", 0x10, 5, 0), ("LONGNAME.CHRT", 0x20, 3, 1)] {
        let m = doc.node(child(doc, ip, key)).unwrap();
        assert_eq!((m.span.start, m.span.len(), m.member), (base + at, len, Some(index)), "{key}");
        assert_eq!(m.kind, "IPAC member");
    }
}

#[test]
fn ipac_header_and_entries() {
    let v = two_entry_ipac();
    let doc = describe(&IpacFormat, &v, "two.ipac");
    check_ipac(&doc, 0);
    let m = member_at(&IpacFormat, &v, 1, &Limits::default()).unwrap();
    assert_eq!((m.name.as_str(), m.bytes.as_slice()), ("LONGNAME.CHRT", &[0xaa, 0xbb, 0xcc][..]));
    assert_same_bytes(&write::ipac(&two_entries()), &v);
}

#[test]
fn pks_header() {
    let mut v = Vec::new();
    v.extend(b"PAKS"); // 0x00 magic
    w32(&mut v, 0x10); // 0x04 IPAC offset
    w32(&mut v, 0); // 0x08 unknown
    w32(&mut v, 1); // 0x0c unknown (S4's writer: entry count − 1 = 1)
    v.extend(two_entry_ipac()); // 0x10 the IPAC
    let doc = describe(&Pks, &v, "two.pks");
    let h = node(&doc, 0, 16, "PKS header");
    assert_fields(
        &doc,
        h,
        0,
        &[
            ("magic", 0, 4, T(b"PAKS")),
            ("ipac_ofs", 4, 4, N(0x10)),
            ("unknown_08", 8, 4, N(0)),
            ("unknown_0c", 12, 4, N(1)),
        ],
    );
    check_ipac(&doc, 0x10);
    assert_eq!(member_at(&Pks, &v, 0, &Limits::default()).unwrap().bytes, [1, 2, 3, 4, 5]);
    // the writer stores 0 in both unknown words: with one entry that is also S4's count − 1
    let mut one = Vec::new();
    one.extend(b"PAKS"); // 0x00 magic
    w32(&mut one, 0x10); // 0x04 IPAC offset
    w32(&mut one, 0); // 0x08 unknown
    w32(&mut one, 0); // 0x0c unknown: 1 entry − 1
    one.extend(b"IPAC"); // 0x10 IPAC magic
    w32(&mut one, 0x20); // 0x14 dictionary offset
    w32(&mut one, 1); // 0x18 file count
    w32(&mut one, 0x20); // 0x1c content size
    one.extend([7, 7, 7]); // 0x20 the entry's bytes
    one.extend([0; 13]); // 0x23 zero padding to 16
    one.extend(b"X\0\0\0\0\0\0\0MOTN"); // 0x30 name, extension
    w32(&mut one, 0x10); // 0x3c offset
    w32(&mut one, 3); // 0x40 size
    let doc = describe(&Pks, &one, "one.pks");
    assert_fields(
        &doc,
        node(&doc, 0, 16, "PKS header"),
        0,
        &[
            ("magic", 0, 4, T(b"PAKS")),
            ("ipac_ofs", 4, 4, N(0x10)),
            ("unknown_08", 8, 4, N(0)),
            ("unknown_0c", 12, 4, N(0)),
        ],
    );
    assert_same_bytes(&write::pks(&[Entry::new("X", "MOTN", vec![7, 7, 7])]), &one);
}

#[test]
fn pkf_header_chunks_and_trailing_ipac() {
    let mut v = Vec::new();
    v.extend(b"PAKF"); // 0x00 magic
    w32(&mut v, 0x2b); // 0x04 content size: the chunks end (and the trailing IPAC starts) here
    w32(&mut v, 0); // 0x08 unknown
    w32(&mut v, 1); // 0x0c file count: chunks after the optional DUMY
    v.extend(b"DUMY"); // 0x10 DUMY chunk token (not counted)
    w32(&mut v, 16); // 0x14 size, including the 8-byte header
    v.extend([0; 8]); // 0x18 payload
    v.extend(b"TEXN"); // 0x20 chunk 0 token
    w32(&mut v, 11); // 0x24 size, including the header
    v.extend([9, 8, 7]); // 0x28 payload
    assert_eq!(v.len(), 0x2b);
    v.extend(b"IPAC"); // 0x2b trailing IPAC: magic
    w32(&mut v, 0x20); // 0x2f dictionary offset (from the IPAC start)
    w32(&mut v, 1); // 0x33 file count
    w32(&mut v, 0x20); // 0x37 content size
    v.extend([1, 2, 3, 4]); // 0x3b entry 0's bytes (IPAC + 0x10)
    v.extend([0; 12]); // 0x3f zero padding to 16 from the IPAC start
    v.extend(b"MOTION\0\0MOTN"); // 0x4b entry 0: name, extension
    w32(&mut v, 0x10); // 0x57 offset
    w32(&mut v, 4); // 0x5b size
    assert_eq!(v.len(), 0x5f);
    let doc = describe(&Pkf, &v, "one.pkf");
    let h = node(&doc, 0, 16, "PKF header");
    assert_fields(
        &doc,
        h,
        0,
        &[
            ("magic", 0, 4, T(b"PAKF")),
            ("content_size", 4, 4, N(0x2b)),
            ("unknown_08", 8, 4, N(0)),
            ("file_count", 12, 4, N(1)),
        ],
    );
    let chunk = |at: u64, len: u64, token: &'static [u8]| {
        let id = node(&doc, at, len, "PKF chunk");
        assert_fields(&doc, id, at, &[("token", 0, 4, T(token)), ("size", 4, 4, N(len)), ("payload", 8, len - 8, B)]);
        id
    };
    assert_eq!(doc.node(chunk(0x10, 16, b"DUMY")).unwrap().key, "DUMY");
    assert_eq!(doc.node(chunk(0x20, 11, b"TEXN")).unwrap().key, "chunk[0] TEXN");
    let ip = node(&doc, 0x2b, 0x34, "IPAC");
    assert_fields(
        &doc,
        child(&doc, ip, "header"),
        0x2b,
        &[
            ("magic", 0, 4, T(b"IPAC")),
            ("dictionary_ofs", 4, 4, N(0x20)),
            ("file_count", 8, 4, N(1)),
            ("content_size", 12, 4, N(0x20)),
        ],
    );
    assert_fields(
        &doc,
        child(&doc, child(&doc, ip, "dictionary"), "entry[0]"),
        0x4b,
        &[
            ("name", 0, 8, T(b"MOTION")),
            ("extension", 8, 4, T(b"MOTN")),
            ("offset", 12, 4, N(0x10)),
            ("size", 16, 4, N(4)),
        ],
    );
    assert_eq!(member_at(&Pkf, &v, 0, &Limits::default()).unwrap().bytes, [1, 2, 3, 4]);
    let w = write::pkf(&[("TEXN", vec![9, 8, 7])], &[Entry::new("MOTION", "MOTN", vec![1, 2, 3, 4])]);
    assert_same_bytes(&w, &v);
}

// ---------------------------------------------------------------------------------------
// The registry.

/// Every record (node kind with a byte layout) of the containers, with its vector.
const VECTORS: &[(&str, fn())] = &[
    ("PKS header", pks_header),
    ("IPAC header", ipac_header_and_entries),
    ("IPAC entry", ipac_header_and_entries),
    ("PKF header", pkf_header_chunks_and_trailing_ipac),
    ("PKF chunk", pkf_header_chunks_and_trailing_ipac),
];

/// Node kinds with no layout of their own: the document root, the IPAC block and its
/// dictionary (made of `IPAC header` and `IPAC entry` records), entry bytes (a member,
/// opened as its own format) and gap fillers (`padding` all zero, `unknown` otherwise).
const CONTAINERS: &[&str] =
    &["PKS file", "PKF file", "IPAC file", "IPAC", "IPAC dictionary", "IPAC member", "padding", "unknown"];

#[test]
fn every_record_kind_has_a_vector() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, data) in animscope::formats::motn::write::fixtures() {
        let f: &'static dyn Format = if data.starts_with(b"PAKS") {
            &Pks
        } else if data.starts_with(b"PAKF") {
            &Pkf
        } else if data.starts_with(b"IPAC") {
            &IpacFormat
        } else {
            continue;
        };
        let doc = whole_document(Some(f), &name, &data, &Limits::default()).unwrap();
        seen.extend(doc.nodes.iter().map(|n| n.kind.clone()));
    }
    seen.insert("IPAC file".into());
    assert!(seen.contains("PKF chunk") && seen.contains("PKS header"), "{seen:?}");
    let missing: Vec<_> = seen
        .iter()
        .filter(|k| !VECTORS.iter().any(|v| v.0 == k.as_str()) && !CONTAINERS.contains(&k.as_str()))
        .collect();
    assert!(missing.is_empty(), "container records without a hand-written vector: {missing:?}");
    for (_, f) in VECTORS {
        f();
    }
}
