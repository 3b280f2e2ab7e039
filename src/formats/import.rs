//! Clip import: a format that can re-encode one of its animations from posed matrices
//! answers [`super::Parsed::import`] with a [`ClipImport`]. The consumer (reading matrix
//! JSON or glTF, converting out of Blender space) hands the format world matrices in the
//! format's own model space, one per bone and frame, for the bones it has; the format turns
//! them into its channels (local rotations, translations, quantised words or keys),
//! re-encodes the clip natively and gives back the whole document's new bytes, which the
//! containers holding it take through [`super::Rebuild`].
//!
//! Bones the import lacks keep their stored channels. What a format cannot store (a
//! translation on a bone whose format stores only rotations, scale, a rotation about an axis
//! a hinge lacks) is dropped; the consumer measures the pose the written clip decodes to
//! against the import, so a dropped value shows as a deviation.

use glam::{Mat4, Quat};

/// How keys are placed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KeyRule {
    /// A key at every frame (or every stored keyframe, for formats whose key rate is fixed).
    Every,
    /// As few keys as keep every channel within this tolerance of the import, in the
    /// channel's stored unit: turns for rotations (1 turn = 360°), model units (metres) for
    /// translations.
    Fit(f64),
}

/// Posed matrices to import into one animation.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseImport {
    /// Bone names as the format's poses name them (`PoseSeq::bones`).
    pub bones: Vec<String>,
    /// Per frame, one world matrix per bone of `bones`, in the format's model space (the
    /// space of `PoseSeq` with `Space::FormatModel`).
    pub frames: Vec<Vec<Mat4>>,
    /// How keys are placed.
    pub keys: KeyRule,
    /// Give this name its own copy when its data is shared with other names (aliases),
    /// instead of changing every name that shares it.
    pub unshare: bool,
}

/// One channel written: how many keys it got and how far its stored values are from the
/// import.
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelFit {
    /// Channel name as the format's tracks name it (`Hip.rx`, `MUNE1`, `root.x`).
    pub name: String,
    /// Keys (or stored keyframes) written.
    pub keys: usize,
    /// Largest difference between the stored value and the import's, in `unit`.
    pub deviation: f64,
    /// The unit of `deviation` (`turns`, `m`, `°`).
    pub unit: &'static str,
}

/// What an import made: the document's new bytes, and what was written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Imported {
    /// The whole document (the bank, the blob) with the animation re-encoded.
    pub bytes: Vec<u8>,
    /// Every channel written from the import, in the format's order.
    pub channels: Vec<ChannelFit>,
    /// What the user should know (aliases sharing the data, values dropped), one line each.
    pub notes: Vec<String>,
}

/// A format that can re-encode an animation from posed matrices.
pub trait ClipImport {
    /// Re-encode `anim` from `poses` (decoded with `opts`, whose options such as `lr_order`
    /// or `euler_order` say how the poses were made) and return the document's new bytes.
    /// Bones of `poses` the animation's poses lack, a frame count it cannot take, and
    /// non-finite matrices are errors naming them; the new bytes are charged to
    /// `limits`' memory budget.
    fn import_clip(
        &self,
        anim: &super::AnimRef,
        poses: &PoseImport,
        opts: &super::DecodeOptions,
        limits: &crate::limits::Limits,
    ) -> crate::error::Result<Imported>;
}

/// Match the import's bones to the file's `names` by name: for each of the file's bones,
/// the import bone that drives it (None: kept as stored), and the import's bones the file
/// lacks (an error for the caller to name).
pub(in crate::formats) fn match_bones(names: &[String], import: &[String]) -> (Vec<Option<usize>>, Vec<String>) {
    let mut target: Vec<Option<usize>> = vec![None; names.len()];
    let mut unknown = Vec::new();
    for (j, name) in import.iter().enumerate() {
        match names.iter().position(|n| n == name) {
            Some(i) => {
                if let Some(t) = target.get_mut(i) {
                    *t = Some(j);
                }
            }
            None => unknown.push(name.clone()),
        }
    }
    (target, unknown)
}

/// The error of an import that cannot be done: `what` at `offset` of the document.
pub(in crate::formats) fn refused(offset: u64, what: impl Into<String>) -> crate::error::ParseError {
    crate::error::ParseError::new(offset, crate::error::ErrorKind::Other(what.into()))
}

/// The angle in radians of the rotation from `a` to `b` (either sign of either quaternion),
/// computed in f64 from the difference quaternion: precise for small angles, where
/// `acos` of a dot product near 1 is not.
pub fn rotation_between(a: Quat, b: Quat) -> f64 {
    let d = a.normalize().inverse() * b.normalize();
    let v = (f64::from(d.x).powi(2) + f64::from(d.y).powi(2) + f64::from(d.z).powi(2)).sqrt();
    2.0 * v.atan2(f64::from(d.w).abs())
}
