//! Posed matrices for export (docs/formats/sc6-mot.md#export-skeleton): the built-in 32-transform skeleton (names from
//! docs/formats/sc6-mot.md#export-skeleton per `lr_order`, parents from docs/formats/sc6-mot.md#export-skeleton), a nominal reference pose, and the
//! composition the reference uses: locals with the reference translation and the decoded
//! rotation, transform 1 at `(0, root.y, 0)`, root X/Z (after the base turn) on transform 0,
//! the base-turn Y rotation left-multiplied into transforms 2 and 14.
//!
//! The real reference pose comes from NMD3 files that are not in the `.mot`; the built-in
//! rest offsets are **nominal** (a generic humanoid in metres), said so in `conversion`.
//! Supply `--skeleton` for real proportions.

use super::raw::{LrOrder, NAMES_ENUM, NAMES_HORSEMOD, PARENTS};
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

pub(super) fn local_t(i: usize) -> Vec3 {
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

/// The built-in skeleton's composition for one clip: what [`Poser::frame`] needs besides
/// the sampled values, shared by the stored poses ([`build`]) and the poses made on demand
/// (one frame at a time for exports), so both give the same matrices.
pub(in crate::formats) struct Poser {
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    rest: Vec<Mat4>,
    has_root: bool,
    turn: Quat,
    lr: LrOrder,
    root_only: bool,
}

impl Poser {
    /// The poser of a clip with (`has_root`) or without a root channel.
    pub(in crate::formats) fn new(lr: LrOrder, base_turn: f64, root_only: bool, has_root: bool) -> Poser {
        let (mut names, mut parents) = skeleton(lr);
        let count = if root_only { 2 } else { names.len() };
        names.truncate(count);
        parents.truncate(count);
        let rest = rest_world(&parents, count);
        let turn = Quat::from_rotation_y((base_turn * std::f64::consts::TAU) as f32);
        Poser { names, parents, rest, has_root, turn, lr, root_only }
    }

    /// Bone names, one per matrix of a frame.
    pub(in crate::formats) fn names(&self) -> &[String] {
        &self.names
    }

    /// World matrices of one frame from each bone's quaternion (x, y, z, w; None: rest
    /// rotation) and the root's x, y, z.
    pub(in crate::formats) fn frame(&self, quat: &dyn Fn(usize) -> Option<[f32; 4]>, root: [f32; 3]) -> Vec<Mat4> {
        let count = self.names.len();
        let mut world: Vec<Mat4> = Vec::with_capacity(count);
        for i in 0..count {
            let rot = quat(i).map(|[x, y, z, w]| Quat::from_xyzw(x, y, z, w).normalize());
            let local = self.local(i, rot, root);
            let w = match self.parent_world(i, &world) {
                Some(pw) => pw * local,
                None => local,
            };
            world.push(w);
        }
        world
    }

    /// The world matrix of bone `i`'s parent among the first bones' `world` (None for a
    /// bone without one).
    pub(in crate::formats) fn parent_world(&self, i: usize, world: &[Mat4]) -> Option<Mat4> {
        self.parents.get(i).copied().flatten().and_then(|p| world.get(p)).copied()
    }

    /// Bone `i`'s local matrix from its stored rotation (None: rest rotation) and the root's
    /// x, y, z: the reference translation, transform 1 at `(0, root.y, 0)`, root X/Z on
    /// transform 0, the base turn left-multiplied into transforms 2 and 14.
    pub(in crate::formats) fn local(&self, i: usize, rot: Option<Quat>, root: [f32; 3]) -> Mat4 {
        let (mut rot, mut t) = (rot.unwrap_or(Quat::IDENTITY), local_t(i));
        if self.has_root {
            match i {
                0 => t = Vec3::new(root[0], 0.0, root[2]),
                1 => t = Vec3::new(0.0, root[1], 0.0),
                2 | 14 => rot = self.turn * rot,
                _ => {}
            }
        }
        Mat4::from_rotation_translation(rot, t)
    }

    /// The rotation bone `i` stores for a local rotation `rot`: the base turn taken out of
    /// transforms 2 and 14 (the inverse of what [`Poser::local`] puts in).
    pub(in crate::formats) fn stored_rotation(&self, i: usize, rot: Quat) -> Quat {
        if self.has_root && matches!(i, 2 | 14) { self.turn.inverse() * rot } else { rot }
    }

    /// The pose sequence holding `frames`.
    pub(in crate::formats) fn seq(&self, frames: Vec<Vec<Mat4>>) -> PoseSeq {
        pose_seq(self.names.clone(), self.parents.clone(), self.rest.clone(), frames, self.lr, self.root_only)
    }
}

/// Build poses from a decoded default-stream clip's tracks.
pub(in crate::formats) fn build(c: &Clip, lr: LrOrder, base_turn: f64, root_only: bool) -> PoseSeq {
    let poser = Poser::new(lr, base_turn, root_only, c.track("root.y").is_some());
    // resolve each bone's quaternion tracks once
    let quat_tracks: Vec<Option<[&[f64]; 4]>> = poser
        .names()
        .iter()
        .map(|bone| {
            let t = |s: &str| c.track(&format!("{bone}.{s}")).map(|t| t.samples.as_slice());
            Some([t("qx")?, t("qy")?, t("qz")?, t("qw")?])
        })
        .collect();
    let root = |s: &str| c.track(s).map(|t| t.samples.as_slice()).unwrap_or(&[]);
    let (rx, ry, rz) = (root("root.x"), root("root.y"), root("root.z"));
    let at = |v: &[f64], f: usize| v.get(f).copied().unwrap_or(0.0) as f32;
    let frames = (0..c.frame_count)
        .map(|f| {
            let quat =
                |i: usize| quat_tracks.get(i).copied().flatten().map(|[x, y, z, w]| [x, y, z, w].map(|v| at(v, f)));
            poser.frame(&quat, [at(rx, f), at(ry, f), at(rz, f)])
        })
        .collect();
    poser.seq(frames)
}

fn pose_seq(
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    rest: Vec<Mat4>,
    frames: Vec<Vec<Mat4>>,
    lr: LrOrder,
    root_only: bool,
) -> PoseSeq {
    PoseSeq {
        space: Space::FormatModel,
        bones: names,
        frames,
        parents,
        rest,
        conversion_matrix: lux_to_blender(),
        source: if root_only { "root curve only".into() } else { "authored mot sample".into() },
        skeleton: "builtin sc6".into(),
        conversion: format!(
            "Lux (Y up, X/Z ground, metres) to Blender (Z up, metres): (x, y, z) -> (x, -z, y), matrix rows [1 0 0 0; 0 0 -1 0; 0 1 0 0; 0 0 0 1]; \
             built-in skeleton: 32 logical transforms (lr_order {}), parents from HorseMod (docs/formats/sc6-mot.md#export-skeleton), weapons attached to transform 0 [I]; \
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
