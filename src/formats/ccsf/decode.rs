//! Decoding a parsed CCSF file: Anime and frame-section clips (`clip.rs`), the scene's
//! meshes posed at rest, at an Anime frame or at a stream frame, and textures through their
//! CLUTs.

use super::mesh::{Mesh, MmatKind};
use super::pose::ObjMap;
use super::texture::Image;
use super::walk::Section;
use super::{clip, mesh, parse, pose, raw, texture};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::DecodeOptions;
use crate::formats::record::read_at;
use crate::limits::Limits;
use crate::model::anim::Clip;
use glam::Mat4;
use std::collections::HashMap;

/// The clip of `key` (`anime:NAME` or `frames`).
pub(super) fn decode_parsed(
    data: &[u8],
    p: &parse::Parsed,
    scene: &pose::SceneObjs,
    key: &str,
    opts: &DecodeOptions,
    limits: &Limits,
) -> Result<Clip> {
    if let Some(name) = key.strip_prefix("anime:") {
        let play = opts.extra.get("frames").and_then(|s| s.trim().parse::<u32>().ok());
        clip::anime_clip(p, scene, clip::find_anime(data, p, name, limits)?, play, limits)
    } else if key == "frames" {
        clip::frames_clip(data, p, scene, limits)
    } else {
        Err(ParseError::new(0, ErrorKind::NotFound(format!("{key}: ccsf decodes anime:NAME or frames"))))
    }
}

/// Decode the Anime chunk at `at` (one the listing found), or the frame section when
/// `at` is None: the chunk is not looked up again by name.
pub(super) fn decode_chunk(
    data: &[u8],
    p: &parse::Parsed,
    scene: &pose::SceneObjs,
    at: Option<u64>,
    opts: &DecodeOptions,
    limits: &Limits,
) -> Result<Clip> {
    let Some(at) = at else { return clip::frames_clip(data, p, scene, limits) };
    let c = p
        .walk
        .chunks
        .iter()
        .find(|c| c.off == at && c.kind == 0x0700 && c.section == Section::Setup)
        .ok_or_else(|| ParseError::new(at, ErrorKind::NotFound(format!("Anime chunk @0x{at:x}"))))?;
    let play = opts.extra.get("frames").and_then(|s| s.trim().parse::<u32>().ok());
    clip::anime_clip(p, scene, clip::anime_scene(data, p, c, limits)?, play, limits)
}

/// How to pose meshes for export.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Posing<'a> {
    /// Leave vertices in model space (skins: Σ w·p with identity nodes).
    Rest,
    /// Frame `frame` of the Anime chunk named `name` in the same file.
    Anime {
        /// ANM_ object name.
        name: &'a str,
        /// Frame.
        frame: u32,
    },
    /// Stream frame `frame`: from the file's own frame section, or from a paired frame
    /// file (objects matched by name and source path minus its first character).
    Frames {
        /// The paired frame file (`strNNNN.tmp`), if not this file.
        frames_file: Option<&'a [u8]>,
        /// Frame.
        frame: u32,
    },
}

/// A material of an exported scene.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterialInfo {
    /// Material object number (what mmats refer to).
    pub object: u32,
    /// MAT_ name.
    pub name: String,
    /// Index in [`SceneMeshes::textures`] of its texture, if it has one that decodes.
    pub texture: Option<usize>,
}

/// Meshes (posed or not), materials and decoded textures of a file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SceneMeshes {
    /// Every mmat of the selected models.
    pub meshes: Vec<Mesh>,
    /// Materials the meshes use.
    pub materials: Vec<MaterialInfo>,
    /// Decoded textures (level 0): (texture object number, TEX_ name, image), one per object.
    pub textures: Vec<(u32, String, Image)>,
    /// What was done (posing source, skipped models).
    pub notes: Vec<String>,
}

fn frames_worlds(
    data: &[u8],
    p: &parse::Parsed,
    s: &pose::SceneObjs,
    frames_file: Option<&[u8]>,
    frame: u32,
    limits: &Limits,
) -> Result<ObjMap<Mat4>> {
    match frames_file {
        None => {
            let fs = clip::frame_scene(data, p)?;
            s.worlds(&clip::frame_locals(&fs, frame), &ObjMap::default(), limits.max_depth)
        }
        Some(fdata) => {
            let fp = parse::parse(fdata, limits).map_err(|e| e.within("frames file"))?;
            let fscene = pose::collect(fdata, &fp, limits.max_depth).map_err(|e| e.within("frames file"))?;
            let fs = clip::frame_scene(fdata, &fp)?;
            let fw = fscene.worlds(&clip::frame_locals(&fs, frame), &ObjMap::default(), limits.max_depth)?;
            let key = |ix: &parse::Index, o: u32| -> Option<(Vec<u8>, Vec<u8>)> {
                let (name, file, ..) = ix.object(o as usize)?;
                let path =
                    ix.file(usize::from(file)).map(|(p, _)| p.get(1..).unwrap_or(&[]).to_vec()).unwrap_or_default();
                Some((name.to_vec(), path))
            };
            let mut by_key: HashMap<(Vec<u8>, Vec<u8>), u32> = HashMap::new();
            for i in 1..p.index.objects_len() as u32 {
                if let Some(k) = key(&p.index, i) {
                    by_key.entry(k).or_insert(i);
                }
            }
            let mut out = s.worlds(&ObjMap::default(), &ObjMap::default(), limits.max_depth)?;
            for (o, w) in fw {
                if let Some(k) = key(&fp.index, o)
                    && let Some(mo) = by_key.get(&k)
                {
                    out.insert(*mo, w);
                }
            }
            Ok(out)
        }
    }
}

/// Decode the models of a file (all, or the one named `model`) into meshes, posed as asked,
/// with their materials and textures.
pub fn scene_meshes(data: &[u8], model: Option<&str>, posing: Posing<'_>, limits: &Limits) -> Result<SceneMeshes> {
    let p = parse::parse(data, limits)?;
    scene_meshes_of(data, &p, None, model, posing, limits)
}

/// Bytes one mesh of a scene holds (its vertex arrays, triangles and bindings; names and
/// vector headers counted at their size), what the scene's budget is charged for it.
fn mesh_bytes(m: &Mesh) -> u64 {
    use std::mem::size_of;
    let binding: usize = m.binding.iter().flatten().map(|(n, _)| size_of::<(String, f32)>() + n.len()).sum();
    let influences: usize =
        m.influences.iter().map(|v| size_of::<Vec<mesh::Influence>>() + std::mem::size_of_val(v.as_slice())).sum();
    let bytes = size_of::<Mesh>()
        + m.model.len()
        + m.positions.len() * size_of::<glam::Vec3>()
        + m.normals.len() * size_of::<glam::Vec3>()
        + m.uvs.len() * size_of::<[f32; 2]>()
        + m.colours.len() * size_of::<[f32; 4]>()
        + m.flags.len()
        + m.triangles.len() * size_of::<[u32; 3]>()
        + m.binding.len() * size_of::<Vec<(String, f32)>>()
        + binding
        + influences;
    bytes as u64
}

/// [`scene_meshes`] of a file already walked (`p`), with its objects when they were
/// collected already (a parsed file keeps them from its first decode).
pub(in crate::formats) fn scene_meshes_of(
    data: &[u8],
    p: &parse::Parsed,
    objects: Option<&pose::SceneObjs>,
    model: Option<&str>,
    posing: Posing<'_>,
    limits: &Limits,
) -> Result<SceneMeshes> {
    if let Some(e) = &p.walk.lost {
        return Err(e.clone().within("walk"));
    }
    let b = Bytes::new(data);
    let collected;
    let s = match objects {
        Some(s) => s,
        None => {
            collected = pose::collect(data, p, limits.max_depth)?;
            &collected
        }
    };
    // Gen-2 clumps carry a bind pose: at rest their nodes stand in it (docs/formats/ccsf-gen2.md#clump-0x0900-bind-poses).
    let bind_rest = !s.rest.is_empty();
    let worlds = match posing {
        Posing::Rest if bind_rest => Some(s.worlds(&ObjMap::default(), &ObjMap::default(), limits.max_depth)?),
        Posing::Rest => None,
        Posing::Anime { name, frame } => {
            let a = clip::find_anime(data, p, name, limits)?;
            let (l, pa) = clip::anime_locals(&a, s, frame, limits.max_depth)?;
            Some(s.worlds(&l, &pa, limits.max_depth)?)
        }
        Posing::Frames { frames_file, frame } => Some(frames_worlds(data, p, s, frames_file, frame, limits)?),
    };
    let mut out = SceneMeshes::default();
    out.notes.push(match posing {
        Posing::Rest if bind_rest => "posed by the clumps' bind poses (no animation)".to_string(),
        Posing::Rest => "unposed: model space".to_string(),
        Posing::Anime { name, frame } => format!("posed at frame {frame} of {name}"),
        Posing::Frames { frames_file: Some(_), frame } => {
            format!("posed at stream frame {frame} of the paired frame file")
        }
        Posing::Frames { frames_file: None, frame } => format!("posed at stream frame {frame}"),
    });
    // The scene's meshes and textures are charged to one budget as they are made (a file of
    // thousands of small models and textures makes as many of each, all held until the
    // export is written): meshes past `--limit memory=` refuse the scene with the budget
    // error; a texture past it is left out with a note saying so, as other undecodable
    // textures are.
    let budget = crate::limits::Budget::new(limits.max_memory);
    let mut held = budget.reserve("the scene's meshes and textures", 0, 0)?;
    let mut found = false;
    for c in p.walk.chunks.iter().filter(|c| c.kind == 0x0800 && c.section == Section::Setup) {
        // decoded once: at open when the document's skeleton did, else here
        let decoded;
        let m = match p.models.binary_search_by_key(&c.off, |(at, _)| *at).ok().and_then(|i| p.models.get(i)) {
            Some((_, Ok(m))) => m,
            _ => {
                decoded = mesh::parse_model(&b, c.off, p.walk.version, limits)
                    .map_err(|e| e.within(format!("Model @0x{:x}", c.off)))?;
                &decoded
            }
        };
        let name = p.index.name(m.object);
        if model.is_some_and(|x| x != name) {
            continue;
        }
        found = true;
        let mut ms = mesh::meshes(m, Some(&p.index))?;
        pose::bind_meshes(&mut ms, m.object, s, &p.index, limits.max_depth)?;
        held.grow("the scene's meshes and textures", ms.iter().map(mesh_bytes).sum(), c.off)?;
        if let Some(w) = &worlds {
            pose::pose_meshes(&mut ms, m.object, s, w, limits.max_depth)?;
        }
        out.meshes.extend(ms);
    }
    if let Some(mname) = model
        && !found
    {
        return Err(ParseError::new(0, ErrorKind::NotFound(format!("model {mname}"))));
    }
    // Materials → textures → images.
    let mut mats: Vec<u32> = out.meshes.iter().map(|m| m.material_index).filter(|m| *m != 0).collect();
    mats.sort_unstable();
    mats.dedup();
    // (object, texture) of every Material, read once: every Material is at least the gen-1
    // record's 4 words, and gen 2's start with the same object and texture words (docs/formats/ccsf-gen2.md#material-0x0200).
    let material_textures: Vec<(u32, u32)> = p
        .walk
        .chunks
        .iter()
        .filter(|c| c.kind == 0x0200)
        .filter_map(|c| {
            let w = b.sub(c.off, c.end).ok()?;
            let m: raw::Material = read_at(&w, c.payload()).ok()?;
            Some((*m.object, *m.texture))
        })
        .collect();
    for mi in mats {
        let tex = material_textures.iter().find(|(o, _)| *o == mi).map(|(_, t)| *t).filter(|t| *t != 0);
        let mut texture = None;
        if let Some(t) = tex {
            let tname = p.index.name(t);
            // keyed by object number: two textures may share a name
            match out.textures.iter().position(|(o, ..)| *o == t) {
                Some(i) => texture = Some(i),
                None => match texture_object(data, p, t, 0, limits, Some(&mut held)) {
                    Some(Ok(i)) => {
                        texture = Some(out.textures.len());
                        out.textures.push((t, tname, i));
                    }
                    Some(Err(e)) => out.notes.push(format!("texture {tname} not decoded: {e}")),
                    None => out.notes.push(format!("texture {tname} not in this file")),
                },
            }
        }
        out.materials.push(MaterialInfo { object: mi, name: p.index.name(mi), texture });
    }
    Ok(out)
}

/// The scene of a file already walked, with its objects when collected.
pub(in crate::formats) fn scene_of(
    data: &[u8],
    p: &parse::Parsed,
    objects: Option<&pose::SceneObjs>,
    req: &crate::model::mesh::SceneRequest,
    limits: &Limits,
) -> Result<crate::model::mesh::Scene> {
    let s = scene_meshes_of(data, p, objects, req.model.as_deref(), posing_of(&req.pose), limits)?;
    Ok(model_scene(s))
}

fn posing_of(pose: &crate::model::mesh::ScenePose) -> Posing<'_> {
    use crate::model::mesh::ScenePose;
    match pose {
        ScenePose::Rest => Posing::Rest,
        ScenePose::Animation { name, frame } => Posing::Anime { name, frame: *frame },
        ScenePose::Frame { frame, paired } => Posing::Frames { frames_file: paired.as_deref(), frame: *frame },
    }
}

/// The scene's meshes in the model's form (what exporters consume).
fn model_scene(s: SceneMeshes) -> crate::model::mesh::Scene {
    use crate::model::mesh as m;
    let kind = |k: MmatKind| match k {
        MmatKind::Rigid => m::MeshKind::Rigid,
        MmatKind::Bone => m::MeshKind::Bone,
        MmatKind::Skin => m::MeshKind::Skin,
        MmatKind::Shadow => m::MeshKind::Shadow,
        // positions in the owner's space; the records' skin words are not applied [I]
        MmatKind::TriList => m::MeshKind::Rigid,
    };
    m::Scene {
        space: "CCSF model space (Z up, right-handed), model units".into(),
        meshes: s
            .meshes
            .into_iter()
            .map(|x| m::Mesh {
                model: x.model,
                part: x.mmat,
                kind: Some(kind(x.kind)),
                material: s.materials.iter().position(|m| m.object == x.material_index && x.material_index != 0),
                positions: x.positions,
                normals: x.normals,
                uvs: x.uvs,
                colours: x.colours,
                triangles: x.triangles,
                binding: x.binding,
            })
            .collect(),
        materials: s.materials.into_iter().map(|x| m::Material { name: x.name, texture: x.texture }).collect(),
        images: s.textures.into_iter().map(|(_, name, image)| (name, image)).collect(),
        notes: s.notes,
    }
}

/// Decode level `level` of the texture named `name` through its CLUT.
pub fn decode_texture(data: &[u8], name: &str, level: usize, limits: &Limits) -> Result<Image> {
    let p = parse::parse(data, limits)?;
    let t = p
        .index
        .find(name.as_bytes())
        .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("object {name}"))))?;
    texture_object(data, &p, t, level, limits, None)
        .unwrap_or_else(|| Err(ParseError::new(0, ErrorKind::NotFound(format!("texture {name}")))))
}

/// Decode mip `level` of the Texture chunk at `chunk_off` through its CLUT, with its pixel
/// format and CLUT named, for previews. The decoded pixels are charged to `limits`' memory
/// budget before they are allocated. None when no Texture chunk starts there.
pub(in crate::formats) fn texture_image_at(
    data: &[u8],
    p: &parse::Parsed,
    chunk_off: u64,
    level: usize,
    limits: &Limits,
) -> Option<Result<crate::model::image::DecodedImage>> {
    let b = Bytes::new(data);
    let c = p.walk.chunks.iter().find(|c| c.kind == 0x0300 && c.off == chunk_off)?;
    Some((|| {
        let td = texture::parse_texture(&b, c.off, p.walk.version, limits)?;
        if let Some((w, h)) = td.level_size(level) {
            limits.spend_clip("the texture's decoded pixels", w.saturating_mul(h).saturating_mul(4), c.off)?;
        }
        let format = if td.gen2 && td.psm == 0 { "RGBA32" } else { super::raw::psm_name(td.psm) };
        if !td.needs_clut() {
            let img = texture::decode_level(data, &td, None, level)?;
            return Ok(crate::model::image::DecodedImage::new(img, format, None, level));
        }
        let cc = p
            .walk
            .chunks
            .iter()
            .find(|k| k.kind == 0x0400 && k.object(&b) == Some(td.clut))
            .ok_or_else(|| ParseError::new(td.clut_at, ErrorKind::NotFound("clut of the texture".into())))?;
        let cl = texture::parse_clut(&b, cc.off, p.walk.version, limits)?;
        let img = texture::decode_level(data, &td, Some(&cl), level)?;
        Ok(crate::model::image::DecodedImage::new(img, format, Some(p.index.name(td.clut)), level))
    })())
}

/// Decode mip `level` of the Texture chunk for object `t` through its CLUT; None when the
/// file has no Texture chunk for that object.
fn texture_object(
    data: &[u8],
    p: &parse::Parsed,
    t: u32,
    level: usize,
    limits: &Limits,
    held: Option<&mut crate::limits::Charge>,
) -> Option<Result<Image>> {
    let b = Bytes::new(data);
    let c = p.walk.chunks.iter().find(|c| c.kind == 0x0300 && c.object(&b) == Some(t))?;
    Some((|| {
        let td = texture::parse_texture(&b, c.off, p.walk.version, limits)?;
        // its pixels charged before they are decoded
        let (w, h) = td.level_size(level).unwrap_or((0, 0));
        let pixels = w.saturating_mul(h).saturating_mul(4);
        match held {
            Some(held) => held.grow("the scene's meshes and textures", pixels, c.off)?,
            None => limits.spend_clip("the texture's decoded pixels", pixels, c.off)?,
        }
        if !td.needs_clut() {
            return texture::decode_level(data, &td, None, level);
        }
        let cc = p
            .walk
            .chunks
            .iter()
            .find(|k| k.kind == 0x0400 && k.object(&b) == Some(td.clut))
            .ok_or_else(|| ParseError::new(c.off, ErrorKind::NotFound("clut of the texture".into())))?;
        let cl = texture::parse_clut(&b, cc.off, p.walk.version, limits)?;
        texture::decode_level(data, &td, Some(&cl), level)
    })())
}
