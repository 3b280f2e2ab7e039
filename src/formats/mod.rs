//! Format families and their dispatch: [`sniff`] picks a format for some bytes and
//! [`open`] parses them once into a [`Parsed`], which answers everything a consumer asks
//! (the document, the animations as [`AnimRef`]s, decodes, nested members, the scene's
//! meshes, the strict check, progressive listing). Consumers (CLI, TUI, exports, survey,
//! the session) use only this module's public items and `model`, never a format's folder;
//! format internals (`raw`, `parse`) stay private to `formats`.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod ccsf;
pub mod gzarc;
mod inline;
pub mod motn;
pub mod opaque;
pub mod pak;
mod parsed;
mod record;
pub mod sc6;
pub mod tally;

pub use parsed::{AnimRef, ListingProber, ListingProgress, ListingStep, OptionSpec, Parsed};

use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::mesh::{Scene, SceneRequest};
use crate::model::{Diagnostic, Document};
use crate::source::Source;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What [`Format::stream_top_level`] shows, in order.
pub enum TopLevel<'a> {
    /// The root, with the number of children the whole document has (the document given
    /// holds only the first of them).
    Root(&'a mut crate::model::Document, usize),
    /// A child of the root.
    Child(&'a mut crate::model::Document, crate::model::NodeId),
    /// After the children of one part: the part's document, whose walk steps are the next
    /// steps of the whole document's walk (a part shows the steps of what it listed).
    PartDone(&'a mut crate::model::Document),
}

/// Options that steer decoding (format-specific ones are ignored by other formats).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DecodeOptions {
    /// Selector stream override (SC6: `default`, `alternate`, `skill-check`).
    pub stream: Option<String>,
    /// Any further `key=value` options a format understands.
    pub extra: BTreeMap<String, String>,
    /// Only the curves: tracks with their keys and per-frame samples, without per-key
    /// detail text, display tables or poses (for plotting, surveys and batch evaluation).
    /// Formats whose clips are cheap to build may ignore it and return everything.
    pub curves_only: bool,
    /// Poses made one frame at a time ([`crate::model::anim::Clip::on_demand`]) instead of
    /// stored, and no tracks or tables where the format can skip them: for exports that
    /// write frame by frame. Formats that cannot may ignore it and store the poses.
    pub poses_on_demand: bool,
    /// Tracks' keys and samples and tables' rows made one at a time
    /// ([`crate::model::anim::Clip::tracks_on_demand`]) instead of stored, where the format
    /// can: for `decode --json`, which writes track by track. Formats that cannot may
    /// ignore it and store them.
    pub tracks_on_demand: bool,
}

/// A nested source (archive member, container entry) opened by its parent's format.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Member name (`xasc00.cmp`).
    pub name: String,
    /// The member's bytes (inflated if it was compressed).
    pub bytes: Vec<u8>,
    /// True when the bytes were decompressed.
    pub inflated: bool,
}

/// Totals from surveying one input; keys are stable, lowercase, snake_case.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Survey {
    /// Format id.
    pub format: &'static str,
    /// Input name.
    pub name: String,
    /// Named counters (`clips`, `aliases`, `walks_clean`, `chunks.Texture`).
    pub counters: BTreeMap<String, u64>,
    /// Problems found (each counts as a finding).
    pub findings: Vec<Diagnostic>,
}

impl Survey {
    /// Add `n` to counter `key`.
    pub fn add(&mut self, key: impl AsRef<str> + Into<String>, n: u64) {
        // A counter that exists is found by the borrowed key: no allocation per call.
        match self.counters.get_mut(key.as_ref()) {
            Some(v) => *v += n,
            None => {
                self.counters.insert(key.into(), n);
            }
        }
    }

    /// Merge another survey's counters and findings into this one.
    pub fn merge(&mut self, other: Survey) {
        if self.counters.is_empty() {
            self.counters = other.counters;
        } else {
            for (k, v) in other.counters {
                self.add(k, v);
            }
        }
        self.findings.extend(other.findings);
    }
}

/// A format's default skeleton and axis/unit conversion.
#[derive(Debug, Clone, PartialEq)]
pub struct BuiltinSkeleton {
    /// Name recorded in exports (`builtin sc6`).
    pub name: String,
    /// Bones, parents first, rest in the format's model space.
    pub skeleton: crate::model::anim::Skeleton,
    /// Conversion from the format's model space into Blender armature space.
    pub conversion: glam::Mat4,
    /// The conversion in words.
    pub conversion_note: String,
}

/// One format family. Implementations live in `formats/<name>/`. Consumers call
/// [`open`] / [`open_as`] and work with the [`Parsed`] it returns; the byte-level methods below
/// are what `open`'s parsed object is built from (and what format tests exercise).
pub trait Format: Send + Sync {
    /// A parsed object of the format's own, for formats that keep more than the described
    /// document. None (the default): [`open_as`] describes and keeps the document.
    fn open_parsed(&self, source: &Arc<Source>, limits: &Limits) -> Option<Result<Box<dyn Parsed>>> {
        let _ = (source, limits);
        None
    }

    /// The `--opt KEY=VALUE` options [`Format::decode`] understands.
    fn options(&self) -> &'static [OptionSpec] {
        &[]
    }

    /// The animation key for a user's `--anim NAME` (a clip index, a sequence name, an
    /// Anime name): None when this format has no named animations.
    fn anim_key(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// Whether the input holds the animation keyed `key`, found in the format's own tables
    /// without describing the input: None when the format cannot tell that way.
    fn lists_animation(&self, data: &[u8], key: &str, limits: &Limits) -> Option<bool> {
        let _ = (data, key, limits);
        None
    }

    /// The name of the model `node` of `doc` stands for (see [`Parsed::model_of`]).
    fn model_of(&self, doc: &Document, node: crate::model::NodeId) -> Option<String> {
        let _ = (doc, node);
        None
    }

    /// How to pose a scene at `frame` of the animation keyed `key` (see
    /// [`Parsed::scene_pose`]). The default poses by the animation's name.
    fn scene_pose(&self, key: &str, name: &str, frame: u32) -> crate::model::mesh::ScenePose {
        let _ = key;
        crate::model::mesh::ScenePose::Animation { name: name.to_string(), frame }
    }

    /// True when [`Format::scene`] can build meshes from this format's data.
    fn has_meshes(&self) -> bool {
        false
    }

    /// The meshes, materials and images of `data` (formats with models).
    fn scene(&self, data: &[u8], req: &SceneRequest, limits: &Limits) -> Result<Scene> {
        let _ = (data, req, limits);
        Err(ParseError::new(0, ErrorKind::Unsupported(format!("{} data has no meshes to export", self.id()))))
    }

    /// Short id used by `--format` (`raw`, `sc6`, `motn`, `ccsf`, `gzarc`).
    fn id(&self) -> &'static str;

    /// One-line description for `--help` and the format tables of the docs.
    fn description(&self) -> &'static str;

    /// How sure (0 = not this format, 100 = certain, never more) that `data` named `name`
    /// is this format.
    fn sniff(&self, data: &[u8], name: &str) -> u8;

    /// Permissive parse: the whole tree that could be read, with problems as diagnostics.
    /// Errors only when nothing at all can be shown.
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document>;

    /// Strict check (`check`, `export`, tests): every finding, or the first hard error.
    /// The default reports the permissive parse's warnings and errors.
    fn check(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let doc = self.describe(data, name, limits)?;
        if let Some(b) = doc.budget_exceeded() {
            return Err(b.error());
        }
        Ok(parsed::document_findings(&doc))
    }

    /// [`Format::check`] given the document [`Format::describe`] already made of `data`,
    /// so the strict check does not describe again. The default reports that document's
    /// warnings and errors; formats with strict checks of their own override both.
    fn check_parsed(&self, data: &[u8], name: &str, doc: &Document, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let _ = (data, name, limits);
        Ok(parsed::document_findings(doc))
    }

    /// Decode the animation a node names in its `anim` key (`clip:181`, `seq:NAME`).
    fn decode(&self, _data: &[u8], key: &str, _opts: &DecodeOptions, _limits: &Limits) -> Result<Clip> {
        Err(ParseError::new(0, ErrorKind::Unsupported(format!("{} has no animation to decode ({key})", self.id()))))
    }

    /// Open nested member `index` (a node's `member`).
    fn member(&self, _data: &[u8], index: u32, _limits: &Limits) -> Result<Member> {
        Err(ParseError::new(0, ErrorKind::NotFound(format!("member {index} in {} data", self.id()))))
    }

    /// Show the document of `source` top level by top level without holding all of it
    /// (`tree` of a 315,000-member archive): `visit` gets the root first, then each child
    /// of the root in order, each in a document that may be dropped after it; returns the
    /// document's findings as the whole document records them. None: the format builds
    /// its document ([`Parsed::document_mut`]) and it is shown from there.
    fn stream_top_level(
        &self,
        source: &std::sync::Arc<Source>,
        limits: &Limits,
        visit: &mut dyn FnMut(TopLevel<'_>) -> std::io::Result<()>,
    ) -> Option<std::io::Result<Vec<Diagnostic>>> {
        let _ = (source, limits, visit);
        None
    }

    /// [`Format::survey_progress`] reading `source` by `pread` into owned buffers instead
    /// of through its mapping (a file truncated meanwhile is an error, not a SIGBUS).
    /// None: `survey_progress` is used.
    fn survey_source(&self, source: &Source, limits: &Limits, done: &(dyn Fn(u64) + Sync)) -> Option<Result<Survey>> {
        let _ = (source, limits, done);
        None
    }

    /// The format's built-in skeleton for exports without `--skeleton`: bones (parents
    /// first, rest matrices in the format's model space), the default conversion `C` into
    /// Blender armature space, and `C` in words. None when skeletons come from each file.
    fn builtin_skeleton(&self) -> Option<BuiltinSkeleton> {
        None
    }

    /// [`Format::survey`] that reports progress: `done(n)` is called (from any thread) as
    /// `n` more bytes of `data` have been surveyed, adding up to `data.len()`. Archives
    /// report member by member; the default reports everything at the end.
    fn survey_progress(&self, data: &[u8], name: &str, limits: &Limits, done: &(dyn Fn(u64) + Sync)) -> Result<Survey> {
        let r = self.survey(data, name, limits);
        done(data.len() as u64);
        r
    }

    /// [`Format::survey`] added into `tally`: archives survey their members into one
    /// tally per run of members instead of one [`Survey`] each. On `Err` nothing was
    /// added. The default surveys and merges the result; formats found as many small
    /// members override it with typed counters.
    fn survey_into(&self, data: &[u8], name: &str, limits: &Limits, tally: &mut tally::Tally) -> Result<()> {
        tally.merge_survey(self.survey(data, name, limits)?);
        Ok(())
    }

    /// Totals for `survey`. The default counts nodes by kind and diagnostics.
    fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        let doc = self.describe(data, name, limits)?;
        let mut s = Survey { format: self.id(), name: name.to_string(), ..Survey::default() };
        for n in doc.nodes.iter().skip(1) {
            s.add(format!("nodes.{}", n.kind), 1);
        }
        s.findings = doc.diagnostics.into_iter().filter(|d| d.severity >= crate::model::Severity::Warning).collect();
        Ok(s)
    }
}

/// Every format, in sniffing priority order (`raw` last: it accepts anything).
pub fn all() -> &'static [&'static dyn Format] {
    static ALL: &[&dyn Format] =
        &[&gzarc::GzArc, &ccsf::Ccsf, &sc6::Sc6, &pak::Pks, &pak::IpacFormat, &pak::Pkf, &motn::Motn, &opaque::Opaque];
    ALL
}

/// The format with id `id`.
pub fn by_id(id: &str) -> Option<&'static dyn Format> {
    all().iter().copied().find(|f| f.id().eq_ignore_ascii_case(id))
}

/// The most confident format for `data` named `name` (falls back to `raw`).
pub fn sniff(data: &[u8], name: &str) -> &'static dyn Format {
    let mut best: &'static dyn Format = &opaque::Opaque;
    let mut best_score = 0u8;
    for f in all() {
        let s = f.sniff(data, name);
        if s > best_score {
            best = *f;
            best_score = s;
        }
        if best_score >= CERTAIN {
            // no later format can beat it (ties go to the first): a survey sniffs every
            // member, and the formats after a certain one need not read it
            break;
        }
    }
    best
}

/// The highest sniff score: "certain" (see [`Format::sniff`]).
const CERTAIN: u8 = 100;

/// The format `forced` names, or the one sniffed from `data`. Errors if `forced` names no
/// format (the error lists them).
pub fn pick(data: &[u8], name: &str, forced: Option<&str>) -> Result<&'static dyn Format> {
    match forced {
        Some(id) => by_id(id).ok_or_else(|| {
            let ids: Vec<&str> = all().iter().map(|f| f.id()).collect();
            ParseError::new(0, ErrorKind::NotFound(format!("format {id} (formats: {})", ids.join(", "))))
        }),
        None => Ok(sniff(data, name)),
    }
}

/// Parse `source` once as `format`. The returned object answers everything about it.
pub fn open_as(format: &'static dyn Format, source: Arc<Source>, limits: &Limits) -> Result<Box<dyn Parsed>> {
    let r = match format.open_parsed(&source, limits) {
        Some(r) => r,
        None => parsed::Described::open(format, source, limits),
    };
    // One budget for every format: a document that outgrew it is an error, not a partial tree.
    // A document deferred to first use is checked by whoever builds it (a deferred MOTN
    // skeleton holds one node per sequence, at most 4,095).
    let r = r.and_then(|p| match p.is_document_built().then(|| p.document().budget_exceeded()).flatten() {
        Some(b) => Err(b.error()),
        None => Ok(p),
    });
    r.map_err(|e| e.within(format.id()))
}

/// A parsed object holding `doc` as the document of `source` under the opaque fallback
/// format (tests and placeholders that build a document by hand).
pub fn with_document(source: Arc<Source>, doc: Document) -> Box<dyn Parsed> {
    parsed::Described::with(&opaque::Opaque, source, doc)
}

/// Sniff (or take `forced`) and parse once.
pub fn open(source: Arc<Source>, forced: Option<&str>, limits: &Limits) -> Result<Box<dyn Parsed>> {
    let fmt = pick(source.bytes(), source.name(), forced)?;
    open_as(fmt, source, limits)
}

/// The strict check of `data` named `name` by the sniffed format's byte-level
/// [`Format::check`], without a parsed object or display document (archive members in
/// `check`); errors name the format as [`open`]'s do.
pub(in crate::formats) fn check_bytes(data: &[u8], name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
    let fmt = sniff(data, name);
    fmt.check(data, name, limits).map_err(|e| e.within(fmt.id()))
}

/// Sniff (or take `forced`) and describe. Errors if `forced` names no format.
pub fn describe(
    data: &[u8],
    name: &str,
    forced: Option<&str>,
    limits: &Limits,
) -> Result<(&'static dyn Format, Document)> {
    let fmt = match forced {
        Some(id) => by_id(id).ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("format {id}"))))?,
        None => sniff(data, name),
    };
    let doc = fmt.describe(data, name, limits).map_err(|e| e.within(fmt.id()))?;
    if let Some(b) = doc.budget_exceeded() {
        return Err(b.error().within(fmt.id()));
    }
    Ok((fmt, doc))
}

#[cfg(test)]
mod sniff_tests {
    use super::{CERTAIN, all, sniff};

    /// `sniff` stops at the first certain format, which is right only while no format
    /// scores above certain: every format on every fixture (as named and unnamed) and on
    /// bytes of no format, and the pick is the first best score over all formats.
    #[test]
    fn no_format_scores_above_certain_and_the_pick_is_the_first_best() {
        let mut inputs = crate::fixtures::all();
        inputs.push(("x.mot".into(), vec![0u8; 64]));
        inputs.push(("MOTION.BIN".into(), b"IPAC\0\0\0\0".to_vec()));
        let mut certain = 0;
        for (name, data) in &inputs {
            for n in [name.as_str(), "", "member.bin"] {
                let scores: Vec<u8> = all().iter().map(|f| f.sniff(data, n)).collect();
                assert!(scores.iter().all(|s| *s <= CERTAIN), "{name} as {n:?}: {scores:?}");
                certain += usize::from(scores.contains(&CERTAIN));
                let best = scores.iter().copied().max().unwrap_or(0);
                let first_best = scores.iter().position(|s| *s == best).and_then(|i| all().get(i));
                assert_eq!(first_best.map(|f| f.id()), Some(sniff(data, n).id()), "{name} as {n:?}: {scores:?}");
            }
        }
        assert!(certain > 0, "no input was certain: the early stop was not exercised");
    }
}

#[cfg(test)]
mod check_bytes_tests {
    use super::{check_bytes, open};
    use crate::limits::Limits;
    use crate::source::Source;
    use std::sync::Arc;

    /// The lean member check (`check_bytes`, no display document) finds what opening the
    /// bytes and checking the parsed object finds, errors included, on every fixture and
    /// every member of the fixture archives.
    #[test]
    fn the_lean_check_finds_what_the_opened_check_finds() {
        let lim = Limits::default();
        let mut inputs = crate::fixtures::all();
        let mut members = Vec::new();
        for (name, data) in &inputs {
            if let Ok(p) = open(Arc::new(Source::from_vec(name.clone(), data.clone())), None, &lim) {
                let ids: Vec<_> = p.document().nodes.iter().filter(|n| n.member.is_some()).map(|n| n.id).collect();
                for id in ids {
                    if let Ok(m) = p.member(id, &lim) {
                        members.push((m.name, m.bytes));
                    }
                }
            }
        }
        assert!(members.len() >= 5, "only {} members: the archives were not opened", members.len());
        inputs.extend(members);
        let mut findings = 0;
        for (name, data) in &inputs {
            let lean = check_bytes(data, name, &lim).map_err(|e| e.to_string());
            let opened = open(Arc::new(Source::from_vec(name.clone(), data.clone())), None, &lim)
                .and_then(|p| p.check(&lim))
                .map_err(|e| e.to_string());
            findings += lean.as_ref().map_or(1, Vec::len);
            assert_eq!(lean, opened, "{name}");
        }
        assert!(findings > 10, "only {findings} findings: the comparison saw nothing to compare");
    }
}
