//! Soulcalibur VI `.mot` motion banks and HgMotion clips (docs/formats/sc6-mot.md).
//!
//! A bank is `motion_count`, a reserved zero dword and an offset table; repeated offsets
//! are aliases and a clip ends at the next greater distinct offset (EOF for the last). A
//! clip is a 0x1C-byte header (frame count, bytes per decoded keyframe, flags, 64-bit
//! presence mask, turn word), an i16 group table, then groups of eight keyframes: one
//! literal keyframe of little-endian i16 words, then an MSB-first bitstream with 18 four-bit
//! Huffman code lengths and second-order deltas (16-bit wrap). What the words mean comes
//! from a selector stream built into the game (default, alternate, skill-check), filtered by
//! the presence mask.
//!
//! Still unknown (shown as unknown, never guessed): header bytes `+0x12..+0x1B` and the low
//! 12 bits of the turn word, flag bits other than 0x04/0x08/0x10/0x4000/0x8000/0x10000000,
//! the scaling of selectors 0x03/0x13/0x14/0x1A (raw words), whether 0x19 really equals
//! 0x02, what single-keyframe groups hold after their base words, the L/R order of the
//! body transforms (HorseMod table vs game enum; `lr_order`), and which banks other than
//! 0 and 1 exist.

mod bits;
mod decode;
mod describe;
mod fixtures;
mod import;
mod parse;
mod pose;
mod raw;
mod reject;
#[cfg(test)]
mod tests;
pub mod write;

use super::parsed::{self, AnimHandle, LazyDocument};
use super::tally::Tally;
use super::{AnimRef, DecodeOptions, Format, Parsed, Survey};
use crate::bytes::Bytes;
use crate::error::Result;
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::{Diagnostic, Document, Severity};
use crate::source::Source;
use parse::{Header, StreamKind, decode_groups, layout, parse_bank, parse_header};
use rayon::prelude::*;
use reject::{Reason, Sc6Error};
use std::sync::Arc;

/// The SC6 `.mot` format.
#[derive(Debug, Clone, Copy)]
pub struct Sc6;

/// How one distinct clip fared in a strict pass.
#[derive(Debug, Clone)]
pub(in crate::formats) enum ClipOutcome {
    /// Header, groups and the flag's stream all fine; `root` says whether 0x16 is present.
    Decoded { root: bool, root_bad: Option<Sc6Error> },
    /// Groups decode, the flag's stream does not fit but the skill-check stream does.
    SkillCheckOnly(Sc6Error),
    /// Header accepted, rejected later.
    Rejected { header_ok: bool, err: Sc6Error },
}

fn check_root(h: &Header, words: &[i16], chans: &[parse::Channel]) -> Option<Sc6Error> {
    let ch = chans.iter().find(|c| c.sel == 0x16)?;
    let wc = usize::try_from(h.wc).ok()?;
    for (k, kf) in words.chunks(wc.max(1)).enumerate() {
        let (p, f) = decode::root_values(kf, ch.word, h.flags);
        if p.iter().any(|v| !v.is_finite() || v.abs() > 500.0) || !f.is_finite() {
            return Some(Sc6Error::bad(
                Reason::RootOutOfRange,
                h.record.presence_mask.span.start,
                format!("keyframe {k} root ({:.3}, {:.3}, {:.3})", p[0], p[1], p[2]),
                "root values must be finite and within 500 m (movement_axis_unresolved)",
            ));
        }
    }
    None
}

/// Strict pass over one distinct clip with the stream its flags choose.
pub(in crate::formats) fn clip_outcome(clip: Bytes<'_>, limits: &Limits) -> ClipOutcome {
    let h = match parse_header(clip) {
        Ok(h) => h,
        Err(err) => return ClipOutcome::Rejected { header_ok: false, err },
    };
    let dec = decode_groups(clip, &h, limits, 0);
    if let Some(err) = dec.failure {
        return ClipOutcome::Rejected { header_ok: true, err };
    }
    match layout(StreamKind::from_flags(h.flags), &h) {
        Ok(chans) => ClipOutcome::Decoded {
            root: chans.iter().any(|c| c.sel == 0x16),
            root_bad: check_root(&h, &dec.words, &chans),
        },
        Err(err) => {
            if err.reason == Reason::ConsumptionMismatch && layout(StreamKind::SkillCheck, &h).is_ok() {
                ClipOutcome::SkillCheckOnly(err)
            } else {
                ClipOutcome::Rejected { header_ok: true, err }
            }
        }
    }
}

/// Every rejection (bank problems, then each distinct clip's first error), for `check`.
pub(in crate::formats) fn strict_findings(
    data: &[u8],
    limits: &Limits,
) -> std::result::Result<Vec<(Severity, Sc6Error)>, Sc6Error> {
    let bytes = Bytes::new(data);
    let bank = parse_bank(bytes)?;
    let mut out: Vec<(Severity, Sc6Error)> =
        bank.problems.iter().map(|p| (Severity::Error, p.clone().within("bank"))).collect();
    let slots: Vec<usize> = bank.distinct_slots().collect();
    let outcomes: Vec<(usize, ClipOutcome)> = slots
        .par_iter()
        .map(|&i| {
            (
                i,
                bank.clip(bytes, i).map_or_else(
                    || ClipOutcome::Rejected {
                        header_ok: false,
                        err: Sc6Error::bad(Reason::OffsetPastEof, bank.slot_at(i), "slot", "unusable"),
                    },
                    |c| clip_outcome(c, limits),
                ),
            )
        })
        .collect();
    for (i, o) in outcomes {
        let path = format!("clip[{i}]");
        match o {
            ClipOutcome::Decoded { root_bad: Some(e), .. } => out.push((Severity::Warning, e.within(path))),
            ClipOutcome::Decoded { .. } => {}
            ClipOutcome::SkillCheckOnly(e) => out.push((Severity::Info, e.within(path))),
            ClipOutcome::Rejected { err, .. } => out.push((Severity::Error, err.within(path))),
        }
    }
    Ok(out)
}

impl Sc6 {
    /// The permissive parse: the whole tree that could be read, problems as diagnostics.
    pub(crate) fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        Ok(describe::describe(data, name, limits))
    }

    /// The strict check: every clip decoded with its flag's stream.
    pub(crate) fn check(&self, data: &[u8], _name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let f = strict_findings(data, limits).map_err(|e| e.err)?;
        Ok(f.into_iter()
            .map(|(sev, e)| {
                let mut d = Diagnostic::from_error(&e.err);
                d.severity = sev;
                if sev == Severity::Info {
                    d.message = format!(
                        "{}; the skill-check stream fits (chr0ff-style): decode with --stream skill-check",
                        d.message
                    );
                }
                d
            })
            .collect())
    }

    #[cfg(test)]
    /// Decode the clip keyed `key` (`clip:181`, `clip:0x10B5`).
    pub(crate) fn decode(&self, data: &[u8], key: &str, opts: &DecodeOptions, limits: &Limits) -> Result<Clip> {
        decode::decode(data, key, opts, limits)
    }

    #[cfg(test)]
    /// Totals for `survey`.
    pub(crate) fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        Ok(survey(data, name, limits))
    }
}

impl Format for Sc6 {
    fn options(&self) -> &'static [super::OptionSpec] {
        &[
            super::OptionSpec {
                key: "lr_order",
                values: &["horsemod", "enum"],
                help: "which of a left/right pair comes first in the bone list",
            },
            super::OptionSpec { key: "root_only", values: &["0", "1", "true", "false"], help: "only the root curve" },
        ]
    }

    fn id(&self) -> &'static str {
        "sc6"
    }

    fn description(&self) -> &'static str {
        "Soulcalibur VI .mot motion bank (HgMotion clips)"
    }

    fn sniff(&self, data: &[u8], name: &str) -> u8 {
        // (sniffed once per archive member in a survey: no lowercased copy)
        let is_mot =
            name.len() >= 4 && name.as_bytes().get(name.len() - 4..).is_some_and(|e| e.eq_ignore_ascii_case(b".mot"));
        let structural = sniff_structure(data);
        match (structural, is_mot) {
            (true, true) => 95,
            (true, false) => 60,
            (false, true) => 40,
            (false, false) => 0,
        }
    }

    fn open(&self, source: Arc<Source>, limits: &Limits) -> Result<Box<dyn Parsed>> {
        let doc = self.describe(source.bytes(), source.name(), limits)?;
        Ok(Box::new(Sc6Parsed { doc: LazyDocument::ready(source, doc) }))
    }

    fn check(&self, source: &Source, limits: &Limits) -> Result<Vec<Diagnostic>> {
        Sc6.check(source.bytes(), source.name(), limits)
    }

    fn builtin_skeleton(&self) -> Option<super::BuiltinSkeleton> {
        Some(pose::builtin())
    }

    fn survey(&self, source: &Source, limits: &Limits, done: &(dyn Fn(u64) + Sync), tally: &mut Tally) -> Result<()> {
        tally.merge_survey(survey(source.bytes(), source.name(), limits));
        done(source.len());
        Ok(())
    }
}

/// A bank opened once: its document (clips, aliases, headers); clips decode from the bytes
/// by their table index (`clip:N`).
#[derive(Clone)]
struct Sc6Parsed {
    doc: LazyDocument,
}

impl Parsed for Sc6Parsed {
    fn clips(&self) -> Option<&dyn super::Clips> {
        Some(self)
    }

    parsed::parsed_document_methods!(Sc6);

    fn import(&self) -> Option<&dyn super::ClipImport> {
        Some(self)
    }

    fn check(&self, limits: &Limits) -> Result<Vec<Diagnostic>> {
        // The strict check reads the records itself; the described document adds nothing.
        let src = self.doc.source();
        let found = Sc6.check(src.bytes(), src.name(), limits)?;
        match self.doc.get().budget_exceeded() {
            Some(b) => Err(b.error()),
            None => Ok(found),
        }
    }
}

impl super::Clips for Sc6Parsed {
    fn animations(&self) -> Vec<AnimRef> {
        parsed::animations_of(self.doc.get(), mint_slots)
    }

    fn animation_at(&self, node: crate::model::NodeId) -> Option<AnimRef> {
        parsed::animation_at_of(self.doc.get(), node, mint_slots)
    }

    fn find_animation(&self, name: &str) -> Result<AnimRef> {
        // An index (181, 0xb5) or a packed motion id (0x10B5); decode checks which. A listed
        // one resolves to its slot now.
        let mut a = [parsed::find_keyed(self.doc.get(), format!("clip:{name}"), name)];
        if a[0].is_listed() {
            mint_slots(&mut a);
        }
        let [a] = a;
        Ok(a)
    }

    fn decode(&self, anim: &AnimRef, opts: &DecodeOptions, limits: &Limits) -> Result<Clip> {
        crate::counters::bump(&crate::counters::ANIM_DECODES);
        match anim.handle() {
            AnimHandle::Slot(slot) => decode::decode_slot(self.doc.source().bytes(), *slot, opts, limits),
            _ => decode::decode(self.doc.source().bytes(), anim.key(), opts, limits),
        }
    }
}

impl super::ClipImport for Sc6Parsed {
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

/// Resolve listed `clip:N` keys (the document writes slot indices) to their slots.
fn mint_slots(anims: &mut [AnimRef]) {
    for a in anims {
        if let Some(slot) = a.key().strip_prefix("clip:").and_then(|n| n.parse::<usize>().ok()) {
            a.resolve(AnimHandle::Slot(slot));
        }
    }
}

/// Cheap structural test: header, monotonic offsets, first offset aligned after the table,
/// and a plausible first clip header.
fn sniff_structure(data: &[u8]) -> bool {
    use crate::formats::record::{self, Count, FixedSize};
    let b = Bytes::new(data);
    let len = b.len();
    let Ok(h) = record::read_at::<raw::BankHeader>(&b, 0) else { return false };
    let count = u64::from(*h.motion_count);
    if len < raw::BANK_MIN_LEN || count == 0 || count > raw::BANK_MAX_COUNT || *h.reserved != 0 {
        return false;
    }
    let table_at = raw::BankHeader::SIZE;
    let table_end = table_at + 4 * count;
    if table_end > len {
        return false;
    }
    let probe = count.min(256);
    let Ok(t) = record::read::<raw::OffsetTable>(&b, table_at, (Count::clamped(&b, table_at, probe, 4, probe),)) else {
        return false;
    };
    let mut prev = 0u64;
    for o in &t.offset {
        let o = u64::from(**o);
        if o < parse::align8(table_end) || o > len || o < prev {
            return false;
        }
        prev = o;
    }
    let Some(first) = t.offset.first().map(|o| u64::from(**o)) else { return false };
    // The first clip's frame count and word size, as far as the file holds its header.
    match record::read_prefix::<raw::ClipHeader>(&b, first) {
        Some(p) if p.record.word_bytes.span.end <= p.end => {
            let (fc, wb) = (*p.record.frame_count, *p.record.word_bytes);
            fc >= 1 && (1..=0x1000).contains(&(wb >> 1))
        }
        _ => false,
    }
}

/// Totals over a bank: slots, distinct payloads, aliases, headers accepted, clips decoded,
/// and each rejection reason with its count. Clips are checked in parallel; results are
/// merged in slot order, so the output is deterministic.
pub(in crate::formats) fn survey(data: &[u8], name: &str, limits: &Limits) -> Survey {
    let mut s = Survey { format: "sc6", name: name.to_string(), ..Survey::default() };
    let bytes = Bytes::new(data);
    let bank = match parse_bank(bytes) {
        Ok(b) => b,
        Err(e) => {
            s.add(format!("bank_rejected.{}", e.reason.key()), 1);
            s.findings.push(Diagnostic::from_error(&e.within("bank").err));
            return s;
        }
    };
    for p in &bank.problems {
        s.add(format!("bank_problem.{}", p.reason.key()), 1);
        s.findings.push(Diagnostic::from_error(&p.clone().within("bank").err));
    }
    let slots = bank.offsets.len() as u64;
    let distinct: Vec<usize> = bank.distinct_slots().collect();
    let aliases = bank.alias_of.iter().filter(|a| a.is_some()).count() as u64;
    let unusable = bank.bound.iter().filter(|b| b.is_none()).count() as u64;
    s.add("slots", slots);
    s.add("distinct_payloads", distinct.len() as u64);
    s.add("aliases", aliases);
    s.add("unusable_slots", unusable);
    s.add("headers_accepted", 0);
    s.add("clips_decoded", 0);
    let results: Vec<(usize, ClipOutcome)> =
        distinct.par_iter().filter_map(|&i| bank.clip(bytes, i).map(|c| (i, clip_outcome(c, limits)))).collect();
    for (i, o) in results {
        let path = format!("clip[{i}]");
        match o {
            ClipOutcome::Decoded { root, root_bad } => {
                s.add("headers_accepted", 1);
                s.add("clips_decoded", 1);
                if !root {
                    s.add("root_absent", 1);
                }
                if let Some(e) = root_bad {
                    s.add(format!("warning.{}", e.reason.key()), 1);
                    s.findings.push(Diagnostic::from_error(&e.within(path).err));
                }
            }
            ClipOutcome::SkillCheckOnly(_) => {
                s.add("headers_accepted", 1);
                s.add("clips_decoded_skill_check_stream", 1);
            }
            ClipOutcome::Rejected { header_ok, err } => {
                if header_ok {
                    s.add("headers_accepted", 1);
                }
                s.add(format!("rejected.{}", err.reason.key()), 1);
                s.findings.push(Diagnostic::from_error(&err.within(path).err));
            }
        }
    }
    s
}
