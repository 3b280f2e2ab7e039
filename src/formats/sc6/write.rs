//! The SC6 encoder: banks and HgMotion clips from keyframe arrays
//! (docs/formats/sc6-mot.md). Every fixture and round-trip test input comes from here.
//!
//! Rules it follows (docs/formats/sc6-mot.md#code-table "Encoder requirements"): per-group complete Huffman codes with
//! lengths ≤ 15 (a single used symbol gets length 1), second-order deltas with 16-bit
//! wrap, even payload offsets, each bitstream padded to 16 bits, a trailing zero u16 after
//! the last group, and clips at 8-aligned offsets in the bank.

use super::bits::{CodeTable, encode_delta, wrap16};
/// The committed fixtures (path under `fixtures/`, bytes) and the demo archive's bank, made in
/// `fixtures.rs` with this writer.
pub use super::fixtures::{all as fixtures, demo_bank};
use super::parse::{StreamKind, align8, counts, walk_stream};
use super::raw::{BankHeader, ClipHeader, GROUP_KEYS, GroupTable, OffsetTable, SYMBOLS};
use crate::formats::record::{self, Spanned};

/// How each group's code lengths are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codes {
    /// A length-limited Huffman code from the group's symbol frequencies.
    Huffman,
    /// The spec's flat table: symbols 0–13 length 4, 14–17 length 5.
    Flat,
    /// These lengths for every group (they must cover every used symbol and be complete).
    Fixed([u8; 18]),
}

/// A clip to encode. `keyframes` holds the stored keyframes (see [`encoded_count`]), all
/// with the same number of words.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipSpec {
    /// Logical duration in 60 Hz frames (≥ 1).
    pub frame_count: u16,
    /// Header flags (`0x04` half, `0x08` quarter, `0x10` extra frame, `0x4000`, `0x8000`, `0x10000000`).
    pub flags: u32,
    /// Presence mask.
    pub presence_mask: u64,
    /// Turn word (top nibble = base turn in 1/16 turns).
    pub turn_word: u16,
    /// The ten unknown header bytes at +0x12 (zeros in normal fixtures).
    pub unknown: [u8; 10],
    /// Stored keyframes.
    pub keyframes: Vec<Vec<i16>>,
    /// Code-length choice.
    pub codes: Codes,
}

impl ClipSpec {
    /// A clip with zero turn word, zero unknown bytes and Huffman codes.
    pub fn new(frame_count: u16, flags: u32, presence_mask: u64, keyframes: Vec<Vec<i16>>) -> Self {
        ClipSpec { frame_count, flags, presence_mask, turn_word: 0, unknown: [0; 10], keyframes, codes: Codes::Huffman }
    }
}

/// Stored keyframes for `frame_count` and `flags` (docs/formats/sc6-mot.md#counts-and-the-group-table).
pub fn encoded_count(frame_count: u16, flags: u32) -> usize {
    usize::try_from(counts(frame_count, flags).2).unwrap_or(0)
}

/// Words per keyframe a mask implies under a stream (`default`, `alternate`, `skill-check`).
pub fn stream_words(stream: &str, flags: u32, mask: u64) -> Option<usize> {
    let k = StreamKind::parse(stream)?;
    walk_stream(k.entries(), flags, mask, 0).ok().map(|(_, b)| usize::try_from(b / 2).unwrap_or(0))
}

/// Presence-mask bit count of a stream (its entry count).
pub fn stream_len(stream: &str) -> Option<usize> {
    StreamKind::parse(stream).map(|k| k.entries().len())
}

struct BitWriter {
    bytes: Vec<u8>,
    bits: u64,
}

impl BitWriter {
    fn new() -> Self {
        BitWriter { bytes: Vec::new(), bits: 0 }
    }
    fn put(&mut self, value: u32, n: u32) {
        for i in (0..n).rev() {
            let b = (value >> i) & 1;
            if self.bits.is_multiple_of(8) {
                self.bytes.push(0);
            }
            if b != 0
                && let Some(last) = self.bytes.last_mut()
            {
                *last |= 0x80 >> (self.bits % 8);
            }
            self.bits += 1;
        }
    }
    /// Pad with zero bits to a 16-bit boundary.
    fn pad16(&mut self) {
        while !self.bits.is_multiple_of(16) {
            self.put(0, 1);
        }
    }
}

/// Length-limited Huffman lengths (≤ 15) for symbol frequencies; a single used symbol gets 1.
pub(in crate::formats) fn huffman_lengths(freq: &[u64; SYMBOLS]) -> [u8; SYMBOLS] {
    let used: Vec<usize> = (0..SYMBOLS).filter(|&s| freq.get(s).copied().unwrap_or(0) > 0).collect();
    let mut lengths = [0u8; SYMBOLS];
    if used.len() == 1 {
        if let Some(&s) = used.first()
            && let Some(l) = lengths.get_mut(s)
        {
            *l = 1;
        }
        return lengths;
    }
    let mut f: Vec<u64> = used.iter().map(|&s| freq.get(s).copied().unwrap_or(1)).collect();
    loop {
        // nodes: (weight, members)
        let mut nodes: Vec<(u64, Vec<usize>)> = f.iter().enumerate().map(|(i, &w)| (w, vec![i])).collect();
        let mut depth = vec![0u8; f.len()];
        while nodes.len() > 1 {
            nodes.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
            let (Some(a), Some(b)) = (nodes.pop(), nodes.pop()) else { break };
            let mut members = a.1;
            members.extend(b.1);
            for &m in &members {
                if let Some(d) = depth.get_mut(m) {
                    *d = d.saturating_add(1);
                }
            }
            nodes.push((a.0 + b.0, members));
        }
        if depth.iter().all(|&d| d <= 15) {
            for (i, &s) in used.iter().enumerate() {
                if let (Some(l), Some(d)) = (lengths.get_mut(s), depth.get(i)) {
                    *l = *d;
                }
            }
            return lengths;
        }
        // Too deep: flatten the frequencies and try again (converges to a balanced tree).
        for w in &mut f {
            *w = (*w >> 1) | 1;
        }
    }
}

/// Encode one clip. Errors when the keyframe count or shapes do not match the header.
pub fn encode_clip(spec: &ClipSpec) -> Result<Vec<u8>, String> {
    let encoded = encoded_count(spec.frame_count, spec.flags);
    if spec.frame_count == 0 {
        return Err("frame_count must be at least 1".into());
    }
    if spec.keyframes.len() != encoded {
        return Err(format!("{} keyframes given, the header implies {encoded}", spec.keyframes.len()));
    }
    let wc = spec.keyframes.first().map_or(0, Vec::len);
    if wc == 0 || wc > 0x1000 || spec.keyframes.iter().any(|k| k.len() != wc) {
        return Err(format!("every keyframe needs the same word count in 1..=4096 (first has {wc})"));
    }
    let group_count = encoded.div_ceil(8);
    let header = ClipHeader {
        frame_count: spec.frame_count.into(),
        word_bytes: u16::try_from(wc * 2).map_err(|_| "word count too large")?.into(),
        flags: spec.flags.into(),
        presence_mask: spec.presence_mask.into(),
        turn_word: spec.turn_word.into(),
        unknown: spec.unknown.into(),
    };
    let mut out = Vec::new();
    record::write(&header, &mut out)?;
    let table_at = out.len();
    out.resize(table_at + 2 * group_count, 0);
    let mut sizes = Vec::with_capacity(group_count);
    for (g, frames) in spec.keyframes.chunks(usize::try_from(GROUP_KEYS).unwrap_or(8)).enumerate() {
        let start = out.len();
        let Some(base) = frames.first() else { continue };
        for w in base {
            out.extend(w.to_le_bytes());
        }
        if frames.len() >= 2 {
            // second differences, wrapped, per word; r_0 = 0
            let mut syms: Vec<(u8, u32, u32)> = Vec::with_capacity((frames.len() - 1) * wc);
            let mut r = vec![0i16; wc];
            for pair in frames.windows(2) {
                let [prev, cur] = pair else { continue };
                for i in 0..wc {
                    let (p, c) = (prev.get(i).copied().unwrap_or(0), cur.get(i).copied().unwrap_or(0));
                    let rj = wrap16(i32::from(c) - i32::from(p));
                    let rp = r.get(i).copied().unwrap_or(0);
                    let d = wrap16(i32::from(rj) - i32::from(rp));
                    if let Some(x) = r.get_mut(i) {
                        *x = rj;
                    }
                    syms.push(encode_delta(d));
                }
            }
            let lengths = match spec.codes {
                Codes::Flat => {
                    let mut l = [4u8; SYMBOLS];
                    if let Some(t) = l.get_mut(14..) {
                        t.fill(5);
                    }
                    l
                }
                Codes::Fixed(l) => l,
                Codes::Huffman => {
                    let mut freq = [0u64; SYMBOLS];
                    for &(s, _, _) in &syms {
                        if let Some(f) = freq.get_mut(usize::from(s)) {
                            *f += 1;
                        }
                    }
                    huffman_lengths(&freq)
                }
            };
            let table = CodeTable::build(lengths, 0).map_err(|e| format!("group {g}: {}", e.err))?;
            let mut bw = BitWriter::new();
            for l in lengths {
                bw.put(u32::from(l), 4);
            }
            for (s, n, extra) in syms {
                let (code, len) = table.emitted(s).ok_or_else(|| format!("group {g}: symbol {s} has no code"))?;
                bw.put(code, len);
                bw.put(extra, n);
            }
            bw.pad16();
            out.extend(bw.bytes);
        }
        let size = out.len() - start;
        if size > 0x7FFF {
            return Err(format!("group {g} is {size} bytes; group sizes are i16"));
        }
        sizes.push(size);
    }
    out.extend([0, 0]); // trailing zero u16: the last peek may overrun the last bitstream
    // group_table[0] = distance from +0x1C to group 0; entry i = size of group i-1
    let first = i16::try_from(2 * group_count).map_err(|_| "too many groups for an i16 table")?;
    let mut table = GroupTable { entry: vec![first.into()] };
    for s in sizes.iter().take(group_count.saturating_sub(1)) {
        table.entry.push(i16::try_from(*s).map_err(|_| "group too large")?.into());
    }
    record::write_over(&table, &mut out, table_at as u64)?;
    Ok(out)
}

/// Build a bank: `slots[i]` names the clip (index into `clips`) slot `i` plays. A clip
/// named again later becomes an alias (same offset). Clips are laid out in order of first
/// use, each at an 8-aligned offset, the first at `align8(8 + 4·count)`.
pub fn encode_bank(clips: &[Vec<u8>], slots: &[usize]) -> Vec<u8> {
    let count = slots.len();
    let header = BankHeader { motion_count: u32::try_from(count).unwrap_or(u32::MAX).into(), reserved: 0.into() };
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = record::write(&header, &mut out);
    let table_at = out.len();
    out.resize(table_at + 4 * count, 0);
    let mut placed: Vec<Option<u32>> = vec![None; clips.len()];
    let mut offsets = Vec::with_capacity(count);
    for &c in slots {
        let at = match placed.get(c).copied().flatten() {
            Some(at) => at,
            None => {
                let at = align8(out.len() as u64);
                out.resize(usize::try_from(at).unwrap_or(0), 0);
                if let Some(bytes) = clips.get(c) {
                    out.extend(bytes);
                }
                let at = u32::try_from(at).unwrap_or(u32::MAX);
                if let Some(p) = placed.get_mut(c) {
                    *p = Some(at);
                }
                at
            }
        };
        offsets.push(at);
    }
    let table = OffsetTable { offset: offsets.into_iter().map(Spanned::new).collect() };
    let _ = record::write_over(&table, &mut out, table_at as u64);
    out
}

/// Encode an axis-angle rotation (three words for 0x02/0x19) from a unit quaternion
/// `(x, y, z, w)`, per the spec's encoder inverse (docs/formats/sc6-mot.md#selector-streams, an [I] inverse).
pub fn quat_to_words(q: [f64; 4]) -> [i16; 3] {
    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if n == 0.0 {
        return [0, 0, 0];
    }
    let s = if q[3] < 0.0 { -1.0 / n } else { 1.0 / n };
    let (x, y, z, w) = (q[0] * s, q[1] * s, q[2] * s, q[3] * s);
    let v = (x * x + y * y + z * z).sqrt();
    if v < 1e-12 {
        return [0, 0, 0];
    }
    let tau = std::f64::consts::TAU;
    let to_word = |a: f64| ((a / tau * 65536.0).round() as i64) as i16; // 32768 wraps to -32768
    let angle = 2.0 * w.clamp(-1.0, 1.0).acos();
    let (ax, ay, az) = (x / v, y / v, z / v);
    [to_word(angle), to_word((-az).atan2(ax)), to_word(ay.clamp(-1.0, 1.0).asin())]
}
