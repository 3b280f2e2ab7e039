//! Chunk kind numbers and names (docs/formats/ccsf.md#chunk-kinds).

use super::band;

/// Setup-section dispatch table of `DecodeSetupSection` (plus Header/Index handled apart).
pub(in crate::formats) const SETUP_KINDS: &[u16] = &[
    0x0003, 0x0005, 0x0100, 0x0200, 0x0300, 0x0400, 0x0500, 0x0600, 0x0700, 0x0800, 0x0900, 0x0a00, 0x0b00, 0x0c00,
    0x0d00, 0x0e00, 0x1000, 0x1100, 0x1200, 0x1300, 0x1400, 0x1700, 0x1800, 0x1900, 0x2000, 0x2200,
];

/// Frame-section dispatch table of `ccStream::DecodeFrameChunk`.
pub(in crate::formats) const FRAME_KINDS: &[u16] = &[
    0xff01, 0x0005, 0x0101, 0x0108, 0x0201, 0x0502, 0x0601, 0x0602, 0x0604, 0x0606, 0x0608, 0x0802, 0x0803, 0x1801,
    0x1901, 0x2201,
];

/// Setup kinds later generations add (docs/formats/ccsf-gen2.md#walker), accepted from version 0x110.
pub(in crate::formats) const SETUP_KINDS2: &[u16] =
    &[0x0d80, 0x0d90, 0x1a00, 0x1b00, 0x1c00, 0x1d00, 0x1f00, 0x2300, 0x2400, 0x2700];

/// Frame-section kinds later generations add (docs/formats/ccsf-gen2.md#walker).
pub(in crate::formats) const FRAME_KINDS2: &[u16] = &[0x1a01, 0x1b01, 0x1c01, 0x1d01];

/// Dense slots for the kinds of the dispatch tables (and Header/Index): high byte
/// 0x00..=0x27 or 0xff, low byte 0..=8, 0x80 or 0x90 — true of every kind of both
/// generations, so the walker and the survey look kinds up by index instead of scanning
/// the tables per chunk.
pub(in crate::formats) const KIND_SLOTS: usize = 41 * 11;

/// The dense slot of `kind`, None for kinds outside the dispatch tables' shape.
pub(in crate::formats) const fn kind_slot(kind: u16) -> Option<usize> {
    let (hi, lo) = ((kind >> 8) as usize, (kind & 0xff) as usize);
    let h = if hi == 0xff { 0x28 } else { hi };
    let l = match lo {
        0..=8 => lo,
        0x80 => 9,
        0x90 => 10,
        _ => return None,
    };
    if hi > 0x27 && hi != 0xff { None } else { Some(h * 11 + l) }
}

/// The kind in slot `slot` (inverse of [`kind_slot`]).
pub(in crate::formats) const fn slot_kind(slot: usize) -> u16 {
    let (h, l) = (slot / 11, slot % 11);
    let hi = if h == 0x28 { 0xff } else { h };
    let lo = match l {
        9 => 0x80,
        10 => 0x90,
        _ => l,
    };
    ((hi << 8) | lo) as u16
}

// Evaluated at compile time only: an index out of range or the panic fails the build.
#[allow(clippy::indexing_slicing, clippy::panic)]
const fn slot_table(kinds: &[u16], extra: &[u16]) -> [bool; KIND_SLOTS] {
    let mut t = [false; KIND_SLOTS];
    let mut i = 0;
    while i < kinds.len() + extra.len() {
        let k = if i < kinds.len() { kinds[i] } else { extra[i - kinds.len()] };
        match kind_slot(k) {
            Some(s) => t[s] = true,
            None => panic!("dispatch-table kind outside the slot shape"),
        }
        i += 1;
    }
    t
}

const SETUP_SLOTS: [bool; KIND_SLOTS] = slot_table(SETUP_KINDS, &[0x0001, 0x0002]);
const FRAME_SLOTS: [bool; KIND_SLOTS] = slot_table(FRAME_KINDS, &[]);
const SETUP_SLOTS2: [bool; KIND_SLOTS] = slot_table(SETUP_KINDS2, &[]);
const FRAME_SLOTS2: [bool; KIND_SLOTS] = slot_table(FRAME_KINDS2, &[]);

/// True when the game dispatches `kind` in the section (setup: plus Header and Index).
#[inline]
pub(in crate::formats) fn dispatched(kind: u16, in_frames: bool) -> bool {
    let table = if in_frames { &FRAME_SLOTS } else { &SETUP_SLOTS };
    kind_slot(kind).and_then(|s| table.get(s)).copied().unwrap_or(false)
}

/// [`dispatched`] for a file of `version`: from 0x110 docs/formats/ccsf-gen2.md#walker kinds too.
pub(in crate::formats) fn dispatched_at(kind: u16, in_frames: bool, version: u16) -> bool {
    if dispatched(kind, in_frames) {
        return true;
    }
    let table = if in_frames { &FRAME_SLOTS2 } else { &SETUP_SLOTS2 };
    band::of(version).gen2() && kind_slot(kind).and_then(|s| table.get(s)).copied().unwrap_or(false)
}

/// Kinds allowed inside an Anime chunk's sub-stream.
pub(in crate::formats) const ANIME_KINDS: &[u16] =
    &[0x0102, 0x0202, 0x0603, 0x0605, 0x0607, 0x0609, 0xff01, 0x0101, 0x0108, 0x0502, 0x0601, 0x1901];

/// Anime sub-record kinds later generations add (docs/formats/ccsf-gen2.md#walker, docs/formats/ccsf.md#posing): the camera and morph
/// controllers and the post-effect frames.
pub(in crate::formats) const ANIME_KINDS2: &[u16] = &[0x0503, 0x1902, 0x1a01, 0x1b01, 0x1c01, 0x1d01];

/// Name of a chunk kind (`in_frames` picks the frame table for 0x0005).
pub(in crate::formats) fn kind_name(kind: u16, _in_frames: bool) -> &'static str {
    match kind {
        0x0001 => "Header",
        0x0002 => "Index",
        0x0003 => "Setup",
        0x0005 => "Frame",
        0x0100 => "Obj",
        0x0200 => "Material",
        0x0300 => "Texture",
        0x0400 => "Clut",
        0x0500 => "Camera",
        0x0600 => "Light",
        0x0700 => "Anime",
        0x0800 => "Model",
        0x0900 => "Clump",
        0x0a00 => "ExtObj",
        0x0b00 => "Hit",
        0x0c00 => "Bbox",
        0x0d00 => "Particle",
        0x0e00 => "Eff",
        0x1000 => "BltGrp",
        0x1100 => "FBRect",
        0x1200 => "FBPage",
        0x1300 => "DummyPos",
        0x1400 => "DummyPosRot",
        0x1700 => "Layer",
        0x1800 => "Shadow",
        0x1900 => "Morpher",
        0x2000 => "Obj2",
        0x2200 => "Pcm",
        0xff01 => "Top",
        0x0101 => "F_Obj",
        0x0102 => "ObjCtrl",
        0x0108 => "F_Note",
        0x0201 => "F_Material",
        0x0202 => "MatCtrl",
        0x0502 => "F_Camera",
        0x0601 => "F_Ambient",
        0x0602 => "F_DistantLight",
        0x0603 => "DistantLightCtrl",
        0x0604 => "F_DirectLight",
        0x0605 => "DirectLightCtrl",
        0x0606 => "F_SpotLight",
        0x0607 => "SpotLightCtrl",
        0x0608 => "F_OmniLight",
        0x0609 => "OmniLightCtrl",
        0x0802 => "F_ModelVertex",
        0x0803 => "F_ModelNormal",
        0x1801 => "F_Shadow",
        0x1901 => "F_Morpher",
        0x2201 => "F_Pcm",
        0x0503 => "CameraCtrl",
        0x0d80 => "ParticleAnmCtrl",
        0x0d90 => "ParticleGenerator",
        0x1902 => "MorphCtrl",
        0x1a00 => "StreamOutlineParam",
        0x1a01 => "OutlineFrame",
        0x1b00 => "StreamCelShadeParam",
        0x1b01 => "CelShadeFrame",
        0x1c00 => "StreamToneShadeParam",
        0x1c01 => "ToneShadeFrame",
        0x1d00 => "StreamFBSBlurParam",
        0x1d01 => "FBSBlurFrame",
        0x1f00 => "Sprite2Tbl",
        0x2300 => "Dynamics",
        0x2400 => "BinaryBlob",
        0x2700 => "SPD",
        _ => "unknown",
    }
}

/// True when the chunk's first payload word is an object index (docs/formats/ccsf.md#chunk-kinds).
pub(in crate::formats) fn first_word_is_object(kind: u16) -> bool {
    !matches!(
        kind,
        0x0001
            | 0x0002
            | 0x0003
            | 0x0005
            | 0xff01
            | 0x0601
            | 0x2200
            | 0x2201
            | 0x1700
            | 0x0d00
            | 0x1000
            | 0x0802
            | 0x0803
            // gen 2 (docs/formats/ccsf-gen2.md#walker): object index in the second word, or a clump first
            | 0x1a00
            | 0x1b00
            | 0x1c00
            | 0x1d00
            | 0x2300
            | 0x1f00
            | 0x2700
            | 0x1a01
            | 0x1c01
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_a_bijection_and_dispatch_matches_the_tables() {
        for kind in 0..=u16::MAX {
            if let Some(s) = kind_slot(kind) {
                assert!(s < KIND_SLOTS);
                assert_eq!(slot_kind(s), kind);
            }
            let setup = SETUP_KINDS.contains(&kind) || kind == 1 || kind == 2;
            assert_eq!(dispatched(kind, false), setup, "0x{kind:04x}");
            assert_eq!(dispatched(kind, true), FRAME_KINDS.contains(&kind), "0x{kind:04x}");
            // gen-2 kinds only from 0x110, and only in their own section
            let s2 = setup || SETUP_KINDS2.contains(&kind);
            let f2 = FRAME_KINDS.contains(&kind) || FRAME_KINDS2.contains(&kind);
            assert_eq!(dispatched_at(kind, false, 0x110), s2, "0x{kind:04x}");
            assert_eq!(dispatched_at(kind, true, 0x123), f2, "0x{kind:04x}");
            assert_eq!(dispatched_at(kind, false, 0x10f), setup, "0x{kind:04x}");
        }
    }
}
