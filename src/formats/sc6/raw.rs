//! On-disk constants of SC6 `.mot` banks and HgMotion clips (shared/specs/sc6-mot.md §2–§6),
//! with names as in the spec. Nothing here reads bytes.

/// Bank header: `motion_count` u32, reserved u32, then `motion_count` u32 offsets.
pub(in crate::formats) const BANK_TABLE: u64 = 0x08;
/// Smallest bank the reference parser accepts.
pub(in crate::formats) const BANK_MIN_LEN: u64 = 0x10;
/// Largest `motion_count` the reference parser accepts (2^20).
pub(in crate::formats) const BANK_MAX_COUNT: u64 = 1 << 20;

/// Clip header field offsets (relative to the clip start).
pub(in crate::formats) const H_FRAME_COUNT: u64 = 0x00;
pub(in crate::formats) const H_WORD_BYTES: u64 = 0x02;
pub(in crate::formats) const H_FLAGS: u64 = 0x04;
pub(in crate::formats) const H_MASK: u64 = 0x08;
pub(in crate::formats) const H_TURN: u64 = 0x10;
pub(in crate::formats) const H_UNKNOWN: u64 = 0x12;
/// The group table starts here.
pub(in crate::formats) const H_GROUP_TABLE: u64 = 0x1C;
/// Smallest clip the newest reference accepts.
pub(in crate::formats) const CLIP_MIN_LEN: u64 = 0x1E;
/// Largest decoded word count per keyframe (reference limit).
pub(in crate::formats) const MAX_WORDS: u64 = 0x1000;

/// Flag bits (§3).
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

/// Root translation scales (§6.5): f32 0.001 and 1/16000.
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

/// Bytes a present selector consumes (§6.3); `None` for selectors the switch does not know.
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

/// HorseMod's compact skeleton names (§8.1), L before R, transforms 0..22.
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

/// The game's `ELuxDemoEmitterAttachBone` names (§8.2), R before L, transforms 0..22.
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

/// Parents of transforms 0..22 (§8.1); the structure is the same under either naming.
pub(in crate::formats) const PARENTS: [i8; 23] =
    [-1, 0, 1, 2, 3, 4, 3, 6, 7, 8, 3, 10, 11, 12, 1, 14, 15, 16, 17, 14, 19, 20, 21];

/// Finger names for the skill-check stream's five (0x02, 0x06, 0x06) groups (§6.1, an [I] reading).
pub(in crate::formats) const FINGERS: [&str; 5] = ["OYA", "HITO", "NAKA", "KUSU", "KO"];
