//! Skeleton files (`animscope-skeleton-v1`) and the conversion of posed matrices into
//! Blender armature space:
//!
//! ```text
//! D_game       = pose_game · inverse(rest_game)
//! pose_blender = C · D_game · inverse(C) · rest_blender
//! ```
//!
//! `rest_blender` comes from a skeleton file dumped from the user's imported armature
//! (`tools/blender/dump_skeleton.py`); without one it is `C · rest_game · inverse(C)`.

use crate::model::anim::{PoseSeq, Space};
use glam::Mat4;
use serde_json::{Value as Json, json};
use std::collections::BTreeMap;

/// Schema name of skeleton files.
pub const SKELETON_SCHEMA: &str = "animscope-skeleton-v1";

/// A bone of a skeleton file.
#[derive(Debug, Clone, PartialEq)]
pub struct SkelBone {
    /// Bone name in the armature.
    pub name: String,
    /// Parent bone name.
    pub parent: Option<String>,
    /// Rest matrix in Blender armature space (column vectors).
    pub rest: Mat4,
}

/// A skeleton file: bones (parents first), the map from format bone names to armature bone
/// names, and the conversion `C`.
#[derive(Debug, Clone, PartialEq)]
pub struct SkeletonFile {
    /// Skeleton name.
    pub name: String,
    /// Bones, parents first.
    pub bones: Vec<SkelBone>,
    /// Format bone/node name → armature bone name (identity for names not listed).
    pub map: BTreeMap<String, String>,
    /// Axis/unit conversion from the format's space into Blender armature space.
    pub conversion: Mat4,
    /// The conversion in words.
    pub conversion_note: String,
}

fn rows(m: &Mat4) -> Vec<f64> {
    m.transpose().to_cols_array().iter().map(|v| f64::from(*v)).collect()
}

fn mat_from_rows(v: &Json, what: &str) -> Result<Mat4, String> {
    let a = v.as_array().ok_or_else(|| format!("{what}: expected 16 numbers"))?;
    if a.len() != 16 {
        return Err(format!("{what}: expected 16 numbers, found {}", a.len()));
    }
    let mut f = [0f32; 16];
    for (i, x) in a.iter().enumerate() {
        let n = x.as_f64().ok_or_else(|| format!("{what}: element {i} is not a number"))?;
        if !n.is_finite() {
            return Err(format!("{what}: element {i} is not finite"));
        }
        if let Some(slot) = f.get_mut(i) {
            *slot = n as f32;
        }
    }
    Ok(Mat4::from_cols_array(&f).transpose())
}

impl SkeletonFile {
    /// Parse a skeleton file's JSON text.
    pub fn parse(text: &str) -> Result<SkeletonFile, String> {
        let j: Json = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        if j["schema"] != SKELETON_SCHEMA {
            return Err(format!("schema is {}, expected {SKELETON_SCHEMA}", j["schema"]));
        }
        let mut bones = Vec::new();
        for (i, b) in j["bones"].as_array().ok_or("no bones array")?.iter().enumerate() {
            let name = b["name"].as_str().ok_or_else(|| format!("bone {i}: no name"))?.to_string();
            let parent = b["parent"].as_str().map(str::to_string);
            if let Some(p) = &parent
                && !bones.iter().any(|x: &SkelBone| &x.name == p)
            {
                return Err(format!("bone {name}: parent {p} is not listed before it"));
            }
            let rest = mat_from_rows(&b["rest"], &format!("bone {name} rest"))?;
            bones.push(SkelBone { name, parent, rest });
        }
        let map = j["map"]
            .as_object()
            .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string()))).collect())
            .unwrap_or_default();
        let conversion = match j["conversion"].get("matrix") {
            Some(m) => mat_from_rows(m, "conversion matrix")?,
            None => Mat4::IDENTITY,
        };
        let conversion_note = j["conversion"]["description"].as_str().unwrap_or("").to_string();
        Ok(SkeletonFile {
            name: j["name"].as_str().unwrap_or("skeleton").to_string(),
            bones,
            map,
            conversion,
            conversion_note,
        })
    }

    /// The file's JSON.
    pub fn to_json(&self) -> Json {
        json!({
            "schema": SKELETON_SCHEMA,
            "name": self.name,
            "space": "blender_armature",
            "conversion": {"description": self.conversion_note, "matrix": rows(&self.conversion)},
            "bones": self.bones.iter().map(|b| json!({"name": b.name, "parent": b.parent, "rest": rows(&b.rest)})).collect::<Vec<_>>(),
            "map": self.map,
        })
    }

    /// A format's built-in skeleton, converted: rest_blender = C · rest_game · inverse(C).
    pub fn from_builtin(b: &crate::formats::BuiltinSkeleton) -> SkeletonFile {
        let (c, ci) = (b.conversion, b.conversion.inverse());
        let bones = b
            .skeleton
            .bones
            .iter()
            .map(|x| SkelBone {
                name: x.name.clone(),
                parent: x.parent.and_then(|p| b.skeleton.bones.get(p)).map(|p| p.name.clone()),
                rest: c * x.rest * ci,
            })
            .collect();
        SkeletonFile {
            name: b.name.clone(),
            bones,
            map: BTreeMap::new(),
            conversion: c,
            conversion_note: b.conversion_note.clone(),
        }
    }

    /// The built-in skeleton of a posed clip: its bones with `C · rest_game · inverse(C)`.
    pub fn from_poses(p: &PoseSeq) -> SkeletonFile {
        let c = if p.space == Space::BlenderArmature { Mat4::IDENTITY } else { p.conversion_matrix };
        let ci = c.inverse();
        let bones = p
            .bones
            .iter()
            .enumerate()
            .map(|(i, name)| SkelBone {
                name: name.clone(),
                parent: p.parents.get(i).copied().flatten().and_then(|pi| p.bones.get(pi).cloned()),
                rest: c * p.rest.get(i).copied().unwrap_or(Mat4::IDENTITY) * ci,
            })
            .collect();
        SkeletonFile {
            name: p.skeleton.clone(),
            bones,
            map: BTreeMap::new(),
            conversion: c,
            conversion_note: p.conversion.clone(),
        }
    }
}

/// Convert posed matrices into Blender armature space with `skel` (or the built-in
/// skeleton of the poses). Bones the skeleton does not have are dropped; the result's bone
/// names are the armature's.
pub fn to_blender(p: &PoseSeq, skel: Option<&SkeletonFile>) -> Result<(PoseSeq, SkeletonFile), String> {
    let map = BlenderMap::new(p, skel)?;
    let frames = p.frames.iter().enumerate().map(|(f, mats)| map.frame(f, mats)).collect::<Result<Vec<_>, _>>()?;
    let used = map.used.clone();
    Ok((PoseSeq { frames, ..map.head }, used))
}

/// The retargeting [`to_blender`] applies, one frame at a time: for exports that write
/// frame by frame (clips whose poses are made on demand), with the same matrices.
#[derive(Debug, Clone)]
pub struct BlenderMap {
    /// The converted poses' bones, parents, rest and conversion, with no frames.
    pub head: PoseSeq,
    /// The skeleton used.
    pub used: SkeletonFile,
    /// None: the poses are already in Blender armature space and pass through.
    convert: Option<Convert>,
}

#[derive(Debug, Clone)]
struct Convert {
    c: Mat4,
    ci: Mat4,
    /// (format bone index, inverse of its format rest, armature rest)
    cols: Vec<(usize, Mat4, Mat4)>,
}

impl BlenderMap {
    /// The map of poses `p` (their frames are not read) onto `skel` (else their own
    /// skeleton).
    pub fn new(p: &PoseSeq, skel: Option<&SkeletonFile>) -> Result<BlenderMap, String> {
        let builtin = SkeletonFile::from_poses(p);
        let skel = skel.unwrap_or(&builtin);
        let bare = |q: &PoseSeq| PoseSeq { frames: Vec::new(), ..q.clone() };
        if p.space == Space::BlenderArmature {
            return Ok(BlenderMap { head: bare(p), used: skel.clone(), convert: None });
        }
        if p.space != Space::FormatModel {
            return Err(format!("poses in {:?} space cannot be exported", p.space));
        }
        let c = skel.conversion;
        let ci = c.inverse();
        // (format bone index, armature bone index)
        let mut cols = Vec::new();
        for (i, name) in p.bones.iter().enumerate() {
            let target = skel.map.get(name).unwrap_or(name);
            if let Some(bi) = skel.bones.iter().position(|b| &b.name == target) {
                cols.push((i, bi));
            }
        }
        if cols.is_empty() {
            return Err(format!("no bone of the clip is in skeleton {}", skel.name));
        }
        let bones: Vec<String> =
            cols.iter().filter_map(|&(_, bi)| skel.bones.get(bi).map(|b| b.name.clone())).collect();
        let parents = cols
            .iter()
            .map(|&(_, bi)| {
                let parent = skel.bones.get(bi).and_then(|b| b.parent.clone())?;
                bones.iter().position(|n| *n == parent)
            })
            .collect();
        let rest_of = |bi: usize| skel.bones.get(bi).map(|b| b.rest).unwrap_or(Mat4::IDENTITY);
        let rest = cols.iter().map(|&(_, bi)| rest_of(bi)).collect();
        let head = PoseSeq {
            space: Space::BlenderArmature,
            bones,
            parents,
            frames: Vec::new(),
            rest,
            conversion_matrix: Mat4::IDENTITY,
            source: p.source.clone(),
            skeleton: skel.name.clone(),
            conversion: if skel.conversion_note.is_empty() {
                p.conversion.clone()
            } else {
                skel.conversion_note.clone()
            },
        };
        let cols = cols
            .iter()
            .map(|&(i, bi)| (i, p.rest.get(i).copied().unwrap_or(Mat4::IDENTITY).inverse(), rest_of(bi)))
            .collect();
        Ok(BlenderMap { head, used: skel.clone(), convert: Some(Convert { c, ci, cols }) })
    }

    /// Frame `f`'s matrices `mats` (format bones) in Blender armature space (armature bones).
    pub fn frame(&self, f: usize, mats: &[Mat4]) -> Result<Vec<Mat4>, String> {
        let Some(k) = &self.convert else { return Ok(mats.to_vec()) };
        let mut row = Vec::with_capacity(k.cols.len());
        for &(i, rest_game_inv, rest_blender) in &k.cols {
            let pose = mats.get(i).ok_or_else(|| format!("frame {f}: bone {i} missing"))?;
            row.push(k.c * (*pose * rest_game_inv) * k.ci * rest_blender);
        }
        Ok(row)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    fn poses() -> PoseSeq {
        let rest0 = Mat4::from_translation(Vec3::new(0.0, 1.0, 0.0));
        let rest1 = Mat4::from_translation(Vec3::new(0.0, 2.0, 0.0));
        let f = |a: f32| {
            vec![
                Mat4::from_rotation_translation(Quat::from_rotation_y(a), Vec3::new(a, 1.0, 0.0)),
                Mat4::from_rotation_translation(Quat::from_rotation_y(2.0 * a), Vec3::new(a, 2.0, 0.0)),
            ]
        };
        PoseSeq {
            space: Space::FormatModel,
            bones: vec!["a".into(), "b".into()],
            parents: vec![None, Some(0)],
            frames: vec![f(0.0), f(0.5)],
            rest: vec![rest0, rest1],
            // Y-up game to Z-up Blender: (x, y, z) -> (x, -z, y), and game units are centimetres.
            conversion_matrix: Mat4::from_cols_array(&[
                0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, -0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            ]),
            source: "test".into(),
            skeleton: "builtin test".into(),
            conversion: "y-up cm to z-up m".into(),
        }
    }

    #[test]
    fn builtin_conversion_is_c_pose_c_inverse() {
        let p = poses();
        let (b, skel) = to_blender(&p, None).unwrap();
        // Independent expectation: a point at the game origin of bone a at frame 1 is
        // (0.5, 1, 0) cm-game -> (0.005, 0, 0.01) m-Blender.
        let origin = b.frames[1][0].transform_point3(Vec3::ZERO);
        assert!((origin - Vec3::new(0.005, 0.0, 0.01)).length() < 1e-6, "{origin}");
        // At frame 0 the clip is at rest, so pose == armature rest.
        for i in 0..2 {
            assert!(b.frames[0][i].abs_diff_eq(skel.bones[i].rest, 1e-6));
        }
        assert_eq!(skel.bones[1].parent.as_deref(), Some("a"));
    }

    #[test]
    fn skeleton_file_round_trips() {
        let (_, skel) = to_blender(&poses(), None).unwrap();
        let text = skel.to_json().to_string();
        let back = SkeletonFile::parse(&text).unwrap();
        assert_eq!(back.bones.len(), 2);
        for (x, y) in back.bones.iter().zip(&skel.bones) {
            assert!(x.rest.abs_diff_eq(y.rest, 1e-6));
            assert_eq!(x.parent, y.parent);
        }
        assert!(back.conversion.abs_diff_eq(skel.conversion, 1e-9));
        assert!(SkeletonFile::parse("{\"schema\":\"x\"}").is_err());
    }

    #[test]
    fn user_rest_pose_receives_the_deformation() {
        let p = poses();
        let (_, mut skel) = to_blender(&p, None).unwrap();
        // The user's armature has bone b rotated 90° about Z at rest: the same deformation
        // D = C·pose·rest⁻¹·C⁻¹ must be applied on top of that rest.
        let user_rest = Mat4::from_rotation_translation(Quat::from_rotation_z(1.0), Vec3::new(0.0, 0.0, 0.02));
        skel.bones[1].rest = user_rest;
        let (b, _) = to_blender(&p, Some(&skel)).unwrap();
        let c = p.conversion_matrix;
        let d = c * p.frames[1][1] * p.rest[1].inverse() * c.inverse();
        assert!(b.frames[1][1].abs_diff_eq(d * user_rest, 1e-6));
    }
}
