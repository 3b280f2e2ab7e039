//! On-disk records and constants of MOTN blobs (docs/formats/motn.md#blob-layout and
//! docs/formats/motn.md#variant-sequences). All values are little-endian; offsets are relative to the
//! start of the MOTN blob. The fixed-layout records (file header, sequence table entry,
//! sequence header, the two variant headers, the node-track record) are binrw declarations:
//! `parse` reads them, `describe` shows their fields from [`Record::fields`], `write`
//! writes them. The bit-packed key codes and the blocks behind the headers are read by hand
//! over the checked byte view.

use crate::formats::record::{ByteArray, FixedSize, Record, Spanned, field};
use crate::model::{BitSpan, Field, Value, fmt_num};
use binrw::binrw;

/// The file header at offset 0 (docs/formats/motn.md#blob-layout).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct FileHeader {
    /// Absolute offset of the sequence table.
    pub table_ofs: Spanned<u32>,
    /// Absolute offset of the name pointer table.
    pub names_ofs: Spanned<u32>,
    /// Absolute offset of the sequence data; sequences are relative to it.
    pub data_ofs: Spanned<u32>,
    /// Low 12 bits: sequences + 1; bits 12–31 unknown.
    pub attributes: Spanned<u32>,
    /// The blob's length.
    pub file_size: Spanned<u32>,
}

impl FixedSize for FileHeader {
    const SIZE: u64 = 0x14;
}

/// `1 sequence`, `2 sequences`.
fn sequences(n: u64) -> String {
    if n == 1 { "1 sequence".into() } else { format!("{n} sequences") }
}

impl Record for FileHeader {
    const NAME: &'static str = "file header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        let attr = *s.attributes;
        let attr_bit = s.attributes.span.start * 8;
        vec![
            field!(s.table_ofs, Value::uint(u64::from(*s.table_ofs), 4)),
            field!(s.names_ofs, Value::uint(u64::from(*s.names_ofs), 4)),
            field!(s.data_ofs, Value::uint(u64::from(*s.data_ofs), 4)),
            field!(s.attributes, Value::uint(u64::from(attr), 4)),
            Field::bits(
                "sequence_count_plus_1",
                BitSpan { start_bit: attr_bit, bits: 12 },
                Value::dec(u64::from(attr & ATTR_COUNT_MASK)),
            )
            .note(sequences(u64::from(attr & ATTR_COUNT_MASK).saturating_sub(1))),
            Field::bits(
                "attributes_high",
                BitSpan { start_bit: attr_bit + 12, bits: 20 },
                Value::bits(u64::from(attr >> 12), 20).unknown(),
            )
            .note("bits 12–31: meaning unknown (zero in MOTION.BIN)"),
            field!(s.file_size, Value::uint(u64::from(*s.file_size), 4)),
        ]
    }
}

/// One sequence table entry (docs/formats/motn.md#blob-layout).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct TableEntry {
    /// Sequence start relative to `data_ofs`.
    pub data_rel: Spanned<u32>,
    /// Absolute offset of the sequence's extra-data record.
    pub extra_ofs: Spanned<u32>,
}

impl FixedSize for TableEntry {
    const SIZE: u64 = 8;
}

impl Record for TableEntry {
    const NAME: &'static str = "sequence table entry";
    /// Plain values; the entry's index and what `data_rel` reaches are added by `describe`.
    fn fields(&self) -> Vec<Field> {
        let s = self;
        vec![
            field!(s.data_rel, Value::uint(u64::from(*s.data_rel), 4)).note("relative to data_ofs"),
            field!(s.extra_ofs, Value::uint(u64::from(*s.extra_ofs), 4).refers("extra record")).note("absolute"),
        ]
    }
}

/// The fields of `frame_word`: the word, its 15-bit frame count and its bit 15.
fn frame_word_fields(word: &Spanned<u16>, frames_note: String, wide_label: (&str, &str)) -> [Field; 3] {
    let at = word.span.start;
    let n = **word & !WIDE_BLOCK2;
    let wide = **word & WIDE_BLOCK2 != 0;
    [
        word.field("frame_word", Value::uint(u64::from(**word), 2)),
        Field::bits("frame_count", BitSpan { start_bit: at * 8, bits: 15 }, Value::dec(u64::from(n))).note(frames_note),
        Field::bits(
            "wide_block2",
            BitSpan { start_bit: at * 8 + 15, bits: 1 },
            Value::bits(u64::from(wide), 1).label(if wide { wide_label.0 } else { wide_label.1 }),
        ),
    ]
}

/// The 12-byte header of a standard (keyframe) sequence (docs/formats/motn.md#standard-sequences): the frame word, the kind
/// word and the offsets of blocks 2–5 from the sequence start.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct SeqHeader {
    /// Bits 0–14: frame count n; bit 15: Block-2 entries are u16.
    pub frame_word: Spanned<u16>,
    /// Skeleton/character type [I]; bit 15 selects a variant layout.
    pub kind_word: Spanned<u16>,
    /// Offset of block 2 (per-channel key counts).
    pub b2: Spanned<u16>,
    /// Offset of block 3 (key frames).
    pub b3: Spanned<u16>,
    /// Offset of block 4 (2-bit value codes).
    pub b4: Spanned<u16>,
    /// Offset of block 5 (f16 values).
    pub b5: Spanned<u16>,
}

impl FixedSize for SeqHeader {
    const SIZE: u64 = 12;
}

impl SeqHeader {
    /// Absolute start of the sequence (where the header was read).
    pub fn base(&self) -> u64 {
        self.frame_word.span.start
    }
}

impl Record for SeqHeader {
    const NAME: &'static str = "sequence header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        let base = s.base();
        let n = *s.frame_word & !WIDE_BLOCK2;
        let kind = *s.kind_word;
        let kind_label = if HUMAN_KINDS.contains(&kind) { "standard human rig [I]" } else { "other skeleton type [I]" };
        let mut out = Vec::with_capacity(7);
        out.extend(frame_word_fields(
            &s.frame_word,
            format!("keys span frames 0..{}", n.saturating_sub(1)),
            ("block-2 counts are u16", "block-2 counts are u8"),
        ));
        out.push(
            field!(s.kind_word, Value::uint(u64::from(kind), 2).label(kind_label))
                .note("not used by the decoder; looks like a skeleton/character type [I]"),
        );
        for (i, (name, v)) in [("b2", &s.b2), ("b3", &s.b3), ("b4", &s.b4), ("b5", &s.b5)].into_iter().enumerate() {
            out.push(
                v.field(name, Value::uint(u64::from(**v), 2).refers(format!("0x{:x}", base + u64::from(**v))))
                    .note(format!("offset of block {} from the sequence start", i + 2)),
            );
        }
        out
    }
}

/// The 14-byte header of a baked-frame variant (docs/formats/motn.md#baked-frame-layout).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct BakedHeader {
    /// Frame count n (bit 15 must be clear).
    pub frame_word: Spanned<u16>,
    /// Bit 15 set (not 0xFFFF); bits 0–14: skeleton type.
    pub kind_word: Spanned<u16>,
    /// Bytes per frame record.
    pub stride: Spanned<u16>,
    /// Node mask bits 0–15, 16–31, 32–47, 48–63 (bit i = node i).
    pub mask: [Spanned<u16>; 4],
}

impl FixedSize for BakedHeader {
    const SIZE: u64 = 14;
}

impl Record for BakedHeader {
    const NAME: &'static str = "baked-frame header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        let ty = *s.kind_word & !VARIANT_KIND;
        let label = if HUMAN_KINDS.contains(&ty) { "standard human rig [I]" } else { "other skeleton type [I]" };
        let mut out = Vec::with_capacity(10);
        out.extend(frame_word_fields(
            &s.frame_word,
            "n: one pose record per frame".into(),
            ("set: not allowed in variants", "clear (as in every variant)"),
        ));
        out.push(field!(
            s.kind_word,
            Value::uint(u64::from(*s.kind_word), 2).label("baked-frame layout (bit 15 set, not 0xFFFF)")
        ));
        out.push(
            Field::bits(
                "skeleton_type",
                BitSpan { start_bit: s.kind_word.span.start * 8, bits: 15 },
                Value::uint(u64::from(ty), 2).label(label),
            )
            .note("kind word bits 0–14, the same values as standard sequences [I]"),
        );
        out.push(
            field!(s.stride, Value::dec(u64::from(*s.stride)))
                .note("bytes per frame record = 12 + 2·Σ(3, or 1 for hinge nodes 7/14/28/34)"),
        );
        for (j, w) in s.mask.iter().enumerate() {
            let v = **w;
            let ids: Vec<String> = (0..16u64)
                .filter(|i| v >> i & 1 != 0)
                .map(|i| {
                    let id = u8::try_from(16 * j as u64 + i).unwrap_or(u8::MAX);
                    format!("{id} {}", node_name(ty, id))
                })
                .collect();
            let mut value = Value::uint(u64::from(v), 2);
            if !ids.is_empty() {
                value = value.flags(ids);
            }
            let note = if j == 3 {
                "0 in the sample data; read as node mask bits 48–63 [I] (may be a reserved word)".to_string()
            } else {
                format!("node mask bits {}–{} (bit i = node i)", 16 * j, 16 * j + 15)
            };
            out.push(w.field(format!("mask{j}"), value).note(note));
        }
        out
    }
}

/// The 12-byte header of a node-track variant (docs/formats/motn.md#node-track-layout).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct NodeTrackHeader {
    /// Frame count n; every track holds n + 1 samples.
    pub frame_word: Spanned<u16>,
    /// 0xFFFF.
    pub kind_word: Spanned<u16>,
    /// f16, 1.0 in all the sample data; meaning unknown.
    pub unk_04: Spanned<u16>,
    /// 0 in all the sample data; meaning unknown.
    pub unk_06: Spanned<u16>,
    /// k: records of 32 bytes after the header.
    pub record_count: Spanned<u16>,
    /// 0 in all the sample data; meaning unknown.
    pub unk_0a: Spanned<u16>,
}

impl FixedSize for NodeTrackHeader {
    const SIZE: u64 = 12;
}

impl Record for NodeTrackHeader {
    const NAME: &'static str = "node-track header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        let n = *s.frame_word & !WIDE_BLOCK2;
        let mut out = Vec::with_capacity(9);
        out.extend(frame_word_fields(
            &s.frame_word,
            format!("n; every track holds n + 1 = {} samples", u32::from(n) + 1),
            ("set: not allowed in variants", "clear (as in every variant)"),
        ));
        out.push(field!(s.kind_word, Value::uint(u64::from(*s.kind_word), 2).label("node-track layout (0xFFFF)")));
        let f16 = half::f16::from_bits(*s.unk_04).to_f64();
        out.push(field!(s.unk_04, Value::f16(*s.unk_04).unknown()).note(format!(
            "= {}; f16, 1.0 in all the sample data; meaning unknown (a global scale or speed?)",
            fmt_num(f16)
        )));
        out.push(
            field!(s.unk_06, Value::uint(u64::from(*s.unk_06), 2).unknown())
                .note("0 in all the sample data; meaning unknown"),
        );
        out.push(
            field!(s.record_count, Value::dec(u64::from(*s.record_count)))
                .note("k records of 32 bytes follow the header"),
        );
        out.push(
            s.unk_0a
                .field("unk_0A", Value::uint(u64::from(*s.unk_0a), 2).unknown())
                .note("0 in all the sample data; meaning unknown (the high half of a u32 k?)"),
        );
        out
    }
}

/// One 32-byte node-track record (docs/formats/motn.md#node-track-layout). Offsets are from the sequence start; the
/// sequence start comes in as an argument so the fields can say what they reach.
#[binrw]
#[brw(little)]
#[br(import(base: u64))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct NodeTrackRecord {
    /// Absolute start of the sequence the record belongs to (not stored).
    #[br(calc = base)]
    #[bw(ignore)]
    pub base: u64,
    /// Offset of the animated scale block, 0 = static.
    pub scale_ofs: Spanned<u16>,
    /// Static scale (sx, sy, sz), f16.
    pub scale: [Spanned<u16>; 3],
    /// (track offset, first sample) of rx, ry, rz; s16 binary angles.
    pub rotation: [(Spanned<u16>, Spanned<i16>); 3],
    /// (offset, f16 value) of px, py, pz; the offset is 0 in all the data.
    pub translation: [(Spanned<u16>, Spanned<u16>); 3],
}

impl FixedSize for NodeTrackRecord {
    const SIZE: u64 = 32;
}

const AXES: [&str; 3] = ["x", "y", "z"];

impl Record for NodeTrackRecord {
    const NAME: &'static str = "node-track record";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        let ofs_value = |o: u16, what: &str, none: &str| {
            let v = Value::uint(u64::from(o), 2);
            if o == 0 { v.label(none.to_string()) } else { v.refers(format!("{what} @0x{:x}", s.base + u64::from(o))) }
        };
        let mut out = Vec::with_capacity(16);
        out.push(
            field!(s.scale_ofs, ofs_value(*s.scale_ofs, "scale block", "static (no block)"))
                .note("offset from the sequence start of an (n + 1)-sample scale block [I: scale], or 0"),
        );
        for (ax, bits) in AXES.iter().zip(&s.scale) {
            out.push(
                bits.field(format!("s{}", ax), Value::f16(**bits))
                    .note("static scale (= the block's first sample when animated)"),
            );
        }
        for (ax, (o, first)) in AXES.iter().zip(&s.rotation) {
            out.push(
                o.field(format!("r{}_ofs", ax), ofs_value(**o, &format!("r{} track", ax), "0: constant"))
                    .note("offset from the sequence start of n + 1 s16 angles"),
            );
            out.push(
                first
                    .field(format!("r{}0", ax), angle_value(**first))
                    .note("the track's first sample; s16 binary angle"),
            );
        }
        for (ax, (o, bits)) in AXES.iter().zip(&s.translation) {
            out.push(
                o.field(format!("p{}_ofs", ax), Value::uint(u64::from(**o), 2).label("0: constant"))
                    .note("always 0 in the sample data (a track's meaning is unverified)"),
            );
            out.push(
                bits.field(format!("p{}", ax), Value::f16(**bits))
                    .note("constant translation, model units (probably a local bind offset [I])"),
            );
        }
        out
    }
}

/// An s16 binary angle as a value: the integer, shown in degrees.
pub(in crate::formats) fn angle_value(v: i16) -> Value {
    Value::int(i64::from(v), 2).number(f64::from(v) * 360.0 / ANGLE_UNITS_PER_TURN, "deg")
}

/// Size of the file header.
pub(in crate::formats) const FILE_HEADER_LEN: u64 = FileHeader::SIZE;
/// Size of a sequence table entry.
pub(in crate::formats) const TABLE_ENTRY_LEN: u64 = TableEntry::SIZE;
/// Size of the standard sequence header.
pub(in crate::formats) const SEQ_HEADER_LEN: u64 = SeqHeader::SIZE;
/// Header length of a baked-frame variant.
pub(in crate::formats) const BAKED_HEADER_LEN: u64 = BakedHeader::SIZE;
/// Header length of a node-track variant.
pub(in crate::formats) const NODE_TRACK_HEADER_LEN: u64 = NodeTrackHeader::SIZE;
/// Size of a node-track record.
pub(in crate::formats) const RECORD_LEN: u64 = NodeTrackRecord::SIZE;

/// Bit 15 of `frame_word`: Block-2 entries are u16.
pub(in crate::formats) const WIDE_BLOCK2: u16 = 0x8000;
/// Bit 15 of `kind_word` (covers 0xFFFF): a variant layout (`motn-variants.md`).
pub(in crate::formats) const VARIANT_KIND: u16 = 0x8000;
/// `kind_word` of the node-track variant layout (docs/formats/motn.md#node-track-layout); test it before bit 15.
pub(in crate::formats) const NODE_TRACK_KIND: u16 = 0xFFFF;
/// Baked-frame nodes that store one value ("bend") instead of rx, ry, rz (docs/formats/motn.md#baked-frame-layout).
pub(in crate::formats) const HINGE_NODES: [u8; 4] = [7, 14, 28, 34];
/// s16 binary angle units per turn (docs/formats/motn.md#conventions).
pub(in crate::formats) const ANGLE_UNITS_PER_TURN: f64 = 65536.0;
/// Low 12 bits of `attributes`: number of sequences + 1.
pub(in crate::formats) const ATTR_COUNT_MASK: u32 = 0xFFF;
/// Frames per second of every sequence (S2/S3: 1/30 s per frame).
pub(in crate::formats) const FPS: f64 = 30.0;
/// Length of the optional date trailer (ctime text, `\n`, NULs).
pub(in crate::formats) const TRAILER_LEN: u64 = Trailer::SIZE;
/// Node ids are 7 bits; strictly ascending instructions allow at most 128 of them.
pub(in crate::formats) const MAX_INSTRUCTIONS: u64 = 128;
/// The nine channel bits of an instruction (`ins & 0x1FF`).
pub(in crate::formats) const CHANNEL_MASK: u16 = 0x1FF;

/// Kind words whose sequences use the standard human rig (docs/formats/motn.md#nodes-and-export-skeleton) [DATA].
pub(in crate::formats) const HUMAN_KINDS: [u16; 7] = [0x00, 0x01, 0x02, 0x03, 0x0A, 0x0C, 0x0D];

/// Node names of the standard human motion/IK rig (docs/formats/motn.md#nodes-and-export-skeleton; names from S2/S3 `IKBoneID`,
/// node 35 per the data). Nodes not listed are unknown and shown as `node_N`.
pub(in crate::formats) const HUMAN_NODE_NAMES: [(u8, &str); 20] = [
    (0, "Root"),
    (1, "Hip"),
    (5, "UpperLeg_R"),
    (8, "FootIKTarget_R"),
    (9, "Foot_R"),
    (12, "UpperLeg_L"),
    (15, "FootIKTarget_L"),
    (16, "Foot_L"),
    (18, "Torso"),
    (20, "UpperTorsoIKTarget"),
    (21, "Neck"),
    (23, "HeadLookAtTarget"),
    (25, "Shoulder_R"),
    (26, "Arm_R"),
    (29, "HandIKTarget_R"),
    (30, "Hand_R"),
    (31, "Shoulder_L"),
    (32, "Arm_L"),
    (35, "HandIKTarget_L"),
    (36, "Hand_L"),
];

/// Name of a node for display: the human rig's name when `kind_word` uses that rig and
/// the node is known, else `node_N`.
pub(in crate::formats) fn node_name(kind_word: u16, node: u8) -> String {
    if HUMAN_KINDS.contains(&kind_word)
        && let Some((_, n)) = HUMAN_NODE_NAMES.iter().find(|(id, _)| *id == node)
    {
        return (*n).to_string();
    }
    format!("node_{node}")
}

/// The optional date trailer that ends a blob (docs/formats/motn.md#blob-layout, docs/formats/motn.md#encoder step 7) [DATA]: the 24 characters of
/// a C `ctime` date (`Fri Nov 12 16:10:23 1999` in MOTION.BIN), then `\n` and NULs to 32
/// bytes. Nothing reaches it by offset: it is recognised by its shape ([`Trailer::is_date`]).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::formats) struct Trailer {
    /// The ctime text, without its newline.
    pub date: Spanned<ByteArray<24>>,
    /// `\n`, then seven NULs.
    pub newline_and_padding: Spanned<ByteArray<8>>,
}

impl FixedSize for Trailer {
    const SIZE: u64 = 32;
}

impl Trailer {
    /// Where the trailer starts.
    pub(in crate::formats) fn start(&self) -> u64 {
        self.date.span.start
    }

    /// The trailer of a date written as `date` (its first 24 bytes, blank-padded).
    pub(in crate::formats) fn of_date(date: &str) -> Self {
        let mut text = [b' '; 24];
        for (d, s) in text.iter_mut().zip(date.bytes()) {
            *d = s;
        }
        let mut tail = [0u8; 8];
        tail[0] = b'\n';
        Trailer { date: text.into(), newline_and_padding: tail.into() }
    }

    /// True when the bytes have the trailer's shape: printable text with ctime's blanks
    /// (after the weekday and the month) and colon (after the hour), then `\n` and NULs.
    pub(in crate::formats) fn is_date(&self) -> bool {
        let text = &self.date.0;
        let tail = &self.newline_and_padding.0;
        text.iter().all(|c| (0x20..0x7f).contains(c))
            && text[3] == b' '
            && text[7] == b' '
            && text[13] == b':'
            && tail[0] == b'\n'
            && tail[1..].iter().all(|&c| c == 0)
    }
}

impl Record for Trailer {
    const NAME: &'static str = "date trailer";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        vec![
            s.date.field("date", Value::text(&s.date.0[..])).note("ctime text"),
            field!(s.newline_and_padding, Value::bytes(8)),
        ]
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, clippy::expect_used)]
mod tests {
    //! Hand-written vectors: bytes typed from the layout tables (docs/formats/motn.md#blob-layout,
    //! #standard-sequences, #vectors-a-and-b and the variant layouts, #variant-sequences), each
    //! field's expected value typed beside it, read and written both ways.
    use super::*;
    use crate::formats::record::{self, assert_fixed_size};
    use crate::model::Span;
    use crate::test_support::vectors::{self, both_at};

    #[test]
    fn fixed_records_have_their_declared_sizes() {
        assert_fixed_size::<FileHeader>();
        assert_fixed_size::<TableEntry>();
        assert_fixed_size::<SeqHeader>();
        assert_fixed_size::<BakedHeader>();
        assert_fixed_size::<NodeTrackHeader>();
        assert_fixed_size::<NodeTrackRecord>();
        assert_fixed_size::<Trailer>();
    }

    #[test]
    fn date_trailer_of_motion_bin() {
        // docs/formats/motn.md#encoder step 7: the 24-character date MOTION.BIN has, '\n', NULs to 32 bytes,
        // here at 0x40 (after a blob's last sequence)
        let mut file = vec![0u8; 0x40];
        file.extend_from_slice(b"Fri Nov 12 16:10:23 1999"); // date, 0x40..0x58
        file.extend_from_slice(&[
            0x0a, // newline at 0x58
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // NULs to 0x60
        ]);
        let t: Trailer = both_at(&file, 0x40, ());
        assert_eq!(&t.date.0, b"Fri Nov 12 16:10:23 1999");
        assert_eq!((t.date.span, t.newline_and_padding.span), (Span::new(0x40, 0x58), Span::new(0x58, 0x60)));
        assert!(t.is_date());
        let names: Vec<String> = t.fields().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["date", "newline_and_padding"]);
        writes_as(&t, &file[0x40..]);
        writes_as(&Trailer::of_date("Fri Nov 12 16:10:23 1999"), &file[0x40..]);
        // not a trailer: no newline, a NUL in the padding replaced, no colon after the hour
        for (at, byte) in [(0x58, b' '), (0x5f, 1), (0x4d, b'-')] {
            let mut bad = file.clone();
            bad[at] = byte;
            let t: Trailer = record::read_at(&crate::bytes::Bytes::new(&bad), 0x40).unwrap();
            assert!(!t.is_date(), "byte 0x{at:x} = {byte:#x}");
        }
    }

    /// Write `rec` and compare with `bytes`.
    fn writes_as<T>(rec: &T, bytes: &[u8])
    where
        T: binrw::BinWrite,
        for<'a> T::Args<'a>: Default,
    {
        let mut out = Vec::new();
        record::write(rec, &mut out).expect("writes");
        assert_eq!(out, bytes);
    }

    #[test]
    fn file_header_of_vector_a() {
        // docs/formats/motn.md#vectors-a-and-b vector A, bytes 0x00..0x14
        let bytes = [
            0x20, 0x00, 0x00, 0x00, // table_ofs = 0x20
            0x40, 0x00, 0x00, 0x00, // names_ofs = 0x40
            0x50, 0x00, 0x00, 0x00, // data_ofs = 0x50
            0x02, 0x00, 0x00, 0x00, // attributes: low 12 bits = 1 sequence + 1
            0x8e, 0x00, 0x00, 0x00, // file_size = 142
        ];
        let h: FileHeader = both_at(&bytes, 0, ());
        assert_eq!((*h.table_ofs, *h.names_ofs, *h.data_ofs, *h.attributes, *h.file_size), (0x20, 0x40, 0x50, 2, 142));
        assert_eq!(h.data_ofs.span, Span::new(8, 12));
        assert_eq!(h.file_size.span, Span::new(16, 20));
        let f = h.fields();
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "table_ofs",
                "names_ofs",
                "data_ofs",
                "attributes",
                "sequence_count_plus_1",
                "attributes_high",
                "file_size"
            ]
        );
        // the count's 12 bits start at byte 12, the unknown high 20 bits right after
        assert_eq!(f[4].bits, Some(BitSpan { start_bit: 96, bits: 12 }));
        assert_eq!(f[4].note.as_deref(), Some("1 sequence"));
        assert_eq!(f[5].bits, Some(BitSpan { start_bit: 108, bits: 20 }));
        writes_as(&h, &bytes);
    }

    #[test]
    fn table_entry_of_vector_a() {
        // vector A, bytes 0x20..0x28: the one entry
        let mut file = vec![0u8; 0x20];
        file.extend_from_slice(&[
            0x00, 0x00, 0x00, 0x00, // data_rel = 0: the sequence starts at data_ofs
            0x30, 0x00, 0x00, 0x00, // extra_ofs = 0x30, absolute
        ]);
        let e: TableEntry = both_at(&file, 0x20, ());
        assert_eq!((*e.data_rel, *e.extra_ofs), (0, 0x30));
        assert_eq!((e.data_rel.span, e.extra_ofs.span), (Span::new(0x20, 0x24), Span::new(0x24, 0x28)));
        writes_as(&e, &file[0x20..]);
    }

    #[test]
    fn sequence_headers_of_vectors_a_and_b() {
        // vector A at 0x50: n = 10, kind 0, b2 0x12, b3 0x18, b4 0x1b, b5 0x22
        let mut file = vec![0u8; 0x50];
        file.extend_from_slice(&[
            0x0a, 0x00, // frame_word: n = 10, bit 15 clear
            0x00, 0x00, // kind_word = 0 (human default)
            0x12, 0x00, // b2
            0x18, 0x00, // b3
            0x1b, 0x00, // b4
            0x22, 0x00, // b5
        ]);
        let h: SeqHeader = both_at(&file, 0x50, ());
        assert_eq!(h.base(), 0x50);
        assert_eq!((*h.frame_word, *h.kind_word, *h.b2, *h.b3, *h.b4, *h.b5), (10, 0, 0x12, 0x18, 0x1b, 0x22));
        assert_eq!(h.b5.span, Span::new(0x5a, 0x5c));
        let f = h.fields();
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["frame_word", "frame_count", "wide_block2", "kind_word", "b2", "b3", "b4", "b5"]);
        assert_eq!(f[1].bits, Some(BitSpan { start_bit: 0x50 * 8, bits: 15 }));
        assert_eq!(f[2].bits, Some(BitSpan { start_bit: 0x50 * 8 + 15, bits: 1 }));
        // block offsets are from the sequence start: b5 reaches 0x50 + 0x22
        assert!(format!("{:?}", f[7].value).contains("0x72"), "{:?}", f[7].value);
        writes_as(&h, &file[0x50..]);

        // vector B: n = 300 (0x12c), b2 0x10, b3 0x14, b4 0x16, b5 0x1a
        let b = [0x2c, 0x01, 0x00, 0x00, 0x10, 0x00, 0x14, 0x00, 0x16, 0x00, 0x1a, 0x00];
        let h: SeqHeader = both_at(&b, 0, ());
        assert_eq!((*h.frame_word, *h.kind_word, *h.b2, *h.b3, *h.b4, *h.b5), (300, 0, 0x10, 0x14, 0x16, 0x1a));
        writes_as(&h, &b);
    }

    #[test]
    fn baked_header_from_v_3_1() {
        // n = 2; kind 0x8000 (skeleton type 0); nodes 1 (rx ry rz) and 7 (hinge: bend):
        // stride = 12 + 2·(3 + 1) = 20; mask0 = bit 1 | bit 7 = 0x0082
        let bytes = [
            0x02, 0x00, // frame_word: n = 2
            0x00, 0x80, // kind_word: bit 15 set, type 0
            0x14, 0x00, // stride = 20
            0x82, 0x00, // mask0: nodes 1 and 7
            0x00, 0x00, // mask1
            0x00, 0x00, // mask2
            0x00, 0x00, // mask3
        ];
        let h: BakedHeader = both_at(&bytes, 0, ());
        assert_eq!((*h.frame_word, *h.kind_word, *h.stride), (2, 0x8000, 20));
        assert_eq!(h.mask.map(|m| *m), [0x0082, 0, 0, 0]);
        assert_eq!(h.mask[3].span, Span::new(12, 14));
        let f = h.fields();
        let mask0 = f.iter().find(|f| f.name == "mask0").expect("mask0");
        let shown = format!("{:?}", mask0.value);
        assert!(shown.contains("1 Hip") && shown.contains("7 node_7"), "{shown}");
        writes_as(&h, &bytes);
    }

    #[test]
    fn node_track_header_from_v_4_1() {
        let bytes = [
            0x04, 0x00, // frame_word: n = 4 (tracks hold 5 samples)
            0xff, 0xff, // kind_word = 0xFFFF
            0x00, 0x3c, // unk_04 = f16 1.0
            0x00, 0x00, // unk_06 = 0
            0x02, 0x00, // k = 2 records
            0x00, 0x00, // unk_0A = 0
        ];
        let h: NodeTrackHeader = both_at(&bytes, 0, ());
        assert_eq!(
            (*h.frame_word, *h.kind_word, *h.unk_04, *h.unk_06, *h.record_count, *h.unk_0a),
            (4, 0xFFFF, 0x3C00, 0, 2, 0)
        );
        let f = h.fields();
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["frame_word", "frame_count", "wide_block2", "kind_word", "unk_04", "unk_06", "record_count", "unk_0A"]
        );
        assert_eq!(f[1].note.as_deref(), Some("n; every track holds n + 1 = 5 samples"));
        writes_as(&h, &bytes);
    }

    #[test]
    fn node_track_record_from_v_4_2() {
        // a record at 0x0c of a sequence at 0x100 (so offsets reach 0x100 + ofs)
        let rec = [
            0x00, 0x00, // scale_ofs = 0: static
            0x00, 0x3c, 0x00, 0x3c, 0x00, 0x3c, // sx sy sz = 1.0
            0x4c, 0x00, 0x00, 0x40, // rx_ofs 0x4c, rx0 = 0x4000 = 90°
            0x56, 0x00, 0x00, 0xc0, // ry_ofs 0x56, ry0 = -0x4000 = -90°
            0x60, 0x00, 0x00, 0x00, // rz_ofs 0x60, rz0 = 0
            0x00, 0x00, 0x00, 0x38, // px_ofs 0, px = f16 0.5
            0x00, 0x00, 0x00, 0xb8, // py_ofs 0, py = f16 -0.5
            0x00, 0x00, 0x00, 0x00, // pz_ofs 0, pz = 0
        ];
        let mut file = vec![0u8; 0x10c];
        file.extend_from_slice(&rec);
        let r: NodeTrackRecord = both_at(&file, 0x10c, (0x100,));
        assert_eq!(*r.scale_ofs, 0);
        assert_eq!(r.scale.map(|v| *v), [0x3c00; 3]);
        assert_eq!(r.rotation.map(|(o, v)| (*o, *v)), [(0x4c, 0x4000), (0x56, -0x4000), (0x60, 0)]);
        assert_eq!(r.translation.map(|(o, v)| (*o, *v)), [(0, 0x3800), (0, 0xb800), (0, 0)]);
        assert_eq!(r.rotation[1].1.span, Span::new(0x10c + 14, 0x10c + 16));
        let f = r.fields();
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "scale_ofs",
                "sx",
                "sy",
                "sz",
                "rx_ofs",
                "rx0",
                "ry_ofs",
                "ry0",
                "rz_ofs",
                "rz0",
                "px_ofs",
                "px",
                "py_ofs",
                "py",
                "pz_ofs",
                "pz"
            ]
        );
        let rx_ofs = format!("{:?}", f[4].value);
        assert!(rx_ofs.contains("0x14c"), "offsets are from the sequence start: {rx_ofs}");
        let rx0 = format!("{:?}", f[5].value);
        assert!(rx0.contains("90"), "{rx0}");
        writes_as(&r, &rec);
    }

    /// Every vector of this module, for the registry.
    const VECTORS: &[fn()] = &[
        file_header_of_vector_a,
        table_entry_of_vector_a,
        sequence_headers_of_vectors_a_and_b,
        baked_header_from_v_3_1,
        node_track_header_from_v_4_1,
        node_track_record_from_v_4_2,
        date_trailer_of_motion_bin,
    ];

    #[test]
    fn every_motn_record_has_a_vector() {
        vectors::assert_every_record_has_a_vector("motn", include_str!("raw.rs"), VECTORS, Default::default());
    }
}
