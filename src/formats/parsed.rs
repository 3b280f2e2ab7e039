//! The seam between formats and their consumers: [`Parsed`], the one object per opened
//! input that answers everything (document, animations, decodes, members, scene, check,
//! progressive listing), and the handles it deals in ([`AnimRef`], listing steps).

use super::{DecodeOptions, Format, Member, TopLevel};
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::mesh::{Scene, SceneRequest};
use crate::model::{Diagnostic, Document, NodeId, Severity};
use crate::source::Source;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// An animation a parsed input holds (a clip, a sequence, an Anime chunk, a frame
/// section), minted by its format. Consumers show its name and hand it back to
/// [`Clips::decode`]; what it stands for inside the format is the format's business.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AnimRef {
    key: String,
    name: String,
    node: Option<NodeId>,
    listed: bool,
    handle: AnimHandle,
}

/// What an [`AnimRef`] stands for inside its format, found once when the reference is
/// minted (from the listing, or from a name the user typed) so decoding does not look it
/// up again. Opaque outside `formats`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(in crate::formats) enum AnimHandle {
    /// Not resolved: the format decodes by the key and reports what is wrong with it.
    Key,
    /// A slot of an sc6 bank's offset table.
    Slot(usize),
    /// A MOTN table entry (the first entry with the name).
    Entry(usize),
    /// A CCSF Anime chunk, by its offset.
    Chunk(u64),
    /// The CCSF frame section.
    Frames,
}

impl AnimRef {
    /// Display name (`clip 3`, `A_WALK_L_02`, `ANM_walk`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The node that stands for it in the document, when there is one.
    pub fn node(&self) -> Option<NodeId> {
        self.node
    }

    /// True when the input is known to hold it: the document lists it (see
    /// [`AnimRef::node`]), or the format found it in its own tables without building the
    /// document. False for a name passed through unchecked.
    pub fn is_listed(&self) -> bool {
        self.listed
    }

    /// Same animation, same format: for caches keyed by animation (not shown to users).
    pub fn id(&self) -> &str {
        &self.key
    }

    /// The format's key (`clip:3`, `seq:NAME`): formats only.
    pub(in crate::formats) fn key(&self) -> &str {
        &self.key
    }

    /// What it stands for in its format: formats only.
    pub(in crate::formats) fn handle(&self) -> &AnimHandle {
        &self.handle
    }

    /// Resolve it to `handle` (formats mint their references).
    pub(in crate::formats) fn resolve(&mut self, handle: AnimHandle) {
        self.handle = handle;
    }

    fn of_node(doc: &Document, id: NodeId) -> Option<AnimRef> {
        let n = doc.node(id)?;
        let key = n.anim.clone()?;
        let name = match key.split_once(':') {
            Some((_, rest)) if !rest.is_empty() => rest.to_string(),
            _ => n.key.to_string(),
        };
        Some(AnimRef { key, name, node: Some(id), listed: true, handle: AnimHandle::Key })
    }
}

/// Every animation `doc` lists, in document order, each resolved by `mint` (which gets
/// them all at once, so a format can resolve them in one pass over its tables).
pub(crate) fn animations_of(doc: &Document, mint: impl FnOnce(&mut [AnimRef])) -> Vec<AnimRef> {
    let mut all: Vec<AnimRef> = doc.nodes.iter().filter_map(|n| AnimRef::of_node(doc, n.id)).collect();
    mint(&mut all);
    all
}

/// The animation `node` of `doc` stands for (its own or its nearest ancestor's),
/// resolved by `mint`.
pub(crate) fn animation_at_of(doc: &Document, node: NodeId, mint: impl FnOnce(&mut [AnimRef])) -> Option<AnimRef> {
    let mut cur = doc.node(node);
    while let Some(n) = cur {
        if let Some(a) = AnimRef::of_node(doc, n.id) {
            let mut one = [a];
            mint(&mut one);
            let [a] = one;
            return Some(a);
        }
        cur = n.parent.and_then(|p| doc.node(p));
    }
    None
}

/// One `--opt KEY=VALUE` a format's decoder understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key.
    pub key: &'static str,
    /// Accepted values (empty: any value the help describes).
    pub values: &'static [&'static str],
    /// What it does.
    pub help: &'static str,
}

impl OptionSpec {
    /// `values` of an option that takes a whole number (0 to 4294967295).
    pub const NUMBER: &'static [&'static str] = &["<number>"];

    /// Check `opts.extra` against `specs`: an unknown key or a value outside the listed ones
    /// is an error naming what is valid. `internal` keys (set by the program, not users) pass.
    pub fn validate(format: &str, specs: &[OptionSpec], opts: &DecodeOptions) -> std::result::Result<(), String> {
        for (k, v) in &opts.extra {
            let Some(spec) = specs.iter().find(|s| s.key == k) else {
                let valid: Vec<String> = specs.iter().map(|s| s.key.to_string()).collect();
                return Err(format!(
                    "--opt {k}={v}: {format} has no option {k}; {}",
                    if valid.is_empty() { "it takes none".to_string() } else { format!("valid: {}", valid.join(", ")) }
                ));
            };
            if spec.values == OptionSpec::NUMBER {
                if v.trim().parse::<u32>().is_err() {
                    return Err(format!("--opt {k}={v}: {k} takes a whole number 0..={}", u32::MAX));
                }
                continue;
            }
            if !spec.values.is_empty() && !spec.values.contains(&v.as_str()) {
                return Err(format!("--opt {k}={v}: expected one of {}", spec.values.join(", ")));
            }
        }
        Ok(())
    }
}

/// How far the listing of an archive's members has got. Documents of formats that list
/// everything at once are always complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingProgress {
    /// Members listed as nodes so far.
    pub members: u64,
    /// Bytes `0..listed_bytes` are covered by listed nodes.
    pub listed_bytes: u64,
    /// Bytes `0..probed_bytes` have been searched for member starts.
    pub probed_bytes: u64,
    /// Length of the bytes.
    pub len: u64,
}

impl ListingProgress {
    /// True when every member is listed.
    pub fn complete(&self) -> bool {
        self.listed_bytes >= self.len
    }

    /// Share of the bytes probed, in percent (0..=100).
    pub fn percent(&self) -> u8 {
        if self.len == 0 {
            return 100;
        }
        u8::try_from(u128::from(self.probed_bytes.min(self.len)) * 100 / u128::from(self.len)).unwrap_or(100)
    }
}

/// One probed range of an unfinished listing: where member starts were found in
/// `from..to`. Made off the UI thread by a [`ListingProber`], applied with
/// [`Parsed::apply_listing`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingStep {
    /// First byte probed.
    pub from: u64,
    /// End of the probed range (exclusive).
    pub to: u64,
    pub(in crate::formats) starts: Vec<u64>,
}

impl ListingStep {
    /// True when this step reaches the end of the bytes (the last step).
    pub fn is_last(&self, len: u64) -> bool {
        self.to >= len
    }
}

/// Probes the rest of an unfinished listing in steps of a fixed size, reading the file by
/// `pread` (no mapped page is touched, so RSS stays bounded however large the file). It
/// owns only the bytes, not the document, so it can run on a background thread while the
/// owner of the document applies its steps (in order).
pub struct ListingProber {
    probe: ProbeFn,
    source: Arc<Source>,
    next: u64,
    step: u64,
}

/// Finds the member starts in `from..to` by positioned reads (`read_at`).
pub(in crate::formats) type ProbeFn = fn(
    read_at: &mut dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize>,
    from: u64,
    to: u64,
) -> std::io::Result<Vec<u64>>;

impl std::fmt::Debug for ListingProber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListingProber").field("next", &self.next).field("step", &self.step).finish()
    }
}

impl ListingProber {
    /// A prober of `source` from byte `next` on in steps of `step` bytes by `probe`.
    pub(in crate::formats) fn new(probe: ProbeFn, source: Arc<Source>, next: u64, step: u64) -> ListingProber {
        ListingProber { probe, source, next, step }
    }

    /// Probe the next range; None when the end was reached.
    pub fn next_step(&mut self) -> Option<std::io::Result<ListingStep>> {
        self.next_step_unless(&AtomicBool::new(false))
    }

    /// Like [`ListingProber::next_step`], but gives up (None) as soon as `stop` is set,
    /// checked every 4 MiB, so a background prober ends promptly when its consumer is gone.
    pub fn next_step_unless(&mut self, stop: &AtomicBool) -> Option<std::io::Result<ListingStep>> {
        const PIECE: u64 = 4 << 20;
        let len = self.source.len();
        if self.next >= len {
            return None;
        }
        let from = self.next;
        let to = from.saturating_add(self.step.max(1)).min(len);
        let src = &self.source;
        let mut read_at = |off: u64, buf: &mut [u8]| src.read_at(off, buf);
        let mut starts = Vec::new();
        let mut at = from;
        while at < to {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let end = at.saturating_add(PIECE).min(to);
            match (self.probe)(&mut read_at, at, end) {
                Ok(found) => starts.extend(found),
                Err(e) => return Some(Err(e)),
            }
            at = end;
        }
        self.next = to;
        Some(Ok(ListingStep { from, to, starts }))
    }
}

/// One opened input, parsed once. Everything a consumer asks about the input goes through
/// it; nothing above `formats` looks at a format's own types.
pub trait Parsed: Send + Sync {
    /// The format that parsed it.
    fn format(&self) -> &'static dyn Format;
    /// The bytes.
    fn source(&self) -> &Arc<Source>;
    /// The annotated document.
    fn document(&self) -> &Document;
    /// The document, to rename its root or apply listing steps.
    fn document_mut(&mut self) -> &mut Document;
    /// A copy sharing the bytes, with its own document.
    fn clone_parsed(&self) -> Box<dyn Parsed>;

    /// False while a document deferred at open has not been built (nothing has asked for
    /// it yet): what a verb cost can be checked by it.
    fn is_document_built(&self) -> bool {
        true
    }

    /// The input's animations, when its format has them ([`Clips`]); None: nothing to
    /// list, find or decode.
    fn clips(&self) -> Option<&dyn Clips> {
        None
    }

    /// The input's nested members, when its format has them ([`Members`]): archive
    /// members, container entries.
    fn members(&self) -> Option<&dyn Members> {
        None
    }

    /// The input's models, when its format has them ([`Meshes`]); None: no meshes to
    /// export or draw.
    fn meshes(&self) -> Option<&dyn Meshes> {
        None
    }

    /// The input's pictures, when its format has them ([`Pictures`]).
    fn pictures(&self) -> Option<&dyn Pictures> {
        None
    }

    /// Strict check: every finding, or the first hard error. The default reports the
    /// document's warnings and errors.
    fn check(&self, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let _ = limits;
        let doc = self.document();
        match doc.budget_exceeded() {
            Some(b) => Err(b.error()),
            None => Ok(document_findings(doc)),
        }
    }

    /// Show the document top level by top level without holding all of it (`tree` of a
    /// 315,000-member archive): `visit` gets the root first, then each child of the root in
    /// order, each in a document that may be dropped after it; returns the document's
    /// findings as the whole document records them. None: the document is built
    /// ([`Parsed::document_mut`]) and shown from there.
    fn stream_top_level(
        &self,
        limits: &Limits,
        visit: &mut dyn FnMut(TopLevel<'_>) -> std::io::Result<()>,
    ) -> Option<std::io::Result<Vec<Diagnostic>>> {
        let _ = (limits, visit);
        None
    }

    /// How far the member listing has got (complete for formats that list at once).
    fn listing_progress(&self) -> ListingProgress {
        let doc = self.document();
        ListingProgress { members: 0, listed_bytes: doc.len, probed_bytes: doc.len, len: doc.len }
    }

    /// The node standing for the bytes not listed yet (always the last node; its id changes
    /// with every listing step), when the listing is unfinished.
    fn unlisted_node(&self) -> Option<NodeId> {
        if self.listing_progress().complete() {
            return None;
        }
        self.document().nodes.last().map(|n| n.id)
    }

    /// A prober for the rest of the listing in steps of `step` bytes; None when complete
    /// (always, for formats that list at once).
    fn listing_prober(&self, step: u64) -> Option<ListingProber> {
        let _ = step;
        None
    }

    /// The container's write-back: how to put a member's new bytes back (None for
    /// formats that hold no members, or cannot rewrite the tables that locate them).
    fn rebuild(&self) -> Option<&dyn super::Rebuild> {
        None
    }

    /// The format's clip import: how to re-encode one of its animations from posed
    /// matrices (None for formats that cannot).
    fn import(&self) -> Option<&dyn super::ClipImport> {
        None
    }

    /// Apply a probed step (member headers read by `pread`). Steps must come in order; one
    /// that does not continue where the listing stopped is ignored. True when complete
    /// (always, for formats that list at once).
    fn apply_listing(&mut self, step: &ListingStep) -> bool {
        let _ = step;
        true
    }
}

/// A capability of [`Parsed`] (see [`Parsed::meshes`]): the models of an input whose format
/// has them, built into meshes, materials and images, posed by its animations.
pub trait Meshes {
    /// The model a node stands for (a model chunk, or a node inside one), by name, for
    /// exporting just that model.
    fn model_of(&self, node: NodeId) -> Option<String>;

    /// How to pose the scene at `frame` of `anim` (an animation that cannot pose meshes
    /// gives the rest pose). The default poses by the animation's name.
    fn scene_pose(&self, anim: &AnimRef, frame: u32) -> crate::model::mesh::ScenePose {
        crate::model::mesh::ScenePose::Animation { name: anim.name().to_string(), frame }
    }

    /// The meshes, materials and images `req` asks for, within `limits`.
    fn scene(&self, req: &SceneRequest, limits: &Limits) -> Result<Scene>;
}

/// A capability of [`Parsed`] (see [`Parsed::pictures`]): nodes that stand for pictures
/// (textures), decoded.
pub trait Pictures {
    /// The picture `node` stands for (a texture, or a node inside one such as a mip level),
    /// decoded to RGBA with its pixel format and palette named, its pixels charged to
    /// `limits`' memory budget; None when the node is no picture the format decodes.
    fn image(&self, node: NodeId, limits: &Limits) -> Option<Result<crate::model::image::DecodedImage>>;
}

/// A capability of [`Parsed`] (see [`Parsed::clips`]): the animations of an input whose
/// format has them, listed, found by name and decoded.
pub trait Clips {
    /// Every animation the document lists, in document order.
    fn animations(&self) -> Vec<AnimRef>;

    /// The animation a node stands for: the node's own, or its nearest ancestor's.
    fn animation_at(&self, node: NodeId) -> Option<AnimRef>;

    /// The animation a user named (`--anim NAME`: a clip index or packed id, a sequence or
    /// Anime name). Names the document does not list are passed to the format as they are,
    /// so decode reports what is wrong with them.
    fn find_animation(&self, name: &str) -> Result<AnimRef>;

    /// Decode an animation into tracks (and poses where the format can pose).
    fn decode(&self, anim: &AnimRef, opts: &DecodeOptions, limits: &Limits) -> Result<Clip>;
}

/// A capability of [`Parsed`] (see [`Parsed::members`]): nodes that link to nested
/// inputs (archive members, container entries), opened.
pub trait Members {
    /// Open the nested member a node links to.
    fn member(&self, node: NodeId, limits: &Limits) -> Result<Member>;

    /// Where the bytes of the member a node links to lie in this input (start, end), when
    /// the format knows it without reading them: entries that name the same bytes (IPAC
    /// aliases) are one member.
    fn member_span(&self, node: NodeId, limits: &Limits) -> Option<(u64, u64)>;
}

impl<'a> dyn Parsed + 'a {
    /// The input's members ([`Parsed::members`]), or the error opening `node` as a member
    /// of an input without them gets.
    pub fn require_members(&self, node: NodeId) -> Result<&dyn Members> {
        self.members().ok_or_else(|| {
            ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", self.document().path(node))))
        })
    }

    /// Open the member `node` links to ([`Members::member`]), or the error that it is not one.
    pub fn open_member_of(&self, node: NodeId, limits: &Limits) -> Result<Member> {
        self.require_members(node)?.member(node, limits)
    }

    /// The input's models ([`Parsed::meshes`]), or the error that says it has none.
    pub fn require_meshes(&self) -> Result<&dyn Meshes> {
        self.meshes().ok_or_else(|| {
            ParseError::new(0, ErrorKind::Unsupported(format!("{} data has no meshes to export", self.format().id())))
        })
    }

    /// The input's animations ([`Parsed::clips`]), or the error a name looked up in an
    /// input without them gets (`--anim NAME` of an archive).
    pub fn require_clips(&self) -> Result<&dyn Clips> {
        self.clips().ok_or_else(|| {
            ParseError::new(0, ErrorKind::Unsupported(format!("{} data has no named animations", self.format().id())))
        })
    }

    /// The input's animations to decode `anim` with, or the error decoding it in an input
    /// without them gets (a reference minted by another input).
    pub fn require_clips_for(&self, anim: &AnimRef) -> Result<&dyn Clips> {
        self.clips().ok_or_else(|| {
            ParseError::new(
                0,
                ErrorKind::Unsupported(format!("{} has no animation to decode ({})", self.format().id(), anim.key())),
            )
        })
    }

    /// Every animation the input lists ([`Clips::animations`]); none without [`Clips`].
    pub fn animations(&self) -> Vec<AnimRef> {
        self.clips().map(Clips::animations).unwrap_or_default()
    }

    /// The animation a node stands for ([`Clips::animation_at`]); None without [`Clips`].
    pub fn animation_at(&self, node: NodeId) -> Option<AnimRef> {
        self.clips().and_then(|c| c.animation_at(node))
    }
}

/// [`Clips::find_animation`] of a format whose animations are keyed `key` (`clip:3`,
/// `seq:NAME`): the document's node with that key, or the key passed through unlisted.
pub(in crate::formats) fn find_keyed(doc: &Document, key: String, name: &str) -> AnimRef {
    let node = doc.nodes.iter().find(|n| n.anim.as_deref() == Some(key.as_str())).map(|n| n.id);
    AnimRef::named(key, name, node, node.is_some())
}

impl AnimRef {
    /// The animation keyed `key` that a user called `name`, shown by the key's name part.
    pub(in crate::formats) fn named(key: String, name: &str, node: Option<NodeId>, listed: bool) -> AnimRef {
        let shown = key.split_once(':').map_or(name, |(_, r)| r).to_string();
        AnimRef { key, name: shown, node, listed, handle: AnimHandle::Key }
    }
}

/// Builds a document that was deferred at open (see [`LazyDocument::deferred`]).
pub(in crate::formats) type BuildDocument = fn(&Arc<Source>, &Limits) -> Document;

/// The bytes and document of a parsed object: the document given at open, or built on
/// first use (a verb that needs only the format's own tables never builds it).
#[derive(Clone)]
pub(in crate::formats) struct LazyDocument {
    source: Arc<Source>,
    doc: OnceLock<Document>,
    /// Set for a deferred document: how to build it and under which limits.
    build: Option<(BuildDocument, Limits)>,
}

impl LazyDocument {
    /// A document made at open.
    pub(in crate::formats) fn ready(source: Arc<Source>, doc: Document) -> LazyDocument {
        LazyDocument { source, doc: OnceLock::from(doc), build: None }
    }

    /// A document built on first use by `build` under `limits`. The format has checked at
    /// open whatever could fail, so building cannot.
    pub(in crate::formats) fn deferred(source: Arc<Source>, limits: &Limits, build: BuildDocument) -> LazyDocument {
        LazyDocument { source, doc: OnceLock::new(), build: Some((build, *limits)) }
    }

    /// The bytes.
    pub(in crate::formats) fn source(&self) -> &Arc<Source> {
        &self.source
    }

    /// The limits a deferred document is built under (the defaults for one made at open).
    pub(in crate::formats) fn limits(&self) -> Limits {
        self.build.map_or_else(Limits::default, |b| b.1)
    }

    /// The document, built now if it was deferred.
    pub(in crate::formats) fn get(&self) -> &Document {
        self.doc.get_or_init(|| match self.build {
            Some((build, limits)) => build(&self.source, &limits),
            // Only `ready` leaves `build` empty, and it sets the document.
            None => Document::new("raw", self.source.name(), "file", self.source.len(), &Limits::default()),
        })
    }

    /// The document to change, built now if it was deferred.
    pub(in crate::formats) fn get_mut(&mut self) -> &mut Document {
        self.get();
        match self.doc.get_mut() {
            Some(doc) => doc,
            None => unreachable!("get() sets the document"),
        }
    }

    /// True once the document exists.
    pub(in crate::formats) fn is_built(&self) -> bool {
        self.doc.get().is_some()
    }
}

/// The [`Parsed`] methods every parsed object answers from its `doc: LazyDocument` field
/// (format, bytes, document, copy), for a `Clone` type whose format is `$format`.
macro_rules! parsed_document_methods {
    ($format:expr) => {
        fn format(&self) -> &'static dyn crate::formats::Format {
            &$format
        }

        fn source(&self) -> &std::sync::Arc<crate::source::Source> {
            self.doc.source()
        }

        fn document(&self) -> &crate::model::Document {
            self.doc.get()
        }

        fn document_mut(&mut self) -> &mut crate::model::Document {
            self.doc.get_mut()
        }

        fn clone_parsed(&self) -> Box<dyn crate::formats::Parsed> {
            Box::new(self.clone())
        }

        fn is_document_built(&self) -> bool {
            self.doc.is_built()
        }
    };
}
pub(in crate::formats) use parsed_document_methods;

/// The document's nodes counted by kind and its warnings and errors: the survey of a
/// format without counters of its own.
pub(in crate::formats) fn document_survey(doc: &Document, tally: &mut super::tally::Tally) {
    for n in doc.nodes.iter().skip(1) {
        tally.add_named(&format!("nodes.{}", n.kind), 1);
    }
    tally.findings.extend(document_findings(doc));
}

/// The permissive parse's warnings and errors: what `check` reports for formats without
/// strict checks of their own.
pub(in crate::formats) fn document_findings(doc: &Document) -> Vec<Diagnostic> {
    doc.diagnostics.iter().filter(|d| d.severity >= Severity::Warning).cloned().collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod anim_handle_tests {
    use super::{AnimHandle, AnimRef};
    use crate::formats::{DecodeOptions, Parsed, open};
    use crate::limits::Limits;
    use crate::source::Source;
    use std::sync::Arc;

    /// The same reference unresolved: decode looks it up by its key, as before handles.
    fn by_key(a: &AnimRef) -> AnimRef {
        let mut k = a.clone();
        k.resolve(AnimHandle::Key);
        k
    }

    fn check_same(p: &dyn Parsed, a: &AnimRef, what: &str, lim: &Limits) -> bool {
        let mut resolved = false;
        let p = p.clips().unwrap();
        for curves_only in [false, true] {
            let opts = DecodeOptions { curves_only, ..DecodeOptions::default() };
            let fast = p.decode(a, &opts, lim).map_err(|e| e.to_string());
            let slow = p.decode(&by_key(a), &opts, lim).map_err(|e| e.to_string());
            assert_eq!(fast, slow, "{what} {}: decoding by the handle differs from decoding by the key", a.name());
            resolved = *a.handle() != AnimHandle::Key;
        }
        resolved
    }

    /// Every animation every fixture lists (in the file and in its archive members),
    /// and every one found again by its name (`--anim NAME`), is minted with a typed
    /// handle, and decoding by it gives the clip (or the error) decoding by the key gave.
    #[test]
    fn minted_handles_decode_what_the_keys_decode() {
        let lim = Limits::default();
        let mut inputs: Vec<Box<dyn Parsed>> = Vec::new();
        for (name, data) in crate::fixtures::all() {
            if let Ok(p) = open(Arc::new(Source::from_vec(name, data)), None, &lim) {
                let ids: Vec<_> = p.document().nodes.iter().filter(|n| n.member.is_some()).map(|n| n.id).collect();
                for id in ids {
                    if let Ok(m) = p.open_member_of(id, &lim)
                        && let Ok(mp) = open(Arc::new(Source::from_vec(m.name, m.bytes)), None, &lim)
                    {
                        inputs.push(mp);
                    }
                }
                inputs.push(p);
            }
        }
        let (mut listed, mut resolved, mut formats) = (0, 0, std::collections::BTreeSet::new());
        for p in &inputs {
            let what = p.source().name().to_string();
            for a in p.animations() {
                listed += 1;
                if check_same(p.as_ref(), &a, &what, &lim) {
                    resolved += 1;
                    formats.insert(p.format().id());
                }
                // (a CCSF frame section is named by its file, not found by a name)
                if a.key() != "frames" {
                    let again = p.clips().unwrap().find_animation(a.name()).unwrap();
                    assert!(again.is_listed(), "{what} {}: its own name is not found", a.name());
                    assert_eq!(again.handle(), a.handle(), "{what} {}: found by name, it resolves elsewhere", a.name());
                    check_same(p.as_ref(), &again, &what, &lim);
                }
                if let Some(n) = a.node() {
                    let at = p.animation_at(n).unwrap();
                    assert_eq!(at.handle(), a.handle(), "{what} {}: the node's animation resolves elsewhere", a.name());
                }
            }
        }
        assert!(listed > 40, "only {listed} animations listed: the fixtures were not reached");
        assert_eq!(resolved, listed, "every listed animation gets a typed handle");
        assert_eq!(formats.into_iter().collect::<Vec<_>>(), ["ccsf", "motn", "sc6"]);
    }
}
