//! The declarations' sizes.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;
use crate::formats::record::assert_fixed_size;

#[test]
fn fixed_sizes_match_the_declarations() {
    assert_fixed_size::<ChunkHeader>();
    assert_fixed_size::<Header>();
    assert_fixed_size::<IndexHead>();
    assert_fixed_size::<EffPattern>();
    assert_fixed_size::<FbPageEntry>();
    assert_fixed_size::<IndexFile>();
    assert_fixed_size::<IndexObject>();
    assert_fixed_size::<Frame>();
    assert_fixed_size::<Top>();
    assert_fixed_size::<Material>();
    assert_fixed_size::<Camera>();
    assert_fixed_size::<ObjectWord>();
    assert_fixed_size::<BtxHead>();
    assert_fixed_size::<NpotHead>();
    assert_fixed_size::<MmatRigidHead>();
    assert_fixed_size::<MmatHead5>();
    assert_fixed_size::<MmatDeformHead>();
    assert_fixed_size::<ShadowCounts>();
    assert_fixed_size::<MmatTriHead>();
    assert_fixed_size::<TriSectionHead>();
    assert_fixed_size::<Light>();
    assert_fixed_size::<Clump>();
    assert_fixed_size::<ExtObj>();
    assert_fixed_size::<Hit>();
    assert_fixed_size::<HitGroup>();
    assert_fixed_size::<Bbox>();
    assert_fixed_size::<Eff>();
    assert_fixed_size::<FbRect>();
    assert_fixed_size::<FbPage>();
    assert_fixed_size::<DummyPos>();
    assert_fixed_size::<DummyPosRot>();
    assert_fixed_size::<Layer>();
    assert_fixed_size::<LayerEntry>();
    assert_fixed_size::<Shadow>();
    assert_fixed_size::<Morpher>();
    assert_fixed_size::<Obj2>();
    assert_fixed_size::<Pcm>();
    assert_fixed_size::<LevelHead>();
    assert_fixed_size::<AnimeHead>();
    assert_fixed_size::<CtrlHead>();
    assert_fixed_size::<FObj>();
    assert_fixed_size::<FNote>();
    assert_fixed_size::<FAmbient>();
    assert_fixed_size::<FOmniLight>();
    assert_fixed_size::<FShadow>();
    assert_fixed_size::<FMorpher>();
    assert_fixed_size::<MorphTarget>();
    assert_fixed_size::<FPcm>();
    assert_fixed_size::<ModelHead>();
    assert_fixed_size::<BoneNode>();
    assert_fixed_size::<MorphCtrlHead>();
    assert_fixed_size::<MorphCtrlTarget>();
    assert_fixed_size::<ParticleCtrl>();
    assert_fixed_size::<ParticleGenParams>();
    assert_fixed_size::<ForceField>();
    assert_fixed_size::<BtxHeader>();
}

// ---------------------------------------------------------------------------------------
// Each declaration against bytes typed out by hand (one comment per field) and values
// typed from docs/formats/ccsf.md: the bytes read to the values (with their
// spans), and the record written gives the bytes back.

use crate::bytes::Bytes;
use crate::formats::record::{self, Record, read, write};
use crate::model::Span;

/// `bytes` read as `T` (with `args`) at 0, and `T` written back gives `bytes`.
fn both<'a, T>(bytes: &[u8], args: <T as binrw::BinRead>::Args<'a>) -> T
where
    T: binrw::BinRead + binrw::BinWrite + Record + 'static,
    for<'b> <T as binrw::BinWrite>::Args<'b>: Default,
{
    let t: T = read(&Bytes::new(bytes), 0, args).unwrap();
    let mut out = Vec::new();
    write(&t, &mut out).unwrap();
    assert_eq!(out, bytes, "{}: written bytes", T::NAME);
    crate::test_support::vectors::inspect(&t, bytes, 0, bytes.len() as u64);
    t
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn obj_is_three_words_before_0x96_and_four_from_it() {
    let b = [
        1, 0, 0, 0, // object 1
        2, 0, 0, 0, // parent 2
        3, 0, 0, 0, // model 3
        4, 0, 0, 0, // shadow_model 4 (version ≥ 0x96 only)
    ];
    let o: Obj = both(&b, (0x96, 4));
    assert_eq!((*o.object, *o.parent, *o.model, o.shadow_model.map(|s| *s)), (1, 2, 3, Some(4)));
    assert_eq!(o.shadow_model.unwrap().span, Span::new(12, 16));
    let o: Obj = both(&b[..12], (0x95, 3));
    assert_eq!((*o.model, o.shadow_model), (3, None));
}

#[test]
fn material_light_camera_extobj() {
    let m: Material = both(
        &[
            5, 0, 0, 0, // object 5
            6, 0, 0, 0, // texture 6
            0x00, 0x00, 0x00, 0x3f, // transparency 0.5
            0x10, 0x00, // crop_u 16
            0x20, 0x00, // crop_v 32
        ],
        (),
    );
    assert_eq!((*m.object, *m.texture, *m.transparency, *m.crop_u, *m.crop_v), (5, 6, f(0.5), 16, 32));
    assert_eq!(m.crop_v.span, Span::new(14, 16));
    let l: Light = both(
        &[
            7, 0, 0, 0, // object 7
            4, 0, // type 4 = omni
            0, 0, // pad to 4
        ],
        (),
    );
    assert_eq!((*l.object, *l.type_), (7, 4));
    let c: Camera = both(&[9, 0, 0, 0 /* object 9 */], ());
    assert_eq!(*c.object, 9);
    let e: ExtObj = both(
        &[
            1, 0, 0, 0, // object 1 (the copy)
            0, 0, 0, 0, // parent 0 = none
            2, 0, 0, 0, // target 2 (what the animation drives)
        ],
        (),
    );
    assert_eq!((*e.object, *e.parent, *e.target), (1, 0, 2));
}

#[test]
fn clump_hit_and_bbox() {
    let c: Clump = both(
        &[
            3, 0, 0, 0, // object 3 (CMP_)
            2, 0, // n = 2 nodes
            0, 0, // pad to 4
        ],
        (),
    );
    assert_eq!((*c.object, *c.n), (3, 2));
    let nodes = [
        1, 0, 0, 0, // node[0] = 1
        2, 0, 0, 0, // node[1] = 2
    ];
    let n = Count::checked(&Bytes::new(&nodes), "clump node", 0, 2, 4, 2).unwrap();
    let l: ObjectList = both(&nodes, (n,));
    assert_eq!(l.node.iter().map(|x| **x).collect::<Vec<_>>(), [1, 2]);
    let h: Hit = both(
        &[
            4, 0, 0, 0, // object 4 (HIT_)
            1, 0, 0, 0, // parent 1
            2, 0, // groups 2
            0xff, 0xff, // pad, s16 −1
            9, 0, 0, 0, // total_vertices 9
        ],
        (),
    );
    assert_eq!((*h.object, *h.parent, *h.groups, *h.pad, *h.total_vertices), (4, 1, 2, -1, 9));
    let g: HitGroup = both(
        &[
            3, 0, 0, 0, // v = 3 (one triangle)
            0x21, 0, 0, 0, // attribute 0x21
        ],
        (),
    );
    assert_eq!((*g.v, *g.attribute), (3, 0x21));
    let b: Bbox = both(
        &[
            5, 0, 0, 0, // box 5 (BOX_)
            1, 0, 0, 0, // target 1
            0x00, 0x00, 0x80, 0xbf, // min.x −1.0
            0x00, 0x00, 0x00, 0xc0, // min.y −2.0
            0x00, 0x00, 0x40, 0xc0, // min.z −3.0
            0x00, 0x00, 0x80, 0x3f, // max.x 1.0
            0x00, 0x00, 0x00, 0x40, // max.y 2.0
            0x00, 0x00, 0x40, 0x40, // max.z 3.0
        ],
        (),
    );
    assert_eq!((*b.box_, *b.target), (5, 1));
    assert_eq!([*b.min.x, *b.min.y, *b.min.z], [f(-1.0), f(-2.0), f(-3.0)]);
    assert_eq!([*b.max.x, *b.max.y, *b.max.z], [f(1.0), f(2.0), f(3.0)]);
    assert_eq!(b.max.z.span, Span::new(28, 32));
}

#[test]
fn dummies_and_obj2() {
    let d: DummyPosRot = both(
        &[
            8, 0, 0, 0, // object 8 (DMY_)
            0x00, 0x00, 0x80, 0x3f, // pos.x 1.0
            0x00, 0x00, 0x00, 0x00, // pos.y 0.0
            0x00, 0x00, 0x20, 0x41, // pos.z 10.0
            0x00, 0x00, 0xb4, 0x42, // rot.x 90.0 (degrees)
            0x00, 0x00, 0x00, 0x00, // rot.y 0
            0x00, 0x00, 0x34, 0x43, // rot.z 180.0
        ],
        (),
    );
    assert_eq!((*d.object, *d.pos.z, *d.rot.x, *d.rot.z), (8, f(10.0), f(90.0), f(180.0)));
    let p: DummyPos = both(&[8, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0], ());
    assert_eq!((*p.object, *p.pos.x), (8, f(1.0)));
    let o: Obj2 = both(
        &[
            1, 0, 0, 0, // object 1
            3, 0, 0, 0, // flags: bit 0 multiply transparency, bit 1 hidden at origin
            7, 0, 0, 0, // modifier 7 (MPH_)
            6, 0, 0, 0, // layer 6 (LYR_)
            0, 0, 0, 0, // slayer 0 = default
        ],
        (),
    );
    assert_eq!((*o.object, *o.flags, *o.modifier, *o.layer, *o.slayer), (1, 3, 7, 6, 0));
}

#[test]
fn anime_container_and_controller_head() {
    let a: AnimeHead = both(
        &[
            6, 0, 0, 0, // object 6 (ANM_)
            30, 0, 0, 0, // frames 30
            12, 0, 0, 0, // words 12 of sub-records follow
        ],
        (),
    );
    assert_eq!((*a.object, *a.frames, *a.words), (6, 30, 12));
    let c: CtrlHead = both(
        &[
            1, 0, 0, 0, // object 1
            0x0a, 0, 0, 0, // flags: position keyed (2), rotation constant (1 << 3)
        ],
        (),
    );
    assert_eq!((*c.object, *c.flags & 7, (*c.flags >> 3) & 7), (1, 2, 1));
}

#[test]
fn frame_records() {
    let mut fobj = vec![
        1, 0, 0, 0, // object 1
        0, 0, 0, 0, // unused
    ];
    for x in [1.0f32, 2.0, 3.0, 0.0, 45.0, 0.0, 1.0, 1.0, 1.0, 0.5] {
        fobj.extend(x.to_le_bytes()); // pos[3], rot[3] (deg), scale[3], transparency
    }
    fobj.extend([1, 0, 0, 0]); // flags: bit 0 display switch
    let o: FObj = both(&fobj, ());
    assert_eq!(
        (*o.object, *o.pos.y, *o.rot.y, *o.scale.z, *o.transparency, *o.flags),
        (1, f(2.0), f(45.0), f(1.0), f(0.5), 1)
    );
    assert_eq!(o.flags.span, Span::new(48, 52));
    // F_Material: u, v only when flag & 2 is clear
    let m: FMaterial = both(&[4, 0, 0, 0 /* material 4 */, 2, 0, 0, 0 /* flag 2: no u, v */], ());
    assert_eq!((*m.material, m.u, m.v), (4, None, None));
    let m: FMaterial = both(
        &[4, 0, 0, 0, 0, 0, 0, 0 /* flag 0 */, 0, 0, 0x80, 0x3e /* u 0.25 */, 0, 0, 0, 0x3f /* v 0.5 */],
        (),
    );
    assert_eq!((m.u.map(|x| *x), m.v.map(|x| *x)), (Some(f(0.25)), Some(f(0.5))));
    // F_Camera flag 0x1f0: bits 4..8 set = rot.x..fov absent; pos.x, pos.y, pos.z follow
    let c: FCamera = both(
        &[
            9, 0, 0, 0, // object 9
            0xf0, 0x01, 0, 0, // flag 0x1f0
            0, 0, 0x80, 0x3f, // pos.x 1.0
            0, 0, 0, 0x40, // pos.y 2.0
            0, 0, 0x40, 0x40, // pos.z 3.0
        ],
        (),
    );
    assert_eq!(c.values().collect::<Vec<_>>(), [f(1.0), f(2.0), f(3.0)]);
    let names: Vec<_> = c.fields().into_iter().map(|f| (f.name, f.span.start)).collect();
    let want = [("object", 0), ("flag", 4), ("pos.x", 8), ("pos.y", 12), ("pos.z", 16)];
    assert_eq!(names, want.map(|(n, at)| (n.to_string(), at)));
    // flag bit 0: nothing more
    let c: FCamera = both(&[9, 0, 0, 0, 1, 0, 0, 0], ());
    assert_eq!(c.values().count(), 0);
    // F_DistantLight: intensity only if flag & 0x20
    let mut dl = vec![
        7, 0, 0, 0, // object 7
        0x20, 0, 0, 0, // flag 0x20: intensity follows
    ];
    for x in [0.0f32, 90.0, 0.0] {
        dl.extend(x.to_le_bytes()); // rot[3] degrees
    }
    dl.extend([0xff, 0x80, 0x00, 0x80]); // colour r 255 g 128 b 0 a 128
    dl.extend(2.0f32.to_le_bytes()); // intensity 2.0
    let d: FDistantLight = both(&dl, ());
    assert_eq!((*d.colour, d.intensity.map(|x| *x)), (0x8000_80ff, Some(f(2.0))));
    dl[4] = 0; // flag 0: no intensity
    let d: FDistantLight = both(&dl[..24], ());
    assert_eq!(d.intensity, None);
    let n: FNote = both(
        &[1, 0, 0, 0 /* object */, 0x01, 0x80, 0, 0 /* event 0x8001 subtitle */, 5, 0, 0, 0 /* param */],
        (),
    );
    assert_eq!((*n.event, *n.param), (0x8001, 5));
    let s: FShadow = both(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f /* alpha 1.0 */], ());
    assert_eq!(*s.alpha, f(1.0));
    let m: FMorpher = both(&[7, 0, 0, 0 /* morpher 7 */, 1, 0 /* n 1 */, 0, 0 /* pad */], ());
    assert_eq!((*m.morpher, *m.n), (7, 1));
    let t: MorphTarget = both(&[3, 0, 0, 0 /* target 3 */, 0, 0, 0, 0x3f /* weight 0.5 */], ());
    assert_eq!((*t.target, *t.weight), (3, f(0.5)));
}

#[test]
fn model_texture_and_clut_heads() {
    let m: ModelHead = both(
        &[
            3, 0, 0, 0, // model 3 (MDL_)
            0x00, 0x00, 0x80, 0x45, // vertex_scale 4096.0
            0x41, 0x06, // mtype 0x641 (masked to 0x41 below version 0x100)
            2, 0, // mmat_num 2
            9, 0, // flag 9 (blend 1)
            0, 0,    // zoffs 0
            0x70, // unknown 0x70
            0, 0, 0, // pad
        ],
        (),
    );
    assert_eq!((*m.model, *m.vertex_scale, *m.mmat_num, *m.flag, *m.unknown), (3, f(4096.0), 2, 9, 0x70));
    assert_eq!((m.mtype_at(0x96), m.mtype_at(0x100)), (0x41, 0x641));
    // Texture ≥ 0x92: blt_group and the long header; 0x90: no blt_group; < 0x90: short header
    let t = [
        4, 0, 0, 0, // texture 4 (TEX_)
        8, 0, 0, 0, // clut 8 (CLT_)
        0, 0, 0, 0,    // blt_group 0 (≥ 0x92)
        0x01, // flag: resident
        0x14, // psm PSMT4
        0,    // mipmap 0
        0,    // aref 0
        2,    // tw: width 4
        1,    // th: height 2
        0xcd, 0xcd, // pad
    ];
    let h: TextureHead = both(&t, (0x92,));
    let l = h.long.clone().unwrap();
    assert_eq!((*h.texture, *h.clut, h.blt_group.map(|b| *b), *h.psm, *l.tw, *l.th), (4, 8, Some(0), 0x14, 2, 1));
    let h: TextureHead = both(&t[4..], (0x90,));
    assert_eq!((*h.texture, h.blt_group, *h.psm), (8, None, 0x14));
    let short = [4, 0, 0, 0, 8, 0, 0, 0, 0x01, 0x13 /* psm PSMT8 */, 0xcd, 0xcd];
    let h: TextureHead = both(&short, (0x8f,));
    assert_eq!((h.long, *h.psm, h.pad.span), (None, 0x13, Span::new(10, 12)));
    let c: ClutHead = both(
        &[
            8, 0, 0, 0, // clut 8
            0, 0, 0, 0, // blt_group 0 (≥ 0x92)
            0, // flag
            0, // cpsm
            0, 0, // unknown_2, unknown_3
            0x40, 0, // buf_x 64
            0x20, 0, // buf_y 32
            16, 0, 0, 0, // count 16 colours
        ],
        (0x92,),
    );
    assert_eq!((*c.clut, *c.buf_x, *c.buf_y, *c.count), (8, 64, 32, 16));
}

#[test]
fn a_short_record_fails_at_the_missing_field() {
    // Obj at 0x96 with its shadow_model cut off: the error is at offset 12, 4 bytes wanted.
    let b = [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0];
    let e = read::<Obj>(&Bytes::new(&b), 0, (0x96, 4)).unwrap_err();
    assert_eq!((e.offset, e.kind), (12, crate::error::ErrorKind::OutOfBounds { offset: 12, len: 4, available: 14 }));
    let p = record::read_prefix_with::<Obj>(&Bytes::new(&b), 0, (0x96, 4)).unwrap();
    assert_eq!(p.fields().iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["object", "parent", "model"]);
}

/// An Eff pattern (docs/formats/ccsf.md#setup-chunks, 0x0E00: `u16 u, u16 v, u16 transparency (4096 = opaque), u16
/// pad`) and an FBPage page (`u8 px, py, pw, ph, type, pad[3]`), typed from the spec; each
/// array label's layout names the record's fields in order.
#[test]
fn eff_pattern_and_fb_page_entry() {
    let b = [
        0x00, 0x08, // u = 2048 (half the texture width)
        0x00, 0x04, // v = 1024
        0x00, 0x10, // transparency = 4096, opaque
        0x00, 0x00, // pad
    ];
    let p: EffPattern = both(&b, ());
    assert_eq!((*p.u, *p.v, *p.transparency, *p.pad), (2048, 1024, 4096, 0));
    assert_eq!(p.transparency.span, crate::model::Span::new(4, 6));
    let b = [
        0x00, // px 0
        0x07, // py 7
        0x0a, // pw 10
        0x08, // ph 8
        0x02, // type 2
        0x00, 0x00, 0x00, // pad[3]
    ];
    let e: FbPageEntry = both(&b, ());
    assert_eq!((*e.px, *e.py, *e.pw, *e.ph, *e.type_), (0, 7, 10, 8, 2));
    assert_eq!(e.pad.span, crate::model::Span::new(5, 8));
    // "u16 u, v, transparency, pad" names the fields: drop the type word and any [N]
    let names = |layout: String| -> Vec<String> {
        layout.split(", ").map(|n| n.rsplit(' ').next().unwrap().split('[').next().unwrap().to_string()).collect()
    };
    let fields = |f: Vec<Field>| -> Vec<String> { f.into_iter().map(|f| f.name).collect() };
    assert_eq!(names(EffPattern::layout()), fields(p.fields()));
    assert_eq!(names(FbPageEntry::layout()), fields(e.fields()));
}

/// The vectors above that read records, for the test running the user-layout interpreter
/// over each (`layout_tests.rs`).
pub(in crate::formats) const VECTORS: &[fn()] = &[
    obj_is_three_words_before_0x96_and_four_from_it,
    material_light_camera_extobj,
    clump_hit_and_bbox,
    dummies_and_obj2,
    anime_container_and_controller_head,
    frame_records,
    model_texture_and_clut_heads,
    eff_pattern_and_fb_page_entry,
];
