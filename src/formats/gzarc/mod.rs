//! Sector-aligned gzip archives (`gzarc`): `DATA/DATA.BIN` and `STREAM/*.BIN` of
//! .hack//Infection (docs/formats/gzarc.md#archive-layout), and plain single-member gzip files.
//!
//! There is no header and no directory: members are gzip streams laid end to end, each
//! starting on a 2048-byte boundary and followed by zero padding up to the next boundary.
//! A member starts at sector offset `o` iff bytes `o..o+3` are `1f 8b 08`; the pattern also
//! occurs inside compressed data off the boundaries, so only boundaries are probed. A
//! member's extent runs to the next member's start (or the end of the file) and includes
//! its padding. A plain `.gz` file is the one-member case.
//!
//! Listing is incremental ([`scan`]) so consumers can show members as they are found in a
//! multi-gigabyte archive. Members are inflated on demand ([`inflate`], capped by
//! `Limits::max_inflated`). Caching: [`MemberCache`] is a small memory-bounded cache
//! (`Limits::cache_bytes`) a consumer may hold; the `Format` methods themselves never cache
//! (they are called from parallel survey workers and from one-shot CLI verbs).
//!
//! Unknown / not handled: whether any stream member is stored uncompressed (a gzip scan
//! cannot list such a member, docs/formats/gzarc.md#open-questions); FCOMMENT and FHCRC never occur on the disc but
//! are skipped when present.

mod decode;
mod describe;
mod fixtures;
mod listing;
mod parse;
mod raw;
mod stream;
pub mod write;

pub use decode::{MemberCache, inflate, inflate_from_source, member_at, member_from_source};
pub use listing::{
    ListingProgress, ReadAt, TAIL_KEY, TAIL_KIND, apply_probe, apply_probe_reading, continue_listing, listing_progress,
    next_probe_range,
};
pub use parse::{MemberInfo, list, list_reporting, probe, probe_reader, scan, starts_reporting};

use super::parsed::LazyDocument;
use super::tally::{self, Key, Tally};
use super::{Format, Member, Survey};
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, Severity, Span};
use crate::source::Source;
use rayon::prelude::*;

/// Members start only on multiples of this.
pub const SECTOR: u64 = 2048;
/// The 3-byte member magic (ID1, ID2, CM = deflate).
pub const MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// The sector-gzip archive format.
#[derive(Debug, Clone, Copy)]
pub struct GzArc;

impl GzArc {
    /// The listing, every member's node built at once.
    pub fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        describe::describe(data, name, limits)
    }

    /// The strict check: the listing's findings and every member's own check.
    pub fn check(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let doc = self.describe(data, name, limits)?;
        // Every member inflated and checked by its own format, in parallel, reported in order.
        let mut out: Vec<Diagnostic> =
            doc.diagnostics.iter().filter(|d| d.severity >= Severity::Warning).cloned().collect();
        let members = list(data);
        let per: Vec<Vec<Diagnostic>> = members
            .par_iter()
            .map(|m| {
                let mname = m.display_name();
                match inflate(data, m, limits) {
                    Ok(bytes) => check_member(mname, bytes, limits),
                    Err(e) => vec![Diagnostic::from_error(&e)],
                }
            })
            .collect();
        out.extend(per.into_iter().flatten());
        Ok(out)
    }

    /// Member `index`, inflated.
    pub fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let (ms, _) = scan(data, 0, 0, usize::try_from(index).unwrap_or(usize::MAX).saturating_add(1));
        let m = ms
            .into_iter()
            .nth(usize::try_from(index).unwrap_or(usize::MAX))
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("gzip member {index}"))))?;
        let bytes = inflate(data, &m, limits)?;
        Ok(Member { name: m.display_name(), bytes, inflated: true })
    }

    /// Totals for `survey`, read through the bytes.
    pub fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
        self.survey_progress(data, name, limits, &|_| {})
    }

    /// [`GzArc::survey`] that reports progress: `done(n)` is called (from any thread) as
    /// `n` more bytes have been surveyed, member by member.
    pub fn survey_progress(
        &self,
        data: &[u8],
        name: &str,
        limits: &Limits,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Survey> {
        // the bytes are all here: a window is a slice of them, and members are read from
        // the whole (a member running past its window's end is read as any other)
        let window = |start: u64, len: u64, f: &mut dyn FnMut(&[u8])| {
            let lo = usize::try_from(start).unwrap_or(usize::MAX).min(data.len());
            let hi = usize::try_from(start.saturating_add(len)).unwrap_or(usize::MAX).min(data.len());
            f(data.get(lo..hi).unwrap_or_default())
        };
        let read = |_: &[u8], _: u64, run: &[(u32, Span)], each: &mut EachMember<'_>| {
            for &(index, span) in run {
                match MemberInfo::at(data, index, span) {
                    Some(m) => each(span, Some((&m, inflate(data, &m, limits)))),
                    None => each(span, None),
                }
            }
        };
        survey_members(data.len() as u64, name, limits, done, &window, &read)
    }
}

impl Format for GzArc {
    fn id(&self) -> &'static str {
        "gzarc"
    }

    fn description(&self) -> &'static str {
        "sector-aligned gzip archive (DATA.BIN, STREAM/*.BIN) or a single gzip file"
    }

    fn sniff(&self, data: &[u8], name: &str) -> u8 {
        if !data.starts_with(&MAGIC) {
            return 0;
        }
        if name.to_ascii_lowercase().ends_with(".bin") { 90 } else { 80 }
    }

    fn open(&self, source: std::sync::Arc<Source>, limits: &Limits) -> Result<Box<dyn super::Parsed>> {
        // Documents on demand: the listing is made on first use (`check` needs none: see
        // `check_members`), a member's header fields when its node is shown.
        let doc = LazyDocument::deferred(source, limits, |source, limits| {
            describe::describe_lazy(source, limits).unwrap_or_else(|e| {
                let mut doc = Document::new("gzarc", source.name(), "gzip archive", source.len(), limits);
                doc.diag(Diagnostic::from_error(&e));
                doc
            })
        });
        Ok(Box::new(GzArcParsed { doc }))
    }

    fn check(&self, source: &Source, limits: &Limits) -> Result<Vec<Diagnostic>> {
        // member by member, so a check's memory does not grow with the member count
        check_members(source, limits)
    }

    fn survey(&self, source: &Source, limits: &Limits, done: &(dyn Fn(u64) + Sync), tally: &mut Tally) -> Result<()> {
        // Listing and inflation read the file by pread, never through the map: a file
        // truncated meanwhile gives errors ("file changed on disk"), not a SIGBUS.
        // One window buffer, reused: windows are read one after another.
        let buf = std::cell::RefCell::new(Vec::new());
        let window = |start: u64, len: u64, f: &mut dyn FnMut(&[u8])| {
            let mut buf = buf.borrow_mut();
            // not cleared first: only bytes the buffer never held are zeroed (the read
            // overwrites the rest, and only what it gave is handed on)
            buf.resize(usize::try_from(len).unwrap_or(0), 0);
            let n = source.read_at(start, &mut buf).unwrap_or(0);
            f(buf.get(..n).unwrap_or_default())
        };
        let read = |bytes: &[u8], at: u64, run: &[(u32, Span)], each: &mut EachMember<'_>| {
            read_run_in_window(source, bytes, at, run, limits, each)
        };
        tally.merge_survey(survey_members(source.len(), source.name(), limits, done, &window, &read)?);
        Ok(())
    }
}

/// A sector-gzip archive opened once: its listing is a document built on first use (a
/// `check` needs none: it reads the members by pread, [`check_members`]), members are
/// opened from their listed extent by pread, and an unfinished listing is continued in
/// steps ([`listing`]).
#[derive(Clone)]
struct GzArcParsed {
    doc: LazyDocument,
}

impl super::Parsed for GzArcParsed {
    super::parsed::parsed_document_methods!(GzArc);

    /// Read by `pread` into owned buffers, not through the mapping: a file truncated
    /// meanwhile is an error, not a SIGBUS (members are opened by background work too).
    fn member(&self, node: crate::model::NodeId, limits: &Limits) -> Result<Member> {
        let doc = self.document();
        let (idx, span) = doc
            .node(node)
            .and_then(|n| Some((n.member?, n.span)))
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", doc.path(node)))))?;
        member_from_source(self.source(), idx, span, limits)
    }

    fn rebuild(&self) -> Option<&dyn super::Rebuild> {
        Some(self)
    }

    fn check(&self, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let source = self.source();
        if !self.is_document_built() {
            // member by member, so a check's memory does not grow with the member count
            return check_members(source, limits);
        }
        // The members the document lists (complete for a check), each read by pread.
        let doc = self.document();
        let members: Vec<(u32, Span)> = doc.live_nodes().filter_map(|n| n.member.map(|i| (i, n.span))).collect();
        let mut out: Vec<Diagnostic> =
            doc.diagnostics.iter().filter(|d| d.severity >= Severity::Warning).cloned().collect();
        let per: Vec<Vec<Diagnostic>> =
            members.par_iter().map(|&(i, span)| check_member_from_source(source, i, span, limits)).collect();
        out.extend(per.into_iter().flatten());
        match doc.budget_exceeded() {
            Some(b) => Err(b.error()),
            None => Ok(out),
        }
    }

    fn stream_top_level(
        &self,
        limits: &Limits,
        visit: &mut dyn FnMut(super::TopLevel<'_>) -> std::io::Result<()>,
    ) -> Option<std::io::Result<Vec<Diagnostic>>> {
        stream::stream_top_level(self.source(), limits, visit)
    }

    fn listing_progress(&self) -> super::ListingProgress {
        let doc = self.document();
        listing::listing_progress(doc).map_or(
            super::ListingProgress { members: 0, listed_bytes: doc.len, probed_bytes: doc.len, len: doc.len },
            |p| super::ListingProgress {
                members: p.members,
                listed_bytes: p.listed_to,
                probed_bytes: p.probed_to,
                len: p.len,
            },
        )
    }

    fn listing_prober(&self, step: u64) -> Option<super::ListingProber> {
        let (from, _) = listing::next_probe_range(self.document(), step)?;
        Some(super::ListingProber::new(parse::probe_reader, std::sync::Arc::clone(self.source()), from, step))
    }

    fn apply_listing(&mut self, step: &super::ListingStep) -> bool {
        if self.listing_progress().complete() {
            return true;
        }
        let src = std::sync::Arc::clone(self.source());
        let mut read_at = |off: u64, buf: &mut [u8]| src.read_at(off, buf);
        listing::apply_probe_reading(src.bytes(), self.document_mut(), step.from, step.to, &step.starts, &mut read_at)
    }
}

/// At most this many members are surveyed by one worker before its counters are merged.
const SURVEY_RUN: usize = 256;

/// Members per run for a batch of `n`: at most [`SURVEY_RUN`], and small enough that
/// every thread gets several runs (64 big members must not be one run on one thread).
fn survey_run_len(n: usize) -> usize {
    (n / (8 * rayon::current_num_threads().max(1))).clamp(1, SURVEY_RUN)
}
/// `f` over the runs of `run_len` consecutive `items` (the last may be shorter), results in
/// order: in parallel, or on this thread when the pool has one thread. Handing a window's
/// runs to a lone worker and waiting for it cost two thread switches a window and no
/// parallelism (`RAYON_NUM_THREADS=1`, or a machine with one processor).
fn map_runs<T: Sync, R: Send>(items: &[T], run_len: usize, f: impl Fn(&[T]) -> R + Sync + Send) -> Vec<R> {
    if rayon::current_num_threads() <= 1 {
        items.chunks(run_len.max(1)).map(f).collect()
    } else {
        items.par_chunks(run_len.max(1)).map(f).collect()
    }
}

/// Members whose extents are handed out at once while checking (the listing keeps only starts).
const SURVEY_BATCH: usize = 16 * 1024;

/// Bytes of the archive a survey reads at once: one `pread` finds the members' starts in
/// them and gives the members' bytes, so every byte is read once.
const SURVEY_WINDOW: u64 = 1 << 20;

/// Hands `f` the bytes of `start..start + len` (as many as were read).
type ReadWindow<'a> = dyn Fn(u64, u64, &mut dyn FnMut(&[u8])) + 'a;
/// Handed each listed extent of a run in order: its member and inflated bytes (or why
/// not), or None when no member header parses there.
type EachMember<'a> = dyn FnMut(Span, Option<(&MemberInfo, Result<Vec<u8>>)>) + 'a;
/// Reads a run of consecutive listed extents (index, span) from the bytes of the window
/// read at the given offset (or from the file, for what is not in them): each one's
/// header, and the member inflated, handed to `each` in order.
type ReadRun<'a> = dyn Fn(&[u8], u64, &[(u32, Span)], &mut EachMember<'_>) + Sync + 'a;
/// [`ReadRun`] with its window given.
type ReadMembers<'a> = dyn Fn(&[(u32, Span)], &mut EachMember<'_>) + Sync + 'a;

/// Runs of members spanning at most this many bytes are read by one `pread`.
const RUN_READ: u64 = 1 << 20;

std::thread_local! {
    /// The bytes of the run of members being surveyed, reused from run to run.
    static RUN_BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The members of `run` inflated in order from `window` (the survey's bytes read at
/// `window_at`, the file checked unchanged once for the window): each header parsed from
/// its first 64 KiB as [`header_from_source`] reads it and the member inflated from the
/// same bytes. A member not wholly in the window, a file changed since, or a member that
/// does not inflate from those bytes, goes through [`inflate_from_source`] (`pread`),
/// whose errors are then the ones reported.
fn read_run_in_window(
    source: &Source,
    window: &[u8],
    window_at: u64,
    run: &[(u32, Span)],
    limits: &Limits,
    each: &mut EachMember<'_>,
) {
    let window = if source.changed() { &[][..] } else { window };
    for &(i, span) in run {
        let extent = extent_in_run(window, window_at, span);
        let m = match extent {
            Some(e) => parse::header_in_window(e.get(..e.len().min(64 << 10)).unwrap_or_default(), i, span),
            None => header_from_source(source, i, span),
        };
        let Some(m) = m else {
            each(span, None);
            continue;
        };
        let r = match extent.map(|e| decode::inflate_read_extent_reusing(e, &m, limits)) {
            Some(Ok(bytes)) => Ok(bytes),
            _ => inflate_from_source(source, &m, limits),
        };
        each(span, Some((&m, r)));
    }
}

/// Calls `f` with the bytes of `start..start + len` read by one `pread` into the worker's
/// reused buffer (as many as the read gave).
fn with_run_bytes(source: &Source, start: u64, len: u64, f: &mut dyn FnMut(&[u8])) {
    // taken out while the members are surveyed, so a nested survey cannot find it borrowed
    let mut buf = RUN_BYTES.with(|cell| cell.take());
    // not cleared first: only bytes the buffer never held are zeroed (the read overwrites
    // the rest, and only what it gave is handed on)
    buf.resize(usize::try_from(len).unwrap_or(0), 0);
    let n = source.read_at(start, &mut buf).unwrap_or(0);
    f(buf.get(..n).unwrap_or_default());
    RUN_BYTES.with(|cell| cell.replace(buf));
}

/// The bytes of `span` within `run_bytes` (read from `run_start`), if all of them were read.
fn extent_in_run(run_bytes: &[u8], run_start: u64, span: Span) -> Option<&[u8]> {
    let lo = usize::try_from(span.start.checked_sub(run_start)?).ok()?;
    let hi = usize::try_from(span.end.checked_sub(run_start)?).ok()?;
    run_bytes.get(lo..hi)
}

/// Totals over an archive's members, read a window at a time by `window`: each window's
/// member starts found in its bytes, and its members (those whose extent ends in it, at
/// the next start) read from the same bytes by `read`, in runs surveyed in parallel; the
/// last start of a window begins the next one. Memory: one window, one total per run.
fn survey_members(
    len: u64,
    name: &str,
    limits: &Limits,
    done: &(dyn Fn(u64) + Sync),
    window: &ReadWindow<'_>,
    read: &ReadRun<'_>,
) -> Result<Survey> {
    let keys = survey_keys();
    let mut total = Tally::default();
    let mut listed_members = 0u64;
    let mut index = 0u32;
    let mut at = 0u64;
    while at < len {
        let want = (len - at).min(SURVEY_WINDOW);
        // where the next window starts (0: nothing could be read)
        let mut advance = 0u64;
        // a member starting at `at` that runs past the window's bytes (their length)
        let mut long_member = None;
        window(at, want, &mut |bytes| {
            let got = bytes.len() as u64;
            if got == 0 {
                return;
            }
            let starts: Vec<u64> = parse::probe(bytes, 0, got).into_iter().map(|r| at + r).collect();
            // at the end of the file (or of what could be read) the last extent ends at `len`
            let last_window = at + got >= len || got < want;
            let whole = if last_window { starts.len() } else { starts.len().saturating_sub(1) };
            let Some(&first) = starts.first() else {
                done(got); // no member starts here
                advance = got;
                return;
            };
            if first > at {
                done(first - at); // bytes before a member: nothing to survey there
            }
            if whole == 0 {
                // one start, its end not in this window: the next window starts at it, or
                // (when it is this window's start) the member is longer than a window
                if first > at {
                    advance = first - at;
                } else {
                    long_member = Some(got);
                }
                return;
            }
            let spans: Vec<(u32, Span)> = (0..whole)
                .map(|i| {
                    let start = starts.get(i).copied().unwrap_or(len);
                    let end = starts.get(i + 1).copied().unwrap_or(len);
                    (index.saturating_add(u32::try_from(i).unwrap_or(u32::MAX)), Span::new(start, end))
                })
                .collect();
            index = index.saturating_add(u32::try_from(whole).unwrap_or(u32::MAX));
            // Runs of consecutive members, their counters added into one typed tally per
            // run and the runs' tallies merged in order: findings keep the members' order.
            let runs: Vec<(u64, Tally)> = map_runs(&spans, survey_run_len(spans.len()), |run| {
                survey_run(run, limits, done, &|run, each| read(bytes, at, run, each))
            });
            for (members, run) in runs {
                listed_members += members;
                total.merge(run);
            }
            advance = if last_window { got } else { starts.get(whole).map_or(got, |s| s - at) };
        });
        if let Some(got) = long_member {
            // read from the file member by member, as a member past a window always is
            advance = one_long_member(at, got, len, window);
            let run = [(index, Span::new(at, at + advance))];
            let (members, run_total) = survey_run(&run, limits, done, &|run, each| read(&[], 0, run, each));
            index = index.saturating_add(1);
            listed_members += members;
            total.merge(run_total);
        }
        if advance == 0 {
            break;
        }
        at += advance;
    }
    total.add(keys.members, listed_members);
    if listed_members == 0 {
        total.findings.push(listing::no_member());
    }
    Ok(total.into_survey("gzarc", name))
}

/// The length of the member starting at `at` whose end (the next start, or the end of the
/// file) lies past the window's `got` bytes: found by reading on, window by window.
fn one_long_member(at: u64, got: u64, len: u64, window: &ReadWindow<'_>) -> u64 {
    let mut from = at + got;
    while from < len {
        let want = (len - from).min(SURVEY_WINDOW);
        let mut next = None;
        let mut read = 0u64;
        window(from, want, &mut |bytes| {
            read = bytes.len() as u64;
            next = parse::probe(bytes, 0, read).first().map(|r| from + r);
        });
        if let Some(n) = next {
            return n - at;
        }
        if read == 0 {
            break;
        }
        from += read;
    }
    len - at
}

/// The archive survey's counter keys, made once per process.
struct SurveyKeys {
    members: Key,
    inflated: Key,
    failed: Key,
    inflated_bytes: Key,
    extent_bytes: Key,
    /// `members.format.ID` of every format.
    formats: Vec<(&'static str, Key)>,
}

fn survey_keys() -> &'static SurveyKeys {
    static KEYS: std::sync::OnceLock<SurveyKeys> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| SurveyKeys {
        members: tally::key("members"),
        inflated: tally::key("members.inflated"),
        failed: tally::key("members.failed"),
        inflated_bytes: tally::key("members.inflated_bytes"),
        extent_bytes: tally::key("members.extent_bytes"),
        formats: super::all()
            .iter()
            .map(|f| (f.id(), tally::key_owned(format!("members.format.{}", f.id()))))
            .collect(),
    })
}

/// Survey one member's inflated bytes into `total` with the format they sniff as.
fn survey_member(m: &MemberInfo, bytes: Vec<u8>, limits: &Limits, keys: &SurveyKeys, total: &mut Tally) -> Result<()> {
    let member = Source::from_vec(m.name_str(), bytes);
    let f = super::sniff(member.bytes(), member.name());
    // the member's bytes are held while what is nested in it is surveyed (one budget)
    let limits = &limits.for_member(member.len());
    f.survey(&member, limits, &|_| {}, total).map_err(|e| e.within(member.name()))?;
    total.add(keys.inflated_bytes, member.len());
    match keys.formats.iter().find(|(id, _)| *id == f.id()) {
        Some((_, k)) => total.add(*k, 1),
        None => total.add_named(&format!("members.format.{}", f.id()), 1),
    }
    if let Some(bytes) = member.into_vec() {
        decode::reuse_inflated(bytes);
    }
    Ok(())
}

/// Survey one run of consecutive listed extents into one tally, in order; with the number
/// of members found there.
fn survey_run(
    run: &[(u32, Span)],
    limits: &Limits,
    survey_done: &(dyn Fn(u64) + Sync),
    read: &ReadMembers<'_>,
) -> (u64, Tally) {
    let keys = survey_keys();
    let mut total = Tally::default();
    let mut members = 0u64;
    read(run, &mut |span, member| {
        let Some((m, bytes)) = member else {
            survey_done(span.len()); // not a member: nothing to survey there
            return;
        };
        members += 1;
        // a member whose survey fails adds nothing but its failure (see `survey_into`)
        let r = bytes.and_then(|bytes| survey_member(m, bytes, limits, keys, &mut total));
        survey_done(m.end - m.offset);
        total.add(keys.extent_bytes, m.end - m.offset);
        match r {
            Ok(()) => total.add(keys.inflated, 1),
            Err(e) => {
                total.add(keys.failed, 1);
                total.findings.push(Diagnostic::from_error(&e));
            }
        }
    });
    (members, total)
}

/// The strict check without a document: the findings the listing would make (bytes before
/// the first member, headers that do not parse, no member at all), then every member's own
/// check, in member order. Memory: the members' starts (8 bytes each) and one batch of
/// headers, not a node per member; members are read by pread.
fn check_members(source: &Source, limits: &Limits) -> Result<Vec<Diagnostic>> {
    let len = source.len();
    let starts = starts_from_source(source, &|_| {});
    let head = len > 0 && starts.first() != Some(&0);
    // the listing's node count: one per member, and one for bytes before the first
    describe::check_member_count(starts.len() + usize::from(head), limits)?;
    let mut listed = Vec::new();
    if head {
        listed.push(listing::bytes_before_first(starts.first().copied().unwrap_or(len)));
    }
    if starts.is_empty() {
        listed.push(listing::no_member());
    }
    let span_of = |i: usize| member_span(&starts, len, i);
    let mut members = Vec::new();
    // The findings are held until every member is checked (the listing's come first): they
    // draw on the memory budget, so thousands of findings per member (a MOTN of thousands
    // of overlapping sequences in each) stop at the budget error, not at the machine's memory.
    let mut held = 0u64;
    for batch_at in (0..starts.len()).step_by(SURVEY_BATCH) {
        let batch: Vec<(u32, Span)> = (batch_at..(batch_at + SURVEY_BATCH).min(starts.len()))
            .map(|i| (u32::try_from(i).unwrap_or(u32::MAX), span_of(i)))
            .collect();
        // in runs of consecutive members, as the survey reads them (one pread a run)
        let per: Vec<Vec<(Option<Diagnostic>, Vec<Diagnostic>)>> =
            map_runs(&batch, survey_run_len(batch.len()), |run| check_run(source, run, limits));
        for ((header, found), (_, span)) in per.into_iter().flatten().zip(&batch) {
            held = held.saturating_add(header.iter().chain(&found).map(finding_bytes).sum::<u64>());
            limits.spend_clip("the members' findings", held, span.start)?;
            listed.extend(header);
            members.extend(found);
        }
    }
    listed.extend(members);
    Ok(listed)
}

/// The header finding and the strict check of each member of `run` (consecutive members),
/// in order. A run of small members is read by one `pread` and the file checked unchanged
/// once for the run (check read each member three times and stat'ed it twice: its header
/// for the listing's finding, then header and extent again to inflate it); headers are
/// parsed from those bytes as the listing parses them, members inflated from them. A long
/// run, or a member whose header or inflation fails from those bytes, goes member by
/// member through `pread`, whose findings are then the ones reported.
fn check_run(source: &Source, run: &[(u32, Span)], limits: &Limits) -> Vec<(Option<Diagnostic>, Vec<Diagnostic>)> {
    let one_by_one = |&(i, span): &(u32, Span), read_at: &mut dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize>| {
        // read as the listing reads it, so the findings are the listing's
        let m = listing::header_via_reader(read_at, source.bytes(), i, span.start, span.end);
        let header = m.header_error.as_ref().map(Diagnostic::from_error);
        (header, check_member_from_source(source, i, span, limits))
    };
    let mut by_pread = |o: u64, b: &mut [u8]| source.read_at(o, b);
    let (Some(first), Some(last)) = (run.first(), run.last()) else { return Vec::new() };
    let len = last.1.end.saturating_sub(first.1.start);
    if len > RUN_READ || source.changed() {
        return run.iter().map(|m| one_by_one(m, &mut by_pread)).collect();
    }
    let mut out = Vec::with_capacity(run.len());
    with_run_bytes(source, first.1.start, len, &mut |run_bytes| {
        for &(i, span) in run {
            let Some(extent) = extent_in_run(run_bytes, first.1.start, span) else {
                out.push(one_by_one(&(i, span), &mut by_pread));
                continue;
            };
            // the header as the listing reads it, served from the run's bytes
            let mut from_run = |o: u64, b: &mut [u8]| {
                let Some(have) = o.checked_sub(span.start).and_then(|at| extent.get(usize::try_from(at).ok()?..))
                else {
                    return source.read_at(o, b);
                };
                let n = have.len().min(b.len());
                if let (Some(to), Some(from)) = (b.get_mut(..n), have.get(..n)) {
                    to.copy_from_slice(from);
                }
                Ok(n)
            };
            let m = listing::header_via_reader(&mut from_run, source.bytes(), i, span.start, span.end);
            let header = m.header_error.as_ref().map(Diagnostic::from_error);
            // inflated as `member_from_source` inflates it (header from the first 64 KiB)
            let head = extent.get(..extent.len().min(64 << 10)).unwrap_or_default();
            let found = match parse::header_in_window(head, i, span)
                .and_then(|m| Some((decode::inflate_read_extent(extent, &m, limits).ok()?, m)))
            {
                Some((bytes, m)) => check_member(m.display_name(), bytes, limits),
                None => check_member_from_source(source, i, span, limits),
            };
            out.push((header, found));
        }
    });
    out
}

/// The extent of member `i` of an archive of `len` bytes whose members start at `starts`.
fn member_span(starts: &[u64], len: u64, i: usize) -> Span {
    Span::new(starts.get(i).copied().unwrap_or(len), starts.get(i + 1).copied().unwrap_or(len))
}

/// The strict check of member `i` at `span`, read by pread; a member that does not
/// inflate is its one finding.
fn check_member_from_source(source: &Source, i: u32, span: Span, limits: &Limits) -> Vec<Diagnostic> {
    match member_from_source(source, i, span, limits) {
        Ok(m) => check_member(m.name, m.bytes, limits),
        Err(e) => vec![Diagnostic::from_error(&e)],
    }
}

/// Bytes one finding held in memory takes, estimated (its text and its record).
fn finding_bytes(d: &Diagnostic) -> u64 {
    (d.path.len() + d.message.len() + std::mem::size_of::<Diagnostic>()) as u64
}

/// The start of every member, found by pread.
fn starts_from_source(source: &Source, probed: &dyn Fn(u64)) -> Vec<u64> {
    let len = source.len();
    let starts = parse::probe_reader(&mut |o, b| source.read_at(o, b), 0, len).unwrap_or_default();
    probed(len);
    starts
}

/// The header of the member at `span`, read by pread.
fn header_from_source(source: &Source, index: u32, span: Span) -> Option<MemberInfo> {
    let mut head = vec![0u8; usize::try_from(span.len().min(64 << 10)).unwrap_or(0)];
    let n = source.read_at(span.start, &mut head).unwrap_or(0);
    head.truncate(n);
    parse::header_in_window(&head, index, span)
}

/// The strict check of one inflated member by its format's byte-level check (the lean
/// path `survey` takes: no display document is built per member), its findings' paths
/// and messages marked as inside the member.
fn check_member(mname: String, bytes: Vec<u8>, limits: &Limits) -> Vec<Diagnostic> {
    // The member's bytes are held while it is checked: they, and everything nested in it,
    // draw from this budget (a chain of archives in archives shares one budget).
    let limits = &limits.for_member(bytes.len() as u64);
    let r = super::check_source(&Source::from_vec(mname.clone(), bytes), limits);
    match r {
        Ok(ds) => ds
            .into_iter()
            .map(|mut d| {
                d.path = if d.path.is_empty() { mname.clone() } else { format!("{mname} > {}", d.path) };
                d.message = format!("{} (offset in the inflated member)", d.message);
                d
            })
            .collect(),
        Err(e) => vec![Diagnostic::from_error(&e)],
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod vectors;
