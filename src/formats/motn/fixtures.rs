//! Synthetic MOTN fixtures, all made by the encoder in `write.rs`: the spec's vectors A and
//! B (docs/formats/motn.md#vectors-a-and-b), walk cycles, wide and low-bit key tables, the variant layouts' examples
//! (docs/formats/motn.md#baked-frame-layout, docs/formats/motn.md#node-track-layout), the multi-sequence file with its date trailer, and the
//! `x_<reason>.mot` files that each break one rule of docs/formats/motn.md#consistency-rules. The scenes are re-exported
//! from `write` for tests and benches.

use super::write::{
    BakedFrame, BakedSpec, Channel, ChannelSpec, KeySpec, KeyValues, NodeSpec, NodeTrackSpec, RecordSpec, ScaleSpec,
    SeqSource, SequenceSpec, baked_values_per_node, binary_angle, encode_baked, encode_file, encode_inputs,
    encode_node_track, encode_sequence,
};

fn key(frame: u16, values: KeyValues) -> KeySpec {
    KeySpec { frame, values }
}

fn chan(channel: Channel, keys: Vec<KeySpec>) -> ChannelSpec {
    ChannelSpec { channel, keys }
}

fn zeros(channel: Channel, last: u16) -> ChannelSpec {
    chan(channel, vec![key(0, KeyValues::Zero), key(last, KeyValues::Zero)])
}

/// docs/formats/motn.md#vectors-a-and-b vector A's sequence `TEST_SEQ`.
pub fn vector_a() -> SequenceSpec {
    use KeyValues::*;
    SequenceSpec {
        frames: 10,
        kind_word: 0,
        nodes: vec![
            NodeSpec {
                node: 0,
                channels: vec![
                    chan(
                        Channel::Px,
                        vec![
                            key(0, InOut { in_tangent: 0.0, out_tangent: 3.0, value: 0.0 }),
                            key(9, InOut { in_tangent: 3.0, out_tangent: 0.0, value: 0.9 }),
                        ],
                    ),
                    chan(
                        Channel::Py,
                        vec![key(0, Value(1.0)), key(4, Slope { tangent: 0.75, value: 1.5 }), key(9, Value(1.0))],
                    ),
                    zeros(Channel::Pz, 9),
                ],
            },
            NodeSpec {
                node: 5,
                channels: vec![
                    chan(
                        Channel::Rx,
                        vec![key(0, Value(0.5)), key(3, Value(0.5)), key(3, Value(-0.5)), key(9, Value(-0.5))],
                    ),
                    zeros(Channel::Ry, 9),
                    zeros(Channel::Rz, 9),
                ],
            },
        ],
    }
}

/// docs/formats/motn.md#vectors-a-and-b vector B: n = 300, node 0 translation, u16 Block 3 and both pads.
pub fn vector_b() -> SequenceSpec {
    use KeyValues::*;
    SequenceSpec {
        frames: 300,
        kind_word: 0,
        nodes: vec![NodeSpec {
            node: 0,
            channels: vec![
                chan(Channel::Px, vec![key(0, Value(0.0)), key(150, Value(2.0)), key(299, Value(0.0))]),
                zeros(Channel::Py, 299),
                zeros(Channel::Pz, 299),
            ],
        }],
    }
}

/// A walk-like sequence: root translation and rotation, both legs, with every code.
fn walk(frames: u16, kind_word: u16) -> SequenceSpec {
    use KeyValues::*;
    let last = frames - 1;
    let mid = last / 2;
    let root_z = chan(
        Channel::Pz,
        vec![
            key(0, InOut { in_tangent: 0.0, out_tangent: -1.2, value: -0.04 }),
            key(last, InOut { in_tangent: -1.2, out_tangent: 0.0, value: -0.04 - 1.2 * f32::from(last) / 30.0 }),
        ],
    );
    let root_y = chan(
        Channel::Py,
        vec![
            key(0, Value(1.11)),
            key(mid / 2, Slope { tangent: 0.3, value: 1.13 }),
            key(mid, Value(1.09)),
            key(last, Value(1.11)),
        ],
    );
    let leg = |a: f32| {
        chan(
            Channel::Rx,
            vec![
                key(0, Value(a)),
                key(mid, Slope { tangent: -a, value: -a }),
                key(mid, Value(-a * 0.5)),
                key(last, Value(a)),
            ],
        )
    };
    SequenceSpec {
        frames,
        kind_word,
        nodes: vec![
            NodeSpec {
                node: 0,
                channels: vec![
                    zeros(Channel::Px, last),
                    root_y,
                    root_z,
                    zeros(Channel::Rx, last),
                    chan(Channel::Ry, vec![key(0, Value(0.02)), key(last, Value(-0.02))]),
                    zeros(Channel::Rz, last),
                ],
            },
            NodeSpec { node: 5, channels: vec![leg(0.4), zeros(Channel::Ry, last), zeros(Channel::Rz, last)] },
            NodeSpec { node: 12, channels: vec![leg(-0.4), zeros(Channel::Ry, last), zeros(Channel::Rz, last)] },
        ],
    }
}

/// `TURN_90`: the root walks a quarter circle of radius 1 m while turning a quarter turn
/// (ry 0 → 0.25 turns = 90°) over 31 frames, legs swinging as in the walk: the pose
/// viewer's fixture (the figure must face another way at the last frame).
pub fn turn_90() -> SequenceSpec {
    use KeyValues::*;
    let last: u16 = 30;
    // Hermite keys whose tangents (units per second over the 1 s clip) trace the arc
    // x = -(1 - cos a), z = -sin a for a = 0..90°.
    let quarter = std::f32::consts::FRAC_PI_2;
    let root_x = chan(Channel::Px, vec![key(0, Zero), key(last, Slope { tangent: -quarter, value: -1.0 })]);
    let root_z = chan(Channel::Pz, vec![key(0, Slope { tangent: -quarter, value: 0.0 }), key(last, Value(-1.0))]);
    let turn = chan(
        Channel::Ry,
        vec![key(0, Slope { tangent: 0.25, value: 0.0 }), key(last, Slope { tangent: 0.25, value: 0.25 })],
    );
    let leg = |a: f32| chan(Channel::Rx, vec![key(0, Value(a)), key(last / 2, Value(-a)), key(last, Value(a))]);
    SequenceSpec {
        frames: last + 1,
        kind_word: 0,
        nodes: vec![
            NodeSpec {
                node: 0,
                channels: vec![root_x, root_z, zeros(Channel::Rx, last), turn, zeros(Channel::Rz, last)],
            },
            NodeSpec { node: 5, channels: vec![leg(0.08)] },
            NodeSpec { node: 12, channels: vec![leg(-0.08)] },
        ],
    }
}

/// A sequence whose one channel has 256 intermediate keys: Block 2 becomes u16
/// (`frame_word` bit 15) while Block 3 stays u8 (n ≤ 255), with many duplicate frames.
pub fn wide_keys() -> SequenceSpec {
    let frames = 100u16;
    let mut keys = vec![key(0, KeyValues::Value(0.0))];
    for i in 0..256u16 {
        let f = 1 + i * 97 / 255;
        keys.push(key(f, KeyValues::Value(f32::from(i % 7) * 0.125)));
    }
    keys.push(key(frames - 1, KeyValues::Value(0.0)));
    SequenceSpec { frames, kind_word: 0, nodes: vec![NodeSpec { node: 21, channels: vec![chan(Channel::Rz, keys)] }] }
}

/// A sequence that sets the three unused channel bits 0x7 on node 37 (their data is
/// consumed after the rotation channels, as in the analog engine).
pub fn low_bits() -> SequenceSpec {
    use KeyValues::*;
    let k = |a: f32| vec![key(0, Value(a)), key(3, Value(a + 1.0)), key(7, Value(a))];
    SequenceSpec {
        frames: 8,
        kind_word: 0x11,
        nodes: vec![NodeSpec {
            node: 37,
            channels: vec![
                chan(Channel::Ry, k(0.25)),
                chan(Channel::U4, k(1.0)),
                chan(Channel::U2, k(2.0)),
                chan(Channel::U1, k(3.0)),
            ],
        }],
    }
}

/// docs/formats/motn.md#baked-frame-layout: n = 3, skeleton type 0, nodes {31, 34} (34 is a hinge),
/// frame 2 a copy of frame 0 (74 bytes).
pub fn baked_example() -> BakedSpec {
    let f0 =
        BakedFrame { root_position: [0.0, 1.0, 0.0], root_rotation: [0; 3], values: vec![0x0100, 0x0200, 0, 0x1000] };
    let f1 = BakedFrame {
        root_position: [0.0, 1.0, 0.25],
        root_rotation: [0, 0x4000, 0],
        values: vec![0x0180, 0x0200, 0, 0x1800],
    };
    BakedSpec { skeleton_type: 0, nodes: vec![31, 34], frames: vec![f0.clone(), f1, f0] }
}

/// docs/formats/motn.md#node-track-layout: n = 2 (3 samples), k = 2; record 0 static scale and an rz
/// that wraps past ±180°, record 1 an animated scale block (130 bytes).
pub fn node_track_example() -> NodeTrackSpec {
    let a = |v: u16| v as i16;
    NodeTrackSpec {
        frames: 2,
        records: vec![
            RecordSpec {
                scale: ScaleSpec::Static([1.0; 3]),
                rotation: [vec![0, 0x2000, 0x4000], vec![0; 3], vec![0x7000, a(0x8000), a(0x9000)]],
                translation: [0.0, 0.5, 0.0],
            },
            RecordSpec {
                scale: ScaleSpec::Animated(vec![[1.0, 1.0, 1.0], [1.0, 1.0, 1.5], [1.0, 1.0, 2.0]]),
                rotation: [vec![0; 3], vec![0x0800; 3], vec![0; 3]],
                translation: [0.25, 0.0, 0.0],
            },
        ],
    }
}

/// A baked sequence of skeleton type 0x0D whose mask includes all four hinge nodes, the
/// root `ry` crossing ±180° and back, and frame n−1 repeating frame 0 (a loop).
pub fn baked_hinges() -> BakedSpec {
    let nodes = vec![1, 5, 7, 9, 12, 14, 16, 18, 21, 25, 26, 28, 30, 31, 32, 34, 36];
    let n = 8usize;
    let frames = (0..n)
        .map(|f| {
            // loop: the last frame is frame 0 again
            let p = if f == n - 1 { 0.0 } else { f as f64 / (n - 1) as f64 };
            let wave = (p * std::f64::consts::TAU).sin();
            let mut values = Vec::new();
            for &id in &nodes {
                if baked_values_per_node(id) == 1 {
                    // knees bend negative, elbows positive (as in the sample data)
                    let sign = if id == 7 || id == 14 { -1.0 } else { 1.0 };
                    values.push(binary_angle(sign * (0.1 + 0.05 * wave)));
                } else {
                    let base = f64::from(id) / 400.0;
                    values.extend([binary_angle(base + 0.02 * wave), binary_angle(-base), binary_angle(0.01 * wave)]);
                }
            }
            BakedFrame {
                root_position: [0.0, 1.1 + 0.02 * wave as f32, -0.4 * p as f32],
                // ry 0.47 → 0.53 turn and back: crosses ±180° (32767 → −32768)
                root_rotation: [0, binary_angle(0.47 + 0.06 * (p * std::f64::consts::PI).sin()), 0],
                values,
            }
        })
        .collect();
    BakedSpec { skeleton_type: 0x0D, nodes, frames }
}

/// A baked sequence with only 3-value nodes (no hinge) and no loop closure.
pub fn baked_plain() -> BakedSpec {
    let nodes = vec![1, 18, 21];
    let frames = (0..5)
        .map(|f| {
            let t = f as f64 * 0.01;
            BakedFrame {
                root_position: [0.05 * f as f32, 1.1, 0.0],
                root_rotation: [binary_angle(t), binary_angle(-t), 0],
                values: (0..9).map(|i| binary_angle(t * f64::from(i))).collect(),
            }
        })
        .collect();
    BakedSpec { skeleton_type: 0, nodes, frames }
}

/// A node-track sequence with n = 1 (2 samples): one record, a page turning from 0 to
/// 0x8000 (180°).
pub fn node_track_page() -> NodeTrackSpec {
    NodeTrackSpec {
        frames: 1,
        records: vec![RecordSpec {
            scale: ScaleSpec::Static([1.0; 3]),
            rotation: [vec![0, -0x8000], vec![0, 0], vec![0, 0]],
            translation: [0.1, 0.0, 0.0],
        }],
    }
}

/// A banner-like node-track sequence: a pole top and two segments of (0, −0.305, 0), the
/// top's scale animated (sz eases 1.0 → 1.03 → 0.555), a swaying rz that wraps.
pub fn node_track_banner() -> NodeTrackSpec {
    let n = 8u16;
    let samples = usize::from(n) + 1;
    let sway = |amp: f64, phase: f64| -> Vec<i16> {
        (0..samples)
            .map(|i| binary_angle(amp * (i as f64 / f64::from(n) * std::f64::consts::TAU + phase).sin()))
            .collect()
    };
    let sz = |i: usize| {
        let p = i as f32 / f32::from(n);
        if p <= 0.5 { 1.0 + 0.06 * p } else { 1.03 - 0.95 * (p - 0.5) }
    };
    NodeTrackSpec {
        frames: n,
        records: vec![
            RecordSpec {
                scale: ScaleSpec::Animated((0..samples).map(|i| [1.0, 1.0, sz(i)]).collect()),
                rotation: [sway(0.01, 0.0), vec![0; samples], sway(0.02, 1.0)],
                translation: [0.0, 2.36, 0.0],
            },
            RecordSpec {
                scale: ScaleSpec::Static([1.0; 3]),
                rotation: [
                    sway(0.03, 0.5),
                    vec![0; samples],
                    (0..samples).map(|i| binary_angle(0.45 + 0.02 * i as f64)).collect(),
                ],
                translation: [0.0, -0.305, 0.0],
            },
            RecordSpec {
                scale: ScaleSpec::Static([1.0; 3]),
                rotation: [sway(0.04, 1.0), sway(0.01, 2.0), vec![0; samples]],
                translation: [0.0, -0.305, 0.0],
            },
        ],
    }
}

/// The inputs of `fixtures/motn/variants.mot`: standard sequences mixed with every
/// variant case the spec's writer sections ask fixtures to cover.
pub fn variants_inputs() -> Vec<(String, SeqSource)> {
    use SeqSource::*;
    vec![
        ("A_STAND".into(), Standard(walk(10, 0))),
        ("YKI_BAKED_LOOP".into(), Baked(baked_hinges())),
        ("AKI_BAKED_PLAIN".into(), Baked(baked_plain())),
        ("TMN_PAGE".into(), NodeTrack(node_track_page())),
        ("YKI_STAND".into(), Standard(walk(12, 0x0D))),
        ("TMN_BANNER".into(), NodeTrack(node_track_banner())),
        ("TMN_BANNER_COPY".into(), NodeTrack(node_track_banner())),
        ("AKI_BAKED_EXAMPLE".into(), Baked(baked_example())),
    ]
}

/// The inputs of `fixtures/motn/multi.mot`: names and their sequences. Shared names use
/// identical inputs, so the file encoder gives them one data offset.
pub fn multi_inputs() -> Vec<(String, SeqSource)> {
    use SeqSource::*;
    vec![
        ("A_WALK_L_02".into(), Standard(walk(37, 0))),
        ("TEST_SEQ".into(), Standard(vector_a())),
        ("A_WALK_L_02_COPY".into(), Standard(walk(37, 0))),
        ("LONG_SEQ".into(), Standard(vector_b())),
        ("AKI_AKI_YS00_R_ST".into(), Baked(baked_example())),
        ("YKI_WALK".into(), Standard(walk(31, 0x0D))),
        ("TMN_BAG".into(), NodeTrack(node_track_example())),
        ("WIDE_KEYS".into(), Standard(wide_keys())),
        ("YAG_LOW_BITS".into(), Standard(low_bits())),
        ("ERROR".into(), Standard(vector_a())),
    ]
}

/// Date written into the multi fixture's trailer (ctime text, as in the original files).
pub const MULTI_TRAILER: &str = "Fri Nov 12 16:10:23 1999";

/// Byte position helper for the failure fixtures: where sequence `i` starts (`data_ofs` +
/// its table entry's `data_rel`), read through the declared header and table entry.
fn seq_base(file: &[u8], i: usize) -> usize {
    use super::raw::{FileHeader, TableEntry};
    use crate::formats::record::{FixedSize, read_at};
    let b = crate::bytes::Bytes::new(file);
    let Ok(h) = read_at::<FileHeader>(&b, 0) else { return 0 };
    let at = u64::from(*h.table_ofs) + TableEntry::SIZE * i as u64;
    let rel = read_at::<TableEntry>(&b, at).map_or(0, |e| *e.data_rel);
    (u64::from(*h.data_ofs) + u64::from(rel)) as usize
}

fn patch(file: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(dst) = file.get_mut(at..at + bytes.len()) {
        dst.copy_from_slice(bytes);
    }
}

/// Every MOTN fixture (path under `fixtures/`, bytes), including the gzip-wrapped one and
/// the expected-failure files `x_<reason>.mot`.
#[allow(clippy::expect_used, clippy::indexing_slicing)]
pub fn fixtures() -> Vec<(String, Vec<u8>)> {
    let one = |name: &str, s: &SequenceSpec| {
        encode_file(&[(name.to_string(), encode_sequence(s).expect("fixture sequences encode"))], None)
    };
    let a = one("TEST_SEQ", &vector_a());
    let b = one("LONG_SEQ", &vector_b());
    let multi = encode_inputs(&multi_inputs(), Some(MULTI_TRAILER)).expect("fixture sequences encode");
    let gz = gzip("MULTI.MOT", &multi);

    // block offsets out of order: swap b3 and b4 of vector A
    let mut x_order = a.clone();
    let base = seq_base(&x_order, 0);
    patch(&mut x_order, base + 6, &[0x1b, 0x00, 0x18, 0x00]);
    // Block 5 offset past the blob
    let mut x_past = a.clone();
    let base = seq_base(&x_past, 0);
    patch(&mut x_past, base + 10, &[0x00, 0x7f]);
    // instruction list without terminator: every word up to b2 and beyond is non-zero
    let mut x_term = a.clone();
    let base = seq_base(&x_term, 0);
    for at in (base + 12..x_term.len() - 1).step_by(2) {
        patch(&mut x_term, at, &[0x38, 0x0a]);
    }
    // name pointer out of range
    let mut x_name = a.clone();
    patch(&mut x_name, 0x40, &0x0000_1000u32.to_le_bytes());
    // counts past the end: channel px claims 200 intermediate keys
    let mut x_count = a.clone();
    let base = seq_base(&x_count, 0);
    x_count[base + 0x12] = 200;

    // variant failures (one sequence at 0x50 in each file; offsets from the sequence start)
    let baked = encode_file(&[("BAKED_SEQ".into(), encode_baked(&baked_example()).expect("encodes"))], None);
    let track = encode_file(&[("TRACK_SEQ".into(), encode_node_track(&node_track_example()).expect("encodes"))], None);
    let patched = |file: &[u8], rel: usize, word: u16| {
        let mut f = file.to_vec();
        let base = seq_base(&f, 0);
        patch(&mut f, base + rel, &word.to_le_bytes());
        f
    };
    // n = 4 frames of 20 bytes, but only 3 fit before the data end
    let x_baked_truncated = patched(&baked, 0, 4);
    // stride 22, the mask {31, 34} gives 12 + 2·4 = 20
    let x_baked_stride = patched(&baked, 4, 22);
    // mask bit 0 (the root) set
    let x_baked_mask_root = patched(&baked, 6, 1);
    // k = 256 records of 32 bytes after a 12-byte header in a 130-byte sequence
    let x_track_records = patched(&track, 8, 0x100);
    // record 1's rx track moved onto its ry track (0x76)
    let x_track_overlap = patched(&track, 0x2c + 8, 0x76);
    // record 0's ry track at an odd offset
    let x_track_odd = patched(&track, 0x0c + 0x0c, 0x53);
    // record 1's rz track at 0x7e: its 6 bytes end at 0x84, past the sequence end 0x82
    let x_track_past = patched(&track, 0x2c + 0x10, 0x7e);
    // record 0's py translation with a (never observed) track offset
    let x_track_translation = patched(&track, 0x0c + 0x18, 0x4c);
    let variants = encode_inputs(&variants_inputs(), Some(MULTI_TRAILER)).expect("fixture sequences encode");

    use crate::formats::pak::write::{Entry, filler, pkf, pks};
    let pks_file = pks(&[Entry::new("MULTI", "MOTN", multi.clone()), Entry::new("CHARA", "CHRT", filler(40, 7))]);
    let pkf_file = pkf(
        &[("TEXN", filler(48, 1)), ("TEXN", filler(30, 2))],
        &[Entry::new("MOTION", "MOTN", a.clone()), Entry::new("CHARA", "CHRT", filler(24, 9))],
    );
    // an IPAC entry whose size runs past the IPAC (= the file)
    let mut x_entry = pks(&[Entry::new("TESTA", "MOTN", a.clone())]);
    let entry_size_at = {
        use crate::formats::pak::raw::{IpacEntry, IpacHeader, PksHeader};
        use crate::formats::record::read_at;
        let b = crate::bytes::Bytes::new(&x_entry);
        let ipac = read_at::<PksHeader>(&b, 0).map_or(0, |h| u64::from(*h.ipac_ofs));
        let dict = ipac + read_at::<IpacHeader>(&b, ipac).map_or(0, |h| u64::from(*h.dictionary_ofs));
        read_at::<IpacEntry>(&b, dict).map_or(0, |e| e.size.span.start) as usize
    };
    patch(&mut x_entry, entry_size_at, &0x400u32.to_le_bytes());

    vec![
        ("motn/vector_a.mot".into(), a.clone()),
        ("motn/vector_b.mot".into(), b),
        ("motn/multi.mot".into(), multi.clone()),
        ("motn/multi.mot.gz".into(), gz),
        ("motn/x_block_order.mot".into(), x_order),
        ("motn/x_block_past_end.mot".into(), x_past),
        ("motn/x_no_terminator.mot".into(), x_term),
        ("motn/x_name_pointer.mot".into(), x_name),
        ("motn/x_counts_past_end.mot".into(), x_count),
        ("motn/variants.mot".into(), variants),
        ("motn/x_baked_truncated.mot".into(), x_baked_truncated),
        ("motn/x_baked_stride.mot".into(), x_baked_stride),
        ("motn/x_baked_mask_root.mot".into(), x_baked_mask_root),
        ("motn/x_track_records_past_end.mot".into(), x_track_records),
        ("motn/x_track_overlap.mot".into(), x_track_overlap),
        ("motn/x_track_odd_offset.mot".into(), x_track_odd),
        ("motn/x_track_block_past_end.mot".into(), x_track_past),
        ("motn/x_track_translation_offset.mot".into(), x_track_translation),
        ("motn/motion.pks".into(), pks_file),
        ("motn/motion.pkf".into(), pkf_file),
        ("motn/x_entry_past_parent.pks".into(), x_entry),
        ("motn/turn.mot".into(), one("TURN_90", &turn_90())),
    ]
}

/// A single gzip member with FNAME `name` and mtime 0 around `data`.
pub fn gzip(name: &str, data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc =
        flate2::GzBuilder::new().filename(name.as_bytes()).mtime(0).write(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(data);
    enc.finish().unwrap_or_default()
}
