//! A synthetic MOTN file shaped like a real `MOTION.BIN` (issue "documents on demand"):
//! `count` sequences of 20 nodes with 3 rotation channels each (60 channels), 2–7 keys per
//! channel of every key code (≈ 270 keys per sequence), 30–330 frames, names like
//! `A_WALK_L_02`, made by `motn::write`. `target/bench-data/motn_{count}.bin` is written on
//! first use so whole commands (`/usr/bin/time -v animscope info …`) can be measured too.

use animscope::formats::motn::write::{self, Channel, ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec};
use std::path::PathBuf;

const VERBS: [&str; 8] = ["WALK", "RUN", "IDLE", "TURN", "JUMP", "SIT", "TALK", "PUNCH"];

/// Name of sequence `i`: `A_WALK_L_02`-style, unique.
pub fn name(i: usize) -> String {
    let side = if i.is_multiple_of(2) { 'L' } else { 'R' };
    format!("{}_{}_{side}_{:02}", (b'A' + (i / 200) as u8) as char, VERBS[i % VERBS.len()], i % 97)
}

/// The knobs of a generated sequence: intermediate keys per channel `0..inter_mod`, the
/// first key's value per node, a scale on the sine values, the last key's value.
pub struct Shape {
    /// Intermediate keys per channel are `(node + channel + i) % inter_mod`.
    pub inter_mod: usize,
    /// First key's value: `first * node`.
    pub first: f32,
    /// Scale of the intermediate keys' sine values.
    pub scale: f32,
    /// Last key's value.
    pub last: f32,
}

/// This file's shape: 2–7 keys per channel, small values.
pub const MOTION_BIN: Shape = Shape { inter_mod: 6, first: 0.01, scale: 0.25, last: -0.01 };

fn sequence(i: usize) -> SequenceSpec {
    shaped_sequence(i, &MOTION_BIN)
}

/// Sequence `i` of 20 nodes × 3 rotation channels, 30–330 frames, keys of every code.
pub fn shaped_sequence(i: usize, shape: &Shape) -> SequenceSpec {
    let frames = 30 + ((i * 7) % 300) as u16;
    let last = frames - 1;
    let nodes = (0..20u8)
        .map(|n| {
            let channels = [Channel::Rx, Channel::Ry, Channel::Rz]
                .into_iter()
                .enumerate()
                .map(|(c, channel)| {
                    let inter = (usize::from(n) + c + i) % shape.inter_mod;
                    let mut keys = vec![KeySpec { frame: 0, values: KeyValues::Value(shape.first * f32::from(n)) }];
                    for k in 0..inter {
                        let frame = 1 + (k as u16 * (last - 1)) / (inter as u16 + 1);
                        let v = (k as f32 * 0.37 + i as f32 * 0.01).sin() * shape.scale;
                        let values = match k % 4 {
                            0 => KeyValues::Zero,
                            1 => KeyValues::Value(v),
                            2 => KeyValues::Slope { tangent: v * 2.0, value: v },
                            _ => KeyValues::InOut { in_tangent: v, out_tangent: -v, value: v * 0.5 },
                        };
                        keys.push(KeySpec { frame: frame.max(1), values });
                    }
                    keys.push(KeySpec { frame: last, values: KeyValues::Value(shape.last) });
                    ChannelSpec { channel, keys }
                })
                .collect();
            NodeSpec { node: n * 2, channels }
        })
        .collect();
    SequenceSpec { frames, kind_word: 0, nodes }
}

/// The file's bytes and its sequence names in table order.
pub fn motn_file(count: usize) -> (Vec<u8>, Vec<String>) {
    let entries: Vec<(String, Vec<u8>)> =
        (0..count).map(|i| (name(i), write::encode_sequence(&sequence(i)).expect("bench sequences encode"))).collect();
    let names = entries.iter().map(|(n, _)| n.clone()).collect();
    (write::encode_file(&entries, Some("Thu Nov 26 12:00:00 2026")), names)
}

/// Path of `target/bench-data/motn_{count}.bin`, written when missing or different.
pub fn motn_path(count: usize) -> PathBuf {
    let (bytes, _) = motn_file(count);
    bench_file(&format!("motn_{count}.bin"), &bytes)
}

/// Path of `target/bench-data/NAME` holding `bytes`, written (through a temp file and a
/// rename) when missing or different, so whole commands can be measured on it too.
pub fn bench_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    let path = dir.join(name);
    if std::fs::read(&path).map(|b| b == bytes).unwrap_or(false) {
        return path;
    }
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    let tmp = dir.join(format!("{name}.tmp"));
    std::fs::write(&tmp, bytes).expect("write bench file");
    std::fs::rename(&tmp, &path).expect("rename bench file");
    path
}
