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

/// Encode an RGBA8 image (rows top-down) as PNG.
pub fn png_rgba(img: &Image) -> Vec<u8> {
    let mut out = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend(img.width.to_be_bytes());
    ihdr.extend(img.height.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]); // 8-bit RGBA, deflate, no filter method choice, no interlace
    png_chunk(&mut out, b"IHDR", &ihdr);
    let row = img.width as usize * 4;
    let mut raw = Vec::with_capacity((row + 1) * img.height as usize);
    for r in img.rgba.chunks(row.max(1)).take(img.height as usize) {
        raw.push(0); // filter: none
        raw.extend(r);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    let _ = z.write_all(&raw);
    let idat = z.finish().unwrap_or_default();
    png_chunk(&mut out, b"IDAT", &idat);
    png_chunk(&mut out, b"IEND", &[]);
    out
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
/// reading `v NaN NaN NaN` draws nothing or garbage), as in the glTF export.
pub fn obj_files(scene: &Scene, stem: &str) -> Result<ObjFiles, ExportError> {
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
    let mut pngs: Vec<(String, Vec<u8>)> = Vec::new();
    let mut written = vec![false; scene.images.len()];
    for (mat, name) in scene.materials.iter().zip(&mat_names) {
        let _ = writeln!(mtl, "newmtl {name}\nKd 1 1 1");
        if let Some(((_, img), stem)) = mat.texture.and_then(|t| scene.images.get(t).zip(png_stems.get(t))) {
            let file = format!("{stem}.png");
            let _ = writeln!(mtl, "map_Kd {file}");
            if let Some(w) = mat.texture.and_then(|t| written.get_mut(t))
                && !*w
            {
                *w = true;
                pngs.push((file, png_rgba(img)));
            }
        }
    }
    Ok(ObjFiles { obj, mtl, pngs })
}

/// Write the OBJ, its MTL (named after the OBJ's stem) and PNG textures beside it, all or
/// nothing: every target is checked first (existing files only with `force`, regular files
/// only, the folder must exist), then all are written and renamed together. Returns a
/// one-line summary. Each file is held to `max_output` bytes (`--limit output=…`). Used
/// by the CLI and the TUI.
pub fn write_obj(scene: &Scene, out_path: &Path, force: bool, max_output: u64) -> Result<String, ExportError> {
    let stem = stem(out_path);
    let files = obj_files(scene, &stem)?;
    let dir = out_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut targets =
        vec![(out_path.to_path_buf(), files.obj.as_bytes()), (dir.join(format!("{stem}.mtl")), files.mtl.as_bytes())];
    targets.extend(files.pngs.iter().map(|(n, b)| (dir.join(n), b.as_slice())));
    super::write_all_or_nothing(&targets, force, max_output)?;
    let verts: usize = scene.meshes.iter().map(|m| m.positions.len()).sum();
    let tris: usize = scene.meshes.iter().map(|m| m.triangles.len()).sum();
    Ok(format!(
        "wrote {}: {} meshes, {verts} vertices, {tris} triangles, {} textures ({})",
        out_path.display(),
        scene.meshes.len(),
        files.pngs.len(),
        scene.notes.join("; ")
    ))
}

/// The name an OBJ written to `out_path` gives its `.mtl` (the file stem, or `scene`).
pub fn stem(out_path: &Path) -> String {
    out_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "scene".into())
}
