//! Hand-written byte vectors for sector-aligned gzip archives (issue 22): the gzip member
//! header and trailer (RFC 1952), the deflate body (RFC 1951, fixed Huffman codes worked
//! out by hand) and the zero padding to 2048-byte boundaries (docs/formats/ccsf.md
//! docs/formats/gzarc.md#archive-layout, docs/formats/gzarc.md#writing), each field with a comment. Checked both ways: the describe (and inflate)
//! of the bytes, and the writer (`gzarc::write`) producing the same bytes.
//!
//! Independent constants: CRC-32 (RFC 1952 §8) of `hi` is 0xd8932aac and of the empty
//! string 0; the header CRC-16 of the all-flags header is 0xfc5d (the low 16 bits of the
//! CRC-32 of its first 28 bytes), computed outside this project.
//!
//! The describe shows no trailer fields: a member's extent runs to the next member (it
//! includes the zero padding) and the trailer's place is known only after inflating, so
//! the trailer is checked through `inflate` (flate2 verifies CRC-32 and ISIZE).
//!
//! [`VECTORS`] is the registry; `every_record_kind_has_a_vector` describes every committed
//! gzarc fixture and fails on a node kind that is neither a vectored record nor a container.

use crate::support::{member_at, whole_document};
use animscope::error::ErrorKind;
use animscope::formats::gzarc::write::{self, FIXTURE_MTIME};
use animscope::formats::gzarc::{GzArc, TAIL_KIND};
use animscope::limits::Limits;
use animscope::model::{Document, Severity};
use animscope::test_support::expect::{V::*, Want, assert_fields, assert_same_bytes, node};

/// Member `i`'s inflated bytes, opened as the program opens it.
fn inflated(data: &[u8], i: usize) -> animscope::error::Result<Vec<u8>> {
    member_at(&GzArc, data, i, &Limits::default()).map(|m| m.bytes)
}

/// (member start, member end, deflate data start) of every member, from the document.
fn extents(doc: &Document) -> Vec<(u64, u64, u64)> {
    let members = doc.nodes.iter().filter(|n| n.member.is_some());
    let deflate = |n: &animscope::model::Node| n.fields.iter().find(|f| f.name == "deflate").unwrap().span.start;
    members.map(|n| (n.span.start, n.span.end, deflate(n))).collect()
}

/// Deflate of `hi`: one final fixed-Huffman block (RFC 1951 §3.2.6). Bits, LSB first:
/// BFINAL 1, BTYPE 01, literal 0x68 = code 0x30 + 0x68 = 10011000, literal 0x69 =
/// 10011001, end of block 0000000 (26 bits, zero-filled to 4 bytes).
const DEFLATE_HI: [u8; 4] = [0xcb, 0xc8, 0x04, 0x00];
/// Deflate of nothing: BFINAL 1, BTYPE 01, end of block (10 bits).
const DEFLATE_EMPTY: [u8; 2] = [0x03, 0x00];

/// A DATA.BIN-style member: FNAME only, MTIME = the fixtures' 1000000000, XFL 0, OS 255.
fn fname_member(name: &[u8], deflate: &[u8], crc: u32, isize: u32) -> Vec<u8> {
    let mut m = vec![
        0x1f, 0x8b, // +0 ID1 ID2
        0x08, // +2 CM = 8 (deflate)
        0x08, // +3 FLG = FNAME
        0x00, 0xca, 0x9a, 0x3b, // +4 MTIME = 0x3b9aca00 = 1000000000
        0x00, // +8 XFL 0 (neither best nor fastest compression)
        0xff, // +9 OS 255 (unknown)
    ];
    m.extend(name); // +10 FNAME ...
    m.push(0); // ... NUL-terminated
    m.extend(deflate); // deflate blocks
    m.extend(crc.to_le_bytes()); // trailer: CRC32 of the inflated bytes
    m.extend(isize.to_le_bytes()); // trailer: ISIZE, inflated length mod 2^32
    m
}

/// Two members on 2048-byte boundaries: `a.cmp` = "hi" at 0, `b.cmp` = "" at 0x800.
fn two_member_archive() -> Vec<u8> {
    let mut v = fname_member(b"a.cmp", &DEFLATE_HI, 0xd893_2aac, 2);
    assert_eq!(v.len(), 10 + 6 + 4 + 8);
    v.resize(0x800, 0); // zero padding to the next boundary
    v.extend(fname_member(b"b.cmp", &DEFLATE_EMPTY, 0, 0));
    v.resize(0x1000, 0);
    v
}

fn header_fields(name: &'static [u8], flg: u64, mtime: u64, xfl: u64, os: u64) -> Vec<Want> {
    vec![
        ("magic", 0, 2, N(0x8b1f)),
        ("cm", 2, 1, N(8)),
        ("flg", 3, 1, N(flg)),
        ("mtime", 4, 4, N(mtime)),
        ("xfl", 8, 1, N(xfl)),
        ("os", 9, 1, N(os)),
        ("fname", 10, name.len() as u64 + 1, T(name)),
    ]
}

fn describe(data: &[u8], name: &str) -> Document {
    let doc = whole_document(Some(&GzArc), name, data, &Limits::default()).unwrap();
    assert_eq!(doc.validate(), Ok(()));
    let bad: Vec<_> = doc.diagnostics.iter().filter(|d| d.severity > Severity::Info).collect();
    assert!(bad.is_empty(), "{bad:?}");
    doc
}

#[test]
fn member_header_fname_only_and_sector_padding() {
    let v = two_member_archive();
    let doc = describe(&v, "two.BIN");
    let a = node(&doc, 0, 0x800, "gzip member");
    let mut want = header_fields(b"a.cmp", 0x08, 1_000_000_000, 0, 255);
    // the deflate field runs to the member's extent: body, trailer and the zero padding
    want.push(("deflate", 16, 0x800 - 16, B));
    assert_fields(&doc, a, 0, &want);
    let b = node(&doc, 0x800, 0x800, "gzip member");
    let mut want = header_fields(b"b.cmp", 0x08, 1_000_000_000, 0, 255);
    want.push(("deflate", 16, 0x800 - 16, B));
    assert_fields(&doc, b, 0x800, &want);
    assert_eq!(doc.node(a).unwrap().member, Some(0));
    assert_eq!(doc.node(b).unwrap().member, Some(1));
    assert_eq!(extents(&doc), [(0, 0x800, 16), (0x800, 0x1000, 0x810)]);
    assert_eq!(inflated(&v, 0).unwrap(), b"hi");
    assert_eq!(inflated(&v, 1).unwrap(), b"");
    let w = write::archive(&[("a.cmp".into(), b"hi".to_vec()), ("b.cmp".into(), Vec::new())]);
    assert_same_bytes(&w, &v);
}

#[test]
fn member_header_with_every_optional_field() {
    let mut m = vec![
        0x1f, 0x8b, // +0 ID1 ID2
        0x08, // +2 CM deflate
        0x1f, // +3 FLG = FTEXT | FHCRC | FEXTRA | FNAME | FCOMMENT
        0x00, 0x00, 0x00, 0x00, // +4 MTIME 0 (none)
        0x02, // +8 XFL 2 (best compression)
        0x03, // +9 OS 3 (Unix)
        0x04, 0x00, // +10 XLEN 4
        b'A', b'P', 0x00, 0x00, // +12 extra: subfield SI1 'A', SI2 'P', LEN 0
        b'n', b'.', b'c', b'm', b'p', 0x00, // +16 FNAME "n.cmp"
        b'h', b'e', b'l', b'l', b'o', 0x00, // +22 FCOMMENT "hello"
        0x5d, 0xfc, // +28 header CRC16 = 0xfc5d
    ];
    m.extend(DEFLATE_HI); // +30 deflate
    m.extend(0xd893_2aacu32.to_le_bytes()); // +34 CRC32
    m.extend(2u32.to_le_bytes()); // +38 ISIZE
    let doc = describe(&m, "n.gz");
    let id = node(&doc, 0, m.len() as u64, "gzip member");
    assert_fields(
        &doc,
        id,
        0,
        &[
            ("magic", 0, 2, N(0x8b1f)),
            ("cm", 2, 1, N(8)),
            ("flg", 3, 1, N(0x1f)),
            ("mtime", 4, 4, N(0)),
            ("xfl", 8, 1, N(2)),
            ("os", 9, 1, N(3)),
            ("xlen", 10, 2, N(4)),
            ("extra", 12, 4, B),
            ("fname", 16, 6, T(b"n.cmp")),
            ("fcomment", 22, 6, B),
            // the header CRC16 (+28) is skipped, not shown: the body starts after it
            ("deflate", 30, 12, B),
        ],
    );
    assert_eq!(extents(&doc)[0].2, 30);
    assert_eq!(inflated(&m, 0).unwrap(), b"hi");
    // the writer only writes FNAME-only members: this layout has no writer direction
}

#[test]
fn member_trailer() {
    let good = fname_member(b"a.cmp", &DEFLATE_HI, 0xd893_2aac, 2);
    let n = good.len();
    assert_eq!(&good[n - 8..], [0xac, 0x2a, 0x93, 0xd8, 0x02, 0x00, 0x00, 0x00]);
    assert_eq!(inflated(&good, 0).unwrap(), b"hi");
    // a wrong CRC32 or ISIZE is an inflate error at the member's offset
    for at in [n - 8, n - 4] {
        let mut bad = good.clone();
        bad[at] ^= 1;
        let e = inflated(&bad, 0).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Inflate(_)), "{e}");
        assert_eq!(e.offset, 0);
    }
    // the writer's member ends with the same trailer, after the same header
    let w = write::gzip_member("a.cmp", b"hi", FIXTURE_MTIME);
    assert_eq!(&w[w.len() - 8..], &good[n - 8..]);
    assert_same_bytes(&w, &good);
}

// ---------------------------------------------------------------------------------------
// The registry.

/// Every record layout of the format with its vector.
const VECTORS: &[(&str, fn())] = &[
    ("gzip member header (FNAME)", member_header_fname_only_and_sector_padding),
    ("gzip member header (FEXTRA, FNAME, FCOMMENT, FHCRC)", member_header_with_every_optional_field),
    ("gzip member trailer (CRC32, ISIZE)", member_trailer),
    ("sector padding", member_header_fname_only_and_sector_padding),
];

/// Node kinds and the records they hold: a `gzip member` node is its header's fields (and
/// the body, trailer and padding as one opaque field); the root and the listing's tail
/// (the part not yet probed) have no layout.
const NODE_KINDS: &[(&str, &[&str])] = &[
    ("gzip member", &["gzip member header (FNAME)", "gzip member trailer (CRC32, ISIZE)", "sector padding"]),
    ("gzip archive", &[]),
    (TAIL_KIND, &[]),
];

#[test]
fn every_record_kind_has_a_vector() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, data) in write::fixtures() {
        let doc = whole_document(Some(&GzArc), &name, &data, &Limits::default()).unwrap();
        seen.extend(doc.nodes.iter().map(|n| n.kind.clone()));
    }
    assert!(seen.contains("gzip member"), "{seen:?}");
    for k in &seen {
        let records = NODE_KINDS.iter().find(|n| n.0 == k.as_str()).map(|n| n.1);
        let records = records.unwrap_or_else(|| panic!("node kind {k} is not in the registry"));
        for r in records {
            assert!(VECTORS.iter().any(|v| v.0 == *r), "{k}: record {r} has no hand-written vector");
        }
    }
    for (_, f) in VECTORS {
        f();
    }
}
