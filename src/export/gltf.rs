//! glTF 2.0 export (`export --gltf -o OUT.glb|OUT.gltf`): a clip's skeleton as a node
//! hierarchy with one skin, the clip as one animation, and (for formats with meshes) the
//! scene's meshes bound to that skin, with materials and PNG textures.
//!
//! Poses start where the matrix JSON's do ([`super::BlenderFrames`]: the same skeleton
//! sources and frame selection), in Blender armature space (Z up), and are then taken into
//! glTF's convention (Y up, right-handed, +Z forward, metres) by [`blender_to_gltf`]
//! `Y: (x, y, z) → (x, z, −y)`: `G = Y · M · Y⁻¹`. Blender's importer applies `Y⁻¹`, so an
//! import lands exactly where the matrix JSON's bake does. For a format whose conversion
//! into Blender is `C`, the whole conversion is `K = Y · C` (SC6 and MOTN: identity, their
//! Y-up metres are already glTF's; CCSF: Z up → Y up, model units kept).
//!
//! Joints: one node per bone, rest TRS = `rest_parent⁻¹ · rest`, inverse bind matrices
//! `rest⁻¹`. Animation: one LINEAR sampler per joint and path, one key per exported logical
//! frame (terminal frame included) at time `frame / fps`, so every stored sample is a key
//! and nothing is resampled; rotations normalised and sign-continuous. Meshes: positions
//! and normals by `K`, texture v flipped (glTF's origin is the top-left corner), colours
//! clamped to 0..1, every mesh skinned (rigid and bone meshes as one joint of weight 1),
//! at most 4 influences per vertex (more is an error), renormalised.
//!
//! The document types are `gltf-json`'s; the binary buffer and the GLB container (two
//! chunks) are written here, as that crate only models the JSON.

use super::stream::WriteAt;
use super::{ExportError, ExportRequest};
use crate::model::anim::{Clip, PoseSeq};
use crate::model::mesh::{Mesh, MeshKind, Scene};
use glam::{Mat4, Quat, Vec3, Vec4};
use gltf_json as gj;
use gltf_json::validation::{Checked::Valid, USize64};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

/// Blender armature space (Z up) → glTF (Y up): `(x, y, z) → (x, z, −y)`, a rotation
/// (−90° about X). Blender's glTF importer applies its inverse.
pub fn blender_to_gltf() -> Mat4 {
    Mat4::from_cols(Vec4::X, Vec4::new(0.0, 0.0, -1.0, 0.0), Vec4::new(0.0, 1.0, 0.0, 0.0), Vec4::W)
}

/// The two file layouts of glTF 2.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// One binary file: JSON chunk, BIN chunk (buffer and PNG textures inside).
    Glb,
    /// JSON text with the buffer (`STEM.bin`) and PNG textures written beside it.
    Gltf,
}

impl Container {
    /// The layout an output path asks for by its extension (`.glb`, `.gltf`).
    pub fn of_path(path: &Path) -> Option<Container> {
        let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
        match ext.as_str() {
            "glb" => Some(Container::Glb),
            "gltf" => Some(Container::Gltf),
            _ => None,
        }
    }
}

/// What an export holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GltfSummary {
    /// Animation keys per channel (logical frames written).
    pub frames: usize,
    /// Joints of the skin.
    pub joints: usize,
    /// Meshes written.
    pub meshes: usize,
    /// Vertices over all meshes.
    pub vertices: usize,
    /// Triangles over all meshes.
    pub triangles: usize,
    /// Textures written.
    pub textures: usize,
    /// What was left out or changed, one line each.
    pub notes: Vec<String>,
}

impl std::fmt::Display for GltfSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if self.joints > 0 {
            parts.push(format!("{} frames, {} joints", self.frames, self.joints));
        }
        if self.meshes > 0 {
            parts.push(format!(
                "{} meshes, {} vertices, {} triangles, {} textures",
                self.meshes, self.vertices, self.triangles, self.textures
            ));
        }
        f.write_str(&parts.join(", "))?;
        for n in &self.notes {
            write!(f, "; {n}")?;
        }
        Ok(())
    }
}

/// The bytes of one export: the main file and the files beside it (name, bytes).
#[derive(Debug, Clone)]
pub struct GltfFiles {
    /// The `.glb` or `.gltf` bytes.
    pub main: Vec<u8>,
    /// `.gltf` only: `STEM.bin` and the PNG textures, named relative to the main file.
    pub side: Vec<(String, Vec<u8>)>,
    /// What was written.
    pub summary: GltfSummary,
}

/// Joints in glTF space: names, parents and rest (the animation's matrices are made frame
/// by frame when the buffer is written, [`Anim`]).
struct Joints {
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    /// World rest matrices.
    rest: Vec<Mat4>,
}

/// Blender armature space → glTF of one matrix: `Y · M · Y⁻¹`.
fn to_gltf(m: &Mat4) -> Mat4 {
    let y = blender_to_gltf();
    y * *m * y.inverse()
}

impl Joints {
    fn from_blender(bp: &PoseSeq) -> Joints {
        Joints {
            names: bp.bones.clone(),
            parents: (0..bp.bones.len()).map(|i| bp.parents.get(i).copied().flatten()).collect(),
            rest: bp.rest.iter().map(to_gltf).collect(),
        }
    }

    /// `parent⁻¹ · world` of joint `j` among `worlds`.
    fn local(&self, worlds: &[Mat4], j: usize) -> Mat4 {
        let w = worlds.get(j).copied().unwrap_or(Mat4::IDENTITY);
        match self.parents.get(j).copied().flatten().and_then(|p| worlds.get(p)) {
            Some(pw) => pw.inverse() * w,
            None => w,
        }
    }
}

/// Split a local matrix into glTF's translation, rotation (unit, x y z w) and scale, or say
/// why it cannot be: non-finite, or a shear that TRS cannot hold.
fn trs(m: Mat4, what: &dyn Fn() -> String) -> Result<(Vec3, Quat, Vec3), ExportError> {
    if let Some(bad) = m.to_cols_array().iter().find(|v| !v.is_finite()) {
        return Err(ExportError::Gltf(format!("{}: non-finite matrix element {bad}", what())));
    }
    let (s, r, t) = m.to_scale_rotation_translation();
    let r = r.normalize();
    let back = Mat4::from_scale_rotation_translation(s, r, t);
    let scale = m.to_cols_array().iter().fold(1f32, |a, v| a.max(v.abs()));
    let err = (back - m).to_cols_array().iter().fold(0f32, |a, v| a.max(v.abs()));
    if err.is_nan() || err > 1e-4 * scale || !r.is_finite() || !s.is_finite() {
        return Err(ExportError::Gltf(format!(
            "{}: the matrix is not translation·rotation·scale (shear or zero scale; off by {err}), which glTF \
             nodes cannot hold",
            what()
        )));
    }
    Ok((t, r, s))
}

/// Where an animation output accessor's bytes go in the buffer, made when it is written.
#[derive(Debug, Clone, Copy)]
struct Deferred {
    /// Offset in the buffer.
    at: u64,
    joint: usize,
    /// 0 translation, 1 rotation, 2 scale.
    path: usize,
}

/// Floats per key of each animation path (translation, rotation, scale).
const PATH_WIDTH: [usize; 3] = [3, 4, 3];

/// The document and its binary buffer: the bytes made while building (inverse binds, key
/// times, meshes, textures) and the places of the animation outputs, which are made frame
/// by frame only when the buffer is written ([`Plan::write_bin`]), so a long clip's keys
/// are never all in memory.
struct Builder {
    root: gj::Root,
    /// Bytes made while building, as runs at their buffer offsets.
    eager: Vec<(u64, Vec<u8>)>,
    deferred: Vec<Deferred>,
    /// The buffer's length so far.
    len: u64,
}

fn bytes_f32(v: impl IntoIterator<Item = f32>) -> Vec<u8> {
    v.into_iter().flat_map(f32::to_le_bytes).collect()
}

impl Builder {
    fn new() -> Builder {
        Builder { root: gj::Root::default(), eager: Vec::new(), deferred: Vec::new(), len: 0 }
    }

    /// Append `bytes` at the buffer's end.
    fn append(&mut self, bytes: &[u8]) {
        match self.eager.last_mut() {
            Some((at, run)) if *at + run.len() as u64 == self.len => run.extend_from_slice(bytes),
            _ => self.eager.push((self.len, bytes.to_vec())),
        }
        self.len += bytes.len() as u64;
    }

    /// Zeros up to a multiple of 4 bytes.
    fn align(&mut self) {
        let pad = ((4 - self.len % 4) % 4) as usize;
        if pad > 0 {
            self.append(&[0; 3][..pad]);
        }
    }

    fn view_at(&mut self, offset: u64, len: u64, target: Option<gj::buffer::Target>) -> gj::Index<gj::buffer::View> {
        self.root.push(gj::buffer::View {
            buffer: gj::Index::new(0),
            byte_length: USize64(len),
            byte_offset: Some(USize64(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    fn view(&mut self, bytes: &[u8], target: Option<gj::buffer::Target>) -> gj::Index<gj::buffer::View> {
        self.align();
        let offset = self.len;
        self.append(bytes);
        self.view_at(offset, bytes.len() as u64, target)
    }

    /// An accessor of `count` elements of `(component, type_)` over `bytes` appended now.
    fn accessor(
        &mut self,
        bytes: &[u8],
        target: Option<gj::buffer::Target>,
        count: usize,
        (component, type_): (gj::accessor::ComponentType, gj::accessor::Type),
        bounds: Option<(gj::Value, gj::Value)>,
        normalized: bool,
    ) -> gj::Index<gj::Accessor> {
        let view = self.view(bytes, target);
        self.accessor_of(view, count, component, type_, bounds, normalized)
    }

    fn accessor_of(
        &mut self,
        view: gj::Index<gj::buffer::View>,
        count: usize,
        component: gj::accessor::ComponentType,
        type_: gj::accessor::Type,
        bounds: Option<(gj::Value, gj::Value)>,
        normalized: bool,
    ) -> gj::Index<gj::Accessor> {
        let (min, max) = match bounds {
            Some((a, b)) => (Some(a), Some(b)),
            None => (None, None),
        };
        self.root.push(gj::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64(count as u64),
            component_type: Valid(gj::accessor::GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(type_),
            min,
            max,
            name: None,
            normalized,
            sparse: None,
        })
    }

    /// The output accessor of joint `joint`'s path `path` over `count` keys, its bytes
    /// made when the buffer is written.
    fn deferred_output(&mut self, joint: usize, path: usize, count: usize) -> gj::Index<gj::Accessor> {
        let n = PATH_WIDTH.get(path).copied().unwrap_or(3);
        self.align();
        let at = self.len;
        let len = (count * n * 4) as u64;
        self.len += len;
        self.deferred.push(Deferred { at, joint, path });
        let view = self.view_at(at, len, None);
        self.accessor_of(view, count, gj::accessor::ComponentType::F32, float_type(n), None, false)
    }

    /// Float vectors of `n` components; with per-component min/max when `bounds`.
    fn floats(
        &mut self,
        rows: &[Vec<f32>],
        n: usize,
        target: Option<gj::buffer::Target>,
        bounds: bool,
    ) -> gj::Index<gj::Accessor> {
        let type_ = float_type(n);
        let b = bounds.then(|| {
            let mut lo = vec![f32::INFINITY; n];
            let mut hi = vec![f32::NEG_INFINITY; n];
            for r in rows {
                for (k, v) in r.iter().enumerate().take(n) {
                    if let (Some(l), Some(h)) = (lo.get_mut(k), hi.get_mut(k)) {
                        *l = l.min(*v);
                        *h = h.max(*v);
                    }
                }
            }
            (json!(lo), json!(hi))
        });
        let bytes = bytes_f32(rows.iter().flat_map(|r| r.iter().copied()));
        self.accessor(&bytes, target, rows.len(), (gj::accessor::ComponentType::F32, type_), b, false)
    }
}

/// The accessor type of vectors of `n` floats.
fn float_type(n: usize) -> gj::accessor::Type {
    use gj::accessor::Type;
    match n {
        1 => Type::Scalar,
        2 => Type::Vec2,
        3 => Type::Vec3,
        4 => Type::Vec4,
        _ => Type::Mat4,
    }
}

fn node(name: &str) -> gj::Node {
    gj::Node { name: Some(name.to_string()), ..Default::default() }
}

/// Per vertex: up to 4 (joint, weight) pairs, renormalised to sum 1, heaviest first.
fn vertex_weights(
    mesh: &Mesh,
    label: &str,
    joint_of: &BTreeMap<&str, usize>,
) -> Result<Vec<[(usize, f32); 4]>, ExportError> {
    let mut out = Vec::with_capacity(mesh.binding.len());
    for (vi, infl) in mesh.binding.iter().enumerate() {
        let mut merged: Vec<(usize, f64)> = Vec::new();
        for (name, w) in infl {
            let j = *joint_of.get(name.as_str()).ok_or_else(|| {
                ExportError::Gltf(format!("{label} vertex {vi}: bound to {name}, which the skeleton does not have"))
            })?;
            match merged.iter_mut().find(|(x, _)| *x == j) {
                Some(m) => m.1 += f64::from(*w),
                None => merged.push((j, f64::from(*w))),
            }
        }
        merged.retain(|(_, w)| *w > 0.0);
        if merged.len() > 4 {
            return Err(ExportError::Gltf(format!(
                "{label} vertex {vi}: {} joint influences, glTF's JOINTS_0/WEIGHTS_0 hold 4 (not split)",
                merged.len()
            )));
        }
        let sum: f64 = merged.iter().map(|(_, w)| w).sum();
        if merged.is_empty() || !(sum.is_finite() && sum > 0.0) {
            return Err(ExportError::Gltf(format!("{label} vertex {vi}: no joint influence with a positive weight")));
        }
        merged.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut slots = [(0usize, 0f32); 4];
        for (slot, (j, w)) in slots.iter_mut().zip(&merged) {
            *slot = (*j, (*w / sum) as f32);
        }
        // The heaviest weight takes the rounding, so the four f32 weights sum to 1.
        let rest: f64 = slots.iter().skip(1).map(|(_, w)| f64::from(*w)).sum();
        slots[0].1 = (1.0 - rest) as f32;
        out.push(slots);
    }
    Ok(out)
}

fn mesh_label(m: &Mesh) -> String {
    format!("{}_mmat{}_{}", m.model, m.part, m.kind.map_or("mesh", MeshKind::name))
}

/// Percent-encode a relative file name for a URI (RFC 3986 unreserved characters kept).
fn uri(name: &str) -> String {
    let mut s = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            s.push(char::from(b));
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// A glTF export ready to be written: the document, the buffer's bytes made so far, and
/// the clip's frames still to make into the animation outputs.
struct Plan<'a> {
    b: Builder,
    anim: Option<Anim<'a>>,
    container: Container,
    /// The buffer's file name beside a `.gltf`.
    bin_name: String,
    /// `.gltf` only: the PNG textures beside it (file name, index of the image in the
    /// scene), encoded one at a time when they are written.
    pngs: Vec<(String, usize)>,
    summary: GltfSummary,
}

/// The clip's kept frames on the joints, made into keys when the buffer is written.
struct Anim<'a> {
    frames: super::BlenderFrames<'a>,
    joints: Joints,
}

/// Frames made and split into keys at a time while the buffer is written: the memory of
/// the animation is this many frames' keys, whatever the clip's length.
const FRAME_CHUNK: usize = 1024;

impl Anim<'_> {
    /// Make every frame's keys, `FRAME_CHUNK` frames at a time, and write each joint's
    /// translation, rotation and scale outputs at their places (`deferred`), the buffer
    /// starting at `base` in `out`. Rotations are normalised and kept sign-continuous.
    fn write(&self, deferred: &[Deferred], out: &mut dyn WriteAt, base: u64) -> Result<(), ExportError> {
        let joints = &self.joints;
        let nj = joints.names.len();
        let mut prev: Vec<Option<Quat>> = vec![None; nj];
        let mut start = 0;
        while start < self.frames.count {
            let end = (start + FRAME_CHUNK).min(self.frames.count);
            // bytes[j][path]: joint j's keys of frames start..end
            let mut bytes: Vec<[Vec<u8>; 3]> = (0..nj).map(|_| Default::default()).collect();
            for f in start..end {
                let worlds: Vec<Mat4> = self.frames.frame(f)?.iter().map(to_gltf).collect();
                for ((j, name), (out, prev)) in joints.names.iter().enumerate().zip(bytes.iter_mut().zip(&mut prev)) {
                    let at = self.frames.first + f;
                    let (t, mut r, s) = trs(joints.local(&worlds, j), &|| format!("bone {name} frame {at}"))?;
                    if prev.is_some_and(|p| p.dot(r) < 0.0) {
                        r = -r;
                    }
                    *prev = Some(r);
                    let [ts, rs, ss] = out;
                    ts.extend(bytes_f32(t.to_array()));
                    rs.extend(bytes_f32(r.to_array()));
                    ss.extend(bytes_f32(s.to_array()));
                }
            }
            for d in deferred {
                let width = PATH_WIDTH.get(d.path).copied().unwrap_or(3);
                let Some(keys) = bytes.get(d.joint).and_then(|b| b.get(d.path)) else { continue };
                let at = base + d.at + (start * width * 4) as u64;
                out.write_all_at(at, keys).map_err(|e| ExportError::io(Path::new("-"), e))?;
            }
            start = end;
        }
        Ok(())
    }
}

impl Plan<'_> {
    /// The document's JSON text (compact in a `.glb`, pretty in a `.gltf`).
    fn json(&self) -> Result<Vec<u8>, ExportError> {
        match self.container {
            Container::Glb => self.b.root.to_vec(),
            Container::Gltf => self.b.root.to_vec_pretty(),
        }
        .map_err(|e| ExportError::Gltf(e.to_string()))
    }

    /// Write the whole buffer, starting at `base` in `out`: the bytes made while building,
    /// then the animation outputs frame chunk by frame chunk.
    fn write_bin(&self, out: &mut dyn WriteAt, base: u64) -> Result<(), ExportError> {
        for (at, run) in &self.b.eager {
            out.write_all_at(base + at, run).map_err(|e| ExportError::io(Path::new("-"), e))?;
        }
        match &self.anim {
            Some(a) => a.write(&self.b.deferred, out, base),
            None => Ok(()),
        }
    }
}

/// Build the glTF files for `clip` (poses required) and, when given, `scene` (an unposed
/// scene whose meshes carry their binding), as `container`; `stem` names the side files of
/// a `.gltf`. `skeleton` and `frames` are as for the matrix JSON. Without a clip, the
/// scene's meshes are written at rest, unskinned, taking the scene's space as Z up (CCSF
/// model space, the only format with meshes). In memory; [`export_gltf`] writes the same
/// bytes to files with memory for a chunk of frames.
pub fn gltf_files(
    clip: Option<&Clip>,
    scene: Option<&Scene>,
    input: &str,
    req: &ExportRequest,
    container: Container,
    stem: &str,
) -> Result<GltfFiles, ExportError> {
    let p = plan(clip, scene, input, req, container, stem)?;
    let json = p.json()?;
    let mut side = Vec::new();
    let main = match container {
        Container::Glb => {
            let mut main = glb_head(&json, p.b.len);
            let base = main.len() as u64;
            p.write_bin(&mut main, base)?;
            main
        }
        Container::Gltf => {
            let mut bin = Vec::new();
            p.write_bin(&mut bin, 0)?;
            side.push((p.bin_name.clone(), bin));
            json
        }
    };
    let mut png = super::obj::PngEncoder::new();
    for (name, i) in &p.pngs {
        if let Some((_, img)) = scene.and_then(|sc| sc.images.get(*i)) {
            side.push((name.clone(), png.encode(img)));
        }
    }
    Ok(GltfFiles { main, side, summary: p.summary })
}

/// The document, the buffer's bytes but the animation outputs, and the frames to make them
/// from (see [`gltf_files`]).
fn plan<'a>(
    clip: Option<&'a Clip>,
    scene: Option<&Scene>,
    input: &str,
    req: &ExportRequest,
    container: Container,
    stem: &str,
) -> Result<Plan<'a>, ExportError> {
    let generator = format!("animscope {}", env!("CARGO_PKG_VERSION"));
    let gltf_conversion = "Blender armature space (Z up) to glTF (Y up): (x, y, z) -> (x, z, -y), after the \
        conversion above";
    let mut b = Builder::new();
    let mut summary = GltfSummary::default();
    let mut scene_nodes = Vec::new();
    let mut side = Vec::new();
    let mut anim = None;
    let name;
    let extras = match clip {
        Some(clip) => {
            let bf = super::BlenderFrames::new(clip, req.skeleton.as_deref(), req.frames, &req.limits)?;
            let bp = bf.head().clone();
            let (first, count) = (bf.first, bf.count);
            let (joints, skin) = add_clip(&mut b, clip, &bp, first, count, &mut scene_nodes)?;
            summary.frames = count;
            summary.joints = joints.names.len();
            match scene {
                Some(_) if req.skeleton.is_some() => summary
                    .notes
                    .push("meshes left out: they are bound to the format's own skeleton, not --skeleton".into()),
                Some(sc) => {
                    let k = blender_to_gltf() * bf.used().conversion;
                    let bound = Some((&joints, skin));
                    side.extend(add_meshes(&mut b, sc, bound, k, container, &mut summary, &mut scene_nodes)?);
                }
                None => {}
            }
            name = clip.name.clone();
            anim = Some(Anim { frames: bf, joints });
            json!({
                "source": bp.source,
                "input": input,
                "clip": clip.name,
                "skeleton": bp.skeleton,
                "conversion": bp.conversion,
                "gltf_conversion": gltf_conversion,
                "generator": generator,
                "fps": clip.fps,
                "frames": [first, first + count.saturating_sub(1)],
            })
        }
        None => {
            let sc = scene.ok_or_else(|| ExportError::Gltf("nothing to export: no clip and no scene".into()))?;
            side.extend(add_meshes(&mut b, sc, None, blender_to_gltf(), container, &mut summary, &mut scene_nodes)?);
            name = "scene".into();
            json!({
                "source": "scene at rest",
                "input": input,
                "clip": null,
                "skeleton": null,
                "conversion": format!("none: {}", sc.space),
                "gltf_conversion": gltf_conversion,
                "generator": generator,
                "notes": sc.notes,
            })
        }
    };
    if clip.is_none() && summary.meshes == 0 {
        return Err(ExportError::Gltf(format!(
            "no clip, and no mesh with triangles in the scene{}",
            summary.notes.iter().map(|n| format!("; {n}")).collect::<String>()
        )));
    }
    b.root.asset = gj::Asset {
        generator: Some(generator),
        extras: Some(serde_json::value::to_raw_value(&extras)?),
        ..gj::Asset::default()
    };
    b.root.scenes.push(gj::Scene {
        extensions: None,
        extras: Default::default(),
        name: Some(name),
        nodes: scene_nodes,
    });
    b.root.scene = Some(gj::Index::new(0));
    b.align();
    let bin_name = format!("{stem}.bin");
    b.root.buffers.push(gj::Buffer {
        byte_length: USize64(b.len),
        name: None,
        uri: (container == Container::Gltf).then(|| uri(&bin_name)),
        extensions: None,
        extras: Default::default(),
    });
    Ok(Plan { b, anim, container, bin_name, pngs: side, summary })
}

/// Add the joints (nodes, skin) and the clip's animation of `count` frames from `first`
/// (its outputs' bytes deferred, [`Anim::write`]); root joints go to `scene_nodes`.
fn add_clip(
    b: &mut Builder,
    clip: &Clip,
    bp: &PoseSeq,
    first: usize,
    count: usize,
    scene_nodes: &mut Vec<gj::Index<gj::Node>>,
) -> Result<(Joints, gj::Index<gj::Skin>), ExportError> {
    if !(clip.fps.is_finite() && clip.fps > 0.0) {
        return Err(ExportError::Gltf(format!("{}: frame rate {} gives no key times", clip.name, clip.fps)));
    }
    let joints = Joints::from_blender(bp);
    if joints.names.is_empty() {
        return Err(ExportError::Gltf(format!("{}: the poses have no bones", clip.name)));
    }
    let base = b.root.nodes.len();
    let at = |j: usize| gj::Index::new((base + j) as u32);
    for (j, name) in joints.names.iter().enumerate() {
        let (t, r, s) = trs(joints.local(&joints.rest, j), &|| format!("bone {name} rest"))?;
        let mut n = node(name);
        n.translation = Some(t.to_array());
        n.rotation = Some(gj::scene::UnitQuaternion(r.to_array()));
        n.scale = Some(s.to_array());
        b.root.push(n);
    }
    for j in 0..joints.names.len() {
        match joints.parents.get(j).copied().flatten() {
            Some(p) => {
                if let Some(pn) = b.root.nodes.get_mut(base + p) {
                    pn.children.get_or_insert_with(Vec::new).push(at(j));
                }
            }
            None => scene_nodes.push(at(j)),
        }
    }
    let ibm: Vec<Vec<f32>> = joints.rest.iter().map(|r| r.inverse().to_cols_array().to_vec()).collect();
    if let Some(bad) = ibm.iter().flatten().find(|v| !v.is_finite()) {
        return Err(ExportError::Gltf(format!("a rest matrix is not invertible (inverse has {bad})")));
    }
    let ibm = b.floats(&ibm, 16, None, false);
    let skin = b.root.push(gj::Skin {
        extensions: None,
        extras: Default::default(),
        inverse_bind_matrices: Some(ibm),
        joints: (0..joints.names.len()).map(at).collect(),
        name: Some(bp.skeleton.clone()),
        skeleton: None,
    });
    // Shared key times; per joint translation, rotation and scale.
    let times: Vec<Vec<f32>> = (0..count).map(|i| vec![((first + i) as f64 / clip.fps) as f32]).collect();
    let input = b.floats(&times, 1, None, true);
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    for j in 0..joints.names.len() {
        for (p, path) in
            [gj::animation::Property::Translation, gj::animation::Property::Rotation, gj::animation::Property::Scale]
                .into_iter()
                .enumerate()
        {
            let output = b.deferred_output(j, p, count);
            let sampler = gj::Index::new(samplers.len() as u32);
            samplers.push(gj::animation::Sampler {
                extensions: None,
                extras: Default::default(),
                input,
                interpolation: Valid(gj::animation::Interpolation::Linear),
                output,
            });
            channels.push(gj::animation::Channel {
                sampler,
                target: gj::animation::Target {
                    extensions: None,
                    extras: Default::default(),
                    node: at(j),
                    path: Valid(path),
                },
                extensions: None,
                extras: Default::default(),
            });
        }
    }
    b.root.push(gj::Animation {
        extensions: None,
        extras: Default::default(),
        channels,
        name: Some(clip.name.clone()),
        samplers,
    });
    Ok((joints, skin))
}

/// Add the scene's meshes, materials and textures, positions taken into glTF by `k`; skinned
/// to `bound` (joints, skin) where given, else unskinned at rest. Returns the PNG side files
/// of a `.gltf` export (file name, image index: encoded when written); a `.glb`'s PNGs are
/// encoded into its buffer here, with one deflate state for all.
fn add_meshes(
    b: &mut Builder,
    sc: &Scene,
    bound: Option<(&Joints, gj::Index<gj::Skin>)>,
    k: Mat4,
    container: Container,
    summary: &mut GltfSummary,
    scene_nodes: &mut Vec<gj::Index<gj::Node>>,
) -> Result<Vec<(String, usize)>, ExportError> {
    use gj::buffer::Target::ArrayBuffer;
    let joint_of: BTreeMap<&str, usize> =
        bound.iter().flat_map(|(j, _)| j.names.iter().enumerate().map(|(i, n)| (n.as_str(), i))).collect();
    let (mat_names, png_stems) = super::obj::entry_names(sc);
    let (texture_of, side) = add_textures(b, sc, &png_stems, container, summary);
    // One glTF material per scene material (by index: two may share a name), named as in
    // the OBJ's MTL.
    let mut material_of: Vec<gj::Index<gj::Material>> = Vec::with_capacity(sc.materials.len());
    for (m, name) in sc.materials.iter().zip(&mat_names) {
        let mut mat = gj::Material { name: Some(name.clone()), ..Default::default() };
        mat.pbr_metallic_roughness.metallic_factor = gj::material::StrengthFactor(0.0);
        mat.pbr_metallic_roughness.base_color_texture = m
            .texture
            .and_then(|t| texture_of.get(t).copied().flatten())
            .map(|index| gj::texture::Info { index, tex_coord: 0, extensions: None, extras: Default::default() });
        material_of.push(b.root.push(mat));
    }
    let normal_k = Mat4::from_mat3(glam::Mat3::from_mat4(k).inverse().transpose());
    let (mut skipped, mut no_normals, mut clamped) = (Vec::new(), Vec::new(), 0usize);
    for m in &sc.meshes {
        let label = mesh_label(m);
        let n = m.positions.len();
        if n == 0 || m.triangles.is_empty() {
            skipped.push(label);
            continue;
        }
        let mut attributes = BTreeMap::new();
        let pos: Vec<Vec<f32>> = m.positions.iter().map(|p| k.transform_point3(*p).to_array().to_vec()).collect();
        if let Some(bad) = pos.iter().flatten().find(|v| !v.is_finite()) {
            return Err(ExportError::Gltf(format!("{label}: non-finite position {bad}")));
        }
        attributes.insert(Valid(gj::mesh::Semantic::Positions), b.floats(&pos, 3, Some(ArrayBuffer), true));
        if m.normals.len() == n {
            let nn: Vec<Vec3> = m.normals.iter().map(|v| normal_k.transform_vector3(*v).normalize_or_zero()).collect();
            if nn.iter().all(|v| v.is_finite() && v.length_squared() > 0.5) {
                let rows: Vec<Vec<f32>> = nn.iter().map(|v| v.to_array().to_vec()).collect();
                attributes.insert(Valid(gj::mesh::Semantic::Normals), b.floats(&rows, 3, Some(ArrayBuffer), false));
            } else {
                no_normals.push(label.clone());
            }
        }
        if m.uvs.len() == n {
            let rows: Vec<Vec<f32>> = m.uvs.iter().map(|t| vec![t[0], 1.0 - t[1]]).collect();
            attributes.insert(Valid(gj::mesh::Semantic::TexCoords(0)), b.floats(&rows, 2, Some(ArrayBuffer), false));
        }
        if m.colours.len() == n {
            let rows: Vec<Vec<f32>> = m
                .colours
                .iter()
                .map(|c| {
                    c.iter()
                        .map(|v| {
                            let x = if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 };
                            clamped += usize::from(x != *v);
                            x
                        })
                        .collect()
                })
                .collect();
            attributes.insert(Valid(gj::mesh::Semantic::Colors(0)), b.floats(&rows, 4, Some(ArrayBuffer), false));
        }
        let skin = bound.filter(|_| !m.binding.is_empty()).map(|(_, s)| s);
        if skin.is_some() {
            skin_attributes(b, m, &label, &joint_of, &mut attributes)?;
        }
        let indices = index_accessor(b, m, &label)?;
        let material = m.material.and_then(|x| material_of.get(x)).copied();
        let mesh = b.root.push(gj::Mesh {
            extensions: None,
            extras: Default::default(),
            name: Some(label.clone()),
            primitives: vec![gj::mesh::Primitive {
                attributes,
                extensions: None,
                extras: Default::default(),
                indices: Some(indices),
                material,
                mode: Valid(gj::mesh::Mode::Triangles),
                targets: None,
            }],
            weights: None,
        });
        let mut nd = node(&label);
        nd.mesh = Some(mesh);
        nd.skin = skin;
        scene_nodes.push(b.root.push(nd));
        summary.meshes += 1;
        summary.vertices += n;
        summary.triangles += m.triangles.len();
    }
    if !skipped.is_empty() {
        summary.notes.push(format!("meshes without triangles left out: {}", skipped.join(", ")));
    }
    if !no_normals.is_empty() {
        summary.notes.push(format!("normals left out (some are zero): {}", no_normals.join(", ")));
    }
    if clamped > 0 {
        summary.notes.push(format!("{clamped} vertex colour components clamped to 0..1"));
    }
    Ok(side)
}

/// Each scene image's glTF texture (None: no material uses it), and the side files of a
/// `.gltf` (file name, image).
type Textures = (Vec<Option<gj::Index<gj::Texture>>>, Vec<(String, usize)>);

/// One glTF texture per image of the scene that a material uses, PNG-encoded (into the
/// buffer of a `.glb`, else as a side file of the `.gltf`, listed with its image); named as
/// the OBJ export names them.
fn add_textures(
    b: &mut Builder,
    sc: &Scene,
    png_stems: &[String],
    container: Container,
    summary: &mut GltfSummary,
) -> Textures {
    let mut side = Vec::new();
    let mut encoder = super::obj::PngEncoder::new();
    let mut texture_of: Vec<Option<gj::Index<gj::Texture>>> = vec![None; sc.images.len()];
    for t in sc.materials.iter().filter_map(|m| m.texture) {
        let (Some((name, img)), Some(stem)) = (sc.images.get(t), png_stems.get(t)) else { continue };
        if texture_of.get(t).is_some_and(Option::is_some) {
            continue;
        }
        let file = format!("{stem}.png");
        let image = match container {
            Container::Glb => {
                let view = b.view(&encoder.encode(img), None);
                gj::Image {
                    buffer_view: Some(view),
                    mime_type: Some(gj::image::MimeType("image/png".into())),
                    name: Some(stem.clone()),
                    uri: None,
                    extensions: None,
                    extras: Default::default(),
                }
            }
            Container::Gltf => {
                let u = uri(&file);
                side.push((file, t));
                gj::Image {
                    buffer_view: None,
                    mime_type: None,
                    name: Some(stem.clone()),
                    uri: Some(u),
                    extensions: None,
                    extras: Default::default(),
                }
            }
        };
        let image = b.root.push(image);
        let tex = b.root.push(gj::Texture {
            name: Some(name.clone()),
            sampler: None,
            source: image,
            extensions: None,
            extras: Default::default(),
        });
        if let Some(slot) = texture_of.get_mut(t) {
            *slot = Some(tex);
        }
        summary.textures += 1;
    }
    (texture_of, side)
}

/// The joints and weights of mesh `m`'s vertices (bound to the joints `joint_of` names), as
/// its JOINTS_0 and WEIGHTS_0 attributes.
fn skin_attributes(
    b: &mut Builder,
    m: &Mesh,
    label: &str,
    joint_of: &BTreeMap<&str, usize>,
    attributes: &mut BTreeMap<gj::validation::Checked<gj::mesh::Semantic>, gj::Index<gj::Accessor>>,
) -> Result<(), ExportError> {
    use gj::accessor::{ComponentType as C, Type as T};
    use gj::buffer::Target::ArrayBuffer;
    let n = m.positions.len();
    if m.binding.len() != n {
        return Err(ExportError::Gltf(format!("{label}: {} vertices but {} bound", n, m.binding.len())));
    }
    let w = vertex_weights(m, label, joint_of)?;
    let wide = joint_of.len() > 256;
    let jb: Vec<u8> = if wide {
        w.iter().flat_map(|v| v.iter().flat_map(|(j, _)| (*j as u16).to_le_bytes())).collect()
    } else {
        w.iter().flat_map(|v| v.iter().map(|(j, _)| *j as u8)).collect()
    };
    let ct = if wide { C::U16 } else { C::U8 };
    let ja = b.accessor(&jb, Some(ArrayBuffer), n, (ct, T::Vec4), None, false);
    attributes.insert(Valid(gj::mesh::Semantic::Joints(0)), ja);
    let rows: Vec<Vec<f32>> = w.iter().map(|v| v.iter().map(|(_, x)| *x).collect()).collect();
    attributes.insert(Valid(gj::mesh::Semantic::Weights(0)), b.floats(&rows, 4, Some(ArrayBuffer), false));
    Ok(())
}

/// The triangles of mesh `m` as an index accessor (16-bit while the vertices allow).
fn index_accessor(b: &mut Builder, m: &Mesh, label: &str) -> Result<gj::Index<gj::Accessor>, ExportError> {
    use gj::accessor::{ComponentType as C, Type as T};
    use gj::buffer::Target::ElementArrayBuffer;
    let n = m.positions.len();
    if let Some(t) = m.triangles.iter().flatten().find(|i| **i as usize >= n) {
        return Err(ExportError::Gltf(format!("{label}: triangle index {t} outside its {n} vertices")));
    }
    let (ib, ct) = if n < 0xffff {
        (m.triangles.iter().flatten().flat_map(|i| (*i as u16).to_le_bytes()).collect::<Vec<u8>>(), C::U16)
    } else {
        (m.triangles.iter().flatten().flat_map(|i| i.to_le_bytes()).collect(), C::U32)
    };
    Ok(b.accessor(&ib, Some(ElementArrayBuffer), m.triangles.len() * 3, (ct, T::Scalar), None, false))
}

/// The GLB container: 12-byte header, JSON chunk (padded with spaces), BIN chunk (padded
/// with zeros), every length a multiple of 4.
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut out = glb_head(json, bin.len() as u64);
    if !bin.is_empty() {
        out.extend(bin);
        out.extend(std::iter::repeat_n(0u8, (4 - bin.len() % 4) % 4));
    }
    out
}

/// A GLB's bytes before its buffer of `bin_len` bytes: the header, the JSON chunk and the
/// BIN chunk's header (none for an empty buffer). The buffer follows, padded to 4 bytes.
fn glb_head(json: &[u8], bin_len: u64) -> Vec<u8> {
    let (mut out, tail) = glb_frame(json.len() as u64, bin_len);
    out.extend(json);
    out.extend(tail);
    out
}

/// The bytes of a GLB around a JSON text of `json_len` bytes, before a buffer of `bin_len`
/// bytes: (the header and the JSON chunk's header; the JSON's padding and the BIN chunk's
/// header, none for an empty buffer).
fn glb_frame(json_len: u64, bin_len: u64) -> (Vec<u8>, Vec<u8>) {
    let pad = |n: u64| (4 - n % 4) % 4;
    let jp = pad(json_len);
    let json_len = json_len + jp;
    let bin_len = bin_len + pad(bin_len);
    let total = 12 + 8 + json_len + if bin_len == 0 { 0 } else { 8 + bin_len };
    let mut head = Vec::with_capacity(20);
    head.extend(b"glTF");
    head.extend(2u32.to_le_bytes());
    head.extend((total as u32).to_le_bytes());
    head.extend((json_len as u32).to_le_bytes());
    head.extend(b"JSON");
    let mut tail: Vec<u8> = std::iter::repeat_n(b' ', jp as usize).collect();
    if bin_len > 0 {
        tail.extend((bin_len as u32).to_le_bytes());
        tail.extend(b"BIN\0");
    }
    (head, tail)
}

/// The glTF export service (CLI and TUI): build the document and write each file
/// atomically (side files first, so the main file never names a missing one). The buffer
/// is written as it is made, at offsets in the temp file, so a long clip needs memory for
/// [`FRAME_CHUNK`] frames' keys, not for all of them.
pub fn export_gltf(
    clip: Option<&Clip>,
    scene: Option<&Scene>,
    input: &str,
    req: &ExportRequest,
) -> Result<GltfSummary, ExportError> {
    let container = Container::of_path(&req.out_path).ok_or_else(|| {
        ExportError::Gltf(format!("{}: the output must end in .glb or .gltf", req.out_path.display()))
    })?;
    let stem = super::obj::stem(&req.out_path);
    let p = plan(clip, scene, input, req, container, &super::names::safe_stem(&stem))?;
    let dir = req.out_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // All or nothing: every target checked before anything is written, renamed together.
    let mut set = super::stream::OutputSet::new(req.force);
    let mut targets = vec![req.out_path.clone()];
    if container == Container::Gltf {
        targets.push(dir.join(&p.bin_name));
        targets.extend(p.pngs.iter().map(|(name, _)| dir.join(name)));
    }
    for t in &targets {
        set.check(t).map_err(ExportError::Target)?;
    }
    let max = req.limits.max_output;
    // The JSON is serialised straight into its file (a scene of thousands of meshes makes
    // megabytes of it); a `.glb` states its length first, so it is serialised twice, the
    // first time only counted.
    match container {
        Container::Glb => {
            let mut counted = Counted(0);
            serde_json::to_writer(&mut counted, &p.b.root).map_err(|e| ExportError::Gltf(e.to_string()))?;
            let (head, tail) = glb_frame(counted.0, p.b.len);
            add_at(&mut set, &req.out_path, max, &mut |w| {
                let io = |e| ExportError::io(&req.out_path, e);
                w.write_all_at(0, &head).map_err(io)?;
                let mut json = AtOffsets { out: &mut *w, at: head.len() as u64, buf: Vec::new() };
                serde_json::to_writer(&mut json, &p.b.root).map_err(|e| io(std::io::Error::other(e)))?;
                std::io::Write::flush(&mut json).map_err(io)?;
                let at = json.at;
                w.write_all_at(at, &tail).map_err(io)?;
                p.write_bin(w, at + tail.len() as u64)
            })?;
        }
        Container::Gltf => {
            add_at(&mut set, &dir.join(&p.bin_name), max, &mut |w| p.write_bin(w, 0))?;
            let mut png = super::obj::PngEncoder::new();
            for (name, i) in &p.pngs {
                let path = dir.join(name);
                let Some((_, img)) = scene.and_then(|sc| sc.images.get(*i)) else { continue };
                let bytes = png.encode(img);
                set.add_bytes(&path, &bytes, max).map_err(|e| ExportError::io(&path, e))?;
            }
            set.add_writer(&req.out_path, max, &mut |w| {
                serde_json::to_writer_pretty(w, &p.b.root).map_err(std::io::Error::other)
            })
            .map_err(|e| ExportError::io(&req.out_path, e))?;
        }
    }
    set.commit().map_err(|e| ExportError::io(&req.out_path, e))?;
    Ok(p.summary)
}

/// A writer that only counts the bytes written to it.
struct Counted(u64);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Sequential writes onto a [`WriteAt`] from offset `at` on, in 64 KiB pieces.
struct AtOffsets<'a> {
    out: &'a mut dyn WriteAt,
    at: u64,
    buf: Vec<u8>,
}

impl std::io::Write for AtOffsets<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.write_all_at(self.at, &self.buf)?;
        self.at += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }
}

/// Add `path` to `set`, written through [`WriteAt`] (capped at `max`): `fill`'s own error
/// comes back as it is; an I/O error names `path`.
fn add_at(
    set: &mut super::stream::OutputSet,
    path: &Path,
    max: u64,
    fill: &mut dyn FnMut(&mut dyn WriteAt) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let mut carried = super::stream::Carried::default();
    let r = set.add_at(path, max, &mut |w| carried.pass(fill(w)));
    carried.finish(path, r).map(|_| ())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests {
    use super::*;
    use crate::model::anim::Space;
    use proptest::prelude::*;

    fn mesh(binding: Vec<Vec<(&str, f32)>>) -> Mesh {
        Mesh {
            model: "MDL_x".into(),
            kind: Some(MeshKind::Skin),
            positions: vec![Vec3::ZERO; binding.len()],
            binding: binding.into_iter().map(|v| v.into_iter().map(|(n, w)| (n.to_string(), w)).collect()).collect(),
            ..Mesh::default()
        }
    }

    fn joints() -> BTreeMap<&'static str, usize> {
        ["a", "b", "c", "d", "e"].into_iter().enumerate().map(|(i, n)| (n, i)).collect()
    }

    #[test]
    fn weights_are_merged_sorted_and_renormalised() {
        // 0.25 + 0.25 on the same joint merge; the sum 0.9 is renormalised to 1.
        let m = mesh(vec![vec![("a", 0.25), ("b", 0.4), ("a", 0.25)], vec![("c", 2.0)]]);
        let w = vertex_weights(&m, "m", &joints()).unwrap();
        assert_eq!(w[0][0].0, 0);
        assert!((w[0][0].1 - 0.5 / 0.9).abs() < 1e-6);
        assert_eq!(w[0][1].0, 1);
        assert!((w[0][1].1 - 0.4 / 0.9).abs() < 1e-6);
        assert_eq!(w[0][2], (0, 0.0));
        assert_eq!(w[1][0], (2, 1.0));
        let sum: f32 = w[0].iter().map(|x| x.1).sum();
        assert!((sum - 1.0).abs() < 1e-7);
    }

    #[test]
    fn five_influences_zero_weights_and_unknown_joints_are_errors() {
        let five = mesh(vec![vec![("a", 0.2), ("b", 0.2), ("c", 0.2), ("d", 0.2), ("e", 0.2)]]);
        let e = vertex_weights(&five, "MDL_x_mmat0_skin", &joints()).unwrap_err().to_string();
        assert!(e.contains("MDL_x_mmat0_skin vertex 0: 5 joint influences"), "{e}");
        let zero = mesh(vec![vec![("a", 0.0)]]);
        assert!(vertex_weights(&zero, "m", &joints()).unwrap_err().to_string().contains("positive weight"));
        let unknown = mesh(vec![vec![("zz", 1.0)]]);
        assert!(vertex_weights(&unknown, "m", &joints()).unwrap_err().to_string().contains("bound to zz"));
    }

    #[test]
    fn glb_chunks_are_padded_to_four_bytes() {
        let out = glb(b"{}", &[1, 2, 3, 4, 5]);
        // header 12 + JSON chunk 8 + 4 ("{}" + 2 spaces) + BIN chunk 8 + 8 (5 bytes + 3 zeros)
        assert_eq!(out.len(), 40);
        assert_eq!(&out[0..4], b"glTF");
        assert_eq!(u32::from_le_bytes(out[8..12].try_into().unwrap()), 40);
        assert_eq!(u32::from_le_bytes(out[12..16].try_into().unwrap()), 4);
        assert_eq!(&out[16..24], b"JSON{}  ");
        assert_eq!(u32::from_le_bytes(out[24..28].try_into().unwrap()), 8);
        assert_eq!(&out[28..32], b"BIN\0");
        assert_eq!(&out[32..40], &[1, 2, 3, 4, 5, 0, 0, 0]);
    }

    #[test]
    fn uris_escape_what_is_not_unreserved() {
        assert_eq!(uri("TEX_a-1.png"), "TEX_a-1.png");
        assert_eq!(uri("a b%.bin"), "a%20b%25.bin");
    }

    #[test]
    fn axis_conversion_takes_z_up_to_y_up() {
        // Blender's up (0, 0, 1) is glTF's up (0, 1, 0); Blender's forward −Y is glTF's +Z.
        let y = blender_to_gltf();
        assert!(y.transform_point3(Vec3::Z).abs_diff_eq(Vec3::Y, 1e-7));
        assert!(y.transform_point3(-Vec3::Y).abs_diff_eq(Vec3::Z, 1e-7));
        assert!(y.transform_point3(Vec3::X).abs_diff_eq(Vec3::X, 1e-7));
    }

    #[test]
    fn shear_is_refused() {
        let shear =
            Mat4::from_cols_array(&[1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        let e = trs(shear, &|| "bone x frame 3".into()).unwrap_err().to_string();
        assert!(e.contains("bone x frame 3") && e.contains("shear"), "{e}");
        let nan = Mat4::from_translation(Vec3::new(f32::NAN, 0.0, 0.0));
        assert!(trs(nan, &|| "b".into()).unwrap_err().to_string().contains("non-finite"));
    }

    proptest! {
        #[test]
        fn trs_recomposes_the_matrix(
            t in prop::array::uniform3(-100.0f32..100.0),
            axis in prop::array::uniform3(-1.0f32..1.0),
            angle in -6.3f32..6.3,
            s in prop::array::uniform3(0.1f32..10.0),
        ) {
            let axis = Vec3::from(axis);
            prop_assume!(axis.length() > 0.1);
            let m = Mat4::from_scale_rotation_translation(Vec3::from(s), Quat::from_axis_angle(axis.normalize(), angle), Vec3::from(t));
            let (t2, r2, s2) = trs(m, &|| "p".into()).unwrap();
            prop_assert!((r2.length() - 1.0).abs() < 1e-6);
            let back = Mat4::from_scale_rotation_translation(s2, r2, t2);
            prop_assert!(back.abs_diff_eq(m, 1e-3), "{back} vs {m}");
        }
    }

    /// A two-bone clip in Blender armature space (as `blender_poses` gives it).
    fn clip() -> Clip {
        let rest = vec![Mat4::IDENTITY, Mat4::from_translation(Vec3::new(0.0, 0.0, 1.0))];
        let frames = (0..3)
            .map(|f| {
                let a = f as f32 * 0.5;
                let root = Mat4::from_rotation_z(a);
                vec![root, root * Mat4::from_translation(Vec3::new(0.0, 0.0, 1.0)) * Mat4::from_rotation_x(-a)]
            })
            .collect();
        let mut c = Clip::new("c", 30.0, 3);
        c.poses = Some(PoseSeq {
            space: Space::BlenderArmature,
            bones: vec!["root".into(), "child".into()],
            frames,
            parents: vec![None, Some(0)],
            rest,
            conversion_matrix: Mat4::IDENTITY,
            source: "test".into(),
            skeleton: "test".into(),
            conversion: "none".into(),
        });
        c
    }

    #[test]
    fn rotations_stay_on_one_hemisphere() {
        // The root turns by 0.5 rad per frame; a full key set over 2π would flip sign in a
        // naive decomposition somewhere past π: keys stay continuous.
        let mut c = clip();
        let p = c.poses.as_mut().unwrap();
        p.frames = (0..20).map(|f| vec![Mat4::from_rotation_z(f as f32 * 0.5), Mat4::IDENTITY]).collect();
        let files = gltf_files(Some(&c), None, "in", &ExportRequest::default(), Container::Glb, "x").unwrap();
        assert_eq!(files.summary.frames, 20);
        // Accessor 0: inverse binds; 1: times; then per joint T, R, S (3: the root's R).
        let main = &files.main;
        let word = |at: usize| u32::from_le_bytes(main[at..at + 4].try_into().unwrap()) as usize;
        let json_len = word(12);
        let doc: serde_json::Value = serde_json::from_slice(&main[20..20 + json_len]).unwrap();
        let bin = &main[20 + json_len + 8..];
        let view = &doc["bufferViews"][doc["accessors"][3]["bufferView"].as_u64().unwrap() as usize];
        let off = view["byteOffset"].as_u64().unwrap() as usize;
        assert_eq!(view["byteLength"], 20 * 16);
        let q: Vec<f32> =
            bin[off..off + 20 * 16].chunks(4).map(|x| f32::from_le_bytes(x.try_into().unwrap())).collect();
        for (a, bq) in q.chunks(4).zip(q.chunks(4).skip(1)) {
            let dot: f32 = a.iter().zip(bq).map(|(x, y)| x * y).sum();
            assert!(dot > 0.0, "{a:?} then {bq:?}");
        }
    }

    /// A clip longer than one frame chunk: the keys are made chunk by chunk, yet each is the
    /// frame's rotation (Blender's Z turn is glTF's Y turn), sign-continuous across the
    /// chunk boundaries, and the file written at offsets has the bytes built in memory.
    #[test]
    fn long_clips_are_written_in_chunks_with_the_same_keys() {
        let frames = FRAME_CHUNK * 2 + 500;
        let angle = |f: usize| f as f32 * 0.01;
        let mut c = clip();
        let p = c.poses.as_mut().unwrap();
        p.frames = (0..frames).map(|f| vec![Mat4::from_rotation_z(angle(f)), Mat4::IDENTITY]).collect();
        let files = gltf_files(Some(&c), None, "in", &ExportRequest::default(), Container::Glb, "x").unwrap();
        let main = &files.main;
        let word = |at: usize| u32::from_le_bytes(main[at..at + 4].try_into().unwrap()) as usize;
        let json_len = word(12);
        let doc: serde_json::Value = serde_json::from_slice(&main[20..20 + json_len]).unwrap();
        let bin = &main[20 + json_len + 8..];
        assert_eq!(word(8), main.len());
        let view = &doc["bufferViews"][doc["accessors"][3]["bufferView"].as_u64().unwrap() as usize];
        let off = view["byteOffset"].as_u64().unwrap() as usize;
        let q: Vec<f32> =
            bin[off..off + frames * 16].chunks(4).map(|x| f32::from_le_bytes(x.try_into().unwrap())).collect();
        let mut prev: Option<Quat> = None;
        for (f, k) in q.chunks(4).enumerate() {
            let got = Quat::from_xyzw(k[0], k[1], k[2], k[3]);
            let want = Quat::from_rotation_y(angle(f));
            assert!(got.abs_diff_eq(want, 1e-4) || got.abs_diff_eq(-want, 1e-4), "frame {f}: {got} vs {want}");
            if let Some(p) = prev {
                assert!(p.dot(got) > 0.0, "frame {f}: sign flip");
            }
            prev = Some(got);
        }
        let dir = tempfile::tempdir().unwrap();
        let req = ExportRequest { out_path: dir.path().join("x.glb"), ..ExportRequest::default() };
        export_gltf(Some(&c), None, "in", &req).unwrap();
        assert!(std::fs::read(&req.out_path).unwrap() == files.main, "file and memory differ");
        let req = ExportRequest { out_path: dir.path().join("x.gltf"), ..ExportRequest::default() };
        export_gltf(Some(&c), None, "in", &req).unwrap();
        let in_memory = gltf_files(Some(&c), None, "in", &req, Container::Gltf, "x").unwrap();
        assert!(std::fs::read(dir.path().join("x.bin")).unwrap() == in_memory.side[0].1, "buffer differs");
        assert_eq!(std::fs::read(&req.out_path).unwrap(), in_memory.main);
    }
}
