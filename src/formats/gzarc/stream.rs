//! A whole archive's top level shown member by member without holding it (`tree` of a
//! 315,000-member archive): the file is probed for member starts first (8 bytes a member),
//! then listed in runs of [`RUN`] members, each run in a document of its own that is
//! shown and dropped before the next. Keys and member numbers carry over from run to run,
//! so what is shown is what the whole listing shows.

use super::describe::MemberFields;
use super::listing::{self, ListingCursor};
use crate::formats::TopLevel;
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, NodeId};
use crate::source::Source;
use std::sync::Arc;

/// Members listed (and held) at once.
const RUN: usize = 4096;

/// Show the archive in `source` through `visit`: first its root (with the number of
/// children the whole listing has), then each top-level node in order. Returns the
/// document's findings in the order the whole listing records them; None (nothing shown)
/// when the archive has more members than `limits` allow: the whole document says so.
pub(super) fn stream_top_level(
    source: &Arc<Source>,
    limits: &Limits,
    visit: &mut dyn FnMut(TopLevel<'_>) -> std::io::Result<()>,
) -> Option<std::io::Result<Vec<Diagnostic>>> {
    stream_in_runs(source, limits, RUN, visit)
}

/// [`stream_top_level`] listing `run` members at a time.
pub(super) fn stream_in_runs(
    source: &Arc<Source>,
    limits: &Limits,
    run: usize,
    visit: &mut dyn FnMut(TopLevel<'_>) -> std::io::Result<()>,
) -> Option<std::io::Result<Vec<Diagnostic>>> {
    let mut read_at = |o: u64, b: &mut [u8]| source.read_at(o, b);
    let starts = match super::parse::probe_reader(&mut read_at, 0, source.len()) {
        Ok(s) => s,
        Err(e) => return Some(Err(e)),
    };
    let head = usize::from(!source.is_empty() && starts.first() != Some(&0));
    super::describe::check_member_count(starts.len() + head, limits).ok()?;
    Some(show_runs(source, &starts, head, run.max(1), limits, visit))
}

fn show_runs(
    source: &Arc<Source>,
    starts: &[u64],
    head: usize,
    run_len: usize,
    limits: &Limits,
    visit: &mut dyn FnMut(TopLevel<'_>) -> std::io::Result<()>,
) -> std::io::Result<Vec<Diagnostic>> {
    let len = source.len();
    let data = source.bytes();
    let mut read_at = |o: u64, b: &mut [u8]| source.read_at(o, b);
    let new_doc = || {
        let mut doc = Document::new("gzarc", source.name(), "gzip archive", len, limits);
        doc.set_expander(Arc::new(MemberFields::new(Arc::clone(source))));
        doc
    };
    let mut cursor = ListingCursor::default();
    let mut diagnostics = Vec::new();
    let mut root_shown = false;
    // Runs end at a member start (a boundary), so each run's last member is complete.
    let mut from = 0u64;
    let mut listed_to = 0u64;
    let mut rest: &[u64] = starts;
    loop {
        let (run, after) = rest.split_at(rest.len().min(run_len));
        let to = after.first().copied().unwrap_or(len);
        let mut doc = new_doc();
        listing::resume(&mut doc, listed_to, from);
        let done = listing::apply_run(data, &mut doc, from, to, run, &mut read_at, &mut cursor);
        if !root_shown {
            if let Some(r) = doc.node_mut(NodeId::ROOT) {
                r.summary = listing::complete_summary(starts.len() as u64).into();
            }
            visit(TopLevel::Root(&mut doc, starts.len() + head))?;
            root_shown = true;
        }
        let kids: Vec<NodeId> = doc.root().children.clone();
        for id in kids {
            if !is_tail(&doc, id) {
                visit(TopLevel::Child(&mut doc, id))?;
            }
        }
        // The part's placeholders (what it had not listed yet) are not steps of the whole walk.
        let tails: Vec<NodeId> = doc.root().children.iter().copied().filter(|id| is_tail(&doc, *id)).collect();
        doc.walk.retain_by_node(|n| n.is_none_or(|id| !tails.contains(&id)));
        visit(TopLevel::PartDone(&mut doc))?;
        if let Some(b) = doc.budget_exceeded() {
            return Err(std::io::Error::other(format!("{}: {}", crate::model::sanitize(source.name()), b.error())));
        }
        diagnostics.extend(listing::findings_without_pause(&doc));
        if done {
            break;
        }
        (from, listed_to) = (to, listing::listed_to(&doc));
        rest = after;
    }
    Ok(diagnostics)
}

/// True for a part's placeholder node (the bytes it had not listed).
fn is_tail(doc: &Document, id: NodeId) -> bool {
    doc.node(id).is_some_and(|n| n.kind == listing::TAIL_KIND)
}
