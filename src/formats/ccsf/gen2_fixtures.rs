//! Later-generation fixture scenes (docs/formats/ccsf-gen2.md#writing-synthetic-files), built with the writer: one per version
//! band the addendum describes, and the gen-2 expected-failure files. Their vertex and
//! triangle counts are stated here from how they are built (the tests assert them).

use super::band;
use super::write::{
    Bind, CcsFile, Chunk, Ctrl, Entry2, ForceField, Mmat2, Model2, ParticleParams, TriSection2, Vert2, write,
};

fn file(name: &str, version: u16, x: u32, objects: &[&str]) -> CcsFile {
    CcsFile {
        name: name.into(),
        version,
        frames: x,
        files: vec![(b' ', format!("g\\{name}\\max\\{name}.max"))],
        objects: objects.iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    }
}

/// The sample's frame section: Frame(1), Top −1.
fn sample_frames() -> Vec<Chunk> {
    vec![Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0xffff_ffff }]
}

const UP: [i8; 3] = [0, 0, 64];

fn vx(pos: [i16; 3], flag: u8, uv: [i32; 2]) -> Vert2 {
    Vert2 { pos, normal: UP, flag, colour: [0x80, 0x80, 0x80, 0x80], uv, tangent: 0x7f00_0000, binormal: 0x007f_0000 }
}

/// UV of `(u, v)` in repeats as stored at `version` (s16 /256 or s32 /65536).
fn uv(version: u16, u: f32, v: f32) -> [i32; 2] {
    let k = if band::of(version).uv_16_16 { 65536.0 } else { 256.0 };
    [(u * k) as i32, (v * k) as i32]
}

/// A rigid quad, strip `1 1 0 0` (2 triangles, counter-clockwise seen from +z).
fn quad(version: u16) -> Vec<Vert2> {
    vec![
        vx([0, 0, 0], 1, uv(version, 0.0, 0.0)),
        vx([256, 0, 0], 1, uv(version, 1.0, 0.0)),
        vx([0, 256, 0], 0, uv(version, 0.0, 1.0)),
        vx([256, 256, 0], 0, uv(version, 1.0, 1.0)),
    ]
}

/// Five vertices, strip `2 2 0 0 0` (3 triangles, counter-clockwise seen from +z; odd
/// count, so the positions take 2 pad bytes).
fn zigzag(version: u16) -> Vec<Vert2> {
    vec![
        vx([0, 0, 0], 2, uv(version, 0.0, 0.0)),
        vx([0, 256, 0], 2, uv(version, 0.0, 1.0)),
        vx([256, 0, 0], 0, uv(version, 1.0, 0.0)),
        vx([256, 256, 0], 0, uv(version, 1.0, 1.0)),
        vx([512, 0, 0], 0, uv(version, 2.0, 0.0)),
    ]
}

fn bind(pos: [f32; 3], rot: [f32; 3]) -> Bind {
    [pos, rot, [1.0, 1.0, 1.0]]
}

fn e2(pos: [i16; 3], weight: i16, last: bool, slot: i16, flag: u8) -> Entry2 {
    Entry2 { pos, weight, last, slot, normal: UP, flag }
}

/// 16 colours: the docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two example's first two, then transparent black.
fn palette16() -> Vec<[u8; 4]> {
    let mut c = vec![[0x80, 0x20, 0x10, 0x80], [0x10, 0x80, 0x20, 0x80]];
    c.resize(16, [0, 0, 0, 0]);
    c
}

/// The main band-B4 scene (version 0x123, as the public sample): a clump of three nodes
/// with bind poses listed before its Objs (5-word Obj), 5-word Materials before their
/// Textures, rigid models (strips opened by flags 1 and 2, no-colour/no-UV arrays), an
/// unlit deformable model with a lookup list (bone mmat + skin mmat with 1- and 2-entry
/// vertices), a lit deformable model (no lookup list), a shadow model (`vNum = 0` and 2
/// triangles), a model without mmats, an Anime with a quaternion rotation (k = 4), a camera
/// and a morph controller, a Binary Blob, Dynamics, a StreamOutlineParam, and Clut/Texture
/// pairs last (sizes +50 and +7 words too large).
pub fn scene_123(x: u32) -> CcsFile {
    scene_at("demo", 0x123, x, true)
}

/// The band-B2 scene (version 0x115): [`scene_123`]'s objects with B2's own layouts —
/// 4-word Objs and Materials (the 5th words come at 0x120/0x121), Clump bind poses and
/// Model outline words (from 0x111) — and the unlit deformable `MDL_skin` with its lookup
/// list when `lookup` (AH's rule: `version > 0x111`), without it otherwise (SC's: none
/// before 0x120; the model then names clump nodes directly).
pub fn scene_b2(lookup: bool) -> CcsFile {
    scene_at(if lookup { "b2" } else { "b2sc" }, 0x115, 0, lookup)
}

/// [`scene_b2`] without the lookup list, as SC reads band B2: the unlit deformable
/// `MDL_skin` has no list and its header's lookupCount byte (+16) holds G1's value there
/// ("unknown, 0x70"), which AH's rule would take for a 112-byte list. The decoder keeps
/// the reading that ends at the chunk's end (docs/formats/ccsf-gen2.md#version-bands, docs/formats/ccsf-gen2.md#where-the-readers-disagree).
pub fn b2_sc_reading() -> Vec<u8> {
    let f = scene_b2(false);
    let skin = f.obj("MDL_skin");
    let mut data = write(&f);
    let object_at = |at: usize| data.get(at + 8..at + 12).and_then(|w| w.try_into().ok()).map(u32::from_le_bytes);
    if let Some(at) = find_where(&data, 0x0800, |at| object_at(at) == Some(skin))
        && let Some(count) = data.get_mut(at + 8 + 16)
    {
        *count = 0x70;
    }
    data
}

/// The scene of [`scene_123`] at `version` (0x112.. gives B2's 4-word Obj and Material).
fn scene_at(name: &str, v: u16, x: u32, lookup: bool) -> CcsFile {
    let mut f = file(name, v, x, &SCENE_NAMES);
    let mut chunks = scene_hierarchy(&f, v);
    chunks.extend(scene_models(&f, v, lookup));
    let (cam, mph, prop) = (f.obj("CAM_demo"), f.obj("MPH_demo"), f.obj("MDL_prop"));
    chunks.extend([Chunk::Camera { object: cam }, Chunk::Morpher { morpher: mph, base: prop }, scene_anime(&f)]);
    chunks.extend(scene_extras(&f));
    chunks.extend(scene_textures(&f));
    f.chunks.extend(chunks);
    f.chunks.extend(sample_frames());
    f
}

/// The objects of [`scene_at`]'s scene, in Index order.
const SCENE_NAMES: [&str; 27] = [
    "CMP_demo",
    "OBJ_root",
    "OBJ_arm",
    "OBJ_hand",
    "OBJ_prop",
    "OBJ_flat",
    "MDL_prop",
    "MDL_prop_0",
    "MDL_prop_1",
    "MDL_flat",
    "MDL_flat_0",
    "MDL_skin",
    "MDL_lit",
    "MDL_shadow",
    "MDL_empty",
    "MAT_prop",
    "MAT_skin",
    "TEX_prop",
    "CLT_prop",
    "TEX_skin",
    "CLT_skin",
    "ANM_demo",
    "CAM_demo",
    "MPH_demo",
    "MDL_target",
    "BIN_demo",
    "OTL_demo",
];

/// [`scene_at`]'s clump (three nodes with bind poses), its Objs (4 or 5 words as the
/// band writes them) and the two Materials.
fn scene_hierarchy(f: &CcsFile, v: u16) -> Vec<Chunk> {
    // B2 and earlier: Obj and Material of 4 words; from B3 (whose own Obj reading is 4
    // words, the size deciding) both are written with 5
    let five = band::of(v).material_words >= 5;
    let obj = |object, parent, model, shadow, extra| {
        if five {
            Chunk::Obj5 { object, parent, model, shadow, extra }
        } else {
            Chunk::Obj { object, parent, model, shadow }
        }
    };
    let scale = five.then_some([0x1000, 0x1000]);
    let o = |n: &str| f.obj(n);
    let cmp = o("CMP_demo");
    let root = o("OBJ_root");
    let arm = o("OBJ_arm");
    let hand = o("OBJ_hand");
    let oprop = o("OBJ_prop");
    let oflat = o("OBJ_flat");
    let prop = o("MDL_prop");
    let flat = o("MDL_flat");
    let skin = o("MDL_skin");
    let lit = o("MDL_lit");
    let shadow = o("MDL_shadow");
    let mprop = o("MAT_prop");
    let mskin = o("MAT_skin");
    let tprop = o("TEX_prop");
    let tskin = o("TEX_skin");
    vec![
        Chunk::ClumpBind {
            object: cmp,
            nodes: vec![root, arm, hand],
            bind: vec![
                bind([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
                bind([10.0, 0.0, 0.0], [0.0, 0.0, 90.0]),
                bind([0.0, 5.0, 0.0], [0.0, 0.0, 0.0]),
            ],
        },
        obj(root, 0, skin, shadow, 4),
        obj(arm, root, 0, 0, 4),
        obj(hand, arm, lit, 0, 4),
        obj(oprop, 0, prop, 0, 0),
        obj(oflat, 0, flat, 0, 0),
        Chunk::Material2 {
            object: mprop,
            texture: tprop,
            alpha: 1.0,
            offset: [0x0400, 0],
            scale,
            shader: None,
            multi: None,
        },
        Chunk::Material2 {
            object: mskin,
            texture: tskin,
            alpha: 1.0,
            offset: [0, 0],
            scale,
            shader: None,
            multi: None,
        },
    ]
}

/// [`scene_at`]'s six Models: rigid (two mmats; no colours or UVs), unlit deformable
/// (bone + skin, with a lookup list when `lookup`), lit deformable, shadow and empty.
fn scene_models(f: &CcsFile, v: u16, lookup: bool) -> Vec<Chunk> {
    let o = |n: &str| f.obj(n);
    let prop = o("MDL_prop");
    let prop0 = o("MDL_prop_0");
    let prop1 = o("MDL_prop_1");
    let flat = o("MDL_flat");
    let flat0 = o("MDL_flat_0");
    let shadow = o("MDL_shadow");
    let empty = o("MDL_empty");
    let mprop = o("MAT_prop");
    let outline = Some(([0, 0, 0, 0], 1.0));
    let mut chunks = vec![
        // 2 mmats: quad (4 v, 2 t) and zigzag (5 v, 3 t)
        Chunk::Model2(Model2 {
            object: prop,
            scale: 256.0,
            mtype: 0,
            mflags: 0,
            flag: [0, 0x10],
            tbn: false,
            outline,
            lookup: None,
            mmats: vec![
                Mmat2::Rigid { name: prop0, material: mprop, verts: quad(v) },
                Mmat2::Rigid { name: prop1, material: mprop, verts: zigzag(v) },
            ],
            size_surplus: 0,
        }),
        // no colours, no UVs: 3 v, 1 t
        Chunk::Model2(Model2 {
            object: flat,
            scale: 256.0,
            mtype: 0,
            mflags: 0x06,
            flag: [0, 0x10],
            tbn: false,
            outline,
            lookup: None,
            mmats: vec![Mmat2::Rigid { name: flat0, material: 0, verts: quad(v).into_iter().take(3).collect() }],
            size_surplus: 0,
        }),
    ];
    chunks.extend(scene_deformable(f, v, lookup));
    chunks.extend([
        // shadow: vNum 0 / iNum 0, then 4 v and 2 t
        Chunk::Model2(Model2 {
            object: shadow,
            scale: 256.0,
            mtype: 8,
            mflags: 0,
            flag: [0, 0],
            tbn: false,
            outline,
            lookup: None,
            mmats: vec![
                Mmat2::Shadow { positions: vec![], indices: vec![] },
                Mmat2::Shadow {
                    positions: vec![[0, 0, 0], [256, 0, 0], [0, 256, 0], [256, 256, 0]],
                    indices: vec![0, 1, 2, 3, 2, 1],
                },
            ],
            size_surplus: 0,
        }),
        Chunk::Model2(Model2 {
            object: empty,
            scale: 256.0,
            mtype: 0,
            mflags: 0,
            flag: [0, 0],
            tbn: false,
            outline,
            lookup: None,
            mmats: vec![],
            size_surplus: 0,
        }),
    ]);
    chunks
}

/// [`scene_at`]'s deformable Models: unlit (bone + skin, with a lookup list when
/// `lookup`) and lit (no lookup list).
fn scene_deformable(f: &CcsFile, v: u16, lookup: bool) -> Vec<Chunk> {
    let o = |n: &str| f.obj(n);
    let (skin, lit, mskin) = (o("MDL_skin"), o("MDL_lit"), o("MAT_skin"));
    let outline = Some(([0, 0, 0, 0], 1.0));
    vec![
        // bone (3 v, 1 t, node slot 1 → lookup[1] = clump node 2) + skin (4 v, 2 t)
        Chunk::Model2(Model2 {
            object: skin,
            scale: 256.0,
            mtype: 4,
            mflags: 0,
            flag: [0, 0x10],
            tbn: false,
            outline,
            lookup: lookup.then(|| vec![0, 2, 1]),
            mmats: vec![
                Mmat2::Bone {
                    material: mskin,
                    node: 1,
                    verts: vec![
                        vx([0, 0, 0], 2, uv(v, 0.0, 0.0)),
                        vx([0, 256, 0], 2, uv(v, 1.0, 0.0)),
                        vx([256, 0, 0], 0, uv(v, 0.0, 1.0)),
                    ],
                },
                Mmat2::Skin {
                    material: mskin,
                    entries: vec![
                        e2([0, 0, 0], 256, true, 0, 1),
                        e2([100, 0, 0], 128, false, 1, 0),
                        e2([100, 0, 0], 128, true, 2, 1),
                        e2([0, 100, 0], 256, true, 1, 0),
                        e2([100, 100, 0], 256, true, 2, 0),
                    ],
                    uvs: vec![uv(v, 0.0, 0.0), uv(v, 1.0, 0.0), uv(v, 0.0, 1.0), uv(v, 1.0, 1.0)],
                },
            ],
            size_surplus: 0,
        }),
        // lit deformable: no lookup list; bone 3 v, 1 t on clump node 0
        Chunk::Model2(Model2 {
            object: lit,
            scale: 256.0,
            mtype: 5,
            mflags: 0,
            flag: [0, 0x10],
            tbn: false,
            outline,
            lookup: None,
            mmats: vec![Mmat2::Bone {
                material: mskin,
                node: 0,
                verts: vec![
                    vx([0, 0, 0], 1, uv(v, 0.0, 0.0)),
                    vx([256, 0, 0], 1, uv(v, 1.0, 0.0)),
                    vx([0, 256, 0], 0, uv(v, 0.0, 1.0)),
                ],
            }],
            size_surplus: 0,
        }),
    ]
}

/// [`scene_at`]'s Anime: 3 frames of an Obj controller (quaternion rotation), a light
/// controller on the camera and a morph controller.
fn scene_anime(f: &CcsFile) -> Chunk {
    let o = |n: &str| f.obj(n);
    let anm = o("ANM_demo");
    let arm = o("OBJ_arm");
    let cam = o("CAM_demo");
    let mph = o("MPH_demo");
    let target = o("MDL_target");
    Chunk::Anime {
        object: anm,
        frames: 3,
        records: vec![
            Chunk::Top { frame: 0 },
            Chunk::ObjCtrl {
                object: arm,
                pos: Ctrl::vec3([10.0, 0.0, 0.0]),
                rot: Ctrl::Quats(vec![
                    (0, [0.0, 0.0, 0.0, 1.0]),
                    (2, [0.0, 0.0, std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::FRAC_1_SQRT_2]),
                ]),
                scale: Ctrl::Absent,
                alpha: Ctrl::Absent,
            },
            Chunk::LightCtrl {
                kind: 0x0503,
                light: cam,
                fields: vec![
                    Ctrl::vec3([0.0, -100.0, 20.0]),
                    Ctrl::vec3([80.0, 0.0, 0.0]),
                    Ctrl::keys1(&[(0, 45.0), (2, 30.0)]),
                ],
            },
            Chunk::MorphCtrl { morpher: mph, targets: vec![(target, Ctrl::keys1(&[(0, 0.0), (2, 1.0)]))] },
            Chunk::Top { frame: 1 },
            Chunk::Top { frame: 2 },
            Chunk::Top { frame: 0xffff_ffff },
        ],
    }
}

/// [`scene_at`]'s Binary Blob, Dynamics and StreamOutlineParam.
fn scene_extras(f: &CcsFile) -> Vec<Chunk> {
    let o = |n: &str| f.obj(n);
    let cmp = o("CMP_demo");
    let root = o("OBJ_root");
    let arm = o("OBJ_arm");
    let hand = o("OBJ_hand");
    let tprop = o("TEX_prop");
    let bin = o("BIN_demo");
    let otl = o("OTL_demo");
    vec![
        Chunk::Blob { object: bin, payload: b"demo|1.00|\0\0".to_vec() },
        Chunk::Dynamics {
            clump: cmp,
            springs: vec![(arm, [0.5, 1.0, 0.0])],
            collisions: vec![(hand, [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])],
        },
        Chunk::StreamParam { kind: 0x1a00, first: 1, object: otl, target: root, texture: tprop },
    ]
}

/// [`scene_at`]'s Clut/Texture pairs, last (sizes +50 and +7 words too large).
fn scene_textures(f: &CcsFile) -> Vec<Chunk> {
    let o = |n: &str| f.obj(n);
    let tprop = o("TEX_prop");
    let cprop = o("CLT_prop");
    let tskin = o("TEX_skin");
    let cskin = o("CLT_skin");
    vec![
        Chunk::Clut { clut: cprop, blt_group: 0, flag: 1, buf: [0x3c0, 0x1a0], colours: palette16() },
        // 4×2 PSMT4, the docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two example's pixels, size +50 words
        Chunk::Texture {
            texture: tprop,
            clut: cprop,
            blt_group: 0,
            flag: 1,
            psm: 0x14,
            aref: 0x70,
            tw: 2,
            th: 1,
            levels: vec![(0x380, 0x1c0, vec![0x10, 0x01, 0x01, 0x10])],
            size_surplus: 50,
        },
        Chunk::Clut {
            clut: cskin,
            blt_group: 0,
            flag: 1,
            buf: [0x3c0, 0x1b0],
            colours: (0..=255u8).map(|i| [i, 255 - i, 0x40, 0x80]).collect(),
        },
        // 4×4 PSMT8, one level, size +7 words (an odd surplus)
        Chunk::Texture {
            texture: tskin,
            clut: cskin,
            blt_group: 0,
            flag: 1,
            psm: 0x13,
            aref: 0x70,
            tw: 2,
            th: 2,
            levels: vec![(0x300, 0x100, (0..16).collect())],
            size_surplus: 7,
        },
    ]
}

/// The band-B5 scene (version 0x125): 16.16 UVs, a rigid model with tangent and binormal
/// arrays (`tbnFlag` 1), a deformable model with 12-byte skin entries and a lookup list, a
/// Clump with bind poses, a Texture with a true size (surplus 0), and a stream-style frame
/// section with masked F_Obj records, a gen-2 F_Material, a CelShadeFrame and an
/// FBSBlurFrame.
pub fn scene_125() -> CcsFile {
    let names = [
        "CMP_b5",
        "OBJ_body",
        "OBJ_arm",
        "OBJ_prop",
        "MDL_prop",
        "MDL_prop_0",
        "MDL_body",
        "MAT_b5",
        "TEX_b5",
        "CLT_b5",
        "CEL_b5",
        "BLR_b5",
    ];
    let v = 0x125;
    let mut f = file("b5", v, 0, &names);
    let o = |n: &str| f.obj(n);
    let (cmp, body, arm, oprop, prop, prop0, mbody, mat, tex, clt, cel, blr) = (
        o("CMP_b5"),
        o("OBJ_body"),
        o("OBJ_arm"),
        o("OBJ_prop"),
        o("MDL_prop"),
        o("MDL_prop_0"),
        o("MDL_body"),
        o("MAT_b5"),
        o("TEX_b5"),
        o("CLT_b5"),
        o("CEL_b5"),
        o("BLR_b5"),
    );
    let outline = Some(([0x10, 0x10, 0x10, 0x80], 1.5));
    f.chunks.extend([
        Chunk::Obj5 { object: body, parent: 0, model: mbody, shadow: 0, extra: 1 },
        Chunk::Obj5 { object: arm, parent: body, model: 0, shadow: 0, extra: 1 },
        Chunk::Obj5 { object: oprop, parent: 0, model: prop, shadow: 0, extra: 0 },
        Chunk::ClumpBind {
            object: cmp,
            nodes: vec![body, arm],
            bind: vec![bind([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]), bind([0.0, 0.0, 8.0], [90.0, 0.0, 0.0])],
        },
        Chunk::Material2 {
            object: mat,
            texture: tex,
            alpha: 1.0,
            offset: [0, 0],
            scale: Some([0x1000, 0x1000]),
            shader: None,
            multi: None,
        },
        // rigid quad with tangents: 4 v, 2 t
        Chunk::Model2(Model2 {
            object: prop,
            scale: 256.0,
            mtype: 0,
            mflags: 0x10,
            flag: [0, 0x10],
            tbn: true,
            outline,
            lookup: None,
            mmats: vec![Mmat2::Rigid { name: prop0, material: mat, verts: quad(v) }],
            size_surplus: 0,
        }),
        // bone (3 v, 1 t) + skin of 12-byte entries (3 v, 1 t)
        Chunk::Model2(Model2 {
            object: mbody,
            scale: 256.0,
            mtype: 4,
            mflags: 0x10,
            flag: [0, 0x10],
            tbn: false,
            outline,
            lookup: Some(vec![1, 0]),
            mmats: vec![
                Mmat2::Bone {
                    material: mat,
                    node: 0,
                    verts: vec![
                        vx([0, 0, 0], 1, uv(v, 0.0, 0.0)),
                        vx([256, 0, 0], 1, uv(v, 0.5, 0.0)),
                        vx([0, 256, 0], 0, uv(v, 0.0, -0.5)),
                    ],
                },
                Mmat2::Skin {
                    material: mat,
                    entries: vec![
                        e2([10, 0, 0], 128, false, 0, 0),
                        e2([-10, 0, 0], 128, true, 1, 1),
                        e2([256, 0, 0], 256, true, 1, 1),
                        e2([0, 256, 0], 256, true, 0, 0),
                    ],
                    uvs: vec![uv(v, 0.5, 1.0), uv(v, 1.5, -0.5), uv(v, 0.0, 0.0)],
                },
            ],
            size_surplus: 0,
        }),
        Chunk::Clut { clut: clt, blt_group: 0, flag: 1, buf: [0x3c0, 0x1a0], colours: palette16() },
        Chunk::Texture {
            texture: tex,
            clut: clt,
            blt_group: 0,
            flag: 1,
            psm: 0x14,
            aref: 0x70,
            tw: 2,
            th: 1,
            levels: vec![(0x380, 0x1c0, vec![0x10, 0x01, 0x01, 0x10])],
            size_surplus: 0,
        },
    ]);
    f.chunks.extend(scene_125_frames(body, arm, mat, cel, blr));
    f
}

/// [`scene_125`]'s stream-style frame section (2 frames): masked F_Obj records (full, and
/// the addendum's example without scale and display), a gen-2 F_Material, a CelShadeFrame
/// and an FBSBlurFrame.
fn scene_125_frames(body: u32, arm: u32, mat: u32, cel: u32, blr: u32) -> Vec<Chunk> {
    vec![
        Chunk::Frame { count: 2, tag: 0xcccc },
        Chunk::Top { frame: 0 },
        // full record (mask 0): 2 + 10 + 1 words
        Chunk::FObjMasked {
            object: body,
            mask: 0,
            values: vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0],
            display: Some(1),
        },
        // the docs/formats/ccsf-gen2.md#anime-and-frame-records example: scale and display absent
        Chunk::FObjMasked {
            object: arm,
            mask: 0x0b80,
            values: vec![1.0, 2.0, 3.0, 0.0, 0.0, 45.0, 1.0],
            display: None,
        },
        Chunk::Raw { kind: 0x0201, tag: 0xcccc, payload: words(&[mat, 2, 0.5f32.to_bits(), 0]) },
        Chunk::Raw { kind: 0x1b01, tag: 0xcccc, payload: words(&[cel, 0, 1.0f32.to_bits(), 0.5f32.to_bits()]) },
        Chunk::Top { frame: 1 },
        Chunk::FObjMasked { object: arm, mask: 0x0ffe & !0x40, values: vec![90.0], display: None },
        Chunk::Raw { kind: 0x1d01, tag: 0xcccc, payload: words(&[blr, 0, 2.0f32.to_bits(), 0.25f32.to_bits(), 3, 4]) },
        Chunk::Top { frame: 0xffff_fffe },
    ]
}

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A small rigid scene at `version` for the band edges: `obj_words` 4 or 5, `clump_bind`
/// (a bind pose per node or none), a Material of `mat_words`, and a rigid model with or
/// without the outline words — sizes that a 0x111/0x120 file decides by (docs/formats/ccsf-gen2.md#version-bands).
pub fn edge(name: &str, version: u16, obj_words: u32, clump_bind: bool, mat_words: u32, outline: bool) -> CcsFile {
    let mut f = file(name, version, 0, &["CMP_e", "OBJ_e", "MDL_e", "MDL_e_0", "MAT_e"]);
    let (cmp, obj, mdl, mdl0, mat) = (f.obj("CMP_e"), f.obj("OBJ_e"), f.obj("MDL_e"), f.obj("MDL_e_0"), f.obj("MAT_e"));
    f.chunks.push(if obj_words == 5 {
        Chunk::Obj5 { object: obj, parent: 0, model: mdl, shadow: 0, extra: 0 }
    } else {
        Chunk::Obj { object: obj, parent: 0, model: mdl, shadow: 0 }
    });
    f.chunks.push(if clump_bind {
        Chunk::ClumpBind { object: cmp, nodes: vec![obj], bind: vec![bind([0.0, 0.0, 1.0], [0.0, 0.0, 0.0])] }
    } else {
        Chunk::Clump { object: cmp, nodes: vec![obj] }
    });
    let shader = [0x8080_8080, 1, 0x4040_4040, 0, 1.0f32.to_bits(), 1, 0, 0.5f32.to_bits(), 8.0f32.to_bits()];
    let multi = [0, 0x0001_0002, 1.0f32.to_bits(), 1.0f32.to_bits(), 0, 0, 0.1f32.to_bits(), 0, 0x0000_00ff];
    f.chunks.push(Chunk::Material2 {
        object: mat,
        texture: 0,
        alpha: 0.5,
        offset: [0x0800, 0x0400],
        scale: (mat_words >= 5).then_some([0x1000, 0x2000]),
        shader: (mat_words >= 14).then_some(shader),
        multi: (mat_words >= 23).then_some(multi),
    });
    let v = version;
    f.chunks.push(Chunk::Model2(Model2 {
        object: mdl,
        scale: 256.0,
        mtype: 0,
        mflags: 0,
        flag: [0, 0],
        tbn: false,
        outline: outline.then_some(([0, 0, 0, 0], 1.0)),
        lookup: None,
        mmats: vec![Mmat2::Rigid { name: mdl0, material: mat, verts: quad(v) }],
        size_surplus: 0,
    }));
    f.chunks.extend(sample_frames());
    f
}

/// The sections of a triangle-list quad (docs/formats/ccsf-gen2.md#mmats): 4 position records (flags 33,
/// skin word 0x0300: weight 1.0, last, slot 0), 4 normals (0, 0, 64), 4 UVs, 4 flag bytes
/// `1 1 0 0`, 6 indices `0 1 2 2 1 3` (2 triangles, counter-clockwise seen from +z) and the
/// clump index. Every section's vertexScale is the model's 256.0.
pub fn tri_quad(clump: u32) -> Vec<TriSection2> {
    let sec = |flags, kind, count, payload: Vec<u8>| TriSection2 { flags, kind, count, scale: 256.0, payload };
    let le = |v: &[i16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let pos = le(&[0, 0, 0, 0x300, 256, 0, 0, 0x300, 0, 256, 0, 0x300, 256, 256, 0, 0x300]);
    vec![
        sec(33, 32, 4, pos),
        sec(0, 0, 4, [0u8, 0, 64].repeat(4)),
        sec(0, 1, 4, le(&[0, 0, 256, 0, 0, 256, 256, 256])),
        sec(0, 7, 4, vec![1, 1, 0, 0]),
        sec(0, 8, 6, le(&[0, 1, 2, 2, 1, 3])),
        sec(0, 33, 1, clump.to_le_bytes().to_vec()),
    ]
}

/// A band-B4 (0x123) scene with one triangle-list model (mtype 2, docs/formats/ccsf-gen2.md#mmats) of one
/// mmat: [`tri_quad`], so 4 vertices and 2 triangles.
pub fn scene_tri() -> CcsFile {
    let mut f = file("g123t", 0x123, 0, &["CMP_t", "OBJ_t", "MDL_t", "MAT_t"]);
    let (cmp, obj, mdl, mat) = (f.obj("CMP_t"), f.obj("OBJ_t"), f.obj("MDL_t"), f.obj("MAT_t"));
    f.chunks.push(Chunk::Obj5 { object: obj, parent: 0, model: mdl, shadow: 0, extra: 0 });
    f.chunks.push(Chunk::ClumpBind { object: cmp, nodes: vec![obj], bind: vec![bind([0.0; 3], [0.0; 3])] });
    f.chunks.push(Chunk::Material2 {
        object: mat,
        texture: 0,
        alpha: 1.0,
        offset: [0, 0],
        scale: Some([0x1000, 0x1000]),
        shader: None,
        multi: None,
    });
    f.chunks.push(Chunk::Model2(Model2 {
        object: mdl,
        scale: 256.0,
        mtype: 2,
        mflags: 0,
        flag: [0, 0x10],
        tbn: false,
        outline: Some(([0, 0, 0, 0], 1.0)),
        lookup: None,
        mmats: vec![Mmat2::TriList { material: mat, sections: tri_quad(cmp) }],
        size_surplus: 0,
    }));
    f.chunks.extend(sample_frames());
    f
}

/// DXT1 blocks of an 8×4 BTX texture: block 0 four-colour (c0 red > c1 blue; top row
/// index 1 = blue, the rest index 0 = red), block 1 three-colour (c0 blue ≤ c1 red; every
/// index 3 = transparent black).
pub(in crate::formats) const DXT1_8X4: [u8; 16] = [
    0x00, 0xf8, 0x1f, 0x00, 0x55, 0x00, 0x00, 0x00, // c0 0xF800, c1 0x001F, row 0 index 1
    0x1f, 0x00, 0x00, 0xf8, 0xff, 0xff, 0xff, 0xff, // c0 0x001F, c1 0xF800, all index 3
];

/// One DXT5 block of a 4×4 BTX texture: alpha 255/0 (8-value mode), texel 0 alpha index 1
/// (= 0), the rest index 0 (= 255); colour c0 green, every index 0.
pub(in crate::formats) const DXT5_4X4: [u8; 16] = [
    0xff, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, // a0 255, a1 0, texel 0 → index 1
    0xe0, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // c0 0x07E0, c1 0, all index 0
];

/// A band-B5 (0x125) scene of the records the addendum gives layouts for beyond G1's: a 3×2
/// PSMT8 non-power-of-two texture (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two, SC's reading, through a 16-colour Clut; size +50
/// words), an 8×4 DXT1 and a 4×4 DXT5 BTX texture (true sizes), each on its own Material
/// and mmat of one rigid model (three quads, so 12 vertices and 6 triangles, 3 images); an
/// Effect with an 8.8 `zoffs` (docs/formats/ccsf-gen2.md#eff-0x0e00); a ParticleGenerator and a ParticleAnmCtrl (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90).
pub fn scene_125_textures() -> CcsFile {
    let names = [
        "OBJ_tex",
        "MDL_tex",
        "MDL_tex_0",
        "MDL_tex_1",
        "MDL_tex_2",
        "MAT_npot",
        "MAT_dxt1",
        "MAT_dxt5",
        "TEX_npot",
        "TEX_dxt1",
        "TEX_dxt5",
        "CLT_npot",
        "EFF_spark",
        "PTC_gen",
        "PTC_anm",
        "ANM_ptc",
        "CMP_ptc",
    ];
    let v = 0x125;
    let mut f = file("g125n", v, 0, &names);
    let o = |n: &str| f.obj(n);
    let (obj, mdl, sub) = (o("OBJ_tex"), o("MDL_tex"), [o("MDL_tex_0"), o("MDL_tex_1"), o("MDL_tex_2")]);
    let mats = [o("MAT_npot"), o("MAT_dxt1"), o("MAT_dxt5")];
    let texs = [o("TEX_npot"), o("TEX_dxt1"), o("TEX_dxt5")];
    let clt = o("CLT_npot");
    let (eff, pgen, anm, anime, cmp) = (o("EFF_spark"), o("PTC_gen"), o("PTC_anm"), o("ANM_ptc"), o("CMP_ptc"));
    f.chunks.push(Chunk::Obj5 { object: obj, parent: 0, model: mdl, shadow: 0, extra: 0 });
    // Effect with zoffs 0x0180 = 1.5 (8.8 fixed point from 0x122) and 2 patterns
    f.chunks.push(Chunk::Eff {
        object: eff,
        texture: texs[1],
        flag: 2,
        zoffs: 0x0180,
        unknown: 0,
        quad: [-1.0, -1.0, 1.0, 1.0],
        size: [2048, 4096],
        patterns: vec![[0, 0, 4096], [2048, 0, 2048]],
    });
    // a generator with one force field and two resources (8 bytes each above 0x122), and
    // its animation controller (one controller of 3 frames: busy, idle, busy)
    f.chunks.push(Chunk::ParticleGen {
        object: pgen,
        unknown: 0,
        params: ParticleParams { fade_in: 1024, fade_out: 2048, f32_16: 1.0, ..Default::default() },
        force_fields: vec![ForceField {
            unknown_4: 0,
            field_type: 1,
            unknown_8: 0,
            params: [0.0, 0.0, -9.8, 0.0, 1.0],
        }],
        resources: vec![(eff, [0, 0, 0, 0]), (cmp, [1, 0, 0, 0])],
    });
    f.chunks.push(Chunk::ParticleAnm { object: anm, animation: anime, ctrls: vec![(pgen, obj, 0, 0, vec![1, 2, 1])] });
    for (m, t) in mats.iter().zip(texs) {
        f.chunks.push(Chunk::Material2 {
            object: *m,
            texture: t,
            alpha: 1.0,
            offset: [0, 0],
            scale: Some([0x1000, 0x1000]),
            shader: None,
            multi: None,
        });
    }
    f.chunks.push(Chunk::Model2(Model2 {
        object: mdl,
        scale: 256.0,
        mtype: 0,
        mflags: 0,
        flag: [0, 0x10],
        tbn: false,
        outline: Some(([0, 0, 0, 0], 1.0)),
        lookup: None,
        mmats: sub.iter().zip(mats).map(|(n, m)| Mmat2::Rigid { name: *n, material: m, verts: quad(v) }).collect(),
        size_surplus: 0,
    }));
    f.chunks.extend([
        Chunk::Clut { clut: clt, blt_group: 0, flag: 1, buf: [0x3c0, 0x1a0], colours: palette16() },
        Chunk::TextureNpot {
            texture: texs[0],
            clut: clt,
            flag: 1,
            psm: 0x13,
            width: 3,
            height: 2,
            // bottom row 0 1 0, top row 1 0 1 (8-bit indices), 2 zero bytes to the word
            pixels: vec![0, 1, 0, 1, 0, 1, 0, 0],
            mips: vec![],
            size_surplus: 50,
        },
        Chunk::TextureBtx {
            texture: texs[1],
            flag: 1,
            psm: 0x87,
            tw: 3,
            th: 2,
            width: 8,
            height: 4,
            name: "dxt1".into(),
            blocks: DXT1_8X4.to_vec(),
            size_surplus: 0,
        },
        Chunk::TextureBtx {
            texture: texs[2],
            flag: 1,
            psm: 0x89,
            tw: 2,
            th: 2,
            width: 4,
            height: 4,
            name: "dxt5".into(),
            blocks: DXT5_4X4.to_vec(),
            size_surplus: 0,
        },
    ]);
    f.chunks.extend(sample_frames());
    f
}

/// Gen-2 fixture files (name, bytes).
pub fn gen2_files() -> Vec<(String, Vec<u8>)> {
    vec![
        ("g123.ccs".to_string(), write(&scene_123(0))),
        ("g123x.ccs".to_string(), write(&scene_123(0x1234_5678))),
        ("g125.ccs".to_string(), write(&scene_125())),
        ("g123t.ccs".to_string(), write(&scene_tri())),
        ("g125n.ccs".to_string(), write(&scene_125_textures())),
        // band edges: each at its band's own layout ...
        ("g110.ccs".to_string(), write(&edge("g110", 0x110, 4, false, 4, false))),
        ("g130.ccs".to_string(), write(&edge("g130", 0x130, 5, true, 14, true))),
        ("g131.ccs".to_string(), write(&edge("g131", 0x131, 5, true, 23, true))),
        // ... and the disputed ones read by their sizes: 0x111 with SC's layouts (no bind
        // pose, no outline words), 0x120 with SC's 5-word Obj
        ("g111.ccs".to_string(), write(&edge("g111", 0x111, 4, false, 4, false))),
        ("g120.ccs".to_string(), write(&edge("g120", 0x120, 5, true, 5, true))),
        // band B2 (0x115): the lookup list by AH's rule, and without it as SC reads B2
        ("g115.ccs".to_string(), write(&scene_b2(true))),
        ("g115s.ccs".to_string(), b2_sc_reading()),
        // exports on real scene structures: binds four deep, a shared material name
        ("g123rig.ccs".to_string(), write(&scene_rig())),
    ]
}

/// Gen-2 expected failures (`x_` files) and `g123s15.ccs`, which walks clean but has a
/// `check` finding (so it is neither an `x_` file nor among the finding-free [`gen2_files`]).
pub fn gen2_bad_files() -> Vec<(String, Vec<u8>)> {
    let g = write(&scene_123(0));
    let mut below = write(&edge("x_below", 0x110, 4, false, 4, false));
    // version 0x8f: below every known band
    if let Some(s) = below.get_mut(0x2c..0x2e) {
        s.copy_from_slice(&0x8fu16.to_le_bytes());
    }
    // the Binary Blob's size runs past the end of the file
    let mut blob = g.clone();
    if let Some(at) = find(&g, 0x2400)
        && let Some(s) = blob.get_mut(at + 4..at + 8)
    {
        s.copy_from_slice(&0x0001_0000u32.to_le_bytes());
    }
    // the file ends inside a Model's outline words (header +20..+28)
    let e = write(&edge("x_trunc", 0x123, 5, true, 5, true));
    let cut = find(&e, 0x0800).map_or(e.len(), |at| at + 8 + 24);
    let trunc = e.get(..cut).unwrap_or(&e).to_vec();
    // the unlit deformable model (2 mmats) declares G1's "+15 words per mmat" (addendum
    // docs/formats/ccsf-gen2.md#walker): the walk takes the decoder's end, `check` reports the size
    let mut plus = scene_123(0);
    if let Some(Chunk::Model2(m)) = plus.chunks.iter_mut().find(|c| matches!(c, Chunk::Model2(m) if m.lookup.is_some()))
    {
        m.size_surplus = 15 * m.mmats.len() as i32;
    }
    // band B2 (0x115): the file ends one byte into `MDL_skin`'s lookup list (header +28,
    // after the lookupCount byte at +16 says 3 entries): neither reading fits the data
    let b2 = write(&scene_b2(true));
    let skin = scene_b2(true).obj("MDL_skin");
    let object_at = |at: usize| b2.get(at + 8..at + 12).and_then(|w| w.try_into().ok()).map(u32::from_le_bytes);
    let cut = find_where(&b2, 0x0800, |at| object_at(at) == Some(skin)).map_or(b2.len(), |at| at + 8 + 28 + 1);
    let lookup = b2.get(..cut).unwrap_or(&b2).to_vec();
    vec![
        ("g123s15.ccs".into(), write(&plus)),
        ("x_gen2_lookup_truncated.ccs".into(), lookup),
        ("x_version_below_0x90.ccs".into(), below),
        ("x_gen2_blob_past_end.ccs".into(), blob),
        ("x_gen2_model_truncated.ccs".into(), trunc),
    ]
}

/// Offset of the first chunk of `kind` in a gen-2 file written by [`write`] (Textures are
/// walked by their levels, every other chunk by its size).
pub fn find(data: &[u8], kind: u16) -> Option<usize> {
    find_where(data, kind, |_| true)
}

/// Offset of the first chunk of `kind` whose offset `pick` accepts (see [`find`]).
fn find_where(data: &[u8], kind: u16, pick: impl Fn(usize) -> bool) -> Option<usize> {
    let b = crate::bytes::Bytes::new(data);
    let mut p = 0usize;
    while p + 8 <= data.len() {
        let h: super::raw::ChunkHeader = crate::formats::record::read_at(&b, p as u64).ok()?;
        if *h.kind == kind && pick(p) {
            return Some(p);
        }
        p = if *h.kind == 0x0300 {
            super::walk::texture_end2(&b, p as u64).ok()? as usize
        } else {
            p + 8 + 4 * *h.size as usize
        };
    }
    None
}

/// The bind pose local `T(pos) · Rx·Ry·Rz(rot°)` of a clump node, as posing builds it.
fn bind_local(b: &Bind) -> glam::Mat4 {
    let v = |a: [f32; 3]| glam::Vec3::from_array(a);
    let rot = super::anime::rot_xyz(v(b[1]) * (std::f32::consts::PI / 180.0));
    super::anime::local_matrix(v(b[0]), rot, v(b[2]))
}

/// A point or direction rounded to the stored integers (the skin's entries below are chosen
/// so that this loses nothing: the tests compare the skin posed through every node exactly).
fn whole(v: glam::Vec3) -> [i32; 3] {
    v.round().as_ivec3().to_array()
}

/// A rigged v0x123 scene shaped like the real later-generation scenes where exports went
/// wrong (see the fixtures README): clump nodes with non-identity bind poses four deep
/// (bind translations up to 1,208 units, rotations about every axis) under parented Objs,
/// a second clump whose two props are parented, rigid meshes owned by nodes at depths 1, 2
/// and 4, a deformable model with a bone mmat and a skin mmat whose 1-, 2- and 3-entry
/// vertices are one point in every node's space at the bind pose (as real skins are),
/// two Material chunks with the same name `MAT_cloth` pointing at different textures,
/// and an Anime of 8 frames that drives four nodes (one controller omits its position,
/// as some real Animes do) and leaves the others at their bind.
pub fn scene_rig() -> CcsFile {
    let mut f = file("rig", 0x123, 0, &RIG_NAMES);
    // by position: two objects share the name MAT_cloth
    let at = |i: usize| i as u32 + 1;
    let (cmp, hips, spine, arm, hand, cmp_lamp, lamp, shade) = (at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7));
    let (body, mhand, mhand0, mlamp, mlamp0, mshade, mshade0) = (at(8), at(9), at(10), at(11), at(12), at(13), at(14));
    let (cloth_a, cloth_b, wood, tex_a, clt_a, tex_b, clt_b, anm) =
        (at(15), at(16), at(17), at(18), at(19), at(20), at(21), at(22));
    let rig_binds: Vec<Bind> = vec![
        [[0.0, 0.0, 1208.0], [0.0, 0.0, 30.0], [1.0; 3]],
        [[0.0, 0.0, 300.0], [0.0, 0.0, 90.0], [1.0; 3]],
        RIG_BIND_ARM,
        RIG_BIND_HAND,
    ];
    let lamp_binds: Vec<Bind> =
        vec![[[-640.0, 380.0, 0.0], [0.0, 0.0, 45.0], [1.0; 3]], [[0.0, 0.0, 150.0], [20.0, -35.0, 0.0], [1.0; 3]]];
    f.chunks.extend([
        Chunk::ClumpBind { object: cmp, nodes: vec![hips, spine, arm, hand], bind: rig_binds.clone() },
        Chunk::ClumpBind { object: cmp_lamp, nodes: vec![lamp, shade], bind: lamp_binds },
        Chunk::Obj5 { object: hips, parent: 0, model: body, shadow: 0, extra: 4 },
        Chunk::Obj5 { object: spine, parent: hips, model: 0, shadow: 0, extra: 4 },
        Chunk::Obj5 { object: arm, parent: spine, model: 0, shadow: 0, extra: 4 },
        Chunk::Obj5 { object: hand, parent: arm, model: mhand, shadow: 0, extra: 4 },
        Chunk::Obj5 { object: lamp, parent: 0, model: mlamp, shadow: 0, extra: 4 },
        Chunk::Obj5 { object: shade, parent: lamp, model: mshade, shadow: 0, extra: 4 },
        rig_material(cloth_a, tex_a),
        rig_material(cloth_b, tex_b),
        rig_material(wood, tex_a),
        rig_body(body, cloth_a, cloth_b),
        rig_rigid(mhand, mhand0, wood, 40),
        rig_rigid(mlamp, mlamp0, cloth_b, 90),
        rig_rigid(mshade, mshade0, cloth_a, 60),
        rig_anime(anm, spine, arm, hand, lamp),
        rig_clut(clt_a, [0x80, 0x10, 0x10, 0x80], [0x10, 0x80, 0x10, 0x80]),
        rig_texture(tex_a, clt_a, vec![0x10, 0x10, 0x10, 0x10]),
        rig_clut(clt_b, [0x10, 0x10, 0x80, 0x80], [0x80, 0x80, 0x80, 0x80]),
        rig_texture(tex_b, clt_b, vec![0x01, 0x01, 0x01, 0x01]),
    ]);
    f.chunks.extend(sample_frames());
    f
}

/// The objects of [`scene_rig`], in Index order (two share the name `MAT_cloth`).
const RIG_NAMES: [&str; 23] = [
    "CMP_rig",
    "OBJ_hips",
    "OBJ_spine",
    "OBJ_arm",
    "OBJ_hand",
    "CMP_lamp",
    "OBJ_lamp",
    "OBJ_shade",
    "MDL_body",
    "MDL_hand",
    "MDL_hand_0",
    "MDL_lamp",
    "MDL_lamp_0",
    "MDL_shade",
    "MDL_shade_0",
    "MAT_cloth",
    "MAT_cloth",
    "MAT_wood",
    "TEX_a",
    "CLT_a",
    "TEX_b",
    "CLT_b",
    "ANM_wave",
];

/// The bind poses of [`scene_rig`]'s arm and hand nodes, which its skin entries are placed by.
const RIG_BIND_ARM: Bind = [[250.0, 0.0, 0.0], [90.0, 0.0, 0.0], [1.0; 3]];
const RIG_BIND_HAND: Bind = [[0.0, 200.0, 0.0], [0.0, 0.0, -90.0], [1.0; 3]];

/// [`scene_rig`]'s skin entries: points in the arm's space, stored in the space of each node
/// they use (slots index the lookup list [spine, arm, hand]); 1-, 2- and 3-entry vertices.
fn rig_skin_entries() -> Vec<Entry2> {
    let (l_arm, l_hand) = (bind_local(&RIG_BIND_ARM), bind_local(&RIG_BIND_HAND));
    let entry = |p: [f32; 3], slot: i16, weight: i16, last: bool, flag: u8| {
        let m = match slot {
            0 => l_arm,
            1 => glam::Mat4::IDENTITY,
            _ => l_hand.inverse(),
        };
        let pos = whole(m.transform_point3(glam::Vec3::from_array(p))).map(|x| x as i16);
        let normal = whole(m.transform_vector3(glam::Vec3::Z) * 64.0).map(|x| x as i8);
        Entry2 { pos, weight, last, slot, normal, flag }
    };
    let (p0, p1, p2, p3) = ([10.0, 20.0, 30.0], [40.0, 20.0, 30.0], [10.0, 60.0, 30.0], [40.0, 60.0, 30.0]);
    vec![
        entry(p0, 1, 256, true, 1),
        entry(p1, 1, 128, false, 0),
        entry(p1, 2, 128, true, 1),
        entry(p2, 0, 192, false, 0),
        entry(p2, 1, 64, true, 0),
        entry(p3, 0, 64, false, 0),
        entry(p3, 1, 128, false, 0),
        entry(p3, 2, 64, true, 0),
    ]
}

/// [`scene_rig`]'s unlit deformable model: lookup [spine, arm, hand]; a bone mmat on slot 0
/// (the spine) and the skin of [`rig_skin_entries`].
fn rig_body(body: u32, cloth_a: u32, cloth_b: u32) -> Chunk {
    let v = 0x123;
    let skin_entries = rig_skin_entries();
    Chunk::Model2(Model2 {
        object: body,
        scale: 4096.0,
        mtype: 4,
        mflags: 0,
        flag: [0, 0x10],
        tbn: false,
        outline: Some(([0, 0, 0, 0], 1.0)),
        lookup: Some(vec![1, 2, 3]),
        mmats: vec![
            Mmat2::Bone {
                material: cloth_a,
                node: 0,
                verts: vec![
                    vx([0, 0, 0], 1, uv(v, 0.0, 0.0)),
                    vx([0, 120, 0], 1, uv(v, 1.0, 0.0)),
                    vx([80, 0, 0], 0, uv(v, 0.0, 1.0)),
                ],
            },
            Mmat2::Skin {
                material: cloth_b,
                entries: skin_entries,
                uvs: vec![uv(v, 0.0, 0.0), uv(v, 1.0, 0.0), uv(v, 0.0, 1.0), uv(v, 1.0, 1.0)],
            },
        ],
        size_surplus: 0,
    })
}

/// A rigid model of [`scene_rig`]: one square mmat of side `size`.
fn rig_rigid(object: u32, name: u32, material: u32, size: i16) -> Chunk {
    let (v, s) = (0x123, size);
    let square = vec![
        vx([0, 0, 0], 1, uv(v, 0.0, 0.0)),
        vx([s, 0, 0], 1, uv(v, 1.0, 0.0)),
        vx([0, s, 0], 0, uv(v, 0.0, 1.0)),
        vx([s, s, 0], 0, uv(v, 1.0, 1.0)),
    ];
    Chunk::Model2(Model2 {
        object,
        scale: 4096.0,
        mtype: 0,
        mflags: 0,
        flag: [0, 0x10],
        tbn: false,
        outline: Some(([0, 0, 0, 0], 1.0)),
        lookup: None,
        mmats: vec![Mmat2::Rigid { name, material, verts: square }],
        size_surplus: 0,
    })
}

/// A Material of [`scene_rig`] on `texture`.
fn rig_material(object: u32, texture: u32) -> Chunk {
    Chunk::Material2 {
        object,
        texture,
        alpha: 1.0,
        offset: [0, 0],
        scale: Some([0x1000, 0x1000]),
        shader: None,
        multi: None,
    }
}

/// A 4×2 PSMT4 texture of [`scene_rig`] (stripes of two CLUT colours each: TEX_a
/// red/green, TEX_b blue/white).
fn rig_texture(texture: u32, clut: u32, pixels: Vec<u8>) -> Chunk {
    Chunk::Texture {
        texture,
        clut,
        blt_group: 0,
        flag: 1,
        psm: 0x14,
        aref: 0x70,
        tw: 2,
        th: 1,
        levels: vec![(0x380, 0x1c0, pixels)],
        size_surplus: 50,
    }
}

/// A 16-colour Clut of [`scene_rig`]: `a`, `b`, then opaque black.
fn rig_clut(clut: u32, a: [u8; 4], b: [u8; 4]) -> Chunk {
    let mut colours = vec![a, b];
    colours.resize(16, [0, 0, 0, 0x80]);
    Chunk::Clut { clut, blt_group: 0, flag: 1, buf: [0x3c0, 0x1a0], colours }
}

/// [`scene_rig`]'s Anime: 8 frames driving the spine, arm, hand (no position controller)
/// and lamp.
fn rig_anime(anm: u32, spine: u32, arm: u32, hand: u32, lamp: u32) -> Chunk {
    let mut r = vec![
        Chunk::Top { frame: 0 },
        Chunk::ObjCtrl {
            object: spine,
            pos: Ctrl::vec3([0.0, 0.0, 300.0]),
            rot: Ctrl::keys3(&[(0, [0.0, 0.0, 90.0]), (7, [0.0, 20.0, 120.0])]),
            scale: Ctrl::Absent,
            alpha: Ctrl::Absent,
        },
        Chunk::ObjCtrl {
            object: arm,
            pos: Ctrl::keys3(&[(0, [250.0, 0.0, 0.0]), (4, [250.0, 40.0, 0.0]), (7, [260.0, 0.0, 10.0])]),
            rot: Ctrl::keys3(&[(0, [90.0, 0.0, 0.0]), (7, [60.0, 10.0, 0.0])]),
            scale: Ctrl::Absent,
            alpha: Ctrl::Absent,
        },
        // no position controller: the hand's position is the default, not its bind
        Chunk::ObjCtrl {
            object: hand,
            pos: Ctrl::Absent,
            rot: Ctrl::keys3(&[(0, [0.0, 0.0, -90.0]), (7, [30.0, 0.0, -60.0])]),
            scale: Ctrl::Absent,
            alpha: Ctrl::Absent,
        },
        Chunk::ObjCtrl {
            object: lamp,
            pos: Ctrl::keys3(&[(0, [-640.0, 380.0, 0.0]), (7, [-600.0, 400.0, 50.0])]),
            rot: Ctrl::vec3([0.0, 0.0, 45.0]),
            scale: Ctrl::Absent,
            alpha: Ctrl::Absent,
        },
    ];
    r.extend((1..8).map(|frame| Chunk::Top { frame }));
    r.push(Chunk::Top { frame: 0xffff_ffff });
    Chunk::Anime { object: anm, frames: 8, records: r }
}
