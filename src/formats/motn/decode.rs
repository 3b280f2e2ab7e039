//! Keyframe evaluation (docs/formats/motn.md#evaluation) and the `model::anim::Clip` of a sequence.
//!
//! Each key is (time, in-tangent, out-tangent, value). Between keys A and B the value is a
//! cubic Hermite whose tangents are in units per second, scaled by the segment length in
//! seconds at 30 fps. An exact hit returns the first key at that time; after a duplicate
//! frame pair the curve restarts from the pair's second key (a step). Outside the keys the
//! end values hold. Rotation channels store **turns** (1.0 = 360°, docs/formats/motn.md#conventions); the clip's
//! rotation tracks carry radians (stored value × 2π, tangents likewise, which scales the
//! whole Hermite curve). Translations are model units [I].

use super::Channel;
use super::parse::{ChannelData, Sequence};
use super::raw::{FPS, HUMAN_KINDS, node_name};
use crate::model::anim::{Clip, Key, Table, Track, TracksOnDemand, Unit};
use crate::model::fmt_num;

/// A key ready for evaluation: frame time, tangents per second, value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct EvalKey {
    pub time: f64,
    pub in_t: f64,
    pub out_t: f64,
    pub value: f64,
}

/// Evaluation keys of a parsed channel, in the stored unit (turns for rotations).
#[cfg(test)]
pub(in crate::formats) fn eval_keys(c: &ChannelData) -> Vec<EvalKey> {
    let mut out = Vec::new();
    fill_eval_keys(c, 1.0, &mut out);
    out
}

/// [`eval_keys`] into a reused buffer (one allocation per clip, not per channel), values
/// and tangents multiplied by `scale` (the stored unit → the track's unit).
pub(in crate::formats) fn fill_eval_keys(c: &ChannelData, scale: f64, out: &mut Vec<EvalKey>) {
    out.clear();
    out.extend(c.keys.iter().map(|k| EvalKey {
        time: f64::from(k.frame),
        in_t: f64::from(k.in_tangent()) * scale,
        out_t: f64::from(k.out_tangent()) * scale,
        value: f64::from(k.value()) * scale,
    }));
}

/// Radians per stored rotation unit: rotations are stored in turns (docs/formats/motn.md#conventions).
pub(in crate::formats) const RAD_PER_TURN: f64 = std::f64::consts::TAU;

/// Factor from a channel's stored unit to its track unit: 2π for rotations (turns →
/// radians), 1 otherwise.
pub(in crate::formats) fn track_scale(c: Channel) -> f64 {
    if c.is_rotation() { RAD_PER_TURN } else { 1.0 }
}

/// The channel's value at time `t` (frames, may be fractional). Keys are used in stored
/// order; out-of-order keys give a defined (if meaningless) value, never a panic.
pub(in crate::formats) fn evaluate(keys: &[EvalKey], t: f64) -> f64 {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return 0.0 };
    if t <= first.time {
        return first.value;
    }
    if t >= last.time {
        return last.value;
    }
    if let Some(k) = keys.iter().find(|k| k.time == t) {
        return k.value;
    }
    // A = the last key with time <= t, B = the key after it.
    let Some(ai) = keys.iter().rposition(|k| k.time <= t) else { return first.value };
    let (Some(a), Some(b)) = (keys.get(ai), keys.get(ai + 1)) else { return last.value };
    hermite(a, b, t)
}

fn hermite(a: &EvalKey, b: &EvalKey, t: f64) -> f64 {
    Segment::new(a, b).map_or(a.value, |seg| seg.at(t))
}

/// The Hermite segment from key A to key B as a cubic in `u = t − A.time`, its
/// coefficients computed once per segment so a sample costs three multiply-adds and no
/// division. Sampling and [`evaluate`] share it, so their values are bit-identical.
#[derive(Debug, Clone, Copy)]
struct Segment {
    a_time: f64,
    c: [f64; 4],
}

impl Segment {
    /// None for an empty or backwards segment (the curve holds A's value).
    fn new(a: &EvalKey, b: &EvalKey) -> Option<Segment> {
        let d = b.time - a.time;
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        // In s = u / d: value = a·h00 + b·h01 + dsec·(out_a·h10 + in_b·h11) with the
        // Hermite basis h00 = 2s³−3s²+1, h01 = −2s³+3s², h10 = s³−2s²+s, h11 = s³−s².
        let dsec = d / FPS;
        let (av, bv, ao, bi) = (a.value, b.value, a.out_t * dsec, b.in_t * dsec);
        let s_coeffs = [av, ao, 3.0 * (bv - av) - 2.0 * ao - bi, 2.0 * (av - bv) + ao + bi];
        let inv = 1.0 / d;
        Some(Segment {
            a_time: a.time,
            c: [s_coeffs[0], s_coeffs[1] * inv, s_coeffs[2] * inv * inv, s_coeffs[3] * inv * inv * inv],
        })
    }

    #[inline]
    fn at(&self, t: f64) -> f64 {
        let u = t - self.a_time;
        let [c0, c1, c2, c3] = self.c;
        c0 + u * (c1 + u * (c2 + u * c3))
    }
}

/// Values at integer frames 0..n−1 with a moving cursor (same result as [`evaluate`] at
/// integer times for keys in order; falls back to it otherwise).
pub(in crate::formats) fn sample(keys: &[EvalKey], frames: usize) -> Vec<f64> {
    let sorted = keys.windows(2).all(|w| w.first().map(|a| a.time) <= w.get(1).map(|b| b.time));
    if !sorted {
        return (0..frames).map(|f| evaluate(keys, f as f64)).collect();
    }
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return vec![0.0; frames] };
    // Frames ascend, so the first key with time >= t only moves forward: walk the keys once
    // and fill each segment's frames in one run (same key choice and the same arithmetic as
    // `evaluate_sorted`, so the values are bit-identical).
    let mut out = Vec::with_capacity(frames);
    let mut f = 0usize;
    while f < frames && f as f64 <= first.time {
        out.push(first.value);
        f += 1;
    }
    let mut i = 0usize;
    while f < frames && (f as f64) < last.time {
        let t = f as f64;
        while keys.get(i).is_some_and(|k| k.time < t) {
            i += 1;
        }
        let (Some(a), Some(b)) = (i.checked_sub(1).and_then(|a| keys.get(a)), keys.get(i)) else { break };
        if b.time == t {
            out.push(b.value);
            f += 1;
            continue;
        }
        // Every integer frame in (a.time, b.time): b stays the first key at or after it.
        let end = (b.time.ceil() as usize).clamp(f + 1, frames);
        match Segment::new(a, b) {
            Some(seg) => out.extend((f..end).map(|g| seg.at(g as f64))),
            None => out.resize(end, a.value),
        }
        f = end;
    }
    out.resize(frames, last.value);
    debug_assert!(out.iter().enumerate().all(|(f, v)| v.to_bits() == evaluate_sorted(keys, f as f64).to_bits()));
    out
}

pub(in crate::formats) fn evaluate_sorted(keys: &[EvalKey], t: f64) -> f64 {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return 0.0 };
    if t <= first.time {
        return first.value;
    }
    if t >= last.time {
        return last.value;
    }
    // first index with time >= t
    let i = keys.partition_point(|k| k.time < t);
    if let Some(k) = keys.get(i)
        && k.time == t
    {
        return k.value;
    }
    // last key with time <= t is i-1 (all before i are < t)
    match (i.checked_sub(1).and_then(|a| keys.get(a)), keys.get(i)) {
        (Some(a), Some(b)) => hermite(a, b, t),
        _ => last.value,
    }
}

/// Track name of a channel: `<node name>.<channel>`.
pub(in crate::formats) fn track_name(kind_word: u16, c: &ChannelData) -> String {
    format!("{}.{}", node_name(kind_word, c.node), c.channel.name())
}

/// The unit of a channel's stored values, for tables: `turns` (values; tangents per second).
fn stored_unit(c: Channel) -> &'static str {
    if c.is_rotation() {
        "turns"
    } else if c.is_translation() {
        "units"
    } else {
        ""
    }
}

fn unit(c: Channel) -> Unit {
    if c.is_rotation() {
        Unit::Radians
    } else if c.is_translation() {
        Unit::GameUnits
    } else {
        Unit::Unitless
    }
}

fn num(v: f32) -> String {
    // Code-0 keys and flat tangents are zeros: skip the float formatter for them.
    if v == 0.0 && v.is_sign_positive() { "0.0".to_string() } else { fmt_num(f64::from(v)) }
}

/// Bytes a stored clip of `seq` is estimated to hold (`detail`: with the keys' text and the
/// tables): every track's samples (8 bytes a frame), its keys, and with detail the keys'
/// text and the keys table (nine cells a key). The samples follow the frame count, not the
/// file's bytes (32,767 frames × 381 tracks are 100 MB from 2.6 KB), so a stored decode
/// spends them from the memory budget first.
pub(in crate::formats) fn stored_bytes(seq: &Sequence, detail: bool) -> u64 {
    let n = u64::from(seq.header.frames());
    let tracks = seq.channels().len() as u64;
    let keys: u64 = seq.channels().iter().map(|c| c.keys.len() as u64).sum();
    // a Key, plus with detail its text (~64) and a keys-table row (9 cells of ~12 bytes)
    let per_key = std::mem::size_of::<Key>() as u64 + if detail { 64 + 9 * (24 + 12) + 24 } else { 0 };
    tracks.saturating_mul(n).saturating_mul(8).saturating_add(keys.saturating_mul(per_key))
}

/// A sequence's tracks and table rows made from its parse, all at once (a stored clip) or
/// one at a time (`DecodeOptions::tracks_on_demand`: a track's keys and samples, a row).
struct SeqTracks {
    seq: Sequence,
    frames: usize,
    /// Track name and target of every channel, in channel order.
    names: Vec<(String, String)>,
    /// Keys before each channel's (row `r` of the keys table is key `r - starts[c]` of the
    /// last channel `c` with `starts[c] <= r`).
    starts: Vec<usize>,
}

impl SeqTracks {
    fn new(seq: Sequence) -> SeqTracks {
        let kind_word = seq.header.kind_word;
        let frames = usize::from(seq.header.frames());
        let mut names = Vec::with_capacity(seq.channels().len());
        let mut starts = Vec::with_capacity(seq.channels().len());
        let mut keys = 0usize;
        // A node's channels are consecutive: name each node once (the formatter is costly
        // when a file holds hundreds of thousands of channels).
        let mut node: Option<(u8, String)> = None;
        for c in seq.channels() {
            let target = match &node {
                Some((id, name)) if *id == c.node => name.clone(),
                _ => node.insert((c.node, node_name(kind_word, c.node))).1.clone(),
            };
            let mut tname = String::with_capacity(target.len() + 3); // = track_name
            tname.push_str(&target);
            tname.push('.');
            tname.push_str(c.channel.name());
            names.push((tname, target));
            starts.push(keys);
            keys += c.keys.len();
        }
        SeqTracks { seq, frames, names, starts }
    }

    fn key_count(&self) -> usize {
        self.seq.channels().iter().map(|c| c.keys.len()).sum()
    }

    /// Keys (with their detail text when `text`) and samples of track `i`.
    fn track(&self, i: usize, text: bool, ek: &mut Vec<EvalKey>) -> (Vec<Key>, Vec<f64>) {
        let Some(c) = self.seq.channels().get(i) else { return (Vec::new(), Vec::new()) };
        let scale = track_scale(c.channel);
        fill_eval_keys(c, scale, ek);
        let keys = if text {
            (0..c.keys.len())
                .filter_map(|j| {
                    let k = c.keys.get(j)?;
                    Some(Key {
                        frame: f64::from(k.frame),
                        value: f64::from(k.value()) * scale,
                        detail: self.key_detail(i, j),
                    })
                })
                .collect()
        } else {
            ek.iter().map(|k| Key { frame: k.time, value: k.value, detail: String::new() }).collect()
        };
        (keys, sample(ek, self.frames))
    }

    /// The detail text of key `j` of track `i` and its keys-table row.
    fn key_cells(&self, i: usize, j: usize) -> Option<(String, Vec<String>)> {
        let c = self.seq.channels().get(i)?;
        let k = c.keys.get(j)?;
        let (in_t, out_t) = (num(k.in_tangent()), num(k.out_tangent()));
        let value = num(k.value());
        let detail = if c.channel.is_rotation() {
            format!(
                "code {} in {in_t} out {out_t} value {value} (stored turns, = {}°)",
                k.code,
                fmt_num(f64::from(k.value()) * 360.0)
            )
        } else {
            format!("code {} in {in_t} out {out_t}", k.code)
        };
        let row = vec![
            self.names.get(i).map(|n| n.0.clone()).unwrap_or_default(),
            j.to_string(),
            k.frame.to_string(),
            k.code.to_string(),
            in_t,
            out_t,
            value,
            stored_unit(c.channel).to_string(),
            format!("0x{:x}", k.values_at),
        ];
        Some((detail, row))
    }

    fn key_detail(&self, i: usize, j: usize) -> String {
        self.key_cells(i, j).map(|(d, _)| d).unwrap_or_default()
    }

    /// Row `r` of the keys table.
    fn key_row(&self, r: usize) -> Vec<String> {
        let i = self.starts.partition_point(|&s| s <= r).saturating_sub(1);
        let j = r - self.starts.get(i).copied().unwrap_or(0).min(r);
        self.key_cells(i, j).map(|(_, row)| row).unwrap_or_default()
    }

    /// Row `i` of the instructions table.
    fn instr_row(&self, i: usize) -> Vec<String> {
        let hd = self.seq.header;
        let Some(ins) = self.seq.body.as_ref().and_then(|b| b.instrs.get(i)) else { return Vec::new() };
        let chans: Vec<&str> = Channel::ALL.iter().filter(|c| ins.word & c.bit() != 0).map(|c| c.name()).collect();
        vec![
            i.to_string(),
            format!("0x{:x}", ins.at),
            format!("0x{:04x}", ins.word),
            ins.node().to_string(),
            node_name(hd.kind_word, ins.node()),
            chans.join(" "),
        ]
    }
}

/// The clip of a standard sequence named `name` (the caller rejects variants). Without
/// `detail` the keys carry no detail text and the display tables are left out (curves only).
/// With `on_demand` the tracks hold names and units only and the table rows none: their
/// keys, samples and rows are made one at a time ([`Clip::tracks_on_demand`]); otherwise
/// they are stored (the caller spends [`stored_bytes`] first).
pub(in crate::formats) fn clip(
    name: &str,
    seq: &Sequence,
    alias_of: Option<&str>,
    detail: bool,
    on_demand: bool,
) -> Clip {
    let hd = seq.header;
    let n = usize::from(hd.frames());
    let mut clip = Clip::new(name, FPS, n);
    clip.notes.push(format!(
        "{n} frames at 30 fps, keys 0..{}; kind word 0x{:04x}{}",
        n.saturating_sub(1),
        hd.kind_word,
        if HUMAN_KINDS.contains(&hd.kind_word) {
            " (standard human rig: node names from S2/S3 IKBoneID)"
        } else {
            " (rig not known: nodes shown as node_N)"
        }
    ));
    clip.notes.push(
        "rotations are stored in turns (1.0 = 360°, docs/formats/motn.md#conventions); tracks carry radians = stored × 2π (Euler order X, Y, Z [I], \
         not verified); translations in model units (probably metres [I]); many position channels are IK targets"
            .into(),
    );
    clip.notes.push("code 0 keys mean value 0 with flat tangents (docs/formats/motn.md#key-codes; an open question, docs/formats/motn.md#open-questions)".into());
    if let Some(a) = alias_of {
        clip.notes.push(format!("shares its data with {a}"));
    }
    let src = SeqTracks::new(seq.clone());
    let instr_count = seq.body.as_ref().filter(|_| detail).map_or(0, |b| b.instrs.len());
    let mut instr = Table {
        name: "instructions".into(),
        columns: ["index", "offset", "word", "node", "name", "channels"].map(String::from).to_vec(),
        rows: Vec::new(),
    };
    if let Some(body) = seq.body.as_ref().filter(|_| detail) {
        for ins in &body.instrs {
            clip.nodes.push((u32::from(ins.node()), node_name(hd.kind_word, ins.node())));
        }
        if !on_demand {
            instr.rows = (0..instr_count).map(|i| src.instr_row(i)).collect();
        }
    }
    let mut keys_table = Table {
        name: "keys".into(),
        columns: ["track", "key", "frame", "code", "in", "out", "value", "stored unit", "values at"]
            .map(String::from)
            .to_vec(),
        rows: Vec::new(),
    };
    let mut ek = Vec::new();
    for (i, (c, (tname, target))) in seq.channels().iter().zip(&src.names).enumerate() {
        let (keys, samples) = if on_demand {
            (Vec::new(), Vec::new())
        } else {
            if detail {
                keys_table.rows.reserve(c.keys.len());
                keys_table.rows.extend((0..c.keys.len()).filter_map(|j| src.key_cells(i, j).map(|(_, row)| row)));
            }
            src.track(i, detail, &mut ek)
        };
        clip.tracks.push(Track {
            name: tname.clone(),
            target: target.clone(),
            unit: unit(c.channel),
            keys,
            samples,
            unknown: !(c.channel.is_rotation() || c.channel.is_translation()),
        });
    }
    if clip.tracks.iter().any(|t| t.unknown) {
        clip.notes.push("channels u4/u2/u1 (instruction bits 0x7) are consumed but their meaning is unknown".into());
    }
    let key_rows = src.key_count();
    if detail {
        clip.tables.push(instr);
        clip.tables.push(keys_table);
    }
    if on_demand {
        let src = std::sync::Arc::new(src);
        let (track_src, curves_src, detail_src, rows_src) = (src.clone(), src.clone(), src.clone(), src);
        let rows = if detail { vec![instr_count, key_rows] } else { Vec::new() };
        clip.tracks_on_demand = Some(
            TracksOnDemand::new(
                move |i| track_src.track(i, detail, &mut Vec::new()),
                rows,
                move |t, r| if t == 0 { rows_src.instr_row(r) } else { rows_src.key_row(r) },
            )
            .with_curves(
                move |i| curves_src.track(i, false, &mut Vec::new()),
                move |i, k| if detail { detail_src.key_detail(i, k) } else { String::new() },
            ),
        );
    }
    clip
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::float_cmp)]
mod tests {
    use super::*;

    fn k(time: f64, in_t: f64, out_t: f64, value: f64) -> EvalKey {
        EvalKey { time, in_t, out_t, value }
    }

    /// docs/formats/motn.md#vectors-a-and-b vector A channels, keys as stated in the spec's prose (f16 0.9 stored as
    /// 0.89990234375), and the spec's table of expected values.
    #[test]
    fn vector_a_table_reproduces() {
        let px = [k(0.0, 0.0, 3.0, 0.0), k(9.0, 3.0, 0.0, 0.899_902_343_75)];
        let py = [k(0.0, 0.0, 0.0, 1.0), k(4.0, 0.75, 0.75, 1.5), k(9.0, 0.0, 0.0, 1.0)];
        let pz = [k(0.0, 0.0, 0.0, 0.0), k(9.0, 0.0, 0.0, 0.0)];
        let rx = [k(0.0, 0.0, 0.0, 0.5), k(3.0, 0.0, 0.0, 0.5), k(3.0, 0.0, 0.0, -0.5), k(9.0, 0.0, 0.0, -0.5)];
        #[rustfmt::skip]
        let table: [(f64, f64, f64, f64); 10] = [
            (0.0, 0.000000, 1.000000, 0.5),
            (1.0, 0.099997, 1.073438, 0.5),
            (2.0, 0.199988, 1.237500, 0.5),
            (2.5, 0.249982, 1.327148, 0.5),
            (3.0, 0.299975, 1.407812, 0.5),
            (3.5, 0.349967, 1.468945, -0.5),
            (4.0, 0.399959, 1.500000, -0.5),
            (6.0, 0.599928, 1.342000, -0.5),
            (8.0, 0.799906, 1.056000, -0.5),
            (9.0, 0.899902, 1.000000, -0.5),
        ];
        for (t, ex, ey, erx) in table {
            assert!((evaluate(&px, t) - ex).abs() < 1e-5, "px at {t}: {}", evaluate(&px, t));
            assert!((evaluate(&py, t) - ey).abs() < 1e-5, "py at {t}: {}", evaluate(&py, t));
            assert_eq!(evaluate(&pz, t), 0.0);
            assert!((evaluate(&rx, t) - erx).abs() < 1e-5, "rx at {t}: {}", evaluate(&rx, t));
        }
    }

    /// The per-segment cubic in `u` against the Hermite basis written out in `s = u / d`
    /// (the textbook form the spec states), on random keys and times inside the segment.
    #[test]
    fn segment_cubic_matches_the_hermite_basis() {
        let mut rng = crate::test_support::rng(0x2545_f491_4f6c_dd1d);
        let mut rnd = move || (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        for _ in 0..2000 {
            let a = k((rnd() * 200.0).floor(), rnd() * 8.0 - 4.0, rnd() * 8.0 - 4.0, rnd() * 4.0 - 2.0);
            let b = k(a.time + 1.0 + (rnd() * 60.0).floor(), rnd() * 8.0 - 4.0, rnd() * 8.0 - 4.0, rnd() * 4.0 - 2.0);
            let t = a.time + rnd() * (b.time - a.time);
            let d = b.time - a.time;
            let s = (t - a.time) / d;
            let (s2, s3) = (s * s, s * s * s);
            let basis = a.value * (2.0 * s3 - 3.0 * s2 + 1.0)
                + b.value * (-2.0 * s3 + 3.0 * s2)
                + d / FPS * (a.out_t * (s3 - 2.0 * s2 + s) + b.in_t * (s3 - s2));
            let got = hermite(&a, &b, t);
            assert!((got - basis).abs() < 1e-12, "{a:?} {b:?} t {t}: {got} vs {basis}");
        }
        // the ends are the key values
        let (a, b) = (k(2.0, 1.0, -3.0, 0.25), k(11.0, 0.5, 2.0, -1.5));
        assert!((hermite(&a, &b, 2.0) - 0.25).abs() < 1e-15);
        assert!((hermite(&a, &b, 11.0) + 1.5).abs() < 1e-12);
    }

    /// Sampling walks segments; it must give exactly what evaluating each frame gives,
    /// including duplicate frames (steps), keys before 0 and keys past the end.
    #[test]
    fn sampling_equals_evaluation_bit_for_bit() {
        let mut rng = crate::test_support::rng(0x9e37_79b9_7f4a_7c15);
        let mut rnd = move |n: u64| rng.next() % n;
        for _ in 0..500 {
            let n = 1 + rnd(40) as usize;
            let mut times: Vec<f64> = (0..1 + rnd(8)).map(|_| rnd(50) as f64).collect();
            times.sort_by(f64::total_cmp);
            let keys: Vec<EvalKey> =
                times.iter().map(|&t| k(t, rnd(7) as f64 - 3.0, rnd(7) as f64 - 3.0, rnd(9) as f64 - 4.0)).collect();
            let s = sample(&keys, n);
            assert_eq!(s.len(), n);
            for (f, v) in s.iter().enumerate() {
                assert_eq!(v.to_bits(), evaluate(&keys, f as f64).to_bits(), "{keys:?} frame {f}");
            }
        }
    }

    #[test]
    fn clamps_outside_and_sampling_matches_evaluate() {
        let py = [k(0.0, 0.0, 0.0, 1.0), k(4.0, 0.75, 0.75, 1.5), k(9.0, 0.0, 0.0, 1.0)];
        assert_eq!(evaluate(&py, -3.0), 1.0);
        assert_eq!(evaluate(&py, 12.0), 1.0);
        let rx = [k(0.0, 0.0, 0.0, 0.5), k(3.0, 0.0, 0.0, 0.5), k(3.0, 0.0, 0.0, -0.5), k(9.0, 0.0, 0.0, -0.5)];
        for keys in [&py[..], &rx[..]] {
            let s = sample(keys, 10);
            for (f, v) in s.iter().enumerate() {
                assert_eq!(*v, evaluate(keys, f as f64));
            }
        }
        // unsorted keys: defined, no panic
        let bad = [k(0.0, 0.0, 0.0, 1.0), k(7.0, 0.0, 0.0, 2.0), k(2.0, 0.0, 0.0, 3.0), k(9.0, 0.0, 0.0, 4.0)];
        assert_eq!(sample(&bad, 10).len(), 10);
        assert_eq!(evaluate(&[], 3.0), 0.0);
    }
}
