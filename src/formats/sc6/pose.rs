//! Posed matrices for export (spec §8): the built-in 32-transform skeleton (names from
//! §8.1/§8.2 per `lr_order`, parents from §8.1), a nominal reference pose, and the
//! composition the reference uses: locals with the reference translation and the decoded
//! rotation, transform 1 at `(0, root.y, 0)`, root X/Z (after the base turn) on transform 0,
//! the base-turn Y rotation left-multiplied into transforms 2 and 14.
//!
//! The real reference pose comes from NMD3 files that are not in the `.mot`; the built-in
//! rest offsets are **nominal** (a generic humanoid in metres), said so in `conversion`.
//! Supply `--skeleton` for real proportions.

use super::decode::LrOrder;
use super::raw::{NAMES_ENUM, NAMES_HORSEMOD, PARENTS};
use crate::model::anim::{Clip, PoseSeq, Space};
use glam::{Mat4, Quat, Vec3};

/// Nominal local reference translations (Lux metres, Y up) of transforms 0..22, L at +X.
const NOMINAL_LOCAL: [[f32; 3]; 23] = [
    [0.0, 0.0, 0.0],    // 0 BASE / actor_root
    [0.0, 1.0, 0.0],    // 1 HARA / motion_root (replaced by root.y when present)
    [0.0, 0.12, 0.0],   // 2 MUNE1
    [0.0, 0.13, 0.0],   // 3 MUNE2
    [0.0, 0.2, 0.0],    // 4 KUBI
    [0.0, 0.1, 0.0],    // 5 ATAMA
    [0.05, 0.17, 0.0],  // 6 SAKOTSU (first side)
    [0.13, 0.0, 0.0],   // 7 KATA
    [0.28, 0.0, 0.0],   // 8 UDE
    [0.25, 0.0, 0.0],   // 9 TE
    [-0.05, 0.17, 0.0], // 10 SAKOTSU (second side)
    [-0.13, 0.0, 0.0],  // 11 KATA
    [-0.28, 0.0, 0.0],  // 12 UDE
    [-0.25, 0.0, 0.0],  // 13 TE
    [0.0, -0.05, 0.0],  // 14 KOSHI
    [0.1, -0.08, 0.0],  // 15 MOMO (first side)
    [0.0, -0.42, 0.0],  // 16 HIZA
    [0.0, -0.42, 0.0],  // 17 ASHI
    [0.0, -0.06, 0.12], // 18 TSUMASAKI
    [-0.1, -0.08, 0.0], // 19 MOMO (second side)
    [0.0, -0.42, 0.0],  // 20 HIZA
    [0.0, -0.42, 0.0],  // 21 ASHI
    [0.0, -0.06, 0.12], // 22 TSUMASAKI
];

/// Lux (Y up, X/Z ground, metres) → Blender (Z up, metres): `(x, y, z) → (x, −z, y)`.
/// Follows `UE(X,Y,Z) = Lux(X,Z,Y)·100` and the usual UE→Blender import (Y flipped, ×0.01).
pub(in crate::formats) fn lux_to_blender() -> Mat4 {
    Mat4::from_cols(
        glam::Vec4::new(1.0, 0.0, 0.0, 0.0),
        glam::Vec4::new(0.0, 0.0, 1.0, 0.0),
        glam::Vec4::new(0.0, -1.0, 0.0, 0.0),
        glam::Vec4::new(0.0, 0.0, 0.0, 1.0),
    )
}

/// Bone names and parents of the 32 logical transforms.
pub(in crate::formats) fn skeleton(lr: LrOrder) -> (Vec<String>, Vec<Option<usize>>) {
    let body = match lr {
        LrOrder::HorseMod => &NAMES_HORSEMOD,
        LrOrder::Enum => &NAMES_ENUM,
    };
    let mut names: Vec<String> = body.iter().map(|s| (*s).to_string()).collect();
    names.extend((1..=9).map(|i| format!("WEAPON{i}")));
    let mut parents: Vec<Option<usize>> = PARENTS.iter().map(|&p| usize::try_from(p).ok()).collect();
    // weapon parents are not known: attached to transform 0 ([I])
    parents.extend(std::iter::repeat_n(Some(0), 9));
    (names, parents)
}

fn local_t(i: usize) -> Vec3 {
    Vec3::from(NOMINAL_LOCAL.get(i).copied().unwrap_or([0.0; 3]))
}

/// World rest matrices of the first `count` transforms: identity rotations, accumulated
/// nominal translations.
fn rest_world(parents: &[Option<usize>], count: usize) -> Vec<Mat4> {
    let mut rest: Vec<Mat4> = Vec::with_capacity(count);
    for i in 0..count {
        let local = Mat4::from_translation(local_t(i));
        let w = match parents.get(i).copied().flatten().and_then(|p| rest.get(p)) {
            Some(pw) => *pw * local,
            None => local,
        };
        rest.push(w);
    }
    rest
}

/// The built-in skeleton (HorseMod L/R order) for `animscope skeleton --builtin sc6`.
pub(in crate::formats) fn builtin() -> crate::formats::BuiltinSkeleton {
    let (names, parents) = skeleton(LrOrder::HorseMod);
    let rest = rest_world(&parents, names.len());
    let bones = names
        .into_iter()
        .zip(parents)
        .zip(rest)
        .map(|((name, parent), rest)| crate::model::anim::Bone { name, parent, rest })
        .collect();
    crate::formats::BuiltinSkeleton {
        name: "builtin sc6".into(),
        skeleton: crate::model::anim::Skeleton { bones },
        conversion: lux_to_blender(),
        conversion_note: "Lux (Y up, X/Z ground, metres) to Blender (Z up, metres): (x, y, z) -> (x, -z, y); \
                          nominal rest offsets (generic humanoid), not the game's NMD reference pose"
            .into(),
    }
}

/// Build poses from a decoded default-stream clip's tracks.
pub(in crate::formats) fn build(c: &Clip, lr: LrOrder, base_turn: f64, root_only: bool) -> PoseSeq {
    let (names, parents) = skeleton(lr);
    let count = if root_only { 2 } else { names.len() };
    let rest = rest_world(&parents, count);
    let has_root = c.track("root.y").is_some();
    let turn = Quat::from_rotation_y((base_turn * std::f64::consts::TAU) as f32);
    // resolve each bone's quaternion tracks once
    let quat_tracks: Vec<Option<[&[f64]; 4]>> = names
        .iter()
        .take(count)
        .map(|bone| {
            let t = |s: &str| c.track(&format!("{bone}.{s}")).map(|t| t.samples.as_slice());
            Some([t("qx")?, t("qy")?, t("qz")?, t("qw")?])
        })
        .collect();
    let root = |s: &str| c.track(s).map(|t| t.samples.as_slice()).unwrap_or(&[]);
    let (rx, ry, rz) = (root("root.x"), root("root.y"), root("root.z"));
    let at = |v: &[f64], f: usize| v.get(f).copied().unwrap_or(0.0) as f32;
    let mut frames = Vec::with_capacity(c.frame_count);
    for f in 0..c.frame_count {
        let mut world: Vec<Mat4> = Vec::with_capacity(count);
        for i in 0..count {
            let (mut rot, mut t) = (Quat::IDENTITY, local_t(i));
            if let Some(Some([x, y, z, w])) = quat_tracks.get(i) {
                rot = Quat::from_xyzw(at(x, f), at(y, f), at(z, f), at(w, f)).normalize();
            }
            if has_root {
                match i {
                    0 => t = Vec3::new(at(rx, f), 0.0, at(rz, f)),
                    1 => t = Vec3::new(0.0, at(ry, f), 0.0),
                    2 | 14 => rot = turn * rot,
                    _ => {}
                }
            }
            let local = Mat4::from_rotation_translation(rot, t);
            let w = match parents.get(i).copied().flatten().and_then(|p| world.get(p)) {
                Some(pw) => *pw * local,
                None => local,
            };
            world.push(w);
        }
        frames.push(world);
    }
    PoseSeq {
        space: Space::FormatModel,
        bones: names.into_iter().take(count).collect(),
        frames,
        parents: parents.into_iter().take(count).collect(),
        rest,
        conversion_matrix: lux_to_blender(),
        source: if root_only { "root curve only".into() } else { "authored mot sample".into() },
        skeleton: "builtin sc6".into(),
        conversion: format!(
            "Lux (Y up, X/Z ground, metres) to Blender (Z up, metres): (x, y, z) -> (x, -z, y), matrix rows [1 0 0 0; 0 0 -1 0; 0 1 0 0; 0 0 0 1]; \
             built-in skeleton: 32 logical transforms (lr_order {}), parents from HorseMod (§8.1), weapons attached to transform 0 [I]; \
             rest offsets are nominal (identity rotations, generic humanoid lengths), not the game's NMD reference pose; \
             root x/z (after the base turn) on transform 0, (0, root.y, 0) on transform 1, base turn left-multiplied into transforms 2 and 14; \
             facing not applied (open question 9); 0x03 weapon translations ignored (scaling unknown)",
            match lr {
                LrOrder::HorseMod => "horsemod",
                LrOrder::Enum => "enum",
            }
        ),
    }
}
