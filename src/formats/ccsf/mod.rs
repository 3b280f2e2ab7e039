//! CCSF scene files of .hack//Infection (CyberConnect2, PS2; docs/formats/ccsf.md).
//!
//! A file is a flat run of chunks (`u16 kind, u16 tag, u32 size in words`): Header, Index
//! (file paths and object names), a setup section up to the first Frame chunk, then a frame
//! section of Top-opened frames closed by Top −1 or −2. The walker (`walk.rs`) follows the
//! game's own rules: the size field is trusted except for Texture and Model chunks, whose
//! ends are computed from their contents; version gates 0x90/0x92/0x96/0x100 change
//! layouts. Every decision is a walk step.
//!
//! Decoded here (sections of docs/formats/ccsf.md): every setup layout (#setup-chunks), frame
//! records (#per-frame-records), Anime controllers and their evaluation (#controllers,
//! #evaluation), models (#model-0x0800), textures and CLUTs (#texture-0x0300, #clut-0x0400),
//! posing (#posing).
//!
//! Unknown (shown as opaque bytes labelled unknown, never guessed): Particle (0x0D00) and
//! BltGrp (0x1000) layouts, F_DirectLight/F_SpotLight (0x0604/0x0606) beyond their
//! object word, the spot-light controller 0x0607, F_ModelVertex/F_ModelNormal, the
//! header's pad after `version`, CLUT `unknown_2/3`, the model header's 0x70 byte. The
//! clump slot ↔ node mapping and "the copy's own parent applies" for ExtObj-driven
//! targets are inferred (`[I]`); rigid mmats without a normal array have no strip flags, so
//! no triangles are produced for them.
//!
//! Later generations (0x110 and up, docs/formats/ccsf-gen2.md, `gen2.rs`): bands by
//! version, the gen-2 walk and records, camera/morph controllers as tracks, non-power-of-two
//! and BTX (DXT) textures, Effect `zoffs` and particle bodies; what the addendum marks
//! unknown stays unknown (see docs/GUIDE.md#formats-in-detail).

mod anime;
mod band;
mod clip;
mod decode;
mod describe;
mod fixtures;
mod gen2;
mod gen2_fixtures;
#[cfg(test)]
mod image_tests;
mod import;
mod kinds;
pub mod mesh;
mod model2;
mod model_data;
mod parse;
mod pose;
mod raw;
pub(in crate::formats) mod tables;
pub mod texture;
mod walk;
pub mod write;

pub use anime::{euler_xyz_deg, local_matrix, quantise_deg, rot_xyz};
use decode::decode_parsed;
pub use decode::{MaterialInfo, Posing, SceneMeshes, decode_texture, scene_meshes};
pub use mesh::{
    Influence, Mesh, MmatKind, strip_triangles, strip2_triangles, unpack_normal, unpack_st, unpack_st_signed,
};
pub use texture::{Image, clut_rgba};

use super::parsed::AnimHandle;
use super::tally::{self, Key, Tally};
use super::{DecodeOptions, Format};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::read_at;
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::{Diagnostic, Document, Severity};
use glam::Vec3;
use walk::{ChunkRef, Section};

/// Every chunk kind the walk dispatches, sorted, once each: the Header and Index kinds
/// (0x0001, 0x0002) and the setup, frame and Anime tables of both generations
/// (docs/formats/ccsf.md#walker, docs/formats/ccsf-gen2.md#walker).
pub fn declared_chunk_kinds() -> Vec<u16> {
    use kinds::{ANIME_KINDS, ANIME_KINDS2, FRAME_KINDS, FRAME_KINDS2, SETUP_KINDS, SETUP_KINDS2};
    let tables = [SETUP_KINDS, FRAME_KINDS, ANIME_KINDS, SETUP_KINDS2, FRAME_KINDS2, ANIME_KINDS2];
    let mut kinds: Vec<u16> = [0x0001, 0x0002].into_iter().chain(tables.into_iter().flatten().copied()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

/// The name the describe gives chunk kind `kind` (`unknown` for a kind it does not know).
pub fn chunk_kind_name(kind: u16) -> &'static str {
    kinds::kind_name(kind, false)
}

/// The CCSF format.
#[derive(Debug, Clone, Copy)]
pub struct Ccsf;

fn is_ccsf(data: &[u8]) -> bool {
    data.starts_with(&[0x01, 0x00, 0xcc, 0xcc]) && data.get(8..12) == Some(b"CCSF")
}

impl Ccsf {
    #[cfg(test)]
    /// The permissive parse, every chunk's node built at once.
    pub(crate) fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        let p = parse::parse_traced(data, limits)?;
        Ok(describe::describe(data, name, &p, limits))
    }

    /// The strict check: the walk, every record and model.
    pub(crate) fn check(&self, data: &[u8], _name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let p = parse::parse_checking(data, limits)?;
        let found = check(data, &p, limits);
        // the walk's list and the Index's bytes serve the next file (an archive's members)
        walk::reuse_chunks(p.walk.chunks);
        parse::reuse_tables(p.index);
        Ok(found)
    }

    #[cfg(test)]
    /// Decode `key`: `anime:NAME` (or `anime:#i`), `frames` (the frame section). Option
    /// `extra["frames"] = M` samples M playback frames of an Anime with its loop/once end.
    pub(crate) fn decode(&self, data: &[u8], key: &str, opts: &DecodeOptions, limits: &Limits) -> Result<Clip> {
        let p = parse::parse(data, limits)?;
        let scene = pose::collect(data, &p, limits.max_depth)?;
        decode_parsed(data, &p, &scene, key, opts, limits)
    }
}

impl Format for Ccsf {
    fn options(&self) -> &'static [super::OptionSpec] {
        &[super::OptionSpec {
            key: "frames",
            values: super::OptionSpec::NUMBER,
            help: "frames to play an Anime for (a number)",
        }]
    }

    fn id(&self) -> &'static str {
        "ccsf"
    }

    fn description(&self) -> &'static str {
        "CyberConnect2 CCSF scene (.hack//Infection .ccs/.cmp/.tmp, gen 1; later generations from 0x110)"
    }

    fn sniff(&self, data: &[u8], _name: &str) -> u8 {
        if is_ccsf(data) { 100 } else { 0 }
    }

    fn open(&self, source: std::sync::Arc<crate::source::Source>, limits: &Limits) -> Result<Box<dyn super::Parsed>> {
        CcsfParsed::open(source, limits)
    }

    fn check(&self, source: &crate::source::Source, limits: &Limits) -> Result<Vec<Diagnostic>> {
        Ccsf.check(source.bytes(), source.name(), limits)
    }

    fn survey(
        &self,
        source: &crate::source::Source,
        limits: &Limits,
        done: &(dyn Fn(u64) + Sync),
        tally: &mut Tally,
    ) -> Result<()> {
        survey_into(source.bytes(), source.name(), limits, tally);
        done(source.len());
        Ok(())
    }
}

/// The survey's counter keys, made once per process (see [`super::tally`]).
struct SurveyKeys {
    files: Key,
    walks_clean: Key,
    walks_lost: Key,
    frame_closes_end: Key,
    frame_closes_end_reset: Key,
    frames_unordered: Key,
    frames: Key,
    /// `chunks.KIND` and `size_disagree.KIND` by kind slot, setup slots then frame slots.
    chunks: Vec<(Key, Key)>,
    stats: [Key; Stat::COUNT],
}

fn survey_keys() -> &'static SurveyKeys {
    static KEYS: std::sync::OnceLock<SurveyKeys> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| SurveyKeys {
        files: tally::key("ccsf.files"),
        walks_clean: tally::key("walks_clean"),
        walks_lost: tally::key("walks_lost"),
        frame_closes_end: tally::key("frame_closes.end"),
        frame_closes_end_reset: tally::key("frame_closes.end_reset"),
        frames_unordered: tally::key("frames_unordered"),
        frames: tally::key("frames"),
        chunks: (0..2 * kinds::KIND_SLOTS)
            .map(|i| {
                let kn = kinds::kind_name(kinds::slot_kind(i % kinds::KIND_SLOTS), i >= kinds::KIND_SLOTS);
                (tally::key_owned(format!("chunks.{kn}")), tally::key_owned(format!("size_disagree.{kn}")))
            })
            .collect(),
        stats: Stat::ALL.map(|st| tally::key_owned(st.name())),
    })
}

/// Survey one CCSF file into `t`: the walk's chunks per kind, frame numbering and the
/// strict check's findings and model statistics. Counters are typed keys added as the
/// walker passes each chunk (a stream file has tens of thousands of chunks and a handful
/// of kinds); nothing is formatted unless something is wrong.
fn survey_into(data: &[u8], name: &str, limits: &Limits, t: &mut Tally) {
    let keys = survey_keys();
    let b = Bytes::new(data);
    let mut next_frame = 0u32;
    let count = |c: &walk::ChunkRef| {
        let in_frames = c.section == Section::Frames;
        // every walked chunk's kind was dispatched, so it has a slot
        if let Some(&(chunks, disagree)) =
            kinds::kind_slot(c.kind).and_then(|k| keys.chunks.get(k + usize::from(in_frames) * kinds::KIND_SLOTS))
        {
            t.add(chunks, 1);
            if c.disagrees() {
                t.add(disagree, 1);
            }
        }
        if in_frames && c.kind == 0xff01 {
            match c.top(&b) {
                Ok(0xffff_ffff) => t.add(keys.frame_closes_end, 1),
                Ok(0xffff_fffe) => t.add(keys.frame_closes_end_reset, 1),
                Ok(n) => {
                    // frames are numbered 0, 1, 2, ... in every stream file on the disc
                    if n != next_frame {
                        t.add(keys.frames_unordered, 1);
                    }
                    next_frame = n.wrapping_add(1);
                    t.add(keys.frames, 1);
                }
                Err(_) => {}
            }
        }
    };
    // Only the header can fail the parse, before any chunk is walked (and counted).
    let p = match parse::parse_visiting(data, limits, count) {
        Ok(p) => p,
        Err(e) => {
            t.add(keys.files, 1);
            t.add(keys.walks_lost, 1);
            t.findings.push(Diagnostic::from_error(&e.within(name)));
            return;
        }
    };
    t.add(keys.files, 1);
    let len = data.len() as u64;
    if p.walk.clean(len) {
        t.add(keys.walks_clean, 1);
    } else {
        t.add(keys.walks_lost, 1);
        let at = p.walk.lost.as_ref().map_or(len, |e| e.offset);
        let why = p.walk.lost.as_ref().map_or("walk ended early".to_string(), |e| e.kind.to_string());
        t.findings.push(Diagnostic::new(Severity::Error, Some(at), name, format!("walk lost at 0x{at:x}: {why}")));
        // Which chunk kind the walk was reading when it stopped (raw number if unknown).
        let chunk_at = p.walk.steps.last().map_or(at, |st| st.span.start);
        let what = match b.u16_le(chunk_at) {
            Ok(k) if kinds::kind_name(k, false) != "unknown" => kinds::kind_name(k, false).to_string(),
            Ok(k) => format!("0x{k:04x}"),
            Err(_) => "end".into(),
        };
        t.add_named(&format!("walks_lost_at.{what}"), 1);
    }
    let mut findings = Vec::new();
    let mut stat = |st: Stat, n| {
        if let Some(&k) = keys.stats.get(st.index()) {
            t.add(k, n);
        }
    };
    check_into(data, &p, limits, &mut findings, &mut stat);
    t.findings.extend(findings.into_iter().filter(|d| d.severity >= Severity::Warning));
    walk::reuse_chunks(p.walk.chunks);
    parse::reuse_tables(p.index);
}

/// A CCSF scene parsed once: the walk and Index the document was described from, kept for
/// decodes and the strict check, and the scene's objects collected on the first decode.
struct CcsfParsed {
    source: std::sync::Arc<crate::source::Source>,
    doc: Document,
    parsed: std::sync::Arc<parse::Parsed>,
    objects: std::sync::Arc<std::sync::OnceLock<Result<pose::SceneObjs>>>,
}

impl CcsfParsed {
    /// Resolve listed keys: `anime:NAME` to the Anime chunk a lookup by that name finds
    /// (the same chunk decoding by name would take), `frames` to the frame section.
    fn mint(&self, anims: &mut [super::AnimRef]) {
        let data = self.source.bytes();
        for a in anims {
            let handle = match a.key().strip_prefix("anime:") {
                Some(name) => match clip::find_anime_chunk(data, &self.parsed, name) {
                    Ok(c) => AnimHandle::Chunk(c.off),
                    Err(_) => continue,
                },
                None if a.key() == "frames" => AnimHandle::Frames,
                None => continue,
            };
            a.resolve(handle);
        }
    }

    fn open(source: std::sync::Arc<crate::source::Source>, limits: &Limits) -> Result<Box<dyn super::Parsed>> {
        let data = source.bytes();
        // Documents on demand: each chunk's fields and children are built when shown.
        let (doc, p) = describe::describe_lazy(&source, parse::parse_traced(data, limits)?, limits);
        Ok(Box::new(CcsfParsed { source, doc, parsed: p, objects: std::sync::Arc::default() }))
    }
}

impl super::Parsed for CcsfParsed {
    fn clips(&self) -> Option<&dyn super::Clips> {
        Some(self)
    }

    fn format(&self) -> &'static dyn Format {
        &Ccsf
    }

    fn source(&self) -> &std::sync::Arc<crate::source::Source> {
        &self.source
    }

    fn document(&self) -> &Document {
        &self.doc
    }

    fn document_mut(&mut self) -> &mut Document {
        &mut self.doc
    }

    fn clone_parsed(&self) -> Box<dyn super::Parsed> {
        Box::new(CcsfParsed {
            source: std::sync::Arc::clone(&self.source),
            doc: self.doc.clone(),
            parsed: std::sync::Arc::clone(&self.parsed),
            objects: std::sync::Arc::clone(&self.objects),
        })
    }

    fn import(&self) -> Option<&dyn super::ClipImport> {
        Some(self)
    }

    fn meshes(&self) -> Option<&dyn super::Meshes> {
        Some(self)
    }

    fn pictures(&self) -> Option<&dyn super::Pictures> {
        Some(self)
    }

    fn check(&self, limits: &Limits) -> Result<Vec<Diagnostic>> {
        Ok(check(self.source.bytes(), &self.parsed, limits))
    }
}

impl super::Clips for CcsfParsed {
    fn find_animation(&self, name: &str) -> Result<super::AnimRef> {
        let mut a = [super::parsed::find_keyed(&self.doc, format!("anime:{name}"), name)];
        if a[0].is_listed() {
            self.mint(&mut a);
        }
        let [a] = a;
        Ok(a)
    }

    fn animations(&self) -> Vec<super::AnimRef> {
        super::parsed::animations_of(&self.doc, |a| self.mint(a))
    }

    fn animation_at(&self, node: crate::model::NodeId) -> Option<super::AnimRef> {
        super::parsed::animation_at_of(&self.doc, node, |a| self.mint(a))
    }

    fn decode(&self, anim: &super::AnimRef, opts: &DecodeOptions, limits: &Limits) -> Result<Clip> {
        crate::counters::bump(&crate::counters::ANIM_DECODES);
        let data = self.source.bytes();
        let objects = self.objects.get_or_init(|| pose::collect(data, &self.parsed, limits.max_depth));
        let scene = objects.as_ref().map_err(Clone::clone)?;
        match anim.handle() {
            AnimHandle::Chunk(at) => decode::decode_chunk(data, &self.parsed, scene, Some(*at), opts, limits),
            AnimHandle::Frames => decode::decode_chunk(data, &self.parsed, scene, None, opts, limits),
            _ => decode_parsed(data, &self.parsed, scene, anim.key(), opts, limits),
        }
    }
}

impl super::Pictures for CcsfParsed {
    /// A Texture node (or one of its mip levels) through its CLUT; what the pixels take is
    /// charged to what the document left of the memory budget.
    fn image(&self, node: crate::model::NodeId, limits: &Limits) -> Option<Result<crate::model::image::DecodedImage>> {
        let doc = &self.doc;
        let mut cur = doc.node(node)?;
        let mut level = 0;
        if cur.kind == "mip level" {
            level = cur.key.strip_prefix("level[")?.strip_suffix(']')?.parse().ok()?;
            cur = doc.node(cur.parent?)?;
        }
        let limits = limits.for_member(doc.retained_bytes());
        decode::texture_image_at(self.source.bytes(), &self.parsed, cur.span.start, level, &limits)
    }
}

impl super::Meshes for CcsfParsed {
    fn model_of(&self, node: crate::model::NodeId) -> Option<String> {
        let key = &self.doc.node(node)?.key;
        key.strip_prefix("Model[").and_then(|k| k.strip_suffix(']')).map(str::to_string)
    }

    fn scene_pose(&self, anim: &super::AnimRef, frame: u32) -> crate::model::mesh::ScenePose {
        // Anime chunks pose the models by name; the frame section poses them at its stream
        // frame (as `export --obj --frame N` does).
        match anim.key().strip_prefix("anime:") {
            Some(_) => crate::model::mesh::ScenePose::Animation { name: anim.name().to_string(), frame },
            None if anim.key() == "frames" => crate::model::mesh::ScenePose::Frame { frame, paired: None },
            None => crate::model::mesh::ScenePose::Rest,
        }
    }

    /// From the walk the document was described from and the objects of the first decode
    /// (an export of a clip with its meshes walks the file and collects its objects once).
    fn scene(&self, req: &crate::model::mesh::SceneRequest, limits: &Limits) -> Result<crate::model::mesh::Scene> {
        let data = self.source.bytes();
        if self.parsed.walk.lost.is_some() {
            // the walk's own error, as a fresh parse gives it
            return decode::scene_of(data, &self.parsed, None, req, limits);
        }
        let objects = self.objects.get_or_init(|| pose::collect(data, &self.parsed, limits.max_depth));
        let objects = objects.as_ref().map_err(Clone::clone)?;
        decode::scene_of(data, &self.parsed, Some(objects), req, limits)
    }
}

impl super::ClipImport for CcsfParsed {
    fn import_clip(
        &self,
        anim: &super::AnimRef,
        poses: &super::PoseImport,
        _opts: &DecodeOptions,
        limits: &Limits,
    ) -> Result<super::Imported> {
        let data = self.source.bytes();
        let objects = self.objects.get_or_init(|| pose::collect(data, &self.parsed, limits.max_depth));
        let scene = objects.as_ref().map_err(Clone::clone)?;
        import::import_clip(data, &self.parsed, scene, anim, poses, limits)
    }
}

/// What the strict check counts for the survey (`models`, `mmats.skin`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stat {
    Models,
    Textures,
    Animes,
    Mmats(MmatKind),
    Vertices,
    Triangles,
    PosedSkins,
    PosedSkinsInBbox,
}

impl Stat {
    const COUNT: usize = 12;
    const ALL: [Stat; Stat::COUNT] = [
        Stat::Models,
        Stat::Textures,
        Stat::Animes,
        Stat::Mmats(MmatKind::Rigid),
        Stat::Mmats(MmatKind::Bone),
        Stat::Mmats(MmatKind::Skin),
        Stat::Mmats(MmatKind::Shadow),
        Stat::Mmats(MmatKind::TriList),
        Stat::Vertices,
        Stat::Triangles,
        Stat::PosedSkins,
        Stat::PosedSkinsInBbox,
    ];

    /// Position in [`Stat::ALL`].
    fn index(self) -> usize {
        match self {
            Stat::Models => 0,
            Stat::Textures => 1,
            Stat::Animes => 2,
            Stat::Mmats(MmatKind::Rigid) => 3,
            Stat::Mmats(MmatKind::Bone) => 4,
            Stat::Mmats(MmatKind::Skin) => 5,
            Stat::Mmats(MmatKind::Shadow) => 6,
            Stat::Mmats(MmatKind::TriList) => 7,
            Stat::Vertices => 8,
            Stat::Triangles => 9,
            Stat::PosedSkins => 10,
            Stat::PosedSkinsInBbox => 11,
        }
    }

    /// The survey counter's name.
    fn name(self) -> String {
        match self {
            Stat::Models => "models".into(),
            Stat::Textures => "textures".into(),
            Stat::Animes => "animes".into(),
            Stat::Mmats(k) => format!("mmats.{}", k.name()),
            Stat::Vertices => "vertices".into(),
            Stat::Triangles => "triangles".into(),
            Stat::PosedSkins => "posed_skins".into(),
            Stat::PosedSkinsInBbox => "posed_skins_in_bbox".into(),
        }
    }
}

std::thread_local! {
    /// The scene objects of the file being checked, reused from file to file.
    static SCENE: std::cell::RefCell<Option<pose::SceneObjs>> = const { std::cell::RefCell::new(None) };
}

/// Strict checks (docs/formats/ccsf.md#strict-checks).
fn check(data: &[u8], p: &parse::Parsed, limits: &Limits) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    check_into(data, p, limits, &mut out, &mut |_, _| {});
    out
}

/// [`check`] appending its findings to `out` and telling `stat` the model statistics the
/// survey counts. Paths are formatted only for findings.
fn check_into(
    data: &[u8],
    p: &parse::Parsed,
    limits: &Limits,
    out: &mut Vec<Diagnostic>,
    stat: &mut dyn FnMut(Stat, u64),
) {
    let b = Bytes::new(data);
    out.extend(p.diags.iter().filter(|d| d.severity >= Severity::Warning).cloned());
    // the worker's scene, reused from file to file (taken out while it is read)
    let mut objs = SCENE.with(|cell| cell.take()).unwrap_or_default();
    let scene = match pose::collect_into(data, p, limits.max_depth, &mut objs) {
        Ok(()) => Some(&objs),
        Err(e) => {
            out.push(Diagnostic::from_error(&e.within("scene")));
            None
        }
    };
    if let Some(s) = &scene
        && let Err(e) = s.check_parents(limits.max_depth)
    {
        out.push(Diagnostic::from_error(&e.within("scene")));
    }
    let ck = Checker { data, b, p, limits, version: p.walk.version };
    let mut model_meshes: Vec<(u64, u32, Vec<Mesh>)> = Vec::new();
    // The first Anime poses the scene for the Bbox check below. It is parsed once, as the
    // posing reads it (not once here and again per skinned model): that parse reads every
    // controller and morph record the check's own reads, so when it succeeds they would too.
    let first_anime_at = p.walk.chunks.iter().find(|c| c.kind == 0x0700).map(|c| c.off);
    let mut first_anime_scene: Option<Result<clip::AnimeScene>> = None;
    for c in p.walk.chunks.iter().filter(|c| c.section == Section::Setup) {
        match c.kind {
            0x0800 => {
                stat(Stat::Models, 1);
                if let Some(meshes) = ck.model(c, out, stat) {
                    model_meshes.push(meshes);
                }
            }
            0x0300 => {
                stat(Stat::Textures, 1);
                if let Err(e) = ck.texture(c) {
                    out.push(Diagnostic::from_error(&e.within(format!("Texture @0x{:x}", c.off))));
                }
            }
            0x0700 => {
                stat(Stat::Animes, 1);
                if Some(c.off) == first_anime_at {
                    let scene = clip::anime_scene(data, p, c, limits);
                    let parsed = scene.is_ok();
                    first_anime_scene = Some(scene);
                    if parsed {
                        continue;
                    }
                }
                if let Err(e) = ck.anime(c) {
                    out.push(Diagnostic::from_error(&e.within(format!("Anime @0x{:x}", c.off))));
                }
            }
            _ => {}
        }
    }
    if let Some(s) = &scene {
        ck.posed_skins(s, model_meshes, first_anime_scene.as_ref(), out, stat);
    }
    // kept for the next file only when small: one large scene does not pin its memory for
    // the rest of a survey
    if objs.objs.capacity() <= 4096 && objs.clumps.capacity() <= 1024 {
        SCENE.with(|cell| cell.replace(Some(objs)));
    }
}

/// What every strict check of one file reads: its bytes, its parse and the limits.
struct Checker<'a> {
    data: &'a [u8],
    b: Bytes<'a>,
    p: &'a parse::Parsed,
    limits: &'a Limits,
    version: u16,
}

impl Checker<'_> {
    /// The checks of the Model chunk `c`; its meshes (offset, object, meshes) when they
    /// were built, for the posed-skin check.
    fn model(
        &self,
        c: &ChunkRef,
        out: &mut Vec<Diagnostic>,
        stat: &mut dyn FnMut(Stat, u64),
    ) -> Option<(u64, u32, Vec<Mesh>)> {
        let (b, p, version, limits) = (&self.b, self.p, self.version, self.limits);
        let path = || format!("Model @0x{:x}", c.off);
        // a gen-2 model the layout findings decoded (kept in walk order, so by
        // increasing offset) is not decoded again
        let decoded;
        let kept = p.models.binary_search_by_key(&c.off, |(at, _)| *at).ok().and_then(|i| p.models.get(i));
        // a clean gen-1 model that no pose reads is counted from its bytes (as
        // `check_stored_model` would count its decode; anything else is decoded)
        if kept.is_none()
            && !band::of(version).gen2()
            && let Some((end, counts)) = model_data::clean_model1_counts(b, c.off, version, limits)
            && end == c.end
        {
            crate::counters::bump(&crate::counters::CCSF_MODEL_PARSES);
            for &(kind, vertices, triangles) in counts.iter() {
                if let Some(kind) = kind {
                    stat(Stat::Mmats(kind), 1);
                    stat(Stat::Vertices, vertices);
                    stat(Stat::Triangles, triangles);
                }
            }
            return None;
        }
        let m = match kept {
            Some((_, r)) => r,
            None => {
                decoded = mesh::parse_model_checked(b, c.off, version, limits);
                &decoded
            }
        };
        let m = match m {
            Ok(m) => m,
            Err(e) => {
                out.push(Diagnostic::from_error(&e.clone().within(path())));
                return None;
            }
        };
        if m.end != c.end {
            out.push(Diagnostic::new(
                Severity::Error,
                Some(c.off),
                path(),
                format!("decoder ends at 0x{:x} but the walker's MODEL_END is 0x{:x}", m.end, c.end),
            ));
        }
        // a model no pose reads is checked from its stored arrays (no meshes built)
        if check_stored_model(m, c.off, &path, out, stat) {
            return None;
        }
        check_by_meshes(m, c.off, &path, out, stat).map(|meshes| (c.off, m.object, meshes))
    }

    /// The Texture chunk `c` decodes, with its clut when it needs one.
    fn texture(&self, c: &ChunkRef) -> Result<()> {
        let (b, p, version, limits) = (&self.b, self.p, self.version, self.limits);
        let t = texture::parse_texture(b, c.off, version, limits)?;
        if !t.needs_clut() {
            return texture::check_level(self.data, &t, None, 0);
        }
        let clut_chunk = p.walk.chunks.iter().find(|k| k.kind == 0x0400 && k.object(b) == Some(t.clut));
        let Some(cc) = clut_chunk else {
            return Err(ParseError::new(
                t.clut_at,
                ErrorKind::NotFound(format!("clut {} of this texture in this file", p.index.name(t.clut))),
            ));
        };
        let cl = texture::parse_clut(b, cc.off, version, limits)?;
        texture::check_level(self.data, &t, Some(&cl), 0)
    }

    /// The Anime chunk `c` walks to its end and its controller and morph records decode.
    fn anime(&self, c: &ChunkRef) -> Result<()> {
        let (b, version, limits) = (&self.b, self.version, self.limits);
        let a = anime::parse_anime(b, c.off, c.end, version, limits)?;
        if let Some(e) = a.lost {
            return Err(e);
        }
        for r in &a.records {
            if anime::layout_at(r.kind, version).is_some() {
                anime::parse_ctrl_at(b, r, version, limits)?;
            } else if r.kind == 0x1902 && band::of(version).gen2() {
                anime::parse_morph_ctrl(b, r.off + 8, r.end, limits)?;
            }
        }
        Ok(())
    }

    /// Posed skins inside their Bbox (frame 0 of the first Anime that poses the scene `s`),
    /// for each model in `model_meshes` with a skin mmat, an owner and a Bbox.
    fn posed_skins(
        &self,
        s: &pose::SceneObjs,
        model_meshes: Vec<(u64, u32, Vec<Mesh>)>,
        first_anime_scene: Option<&Result<clip::AnimeScene>>,
        out: &mut Vec<Diagnostic>,
        stat: &mut dyn FnMut(Stat, u64),
    ) {
        let (b, p) = (&self.b, self.p);
        let first_anime = p.walk.chunks.iter().find(|c| c.kind == 0x0700).and_then(|c| c.object(b));
        for (off, model, meshes) in model_meshes {
            if !meshes.iter().any(|m| m.kind == MmatKind::Skin) {
                continue;
            }
            let Some(owner) = s.owner(model) else { continue };
            let bbox = p
                .walk
                .chunks
                .iter()
                .filter(|c| c.kind == 0x0c00)
                .filter_map(|c| b.sub(c.off, c.end).and_then(|w| read_at::<raw::Bbox>(&w, c.payload())).ok())
                .find(|bb| *bb.target == owner.object);
            let (Some(bb), Some(an)) = (bbox, first_anime) else { continue };
            let found;
            let anime = match first_anime_scene {
                Some(kept) => kept.as_ref(),
                None => {
                    found = clip::find_anime(self.data, p, &p.index.name(an), self.limits);
                    found.as_ref()
                }
            };
            match self.skin_overshoot(s, anime, model, meshes, &bb) {
                Ok(worst) => {
                    stat(Stat::PosedSkins, 1);
                    if worst > 0.0 {
                        out.push(Diagnostic::new(
                            Severity::Warning,
                            Some(off),
                            format!("Model @0x{off:x}"),
                            format!("posed skin (frame 0 of {}) extends {worst} units past its Bbox", p.index.name(an)),
                        ));
                    } else {
                        stat(Stat::PosedSkinsInBbox, 1);
                    }
                }
                Err(e) => out.push(Diagnostic::from_error(&e.within(format!("Model @0x{off:x} posing")))),
            }
        }
    }

    /// How far the skin vertices of `model`'s `meshes`, posed at frame 0 of `anime`, reach
    /// past the box `bb` (0 or less: inside).
    fn skin_overshoot(
        &self,
        s: &pose::SceneObjs,
        anime: std::result::Result<&clip::AnimeScene, &ParseError>,
        model: u32,
        meshes: Vec<Mesh>,
        bb: &raw::Bbox,
    ) -> Result<f32> {
        let max_depth = self.limits.max_depth;
        let a = anime.map_err(Clone::clone)?;
        let (l, pa) = clip::anime_locals(a, s, 0, max_depth)?;
        let w = s.worlds(&l, &pa, max_depth)?;
        // posed in place: nothing reads the unposed meshes after this
        let mut ms = meshes;
        pose::pose_meshes(&mut ms, model, s, &w, max_depth)?;
        let corner = |v: &raw::Vec3| Vec3::new(f32::from_bits(*v.x), f32::from_bits(*v.y), f32::from_bits(*v.z));
        let (lo, hi) = (corner(&bb.min), corner(&bb.max));
        let mut worst = 0.0f32;
        for m in ms.iter().filter(|m| m.kind == MmatKind::Skin) {
            for v in &m.positions {
                let d = (lo - *v).max(*v - hi).max_element();
                worst = worst.max(d);
            }
        }
        Ok(worst)
    }
}

/// Strip flags of a mesh: its own bytes, or (a stored model's rigid and bone mmats) the
/// top byte of each normal word, as [`mesh::unpack_normal`] reads it.
enum Flags<'a> {
    Bytes(&'a [u8]),
    NormalWords(&'a [u32]),
}

impl Flags<'_> {
    fn len(&self) -> usize {
        match self {
            Flags::Bytes(b) => b.len(),
            Flags::NormalWords(w) => w.len(),
        }
    }

    fn get(&self, i: usize) -> Option<u8> {
        match self {
            Flags::Bytes(b) => b.get(i).copied(),
            Flags::NormalWords(w) => w.get(i).map(|w| mesh::unpack_normal(*w).1),
        }
    }
}

/// What the strict check reads of one mesh (an mmat of a model).
struct MeshFacts<'a> {
    mmat: usize,
    kind: MmatKind,
    vertices: usize,
    triangles: usize,
    /// A position, normal or texture coordinate is not finite.
    non_finite: bool,
    /// A triangle names a vertex past the last.
    index_out_of_range: bool,
    flags: Flags<'a>,
    influences: &'a [Vec<Influence>],
}

/// The per-mesh statistics and findings of the strict check (the model at `off`).
fn check_mesh(
    me: &MeshFacts<'_>,
    off: u64,
    path: &dyn Fn() -> String,
    out: &mut Vec<Diagnostic>,
    stat: &mut dyn FnMut(Stat, u64),
) {
    let mp = || format!("{} > mmat[{}]", path(), me.mmat);
    stat(Stat::Mmats(me.kind), 1);
    stat(Stat::Vertices, me.vertices as u64);
    stat(Stat::Triangles, me.triangles as u64);
    if me.non_finite {
        out.push(Diagnostic::new(Severity::Error, Some(off), mp(), "non-finite vertex value"));
    }
    if me.index_out_of_range {
        out.push(Diagnostic::new(Severity::Error, Some(off), mp(), "triangle index out of range"));
    }
    // strips open with two flag-1 vertices
    let f = &me.flags;
    for i in 0..f.len() {
        let opens = f.get(i).is_some_and(|x| x != 0) && (i == 0 || f.get(i - 1) == Some(0));
        if opens && f.get(i + 1).is_none_or(|x| x == 0) {
            out.push(Diagnostic::new(
                Severity::Error,
                Some(off),
                mp(),
                format!("strip at vertex {i} does not open with flags 1,1"),
            ));
        }
    }
    for (vi, inf) in me.influences.iter().enumerate() {
        let w: f32 = inf.iter().map(|x| x.weight).sum();
        if !(0.7..=1.01).contains(&w) {
            out.push(Diagnostic::new(
                Severity::Error,
                Some(off),
                mp(),
                format!("skin vertex {vi} weights sum to {w}, outside 0.7..1.01"),
            ));
        }
    }
}

/// The model's meshes built and each checked ([`check_mesh`]); `None` (the error pushed)
/// when they cannot be built. Every model [`check_stored_model`] does not take comes here.
fn check_by_meshes(
    m: &mesh::ModelData,
    off: u64,
    path: &dyn Fn() -> String,
    out: &mut Vec<Diagnostic>,
    stat: &mut dyn FnMut(Stat, u64),
) -> Option<Vec<Mesh>> {
    let meshes = match mesh::meshes(m, None) {
        Ok(ms) => ms,
        Err(e) => {
            out.push(Diagnostic::from_error(&e.within(path())));
            return None;
        }
    };
    for me in &meshes {
        let bad = me.positions.iter().chain(&me.normals).any(|v| !v.is_finite())
            || me.uvs.iter().any(|u| !u[0].is_finite() || !u[1].is_finite());
        let nv = me.positions.len() as u32;
        let facts = MeshFacts {
            mmat: me.mmat,
            kind: me.kind,
            vertices: me.positions.len(),
            triangles: me.triangles.len(),
            non_finite: bad,
            index_out_of_range: me.triangles.iter().any(|t| t.iter().any(|&i| i >= nv)),
            flags: Flags::Bytes(&me.flags),
            influences: &me.influences,
        };
        check_mesh(&facts, off, path, out, stat);
    }
    Some(meshes)
}

/// The strict check of a generation-1 model without a skin mmat (the Bbox check poses
/// only skinned models), from its stored arrays: the statistics and findings of the
/// meshes [`mesh::meshes`] would build for it, without building them (a survey checks
/// every member's models). False, and nothing checked, for any other model.
///
/// What those meshes would hold: positions `p · scale / 4096` (rigid, bone and shadow
/// alike); normals `s8 / 64` and texture coordinates `u16 / 256`, always finite; strip
/// flags the top byte of each normal word (none without normals) and a triangle for each
/// flag 0 from the third vertex on (gen 1's strips); a shadow mmat's own triangles, their
/// indices checked as `meshes` checks them.
fn check_stored_model(
    m: &mesh::ModelData,
    off: u64,
    path: &dyn Fn() -> String,
    out: &mut Vec<Diagnostic>,
    stat: &mut dyn FnMut(Stat, u64),
) -> bool {
    let stored = |k: MmatKind| matches!(k, MmatKind::Rigid | MmatKind::Bone | MmatKind::Shadow);
    if m.gen2.is_some() || !m.mmats.iter().all(|mm| stored(mm.kind)) {
        return false;
    }
    // `meshes` fails on the first shadow mmat whose triangles index past its vertices
    if let Some(e) = m.mmats.iter().enumerate().find_map(|(i, mm)| match mm.kind {
        MmatKind::Shadow => mesh::shadow_index_error(mm, i),
        _ => None,
    }) {
        out.push(Diagnostic::from_error(&e.within(path())));
        return true;
    }
    let unit = m.scale / 4096.0;
    let pos = |p: &[i16; 3]| Vec3::new(f32::from(p[0]), f32::from(p[1]), f32::from(p[2])) * unit;
    for (i, mm) in m.mmats.iter().enumerate() {
        let non_finite = mm.positions.iter().any(|p| !pos(p).is_finite());
        let facts = match mm.kind {
            MmatKind::Shadow => MeshFacts {
                mmat: i,
                kind: mm.kind,
                vertices: mm.positions.len(),
                triangles: mm.triangles.len(),
                non_finite,
                index_out_of_range: false,
                flags: Flags::Bytes(&[]),
                influences: &[],
            },
            _ => {
                let flags = Flags::NormalWords(&mm.normals);
                let nv = mm.positions.len();
                // a triangle at each flag-0 vertex from the third on, its highest index that vertex
                let closes = |i: usize| flags.get(i) == Some(0);
                let triangles = (2..flags.len()).filter(|&i| closes(i)).count();
                let index_out_of_range = (nv.max(2)..flags.len()).any(closes);
                MeshFacts {
                    mmat: i,
                    kind: mm.kind,
                    vertices: nv,
                    triangles,
                    non_finite,
                    index_out_of_range,
                    flags,
                    influences: &[],
                }
            }
        };
        check_mesh(&facts, off, path, out, stat);
    }
    true
}

#[cfg(test)]
mod survey_stat_tests {
    use super::Stat;

    /// Each statistic has its own slot in the survey's key table, named as the check
    /// named it before the counters were typed.
    #[test]
    fn every_stat_has_its_own_slot_and_name() {
        for (i, st) in Stat::ALL.iter().enumerate() {
            assert_eq!(st.index(), i, "{st:?}");
        }
        let names: Vec<String> = Stat::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(
            names,
            [
                "models",
                "textures",
                "animes",
                "mmats.rigid",
                "mmats.bone",
                "mmats.skin",
                "mmats.shadow",
                "mmats.triangle-list",
                "vertices",
                "triangles",
                "posed_skins",
                "posed_skins_in_bbox"
            ]
        );
    }
}
#[cfg(test)]
mod gen2_tests;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod record_vectors;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod stored_model_check_tests {
    use super::*;

    /// What one path of the model check gives: its findings and its counts.
    type Outcome = (Vec<Diagnostic>, Vec<(Stat, u64)>);

    /// The model at `off` checked as the survey does (the decode without the words the check
    /// does not read, then the stored arrays) when that path takes it; `None` when it does not.
    fn by_stored_arrays(data: &[u8], off: u64, version: u16) -> Option<std::result::Result<Outcome, ParseError>> {
        let m = match mesh::parse_model_checked(&Bytes::new(data), off, version, &Limits::default()) {
            Ok(m) => m,
            Err(e) => return Some(Err(e)),
        };
        let (mut out, mut stats) = (Vec::new(), Vec::new());
        let taken = check_stored_model(&m, off, &|| "Model".to_string(), &mut out, &mut |s, n| stats.push((s, n)));
        taken.then_some(Ok((out, stats)))
    }

    /// The same model checked as before the fast path: the whole decode, its meshes built.
    fn by_meshes(data: &[u8], off: u64, version: u16) -> std::result::Result<Outcome, ParseError> {
        let m = mesh::parse_model(&Bytes::new(data), off, version, &Limits::default())?;
        let (mut out, mut stats) = (Vec::new(), Vec::new());
        check_by_meshes(&m, off, &|| "Model".to_string(), &mut out, &mut |s, n| stats.push((s, n)));
        Ok((out, stats))
    }

    /// The counts of a clean model read from its bytes ([`model_data::clean_model1_counts`]),
    /// as the stored-array check reports them: `None` when it does not take the model.
    fn by_bytes(data: &[u8], off: u64, version: u16) -> Option<(u64, Vec<(Stat, u64)>)> {
        let (end, counts) = model_data::clean_model1_counts(&Bytes::new(data), off, version, &Limits::default())?;
        let mut stats = Vec::new();
        for &(kind, vertices, triangles) in counts.iter() {
            stats.extend([(Stat::Mmats(kind.unwrap()), 1), (Stat::Vertices, vertices), (Stat::Triangles, triangles)]);
        }
        Some((end, stats))
    }

    /// Calls `each(file name, bytes, model offset, version, round)` for every gen-1 model
    /// (0x0800 chunk) of the committed CCSF fixtures: round 0 intact, rounds 1..=300 with one
    /// byte of the model's chunk changed (a fixed pseudo-random sequence from `seed`).
    fn each_gen1_model_mutant<F: FnMut(&str, &[u8], u64, u16, usize)>(seed: u64, mut each: F) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ccsf");
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        let mut seed = seed;
        for f in files {
            let data = std::fs::read(&f).unwrap();
            let Ok(p) = parse::parse(&data, &Limits::default()) else { continue };
            let version = p.walk.version;
            if band::of(version).gen2() {
                continue;
            }
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            for c in p.walk.chunks.iter().filter(|c| c.kind == 0x0800) {
                let len = usize::try_from(c.end - c.off).unwrap();
                for round in 0..=300 {
                    let mut d = data.clone();
                    if round > 0 {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        let at = usize::try_from(c.off).unwrap() + (seed >> 33) as usize % len;
                        d[at] = (seed >> 8) as u8;
                    }
                    each(&name, &d, c.off, version, round);
                }
            }
        }
    }

    /// Every gen-1 model of the fixtures, intact and with bytes of its chunk changed (300 a
    /// model, as below): whenever the counts are read from the bytes, the full decode gives
    /// the same end, no error, no finding and the same counts; and every clean model without
    /// a skin that the decode takes is taken from its bytes too.
    #[test]
    fn the_counts_from_the_bytes_equal_the_stored_array_check() {
        let (mut taken, mut declined) = (0, 0);
        each_gen1_model_mutant(0x2545_f491_4f6c_dd1d, |name, d, off, version, round| {
            let fast = by_bytes(d, off, version);
            let slow = by_stored_arrays(d, off, version);
            let decoded = mesh::parse_model_checked(&Bytes::new(d), off, version, &Limits::default());
            let at = format!("{name} model @0x{off:x}, round {round}");
            match (&fast, &slow, &decoded) {
                (Some((end, counts)), Some(Ok((findings, stats))), Ok(m)) => {
                    assert_eq!((*end, counts), (m.end, stats), "{at}");
                    assert!(findings.is_empty(), "{at}: {findings:?}");
                    taken += 1;
                }
                (Some(_), _, _) => panic!("{at}: taken from the bytes, but the decode gives {slow:?}"),
                (None, Some(Ok((findings, _))), Ok(_)) => {
                    assert!(!findings.is_empty(), "{at}: a clean model declined");
                    declined += 1;
                }
                (None, _, _) => declined += 1,
            }
        });
        eprintln!("{taken} models counted from their bytes, {declined} decoded");
        assert!(taken > 1000 && declined > 100, "{taken} taken, {declined} declined");
    }

    /// Every gen-1 model of the committed fixtures that the stored-array check takes, intact
    /// and with bytes of its chunk changed (a fixed pseudo-random sequence, 300 a model):
    /// the fast path gives the same findings, counts and decode errors as building meshes.
    #[test]
    fn the_stored_array_check_equals_the_mesh_check_on_intact_and_damaged_models() {
        let (mut models, mut compared, mut with_findings) = (0, 0, 0);
        each_gen1_model_mutant(0x9e37_79b9_7f4a_7c15, |name, d, off, version, round| {
            models += usize::from(round == 0);
            let Some(fast) = by_stored_arrays(d, off, version) else { return };
            let slow = by_meshes(d, off, version);
            match (&fast, &slow) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "{name} model @0x{off:x}, round {round}");
                    with_findings += usize::from(!a.0.is_empty());
                }
                (Err(a), Err(b)) => assert_eq!(
                    (a.offset, a.kind.to_string()),
                    (b.offset, b.kind.to_string()),
                    "{name} model @0x{off:x}, round {round}"
                ),
                _ => panic!("{name} model @0x{off:x}, round {round}: {fast:?} against {slow:?}"),
            }
            compared += 1;
        });
        eprintln!("{models} gen-1 models, {compared} checks compared, {with_findings} with findings");
        assert!(models >= 5 && compared > 1000, "{models} models, {compared} compared");
        assert!(with_findings > 10, "damaged models gave findings on both paths: {with_findings}");
    }
}
