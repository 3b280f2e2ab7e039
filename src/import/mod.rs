//! Clip import (`animscope import`): an edited clip read back from animscope's matrix JSON
//! ([`json`]) or a glTF binary ([`gltf`]), converted out of Blender armature space onto the format's own skeleton, and
//! handed to the format ([`crate::formats::ClipImport`]) to re-encode natively; the new
//! document goes back through every container it is nested in (the same rebuild as `set`,
//! [`crate::edit::push_whole`]) and is written to a new file all or nothing.
//!
//! The conversion inverts the export's (crate::export::skeleton):
//! `pose_game = C⁻¹ · pose_blender · rest_blender⁻¹ · C · rest_game`, with the skeleton the
//! export would use (the format's built-in one, or `--skeleton`).
//!
//! Before the output is kept it is opened again: its check may not find what the
//! original's did not (unless forced), and the clip is decoded and posed again and compared
//! with the import bone by bone, frame by frame (largest rotation in degrees and
//! translation in metres). The formats report each channel's largest difference in its
//! stored unit.
//!
//! Unknown: whether a game accepts what its own tools would not have written (Huffman tables,
//! key placement); see each format's page.

pub mod gltf;
pub mod json;

use crate::edit::{EditError, Pushed};
use crate::export::skeleton::SkeletonFile;
use crate::formats::{AnimRef, ChannelFit, DecodeOptions, KeyRule, PoseImport};
use crate::limits::Limits;
use crate::model::{Diagnostic, NodeId, sanitize};
use crate::session::{Nesting, OpenError, Opened};
use crate::source::OpenOptions;
use glam::Mat4;
use std::path::Path;

/// Posed matrices read from an import file: armature bone names and, per frame, one
/// matrix per bone in Blender armature space.
#[derive(Debug, Clone, PartialEq)]
pub struct Posed {
    /// Armature bone names.
    pub bones: Vec<String>,
    /// Per frame, one matrix per bone of `bones`.
    pub frames: Vec<Vec<Mat4>>,
}

/// Why an import wrote nothing: one line naming what and where.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Opening or addressing the input failed.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The import file cannot be used (what and where in the message).
    #[error("{0}")]
    Input(String),
    /// The import was refused (the clip, the bones, the written file).
    #[error("{0}")]
    Refused(String),
}

impl From<EditError> for ImportError {
    fn from(e: EditError) -> Self {
        match e {
            EditError::Open(o) => ImportError::Open(o),
            EditError::Refused(m) | EditError::NewFindings(m) => ImportError::Refused(m),
        }
    }
}

/// What `import` is asked to do.
#[derive(Debug, Clone)]
pub struct ImportRequest<'a> {
    /// The input file (never written).
    pub input: &'a Path,
    /// The clip: an animation name of the input (`3`, `A_WALK_L_02`) or a node address
    /// (`chr001.mot/clip[3]`, `motion.pks/…/seq[A_WALK]`).
    pub clip: &'a str,
    /// The edited clip (`.json` matrix JSON or `.glb`).
    pub from: &'a Path,
    /// The output file.
    pub out: &'a Path,
    /// Key placement.
    pub keys: KeyRule,
    /// Decode options the export was made with (`lr_order`, `euler_order`).
    pub opts: DecodeOptions,
    /// Skeleton file the export was retargeted onto (else the format's built-in one).
    pub skeleton: Option<&'a Path>,
    /// Give an alias its own copy of shared data.
    pub unshare: bool,
    /// A member that no longer fits its extent may grow, moving later members.
    pub grow: bool,
    /// Write even when the written file's check finds what the original's did not.
    pub force: bool,
    /// Replace an existing output file.
    pub overwrite: bool,
    /// Read the output back without mapping it.
    pub no_mmap: bool,
}

/// How far the written clip's poses are from the import, per armature bone.
#[derive(Debug, Clone, PartialEq)]
pub struct BoneDeviation {
    /// Armature bone name.
    pub bone: String,
    /// Largest rotation difference over the frames, degrees.
    pub degrees: f64,
    /// Largest translation difference over the frames, metres (armature units).
    pub metres: f64,
}

/// What `import` did.
#[derive(Debug, Clone, Default)]
pub struct ImportReport {
    /// Path of the clip's node (outer inputs, then the document path).
    pub path: String,
    /// Frames imported.
    pub frames: usize,
    /// Every channel the format wrote, with its largest deviation in its stored unit.
    pub channels: Vec<ChannelFit>,
    /// Every imported bone's deviation as the written file decodes it.
    pub bones: Vec<BoneDeviation>,
    /// What the format and the containers said.
    pub notes: Vec<String>,
    /// Bytes written.
    pub written: u64,
    /// Findings of the written file the original has not, written anyway (`force`).
    pub new_findings: Vec<Diagnostic>,
}

/// The clip `clip` names in `top`: the inputs it is nested in, the document holding it and
/// the animation.
fn locate(top: Opened, clip: &str, limits: &Limits) -> Result<(Nesting, Opened, AnimRef), ImportError> {
    if !clip.contains('/')
        && !clip.contains('@')
        && let Ok(a) = top.require_clips().and_then(|c| c.find_animation(clip))
        && a.is_listed()
    {
        return Ok((Vec::new(), top, a));
    }
    // `MEMBER/…/NAME`: a member's path, then an animation name of the member
    if let Some((member, name)) = clip.rsplit_once('/')
        && !clip.contains('@')
        && !name.is_empty()
        && top.clone_document().resolve_nested(clip, limits).is_err()
    {
        let (mut chain, mut leaf, id) = top.resolve_nested(member, limits)?;
        if leaf.doc().node(id).is_some_and(|n| n.member.is_some()) {
            let inner = leaf.open_member(id, limits)?;
            chain.push((std::mem::replace(&mut leaf, inner), id));
        }
        let a = leaf
            .require_clips()
            .and_then(|c| c.find_animation(name))
            .map_err(|e| ImportError::Refused(format!("{}: {e}", leaf.title())))?;
        if !a.is_listed() {
            return Err(ImportError::Refused(format!("{}: no animation named {}", leaf.title(), sanitize(name))));
        }
        return Ok((chain, leaf, a));
    }
    let (mut chain, mut leaf, mut id) = top.resolve_nested(clip, limits)?;
    if leaf.doc().node(id).is_some_and(|n| n.member.is_some()) {
        let inner = leaf.open_member(id, limits)?;
        chain.push((std::mem::replace(&mut leaf, inner), id));
        id = NodeId::ROOT;
    }
    leaf.doc_mut().expand(id);
    if let Some(a) = leaf.animation_at(id) {
        return Ok((chain, leaf, a));
    }
    let all = if id == NodeId::ROOT { leaf.animations() } else { Vec::new() };
    match all.as_slice() {
        [one] => Ok((chain, leaf, one.clone())),
        _ => Err(ImportError::Refused(format!(
            "{}: {} names no animation ({} in the document it is in); give a clip's node or name",
            leaf.title(),
            sanitize(clip),
            all.len()
        ))),
    }
}

/// The armature's rest and the conversion the export used for each of the clip's posed
/// bones: (format bone index, armature name, C⁻¹ and the right factor of
/// `pose_game = C⁻¹ · B · (rest_blender⁻¹ · C · rest_game)`).
struct Unmap {
    c_inv: Mat4,
    cols: Vec<(usize, String, Mat4)>,
}

impl Unmap {
    fn new(poses: &crate::model::anim::PoseSeq, skel: Option<&SkeletonFile>) -> Result<Unmap, String> {
        let builtin = SkeletonFile::from_poses(poses);
        let skel = skel.unwrap_or(&builtin);
        let c = skel.conversion;
        let mut cols = Vec::new();
        for (i, name) in poses.bones.iter().enumerate() {
            let target = skel.map.get(name).unwrap_or(name);
            if let Some(b) = skel.bones.iter().find(|b| &b.name == target) {
                let rest_game = poses.rest.get(i).copied().unwrap_or(Mat4::IDENTITY);
                cols.push((i, b.name.clone(), b.rest.inverse() * c * rest_game));
            }
        }
        Ok(Unmap { c_inv: c.inverse(), cols })
    }
}

/// Run `import`: see the module docs. `top` is the input as opened.
pub fn import(top: Opened, req: &ImportRequest<'_>) -> Result<ImportReport, ImportError> {
    crate::edit::refuse_same_file(req.input, req.out)?;
    let limits = *top.limits();
    let refuse = |m: String| ImportError::Refused(m);
    let file = req.input.display().to_string();
    let skel = match req.skeleton {
        Some(p) => Some(crate::export::load_skeleton(p, limits.max_side_file).map_err(|e| refuse(e.to_string()))?),
        None => None,
    };
    let before = top.check(&limits).map_err(|e| refuse(format!("{file}: the input does not check: {e}")))?;
    let top_root = top.doc().root().key.to_string();
    let (chain, leaf, anim) = locate(top, req.clip, &limits)?;
    let at = format!("{file}: {}", sanitize(&leaf.title()));
    let head_opts = DecodeOptions { poses_on_demand: true, ..req.opts.clone() };
    let original = leaf
        .require_clips_for(&anim)
        .and_then(|c| c.decode(&anim, &head_opts, leaf.limits()))
        .map_err(|e| refuse(format!("{at}: {e}")))?;
    let head = original
        .poses
        .as_ref()
        .ok_or_else(|| refuse(format!("{at}: {}: this clip has no poses to import onto", sanitize(anim.name()))))?;
    let posed = read_posed(req, &original, head.bones.len(), leaf.limits().max_memory, &limits)?;
    let unmap = Unmap::new(head, skel.as_ref()).map_err(|m| refuse(format!("{at}: {m}")))?;
    let poses =
        format_poses(&posed, head, &unmap, req).map_err(|m| refuse(format!("{at}: {}: {m}", sanitize(anim.name()))))?;
    let importer = leaf
        .import()
        .ok_or_else(|| refuse(format!("{at}: the {} format cannot import clips yet", leaf.format().id())))?;
    let imported = importer
        .import_clip(&anim, &poses, &req.opts, leaf.limits())
        .map_err(|e| refuse(format!("{at}: {}: {e}", sanitize(anim.name()))))?;
    drop(poses);
    let path = leaf.title();
    let mut notes = imported.notes.clone();
    let Pushed { spliced, source, format, notes: more, held } =
        crate::edit::push_whole(chain, &leaf, imported.bytes, req.grow).map_err(|m| refuse(format!("{at}: {m}")))?;
    notes.extend(more);
    drop(leaf);
    let out = req.out.display().to_string();
    let (set, written, tmp) =
        crate::edit::stage_output(req.out, req.overwrite, limits.max_output, &spliced, &source).map_err(refuse)?;
    drop(held);
    let mut after = Opened::open_path(&tmp, OpenOptions { no_mmap: req.no_mmap }, Some(format), &limits)
        .map_err(|e| refuse(format!("{out}: the written file does not open: {e}")))?;
    if let Some(root) = after.doc_mut().node_mut(NodeId::ROOT) {
        root.key = top_root.as_str().into();
    }
    let found = after.check(&limits).map_err(|e| refuse(format!("{out}: the written file does not check: {e}")))?;
    let new_findings = crate::edit::new_findings(&before, &found);
    if !new_findings.is_empty() && !req.force {
        let first = new_findings.first().map(ToString::to_string).unwrap_or_default();
        return Err(refuse(format!(
            "{out}: the written file has {} finding(s) the original has not (first: {first}); nothing written \
             (--force writes it anyway)",
            new_findings.len()
        )));
    }
    let bones = measure(after, req, &posed, skel.as_ref(), &head_opts, &limits)
        .map_err(|m| refuse(format!("{out}: {m}; nothing written")))?;
    set.commit().map_err(|e| refuse(format!("{out}: {e}")))?;
    Ok(ImportReport {
        path,
        frames: posed.frames.len(),
        channels: imported.channels,
        bones,
        notes,
        written,
        new_findings,
    })
}

/// The import file `req.from` read as posed world matrices: matrix JSON, or a glb whose
/// animation spans the clip's frames at its fps. The file and what it is read into are
/// spent from the input's memory budget (`budget_max`) while they are held: for JSON about
/// as much again as its text (each matrix's 16 numbers and its bone's name per frame), for
/// a glb a matrix per joint (`bones` of the clip's) and frame.
fn read_posed(
    req: &ImportRequest<'_>,
    original: &crate::model::anim::Clip,
    bones: usize,
    budget_max: u64,
    limits: &Limits,
) -> Result<Posed, ImportError> {
    let text = crate::source::read_small_file(req.from, limits.max_side_file)
        .map_err(|e| ImportError::Input(e.to_string()))?;
    let ext = req.from.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let budget = crate::limits::Budget::new(budget_max);
    let reading = (text.len() as u64).saturating_mul(2).max(
        (original.pose_frames() as u64).saturating_mul(bones.max(1) as u64 * 128).saturating_add(text.len() as u64),
    );
    let _held = budget
        .reserve("the import file and its matrices", reading, 0)
        .map_err(|e| ImportError::Input(format!("{}: {e}", req.from.display())))?;
    let max_frames = limits.max_keys.max(1);
    match ext.as_str() {
        "json" => json::parse(req.from, &text, max_frames),
        "glb" => {
            let frames = original.pose_frames();
            let spans = gltf::frame_count(req.from, &text, original.fps)?;
            if spans != frames {
                return Err(ImportError::Input(format!(
                    "{}: its animation spans {spans} frames at {} fps, the clip has {frames} (changing a clip's \
                     length is not supported; the scene's fps must be the clip's)",
                    req.from.display(),
                    original.fps
                )));
            }
            gltf::parse(req.from, &text, original.fps, frames, max_frames)
        }
        other => Err(ImportError::Input(format!(
            "{}: .{} is not read; give matrix JSON (.json, what `export` writes) or glTF binary (.glb)",
            req.from.display(),
            sanitize(other)
        ))),
    }
}

/// The import's armature-space matrices as the format's bones pose them: each import bone
/// matched by name to a bone of the clip's skeleton (`head`), its matrix taken out of
/// Blender's armature space; a bone the skeleton lacks is an error naming them all.
fn format_poses(
    posed: &Posed,
    head: &crate::model::anim::PoseSeq,
    unmap: &Unmap,
    req: &ImportRequest<'_>,
) -> Result<PoseImport, String> {
    let mut picked: Vec<(usize, usize, Mat4)> = Vec::new();
    let mut unknown = Vec::new();
    for (j, b) in posed.bones.iter().enumerate() {
        match unmap.cols.iter().find(|(_, n, _)| n == b) {
            Some((i, _, right)) => picked.push((j, *i, *right)),
            None => unknown.push(sanitize(b).into_owned()),
        }
    }
    if !unknown.is_empty() {
        return Err(format!("bones the clip's skeleton ({}) lacks: {}", sanitize(&head.skeleton), unknown.join(", ")));
    }
    let frames: Vec<Vec<Mat4>> = posed
        .frames
        .iter()
        .map(|row| {
            picked.iter().map(|&(j, _, right)| unmap.c_inv * row.get(j).copied().unwrap_or_default() * right).collect()
        })
        .collect();
    let bones: Vec<String> = picked.iter().filter_map(|&(_, i, _)| head.bones.get(i).cloned()).collect();
    Ok(PoseImport { bones, frames, keys: req.keys, unshare: req.unshare })
}

/// The written clip posed again in Blender armature space, compared with the import: each
/// imported bone's largest rotation (degrees) and translation (metres) difference.
fn measure(
    after: Opened,
    req: &ImportRequest<'_>,
    posed: &Posed,
    skel: Option<&SkeletonFile>,
    opts: &DecodeOptions,
    limits: &Limits,
) -> Result<Vec<BoneDeviation>, String> {
    let (_, leaf, anim) = locate(after, req.clip, limits).map_err(|e| format!("the clip is gone: {e}"))?;
    let clip = leaf
        .require_clips_for(&anim)
        .and_then(|c| c.decode(&anim, opts, leaf.limits()))
        .map_err(|e| format!("the clip does not decode: {e}"))?;
    let poses = clip.poses.as_ref().ok_or("the written clip has no poses")?;
    let map = crate::export::skeleton::BlenderMap::new(poses, skel)?;
    if clip.pose_frames() != posed.frames.len() {
        return Err(format!("the written clip has {} frames, the import {}", clip.pose_frames(), posed.frames.len()));
    }
    let cols: Vec<(usize, Option<usize>)> =
        posed.bones.iter().enumerate().map(|(j, b)| (j, map.head.bones.iter().position(|n| n == b))).collect();
    let mut out: Vec<BoneDeviation> =
        posed.bones.iter().map(|b| BoneDeviation { bone: b.clone(), degrees: 0.0, metres: 0.0 }).collect();
    for (f, row) in posed.frames.iter().enumerate() {
        let got = map.frame(f, &clip.pose_frame(f))?;
        for &(j, i) in &cols {
            let (Some(i), Some(want), Some(d)) = (i, row.get(j), out.get_mut(j)) else { continue };
            let Some(have) = got.get(i) else { continue };
            let (_, rw, tw) = want.to_scale_rotation_translation();
            let (_, rh, th) = have.to_scale_rotation_translation();
            d.degrees = d.degrees.max(crate::formats::rotation_between(rw, rh).to_degrees());
            d.metres = d.metres.max(f64::from((tw - th).length()));
        }
    }
    Ok(out)
}

/// Parse `--keys every|fit=TOL`.
pub fn parse_keys(s: &str) -> Result<KeyRule, String> {
    match s.trim() {
        "every" => Ok(KeyRule::Every),
        t => match t.strip_prefix("fit=").map(str::parse::<f64>) {
            Some(Ok(tol)) if tol.is_finite() && tol >= 0.0 => Ok(KeyRule::Fit(tol)),
            _ => Err(format!("--keys {}: expected every or fit=TOL (TOL ≥ 0, turns or metres)", sanitize(s))),
        },
    }
}
