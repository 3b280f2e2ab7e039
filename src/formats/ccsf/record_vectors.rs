//! Record-level vectors for the CCSF declarations `raw_tests.rs` does not cover (or covers
//! only in part), and the CCSF registry: `every_ccsf_record_has_a_vector` fails when
//! `raw.rs` declares a record that neither this file nor `raw_tests.rs` has a vector for.
//!
//! Bytes are typed out with a comment per field; expected values are typed from
//! the layouts of docs/formats/ccsf.md (chunk header, Header, Index, Frame/Top, setup layouts,
//! Texture/Clut, frame records) and, for the later generations' records (`gen2_*`), of
//! docs/formats/ccsf-gen2.md (setup chunks, Model header, Anime and frame records; its hex
//! examples where there is one), not from the writer. Each goes
//! through [`both`]: read gives the values (and spans), write gives the bytes back.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, clippy::expect_used)]

use super::raw::*;
use crate::bytes::Bytes;
use crate::formats::record::{ByteArray, Count, Element, Layout, Record};
use crate::model::{Field, Span};
use crate::test_support::vectors::{self, both, both_at};

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Names and spans of `fields`, for comparing with the spec's table.
fn layout(fields: &[Field]) -> Vec<(&str, u64, u64)> {
    fields.iter().map(|f| (f.name.as_str(), f.span.start, f.span.len())).collect()
}

/// A count of `n` items of `size` bytes at 0 in `b`.
fn count(b: &[u8], n: u64, size: u64) -> Count {
    Count::checked(&Bytes::new(b), "vector", 0, n, size, n).unwrap()
}

#[test]
fn chunk_header() {
    // docs/formats/ccsf.md#chunk-header: u16 kind, u16 tag, u32 size in words; a Texture chunk of 0x2039 words
    let h: ChunkHeader = both(
        &[
            0x00, 0x03, // kind 0x0300 Texture
            0xcc, 0xcc, // tag 0xCCCC
            0x39, 0x20, 0x00, 0x00, // size 0x2039 words
        ],
        (),
    );
    assert_eq!((*h.kind, *h.tag, *h.size), (0x0300, 0xcccc, 0x2039));
    assert_eq!(layout(&Record::fields(&h)), [("kind", 0, 2), ("tag", 2, 2), ("size", 4, 4)]);
}

#[test]
fn header_and_its_words() {
    // docs/formats/ccsf.md#header-0x0001, at file offset 8 (after the chunk header): magic, name[32], version, pad,
    // frames, count; then count words
    let mut b = vec![0u8; 8];
    b.extend(b"CCSF"); // 0x08 magic
    b.extend(b"xasc00"); // 0x0c name[32]: the member stem,
    b.extend([0u8; 26]); //      NUL-padded
    b.extend([0x00, 0x01]); // 0x2c version 0x100
    b.extend([0x00, 0x00]); // 0x2e pad
    b.extend([0xf2, 0x00, 0x00, 0x00]); // 0x30 frames 242
    b.extend([0x01, 0x00, 0x00, 0x00]); // 0x34 count 1
    assert_eq!(b.len(), 0x38);
    let h: Header = both_at(&b, 8, ());
    assert_eq!(&h.magic.0, b"CCSF");
    assert_eq!(&h.name.0[..7], b"xasc00\0");
    assert_eq!((*h.version, *h.pad, *h.frames, *h.count), (0x100, 0, 242, 1));
    assert_eq!(
        layout(&h.fields()),
        [
            ("magic", 8, 4),
            ("name", 0x0c, 32),
            ("version", 0x2c, 2),
            ("pad", 0x2e, 2),
            ("frames", 0x30, 4),
            ("count", 0x34, 4)
        ]
    );
    // the word table (all 0 in every file; typed non-zero here to see each word)
    let w = [
        0x00, 0x00, 0x00, 0x00, // word[0] 0
        0x78, 0x56, 0x34, 0x12, // word[1] 0x12345678
    ];
    let words: Words = both(&w, (count(&w, 2, 4),));
    assert_eq!(words.word.iter().map(|x| **x).collect::<Vec<_>>(), [0, 0x1234_5678]);
    assert_eq!(layout(&words.fields()), [("word[0]", 0, 4), ("word[1]", 4, 4)]);
}

#[test]
fn index_tables() {
    // docs/formats/ccsf.md#index-0x0002: u32 file_count, u32 object_count (blank entry 0 included), then 32-byte
    // file entries, then 32-byte object entries (char[30] name, u16 file)
    let h: IndexHead = both(
        &[
            0x02, 0x00, 0x00, 0x00, // file_count 2
            0x03, 0x00, 0x00, 0x00, // object_count 3
        ],
        (),
    );
    assert_eq!((*h.file_count, *h.object_count), (2, 3));
    assert_eq!(layout(&h.fields()), [("file_count", 0, 4), ("object_count", 4, 4)]);

    let mut files = vec![0u8; 32]; // file[0]: all zero
    files.extend(b" x\\window\\tex\\xasc00.bmp"); // file[1]: ' ' = defined here, 24 bytes
    files.extend([0u8; 8]); // NUL-padded to 32
    let one: IndexFile = both_at(&files, 32, ());
    assert_eq!((&one.path.0[..3], one.path.span), (&b" x\\"[..], Span::new(32, 64)));
    let blank: IndexFile = both_at(&files, 0, ());
    assert_eq!((blank.path.0, blank.path.span), ([0u8; 32], Span::new(0, 32)));

    let mut objects = vec![0u8; 32]; // object[0]: all zero
    objects.extend(b"TEX_xasc00"); // object[1] name, 10 bytes
    objects.extend([0u8; 20]); // NUL-padded to 30
    objects.extend([0x01, 0x00]); // file 1
    objects.extend(b"CLT_xasc00"); // object[2] name
    objects.extend([0u8; 20]);
    objects.extend([0x01, 0x00]); // file 1
    let o: IndexObject = both_at(&objects, 32, ());
    assert_eq!((&o.name.0[..10], *o.file, o.file.span), (&b"TEX_xasc00"[..], 1, Span::new(62, 64)));
    let entries: Vec<IndexObject> = [0, 32, 64].iter().map(|&at| both_at(&objects, at, ())).collect();
    assert_eq!(entries.iter().map(|o| *o.file).collect::<Vec<_>>(), [0, 1, 1]);
    assert_eq!((&entries[2].name.0[..4], entries[2].name.span), (&b"CLT_"[..], Span::new(64, 94)));
}

#[test]
fn frame_and_top() {
    // docs/formats/ccsf.md#frame-0x0005-and-top-0xff01: Frame = u32 frame_count; Top = u32 frame (−1 end, −2 end + reset)
    let fr: Frame = both(&[0x8e, 0x01, 0x00, 0x00 /* frame_count 398 */], ());
    assert_eq!(*fr.frame_count, 398);
    let t: Top = both(&[0x05, 0x00, 0x00, 0x00 /* frame 5 */], ());
    assert_eq!(*t.frame, 5);
    let t: Top = both(&[0xfe, 0xff, 0xff, 0xff /* frame −2: end + reset */], ());
    assert_eq!(*t.frame, 0xffff_fffe);
    assert_eq!(layout(&t.fields()), [("frame", 0, 4)]);
}

#[test]
fn vec3() {
    let v: Vec3 = both(
        &[
            0x00, 0x00, 0x80, 0x3f, // x 1.0
            0x00, 0x00, 0x00, 0xc0, // y −2.0
            0x00, 0x00, 0x00, 0x80, // z −0.0 (the bits are kept)
        ],
        (),
    );
    assert_eq!([*v.x, *v.y, *v.z], [f(1.0), f(-2.0), 0x8000_0000]);
    assert_eq!(v.z.span, Span::new(8, 12));
}

/// The parts split out of gen-2 records so each field is named by its identifier:
/// docs/formats/ccsf-gen2.md#anime-and-frame-records (an F_Obj's values by mask bit; an
/// F_Material's u, v and its scale block).
#[test]
fn masked_and_split_values() {
    // mask 0b1010 from bit 1: bit 1 set (x absent), bit 2 clear (y), bit 3 set (z absent)
    let m: MaskedVec3 = both(&[0x00, 0x00, 0x80, 0x3f /* y 1.0 */], (0b1010, 1));
    assert_eq!((m.x, m.y.map(|y| (*y, y.span)), m.z), (None, Some((f(1.0), Span::new(0, 4))), None));
    assert_eq!(m.present().collect::<Vec<_>>(), [(1, f(1.0))]);
    assert_eq!(layout(&m.fields()), [("y", 0, 4)]);
    let uv: FMaterialUv = both(&[0x00, 0x00, 0x00, 0x3f /* u 0.5 */, 0x00, 0x00, 0x80, 0xbf /* v -1.0 */], ());
    assert_eq!((*uv.u, *uv.v, uv.v.span), (f(0.5), f(-1.0), Span::new(4, 8)));
    let sc: FMaterialScale = both(
        &[
            0x00, 0x00, 0x80, 0x3f, // scale U 1.0
            0x00, 0x00, 0x00, 0x40, // scale V 2.0
            0x00, 0x00, 0x00, 0x00, // unknown 0.0
            0x00, 0x00, 0x80, 0xbf, // unknown -1.0
        ],
        (),
    );
    assert_eq!([*sc.scale_u, *sc.scale_v, *sc.unknown_0, *sc.unknown_1], [f(1.0), f(2.0), 0, f(-1.0)]);
    assert_eq!(layout(&sc.fields()), [("scale_u", 0, 4), ("scale_v", 4, 4), ("unknown_0", 8, 4), ("unknown_1", 12, 4)]);
}

/// A layout table as docs/formats/ccsf.md#setup-chunks gives Eff 0x0E00 and Light 0x0600:
/// names, offsets and sizes; a field after a conditional one has no fixed offset.
#[test]
fn layout_tables_give_names_offsets_and_sizes() {
    use crate::formats::record::Layout;
    let table = |t: &[crate::formats::record::FieldDef]| -> Vec<(&str, Option<u64>, Option<u64>)> {
        t.iter().map(|d| (d.name, d.offset, d.size)).collect()
    };
    let s = |n: &'static str, at: u64, size: u64| (n, Some(at), Some(size));
    assert_eq!(
        table(Eff::FIELDS),
        [
            s("version", 0, 0), // kept in memory, not read
            s("object", 0, 4),
            s("texture", 4, 4),
            s("flag", 8, 2),
            s("zoffs", 10, 2),
            s("unknown", 12, 2),
            s("pat_num", 14, 2),
            s("x0", 16, 4),
            s("y0", 20, 4),
            s("x1", 24, 4),
            s("y1", 28, 4),
            s("w", 32, 2),
            s("h", 34, 2),
        ]
    );
    // `type` is declared `type_`
    assert_eq!(table(Light::FIELDS), [s("object", 0, 4), s("type", 4, 2), s("pad", 6, 2)]);
    // Obj: shadow_model from 0x96 and extra are conditional, so they have no size, and
    // nothing after the first has an offset
    assert_eq!(
        table(Obj::FIELDS),
        [
            s("object", 0, 4),
            s("parent", 4, 4),
            s("model", 8, 4),
            ("shadow_model", Some(12), None),
            ("extra", None, None)
        ]
    );
    assert_eq!(FbPageEntry::layout(), "u8 px, py, pw, ph, type, pad[3]");
    assert_eq!(EffPattern::layout(), "u16 u, v, transparency, pad");
}

#[test]
fn eff() {
    // docs/formats/ccsf.md#setup-chunks 0x0E00: object, texture, u16 flag, s16 zoffs, u16 unknown, u16 patNum, f32 x0 y0
    // x1 y1, u16 w, u16 h
    let e: Eff = both(
        &[
            0x0a, 0x00, 0x00, 0x00, // object 10 (EFF_)
            0x04, 0x00, 0x00, 0x00, // texture 4 (TEX_)
            0x03, 0x00, // flag 3 (blend 3)
            0xfe, 0xff, // zoffs −2
            0x70, 0x00, // unknown 112
            0x02, 0x00, // pat_num 2
            0x00, 0x00, 0x80, 0xbf, // x0 −1.0
            0x00, 0x00, 0x00, 0xbf, // y0 −0.5
            0x00, 0x00, 0x80, 0x3f, // x1 1.0
            0x00, 0x00, 0x00, 0x3f, // y1 0.5
            0x00, 0x04, // w 1024
            0x00, 0x02, // h 512
        ],
        (0x100,),
    );
    assert_eq!((*e.object, *e.texture, *e.flag, *e.zoffs, *e.unknown, *e.pat_num), (10, 4, 3, -2, 112, 2));
    assert_eq!([*e.x0, *e.y0, *e.x1, *e.y1], [f(-1.0), f(-0.5), f(1.0), f(0.5)]);
    assert_eq!((*e.w, *e.h, e.h.span), (1024, 512, Span::new(34, 36)));
}

#[test]
fn fbrect_and_fbpage() {
    // docs/formats/ccsf.md#setup-chunks 0x1100: object, u8 type, pad[3], u16 fx, fy, w, h
    let r: FbRect = both(
        &[
            0x01, 0x00, 0x00, 0x00, // object 1 (FBR_)
            0x02, // type 2
            0x00, 0x00, 0x00, // pad[3]
            0x10, 0x00, // fx 16
            0x20, 0x00, // fy 32
            0x80, 0x02, // w 640
            0xe0, 0x01, // h 480
        ],
        (),
    );
    assert_eq!((*r.object, *r.type_, *r.fx, *r.fy, *r.w, *r.h), (1, 2, 16, 32, 640, 480));
    assert_eq!((r.pad.span, r.fx.span), (Span::new(5, 8), Span::new(8, 10)));
    // docs/formats/ccsf.md#setup-chunks 0x1200: object, u32 n (the n pages follow)
    let p: FbPage = both(&[0x02, 0x00, 0x00, 0x00 /* object 2 (PAG_) */, 0x03, 0x00, 0x00, 0x00 /* n 3 */], ());
    assert_eq!((*p.object, *p.n), (2, 3));
}

#[test]
fn layer_and_its_entries() {
    // docs/formats/ccsf.md#setup-chunks 0x1700: u16 n, pad to 4, then n × {u8 kind, pad to 4, u32 object (LYR_)}
    let l: Layer = both(&[0x02, 0x00 /* n 2 */, 0x00, 0x00 /* pad */], ());
    assert_eq!((*l.n, l.pad.span), (2, Span::new(2, 4)));
    let e: LayerEntry = both(
        &[
            0x01, // kind 1 = shadow layer
            0x00, 0x00, 0x00, // pad to 4
            0x06, 0x00, 0x00, 0x00, // object 6 (LYR_)
        ],
        (),
    );
    assert_eq!((*e.kind, *e.object, e.object.span), (1, 6, Span::new(4, 8)));
    assert_eq!(layout(&e.fields()), [("layer[0].kind", 0, 1), ("pad", 1, 3), ("layer[0].object", 4, 4)]);
}

#[test]
fn shadow_and_morpher() {
    // docs/formats/ccsf.md#setup-chunks 0x1800: object, u16 x, y, w, h, s16 px, py, u8 copies, u8 spread, u16 pad, f32 length
    let s: Shadow = both(
        &[
            0x00, 0x00, 0x00, 0x00, // object 0 = the default layer
            0x40, 0x00, // x 64
            0x20, 0x00, // y 32
            0x00, 0x01, // w 256
            0x80, 0x00, // h 128
            0xff, 0xff, // px −1
            0x02, 0x00, // py 2
            0x04, // copies 4
            0x08, // spread 8
            0x00, 0x00, // pad
            0x00, 0x00, 0x20, 0x41, // length 10.0
        ],
        (),
    );
    assert_eq!((*s.object, *s.x, *s.y, *s.w, *s.h, *s.px, *s.py), (0, 64, 32, 256, 128, -1, 2));
    assert_eq!((*s.copies, *s.spread, *s.length, s.length.span), (4, 8, f(10.0), Span::new(20, 24)));
    // docs/formats/ccsf.md#setup-chunks 0x1900: u32 morpher (MPH_), u32 base_model (MDL_)
    let m: Morpher = both(&[0x07, 0x00, 0x00, 0x00 /* morpher 7 */, 0x02, 0x00, 0x00, 0x00 /* base_model 2 */], ());
    assert_eq!((*m.morpher, *m.base_model), (7, 2));
}

#[test]
fn pcm_and_f_pcm() {
    // docs/formats/ccsf.md#setup-chunks 0x2200: u32 id, u8 type, u8 bits, u8 track, u8 pad, u32 blocks, u32 words
    let p: Pcm = both(
        &[
            0x2a, 0x00, 0x00, 0x00, // id 42
            0x01, // type 1
            0x10, // bits 16
            0x02, // track 2
            0x00, // pad
            0x03, 0x00, 0x00, 0x00, // blocks 3
            0x00, 0x01, 0x00, 0x00, // words 256 (one 1,024-byte block)
        ],
        (),
    );
    assert_eq!((*p.id, *p.type_, *p.bits, *p.track, *p.blocks, *p.words), (42, 1, 16, 2, 3, 256));
    assert_eq!(p.blocks.span, Span::new(8, 12));
    // docs/formats/ccsf.md#per-frame-records 0x2201: u32 id, u16 blocks, u16 pad, u32 words
    let q: FPcm = both(
        &[
            0x2a, 0x00, 0x00, 0x00, // id 42
            0x05, 0x00, // blocks 5
            0x00, 0x00, // pad
            0x00, 0x01, 0x00, 0x00, // words 256
        ],
        (),
    );
    assert_eq!((*q.id, *q.blocks, *q.words, q.words.span), (42, 5, 256, Span::new(8, 12)));
}

#[test]
fn texture_heads_by_version() {
    // docs/formats/ccsf.md#texture-0x0300 at version 0x100 (xasc00's worked example): texture 2, clut 1, blt_group 0,
    // flag 0, psm 0x14, mipmap 0, aref 0x70, tw 8, th 8, pad cd cd
    let b = [
        0x02, 0x00, 0x00, 0x00, // texture 2 (TEX_xasc00)
        0x01, 0x00, 0x00, 0x00, // clut 1 (CLT_xasc00)
        0x00, 0x00, 0x00, 0x00, // blt_group 0 (≥ 0x92)
        0x19, // flag 0x19: resident | translucent | clamp
        0x14, // psm PSMT4
        0x03, // mipmap 3
        0x70, // aref 0x70
        0x08, // tw 8 (256)
        0x07, // th 7 (128)
        0xcd, 0xcd, // pad
    ];
    let t: TextureHead = both(&b, (0x100,));
    assert_eq!((*t.texture, *t.clut, t.blt_group.map(|b| *b), *t.flag, *t.psm), (2, 1, Some(0), 0x19, 0x14));
    let l = t.long.as_ref().unwrap();
    assert_eq!((*l.mipmap, *l.aref, *l.tw, *l.th), (3, 0x70, 8, 7));
    assert_eq!((t.pad.0, t.pad.span), ([0xcd, 0xcd], Span::new(18, 20)));
    assert_eq!(
        layout(&t.fields()),
        [
            ("texture", 0, 4),
            ("clut", 4, 4),
            ("blt_group", 8, 4),
            ("flag", 12, 1),
            ("psm", 13, 1),
            ("mipmap", 14, 1),
            ("aref", 15, 1),
            ("tw", 16, 1),
            ("th", 17, 1),
            ("pad", 18, 2)
        ]
    );
    // the long header's four bytes alone
    let l: TextureLong = both(&b[14..18], ());
    assert_eq!((*l.mipmap, *l.aref, *l.tw, *l.th, l.th.span), (3, 0x70, 8, 7, Span::new(3, 4)));
    // version 0x90: the long header, no blt_group, so flag is at +8
    let t: TextureHead = both(&[&b[..8], &b[12..]].concat(), (0x90,));
    assert_eq!((t.blt_group, *t.flag, t.flag.span, *t.long.unwrap().tw), (None, 0x19, Span::new(8, 9), 8));
}

#[test]
fn clut_head_and_mip_level() {
    // docs/formats/ccsf.md#clut-0x0400 below 0x92: clut, flag, cpsm, unknown_2, unknown_3, u16 buf_x, u16 buf_y, u32 count
    let c: ClutHead = both(
        &[
            0x01, 0x00, 0x00, 0x00, // clut 1 (CLT_)
            0x05, // flag 0x05
            0x00, // cpsm 0 (PSMCT32)
            0x00, // unknown_2
            0x70, // unknown_3 112
            0x00, 0x03, // buf_x 768
            0x00, 0x03, // buf_y 768
            0x00, 0x01, 0x00, 0x00, // count 256
        ],
        (0x90,),
    );
    assert_eq!((*c.clut, c.blt_group, *c.flag, *c.cpsm, *c.unknown_2, *c.unknown_3), (1, None, 5, 0, 0, 0x70));
    assert_eq!((*c.buf_x, *c.buf_y, *c.count, c.count.span), (768, 768, 256, Span::new(12, 16))); // +4 clut, then +8 count
    // from 0x92 a blt_group word follows the clut index
    let c: ClutHead = both(
        &[
            0x01, 0x00, 0x00, 0x00, // clut 1
            0x09, 0x00, 0x00, 0x00, // blt_group 9
            0x01, 0x00, 0x00, 0x00, // flag 1, cpsm 0, unknown_2 0, unknown_3 0
            0x00, 0x03, 0x00, 0x00, // buf_x 768, buf_y 0
            0x10, 0x00, 0x00, 0x00, // count 16
        ],
        (0x92,),
    );
    assert_eq!((c.blt_group.map(|b| *b), *c.flag, *c.buf_x, *c.buf_y, *c.count), (Some(9), 1, 768, 0, 16));
    assert_eq!(
        layout(&c.fields()),
        [
            ("clut", 0, 4),
            ("blt_group", 4, 4),
            ("flag", 8, 1),
            ("cpsm", 9, 1),
            ("unknown_2", 10, 1),
            ("unknown_3", 11, 1),
            ("buf_x", 12, 2),
            ("buf_y", 14, 2),
            ("count", 16, 4)
        ]
    );
    // docs/formats/ccsf.md#texture-0x0300 level head: u16 buf_x, u16 buf_y, u32 count (xasc00: 768, 0, 0x2000)
    let l: LevelHead = both(
        &[
            0x00, 0x03, /* buf_x 768 */
            0x00, 0x00, /* buf_y 0 */
            0x00, 0x20, 0x00, 0x00, /* count 0x2000 */
        ],
        (),
    );
    assert_eq!((*l.buf_x, *l.buf_y, *l.count), (768, 0, 0x2000));
}

#[test]
fn frame_records_in_full() {
    // docs/formats/ccsf.md#per-frame-records F_Ambient: u32 colour, R in the low byte
    let a: FAmbient = both(&[0x80, 0x40, 0x20, 0x80 /* r 128 g 64 b 32 a 128 */], ());
    assert_eq!(*a.colour, 0x8020_4080);
    // F_OmniLight: object, flag, f32 pos[3], u32 colour, f32 intensity, far_start, far_end
    let o: FOmniLight = both(
        &[
            0x03, 0x00, 0x00, 0x00, // object 3 (LGT_)
            0x01, 0x00, 0x00, 0x00, // flag 1
            0x00, 0x00, 0x80, 0x3f, // pos.x 1.0
            0x00, 0x00, 0x00, 0x40, // pos.y 2.0
            0x00, 0x00, 0x40, 0x40, // pos.z 3.0
            0xff, 0x00, 0x00, 0x80, // colour r 255, a 128
            0x00, 0x00, 0x00, 0x3f, // intensity 0.5
            0x00, 0x00, 0x20, 0x41, // far_start 10.0
            0x00, 0x00, 0xa0, 0x41, // far_end 20.0
        ],
        (),
    );
    assert_eq!((*o.object, *o.flag, *o.pos.x, *o.pos.z, *o.colour), (3, 1, f(1.0), f(3.0), 0x8000_00ff));
    assert_eq!((*o.intensity, *o.far_start, *o.far_end, o.far_end.span), (f(0.5), f(10.0), f(20.0), Span::new(32, 36)));
    // F_Camera flag 0: all eight values follow in bit order 1..8
    let mut c = vec![
        0x09, 0x00, 0x00, 0x00, // object 9 (CAM_)
        0x00, 0x00, 0x00, 0x00, // flag 0: every value present
    ];
    for x in [1.0f32, 2.0, 3.0, 10.0, 20.0, 30.0, 0.0, 45.0] {
        c.extend(x.to_le_bytes()); // pos.x pos.y pos.z rot.x rot.y rot.z bit7 fov
    }
    let cam: FCamera = both(&c, ());
    assert_eq!((*cam.object, *cam.flag, cam.values().count()), (9, 0, 8));
    assert_eq!(cam.fov.map(|v| *v), Some(f(45.0)));
    let names: Vec<_> = cam.fields().iter().map(|f| f.name.clone()).collect();
    assert_eq!(names, ["object", "flag", "pos.x", "pos.y", "pos.z", "rot.x", "rot.y", "rot.z", "bit7", "fov"]);
    assert_eq!(cam.fov.map(|v| v.span), Some(Span::new(36, 40)));
    // flag 0x0e: bits 1..3 set, so pos is absent and rot.x (first clear bit 4) comes first
    let mut c2 = vec![0x09, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00]; // object 9, flag 0x0e
    for x in [10.0f32, 20.0, 30.0, 0.0, 45.0] {
        c2.extend(x.to_le_bytes()); // rot.x rot.y rot.z bit7 fov
    }
    let cam: FCamera = both(&c2, ());
    assert_eq!((*cam.flag, cam.rot.x.map(|v| *v), cam.values().count()), (0x0e, Some(f(10.0)), 5));
    // F_Material with u, v: the flag word itself
    let m: FMaterial = both(
        &[
            0x04, 0x00, 0x00, 0x00, // material 4
            0x01, 0x00, 0x00, 0x00, // flag 1 (bit 1 clear: u, v follow)
            0x00, 0x00, 0x80, 0x3e, // u 0.25
            0x00, 0x00, 0x40, 0x3f, // v 0.75
        ],
        (),
    );
    assert_eq!(
        (*m.material, *m.flag, m.u.map(|x| *x), m.v.map(|x| (*x, x.span))),
        (4, 1, Some(f(0.25)), Some((f(0.75), Span::new(12, 16))))
    );
    // F_DistantLight: the rotation
    let mut d = vec![
        0x07, 0x00, 0x00, 0x00, // object 7
        0x00, 0x00, 0x00, 0x00, // flag 0: no intensity
    ];
    for x in [-90.0f32, 180.0, 45.0] {
        d.extend(x.to_le_bytes()); // rot.x rot.y rot.z (deg)
    }
    d.extend([0x10, 0x20, 0x30, 0x80]); // colour r 16 g 32 b 48 a 128
    let l: FDistantLight = both(&d, ());
    assert_eq!((*l.object, *l.flag, [*l.rot.x, *l.rot.y, *l.rot.z]), (7, 0, [f(-90.0), f(180.0), f(45.0)]));
    assert_eq!((*l.colour, l.colour.span, l.intensity), (0x8030_2010, Span::new(20, 24), None));
}

/// Every vector of this file, for the registry.
/// The bytes of `v` as three f32s.
fn floats(v: &Vec3) -> [u32; 3] {
    [*v.x, *v.y, *v.z]
}

#[test]
fn gen2_clump_binds() {
    // docs/formats/ccsf-gen2.md#clump-0x0900-bind-poses example, after object, n and node[2]: bind[n], 36 bytes each,
    // pos[3], rot[3] (degrees), scale[3]
    let b: Vec<u8> = [
        [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], // bind[0].pos (0, 0, 0)
        [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], // bind[0].rot (0, 0, 0)
        [0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f], // bind[0].scale (1, 1, 1)
        [0x00, 0x00, 0x20, 0x41, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], // bind[1].pos (10, 0, 0)
        [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xb4, 0x42], // bind[1].rot (0, 0, 90)
        [0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f], // bind[1].scale (1, 1, 1)
    ]
    .concat();
    let one: ClumpBind = both_at(&b, 36, ()); // bind[1], spans absolute
    assert_eq!(floats(&one.pos), [f(10.0), 0, 0]);
    assert_eq!(floats(&one.rot), [0, 0, f(90.0)]);
    let all: ClumpBinds = both(&b, (count(&b, 2, 36),));
    assert_eq!(all.bind.len(), 2);
    assert_eq!(floats(&all.bind[0].scale), [f(1.0); 3]);
    assert_eq!(all.bind[1], one);
    assert_eq!(all.bind[1].rot.z.span, Span::new(36 + 20, 36 + 24));
}

#[test]
fn gen2_blob_stream_and_blur_params() {
    // docs/formats/ccsf-gen2.md#binary-blob-0x2400 example: u32 object (BIN_), then opaque bytes (not part of the head)
    let blob: BlobHead = both(&[0x0a, 0x00, 0x00, 0x00], ()); // object 10 (BIN_demo)
    assert_eq!(*blob.object, 10);
    // docs/formats/ccsf-gen2.md#stream-post-effect-parameters-0x1a000x1d00 0x1A00: u32 layer, u32 object, u32 target object, u32 texture
    let p: StreamParam = both(
        &[
            0x02, 0x00, 0x00, 0x00, // layer 2
            0x05, 0x00, 0x00, 0x00, // object 5
            0x06, 0x00, 0x00, 0x00, // target object 6
            0x00, 0x00, 0x00, 0x00, // texture 0 (none)
        ],
        (),
    );
    assert_eq!((*p.layer_or_unknown, *p.object, *p.target, *p.texture), (2, 5, 6, 0));
    assert_eq!(p.texture.span, Span::new(12, 16));
    // docs/formats/ccsf-gen2.md#stream-post-effect-parameters-0x1a000x1d00 0x1D00: u16 ?, u16 ?, u32 object
    let bl: BlurParam = both(
        &[
            0x34, 0x12, // unknown 0x1234
            0x01, 0x00, // unknown 1
            0x07, 0x00, 0x00, 0x00, // object 7
        ],
        (),
    );
    assert_eq!((*bl.unknown_0, *bl.unknown_1, *bl.object), (0x1234, 1, 7));
}

#[test]
fn gen2_dynamics() {
    // docs/formats/ccsf-gen2.md#dynamics-0x2300: u32 clump, u16 spring_count, u16 collision_count
    let h: DynamicsHead = both(
        &[
            0x03, 0x00, 0x00, 0x00, // clump 3 (CMP_)
            0x02, 0x00, // 2 springs
            0x01, 0x00, // 1 collision
        ],
        (),
    );
    assert_eq!((*h.clump, *h.spring_count, *h.collision_count), (3, 2, 1));
    assert_eq!(h.collision_count.span, Span::new(6, 8));
    // spring, 16 bytes: u32 node object, f32 parameters[3]
    let sp: Spring = both(
        &[
            0x04, 0x00, 0x00, 0x00, // node object 4
            0x00, 0x00, 0x00, 0x3f, // 0.5
            0x00, 0x00, 0x80, 0x3f, // 1.0
            0x00, 0x00, 0x00, 0x40, // 2.0
        ],
        (),
    );
    assert_eq!((*sp.node, floats(&sp.param)), (4, [f(0.5), f(1.0), f(2.0)]));
    // collision, 40 bytes: u32 node object, f32 pos[3], rot[3], scale[3]
    let mut c = vec![0x09, 0x00, 0x00, 0x00]; // node object 9
    c.extend([0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3f]); // pos (−1, 0, 1)
    c.extend([0x00, 0x00, 0x34, 0x42, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]); // rot (45°, 0, 0)
    c.extend([0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40]); // scale (2, 2, 2)
    let co: Collision = both(&c, ());
    assert_eq!(*co.node, 9);
    assert_eq!(floats(&co.pos), [f(-1.0), 0, f(1.0)]);
    assert_eq!(floats(&co.rot), [f(45.0), 0, 0]);
    assert_eq!(floats(&co.scale), [f(2.0); 3]);
    assert_eq!(co.scale.z.span, Span::new(36, 40));
}

#[test]
fn gen2_particle_anm_head() {
    // docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 0x0D80: u32 object, u32 animation (ANM_), u16 ctrl_count, u16 pad (cc cc)
    let h: ParticleAnmHead = both(
        &[
            0x0b, 0x00, 0x00, 0x00, // object 11
            0x0c, 0x00, 0x00, 0x00, // animation 12
            0x03, 0x00, // 3 controllers follow
            0xcc, 0xcc, // pad
        ],
        (),
    );
    assert_eq!((*h.object, *h.animation, *h.ctrl_count), (11, 12, 3));
    let pad: &ByteArray<2> = &h.pad;
    assert_eq!(pad.0, [0xcc, 0xcc]);
}

#[test]
fn gen2_materials() {
    // docs/formats/ccsf-gen2.md#material-0x0200 example (band B3..B5, 5 words), after the chunk header
    let b5: Vec<u8> = [
        &[0x05, 0x00, 0x00, 0x00][..], // +0 object 5 (MAT_demo)
        &[0x06, 0x00, 0x00, 0x00],     // +4 texture 6 (TEX_demo)
        &[0x00, 0x00, 0x80, 0x3f],     // +8 alpha 1.0
        &[0x00, 0x04, 0x00, 0x00],     // +12 offset U 0x0400 (0.25), offset V 0
        &[0x00, 0x10, 0x00, 0x10],     // +16 scale U = scale V = 0x1000 (1.0)
    ]
    .concat();
    let m: Material2 = both(&b5, (5,));
    assert_eq!((*m.object, *m.texture, *m.alpha, *m.offset_u, *m.offset_v), (5, 6, f(1.0), 0x400, 0));
    assert!(m.shader.is_none() && m.multi.is_none());
    let sc: MaterialScale = both_at(&b5, 16, ());
    assert_eq!((*sc.scale_u, *sc.scale_v), (0x1000, 0x1000));
    assert_eq!(m.scale, Some(sc));
    // B7 (23 words): the table's +20..+92, each value chosen distinct
    let mut b23 = b5.clone();
    b23.extend([0x10, 0x20, 0x30, 0x40]); // +20 force-output colour
    b23.extend([0x01, 0x00, 0x00, 0x00]); // +24 cull 1 (back)
    b23.extend([0x11, 0x22, 0x33, 0x44]); // +28 ambient colour
    b23.extend([0x07, 0x00, 0x00, 0x00]); // +32 normal-map texture 7
    b23.extend([0x00, 0x00, 0x00, 0x3f]); // +36 normal strength 0.5
    b23.extend([0x01, 0x00, 0x00, 0x00]); // +40 use specular 1, debug specular 0
    b23.extend([0x08, 0x00, 0x00, 0x00]); // +44 specular texture 8
    b23.extend([0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x41]); // +48 strength 2.0, shininess 8.0
    b23.extend([0x09, 0x00, 0x00, 0x00]); // +56 multi-texture 9
    b23.extend([0x02, 0x00, 0x01, 0x00]); // +60 blend mode 2, UV mode 1 (reflection)
    b23.extend([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40]); // +64 scale U 1.0, V 2.0
    b23.extend([0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0xbe]); // +72 offset U 0, V −0.25
    b23.extend([0x00, 0x00, 0x80, 0x3e, 0x00, 0x00, 0x00, 0x00]); // +80 scroll 0.25, 0
    b23.extend([0xaa, 0xbb, 0xcc, 0xdd]); // +88 emission colour
    assert_eq!(b23.len(), 23 * 4);
    let m: Material2 = both(&b23, (23,));
    let sh: MaterialShader = both_at(&b23, 20, ());
    assert_eq!((*sh.force_colour, *sh.cull, *sh.ambient), (0x4030_2010, 1, 0x4433_2211));
    assert_eq!((*sh.normal_texture, *sh.normal_strength), (7, f(0.5)));
    assert_eq!((*sh.use_specular, *sh.debug_specular, *sh.specular_texture), (1, 0, 8));
    assert_eq!((*sh.specular_strength, *sh.shininess), (f(2.0), f(8.0)));
    assert_eq!(sh.shininess.span, Span::new(52, 56));
    let mu: MaterialMulti = both_at(&b23, 56, ());
    assert_eq!((*mu.multi_texture, *mu.multi_blend, *mu.multi_uv_mode), (9, 2, 1));
    let transform = [mu.multi_scale_u, mu.multi_scale_v, mu.multi_offset_u, mu.multi_offset_v];
    assert_eq!(transform.map(|t| *t), [f(1.0), f(2.0), 0, f(-0.25)]);
    assert_eq!([mu.multi_scroll_u, mu.multi_scroll_v].map(|t| *t), [f(0.25), 0]);
    assert_eq!((*mu.emission, mu.emission.span), (0xddcc_bbaa, Span::new(88, 92)));
    assert_eq!((m.shader, m.multi), (Some(sh), Some(mu)));
}

#[test]
fn gen2_model_head_and_lookup_list() {
    // docs/formats/ccsf-gen2.md#model-0x0800, B1+ (outline words present): 28 bytes
    let b: Vec<u8> = [
        &[0x03, 0x00, 0x00, 0x00][..], // +0 model 3 (MDL_)
        &[0x00, 0x00, 0x80, 0x3f],     // +4 vertexScale 1.0
        &[0x04],                       // +8 mtype 4 (deformable)
        &[0x10],                       // +9 mflags 0x10
        &[0x02, 0x00],                 // +10 mmatNum 2
        &[0x01, 0x10],                 // +12 flag lo 1, flag hi 0x10
        &[0xfe, 0xff],                 // +14 zoffs −2
        &[0x03],                       // +16 lookupCount 3
        &[0x00],                       // +17 extraFlags 0
        &[0x01, 0x00],                 // +18 tbnFlag 1
        &[0x00, 0x00, 0x00, 0xff],     // +20 outline colour
        &[0x00, 0x00, 0x80, 0x3f],     // +24 outline width 1.0
    ]
    .concat();
    let h: ModelHead2 = both(&b, (true,));
    assert_eq!((*h.model, *h.vertex_scale, *h.mtype, *h.mflags, *h.mmat_num), (3, f(1.0), 4, 0x10, 2));
    assert_eq!((*h.flag_lo, *h.flag_hi, *h.zoffs, *h.lookup_count), (1, 0x10, -2, 3));
    assert_eq!((*h.extra_flags, *h.tbn_flag), (0, 1));
    assert_eq!(h.outline_colour.map(|c| *c), Some(0xff00_0000));
    assert_eq!(h.outline_width.map(|w| (*w, w.span)), Some((f(1.0), Span::new(24, 28))));
    // B0: the 20-byte header without the outline words
    let b0: ModelHead2 = both(&b[..20], (false,));
    assert!(b0.outline_colour.is_none() && b0.outline_width.is_none());
    // +28: lookupCount u8 entries (here node slots 0, 2, 1), padded to 4 outside the list
    let l: LookupList = both(&[0x00, 0x02, 0x01], (count(&[0, 2, 1], 3, 1),));
    assert_eq!(l.lookup.iter().map(|e| **e).collect::<Vec<_>>(), [0, 2, 1]);
    assert_eq!(l.lookup[2].span, Span::new(2, 3));
}

#[test]
fn gen2_frame_records() {
    // docs/formats/ccsf-gen2.md#anime-and-frame-records synthetic F_Material (v >= 0x120), after the chunk header
    let fm: FMaterial2 = both(
        &[
            0x05, 0x00, 0x00, 0x00, // material 5
            0x02, 0x00, 0x00, 0x00, // flags 2: u, v follow; no scale/extra floats
            0x00, 0x00, 0x00, 0x3f, // u 0.5
            0x00, 0x00, 0x00, 0x00, // v 0.0
        ],
        (),
    );
    assert_eq!((*fm.material, *fm.flags), (5, 2));
    assert_eq!(fm.uv.map(|v| [*v.u, *v.v]), Some([f(0.5), 0]));
    assert!(fm.scale.is_none());
    // flags 1: no u, v; then scale U, V and two unknown floats
    let fs: FMaterial2 = both(
        &[
            0x05, 0x00, 0x00, 0x00, // material 5
            0x01, 0x00, 0x00, 0x00, // flags 1
            0x00, 0x00, 0x80, 0x3f, // scale U 1.0
            0x00, 0x00, 0x00, 0x40, // scale V 2.0
            0x00, 0x00, 0x00, 0x00, // unknown 0.0
            0x00, 0x00, 0x80, 0xbf, // unknown −1.0
        ],
        (),
    );
    assert!(fs.uv.is_none());
    assert_eq!(
        fs.scale.map(|v| [*v.scale_u, *v.scale_v, *v.unknown_0, *v.unknown_1]),
        Some([f(1.0), f(2.0), 0, f(-1.0)])
    );
    // docs/formats/ccsf-gen2.md#anime-and-frame-records synthetic F_Obj: the head is object and mask (the values the mask leaves are
    // read after it)
    let fo: FObjHead2 = both(
        &[
            0x01, 0x00, 0x00, 0x00, // object 1
            0x80, 0x0b, 0x00, 0x00, // mask 0x0B80: scale and display word absent
        ],
        (),
    );
    assert_eq!((*fo.object, *fo.mask, fo.mask.span), (1, 0x0b80, Span::new(4, 8)));
    // ... and its values: mask 0x0B80 leaves bits 1-6 (pos, rot) and 10 (transparency);
    // bit 11 set, so no display word
    let fv: FObjValues2 = both_at(
        &[
            0x01, 0x00, 0x00, 0x00, 0x80, 0x0b, 0x00, 0x00, // the head above
            0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40, // pos (1, 2, 3)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x34, 0x42, // rot (0, 0, 45°)
            0x00, 0x00, 0x80, 0x3f, // transparency 1.0
        ],
        8,
        (0x0b80,),
    );
    assert_eq!(
        fv.values().collect::<Vec<_>>(),
        [(1, f(1.0)), (2, f(2.0)), (3, f(3.0)), (4, 0), (5, 0), (6, f(45.0)), (10, f(1.0))]
    );
    assert_eq!((fv.display, fv.transparency.map(|t| t.span)), (None, Some(Span::new(32, 36))));
    assert_eq!(
        layout(&Record::fields(&fv)),
        [
            ("pos.x", 8, 4),
            ("pos.y", 12, 4),
            ("pos.z", 16, 4),
            ("rot.x", 20, 4),
            ("rot.y", 24, 4),
            ("rot.z", 28, 4),
            ("transparency", 32, 4)
        ]
    );
    // mask 0x07FE (every value absent), bit 11 clear: only the display word
    let fd: FObjValues2 = both(&[0x01, 0x00, 0x00, 0x00], (0x07fe,)); // display 1
    assert_eq!((fd.values().count(), fd.display.map(|d| *d)), (0, Some(1)));
    // 0x1B01 CelShadeFrame: u32 object, u32 flags, f32 x2 (16 bytes)
    let cs: CelShadeFrame = both(
        &[
            0x04, 0x00, 0x00, 0x00, // object 4
            0x03, 0x00, 0x00, 0x00, // flags 3
            0x00, 0x00, 0x00, 0x3f, // 0.5
            0x00, 0x00, 0x80, 0x3f, // 1.0
        ],
        (),
    );
    assert_eq!((*cs.object, *cs.flags, cs.value.map(|v| *v)), (4, 3, [f(0.5), f(1.0)]));
    // 0x1D01 FBSBlurFrame: u32 object, u32 flags, f32 x2, u32 x2 (24 bytes)
    let bf: BlurFrame = both(
        &[
            0x06, 0x00, 0x00, 0x00, // object 6
            0x01, 0x00, 0x00, 0x00, // flags 1
            0x00, 0x00, 0x20, 0x41, // 10.0
            0x00, 0x00, 0x00, 0xc0, // −2.0
            0x0a, 0x00, 0x00, 0x00, // 10
            0xff, 0xff, 0xff, 0xff, // 0xffffffff
        ],
        (),
    );
    assert_eq!((*bf.object, *bf.flags), (6, 1));
    assert_eq!((bf.value.map(|v| *v), bf.word.map(|w| *w)), ([f(10.0), f(-2.0)], [10, u32::MAX]));
    assert_eq!(bf.word[1].span, Span::new(20, 24));
}

#[test]
fn gen2_particle_gen_head() {
    // docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 0x0D90: u32 object, u32 ?, u32 flags (resource_count = (flags >>
    // 12) & 15, force_field_count = (flags >> 16) & 15)
    let h: ParticleGenHead = both(
        &[
            0x0d, 0x00, 0x00, 0x00, // object 13
            0x00, 0x00, 0x00, 0x00, // unknown 0
            0x00, 0x20, 0x01, 0x00, // flags 0x00012000: 2 resources, 1 force field
        ],
        (),
    );
    assert_eq!((*h.object, *h.unknown, *h.flags), (13, 0, 0x0001_2000));
    assert_eq!(((*h.flags >> 12) & 15, (*h.flags >> 16) & 15), (2, 1));
}

#[test]
fn object_word() {
    // docs/formats/ccsf.md#chunk-kinds: the first payload word of most chunks is the chunk's own object index
    let o: ObjectWord = both(&[0x0c, 0x00, 0x00, 0x00], ()); // object 12
    assert_eq!((*o.object, o.object.span), (12, Span::new(0, 4)));
}

#[test]
fn mmat_heads() {
    // docs/formats/ccsf.md#mmat-heads per-mmat header table; the rigid and deformable heads as the
    // docs/formats/ccsf-gen2.md#mmats/docs/formats/ccsf.md#mmat-bodies examples type them (offsets from the mmat start)
    let r: MmatRigidHead = both(
        &[
            0x09, 0x00, 0x00, 0x00, // name 9
            0x05, 0x00, 0x00, 0x00, // material 5
            0x03, 0x00, 0x00, 0x00, // vertexNum 3
        ],
        (),
    );
    assert_eq!(
        *r.words(),
        [("name", 9, Span::new(0, 4)), ("material", 5, Span::new(4, 8)), ("vertex_num", 3, Span::new(8, 12))]
    );
    // mtype & 2: name, material, vertexNum, boneNum, offsetNum (never in data)
    let h: MmatHead5 = both(
        &[
            0x01, 0x00, 0x00, 0x00, // name 1
            0x02, 0x00, 0x00, 0x00, // material 2
            0x03, 0x00, 0x00, 0x00, // vertexNum 3
            0x04, 0x00, 0x00, 0x00, // boneNum 4
            0x05, 0x00, 0x00, 0x00, // offsetNum 5
        ],
        (),
    );
    assert_eq!(h.words().iter().map(|w| (w.0, w.1)).collect::<Vec<_>>()[3..], [("bone_num", 4), ("offset_num", 5)]);
    // & 4: material, vertexNum, offsetNum (a skin mmat of 3 entries)
    let d: MmatDeformHead = both(
        &[
            0x05, 0x00, 0x00, 0x00, // material 5
            0x02, 0x00, 0x00, 0x00, // vertexNum 2
            0x03, 0x00, 0x00, 0x00, // offsetNum 3
        ],
        (),
    );
    assert_eq!((*d.material, *d.vertex_num, *d.offset_num, d.offset_num.span), (5, 2, 3, Span::new(8, 12)));
    // gen 1 names the count offsetNum (docs/formats/ccsf.md#mmat-heads)
    assert_eq!(
        d.words(0x100).iter().map(|w| (w.0, w.1)).collect::<Vec<_>>(),
        [("material", 5), ("vertex_num", 2), ("offset_num", 3)]
    );
    assert_eq!(layout(&d.fields_with(&crate::formats::record::NoNames, 0x100))[2], ("offset_num", 8, 4));
    // docs/formats/ccsf-gen2.md#mmats v0x125 skin mmat: material 5, vertexNum 1, entryCount 2;
    // the same record, its count named as gen 2 names it
    let g: MmatDeformHead = both(
        &[
            0x05, 0x00, 0x00, 0x00, // material 5
            0x01, 0x00, 0x00, 0x00, // vertexNum 1
            0x02, 0x00, 0x00, 0x00, // entryCount 2
        ],
        (),
    );
    assert_eq!(
        g.words(0x125).iter().map(|w| (w.0, w.1)).collect::<Vec<_>>(),
        [("material", 5), ("vertex_num", 1), ("entry_count", 2)]
    );
    assert_eq!(layout(&g.fields_with(&crate::formats::record::NoNames, 0x110))[2], ("entry_count", 8, 4));
    // docs/formats/ccsf.md#mmat-bodies shadow: s32 vNum, s32 iNum (4 positions, 2 triangles)
    let c: ShadowCounts = both(
        &[
            0x04, 0x00, 0x00, 0x00, // vNum 4
            0x06, 0x00, 0x00, 0x00, // iNum 6
        ],
        (),
    );
    assert_eq!((*c.v_num, *c.i_num, c.v_num.span, c.i_num.span), (4, 6, Span::new(0, 4), Span::new(4, 8)));
    let neg: ShadowCounts = both(&[0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00], ()); // vNum -1
    assert_eq!(*neg.v_num, -1);
}

#[test]
fn gen2_texture_block_heads() {
    // docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two BTX block: u32 marker (AH writes 0xFFFFFFFF), u32 btx_size
    let b: BtxHead = both(
        &[
            0xff, 0xff, 0xff, 0xff, // marker
            0x50, 0x00, 0x00, 0x00, // btx_size 80 (64-byte BTX header + 16 bytes DXT1)
        ],
        (),
    );
    assert_eq!((*b.marker, *b.btx_size, b.btx_size.span), (u32::MAX, 80, Span::new(4, 8)));
    // docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two non-power-of-two (SC): u16 width, u16 height, u32 count (3×2 PSMT8 = 6 bytes, 2 words)
    let n: NpotHead = both(
        &[
            0x03, 0x00, // width 3
            0x02, 0x00, // height 2
            0x02, 0x00, 0x00, 0x00, // count 2 words
        ],
        (),
    );
    assert_eq!((*n.width, *n.height, *n.count), (3, 2, 2));
}

#[test]
fn gen2_triangle_list_heads() {
    // docs/formats/ccsf-gen2.md#mmats: per mmat u32 material, u32 section_count; per section u8
    // section_flags, u8 section_type, u16 pad, u32 count, f32 vertexScale
    let h: MmatTriHead = both(
        &[
            0x05, 0x00, 0x00, 0x00, // material 5
            0x06, 0x00, 0x00, 0x00, // section_count 6
        ],
        (),
    );
    assert_eq!(*h.words(), [("material", 5, Span::new(0, 4)), ("section_count", 6, Span::new(4, 8))]);
    let s: TriSectionHead = both(
        &[
            0x22, // section_flags 34: two position records per element pair
            0x20, // section_type 32: positions
            0x00, 0x00, // pad
            0x04, 0x00, 0x00, 0x00, // count 4
            0x00, 0x00, 0x80, 0x43, // vertexScale 256.0
        ],
        (),
    );
    assert_eq!((*s.section_flags, *s.section_type, *s.count, *s.vertex_scale), (34, 32, 4, f(256.0)));
    assert_eq!(s.vertex_scale.span, Span::new(8, 12));
    assert_eq!(tri_section_name(*s.section_type), "positions");
}

#[test]
fn gen2_bone_node_and_morph_controller_heads() {
    // docs/formats/ccsf-gen2.md#mmats example, the bone mmat's word after its 12-byte head:
    // node = lookup index 1
    let n: BoneNode = both(&[0x01, 0x00, 0x00, 0x00], ());
    assert_eq!((*n.node, n.node.span), (1, Span::new(0, 4)));
    assert_eq!(layout(&Record::fields(&n)), [("node", 0, 4)]);
    // docs/formats/ccsf-gen2.md#anime-and-frame-records 0x1902: u32 morpher, u32 target_count
    let h: MorphCtrlHead = both(
        &[
            0x09, 0x00, 0x00, 0x00, // morpher 9 (MPH_)
            0x02, 0x00, 0x00, 0x00, // 2 targets follow
        ],
        (),
    );
    assert_eq!((*h.morpher, *h.target_count), (9, 2));
    assert_eq!(layout(&Record::fields(&h)), [("morpher", 0, 4), ("target_count", 4, 4)]);
    // then per target: u32 target model, u32 flags (field 0 = weight, 3 bits); the weight's
    // value (constant or keys) follows the head
    let t: MorphCtrlTarget = both_at(
        &[
            0, 0, 0, 0, 0, 0, 0, 0, // the controller head above
            0x0c, 0x00, 0x00, 0x00, // target model 12 (MDL_)
            0x02, 0x00, 0x00, 0x00, // flags: weight k = 2 (keyed)
        ],
        8,
        (),
    );
    assert_eq!((*t.model, *t.flags, t.flags.span), (12, 2, Span::new(12, 16)));
    assert_eq!(
        layout(&t.fields_at(1, &crate::formats::record::NoNames)),
        [("target[1].model", 8, 4), ("target[1].flags", 12, 4)]
    );
}

#[test]
fn gen2_particle_bodies() {
    // docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 0x0D80 controller: u32 generator, u32 object, u32 extra object,
    // u32 ?, u16 frame_count, u16 pad (cc cc)
    let c: ParticleCtrl = both(
        &[
            0x07, 0x00, 0x00, 0x00, // generator 7
            0x01, 0x00, 0x00, 0x00, // object 1
            0x00, 0x00, 0x00, 0x00, // extra object none
            0x10, 0x00, 0x00, 0x00, // unknown 0x10
            0x03, 0x00, // frame_count 3
            0xcc, 0xcc, // pad
        ],
        (),
    );
    assert_eq!((*c.generator, *c.object, *c.extra_object, *c.unknown, *c.frame_count), (7, 1, 0, 0x10, 3));
    assert_eq!(c.frame_count.span, Span::new(16, 18));
    // 0x0D90 +12: s16, u16 (cc cc), f32, u16 ×4, f32 ×5, s16 ×2, s16 fade-in, s16
    // fade-out (44 bytes), +56 f32 ×7
    let mut b = vec![
        0xfe, 0xff, // s16 −2
        0xcc, 0xcc, // pad
        0x00, 0x00, 0x00, 0x3f, // f32 0.5
        0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x04, 0x00, // u16 1, 2, 3, 4
    ];
    for _ in 0..5 {
        b.extend([0x00, 0x00, 0x80, 0x3f]); // f32 1.0 ×5
    }
    b.extend([0x07, 0x00, 0xf9, 0xff]); // s16 7, −7
    b.extend([0x00, 0x04, 0x00, 0x08]); // fade-in 1024 (0.5), fade-out 2048 (1.0)
    for _ in 0..7 {
        b.extend([0x00, 0x00, 0x00, 0x40]); // f32 2.0 ×7
    }
    let g: ParticleGenParams = both(&b, ());
    assert_eq!((*g.s16_12, *g.f32_16, *g.fade_in, *g.fade_out), (-2, f(0.5), 1024, 2048));
    assert_eq!([g.u16_20, g.u16_22, g.u16_24, g.u16_26].map(|x| *x), [1, 2, 3, 4]);
    assert_eq!(([g.s16_48, g.s16_50].map(|x| *x), g.f32_80.span), ([7, -7], Span::new(68, 72)));
    let gf = Record::fields(&g);
    let l = layout(&gf);
    assert_eq!((l.len(), l[0], l[15], l[16]), (23, ("s16_12", 0, 2), ("fade_out", 42, 2), ("f32_56", 44, 4)));
    // force field, 32 bytes: 4 pad, u8 ?, u8 (cc), u8 type, u8 pad, u16 ?, u16 (cc cc), f32 ×5
    let mut b = vec![
        0x00, 0x00, 0x00, 0x00, // pad
        0x09, // unknown 9
        0xcc, // cc
        0x21, // type 0x21
        0x00, // pad
        0x02, 0x01, // unknown 0x0102
        0xcc, 0xcc, // cc cc
    ];
    for _ in 0..5 {
        b.extend([0x00, 0x00, 0x80, 0xbf]); // f32 −1.0 ×5
    }
    let ff: ForceField = both(&b, ());
    assert_eq!((*ff.unknown_4, *ff.type_, *ff.unknown_8, *ff.param[4]), (9, 0x21, 0x0102, f(-1.0)));
    assert_eq!(ff.type_.span, Span::new(6, 7));
    // resource: u32 object, plus u8 ×4 if version > 0x122
    let r: ParticleResource = both(&[0x06, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04], (0x123,));
    assert_eq!((*r.object, r.extra.map(|x| x.0)), (6, Some([1, 2, 3, 4])));
    let r: ParticleResource = both(&[0x06, 0x00, 0x00, 0x00], (0x122,));
    assert_eq!((*r.object, r.extra), (6, None));
}

#[test]
fn gen2_btx_header() {
    // docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two BTX header (64 bytes; offsets from its start): +0 "btx" magic,
    // +4 version, +8 u16 width, +10 u16 height, +14 u16 mip count, +16 u16 pixel format
    // (7/8/9 = DXT1/3/5), +24 u32 header size, +32 u32 total size, +48 16-byte name
    let mut b = vec![
        b'b', b't', b'x', 0x00, // +0 magic "btx\0"
        0x01, 0x00, 0x00, 0x00, // +4 version 1
        0x08, 0x00, // +8 width 8
        0x04, 0x00, // +10 height 4
        0x00, 0x00, // +12 unknown
        0x01, 0x00, // +14 mip count 1
        0x07, 0x00, // +16 pixel format 7 (DXT1)
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // +18 unknown
        0x40, 0x00, 0x00, 0x00, // +24 header size 64
        0x00, 0x00, 0x00, 0x00, // +28 unknown
        0x50, 0x00, 0x00, 0x00, // +32 total size 80
    ];
    b.extend([0u8; 12]); // +36 unknown
    b.extend(b"dxt1"); // +48 name
    b.extend([0u8; 12]); //     NUL-padded to 16
    let h: BtxHeader = both(&b, ());
    assert_eq!(&h.magic.0, b"btx\0");
    assert_eq!((*h.width, *h.height, *h.mip_count, *h.pixel_format), (8, 4, 1, 7));
    assert_eq!((*h.header_size, *h.total_size, h.total_size.span), (64, 80, Span::new(32, 36)));
    assert_eq!((dxt_name(*h.pixel_format), dxt_name(0x89), dxt_name(6)), (Some("DXT1"), Some("DXT5"), None));
    assert_eq!(layout(&Record::fields(&h)).last(), Some(&("name", 48, 16)));
}

pub(super) const VECTORS: &[fn()] = &[
    masked_and_split_values,
    gen2_particle_bodies,
    gen2_btx_header,
    gen2_bone_node_and_morph_controller_heads,
    gen2_triangle_list_heads,
    object_word,
    mmat_heads,
    gen2_texture_block_heads,
    chunk_header,
    header_and_its_words,
    index_tables,
    frame_and_top,
    vec3,
    eff,
    fbrect_and_fbpage,
    layer_and_its_entries,
    shadow_and_morpher,
    pcm_and_f_pcm,
    texture_heads_by_version,
    clut_head_and_mip_level,
    frame_records_in_full,
    gen2_clump_binds,
    gen2_blob_stream_and_blur_params,
    gen2_dynamics,
    gen2_particle_anm_head,
    gen2_materials,
    gen2_model_head_and_lookup_list,
    gen2_frame_records,
    gen2_particle_gen_head,
];

/// Every record `raw.rs` declares has a vector here or in `raw_tests.rs` (whose `both`
/// checks both directions the same way but does not log, so its vectors are found in its
/// source as `let x: Type = both(`).
#[test]
fn every_ccsf_record_has_a_vector() {
    vectors::assert_every_record_has_a_vector(
        "ccsf",
        include_str!("raw.rs"),
        VECTORS,
        vectors::vectored_in(include_str!("raw_tests.rs")),
    );
}
