//! Walk and validate MOTN bytes: the file header, the sequence and name tables, and each
//! sequence's five blocks. Reads go through [`Bytes`] (absolute offsets, checked); counts
//! are checked against the bytes left and [`Limits`] before anything is allocated.
//! Structural problems that stop a read are errors; the spec's consistency rules (docs/formats/motn.md#consistency-rules)
//! that the game would not notice are collected as [`Finding`]s.

use super::Channel;
use super::raw::{
    self, ATTR_COUNT_MASK, CHANNEL_MASK, FILE_HEADER_LEN, MAX_INSTRUCTIONS, SEQ_HEADER_LEN, TABLE_ENTRY_LEN,
    TRAILER_LEN, VARIANT_KIND, WIDE_BLOCK2,
};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record;
use crate::limits::Limits;
use crate::model::{Severity, Span};

/// The file header's values (docs/formats/motn.md#blob-layout), read through its declaration
/// ([`raw::FileHeader`], kept for its fields' spans).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct Header {
    pub table_ofs: u32,
    pub names_ofs: u32,
    pub data_ofs: u32,
    pub attributes: u32,
    pub file_size: u32,
    /// The record as read.
    pub record: raw::FileHeader,
}

impl Header {
    /// Read the header at offset 0 of `b`.
    pub fn read(b: &Bytes) -> Result<Header> {
        let r: raw::FileHeader = record::read_at(b, 0)?;
        Ok(Header {
            table_ofs: *r.table_ofs,
            names_ofs: *r.names_ofs,
            data_ofs: *r.data_ofs,
            attributes: *r.attributes,
            file_size: *r.file_size,
            record: r,
        })
    }

    /// `(attributes & 0xFFF) - 1`: the number of sequences (never from one byte).
    pub fn seq_count(&self) -> u64 {
        u64::from(self.attributes & ATTR_COUNT_MASK).saturating_sub(1)
    }

    /// The docs/formats/motn.md#detection sanity test for a raw MOTN blob of `len` bytes, plus "the header and the
    /// sequence table fit before the names".
    pub fn plausible(&self, len: u64) -> bool {
        let (t, n, d) = (u64::from(self.table_ofs), u64::from(self.names_ofs), u64::from(self.data_ofs));
        t >= FILE_HEADER_LEN
            && t < n
            && n < d
            && d <= u64::from(self.file_size)
            && u64::from(self.file_size) == len
            && (self.attributes & ATTR_COUNT_MASK) >= 1
            && t + self.seq_count() * TABLE_ENTRY_LEN <= n
    }
}

/// One sequence table entry with its name.
#[derive(Debug, Clone)]
pub(in crate::formats) struct Entry<'a> {
    /// Position in the table.
    pub index: usize,
    /// Absolute offset of the table entry.
    pub at: u64,
    /// Sequence start relative to `data_ofs`.
    pub data_rel: u32,
    /// Absolute offset of the extra-data record.
    pub extra_ofs: u32,
    /// Absolute offset of the name pointer slot.
    pub name_ptr_at: u64,
    /// The name pointer.
    pub name_ptr: u32,
    /// The name bytes (without NUL, borrowed from the file), or why they could not be read
    /// (boxed: one entry a sequence is held while a document opens, and few names fail).
    pub name: std::result::Result<&'a [u8], Box<ParseError>>,
}

impl Entry<'_> {
    /// The table entry as its record reads it (its two words with their spans).
    pub fn record(&self) -> raw::TableEntry {
        raw::TableEntry {
            data_rel: record::Spanned { value: self.data_rel, span: Span::at(self.at, 4) },
            extra_ofs: record::Spanned { value: self.extra_ofs, span: Span::at(self.at + 4, 4) },
        }
    }

    /// The name for display and lookup (escaped), or `#index` when unreadable.
    pub fn display_name(&self) -> String {
        match &self.name {
            Ok(n) => crate::model::escape_text(n),
            Err(_) => format!("#{}", self.index),
        }
    }

    /// True when [`Entry::display_name`] equals `wanted`, without building the name: a
    /// name of plain printable bytes is its own display form.
    pub fn is_named(&self, wanted: &str) -> bool {
        match &self.name {
            Ok(n) if *n == wanted.as_bytes() => true,
            Ok(n) => {
                n.iter().any(|&c| !(0x20..0x7f).contains(&c) || c == b'\\' || c == b'"')
                    && self.display_name() == wanted
            }
            Err(_) => self.display_name() == wanted,
        }
    }

    /// Absolute start of the sequence data: `data_ofs + data_rel`.
    pub fn base(&self, h: &Header) -> u64 {
        u64::from(h.data_ofs) + u64::from(self.data_rel)
    }
}

/// Longest name searched for a NUL.
const MAX_NAME: u64 = 256;

/// Read the sequence table and the name pointers. Errors when either table does not fit;
/// a bad single name is kept as that entry's error.
pub(in crate::formats) fn read_entries<'a>(b: &Bytes<'a>, h: &Header, limits: &Limits) -> Result<Vec<Entry<'a>>> {
    let count = checked_entry_count(b, h, limits)?;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        out.push(read_entry(b, h, i)?);
    }
    Ok(out)
}

/// The number of table entries, after checking that both tables fit.
pub(in crate::formats) fn checked_entry_count(b: &Bytes, h: &Header, limits: &Limits) -> Result<usize> {
    let n = h.seq_count();
    let count =
        b.check_count("sequence table entry", u64::from(h.table_ofs), n, TABLE_ENTRY_LEN, limits.max_nodes as u64)?;
    b.check_count("name pointer", u64::from(h.names_ofs), n, 4, limits.max_nodes as u64)?;
    Ok(count)
}

/// Table entry `i` with its name (no allocation: the name is borrowed from the file).
pub(in crate::formats) fn read_entry<'a>(b: &Bytes<'a>, h: &Header, i: usize) -> Result<Entry<'a>> {
    let at = u64::from(h.table_ofs) + i as u64 * TABLE_ENTRY_LEN;
    let name_ptr_at = u64::from(h.names_ofs) + i as u64 * 4;
    let name_ptr = b.u32_le(name_ptr_at)?;
    let name = if u64::from(name_ptr) >= b.end() {
        Err(Box::new(ParseError::new(
            name_ptr_at,
            ErrorKind::OffsetOutOfRange { what: "name pointer", offset: u64::from(name_ptr), start: 0, end: b.end() },
        )))
    } else {
        b.cstr(u64::from(name_ptr), MAX_NAME).map_err(Box::new)
    };
    // the two words read directly; the record reader only for the error of an entry that
    // does not fit
    let (data_rel, extra_ofs) = match b.slice(at, TABLE_ENTRY_LEN) {
        Ok(&[a0, a1, a2, a3, b0, b1, b2, b3]) => {
            (u32::from_le_bytes([a0, a1, a2, a3]), u32::from_le_bytes([b0, b1, b2, b3]))
        }
        _ => {
            let r: raw::TableEntry = record::read_at(b, at)?;
            (*r.data_rel, *r.extra_ofs)
        }
    };
    Ok(Entry { index: i, at, data_rel, extra_ofs, name_ptr_at, name_ptr, name })
}

/// The first entry whose display name is `wanted`, and the first entry (if another) that
/// shares its sequence data. Reads entries one at a time and stops at the match, so looking
/// up each of n sequences costs no allocation per entry.
pub(in crate::formats) fn find_entry<'a>(
    b: &Bytes<'a>,
    h: &Header,
    wanted: &str,
    limits: &Limits,
) -> Result<Option<(Entry<'a>, Option<Entry<'a>>)>> {
    let count = checked_entry_count(b, h, limits)?;
    // A display name of printable bytes without escapes (`\`, `"`) and not `#index` is the
    // stored bytes themselves: compare them in place (one pointer read and a memcmp per
    // entry) before reading an entry.
    let plain = wanted.bytes().all(|c| (0x20..0x7f).contains(&c) && c != b'\\' && c != b'"')
        && !wanted.starts_with('#')
        && (wanted.len() as u64) < MAX_NAME;
    let stored = |i: usize| -> bool {
        let ptr_at = u64::from(h.names_ofs) + i as u64 * 4;
        let Ok(ptr) = b.u32_le(ptr_at) else { return true };
        b.slice(u64::from(ptr), wanted.len() as u64 + 1)
            .is_ok_and(|s| s.split_last().is_some_and(|(nul, name)| *nul == 0 && name == wanted.as_bytes()))
    };
    for i in 0..count {
        if plain && !stored(i) {
            continue;
        }
        let e = read_entry(b, h, i)?;
        if e.is_named(wanted) {
            let first = first_sharing(b, h, &e)?;
            return Ok(Some((e, first)));
        }
    }
    Ok(None)
}

/// Table entry `i` (an index the table's listing found) and the first entry before it
/// sharing its sequence data, as [`find_entry`] gives them, without comparing names.
pub(in crate::formats) fn entry_at<'a>(
    b: &Bytes<'a>,
    h: &Header,
    i: usize,
    limits: &Limits,
) -> Result<Option<(Entry<'a>, Option<Entry<'a>>)>> {
    if i >= checked_entry_count(b, h, limits)? {
        return Ok(None);
    }
    let e = read_entry(b, h, i)?;
    let first = first_sharing(b, h, &e)?;
    Ok(Some((e, first)))
}

/// The first entry before `e` whose sequence data is `e`'s (an alias's original).
fn first_sharing<'a>(b: &Bytes<'a>, h: &Header, e: &Entry<'a>) -> Result<Option<Entry<'a>>> {
    for j in 0..e.index {
        let other_at = u64::from(h.table_ofs) + j as u64 * TABLE_ENTRY_LEN;
        let other: raw::TableEntry = record::read_at(b, other_at)?;
        if *other.data_rel == e.data_rel {
            return Ok(Some(read_entry(b, h, j)?));
        }
    }
    Ok(None)
}

/// The start of the sequence after `base`: the smallest table start above `base` and below
/// `end` (the data end), else `end`. Reads the table's data offsets only (no allocation),
/// so a decode can bound a variant without listing the file.
pub(in crate::formats) fn next_start(b: &Bytes, h: &Header, base: u64, end: u64, limits: &Limits) -> Result<u64> {
    let count = checked_entry_count(b, h, limits)?;
    let mut next = end;
    for i in 0..count {
        let entry: raw::TableEntry = record::read_at(b, u64::from(h.table_ofs) + i as u64 * TABLE_ENTRY_LEN)?;
        let s = u64::from(h.data_ofs) + u64::from(*entry.data_rel);
        if s > base && s < next {
            next = s;
        }
    }
    Ok(next)
}

/// The optional 32-byte date trailer at the end of `b` (ctime text, `\n`, NULs), if present.
pub(in crate::formats) fn find_trailer(b: &Bytes, not_before: u64) -> Option<raw::Trailer> {
    let start = b.end().checked_sub(TRAILER_LEN)?;
    if start < not_before {
        return None;
    }
    let t: raw::Trailer = record::read_at(b, start).ok()?;
    t.is_date().then_some(t)
}

/// A consistency finding (docs/formats/motn.md#consistency-rules) at an absolute offset.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct Finding {
    pub offset: u64,
    pub severity: Severity,
    pub message: String,
}

/// The sequence header's values (docs/formats/motn.md#standard-sequences), read through its declaration
/// ([`raw::SeqHeader`], kept for its fields' spans).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct SeqHeader {
    /// Absolute start of the sequence.
    pub base: u64,
    pub frame_word: u16,
    pub kind_word: u16,
    pub b2: u16,
    pub b3: u16,
    pub b4: u16,
    pub b5: u16,
    /// The record as read.
    pub record: raw::SeqHeader,
}

impl SeqHeader {
    /// Frame count n (bits 0–14 of `frame_word`).
    pub fn frames(&self) -> u16 {
        self.frame_word & !WIDE_BLOCK2
    }
    /// Block-2 entries are u16.
    pub fn wide2(&self) -> bool {
        self.frame_word & WIDE_BLOCK2 != 0
    }
    /// Block-3 entries are u16 (n > 255).
    pub fn wide3(&self) -> bool {
        self.frames() > 0xFF
    }
    /// Kind word bit 15 (covers 0xFFFF): a variant layout (`variant`), not this keyframe walk.
    pub fn is_variant(&self) -> bool {
        self.kind_word & VARIANT_KIND != 0
    }
    /// Absolute offset of block `i` (2..=5).
    pub fn block(&self, i: usize) -> u64 {
        let rel = match i {
            2 => self.b2,
            3 => self.b3,
            4 => self.b4,
            _ => self.b5,
        };
        self.base + u64::from(rel)
    }
}

/// One Block-1 instruction: `(node << 9) | channel bits`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct Instr {
    pub at: u64,
    pub word: u16,
}

impl Instr {
    pub fn node(&self) -> u8 {
        // 7 bits after the shift, always fits
        u8::try_from(self.word >> 9).unwrap_or(u8::MAX)
    }
    pub fn channels(&self) -> u16 {
        self.word & CHANNEL_MASK
    }
}

/// One key of a channel as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct KeyData {
    /// Frame index (0 and n−1 are implicit for the first and last key).
    pub frame: u16,
    /// Where Block 3 stores the frame (None for the implicit first and last keys).
    pub frame_at: Option<u64>,
    /// 2-bit code: the number of f16 values the key owns.
    pub code: u8,
    /// Absolute offset of the byte holding the code.
    pub code_at: u64,
    /// Slot of the code in that byte (0 = bits 7–6).
    pub code_slot: u8,
    /// Absolute offset of the key's first f16 value in Block 5.
    pub values_at: u64,
    /// The stored f16 bits; the first `code` are meaningful.
    pub raw: [u16; 3],
}

fn h(bits: u16) -> f32 {
    half::f16::from_bits(bits).to_f32()
}

impl KeyData {
    /// In-tangent in units per second (docs/formats/motn.md#key-codes).
    pub fn in_tangent(&self) -> f32 {
        match self.code {
            2 | 3 => h(self.raw[0]),
            _ => 0.0,
        }
    }
    /// Out-tangent in units per second (docs/formats/motn.md#key-codes).
    pub fn out_tangent(&self) -> f32 {
        match self.code {
            2 => h(self.raw[0]),
            3 => h(self.raw[1]),
            _ => 0.0,
        }
    }
    /// Value (docs/formats/motn.md#key-codes; code 0 = 0.0).
    pub fn value(&self) -> f32 {
        match self.code {
            1 => h(self.raw[0]),
            2 => h(self.raw[1]),
            3 => h(self.raw[2]),
            _ => 0.0,
        }
    }
}

/// One channel with its keys and where each block stores them.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct ChannelData {
    pub node: u8,
    pub channel: Channel,
    /// Absolute offset of the Block-2 count.
    pub count_at: u64,
    /// Intermediate key count c (the channel has c + 2 keys).
    pub count: u64,
    /// Absolute offset of the channel's first Block-3 frame.
    pub frames_at: u64,
    /// Absolute offset of the channel's first Block-4 byte and the number of bytes.
    pub codes_at: u64,
    pub code_bytes: u64,
    /// Absolute offset and length in bytes of the channel's Block-5 values.
    pub values_at: u64,
    pub values_len: u64,
    pub keys: Vec<KeyData>,
}

/// A decoded standard sequence.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct SeqBody {
    pub instrs: Vec<Instr>,
    /// Absolute offset of the zero terminator of Block 1.
    pub terminator_at: u64,
    /// Shared with every sequence whose Blocks 2–5 are the same bytes read the same way
    /// (see [`RegionCache`]).
    pub channels: std::sync::Arc<Vec<ChannelData>>,
    /// End of the Block-2 entries, of Block 3, of Block 4 (absolute).
    pub end2: u64,
    pub end3: u64,
    pub end4: u64,
    /// End of Block 5 = end of the sequence (absolute).
    pub end: u64,
    pub findings: Vec<Finding>,
}

/// A sequence: its header and, unless it is a variant layout (parsed by `variant`), its
/// decoded body.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct Sequence {
    pub header: SeqHeader,
    pub body: Option<SeqBody>,
}

impl Sequence {
    /// Channels of the body (none for variants).
    pub fn channels(&self) -> &[ChannelData] {
        self.body.as_ref().map_or(&[], |b| b.channels.as_slice())
    }
}

/// Read a sequence header at `base`.
pub(in crate::formats) fn read_seq_header(b: &Bytes, base: u64) -> Result<SeqHeader> {
    // the six words read directly (the skeleton reads one header a sequence); the record
    // reader only for the error of a header that does not fit
    let r: raw::SeqHeader = match b.slice(base, SEQ_HEADER_LEN) {
        Ok(&[a0, a1, b0, b1, c0, c1, d0, d1, e0, e1, f0, f1]) => {
            let word = |i: u64, lo: u8, hi: u8| record::Spanned {
                value: u16::from_le_bytes([lo, hi]),
                span: Span::at(base + 2 * i, 2),
            };
            raw::SeqHeader {
                frame_word: word(0, a0, a1),
                kind_word: word(1, b0, b1),
                b2: word(2, c0, c1),
                b3: word(3, d0, d1),
                b4: word(4, e0, e1),
                b5: word(5, f0, f1),
            }
        }
        _ => record::read_at(b, base)?,
    };
    Ok(SeqHeader {
        base,
        frame_word: *r.frame_word,
        kind_word: *r.kind_word,
        b2: *r.b2,
        b3: *r.b3,
        b4: *r.b4,
        b5: *r.b5,
        record: r,
    })
}

fn find(out: &mut Vec<Finding>, offset: u64, severity: Severity, message: String) {
    out.push(Finding { offset, severity, message });
}

/// What Blocks 3–5 of a sequence decode to depends only on these: where Blocks 2–5 are
/// (absolute), their widths, the last frame and the channels Block 1 names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct RegionKey {
    blocks: [u64; 4],
    w2: u64,
    w3: u64,
    last_frame: u16,
    chans: Vec<(u8, Channel)>,
}

/// Channels decoded from one region, with the findings made while decoding them.
#[derive(Debug)]
struct Region {
    channels: std::sync::Arc<Vec<ChannelData>>,
    end: u64,
    findings: Vec<Finding>,
}

/// Sequences whose headers point into the same Blocks 2–5 (a shared region: legal-looking,
/// only warnings) decode them once: the channels are shared, not decoded again for every
/// sequence pointing there (thousands of 16-byte headers can point at one 50 KB region).
/// A region is kept only from its second reader on: most files share no region, and
/// keeping every sequence's decoded keys for the whole describe cost 26 MB on a file shaped
/// like the real 1.8 MB one (36 → 89 MB max RSS when tripled); a shared region is decoded
/// twice, then never again. Holds at most [`RegionCache::MAX_KEYS`] keys; past that it starts
/// again.
#[derive(Debug, Default)]
pub(in crate::formats) struct RegionCache {
    regions: std::sync::Mutex<(std::collections::HashMap<RegionKey, std::sync::Arc<Region>>, u64)>,
    /// Hashes of the regions decoded once (a collision only keeps a region not shared).
    seen: std::sync::Mutex<std::collections::HashSet<u64>>,
}

impl RegionCache {
    /// Most keys held (about 48 bytes each).
    const MAX_KEYS: u64 = 1 << 20;

    fn get(&self, key: &RegionKey) -> Option<std::sync::Arc<Region>> {
        self.regions.lock().ok()?.0.get(key).cloned()
    }

    fn put(&self, key: RegionKey, region: std::sync::Arc<Region>) {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        let hash = BuildHasherDefault::<DefaultHasher>::default().hash_one(&key);
        let Ok(mut seen) = self.seen.lock() else { return };
        if seen.insert(hash) {
            return;
        }
        drop(seen);
        let Ok(mut g) = self.regions.lock() else { return };
        let keys: u64 = region.channels.iter().map(|c| c.keys.len() as u64).sum();
        if g.1 + keys > Self::MAX_KEYS {
            g.0.clear();
            g.1 = 0;
        }
        g.1 += keys;
        g.0.insert(key, region);
    }
}

/// Parse the sequence at absolute `base` inside window `b` (reads never leave `b`).
/// Variant layouts (kind word bit 15) return the header only; `variant::parse` reads them.
pub(in crate::formats) fn parse_sequence(b: &Bytes, base: u64, limits: &Limits) -> Result<Sequence> {
    parse_sequence_cached(b, base, limits, None)
}

/// [`parse_sequence`], decoding Blocks 3–5 through `cache` (regions decoded before are
/// shared, not decoded again).
pub(in crate::formats) fn parse_sequence_cached(
    b: &Bytes,
    base: u64,
    limits: &Limits,
    cache: Option<&RegionCache>,
) -> Result<Sequence> {
    let header = read_seq_header(b, base)?;
    if header.is_variant() {
        return Ok(Sequence { header, body: None });
    }
    crate::counters::bump(&crate::counters::MOTN_SEQUENCE_PARSES);
    let mut findings = Vec::new();
    let hd = header;
    check_block_offsets(b, &hd)?;
    let n = hd.frames();
    if n == 0 {
        find(&mut findings, base, Severity::Warning, "frame count is 0".into());
    }
    let last_frame = n.saturating_sub(1);
    let (instrs, terminator_at) = read_instructions(b, &hd, &mut findings)?;
    let chans: Vec<(u8, Channel)> = instrs
        .iter()
        .flat_map(|i| Channel::ALL.iter().filter(move |c| i.word & c.bit() != 0).map(move |c| (i.node(), *c)))
        .collect();
    let ch = chans.len() as u64;
    let (counts, end2) = read_block2(b, &hd, ch, &mut findings)?;
    // Keys budget before allocating.
    let total_inter: u64 = counts.iter().sum();
    Limits::check("keys", total_inter + 2 * ch, limits.max_keys as u64, hd.block(2))?;
    let (end3, end4) = check_blocks_3_4(b, &hd, total_inter, &counts, limits, &mut findings)?;

    // Blocks 3, 4, 5 per channel: once per region.
    let (w2, w3) = (if hd.wide2() { 2 } else { 1 }, if hd.wide3() { 2 } else { 1 });
    let blocks = [hd.block(2), hd.block(3), hd.block(4), hd.block(5)];
    let key = RegionKey { blocks, w2, w3, last_frame, chans };
    let region = match cache.and_then(|c| c.get(&key)) {
        Some(r) => r,
        None => {
            let r = std::sync::Arc::new(decode_region(b, &key, &counts)?);
            if let Some(c) = cache {
                c.put(key, std::sync::Arc::clone(&r));
            }
            r
        }
    };
    findings.extend(region.findings.iter().cloned());
    Ok(Sequence {
        header,
        body: Some(SeqBody {
            instrs,
            terminator_at,
            channels: std::sync::Arc::clone(&region.channels),
            end2,
            end3,
            end4,
            end: region.end,
            findings,
        }),
    })
}

/// The header's block offsets ascend from the header's end and Block 5 starts inside `b`.
fn check_block_offsets(b: &Bytes, hd: &SeqHeader) -> Result<()> {
    let base = hd.base;
    let (b2, b3, b4, b5) = (u64::from(hd.b2), u64::from(hd.b3), u64::from(hd.b4), u64::from(hd.b5));
    if !(SEQ_HEADER_LEN <= b2 && b2 <= b3 && b3 <= b4 && b4 <= b5) {
        return Err(ParseError::new(
            hd.record.b2.span.start,
            ErrorKind::BadValue {
                what: "block offsets",
                value: format!("b2 0x{b2:x} b3 0x{b3:x} b4 0x{b4:x} b5 0x{b5:x}"),
                why: "not ascending from 0xc".into(),
            },
        ));
    }
    if base + b5 > b.end() {
        return Err(ParseError::new(
            hd.record.b5.span.start,
            ErrorKind::OffsetOutOfRange { what: "block 5", offset: base + b5, start: base, end: b.end() },
        ));
    }
    Ok(())
}

/// Block 1: instructions until a zero word, and where that word is. Findings: Block 2 not
/// right after it, nodes not ascending or above 126.
fn read_instructions(b: &Bytes, hd: &SeqHeader, findings: &mut Vec<Finding>) -> Result<(Vec<Instr>, u64)> {
    let base = hd.base;
    let mut instrs = Vec::new();
    let mut at = base + SEQ_HEADER_LEN;
    let terminator_at = loop {
        let word = b.u16_le(at).map_err(|_| no_terminator(base, instrs.len()))?;
        if word == 0 {
            break at;
        }
        if instrs.len() as u64 >= MAX_INSTRUCTIONS {
            return Err(no_terminator(base, instrs.len()));
        }
        instrs.push(Instr { at, word });
        at += 2;
    };
    if terminator_at + 2 != hd.block(2) {
        find(
            findings,
            hd.record.b2.span.start,
            Severity::Warning,
            format!("b2 is 0x{:x} but block 1 ends at +0x{:x}", hd.b2, terminator_at + 2 - base),
        );
    }
    let mut last_node: Option<u8> = None;
    for i in &instrs {
        if last_node.is_some_and(|l| i.node() <= l) {
            find(findings, i.at, Severity::Warning, format!("node {} is not above the previous node", i.node()));
        }
        if i.node() > 126 {
            find(findings, i.at, Severity::Warning, "node 127 is never visited by the game's loop".into());
        }
        last_node = Some(i.node());
    }
    Ok((instrs, terminator_at))
}

/// Block 2: the intermediate key count of each of the `ch` channels, and its end. Findings:
/// Block 3 not after it (with at most one pad byte), the pad rule, non-zero padding.
fn read_block2(b: &Bytes, hd: &SeqHeader, ch: u64, findings: &mut Vec<Finding>) -> Result<(Vec<u64>, u64)> {
    let (base, b3) = (hd.base, hd.b3);
    let w2: u64 = if hd.wide2() { 2 } else { 1 };
    let w3: u64 = if hd.wide3() { 2 } else { 1 };
    b.check_count("block 2 count", hd.block(2), ch, w2, u64::MAX)?;
    let mut counts = Vec::with_capacity(ch as usize);
    for i in 0..ch {
        let at = hd.block(2) + i * w2;
        counts.push(if w2 == 2 { u64::from(b.u16_le(at)?) } else { u64::from(b.u8(at)?) });
    }
    let end2 = hd.block(2) + ch * w2;
    let want_b3 = if w3 == 2 { end2.next_multiple_of(2) } else { end2 };
    // docs/formats/motn.md#consistency-rules allows b3 − end2 ∈ {0, 1}; the encoder's exact pad rule is only noted.
    if end2 > hd.block(3) || hd.block(3) > end2 + 1 {
        find(
            findings,
            hd.record.b3.span.start,
            Severity::Warning,
            format!("b3 is 0x{b3:x} but block 2 ends at +0x{:x}", end2 - base),
        );
    } else if want_b3 != hd.block(3) {
        find(
            findings,
            hd.record.b3.span.start,
            Severity::Info,
            format!("b3 is 0x{b3:x}, the pad rule gives 0x{:x}", want_b3 - base),
        );
    }
    pad_zero(b, end2, hd.block(3), findings);
    Ok((counts, end2))
}

/// Blocks 3 and 4 fit (`total_inter` frames, the code bytes of `counts`) and end where
/// the next block starts; their ends. Findings: a block not ending at the next, the pad
/// rule, non-zero padding.
fn check_blocks_3_4(
    b: &Bytes,
    hd: &SeqHeader,
    total_inter: u64,
    counts: &[u64],
    limits: &Limits,
    findings: &mut Vec<Finding>,
) -> Result<(u64, u64)> {
    let (base, b4, b5) = (hd.base, hd.b4, hd.b5);
    let w3: u64 = if hd.wide3() { 2 } else { 1 };
    b.check_count("block 3 frame", hd.block(3), total_inter, w3, limits.max_keys as u64)?;
    let end3 = hd.block(3) + total_inter * w3;
    if end3 != hd.block(4) {
        find(
            findings,
            hd.record.b4.span.start,
            Severity::Warning,
            format!("b4 is 0x{b4:x} but block 3 ends at +0x{:x}", end3 - base),
        );
    }
    let code_total: u64 = counts.iter().map(|c| (c + 2).div_ceil(4)).sum();
    b.check_count("block 4 byte", hd.block(4), code_total, 1, u64::MAX)?;
    let end4 = hd.block(4) + code_total;
    if hd.block(5) < end4 || hd.block(5) > end4 + 1 {
        find(
            findings,
            hd.record.b5.span.start,
            Severity::Warning,
            format!("b5 is 0x{b5:x} but block 4 ends at +0x{:x}", end4 - base),
        );
    } else if hd.block(5) != end4.next_multiple_of(2) {
        find(
            findings,
            hd.record.b5.span.start,
            Severity::Info,
            format!("b5 0x{b5:x} is not block 4's end rounded to even"),
        );
    }
    pad_zero(b, end4, hd.block(5), findings);
    Ok((end3, end4))
}

/// Decode Blocks 3–5 of the region `key` names, channel by channel (`counts`: Block 2).
fn decode_region(b: &Bytes, key: &RegionKey, counts: &[u64]) -> Result<Region> {
    let RegionKey { blocks: [b2_at, b3_at, b4_at, b5_at], w2, w3, last_frame, chans } = key;
    let (w2, w3, last_frame) = (*w2, *w3, *last_frame);
    let mut findings = Vec::new();
    let mut channels = Vec::with_capacity(chans.len());
    let (mut f_at, mut c_at, mut v_at) = (*b3_at, *b4_at, *b5_at);
    for (ci, ((node, channel), c)) in chans.iter().zip(counts).enumerate() {
        let k = c + 2;
        let frames_at = f_at;
        let code_bytes = k.div_ceil(4);
        let codes_at = c_at;
        let values_at = v_at;
        let mut keys = Vec::with_capacity(usize::try_from(k).unwrap_or(0));
        for j in 0..k {
            // key 0 is at frame 0, the last at the last frame, the rest stored in block 3
            let (frame, frame_at) = if j == 0 {
                (0u16, None)
            } else if j == k - 1 {
                (last_frame, None)
            } else {
                let f = if w3 == 2 { b.u16_le(f_at)? } else { u16::from(b.u8(f_at)?) };
                f_at += w3;
                (f, Some(f_at - w3))
            };
            let byte_at = codes_at + j / 4;
            let slot = (j % 4) as u8;
            let code = (b.u8(byte_at)? >> (6 - 2 * slot)) & 3;
            let mut raw = [0u16; 3];
            let key_at = v_at;
            for r in raw.iter_mut().take(usize::from(code)) {
                *r = b.u16_le(v_at)?;
                v_at += 2;
            }
            keys.push(KeyData { frame, frame_at, code, code_at: byte_at, code_slot: slot, values_at: key_at, raw });
        }
        // unused slots of the last code byte
        let used = usize::try_from(k % 4).unwrap_or(0);
        if used != 0 {
            let last = codes_at + code_bytes - 1;
            let mask = 0xFFu8 >> (2 * used);
            if b.u8(last)? & mask != 0 {
                find(&mut findings, last, Severity::Info, "unused code slots are not zero".into());
            }
        }
        c_at += code_bytes;
        // frames non-decreasing and within 1..n-2
        let mut prev = 0u16;
        for key in keys.iter().skip(1).take(usize::try_from(*c).unwrap_or(0)) {
            if let Some(fa) = key.frame_at {
                if key.frame < prev {
                    find(
                        &mut findings,
                        fa,
                        Severity::Warning,
                        format!("frame {} is below the previous {prev}", key.frame),
                    );
                }
                if key.frame == 0 || key.frame >= last_frame {
                    find(
                        &mut findings,
                        fa,
                        Severity::Warning,
                        format!("frame {} is outside 1..{}", key.frame, last_frame.saturating_sub(1)),
                    );
                }
                prev = key.frame;
            }
        }
        channels.push(ChannelData {
            node: *node,
            channel: *channel,
            count_at: b2_at + ci as u64 * w2,
            count: *c,
            frames_at,
            codes_at,
            code_bytes,
            values_at,
            values_len: v_at - values_at,
            keys,
        });
    }
    Ok(Region { channels: std::sync::Arc::new(channels), end: v_at, findings })
}

fn no_terminator(base: u64, count: usize) -> ParseError {
    ParseError::new(
        base + SEQ_HEADER_LEN,
        ErrorKind::BadValue {
            what: "block 1",
            value: format!("{count} instructions"),
            why: "instruction list has no zero terminator".into(),
        },
    )
}

fn pad_zero(b: &Bytes, start: u64, end: u64, findings: &mut Vec<Finding>) {
    if end > start
        && let Ok(s) = b.slice(start, end - start)
        && s.iter().any(|&x| x != 0)
    {
        find(findings, start, Severity::Info, "pad byte is not zero".into());
    }
}

#[cfg(test)]
mod region_cache_tests {
    use super::*;

    fn key(at: u64) -> RegionKey {
        RegionKey { blocks: [at, at + 8, at + 16, at + 24], w2: 2, w3: 1, last_frame: 9, chans: vec![] }
    }

    fn region() -> std::sync::Arc<Region> {
        std::sync::Arc::new(Region { channels: std::sync::Arc::new(Vec::new()), end: 0, findings: Vec::new() })
    }

    /// A region read by one sequence is not kept (the describe would hold every sequence's
    /// keys); the second reader's decode is kept and the third finds it.
    #[test]
    fn a_region_is_kept_from_its_second_reader_on() {
        let cache = RegionCache::default();
        cache.put(key(0x100), region());
        assert!(cache.get(&key(0x100)).is_none(), "kept after one reader");
        cache.put(key(0x200), region());
        assert!(cache.get(&key(0x200)).is_none());
        cache.put(key(0x100), region());
        assert!(cache.get(&key(0x100)).is_some(), "not kept after the second reader");
        assert!(cache.get(&key(0x200)).is_none());
    }
}
