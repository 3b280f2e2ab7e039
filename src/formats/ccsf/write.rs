//! Writer for synthetic CCSF files (docs/formats/ccsf.md#writing-synthetic-files): a model of chunks serialised with the true
//! size fields, except where a fixture asks for the disc's wrong ones on purpose (texture
//! surplus, +15 words per mmat for `mtype & 4` models).

use super::band;
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
    /// k = 4 (gen 2, rotation fields): keyed quaternions `(frame, x, y, z, w)`.
    Quats(Vec<(u32, [f32; 4])>),
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
            Ctrl::Quats(_) => 4,
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
            Ctrl::Quats(k) => {
                out.push(k.len() as u32);
                for (f, q) in k {
                    out.push(*f);
                    out.extend(q.map(f32::to_bits));
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

/// A gen-2 rigid or bone vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vert2 {
    /// s16 position (× vertexScale/4096).
    pub pos: [i16; 3],
    /// s8 normal (/64).
    pub normal: [i8; 3],
    /// Strip flag: 1 or 2 open a strip (with their winding), 0 continues it.
    pub flag: u8,
    /// RGBA colour (0x80 = 1.0).
    pub colour: [u8; 4],
    /// Stored UV: s16 /256 below 0x125 (written truncated to 16 bits), s32 16.16 from it.
    pub uv: [i32; 2],
    /// Tangent word (written when the model has `tbn`).
    pub tangent: u32,
    /// Binormal word.
    pub binormal: u32,
}

/// A gen-2 skin entry.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Entry2 {
    /// Position in the slot node's space.
    pub pos: [i16; 3],
    /// Weight, 256 = 1.0.
    pub weight: i16,
    /// Last entry of its vertex.
    pub last: bool,
    /// Node slot (lookup index when the model has a lookup list).
    pub slot: i16,
    /// Normal.
    pub normal: [i8; 3],
    /// Strip flag (the vertex's last entry's counts).
    pub flag: u8,
}

/// A gen-2 mmat body (docs/formats/ccsf-gen2.md).
#[derive(Debug, Clone, PartialEq)]
pub enum Mmat2 {
    /// Rigid: colours unless mflags & 2, UVs unless mflags & 4.
    Rigid {
        /// `MDL_x_N` object.
        name: u32,
        /// `MAT_` object.
        material: u32,
        /// Vertices.
        verts: Vec<Vert2>,
    },
    /// Bone (entryCount 0).
    Bone {
        /// `MAT_` object.
        material: u32,
        /// Node slot.
        node: u32,
        /// Vertices (colour unused).
        verts: Vec<Vert2>,
    },
    /// Skin: 8-byte entries below 0x125, 12-byte from it.
    Skin {
        /// `MAT_` object.
        material: u32,
        /// Entries.
        entries: Vec<Entry2>,
        /// One UV per vertex.
        uvs: Vec<[i32; 2]>,
    },
    /// Shadow: positions and `iNum` indices.
    Shadow {
        /// Positions.
        positions: Vec<[i16; 3]>,
        /// Indices (triangles = len / 3).
        indices: Vec<i32>,
    },
    /// Triangle list (`mtype & 2`, docs/formats/ccsf-gen2.md#mmats): typed sections.
    TriList {
        /// `MAT_` object.
        material: u32,
        /// Sections in file order.
        sections: Vec<TriSection2>,
    },
}

/// One triangle-list section (docs/formats/ccsf-gen2.md#mmats): its head's fields and payload bytes (the
/// writer pads the payload to 4 with zeros).
#[derive(Debug, Clone, PartialEq)]
pub struct TriSection2 {
    /// `section_flags` (33/34 for positions).
    pub flags: u8,
    /// `section_type` (0 normals, 1 UVs, 7 flags, 8 indices, 32 positions, 33 clump).
    pub kind: u8,
    /// Elements.
    pub count: u32,
    /// `vertexScale`.
    pub scale: f32,
    /// The payload as stored.
    pub payload: Vec<u8>,
}

/// A gen-2 Model chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Model2 {
    /// `MDL_` object.
    pub object: u32,
    /// vertexScale.
    pub scale: f32,
    /// 1 lit, 4 deformable, 8 shadow.
    pub mtype: u8,
    /// 2 no colours, 4 no UVs.
    pub mflags: u8,
    /// flag lo, flag hi.
    pub flag: [u8; 2],
    /// Tangent and binormal arrays.
    pub tbn: bool,
    /// Outline colour and width (B1+ headers); None writes the 20-byte header.
    pub outline: Option<([u8; 4], f32)>,
    /// Lookup list (written after the header, padded to 4).
    pub lookup: Option<Vec<u8>>,
    /// mmats.
    pub mmats: Vec<Mmat2>,
    /// Extra words added to the size field (a wrong size, on purpose).
    pub size_surplus: i32,
}

/// A ParticleGenerator's parameters (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]), named by payload offset as
/// no source names them (the fades are /2048).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ParticleParams {
    /// +12 s16.
    pub s16_12: i16,
    /// +16 f32.
    pub f32_16: f32,
    /// +20 u16 ×4.
    pub u16_20: [u16; 4],
    /// +28 f32 ×5.
    pub f32_28: [f32; 5],
    /// +48 s16 ×2.
    pub s16_48: [i16; 2],
    /// +52 fade-in (/2048).
    pub fade_in: i16,
    /// +54 fade-out (/2048).
    pub fade_out: i16,
    /// +56 f32 ×7.
    pub f32_56: [f32; 7],
}

/// A ParticleGenerator force field (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ForceField {
    /// Byte 4, unknown.
    pub unknown_4: u8,
    /// Type 0x00..0x21.
    pub field_type: u8,
    /// u16 at 8, unknown.
    pub unknown_8: u16,
    /// f32 ×5.
    pub params: [f32; 5],
}

/// A ParticleAnmCtrl controller: generator, object, extra object, unknown word, one byte
/// per frame.
pub type ParticleCtrl = (u32, u32, u32, u32, Vec<u8>);

/// A Clump node's bind pose: translation, rotation (degrees), scale.
pub type Bind = [[f32; 3]; 3];

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
    /// Gen-2 non-power-of-two texture (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two, SC's reading [?]): `tw`/`th` 0xFF,
    /// then `u16 width, u16 height, u32 count` and level 0's pixels (no buf_x/buf_y), then
    /// the further levels as usual.
    TextureNpot {
        texture: u32,
        clut: u32,
        flag: u8,
        psm: u8,
        width: u16,
        height: u16,
        pixels: Vec<u8>,
        mips: Vec<(u16, u16, Vec<u8>)>,
        size_surplus: i32,
    },
    /// Gen-2 BTX texture (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two [X:AH], [?]): the marker 0xFFFFFFFF, `btx_size`,
    /// a 64-byte BTX header (`"btx\0"`, width, height, one mip, pixel format 7/8/9 from
    /// `psm` 0x87/0x88/0x89, header size 64, total size = `btx_size`, `name`) and the DXT
    /// blocks; `tw`/`th` are the log2 sizes.
    TextureBtx {
        texture: u32,
        flag: u8,
        psm: u8,
        tw: u8,
        th: u8,
        width: u16,
        height: u16,
        name: String,
        blocks: Vec<u8>,
        size_surplus: i32,
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
    /// Gen-2 Obj with its fifth word.
    Obj5 {
        object: u32,
        parent: u32,
        model: u32,
        shadow: u32,
        extra: u32,
    },
    /// Gen-2 Clump with a bind pose per node (`2 + 10n` words).
    ClumpBind {
        object: u32,
        nodes: Vec<u32>,
        bind: Vec<Bind>,
    },
    /// Gen-2 Material: 4 words, 5 with `scale`, 14 with `shader`, 23 with `multi`.
    Material2 {
        object: u32,
        texture: u32,
        alpha: f32,
        offset: [i16; 2],
        scale: Option<[i16; 2]>,
        shader: Option<[u32; 9]>,
        multi: Option<[u32; 9]>,
    },
    /// Gen-2 Model.
    Model2(Model2),
    /// Binary Blob 0x2400: object, opaque bytes (padded to 4 with zeros).
    Blob {
        object: u32,
        payload: Vec<u8>,
    },
    /// Stream post-effect parameter 0x1A00/0x1B00/0x1C00.
    StreamParam {
        kind: u16,
        first: u32,
        object: u32,
        target: u32,
        texture: u32,
    },
    /// Dynamics 0x2300: springs `(node, params)`, collisions `(node, [pos, rot, scale])`.
    Dynamics {
        clump: u32,
        springs: Vec<(u32, [f32; 3])>,
        collisions: Vec<(u32, Bind)>,
    },
    /// Gen-2 masked F_Obj: the values of the clear bits 1..10 in bit order, the display word
    /// when bit 11 is clear.
    FObjMasked {
        object: u32,
        mask: u32,
        values: Vec<f32>,
        display: Option<u32>,
    },
    /// Eff 0x0E00 (docs/formats/ccsf.md#setup-chunks; docs/formats/ccsf-gen2.md#eff-0x0e00): `zoffs` is written as stored (an integer below
    /// 0x122, 8.8 fixed point from it); patterns are `(u, v, opacity)` with a zero pad.
    Eff {
        object: u32,
        texture: u32,
        flag: u16,
        zoffs: i16,
        unknown: u16,
        quad: [f32; 4],
        size: [u16; 2],
        patterns: Vec<[u16; 3]>,
    },
    /// ParticleAnmCtrl 0x0D80 (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90): its controllers.
    ParticleAnm {
        object: u32,
        animation: u32,
        ctrls: Vec<ParticleCtrl>,
    },
    /// ParticleGenerator 0x0D90 (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90): flags hold the force-field and resource
    /// counts; a resource has its four extra bytes above version 0x122.
    ParticleGen {
        object: u32,
        unknown: u32,
        params: ParticleParams,
        force_fields: Vec<ForceField>,
        resources: Vec<(u32, [u8; 4])>,
    },
    /// Gen-2 morph controller 0x1902: `(target model, weight)`.
    MorphCtrl {
        morpher: u32,
        targets: Vec<(u32, Ctrl)>,
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

/// A rigid mmat's head words.
fn rigid_head(name: u32, material: u32, vertices: usize) -> Vec<u32> {
    rec(&raw::MmatRigidHead { name: name.into(), material: material.into(), vertex_num: (vertices as u32).into() })
}

fn model_payload(m: &Model, version: u16) -> Vec<u32> {
    let mtype = if band::of(version).mtype_low_byte { m.mtype & 0xff } else { m.mtype };
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
                w.extend(rigid_head(*name, *material, verts.len()));
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
                w.extend(rec(&raw::MmatDeformHead {
                    material: s(material),
                    vertex_num: (verts.len() as u32).into(),
                    offset_num: 0.into(),
                }));
                w.extend(rec(&raw::BoneNode { node: s(node) }));
                w.extend(bytes_to_words(&positions_bytes(&verts.iter().map(|v| v.pos).collect::<Vec<_>>())));
                w.extend(verts.iter().map(|v| normal_word(v.normal, v.flag)));
                w.extend(verts.iter().map(|v| st_word(v.st)));
            }
            Mmat::Skin { material, entries, sts } => {
                w.extend(rec(&raw::MmatDeformHead {
                    material: s(material),
                    vertex_num: (sts.len() as u32).into(),
                    offset_num: (entries.len() as u32).into(),
                }));
                for e in entries {
                    let wd = (e.weight & 0x1ff) | if e.last { 0x200 } else { 0 } | (u16::from(e.slot & 0x3f) << 10);
                    let b: Vec<u8> = e.pos.iter().flat_map(|c| c.to_le_bytes()).chain(wd.to_le_bytes()).collect();
                    w.extend(bytes_to_words(&b));
                }
                w.extend(entries.iter().map(|e| normal_word(e.normal, e.flag)));
                w.extend(sts.iter().map(|s| st_word(*s)));
            }
            Mmat::Shadow { positions, triangles, inum } => {
                w.extend(rec(&raw::ShadowCounts {
                    v_num: (positions.len() as i32).into(),
                    i_num: inum.unwrap_or(3 * triangles.len() as i32).into(),
                }));
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

fn uv_words(uv: [i32; 2], version: u16) -> Vec<u32> {
    if band::of(version).uv_16_16 {
        vec![uv[0] as u32, uv[1] as u32]
    } else {
        vec![u32::from(uv[0] as u16) | u32::from(uv[1] as u16) << 16]
    }
}

fn model2_payload(m: &Model2, version: u16) -> Vec<u32> {
    let (colour, outline_width) =
        m.outline.map_or((None, None), |(c, w)| (Some(u32::from_le_bytes(c)), Some(w.to_bits())));
    let mut w = rec(&raw::ModelHead2 {
        model: s(&m.object),
        vertex_scale: f(m.scale).into(),
        mtype: s(&m.mtype),
        mflags: s(&m.mflags),
        mmat_num: (m.mmats.len() as u16).into(),
        flag_lo: s(&m.flag[0]),
        flag_hi: s(&m.flag[1]),
        zoffs: 0.into(),
        lookup_count: (m.lookup.as_ref().map_or(0, Vec::len) as u8).into(),
        extra_flags: 0.into(),
        tbn_flag: u16::from(m.tbn).into(),
        outline_colour: colour.map(Spanned::from),
        outline_width: outline_width.map(Spanned::from),
    });
    if let Some(l) = &m.lookup {
        w.extend(rec(&raw::LookupList { lookup: l.iter().copied().map(Spanned::from).collect() }));
        // the record is bytes: `rec` zero-pads its last word
    }
    let facts = band::of(version);
    let tbn = |w: &mut Vec<u32>, verts: &[Vert2]| {
        if m.tbn {
            w.extend(verts.iter().map(|v| v.tangent));
            w.extend(verts.iter().map(|v| v.binormal));
        }
    };
    for mm in &m.mmats {
        match mm {
            Mmat2::Rigid { name, material, verts } => {
                w.extend(rigid_head(*name, *material, verts.len()));
                w.extend(bytes_to_words(&positions_zero(&verts.iter().map(|v| v.pos).collect::<Vec<_>>())));
                w.extend(verts.iter().map(|v| normal_word(v.normal, v.flag)));
                if m.mflags & 2 == 0 {
                    w.extend(verts.iter().map(|v| u32::from_le_bytes(v.colour)));
                }
                if m.mflags & 4 == 0 {
                    w.extend(verts.iter().flat_map(|v| uv_words(v.uv, version)));
                }
                tbn(&mut w, verts);
            }
            Mmat2::Bone { material, node, verts } => {
                w.extend(rec(&raw::MmatDeformHead {
                    material: s(material),
                    vertex_num: (verts.len() as u32).into(),
                    offset_num: 0.into(),
                }));
                w.extend(rec(&raw::BoneNode { node: s(node) }));
                w.extend(bytes_to_words(&positions_zero(&verts.iter().map(|v| v.pos).collect::<Vec<_>>())));
                w.extend(verts.iter().map(|v| normal_word(v.normal, v.flag)));
                w.extend(verts.iter().flat_map(|v| uv_words(v.uv, version)));
                tbn(&mut w, verts);
            }
            Mmat2::Skin { material, entries, uvs } => {
                w.extend(rec(&raw::MmatDeformHead {
                    material: s(material),
                    vertex_num: (uvs.len() as u32).into(),
                    offset_num: (entries.len() as u32).into(),
                }));
                let mut b = Vec::new();
                for e in entries {
                    b.extend(e.pos.iter().flat_map(|c| c.to_le_bytes()));
                    if facts.skin_entry_bytes == 12 {
                        b.extend(e.weight.to_le_bytes());
                        b.extend(i16::from(e.last).to_le_bytes());
                        b.extend(e.slot.to_le_bytes());
                    } else {
                        let wd =
                            (e.weight as u16 & 0x1ff) | if e.last { 0x200 } else { 0 } | ((e.slot as u16 & 0x3f) << 10);
                        b.extend(wd.to_le_bytes());
                    }
                }
                w.extend(bytes_to_words(&b));
                w.extend(entries.iter().map(|e| normal_word(e.normal, e.flag)));
                w.extend(uvs.iter().flat_map(|uv| uv_words(*uv, version)));
                if m.tbn && facts.skin_tangents {
                    w.extend(entries.iter().map(|_| 0x7f00_0000u32));
                    w.extend(entries.iter().map(|_| 0x7f00_0000u32));
                }
            }
            Mmat2::TriList { material, sections } => {
                w.extend(rec(&raw::MmatTriHead {
                    material: s(material),
                    section_count: (sections.len() as u32).into(),
                }));
                for t in sections {
                    w.extend(rec(&raw::TriSectionHead {
                        section_flags: s(&t.flags),
                        section_type: s(&t.kind),
                        pad: [0, 0].into(),
                        count: s(&t.count),
                        vertex_scale: f(t.scale).into(),
                    }));
                    w.extend(bytes_to_words(&t.payload));
                }
            }
            Mmat2::Shadow { positions, indices } => {
                w.extend(rec(&raw::ShadowCounts {
                    v_num: (positions.len() as i32).into(),
                    i_num: (indices.len() as i32).into(),
                }));
                w.extend(bytes_to_words(&positions_zero(positions)));
                w.extend(indices.iter().map(|x| *x as u32));
            }
        }
    }
    w
}

/// Positions padded to 4 with zeros (gen 2: the pad bytes are zero in the sample).
fn positions_zero(p: &[[i16; 3]]) -> Vec<u8> {
    let mut v: Vec<u8> = p.iter().flat_map(|x| x.iter().flat_map(|c| c.to_le_bytes())).collect();
    while !v.len().is_multiple_of(4) {
        v.push(0);
    }
    v
}

/// A chunk's kind, tag, payload words and the size surplus its header declares.
type Words = (u16, u16, Vec<u32>, i64);

fn chunk_words(c: &Chunk, version: u16) -> Words {
    let cc = 0xcccc;
    match c {
        Chunk::Texture { .. } | Chunk::TextureNpot { .. } | Chunk::TextureBtx { .. } | Chunk::Clut { .. } => {
            texture_words(c, version)
        }
        Chunk::FObj { .. }
        | Chunk::FNote { .. }
        | Chunk::FCamera { .. }
        | Chunk::FAmbient { .. }
        | Chunk::FMorpher { .. }
        | Chunk::ObjCtrl { .. }
        | Chunk::MatCtrl { .. }
        | Chunk::LightCtrl { .. }
        | Chunk::MorphCtrl { .. }
        | Chunk::FObjMasked { .. } => frame_words(c, version),
        Chunk::Eff { .. } | Chunk::ParticleAnm { .. } | Chunk::ParticleGen { .. } | Chunk::Dynamics { .. } => {
            effect_words(c, version)
        }
        Chunk::Obj { .. }
        | Chunk::Obj5 { .. }
        | Chunk::Obj2 { .. }
        | Chunk::Material { .. }
        | Chunk::Material2 { .. }
        | Chunk::Clump { .. }
        | Chunk::ClumpBind { .. }
        | Chunk::Hit { .. } => object_words(c, version),
        Chunk::Setup => (0x0003, 0, vec![], 0),
        Chunk::Camera { object } => (0x0500, cc, rec(&raw::Camera { object: s(object) }), 0),
        Chunk::Light { object, light_type } => {
            let r = raw::Light { object: s(object), type_: s(light_type), pad: [0, 0].into() };
            (0x0600, cc, rec(&r), 0)
        }
        Chunk::Anime { object, frames, records } => {
            let mut sub = Vec::new();
            for r in records {
                let (k, t, w, _) = chunk_words(r, version);
                sub.extend(rec(&raw::ChunkHeader::new(k, t, w.len() as u32)));
                sub.extend(w);
            }
            let head = raw::AnimeHead { object: s(object), frames: s(frames), words: (sub.len() as u32).into() };
            let mut w = rec(&head);
            w.extend(sub);
            (0x0700, cc, w, 0)
        }
        Chunk::Model(m) => (0x0800, cc, model_payload(m, version), i64::from(m.size_surplus)),
        Chunk::ExtObj { object, parent, target } => {
            (0x0a00, cc, rec(&raw::ExtObj { object: s(object), parent: s(parent), target: s(target) }), 0)
        }
        Chunk::Bbox { object, target, min, max } => {
            let r = raw::Bbox { box_: s(object), target: s(target), min: v3(min), max: v3(max) };
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
        Chunk::Frame { count, tag } => (0x0005, *tag, rec(&raw::Frame { frame_count: s(count) }), 0),
        Chunk::Top { frame } => (0xff01, cc, rec(&raw::Top { frame: s(frame) }), 0),
        Chunk::Raw { kind, tag, payload } => (*kind, *tag, bytes_to_words(payload), 0),
        Chunk::Model2(m) => (0x0800, cc, model2_payload(m, version), i64::from(m.size_surplus)),
        Chunk::Blob { object, payload } => {
            let mut w = rec(&raw::BlobHead { object: s(object) });
            w.extend(bytes_to_words(payload));
            (0x2400, cc, w, 0)
        }
        Chunk::StreamParam { kind, first, object, target, texture } => {
            let r = raw::StreamParam {
                layer_or_unknown: s(first),
                object: s(object),
                target: s(target),
                texture: s(texture),
            };
            (*kind, cc, rec(&r), 0)
        }
    }
}

/// The words of an object chunk (objects, their materials, clumps and hit shapes).
fn object_words(c: &Chunk, version: u16) -> Words {
    let cc = 0xcccc;
    match c {
        Chunk::Obj { object, parent, model, shadow } => {
            let shadow_model = band::of(version).obj_shadow_model.then(|| s(shadow));
            let r = raw::Obj { object: s(object), parent: s(parent), model: s(model), shadow_model, extra: None };
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
        Chunk::Clump { object, nodes } => {
            let head = raw::Clump { object: s(object), n: (nodes.len() as u16).into(), pad: [0, 0].into() };
            let mut w = rec(&head);
            w.extend(rec(&raw::ObjectList { node: nodes.iter().copied().map(Spanned::from).collect() }));
            (0x0900, cc, w, 0)
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
        Chunk::Obj5 { object, parent, model, shadow, extra } => {
            let r = raw::Obj {
                object: s(object),
                parent: s(parent),
                model: s(model),
                shadow_model: Some(s(shadow)),
                extra: Some(s(extra)),
            };
            (0x0100, cc, rec(&r), 0)
        }
        Chunk::ClumpBind { object, nodes, bind } => {
            let head = raw::Clump { object: s(object), n: (nodes.len() as u16).into(), pad: [0, 0].into() };
            let mut w = rec(&head);
            w.extend(rec(&raw::ObjectList { node: nodes.iter().copied().map(Spanned::from).collect() }));
            w.extend(rec(&raw::ClumpBinds {
                bind: bind.iter().map(|[p, r, sc]| raw::ClumpBind { pos: v3(p), rot: v3(r), scale: v3(sc) }).collect(),
            }));
            (0x0900, cc, w, 0)
        }
        Chunk::Material2 { object, texture, alpha, offset, scale, shader, multi } => {
            let u = |w: u32| Spanned::new(w);
            let lo = |w: u32| Spanned::new(w as u16);
            let hi = |w: u32| Spanned::new((w >> 16) as u16);
            let r = raw::Material2 {
                object: s(object),
                texture: s(texture),
                alpha: f(*alpha).into(),
                offset_u: offset[0].into(),
                offset_v: offset[1].into(),
                scale: scale.map(|[a, b]| raw::MaterialScale { scale_u: a.into(), scale_v: b.into() }),
                shader: shader.map(|w| raw::MaterialShader {
                    force_colour: u(w[0]),
                    cull: u(w[1]),
                    ambient: u(w[2]),
                    normal_texture: u(w[3]),
                    normal_strength: u(w[4]),
                    use_specular: lo(w[5]),
                    debug_specular: hi(w[5]),
                    specular_texture: u(w[6]),
                    specular_strength: u(w[7]),
                    shininess: u(w[8]),
                }),
                multi: multi.map(|w| raw::MaterialMulti {
                    multi_texture: u(w[0]),
                    multi_blend: lo(w[1]),
                    multi_uv_mode: hi(w[1]),
                    multi_scale_u: u(w[2]),
                    multi_scale_v: u(w[3]),
                    multi_offset_u: u(w[4]),
                    multi_offset_v: u(w[5]),
                    multi_scroll_u: u(w[6]),
                    multi_scroll_v: u(w[7]),
                    emission: u(w[8]),
                }),
            };
            (0x0200, cc, rec(&r), 0)
        }
        // [`chunk_words`] sends no other chunk here
        _ => (0, 0, Vec::new(), 0),
    }
}

/// The words of a texture section chunk (textures, their mip levels and CLUTs).
fn texture_words(c: &Chunk, version: u16) -> Words {
    let cc = 0xcccc;
    match c {
        Chunk::Texture { texture, clut, blt_group, flag, psm, aref, tw, th, levels, size_surplus } => {
            let long = band::of(version).long_texture_header.then(|| raw::TextureLong {
                mipmap: (levels.len().saturating_sub(1) as u8).into(),
                aref: s(aref),
                tw: s(tw),
                th: s(th),
            });
            let mut w = rec(&raw::TextureHead {
                texture: s(texture),
                clut: s(clut),
                blt_group: band::of(version).blt_group.then(|| s(blt_group)),
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
        Chunk::TextureNpot { texture, clut, flag, psm, width, height, pixels, mips, size_surplus } => {
            let mut w = rec(&raw::TextureHead {
                texture: s(texture),
                clut: s(clut),
                blt_group: Some(0.into()),
                flag: s(flag),
                psm: s(psm),
                long: Some(raw::TextureLong {
                    mipmap: (mips.len() as u8).into(),
                    aref: 0x70.into(),
                    tw: 0xff.into(),
                    th: 0xff.into(),
                }),
                pad: [0xcd, 0xcd].into(),
            });
            let pw = bytes_to_words(pixels);
            w.extend(rec(&raw::NpotHead { width: s(width), height: s(height), count: (pw.len() as u32).into() }));
            w.extend(pw);
            for (x, y, px) in mips {
                let pw = bytes_to_words(px);
                w.extend(rec(&raw::LevelHead { buf_x: s(x), buf_y: s(y), count: (pw.len() as u32).into() }));
                w.extend(pw);
            }
            (0x0300, cc, w, i64::from(*size_surplus))
        }
        Chunk::TextureBtx { texture, flag, psm, tw, th, width, height, name, blocks, size_surplus } => {
            let mut w = rec(&raw::TextureHead {
                texture: s(texture),
                clut: 0.into(),
                blt_group: Some(0.into()),
                flag: s(flag),
                psm: s(psm),
                long: Some(raw::TextureLong { mipmap: 0.into(), aref: 0x70.into(), tw: s(tw), th: s(th) }),
                pad: [0xcd, 0xcd].into(),
            });
            let btx_size = 64 + blocks.len() as u32;
            w.extend(rec(&raw::BtxHead { marker: u32::MAX.into(), btx_size: btx_size.into() }));
            let mut name16 = [0u8; 16];
            for (d, c) in name16.iter_mut().zip(name.bytes()) {
                *d = c;
            }
            w.extend(rec(&raw::BtxHeader {
                magic: (*b"btx\0").into(),
                width: s(width),
                height: s(height),
                mip_count: 1.into(),
                pixel_format: u16::from(psm & 0x0f).into(),
                header_size: 64.into(),
                total_size: btx_size.into(),
                name: name16.into(),
                ..Default::default()
            }));
            w.extend(bytes_to_words(blocks));
            (0x0300, cc, w, i64::from(*size_surplus))
        }
        Chunk::Clut { clut, blt_group, flag, buf, colours } => {
            let mut w = rec(&raw::ClutHead {
                clut: s(clut),
                blt_group: band::of(version).blt_group.then(|| s(blt_group)),
                flag: s(flag),
                buf_x: buf[0].into(),
                buf_y: buf[1].into(),
                count: (colours.len() as u32).into(),
                ..Default::default()
            });
            w.extend(colours.iter().map(|c| u32::from_le_bytes(*c)));
            (0x0400, cc, w, 0)
        }
        // [`chunk_words`] sends no other chunk here
        _ => (0, 0, Vec::new(), 0),
    }
}

/// The words of a frame record (object, camera and light states, their controllers).
fn frame_words(c: &Chunk, version: u16) -> Words {
    let cc = 0xcccc;
    match c {
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
            let head = [*object, *flag].into_iter();
            let r = raw::Words { word: head.chain(values.iter().map(|v| f(*v))).map(Spanned::from).collect() };
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
            let mut w = rec(&raw::CtrlHead { object: s(object), flags: flags.into() });
            for c in [pos, rot, scale, alpha] {
                c.write(&mut w);
            }
            (0x0102, cc, w, 0)
        }
        Chunk::MatCtrl { material, u, v } => {
            let flags = u.k() | v.k() << 3;
            let mut w = rec(&raw::CtrlHead { object: s(material), flags: flags.into() });
            u.write(&mut w);
            v.write(&mut w);
            (0x0202, cc, w, 0)
        }
        Chunk::LightCtrl { kind, light, fields } => {
            let lay = super::anime::layout_at(*kind, version).unwrap_or(&[]);
            let flags = lay.iter().zip(fields).fold(0, |a, ((shift, _, _), c)| a | c.k() << shift);
            let mut w = rec(&raw::CtrlHead { object: s(light), flags: flags.into() });
            for c in fields {
                c.write(&mut w);
            }
            (*kind, cc, w, 0)
        }
        Chunk::FObjMasked { object, mask, values, display } => {
            let mut w = rec(&raw::FObjHead2 { object: s(object), mask: s(mask) });
            // the values as given (a fixture may hold other than the mask announces)
            let words = values.iter().map(|v| f(*v)).chain(*display);
            w.extend(rec(&raw::Words { word: words.map(Spanned::from).collect() }));
            (0x0101, cc, w, 0)
        }
        Chunk::MorphCtrl { morpher, targets } => {
            let mut w = rec(&raw::MorphCtrlHead { morpher: s(morpher), target_count: (targets.len() as u32).into() });
            for (model, weight) in targets {
                w.extend(rec(&raw::MorphCtrlTarget { model: s(model), flags: weight.k().into() }));
                weight.write(&mut w);
            }
            (0x1902, cc, w, 0)
        }
        // [`chunk_words`] sends no other chunk here
        _ => (0, 0, Vec::new(), 0),
    }
}

/// The words of an effect chunk (billboards, particles, dynamics).
fn effect_words(c: &Chunk, version: u16) -> Words {
    let cc = 0xcccc;
    match c {
        Chunk::Dynamics { clump, springs, collisions } => {
            let mut w = rec(&raw::DynamicsHead {
                clump: s(clump),
                spring_count: (springs.len() as u16).into(),
                collision_count: (collisions.len() as u16).into(),
            });
            for (node, p) in springs {
                w.extend(rec(&raw::Spring { node: s(node), param: v3(p) }));
            }
            for (node, [p, r, sc]) in collisions {
                w.extend(rec(&raw::Collision { node: s(node), pos: v3(p), rot: v3(r), scale: v3(sc) }));
            }
            (0x2300, cc, w, 0)
        }
        Chunk::Eff { object, texture, flag, zoffs, unknown, quad, size, patterns } => {
            let mut w = rec(&raw::Eff {
                version,
                object: s(object),
                texture: s(texture),
                flag: s(flag),
                zoffs: s(zoffs),
                unknown: s(unknown),
                pat_num: (patterns.len() as u16).into(),
                x0: f(quad[0]).into(),
                y0: f(quad[1]).into(),
                x1: f(quad[2]).into(),
                y1: f(quad[3]).into(),
                w: size[0].into(),
                h: size[1].into(),
            });
            for [u, v, opacity] in patterns {
                w.extend(rec(&raw::EffPattern { u: s(u), v: s(v), transparency: s(opacity), pad: 0.into() }));
            }
            (0x0e00, cc, w, 0)
        }
        Chunk::ParticleAnm { object, animation, ctrls } => {
            let mut w = rec(&raw::ParticleAnmHead {
                object: s(object),
                animation: s(animation),
                ctrl_count: (ctrls.len() as u16).into(),
                pad: [0xcc, 0xcc].into(),
            });
            for (generator, object, extra, unknown, frames) in ctrls {
                w.extend(rec(&raw::ParticleCtrl {
                    generator: s(generator),
                    object: s(object),
                    extra_object: s(extra),
                    unknown: s(unknown),
                    frame_count: (frames.len() as u16).into(),
                    pad: [0xcc, 0xcc].into(),
                }));
                // zero-padded to 4
                w.extend(bytes_to_words(frames));
            }
            (0x0d80, cc, w, 0)
        }
        Chunk::ParticleGen { object, unknown, params: p, force_fields, resources } => {
            let flags = (resources.len() as u32 & 15) << 12 | (force_fields.len() as u32 & 15) << 16;
            let mut w = rec(&raw::ParticleGenHead { object: s(object), unknown: s(unknown), flags: flags.into() });
            w.extend(rec(&raw::ParticleGenParams {
                s16_12: s(&p.s16_12),
                pad_14: [0xcc, 0xcc].into(),
                f32_16: f(p.f32_16).into(),
                u16_20: s(&p.u16_20[0]),
                u16_22: s(&p.u16_20[1]),
                u16_24: s(&p.u16_20[2]),
                u16_26: s(&p.u16_20[3]),
                f32_28: f(p.f32_28[0]).into(),
                f32_32: f(p.f32_28[1]).into(),
                f32_36: f(p.f32_28[2]).into(),
                f32_40: f(p.f32_28[3]).into(),
                f32_44: f(p.f32_28[4]).into(),
                s16_48: s(&p.s16_48[0]),
                s16_50: s(&p.s16_48[1]),
                fade_in: s(&p.fade_in),
                fade_out: s(&p.fade_out),
                f32_56: f(p.f32_56[0]).into(),
                f32_60: f(p.f32_56[1]).into(),
                f32_64: f(p.f32_56[2]).into(),
                f32_68: f(p.f32_56[3]).into(),
                f32_72: f(p.f32_56[4]).into(),
                f32_76: f(p.f32_56[5]).into(),
                f32_80: f(p.f32_56[6]).into(),
            }));
            for ff in force_fields {
                w.extend(rec(&raw::ForceField {
                    pad_0: [0; 4].into(),
                    unknown_4: s(&ff.unknown_4),
                    pad_5: 0xcc.into(),
                    type_: s(&ff.field_type),
                    pad_7: 0.into(),
                    unknown_8: s(&ff.unknown_8),
                    pad_10: [0xcc, 0xcc].into(),
                    param: ff.params.map(|x| f(x).into()),
                }));
            }
            for (object, extra) in resources {
                let extra = band::of(version).particle_resource_extra.then(|| (*extra).into());
                w.extend(rec(&raw::ParticleResource { object: s(object), extra }));
            }
            (0x0d90, cc, w, 0)
        }
        // [`chunk_words`] sends no other chunk here
        _ => (0, 0, Vec::new(), 0),
    }
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
    // entry 0 of each table is blank; longer names are cut to the field
    ix.extend(rec(&raw::IndexFile::default()));
    for (c, p) in &file.files {
        let mut path = [0u8; 32];
        for (d, b) in path.iter_mut().zip(std::iter::once(*c).chain(p.bytes())) {
            *d = b;
        }
        ix.extend(rec(&raw::IndexFile { path: path.into() }));
    }
    ix.extend(rec(&raw::IndexObject::default()));
    for (n, file_ix) in &file.objects {
        let mut name = [0u8; 30];
        for (d, b) in name.iter_mut().zip(n.bytes()) {
            *d = b;
        }
        ix.extend(rec(&raw::IndexObject { name: name.into(), file: s(file_ix) }));
    }
    push_chunk(&mut out, 0x0002, 0xcccc, &ix, 0);
    for c in &file.chunks {
        let (k, t, w, s) = chunk_words(c, file.version);
        push_chunk(&mut out, k, t, &w, s);
    }
    out
}

pub use super::gen2_fixtures::{edge, gen2_files, scene_123, scene_125};

pub use super::fixtures::{
    STRIPE_COLOURS, bad_files, chara, empty_frame_section, find_kind, fixture_files, fixtures, framing, mini, old,
    stream_pair, stripes, texture_chunk, town,
};
