//! MOTN encoder for synthetic fixtures and round-trip tests (docs/formats/motn.md#encoder): sequences and whole
//! files with exactly the padding and offset rules of the original files, so the spec's
//! vectors A and B come out byte for byte.

pub use super::Channel;
/// The fixture scenes (`fixtures.rs`), for tests and benches that build on them.
pub use super::fixtures::{
    MULTI_TRAILER, baked_example, baked_hinges, baked_plain, fixtures, gzip, low_bits, multi_inputs, node_track_banner,
    node_track_example, node_track_page, turn_90, variants_inputs, vector_a, vector_b, wide_keys,
};
use super::raw::{self, NODE_TRACK_KIND, TABLE_ENTRY_LEN, WIDE_BLOCK2};
use crate::formats::record;
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

    /// Pick the code the original exporter would (docs/formats/motn.md#encoder [I]): zero value and tangents
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

fn size16(len: usize) -> Result<u16, EncodeError> {
    u16::try_from(len).or_else(|_| err(format!("block offset 0x{len:x} does not fit in u16")))
}

/// Encode one standard sequence (docs/formats/motn.md#encoder steps 1–7).
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
    // 7. header, over its placeholder
    let header = raw::SeqHeader {
        frame_word: (n | if wide2 { WIDE_BLOCK2 } else { 0 }).into(),
        kind_word: spec.kind_word.into(),
        b2: b2.into(),
        b3: b3.into(),
        b4: b4.into(),
        b5: b5.into(),
    };
    record::write_over(&header, &mut out, 0).map_err(EncodeError)?;
    Ok(out)
}

/// Encode a whole MOTN blob (docs/formats/motn.md#encoder): `entries` are (name, sequence bytes); identical
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
        let entry = raw::TableEntry { data_rel: (rel as u32).into(), extra_ofs: (extra_ofs as u32).into() };
        write_record(&entry, &mut out, at);
    }
    if let Some(t) = trailer {
        let at = out.len();
        write_record(&raw::Trailer::of_date(t), &mut out, at);
    }
    let header = raw::FileHeader {
        table_ofs: (table_ofs as u32).into(),
        names_ofs: (names_ofs as u32).into(),
        data_ofs: (data_ofs as u32).into(),
        attributes: ((n + 1) as u32).into(),
        file_size: (out.len() as u32).into(),
    };
    write_record(&header, &mut out, 0);
    out
}

/// Write a fixed record over its place in `out` (which already holds those bytes, so the
/// write cannot fail: a `Vec` grows and these records have no arguments that can).
fn write_record<T>(rec: &T, out: &mut Vec<u8>, at: usize)
where
    T: binrw::BinWrite,
    for<'a> T::Args<'a>: Default,
{
    if let Err(e) = record::write_over(rec, out, at as u64) {
        unreachable!("writing a fixed record into memory: {e}");
    }
}

/// The hinge nodes of baked-frame sequences (docs/formats/motn.md#baked-frame-layout): one value each.
pub const HINGE_NODES: [u8; 4] = super::raw::HINGE_NODES;

/// Values a node stores per frame in a baked-frame sequence: 1 for hinge nodes, else 3.
pub fn baked_values_per_node(node: u8) -> usize {
    if HINGE_NODES.contains(&node) { 1 } else { 3 }
}

/// The s16 binary angle of `turns` (0x10000 = one turn): `round(65536 · turns)` wrapped
/// into −32768..=32767 (docs/formats/motn.md#conventions; 0.5 turn = −32768 = ±180°).
pub fn binary_angle(turns: f64) -> i16 {
    let v = (turns * 65536.0).round().rem_euclid(65536.0);
    // 0..65536 as u16, reinterpreted as s16 (the modulo-65536 wrap)
    (v as u32 as u16) as i16
}

/// One frame record of a baked-frame sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct BakedFrame {
    /// Root translation (px, py, pz), written as f16 (round to nearest even).
    pub root_position: [f32; 3],
    /// Root rotation (rx, ry, rz) as s16 binary angles.
    pub root_rotation: [i16; 3],
    /// The mask nodes' values in ascending node id order: rx, ry, rz for each node, one
    /// bend value for hinge nodes ([`HINGE_NODES`]).
    pub values: Vec<i16>,
}

/// A baked-frame ("B") variant sequence (docs/formats/motn.md#baked-frame-layout): kind word `0x8000 |
/// skeleton_type`, a node mask, one dense pose record per frame.
#[derive(Debug, Clone, PartialEq)]
pub struct BakedSpec {
    /// Skeleton type (kind word bits 0–14; 0 human default, 0x0D, ...).
    pub skeleton_type: u16,
    /// Mask nodes (1..=63, not the root; any order, written ascending).
    pub nodes: Vec<u8>,
    /// One record per frame (n = the number of frames, 1..=0x7FFF).
    pub frames: Vec<BakedFrame>,
}

impl BakedSpec {
    /// The nodes ascending.
    pub fn sorted_nodes(&self) -> Vec<u8> {
        let mut v = self.nodes.clone();
        v.sort_unstable();
        v
    }

    /// Bytes per frame record: `12 + 2·Σ(3, or 1 for hinge nodes)` (docs/formats/motn.md#baked-frame-layout).
    pub fn stride(&self) -> usize {
        12 + 2 * self.nodes.iter().map(|&n| baked_values_per_node(n)).sum::<usize>()
    }
}

/// Encode a baked-frame sequence (docs/formats/motn.md#baked-frame-layout): u16 n, u16 `0x8000 | type`, u16 stride, the four
/// mask words, then the frames (3 f16, then the s16 values).
pub fn encode_baked(spec: &BakedSpec) -> Result<Vec<u8>, EncodeError> {
    let n = spec.frames.len();
    if n == 0 || n >= 0x8000 {
        return err(format!("a baked sequence needs 1..=32767 frames, not {n}"));
    }
    if spec.skeleton_type >= 0x8000 {
        return err(format!("skeleton type 0x{:x} does not fit in 15 bits", spec.skeleton_type));
    }
    let nodes = spec.sorted_nodes();
    if nodes.windows(2).any(|w| w.first() == w.get(1)) {
        return err("a node appears twice in the mask");
    }
    let mut mask = 0u64;
    for &id in &nodes {
        if id == 0 || id > 63 {
            return err(format!("mask node {id} is outside 1..=63 (the root is stored implicitly)"));
        }
        mask |= 1 << id;
    }
    let values: usize = nodes.iter().map(|&id| baked_values_per_node(id)).sum();
    let stride = size16(spec.stride())?;
    let mut out = Vec::with_capacity(14 + n * usize::from(stride));
    let header = raw::BakedHeader {
        frame_word: (n as u16).into(),
        kind_word: (0x8000 | spec.skeleton_type).into(),
        stride: stride.into(),
        mask: [0, 1, 2, 3].map(|j| ((mask >> (16 * j)) as u16).into()),
    };
    record::write(&header, &mut out).map_err(EncodeError)?;
    for (f, frame) in spec.frames.iter().enumerate() {
        if frame.values.len() != values {
            return err(format!("frame {f} has {} values; the mask needs {values}", frame.values.len()));
        }
        for v in frame.root_position {
            put16(&mut out, f16::from_f32(v).to_bits());
        }
        for v in frame.root_rotation.iter().chain(&frame.values) {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    Ok(out)
}

/// The scale of a node-track record.
#[derive(Debug, Clone, PartialEq)]
pub enum ScaleSpec {
    /// A constant (sx, sy, sz); the record's scale offset is 0.
    Static([f32; 3]),
    /// One (sx, sy, sz) per sample (n + 1 of them), written as an interleaved block.
    Animated(Vec<[f32; 3]>),
}

/// One record of a node-track sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordSpec {
    /// Static or animated scale.
    pub scale: ScaleSpec,
    /// rx, ry, rz tracks: n + 1 s16 binary angles each (always written as full tracks).
    pub rotation: [Vec<i16>; 3],
    /// Constant translation (px, py, pz), written as f16 with offset 0.
    pub translation: [f32; 3],
}

/// A node-track ("T") variant sequence (docs/formats/motn.md#node-track-layout): kind word 0xFFFF, k
/// records of 32 bytes, then dense blocks of n + 1 samples.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeTrackSpec {
    /// n (1..=0x7FFF): every track holds n + 1 samples.
    pub frames: u16,
    /// The records (k ≥ 1).
    pub records: Vec<RecordSpec>,
}

/// Encode a node-track sequence (docs/formats/motn.md#node-track-layout): header `n, 0xFFFF, 0x3C00, 0, k, 0`; records with
/// blocks laid out from `12 + 32k` record by record (scale block first, then rx, ry, rz);
/// then the blocks in the same order.
pub fn encode_node_track(spec: &NodeTrackSpec) -> Result<Vec<u8>, EncodeError> {
    let n = spec.frames;
    if n == 0 || n >= 0x8000 {
        return err(format!("a node-track sequence needs n in 1..=32767, not {n}"));
    }
    let k = spec.records.len();
    if k == 0 {
        return err("a node-track sequence needs at least one record");
    }
    let samples = usize::from(n) + 1;
    let h = |v: f32| f16::from_f32(v).to_bits();
    let mut out = Vec::new();
    let header = raw::NodeTrackHeader {
        frame_word: n.into(),
        kind_word: NODE_TRACK_KIND.into(),
        unk_04: 0x3C00.into(),
        unk_06: 0.into(),
        record_count: size16(k)?.into(),
        unk_0a: 0.into(),
    };
    record::write(&header, &mut out).map_err(EncodeError)?;
    let mut blocks = Vec::new();
    let mut cur = 12 + 32 * k;
    for (i, r) in spec.records.iter().enumerate() {
        let mut rec = raw::NodeTrackRecord::default();
        match &r.scale {
            ScaleSpec::Static(s) => rec.scale = s.map(|v| h(v).into()),
            ScaleSpec::Animated(frames) => {
                let Some(first) = frames.first() else { return err(format!("record {i}: empty scale block")) };
                if frames.len() != samples {
                    return err(format!("record {i}: {} scale samples, n + 1 = {samples} needed", frames.len()));
                }
                rec.scale_ofs = size16(cur)?.into();
                rec.scale = first.map(|v| h(v).into());
                for fr in frames {
                    fr.iter().for_each(|&v| put16(&mut blocks, h(v)));
                }
                cur += 6 * samples;
            }
        }
        for (axis, (track, slot)) in r.rotation.iter().zip(rec.rotation.iter_mut()).enumerate() {
            let Some(&first) = track.first() else { return err(format!("record {i}: empty rotation track {axis}")) };
            if track.len() != samples {
                return err(format!(
                    "record {i}: rotation track {axis} has {} samples, n + 1 = {samples}",
                    track.len()
                ));
            }
            *slot = (size16(cur)?.into(), first.into());
            for v in track {
                blocks.extend_from_slice(&v.to_le_bytes());
            }
            cur += 2 * samples;
        }
        rec.translation = r.translation.map(|v| (0.into(), h(v).into()));
        record::write(&rec, &mut out).map_err(EncodeError)?;
    }
    out.extend_from_slice(&blocks);
    Ok(out)
}

/// A sequence of a multi-sequence file: one of the layouts (encoded here) or raw bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum SeqSource {
    /// A standard sequence encoded with [`encode_sequence`].
    Standard(SequenceSpec),
    /// A baked-frame variant encoded with [`encode_baked`].
    Baked(BakedSpec),
    /// A node-track variant encoded with [`encode_node_track`].
    NodeTrack(NodeTrackSpec),
    /// Bytes used as they are.
    Raw(Vec<u8>),
}

impl SeqSource {
    /// The sequence bytes.
    pub fn bytes(&self) -> Result<Vec<u8>, EncodeError> {
        match self {
            SeqSource::Standard(s) => encode_sequence(s),
            SeqSource::Baked(s) => encode_baked(s),
            SeqSource::NodeTrack(s) => encode_node_track(s),
            SeqSource::Raw(b) => Ok(b.clone()),
        }
    }
}

/// Encode named inputs into a file.
pub fn encode_inputs(inputs: &[(String, SeqSource)], trailer: Option<&str>) -> Result<Vec<u8>, EncodeError> {
    let mut entries = Vec::with_capacity(inputs.len());
    for (name, s) in inputs {
        entries.push((name.clone(), s.bytes()?));
    }
    Ok(encode_file(&entries, trailer))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        s.split_whitespace().filter(|w| !w.ends_with(':')).map(|w| u8::from_str_radix(w, 16).unwrap()).collect()
    }

    /// docs/formats/motn.md#vectors-a-and-b vector A, as printed in the spec.
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

    /// docs/formats/motn.md#vectors-a-and-b vector B (sequence bytes only).
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
