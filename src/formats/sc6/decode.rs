//! Decoded words → values and sampling at logical 60 Hz frames
//! (docs/formats/sc6-mot.md#selector-streams, docs/formats/sc6-mot.md#sampling), producing a `model::anim::Clip`.

use super::parse::{Bank, Channel, Header, StreamKind, decode_groups, layout, parse_bank, parse_header};
use super::raw::*;
use super::reject::{Reason, Sc6Error};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::DecodeOptions;
use crate::limits::Limits;
use crate::model::anim::{Clip, Key, Table, Track, Unit};
use std::f64::consts::{PI, TAU};

/// The logical transform an entry drives, if any (docs/formats/sc6-mot.md#selector-streams).
pub(in crate::formats) fn transform_of(kind: StreamKind, entry: usize) -> Option<usize> {
    match kind {
        StreamKind::Default => match entry {
            0..=22 => Some(entry),
            25..=42 => Some(23 + (entry - 25) / 2),
            _ => None,
        },
        StreamKind::Alternate => match entry {
            0 | 1 => Some(entry),
            2..=41 => Some(2 + (entry - 2) / 2),
            _ => None,
        },
        StreamKind::SkillCheck => None,
    }
}

/// Display name of a channel (the transform or vector it drives).
pub(in crate::formats) fn channel_name(kind: StreamKind, ch: &Channel, lr: LrOrder) -> String {
    if ch.sel == 0x16 {
        return "root".into();
    }
    match ch.sel {
        0x17 => return "aux17".into(),
        0x18 => return "aux18".into(),
        0x14 => return "aux14".into(),
        _ => {}
    }
    let base = match kind {
        StreamKind::SkillCheck => {
            let finger = FINGERS.get(ch.entry / 3).copied().unwrap_or("FINGER");
            format!("{finger}{}", 3 - ch.entry % 3)
        }
        StreamKind::Default => match transform_of(kind, ch.entry) {
            Some(t @ 0..=22) => lr.names().get(t).copied().unwrap_or("T").to_string(),
            Some(t) => format!("WEAPON{}", t - 22),
            None => format!("entry{}", ch.entry),
        },
        StreamKind::Alternate => match transform_of(kind, ch.entry) {
            Some(t) => format!("T{t:02}"),
            None => format!("entry{}", ch.entry),
        },
    };
    if matches!(ch.sel, 0x03 | 0x1A | 0x13) { format!("{base}.{}", sel_suffix(ch.sel)) } else { base }
}

fn sel_suffix(sel: u8) -> &'static str {
    match sel {
        0x03 | 0x1A => "t",
        0x13 => "s",
        _ => "raw",
    }
}

/// Root scale S for `flags` (docs/formats/sc6-mot.md#selector-streams).
pub(in crate::formats) fn root_scale(flags: u32) -> f64 {
    if flags & F_ROOT_SCALE_16000 != 0 { ROOT_SCALE_16000 } else { ROOT_SCALE_DEFAULT }
}

fn ix(v: &[f64], i: usize) -> f64 {
    v.get(i).copied().unwrap_or(0.0)
}

fn lerp3(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    let mut o = [0.0; 3];
    for ((o, x), y) in o.iter_mut().zip(a).zip(b) {
        *o = x + (y - x) * t;
    }
    o
}

fn word(w: &[i16], i: usize) -> i16 {
    w.get(i).copied().unwrap_or(0)
}

fn f32_pair(w: &[i16], i: usize) -> f64 {
    let lo = u32::from(word(w, i) as u16);
    let hi = u32::from(word(w, i + 1) as u16);
    f64::from(f32::from_bits(lo | hi << 16))
}

/// 0x02/0x19 axis-angle words → quaternion (x, y, z, w) (docs/formats/sc6-mot.md#selector-streams).
pub(in crate::formats) fn axis_angle(w0: i16, w1: i16, w2: i16) -> [f64; 4] {
    let angle = f64::from(w0) / 65536.0 * TAU;
    let az = f64::from(w1) / 65536.0 * TAU;
    let el = f64::from(w2) / 65536.0 * TAU;
    let axis = [az.cos() * el.cos(), el.sin(), -az.sin() * el.cos()];
    let (s, c) = (angle / 2.0).sin_cos();
    [s * axis[0], s * axis[1], s * axis[2], c]
}

/// 0x06 hinge word → quaternion about Z.
pub(in crate::formats) fn hinge(w: f64) -> [f64; 4] {
    let turns = w / 65536.0;
    [0.0, 0.0, (PI * turns).sin(), (PI * turns).cos()]
}

/// Hinge interpolation: shift `f` by ±0x10000 until `c - f ∈ [-0x8000, 0x7FFF]`, then lerp.
pub(in crate::formats) fn hinge_lerp(c: i16, f: i16, alpha: f64) -> [f64; 4] {
    let c = f64::from(c);
    let mut f = f64::from(f);
    while c - f > f64::from(0x7FFF) {
        f += 65536.0;
    }
    while c - f < -f64::from(0x8000) {
        f -= 65536.0;
    }
    hinge((1.0 - alpha) * c + alpha * f)
}

/// Shortest-arc slerp (nlerp when nearly parallel), as the reference does.
pub(in crate::formats) fn slerp(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    let mut dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let mut b = b;
    if dot < 0.0 {
        b = [-b[0], -b[1], -b[2], -b[3]];
        dot = -dot;
    }
    let mix = |wa: f64, wb: f64| {
        let mut q = [0.0; 4];
        for ((o, x), y) in q.iter_mut().zip(a).zip(b) {
            *o = wa * x + wb * y;
        }
        q
    };
    if dot > 0.9995 {
        let q = mix(1.0 - t, t);
        let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        return if n > 0.0 { q.map(|v| v / n) } else { a };
    }
    let theta = dot.min(1.0).acos();
    let s = theta.sin();
    mix(((1.0 - t) * theta).sin() / s, (t * theta).sin() / s)
}

/// Facing interpolation in turns: shortest arc, lerp, wrap into [-0.5, 0.5).
pub(in crate::formats) fn facing_lerp(cur: f64, next: f64, alpha: f64) -> f64 {
    let mut n = next;
    if n - cur > 0.5 {
        n -= 1.0;
    } else if n - cur < -0.5 {
        n += 1.0;
    }
    let v = cur + (n - cur) * alpha;
    (v + 0.5).rem_euclid(1.0) - 0.5
}

/// Rotate root X/Z about +Y by the base turn (docs/formats/sc6-mot.md#selector-streams).
pub(in crate::formats) fn base_turn_rotate(x: f64, z: f64, turns: f64) -> (f64, f64) {
    let (s, c) = (turns * TAU).sin_cos();
    (c * x + s * z, -s * x + c * z)
}

/// Root (x, y, z) before the base turn, and facing in turns, from one keyframe.
pub(in crate::formats) fn root_values(w: &[i16], o: usize, flags: u32) -> ([f64; 3], f64) {
    let s = root_scale(flags);
    if flags & F_F32 != 0 {
        ([f32_pair(w, o) * s, f32_pair(w, o + 2) * s, f32_pair(w, o + 4) * s], f64::from(word(w, o + 6)) / 65536.0)
    } else {
        (
            [f64::from(word(w, o)) * s, f64::from(word(w, o + 1)) * s, f64::from(word(w, o + 2)) * s],
            f64::from(word(w, o + 3)) / 65536.0,
        )
    }
}

/// 0x17/0x18 vector: i16 × 0.001, or f32 pairs unscaled with bit 28.
pub(in crate::formats) fn aux_vector(w: &[i16], o: usize, flags: u32) -> [f64; 3] {
    if flags & F_F32 != 0 {
        [f32_pair(w, o), f32_pair(w, o + 2), f32_pair(w, o + 4)]
    } else {
        [0, 1, 2].map(|i| f64::from(word(w, o + i)) * 0.001)
    }
}

/// (keyframe, alpha) sampled at logical frame `f` (docs/formats/sc6-mot.md#sampling).
pub(in crate::formats) fn sample_pos(h: &Header, f: f64) -> (usize, f64) {
    let s = (f * h.rate()).clamp(0.0, (h.effective - 1.0).max(0.0));
    let k = s.floor();
    let alpha = s - k;
    let k = k as usize;
    if alpha > 0.0 && (k as u64) + 1 < h.encoded { (k, alpha) } else { (k, 0.0) }
}

/// Parse a `clip:N` key: decimal or hex index below the slot count, else a packed motion id.
/// Returns (slot, note about a packed id).
pub(in crate::formats) fn resolve_key(key: &str, slots: usize) -> Result<(usize, Option<String>)> {
    let bad = |why: String| ParseError::new(0, ErrorKind::NotFound(why));
    let body = key.strip_prefix("clip:").ok_or_else(|| bad(format!("{key}: sc6 decodes clip:N keys")))?;
    let t = body.trim().replace('_', "");
    let n = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else {
        t.parse::<u64>()
    }
    .map_err(|_| bad(format!("clip {body}: not a number (use 181, 0xb5 or a packed id like 0x10B5)")))?;
    if (n as usize) < slots && n < (1 << 32) {
        return Ok((n as usize, None));
    }
    if n == 0xFFFF {
        return Err(bad("packed motion id 0xffff means no motion".into()));
    }
    let range = if slots == 0 { "no slots".to_string() } else { format!("{slots} slots, clip 0..{}", slots - 1) };
    // Below 0x800 a packed id names the clip it equals: the user typed an index past the end.
    if n < 0x800 {
        return Err(bad(format!("clip {body} is past the end: this bank has {range}")));
    }
    if n <= 0xFFFF {
        let bank = (n >> 12) & 0xF;
        let clip = (n & 0x7FF) as usize;
        let which = match bank {
            0 => "bank 0 (the character's own chrXXX.mot)".to_string(),
            1 => "bank 1 (the shared body-motion bank chr000.mot)".to_string(),
            b => format!("bank {b} (not proven to exist; the reference tools reject it)"),
        };
        if clip >= slots {
            return Err(bad(format!(
                "clip {body} is not a slot of this bank ({range}); read as a packed motion id, 0x{n:04x} names \
                 clip 0x{clip:x} (= id & 0x7ff) of {which}, which this bank does not have"
            )));
        }
        let note = format!(
            "packed motion id 0x{n:04x}: {which}, clip 0x{clip:x} (= id & 0x7ff); decoded clip 0x{clip:x} of this file{}",
            if bank == 0 { "" } else { " as given — open the bank it names to be sure" }
        );
        return Ok((clip, Some(note)));
    }
    Err(bad(format!("clip {body} is past the end: this bank has {range}")))
}

/// A clip's stream choice: the `--stream` override, else by flag bit 15.
pub(in crate::formats) fn choose_stream(h: &Header, opts: &DecodeOptions) -> Result<(StreamKind, String)> {
    match &opts.stream {
        Some(s) => {
            let k = StreamKind::parse(s).ok_or_else(|| {
                ParseError::new(
                    0,
                    ErrorKind::NotFound(format!("stream {s}: expected default, alternate or skill-check")),
                )
            })?;
            Ok((k, format!("selector stream: {} (--stream override)", k.name())))
        }
        None => {
            let k = StreamKind::from_flags(h.flags);
            let why = if h.flags & F_ALT_STREAM != 0 { "flag 0x8000 set" } else { "flag 0x8000 clear" };
            Ok((k, format!("selector stream: {} ({why})", k.name())))
        }
    }
}

/// Keyframe `k`'s words (empty past the last).
pub(super) fn key_words(words: &[i16], wc: usize, k: usize) -> &[i16] {
    words.get(k.saturating_mul(wc)..k.saturating_add(1).saturating_mul(wc)).unwrap_or(&[])
}

/// Root x, y, z (base turn applied) and facing (radians) of the 0x16 channel at words
/// `o..`, between keyframes `k` and `k + 1` at `a` (docs/formats/sc6-mot.md#selector-streams, docs/formats/sc6-mot.md#sampling).
fn root_at(words: &[i16], wc: usize, h: &Header, o: usize, k: usize, a: f64) -> [f64; 4] {
    let (p0, f0) = root_values(key_words(words, wc, k), o, h.flags);
    let (p, f) = if a > 0.0 {
        let (p1, f1) = root_values(key_words(words, wc, k + 1), o, h.flags);
        (lerp3(p0, p1, a), facing_lerp(f0, f1, a))
    } else {
        (p0, facing_lerp(f0, f0, 0.0))
    };
    let (x, z) = base_turn_rotate(p[0], p[2], h.base_turn());
    [x, p[1], z, f * TAU]
}

/// The quaternion (x, y, z, w) of a rotation channel (selector `sel`: 0x02, 0x19
/// axis-angle, 0x06 hinge) at words `o..`, between keyframes `k` and `k + 1` at `a`.
pub(super) fn quat_at(words: &[i16], wc: usize, sel: u8, o: usize, k: usize, a: f64) -> [f64; 4] {
    let w0 = key_words(words, wc, k);
    if sel == 0x06 {
        let c0 = word(w0, o);
        if a > 0.0 { hinge_lerp(c0, word(key_words(words, wc, k + 1), o), a) } else { hinge(f64::from(c0)) }
    } else {
        let q0 = axis_angle(word(w0, o), word(w0, o + 1), word(w0, o + 2));
        if a > 0.0 {
            let w1 = key_words(words, wc, k + 1);
            slerp(q0, axis_angle(word(w1, o), word(w1, o + 1), word(w1, o + 2)), a)
        } else {
            q0
        }
    }
}

/// Poses of a default-stream clip made one frame at a time from the decoded words, with
/// the same sampling and composition as the stored poses (`pose::build` over the tracks):
/// memory for the words and one frame, whatever the frame count.
fn poses_on_demand(
    words: std::sync::Arc<Vec<i16>>,
    h: &Header,
    chans: &[Channel],
    lr: LrOrder,
    root_only: bool,
    frames: usize,
) -> (crate::model::anim::PoseSeq, crate::model::anim::PosesOnDemand) {
    let wc = usize::try_from(h.wc).unwrap_or(0);
    // The first channel of each kind wins, as `Clip::track` finds the first track by name.
    let root = chans.iter().find(|c| c.sel == 0x16).map(|c| c.word);
    let poser = super::pose::Poser::new(lr, h.base_turn(), root_only, root.is_some());
    let quats: Vec<Option<(u8, usize)>> = poser
        .names()
        .iter()
        .map(|bone| {
            if root_only {
                return None;
            }
            chans
                .iter()
                .find(|c| matches!(c.sel, 0x02 | 0x19 | 0x06) && channel_name(StreamKind::Default, c, lr) == *bone)
                .map(|c| (c.sel, c.word))
        })
        .collect();
    let head = poser.seq(Vec::new());
    let h = h.clone();
    let make = move |f: usize| {
        let (k, a) = sample_pos(&h, f as f64);
        let quat = |i: usize| {
            let (sel, o) = quats.get(i).copied().flatten()?;
            Some(quat_at(&words, wc, sel, o, k, a).map(|v| v as f32))
        };
        let r = root.map(|o| root_at(&words, wc, &h, o, k, a)).unwrap_or([0.0; 4]);
        poser.frame(&quat, [r[0] as f32, r[1] as f32, r[2] as f32])
    };
    (head, crate::model::anim::PosesOnDemand::new(frames, make))
}

/// What a clip's tracks are made from: the decoded words and the sampling positions,
/// owned, so the tracks can be made later one channel at a time
/// (`DecodeOptions::tracks_on_demand`) as well as all at once.
struct TrackSource {
    /// (keyframe, alpha) of every logical frame (docs/formats/sc6-mot.md#sampling).
    positions: Vec<(usize, f64)>,
    words: std::sync::Arc<Vec<i16>>,
    /// Words per keyframe.
    wc: usize,
    h: Header,
    nkeys: usize,
    /// Per-key detail text and the word table (not for curves-only decodes).
    text: bool,
    /// Stored keys kept (tracks × keyframes within the key limit).
    with_keys: bool,
}

impl TrackSource {
    fn key_of(&self, k: usize) -> &[i16] {
        key_words(&self.words, self.wc, k)
    }

    fn key_frame(&self, k: usize) -> f64 {
        k as f64 / self.h.rate()
    }

    /// Row `k` of the decoded-words table: key, frame, group, then the words.
    fn word_row(&self, k: usize) -> Vec<String> {
        let mut row = vec![k.to_string(), crate::model::fmt_num(self.key_frame(k)), (k / 8).to_string()];
        row.extend(self.key_of(k).iter().map(|w| w.to_string()));
        row
    }

    /// Keys and samples of every track channel `ch` makes, in track order: root x, y, z,
    /// facing; quaternion x, y, z, w; vector x, y, z; else one raw word per track.
    fn channel(&self, ch: &Channel) -> Vec<(Vec<Key>, Vec<f64>)> {
        self.channel_with(ch, self.text)
    }

    /// The detail text of key `k` of channel `ch` (its stored words).
    fn key_detail(&self, ch: &Channel, k: usize) -> String {
        let w = self.key_of(k);
        let ws: Vec<String> = (0..ch.words).map(|j| word(w, ch.word + j).to_string()).collect();
        format!("key {k} words [{}]", ws.join(", "))
    }

    /// [`TrackSource::channel`], with the keys' detail text only when `text`.
    fn channel_with(&self, ch: &Channel, text: bool) -> Vec<(Vec<Key>, Vec<f64>)> {
        let (words, wc, h, o) = (&self.words[..], self.wc, &self.h, ch.word);
        let detail = |k: usize| if text { self.key_detail(ch, k) } else { String::new() };
        let keys_of = |vals: &dyn Fn(usize) -> f64| -> Vec<Key> {
            if !self.with_keys {
                return Vec::new();
            }
            (0..self.nkeys).map(|k| Key { frame: self.key_frame(k), value: vals(k), detail: detail(k) }).collect()
        };
        // `n` components of a vector value sampled between keyframes.
        let vector = |n: usize, at: &dyn Fn(usize, f64) -> [f64; 4]| {
            let vals: Vec<[f64; 4]> = self.positions.iter().map(|&(k, a)| at(k, a)).collect();
            (0..n).map(|i| (keys_of(&|k| ix(&at(k, 0.0), i)), vals.iter().map(|v| ix(v, i)).collect())).collect()
        };
        match ch.sel {
            0x16 => vector(4, &|k, a| root_at(words, wc, h, o, k, a)),
            0x02 | 0x19 | 0x06 => vector(4, &|k, a| quat_at(words, wc, ch.sel, o, k, a)),
            0x17 | 0x18 => vector(3, &|k, a| {
                let v0 = aux_vector(self.key_of(k), o, h.flags);
                let [x, y, z] = if a > 0.0 { lerp3(v0, aux_vector(self.key_of(k + 1), o, h.flags), a) } else { v0 };
                [x, y, z, 0.0]
            }),
            _ => (0..ch.words)
                .map(|j| {
                    // raw words, held per keyframe
                    let at = |k: usize| f64::from(word(self.key_of(k), o + j));
                    (keys_of(&at), self.positions.iter().map(|&(k, _)| at(k)).collect())
                })
                .collect(),
        }
    }
}

/// The tracks of `made` (channel and component of each track) and the word table's rows
/// made on demand from `src`. Tracks are asked for in order, so the last channel's tracks
/// are kept until another channel's are asked for: each channel is made once.
fn tracks_on_demand(
    src: TrackSource,
    chans: Vec<Channel>,
    made: Vec<(usize, usize)>,
    table_rows: Vec<usize>,
) -> crate::model::anim::TracksOnDemand {
    type Made = Option<(usize, Vec<(Vec<Key>, Vec<f64>)>)>;
    let src = std::sync::Arc::new(src);
    let (chans, made) = (std::sync::Arc::new(chans), std::sync::Arc::new(made));
    // Track `i` of channel-wise made tracks, `text` saying whether keys carry their detail.
    let maker = |text: bool| {
        let (src, chans, made) = (src.clone(), chans.clone(), made.clone());
        let last: std::sync::Mutex<Made> = std::sync::Mutex::new(None);
        move |i: usize| {
            let Some(&(ci, j)) = made.get(i) else { return (Vec::new(), Vec::new()) };
            let Some(ch) = chans.get(ci) else { return (Vec::new(), Vec::new()) };
            let mut last = last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.as_ref().is_none_or(|(c, _)| *c != ci) {
                *last = Some((ci, src.channel_with(ch, text && src.text)));
            }
            last.as_ref().and_then(|(_, t)| t.get(j)).cloned().unwrap_or_default()
        }
    };
    let (track, curves) = (maker(true), maker(false));
    let rows_src = src.clone();
    let detail = move |i: usize, k: usize| {
        let ch = made.get(i).and_then(|&(ci, _)| chans.get(ci));
        match ch {
            Some(ch) if src.text && src.with_keys && k < src.nkeys => src.key_detail(ch, k),
            _ => String::new(),
        }
    };
    crate::model::anim::TracksOnDemand::new(track, table_rows, move |_, k| rows_src.word_row(k))
        .with_curves(curves, detail)
}

fn err(e: Sc6Error, slot: usize) -> ParseError {
    e.within(format!("clip[{slot}]")).err
}

/// Decode slot `key` of the bank in `data`.
pub(in crate::formats) fn decode(data: &[u8], key: &str, opts: &DecodeOptions, limits: &Limits) -> Result<Clip> {
    let bytes = Bytes::new(data);
    let bank: Bank = parse_bank(bytes).map_err(|e| e.err)?;
    let (slot, packed_note) = resolve_key(key, bank.offsets.len())?;
    decode_slot_of(bytes, &bank, slot, packed_note, opts, limits)
}

/// Decode table slot `slot` (a slot the bank's listing minted: no key to read again).
pub(in crate::formats) fn decode_slot(data: &[u8], slot: usize, opts: &DecodeOptions, limits: &Limits) -> Result<Clip> {
    let bytes = Bytes::new(data);
    let bank: Bank = parse_bank(bytes).map_err(|e| e.err)?;
    if slot >= bank.offsets.len() {
        // a slot of another bank: say so as the key would
        return decode(data, &format!("clip:{slot}"), opts, limits);
    }
    decode_slot_of(bytes, &bank, slot, None, opts, limits)
}

fn decode_slot_of(
    bytes: Bytes<'_>,
    bank: &Bank,
    slot: usize,
    packed_note: Option<String>,
    opts: &DecodeOptions,
    limits: &Limits,
) -> Result<Clip> {
    let lr = LrOrder::parse(opts.extra.get("lr_order").map(String::as_str))
        .map_err(|m| ParseError::new(0, ErrorKind::NotFound(m)))?;
    let root_only = opts.extra.get("root_only").is_some_and(|v| v != "false" && v != "0");
    let owner = bank.alias_of.get(slot).copied().flatten().unwrap_or(slot);
    let clip = slot_clip(bytes, bank, slot, owner)?;
    let h = parse_header(clip).map_err(|e| err(e, slot))?;
    let dec = decode_groups(clip, &h, limits, 0);
    if let Some(e) = dec.failure {
        return Err(err(e, slot));
    }
    let (kind, stream_note) = choose_stream(&h, opts)?;
    let chans = layout(kind, &h).map_err(|e| err(e, slot))?;
    let frames = usize::try_from(h.playback).unwrap_or(0);
    let wc = usize::try_from(h.wc).unwrap_or(0);
    let work = (frames as u64).saturating_mul(h.wc.max(1));
    Limits::check("sampled words", work, limits.max_decode_work, clip.start())
        .map_err(|e| e.within(format!("clip[{slot}]")))?;
    let mut c = Clip::new(format!("clip {slot} (0x{slot:x})"), 60.0, frames);
    c.notes
        .push("authored mot sample: decoded from the .mot alone (no IK, retracking, overlays or spring work)".into());
    if let Some(n) = packed_note {
        c.notes.push(n);
    }
    if owner != slot {
        c.notes.push(format!("slot {slot} is an alias of slot {owner} (same payload)"));
    }
    c.notes.push(stream_note);
    header_notes(&mut c, &h, bank, kind, lr);
    if opts.poses_on_demand && !opts.curves_only && kind == StreamKind::Default {
        // For exports written frame by frame: no tracks, no word table, poses on demand.
        let (head, lazy) = poses_on_demand(std::sync::Arc::new(dec.words), &h, &chans, lr, root_only, frames);
        c.poses = Some(head);
        c.on_demand = Some(lazy);
        c.notes.push("poses made frame by frame (export); tracks and tables left out".into());
        return Ok(c);
    }
    let rate = h.rate();
    let nkeys = usize::try_from(h.encoded).unwrap_or(0);
    // `curves_only`: no word table and no per-key text (the plot needs neither)
    let text = !opts.curves_only;
    // Keys repeat the stored words per track: bound them (samples are always kept).
    let track_count = track_count(&chans);
    let with_keys = (track_count as u64).saturating_mul(nkeys as u64) <= limits.max_keys as u64;
    if !opts.tracks_on_demand {
        let poses = !opts.curves_only && kind == StreamKind::Default;
        let needed = StoredSize { track_count, nkeys, frames, wc, text, poses }.bytes(limits);
        limits
            .spend_clip("the clip's samples, keys and poses", needed, clip.start())
            .map_err(|e| e.within(format!("clip[{slot}]")))?;
    }
    let src = TrackSource {
        positions: (0..frames).map(|f| sample_pos(&h, f as f64)).collect(),
        words: std::sync::Arc::new(dec.words),
        wc,
        h: h.clone(),
        nkeys,
        text,
        with_keys,
    };
    let mut table_rows = Vec::new();
    if text {
        let (table, rows) = word_table(&mut c, &src, &chans, kind, lr, limits, opts.tracks_on_demand);
        table_rows.push(rows);
        c.tables.push(table);
    }
    if !with_keys {
        c.notes.push(format!(
            "stored keys omitted: {track_count} tracks × {nkeys} keyframes exceed the key limit {}; the word table and samples are complete",
            limits.max_keys
        ));
    }
    // Track names, targets and units per channel (the keys and samples come after, from
    // `TrackSource::channel`); `made[i]` is the channel and component of track `i`.
    let (made, unknown_sels) = track_heads(&mut c, &chans, &h, kind, lr, root_only);
    let words = src.words.clone();
    if opts.tracks_on_demand {
        c.tracks_on_demand = Some(tracks_on_demand(src, chans.clone(), made, table_rows));
    } else {
        let mut tracks = c.tracks.iter_mut();
        let mut last = None;
        for &(ci, _) in &made {
            if last == Some(ci) {
                continue;
            }
            last = Some(ci);
            let Some(ch) = chans.get(ci) else { continue };
            for ((keys, samples), t) in src.channel(ch).into_iter().zip(tracks.by_ref()) {
                t.keys = keys;
                t.samples = samples;
            }
        }
    }
    channel_notes(&mut c, &chans, &h, kind, &unknown_sels);
    if opts.curves_only {
        // poses are for export; curves-only callers plot
    } else if kind == StreamKind::Default {
        add_poses(&mut c, words, &h, &chans, lr, root_only, opts.tracks_on_demand);
    } else {
        c.notes.push(format!("no poses: the {} stream has no known skeleton mapping", kind.name()));
    }
    if rate < 1.0 && h.effective.fract() != 0.0 {
        c.notes.push("the last logical frames clamp onto the final keyframe without a partner".into());
    }
    Ok(c)
}

/// The bytes of the clip at `slot` (its payload is `owner`'s); an unusable offset is the
/// bank's problem at the slot, or said as such.
fn slot_clip<'a>(bytes: Bytes<'a>, bank: &Bank, slot: usize, owner: usize) -> Result<Bytes<'a>> {
    bank.clip(bytes, owner).ok_or_else(|| {
        let at = bank.slot_at(slot);
        let e = bank.problems.iter().find(|p| p.err.offset == at).cloned().unwrap_or_else(|| {
            Sc6Error::bad(Reason::OffsetPastEof, at, format!("slot {slot}"), "the slot's offset is unusable")
        });
        err(e, slot)
    })
}

/// The tracks the channels make: four for the root and rotations, three for the auxiliary
/// vectors, one per word for any other selector.
fn track_count(chans: &[Channel]) -> usize {
    chans
        .iter()
        .map(|c| match c.sel {
            0x16 | 0x02 | 0x19 | 0x06 => 4,
            0x17 | 0x18 => 3,
            _ => c.words,
        })
        .sum()
}

/// The notes every decoded clip carries: its frame counts and rate, the bank's problems,
/// and how far the names of its stream's transforms are known.
fn header_notes(c: &mut Clip, h: &Header, bank: &Bank, kind: StreamKind, lr: LrOrder) {
    c.notes.push(format!(
        "frame_count {}, playback {} logical frames, {} stored keyframes ({}), {} words each",
        h.frame_count,
        h.playback,
        h.encoded,
        match h.rate() {
            0.5 => "half rate: logical frame 2k is keyframe k, odd frames blend",
            0.25 => "quarter rate: logical frame 4k is keyframe k",
            _ => "one per logical frame",
        },
        h.wc
    ));
    for p in &bank.problems {
        c.notes.push(format!("bank problem: {}", p.err));
    }
    if kind == StreamKind::Default {
        c.notes.push(format!(
            "transform names: lr_order={} ({}); the game enum lists R before L, HorseMod L before R — unresolved (docs/formats/sc6-mot.md#open-questions)",
            match lr {
                LrOrder::HorseMod => "horsemod",
                LrOrder::Enum => "enum",
            },
            match lr {
                LrOrder::HorseMod => "HorseMod table, default",
                LrOrder::Enum => "game enum",
            }
        ));
    }
    if kind == StreamKind::SkillCheck {
        c.notes.push(
            "skill-check names OYA/HITO/NAKA/KUSU/KO joints 3,2,1 are an [I] reading (five fingers of one hand)".into(),
        );
    }
    if kind == StreamKind::Alternate {
        c.notes.push("alternate stream transforms T02..T21 are unnamed ([D/I]: 22 logical transforms)".into());
    }
}

/// What a clip decoded with everything stored holds, for the memory budget: samples, keys,
/// the word table and poses all follow the frame count (65,535 frames from a few KB).
struct StoredSize {
    track_count: usize,
    nkeys: usize,
    frames: usize,
    wc: usize,
    text: bool,
    poses: bool,
}

impl StoredSize {
    /// The bytes spent from the memory budget before they are made.
    fn bytes(&self, limits: &Limits) -> u64 {
        let StoredSize { track_count, nkeys, frames, wc, text, poses } = *self;
        let with_keys = (track_count as u64).saturating_mul(nkeys as u64) <= limits.max_keys as u64;
        let key_bytes = std::mem::size_of::<Key>() as u64 + if text { 32 } else { 0 };
        let keys =
            if with_keys { (track_count as u64).saturating_mul(nkeys as u64).saturating_mul(key_bytes) } else { 0 };
        let table = if text {
            let rows = nkeys.min((limits.max_keys / wc.max(1)).max(1)) as u64;
            rows.saturating_mul(wc as u64 + 3).saturating_mul(24 + 8)
        } else {
            0
        };
        let poses = if poses { (frames as u64).saturating_mul(32 * 64) } else { 0 };
        let samples = (track_count as u64).saturating_mul(frames as u64).saturating_mul(8);
        samples.saturating_add(keys).saturating_add(table).saturating_add(poses)
    }
}

/// The table of decoded words per keyframe (its rows made now unless the tracks are made
/// on demand) and the rows it has, cut at the key limit.
fn word_table(
    c: &mut Clip,
    src: &TrackSource,
    chans: &[Channel],
    kind: StreamKind,
    lr: LrOrder,
    limits: &Limits,
    on_demand: bool,
) -> (Table, usize) {
    let (wc, nkeys) = (src.wc, src.nkeys);
    // decoded words table
    let mut labels: Vec<String> = (0..wc).map(|i| format!("w{i}")).collect();
    for ch in chans {
        let n = channel_name(kind, ch, lr);
        for j in 0..ch.words {
            if let Some(l) = labels.get_mut(ch.word + j) {
                *l = format!("w{} {n}[{j}]", ch.word + j);
            }
        }
    }
    let mut table = Table {
        name: "decoded words per keyframe".into(),
        columns: vec!["key".into(), "frame".into(), "group".into()],
        rows: Vec::new(),
    };
    table.columns.extend(labels);
    let max_rows = (limits.max_keys / wc.max(1)).max(1);
    if nkeys > max_rows {
        c.notes.push(format!("word table cut at {max_rows} of {nkeys} keyframes (key limit {})", limits.max_keys));
    }
    let rows = nkeys.min(max_rows);
    if !on_demand {
        table.rows = (0..rows).map(|k| src.word_row(k)).collect();
    }
    (table, rows)
}

/// Track names, targets and units per channel (the keys and samples come after, from
/// `TrackSource::channel`); returns the channel and component of each track and the
/// selectors whose scaling is unknown.
fn track_heads(
    c: &mut Clip,
    chans: &[Channel],
    h: &Header,
    kind: StreamKind,
    lr: LrOrder,
    root_only: bool,
) -> (Vec<(usize, usize)>, Vec<String>) {
    let mut made: Vec<(usize, usize)> = Vec::new();
    let mut unknown_sels = Vec::new();
    for (ci, ch) in chans.iter().enumerate() {
        if root_only && ch.sel != 0x16 {
            continue;
        }
        let name = channel_name(kind, ch, lr);
        let o = ch.word;
        let heads: Vec<(String, String, Unit, bool)> = match ch.sel {
            0x16 => {
                c.notes.push(format!(
                    "root: selector 0x16 at words {o}..{}; scale {} m per unit{}; x/z rotated by base turn {} turns; facing in radians (turns × 2π, wrapped to [-π, π)); translation is an absolute offset from the clip origin",
                    o + ch.words,
                    root_scale(h.flags),
                    if h.flags & F_F32 != 0 { ", f32 values (bit 28) still × S" } else { "" },
                    h.base_turn()
                ));
                [("x", Unit::Metres), ("y", Unit::Metres), ("z", Unit::Metres), ("facing", Unit::Radians)]
                    .into_iter()
                    .map(|(suffix, unit)| (format!("root.{suffix}"), "root".to_string(), unit, false))
                    .collect()
            }
            0x02 | 0x19 | 0x06 => ["qx", "qy", "qz", "qw"]
                .into_iter()
                .map(|suffix| (format!("{name}.{suffix}"), name.clone(), Unit::QuatComponent, false))
                .collect(),
            0x17 | 0x18 => ["x", "y", "z"]
                .into_iter()
                .map(|suffix| (format!("{name}.{suffix}"), name.clone(), Unit::Unitless, false))
                .collect(),
            _ => {
                unknown_sels.push(format!("0x{:02x} ({name})", ch.sel));
                (0..ch.words).map(|j| (format!("{name}.w{j}"), name.clone(), Unit::RawWord, true)).collect()
            }
        };
        for (j, (name, target, unit, unknown)) in heads.into_iter().enumerate() {
            c.tracks.push(Track { name, target, unit, keys: Vec::new(), samples: Vec::new(), unknown });
            made.push((ci, j));
        }
    }
    (made, unknown_sels)
}

/// What the clip's channels leave open: auxiliary vectors, 0x19 rotations, selectors of
/// unknown scaling, a missing root.
fn channel_notes(c: &mut Clip, chans: &[Channel], h: &Header, kind: StreamKind, unknown_sels: &[String]) {
    if chans.iter().any(|c| matches!(c.sel, 0x17 | 0x18)) {
        c.notes.push(format!(
            "aux17/aux18: {} (auxiliary scratch vectors, not bones)",
            if h.flags & F_F32 != 0 {
                "f32 values, unscaled as the reference does (whether native applies S is open)"
            } else {
                "i16 × 0.001"
            }
        ));
    }
    if chans.iter().any(|c| c.sel == 0x19) {
        c.notes.push(
            "0x19 rotations use the 0x02 axis-angle conversion: the reference names them together but only exercises 0x02 (open question 4)"
                .into(),
        );
    }
    if !unknown_sels.is_empty() {
        c.notes.push(format!(
            "scaling unknown (docs/formats/sc6-mot.md#open-questions): {} shown as raw words, held per keyframe (not interpolated)",
            unknown_sels.join(", ")
        ));
    }
    if kind != StreamKind::SkillCheck && !chans.iter().any(|c| c.sel == 0x16) {
        c.notes.push("no active root channel (presence bit of selector 0x16 clear)".into());
    }
}

/// The clip's poses on the built-in skeleton (of the default stream), stored or made frame
/// by frame from the words.
fn add_poses(
    c: &mut Clip,
    words: std::sync::Arc<Vec<i16>>,
    h: &Header,
    chans: &[Channel],
    lr: LrOrder,
    root_only: bool,
    on_demand: bool,
) {
    let frames = c.frame_count;
    if on_demand {
        // The same poses, made frame by frame from the words (the tracks are not stored).
        let (head, lazy) = poses_on_demand(words, h, chans, lr, root_only, frames);
        c.poses = Some(head);
        c.on_demand = Some(lazy);
    } else {
        c.poses = Some(super::pose::build(c, lr, h.base_turn(), root_only));
    }
    c.notes.push(format!(
        "poses: built-in sc6 skeleton ({}), nominal rest offsets (not the game's NMD reference pose); pass --skeleton for real proportions",
        if root_only { "root curve only" } else { "32 logical transforms" }
    ));
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn hinge_interpolation_spec_vector() {
        // docs/formats/sc6-mot.md#selector-streams: c = 0x7FFF, f = -0x8000, α = 0.5 → q ≈ (0, 0, 1, <1e-4)
        let q = hinge_lerp(0x7FFF, -0x8000, 0.5);
        assert!(close(q[0], 0.0, 1e-12) && close(q[1], 0.0, 1e-12));
        assert!(close(q[2], 1.0, 1e-6), "{q:?}");
        assert!(q[3].abs() < 1e-4, "{q:?}");
    }

    #[test]
    fn base_turn_spec_vector() {
        // docs/formats/sc6-mot.md#selector-streams: raw (−0.903, 0.956, 0.024) with turn word 0x4000 becomes (0.024, 0.956, 0.903)
        let turns = f64::from(0x4000u16 & 0xF000) / 65536.0;
        assert_eq!(turns, 0.25);
        let (x, z) = base_turn_rotate(-0.903, 0.024, turns);
        assert!(close(x, 0.024, 1e-6) && close(z, 0.903, 1e-6), "{x} {z}");
    }

    #[test]
    fn fixture_b_quaternions_from_spec() {
        // docs/formats/sc6-mot.md#fixtures-a-and-b keyframe 0: 0x02 words (8192, 16384, 0) → (0, 0, −0.3826834, 0.9238795)
        let q = axis_angle(8192, 16384, 0);
        for (a, b) in q.iter().zip([0.0, 0.0, -0.3826834, 0.9238795]) {
            assert!(close(*a, b, 1e-7), "{q:?}");
        }
        // 0x06 word 4096 → (0, 0, 0.1950903, 0.9807853)
        let q = hinge(4096.0);
        for (a, b) in q.iter().zip([0.0, 0.0, 0.1950903, 0.9807853]) {
            assert!(close(*a, b, 1e-7), "{q:?}");
        }
    }

    #[test]
    fn facing_takes_the_short_way_and_wraps() {
        // 0.45 → -0.45 turns: the short way crosses ±0.5
        assert!(close(facing_lerp(0.45, -0.45, 0.5), -0.5, 1e-12));
        assert!(close(facing_lerp(0.1, 0.3, 0.5), 0.2, 1e-12));
        assert!(close(facing_lerp(-0.45, 0.45, 0.25), -0.475, 1e-12));
    }

    #[test]
    fn slerp_is_shortest_arc() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let b = [0.0, 0.0, -(PI / 4.0).sin(), -(PI / 4.0).cos()]; // same as +90° about z, negated
        let q = slerp(a, b, 0.5);
        assert!(close(q[2], (PI / 8.0).sin(), 1e-9) && close(q[3], (PI / 8.0).cos(), 1e-9), "{q:?}");
    }

    #[test]
    fn packed_ids_and_indices() {
        // docs/formats/sc6-mot.md#bank: packed 0x10B5 → bank 1, clip 0xB5
        let (slot, note) = resolve_key("clip:0x10B5", 300).unwrap();
        assert_eq!(slot, 0xB5);
        assert!(note.unwrap().contains("bank 1"));
        assert_eq!(resolve_key("clip:181", 300).unwrap(), (181, None));
        assert_eq!(resolve_key("clip:0xb5", 300).unwrap(), (181, None));
        // bit 11 is masked off
        assert_eq!(resolve_key("clip:0x08B5", 300).unwrap().0, 0xB5);
        assert!(resolve_key("clip:0xFFFF", 300).is_err());
        assert!(resolve_key("clip:x", 300).is_err());
        assert!(resolve_key("seq:a", 300).is_err());
        // an index past the end is said to be one, not explained as a packed id
        let msg = |k: &str, slots| resolve_key(k, slots).err().map(|e| e.kind.to_string()).unwrap_or_default();
        assert!(
            msg("clip:5", 5).contains("clip 5 is past the end: this bank has 5 slots, clip 0..4"),
            "{}",
            msg("clip:5", 5)
        );
        assert!(!msg("clip:500", 6).contains("packed"), "{}", msg("clip:500", 6));
        // a packed id naming a clip the bank lacks: both readings are named
        let m = msg("clip:0x10B5", 6);
        assert!(
            m.contains("not a slot of this bank (6 slots, clip 0..5)")
                && m.contains("clip 0xb5")
                && m.contains("bank 1"),
            "{m}"
        );
        assert!(msg("clip:70000", 6).contains("past the end"));
    }

    #[test]
    fn transforms_follow_entries() {
        assert_eq!(transform_of(StreamKind::Default, 1), Some(1));
        assert_eq!(transform_of(StreamKind::Default, 22), Some(22));
        assert_eq!(transform_of(StreamKind::Default, 23), None);
        assert_eq!(transform_of(StreamKind::Default, 25), Some(23));
        assert_eq!(transform_of(StreamKind::Default, 42), Some(31));
        assert_eq!(transform_of(StreamKind::Alternate, 41), Some(21));
    }
}
