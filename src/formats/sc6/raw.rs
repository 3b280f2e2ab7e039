//! On-disk records and constants of SC6 `.mot` banks and HgMotion clips
//! (docs/formats/sc6-mot.md), with names as in the spec: the bank header, the offset
//! table, the clip header and the group table are binrw declarations (read by `parse`,
//! shown by `describe`, written by `write`); the Huffman bit streams after them are read by
//! hand (`bits.rs`).

use crate::formats::record::{ByteArray, Count, FixedSize, Record, Spanned, field};
use crate::model::{Field, Value};
use binrw::binrw;

/// Bank header (docs/formats/sc6-mot.md#bank).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct BankHeader {
    /// Slots in the offset table.
    pub motion_count: Spanned<u32>,
    /// Must be 0 (reference check).
    pub reserved: Spanned<u32>,
}

impl FixedSize for BankHeader {
    const SIZE: u64 = 8;
}

impl Record for BankHeader {
    const NAME: &'static str = "bank header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        let reserved = Value::uint(u64::from(*s.reserved), 4);
        let reserved = if *s.reserved == 0 { reserved.label("reserved (0)") } else { reserved.unknown() };
        vec![
            field!(s.motion_count, Value::dec(u64::from(*s.motion_count))).note("slots in the offset table"),
            field!(s.reserved, reserved).note("must be 0 (reference check)"),
        ]
    }
}

/// The offset table after the bank header (docs/formats/sc6-mot.md#bank): one absolute clip offset per slot; `n` is
/// the number of slots that fit in the file.
#[binrw]
#[brw(little)]
#[br(import(n: Count))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct OffsetTable {
    /// Clip offsets; repeated offsets are aliases.
    #[br(count = n.get())]
    pub offset: Vec<Spanned<u32>>,
}

impl Record for OffsetTable {
    const NAME: &'static str = "offset table";
    /// Plain offsets; what each refers to (clip, alias, unusable) needs the whole bank and
    /// is added by `describe`.
    fn fields(&self) -> Vec<Field> {
        self.offset
            .iter()
            .enumerate()
            .map(|(i, o)| o.field(format!("offset[{i}]"), Value::uint(u64::from(**o), 4)))
            .collect()
    }
}

/// Clip header (docs/formats/sc6-mot.md#clip), at the clip start.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct ClipHeader {
    /// Logical duration in 60 Hz frames (≥ 1).
    pub frame_count: Spanned<u16>,
    /// Bytes of one decoded keyframe; the low bit is ignored.
    pub word_bytes: Spanned<u16>,
    /// Flag bits (see `FLAG_NAMES`).
    pub flags: Spanned<u32>,
    /// One bit per selector-stream entry.
    pub presence_mask: Spanned<u64>,
    /// Top nibble = base turn; low 12 bits unknown.
    pub turn_word: Spanned<u16>,
    /// Never read by the reference; zeros from an encoder.
    pub unknown: Spanned<ByteArray<10>>,
}

impl FixedSize for ClipHeader {
    const SIZE: u64 = 0x1C;
}

impl Record for ClipHeader {
    const NAME: &'static str = "clip header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        let wb = *s.word_bytes;
        let flags = *s.flags;
        let turn = *s.turn_word;
        let word_bytes = field!(s.word_bytes, Value::uint(u64::from(wb), 2).number(f64::from(wb >> 1), "words"));
        let flag_field = field!(s.flags, Value::uint(u64::from(flags), 4).flags(flag_names(flags)));
        vec![
            field!(s.frame_count, Value::dec(u64::from(*s.frame_count))).note("logical 60 Hz frames"),
            if wb & 1 != 0 {
                word_bytes.note("low bit ignored (native shifts right once)")
            } else {
                word_bytes.note("bytes of one decoded keyframe")
            },
            if flags & !F_KNOWN != 0 { flag_field.note("unknown bits present") } else { flag_field },
            field!(s.presence_mask, Value::uint(*s.presence_mask, 8)).note("one bit per selector-stream entry"),
            field!(s.turn_word, Value::uint(u64::from(turn), 2).number(f64::from(turn & 0xF000) / 65536.0, "turns"))
                .note("top nibble = base turn; low 12 bits unknown"),
            field!(s.unknown, Value::unknown_bytes(s.unknown.len() as u64)).note("never read by the reference"),
        ]
    }
}

/// The group table after the clip header (docs/formats/sc6-mot.md#counts-and-the-group-table): `group_count` i16 entries; entry 0 is the
/// distance from the table start to group 0, entry g the size of group g − 1.
#[binrw]
#[brw(little)]
#[br(import(n: Count))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct GroupTable {
    /// The entries.
    #[br(count = n.get())]
    pub entry: Vec<Spanned<i16>>,
}

impl Record for GroupTable {
    const NAME: &'static str = "group table";
    fn fields(&self) -> Vec<Field> {
        let mut sum: i64 = 0;
        let start = ClipHeader::SIZE as i64;
        self.entry
            .iter()
            .enumerate()
            .map(|(g, e)| {
                sum += i64::from(**e);
                let what = if g == 0 {
                    format!("distance from +0x{start:x} to group 0")
                } else {
                    format!("size of group {}", g - 1)
                };
                e.field(
                    format!("entry[{g}]"),
                    Value::int(i64::from(**e), 2).refers(format!("group[{g}] at +0x{:x}", start + sum)),
                )
                .note(what)
            })
            .collect()
    }
}

/// Flag names for a flags word, unknown bits listed by value.
pub(in crate::formats) fn flag_names(flags: u32) -> Vec<String> {
    let mut v: Vec<String> = FLAG_NAMES.iter().filter(|(b, _)| flags & b != 0).map(|(_, n)| (*n).to_string()).collect();
    let unknown = flags & !F_KNOWN;
    if unknown != 0 {
        v.push(format!("unknown 0x{unknown:x}"));
    }
    v
}

/// Largest `motion_count` the reference parser accepts (2^20).
pub(in crate::formats) const BANK_MAX_COUNT: u64 = 1 << 20;
/// Smallest bank the reference parser accepts.
pub(in crate::formats) const BANK_MIN_LEN: u64 = 0x10;
/// Smallest clip the newest reference accepts.
pub(in crate::formats) const CLIP_MIN_LEN: u64 = 0x1E;
/// Largest decoded word count per keyframe (reference limit).
pub(in crate::formats) const MAX_WORDS: u64 = 0x1000;

/// Flag bits (docs/formats/sc6-mot.md#clip).
pub(in crate::formats) const F_HALF: u32 = 0x04;
pub(in crate::formats) const F_QUARTER: u32 = 0x08;
pub(in crate::formats) const F_EXTRA_FRAME: u32 = 0x10;
pub(in crate::formats) const F_ROOT_SCALE_16000: u32 = 0x4000;
pub(in crate::formats) const F_ALT_STREAM: u32 = 0x8000;
pub(in crate::formats) const F_F32: u32 = 0x1000_0000;
/// Every flag bit whose meaning is known.
pub(in crate::formats) const F_KNOWN: u32 =
    F_HALF | F_QUARTER | F_EXTRA_FRAME | F_ROOT_SCALE_16000 | F_ALT_STREAM | F_F32;

/// Names of the known flag bits, in bit order.
pub(in crate::formats) const FLAG_NAMES: [(u32, &str); 6] = [
    (F_HALF, "half-rate"),
    (F_QUARTER, "quarter-rate"),
    (F_EXTRA_FRAME, "extra-frame"),
    (F_ROOT_SCALE_16000, "root-scale-1/16000"),
    (F_ALT_STREAM, "alt-stream"),
    (F_F32, "f32-precision"),
];

/// Keyframes per group.
pub(in crate::formats) const GROUP_KEYS: u64 = 8;
/// Huffman symbols per group table and bits per code length.
pub(in crate::formats) const SYMBOLS: usize = 18;
pub(in crate::formats) const LEN_BITS: u32 = 4;

/// Reference walk limit: more stream entries than this abort the walk.
pub(in crate::formats) const MAX_STREAM_ENTRIES: usize = 96;

/// Root translation scales (docs/formats/sc6-mot.md#selector-streams): f32 0.001 and 1/16000.
pub(in crate::formats) const ROOT_SCALE_DEFAULT: f64 = 0.001_000_000_047_497_451_3;
pub(in crate::formats) const ROOT_SCALE_16000: f64 = 1.0 / 16000.0;

/// The default selector stream (`0x143E83C00`), 44 entries, without its 0x00 terminator.
pub(in crate::formats) const STREAM_DEFAULT: [u8; 44] = [
    0x15, 0x16, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x06, 0x02, 0x02, 0x02, 0x06, 0x02, 0x02, 0x02, 0x06, 0x02, 0x02,
    0x02, 0x06, 0x02, 0x02, 0x17, 0x18, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03,
    0x19, 0x03, 0x19, 0x03, 0x19, 0x14,
];

/// The alternate selector stream (`0x143E83DA0`), 43 entries.
pub(in crate::formats) const STREAM_ALTERNATE: [u8; 43] = [
    0x15, 0x16, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03,
    0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19, 0x03, 0x19,
    0x03, 0x19, 0x03, 0x19, 0x14,
];

/// The skill-check selector stream (`0x143E83BD0`), 15 entries.
pub(in crate::formats) const STREAM_SKILL_CHECK: [u8; 15] =
    [0x02, 0x06, 0x06, 0x02, 0x06, 0x06, 0x02, 0x06, 0x06, 0x02, 0x06, 0x06, 0x02, 0x06, 0x06];

/// Bytes a present selector consumes (docs/formats/sc6-mot.md#selector-streams); `None` for selectors the switch does not know.
pub(in crate::formats) fn selector_bytes(sel: u8, flags: u32) -> Option<u64> {
    let f32_root = flags & F_F32 != 0;
    Some(match sel {
        0x02 | 0x03 | 0x0D | 0x13 | 0x14 | 0x19 | 0x1A => 6,
        0x06 | 0x10 => 2,
        0x0E | 0x0F => 12,
        0x17 | 0x18 => {
            if f32_root {
                12
            } else {
                6
            }
        }
        0x16 => {
            if f32_root {
                14
            } else {
                8
            }
        }
        0x15 | 0x1B | 0x1C | 0x00 => 0,
        _ => return None,
    })
}

/// What a selector does, for labels.
pub(in crate::formats) fn selector_name(sel: u8) -> &'static str {
    match sel {
        0x02 => "rotation (axis-angle)",
        0x03 => "translation (scaling unknown)",
        0x06 => "hinge about Z",
        0x0D => "selector 0x0d (unused by shipped streams)",
        0x0E | 0x0F => "6-word selector (unused by shipped streams)",
        0x10 => "1-word selector (unused by shipped streams)",
        0x13 => "scale (scaling unknown)",
        0x14 => "auxiliary scratch (scaling unknown)",
        0x15 => "marker (no data)",
        0x16 => "root translation + facing",
        0x17 | 0x18 => "auxiliary vector",
        0x19 => "rotation (axis-angle, as 0x02)",
        0x1A => "translation (scaling unknown)",
        0x1B => "bit-reuse marker",
        0x1C => "marker (no data)",
        _ => "unknown selector",
    }
}

/// HorseMod's compact skeleton names (docs/formats/sc6-mot.md#export-skeleton), L before R, transforms 0..22.
pub(in crate::formats) const NAMES_HORSEMOD: [&str; 23] = [
    "actor_root",
    "motion_root",
    "MUNE1",
    "MUNE2",
    "KUBI",
    "ATAMA",
    "SAKOTSU_L",
    "KATA_L",
    "UDE_L",
    "TE_L",
    "SAKOTSU_R",
    "KATA_R",
    "UDE_R",
    "TE_R",
    "KOSHI",
    "MOMO_L",
    "HIZA_L",
    "ASHI_L",
    "TSUMASAKI_L",
    "MOMO_R",
    "HIZA_R",
    "ASHI_R",
    "TSUMASAKI_R",
];

/// The game's `ELuxDemoEmitterAttachBone` names (docs/formats/sc6-mot.md#export-skeleton), R before L, transforms 0..22.
pub(in crate::formats) const NAMES_ENUM: [&str; 23] = [
    "BASE",
    "HARA",
    "MUNE1",
    "MUNE2",
    "KUBI",
    "ATAMA",
    "SAKOTSU_R",
    "KATA_R",
    "UDE_R",
    "TE_R",
    "SAKOTSU_L",
    "KATA_L",
    "UDE_L",
    "TE_L",
    "KOSHI",
    "MOMO_R",
    "HIZA_R",
    "ASHI_R",
    "TSUMASAKI_R",
    "MOMO_L",
    "HIZA_L",
    "ASHI_L",
    "TSUMASAKI_L",
];

/// Transform naming order for the body stream (docs/formats/sc6-mot.md#open-questions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) enum LrOrder {
    /// HorseMod's table (L before R), validated there against shipped skeletons.
    HorseMod,
    /// The game's `ELuxDemoEmitterAttachBone` enum (R before L).
    Enum,
}

impl LrOrder {
    pub(in crate::formats) fn parse(s: Option<&str>) -> std::result::Result<LrOrder, String> {
        match s.map(|s| s.trim().to_ascii_lowercase()) {
            None => Ok(LrOrder::HorseMod),
            Some(s) if s == "horsemod" || s == "l-first" || s == "lr" => Ok(LrOrder::HorseMod),
            Some(s) if s == "enum" || s == "game" || s == "r-first" || s == "rl" => Ok(LrOrder::Enum),
            Some(s) => Err(format!("lr_order {s}: expected horsemod or enum")),
        }
    }
    pub(in crate::formats) fn names(self) -> &'static [&'static str; 23] {
        match self {
            LrOrder::HorseMod => &NAMES_HORSEMOD,
            LrOrder::Enum => &NAMES_ENUM,
        }
    }
}

/// Parents of transforms 0..22 (docs/formats/sc6-mot.md#export-skeleton); the structure is the same under either naming.
pub(in crate::formats) const PARENTS: [i8; 23] =
    [-1, 0, 1, 2, 3, 4, 3, 6, 7, 8, 3, 10, 11, 12, 1, 14, 15, 16, 17, 14, 19, 20, 21];

/// Finger names for the skill-check stream's five (0x02, 0x06, 0x06) groups (docs/formats/sc6-mot.md#selector-streams, an [I] reading).
pub(in crate::formats) const FINGERS: [&str; 5] = ["OYA", "HITO", "NAKA", "KUSU", "KO"];

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    //! Record vectors typed from docs/formats/sc6-mot.md#bank (bank header, offset table),
    //! docs/formats/sc6-mot.md#clip (clip header) and docs/formats/sc6-mot.md#counts-and-the-group-table (group table), a comment per field, read and written both
    //! ways; `every_sc6_record_has_a_vector` is the registry.
    use super::*;
    use crate::bytes::Bytes;
    use crate::formats::record::assert_fixed_size;
    use crate::model::Span;
    use crate::test_support::vectors::{self, both, both_at};

    fn count(b: &[u8], at: u64, n: u64, size: u64) -> Count {
        Count::checked(&Bytes::new(b), "vector", at, n, size, n).unwrap()
    }

    #[test]
    fn bank_header_and_offset_table() {
        // a bank of 3 slots: header, 3 offsets, first clip at align8(8 + 12) = 0x18
        let b = [
            0x03, 0x00, 0x00, 0x00, // +0x00 motion_count 3
            0x00, 0x00, 0x00, 0x00, // +0x04 reserved 0
            0x18, 0x00, 0x00, 0x00, // +0x08 offset[0] 0x18
            0x18, 0x00, 0x00, 0x00, // +0x0c offset[1] 0x18 (an alias of clip 0)
            0x40, 0x00, 0x00, 0x00, // +0x10 offset[2] 0x40
        ];
        let h: BankHeader = both_at(&b, 0, ());
        assert_eq!((*h.motion_count, *h.reserved, h.reserved.span), (3, 0, Span::new(4, 8)));
        let names: Vec<_> = h.fields().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["motion_count", "reserved"]);
        let t: OffsetTable = both_at(&b, 8, (count(&b, 8, 3, 4),));
        assert_eq!(t.offset.iter().map(|o| **o).collect::<Vec<_>>(), [0x18, 0x18, 0x40]);
        assert_eq!(t.offset[2].span, Span::new(0x10, 0x14));
        let f: Vec<_> = t.fields().into_iter().map(|f| (f.name, f.span)).collect();
        assert_eq!(f[1], ("offset[1]".to_string(), Span::new(0x0c, 0x10)));
    }

    #[test]
    fn clip_header_and_group_table() {
        // the example of docs/formats/sc6-mot.md#counts-and-the-group-table, chr0ff clip 0x11: half rate, frame_count 0x118 → encoded 140,
        // group_count 18, table end 0x40; the other values typed here
        let mut b = vec![
            0x18, 0x01, // +0x00 frame_count 0x118 = 280
            0x8a, 0x00, // +0x02 word_bytes 0x8a = 2 × 69 words
            0x04, 0x40, 0x00, 0x10, // +0x04 flags 0x10004004: half-rate | root-scale-1/16000 | f32
            0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x00, // +0x08 presence_mask 0xfffffffffff (44 bits)
            0x00, 0x40, // +0x10 turn_word 0x4000: a quarter turn
        ];
        b.extend([0u8; 10]); // +0x12..+0x1b unknown, zeros
        let h: ClipHeader = both(&b, ());
        assert_eq!((*h.frame_count, *h.word_bytes, *h.flags), (280, 0x8a, F_HALF | F_ROOT_SCALE_16000 | F_F32));
        assert_eq!((*h.presence_mask, *h.turn_word, h.unknown.0), (0xfff_ffff_ffff, 0x4000, [0; 10]));
        assert_eq!(
            (h.presence_mask.span, h.turn_word.span, h.unknown.span),
            (Span::new(8, 16), Span::new(16, 18), Span::new(18, 28))
        );
        let names: Vec<_> = h.fields().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["frame_count", "word_bytes", "flags", "presence_mask", "turn_word", "unknown"]);
        // the group table at +0x1c: entry 0 = distance to group 0 (2 × 3 when it follows
        // the table), then the sizes of groups 0 and 1
        b.extend([
            0x06, 0x00, // +0x1c entry[0] 6
            0x2a, 0x00, // +0x1e entry[1] 42 = size of group 0
            0xfe, 0xff, // +0x20 entry[2] −2 (an i16: a hostile table can go back)
        ]);
        let t: GroupTable = both_at(&b, 0x1c, (count(&b, 0x1c, 3, 2),));
        assert_eq!(t.entry.iter().map(|e| **e).collect::<Vec<_>>(), [6, 42, -2]);
        assert_eq!(t.entry[2].span, Span::new(0x20, 0x22));
    }

    /// Every vector of this module, for the registry.
    const VECTORS: &[fn()] = &[bank_header_and_offset_table, clip_header_and_group_table];

    #[test]
    fn every_sc6_record_has_a_vector() {
        vectors::assert_every_record_has_a_vector("sc6", include_str!("raw.rs"), VECTORS, Default::default());
    }

    #[test]
    fn fixed_records_have_their_declared_sizes() {
        assert_fixed_size::<BankHeader>();
        assert_fixed_size::<ClipHeader>();
    }
}
