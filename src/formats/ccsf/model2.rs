//! The gen-2 Model decoder (docs/formats/ccsf-gen2.md#model-0x0800): 28-byte header,
//! lookup list, 16.16 UVs and 12-byte skin entries from 0x125, tangent arrays; where the
//! readers put a header change at different versions the chunk's own size decides
//! (docs/formats/ccsf-gen2.md#version-bands "size-driven disambiguation"). Below the
//! walker, which uses it to find a model's end when the declared end starts no chunk.

use super::band;
use super::model_data::{self, MmatData, MmatKind, ModelData, SkinEntry};
use super::raw;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{Count, read, read_at};
use crate::limits::Limits;
use crate::model::Span;

/// Dispatch of docs/formats/ccsf-gen2.md#model-0x0800.
fn body_kind(mtype: u8) -> Option<MmatKind> {
    if mtype & 2 != 0 {
        Some(MmatKind::TriList)
    } else if mtype & 4 != 0 && mtype & 2 == 0 {
        None // deformable: bone or skin by entryCount
    } else if mtype == 8 {
        Some(MmatKind::Shadow)
    } else {
        Some(MmatKind::Rigid)
    }
}

/// The band's header rules for `version` and `mtype`: (outline words, lookup list).
fn band_variant(version: u16, mtype: u8) -> (bool, bool) {
    let f = band::of(version);
    (f.model_outline, f.model_lookup && mtype & 4 != 0 && mtype & 1 == 0 && mtype & 2 == 0)
}

/// Decode a gen-2 Model chunk. The band's header is tried first; when its body does not
/// end at the chunk's declared end, the neighbouring readings (outline words and lookup
/// list toggled) are tried and the first that ends there is kept (docs/formats/ccsf-gen2.md#version-bands). With no
/// fit, the band's reading is returned (the caller reports the mismatch).
pub(in crate::formats) fn parse_model(b: &Bytes<'_>, off: u64, version: u16, limits: &Limits) -> Result<ModelData> {
    let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
    let chunk: raw::ChunkHeader = read_at(b, off).map_err(plain)?;
    let declared = off + 8 + 4 * u64::from(*chunk.size);
    let mtype = *read::<raw::ModelHead2>(b, off + 8, (false,)).map_err(plain)?.mtype;
    let (outline, lookup) = band_variant(version, mtype);
    let first = parse_body(b, off, version, outline, lookup, "band", limits);
    if matches!(&first, Ok(m) if m.end == declared) {
        return first;
    }
    let deformable = mtype & 4 != 0 && mtype & 2 == 0;
    let mut alts = vec![(!outline, lookup, if outline { "without outline words" } else { "with outline words" })];
    if deformable {
        let l = if lookup { "without lookup list" } else { "with lookup list" };
        alts.push((outline, !lookup, l));
        alts.push((
            !outline,
            !lookup,
            if lookup { "without outline words or lookup list" } else { "with outline words and lookup list" },
        ));
    }
    for (o, l, why) in alts {
        if let Ok(m) = parse_body(b, off, version, o, l, why, limits)
            && m.end == declared
        {
            return Ok(m);
        }
    }
    first
}

fn wrong(at: u64, what: &'static str, value: impl ToString, why: &str) -> ParseError {
    ParseError::new(at, ErrorKind::BadValue { what, value: value.to_string(), why: why.into() })
}

/// One reading of a gen-2 Model chunk.
fn parse_body(
    b: &Bytes<'_>,
    off: u64,
    version: u16,
    outline: bool,
    lookup: bool,
    variant: &'static str,
    limits: &Limits,
) -> Result<ModelData> {
    let h: crate::formats::record::Spanned<raw::ModelHead2> = read(b, off + 8, (outline,)).map_err(plain)?;
    let head_span = h.span;
    let h = h.value;
    let (mtype, mflags) = (*h.mtype, *h.mflags);
    let (lk, lookup_span, mut q) =
        if lookup { read_lookup(b, head_span.end, *h.lookup_count)? } else { (Vec::new(), None, head_span.end) };
    let tbn = *h.tbn_flag != 0;
    let mut m = ModelData {
        off,
        object: *h.model,
        scale: f32::from_bits(*h.vertex_scale),
        mtype_raw: u16::from(mtype) | u16::from(mflags) << 8,
        mtype: u16::from(mtype) | u16::from(mflags) << 8,
        mmat_num: *h.mmat_num,
        flag: u16::from(*h.flag_lo) | u16::from(*h.flag_hi) << 8,
        zoffs: *h.zoffs,
        unknown: *h.lookup_count,
        mmats: Vec::new(),
        end: 0,
        gen2: None,
    };
    let mmats = MmatReader { b, version, facts: band::of(version), tbn, mflags, max: limits.max_keys as u64 };
    for i in 0..m.mmat_num {
        let start = q;
        let mm = mmats.mmat(&mut q, body_kind(mtype)).map_err(|e| e.within(format!("mmat[{i}]")))?;
        m.mmats.push(MmatData { span: Span::new(start, q), ..mm });
    }
    m.end = q;
    m.gen2 = Some(model_data::ModelGen2 {
        version,
        mflags,
        tbn,
        lookup: lk,
        lookup_span,
        outline,
        has_lookup: lookup,
        variant,
        head: h,
        head_span,
    });
    Ok(m)
}

/// A record error reported at its offset alone (the record's own context dropped).
fn plain(e: ParseError) -> ParseError {
    ParseError::new(e.offset, e.kind)
}

/// The lookup list after the Model header at `q` (`count` one-byte entries, padded to a
/// word): its entries, span and the padded end.
fn read_lookup(b: &Bytes<'_>, q: u64, count: u8) -> Result<(Vec<u8>, Option<Span>, u64)> {
    let n = Count::checked(b, "lookup entry", q, u64::from(count), 1, 256)?;
    let l: raw::LookupList = read(b, q, (n,)).map_err(plain)?;
    let end = q + n.get() as u64;
    let aligned = (end + 3) & !3;
    b.slice(end, aligned - end)?;
    Ok((l.lookup.iter().map(|e| **e).collect(), Some(Span::new(q, aligned)), aligned))
}

/// Reads the mmats of one gen-2 Model chunk: the view, the band's layout facts and the
/// Model header's flags every mmat body depends on.
struct MmatReader<'a, 'b> {
    b: &'a Bytes<'b>,
    version: u16,
    facts: &'static band::BandFacts,
    /// The model has tangent and binormal arrays.
    tbn: bool,
    /// The Model header's flag byte (2: no colours, 4: no UVs on rigid mmats).
    mflags: u8,
    /// The cap on any one array's element count.
    max: u64,
}

/// The counts an mmat's head declares, which its body kind reads.
#[derive(Clone, Copy)]
struct MmatCounts {
    vertices: u32,
    entries: u32,
}

impl MmatReader<'_, '_> {
    /// One mmat at `q` (its head, then its body by `kind`); moves `q` to its end. The span
    /// is left for the caller, which knows where it started.
    fn mmat(&self, q: &mut u64, kind: Option<MmatKind>) -> Result<MmatData> {
        let start = *q;
        let (mut mm, counts) = self.head(q, kind)?;
        match kind {
            Some(MmatKind::TriList) => self.tri_list(&mut mm, q, counts)?,
            Some(MmatKind::Shadow) => self.shadow(&mut mm, q)?,
            Some(_) => self.rigid(&mut mm, q, counts)?,
            None if counts.entries == 0 => self.bone(&mut mm, q, counts)?,
            None => self.skin(&mut mm, q, start, counts)?,
        }
        Ok(mm)
    }

    /// The mmat head for `kind` at `q` (a shadow mmat has none); moves `q` past it.
    fn head(&self, q: &mut u64, kind: Option<MmatKind>) -> Result<(MmatData, MmatCounts)> {
        let b = self.b;
        let (mut header, mut name, mut material) = (raw::HeadWords::default(), 0, 0);
        let mut counts = MmatCounts { vertices: 0, entries: 0 };
        match kind {
            Some(MmatKind::Shadow) => {}
            Some(MmatKind::TriList) => {
                let h: raw::MmatTriHead = read_at(b, *q).map_err(plain)?;
                (header, material, counts.entries, *q) = (h.words(), *h.material, *h.section_count, *q + 8);
            }
            Some(_) => {
                let h: raw::MmatRigidHead = read_at(b, *q).map_err(plain)?;
                (header, name, material, counts.vertices, *q) =
                    (h.words(), *h.name, *h.material, *h.vertex_num, *q + 12);
            }
            None => {
                let h: raw::MmatDeformHead = read_at(b, *q).map_err(plain)?;
                (header, material, counts.vertices, counts.entries, *q) =
                    (h.words(self.version), *h.material, *h.vertex_num, *h.offset_num, *q + 12);
            }
        }
        Ok((MmatData::new(header, name, material), counts))
    }

    /// `n` UVs at `q`: s16 pairs below 0x125, s32 16.16 pairs from it
    /// (docs/formats/ccsf-gen2.md#mmats, docs/formats/ccsf-gen2.md#where-the-readers-disagree).
    fn uvs(&self, mm: &mut MmatData, q: &mut u64, n: usize) -> Result<()> {
        let b = self.b;
        if self.facts.uv_16_16 {
            let n = b.check_count("uv", *q, n as u64, 8, self.max)?;
            for k in 0..n as u64 {
                mm.uvs32.push([b.i32_le(*q + 8 * k)?, b.i32_le(*q + 8 * k + 4)?]);
            }
            mm.sts_span = Some(Span::at(*q, 8 * n as u64));
            *q += 8 * n as u64;
        } else {
            let (v, s) = model_data::read_u32s(b, *q, n)?;
            (mm.sts, mm.sts_span, *q) = (v, Some(s), *q + 4 * n as u64);
        }
        Ok(())
    }

    /// The tangent and binormal arrays of `n` vertices at `q`, when the model has them.
    fn tangents(&self, mm: &mut MmatData, q: &mut u64, n: usize) -> Result<()> {
        if self.tbn {
            self.b.check_count("tangent", *q, 2 * n as u64, 4, self.max)?;
            mm.tangents_span = Some(Span::at(*q, 4 * n as u64));
            mm.binormals_span = Some(Span::at(*q + 4 * n as u64, 4 * n as u64));
            *q += 8 * n as u64;
        }
        Ok(())
    }

    /// `n` vertex positions at `q` (with their padding); moves `q` past them.
    fn positions(&self, mm: &mut MmatData, q: &mut u64, n: usize) -> Result<()> {
        let (v, s, pad, e) = model_data::read_positions(self.b, *q, n)?;
        (mm.positions, mm.positions_span, mm.pad_span, *q) = (v, Some(s), pad, e);
        Ok(())
    }

    /// `n` packed normals at `q`; moves `q` past them.
    fn normals(&self, mm: &mut MmatData, q: &mut u64, n: usize) -> Result<()> {
        let (v, s) = model_data::read_u32s(self.b, *q, n)?;
        (mm.normals, mm.normals_span, *q) = (v, Some(s), *q + 4 * n as u64);
        Ok(())
    }

    /// A triangle-list body: `counts.entries` sections.
    fn tri_list(&self, mm: &mut MmatData, q: &mut u64, counts: MmatCounts) -> Result<()> {
        mm.kind = MmatKind::TriList;
        let mut t = model_data::TriList::default();
        let n = self.b.check_count("triangle-list section", *q, u64::from(counts.entries), 12, self.max)?;
        for si in 0..n {
            *q = tri_section(self.b, *q, &mut t, self.max).map_err(|e| e.within(format!("section[{si}]")))?;
        }
        mm.tri = Some(t);
        Ok(())
    }

    /// A shadow body: its own vertex and index counts, positions, then indices.
    fn shadow(&self, mm: &mut MmatData, q: &mut u64) -> Result<()> {
        let b = self.b;
        mm.kind = MmatKind::Shadow;
        let c: raw::ShadowCounts = read_at(b, *q).map_err(plain)?;
        let (vnum, inum) = (*c.v_num, *c.i_num);
        mm.shadow_counts = Some(c);
        *q += 8;
        let vc = u64::try_from(vnum).map_err(|_| wrong(*q - 8, "shadow vNum", vnum, "negative"))?;
        let ic = u64::try_from(inum).map_err(|_| wrong(*q - 4, "shadow iNum", inum, "negative"))?;
        let n = b.check_count("shadow vertex", *q, vc, 6, self.max)?;
        self.positions(mm, q, n)?;
        // every index is read (AH reads iNum indices even when vNum is 0)
        let ni = b.check_count("shadow index", *q, ic, 4, self.max)?;
        let (idx, s) = model_data::read_u32s(b, *q, ni)?;
        mm.triangles =
            idx.chunks_exact(3).filter_map(|t| <[u32; 3]>::try_from(t).ok()).map(|t| t.map(|x| x as i32)).collect();
        mm.triangles_span = Some(s);
        *q += 4 * ni as u64;
        Ok(())
    }

    /// A rigid body: positions, normals, then colours, UVs and tangents as the flags say.
    fn rigid(&self, mm: &mut MmatData, q: &mut u64, counts: MmatCounts) -> Result<()> {
        mm.kind = MmatKind::Rigid;
        let n = self.b.check_count("rigid vertex", *q, u64::from(counts.vertices), 6, self.max)?;
        self.positions(mm, q, n)?;
        self.normals(mm, q, n)?;
        if self.mflags & 2 == 0 {
            let (v, s) = model_data::read_u32s(self.b, *q, n)?;
            (mm.colours, mm.colours_span, *q) = (v, Some(s), *q + 4 * n as u64);
        }
        if self.mflags & 4 == 0 {
            self.uvs(mm, q, n)?;
        }
        self.tangents(mm, q, n)
    }

    /// A bone body (deformable, no skin entries): the node, positions, normals, UVs, tangents.
    fn bone(&self, mm: &mut MmatData, q: &mut u64, counts: MmatCounts) -> Result<()> {
        mm.kind = MmatKind::Bone;
        let bone: raw::BoneNode = read_at(self.b, *q).map_err(plain)?;
        (mm.node, *q) = (Some((*bone.node, bone.node.span)), bone.node.span.end);
        let n = self.b.check_count("bone vertex", *q, u64::from(counts.vertices), 14, self.max)?;
        self.positions(mm, q, n)?;
        self.normals(mm, q, n)?;
        self.uvs(mm, q, n)?;
        self.tangents(mm, q, n)
    }

    /// A skin body: the band's skin entries, a normal per entry, a UV per vertex (the
    /// entries must close exactly `counts.vertices` vertices), then tangents from B5.
    fn skin(&self, mm: &mut MmatData, q: &mut u64, start: u64, counts: MmatCounts) -> Result<()> {
        let (b, vn) = (self.b, counts.vertices);
        mm.kind = MmatKind::Skin;
        let size = self.facts.skin_entry_bytes;
        let wide_entry = size == 12;
        let n = b.check_count("skin entry", *q, u64::from(counts.entries), size + 4, self.max)?;
        mm.entries.reserve(n);
        for k in 0..n as u64 {
            let e = *q + size * k;
            let pos = [b.i16_le(e)?, b.i16_le(e + 2)?, b.i16_le(e + 4)?];
            mm.entries.push(if wide_entry {
                SkinEntry { pos, w: 0, wide: Some([b.i16_le(e + 6)?, b.i16_le(e + 8)?, b.i16_le(e + 10)?]) }
            } else {
                SkinEntry { pos, w: b.u16_le(e + 6)?, wide: None }
            });
        }
        mm.positions_span = Some(Span::at(*q, size * n as u64));
        *q += size * n as u64;
        self.normals(mm, q, n)?;
        let ends = mm.entries.iter().filter(|e| e.last()).count();
        if ends != vn as usize || mm.entries.last().is_some_and(|e| !e.last()) {
            return Err(wrong(
                start + 4,
                "vertex_num",
                vn,
                &format!("the entries close {ends} vertices (a vertex ends at its last entry)"),
            ));
        }
        let nv = b.check_count("uv", *q, u64::from(vn), 4, self.max)?;
        self.uvs(mm, q, nv)?;
        if self.facts.skin_tangents {
            self.tangents(mm, q, n)?;
        }
        Ok(())
    }
}

/// One triangle-list section at `q` (docs/formats/ccsf-gen2.md#mmats) into `t`; returns its padded end.
/// Element arrays are read by hand over the checked view, as every other vertex array.
fn tri_section(b: &Bytes<'_>, q: u64, t: &mut model_data::TriList, max: u64) -> Result<u64> {
    let h: raw::TriSectionHead = read_at(b, q).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let at = h.vertex_scale.span.end;
    let (ty, fl, count) = (*h.section_type, *h.section_flags, u64::from(*h.count));
    let unknown = |why: String| ParseError::new(h.section_type.span.start, ErrorKind::Unsupported(why));
    // (elements, bytes each)
    let (elems, size) = match ty {
        0 => (count, 3),
        1 => (count, 4),
        7 => (count, 1),
        8 => (count, 2),
        32 if fl == 33 => (count, 8),
        32 if fl == 34 => (count / 2 * 2, 8),
        32 => {
            return Err(unknown(format!(
                "position section flags {fl}: only 33 and 34 are known, docs/formats/ccsf-gen2.md#mmats"
            )));
        }
        33 => (1, 4),
        _ => {
            return Err(unknown(format!(
                "triangle-list section type {ty}: layout unknown (known: 0, 1, 7, 8, 32, 33; docs/formats/ccsf-gen2.md#mmats)"
            )));
        }
    };
    let n = b.check_count(raw::tri_section_name(ty), at, elems, size, max)? as u64;
    for k in 0..n {
        let e = at + size * k;
        match ty {
            0 => t.normals.push([b.u8(e)? as i8, b.u8(e + 1)? as i8, b.u8(e + 2)? as i8]),
            1 => t.uvs.push([b.i16_le(e)?, b.i16_le(e + 2)?]),
            7 => t.flags.push(b.u8(e)?),
            8 => t.indices.push(b.u16_le(e)?),
            32 => t.positions.push(([b.i16_le(e)?, b.i16_le(e + 2)?, b.i16_le(e + 4)?], b.u16_le(e + 6)?)),
            _ => t.clump = Some(b.u32_le(e)?),
        }
    }
    let end = at + size * n;
    let aligned = (end + 3) & !3;
    b.slice(end, aligned - end)?;
    t.sections.push(model_data::TriSection {
        head: h,
        payload: Span::new(at, end),
        pad: (aligned > end).then(|| Span::new(end, aligned)),
    });
    Ok(aligned)
}
