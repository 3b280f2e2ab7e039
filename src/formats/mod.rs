//! Format families and their dispatch: [`sniff`] picks a format for some bytes,
//! [`describe`] turns bytes into a [`Document`], and each [`Format`] decodes animation and
//! opens nested members. Consumers use only this module's public items and `model`;
//! format internals (`raw`, `parse`) stay private to `formats`.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod ccsf;
pub mod gzarc;
pub mod motn;
pub mod pak;
pub mod raw;
pub mod sc6;

use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::{Diagnostic, Document};
use std::collections::BTreeMap;

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
    pub fn add(&mut self, key: impl Into<String>, n: u64) {
        *self.counters.entry(key.into()).or_insert(0) += n;
    }

    /// Merge another survey's counters and findings into this one.
    pub fn merge(&mut self, other: Survey) {
        for (k, v) in other.counters {
            self.add(k, v);
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

/// One format family. Implementations live in `formats/<name>/`.
pub trait Format: Send + Sync {
    /// Short id used by `--format` (`raw`, `sc6`, `motn`, `ccsf`, `gzarc`).
    fn id(&self) -> &'static str;

    /// One-line description for `--help` and the README table.
    fn description(&self) -> &'static str;

    /// How sure (0 = not this format, 100 = certain) that `data` named `name` is this format.
    fn sniff(&self, data: &[u8], name: &str) -> u8;

    /// Permissive parse: the whole tree that could be read, with problems as diagnostics.
    /// Errors only when nothing at all can be shown.
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document>;

    /// Strict check (`check`, `export`, tests): every finding, or the first hard error.
    /// The default reports the permissive parse's warnings and errors.
    fn check(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let doc = self.describe(data, name, limits)?;
        Ok(doc.diagnostics.into_iter().filter(|d| d.severity >= crate::model::Severity::Warning).collect())
    }

    /// Decode the animation a node names in its `anim` key (`clip:181`, `seq:NAME`).
    fn decode(&self, _data: &[u8], key: &str, _opts: &DecodeOptions, _limits: &Limits) -> Result<Clip> {
        Err(ParseError::new(0, ErrorKind::Unsupported(format!("{} has no animation to decode ({key})", self.id()))))
    }

    /// Open nested member `index` (a node's `member`).
    fn member(&self, _data: &[u8], index: u32, _limits: &Limits) -> Result<Member> {
        Err(ParseError::new(0, ErrorKind::NotFound(format!("member {index} in {} data", self.id()))))
    }

    /// Open nested member `index` whose node spans `span` in the document. Formats that can
    /// open a member from its listed extent (sector-gzip archives, where finding member
    /// `index` from an index alone means probing every boundary before it) override this;
    /// the default is [`Format::member`].
    fn member_in(&self, data: &[u8], index: u32, span: crate::model::Span, limits: &Limits) -> Result<Member> {
        let _ = span;
        self.member(data, index, limits)
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
        &[&gzarc::GzArc, &ccsf::Ccsf, &sc6::Sc6, &pak::Pks, &pak::IpacFormat, &pak::Pkf, &motn::Motn, &raw::Raw];
    ALL
}

/// The format with id `id`.
pub fn by_id(id: &str) -> Option<&'static dyn Format> {
    all().iter().copied().find(|f| f.id().eq_ignore_ascii_case(id))
}

/// The most confident format for `data` named `name` (falls back to `raw`).
pub fn sniff(data: &[u8], name: &str) -> &'static dyn Format {
    let mut best: &'static dyn Format = &raw::Raw;
    let mut best_score = 0u8;
    for f in all() {
        let s = f.sniff(data, name);
        if s > best_score {
            best = *f;
            best_score = s;
        }
    }
    best
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
    Ok((fmt, doc))
}
