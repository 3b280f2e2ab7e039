//! Shenmue / Shenmue II **MOTN** motion blobs (docs/formats/motn.md).
//!
//! A MOTN blob has no magic: a 0x14-byte header (`table_ofs`, `names_ofs`, `data_ofs`,
//! `attributes` whose low 12 bits are the sequence count + 1, `file_size`), a table of
//! (`data_rel` relative to `data_ofs`, absolute `extra_ofs`) pairs, a table of name
//! pointers, the names, then packed sequences and an optional 32-byte ctime trailer.
//! Several names may share one sequence (shown as aliases). Each standard sequence has a
//! 12-byte header (frame word: count in bits 0–14, wide Block 2 in bit 15; kind word; the
//! offsets of Blocks 2–5) and five blocks: node instructions, per-channel intermediate key
//! counts, frame indices, 2-bit key codes and IEEE half-float values. Keys evaluate as
//! cubic Hermite curves with per-second tangents at 30 fps (`decode`).
//!
//! Detection: by name (`*.MOT`, `MOTION.BIN`, `M_*.BIN`, IPAC member `*.MOTN`) or by the
//! docs/formats/motn.md#detection header heuristic (e.g. a gzip member inflated by another format).
//!
//! Still unknown (shown as unknown, never guessed): the extra-data records (opaque token
//! streams; their extent is taken up to the next known structure [I]), `attributes` bits
//! 12–31, the variant layouts' unknown header words and hinge axes (`variant`; spec
//! `motn-variants.md`), the meaning of channel bits 0x7 (consumed like the analog engine does), axis
//! and Euler conventions, and whether code-0 keys really mean 0 in the game (docs/formats/motn.md#open-questions).
//!
//! Export (`pose`): sequences of the standard human rig are posed on a built-in **nominal**
//! skeleton (hierarchy, rest offsets, Euler order and axes chosen by animscope and labelled
//! as such; the Euler order is configurable with the `euler_order` decode option).
//!
//! Bit positions (`Field::bits`): in little-endian words bit k of the value is absolute bit
//! `offset * 8 + k`; Block-4 codes are numbered in read order (slot 0 = bits 7–6 = bit 0).

mod decode;
pub(in crate::formats) mod describe;
mod fixtures;
mod import;
mod parse;
mod pose;
mod raw;
#[cfg(test)]
mod tests;
mod variant;
pub mod write;

use super::parsed::{self, AnimHandle, LazyDocument};
use super::tally::Tally;
use super::{AnimRef, DecodeOptions, Format, Parsed, Survey};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::{Diagnostic, Document};
use crate::source::Source;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One of the nine channel bits of a Block-1 instruction, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Channel {
    /// Translation X (bit 0x100).
    Px,
    /// Translation Y (0x080).
    Py,
    /// Translation Z (0x040).
    Pz,
    /// Rotation X (0x020), stored in turns (1.0 = 360°; decoded tracks carry radians).
    Rx,
    /// Rotation Y (0x010).
    Ry,
    /// Rotation Z (0x008).
    Rz,
    /// Unused bit 0x004 (meaning unknown; consumed).
    U4,
    /// Unused bit 0x002.
    U2,
    /// Unused bit 0x001.
    U1,
}

impl Channel {
    /// All channels in file order (bit high to low).
    pub const ALL: [Channel; 9] = [
        Channel::Px,
        Channel::Py,
        Channel::Pz,
        Channel::Rx,
        Channel::Ry,
        Channel::Rz,
        Channel::U4,
        Channel::U2,
        Channel::U1,
    ];

    /// The instruction bit.
    pub fn bit(self) -> u16 {
        match self {
            Channel::Px => 0x100,
            Channel::Py => 0x080,
            Channel::Pz => 0x040,
            Channel::Rx => 0x020,
            Channel::Ry => 0x010,
            Channel::Rz => 0x008,
            Channel::U4 => 0x004,
            Channel::U2 => 0x002,
            Channel::U1 => 0x001,
        }
    }

    /// Short name used in track names (`px`, `rx`, `u4`).
    pub fn name(self) -> &'static str {
        match self {
            Channel::Px => "px",
            Channel::Py => "py",
            Channel::Pz => "pz",
            Channel::Rx => "rx",
            Channel::Ry => "ry",
            Channel::Rz => "rz",
            Channel::U4 => "u4",
            Channel::U2 => "u2",
            Channel::U1 => "u1",
        }
    }

    /// A rotation channel (stored in turns, decoded to radians).
    pub fn is_rotation(self) -> bool {
        matches!(self, Channel::Rx | Channel::Ry | Channel::Rz)
    }

    /// A translation channel (model units).
    pub fn is_translation(self) -> bool {
        matches!(self, Channel::Px | Channel::Py | Channel::Pz)
    }
}

/// The MOTN format.
#[derive(Debug, Clone, Copy)]
pub struct Motn;

/// True when `name` is one of the file names MOTN blobs are known under (docs/formats/motn.md#detection, docs/formats/pak.md#ipac).
fn name_says_motn(name: &str) -> bool {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let base = base.strip_suffix(" (inflated)").unwrap_or(base).as_bytes();
    // compared ignoring ASCII case without an uppercased copy (sniffed once per archive
    // member in a survey)
    let ends = |suffix: &[u8]| {
        base.len()
            .checked_sub(suffix.len())
            .and_then(|at| base.get(at..))
            .is_some_and(|e| e.eq_ignore_ascii_case(suffix))
    };
    ends(b".MOT")
        || ends(b".MOTN")
        || base.eq_ignore_ascii_case(b"MOTION.BIN")
        || (base.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(b"M_")) && ends(b".BIN"))
}

impl Motn {
    #[cfg(test)]
    /// The permissive parse, every sequence's node built at once.
    pub(crate) fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        describe::describe(data, name, limits)
    }

    #[cfg(test)]
    /// The strict check: the permissive parse's warnings and errors.
    pub(crate) fn check(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let doc = self.describe(data, name, limits)?;
        if let Some(b) = doc.budget_exceeded() {
            return Err(b.error());
        }
        Ok(super::parsed::document_findings(&doc))
    }

    #[cfg(test)]
    /// Totals for `survey`.
    pub(crate) fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        survey(data, name, limits)
    }

    /// Decode the sequence keyed `seq:NAME` (aliases decode as the sequence they name).
    pub(crate) fn decode(&self, data: &[u8], key: &str, opts: &DecodeOptions, limits: &Limits) -> Result<Clip> {
        let wanted = key
            .strip_prefix("seq:")
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("motn decodes seq:NAME keys, not {key}"))))?;
        decode_sequence(data, wanted, None, opts, limits)
    }
}

/// Decode the sequence named `wanted`: table entry `index` when a listing found it there,
/// else the first entry of that name.
fn decode_sequence(
    data: &[u8],
    wanted: &str,
    index: Option<usize>,
    opts: &DecodeOptions,
    limits: &Limits,
) -> Result<Clip> {
    {
        let order = pose::euler_order(opts)?;
        let b = Bytes::new(data);
        let h = parse::Header::read(&b).map_err(|e| e.within("motn header"))?;
        let found = match index {
            Some(i) => parse::entry_at(&b, &h, i, limits),
            None => parse::find_entry(&b, &h, wanted, limits),
        };
        let (entry, first) = found
            .map_err(|e| e.within("motn table"))?
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("sequence {wanted}"))))?;
        let base = entry.base(&h);
        let path = format!("seq[{wanted}]");
        let window = seq_window(&b, &h);
        if !(window.start()..window.end()).contains(&base) {
            return Err(ParseError::new(
                entry.at,
                ErrorKind::OffsetOutOfRange {
                    what: "sequence",
                    offset: base,
                    start: window.start(),
                    end: window.end(),
                },
            )
            .within(path));
        }
        let seq = parse::parse_sequence(&window, base, limits).map_err(|e| e.within(&path))?;
        let alias = first.as_ref().map(parse::Entry::display_name);
        if seq.header.is_variant() {
            return variant::decode(&b, &h, &window, &seq.header, (wanted, alias.as_deref()), opts, limits)
                .map_err(|e| e.within(path));
        }
        let detail = !opts.curves_only;
        // `decode` and the TUI take tracks one at a time, exports poses frame by frame: for
        // them nothing follows the frame count; a stored clip spends what it will hold first
        let on_demand = opts.tracks_on_demand || (opts.poses_on_demand && detail);
        if !on_demand {
            let poses = if detail { pose::stored_bytes(&seq, limits) } else { 0 };
            let needed = decode::stored_bytes(&seq, detail).saturating_add(poses);
            limits.spend_clip("the sequence's samples, keys and poses", needed, base).map_err(|e| e.within(&path))?;
        }
        let mut clip = decode::clip(wanted, &seq, alias.as_deref(), detail, on_demand);
        if opts.curves_only {
            return Ok(clip);
        }
        let poses = if on_demand {
            if !opts.tracks_on_demand {
                // For exports written frame by frame: poses on demand, no tracks or tables.
                clip.tracks.clear();
                clip.tables.clear();
                clip.tracks_on_demand = None;
                clip.notes.push("poses made frame by frame (export); tracks and tables left out".into());
            }
            pose::on_demand(&seq, order, limits).map(|(head, lazy)| {
                clip.on_demand = Some(lazy);
                head
            })
        } else {
            pose::build(&seq, &clip, order, limits)
        };
        match poses {
            Ok(p) => {
                clip.notes.push(format!(
                    "poses: {} (nominal rest offsets and hierarchy, not the game's; pass --skeleton for real proportions); \
                     Euler order {} (X first = Rz*Ry*Rx is the spec's [I] recommendation; decode option euler_order); \
                     axes are open: taken as Y up, right-handed, metres, C = (x, y, z) -> (x, -z, y) into Blender; \
                     channel values taken as absolute (absolute vs bind-relative is open); no IK solved, IK targets are bones",
                    pose::SKELETON_NAME,
                    order.name()
                ));
                clip.poses = Some(p);
            }
            Err(note) => clip.notes.push(note),
        }
        Ok(clip)
    }
}

impl Format for Motn {
    fn options(&self) -> &'static [super::OptionSpec] {
        &[super::OptionSpec {
            key: "euler_order",
            values: &[],
            help: "rotation application order, a permutation of xyz (xyz, zyx, ...)",
        }]
    }

    fn id(&self) -> &'static str {
        "motn"
    }

    fn description(&self) -> &'static str {
        "Shenmue MOTN motion blob (raw .MOT/MOTION.BIN/M_*.BIN, or an IPAC entry)"
    }

    fn sniff(&self, data: &[u8], name: &str) -> u8 {
        let b = Bytes::new(data);
        let Ok(header) = parse::Header::read(&b) else {
            return 0; // not even a header: leave it to `raw`
        };
        let plausible = header.plausible(b.len());
        match (plausible, name_says_motn(name)) {
            (true, true) => 90,
            (true, false) => 70,
            (false, true) => 25,
            (false, false) => 0,
        }
    }

    fn open(&self, source: Arc<Source>, limits: &Limits) -> Result<Box<dyn Parsed>> {
        // Documents on demand: the skeleton is built on first use (a named decode needs only
        // the tables), sequences' fields and children when shown. Only a header that does
        // not fit fails the skeleton; check it now so the open fails, not the build.
        parse::Header::read(&Bytes::new(source.bytes())).map_err(|e| e.within("motn header"))?;
        let doc = LazyDocument::deferred(source, limits, |source, limits| {
            describe::describe_lazy(source, limits).unwrap_or_else(|e| {
                let mut doc = Document::new("motn", source.name(), "motn file", source.len(), limits);
                doc.diag(Diagnostic::from_error(&e));
                doc
            })
        });
        Ok(Box::new(MotnParsed { doc }))
    }

    fn check(&self, source: &Source, limits: &Limits) -> Result<Vec<Diagnostic>> {
        describe::check(source.bytes(), source.name(), limits)
    }

    fn builtin_skeleton(&self) -> Option<super::BuiltinSkeleton> {
        Some(pose::builtin())
    }

    fn survey(&self, source: &Source, limits: &Limits, done: &(dyn Fn(u64) + Sync), tally: &mut Tally) -> Result<()> {
        tally.merge_survey(survey(source.bytes(), source.name(), limits)?);
        done(source.len());
        Ok(())
    }
}

/// A MOTN blob opened once: its header checked at open, its document (one node per
/// sequence) built on first use; named sequences are found in the blob's own table.
#[derive(Clone)]
struct MotnParsed {
    doc: LazyDocument,
}

impl Parsed for MotnParsed {
    fn clips(&self) -> Option<&dyn super::Clips> {
        Some(self)
    }

    parsed::parsed_document_methods!(Motn);

    fn import(&self) -> Option<&dyn super::ClipImport> {
        Some(self)
    }

    /// Every sequence parsed for its findings: the opened document's skeleton reads a
    /// standard sequence's blocks only when it is shown.
    fn check(&self, limits: &Limits) -> Result<Vec<Diagnostic>> {
        // under the limits the document was opened with, as the document's own findings were
        let _ = limits;
        let source = self.doc.source();
        describe::check(source.bytes(), source.name(), &self.doc.limits())
    }
}

impl super::Clips for MotnParsed {
    fn find_animation(&self, name: &str) -> Result<AnimRef> {
        let key = format!("seq:{name}");
        // Not built yet: ask the blob's own table first, so a verb naming one sequence
        // does not build the whole document.
        if !self.doc.is_built()
            && let Some(i) = self.entry_named(name)
        {
            let mut a = AnimRef::named(key, name, None, true);
            a.resolve(AnimHandle::Entry(i));
            return Ok(a);
        }
        let mut a = [parsed::find_keyed(self.doc.get(), key, name)];
        if a[0].is_listed() {
            self.mint(&mut a);
        }
        let [a] = a;
        Ok(a)
    }

    fn animations(&self) -> Vec<AnimRef> {
        parsed::animations_of(self.doc.get(), |a| self.mint(a))
    }

    fn animation_at(&self, node: crate::model::NodeId) -> Option<AnimRef> {
        parsed::animation_at_of(self.doc.get(), node, |a| self.mint(a))
    }

    fn decode(&self, anim: &AnimRef, opts: &DecodeOptions, limits: &Limits) -> Result<Clip> {
        crate::counters::bump(&crate::counters::ANIM_DECODES);
        let data = self.doc.source().bytes();
        match (anim.handle(), anim.key().strip_prefix("seq:")) {
            (AnimHandle::Entry(i), Some(wanted)) => decode_sequence(data, wanted, Some(*i), opts, limits),
            _ => Motn.decode(data, anim.key(), opts, limits),
        }
    }
}

impl super::ClipImport for MotnParsed {
    fn import_clip(
        &self,
        anim: &AnimRef,
        poses: &super::PoseImport,
        opts: &DecodeOptions,
        limits: &Limits,
    ) -> Result<super::Imported> {
        import::import_clip(self.doc.source().bytes(), anim, poses, opts, limits)
    }
}

impl MotnParsed {
    /// The table index of the first entry named `name`.
    fn entry_named(&self, name: &str) -> Option<usize> {
        let b = Bytes::new(self.doc.source().bytes());
        let h = parse::Header::read(&b).ok()?;
        parse::find_entry(&b, &h, name, &self.doc.limits()).ok().flatten().map(|(e, _)| e.index)
    }

    /// Resolve listed `seq:NAME` keys to the first table entry of that name: one pass over
    /// the table for many, a lookup for one.
    fn mint(&self, anims: &mut [AnimRef]) {
        if let [one] = anims {
            if let Some(i) = one.key().strip_prefix("seq:").and_then(|n| self.entry_named(n)) {
                one.resolve(AnimHandle::Entry(i));
            }
            return;
        }
        let b = Bytes::new(self.doc.source().bytes());
        let Ok(h) = parse::Header::read(&b) else { return };
        let Ok(entries) = parse::read_entries(&b, &h, &self.doc.limits()) else { return };
        let mut first: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for e in &entries {
            first.entry(e.display_name()).or_insert(e.index);
        }
        for a in anims {
            if let Some(i) = a.key().strip_prefix("seq:").and_then(|n| first.get(n)) {
                a.resolve(AnimHandle::Entry(*i));
            }
        }
    }
}

/// The window sequences may occupy: `data_ofs` to the trailer (or the end).
fn seq_window<'a>(b: &Bytes<'a>, h: &parse::Header) -> Bytes<'a> {
    let data = u64::from(h.data_ofs).min(b.end());
    let end = parse::find_trailer(b, data).map_or(b.end(), |t| t.start());
    b.sub(data, end).unwrap_or(*b)
}

/// Survey counters: names, distinct sequences, standard vs variant, channels, keys, f16
/// values, sequences per kind word; every error and consistency finding.
pub(in crate::formats) fn survey(data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
    let mut s = Survey { format: "motn", name: name.to_string(), ..Survey::default() };
    let b = Bytes::new(data);
    let h = parse::Header::read(&b).map_err(|e| e.within("motn header"))?;
    let entries = match parse::read_entries(&b, &h, limits) {
        Ok(e) => e,
        Err(e) => {
            s.findings.push(Diagnostic::from_error(&e.within("motn table")));
            return Ok(s);
        }
    };
    s.add("names", entries.len() as u64);
    let window = seq_window(&b, &h);
    let mut bases: Vec<u64> = entries.iter().map(|e| e.base(&h)).collect();
    bases.sort_unstable();
    bases.dedup();
    let mut seen: BTreeMap<u32, ()> = BTreeMap::new();
    let mut work: u64 = 0;
    let regions = parse::RegionCache::default();
    for e in &entries {
        if let Err(err) = &e.name {
            s.findings.push(Diagnostic::from_error(err));
        }
        if seen.insert(e.data_rel, ()).is_some() {
            s.add("aliases", 1);
            continue;
        }
        s.add("sequences", 1);
        let path = format!("seq[{}]", e.display_name());
        if work > limits.max_decode_work {
            let e = ParseError::new(
                e.at,
                ErrorKind::LimitExceeded { what: "motn survey bytes walked", value: work, max: limits.max_decode_work },
            );
            s.findings.push(Diagnostic::from_error(&e.within(path)));
            break;
        }
        let parsed = parse::parse_sequence_cached(&window, e.base(&h), limits, Some(&regions));
        if let Ok(parse::Sequence { body: Some(b), .. }) = &parsed {
            work += b.end.saturating_sub(e.base(&h));
        }
        match parsed {
            Err(err) => {
                s.add("sequences.failed", 1);
                s.findings.push(Diagnostic::from_error(&err.within(path)));
            }
            Ok(seq) => {
                s.add(format!("kind.0x{:04x}", seq.header.kind_word), 1);
                match &seq.body {
                    None => {
                        let next = bases.iter().copied().find(|&x| x > e.base(&h)).unwrap_or(window.end());
                        work += variant::survey(&mut s, &window, &seq.header, next.min(window.end()), limits, &path);
                    }
                    Some(body) => {
                        s.add("sequences.standard", 1);
                        s.add("instructions", body.instrs.len() as u64);
                        s.add("channels", body.channels.len() as u64);
                        s.add("frames", u64::from(seq.header.frames()));
                        if seq.header.wide2() {
                            s.add("sequences.wide_block2", 1);
                        }
                        if seq.header.wide3() {
                            s.add("sequences.wide_block3", 1);
                        }
                        for c in body.channels.iter() {
                            s.add("keys", c.keys.len() as u64);
                            s.add("f16_values", c.keys.iter().map(|k| u64::from(k.code)).sum());
                            // counted per code, then added once each (not a counter name
                            // formatted per key: thousands of sequences share one region)
                            let mut codes = [0u64; 4];
                            for k in &c.keys {
                                if let Some(n) = codes.get_mut(usize::from(k.code)) {
                                    *n += 1;
                                }
                            }
                            for (code, n) in codes.iter().enumerate().filter(|(_, n)| **n > 0) {
                                s.add(format!("codes.{code}"), *n);
                            }
                        }
                        for f in body.findings.iter().filter(|f| f.severity >= crate::model::Severity::Warning) {
                            s.findings.push(Diagnostic::new(
                                f.severity,
                                Some(f.offset),
                                path.clone(),
                                f.message.clone(),
                            ));
                        }
                    }
                }
            }
        }
    }
    if parse::find_trailer(&b, u64::from(h.data_ofs)).is_some() {
        s.add("trailer", 1);
    }
    Ok(s)
}
