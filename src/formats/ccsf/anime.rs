//! Anime chunks (0x0700, docs/formats/ccsf.md#anime-0x0700): the sub-record stream, controller records with 3-bit
//! fields, and their evaluation over time (1/256-frame time, linear keys, quantised
//! rotation keys, hold before the first and after the last key).

use super::band;
use super::kinds::{ANIME_KINDS, ANIME_KINDS2};
use super::raw;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{read, read_at};
use crate::limits::Limits;
use crate::model::Span;
use glam::{Mat3, Mat4, Quat, Vec3};

/// A record inside an Anime sub-stream (or the frame section): its 8-byte header and end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct SubRecord {
    pub off: u64,
    pub kind: u16,
    pub tag: u16,
    pub size: u32,
    pub end: u64,
}

impl SubRecord {
    /// A Top record's frame word, read inside the record.
    pub fn top(&self, b: &Bytes<'_>) -> Result<u32> {
        super::walk::top_at(b, self.off, self.end)
    }
    /// The record's first payload word as an object index, read inside the record.
    pub fn object(&self, b: &Bytes<'_>) -> Option<u32> {
        super::walk::object_at(b, self.off, self.end)
    }
}

/// The Anime container's three words and its sub-records.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct AnimeData {
    pub object: u32,
    pub frames: u32,
    pub words: u32,
    pub sub_span: Span,
    pub records: Vec<SubRecord>,
    /// Where the sub-stream walk stopped early, if it did.
    pub lost: Option<ParseError>,
}

/// Walk an Anime chunk's sub-records (every sub-record's size is exact).
pub(in crate::formats) fn parse_anime(
    b: &Bytes<'_>,
    off: u64,
    chunk_end: u64,
    version: u16,
    limits: &Limits,
) -> Result<AnimeData> {
    let p = off + 8;
    let h: raw::AnimeHead = read_at(b, p).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let (object, frames, words) = (*h.object, *h.frames, *h.words);
    let start = p + 12;
    let sub_end = start + 4 * u64::from(words);
    let mut a =
        AnimeData { object, frames, words, sub_span: Span::new(start, sub_end), records: Vec::new(), lost: None };
    if sub_end > chunk_end {
        a.sub_span = Span::new(start, chunk_end);
        a.lost = Some(ParseError::new(
            p + 8,
            ErrorKind::OffsetOutOfRange { what: "anime sub-stream end", offset: sub_end, start, end: chunk_end },
        ));
        return Ok(a);
    }
    let w = b.sub(start, sub_end)?;
    // A record is at least its 8-byte header: room for up to 16 at once (a scene's Anime
    // has a dozen or so), so the list is not regrown record by record.
    a.records.reserve_exact(usize::try_from((sub_end - start) / 8).unwrap_or(0).min(16));
    let mut q = start;
    while q < sub_end {
        let r = (|| -> Result<SubRecord> {
            let h: raw::ChunkHeader = read_at(&w, q).map_err(|e| ParseError::new(e.offset, e.kind))?;
            let (kind, tag, size) = (*h.kind, *h.tag, *h.size);
            if tag != 0xcccc && tag != 0 {
                return Err(ParseError::new(
                    q,
                    ErrorKind::BadMagic { expected: "tag 0xcccc or 0x0000".into(), found: format!("0x{tag:04x}") },
                ));
            }
            if !(ANIME_KINDS.contains(&kind) || band::of(version).gen2() && ANIME_KINDS2.contains(&kind)) {
                return Err(ParseError::new(
                    q,
                    ErrorKind::BadValue {
                        what: "anime record kind",
                        value: format!("0x{kind:04x}"),
                        why: "not an Anime sub-record kind".into(),
                    },
                ));
            }
            let end = q + 8 + 4 * u64::from(size);
            if end > sub_end {
                return Err(ParseError::new(
                    q,
                    ErrorKind::OffsetOutOfRange { what: "anime record end", offset: end, start: q, end: sub_end },
                ));
            }
            Ok(SubRecord { off: q, kind, tag, size, end })
        })();
        match r {
            Ok(rec) => {
                if a.records.len() >= limits.max_nodes {
                    a.lost = Some(ParseError::new(
                        q,
                        ErrorKind::LimitExceeded {
                            what: "anime records",
                            value: a.records.len() as u64 + 1,
                            max: limits.max_nodes as u64,
                        },
                    ));
                    break;
                }
                q = rec.end;
                a.records.push(rec);
            }
            Err(e) => {
                a.lost = Some(e);
                break;
            }
        }
    }
    Ok(a)
}

/// A controller's stored value.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) enum CtrlValue {
    Absent,
    Const(Words),
    /// `(frame, words, span of the key)`.
    Keys(Vec<(u32, Words, Span)>),
}

/// A controller value's words: a field's 1 or 3, or a quaternion's 4, kept inline (a key's
/// words were a vector each: most of reading a controller, which a survey does for every
/// Anime of every member).
pub(in crate::formats) type Words = crate::formats::inline::Inline<u32, 4>;

/// `dim` words read from `w` at `at` (`dim` ≤ 4, the layouts' largest; more are not read).
fn read_words(w: &Bytes<'_>, at: u64, dim: usize) -> Result<Words> {
    let mut v = Words::default();
    for i in 0..dim as u64 {
        if !v.push(w.u32_le(at + 4 * i)?) {
            break;
        }
    }
    Ok(v)
}

/// One 3-bit field of a controller record.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct CtrlField {
    pub name: &'static str,
    pub shift: u32,
    pub k: u32,
    pub dim: usize,
    pub value: CtrlValue,
    pub span: Span,
}

/// A controller record (0x0102, 0x0202, light controllers).
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct CtrlRecord {
    pub object: u32,
    pub flags: u32,
    pub fields: Vec<CtrlField>,
    pub end: u64,
}

/// Field layout of each controller kind: (shift, name, words per value).
pub(in crate::formats) fn layout(kind: u16) -> Option<&'static [(u32, &'static str, usize)]> {
    Some(match kind {
        0x0102 => &[(0, "position", 3), (3, "rotation", 3), (6, "scale", 3), (9, "transparency", 1)],
        0x0202 => &[(0, "u", 1), (3, "v", 1)],
        0x0603 => &[(3, "rotation", 3), (6, "colour", 1), (9, "intensity", 1)],
        0x0605 => &[
            (0, "position", 3),
            (3, "rotation", 3),
            (6, "colour", 1),
            (9, "intensity", 1),
            (12, "beam_start", 1),
            (15, "beam_end", 1),
            (18, "radius_1", 1),
            (21, "radius_2", 1),
        ],
        0x0609 => {
            &[(0, "position", 3), (6, "colour", 1), (9, "intensity", 1), (12, "far_start", 1), (15, "far_end", 1)]
        }
        _ => return None,
    })
}

/// [`layout`] for a file of `version`: gen 2 adds the camera controller 0x0503 and the
/// material controller's fields 6..15 (docs/formats/ccsf-gen2.md#anime-and-frame-records).
pub(in crate::formats) fn layout_at(kind: u16, version: u16) -> Option<&'static [(u32, &'static str, usize)]> {
    if !band::of(version).gen2() {
        return layout(kind);
    }
    Some(match kind {
        0x0503 => &[(0, "position", 3), (3, "rotation", 3), (6, "fov", 1)],
        0x0202 => &[
            (0, "u", 1),
            (3, "v", 1),
            (6, "scale_u", 1),
            (9, "scale_v", 1),
            (12, "unknown_12", 1),
            (15, "unknown_15", 1),
        ],
        _ => return layout(kind),
    })
}

/// Parse a controller record's fields in field order (gen-1 layouts).
#[cfg(test)]
pub(in crate::formats) fn parse_ctrl(b: &Bytes<'_>, rec: &SubRecord, limits: &Limits) -> Result<CtrlRecord> {
    parse_ctrl_at(b, rec, band::GEN1_LAST, limits)
}

/// [`parse_ctrl`] for a file of `version`: from 0x110 a rotation field may be keyed
/// quaternions (k = 4: `u32 n, n × (s32 frame, f32 x, y, z, w)`, docs/formats/ccsf-gen2.md#anime-and-frame-records).
pub(in crate::formats) fn parse_ctrl_at(
    b: &Bytes<'_>,
    rec: &SubRecord,
    version: u16,
    limits: &Limits,
) -> Result<CtrlRecord> {
    let lay = layout_at(rec.kind, version).ok_or_else(|| {
        ParseError::new(
            rec.off,
            ErrorKind::Unsupported(format!("controller 0x{:04x} layout is not documented", rec.kind)),
        )
    })?;
    let w = b.sub(rec.off, rec.end)?;
    let p = rec.off + 8;
    let h: raw::CtrlHead = read_at(&w, p).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let (object, flags) = (*h.object, *h.flags);
    let known: u32 = lay.iter().map(|(s, _, _)| 7u32 << s).fold(0, |a, m| a | m);
    if flags & !known != 0 {
        return Err(ParseError::new(
            p + 4,
            ErrorKind::BadValue {
                what: "controller flags",
                value: format!("0x{flags:x}"),
                why: format!("bits 0x{:x} outside the known fields", flags & !known),
            },
        ));
    }
    let mut q = p + 8;
    // one field per layout entry at most, so one allocation (the survey reads every
    // controller of every member's first Anime)
    let mut fields = Vec::with_capacity(lay.len());
    for &(shift, name, dim) in lay {
        let k = (flags >> shift) & 7;
        let start = q;
        let value = match k {
            0 => CtrlValue::Absent,
            1 => {
                let v = read_words(&w, q, dim)?;
                q += 4 * dim as u64;
                CtrlValue::Const(v)
            }
            2 => {
                let n = w.u32_le(q)?;
                let n =
                    w.check_count("controller key", q + 4, u64::from(n), 4 + 4 * dim as u64, limits.max_keys as u64)?;
                q += 4;
                let mut keys = Vec::with_capacity(n);
                for _ in 0..n {
                    let f = w.u32_le(q)?;
                    let v = read_words(&w, q + 4, dim)?;
                    keys.push((f, v, Span::at(q, 4 + 4 * dim as u64)));
                    q += 4 + 4 * dim as u64;
                }
                CtrlValue::Keys(keys)
            }
            4 if band::of(version).gen2() && name == "rotation" => {
                let n = w.u32_le(q)?;
                let n = w.check_count("quaternion key", q + 4, u64::from(n), 20, limits.max_keys as u64)?;
                q += 4;
                let mut keys = Vec::with_capacity(n);
                for _ in 0..n {
                    let f = w.u32_le(q)?;
                    let v = read_words(&w, q + 4, 4)?;
                    keys.push((f, v, Span::at(q, 20)));
                    q += 20;
                }
                CtrlValue::Keys(keys)
            }
            k => {
                return Err(ParseError::new(
                    p + 4,
                    ErrorKind::BadValue {
                        what: "controller field",
                        value: format!("{name} k={k}"),
                        why: if band::of(version).gen2() {
                            "gen 2 knows 0 (absent), 1 (constant), 2 (keyed) and 4 (keyed quaternion, rotation only)"
                                .into()
                        } else {
                            "only 0 (absent), 1 (constant), 2 (keyed) occur in gen 1".into()
                        },
                    },
                ));
            }
        };
        fields.push(CtrlField { name, shift, k, dim, value, span: Span::new(start, q) });
    }
    if q != rec.end {
        return Err(ParseError::new(
            q,
            ErrorKind::BadValue {
                what: "controller record length",
                value: format!("{} bytes read", q - rec.off),
                why: format!("record is {} bytes", rec.end - rec.off),
            },
        ));
    }
    Ok(CtrlRecord { object, flags, fields, end: q })
}

/// Clamp a frame to the animation's time range in 1/256 frame units.
pub(in crate::formats) fn time_of(frame: u32, frames: u32) -> u32 {
    frame.min(frames.saturating_sub(1)).wrapping_mul(256)
}

/// The Anime frame shown at playback frame `frame`: once (end −1) holds at N−1; loop
/// (end −2) resets to 0 on reaching N−1, so one loop is N−1 frames (docs/formats/ccsf.md#evaluation).
pub(in crate::formats) fn playback_frame(frame: u32, frames: u32, looped: bool) -> u32 {
    let last = frames.saturating_sub(1);
    if looped && last > 0 { frame % last } else { frame.min(last) }
}

/// Linear keyed evaluation (docs/formats/ccsf.md#evaluation): start value plus (duration, delta) segments with
/// u32 durations of `frame*256` differences; a key going back in time becomes a ~2^32
/// segment that is never passed; duplicate frames a zero-length one that always is.
pub(in crate::formats) fn eval_linear(keys: &[(u32, f32)], t: u32) -> f32 {
    let Some(&(f0, v0)) = keys.first() else { return 0.0 };
    let start = f0.wrapping_mul(256);
    if t < start {
        return v0;
    }
    let mut elapsed = t - start;
    let mut prev = v0;
    let mut prev_t = start;
    for &(f, v) in keys.iter().skip(1) {
        let kt = f.wrapping_mul(256);
        let dur = kt.wrapping_sub(prev_t);
        if elapsed >= dur {
            elapsed -= dur;
            prev = v;
            prev_t = kt;
        } else {
            return prev + (v - prev) * (elapsed as f32 / dur as f32);
        }
    }
    prev
}

/// Rx·Ry·Rz for angles in radians.
pub fn rot_xyz(r: Vec3) -> Mat3 {
    Mat3::from_rotation_x(r.x) * Mat3::from_rotation_y(r.y) * Mat3::from_rotation_z(r.z)
}

/// Degrees quantised to 1/65536 turn as the engine does for rotation keys, in radians.
pub fn quantise_deg(deg: f32) -> f32 {
    let q = (deg * 182.044).trunc() as i64 as i16;
    f32::from(q) * std::f32::consts::PI / 32768.0
}

/// Keyed rotation (docs/formats/ccsf.md#evaluation): quantised key matrices; between keys the step
/// `R_i·R_{i−1}ᵀ` as axis + angle (at most half a turn) applied at constant speed.
pub(in crate::formats) fn eval_rotation(keys: &[(u32, Vec3)], t: u32) -> Mat3 {
    let mats: Vec<Mat3> =
        keys.iter().map(|(_, d)| rot_xyz(Vec3::new(quantise_deg(d.x), quantise_deg(d.y), quantise_deg(d.z)))).collect();
    let Some(&(f0, _)) = keys.first() else { return Mat3::IDENTITY };
    let start = f0.wrapping_mul(256);
    let first = mats.first().copied().unwrap_or(Mat3::IDENTITY);
    if t < start {
        return first;
    }
    let mut elapsed = t - start;
    let mut prev = first;
    let mut prev_t = start;
    for (i, &(f, _)) in keys.iter().enumerate().skip(1) {
        let cur = mats.get(i).copied().unwrap_or(Mat3::IDENTITY);
        let kt = f.wrapping_mul(256);
        let dur = kt.wrapping_sub(prev_t);
        if elapsed >= dur {
            elapsed -= dur;
            prev = cur;
            prev_t = kt;
        } else {
            let step = cur * prev.transpose();
            let mut q = Quat::from_mat3(&step).normalize();
            if q.w < 0.0 {
                q = -q;
            }
            let (axis, angle) = q.to_axis_angle();
            let s = elapsed as f32 / dur as f32;
            return Mat3::from_axis_angle(axis, angle * s) * prev;
        }
    }
    prev
}

/// Keyed quaternions (gen 2, k = 4) at time `t` (1/256 frames): held before the first and
/// after the last key, spherical interpolation between keys. The stored (x, y, z, w) is
/// used as it is; AH's importer conjugates it, the sign convention is open [?].
pub(in crate::formats) fn eval_quaternions(keys: &[(u32, Words, Span)], t: u32) -> Mat3 {
    let q = key_quat;
    let Some((f0, w0, _)) = keys.first() else { return Mat3::IDENTITY };
    if t <= f0.wrapping_mul(256) {
        return Mat3::from_quat(q(w0));
    }
    for pair in keys.windows(2) {
        let [(fa, wa, _), (fb, wb, _)] = pair else { continue };
        let (ta, tb) = (fa.wrapping_mul(256), fb.wrapping_mul(256));
        if t < tb && tb > ta {
            let s = (t - ta) as f32 / (tb - ta) as f32;
            return Mat3::from_quat(q(wa).slerp(q(wb), s));
        }
    }
    keys.last().map_or(Mat3::IDENTITY, |(_, w, _)| Mat3::from_quat(q(w)))
}

/// A quaternion key's stored (x, y, z, w), normalised.
fn key_quat(w: &[u32]) -> Quat {
    let g = |i: usize| f32::from_bits(w.get(i).copied().unwrap_or(0));
    Quat::from_xyzw(g(0), g(1), g(2), g(3)).normalize()
}

/// The rotation of one quaternion key's stored words (as [`eval_quaternions`] uses it).
pub(in crate::formats) fn quat_key_matrix(w: &[u32]) -> Mat3 {
    Mat3::from_quat(key_quat(w))
}

/// One target of a gen-2 morph controller.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct MorphTarget {
    /// Target model and weight flags as read.
    pub head: raw::MorphCtrlTarget,
    pub weight: CtrlValue,
    pub span: Span,
}

impl MorphTarget {
    /// MDL_ index of the target.
    pub fn model(&self) -> u32 {
        *self.head.model
    }
}

/// A gen-2 morph controller 0x1902 (docs/formats/ccsf-gen2.md#anime-and-frame-records).
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct MorphCtrl {
    /// Morpher and target count as read.
    pub head: raw::MorphCtrlHead,
    pub targets: Vec<MorphTarget>,
    pub end: u64,
}

impl MorphCtrl {
    /// MPH_ index of the morpher.
    pub fn morpher(&self) -> u32 {
        *self.head.morpher
    }
}

/// Parse a morph controller's payload at `p` (the record ends at `end`): `u32 morpher,
/// u32 target_count`, per target `u32 model, u32 flags` and the weight (field 0, 3 bits).
pub(in crate::formats) fn parse_morph_ctrl(b: &Bytes<'_>, p: u64, end: u64, limits: &Limits) -> Result<MorphCtrl> {
    let w = b.sub(p, end)?;
    let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
    let head: raw::MorphCtrlHead = read_at(&w, p).map_err(plain)?;
    let n = w.check_count("morph target", p + 8, u64::from(*head.target_count), 12, limits.max_keys as u64)?;
    let mut q = p + 8;
    let mut targets = Vec::with_capacity(n);
    for _ in 0..n {
        let start = q;
        let t: raw::MorphCtrlTarget = read_at(&w, q).map_err(plain)?;
        q = t.flags.span.end;
        // The weight's keys are controller values, read like every controller's (`parse_ctrl_at`).
        let weight = match *t.flags & 7 {
            0 => CtrlValue::Absent,
            1 => {
                let v = w.u32_le(q)?;
                q += 4;
                CtrlValue::Const(Words::from_slice(&[v]))
            }
            2 => {
                let k = w.u32_le(q)?;
                let k = w.check_count("morph key", q + 4, u64::from(k), 8, limits.max_keys as u64)?;
                q += 4;
                let mut keys = Vec::with_capacity(k);
                for _ in 0..k {
                    keys.push((w.u32_le(q)?, Words::from_slice(&[w.u32_le(q + 4)?]), Span::at(q, 8)));
                    q += 8;
                }
                CtrlValue::Keys(keys)
            }
            k => {
                return Err(ParseError::new(
                    start + 4,
                    ErrorKind::BadValue {
                        what: "morph weight",
                        value: format!("k={k}"),
                        why: "only 0, 1, 2 are known".into(),
                    },
                ));
            }
        };
        targets.push(MorphTarget { head: t, weight, span: Span::new(start, q) });
    }
    if q != end {
        return Err(ParseError::new(
            q,
            ErrorKind::BadValue {
                what: "morph controller length",
                value: format!("{} bytes read", q - p + 8),
                why: format!("record is {} bytes", end - p + 8),
            },
        ));
    }
    Ok(MorphCtrl { head, targets, end: q })
}

/// Euler angles (x, y, z) in degrees of R = Rx·Ry·Rz.
pub fn euler_xyz_deg(m: &Mat3) -> Vec3 {
    let sy = m.z_axis.x.clamp(-1.0, 1.0);
    let y = sy.asin();
    let (x, z) = if sy.abs() < 0.999_999 {
        ((-m.z_axis.y).atan2(m.z_axis.z), (-m.y_axis.x).atan2(m.x_axis.x))
    } else {
        (m.y_axis.z.atan2(m.y_axis.y), 0.0)
    };
    Vec3::new(x, y, z) * (180.0 / std::f32::consts::PI)
}

/// Local matrix `T · R · S`.
pub fn local_matrix(t: Vec3, r: Mat3, s: Vec3) -> Mat4 {
    Mat4::from_translation(t) * Mat4::from_mat3(r) * Mat4::from_scale(s)
}

/// Evaluated transform of an object controller at one time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct CtrlPose {
    pub pos: Vec3,
    pub rot: Mat3,
    pub scale: Vec3,
    pub alpha: f32,
}

fn words_f32(v: &[u32]) -> Vec3 {
    let g = |i: usize| f32::from_bits(v.get(i).copied().unwrap_or(0));
    Vec3::new(g(0), g(1), g(2))
}

fn eval_vec3(v: &CtrlValue, default: Vec3, t: u32) -> Vec3 {
    match v {
        CtrlValue::Absent => default,
        CtrlValue::Const(w) => words_f32(w),
        CtrlValue::Keys(k) => {
            let comp = |c: usize| {
                let ks: Vec<(u32, f32)> = k.iter().map(|(f, w, _)| (*f, words_f32(w)[c])).collect();
                eval_linear(&ks, t)
            };
            Vec3::new(comp(0), comp(1), comp(2))
        }
    }
}

/// Evaluate a 0x0102 record at time `t` (1/256 frames).
pub(in crate::formats) fn eval_object(rec: &CtrlRecord, t: u32) -> CtrlPose {
    let mut p = CtrlPose { pos: Vec3::ZERO, rot: Mat3::IDENTITY, scale: Vec3::ONE, alpha: 1.0 };
    for f in &rec.fields {
        match f.name {
            "position" => p.pos = eval_vec3(&f.value, Vec3::ZERO, t),
            "scale" => p.scale = eval_vec3(&f.value, Vec3::ONE, t),
            "rotation" => {
                p.rot = match &f.value {
                    CtrlValue::Keys(k) if f.k == 4 => eval_quaternions(k, t),
                    CtrlValue::Absent => Mat3::IDENTITY,
                    CtrlValue::Const(w) => rot_xyz(words_f32(w) * (std::f32::consts::PI / 180.0)),
                    CtrlValue::Keys(k) => {
                        let ks: Vec<(u32, Vec3)> = k.iter().map(|(f, w, _)| (*f, words_f32(w))).collect();
                        eval_rotation(&ks, t)
                    }
                }
            }
            "transparency" => {
                p.alpha = match &f.value {
                    CtrlValue::Absent => 1.0,
                    CtrlValue::Const(w) => f32::from_bits(w.first().copied().unwrap_or(0)),
                    CtrlValue::Keys(k) => {
                        let ks: Vec<(u32, f32)> =
                            k.iter().map(|(f, w, _)| (*f, f32::from_bits(w.first().copied().unwrap_or(0)))).collect();
                        eval_linear(&ks, t)
                    }
                }
            }
            _ => {}
        }
    }
    p
}

/// An F_Obj record (52 bytes): whole transform from its frame on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct FObj {
    pub object: u32,
    pub pos: Vec3,
    pub rot_deg: Vec3,
    pub scale: Vec3,
    pub alpha: f32,
    pub flags: u32,
}

impl FObj {
    /// The record's channels in track order: tx ty tz, rx ry rz (degrees), sx sy sz, alpha.
    pub fn channels(&self) -> [f32; 10] {
        let (p, r, s) = (self.pos, self.rot_deg, self.scale);
        [p.x, p.y, p.z, r.x, r.y, r.z, s.x, s.y, s.z, self.alpha]
    }

    pub fn local(&self) -> Mat4 {
        local_matrix(self.pos, rot_xyz(self.rot_deg * (std::f32::consts::PI / 180.0)), self.scale)
    }
}

/// An F_Obj of either generation: from 0x110 the masked form (docs/formats/ccsf-gen2.md#anime-and-frame-records; an absent
/// value takes its identity default: 0, 0°, 1, opaque [I]).
pub(in crate::formats) fn parse_fobj_at(b: &Bytes<'_>, off: u64, version: u16) -> Result<FObj> {
    if !band::of(version).gen2() {
        return parse_fobj(b, off);
    }
    let plain = |e: ParseError| ParseError::new(e.offset, e.kind);
    let h: raw::FObjHead2 = read_at(b, off + 8).map_err(plain)?;
    let v: raw::FObjValues2 = read(b, h.mask.span.end, (*h.mask,)).map_err(plain)?;
    let mut vals = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0f32];
    for (bit, w) in v.values() {
        if let Some(x) = vals.get_mut(bit as usize - 1) {
            *x = f32::from_bits(w);
        }
    }
    let flags = v.display.map_or(1, |d| *d);
    let [px, py, pz, rx, ry, rz, sx, sy, sz, alpha] = vals;
    Ok(FObj {
        object: *h.object,
        pos: Vec3::new(px, py, pz),
        rot_deg: Vec3::new(rx, ry, rz),
        scale: Vec3::new(sx, sy, sz),
        alpha,
        flags,
    })
}

pub(in crate::formats) fn parse_fobj(b: &Bytes<'_>, off: u64) -> Result<FObj> {
    let r: raw::FObj = read_at(b, off + 8).map_err(|e| ParseError::new(e.offset, e.kind))?;
    let v = |v: &raw::Vec3| Vec3::new(f32::from_bits(*v.x), f32::from_bits(*v.y), f32::from_bits(*v.z));
    Ok(FObj {
        object: *r.object,
        pos: v(&r.pos),
        rot_deg: v(&r.rot),
        scale: v(&r.scale),
        alpha: f32::from_bits(*r.transparency),
        flags: *r.flags,
    })
}
