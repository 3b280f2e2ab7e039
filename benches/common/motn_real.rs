//! A synthetic MOTN file with the measured shape of the real `MOTION.BIN` (1.8 MB; the
//! figures are in the project's notes on real files): 1,293 standard sequences whose
//! channel count (min 9 / q1 57 / median 63 / q3 63 / max 81), frame count (2 / 19 / 29 /
//! 42 / 410) and key count (18 / 171 / 241 / 358 / 3,463) follow those quartiles, kind
//! words 0x0000 (82 %), 0x000D (16 %) and 17 rarer ones; 9 baked-frame and 17 node-track
//! variant sequences; 240 aliases (names sharing another name's sequence); a date trailer.
//! Not modelled: the real file's 944 extra-data records (the writer gives every sequence
//! one shared 16-byte record) and its 5 unreferenced regions. `copies` repeats the whole
//! shape with other names and values (the "file tripled" of the parse-once issue).
//! Written by `motn::write` to `target/bench-data/motn_real_{copies}x.bin` on first use.

use animscope::formats::motn::Channel;
use animscope::formats::motn::write::{
    self, BakedFrame, BakedSpec, ChannelSpec, KeySpec, KeyValues, NodeSpec, NodeTrackSpec, RecordSpec, ScaleSpec,
    SeqSource, SequenceSpec,
};
use std::path::PathBuf;

/// Deterministic noise (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in 0..1.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A draw from the distribution with these quartiles (min, q1, median, q3, max): linear
    /// between the middle quartiles, and in the outer quarters bunched towards the
    /// quartile by the powers `low` and `high` (1 = linear), so that heavy tails keep the
    /// real mean: the mean of the top quarter is `q3 + (max − q3) / (high + 1)`.
    fn quartiles(&mut self, q: [f64; 5], low: f64, high: f64) -> f64 {
        let u = self.unit() * 4.0;
        let i = (u.floor() as usize).min(3);
        let t = u - i as f64;
        match i {
            0 => q[1] - (q[1] - q[0]) * (1.0 - t).powf(low),
            3 => q[3] + (q[4] - q[3]) * t.powf(high),
            _ => q[i] + (q[i + 1] - q[i]) * t,
        }
    }
}

const CHANNELS: [f64; 5] = [9.0, 57.0, 63.0, 63.0, 81.0];
const FRAMES: [f64; 5] = [2.0, 19.0, 29.0, 42.0, 410.0];
const KEYS: [f64; 5] = [18.0, 171.0, 241.0, 358.0, 3463.0];
/// Names a file's header can count: it stores the count plus one in 12 bits.
const MAX_NAMES: usize = 4094;
const VERBS: [&str; 10] = ["WALK", "RUN", "STAND", "TURN", "JUMP", "SIT", "TALK", "PUNCH", "KICK", "LOOK"];

fn name(copy: usize, i: usize) -> String {
    let who = ["A", "YKI", "AKI", "TMN", "NOZ", "RYO"][i % 6];
    let side = if i.is_multiple_of(2) { 'L' } else { 'R' };
    let copy = if copy == 0 { String::new() } else { format!("{copy}") };
    format!("{who}{copy}_{}_{side}_{:04}", VERBS[(i / 6) % VERBS.len()], i)
}

/// A standard sequence drawn from the real distributions.
fn standard(rng: &mut Rng, kind_word: u16) -> SequenceSpec {
    // the powers give the real means: 60.8 channels, 36.2 frames, 289 keys a sequence
    let channels = rng.quartiles(CHANNELS, 4.5, 1.0).round() as usize;
    let frames = rng.quartiles(FRAMES, 1.0, 10.0).round().max(2.0) as u16;
    let last = frames - 1;
    let keys = (rng.quartiles(KEYS, 1.0, 15.0).round() as usize).max(2 * channels);
    // the root's translations and rotations, then rx, ry, rz per node
    let mut slots: Vec<(u8, Channel)> = [Channel::Px, Channel::Py, Channel::Pz, Channel::Rx, Channel::Ry, Channel::Rz]
        .into_iter()
        .map(|c| (0u8, c))
        .collect();
    let mut node = 1u8;
    while slots.len() < channels {
        for c in [Channel::Rx, Channel::Ry, Channel::Rz] {
            slots.push((node, c));
        }
        node += 1;
    }
    slots.truncate(channels);
    // intermediate keys spread over the channels (none fit a 2-frame sequence)
    let extra = if frames >= 3 { keys - 2 * channels } else { 0 };
    let mut nodes: Vec<NodeSpec> = Vec::new();
    for (k, (n, channel)) in slots.into_iter().enumerate() {
        let inter = extra / channels + usize::from(k < extra % channels);
        let v = |rng: &mut Rng| (rng.unit() as f32 - 0.5) * 0.5;
        let mut ks = vec![KeySpec { frame: 0, values: KeyValues::Value(v(rng)) }];
        for j in 0..inter {
            let frame = 1 + (j * usize::from(last - 1) / inter.max(1)) as u16;
            let value = v(rng);
            let values = match rng.next() % 4 {
                0 => KeyValues::Zero,
                1 => KeyValues::Value(value),
                2 => KeyValues::Slope { tangent: value * 2.0, value },
                _ => KeyValues::InOut { in_tangent: value, out_tangent: -value, value },
            };
            ks.push(KeySpec { frame: frame.min(last - 1).max(1), values });
        }
        ks.push(KeySpec { frame: last, values: KeyValues::Value(v(rng)) });
        match nodes.last_mut() {
            Some(nd) if nd.node == n => nd.channels.push(ChannelSpec { channel, keys: ks }),
            _ => nodes.push(NodeSpec { node: n, channels: vec![ChannelSpec { channel, keys: ks }] }),
        }
    }
    SequenceSpec { frames, kind_word, nodes }
}

fn baked(rng: &mut Rng) -> BakedSpec {
    let nodes: Vec<u8> = (1..=17u8).map(|n| n * 2).collect();
    let values: usize = nodes.iter().map(|n| write::baked_values_per_node(*n)).sum();
    let frames = 20 + (rng.next() % 200) as usize;
    BakedSpec {
        skeleton_type: if rng.next().is_multiple_of(2) { 0 } else { 0x0D },
        nodes,
        frames: (0..frames)
            .map(|f| BakedFrame {
                root_position: [f as f32 * 0.01, 0.9, 0.0],
                root_rotation: [0, (f * 64) as i16, 0],
                values: (0..values).map(|_| (rng.next() % 4096) as i16 - 2048).collect(),
            })
            .collect(),
    }
}

fn node_track(rng: &mut Rng) -> NodeTrackSpec {
    let frames = 10 + (rng.next() % 60) as u16;
    let track = |rng: &mut Rng| (0..=frames).map(|_| (rng.next() % 8192) as i16).collect::<Vec<i16>>();
    NodeTrackSpec {
        frames,
        records: (0..1 + rng.next() % 3)
            .map(|_| RecordSpec {
                scale: ScaleSpec::Static([1.0, 1.0, 1.0]),
                rotation: [track(rng), track(rng), track(rng)],
                translation: [0.0, 0.5, 0.0],
            })
            .collect(),
    }
}

/// The file's entries: `copies` times 1,293 standard, 9 baked, 17 node-track sequences and
/// 240 aliases, names unique. The header counts names in 12 bits, so a file holds at most
/// 4,094: the tripled file keeps every sequence and as many aliases as fit (137).
pub fn entries(copies: usize) -> Vec<(String, SeqSource)> {
    let mut out: Vec<(String, SeqSource)> = Vec::new();
    let mut firsts = Vec::new();
    for copy in 0..copies {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ ((copy as u64 + 1) * 0x2545_f491_4f6c_dd1d));
        firsts.push(out.len());
        for i in 0..1293 {
            // kind words: 1,054 × 0, 207 × 0x0D, the rest spread over 17 others
            let kind = match i {
                x if x < 1054 => 0,
                x if x < 1261 => 0x0D,
                x => 0x10 + (x % 17) as u16,
            };
            out.push((name(copy, i), SeqSource::Standard(standard(&mut rng, kind))));
        }
        for i in 0..9 {
            out.push((name(copy, 1293 + i), SeqSource::Baked(baked(&mut rng))));
        }
        for i in 0..17 {
            out.push((name(copy, 1302 + i), SeqSource::NodeTrack(node_track(&mut rng))));
        }
    }
    // 240 aliases a copy: another name for every fifth sequence (while names fit the header)
    for first in firsts {
        for a in 0..240 {
            if out.len() >= MAX_NAMES {
                break;
            }
            let (n, s) = out[first + a * 5].clone();
            out.push((format!("{n}_COPY"), s));
        }
    }
    out
}

/// The file's bytes.
pub fn motn_real_file(copies: usize) -> Vec<u8> {
    write::encode_inputs(&entries(copies), Some("Thu Nov 26 12:00:00 2026")).expect("bench sequences encode")
}

/// A standard sequence's name in the middle of the first copy (`A_WALK_L_0600`-style).
pub fn middle_name() -> String {
    name(0, 600)
}

/// Path of `target/bench-data/motn_real_{copies}x.bin`, written when missing or different
/// (the including bench includes `common/motn_big.rs` too).
pub fn motn_real_path(copies: usize) -> PathBuf {
    crate::motn_big::bench_file(&format!("motn_real_{copies}x.bin"), &motn_real_file(copies))
}
