//! MOTN encoder for synthetic fixtures and round-trip tests (spec §4): sequences and whole
//! files with exactly the padding and offset rules of the original files, so the spec's
//! vectors A and B come out byte for byte.

pub use super::Channel;
use super::raw::{TABLE_ENTRY_LEN, WIDE_BLOCK2};
use half::f16;

/// The values a key stores; the variant is the key's 2-bit code (0..3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KeyValues {
    /// Code 0: no values; the key means value 0 with flat tangents.
    Zero,
    /// Code 1: a value with flat tangents.
    Value(f32),
    /// Code 2: one tangent (in = out, units per second) and a value.
    Slope {
        /// In- and out-tangent.
        tangent: f32,
        /// Value.
        value: f32,
    },
    /// Code 3: in-tangent, out-tangent, value.
    InOut {
        /// In-tangent (units per second).
        in_tangent: f32,
        /// Out-tangent (units per second).
        out_tangent: f32,
        /// Value.
        value: f32,
    },
}

impl KeyValues {
    /// The key's 2-bit code = number of stored f16 values.
    pub fn code(&self) -> u8 {
        match self {
            KeyValues::Zero => 0,
            KeyValues::Value(_) => 1,
            KeyValues::Slope { .. } => 2,
            KeyValues::InOut { .. } => 3,
        }
    }

    /// The stored f16 values in Block-5 order, rounded to nearest even.
    pub fn halves(&self) -> Vec<u16> {
        let h = |v: f32| f16::from_f32(v).to_bits();
        match *self {
            KeyValues::Zero => vec![],
            KeyValues::Value(v) => vec![h(v)],
            KeyValues::Slope { tangent, value } => vec![h(tangent), h(value)],
            KeyValues::InOut { in_tangent, out_tangent, value } => vec![h(in_tangent), h(out_tangent), h(value)],
        }
    }

    /// Pick the code the original exporter would (spec §4.1 [I]): zero value and tangents
    /// → code 0; flat tangents → 1; equal tangents → 2; otherwise 3.
    pub fn from_curve(in_tangent: f32, out_tangent: f32, value: f32) -> Self {
        if in_tangent == 0.0 && out_tangent == 0.0 {
            if value == 0.0 { KeyValues::Zero } else { KeyValues::Value(value) }
        } else if in_tangent == out_tangent {
            KeyValues::Slope { tangent: in_tangent, value }
        } else {
            KeyValues::InOut { in_tangent, out_tangent, value }
        }
    }
}

/// One key: its frame and stored values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeySpec {
    /// Frame index: 0 for the first key, n−1 for the last, 1..n−2 between (duplicates allowed).
    pub frame: u16,
    /// Stored values.
    pub values: KeyValues,
}

/// One animated channel of a node.
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelSpec {
    /// Which channel bit.
    pub channel: Channel,
    /// At least two keys, first at frame 0 and last at n−1.
    pub keys: Vec<KeySpec>,
}

/// One node (instruction) and its channels.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    /// Node id (0..=127; the game visits 0..=126).
    pub node: u8,
    /// Channels (any order; written in bit order).
    pub channels: Vec<ChannelSpec>,
}

/// A standard sequence to encode.
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceSpec {
    /// Frame count n (< 0x8000).
    pub frames: u16,
    /// The kind word (0 for the human rig; must not have bit 15 set).
    pub kind_word: u16,
    /// Nodes (any order; written ascending).
    pub nodes: Vec<NodeSpec>,
}

impl SequenceSpec {
    /// Channels in file order: nodes ascending, then channel bits high to low.
    pub fn ordered_channels(&self) -> Vec<(u8, &ChannelSpec)> {
        let mut nodes: Vec<&NodeSpec> = self.nodes.iter().collect();
        nodes.sort_by_key(|n| n.node);
        let mut out = Vec::new();
        for n in nodes {
            let mut chans: Vec<&ChannelSpec> = n.channels.iter().collect();
            chans.sort_by_key(|c| std::cmp::Reverse(c.channel.bit()));
            out.extend(chans.into_iter().map(|c| (n.node, c)));
        }
        out
    }
}

/// Why a sequence cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot encode sequence: {0}")]
pub struct EncodeError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, EncodeError> {
    Err(EncodeError(msg.into()))
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn size16(len: usize) -> Result<u16, EncodeError> {
    u16::try_from(len).or_else(|_| err(format!("block offset 0x{len:x} does not fit in u16")))
}

/// Encode one standard sequence (spec §4.1 steps 1–7).
pub fn encode_sequence(spec: &SequenceSpec) -> Result<Vec<u8>, EncodeError> {
    let n = spec.frames;
    if n >= 0x8000 {
        return err(format!("frame count {n} does not fit in 15 bits"));
    }
    if spec.kind_word & 0x8000 != 0 {
        return err("kind word bit 15 marks a variant layout");
    }
    let mut ids: Vec<u8> = spec.nodes.iter().map(|n| n.node).collect();
    ids.sort_unstable();
    if ids.windows(2).any(|w| w.first() == w.get(1)) {
        return err("a node appears twice");
    }
    let last = n.saturating_sub(1);
    let wide3 = n > 0xFF;
    let chans = spec.ordered_channels();
    for (node, c) in &chans {
        let name = format!("node {node} {}", c.channel.name());
        let (Some(first), Some(end)) = (c.keys.first(), c.keys.last()) else { return err(format!("{name}: no keys")) };
        if c.keys.len() < 2 || first.frame != 0 || end.frame != last {
            return err(format!("{name}: needs at least two keys, the first at 0 and the last at {last}"));
        }
        let inter = c.keys.get(1..c.keys.len() - 1).unwrap_or(&[]);
        let mut prev = 1u16;
        for k in inter {
            if k.frame < prev || k.frame == 0 || k.frame >= last.max(1) || (!wide3 && k.frame > 0xFF) {
                return err(format!("{name}: intermediate frame {} out of order or outside 1..n-2", k.frame));
            }
            prev = k.frame;
        }
    }
    // 1. header placeholder
    let mut out = vec![0u8; 12];
    // 2. instructions
    let mut nodes: Vec<&NodeSpec> = spec.nodes.iter().collect();
    nodes.sort_by_key(|n| n.node);
    for nd in &nodes {
        if nd.node > 127 {
            return err(format!("node id {} does not fit in 7 bits", nd.node));
        }
        let mut flags = 0u16;
        for c in &nd.channels {
            if flags & c.channel.bit() != 0 {
                return err(format!("node {}: channel {} appears twice", nd.node, c.channel.name()));
            }
            flags |= c.channel.bit();
        }
        if flags == 0 {
            return err(format!("node {} has no channels", nd.node));
        }
        put16(&mut out, (u16::from(nd.node) << 9) | flags);
    }
    put16(&mut out, 0);
    // 3. block 2
    let b2 = size16(out.len())?;
    let counts: Vec<usize> = chans.iter().map(|(_, c)| c.keys.len() - 2).collect();
    let wide2 = counts.iter().any(|&c| c > 255);
    for &c in &counts {
        if wide2 {
            put16(&mut out, size16(c)?);
        } else {
            out.push(u8::try_from(c).unwrap_or(u8::MAX));
        }
    }
    // 4. block 3
    if wide3 && out.len() % 2 == 1 {
        out.push(0);
    }
    let b3 = size16(out.len())?;
    for (_, c) in &chans {
        for k in c.keys.get(1..c.keys.len() - 1).unwrap_or(&[]) {
            if wide3 {
                put16(&mut out, k.frame);
            } else {
                out.push(u8::try_from(k.frame).unwrap_or(u8::MAX));
            }
        }
    }
    // 5. block 4
    let b4 = size16(out.len())?;
    for (_, c) in &chans {
        for group in c.keys.chunks(4) {
            let mut byte = 0u8;
            for (slot, k) in group.iter().enumerate() {
                byte |= k.values.code() << (6 - 2 * slot);
            }
            out.push(byte);
        }
    }
    // 6. block 5
    if out.len() % 2 == 1 {
        out.push(0);
    }
    let b5 = size16(out.len())?;
    for (_, c) in &chans {
        for k in &c.keys {
            for v in k.values.halves() {
                put16(&mut out, v);
            }
        }
    }
    // 7. header
    let mut head = Vec::with_capacity(12);
    put16(&mut head, n | if wide2 { WIDE_BLOCK2 } else { 0 });
    put16(&mut head, spec.kind_word);
    for b in [b2, b3, b4, b5] {
        put16(&mut head, b);
    }
    out.splice(0..12, head);
    Ok(out)
}

/// Encode a whole MOTN blob (spec §4.2): `entries` are (name, sequence bytes); identical
/// sequence bytes share one data offset. All sequences point at one 16-byte zero extra
/// record. `trailer` (24 characters of ctime text) adds the 32-byte date trailer.
pub fn encode_file(entries: &[(String, Vec<u8>)], trailer: Option<&str>) -> Vec<u8> {
    let n = entries.len();
    let mut out = vec![0u8; 0x20];
    let table_ofs = out.len();
    out.resize(table_ofs + (n + 1) * TABLE_ENTRY_LEN as usize, 0);
    let extra_ofs = out.len();
    out.resize(extra_ofs + 16, 0);
    let names_ofs = out.len();
    out.resize(names_ofs + 4 * n, 0);
    for (i, (name, _)) in entries.iter().enumerate() {
        let at = out.len() as u32;
        out.splice(names_ofs + 4 * i..names_ofs + 4 * i + 4, at.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.push(0);
    }
    out.resize(out.len().next_multiple_of(4), 0);
    let data_ofs = out.len();
    let mut written: Vec<(&[u8], usize)> = Vec::new();
    for (i, (_, seq)) in entries.iter().enumerate() {
        let rel = match written.iter().find(|(b, _)| *b == seq.as_slice()) {
            Some((_, rel)) => *rel,
            None => {
                out.resize(out.len().next_multiple_of(2), 0);
                let rel = out.len() - data_ofs;
                out.extend_from_slice(seq);
                written.push((seq, rel));
                rel
            }
        };
        let at = table_ofs + i * TABLE_ENTRY_LEN as usize;
        let mut entry = Vec::with_capacity(8);
        put32(&mut entry, rel as u32);
        put32(&mut entry, extra_ofs as u32);
        out.splice(at..at + 8, entry);
    }
    if let Some(t) = trailer {
        let mut tr = t.as_bytes().iter().copied().take(24).collect::<Vec<u8>>();
        tr.resize(24, b' ');
        tr.push(b'\n');
        tr.resize(32, 0);
        out.extend_from_slice(&tr);
    }
    let mut head = Vec::with_capacity(0x14);
    for v in [table_ofs, names_ofs, data_ofs, n + 1, out.len()] {
        put32(&mut head, v as u32);
    }
    out.splice(0..0x14, head);
    out
}

fn key(frame: u16, values: KeyValues) -> KeySpec {
    KeySpec { frame, values }
}

fn chan(channel: Channel, keys: Vec<KeySpec>) -> ChannelSpec {
    ChannelSpec { channel, keys }
}

fn zeros(channel: Channel, last: u16) -> ChannelSpec {
    chan(channel, vec![key(0, KeyValues::Zero), key(last, KeyValues::Zero)])
}

/// Spec §4.3 vector A's sequence `TEST_SEQ`.
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

/// Spec §4.3 vector B: n = 300, node 0 translation, u16 Block 3 and both pads.
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

/// A synthetic stand-in for a variant sequence (kind word bit 15): a header whose kind word
/// marks the unsupported layout, then filler bytes. Not the real layout (which is unknown).
pub fn variant_bytes(kind_word: u16, frames: u16, body_len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(4 + body_len);
    put16(&mut v, frames);
    put16(&mut v, kind_word);
    v.extend((0..body_len).map(|i| (i as u8).wrapping_mul(37).wrapping_add(0x3c)));
    v
}

/// A sequence of a multi-sequence file: standard (encoded here) or raw bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum SeqSource {
    /// A standard sequence encoded with [`encode_sequence`].
    Standard(SequenceSpec),
    /// Bytes used as they are (variant layouts).
    Raw(Vec<u8>),
}

impl SeqSource {
    /// The sequence bytes.
    pub fn bytes(&self) -> Result<Vec<u8>, EncodeError> {
        match self {
            SeqSource::Standard(s) => encode_sequence(s),
            SeqSource::Raw(b) => Ok(b.clone()),
        }
    }
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
        ("AKI_AKI_YS00_R_ST".into(), Raw(variant_bytes(0x8000, 60, 44))),
        ("YKI_WALK".into(), Standard(walk(31, 0x0D))),
        ("TMN_BAG".into(), Raw(variant_bytes(0xFFFF, 3, 28))),
        ("WIDE_KEYS".into(), Standard(wide_keys())),
        ("YAG_LOW_BITS".into(), Standard(low_bits())),
        ("ERROR".into(), Standard(vector_a())),
    ]
}

/// Date written into the multi fixture's trailer (ctime text, as in the original files).
pub const MULTI_TRAILER: &str = "Fri Nov 12 16:10:23 1999";

/// Encode named inputs into a file.
pub fn encode_inputs(inputs: &[(String, SeqSource)], trailer: Option<&str>) -> Result<Vec<u8>, EncodeError> {
    let mut entries = Vec::with_capacity(inputs.len());
    for (name, s) in inputs {
        entries.push((name.clone(), s.bytes()?));
    }
    Ok(encode_file(&entries, trailer))
}

/// Byte position helpers for the failure fixtures: (table entry of sequence `i`, its base).
fn seq_base(file: &[u8], i: usize) -> usize {
    let rd = |at: usize| {
        file.get(at..at + 4).and_then(|b| <[u8; 4]>::try_from(b).ok()).map_or(0, |b| u32::from_le_bytes(b) as usize)
    };
    rd(8) + rd(0x20 + 8 * i)
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

    use crate::formats::pak::write::{Entry, filler, pkf, pks};
    let pks_file = pks(&[Entry::new("MULTI", "MOTN", multi.clone()), Entry::new("CHARA", "CHRT", filler(40, 7))]);
    let pkf_file = pkf(
        &[("TEXN", filler(48, 1)), ("TEXN", filler(30, 2))],
        &[Entry::new("MOTION", "MOTN", a.clone()), Entry::new("CHARA", "CHRT", filler(24, 9))],
    );
    // an IPAC entry whose size runs past the IPAC (= the file)
    let mut x_entry = pks(&[Entry::new("TESTA", "MOTN", a.clone())]);
    let dict =
        16 + x_entry.get(20..24).and_then(|b| <[u8; 4]>::try_from(b).ok()).map_or(0, u32::from_le_bytes) as usize;
    patch(&mut x_entry, dict + 16, &0x400u32.to_le_bytes());

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
        ("motn/motion.pks".into(), pks_file),
        ("motn/motion.pkf".into(), pkf_file),
        ("motn/x_entry_past_parent.pks".into(), x_entry),
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        s.split_whitespace().filter(|w| !w.ends_with(':')).map(|w| u8::from_str_radix(w, 16).unwrap()).collect()
    }

    /// Spec §4.3 vector A, as printed in the spec.
    pub(crate) const VECTOR_A: &str = "
0000: 20 00 00 00 40 00 00 00 50 00 00 00 02 00 00 00
0010: 8e 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
0020: 00 00 00 00 30 00 00 00 00 00 00 00 00 00 00 00
0030: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
0040: 44 00 00 00 54 45 53 54 5f 53 45 51 00 00 00 00
0050: 0a 00 00 00 12 00 18 00 1b 00 22 00 c0 01 38 0a
0060: 00 00 00 01 00 02 00 00 04 03 03 f0 64 00 55 00
0070: 00 00 00 00 00 42 00 00 00 42 00 00 33 3b 00 3c
0080: 00 3a 00 3e 00 3c 00 38 00 38 00 b8 00 b8";

    /// Spec §4.3 vector B (sequence bytes only).
    const VECTOR_B: &str =
        "2c 01 00 00 10 00 14 00 16 00 1a 00 c0 01 00 00 01 00 00 00 96 00 54 00 00 00 00 00 00 40 00 00";

    #[test]
    fn vector_a_is_byte_exact() {
        let seq = encode_sequence(&vector_a()).unwrap();
        let file = encode_file(&[("TEST_SEQ".into(), seq)], None);
        assert_eq!(file, hex(VECTOR_A));
        assert_eq!(file.len(), 142);
    }

    #[test]
    fn vector_b_is_byte_exact() {
        assert_eq!(encode_sequence(&vector_b()).unwrap(), hex(VECTOR_B));
    }

    #[test]
    fn shared_sequences_share_one_offset_and_trailer_is_32_bytes() {
        let s = encode_sequence(&vector_a()).unwrap();
        let f = encode_file(&[("A".into(), s.clone()), ("B".into(), s)], Some(MULTI_TRAILER));
        let rel = |i: usize| &f[0x20 + 8 * i..0x24 + 8 * i];
        assert_eq!(rel(0), rel(1));
        assert_eq!(&f[f.len() - 32..f.len() - 7], b"Fri Nov 12 16:10:23 1999\n");
        assert_eq!(u32::from_le_bytes(f[0x10..0x14].try_into().unwrap()) as usize, f.len());
    }

    #[test]
    fn encoder_rejects_bad_inputs() {
        let mut s = vector_a();
        s.nodes[0].channels[0].keys[1].frame = 8;
        assert!(encode_sequence(&s).is_err());
        let mut s = vector_a();
        s.kind_word = 0x8000;
        assert!(encode_sequence(&s).is_err());
        let mut s = vector_a();
        s.nodes[1].node = 0;
        assert!(encode_sequence(&s).is_err());
        let mut s = vector_a();
        s.nodes[0].channels.clear();
        assert!(encode_sequence(&s).is_err());
    }

    #[test]
    fn code_choice_follows_the_exporter_rule() {
        assert_eq!(KeyValues::from_curve(0.0, 0.0, 0.0).code(), 0);
        assert_eq!(KeyValues::from_curve(0.0, 0.0, 1.0).code(), 1);
        assert_eq!(KeyValues::from_curve(0.5, 0.5, 1.0).code(), 2);
        assert_eq!(KeyValues::from_curve(0.5, 0.25, 1.0).code(), 3);
    }
}
