//! A synthetic MOTN file with the measured shape of the real `MOTION.BIN` (1.8 MB; the
//! figures are in the project's notes on real files): 1,293 standard sequences whose
//! channel count (min 9 / q1 57 / median 63 / q3 63 / max 81), frame count (2 / 19 / 29 /
//! 42 / 410) and key count (18 / 171 / 241 / 358 / 3,463) follow those quartiles, kind
//! words 0x0000 (82 %), 0x000D (16 %) and 17 rarer ones; 9 baked-frame and 17 node-track
//! variant sequences; 240 aliases (names sharing another name's sequence); a date trailer;
//! 944 extra-data records between the sequence table and the name pointers, the first
//! starting at the table's terminator entry (16 zero bytes), the others a 12-byte head and
//! 0–11 token words ending in a zero word: 943 sequences have their own record, the other
//! 376 share (every other one the zero record, the rest one of the 943), an alias has its
//! sequence's record. The writer gives every sequence one 16-byte record; the records are
//! put in afterwards ([`with_extras`]). Not modelled: the real file's 5 unreferenced
//! regions. `copies` repeats the whole shape with other names, values and records (the
//! "file tripled" of the parse-once issue).
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
    file_of(entries(copies))
}

/// A tenth-scaled part of the 1× file, `tenths` tenths of it: the sequences of every block
/// of five whose block number leaves a remainder below `tenths` when divided by ten, their
/// aliases and extra-data records (10 is the whole 1× file). For instruction counts that
/// grow 1×, 3×, 10×: a file counts at most 4,094 names, so the real shape cannot be one
/// file ten times over.
pub fn motn_real_tenths_file(tenths: usize) -> Vec<u8> {
    let kept = entries(1).into_iter().filter(|(name, _)| {
        let base = name.strip_suffix("_COPY").unwrap_or(name);
        let j: usize = base.rsplit('_').next().and_then(|d| d.parse().ok()).expect("names end in the sequence number");
        (j / 5) % 10 < tenths
    });
    file_of(kept.collect())
}

/// Path of `target/bench-data/motn_real_{tenths}tenths.bin` ([`motn_real_tenths_file`]).
#[allow(dead_code)]
pub fn motn_real_tenths_path(tenths: usize) -> PathBuf {
    crate::motn_big::bench_file(&format!("motn_real_{tenths}tenths.bin"), &motn_real_tenths_file(tenths))
}

fn file_of(entries: Vec<(String, SeqSource)>) -> Vec<u8> {
    let file = write::encode_inputs(&entries, Some("Thu Nov 26 12:00:00 2026")).expect("bench sequences encode");
    with_extras(file, &entries)
}

/// Extra-data records a copy of the file has (the real file's distinct records).
const EXTRAS: usize = 944;

/// The record (copy, number) the sequence named `name` uses: sequence j of a copy its own
/// (j < 943), else shared (every other one the zero record 0); an alias its sequence's.
fn record_of(name: &str) -> (usize, usize) {
    let base = name.strip_suffix("_COPY").unwrap_or(name);
    let j: usize = base.rsplit('_').next().and_then(|d| d.parse().ok()).expect("names end in the sequence number");
    // the copy is the digits after the first letters (none for copy 0)
    let who = base.split('_').next().expect("a name");
    let copy = who.trim_start_matches(|c: char| c.is_ascii_alphabetic()).parse().unwrap_or(0);
    let r = match j {
        j if j < EXTRAS - 1 => 1 + j,
        j if j % 2 == 0 => 0,
        j => 1 + (j * 31) % (EXTRAS - 1),
    };
    (copy, r)
}

/// The bytes of record `r` of a copy: 16 zero bytes for record 0, else a 12-byte head and
/// 0–11 nonzero token words ending in a zero word.
fn record_bytes(copy: usize, r: usize) -> Vec<u8> {
    if r == 0 {
        return vec![0; 16];
    }
    let mut rng = Rng(0x51ed_2701_3f1b_9c4d ^ ((copy * EXTRAS + r) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut out = vec![[0x21u8, 0xe1, 0xa1, 0x00][(rng.next() % 4) as usize]];
    out.extend((0..11).map(|_| (rng.next() % 256) as u8));
    for _ in 0..rng.next() % 12 {
        out.extend_from_slice(&((rng.next() as u32) | 1).to_le_bytes());
    }
    out.extend_from_slice(&[0; 4]);
    out
}

/// `file` (as `motn::write` makes it: table, terminator, one 16-byte zero record, name
/// pointers, names, data, trailer) with the terminator and that record replaced by the
/// records `entries` use (each once, by copy and number, copy 0's zero record first: it
/// starts at the terminator, as in the real file), every entry pointed at its record
/// ([`record_of`]); the name pointers and the header's offsets and size moved past them.
fn with_extras(file: Vec<u8>, entries: &[(String, SeqSource)]) -> Vec<u8> {
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes")) as usize;
    let put = |b: &mut [u8], at: usize, v: usize| b[at..at + 4].copy_from_slice(&(v as u32).to_le_bytes());
    let n = entries.len();
    let (table, names) = (u32_at(&file, 0), u32_at(&file, 4));
    let terminator = table + 8 * n;
    assert_eq!(names, terminator + 8 + 16, "the writer's layout");
    let used: std::collections::BTreeSet<(usize, usize)> = entries.iter().map(|(name, _)| record_of(name)).collect();
    let mut blob: Vec<u8> = Vec::new();
    let mut at = std::collections::HashMap::new();
    for &(copy, r) in std::iter::once(&(0, 0)).chain(used.iter().filter(|&&k| k != (0, 0))) {
        at.insert((copy, r), blob.len());
        blob.extend(record_bytes(copy, r));
    }
    let shift = blob.len() - 24;
    let mut out = Vec::with_capacity(file.len() + shift);
    out.extend_from_slice(&file[..terminator]);
    out.extend_from_slice(&blob);
    out.extend_from_slice(&file[names..]);
    for (at, v) in [(4, names), (8, u32_at(&file, 8)), (16, u32_at(&file, 16))] {
        put(&mut out, at, v + shift);
    }
    for (i, (name, _)) in entries.iter().enumerate() {
        let p = names + shift + 4 * i;
        let v = u32_at(&out, p);
        put(&mut out, p, v + shift);
        put(&mut out, table + 8 * i + 4, terminator + at[&record_of(name)]);
    }
    out
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
