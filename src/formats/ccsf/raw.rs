//! On-disk records of CCSF files (docs/formats/ccsf.md), one binrw declaration
//! each, with the spec's field names: the chunk header, the Header and Index chunks, every
//! fixed setup layout (#setup-chunks), the Texture/Clut headers (#texture-0x0300), the Anime
//! container and controller heads (#anime-0x0700), the frame records (#per-frame-records) and
//! the Model header (#model-0x0800); later generations' records are in docs/formats/ccsf-gen2.md.
//! `parse`
//! reads them, `describe` shows them through [`Labelled::fields_in`] (fields, units and
//! notes beside the declaration), `write` writes them. Layouts that change with the
//! version (0x90/0x92/0x96) take the version as an argument. Strips, vertex arrays, pixel
//! runs and controller keys stay hand-written over the checked byte view (`mesh.rs`,
//! `texture.rs`, `anime.rs`); tables whose length is a count in the file are read only
//! through a [`Count`] checked against the bytes left.
//!
//! Every field is 4-byte little-endian unless declared otherwise; `f32` fields are kept as
//! their bits (`Value::f32` shows the bits and the number), so a record reads and writes
//! back exactly, NaNs included.

use super::parse::Index;
use crate::formats::record::{ByteArray, Count, FixedSize, Record, Spanned};
use crate::model::{Field, Span, Value};
use binrw::binrw;

/// What an object index names (the Index of the file being shown).
pub(in crate::formats) trait Names {
    /// Display name of object `n` (`none` for 0).
    fn name(&self, n: u32) -> String;
}

impl Names for Index {
    fn name(&self, n: u32) -> String {
        Index::name(self, n)
    }
}

/// A record's fields as `describe` shows them, object indices named by `names`.
pub(in crate::formats) trait Labelled {
    /// Every field in file order.
    fn fields_in(&self, names: &dyn Names) -> Vec<Field>;
}

/// Record names and [`Record`] for records labelled with [`Labelled`] (object fields show
/// the number only when no Index is at hand).
macro_rules! records {
    ($($t:ident = $name:literal;)*) => {
        $(impl Record for $t {
            const NAME: &'static str = $name;
            fn fields(&self) -> Vec<Field> {
                self.fields_in(&Index::default())
            }
        })*
    };
}

/// Bytes of one record that are fixed, for the `FixedSize` checks.
macro_rules! sizes {
    ($($t:ident = $n:literal;)*) => {
        $(impl FixedSize for $t {
            const SIZE: u64 = $n;
        })*
    };
}

// ---------------------------------------------------------------------------------------
// Field shapes shared by the records (the same shapes the spec's tables use).

/// An object index, named.
pub(in crate::formats) fn obj(s: &Spanned<u32>, name: &str, names: &dyn Names) -> Field {
    s.field(name, Value::dec(u64::from(**s)).refers(names.name(**s)))
}
/// A u32 shown in hex.
fn hex32(s: &Spanned<u32>, name: &str) -> Field {
    s.field(name, Value::uint(u64::from(**s), 4))
}
/// A u32 count or number.
fn dec32(s: &Spanned<u32>, name: &str) -> Field {
    s.field(name, Value::dec(u64::from(**s)))
}
/// A u16 count or number.
fn dec16(s: &Spanned<u16>, name: &str) -> Field {
    s.field(name, Value::dec(u64::from(**s)))
}
/// A signed 16-bit number.
fn int16(s: &Spanned<i16>, name: &str) -> Field {
    s.field(name, Value::int(i64::from(**s), 2))
}
/// A byte shown in hex.
fn hex8(s: &Spanned<u8>, name: &str) -> Field {
    s.field(name, Value::uint(u64::from(**s), 1))
}
/// An f32 (its bits), with a unit when it has one.
fn float(s: &Spanned<u32>, name: &str, unit: &str) -> Field {
    let v = Value::f32(**s);
    let v = if unit.is_empty() { v } else { v.number(f64::from(f32::from_bits(**s)), unit) };
    s.field(name, v)
}
/// Padding the game skips.
fn pad<const N: usize>(s: &Spanned<ByteArray<N>>) -> Field {
    s.field("pad", Value::bytes(N as u64)).note("pad, ignored")
}
/// An RGBA colour word (R in the low byte; 0x80 = full in most places).
pub(in crate::formats) fn colour_value(w: u32) -> Value {
    let [r, g, b, a] = w.to_le_bytes();
    Value::uint(u64::from(w), 4).label(format!("rgba {r} {g} {b} {a}"))
}
fn colour(s: &Spanned<u32>, name: &str) -> Field {
    s.field(name, colour_value(**s))
}

/// Three f32s (`pos[3]`, `rot[3]`, `min[3]`), shown as `name.x`, `name.y`, `name.z`.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(in crate::formats) struct Vec3 {
    /// x (bits of an f32).
    pub x: Spanned<u32>,
    /// y.
    pub y: Spanned<u32>,
    /// z.
    pub z: Spanned<u32>,
}

impl Vec3 {
    /// From three floats (for writing).
    pub fn new(v: [f32; 3]) -> Self {
        Vec3 { x: v[0].to_bits().into(), y: v[1].to_bits().into(), z: v[2].to_bits().into() }
    }
    fn fields(&self, name: &str, unit: &str) -> [Field; 3] {
        [
            float(&self.x, &format!("{name}.x"), unit),
            float(&self.y, &format!("{name}.y"), unit),
            float(&self.z, &format!("{name}.z"), unit),
        ]
    }
}

// ---------------------------------------------------------------------------------------
// Chunk header, Header, Index (docs/formats/ccsf.md#chunk-header, #header-0x0001, #index-0x0002).

/// Every chunk's first 8 bytes (docs/formats/ccsf.md#chunk-header).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ChunkHeader {
    /// Chunk kind (docs/formats/ccsf.md#chunk-kinds).
    pub kind: Spanned<u16>,
    /// 0xCCCC in files; ignored by the game.
    pub tag: Spanned<u16>,
    /// Payload length in 4-byte words.
    pub size: Spanned<u32>,
}

impl ChunkHeader {
    /// A header for writing.
    pub fn new(kind: u16, tag: u16, size: u32) -> Self {
        ChunkHeader { kind: kind.into(), tag: tag.into(), size: size.into() }
    }
    /// The header of a walked chunk at `off` (the walker has read these bytes already).
    pub fn at(off: u64, kind: u16, tag: u16, size: u32) -> Self {
        ChunkHeader {
            kind: Spanned { value: kind, span: Span::at(off, 2) },
            tag: Spanned { value: tag, span: Span::at(off + 2, 2) },
            size: Spanned { value: size, span: Span::at(off + 4, 4) },
        }
    }
    /// The three fields, `kind` named `kname`; `tag_note` for top-level chunks.
    pub fn fields(&self, kname: &str, tag_note: bool) -> [Field; 3] {
        let tag = self.tag.field("tag", Value::uint(u64::from(*self.tag), 2));
        [
            self.kind.field("kind", Value::uint(u64::from(*self.kind), 2).label(kname)),
            if tag_note { tag.note("ignored by the game") } else { tag },
            self.size.field("size", Value::dec(u64::from(*self.size)).label("words")),
        ]
    }
}

/// The Header chunk's payload up to its word table (docs/formats/ccsf.md#header-0x0001).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Header {
    /// `"CCSF"`.
    pub magic: Spanned<ByteArray<4>>,
    /// NUL-padded; the member's stem.
    pub name: Spanned<ByteArray<32>>,
    /// Layout gates 0x90/0x92/0x96/0x100 (docs/formats/ccsf.md#version-gates).
    pub version: Spanned<u16>,
    /// Value not documented [?].
    pub pad: Spanned<u16>,
    /// Length of the frame seek table.
    pub frames: Spanned<u32>,
    /// Words that follow (1 in every file).
    pub count: Spanned<u32>,
}

/// What each version range opens (docs/formats/ccsf.md#version-gates).
pub(in crate::formats) fn version_gate(v: u16) -> &'static str {
    match v {
        0..=0x8f => "below 0x90: the game refuses it",
        0x90..=0x91 => "≥0x90: long texture header; no blt_group; 3-word Obj; mtype masked",
        0x92..=0x95 => "≥0x92: blt_group words; 3-word Obj; mtype masked",
        0x96..=0xff => "≥0x96: 4-word Obj; mtype masked to its low byte",
        0x100 => "0x100: every gate open",
        _ => "not gen 1 (.hack//Infection uses 0x90..0x100)",
    }
}

impl Labelled for Header {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        let s = self;
        let v = *s.version;
        vec![
            s.magic.field("magic", Value::text(&s.magic.0)),
            s.name.field("name", Value::text(super::parse::trim_nul(&s.name.0))).note("NUL-padded; = member stem"),
            s.version.field("version", Value::uint(u64::from(v), 2).label(version_gate(v))),
            s.pad.field("pad", Value::uint(u64::from(*s.pad), 2).unknown()).note("[?] value not documented"),
            dec32(&s.frames, "frames"),
            dec32(&s.count, "count"),
        ]
    }
}

/// `n` u32 words (the Header's word table, shown in hex as `word[i]`).
#[binrw]
#[brw(little)]
#[br(import(n: Count))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Words {
    /// The words.
    #[br(count = n.get())]
    pub word: Vec<Spanned<u32>>,
}

impl Labelled for Words {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        self.word.iter().enumerate().map(|(i, w)| hex32(w, &format!("word[{i}]"))).collect()
    }
}

/// `n` object indices (Clump nodes).
#[binrw]
#[brw(little)]
#[br(import(n: Count))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ObjectList {
    /// The indices.
    #[br(count = n.get())]
    pub node: Vec<Spanned<u32>>,
}

impl Labelled for ObjectList {
    fn fields_in(&self, names: &dyn Names) -> Vec<Field> {
        self.node.iter().enumerate().map(|(i, w)| obj(w, &format!("node[{i}]"), names)).collect()
    }
}

/// The Index chunk's two counts (docs/formats/ccsf.md#index-0x0002).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct IndexHead {
    /// Entries of 32 bytes in the file table.
    pub file_count: Spanned<u32>,
    /// Entries of 32 bytes in the object table.
    pub object_count: Spanned<u32>,
}

impl Labelled for IndexHead {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![dec32(&self.file_count, "file_count"), dec32(&self.object_count, "object_count")]
    }
}

/// One file-table entry: a NUL-padded path whose first byte says where it is defined.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct IndexFile {
    /// `'#'` defined in another file, `' '` here, else blank.
    pub path: Spanned<ByteArray<32>>,
}

/// One object-table entry.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct IndexObject {
    /// NUL-padded name.
    pub name: Spanned<ByteArray<30>>,
    /// Index into the file table.
    pub file: Spanned<u16>,
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#setup-chunks setup layouts (payload after the chunk header).

/// Frame 0x0005 (both sections).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Frame {
    /// Frames in the section.
    pub frame_count: Spanned<u32>,
}

impl Labelled for Frame {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![dec32(&self.frame_count, "frame_count")]
    }
}

/// Top 0xFF01: opens frame `frame`, or ends the section (−1 once, −2 loop).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Top {
    /// Frame number, or 0xFFFFFFFF / 0xFFFFFFFE.
    pub frame: Spanned<u32>,
}

impl Top {
    /// The `frame` field; `anime` names the ends as an Anime plays them.
    pub fn frame_field(&self, anime: bool) -> Field {
        let n = *self.frame;
        let v = match (n, anime) {
            (0xffff_ffff, false) => Value::uint(u64::from(n), 4).label("end (-1): once / close"),
            (0xffff_fffe, false) => Value::uint(u64::from(n), 4).label("end+reset (-2): loop / rewind"),
            (0xffff_ffff, true) => Value::uint(u64::from(n), 4).label("end (-1): play once"),
            (0xffff_fffe, true) => Value::uint(u64::from(n), 4).label("end (-2): loop"),
            _ => Value::dec(u64::from(n)),
        };
        self.frame.field("frame", v)
    }
}

impl Labelled for Top {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![self.frame_field(false)]
    }
}

/// Obj 0x0100: 3 words before version 0x96, 4 from it; from 0x110 a fifth word when the
/// chunk's size says 5 (docs/formats/ccsf-gen2.md#obj-0x0100: the readers disagree on the band, the size decides).
#[binrw]
#[brw(little)]
#[br(import(version: u16, words: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Obj {
    /// OBJ_ index.
    pub object: Spanned<u32>,
    /// Parent object (0 = none).
    pub parent: Spanned<u32>,
    /// MDL_ or 0.
    pub model: Spanned<u32>,
    /// From version 0x96.
    #[br(if(version >= 0x96))]
    pub shadow_model: Option<Spanned<u32>>,
    /// Gen 2 with a 5-word size: flags of unknown meaning (AH: an object index).
    #[br(if(version >= 0x110 && words >= 5))]
    pub extra: Option<Spanned<u32>>,
}

impl Labelled for Obj {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, "object", n), obj(&self.parent, "parent", n), obj(&self.model, "model", n)];
        v.extend(self.shadow_model.as_ref().map(|s| obj(s, "shadow_model", n)));
        v.extend(self.extra.as_ref().map(|s| {
            s.field("extra", Value::uint(u64::from(**s), 4).unknown())
                .note("gen 2: flags, meaning unknown [?] (AH reads an object index); copied through")
        }));
        v
    }
}

/// Material 0x0200.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Material {
    /// MAT_ index.
    pub object: Spanned<u32>,
    /// TEX_ index.
    pub texture: Spanned<u32>,
    /// f32.
    pub transparency: Spanned<u32>,
    /// UV-animation reference point.
    pub crop_u: Spanned<u16>,
    /// UV-animation reference point.
    pub crop_v: Spanned<u16>,
}

impl Labelled for Material {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        vec![
            obj(&s.object, "object", n),
            obj(&s.texture, "texture", n),
            float(&s.transparency, "transparency", ""),
            dec16(&s.crop_u, "crop_u"),
            dec16(&s.crop_v, "crop_v"),
        ]
    }
}

/// Camera 0x0500, Anime/Model-less chunks whose payload is one object word.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Camera {
    /// CAM_ index.
    pub object: Spanned<u32>,
}

impl Labelled for Camera {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![obj(&self.object, "object", n)]
    }
}

/// The first payload word of a chunk whose first word is its own object index (docs/formats/ccsf.md#chunk-kinds;
/// docs/formats/ccsf-gen2.md#walker "first payload word"): how the tree names chunks and how lookups find the
/// chunk that defines an object (Anime, Texture, Clut, Material, ...).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ObjectWord {
    /// The chunk's own object index.
    pub object: Spanned<u32>,
}

impl Labelled for ObjectWord {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![obj(&self.object, "object", n)]
    }
}

/// Light 0x0600.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Light {
    /// LGT_ index.
    pub object: Spanned<u32>,
    /// `type`: 1 distant, 2 direct, 3 spot, 4 omni.
    pub light_type: Spanned<i16>,
    /// Pad to 4.
    pub pad: Spanned<ByteArray<2>>,
}

impl Labelled for Light {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let t = *self.light_type;
        let l = match t {
            1 => "distant",
            2 => "direct",
            3 => "spot",
            4 => "omni",
            _ => "unknown",
        };
        vec![
            obj(&self.object, "object", n),
            self.light_type.field("type", Value::int(i64::from(t), 2).label(l)),
            pad(&self.pad),
        ]
    }
}

/// Clump 0x0900 up to its node table (`n` × u32 object follows).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Clump {
    /// CMP_ index.
    pub object: Spanned<u32>,
    /// Nodes that follow.
    pub n: Spanned<u16>,
    /// Pad to 4.
    pub pad: Spanned<ByteArray<2>>,
}

impl Labelled for Clump {
    fn fields_in(&self, names: &dyn Names) -> Vec<Field> {
        vec![obj(&self.object, "object", names), dec16(&self.n, "n"), pad(&self.pad)]
    }
}

/// ExtObj 0x0A00.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ExtObj {
    /// The copy.
    pub object: Spanned<u32>,
    /// Its parent.
    pub parent: Spanned<u32>,
    /// What the animation drives.
    pub target: Spanned<u32>,
}

impl Labelled for ExtObj {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![obj(&self.object, "object", n), obj(&self.parent, "parent", n), obj(&self.target, "target", n)]
    }
}

/// Hit 0x0B00 up to its groups.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Hit {
    /// HIT_ index.
    pub object: Spanned<u32>,
    /// Parent object.
    pub parent: Spanned<u32>,
    /// Groups that follow.
    pub groups: Spanned<u16>,
    /// s16 pad.
    pub pad: Spanned<i16>,
    /// Σ v.
    pub total_vertices: Spanned<u32>,
}

impl Labelled for Hit {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        vec![
            obj(&s.object, "object", n),
            obj(&s.parent, "parent", n),
            dec16(&s.groups, "groups"),
            int16(&s.pad, "pad"),
            dec32(&s.total_vertices, "total_vertices"),
        ]
    }
}

/// One Hit group's head (`v` positions then `v` normals of f32[3] follow).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct HitGroup {
    /// Vertices (3 per triangle).
    pub v: Spanned<u32>,
    /// Surface attribute.
    pub attribute: Spanned<u32>,
}

impl Labelled for HitGroup {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![dec32(&self.v, "v"), hex32(&self.attribute, "attribute")]
    }
}

/// Bbox 0x0C00.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Bbox {
    /// `box`: BOX_ index.
    pub bbox: Spanned<u32>,
    /// The culled object.
    pub target: Spanned<u32>,
    /// Corner.
    pub min: Vec3,
    /// Corner.
    pub max: Vec3,
}

impl Labelled for Bbox {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.bbox, "box", n), obj(&self.target, "target", n)];
        v.extend(self.min.fields("min", "units"));
        v.extend(self.max.fields("max", "units"));
        v
    }
}

/// Eff 0x0E00 up to its patterns (`pat_num` × 8 bytes follow). The same bytes in every
/// generation; from version 0x122 `zoffs` is 8.8 fixed point (docs/formats/ccsf-gen2.md#eff-0x0e00 [X:AH]).
#[binrw]
#[brw(little)]
#[br(import(version: u16))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Eff {
    /// The file's version the record was read at (decides how `zoffs` reads).
    #[br(calc = version)]
    #[bw(ignore)]
    pub version: u16,
    /// EFF_ index.
    pub object: Spanned<u32>,
    /// TEX_ index.
    pub texture: Spanned<u32>,
    /// flag & 7 = blend type.
    pub flag: Spanned<u16>,
    /// Depth offset.
    pub zoffs: Spanned<i16>,
    /// Not read by the game.
    pub unknown: Spanned<u16>,
    /// Patterns that follow.
    pub pat_num: Spanned<u16>,
    /// Quad corner.
    pub x0: Spanned<u32>,
    /// Quad corner.
    pub y0: Spanned<u32>,
    /// Quad corner.
    pub x1: Spanned<u32>,
    /// Quad corner.
    pub y1: Spanned<u32>,
    /// One pattern's UV width.
    pub w: Spanned<u16>,
    /// One pattern's UV height.
    pub h: Spanned<u16>,
}

impl Labelled for Eff {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        let fl = *s.flag;
        vec![
            obj(&s.object, "object", n),
            obj(&s.texture, "texture", n),
            s.flag.field("flag", Value::uint(u64::from(fl), 2).label(format!("blend {}", fl & 7))),
            if s.version >= 0x122 {
                let z = *s.zoffs;
                s.zoffs
                    .field("zoffs", Value::int(i64::from(z), 2).number(f64::from(z) / 256.0, ""))
                    .note("8.8 fixed point from version 0x122 [X:AH]")
            } else {
                int16(&s.zoffs, "zoffs")
            },
            s.unknown.field("unknown", Value::dec(u64::from(*s.unknown)).unknown()).note("not read by the game"),
            dec16(&s.pat_num, "pat_num"),
            float(&s.x0, "x0", ""),
            float(&s.y0, "y0", ""),
            float(&s.x1, "x1", ""),
            float(&s.y1, "y1", ""),
            dec16(&s.w, "w"),
            dec16(&s.h, "h"),
        ]
    }
}

/// FBRect 0x1100.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FbRect {
    /// Object index.
    pub object: Spanned<u32>,
    /// `type`.
    pub rect_type: Spanned<u8>,
    /// Pad to 4.
    pub pad: Spanned<ByteArray<3>>,
    /// Pixels.
    pub fx: Spanned<u16>,
    /// Pixels.
    pub fy: Spanned<u16>,
    /// Pixels.
    pub w: Spanned<u16>,
    /// Pixels.
    pub h: Spanned<u16>,
}

impl Labelled for FbRect {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        vec![
            obj(&s.object, "object", n),
            hex8(&s.rect_type, "type"),
            pad(&s.pad),
            dec16(&s.fx, "fx"),
            dec16(&s.fy, "fy"),
            dec16(&s.w, "w"),
            dec16(&s.h, "h"),
        ]
    }
}

/// One of an Eff's `pat_num` patterns (0x0E00, after [`Eff`]): a UV origin in 1/4096 of the
/// texture and its opacity.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct EffPattern {
    /// UV origin, 1/4096 of the texture width.
    pub u: Spanned<u16>,
    /// UV origin, 1/4096 of the texture height.
    pub v: Spanned<u16>,
    /// Opacity, 4096 = opaque.
    pub transparency: Spanned<u16>,
    /// Padding.
    pub pad: Spanned<u16>,
}

/// Fixed-size entries that follow a record `n` times and are shown as one array, labelled
/// with their layout.
pub(in crate::formats) trait Entry: FixedSize {
    /// The layout as the array's label says it (a test checks it names the fields).
    const LAYOUT: &'static str;
}

impl Entry for EffPattern {
    const LAYOUT: &'static str = "u16 u, v, transparency, pad";
}

impl Labelled for EffPattern {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        let s = self;
        vec![
            dec16(&s.u, "u"),
            dec16(&s.v, "v"),
            dec16(&s.transparency, "transparency").note("4096 = opaque"),
            dec16(&s.pad, "pad").note("pad, ignored"),
        ]
    }
}

/// FBPage 0x1200 up to its pages (`n` × 8 bytes follow).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FbPage {
    /// Object index.
    pub object: Spanned<u32>,
    /// Pages that follow.
    pub n: Spanned<u32>,
}

impl Labelled for FbPage {
    fn fields_in(&self, names: &dyn Names) -> Vec<Field> {
        vec![obj(&self.object, "object", names), dec32(&self.n, "n")]
    }
}

/// One of an FBPage's `n` pages (0x1200, after [`FbPage`]): a rectangle of the frame
/// buffer in pixels, its type, padding.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct FbPageEntry {
    /// Left.
    pub px: Spanned<u8>,
    /// Top.
    pub py: Spanned<u8>,
    /// Width.
    pub pw: Spanned<u8>,
    /// Height.
    pub ph: Spanned<u8>,
    /// Page type (meaning unknown).
    pub page_type: Spanned<u8>,
    /// Padding.
    pub pad: Spanned<ByteArray<3>>,
}

impl Entry for FbPageEntry {
    const LAYOUT: &'static str = "u8 px, py, pw, ph, type, pad[3]";
}

impl Labelled for FbPageEntry {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        let d = |x: &Spanned<u8>, name: &str| x.field(name, Value::dec(u64::from(**x)));
        vec![
            d(&self.px, "px"),
            d(&self.py, "py"),
            d(&self.pw, "pw"),
            d(&self.ph, "ph"),
            d(&self.page_type, "type").note("unknown"),
            pad(&self.pad),
        ]
    }
}

/// DummyPos 0x1300.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct DummyPos {
    /// DMY_ index.
    pub object: Spanned<u32>,
    /// Position.
    pub pos: Vec3,
}

impl Labelled for DummyPos {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, "object", n)];
        v.extend(self.pos.fields("pos", "units"));
        v
    }
}

/// DummyPosRot 0x1400.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct DummyPosRot {
    /// DMY_ index.
    pub object: Spanned<u32>,
    /// Position.
    pub pos: Vec3,
    /// Rotation, degrees.
    pub rot: Vec3,
}

impl Labelled for DummyPosRot {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, "object", n)];
        v.extend(self.pos.fields("pos", "units"));
        v.extend(self.rot.fields("rot", "deg"));
        v
    }
}

/// Layer 0x1700 up to its entries.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Layer {
    /// Entries that follow.
    pub n: Spanned<u16>,
    /// Pad to 4.
    pub pad: Spanned<ByteArray<2>>,
}

impl Labelled for Layer {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![dec16(&self.n, "n"), pad(&self.pad)]
    }
}

/// One Layer entry.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct LayerEntry {
    /// 0 draw layer, 1 shadow layer.
    pub kind: Spanned<u8>,
    /// Pad to 4.
    pub pad: Spanned<ByteArray<3>>,
    /// LYR_ index (0 = the default layer).
    pub object: Spanned<u32>,
}

impl LayerEntry {
    /// Fields of entry `i`.
    pub fn fields_at(&self, i: usize, n: &dyn Names) -> [Field; 3] {
        let k = *self.kind;
        [
            self.kind.field(
                format!("layer[{i}].kind"),
                Value::uint(u64::from(k), 1).label(if k == 0 { "draw" } else { "shadow" }),
            ),
            pad(&self.pad),
            obj(&self.object, &format!("layer[{i}].object"), n),
        ]
    }
}

/// Shadow 0x1800.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Shadow {
    /// LYR_ shadow layer (0 = default).
    pub object: Spanned<u32>,
    /// Buffer place.
    pub x: Spanned<u16>,
    /// Buffer place.
    pub y: Spanned<u16>,
    /// Buffer size.
    pub w: Spanned<u16>,
    /// Buffer size.
    pub h: Spanned<u16>,
    /// Z page.
    pub px: Spanned<i16>,
    /// Z page.
    pub py: Spanned<i16>,
    /// Copies drawn.
    pub copies: Spanned<u8>,
    /// Their spread.
    pub spread: Spanned<u8>,
    /// u16 pad.
    pub pad: Spanned<ByteArray<2>>,
    /// f32.
    pub length: Spanned<u32>,
}

impl Labelled for Shadow {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        vec![
            obj(&s.object, "object", n),
            dec16(&s.x, "x"),
            dec16(&s.y, "y"),
            dec16(&s.w, "w"),
            dec16(&s.h, "h"),
            int16(&s.px, "px"),
            int16(&s.py, "py"),
            hex8(&s.copies, "copies"),
            hex8(&s.spread, "spread"),
            pad(&s.pad),
            float(&s.length, "length", ""),
        ]
    }
}

/// Morpher 0x1900.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Morpher {
    /// MPH_ index.
    pub morpher: Spanned<u32>,
    /// MDL_ index.
    pub base_model: Spanned<u32>,
}

impl Labelled for Morpher {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![obj(&self.morpher, "morpher", n), obj(&self.base_model, "base_model", n)]
    }
}

/// Obj2 0x2000.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Obj2 {
    /// Object index.
    pub object: Spanned<u32>,
    /// Bit 0: transparency multiplies the parent's; bit 1: hidden at the origin.
    pub flags: Spanned<u32>,
    /// MPH_ morpher or 0.
    pub modifier: Spanned<u32>,
    /// Draw layer (0 = default).
    pub layer: Spanned<u32>,
    /// Shadow layer (0 = default).
    pub slayer: Spanned<u32>,
}

impl Labelled for Obj2 {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        vec![
            obj(&s.object, "object", n),
            hex32(&s.flags, "flags"),
            obj(&s.modifier, "modifier", n),
            obj(&s.layer, "layer", n),
            obj(&s.slayer, "slayer", n),
        ]
    }
}

/// Pcm 0x2200 up to its audio (`blocks × words` u32 follow).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Pcm {
    /// Sound id.
    pub id: Spanned<u32>,
    /// `type`.
    pub pcm_type: Spanned<u8>,
    /// Sample bits.
    pub bits: Spanned<u8>,
    /// Track.
    pub track: Spanned<u8>,
    /// u8 pad.
    pub pad: Spanned<ByteArray<1>>,
    /// Blocks of audio.
    pub blocks: Spanned<u32>,
    /// Words per block.
    pub words: Spanned<u32>,
}

impl Labelled for Pcm {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        let s = self;
        vec![
            dec32(&s.id, "id"),
            hex8(&s.pcm_type, "type"),
            hex8(&s.bits, "bits"),
            hex8(&s.track, "track"),
            pad(&s.pad),
            dec32(&s.blocks, "blocks"),
            dec32(&s.words, "words"),
        ]
    }
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#texture-0x0300 Texture and Clut heads.

/// Texture flag bits (docs/formats/ccsf.md#texture-0x0300).
const TEXTURE_FLAGS: [(u8, &str); 4] =
    [(1, "resident"), (4, "0x04 kept, never read"), (8, "translucent"), (0x10, "clamp")];

/// Texture 0x0300 up to its levels: `blt_group` from version 0x92; the 8-byte (long)
/// header from 0x90, the 4-byte one before.
#[binrw]
#[brw(little)]
#[br(import(version: u16))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct TextureHead {
    /// TEX_ index.
    pub texture: Spanned<u32>,
    /// CLT_ index.
    pub clut: Spanned<u32>,
    /// From version 0x92.
    #[br(if(version >= 0x92))]
    pub blt_group: Option<Spanned<u32>>,
    /// Residency and sampling bits.
    pub flag: Spanned<u8>,
    /// Pixel storage mode.
    pub psm: Spanned<u8>,
    /// The long header's four bytes (version ≥ 0x90).
    #[br(if(version >= 0x90))]
    pub long: Option<TextureLong>,
    /// Pad to 4.
    pub pad: Spanned<ByteArray<2>>,
}

/// The long texture header's bytes.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct TextureLong {
    /// Mip levels after the first.
    pub mipmap: Spanned<u8>,
    /// Alpha reference.
    pub aref: Spanned<u8>,
    /// log2 width.
    pub tw: Spanned<u8>,
    /// log2 height.
    pub th: Spanned<u8>,
}

/// Name of a texture psm.
pub(in crate::formats) fn psm_name(psm: u8) -> &'static str {
    match psm {
        0x13 => "PSMT8",
        0x14 => "PSMT4",
        0x00 => "PSMCT32",
        0x87 => "DXT1 (BTX)",
        0x88 => "DXT3 (BTX)",
        0x89 => "DXT5 (BTX)",
        _ => "unknown psm",
    }
}

impl Labelled for TextureHead {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        let mut v = vec![obj(&s.texture, "texture", n), obj(&s.clut, "clut", n)];
        v.extend(s.blt_group.as_ref().map(|b| hex32(b, "blt_group")));
        let flag = *s.flag;
        let names = TEXTURE_FLAGS.iter().filter(|(b, _)| flag & b != 0).map(|(_, n)| n.to_string()).collect();
        v.push(s.flag.field("flag", Value::uint(u64::from(flag), 1).flags(names)));
        v.push(s.psm.field("psm", Value::uint(u64::from(*s.psm), 1).label(psm_name(*s.psm))));
        if let Some(l) = &s.long {
            v.push(hex8(&l.mipmap, "mipmap"));
            v.push(hex8(&l.aref, "aref"));
            let (tw, th) = (*l.tw, *l.th);
            // 0xFF: the size is stated after the header (gen 2 non-power-of-two, docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two)
            let size = |log2: u8, what: &str| {
                if log2 == 0xff {
                    format!("{what} stated after the header (non-power-of-two) [?]")
                } else {
                    format!("log2 {what}: {}", 1u64 << log2.min(63))
                }
            };
            v.push(l.tw.field("tw", Value::dec(u64::from(tw)).label(size(tw, "width"))));
            v.push(l.th.field("th", Value::dec(u64::from(th)).label(size(th, "height"))));
        }
        v.push(pad(&s.pad));
        v
    }
}

/// One mip level's head (`count` words of pixels follow).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct LevelHead {
    /// GS buffer x.
    pub buf_x: Spanned<u16>,
    /// GS buffer y.
    pub buf_y: Spanned<u16>,
    /// Pixel words.
    pub count: Spanned<u32>,
}

impl Labelled for LevelHead {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![
            dec16(&self.buf_x, "buf_x"),
            dec16(&self.buf_y, "buf_y"),
            self.count.field("count", Value::dec(u64::from(*self.count)).label("words")),
        ]
    }
}

/// A gen-2 BTX texture's block head after the 8 header bytes (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two, B5 [?]): a
/// marker word and the byte length of the BTX header + DXT data that follow.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct BtxHead {
    /// AH skips it and writes 0xFFFFFFFF.
    pub marker: Spanned<u32>,
    /// Bytes after this word.
    pub btx_size: Spanned<u32>,
}

impl Labelled for BtxHead {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![
            self.marker.field("marker", Value::uint(u64::from(*self.marker), 4).unknown()).note("skipped by AH [?]"),
            self.btx_size.field("btx_size", Value::dec(u64::from(*self.btx_size)).label("bytes")),
        ]
    }
}

/// The 64-byte BTX header after a BTX block's head (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two [X:AH], B5 [?]): offsets
/// from its start as AH reads them; the bytes between the named fields are unknown.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct BtxHeader {
    /// `"btx"` and a fourth byte (unknown).
    pub magic: Spanned<ByteArray<4>>,
    /// Meaning unknown.
    pub version: Spanned<u32>,
    /// Pixels.
    pub width: Spanned<u16>,
    /// Pixels.
    pub height: Spanned<u16>,
    /// Unknown.
    pub unknown_12: Spanned<u16>,
    /// Mip levels (only level 0 is decoded).
    pub mip_count: Spanned<u16>,
    /// 7/8/9 = DXT1/3/5.
    pub pixel_format: Spanned<u16>,
    /// Unknown.
    pub unknown_18: Spanned<ByteArray<6>>,
    /// Bytes of this header.
    pub header_size: Spanned<u32>,
    /// Unknown.
    pub unknown_28: Spanned<u32>,
    /// Header and data bytes (SC: the data is this minus 64).
    pub total_size: Spanned<u32>,
    /// Unknown.
    pub unknown_36: Spanned<ByteArray<12>>,
    /// NUL-padded.
    pub name: Spanned<ByteArray<16>>,
}

/// DXT variant of a BTX pixel format (7/8/9) or texture psm (0x87/0x88/0x89).
pub(in crate::formats) fn dxt_name(code: u16) -> Option<&'static str> {
    match code {
        7 | 0x87 => Some("DXT1"),
        8 | 0x88 => Some("DXT3"),
        9 | 0x89 => Some("DXT5"),
        _ => None,
    }
}

impl Labelled for BtxHeader {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        let s = self;
        let unknown = |f: Field| f.note("[?] meaning unknown");
        vec![
            s.magic.field("magic", Value::text(&s.magic.0)).note("\"btx\" and a fourth byte"),
            unknown(s.version.field("version", Value::uint(u64::from(*s.version), 4).unknown())),
            dec16(&s.width, "width"),
            dec16(&s.height, "height"),
            unknown(s.unknown_12.field("unknown_12", Value::uint(u64::from(*s.unknown_12), 2).unknown())),
            dec16(&s.mip_count, "mip_count"),
            s.pixel_format.field(
                "pixel_format",
                Value::dec(u64::from(*s.pixel_format)).label(dxt_name(*s.pixel_format).unwrap_or("unknown")),
            ),
            unknown(s.unknown_18.field("unknown_18", Value::unknown_bytes(6))),
            s.header_size.field("header_size", Value::dec(u64::from(*s.header_size)).label("bytes")),
            unknown(s.unknown_28.field("unknown_28", Value::uint(u64::from(*s.unknown_28), 4).unknown())),
            s.total_size.field("total_size", Value::dec(u64::from(*s.total_size)).label("bytes")),
            unknown(s.unknown_36.field("unknown_36", Value::unknown_bytes(12))),
            s.name.field("name", Value::text(super::parse::trim_nul(&s.name.0))).note("NUL-padded"),
        ]
    }
}

/// A gen-2 non-power-of-two texture's level-0 head (`tw` or `th` 0xFF; docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two,
/// SC's reading, [?]): explicit sizes and the pixel words, no buf_x/buf_y word.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct NpotHead {
    /// Pixels.
    pub width: Spanned<u16>,
    /// Pixels.
    pub height: Spanned<u16>,
    /// Pixel words of level 0.
    pub count: Spanned<u32>,
}

impl Labelled for NpotHead {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![
            dec16(&self.width, "width"),
            dec16(&self.height, "height"),
            self.count.field("count", Value::dec(u64::from(*self.count)).label("words")),
        ]
    }
}

/// Clut 0x0400 up to its colours (`count` × u32 follow); `blt_group` from version 0x92.
#[binrw]
#[brw(little)]
#[br(import(version: u16))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ClutHead {
    /// CLT_ index.
    pub clut: Spanned<u32>,
    /// From version 0x92.
    #[br(if(version >= 0x92))]
    pub blt_group: Option<Spanned<u32>>,
    /// Flag byte.
    pub flag: Spanned<u8>,
    /// Colour storage mode.
    pub cpsm: Spanned<u8>,
    /// Read, discarded.
    pub unknown_2: Spanned<u8>,
    /// Read, discarded.
    pub unknown_3: Spanned<u8>,
    /// GS buffer x.
    pub buf_x: Spanned<u16>,
    /// GS buffer y.
    pub buf_y: Spanned<u16>,
    /// Colours that follow.
    pub count: Spanned<u32>,
}

impl Labelled for ClutHead {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        let mut v = vec![obj(&s.clut, "clut", n)];
        v.extend(s.blt_group.as_ref().map(|b| hex32(b, "blt_group")));
        v.extend([
            hex8(&s.flag, "flag"),
            hex8(&s.cpsm, "cpsm"),
            s.unknown_2.field("unknown_2", Value::uint(u64::from(*s.unknown_2), 1).unknown()).note("read, discarded"),
            s.unknown_3.field("unknown_3", Value::uint(u64::from(*s.unknown_3), 1).unknown()).note("read, discarded"),
            dec16(&s.buf_x, "buf_x"),
            dec16(&s.buf_y, "buf_y"),
            dec32(&s.count, "count"),
        ]);
        v
    }
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#anime-0x0700 Anime container and controller heads.

/// Anime 0x0700 up to its sub-stream (`words` words of records follow).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct AnimeHead {
    /// ANM_ index.
    pub object: Spanned<u32>,
    /// Frames the animation lasts.
    pub frames: Spanned<u32>,
    /// Words of the sub-stream.
    pub words: Spanned<u32>,
}

impl Labelled for AnimeHead {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![obj(&self.object, "object", n), dec32(&self.frames, "frames"), dec32(&self.words, "words")]
    }
}

/// A controller record's head (0x0102/0x0202/0x0603/0x0605/0x0609): `flags` holds 3 bits
/// per field (0 absent, 1 constant, 2 keyed); the values follow.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct CtrlHead {
    /// The driven object.
    pub object: Spanned<u32>,
    /// 3 bits per field.
    pub flags: Spanned<u32>,
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#per-frame-records frame records.

/// F_Obj 0x0101.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FObj {
    /// Object index.
    pub object: Spanned<u32>,
    /// Never read.
    pub unused: Spanned<u32>,
    /// Position.
    pub pos: Vec3,
    /// Rotation, degrees.
    pub rot: Vec3,
    /// Scale.
    pub scale: Vec3,
    /// Clamped 0..1.
    pub transparency: Spanned<u32>,
    /// Bit 0: display switch.
    pub flags: Spanned<u32>,
}

impl Labelled for FObj {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        let mut v = vec![
            obj(&s.object, "object", n),
            s.unused.field("unused", Value::uint(u64::from(*s.unused), 4)).note("never read"),
        ];
        v.extend(s.pos.fields("pos", "units"));
        v.extend(s.rot.fields("rot", "deg"));
        v.extend(s.scale.fields("scale", ""));
        v.push(float(&s.transparency, "transparency", ""));
        v.push(hex32(&s.flags, "flags"));
        v
    }
}

/// F_Note 0x0108.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FNote {
    /// Object index.
    pub object: Spanned<u32>,
    /// Event code.
    pub event: Spanned<u32>,
    /// Its parameter.
    pub param: Spanned<u32>,
}

impl Labelled for FNote {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![obj(&self.object, "object", n), hex32(&self.event, "event"), hex32(&self.param, "param")]
    }
}

/// F_Material 0x0201: `u`, `v` unless `flag & 2`.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FMaterial {
    /// MAT_ index.
    pub material: Spanned<u32>,
    /// Bit 1: no UV offset.
    pub flag: Spanned<u32>,
    /// UV offset u.
    #[br(if(flag.value & 2 == 0))]
    pub u: Option<Spanned<u32>>,
    /// UV offset v.
    #[br(if(flag.value & 2 == 0))]
    pub v: Option<Spanned<u32>>,
}

impl Labelled for FMaterial {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.material, "material", n), hex32(&self.flag, "flag")];
        v.extend(self.u.as_ref().map(|u| float(u, "u", "")));
        v.extend(self.v.as_ref().map(|x| float(x, "v", "")));
        v
    }
}

/// F_Camera 0x0502: when `flag & 1` is clear, one f32 per clear bit of bits 1..8.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FCamera {
    /// CAM_ index.
    pub object: Spanned<u32>,
    /// Bit 0: nothing follows; bits 1..8: that value is absent.
    pub flag: Spanned<u32>,
    /// The present values, in bit order.
    #[br(count = camera_values(flag.value).len())]
    pub values: Vec<Spanned<u32>>,
}

/// F_Camera's value names by bit (1..8) and their units.
const CAMERA_VALUES: [(u32, &str, &str); 8] = [
    (1, "pos.x", ""),
    (2, "pos.y", ""),
    (3, "pos.z", ""),
    (4, "rot.x", "deg"),
    (5, "rot.y", "deg"),
    (6, "rot.z", "deg"),
    (7, "bit7 (unknown)", ""),
    (8, "fov", "deg"),
];

/// The values present for F_Camera `flag` (at most 8: the count is bounded by the layout).
pub(in crate::formats) fn camera_values(flag: u32) -> Vec<(&'static str, &'static str)> {
    if flag & 1 != 0 {
        return Vec::new();
    }
    CAMERA_VALUES.iter().filter(|(bit, _, _)| flag & (1 << bit) == 0).map(|(_, n, u)| (*n, *u)).collect()
}

impl Labelled for FCamera {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, "object", n), hex32(&self.flag, "flag")];
        for (w, (name, unit)) in self.values.iter().zip(camera_values(*self.flag)) {
            v.push(float(w, name, unit));
        }
        v
    }
}

/// F_Ambient 0x0601.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FAmbient {
    /// R low byte, G, B; channel/255.
    pub colour: Spanned<u32>,
}

impl Labelled for FAmbient {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![colour(&self.colour, "colour")]
    }
}

/// F_DistantLight 0x0602: `intensity` only if `flag & 0x20`.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FDistantLight {
    /// LGT_ index.
    pub object: Spanned<u32>,
    /// Bit 5: intensity follows.
    pub flag: Spanned<u32>,
    /// Direction, degrees.
    pub rot: Vec3,
    /// RGBA.
    pub colour: Spanned<u32>,
    /// f32.
    #[br(if(flag.value & 0x20 != 0))]
    pub intensity: Option<Spanned<u32>>,
}

impl Labelled for FDistantLight {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, "object", n), hex32(&self.flag, "flag")];
        v.extend(self.rot.fields("rot", "deg"));
        v.push(colour(&self.colour, "colour"));
        v.extend(self.intensity.as_ref().map(|i| float(i, "intensity", "")));
        v
    }
}

/// F_OmniLight 0x0608.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FOmniLight {
    /// LGT_ index.
    pub object: Spanned<u32>,
    /// Flag word.
    pub flag: Spanned<u32>,
    /// Position.
    pub pos: Vec3,
    /// RGBA.
    pub colour: Spanned<u32>,
    /// f32.
    pub intensity: Spanned<u32>,
    /// f32.
    pub far_start: Spanned<u32>,
    /// f32.
    pub far_end: Spanned<u32>,
}

impl Labelled for FOmniLight {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        let mut v = vec![obj(&s.object, "object", n), hex32(&s.flag, "flag")];
        v.extend(s.pos.fields("pos", "units"));
        v.extend([
            colour(&s.colour, "colour"),
            float(&s.intensity, "intensity", ""),
            float(&s.far_start, "far_start", ""),
            float(&s.far_end, "far_end", ""),
        ]);
        v
    }
}

/// F_Shadow 0x1801.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FShadow {
    /// Object index.
    pub object: Spanned<u32>,
    /// Rotation, degrees.
    pub rot: Vec3,
    /// f32.
    pub alpha: Spanned<u32>,
}

impl Labelled for FShadow {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, "object", n)];
        v.extend(self.rot.fields("rot", "deg"));
        v.push(float(&self.alpha, "alpha", ""));
        v
    }
}

/// F_Morpher 0x1901 up to its targets (`n` × (u32 target, f32 weight) follow).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FMorpher {
    /// MPH_ index.
    pub morpher: Spanned<u32>,
    /// Targets that follow.
    pub n: Spanned<u16>,
    /// u16 pad.
    pub pad: Spanned<ByteArray<2>>,
}

impl Labelled for FMorpher {
    fn fields_in(&self, names: &dyn Names) -> Vec<Field> {
        vec![obj(&self.morpher, "morpher", names), dec16(&self.n, "n"), pad(&self.pad)]
    }
}

/// One F_Morpher target.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct MorphTarget {
    /// MDL_ index.
    pub target: Spanned<u32>,
    /// f32.
    pub weight: Spanned<u32>,
}

impl MorphTarget {
    /// Fields of target `i`.
    pub fn fields_at(&self, i: usize, n: &dyn Names) -> [Field; 2] {
        [obj(&self.target, &format!("target[{i}]"), n), float(&self.weight, &format!("weight[{i}]"), "")]
    }
}

/// F_Pcm 0x2201 up to its audio.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FPcm {
    /// Sound id.
    pub id: Spanned<u32>,
    /// Blocks of audio.
    pub blocks: Spanned<u16>,
    /// u16 pad.
    pub pad: Spanned<ByteArray<2>>,
    /// Words per block.
    pub words: Spanned<u32>,
}

impl Labelled for FPcm {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![dec32(&self.id, "id"), dec16(&self.blocks, "blocks"), pad(&self.pad), dec32(&self.words, "words")]
    }
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#model-0x0800 Model header.

/// mtype bits (docs/formats/ccsf.md#mtype-bits).
const MTYPE_BITS: [(u16, &str); 7] = [
    (1, "lit"),
    (2, "5-word header"),
    (4, "bone/skin"),
    (8, "shadow"),
    (0x40, "no normals"),
    (0x200, "no colours"),
    (0x400, "no STs"),
];

/// Model 0x0800's 20-byte header (the mmats follow).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ModelHead {
    /// MDL_ index.
    pub model: Spanned<u32>,
    /// f32: one position unit is vertex_scale / 4096.
    pub vertex_scale: Spanned<u32>,
    /// Layout bits; below version 0x100 only the low byte counts.
    pub mtype: Spanned<u16>,
    /// Mmats that follow.
    pub mmat_num: Spanned<u16>,
    /// flag & 3 = blend.
    pub flag: Spanned<u16>,
    /// Depth offset.
    pub zoffs: Spanned<i16>,
    /// 0x70 in every file; dropped.
    pub unknown: Spanned<u8>,
    /// Pad to 4.
    pub pad: Spanned<ByteArray<3>>,
}

impl ModelHead {
    /// mtype as the game uses it at `version`.
    pub fn mtype_at(&self, version: u16) -> u16 {
        if version < 0x100 { *self.mtype & 0xff } else { *self.mtype }
    }

    /// The fields, mtype's bits as the game reads them at `version`.
    pub fn fields_at(&self, version: u16, n: &dyn Names) -> Vec<Field> {
        let s = self;
        let (raw, mt) = (*s.mtype, s.mtype_at(version));
        let names = MTYPE_BITS.iter().filter(|(b, _)| mt & b != 0).map(|(_, n)| n.to_string()).collect();
        let mut mtype = s.mtype.field("mtype", Value::uint(u64::from(raw), 2).flags(names));
        if mt != raw {
            mtype = mtype.note(format!("version < 0x100: masked to 0x{mt:x}"));
        }
        let fl = *s.flag;
        vec![
            obj(&s.model, "model", n),
            float(&s.vertex_scale, "vertex_scale", ""),
            mtype,
            dec16(&s.mmat_num, "mmat_num"),
            s.flag.field("flag", Value::uint(u64::from(fl), 2).label(format!("blend {}", fl & 3))),
            int16(&s.zoffs, "zoffs"),
            s.unknown
                .field("unknown", Value::uint(u64::from(*s.unknown), 1).unknown())
                .note("0x70 in every file; dropped"),
            pad(&s.pad),
        ]
    }
}

impl Labelled for ModelHead {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        self.fields_at(0x100, n)
    }
}

// ---------------------------------------------------------------------------------------
// Per-mmat heads (docs/formats/ccsf.md#mmat-heads; later generations: docs/formats/ccsf-gen2.md#mmats).

/// Header words of an mmat as the model decoders keep them (name, value, span).
/// An mmat head's words in file order (name, value, span): at most five, kept inline (a
/// vector each was an allocation per mmat of every model a survey decodes).
pub(in crate::formats) type HeadWords = crate::formats::inline::Inline<(&'static str, u32, Span), 5>;

fn head_words(words: &[(&'static str, &Spanned<u32>)]) -> HeadWords {
    let mut list = HeadWords::default();
    for (n, w) in words {
        list.push((*n, ***w, w.span));
    }
    list
}

/// A rigid mmat's head (docs/formats/ccsf.md#mmat-heads "otherwise"; docs/formats/ccsf-gen2.md#mmats): the sub-object name, the
/// material and the vertex count.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct MmatRigidHead {
    /// MDL_x_N sub-object (no chunk defines it).
    pub name: Spanned<u32>,
    /// MAT_ index.
    pub material: Spanned<u32>,
    /// Vertices.
    pub vertex_num: Spanned<u32>,
}

impl MmatRigidHead {
    /// The words in file order.
    pub fn words(&self) -> HeadWords {
        head_words(&[("name", &self.name), ("material", &self.material), ("vertex_num", &self.vertex_num)])
    }
}

/// The 5-word mmat head of `mtype & 2` (docs/formats/ccsf.md#mmat-heads): the game reads it, then its rigid decoder
/// deliberately crashes (never in data).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct MmatHead5 {
    /// Sub-object name.
    pub name: Spanned<u32>,
    /// MAT_ index.
    pub material: Spanned<u32>,
    /// Vertices.
    pub vertex_num: Spanned<u32>,
    /// Bones.
    pub bone_num: Spanned<u32>,
    /// Skin entries.
    pub offset_num: Spanned<u32>,
}

impl MmatHead5 {
    /// The words in file order.
    pub fn words(&self) -> HeadWords {
        head_words(&[
            ("name", &self.name),
            ("material", &self.material),
            ("vertex_num", &self.vertex_num),
            ("bone_num", &self.bone_num),
            ("offset_num", &self.offset_num),
        ])
    }
}

/// A bone/skin mmat's head (docs/formats/ccsf.md#mmat-heads "& 4"): `offset_num` 0 is a bone mmat, more a skin mmat
/// of that many entries.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct MmatDeformHead {
    /// MAT_ index.
    pub material: Spanned<u32>,
    /// Vertices.
    pub vertex_num: Spanned<u32>,
    /// Skin entries (0: bone mmat).
    pub offset_num: Spanned<u32>,
}

impl MmatDeformHead {
    /// The words in file order.
    pub fn words(&self) -> HeadWords {
        head_words(&[("material", &self.material), ("vertex_num", &self.vertex_num), ("offset_num", &self.offset_num)])
    }
}

/// A gen-2 deformable mmat's head (docs/formats/ccsf-gen2.md#mmats): `entry_count` 0 is a bone mmat.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct MmatDeformHead2 {
    /// MAT_ index.
    pub material: Spanned<u32>,
    /// Vertices (runs of entries closed by `stop` / bit 9).
    pub vertex_num: Spanned<u32>,
    /// Skin entries (0: bone mmat).
    pub entry_count: Spanned<u32>,
}

impl MmatDeformHead2 {
    /// The words in file order.
    pub fn words(&self) -> HeadWords {
        head_words(&[
            ("material", &self.material),
            ("vertex_num", &self.vertex_num),
            ("entry_count", &self.entry_count),
        ])
    }
}

/// A bone mmat's node word after its head (docs/formats/ccsf.md#mmat-heads "& 4" with `offset_num` 0; docs/formats/ccsf-gen2.md#mmats):
/// the clump slot (gen 2 with a lookup list: lookup index) all its vertices belong to.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct BoneNode {
    /// Clump slot, or lookup index when the model has a lookup list.
    pub node: Spanned<u32>,
}

impl Labelled for BoneNode {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        vec![dec32(&self.node, "node")]
    }
}

/// A shadow mmat's counts (docs/formats/ccsf.md#mmat-bodies; docs/formats/ccsf-gen2.md#mmats): positions, then indices (triangles =
/// `i_num / 3`).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ShadowCounts {
    /// Positions (0: nothing else follows in gen 1).
    pub v_num: Spanned<i32>,
    /// Indices.
    pub i_num: Spanned<i32>,
}

/// A triangle-list mmat's head (`mtype & 2`, docs/formats/ccsf-gen2.md#mmats [X:AH, single source,
/// untested]): its sections follow.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct MmatTriHead {
    /// MAT_ index.
    pub material: Spanned<u32>,
    /// Sections that follow.
    pub section_count: Spanned<u32>,
}

impl MmatTriHead {
    /// The words in file order.
    pub fn words(&self) -> HeadWords {
        head_words(&[("material", &self.material), ("section_count", &self.section_count)])
    }
}

/// One triangle-list section's head (docs/formats/ccsf-gen2.md#mmats): `count` elements of `section_type`
/// follow, padded to 4.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct TriSectionHead {
    /// 33 or 34 for positions (one or two records per element pair); else unknown.
    pub section_flags: Spanned<u8>,
    /// 0 normals, 1 UVs, 7 flags, 8 indices, 32 positions, 33 clump.
    pub section_type: Spanned<u8>,
    /// Pad.
    pub pad: Spanned<ByteArray<2>>,
    /// Elements of the payload.
    pub count: Spanned<u32>,
    /// f32.
    pub vertex_scale: Spanned<u32>,
}

/// Name of a triangle-list section type (docs/formats/ccsf-gen2.md#mmats).
pub(in crate::formats) fn tri_section_name(t: u8) -> &'static str {
    match t {
        0 => "normals",
        1 => "uvs",
        7 => "flags",
        8 => "indices",
        32 => "positions",
        33 => "clump",
        _ => "unknown section type",
    }
}

impl Labelled for TriSectionHead {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        let t = *self.section_type;
        vec![
            hex8(&self.section_flags, "section_flags"),
            self.section_type.field("section_type", Value::dec(u64::from(t)).label(tri_section_name(t))),
            pad(&self.pad),
            dec32(&self.count, "count"),
            float(&self.vertex_scale, "vertex_scale", ""),
        ]
    }
}

// ---------------------------------------------------------------------------------------
// Later generations (addendum `ccsf-gen2.md`, versions 0x110 and up).

/// One Clump node's bind pose (docs/formats/ccsf-gen2.md#clump-0x0900-bind-poses, B1+): parent-relative translation, Euler
/// degrees applied Rx·Ry·Rz, scale.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(in crate::formats) struct ClumpBind {
    /// Translation, model units.
    pub pos: Vec3,
    /// Rotation, degrees.
    pub rot: Vec3,
    /// Scale.
    pub scale: Vec3,
}

impl ClumpBind {
    /// The fields, named `bind[i].…`.
    pub fn fields_at(&self, i: usize) -> Vec<Field> {
        let mut v = Vec::with_capacity(9);
        v.extend(self.pos.fields(&format!("bind[{i}].pos"), "units"));
        v.extend(self.rot.fields(&format!("bind[{i}].rot"), "deg"));
        v.extend(self.scale.fields(&format!("bind[{i}].scale"), ""));
        v
    }
}

/// The bind records of a gen-2 Clump, one per node, after all node indices.
#[binrw]
#[brw(little)]
#[br(import(n: Count))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ClumpBinds {
    /// The records, in node order.
    #[br(count = n.get())]
    pub bind: Vec<ClumpBind>,
}

impl Labelled for ClumpBinds {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        self.bind.iter().enumerate().flat_map(|(i, b)| b.fields_at(i)).collect()
    }
}

/// Material 0x0200 of a later generation (docs/formats/ccsf-gen2.md#material-0x0200): 4, 5, 14 or 23 words, taken
/// from the chunk's size.
#[binrw]
#[brw(little)]
#[br(import(words: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Material2 {
    /// MAT_ index.
    pub object: Spanned<u32>,
    /// TEX_ index or 0.
    pub texture: Spanned<u32>,
    /// f32, 1.0 opaque.
    pub alpha: Spanned<u32>,
    /// 1/4096 of the texture.
    pub offset_u: Spanned<i16>,
    /// 1/4096 of the texture.
    pub offset_v: Spanned<i16>,
    /// 5 words and more (B3+): scale U, V (4096 = 1.0, AH's reading).
    #[br(if(words >= 5))]
    pub scale: Option<MaterialScale>,
    /// 14 words and more (B6+): shader parameters.
    #[br(if(words >= 14))]
    pub shader: Option<MaterialShader>,
    /// 23 words (B7): multi-texture parameters.
    #[br(if(words >= 23))]
    pub multi: Option<MaterialMulti>,
}

/// Material scale words (B3+).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(in crate::formats) struct MaterialScale {
    /// 4096 = 1.0.
    pub scale_u: Spanned<i16>,
    /// 4096 = 1.0.
    pub scale_v: Spanned<i16>,
}

/// Material shader words (B6+, AH only).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(in crate::formats) struct MaterialShader {
    /// RGBA; all zero turns the chara shader off.
    pub force_colour: Spanned<u32>,
    /// 0 default, 1 back, 2 front.
    pub cull: Spanned<u32>,
    /// RGBA.
    pub ambient: Spanned<u32>,
    /// TEX_ or 0.
    pub normal_texture: Spanned<u32>,
    /// f32.
    pub normal_strength: Spanned<u32>,
    /// u16.
    pub use_specular: Spanned<u16>,
    /// u16.
    pub debug_specular: Spanned<u16>,
    /// TEX_ or 0.
    pub specular_texture: Spanned<u32>,
    /// f32.
    pub specular_strength: Spanned<u32>,
    /// f32.
    pub shininess: Spanned<u32>,
}

/// Material multi-texture words (B7, AH only).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(in crate::formats) struct MaterialMulti {
    /// TEX_ or 0.
    pub texture: Spanned<u32>,
    /// Blend mode.
    pub blend: Spanned<u16>,
    /// 0 UVs, 1 reflection, 2 view position, 3 world normal, 4 world position.
    pub uv_mode: Spanned<u16>,
    /// f32 scale U, V, offset U, V.
    pub transform: [Spanned<u32>; 4],
    /// f32 scroll speed U, V.
    pub scroll: [Spanned<u32>; 2],
    /// RGBA.
    pub emission: Spanned<u32>,
}

/// A signed 1/4096 fraction.
fn frac4096(s: &Spanned<i16>, name: &str) -> Field {
    s.field(name, Value::int(i64::from(**s), 2).number(f64::from(**s) / 4096.0, "× texture"))
}

impl Labelled for Material2 {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        let mut v = vec![
            obj(&s.object, "object", n),
            obj(&s.texture, "texture", n),
            float(&s.alpha, "alpha", ""),
            frac4096(&s.offset_u, "offset_u"),
            frac4096(&s.offset_v, "offset_v"),
        ];
        if let Some(sc) = &s.scale {
            let note = "[?] AH: s16 scale /4096; SC reads +12..+19 as two f32 offsets";
            v.push(frac4096(&sc.scale_u, "scale_u").note(note));
            v.push(frac4096(&sc.scale_v, "scale_v").note(note));
        }
        if let Some(sh) = &s.shader {
            let cull = match *sh.cull {
                0 => "default",
                1 => "back",
                2 => "front",
                _ => "unknown",
            };
            v.extend([
                colour(&sh.force_colour, "force_colour"),
                sh.cull.field("cull", Value::dec(u64::from(*sh.cull)).label(cull)),
                colour(&sh.ambient, "ambient"),
                obj(&sh.normal_texture, "normal_texture", n),
                float(&sh.normal_strength, "normal_strength", ""),
                dec16(&sh.use_specular, "use_specular"),
                dec16(&sh.debug_specular, "debug_specular"),
                obj(&sh.specular_texture, "specular_texture", n),
                float(&sh.specular_strength, "specular_strength", ""),
                float(&sh.shininess, "shininess", ""),
            ]);
        }
        if let Some(m) = &s.multi {
            v.extend([
                obj(&m.texture, "multi_texture", n),
                dec16(&m.blend, "multi_blend"),
                dec16(&m.uv_mode, "multi_uv_mode"),
            ]);
            for (i, nm) in ["multi_scale_u", "multi_scale_v", "multi_offset_u", "multi_offset_v"].iter().enumerate() {
                if let Some(w) = m.transform.get(i) {
                    v.push(float(w, nm, ""));
                }
            }
            for (i, nm) in ["multi_scroll_u", "multi_scroll_v"].iter().enumerate() {
                if let Some(w) = m.scroll.get(i) {
                    v.push(float(w, nm, ""));
                }
            }
            v.push(colour(&m.emission, "emission"));
        }
        v
    }
}

/// Model 0x0800's gen-2 header (docs/formats/ccsf-gen2.md#model-0x0800): 20 bytes, then (B1+) outline colour and
/// width; the lookup list follows separately.
#[binrw]
#[brw(little)]
#[br(import(outline: bool))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ModelHead2 {
    /// MDL_ index.
    pub model: Spanned<u32>,
    /// f32: one position unit is vertex_scale / 4096.
    pub vertex_scale: Spanned<u32>,
    /// 1 lit, 2 triangle list, 4 deformable, 8 shadow.
    pub mtype: Spanned<u8>,
    /// 2 no colours, 4 no UVs, 8 outline?, 0x10 unknown.
    pub mflags: Spanned<u8>,
    /// Mmats that follow.
    pub mmat_num: Spanned<u16>,
    /// Bit 0 emissive (AH); `& 3` blend (G1).
    pub flag_lo: Spanned<u8>,
    /// Meaning unknown (often 0x10).
    pub flag_hi: Spanned<u8>,
    /// Depth offset.
    pub zoffs: Spanned<i16>,
    /// Lookup-list bytes.
    pub lookup_count: Spanned<u8>,
    /// Unknown.
    pub extra_flags: Spanned<u8>,
    /// Nonzero: tangent and binormal arrays follow the UVs.
    pub tbn_flag: Spanned<u16>,
    /// B1+: RGBA.
    #[br(if(outline))]
    pub outline_colour: Option<Spanned<u32>>,
    /// B1+: f32.
    #[br(if(outline))]
    pub outline_width: Option<Spanned<u32>>,
}

/// mtype bits of a gen-2 model (docs/formats/ccsf-gen2.md#model-0x0800).
const MTYPE2_BITS: [(u8, &str); 5] = [
    (1, "lit"),
    (2, "triangle list"),
    (4, "deformable"),
    (8, "shadow"),
    (0x40, "0x40 (ignored: normals always present)"),
];
/// mflags bits of a gen-2 model (docs/formats/ccsf-gen2.md#model-0x0800).
const MFLAGS2_BITS: [(u8, &str); 4] = [(2, "no colours"), (4, "no UVs"), (8, "outline? [?]"), (0x10, "0x10 unknown")];

impl Labelled for ModelHead2 {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let s = self;
        let bits = |v: u8, t: &[(u8, &str)]| t.iter().filter(|(b, _)| v & b != 0).map(|(_, n)| n.to_string()).collect();
        let mut v = vec![
            obj(&s.model, "model", n),
            float(&s.vertex_scale, "vertex_scale", ""),
            s.mtype.field("mtype", Value::uint(u64::from(*s.mtype), 1).flags(bits(*s.mtype, &MTYPE2_BITS))),
            s.mflags.field("mflags", Value::uint(u64::from(*s.mflags), 1).flags(bits(*s.mflags, &MFLAGS2_BITS))),
            dec16(&s.mmat_num, "mmat_num"),
            hex8(&s.flag_lo, "flag_lo"),
            s.flag_hi.field("flag_hi", Value::uint(u64::from(*s.flag_hi), 1).unknown()).note("meaning unknown [?]"),
            int16(&s.zoffs, "zoffs"),
            s.lookup_count.field("lookup_count", Value::dec(u64::from(*s.lookup_count))),
            s.extra_flags.field("extra_flags", Value::uint(u64::from(*s.extra_flags), 1).unknown()).note("[?]"),
            dec16(&s.tbn_flag, "tbn_flag"),
        ];
        v.extend(s.outline_colour.as_ref().map(|c| colour(c, "outline_colour")));
        v.extend(s.outline_width.as_ref().map(|w| float(w, "outline_width", "")));
        v
    }
}

/// A gen-2 model's lookup list: node slot `s` of its bone/skin mmats is
/// `clump.node[lookup[s]]` (docs/formats/ccsf-gen2.md#model-0x0800).
#[binrw]
#[brw(little)]
#[br(import(n: Count))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct LookupList {
    /// Clump node indices.
    #[br(count = n.get())]
    pub entry: Vec<Spanned<u8>>,
}

impl Labelled for LookupList {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        self.entry
            .iter()
            .enumerate()
            .map(|(i, e)| e.field(format!("lookup[{i}]"), Value::dec(u64::from(**e)).label("clump node")))
            .collect()
    }
}

/// Binary Blob 0x2400 up to its opaque bytes (docs/formats/ccsf-gen2.md#binary-blob-0x2400).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct BlobHead {
    /// BIN_ index.
    pub object: Spanned<u32>,
}

impl Labelled for BlobHead {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![obj(&self.object, "object", n)]
    }
}

/// Stream post-effect parameters 0x1A00/0x1B00/0x1C00 (docs/formats/ccsf-gen2.md#stream-post-effect-parameters-0x1a000x1d00).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct StreamParam {
    /// 0x1A00: layer; 0x1B00/0x1C00: unknown.
    pub first: Spanned<u32>,
    /// The parameter object.
    pub object: Spanned<u32>,
    /// Its target object.
    pub target: Spanned<u32>,
    /// TEX_ or 0.
    pub texture: Spanned<u32>,
}

impl Labelled for StreamParam {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![
            self.first
                .field("layer_or_unknown", Value::uint(u64::from(*self.first), 4))
                .note("0x1A00: layer; others: unknown [X:AH]"),
            obj(&self.object, "object", n),
            obj(&self.target, "target", n),
            obj(&self.texture, "texture", n),
        ]
    }
}

/// StreamFBSBlurParam 0x1D00 (docs/formats/ccsf-gen2.md#stream-post-effect-parameters-0x1a000x1d00).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct BlurParam {
    /// Unknown.
    pub unknown_0: Spanned<u16>,
    /// Unknown.
    pub unknown_1: Spanned<u16>,
    /// The parameter object.
    pub object: Spanned<u32>,
}

impl Labelled for BlurParam {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![
            self.unknown_0.field("unknown_0", Value::uint(u64::from(*self.unknown_0), 2).unknown()),
            self.unknown_1.field("unknown_1", Value::uint(u64::from(*self.unknown_1), 2).unknown()),
            obj(&self.object, "object", n),
        ]
    }
}

/// Dynamics 0x2300 up to its tables (docs/formats/ccsf-gen2.md#dynamics-0x2300).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct DynamicsHead {
    /// CMP_ index.
    pub clump: Spanned<u32>,
    /// Springs (16 bytes each).
    pub spring_count: Spanned<u16>,
    /// Collisions (40 bytes each).
    pub collision_count: Spanned<u16>,
}

impl Labelled for DynamicsHead {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![
            obj(&self.clump, "clump", n),
            dec16(&self.spring_count, "spring_count"),
            dec16(&self.collision_count, "collision_count"),
        ]
    }
}

/// One Dynamics spring.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Spring {
    /// Node object.
    pub node: Spanned<u32>,
    /// f32 parameters, meaning unknown.
    pub params: Vec3,
}

impl Spring {
    /// Fields named `spring[i].…`.
    pub fn fields_at(&self, i: usize, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.node, &format!("spring[{i}].node"), n)];
        v.extend(self.params.fields(&format!("spring[{i}].param"), ""));
        v
    }
}

/// One Dynamics collision shape.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct Collision {
    /// Node object.
    pub node: Spanned<u32>,
    /// Position.
    pub pos: Vec3,
    /// Rotation, degrees.
    pub rot: Vec3,
    /// Scale.
    pub scale: Vec3,
}

impl Collision {
    /// Fields named `collision[i].…`.
    pub fn fields_at(&self, i: usize, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.node, &format!("collision[{i}].node"), n)];
        v.extend(self.pos.fields(&format!("collision[{i}].pos"), "units"));
        v.extend(self.rot.fields(&format!("collision[{i}].rot"), "deg"));
        v.extend(self.scale.fields(&format!("collision[{i}].scale"), ""));
        v
    }
}

/// ParticleAnmCtrl 0x0D80 up to its controllers (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ParticleAnmHead {
    /// Object index.
    pub object: Spanned<u32>,
    /// ANM_ index.
    pub animation: Spanned<u32>,
    /// Controllers that follow.
    pub ctrl_count: Spanned<u16>,
    /// cc cc.
    pub pad: Spanned<ByteArray<2>>,
}

impl Labelled for ParticleAnmHead {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        vec![
            obj(&self.object, "object", n),
            obj(&self.animation, "animation", n),
            dec16(&self.ctrl_count, "ctrl_count"),
            pad(&self.pad),
        ]
    }
}

/// ParticleGenerator 0x0D90 up to its parameters (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ParticleGenHead {
    /// Object index.
    pub object: Spanned<u32>,
    /// Unknown.
    pub unknown: Spanned<u32>,
    /// Bits 12–15 resource count, 16–19 force-field count.
    pub flags: Spanned<u32>,
}

impl Labelled for ParticleGenHead {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let f = *self.flags;
        vec![
            obj(&self.object, "object", n),
            self.unknown.field("unknown", Value::uint(u64::from(*self.unknown), 4).unknown()),
            self.flags.field(
                "flags",
                Value::uint(u64::from(f), 4).label(format!(
                    "{} resources, {} force fields",
                    (f >> 12) & 15,
                    (f >> 16) & 15
                )),
            ),
        ]
    }
}

/// One ParticleAnmCtrl controller's head (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]): `frame_count` bytes
/// follow, one per frame (AH: 1 busy, 2 idle), zero-padded to 4.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ParticleCtrl {
    /// The ParticleGenerator it drives (object index).
    pub generator: Spanned<u32>,
    /// Object index.
    pub object: Spanned<u32>,
    /// Another object index.
    pub extra_object: Spanned<u32>,
    /// Unknown.
    pub unknown: Spanned<u32>,
    /// Frame bytes that follow.
    pub frame_count: Spanned<u16>,
    /// cc cc.
    pub pad: Spanned<ByteArray<2>>,
}

impl ParticleCtrl {
    /// Fields of controller `i`.
    pub fn fields_at(&self, i: usize, n: &dyn Names) -> Vec<Field> {
        let k = |f: &str| format!("ctrl[{i}].{f}");
        vec![
            obj(&self.generator, &k("generator"), n),
            obj(&self.object, &k("object"), n),
            obj(&self.extra_object, &k("extra_object"), n),
            self.unknown.field(k("unknown"), Value::uint(u64::from(*self.unknown), 4).unknown()),
            dec16(&self.frame_count, &k("frame_count")),
            self.pad.field(k("pad"), Value::bytes(2)).note("pad, ignored"),
        ]
    }
}

/// A ParticleGenerator's parameters after its head (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]): 44 bytes of
/// generator parameters and seven floats, payload +12..+84. No source names them except
/// the fades, so they are shown by payload offset, meaning unknown.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ParticleGenParams {
    /// s16, unknown.
    pub s16_12: Spanned<i16>,
    /// cc cc.
    pub pad_14: Spanned<ByteArray<2>>,
    /// f32, unknown.
    pub f32_16: Spanned<u32>,
    /// u16 ×4, unknown.
    pub u16_20: [Spanned<u16>; 4],
    /// f32 ×5, unknown.
    pub f32_28: [Spanned<u32>; 5],
    /// s16 ×2, unknown.
    pub s16_48: [Spanned<i16>; 2],
    /// Fade-in, /2048.
    pub fade_in: Spanned<i16>,
    /// Fade-out, /2048.
    pub fade_out: Spanned<i16>,
    /// f32 ×7, unknown.
    pub f32_56: [Spanned<u32>; 7],
}

impl Labelled for ParticleGenParams {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        let s = self;
        let unknown_f = |w: &Spanned<u32>, at: u64| float(w, &format!("f32_{at}"), "").note("[?] meaning unknown");
        let mut v = vec![
            s.s16_12.field("s16_12", Value::int(i64::from(*s.s16_12), 2).unknown()),
            s.pad_14.field("pad_14", Value::bytes(2)).note("cc cc"),
            unknown_f(&s.f32_16, 16),
        ];
        v.extend(
            s.u16_20
                .iter()
                .zip((20u64..).step_by(2))
                .map(|(w, at)| w.field(format!("u16_{at}"), Value::uint(u64::from(**w), 2).unknown())),
        );
        v.extend(s.f32_28.iter().zip((28u64..).step_by(4)).map(|(w, at)| unknown_f(w, at)));
        v.extend(
            s.s16_48
                .iter()
                .zip((48u64..).step_by(2))
                .map(|(w, at)| w.field(format!("s16_{at}"), Value::int(i64::from(**w), 2).unknown())),
        );
        for (w, name) in [(&s.fade_in, "fade_in"), (&s.fade_out, "fade_out")] {
            v.push(w.field(name, Value::int(i64::from(**w), 2).number(f64::from(**w) / 2048.0, "")).note("/2048"));
        }
        v.extend(s.f32_56.iter().zip((56u64..).step_by(4)).map(|(w, at)| unknown_f(w, at)));
        v
    }
}

/// One ParticleGenerator force field (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]), 32 bytes.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ForceField {
    /// Pad.
    pub pad_0: Spanned<ByteArray<4>>,
    /// Unknown.
    pub unknown_4: Spanned<u8>,
    /// cc.
    pub pad_5: Spanned<u8>,
    /// 0x00..0x21.
    pub field_type: Spanned<u8>,
    /// Pad.
    pub pad_7: Spanned<u8>,
    /// Unknown.
    pub unknown_8: Spanned<u16>,
    /// cc cc.
    pub pad_10: Spanned<ByteArray<2>>,
    /// f32 ×5, unknown.
    pub params: [Spanned<u32>; 5],
}

impl ForceField {
    /// Fields of force field `i`.
    pub fn fields_at(&self, i: usize) -> Vec<Field> {
        let k = |f: &str| format!("force_field[{i}].{f}");
        let mut v = vec![
            self.pad_0.field(k("pad_0"), Value::bytes(4)).note("pad"),
            self.unknown_4.field(k("unknown_4"), Value::uint(u64::from(*self.unknown_4), 1).unknown()),
            self.pad_5.field(k("pad_5"), Value::uint(u64::from(*self.pad_5), 1)).note("cc"),
            hex8(&self.field_type, &k("type")).note("0x00..0x21 (AH); names unknown"),
            self.pad_7.field(k("pad_7"), Value::uint(u64::from(*self.pad_7), 1)).note("pad"),
            self.unknown_8.field(k("unknown_8"), Value::uint(u64::from(*self.unknown_8), 2).unknown()),
            self.pad_10.field(k("pad_10"), Value::bytes(2)).note("cc cc"),
        ];
        v.extend(
            self.params
                .iter()
                .enumerate()
                .map(|(j, w)| float(w, &k(&format!("param[{j}]")), "").note("[?] meaning unknown")),
        );
        v
    }
}

/// One ParticleGenerator resource (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]): an object (CMP_/ANM_/EFF_), and
/// four bytes more when the version is above 0x122.
#[binrw]
#[brw(little)]
#[br(import(version: u16))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ParticleResource {
    /// CMP_/ANM_/EFF_ index.
    pub object: Spanned<u32>,
    /// u8 ×4, meaning unknown (version > 0x122).
    #[br(if(version > 0x122))]
    pub extra: Option<Spanned<ByteArray<4>>>,
}

impl ParticleResource {
    /// Fields of resource `i`.
    pub fn fields_at(&self, i: usize, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, &format!("resource[{i}].object"), n)];
        if let Some(x) = &self.extra {
            v.push(x.field(format!("resource[{i}].extra"), Value::unknown_bytes(4)).note("u8 ×4 from 0x123 [?]"));
        }
        v
    }
}

/// A gen-2 morph controller 0x1902's head (docs/formats/ccsf-gen2.md#anime-and-frame-records): the morpher and how many
/// targets follow.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct MorphCtrlHead {
    /// MPH_ index.
    pub morpher: Spanned<u32>,
    /// Targets that follow.
    pub target_count: Spanned<u32>,
}

impl Labelled for MorphCtrlHead {
    fn fields_in(&self, names: &dyn Names) -> Vec<Field> {
        vec![obj(&self.morpher, "morpher", names), dec32(&self.target_count, "target_count")]
    }
}

/// One morph-controller target's head (docs/formats/ccsf-gen2.md#anime-and-frame-records): the target model and the flags
/// whose bits 0-2 say how its weight follows (0 absent, 1 constant, 2 keyed).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct MorphCtrlTarget {
    /// MDL_ index.
    pub model: Spanned<u32>,
    /// Weight controller field 0 in bits 0-2.
    pub flags: Spanned<u32>,
}

impl MorphCtrlTarget {
    /// Fields of target `i`.
    pub fn fields_at(&self, i: usize, names: &dyn Names) -> [Field; 2] {
        [
            obj(&self.model, &format!("target[{i}].model"), names),
            hex32(&self.flags, &format!("target[{i}].flags")).note("bits 0-2: weight 0 absent, 1 constant, 2 keyed"),
        ]
    }
}

/// A gen-2 F_Obj's head (docs/formats/ccsf-gen2.md#anime-and-frame-records): the mask says which values follow.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FObjHead2 {
    /// OBJ_ index.
    pub object: Spanned<u32>,
    /// Set bit = value absent: 1–3 pos, 4–6 rot, 7–9 scale, 10 transparency, 11 display.
    pub mask: Spanned<u32>,
}

/// Names of a gen-2 F_Obj's mask bits 1..11, in bit order, with their units.
pub(in crate::formats) const FOBJ_VALUES: [(&str, &str); 11] = [
    ("pos.x", "units"),
    ("pos.y", "units"),
    ("pos.z", "units"),
    ("rot.x", "deg"),
    ("rot.y", "deg"),
    ("rot.z", "deg"),
    ("scale.x", ""),
    ("scale.y", ""),
    ("scale.z", ""),
    ("transparency", ""),
    ("display", ""),
];

/// The mask bits among 1..10 whose values a gen-2 F_Obj stores (clear bits, in bit order).
pub(in crate::formats) fn fobj_value_bits(mask: u32) -> impl Iterator<Item = u32> {
    (1..=10u32).filter(move |bit| mask & (1 << bit) == 0)
}

/// A gen-2 F_Obj's values after its head (docs/formats/ccsf-gen2.md#anime-and-frame-records): one f32 per clear mask bit among
/// 1..10, then the display word if bit 11 is clear (at most 11 words: the count is bounded
/// by the layout).
#[binrw]
#[brw(little)]
#[br(import(mask: u32))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FObjValues2 {
    /// The head's mask the values were read by.
    #[br(calc = mask)]
    #[bw(ignore)]
    pub mask: u32,
    /// f32 values of the clear bits 1..10, in bit order.
    #[br(count = fobj_value_bits(mask).count())]
    pub value: Vec<Spanned<u32>>,
    /// Display flag word (bit 11 clear).
    #[br(if(mask & (1 << 11) == 0))]
    pub display: Option<Spanned<u32>>,
}

impl FObjValues2 {
    /// `(mask bit, f32 bits)` of the stored values.
    pub fn values(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        fobj_value_bits(self.mask).zip(self.value.iter().map(|v| **v))
    }
}

impl Labelled for FObjValues2 {
    fn fields_in(&self, _: &dyn Names) -> Vec<Field> {
        let mut v: Vec<Field> = fobj_value_bits(self.mask)
            .zip(&self.value)
            .map(|(bit, w)| {
                let (name, unit) = FOBJ_VALUES.get(bit as usize - 1).copied().unwrap_or(("?", ""));
                float(w, name, unit)
            })
            .collect();
        if let Some(d) = &self.display {
            v.push(hex32(d, "display"));
        }
        v
    }
}

/// A gen-2 F_Material (v ≥ 0x120, docs/formats/ccsf-gen2.md#anime-and-frame-records).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct FMaterial2 {
    /// MAT_ index.
    pub material: Spanned<u32>,
    /// Bit 0: no u, v; bit 1: no scale/extra floats.
    pub flags: Spanned<u32>,
    /// f32 u, v unless flags & 1.
    #[br(if(flags.value & 1 == 0))]
    pub uv: Option<[Spanned<u32>; 2]>,
    /// f32 scale U, V and two unknown floats unless flags & 2.
    #[br(if(flags.value & 2 == 0))]
    pub scale: Option<[Spanned<u32>; 4]>,
}

impl Labelled for FMaterial2 {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.material, "material", n), hex32(&self.flags, "flags")];
        if let Some([u, vv]) = &self.uv {
            v.extend([float(u, "u", ""), float(vv, "v", "")]);
        }
        if let Some([a, b, c, d]) = &self.scale {
            v.extend([float(a, "scale_u", ""), float(b, "scale_v", "")]);
            v.push(c.field("unknown_0", Value::f32(**c).unknown()));
            v.push(d.field("unknown_1", Value::f32(**d).unknown()));
        }
        v
    }
}

/// CelShadeFrame 0x1B01 (docs/formats/ccsf-gen2.md#anime-and-frame-records).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct CelShadeFrame {
    /// Object index.
    pub object: Spanned<u32>,
    /// Flags.
    pub flags: Spanned<u32>,
    /// f32 ×2, meaning unknown.
    pub values: [Spanned<u32>; 2],
}

impl Labelled for CelShadeFrame {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, "object", n), hex32(&self.flags, "flags")];
        v.extend(
            self.values.iter().enumerate().map(|(i, w)| w.field(format!("value[{i}]"), Value::f32(**w).unknown())),
        );
        v
    }
}

/// FBSBlurFrame 0x1D01 (docs/formats/ccsf-gen2.md#anime-and-frame-records).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct BlurFrame {
    /// Object index.
    pub object: Spanned<u32>,
    /// Flags.
    pub flags: Spanned<u32>,
    /// f32 ×2, meaning unknown.
    pub values: [Spanned<u32>; 2],
    /// u32 ×2, meaning unknown.
    pub words: [Spanned<u32>; 2],
}

impl Labelled for BlurFrame {
    fn fields_in(&self, n: &dyn Names) -> Vec<Field> {
        let mut v = vec![obj(&self.object, "object", n), hex32(&self.flags, "flags")];
        v.extend(
            self.values.iter().enumerate().map(|(i, w)| w.field(format!("value[{i}]"), Value::f32(**w).unknown())),
        );
        v.extend(
            self.words
                .iter()
                .enumerate()
                .map(|(i, w)| w.field(format!("word[{i}]"), Value::uint(u64::from(**w), 4).unknown())),
        );
        v
    }
}

records! {
    EffPattern = "Eff pattern";
    FbPageEntry = "FBPage page";
    Header = "Header";
    Words = "header words";
    ObjectList = "clump nodes";
    IndexHead = "Index";
    Frame = "Frame";
    Top = "Top";
    Obj = "Obj";
    Material = "Material";
    Camera = "Camera";
    ObjectWord = "object word";
    Light = "Light";
    Clump = "Clump";
    ExtObj = "ExtObj";
    Hit = "Hit";
    HitGroup = "hit group";
    Bbox = "Bbox";
    Eff = "Eff";
    FbRect = "FBRect";
    FbPage = "FBPage";
    DummyPos = "DummyPos";
    DummyPosRot = "DummyPosRot";
    Layer = "Layer";
    Shadow = "Shadow";
    Morpher = "Morpher";
    Obj2 = "Obj2";
    Pcm = "Pcm";
    TextureHead = "Texture";
    LevelHead = "mip level";
    BtxHead = "BTX block";
    BtxHeader = "BTX header";
    NpotHead = "non-power-of-two level";
    ClutHead = "Clut";
    AnimeHead = "Anime";
    FObj = "F_Obj";
    FNote = "F_Note";
    FMaterial = "F_Material";
    FCamera = "F_Camera";
    FAmbient = "F_Ambient";
    FDistantLight = "F_DistantLight";
    FOmniLight = "F_OmniLight";
    FShadow = "F_Shadow";
    FMorpher = "F_Morpher";
    FPcm = "F_Pcm";
    ModelHead = "Model";
    ClumpBinds = "clump bind pose";
    Material2 = "Material";
    ModelHead2 = "Model";
    LookupList = "lookup list";
    BlobHead = "BinaryBlob";
    StreamParam = "stream parameter";
    BlurParam = "StreamFBSBlurParam";
    DynamicsHead = "Dynamics";
    ParticleAnmHead = "ParticleAnmCtrl";
    ParticleGenHead = "ParticleGenerator";
    FMaterial2 = "F_Material";
    CelShadeFrame = "CelShadeFrame";
    BlurFrame = "FBSBlurFrame";
    BoneNode = "bone node";
    ParticleGenParams = "generator parameters";
    FObjValues2 = "F_Obj values";
    MorphCtrlHead = "MorphCtrl";
    TriSectionHead = "triangle-list section";
}

/// Mmat heads are shown through their words (`describe` lists `MmatData::header`).
macro_rules! head_records {
    ($($t:ident = $name:literal;)*) => {
        $(impl Record for $t {
            const NAME: &'static str = $name;
            fn fields(&self) -> Vec<Field> {
                self.words().iter().map(|&(n, v, s)| Field::new(n, s, Value::dec(u64::from(v)))).collect()
            }
        })*
    };
}

head_records! {
    MmatRigidHead = "rigid mmat header";
    MmatHead5 = "5-word mmat header";
    MmatDeformHead = "bone/skin mmat header";
    MmatDeformHead2 = "deformable mmat header";
    MmatTriHead = "triangle-list mmat header";
}

impl Record for ShadowCounts {
    const NAME: &'static str = "shadow counts";
    fn fields(&self) -> Vec<Field> {
        vec![
            self.v_num.field("v_num", Value::int(i64::from(*self.v_num), 4)),
            self.i_num.field("i_num", Value::int(i64::from(*self.i_num), 4)),
        ]
    }
}

impl Record for ClumpBind {
    const NAME: &'static str = "clump bind";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0)
    }
}

impl Record for Spring {
    const NAME: &'static str = "spring";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0, &Index::default())
    }
}

impl Record for Collision {
    const NAME: &'static str = "collision";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0, &Index::default())
    }
}

impl Record for FObjHead2 {
    const NAME: &'static str = "F_Obj";
    fn fields(&self) -> Vec<Field> {
        Vec::new()
    }
}

impl Record for ChunkHeader {
    const NAME: &'static str = "chunk header";
    fn fields(&self) -> Vec<Field> {
        self.fields("", false).to_vec()
    }
}

impl Record for IndexFile {
    const NAME: &'static str = "index file";
    fn fields(&self) -> Vec<Field> {
        Vec::new()
    }
}

impl Record for IndexObject {
    const NAME: &'static str = "index object";
    fn fields(&self) -> Vec<Field> {
        Vec::new()
    }
}

impl Record for CtrlHead {
    const NAME: &'static str = "controller";
    fn fields(&self) -> Vec<Field> {
        Vec::new()
    }
}

impl Record for LayerEntry {
    const NAME: &'static str = "layer";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0, &Index::default()).to_vec()
    }
}

impl Record for ParticleCtrl {
    const NAME: &'static str = "particle controller";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0, &Index::default())
    }
}

impl Record for ForceField {
    const NAME: &'static str = "force field";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0)
    }
}

impl Record for ParticleResource {
    const NAME: &'static str = "particle resource";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0, &Index::default())
    }
}

impl Record for MorphCtrlTarget {
    const NAME: &'static str = "morph controller target";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0, &Index::default()).to_vec()
    }
}

impl Record for MorphTarget {
    const NAME: &'static str = "morph target";
    fn fields(&self) -> Vec<Field> {
        self.fields_at(0, &Index::default()).to_vec()
    }
}

sizes! {
    EffPattern = 8;
    FbPageEntry = 8;
    ChunkHeader = 8;
    Header = 0x30;
    IndexHead = 8;
    IndexFile = 32;
    IndexObject = 32;
    Frame = 4;
    Top = 4;
    Material = 16;
    Camera = 4;
    ObjectWord = 4;
    Light = 8;
    Clump = 8;
    ExtObj = 12;
    Hit = 16;
    HitGroup = 8;
    Bbox = 32;
    Eff = 36;
    FbRect = 16;
    FbPage = 8;
    DummyPos = 16;
    DummyPosRot = 28;
    Layer = 4;
    LayerEntry = 8;
    Shadow = 24;
    Morpher = 8;
    Obj2 = 20;
    Pcm = 16;
    LevelHead = 8;
    BtxHead = 8;
    BtxHeader = 64;
    NpotHead = 8;
    AnimeHead = 12;
    CtrlHead = 8;
    FObj = 52;
    FNote = 12;
    FAmbient = 4;
    FOmniLight = 36;
    FShadow = 20;
    FMorpher = 8;
    MorphTarget = 8;
    FPcm = 12;
    ModelHead = 20;
    MmatRigidHead = 12;
    MmatHead5 = 20;
    MmatDeformHead = 12;
    MmatDeformHead2 = 12;
    ShadowCounts = 8;
    MmatTriHead = 8;
    TriSectionHead = 12;
    ClumpBind = 36;
    BlobHead = 4;
    StreamParam = 16;
    BlurParam = 8;
    DynamicsHead = 8;
    Spring = 16;
    Collision = 40;
    ParticleAnmHead = 12;
    ParticleGenHead = 12;
    FObjHead2 = 8;
    CelShadeFrame = 16;
    BlurFrame = 24;
    BoneNode = 4;
    MorphCtrlHead = 8;
    MorphCtrlTarget = 8;
    ParticleCtrl = 20;
    ParticleGenParams = 72;
    ForceField = 32;
}

#[cfg(test)]
#[path = "raw_tests.rs"]
mod tests;
