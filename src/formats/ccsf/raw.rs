//! On-disk records of CCSF files (docs/formats/ccsf.md), one declaration each, with the
//! spec's field names: the chunk header, the Header and Index chunks, every fixed setup
//! layout (#setup-chunks), the Texture/Clut headers (#texture-0x0300), the Anime container
//! and controller heads (#anime-0x0700), the frame records (#per-frame-records) and the
//! Model header (#model-0x0800); later generations' records are in
//! docs/formats/ccsf-gen2.md.
//!
//! Each record is declared once with [`record!`]: the binrw declaration reads and writes
//! it (`parse`, `write`), and the `=> FieldDef` beside each field says what its bytes
//! mean, so the record labels itself (`describe` shows [`Layout::fields_in`]) and has a
//! layout table ([`Layout::FIELDS`]: names from the identifiers, offsets and sizes where
//! fixed). No field is named anywhere else. Layouts that change with the version
//! (0x90/0x92/0x96/…) take the version as an argument. Strips, vertex arrays, pixel runs and
//! controller keys stay hand-written over the checked byte view (`mesh.rs`, `texture.rs`,
//! `anime.rs`); tables whose length is a count in the file are read only through a
//! [`Count`] checked against the bytes left.
//!
//! Every field is 4-byte little-endian unless declared otherwise; `f32` fields are kept as
//! their bits (`Value::f32` shows the bits and the number), so a record reads and writes
//! back exactly, NaNs included.

use super::band;
pub(in crate::formats) use crate::formats::record::colour_value;
use crate::formats::record::{ByteArray, Count, FieldDef, FixedSize, Kind, Label, Layout, Spanned, record};
use crate::model::{Field, Span, Value};

/// Bytes of one record that are fixed, for the `FixedSize` checks (typed from the spec,
/// checked against the declaration by `raw_tests.rs`).
macro_rules! sizes {
    ($($t:ident = $n:literal;)*) => {
        $(impl FixedSize for $t {
            const SIZE: u64 = $n;
        })*
    };
}

// ---------------------------------------------------------------------------------------
// Field meanings shared by the records (the same shapes the spec's tables use).

/// A count or number (signed types as signed numbers).
const DEC: FieldDef = FieldDef::of(Kind::Dec);
/// A number in hex.
const HEX: FieldDef = FieldDef::of(Kind::Hex);
/// An f32 (its bits).
const FLOAT: FieldDef = FieldDef::of(Kind::Float);
/// An object index, named.
const OBJ: FieldDef = FieldDef::of(Kind::Object);
/// An RGBA colour word.
const COLOUR: FieldDef = FieldDef::of(Kind::Colour);
/// Padding the game skips.
const PAD: FieldDef = FieldDef::of(Kind::Pad);
/// Opaque bytes.
const BYTES: FieldDef = FieldDef::of(Kind::Bytes);
/// Bytes as text.
const TEXT: FieldDef = FieldDef::of(Kind::Text);
/// NUL-padded text.
const TEXT_NUL: FieldDef = FieldDef::of(Kind::TextNul);
/// A nested record shown as `name.field`.
const GROUP: FieldDef = FieldDef::of(Kind::Group);
/// A nested record shown under its own field names.
const INLINE: FieldDef = FieldDef::of(Kind::Inline);
/// Kept in memory, not in the bytes.
const HIDDEN: FieldDef = FieldDef::of(Kind::Hidden);
/// A count of 4-byte words.
const WORDS: FieldDef = DEC.label(Label::Text("words"));
/// A count of bytes.
const BYTE_COUNT: FieldDef = DEC.label(Label::Text("bytes"));
/// A signed 1/4096 fraction of the texture.
const FRAC4096: FieldDef = FieldDef::of(Kind::Fixed(4096.0)).unit("× texture");
/// A number whose meaning is unknown, noted so.
const UNKNOWN_HEX: FieldDef = HEX.unknown().note("[?] meaning unknown");

/// A value label from a function of a narrower type.
fn label16(v: u64, f: fn(u16) -> &'static str) -> String {
    u16::try_from(v).map_or("", f).to_string()
}
fn label8(v: u64, f: fn(u8) -> &'static str) -> String {
    u8::try_from(v).map_or("", f).to_string()
}

record! {
    /// Three f32s (`pos[3]`, `rot[3]`, `min[3]`), shown as `name.x`, `name.y`, `name.z`.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub(in crate::formats) struct Vec3 = "vector" [] {
        /// x (bits of an f32).
        pub x: Spanned<u32> => FLOAT,
        /// y.
        pub y: Spanned<u32> => FLOAT,
        /// z.
        pub z: Spanned<u32> => FLOAT,
    }

    /// Three f32s of which each is present when its mask bit (`bit`, `bit + 1`, `bit + 2`
    /// of `mask`) is clear (the gen-2 F_Obj's and F_Camera's values).
    #[br(import(mask: u32, bit: u32))]
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub(in crate::formats) struct MaskedVec3 = "masked vector" [] {
        /// x, when bit `bit` is clear.
        #[br(if(mask & (1 << bit) == 0))]
        pub x: Option<Spanned<u32>> => FLOAT,
        /// y, when bit `bit + 1` is clear.
        #[br(if(mask & (1 << (bit + 1)) == 0))]
        pub y: Option<Spanned<u32>> => FLOAT,
        /// z, when bit `bit + 2` is clear.
        #[br(if(mask & (1 << (bit + 2)) == 0))]
        pub z: Option<Spanned<u32>> => FLOAT,
    }
}

impl Vec3 {
    /// From three floats (for writing).
    pub fn new(v: [f32; 3]) -> Self {
        Vec3 { x: v[0].to_bits().into(), y: v[1].to_bits().into(), z: v[2].to_bits().into() }
    }
}

impl MaskedVec3 {
    /// The present values as `(index 0..3, f32 bits)`.
    pub fn present(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        [&self.x, &self.y, &self.z].into_iter().zip(0u32..).filter_map(|(v, i)| v.map(|v| (i, *v)))
    }
}

// ---------------------------------------------------------------------------------------
// Chunk header, Header, Index (docs/formats/ccsf.md#chunk-header, #header-0x0001, #index-0x0002).

/// What each version range opens (docs/formats/ccsf.md#version-gates).
pub(in crate::formats) fn version_gate(v: u16) -> &'static str {
    band::of(v).gate
}

record! {
    /// Every chunk's first 8 bytes (docs/formats/ccsf.md#chunk-header).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ChunkHeader = "chunk header" [] {
        /// Chunk kind (docs/formats/ccsf.md#chunk-kinds).
        pub kind: Spanned<u16> => HEX,
        /// 0xCCCC in files; ignored by the game.
        pub tag: Spanned<u16> => HEX,
        /// Payload length in 4-byte words.
        pub size: Spanned<u32> => WORDS,
    }

    /// The Header chunk's payload up to its word table (docs/formats/ccsf.md#header-0x0001).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Header = "Header" [] {
        /// `"CCSF"`.
        pub magic: Spanned<ByteArray<4>> => TEXT,
        /// NUL-padded; the member's stem.
        pub name: Spanned<ByteArray<32>> => TEXT_NUL.note("NUL-padded; = member stem"),
        /// Layout gates 0x90/0x92/0x96/0x100 (docs/formats/ccsf.md#version-gates).
        pub version: Spanned<u16> => HEX.label(Label::Fn(|v| label16(v, version_gate))),
        /// Value not documented [?].
        pub pad: Spanned<u16> => HEX.unknown().note("[?] value not documented"),
        /// Length of the frame seek table.
        pub frames: Spanned<u32> => DEC,
        /// Words that follow (1 in every file).
        pub count: Spanned<u32> => DEC,
    }

    /// `n` u32 words (the Header's word table, shown in hex as `word[i]`).
    #[br(import(n: Count))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Words = "header words" [] {
        /// The words.
        #[br(count = n.get())]
        pub word: Vec<Spanned<u32>> => HEX,
    }

    /// `n` object indices (Clump nodes).
    #[br(import(n: Count))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ObjectList = "clump nodes" [] {
        /// The indices.
        #[br(count = n.get())]
        pub node: Vec<Spanned<u32>> => OBJ,
    }

    /// The Index chunk's two counts (docs/formats/ccsf.md#index-0x0002).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct IndexHead = "Index" [] {
        /// Entries of 32 bytes in the file table.
        pub file_count: Spanned<u32> => DEC,
        /// Entries of 32 bytes in the object table.
        pub object_count: Spanned<u32> => DEC,
    }

    /// One file-table entry: a NUL-padded path whose first byte says where it is defined.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct IndexFile = "index file" [] {
        /// `'#'` defined in another file, `' '` here, else blank.
        pub path: Spanned<ByteArray<32>> => TEXT_NUL,
    }

    /// One object-table entry.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct IndexObject = "index object" [] {
        /// NUL-padded name.
        pub name: Spanned<ByteArray<30>> => TEXT_NUL,
        /// Index into the file table.
        pub file: Spanned<u16> => DEC,
    }
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
    /// The fields, `kind` labelled `kname`; `tag_note` for top-level chunks.
    pub fn fields_named(&self, kname: &str, tag_note: bool) -> Vec<Field> {
        let mut v = self.fields_in(&crate::formats::record::NoNames);
        if let Some(k) = v.first_mut() {
            k.value = k.value.clone().label(kname);
        }
        if let Some(t) = v.get_mut(1).filter(|_| tag_note) {
            t.note = Some("ignored by the game".into());
        }
        v
    }
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#setup-chunks setup layouts (payload after the chunk header).

/// Top's frame word as the frame section reads it (the ends close or rewind the section).
fn top_frame(n: u64, _: u16) -> (Value, Option<String>) {
    let v = match n {
        0xffff_ffff => Value::uint(n, 4).label("end (-1): once / close"),
        0xffff_fffe => Value::uint(n, 4).label("end+reset (-2): loop / rewind"),
        _ => Value::dec(n),
    };
    (v, None)
}

/// Light types (docs/formats/ccsf.md#setup-chunks, Light 0x0600).
const LIGHT_TYPES: [(u64, &str); 4] = [(1, "distant"), (2, "direct"), (3, "spot"), (4, "omni")];

/// Eff's depth offset: 8.8 fixed point from version 0x122 (docs/formats/ccsf-gen2.md#eff-0x0e00 [X:AH]).
fn eff_zoffs(raw: u64, version: u16) -> (Value, Option<String>) {
    let z = raw as i64;
    if band::of(version).eff_zoffs_8_8 {
        (Value::int(z, 2).number(z as f64 / 256.0, ""), Some("8.8 fixed point from version 0x122 [X:AH]".into()))
    } else {
        (Value::int(z, 2), None)
    }
}

record! {
    /// Frame 0x0005 (both sections).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Frame = "Frame" [] {
        /// Frames in the section.
        pub frame_count: Spanned<u32> => DEC,
    }

    /// Top 0xFF01: opens frame `frame`, or ends the section (−1 once, −2 loop).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Top = "Top" [] {
        /// Frame number, or 0xFFFFFFFF / 0xFFFFFFFE.
        pub frame: Spanned<u32> => FieldDef::of(Kind::Custom(top_frame)),
    }

    /// Obj 0x0100: 3 words before version 0x96, 4 from it; from 0x110 a fifth word when the
    /// chunk's size says 5 (docs/formats/ccsf-gen2.md#obj-0x0100: the readers disagree on the
    /// band, the size decides).
    #[br(import(version: u16, words: u64))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Obj = "Obj" [] {
        /// OBJ_ index.
        pub object: Spanned<u32> => OBJ,
        /// Parent object (0 = none).
        pub parent: Spanned<u32> => OBJ,
        /// MDL_ or 0.
        pub model: Spanned<u32> => OBJ,
        /// From version 0x96.
        #[br(if(band::of(version).obj_shadow_model))]
        pub shadow_model: Option<Spanned<u32>> => OBJ,
        /// Gen 2 with a 5-word size: flags of unknown meaning (AH: an object index).
        #[br(if(band::of(version).size_decides && words >= 5))]
        pub extra: Option<Spanned<u32>> => HEX.unknown()
            .note("gen 2: flags, meaning unknown [?] (AH reads an object index); copied through"),
    }

    /// Material 0x0200.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Material = "Material" [] {
        /// MAT_ index.
        pub object: Spanned<u32> => OBJ,
        /// TEX_ index.
        pub texture: Spanned<u32> => OBJ,
        /// f32.
        pub transparency: Spanned<u32> => FLOAT,
        /// UV-animation reference point.
        pub crop_u: Spanned<u16> => DEC,
        /// UV-animation reference point.
        pub crop_v: Spanned<u16> => DEC,
    }

    /// Camera 0x0500, Anime/Model-less chunks whose payload is one object word.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Camera = "Camera" [] {
        /// CAM_ index.
        pub object: Spanned<u32> => OBJ,
    }

    /// The first payload word of a chunk whose first word is its own object index
    /// (docs/formats/ccsf.md#chunk-kinds; docs/formats/ccsf-gen2.md#walker "first payload
    /// word"): how the tree names chunks and how lookups find the chunk that defines an
    /// object (Anime, Texture, Clut, Material, ...).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ObjectWord = "object word" [] {
        /// The chunk's own object index.
        pub object: Spanned<u32> => OBJ,
    }

    /// Light 0x0600.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Light = "Light" [] {
        /// LGT_ index.
        pub object: Spanned<u32> => OBJ,
        /// `type`: 1 distant, 2 direct, 3 spot, 4 omni.
        pub type_: Spanned<i16> => DEC.label(Label::Enum(&LIGHT_TYPES, "unknown")),
        /// Pad to 4.
        pub pad: Spanned<ByteArray<2>> => PAD,
    }

    /// Clump 0x0900 up to its node table (`n` × u32 object follows).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Clump = "Clump" [] {
        /// CMP_ index.
        pub object: Spanned<u32> => OBJ,
        /// Nodes that follow.
        pub n: Spanned<u16> => DEC,
        /// Pad to 4.
        pub pad: Spanned<ByteArray<2>> => PAD,
    }

    /// ExtObj 0x0A00.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ExtObj = "ExtObj" [] {
        /// The copy.
        pub object: Spanned<u32> => OBJ,
        /// Its parent.
        pub parent: Spanned<u32> => OBJ,
        /// What the animation drives.
        pub target: Spanned<u32> => OBJ,
    }

    /// Hit 0x0B00 up to its groups.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Hit = "Hit" [] {
        /// HIT_ index.
        pub object: Spanned<u32> => OBJ,
        /// Parent object.
        pub parent: Spanned<u32> => OBJ,
        /// Groups that follow.
        pub groups: Spanned<u16> => DEC,
        /// s16 pad.
        pub pad: Spanned<i16> => DEC,
        /// Σ v.
        pub total_vertices: Spanned<u32> => DEC,
    }

    /// One Hit group's head (`v` positions then `v` normals of f32[3] follow).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct HitGroup = "hit group" [] {
        /// Vertices (3 per triangle).
        pub v: Spanned<u32> => DEC,
        /// Surface attribute.
        pub attribute: Spanned<u32> => HEX,
    }

    /// Bbox 0x0C00.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Bbox = "Bbox" [] {
        /// `box`: BOX_ index.
        pub box_: Spanned<u32> => OBJ,
        /// The culled object.
        pub target: Spanned<u32> => OBJ,
        /// Corner.
        pub min: Vec3 => GROUP.unit("units"),
        /// Corner.
        pub max: Vec3 => GROUP.unit("units"),
    }

    /// Eff 0x0E00 up to its patterns (`pat_num` × 8 bytes follow). The same bytes in every
    /// generation; from version 0x122 `zoffs` is 8.8 fixed point
    /// (docs/formats/ccsf-gen2.md#eff-0x0e00 [X:AH]).
    #[br(import(version: u16))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Eff = "Eff" [version = version] {
        /// The file's version the record was read at (decides how `zoffs` reads).
        #[br(calc = version)]
        #[bw(ignore)]
        pub version: u16 => HIDDEN,
        /// EFF_ index.
        pub object: Spanned<u32> => OBJ,
        /// TEX_ index.
        pub texture: Spanned<u32> => OBJ,
        /// flag & 7 = blend type.
        pub flag: Spanned<u16> => HEX.label(Label::Fn(|f| format!("blend {}", f & 7))),
        /// Depth offset.
        pub zoffs: Spanned<i16> => FieldDef::of(Kind::Custom(eff_zoffs)),
        /// Not read by the game.
        pub unknown: Spanned<u16> => DEC.unknown().note("not read by the game"),
        /// Patterns that follow.
        pub pat_num: Spanned<u16> => DEC,
        /// Quad corner.
        pub x0: Spanned<u32> => FLOAT,
        /// Quad corner.
        pub y0: Spanned<u32> => FLOAT,
        /// Quad corner.
        pub x1: Spanned<u32> => FLOAT,
        /// Quad corner.
        pub y1: Spanned<u32> => FLOAT,
        /// One pattern's UV width.
        pub w: Spanned<u16> => DEC,
        /// One pattern's UV height.
        pub h: Spanned<u16> => DEC,
    }

    /// FBRect 0x1100.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FbRect = "FBRect" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// `type`.
        pub type_: Spanned<u8> => HEX,
        /// Pad to 4.
        pub pad: Spanned<ByteArray<3>> => PAD,
        /// Pixels.
        pub fx: Spanned<u16> => DEC,
        /// Pixels.
        pub fy: Spanned<u16> => DEC,
        /// Pixels.
        pub w: Spanned<u16> => DEC,
        /// Pixels.
        pub h: Spanned<u16> => DEC,
    }

    /// One of an Eff's `pat_num` patterns (0x0E00, after [`Eff`]): a UV origin in 1/4096 of
    /// the texture and its opacity.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub(in crate::formats) struct EffPattern = "Eff pattern" [] {
        /// UV origin, 1/4096 of the texture width.
        pub u: Spanned<u16> => DEC,
        /// UV origin, 1/4096 of the texture height.
        pub v: Spanned<u16> => DEC,
        /// Opacity, 4096 = opaque.
        pub transparency: Spanned<u16> => DEC.note("4096 = opaque"),
        /// Padding.
        pub pad: Spanned<u16> => DEC.note("pad, ignored"),
    }

    /// FBPage 0x1200 up to its pages (`n` × 8 bytes follow).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FbPage = "FBPage" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Pages that follow.
        pub n: Spanned<u32> => DEC,
    }

    /// One of an FBPage's `n` pages (0x1200, after [`FbPage`]): a rectangle of the frame
    /// buffer in pixels, its type, padding.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub(in crate::formats) struct FbPageEntry = "FBPage page" [] {
        /// Left.
        pub px: Spanned<u8> => DEC,
        /// Top.
        pub py: Spanned<u8> => DEC,
        /// Width.
        pub pw: Spanned<u8> => DEC,
        /// Height.
        pub ph: Spanned<u8> => DEC,
        /// Page type (meaning unknown).
        pub type_: Spanned<u8> => DEC.note("unknown"),
        /// Padding.
        pub pad: Spanned<ByteArray<3>> => PAD,
    }

    /// DummyPos 0x1300.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct DummyPos = "DummyPos" [] {
        /// DMY_ index.
        pub object: Spanned<u32> => OBJ,
        /// Position.
        pub pos: Vec3 => GROUP.unit("units"),
    }

    /// DummyPosRot 0x1400.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct DummyPosRot = "DummyPosRot" [] {
        /// DMY_ index.
        pub object: Spanned<u32> => OBJ,
        /// Position.
        pub pos: Vec3 => GROUP.unit("units"),
        /// Rotation, degrees.
        pub rot: Vec3 => GROUP.unit("deg"),
    }

    /// Layer 0x1700 up to its entries.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Layer = "Layer" [] {
        /// Entries that follow.
        pub n: Spanned<u16> => DEC,
        /// Pad to 4.
        pub pad: Spanned<ByteArray<2>> => PAD,
    }

    /// One Layer entry.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct LayerEntry = "layer" [entry = layer] {
        /// 0 draw layer, 1 shadow layer.
        pub kind: Spanned<u8> => HEX.label(Label::Fn(|k| if k == 0 { "draw" } else { "shadow" }.into())),
        /// Pad to 4.
        pub pad: Spanned<ByteArray<3>> => PAD,
        /// LYR_ index (0 = the default layer).
        pub object: Spanned<u32> => OBJ,
    }

    /// Shadow 0x1800.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Shadow = "Shadow" [] {
        /// LYR_ shadow layer (0 = default).
        pub object: Spanned<u32> => OBJ,
        /// Buffer place.
        pub x: Spanned<u16> => DEC,
        /// Buffer place.
        pub y: Spanned<u16> => DEC,
        /// Buffer size.
        pub w: Spanned<u16> => DEC,
        /// Buffer size.
        pub h: Spanned<u16> => DEC,
        /// Z page.
        pub px: Spanned<i16> => DEC,
        /// Z page.
        pub py: Spanned<i16> => DEC,
        /// Copies drawn.
        pub copies: Spanned<u8> => HEX,
        /// Their spread.
        pub spread: Spanned<u8> => HEX,
        /// u16 pad.
        pub pad: Spanned<ByteArray<2>> => PAD,
        /// f32.
        pub length: Spanned<u32> => FLOAT,
    }

    /// Morpher 0x1900.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Morpher = "Morpher" [] {
        /// MPH_ index.
        pub morpher: Spanned<u32> => OBJ,
        /// MDL_ index.
        pub base_model: Spanned<u32> => OBJ,
    }

    /// Obj2 0x2000.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Obj2 = "Obj2" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Bit 0: transparency multiplies the parent's; bit 1: hidden at the origin.
        pub flags: Spanned<u32> => HEX,
        /// MPH_ morpher or 0.
        pub modifier: Spanned<u32> => OBJ,
        /// Draw layer (0 = default).
        pub layer: Spanned<u32> => OBJ,
        /// Shadow layer (0 = default).
        pub slayer: Spanned<u32> => OBJ,
    }

    /// Pcm 0x2200 up to its audio (`blocks × words` u32 follow).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Pcm = "Pcm" [] {
        /// Sound id.
        pub id: Spanned<u32> => DEC,
        /// `type`.
        pub type_: Spanned<u8> => HEX,
        /// Sample bits.
        pub bits: Spanned<u8> => HEX,
        /// Track.
        pub track: Spanned<u8> => HEX,
        /// u8 pad.
        pub pad: Spanned<ByteArray<1>> => PAD,
        /// Blocks of audio.
        pub blocks: Spanned<u32> => DEC,
        /// Words per block.
        pub words: Spanned<u32> => DEC,
    }
}

impl Top {
    /// The `frame` field; `anime` names the ends as an Anime plays them.
    pub fn frame_field(&self, anime: bool) -> Option<Field> {
        let mut f = self.fields_in(&crate::formats::record::NoNames).into_iter().next()?;
        let n = u64::from(*self.frame);
        match (n, anime) {
            (0xffff_ffff, true) => f.value = Value::uint(n, 4).label("end (-1): play once"),
            (0xffff_fffe, true) => f.value = Value::uint(n, 4).label("end (-2): loop"),
            _ => {}
        }
        Some(f)
    }
}

/// Fixed-size entries that follow a record `n` times and are shown as one array, labelled
/// with their layout.
pub(in crate::formats) trait Entry: FixedSize + Layout {
    /// The layout as the array's label says it: `u16 u, v, transparency, pad` from the
    /// table (a test checks it against the declaration).
    fn layout() -> String {
        crate::formats::record::layout_line(Self::FIELDS)
    }
}

impl Entry for EffPattern {}
impl Entry for FbPageEntry {}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#texture-0x0300 Texture and Clut heads.

/// Texture flag bits (docs/formats/ccsf.md#texture-0x0300).
const TEXTURE_FLAGS: [(u64, &str); 4] =
    [(1, "resident"), (4, "0x04 kept, never read"), (8, "translucent"), (0x10, "clamp")];

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

/// A log2 texture size; 0xFF: the size is stated after the header (gen 2 non-power-of-two,
/// docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two).
fn log2_size(log2: u64, what: &str) -> String {
    if log2 == 0xff {
        format!("{what} stated after the header (non-power-of-two) [?]")
    } else {
        format!("log2 {what}: {}", 1u64 << log2.min(63))
    }
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

record! {
    /// Texture 0x0300 up to its levels: `blt_group` from version 0x92; the 8-byte (long)
    /// header from 0x90, the 4-byte one before.
    #[br(import(version: u16))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct TextureHead = "Texture" [] {
        /// TEX_ index.
        pub texture: Spanned<u32> => OBJ,
        /// CLT_ index.
        pub clut: Spanned<u32> => OBJ,
        /// From version 0x92.
        #[br(if(band::of(version).blt_group))]
        pub blt_group: Option<Spanned<u32>> => HEX,
        /// Residency and sampling bits.
        pub flag: Spanned<u8> => HEX.label(Label::Flags(&TEXTURE_FLAGS)),
        /// Pixel storage mode.
        pub psm: Spanned<u8> => HEX.label(Label::Fn(|p| label8(p, psm_name))),
        /// The long header's four bytes (version ≥ 0x90).
        #[br(if(band::of(version).long_texture_header))]
        pub long: Option<TextureLong> => INLINE,
        /// Pad to 4.
        pub pad: Spanned<ByteArray<2>> => PAD,
    }

    /// The long texture header's bytes.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct TextureLong = "long texture header" [] {
        /// Mip levels after the first.
        pub mipmap: Spanned<u8> => HEX,
        /// Alpha reference.
        pub aref: Spanned<u8> => HEX,
        /// log2 width.
        pub tw: Spanned<u8> => DEC.label(Label::Fn(|v| log2_size(v, "width"))),
        /// log2 height.
        pub th: Spanned<u8> => DEC.label(Label::Fn(|v| log2_size(v, "height"))),
    }

    /// One mip level's head (`count` words of pixels follow).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct LevelHead = "mip level" [] {
        /// GS buffer x.
        pub buf_x: Spanned<u16> => DEC,
        /// GS buffer y.
        pub buf_y: Spanned<u16> => DEC,
        /// Pixel words.
        pub count: Spanned<u32> => WORDS,
    }

    /// A gen-2 BTX texture's block head after the 8 header bytes
    /// (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two, B5 [?]): a marker
    /// word and the byte length of the BTX header + DXT data that follow.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct BtxHead = "BTX block" [] {
        /// AH skips it and writes 0xFFFFFFFF.
        pub marker: Spanned<u32> => HEX.unknown().note("skipped by AH [?]"),
        /// Bytes after this word.
        pub btx_size: Spanned<u32> => BYTE_COUNT,
    }

    /// The 64-byte BTX header after a BTX block's head
    /// (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two [X:AH], B5 [?]):
    /// offsets from its start as AH reads them; the bytes between the named fields are
    /// unknown.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct BtxHeader = "BTX header" [] {
        /// `"btx"` and a fourth byte (unknown).
        pub magic: Spanned<ByteArray<4>> => TEXT.note("\"btx\" and a fourth byte"),
        /// Meaning unknown.
        pub version: Spanned<u32> => UNKNOWN_HEX,
        /// Pixels.
        pub width: Spanned<u16> => DEC,
        /// Pixels.
        pub height: Spanned<u16> => DEC,
        /// Unknown.
        pub unknown_12: Spanned<u16> => UNKNOWN_HEX,
        /// Mip levels (only level 0 is decoded).
        pub mip_count: Spanned<u16> => DEC,
        /// 7/8/9 = DXT1/3/5.
        pub pixel_format: Spanned<u16> =>
            DEC.label(Label::Fn(|v| u16::try_from(v).ok().and_then(dxt_name).unwrap_or("unknown").into())),
        /// Unknown.
        pub unknown_18: Spanned<ByteArray<6>> => BYTES.unknown().note("[?] meaning unknown"),
        /// Bytes of this header.
        pub header_size: Spanned<u32> => BYTE_COUNT,
        /// Unknown.
        pub unknown_28: Spanned<u32> => UNKNOWN_HEX,
        /// Header and data bytes (SC: the data is this minus 64).
        pub total_size: Spanned<u32> => BYTE_COUNT,
        /// Unknown.
        pub unknown_36: Spanned<ByteArray<12>> => BYTES.unknown().note("[?] meaning unknown"),
        /// NUL-padded.
        pub name: Spanned<ByteArray<16>> => TEXT_NUL.note("NUL-padded"),
    }

    /// A gen-2 non-power-of-two texture's level-0 head (`tw` or `th` 0xFF;
    /// docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two, SC's reading, [?]):
    /// explicit sizes and the pixel words, no buf_x/buf_y word.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct NpotHead = "non-power-of-two level" [] {
        /// Pixels.
        pub width: Spanned<u16> => DEC,
        /// Pixels.
        pub height: Spanned<u16> => DEC,
        /// Pixel words of level 0.
        pub count: Spanned<u32> => WORDS,
    }

    /// Clut 0x0400 up to its colours (`count` × u32 follow); `blt_group` from version 0x92.
    #[br(import(version: u16))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ClutHead = "Clut" [] {
        /// CLT_ index.
        pub clut: Spanned<u32> => OBJ,
        /// From version 0x92.
        #[br(if(band::of(version).blt_group))]
        pub blt_group: Option<Spanned<u32>> => HEX,
        /// Flag byte.
        pub flag: Spanned<u8> => HEX,
        /// Colour storage mode.
        pub cpsm: Spanned<u8> => HEX,
        /// Read, discarded.
        pub unknown_2: Spanned<u8> => HEX.unknown().note("read, discarded"),
        /// Read, discarded.
        pub unknown_3: Spanned<u8> => HEX.unknown().note("read, discarded"),
        /// GS buffer x.
        pub buf_x: Spanned<u16> => DEC,
        /// GS buffer y.
        pub buf_y: Spanned<u16> => DEC,
        /// Colours that follow.
        pub count: Spanned<u32> => DEC,
    }
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#anime-0x0700 Anime container and controller heads, and
// docs/formats/ccsf.md#per-frame-records frame records.

record! {
    /// Anime 0x0700 up to its sub-stream (`words` words of records follow).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct AnimeHead = "Anime" [] {
        /// ANM_ index.
        pub object: Spanned<u32> => OBJ,
        /// Frames the animation lasts.
        pub frames: Spanned<u32> => DEC,
        /// Words of the sub-stream.
        pub words: Spanned<u32> => DEC,
    }

    /// A controller record's head (0x0102/0x0202/0x0603/0x0605/0x0609): `flags` holds 3
    /// bits per field (0 absent, 1 constant, 2 keyed); the values follow.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct CtrlHead = "controller" [] {
        /// The driven object.
        pub object: Spanned<u32> => OBJ,
        /// 3 bits per field.
        pub flags: Spanned<u32> => HEX,
    }

    /// F_Obj 0x0101.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FObj = "F_Obj" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Never read.
        pub unused: Spanned<u32> => HEX.note("never read"),
        /// Position.
        pub pos: Vec3 => GROUP.unit("units"),
        /// Rotation, degrees.
        pub rot: Vec3 => GROUP.unit("deg"),
        /// Scale.
        pub scale: Vec3 => GROUP,
        /// Clamped 0..1.
        pub transparency: Spanned<u32> => FLOAT,
        /// Bit 0: display switch.
        pub flags: Spanned<u32> => HEX,
    }

    /// F_Note 0x0108.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FNote = "F_Note" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Event code.
        pub event: Spanned<u32> => HEX,
        /// Its parameter.
        pub param: Spanned<u32> => HEX,
    }

    /// F_Material 0x0201: `u`, `v` unless `flag & 2`.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FMaterial = "F_Material" [] {
        /// MAT_ index.
        pub material: Spanned<u32> => OBJ,
        /// Bit 1: no UV offset.
        pub flag: Spanned<u32> => HEX,
        /// UV offset u.
        #[br(if(flag.value & 2 == 0))]
        pub u: Option<Spanned<u32>> => FLOAT,
        /// UV offset v.
        #[br(if(flag.value & 2 == 0))]
        pub v: Option<Spanned<u32>> => FLOAT,
    }

    /// F_Camera 0x0502: when `flag & 1` is clear, one f32 per clear bit of bits 1..8.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FCamera = "F_Camera" [] {
        /// CAM_ index.
        pub object: Spanned<u32> => OBJ,
        /// Bit 0: nothing follows; bits 1..8: that value is absent.
        pub flag: Spanned<u32> => HEX,
        /// Position (bits 1..3).
        #[br(args(camera_mask(flag.value), 1))]
        pub pos: MaskedVec3 => GROUP,
        /// Rotation in degrees (bits 4..6).
        #[br(args(camera_mask(flag.value), 4))]
        pub rot: MaskedVec3 => GROUP.unit("deg"),
        /// Bit 7's value, meaning unknown.
        #[br(if(camera_mask(flag.value) & (1 << 7) == 0))]
        pub bit7: Option<Spanned<u32>> => FLOAT.unknown(),
        /// Field of view in degrees (bit 8).
        #[br(if(camera_mask(flag.value) & (1 << 8) == 0))]
        pub fov: Option<Spanned<u32>> => FLOAT.unit("deg"),
    }

    /// F_Ambient 0x0601.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FAmbient = "F_Ambient" [] {
        /// R low byte, G, B; channel/255.
        pub colour: Spanned<u32> => COLOUR,
    }

    /// F_DistantLight 0x0602: `intensity` only if `flag & 0x20`.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FDistantLight = "F_DistantLight" [] {
        /// LGT_ index.
        pub object: Spanned<u32> => OBJ,
        /// Bit 5: intensity follows.
        pub flag: Spanned<u32> => HEX,
        /// Direction, degrees.
        pub rot: Vec3 => GROUP.unit("deg"),
        /// RGBA.
        pub colour: Spanned<u32> => COLOUR,
        /// f32.
        #[br(if(flag.value & 0x20 != 0))]
        pub intensity: Option<Spanned<u32>> => FLOAT,
    }

    /// F_OmniLight 0x0608.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FOmniLight = "F_OmniLight" [] {
        /// LGT_ index.
        pub object: Spanned<u32> => OBJ,
        /// Flag word.
        pub flag: Spanned<u32> => HEX,
        /// Position.
        pub pos: Vec3 => GROUP.unit("units"),
        /// RGBA.
        pub colour: Spanned<u32> => COLOUR,
        /// f32.
        pub intensity: Spanned<u32> => FLOAT,
        /// f32.
        pub far_start: Spanned<u32> => FLOAT,
        /// f32.
        pub far_end: Spanned<u32> => FLOAT,
    }

    /// F_Shadow 0x1801.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FShadow = "F_Shadow" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Rotation, degrees.
        pub rot: Vec3 => GROUP.unit("deg"),
        /// f32.
        pub alpha: Spanned<u32> => FLOAT,
    }

    /// F_Morpher 0x1901 up to its targets (`n` × (u32 target, f32 weight) follow).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FMorpher = "F_Morpher" [] {
        /// MPH_ index.
        pub morpher: Spanned<u32> => OBJ,
        /// Targets that follow.
        pub n: Spanned<u16> => DEC,
        /// u16 pad.
        pub pad: Spanned<ByteArray<2>> => PAD,
    }

    /// One F_Morpher target.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct MorphTarget = "morph target" [entry_suffix] {
        /// MDL_ index.
        pub target: Spanned<u32> => OBJ,
        /// f32.
        pub weight: Spanned<u32> => FLOAT,
    }

    /// F_Pcm 0x2201 up to its audio.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FPcm = "F_Pcm" [] {
        /// Sound id.
        pub id: Spanned<u32> => DEC,
        /// Blocks of audio.
        pub blocks: Spanned<u16> => DEC,
        /// u16 pad.
        pub pad: Spanned<ByteArray<2>> => PAD,
        /// Words per block.
        pub words: Spanned<u32> => DEC,
    }
}

/// F_Camera's flag as a value mask: bit 0 set drops every value.
fn camera_mask(flag: u32) -> u32 {
    if flag & 1 != 0 { u32::MAX } else { flag }
}

impl FCamera {
    /// The present values in bit order (at most 8).
    pub fn values(&self) -> impl Iterator<Item = u32> + '_ {
        let (p, r) = (self.pos.present().map(|(_, v)| v), self.rot.present().map(|(_, v)| v));
        p.chain(r).chain(self.bit7.map(|v| *v)).chain(self.fov.map(|v| *v))
    }
}

// ---------------------------------------------------------------------------------------
// docs/formats/ccsf.md#model-0x0800 Model header.

/// mtype bits (docs/formats/ccsf.md#mtype-bits).
const MTYPE_BITS: [(u64, &str); 7] = [
    (1, "lit"),
    (2, "5-word header"),
    (4, "bone/skin"),
    (8, "shadow"),
    (0x40, "no normals"),
    (0x200, "no colours"),
    (0x400, "no STs"),
];

/// mtype as the game uses it at `version`: below 0x100 only the low byte counts.
pub(in crate::formats) fn mtype_at(raw: u16, version: u16) -> u16 {
    if band::of(version).mtype_low_byte { raw & 0xff } else { raw }
}

/// mtype's bits as the game reads them at `version`.
fn model_mtype(raw: u64, version: u16) -> (Value, Option<String>) {
    let r = u16::try_from(raw).unwrap_or(u16::MAX);
    let mt = u64::from(mtype_at(r, version));
    let names = MTYPE_BITS.iter().filter(|(b, _)| mt & b != 0).map(|(_, n)| n.to_string()).collect();
    let note = (mt != raw).then(|| format!("version < 0x100: masked to 0x{mt:x}"));
    (Value::uint(raw, 2).flags(names), note)
}

record! {
    /// Model 0x0800's 20-byte header (the mmats follow); labelled as at version 0x100 unless
    /// shown with [`Layout::fields_with`].
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ModelHead = "Model" [version_const = 0x100] {
        /// MDL_ index.
        pub model: Spanned<u32> => OBJ,
        /// f32: one position unit is vertex_scale / 4096.
        pub vertex_scale: Spanned<u32> => FLOAT,
        /// Layout bits; below version 0x100 only the low byte counts.
        pub mtype: Spanned<u16> => FieldDef::of(Kind::Custom(model_mtype)),
        /// Mmats that follow.
        pub mmat_num: Spanned<u16> => DEC,
        /// flag & 3 = blend.
        pub flag: Spanned<u16> => HEX.label(Label::Fn(|f| format!("blend {}", f & 3))),
        /// Depth offset.
        pub zoffs: Spanned<i16> => DEC,
        /// 0x70 in every file; dropped.
        pub unknown: Spanned<u8> => HEX.unknown().note("0x70 in every file; dropped"),
        /// Pad to 4.
        pub pad: Spanned<ByteArray<3>> => PAD,
    }
}

impl ModelHead {
    /// mtype as the game uses it at `version`.
    pub fn mtype_at(&self, version: u16) -> u16 {
        mtype_at(*self.mtype, version)
    }
}

// ---------------------------------------------------------------------------------------
// Per-mmat heads (docs/formats/ccsf.md#mmat-heads; later generations: docs/formats/ccsf-gen2.md#mmats).

/// An mmat head's words in file order (name, value, span): at most five, kept inline (a
/// vector each was an allocation per mmat of every model a survey decodes).
pub(in crate::formats) type HeadWords = crate::formats::inline::Inline<(&'static str, u32, Span), 5>;

/// The words of an mmat head in file order, named by its table.
fn head_words<T: Layout>(rec: &T) -> HeadWords {
    head_words_at(rec, rec.version())
}

/// [`head_words`] named as in a file of `version`.
fn head_words_at<T: Layout>(rec: &T, version: u16) -> HeadWords {
    let mut list = HeadWords::default();
    rec.words(&mut |def, value, span| {
        list.push((def.name_in(version), value, span));
    });
    list
}

record! {
    /// A rigid mmat's head (docs/formats/ccsf.md#mmat-heads "otherwise";
    /// docs/formats/ccsf-gen2.md#mmats): the sub-object name, the material and the vertex
    /// count.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct MmatRigidHead = "rigid mmat header" [] {
        /// MDL_x_N sub-object (no chunk defines it).
        pub name: Spanned<u32> => DEC,
        /// MAT_ index.
        pub material: Spanned<u32> => DEC,
        /// Vertices.
        pub vertex_num: Spanned<u32> => DEC,
    }

    /// The 5-word mmat head of `mtype & 2` (docs/formats/ccsf.md#mmat-heads): the game reads
    /// it, then its rigid decoder deliberately crashes (never in data).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct MmatHead5 = "5-word mmat header" [] {
        /// Sub-object name.
        pub name: Spanned<u32> => DEC,
        /// MAT_ index.
        pub material: Spanned<u32> => DEC,
        /// Vertices.
        pub vertex_num: Spanned<u32> => DEC,
        /// Bones.
        pub bone_num: Spanned<u32> => DEC,
        /// Skin entries.
        pub offset_num: Spanned<u32> => DEC,
    }

    /// A bone/skin mmat's head (docs/formats/ccsf.md#mmat-heads "& 4";
    /// docs/formats/ccsf-gen2.md#mmats, a "deformable" mmat): the skin entry count 0 is a
    /// bone mmat, more a skin mmat of that many entries. The generations name that count
    /// differently (`offsetNum`, `entryCount`): its name is the band's
    /// ([`band::BandFacts::skin_count_name`]), the version the record's argument.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct MmatDeformHead = "bone/skin mmat header" [] {
        /// MAT_ index.
        pub material: Spanned<u32> => DEC,
        /// Vertices (gen 2: runs of entries closed by `stop` / bit 9).
        pub vertex_num: Spanned<u32> => DEC,
        /// Skin entries (0: bone mmat).
        pub offset_num: Spanned<u32> => DEC.name_by(|v| band::of(v).skin_count_name),
    }

    /// A bone mmat's node word after its head (docs/formats/ccsf.md#mmat-heads "& 4" with
    /// `offset_num` 0; docs/formats/ccsf-gen2.md#mmats): the clump slot (gen 2 with a lookup
    /// list: lookup index) all its vertices belong to.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct BoneNode = "bone node" [] {
        /// Clump slot, or lookup index when the model has a lookup list.
        pub node: Spanned<u32> => DEC,
    }

    /// A shadow mmat's counts (docs/formats/ccsf.md#mmat-bodies;
    /// docs/formats/ccsf-gen2.md#mmats): positions, then indices (triangles = `i_num / 3`).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ShadowCounts = "shadow counts" [] {
        /// Positions (0: nothing else follows in gen 1).
        pub v_num: Spanned<i32> => DEC,
        /// Indices.
        pub i_num: Spanned<i32> => DEC,
    }

    /// A triangle-list mmat's head (`mtype & 2`, docs/formats/ccsf-gen2.md#mmats [X:AH,
    /// single source, untested]): its sections follow.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct MmatTriHead = "triangle-list mmat header" [] {
        /// MAT_ index.
        pub material: Spanned<u32> => DEC,
        /// Sections that follow.
        pub section_count: Spanned<u32> => DEC,
    }

    /// One triangle-list section's head (docs/formats/ccsf-gen2.md#mmats): `count` elements
    /// of `section_type` follow, padded to 4.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct TriSectionHead = "triangle-list section" [] {
        /// 33 or 34 for positions (one or two records per element pair); else unknown.
        pub section_flags: Spanned<u8> => HEX,
        /// 0 normals, 1 UVs, 7 flags, 8 indices, 32 positions, 33 clump.
        pub section_type: Spanned<u8> => DEC.label(Label::Fn(|t| label8(t, tri_section_name))),
        /// Pad.
        pub pad: Spanned<ByteArray<2>> => PAD,
        /// Elements of the payload.
        pub count: Spanned<u32> => DEC,
        /// f32.
        pub vertex_scale: Spanned<u32> => FLOAT,
    }
}

impl MmatRigidHead {
    /// The words in file order.
    pub fn words(&self) -> HeadWords {
        head_words(self)
    }
}

impl MmatHead5 {
    /// The words in file order.
    pub fn words(&self) -> HeadWords {
        head_words(self)
    }
}

impl MmatDeformHead {
    /// The words in file order, named as in a file of `version`.
    pub fn words(&self, version: u16) -> HeadWords {
        head_words_at(self, version)
    }
}

impl MmatTriHead {
    /// The words in file order.
    pub fn words(&self) -> HeadWords {
        head_words(self)
    }
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

// ---------------------------------------------------------------------------------------
// Later generations (addendum `ccsf-gen2.md`, versions 0x110 and up).

/// Material cull modes (docs/formats/ccsf-gen2.md#material-0x0200).
const CULL: [(u64, &str); 3] = [(0, "default"), (1, "back"), (2, "front")];

/// The note of a gen-2 Material's scale words (the readers disagree).
const SCALE_NOTE: &str = "[?] AH: s16 scale /4096; SC reads +12..+19 as two f32 offsets";

/// mtype bits of a gen-2 model (docs/formats/ccsf-gen2.md#model-0x0800).
const MTYPE2_BITS: [(u64, &str); 5] = [
    (1, "lit"),
    (2, "triangle list"),
    (4, "deformable"),
    (8, "shadow"),
    (0x40, "0x40 (ignored: normals always present)"),
];
/// mflags bits of a gen-2 model (docs/formats/ccsf-gen2.md#model-0x0800).
const MFLAGS2_BITS: [(u64, &str); 4] = [(2, "no colours"), (4, "no UVs"), (8, "outline? [?]"), (0x10, "0x10 unknown")];

/// ParticleGenerator flags: resource and force-field counts.
fn particle_flags(f: u64) -> String {
    format!("{} resources, {} force fields", (f >> 12) & 15, (f >> 16) & 15)
}

/// The mask bits of a gen-2 F_Obj by what they drop (docs/formats/ccsf-gen2.md#anime-and-frame-records):
/// set bit = value absent.
pub(in crate::formats) const FOBJ_MASK: [(u64, &str); 11] = [
    (1 << 1, "pos.x"),
    (1 << 2, "pos.y"),
    (1 << 3, "pos.z"),
    (1 << 4, "rot.x"),
    (1 << 5, "rot.y"),
    (1 << 6, "rot.z"),
    (1 << 7, "scale.x"),
    (1 << 8, "scale.y"),
    (1 << 9, "scale.z"),
    (1 << 10, "transparency"),
    (1 << 11, "display"),
];

record! {
    /// One Clump node's bind pose (docs/formats/ccsf-gen2.md#clump-0x0900-bind-poses, B1+):
    /// parent-relative translation, Euler degrees applied Rx·Ry·Rz, scale.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub(in crate::formats) struct ClumpBind = "clump bind" [entry = bind] {
        /// Translation, model units.
        pub pos: Vec3 => GROUP.unit("units"),
        /// Rotation, degrees.
        pub rot: Vec3 => GROUP.unit("deg"),
        /// Scale.
        pub scale: Vec3 => GROUP,
    }

    /// The bind records of a gen-2 Clump, one per node, after all node indices.
    #[br(import(n: Count))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ClumpBinds = "clump bind pose" [] {
        /// The records, in node order.
        #[br(count = n.get())]
        pub bind: Vec<ClumpBind> => INLINE,
    }

    /// Material 0x0200 of a later generation (docs/formats/ccsf-gen2.md#material-0x0200): 4,
    /// 5, 14 or 23 words, taken from the chunk's size.
    #[br(import(words: u64))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Material2 = "Material" [] {
        /// MAT_ index.
        pub object: Spanned<u32> => OBJ,
        /// TEX_ index or 0.
        pub texture: Spanned<u32> => OBJ,
        /// f32, 1.0 opaque.
        pub alpha: Spanned<u32> => FLOAT,
        /// 1/4096 of the texture.
        pub offset_u: Spanned<i16> => FRAC4096,
        /// 1/4096 of the texture.
        pub offset_v: Spanned<i16> => FRAC4096,
        /// 5 words and more (B3+): scale U, V (4096 = 1.0, AH's reading).
        #[br(if(words >= 5))]
        pub scale: Option<MaterialScale> => INLINE,
        /// 14 words and more (B6+): shader parameters.
        #[br(if(words >= 14))]
        pub shader: Option<MaterialShader> => INLINE,
        /// 23 words (B7): multi-texture parameters.
        #[br(if(words >= 23))]
        pub multi: Option<MaterialMulti> => INLINE,
    }

    /// Material scale words (B3+).
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub(in crate::formats) struct MaterialScale = "Material scale" [] {
        /// 4096 = 1.0.
        pub scale_u: Spanned<i16> => FRAC4096.note(SCALE_NOTE),
        /// 4096 = 1.0.
        pub scale_v: Spanned<i16> => FRAC4096.note(SCALE_NOTE),
    }

    /// Material shader words (B6+, AH only).
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub(in crate::formats) struct MaterialShader = "Material shader" [] {
        /// RGBA; all zero turns the chara shader off.
        pub force_colour: Spanned<u32> => COLOUR,
        /// 0 default, 1 back, 2 front.
        pub cull: Spanned<u32> => DEC.label(Label::Enum(&CULL, "unknown")),
        /// RGBA.
        pub ambient: Spanned<u32> => COLOUR,
        /// TEX_ or 0.
        pub normal_texture: Spanned<u32> => OBJ,
        /// f32.
        pub normal_strength: Spanned<u32> => FLOAT,
        /// u16.
        pub use_specular: Spanned<u16> => DEC,
        /// u16.
        pub debug_specular: Spanned<u16> => DEC,
        /// TEX_ or 0.
        pub specular_texture: Spanned<u32> => OBJ,
        /// f32.
        pub specular_strength: Spanned<u32> => FLOAT,
        /// f32.
        pub shininess: Spanned<u32> => FLOAT,
    }

    /// Material multi-texture words (B7, AH only).
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub(in crate::formats) struct MaterialMulti = "Material multi-texture" [] {
        /// TEX_ or 0.
        pub multi_texture: Spanned<u32> => OBJ,
        /// Blend mode.
        pub multi_blend: Spanned<u16> => DEC,
        /// 0 UVs, 1 reflection, 2 view position, 3 world normal, 4 world position.
        pub multi_uv_mode: Spanned<u16> => DEC,
        /// f32.
        pub multi_scale_u: Spanned<u32> => FLOAT,
        /// f32.
        pub multi_scale_v: Spanned<u32> => FLOAT,
        /// f32.
        pub multi_offset_u: Spanned<u32> => FLOAT,
        /// f32.
        pub multi_offset_v: Spanned<u32> => FLOAT,
        /// f32 scroll speed.
        pub multi_scroll_u: Spanned<u32> => FLOAT,
        /// f32 scroll speed.
        pub multi_scroll_v: Spanned<u32> => FLOAT,
        /// RGBA.
        pub emission: Spanned<u32> => COLOUR,
    }

    /// Model 0x0800's gen-2 header (docs/formats/ccsf-gen2.md#model-0x0800): 20 bytes, then
    /// (B1+) outline colour and width; the lookup list follows separately.
    #[br(import(outline: bool))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ModelHead2 = "Model" [] {
        /// MDL_ index.
        pub model: Spanned<u32> => OBJ,
        /// f32: one position unit is vertex_scale / 4096.
        pub vertex_scale: Spanned<u32> => FLOAT,
        /// 1 lit, 2 triangle list, 4 deformable, 8 shadow.
        pub mtype: Spanned<u8> => HEX.label(Label::Flags(&MTYPE2_BITS)),
        /// 2 no colours, 4 no UVs, 8 outline?, 0x10 unknown.
        pub mflags: Spanned<u8> => HEX.label(Label::Flags(&MFLAGS2_BITS)),
        /// Mmats that follow.
        pub mmat_num: Spanned<u16> => DEC,
        /// Bit 0 emissive (AH); `& 3` blend (G1).
        pub flag_lo: Spanned<u8> => HEX,
        /// Meaning unknown (often 0x10).
        pub flag_hi: Spanned<u8> => HEX.unknown().note("meaning unknown [?]"),
        /// Depth offset.
        pub zoffs: Spanned<i16> => DEC,
        /// Lookup-list bytes.
        pub lookup_count: Spanned<u8> => DEC,
        /// Unknown.
        pub extra_flags: Spanned<u8> => HEX.unknown().note("[?]"),
        /// Nonzero: tangent and binormal arrays follow the UVs.
        pub tbn_flag: Spanned<u16> => DEC,
        /// B1+: RGBA.
        #[br(if(outline))]
        pub outline_colour: Option<Spanned<u32>> => COLOUR,
        /// B1+: f32.
        #[br(if(outline))]
        pub outline_width: Option<Spanned<u32>> => FLOAT,
    }

    /// A gen-2 model's lookup list: node slot `s` of its bone/skin mmats is
    /// `clump.node[lookup[s]]` (docs/formats/ccsf-gen2.md#model-0x0800).
    #[br(import(n: Count))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct LookupList = "lookup list" [] {
        /// Clump node indices.
        #[br(count = n.get())]
        pub lookup: Vec<Spanned<u8>> => DEC.label(Label::Text("clump node")),
    }

    /// Binary Blob 0x2400 up to its opaque bytes (docs/formats/ccsf-gen2.md#binary-blob-0x2400).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct BlobHead = "BinaryBlob" [] {
        /// BIN_ index.
        pub object: Spanned<u32> => OBJ,
    }

    /// Stream post-effect parameters 0x1A00/0x1B00/0x1C00
    /// (docs/formats/ccsf-gen2.md#stream-post-effect-parameters-0x1a000x1d00).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct StreamParam = "stream parameter" [] {
        /// 0x1A00: layer; 0x1B00/0x1C00: unknown.
        pub layer_or_unknown: Spanned<u32> => HEX.note("0x1A00: layer; others: unknown [X:AH]"),
        /// The parameter object.
        pub object: Spanned<u32> => OBJ,
        /// Its target object.
        pub target: Spanned<u32> => OBJ,
        /// TEX_ or 0.
        pub texture: Spanned<u32> => OBJ,
    }

    /// StreamFBSBlurParam 0x1D00 (docs/formats/ccsf-gen2.md#stream-post-effect-parameters-0x1a000x1d00).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct BlurParam = "StreamFBSBlurParam" [] {
        /// Unknown.
        pub unknown_0: Spanned<u16> => HEX.unknown(),
        /// Unknown.
        pub unknown_1: Spanned<u16> => HEX.unknown(),
        /// The parameter object.
        pub object: Spanned<u32> => OBJ,
    }

    /// Dynamics 0x2300 up to its tables (docs/formats/ccsf-gen2.md#dynamics-0x2300).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct DynamicsHead = "Dynamics" [] {
        /// CMP_ index.
        pub clump: Spanned<u32> => OBJ,
        /// Springs (16 bytes each).
        pub spring_count: Spanned<u16> => DEC,
        /// Collisions (40 bytes each).
        pub collision_count: Spanned<u16> => DEC,
    }

    /// One Dynamics spring.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Spring = "spring" [entry = spring] {
        /// Node object.
        pub node: Spanned<u32> => OBJ,
        /// f32 parameters, meaning unknown.
        pub param: Vec3 => GROUP,
    }

    /// One Dynamics collision shape.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct Collision = "collision" [entry = collision] {
        /// Node object.
        pub node: Spanned<u32> => OBJ,
        /// Position.
        pub pos: Vec3 => GROUP.unit("units"),
        /// Rotation, degrees.
        pub rot: Vec3 => GROUP.unit("deg"),
        /// Scale.
        pub scale: Vec3 => GROUP,
    }

    /// ParticleAnmCtrl 0x0D80 up to its controllers
    /// (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ParticleAnmHead = "ParticleAnmCtrl" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// ANM_ index.
        pub animation: Spanned<u32> => OBJ,
        /// Controllers that follow.
        pub ctrl_count: Spanned<u16> => DEC,
        /// cc cc.
        pub pad: Spanned<ByteArray<2>> => PAD,
    }

    /// ParticleGenerator 0x0D90 up to its parameters
    /// (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ParticleGenHead = "ParticleGenerator" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Unknown.
        pub unknown: Spanned<u32> => HEX.unknown(),
        /// Bits 12–15 resource count, 16–19 force-field count.
        pub flags: Spanned<u32> => HEX.label(Label::Fn(particle_flags)),
    }

    /// One ParticleAnmCtrl controller's head
    /// (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]):
    /// `frame_count` bytes follow, one per frame (AH: 1 busy, 2 idle), zero-padded to 4.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ParticleCtrl = "particle controller" [entry = ctrl] {
        /// The ParticleGenerator it drives (object index).
        pub generator: Spanned<u32> => OBJ,
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Another object index.
        pub extra_object: Spanned<u32> => OBJ,
        /// Unknown.
        pub unknown: Spanned<u32> => HEX.unknown(),
        /// Frame bytes that follow.
        pub frame_count: Spanned<u16> => DEC,
        /// cc cc.
        pub pad: Spanned<ByteArray<2>> => BYTES.note("pad, ignored"),
    }

    /// A ParticleGenerator's parameters after its head
    /// (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]):
    /// 44 bytes of generator parameters and seven floats, payload +12..+84. No source names
    /// them except the fades, so they are named by payload offset, meaning unknown.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ParticleGenParams = "generator parameters" [] {
        /// s16, unknown.
        pub s16_12: Spanned<i16> => DEC.unknown(),
        /// cc cc.
        pub pad_14: Spanned<ByteArray<2>> => BYTES.note("cc cc"),
        /// f32, unknown.
        pub f32_16: Spanned<u32> => UNKNOWN_FLOAT,
        /// u16, unknown.
        pub u16_20: Spanned<u16> => HEX.unknown(),
        /// u16, unknown.
        pub u16_22: Spanned<u16> => HEX.unknown(),
        /// u16, unknown.
        pub u16_24: Spanned<u16> => HEX.unknown(),
        /// u16, unknown.
        pub u16_26: Spanned<u16> => HEX.unknown(),
        /// f32, unknown.
        pub f32_28: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_32: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_36: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_40: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_44: Spanned<u32> => UNKNOWN_FLOAT,
        /// s16, unknown.
        pub s16_48: Spanned<i16> => DEC.unknown(),
        /// s16, unknown.
        pub s16_50: Spanned<i16> => DEC.unknown(),
        /// Fade-in, /2048.
        pub fade_in: Spanned<i16> => FieldDef::of(Kind::Fixed(2048.0)).note("/2048"),
        /// Fade-out, /2048.
        pub fade_out: Spanned<i16> => FieldDef::of(Kind::Fixed(2048.0)).note("/2048"),
        /// f32, unknown.
        pub f32_56: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_60: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_64: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_68: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_72: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_76: Spanned<u32> => UNKNOWN_FLOAT,
        /// f32, unknown.
        pub f32_80: Spanned<u32> => UNKNOWN_FLOAT,
    }

    /// One ParticleGenerator force field
    /// (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]),
    /// 32 bytes.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ForceField = "force field" [entry = force_field] {
        /// Pad.
        pub pad_0: Spanned<ByteArray<4>> => BYTES.note("pad"),
        /// Unknown.
        pub unknown_4: Spanned<u8> => HEX.unknown(),
        /// cc.
        pub pad_5: Spanned<u8> => HEX.note("cc"),
        /// 0x00..0x21.
        pub type_: Spanned<u8> => HEX.note("0x00..0x21 (AH); names unknown"),
        /// Pad.
        pub pad_7: Spanned<u8> => HEX.note("pad"),
        /// Unknown.
        pub unknown_8: Spanned<u16> => HEX.unknown(),
        /// cc cc.
        pub pad_10: Spanned<ByteArray<2>> => BYTES.note("cc cc"),
        /// f32 ×5, unknown.
        pub param: [Spanned<u32>; 5] => FLOAT.note("[?] meaning unknown"),
    }

    /// One ParticleGenerator resource
    /// (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 [X:AH]):
    /// an object (CMP_/ANM_/EFF_), and four bytes more when the version is above 0x122.
    #[br(import(version: u16))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct ParticleResource = "particle resource" [entry = resource] {
        /// CMP_/ANM_/EFF_ index.
        pub object: Spanned<u32> => OBJ,
        /// u8 ×4, meaning unknown (version > 0x122).
        #[br(if(band::of(version).particle_resource_extra))]
        pub extra: Option<Spanned<ByteArray<4>>> => BYTES.unknown().note("u8 ×4 from 0x123 [?]"),
    }

    /// A gen-2 morph controller 0x1902's head (docs/formats/ccsf-gen2.md#anime-and-frame-records):
    /// the morpher and how many targets follow.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct MorphCtrlHead = "MorphCtrl" [] {
        /// MPH_ index.
        pub morpher: Spanned<u32> => OBJ,
        /// Targets that follow.
        pub target_count: Spanned<u32> => DEC,
    }

    /// One morph-controller target's head (docs/formats/ccsf-gen2.md#anime-and-frame-records):
    /// the target model and the flags whose bits 0-2 say how its weight follows (0 absent,
    /// 1 constant, 2 keyed).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct MorphCtrlTarget = "morph controller target" [entry = target] {
        /// MDL_ index.
        pub model: Spanned<u32> => OBJ,
        /// Weight controller field 0 in bits 0-2.
        pub flags: Spanned<u32> => HEX.note("bits 0-2: weight 0 absent, 1 constant, 2 keyed"),
    }

    /// A gen-2 F_Obj's head (docs/formats/ccsf-gen2.md#anime-and-frame-records): the mask says
    /// which values follow.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FObjHead2 = "F_Obj" [] {
        /// OBJ_ index.
        pub object: Spanned<u32> => OBJ,
        /// Set bit = value absent: 1–3 pos, 4–6 rot, 7–9 scale, 10 transparency, 11 display.
        pub mask: Spanned<u32> => HEX
            .label(Label::Flags(&FOBJ_MASK))
            .note("set bit = value absent (bits 1..10 values, 11 display)"),
    }

    /// A gen-2 F_Obj's values after its head (docs/formats/ccsf-gen2.md#anime-and-frame-records):
    /// one f32 per clear mask bit among 1..10, then the display word if bit 11 is clear.
    #[br(import(mask: u32))]
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FObjValues2 = "F_Obj values" [] {
        /// Position (bits 1..3).
        #[br(args(mask, 1))]
        pub pos: MaskedVec3 => GROUP.unit("units"),
        /// Rotation, degrees (bits 4..6).
        #[br(args(mask, 4))]
        pub rot: MaskedVec3 => GROUP.unit("deg"),
        /// Scale (bits 7..9).
        #[br(args(mask, 7))]
        pub scale: MaskedVec3 => GROUP,
        /// Bit 10 clear.
        #[br(if(mask & (1 << 10) == 0))]
        pub transparency: Option<Spanned<u32>> => FLOAT,
        /// Display flag word (bit 11 clear).
        #[br(if(mask & (1 << 11) == 0))]
        pub display: Option<Spanned<u32>> => HEX,
    }

    /// A gen-2 F_Material (v ≥ 0x120, docs/formats/ccsf-gen2.md#anime-and-frame-records).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct FMaterial2 = "F_Material" [] {
        /// MAT_ index.
        pub material: Spanned<u32> => OBJ,
        /// Bit 0: no u, v; bit 1: no scale/extra floats.
        pub flags: Spanned<u32> => HEX,
        /// f32 u, v unless flags & 1.
        #[br(if(flags.value & 1 == 0))]
        pub uv: Option<FMaterialUv> => INLINE,
        /// f32 scale U, V and two unknown floats unless flags & 2.
        #[br(if(flags.value & 2 == 0))]
        pub scale: Option<FMaterialScale> => INLINE,
    }

    /// A gen-2 F_Material's UV offset.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub(in crate::formats) struct FMaterialUv = "F_Material uv" [] {
        /// f32.
        pub u: Spanned<u32> => FLOAT,
        /// f32.
        pub v: Spanned<u32> => FLOAT,
    }

    /// A gen-2 F_Material's scale and two unknown floats.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub(in crate::formats) struct FMaterialScale = "F_Material scale" [] {
        /// f32.
        pub scale_u: Spanned<u32> => FLOAT,
        /// f32.
        pub scale_v: Spanned<u32> => FLOAT,
        /// f32, meaning unknown.
        pub unknown_0: Spanned<u32> => FLOAT.unknown(),
        /// f32, meaning unknown.
        pub unknown_1: Spanned<u32> => FLOAT.unknown(),
    }

    /// CelShadeFrame 0x1B01 (docs/formats/ccsf-gen2.md#anime-and-frame-records).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct CelShadeFrame = "CelShadeFrame" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Flags.
        pub flags: Spanned<u32> => HEX,
        /// f32 ×2, meaning unknown.
        pub value: [Spanned<u32>; 2] => FLOAT.unknown(),
    }

    /// FBSBlurFrame 0x1D01 (docs/formats/ccsf-gen2.md#anime-and-frame-records).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub(in crate::formats) struct BlurFrame = "FBSBlurFrame" [] {
        /// Object index.
        pub object: Spanned<u32> => OBJ,
        /// Flags.
        pub flags: Spanned<u32> => HEX,
        /// f32 ×2, meaning unknown.
        pub value: [Spanned<u32>; 2] => FLOAT.unknown(),
        /// u32 ×2, meaning unknown.
        pub word: [Spanned<u32>; 2] => HEX.unknown(),
    }
}

/// An f32 whose meaning is unknown, noted so.
const UNKNOWN_FLOAT: FieldDef = FLOAT.note("[?] meaning unknown");

impl FObjValues2 {
    /// `(mask bit, f32 bits)` of the stored values among bits 1..10.
    pub fn values(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let groups = [(&self.pos, 1), (&self.rot, 4), (&self.scale, 7)];
        let xyz = groups.into_iter().flat_map(|(g, bit)| g.present().map(move |(i, v)| (bit + i, v)));
        xyz.chain(self.transparency.map(|t| (10, *t)))
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
pub(super) mod tests;
