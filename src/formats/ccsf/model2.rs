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
    let p = off + 8;
    let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
    let h: crate::formats::record::Spanned<raw::ModelHead2> = read(b, p, (outline,)).map_err(plain)?;
    let head_span = h.span;
    let h = h.value;
    let (mtype, mflags) = (*h.mtype, *h.mflags);
    let mut q = head_span.end;
    let (mut lk, mut lookup_span) = (Vec::new(), None);
    if lookup {
        let n = Count::checked(b, "lookup entry", q, u64::from(*h.lookup_count), 1, 256)?;
        let l: raw::LookupList = read(b, q, (n,)).map_err(plain)?;
        lk = l.lookup.iter().map(|e| **e).collect();
        let end = q + n.get() as u64;
        let aligned = (end + 3) & !3;
        b.slice(end, aligned - end)?;
        lookup_span = Some(Span::new(q, aligned));
        q = aligned;
    }
    let facts = band::of(version);
    let wide = facts.uv_16_16;
    let tbn = *h.tbn_flag != 0;
    let max = limits.max_keys as u64;
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
    for i in 0..m.mmat_num {
        let start = q;
        let ctx = |e: ParseError| e.within(format!("mmat[{i}]"));
        let kind = body_kind(mtype);
        let (mut header, mut name, mut material, mut vn, mut en) = (raw::HeadWords::default(), 0, 0, 0u32, 0u32);
        match kind {
            Some(MmatKind::Shadow) => {}
            Some(MmatKind::TriList) => {
                let h: raw::MmatTriHead = read_at(b, q).map_err(plain).map_err(ctx)?;
                (header, material, en, q) = (h.words(), *h.material, *h.section_count, q + 8);
            }
            Some(_) => {
                let h: raw::MmatRigidHead = read_at(b, q).map_err(plain).map_err(ctx)?;
                (header, name, material, vn, q) = (h.words(), *h.name, *h.material, *h.vertex_num, q + 12);
            }
            None => {
                let h: raw::MmatDeformHead = read_at(b, q).map_err(plain).map_err(ctx)?;
                (header, material, vn, en, q) = (h.words(version), *h.material, *h.vertex_num, *h.offset_num, q + 12);
            }
        }
        let mut mm = MmatData::new(header, name, material);
        let r: Result<()> = (|| {
            // UVs: s16 pairs below 0x125, s32 16.16 pairs from it (docs/formats/ccsf-gen2.md#mmats, docs/formats/ccsf-gen2.md#where-the-readers-disagree).
            let uvs = |mm: &mut MmatData, q: &mut u64, n: usize| -> Result<()> {
                if wide {
                    let n = b.check_count("uv", *q, n as u64, 8, max)?;
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
            };
            let tangents = |mm: &mut MmatData, q: &mut u64, n: usize| -> Result<()> {
                if tbn {
                    b.check_count("tangent", *q, 2 * n as u64, 4, max)?;
                    mm.tangents_span = Some(Span::at(*q, 4 * n as u64));
                    mm.binormals_span = Some(Span::at(*q + 4 * n as u64, 4 * n as u64));
                    *q += 8 * n as u64;
                }
                Ok(())
            };
            match kind {
                Some(MmatKind::TriList) => {
                    mm.kind = MmatKind::TriList;
                    let mut t = model_data::TriList::default();
                    let n = b.check_count("triangle-list section", q, u64::from(en), 12, max)?;
                    for si in 0..n {
                        let sctx = |e: ParseError| e.within(format!("section[{si}]"));
                        q = tri_section(b, q, &mut t, max).map_err(sctx)?;
                    }
                    mm.tri = Some(t);
                }
                Some(MmatKind::Shadow) => {
                    mm.kind = MmatKind::Shadow;
                    let c: raw::ShadowCounts = read_at(b, q).map_err(plain)?;
                    let (vnum, inum) = (*c.v_num, *c.i_num);
                    mm.shadow_counts = Some(c);
                    q += 8;
                    let vc = u64::try_from(vnum).map_err(|_| wrong(q - 8, "shadow vNum", vnum, "negative"))?;
                    let ic = u64::try_from(inum).map_err(|_| wrong(q - 4, "shadow iNum", inum, "negative"))?;
                    let n = b.check_count("shadow vertex", q, vc, 6, max)?;
                    let (v, s, pad, e) = model_data::read_positions(b, q, n)?;
                    (mm.positions, mm.positions_span, mm.pad_span, q) = (v, Some(s), pad, e);
                    // every index is read (AH reads iNum indices even when vNum is 0)
                    let ni = b.check_count("shadow index", q, ic, 4, max)?;
                    let (idx, s) = model_data::read_u32s(b, q, ni)?;
                    mm.triangles = idx
                        .chunks_exact(3)
                        .filter_map(|t| <[u32; 3]>::try_from(t).ok())
                        .map(|t| t.map(|x| x as i32))
                        .collect();
                    mm.triangles_span = Some(s);
                    q += 4 * ni as u64;
                }
                Some(_) => {
                    mm.kind = MmatKind::Rigid;
                    let n = b.check_count("rigid vertex", q, u64::from(vn), 6, max)?;
                    let (v, s, pad, e) = model_data::read_positions(b, q, n)?;
                    (mm.positions, mm.positions_span, mm.pad_span, q) = (v, Some(s), pad, e);
                    let (v, s) = model_data::read_u32s(b, q, n)?;
                    (mm.normals, mm.normals_span, q) = (v, Some(s), q + 4 * n as u64);
                    if mflags & 2 == 0 {
                        let (v, s) = model_data::read_u32s(b, q, n)?;
                        (mm.colours, mm.colours_span, q) = (v, Some(s), q + 4 * n as u64);
                    }
                    if mflags & 4 == 0 {
                        uvs(&mut mm, &mut q, n)?;
                    }
                    tangents(&mut mm, &mut q, n)?;
                }
                None if en == 0 => {
                    mm.kind = MmatKind::Bone;
                    let bone: raw::BoneNode = read_at(b, q).map_err(plain)?;
                    (mm.node, q) = (Some((*bone.node, bone.node.span)), bone.node.span.end);
                    let n = b.check_count("bone vertex", q, u64::from(vn), 14, max)?;
                    let (v, s, pad, e) = model_data::read_positions(b, q, n)?;
                    (mm.positions, mm.positions_span, mm.pad_span, q) = (v, Some(s), pad, e);
                    let (v, s) = model_data::read_u32s(b, q, n)?;
                    (mm.normals, mm.normals_span, q) = (v, Some(s), q + 4 * n as u64);
                    uvs(&mut mm, &mut q, n)?;
                    tangents(&mut mm, &mut q, n)?;
                }
                None => {
                    mm.kind = MmatKind::Skin;
                    let size = facts.skin_entry_bytes;
                    let wide_entry = size == 12;
                    let n = b.check_count("skin entry", q, u64::from(en), size + 4, max)?;
                    mm.entries.reserve(n);
                    for k in 0..n as u64 {
                        let e = q + size * k;
                        let pos = [b.i16_le(e)?, b.i16_le(e + 2)?, b.i16_le(e + 4)?];
                        mm.entries.push(if wide_entry {
                            SkinEntry { pos, w: 0, wide: Some([b.i16_le(e + 6)?, b.i16_le(e + 8)?, b.i16_le(e + 10)?]) }
                        } else {
                            SkinEntry { pos, w: b.u16_le(e + 6)?, wide: None }
                        });
                    }
                    mm.positions_span = Some(Span::at(q, size * n as u64));
                    q += size * n as u64;
                    let (v, s) = model_data::read_u32s(b, q, n)?;
                    (mm.normals, mm.normals_span, q) = (v, Some(s), q + 4 * n as u64);
                    let ends = mm.entries.iter().filter(|e| e.last()).count();
                    if ends != vn as usize || mm.entries.last().is_some_and(|e| !e.last()) {
                        return Err(wrong(
                            start + 4,
                            "vertex_num",
                            vn,
                            &format!("the entries close {ends} vertices (a vertex ends at its last entry)"),
                        ));
                    }
                    let nv = b.check_count("uv", q, u64::from(vn), 4, max)?;
                    uvs(&mut mm, &mut q, nv)?;
                    if facts.skin_tangents {
                        tangents(&mut mm, &mut q, n)?;
                    }
                }
            }
            Ok(())
        })();
        r.map_err(ctx)?;
        mm.span = Span::new(start, q);
        m.mmats.push(mm);
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
