//! Posed matrices for export: the built-in **nominal** human rig and the forward
//! composition of a standard sequence's channels onto it.
//!
//! What the spec fixes (docs/formats/motn.md#conventions, docs/formats/motn.md#nodes-and-export-skeleton): node ids and names of the standard human motion/IK rig,
//! rotations stored in turns (the decoded tracks this module reads carry radians = turns ×
//! 2π), translations in model units (probably metres), 30 fps. What it
//! leaves open (docs/formats/motn.md#open-questions) and animscope therefore **chooses**, labelled as such in the clip's
//! notes and the export's `conversion` text:
//!
//! - **Hierarchy** [I]: Root (0) → Hip (1) → legs; Root → Torso (18) → Neck (21) and the
//!   shoulders; shoulder → arm → hand. The knees and elbows are not animated (the engine
//!   solves them by IK), so each foot hangs directly under its upper leg and each hand under
//!   its arm. Torso is a sibling of Hip because the MT5 numbering the spec quotes (Root 0,
//!   Spine 1, arms 4–13, Hip 14, legs 16–24) lists the upper and lower body as separate
//!   branches. Position-only nodes (the IK targets 8, 15, 20, 23, 29, 35 and the rare
//!   position nodes 14, 27, 33) are bones of their own under Root, the frame whose
//!   translation is the root motion. Rare rotation nodes of unknown meaning hang under the
//!   nearest named node of their id block (4 → Hip, 10 → Foot_R, 19 → Torso, 22/24 → Neck,
//!   28 → Arm_R) at zero offset.
//! - **Rest pose** [I]: identity rotations and nominal offsets of a generic 1.75 m
//!   humanoid in a T pose, Y up, facing −Z (the spec's walk root Z decreases), so the right
//!   side is +X. Not the game's bind pose, which is not in the MOTN data; supply
//!   `--skeleton` for real proportions.
//! - **Composition**: per node, `local = T(t) · R`, with `t` the translation channels where
//!   present and the rest offset per absent axis, and `R` the Euler rotation (absent axes
//!   0). `world = world(parent) · local`. Values are taken as absolute (the root translation
//!   clearly is; whether rotations are relative to a bind pose is open — with identity rest
//!   rotations both readings coincide).
//! - **Euler order**: X first, then Y, then Z (`R = Rz·Ry·Rx`, column vectors) as the spec
//!   recommends [I]; `DecodeOptions.extra["euler_order"]` takes any permutation of `xyz`
//!   in application order (`zyx` = Z first: `R = Rx·Ry·Rz`).
//! - **Axes** (`C`): Y up (root Y ≈ hip height), right-handed, model units = metres, turned
//!   into Blender's Z up by the rotation `(x, y, z) → (x, −z, y)`: the glTF importer's
//!   convention and the one animscope's SC6 export uses. It is a pure rotation, so it adds
//!   no mirror or turn the spec gives no evidence for.
//!
//! Only kind words of the standard human rig are posed; other rigs' hierarchies are unknown
//! and their clips carry no poses (a note says so). No IK is solved: IK target nodes are
//! exported as their own bones.

use super::Channel;
use super::decode::{EvalKey, evaluate, evaluate_sorted, track_name, track_scale};
use super::parse::Sequence;
use super::raw::{HUMAN_KINDS, node_name};
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::BuiltinSkeleton;
use crate::limits::Limits;
use crate::model::anim::{Bone, Clip, PoseSeq, PosesOnDemand, Skeleton, Space};
use glam::{Mat4, Quat, Vec3, Vec4};

/// One node of the built-in rig: id, parent id, local rest offset (model units, Y up).
#[derive(Debug, Clone, Copy)]
struct RigNode {
    id: u8,
    parent: Option<u8>,
    offset: [f32; 3],
}

const fn n(id: u8, parent: Option<u8>, offset: [f32; 3]) -> RigNode {
    RigNode { id, parent, offset }
}

/// The nominal human rig: every node of docs/formats/motn.md#nodes-and-export-skeleton table, ascending (every parent id
/// is smaller than its child's, so this order is parents first). Offsets are nominal [I].
const HUMAN_RIG: [RigNode; 29] = [
    n(0, None, [0.0, 1.1, 0.0]),         // Root: at hip height (walk root Y ≈ 1.11)
    n(1, Some(0), [0.0, 0.0, 0.0]),      // Hip
    n(4, Some(1), [0.0, 0.0, 0.0]),      // unknown (rot, rare; right-leg block)
    n(5, Some(1), [0.1, -0.05, 0.0]),    // UpperLeg_R
    n(8, Some(0), [0.1, -1.0, 0.0]),     // FootIKTarget_R
    n(9, Some(5), [0.0, -0.9, 0.0]),     // Foot_R (thigh + shin; knee solved by IK)
    n(10, Some(9), [0.0, 0.0, 0.0]),     // unknown (rot, rare)
    n(12, Some(1), [-0.1, -0.05, 0.0]),  // UpperLeg_L
    n(14, Some(0), [0.0, 0.0, 0.0]),     // unknown (pos, rare)
    n(15, Some(0), [-0.1, -1.0, 0.0]),   // FootIKTarget_L
    n(16, Some(12), [0.0, -0.9, 0.0]),   // Foot_L
    n(18, Some(0), [0.0, 0.1, 0.0]),     // Torso
    n(19, Some(18), [0.0, 0.0, 0.0]),    // unknown (rot, rare)
    n(20, Some(0), [0.0, 0.4, 0.0]),     // UpperTorsoIKTarget
    n(21, Some(18), [0.0, 0.42, 0.0]),   // Neck
    n(22, Some(21), [0.0, 0.0, 0.0]),    // unknown (rot, rare)
    n(23, Some(0), [0.0, 0.6, -1.0]),    // HeadLookAtTarget: 1 m in front of the head
    n(24, Some(21), [0.0, 0.0, 0.0]),    // unknown (rot, rare)
    n(25, Some(18), [0.05, 0.38, 0.0]),  // Shoulder_R
    n(26, Some(25), [0.13, 0.0, 0.0]),   // Arm_R
    n(27, Some(0), [0.0, 0.0, 0.0]),     // unknown (pos, rare)
    n(28, Some(26), [0.0, 0.0, 0.0]),    // unknown (rot, rare)
    n(29, Some(0), [0.71, 0.48, 0.0]),   // HandIKTarget_R
    n(30, Some(26), [0.53, 0.0, 0.0]),   // Hand_R (upper arm + forearm; elbow solved by IK)
    n(31, Some(18), [-0.05, 0.38, 0.0]), // Shoulder_L
    n(32, Some(31), [-0.13, 0.0, 0.0]),  // Arm_L
    n(33, Some(0), [0.0, 0.0, 0.0]),     // unknown (pos, rare; S2/S3 "LeftHandIKTarget")
    n(35, Some(0), [-0.71, 0.48, 0.0]), // HandIKTarget_L (per the data, docs/formats/motn.md#nodes-and-export-skeleton)
    n(36, Some(32), [-0.53, 0.0, 0.0]), // Hand_L
];

/// Name recorded as the skeleton of MOTN exports.
pub(in crate::formats) const SKELETON_NAME: &str = "builtin motn";

/// The rig in words, for notes and the export's `conversion` text.
const RIG_NOTE: &str = "built-in skeleton: nominal human rig (29 nodes of docs/formats/motn.md#nodes-and-export-skeleton; hierarchy and rest offsets \
    chosen by animscope [I], not the game's: Root > Hip > legs, Root > Torso > Neck/shoulders > arms > hands, \
    feet under upper legs and hands under arms (knees/elbows are IK-solved), IK targets and other position nodes \
    under Root, identity rest rotations, T pose facing -Z with the right side at +X); no IK solved";

/// The default conversion `C`: Y up, right-handed, model units as metres → Blender Z up:
/// `(x, y, z) → (x, −z, y)`.
pub(in crate::formats) fn conversion() -> Mat4 {
    Mat4::from_cols(
        Vec4::new(1.0, 0.0, 0.0, 0.0),
        Vec4::new(0.0, 0.0, 1.0, 0.0),
        Vec4::new(0.0, -1.0, 0.0, 0.0),
        Vec4::new(0.0, 0.0, 0.0, 1.0),
    )
}

const CONVERSION_NOTE: &str = "MOTN model space taken as Y up, right-handed, model units = metres [I] (axes are \
    open, docs/formats/motn.md#open-questions) to Blender (Z up, metres): (x, y, z) -> (x, -z, y), matrix rows [1 0 0 0; 0 0 -1 0; 0 1 0 0; \
    0 0 0 1] (a rotation: no mirror, no scale; the glTF importer's convention)";

/// A rotation axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) enum Axis {
    X,
    Y,
    Z,
}

/// Euler axes in application order (`[X, Y, Z]` = X first: `R = Rz·Ry·Rx`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) struct EulerOrder(pub [Axis; 3]);

impl EulerOrder {
    /// The spec's recommendation [I]: X, then Y, then Z.
    pub const DEFAULT: EulerOrder = EulerOrder([Axis::X, Axis::Y, Axis::Z]);

    /// Parse `xyz`, `zyx`, ... (any permutation, case-insensitive).
    pub fn parse(s: &str) -> Option<EulerOrder> {
        let mut axes = [Axis::X; 3];
        let s = s.trim().to_ascii_lowercase();
        if s.len() != 3 {
            return None;
        }
        for (slot, ch) in axes.iter_mut().zip(s.chars()) {
            *slot = match ch {
                'x' => Axis::X,
                'y' => Axis::Y,
                'z' => Axis::Z,
                _ => return None,
            };
        }
        let distinct = axes.first() != axes.get(1) && axes.get(1) != axes.get(2) && axes.first() != axes.get(2);
        distinct.then_some(EulerOrder(axes))
    }

    /// Lowercase name (`xyz`).
    pub fn name(self) -> String {
        self.0
            .iter()
            .map(|a| match a {
                Axis::X => 'x',
                Axis::Y => 'y',
                Axis::Z => 'z',
            })
            .collect()
    }

    /// The angles (x, y, z) in radians of `q` in this order ([`EulerOrder::rotation`]'s
    /// inverse), the middle axis within ±90°.
    pub fn angles(self, q: Quat) -> Vec3 {
        use glam::EulerRot;
        // R = R(third)·R(second)·R(first): glam names an intrinsic order left to right
        let (rot, axes) = match self.0 {
            [Axis::X, Axis::Y, Axis::Z] => (EulerRot::ZYX, [Axis::Z, Axis::Y, Axis::X]),
            [Axis::X, Axis::Z, Axis::Y] => (EulerRot::YZX, [Axis::Y, Axis::Z, Axis::X]),
            [Axis::Y, Axis::X, Axis::Z] => (EulerRot::ZXY, [Axis::Z, Axis::X, Axis::Y]),
            [Axis::Y, Axis::Z, Axis::X] => (EulerRot::XZY, [Axis::X, Axis::Z, Axis::Y]),
            [Axis::Z, Axis::X, Axis::Y] => (EulerRot::YXZ, [Axis::Y, Axis::X, Axis::Z]),
            _ => (EulerRot::XYZ, [Axis::X, Axis::Y, Axis::Z]),
        };
        let (a, b, c) = q.to_euler(rot);
        let mut v = Vec3::ZERO;
        for (axis, angle) in axes.into_iter().zip([a, b, c]) {
            match axis {
                Axis::X => v.x = angle,
                Axis::Y => v.y = angle,
                Axis::Z => v.z = angle,
            }
        }
        v
    }

    /// The other angles giving the same rotation as `v` (first and last axes turned half a
    /// turn, the middle one mirrored about 90°).
    pub fn twin(self, v: Vec3) -> Vec3 {
        let pi = std::f32::consts::PI;
        let mut out = v;
        for (i, axis) in self.0.into_iter().enumerate() {
            let a = match axis {
                Axis::X => &mut out.x,
                Axis::Y => &mut out.y,
                Axis::Z => &mut out.z,
            };
            *a = if i == 1 { pi - *a } else { *a + pi };
        }
        out
    }

    /// The rotation for angles (x, y, z) in radians: the first axis is applied first.
    pub fn rotation(self, angles: Vec3) -> Quat {
        let [a, b, c] = self.0.map(|axis| match axis {
            Axis::X => Quat::from_rotation_x(angles.x),
            Axis::Y => Quat::from_rotation_y(angles.y),
            Axis::Z => Quat::from_rotation_z(angles.z),
        });
        c * b * a
    }
}

/// The Euler order asked for in the decode options (`euler_order`), or the default.
pub(in crate::formats) fn euler_order(opts: &crate::formats::DecodeOptions) -> Result<EulerOrder> {
    match opts.extra.get("euler_order") {
        None => Ok(EulerOrder::DEFAULT),
        Some(s) => EulerOrder::parse(s).ok_or_else(|| {
            ParseError::new(
                0,
                ErrorKind::BadValue {
                    what: "euler_order option",
                    value: s.clone(),
                    why: "expected a permutation of xyz in application order (xyz, zyx, ...)".into(),
                },
            )
        }),
    }
}

/// World rest matrices of the rig nodes (identity rotations, accumulated offsets).
fn rig_rest() -> Vec<Mat4> {
    let mut rest: Vec<Mat4> = Vec::with_capacity(HUMAN_RIG.len());
    for r in &HUMAN_RIG {
        let local = Mat4::from_translation(Vec3::from(r.offset));
        let parent = r.parent.and_then(|p| HUMAN_RIG.iter().position(|x| x.id == p)).and_then(|i| rest.get(i));
        rest.push(parent.map_or(local, |pw| *pw * local));
    }
    rest
}

/// The built-in skeleton of `Format::builtin_skeleton`: the nominal human rig.
pub(in crate::formats) fn builtin() -> BuiltinSkeleton {
    let rest = rig_rest();
    let bones = HUMAN_RIG
        .iter()
        .zip(rest)
        .map(|(r, rest)| Bone {
            name: node_name(0, r.id),
            parent: r.parent.and_then(|p| HUMAN_RIG.iter().position(|x| x.id == p)),
            rest,
        })
        .collect();
    BuiltinSkeleton {
        name: SKELETON_NAME.into(),
        skeleton: Skeleton { bones },
        conversion: conversion(),
        conversion_note: format!("{CONVERSION_NOTE}; {RIG_NOTE}"),
    }
}

/// Most matrices one clip's poses may hold (frames × bones): 64 MiB of `Mat4`.
const MAX_POSED_MATRICES: u64 = 1 << 20;

/// The bones a standard sequence is posed on, and which channel drives which axis of each.
pub(super) struct Rig {
    kind: u16,
    /// Node id of each bone.
    pub(super) ids: Vec<u8>,
    /// Animated nodes the rig lacks (added under Root).
    extra: Vec<u8>,
    /// Parent of each bone (index into `ids`; parents come first).
    pub(super) parents: Vec<Option<usize>>,
    /// Per bone: the first channel (by track name, as `Clip::track` finds it) of
    /// translation x, y, z and rotation x, y, z.
    pub(super) slots: Vec<[Option<usize>; 6]>,
    frames: usize,
}

impl Rig {
    /// The rig of `seq` over `frames` frames, or (as `Err`) a note saying why there are no
    /// poses.
    pub(super) fn of(seq: &Sequence, frames: usize, limits: &Limits) -> std::result::Result<Rig, String> {
        let kind = seq.header.kind_word;
        if !HUMAN_KINDS.contains(&kind) {
            return Err(format!(
                "no poses: kind word 0x{kind:04x} is not the standard human rig, and its hierarchy is unknown"
            ));
        }
        // Bones: the rig's nodes, then animated nodes the rig lacks (under Root, zero offset).
        let mut ids: Vec<u8> = HUMAN_RIG.iter().map(|r| r.id).collect();
        let mut extra: Vec<u8> = seq.channels().iter().map(|c| c.node).filter(|id| !ids.contains(id)).collect();
        extra.sort_unstable();
        extra.dedup();
        ids.extend(&extra);
        if frames == 0 {
            return Err("no poses: the sequence has no frames".into());
        }
        let work = (frames as u64).saturating_mul(ids.len() as u64);
        let budget = MAX_POSED_MATRICES.min(limits.max_keys as u64);
        if work > budget {
            return Err(format!("no poses: {frames} frames x {} bones = {work} matrices exceeds {budget}", ids.len()));
        }
        let parent_of = |id: u8| match rig_node(id) {
            Some(r) => r.parent,
            None => Some(0),
        };
        let parents: Vec<Option<usize>> =
            ids.iter().map(|&id| parent_of(id).and_then(|p| ids.iter().position(|&x| x == p))).collect();
        let mut slots: Vec<[Option<usize>; 6]> = vec![[None; 6]; ids.len()];
        let names: Vec<String> = seq.channels().iter().map(|c| track_name(kind, c)).collect();
        for (ci, c) in seq.channels().iter().enumerate() {
            let Some(bi) = ids.iter().position(|&x| x == c.node) else { continue };
            // the first channel of this track name drives it
            let first = names.iter().position(|n| Some(n) == names.get(ci)).unwrap_or(ci);
            let Some(slot) = slots.get_mut(bi) else { continue };
            let at = match c.channel {
                Channel::Px => 0,
                Channel::Py => 1,
                Channel::Pz => 2,
                Channel::Rx => 3,
                Channel::Ry => 4,
                Channel::Rz => 5,
                Channel::U4 | Channel::U2 | Channel::U1 => continue,
            };
            if let Some(s) = slot.get_mut(at) {
                *s = Some(first);
            }
        }
        Ok(Rig { kind, ids, extra, parents, slots, frames })
    }

    fn world_of(&self, locals: &[Mat4]) -> Vec<Mat4> {
        let mut world: Vec<Mat4> = Vec::with_capacity(locals.len());
        for (i, local) in locals.iter().enumerate() {
            let pw = self.parents.get(i).copied().flatten().and_then(|p| world.get(p)).copied();
            world.push(pw.map_or(*local, |pw| pw * *local));
        }
        world
    }

    /// The world matrices of one frame, channel `c`'s value there given by `value(c)`.
    fn frame(&self, order: EulerOrder, value: &dyn Fn(usize) -> Option<f32>) -> Vec<Mat4> {
        let locals: Vec<Mat4> = self
            .ids
            .iter()
            .zip(&self.slots)
            .map(|(&id, ch)| {
                let o = offset(id);
                let at = |i: usize, default: f32| ch.get(i).copied().flatten().and_then(value).unwrap_or(default);
                let t = Vec3::new(at(0, o.x), at(1, o.y), at(2, o.z));
                let r = Vec3::new(at(3, 0.0), at(4, 0.0), at(5, 0.0));
                Mat4::from_rotation_translation(order.rotation(r), t)
            })
            .collect();
        self.world_of(&locals)
    }

    /// The poses of `frames` (stored frames, or none when they are made on demand).
    fn seq(&self, order: EulerOrder, frames: Vec<Vec<Mat4>>) -> PoseSeq {
        let rest_locals: Vec<Mat4> = self.ids.iter().map(|&id| Mat4::from_translation(offset(id))).collect();
        let unlisted = if self.extra.is_empty() {
            String::new()
        } else {
            format!(
                "; nodes not in the rig ({}) added under Root at zero offset",
                self.extra.iter().map(|id| id.to_string()).collect::<Vec<_>>().join(", ")
            )
        };
        PoseSeq {
            space: Space::FormatModel,
            bones: self.ids.iter().map(|&id| node_name(self.kind, id)).collect(),
            frames,
            parents: self.parents.clone(),
            rest: self.world_of(&rest_locals),
            conversion_matrix: conversion(),
            source: "motn sequence".into(),
            skeleton: SKELETON_NAME.into(),
            conversion: format!(
                "{CONVERSION_NOTE}; {RIG_NOTE}{unlisted}; local = T(translation channels, rest offset per absent axis) \
                 * R(Euler angles in radians = stored turns x 2pi, order {} applied first to last, absent axes 0); \
                 values taken as absolute \
                 (absolute vs bind-relative is open, docs/formats/motn.md#conventions/docs/formats/motn.md#open-questions)",
                order.name()
            ),
        }
    }
}

fn rig_node(id: u8) -> Option<&'static RigNode> {
    HUMAN_RIG.iter().find(|r| r.id == id)
}

pub(super) fn offset(id: u8) -> Vec3 {
    Vec3::from(rig_node(id).map_or([0.0; 3], |r| r.offset))
}

/// Bytes stored poses of `seq` take (a 64-byte matrix per bone and frame; 0 without poses).
pub(in crate::formats) fn stored_bytes(seq: &Sequence, limits: &Limits) -> u64 {
    let frames = usize::from(seq.header.frames());
    Rig::of(seq, frames, limits).map_or(0, |r| (frames as u64).saturating_mul(r.ids.len() as u64).saturating_mul(64))
}

/// Poses of a decoded standard sequence, or (as `Err`) a note saying why there are none.
pub(in crate::formats) fn build(
    seq: &Sequence,
    clip: &Clip,
    order: EulerOrder,
    limits: &Limits,
) -> std::result::Result<PoseSeq, String> {
    let rig = Rig::of(seq, clip.frame_count, limits)?;
    let samples: Vec<Option<&[f64]>> =
        seq.channels().iter().map(|c| clip.track(&track_name(rig.kind, c)).map(|t| t.samples.as_slice())).collect();
    let frames = (0..rig.frames)
        .map(|f| rig.frame(order, &|c| samples.get(c).copied().flatten().and_then(|s| s.get(f)).map(|v| *v as f32)))
        .collect();
    Ok(rig.seq(order, frames))
}

/// The poses [`build`] makes, made one frame at a time from the channels' keys (the same
/// values: sampling and evaluating at a frame agree bit for bit), for consumers that write
/// frame by frame or hold no samples (`DecodeOptions::poses_on_demand`, `tracks_on_demand`).
pub(in crate::formats) fn on_demand(
    seq: &Sequence,
    order: EulerOrder,
    limits: &Limits,
) -> std::result::Result<(PoseSeq, PosesOnDemand), String> {
    let frames = usize::from(seq.header.frames());
    let rig = Rig::of(seq, frames, limits)?;
    let head = rig.seq(order, Vec::new());
    let keys: Vec<(Vec<EvalKey>, bool)> = seq
        .channels()
        .iter()
        .map(|c| {
            let mut ek = Vec::new();
            super::decode::fill_eval_keys(c, track_scale(c.channel), &mut ek);
            let sorted = ek.windows(2).all(|w| w.first().map(|a| a.time) <= w.get(1).map(|b| b.time));
            (ek, sorted)
        })
        .collect();
    let make = move |f: usize| {
        let t = f as f64;
        rig.frame(order, &|c| {
            let (k, sorted) = keys.get(c)?;
            Some((if *sorted { evaluate_sorted(k, t) } else { evaluate(k, t) }) as f32)
        })
    };
    Ok((head, PosesOnDemand::new(frames, make)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::formats::motn::raw::HUMAN_NODE_NAMES;

    #[test]
    fn euler_orders_parse_and_apply_first_axis_first() {
        assert_eq!(EulerOrder::parse("xyz"), Some(EulerOrder::DEFAULT));
        assert_eq!(EulerOrder::parse(" ZYX ").map(EulerOrder::name).as_deref(), Some("zyx"));
        for bad in ["", "xy", "xyzx", "xxy", "xya", "x y"] {
            assert_eq!(EulerOrder::parse(bad), None, "{bad}");
        }
        // Quarter turns about each axis, worked by hand on (0, 1, 0):
        // X first: Rx y→z, Ry z→x, Rz x→y  ⇒ (0, 1, 0)
        // Z first: Rz y→−x, Ry −x→z, Rx z→−y ⇒ (0, −1, 0)
        let q = std::f32::consts::FRAC_PI_2;
        let v = Vec3::Y;
        let xyz = EulerOrder::parse("xyz").unwrap().rotation(Vec3::splat(q)) * v;
        let zyx = EulerOrder::parse("zyx").unwrap().rotation(Vec3::splat(q)) * v;
        assert!(xyz.abs_diff_eq(Vec3::Y, 1e-6), "{xyz}");
        assert!(zyx.abs_diff_eq(-Vec3::Y, 1e-6), "{zyx}");
    }

    #[test]
    fn angles_invert_rotation_in_every_order() {
        let v = Vec3::new(0.3, -0.7, 1.1);
        for o in ["xyz", "xzy", "yxz", "yzx", "zxy", "zyx"] {
            let order = EulerOrder::parse(o).unwrap();
            let q = order.rotation(v);
            assert!(order.angles(q).abs_diff_eq(v, 1e-5), "{o}: {}", order.angles(q));
            let twin = order.rotation(order.twin(v));
            assert!(twin.dot(q).abs() > 1.0 - 1e-6, "{o}: twin {twin} vs {q}");
        }
    }

    #[test]
    fn huge_pose_sets_are_skipped_with_a_note() {
        use crate::formats::motn::write::{ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec};
        let keys = |last: u16| {
            vec![KeySpec { frame: 0, values: KeyValues::Value(0.5) }, KeySpec { frame: last, values: KeyValues::Zero }]
        };
        let frames = 0x7fff;
        let nodes = (37..=126)
            .map(|node| NodeSpec { node, channels: vec![ChannelSpec { channel: Channel::Rx, keys: keys(frames - 1) }] })
            .collect();
        let seq = crate::formats::motn::write::encode_sequence(&SequenceSpec { frames, kind_word: 0, nodes }).unwrap();
        let file = crate::formats::motn::write::encode_file(&[("BIG".into(), seq)], None);
        let clip = super::super::Motn
            .decode(&file, "seq:BIG", &crate::formats::DecodeOptions::default(), &Limits::default())
            .unwrap();
        assert!(clip.poses.is_none());
        // 29 rig bones + 90 more, 32767 frames each
        let want = format!("no poses: 32767 frames x 119 bones = {} matrices exceeds {}", 32767 * 119, 1 << 20);
        assert!(clip.notes.contains(&want), "{:?}", clip.notes);
    }

    #[test]
    fn rig_covers_the_spec_table_parents_first() {
        // docs/formats/motn.md#nodes-and-export-skeleton table: every node id it lists for the standard human set
        let table = [
            0u8, 1, 4, 5, 8, 9, 10, 12, 14, 15, 16, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 35,
            36,
        ];
        assert_eq!(HUMAN_RIG.map(|r| r.id), table);
        for (i, r) in HUMAN_RIG.iter().enumerate() {
            if let Some(p) = r.parent {
                let pi = HUMAN_RIG.iter().position(|x| x.id == p).unwrap();
                assert!(pi < i, "parent of {} listed after it", r.id);
            }
        }
        for (id, _) in HUMAN_NODE_NAMES {
            assert!(HUMAN_RIG.iter().any(|r| r.id == id), "named node {id} missing");
        }
        let b = builtin();
        assert_eq!(b.skeleton.bones[3].name, "UpperLeg_R");
        assert_eq!(b.skeleton.bones[3].parent, Some(1));
        // C maps model +Y (up) to Blender +Z and model −Z to Blender +Y
        assert!(b.conversion.transform_vector3(Vec3::Y).abs_diff_eq(Vec3::Z, 0.0));
        assert!(b.conversion.transform_vector3(-Vec3::Z).abs_diff_eq(Vec3::Y, 0.0));
    }
}
