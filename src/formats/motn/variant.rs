//! The variant sequence layouts of docs/formats/motn.md#variant-sequences: parse with strict
//! bounds checks, describe every byte with field annotations and walk steps, and decode
//! into the same [`Clip`] as standard sequences.
//!
//! - **Baked-frame ("B")**, kind word bit 15 set and not 0xFFFF (docs/formats/motn.md#baked-frame-layout): a 14-byte header
//!   (n, kind word = `0x8000 | skeleton type`, stride, a 64-bit node mask in four u16),
//!   then n records of `stride` bytes: root px/py/pz as f16, root rx/ry/rz as s16 binary
//!   angles, then per mask node (ascending) rx/ry/rz, or one "bend" value for the hinge
//!   nodes 7/14/28/34. `stride = 12 + 2·Σ(3 or 1)` is required.
//! - **Node-track ("T")**, kind word 0xFFFF (docs/formats/motn.md#node-track-layout): a 12-byte header (n, 0xFFFF, three
//!   unknown words and the record count k), k records of 32 bytes (scale block offset and
//!   static scale, three rotation (offset, first sample) pairs, three translation (offset,
//!   f16) pairs), then dense blocks reached through u16 offsets from the sequence start:
//!   rotation tracks of n + 1 s16 angles and interleaved scale blocks of n + 1 (sx, sy, sz).
//!
//! Angles are s16 binary angles, 0x10000 = one turn; decoded tracks carry radians. Both
//! layouts are dense: tracks are sampled (one sample per stored frame), not keyed. Every
//! count is checked against the bytes up to `limit` (the next sequence or the data end)
//! and against [`Limits`] before anything is allocated. What the spec marks [INFER] is
//! labelled so; unknown header words are shown as unknown.

use super::parse::{Finding, Header, SeqHeader, next_start};
use super::raw;
use super::raw::{
    ANGLE_UNITS_PER_TURN, BAKED_HEADER_LEN, FPS, HINGE_NODES, HUMAN_KINDS, NODE_TRACK_HEADER_LEN, NODE_TRACK_KIND,
    RECORD_LEN, VARIANT_KIND, WIDE_BLOCK2, node_name,
};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{self, Record as _};
use crate::formats::{DecodeOptions, Survey};
use crate::limits::Limits;
use crate::model::anim::{Clip, Table, Track, Unit};
use crate::model::build::{count, fill_gaps_from, place};
use crate::model::{Diagnostic, Document, Field, NodeId, Severity, Span, Value, WalkStep, fmt_num};

/// Which layout a kind word selects (docs/formats/motn.md#variant-sequences: 0xFFFF is tested before bit 15).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) enum Layout {
    /// Bit 15 clear: the keyframe layout of docs/formats/motn.md.
    Standard,
    /// Bit 15 set, not 0xFFFF.
    Baked,
    /// Exactly 0xFFFF.
    NodeTrack,
}

impl Layout {
    pub fn of(kind_word: u16) -> Layout {
        if kind_word == NODE_TRACK_KIND {
            Layout::NodeTrack
        } else if kind_word & VARIANT_KIND != 0 {
            Layout::Baked
        } else {
            Layout::Standard
        }
    }
}

/// An s16 binary angle in radians.
pub(in crate::formats) fn angle_rad(v: i16) -> f64 {
    f64::from(v) * std::f64::consts::TAU / ANGLE_UNITS_PER_TURN
}

/// An s16 binary angle in degrees.
pub(in crate::formats) fn angle_deg(v: i16) -> f64 {
    f64::from(v) * 360.0 / ANGLE_UNITS_PER_TURN
}

fn f16_value(bits: u16) -> f64 {
    f64::from(half::f16::from_bits(bits).to_f32())
}

fn f16_finite(bits: u16) -> bool {
    half::f16::from_bits(bits).is_finite()
}

const AXES: [&str; 3] = ["x", "y", "z"];

/// `x`, `y`, `z` for axis 0, 1, 2.
fn axis(a: usize) -> &'static str {
    AXES.get(a).copied().unwrap_or("?")
}

/// One value column of a baked frame record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct Column {
    /// Motion-rig node id (0 = the implicit root).
    pub node: u8,
    /// Channel name: `px`..`pz` (f16), `rx`..`rz` or `bend` (s16 angles).
    pub channel: &'static str,
    /// Byte offset inside the frame record.
    pub rel: u64,
}

impl Column {
    /// An s16 binary angle (every column but the root position).
    pub fn is_angle(&self) -> bool {
        !self.channel.starts_with('p')
    }
}

/// A parsed baked-frame sequence.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct Baked {
    pub base: u64,
    pub frame_word: u16,
    pub kind_word: u16,
    pub stride: u16,
    /// The mask words at +6, +8, +0xA, +0xC.
    pub masks: [u16; 4],
    /// Mask nodes ascending, each with its number of values (1 for hinge nodes, else 3).
    pub nodes: Vec<(u8, u8)>,
    /// Absolute end (`base + 14 + n·stride`).
    pub end: u64,
    pub findings: Vec<Finding>,
    /// The header as read.
    pub header: raw::BakedHeader,
}

impl Baked {
    /// Frame count n.
    pub fn frames(&self) -> u16 {
        self.frame_word & !WIDE_BLOCK2
    }
    /// Skeleton type: kind word bits 0–14.
    pub fn skeleton_type(&self) -> u16 {
        self.kind_word & !VARIANT_KIND
    }
    /// The 64-bit node mask.
    pub fn mask(&self) -> u64 {
        self.masks.iter().enumerate().fold(0, |m, (j, w)| m | (u64::from(*w) << (16 * j)))
    }
    /// Absolute start of frame `f`'s record.
    pub fn frame_at(&self, f: u64) -> u64 {
        self.base + BAKED_HEADER_LEN + f * u64::from(self.stride)
    }
    /// The value columns of a frame record, in stored order.
    pub fn columns(&self) -> Vec<Column> {
        let mut out = Vec::with_capacity(6 + 3 * self.nodes.len());
        for (i, c) in ["px", "py", "pz", "rx", "ry", "rz"].into_iter().enumerate() {
            out.push(Column { node: 0, channel: c, rel: 2 * i as u64 });
        }
        let mut rel = 12;
        for &(node, values) in &self.nodes {
            let names: &[&'static str] = if values == 1 { &["bend"] } else { &["rx", "ry", "rz"] };
            for c in names {
                out.push(Column { node, channel: c, rel });
                rel += 2;
            }
        }
        out
    }
}

/// One 32-byte node-track record as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct Record {
    /// Absolute offset of the record.
    pub at: u64,
    /// Offset of the animated scale block (0 = static).
    pub scale_ofs: u16,
    /// Static scale (sx, sy, sz) as f16 bits.
    pub scale: [u16; 3],
    /// (track offset, first sample) for rx, ry, rz.
    pub rotation: [(u16, i16); 3],
    /// (offset, f16 bits) for px, py, pz; the offset is always 0 (checked).
    pub translation: [(u16, u16); 3],
    /// The record as read.
    pub raw: raw::NodeTrackRecord,
}

/// What a node-track block holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) enum BlockKind {
    /// n + 1 interleaved (sx, sy, sz) f16 triples.
    Scale,
    /// n + 1 s16 angles of axis 0..3 (x, y, z).
    Rotation(usize),
}

/// One block reached through a record's offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct Block {
    pub record: usize,
    pub kind: BlockKind,
    /// Absolute start and end.
    pub start: u64,
    pub end: u64,
    /// Absolute offset of the offset field that points here.
    pub field_at: u64,
}

impl Block {
    /// Node key and display name: `record[0].scale`, `record[1].rx`.
    pub fn name(&self) -> String {
        match self.kind {
            BlockKind::Scale => format!("record[{}].scale", self.record),
            BlockKind::Rotation(a) => format!("record[{}].r{}", self.record, axis(a)),
        }
    }
}

/// A parsed node-track sequence.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct NodeTrack {
    pub base: u64,
    pub frame_word: u16,
    pub unk_04: u16,
    pub unk_06: u16,
    pub k: u16,
    pub unk_0a: u16,
    pub records: Vec<Record>,
    /// The header as read.
    pub header: raw::NodeTrackHeader,
    /// Blocks in record order (scale, rx, ry, rz), as the writer lays them out.
    pub blocks: Vec<Block>,
    /// Absolute end: the end of the last block (or of the record table).
    pub end: u64,
    pub findings: Vec<Finding>,
}

impl NodeTrack {
    /// n (the header's frame count).
    pub fn frames(&self) -> u16 {
        self.frame_word & !WIDE_BLOCK2
    }
    /// Samples per track: n + 1.
    pub fn samples(&self) -> u64 {
        u64::from(self.frames()) + 1
    }
    /// Absolute end of the record table.
    pub fn table_end(&self) -> u64 {
        self.base + NODE_TRACK_HEADER_LEN + RECORD_LEN * u64::from(self.k)
    }
    /// The block a record's offset field points at.
    pub fn block(&self, record: usize, kind: BlockKind) -> Option<&Block> {
        self.blocks.iter().find(|b| b.record == record && b.kind == kind)
    }
}

/// A parsed variant sequence.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) enum Variant {
    Baked(Baked),
    NodeTrack(NodeTrack),
}

impl Variant {
    /// Absolute end of the sequence.
    pub fn end(&self) -> u64 {
        match self {
            Variant::Baked(v) => v.end,
            Variant::NodeTrack(v) => v.end,
        }
    }
    /// Consistency findings.
    pub fn findings(&self) -> &[Finding] {
        match self {
            Variant::Baked(v) => &v.findings,
            Variant::NodeTrack(v) => &v.findings,
        }
    }
}

fn find(out: &mut Vec<Finding>, offset: u64, severity: Severity, message: String) {
    out.push(Finding { offset, severity, message });
}

fn bad(offset: u64, what: &'static str, value: String, why: impl Into<String>) -> ParseError {
    ParseError::new(offset, ErrorKind::BadValue { what, value, why: why.into() })
}

/// Parse the variant sequence whose header is `hd` inside `b`; it may occupy bytes up to
/// the absolute `limit` (the next sequence start or the data end). Errors for every rule
/// the spec calls strict; warnings and notes as findings.
pub(in crate::formats) fn parse(b: &Bytes, hd: &SeqHeader, limit: u64, limits: &Limits) -> Result<Variant> {
    let base = hd.base;
    let w = b.sub(base, limit.min(b.end()).max(base))?;
    if hd.frame_word & WIDE_BLOCK2 != 0 {
        return Err(bad(
            base,
            "frame_word",
            format!("0x{:04x}", hd.frame_word),
            "bit 15 (wide block 2) is set, which no variant layout uses",
        ));
    }
    match Layout::of(hd.kind_word) {
        Layout::Baked => parse_baked(&w, hd, limits).map(Variant::Baked),
        Layout::NodeTrack => parse_node_track(&w, hd, limits).map(Variant::NodeTrack),
        Layout::Standard => Err(bad(
            hd.record.kind_word.span.start,
            "kind_word",
            format!("0x{:04x}", hd.kind_word),
            "bit 15 is clear: a standard sequence",
        )),
    }
}

/// The "no gaps" rule of docs/formats/motn.md#variant-sequences: a variant ends exactly where the next sequence begins.
fn gap_after(findings: &mut Vec<Finding>, end: u64, limit: u64) {
    if end < limit {
        find(
            findings,
            end,
            Severity::Warning,
            format!(
                "variant ends at 0x{end:x}, {} before the next sequence or the data end at 0x{limit:x} \
                 (variants end exactly where the next begins)",
                count(limit - end, "byte")
            ),
        );
    }
}

fn parse_baked(w: &Bytes, hd: &SeqHeader, limits: &Limits) -> Result<Baked> {
    let base = hd.base;
    let n = hd.frame_word;
    if n == 0 {
        return Err(bad(base, "frame count", "0".into(), "a baked-frame sequence holds at least one frame"));
    }
    let header: raw::BakedHeader = record::read_at(w, base)?;
    let stride = *header.stride;
    let masks = header.mask.map(|m| *m);
    let mask = masks.iter().enumerate().fold(0u64, |m, (j, v)| m | (u64::from(*v) << (16 * j)));
    if mask & 1 != 0 {
        return Err(bad(
            header.mask[0].span.start,
            "node mask",
            format!("0x{mask:016x}"),
            "bit 0 (the root) is set; the root is stored implicitly at the start of each frame",
        ));
    }
    let mut findings = Vec::new();
    if masks[3] != 0 {
        find(
            &mut findings,
            header.mask[3].span.start,
            Severity::Warning,
            format!("mask3 is 0x{:04x}: 0 in the sample data; read as node mask bits 48–63 [I]", masks[3]),
        );
    }
    let nodes: Vec<(u8, u8)> = (1u8..64)
        .filter(|id| mask >> id & 1 != 0)
        .map(|id| (id, if HINGE_NODES.contains(&id) { 1 } else { 3 }))
        .collect();
    let values: u64 = nodes.iter().map(|(_, v)| u64::from(*v)).sum();
    let want = 12 + 2 * values;
    if u64::from(stride) != want {
        return Err(bad(
            header.stride.span.start,
            "stride",
            stride.to_string(),
            format!(
                "the node mask gives 12 + 2·{values} = {want} bytes per frame (docs/formats/motn.md#baked-frame-layout)"
            ),
        ));
    }
    let frames_at = base + BAKED_HEADER_LEN;
    w.check_count("baked frame", frames_at, u64::from(n), u64::from(stride), u64::from(n))?;
    Limits::check("variant samples", u64::from(n) * (6 + values), limits.max_keys as u64, frames_at)?;
    let end = frames_at + u64::from(n) * u64::from(stride);
    let mut non_finite = 0u64;
    for f in 0..u64::from(n) {
        for j in 0..3 {
            let at = frames_at + f * u64::from(stride) + 2 * j;
            if !f16_finite(w.u16_le(at)?) {
                non_finite += 1;
                if non_finite <= 8 {
                    find(
                        &mut findings,
                        at,
                        Severity::Warning,
                        format!("frame {f} root p{} is not finite", axis(j as usize)),
                    );
                }
            }
        }
    }
    if non_finite > 8 {
        find(&mut findings, frames_at, Severity::Warning, format!("{non_finite} root position values are not finite"));
    }
    if n > 1 {
        let first = w.slice(frames_at, u64::from(stride))?;
        let last = w.slice(frames_at + u64::from(n - 1) * u64::from(stride), u64::from(stride))?;
        if first == last {
            find(
                &mut findings,
                frames_at + u64::from(n - 1) * u64::from(stride),
                Severity::Info,
                format!("frame {} repeats frame 0 (loop closure; common, not a rule)", n - 1),
            );
        }
    }
    gap_after(&mut findings, end, w.end());
    Ok(Baked { base, frame_word: hd.frame_word, kind_word: hd.kind_word, stride, masks, nodes, end, findings, header })
}

fn parse_node_track(w: &Bytes, hd: &SeqHeader, limits: &Limits) -> Result<NodeTrack> {
    let base = hd.base;
    let n = hd.frame_word;
    if n == 0 {
        return Err(bad(
            base,
            "frame count",
            "0".into(),
            "a node-track sequence needs n ≥ 1 (tracks hold n + 1 samples)",
        ));
    }
    let header: raw::NodeTrackHeader = record::read_at(w, base)?;
    let (unk_04, unk_06, k, unk_0a) = (*header.unk_04, *header.unk_06, *header.record_count, *header.unk_0a);
    if k == 0 {
        return Err(bad(
            header.record_count.span.start,
            "record count",
            "0".into(),
            "a node-track sequence holds at least one record",
        ));
    }
    let mut findings = Vec::new();
    for (at, v, want, name) in [
        (header.unk_04.span.start, unk_04, 0x3C00, "unk_04"),
        (header.unk_06.span.start, unk_06, 0, "unk_06"),
        (header.unk_0a.span.start, unk_0a, 0, "unk_0A"),
    ] {
        if v != want {
            find(
                &mut findings,
                at,
                Severity::Warning,
                format!("{name} is 0x{v:04x}, 0x{want:04x} in all the sample data (meaning unknown)"),
            );
        }
    }
    let table_at = base + NODE_TRACK_HEADER_LEN;
    let kk = w.check_count("node-track record", table_at, u64::from(k), RECORD_LEN, limits.max_nodes as u64)?;
    let samples = u64::from(n) + 1;
    // 9 tracks of n + 1 samples per record
    Limits::check(
        "variant samples",
        u64::from(k) * 9 * samples,
        limits.max_keys as u64,
        header.record_count.span.start,
    )?;
    let table = TrackTable { w, base, table_end: table_at + RECORD_LEN * u64::from(k), samples };
    let mut records = Vec::with_capacity(kk);
    let mut blocks = Vec::with_capacity(4 * kk);
    for r in 0..kk {
        let at = table_at + RECORD_LEN * r as u64;
        let raw: raw::NodeTrackRecord = record::read(w, at, (base,))?;
        let rec = Record {
            at,
            scale_ofs: *raw.scale_ofs,
            scale: raw.scale.map(|v| *v),
            rotation: raw.rotation.map(|(o, v)| (*o, *v)),
            translation: raw.translation.map(|(o, v)| (*o, *v)),
            raw,
        };
        table.record_blocks(r, &rec, &mut blocks, &mut findings)?;
        records.push(rec);
    }
    let end = table.check_layout(&blocks, &mut findings)?;
    table.check_first_samples(&records, &blocks, &mut findings)?;
    gap_after(&mut findings, end, w.end());
    Ok(NodeTrack { base, frame_word: hd.frame_word, unk_04, unk_06, k, unk_0a, records, header, blocks, end, findings })
}

/// A node-track sequence's record table and where its blocks may lie: after the table
/// (`table_end`) and inside the window `w`; each track holds `samples` samples.
struct TrackTable<'a, 'b> {
    w: &'a Bytes<'b>,
    base: u64,
    table_end: u64,
    samples: u64,
}

impl TrackTable<'_, '_> {
    /// The blocks record `r` points at (its scale and rotation tracks) into `blocks`; a
    /// rotation offset 0 is a finding, an animated translation unsupported.
    fn record_blocks(
        &self,
        r: usize,
        rec: &Record,
        blocks: &mut Vec<Block>,
        findings: &mut Vec<Finding>,
    ) -> Result<()> {
        if rec.scale_ofs != 0 {
            blocks.push(self.block(r, rec.at, rec.scale_ofs, BlockKind::Scale, 6 * self.samples)?);
        }
        for (a, (ofs_field, _)) in rec.raw.rotation.iter().enumerate() {
            let (ofs, field_at) = (**ofs_field, ofs_field.span.start);
            if ofs == 0 {
                find(
                    findings,
                    field_at,
                    Severity::Info,
                    format!(
                        "record {r} r{} offset 0: a constant track of its first sample (never seen in the sample data)",
                        axis(a)
                    ),
                );
            } else {
                blocks.push(self.block(r, field_at, ofs, BlockKind::Rotation(a), 2 * self.samples)?);
            }
        }
        for (a, (ofs_field, _)) in rec.raw.translation.iter().enumerate() {
            let ofs = **ofs_field;
            if ofs != 0 {
                return Err(ParseError::new(
                    ofs_field.span.start,
                    ErrorKind::Unsupported(format!(
                        "record {r} p{} offset 0x{ofs:x}: animated translations were never observed (docs/formats/motn.md#node-track-layout)",
                        axis(a)
                    )),
                ));
            }
        }
        Ok(())
    }

    /// The `len`-byte block of record `r` at offset `ofs` (stored at `field_at`): even,
    /// after the table and inside the window.
    fn block(&self, r: usize, field_at: u64, ofs: u16, kind: BlockKind, len: u64) -> Result<Block> {
        let (w, table_end) = (self.w, self.table_end);
        let start = self.base + u64::from(ofs);
        if !ofs.is_multiple_of(2) {
            return Err(bad(field_at, "block offset", format!("0x{ofs:x}"), "odd; blocks start at even offsets"));
        }
        if start < table_end {
            return Err(ParseError::new(
                field_at,
                ErrorKind::OffsetOutOfRange { what: "node-track block", offset: start, start: table_end, end: w.end() },
            ));
        }
        if start + len > w.end() {
            return Err(ParseError::new(
                field_at,
                ErrorKind::OffsetOutOfRange {
                    what: "node-track block end",
                    offset: start + len,
                    start: table_end,
                    end: w.end(),
                },
            ));
        }
        Ok(Block { record: r, kind, start, end: start + len, field_at })
    }

    /// The blocks in order after the table: overlaps are errors, gaps between the table and
    /// the blocks, or between blocks, are warnings. Returns the end of the last block.
    fn check_layout(&self, blocks: &[Block], findings: &mut Vec<Finding>) -> Result<u64> {
        let mut sorted: Vec<&Block> = blocks.iter().collect();
        sorted.sort_by_key(|b| (b.start, b.field_at));
        let mut cur = self.table_end;
        for (i, blk) in sorted.iter().enumerate() {
            if let Some(prev) = i.checked_sub(1).and_then(|p| sorted.get(p))
                && blk.start < prev.end
            {
                return Err(bad(
                    blk.field_at,
                    "block offsets",
                    format!("0x{:x}..0x{:x} and 0x{:x}..0x{:x}", prev.start, prev.end, blk.start, blk.end),
                    format!("{} overlaps {}", blk.name(), prev.name()),
                ));
            }
            if blk.start > cur {
                find(
                    findings,
                    cur,
                    Severity::Warning,
                    format!(
                        "{} unused before {} at 0x{:x} (blocks follow each other without gaps)",
                        count(blk.start - cur, "byte"),
                        blk.name(),
                        blk.start
                    ),
                );
            }
            cur = cur.max(blk.end);
        }
        Ok(cur)
    }

    /// First samples and static scales against the blocks; f16 values finite.
    fn check_first_samples(&self, records: &[Record], blocks: &[Block], findings: &mut Vec<Finding>) -> Result<()> {
        let w = self.w;
        for (r, rec) in records.iter().enumerate() {
            for (a, (_, first_field)) in rec.raw.rotation.iter().enumerate() {
                let first = **first_field;
                if let Some(blk) = blocks.iter().find(|b| b.record == r && b.kind == BlockKind::Rotation(a)) {
                    let s0 = w.i16_le(blk.start)?;
                    if s0 != first {
                        find(
                            findings,
                            first_field.span.start,
                            Severity::Warning,
                            format!("record {r} r{}0 is {first} but the track's sample 0 is {s0}", axis(a)),
                        );
                    }
                }
            }
            if let Some(blk) = blocks.iter().find(|b| b.record == r && b.kind == BlockKind::Scale) {
                self.check_scale_block(r, rec, blk, findings)?;
            }
            for v in rec.raw.scale.iter().chain(rec.raw.translation.iter().map(|(_, v)| v)) {
                if !f16_finite(**v) {
                    find(findings, v.span.start, Severity::Warning, format!("record {r}: f16 value is not finite"));
                }
            }
        }
        Ok(())
    }

    /// Record `r`'s scale block: its first sample is the static scale, every value finite.
    fn check_scale_block(&self, r: usize, rec: &Record, blk: &Block, findings: &mut Vec<Finding>) -> Result<()> {
        let w = self.w;
        let s0 = [w.u16_le(blk.start)?, w.u16_le(blk.start + 2)?, w.u16_le(blk.start + 4)?];
        if s0 != rec.scale {
            find(
                findings,
                rec.raw.scale[0].span.start,
                Severity::Warning,
                format!("record {r}: the static scale differs from the scale block's first sample"),
            );
        }
        let mut bad_at = None;
        for i in 0..3 * self.samples {
            let at = blk.start + 2 * i;
            if !f16_finite(w.u16_le(at)?) {
                bad_at = bad_at.or(Some(at));
            }
        }
        if let Some(at) = bad_at {
            find(findings, at, Severity::Warning, format!("record {r}: scale block holds non-finite f16 values"));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Decode and survey

/// Decode the variant sequence `hd` of the MOTN blob `file` (header `h`) under `names`: its
/// name and, for an alias, the name it shares its data with; `window` is the sequence data
/// area. The sequence may reach the next sequence start.
pub(in crate::formats) fn decode(
    file: &Bytes,
    h: &Header,
    window: &Bytes,
    hd: &SeqHeader,
    (name, alias_of): (&str, Option<&str>),
    opts: &DecodeOptions,
    limits: &Limits,
) -> Result<Clip> {
    let limit = next_start(file, h, hd.base, window.end(), limits)?;
    let v = parse(window, hd, limit, limits)?;
    clip(name, &v, window, alias_of, !opts.curves_only)
}

/// Survey counters of one variant sequence (`sequences.variant`, `sequences.baked` /
/// `sequences.node_track`, frames, nodes or records, hinge nodes, scale blocks), its
/// warnings and its error as findings. Returns the bytes walked.
pub(in crate::formats) fn survey(
    s: &mut Survey,
    b: &Bytes,
    hd: &SeqHeader,
    limit: u64,
    limits: &Limits,
    path: &str,
) -> u64 {
    s.add("sequences.variant", 1);
    match parse(b, hd, limit, limits) {
        Err(err) => {
            s.add("sequences.variant_failed", 1);
            s.findings.push(Diagnostic::from_error(&err.within(path)));
            BAKED_HEADER_LEN
        }
        Ok(v) => {
            match &v {
                Variant::Baked(x) => {
                    s.add("sequences.baked", 1);
                    s.add("baked.frames", u64::from(x.frames()));
                    s.add("baked.nodes", x.nodes.len() as u64);
                    s.add("baked.hinge_nodes", x.nodes.iter().filter(|(_, v)| *v == 1).count() as u64);
                }
                Variant::NodeTrack(x) => {
                    s.add("sequences.node_track", 1);
                    s.add("node_track.frames", u64::from(x.frames()));
                    s.add("node_track.records", u64::from(x.k));
                    s.add(
                        "node_track.scale_blocks",
                        x.blocks.iter().filter(|b| b.kind == BlockKind::Scale).count() as u64,
                    );
                }
            }
            for f in v.findings().iter().filter(|f| f.severity >= Severity::Warning) {
                s.findings.push(Diagnostic::new(f.severity, Some(f.offset), path, f.message.clone()));
            }
            v.end().saturating_sub(hd.base)
        }
    }
}

fn track(name: String, target: String, unit: Unit, samples: Vec<f64>) -> Track {
    Track { name, target, unit, keys: Vec::new(), samples, unknown: false }
}

/// The clip of a parsed variant named `name`. Without `detail` the display tables are left
/// out (the tracks are the same).
pub(in crate::formats) fn clip(
    name: &str,
    v: &Variant,
    b: &Bytes,
    alias_of: Option<&str>,
    detail: bool,
) -> Result<Clip> {
    let mut clip = match v {
        Variant::Baked(s) => baked_clip(name, s, b, detail)?,
        Variant::NodeTrack(s) => node_track_clip(name, s, b, detail)?,
    };
    clip.notes.push(
        "angles are s16 binary angles (0x10000 = 360°, docs/formats/motn.md#conventions); tracks carry radians, wrapping at ±180° as stored; \
         Euler order and absolute vs bind-relative values are open (docs/formats/motn.md#open-questions)"
            .into(),
    );
    if let Some(a) = alias_of {
        clip.notes.push(format!("shares its data with {a}"));
    }
    clip.notes
        .push("no poses: variant layouts are decoded as tracks only (no rig mapping is established for them)".into());
    Ok(clip)
}

fn baked_clip(name: &str, s: &Baked, b: &Bytes, detail: bool) -> Result<Clip> {
    let n = usize::from(s.frames());
    let ty = s.skeleton_type();
    let mut clip = Clip::new(name, FPS, n);
    clip.notes.push(format!(
        "baked-frame variant layout (kind word 0x{:04x}, docs/formats/motn.md#baked-frame-layout): {n} frames at 30 fps, one pose record of {} bytes per frame, \
         sampled (no keys); skeleton type 0x{ty:04x}{}",
        s.kind_word,
        s.stride,
        if HUMAN_KINDS.contains(&ty) { " (standard human rig: node names from S2/S3 IKBoneID)" } else { " (rig not known: nodes shown as node_N)" }
    ));
    if s.nodes.iter().any(|(_, v)| *v == 1) {
        clip.notes.push(
            "hinge nodes 7/14/28/34 (probably knees and elbows [I]) store one bend value whose rotation axis is unknown; \
             the 3 + 1 split with the upper limb is [I] (docs/formats/motn.md#baked-frame-layout)"
                .into(),
        );
    }
    if ty != 0 && ty != 0x0D {
        clip.notes.push(format!(
            "the hinge table of skeleton type 0x{ty:04x} is unknown (the sample data has types 0 and 0x0D only); \
             the 7/14/28/34 table is applied, and the stride matched it"
        ));
    }
    clip.notes.push("root position in model units (f16, probably metres [I])".into());
    let cols = s.columns();
    let mut names = Vec::with_capacity(cols.len());
    let mut node: Option<(u8, String)> = None;
    for c in &cols {
        let target = match &node {
            Some((id, nm)) if *id == c.node => nm.clone(),
            _ => node.insert((c.node, node_name(ty, c.node))).1.clone(),
        };
        names.push((format!("{target}.{}", c.channel), target));
    }
    let mut columns: Vec<Vec<f64>> = cols.iter().map(|_| Vec::with_capacity(n)).collect();
    let mut table = Table {
        name: "frames".into(),
        columns: ["frame", "offset"]
            .into_iter()
            .map(String::from)
            .chain(names.iter().map(|(t, _)| t.clone()))
            .collect(),
        rows: Vec::new(),
    };
    for f in 0..n as u64 {
        let at = s.frame_at(f);
        let mut row = if detail { vec![f.to_string(), format!("0x{at:x}")] } else { Vec::new() };
        for (c, out) in cols.iter().zip(columns.iter_mut()) {
            let word = b.u16_le(at + c.rel)?;
            let (value, cell) = if c.is_angle() {
                let v = word as i16;
                (angle_rad(v), v.to_string())
            } else {
                (f16_value(word), fmt_num(f16_value(word)))
            };
            out.push(value);
            if detail {
                row.push(cell);
            }
        }
        if detail {
            table.rows.push(row);
        }
    }
    for ((c, (tname, target)), samples) in cols.iter().zip(names).zip(columns) {
        let unit = if c.is_angle() { Unit::Radians } else { Unit::GameUnits };
        clip.tracks.push(track(tname, target, unit, samples));
    }
    if detail {
        let mut nodes = Table {
            name: "nodes".into(),
            columns: ["node", "name", "values", "offset in frame"].map(String::from).to_vec(),
            rows: vec![vec!["0".into(), node_name(ty, 0), "px py pz (f16) rx ry rz".into(), "0x0".into()]],
        };
        let mut rel = 12u64;
        for &(id, v) in &s.nodes {
            let what = if v == 1 { "bend (hinge, axis unknown)" } else { "rx ry rz" };
            nodes.rows.push(vec![id.to_string(), node_name(ty, id), what.into(), format!("0x{rel:x}")]);
            rel += 2 * u64::from(v);
        }
        clip.tables.push(nodes);
        clip.tables.push(table);
    }
    Ok(clip)
}

fn node_track_clip(name: &str, s: &NodeTrack, b: &Bytes, detail: bool) -> Result<Clip> {
    let samples = usize::try_from(s.samples()).unwrap_or(0);
    let mut clip = Clip::new(name, FPS, samples);
    clip.notes.push(format!(
        "node-track variant layout (kind word 0xffff, docs/formats/motn.md#node-track-layout): {}, n = {}: every track holds n + 1 = {samples} samples \
         (frames 0..{}) at 30 fps, sampled (no keys); whether the game plays n or n + 1 frames is open (docs/formats/motn.md#open-questions)",
        count(u64::from(s.k), "record"),
        s.frames(),
        s.frames()
    ));
    clip.notes.push(
        "records have no known mapping to model nodes: bones and tracks are named record[i] in record order \
         (presumably the object model's node order [I], docs/formats/motn.md#open-questions)"
            .into(),
    );
    clip.notes.push(
        "translations are constants (probably local bind offsets [I]); scales are factors (1.0 = unscaled [I]); \
         header words unk_04 (f16), unk_06 and unk_0A: meaning unknown"
            .into(),
    );
    let mut table = Table {
        name: "records".into(),
        columns: ["record", "offset", "scale", "rx", "ry", "rz", "px", "py", "pz"].map(String::from).to_vec(),
        rows: Vec::new(),
    };
    let n = s.samples();
    for (r, rec) in s.records.iter().enumerate() {
        let target = format!("record[{r}]");
        for (a, (_, bits)) in rec.translation.iter().enumerate() {
            let v = f16_value(*bits);
            clip.tracks.push(track(
                format!("{target}.p{}", axis(a)),
                target.clone(),
                Unit::GameUnits,
                vec![v; samples],
            ));
        }
        for (a, (_, first)) in rec.rotation.iter().enumerate() {
            let values = match s.block(r, BlockKind::Rotation(a)) {
                Some(blk) => {
                    (0..n).map(|i| b.i16_le(blk.start + 2 * i).map(angle_rad)).collect::<Result<Vec<f64>>>()?
                }
                None => vec![angle_rad(*first); samples],
            };
            clip.tracks.push(track(format!("{target}.r{}", axis(a)), target.clone(), Unit::Radians, values));
        }
        let scale_block = s.block(r, BlockKind::Scale);
        for (a, bits) in rec.scale.iter().enumerate() {
            let values = match scale_block {
                Some(blk) => (0..n)
                    .map(|i| b.u16_le(blk.start + 6 * i + 2 * a as u64).map(f16_value))
                    .collect::<Result<Vec<f64>>>()?,
                None => vec![f16_value(*bits); samples],
            };
            clip.tracks.push(track(format!("{target}.s{}", axis(a)), target.clone(), Unit::Unitless, values));
        }
        if detail {
            let ofs =
                |o: u16, none: &str| if o == 0 { none.to_string() } else { format!("0x{:x}", s.base + u64::from(o)) };
            let mut row = vec![r.to_string(), format!("0x{:x}", rec.at), ofs(rec.scale_ofs, "static")];
            row.extend(rec.rotation.iter().map(|(o, _)| ofs(*o, "constant")));
            row.extend(rec.translation.iter().map(|(_, v)| fmt_num(f16_value(*v))));
            table.rows.push(row);
        }
    }
    if detail {
        clip.tables.push(table);
    }
    Ok(clip)
}

// ---------------------------------------------------------------------------------------
// Describe

fn step(doc: &mut Document, span: Span, what: String, detail: String, next: Option<u64>, node: Option<NodeId>) {
    doc.walk.push(WalkStep { span, what, detail, next, node });
}

/// The walk step of a baked variant's header (keyed to the sequence node `id`).
fn baked_head_step(s: &Baked, name: &str, id: NodeId) -> WalkStep {
    let (base, n, ty) = (s.base, u64::from(s.frames()), s.skeleton_type());
    let head_end = base + BAKED_HEADER_LEN;
    let ids: Vec<String> =
        s.nodes.iter().map(|(id, v)| if *v == 1 { format!("{id} (hinge)") } else { id.to_string() }).collect();
    WalkStep {
        span: Span::new(base, head_end),
        what: format!("sequence {name}"),
        detail: format!(
            "kind word 0x{:04x}: baked-frame variant (docs/formats/motn.md#baked-frame-layout), skeleton type 0x{ty:04x}; mask 0x{:016x} → root + nodes {}; \
             stride {} = 12 + 2·{}; {n} frames × {} bytes from 0x{head_end:x}; ends 0x{:x}",
            s.kind_word,
            s.mask(),
            if ids.is_empty() { "none".to_string() } else { ids.join(", ") },
            s.stride,
            (u64::from(s.stride) - 12) / 2,
            s.stride,
            s.end
        ),
        next: Some(head_end),
        node: Some(id),
    }
}

/// The walk step of a baked variant's frame records (keyed to their node `fn_`).
fn baked_frames_step(s: &Baked, name: &str, fn_: NodeId) -> WalkStep {
    let n = u64::from(s.frames());
    WalkStep {
        span: Span::new(s.base + BAKED_HEADER_LEN, s.end),
        what: format!("baked frames of {name}"),
        detail: format!("{n} records × {} bytes: root p (f16) and r (s16), then per node r or bend (s16)", s.stride),
        next: Some(s.end),
        node: Some(fn_),
    }
}

/// The walk step of a node-track variant's header (keyed to the sequence node `id`).
fn node_track_head_step(s: &NodeTrack, name: &str, id: NodeId) -> WalkStep {
    let head_end = s.base + NODE_TRACK_HEADER_LEN;
    WalkStep {
        span: Span::new(s.base, head_end),
        what: format!("sequence {name}"),
        detail: format!(
            "kind word 0xffff: node-track variant (docs/formats/motn.md#node-track-layout); n {} → {} samples per track; {} of 32 bytes at 0x{head_end:x}; \
             {} blocks; ends 0x{:x}",
            s.frames(),
            s.samples(),
            count(u64::from(s.k), "record"),
            s.blocks.len(),
            s.end
        ),
        next: Some(head_end),
        node: Some(id),
    }
}

/// The walk step of a node-track variant's record table (keyed to its node `rn`).
fn records_step(s: &NodeTrack, name: &str, rn: NodeId) -> WalkStep {
    WalkStep {
        span: Span::new(s.base + NODE_TRACK_HEADER_LEN, s.table_end()),
        what: format!("records of {name}"),
        detail: format!(
            "{} × 32 bytes: scale offset + static scale, (offset, first sample) × 3 rotations, (0, f16) × 3 translations",
            s.k
        ),
        next: s.blocks.first().map(|b| b.start),
        node: Some(rn),
    }
}

/// The walk step of a node-track variant's block `i` (keyed to its node `bn`).
fn block_step(s: &NodeTrack, i: usize, name: &str, bn: NodeId) -> Option<WalkStep> {
    let samples = s.samples();
    let blk = s.blocks.get(i)?;
    let next = s.blocks.get(i + 1).map_or(s.end, |b| b.start);
    Some(WalkStep {
        span: Span::new(blk.start, blk.end),
        what: format!("{} of {name}", blk.name()),
        detail: format!(
            "at 0x{:x} (offset 0x{:x} in the field at 0x{:x}): {}",
            blk.start,
            blk.start - s.base,
            blk.field_at,
            if blk.kind == BlockKind::Scale {
                format!("{samples} × (sx, sy, sz) f16")
            } else {
                format!("{samples} × s16")
            }
        ),
        next: Some(next),
        node: Some(bn),
    })
}

/// A variant's walk step for `node`: kept as the node in a lazy skeleton (said when shown,
/// by [`variant_step`]), written now otherwise.
fn walk_step_of(doc: &mut Document, lazy: bool, node: NodeId, say: impl FnOnce() -> Option<WalkStep>) {
    if lazy {
        doc.walk.push_node(node);
    } else if let Some(st) = say() {
        doc.walk.push(st);
    }
}

/// The walk step a lazy variant document keeps as node `node` ([`super::describe`]'s
/// `Expand::walk_step`): `part` is the node's deferred part, None for the sequence node
/// (its header step). The same step the whole describe writes.
pub(in crate::formats) fn variant_step(v: &Variant, part: Option<u32>, name: &str, node: NodeId) -> Option<WalkStep> {
    match (v, part) {
        (Variant::Baked(s), None) => Some(baked_head_step(s, name, node)),
        (Variant::NodeTrack(s), None) => Some(node_track_head_step(s, name, node)),
        (Variant::Baked(s), Some(BAKED_FRAMES)) => Some(baked_frames_step(s, name, node)),
        (Variant::NodeTrack(s), Some(RECORDS)) => Some(records_step(s, name, node)),
        (Variant::NodeTrack(s), Some(i)) => block_step(s, i as usize, name, node),
        _ => None,
    }
}

/// `0x0100 = 1.40625°` as a field value: the stored s16 with its meaning in degrees.
fn angle_value(v: i16) -> Value {
    Value::int(i64::from(v), 2).number(angle_deg(v), "deg")
}

const ANGLE_NOTE: &str = "s16 binary angle: value/65536 turn";

/// Where a sequence's nodes go and what they are called: the data node `dn` they hang under,
/// the sequence's bytes `b`, its node key (`seq[NAME]`) and its display name.
#[derive(Clone, Copy)]
pub(in crate::formats) struct SeqSite<'a, 'b> {
    /// The data node the sequence node hangs under.
    pub(in crate::formats) dn: NodeId,
    /// The sequence's bytes.
    pub(in crate::formats) b: &'a Bytes<'b>,
    /// Its node key.
    pub(in crate::formats) key: &'a str,
    /// Its display name.
    pub(in crate::formats) name: &'a str,
}

/// Describe the variant sequence `hd` at `site`; `next` is the next sequence start or the
/// data end, `fields` the document's field count so far. Returns the node, the bytes walked
/// and the fields added.
pub(in crate::formats) fn describe(
    doc: &mut Document,
    site: SeqSite<'_, '_>,
    hd: &SeqHeader,
    next: u64,
    fields: u64,
    limits: &Limits,
    deferred: Option<&mut Vec<(NodeId, u32)>>,
) -> (NodeId, u64, u64) {
    let SeqSite { b, key, name, .. } = site;
    let parsed = parse(b, hd, next, limits);
    let (id, added) = match &parsed {
        Err(err) => (describe_unreadable(doc, site, hd, next, err), 16),
        Ok(Variant::Baked(s)) => describe_baked(doc, site, s, fields, limits, deferred),
        Ok(Variant::NodeTrack(s)) => describe_node_track(doc, site, s, fields, limits, deferred),
    };
    if let Ok(v) = &parsed {
        for f in v.findings() {
            doc.diag(Diagnostic::new(f.severity, Some(f.offset), key, f.message.clone()));
        }
        if let Some(nd) = doc.node_mut(id) {
            nd.anim = Some(format!("seq:{name}"));
        }
    }
    let walked = parsed.as_ref().map_or(BAKED_HEADER_LEN, |v| v.end().saturating_sub(hd.base));
    (id, walked, added)
}

/// The header fields of a variant that failed its checks, as far as they lie before `end`.
fn header_fields(doc: &mut Document, hn: NodeId, b: &Bytes, hd: &SeqHeader, end: u64) {
    let Ok(w) = b.sub(b.start(), end.max(b.start()).min(b.end())) else { return };
    let fields = match Layout::of(hd.kind_word) {
        Layout::NodeTrack => record::read_prefix::<raw::NodeTrackHeader>(&w, hd.base).map(|p| p.fields()),
        _ => record::read_prefix::<raw::BakedHeader>(&w, hd.base).map(|p| p.fields()),
    };
    for f in fields.into_iter().flatten() {
        doc.add_field(hn, f);
    }
}

fn describe_unreadable(
    doc: &mut Document,
    site: SeqSite<'_, '_>,
    hd: &SeqHeader,
    next: u64,
    err: &ParseError,
) -> NodeId {
    let SeqSite { dn, b, key, name } = site;
    let layout = Layout::of(hd.kind_word);
    let err = err.clone().within(key);
    let span = Span::new(hd.base, next.max(hd.base));
    let kind = if layout == Layout::NodeTrack {
        "sequence (node-track variant, unreadable)"
    } else {
        "sequence (baked variant, unreadable)"
    };
    let id = place(doc, dn, key, kind, span);
    let head_len = if layout == Layout::NodeTrack { NODE_TRACK_HEADER_LEN } else { BAKED_HEADER_LEN };
    let head_end = (hd.base + head_len).min(span.end);
    let hn = doc.add_node(id, "header", "variant header", Span::new(hd.base, head_end));
    header_fields(doc, hn, b, hd, head_end);
    if head_end < span.end {
        let bn = doc.add_node(id, "body", "variant body (unreadable)", Span::new(head_end, span.end));
        doc.add_field(
            bn,
            Field::new("bytes", Span::new(head_end, span.end), Value::unknown_bytes(span.len() - (head_end - hd.base)))
                .note("not decoded: the variant failed its checks"),
        );
    }
    if let Some(nd) = doc.node_mut(id) {
        nd.summary = format!("error: {}", err.kind).into();
    }
    step(
        doc,
        span,
        format!("sequence {name}"),
        format!("kind word 0x{:04x}: variant layout; cannot parse: {err}", hd.kind_word),
        Some(next),
        Some(id),
    );
    doc.diag(Diagnostic::from_error(&err));
    id
}

fn describe_baked(
    doc: &mut Document,
    site: SeqSite<'_, '_>,
    s: &Baked,
    fields: u64,
    limits: &Limits,
    mut deferred: Option<&mut Vec<(NodeId, u32)>>,
) -> (NodeId, u64) {
    let SeqSite { dn, b, key, name } = site;
    let base = s.base;
    let n = u64::from(s.frames());
    let ty = s.skeleton_type();
    let span = Span::new(base, s.end);
    let id = place(doc, dn, key, "sequence (baked variant)", span);
    let hinges = s.nodes.iter().filter(|(_, v)| *v == 1).count();
    if let Some(nd) = doc.node_mut(id) {
        nd.summary = format!(
            "baked-frame variant: {n} frames, skeleton type 0x{ty:04x}, {} + root{}, stride {}",
            count(s.nodes.len() as u64, "node"),
            if hinges > 0 { format!(" ({hinges} hinge)") } else { String::new() },
            s.stride
        )
        .into();
    }
    let head_end = base + BAKED_HEADER_LEN;
    let hn = doc.add_node(id, "header", "variant header", Span::new(base, head_end));
    match deferred.as_deref_mut() {
        // the header's fields are built when it is shown
        Some(d) => d.push((hn, HEADER)),
        None => header_fields_of(doc, hn, &s.header),
    }
    if let Some(x) = doc.node_mut(hn) {
        x.summary = format!("n {n}, kind 0x{:04x}, stride {}, mask 0x{:016x}", s.kind_word, s.stride, s.mask()).into();
    }
    walk_step_of(doc, deferred.is_some(), id, || Some(baked_head_step(s, name, id)));
    let cols = s.columns();
    let fn_ = doc.add_node(id, "frames", "baked frames", Span::new(head_end, s.end));
    if let Some(x) = doc.node_mut(fn_) {
        x.summary = format!("{n} records of {} bytes", s.stride).into();
    }
    let want = n * cols.len() as u64;
    let mut added = 8;
    if fields + want > limits.max_fields as u64 || doc.nodes.len() as u64 + n > limits.max_nodes as u64 {
        doc.add_field(
            fn_,
            Field::new("records", Span::new(head_end, s.end), Value::bytes(s.end - head_end))
                .note("not broken down: over the field or node budget"),
        );
        let e = ParseError::new(
            head_end,
            ErrorKind::LimitExceeded { what: "fields", value: fields + want, max: limits.max_fields as u64 },
        );
        doc.diag(Diagnostic::from_error(&e.within(key)));
    } else {
        match deferred.as_deref_mut() {
            // the records' nodes and fields are built when the frames node is shown
            Some(d) => d.push((fn_, BAKED_FRAMES)),
            None => {
                baked_frames_detail(doc, fn_, b, s);
                added += want;
            }
        }
        walk_step_of(doc, deferred.is_some(), fn_, || Some(baked_frames_step(s, name, fn_)));
    }
    fill_gaps_from(doc, id, b.data(), b.start());
    (id, added)
}

/// The part of a variant sequence built on demand: its baked frame records.
pub(in crate::formats) const BAKED_FRAMES: u32 = u32::MAX;
/// The part of a variant sequence built on demand: its header's fields.
pub(in crate::formats) const HEADER: u32 = u32::MAX - 1;
/// The part of a node-track variant built on demand: its records' nodes and fields.
pub(in crate::formats) const RECORDS: u32 = u32::MAX - 2;

/// A variant's header fields under its header node `hn`.
pub(in crate::formats) fn header_detail(doc: &mut Document, hn: NodeId, v: &Variant) {
    match v {
        Variant::Baked(s) => header_fields_of(doc, hn, &s.header),
        Variant::NodeTrack(s) => header_fields_of(doc, hn, &s.header),
    }
}

fn header_fields_of(doc: &mut Document, hn: NodeId, header: &impl record::Record) {
    for f in header.fields() {
        doc.add_field(hn, f);
    }
}

/// A node-track variant's records under its records node `rn`: one node each, with its fields.
pub(in crate::formats) fn records_detail(doc: &mut Document, rn: NodeId, s: &NodeTrack) {
    for (r, rec) in s.records.iter().enumerate() {
        let nid = doc.add_node(rn, format!("record[{r}]"), "node-track record", Span::at(rec.at, RECORD_LEN));
        for f in rec.raw.fields() {
            doc.add_field(nid, f);
        }
        let t = rec.translation.map(|(_, v)| fmt_num(f16_value(v)));
        if let Some(x) = doc.node_mut(nid) {
            x.summary = format!(
                "scale {}, translation ({}, {}, {})",
                if rec.scale_ofs == 0 { "static" } else { "animated" },
                t[0],
                t[1],
                t[2]
            )
            .into();
        }
    }
}

/// A baked variant's frame records under `fn_`: one node per frame, one field per column.
pub(in crate::formats) fn baked_frames_detail(doc: &mut Document, fn_: NodeId, b: &Bytes, s: &Baked) {
    let n = u64::from(s.frames());
    let ty = s.skeleton_type();
    let cols = s.columns();
    let names: Vec<String> = cols.iter().map(|c| format!("{}.{}", node_name(ty, c.node), c.channel)).collect();
    for f in 0..n {
        let at = s.frame_at(f);
        let frn = doc.add_node(fn_, format!("frame[{f}]"), "frame record", Span::at(at, u64::from(s.stride)));
        let mut root = [0.0f64; 3];
        for (c, nm) in cols.iter().zip(&names) {
            let Ok(word) = b.u16_le(at + c.rel) else { continue };
            let field = if c.is_angle() {
                let note = if c.channel == "bend" {
                    "hinge node: one bend value, rotation axis unknown [I]"
                } else {
                    ANGLE_NOTE
                };
                Field::new(nm.clone(), Span::at(at + c.rel, 2), angle_value(word as i16)).note(note)
            } else {
                if let Some(r) = root.get_mut(usize::try_from(c.rel / 2).unwrap_or(3)) {
                    *r = f16_value(word);
                }
                Field::new(nm.clone(), Span::at(at + c.rel, 2), Value::f16(word)).note("f16, model units")
            };
            doc.add_field(frn, field);
        }
        if let Some(x) = doc.node_mut(frn) {
            x.summary = format!("root at ({}, {}, {})", fmt_num(root[0]), fmt_num(root[1]), fmt_num(root[2])).into();
        }
    }
}

/// Block `i` of a node-track variant under `bn`: its samples as fields.
pub(in crate::formats) fn track_block_detail(doc: &mut Document, bn: NodeId, b: &Bytes, s: &NodeTrack, i: usize) {
    let Some(blk) = s.blocks.get(i) else { return };
    let samples = s.samples();
    match blk.kind {
        BlockKind::Scale => {
            for f in 0..samples {
                for a in 0..3u64 {
                    let at = blk.start + 6 * f + 2 * a;
                    let Ok(v) = b.u16_le(at) else { continue };
                    doc.add_field(
                        bn,
                        Field::new(format!("frame[{f}].s{}", axis(a as usize)), Span::at(at, 2), Value::f16(v)),
                    );
                }
            }
        }
        BlockKind::Rotation(_) => {
            for f in 0..samples {
                let at = blk.start + 2 * f;
                let Ok(v) = b.i16_le(at) else { continue };
                doc.add_field(bn, Field::new(format!("sample[{f}]"), Span::at(at, 2), angle_value(v)).note(ANGLE_NOTE));
            }
        }
    }
}

fn describe_node_track(
    doc: &mut Document,
    site: SeqSite<'_, '_>,
    s: &NodeTrack,
    fields: u64,
    limits: &Limits,
    mut deferred: Option<&mut Vec<(NodeId, u32)>>,
) -> (NodeId, u64) {
    let SeqSite { dn, b, key, name } = site;
    let base = s.base;
    let samples = s.samples();
    let span = Span::new(base, s.end);
    let id = place(doc, dn, key, "sequence (node-track variant)", span);
    let animated = s.blocks.iter().filter(|b| b.kind == BlockKind::Scale).count();
    if let Some(nd) = doc.node_mut(id) {
        nd.summary = format!(
            "node-track variant: n {}, {samples} samples, {}{}",
            s.frames(),
            count(u64::from(s.k), "record"),
            if animated > 0 { format!(", {animated} animated scale") } else { String::new() }
        )
        .into();
    }
    let head_end = base + NODE_TRACK_HEADER_LEN;
    let hn = doc.add_node(id, "header", "variant header", Span::new(base, head_end));
    match deferred.as_deref_mut() {
        // the header's fields are built when it is shown
        Some(d) => d.push((hn, HEADER)),
        None => header_fields_of(doc, hn, &s.header),
    }
    if let Some(x) = doc.node_mut(hn) {
        x.summary = format!("n {}, kind 0xffff, k {}", s.frames(), s.k).into();
    }
    walk_step_of(doc, deferred.is_some(), id, || Some(node_track_head_step(s, name, id)));
    let table_end = s.table_end();
    let rn = doc.add_node(id, "records", "node-track records", Span::new(head_end, table_end));
    if let Some(x) = doc.node_mut(rn) {
        x.summary = format!("{}; no known mapping to model nodes", count(u64::from(s.k), "record")).into();
    }
    match deferred.as_deref_mut() {
        // the records' nodes and fields are built when the records node is shown
        Some(d) => d.push((rn, RECORDS)),
        None => records_detail(doc, rn, s),
    }
    walk_step_of(doc, deferred.is_some(), rn, || Some(records_step(s, name, rn)));
    let want = s.blocks.iter().map(|b| if b.kind == BlockKind::Scale { 3 * samples } else { samples }).sum::<u64>();
    let mut added = 16 + 12 * u64::from(s.k);
    if fields + added + want > limits.max_fields as u64 {
        let e = ParseError::new(
            table_end,
            ErrorKind::LimitExceeded { what: "fields", value: fields + added + want, max: limits.max_fields as u64 },
        );
        doc.diag(Diagnostic::from_error(&e.within(key)));
    } else {
        for (i, blk) in s.blocks.iter().enumerate() {
            let bn = place(
                doc,
                id,
                &blk.name(),
                if blk.kind == BlockKind::Scale { "scale block" } else { "rotation track" },
                Span::new(blk.start, blk.end),
            );
            match deferred.as_deref_mut() {
                // the samples are built when the block is shown
                Some(d) => d.push((bn, u32::try_from(i).unwrap_or(RECORDS - 1))),
                None => track_block_detail(doc, bn, b, s, i),
            }
            if let Some(x) = doc.node_mut(bn) {
                x.summary = match blk.kind {
                    BlockKind::Scale => format!("{samples} (sx, sy, sz) f16 triples, interleaved per frame"),
                    BlockKind::Rotation(_) => format!("{samples} s16 binary angles"),
                }
                .into();
            }
            walk_step_of(doc, deferred.is_some(), bn, || block_step(s, i, name, bn));
        }
        if deferred.is_none() {
            added += want;
        }
    }
    fill_gaps_from(doc, id, b.data(), b.start());
    (id, added)
}

#[cfg(test)]
#[path = "variant_tests.rs"]
mod tests;
