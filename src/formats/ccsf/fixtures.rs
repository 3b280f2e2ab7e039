//! The CCSF fixture scenes (docs/formats/ccsf.md#writing-synthetic-files), built with the writer: the committed fixtures under
//! `fixtures/ccsf/`, the expected-failure files, and the scenes tests and benches build on
//! (`mini`, `chara`, `town`, `old`, `stream_pair`).

use super::write::{CcsFile, Chunk, Ctrl, Entry, Mmat, Model, Vert, write};

/// The DATA.BIN-style empty frame section: Frame(1), Top −1.
pub fn empty_frame_section() -> Vec<Chunk> {
    vec![Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0xffff_ffff }]
}

/// A file of `version` named `name` with its source `files`, the `objects` in index order
/// (file 1 each) and a Setup chunk: what every fixture scene starts from.
fn scene(name: &str, version: u16, frames: u32, files: &[(u8, &str)], objects: &[&str]) -> CcsFile {
    CcsFile {
        name: name.into(),
        version,
        frames,
        files: files.iter().map(|(k, p)| (*k, p.to_string())).collect(),
        objects: objects.iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    }
}

fn v(pos: [i16; 3], n: [i8; 3], flag: u8, st: [u16; 2]) -> Vert {
    Vert { pos, normal: n, flag, colour: [0x80, 0x40, 0x20, 0x80], st }
}

/// The mini scene: CLUT, 4-bit 4×4 texture, material, a rigid quad (strip 1 1 0 0).
pub fn mini() -> CcsFile {
    let objects = ["CLT_mini", "TEX_mini", "MAT_mini", "MDL_mini", "OBJ_mini"];
    let mut f = scene("mini", 0x100, 0, &[(b' ', "x\\mini\\tex\\mini.bmp")], &objects);
    let (clt, tex, mat, mdl, obj) =
        (f.obj("CLT_mini"), f.obj("TEX_mini"), f.obj("MAT_mini"), f.obj("MDL_mini"), f.obj("OBJ_mini"));
    let mut colours = vec![[0u8, 0, 0, 0x80], [0xff, 0, 0, 0x80], [0, 0xff, 0, 0x80], [0, 0, 0xff, 0x40]];
    colours.resize(16, [0, 0, 0, 0x80]);
    // 4×4 4-bit: stored bottom row first, low nibble = left pixel.
    let px = vec![0x21, 0x03, 0x00, 0x00, 0x00, 0x00, 0x33, 0x33];
    f.chunks.extend([
        Chunk::Clut { clut: clt, blt_group: 0, flag: 1, buf: [768, 768], colours },
        Chunk::Texture {
            texture: tex,
            clut: clt,
            blt_group: 0,
            flag: 0,
            psm: 0x14,
            aref: 0x70,
            tw: 2,
            th: 2,
            levels: vec![(768, 0, px)],
            size_surplus: 50,
        },
        Chunk::Material { object: mat, texture: tex, transparency: 1.0, crop: [0, 0] },
        Chunk::Model(Model {
            object: mdl,
            scale: 256.0,
            mtype: 0,
            flag: 0,
            mmats: vec![Mmat::Rigid {
                name: 0,
                material: mat,
                verts: vec![
                    v([0, 0, 0], [0, 0, 64], 1, [0, 0]),
                    v([16, 0, 0], [0, 0, 64], 1, [256, 0]),
                    v([0, 16, 0], [0, 0, 64], 0, [0, 256]),
                    v([16, 16, 0], [0, 0, 64], 0, [256, 256]),
                ],
            }],
            size_surplus: 0,
        }),
        Chunk::Obj { object: obj, parent: 0, model: mdl, shadow: 0 },
    ]);
    f.chunks.extend(empty_frame_section());
    f
}

/// The character scene: clump of three nodes (root → hip → leg), a bone+skin model with
/// the disc's +15 words per mmat, a shadow model (one empty, one with triangles), a
/// rigid prop with absent arrays and an odd vertex count, ExtObj copies driven by an
/// Anime (keyed position, keyed rotation, constant scale; loop), a Bbox, and one of every
/// other simple setup chunk.
pub fn chara() -> CcsFile {
    let names = [
        "OBJ_root",
        "OBJ_hip",
        "OBJ_leg",
        "CMP_chara",
        "MDL_body",
        "MAT_body",
        "MDL_shadow",
        "MDL_prop",
        "MDL_prop_1",
        "OBJ_prop",
        "OBJ_hip_c",
        "OBJ_leg_c",
        "ANM_walk",
        "BOX_bbox",
        "CAM_main",
        "LGT_sun",
        "HIT_floor",
        "DMY_a",
        "DMY_b",
        "MPH_face",
        "OBJ_xnote",
        "EFF_spark",
        "MAT_spark",
    ];
    let mut f =
        scene("chara", 0x100, 0, &[(b' ', "c\\chara\\max\\chara.max"), (b'#', "c\\common\\max\\common.max")], &names);
    let o = |n: &str| f.obj(n);
    let (root, hip, leg, cmp, body, shadow, prop, oprop) = (
        o("OBJ_root"),
        o("OBJ_hip"),
        o("OBJ_leg"),
        o("CMP_chara"),
        o("MDL_body"),
        o("MDL_shadow"),
        o("MDL_prop"),
        o("OBJ_prop"),
    );
    let (mat, hipc, legc, anm, note) = (o("MAT_body"), o("OBJ_hip_c"), o("OBJ_leg_c"), o("ANM_walk"), o("OBJ_xnote"));
    let mut chunks = chara_models(&f);
    chunks.extend([
        Chunk::Obj { object: root, parent: 0, model: 0, shadow: 0 },
        Chunk::Obj { object: hip, parent: root, model: body, shadow },
        Chunk::Obj { object: leg, parent: hip, model: 0, shadow: 0 },
        Chunk::Obj { object: oprop, parent: leg, model: prop, shadow: 0 },
        Chunk::Clump { object: cmp, nodes: vec![root, hip, leg] },
        Chunk::ExtObj { object: hipc, parent: root, target: hip },
        Chunk::ExtObj { object: legc, parent: hip, target: leg },
        Chunk::Anime {
            object: anm,
            frames: 5,
            records: vec![
                Chunk::Top { frame: 0 },
                Chunk::ObjCtrl {
                    object: hipc,
                    pos: Ctrl::keys3(&[(0, [0.0, 0.0, 10.0]), (4, [4.0, 0.0, 10.0])]),
                    rot: Ctrl::keys3(&[(0, [0.0, 0.0, 0.0]), (4, [0.0, 0.0, 90.0])]),
                    scale: Ctrl::vec3([1.0, 1.0, 1.0]),
                    alpha: Ctrl::Absent,
                },
                Chunk::ObjCtrl {
                    object: legc,
                    pos: Ctrl::vec3([0.0, 0.0, -5.0]),
                    rot: Ctrl::vec3([30.0, 0.0, 0.0]),
                    scale: Ctrl::Absent,
                    alpha: Ctrl::keys1(&[(1, 1.0), (3, 0.5)]),
                },
                Chunk::MatCtrl { material: mat, u: Ctrl::keys1(&[(0, 0.0), (4, 1.0)]), v: Ctrl::Absent },
                Chunk::Top { frame: 1 },
                Chunk::FNote { object: note, event: 2, param: 7 },
                Chunk::Top { frame: 2 },
                Chunk::Top { frame: 3 },
                Chunk::Top { frame: 4 },
                Chunk::Top { frame: 0xffff_fffe },
            ],
        },
    ]);
    chunks.extend(chara_others(&f));
    f.chunks.extend(chunks);
    f.chunks.extend(empty_frame_section());
    f
}

/// [`chara`]'s Material and Models: the bone+skin body with the disc's +15 words per mmat,
/// the shadow model (one empty mmat, one with triangles) and the rigid prop with absent
/// arrays and an odd vertex count.
fn chara_models(f: &CcsFile) -> Vec<Chunk> {
    let o = |n: &str| f.obj(n);
    let (body, mat, shadow, prop, prop1) =
        (o("MDL_body"), o("MAT_body"), o("MDL_shadow"), o("MDL_prop"), o("MDL_prop_1"));
    let n = [0i8, 0, 64];
    let bone_verts = vec![v([0, 0, 0], n, 1, [0, 0]), v([64, 0, 0], n, 1, [256, 0]), v([0, 64, 0], n, 0, [0, 256])];
    let e =
        |pos: [i16; 3], weight: u16, last: bool, slot: u8, flag: u8| Entry { pos, weight, last, slot, normal: n, flag };
    let entries = vec![
        // vertex 0: two entries (slots 1 and 2, 0.5 each)
        e([0, 0, 32], 128, false, 1, 0),
        e([0, 0, -32], 128, true, 2, 1),
        // vertex 1: one entry on slot 1
        e([64, 0, 0], 256, true, 1, 1),
        // vertex 2: three entries (0.25, 0.25, 0.5)
        e([0, 64, 0], 64, false, 0, 0),
        e([0, 64, 0], 64, false, 1, 0),
        e([0, 64, 16], 128, true, 2, 0),
    ];
    let prop_verts: Vec<Vert> = (0..5).map(|i| v([i * 10, (i % 2) * 10, 0], n, u8::from(i < 2), [0, 0])).collect();
    vec![
        Chunk::Material { object: mat, texture: 0, transparency: 1.0, crop: [0, 0] },
        Chunk::Model(Model {
            object: body,
            scale: 1024.0,
            mtype: 5,
            flag: 1,
            mmats: vec![
                Mmat::Bone { material: mat, node: 2, verts: bone_verts },
                Mmat::Skin { material: mat, entries, sts: vec![[0, 0], [256, 0], [0, 256]] },
            ],
            size_surplus: 30,
        }),
        Chunk::Model(Model {
            object: shadow,
            scale: 256.0,
            mtype: 8,
            flag: 0,
            mmats: vec![
                Mmat::Shadow { positions: vec![], triangles: vec![], inum: Some(7) },
                Mmat::Shadow {
                    positions: vec![[0, 0, 0], [16, 0, 0], [0, 16, 0], [0, 0, 16], [8, 8, 8]],
                    triangles: vec![[0, 1, 2], [0, 1, 3], [1, 2, 3], [0, 2, 3]],
                    inum: Some(13),
                },
            ],
            size_surplus: 0,
        }),
        Chunk::Model(Model {
            object: prop,
            scale: 4096.0,
            mtype: 0x641,
            flag: 0,
            mmats: vec![Mmat::Rigid { name: prop1, material: 0, verts: prop_verts }],
            size_surplus: 0,
        }),
    ]
}

/// [`chara`]'s Bbox and one of every other simple setup chunk.
fn chara_others(f: &CcsFile) -> Vec<Chunk> {
    let o = |n: &str| f.obj(n);
    let (root, hip, body, bbox, cam, lgt) =
        (o("OBJ_root"), o("OBJ_hip"), o("MDL_body"), o("BOX_bbox"), o("CAM_main"), o("LGT_sun"));
    let (hit, dmya, dmyb, mph) = (o("HIT_floor"), o("DMY_a"), o("DMY_b"), o("MPH_face"));
    vec![
        Chunk::Bbox { object: bbox, target: hip, min: [-40.0, -40.0, 0.0], max: [40.0, 40.0, 40.0] },
        Chunk::Camera { object: cam },
        Chunk::Light { object: lgt, light_type: 1 },
        Chunk::Hit {
            object: hit,
            parent: root,
            groups: vec![(1, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])],
        },
        Chunk::DummyPos { object: dmya, pos: [1.0, 2.0, 3.0] },
        Chunk::DummyPosRot { object: dmyb, pos: [1.0, 2.0, 3.0], rot: [0.0, 90.0, 0.0] },
        Chunk::Morpher { morpher: mph, base: body },
        Chunk::Raw { kind: 0x0d00, tag: 0xcccc, payload: vec![0xde, 0xad, 0xbe, 0xef] },
    ]
}

/// `chara`'s scene with a longer clip in place of `ANM_walk`: Anime `ANM_stride` of 13
/// frames (loop, end −2) whose keys fall on frames 0, 5, 10 and 12, so that a clip edit can
/// be keyed at frame 10 (the glTF round trip through Blender). `OBJ_hip_c` keys position
/// and rotation (about all three axes) with constant scale, `OBJ_leg_c` a constant position
/// and keyed rotation about X.
pub fn stride() -> CcsFile {
    let mut f = chara();
    f.name = "stride".into();
    if let Some(anm) = f.objects.iter_mut().find(|(n, _)| n == "ANM_walk") {
        anm.0 = "ANM_stride".into();
    }
    let (anm, hipc, legc) = (f.obj("ANM_stride"), f.obj("OBJ_hip_c"), f.obj("OBJ_leg_c"));
    let mut records = vec![
        Chunk::Top { frame: 0 },
        Chunk::ObjCtrl {
            object: hipc,
            pos: Ctrl::keys3(&[
                (0, [0.0, 0.0, 10.0]),
                (5, [2.0, 0.0, 10.0]),
                (10, [4.0, 0.0, 11.0]),
                (12, [5.0, 0.0, 10.0]),
            ]),
            rot: Ctrl::keys3(&[
                (0, [0.0, 0.0, 0.0]),
                (5, [10.0, 0.0, 45.0]),
                (10, [0.0, 20.0, 90.0]),
                (12, [0.0, 0.0, 90.0]),
            ]),
            scale: Ctrl::vec3([1.0, 1.0, 1.0]),
            alpha: Ctrl::Absent,
        },
        Chunk::ObjCtrl {
            object: legc,
            pos: Ctrl::vec3([0.0, 0.0, -5.0]),
            rot: Ctrl::keys3(&[(0, [30.0, 0.0, 0.0]), (10, [-15.0, 0.0, 0.0]), (12, [30.0, 0.0, 0.0])]),
            scale: Ctrl::Absent,
            alpha: Ctrl::Absent,
        },
    ];
    records.extend((1..13).map(|frame| Chunk::Top { frame }));
    records.push(Chunk::Top { frame: 0xffff_fffe });
    for c in &mut f.chunks {
        if matches!(c, Chunk::Anime { .. }) {
            *c = Chunk::Anime { object: anm, frames: 13, records: records.clone() };
        }
    }
    f
}

/// A level in miniature for the pose view's framing: a static floor 1,600,000 units
/// across (quad at ±32000 × 102400/4096 = ±800,000) beside a small upright panel (100
/// wide, 200 tall: ±50 and 0..200 at scale 4096) that `ANM_move` carries 300 units along
/// +Y over frames 0..4. Not committed: the test writes it.
pub fn framing() -> CcsFile {
    let names = ["MDL_floor", "OBJ_floor", "MDL_panel", "OBJ_panel", "ANM_move"];
    let mut f = scene("framing", 0x100, 0, &[(b' ', "s\\framing\\max\\framing.max")], &names);
    let (floor, ofloor, panel, opanel, anm) =
        (f.obj("MDL_floor"), f.obj("OBJ_floor"), f.obj("MDL_panel"), f.obj("OBJ_panel"), f.obj("ANM_move"));
    let n = [0i8, 0, 64];
    // a strip of two triangles: flags 1, 1, 0, 0 (as the mini quad)
    let quad = |p: [[i16; 3]; 4]| -> Vec<Vert> {
        p.iter().enumerate().map(|(i, pos)| v(*pos, n, u8::from(i < 2), [0, 0])).collect()
    };
    let rigid = |object: u32, scale: f32, verts: Vec<Vert>| {
        Chunk::Model(Model {
            object,
            scale,
            mtype: 0,
            flag: 0,
            mmats: vec![Mmat::Rigid { name: 0, material: 0, verts }],
            size_surplus: 0,
        })
    };
    f.chunks.extend([
        rigid(floor, 102_400.0, quad([[-32000, -32000, 0], [32000, -32000, 0], [-32000, 32000, 0], [32000, 32000, 0]])),
        rigid(panel, 4096.0, quad([[0, -50, 0], [0, 50, 0], [0, -50, 200], [0, 50, 200]])),
        Chunk::Obj { object: ofloor, parent: 0, model: floor, shadow: 0 },
        Chunk::Obj { object: opanel, parent: 0, model: panel, shadow: 0 },
        Chunk::Anime {
            object: anm,
            frames: 5,
            records: vec![
                Chunk::Top { frame: 0 },
                Chunk::ObjCtrl {
                    object: opanel,
                    pos: Ctrl::keys3(&[(0, [0.0, 0.0, 0.0]), (4, [0.0, 300.0, 0.0])]),
                    rot: Ctrl::vec3([0.0, 0.0, 0.0]),
                    scale: Ctrl::vec3([1.0, 1.0, 1.0]),
                    alpha: Ctrl::Absent,
                },
                Chunk::Top { frame: 1 },
                Chunk::Top { frame: 2 },
                Chunk::Top { frame: 3 },
                Chunk::Top { frame: 4 },
                Chunk::Top { frame: 0xffff_fffe },
            ],
        },
    ]);
    f.chunks.extend(empty_frame_section());
    f
}

/// An old-version file (0x90): no blt_group words, 3-word Obj, mtype masked to its low
/// byte (0x641 → 0x41: no normals, but colours and STs are read).
pub fn old(version: u16) -> CcsFile {
    let mut f = scene(
        &format!("old{version:x}"),
        version,
        0,
        &[(b' ', "x\\old.max")],
        &["CLT_old", "TEX_old", "MDL_old", "OBJ_old"],
    );
    let (clt, tex, mdl, obj) = (f.obj("CLT_old"), f.obj("TEX_old"), f.obj("MDL_old"), f.obj("OBJ_old"));
    let n = [0i8, 0, 64];
    f.chunks.extend([
        Chunk::Clut {
            clut: clt,
            blt_group: 0,
            flag: 0,
            buf: [0, 0],
            colours: (0..32).map(|i| [i as u8 * 8, 0, 0, 0x80]).collect(),
        },
        Chunk::Texture {
            texture: tex,
            clut: clt,
            blt_group: 0,
            flag: 0,
            psm: 0x13,
            aref: 0,
            tw: 2,
            th: 1,
            levels: vec![(0, 0, (0..8).collect()), (0, 0, vec![9, 10, 0, 0])],
            size_surplus: -2,
        },
        Chunk::Model(Model {
            object: mdl,
            scale: 4096.0,
            mtype: 0x641,
            flag: 0,
            mmats: vec![Mmat::Rigid {
                name: 0,
                material: 0,
                verts: vec![v([0, 0, 0], n, 1, [0, 0]), v([1, 0, 0], n, 1, [0, 0]), v([0, 1, 0], n, 0, [0, 0])],
            }],
            size_surplus: 0,
        }),
        Chunk::Obj { object: obj, parent: 0, model: mdl, shadow: 0 },
    ]);
    f.chunks.extend(empty_frame_section());
    f
}

/// The stream pair: `<stem>e.tmp` holds the model, `<stem>.tmp` object stubs, a Pcm and a
/// frame section of `frames` Tops (tag 0x0000 on Frame and Pcm) closed by `end`.
pub fn stream_pair(stem: &str, frames: u32, end: u32) -> (CcsFile, CcsFile) {
    let mut m = CcsFile {
        name: format!("{stem}e"),
        version: 0x100,
        frames: 0,
        files: vec![(b' ', "s\\mdl\\actor.max".into())],
        objects: ["OBJ_actor", "MDL_actor", "OBJ_arm", "CMP_actor"].iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    };
    let (actor, mdl, arm, cmp) = (m.obj("OBJ_actor"), m.obj("MDL_actor"), m.obj("OBJ_arm"), m.obj("CMP_actor"));
    let n = [0i8, 0, 64];
    m.chunks.extend([
        Chunk::Model(Model {
            object: mdl,
            scale: 4096.0,
            mtype: 5,
            flag: 0,
            mmats: vec![Mmat::Bone {
                material: 0,
                node: 1,
                verts: vec![v([0, 0, 0], n, 1, [0, 0]), v([1, 0, 0], n, 1, [0, 0]), v([0, 1, 0], n, 0, [0, 0])],
            }],
            size_surplus: 15,
        }),
        Chunk::Obj { object: actor, parent: 0, model: mdl, shadow: 0 },
        Chunk::Obj { object: arm, parent: actor, model: 0, shadow: 0 },
        Chunk::Clump { object: cmp, nodes: vec![actor, arm] },
    ]);
    m.chunks.extend(empty_frame_section());
    let mut s = CcsFile {
        name: stem.into(),
        version: 0x100,
        frames,
        files: vec![(b'#', "s\\mdl\\actor.max".into()), (b' ', "s\\cam.max".into())],
        objects: vec![("OBJ_actor".into(), 1), ("OBJ_arm".into(), 1), ("CAM_s".into(), 2)],
        chunks: vec![Chunk::Setup],
    };
    let (sa, sarm, scam) = (s.obj("OBJ_actor"), s.obj("OBJ_arm"), s.obj("CAM_s"));
    let mut pcm = vec![7u8, 0, 0, 0, 1, 16, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0];
    pcm.extend([0x11; 8]);
    s.chunks.extend([
        Chunk::Obj { object: sa, parent: 0, model: 0, shadow: 0 },
        Chunk::Obj { object: sarm, parent: sa, model: 0, shadow: 0 },
        Chunk::Camera { object: scam },
        Chunk::Raw { kind: 0x2200, tag: 0, payload: pcm },
        Chunk::Frame { count: frames, tag: 0 },
    ]);
    for fr in 0..frames {
        s.chunks.push(Chunk::Top { frame: fr });
        s.chunks.push(Chunk::FCamera { object: scam, flag: 0x1fe & !0x0e, values: vec![0.0, 0.0, 0.0] });
        s.chunks.push(Chunk::FAmbient { colour: 0x0040_8020 });
        s.chunks.push(Chunk::FObj {
            object: sa,
            pos: [fr as f32, 0.0, 0.0],
            rot: [0.0, 0.0, 0.0],
            scale: [1.0; 3],
            alpha: 1.0,
            flags: 1,
        });
        if fr % 2 == 0 {
            s.chunks.push(Chunk::FObj {
                object: sarm,
                pos: [0.0, 0.0, 1.0],
                rot: [0.0, 0.0, 10.0 * fr as f32],
                scale: [1.0; 3],
                alpha: 1.0,
                flags: 1,
            });
        }
    }
    if frames > 1 {
        let mut fp = vec![7u8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
        fp.extend([0x22; 4]);
        s.chunks.push(Chunk::Raw { kind: 0x2201, tag: 0, payload: fp });
    }
    s.chunks.push(Chunk::Top { frame: end });
    (m, s)
}

fn words_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The town scene: one of every remaining setup layout (Layer, Obj2, Eff, Shadow, FBRect,
/// FBPage, BltGrp as unknown bytes), light controllers in an Anime (distant, omni, and the
/// undocumented spot controller as opaque bytes), and a frame section with every frame
/// record kind (both F_Material and F_DistantLight variants, F_DirectLight/F_SpotLight
/// as unknown 56-byte records).
pub fn town() -> CcsFile {
    let names = [
        "LYR_main",
        "LYR_shadow",
        "OBJ_house",
        "MPH_flag",
        "EFF_smoke",
        "TEX_smoke",
        "FBR_rect",
        "PAG_page",
        "LGT_sun",
        "LGT_lamp",
        "LGT_spot",
        "ANM_day",
        "MAT_wall",
        "CAM_town",
        "MDL_flag",
        "MDL_flag_t",
        "OBJ_xnote",
    ];
    let mut f = scene("town", 0x100, 2, &[(b' ', "t\\town\\max\\town.max")], &names);
    let o = |n: &str| f.obj(n);
    let (lyr, slyr, house, mph, eff, tex, fbr, pag) = (
        o("LYR_main"),
        o("LYR_shadow"),
        o("OBJ_house"),
        o("MPH_flag"),
        o("EFF_smoke"),
        o("TEX_smoke"),
        o("FBR_rect"),
        o("PAG_page"),
    );
    let (sun, lamp, spot, cam, flag) = (o("LGT_sun"), o("LGT_lamp"), o("LGT_spot"), o("CAM_town"), o("MDL_flag"));
    let fl = |x: f32| x.to_bits();
    // two u16 halves of a word
    let hw = |lo: u16, hi: u16| u32::from(lo) | u32::from(hi) << 16;
    // x, y, w, h, px = -64, py = 32, copies 3, spread 2, length 100
    let shadow = vec![slyr, hw(0, 0), hw(256, 256), hw(0xffc0, 32), 3 | (2 << 8), fl(100.0)];
    f.chunks.extend([
        Chunk::Layer { entries: vec![(0, 0), (0, lyr), (1, slyr)] },
        Chunk::Obj { object: house, parent: 0, model: 0, shadow: 0 },
        Chunk::Obj2 { object: house, flags: 3, modifier: mph, layer: lyr, slayer: slyr },
        // flag 2 (blend 2), zoffs -2, unknown 112, 2 patterns
        Chunk::Eff {
            object: eff,
            texture: tex,
            flag: 2,
            zoffs: -2,
            unknown: 112,
            quad: [-1.0, -1.0, 1.0, 1.0],
            size: [1024, 1024],
            patterns: vec![[0, 0, 4096], [1024, 0, 2048]],
        },
        Chunk::Raw { kind: 0x1800, tag: 0xcccc, payload: words_bytes(&shadow) },
        Chunk::Raw { kind: 0x1100, tag: 0xcccc, payload: words_bytes(&[fbr, 1, hw(0, 0), hw(640, 448)]) },
        Chunk::Raw {
            kind: 0x1200,
            tag: 0xcccc,
            payload: words_bytes(&[pag, 1, u32::from_le_bytes([0, 0, 10, 14]), 2]),
        },
        Chunk::Raw { kind: 0x1000, tag: 0xcccc, payload: vec![1, 2, 3, 4, 5, 6, 7, 8] },
        Chunk::Light { object: sun, light_type: 1 },
        Chunk::Light { object: lamp, light_type: 4 },
        Chunk::Light { object: spot, light_type: 3 },
        Chunk::Camera { object: cam },
        town_anime(&f),
        Chunk::Model(Model { object: flag, scale: 256.0, mtype: 0x600, flag: 0, mmats: vec![], size_surplus: 0 }),
        Chunk::Morpher { morpher: mph, base: flag },
    ]);
    let frames = town_frames(&f);
    f.chunks.extend(frames);
    f
}

/// [`town`]'s Anime: light controllers (distant, omni, and the undocumented spot
/// controller as opaque bytes), then camera, ambient and morpher frame records.
fn town_anime(f: &CcsFile) -> Chunk {
    let o = |n: &str| f.obj(n);
    let (anm, sun, lamp, spot, cam, mph, flagt) =
        (o("ANM_day"), o("LGT_sun"), o("LGT_lamp"), o("LGT_spot"), o("CAM_town"), o("MPH_flag"), o("MDL_flag_t"));
    let fl = |x: f32| x.to_bits();
    Chunk::Anime {
        object: anm,
        frames: 3,
        records: vec![
            Chunk::Top { frame: 0 },
            Chunk::LightCtrl {
                kind: 0x0603,
                light: sun,
                fields: vec![
                    Ctrl::keys3(&[(0, [0.0, 0.0, 0.0]), (2, [0.0, 90.0, 0.0])]),
                    Ctrl::Const(vec![0x00ff_8040]),
                    Ctrl::keys1(&[(0, 1.0), (2, 0.5)]),
                ],
            },
            Chunk::LightCtrl {
                kind: 0x0609,
                light: lamp,
                fields: vec![
                    Ctrl::vec3([1.0, 2.0, 3.0]),
                    Ctrl::Absent,
                    Ctrl::Const(vec![fl(2.0)]),
                    Ctrl::Absent,
                    Ctrl::keys1(&[(0, 10.0), (2, 20.0)]),
                ],
            },
            Chunk::Raw { kind: 0x0607, tag: 0xcccc, payload: words_bytes(&[spot, 0, 0]) },
            Chunk::Top { frame: 1 },
            Chunk::FCamera { object: cam, flag: 0x1fe & !(0x10 | 0x100), values: vec![45.0, 60.0] },
            Chunk::FAmbient { colour: 0x0010_2030 },
            Chunk::FMorpher { morpher: mph, targets: vec![(flagt, 0.25)] },
            Chunk::Top { frame: 2 },
            Chunk::Top { frame: 0xffff_ffff },
        ],
    }
}

/// [`town`]'s frame section: every frame record kind (both F_Material and F_DistantLight
/// variants, F_DirectLight/F_SpotLight as unknown 56-byte records).
fn town_frames(f: &CcsFile) -> Vec<Chunk> {
    let o = |n: &str| f.obj(n);
    let (mat, sun, lamp, spot, slyr) = (o("MAT_wall"), o("LGT_sun"), o("LGT_lamp"), o("LGT_spot"), o("LYR_shadow"));
    let (mph, flagt, note, cam) = (o("MPH_flag"), o("MDL_flag_t"), o("OBJ_xnote"), o("CAM_town"));
    let fl = |x: f32| x.to_bits();
    vec![
        Chunk::Frame { count: 2, tag: 0xcccc },
        Chunk::Top { frame: 0 },
        Chunk::Raw { kind: 0x0201, tag: 0xcccc, payload: words_bytes(&[mat, 0, fl(0.5), fl(0.25)]) },
        Chunk::Raw { kind: 0x0201, tag: 0xcccc, payload: words_bytes(&[mat, 2]) },
        Chunk::Raw {
            kind: 0x0602,
            tag: 0xcccc,
            payload: words_bytes(&[sun, 0x20, fl(10.0), fl(20.0), fl(30.0), 0x00ff_ffff, fl(0.8)]),
        },
        Chunk::Raw {
            kind: 0x0602,
            tag: 0xcccc,
            payload: words_bytes(&[sun, 0, fl(10.0), fl(20.0), fl(30.0), 0x00ff_ffff]),
        },
        Chunk::Raw {
            kind: 0x0608,
            tag: 0xcccc,
            payload: words_bytes(&[lamp, 0, fl(1.0), fl(2.0), fl(3.0), 0x0080_8080, fl(1.0), fl(5.0), fl(50.0)]),
        },
        Chunk::Raw { kind: 0x0604, tag: 0xcccc, payload: words_bytes(&[lamp, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) },
        Chunk::Raw { kind: 0x0606, tag: 0xcccc, payload: words_bytes(&[spot, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) },
        Chunk::Raw { kind: 0x1801, tag: 0xcccc, payload: words_bytes(&[slyr, fl(0.0), fl(45.0), fl(0.0), fl(0.5)]) },
        Chunk::FMorpher { morpher: mph, targets: vec![(flagt, 1.0)] },
        Chunk::FNote { object: note, event: 0x8001, param: 12 },
        Chunk::FCamera { object: cam, flag: 1, values: vec![] },
        Chunk::Top { frame: 1 },
        Chunk::FAmbient { colour: 0x0020_4060 },
        Chunk::Top { frame: 0xffff_ffff },
    ]
}

/// The stripes texture's CLUT colours (R, G, B, A with 0x80 = opaque): index 0 unused,
/// 1..=4 the top half's stripes left to right, 5..=8 the bottom half's.
pub const STRIPE_COLOURS: [[u8; 4]; 9] = [
    [0, 0, 0, 0x80],
    [0xff, 0, 0, 0x80],
    [0, 0xff, 0, 0x80],
    [0, 0, 0xff, 0x80],
    [0xff, 0xff, 0xff, 0x80],
    [0xff, 0xff, 0, 0x80],
    [0, 0xff, 0xff, 0x80],
    [0xff, 0, 0xff, 0x80],
    [0x40, 0x40, 0x40, 0x80],
];

/// The stripes scene: a 16-colour CLUT and a 16×16 PSMT4 texture of known pattern for
/// previews: four vertical stripes 4 pixels wide in CLUT colours 1..=4 over the top half,
/// 5..=8 over the bottom half (stored bottom row first, low nibble = left pixel).
pub fn stripes() -> CcsFile {
    let mut f = scene("stripes", 0x100, 0, &[(b' ', "x\\stripes\\tex\\stripes.bmp")], &["CLT_stripes", "TEX_stripes"]);
    let (clt, tex) = (f.obj("CLT_stripes"), f.obj("TEX_stripes"));
    let mut colours = STRIPE_COLOURS.to_vec();
    colours.resize(16, [0, 0, 0, 0x80]);
    let mut px = Vec::with_capacity(16 * 16 / 2);
    for stored_row in 0..16u8 {
        let top = stored_row >= 8; // the last stored rows are drawn on top
        for pair in 0..8u8 {
            let index = |x: u8| 1 + x / 4 + if top { 0 } else { 4 };
            px.push(index(pair * 2) | (index(pair * 2 + 1) << 4));
        }
    }
    f.chunks.extend([
        Chunk::Clut { clut: clt, blt_group: 0, flag: 1, buf: [768, 768], colours },
        texture_chunk(tex, clt, px),
    ]);
    f.chunks.extend(empty_frame_section());
    f
}

/// A 16×16 PSMT4 (4-bit) texture `texture` over CLUT `clut`, one level of `pixels` (128
/// bytes: 16 rows of 8, stored bottom row first, low nibble = left pixel) at buffer
/// column 768: the texture of the stripes scene, and of scenes tests build with many.
pub fn texture_chunk(texture: u32, clut: u32, pixels: Vec<u8>) -> Chunk {
    Chunk::Texture {
        texture,
        clut,
        blt_group: 0,
        flag: 0,
        psm: 0x14,
        aref: 0x70,
        tw: 4,
        th: 4,
        levels: vec![(768, 0, pixels)],
        size_surplus: 0,
    }
}

/// The bytes of [`particle()`]'s Particle chunk: a u32 count (3), then that many f32
/// (x, y, z) points. The chunk's layout is not documented: this is what the example user
/// layout `examples/layouts/ccsf-particle.toml` labels.
pub const PARTICLE_POINTS: [[f32; 3]; 3] = [[0.0, 1.0, 0.0], [0.5, 2.0, -0.25], [-1.5, 0.0, 4.0]];

/// A scene with one opaque Particle chunk (0x0D00) whose payload is a count and an
/// array of vectors ([`PARTICLE_POINTS`]).
pub fn particle() -> CcsFile {
    let mut f = scene("particle", 0x100, 0, &[(b' ', "x\\particle.max")], &["PTC_spark"]);
    let mut payload = (PARTICLE_POINTS.len() as u32).to_le_bytes().to_vec();
    for p in PARTICLE_POINTS.iter().flatten() {
        payload.extend(p.to_le_bytes());
    }
    f.chunks.push(Chunk::Raw { kind: 0x0d00, tag: 0xcccc, payload });
    f.chunks.extend(empty_frame_section());
    f
}

/// Every CCSF fixture as (member name, bytes): names end `.cmp` (DATA.BIN style) or
/// `.tmp` (stream style); `x_` files are expected failures.
pub fn fixture_files() -> Vec<(String, Vec<u8>)> {
    let (e1, s1) = stream_pair("str0100", 4, 0xffff_ffff);
    let (e2, s2) = stream_pair("str0200", 2, 0xffff_fffe);
    let mut v = vec![
        ("mini.cmp".to_string(), write(&mini())),
        ("stripes.cmp".to_string(), write(&stripes())),
        ("town.cmp".to_string(), write(&town())),
        ("chara.cmp".to_string(), write(&chara())),
        ("stride.cmp".to_string(), write(&stride())),
        ("particle.cmp".to_string(), write(&particle())),
        ("old90.cmp".to_string(), write(&old(0x90))),
        ("old95.cmp".to_string(), write(&old(0x95))),
        ("str0100e.tmp".to_string(), write(&e1)),
        ("str0100.tmp".to_string(), write(&s1)),
        ("str0200e.tmp".to_string(), write(&e2)),
        ("str0200.tmp".to_string(), write(&s2)),
    ];
    v.extend(bad_files());
    v.extend(super::gen2_fixtures::gen2_files());
    v.extend(super::gen2_fixtures::gen2_bad_files());
    v
}

/// Expected-failure files (`x_<reason>.ccs`).
pub fn bad_files() -> Vec<(String, Vec<u8>)> {
    let mini = write(&mini());
    // truncated in the middle of the Model chunk
    let model_at = find_kind(&mini, 0x0800).unwrap_or(0);
    let trunc = mini.get(..model_at + 28 + 12 + 24 + 8).unwrap_or(&mini).to_vec();
    // a Material whose size points past the end of the file
    let mut past = mini.clone();
    let mat_at = find_kind(&mini, 0x0200).unwrap_or(0);
    if let Some(s) = past.get_mut(mat_at + 4..mat_at + 8) {
        s.copy_from_slice(&0x0010_0000u32.to_le_bytes());
    }
    // a model vertex count larger than the remaining bytes
    let mut count = mini.clone();
    if let Some(s) = count.get_mut(model_at + 28 + 8..model_at + 28 + 12) {
        s.copy_from_slice(&0x4000_0000u32.to_le_bytes());
    }
    // an unknown setup kind
    let mut unknown = mini.clone();
    if let Some(s) = unknown.get_mut(mat_at..mat_at + 2) {
        s.copy_from_slice(&0x0f00u16.to_le_bytes());
    }
    // parent cycle: OBJ_a ↔ OBJ_b; ExtObj cycle: EXT_a → EXT_b → EXT_a
    let mut cyc = CcsFile {
        name: "x_cycle".into(),
        version: 0x100,
        frames: 0,
        files: vec![(b' ', "x.max".into())],
        objects: ["OBJ_a", "OBJ_b", "EXT_a", "EXT_b", "ANM_c"].iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    };
    let (a, b, ea, eb, an) = (cyc.obj("OBJ_a"), cyc.obj("OBJ_b"), cyc.obj("EXT_a"), cyc.obj("EXT_b"), cyc.obj("ANM_c"));
    let mut ext = cyc.clone();
    cyc.chunks.extend([
        Chunk::Obj { object: a, parent: b, model: 0, shadow: 0 },
        Chunk::Obj { object: b, parent: a, model: 0, shadow: 0 },
        Chunk::Anime {
            object: an,
            frames: 1,
            records: vec![Chunk::Top { frame: 0 }, Chunk::Top { frame: 0xffff_ffff }],
        },
    ]);
    cyc.chunks.extend(empty_frame_section());
    ext.name = "x_extcycle".into();
    ext.chunks.extend([
        Chunk::Obj { object: a, parent: 0, model: 0, shadow: 0 },
        Chunk::ExtObj { object: ea, parent: 0, target: eb },
        Chunk::ExtObj { object: eb, parent: 0, target: ea },
        Chunk::Anime {
            object: an,
            frames: 1,
            records: vec![Chunk::Top { frame: 0 }, Chunk::Top { frame: 0xffff_ffff }],
        },
    ]);
    ext.chunks.extend(empty_frame_section());
    vec![
        ("x_truncated.ccs".into(), trunc),
        ("x_size_past_end.ccs".into(), past),
        ("x_count_too_large.ccs".into(), count),
        ("x_unknown_kind.ccs".into(), unknown),
        ("x_parent_cycle.ccs".into(), write(&cyc)),
        ("x_extobj_cycle.ccs".into(), write(&ext)),
    ]
}

/// Offset of the first chunk of `kind` in a well-formed file written by [`write()`].
pub fn find_kind(data: &[u8], kind: u16) -> Option<usize> {
    let mut p = 0usize;
    let bytes = crate::bytes::Bytes::new(data);
    let header = crate::formats::record::read_at::<super::raw::Header>(&bytes, 8);
    let version = header.map_or(0x100, |h| *h.version);
    while p + 8 <= data.len() {
        let h: super::raw::ChunkHeader = crate::formats::record::read_at(&bytes, p as u64).ok()?;
        let (k, size) = (*h.kind, *h.size as usize);
        if k == kind {
            return Some(p);
        }
        p = match k {
            0x0300 => super::walk::texture_end(&bytes, p as u64, version).ok()? as usize,
            0x0800 => super::walk::model_end(&bytes, p as u64, version).ok()? as usize,
            _ => p + 8 + 4 * size,
        };
    }
    None
}

/// Committed fixtures under `fixtures/ccsf/`.
pub fn fixtures() -> Vec<(String, Vec<u8>)> {
    fixture_files().into_iter().map(|(n, b)| (format!("ccsf/{n}"), b)).collect()
}
