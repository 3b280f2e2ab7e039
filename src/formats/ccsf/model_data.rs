//! Model chunks (0x0800, docs/formats/ccsf.md#model-0x0800) as stored: the decoded model
//! with spans for every array (both generations' shapes) and the generation-1 decoder.
//! Below `gen2.rs` (the gen-2 decoder fills the same shapes) and `mesh.rs` (which picks
//! the decoder by version and turns models into meshes).

use super::raw;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::read_at;
use crate::limits::Limits;
use crate::model::Span;

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
    pub gen2: Option<ModelGen2>,
}

impl ModelData {
    /// The heap bytes the decoded model holds (what keeping it costs the document's
    /// budget): its arrays at their capacities.
    pub fn heap_bytes(&self) -> u64 {
        fn v<T>(x: &Vec<T>) -> u64 {
            (x.capacity() * std::mem::size_of::<T>()) as u64
        }
        let mmats: u64 = self
            .mmats
            .iter()
            .map(|m| {
                let tri = m.tri.as_ref().map_or(0, |t| {
                    v(&t.sections) + v(&t.positions) + v(&t.normals) + v(&t.uvs) + v(&t.flags) + v(&t.indices)
                });
                v(&m.positions)
                    + v(&m.entries)
                    + v(&m.normals)
                    + v(&m.colours)
                    + v(&m.sts)
                    + v(&m.triangles)
                    + v(&m.uvs32)
                    + tri
            })
            .sum();
        v(&self.mmats) + mmats + self.gen2.as_ref().map_or(0, |g| v(&g.lookup))
    }
}

/// What a gen-2 Model header adds, and which header variant its body fitted.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct ModelGen2 {
    pub version: u16,
    pub head: raw::ModelHead2,
    pub head_span: Span,
    pub mflags: u8,
    pub tbn: bool,
    pub lookup: Vec<u8>,
    pub lookup_span: Option<Span>,
    /// Outline words read (B1+ or the body fit).
    pub outline: bool,
    /// Lookup list read.
    pub has_lookup: bool,
    /// The variant the body fitted (`band` or what was changed to fit the size).
    pub variant: &'static str,
}

/// mtype bit 0x2 without 0x4: the game's rigid decoder deliberately crashes on it.
pub(in crate::formats) fn rigid_bit2_error(at: u64, mtype: u16) -> ParseError {
    ParseError::new(
        at,
        ErrorKind::BadValue {
            what: "mtype",
            value: format!("0x{mtype:x}"),
            why: "bit 0x2 without 0x4 is a deliberate crash in the game's rigid decoder".into(),
        },
    )
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

/// Decode the generation-1 Model chunk at `off` (whole-file view `b`), following the
/// decoders' reads; [`super::mesh::parse_model`] picks it by version.
pub(in crate::formats) fn parse_model1(b: &Bytes<'_>, off: u64, version: u16, limits: &Limits) -> Result<ModelData> {
    parse_model1_keeping(b, off, version, limits, true)
}

/// [`parse_model1`] for the strict check, which reads no mmat head word, vertex colour or
/// texture coordinate: those are checked to be in the chunk as the decoder reads them
/// (the same errors), not kept. Everything else is as [`parse_model1`] decodes it.
pub(in crate::formats) fn parse_model1_checked(
    b: &Bytes<'_>,
    off: u64,
    version: u16,
    limits: &Limits,
) -> Result<ModelData> {
    parse_model1_keeping(b, off, version, limits, false)
}

/// `n` words at `at` as [`read_u32s`] reads them, kept only with `keep` (else an empty
/// array: the words are only checked to be there, with the error `read_u32s` gives).
fn u32s_kept(b: &Bytes<'_>, at: u64, n: usize, keep: bool) -> Result<(Vec<u32>, Span)> {
    if !keep && b.slice(at, 4 * n as u64).is_ok() {
        return Ok((Vec::new(), Span::at(at, 4 * n as u64)));
    }
    read_u32s(b, at, n)
}

/// [`parse_model1`] with `keep`, [`parse_model1_checked`] without.
fn parse_model1_keeping(b: &Bytes<'_>, off: u64, version: u16, limits: &Limits, keep: bool) -> Result<ModelData> {
    let p = off + 8;
    let h: raw::ModelHead = read_at(b, p).map_err(plain)?;
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
    let reader = Mmat1Reader { b, version, mtype, max: limits.max_keys as u64, keep };
    for i in 0..m.mmat_num {
        let start = q;
        let mut mm = reader.mmat(&mut q).map_err(|e| e.within(format!("mmat[{i}]")))?;
        mm.span = Span::new(start, q);
        m.mmats.push(mm);
    }
    m.end = q;
    Ok(m)
}

/// A record error reported at its offset alone (the record's own context dropped).
fn plain(e: ParseError) -> ParseError {
    ParseError::new(e.offset, e.kind)
}

/// Reads the mmats of one gen-1 Model chunk: every mmat's layout follows the model's
/// `mtype`. Without `keep`, head words, colours and texture coordinates are only checked
/// to be there ([`parse_model1_checked`]).
struct Mmat1Reader<'a, 'b> {
    b: &'a Bytes<'b>,
    version: u16,
    mtype: u16,
    /// The cap on any one array's element count.
    max: u64,
    keep: bool,
}

impl Mmat1Reader<'_, '_> {
    /// One mmat at `q` (its head, then its body by the model's `mtype`); moves `q` to its
    /// end. The span is left for the caller.
    fn mmat(&self, q: &mut u64) -> Result<MmatData> {
        let (mut mm, vn, on) = self.head(q)?;
        let mtype = self.mtype;
        if mtype & 4 != 0 {
            if on > 0 { self.skin(&mut mm, q, on)? } else { self.bone(&mut mm, q, vn)? }
        } else if mtype & 2 != 0 {
            return Err(rigid_bit2_error(*q, mtype));
        } else if mtype & 8 != 0 {
            self.shadow(&mut mm, q)?;
        } else {
            self.rigid(&mut mm, q, vn)?;
        }
        Ok(mm)
    }

    /// The mmat head the model's `mtype` gives (a shadow mmat has none): the mmat with its
    /// head words, its vertex count and skin entry count; moves `q` past it.
    fn head(&self, q: &mut u64) -> Result<(MmatData, u32, u32)> {
        let (b, keep, mtype) = (self.b, self.keep, self.mtype);
        let (mut header, mut name, mut material, mut vn, mut on) = (raw::HeadWords::default(), 0, 0, 0u32, 0u32);
        if mtype & 2 != 0 {
            let h: raw::MmatHead5 = read_at(b, *q).map_err(plain)?;
            let words = if keep { h.words() } else { raw::HeadWords::default() };
            (header, name, material, vn, on, *q) =
                (words, *h.name, *h.material, *h.vertex_num, *h.offset_num, h.offset_num.span.end);
        } else if mtype & 4 != 0 {
            let h: raw::MmatDeformHead = read_at(b, *q).map_err(plain)?;
            let words = if keep { h.words(self.version) } else { raw::HeadWords::default() };
            (header, material, vn, on, *q) = (words, *h.material, *h.vertex_num, *h.offset_num, *q + 12);
        } else if mtype & 8 == 0 {
            let h: raw::MmatRigidHead = read_at(b, *q).map_err(plain)?;
            let words = if keep { h.words() } else { raw::HeadWords::default() };
            (header, name, material, vn, *q) = (words, *h.name, *h.material, *h.vertex_num, *q + 12);
        }
        Ok((MmatData::new(header, name, material), vn, on))
    }

    /// A skin body: `on` 8-byte entries, a normal per entry, an S,T word per vertex.
    fn skin(&self, mm: &mut MmatData, q: &mut u64, on: u32) -> Result<()> {
        let b = self.b;
        mm.kind = MmatKind::Skin;
        let n = b.check_count("skin entry", *q, u64::from(on), 12, self.max)?;
        mm.entries.reserve(n);
        for k in 0..n as u64 {
            let e = *q + 8 * k;
            mm.entries.push(SkinEntry {
                pos: [b.i16_le(e)?, b.i16_le(e + 2)?, b.i16_le(e + 4)?],
                w: b.u16_le(e + 6)?,
                wide: None,
            });
        }
        mm.positions_span = Some(Span::at(*q, 8 * n as u64));
        *q += 8 * n as u64;
        let (v, s) = read_u32s(b, *q, n)?;
        (mm.normals, mm.normals_span) = (v, Some(s));
        *q += 4 * n as u64;
        let ends = mm.entries.iter().filter(|e| e.last()).count();
        let (v, s) = u32s_kept(b, *q, ends, self.keep)?;
        (mm.sts, mm.sts_span) = (v, Some(s));
        *q += 4 * ends as u64;
        Ok(())
    }

    /// A bone body: the node, `vn` positions, normals and S,T words.
    fn bone(&self, mm: &mut MmatData, q: &mut u64, vn: u32) -> Result<()> {
        let b = self.b;
        mm.kind = MmatKind::Bone;
        let bone: raw::BoneNode = read_at(b, *q).map_err(plain)?;
        (mm.node, *q) = (Some((*bone.node, bone.node.span)), bone.node.span.end);
        let n = b.check_count("bone vertex", *q, u64::from(vn), 14, self.max)?;
        let (v, s, pad, e) = read_positions(b, *q, n)?;
        (mm.positions, mm.positions_span, mm.pad_span, *q) = (v, Some(s), pad, e);
        let (v, s) = read_u32s(b, *q, n)?;
        (mm.normals, mm.normals_span, *q) = (v, Some(s), *q + 4 * n as u64);
        let (v, s) = u32s_kept(b, *q, n, self.keep)?;
        (mm.sts, mm.sts_span, *q) = (v, Some(s), *q + 4 * n as u64);
        Ok(())
    }

    /// A shadow body: its counts, then (when it has vertices) positions and triangles.
    fn shadow(&self, mm: &mut MmatData, q: &mut u64) -> Result<()> {
        let b = self.b;
        mm.kind = MmatKind::Shadow;
        let c: raw::ShadowCounts = read_at(b, *q).map_err(plain)?;
        let (vnum, inum) = (*c.v_num, *c.i_num);
        mm.shadow_counts = Some(c);
        *q += 8;
        if vnum == 0 {
            return Ok(());
        }
        let negative = |at: u64, what: &'static str, value: i32| {
            ParseError::new(at, ErrorKind::BadValue { what, value: value.to_string(), why: "negative".into() })
        };
        let vcount = u64::try_from(vnum).map_err(|_| negative(*q - 8, "shadow vNum", vnum))?;
        let tcount = u64::try_from(inum / 3).map_err(|_| negative(*q - 4, "shadow iNum", inum))?;
        let n = b.check_count("shadow vertex", *q, vcount, 6, self.max)?;
        let (v, s, pad, e) = read_positions(b, *q, n)?;
        (mm.positions, mm.positions_span, mm.pad_span, *q) = (v, Some(s), pad, e);
        let t = b.check_count("shadow triangle", *q, tcount, 12, self.max)?;
        mm.triangles.reserve(t);
        for k in 0..t as u64 {
            let e = *q + 12 * k;
            mm.triangles.push([b.i32_le(e)?, b.i32_le(e + 4)?, b.i32_le(e + 8)?]);
        }
        mm.triangles_span = Some(Span::at(*q, 12 * t as u64));
        *q += 12 * t as u64;
        Ok(())
    }

    /// A rigid body: `vn` positions, then normals, colours and S,T words unless the
    /// model's `mtype` leaves them out (0x40, 0x200, 0x400).
    fn rigid(&self, mm: &mut MmatData, q: &mut u64, vn: u32) -> Result<()> {
        let (b, mtype) = (self.b, self.mtype);
        mm.kind = MmatKind::Rigid;
        let n = b.check_count("rigid vertex", *q, u64::from(vn), 6, self.max)?;
        let (v, s, pad, e) = read_positions(b, *q, n)?;
        (mm.positions, mm.positions_span, mm.pad_span, *q) = (v, Some(s), pad, e);
        if mtype & 0x40 == 0 {
            let (v, s) = read_u32s(b, *q, n)?;
            (mm.normals, mm.normals_span, *q) = (v, Some(s), *q + 4 * n as u64);
        }
        if mtype & 0x200 == 0 {
            let (v, s) = u32s_kept(b, *q, n, self.keep)?;
            (mm.colours, mm.colours_span, *q) = (v, Some(s), *q + 4 * n as u64);
        }
        if mtype & 0x400 == 0 {
            let (v, s) = u32s_kept(b, *q, n, self.keep)?;
            (mm.sts, mm.sts_span, *q) = (v, Some(s), *q + 4 * n as u64);
        }
        Ok(())
    }
}

/// What the strict check counts of one mmat: its kind, vertices and triangles (the kind is
/// an `Option` only so the inline list has a default: every counted mmat has one).
pub(in crate::formats) type MmatCount = (Option<MmatKind>, u64, u64);

/// The mmats of a model the strict check counts: a model of more goes the full way.
pub(in crate::formats) type MmatCounts = crate::formats::inline::Inline<MmatCount, 16>;

/// The strict check's counts of a clean generation-1 model at `off` without decoding it
/// (a survey checks every member's models, and building each model's arrays to count them
/// cost more than the rest of its check): the end [`parse_model1_checked`] reaches and
/// each mmat's kind, vertices and triangles as the stored-array check counts them.
///
/// Only the plain case is taken: rigid, bone and shadow mmats that decode, every position
/// finite at the model's scale, shadow indices in range, every strip opening with two
/// flag-1 vertices. Anything else (a skin mmat, a read past the end, a count too large, a
/// value that would be a finding, more than 16 mmats) gives `None`, and the model goes the
/// full way, whose errors and findings are the ones reported. Words are read from the bytes
/// the declared records span (`raw::ModelHead`, the mmat heads, `raw::ShadowCounts`); a
/// test holds every count to the full decode.
pub(in crate::formats) fn clean_model1_counts(
    b: &Bytes<'_>,
    off: u64,
    version: u16,
    limits: &Limits,
) -> Option<(u64, MmatCounts)> {
    let u32_at = |at: u64| b.u32_le(at).ok();
    let p = off + 8;
    // raw::ModelHead: model, vertex_scale, mtype, mmat_num, flag, zoffs, unknown, pad (20 bytes)
    let head = b.slice(p, 20).ok()?;
    let &[_, _, _, _, s0, s1, s2, s3, t0, t1, n0, n1] = head.first_chunk::<12>()?;
    let unit = f32::from_bits(u32::from_le_bytes([s0, s1, s2, s3])) / 4096.0;
    let mtype = raw::mtype_at(u16::from_le_bytes([t0, t1]), version);
    let mmat_num = u16::from_le_bytes([n0, n1]);
    let counter = CleanCounter { b, unit, mtype, max: limits.max_keys as u64 };
    let mut q = p + 20;
    let mut counts = MmatCounts::default();
    for _ in 0..mmat_num {
        if mtype & 2 != 0 {
            return None; // the 5-word head: a decode error unless deformable (gen 2's)
        }
        let (mut vn, mut on) = (0u32, 0u32);
        if mtype & 4 != 0 {
            // raw::MmatDeformHead: material, vertex_num, offset_num
            b.slice(q, 12).ok()?;
            (vn, on, q) = (u32_at(q + 4)?, u32_at(q + 8)?, q + 12);
        } else if mtype & 8 == 0 {
            // raw::MmatRigidHead: name, material, vertex_num
            b.slice(q, 12).ok()?;
            (vn, q) = (u32_at(q + 8)?, q + 12);
        }
        let count = if mtype & 4 != 0 {
            if on > 0 {
                return None; // a skin: its meshes are built and posed
            }
            counter.bone(&mut q, vn)?
        } else if mtype & 8 != 0 {
            counter.shadow(&mut q)?
        } else {
            counter.rigid(&mut q, vn)?
        };
        if !counts.push(count) {
            return None;
        }
    }
    Some((q, counts))
}

/// Counts the bodies of one clean gen-1 model for [`clean_model1_counts`]: each method
/// reads one body at `q`, moves `q` past it, and gives `None` for anything not plain.
struct CleanCounter<'a, 'b> {
    b: &'a Bytes<'b>,
    /// The size of one position step (the model's scale / 4096).
    unit: f32,
    mtype: u16,
    /// The cap on any one array's element count.
    max: u64,
}

impl CleanCounter<'_, '_> {
    /// Positions at `q` (n of them, then the pad to 4); their padded end. None when one is
    /// not finite at the model's scale, as the stored-array check reads them.
    fn positions(&self, q: u64, n: usize) -> Option<u64> {
        let b = self.b;
        let bytes = b.slice(q, 6 * n as u64).ok()?;
        for w in bytes.chunks_exact(6) {
            let [x0, x1, y0, y1, z0, z1] = w.try_into().ok()?;
            let v = glam::Vec3::new(
                f32::from(i16::from_le_bytes([x0, x1])),
                f32::from(i16::from_le_bytes([y0, y1])),
                f32::from(i16::from_le_bytes([z0, z1])),
            ) * self.unit;
            if !v.is_finite() {
                return None;
            }
        }
        let end = q + 6 * n as u64;
        let aligned = align4(end);
        b.slice(end, aligned - end).ok()?;
        Some(aligned)
    }

    /// A bone body: the node word, `vn` positions, normals (counted as strips), S,T words.
    fn bone(&self, q: &mut u64, vn: u32) -> Option<MmatCount> {
        let b = self.b;
        // raw::BoneNode
        b.u32_le(*q).ok()?;
        *q += 4;
        let n = b.check_count("bone vertex", *q, u64::from(vn), 14, self.max).ok()?;
        *q = self.positions(*q, n)?;
        let triangles = strip_count(b.slice(*q, 4 * n as u64).ok()?)?;
        *q += 4 * n as u64;
        b.slice(*q, 4 * n as u64).ok()?;
        *q += 4 * n as u64;
        Some((Some(MmatKind::Bone), n as u64, triangles))
    }

    /// A shadow body: its counts, then positions and triangles whose indices are in range.
    fn shadow(&self, q: &mut u64) -> Option<MmatCount> {
        let b = self.b;
        // raw::ShadowCounts
        let (vnum, inum) = (b.i32_le(*q).ok()?, b.i32_le(*q + 4).ok()?);
        *q += 8;
        if vnum == 0 {
            return Some((Some(MmatKind::Shadow), 0, 0));
        }
        let vcount = u64::try_from(vnum).ok()?;
        let tcount = u64::try_from(inum / 3).ok()?;
        let n = b.check_count("shadow vertex", *q, vcount, 6, self.max).ok()?;
        *q = self.positions(*q, n)?;
        let t = b.check_count("shadow triangle", *q, tcount, 12, self.max).ok()?;
        let tris = b.slice(*q, 12 * t as u64).ok()?;
        // an index outside the vertices is the decode's error
        for w in tris.chunks_exact(4) {
            let i = i64::from(i32::from_le_bytes(w.try_into().ok()?));
            if i < 0 || i >= n as i64 {
                return None;
            }
        }
        *q += 12 * t as u64;
        Some((Some(MmatKind::Shadow), n as u64, t as u64))
    }

    /// A rigid body: `vn` positions, then normals (counted as strips), colours and S,T
    /// words unless the model's `mtype` leaves them out.
    fn rigid(&self, q: &mut u64, vn: u32) -> Option<MmatCount> {
        let b = self.b;
        let n = b.check_count("rigid vertex", *q, u64::from(vn), 6, self.max).ok()?;
        *q = self.positions(*q, n)?;
        let mut triangles = 0;
        if self.mtype & 0x40 == 0 {
            triangles = strip_count(b.slice(*q, 4 * n as u64).ok()?)?;
            *q += 4 * n as u64;
        }
        for bit in [0x200, 0x400] {
            if self.mtype & bit == 0 {
                b.slice(*q, 4 * n as u64).ok()?;
                *q += 4 * n as u64;
            }
        }
        Some((Some(MmatKind::Rigid), n as u64, triangles))
    }
}

/// The triangles of the strip flags in `words` (each normal word's top byte): None when a
/// strip does not open with flags 1,1 (the check's finding).
fn strip_count(words: &[u8]) -> Option<u64> {
    let flag = |i: usize| words.get(4 * i + 3).copied();
    let n = words.len() / 4;
    let mut triangles = 0u64;
    for i in 0..n {
        let f = flag(i)?;
        if f == 0 {
            triangles += u64::from(i >= 2);
            continue;
        }
        let opens = i == 0 || flag(i - 1) == Some(0);
        if opens && flag(i + 1).is_none_or(|x| x == 0) {
            return None;
        }
    }
    Some(triangles)
}
