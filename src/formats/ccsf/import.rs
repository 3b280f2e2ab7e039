//! Clip import for gen-1 Anime chunks (docs/formats/ccsf.md#import): posed world matrices
//! of the file's Obj hierarchy back to object controllers (0x0102) and the Anime chunk
//! re-encoded with its sizes.
//!
//! Each imported object the Anime drives (an object controller's object, through ExtObj
//! targets) or could drive gets its local matrix per frame: its parent's world (the
//! import's, or as the written clip will pose it) inverted, times the import's; the parent
//! is the one posing uses (a driving ExtObj copy's own parent, else the Obj's). A local
//! within half a rotation key step (½ × 1/65536 turn) and 10⁻⁵ (relative) in position and
//! scale of the stored one at every frame keeps its record byte for byte, so an unedited
//! clip comes back as it was. Otherwise the object's last controller is rewritten with a
//! key on every frame for position, rotation (XYZ Euler degrees, chosen so the engine's
//! truncation to 1/65536 turn lands on the nearest step) and scale, its transparency kept as
//! stored; an object without a controller gets a new one at the end of the records under
//! `Top 0`. The sub-stream's `words` and the chunk's size follow the new records; nothing
//! else in the file holds an offset (docs/formats/ccsf.md#file-structure).
//!
//! Later generations (0x110 and up) keep gen 1's Anime container and object controller
//! fields (docs/formats/ccsf-gen2.md#anime-and-frame-records) and are imported the same way:
//! a rewritten controller keys its rotation as Euler degrees (k = 2), the form the
//! later-generation sample uses, also where the stored one held keyed quaternions (k = 4,
//! whose sign convention is open; a note says so). Camera and morph controllers and every
//! other record are kept byte for byte.
//!
//! Refused: the frame section, and an edited object that F_Obj records inside the Anime
//! also pose.
//!
//! Unknown: whether the game's exporter keyed every frame (its key placement is not known).

use super::anime::{self, CtrlRecord, CtrlValue, euler_xyz_deg, rot_xyz};
use super::clip::{anime_locals, anime_scene, bones_of, find_anime_chunk};
use super::parse::Parsed;
use super::pose::{ObjMap, SceneObjs};
use super::raw;
use super::walk::Section;
use crate::bytes::Bytes;
use crate::error::Result;
use crate::formats::import::{match_bones, refused};
use crate::formats::parsed::AnimHandle;
use crate::formats::record;
use crate::formats::{AnimRef, ChannelFit, Imported, KeyRule, PoseImport};
use crate::limits::Limits;
use glam::{Mat3, Mat4, Quat, Vec3};

/// An object's local (position, rotation, scale) at one frame.
type Trs = (Vec3, Mat3, Vec3);

/// Half a rotation key step (1/65536 turn), radians: a rotation this close keeps its record.
const HALF_STEP: f32 = std::f32::consts::PI / 65536.0;

/// Re-encode the Anime `anim` of the CCSF file `data` from `poses`.
pub(in crate::formats) fn import_clip(
    data: &[u8],
    p: &Parsed,
    scene: &SceneObjs,
    anim: &AnimRef,
    poses: &PoseImport,
    limits: &Limits,
) -> Result<Imported> {
    let version = p.walk.version;
    let c = match anim.handle() {
        AnimHandle::Chunk(at) => p
            .walk
            .chunks
            .iter()
            .find(|c| c.off == *at && c.kind == 0x0700 && c.section == Section::Setup)
            .ok_or_else(|| refused(*at, format!("no Anime chunk at 0x{at:x}")))?,
        AnimHandle::Frames => return Err(refused(0, "the frame section is not an Anime; it cannot be imported")),
        _ => {
            let name = anim.key().strip_prefix("anime:").unwrap_or(anim.key());
            if anim.key() == "frames" {
                return Err(refused(0, "the frame section is not an Anime; it cannot be imported"));
            }
            find_anime_chunk(data, p, name)?
        }
    };
    let a = anime_scene(data, p, c, limits)?;
    // the sub-records as stored (anime_scene has walked them once: they parse)
    let walked = anime::parse_anime(&Bytes::new(data), c.off, c.end, version, limits)?;
    let path = format!("Anime[{}]", p.index.name(a.object));
    let depth = limits.max_depth;
    let mut targets = Vec::new();
    for (k, r) in &a.ctrls {
        if *k == 0x0102 {
            targets.push(scene.resolve(r.object, depth)?);
        }
    }
    let (ids, names, _) = bones_of(scene, p, &targets);
    let n = a.frames.max(1) as usize;
    if poses.frames.len() != n {
        return Err(refused(
            c.off,
            format!(
                "{path}: the import has {} frames, the Anime {n} (changing an Anime's length is not supported)",
                poses.frames.len()
            ),
        ));
    }
    let (col, unknown) = match_bones(&names, &poses.bones);
    if !unknown.is_empty() {
        return Err(refused(c.off, format!("{path}: objects the scene lacks: {}", unknown.join(", "))));
    }
    // the stored locals and the import's worlds per frame, and the new locals: charged first
    let cells = (n as u64).saturating_mul(ids.len() as u64).saturating_mul(3 * 64);
    limits.spend_clip("the imported locals", cells, c.off)?;
    Limits::check("anime import work", cells / 64, limits.max_decode_work, c.off)?;
    let mut stored: Vec<(ObjMap<Mat4>, ObjMap<u32>)> = Vec::with_capacity(n);
    for f in 0..n {
        let frame = u32::try_from(f).unwrap_or(u32::MAX);
        stored.push(anime_locals(&a, scene, frame, depth)?);
    }
    // the parent posing uses for `o` at frame `f` (resolved), 0 for none
    let parent_of = |o: u32, f: usize| -> Result<u32> {
        let over = stored.get(f).and_then(|(_, pars)| pars.get(&o)).copied();
        let par = over.unwrap_or_else(|| scene.stored_parent(o));
        if par == 0 { Ok(0) } else { scene.resolve(par, depth) }
    };
    // imported objects, parents first (so a parent's new local is in place for its child)
    let depth_of = |o: u32| -> Result<usize> {
        let (mut d, mut cur) = (0usize, o);
        while cur != 0 && d <= depth {
            cur = parent_of(cur, 0)?;
            d += 1;
        }
        Ok(d)
    };
    let mut order: Vec<(usize, usize, u32)> = Vec::new();
    for (i, &o) in ids.iter().enumerate() {
        if let Some(j) = col.get(i).copied().flatten() {
            order.push((depth_of(o)?, j, o));
        }
    }
    order.sort_by_key(|(d, _, _)| *d);
    let rest = |o: u32| scene.rest.get(&o).copied().unwrap_or(Mat4::IDENTITY);
    let mut locals: Vec<ObjMap<Mat4>> = stored.iter().map(|(l, _)| l.clone()).collect();
    // per imported object: its new (pos, rot, scale) per frame, when it changed
    let mut changed: Vec<(u32, Vec<Trs>)> = Vec::new();
    let mut fits: Vec<ChannelFit> = Vec::new();
    for &(_, j, o) in &order {
        let name = p.index.name(o);
        let mut trs = Vec::with_capacity(n);
        let mut same = true;
        for f in 0..n {
            let Some(m) = poses.frames.get(f).and_then(|row| row.get(j)).copied() else { continue };
            if !m.is_finite() {
                return Err(refused(c.off, format!("{path}: frame {f} object {name}: non-finite matrix")));
            }
            let par = parent_of(o, f)?;
            let parent_world = if par == 0 {
                Mat4::IDENTITY
            } else {
                let pars = stored.get(f).map(|(_, p)| p.clone()).unwrap_or_default();
                let here = locals.get(f).cloned().unwrap_or_default();
                scene.worlds(&here, &pars, depth)?.get(&par).copied().unwrap_or(Mat4::IDENTITY)
            };
            let local = parent_world.inverse() * m;
            let (s, q, t) = local.to_scale_rotation_translation();
            let old = stored.get(f).and_then(|(l, _)| l.get(&o).copied()).unwrap_or_else(|| rest(o));
            let (os, oq, ot) = old.to_scale_rotation_translation();
            let scale = 1.0 + parent_world.w_axis.truncate().length() + m.w_axis.truncate().length();
            if (t - ot).length() > 1e-5 * scale
                || (s - os).abs().max_element() > 1e-5 * (1.0 + os.abs().max_element())
                || angle(q, oq) > HALF_STEP
            {
                same = false;
            }
            trs.push((t, Mat3::from_quat(q), s));
            if let Some(l) = locals.get_mut(f) {
                l.insert(o, local);
            }
        }
        if !same {
            if a.fobjs.iter().any(|(_, fo)| scene.resolve(fo.object, depth).ok() == Some(o)) {
                return Err(refused(
                    c.off,
                    format!("{path}: {name} is also posed by F_Obj records inside the Anime; they are not rewritten"),
                ));
            }
            changed.push((o, trs));
        }
    }
    let mut notes = Vec::new();
    if matches!(poses.keys, KeyRule::Fit(_)) {
        notes.push(format!("{path}: CCSF gets a key on every frame (fitting is not done for this format)"));
    }
    // the new records: (end offset of the controller record replaced, or None for a new
    // one; its bytes)
    let mut replaced: Vec<(Option<u64>, Vec<u8>)> = Vec::new();
    for (o, trs) in &changed {
        let name = p.index.name(*o);
        // the controller posing uses for this object: the last one driving it
        let last = a.ctrls.iter().rev().find(|(k, r)| *k == 0x0102 && scene.resolve(r.object, depth).ok() == Some(*o));
        let (object, alpha, tag) = match last {
            Some((_, r)) => {
                let tag = walked.records.iter().find(|s| s.end == r.end).map_or(0xcccc, |s| s.tag);
                (r.object, alpha_of(r), tag)
            }
            None => (*o, Field::Absent, 0xcccc),
        };
        let quaternions = last.is_some_and(|(_, r)| r.fields.iter().any(|f| f.name == "rotation" && f.k == 4));
        if quaternions {
            notes.push(format!(
                "{path}: {name}'s keyed-quaternion rotation (k = 4) is written as Euler keys (k = 2), the form \
                 the later-generation sample uses"
            ));
        }
        let (words, dev_r) = object_record(object, trs, alpha);
        let mut bytes = Vec::with_capacity(8 + 4 * words.len());
        let size = u32::try_from(words.len()).map_err(|_| refused(c.off, "record too large"))?;
        record::write(&raw::ChunkHeader::new(0x0102, tag, size), &mut bytes)
            .map_err(|e| refused(c.off, format!("{path}: {e}")))?;
        for w in &words {
            bytes.extend(w.to_le_bytes());
        }
        // positions and scales are stored as the f32s they are
        fits.push(ChannelFit { name: format!("{name}.position"), keys: trs.len(), deviation: 0.0, unit: "units" });
        fits.push(ChannelFit { name: format!("{name}.rotation"), keys: trs.len(), deviation: dev_r, unit: "°" });
        fits.push(ChannelFit { name: format!("{name}.scale"), keys: trs.len(), deviation: 0.0, unit: "×" });
        replaced.push((last.map(|(_, r)| r.end), bytes));
    }
    let bytes = rebuild(data, c, &walked.records, &replaced, limits)?;
    Ok(Imported { bytes, channels: fits, notes })
}

/// The angle between two rotations, radians.
fn angle(a: Quat, b: Quat) -> f32 {
    crate::formats::rotation_between(a, b) as f32
}

/// A controller field's stored value, to copy.
enum Field {
    Absent,
    Const(Vec<u32>),
    Keys(Vec<(u32, Vec<u32>)>),
}

fn alpha_of(r: &CtrlRecord) -> Field {
    match r.fields.iter().find(|f| f.name == "transparency").map(|f| &f.value) {
        Some(CtrlValue::Const(w)) => Field::Const(w.iter().copied().collect()),
        Some(CtrlValue::Keys(k)) => Field::Keys(k.iter().map(|(f, w, _)| (*f, w.iter().copied().collect())).collect()),
        _ => Field::Absent,
    }
}

/// Degrees whose truncation to 1/65536 turn (docs/formats/ccsf.md#evaluation, the engine's
/// `trunc(deg × 182.044)`) is the step nearest `rad`: the middle of that step's interval.
fn key_degrees(rad: f32) -> f32 {
    let steps = (f64::from(rad) * 32768.0 / std::f64::consts::PI).round() as i64;
    let n = i64::from(steps as i16);
    if n == 0 {
        return 0.0;
    }
    let half = if n > 0 { 0.5 } else { -0.5 };
    ((n as f64 + half) / 182.044) as f32
}

/// An object controller's words (after its 8-byte header): object, flags, keyed position,
/// rotation and scale on every frame, transparency as stored; and the largest rotation
/// difference (degrees) between the quantised keys the engine evaluates and `trs`.
fn object_record(object: u32, trs: &[Trs], alpha: Field) -> (Vec<u32>, f64) {
    let k_alpha = match alpha {
        Field::Absent => 0,
        Field::Const(_) => 1,
        Field::Keys(_) => 2,
    };
    let flags = 2 | 2 << 3 | 2 << 6 | k_alpha << 9;
    let mut w = vec![object, flags];
    let n = u32::try_from(trs.len()).unwrap_or(u32::MAX);
    let mut dev_r = 0.0f64;
    w.push(n);
    for (f, (t, _, _)) in trs.iter().enumerate() {
        w.push(f as u32);
        w.extend(t.to_array().map(f32::to_bits));
    }
    w.push(n);
    for (f, (_, r, _)) in trs.iter().enumerate() {
        let e = euler_xyz_deg(r) * (std::f32::consts::PI / 180.0);
        let d = Vec3::new(key_degrees(e.x), key_degrees(e.y), key_degrees(e.z));
        let got = rot_xyz(Vec3::new(anime::quantise_deg(d.x), anime::quantise_deg(d.y), anime::quantise_deg(d.z)));
        dev_r = dev_r.max(angle(Quat::from_mat3(&got), Quat::from_mat3(r)).to_degrees() as f64);
        w.push(f as u32);
        w.extend(d.to_array().map(f32::to_bits));
    }
    w.push(n);
    for (f, (_, _, s)) in trs.iter().enumerate() {
        w.push(f as u32);
        w.extend(s.to_array().map(f32::to_bits));
    }
    match alpha {
        Field::Absent => {}
        Field::Const(v) => w.extend(v),
        Field::Keys(k) => {
            w.push(u32::try_from(k.len()).unwrap_or(u32::MAX));
            for (f, v) in k {
                w.push(f);
                w.extend(v);
            }
        }
    }
    (w, dev_r)
}

/// The file with the Anime chunk `c` rebuilt: its records in order, each replaced
/// controller's bytes swapped in, new controllers at the end of Top 0's records,
/// the sub-stream's `words` and the chunk's size moved by the difference.
fn rebuild(
    data: &[u8],
    c: &super::walk::ChunkRef,
    records: &[anime::SubRecord],
    replaced: &[(Option<u64>, Vec<u8>)],
    limits: &Limits,
) -> Result<Vec<u8>> {
    let b = Bytes::new(data);
    let slice = |from: u64, to: u64| -> Result<&[u8]> {
        data.get(from as usize..to as usize).ok_or_else(|| refused(from, "a record past the data"))
    };
    let mut sub: Vec<u8> = Vec::new();
    let mut tops = 0usize;
    let mut added = false;
    let fresh: Vec<&Vec<u8>> = replaced.iter().filter(|(i, _)| i.is_none()).map(|(_, b)| b).collect();
    for r in records {
        if r.kind == 0xff01 {
            tops += 1;
            if tops == 2 && !added {
                for f in &fresh {
                    sub.extend_from_slice(f);
                }
                added = true;
            }
        }
        if let Some((_, new)) = replaced.iter().find(|(end, _)| *end == Some(r.end)) {
            sub.extend_from_slice(new);
            continue;
        }
        sub.extend_from_slice(slice(r.off, r.end)?);
    }
    if !added {
        for f in &fresh {
            sub.extend_from_slice(f);
        }
    }
    let head: raw::AnimeHead = record::read_at(&b, c.off + 8).map_err(|e| refused(e.offset, "the Anime head"))?;
    let old_words = u64::from(*head.words);
    let sub_start = c.off + 20;
    let sub_end = sub_start + 4 * old_words;
    let new_words = u32::try_from(sub.len() / 4).map_err(|_| refused(c.off, "Anime too large"))?;
    // the chunk keeps whatever its size said beyond `3 + words`
    let size = i64::from(c.size) + i64::from(new_words) - old_words as i64;
    let size = u32::try_from(size).map_err(|_| refused(c.off, "Anime size out of range"))?;
    let out_len = (data.len() as u64 + 4 * u64::from(new_words)).saturating_sub(4 * old_words);
    limits.spend_clip("the rebuilt file", out_len, c.off)?;
    let mut out = Vec::with_capacity(usize::try_from(out_len).unwrap_or(0));
    out.extend_from_slice(slice(0, c.off)?);
    record::write(&raw::ChunkHeader::new(c.kind, c.tag, size), &mut out).map_err(|e| refused(c.off, e.to_string()))?;
    for w in [*head.object, *head.frames, new_words] {
        out.extend(w.to_le_bytes());
    }
    out.extend_from_slice(&sub);
    out.extend_from_slice(slice(sub_end, data.len() as u64)?);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::key_degrees;
    use crate::formats::ccsf::anime::quantise_deg;

    /// docs/formats/ccsf.md#evaluation: a rotation key of `d` degrees plays as
    /// trunc(d × 182.044) / 65536 turn. The degrees written for a step n must truncate to n:
    /// steps 0, ±1, ±2, a quarter turn (16384), −16384, and the half turn (32768 wraps to
    /// −32768, the same rotation).
    #[test]
    fn key_degrees_truncate_to_the_nearest_step() {
        let step = std::f32::consts::PI / 32768.0;
        for n in [0i32, 1, -1, 2, -2, 16384, -16384, 32767, -32767] {
            let rad = n as f32 * step;
            // a little off the step: still that step
            for r in [rad, rad + 0.3 * step, rad - 0.3 * step] {
                let got = quantise_deg(key_degrees(r));
                assert!((got - rad).abs() <= step * 1e-3, "step {n}: {r} -> {got}");
            }
        }
        let half = quantise_deg(key_degrees(std::f32::consts::PI));
        assert!((half.abs() - std::f32::consts::PI).abs() < 1e-6, "{half}");
    }
}
