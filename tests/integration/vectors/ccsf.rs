//! Hand-written byte vectors, one per CCSF record layout (issue 22).
//!
//! Every vector is written out byte by byte with a comment per field; the expected field
//! names, offsets and values are typed from the spec (docs/formats/ccsf.md),
//! not produced by the writer. Each is checked in both directions: (a) the describe of
//! the bytes has exactly the expected fields, spans and values, and (b) the project's
//! writer builds exactly the same bytes from the same record (where the writer models the
//! record; [`VECTORS`] says which do not). Every vector file also carries the hand-written
//! Header, Index and Setup chunks, so every writer check covers them as well.
//!
//! [`VECTORS`] is the registry: `every_declared_kind_has_a_vector` fails when a kind of the
//! dispatch tables (`kinds.rs`) has a documented layout but no vector here.

use crate::support::whole_document;
use animscope::formats::ccsf::write::{self, CcsFile, Chunk, Ctrl, Mmat, Model, Vert};
use animscope::formats::ccsf::{Ccsf, chunk_kind_name, declared_chunk_kinds};
use animscope::limits::Limits;
use animscope::model::{Document, Meaning, NodeId, Raw, Severity};
use animscope::test_support::expect::{V::*, Want, assert_fields, assert_same_bytes, child, node};

// ---------------------------------------------------------------------------------------
// Byte helpers: little-endian, as the spec says for every multi-byte value.

/// Append `x` little-endian.
fn w32(v: &mut Vec<u8>, x: u32) {
    v.extend(x.to_le_bytes());
}
fn wf(v: &mut Vec<u8>, x: f32) {
    v.extend(x.to_le_bytes());
}
fn w16(v: &mut Vec<u8>, x: u16) {
    v.extend(x.to_le_bytes());
}
fn wi16(v: &mut Vec<u8>, x: i16) {
    v.extend(x.to_le_bytes());
}
/// Append `s` zero-padded to `n` bytes.
fn padded(v: &mut Vec<u8>, s: &[u8], n: usize) {
    let mut b = s.to_vec();
    b.resize(n, 0);
    v.extend(b);
}

/// The objects of every vector file's Index, in index order (entry 0 is the blank one).
const OBJECTS: [&str; 9] = ["OBJ_a", "OBJ_b", "MDL_c", "MAT_d", "TEX_e", "ANM_f", "LYR_g", "MPH_h", "CLT_i"];

/// Offset of the first chunk after Setup in every vector file.
const REC: u64 = 0x1d4;
/// Offset of the record after `Frame(1), Top 0` in a frame-section vector file.
const SUB: u64 = REC + 24;
/// Offset of the record after the Anime head (8 + 12 bytes) and its `Top 0` in an Anime
/// vector file.
const ASUB: u64 = REC + 32;

/// Header, Index and Setup (docs/formats/ccsf.md#header-0x0001, #index-0x0002) of every vector file, by hand.
fn prefix(version: u16) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend([0x01, 0x00, 0xcc, 0xcc]); // 0x00 kind 0x0001 Header, tag 0xcccc
    w32(&mut v, 13); // 0x04 size = 12 + count
    v.extend(b"CCSF"); // 0x08 magic
    padded(&mut v, b"vec", 32); // 0x0c name, NUL-padded
    w16(&mut v, version); // 0x2c version
    v.extend([0, 0]); // 0x2e pad
    w32(&mut v, 0); // 0x30 frames (seek table length)
    w32(&mut v, 1); // 0x34 count
    w32(&mut v, 0); // 0x38 words[0]
    assert_eq!(v.len(), 0x3c);
    v.extend([0x02, 0x00, 0xcc, 0xcc]); // 0x3c kind 0x0002 Index
    w32(&mut v, 2 + 8 * (2 + 10)); // 0x40 size = 2 + 8 (file_count + object_count) = 98
    w32(&mut v, 2); // 0x44 file_count (blank entry 0 included)
    w32(&mut v, 10); // 0x48 object_count (blank entry 0 included)
    padded(&mut v, b"", 32); // 0x4c file[0]: all zero
    padded(&mut v, b" x\\vec.max", 32); // 0x6c file[1]: ' ' = defined in this file
    padded(&mut v, b"", 32); // 0x8c object[0]: all zero
    for name in OBJECTS {
        padded(&mut v, name.as_bytes(), 30); // object name, NUL-padded to 30
        w16(&mut v, 1); // its file: file[1]
    }
    assert_eq!(v.len(), 0x1cc);
    v.extend([0x03, 0x00, 0x00, 0x00]); // 0x1cc kind 0x0003 Setup, tag 0x0000 (always)
    w32(&mut v, 0); // 0x1d0 size 0: Setup is empty
    assert_eq!(v.len() as u64, REC);
    v
}

fn frame(v: &mut Vec<u8>, count: u32) {
    v.extend([0x05, 0x00, 0xcc, 0xcc]); // kind 0x0005 Frame
    w32(v, 1); // size 1
    w32(v, count); // frame_count
}

fn top(v: &mut Vec<u8>, n: u32) {
    v.extend([0x01, 0xff, 0xcc, 0xcc]); // kind 0xff01 Top
    w32(v, 1); // size 1
    w32(v, n); // frame number (0xffffffff = end, 0xfffffffe = end + reset)
}

/// A setup-section vector file: prefix, the records, then the empty DATA.BIN-style frame
/// section `Frame(1), Top −1`.
fn setup_file(version: u16, recs: &[u8]) -> Vec<u8> {
    let mut v = prefix(version);
    v.extend(recs);
    frame(&mut v, 1);
    top(&mut v, 0xffff_ffff);
    v
}

/// A frame-section vector file: `Frame(1), Top 0`, the record (at [`SUB`]), `Top −1`.
fn frames_file(rec: &[u8]) -> Vec<u8> {
    let mut v = prefix(0x100);
    frame(&mut v, 1);
    top(&mut v, 0);
    v.extend(rec);
    top(&mut v, 0xffff_ffff);
    v
}

/// An Anime vector file: one Anime chunk (ANM_f, 1 frame) whose sub-stream is `Top 0`, the
/// record (at [`ASUB`]), `Top −1`.
fn anime_file(rec: &[u8]) -> Vec<u8> {
    let words = (12 + rec.len() + 12) as u32 / 4;
    let mut a = Vec::new();
    a.extend([0x00, 0x07, 0xcc, 0xcc]); // kind 0x0700 Anime
    w32(&mut a, 3 + words); // size = 3 + words [I]
    w32(&mut a, 6); // object = ANM_f
    w32(&mut a, 1); // frames N = 1
    w32(&mut a, words); // words of the sub-record stream
    top(&mut a, 0);
    a.extend(rec);
    top(&mut a, 0xffff_ffff);
    setup_file(0x100, &a)
}

// ---------------------------------------------------------------------------------------
// The same files through the writer.

fn ccs(version: u16, chunks: Vec<Chunk>) -> CcsFile {
    let mut all = vec![Chunk::Setup];
    all.extend(chunks);
    CcsFile {
        name: "vec".into(),
        version,
        frames: 0,
        files: vec![(b' ', "x\\vec.max".into())],
        objects: OBJECTS.iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: all,
    }
}

fn written_setup(version: u16, chunks: Vec<Chunk>) -> Vec<u8> {
    let mut c = chunks;
    c.extend(write::empty_frame_section());
    write::write(&ccs(version, c))
}

fn written_frames(rec: Chunk) -> Vec<u8> {
    write::write(&ccs(
        0x100,
        vec![Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0 }, rec, Chunk::Top { frame: 0xffff_ffff }],
    ))
}

fn written_anime(rec: Chunk) -> Vec<u8> {
    let records = vec![Chunk::Top { frame: 0 }, rec, Chunk::Top { frame: 0xffff_ffff }];
    written_setup(0x100, vec![Chunk::Anime { object: 6, frames: 1, records }])
}

// ---------------------------------------------------------------------------------------
// Expected fields (the checker is `animscope::test_support::expect`).

/// The 8-byte chunk header every record starts with.
fn head(kind: u16, tag: u16, size: u32) -> [Want; 3] {
    [("kind", 0, 2, N(u64::from(kind))), ("tag", 2, 2, N(u64::from(tag))), ("size", 4, 4, N(u64::from(size)))]
}

fn describe(file: &[u8]) -> Document {
    let doc = whole_document(Some(&Ccsf), "vec.ccs", file, &Limits::default()).unwrap();
    assert_eq!(doc.validate(), Ok(()));
    let bad: Vec<_> = doc.diagnostics.iter().filter(|d| d.severity > Severity::Info).collect();
    assert!(bad.is_empty(), "{bad:?}");
    assert!(doc.root().summary.ends_with("walk clean"), "{}", doc.root().summary);
    doc
}

/// Check the record `rec` at `at` of `file` (a node of `kind`) against `want`.
fn check_record(file: &[u8], at: u64, rec: &[u8], kind: &str, want: &[Want]) -> (Document, NodeId) {
    assert_eq!(&file[at as usize..at as usize + rec.len()], rec);
    let doc = describe(file);
    let id = node(&doc, at, rec.len() as u64, kind);
    assert_fields(&doc, id, at, want);
    (doc, id)
}

// ---------------------------------------------------------------------------------------
// Header, Index, Setup (docs/formats/ccsf.md#header-0x0001, #index-0x0002).

#[test]
fn header_index_and_setup() {
    let file = setup_file(0x100, &[]);
    let doc = describe(&file);
    let h = node(&doc, 0, 0x3c, "Header");
    let mut want = head(0x0001, 0xcccc, 13).to_vec();
    want.extend([
        ("magic", 0x08, 4, T(b"CCSF")),
        ("name", 0x0c, 32, T(b"vec")),
        ("version", 0x2c, 2, N(0x100)),
        ("pad", 0x2e, 2, N(0)),
        ("frames", 0x30, 4, N(0)),
        ("count", 0x34, 4, N(1)),
        ("word[0]", 0x38, 4, N(0)),
    ]);
    assert_fields(&doc, h, 0, &want);
    let ix = node(&doc, 0x3c, 0x190, "Index");
    let mut want = head(0x0002, 0xcccc, 98).to_vec();
    want.extend([("file_count", 8, 4, N(2)), ("object_count", 12, 4, N(10))]);
    assert_fields(&doc, ix, 0x3c, &want);
    let files = child(&doc, ix, "files");
    assert_fields(&doc, files, 0x4c, &[("file[0]", 0, 32, T(b"")), ("file[1]", 0x20, 32, T(b" x\\vec.max"))]);
    let objects = child(&doc, ix, "objects");
    let mut want: Vec<Want> = vec![("object[0]", 0, 30, T(b"")), ("object[0].file", 30, 2, N(0))];
    const KEYS: [(&str, &str); 9] = [
        ("object[1]", "object[1].file"),
        ("object[2]", "object[2].file"),
        ("object[3]", "object[3].file"),
        ("object[4]", "object[4].file"),
        ("object[5]", "object[5].file"),
        ("object[6]", "object[6].file"),
        ("object[7]", "object[7].file"),
        ("object[8]", "object[8].file"),
        ("object[9]", "object[9].file"),
    ];
    for (i, (name, (k, kf))) in OBJECTS.iter().zip(KEYS).enumerate() {
        let at = 32 * (i as u64 + 1);
        want.push((k, at, 30, T(name.as_bytes())));
        want.push((kf, at + 30, 2, R(1, " x\\x5cvec.max")));
    }
    assert_fields(&doc, objects, 0x8c, &want);
    let s = node(&doc, 0x1cc, 8, "Setup");
    assert_fields(&doc, s, 0x1cc, &head(0x0003, 0x0000, 0));
    assert_same_bytes(&written_setup(0x100, vec![]), &file);
}

// ---------------------------------------------------------------------------------------
// Setup-section records (docs/formats/ccsf.md#setup-chunks).

#[test]
fn obj_version_0x96_and_later() {
    let mut r = Vec::new();
    r.extend([0x00, 0x01, 0xcc, 0xcc]); // +0 kind 0x0100 Obj, tag 0xcccc
    w32(&mut r, 4); // +4 size: 4 words from version 0x96
    w32(&mut r, 1); // +8 object = OBJ_a
    w32(&mut r, 2); // +12 parent = OBJ_b
    w32(&mut r, 3); // +16 model = MDL_c
    w32(&mut r, 0); // +20 shadow_model: none
    let file = setup_file(0x100, &r);
    let mut want = head(0x0100, 0xcccc, 4).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("parent", 12, 4, R(2, "OBJ_b")),
        ("model", 16, 4, R(3, "MDL_c")),
        ("shadow_model", 20, 4, R(0, "none")),
    ]);
    check_record(&file, REC, &r, "Obj", &want);
    let w = written_setup(0x100, vec![Chunk::Obj { object: 1, parent: 2, model: 3, shadow: 0 }]);
    assert_same_bytes(&w, &file);
}

#[test]
fn obj_before_version_0x96() {
    let mut r = Vec::new();
    r.extend([0x00, 0x01, 0xcc, 0xcc]); // +0 kind 0x0100 Obj
    w32(&mut r, 3); // +4 size: 3 words below version 0x96
    w32(&mut r, 1); // +8 object = OBJ_a
    w32(&mut r, 0); // +12 parent: none
    w32(&mut r, 3); // +16 model = MDL_c
    let file = setup_file(0x95, &r);
    let mut want = head(0x0100, 0xcccc, 3).to_vec();
    want.extend([("object", 8, 4, R(1, "OBJ_a")), ("parent", 12, 4, R(0, "none")), ("model", 16, 4, R(3, "MDL_c"))]);
    check_record(&file, REC, &r, "Obj", &want);
    // the writer drops the shadow word below 0x96
    let w = written_setup(0x95, vec![Chunk::Obj { object: 1, parent: 0, model: 3, shadow: 7 }]);
    assert_same_bytes(&w, &file);
}

#[test]
fn material() {
    let mut r = Vec::new();
    r.extend([0x00, 0x02, 0xcc, 0xcc]); // +0 kind 0x0200 Material
    w32(&mut r, 4); // +4 size 4
    w32(&mut r, 4); // +8 object = MAT_d
    w32(&mut r, 5); // +12 texture = TEX_e
    r.extend([0x00, 0x00, 0x00, 0x3f]); // +16 f32 transparency 0.5
    w16(&mut r, 16); // +20 u16 cropU
    w16(&mut r, 32); // +22 u16 cropV
    let file = setup_file(0x100, &r);
    let mut want = head(0x0200, 0xcccc, 4).to_vec();
    want.extend([
        ("object", 8, 4, R(4, "MAT_d")),
        ("texture", 12, 4, R(5, "TEX_e")),
        ("transparency", 16, 4, F(0.5)),
        ("crop_u", 20, 2, N(16)),
        ("crop_v", 22, 2, N(32)),
    ]);
    check_record(&file, REC, &r, "Material", &want);
    let w = written_setup(0x100, vec![Chunk::Material { object: 4, texture: 5, transparency: 0.5, crop: [16, 32] }]);
    assert_same_bytes(&w, &file);
}

/// CLUT (docs/formats/ccsf.md#clut-0x0400, version ≥ 0x92) then a 4×2 PSMT4 texture (docs/formats/ccsf.md#texture-0x0300) whose size field is wrong
/// on purpose, as on the disc.
#[test]
fn clut_and_texture() {
    let mut c = Vec::new();
    c.extend([0x00, 0x04, 0xcc, 0xcc]); // +0 kind 0x0400 Clut
    w32(&mut c, 4 + 16 + 1); // +4 size = 4 + count + 1 (blt_group, version >= 0x92)
    w32(&mut c, 9); // +8 clut = CLT_i
    w32(&mut c, 0); // +12 blt_group
    c.extend([0x01, 0x00, 0x00, 0x00]); // +16 flag 1, cpsm 0, unknown_2 0, unknown_3 0
    w16(&mut c, 768); // +20 buf_x
    w16(&mut c, 768); // +22 buf_y
    w32(&mut c, 16); // +24 count 16
    for i in 0..16u8 {
        c.extend([16 * i, 255 - i, 7, 0x80]); // +28 + 4i colour i: R, G, B, A (0x80 = opaque)
    }
    assert_eq!(c.len(), 8 + 4 * 21);
    let mut t = Vec::new();
    t.extend([0x00, 0x03, 0xcc, 0xcc]); // +0 kind 0x0300 Texture
    w32(&mut t, 0x2039); // +4 size: wrong on purpose (the decoder reads 8 words)
    w32(&mut t, 5); // +8 texture = TEX_e
    w32(&mut t, 9); // +12 clut = CLT_i
    w32(&mut t, 0); // +16 blt_group (version >= 0x92)
    t.extend([0x00, 0x14, 0x00, 0x70]); // +20 flag 0, psm 0x14 PSMT4, mipmap 0, aref 0x70
    t.extend([0x02, 0x01, 0xcd, 0xcd]); // +24 tw 2 (4 px), th 1 (2 px), pad cd cd
    w16(&mut t, 768); // +28 level 0 buf_x
    w16(&mut t, 0); // +30 level 0 buf_y
    w32(&mut t, 1); // +32 count: 1 word = 8 pixels at 4 bpp
    t.extend([0x21, 0x43, 0x0f, 0x50]); // +36 pixels (low nibble = left pixel)
    let mut recs = c.clone();
    recs.extend(&t);
    let file = setup_file(0x100, &recs);
    let mut want = head(0x0400, 0xcccc, 21).to_vec();
    want.extend([
        ("clut", 8, 4, R(9, "CLT_i")),
        ("blt_group", 12, 4, N(0)),
        ("flag", 16, 1, N(1)),
        ("cpsm", 17, 1, N(0)),
        ("unknown_2", 18, 1, N(0)),
        ("unknown_3", 19, 1, N(0)),
        ("buf_x", 20, 2, N(768)),
        ("buf_y", 22, 2, N(768)),
        ("count", 24, 4, N(16)),
        ("colours", 28, 64, B),
    ]);
    check_record(&file, REC, &c, "Clut", &want);
    let at = REC + c.len() as u64;
    let mut want = head(0x0300, 0xcccc, 0x2039).to_vec();
    want.extend([
        ("texture", 8, 4, R(5, "TEX_e")),
        ("clut", 12, 4, R(9, "CLT_i")),
        ("blt_group", 16, 4, N(0)),
        ("flag", 20, 1, N(0)),
        ("psm", 21, 1, N(0x14)),
        ("mipmap", 22, 1, N(0)),
        ("aref", 23, 1, N(0x70)),
        ("tw", 24, 1, N(2)),
        ("th", 25, 1, N(1)),
        ("pad", 26, 2, B),
    ]);
    let (doc, id) = check_record(&file, at, &t, "Texture", &want);
    let l0 = child(&doc, id, "level[0]");
    assert_fields(
        &doc,
        l0,
        at + 28,
        &[("buf_x", 0, 2, N(768)), ("buf_y", 2, 2, N(0)), ("count", 4, 4, N(1)), ("pixels", 8, 4, B)],
    );
    let colours: Vec<[u8; 4]> = (0..16u8).map(|i| [16 * i, 255 - i, 7, 0x80]).collect();
    let w = written_setup(
        0x100,
        vec![
            Chunk::Clut { clut: 9, blt_group: 0, flag: 1, buf: [768, 768], colours },
            Chunk::Texture {
                texture: 5,
                clut: 9,
                blt_group: 0,
                flag: 0,
                psm: 0x14,
                aref: 0x70,
                tw: 2,
                th: 1,
                levels: vec![(768, 0, vec![0x21, 0x43, 0x0f, 0x50])],
                size_surplus: 0x2039 - 8,
            },
        ],
    );
    assert_same_bytes(&w, &file);
}

#[test]
fn camera() {
    let mut r = Vec::new();
    r.extend([0x00, 0x05, 0xcc, 0xcc]); // +0 kind 0x0500 Camera
    w32(&mut r, 1); // +4 size 1
    w32(&mut r, 1); // +8 object
    let file = setup_file(0x100, &r);
    let mut want = head(0x0500, 0xcccc, 1).to_vec();
    want.push(("object", 8, 4, R(1, "OBJ_a")));
    check_record(&file, REC, &r, "Camera", &want);
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Camera { object: 1 }]), &file);
}

#[test]
fn light() {
    let mut r = Vec::new();
    r.extend([0x00, 0x06, 0xcc, 0xcc]); // +0 kind 0x0600 Light
    w32(&mut r, 2); // +4 size 2
    w32(&mut r, 1); // +8 object
    wi16(&mut r, 4); // +12 s16 type 4 = omni
    r.extend([0, 0]); // +14 pad to 4
    let file = setup_file(0x100, &r);
    let mut want = head(0x0600, 0xcccc, 2).to_vec();
    want.extend([("object", 8, 4, R(1, "OBJ_a")), ("type", 12, 2, I(4)), ("pad", 14, 2, B)]);
    check_record(&file, REC, &r, "Light", &want);
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Light { object: 1, light_type: 4 }]), &file);
}

/// Anime container (docs/formats/ccsf.md#anime-0x0700): 2 frames, `Top 0, Top 1, Top −2` (loop).
#[test]
fn anime_container() {
    let mut r = Vec::new();
    r.extend([0x00, 0x07, 0xcc, 0xcc]); // +0 kind 0x0700 Anime
    w32(&mut r, 3 + 9); // +4 size = 3 + words
    w32(&mut r, 6); // +8 object = ANM_f
    w32(&mut r, 2); // +12 frames N = 2
    w32(&mut r, 9); // +16 words of sub-records (3 Tops × 3 words)
    top(&mut r, 0); // +20 Top 0
    top(&mut r, 1); // +32 Top 1
    top(&mut r, 0xffff_fffe); // +44 Top −2: loop
    let file = setup_file(0x100, &r);
    let mut want = head(0x0700, 0xcccc, 12).to_vec();
    want.extend([("object", 8, 4, R(6, "ANM_f")), ("frames", 12, 4, N(2)), ("words", 16, 4, N(9))]);
    let (doc, id) = check_record(&file, REC, &r, "Anime", &want);
    for (i, at) in [(0u32, 20u64), (1, 32)] {
        let g = child(&doc, id, &format!("frame[{i}]"));
        let t = child(&doc, g, &format!("Top[{i}]"));
        let mut want = head(0xff01, 0xcccc, 1).to_vec();
        want.push(("frame", 8, 4, N(u64::from(i))));
        assert_fields(&doc, t, REC + at, &want);
    }
    let end = child(&doc, id, "Top[-2]");
    let mut want = head(0xff01, 0xcccc, 1).to_vec();
    want.push(("frame", 8, 4, N(0xffff_fffe)));
    assert_fields(&doc, end, REC + 44, &want);
    let records = vec![Chunk::Top { frame: 0 }, Chunk::Top { frame: 1 }, Chunk::Top { frame: 0xffff_fffe }];
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Anime { object: 6, frames: 2, records }]), &file);
}

/// A rigid model (docs/formats/ccsf.md#model-0x0800, docs/formats/ccsf.md#mmat-bodies) of 3 vertices (odd: 2 pad bytes after the positions).
#[test]
fn model_rigid() {
    let mut r = Vec::new();
    r.extend([0x00, 0x08, 0xcc, 0xcc]); // +0 kind 0x0800 Model
    w32(&mut r, 5 + 3 + 5 + 3 * 3); // +4 size: header 5, mmat header 3, positions 5, 3 arrays of 3
    w32(&mut r, 3); // +8 model = MDL_c
    wf(&mut r, 2048.0); // +12 vertexScale
    w16(&mut r, 0); // +16 mtype 0: unlit rigid, every array present
    w16(&mut r, 1); // +18 mmatNum 1
    w16(&mut r, 1); // +20 flag: blend 1
    wi16(&mut r, 0); // +22 zoffs
    r.extend([0x70, 0, 0, 0]); // +24 unknown 0x70, 3 pad bytes
    w32(&mut r, 0); // +28 mmat name: none
    w32(&mut r, 4); // +32 material = MAT_d
    w32(&mut r, 3); // +36 vertexNum 3
    for c in [2i16, 4, 6, -2, 0, 0, 0, 8, 0] {
        wi16(&mut r, c); // +40 s16 positions, 3 × 3
    }
    r.extend([0xcd, 0xcd]); // +58 pad to 4
    for flag in [1u8, 1, 0] {
        r.extend([0, 0, 64, flag]); // +60 normals (0, 0, 1) and strip flags 1 1 0
    }
    for _ in 0..3 {
        r.extend([0x80, 0x40, 0x20, 0x80]); // +72 colours R G B A
    }
    for (s, t) in [(0u16, 0u16), (256, 0), (128, 512)] {
        w16(&mut r, s); // +84 ST: S
        w16(&mut r, t); //         T
    }
    assert_eq!(r.len(), 96);
    let file = setup_file(0x100, &r);
    let mut want = head(0x0800, 0xcccc, 22).to_vec();
    want.extend([
        ("model", 8, 4, R(3, "MDL_c")),
        ("vertex_scale", 12, 4, F(2048.0)),
        ("mtype", 16, 2, N(0)),
        ("mmat_num", 18, 2, N(1)),
        ("flag", 20, 2, N(1)),
        ("zoffs", 22, 2, I(0)),
        ("unknown", 24, 1, N(0x70)),
        ("pad", 25, 3, B),
    ]);
    let (doc, id) = check_record(&file, REC, &r, "Model", &want);
    let mm = child(&doc, id, "mmat[0]");
    assert_fields(
        &doc,
        mm,
        REC,
        &[
            ("name", 28, 4, R(0, "none")),
            ("material", 32, 4, R(4, "MAT_d")),
            ("vertex_num", 36, 4, N(3)),
            ("positions", 40, 18, B),
            ("pad", 58, 2, B),
            ("normals", 60, 12, B),
            ("colours", 72, 12, B),
            ("sts", 84, 12, B),
        ],
    );
    let vert = |pos, flag, st| Vert { pos, normal: [0, 0, 64], flag, colour: [0x80, 0x40, 0x20, 0x80], st };
    let m = Model {
        object: 3,
        scale: 2048.0,
        mtype: 0,
        flag: 1,
        mmats: vec![Mmat::Rigid {
            name: 0,
            material: 4,
            verts: vec![vert([2, 4, 6], 1, [0, 0]), vert([-2, 0, 0], 1, [256, 0]), vert([0, 8, 0], 0, [128, 512])],
        }],
        size_surplus: 0,
    };
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Model(m)]), &file);
}

/// A bone + skin model (docs/formats/ccsf.md#mmat-heads, docs/formats/ccsf.md#mmat-bodies): mtype 5, one bone mmat of 1 vertex, one skin mmat of
/// 1 vertex made of 2 entries, with the disc's +15 words per mmat in the size field.
#[test]
fn model_bone_and_skin() {
    let mut r = Vec::new();
    r.extend([0x00, 0x08, 0xcc, 0xcc]); // +0 kind 0x0800 Model
    w32(&mut r, 5 + 8 + 10 + 30); // +4 size: header 5 + bone 8 + skin 10 words read, + 15 per mmat (the disc's surplus)
    w32(&mut r, 3); // +8 model = MDL_c
    wf(&mut r, 4096.0); // +12 vertexScale
    w16(&mut r, 5); // +16 mtype 5: lit, bone/skin layout
    w16(&mut r, 2); // +18 mmatNum 2
    w16(&mut r, 0); // +20 flag
    wi16(&mut r, 0); // +22 zoffs
    r.extend([0x70, 0, 0, 0]); // +24 unknown 0x70, pad
    // mmat 0: bone (offsetNum 0)
    w32(&mut r, 4); // +28 material = MAT_d
    w32(&mut r, 1); // +32 vertexNum 1
    w32(&mut r, 0); // +36 offsetNum 0 → bone
    w32(&mut r, 2); // +40 node: clump slot 2
    for c in [1i16, 2, 3] {
        wi16(&mut r, c); // +44 s16 position
    }
    r.extend([0xcd, 0xcd]); // +50 pad to 4
    r.extend([64, 0, 0, 1]); // +52 normal (1, 0, 0), strip flag 1
    w16(&mut r, 0); // +56 ST: S
    w16(&mut r, 256); //         T
    // mmat 1: skin (offsetNum 2)
    w32(&mut r, 4); // +60 material
    w32(&mut r, 1); // +64 vertexNum 1
    w32(&mut r, 2); // +68 offsetNum 2 entries
    for c in [10i16, 0, 0] {
        wi16(&mut r, c); // +72 entry 0 position
    }
    w16(&mut r, 0x80 | 3 << 10); // +78 weight 0.5, not last, slot 3
    for c in [0i16, 20, 0] {
        wi16(&mut r, c); // +80 entry 1 position
    }
    w16(&mut r, 0x80 | 0x200 | 5 << 10); // +86 weight 0.5, last (bit 9), slot 5
    r.extend([0, 0, 64, 0]); // +88 normal of entry 0
    r.extend([0, 64, 0, 1]); // +92 normal of entry 1 (its byte 3: the vertex's strip flag)
    w16(&mut r, 256); // +96 ST of the vertex: S
    w16(&mut r, 256); //                      T
    assert_eq!(r.len(), 100);
    let file = setup_file(0x100, &r);
    let mut want = head(0x0800, 0xcccc, 53).to_vec();
    want.extend([
        ("model", 8, 4, R(3, "MDL_c")),
        ("vertex_scale", 12, 4, F(4096.0)),
        ("mtype", 16, 2, N(5)),
        ("mmat_num", 18, 2, N(2)),
        ("flag", 20, 2, N(0)),
        ("zoffs", 22, 2, I(0)),
        ("unknown", 24, 1, N(0x70)),
        ("pad", 25, 3, B),
    ]);
    // the size field is distrusted: the walker reads 100 bytes
    let (doc, id) = check_record(&file, REC, &r, "Model", &want);
    let bone = child(&doc, id, "mmat[0]");
    assert_fields(
        &doc,
        bone,
        REC,
        &[
            ("material", 28, 4, R(4, "MAT_d")),
            ("vertex_num", 32, 4, N(1)),
            ("offset_num", 36, 4, N(0)),
            ("node", 40, 4, N(2)),
            ("positions", 44, 6, B),
            ("pad", 50, 2, B),
            ("normals", 52, 4, B),
            ("sts", 56, 4, B),
        ],
    );
    let skin = child(&doc, id, "mmat[1]");
    assert_fields(
        &doc,
        skin,
        REC,
        &[
            ("material", 60, 4, R(4, "MAT_d")),
            ("vertex_num", 64, 4, N(1)),
            ("offset_num", 68, 4, N(2)),
            ("entries", 72, 16, B),
            ("normals", 88, 8, B),
            ("sts", 96, 4, B),
        ],
    );
    let entry = |pos, weight, last, slot, normal, flag| write::Entry { pos, weight, last, slot, normal, flag };
    let m = Model {
        object: 3,
        scale: 4096.0,
        mtype: 5,
        flag: 0,
        mmats: vec![
            Mmat::Bone {
                material: 4,
                node: 2,
                verts: vec![Vert { pos: [1, 2, 3], normal: [64, 0, 0], flag: 1, colour: [0; 4], st: [0, 256] }],
            },
            Mmat::Skin {
                material: 4,
                entries: vec![
                    entry([10, 0, 0], 0x80, false, 3, [0, 0, 64], 0),
                    entry([0, 20, 0], 0x80, true, 5, [0, 64, 0], 1),
                ],
                sts: vec![[256, 256]],
            },
        ],
        size_surplus: 30,
    };
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Model(m)]), &file);
}

/// A shadow model (docs/formats/ccsf.md#mmat-bodies): vNum 3, iNum 4 → trunc(4/3) = 1 triangle.
#[test]
fn model_shadow() {
    let mut r = Vec::new();
    r.extend([0x00, 0x08, 0xcc, 0xcc]); // +0 kind 0x0800 Model
    w32(&mut r, 5 + 2 + 5 + 3); // +4 size: header, vNum/iNum, positions, one triangle
    w32(&mut r, 3); // +8 model
    wf(&mut r, 4096.0); // +12 vertexScale
    w16(&mut r, 8); // +16 mtype 8: shadow (no per-mmat header words)
    w16(&mut r, 1); // +18 mmatNum 1
    w16(&mut r, 0); // +20 flag
    wi16(&mut r, 0); // +22 zoffs
    r.extend([0x70, 0, 0, 0]); // +24 unknown, pad
    w32(&mut r, 3); // +28 s32 vNum 3
    w32(&mut r, 4); // +32 s32 iNum 4
    for c in [0i16, 0, 0, 1, 0, 0, 0, 1, 0] {
        wi16(&mut r, c); // +36 s16 positions
    }
    r.extend([0xcd, 0xcd]); // +54 pad to 4
    for i in [0u32, 1, 2] {
        w32(&mut r, i); // +56 s32 triangle
    }
    let file = setup_file(0x100, &r);
    let mut want = head(0x0800, 0xcccc, 15).to_vec();
    want.extend([
        ("model", 8, 4, R(3, "MDL_c")),
        ("vertex_scale", 12, 4, F(4096.0)),
        ("mtype", 16, 2, N(8)),
        ("mmat_num", 18, 2, N(1)),
        ("flag", 20, 2, N(0)),
        ("zoffs", 22, 2, I(0)),
        ("unknown", 24, 1, N(0x70)),
        ("pad", 25, 3, B),
    ]);
    let (doc, id) = check_record(&file, REC, &r, "Model", &want);
    let mm = child(&doc, id, "mmat[0]");
    assert_fields(
        &doc,
        mm,
        REC,
        &[
            ("v_num", 28, 4, I(3)),
            ("i_num", 32, 4, I(4)),
            ("positions", 36, 18, B),
            ("pad", 54, 2, B),
            ("triangles", 56, 12, B),
        ],
    );
    let m = Model {
        object: 3,
        scale: 4096.0,
        mtype: 8,
        flag: 0,
        mmats: vec![Mmat::Shadow {
            positions: vec![[0, 0, 0], [1, 0, 0], [0, 1, 0]],
            triangles: vec![[0, 1, 2]],
            inum: Some(4),
        }],
        size_surplus: 0,
    };
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Model(m)]), &file);
}

#[test]
fn clump() {
    let mut r = Vec::new();
    r.extend([0x00, 0x09, 0xcc, 0xcc]); // +0 kind 0x0900 Clump
    w32(&mut r, 2 + 2); // +4 size = 2 + n
    w32(&mut r, 1); // +8 object
    w16(&mut r, 2); // +12 u16 n = 2
    r.extend([0, 0]); // +14 pad to 4 (upper half of a u32 count)
    w32(&mut r, 1); // +16 node[0] = OBJ_a
    w32(&mut r, 2); // +20 node[1] = OBJ_b
    let file = setup_file(0x100, &r);
    let mut want = head(0x0900, 0xcccc, 4).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("n", 12, 2, N(2)),
        ("pad", 14, 2, B),
        ("node[0]", 16, 4, R(1, "OBJ_a")),
        ("node[1]", 20, 4, R(2, "OBJ_b")),
    ]);
    check_record(&file, REC, &r, "Clump", &want);
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Clump { object: 1, nodes: vec![1, 2] }]), &file);
}

#[test]
fn ext_obj() {
    let mut r = Vec::new();
    r.extend([0x00, 0x0a, 0xcc, 0xcc]); // +0 kind 0x0a00 ExtObj
    w32(&mut r, 3); // +4 size 3
    w32(&mut r, 2); // +8 object = OBJ_b (the animation's copy)
    w32(&mut r, 0); // +12 parent: none
    w32(&mut r, 1); // +16 target = OBJ_a (what the animation drives)
    let file = setup_file(0x100, &r);
    let mut want = head(0x0a00, 0xcccc, 3).to_vec();
    want.extend([("object", 8, 4, R(2, "OBJ_b")), ("parent", 12, 4, R(0, "none")), ("target", 16, 4, R(1, "OBJ_a"))]);
    check_record(&file, REC, &r, "ExtObj", &want);
    assert_same_bytes(&written_setup(0x100, vec![Chunk::ExtObj { object: 2, parent: 0, target: 1 }]), &file);
}

#[test]
fn hit() {
    let mut r = Vec::new();
    r.extend([0x00, 0x0b, 0xcc, 0xcc]); // +0 kind 0x0b00 Hit
    w32(&mut r, 4 + (2 + 6 * 3)); // +4 size = 4 + Σ(2 + 6v) = 24
    w32(&mut r, 1); // +8 object
    w32(&mut r, 2); // +12 parent
    w16(&mut r, 1); // +16 u16 groups 1
    wi16(&mut r, 0); // +18 s16 pad
    w32(&mut r, 3); // +20 total_vertices
    w32(&mut r, 3); // +24 group 0: v = 3 (one triangle)
    w32(&mut r, 7); // +28 attribute
    for x in [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0] {
        wf(&mut r, x); // +32 f32 pos[3][3]
    }
    for _ in 0..3 {
        for x in [0.0f32, 0.0, 1.0] {
            wf(&mut r, x); // +68 f32 normal[3][3] (read and discarded by the game)
        }
    }
    assert_eq!(r.len(), 104);
    let file = setup_file(0x100, &r);
    let mut want = head(0x0b00, 0xcccc, 24).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("parent", 12, 4, R(2, "OBJ_b")),
        ("groups", 16, 2, N(1)),
        ("pad", 18, 2, I(0)),
        ("total_vertices", 20, 4, N(3)),
    ]);
    let (doc, id) = check_record(&file, REC, &r, "Hit", &want);
    let g = child(&doc, id, "group[0]");
    assert_eq!(doc.node(g).unwrap().span.len(), 80);
    assert_fields(
        &doc,
        g,
        REC,
        &[("v", 24, 4, N(3)), ("attribute", 28, 4, N(7)), ("positions", 32, 36, B), ("normals", 68, 36, B)],
    );
    let groups = vec![(7, vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])];
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Hit { object: 1, parent: 2, groups }]), &file);
}

#[test]
fn bbox() {
    let mut r = Vec::new();
    r.extend([0x00, 0x0c, 0xcc, 0xcc]); // +0 kind 0x0c00 Bbox
    w32(&mut r, 8); // +4 size 8
    w32(&mut r, 1); // +8 box
    w32(&mut r, 2); // +12 target
    for x in [-1.0f32, -2.0, -3.0] {
        wf(&mut r, x); // +16 f32 min[3]
    }
    for x in [1.0f32, 2.0, 3.0] {
        wf(&mut r, x); // +28 f32 max[3]
    }
    let file = setup_file(0x100, &r);
    let mut want = head(0x0c00, 0xcccc, 8).to_vec();
    want.extend([
        ("box", 8, 4, R(1, "OBJ_a")),
        ("target", 12, 4, R(2, "OBJ_b")),
        ("min.x", 16, 4, F(-1.0)),
        ("min.y", 20, 4, F(-2.0)),
        ("min.z", 24, 4, F(-3.0)),
        ("max.x", 28, 4, F(1.0)),
        ("max.y", 32, 4, F(2.0)),
        ("max.z", 36, 4, F(3.0)),
    ]);
    check_record(&file, REC, &r, "Bbox", &want);
    let c = Chunk::Bbox { object: 1, target: 2, min: [-1.0, -2.0, -3.0], max: [1.0, 2.0, 3.0] };
    assert_same_bytes(&written_setup(0x100, vec![c]), &file);
}

/// Eff (docs/formats/ccsf.md#setup-chunks), both directions.
#[test]
fn eff() {
    let mut r = Vec::new();
    r.extend([0x00, 0x0e, 0xcc, 0xcc]); // +0 kind 0x0e00 Eff
    w32(&mut r, 9 + 2); // +4 size = 9 + 2 patNum
    w32(&mut r, 1); // +8 object
    w32(&mut r, 5); // +12 texture = TEX_e
    w16(&mut r, 2); // +16 u16 flag: blend type 2
    wi16(&mut r, -1); // +18 s16 zoffs
    w16(&mut r, 112); // +20 u16 unknown (not read)
    w16(&mut r, 1); // +22 u16 patNum 1
    for x in [-1.0f32, -1.0, 1.0, 1.0] {
        wf(&mut r, x); // +24 f32 x0, y0, x1, y1
    }
    w16(&mut r, 1024); // +40 u16 w
    w16(&mut r, 512); // +42 u16 h
    w16(&mut r, 0); // +44 pattern 0: u
    w16(&mut r, 2048); // +46 v
    w16(&mut r, 4096); // +48 transparency (opaque)
    w16(&mut r, 0); // +50 pad
    let file = setup_file(0x100, &r);
    let mut want = head(0x0e00, 0xcccc, 11).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("texture", 12, 4, R(5, "TEX_e")),
        ("flag", 16, 2, N(2)),
        ("zoffs", 18, 2, I(-1)),
        ("unknown", 20, 2, N(112)),
        ("pat_num", 22, 2, N(1)),
        ("x0", 24, 4, F(-1.0)),
        ("y0", 28, 4, F(-1.0)),
        ("x1", 32, 4, F(1.0)),
        ("y1", 36, 4, F(1.0)),
        ("w", 40, 2, N(1024)),
        ("h", 42, 2, N(512)),
        ("patterns", 44, 8, B),
    ]);
    check_record(&file, REC, &r, "Eff", &want);
    let c = Chunk::Eff {
        object: 1,
        texture: 5,
        flag: 2,
        zoffs: -1,
        unknown: 112,
        quad: [-1.0, -1.0, 1.0, 1.0],
        size: [1024, 512],
        patterns: vec![[0, 2048, 4096]],
    };
    assert_same_bytes(&written_setup(0x100, vec![c]), &file);
}

/// FBRect (docs/formats/ccsf.md#setup-chunks): parse direction only (no writer model).
#[test]
fn fb_rect() {
    let mut r = Vec::new();
    r.extend([0x00, 0x11, 0xcc, 0xcc]); // +0 kind 0x1100 FBRect
    w32(&mut r, 4); // +4 size 4
    w32(&mut r, 1); // +8 object
    r.extend([1, 0, 0, 0]); // +12 u8 type 1, pad[3]
    w16(&mut r, 0); // +16 fx
    w16(&mut r, 224); // +18 fy
    w16(&mut r, 640); // +20 w
    w16(&mut r, 224); // +22 h
    let file = setup_file(0x100, &r);
    let mut want = head(0x1100, 0xcccc, 4).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("type", 12, 1, N(1)),
        ("pad", 13, 3, B),
        ("fx", 16, 2, N(0)),
        ("fy", 18, 2, N(224)),
        ("w", 20, 2, N(640)),
        ("h", 22, 2, N(224)),
    ]);
    check_record(&file, REC, &r, "FBRect", &want);
}

/// FBPage (docs/formats/ccsf.md#setup-chunks): parse direction only (no writer model).
#[test]
fn fb_page() {
    let mut r = Vec::new();
    r.extend([0x00, 0x12, 0xcc, 0xcc]); // +0 kind 0x1200 FBPage
    w32(&mut r, 2 + 2); // +4 size = 2 + 2n
    w32(&mut r, 1); // +8 object
    w32(&mut r, 1); // +12 n = 1
    r.extend([0, 7, 10, 8, 0, 0, 0, 0]); // +16 page: px, py, pw, ph, type, pad[3]
    let file = setup_file(0x100, &r);
    let mut want = head(0x1200, 0xcccc, 4).to_vec();
    want.extend([("object", 8, 4, R(1, "OBJ_a")), ("n", 12, 4, N(1)), ("pages", 16, 8, B)]);
    check_record(&file, REC, &r, "FBPage", &want);
}

#[test]
fn dummy_pos() {
    let mut r = Vec::new();
    r.extend([0x00, 0x13, 0xcc, 0xcc]); // +0 kind 0x1300 DummyPos
    w32(&mut r, 4); // +4 size 4
    w32(&mut r, 1); // +8 object
    r.extend([0x00, 0x00, 0xc0, 0x3f]); // +12 f32 pos.x = 1.5
    r.extend([0x00, 0x00, 0x00, 0xc0]); // +16 f32 pos.y = -2
    r.extend([0x00, 0x00, 0xc8, 0x42]); // +20 f32 pos.z = 100
    let file = setup_file(0x100, &r);
    let mut want = head(0x1300, 0xcccc, 4).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("pos.x", 12, 4, F(1.5)),
        ("pos.y", 16, 4, F(-2.0)),
        ("pos.z", 20, 4, F(100.0)),
    ]);
    check_record(&file, REC, &r, "DummyPos", &want);
    assert_same_bytes(&written_setup(0x100, vec![Chunk::DummyPos { object: 1, pos: [1.5, -2.0, 100.0] }]), &file);
}

#[test]
fn dummy_pos_rot() {
    let mut r = Vec::new();
    r.extend([0x00, 0x14, 0xcc, 0xcc]); // +0 kind 0x1400 DummyPosRot
    w32(&mut r, 7); // +4 size 7
    w32(&mut r, 2); // +8 object
    for x in [1.0f32, 2.0, 3.0] {
        wf(&mut r, x); // +12 f32 pos[3]
    }
    for x in [0.0f32, 90.0, -45.0] {
        wf(&mut r, x); // +24 f32 rot[3], degrees
    }
    let file = setup_file(0x100, &r);
    let mut want = head(0x1400, 0xcccc, 7).to_vec();
    want.extend([
        ("object", 8, 4, R(2, "OBJ_b")),
        ("pos.x", 12, 4, F(1.0)),
        ("pos.y", 16, 4, F(2.0)),
        ("pos.z", 20, 4, F(3.0)),
        ("rot.x", 24, 4, F(0.0)),
        ("rot.y", 28, 4, F(90.0)),
        ("rot.z", 32, 4, F(-45.0)),
    ]);
    check_record(&file, REC, &r, "DummyPosRot", &want);
    let c = Chunk::DummyPosRot { object: 2, pos: [1.0, 2.0, 3.0], rot: [0.0, 90.0, -45.0] };
    assert_same_bytes(&written_setup(0x100, vec![c]), &file);
}

#[test]
fn layer() {
    let mut r = Vec::new();
    r.extend([0x00, 0x17, 0xcc, 0xcc]); // +0 kind 0x1700 Layer
    w32(&mut r, 1 + 2 * 2); // +4 size = 1 + 2n
    w16(&mut r, 2); // +8 u16 n = 2
    r.extend([0, 0]); // +10 pad to 4
    r.extend([0, 0, 0, 0]); // +12 layer 0: u8 kind 0 (draw), pad to 4
    w32(&mut r, 0); // +16 object 0 = the default layer
    r.extend([1, 0, 0, 0]); // +20 layer 1: u8 kind 1 (shadow), pad
    w32(&mut r, 7); // +24 object = LYR_g
    let file = setup_file(0x100, &r);
    let mut want = head(0x1700, 0xcccc, 5).to_vec();
    want.extend([
        ("n", 8, 2, N(2)),
        ("pad", 10, 2, B),
        ("layer[0].kind", 12, 1, N(0)),
        ("pad", 13, 3, B),
        ("layer[0].object", 16, 4, R(0, "none")),
        ("layer[1].kind", 20, 1, N(1)),
        ("pad", 21, 3, B),
        ("layer[1].object", 24, 4, R(7, "LYR_g")),
    ]);
    check_record(&file, REC, &r, "Layer", &want);
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Layer { entries: vec![(0, 0), (1, 7)] }]), &file);
}

/// Shadow 0x1800 (docs/formats/ccsf.md#setup-chunks): parse direction only (no writer model).
#[test]
fn shadow() {
    let mut r = Vec::new();
    r.extend([0x00, 0x18, 0xcc, 0xcc]); // +0 kind 0x1800 Shadow
    w32(&mut r, 6); // +4 size 6
    w32(&mut r, 7); // +8 object = LYR_g (shadow layer)
    w16(&mut r, 0); // +12 u16 x
    w16(&mut r, 32); // +14 u16 y
    w16(&mut r, 256); // +16 u16 w
    w16(&mut r, 128); // +18 u16 h
    wi16(&mut r, -2); // +20 s16 px
    wi16(&mut r, 3); // +22 s16 py
    r.extend([4, 2]); // +24 u8 copies 4, u8 spread 2
    r.extend([0, 0]); // +26 u16 pad
    wf(&mut r, 50.0); // +28 f32 length
    let file = setup_file(0x100, &r);
    let mut want = head(0x1800, 0xcccc, 6).to_vec();
    want.extend([
        ("object", 8, 4, R(7, "LYR_g")),
        ("x", 12, 2, N(0)),
        ("y", 14, 2, N(32)),
        ("w", 16, 2, N(256)),
        ("h", 18, 2, N(128)),
        ("px", 20, 2, I(-2)),
        ("py", 22, 2, I(3)),
        ("copies", 24, 1, N(4)),
        ("spread", 25, 1, N(2)),
        ("pad", 26, 2, B),
        ("length", 28, 4, F(50.0)),
    ]);
    check_record(&file, REC, &r, "Shadow", &want);
}

#[test]
fn morpher() {
    let mut r = Vec::new();
    r.extend([0x00, 0x19, 0xcc, 0xcc]); // +0 kind 0x1900 Morpher
    w32(&mut r, 2); // +4 size 2
    w32(&mut r, 8); // +8 morpher = MPH_h
    w32(&mut r, 3); // +12 base_model = MDL_c
    let file = setup_file(0x100, &r);
    let mut want = head(0x1900, 0xcccc, 2).to_vec();
    want.extend([("morpher", 8, 4, R(8, "MPH_h")), ("base_model", 12, 4, R(3, "MDL_c"))]);
    check_record(&file, REC, &r, "Morpher", &want);
    assert_same_bytes(&written_setup(0x100, vec![Chunk::Morpher { morpher: 8, base: 3 }]), &file);
}

#[test]
fn obj2() {
    let mut r = Vec::new();
    r.extend([0x00, 0x20, 0xcc, 0xcc]); // +0 kind 0x2000 Obj2
    w32(&mut r, 5); // +4 size 5
    w32(&mut r, 1); // +8 object
    w32(&mut r, 3); // +12 flags: bit 0 multiply parent transparency, bit 1 hidden at origin
    w32(&mut r, 8); // +16 modifier = MPH_h
    w32(&mut r, 7); // +20 layer = LYR_g
    w32(&mut r, 0); // +24 slayer: the default
    let file = setup_file(0x100, &r);
    let mut want = head(0x2000, 0xcccc, 5).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flags", 12, 4, N(3)),
        ("modifier", 16, 4, R(8, "MPH_h")),
        ("layer", 20, 4, R(7, "LYR_g")),
        ("slayer", 24, 4, R(0, "none")),
    ]);
    check_record(&file, REC, &r, "Obj2", &want);
    let c = Chunk::Obj2 { object: 1, flags: 3, modifier: 8, layer: 7, slayer: 0 };
    assert_same_bytes(&written_setup(0x100, vec![c]), &file);
}

/// Pcm (docs/formats/ccsf.md#setup-chunks), with the stream files' tag 0x0000: parse direction only (no writer model).
#[test]
fn pcm() {
    let mut r = Vec::new();
    r.extend([0x00, 0x22, 0x00, 0x00]); // +0 kind 0x2200 Pcm, tag 0x0000
    w32(&mut r, 4 + 2); // +4 size = 4 + blocks × words
    w32(&mut r, 5); // +8 id
    r.extend([1, 16, 0, 0]); // +12 u8 type 1, u8 bits 16, u8 track 0, u8 pad
    w32(&mut r, 1); // +16 blocks 1
    w32(&mut r, 2); // +20 words 2
    w32(&mut r, 0x0001_ffff); // +24 audio word 0
    w32(&mut r, 0x8000_7fff); // +28 audio word 1
    let file = setup_file(0x100, &r);
    let mut want = head(0x2200, 0x0000, 6).to_vec();
    want.extend([
        ("id", 8, 4, N(5)),
        ("type", 12, 1, N(1)),
        ("bits", 13, 1, N(16)),
        ("track", 14, 1, N(0)),
        ("pad", 15, 1, B),
        ("blocks", 16, 4, N(1)),
        ("words", 20, 4, N(2)),
        ("audio", 24, 8, B),
    ]);
    check_record(&file, REC, &r, "Pcm", &want);
}

// ---------------------------------------------------------------------------------------
// Frame section (docs/formats/ccsf.md#frame-0x0005-and-top-0xff01, docs/formats/ccsf.md#per-frame-records).

#[test]
fn frame_and_top() {
    let mut v = prefix(0x100);
    frame(&mut v, 2); // REC Frame: frame_count 2
    top(&mut v, 0); // REC + 12 Top 0
    top(&mut v, 1); // REC + 24 Top 1
    top(&mut v, 0xffff_fffe); // REC + 36 Top −2: end and reset
    let doc = describe(&v);
    let f = node(&doc, REC, 12, "Frame");
    let mut want = head(0x0005, 0xcccc, 1).to_vec();
    want.push(("frame_count", 8, 4, N(2)));
    assert_fields(&doc, f, REC, &want);
    for (i, at) in [(0u64, REC + 12), (1, REC + 24), (0xffff_fffe, REC + 36)] {
        let t = node(&doc, at, 12, "Top");
        let mut want = head(0xff01, 0xcccc, 1).to_vec();
        want.push(("frame", 8, 4, N(i)));
        assert_fields(&doc, t, at, &want);
    }
    assert!(doc.find_path("frame[1]/Top[1]").is_some());
    let chunks = vec![
        Chunk::Frame { count: 2, tag: 0xcccc },
        Chunk::Top { frame: 0 },
        Chunk::Top { frame: 1 },
        Chunk::Top { frame: 0xffff_fffe },
    ];
    assert_same_bytes(&write::write(&ccs(0x100, chunks)), &v);
}

/// A frame record at [`SUB`] sits under `frame[0]`.
fn check_frame_record(rec: &[u8], kind: &str, want: &[Want]) -> Vec<u8> {
    let file = frames_file(rec);
    let (doc, id) = check_record(&file, SUB, rec, kind, want);
    let parent = doc.node(id).unwrap().parent.unwrap();
    assert_eq!(doc.node(parent).unwrap().key, "frame[0]");
    file
}

#[test]
fn f_obj() {
    let mut r = Vec::new();
    r.extend([0x01, 0x01, 0xcc, 0xcc]); // +0 kind 0x0101 F_Obj
    w32(&mut r, 13); // +4 size 13 (52 bytes)
    w32(&mut r, 1); // +8 object
    w32(&mut r, 0); // +12 unused
    for x in [1.0f32, 2.0, 3.0, 10.0, 20.0, 30.0, 1.0, 1.0, 2.0] {
        wf(&mut r, x); // +16 f32 pos[3], +28 rot[3] (degrees), +40 scale[3]
    }
    wf(&mut r, 0.5); // +52 f32 transparency
    w32(&mut r, 1); // +56 flags: bit 0 display switch
    let mut want = head(0x0101, 0xcccc, 13).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("unused", 12, 4, N(0)),
        ("pos.x", 16, 4, F(1.0)),
        ("pos.y", 20, 4, F(2.0)),
        ("pos.z", 24, 4, F(3.0)),
        ("rot.x", 28, 4, F(10.0)),
        ("rot.y", 32, 4, F(20.0)),
        ("rot.z", 36, 4, F(30.0)),
        ("scale.x", 40, 4, F(1.0)),
        ("scale.y", 44, 4, F(1.0)),
        ("scale.z", 48, 4, F(2.0)),
        ("transparency", 52, 4, F(0.5)),
        ("flags", 56, 4, N(1)),
    ]);
    let file = check_frame_record(&r, "F_Obj", &want);
    let c = Chunk::FObj {
        object: 1,
        pos: [1.0, 2.0, 3.0],
        rot: [10.0, 20.0, 30.0],
        scale: [1.0, 1.0, 2.0],
        alpha: 0.5,
        flags: 1,
    };
    assert_same_bytes(&written_frames(c), &file);
}

#[test]
fn f_note() {
    let mut r = Vec::new();
    r.extend([0x08, 0x01, 0xcc, 0xcc]); // +0 kind 0x0108 F_Note
    w32(&mut r, 3); // +4 size 3
    w32(&mut r, 1); // +8 object
    w32(&mut r, 0x8001); // +12 event 0x8001 (subtitle)
    w32(&mut r, 42); // +16 param
    let mut want = head(0x0108, 0xcccc, 3).to_vec();
    want.extend([("object", 8, 4, R(1, "OBJ_a")), ("event", 12, 4, N(0x8001)), ("param", 16, 4, N(42))]);
    let file = check_frame_record(&r, "F_Note", &want);
    assert_same_bytes(&written_frames(Chunk::FNote { object: 1, event: 0x8001, param: 42 }), &file);
}

/// F_Material (docs/formats/ccsf.md#per-frame-records), both lengths: parse direction only (no writer model).
#[test]
fn f_material() {
    let mut r = Vec::new();
    r.extend([0x01, 0x02, 0xcc, 0xcc]); // +0 kind 0x0201 F_Material
    w32(&mut r, 4); // +4 size 4 (16 bytes: flag & 2 clear)
    w32(&mut r, 4); // +8 material = MAT_d
    w32(&mut r, 0); // +12 flag 0
    wf(&mut r, 0.25); // +16 f32 u
    wf(&mut r, -0.5); // +20 f32 v
    let mut want = head(0x0201, 0xcccc, 4).to_vec();
    want.extend([
        ("material", 8, 4, R(4, "MAT_d")),
        ("flag", 12, 4, N(0)),
        ("u", 16, 4, F(0.25)),
        ("v", 20, 4, F(-0.5)),
    ]);
    check_frame_record(&r, "F_Material", &want);
    let mut r = Vec::new();
    r.extend([0x01, 0x02, 0xcc, 0xcc]); // +0 kind 0x0201 F_Material
    w32(&mut r, 2); // +4 size 2 (8 bytes: flag & 2 set)
    w32(&mut r, 4); // +8 material
    w32(&mut r, 2); // +12 flag 2: no u, v
    let mut want = head(0x0201, 0xcccc, 2).to_vec();
    want.extend([("material", 8, 4, R(4, "MAT_d")), ("flag", 12, 4, N(2))]);
    check_frame_record(&r, "F_Material", &want);
}

#[test]
fn f_camera() {
    // flag 0xf0: bits 4-7 set, so the clear bits 1, 2, 3, 8 carry pos.x, pos.y, pos.z, fov
    let mut r = Vec::new();
    r.extend([0x02, 0x05, 0xcc, 0xcc]); // +0 kind 0x0502 F_Camera
    w32(&mut r, 2 + 4); // +4 size = 2 + popcount(~flag & 0x1fe)
    w32(&mut r, 1); // +8 object
    w32(&mut r, 0xf0); // +12 flag
    wf(&mut r, 1.0); // +16 pos.x (bit 1 clear)
    wf(&mut r, 2.0); // +20 pos.y (bit 2 clear)
    wf(&mut r, 3.0); // +24 pos.z (bit 3 clear)
    wf(&mut r, 45.0); // +28 fov in degrees (bit 8 clear)
    let mut want = head(0x0502, 0xcccc, 6).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flag", 12, 4, N(0xf0)),
        ("pos.x", 16, 4, F(1.0)),
        ("pos.y", 20, 4, F(2.0)),
        ("pos.z", 24, 4, F(3.0)),
        ("fov", 28, 4, F(45.0)),
    ]);
    let file = check_frame_record(&r, "F_Camera", &want);
    let c = Chunk::FCamera { object: 1, flag: 0xf0, values: vec![1.0, 2.0, 3.0, 45.0] };
    assert_same_bytes(&written_frames(c), &file);
    // flag & 1: nothing more, whatever the other bits say
    let mut r = Vec::new();
    r.extend([0x02, 0x05, 0xcc, 0xcc]); // +0 kind 0x0502 F_Camera
    w32(&mut r, 2); // +4 size 2
    w32(&mut r, 1); // +8 object
    w32(&mut r, 1); // +12 flag 1
    let mut want = head(0x0502, 0xcccc, 2).to_vec();
    want.extend([("object", 8, 4, R(1, "OBJ_a")), ("flag", 12, 4, N(1))]);
    let file = check_frame_record(&r, "F_Camera", &want);
    assert_same_bytes(&written_frames(Chunk::FCamera { object: 1, flag: 1, values: vec![] }), &file);
}

#[test]
fn f_ambient() {
    let mut r = Vec::new();
    r.extend([0x01, 0x06, 0xcc, 0xcc]); // +0 kind 0x0601 F_Ambient
    w32(&mut r, 1); // +4 size 1
    r.extend([0x10, 0x20, 0x30, 0x80]); // +8 colour: R, G, B, (A)
    let mut want = head(0x0601, 0xcccc, 1).to_vec();
    want.push(("colour", 8, 4, N(0x8030_2010)));
    let file = check_frame_record(&r, "F_Ambient", &want);
    assert_same_bytes(&written_frames(Chunk::FAmbient { colour: 0x8030_2010 }), &file);
}

/// F_DistantLight (docs/formats/ccsf.md#per-frame-records), with and without the intensity: parse direction only.
#[test]
fn f_distant_light() {
    for (flag, size) in [(0x20u32, 7u32), (0, 6)] {
        let mut r = Vec::new();
        r.extend([0x02, 0x06, 0xcc, 0xcc]); // +0 kind 0x0602 F_DistantLight
        w32(&mut r, size); // +4 size: 7 with the intensity (flag & 0x20), else 6
        w32(&mut r, 1); // +8 object
        w32(&mut r, flag); // +12 flag
        for x in [0.0f32, 45.0, 90.0] {
            wf(&mut r, x); // +16 f32 rot[3] (degrees)
        }
        r.extend([0xff, 0x80, 0x00, 0x00]); // +28 colour R 255, G 128, B 0
        let mut want = head(0x0602, 0xcccc, size).to_vec();
        want.extend([
            ("object", 8, 4, R(1, "OBJ_a")),
            ("flag", 12, 4, N(u64::from(flag))),
            ("rot.x", 16, 4, F(0.0)),
            ("rot.y", 20, 4, F(45.0)),
            ("rot.z", 24, 4, F(90.0)),
            ("colour", 28, 4, N(0x80ff)),
        ]);
        if flag & 0x20 != 0 {
            wf(&mut r, 2.0); // +32 f32 intensity
            want.push(("intensity", 32, 4, F(2.0)));
        }
        check_frame_record(&r, "F_DistantLight", &want);
    }
}

/// F_OmniLight (docs/formats/ccsf.md#per-frame-records): parse direction only.
#[test]
fn f_omni_light() {
    let mut r = Vec::new();
    r.extend([0x08, 0x06, 0xcc, 0xcc]); // +0 kind 0x0608 F_OmniLight
    w32(&mut r, 9); // +4 size 9 (36 bytes)
    w32(&mut r, 1); // +8 object
    w32(&mut r, 0); // +12 flag
    for x in [1.0f32, 2.0, 3.0] {
        wf(&mut r, x); // +16 f32 pos[3]
    }
    r.extend([0x00, 0xff, 0x00, 0x00]); // +28 colour: green
    wf(&mut r, 1.5); // +32 intensity
    wf(&mut r, 10.0); // +36 far_start
    wf(&mut r, 20.0); // +40 far_end
    let mut want = head(0x0608, 0xcccc, 9).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flag", 12, 4, N(0)),
        ("pos.x", 16, 4, F(1.0)),
        ("pos.y", 20, 4, F(2.0)),
        ("pos.z", 24, 4, F(3.0)),
        ("colour", 28, 4, N(0xff00)),
        ("intensity", 32, 4, F(1.5)),
        ("far_start", 36, 4, F(10.0)),
        ("far_end", 40, 4, F(20.0)),
    ]);
    check_frame_record(&r, "F_OmniLight", &want);
}

/// F_Shadow (docs/formats/ccsf.md#per-frame-records): parse direction only.
#[test]
fn f_shadow() {
    let mut r = Vec::new();
    r.extend([0x01, 0x18, 0xcc, 0xcc]); // +0 kind 0x1801 F_Shadow
    w32(&mut r, 5); // +4 size 5 (20 bytes)
    w32(&mut r, 7); // +8 object = LYR_g
    for x in [-90.0f32, 0.0, 30.0] {
        wf(&mut r, x); // +12 f32 rx, ry, rz (degrees)
    }
    wf(&mut r, 0.75); // +24 f32 alpha
    let mut want = head(0x1801, 0xcccc, 5).to_vec();
    want.extend([
        ("object", 8, 4, R(7, "LYR_g")),
        ("rot.x", 12, 4, F(-90.0)),
        ("rot.y", 16, 4, F(0.0)),
        ("rot.z", 20, 4, F(30.0)),
        ("alpha", 24, 4, F(0.75)),
    ]);
    check_frame_record(&r, "F_Shadow", &want);
}

#[test]
fn f_morpher() {
    let mut r = Vec::new();
    r.extend([0x01, 0x19, 0xcc, 0xcc]); // +0 kind 0x1901 F_Morpher
    w32(&mut r, 2 + 2 * 2); // +4 size = 2 + 2n
    w32(&mut r, 8); // +8 morpher = MPH_h
    w16(&mut r, 2); // +12 u16 n = 2
    w16(&mut r, 0); // +14 u16 pad
    w32(&mut r, 3); // +16 target[0] model = MDL_c
    wf(&mut r, 0.25); // +20 weight[0]
    w32(&mut r, 1); // +24 target[1]
    wf(&mut r, 0.75); // +28 weight[1]
    let mut want = head(0x1901, 0xcccc, 6).to_vec();
    want.extend([
        ("morpher", 8, 4, R(8, "MPH_h")),
        ("n", 12, 2, N(2)),
        ("pad", 14, 2, B),
        ("target[0]", 16, 4, R(3, "MDL_c")),
        ("weight[0]", 20, 4, F(0.25)),
        ("target[1]", 24, 4, R(1, "OBJ_a")),
        ("weight[1]", 28, 4, F(0.75)),
    ]);
    let file = check_frame_record(&r, "F_Morpher", &want);
    assert_same_bytes(&written_frames(Chunk::FMorpher { morpher: 8, targets: vec![(3, 0.25), (1, 0.75)] }), &file);
}

/// F_Pcm (docs/formats/ccsf.md#per-frame-records) with the stream files' tag 0x0000: parse direction only.
#[test]
fn f_pcm() {
    let mut r = Vec::new();
    r.extend([0x01, 0x22, 0x00, 0x00]); // +0 kind 0x2201 F_Pcm, tag 0x0000
    w32(&mut r, 3 + 2); // +4 size = 3 + blocks × words
    w32(&mut r, 5); // +8 id
    w16(&mut r, 1); // +12 u16 blocks 1
    w16(&mut r, 0); // +14 u16 pad
    w32(&mut r, 2); // +16 words 2
    w32(&mut r, 0x1234_5678); // +20 audio word 0
    w32(&mut r, 0x9abc_def0); // +24 audio word 1
    let mut want = head(0x2201, 0x0000, 5).to_vec();
    want.extend([
        ("id", 8, 4, N(5)),
        ("blocks", 12, 2, N(1)),
        ("pad", 14, 2, B),
        ("words", 16, 4, N(2)),
        ("audio", 20, 8, B),
    ]);
    check_frame_record(&r, "F_Pcm", &want);
}

// ---------------------------------------------------------------------------------------
// Anime controller records (docs/formats/ccsf.md#controllers), inside an Anime sub-stream.

/// A controller record at [`ASUB`] of an Anime file, under the Anime's `frame[0]`.
fn check_anime_record(rec: &[u8], kind: &str, want: &[Want]) -> (Vec<u8>, Document, NodeId) {
    let file = anime_file(rec);
    let (doc, id) = check_record(&file, ASUB, rec, kind, want);
    assert_eq!(doc.path(id).split('/').rev().nth(1), Some("frame[0]"));
    (file, doc, id)
}

#[test]
fn object_controller() {
    let mut r = Vec::new();
    r.extend([0x02, 0x01, 0xcc, 0xcc]); // +0 kind 0x0102 object controller
    w32(&mut r, 15); // +4 size = 2 + 3 + (1 + 2 × 4) + 1
    w32(&mut r, 1); // +8 object
    w32(&mut r, 0o1021); // +12 flags: position k=1, rotation k=2, scale k=0, transparency k=1
    for x in [1.0f32, 2.0, 3.0] {
        wf(&mut r, x); // +16 position: constant vec3
    }
    w32(&mut r, 2); // +28 rotation: n = 2 keys
    w32(&mut r, 0); // +32 key 0 frame
    for x in [0.0f32, 0.0, 0.0] {
        wf(&mut r, x); // +36 key 0 rotation (degrees)
    }
    w32(&mut r, 1); // +48 key 1 frame
    for x in [0.0f32, 0.0, 90.0] {
        wf(&mut r, x); // +52 key 1 rotation
    }
    wf(&mut r, 0.5); // +64 transparency: constant f32
    assert_eq!(r.len(), 68);
    let mut want = head(0x0102, 0xcccc, 15).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flags", 12, 4, N(0o1021)),
        ("position.x", 16, 4, F(1.0)),
        ("position.y", 20, 4, F(2.0)),
        ("position.z", 24, 4, F(3.0)),
        ("transparency", 64, 4, F(0.5)),
    ]);
    let (file, doc, id) = check_anime_record(&r, "ObjCtrl", &want);
    let rot = child(&doc, id, "rotation");
    assert_eq!(doc.node(rot).unwrap().span.len(), 36);
    assert_fields(
        &doc,
        rot,
        ASUB,
        &[
            ("n", 28, 4, N(2)),
            ("key[0].frame", 32, 4, N(0)),
            ("key[0].x", 36, 4, F(0.0)),
            ("key[0].y", 40, 4, F(0.0)),
            ("key[0].z", 44, 4, F(0.0)),
            ("key[1].frame", 48, 4, N(1)),
            ("key[1].x", 52, 4, F(0.0)),
            ("key[1].y", 56, 4, F(0.0)),
            ("key[1].z", 60, 4, F(90.0)),
        ],
    );
    let c = Chunk::ObjCtrl {
        object: 1,
        pos: Ctrl::vec3([1.0, 2.0, 3.0]),
        rot: Ctrl::keys3(&[(0, [0.0, 0.0, 0.0]), (1, [0.0, 0.0, 90.0])]),
        scale: Ctrl::Absent,
        alpha: Ctrl::Const(vec![0.5f32.to_bits()]),
    };
    assert_same_bytes(&written_anime(c), &file);
}

#[test]
fn material_controller() {
    let mut r = Vec::new();
    r.extend([0x02, 0x02, 0xcc, 0xcc]); // +0 kind 0x0202 material controller
    w32(&mut r, 8); // +4 size = 2 + (1 + 2 × 2) + 1
    w32(&mut r, 4); // +8 material = MAT_d
    w32(&mut r, 0o12); // +12 flags: U k=2 (shift 0), V k=1 (shift 3)
    w32(&mut r, 2); // +16 U: n = 2
    w32(&mut r, 0); // +20 key 0 frame
    wf(&mut r, 0.0); // +24 key 0 value
    w32(&mut r, 1); // +28 key 1 frame
    wf(&mut r, 0.5); // +32 key 1 value
    wf(&mut r, 0.25); // +36 V: constant
    let mut want = head(0x0202, 0xcccc, 8).to_vec();
    want.extend([("object", 8, 4, R(4, "MAT_d")), ("flags", 12, 4, N(0o12)), ("v", 36, 4, F(0.25))]);
    let (file, doc, id) = check_anime_record(&r, "MatCtrl", &want);
    let u = child(&doc, id, "u");
    assert_fields(
        &doc,
        u,
        ASUB,
        &[
            ("n", 16, 4, N(2)),
            ("key[0].frame", 20, 4, N(0)),
            ("key[0].value", 24, 4, F(0.0)),
            ("key[1].frame", 28, 4, N(1)),
            ("key[1].value", 32, 4, F(0.5)),
        ],
    );
    let c =
        Chunk::MatCtrl { material: 4, u: Ctrl::keys1(&[(0, 0.0), (1, 0.5)]), v: Ctrl::Const(vec![0.25f32.to_bits()]) };
    assert_same_bytes(&written_anime(c), &file);
}

#[test]
fn distant_light_controller() {
    let mut r = Vec::new();
    r.extend([0x03, 0x06, 0xcc, 0xcc]); // +0 kind 0x0603 distant-light controller
    w32(&mut r, 11); // +4 size = 2 + 3 + 1 + (1 + 2 × 2)
    w32(&mut r, 1); // +8 light
    w32(&mut r, 0o2110); // +12 flags: rotation k=1 (shift 3), colour k=1 (6), intensity k=2 (9)
    for x in [0.0f32, -90.0, 0.0] {
        wf(&mut r, x); // +16 rotation: constant vec3 (degrees)
    }
    r.extend([0xff, 0xff, 0xff, 0x80]); // +28 colour: constant, white
    w32(&mut r, 2); // +32 intensity: n = 2
    w32(&mut r, 0); // +36 key 0 frame
    wf(&mut r, 1.0); // +40 key 0 value
    w32(&mut r, 1); // +44 key 1 frame
    wf(&mut r, 0.0); // +48 key 1 value
    let mut want = head(0x0603, 0xcccc, 11).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flags", 12, 4, N(0o2110)),
        ("rotation.x", 16, 4, F(0.0)),
        ("rotation.y", 20, 4, F(-90.0)),
        ("rotation.z", 24, 4, F(0.0)),
        ("colour", 28, 4, N(0x80ff_ffff)),
    ]);
    let (file, doc, id) = check_anime_record(&r, "DistantLightCtrl", &want);
    let i = child(&doc, id, "intensity");
    assert_fields(
        &doc,
        i,
        ASUB,
        &[
            ("n", 32, 4, N(2)),
            ("key[0].frame", 36, 4, N(0)),
            ("key[0].value", 40, 4, F(1.0)),
            ("key[1].frame", 44, 4, N(1)),
            ("key[1].value", 48, 4, F(0.0)),
        ],
    );
    let c = Chunk::LightCtrl {
        kind: 0x0603,
        light: 1,
        fields: vec![Ctrl::vec3([0.0, -90.0, 0.0]), Ctrl::Const(vec![0x80ff_ffff]), Ctrl::keys1(&[(0, 1.0), (1, 0.0)])],
    };
    assert_same_bytes(&written_anime(c), &file);
}

#[test]
fn direct_light_controller() {
    let mut r = Vec::new();
    r.extend([0x05, 0x06, 0xcc, 0xcc]); // +0 kind 0x0605 direct-light controller
    w32(&mut r, 7); // +4 size = 2 + 3 + 1 + 1
    w32(&mut r, 1); // +8 light
    w32(&mut r, 0o10100001); // +12 flags: position k=1 (shift 0), beam end k=1 (15), radius 2 k=1 (21)
    for x in [4.0f32, 5.0, 6.0] {
        wf(&mut r, x); // +16 position: constant vec3
    }
    wf(&mut r, 100.0); // +28 beam end: constant
    wf(&mut r, 8.0); // +32 radius 2: constant
    let mut want = head(0x0605, 0xcccc, 7).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flags", 12, 4, N(0o10100001)),
        ("position.x", 16, 4, F(4.0)),
        ("position.y", 20, 4, F(5.0)),
        ("position.z", 24, 4, F(6.0)),
        ("beam_end", 28, 4, F(100.0)),
        ("radius_2", 32, 4, F(8.0)),
    ]);
    let (file, ..) = check_anime_record(&r, "DirectLightCtrl", &want);
    let one = |x: f32| Ctrl::Const(vec![x.to_bits()]);
    let c = Chunk::LightCtrl {
        kind: 0x0605,
        light: 1,
        fields: vec![
            Ctrl::vec3([4.0, 5.0, 6.0]),
            Ctrl::Absent,
            Ctrl::Absent,
            Ctrl::Absent,
            Ctrl::Absent,
            one(100.0),
            Ctrl::Absent,
            one(8.0),
        ],
    };
    assert_same_bytes(&written_anime(c), &file);
}

#[test]
fn omni_light_controller() {
    let mut r = Vec::new();
    r.extend([0x09, 0x06, 0xcc, 0xcc]); // +0 kind 0x0609 omni-light controller
    w32(&mut r, 9); // +4 size = 2 + 3 + 1 + 1 + 1 + 1
    w32(&mut r, 1); // +8 light
    w32(&mut r, 0o111101); // +12 flags: position (0), colour (6), intensity (9), far start (12), far end (15), all k=1
    for x in [1.0f32, 0.0, -1.0] {
        wf(&mut r, x); // +16 position
    }
    r.extend([0x00, 0x00, 0xff, 0x00]); // +28 colour: blue
    wf(&mut r, 2.0); // +32 intensity
    wf(&mut r, 5.0); // +36 far start
    wf(&mut r, 50.0); // +40 far end
    let mut want = head(0x0609, 0xcccc, 9).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flags", 12, 4, N(0o111101)),
        ("position.x", 16, 4, F(1.0)),
        ("position.y", 20, 4, F(0.0)),
        ("position.z", 24, 4, F(-1.0)),
        ("colour", 28, 4, N(0x00ff_0000)),
        ("intensity", 32, 4, F(2.0)),
        ("far_start", 36, 4, F(5.0)),
        ("far_end", 40, 4, F(50.0)),
    ]);
    let (file, ..) = check_anime_record(&r, "OmniLightCtrl", &want);
    let one = |x: f32| Ctrl::Const(vec![x.to_bits()]);
    let c = Chunk::LightCtrl {
        kind: 0x0609,
        light: 1,
        fields: vec![Ctrl::vec3([1.0, 0.0, -1.0]), Ctrl::Const(vec![0x00ff_0000]), one(2.0), one(5.0), one(50.0)],
    };
    assert_same_bytes(&written_anime(c), &file);
}

// ---------------------------------------------------------------------------------------
// Kinds whose layout the spec does not document: the bytes after the object word (if the
// first word is one) are shown as opaque bytes labelled "layout not documented".

#[test]
fn undocumented_layouts_are_opaque() {
    // (kind, in the frame section, first payload word is an object index)
    for (kind, frames, object) in [
        (0x0d00u16, false, false),
        (0x1000, false, false),
        (0x0604, true, true),
        (0x0606, true, true),
        (0x0802, true, false),
        (0x0803, true, false),
    ] {
        let mut r = Vec::new();
        r.extend(kind.to_le_bytes()); // +0 kind
        r.extend([0xcc, 0xcc]); // +2 tag
        w32(&mut r, 2); // +4 size 2
        w32(&mut r, 1); // +8 first word (an object index for F_DirectLight/F_SpotLight)
        w32(&mut r, 0xdead_beef); // +12 undocumented
        let (file, at) = if frames { (frames_file(&r), SUB) } else { (setup_file(0x100, &r), REC) };
        let mut want = head(kind, 0xcccc, 2).to_vec();
        if object {
            want.extend([("object", 8, 4, R(1, "OBJ_a")), ("payload", 12, 4, B)]);
        } else {
            want.push(("payload", 8, 8, B));
        }
        let name = chunk_kind_name(kind);
        let (doc, id) = check_record(&file, at, &r, name, &want);
        let last = doc.node(id).unwrap().fields.last().unwrap();
        assert_eq!(last.value.meaning, Some(Meaning::Label("layout not documented".into())), "0x{kind:04x}");
    }
    // the spot-light controller inside an Anime: shown as bytes, and the walk goes on
    let mut r = Vec::new();
    r.extend([0x07, 0x06, 0xcc, 0xcc]); // +0 kind 0x0607 spot-light controller
    w32(&mut r, 2); // +4 size 2
    w32(&mut r, 1); // +8 light
    w32(&mut r, 0); // +12 flags (layout not documented)
    let file = anime_file(&r);
    let doc = whole_document(Some(&Ccsf), "vec.ccs", &file, &Limits::default()).unwrap();
    assert_eq!(doc.validate(), Ok(()));
    let id = node(&doc, ASUB, 16, "SpotLightCtrl");
    assert!(doc.node(id).unwrap().fields.iter().any(|f| f.value.raw == Raw::Bytes(f.span.len())));
    assert!(doc.root().summary.ends_with("walk clean"));
}

// ---------------------------------------------------------------------------------------
// The registry.

/// Whether a vector also checks the writer.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Dir {
    /// Parse/describe and writer.
    Both,
    /// Parse/describe only: the writer has no model of this record.
    ParseOnly,
}

/// A registry row: kind, record (and variant), direction, the vector.
type Vector = (u16, &'static str, Dir, fn());

// ---------------------------------------------------------------------------------------
// Later-generation setup kinds (docs/formats/ccsf-gen2.md#walker, docs/formats/ccsf-gen2.md), in a v0x123
// file (the kinds are accepted from 0x110).

/// 0x1A00/0x1B00/0x1C00 (docs/formats/ccsf-gen2.md#stream-post-effect-parameters-0x1a000x1d00): `u32 layer (0x1A00) or ?, u32 object, u32 target object,
/// u32 texture`, 4 words.
#[test]
fn gen2_stream_params() {
    for (kind, name) in
        [(0x1a00u16, "StreamOutlineParam"), (0x1b00, "StreamCelShadeParam"), (0x1c00, "StreamToneShadeParam")]
    {
        let mut r = Vec::new();
        r.extend(kind.to_le_bytes()); // +0 kind
        r.extend([0xcc, 0xcc]); // +2 tag
        w32(&mut r, 4); // +4 size 4
        w32(&mut r, 1); // +8 layer 1 (0x1A00) / unknown
        w32(&mut r, 1); // +12 object OBJ_a
        w32(&mut r, 2); // +16 target object OBJ_b
        w32(&mut r, 5); // +20 texture TEX_e
        let file = setup_file(0x123, &r);
        let mut want = head(kind, 0xcccc, 4).to_vec();
        want.extend([
            ("layer_or_unknown", 8, 4, N(1)),
            ("object", 12, 4, R(1, "OBJ_a")),
            ("target", 16, 4, R(2, "OBJ_b")),
            ("texture", 20, 4, R(5, "TEX_e")),
        ]);
        check_record(&file, REC, &r, name, &want);
        let c = Chunk::StreamParam { kind, first: 1, object: 1, target: 2, texture: 5 };
        assert_same_bytes(&written_setup(0x123, vec![c]), &file);
    }
}

/// 0x1D00 StreamFBSBlurParam (docs/formats/ccsf-gen2.md#stream-post-effect-parameters-0x1a000x1d00): `u16 ?, u16 ?, u32 object`, 2 words.
#[test]
fn gen2_blur_param() {
    let mut r = Vec::new();
    r.extend([0x00, 0x1d, 0xcc, 0xcc]); // +0 kind 0x1D00
    w32(&mut r, 2); // +4 size 2
    w16(&mut r, 7); // +8 u16 ? = 7
    w16(&mut r, 9); // +10 u16 ? = 9
    w32(&mut r, 1); // +12 object OBJ_a
    let file = setup_file(0x123, &r);
    let mut want = head(0x1d00, 0xcccc, 2).to_vec();
    want.extend([("unknown_0", 8, 2, N(7)), ("unknown_1", 10, 2, N(9)), ("object", 12, 4, R(1, "OBJ_a"))]);
    check_record(&file, REC, &r, "StreamFBSBlurParam", &want);
}

/// 0x2300 Dynamics (docs/formats/ccsf-gen2.md#dynamics-0x2300): `u32 clump, u16 spring_count, u16 collision_count`, springs of
/// `u32 node, f32 parameters[3]`, collisions of `u32 node, f32 pos[3], rot[3], scale[3]`;
/// words `2 + 4·1 + 10·1 = 16`.
#[test]
fn gen2_dynamics() {
    let mut r = Vec::new();
    r.extend([0x00, 0x23, 0xcc, 0xcc]); // +0 kind 0x2300
    w32(&mut r, 16); // +4 size 16
    w32(&mut r, 1); // +8 clump (object 1)
    w16(&mut r, 1); // +12 spring_count 1
    w16(&mut r, 1); // +14 collision_count 1
    w32(&mut r, 2); // +16 spring[0].node OBJ_b
    for x in [0.5f32, 1.0, 2.0] {
        wf(&mut r, x); // +20 spring[0].parameters
    }
    w32(&mut r, 2); // +32 collision[0].node OBJ_b
    for x in [1.0f32, 2.0, 3.0, 0.0, 90.0, 0.0, 1.0, 1.0, 1.0] {
        wf(&mut r, x); // +36 pos, +48 rot, +60 scale
    }
    assert_eq!(r.len(), 72);
    let file = setup_file(0x123, &r);
    let mut want = head(0x2300, 0xcccc, 16).to_vec();
    want.extend([
        ("clump", 8, 4, R(1, "OBJ_a")),
        ("spring_count", 12, 2, N(1)),
        ("collision_count", 14, 2, N(1)),
        ("spring[0].node", 16, 4, R(2, "OBJ_b")),
        ("spring[0].param.x", 20, 4, F(0.5)),
        ("spring[0].param.y", 24, 4, F(1.0)),
        ("spring[0].param.z", 28, 4, F(2.0)),
        ("collision[0].node", 32, 4, R(2, "OBJ_b")),
        ("collision[0].pos.x", 36, 4, F(1.0)),
        ("collision[0].pos.y", 40, 4, F(2.0)),
        ("collision[0].pos.z", 44, 4, F(3.0)),
        ("collision[0].rot.x", 48, 4, F(0.0)),
        ("collision[0].rot.y", 52, 4, F(90.0)),
        ("collision[0].rot.z", 56, 4, F(0.0)),
        ("collision[0].scale.x", 60, 4, F(1.0)),
        ("collision[0].scale.y", 64, 4, F(1.0)),
        ("collision[0].scale.z", 68, 4, F(1.0)),
    ]);
    check_record(&file, REC, &r, "Dynamics", &want);
    let c = Chunk::Dynamics {
        clump: 1,
        springs: vec![(2, [0.5, 1.0, 2.0])],
        collisions: vec![(2, [[1.0, 2.0, 3.0], [0.0, 90.0, 0.0], [1.0, 1.0, 1.0]])],
    };
    assert_same_bytes(&written_setup(0x123, vec![c]), &file);
}

/// 0x2400 Binary Blob (docs/formats/ccsf-gen2.md#binary-blob-0x2400, its example with object 1): `u32 object`, then `4·(size − 1)`
/// bytes no reader interprets.
#[test]
fn gen2_binary_blob() {
    let mut r = Vec::new();
    r.extend([0x00, 0x24, 0xcc, 0xcc]); // +0 kind 0x2400, tag CCCC
    w32(&mut r, 4); // +4 size 4
    w32(&mut r, 1); // +8 object OBJ_a
    r.extend(b"demo|1.00|\0\0"); // +12 12 opaque bytes
    let file = setup_file(0x123, &r);
    let mut want = head(0x2400, 0xcccc, 4).to_vec();
    want.extend([("object", 8, 4, R(1, "OBJ_a")), ("payload", 12, 12, B)]);
    check_record(&file, REC, &r, "BinaryBlob", &want);
    let c = Chunk::Blob { object: 1, payload: b"demo|1.00|".to_vec() };
    assert_same_bytes(&written_setup(0x123, vec![c]), &file);
}

/// 0x0D80 ParticleAnmCtrl (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90): `u32 object, u32 animation, u16 ctrl_count, u16 pad
/// (cc cc)`, then per controller `u32 generator, u32 object, u32 extra object, u32 ?,
/// u16 frame_count, u16 pad (cc cc)` and `frame_count` bytes zero-padded to 4.
#[test]
fn gen2_particle_anm_ctrl() {
    let mut r = Vec::new();
    r.extend([0x80, 0x0d, 0xcc, 0xcc]); // +0 kind 0x0D80
    w32(&mut r, 9); // +4 size 3 + 5 + 1
    w32(&mut r, 1); // +8 object OBJ_a
    w32(&mut r, 6); // +12 animation ANM_f
    w16(&mut r, 1); // +16 ctrl_count 1
    r.extend([0xcc, 0xcc]); // +18 pad
    w32(&mut r, 2); // +20 ctrl[0].generator OBJ_b
    w32(&mut r, 1); // +24 ctrl[0].object OBJ_a
    w32(&mut r, 0); // +28 ctrl[0].extra_object none
    w32(&mut r, 0x10); // +32 ctrl[0].unknown
    w16(&mut r, 3); // +36 ctrl[0].frame_count 3
    r.extend([0xcc, 0xcc]); // +38 pad
    r.extend([1, 2, 1]); // +40 frames: busy, idle, busy
    r.push(0); // +43 zero pad to 4
    let file = setup_file(0x123, &r);
    let mut want = head(0x0d80, 0xcccc, 9).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("animation", 12, 4, R(6, "ANM_f")),
        ("ctrl_count", 16, 2, N(1)),
        ("pad", 18, 2, B),
        ("ctrl[0].generator", 20, 4, R(2, "OBJ_b")),
        ("ctrl[0].object", 24, 4, R(1, "OBJ_a")),
        ("ctrl[0].extra_object", 28, 4, R(0, "none")),
        ("ctrl[0].unknown", 32, 4, N(0x10)),
        ("ctrl[0].frame_count", 36, 2, N(3)),
        ("ctrl[0].pad", 38, 2, B),
        ("ctrl[0].frames", 40, 3, B),
        ("ctrl[0].pad_frames", 43, 1, B),
    ]);
    check_record(&file, REC, &r, "ParticleAnmCtrl", &want);
    let c = Chunk::ParticleAnm { object: 1, animation: 6, ctrls: vec![(2, 1, 0, 0x10, vec![1, 2, 1])] };
    assert_same_bytes(&written_setup(0x123, vec![c]), &file);
}

/// 0x0D90 ParticleGenerator (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90): `u32 object, u32 ?, u32 flags` (resource_count =
/// bits 12-15, force_field_count = bits 16-19), the 44 bytes of generator parameters, f32
/// ×7, the force fields (32 bytes) and the resources (u32 object, plus u8 ×4 above 0x122).
#[test]
fn gen2_particle_generator() {
    let mut r = Vec::new();
    r.extend([0x90, 0x0d, 0xcc, 0xcc]); // +0 kind 0x0D90
    w32(&mut r, 31); // +4 size 3 + 18 + 8 + 2
    w32(&mut r, 2); // +8 object OBJ_b
    w32(&mut r, 0); // +12 unknown 0
    w32(&mut r, 0x0001_1000); // +16 flags: 1 resource (bits 12-15), 1 force field (bits 16-19)
    w16(&mut r, 0xfffe); // +20 s16_12 = -2
    r.extend([0xcc, 0xcc]); // +22 pad_14
    r.extend(0.5f32.to_le_bytes()); // +24 f32_16 = 0.5
    for x in [1u16, 2, 3, 4] {
        w16(&mut r, x); // +28.. u16_20..u16_26
    }
    for x in [1.0f32, 2.0, 3.0, 4.0, 5.0] {
        r.extend(x.to_le_bytes()); // +36.. f32_28..f32_44
    }
    w16(&mut r, 7); // +56 s16_48 = 7
    w16(&mut r, 0xfff9); // +58 s16_50 = -7
    w16(&mut r, 1024); // +60 fade_in 1024 = 0.5
    w16(&mut r, 2048); // +62 fade_out 2048 = 1.0
    for x in [0.0f32, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5] {
        r.extend(x.to_le_bytes()); // +64.. f32_56..f32_80
    }
    r.extend([0, 0, 0, 0]); // +92 force_field[0].pad_0
    r.push(9); // +96 unknown_4
    r.push(0xcc); // +97 pad_5
    r.push(0x21); // +98 type 0x21
    r.push(0); // +99 pad_7
    w16(&mut r, 0x0102); // +100 unknown_8
    r.extend([0xcc, 0xcc]); // +102 pad_10
    for x in [1.0f32, -1.0, 0.0, 2.0, 0.5] {
        r.extend(x.to_le_bytes()); // +104.. param[0..4]
    }
    w32(&mut r, 6); // +124 resource[0].object ANM_f
    r.extend([1, 2, 3, 4]); // +128 resource[0].extra (version 0x123 > 0x122)
    let file = setup_file(0x123, &r);
    let mut want = head(0x0d90, 0xcccc, 31).to_vec();
    want.extend([
        ("object", 8, 4, R(2, "OBJ_b")),
        ("unknown", 12, 4, N(0)),
        ("flags", 16, 4, N(0x0001_1000)),
        ("s16_12", 20, 2, I(-2)),
        ("pad_14", 22, 2, B),
        ("f32_16", 24, 4, F(0.5)),
        ("u16_20", 28, 2, N(1)),
        ("u16_22", 30, 2, N(2)),
        ("u16_24", 32, 2, N(3)),
        ("u16_26", 34, 2, N(4)),
        ("f32_28", 36, 4, F(1.0)),
        ("f32_32", 40, 4, F(2.0)),
        ("f32_36", 44, 4, F(3.0)),
        ("f32_40", 48, 4, F(4.0)),
        ("f32_44", 52, 4, F(5.0)),
        ("s16_48", 56, 2, I(7)),
        ("s16_50", 58, 2, I(-7)),
        ("fade_in", 60, 2, I(1024)),
        ("fade_out", 62, 2, I(2048)),
        ("f32_56", 64, 4, F(0.0)),
        ("f32_60", 68, 4, F(0.25)),
        ("f32_64", 72, 4, F(0.5)),
        ("f32_68", 76, 4, F(0.75)),
        ("f32_72", 80, 4, F(1.0)),
        ("f32_76", 84, 4, F(1.25)),
        ("f32_80", 88, 4, F(1.5)),
        ("force_field[0].pad_0", 92, 4, B),
        ("force_field[0].unknown_4", 96, 1, N(9)),
        ("force_field[0].pad_5", 97, 1, N(0xcc)),
        ("force_field[0].type", 98, 1, N(0x21)),
        ("force_field[0].pad_7", 99, 1, N(0)),
        ("force_field[0].unknown_8", 100, 2, N(0x0102)),
        ("force_field[0].pad_10", 102, 2, B),
        ("force_field[0].param[0]", 104, 4, F(1.0)),
        ("force_field[0].param[1]", 108, 4, F(-1.0)),
        ("force_field[0].param[2]", 112, 4, F(0.0)),
        ("force_field[0].param[3]", 116, 4, F(2.0)),
        ("force_field[0].param[4]", 120, 4, F(0.5)),
        ("resource[0].object", 124, 4, R(6, "ANM_f")),
        ("resource[0].extra", 128, 4, B),
    ]);
    let (doc, id) = check_record(&file, REC, &r, "ParticleGenerator", &want);
    let fade = doc.node(id).unwrap().fields.iter().find(|f| f.name == "fade_in").unwrap();
    assert_eq!(fade.value.meaning, Some(Meaning::Number { value: 0.5, unit: String::new() }));
    let c = Chunk::ParticleGen {
        object: 2,
        unknown: 0,
        params: write::ParticleParams {
            s16_12: -2,
            f32_16: 0.5,
            u16_20: [1, 2, 3, 4],
            f32_28: [1.0, 2.0, 3.0, 4.0, 5.0],
            s16_48: [7, -7],
            fade_in: 1024,
            fade_out: 2048,
            f32_56: [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5],
        },
        force_fields: vec![write::ForceField {
            unknown_4: 9,
            field_type: 0x21,
            unknown_8: 0x0102,
            params: [1.0, -1.0, 0.0, 2.0, 0.5],
        }],
        resources: vec![(6, [1, 2, 3, 4])],
    };
    assert_same_bytes(&written_setup(0x123, vec![c.clone()]), &file);
    // at 0x122 a resource is the object word alone: the same chunk is one word shorter
    let at122 = written_setup(0x122, vec![c]);
    let rec122 = &at122[REC as usize..];
    assert_eq!(u32::from_le_bytes(rec122[4..8].try_into().unwrap()), 30);
    let doc = describe(&at122);
    let id = node(&doc, REC, 128, "ParticleGenerator");
    let names: Vec<&str> = doc.node(id).unwrap().fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names.last(), Some(&"resource[0].object"));
}

/// A particle chunk whose body does not fit the addendum's layout keeps its bytes opaque
/// and says so (here a ParticleGenerator whose flags claim a force field its size lacks).
#[test]
fn gen2_particle_body_that_does_not_fit_stays_opaque() {
    let mut r = Vec::new();
    r.extend([0x90, 0x0d, 0xcc, 0xcc]); // +0 kind 0x0D90
    w32(&mut r, 21); // +4 size 3 + 18: no room for the force field
    w32(&mut r, 1); // +8 object OBJ_a
    w32(&mut r, 0); // +12 unknown
    w32(&mut r, 0x0001_0000); // +16 flags: 1 force field
    r.extend([0u8; 72]); // +20 parameters
    let file = setup_file(0x123, &r);
    let mut want = head(0x0d90, 0xcccc, 21).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("unknown", 12, 4, N(0)),
        ("flags", 16, 4, N(0x1_0000)),
        ("body", 20, 72, B),
    ]);
    let (doc, id) = check_record(&file, REC, &r, "ParticleGenerator", &want);
    let body = doc.node(id).unwrap().fields.iter().find(|f| f.name == "body").unwrap();
    assert!(body.note.as_deref().is_some_and(|n| n.contains("does not fit")), "{:?}", body.note);
}

// Later-generation frame and Anime records (docs/formats/ccsf-gen2.md#anime-and-frame-records) in v0x123 files.

/// A v0x123 frame-section vector file: `Frame(1), Top 0`, the record (at [`SUB`]), `Top −1`.
fn frames_file2(rec: &[u8]) -> Vec<u8> {
    let mut v = prefix(0x123);
    frame(&mut v, 1);
    top(&mut v, 0);
    v.extend(rec);
    top(&mut v, 0xffff_ffff);
    v
}

/// 0x1B01 CelShadeFrame (docs/formats/ccsf-gen2.md#anime-and-frame-records): `u32 object, u32 flags, f32 ×2` (meanings unknown).
#[test]
fn gen2_cel_shade_frame() {
    let mut r = Vec::new();
    r.extend([0x01, 0x1b, 0xcc, 0xcc]); // +0 kind 0x1B01
    w32(&mut r, 4); // +4 size 4
    w32(&mut r, 1); // +8 object OBJ_a
    w32(&mut r, 3); // +12 flags 3
    wf(&mut r, 0.5); // +16 value[0]
    wf(&mut r, 2.0); // +20 value[1]
    let file = frames_file2(&r);
    let mut want = head(0x1b01, 0xcccc, 4).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flags", 12, 4, N(3)),
        ("value[0]", 16, 4, F(0.5)),
        ("value[1]", 20, 4, F(2.0)),
    ]);
    let (doc, id) = check_record(&file, SUB, &r, "CelShadeFrame", &want);
    assert_eq!(doc.node(doc.node(id).unwrap().parent.unwrap()).unwrap().key, "frame[0]");
}

/// 0x1D01 FBSBlurFrame (docs/formats/ccsf-gen2.md#anime-and-frame-records): `u32 object, u32 flags, f32 ×2, u32 ×2` (meanings unknown).
#[test]
fn gen2_fbs_blur_frame() {
    let mut r = Vec::new();
    r.extend([0x01, 0x1d, 0xcc, 0xcc]); // +0 kind 0x1D01
    w32(&mut r, 6); // +4 size 6
    w32(&mut r, 1); // +8 object OBJ_a
    w32(&mut r, 1); // +12 flags 1
    wf(&mut r, 10.0); // +16 value[0]
    wf(&mut r, -2.0); // +20 value[1]
    w32(&mut r, 10); // +24 word[0]
    w32(&mut r, 0xffff_ffff); // +28 word[1]
    let file = frames_file2(&r);
    let mut want = head(0x1d01, 0xcccc, 6).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flags", 12, 4, N(1)),
        ("value[0]", 16, 4, F(10.0)),
        ("value[1]", 20, 4, F(-2.0)),
        ("word[0]", 24, 4, N(10)),
        ("word[1]", 28, 4, N(0xffff_ffff)),
    ]);
    check_record(&file, SUB, &r, "FBSBlurFrame", &want);
}

/// A v0x123 Anime vector file (as [`anime_file`]).
fn anime_file2(rec: &[u8]) -> Vec<u8> {
    let words = (12 + rec.len() + 12) as u32 / 4;
    let mut a = Vec::new();
    a.extend([0x00, 0x07, 0xcc, 0xcc]); // kind 0x0700 Anime
    w32(&mut a, 3 + words); // size = 3 + words
    w32(&mut a, 6); // object = ANM_f
    w32(&mut a, 1); // frames N = 1
    w32(&mut a, words); // words of the sub-record stream
    top(&mut a, 0);
    a.extend(rec);
    top(&mut a, 0xffff_ffff);
    setup_file(0x123, &a)
}

/// 0x1902 morph controller (docs/formats/ccsf-gen2.md#anime-and-frame-records): `u32 morpher, u32 target_count`, per target `u32 model,
/// u32 flags` and the weight controller (field 0; here k = 1, one f32).
#[test]
fn gen2_morph_controller() {
    let mut r = Vec::new();
    r.extend([0x02, 0x19, 0xcc, 0xcc]); // +0 kind 0x1902
    w32(&mut r, 5); // +4 size 2 + 3
    w32(&mut r, 8); // +8 morpher MPH_h
    w32(&mut r, 1); // +12 target_count 1
    w32(&mut r, 3); // +16 target[0].model MDL_c
    w32(&mut r, 1); // +20 target[0].flags: weight k = 1
    wf(&mut r, 0.5); // +24 target[0].weight
    let file = anime_file2(&r);
    let mut want = head(0x1902, 0xcccc, 5).to_vec();
    want.extend([
        ("morpher", 8, 4, R(8, "MPH_h")),
        ("target_count", 12, 4, N(1)),
        ("target[0].model", 16, 4, R(3, "MDL_c")),
        ("target[0].flags", 20, 4, N(1)),
        ("target[0].weight", 24, 4, F(0.5)),
    ]);
    check_record(&file, ASUB, &r, "MorphCtrl", &want);
    let c = Chunk::MorphCtrl { morpher: 8, targets: vec![(3, Ctrl::Const(vec![0.5f32.to_bits()]))] };
    let records = vec![Chunk::Top { frame: 0 }, c, Chunk::Top { frame: 0xffff_ffff }];
    assert_same_bytes(&written_setup(0x123, vec![Chunk::Anime { object: 6, frames: 1, records }]), &file);
}

/// 0x0503 camera controller (docs/formats/ccsf-gen2.md#anime-and-frame-records): fields 0 position vec3, 3 rotation, 6 fov f32; here
/// position k = 1, rotation absent, fov k = 1.
#[test]
fn gen2_camera_controller() {
    let mut r = Vec::new();
    r.extend([0x03, 0x05, 0xcc, 0xcc]); // +0 kind 0x0503
    w32(&mut r, 6); // +4 size 2 + 3 + 1
    w32(&mut r, 1); // +8 object OBJ_a
    w32(&mut r, 0o101); // +12 flags: position k = 1, rotation k = 0, fov k = 1
    for x in [1.0f32, 2.0, 3.0] {
        wf(&mut r, x); // +16 position
    }
    wf(&mut r, 45.0); // +28 fov
    let file = anime_file2(&r);
    let mut want = head(0x0503, 0xcccc, 6).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("flags", 12, 4, N(0o101)),
        ("position.x", 16, 4, F(1.0)),
        ("position.y", 20, 4, F(2.0)),
        ("position.z", 24, 4, F(3.0)),
        ("fov", 28, 4, F(45.0)),
    ]);
    check_record(&file, ASUB, &r, "CameraCtrl", &want);
}

/// The addendum's opaque kinds (docs/formats/ccsf-gen2.md#walker "opaque (no reader)"): framed by their size, the whole
/// payload shown as unknown bytes.
#[test]
fn gen2_opaque_kinds_are_framed_and_unknown() {
    for (kind, frames) in [(0x1f00u16, false), (0x2700, false), (0x1a01, true), (0x1c01, true)] {
        let mut r = Vec::new();
        r.extend(kind.to_le_bytes()); // +0 kind
        r.extend([0xcc, 0xcc]); // +2 tag
        w32(&mut r, 2); // +4 size 2
        w32(&mut r, 1); // +8 undocumented
        w32(&mut r, 0xdead_beef); // +12 undocumented
        let (file, at) = if frames { (frames_file2(&r), SUB) } else { (setup_file(0x123, &r), REC) };
        let mut want = head(kind, 0xcccc, 2).to_vec();
        want.push(("payload", 8, 8, B));
        let name = chunk_kind_name(kind);
        let (doc, id) = check_record(&file, at, &r, name, &want);
        let last = doc.node(id).unwrap().fields.last().unwrap();
        assert_eq!(
            last.value.meaning,
            Some(Meaning::Label("layout not documented (no reader)".into())),
            "0x{kind:04x}"
        );
    }
}

/// Every record layout with its hand-written vector.
const VECTORS: &[Vector] = &[
    (0x0001, "Header", Dir::Both, header_index_and_setup),
    (0x0002, "Index", Dir::Both, header_index_and_setup),
    (0x0003, "Setup", Dir::Both, header_index_and_setup),
    (0x0005, "Frame", Dir::Both, frame_and_top),
    (0xff01, "Top", Dir::Both, frame_and_top),
    (0x0100, "Obj (4 words, ≥ 0x96)", Dir::Both, obj_version_0x96_and_later),
    (0x0100, "Obj (3 words, < 0x96)", Dir::Both, obj_before_version_0x96),
    (0x0200, "Material", Dir::Both, material),
    (0x0300, "Texture", Dir::Both, clut_and_texture),
    (0x0400, "Clut", Dir::Both, clut_and_texture),
    (0x0500, "Camera", Dir::Both, camera),
    (0x0600, "Light", Dir::Both, light),
    (0x0700, "Anime", Dir::Both, anime_container),
    (0x0800, "Model (rigid)", Dir::Both, model_rigid),
    (0x0800, "Model (bone + skin)", Dir::Both, model_bone_and_skin),
    (0x0800, "Model (shadow)", Dir::Both, model_shadow),
    (0x0900, "Clump", Dir::Both, clump),
    (0x0a00, "ExtObj", Dir::Both, ext_obj),
    (0x0b00, "Hit", Dir::Both, hit),
    (0x0c00, "Bbox", Dir::Both, bbox),
    (0x0e00, "Eff", Dir::Both, eff),
    (0x1100, "FBRect", Dir::ParseOnly, fb_rect),
    (0x1200, "FBPage", Dir::ParseOnly, fb_page),
    (0x1300, "DummyPos", Dir::Both, dummy_pos),
    (0x1400, "DummyPosRot", Dir::Both, dummy_pos_rot),
    (0x1700, "Layer", Dir::Both, layer),
    (0x1800, "Shadow", Dir::ParseOnly, shadow),
    (0x1900, "Morpher", Dir::Both, morpher),
    (0x2000, "Obj2", Dir::Both, obj2),
    (0x2200, "Pcm", Dir::ParseOnly, pcm),
    (0x0101, "F_Obj", Dir::Both, f_obj),
    (0x0108, "F_Note", Dir::Both, f_note),
    (0x0201, "F_Material", Dir::ParseOnly, f_material),
    (0x0502, "F_Camera", Dir::Both, f_camera),
    (0x0601, "F_Ambient", Dir::Both, f_ambient),
    (0x0602, "F_DistantLight", Dir::ParseOnly, f_distant_light),
    (0x0608, "F_OmniLight", Dir::ParseOnly, f_omni_light),
    (0x1801, "F_Shadow", Dir::ParseOnly, f_shadow),
    (0x1901, "F_Morpher", Dir::Both, f_morpher),
    (0x2201, "F_Pcm", Dir::ParseOnly, f_pcm),
    (0x0102, "ObjCtrl", Dir::Both, object_controller),
    (0x0202, "MatCtrl", Dir::Both, material_controller),
    (0x0603, "DistantLightCtrl", Dir::Both, distant_light_controller),
    (0x0605, "DirectLightCtrl", Dir::Both, direct_light_controller),
    (0x0609, "OmniLightCtrl", Dir::Both, omni_light_controller),
    // later generations (docs/formats/ccsf-gen2.md#walker)
    (0x1a00, "StreamOutlineParam", Dir::Both, gen2_stream_params),
    (0x1b00, "StreamCelShadeParam", Dir::Both, gen2_stream_params),
    (0x1c00, "StreamToneShadeParam", Dir::Both, gen2_stream_params),
    (0x1d00, "StreamFBSBlurParam", Dir::ParseOnly, gen2_blur_param),
    (0x2300, "Dynamics", Dir::Both, gen2_dynamics),
    (0x2400, "BinaryBlob", Dir::Both, gen2_binary_blob),
    (0x0d80, "ParticleAnmCtrl", Dir::Both, gen2_particle_anm_ctrl),
    (0x0d90, "ParticleGenerator", Dir::Both, gen2_particle_generator),
    (0x0d90, "ParticleGenerator (body not fitting)", Dir::ParseOnly, gen2_particle_body_that_does_not_fit_stays_opaque),
    (0x1b01, "CelShadeFrame", Dir::ParseOnly, gen2_cel_shade_frame),
    (0x1d01, "FBSBlurFrame", Dir::ParseOnly, gen2_fbs_blur_frame),
    (0x1902, "MorphCtrl", Dir::Both, gen2_morph_controller),
    (0x0503, "CameraCtrl", Dir::ParseOnly, gen2_camera_controller),
];

/// Kinds the game dispatches whose layout the spec does not document (docs/formats/ccsf.md#open-questions):
/// they have no vector, only `undocumented_layouts_are_opaque`.
const UNDOCUMENTED: &[u16] = &[
    0x0d00, 0x1000, 0x0604, 0x0606, 0x0607, 0x0802, 0x0803,
    // docs/formats/ccsf-gen2.md#walker "opaque (no reader)" kinds
    0x1f00, 0x2700, 0x1a01, 0x1c01,
];

#[test]
fn every_declared_kind_has_a_vector() {
    let kinds = declared_chunk_kinds();
    let mut missing = Vec::new();
    for k in &kinds {
        let has = VECTORS.iter().any(|v| v.0 == *k);
        let undocumented = UNDOCUMENTED.contains(k);
        assert!(!(has && undocumented), "0x{k:04x} is both vectored and listed as undocumented");
        if !has && !undocumented {
            missing.push(format!("0x{k:04x} {}", chunk_kind_name(*k)));
        }
    }
    assert!(missing.is_empty(), "record kinds without a hand-written vector: {missing:?}");
    // and nothing in the registry is outside the dispatch tables
    for v in VECTORS {
        assert!(kinds.contains(&v.0), "{}: 0x{:04x} is not a declared kind", v.1, v.0);
    }
    for k in UNDOCUMENTED {
        assert!(kinds.contains(k), "0x{k:04x} is not a declared kind");
    }
    // the parse-only vectors are exactly the records the writer has no model of
    let parse_only: Vec<&str> = VECTORS.iter().filter(|v| v.2 == Dir::ParseOnly).map(|v| v.1).collect();
    assert_eq!(
        parse_only,
        [
            "FBRect",
            "FBPage",
            "Shadow",
            "Pcm",
            "F_Material",
            "F_DistantLight",
            "F_OmniLight",
            "F_Shadow",
            "F_Pcm",
            "StreamFBSBlurParam",
            "ParticleGenerator (body not fitting)",
            "CelShadeFrame",
            "FBSBlurFrame",
            "CameraCtrl"
        ]
    );
}

/// The registry's functions are the vectors themselves: running them from the table proves
/// the table points at real checks.
#[test]
fn registry_vectors_run() {
    for (_, _, _, f) in VECTORS {
        f();
    }
}
