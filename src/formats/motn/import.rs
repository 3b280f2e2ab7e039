//! Clip import (docs/formats/motn.md#import): posed world matrices on the nominal human
//! rig back to a standard sequence's channels, re-encoded with
//! [`super::write::encode_sequence`] and put back into the blob with every later offset
//! moved.
//!
//! Per frame, bones are visited parents first: an imported bone's local matrix is its
//! parent's world matrix (the import's, or for a bone the import lacks its stored local
//! under its new parent) inverted, times the import's; its translation gives px/py/pz
//! (model units) and its rotation the Euler angles of the sequence's order, each made
//! continuous with the previous frame (or the stored value at frame 0) and stored in
//! turns. An imported bone keeps the channels it had and gains one for an axis whose value
//! leaves the default (the rest offset, or 0 for rotations) by more than the tolerance.
//! Bones the import lacks and the unknown channel bits keep their keys as stored.
//!
//! Keys: `every` puts a flat key (code 0/1) on every frame; `fit=TOL` starts from the first
//! and last frame and splits each span at its worst frame until every frame is within TOL
//! (values and tangents rounded to f16 as stored), the tangents the data's central
//! differences (code 2).
//!
//! Unknown: whether the game's own exporter placed keys this way (it did not: its choice
//! is not known); what an alias sharing the sequence should get is the user's (`--unshare`).

use super::Channel;
use super::decode::{EvalKey, evaluate, fill_eval_keys, track_scale};
use super::parse::{self, KeyData};
use super::pose::{EulerOrder, Rig, euler_order, offset};
use super::raw::FPS;
use super::write::{ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec, encode_sequence};
use crate::bytes::Bytes;
use crate::error::Result;
use crate::formats::import::refused;
use crate::formats::parsed::AnimHandle;
use crate::formats::{AnimRef, ChannelFit, DecodeOptions, Imported, KeyRule, PoseImport};
use crate::limits::Limits;
use glam::{Mat4, Vec3};
use half::f16;

/// The translation and rotation channels in slot order (`Rig::slots`).
const SLOTS: [Channel; 6] = [Channel::Px, Channel::Py, Channel::Pz, Channel::Rx, Channel::Ry, Channel::Rz];

/// The sequence an import replaces, checked: its table entry, where its bytes lie, and
/// its standard layout as parsed.
struct Target<'a> {
    b: Bytes<'a>,
    h: parse::Header,
    entry: parse::Entry<'a>,
    path: String,
    base: u64,
    window: Bytes<'a>,
    seq: parse::Sequence,
    frames: usize,
}

impl Target<'_> {
    /// The standard layout's blocks ([`target`] refuses variants).
    fn body(&self) -> Result<&parse::SeqBody> {
        self.seq.body.as_ref().ok_or_else(|| refused(self.base, format!("{}: not a standard sequence", self.path)))
    }
}

/// Re-encode the sequence of `anim` in the blob `data` from `poses`.
pub(in crate::formats) fn import_clip(
    data: &[u8],
    anim: &AnimRef,
    poses: &PoseImport,
    opts: &DecodeOptions,
    limits: &Limits,
) -> Result<Imported> {
    let order = euler_order(opts)?;
    let t = target(data, anim, poses, limits)?;
    let (path, base) = (&t.path, t.base);
    let rig = Rig::of(&t.seq, t.frames, limits).map_err(|m| refused(base, format!("{path}: {m}")))?;
    let kind = t.seq.header.kind_word;
    let names: Vec<String> = rig.ids.iter().map(|&id| super::raw::node_name(kind, id)).collect();
    let (bones, unknown) = crate::formats::import::match_bones(&names, &poses.bones);
    if !unknown.is_empty() {
        return Err(refused(base, format!("{path}: bones the sequence's rig lacks: {}", unknown.join(", "))));
    }
    let body = t.body()?;
    let mut nodes_seen: Vec<u8> = body.instrs.iter().map(|i| i.node()).collect();
    nodes_seen.sort_unstable();
    if nodes_seen.windows(2).any(|w| w.first() == w.get(1)) {
        return Err(refused(base, format!("{path}: a node has two instructions; it cannot be re-encoded")));
    }
    let work = (t.frames as u64).saturating_mul(names.len() as u64).saturating_mul(6 * 8);
    limits.spend_clip("the imported channel values", work, base)?;
    let bound = Bound { rig: &rig, names: &names, bones: &bones, chans: body.channels.as_slice() };
    let values = bound.values(&t, poses, order)?;
    let tol = match poses.keys {
        KeyRule::Every => None,
        KeyRule::Fit(t) => Some(t),
    };
    let (nodes, fits) = bound.channel_specs(&values, tol);
    let frames16 = u16::try_from(t.frames).map_err(|_| refused(base, "too many frames"))?;
    let spec = SequenceSpec { frames: frames16, kind_word: kind, nodes };
    let new_seq =
        encode_sequence(&spec).map_err(|e| refused(base, format!("{path}: {e} (fewer keys: --keys fit=TOL)")))?;
    let (bytes, notes) = put_back(data, &t, new_seq, poses.unshare, limits)?;
    Ok(Imported { bytes, channels: fits, notes })
}

/// Find and parse the standard sequence `anim` names, of as many frames as the import has.
fn target<'a>(data: &'a [u8], anim: &AnimRef, poses: &PoseImport, limits: &Limits) -> Result<Target<'a>> {
    let b = Bytes::new(data);
    let h = parse::Header::read(&b).map_err(|e| e.within("motn header"))?;
    let wanted = anim.key().strip_prefix("seq:").unwrap_or(anim.key());
    let found = match anim.handle() {
        AnimHandle::Entry(i) => parse::entry_at(&b, &h, *i, limits)?,
        _ => parse::find_entry(&b, &h, wanted, limits)?,
    };
    let (entry, _) = found.ok_or_else(|| refused(0, format!("no sequence {wanted}")))?;
    let path = format!("seq[{wanted}]");
    let base = entry.base(&h);
    let window = super::seq_window(&b, &h);
    if !(window.start()..window.end()).contains(&base) {
        return Err(refused(entry.at, format!("{path}: the sequence lies outside the data")));
    }
    let seq = parse::parse_sequence(&window, base, limits).map_err(|e| e.within(&path))?;
    if seq.body.is_none() {
        return Err(refused(base, format!("{path}: variant layouts (baked frames, node tracks) cannot be imported")));
    }
    let frames = usize::from(seq.header.frames());
    if poses.frames.len() != frames {
        return Err(refused(
            base,
            format!(
                "{path}: the import has {} frames, the sequence {frames} (changing a sequence's length is not \
                 supported)",
                poses.frames.len()
            ),
        ));
    }
    Ok(Target { b, h, entry, path, base, window, seq, frames })
}

/// The sequence's rig bound to the import: which import bone drives each rig bone, and
/// the sequence's stored channels.
struct Bound<'a> {
    rig: &'a Rig,
    names: &'a [String],
    /// Per rig bone, the import bone driving it.
    bones: &'a [Option<usize>],
    chans: &'a [parse::ChannelData],
}

impl Bound<'_> {
    /// Per imported bone, per slot ([`SLOTS`]): its values over the frames in stored units
    /// (model units, turns). Bones are visited parents first; a bone the import lacks is
    /// posed by its stored channels under its new parent.
    fn values(&self, t: &Target, poses: &PoseImport, order: EulerOrder) -> Result<Vec<[Vec<f64>; 6]>> {
        // stored values at a frame, per channel (track units: radians for rotations)
        let eval: Vec<Vec<EvalKey>> = self
            .chans
            .iter()
            .map(|c| {
                let mut k = Vec::new();
                fill_eval_keys(c, track_scale(c.channel), &mut k);
                k
            })
            .collect();
        let mut values: Vec<[Vec<f64>; 6]> = vec![Default::default(); self.names.len()];
        let mut prev_angles: Vec<Option<Vec3>> = vec![None; self.names.len()];
        for f in 0..t.frames {
            let Some(row) = poses.frames.get(f) else { continue };
            let stored = |c: Option<usize>| c.and_then(|c| eval.get(c)).map(|k| evaluate(k, f as f64) as f32);
            let mut world: Vec<Mat4> = Vec::with_capacity(self.names.len());
            for (i, &id) in self.rig.ids.iter().enumerate() {
                let parent = self.rig.parents.get(i).copied().flatten().and_then(|p| world.get(p)).copied();
                let slots = self.rig.slots.get(i).copied().unwrap_or([None; 6]);
                let at = |s: usize, d: f32| stored(slots.get(s).copied().flatten()).unwrap_or(d);
                let import = self.bones.get(i).copied().flatten().and_then(|j| row.get(j));
                let Some(m) = import else {
                    let o = offset(id);
                    let tr = Vec3::new(at(0, o.x), at(1, o.y), at(2, o.z));
                    let local = Mat4::from_rotation_translation(
                        order.rotation(Vec3::new(at(3, 0.0), at(4, 0.0), at(5, 0.0))),
                        tr,
                    );
                    world.push(parent.map_or(local, |p| p * local));
                    continue;
                };
                if !m.is_finite() {
                    let name = self.names.get(i).map_or("", |n| n);
                    return Err(refused(t.base, format!("frame {f} bone {name}: non-finite matrix")));
                }
                let local = parent.map_or(*m, |p| p.inverse() * *m);
                let (_, rot, tr) = local.to_scale_rotation_translation();
                let raw = order.angles(rot.normalize());
                let before = prev_angles
                    .get(i)
                    .copied()
                    .flatten()
                    .unwrap_or_else(|| Vec3::new(at(3, 0.0), at(4, 0.0), at(5, 0.0)));
                let (one, two) = (continuous(raw, before), continuous(order.twin(raw), before));
                let a = if (two - before).length_squared() < (one - before).length_squared() { two } else { one };
                if let Some(p) = prev_angles.get_mut(i) {
                    *p = Some(a);
                }
                if let Some(v) = values.get_mut(i) {
                    let turn = std::f64::consts::TAU;
                    let xs = [tr.x, tr.y, tr.z].into_iter().map(f64::from);
                    for (col, x) in v.iter_mut().zip(xs.chain([a.x, a.y, a.z].into_iter().map(|r| f64::from(r) / turn)))
                    {
                        col.push(x);
                    }
                }
                world.push(*m);
            }
        }
        Ok(values)
    }

    /// The nodes to encode and the fit of each written channel: every channel of a bone
    /// the import lacks and the unknown bits of all kept as stored; an imported bone's
    /// channels keyed from `values`, and a new channel only where its values leave the
    /// default (the rest offset, or 0) by more than the tolerance.
    fn channel_specs(&self, values: &[[Vec<f64>; 6]], tol: Option<f64>) -> (Vec<NodeSpec>, Vec<ChannelFit>) {
        let eps = tol.unwrap_or(0.0).max(1e-5);
        let mut nodes: Vec<NodeSpec> = Vec::new();
        let mut fits: Vec<ChannelFit> = Vec::new();
        let node_of = |nodes: &mut Vec<NodeSpec>, id: u8| -> usize {
            match nodes.iter().position(|n| n.node == id) {
                Some(i) => i,
                None => {
                    nodes.push(NodeSpec { node: id, channels: Vec::new() });
                    nodes.len() - 1
                }
            }
        };
        let imported = |i: usize| self.bones.get(i).copied().flatten().is_some();
        for c in self.chans {
            let bone = self.rig.ids.iter().position(|&id| id == c.node);
            if bone.is_some_and(imported) && SLOTS.contains(&c.channel) {
                continue;
            }
            let n = node_of(&mut nodes, c.node);
            if let Some(node) = nodes.get_mut(n) {
                node.channels.push(ChannelSpec { channel: c.channel, keys: c.keys.iter().map(kept_key).collect() });
            }
        }
        for (i, &id) in self.rig.ids.iter().enumerate().filter(|(i, _)| imported(*i)) {
            let Some(cols) = values.get(i) else { continue };
            for (s, ch) in SLOTS.into_iter().enumerate() {
                let Some(v) = cols.get(s) else { continue };
                let had = self.chans.iter().any(|c| c.node == id && c.channel == ch);
                let default = if ch.is_translation() {
                    f64::from(offset(id).to_array().get(s).copied().unwrap_or(0.0))
                } else {
                    0.0
                };
                if !had && v.iter().all(|x| (x - default).abs() <= eps) {
                    continue;
                }
                let (keys, deviation) = fit(v, tol);
                fits.push(ChannelFit {
                    name: format!("{}.{}", self.names.get(i).map_or("", |n| n), ch.name()),
                    keys: keys.len(),
                    deviation,
                    unit: if ch.is_rotation() { "turns" } else { "m" },
                });
                let n = node_of(&mut nodes, id);
                if let Some(node) = nodes.get_mut(n) {
                    node.channels.push(ChannelSpec { channel: ch, keys });
                }
            }
        }
        (nodes, fits)
    }
}

/// The blob with the sequence replaced by `new_seq` in place (padded so every later offset
/// keeps its alignment modulo 4), or with `unshare` and names sharing it, written as a copy
/// at the data's end that only this entry points to; and the notes saying which.
fn put_back(
    data: &[u8],
    t: &Target,
    new_seq: Vec<u8>,
    unshare: bool,
    limits: &Limits,
) -> Result<(Vec<u8>, Vec<String>)> {
    let path = &t.path;
    let mut notes = Vec::new();
    let sharing = sharing_names(&t.b, &t.h, t.entry.data_rel, t.entry.index, limits)?;
    let mut new = new_seq;
    if unshare && !sharing.is_empty() {
        notes.push(format!("{path}: written as its own copy; {} keep the shared sequence", sharing.join(", ")));
        let at = t.window.end();
        new.resize(new.len().next_multiple_of(4), 0);
        let pad = usize::try_from(at.next_multiple_of(4) - at).unwrap_or(0);
        let mut insert = vec![0u8; pad];
        insert.extend(new);
        let start_rel = at + pad as u64 - u64::from(t.h.data_ofs);
        let s = Splice { from: at, to: at, insert: &insert, repoint: Some((t.entry.at, start_rel)) };
        return Ok((splice(data, &t.b, &t.h, &s, limits)?, notes));
    }
    if !sharing.is_empty() {
        notes.push(format!(
            "{path} shares its sequence with {}: they play the import too (--unshare writes a copy for this name \
             only)",
            sharing.join(", ")
        ));
    }
    let end = t.body()?.end;
    let old_len = end - t.base;
    // keep every later offset's alignment (sequences are even; other records unknown)
    while !(new.len() as u64).abs_diff(old_len).is_multiple_of(4) {
        new.push(0);
    }
    Ok((splice(data, &t.b, &t.h, &Splice { from: t.base, to: end, insert: &new, repoint: None }, limits)?, notes))
}

/// Angles `raw` made continuous with `before`: each moved by whole turns to be nearest.
fn continuous(raw: Vec3, before: Vec3) -> Vec3 {
    let turn = std::f32::consts::TAU;
    let near = |x: f32, b: f32| x + ((b - x) / turn).round() * turn;
    Vec3::new(near(raw.x, before.x), near(raw.y, before.y), near(raw.z, before.z))
}

/// The key a stored key is: same frame, same code, same f16 values.
fn kept_key(k: &KeyData) -> KeySpec {
    let values = match k.code {
        0 => KeyValues::Zero,
        1 => KeyValues::Value(k.value()),
        2 => KeyValues::Slope { tangent: k.in_tangent(), value: k.value() },
        _ => KeyValues::InOut { in_tangent: k.in_tangent(), out_tangent: k.out_tangent(), value: k.value() },
    };
    KeySpec { frame: k.frame, values }
}

/// `x` as stored: rounded to f16.
fn half(x: f64) -> f64 {
    f64::from(f16::from_f64(x).to_f32())
}

/// Keys for `v` (one value per frame, stored units) and the largest difference between the
/// curve they decode to and `v`: a flat key on every frame (`tol` None), or as few keys as
/// keep every frame within `tol`.
fn fit(v: &[f64], tol: Option<f64>) -> (Vec<KeySpec>, f64) {
    let n = v.len();
    let last = n.saturating_sub(1);
    let at = |f: usize| v.get(f).copied().unwrap_or(0.0);
    let Some(tol) = tol else {
        let keys: Vec<KeySpec> = (0..n.max(2))
            .map(|f| {
                let f = f.min(last);
                KeySpec { frame: f as u16, values: KeyValues::from_curve(0.0, 0.0, at(f) as f32) }
            })
            .collect();
        let dev = v.iter().map(|x| (half(*x) - x).abs()).fold(0.0, f64::max);
        return (keys, dev);
    };
    // per-second slope of the data at frame f (central difference, one-sided at the ends)
    let slope = |f: usize| -> f64 {
        if n < 2 {
            return 0.0;
        }
        let (a, b) = (f.saturating_sub(1), (f + 1).min(last));
        (at(b) - at(a)) / (b - a).max(1) as f64 * FPS
    };
    let key = |f: usize| -> EvalKey {
        let t = half(slope(f));
        EvalKey { time: f as f64, in_t: t, out_t: t, value: half(at(f)) }
    };
    let mut keep = vec![false; n.max(1)];
    if let Some(k) = keep.first_mut() {
        *k = true;
    }
    if let Some(k) = keep.get_mut(last) {
        *k = true;
    }
    let mut dev: f64 = 0.0;
    let mut stack = vec![(0usize, last)];
    while let Some((a, b)) = stack.pop() {
        let pair = [key(a), key(b)];
        let mut worst = (0.0f64, a);
        for f in a + 1..b {
            let e = (evaluate(&pair, f as f64) - at(f)).abs();
            if e > worst.0 {
                worst = (e, f);
            }
        }
        if worst.0 > tol && worst.1 > a {
            if let Some(k) = keep.get_mut(worst.1) {
                *k = true;
            }
            stack.push((a, worst.1));
            stack.push((worst.1, b));
        } else {
            dev = dev.max(worst.0).max((pair[0].value - at(a)).abs()).max((pair[1].value - at(b)).abs());
        }
    }
    let mut keys: Vec<KeySpec> = Vec::new();
    for f in (0..n).filter(|&f| keep.get(f).copied().unwrap_or(false)) {
        let k = key(f);
        keys.push(KeySpec {
            frame: f as u16,
            values: KeyValues::from_curve(k.in_t as f32, k.out_t as f32, k.value as f32),
        });
    }
    if keys.len() < 2 {
        // one frame: its key twice (first and last)
        let k = keys.first().copied().unwrap_or(KeySpec { frame: 0, values: KeyValues::Zero });
        keys = vec![k, k];
    }
    (keys, dev)
}

/// Names of the other entries sharing the sequence at `data_rel`.
fn sharing_names(b: &Bytes, h: &parse::Header, data_rel: u32, me: usize, limits: &Limits) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for e in parse::read_entries(b, h, limits)? {
        if e.data_rel == data_rel && e.index != me {
            out.push(e.display_name());
        }
    }
    Ok(out)
}

/// A change of a blob: the bytes `from..to` replaced by `insert`, and optionally one table
/// entry (at its offset) pointed at a new `data_rel`.
#[derive(Clone, Copy)]
struct Splice<'a> {
    from: u64,
    to: u64,
    insert: &'a [u8],
    repoint: Option<(u64, u64)>,
}

/// The blob with the splice made: every absolute offset at or past `to` (sequence starts,
/// extra-data records, name pointers) moved by the difference, `file_size` with it.
fn splice(data: &[u8], b: &Bytes, h: &parse::Header, sp: &Splice<'_>, limits: &Limits) -> Result<Vec<u8>> {
    let Splice { from, to, insert, repoint } = *sp;
    let len = data.len() as u64;
    let new_len = len - (to - from) + insert.len() as u64;
    limits.spend_clip("the rebuilt motn blob", new_len, from)?;
    let entries = parse::read_entries(b, h, limits)?;
    for e in &entries {
        let start = e.base(h);
        if start > from && start < to {
            return Err(refused(e.at, "another sequence starts inside this one; it cannot be re-encoded"));
        }
    }
    let (f, t) = (usize::try_from(from).unwrap_or(0), usize::try_from(to).unwrap_or(0));
    let mut out = Vec::with_capacity(usize::try_from(new_len).unwrap_or(0));
    out.extend_from_slice(data.get(..f).unwrap_or_default());
    out.extend_from_slice(insert);
    out.extend_from_slice(data.get(t..).unwrap_or_default());
    let moved = |p: u64| -> Result<u32> {
        let q = if p >= to { p + insert.len() as u64 - (to - from) } else { p };
        u32::try_from(q).map_err(|_| refused(from, "the blob outgrows 32-bit offsets"))
    };
    // the u32 at `at` of the original, moved, written at its (possibly moved) place
    let mut put = |at: u64, value: u32| {
        let at = if at >= to { at + insert.len() as u64 - (to - from) } else { at };
        let at = usize::try_from(at).unwrap_or(usize::MAX);
        if let Some(w) = out.get_mut(at..at + 4) {
            w.copy_from_slice(&value.to_le_bytes());
        }
    };
    let data_ofs = u64::from(h.data_ofs);
    for e in &entries {
        let start = moved(e.base(h))?;
        let rel = match repoint {
            Some((at, rel)) if at == e.at => rel,
            _ => u64::from(start) - data_ofs.min(u64::from(start)),
        };
        put(e.at, u32::try_from(rel).map_err(|_| refused(e.at, "data offset past 32 bits"))?);
        put(e.at + 4, moved(u64::from(e.extra_ofs))?);
        put(e.name_ptr_at, moved(u64::from(e.name_ptr))?);
    }
    if u64::from(h.file_size) == len {
        put(0x10, u32::try_from(new_len).map_err(|_| refused(0, "the blob outgrows 32 bits"))?);
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// The curve `keys` decode to, as the decoder evaluates it.
    fn decoded(keys: &[KeySpec]) -> Vec<EvalKey> {
        keys.iter()
            .map(|k| {
                let h = k.values.halves();
                let g = |i: usize| f64::from(f16::from_bits(h[i]).to_f32());
                let (i, o, val) = match k.values.code() {
                    0 => (0.0, 0.0, 0.0),
                    1 => (0.0, 0.0, g(0)),
                    2 => (g(0), g(0), g(1)),
                    _ => (g(0), g(1), g(2)),
                };
                EvalKey { time: f64::from(k.frame), in_t: i, out_t: o, value: val }
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

        /// Random curves (a sum of three sines and a step) at any tolerance: the fitted keys
        /// decode within the tolerance or the f16 half step of the value, whichever is
        /// larger, at every frame; the reported deviation says so; frames stay in order.
        #[test]
        fn any_curve_fits_within_its_tolerance(
            n in 1usize..200,
            amp in proptest::array::uniform3(-2.0f64..2.0),
            freq in proptest::array::uniform3(0.0f64..0.5),
            step_at in 0usize..200,
            tol in 1e-4f64..1e-2,
        ) {
            let v: Vec<f64> = (0..n)
                .map(|f| {
                    let t = f as f64;
                    amp.iter().zip(&freq).map(|(a, w)| a * (w * t).sin()).sum::<f64>() + if f >= step_at { 0.3 } else { 0.0 }
                })
                .collect();
            let (keys, dev) = fit(&v, Some(tol));
            proptest::prop_assert!(keys.windows(2).all(|w| w[0].frame <= w[1].frame));
            let ek = decoded(&keys);
            let mut worst: f64 = 0.0;
            for (f, x) in v.iter().enumerate() {
                let e = (evaluate(&ek, f as f64) - x).abs();
                worst = worst.max(e);
                proptest::prop_assert!(e <= tol.max(x.abs() * 2f64.powi(-11)) + 1e-9, "frame {}: {}", f, e);
            }
            proptest::prop_assert!((worst - dev).abs() <= 1e-9, "{} vs {}", worst, dev);
        }
    }

    #[test]
    fn fitted_keys_stay_within_the_tolerance() {
        // a half sine over 61 frames, 0.25 turns high
        let v: Vec<f64> = (0..61).map(|f| 0.25 * (f as f64 / 60.0 * std::f64::consts::PI).sin()).collect();
        let (keys, dev) = fit(&v, Some(1e-3));
        assert!(keys.len() < 20, "{} keys", keys.len());
        assert!(dev <= 1e-3, "{dev}");
        // the written curve, evaluated as the decoder does, is within the tolerance
        let ek = decoded(&keys);
        for (f, x) in v.iter().enumerate() {
            assert!((evaluate(&ek, f as f64) - x).abs() <= 1e-3 + 1e-9, "frame {f}");
        }
        let (every, _) = fit(&v, None);
        assert_eq!(every.len(), 61);
    }
}
