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
    #[cfg(test)]
    /// The listing, every member's node built at once.
    pub(crate) fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        describe::describe(data, name, limits)
    }

    #[cfg(test)]
    /// The strict check: the listing's findings and every member's own check.
    pub(crate) fn check(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
        let doc = self.describe(data, name, limits)?;
        // Every member inflated and checked by its own format, in parallel, reported in order.
        let mut out: Vec<Diagnostic> =
            doc.diagnostics.iter().filter(|d| d.severity >= Severity::Warning).cloned().collect();
        let members = list(data);
        let per: Vec<Result<Vec<Diagnostic>>> = members
            .par_iter()
            .map(|m| {
                let mname = m.display_name();
                match inflate(data, m, limits) {
                    Ok(bytes) => check_member(mname, bytes, limits),
                    Err(e) => member_finding(e),
                }
            })
            .collect();
        for found in per {
            out.extend(found?);
        }
        Ok(out)
    }

    #[cfg(test)]
    /// Member `index`, inflated.
    pub(crate) fn member(&self, data: &[u8], index: u32, limits: &Limits) -> Result<Member> {
        let (ms, _) = scan(data, 0, 0, usize::try_from(index).unwrap_or(usize::MAX).saturating_add(1));
        let m = ms
            .into_iter()
            .nth(usize::try_from(index).unwrap_or(usize::MAX))
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("gzip member {index}"))))?;
        let bytes = inflate(data, &m, limits)?;
        Ok(Member { name: m.display_name(), bytes, inflated: true })
    }

    #[cfg(test)]
    /// Totals for `survey`, read through the bytes.
    pub(crate) fn survey(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Survey> {
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
        let window = |from: u64, f: &mut WindowBytes<'_>| {
            let len = data.len() as u64;
            let lo = usize::try_from(from).unwrap_or(usize::MAX).min(data.len());
            let hi = usize::try_from(window_end(from, len)).unwrap_or(usize::MAX).min(data.len());
            f(from.min(len), data.get(lo..hi).unwrap_or_default())
        };
        let read = |_: InWindow<'_>, run: &[(u32, Span)], each: &mut EachMember<'_>| {
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
        let window = source_windows(source);
        let read = |w: InWindow<'_>, run: &[(u32, Span)], each: &mut EachMember<'_>| {
            read_run_in_window(source, w, run, limits, each)
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

    fn members(&self) -> Option<&dyn super::Members> {
        Some(self)
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
        let per: Vec<Result<Vec<Diagnostic>>> =
            members.par_iter().map(|&(i, span)| check_member_from_source(source, i, span, limits)).collect();
        for found in per {
            out.extend(found?);
        }
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

impl super::Members for GzArcParsed {
    /// Read by `pread` into owned buffers, not through the mapping: a file truncated
    /// meanwhile is an error, not a SIGBUS (members are opened by background work too).
    fn member(&self, node: crate::model::NodeId, limits: &Limits) -> Result<Member> {
        let doc = self.doc.get();
        let (idx, span) = doc
            .node(node)
            .and_then(|n| Some((n.member?, n.span)))
            .ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", doc.path(node)))))?;
        member_from_source(self.doc.source(), idx, span, limits)
    }

    /// Not known without reading the member's header.
    fn member_span(&self, node: crate::model::NodeId, limits: &Limits) -> Option<(u64, u64)> {
        let _ = (node, limits);
        None
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

/// Bytes of the archive a survey reads at once: one `pread` finds the members' starts in
/// them and gives the members' bytes, so every byte is read once.
const SURVEY_WINDOW: u64 = 1 << 20;

/// Hands `f` a window of the archive from `from` on: where it starts (past a hole of a
/// sparse file at `from`, whose bytes are zeros not read) and its bytes, up to
/// [`window_end`] (fewer when the file ends sooner); no bytes at the end.
type ReadWindow<'a> = dyn Fn(u64, &mut WindowBytes<'_>) + 'a;
/// Given a window's start and bytes ([`ReadWindow`]).
type WindowBytes<'a> = dyn FnMut(u64, &[u8]) + 'a;
/// Given consecutive members with the bytes read for them ([`scan_members`]).
type MembersRead<'a> = dyn FnMut(&[(u32, Span)], InWindow<'_>) + 'a;

/// Windows of `source` read by `pread` into one buffer, reused ([`ReadWindow`]). Holes of a
/// sparse file are skipped, not read: a window is the data from the first data byte at or
/// after where it is asked for, up to a hole at most.
fn source_windows(source: &Source) -> impl Fn(u64, &mut WindowBytes<'_>) + '_ {
    let buf = std::cell::RefCell::new(Vec::new());
    move |from: u64, f: &mut WindowBytes<'_>| {
        let mut buf = buf.borrow_mut();
        let (start, data_end) = source.data_run(from);
        // not cleared first: only bytes the buffer never held are zeroed (the read
        // overwrites the rest, and only what it gave is handed on)
        buf.resize(usize::try_from(window_end(start, data_end) - start).unwrap_or(0), 0);
        let mut got = 0usize;
        while let Some(rest) = buf.get_mut(got..).filter(|r| !r.is_empty()) {
            match source.read_at(start + got as u64, rest) {
                Ok(n) if n > 0 => got += n,
                _ => break,
            }
        }
        f(start, buf.get(..got).unwrap_or_default())
    }
}

/// The end of the window starting at `start` in a run of data ending at `data_end`: at most
/// [`SURVEY_WINDOW`] on, on a 2048-byte boundary (so no member start is cut off), and not
/// past the run (a hole follows it).
fn window_end(start: u64, data_end: u64) -> u64 {
    let full = start.saturating_add(SURVEY_WINDOW);
    let aligned = full / SECTOR * SECTOR;
    (if aligned > start { aligned } else { full }).min(data_end.max(start))
}

/// Bytes read from the archive for members: `bytes` from offset `at`, then zeros up to
/// `zeros_to` (a hole of a sparse file, not read; `at + bytes.len()` when none).
#[derive(Clone, Copy)]
struct InWindow<'a> {
    bytes: &'a [u8],
    at: u64,
    zeros_to: u64,
}

impl<'a> InWindow<'a> {
    /// No bytes: every member is read from the file.
    const NONE: InWindow<'static> = InWindow { bytes: &[], at: 0, zeros_to: 0 };

    /// Bytes at `offset` copied into `buf` (zeros in the hole after the bytes read), as
    /// `Source::read_at` gives them; None when `offset` is not here.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Option<usize> {
        let rel = usize::try_from(offset.checked_sub(self.at)?).ok()?;
        if let Some(have) = self.bytes.get(rel..).filter(|h| !h.is_empty()) {
            let n = have.len().min(buf.len());
            buf.get_mut(..n)?.copy_from_slice(have.get(..n)?);
            return Some(n);
        }
        let zeros = usize::try_from(self.zeros_to.checked_sub(offset)?).ok().filter(|&z| z > 0)?.min(buf.len());
        buf.get_mut(..zeros)?.fill(0);
        Some(zeros)
    }

    /// The bytes of `span` here: all of them (false), or the ones read when the rest are
    /// the zeros after them (true).
    fn extent(&self, span: Span) -> Option<(&'a [u8], bool)> {
        if let Some(e) = extent_in_run(self.bytes, self.at, span) {
            return Some((e, false));
        }
        let lo = usize::try_from(span.start.checked_sub(self.at)?).ok()?;
        let read_to = self.at + self.bytes.len() as u64;
        (span.end <= self.zeros_to && span.end > read_to).then(|| self.bytes.get(lo..).map(|e| (e, true)))?
    }
}
/// Handed each listed extent of a run in order: its member and inflated bytes (or why
/// not), or None when no member header parses there.
type EachMember<'a> = dyn FnMut(Span, Option<(&MemberInfo, Result<Vec<u8>>)>) + 'a;
/// Reads a run of consecutive listed extents (index, span) from the bytes of the window
/// read at the given offset (or from the file, for what is not in them): each one's
/// header, and the member inflated, handed to `each` in order.
type ReadRun<'a> = dyn Fn(InWindow<'_>, &[(u32, Span)], &mut EachMember<'_>) + Sync + 'a;
/// [`ReadRun`] with its window given.
type ReadMembers<'a> = dyn Fn(&[(u32, Span)], &mut EachMember<'_>) + Sync + 'a;

/// The members of `run` inflated in order from `window` (the survey's bytes, the file
/// checked unchanged once for the window): each header parsed from its first 64 KiB as
/// [`header_from_source`] reads it and the member inflated from the same bytes. A member
/// whose extent ends in a hole is read from its bytes before the hole: a header or an
/// inflation that fails on those is read again from the file (where the zeros are read),
/// so its finding is the file's. A member not wholly in the window, a file changed since,
/// or a member that does not inflate from those bytes, goes through
/// [`inflate_from_source`] (`pread`), whose errors are then the ones reported.
fn read_run_in_window(
    source: &Source,
    window: InWindow<'_>,
    run: &[(u32, Span)],
    limits: &Limits,
    each: &mut EachMember<'_>,
) {
    let window = if source.changed() { InWindow::NONE } else { window };
    for &(i, span) in run {
        let (extent, cut) = window.extent(span).unzip();
        let from_window =
            extent.and_then(|e| parse::header_in_window(e.get(..e.len().min(64 << 10)).unwrap_or_default(), i, span));
        let m = match (from_window, cut) {
            (Some(m), Some(true)) if m.header_error.is_some() => header_from_source(source, i, span),
            (None, Some(true)) => header_from_source(source, i, span),
            (m, Some(_)) => m,
            (_, None) => header_from_source(source, i, span),
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

/// The bytes of `span` within `run_bytes` (read from `run_start`), if all of them were read.
fn extent_in_run(run_bytes: &[u8], run_start: u64, span: Span) -> Option<&[u8]> {
    let lo = usize::try_from(span.start.checked_sub(run_start)?).ok()?;
    let hi = usize::try_from(span.end.checked_sub(run_start)?).ok()?;
    run_bytes.get(lo..hi)
}

/// Bytes of a member running past its window kept to inflate it when its end is found;
/// a longer member is read again from the file (as a member on its own).
const PENDING_MAX: u64 = 4 << 20;

/// The last member start found: its extent runs to the next start, not found yet.
struct Pending {
    index: u32,
    start: u64,
    /// Its bytes read so far (from `start`), unless it grew past [`PENDING_MAX`].
    bytes: Option<Vec<u8>>,
    /// Where the bytes read so far end: what lies between there and the next window read is
    /// a hole (zeros).
    read_to: u64,
}

impl Pending {
    /// The window's bytes `w` (read at `at`, after a hole when `at` is past `read_to`) up
    /// to the next start are the member's too: kept when they follow the kept bytes, else
    /// the member is read again from the file (data after a hole: not the bytes read and
    /// zeros).
    fn extend(&mut self, at: u64, w: &[u8]) {
        if w.is_empty() {
            return;
        }
        match &mut self.bytes {
            Some(b) if at == self.read_to && (b.len() + w.len()) as u64 <= PENDING_MAX => b.extend_from_slice(w),
            _ => self.bytes = None,
        }
        self.read_to = at + w.len() as u64;
    }
}

/// Totals over an archive's members, read a window at a time by `window` ([`scan_members`],
/// each byte once), members surveyed in runs in parallel. Memory: one window, the pending
/// member's bytes, one total per run.
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
    let mut stopped = None;
    scan_members(len, window, done, &mut |spans, w| {
        if stopped.is_some() {
            return;
        }
        // Runs of consecutive members, their counters added into one typed tally per run
        // and the runs' tallies merged in order: findings keep the members' order.
        let runs: Vec<(u64, Tally, Option<ParseError>)> = map_runs(spans, survey_run_len(spans.len()), |run| {
            survey_run(run, limits, done, &|run, each| read(w, run, each))
        });
        for (members, run, e) in runs {
            listed_members += members;
            total.merge(run);
            if stopped.is_none() {
                stopped = e;
            }
        }
    });
    if let Some(e) = stopped {
        return Err(e);
    }
    total.add(keys.members, listed_members);
    if listed_members == 0 {
        total.findings.push(listing::no_member());
    }
    Ok(total.into_survey("gzarc", name))
}

/// Hands consecutive members of an archive, in order, to `members` with the bytes read for
/// them: the archive read a window at a time by `window`, each byte once. Each window's
/// member starts are found in its bytes, and the members whose extent ends in it (at the
/// next start) handed on with it; the last start of a window is pending: its bytes are
/// kept and its extent ends at the next start found, in a later window (or at the end),
/// when it is handed on alone. Holes of a sparse file are not read (no member starts in
/// zeros): a member followed by a hole is handed on with its bytes before it and the zeros
/// after them. `skipped` is told the bytes before the first member (or of a file without
/// one). Returns the first start (None without one).
fn scan_members(
    len: u64,
    window: &ReadWindow<'_>,
    skipped: &dyn Fn(u64),
    members: &mut MembersRead<'_>,
) -> Option<u64> {
    let mut index = 0u32;
    let mut pending: Option<Pending> = None;
    let mut first_start = None;
    // bytes before `pos` are read (or are a hole)
    let mut pos = 0u64;
    // The pending member handed on over `end`: with its kept bytes and the zeros after
    // them, or with none (read from the file).
    let finish = |p: Pending, end: u64, members: &mut MembersRead<'_>| {
        let run = [(p.index, Span::new(p.start, end))];
        let w = p.bytes.as_deref().map_or(InWindow::NONE, |b| InWindow { bytes: b, at: p.start, zeros_to: end });
        members(&run, w);
    };
    while pos < len {
        let mut read_to = None;
        window(pos, &mut |at, bytes| {
            let got = bytes.len() as u64;
            if got == 0 {
                return;
            }
            read_to = Some(at + got);
            // member starts: 2048-byte boundaries of the file holding the magic
            let starts: Vec<u64> = (at.div_ceil(SECTOR) * SECTOR..at + got)
                .step_by(SECTOR as usize)
                .filter(|&o| {
                    usize::try_from(o - at).ok().and_then(|r| bytes.get(r..r.checked_add(3)?)) == Some(&MAGIC[..])
                })
                .collect();
            let Some(&first) = starts.first() else {
                match pending.as_mut() {
                    Some(p) => p.extend(at, bytes),
                    None => skipped(at + got - pos), // no member starts here
                }
                return;
            };
            let lo = |o: u64| usize::try_from(o - at).unwrap_or(usize::MAX);
            match pending.take() {
                Some(mut p) => {
                    p.extend(at, bytes.get(..lo(first)).unwrap_or_default());
                    finish(p, first, &mut *members);
                }
                None => {
                    skipped(first - pos); // bytes before a member: nothing to survey there
                    first_start = Some(first);
                }
            }
            let spans: Vec<(u32, Span)> = starts
                .windows(2)
                .enumerate()
                .map(|(i, s)| {
                    let (a, b) = (s.first().copied().unwrap_or(first), s.get(1).copied().unwrap_or(first));
                    (index.saturating_add(u32::try_from(i).unwrap_or(u32::MAX)), Span::new(a, b))
                })
                .collect();
            index = index.saturating_add(u32::try_from(spans.len()).unwrap_or(u32::MAX));
            if !spans.is_empty() {
                members(&spans, InWindow { bytes, at, zeros_to: at + got });
            }
            let last = starts.last().copied().unwrap_or(first);
            let kept = bytes.get(lo(last)..).unwrap_or_default();
            pending = Some(Pending {
                index,
                start: last,
                bytes: (kept.len() as u64 <= PENDING_MAX).then(|| kept.to_vec()),
                read_to: at + got,
            });
            index = index.saturating_add(1);
        });
        match read_to {
            Some(to) => pos = to,
            None => break, // nothing more could be read: holes to the end, or the file shrank
        }
    }
    match pending {
        Some(p) => finish(p, len, members),
        None => skipped(len.saturating_sub(pos)),
    }
    first_start
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
    // the name's buffer is the last member's, as the bytes' are (no allocation per member)
    let mut name = MEMBER_NAME.with(|cell| cell.take());
    name.clear();
    name.push_str(&m.name_str());
    let member = Source::from_vec(name, bytes);
    let f = super::sniff(member.bytes(), member.name());
    // the member's bytes are held while what is nested in it is surveyed (one budget)
    let limits = &limits.for_member(member.len());
    f.survey(&member, limits, &|_| {}, total).map_err(|e| e.within(member.name()))?;
    total.add(keys.inflated_bytes, member.len());
    match keys.formats.iter().find(|(id, _)| *id == f.id()) {
        Some((_, k)) => total.add(*k, 1),
        None => total.add_named(&format!("members.format.{}", f.id()), 1),
    }
    let (name, bytes) = member.into_name_and_vec();
    MEMBER_NAME.with(|cell| cell.replace(name));
    if let Some(bytes) = bytes {
        decode::reuse_inflated(bytes);
    }
    Ok(())
}

std::thread_local! {
    /// The name of the member a survey worker is on, its buffer reused from member to member.
    static MEMBER_NAME: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Survey one run of consecutive listed extents into one tally, in order; with the number
/// of members found there.
fn survey_run(
    run: &[(u32, Span)],
    limits: &Limits,
    survey_done: &(dyn Fn(u64) + Sync),
    read: &ReadMembers<'_>,
) -> (u64, Tally, Option<ParseError>) {
    let keys = survey_keys();
    let mut total = Tally::default();
    let mut members = 0u64;
    // a member past the memory budget stops the survey (as `check_members` stops)
    let mut stopped = None;
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
            Err(e) if e.is_memory_budget() => {
                stopped.get_or_insert(e);
            }
            Err(e) => {
                total.add(keys.failed, 1);
                total.findings.push(Diagnostic::from_error(&e));
            }
        }
    });
    (members, total, stopped)
}

/// The strict check without a document: the findings the listing would make (bytes before
/// the first member, headers that do not parse, no member at all), then every member's own
/// check, in member order. The archive is read once, window by window as the survey reads
/// it ([`scan_members`]: holes of a sparse file not read); members are checked in runs in
/// parallel. Memory: one window and the findings, not a node per member.
fn check_members(source: &Source, limits: &Limits) -> Result<Vec<Diagnostic>> {
    let len = source.len();
    let window = source_windows(source);
    let (mut headers, mut found) = (Vec::new(), Vec::new());
    // the listing's node count: one per member, and one for bytes before the first
    let mut nodes = 0usize;
    // over the node limit: its error (with the whole count) is all the check says, so the
    // members past it are only counted
    let mut over = false;
    let (mut held, mut refused) = (0u64, None);
    let first = scan_members(len, &window, &|_| {}, &mut |spans, w| {
        if spans.first().is_some_and(|&(i, s)| i == 0 && s.start > 0) {
            nodes += 1;
        }
        nodes += spans.len();
        over |= describe::check_member_count(nodes, limits).is_err();
        if over {
            return;
        }
        if refused.is_some() {
            return;
        }
        let per: Vec<Vec<MemberChecked>> =
            map_runs(spans, survey_run_len(spans.len()), |run| check_run(source, w, run, limits));
        for ((header, member), (_, span)) in per.into_iter().flatten().zip(spans) {
            let member = match member {
                Ok(member) => member,
                Err(e) => {
                    refused = Some(e);
                    return;
                }
            };
            // The findings are held until every member is checked (the listing's come
            // first): they draw on the memory budget, so thousands of findings per member
            // (a MOTN of thousands of overlapping sequences in each) stop at the budget
            // error, not at the machine's memory.
            held = held.saturating_add(header.iter().chain(&member).map(finding_bytes).sum::<u64>());
            if let Err(e) = limits.spend_clip("the members' findings", held, span.start) {
                refused = Some(e);
                return;
            }
            headers.extend(header);
            found.extend(member);
        }
    });
    if let Some(e) = refused {
        return Err(e);
    }
    let head = len > 0 && first != Some(0);
    if first.is_none() {
        nodes += usize::from(head); // no member: one node for the whole file
    }
    describe::check_member_count(nodes, limits)?;
    let mut listed = Vec::new();
    if head {
        listed.push(listing::bytes_before_first(first.unwrap_or(len)));
    }
    if first.is_none() {
        listed.push(listing::no_member());
    }
    listed.extend(headers);
    listed.extend(found);
    Ok(listed)
}

/// One member's header finding (if its header does not parse) and its check's findings
/// (an error when the check stopped at the memory budget).
type MemberChecked = (Option<Diagnostic>, Result<Vec<Diagnostic>>);

/// The header finding and the strict check of each member of `run` (consecutive members),
/// in order, from the bytes `w` read for them (the file checked unchanged once for the
/// run): headers parsed from those bytes as the listing parses them (zeros in a hole after
/// them, as the file gives), members inflated from them. A member not in them, or whose
/// header or inflation fails from them, goes through `pread`, whose findings are then the
/// ones reported.
fn check_run(source: &Source, w: InWindow<'_>, run: &[(u32, Span)], limits: &Limits) -> Vec<MemberChecked> {
    let w = if source.changed() { InWindow::NONE } else { w };
    let mut out = Vec::with_capacity(run.len());
    for &(i, span) in run {
        // read as the listing reads it, so the findings are the listing's: its first
        // window of the member's bytes, here in the bytes read already (no copy)
        let m = match w.extent(span) {
            Some((extent, false)) => {
                listing::header_in_first_window(extent, i, span).filter(|m| m.header_error.is_none())
            }
            _ => None,
        };
        let m = m.unwrap_or_else(|| {
            let mut from_run = |o: u64, b: &mut [u8]| w.read_at(o, b).map_or_else(|| source.read_at(o, b), Ok);
            listing::header_via_reader(&mut from_run, source.bytes(), i, span.start, span.end)
        });
        let header = m.header_error.as_ref().map(Diagnostic::from_error);
        // inflated as `member_from_source` inflates it (header from the first 64 KiB)
        let checked = w.extent(span).and_then(|(extent, _)| {
            let head = extent.get(..extent.len().min(64 << 10)).unwrap_or_default();
            let m = parse::header_in_window(head, i, span)?;
            Some(check_member(m.display_name(), decode::inflate_read_extent_reusing(extent, &m, limits).ok()?, limits))
        });
        out.push((header, checked.unwrap_or_else(|| check_member_from_source(source, i, span, limits))));
    }
    out
}

/// The strict check of member `i` at `span`, read by pread; a member that does not
/// inflate is its one finding.
fn check_member_from_source(source: &Source, i: u32, span: Span, limits: &Limits) -> Result<Vec<Diagnostic>> {
    match member_from_source(source, i, span, limits) {
        Ok(m) => check_member(m.name, m.bytes, limits),
        Err(e) => member_finding(e),
    }
}

/// Bytes one finding held in memory takes, estimated (its text and its record).
fn finding_bytes(d: &Diagnostic) -> u64 {
    (d.path.len() + d.message.len() + std::mem::size_of::<Diagnostic>()) as u64
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
fn check_member(mname: String, bytes: Vec<u8>, limits: &Limits) -> Result<Vec<Diagnostic>> {
    // The member's bytes are held while it is checked: they, and everything nested in it,
    // draw from this budget (a chain of archives in archives shares one budget).
    let limits = &limits.for_member(bytes.len() as u64);
    let member = Source::from_vec(mname, bytes);
    let r = super::check_source(&member, limits);
    // the bytes are the next member's output buffer (see `decode::reuse_inflated`)
    let (mname, bytes) = member.into_name_and_vec();
    if let Some(bytes) = bytes {
        decode::reuse_inflated(bytes);
    }
    match r {
        Ok(ds) => Ok(ds
            .into_iter()
            .map(|mut d| {
                d.path = if d.path.is_empty() { mname.clone() } else { format!("{mname} > {}", d.path) };
                d.message = format!("{} (offset in the inflated member)", d.message);
                d
            })
            .collect()),
        Err(e) => member_finding(e.within(mname)),
    }
}

/// A member that cannot be checked or surveyed is one finding, and the check goes on with
/// the rest; one past the memory budget stops the command instead (its error names
/// `--limit memory=`): what it did not read is not a finding about the file.
fn member_finding(e: ParseError) -> Result<Vec<Diagnostic>> {
    if e.is_memory_budget() { Err(e) } else { Ok(vec![Diagnostic::from_error(&e)]) }
}

#[cfg(test)]
mod tests;
