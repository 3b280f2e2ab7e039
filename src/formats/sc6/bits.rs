//! The HgMotion bit level (docs/formats/sc6-mot.md): an MSB-first bit reader
//! that fetches 16-bit big-endian words inside the clip (as the native reader does), the
//! per-group code table built from 18 four-bit lengths, and symbol ↔ delta coding.

use super::raw::{LEN_BITS, SYMBOLS};
use super::reject::{R, Reason, Sc6Error};
use crate::bytes::Bytes;

/// MSB-first reader over a clip. Reads fetch whole 16-bit words relative to the clip
/// start, so a read whose word passes the clip end fails like the native reader does.
#[derive(Debug, Clone)]
pub(in crate::formats) struct BitReader<'a> {
    clip: Bytes<'a>,
    /// Bit position relative to the clip start.
    rel_bit: u64,
}

impl<'a> BitReader<'a> {
    /// A reader at byte `start_rel` (relative to the clip start) of `clip`.
    pub(in crate::formats) fn new(clip: Bytes<'a>, start_rel: u64) -> Self {
        BitReader { clip, rel_bit: start_rel.saturating_mul(8) }
    }

    /// Absolute bit position (`byte * 8 + bit`) of the next bit.
    pub(in crate::formats) fn abs_bit(&self) -> u64 {
        self.clip.start().saturating_mul(8).saturating_add(self.rel_bit)
    }

    /// The next `n` (≤ 32) bits without consuming them.
    pub(in crate::formats) fn peek(&self, n: u32) -> R<u32> {
        if n == 0 {
            return Ok(0);
        }
        let n64 = u64::from(n.min(32));
        let first = self.rel_bit / 16;
        // Fast path: the 8 bytes from the first word hold every bit asked for (at most 15
        // bits of offset plus 32 bits), and reaching them proves the bounds check below.
        if let Some(w) = usize::try_from(first * 2)
            .ok()
            .and_then(|o| self.clip.data().get(o..o.checked_add(8)?))
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
        {
            let acc = u64::from_be_bytes(w);
            let shift = 64 - (self.rel_bit % 16) - n64;
            return Ok(u32::try_from((acc >> shift) & ((1u64 << n64) - 1)).unwrap_or(0));
        }
        let last = (self.rel_bit + n64 - 1) / 16;
        let need = (last + 1).saturating_mul(2);
        if need > self.clip.len() {
            let at = self.clip.start() + (last * 2).min(self.clip.len());
            return Err(Sc6Error::bad(
                Reason::BitReadPastClip,
                at,
                format!("{n} bits at bit {}", self.rel_bit),
                format!("word read needs clip bytes up to 0x{need:x} but the clip has 0x{:x}", self.clip.len()),
            ));
        }
        let mut acc: u64 = 0;
        for w in first..=last {
            acc = (acc << 16) | u64::from(self.clip.u16_be(self.clip.start() + w * 2)?);
        }
        let total = (last - first + 1) * 16;
        let shift = total - (self.rel_bit % 16) - n64;
        let mask = if n64 == 64 { u64::MAX } else { (1u64 << n64) - 1 };
        Ok(u32::try_from((acc >> shift) & mask).unwrap_or(0))
    }

    /// Consume `n` bits already checked by a [`BitReader::peek`] of at least `n` bits.
    fn skip_peeked(&mut self, n: u32) {
        self.rel_bit += u64::from(n);
    }

    /// Consume `n` bits.
    pub(in crate::formats) fn read(&mut self, n: u32) -> R<u32> {
        let v = self.peek(n)?;
        self.rel_bit += u64::from(n);
        Ok(v)
    }
}

/// One code of a group table: `value` is left-justified in `max_len` bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct Code {
    pub sym: u8,
    pub len: u8,
    pub value: u32,
}

/// A group's code table (docs/formats/sc6-mot.md#code-table): longest codes get the smallest values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::formats) struct CodeTable {
    pub lengths: [u8; SYMBOLS],
    pub max_len: u32,
    /// Codes in ascending `value` order (construction order).
    pub codes: Vec<Code>,
}

impl CodeTable {
    /// Build from 18 lengths. All-zero lengths and over-subscribed lengths (Kraft sum > 1)
    /// are rejected at `at`; incomplete codes are accepted as the reference does.
    pub(in crate::formats) fn build(lengths: [u8; SYMBOLS], at: u64) -> R<CodeTable> {
        let max_len = u32::from(lengths.iter().copied().max().unwrap_or(0));
        if max_len == 0 {
            return Err(Sc6Error::bad(Reason::CodeLengthsAllZero, at, "0 × 18", "a group needs at least one code"));
        }
        let mut codes = Vec::with_capacity(SYMBOLS);
        let mut code: u64 = 0;
        let mut step: u64 = 1;
        for len in (1..=max_len).rev() {
            for (sym, _) in lengths.iter().enumerate().filter(|(_, l)| u32::from(**l) == len) {
                codes.push(Code {
                    sym: u8::try_from(sym).unwrap_or(0),
                    len: u8::try_from(len).unwrap_or(0),
                    value: u32::try_from(code).unwrap_or(u32::MAX),
                });
                code += step;
            }
            step *= 2;
        }
        if code > (1u64 << max_len) {
            return Err(Sc6Error::bad(
                Reason::CodeLengthsOversubscribed,
                at,
                format!("{lengths:?}"),
                format!("kraft sum {code}/{} exceeds 1", 1u64 << max_len),
            ));
        }
        Ok(CodeTable { lengths, max_len, codes })
    }

    /// Read the 18 lengths (4 bits each) from `r` and build the table.
    pub(in crate::formats) fn read(r: &mut BitReader<'_>) -> R<CodeTable> {
        let at = r.abs_bit() / 8;
        let mut lengths = [0u8; SYMBOLS];
        for l in &mut lengths {
            *l = u8::try_from(r.read(LEN_BITS)?).unwrap_or(0);
        }
        CodeTable::build(lengths, at)
    }

    /// Decode one symbol: peek `max_len` bits, take the code with the largest value ≤ the
    /// peek, consume only its length. Returns (symbol, code length). The reference for
    /// `FastDecoder::decode`, which the parser uses.
    #[cfg(test)]
    pub(in crate::formats) fn decode(&self, r: &mut BitReader<'_>) -> R<(u8, u32)> {
        let peek = r.peek(self.max_len)?;
        let idx = self.codes.partition_point(|c| c.value <= peek).saturating_sub(1);
        // codes[0].value is 0, so some code always matches.
        let c = self.codes.get(idx).copied().unwrap_or(Code { sym: 0, len: 1, value: 0 });
        // c.len <= max_len, so the peek above already proved these bits are in the clip.
        r.skip_peeked(u32::from(c.len).min(self.max_len));
        Ok((c.sym, u32::from(c.len)))
    }

    /// A lookup-table decoder with the same results as the reference `decode` (see [`FastDecoder`]).
    pub(in crate::formats) fn fast(&self) -> FastDecoder<'_> {
        FastDecoder::new(self)
    }

    /// The code of `sym` as emitted (its top `len` bits), or None when the symbol is unused.
    pub(in crate::formats) fn emitted(&self, sym: u8) -> Option<(u32, u32)> {
        self.codes
            .iter()
            .find(|c| c.sym == sym)
            .map(|c| (c.value >> (self.max_len - u32::from(c.len)), u32::from(c.len)))
    }
}

/// Bits of the peek that index [`FastDecoder`]'s table.
const FAST_BITS: u32 = 9;

/// The reference `CodeTable::decode` without a binary search per symbol: a table indexed by the top
/// `k = min(max_len, 9)` bits of the peek holds, for every peek with that prefix, the
/// range of code indexes the answer can lie in; the range is a single code for every code
/// of up to `k` bits, so most symbols take one lookup. Profiling showed the
/// `partition_point` over the codes dominating bank decoding.
#[derive(Debug)]
pub(in crate::formats) struct FastDecoder<'t> {
    table: &'t CodeTable,
    k: u32,
    /// (first, last) code index for each `k`-bit prefix.
    ranges: Vec<(u8, u8)>,
}

impl<'t> FastDecoder<'t> {
    fn new(table: &'t CodeTable) -> Self {
        let k = table.max_len.min(FAST_BITS);
        let shift = table.max_len - k;
        let n = table.codes.len();
        let mut ranges = Vec::with_capacity(1 << k);
        let mut j = 0usize; // index of the last code with value <= the current peek
        let mut advance = |peek: u32| {
            while table.codes.get(j + 1).is_some_and(|c| c.value <= peek) {
                j += 1;
            }
            u8::try_from(j.min(n.saturating_sub(1))).unwrap_or(0)
        };
        for q in 0..(1u32 << k) {
            let lo = advance(q << shift);
            let hi = advance(((q + 1) << shift) - 1);
            ranges.push((lo, hi));
        }
        FastDecoder { table, k, ranges }
    }

    /// Decode one symbol exactly like the reference `CodeTable::decode`: the code with the
    /// largest value ≤ the `max_len`-bit peek. Returns (symbol, code length).
    pub(in crate::formats) fn decode(&self, r: &mut BitReader<'_>) -> R<(u8, u32)> {
        let max_len = self.table.max_len;
        let peek = r.peek(max_len)?;
        let q = usize::try_from(peek >> (max_len - self.k)).unwrap_or(0);
        let (lo, hi) = self.ranges.get(q).map_or((0, 0), |&(a, b)| (usize::from(a), usize::from(b)));
        let idx = if lo == hi {
            lo
        } else {
            let within = self.table.codes.get(lo..=hi).unwrap_or(&[]);
            lo + within.partition_point(|c| c.value <= peek).saturating_sub(1)
        };
        let c = self.table.codes.get(idx).copied().unwrap_or(Code { sym: 0, len: 1, value: 0 });
        r.skip_peeked(u32::from(c.len).min(max_len));
        Ok((c.sym, u32::from(c.len)))
    }
}

/// Extra bits that follow symbol `s` (docs/formats/sc6-mot.md#symbols-and-deltas).
pub(in crate::formats) fn extra_bits(sym: u8) -> u32 {
    if sym <= 3 { 0 } else { u32::from(sym) - 2 }
}

/// Delta of symbol `s` with its extra bits `raw` (docs/formats/sc6-mot.md#symbols-and-deltas).
pub(in crate::formats) fn delta(sym: u8, raw: u32) -> i32 {
    if sym <= 3 {
        return i32::from(sym) - 2;
    }
    let n = extra_bits(sym).min(31);
    let raw = i64::from(raw);
    let v = if raw & (1 << (n - 1)) != 0 { raw } else { raw - (1i64 << n) };
    i32::try_from(v).unwrap_or(0)
}

/// `((x + 0x8000) mod 0x10000) - 0x8000`.
pub(in crate::formats) fn wrap16(x: i32) -> i16 {
    x as i16
}

/// Encoder inverse of [`delta`]: (symbol, extra bit count, extra bits) for a wrapped second difference.
pub(in crate::formats) fn encode_delta(d: i16) -> (u8, u32, u32) {
    if (-2..=1).contains(&d) {
        return (u8::try_from(d + 2).unwrap_or(2), 0, 0);
    }
    let n = if d > 0 { 16 - (d as u16).leading_zeros() } else { 16 - (!d as u16).leading_zeros() };
    let extra = u32::from(d as u16) & ((1u32 << n) - 1);
    (u8::try_from(n + 2).unwrap_or(17), n, extra)
}

/// Group and position of keyframe `k` (docs/formats/sc6-mot.md#counts-and-the-group-table).
#[cfg(test)]
pub(in crate::formats) fn group_of(k: u64) -> (u64, u64) {
    (k / 8, k % 8)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn fast_decoder_agrees_with_binary_search(
            lengths in proptest::collection::vec(0u8..16, SYMBOLS),
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 2..64),
        ) {
            let mut l = [0u8; SYMBOLS];
            l.copy_from_slice(&lengths);
            let Ok(t) = CodeTable::build(l, 0) else { return Ok(()) };
            let f = t.fast();
            let (mut a, mut b) = (BitReader::new(Bytes::new(&data), 0), BitReader::new(Bytes::new(&data), 0));
            loop {
                let (x, y) = (t.decode(&mut a), f.decode(&mut b));
                proptest::prop_assert_eq!(&x, &y);
                proptest::prop_assert_eq!(a.abs_bit(), b.abs_bit());
                if x.is_err() {
                    break;
                }
            }
        }
    }

    #[test]
    fn bit_reader_spec_vector() {
        // docs/formats/sc6-mot.md#fixtures-a-and-b: bytes 12 34 AB CD read as 4, 4, 8, 16 bits give 0x1, 0x2, 0x34, 0xABCD.
        let data = [0x12, 0x34, 0xAB, 0xCD];
        let mut r = BitReader::new(Bytes::new(&data), 0);
        assert_eq!(r.read(4).unwrap(), 0x1);
        assert_eq!(r.read(4).unwrap(), 0x2);
        assert_eq!(r.read(8).unwrap(), 0x34);
        assert_eq!(r.read(16).unwrap(), 0xABCD);
        // the next read needs a third word: past the clip
        let e = r.read(1).unwrap_err();
        assert_eq!(e.reason, Reason::BitReadPastClip);
        assert_eq!(e.err.offset, 4);
    }

    #[test]
    fn reads_are_word_granular() {
        // a 3-byte clip: the odd last byte is never reachable by a word read
        let data = [0xFF, 0xFF, 0xAA];
        let mut r = BitReader::new(Bytes::new(&data), 0);
        assert_eq!(r.read(16).unwrap(), 0xFFFF);
        assert_eq!(r.peek(1).unwrap_err().reason, Reason::BitReadPastClip);
    }

    #[test]
    fn group_helpers_spec_vector() {
        // docs/formats/sc6-mot.md#fixtures-a-and-b: keyframe 0 → (0, 0); 7 → (0, 7); 8 → (1, 0)
        assert_eq!(group_of(0), (0, 0));
        assert_eq!(group_of(7), (0, 7));
        assert_eq!(group_of(8), (1, 0));
    }

    #[test]
    fn flat_table_codes_from_spec() {
        // docs/formats/sc6-mot.md#code-table: symbols 0–13 length 4, 14–17 length 5
        let mut lengths = [4u8; 18];
        lengths[14..].fill(5);
        let t = CodeTable::build(lengths, 0).unwrap();
        assert_eq!(t.max_len, 5);
        assert_eq!(t.emitted(14), Some((0b00000, 5)));
        assert_eq!(t.emitted(15), Some((0b00001, 5)));
        assert_eq!(t.emitted(16), Some((0b00010, 5)));
        assert_eq!(t.emitted(17), Some((0b00011, 5)));
        assert_eq!(t.emitted(0), Some((0b0010, 4)));
        assert_eq!(t.emitted(1), Some((0b0011, 4)));
        assert_eq!(t.emitted(2), Some((0b0100, 4)));
        assert_eq!(t.emitted(13), Some((0b1111, 4)));
    }

    #[test]
    fn fixture_b_table_from_spec() {
        // docs/formats/sc6-mot.md#fixtures-a-and-b Fixture B: s0=4, s1=3, s2=1, s3=2, s4=4 → 2=`1`, 3=`01`, 1=`001`, 0=`0000`, 4=`0001`
        let mut lengths = [0u8; 18];
        lengths[..5].copy_from_slice(&[4, 3, 1, 2, 4]);
        let t = CodeTable::build(lengths, 0).unwrap();
        assert_eq!(t.emitted(2), Some((0b1, 1)));
        assert_eq!(t.emitted(3), Some((0b01, 2)));
        assert_eq!(t.emitted(1), Some((0b001, 3)));
        assert_eq!(t.emitted(0), Some((0b0000, 4)));
        assert_eq!(t.emitted(4), Some((0b0001, 4)));
        assert_eq!(t.emitted(5), None);
    }

    #[test]
    fn bad_lengths_are_rejected() {
        assert_eq!(CodeTable::build([0; 18], 7).unwrap_err().reason, Reason::CodeLengthsAllZero);
        // three length-1 codes: kraft sum 3/2
        let mut l = [0u8; 18];
        l[..3].fill(1);
        let e = CodeTable::build(l, 9).unwrap_err();
        assert_eq!((e.reason, e.err.offset), (Reason::CodeLengthsOversubscribed, 9));
        // a single length-1 code is allowed (docs/formats/sc6-mot.md#code-table exception)
        let mut l = [0u8; 18];
        l[2] = 1;
        assert!(CodeTable::build(l, 0).is_ok());
    }

    #[test]
    fn delta_spec_examples() {
        // docs/formats/sc6-mot.md#symbols-and-deltas worked examples: d → (s, extra)
        assert_eq!(encode_delta(3), (4, 2, 0b11));
        assert_eq!(encode_delta(-20), (7, 5, 0b01100));
        assert_eq!(encode_delta(51), (8, 6, 0b110011));
        assert_eq!(encode_delta(32767), (17, 15, 0x7FFF));
        // s ≤ 3 → s - 2
        assert_eq!((delta(0, 0), delta(1, 0), delta(2, 0), delta(3, 0)), (-2, -1, 0, 1));
        assert_eq!(delta(7, 0b01100), -20);
        assert_eq!(delta(17, 0), -32768);
    }

    #[test]
    fn every_i16_round_trips_through_the_delta_code() {
        for d in i16::MIN..=i16::MAX {
            let (s, n, extra) = encode_delta(d);
            assert_eq!(n, extra_bits(s));
            assert!(s <= 17);
            assert_eq!(delta(s, extra), i32::from(d), "d={d}");
        }
    }

    #[test]
    fn wrap16_matches_definition() {
        for x in [-70000i32, -32769, -32768, 0, 32767, 32768, 65535, 65536, 100000] {
            let want = (x + 0x8000).rem_euclid(0x10000) - 0x8000;
            assert_eq!(i32::from(wrap16(x)), want);
        }
    }
}
