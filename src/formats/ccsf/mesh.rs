//! Model chunks (0x0800, docs/formats/ccsf.md#model-0x0800): the decoder of a file's
//! generation, unit conversion, triangle strips, and the decoded [`Mesh`] handed to
//! exporters. The stored shapes are `model_data.rs`'s (re-exported here).

use super::band;
use super::model_data::MmatData;
pub use super::model_data::MmatKind;
pub(in crate::formats) use super::model_data::{ModelData, TriList};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use glam::Vec3;

/// Decode the Model chunk at `off` (whole-file view `b`) with its generation's decoder.
pub(in crate::formats) fn parse_model(b: &Bytes<'_>, off: u64, version: u16, limits: &Limits) -> Result<ModelData> {
    crate::counters::bump(&crate::counters::CCSF_MODEL_PARSES);
    if band::of(version).gen2() {
        super::model2::parse_model(b, off, version, limits)
    } else {
        super::model_data::parse_model1(b, off, version, limits)
    }
}

/// [`parse_model`] for the strict check: a gen-1 model without the words the check does
/// not read ([`super::model_data::parse_model1_checked`]), the same errors.
pub(in crate::formats) fn parse_model_checked(
    b: &Bytes<'_>,
    off: u64,
    version: u16,
    limits: &Limits,
) -> Result<ModelData> {
    if band::of(version).gen2() {
        return parse_model(b, off, version, limits);
    }
    crate::counters::bump(&crate::counters::CCSF_MODEL_PARSES);
    super::model_data::parse_model1_checked(b, off, version, limits)
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
    let conv = MeshConv { unit: m.scale / 4096.0, g2: m.gen2.as_ref() };
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
            uvs: conv.uvs(mm),
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
                Some((n, s)) if conv.g2.is_some() => Some(conv.node_of(i32::try_from(n).unwrap_or(-1), s.start, i)?),
                other => other.map(|(n, _)| n),
            },
            influences: Vec::new(),
            binding: Vec::new(),
        };
        match mm.kind {
            MmatKind::Rigid | MmatKind::Bone => conv.stored_vertices(&mut mesh, mm),
            MmatKind::Skin => conv.skin_vertices(&mut mesh, mm, i)?,
            MmatKind::TriList => conv.tri_list(&mut mesh, mm, i)?,
            MmatKind::Shadow => {
                mesh.positions = mm.positions.iter().map(|p| conv.pos(p)).collect();
                if let Some(e) = shadow_index_error(mm, i) {
                    return Err(e);
                }
                mesh.triangles = mm.triangles.iter().map(|t| t.map(|x| x as u32)).collect();
            }
        }
        out.push(mesh);
    }
    Ok(out)
}

/// How one model's stored values become mesh values: its position unit and, for gen 2,
/// its strip winding, UV layout and lookup list.
struct MeshConv<'a> {
    unit: f32,
    g2: Option<&'a super::model_data::ModelGen2>,
}

impl MeshConv<'_> {
    /// A stored position in model units.
    fn pos(&self, p: &[i16; 3]) -> Vec3 {
        Vec3::new(f32::from(p[0]), f32::from(p[1]), f32::from(p[2])) * self.unit
    }

    /// The triangles of a strip with these flags. Gen 2 winds strips by the flag's value;
    /// gen 1 alternates from the strip start.
    fn strips(&self, f: &[u8]) -> Vec<[u32; 3]> {
        if self.g2.is_some() { strip2_triangles(f) } else { strip_triangles(f) }
    }

    /// The node a skin or bone `slot` of mmat `i` names (stored at `at`): gen 2 names nodes
    /// through the lookup list when the model has one.
    fn node_of(&self, slot: i32, at: u64, i: usize) -> Result<u32> {
        let bad = |why: String| {
            ParseError::new(at, ErrorKind::BadValue { what: "node slot", value: slot.to_string(), why })
                .within(format!("mmat[{i}]"))
        };
        let s = usize::try_from(slot).map_err(|_| bad("negative".into()))?;
        match self.g2.filter(|g| !g.lookup.is_empty()) {
            Some(g) => g
                .lookup
                .get(s)
                .map(|n| u32::from(*n))
                .ok_or_else(|| bad(format!("outside the {}-entry lookup list", g.lookup.len()))),
            None => u32::try_from(s).map_err(|_| bad("too large".into())),
        }
    }

    /// An mmat's UVs: 16.16 pairs, gen-2 signed words or gen-1 S,T words.
    fn uvs(&self, mm: &MmatData) -> Vec<[f32; 2]> {
        if !mm.uvs32.is_empty() {
            mm.uvs32.iter().map(|[u, v]| [*u as f32 / 65536.0, *v as f32 / 65536.0]).collect()
        } else if self.g2.is_some() {
            mm.sts.iter().map(|w| unpack_st_signed(*w)).collect()
        } else {
            mm.sts.iter().map(|w| unpack_st(*w)).collect()
        }
    }

    /// A rigid or bone mmat's positions, normals, strip flags and strip triangles.
    fn stored_vertices(&self, mesh: &mut Mesh, mm: &MmatData) {
        mesh.positions = mm.positions.iter().map(|p| self.pos(p)).collect();
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
        mesh.triangles = self.strips(&mesh.flags);
    }

    /// A skin mmat (`i` of its model): one vertex per entry marked last, its position and
    /// normal the weighted sums of its entries', and the entries kept as its influences.
    fn skin_vertices(&self, mesh: &mut Mesh, mm: &MmatData, i: usize) -> Result<()> {
        let n = mm.entries.iter().filter(|e| e.last()).count();
        (mesh.positions, mesh.normals, mesh.flags, mesh.influences) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut cur: Vec<Influence> = Vec::new();
        for (e, nw) in mm.entries.iter().zip(&mm.normals) {
            let (n, f) = unpack_normal(*nw);
            let slot = if self.g2.is_some() {
                let at = mm.positions_span.map_or(mm.span.start, |s| s.start);
                let node = self.node_of(e.slot_index(), at, i)?;
                u8::try_from(node).map_err(|_| {
                    ParseError::new(
                        at,
                        ErrorKind::BadValue { what: "skin node", value: node.to_string(), why: "above 255".into() },
                    )
                })?
            } else {
                e.slot()
            };
            cur.push(Influence { slot, weight: e.weight(), position: self.pos(&e.pos), normal: n });
            if e.last() {
                mesh.flags.push(f);
                let p = cur.iter().map(|c| c.position * c.weight).sum();
                let nn: Vec3 = cur.iter().map(|c| c.normal * c.weight).sum();
                mesh.positions.push(p);
                mesh.normals.push(nn.normalize_or_zero());
                mesh.influences.push(std::mem::take(&mut cur));
            }
        }
        mesh.triangles = self.strips(&mesh.flags);
        Ok(())
    }

    /// A triangle-list mmat (`i` of its model). Positions and their units as every other
    /// body (docs/formats/ccsf.md#units: the model's vertexScale); indices taken three at a
    /// time, as the body's name says [I]: the addendum gives no assembly rule, and the
    /// type-7 flags are kept but not applied (meaning not given).
    fn tri_list(&self, mesh: &mut Mesh, mm: &MmatData, i: usize) -> Result<()> {
        let empty = TriList::default();
        let t = mm.tri.as_ref().unwrap_or(&empty);
        mesh.positions = t.positions.iter().map(|(p, _)| self.pos(p)).collect();
        let n = mesh.positions.len();
        if t.normals.len() == n {
            mesh.normals =
                t.normals.iter().map(|v| Vec3::new(f32::from(v[0]), f32::from(v[1]), f32::from(v[2])) / 64.0).collect();
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
        Ok(())
    }
}

/// The error [`meshes`] gives for shadow mmat `i` of its model when a triangle indexes
/// outside its vertices (the first such triangle), None when every index is in range.
pub(in crate::formats) fn shadow_index_error(mm: &super::model_data::MmatData, i: usize) -> Option<ParseError> {
    let n = mm.positions.len() as i64;
    let t = mm.triangles.iter().find(|t| t.iter().any(|&x| i64::from(x) < 0 || i64::from(x) >= n))?;
    Some(
        ParseError::new(
            mm.triangles_span.map_or(mm.span.start, |s| s.start),
            ErrorKind::BadValue {
                what: "shadow triangle index",
                value: format!("{t:?}"),
                why: format!("outside 0..{n}"),
            },
        )
        .within(format!("mmat[{i}]")),
    )
}
