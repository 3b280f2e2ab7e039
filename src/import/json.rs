//! Reading animscope's own matrix JSON (`sc6-armature-matrices-v1`, what `export` writes,
//! docs/GUIDE.md#matrix-json) back: per frame, one row-major 4×4 matrix per armature bone in
//! Blender armature space.

use super::{ImportError, Posed};
use glam::Mat4;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Deserialize)]
struct MatrixFile {
    schema: String,
    #[serde(default)]
    matrix_space: Option<String>,
    frames: Vec<MatrixFrame>,
}

#[derive(Deserialize)]
struct MatrixFrame {
    #[serde(default)]
    frame: Option<usize>,
    bones: BTreeMap<String, Vec<f64>>,
}

/// Parse matrix JSON `text` (read from `path`, named in errors). Every frame must name the
/// same bones, every matrix 16 finite numbers, frames numbered 0, 1, 2… when numbered; at
/// most `max_frames` frames.
pub fn parse(path: &Path, text: &[u8], max_frames: usize) -> Result<Posed, ImportError> {
    let bad = |m: String| ImportError::Input(format!("{}: {m}", path.display()));
    let f: MatrixFile = serde_json::from_slice(text).map_err(|e| bad(format!("not matrix JSON: {e}")))?;
    if f.schema != crate::export::SCHEMA {
        return Err(bad(format!(
            "schema is {}, expected {}",
            crate::model::sanitize(&f.schema),
            crate::export::SCHEMA
        )));
    }
    if let Some(space) = &f.matrix_space
        && space != "blender_armature"
    {
        return Err(bad(format!("matrix_space is {}, expected blender_armature", crate::model::sanitize(space))));
    }
    if f.frames.is_empty() {
        return Err(bad("no frames".into()));
    }
    if f.frames.len() > max_frames {
        return Err(bad(format!("{} frames, more than the limit of {max_frames}", f.frames.len())));
    }
    let bones: Vec<String> = f.frames.first().map(|fr| fr.bones.keys().cloned().collect()).unwrap_or_default();
    let mut frames = Vec::with_capacity(f.frames.len());
    for (i, fr) in f.frames.iter().enumerate() {
        if fr.frame.is_some_and(|n| n != i) {
            return Err(bad(format!("frames[{i}] is numbered {}, expected {i}", fr.frame.unwrap_or(0))));
        }
        if fr.bones.len() != bones.len() || !fr.bones.keys().zip(&bones).all(|(a, b)| a == b) {
            return Err(bad(format!("frame {i}: its bones differ from frame 0's")));
        }
        let mut row = Vec::with_capacity(bones.len());
        for (name, m) in &fr.bones {
            let at = || format!("frame {i} bone {}", crate::model::sanitize(name));
            if m.len() != 16 {
                return Err(bad(format!("{}: {} numbers, expected 16", at(), m.len())));
            }
            if let Some(v) = m.iter().find(|v| !v.is_finite() || v.abs() > 1e9) {
                return Err(bad(format!("{}: value {v} is not a finite matrix element", at())));
            }
            let mut a = [0f32; 16];
            for (d, s) in a.iter_mut().zip(m) {
                *d = *s as f32;
            }
            // row-major with column vectors: the transpose of glam's column-major array
            row.push(Mat4::from_cols_array(&a).transpose());
        }
        frames.push(row);
    }
    Ok(Posed { bones, frames })
}
