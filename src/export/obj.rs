//! Wavefront OBJ (+ MTL, + PNG textures) export of CCSF models, unposed or posed at an
//! Anime frame or a stream frame. PNG is written by a small encoder here (zlib and CRC-32
//! from flate2), so no image crate is needed.

use crate::cli::{CliError, Outcome};
use crate::formats::ccsf::{self, Image, MmatKind, Posing, SceneMeshes};
use crate::limits::Limits;
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

/// Build OBJ, MTL and PNGs for `scene`; `stem` names the `.mtl` the OBJ refers to.
pub fn obj_files(scene: &SceneMeshes, stem: &str) -> ObjFiles {
    let mut obj = String::new();
    let _ = writeln!(obj, "# animscope {} CCSF export", env!("CARGO_PKG_VERSION"));
    for n in &scene.notes {
        let _ = writeln!(obj, "# {n}");
    }
    let _ = writeln!(obj, "# axes: CCSF model space (Z up, right-handed), model units");
    let _ = writeln!(obj, "mtllib {stem}.mtl");
    let (mut vbase, mut tbase, mut nbase) = (1usize, 1usize, 1usize);
    for m in &scene.meshes {
        let _ = writeln!(obj, "o {}_mmat{}_{}", safe_name(&m.model), m.mmat, m.kind.name());
        if let Some(mat) = &m.material {
            let _ = writeln!(obj, "usemtl {}", safe_name(mat));
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
        if m.kind == MmatKind::Shadow {
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
    let mut pngs = Vec::new();
    for mat in &scene.materials {
        let _ = writeln!(mtl, "newmtl {}\nKd 1 1 1", safe_name(&mat.name));
        if let Some(t) = &mat.texture {
            let file = format!("{}.png", safe_name(t));
            let _ = writeln!(mtl, "map_Kd {file}");
            if !pngs.iter().any(|(n, _)| *n == file)
                && let Some((_, img)) = scene.textures.iter().find(|(n, _)| n == t)
            {
                pngs.push((file, png_rgba(img)));
            }
        }
    }
    ObjFiles { obj, mtl, pngs }
}

/// What `export --obj` was asked for.
#[derive(Debug, Clone, Default)]
pub struct ObjRequest {
    /// Output `.obj` path.
    pub out_path: String,
    /// Overwrite.
    pub force: bool,
    /// Only this model (`MDL_x`).
    pub model: Option<String>,
    /// Anime to pose from.
    pub anime: Option<String>,
    /// Frame to pose at.
    pub frame: Option<u32>,
    /// Paired stream frame file.
    pub frames_from: Option<std::path::PathBuf>,
}

/// The `export --obj` verb over CCSF bytes.
pub fn write_cli(data: &[u8], req: &ObjRequest, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if req.out_path == "-" {
        let (scene, stem) = scene_for(data, req)?;
        out.write_all(obj_files(&scene, &stem).obj.as_bytes())?;
        return Ok(Outcome::Clean);
    }
    let summary = write_files(data, req)?;
    eprintln!("{summary}");
    Ok(Outcome::Clean)
}

fn scene_for(data: &[u8], req: &ObjRequest) -> Result<(SceneMeshes, String), CliError> {
    let limits = Limits::default();
    let frames_bytes = match &req.frames_from {
        Some(p) => Some(std::fs::read(p).map_err(|e| CliError::Usage(format!("{}: {e}", p.display())))?),
        None => None,
    };
    let posing = match (&req.anime, &frames_bytes, req.frame) {
        (Some(a), _, f) => Posing::Anime { name: a, frame: f.unwrap_or(0) },
        (None, Some(b), f) => Posing::Frames { frames_file: Some(b), frame: f.unwrap_or(0) },
        (None, None, Some(f)) => Posing::Frames { frames_file: None, frame: f },
        (None, None, None) => Posing::Rest,
    };
    let scene = ccsf::scene_meshes(data, req.model.as_deref(), posing, &limits)
        .map_err(|err| CliError::Usage(format!("export --obj: {err}")))?;
    let path = Path::new(&req.out_path);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "scene".into());
    Ok((scene, stem))
}

/// Write the OBJ, its MTL and PNG textures beside it (each atomically; existing files only
/// with `force`) and return a one-line summary. Used by the CLI and the TUI.
pub fn write_files(data: &[u8], req: &ObjRequest) -> Result<String, CliError> {
    let (scene, stem) = scene_for(data, req)?;
    let path = Path::new(&req.out_path);
    let files = obj_files(&scene, &stem);
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let io = |p: &Path, e: std::io::Error| CliError::Usage(format!("{}: {e}", p.display()));
    super::write_atomic(path, files.obj.as_bytes(), req.force).map_err(|e| io(path, e))?;
    let mtl = dir.join(format!("{stem}.mtl"));
    super::write_atomic(&mtl, files.mtl.as_bytes(), req.force).map_err(|e| io(&mtl, e))?;
    for (n, b) in &files.pngs {
        let p = dir.join(n);
        super::write_atomic(&p, b, req.force).map_err(|e| io(&p, e))?;
    }
    let verts: usize = scene.meshes.iter().map(|m| m.positions.len()).sum();
    let tris: usize = scene.meshes.iter().map(|m| m.triangles.len()).sum();
    Ok(format!(
        "wrote {}: {} meshes, {verts} vertices, {tris} triangles, {} textures ({})",
        req.out_path,
        scene.meshes.len(),
        files.pngs.len(),
        scene.notes.join("; ")
    ))
}
