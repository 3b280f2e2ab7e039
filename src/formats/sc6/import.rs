//! Clip import (docs/formats/sc6-mot.md#import): posed world matrices on the built-in
//! skeleton back to a default-stream clip's words, re-encoded with [`super::write::encode_clip`]
//! and put back into the bank with the later clips moved.
//!
//! Per stored keyframe `k` (logical frame `k / rate`), bones are visited parents first:
//! each imported bone's local matrix is its parent's world matrix *as the written clip will
//! decode it* (quantised) inverted, times the import's world matrix; its rotation (the base
//! turn taken out of transforms 2 and 14) becomes the 0x02/0x19 axis-angle words or the
//! 0x06 hinge word, and transforms 0 and 1 give the root's x/z (base turn taken out) and y.
//! Bones the import lacks keep their words. The root's facing, the 0x03/0x13/0x14/0x1A
//! raw words and the 0x17/0x18 vectors are kept. Lost: translations of bones other than 0
//! and 1 (the format stores none), scale, a hinge's rotation about axes other than Z, and
//! rotations of bones whose presence bit is clear (the mask is kept).
//!
//! Unknown: whether the game accepts a clip whose Huffman tables differ from the ones its
//! own tools made (the decoder here and HorseMod's reference do).

use super::decode::{
    axis_angle, base_turn_rotate, channel_name, choose_stream, hinge, key_words, quat_at, resolve_key, root_scale,
    root_values,
};
use super::parse::{Bank, Channel, Header, StreamKind, align8, decode_groups, layout, parse_bank, parse_header};
use super::pose::Poser;
use super::raw::{F_F32, LrOrder};
use super::write::{ClipSpec, Codes, encode_clip, quat_to_words};
use crate::bytes::Bytes;
use crate::error::Result;
use crate::formats::import::refused;
use crate::formats::{AnimRef, ChannelFit, DecodeOptions, Imported, KeyRule, PoseImport};
use crate::limits::Limits;
use glam::{Mat4, Quat};

/// A rotation channel of the clip: the bone it drives, its selector and first word.
struct RotChannel {
    bone: usize,
    sel: u8,
    word: usize,
    name: String,
    deviation: f64,
}

/// The clip an import replaces, checked: where it lies in the bank, how it is stored and
/// its words as decoded.
struct Target {
    bank: Bank,
    slot: usize,
    path: String,
    start: u64,
    end: u64,
    h: Header,
    words: Vec<i16>,
    kind: StreamKind,
    lr: LrOrder,
    chans: Vec<Channel>,
    frames: usize,
}

/// Re-encode the clip of `anim` in the bank `data` from `poses`.
pub(in crate::formats) fn import_clip(
    data: &[u8],
    anim: &AnimRef,
    poses: &PoseImport,
    opts: &DecodeOptions,
    limits: &Limits,
) -> Result<Imported> {
    let t = target(data, anim, poses, opts, limits)?;
    let root_ch = t.chans.iter().find(|c| c.sel == 0x16).map(|c| c.word);
    let poser = Poser::new(t.lr, t.h.base_turn(), false, root_ch.is_some());
    let names = poser.names().to_vec();
    // poser bone -> the import bone driving it
    let (bones, unknown) = crate::formats::import::match_bones(&names, &poses.bones);
    if !unknown.is_empty() {
        return Err(refused(t.start, format!("{}: bones the clip's skeleton lacks: {}", t.path, unknown.join(", "))));
    }
    limits.spend_clip("the imported clip's words", (t.words.len() as u64).saturating_mul(2), t.start)?;
    let mut enc = Encoder {
        t: &t,
        poser: &poser,
        names: &names,
        bones: &bones,
        root: root_ch.map(|o| RootCodec {
            o,
            flags: t.h.flags,
            scale: root_scale(t.h.flags),
            base_turn: t.h.base_turn(),
        }),
        wc: usize::try_from(t.h.wc).unwrap_or(0),
        words: t.words.clone(),
        rots: rotation_channels(&t, &names),
        root_dev: [0.0; 3],
        dropped: Vec::new(),
    };
    let nkeys = usize::try_from(t.h.encoded).unwrap_or(0);
    for k in 0..nkeys {
        let f = ((k as f64 / t.h.rate()).round() as usize).min(t.frames.saturating_sub(1));
        if let Some(frame) = poses.frames.get(f) {
            enc.key(k, f, frame)?;
        }
    }
    let spec = ClipSpec {
        frame_count: t.h.frame_count,
        flags: t.h.flags,
        presence_mask: t.h.mask,
        turn_word: t.h.turn_word,
        unknown: t.h.record.unknown.value.0,
        keyframes: enc.words.chunks(enc.wc.max(1)).map(<[i16]>::to_vec).collect(),
        codes: Codes::Huffman,
    };
    let new_clip = encode_clip(&spec).map_err(|m| refused(t.start, format!("{}: {m}", t.path)))?;
    let channels = enc.fits(nkeys);
    if let KeyRule::Fit(tol) = poses.keys
        && let Some(worst) = channels.iter().find(|c| c.deviation > tol)
    {
        return Err(refused(
            t.start,
            format!(
                "{}: channel {} is {:.3e} {} from the import, over fit={tol} (sc6 stores every keyframe at the \
                 clip's rate; only quantisation is left to fit)",
                t.path, worst.name, worst.deviation, worst.unit
            ),
        ));
    }
    let notes = notes(&t, &enc.dropped);
    let bytes = splice(data, &t.bank, t.start, t.end, &new_clip, limits)?;
    Ok(Imported { bytes, channels, notes })
}

/// Find, decode and check the clip `anim` names: a default-stream clip of as many frames as
/// the import has, not shared when `--unshare` asks for a copy.
fn target(data: &[u8], anim: &AnimRef, poses: &PoseImport, opts: &DecodeOptions, limits: &Limits) -> Result<Target> {
    let bytes = Bytes::new(data);
    let bank = parse_bank(bytes).map_err(|e| e.err)?;
    let slot = match anim.handle() {
        crate::formats::parsed::AnimHandle::Slot(s) => *s,
        _ => resolve_key(anim.key(), bank.offsets.len())?.0,
    };
    let path = format!("clip[{slot}]");
    let owner = bank.alias_of.get(slot).copied().flatten().unwrap_or(slot);
    let clip =
        bank.clip(bytes, owner).ok_or_else(|| refused(bank.slot_at(slot), format!("{path}: unusable offset")))?;
    let (start, end) = (clip.start(), clip.end());
    let h = parse_header(clip).map_err(|e| e.within(path.clone()).err)?;
    let dec = decode_groups(clip, &h, limits, 0);
    if let Some(e) = dec.failure {
        return Err(e.within(path).err);
    }
    let (kind, _) = choose_stream(&h, opts)?;
    if kind != StreamKind::Default {
        return Err(refused(start, format!("{path}: the {} stream has no skeleton to import onto", kind.name())));
    }
    if opts.extra.get("root_only").is_some_and(|v| v != "false" && v != "0") {
        return Err(refused(start, "root_only: import the whole clip"));
    }
    let lr = LrOrder::parse(opts.extra.get("lr_order").map(String::as_str)).map_err(|m| refused(0, m))?;
    let chans = layout(kind, &h).map_err(|e| e.within(path.clone()).err)?;
    let frames = usize::try_from(h.playback).unwrap_or(0);
    if poses.frames.len() != frames {
        return Err(refused(
            start,
            format!(
                "{path}: the import has {} frames, the clip {frames} (changing a clip's length is not supported)",
                poses.frames.len()
            ),
        ));
    }
    if poses.unshare && bank.offsets.iter().filter(|&&o| o == start).count() > 1 {
        return Err(refused(
            start,
            format!("{path}: --unshare is not supported for sc6 banks (slot offsets must not decrease)"),
        ));
    }
    Ok(Target { bank, slot, path, start, end, h, words: dec.words, kind, lr, chans, frames })
}

/// The rotation channels of the clip, one per bone: the first channel of a bone's name
/// drives it, as the poses read it.
fn rotation_channels(t: &Target, names: &[String]) -> Vec<RotChannel> {
    let mut rots: Vec<RotChannel> = Vec::new();
    for c in t.chans.iter().filter(|c| matches!(c.sel, 0x02 | 0x19 | 0x06)) {
        let name = channel_name(t.kind, c, t.lr);
        if let Some(bone) = names.iter().position(|n| *n == name)
            && !rots.iter().any(|r| r.bone == bone)
        {
            rots.push(RotChannel { bone, sel: c.sel, word: c.word, name, deviation: 0.0 });
        }
    }
    rots
}

/// What the import's notes say: other slots sharing the clip, bones whose rotations the
/// clip cannot store.
fn notes(t: &Target, dropped: &[String]) -> Vec<String> {
    let mut notes = Vec::new();
    let aliases: Vec<String> = t
        .bank
        .offsets
        .iter()
        .enumerate()
        .filter(|&(i, &o)| o == t.start && i != t.slot)
        .map(|(i, _)| i.to_string())
        .collect();
    if !aliases.is_empty() {
        notes.push(format!(
            "{} shares its clip with slot(s) {}: they play the imported clip too",
            t.path,
            aliases.join(", ")
        ));
    }
    if !dropped.is_empty() {
        notes.push(format!(
            "{}: no rotation channel (presence bit clear) for {}: their imported rotations are not stored",
            t.path,
            dropped.join(", ")
        ));
    }
    notes
}

/// The clip's words as they are rewritten from the import, keyframe by keyframe, with the
/// largest deviation of each written channel.
struct Encoder<'a> {
    t: &'a Target,
    poser: &'a Poser,
    names: &'a [String],
    /// Per poser bone, the import bone driving it.
    bones: &'a [Option<usize>],
    /// The root channel, when the clip has one.
    root: Option<RootCodec>,
    wc: usize,
    words: Vec<i16>,
    rots: Vec<RotChannel>,
    root_dev: [f64; 3],
    /// Bones the import turns that have no rotation channel.
    dropped: Vec<String>,
}

impl Encoder<'_> {
    /// Rewrite keyframe `k` (logical frame `f`) from the import's world matrices `frame`.
    /// Bones are visited parents first: each local matrix is taken against its parent's
    /// world matrix as the written clip will decode it.
    fn key(&mut self, k: usize, f: usize, frame: &[Mat4]) -> Result<()> {
        let (t, poser) = (self.t, self.poser);
        // the root as stored (base turn applied to x/z), then as it will be written
        let mut root = match self.root {
            Some(c) => {
                let (p, _) = root_values(key_words(&t.words, self.wc, k), c.o, c.flags);
                let (x, z) = base_turn_rotate(p[0], p[2], c.base_turn);
                [x, p[1], z]
            }
            None => [0.0; 3],
        };
        let mut world: Vec<Mat4> = Vec::with_capacity(self.names.len());
        let mut pending_root: [Option<f64>; 3] = [None; 3];
        for (i, name) in self.names.iter().enumerate() {
            let rc = self.rots.iter().position(|r| r.bone == i);
            let stored_rot = rc.and_then(|r| self.rots.get(r)).map(|r| {
                let q = quat_at(&t.words, self.wc, r.sel, r.word, k, 0.0);
                Quat::from_xyzw(q[0] as f32, q[1] as f32, q[2] as f32, q[3] as f32).normalize()
            });
            let parent = poser.parent_world(i, &world).unwrap_or(Mat4::IDENTITY);
            let import = self.bones.get(i).copied().flatten().and_then(|j| frame.get(j));
            let Some(m) = import else {
                // kept: as stored
                world.push(parent * poser.local(i, stored_rot, root.map(|v| v as f32)));
                continue;
            };
            if !m.is_finite() {
                return Err(refused(t.start, format!("frame {f} bone {name}: non-finite matrix")));
            }
            let (_, rot, tr) = (parent.inverse() * *m).to_scale_rotation_translation();
            let want = poser.stored_rotation(i, rot.normalize());
            if let Some(codec) = self.root
                && i <= 1
            {
                match i {
                    0 => (pending_root[0], pending_root[2]) = (Some(f64::from(tr.x)), Some(f64::from(tr.z))),
                    _ => pending_root[1] = Some(f64::from(tr.y)),
                }
                // quantised now, so the children see the root as it will decode
                root = self.write_root(k, &codec, root, pending_root);
            }
            let written = match rc {
                Some(r) => Some(self.write_rotation(k, r, stored_rot, want)),
                None => {
                    if want.angle_between(Quat::IDENTITY) > 1e-4 && !self.dropped.contains(name) {
                        self.dropped.push(name.clone());
                    }
                    None
                }
            };
            world.push(parent * poser.local(i, written, root.map(|v| v as f32)));
        }
        Ok(())
    }

    /// Write the root components carried so far (`pending`, poses' frame) into keyframe
    /// `k`, unless they are within half a step of the `stored` root; the root as it will
    /// decode.
    fn write_root(&mut self, k: usize, codec: &RootCodec, stored: [f64; 3], pending: [Option<f64>; 3]) -> [f64; 3] {
        let step = if codec.flags & F_F32 != 0 { 1e-6 } else { codec.scale * 0.5 };
        let mut fresh = pending;
        if fresh[0].zip(fresh[2]).is_some_and(|(x, z)| (x - stored[0]).abs() <= step && (z - stored[2]).abs() <= step) {
            fresh[0] = None;
            fresh[2] = None;
        }
        if fresh[1].is_some_and(|y| (y - stored[1]).abs() <= step) {
            fresh[1] = None;
        }
        let written = write_root(&mut self.words, self.wc, k, codec, &fresh);
        for (a, (w, p)) in self.root_dev.iter_mut().zip(written.iter().zip(pending)) {
            if let Some(p) = p {
                *a = a.max((w - p).abs());
            }
        }
        written
    }

    /// Write rotation channel `r` of keyframe `k` as `want`, unless it is within half a
    /// word's step of the `stored` rotation (an unedited bone re-encodes to the same words,
    /// whichever sign its quaternion has); the rotation as it will decode.
    fn write_rotation(&mut self, k: usize, r: usize, stored: Option<Quat>, want: Quat) -> Quat {
        let between = crate::formats::import::rotation_between;
        let half_step = 0.5 / 65536.0 * std::f64::consts::TAU;
        let Some(rc) = self.rots.get_mut(r) else { return want };
        if let Some(q) = stored.filter(|q| between(*q, want) <= half_step) {
            rc.deviation = rc.deviation.max(between(q, want) / std::f64::consts::TAU);
            return q;
        }
        let back = if rc.sel == 0x06 {
            let turns = f64::from(want.z).atan2(f64::from(want.w)) / std::f64::consts::PI;
            let w = ((turns * 65536.0).round() as i64) as i16;
            set_word(&mut self.words, self.wc, k, rc.word, w);
            hinge(f64::from(w))
        } else {
            let w = quat_to_words([f64::from(want.x), f64::from(want.y), f64::from(want.z), f64::from(want.w)]);
            for (j, v) in w.into_iter().enumerate() {
                set_word(&mut self.words, self.wc, k, rc.word + j, v);
            }
            axis_angle(w[0], w[1], w[2])
        };
        let back = Quat::from_xyzw(back[0] as f32, back[1] as f32, back[2] as f32, back[3] as f32).normalize();
        rc.deviation = rc.deviation.max(between(back, want) / std::f64::consts::TAU);
        back
    }

    /// The written channels with their largest deviations: the root's axes the import
    /// carries (bone 0 gives x and z, bone 1 y), then the rotations of imported bones.
    fn fits(&self, nkeys: usize) -> Vec<ChannelFit> {
        let mut channels: Vec<ChannelFit> = Vec::new();
        let imported = |bone: usize| self.bones.get(bone).copied().flatten().is_some();
        if self.root.is_some() {
            for (i, axis) in ["x", "y", "z"].into_iter().enumerate() {
                if imported(usize::from(i == 1)) {
                    let deviation = self.root_dev.get(i).copied().unwrap_or(0.0);
                    channels.push(ChannelFit { name: format!("root.{axis}"), keys: nkeys, deviation, unit: "m" });
                }
            }
        }
        for r in self.rots.iter().filter(|r| imported(r.bone)) {
            channels.push(ChannelFit { name: r.name.clone(), keys: nkeys, deviation: r.deviation, unit: "turns" });
        }
        channels
    }
}

fn set_word(words: &mut [i16], wc: usize, k: usize, o: usize, v: i16) {
    if let Some(w) = words.get_mut(k * wc + o) {
        *w = v;
    }
}

/// How a clip stores its root: the channel's first word, the flags (i16 or f32 words), the
/// scale and the base turn.
#[derive(Clone, Copy)]
struct RootCodec {
    o: usize,
    flags: u32,
    scale: f64,
    base_turn: f64,
}

/// Write the root channel of keyframe `k`: x/z and y from `pending` where given (base turn
/// applied, as the poses carry them); other words (the facing) are kept. Returns
/// the root as it will decode (base turn applied).
fn write_root(words: &mut [i16], wc: usize, k: usize, codec: &RootCodec, pending: &[Option<f64>; 3]) -> [f64; 3] {
    let RootCodec { o, flags, scale, base_turn } = *codec;
    // x and z are stored rotated by the base turn: both are written from bone 0
    let mut raw: [Option<f64>; 3] = [None; 3];
    if let (Some(x), Some(z)) = (pending.first().copied().flatten(), pending.get(2).copied().flatten()) {
        let (rx, rz) = base_turn_rotate(x, z, -base_turn);
        raw[0] = Some(rx);
        raw[2] = Some(rz);
    }
    raw[1] = pending.get(1).copied().flatten();
    for (j, v) in raw.iter().enumerate() {
        let Some(v) = v else { continue };
        if flags & F_F32 != 0 {
            let bits = ((v / scale) as f32).to_bits();
            set_word(words, wc, k, o + 2 * j, (bits & 0xFFFF) as u16 as i16);
            set_word(words, wc, k, o + 2 * j + 1, (bits >> 16) as u16 as i16);
        } else {
            let w = (v / scale).round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
            set_word(words, wc, k, o + j, w);
        }
    }
    let (p, _) = root_values(key_words(words, wc, k), o, flags);
    let (x, z) = base_turn_rotate(p[0], p[2], base_turn);
    [x, p[1], z]
}

/// The bank with the clip at `start..end` replaced by `clip` (padded to 8 bytes when clips
/// follow, so they stay 8-aligned) and every later slot's offset moved by the difference.
fn splice(data: &[u8], bank: &Bank, start: u64, end: u64, clip: &[u8], limits: &Limits) -> Result<Vec<u8>> {
    let len = data.len() as u64;
    let padded = if end < len { align8(clip.len() as u64) } else { clip.len() as u64 };
    let new_len = len - (end - start) + padded;
    limits.spend_clip("the rebuilt bank", new_len, start)?;
    let (s, e) = (usize::try_from(start).unwrap_or(0), usize::try_from(end).unwrap_or(0));
    let mut out = Vec::with_capacity(usize::try_from(new_len).unwrap_or(0));
    out.extend_from_slice(data.get(..s).unwrap_or_default());
    out.extend_from_slice(clip);
    out.resize(s + usize::try_from(padded).unwrap_or(0), 0);
    out.extend_from_slice(data.get(e..).unwrap_or_default());
    for (i, &o) in bank.offsets.iter().enumerate() {
        if o > start {
            let moved = o + padded - (end - start);
            let moved = u32::try_from(moved).map_err(|_| refused(start, "the bank outgrows 32-bit offsets"))?;
            let at = usize::try_from(bank.slot_at(i)).unwrap_or(usize::MAX);
            if let Some(w) = out.get_mut(at..at + 4) {
                w.copy_from_slice(&moved.to_le_bytes());
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::super::raw::F_HALF;
    use super::super::write::{encode_bank, encoded_count, stream_len, stream_words};
    use super::*;
    use proptest::prelude::*;

    /// The stored poses of slot 0 of `bank`.
    fn poses(bank: &[u8]) -> crate::model::anim::PoseSeq {
        let c = super::super::decode::decode(bank, "clip:0", &DecodeOptions::default(), &Limits::default()).unwrap();
        c.poses.unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Random default-stream clips (every selector present, full or half rate, any
        /// words but a root within ±30 m): posing the clip and importing its own poses gives
        /// a clip that poses the same, every matrix element within 1e-3 (quantisation
        /// of the rotation words, 1/65536 turn, along chains of up to five transforms).
        #[test]
        fn importing_a_clips_own_poses_gives_the_same_poses(
            frames in 1u16..12,
            half in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let flags = if half { F_HALF } else { 0 };
            let mask = (1u64 << stream_len("default").unwrap()) - 1;
            let wc = stream_words("default", flags, mask).unwrap();
            let mut x = seed | 1;
            let mut next = || { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x };
            let keys: Vec<Vec<i16>> = (0..encoded_count(frames, flags))
                .map(|_| (0..wc).map(|i| if i < 3 { (next() % 60_000) as i16 / 2 } else { next() as i16 }).collect())
                .collect();
            let clip = encode_clip(&ClipSpec::new(frames, flags, mask, keys)).unwrap();
            let bank = encode_bank(&[clip], &[0]);
            let before = poses(&bank);
            let anim = AnimRef::named("clip:0".into(), "0", None, true);
            let import = PoseImport { bones: before.bones.clone(), frames: before.frames.clone(), keys: KeyRule::Every, unshare: false };
            let done = import_clip(&bank, &anim, &import, &DecodeOptions::default(), &Limits::default()).unwrap();
            let after = poses(&done.bytes);
            prop_assert_eq!(after.frames.len(), before.frames.len());
            for (f, (a, b)) in before.frames.iter().zip(&after.frames).enumerate() {
                for (i, (ma, mb)) in a.iter().zip(b).enumerate() {
                    prop_assert!(ma.abs_diff_eq(*mb, 1e-3), "frame {} bone {}: {} vs {}", f, before.bones[i], ma, mb);
                }
            }
        }
    }
}
