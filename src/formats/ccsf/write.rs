//! Writer for synthetic CCSF files (spec §9): a model of chunks serialised with the true
//! size fields, except where a fixture asks for the disc's wrong ones on purpose (texture
//! surplus, +15 words per mmat for `mtype & 4` models).

use super::raw;
use crate::formats::record::{self, Spanned};
use binrw::BinWrite;

/// A controller value: absent, one constant, or keyed `(frame, value words)`.
#[derive(Debug, Clone, PartialEq)]
pub enum Ctrl {
    /// k = 0.
    Absent,
    /// k = 1: the value's words (3 for a vec3, 1 for a float or colour).
    Const(Vec<u32>),
    /// k = 2: keys.
    Keys(Vec<(u32, Vec<u32>)>),
}

impl Ctrl {
    /// A constant vec3.
    pub fn vec3(v: [f32; 3]) -> Ctrl {
        Ctrl::Const(v.iter().map(|x| x.to_bits()).collect())
    }
    /// Keyed vec3.
    pub fn keys3(k: &[(u32, [f32; 3])]) -> Ctrl {
        Ctrl::Keys(k.iter().map(|(f, v)| (*f, v.iter().map(|x| x.to_bits()).collect())).collect())
    }
    /// Keyed float.
    pub fn keys1(k: &[(u32, f32)]) -> Ctrl {
        Ctrl::Keys(k.iter().map(|(f, v)| (*f, vec![v.to_bits()])).collect())
    }
    fn k(&self) -> u32 {
        match self {
            Ctrl::Absent => 0,
            Ctrl::Const(_) => 1,
            Ctrl::Keys(_) => 2,
        }
    }
    fn write(&self, out: &mut Vec<u32>) {
        match self {
            Ctrl::Absent => {}
            Ctrl::Const(v) => out.extend(v),
            Ctrl::Keys(k) => {
                out.push(k.len() as u32);
                for (f, v) in k {
                    out.push(*f);
                    out.extend(v);
                }
            }
        }
    }
}

/// A rigid or bone vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vert {
    /// s16 position (× vertexScale/4096).
    pub pos: [i16; 3],
    /// s8 normal (/64).
    pub normal: [i8; 3],
    /// Strip flag (normal byte 3).
    pub flag: u8,
    /// RGBA colour (0x80 = 1.0).
    pub colour: [u8; 4],
    /// u16 S, T (/256).
    pub st: [u16; 2],
}

/// One skin entry.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Entry {
    /// Position in the slot node's space.
    pub pos: [i16; 3],
    /// Weight, 256 = 1.0 (9 bits).
    pub weight: u16,
    /// Last entry of its vertex.
    pub last: bool,
    /// Clump slot (6 bits).
    pub slot: u8,
    /// Normal.
    pub normal: [i8; 3],
    /// Strip flag (read from the last entry's normal).
    pub flag: u8,
}

/// An mmat body.
#[derive(Debug, Clone, PartialEq)]
pub enum Mmat {
    /// Rigid body; arrays are written unless the model's mtype drops them (0x40/0x200/0x400).
    Rigid {
        /// `MDL_x_N` object.
        name: u32,
        /// `MAT_` object.
        material: u32,
        /// Vertices.
        verts: Vec<Vert>,
    },
    /// Bone body (offsetNum = 0).
    Bone {
        /// `MAT_` object.
        material: u32,
        /// Clump slot.
        node: u32,
        /// Vertices (colour unused).
        verts: Vec<Vert>,
    },
    /// Skin body.
    Skin {
        /// `MAT_` object.
        material: u32,
        /// Entries; STs are one per vertex (entries with `last`).
        entries: Vec<Entry>,
        /// One ST per vertex.
        sts: Vec<[u16; 2]>,
    },
    /// Shadow body; `inum` is written as is (its triangles are `inum/3`).
    Shadow {
        /// Positions.
        positions: Vec<[i16; 3]>,
        /// Triangles.
        triangles: Vec<[i32; 3]>,
        /// iNum override (default 3 × triangles).
        inum: Option<i32>,
    },
}

/// A Model chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// `MDL_` object.
    pub object: u32,
    /// vertexScale.
    pub scale: f32,
    /// mtype as stored.
    pub mtype: u16,
    /// flag.
    pub flag: u16,
    /// mmats.
    pub mmats: Vec<Mmat>,
    /// Extra words added to the size field (the disc's +15 per mmat for `mtype & 4`).
    pub size_surplus: u32,
}

/// One chunk of the model. Object fields are object indexes.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)]
pub enum Chunk {
    Setup,
    Obj {
        object: u32,
        parent: u32,
        model: u32,
        shadow: u32,
    },
    Material {
        object: u32,
        texture: u32,
        transparency: f32,
        crop: [u16; 2],
    },
    Texture {
        texture: u32,
        clut: u32,
        blt_group: u32,
        flag: u8,
        psm: u8,
        aref: u8,
        tw: u8,
        th: u8,
        levels: Vec<(u16, u16, Vec<u8>)>,
        size_surplus: i32,
    },
    Clut {
        clut: u32,
        blt_group: u32,
        flag: u8,
        buf: [u16; 2],
        colours: Vec<[u8; 4]>,
    },
    Camera {
        object: u32,
    },
    Light {
        object: u32,
        light_type: i16,
    },
    Anime {
        object: u32,
        frames: u32,
        records: Vec<Chunk>,
    },
    Model(Model),
    Clump {
        object: u32,
        nodes: Vec<u32>,
    },
    ExtObj {
        object: u32,
        parent: u32,
        target: u32,
    },
    Hit {
        object: u32,
        parent: u32,
        groups: Vec<(u32, Vec<[f32; 3]>)>,
    },
    Bbox {
        object: u32,
        target: u32,
        min: [f32; 3],
        max: [f32; 3],
    },
    DummyPos {
        object: u32,
        pos: [f32; 3],
    },
    DummyPosRot {
        object: u32,
        pos: [f32; 3],
        rot: [f32; 3],
    },
    Layer {
        entries: Vec<(u8, u32)>,
    },
    Morpher {
        morpher: u32,
        base: u32,
    },
    Obj2 {
        object: u32,
        flags: u32,
        modifier: u32,
        layer: u32,
        slayer: u32,
    },
    Frame {
        count: u32,
        tag: u16,
    },
    Top {
        frame: u32,
    },
    FObj {
        object: u32,
        pos: [f32; 3],
        rot: [f32; 3],
        scale: [f32; 3],
        alpha: f32,
        flags: u32,
    },
    FNote {
        object: u32,
        event: u32,
        param: u32,
    },
    FCamera {
        object: u32,
        flag: u32,
        values: Vec<f32>,
    },
    FAmbient {
        colour: u32,
    },
    FMorpher {
        morpher: u32,
        targets: Vec<(u32, f32)>,
    },
    ObjCtrl {
        object: u32,
        pos: Ctrl,
        rot: Ctrl,
        scale: Ctrl,
        alpha: Ctrl,
    },
    MatCtrl {
        material: u32,
        u: Ctrl,
        v: Ctrl,
    },
    /// A light controller (0x0603 distant, 0x0605 direct, 0x0609 omni): one `Ctrl` per
    /// field of the kind's layout, in field order.
    LightCtrl {
        kind: u16,
        light: u32,
        fields: Vec<Ctrl>,
    },
    /// Any kind with a raw payload (unknown layouts, Pcm, F_Pcm, ...).
    Raw {
        kind: u16,
        tag: u16,
        payload: Vec<u8>,
    },
}

/// A whole CCSF file.
#[derive(Debug, Clone, PartialEq)]
pub struct CcsFile {
    /// Internal name (= member stem).
    pub name: String,
    /// Header version.
    pub version: u16,
    /// Header `frames`.
    pub frames: u32,
    /// Index files: (first char `' '` or `'#'`, path); entry 0 (blank) is added.
    pub files: Vec<(u8, String)>,
    /// Index objects: (name, file index); entry 0 (blank) is added.
    pub objects: Vec<(String, u16)>,
    /// Chunks after the Index (start with `Chunk::Setup`).
    pub chunks: Vec<Chunk>,
}

impl CcsFile {
    /// Object index of `name` (1-based position in `objects`), 0 if absent.
    pub fn obj(&self, name: &str) -> u32 {
        self.objects.iter().position(|(n, _)| n == name).map_or(0, |i| i as u32 + 1)
    }
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// The words of declared record `r` (every CCSF record is a whole number of words).
fn rec<T>(r: &T) -> Vec<u32>
where
    T: BinWrite,
    for<'a> T::Args<'a>: Default,
{
    let mut b = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = record::write(r, &mut b);
    bytes_to_words(&b)
}

fn s<T: Copy>(v: &T) -> Spanned<T> {
    Spanned::new(*v)
}

fn v3(v: &[f32; 3]) -> raw::Vec3 {
    raw::Vec3::new(*v)
}

fn bytes_to_words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| {
            let mut a = [0u8; 4];
            for (d, s) in a.iter_mut().zip(c) {
                *d = *s;
            }
            u32::from_le_bytes(a)
        })
        .collect()
}

fn positions_bytes(p: &[[i16; 3]]) -> Vec<u8> {
    let mut v: Vec<u8> = p.iter().flat_map(|x| x.iter().flat_map(|c| c.to_le_bytes())).collect();
    while !v.len().is_multiple_of(4) {
        v.push(0xcd);
    }
    v
}

fn normal_word(n: [i8; 3], flag: u8) -> u32 {
    u32::from_le_bytes([n[0] as u8, n[1] as u8, n[2] as u8, flag])
}

fn st_word(st: [u16; 2]) -> u32 {
    u32::from(st[0]) | (u32::from(st[1]) << 16)
}

fn model_payload(m: &Model, version: u16) -> Vec<u32> {
    let mtype = if version < 0x100 { m.mtype & 0xff } else { m.mtype };
    let mut w = rec(&raw::ModelHead {
        model: s(&m.object),
        vertex_scale: f(m.scale).into(),
        mtype: s(&m.mtype),
        mmat_num: (m.mmats.len() as u16).into(),
        flag: s(&m.flag),
        zoffs: 0.into(),
        unknown: 0x70.into(),
        pad: [0; 3].into(),
    });
    for mm in &m.mmats {
        match mm {
            Mmat::Rigid { name, material, verts } => {
                w.extend([*name, *material, verts.len() as u32]);
                w.extend(bytes_to_words(&positions_bytes(&verts.iter().map(|v| v.pos).collect::<Vec<_>>())));
                if mtype & 0x40 == 0 {
                    w.extend(verts.iter().map(|v| normal_word(v.normal, v.flag)));
                }
                if mtype & 0x200 == 0 {
                    w.extend(verts.iter().map(|v| u32::from_le_bytes(v.colour)));
                }
                if mtype & 0x400 == 0 {
                    w.extend(verts.iter().map(|v| st_word(v.st)));
                }
            }
            Mmat::Bone { material, node, verts } => {
                w.extend([*material, verts.len() as u32, 0, *node]);
                w.extend(bytes_to_words(&positions_bytes(&verts.iter().map(|v| v.pos).collect::<Vec<_>>())));
                w.extend(verts.iter().map(|v| normal_word(v.normal, v.flag)));
                w.extend(verts.iter().map(|v| st_word(v.st)));
            }
            Mmat::Skin { material, entries, sts } => {
                w.extend([*material, sts.len() as u32, entries.len() as u32]);
                for e in entries {
                    let wd = (e.weight & 0x1ff) | if e.last { 0x200 } else { 0 } | (u16::from(e.slot & 0x3f) << 10);
                    let b: Vec<u8> = e.pos.iter().flat_map(|c| c.to_le_bytes()).chain(wd.to_le_bytes()).collect();
                    w.extend(bytes_to_words(&b));
                }
                w.extend(entries.iter().map(|e| normal_word(e.normal, e.flag)));
                w.extend(sts.iter().map(|s| st_word(*s)));
            }
            Mmat::Shadow { positions, triangles, inum } => {
                w.push(positions.len() as u32);
                w.push(inum.unwrap_or(3 * triangles.len() as i32) as u32);
                if !positions.is_empty() {
                    w.extend(bytes_to_words(&positions_bytes(positions)));
                    for t in triangles {
                        w.extend(t.iter().map(|x| *x as u32));
                    }
                }
            }
        }
    }
    w
}

fn chunk_words(c: &Chunk, version: u16) -> (u16, u16, Vec<u32>, i64) {
    let cc = 0xcccc;
    match c {
        Chunk::Setup => (0x0003, 0, vec![], 0),
        Chunk::Obj { object, parent, model, shadow } => {
            let shadow_model = (version >= 0x96).then(|| s(shadow));
            let r = raw::Obj { object: s(object), parent: s(parent), model: s(model), shadow_model };
            (0x0100, cc, rec(&r), 0)
        }
        Chunk::Material { object, texture, transparency, crop } => {
            let r = raw::Material {
                object: s(object),
                texture: s(texture),
                transparency: f(*transparency).into(),
                crop_u: crop[0].into(),
                crop_v: crop[1].into(),
            };
            (0x0200, cc, rec(&r), 0)
        }
        Chunk::Texture { texture, clut, blt_group, flag, psm, aref, tw, th, levels, size_surplus } => {
            let long = (version >= 0x90).then(|| raw::TextureLong {
                mipmap: (levels.len().saturating_sub(1) as u8).into(),
                aref: s(aref),
                tw: s(tw),
                th: s(th),
            });
            let mut w = rec(&raw::TextureHead {
                texture: s(texture),
                clut: s(clut),
                blt_group: (version >= 0x92).then(|| s(blt_group)),
                flag: s(flag),
                psm: s(psm),
                long,
                pad: [0xcd, 0xcd].into(),
            });
            for (x, y, px) in levels {
                let pw = bytes_to_words(px);
                w.extend(rec(&raw::LevelHead { buf_x: s(x), buf_y: s(y), count: (pw.len() as u32).into() }));
                w.extend(pw);
            }
            (0x0300, cc, w, i64::from(*size_surplus))
        }
        Chunk::Clut { clut, blt_group, flag, buf, colours } => {
            let mut w = rec(&raw::ClutHead {
                clut: s(clut),
                blt_group: (version >= 0x92).then(|| s(blt_group)),
                flag: s(flag),
                buf_x: buf[0].into(),
                buf_y: buf[1].into(),
                count: (colours.len() as u32).into(),
                ..Default::default()
            });
            w.extend(colours.iter().map(|c| u32::from_le_bytes(*c)));
            (0x0400, cc, w, 0)
        }
        Chunk::Camera { object } => (0x0500, cc, rec(&raw::Camera { object: s(object) }), 0),
        Chunk::Light { object, light_type } => {
            let r = raw::Light { object: s(object), light_type: s(light_type), pad: [0, 0].into() };
            (0x0600, cc, rec(&r), 0)
        }
        Chunk::Anime { object, frames, records } => {
            let mut sub = Vec::new();
            for r in records {
                let (k, t, w, _) = chunk_words(r, version);
                sub.push(u32::from(k) | u32::from(t) << 16);
                sub.push(w.len() as u32);
                sub.extend(w);
            }
            let head = raw::AnimeHead { object: s(object), frames: s(frames), words: (sub.len() as u32).into() };
            let mut w = rec(&head);
            w.extend(sub);
            (0x0700, cc, w, 0)
        }
        Chunk::Model(m) => (0x0800, cc, model_payload(m, version), i64::from(m.size_surplus)),
        Chunk::Clump { object, nodes } => {
            let head = raw::Clump { object: s(object), n: (nodes.len() as u16).into(), pad: [0, 0].into() };
            let mut w = rec(&head);
            w.extend(rec(&raw::ObjectList { node: nodes.iter().copied().map(Spanned::from).collect() }));
            (0x0900, cc, w, 0)
        }
        Chunk::ExtObj { object, parent, target } => {
            (0x0a00, cc, rec(&raw::ExtObj { object: s(object), parent: s(parent), target: s(target) }), 0)
        }
        Chunk::Hit { object, parent, groups } => {
            let total: usize = groups.iter().map(|g| g.1.len()).sum();
            let mut w = rec(&raw::Hit {
                object: s(object),
                parent: s(parent),
                groups: (groups.len() as u16).into(),
                pad: 0.into(),
                total_vertices: (total as u32).into(),
            });
            for (attr, verts) in groups {
                w.extend(rec(&raw::HitGroup { v: (verts.len() as u32).into(), attribute: s(attr) }));
                w.extend(verts.iter().flat_map(|v| v.map(f)));
                w.extend(verts.iter().flat_map(|_| [0.0f32, 0.0, 1.0].map(f)));
            }
            (0x0b00, cc, w, 0)
        }
        Chunk::Bbox { object, target, min, max } => {
            let r = raw::Bbox { bbox: s(object), target: s(target), min: v3(min), max: v3(max) };
            (0x0c00, cc, rec(&r), 0)
        }
        Chunk::DummyPos { object, pos } => (0x1300, cc, rec(&raw::DummyPos { object: s(object), pos: v3(pos) }), 0),
        Chunk::DummyPosRot { object, pos, rot } => {
            (0x1400, cc, rec(&raw::DummyPosRot { object: s(object), pos: v3(pos), rot: v3(rot) }), 0)
        }
        Chunk::Layer { entries } => {
            let mut w = rec(&raw::Layer { n: (entries.len() as u16).into(), pad: [0, 0].into() });
            for (k, o) in entries {
                w.extend(rec(&raw::LayerEntry { kind: s(k), pad: [0; 3].into(), object: s(o) }));
            }
            (0x1700, cc, w, 0)
        }
        Chunk::Morpher { morpher, base } => {
            (0x1900, cc, rec(&raw::Morpher { morpher: s(morpher), base_model: s(base) }), 0)
        }
        Chunk::Obj2 { object, flags, modifier, layer, slayer } => {
            let r = raw::Obj2 {
                object: s(object),
                flags: s(flags),
                modifier: s(modifier),
                layer: s(layer),
                slayer: s(slayer),
            };
            (0x2000, cc, rec(&r), 0)
        }
        Chunk::Frame { count, tag } => (0x0005, *tag, rec(&raw::Frame { frame_count: s(count) }), 0),
        Chunk::Top { frame } => (0xff01, cc, rec(&raw::Top { frame: s(frame) }), 0),
        Chunk::FObj { object, pos, rot, scale, alpha, flags } => {
            let r = raw::FObj {
                object: s(object),
                unused: 0.into(),
                pos: v3(pos),
                rot: v3(rot),
                scale: v3(scale),
                transparency: f(*alpha).into(),
                flags: s(flags),
            };
            (0x0101, cc, rec(&r), 0)
        }
        Chunk::FNote { object, event, param } => {
            (0x0108, cc, rec(&raw::FNote { object: s(object), event: s(event), param: s(param) }), 0)
        }
        Chunk::FCamera { object, flag, values } => {
            // The writer's values are written as given (a fixture may hold fewer or more
            // than the flag announces).
            let r = raw::FCamera {
                object: s(object),
                flag: s(flag),
                values: values.iter().map(|v| f(*v).into()).collect(),
            };
            (0x0502, cc, rec(&r), 0)
        }
        Chunk::FAmbient { colour } => (0x0601, cc, rec(&raw::FAmbient { colour: s(colour) }), 0),
        Chunk::FMorpher { morpher, targets } => {
            let mut w =
                rec(&raw::FMorpher { morpher: s(morpher), n: (targets.len() as u16).into(), pad: [0, 0].into() });
            for (t, wt) in targets {
                w.extend(rec(&raw::MorphTarget { target: s(t), weight: f(*wt).into() }));
            }
            (0x1901, cc, w, 0)
        }
        Chunk::ObjCtrl { object, pos, rot, scale, alpha } => {
            let flags = pos.k() | rot.k() << 3 | scale.k() << 6 | alpha.k() << 9;
            let mut w = vec![*object, flags];
            for c in [pos, rot, scale, alpha] {
                c.write(&mut w);
            }
            (0x0102, cc, w, 0)
        }
        Chunk::MatCtrl { material, u, v } => {
            let flags = u.k() | v.k() << 3;
            let mut w = vec![*material, flags];
            u.write(&mut w);
            v.write(&mut w);
            (0x0202, cc, w, 0)
        }
        Chunk::LightCtrl { kind, light, fields } => {
            let lay = super::anime::layout(*kind).unwrap_or(&[]);
            let flags = lay.iter().zip(fields).fold(0, |a, ((shift, _, _), c)| a | c.k() << shift);
            let mut w = vec![*light, flags];
            for c in fields {
                c.write(&mut w);
            }
            (*kind, cc, w, 0)
        }
        Chunk::Raw { kind, tag, payload } => (*kind, *tag, bytes_to_words(payload), 0),
    }
}

fn name_bytes(s: &str, n: usize) -> Vec<u8> {
    let mut v = s.as_bytes().to_vec();
    v.resize(n, 0);
    v
}

fn push_chunk(out: &mut Vec<u8>, kind: u16, tag: u16, words: &[u32], surplus: i64) {
    let size = (words.len() as i64 + surplus).max(0) as u32;
    // Writing into a Vec cannot fail.
    let _ = record::write(&raw::ChunkHeader::new(kind, tag, size), out);
    for w in words {
        out.extend(w.to_le_bytes());
    }
}

/// Serialise a file: Header, Index, then the chunks.
pub fn write(file: &CcsFile) -> Vec<u8> {
    let mut out = Vec::new();
    let mut name = [0u8; 32];
    for (d, c) in name.iter_mut().zip(file.name.as_bytes()) {
        *d = *c;
    }
    let mut h = rec(&raw::Header {
        magic: (*b"CCSF").into(),
        name: name.into(),
        version: s(&file.version),
        pad: 0.into(),
        frames: s(&file.frames),
        count: 1.into(),
    });
    h.extend(rec(&raw::Words { word: vec![0.into()] }));
    push_chunk(&mut out, 0x0001, 0xcccc, &h, 0);
    let fc = file.files.len() as u32 + 1;
    let oc = file.objects.len() as u32 + 1;
    let mut ix = rec(&raw::IndexHead { file_count: s(&fc), object_count: s(&oc) });
    ix.extend([0u32; 8]);
    for (c, p) in &file.files {
        let mut b = vec![*c];
        b.extend(p.as_bytes());
        b.resize(32, 0);
        ix.extend(bytes_to_words(&b));
    }
    ix.extend([0u32; 8]);
    for (n, file_ix) in &file.objects {
        let mut b = name_bytes(n, 30);
        b.extend(file_ix.to_le_bytes());
        ix.extend(bytes_to_words(&b));
    }
    push_chunk(&mut out, 0x0002, 0xcccc, &ix, 0);
    for c in &file.chunks {
        let (k, t, w, s) = chunk_words(c, file.version);
        push_chunk(&mut out, k, t, &w, s);
    }
    out
}

/// The DATA.BIN-style empty frame section: Frame(1), Top −1.
pub fn empty_frame_section() -> Vec<Chunk> {
    vec![Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0xffff_ffff }]
}

fn v(pos: [i16; 3], n: [i8; 3], flag: u8, st: [u16; 2]) -> Vert {
    Vert { pos, normal: n, flag, colour: [0x80, 0x40, 0x20, 0x80], st }
}

/// The mini scene: CLUT, 4-bit 4×4 texture, material, a rigid quad (strip 1 1 0 0).
pub fn mini() -> CcsFile {
    let objects = ["CLT_mini", "TEX_mini", "MAT_mini", "MDL_mini", "OBJ_mini"];
    let mut f = CcsFile {
        name: "mini".into(),
        version: 0x100,
        frames: 0,
        files: vec![(b' ', "x\\mini\\tex\\mini.bmp".into())],
        objects: objects.iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    };
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
    let mut f = CcsFile {
        name: "chara".into(),
        version: 0x100,
        frames: 0,
        files: vec![(b' ', "c\\chara\\max\\chara.max".into()), (b'#', "c\\common\\max\\common.max".into())],
        objects: names.iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    };
    let o = |n: &str| f.obj(n);
    let (
        root,
        hip,
        leg,
        cmp,
        body,
        mat,
        shadow,
        prop,
        prop1,
        oprop,
        hipc,
        legc,
        anm,
        bbox,
        cam,
        lgt,
        hit,
        dmya,
        dmyb,
        mph,
        note,
    ) = (
        o("OBJ_root"),
        o("OBJ_hip"),
        o("OBJ_leg"),
        o("CMP_chara"),
        o("MDL_body"),
        o("MAT_body"),
        o("MDL_shadow"),
        o("MDL_prop"),
        o("MDL_prop_1"),
        o("OBJ_prop"),
        o("OBJ_hip_c"),
        o("OBJ_leg_c"),
        o("ANM_walk"),
        o("BOX_bbox"),
        o("CAM_main"),
        o("LGT_sun"),
        o("HIT_floor"),
        o("DMY_a"),
        o("DMY_b"),
        o("MPH_face"),
        o("OBJ_xnote"),
    );
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
    f.chunks.extend([
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
    ]);
    f.chunks.extend(empty_frame_section());
    f
}

/// An old-version file (0x90): no blt_group words, 3-word Obj, mtype masked to its low
/// byte (0x641 → 0x41: no normals, but colours and STs are read).
pub fn old(version: u16) -> CcsFile {
    let mut f = CcsFile {
        name: format!("old{version:x}"),
        version,
        frames: 0,
        files: vec![(b' ', "x\\old.max".into())],
        objects: ["CLT_old", "TEX_old", "MDL_old", "OBJ_old"].iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    };
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
    let mut f = CcsFile {
        name: "town".into(),
        version: 0x100,
        frames: 2,
        files: vec![(b' ', "t\\town\\max\\town.max".into())],
        objects: names.iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    };
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
    let (sun, lamp, spot, anm, mat, cam, flag, flagt, note) = (
        o("LGT_sun"),
        o("LGT_lamp"),
        o("LGT_spot"),
        o("ANM_day"),
        o("MAT_wall"),
        o("CAM_town"),
        o("MDL_flag"),
        o("MDL_flag_t"),
        o("OBJ_xnote"),
    );
    let fl = |x: f32| x.to_bits();
    // two u16 halves of a word
    let hw = |lo: u16, hi: u16| u32::from(lo) | u32::from(hi) << 16;
    // flag 2 (blend 2), zoffs -2, unknown 112, patNum 2, quad, w/h, then 2 patterns
    let mut eff_words = vec![eff, tex, hw(2, 0xfffe), hw(112, 2)];
    eff_words.extend([fl(-1.0), fl(-1.0), fl(1.0), fl(1.0), hw(1024, 1024)]);
    eff_words.extend([hw(0, 0), 4096, hw(1024, 0), 2048]);
    // x, y, w, h, px = -64, py = 32, copies 3, spread 2, length 100
    let shadow = vec![slyr, hw(0, 0), hw(256, 256), hw(0xffc0, 32), 3 | (2 << 8), fl(100.0)];
    f.chunks.extend([
        Chunk::Layer { entries: vec![(0, 0), (0, lyr), (1, slyr)] },
        Chunk::Obj { object: house, parent: 0, model: 0, shadow: 0 },
        Chunk::Obj2 { object: house, flags: 3, modifier: mph, layer: lyr, slayer: slyr },
        Chunk::Raw { kind: 0x0e00, tag: 0xcccc, payload: words_bytes(&eff_words) },
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
        },
        Chunk::Model(Model { object: flag, scale: 256.0, mtype: 0x600, flag: 0, mmats: vec![], size_surplus: 0 }),
        Chunk::Morpher { morpher: mph, base: flag },
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
    ]);
    f
}

/// Every CCSF fixture as (member name, bytes): names end `.cmp` (DATA.BIN style) or
/// `.tmp` (stream style); `x_` files are expected failures.
pub fn fixture_files() -> Vec<(String, Vec<u8>)> {
    let (e1, s1) = stream_pair("str0100", 4, 0xffff_ffff);
    let (e2, s2) = stream_pair("str0200", 2, 0xffff_fffe);
    let mut v = vec![
        ("mini.cmp".to_string(), write(&mini())),
        ("town.cmp".to_string(), write(&town())),
        ("chara.cmp".to_string(), write(&chara())),
        ("old90.cmp".to_string(), write(&old(0x90))),
        ("old95.cmp".to_string(), write(&old(0x95))),
        ("str0100e.tmp".to_string(), write(&e1)),
        ("str0100.tmp".to_string(), write(&s1)),
        ("str0200e.tmp".to_string(), write(&e2)),
        ("str0200.tmp".to_string(), write(&s2)),
    ];
    v.extend(bad_files());
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
    let version = data.get(0x2c..0x2e).and_then(|b| b.try_into().ok()).map_or(0x100, u16::from_le_bytes);
    let bytes = crate::bytes::Bytes::new(data);
    while p + 8 <= data.len() {
        let k = u16::from_le_bytes([*data.get(p)?, *data.get(p + 1)?]);
        if k == kind {
            return Some(p);
        }
        let size = u32::from_le_bytes(data.get(p + 4..p + 8)?.try_into().ok()?) as usize;
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
