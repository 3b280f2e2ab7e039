//! Wavefront OBJ (+ MTL, + PNG textures) export of a [`Scene`] (a format's meshes, unposed
//! or posed as the scene was built). PNG is written by a small encoder here (zlib and CRC-32
//! from flate2), so no image crate is needed.

use super::ExportError;
use crate::model::mesh::{Image, MeshKind, Scene};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// The files of one OBJ export.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjFiles {
    /// The `.obj` text.
    pub obj: String,
    /// The `.mtl` text.
    pub mtl: String,
    /// PNG files (file name, bytes).
    pub pngs: Vec<(String, Vec<u8>)>,
}

fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend((data.len() as u32).to_be_bytes());
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    out.extend(kind);
    out.extend(data);
    out.extend(crc.sum().to_be_bytes());
}

/// Encode an RGBA8 image (rows top-down) as PNG (with a deflate state of its own; an
/// export of many textures uses one [`PngEncoder`] for all).
pub fn png_rgba(img: &Image) -> Vec<u8> {
    PngEncoder::new().encode(img)
}

/// A PNG encoder whose deflate state (about 300 KB) and row buffer are made once and reused
/// for every texture of an export. Why: a deflate state made and dropped per texture, while
/// each finished PNG stays allocated, left the allocator's heap a ladder of holes each a
/// little too small for the next state: an export of 2,200 small textures grew to ~700 MB
/// of resident memory in some runs (issue 51, class 6).
pub struct PngEncoder {
    z: flate2::write::ZlibEncoder<Vec<u8>>,
    raw: Vec<u8>,
}

impl Default for PngEncoder {
    fn default() -> Self {
        PngEncoder::new()
    }
}

impl PngEncoder {
    /// A new encoder (default compression).
    pub fn new() -> PngEncoder {
        PngEncoder { z: flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default()), raw: Vec::new() }
    }

    /// Encode an RGBA8 image (rows top-down) as PNG.
    pub fn encode(&mut self, img: &Image) -> Vec<u8> {
        let mut out = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
        let mut ihdr = Vec::with_capacity(13);
        ihdr.extend(img.width.to_be_bytes());
        ihdr.extend(img.height.to_be_bytes());
        ihdr.extend([8, 6, 0, 0, 0]); // 8-bit RGBA, deflate, no filter method choice, no interlace
        png_chunk(&mut out, b"IHDR", &ihdr);
        let row = img.width as usize * 4;
        self.raw.clear();
        for r in img.rgba.chunks(row.max(1)).take(img.height as usize) {
            self.raw.push(0); // filter: none
            self.raw.extend(r);
        }
        let _ = self.z.write_all(&self.raw);
        // finishes this stream and starts the next with the same state
        let idat = self.z.reset(Vec::new()).unwrap_or_default();
        png_chunk(&mut out, b"IDAT", &idat);
        png_chunk(&mut out, b"IEND", &[]);
        out
    }
}

fn safe_name(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' { c } else { '_' }).collect()
}

/// The name of every material of `scene` in the MTL, and the PNG file stem of every image:
/// one per entry (two materials or textures with one name are two entries), made safe and
/// unique ([`super::names::unique_per_entry`]); the glTF export names them the same way.
pub fn entry_names(scene: &Scene) -> (Vec<String>, Vec<String>) {
    let mats: Vec<String> = scene.materials.iter().map(|m| m.name.clone()).collect();
    let imgs: Vec<String> = scene.images.iter().map(|(n, _)| n.clone()).collect();
    (super::names::unique_per_entry(&mats), super::names::unique_per_entry(&imgs))
}

/// Build OBJ, MTL and PNGs for `scene`; `stem` names the `.mtl` the OBJ refers to. A
/// non-finite position, normal or texture coordinate is an error naming the mesh (a viewer
/// reading `v NaN NaN NaN` draws nothing or garbage), as in the glTF export. In memory;
/// [`write_obj`] writes the same files with one PNG held at a time.
pub fn obj_files(scene: &Scene, stem: &str) -> Result<ObjFiles, ExportError> {
    let text = obj_text(scene, stem)?;
    let mut png = PngEncoder::new();
    let pngs =
        text.pngs.iter().filter_map(|(file, i)| Some((file.clone(), png.encode(&scene.images.get(*i)?.1)))).collect();
    Ok(ObjFiles { obj: text.obj, mtl: text.mtl, pngs })
}

/// The OBJ and MTL text of an export, and the PNG files it names: (file name, index of the
/// image in the scene), each image once.
struct ObjText {
    obj: String,
    mtl: String,
    pngs: Vec<(String, usize)>,
}

fn obj_text(scene: &Scene, stem: &str) -> Result<ObjText, ExportError> {
    let (mat_names, png_stems) = entry_names(scene);
    let mut obj = String::new();
    let _ = writeln!(obj, "# animscope {} CCSF export", env!("CARGO_PKG_VERSION"));
    for n in &scene.notes {
        let _ = writeln!(obj, "# {n}");
    }
    let _ = writeln!(obj, "# axes: {}", scene.space);
    let _ = writeln!(obj, "mtllib {stem}.mtl");
    let (mut vbase, mut tbase, mut nbase) = (1usize, 1usize, 1usize);
    for m in &scene.meshes {
        let kind = m.kind.map_or("mesh", MeshKind::name);
        let label = format!("{}_mmat{}_{kind}", safe_name(&m.model), m.part);
        let finite =
            m.positions.iter().chain(&m.normals).flat_map(|v| v.to_array()).chain(m.uvs.iter().flatten().copied());
        if let Some(bad) = finite.into_iter().find(|v| !v.is_finite()) {
            return Err(ExportError::Scene(crate::error::ParseError::new(
                0,
                crate::error::ErrorKind::Other(format!("{label}: non-finite vertex value {bad}")),
            )));
        }
        let _ = writeln!(obj, "o {label}");
        if let Some(name) = m.material.and_then(|i| mat_names.get(i)) {
            let _ = writeln!(obj, "usemtl {name}");
        }
        for p in &m.positions {
            let _ = writeln!(obj, "v {} {} {}", p.x, p.y, p.z);
        }
        let has_uv = m.uvs.len() == m.positions.len() && !m.uvs.is_empty();
        let has_n = m.normals.len() == m.positions.len() && !m.normals.is_empty();
        if has_uv {
            for t in &m.uvs {
                let _ = writeln!(obj, "vt {} {}", t[0], t[1]);
            }
        }
        if has_n {
            for n in &m.normals {
                let _ = writeln!(obj, "vn {} {} {}", n.x, n.y, n.z);
            }
        }
        if m.kind == Some(MeshKind::Shadow) {
            let _ = writeln!(obj, "# shadow volume");
        }
        for t in &m.triangles {
            let idx = |i: u32| {
                let i = i as usize;
                match (has_uv, has_n) {
                    (true, true) => format!("{}/{}/{}", vbase + i, tbase + i, nbase + i),
                    (true, false) => format!("{}/{}", vbase + i, tbase + i),
                    (false, true) => format!("{}//{}", vbase + i, nbase + i),
                    (false, false) => format!("{}", vbase + i),
                }
            };
            let _ = writeln!(obj, "f {} {} {}", idx(t[0]), idx(t[1]), idx(t[2]));
        }
        vbase += m.positions.len();
        if has_uv {
            tbase += m.uvs.len();
        }
        if has_n {
            nbase += m.normals.len();
        }
    }
    let mut mtl = String::new();
    let mut pngs: Vec<(String, usize)> = Vec::new();
    let mut written = vec![false; scene.images.len()];
    for (mat, name) in scene.materials.iter().zip(&mat_names) {
        let _ = writeln!(mtl, "newmtl {name}\nKd 1 1 1");
        if let Some((t, stem)) =
            mat.texture.filter(|t| *t < scene.images.len()).and_then(|t| Some((t, png_stems.get(t)?)))
        {
            let file = format!("{stem}.png");
            let _ = writeln!(mtl, "map_Kd {file}");
            if let Some(w) = written.get_mut(t)
                && !*w
            {
                *w = true;
                pngs.push((file, t));
            }
        }
    }
    Ok(ObjText { obj, mtl, pngs })
}

/// Write the OBJ, its MTL (named after the OBJ's stem) and PNG textures beside it, all or
/// nothing: every target is checked first (existing files only with `force`, regular files
/// only, the folder must exist), then all are written and renamed together. Each PNG is
/// encoded when its file is written and dropped after it (one texture's PNG held at a
/// time, one descriptor open at a time). Returns a one-line summary. The files together
/// are held to `max_output` bytes (`--limit output=…`). Used by the CLI and the TUI.
pub fn write_obj(scene: &Scene, out_path: &Path, force: bool, max_output: u64) -> Result<String, ExportError> {
    let stem = stem(out_path);
    let files = obj_text(scene, &stem)?;
    let dir = out_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mtl_path = dir.join(format!("{stem}.mtl"));
    let png_paths: Vec<std::path::PathBuf> = files.pngs.iter().map(|(n, _)| dir.join(n)).collect();
    let mut set = super::stream::OutputSet::new(force);
    for p in [out_path, mtl_path.as_path()].into_iter().chain(png_paths.iter().map(|p| p.as_path())) {
        set.check(p).map_err(ExportError::Target)?;
    }
    set.add_bytes(out_path, files.obj.as_bytes(), max_output).map_err(|e| ExportError::io(out_path, e))?;
    set.add_bytes(&mtl_path, files.mtl.as_bytes(), max_output).map_err(|e| ExportError::io(&mtl_path, e))?;
    let mut png = PngEncoder::new();
    for ((_, i), path) in files.pngs.iter().zip(&png_paths) {
        let Some((_, img)) = scene.images.get(*i) else { continue };
        let bytes = png.encode(img);
        set.add_bytes(path, &bytes, max_output).map_err(|e| ExportError::io(path, e))?;
    }
    set.commit().map_err(|e| ExportError::io(out_path, e))?;
    let verts: usize = scene.meshes.iter().map(|m| m.positions.len()).sum();
    let tris: usize = scene.meshes.iter().map(|m| m.triangles.len()).sum();
    Ok(format!(
        "wrote {}: {} meshes, {verts} vertices, {tris} triangles, {} textures ({})",
        out_path.display(),
        scene.meshes.len(),
        png_paths.len(),
        scene.notes.join("; ")
    ))
}

/// The name an OBJ written to `out_path` gives its `.mtl` (the file stem, or `scene`).
pub fn stem(out_path: &Path) -> String {
    out_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "scene".into())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// The IDAT payload of a PNG, inflated: a filter byte (0) before each row.
    fn inflated_rows(png: &[u8]) -> Vec<u8> {
        let mut at = 8;
        let mut idat = Vec::new();
        while at + 8 <= png.len() {
            let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
            if &png[at + 4..at + 8] == b"IDAT" {
                idat.extend_from_slice(&png[at + 8..at + 8 + len]);
            }
            at += 12 + len;
        }
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::ZlibDecoder::new(idat.as_slice()), &mut out).unwrap();
        out
    }

    /// One encoder reused for several images of different sizes makes for each exactly the
    /// PNG a fresh encoder makes, and each inflates to its own rows (not the previous
    /// image's stream continued).
    #[test]
    fn a_reused_png_encoder_makes_each_image_as_a_fresh_one_does() {
        let a = Image { width: 2, height: 1, rgba: vec![1, 2, 3, 4, 5, 6, 7, 8] };
        let b = Image { width: 1, height: 2, rgba: vec![9, 10, 11, 12, 13, 14, 15, 16] };
        let mut enc = PngEncoder::new();
        let (pa, pb, pa2) = (enc.encode(&a), enc.encode(&b), enc.encode(&a));
        assert_eq!(inflated_rows(&pa), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(inflated_rows(&pb), [0, 9, 10, 11, 12, 0, 13, 14, 15, 16]);
        assert_eq!(pa, png_rgba(&a));
        assert_eq!(pb, png_rgba(&b));
        assert_eq!(pa2, pa);
    }
}
