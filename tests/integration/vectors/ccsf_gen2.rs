//! Hand-annotated vectors of the gen-2 addendum (docs/formats/ccsf-gen2.md#version-bands),
//! checked in both directions: the bytes (typed from the addendum's hex examples, one
//! field per line) are described and decoded to the values the addendum states, and the
//! writer builds exactly the same bytes from the same records. The document, clips, images
//! and scenes are the ones the program builds (`formats::open_as`); the decoders' inner
//! values (model ends, lookup lists, influences) are checked in `src/formats/ccsf/gen2_tests.rs`.

use crate::support::{check_bytes, decode_key, parsed, scene_of, whole_document};
use animscope::formats::DecodeOptions;
use animscope::formats::ccsf::Ccsf;
use animscope::formats::ccsf::mesh::{strip_triangles, strip2_triangles};
use animscope::formats::ccsf::write::{self, CcsFile, Chunk, Ctrl, Entry2, Mmat2, Model2, Vert2};
use animscope::limits::Limits;
use animscope::model::image::DecodedImage;
use animscope::model::mesh::{MeshKind, SceneRequest};
use animscope::model::{Document, Raw, Severity};
use animscope::test_support::expect::{V::*, Want, assert_fields, assert_same_bytes, child, node};
use glam::Vec3;

/// Two DXT1 blocks of an 8×4 BTX texture, typed from the S3TC block layout (u16 c0, u16 c1
/// RGB565, then 2-bit indices, texel 0 in the low bits).
const DXT1_8X4: [u8; 16] = [
    0x00, 0xf8, 0x1f, 0x00, 0x55, 0x00, 0x00,
    0x00, // c0 0xF800 red > c1 0x001F blue; row 0 index 1, rows 1-3 index 0
    0x1f, 0x00, 0x00, 0xf8, 0xff, 0xff, 0xff, 0xff, // c0 0x001F ≤ c1 0xF800: three colours; every index 3
];

/// Bytes from the addendum's hex notation (`"00 09 cc cc"`).
fn hx(s: &str) -> Vec<u8> {
    s.split_whitespace().map(|b| u8::from_str_radix(b, 16).unwrap()).collect()
}

/// The object numbers the addendum's examples use (entry 0 is the blank one).
const OBJECTS: [&str; 12] = [
    "OBJ_a",      // 1
    "CMP_demo",   // 2
    "OBJ_c",      // 3
    "MDL_demo",   // 4
    "MAT_demo",   // 5
    "TEX_demo",   // 6
    "CLT_demo",   // 7
    "BLT_demo",   // 8
    "MDL_demo_0", // 9
    "BIN_demo",   // 10
    "ANM_demo",   // 11
    "MDL_skin",   // 12
];

/// Header (docs/formats/ccsf-gen2.md#walker: u16 version + 2 zero bytes, the ignored word, count 1, words[0] 0),
/// Index (docs/formats/ccsf.md#index-0x0002) and Setup (tag 0) by hand.
fn prefix(version: u16, x: u32) -> Vec<u8> {
    let mut v = hx("01 00 cc cc 0d 00 00 00"); // kind 1, tag CCCC, size 13
    v.extend(b"CCSF");
    padded(&mut v, b"vec", 32); // name, NUL-padded, up to 0x2B
    v.extend(version.to_le_bytes()); // 0x2c version (u16)
    v.extend([0, 0]); // 0x2e pad: 0
    w32(&mut v, x); // 0x30 word ignored by readers
    w32(&mut v, 1); // 0x34 count = 1
    w32(&mut v, 0); // 0x38 words[0] = 0
    v.extend(hx("02 00 cc cc")); // Index
    w32(&mut v, 2 + 8 * (2 + 13)); // size 2 + 8 (F + O)
    w32(&mut v, 2); // file_count (blank entry 0 included)
    w32(&mut v, 13); // object_count
    padded(&mut v, b"", 32); // file[0]
    padded(&mut v, b" x\\vec.max", 32); // file[1]: ' ' = defined here
    padded(&mut v, b"", 32); // object[0]
    for name in OBJECTS {
        padded(&mut v, name.as_bytes(), 30);
        v.extend(1u16.to_le_bytes());
    }
    v.extend(hx("03 00 00 00 00 00 00 00")); // Setup, tag 0
    v
}

/// A setup vector file: prefix, the records, the sample's frame section.
fn setup_file(version: u16, recs: &[u8]) -> Vec<u8> {
    let mut v = prefix(version, 0);
    let at = v.len();
    v.extend(recs);
    assert_eq!(at as u64, rec_at());
    v.extend(hx("05 00 cc cc 01 00 00 00 01 00 00 00")); // Frame(1)
    v.extend(hx("01 ff cc cc 01 00 00 00 ff ff ff ff")); // Top -1
    v
}

/// Offset of the first record after Setup.
fn rec_at() -> u64 {
    0x3c + 8 + 4 * (2 + 8 * 15) + 8
}

fn ccs(version: u16, chunks: Vec<Chunk>) -> CcsFile {
    let mut all = vec![Chunk::Setup];
    all.extend(chunks);
    all.extend([Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0xffff_ffff }]);
    CcsFile {
        name: "vec".into(),
        version,
        frames: 0,
        files: vec![(b' ', "x\\vec.max".into())],
        objects: OBJECTS.iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: all,
    }
}

fn describe(file: &[u8]) -> Document {
    let doc = whole_document(Some(&Ccsf), "vec.ccs", file, &Limits::default()).unwrap();
    assert_eq!(doc.validate(), Ok(()));
    let bad: Vec<_> = doc.diagnostics.iter().filter(|d| d.severity > Severity::Info).collect();
    assert!(bad.is_empty(), "{bad:?}");
    assert!(doc.root().summary.ends_with("walk clean"), "{}", doc.root().summary);
    doc
}

/// The level-0 image of the file's first Texture, as the texture preview decodes it.
fn texture(file: &[u8]) -> animscope::error::Result<DecodedImage> {
    let lim = Limits::default();
    let p = parsed(Some(&Ccsf), "vec.ccs", file.to_vec(), &lim)?;
    let id = p.document().nodes.iter().find(|n| n.kind == "Texture").expect("a Texture node").id;
    p.pictures().expect("CCSF has pictures").image(id, &lim).expect("a Texture node decodes to an image")
}

fn head(kind: u16, size: u32) -> [Want; 3] {
    [("kind", 0, 2, N(u64::from(kind))), ("tag", 2, 2, N(0xcccc)), ("size", 4, 4, N(u64::from(size)))]
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf-gen2.md#setup-chunks setup chunks.

#[test]
fn obj_with_its_fifth_word() {
    let r = [
        hx("00 01 cc cc 05 00 00 00"), // kind 0x0100, size 5
        hx("01 00 00 00"),             // object 1
        hx("00 00 00 00"),             // parent: none
        hx("04 00 00 00"),             // model 4 (MDL_demo)
        hx("00 00 00 00"),             // shadow model: none
        hx("04 00 00 00"),             // extra (flags; copy through)
    ]
    .concat();
    let file = setup_file(0x123, &r);
    let doc = describe(&file);
    let id = node(&doc, rec_at(), 28, "Obj");
    let mut want = head(0x0100, 5).to_vec();
    want.extend([
        ("object", 8, 4, R(1, "OBJ_a")),
        ("parent", 12, 4, R(0, "none")),
        ("model", 16, 4, R(4, "MDL_demo")),
        ("shadow_model", 20, 4, R(0, "none")),
        ("extra", 24, 4, N(4)),
    ]);
    assert_fields(&doc, id, rec_at(), &want);
    let w = write::write(&ccs(0x123, vec![Chunk::Obj5 { object: 1, parent: 0, model: 4, shadow: 0, extra: 4 }]));
    assert_same_bytes(&w, &file);
}

fn clump_example() -> Vec<u8> {
    [
        hx("00 09 cc cc 16 00 00 00"),             // kind 0x0900, size 22 = 2 + 10·2
        hx("02 00 00 00"),                         // object 2 (CMP_demo)
        hx("02 00 00 00"),                         // n = 2
        hx("01 00 00 00 03 00 00 00"),             // node[0] = object 1, node[1] = object 3
        hx("00 00 00 00 00 00 00 00 00 00 00 00"), // bind[0].pos (0, 0, 0)
        hx("00 00 00 00 00 00 00 00 00 00 00 00"), // bind[0].rot (0, 0, 0)
        hx("00 00 80 3f 00 00 80 3f 00 00 80 3f"), // bind[0].scale (1, 1, 1)
        hx("00 00 20 41 00 00 00 00 00 00 00 00"), // bind[1].pos (10, 0, 0)
        hx("00 00 00 00 00 00 00 00 00 00 b4 42"), // bind[1].rot (0, 0, 90°)
        hx("00 00 80 3f 00 00 80 3f 00 00 80 3f"), // bind[1].scale (1, 1, 1)
    ]
    .concat()
}

#[test]
fn clump_with_bind_poses_reads_writes_and_poses() {
    let r = clump_example();
    let file = setup_file(0x123, &r);
    let doc = describe(&file);
    let id = node(&doc, rec_at(), 96, "Clump");
    let mut want = head(0x0900, 22).to_vec();
    want.extend([("object", 8, 4, R(2, "CMP_demo")), ("n", 12, 2, N(2)), ("pad", 14, 2, B)]);
    want.extend([("node[0]", 16, 4, R(1, "OBJ_a")), ("node[1]", 20, 4, R(3, "OBJ_c"))]);
    for (i, [p, rot, s]) in
        [[[0.0f32; 3], [0.0; 3], [1.0; 3]], [[10.0, 0.0, 0.0], [0.0, 0.0, 90.0], [1.0; 3]]].into_iter().enumerate()
    {
        let base = 24 + 36 * i as u64;
        let names: [[&'static str; 3]; 3] = if i == 0 {
            [
                ["bind[0].pos.x", "bind[0].pos.y", "bind[0].pos.z"],
                ["bind[0].rot.x", "bind[0].rot.y", "bind[0].rot.z"],
                ["bind[0].scale.x", "bind[0].scale.y", "bind[0].scale.z"],
            ]
        } else {
            [
                ["bind[1].pos.x", "bind[1].pos.y", "bind[1].pos.z"],
                ["bind[1].rot.x", "bind[1].rot.y", "bind[1].rot.z"],
                ["bind[1].scale.x", "bind[1].scale.y", "bind[1].scale.z"],
            ]
        };
        for (g, vals) in [p, rot, s].iter().enumerate() {
            for (c, v) in vals.iter().enumerate() {
                want.push((names[g][c], base + 12 * g as u64 + 4 * c as u64, 4, F(*v)));
            }
        }
    }
    assert_fields(&doc, id, rec_at(), &want);
    let bind = vec![[[0.0; 3], [0.0; 3], [1.0; 3]], [[10.0, 0.0, 0.0], [0.0, 0.0, 90.0], [1.0; 3]]];
    let w = write::write(&ccs(0x123, vec![Chunk::ClumpBind { object: 2, nodes: vec![1, 3], bind }]));
    assert_same_bytes(&w, &file);
}

#[test]
fn material_of_five_words() {
    let r = [
        hx("00 02 cc cc 05 00 00 00"), // kind 0x0200, size 5 (band B3..B5)
        hx("05 00 00 00"),             // object 5 (MAT_demo)
        hx("06 00 00 00"),             // texture 6 (TEX_demo)
        hx("00 00 80 3f"),             // alpha 1.0
        hx("00 04 00 00"),             // offset U = 0x0400 (0.25), offset V = 0
        hx("00 10 00 10"),             // scale U = scale V = 0x1000 (1.0) [AH reading]
    ]
    .concat();
    let file = setup_file(0x123, &r);
    let doc = describe(&file);
    let id = node(&doc, rec_at(), 28, "Material");
    let mut want = head(0x0200, 5).to_vec();
    want.extend([
        ("object", 8, 4, R(5, "MAT_demo")),
        ("texture", 12, 4, R(6, "TEX_demo")),
        ("alpha", 16, 4, F(1.0)),
        ("offset_u", 20, 2, I(0x400)),
        ("offset_v", 22, 2, I(0)),
        ("scale_u", 24, 2, I(0x1000)),
        ("scale_v", 26, 2, I(0x1000)),
    ]);
    assert_fields(&doc, id, rec_at(), &want);
    let w = write::write(&ccs(
        0x123,
        vec![Chunk::Material2 {
            object: 5,
            texture: 6,
            alpha: 1.0,
            offset: [0x400, 0],
            scale: Some([0x1000, 0x1000]),
            shader: None,
            multi: None,
        }],
    ));
    assert_same_bytes(&w, &file);
}

/// The Clut and Texture examples of docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two (size 58: 8 true words + 50).
fn clut_and_texture(size: u32) -> Vec<u8> {
    let mut v = [
        hx("00 04 cc cc 15 00 00 00"), // kind 0x0400, size 21 = 5 + 16
        hx("07 00 00 00 08 00 00 00"), // clut 7, blt_group 8
        hx("01 00 00 00"),             // flag 1, cpsm 0, two unknown bytes
        hx("c0 03 a0 01"),             // buf_x 0x3C0, buf_y 0x1A0
        hx("10 00 00 00"),             // count 16
        hx("80 20 10 80"),             // colour 0: R 0x80, G 0x20, B 0x10, A 0x80
        hx("10 80 20 80"),             // colour 1
        vec![0; 14 * 4],               // colours 2..15 (transparent black)
        hx("00 03 cc cc"),             // kind 0x0300
    ]
    .concat();
    w32(&mut v, size); // size (58 in the addendum: deliberately wrong)
    v.extend(
        [
            hx("06 00 00 00"),             // texture 6
            hx("07 00 00 00"),             // clut 7
            hx("08 00 00 00"),             // blt_group 8
            hx("01 14 00 70 02 01 cd cd"), // flag 1, psm 0x14, mipmap 0, aref 0x70, tw 2, th 1, pad
            hx("80 03 c0 01"),             // level 0: buf_x 0x380, buf_y 0x1C0
            hx("01 00 00 00"),             // count = 1 word
            hx("10 01 01 10"),             // bottom row 0,1,1,0; top row 1,0,0,1
        ]
        .concat(),
    );
    v
}

#[test]
fn texture_end_is_computed_and_its_size_changes_nothing_else() {
    let file = setup_file(0x123, &clut_and_texture(58));
    let doc = describe(&file);
    let tex_at = rec_at() + 8 + 21 * 4;
    // true end = chunk + 40; a walker trusting size would overrun by 200 bytes
    let id = node(&doc, tex_at, 40, "Texture");
    assert_eq!(doc.node(id).unwrap().summary, "4×2 PSMT4, 1 levels");
    let img = texture(&file).unwrap();
    assert_eq!((img.width, img.height), (4, 2));
    // rows bottom-up, low nibble first: output row 0 (top) = stored row 1 = 1,0,0,1
    let px = |x: usize, y: usize| <[u8; 4]>::try_from(&img.rgba[(y * 4 + x) * 4..][..4]).unwrap();
    // colour 0 = R 0x80 G 0x20 B 0x10, alpha min(255, 2·0x80) = 255; colour 1 = 10 80 20
    assert_eq!(px(0, 0), [0x10, 0x80, 0x20, 255]);
    assert_eq!(px(1, 0), [0x80, 0x20, 0x10, 255]);
    assert_eq!(px(0, 1), [0x80, 0x20, 0x10, 255]);
    assert_eq!(px(1, 1), [0x10, 0x80, 0x20, 255]);
    // docs/formats/ccsf-gen2.md#walker: sizes 58, 8 and 15 (+50, 0, +7) decode the same
    for size in [8, 15] {
        let other = setup_file(0x123, &clut_and_texture(size));
        let d = whole_document(Some(&Ccsf), "vec.ccs", &other, &Limits::default()).unwrap();
        assert!(d.root().summary.ends_with("walk clean"));
        assert_eq!(texture(&other).unwrap(), img);
    }
    let w = write::write(&ccs(
        0x123,
        vec![
            Chunk::Clut {
                clut: 7,
                blt_group: 8,
                flag: 1,
                buf: [0x3c0, 0x1a0],
                colours: {
                    let mut c = vec![[0x80, 0x20, 0x10, 0x80], [0x10, 0x80, 0x20, 0x80]];
                    c.resize(16, [0; 4]);
                    c
                },
            },
            Chunk::Texture {
                texture: 6,
                clut: 7,
                blt_group: 8,
                flag: 1,
                psm: 0x14,
                aref: 0x70,
                tw: 2,
                th: 1,
                levels: vec![(0x380, 0x1c0, vec![0x10, 0x01, 0x01, 0x10])],
                size_surplus: 50,
            },
        ],
    ));
    assert_same_bytes(&w, &file);
}

#[test]
fn binary_blob_keeps_its_payload_as_bytes() {
    let r = [
        hx("00 24 cc cc 04 00 00 00"),             // kind 0x2400, size 4
        hx("0a 00 00 00"),                         // object 10 (BIN_demo)
        hx("64 65 6d 6f 7c 31 2e 30 30 7c 00 00"), // "demo|1.00|" + NUL padding
    ]
    .concat();
    let file = setup_file(0x123, &r);
    let doc = describe(&file);
    let id = node(&doc, rec_at(), 24, "BinaryBlob");
    let mut want = head(0x2400, 4).to_vec();
    want.extend([("object", 8, 4, R(10, "BIN_demo")), ("payload", 12, 12, B)]);
    assert_fields(&doc, id, rec_at(), &want);
    let w = write::write(&ccs(0x123, vec![Chunk::Blob { object: 10, payload: b"demo|1.00|\0\0".to_vec() }]));
    assert_same_bytes(&w, &file);
    // docs/formats/ccsf-gen2.md#walker: below 0x110 the same chunk stops a strict walk
    let old = setup_file(0x100, &r);
    let doc = whole_document(Some(&Ccsf), "vec.ccs", &old, &Limits::default()).unwrap();
    assert!(!doc.root().summary.ends_with("walk clean"), "{}", doc.root().summary);
    assert!(
        doc.diagnostics.iter().any(|d| d.offset == Some(rec_at()) && d.severity > Severity::Info),
        "{:?}",
        doc.diagnostics
    );
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf-gen2.md#model-0x0800 models.

/// docs/formats/ccsf-gen2.md#mmats: a v0x123 rigid model, 3 vertices, one triangle.
fn rigid_example() -> Vec<u8> {
    [
        hx("00 08 cc cc 18 00 00 00"),             // kind 0x0800, size 24
        hx("04 00 00 00"),                         // model 4
        hx("00 00 80 43"),                         // vertexScale 256.0
        hx("00 00 01 00"),                         // mtype 0, mflags 0, mmatNum 1
        hx("00 10 00 00"),                         // flag lo 0, flag hi 0x10, zoffs 0
        hx("00 00 00 00"),                         // lookupCount 0, extraFlags 0, tbnFlag 0
        hx("00 00 00 00 00 00 80 3f"),             // outline colour 0, width 1.0
        hx("09 00 00 00 05 00 00 00 03 00 00 00"), // name 9, material 5, vertexNum 3
        hx("00 00 00 00 00 00"),                   // p0 (0, 0, 0)
        hx("00 01 00 00 00 00"),                   // p1 (256, 0, 0)
        hx("00 00 00 01 00 00"),                   // p2 (0, 256, 0)
        hx("00 00"),                               // pad
        hx("00 00 40 01 00 00 40 01 00 00 40 00"), // normals (0,0,+1); flags 1, 1, 0
        hx("80 80 80 80 80 80 80 80 80 80 80 80"), // colours, all 1.0
        hx("00 00 00 00 00 01 00 00 00 00 00 01"), // UVs (0,0) (1,0) (0,1)
    ]
    .concat()
}

fn v2(pos: [i16; 3], flag: u8, uv: [i32; 2]) -> Vert2 {
    Vert2 { pos, normal: [0, 0, 64], flag, colour: [0x80; 4], uv, tangent: 0, binormal: 0 }
}

#[test]
fn rigid_model_decodes_to_the_addendum_values_and_writes_back() {
    let file = setup_file(0x123, &rigid_example());
    let doc = describe(&file);
    let id = node(&doc, rec_at(), 0x68, "Model");
    let mut want = head(0x0800, 24).to_vec();
    want.extend([
        ("model", 8, 4, R(4, "MDL_demo")),
        ("vertex_scale", 12, 4, F(256.0)),
        ("mtype", 16, 1, N(0)),
        ("mflags", 17, 1, N(0)),
        ("mmat_num", 18, 2, N(1)),
        ("flag_lo", 20, 1, N(0)),
        ("flag_hi", 21, 1, N(0x10)),
        ("zoffs", 22, 2, I(0)),
        ("lookup_count", 24, 1, N(0)),
        ("extra_flags", 25, 1, N(0)),
        ("tbn_flag", 26, 2, N(0)),
        ("outline_colour", 28, 4, N(0)),
        ("outline_width", 32, 4, F(1.0)),
    ]);
    assert_fields(&doc, id, rec_at(), &want);
    // the mesh the scene (glTF/OBJ export) gets: s16 × 256 / 4096, UVs s32 / 256, colours 0x80 = 1.0
    let scene = scene_of(&Ccsf, &file, &SceneRequest::default(), &Limits::default()).unwrap();
    let me = &scene.meshes[0];
    assert_eq!(me.positions, [Vec3::ZERO, Vec3::new(16.0, 0.0, 0.0), Vec3::new(0.0, 16.0, 0.0)]);
    assert_eq!(me.uvs, [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
    assert!(me.colours.iter().all(|c| *c == [1.0; 4]));
    assert_eq!(me.triangles, [[0, 1, 2]]);
    // the face normal points along +z like the vertex normals
    let [a, bb, c] = me.triangles[0].map(|i| me.positions[i as usize]);
    assert!((bb - a).cross(c - a).normalize().abs_diff_eq(Vec3::Z, 1e-6));
    assert!(me.normals.iter().all(|n| n.abs_diff_eq(Vec3::Z, 1e-6)));
    let model = Model2 {
        object: 4,
        scale: 256.0,
        mtype: 0,
        mflags: 0,
        flag: [0, 0x10],
        tbn: false,
        outline: Some(([0; 4], 1.0)),
        lookup: None,
        mmats: vec![Mmat2::Rigid {
            name: 9,
            material: 5,
            verts: vec![v2([0, 0, 0], 1, [0, 0]), v2([256, 0, 0], 1, [256, 0]), v2([0, 256, 0], 0, [0, 256])],
        }],
        size_surplus: 0,
    };
    assert_same_bytes(&write::write(&ccs(0x123, vec![Chunk::Model2(model)])), &file);
}

/// docs/formats/ccsf-gen2.md#mmats: a v0x123 deformable model (lookup list, one bone mmat, one skin mmat).
fn deformable_example() -> Vec<u8> {
    [
        hx("00 08 cc cc 25 00 00 00"),                                     // kind 0x0800, size 37
        hx("0c 00 00 00 00 00 80 43"),                                     // model 12, vertexScale 256.0
        hx("04 00 02 00"),                                                 // mtype 4, mflags 0, mmatNum 2
        hx("00 10 00 00"),                                                 // flag, zoffs
        hx("03 00 00 00"),                                                 // lookupCount 3, extraFlags 0, tbnFlag 0
        hx("00 00 00 00 00 00 80 3f"),                                     // outline colour, width
        hx("00 02 01 00"),                                                 // lookup = [0, 2, 1] + 1 pad byte
        hx("05 00 00 00 03 00 00 00 00 00 00 00"),                         // material 5, vertexNum 3, entryCount 0
        hx("01 00 00 00"),                                                 // node = lookup index 1 → clump.node[2]
        hx("00 00 00 00 00 00 00 00 00 01 00 00 00 01 00 00 00 00 00 00"), // p0 (0,0,0), p1 (0,256,0), p2 (256,0,0), pad
        hx("00 00 40 02 00 00 40 02 00 00 40 00"),                         // normals (0,0,+1); flags 2, 2, 0
        hx("00 00 00 00 00 01 00 00 00 00 00 01"),                         // UVs (0,0) (1,0) (0,1)
        hx("05 00 00 00 02 00 00 00 03 00 00 00"),                         // material 5, vertexNum 2, entryCount 3
        hx("00 00 00 00 00 00 00 03"),                                     // e0 (0,0,0) w 0x0300: 1.0, last, slot 0
        hx("64 00 00 00 00 00 80 04"),                                     // e1 (100,0,0) w 0x0480: 0.5, slot 1
        hx("9c ff 00 00 00 00 80 0a"),                                     // e2 (-100,0,0) w 0x0A80: 0.5, last, slot 2
        hx("00 00 40 01 00 00 40 01 00 00 40 01"),                         // normals, one per entry
        hx("00 00 00 00 00 01 00 00"),                                     // UVs, one per vertex
    ]
    .concat()
}

/// The values of `node`'s fields named `prefix[i]`, in order.
fn listed(doc: &Document, node: animscope::model::NodeId, prefix: &str) -> Vec<Raw> {
    let n = doc.node(node).unwrap();
    n.fields.iter().filter(|f| f.name.starts_with(&format!("{prefix}["))).map(|f| f.value.raw.clone()).collect()
}

/// Band B2 (0x112..0x11F), where the readers disagree (docs/formats/ccsf-gen2.md#where-the-readers-disagree): the deformable-model bytes at
/// v0x115 read their lookup list (AH: `version > 0x111`); the same model as StudioCCS reads
/// B2 — no list, the lookupCount byte holding G1's 0x70, size one word less — ends at its
/// chunk end only without the list, which the decoder then keeps and says.
#[test]
fn band_b2_model_with_and_without_its_lookup_list() {
    let with = setup_file(0x115, &deformable_example());
    let doc = describe(&with);
    let m = node(&doc, rec_at(), 0x9c, "Model");
    assert_eq!(listed(&doc, m, "lookup"), [Raw::Dec(0), Raw::Dec(2), Raw::Dec(1)]);
    let mut sc = deformable_example();
    sc[4] = 0x24; // size 36 words: the lookup word is gone
    sc[0x18] = 0x70; // lookupCount: G1's "unknown, 0x70"
    sc.drain(0x24..0x28); // no lookup list
    let without = setup_file(0x115, &sc);
    let doc = describe(&without);
    let m = node(&doc, rec_at(), 0x98, "Model");
    assert!(listed(&doc, m, "lookup").is_empty());
    assert!(
        doc.node(m).unwrap().summary.ends_with("header read without lookup list"),
        "{}",
        doc.node(m).unwrap().summary
    );
    // said at the size word, whose end decides the reading
    let said = doc.diagnostics.iter().find(|d| d.message.contains("without lookup list")).expect("the reading is said");
    assert_eq!((said.severity, said.offset), (Severity::Info, Some(rec_at() + 4)));
    // the bone mmat's node is then slot 1 itself (no list to look it up in)
    let bone = node(&doc, rec_at() + 0x24, 0x3c, "bone mmat");
    assert_eq!(doc.node(bone).unwrap().fields.iter().find(|f| f.name == "node").unwrap().value.raw, Raw::Dec(1));
}

#[test]
fn deformable_model_names_nodes_through_its_lookup_list() {
    let file = setup_file(0x123, &deformable_example());
    let doc = describe(&file);
    let m = node(&doc, rec_at(), 0x9c, "Model");
    assert_eq!(listed(&doc, m, "lookup"), [Raw::Dec(0), Raw::Dec(2), Raw::Dec(1)]);
    // the bone mmat names lookup index 1, which is clump node 2
    let bone = node(&doc, rec_at() + 0x28, 0x3c, "bone mmat");
    assert_eq!(doc.node(bone).unwrap().fields.iter().find(|f| f.name == "node").unwrap().value.raw, Raw::Dec(1));
    node(&doc, rec_at() + 0x64, 0x38, "skin mmat");
    let scene = scene_of(&Ccsf, &file, &SceneRequest::default(), &Limits::default()).unwrap();
    let (bone, skin) = (&scene.meshes[0], &scene.meshes[1]);
    assert_eq!((bone.kind, skin.kind), (Some(MeshKind::Bone), Some(MeshKind::Skin)));
    assert_eq!(bone.triangles, [[2, 1, 0]]);
    let [a, bb, c] = bone.triangles[0].map(|i| bone.positions[i as usize]);
    assert!((bb - a).cross(c - a).z > 0.0, "the bone triangle faces +z");
    assert_eq!(skin.positions.len(), 2, "the entries' closing bits make vertexNum vertices");
    let e = |pos, weight, last, slot, flag| Entry2 { pos, weight, last, slot, normal: [0, 0, 64], flag };
    let model = Model2 {
        object: 12,
        scale: 256.0,
        mtype: 4,
        mflags: 0,
        flag: [0, 0x10],
        tbn: false,
        outline: Some(([0; 4], 1.0)),
        lookup: Some(vec![0, 2, 1]),
        mmats: vec![
            Mmat2::Bone {
                material: 5,
                node: 1,
                verts: vec![v2([0, 0, 0], 2, [0, 0]), v2([0, 256, 0], 2, [256, 0]), v2([256, 0, 0], 0, [0, 256])],
            },
            Mmat2::Skin {
                material: 5,
                entries: vec![
                    e([0, 0, 0], 256, true, 0, 1),
                    e([100, 0, 0], 128, false, 1, 1),
                    e([-100, 0, 0], 128, true, 2, 1),
                ],
                uvs: vec![[0, 0], [256, 0]],
            },
        ],
        size_surplus: 0,
    };
    assert_same_bytes(&write::write(&ccs(0x123, vec![Chunk::Model2(model)])), &file);
}

/// docs/formats/ccsf-gen2.md#mmats: a v0x123 triangle-list model (mtype 2), typed from the addendum's section
/// layout: one mmat of three sections (positions with flags 33, normals, indices).
fn triangle_list_example() -> Vec<u8> {
    [
        hx("00 08 cc cc 1d 00 00 00"),             // kind 0x0800, size 29
        hx("04 00 00 00"),                         // model 4
        hx("00 00 80 43"),                         // vertexScale 256.0
        hx("02 00 01 00"),                         // mtype 2 (triangle list), mflags 0, mmatNum 1
        hx("00 10 00 00"),                         // flag lo 0, flag hi 0x10, zoffs 0
        hx("00 00 00 00"),                         // lookupCount 0, extraFlags 0, tbnFlag 0
        hx("00 00 00 00 00 00 80 3f"),             // outline colour 0, width 1.0
        hx("05 00 00 00 03 00 00 00"),             // +0x24 mmat 0: material 5, section_count 3
        hx("21 20 00 00 03 00 00 00 00 00 80 43"), // +0x2c flags 33, type 32 positions, pad, count 3, vertexScale 256.0
        hx("00 00 00 00 00 00 00 03"),             // +0x38 p0 (0, 0, 0), w 0x0300 (weight 1.0, last, slot 0)
        hx("00 01 00 00 00 00 00 03"),             // +0x40 p1 (256, 0, 0)
        hx("00 00 00 01 00 00 00 03"),             // +0x48 p2 (0, 256, 0)
        hx("00 00 00 00 03 00 00 00 00 00 80 43"), // +0x50 flags 0, type 0 normals, count 3
        hx("00 00 40 00 00 40 00 00 40"),          // +0x5c (0, 0, 64) × 3
        hx("00 00 00"),                            // +0x65 pad to 4
        hx("00 08 00 00 03 00 00 00 00 00 80 43"), // +0x68 type 8 indices, count 3
        hx("00 00 01 00 02 00"),                   // +0x74 indices 0, 1, 2
        hx("00 00"),                               // +0x7a pad to 4; end at +0x7c
    ]
    .concat()
}

#[test]
fn triangle_list_model_parses_describes_decodes_and_writes_back() {
    let file = setup_file(0x123, &triangle_list_example());
    let doc = describe(&file);
    node(&doc, rec_at(), 0x7c, "Model");
    let mm = node(&doc, rec_at() + 0x24, 0x58, "triangle-list mmat");
    assert_fields(
        &doc,
        mm,
        rec_at(),
        &[
            ("material", 0x24, 4, R(5, "MAT_demo")),
            ("section_count", 0x28, 4, N(3)),
            ("section[0].section_flags", 0x2c, 1, N(33)),
            ("section[0].section_type", 0x2d, 1, N(32)),
            ("section[0].pad", 0x2e, 2, B),
            ("section[0].count", 0x30, 4, N(3)),
            ("section[0].vertex_scale", 0x34, 4, F(256.0)),
            ("section[0].positions", 0x38, 24, B),
            ("section[1].section_flags", 0x50, 1, N(0)),
            ("section[1].section_type", 0x51, 1, N(0)),
            ("section[1].pad", 0x52, 2, B),
            ("section[1].count", 0x54, 4, N(3)),
            ("section[1].vertex_scale", 0x58, 4, F(256.0)),
            ("section[1].normals", 0x5c, 9, B),
            ("section[1].pad4", 0x65, 3, B),
            ("section[2].section_flags", 0x68, 1, N(0)),
            ("section[2].section_type", 0x69, 1, N(8)),
            ("section[2].pad", 0x6a, 2, B),
            ("section[2].count", 0x6c, 4, N(3)),
            ("section[2].vertex_scale", 0x70, 4, F(256.0)),
            ("section[2].indices", 0x74, 6, B),
            ("section[2].pad4", 0x7a, 2, B),
        ],
    );
    // positions s16 × 256 / 4096 (docs/formats/ccsf.md#units), normals s8 / 64, indices three at a time
    let scene = scene_of(&Ccsf, &file, &SceneRequest::default(), &Limits::default()).unwrap();
    let me = &scene.meshes[0];
    assert_eq!(me.positions, [Vec3::ZERO, Vec3::new(16.0, 0.0, 0.0), Vec3::new(0.0, 16.0, 0.0)]);
    assert!(me.normals.iter().all(|n| n.abs_diff_eq(Vec3::Z, 1e-6)));
    assert_eq!(me.triangles, [[0, 1, 2]]);
    assert!(me.uvs.is_empty(), "no UV section");
    let sec = |flags, kind, count, payload: Vec<u8>| write::TriSection2 { flags, kind, count, scale: 256.0, payload };
    let model = Model2 {
        object: 4,
        scale: 256.0,
        mtype: 2,
        mflags: 0,
        flag: [0, 0x10],
        tbn: false,
        outline: Some(([0; 4], 1.0)),
        lookup: None,
        mmats: vec![Mmat2::TriList {
            material: 5,
            sections: vec![
                sec(33, 32, 3, hx("00 00 00 00 00 00 00 03 00 01 00 00 00 00 00 03 00 00 00 01 00 00 00 03")),
                sec(0, 0, 3, hx("00 00 40 00 00 40 00 00 40")),
                sec(0, 8, 3, hx("00 00 01 00 02 00")),
            ],
        }],
        size_surplus: 0,
    };
    assert_same_bytes(&write::write(&ccs(0x123, vec![Chunk::Model2(model)])), &file);
    // a section type the addendum does not give stops the decode, named, with its offset
    let mut bad = file.clone();
    bad[(rec_at() + 0x69) as usize] = 9;
    let e = scene_of(&Ccsf, &bad, &SceneRequest::default(), &Limits::default()).unwrap_err();
    assert_eq!(e.offset, rec_at() + 0x69);
    assert!(e.to_string().contains("section type 9"), "{e}");
}

#[test]
fn version_0x125_skin_entries_and_uvs() {
    // the v0x125 skin mmat of docs/formats/ccsf-gen2.md#mmats, inside a one-mmat deformable model without lookup list (mtype 5)
    let mut r = hx("00 08 cc cc"); // kind 0x0800
    w32(&mut r, 7 + 13); // size: header 7 words + the mmat's 13
    r.extend(
        [
            hx("0c 00 00 00 00 00 80 43"),             // model 12, vertexScale 256.0
            hx("05 00 01 00"),                         // mtype 5 (lit deformable: no lookup list), mmatNum 1
            hx("00 00 00 00 00 00 00 00"),             // flags, zoffs, lookupCount 0, tbnFlag 0
            hx("00 00 00 00 00 00 80 3f"),             // outline colour, width
            hx("05 00 00 00 01 00 00 00 02 00 00 00"), // material 5, vertexNum 1, entryCount 2
            hx("0a 00 00 00 00 00 80 00 00 00 00 00"), // e0 (10,0,0), weight 128, stop 0, bone 0
            hx("f6 ff 00 00 00 00 80 00 01 00 01 00"), // e1 (-10,0,0), weight 0.5, stop 1, bone 1
            hx("00 00 40 01 00 00 40 01"),             // normals per entry
            hx("00 80 00 00 00 00 01 00"),             // UV: u = 0x8000 (0.5), v = 0x10000 (1.0)
        ]
        .concat(),
    );
    let file = setup_file(0x125, &r);
    describe(&file);
    let scene = scene_of(&Ccsf, &file, &SceneRequest::default(), &Limits::default()).unwrap();
    assert_eq!(scene.meshes[0].uvs, [[0.5, 1.0]]);
    let e = |pos, last, slot| Entry2 { pos, weight: 128, last, slot, normal: [0, 0, 64], flag: 1 };
    let model = Model2 {
        object: 12,
        scale: 256.0,
        mtype: 5,
        mflags: 0,
        flag: [0, 0],
        tbn: false,
        outline: Some(([0; 4], 1.0)),
        lookup: None,
        mmats: vec![Mmat2::Skin {
            material: 5,
            entries: vec![e([10, 0, 0], false, 0), e([-10, 0, 0], true, 1)],
            uvs: vec![[0x8000, 0x10000]],
        }],
        size_surplus: 0,
    };
    assert_same_bytes(&write::write(&ccs(0x125, vec![Chunk::Model2(model)])), &file);
    // the v0x125 rigid UV array of docs/formats/ccsf-gen2.md#mmats: (0, 1.0), (1.5, -0.5)
    let uvs = hx("00 00 00 00 00 00 01 00 00 80 01 00 00 80 ff ff");
    let g = |i: usize| i32::from_le_bytes(uvs[4 * i..4 * i + 4].try_into().unwrap()) as f32 / 65536.0;
    assert_eq!([g(0), g(1), g(2), g(3)], [0.0, 1.0, 1.5, -0.5]);
}

#[test]
fn strip_vectors_of_both_generations() {
    // docs/formats/ccsf-gen2.md#strip-winding
    assert_eq!(strip2_triangles(&[1, 1, 0, 0]), [[0, 1, 2], [3, 2, 1]]);
    assert_eq!(strip2_triangles(&[2, 2, 0, 0]), [[2, 1, 0], [1, 2, 3]]);
    assert_eq!(strip2_triangles(&[1, 1, 0, 2, 2, 0]), [[0, 1, 2], [5, 4, 3]]);
    assert_eq!(strip2_triangles(&[2, 2, 0, 0, 0, 1, 1, 0]), [[2, 1, 0], [1, 2, 3], [4, 3, 2], [5, 6, 7]]);
    let g1 = [1, 1, 0, 0, 1, 1, 0];
    assert_eq!(strip2_triangles(&g1), [[0, 1, 2], [3, 2, 1], [4, 5, 6]]);
    assert_eq!(strip_triangles(&g1), [[1, 0, 2], [1, 2, 3], [5, 4, 6]]);
}

#[test]
fn a_wrong_model_size_is_reported_and_the_walk_still_reaches_the_end() {
    let mut r = rigid_example();
    r[4] = 24 + 15; // size +15 words: the declared end is inside the frame section
    let file = setup_file(0x123, &r);
    let doc = whole_document(Some(&Ccsf), "vec.ccs", &file, &Limits::default()).unwrap();
    assert!(doc.root().summary.ends_with("walk clean"), "{}", doc.root().summary);
    let w: Vec<_> = doc.diagnostics.iter().filter(|d| d.severity == Severity::Warning).collect();
    assert!(w.iter().any(|d| d.message.contains("model body ends at")), "{w:?}");
    let findings = check_bytes(&Ccsf, &file, "vec.ccs", &Limits::default()).unwrap();
    assert!(findings.iter().any(|d| d.message.contains("model body ends at")), "{findings:?}");
}

#[test]
fn header_variants_are_picked_by_size_and_said() {
    // docs/formats/ccsf-gen2.md#version-bands: the same rigid model without outline words at 0x111 (band B1 reads them)
    let mut r = rigid_example();
    r.drain(0x1c..0x24);
    r[4] = 22;
    let file = setup_file(0x111, &r);
    let doc = describe(&file);
    assert!(
        doc.diagnostics.iter().any(|d| d.severity == Severity::Info && d.message.contains("without outline words")),
        "{:?}",
        doc.diagnostics
    );
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf-gen2.md#anime-and-frame-records Anime and frame records.

fn quaternion_anime() -> Vec<u8> {
    [
        hx("00 07 cc cc 1e 00 00 00"),             // Anime, size 30 = 3 + 27
        hx("0b 00 00 00 02 00 00 00"),             // object 11 (ANM_demo), frames 2
        hx("1b 00 00 00"),                         // words 27
        hx("01 ff cc cc 01 00 00 00 00 00 00 00"), // Top 0
        hx("02 01 cc cc 10 00 00 00"),             // 0x0102 object controller, size 16
        hx("01 00 00 00"),                         // object 1
        hx("21 00 00 00"),                         // flags: position k = 1, rotation k = 4
        hx("00 00 00 00 00 00 00 00 00 00 20 41"), // position (0, 0, 10)
        hx("02 00 00 00"),                         // 2 quaternion keys
        hx("00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f"), // frame 0: (0, 0, 0, 1)
        hx("01 00 00 00 00 00 00 00 00 00 00 00 f3 04 35 3f f3 04 35 3f"), // frame 1: (0, 0, 0.7071, 0.7071)
        hx("01 ff cc cc 01 00 00 00 01 00 00 00"), // Top 1
        hx("01 ff cc cc 01 00 00 00 ff ff ff ff"), // Top -1 (play once)
    ]
    .concat()
}

#[test]
fn quaternion_rotation_keys_are_20_bytes_and_pose() {
    let mut r = hx("00 01 cc cc 04 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"); // OBJ_a
    let anime_at = rec_at() + r.len() as u64;
    r.extend(quaternion_anime());
    let file = setup_file(0x123, &r);
    let doc = describe(&file);
    let a = node(&doc, anime_at, 0x80, "Anime");
    assert_eq!(doc.node(a).unwrap().summary, "2 frames, 4 records, once");
    // the 0x0102 record: 8 + 4·16 bytes from Anime + 0x20, its 20-byte quaternion keys read
    let ctrl = doc.nodes.iter().find(|n| n.span.start == anime_at + 0x20).expect("the controller record");
    assert_eq!(ctrl.span.len(), 0x48, "the record ends at its declared size");
    // posed at frame 1: 90° about z, at (0, 0, 10)
    let clip = decode_key(&Ccsf, &file, "anime:ANM_demo", &DecodeOptions::default(), &Limits::default()).unwrap();
    let at1 = |t: &str| clip.track(&format!("OBJ_a.{t}")).unwrap().samples[1];
    assert_eq!([at1("tx"), at1("ty"), at1("tz")], [0.0, 0.0, 10.0]);
    assert!(at1("rx").abs() < 1e-3 && at1("ry").abs() < 1e-3 && (at1("rz") - 90.0).abs() < 1e-3);
    // docs/formats/ccsf-gen2.md#anime-and-frame-records: another unknown k is reported, not guessed
    let mut bad = file.clone();
    bad[(anime_at + 0x2c) as usize] = 0x29; // rotation k = 5
    let e = decode_key(&Ccsf, &bad, "anime:ANM_demo", &DecodeOptions::default(), &Limits::default()).unwrap_err();
    assert!(e.to_string().contains("k=5"), "{e}");
    // writer
    let w = write::write(&ccs(
        0x123,
        vec![
            Chunk::Obj { object: 1, parent: 0, model: 0, shadow: 0 },
            Chunk::Anime {
                object: 11,
                frames: 2,
                records: vec![
                    Chunk::Top { frame: 0 },
                    Chunk::ObjCtrl {
                        object: 1,
                        pos: Ctrl::vec3([0.0, 0.0, 10.0]),
                        rot: Ctrl::Quats(vec![
                            (0, [0.0, 0.0, 0.0, 1.0]),
                            (1, [0.0, 0.0, f32::from_bits(0x3f35_04f3), f32::from_bits(0x3f35_04f3)]),
                        ]),
                        scale: Ctrl::Absent,
                        alpha: Ctrl::Absent,
                    },
                    Chunk::Top { frame: 1 },
                    Chunk::Top { frame: 0xffff_ffff },
                ],
            },
        ],
    ));
    assert_same_bytes(&w, &file);
}

/// A frame-section vector file at `version`: Frame(1), Top 0, the record, Top −1.
fn frames_file(version: u16, rec: &[u8]) -> Vec<u8> {
    let mut v = prefix(version, 0);
    v.extend(hx("05 00 cc cc 01 00 00 00 01 00 00 00"));
    v.extend(hx("01 ff cc cc 01 00 00 00 00 00 00 00"));
    v.extend(rec);
    v.extend(hx("01 ff cc cc 01 00 00 00 ff ff ff ff"));
    v
}

#[test]
fn masked_f_obj_reads_only_its_present_values() {
    let r = [
        hx("01 01 cc cc 09 00 00 00"),             // F_Obj, size 9
        hx("01 00 00 00"),                         // object 1
        hx("80 0b 00 00"),                         // mask 0x0B80: scale and display absent
        hx("00 00 80 3f 00 00 00 40 00 00 40 40"), // pos (1, 2, 3)
        hx("00 00 00 00 00 00 00 00 00 00 34 42"), // rot (0, 0, 45°)
        hx("00 00 80 3f"),                         // transparency 1.0
    ]
    .concat();
    let file = frames_file(0x123, &r);
    let doc = describe(&file);
    let at = rec_at() + 24;
    let id = node(&doc, at, 44, "F_Obj");
    let mut want = head(0x0101, 9).to_vec();
    want.extend([("object", 8, 4, R(1, "OBJ_a")), ("mask", 12, 4, N(0xb80))]);
    for (i, (n, v)) in [("pos.x", 1.0), ("pos.y", 2.0), ("pos.z", 3.0), ("rot.x", 0.0), ("rot.y", 0.0), ("rot.z", 45.0)]
        .into_iter()
        .enumerate()
    {
        want.push((n, 16 + 4 * i as u64, 4, F(v)));
    }
    want.push(("transparency", 40, 4, F(1.0)));
    assert_fields(&doc, id, at, &want);
    let w = write::write(&CcsFile {
        chunks: vec![
            Chunk::Setup,
            Chunk::Frame { count: 1, tag: 0xcccc },
            Chunk::Top { frame: 0 },
            Chunk::FObjMasked {
                object: 1,
                mask: 0xb80,
                values: vec![1.0, 2.0, 3.0, 0.0, 0.0, 45.0, 1.0],
                display: None,
            },
            Chunk::Top { frame: 0xffff_ffff },
        ],
        ..ccs(0x123, vec![])
    });
    assert_same_bytes(&w, &file);
}

#[test]
fn gen2_f_material_with_offsets_only() {
    let r = [
        hx("01 02 cc cc 04 00 00 00"), // F_Material, size 4
        hx("05 00 00 00"),             // material 5
        hx("02 00 00 00"),             // flags: bit 0 clear (u, v follow), bit 1 set
        hx("00 00 00 3f 00 00 00 00"), // u = 0.5, v = 0.0
    ]
    .concat();
    let file = frames_file(0x123, &r);
    let doc = describe(&file);
    let at = rec_at() + 24;
    let id = node(&doc, at, 24, "F_Material");
    let mut want = head(0x0201, 4).to_vec();
    want.extend([
        ("material", 8, 4, R(5, "MAT_demo")),
        ("flags", 12, 4, N(2)),
        ("u", 16, 4, F(0.5)),
        ("v", 20, 4, F(0.0)),
    ]);
    assert_fields(&doc, id, at, &want);
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf-gen2.md#version-bands file-level expectations on the fixtures.

#[test]
fn the_word_at_0x30_changes_nothing() {
    let (a, b) = (write::write(&write::scene_123(0)), write::write(&write::scene_123(0x1234_5678)));
    assert_eq!(a.len(), b.len());
    let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    assert!(diff.iter().all(|i| (0x30..0x34).contains(i)), "{diff:?}");
    let lim = Limits::default();
    let (sa, sb) = (
        scene_of(&Ccsf, &a, &SceneRequest::default(), &lim).unwrap(),
        scene_of(&Ccsf, &b, &SceneRequest::default(), &lim).unwrap(),
    );
    assert_eq!(sa, sb);
    assert_eq!(check_bytes(&Ccsf, &a, "a", &lim).unwrap(), check_bytes(&Ccsf, &b, "a", &lim).unwrap());
}

#[test]
fn consumers_before_producers_decode_like_reordered_files() {
    // docs/formats/ccsf-gen2.md#walker: the fixture lists the Clump before its Objs and Materials before their
    // Textures; moving the producers first gives the same meshes, materials and textures
    let lim = Limits::default();
    let f = write::scene_123(0);
    let mut g = f.clone();
    let (producers, rest): (Vec<Chunk>, Vec<Chunk>) = g
        .chunks
        .drain(1..)
        .partition(|c| matches!(c, Chunk::Obj5 { .. } | Chunk::Texture { .. } | Chunk::Clut { .. } | Chunk::Model2(_)));
    g.chunks.extend(producers);
    g.chunks.extend(rest);
    let (a, b) = (write::write(&f), write::write(&g));
    assert_ne!(a, b);
    let ra = scene_of(&Ccsf, &a, &SceneRequest::default(), &lim).unwrap();
    let rb = scene_of(&Ccsf, &b, &SceneRequest::default(), &lim).unwrap();
    assert_eq!(ra.meshes, rb.meshes);
    assert_eq!(ra.materials, rb.materials);
    assert_eq!(ra.images, rb.images);
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf-gen2.md#anime-and-frame-records camera and morph controllers as clip tracks.

/// An Anime of 3 frames with a camera controller 0x0503 and a morph controller 0x1902,
/// typed from docs/formats/ccsf-gen2.md#anime-and-frame-records table (it gives no hex example for these two).
fn camera_and_morph_anime() -> Vec<u8> {
    [
        hx("00 07 cc cc 2f 00 00 00"),                         // Anime, size 47 = 3 + 44
        hx("0b 00 00 00 03 00 00 00"),                         // object 11 (ANM_demo), frames 3
        hx("2c 00 00 00"),                                     // words 44
        hx("01 ff cc cc 01 00 00 00 00 00 00 00"),             // Top 0
        hx("03 05 cc cc 13 00 00 00"),                         // 0x0503 camera controller, size 19
        hx("01 00 00 00"),                                     // object 1 (OBJ_a)
        hx("91 00 00 00"), // flags: position k = 1 (bits 0-2), rotation k = 2 (3-5), fov k = 2 (6-8)
        hx("00 00 00 00 00 00 c8 c2 00 00 a0 41"), // position (0, -100, 20)
        hx("02 00 00 00"), // rotation: 2 keys
        hx("00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"), // frame 0: (0, 0, 0)
        hx("02 00 00 00 00 00 00 00 00 00 00 00 00 00 b4 42"), // frame 2: (0, 0, 90°)
        hx("02 00 00 00"), // fov: 2 keys
        hx("00 00 00 00 00 00 34 42"), // frame 0: 45
        hx("02 00 00 00 00 00 f0 41"), // frame 2: 30
        hx("02 19 cc cc 09 00 00 00"), // 0x1902 morph controller, size 9
        hx("04 00 00 00"), // morpher 4 (MDL_demo's index; any object)
        hx("01 00 00 00"), // target_count 1
        hx("0c 00 00 00"), // target model 12 (MDL_skin)
        hx("02 00 00 00"), // flags: weight k = 2 (keyed)
        hx("02 00 00 00"), // 2 keys
        hx("00 00 00 00 00 00 00 00"), // frame 0: 0.0
        hx("02 00 00 00 00 00 80 3f"), // frame 2: 1.0
        hx("01 ff cc cc 01 00 00 00 01 00 00 00"), // Top 1
        hx("01 ff cc cc 01 00 00 00 02 00 00 00"), // Top 2
        hx("01 ff cc cc 01 00 00 00 ff ff ff ff"), // Top -1 (play once)
    ]
    .concat()
}

#[test]
fn camera_and_morph_controllers_become_clip_tracks() {
    let anime = camera_and_morph_anime();
    assert_eq!(anime.len(), 8 + 4 * 47);
    let file = setup_file(0x123, &anime);
    let doc = describe(&file);
    let a = node(&doc, rec_at(), anime.len() as u64, "Anime");
    assert_eq!(doc.node(a).unwrap().summary, "3 frames, 6 records, once");
    let clip = decode_key(&Ccsf, &file, "anime:ANM_demo", &DecodeOptions::default(), &Limits::default()).unwrap();
    assert_eq!(clip.frame_count, 3);
    let samples = |name: &str| clip.track(name).unwrap_or_else(|| panic!("track {name}")).samples.clone();
    // constant position
    assert_eq!(
        (samples("OBJ_a.tx"), samples("OBJ_a.ty"), samples("OBJ_a.tz")),
        (vec![0.0; 3], vec![-100.0; 3], vec![20.0; 3])
    );
    // keyed rotation by docs/formats/ccsf.md#evaluation: 90° quantised to s16(trunc(90 · 182.044)) = 16383 of
    // 65536 turns, half of it at frame 1 (constant speed between keys)
    let q = 16383.0f64 * 360.0 / 65536.0;
    let rz = samples("OBJ_a.rz");
    assert!(rz[0].abs() < 1e-4 && (rz[1] - q / 2.0).abs() < 1e-3 && (rz[2] - q).abs() < 1e-3, "{rz:?}");
    assert!(samples("OBJ_a.rx").iter().chain(&samples("OBJ_a.ry")).all(|x| x.abs() < 1e-4));
    let keys: Vec<(f64, f64)> = clip.track("OBJ_a.rz").unwrap().keys.iter().map(|k| (k.frame, k.value)).collect();
    assert_eq!(keys, [(0.0, 0.0), (2.0, 90.0)]);
    // fov keys 45 → 30, linear
    assert_eq!(samples("OBJ_a.fov"), vec![45.0, 37.5, 30.0]);
    // the morph weight of target MDL_skin, keys 0 → 1
    assert_eq!(samples("MDL_demo.weight[MDL_skin]"), vec![0.0, 0.5, 1.0]);
    let ctrl = clip.tables.iter().find(|t| t.name == "controllers").unwrap();
    assert!(ctrl.rows.contains(&vec![
        "0x1902".to_string(),
        "MDL_demo".into(),
        "weight[MDL_skin]".into(),
        "2".into(),
        "2".into()
    ]));
    assert!(ctrl.rows.contains(&vec!["0x0503".to_string(), "OBJ_a".into(), "fov".into(), "2".into(), "2".into()]));
    // writer
    let w = write::write(&ccs(
        0x123,
        vec![Chunk::Anime {
            object: 11,
            frames: 3,
            records: vec![
                Chunk::Top { frame: 0 },
                Chunk::LightCtrl {
                    kind: 0x0503,
                    light: 1,
                    fields: vec![
                        Ctrl::vec3([0.0, -100.0, 20.0]),
                        Ctrl::keys3(&[(0, [0.0, 0.0, 0.0]), (2, [0.0, 0.0, 90.0])]),
                        Ctrl::keys1(&[(0, 45.0), (2, 30.0)]),
                    ],
                },
                Chunk::MorphCtrl { morpher: 4, targets: vec![(12, Ctrl::keys1(&[(0, 0.0), (2, 1.0)]))] },
                Chunk::Top { frame: 1 },
                Chunk::Top { frame: 2 },
                Chunk::Top { frame: 0xffff_ffff },
            ],
        }],
    ));
    assert_same_bytes(&w, &file);
}

#[test]
fn quaternion_keys_show_as_euler_degrees_in_the_clip() {
    let mut r = hx("00 01 cc cc 04 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"); // OBJ_a
    r.extend(quaternion_anime());
    let file = setup_file(0x123, &r);
    let clip = decode_key(&Ccsf, &file, "anime:ANM_demo", &DecodeOptions::default(), &Limits::default()).unwrap();
    // key 1 is (0, 0, sin 45°, cos 45°): 90° about z
    let keys: Vec<(f64, f64)> = clip.track("OBJ_a.rz").unwrap().keys.iter().map(|k| (k.frame, k.value)).collect();
    assert_eq!(keys.len(), 2);
    assert!(keys[0] == (0.0, 0.0) && keys[1].0 == 1.0 && (keys[1].1 - 90.0).abs() < 1e-3, "{keys:?}");
    assert!((clip.track("OBJ_a.rz").unwrap().samples[1] - 90.0).abs() < 1e-3);
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two non-power-of-two and BTX textures.

/// The docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two Clut example (blt_group 8) and a 3×2 PSMT8 non-power-of-two texture in SC's
/// reading: `tw`, `th` 0xFF, then u16 width, u16 height, u32 count and the pixel words.
fn clut_and_npot_texture() -> Vec<u8> {
    let clut = clut_and_texture(58);
    let mut v = clut[..8 + 21 * 4].to_vec();
    v.extend(
        [
            hx("00 03 cc cc 3b 00 00 00"), // kind 0x0300, size 59 = 9 true words + 50
            hx("06 00 00 00"),             // texture 6
            hx("07 00 00 00"),             // clut 7
            hx("00 00 00 00"),             // blt_group 0
            hx("01 13 00 70 ff ff cd cd"), // flag 1, psm 0x13, mipmap 0, aref 0x70, tw/th 0xFF, pad
            hx("03 00 02 00"),             // width 3, height 2
            hx("02 00 00 00"),             // count 2 words
            hx("00 01 00 01 00 01 00 00"), // bottom row 0,1,0; top row 1,0,1; 2 zero bytes
        ]
        .concat(),
    );
    v
}

#[test]
fn non_power_of_two_texture_decodes_in_scs_reading() {
    let file = setup_file(0x125, &clut_and_npot_texture());
    let doc = describe(&file);
    let tex_at = rec_at() + 8 + 21 * 4;
    let id = node(&doc, tex_at, 8 + 4 * 9, "Texture");
    assert_eq!(doc.node(id).unwrap().summary, "3×2 PSMT8, 1 levels");
    let lv = child(&doc, id, "level[0]");
    assert_fields(
        &doc,
        lv,
        tex_at + 28,
        &[("width", 0, 2, N(3)), ("height", 2, 2, N(2)), ("count", 4, 4, N(2)), ("pixels", 8, 8, B)],
    );
    let img = texture(&file).unwrap();
    assert_eq!((img.width, img.height), (3, 2));
    let (c0, c1) = ([0x80, 0x20, 0x10, 255], [0x10, 0x80, 0x20, 255]);
    // output row 0 (top) = the second stored row: 1, 0, 1
    let want: Vec<u8> = [c1, c0, c1, c0, c1, c0].concat();
    assert_eq!(img.rgba, want);
    let w = write::write(&ccs(
        0x125,
        vec![
            Chunk::Clut {
                clut: 7,
                blt_group: 8,
                flag: 1,
                buf: [0x3c0, 0x1a0],
                colours: {
                    let mut c = vec![[0x80, 0x20, 0x10, 0x80], [0x10, 0x80, 0x20, 0x80]];
                    c.resize(16, [0; 4]);
                    c
                },
            },
            Chunk::TextureNpot {
                texture: 6,
                clut: 7,
                flag: 1,
                psm: 0x13,
                width: 3,
                height: 2,
                pixels: vec![0, 1, 0, 1, 0, 1, 0, 0],
                mips: vec![],
                size_surplus: 50,
            },
        ],
    ));
    assert_same_bytes(&w, &file);
}

/// A DXT1 BTX texture (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two): the 8 header bytes, u32 marker, u32 btx_size, the 64-byte
/// BTX header, 16 bytes of DXT1 blocks (8×4: two blocks).
fn btx_texture() -> Vec<u8> {
    let mut v = [
        hx("00 03 cc cc 1b 00 00 00"), // kind 0x0300, size 27 = 3 + 2 + 2 + 16 (header) + 4 (DXT1): true
        hx("06 00 00 00"),             // texture 6
        hx("00 00 00 00"),             // clut: none
        hx("00 00 00 00"),             // blt_group 0
        hx("01 87 00 70 03 02 cd cd"), // flag 1, psm 0x87 (DXT1), mipmap 0, aref 0x70, tw 3, th 2
        hx("ff ff ff ff"),             // marker (AH writes 0xFFFFFFFF)
        hx("50 00 00 00"),             // btx_size 80: 64-byte header + 16 bytes of DXT1
        hx("62 74 78 00"),             // +0 "btx\0"
        hx("00 00 00 00"),             // +4 version
        hx("08 00 04 00"),             // +8 width 8, +10 height 4
        hx("00 00 01 00"),             // +12 unknown, +14 mip count 1
        hx("07 00 00 00 00 00 00 00"), // +16 pixel format 7 (DXT1), +18 unknown
        hx("40 00 00 00"),             // +24 header size 64
        hx("00 00 00 00"),             // +28 unknown
        hx("50 00 00 00"),             // +32 total size 80 (= btx_size: both readers agree)
        vec![0; 12],                   // +36 unknown
        b"dxt1".to_vec(),              // +48 name,
        vec![0; 12],                   //     NUL-padded to 16
    ]
    .concat();
    v.extend(DXT1_8X4);
    v
}

#[test]
fn btx_dxt1_texture_decodes_its_blocks() {
    let t = btx_texture();
    assert_eq!(t.len(), 8 + 4 * 27);
    let file = setup_file(0x125, &t);
    let doc = describe(&file);
    let id = node(&doc, rec_at(), t.len() as u64, "Texture");
    assert_eq!(doc.node(id).unwrap().summary, "8×4 DXT1 (BTX), 0 levels");
    let f = doc.node(id).unwrap().fields.iter().find(|f| f.name == "dxt").unwrap();
    assert_eq!(f.span, animscope::model::Span::at(rec_at() + 100, 16));
    let img = texture(&file).unwrap();
    assert_eq!((img.width, img.height), (8, 4));
    let px = |x: usize, y: usize| <[u8; 4]>::try_from(&img.rgba[(y * 8 + x) * 4..][..4]).unwrap();
    // block 0: c0 0xF800 = (255, 0, 0) > c1 0x001F = (0, 0, 255): four colours; row 0
    // index 1 (blue), the other rows index 0 (red)
    assert_eq!(
        (px(0, 0), px(3, 0), px(0, 1), px(3, 3)),
        ([0, 0, 255, 255], [0, 0, 255, 255], [255, 0, 0, 255], [255, 0, 0, 255])
    );
    // block 1: c0 ≤ c1, three colours; index 3 = transparent black
    assert!((4..8).all(|x| (0..4).all(|y| px(x, y) == [0, 0, 0, 0])));
    let w = write::write(&ccs(
        0x125,
        vec![Chunk::TextureBtx {
            texture: 6,
            flag: 1,
            psm: 0x87,
            tw: 3,
            th: 2,
            width: 8,
            height: 4,
            name: "dxt1".into(),
            blocks: DXT1_8X4.to_vec(),
            size_surplus: 0,
        }],
    ));
    assert_same_bytes(&w, &file);
    // a psm that disagrees with the BTX pixel format is reported
    let mut bad = file.clone();
    bad[(rec_at() + 100 - 64 + 16) as usize] = 9;
    assert!(texture(&bad).is_err());
}

#[test]
fn dxt_blocks_by_the_s3tc_rules() {
    // DXT1, c0 red > c1 blue: index 2 = (2·c0 + c1)/3, index 3 = (c0 + 2·c1)/3
    let b = dxt_block(0x87, &[0x00, 0xf8, 0x1f, 0x00, 0b1110_0100, 0, 0, 0]);
    assert_eq!(&b[..4], &[[255, 0, 0, 255], [0, 0, 255, 255], [170, 0, 85, 255], [85, 0, 170, 255]]);
    // DXT1, c0 blue ≤ c1 red: index 2 = (c0 + c1)/2, index 3 = transparent black
    let b = dxt_block(0x87, &[0x1f, 0x00, 0x00, 0xf8, 0b1110_0100, 0, 0, 0]);
    assert_eq!(&b[..4], &[[0, 0, 255, 255], [255, 0, 0, 255], [127, 0, 127, 255], [0, 0, 0, 0]]);
    // DXT3: explicit 4-bit alpha, low nibble first (×17); the colour block always 4-colour
    let mut d3 = vec![0x0f, 0x80, 0, 0, 0, 0, 0, 0];
    d3.extend([0x1f, 0x00, 0x00, 0xf8, 0, 0, 0, 0]); // c0 blue, c1 red, all index 0
    let b = dxt_block(0x88, &d3);
    assert_eq!((b[0], b[1], b[2], b[3]), ([0, 0, 255, 255], [0, 0, 255, 0], [0, 0, 255, 0], [0, 0, 255, 136]));
    // DXT5: a0 255 > a1 0: index 1 = a1, 2 = (6·a0 + a1)/7 = 218, 7 = (a0 + 6·a1)/7 = 36
    let mut d5 = vec![0xff, 0x00];
    // texel 0 index 1, texel 1 index 2, texel 2 index 7 (3 bits each, little-endian)
    let bits: u64 = 1 | 2 << 3 | 7 << 6;
    d5.extend(&bits.to_le_bytes()[..6]);
    d5.extend([0xe0, 0x07, 0, 0, 0, 0, 0, 0]); // colour c0 0x07E0 (green), c1 0, every index 0
    let b = dxt_block(0x89, &d5);
    assert_eq!((b[0][3], b[1][3], b[2][3], b[3][3]), (0, 218, 36, 255));
    assert_eq!(b[0][..3], [0, 255, 0]);
    // a0 ≤ a1: six values, index 6 = 0, index 7 = 255
    let mut d5b = vec![0x00, 0xff];
    let bits: u64 = 6 | 7 << 3 | 2 << 6;
    d5b.extend(&bits.to_le_bytes()[..6]);
    d5b.extend([0u8; 8]);
    let b = dxt_block(0x89, &d5b);
    assert_eq!((b[0][3], b[1][3], b[2][3]), (0, 255, 51));
}

/// The 16 texels, row by row, of one 4×4 block of pixel format `psm` (0x87 DXT1, 0x88 DXT3,
/// 0x89 DXT5), decoded as the texture preview decodes a BTX texture made of that block.
fn dxt_block(psm: u8, block: &[u8]) -> [[u8; 4]; 16] {
    let name = ["dxt1", "dxt3", "dxt5"][usize::from(psm - 0x87)];
    let file = file_125(vec![Chunk::TextureBtx {
        texture: 6,
        flag: 1,
        psm,
        tw: 2,
        th: 2,
        width: 4,
        height: 4,
        name: name.into(),
        blocks: block.to_vec(),
        size_surplus: 0,
    }]);
    let img = texture(&file).unwrap();
    assert_eq!((img.width, img.height), (4, 4));
    std::array::from_fn(|i| <[u8; 4]>::try_from(&img.rgba[4 * i..][..4]).unwrap())
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf-gen2.md#eff-0x0e00 Effect zoffs.

/// Effect 0x0E00 (docs/formats/ccsf-gen2.md#eff-0x0e00): object, texture, u16 flag, s16 zoffs, u16 ?, u16 patNum, f32 x0,
/// y0, x1, y1, u16 w, h, patNum × (s16 u, v, opacity, u16 pad).
fn effect() -> Vec<u8> {
    [
        hx("00 0e cc cc 0b 00 00 00"), // kind 0x0E00, size 11 = 9 + 2·1
        hx("01 00 00 00"),             // object 1 (OBJ_a)
        hx("06 00 00 00"),             // texture 6 (TEX_demo)
        hx("02 00"),                   // flag 2
        hx("80 01"),                   // zoffs 0x0180
        hx("00 00"),                   // unknown
        hx("01 00"),                   // patNum 1
        hx("00 00 80 bf 00 00 80 bf"), // x0 -1, y0 -1
        hx("00 00 80 3f 00 00 80 3f"), // x1 1, y1 1
        hx("00 08 00 10"),             // w 2048, h 4096
        hx("00 08 00 00 00 10 00 00"), // pattern 0: u 2048, v 0, opacity 4096, pad
    ]
    .concat()
}

#[test]
fn effect_zoffs_is_fixed_point_from_0x122() {
    let e = effect();
    for (version, number) in [(0x121u16, None), (0x122, Some(1.5)), (0x125, Some(1.5))] {
        let file = setup_file(version, &e);
        let doc = describe(&file);
        let id = node(&doc, rec_at(), e.len() as u64, "Eff");
        let z = doc.node(id).unwrap().fields.iter().find(|f| f.name == "zoffs").unwrap();
        assert_eq!(z.value.raw, Raw::I { v: 0x180, bytes: 2 }, "{version:x}");
        let got = match &z.value.meaning {
            Some(animscope::model::Meaning::Number { value, .. }) => Some(*value),
            _ => None,
        };
        assert_eq!(got, number, "version 0x{version:x}");
        let w = write::write(&ccs(
            version,
            vec![Chunk::Eff {
                object: 1,
                texture: 6,
                flag: 2,
                zoffs: 0x180,
                unknown: 0,
                quad: [-1.0, -1.0, 1.0, 1.0],
                size: [2048, 4096],
                patterns: vec![[2048, 0, 4096]],
            }],
        ));
        assert_same_bytes(&w, &file);
    }
}

// ---------------------------------------------------------------------------------------
// Writer → parser → decoder round trips of the records above.

/// A v0x125 file of `chunks` with OBJECTS as its names.
fn file_125(chunks: Vec<Chunk>) -> Vec<u8> {
    write::write(&ccs(0x125, chunks))
}

/// RGB565 expanded to 8 bits by replicating the top bits into the low ones (the usual
/// S3TC decoder convention: 0 → 0, full → 255).
fn expand565(c: u16) -> [u8; 3] {
    let (r, g, b) = (c >> 11, (c >> 5) & 63, c & 31);
    [(r << 3 | r >> 2) as u8, (g << 2 | g >> 4) as u8, (b << 3 | b >> 2) as u8]
}

proptest::proptest! {
    #[test]
    fn npot_textures_round_trip(
        eight in proptest::bool::ANY,
        w in 1u16..20,
        h in 1u16..12,
        idx in proptest::collection::vec(0u8..16, 240),
        pal in proptest::collection::vec(proptest::array::uniform4(0u8..=255), 16),
    ) {
        // 4-bit rows of odd width would share a byte: only even widths at 4 bpp
        proptest::prop_assume!(eight || w % 2 == 0);
        let (wu, hu) = (usize::from(w), usize::from(h));
        let idx = &idx[..wu * hu];
        // stored bottom row first; 4 bits: low nibble = left pixel
        let mut stored = Vec::new();
        for row in (0..hu).rev() {
            let line = &idx[row * wu..row * wu + wu];
            if eight {
                stored.extend(line);
            } else {
                stored.extend(line.chunks(2).map(|p| p[0] | p[1] << 4));
            }
        }
        while stored.len() % 4 != 0 {
            stored.push(0);
        }
        let file = file_125(vec![
            Chunk::Clut { clut: 7, blt_group: 0, flag: 1, buf: [0, 0], colours: pal.clone() },
            Chunk::TextureNpot {
                texture: 6,
                clut: 7,
                flag: 1,
                psm: if eight { 0x13 } else { 0x14 },
                width: w,
                height: h,
                pixels: stored,
                mips: vec![],
                size_surplus: 50,
            },
        ]);
        let doc = whole_document(Some(&Ccsf), "npot.ccs", &file, &Limits::default()).unwrap();
        proptest::prop_assert!(doc.root().summary.ends_with("walk clean"), "{}", doc.root().summary);
        let img = texture(&file).unwrap();
        proptest::prop_assert_eq!((img.width, img.height), (u32::from(w), u32::from(h)));
        let want: Vec<u8> = idx
            .iter()
            .flat_map(|i| {
                let c = pal[usize::from(*i)];
                [c[0], c[1], c[2], (u16::from(c[3]) * 2).min(255) as u8]
            })
            .collect();
        proptest::prop_assert_eq!(img.rgba, want);
    }

    #[test]
    fn btx_dxt1_two_colour_blocks_round_trip(
        bw in 1u16..4,
        bh in 1u16..4,
        blocks in proptest::collection::vec((1u16..=u16::MAX, proptest::num::u32::ANY), 9),
    ) {
        // four-colour blocks (c0 > c1) whose indices are 0 or 1: every texel is c0 or c1
        let (w, h) = (4 * bw, 4 * bh);
        let n = usize::from(bw * bh);
        let mut data = Vec::new();
        let mut want = vec![[0u8; 4]; usize::from(w) * usize::from(h)];
        for (bi, (c0, bits)) in blocks.iter().take(n).enumerate() {
            let (c0, c1) = (*c0, c0 - 1);
            let bits = bits & 0x5555_5555;
            data.extend(c0.to_le_bytes());
            data.extend(c1.to_le_bytes());
            data.extend(bits.to_le_bytes());
            let (bx, by) = (bi % usize::from(bw), bi / usize::from(bw));
            for k in 0..16 {
                let c = if (bits >> (2 * k)) & 3 == 0 { c0 } else { c1 };
                let [r, g, b] = expand565(c);
                want[(by * 4 + k / 4) * usize::from(w) + bx * 4 + k % 4] = [r, g, b, 255];
            }
        }
        let file = file_125(vec![Chunk::TextureBtx {
            texture: 6,
            flag: 1,
            psm: 0x87,
            tw: 0,
            th: 0,
            width: w,
            height: h,
            name: "p".into(),
            blocks: data,
            size_surplus: 0,
        }]);
        let img = texture(&file).unwrap();
        proptest::prop_assert_eq!((img.width, img.height), (u32::from(w), u32::from(h)));
        proptest::prop_assert_eq!(img.rgba, want.concat());
    }

    #[test]
    fn camera_and_morph_tracks_hit_their_keys(
        mut keys in proptest::collection::vec((0u32..30, -1000.0f32..1000.0), 2..6),
        weight in proptest::collection::vec(0.0f32..1.0, 2),
    ) {
        keys.sort_by_key(|k| k.0);
        keys.dedup_by_key(|k| k.0);
        proptest::prop_assume!(keys.len() >= 2);
        let last = keys.last().unwrap().0;
        let frames = last + 1;
        let file = write::write(&ccs(
            0x123,
            vec![Chunk::Anime {
                object: 11,
                frames,
                records: vec![
                    Chunk::Top { frame: 0 },
                    Chunk::LightCtrl {
                        kind: 0x0503,
                        light: 1,
                        fields: vec![Ctrl::keys3(&keys.iter().map(|(f, v)| (*f, [*v, 0.0, -*v])).collect::<Vec<_>>()), Ctrl::Absent, Ctrl::keys1(&keys)],
                    },
                    Chunk::MorphCtrl { morpher: 4, targets: vec![(12, Ctrl::keys1(&[(0, weight[0]), (last, weight[1])]))] },
                    Chunk::Top { frame: 0xffff_ffff },
                ],
            }],
        ));
        let clip = decode_key(&Ccsf, &file, "anime:ANM_demo", &DecodeOptions::default(), &Limits::default())
            .unwrap();
        let (tx, tz, fov) = (clip.track("OBJ_a.tx").unwrap(), clip.track("OBJ_a.tz").unwrap(), clip.track("OBJ_a.fov").unwrap());
        let mph = clip.track("MDL_demo.weight[MDL_skin]").unwrap();
        for (f, v) in &keys {
            let at = *f as usize;
            proptest::prop_assert!((tx.samples[at] - f64::from(*v)).abs() < 1e-3);
            proptest::prop_assert!((tz.samples[at] + f64::from(*v)).abs() < 1e-3);
            proptest::prop_assert!((fov.samples[at] - f64::from(*v)).abs() < 1e-3);
        }
        proptest::prop_assert_eq!(fov.keys.len(), keys.len());
        proptest::prop_assert!((mph.samples[0] - f64::from(weight[0])).abs() < 1e-6);
        proptest::prop_assert!((mph.samples[last as usize] - f64::from(weight[1])).abs() < 1e-6);
    }

    #[test]
    fn particle_generators_round_trip(
        fade in proptest::array::uniform2(proptest::num::i16::ANY),
        floats in proptest::array::uniform7(-1.0e6f32..1.0e6),
        fields in proptest::collection::vec((0u8..0x22, proptest::array::uniform5(-100.0f32..100.0)), 0..4),
        resources in proptest::collection::vec((1u32..13, proptest::array::uniform4(proptest::num::u8::ANY)), 0..4),
        version in proptest::sample::select(vec![0x121u16, 0x122, 0x123, 0x125]),
    ) {
        let chunk = Chunk::ParticleGen {
            object: 1,
            unknown: 0,
            params: write::ParticleParams { fade_in: fade[0], fade_out: fade[1], f32_56: floats, ..Default::default() },
            force_fields: fields
                .iter()
                .map(|(t, p)| write::ForceField { unknown_4: 0, field_type: *t, unknown_8: 0, params: *p })
                .collect(),
            resources: resources.clone(),
        };
        let file = write::write(&ccs(version, vec![chunk]));
        let doc = whole_document(Some(&Ccsf), "p.ccs", &file, &Limits::default()).unwrap();
        proptest::prop_assert!(doc.root().summary.ends_with("walk clean"));
        let id = doc.nodes.iter().find(|n| n.kind == "ParticleGenerator").unwrap().id;
        let got = |name: &str| doc.node(id).unwrap().fields.iter().find(|f| f.name == name).map(|f| f.value.raw.clone());
        proptest::prop_assert!(got("body").is_none(), "the body fits the layout");
        proptest::prop_assert_eq!(got("fade_in"), Some(Raw::I { v: i64::from(fade[0]), bytes: 2 }));
        proptest::prop_assert_eq!(got("f32_80"), Some(Raw::F32(floats[6].to_bits())));
        for (i, (t, p)) in fields.iter().enumerate() {
            proptest::prop_assert_eq!(got(&format!("force_field[{i}].type")), Some(Raw::U { v: u64::from(*t), bytes: 1 }));
            proptest::prop_assert_eq!(got(&format!("force_field[{i}].param[4]")), Some(Raw::F32(p[4].to_bits())));
        }
        for (i, (o, _)) in resources.iter().enumerate() {
            proptest::prop_assert_eq!(got(&format!("resource[{i}].object")), Some(Raw::Dec(u64::from(*o))));
            proptest::prop_assert_eq!(got(&format!("resource[{i}].extra")).is_some(), version > 0x122);
        }
    }
}

/// Append `x` little-endian.
fn w32(v: &mut Vec<u8>, x: u32) {
    v.extend(x.to_le_bytes());
}

/// Append `s` zero-padded to `n` bytes.
fn padded(v: &mut Vec<u8>, s: &[u8], n: usize) {
    let mut b = s.to_vec();
    b.resize(n, 0);
    v.extend(b);
}
