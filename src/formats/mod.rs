//! Format families and their dispatch: [`sniff`] picks a format for some bytes and
//! [`open`] parses them once into a [`Parsed`], which answers everything a consumer asks
//! (the document, the animations as [`AnimRef`]s, decodes, nested members, the scene's
//! meshes, the strict check, progressive listing). Consumers (CLI, TUI, exports, survey,
//! the session) use only this module's public items and `model`, never a format's folder;
//! format internals (`raw`, `parse`) stay private to `formats`.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod ccsf;
pub mod gzarc;
mod import;
mod inline;
pub mod motn;
pub mod opaque;
pub mod pak;
mod parsed;
mod rebuild;
mod record;
mod record_layout;
pub mod sc6;
pub mod tally;

pub use import::{ChannelFit, ClipImport, Imported, KeyRule, PoseImport, rotation_between};
pub use parsed::{
    AnimRef, Clips, ListingProber, ListingProgress, ListingStep, Members, Meshes, OptionSpec, Parsed, Pictures,
};
#[cfg(any(test, feature = "harness"))]
pub(crate) use parsed::{animation_at_of, animations_of};
pub use rebuild::{Piece, Rebuild, RebuildOptions, Spliced};
pub use record_layout::{NotConvertible, RecordTable};

use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::{Diagnostic, Document};
use crate::source::Source;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What [`Parsed::stream_top_level`] shows, in order.
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

/// One format family: its identity and its entry points. Implementations live in
/// `formats/<name>/`. Consumers call [`open`] / [`open_as`] and ask the [`Parsed`] it
/// returns; the lean [`Format::check`] and [`Format::survey`] serve inputs nobody keeps
/// open (archive members, `survey`'s files), which they walk once without a document.
/// Every other caller (the CLI, the TUI, tests, benches) goes through the parsed object; the
/// byte-level functions of each format's type exist only for its own unit tests.
pub trait Format: Send + Sync {
    /// Short id used by `--format` (`raw`, `sc6`, `motn`, `ccsf`, `gzarc`).
    fn id(&self) -> &'static str;

    /// One-line description for `--help` and the format tables of the docs.
    fn description(&self) -> &'static str;

    /// True when opening as this format reads a structure (false for the fallback that
    /// shows any bytes as one unknown node: checking it checks nothing).
    fn recognises_structure(&self) -> bool {
        true
    }

    /// How sure (0 = not this format, 100 = certain, never more) that `data` named `name`
    /// is this format.
    fn sniff(&self, data: &[u8], name: &str) -> u8;

    /// The `--opt KEY=VALUE` options [`Clips::decode`] understands.
    fn options(&self) -> &'static [OptionSpec] {
        &[]
    }

    /// The format's built-in skeleton for exports without `--skeleton`: bones (parents
    /// first, rest matrices in the format's model space), the default conversion `C` into
    /// Blender armature space, and `C` in words. None when skeletons come from each file.
    fn builtin_skeleton(&self) -> Option<BuiltinSkeleton> {
        None
    }

    /// Parse `source` once into the format's own parsed object, its document's memory
    /// charged to `limits`. Errors only when nothing at all can be shown.
    fn open(&self, source: Arc<Source>, limits: &Limits) -> Result<Box<dyn Parsed>>;

    /// The strict check of `source` without a parsed object or display document (what
    /// [`Parsed::check`] finds when it is opened): every finding, or the first hard error.
    /// Archives read their members by `pread` ([`Source::read_at`]).
    fn check(&self, source: &Source, limits: &Limits) -> Result<Vec<Diagnostic>>;

    /// Survey `source` into `tally` without a parsed object: `done(n)` is called (from any
    /// thread) as `n` more bytes have been surveyed, adding up to its length (archives
    /// report member by member and read by `pread`). On `Err` nothing was added.
    fn survey(
        &self,
        source: &Source,
        limits: &Limits,
        done: &(dyn Fn(u64) + Sync),
        tally: &mut tally::Tally,
    ) -> Result<()>;
}

/// Every built-in record with a layout table, with its format's id: what
/// `layout export --record` exports ([`RecordTable::structs`] converts a table to the
/// structs a user layout declares, or says which field cannot be said and why).
pub fn record_tables() -> impl Iterator<Item = (&'static str, &'static RecordTable)> {
    ccsf::tables::RECORDS.iter().map(|r| ("ccsf", r))
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
    // One budget for every format: a document that outgrew it is an error, not a partial tree.
    // A document deferred to first use is checked by whoever builds it (a deferred MOTN
    // skeleton holds one node per sequence, at most 4,095).
    let r = format.open(source, limits).and_then(|p| {
        match p.is_document_built().then(|| p.document().budget_exceeded()).flatten() {
            Some(b) => Err(b.error()),
            None => Ok(p),
        }
    });
    r.map_err(|e| e.within(format.id()))
}

/// A parsed object holding `doc` as the document of `source` under the opaque fallback
/// format (tests and placeholders that build a document by hand).
pub fn with_document(source: Arc<Source>, doc: Document) -> Box<dyn Parsed> {
    opaque::OpaqueParsed::with(source, doc)
}

/// Sniff (or take `forced`) and parse once.
pub fn open(source: Arc<Source>, forced: Option<&str>, limits: &Limits) -> Result<Box<dyn Parsed>> {
    let fmt = pick(source.bytes(), source.name(), forced)?;
    open_as(fmt, source, limits)
}

/// The strict check of `source` by its sniffed format's lean [`Format::check`], without a
/// parsed object or display document (archive members in `check`); errors name the format
/// as [`open`]'s do.
pub(in crate::formats) fn check_source(source: &Source, limits: &Limits) -> Result<Vec<Diagnostic>> {
    let fmt = sniff(source.bytes(), source.name());
    fmt.check(source, limits).map_err(|e| e.within(fmt.id()))
}

#[cfg(test)]
/// Sniff (or take `forced`) and describe eagerly: every node built at once, as the
/// format's own `describe` makes it (tests and tools that compare whole documents; the
/// program opens with [`open`]). Errors if `forced` names no format.
pub(crate) fn describe(
    data: &[u8],
    name: &str,
    forced: Option<&str>,
    limits: &Limits,
) -> Result<(&'static dyn Format, Document)> {
    let fmt = match forced {
        Some(id) => by_id(id).ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("format {id}"))))?,
        None => sniff(data, name),
    };
    let doc = match fmt.id() {
        "gzarc" => gzarc::GzArc.describe(data, name, limits),
        "ccsf" => ccsf::Ccsf.describe(data, name, limits),
        "sc6" => sc6::Sc6.describe(data, name, limits),
        "pks" => pak::Pks.describe(data, name, limits),
        "ipac" => pak::IpacFormat.describe(data, name, limits),
        "pkf" => pak::Pkf.describe(data, name, limits),
        "motn" => motn::Motn.describe(data, name, limits),
        _ => opaque::Opaque.describe(data, name, limits),
    }
    .map_err(|e| e.within(fmt.id()))?;
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
mod check_source_tests {
    use super::{check_source, open};
    use crate::limits::Limits;
    use crate::source::Source;
    use std::sync::Arc;

    /// The lean member check (`check_source`, no display document) finds what opening the
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
                    if let Ok(m) = p.open_member_of(id, &lim) {
                        members.push((m.name, m.bytes));
                    }
                }
            }
        }
        assert!(members.len() >= 5, "only {} members: the archives were not opened", members.len());
        inputs.extend(members);
        let mut findings = 0;
        for (name, data) in &inputs {
            let lean = check_source(&Source::from_vec(name.clone(), data.clone()), &lim).map_err(|e| e.to_string());
            let opened = open(Arc::new(Source::from_vec(name.clone(), data.clone())), None, &lim)
                .and_then(|p| p.check(&lim))
                .map_err(|e| e.to_string());
            findings += lean.as_ref().map_or(1, Vec::len);
            assert_eq!(lean, opened, "{name}");
        }
        assert!(findings > 10, "only {findings} findings: the comparison saw nothing to compare");
    }
}
