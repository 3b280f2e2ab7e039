//! On-disk constants of MOTN blobs (spec `shared/specs/motn.md` §2). All values are
//! little-endian; offsets are relative to the start of the MOTN blob.

/// Size of the file header (`table_ofs`, `names_ofs`, `data_ofs`, `attributes`, `file_size`).
pub(in crate::formats) const FILE_HEADER_LEN: u64 = 0x14;
/// Size of a sequence table entry (`data_rel`, `extra_ofs`).
pub(in crate::formats) const TABLE_ENTRY_LEN: u64 = 8;
/// Size of the sequence header (`frame_word`, `kind_word`, `b2`, `b3`, `b4`, `b5`).
pub(in crate::formats) const SEQ_HEADER_LEN: u64 = 12;
/// Bit 15 of `frame_word`: Block-2 entries are u16.
pub(in crate::formats) const WIDE_BLOCK2: u16 = 0x8000;
/// Bit 15 of `kind_word` (covers 0xFFFF): a variant layout (`motn-variants.md`).
pub(in crate::formats) const VARIANT_KIND: u16 = 0x8000;
/// `kind_word` of the node-track variant layout (V.4); test it before bit 15.
pub(in crate::formats) const NODE_TRACK_KIND: u16 = 0xFFFF;
/// Header length of a baked-frame variant (V.3.1).
pub(in crate::formats) const BAKED_HEADER_LEN: u64 = 14;
/// Header length of a node-track variant (V.4.1).
pub(in crate::formats) const NODE_TRACK_HEADER_LEN: u64 = 12;
/// Size of a node-track record (V.4.2).
pub(in crate::formats) const RECORD_LEN: u64 = 32;
/// Baked-frame nodes that store one value ("bend") instead of rx, ry, rz (V.3.2).
pub(in crate::formats) const HINGE_NODES: [u8; 4] = [7, 14, 28, 34];
/// s16 binary angle units per turn (V.2).
pub(in crate::formats) const ANGLE_UNITS_PER_TURN: f64 = 65536.0;
/// Low 12 bits of `attributes`: number of sequences + 1.
pub(in crate::formats) const ATTR_COUNT_MASK: u32 = 0xFFF;
/// Frames per second of every sequence (S2/S3: 1/30 s per frame).
pub(in crate::formats) const FPS: f64 = 30.0;
/// Length of the optional date trailer (ctime text, `\n`, NULs).
pub(in crate::formats) const TRAILER_LEN: u64 = 32;
/// Node ids are 7 bits; strictly ascending instructions allow at most 128 of them.
pub(in crate::formats) const MAX_INSTRUCTIONS: u64 = 128;
/// The nine channel bits of an instruction (`ins & 0x1FF`).
pub(in crate::formats) const CHANNEL_MASK: u16 = 0x1FF;

/// Kind words whose sequences use the standard human rig (spec §5) [DATA].
pub(in crate::formats) const HUMAN_KINDS: [u16; 7] = [0x00, 0x01, 0x02, 0x03, 0x0A, 0x0C, 0x0D];

/// Node names of the standard human motion/IK rig (spec §5; names from S2/S3 `IKBoneID`,
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
