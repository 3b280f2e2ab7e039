//! Reading a glTF 2.0 binary (`.glb`, what `export --gltf` writes and what Blender exports
//! after an edit) back as posed matrices: the skin's joints by name (every named node when
//! there is no skin), each posed at the clip's frames by the first animation's channels
//! (LINEAR, STEP or CUBICSPLINE samplers on translation, rotation and scale; other nodes
//! at their own TRS), composed through the whole node hierarchy, and taken from glTF's Y up
//! into Blender armature space (`M = Y⁻¹ · G · Y`, the inverse of the glTF export's
//! `G = Y · M · Y⁻¹`).
//!
//! Only float accessors are read (normalised integer rotations, sparse accessors and
//! external or data-URI buffers are refused by name). Unknown: how a Blender export of an
//! armature whose bones the importer re-oriented ("bone direction" settings) relates to
//! the original joints; a joint's world matrix is what is compared, not its local axes.

use super::{ImportError, Posed};
use glam::{Mat4, Quat, Vec3};
use gltf_json as gj;
use gltf_json::validation::Checked;
use std::path::Path;

/// One sampler: key times (seconds) and their values (`width` floats per key; three per
/// key for CUBICSPLINE: in-tangent, value, out-tangent).
struct Track {
    node: usize,
    path: gj::animation::Property,
    interp: gj::animation::Interpolation,
    times: Vec<f32>,
    values: Vec<f32>,
    width: usize,
}

/// The glb's JSON and BIN chunks.
fn chunks<'a>(path: &Path, bytes: &'a [u8]) -> Result<(&'a [u8], &'a [u8]), ImportError> {
    let bad = |m: &str| ImportError::Input(format!("{}: {m}", path.display()));
    let u32_at =
        |at: usize| -> Option<usize> { Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize) };
    if bytes.get(..4) != Some(b"glTF".as_slice()) {
        return Err(bad("not a glb (no glTF magic at offset 0)"));
    }
    if u32_at(4) != Some(2) {
        return Err(bad("glTF container version is not 2"));
    }
    let mut at = 12usize;
    let mut json: Option<&[u8]> = None;
    let mut bin: &[u8] = &[];
    while at + 8 <= bytes.len() {
        let (Some(len), Some(kind)) = (u32_at(at), u32_at(at + 4)) else { break };
        let body = bytes
            .get(at + 8..at.saturating_add(8).saturating_add(len))
            .ok_or_else(|| bad(&format!("chunk at offset 0x{at:x} passes the end of the file")))?;
        match kind {
            0x4E4F_534A if json.is_none() => json = Some(body),
            0x004E_4942 if bin.is_empty() => bin = body,
            _ => {}
        }
        at = at + 8 + len;
    }
    Ok((json.ok_or_else(|| bad("no JSON chunk"))?, bin))
}

/// The floats accessor `index` holds (`count × components`), from the BIN chunk.
fn floats(root: &gj::Root, bin: &[u8], index: usize, what: &str) -> Result<(Vec<f32>, usize), String> {
    let a = root.accessors.get(index).ok_or_else(|| format!("{what}: accessor {index} does not exist"))?;
    if a.sparse.is_some() {
        return Err(format!("{what}: accessor {index} is sparse (not read)"));
    }
    match a.component_type {
        Checked::Valid(gj::accessor::GenericComponentType(gj::accessor::ComponentType::F32)) => {}
        _ => return Err(format!("{what}: accessor {index} is not float (normalised integers are not read)")),
    }
    let width = match a.type_ {
        Checked::Valid(gj::accessor::Type::Scalar) => 1,
        Checked::Valid(gj::accessor::Type::Vec3) => 3,
        Checked::Valid(gj::accessor::Type::Vec4) => 4,
        _ => return Err(format!("{what}: accessor {index} is not a scalar, vec3 or vec4")),
    };
    let view_index = a.buffer_view.ok_or_else(|| format!("{what}: accessor {index} has no buffer view"))?.value();
    let view =
        root.buffer_views.get(view_index).ok_or_else(|| format!("{what}: buffer view {view_index} does not exist"))?;
    if view.buffer.value() != 0 {
        return Err(format!("{what}: buffer view {view_index} is not in the glb's own buffer"));
    }
    let count = usize::try_from(a.count.0).map_err(|_| format!("{what}: accessor {index} count too large"))?;
    let stride = view.byte_stride.map_or(4 * width, |s| s.0);
    let start = usize::try_from(view.byte_offset.map_or(0, |o| o.0) + a.byte_offset.map_or(0, |o| o.0))
        .map_err(|_| format!("{what}: offset too large"))?;
    let end = start
        .checked_add(count.saturating_sub(1).saturating_mul(stride))
        .and_then(|e| e.checked_add(4 * width))
        .filter(|e| count == 0 || *e <= bin.len())
        .ok_or_else(|| format!("{what}: accessor {index} passes the end of the BIN chunk"))?;
    let _ = end;
    let mut out = Vec::with_capacity(count.saturating_mul(width));
    for i in 0..count {
        for c in 0..width {
            let at = start + i * stride + 4 * c;
            let b = bin.get(at..at + 4).ok_or_else(|| format!("{what}: accessor {index} passes the BIN chunk"))?;
            let v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if !v.is_finite() {
                return Err(format!("{what}: accessor {index} element {i} is not finite"));
            }
            out.push(v);
        }
    }
    Ok((out, width))
}

/// Value of `t` at time `time` (seconds), `n` components.
fn sample(t: &Track, time: f32, n: usize) -> Vec<f32> {
    use gj::animation::Interpolation as I;
    let stride = if t.interp == I::CubicSpline { 3 * n } else { n };
    let key = |k: usize, part: usize| -> Vec<f32> {
        let at = k * stride + if t.interp == I::CubicSpline { part * n } else { 0 };
        t.values.get(at..at + n).map_or_else(|| vec![0.0; n], <[f32]>::to_vec)
    };
    let last = t.times.len().saturating_sub(1);
    let k = t.times.iter().rposition(|x| *x <= time).unwrap_or(0);
    let (Some(&t0), Some(&t1)) = (t.times.get(k), t.times.get((k + 1).min(last))) else { return key(0, 1) };
    if time <= t0 || k >= last || t1 <= t0 {
        return key(k, 1);
    }
    let s = (time - t0) / (t1 - t0);
    match t.interp {
        I::Step => key(k, 1),
        I::Linear => {
            let (a, b) = (key(k, 1), key(k + 1, 1));
            if t.path == gj::animation::Property::Rotation && n == 4 {
                let qa = Quat::from_slice(&a);
                let qb = Quat::from_slice(&b);
                return qa.slerp(qb, s).to_array().to_vec();
            }
            a.iter().zip(&b).map(|(x, y)| x + (y - x) * s).collect()
        }
        I::CubicSpline => {
            let d = t1 - t0;
            let (p0, m0, p1, m1) = (key(k, 1), key(k, 2), key(k + 1, 1), key(k + 1, 0));
            let (s2, s3) = (s * s, s * s * s);
            let h = [2.0 * s3 - 3.0 * s2 + 1.0, s3 - 2.0 * s2 + s, -2.0 * s3 + 3.0 * s2, s3 - s2];
            (0..n).map(|i| h[0] * p0[i] + h[1] * d * m0[i] + h[2] * p1[i] + h[3] * d * m1[i]).collect()
        }
    }
}

/// Parse a glb into posed matrices at `frames` frames of `fps` (the clip's), at most
/// `max_frames` frames.
pub fn parse(path: &Path, bytes: &[u8], fps: f64, frames: usize, max_frames: usize) -> Result<Posed, ImportError> {
    let bad = |m: String| ImportError::Input(format!("{}: {m}", path.display()));
    let (json, bin) = chunks(path, bytes)?;
    let root = gj::Root::from_slice(json).map_err(|e| bad(format!("the JSON chunk is not glTF: {e}")))?;
    if frames > max_frames {
        return Err(bad(format!("{frames} frames, more than the limit of {max_frames}")));
    }
    let n = root.nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, node) in root.nodes.iter().enumerate() {
        for c in node.children.iter().flatten() {
            match parent.get_mut(c.value()) {
                Some(p @ None) if c.value() != i => *p = Some(i),
                _ => return Err(bad(format!("node {i}: child {} is not a tree edge", c.value()))),
            }
        }
    }
    let joints: Vec<usize> = match root.skins.first() {
        Some(skin) => skin.joints.iter().map(|j| j.value()).collect(),
        None => (0..n).filter(|&i| root.nodes.get(i).is_some_and(|x| x.name.is_some())).collect(),
    };
    let mut bones = Vec::with_capacity(joints.len());
    for &j in &joints {
        let name =
            root.nodes.get(j).and_then(|x| x.name.clone()).ok_or_else(|| bad(format!("joint node {j} has no name")))?;
        if bones.contains(&name) {
            return Err(bad(format!("two joints are named {}", crate::model::sanitize(&name))));
        }
        bones.push(name);
    }
    let mut tracks = Vec::new();
    if let Some(anim) = root.animations.first() {
        for (ci, ch) in anim.channels.iter().enumerate() {
            let Checked::Valid(path_kind) = ch.target.path else { continue };
            if path_kind == gj::animation::Property::MorphTargetWeights {
                continue;
            }
            let s = anim.samplers.get(ch.sampler.value()).ok_or_else(|| bad(format!("channel {ci}: no sampler")))?;
            let interp = match s.interpolation {
                Checked::Valid(i) => i,
                Checked::Invalid => return Err(bad(format!("channel {ci}: unknown interpolation"))),
            };
            let what = format!("animation channel {ci}");
            let (times, _) = floats(&root, bin, s.input.value(), &what).map_err(bad)?;
            let (values, width) = floats(&root, bin, s.output.value(), &what).map_err(bad)?;
            if times.windows(2).any(|w| w[1] < w[0]) {
                return Err(bad(format!("{what}: key times decrease")));
            }
            tracks.push(Track { node: ch.target.node.value(), path: path_kind, interp, times, values, width });
        }
    }
    // Blender armature space from glTF: M = Y⁻¹ · G · Y
    let y = crate::export::gltf::blender_to_gltf();
    let y_inv = y.inverse();
    let mut out = Vec::with_capacity(frames);
    for f in 0..frames {
        let time = (f as f64 / fps) as f32;
        let mut local: Vec<Mat4> = Vec::with_capacity(n);
        for (i, node) in root.nodes.iter().enumerate() {
            if let Some(m) = node.matrix {
                local.push(Mat4::from_cols_array(&m));
                continue;
            }
            let mut t = Vec3::from(node.translation.unwrap_or([0.0; 3]));
            let mut r = Quat::from_array(node.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| q.0));
            let mut s = Vec3::from(node.scale.unwrap_or([1.0; 3]));
            for tr in tracks.iter().filter(|tr| tr.node == i) {
                use gj::animation::Property as P;
                match tr.path {
                    P::Translation if tr.width == 3 => t = Vec3::from_slice(&sample(tr, time, 3)),
                    P::Rotation if tr.width == 4 => r = Quat::from_slice(&sample(tr, time, 4)).normalize(),
                    P::Scale if tr.width == 3 => s = Vec3::from_slice(&sample(tr, time, 3)),
                    _ => return Err(bad(format!("node {i}: a channel of the wrong width"))),
                }
            }
            local.push(Mat4::from_scale_rotation_translation(s, r, t));
        }
        let mut world: Vec<Option<Mat4>> = vec![None; n];
        let mut row = Vec::with_capacity(joints.len());
        for &j in &joints {
            // the chain of ancestors, composed root first (a tree: at most n steps)
            let mut chain = vec![j];
            while let Some(p) = chain.last().and_then(|&c| parent.get(c).copied().flatten()) {
                if chain.len() > n {
                    break;
                }
                chain.push(p);
            }
            let mut m = Mat4::IDENTITY;
            for &c in chain.iter().rev() {
                if let Some(w) = world.get(c).copied().flatten() {
                    m = w;
                    continue;
                }
                m *= local.get(c).copied().unwrap_or(Mat4::IDENTITY);
                if let Some(slot) = world.get_mut(c) {
                    *slot = Some(m);
                }
            }
            row.push(y_inv * m * y);
        }
        out.push(row);
    }
    Ok(Posed { bones, frames: out })
}

/// The frames a glb's first animation spans at `fps`: its last key time × fps, rounded, + 1.
pub fn frame_count(path: &Path, bytes: &[u8], fps: f64) -> Result<usize, ImportError> {
    let bad = |m: String| ImportError::Input(format!("{}: {m}", path.display()));
    let (json, bin) = chunks(path, bytes)?;
    let root = gj::Root::from_slice(json).map_err(|e| bad(format!("the JSON chunk is not glTF: {e}")))?;
    let anim = root.animations.first().ok_or_else(|| bad("no animation".into()))?;
    let mut last = 0f32;
    for s in &anim.samplers {
        let (times, _) = floats(&root, bin, s.input.value(), "animation sampler").map_err(bad)?;
        last = times.iter().copied().fold(last, f32::max);
    }
    Ok((f64::from(last) * fps).round() as usize + 1)
}
