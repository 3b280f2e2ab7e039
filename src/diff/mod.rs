//! Structure-aware comparison of two parsed inputs: nodes are aligned by their key paths
//! (archive members by name), not by offset, so a chunk inserted early in a file does not
//! make every later structure look changed.
//!
//! The walk is streamed: each pair of structures is built when reached
//! ([`Document::expand`]) and dropped once compared, and nested members are inflated only
//! when their stored bytes differ, so memory follows one structure pair, not the files.
//! Changes go to a sink as they are found; identical structures are only counted.
//!
//! Alignment: children of two aligned nodes are matched by key; keys that name their
//! offset (`padding@0x11f`) are matched by their name part; repeated keys by position
//! among the siblings with that key. A node whose stored bytes are equal in both files is
//! identical (its inside is not compared). An alias is compared by the path it points to.
//! Animations (nodes with an animation) whose bytes differ are decoded on both sides and
//! compared channel by channel.

use crate::formats::{self, DecodeOptions, Parsed};
use crate::limits::Limits;
use crate::model::anim::{Clip, Track};
use crate::model::{Document, Field, Meaning, NodeId, Raw, Span, Value};
use crate::source::Source;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// How to compare.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Values (keys and samples) closer than this count as equal (float noise).
    pub tolerance: f64,
    /// List every differing key of a channel, not only the first.
    pub all_keys: bool,
    /// Budgets for inflating members and decoding.
    pub limits: Limits,
    /// Counts aligned structure pairs as they are compared (a caller's progress display).
    pub progress: Option<Arc<AtomicU64>>,
}

/// A field whose value differs (or that only one side has).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    /// Field name (with `#N` appended for the N-th repeat of a name, from 1).
    pub name: String,
    /// Display value in A (None: A has no such field).
    pub old: Option<String>,
    /// Display value in B.
    pub new: Option<String>,
}

/// A stored key of one side: its index, frame and value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyAt {
    /// Position among the channel's keys.
    pub index: usize,
    /// Frame.
    pub frame: f64,
    /// Value.
    pub value: f64,
}

/// A key that differs: by position in the channel; a side without that key is None.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyChange {
    /// Index of the key.
    pub index: usize,
    /// A's key.
    pub a: Option<KeyAt>,
    /// B's key.
    pub b: Option<KeyAt>,
}

/// The largest difference of a channel's per-frame samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleChange {
    /// Logical frame.
    pub frame: usize,
    /// A's value there.
    pub a: f64,
    /// B's value there.
    pub b: f64,
}

impl SampleChange {
    /// |b − a|.
    pub fn delta(&self) -> f64 {
        (self.b - self.a).abs()
    }
}

/// How one channel present on both sides differs.
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelChange {
    /// Channel name.
    pub name: String,
    /// Key counts (A, B).
    pub keys: (usize, usize),
    /// Differing keys: the first only, or all with [`Options::all_keys`].
    pub key_changes: Vec<KeyChange>,
    /// The largest per-frame difference beyond the tolerance (over the frames both have).
    pub largest: Option<SampleChange>,
}

/// How an animation differs.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimChange {
    /// Animation name (A's).
    pub name: String,
    /// Logical frame counts (A, B).
    pub frames: (usize, usize),
    /// Channels only A has, in A's order.
    pub channels_only_in_a: Vec<String>,
    /// Channels only B has, in B's order.
    pub channels_only_in_b: Vec<String>,
    /// Channels both have that differ, in A's order.
    pub channels: Vec<ChannelChange>,
}

/// What changed about a node.
#[derive(Debug, Clone, PartialEq)]
pub enum What {
    /// The node exists only in A.
    OnlyInA,
    /// The node exists only in B.
    OnlyInB,
    /// The node's own bytes differ (those not inside a child), or its fields or kind.
    Bytes {
        /// B's kind when it differs from A's.
        new_kind: Option<String>,
        /// Fields that differ.
        fields: Vec<FieldChange>,
    },
    /// An alias points elsewhere (paths within the document; None: not an alias).
    Alias {
        /// What A's node is an alias of.
        old: Option<String>,
        /// What B's node is an alias of.
        new: Option<String>,
    },
    /// The node's animation decodes differently.
    Anim(AnimChange),
    /// One side could not be opened or decoded (a member, an animation).
    Unreadable {
        /// Which side failed, "A", "B" or "A and B".
        side: &'static str,
        /// What went wrong.
        message: String,
    },
}

impl What {
    /// Stable lowercase name (`only_in_a`, `only_in_b`, `bytes`, `alias`, `anim`, `unreadable`).
    pub fn name(&self) -> &'static str {
        match self {
            What::OnlyInA => "only_in_a",
            What::OnlyInB => "only_in_b",
            What::Bytes { .. } => "bytes",
            What::Alias { .. } => "alias",
            What::Anim(_) => "anim",
            What::Unreadable { .. } => "unreadable",
        }
    }
}

/// One reported difference.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Node path (A's, or B's for nodes only in B), through members: `DATA.BIN/x.cmp/Anime[A]`.
    pub path: String,
    /// The node's kind (A's, or B's for nodes only in B).
    pub kind: String,
    /// Its span in A (in the bytes of the member it lives in).
    pub a: Option<Span>,
    /// Its span in B.
    pub b: Option<Span>,
    /// What differs.
    pub what: What,
}

/// The structure a change is summarised under (`diff --summary`: one line per unit): the
/// nearest animation at or above the changed node (a sequence, a clip, an Anime), else the
/// top-level structure (a child of a file's or member's root) holding it, else the root.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unit {
    /// Its path, as [`Change::path`] names nodes.
    pub path: String,
    /// Its kind (A's, or B's for a unit only in B).
    pub kind: String,
    /// It carries an animation.
    pub anim: bool,
    /// Other names of it: the keys of A's nodes that are aliases of it (names sharing one
    /// sequence), in A's order.
    pub aliases: Vec<String>,
}

/// Totals of a comparison.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Aligned node pairs whose bytes are equal (each counted once, its inside not walked).
    pub identical: u64,
    /// The same by kind.
    pub identical_by_kind: BTreeMap<String, u64>,
    /// Changes reported, by [`What::name`].
    pub changes: BTreeMap<&'static str, u64>,
    /// Aligned node pairs whose bytes differ only inside their children (not reported).
    pub containers: u64,
    /// Offset fields left out of the report because only the offset changed: both sides
    /// point at the node with the same key (`0xb8 → clip[2]` and `0xc0 → clip[2]`), which
    /// moved because something before it grew or shrank.
    pub moved_pointers: u64,
}

impl Summary {
    /// Total changes reported.
    pub fn change_count(&self) -> u64 {
        self.changes.values().sum()
    }

    /// True when anything differs.
    pub fn differs(&self) -> bool {
        self.change_count() > 0
    }
}

/// Compare node `na` of `a` with node `nb` of `b` and everything below them, sending each
/// change to `sink` as found. `path` is what `na` is called in the report (usually its
/// document path). Errors are the sink's only: unreadable members and animations are
/// reported as changes.
pub fn diff(
    a: &mut dyn Parsed,
    na: NodeId,
    b: &mut dyn Parsed,
    nb: NodeId,
    path: &str,
    opts: &Options,
    sink: &mut dyn FnMut(&Change) -> std::io::Result<()>,
) -> std::io::Result<Summary> {
    diff_units(a, na, b, nb, path, opts, &mut |_, c| sink(c))
}

/// [`diff`], each change sent with the [`Unit`] it is summarised under (changes of one unit
/// arrive one after another).
pub fn diff_units(
    a: &mut dyn Parsed,
    na: NodeId,
    b: &mut dyn Parsed,
    nb: NodeId,
    path: &str,
    opts: &Options,
    sink: &mut dyn FnMut(&Unit, &Change) -> std::io::Result<()>,
) -> std::io::Result<Summary> {
    let mut summary = Summary::default();
    let mut w = Walker { opts, sink, summary: &mut summary };
    let top = Place { unit: Arc::new(Unit::default()), root: true };
    w.pair((a, na), (b, nb), path.to_string(), top, 0)?;
    Ok(summary)
}

/// Compare two whole inputs from their roots ([`diff`] on the roots, named by A's root key).
pub fn diff_roots(
    a: &mut dyn Parsed,
    b: &mut dyn Parsed,
    opts: &Options,
    sink: &mut dyn FnMut(&Change) -> std::io::Result<()>,
) -> std::io::Result<Summary> {
    let path = a.document().root().key.clone();
    diff(a, NodeId::ROOT, b, NodeId::ROOT, &path, opts, sink)
}

/// Collect every change of [`diff_roots`] (tests, the TUI: a list, not a stream).
pub fn changes(a: &mut dyn Parsed, b: &mut dyn Parsed, opts: &Options) -> (Vec<Change>, Summary) {
    let mut out = Vec::new();
    let summary = diff_roots(a, b, opts, &mut |c| {
        out.push(c.clone());
        Ok(())
    })
    // The sink above cannot fail.
    .unwrap_or_default();
    (out, summary)
}

/// Members nest at most this deep (a gzip inside a gzip ...): deeper ones are reported
/// unreadable instead of opened.
const MAX_MEMBER_DEPTH: usize = 64;

struct Walker<'a> {
    opts: &'a Options,
    sink: &'a mut dyn FnMut(&Unit, &Change) -> std::io::Result<()>,
    summary: &'a mut Summary,
}

/// Where a pair sits: the unit of its parent, and whether it is a document's root (its
/// children are top-level structures).
#[derive(Clone)]
struct Place {
    unit: Arc<Unit>,
    root: bool,
}

impl Place {
    /// The unit of a node at `path` below this place (`anim`: it carries an animation).
    fn unit_of(&self, doc: &Document, id: NodeId, path: &str, kind: &str) -> Arc<Unit> {
        let anim = doc.node(id).is_some_and(|n| n.anim.is_some());
        if (anim || self.root) && !self.unit.anim {
            let aliases = if anim { aliases_of(doc, id) } else { Vec::new() };
            Arc::new(Unit { path: path.to_string(), kind: kind.to_string(), anim, aliases })
        } else {
            Arc::clone(&self.unit)
        }
    }
}

/// The keys of the siblings of `id` that are aliases of it.
fn aliases_of(doc: &Document, id: NodeId) -> Vec<String> {
    let Some(parent) = doc.node(id).and_then(|n| n.parent).and_then(|p| doc.node(p)) else { return Vec::new() };
    parent
        .children
        .iter()
        .filter_map(|c| doc.node(*c))
        .filter(|n| n.alias_of == Some(id))
        .map(|n| n.key.to_string())
        .collect()
}

enum Step {
    Pair(NodeId, NodeId, String, Place),
    Report(Box<Change>, Arc<Unit>),
    Collapse(bool, NodeId),
}

/// The steps of the children `kids_a` of A and `kids_b` of B of the node at `path`, in A's
/// order: each aligned pair compared, each child on one side only reported, B's unmatched
/// ones where they fall among the pairs (after the A child before them).
fn child_steps(
    (da, kids_a): (&Document, &[NodeId]),
    (db, kids_b): (&Document, &[NodeId]),
    path: &str,
    below: &Place,
) -> Vec<Step> {
    let mut next = Vec::new();
    for p in align(da, kids_a, db, kids_b) {
        match p {
            (Some(ca), Some(cb)) => {
                let key = da.node(ca).map(|n| n.key.clone()).unwrap_or_default();
                next.push(Step::Pair(ca, cb, format!("{path}/{key}"), below.clone()));
            }
            (Some(ca), None) => {
                if let Some(n) = da.node(ca) {
                    let p = format!("{path}/{}", n.key);
                    let unit = below.unit_of(da, ca, &p, &n.kind);
                    let c = Change { path: p, kind: n.kind.to_string(), a: Some(n.span), b: None, what: What::OnlyInA };
                    next.push(Step::Report(Box::new(c), unit));
                }
            }
            (None, Some(cb)) => {
                if let Some(n) = db.node(cb) {
                    let p = format!("{path}/{}", n.key);
                    let unit = below.unit_of(db, cb, &p, &n.kind);
                    let c = Change { path: p, kind: n.kind.to_string(), a: None, b: Some(n.span), what: What::OnlyInB };
                    next.push(Step::Report(Box::new(c), unit));
                }
            }
            (None, None) => {}
        }
    }
    next
}

/// An aligned pair of nodes being compared: their path, their spans in A and B and A's kind.
#[derive(Clone, Copy)]
struct Pair<'a> {
    path: &'a str,
    spans: (Span, Span),
    kind: &'a str,
}

impl Walker<'_> {
    fn emit(&mut self, unit: &Unit, c: Change) -> std::io::Result<()> {
        *self.summary.changes.entry(c.what.name()).or_insert(0) += 1;
        (self.sink)(unit, &c)
    }

    fn identical(&mut self, kind: &str) {
        self.summary.identical += 1;
        *self.summary.identical_by_kind.entry(kind.to_string()).or_insert(0) += 1;
    }

    /// Walk one aligned pair of documents from (na, nb), depth-first in A's order.
    fn pair(
        &mut self,
        (a, na): (&mut dyn Parsed, NodeId),
        (b, nb): (&mut dyn Parsed, NodeId),
        path: String,
        place: Place,
        depth: usize,
    ) -> std::io::Result<()> {
        let mut stack = vec![Step::Pair(na, nb, path, place)];
        while let Some(step) = stack.pop() {
            let (ia, ib, path, place) = match step {
                Step::Collapse(side_a, id) => {
                    let doc = if side_a { a.document_mut() } else { b.document_mut() };
                    doc.collapse(id);
                    continue;
                }
                Step::Report(c, unit) => {
                    self.emit(&unit, *c)?;
                    continue;
                }
                Step::Pair(ia, ib, path, place) => (ia, ib, path, place),
            };
            if let Some(p) = &self.opts.progress {
                p.fetch_add(1, Ordering::Relaxed);
            }
            let (Some(sa), Some(sb)) = (a.document().node(ia).map(|n| n.span), b.document().node(ib).map(|n| n.span))
            else {
                continue;
            };
            let (alias_a, alias_b) = (alias_path(a.document(), ia), alias_path(b.document(), ib));
            let (kind_a, kind_b) = (kind(a.document(), ia), kind(b.document(), ib));
            if alias_a.is_some() || alias_b.is_some() {
                // An alias is what it points to: compared by that path (its bytes are the
                // target's, compared there).
                if alias_a == alias_b {
                    self.identical(&kind_a);
                } else {
                    let unit = place.unit_of(a.document(), ia, &path, &kind_a);
                    let what = What::Alias { old: alias_a, new: alias_b };
                    self.emit(&unit, Change { path, kind: kind_a, a: Some(sa), b: Some(sb), what })?;
                }
                continue;
            }
            let equal_bytes = slice(a, sa) == slice(b, sb) && kind_a == kind_b;
            let (built_a, built_b) = (a.document_mut().expand(ia), b.document_mut().expand(ib));
            if equal_bytes && same_shape(a.document(), ia, b.document(), ib) {
                if built_a {
                    a.document_mut().collapse(ia);
                }
                if built_b {
                    b.document_mut().collapse(ib);
                }
                self.identical(&kind_a);
                continue;
            }
            if built_a {
                stack.push(Step::Collapse(true, ia));
            }
            if built_b {
                stack.push(Step::Collapse(false, ib));
            }
            let unit = place.unit_of(a.document(), ia, &path, &kind_a);
            // a document's root, or the node the comparison starts at: its children are
            // top-level structures
            let is_root = place.unit.path.is_empty() || a.document().node(ia).is_some_and(|n| n.parent.is_none());
            let below = Place { unit: Arc::clone(&unit), root: is_root };
            let (Some(xa), Some(xb)) = (a.document().node(ia), b.document().node(ib)) else { continue };
            let (fields, moved) = field_changes(&xa.fields, &xb.fields);
            let members = xa.member.is_some() && xb.member.is_some();
            let anims = xa.anim.is_some() && xb.anim.is_some();
            let (kids_a, kids_b) = (xa.children.clone(), xb.children.clone());
            // The bytes of pointers that only moved are not a change of the node's own.
            let (mask_a, mask_b): (Vec<Span>, Vec<Span>) = moved.iter().copied().unzip();
            let own_differs = !own_bytes(a, ia, &mask_a).eq(own_bytes(b, ib, &mask_b));
            self.summary.moved_pointers += moved.len() as u64;
            let new_kind = (kind_a != kind_b).then(|| kind_b.clone());
            if own_differs || !fields.is_empty() || new_kind.is_some() {
                let what = What::Bytes { new_kind, fields };
                let c = Change { path: path.clone(), kind: kind_a.clone(), a: Some(sa), b: Some(sb), what };
                self.emit(&unit, c)?;
            } else {
                self.summary.containers += 1;
            }
            if anims {
                self.anim((a, ia), (b, ib), Pair { path: &path, spans: (sa, sb), kind: &kind_a }, &unit)?;
            }
            if members {
                self.members((a, ia), (b, ib), Pair { path: &path, spans: (sa, sb), kind: &kind_a }, &below, depth)?;
            }
            // Children, matched by alignment key; B's unmatched ones where they fall
            // among the pairs (after the A child before them).
            let next = child_steps((a.document(), &kids_a), (b.document(), &kids_b), &path, &below);
            stack.extend(next.into_iter().rev());
        }
        Ok(())
    }

    /// Decode both animations and report how they differ.
    fn anim(
        &mut self,
        (a, ia): (&dyn Parsed, NodeId),
        (b, ib): (&dyn Parsed, NodeId),
        at: Pair<'_>,
        unit: &Unit,
    ) -> std::io::Result<()> {
        let Pair { path, spans, kind } = at;
        let opts = DecodeOptions { curves_only: true, ..DecodeOptions::default() };
        let decode = |p: &dyn Parsed, n: NodeId, side: &str| -> std::io::Result<Result<Clip, String>> {
            let anim = p.animation_at(n).ok_or_else(|| "no animation".to_string());
            Ok(
                match anim
                    .map(|anim| p.require_clips_for(&anim).and_then(|c| c.decode(&anim, &opts, &self.opts.limits)))
                {
                    Ok(Ok(clip)) => Ok(clip),
                    Ok(Err(e)) => Err(budget_stop(path, side, e)?),
                    Err(e) => Err(e),
                },
            )
        };
        let change =
            |what| Change { path: path.to_string(), kind: kind.to_string(), a: Some(spans.0), b: Some(spans.1), what };
        match (decode(a, ia, "A")?, decode(b, ib, "B")?) {
            (Ok(ca), Ok(cb)) => {
                if let Some(c) = compare_clips(&ca, &cb, self.opts) {
                    self.emit(unit, change(What::Anim(c)))?;
                }
            }
            (Err(ea), Err(eb)) if ea == eb => {}
            (Err(e), Ok(_)) => self.emit(unit, change(What::Unreadable { side: "A", message: e }))?,
            (Ok(_), Err(e)) => self.emit(unit, change(What::Unreadable { side: "B", message: e }))?,
            (Err(ea), Err(eb)) => {
                self.emit(unit, change(What::Unreadable { side: "A and B", message: format!("{ea}; {eb}") }))?;
            }
        }
        Ok(())
    }

    /// Open both members and compare their documents under the member node's path.
    fn members(
        &mut self,
        (a, ia): (&dyn Parsed, NodeId),
        (b, ib): (&dyn Parsed, NodeId),
        at: Pair<'_>,
        place: &Place,
        depth: usize,
    ) -> std::io::Result<()> {
        let Pair { path, spans, kind } = at;
        let limits = &self.opts.limits;
        let open = |p: &dyn Parsed, n: NodeId, side: &str| -> std::io::Result<Result<Box<dyn Parsed>, String>> {
            if depth >= MAX_MEMBER_DEPTH {
                return Ok(Err(format!("members nested deeper than {MAX_MEMBER_DEPTH}")));
            }
            let opened = p.open_member_of(n, limits).and_then(|m| {
                // the member's bytes are held while it is compared: what is nested in it
                // draws on what they leave of the budget
                let limits = &limits.for_member(m.bytes.len() as u64);
                formats::open(Arc::new(Source::from_vec(m.name, m.bytes)), None, limits)
            });
            Ok(match opened {
                Ok(o) => Ok(o),
                Err(e) => Err(budget_stop(path, side, e)?),
            })
        };
        let change =
            |what| Change { path: path.to_string(), kind: kind.to_string(), a: Some(spans.0), b: Some(spans.1), what };
        match (open(a, ia, "A")?, open(b, ib, "B")?) {
            (Ok(mut ma), Ok(mut mb)) => {
                // the member's root is a document root: its children are top-level structures
                // (inside an animation, still that animation's)
                let inner = Place { unit: Arc::clone(&place.unit), root: !place.unit.anim };
                self.pair((&mut *ma, NodeId::ROOT), (&mut *mb, NodeId::ROOT), path.to_string(), inner, depth + 1)?;
            }
            (Err(ea), Err(eb)) if ea == eb => {}
            (Err(e), Ok(_)) => self.emit(&place.unit, change(What::Unreadable { side: "A", message: e }))?,
            (Ok(_), Err(e)) => self.emit(&place.unit, change(What::Unreadable { side: "B", message: e }))?,
            (Err(ea), Err(eb)) => {
                self.emit(&place.unit, change(What::Unreadable { side: "A and B", message: format!("{ea}; {eb}") }))?;
            }
        }
        Ok(())
    }
}

/// A side that stopped at the memory budget stops the comparison with that error (naming
/// the side, the path and `--limit memory=`), as every verb stops there: a budget is not a
/// difference, and both sides stopping alike must not read as equal. Any other error is
/// returned as its text, to be reported as a side that could not be read.
fn budget_stop(path: &str, side: &str, e: crate::error::ParseError) -> std::io::Result<String> {
    if e.is_memory_budget() { Err(std::io::Error::other(format!("{side}: {path}: {e}"))) } else { Ok(e.to_string()) }
}

fn slice(p: &dyn Parsed, s: Span) -> &[u8] {
    let bytes = p.source().bytes();
    let end = usize::try_from(s.end).unwrap_or(usize::MAX).min(bytes.len());
    let start = usize::try_from(s.start).unwrap_or(usize::MAX).min(end);
    bytes.get(start..end).unwrap_or(&[])
}

/// Equal bytes can still be read differently (a block of values whose channels are named
/// by another block): the summaries and the children's keys must agree too (both nodes
/// are built for this, and dropped again when they agree).
fn same_shape(da: &Document, ia: NodeId, db: &Document, ib: NodeId) -> bool {
    let (Some(a), Some(b)) = (da.node(ia), db.node(ib)) else { return false };
    if a.summary != b.summary {
        return false;
    }
    let keys = |d: &Document, ids: &[NodeId]| -> Vec<String> {
        ids.iter().filter_map(|c| d.node(*c).map(|n| align_key(&n.key).to_string())).collect()
    };
    keys(da, &a.children) == keys(db, &b.children)
}

fn kind(doc: &Document, id: NodeId) -> String {
    doc.node(id).map(|n| n.kind.to_string()).unwrap_or_default()
}

/// The path (below the root) of what `id` is an alias of.
fn alias_path(doc: &Document, id: NodeId) -> Option<String> {
    let target = doc.node(id)?.alias_of?;
    let full = doc.path(target);
    let root = &doc.root().key;
    Some(full.strip_prefix(root.as_str()).map_or(full.clone(), |r| r.trim_start_matches('/').to_string()))
}

/// The bytes of `id`'s span that no child covers, in order, less those in `mask` (sorted
/// or not; the moved pointers' bytes).
fn own_bytes<'a>(p: &'a dyn Parsed, id: NodeId, mask: &[Span]) -> impl Iterator<Item = u8> + 'a {
    let doc = p.document();
    let mut gaps = Vec::new();
    if let Some(n) = doc.node(id) {
        let mut kids: Vec<Span> = n.children.iter().filter_map(|c| doc.node(*c).map(|k| k.span)).collect();
        kids.extend_from_slice(mask);
        kids.sort_unstable();
        let mut at = n.span.start;
        for k in kids {
            if k.start > at {
                gaps.push(Span::new(at, k.start.min(n.span.end)));
            }
            at = at.max(k.end);
        }
        if at < n.span.end {
            gaps.push(Span::new(at, n.span.end));
        }
    }
    gaps.into_iter().flat_map(move |g| slice(p, g).iter().copied())
}

/// Fields matched by name (the N-th field of a repeated name with the N-th), in A's order,
/// then B's extra ones; and the (A, B) spans of the pointer fields left out because only
/// their offset moved (`moved_pointer`).
fn field_changes(a: &[Field], b: &[Field]) -> (Vec<FieldChange>, Vec<(Span, Span)>) {
    let named = |fs: &'_ [Field]| -> Vec<(String, String, Span, Value)> {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        fs.iter()
            .map(|f| {
                let n = seen.entry(f.name.as_str()).or_insert(0);
                *n += 1;
                let name = if *n == 1 { f.name.clone() } else { format!("{}#{}", f.name, *n) };
                (name, f.value.to_string(), f.span, f.value.clone())
            })
            .collect()
    };
    let (na, nb) = (named(a), named(b));
    let bmap: HashMap<&str, (&str, Span, &Value)> =
        nb.iter().map(|(k, v, s, x)| (k.as_str(), (v.as_str(), *s, x))).collect();
    let amap: HashMap<&str, &str> = na.iter().map(|(k, v, _, _)| (k.as_str(), v.as_str())).collect();
    let mut out = Vec::new();
    let mut moved = Vec::new();
    for (k, v, sa, xa) in &na {
        match bmap.get(k.as_str()) {
            Some((w, _, _)) if *w == v.as_str() => {}
            Some((_, sb, xb)) if moved_pointer(xa, xb) => moved.push((*sa, *sb)),
            w => out.push(FieldChange { name: k.clone(), old: Some(v.clone()), new: w.map(|w| w.0.to_string()) }),
        }
    }
    for (k, v, _, _) in &nb {
        if !amap.contains_key(k.as_str()) {
            out.push(FieldChange { name: k.clone(), old: None, new: Some(v.clone()) });
        }
    }
    (out, moved)
}

/// True for two values of a pointer that differ only in the offset: both refer to the
/// same target by name (`0xb8 → clip[2]` and `0xc0 → clip[2]`; not a target that is
/// itself an offset, `0x20 → 0x248`). Targets are aligned by name, so the pointer still
/// points at the same structure, which moved.
fn moved_pointer(a: &Value, b: &Value) -> bool {
    let numeric = |r: &Raw| matches!(r, Raw::U { .. } | Raw::I { .. } | Raw::Dec(_));
    let offset = |t: &str| {
        let t = t.trim();
        let h = t.strip_prefix("0x").unwrap_or(t);
        !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit())
    };
    match (&a.meaning, &b.meaning) {
        (Some(Meaning::Ref(ta)), Some(Meaning::Ref(tb))) => {
            ta == tb && !offset(ta) && numeric(&a.raw) && numeric(&b.raw) && a.raw != b.raw
        }
        _ => false,
    }
}

/// The key children are aligned by: a key naming its offset (`padding@0x11f`) by its name
/// part, others as they are.
fn align_key(key: &str) -> &str {
    match key.rsplit_once('@') {
        Some((name, off))
            if off.starts_with("0x") && off.len() > 2 && off[2..].chars().all(|c| c.is_ascii_hexdigit()) =>
        {
            name
        }
        _ => key,
    }
}

/// Pair children: the N-th child with an alignment key in A with the N-th in B; the result
/// is in A's order with B's unmatched children after the matched or A-only child before them.
fn align(da: &Document, ka: &[NodeId], db: &Document, kb: &[NodeId]) -> Vec<(Option<NodeId>, Option<NodeId>)> {
    let keyed = |d: &Document, ids: &[NodeId]| -> Vec<(String, usize, NodeId)> {
        let mut seen: HashMap<String, usize> = HashMap::new();
        ids.iter()
            .filter_map(|id| {
                let k = align_key(&d.node(*id)?.key).to_string();
                let n = seen.entry(k.clone()).or_insert(0);
                *n += 1;
                Some((k, *n, *id))
            })
            .collect()
    };
    let (la, lb) = (keyed(da, ka), keyed(db, kb));
    let index_b: HashMap<(&str, usize), usize> =
        lb.iter().enumerate().map(|(i, (k, n, _))| ((k.as_str(), *n), i)).collect();
    let mut matched_b = vec![false; lb.len()];
    let mut out = Vec::new();
    // B's unmatched children go after the pair of the B child before them.
    let mut b_pos_of_a: Vec<Option<usize>> = Vec::new();
    for (k, n, id) in &la {
        let j = index_b.get(&(k.as_str(), *n)).copied();
        if let Some(j) = j
            && let Some(m) = matched_b.get_mut(j)
        {
            *m = true;
        }
        b_pos_of_a.push(j);
        out.push((Some(*id), j.and_then(|j| lb.get(j)).map(|x| x.2)));
    }
    let mut result = Vec::with_capacity(out.len() + lb.len());
    let mut next_b = 0usize;
    let flush_until = |limit: usize, next_b: &mut usize, result: &mut Vec<(Option<NodeId>, Option<NodeId>)>| {
        while *next_b < limit.min(lb.len()) {
            if !matched_b.get(*next_b).copied().unwrap_or(true) {
                result.push((None, lb.get(*next_b).map(|x| x.2)));
            }
            *next_b += 1;
        }
    };
    for (pair, j) in out.into_iter().zip(b_pos_of_a) {
        if let Some(j) = j {
            flush_until(j, &mut next_b, &mut result);
        }
        result.push(pair);
    }
    flush_until(lb.len(), &mut next_b, &mut result);
    result
}

/// `1 channel`, `N channels` (how reports count channels).
pub fn channels_text(n: usize) -> String {
    if n == 1 { "1 channel".to_string() } else { format!("{n} channels") }
}

/// How `b` differs from `a` as animations, or None when they are equal within the tolerance.
pub fn compare_clips(a: &Clip, b: &Clip, opts: &Options) -> Option<AnimChange> {
    let tol = opts.tolerance;
    let names_b: HashMap<&str, &Track> = b.tracks.iter().map(|t| (t.name.as_str(), t)).collect();
    let names_a: HashMap<&str, &Track> = a.tracks.iter().map(|t| (t.name.as_str(), t)).collect();
    let channels_only_in_a: Vec<String> =
        a.tracks.iter().filter(|t| !names_b.contains_key(t.name.as_str())).map(|t| t.name.clone()).collect();
    let channels_only_in_b: Vec<String> =
        b.tracks.iter().filter(|t| !names_a.contains_key(t.name.as_str())).map(|t| t.name.clone()).collect();
    let mut channels = Vec::new();
    for ta in &a.tracks {
        let Some(tb) = names_b.get(ta.name.as_str()) else { continue };
        if let Some(c) = compare_tracks(ta, tb, tol, opts.all_keys) {
            channels.push(c);
        }
    }
    let same = a.frame_count == b.frame_count
        && channels_only_in_a.is_empty()
        && channels_only_in_b.is_empty()
        && channels.is_empty();
    (!same).then(|| AnimChange {
        name: a.name.clone(),
        frames: (a.frame_count, b.frame_count),
        channels_only_in_a,
        channels_only_in_b,
        channels,
    })
}

fn differ(x: f64, y: f64, tol: f64) -> bool {
    if x.is_nan() || y.is_nan() {
        return x.is_nan() != y.is_nan();
    }
    (x - y).abs() > tol
}

fn compare_tracks(a: &Track, b: &Track, tol: f64, all_keys: bool) -> Option<ChannelChange> {
    let at = |t: &Track, i: usize| t.keys.get(i).map(|k| KeyAt { index: i, frame: k.frame, value: k.value });
    let mut key_changes = Vec::new();
    for i in 0..a.keys.len().max(b.keys.len()) {
        let (ka, kb) = (at(a, i), at(b, i));
        let same = match (ka, kb) {
            (Some(x), Some(y)) => !differ(x.frame, y.frame, 0.0) && !differ(x.value, y.value, tol),
            _ => false,
        };
        if !same {
            key_changes.push(KeyChange { index: i, a: ka, b: kb });
            if !all_keys {
                break;
            }
        }
    }
    let mut largest: Option<SampleChange> = None;
    for (frame, (x, y)) in a.samples.iter().zip(&b.samples).enumerate() {
        if differ(*x, *y, tol) {
            let c = SampleChange { frame, a: *x, b: *y };
            let bigger = largest.is_none_or(|l| c.delta() > l.delta() || (c.delta().is_nan() && !l.delta().is_nan()));
            if bigger {
                largest = Some(c);
            }
        }
    }
    (a.keys.len() != b.keys.len() || !key_changes.is_empty() || largest.is_some()).then(|| ChannelChange {
        name: a.name.clone(),
        keys: (a.keys.len(), b.keys.len()),
        key_changes,
        largest,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests;
