//! Walking and validating SC6 banks and clips (docs/formats/sc6-mot.md): the bank
//! offset table with aliases and outer bounds, the clip header and its counts, group
//! location by the inclusive prefix sum, per-group Huffman decoding with second-order
//! reconstruction, and the selector-stream walk against the presence mask.

use super::bits::{BitReader, CodeTable, delta, extra_bits, wrap16};
use super::raw::*;
use super::reject::{R, Reason, Sc6Error};
use crate::bytes::Bytes;
use crate::error::ErrorKind;
use crate::formats::record::{self, Count, FixedSize, Prefix};
use crate::limits::Limits;

/// `x` rounded up to a multiple of 8.
pub(in crate::formats) fn align8(x: u64) -> u64 {
    x.saturating_add(7) & !7
}

/// The bank header and offset table as read, with the problems found on the way.
#[derive(Debug, Clone)]
pub(in crate::formats) struct Bank {
    /// The header as far as the file holds it.
    pub header: Prefix<BankHeader>,
    pub count: u64,
    pub reserved: u32,
    /// The offset table's slots that fit in the file, with their spans.
    pub table: OffsetTable,
    /// One absolute offset per slot that fits in the file (may be fewer than `count`).
    pub offsets: Vec<u64>,
    /// Per slot: the earlier slot with the same offset (alias), if any.
    pub alias_of: Vec<Option<usize>>,
    /// Per slot: the clip's outer bound (next greater distinct offset or EOF), or None
    /// when the offset is unusable (0, inside the table, past EOF).
    pub bound: Vec<Option<u64>>,
    /// End of the offset table.
    pub table_end: u64,
    /// Every problem, in reference order; strict parsing fails on the first.
    pub problems: Vec<Sc6Error>,
}

impl Bank {
    /// Slots that own their payload (not aliases) and have a usable offset.
    pub(in crate::formats) fn distinct_slots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.offsets.len()).filter(|&i| {
            self.alias_of.get(i).copied().flatten().is_none() && self.bound.get(i).copied().flatten().is_some()
        })
    }

    /// Absolute offset of slot `i`'s table entry (the table start for a slot past it).
    pub(in crate::formats) fn slot_at(&self, i: usize) -> u64 {
        self.table.offset.get(i).map_or(BankHeader::SIZE, |o| o.span.start)
    }

    /// The clip window of slot `i`, if usable.
    pub(in crate::formats) fn clip<'a>(&self, data: Bytes<'a>, i: usize) -> Option<Bytes<'a>> {
        let start = *self.offsets.get(i)?;
        let end = self.bound.get(i).copied().flatten()?;
        data.sub(start, end).ok()
    }
}

/// Read the bank. Errors only when not even the count can be read (or there is no slot);
/// every other check becomes a problem and parsing continues as far as it can.
pub(in crate::formats) fn parse_bank(data: Bytes<'_>) -> R<Bank> {
    let len = data.len();
    let mut problems = Vec::new();
    if len < BANK_MIN_LEN {
        problems.push(Sc6Error::bad(
            Reason::BankTooShort,
            0,
            format!("{len} bytes"),
            format!("a bank has at least 0x{BANK_MIN_LEN:x} bytes"),
        ));
    }
    let header = match record::read_prefix::<BankHeader>(&data, 0) {
        Some(h) if h.record.motion_count.span.end <= h.end => h,
        _ => {
            let err = record::read_at::<BankHeader>(&data, 0)
                .err()
                .unwrap_or_else(|| crate::error::ParseError::new(0, ErrorKind::Other("bank header unreadable".into())));
            return Err(Sc6Error { reason: Reason::BankTooShort, err });
        }
    };
    let count = u64::from(*header.record.motion_count);
    // A reserved word past the end reads as the zero padding: absent, not a problem.
    let reserved = *header.record.reserved;
    if count == 0 {
        problems.push(Sc6Error::bad(Reason::BankCountZero, 0, "0", "a bank has at least one slot"));
    } else if count > BANK_MAX_COUNT {
        problems.push(Sc6Error::kind(
            Reason::BankCountTooLarge,
            0,
            ErrorKind::CountTooLarge { what: "motion", count, max: BANK_MAX_COUNT },
        ));
    }
    if reserved != 0 {
        problems.push(Sc6Error::bad(
            Reason::BankReservedNonzero,
            header.record.reserved.span.start,
            format!("0x{reserved:08x}"),
            "the reserved dword must be 0",
        ));
    }
    let table_at = BankHeader::SIZE;
    let table_end_full = table_at.saturating_add(count.saturating_mul(4));
    if table_end_full > len {
        problems.push(Sc6Error::kind(
            Reason::OffsetTableTruncated,
            table_at,
            ErrorKind::OffsetOutOfRange { what: "offset table end", offset: table_end_full, start: table_at, end: len },
        ));
    }
    let slots = Count::clamped(&data, table_at, count, 4, BANK_MAX_COUNT);
    let table: OffsetTable = record::read(&data, table_at, (slots,))?;
    let table_end = table.offset.last().map_or(table_at, |o| o.span.end).min(len);
    let offsets: Vec<u64> = table.offset.iter().map(|o| u64::from(**o)).collect();
    let slot_at = |i: usize| table.offset.get(i).map_or(table_at, |o| o.span.start);
    let min_first = align8(table_end_full.min(len.max(table_at)));
    if let Some(&first) = offsets.first()
        && first != 0
        && first < min_first
    {
        problems.push(Sc6Error::kind(
            Reason::OffsetInsideTable,
            table_at,
            ErrorKind::OffsetOutOfRange { what: "first clip", offset: first, start: min_first, end: len },
        ));
    }
    for (i, w) in offsets.windows(2).enumerate() {
        if let [a, b] = *w
            && b < a
        {
            problems.push(Sc6Error::bad(
                Reason::OffsetsOutOfOrder,
                slot_at(i + 1),
                format!("0x{b:x} after 0x{a:x}"),
                "offsets must not decrease",
            ));
            break;
        }
    }
    for (i, &o) in offsets.iter().enumerate() {
        if o > len {
            problems.push(Sc6Error::kind(
                Reason::OffsetPastEof,
                slot_at(i),
                ErrorKind::OffsetOutOfRange { what: "clip", offset: o, start: min_first, end: len },
            ));
            break;
        }
    }
    if let Some(i) = offsets.iter().position(|&o| o == 0) {
        problems.push(Sc6Error::bad(Reason::OffsetZero, slot_at(i), "0", "a clip offset of 0 points at the header"));
    }
    // Usable offsets: inside the file and past the table. Bounds come from the sorted set.
    let usable = |o: u64| o >= table_end && o != 0 && o <= len;
    let mut distinct: Vec<u64> = offsets.iter().copied().filter(|&o| usable(o)).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let mut first_slot: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut alias_of = Vec::with_capacity(offsets.len());
    let mut bound = Vec::with_capacity(offsets.len());
    for (i, &o) in offsets.iter().enumerate() {
        if !usable(o) {
            alias_of.push(None);
            bound.push(None);
            continue;
        }
        let first = *first_slot.entry(o).or_insert(i);
        alias_of.push((first != i).then_some(first));
        let pos = distinct.partition_point(|&d| d <= o);
        bound.push(Some(distinct.get(pos).copied().unwrap_or(len)));
    }
    Ok(Bank { header, count, reserved, table, offsets, alias_of, bound, table_end, problems })
}

/// A clip header with its derived counts (docs/formats/sc6-mot.md#clip, docs/formats/sc6-mot.md#counts-and-the-group-table).
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct Header {
    /// The record as read, with its fields' spans.
    pub record: ClipHeader,
    /// The group table as read.
    pub groups: GroupTable,
    pub frame_count: u16,
    pub word_bytes: u16,
    pub flags: u32,
    pub mask: u64,
    pub turn_word: u16,
    /// Decoded words per keyframe (`word_bytes >> 1`).
    pub wc: u64,
    pub playback: u64,
    pub effective: f64,
    pub encoded: u64,
    pub group_count: u64,
    /// Relative offset where the group table ends.
    pub table_end: u64,
}

impl Header {
    /// Keyframes per logical frame: 0.5, 0.25 or 1.
    pub(in crate::formats) fn rate(&self) -> f64 {
        rate(self.flags)
    }

    /// Base turn in turns (top nibble of `turn_word`).
    pub(in crate::formats) fn base_turn(&self) -> f64 {
        f64::from(self.turn_word & 0xF000) / 65536.0
    }
}

/// Keyframe rate for `flags`.
pub(in crate::formats) fn rate(flags: u32) -> f64 {
    if flags & F_HALF != 0 {
        0.5
    } else if flags & F_QUARTER != 0 {
        0.25
    } else {
        1.0
    }
}

/// (playback, effective, encoded, group_count) for a frame count and flags (docs/formats/sc6-mot.md#counts-and-the-group-table).
pub(in crate::formats) fn counts(frame_count: u16, flags: u32) -> (u64, f64, u64, u64) {
    let playback = u64::from(frame_count) + u64::from(flags & F_EXTRA_FRAME != 0);
    let (effective, encoded) = if flags & F_HALF != 0 {
        ((playback as f64 + 1.0) * 0.5, playback.div_ceil(2))
    } else if flags & F_QUARTER != 0 {
        ((playback as f64 + 3.0) * 0.25, playback.div_ceil(4))
    } else {
        (playback as f64, playback)
    };
    (playback, effective, encoded, encoded.div_ceil(GROUP_KEYS))
}

/// Read and check a clip header; `clip` is the clip's window (start = clip offset).
pub(in crate::formats) fn parse_header(clip: Bytes<'_>) -> R<Header> {
    let s = clip.start();
    if clip.len() < CLIP_MIN_LEN {
        return Err(Sc6Error::bad(
            Reason::ClipTooShort,
            s,
            format!("{} bytes", clip.len()),
            format!("a clip has at least 0x{CLIP_MIN_LEN:x} bytes"),
        ));
    }
    let record: ClipHeader = record::read_at(&clip, s)?;
    let frame_count = *record.frame_count;
    let word_bytes = *record.word_bytes;
    let flags = *record.flags;
    let mask = *record.presence_mask;
    let turn_word = *record.turn_word;
    if frame_count == 0 {
        return Err(Sc6Error::bad(
            Reason::FrameCountZero,
            record.frame_count.span.start,
            "0",
            "a clip has at least one frame",
        ));
    }
    let wc = u64::from(word_bytes >> 1);
    if wc == 0 {
        return Err(Sc6Error::bad(
            Reason::WordCountZero,
            record.word_bytes.span.start,
            format!("word_bytes {word_bytes}"),
            "decoded word count is 0",
        ));
    }
    if wc > MAX_WORDS {
        return Err(Sc6Error::kind(
            Reason::WordCountTooLarge,
            record.word_bytes.span.start,
            ErrorKind::CountTooLarge { what: "decoded word", count: wc, max: MAX_WORDS },
        ));
    }
    let (playback, effective, encoded, group_count) = counts(frame_count, flags);
    let table_end = ClipHeader::SIZE + 2 * group_count;
    let table_at = s + ClipHeader::SIZE;
    if table_end > clip.len() {
        return Err(Sc6Error::kind(
            Reason::GroupTablePastClip,
            table_at,
            ErrorKind::OffsetOutOfRange { what: "group table end", offset: s + table_end, start: s, end: clip.end() },
        ));
    }
    let n = Count::checked(&clip, "group table entry", table_at, group_count, 2, u64::MAX)?;
    let groups: GroupTable = record::read(&clip, table_at, (n,))?;
    Ok(Header {
        record,
        groups,
        frame_count,
        word_bytes,
        flags,
        mask,
        turn_word,
        wc,
        playback,
        effective,
        encoded,
        group_count,
        table_end,
    })
}

/// One decoded symbol, for the bit-level view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct Sym {
    /// Keyframe index in the clip.
    pub key: u64,
    /// Word index in the keyframe.
    pub word: u32,
    /// Absolute bit of the code.
    pub bit: u64,
    pub code_len: u8,
    pub sym: u8,
    pub extra_len: u8,
    pub extra: u32,
    pub delta: i32,
}

/// One group as located and decoded.
#[derive(Debug, Clone)]
pub(in crate::formats) struct Group {
    pub index: u64,
    /// Payload offset relative to the clip start.
    pub payload: u64,
    /// Keyframes in the group (1..8).
    pub keys: u64,
    /// Code table (groups with ≥ 2 keyframes).
    pub table: Option<CodeTable>,
    /// Absolute bit where the code lengths start.
    pub lengths_bit: u64,
    /// Absolute bit one past the last consumed bit (== base end for one-key groups).
    pub end_bit: u64,
    /// Symbols, when traced.
    pub syms: Vec<Sym>,
}

/// A clip decoded as far as possible.
#[derive(Debug, Clone)]
pub(in crate::formats) struct Decoded {
    pub groups: Vec<Group>,
    /// Keyframes decoded so far, `wc` words each, flat.
    pub words: Vec<i16>,
    /// Why decoding stopped early.
    pub failure: Option<Sc6Error>,
    /// True when the symbol trace was cut short by its budget.
    pub trace_cut: bool,
}

/// Largest number of decoded words (keyframes × words) one clip may produce.
pub(in crate::formats) fn word_budget(limits: &Limits) -> u64 {
    limits.max_decode_work.min((limits.max_keys as u64).saturating_mul(4))
}

/// Locate and decode every group (docs/formats/sc6-mot.md#counts-and-the-group-table, docs/formats/sc6-mot.md#group-payload). Stops at the first failure, keeping what came
/// before. `trace_budget` bounds how many symbols are recorded for display.
pub(in crate::formats) fn decode_groups(clip: Bytes<'_>, h: &Header, limits: &Limits, trace_budget: usize) -> Decoded {
    let mut out = Decoded { groups: Vec::new(), words: Vec::new(), failure: None, trace_cut: false };
    let total = h.encoded.saturating_mul(h.wc);
    if let Err(e) = Limits::check("decoded words", total, word_budget(limits), h.record.frame_count.span.start) {
        out.failure = Some(Sc6Error { reason: Reason::DecodeWorkExceeded, err: e });
        return out;
    }
    out.words.reserve(usize::try_from(total).unwrap_or(0));
    out.groups.reserve(usize::try_from(h.group_count).unwrap_or(0));
    let mut traced = 0usize;
    let mut sum: i64 = 0;
    for g in 0..h.group_count {
        match decode_group(clip, h, g, &mut sum, &mut out.words, trace_budget.saturating_sub(traced)) {
            Ok((grp, cut)) => {
                traced += grp.syms.len();
                out.trace_cut |= cut;
                out.groups.push(grp);
            }
            Err(e) => {
                out.failure = Some(e.within(format!("group[{g}]")));
                break;
            }
        }
    }
    out
}

fn decode_group(
    clip: Bytes<'_>,
    h: &Header,
    g: u64,
    sum: &mut i64,
    words: &mut Vec<i16>,
    trace_budget: usize,
) -> R<(Group, bool)> {
    let s = clip.start();
    let entry = h.groups.entry.get(usize::try_from(g).unwrap_or(usize::MAX)).ok_or_else(|| {
        Sc6Error::kind(
            Reason::GroupTablePastClip,
            s + h.table_end,
            ErrorKind::NotFound(format!("group table entry {g} of {}", h.groups.entry.len())),
        )
    })?;
    let entry_at = entry.span.start;
    *sum += i64::from(**entry);
    let payload_rel = i64::try_from(ClipHeader::SIZE).unwrap_or(i64::MAX) + *sum;
    if payload_rel < i64::try_from(h.table_end).unwrap_or(i64::MAX) {
        return Err(Sc6Error::kind(
            Reason::PayloadBeforeTable,
            entry_at,
            ErrorKind::OffsetOutOfRange {
                what: "group payload",
                offset: s.saturating_add_signed(payload_rel),
                start: s + h.table_end,
                end: clip.end(),
            },
        ));
    }
    let payload = u64::try_from(payload_rel).unwrap_or(u64::MAX);
    if payload >= clip.len() {
        return Err(Sc6Error::kind(
            Reason::PayloadPastClip,
            entry_at,
            ErrorKind::OffsetOutOfRange {
                what: "group payload",
                offset: s.saturating_add(payload),
                start: s + h.table_end,
                end: clip.end(),
            },
        ));
    }
    if payload % 2 != 0 {
        return Err(Sc6Error::bad(
            Reason::PayloadOdd,
            entry_at,
            format!("payload 0x{payload:x}"),
            "group payloads must be at even offsets (the bit reader works in 16-bit words)",
        ));
    }
    let base_end = payload + 2 * h.wc;
    if base_end > clip.len() {
        return Err(Sc6Error::kind(
            Reason::BaseWordsPastClip,
            s + payload,
            ErrorKind::OutOfBounds { offset: s + payload, len: 2 * h.wc, available: clip.end() },
        )
        .within("base_words"));
    }
    let keys = (h.encoded - g * GROUP_KEYS).min(GROUP_KEYS);
    let wc = usize::try_from(h.wc).unwrap_or(0);
    let first = words.len();
    for i in 0..h.wc {
        words.push(clip.i16_le(s + payload + 2 * i)?);
    }
    let mut grp = Group {
        index: g,
        payload,
        keys,
        table: None,
        lengths_bit: (s + base_end) * 8,
        end_bit: (s + base_end) * 8,
        syms: Vec::new(),
    };
    let mut cut = false;
    if keys >= 2 {
        let mut r = BitReader::new(clip, base_end);
        let table = CodeTable::read(&mut r)?;
        let fast = table.fast();
        let mut first_diff = vec![0i16; wc];
        for j in 1..keys {
            let prev = first + (usize::try_from(j).unwrap_or(0) - 1) * wc;
            for i in 0..wc {
                let bit = r.abs_bit();
                let (sym, code_len) = fast.decode(&mut r)?;
                let n = extra_bits(sym);
                let extra = r.read(n)?;
                let d = delta(sym, extra);
                let rd = first_diff.get_mut(i).map_or(0, |x| {
                    *x = wrap16(i32::from(*x) + d);
                    *x
                });
                let v = words.get(prev + i).copied().unwrap_or(0);
                words.push(wrap16(i32::from(v) + i32::from(rd)));
                if grp.syms.len() < trace_budget {
                    grp.syms.push(Sym {
                        key: g * GROUP_KEYS + j,
                        word: u32::try_from(i).unwrap_or(0),
                        bit,
                        code_len: u8::try_from(code_len).unwrap_or(0),
                        sym,
                        extra_len: u8::try_from(n).unwrap_or(0),
                        extra,
                        delta: d,
                    });
                } else {
                    cut = true;
                }
            }
        }
        drop(fast);
        grp.table = Some(table);
        grp.end_bit = r.abs_bit();
    }
    Ok((grp, cut))
}

/// Which selector stream drives a clip (docs/formats/sc6-mot.md#selector-streams).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) enum StreamKind {
    Default,
    Alternate,
    SkillCheck,
}

impl StreamKind {
    /// The stream's entries (without the terminator).
    pub(in crate::formats) fn entries(self) -> &'static [u8] {
        match self {
            StreamKind::Default => &STREAM_DEFAULT,
            StreamKind::Alternate => &STREAM_ALTERNATE,
            StreamKind::SkillCheck => &STREAM_SKILL_CHECK,
        }
    }

    /// Name as used by `--stream`.
    pub(in crate::formats) fn name(self) -> &'static str {
        match self {
            StreamKind::Default => "default",
            StreamKind::Alternate => "alternate",
            StreamKind::SkillCheck => "skill-check",
        }
    }

    /// Parse a `--stream` value.
    pub(in crate::formats) fn parse(s: &str) -> Option<StreamKind> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "default" | "body" => Some(StreamKind::Default),
            "alternate" | "alt" => Some(StreamKind::Alternate),
            "skill-check" | "skillcheck" | "skill" => Some(StreamKind::SkillCheck),
            _ => None,
        }
    }

    /// The stream the game picks from the flags (bit 15).
    pub(in crate::formats) fn from_flags(flags: u32) -> StreamKind {
        if flags & F_ALT_STREAM != 0 { StreamKind::Alternate } else { StreamKind::Default }
    }
}

/// A present channel: stream entry, selector, presence bit, words it occupies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct Channel {
    pub entry: usize,
    pub sel: u8,
    /// Presence-mask bit index used by this entry.
    pub bit: u32,
    /// First word in the decoded keyframe.
    pub word: usize,
    pub words: usize,
}

/// Walk `stream` against `mask` (docs/formats/sc6-mot.md#selector-streams): present channels in order and the bytes consumed.
/// `at` is the absolute offset errors are reported at (the clip's mask field).
pub(in crate::formats) fn walk_stream(stream: &[u8], flags: u32, mask: u64, at: u64) -> R<(Vec<Channel>, u64)> {
    let mut bit: u64 = 1;
    let mut offset: u64 = 0;
    let mut out = Vec::new();
    for (entry, &sel) in stream.iter().enumerate() {
        if sel == 0 {
            break;
        }
        if entry >= MAX_STREAM_ENTRIES {
            return Err(Sc6Error::kind(
                Reason::StreamTooLong,
                at,
                ErrorKind::CountTooLarge { what: "selector stream entry", count: entry as u64 + 1, max: 96 },
            ));
        }
        let size = selector_bytes(sel, flags).ok_or_else(|| {
            Sc6Error::bad(
                Reason::UnknownSelector,
                at,
                format!("0x{sel:02x} at stream entry {entry}"),
                "the selector switch does not know it",
            )
        })?;
        if mask & bit != 0 {
            if size > 0 {
                out.push(Channel {
                    entry,
                    sel,
                    bit: bit.trailing_zeros(),
                    word: usize::try_from(offset / 2).unwrap_or(0),
                    words: usize::try_from(size / 2).unwrap_or(0),
                });
            }
            offset += size;
        }
        bit = if sel == 0x1B { bit >> 1 } else { bit << 1 };
    }
    Ok((out, offset))
}

/// The channel layout of a clip under `stream`, checked against its word count (docs/formats/sc6-mot.md#selector-streams).
pub(in crate::formats) fn layout(kind: StreamKind, h: &Header) -> R<Vec<Channel>> {
    let at = h.record.presence_mask.span.start;
    let (chans, bytes) = walk_stream(kind.entries(), h.flags, h.mask, at)?;
    if bytes != h.wc * 2 {
        return Err(Sc6Error::bad(
            Reason::ConsumptionMismatch,
            at,
            format!("mask 0x{:x}", h.mask),
            format!("{} stream consumes {} words but the clip has {} words per keyframe", kind.name(), bytes / 2, h.wc),
        ));
    }
    Ok(chans)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_spec_examples() {
        // docs/formats/sc6-mot.md#counts-and-the-group-table: chr0ff clip 0x11 header values: half rate, frame_count 280 → effective 140.5,
        // encoded 140, 18 groups, table end 0x40.
        let (p, e, n, g) = counts(280, F_HALF);
        assert_eq!((p, e, n, g), (280, 140.5, 140, 18));
        assert_eq!(ClipHeader::SIZE + 2 * g, 0x40);
        // chr005 clip 502 header values: extra frame, frame_count 80 → playback = encoded = 81, 11 groups
        assert_eq!(counts(80, F_EXTRA_FRAME), (81, 81.0, 81, 11));
        // quarter rate: P=5 → (5+3)/4 = 2
        assert_eq!(counts(5, F_QUARTER), (5, 2.0, 2, 1));
        // half wins over quarter
        assert_eq!(counts(5, F_HALF | F_QUARTER).2, 3);
    }

    #[test]
    fn stream_word_totals_match_spec_table() {
        // docs/formats/sc6-mot.md#selector-streams maximum words for a full mask: default 122/131, alternate 127/130, skill-check 25/25
        let full = u64::MAX;
        let w = |k: StreamKind, f: u32| walk_stream(k.entries(), f, full, 0).unwrap().1 / 2;
        assert_eq!(w(StreamKind::Default, 0), 122);
        assert_eq!(w(StreamKind::Default, F_F32), 131);
        assert_eq!(w(StreamKind::Alternate, 0), 127);
        assert_eq!(w(StreamKind::Alternate, F_F32), 130);
        assert_eq!(w(StreamKind::SkillCheck, 0), 25);
        assert_eq!(w(StreamKind::SkillCheck, F_F32), 25);
        assert_eq!(STREAM_DEFAULT.len(), 44);
        assert_eq!(STREAM_ALTERNATE.len(), 43);
        assert_eq!(STREAM_SKILL_CHECK.len(), 15);
    }

    #[test]
    fn presence_bit_k_is_entry_k_and_0x1b_reuses_a_bit() {
        // Fixture B's mask 0x104: entries 2 (0x02) and 8 (0x06)
        let (c, bytes) = walk_stream(&STREAM_DEFAULT, 0, 0x104, 0).unwrap();
        assert_eq!(bytes, 8);
        assert_eq!((c[0].entry, c[0].sel, c[0].word, c[0].words), (2, 0x02, 0, 3));
        assert_eq!((c[1].entry, c[1].sel, c[1].word, c[1].words), (8, 0x06, 3, 1));
        // A, 0x1B, B: B reuses A's bit. Mask bit 0 → A and B present; bit 1 (0x1B's) is irrelevant.
        let s = [0x06, 0x1B, 0x02, 0x06];
        let (c, bytes) = walk_stream(&s, 0, 0b1, 0).unwrap();
        assert_eq!(c.iter().map(|c| (c.entry, c.bit)).collect::<Vec<_>>(), vec![(0, 0), (2, 0)]);
        assert_eq!(bytes, 8);
        // entry 3 uses bit 1 again (after B at bit 0 the bit shifts to 1)
        let (c, _) = walk_stream(&s, 0, 0b10, 0).unwrap();
        assert_eq!(c.iter().map(|c| (c.entry, c.bit)).collect::<Vec<_>>(), vec![(3, 1)]);
    }

    #[test]
    fn walk_rejects_unknown_and_long_streams() {
        let e = walk_stream(&[0x02, 0x42], 0, u64::MAX, 0x28).unwrap_err();
        assert_eq!((e.reason, e.err.offset), (Reason::UnknownSelector, 0x28));
        let long = [0x15u8; 97];
        assert_eq!(walk_stream(&long, 0, 0, 0).unwrap_err().reason, Reason::StreamTooLong);
        assert!(walk_stream(&long[..96], 0, 0, 0).is_ok());
        // the terminator stops the walk
        assert_eq!(walk_stream(&[0x02, 0x00, 0x42], 0, u64::MAX, 0).unwrap().1, 6);
    }
}
