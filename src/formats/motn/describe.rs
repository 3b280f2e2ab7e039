//! MOTN bytes → `model::Document`: every byte of the blob lies in a named node (unknown or
//! padding bytes get their own nodes), each sequence shows its header, its five blocks and
//! every stored number as a field of its own (each Block-3 frame, each Block-5 f16: a key's
//! value, tangent or in/out, with its unit) so `set` can write it — fields in the block's or
//! channel's node, not nodes, so big files stay small; shared sequences are aliases; variant
//! layouts (`variant`) show their header, records, frames and blocks field by field. The
//! walk trace records each step.
//!
//! Three builds: the whole document (`describe`); the findings (`check`: every sequence
//! parsed, no fields built); and the skeleton a verb or the TUI opens (`describe_lazy`),
//! where a standard sequence whose blocks fit is not parsed: its node spans its table
//! extent (to the next sequence), its summary is its header's, and its fields, children,
//! findings and walk step come from its parse when it is shown (the node is marked
//! unchecked until then, so `info` and the TUI say the findings are partial). Expansions
//! read only the spans they need, through the checked path for a mapped file.

use super::Channel;
use super::decode::track_name;
use super::parse::{self, ChannelData, Entry, Header, KeyData, SeqBody, Sequence};
use super::raw::{FILE_HEADER_LEN, SEQ_HEADER_LEN, TABLE_ENTRY_LEN, Trailer, node_name};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::Record as _;
use crate::limits::Limits;
use crate::model::{BitSpan, Diagnostic, Document, Expand, Field, NodeId, Severity, Span, Value, WalkStep, write_num};
use crate::source::Source;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::model::build::{Placer, count, fill_gaps, fill_gaps_from, place};

fn step(doc: &mut Document, span: Span, what: String, detail: String, next: Option<u64>, node: Option<NodeId>) {
    doc.walk.push(WalkStep { span, what, detail, next, node });
}

/// Builds a standard sequence's header, blocks, instructions, channels and keys when its
/// node is expanded (the skeleton has its span from the sequence table, its name and
/// header summary; its findings are recorded at its first expansion, see
/// [`Document::mark_unchecked`]), and the tables' fields.
struct SequenceDetail {
    source: Arc<Source>,
    limits: Limits,
    /// The file header as the skeleton read it.
    header: Header,
    /// Where sequences may lie: `data_ofs` to the trailer or the end (`seq_window`).
    window: (u64, u64),
    /// Every sequence start in the window, ascending (a sequence's table span ends at the next).
    bases: Vec<u64>,
    /// Regions decoded for earlier expansions (a sequence's node, its blocks and channels
    /// each expand from the same parse; sequences sharing a region share its decode).
    regions: parse::RegionCache,
    /// Sequences whose Blocks 3–5 are another's (see [`Shared`]).
    shared: Shared,
}

/// The bytes an expansion reads: a span of the file from `start` on, read on its own.
struct Span0 {
    bytes: Vec<u8>,
    start: u64,
}

/// What the bytes an expansion reads are drawn from while they are held.
enum Draw<'a> {
    /// The document being built: its budget is spent while the bytes are held.
    Spend(&'a mut Document),
    /// The room a shown document's budget has left ([`Document::headroom`]): a walk step is
    /// said from a document that cannot change, so a read larger than that is not made, and
    /// the bytes it would have held are put in `refused`.
    Within { room: u64, refused: &'a std::cell::Cell<Option<u64>> },
}

impl Draw<'_> {
    /// The document being built, if any.
    fn doc(&mut self) -> Option<&mut Document> {
        match self {
            Draw::Spend(d) => Some(&mut **d),
            Draw::Within { .. } => None,
        }
    }
}

impl SequenceDetail {
    /// The start of the sequence after `base`, or the window's end.
    fn next_of(&self, base: u64) -> u64 {
        self.bases.get(self.bases.partition_point(|&x| x <= base)).copied().unwrap_or(self.window.1)
    }

    /// Run `read` on the bytes from `start` on: first on `start..first_end`, then on four
    /// times as much until it succeeds or the bytes reach `cap` (a read that succeeds on
    /// fewer bytes gives what it gives on all of them: every read is checked against the
    /// end). Bytes in memory are used as they are. A mapped file's spans are read through
    /// the checked path ([`Source::checked_span`], `pread`), never from the map: an
    /// expansion may run while a verb streams, after a write that waited on a slow pipe,
    /// and reading the map there could fault on a file cut shorter since the verb's size
    /// check. Each span read draws on the budget while it is held ([`Draw`]). None when the
    /// file is now shorter or the budget ran out: nothing is built, and the verb's next
    /// check (or the budget error) says why.
    fn with_span<T>(
        &self,
        mut draw: Draw<'_>,
        start: u64,
        first_end: u64,
        cap: u64,
        mut read: impl FnMut(&Bytes, Option<&mut Document>) -> Option<std::result::Result<T, ParseError>>,
    ) -> Option<std::result::Result<T, ParseError>> {
        if !self.source.is_mapped() {
            let all = self.source.bytes();
            let b = Bytes::new(all);
            return read(&b, draw.doc());
        }
        let cap = cap.min(self.source.len());
        let mut end = first_end.clamp(start, cap);
        loop {
            let cost = end - start;
            let fits = match &mut draw {
                Draw::Spend(d) => d.retain(cost, start),
                Draw::Within { room, refused } => {
                    if cost > *room {
                        refused.set(Some(cost));
                    }
                    cost <= *room
                }
            };
            if !fits {
                return None;
            }
            let span = self.source.checked_span(start, end).ok().map(|c| Span0 { bytes: c.into_owned(), start });
            let r = span.and_then(|s| read(&Bytes::with_base(&s.bytes, s.start), draw.doc()));
            if let Draw::Spend(d) = &mut draw {
                d.release(cost);
            }
            let r = r?;
            if r.is_ok() || end >= cap {
                return Some(r);
            }
            end = start + (end - start).max(64).saturating_mul(4).min(cap - start);
        }
    }

    /// The file header and the table entries, read from the bytes before the data (the
    /// whole file when a name lies past them).
    fn with_entries(&self, doc: &mut Document, build: impl Fn(&mut Document, &[Entry])) {
        let h = self.header;
        let data = u64::from(h.data_ofs).max(crate::formats::motn::raw::FILE_HEADER_LEN);
        let _ = self.with_span(Draw::Spend(doc), 0, data, self.source.len(), |b, doc| {
            let entries = parse::read_entries(b, &h, &self.limits).unwrap_or_default();
            // a name read from fewer bytes than the file's may fail where the file's would not
            if b.end() < self.source.len() && entries.iter().any(|e| e.name.is_err()) {
                return Some(Err(ParseError::new(0, ErrorKind::NotFound("names".into()))));
            }
            build(doc?, &entries);
            Some(Ok(()))
        });
    }

    /// Parse the variant sequence at `base` as an expansion parses it, from the fewest bytes
    /// that hold it, and hand it with its bytes to `say`; None when it does not parse now.
    /// Bounded by the data's end: the skeleton's parse, bounded by the next sequence, ended
    /// inside it, and a variant's end comes from its content.
    fn with_variant<T>(
        &self,
        draw: Draw<'_>,
        base: u64,
        mut say: impl FnMut(Option<&mut Document>, &Bytes, super::variant::Variant) -> Option<T>,
    ) -> Option<T> {
        let (start, end) = self.window;
        let mut out = None;
        let _ = self.with_span(draw, base, self.next_of(base), end, |b, doc| {
            let w = b.sub(b.start().max(start), b.end().min(end)).unwrap_or(*b);
            let seq = match parse::parse_sequence(&w, base, &self.limits) {
                Ok(seq) => seq,
                Err(e) if w.end() < end => return Some(Err(e)),
                Err(_) => return Some(Ok(())),
            };
            match super::variant::parse(&w, &seq.header, end, &self.limits) {
                Ok(v) => {
                    out = say(doc, &w, v);
                    Some(Ok(()))
                }
                Err(e) if w.end() < end => Some(Err(e)),
                Err(_) => Some(Ok(())),
            }
        });
        out
    }

    /// Parse the sequence at `base` from the fewest bytes that hold it, and hand it with
    /// its bytes to `build`.
    fn with_sequence<T>(
        &self,
        draw: Draw<'_>,
        base: u64,
        build: impl Fn(Option<&mut Document>, &Bytes, std::result::Result<Sequence, ParseError>) -> T,
    ) -> Option<T> {
        let (start, end) = self.window;
        let next = self.next_of(base);
        let mut out = None;
        let _ = self.with_span(draw, base, next, end, |b, doc| {
            // reads never leave the window (as the skeleton's parse's did not)
            let w = b.sub(b.start().max(start), b.end().min(end)).unwrap_or(*b);
            let parsed = parse::parse_sequence_cached(&w, base, &self.limits, Some(&self.regions));
            if parsed.is_err() && w.end() < end {
                return Some(parsed.map(|_| ()));
            }
            out = Some(build(doc, &w, parsed));
            Some(Ok(()))
        });
        out
    }
}

/// Sequences (by base) whose Blocks 3–5 are the same bytes, read the same way, as an
/// earlier sequence's (in table order), with that sequence's node key: their block 3, 4
/// and channel fields say so and point there instead of listing the same keys again
/// (thousands of 16-byte headers pointing at one region would otherwise list its keys
/// thousands of times).
type Shared = std::collections::HashMap<u64, String>;

/// What a lazy node of a MOTN document stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// The standard sequence at this offset.
    Sequence(u64),
    /// The sequence table's entries.
    Table,
    /// The name pointer table.
    NamePointers,
    /// The name strings.
    Names,
    /// Block `k` (1..=5) of the standard sequence at this offset.
    Block(u64, u8),
    /// Channel `i` (in file order) under block 5 of the sequence at this offset.
    Channel(u64, u32),
    /// Part of the variant sequence at this offset: its baked frames
    /// ([`super::variant::BAKED_FRAMES`]) or node-track block `i`.
    Variant(u64, u32),
    /// An extra-data record (its node's span) used by this many sequences.
    Extra(u32),
}

impl Token {
    // kind in bits 56..64, a small index in 32..56, a blob offset (u32) in 0..32
    fn encode(self) -> u64 {
        let (kind, index, base) = match self {
            Token::Sequence(base) => (0u64, 0u64, base),
            Token::Table => (1, 0, 0),
            Token::NamePointers => (2, 0, 0),
            Token::Names => (3, 0, 0),
            Token::Block(base, k) => (4, u64::from(k), base),
            Token::Channel(base, i) => (5, u64::from(i), base),
            Token::Variant(base, part) => (6, u64::from(variant_part_index(part)), base),
            Token::Extra(users) => (7, u64::from(users.min(0xFF_FFFF)), 0),
        };
        kind << 56 | (index & 0xFF_FFFF) << 32 | (base & 0xFFFF_FFFF)
    }

    fn decode(token: u64) -> Token {
        let (index, base) = ((token >> 32) & 0xFF_FFFF, token & 0xFFFF_FFFF);
        match token >> 56 {
            1 => Token::Table,
            2 => Token::NamePointers,
            3 => Token::Names,
            4 => Token::Block(base, u8::try_from(index).unwrap_or(0)),
            5 => Token::Channel(base, u32::try_from(index).unwrap_or(u32::MAX)),
            6 => Token::Variant(base, variant_part(u32::try_from(index).unwrap_or(u32::MAX))),
            7 => Token::Extra(u32::try_from(index).unwrap_or(u32::MAX)),
            _ => Token::Sequence(base),
        }
    }
}

/// The 24-bit index a variant's part is encoded as: the named parts take the top three
/// values, a block index is kept below them.
fn variant_part_index(part: u32) -> u32 {
    use super::variant::{BAKED_FRAMES, HEADER, RECORDS};
    match part {
        BAKED_FRAMES => 0xFF_FFFF,
        HEADER => 0xFF_FFFE,
        RECORDS => 0xFF_FFFD,
        block => block.min(0xFF_FFFC),
    }
}

/// The part a 24-bit index stands for ([`variant_part_index`] undone).
fn variant_part(index: u32) -> u32 {
    use super::variant::{BAKED_FRAMES, HEADER, RECORDS};
    match index {
        0xFF_FFFF => BAKED_FRAMES,
        0xFF_FFFE => HEADER,
        0xFF_FFFD => RECORDS,
        block => block,
    }
}

impl Expand for SequenceDetail {
    fn expand(&self, doc: &mut Document, node: NodeId, token: u64) {
        let what = Token::decode(token);
        match what {
            Token::Sequence(base) | Token::Block(base, _) | Token::Channel(base, _) => {
                let shared = self.shared.get(&base).map(String::as_str);
                let next = self.next_of(base);
                self.with_sequence(Draw::Spend(doc), base, |doc, b, parsed| {
                    let Some(doc) = doc else { return };
                    let key = doc.node(node).map(|n| n.key.to_string()).unwrap_or_default();
                    let seq = match parsed {
                        Ok(seq) => seq,
                        Err(err) => {
                            if let Token::Sequence(_) = what {
                                unreadable_detail(doc, node, &err.within(&key));
                            }
                            return;
                        }
                    };
                    let Some(body) = &seq.body else { return };
                    match what {
                        Token::Block(_, k) => block_detail(doc, node, k, (b, &seq, body), true, shared),
                        Token::Channel(_, ci) => {
                            if let Some(c) = body.channels.get(ci as usize) {
                                channel_fields(doc, node, c, shared);
                            }
                        }
                        _ => {
                            // The sequence's node spans its table extent (to the next
                            // sequence); the findings are the whole parse's, as `check`
                            // records them for the sequence's extent from its blocks.
                            let span = Span::new(base, standard_end(&seq, body));
                            // blocks past the next sequence widen the node to hold them (as
                            // the whole parse places it: overlapping, within the data area)
                            let parent_end = doc
                                .node(node)
                                .and_then(|n| n.parent)
                                .and_then(|p| doc.node(p))
                                .map_or(span.end, |p| p.span.end);
                            let own = doc.node(node).map_or(span, |n| n.span);
                            if span.end > own.end {
                                // overlapping the sequences after it: said as the whole parse says it
                                let wide = Span::new(own.start, span.end.min(parent_end).max(own.end));
                                let parent = doc.node(node).and_then(|n| n.parent);
                                let found = {
                                    let siblings = parent
                                        .and_then(|p| doc.node(p))
                                        .into_iter()
                                        .flat_map(|p| p.children.iter().filter_map(|c| doc.node(*c)))
                                        .filter(|s| s.id != node && s.alias_of.is_none() && s.span.start >= own.end)
                                        .map(|s| (s.key.as_str(), s.span));
                                    crate::model::build::placement(
                                        Span::new(own.start, parent_end),
                                        siblings,
                                        &key,
                                        wide,
                                    )
                                    .1
                                };
                                for d in found {
                                    doc.diag(d);
                                }
                                if let Some(n) = doc.node_mut(node) {
                                    n.span = wide;
                                }
                            }
                            if let Some(n) = doc.node_mut(node) {
                                n.summary = standard_summary(&seq, body).into();
                            }
                            let diags = doc.diagnostics.len();
                            standard_detail(doc, node, b, &seq, body, true, shared);
                            doc.diagnostics.truncate(diags);
                            for d in sequence_findings(&key, span, &seq, body, next) {
                                doc.diag(d);
                            }
                        }
                    }
                });
            }
            Token::Variant(base, part) => {
                let _ = self.with_variant(Draw::Spend(doc), base, |doc, w, v| {
                    let doc = doc?;
                    match (v, part) {
                        (v, super::variant::HEADER) => super::variant::header_detail(doc, node, &v),
                        (super::variant::Variant::NodeTrack(s), super::variant::RECORDS) => {
                            super::variant::records_detail(doc, node, &s);
                        }
                        (super::variant::Variant::Baked(s), super::variant::BAKED_FRAMES) => {
                            super::variant::baked_frames_detail(doc, node, w, &s);
                        }
                        (super::variant::Variant::NodeTrack(s), i) => {
                            super::variant::track_block_detail(doc, node, w, &s, i as usize);
                        }
                        _ => {}
                    }
                    Some(())
                });
            }
            Token::Table => {
                let h = self.header;
                self.with_entries(doc, |doc, entries| table_fields(doc, node, &h, entries));
            }
            Token::NamePointers => self.with_entries(doc, |doc, entries| name_pointer_fields(doc, node, entries)),
            Token::Names => self.with_entries(doc, |doc, entries| name_fields(doc, node, entries)),
            Token::Extra(_) => {
                if let Some(span) = doc.node(node).map(|n| n.span) {
                    extra_fields(doc, node, span);
                }
            }
        }
    }

    fn walk_step(&self, doc: &Document, node: NodeId) -> Option<WalkStep> {
        let n = doc.node(node)?;
        if let Some(Token::Extra(users)) = n.lazy_token().map(Token::decode) {
            return Some(extra_step(n.span, users as usize, node));
        }
        let seq_name =
            |key: &str| key.strip_prefix("seq[").and_then(|k| k.strip_suffix(']')).unwrap_or(key).to_string();
        // A shown document's budget cannot be spent: the bytes a step is said from are read
        // only when they fit the room it has left, and the step says when they do not.
        let room = doc.headroom();
        let refused = std::cell::Cell::new(None);
        let within = || Draw::Within { room, refused: &refused };
        let over_budget = |what: String, next: u64| {
            refused.get().map(|need: u64| WalkStep {
                span: n.span,
                what,
                detail: format!(
                    "not read: memory budget exceeded: its sequence's {} KiB are more than the {} KiB the \
                     document's budget has left (--limit memory=SIZE raises it)",
                    need.div_ceil(1 << 10),
                    room >> 10
                ),
                next: Some(next),
                node: Some(node),
            })
        };
        // a variant's part, kept as its node: said from the variant, parsed again
        if let Some(Token::Variant(base, part)) = n.lazy_token().map(Token::decode) {
            let name = n.parent.and_then(|p| doc.node(p)).map(|p| seq_name(&p.key)).unwrap_or_default();
            let said =
                self.with_variant(within(), base, |_, _, v| super::variant::variant_step(&v, Some(part), &name, node));
            return over_budget(format!("{} of {name}", n.kind), self.next_of(base)).or(said);
        }
        let base = n.span.start;
        let name = seq_name(&n.key);
        let next = self.next_of(base);
        let said = self
            .with_sequence(within(), base, |_, b, parsed| match parsed {
                Ok(seq) if seq.body.is_some() => {
                    let body = seq.body.as_ref()?;
                    Some(standard_step(&name, Span::new(base, standard_end(&seq, body)), &seq, body, next, node))
                }
                // a variant sequence's node: its header step, from the bytes just read (bounded
                // by the next sequence, as the skeleton parsed it)
                Ok(seq) => super::variant::parse(b, &seq.header, next, &self.limits)
                    .ok()
                    .and_then(|v| super::variant::variant_step(&v, None, &name, node)),
                Err(err) => Some(WalkStep {
                    span: n.span,
                    what: format!("sequence {name}"),
                    detail: format!("cannot parse: {}", err.within(n.key.as_str())),
                    next: Some(next),
                    node: Some(node),
                }),
            })
            .flatten();
        over_budget(format!("sequence {name}"), next).or(said)
    }
}

/// An unreadable sequence's one field, summary and error (as the whole parse records them).
fn unreadable_detail(doc: &mut Document, id: NodeId, err: &ParseError) {
    let span = doc.node(id).map(|n| n.span).unwrap_or_default();
    doc.add_field(id, Field::new("bytes", span, Value::unknown_bytes(span.len())).note("not parsed"));
    if let Some(n) = doc.node_mut(id) {
        n.summary = format!("error: {}", err.kind).into();
        n.kind = "sequence (unreadable)".into();
    }
    doc.diag(Diagnostic::from_error(err));
}

#[cfg(test)]
/// Describe MOTN bytes permissively, every node built.
pub(in crate::formats) fn describe(data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
    describe_with(data, name, limits, Mode::Whole).map(|(doc, _, _)| doc)
}

/// Open `source` as a document on demand: the skeleton (header, tables, names, one node per
/// sequence with its span, summary, diagnostics and walk step) now; a standard sequence's
/// fields and children when it is expanded.
pub(in crate::formats) fn describe_lazy(source: &Arc<Source>, limits: &Limits) -> Result<Document> {
    let (mut doc, shared, bases) = describe_with(source.bytes(), source.name(), limits, Mode::Skeleton)?;
    let b = Bytes::new(source.bytes());
    let header = Header::read(&b).map_err(|e| e.within("motn header"))?;
    let window = super::seq_window(&b, &header);
    doc.set_expander(Arc::new(SequenceDetail {
        source: Arc::clone(source),
        limits: *limits,
        header,
        window: (window.start(), window.end()),
        bases,
        regions: parse::RegionCache::default(),
        shared,
    }));
    Ok(doc)
}

/// The strict check's findings: every sequence parsed for its findings (the document's
/// fields and children are not built), in the order the whole parse records them.
pub(in crate::formats) fn check(data: &[u8], name: &str, limits: &Limits) -> Result<Vec<Diagnostic>> {
    let (doc, _, _) = describe_with(data, name, limits, Mode::Findings)?;
    if let Some(b) = doc.budget_exceeded() {
        return Err(b.error());
    }
    Ok(crate::formats::parsed::document_findings(&doc))
}

/// How much of a MOTN document is built at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every node and field (`describe`).
    Whole,
    /// Every sequence parsed for its span, summary, findings and walk step; the tables'
    /// fields and the sequences' contents left to `SequenceDetail` (what `check` reads).
    Findings,
    /// The skeleton a verb or the TUI opens: standard sequences' headers only, their
    /// blocks and findings read when shown (`describe_unread`).
    Skeleton,
}

/// `mode`: what is built now, what is left to `SequenceDetail`.
fn describe_with(data: &[u8], name: &str, limits: &Limits, mode: Mode) -> Result<(Document, Shared, Vec<u64>)> {
    let lazy = mode != Mode::Whole;
    let b = Bytes::new(data);
    let len = b.len();
    let h = Header::read(&b).map_err(|e| e.within("motn header"))?;
    let mut doc = Document::new("motn", name, "motn file", len, limits);
    let root = NodeId::ROOT;
    header_node(&mut doc, &h, len);
    let entries = match parse::read_entries(&b, &h, limits) {
        Ok(e) => e,
        Err(e) => {
            let e = e.within("motn table");
            step(
                &mut doc,
                Span::at(e.offset, 0),
                "sequence table".into(),
                format!("cannot read: {}", e.kind),
                None,
                None,
            );
            doc.diag(Diagnostic::from_error(&e));
            fill_gaps(&mut doc, root, data);
            return Ok((doc, Shared::new(), Vec::new()));
        }
    };
    table_node(&mut doc, &h, &entries, lazy);
    name_nodes(&mut doc, &h, &entries, lazy);

    // Data area and trailer
    let data_ofs = u64::from(h.data_ofs);
    let mut shared = Shared::new();
    let mut bases = Vec::new();
    let trailer = parse::find_trailer(&b, data_ofs);
    let data_end = trailer.as_ref().map_or(len, Trailer::start);
    if data_ofs <= data_end {
        let dn = place(&mut doc, root, "data", "sequence data", Span::new(data_ofs, data_end));
        (shared, bases) =
            describe_sequences(&mut doc, dn, &b, Table { h: &h, entries: &entries, data_end }, limits, mode);
        fill_gaps(&mut doc, dn, data);
    } else {
        doc.diag(Diagnostic::from_error(&ParseError::new(
            8,
            ErrorKind::OffsetOutOfRange { what: "data area", offset: data_ofs, start: 0, end: len },
        )));
    }
    if let Some(rec) = trailer {
        let t = rec.start();
        let tn = place(&mut doc, root, "trailer", "date trailer", Span::new(t, len));
        for f in rec.fields() {
            doc.add_field(tn, f);
        }
        if let Some(x) = doc.node_mut(tn) {
            x.summary = crate::model::escape_text(&rec.date.0[..]).into();
        }
        step(&mut doc, Span::new(t, len), "trailer".into(), "32-byte ctime date trailer".into(), None, Some(tn));
    }

    // Extra-data records: opaque, extent up to the next known structure.
    describe_extras(&mut doc, &entries, len, lazy);
    terminator_node(&mut doc, &b, u64::from(h.table_ofs) + entries.len() as u64 * TABLE_ENTRY_LEN);
    fill_gaps(&mut doc, root, data);
    Ok((doc, shared, bases))
}

/// The file header's node, its findings (size, alignment) and walk step.
fn header_node(doc: &mut Document, h: &Header, len: u64) {
    let hn = place(doc, NodeId::ROOT, "header", "file header", Span::new(0, FILE_HEADER_LEN));
    for f in h.record.fields() {
        doc.add_field(hn, f);
    }
    if let Some(n) = doc.node_mut(hn) {
        n.summary = count(h.seq_count(), "sequence").into();
    }
    if u64::from(h.file_size) != len {
        doc.diag(Diagnostic::new(
            Severity::Warning,
            Some(16),
            "header",
            format!("file_size 0x{:x} differs from the blob length 0x{len:x}", h.file_size),
        ));
    }
    if !h.data_ofs.is_multiple_of(4) {
        doc.diag(Diagnostic::new(
            Severity::Warning,
            Some(8),
            "header",
            format!("data_ofs 0x{:x} is not 4-aligned", h.data_ofs),
        ));
    }
    step(
        doc,
        Span::new(0, FILE_HEADER_LEN),
        "file header".into(),
        format!(
            "table 0x{:x}, names 0x{:x}, data 0x{:x}; attributes 0x{:x} → {} sequences (low 12 bits − 1); file_size 0x{:x}, blob 0x{len:x}",
            h.table_ofs,
            h.names_ofs,
            h.data_ofs,
            h.attributes,
            h.seq_count(),
            h.file_size
        ),
        Some(u64::from(h.table_ofs)),
        Some(hn),
    );
}

/// The sequence table's node (its fields now, or left to the expander when `lazy`) and
/// walk step.
fn table_node(doc: &mut Document, h: &Header, entries: &[Entry], lazy: bool) {
    let n = entries.len() as u64;
    let table = u64::from(h.table_ofs);
    let tn = place(doc, NodeId::ROOT, "table", "sequence table", Span::at(table, n * TABLE_ENTRY_LEN));
    if lazy {
        doc.add_lazy(tn, Token::Table.encode());
    } else {
        table_fields(doc, tn, h, entries);
    }
    if let Some(t) = doc.node_mut(tn) {
        t.summary = count(n, "entry").into();
    }
    step(
        doc,
        Span::at(table, n * TABLE_ENTRY_LEN),
        "sequence table".into(),
        format!("{n} entries of (data_rel, extra_ofs)"),
        Some(u64::from(h.names_ofs)),
        Some(tn),
    );
}

/// The name pointer table's node, the name strings' node (over every name that reads;
/// one that does not is a diagnostic) and their walk steps.
fn name_nodes(doc: &mut Document, h: &Header, entries: &[Entry], lazy: bool) {
    let n = entries.len() as u64;
    let names = u64::from(h.names_ofs);
    let pn = place(doc, NodeId::ROOT, "name_pointers", "name pointer table", Span::at(names, n * 4));
    if lazy {
        doc.add_lazy(pn, Token::NamePointers.encode());
    } else {
        name_pointer_fields(doc, pn, entries);
    }
    let mut str_span: Option<Span> = None;
    for e in entries {
        match &e.name {
            Ok(nm) => {
                let s = Span::at(u64::from(e.name_ptr), nm.len() as u64 + 1);
                str_span = Some(str_span.map_or(s, |o| Span::new(o.start.min(s.start), o.end.max(s.end))));
            }
            Err(err) => doc.diag(Diagnostic::from_error(&err.clone().within(format!("name[{}]", e.index)))),
        }
    }
    step(
        doc,
        Span::at(names, n * 4),
        "name pointers".into(),
        format!("{n} absolute pointers"),
        str_span.map(|s| s.start),
        Some(pn),
    );
    if let Some(ss) = str_span {
        let sn = place(doc, NodeId::ROOT, "names", "name strings", ss);
        if lazy {
            doc.add_lazy(sn, Token::Names.encode());
        } else {
            name_fields(doc, sn, entries);
        }
        step(
            doc,
            ss,
            "name strings".into(),
            "NUL-terminated ASCII, packed".into(),
            Some(u64::from(h.data_ofs)),
            Some(sn),
        );
    }
}

/// The table's all-zero terminator entry at `at`, unless an extra record starts there (as
/// in MOTION.BIN) or it is past the end.
fn terminator_node(doc: &mut Document, b: &Bytes<'_>, at: u64) {
    let term = Span::at(at, TABLE_ENTRY_LEN);
    let free =
        term.end <= b.len() && doc.root().children.iter().filter_map(|c| doc.node(*c)).all(|c| !c.span.overlaps(&term));
    if free {
        let tid = place(doc, NodeId::ROOT, "table_terminator", "table terminator", term);
        let zero = b.slice(term.start, TABLE_ENTRY_LEN).is_ok_and(|s| s.iter().all(|&x| x == 0));
        doc.add_field(
            tid,
            Field::new("entry", term, Value::bytes(TABLE_ENTRY_LEN)).note(if zero { "all zero" } else { "not zero" }),
        );
    }
}

/// The sequence table's fields, (data_rel, extra_ofs) per entry: the fields `raw::TableEntry`'s record gives, each named with the entry's index, made
/// directly (one table field pair a sequence: the first expansion the TUI's first frame
/// makes); `table_fields_match_the_record` checks that they are the record's.
fn table_fields(doc: &mut Document, tn: NodeId, h: &Header, entries: &[Entry]) {
    let mut key = compact_str::CompactString::default();
    for e in entries {
        seq_key_into(&mut key, e);
        let nm = key.get(4..key.len() - 1).unwrap_or_default();
        let base = e.base(h);
        let r = e.record();
        let (d, x) = (&r.data_rel, &r.extra_ofs);
        let mut at = StackText::default();
        let _ = at.push(b" @0x") && at.push_hex(base);
        let mut target = String::with_capacity(nm.len() + at.len);
        target.push_str(nm);
        target.push_str(at.as_str());
        // the names written without the formatter (the TUI's first frame expands the table)
        let mut index = StackText::default();
        let _ = index.push_decimal(e.index as u64) && index.push(b"]");
        let name = |prefix: &str| {
            let mut n = String::with_capacity(prefix.len() + index.len);
            n.push_str(prefix);
            n.push_str(index.as_str());
            n
        };
        doc.add_field(
            tn,
            d.field(name("data_rel["), Value::uint(u64::from(**d), 4).refers(target)).note("relative to data_ofs"),
        );
        doc.add_field(
            tn,
            x.field(name("extra_ofs["), Value::uint(u64::from(**x), 4).refers("extra record")).note("absolute"),
        );
    }
}

/// The name pointer table's fields.
fn name_pointer_fields(doc: &mut Document, pn: NodeId, entries: &[Entry]) {
    for e in entries {
        let v = Value::uint(u64::from(e.name_ptr), 4);
        let v = match &e.name {
            Ok(_) => v.refers(e.display_name()),
            Err(_) => v,
        };
        doc.add_field(pn, Field::new(format!("name_ptr[{}]", e.index), Span::at(e.name_ptr_at, 4), v));
    }
}

/// The name strings' fields.
fn name_fields(doc: &mut Document, sn: NodeId, entries: &[Entry]) {
    for e in entries {
        if let Ok(nm) = &e.name {
            doc.add_field(
                sn,
                Field::new(
                    format!("name[{}]", e.index),
                    Span::at(u64::from(e.name_ptr), nm.len() as u64 + 1),
                    Value::text(nm),
                )
                .note("NUL-terminated"),
            );
        }
    }
}

/// A node per extra-data record the entries point at (its extent up to the next known
/// structure), its summary and walk step; its two fields now, or when it is shown (`lazy`:
/// 944 records in MOTION.BIN, most of the skeleton's fields).
fn describe_extras(doc: &mut Document, entries: &[Entry], len: u64, lazy: bool) {
    let mut users: BTreeMap<u64, usize> = BTreeMap::new();
    for e in entries {
        *users.entry(u64::from(e.extra_ofs)).or_insert(0) += 1;
    }
    let starts: Vec<u64> = users.keys().copied().collect();
    let top: Vec<Span> = doc.root().children.iter().filter_map(|c| doc.node(*c)).map(|n| n.span).collect();
    // The records lie before the data area and trailer already placed (as in MOTION.BIN):
    // `place` would check each against every sibling placed so far (O(n²) in the records).
    let mut placer = Placer::new(doc, NodeId::ROOT);
    for (i, (&ofs, &users_n)) in users.iter().enumerate() {
        if ofs >= len {
            doc.diag(Diagnostic::from_error(&ParseError::new(
                ofs,
                ErrorKind::OffsetOutOfRange { what: "extra-data record", offset: ofs, start: 0, end: len },
            )));
            continue;
        }
        if let Some(inside) = top.iter().find(|s| s.contains(ofs)) {
            doc.diag(Diagnostic::new(
                Severity::Warning,
                Some(ofs),
                "extra",
                format!("extra-data offset 0x{ofs:x} points inside {inside}"),
            ));
            continue;
        }
        let next_top = top.iter().map(|s| s.start).filter(|&s| s > ofs).min().unwrap_or(len);
        let next_extra = starts.get(i + 1).copied().unwrap_or(len);
        let end = next_top.min(next_extra).min(len);
        let span = Span::new(ofs, end);
        // key and summary written without the formatter (944 records in MOTION.BIN)
        let mut key = StackText::default();
        let _ = key.push(b"extra@0x") && key.push_hex(ofs);
        let id = placer.place(doc, key.as_str(), "extra-data record", span);
        if lazy {
            doc.add_lazy(id, Token::Extra(u32::try_from(users_n).unwrap_or(u32::MAX)).encode());
        } else {
            extra_fields(doc, id, span);
        }
        if let Some(n) = doc.node_mut(id) {
            let mut t = StackText::default();
            let _ = t.push_decimal(span.len())
                && t.push(b" bytes, used by ")
                && t.push_decimal(users_n as u64)
                && t.push(if users_n == 1 { b" sequence" } else { b" sequences" })
                && t.push(b" (opaque)");
            n.summary = compact_str::CompactString::new(t.as_str());
        }
        if lazy {
            doc.walk.push_node(id);
        } else {
            doc.walk.push(extra_step(span, users_n, id));
        }
    }
}

/// An extra-data record's fields: its 12-byte head and the token stream after it.
fn extra_fields(doc: &mut Document, id: NodeId, span: Span) {
    let head = span.len().min(12);
    doc.add_field(
        id,
        Field::new("head", Span::at(span.start, head), Value::unknown_bytes(head)).note("12-byte head, not understood"),
    );
    if span.len() > head {
        doc.add_field(
            id,
            Field::new("tokens", Span::new(span.start + head, span.end), Value::unknown_bytes(span.len() - head))
                .note("token stream ending in a zero u32 [I]; not decoded"),
        );
    }
}

/// The walk step of an extra-data record over `span` used by `users` sequences.
fn extra_step(span: Span, users: usize, id: NodeId) -> WalkStep {
    let detail = format!(
        "used by {users} {}; opaque, extent taken up to the next known structure [I]",
        if users == 1 { "sequence" } else { "sequences" }
    );
    WalkStep { span, what: "extra-data record".into(), detail, next: None, node: Some(id) }
}

/// The blob's sequence table: its header, its entries and where the data area ends.
#[derive(Clone, Copy)]
struct Table<'a, 'b> {
    h: &'a Header,
    entries: &'a [Entry<'b>],
    data_end: u64,
}

/// A node per table entry under the data node `dn` (aliases, unreadable, variant and
/// standard sequences) while the budgets last; returns the sequences sharing an earlier
/// one's region and the sorted sequence starts.
fn describe_sequences(
    doc: &mut Document,
    dn: NodeId,
    b: &Bytes,
    table: Table<'_, '_>,
    limits: &Limits,
    mode: Mode,
) -> (Shared, Vec<u64>) {
    let Table { h, entries, data_end } = table;
    let (lazy, unread) = (mode != Mode::Whole, mode == Mode::Skeleton);
    let data_ofs = u64::from(h.data_ofs);
    let window = b.sub(data_ofs, data_end).unwrap_or(*b);
    let mut bases: Vec<u64> = entries.iter().map(|e| e.base(h)).filter(|&x| x >= data_ofs && x < data_end).collect();
    bases.sort_unstable();
    bases.dedup();
    // The node and the entry (its name) of the first entry read at each base, by the base's
    // place in `bases`.
    let mut primary: Vec<Option<(NodeId, usize)>> = vec![None; bases.len()];
    // Overlapping distinct sequences could make the work quadratic: budget bytes walked and nodes.
    let mut work: u64 = 0;
    let mut fields: u64 = doc.field_count() as u64;
    let regions = parse::RegionCache::default();
    let mut shared = Shared::new();
    // The first sequence (in table order) reading each region, by its entry: where blocks
    // 2–5 are, the frame word and the instructions (Block 1's words, as the file holds them).
    // (the room made ahead below is small whatever the file says: the sequence count is the
    // header's 12-bit field, at most 4,094)
    let mut first_reader: FirstReaders =
        std::collections::HashMap::with_capacity_and_hasher(bases.len(), foldhash::fast::RandomState::default());
    // one node and one walk step a sequence (the skeleton's, most of the document), and
    // room for the gaps' and variants' nodes: a node list that grows past its room is
    // copied whole, while room never written costs no memory
    doc.nodes.reserve(2 * entries.len() + 64);
    doc.walk.reserve(entries.len() + 64);
    let mut key = compact_str::CompactString::default();
    for (ei, e) in entries.iter().enumerate() {
        seq_key_into(&mut key, e);
        let key = key.as_str();
        let name = &key[4..key.len() - 1];
        let base = e.base(h);
        if base < data_ofs || base >= data_end {
            doc.diag(Diagnostic::from_error(
                &ParseError::new(
                    e.at,
                    ErrorKind::OffsetOutOfRange { what: "sequence", offset: base, start: data_ofs, end: data_end },
                )
                .within(key),
            ));
            continue;
        }
        if base % 2 != 0 {
            doc.diag(Diagnostic::new(Severity::Warning, Some(e.at), key, format!("sequence start 0x{base:x} is odd")));
        }
        let slot = bases.binary_search(&base).ok();
        if let Some((pid, pe)) = slot.and_then(|i| primary.get(i).copied().flatten()) {
            let pname = entries.get(pe).map(Entry::display_name).unwrap_or_default();
            alias_node(doc, dn, key, name, e.data_rel, pid, &pname);
            continue;
        }
        let next = slot.and_then(|i| bases.get(i + 1)).copied().unwrap_or(data_end);
        if let Some(over) = over_budget(work, doc.nodes.len() as u64, fields, limits) {
            doc.diag(Diagnostic::from_error(&ParseError::new(base, over).within(key)));
            break;
        }
        let site = super::variant::SeqSite { dn, b, key, name };
        if unread
            && let Ok(hd) = parse::read_seq_header(&window, base)
            && !hd.is_variant()
            && let Some(words) = plausible_standard(&window, &hd, limits)
        {
            // blocks read when shown; the region's first reader from the header and Block 1
            if let Some(first) = note_reader(&mut first_reader, Region::of(&hd, words), ei) {
                shared.insert(base, seq_key(entries, first));
            }
            work += SEQ_HEADER_LEN;
            let id = describe_unread(doc, dn, key, name, &hd, next);
            if let Some(p) = slot.and_then(|i| primary.get_mut(i)) {
                *p = Some((id, ei));
            }
            continue;
        }
        let parsed = parse::parse_sequence_cached(&window, base, limits, Some(&regions));
        work += match &parsed {
            Ok(Sequence { body: Some(b), .. }) => b.end.saturating_sub(base),
            _ => SEQ_HEADER_LEN,
        };
        if let Ok(Sequence { header: hd, body: Some(b) }) = &parsed {
            fields += standard_fields(&first_reader, &window, hd, b);
        }
        let id = match parsed {
            Err(err) => unreadable_node(doc, site, &err, base, next),
            Ok(seq) => match &seq.body {
                None => {
                    let (id, walked, added) = variant_node(doc, site, &seq.header, next, fields, limits, lazy);
                    work += walked;
                    fields += added;
                    id
                }
                Some(body) => {
                    let region = Region::of(&seq.header, block1_bytes(&window, base, body.instrs.len()));
                    let first = note_reader(&mut first_reader, region, ei)
                        .map(|f| shared.entry(base).or_insert(seq_key(entries, f)).as_str());
                    describe_standard(doc, site, &seq, body, next, lazy, first)
                }
            },
        };
        if let Some(p) = slot.and_then(|i| primary.get_mut(i)) {
            *p = Some((id, ei));
        }
    }
    (shared, bases)
}

/// The first budget the sequences described so far are over (bytes walked, nodes, fields).
fn over_budget(work: u64, nodes: u64, fields: u64, limits: &Limits) -> Option<ErrorKind> {
    [
        ("motn describe bytes walked", work, limits.max_decode_work),
        ("nodes", nodes, limits.max_nodes as u64),
        ("fields", fields, limits.max_fields as u64),
    ]
    .into_iter()
    .find(|(_, v, max)| v > max)
    .map(|(what, value, max)| ErrorKind::LimitExceeded { what, value, max })
}

/// The first sequence (its entry) read for each [`Region`].
type FirstReaders<'a> = std::collections::HashMap<Region<'a>, u32, foldhash::fast::RandomState>;

/// Entry `ei` reads `region`: the entry that read it first, if another did (else `ei` is
/// noted as its first reader).
fn note_reader<'a>(first_reader: &mut FirstReaders<'a>, region: Region<'a>, ei: usize) -> Option<usize> {
    match first_reader.entry(region) {
        std::collections::hash_map::Entry::Occupied(first) => Some(*first.get() as usize),
        std::collections::hash_map::Entry::Vacant(v) => {
            v.insert(ei as u32);
            None
        }
    }
}

/// The fields a standard sequence adds (for the field budget): one per key, about four
/// per channel, three per instruction; a region read before is not listed again (see
/// `Shared`).
fn standard_fields(first_reader: &FirstReaders<'_>, window: &Bytes, hd: &parse::SeqHeader, b: &SeqBody) -> u64 {
    let keys: usize = if first_reader.contains_key(&Region::of(hd, block1_bytes(window, hd.base, b.instrs.len()))) {
        0
    } else {
        b.channels.iter().map(|c| c.keys.len()).sum()
    };
    (keys + 4 * b.channels.len() + 3 * b.instrs.len() + 16) as u64
}

/// The node of a sequence whose data (`data_rel`) was read before as `pname` (node `pid`).
fn alias_node(doc: &mut Document, dn: NodeId, key: &str, name: &str, data_rel: u32, pid: NodeId, pname: &str) {
    // texts joined without the formatter (240 aliases in MOTION.BIN, four texts each)
    let join = |parts: &[&str]| {
        let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
        parts.iter().for_each(|p| s.push_str(p));
        s
    };
    let span = doc.node(pid).map(|n| n.span).unwrap_or_default();
    let anim = doc.node(pid).and_then(|n| n.anim.as_ref()).map(|_| join(&["seq:", name]));
    let id = doc.add_node(dn, key, "sequence alias", span);
    if let Some(n) = doc.node_mut(id) {
        n.alias_of = Some(pid);
        n.summary = join(&["same data as ", pname]).into();
        n.anim = anim;
    }
    let mut rel = StackText::default();
    let _ = rel.push_hex(u64::from(data_rel));
    let detail = join(&["data_rel 0x", rel.as_str(), " already read as ", pname, ": alias"]);
    step(doc, span, join(&["sequence ", name]), detail, None, Some(id));
}

/// The node of a sequence at `base` that does not parse: its bytes up to `next`, the
/// error as its summary, step and diagnostic.
fn unreadable_node(
    doc: &mut Document,
    site: super::variant::SeqSite<'_, '_>,
    err: &ParseError,
    base: u64,
    next: u64,
) -> NodeId {
    let super::variant::SeqSite { dn, key, name, .. } = site;
    let err = err.clone().within(key);
    let span = Span::new(base, next);
    let id = place(doc, dn, key, "sequence (unreadable)", span);
    doc.add_field(id, Field::new("bytes", span, Value::unknown_bytes(span.len())).note("not parsed"));
    if let Some(n) = doc.node_mut(id) {
        n.summary = format!("error: {}", err.kind).into();
    }
    step(doc, span, format!("sequence {name}"), format!("cannot parse: {err}"), Some(next), Some(id));
    doc.diag(Diagnostic::from_error(&err));
    id
}

/// A variant sequence's node ([`super::variant::describe`]), its parts left to the
/// expander when `lazy`: the node, bytes walked and fields added.
fn variant_node(
    doc: &mut Document,
    site: super::variant::SeqSite<'_, '_>,
    hd: &parse::SeqHeader,
    next: u64,
    fields: u64,
    limits: &Limits,
    lazy: bool,
) -> (NodeId, u64, u64) {
    let mut deferred = Vec::new();
    let r = super::variant::describe(doc, site, hd, next, fields, limits, lazy.then_some(&mut deferred));
    for (node, part) in deferred {
        doc.add_lazy(node, Token::Variant(hd.base, part).encode());
    }
    r
}

/// What a standard sequence's Blocks 3–5 decode to depends only on these (see [`Shared`]):
/// where Block 2 is (absolute), where Blocks 3–5 are from it, the frame word and Block 1's
/// instruction words as the file holds them. 32 bytes: one a sequence is held while the
/// skeleton is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Region<'a> {
    block2: u64,
    /// Blocks 3, 4 and 5 from Block 2 (ascending in any sequence read or left unread).
    from2: [u16; 3],
    frame_word: u16,
    block1: &'a [u8],
}

impl<'a> Region<'a> {
    fn of(hd: &parse::SeqHeader, block1: &'a [u8]) -> Self {
        Region {
            block2: hd.block(2),
            from2: [hd.b3.wrapping_sub(hd.b2), hd.b4.wrapping_sub(hd.b2), hd.b5.wrapping_sub(hd.b2)],
            frame_word: hd.frame_word,
            block1,
        }
    }
}

/// A standard sequence whose blocks may be left unread: its block offsets ascend from the
/// header, Block 5 starts inside the window and Block 1 ends in a zero word. One that fails
/// these is parsed now, as the whole parse does, so it shows as unreadable with its error
/// (and no animation) from the start.
///
/// Gives Block 1's instruction words as the file holds them (without the zero word).
fn plausible_standard<'a>(b: &Bytes<'a>, hd: &parse::SeqHeader, limits: &Limits) -> Option<&'a [u8]> {
    let base = hd.base;
    let (b2, b3, b4, b5) = (u64::from(hd.b2), u64::from(hd.b3), u64::from(hd.b4), u64::from(hd.b5));
    if !(SEQ_HEADER_LEN <= b2 && b2 <= b3 && b3 <= b4 && b4 <= b5) || base + b5 > b.end() {
        return None;
    }
    // Block 1: the channels its instructions name, up to its zero word (read from the bytes
    // it may span: at most MAX_INSTRUCTIONS words and the zero)
    let start = base + SEQ_HEADER_LEN;
    let most = (super::raw::MAX_INSTRUCTIONS + 1).saturating_mul(2).min(b.remaining_from(start));
    let block1 = b.slice(start, most).ok()?;
    let mut ch = 0u64;
    let mut n = 0usize;
    loop {
        let w = match block1.get(2 * n..2 * n + 2) {
            Some(&[lo, hi]) => u16::from_le_bytes([lo, hi]),
            _ => return None,
        };
        if w == 0 {
            break;
        }
        ch += u64::from(CHANNELS_NAMED.get(usize::from(w & super::raw::CHANNEL_MASK)).copied().unwrap_or(0));
        n += 1;
    }
    let words = block1.get(..2 * n)?;
    // Blocks 2–4 fit with their counts, and Block 5 holds the values Block 4's codes own
    // (the reads a parse makes before it decodes, so a sequence passing this parses)
    let w2 = if hd.wide2() { 2 } else { 1 };
    let w3 = if hd.wide3() { 2 } else { 1 };
    b.check_count("block 2 count", base + b2, ch, w2, u64::MAX).ok()?;
    let counts = b.slice(base + b2, ch * w2).ok()?;
    // Block 2's counts: the keys between the first and last frame, and Block 4's bytes (each
    // channel's k = count + 2 codes from the byte after the previous channel's, whole bytes)
    let (mut inter, mut code_bytes) = (0u64, 0u64);
    for i in 0..usize::try_from(ch).ok()? {
        let c = match w2 {
            2 => u64::from(u16::from_le_bytes([*counts.get(2 * i)?, *counts.get(2 * i + 1)?])),
            _ => u64::from(*counts.get(i)?),
        };
        inter += c;
        code_bytes += (c + 2).div_ceil(4);
    }
    let codes = inter + 2 * ch;
    let fits = codes <= limits.max_keys as u64
        && b.check_count("block 3 frame", base + b3, inter, w3, limits.max_keys as u64).is_ok()
        && b.check_count("block 4 byte", base + b4, code_bytes, 1, u64::MAX).is_ok()
        // Block 5 holds the values the codes own: at most three a code (two bytes each), so
        // the codes are read only when that many would not fit
        && (codes.saturating_mul(6) <= b.remaining_from(base + b5)
            || block4_values(b, base + b4, counts, w2).is_some_and(|values| {
                b.check_count("block 5 value", base + b5, values, 2, u64::MAX).is_ok()
            }));
    fits.then_some(words)
}

/// The channels an instruction word's channel bits name, by those bits (a table: `count_ones`
/// is a loop of shifts on the baseline target, and every Block 1 word is counted).
#[allow(clippy::indexing_slicing)] // evaluated at compile time, `i` below 512
const CHANNELS_NAMED: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u16).count_ones() as u8;
        i += 1;
    }
    t
};

/// The values Block 4's codes own (Block 4 at `at`, Block 2's `counts` entries `w2` bytes
/// wide; a code's number is its value count). None when the codes run past the bytes.
fn block4_values(b: &Bytes, at: u64, counts: &[u8], w2: u64) -> Option<u64> {
    let block4 = b.slice(at, b.remaining_from(at)).ok()?;
    let (mut code_bytes, mut unused) = (0usize, 0u64);
    let step = usize::try_from(w2).ok()?;
    for c in counts.chunks_exact(step) {
        let c = match *c {
            [lo, hi] => u64::from(u16::from_le_bytes([lo, hi])),
            [n] => u64::from(n),
            _ => return None,
        };
        let k = c + 2;
        let end = code_bytes.checked_add(usize::try_from(k.div_ceil(4)).ok()?)?;
        let last = *block4.get(end.checked_sub(1)?)?;
        // the codes past the channel's own in its last byte are padding (each channel's
        // codes start on a new byte)
        if k % 4 != 0 {
            unused += code_sum(u64::from(last & (0xFFu8 >> (2 * (k % 4)))));
        }
        code_bytes = end;
    }
    Some(code_values(block4.get(..code_bytes)?) - unused)
}

/// The sum of the 2-bit codes packed in `v` (a code's number is how many values it owns).
fn code_sum(v: u64) -> u64 {
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let nibbles = (v & M2) + ((v >> 2) & M2);
    let bytes = (nibbles & M4) + ((nibbles >> 4) & M4);
    bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// The values every 2-bit code in `codes` owns (four codes a byte).
fn code_values(codes: &[u8]) -> u64 {
    let mut chunks = codes.chunks_exact(8);
    let mut sum = 0;
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        sum += code_sum(u64::from_le_bytes(w));
    }
    let mut w = [0u8; 8];
    for (d, s) in w.iter_mut().zip(chunks.remainder()) {
        *d = *s;
    }
    sum + code_sum(u64::from_le_bytes(w))
}

/// Block 1's `n` instruction words of the sequence at `base`, as the file holds them (the
/// key [`describe_sequences`] finds a region's first reader by).
fn block1_bytes<'a>(b: &Bytes<'a>, base: u64, n: usize) -> &'a [u8] {
    b.slice(base + SEQ_HEADER_LEN, 2 * n as u64).unwrap_or_default()
}

/// `seq[NAME]`: the node key of a table entry's sequence (its display name escaped as
/// [`Entry::display_name`] escapes it), written into `out` (inline up to 24 bytes: no
/// allocation for most names).
fn seq_key_into(out: &mut compact_str::CompactString, e: &Entry) {
    out.clear();
    match &e.name {
        Ok(n) if n.iter().all(|c| (0x20..0x7f).contains(c) && *c != b'\\' && *c != b'"') => {
            // one push of the key assembled on the stack (most names are short)
            let mut t = StackText::default();
            match t.push(b"seq[") && t.push(n) && t.push(b"]") {
                true => out.push_str(t.as_str()),
                false => {
                    out.push_str("seq[");
                    out.push_str(std::str::from_utf8(n).unwrap_or_default());
                    out.push(']');
                }
            }
        }
        Ok(_) => {
            out.push_str("seq[");
            out.push_str(&e.display_name());
            out.push(']');
        }
        Err(_) => {
            use std::fmt::Write as _;
            let _ = write!(out, "seq[#{}]", e.index);
        }
    }
}

/// Text assembled on the stack, pushed into a string at once (the key and summary of every
/// unread sequence are made at open: one push each instead of a push per piece).
struct StackText {
    buf: [u8; 64],
    len: usize,
}

impl Default for StackText {
    fn default() -> Self {
        StackText { buf: [0; 64], len: 0 }
    }
}

impl StackText {
    /// Append `bytes`; false (nothing appended) when they do not fit.
    fn push(&mut self, bytes: &[u8]) -> bool {
        let end = self.len + bytes.len();
        match self.buf.get_mut(self.len..end) {
            Some(room) => {
                room.copy_from_slice(bytes);
                self.len = end;
                true
            }
            None => false,
        }
    }

    /// `n` in decimal.
    fn push_decimal(&mut self, n: u64) -> bool {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut n = n;
        loop {
            i -= 1;
            if let Some(d) = digits.get_mut(i) {
                *d = b'0' + (n % 10) as u8;
            }
            n /= 10;
            if n == 0 || i == 0 {
                break;
            }
        }
        self.push(digits.get(i..).unwrap_or_default())
    }

    /// `n` in lower-case hex, without leading zeros.
    fn push_hex(&mut self, n: u64) -> bool {
        let digits = (64 - n.leading_zeros()).div_ceil(4).max(1);
        let mut ok = true;
        for i in (0..digits).rev() {
            let d = b"0123456789abcdef".get(((n >> (4 * i)) & 0xF) as usize).copied().unwrap_or(b'0');
            ok &= self.push(&[d]);
        }
        ok
    }

    /// `w` as four lower-case hex digits.
    fn push_hex4(&mut self, w: u16) -> bool {
        let hex = |shift: u16| b"0123456789abcdef".get(usize::from((w >> shift) & 0xF)).copied().unwrap_or(b'0');
        self.push(&[hex(12), hex(8), hex(4), hex(0)])
    }

    /// What was pushed (only whole UTF-8 pieces are: always text).
    fn as_str(&self) -> &str {
        std::str::from_utf8(self.buf.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }
}

/// [`seq_key_into`] of entry `i`, as a string.
fn seq_key(entries: &[Entry], i: usize) -> String {
    let mut k = compact_str::CompactString::default();
    if let Some(e) = entries.get(i) {
        seq_key_into(&mut k, e);
    }
    k.into()
}

/// Unit of a channel's stored values: rotations are turns (1.0 = 360°, docs/formats/motn.md#conventions).
fn unit_of(c: Channel) -> &'static str {
    if c.is_rotation() {
        "turns"
    } else if c.is_translation() {
        "units"
    } else {
        ""
    }
}

fn describe_standard(
    doc: &mut Document,
    site: super::variant::SeqSite<'_, '_>,
    seq: &Sequence,
    body: &SeqBody,
    next: u64,
    lazy: bool,
    shared: Option<&str>,
) -> NodeId {
    let super::variant::SeqSite { dn, b, key, name } = site;
    let base = seq.header.base;
    let span = Span::new(base, standard_end(seq, body));
    let id = place(doc, dn, key, "sequence", span);
    if let Some(nd) = doc.node_mut(id) {
        nd.anim = Some(format!("seq:{name}"));
        nd.summary = standard_summary(seq, body).into();
    }
    if lazy {
        // fields and children when shown; the findings now, in the order the whole parse
        // records them
        doc.add_lazy(id, Token::Sequence(base).encode());
        for d in sequence_findings(key, span, seq, body, next) {
            doc.diag(d);
        }
    } else {
        standard_detail(doc, id, b, seq, body, false, shared);
        for d in sequence_findings(key, span, seq, body, next)
            .into_iter()
            .skip(block_placement_findings(span, seq, body).len())
        {
            doc.diag(d);
        }
    }
    let st = standard_step(name, span, seq, body, next, id);
    doc.walk.push(st);
    id
}

/// A standard sequence's node in the skeleton, its blocks not read: the span the table
/// gives it (to the next sequence or the data's end), the header's frame count and kind.
/// Its findings are recorded when it is first expanded ([`Document::mark_unchecked`]); its
/// walk step is said from its parse when shown ([`Expand::walk_step`]).
fn describe_unread(doc: &mut Document, dn: NodeId, key: &str, name: &str, hd: &parse::SeqHeader, next: u64) -> NodeId {
    let span = Span::new(hd.base, next);
    let id = place(doc, dn, key, "sequence", span);
    if let Some(nd) = doc.node_mut(id) {
        // written without the formatter (one node a sequence): `seq:NAME` and
        // `38 frames, kind 0x000d; blocks not read yet`
        let mut anim = String::with_capacity(4 + name.len());
        anim.push_str("seq:");
        anim.push_str(name);
        nd.anim = Some(anim);
        let mut t = StackText::default();
        // at most 5 + 16 + 4 + 21 bytes: always fits
        let _ = t.push_decimal(u64::from(hd.frames()))
            && t.push(b" frames, kind 0x")
            && t.push_hex4(hd.kind_word)
            && t.push(b"; blocks not read yet");
        nd.summary = compact_str::CompactString::new(t.as_str());
    }
    doc.add_lazy(id, Token::Sequence(hd.base).encode());
    doc.mark_unchecked(id);
    doc.walk.push_node(id);
    id
}

/// End of a standard sequence: the furthest end of its blocks.
fn standard_end(seq: &Sequence, body: &SeqBody) -> u64 {
    let hd = seq.header;
    [body.end, body.end2, body.end3, body.end4, body.terminator_at + 2, hd.block(5)]
        .into_iter()
        .max()
        .unwrap_or(body.end)
}

/// `38 frames, kind 0x0000, 12 channels, 96 keys`.
fn standard_summary(seq: &Sequence, body: &SeqBody) -> String {
    let keys: usize = body.channels.iter().map(|c| c.keys.len()).sum();
    format!(
        "{} frames, kind 0x{:04x}, {} channels, {keys} keys",
        seq.header.frames(),
        seq.header.kind_word,
        body.channels.len()
    )
}

/// A standard sequence's findings in the order the whole parse records them: where its
/// blocks are placed oddly, its consistency findings, a Block 5 running past the next sequence.
fn sequence_findings(key: &str, span: Span, seq: &Sequence, body: &SeqBody, next: u64) -> Vec<Diagnostic> {
    let mut out = block_placement_findings(span, seq, body);
    for f in &body.findings {
        out.push(Diagnostic::new(f.severity, Some(f.offset), key, f.message.clone()));
    }
    if body.end > next {
        out.push(Diagnostic::new(
            Severity::Warning,
            Some(next),
            key,
            format!("block 5 ends at 0x{:x}, past the next sequence or the data end 0x{next:x}", body.end),
        ));
    }
    out
}

/// A standard sequence's walk step.
fn standard_step(name: &str, span: Span, seq: &Sequence, body: &SeqBody, next: u64, id: NodeId) -> WalkStep {
    let hd = seq.header;
    let keys: usize = body.channels.iter().map(|c| c.keys.len()).sum();
    WalkStep {
        span,
        what: format!("sequence {name}"),
        detail: format!(
            "n {}, kind 0x{:04x}; {} instructions → {} channels, {keys} keys; blocks at +0x{:x} +0x{:x} +0x{:x} +0x{:x} ({}, {}); ends 0x{:x}",
            hd.frames(),
            hd.kind_word,
            body.instrs.len(),
            body.channels.len(),
            hd.b2,
            hd.b3,
            hd.b4,
            hd.b5,
            if hd.wide2() { "u16 counts" } else { "u8 counts" },
            if hd.wide3() { "u16 frames" } else { "u8 frames" },
            body.end
        ),
        next: Some(next),
        node: Some(id),
    }
}

/// Spans of the blocks `standard_detail` places with `place` (block 2..5), after the
/// header and block 1 it adds directly.
fn block_spans(seq: &Sequence, body: &SeqBody) -> [(&'static str, Span); 6] {
    let hd = seq.header;
    let base = hd.base;
    [
        ("header", Span::at(base, SEQ_HEADER_LEN)),
        ("block1", Span::new(base + SEQ_HEADER_LEN, body.terminator_at + 2)),
        ("block2", Span::new(hd.block(2), body.end2)),
        ("block3", Span::new(hd.block(3), body.end3)),
        ("block4", Span::new(hd.block(4), body.end4)),
        ("block5", Span::new(hd.block(5), body.end)),
    ]
}

/// The diagnostics `place` records while `standard_detail` places blocks 2..5 under the
/// sequence node: empty for a well-formed sequence.
fn block_placement_findings(span: Span, seq: &Sequence, body: &SeqBody) -> Vec<Diagnostic> {
    let spans = block_spans(seq, body);
    let mut placed: Vec<(&str, Span)> = Vec::new();
    let mut out = Vec::new();
    for (i, (key, s)) in spans.into_iter().enumerate() {
        let s = if i < 2 {
            s
        } else {
            let (clipped, found) = crate::model::build::placement(span, placed.iter().copied(), key, s);
            out.extend(found);
            clipped
        };
        placed.push((key, s));
    }
    out
}

/// A standard sequence's header, blocks, instructions, channels and keys under `id`.
fn standard_detail(
    doc: &mut Document,
    id: NodeId,
    b: &Bytes,
    seq: &Sequence,
    body: &SeqBody,
    lazy: bool,
    shared: Option<&str>,
) {
    let hd = seq.header;
    let base = hd.base;
    let n = hd.frames();
    let [(_, header_span), (_, b1_span), (_, b2_span), (_, b3_span), (_, b4_span), (_, b5_span)] =
        block_spans(seq, body);

    // Header
    let hn = doc.add_node(id, "header", "sequence header", header_span);
    for f in hd.record.fields() {
        doc.add_field(hn, f);
    }
    if let Some(x) = doc.node_mut(hn) {
        x.summary =
            format!("n {n}{}, kind 0x{:04x}", if hd.wide2() { " (wide block 2)" } else { "" }, hd.kind_word).into();
    }

    // Blocks 1..5: built with the sequence, or each when it is expanded.
    let b1 = doc.add_node(id, "block1", "instructions", b1_span);
    if let Some(x) = doc.node_mut(b1) {
        x.summary = count(body.instrs.len() as u64, "instruction").into();
    }
    let w2: u64 = if hd.wide2() { 2 } else { 1 };
    let w3: u64 = if hd.wide3() { 2 } else { 1 };
    let b2n = place(doc, id, "block2", "key counts", b2_span);
    if let Some(x) = doc.node_mut(b2n) {
        x.summary = format!("{} counts, {}", body.channels.len(), if w2 == 2 { "u16" } else { "u8" }).into();
    }
    let b3n = place(doc, id, "block3", "key frames", b3_span);
    if let Some(x) = doc.node_mut(b3n) {
        x.summary = format!(
            "{} intermediate frames, {}",
            body.channels.iter().map(|c| c.count).sum::<u64>(),
            if w3 == 2 { "u16 (n > 255)" } else { "u8" }
        )
        .into();
    }
    let b4n = place(doc, id, "block4", "key codes", b4_span);
    if let Some(x) = doc.node_mut(b4n) {
        x.summary = "2-bit codes, 4 per byte, MSB pair first: 0 nothing (value 0), 1 value, 2 tangent + value, 3 in + out + value".into();
    }
    let b5n = place(doc, id, "block5", "key values", b5_span);
    if let Some(x) = doc.node_mut(b5n) {
        x.summary = format!("{} f16 values", (body.end - hd.block(5)) / 2).into();
    }
    for (k, node) in [(1u8, b1), (2, b2n), (3, b3n), (4, b4n), (5, b5n)] {
        if lazy {
            doc.add_lazy(node, Token::Block(base, k).encode());
        } else {
            block_detail(doc, node, k, (b, seq, body), false, shared);
        }
    }
    fill_gaps_from(doc, id, b.data(), b.start());
}

/// Block `k` (1..=5) of a standard sequence: its fields, and its instruction or channel
/// nodes (channels' key fields when they are expanded, if `lazy`).
fn block_detail(
    doc: &mut Document,
    node: NodeId,
    k: u8,
    (b, seq, body): (&Bytes, &Sequence, &SeqBody),
    lazy: bool,
    shared: Option<&str>,
) {
    let hd = seq.header;
    if let (Some(first), 3 | 4) = (shared, k) {
        // the same bytes read the same way as the first reader's: said once, not listed again
        let span = doc.node(node).map(|n| n.span).unwrap_or_default();
        doc.add_field(node, shared_field(span, first, &format!("block{k}")));
        return;
    }
    let w2: u64 = if hd.wide2() { 2 } else { 1 };
    let w3: u64 = if hd.wide3() { 2 } else { 1 };
    let names = || -> Vec<String> { body.channels.iter().map(|c| track_name(hd.kind_word, c)).collect() };
    match k {
        1 => {
            let b1 = node;
            for (i, ins) in body.instrs.iter().enumerate() {
                let nn = node_name(hd.kind_word, ins.node());
                let chans: Vec<String> =
                    Channel::ALL.iter().filter(|c| ins.word & c.bit() != 0).map(|c| c.name().to_string()).collect();
                let iid = doc.add_node(b1, format!("instr[{i}]"), "instruction", Span::at(ins.at, 2));
                doc.add_field(iid, Field::new("word", Span::at(ins.at, 2), Value::uint(u64::from(ins.word), 2)));
                doc.add_field(
                    iid,
                    Field::bits(
                        "node",
                        BitSpan { start_bit: ins.at * 8 + 9, bits: 7 },
                        Value::dec(u64::from(ins.node())).label(nn.clone()),
                    )
                    .note("bits 9–15"),
                );
                doc.add_field(
                    iid,
                    Field::bits(
                        "channels",
                        BitSpan { start_bit: ins.at * 8, bits: 9 },
                        Value::bits(u64::from(ins.channels()), 9).flags(chans.clone()),
                    )
                    .note("0x100..0x008 = px py pz rx ry rz; 0x7 unused bits (consumed)"),
                );
                if let Some(x) = doc.node_mut(iid) {
                    x.summary = format!("node {} {nn}: {}", ins.node(), chans.join(" ")).into();
                }
            }
            doc.add_field(b1, Field::new("terminator", Span::at(body.terminator_at, 2), Value::uint(0, 2)));
        }
        2 => {
            for (c, tn) in body.channels.iter().zip(&names()) {
                doc.add_field(
                    node,
                    Field::new(format!("count[{tn}]"), Span::at(c.count_at, w2), Value::dec(c.count))
                        .note(format!("{} keys with the implicit first and last", c.count + 2)),
                );
            }
        }
        3 => {
            // One field per stored frame, so `set` can write each: fields are built only when
            // the block is expanded (lazily), and charged to the budget.
            for (c, tn) in body.channels.iter().zip(&names()) {
                for (j, k) in c.keys.iter().enumerate() {
                    if let Some(at) = k.frame_at {
                        doc.add_field(
                            node,
                            Field::new(format!("frame[{tn}][{j}]"), Span::at(at, w3), Value::dec(u64::from(k.frame))),
                        );
                    }
                }
            }
        }
        4 => {
            for (c, tn) in body.channels.iter().zip(&names()) {
                let codes: Vec<String> = c.keys.iter().map(|k| k.code.to_string()).collect();
                doc.add_field(
                    node,
                    Field::bits(
                        format!("codes[{tn}]"),
                        BitSpan {
                            start_bit: c.codes_at * 8,
                            bits: u32::try_from(2 * c.keys.len()).unwrap_or(u32::MAX),
                        },
                        Value::derived(codes.join(" ")),
                    )
                    .note(format!("{} keys, 2 bits each in read order", c.keys.len())),
                );
                let used = c.keys.len() % 4;
                if used != 0 {
                    let last = c.codes_at + c.code_bytes - 1;
                    let bits = 2 * (4 - used) as u32;
                    let v = b.u8(last).map(|x| u64::from(x) & ((1u64 << bits) - 1)).unwrap_or(0);
                    doc.add_field(
                        node,
                        Field::bits(
                            format!("unused[{tn}]"),
                            BitSpan { start_bit: last * 8 + 2 * used as u64, bits },
                            Value::bits(v, bits as u8),
                        )
                        .note("unused slots of the channel's last byte (zero)"),
                    );
                }
            }
        }
        _ => {
            for (ci, (c, tn)) in body.channels.iter().zip(&names()).enumerate() {
                let cn = channel_node(doc, node, c, tn);
                if lazy {
                    doc.add_lazy(cn, Token::Channel(hd.base, u32::try_from(ci).unwrap_or(u32::MAX)).encode());
                } else {
                    channel_fields(doc, cn, c, shared);
                }
            }
        }
    }
}

/// The one field of a block or channel whose bytes another sequence (`first`) reads the
/// same way: where its keys are listed.
fn shared_field(span: Span, first: &str, what: &str) -> Field {
    Field::new("shared", span, Value::bytes(span.len()).refers(first.to_string()))
        .note(format!("the same {what} bytes, read the same way, as {first}'s: its keys are listed there"))
}

/// A channel's node under block 5, with its summary.
fn channel_node(doc: &mut Document, b5n: NodeId, c: &ChannelData, tn: &str) -> NodeId {
    let unit = unit_of(c.channel);
    let cn = doc.add_node(b5n, tn, "channel", Span::at(c.values_at, c.values_len));
    if let Some(x) = doc.node_mut(cn) {
        x.summary = format!(
            "{} keys, {} values{}",
            c.keys.len(),
            c.values_len / 2,
            if unit.is_empty() { " (unknown channel)" } else { "" }
        )
        .into();
    }
    cn
}

/// A channel's key fields: one per stored f16 (the key's value `key[j]`, its tangent
/// `key[j].tangent` for code 2, `key[j].in` and `key[j].out` for code 3), each over its two
/// bytes with its unit, so `set` can write it; a code-0 key stores nothing and keeps one
/// empty field saying so. The note names the key's frame and code (rotations: the value in
/// degrees too).
fn channel_fields(doc: &mut Document, cn: NodeId, c: &ChannelData, shared: Option<&str>) {
    if let Some(first) = shared {
        let span = Span::at(c.values_at, c.values_len);
        doc.add_field(cn, shared_field(span, first, "channel"));
        return;
    }
    let unit = unit_of(c.channel);
    let rate = match unit {
        "" => "",
        "turns" => "turns/s",
        _ => "units/s",
    };
    let last = c.keys.len().saturating_sub(1);
    for (j, k) in c.keys.iter().enumerate() {
        let mut note = String::with_capacity(48);
        key_note(&mut note, k, j, last, unit);
        if k.code == 0 {
            let f = Field::new(format!("key[{j}]"), Span::at(k.values_at, 0), Value::derived("nothing stored"));
            doc.add_field(cn, f.note(note));
            continue;
        }
        let half = |i: usize, unit: &str| {
            let bits = k.raw.get(i).copied().unwrap_or(0);
            let v = Value::f16(bits);
            if unit.is_empty() { v } else { v.number(f64::from(half::f16::from_bits(bits).to_f32()), unit) }
        };
        let at = |i: u64| Span::at(k.values_at + 2 * i, 2);
        match k.code {
            2 => doc.add_field(
                cn,
                Field::new(format!("key[{j}].tangent"), at(0), half(0, rate)).note("in- and out-tangent"),
            ),
            3 => {
                doc.add_field(cn, Field::new(format!("key[{j}].in"), at(0), half(0, rate)));
                doc.add_field(cn, Field::new(format!("key[{j}].out"), at(1), half(1, rate)));
            }
            _ => {}
        }
        let vi = u64::from(k.code) - 1;
        doc.add_field(cn, Field::new(format!("key[{j}]"), at(vi), half(vi as usize, unit)).note(note));
    }
}

/// `frame 4, code 2`, `frame 0 (implicit first key), code 1; 90.0°`: the note of a key's
/// value field.
fn key_note(out: &mut String, k: &KeyData, j: usize, last: usize, unit: &str) {
    use std::fmt::Write as _;
    let _ = write!(out, "frame {}", k.frame);
    if k.frame_at.is_none() {
        out.push_str(if j == 0 {
            " (implicit first key)"
        } else if j == last {
            " (implicit last key)"
        } else {
            ""
        });
    }
    let _ = write!(out, ", code {}", k.code);
    if k.code == 0 {
        out.push_str(": value 0");
    } else if unit == "turns" {
        // the stored turns in degrees (tangents are turns per second)
        out.push_str("; ");
        write_num(out, f64::from(k.value()) * 360.0);
        out.push('°');
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    /// The table's fields as `raw::TableEntry`'s record gives them (what `table_fields`
    /// made before it made them directly).
    fn record_table_fields(h: &Header, entries: &[Entry]) -> Vec<Field> {
        let mut out = Vec::new();
        for e in entries {
            let nm = e.display_name();
            let base = e.base(h);
            for (k, mut f) in e.record().fields().into_iter().enumerate() {
                f.name = format!("{}[{}]", f.name, e.index);
                if k == 0 {
                    f.value = f.value.refers(format!("{nm} @0x{base:x}"));
                }
                out.push(f);
            }
        }
        out
    }

    #[test]
    fn table_fields_match_the_record() {
        let limits = Limits::default();
        for name in ["multi.mot", "variants.mot", "turn.mot", "vector_a.mot"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/motn").join(name);
            let data = std::fs::read(&path).expect("fixture");
            let b = Bytes::new(&data);
            let h = Header::read(&b).expect("header");
            let entries = parse::read_entries(&b, &h, &limits).expect("entries");
            assert!(!entries.is_empty(), "{name}");
            let mut doc = Document::new("motn", name, "motn file", b.len(), &limits);
            table_fields(&mut doc, NodeId::ROOT, &h, &entries);
            assert_eq!(doc.root().fields, record_table_fields(&h, &entries), "{name}");
        }
    }

    #[test]
    fn direct_reads_match_the_records() {
        let limits = Limits::default();
        for name in ["multi.mot", "variants.mot", "turn.mot"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/motn").join(name);
            let data = std::fs::read(&path).expect("fixture");
            let b = Bytes::new(&data);
            let h = Header::read(&b).expect("header");
            for e in parse::read_entries(&b, &h, &limits).expect("entries") {
                let r: super::super::raw::TableEntry = crate::formats::record::read_at(&b, e.at).expect("entry");
                assert_eq!(e.record(), r, "{name}");
                let hd = parse::read_seq_header(&b, e.base(&h)).expect("header");
                let r: super::super::raw::SeqHeader = crate::formats::record::read_at(&b, e.base(&h)).expect("header");
                assert_eq!(hd.record, r, "{name}");
                assert_eq!(hd.record.b5.span, r.b5.span, "{name}");
            }
            // a header cut short errs as the record reader says
            let end = b.len() - 4;
            assert_eq!(
                parse::read_seq_header(&b, end).map(|h| h.base),
                crate::formats::record::read_at::<super::super::raw::SeqHeader>(&b, end).map(|_| end)
            );
        }
    }

    #[test]
    fn code_values_count_each_code() {
        let codes: Vec<u8> = (0..40u32).map(|i| (i.wrapping_mul(0x9E37_79B9) >> 11) as u8).collect();
        for n in 0..=codes.len() {
            let each: u64 =
                codes[..n].iter().map(|&b| (0..4).map(|j| u64::from((b >> (2 * j)) & 3)).sum::<u64>()).sum();
            assert_eq!(code_values(&codes[..n]), each, "n {n}");
        }
        assert_eq!(code_sum(u64::MAX), 96);
        assert_eq!(code_sum(u64::from(0b1110_0100u8 & (0xFF >> 4))), 1);
    }

    #[test]
    fn stack_text_is_the_formatters() {
        for n in [0u64, 7, 10, 38, 999, 32767, 65535, 1_000_000, u64::MAX] {
            let mut t = StackText::default();
            assert!(t.push_decimal(n));
            assert_eq!(t.as_str(), n.to_string());
        }
        for w in [0u16, 0xd, 0xa0f, 0xffff, 0x8000] {
            let mut t = StackText::default();
            assert!(t.push(b"0x") && t.push_hex4(w));
            assert_eq!(t.as_str(), format!("0x{w:04x}"));
        }
        // what does not fit is not pushed, and what was pushed stays
        let mut t = StackText::default();
        assert!(t.push(&[b'a'; 60]));
        assert!(!t.push(b"bcdef"));
        assert!(t.push(b"bcde"));
        assert_eq!(t.as_str(), format!("{}bcde", "a".repeat(60)));
    }

    #[test]
    fn seq_keys_are_the_display_names() {
        let data = [b'a', b'/', b'"', 0x7f, b'\\', 0];
        let b = Bytes::new(&data);
        let mut e = Entry {
            index: 3,
            at: 0,
            data_rel: 0,
            extra_ofs: 0,
            name_ptr_at: 0,
            name_ptr: 0,
            name: b.slice(0, 5).map_err(Box::new),
        };
        let mut k = compact_str::CompactString::default();
        // long names (past the stack text's 64 bytes with `seq[` and `]`) take the other path
        let (fits, one_over, long) = ([b'y'; 59], [b'z'; 60], [b'x'; 70]);
        for n in [&data[..5], &data[..1], &data[..2], &data[..0], &fits[..], &one_over[..], &long[..]] {
            e.name = Ok(n);
            seq_key_into(&mut k, &e);
            assert_eq!(k, format!("seq[{}]", e.display_name()));
        }
        e.name = Err(Box::new(ParseError::new(0, ErrorKind::NotFound("name".into()))));
        seq_key_into(&mut k, &e);
        assert_eq!(k, "seq[#3]");
    }
}
