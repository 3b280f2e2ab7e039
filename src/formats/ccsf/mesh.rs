//! Model chunks (0x0800, docs/formats/ccsf.md#model-0x0800): the full decoder with spans for every array, unit
//! conversion, triangle strips, and the decoded [`Mesh`] handed to exporters.

use super::band;
use super::raw;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::read_at;
use crate::limits::Limits;
use crate::model::Span;
use glam::Vec3;

/// Body layout of one mmat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MmatKind {
    /// Decode_Mmat01: positions in the owner's space.
    Rigid,
    /// Decode_Mmat02 with offsetNum = 0: every vertex follows one clump node.
    Bone,
    /// Decode_Mmat02 with offsetNum > 0: weighted entries per vertex.
    Skin,
    /// DecodeShadowModel: positions and triangle indices.
    Shadow,
    /// Gen 2 `mtype & 2` (docs/formats/ccsf-gen2.md#mmats): typed sections.
    TriList,
}

impl MmatKind {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            MmatKind::Rigid => "rigid",
            MmatKind::Bone => "bone",
            MmatKind::Skin => "skin",
            MmatKind::Shadow => "shadow",
            MmatKind::TriList => "triangle-list",
        }
    }
}

/// One skin entry (8 bytes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct SkinEntry {
    pub pos: [i16; 3],
    pub w: u16,
    /// Gen 2 from 0x125: the 12-byte entry's `weight, stop, bone` words (then `w` is 0).
    pub wide: Option<[i16; 3]>,
}

impl SkinEntry {
    pub fn weight(&self) -> f32 {
        match self.wide {
            Some([w, _, _]) => f32::from(w) / 256.0,
            None => f32::from(self.w & 0x1ff) / 256.0,
        }
    }
    pub fn last(&self) -> bool {
        match self.wide {
            Some([_, stop, _]) => stop != 0,
            None => self.w & 0x200 != 0,
        }
    }
    pub fn slot(&self) -> u8 {
        (self.w >> 10) as u8
    }
    /// The node slot of either form (a wide entry's `bone` word may exceed 6 bits).
    pub fn slot_index(&self) -> i32 {
        match self.wide {
            Some([_, _, bone]) => i32::from(bone),
            None => i32::from(self.slot()),
        }
    }
}

/// One mmat as stored, with the span of every part.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct MmatData {
    pub kind: MmatKind,
    pub span: Span,
    /// Per-mmat header words (name, value, span).
    pub header: raw::HeadWords,
    pub name: u32,
    pub material: u32,
    pub node: Option<(u32, Span)>,
    pub positions: Vec<[i16; 3]>,
    pub positions_span: Option<Span>,
    pub pad_span: Option<Span>,
    pub entries: Vec<SkinEntry>,
    pub normals: Vec<u32>,
    pub normals_span: Option<Span>,
    pub colours: Vec<u32>,
    pub colours_span: Option<Span>,
    pub sts: Vec<u32>,
    pub sts_span: Option<Span>,
    pub shadow_counts: Option<raw::ShadowCounts>,
    pub triangles: Vec<[i32; 3]>,
    pub triangles_span: Option<Span>,
    /// Gen 2 from 0x125: 16.16 UVs (two words per vertex; `sts` is empty then).
    pub uvs32: Vec<[i32; 2]>,
    /// Gen 2 with `tbnFlag`: the tangent and binormal arrays.
    pub tangents_span: Option<Span>,
    pub binormals_span: Option<Span>,
    /// Gen 2 triangle-list mmats: their sections.
    pub tri: Option<TriList>,
}

/// One section of a triangle-list mmat (docs/formats/ccsf-gen2.md#mmats).
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct TriSection {
    pub head: raw::TriSectionHead,
    /// The payload's bytes.
    pub payload: Span,
    /// Pad to 4 after the payload.
    pub pad: Option<Span>,
}

/// What a triangle-list mmat's sections hold (docs/formats/ccsf-gen2.md#mmats), in file order.
#[derive(Debug, Clone, PartialEq, Default)]
pub(in crate::formats) struct TriList {
    pub sections: Vec<TriSection>,
    /// Type-32 records: the position and its G1 skin word (weight, last, slot).
    pub positions: Vec<([i16; 3], u16)>,
    pub normals: Vec<[i8; 3]>,
    pub uvs: Vec<[i16; 2]>,
    /// Type 7: one byte per element, meaning not given by the addendum.
    pub flags: Vec<u8>,
    pub indices: Vec<u16>,
    pub clump: Option<u32>,
}

impl MmatData {
    /// An mmat with its header words read and nothing else yet (taken as rigid until its
    /// body says otherwise).
    pub fn new(header: raw::HeadWords, name: u32, material: u32) -> Self {
        MmatData {
            kind: MmatKind::Rigid,
            span: Span::default(),
            header,
            name,
            material,
            node: None,
            positions: Vec::new(),
            positions_span: None,
            pad_span: None,
            entries: Vec::new(),
            normals: Vec::new(),
            normals_span: None,
            colours: Vec::new(),
            colours_span: None,
            sts: Vec::new(),
            sts_span: None,
            shadow_counts: None,
            triangles: Vec::new(),
            triangles_span: None,
            uvs32: Vec::new(),
            tangents_span: None,
            binormals_span: None,
            tri: None,
        }
    }
}

/// A Model chunk as stored.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct ModelData {
    pub off: u64,
    pub object: u32,
    pub scale: f32,
    pub mtype_raw: u16,
    pub mtype: u16,
    pub mmat_num: u16,
    pub flag: u16,
    pub zoffs: i16,
    pub unknown: u8,
    pub mmats: Vec<MmatData>,
    pub end: u64,
    /// Later generations (version ≥ 0x110): what the gen-2 header added.
    pub gen2: Option<super::gen2::ModelGen2>,
}

fn align4(x: u64) -> u64 {
    (x + 3) & !3
}

/// `n` little-endian words at `at` and their span. The whole array is bounds-checked once
/// and converted (palettes and vertex arrays are read for every member a survey checks);
/// a cut-off array is read word by word so the error names the first missing word.
pub(in crate::formats) fn read_u32s(b: &Bytes<'_>, at: u64, n: usize) -> Result<(Vec<u32>, Span)> {
    let len = 4 * n as u64;
    let v = match b.slice(at, len) {
        Ok(bytes) => bytes.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().unwrap_or_default())).collect(),
        Err(_) => {
            let mut v = Vec::with_capacity(n);
            for i in 0..n as u64 {
                v.push(b.u32_le(at + 4 * i)?);
            }
            v
        }
    };
    Ok((v, Span::at(at, len)))
}

/// Positions, their span, the pad span, and the aligned end.
pub(in crate::formats) type PositionsRead = (Vec<[i16; 3]>, Span, Option<Span>, u64);

pub(in crate::formats) fn read_positions(b: &Bytes<'_>, at: u64, n: usize) -> Result<PositionsRead> {
    // as `read_u32s`: one bounds check when the array is whole, word by word when it is not
    let v = match b.slice(at, 6 * n as u64) {
        Ok(bytes) => bytes
            .chunks_exact(6)
            .map(|w| {
                let [x0, x1, y0, y1, z0, z1] = w.try_into().unwrap_or_default();
                [i16::from_le_bytes([x0, x1]), i16::from_le_bytes([y0, y1]), i16::from_le_bytes([z0, z1])]
            })
            .collect(),
        Err(_) => {
            let mut v = Vec::with_capacity(n);
            for i in 0..n as u64 {
                let p = at + 6 * i;
                v.push([b.i16_le(p)?, b.i16_le(p + 2)?, b.i16_le(p + 4)?]);
            }
            v
        }
    };
    let end = at + 6 * n as u64;
    let aligned = align4(end);
    b.slice(end, aligned - end)?;
    Ok((v, Span::new(at, end), (aligned > end).then(|| Span::new(end, aligned)), aligned))
}

/// Decode the Model chunk at `off` (whole-file view `b`), following the decoders' reads.
pub(in crate::formats) fn parse_model(b: &Bytes<'_>, off: u64, version: u16, limits: &Limits) -> Result<ModelData> {
    if band::of(version).gen2() {
        return super::gen2::parse_model(b, off, version, limits);
    }
    let p = off + 8;
    let h: raw::ModelHead = read_at(b, p).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let mtype = h.mtype_at(version);
    let mut m = ModelData {
        off,
        object: *h.model,
        scale: f32::from_bits(*h.vertex_scale),
        mtype_raw: *h.mtype,
        mtype,
        mmat_num: *h.mmat_num,
        flag: *h.flag,
        zoffs: *h.zoffs,
        unknown: *h.unknown,
        // reserved for the usual few mmats (the count is the file's, not trusted further)
        mmats: Vec::with_capacity(usize::from(*h.mmat_num).min(16)),
        end: 0,
        gen2: None,
    };
    let mut q = p + 20;
    let max = limits.max_keys as u64;
    for i in 0..m.mmat_num {
        let start = q;
        let ctx = |e: ParseError| e.within(format!("mmat[{i}]"));
        let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
        let (mut header, mut name, mut material, mut vn, mut on) = (raw::HeadWords::default(), 0, 0, 0u32, 0u32);
        if mtype & 2 != 0 {
            let h: raw::MmatHead5 = read_at(b, q).map_err(plain).map_err(ctx)?;
            (header, name, material, vn, on, q) =
                (h.words(), *h.name, *h.material, *h.vertex_num, *h.offset_num, h.offset_num.span.end);
        } else if mtype & 4 != 0 {
            let h: raw::MmatDeformHead = read_at(b, q).map_err(plain).map_err(ctx)?;
            (header, material, vn, on, q) = (h.words(), *h.material, *h.vertex_num, *h.offset_num, q + 12);
        } else if mtype & 8 == 0 {
            let h: raw::MmatRigidHead = read_at(b, q).map_err(plain).map_err(ctx)?;
            (header, name, material, vn, q) = (h.words(), *h.name, *h.material, *h.vertex_num, q + 12);
        }
        let mut mm = MmatData::new(header, name, material);
        let r: Result<()> = (|| {
            if mtype & 4 != 0 {
                if on > 0 {
                    mm.kind = MmatKind::Skin;
                    let n = b.check_count("skin entry", q, u64::from(on), 12, max)?;
                    mm.entries.reserve(n);
                    for k in 0..n as u64 {
                        let e = q + 8 * k;
                        mm.entries.push(SkinEntry {
                            pos: [b.i16_le(e)?, b.i16_le(e + 2)?, b.i16_le(e + 4)?],
                            w: b.u16_le(e + 6)?,
                            wide: None,
                        });
                    }
                    mm.positions_span = Some(Span::at(q, 8 * n as u64));
                    q += 8 * n as u64;
                    (mm.normals, mm.normals_span) = {
                        let (v, s) = read_u32s(b, q, n)?;
                        (v, Some(s))
                    };
                    q += 4 * n as u64;
                    let ends = mm.entries.iter().filter(|e| e.last()).count();
                    let (v, s) = read_u32s(b, q, ends)?;
                    (mm.sts, mm.sts_span) = (v, Some(s));
                    q += 4 * ends as u64;
                } else {
                    mm.kind = MmatKind::Bone;
                    let bone: raw::BoneNode = read_at(b, q).map_err(plain)?;
                    (mm.node, q) = (Some((*bone.node, bone.node.span)), bone.node.span.end);
                    let n = b.check_count("bone vertex", q, u64::from(vn), 14, max)?;
                    let (v, s, pad, e) = read_positions(b, q, n)?;
                    (mm.positions, mm.positions_span, mm.pad_span, q) = (v, Some(s), pad, e);
                    let (v, s) = read_u32s(b, q, n)?;
                    (mm.normals, mm.normals_span, q) = (v, Some(s), q + 4 * n as u64);
                    let (v, s) = read_u32s(b, q, n)?;
                    (mm.sts, mm.sts_span, q) = (v, Some(s), q + 4 * n as u64);
                }
            } else if mtype & 2 != 0 {
                return Err(super::walk::rigid_bit2_error(q, mtype));
            } else if mtype & 8 != 0 {
                mm.kind = MmatKind::Shadow;
                let c: raw::ShadowCounts = read_at(b, q).map_err(|e| ParseError::new(e.offset, e.kind))?;
                let (vnum, inum) = (*c.v_num, *c.i_num);
                mm.shadow_counts = Some(c);
                q += 8;
                if vnum != 0 {
                    let vcount = u64::try_from(vnum).map_err(|_| {
                        ParseError::new(
                            q - 8,
                            ErrorKind::BadValue {
                                what: "shadow vNum",
                                value: vnum.to_string(),
                                why: "negative".into(),
                            },
                        )
                    })?;
                    let tcount = u64::try_from(inum / 3).map_err(|_| {
                        ParseError::new(
                            q - 4,
                            ErrorKind::BadValue {
                                what: "shadow iNum",
                                value: inum.to_string(),
                                why: "negative".into(),
                            },
                        )
                    })?;
                    let n = b.check_count("shadow vertex", q, vcount, 6, max)?;
                    let (v, s, pad, e) = read_positions(b, q, n)?;
                    (mm.positions, mm.positions_span, mm.pad_span, q) = (v, Some(s), pad, e);
                    let t = b.check_count("shadow triangle", q, tcount, 12, max)?;
                    mm.triangles.reserve(t);
                    for k in 0..t as u64 {
                        let e = q + 12 * k;
                        mm.triangles.push([b.i32_le(e)?, b.i32_le(e + 4)?, b.i32_le(e + 8)?]);
                    }
                    mm.triangles_span = Some(Span::at(q, 12 * t as u64));
                    q += 12 * t as u64;
                }
            } else {
                mm.kind = MmatKind::Rigid;
                let n = b.check_count("rigid vertex", q, u64::from(vn), 6, max)?;
                let (v, s, pad, e) = read_positions(b, q, n)?;
                (mm.positions, mm.positions_span, mm.pad_span, q) = (v, Some(s), pad, e);
                if mtype & 0x40 == 0 {
                    let (v, s) = read_u32s(b, q, n)?;
                    (mm.normals, mm.normals_span, q) = (v, Some(s), q + 4 * n as u64);
                }
                if mtype & 0x200 == 0 {
                    let (v, s) = read_u32s(b, q, n)?;
                    (mm.colours, mm.colours_span, q) = (v, Some(s), q + 4 * n as u64);
                }
                if mtype & 0x400 == 0 {
                    let (v, s) = read_u32s(b, q, n)?;
                    (mm.sts, mm.sts_span, q) = (v, Some(s), q + 4 * n as u64);
                }
            }
            Ok(())
        })();
        r.map_err(ctx)?;
        mm.span = Span::new(start, q);
        m.mmats.push(mm);
    }
    m.end = q;
    Ok(m)
}

/// Triangles of a strip-flagged vertex run (docs/formats/ccsf.md#units): flag ≠ 0 starts a strip, flag 0
/// emits a triangle with the two previous vertices, winding alternating from the strip's
/// first flag-1 vertex.
pub fn strip_triangles(flags: &[u8]) -> Vec<[u32; 3]> {
    // at most one triangle per vertex: sized once, not regrown (a survey builds every mesh)
    let mut out = Vec::with_capacity(flags.len().saturating_sub(2));
    let mut start = 0usize;
    let mut prev = 0u8;
    for (i, &f) in flags.iter().enumerate() {
        if f != 0 {
            if i == 0 || prev == 0 {
                start = i;
            }
        } else if i >= 2 {
            let (a, b, c) = ((i - 2) as u32, (i - 1) as u32, i as u32);
            if (i - start) % 2 == 1 {
                out.push([a, b, c]);
            } else {
                out.push([b, a, c]);
            }
        }
        prev = f;
    }
    out
}

/// Triangles of a gen-2 strip run (docs/formats/ccsf-gen2.md#strip-winding, `STRIP2`): flag 1 (re)starts a strip
/// wound `(i−2, i−1, i)`, flag 2 one wound `(i, i−1, i−2)`; flag 0 emits a triangle with
/// the current winding, then flips it.
pub fn strip2_triangles(flags: &[u8]) -> Vec<[u32; 3]> {
    let mut out = Vec::with_capacity(flags.len().saturating_sub(2));
    let mut forward = true;
    for (i, &f) in flags.iter().enumerate() {
        match f {
            1 => forward = true,
            2 => forward = false,
            _ if i < 2 => {}
            _ => {
                let (a, b, c) = ((i - 2) as u32, (i - 1) as u32, i as u32);
                out.push(if forward { [a, b, c] } else { [c, b, a] });
                forward = !forward;
            }
        }
    }
    out
}

/// Normal word → direction (s8 / 64) and strip flag (byte 3).
pub fn unpack_normal(w: u32) -> (Vec3, u8) {
    let [x, y, z, f] = w.to_le_bytes();
    (Vec3::new(f32::from(x as i8), f32::from(y as i8), f32::from(z as i8)) / 64.0, f)
}

/// ST word → (u, v) in texture repeats (u16 / 256); v = T/256 addresses the stored
/// (bottom-up) rows, which is OBJ's convention for a top-down image.
pub fn unpack_st(w: u32) -> [f32; 2] {
    [f32::from((w & 0xffff) as u16) / 256.0, f32::from((w >> 16) as u16) / 256.0]
}

/// A gen-2 UV word below 0x125 → (u, v): signed s16 / 256 (docs/formats/ccsf-gen2.md#mmats).
pub fn unpack_st_signed(w: u32) -> [f32; 2] {
    [f32::from((w & 0xffff) as u16 as i16) / 256.0, f32::from((w >> 16) as u16 as i16) / 256.0]
}

/// One skin influence of a decoded vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Influence {
    /// Clump slot (node index in the owning clump).
    pub slot: u8,
    /// Weight (w & 0x1ff) / 256.
    pub weight: f32,
    /// Position in the slot node's space, in model units.
    pub position: Vec3,
    /// Normal in the slot node's space.
    pub normal: Vec3,
}

/// A decoded mmat: vertices in model units, triangles, and how vertices bind to nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// Owning model name (`MDL_x`).
    pub model: String,
    /// Index of this mmat in its model.
    pub mmat: usize,
    /// Body layout.
    pub kind: MmatKind,
    /// Material object name, if any.
    pub material: Option<String>,
    /// Material object index (0 = none).
    pub material_index: u32,
    /// Positions (unposed: in the owner's or node's space; skins: Σ w·p with identity nodes).
    pub positions: Vec<Vec3>,
    /// Normals (may be empty).
    pub normals: Vec<Vec3>,
    /// Texture coordinates (may be empty).
    pub uvs: Vec<[f32; 2]>,
    /// Vertex colours RGBA, 0x80 = 1.0 (may be empty).
    pub colours: Vec<[f32; 4]>,
    /// Strip flags per vertex (empty for shadow meshes).
    pub flags: Vec<u8>,
    /// Triangles as vertex indices.
    pub triangles: Vec<[u32; 3]>,
    /// Bone mmats: the clump slot every vertex follows.
    pub bone_slot: Option<u32>,
    /// Skin mmats: each vertex's weighted entries.
    pub influences: Vec<Vec<Influence>>,
    /// Per vertex, the objects (by name) and weights that move it when posed, as
    /// [`super::pose::pose_meshes`] poses it; filled by the scene builder.
    pub binding: Vec<Vec<(String, f32)>>,
}

/// Convert a stored model into meshes (units of docs/formats/ccsf.md#units), named from `names`; without
/// an Index the model and material names are left empty (the strict check reads none, and
/// naming was a third of building a survey's meshes).
pub(in crate::formats) fn meshes(m: &ModelData, names: Option<&super::parse::Index>) -> Result<Vec<Mesh>> {
    let unit = m.scale / 4096.0;
    let pos = |p: &[i16; 3]| Vec3::new(f32::from(p[0]), f32::from(p[1]), f32::from(p[2])) * unit;
    let g2 = m.gen2.as_ref();
    // Gen 2 winds strips by the flag's value; gen 1 alternates from the strip start.
    let strips = |f: &[u8]| if g2.is_some() { strip2_triangles(f) } else { strip_triangles(f) };
    // Gen 2 names nodes through the lookup list when the model has one.
    let node_of = |slot: i32, at: u64, i: usize| -> Result<u32> {
        let bad = |why: String| {
            ParseError::new(at, ErrorKind::BadValue { what: "node slot", value: slot.to_string(), why })
                .within(format!("mmat[{i}]"))
        };
        let s = usize::try_from(slot).map_err(|_| bad("negative".into()))?;
        match g2.filter(|g| !g.lookup.is_empty()) {
            Some(g) => g
                .lookup
                .get(s)
                .map(|n| u32::from(*n))
                .ok_or_else(|| bad(format!("outside the {}-entry lookup list", g.lookup.len()))),
            None => u32::try_from(s).map_err(|_| bad("too large".into())),
        }
    };
    let mut out = Vec::with_capacity(m.mmats.len());
    let model = names.map(|n| n.name(m.object)).unwrap_or_default();
    for (i, mm) in m.mmats.iter().enumerate() {
        let mut mesh = Mesh {
            model: model.clone(),
            mmat: i,
            kind: mm.kind,
            material: names.filter(|_| mm.material != 0).map(|n| n.name(mm.material)),
            material_index: mm.material,
            positions: Vec::new(),
            normals: Vec::new(),
            uvs: if !mm.uvs32.is_empty() {
                mm.uvs32.iter().map(|[u, v]| [*u as f32 / 65536.0, *v as f32 / 65536.0]).collect()
            } else if g2.is_some() {
                mm.sts.iter().map(|w| unpack_st_signed(*w)).collect()
            } else {
                mm.sts.iter().map(|w| unpack_st(*w)).collect()
            },
            colours: mm
                .colours
                .iter()
                .map(|w| {
                    let c = w.to_le_bytes();
                    [0, 1, 2, 3].map(|k| f32::from(c.get(k).copied().unwrap_or(0)) / 128.0)
                })
                .collect(),
            flags: Vec::new(),
            triangles: Vec::new(),
            bone_slot: match mm.node {
                Some((n, s)) if g2.is_some() => Some(node_of(i32::try_from(n).unwrap_or(-1), s.start, i)?),
                other => other.map(|(n, _)| n),
            },
            influences: Vec::new(),
            binding: Vec::new(),
        };
        match mm.kind {
            MmatKind::Rigid | MmatKind::Bone => {
                mesh.positions = mm.positions.iter().map(pos).collect();
                mesh.normals.reserve_exact(mm.normals.len());
                mesh.flags.reserve_exact(mm.normals.len());
                for w in &mm.normals {
                    let (n, f) = unpack_normal(*w);
                    mesh.normals.push(n);
                    mesh.flags.push(f);
                }
                if mm.normals.is_empty() {
                    // No normal array (mtype & 0x40): no strip flags stored, no triangles known.
                    mesh.flags = Vec::new();
                }
                mesh.triangles = strips(&mesh.flags);
            }
            MmatKind::Skin => {
                // one vertex per entry marked last
                let n = mm.entries.iter().filter(|e| e.last()).count();
                (mesh.positions, mesh.normals, mesh.flags, mesh.influences) =
                    (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
                let mut cur: Vec<Influence> = Vec::new();
                for (e, nw) in mm.entries.iter().zip(&mm.normals) {
                    let (n, f) = unpack_normal(*nw);
                    let slot = if g2.is_some() {
                        let at = mm.positions_span.map_or(mm.span.start, |s| s.start);
                        let node = node_of(e.slot_index(), at, i)?;
                        u8::try_from(node).map_err(|_| {
                            ParseError::new(
                                at,
                                ErrorKind::BadValue {
                                    what: "skin node",
                                    value: node.to_string(),
                                    why: "above 255".into(),
                                },
                            )
                        })?
                    } else {
                        e.slot()
                    };
                    cur.push(Influence { slot, weight: e.weight(), position: pos(&e.pos), normal: n });
                    if e.last() {
                        mesh.flags.push(f);
                        let p = cur.iter().map(|c| c.position * c.weight).sum();
                        let nn: Vec3 = cur.iter().map(|c| c.normal * c.weight).sum();
                        mesh.positions.push(p);
                        mesh.normals.push(nn.normalize_or_zero());
                        mesh.influences.push(std::mem::take(&mut cur));
                    }
                }
                mesh.triangles = strips(&mesh.flags);
            }
            MmatKind::TriList => {
                // Positions and their units as every other body (docs/formats/ccsf.md#units: the model's
                // vertexScale); indices taken three at a time, as the body's name says
                // [I]: the addendum gives no assembly rule, and the type-7 flags are kept
                // but not applied (meaning not given).
                let empty = TriList::default();
                let t = mm.tri.as_ref().unwrap_or(&empty);
                mesh.positions = t.positions.iter().map(|(p, _)| pos(p)).collect();
                let n = mesh.positions.len();
                if t.normals.len() == n {
                    mesh.normals = t
                        .normals
                        .iter()
                        .map(|v| Vec3::new(f32::from(v[0]), f32::from(v[1]), f32::from(v[2])) / 64.0)
                        .collect();
                }
                if t.uvs.len() == n {
                    mesh.uvs = t.uvs.iter().map(|[u, v]| [f32::from(*u) / 256.0, f32::from(*v) / 256.0]).collect();
                }
                for tri in t.indices.chunks_exact(3).filter_map(|c| <[u16; 3]>::try_from(c).ok()) {
                    let tri = tri.map(u32::from);
                    if tri.iter().any(|&x| x as usize >= n) {
                        return Err(ParseError::new(
                            mm.span.start,
                            ErrorKind::BadValue {
                                what: "triangle-list index",
                                value: format!("{tri:?}"),
                                why: format!("outside 0..{n}"),
                            },
                        )
                        .within(format!("mmat[{i}]")));
                    }
                    mesh.triangles.push(tri);
                }
            }
            MmatKind::Shadow => {
                mesh.positions = mm.positions.iter().map(pos).collect();
                let n = mesh.positions.len() as i64;
                for t in &mm.triangles {
                    if t.iter().any(|&x| i64::from(x) < 0 || i64::from(x) >= n) {
                        return Err(ParseError::new(
                            mm.triangles_span.map_or(mm.span.start, |s| s.start),
                            ErrorKind::BadValue {
                                what: "shadow triangle index",
                                value: format!("{t:?}"),
                                why: format!("outside 0..{n}"),
                            },
                        )
                        .within(format!("mmat[{i}]")));
                    }
                    mesh.triangles.push(t.map(|x| x as u32));
                }
            }
        }
        out.push(mesh);
    }
    Ok(out)
}
