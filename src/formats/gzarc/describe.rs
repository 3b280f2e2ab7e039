//! A gzip archive → `model::Document`: the listing (`listing.rs`) adds one node per member,
//! labelled here with the fields of its header's `raw.rs` declarations; the deflate data,
//! trailer and padding are one opaque field (the trailer's place is known only after
//! inflating). Opened from a file ([`describe_lazy`]), a member's fields are built when
//! its node is expanded: the listing keeps a node (span, key, summary) and a walk step per
//! member, so 315,000 members do not hold ten fields each.

use super::listing::{self, continue_listing};
use super::parse::{MemberInfo, probe_reader};
use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::{Document, Expand, NodeId, Span, WalkStep};
use crate::source::Source;
use std::sync::Arc;

#[cfg(test)]
/// The archive's document with every member's fields, listed as far as
/// `limits.list_budget` goes.
pub(super) fn describe(data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
    let mut doc = Document::new("gzarc", name, "gzip archive", data.len() as u64, limits);
    listing::start(&mut doc);
    continue_listing(data, &mut doc, limits.list_budget);
    checked_count(doc, limits)
}

/// The archive's document on demand: members' fields are built by [`MemberFields`] when
/// their nodes are expanded (listing steps applied later add lazy nodes too).
pub(super) fn describe_lazy(source: &Arc<Source>, limits: &Limits) -> Result<Document> {
    let mut doc = Document::new("gzarc", source.name(), "gzip archive", source.len(), limits);
    doc.set_expander(Arc::new(MemberFields::new(Arc::clone(source))));
    listing::start(&mut doc);
    // Probed and headers read by pread: listing a big archive faults no mapped page in (a
    // 645 MB archive's pages were most of the process's resident memory).
    if let Some((from, to)) = listing::next_probe_range(&doc, limits.list_budget) {
        let mut read_at = |o: u64, b: &mut [u8]| source.read_at(o, b);
        match probe_reader(&mut read_at, from, to) {
            Ok(starts) => {
                listing::apply_probe_reading(source.bytes(), &mut doc, from, to, &starts, &mut read_at);
            }
            Err(_) => {
                continue_listing(source.bytes(), &mut doc, limits.list_budget);
            }
        }
    }
    checked_count(doc, limits)
}

/// Builds a member node's header fields when it is expanded, from its span and index.
pub(super) struct MemberFields {
    source: Arc<Source>,
}

impl Expand for MemberFields {
    fn expand(&self, doc: &mut Document, node: NodeId, _token: u64) {
        let Some((index, span)) = doc.node(node).and_then(|n| Some((n.member?, n.span))) else { return };
        for f in self.header(index, span).fields() {
            doc.add_field(node, f);
        }
    }

    fn walk_step(&self, doc: &Document, node: NodeId) -> Option<WalkStep> {
        let (index, span) = doc.node(node).and_then(|n| Some((n.member?, n.span)))?;
        Some(self.header(index, span).walk_step(doc.len, node))
    }
}

impl MemberFields {
    /// The builder for members of the archive in `source`.
    pub(super) fn new(source: Arc<Source>) -> Self {
        MemberFields { source }
    }

    /// The header of member `index` over `span`, read by pread as the listing read it: a
    /// file truncated meanwhile gives what is left, not a SIGBUS.
    fn header(&self, index: u32, span: Span) -> MemberInfo {
        let src = &self.source;
        listing::header_via_reader(&mut |o, b| src.read_at(o, b), src.bytes(), index, span.start, span.end)
    }
}

/// `doc`, unless it lists more members than `limits.max_nodes`.
fn checked_count(doc: Document, limits: &Limits) -> Result<Document> {
    check_member_count(doc.root().children.len(), limits)?;
    Ok(doc)
}

/// An error when a listing of `nodes` nodes (members, and bytes before the first) reaches
/// `limits.max_nodes`.
pub(super) fn check_member_count(nodes: usize, limits: &Limits) -> Result<()> {
    if nodes >= limits.max_nodes {
        return Err(ParseError::new(
            0,
            ErrorKind::LimitExceeded { what: "members", value: nodes as u64, max: limits.max_nodes as u64 },
        ));
    }
    Ok(())
}
