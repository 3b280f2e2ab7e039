//! Parsed CCSF → `Document`: one node per chunk with named fields and spans, frame-section
//! records grouped per frame, Anime sub-records as children, Model mmats and Texture
//! levels as children. Unknown layouts are shown as opaque bytes labelled unknown.
//!
//! Fixed-layout records are the declarations of `raw.rs`, labelled there; this file picks
//! the declaration for a chunk kind (`payload`, `record`) and adds what needs more than one
//! record: tables, children, summaries and findings.
//!
//! On demand ([`describe_lazy`]): the skeleton has one node per chunk and frame with its
//! span, summary, findings and walk step; a chunk's fields and children are built by
//! [`ChunkDetail`] when it is expanded. The eager [`describe`] runs the same `chunk_body`
//! for every chunk, so both give the same document.

use super::anime::{self, CtrlValue, SubRecord};
use super::band;
use super::kinds::{first_word_is_object, kind_name};
use super::mesh::{self, MmatKind};
use super::model_data::{MmatData, ModelData, TriList};
use super::parse::{Index, Parsed};
use super::raw;
use super::texture;
use super::walk::{ChunkRef, Section};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{self, Count, Element, Layout, Record, Spanned};
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, Expand, Field, NodeId, Severity, Span, Value, WalkStep, escape_text};
use crate::source::Source;
use binrw::BinRead;
use std::collections::HashMap;
use std::sync::Arc;

struct Fb<'a, 'd> {
    doc: &'d mut Document,
    node: NodeId,
    b: Bytes<'a>,
    p: u64,
    idx: &'d Index,
}

impl Fb<'_, '_> {
    fn add(&mut self, f: Field) {
        self.doc.add_field(self.node, f);
    }

    /// Read the declared record `T` at the cursor, add its labelled fields and move past
    /// it. A record the chunk ends inside shows the fields that are there and fails at the
    /// first missing one, as a field-by-field read would.
    fn rec<'x, T>(&mut self, args: T::Args<'x>) -> Result<T>
    where
        T: BinRead + Record + Layout,
        T::Args<'x>: Clone,
    {
        match record::read::<Spanned<T>>(&self.b, self.p, args.clone()) {
            Ok(r) => {
                for f in r.value.fields_in(self.idx) {
                    self.add(f);
                }
                self.p = r.span.end;
                Ok(r.value)
            }
            Err(e) => {
                // The short read's own offset and kind; the record's name is in the chunk's path.
                let e = ParseError::new(e.offset, e.kind);
                if let Some(pre) = record::read_prefix_with::<T>(&self.b, self.p, args) {
                    for f in pre.record.fields_in(self.idx).into_iter().filter(|f| f.span.end <= e.offset) {
                        self.add(f);
                    }
                }
                self.p = e.offset.clamp(self.p, self.b.end());
                Err(e)
            }
        }
    }

    /// [`Fb::rec`] for records without arguments.
    fn plain<T>(&mut self) -> Result<T>
    where
        T: BinRead + Record + Layout,
        for<'x> T::Args<'x>: Default + Clone,
    {
        self.rec::<T>(Default::default())
    }

    /// A run of `n` items of `size` bytes (checked against the chunk), shown as one field.
    fn run(&mut self, what: &'static str, name: &str, n: u64, size: u64, end: u64, label: String) -> Result<()> {
        self.b.check_count(what, self.p, n, size, (end - self.p) / size)?;
        self.array(name, Some(Span::at(self.p, size * n)), label);
        self.p += size * n;
        Ok(())
    }

    /// `n` entries of `E` at the cursor as one array field labelled with their layout.
    fn entries<E: raw::Entry>(&mut self, what: &'static str, name: &str, n: u64, end: u64) -> Result<()> {
        self.run(what, name, n, E::SIZE, end, format!("{n} × ({})", E::layout()))
    }

    fn array(&mut self, name: &str, span: Option<Span>, what: String) {
        if let Some(s) = span {
            self.add(Field::new(name, s, Value::bytes(s.len()).label(what)));
        }
    }

    fn summary(&mut self, node: NodeId, s: String) {
        if let Some(nd) = self.doc.node_mut(node) {
            nd.summary = s.into();
        }
    }
}

fn uniq_key(seen: &mut HashMap<(NodeId, String), u32>, parent: NodeId, key: String) -> String {
    let n = seen.entry((parent, key.clone())).or_insert(0);
    *n += 1;
    if *n > 1 { format!("{key}~{n}") } else { key }
}

/// Builds a chunk's fields and children when its node is expanded (the token is the
/// chunk's place in the walk).
struct ChunkDetail {
    source: Arc<Source>,
    parsed: Arc<Parsed>,
    limits: Limits,
}

impl Expand for ChunkDetail {
    fn expand(&self, doc: &mut Document, node: NodeId, token: u64) {
        let Some(c) = usize::try_from(token).ok().and_then(|i| self.parsed.walk.chunks.get(i)) else { return };
        // Copied under the check (pread for a mapped file): an expansion may run while a
        // verb streams, after a write that waited, and a body reads only its chunk's span.
        // A file cut shorter builds nothing here; the verb's next check says why.
        let Ok(bytes) = self.source.checked_span(c.off, c.end) else { return };
        chunk_body(doc, node, c, Bytes::with_base(&bytes, c.off), &self.parsed, &self.limits);
    }
}

#[cfg(test)]
/// Build the whole document of a parsed file.
pub(in crate::formats) fn describe(data: &[u8], name: &str, p: &Parsed, limits: &Limits) -> Document {
    describe_with(data, name, p, p.walk.steps.clone(), limits, false).0
}

/// The document of `source` on demand: the skeleton now, each chunk's fields and children
/// when it is expanded. The walk's steps move into the document (the parse keeps the
/// chunks, which decodes and the check use).
pub(in crate::formats) fn describe_lazy(
    source: &Arc<Source>,
    mut p: Parsed,
    limits: &Limits,
) -> (Document, Arc<Parsed>) {
    let steps = std::mem::take(&mut p.walk.steps);
    let (mut doc, kept) = describe_with(source.bytes(), source.name(), &p, steps, limits, true);
    // A model that decoded within its chunk decodes the same from the whole file (the
    // same reads); one that failed is left to be decoded again where its error is wanted.
    // A kept model is held for the document's life, so it draws on the document's budget;
    // one that does not fit is dropped and decoded again where it is wanted.
    for (at, m) in kept {
        if !doc.retain_extra(m.heap_bytes(), at) {
            continue;
        }
        if let Err(i) = p.models.binary_search_by_key(&at, |(o, _)| *o) {
            p.models.insert(i, (at, Ok(m)));
        }
    }
    let p = Arc::new(p);
    doc.set_expander(Arc::new(ChunkDetail { source: Arc::clone(source), parsed: Arc::clone(&p), limits: *limits }));
    (doc, p)
}

/// The document of `p`: a node per chunk (frame-section chunks under their frame's node),
/// the walk's steps tied to them, and the root's summary. `lazy` leaves each chunk's body
/// to the expander (and returns the gen-2 models its skeleton decoded).
fn describe_with(
    data: &[u8],
    name: &str,
    p: &Parsed,
    mut walk: Vec<WalkStep>,
    limits: &Limits,
    lazy: bool,
) -> (Document, Vec<(u64, ModelData)>) {
    let b = Bytes::new(data);
    let len = b.len();
    let mut doc = Document::new("ccsf", name, "CCSF", len, limits);
    let mut tree = ChunkTree::default();
    let mut step_nodes = Vec::with_capacity(p.walk.chunks.len());
    let mut kept = Vec::new();
    for (i, c) in p.walk.chunks.iter().enumerate() {
        let kname = kind_name(c.kind, c.section == Section::Frames);
        let obj_name =
            if first_word_is_object(c.kind) && c.size > 0 { c.object(&b).map(|o| p.index.name(o)) } else { None };
        let id = tree.add(&mut doc, &b, c, kname, obj_name);
        step_nodes.push(id);
        if lazy {
            if let Some(m) = skeleton(&mut doc, id, c, data, p, limits) {
                kept.push((c.off, m));
            }
            doc.add_lazy(id, i as u64);
        } else {
            chunk_body(&mut doc, id, c, Bytes::new(data), p, limits);
        }
    }
    for (s, id) in walk.iter_mut().zip(&step_nodes) {
        s.node = Some(*id);
    }
    doc.walk = walk.into();
    for d in &p.diags {
        doc.diag(d.clone());
    }
    if let Some(e) = &p.walk.lost {
        let s = Span::new(e.offset.min(len), len);
        if !s.is_empty() {
            let id = doc.add_node(NodeId::ROOT, "unwalked", "unknown", s);
            doc.add_field(id, Field::new("bytes", s, Value::unknown_bytes(s.len())).note("walk stopped here"));
        }
    }
    summarise_root(&mut doc, &b, p, tree.frames);
    (doc, kept)
}

/// Where each chunk's node goes: at the root, or under the node of the frame its Top
/// opened; keys made unique among their siblings.
#[derive(Default)]
struct ChunkTree {
    /// The root's keys.
    seen: HashMap<(NodeId, String), u32>,
    /// The open frame's keys. A frame's records are unique within their frame: its key
    /// table is dropped when the next frame opens, so a long stream keeps one frame's
    /// keys, not all of them.
    frame_seen: HashMap<(NodeId, String), u32>,
    /// The open frame's node.
    frame_group: Option<NodeId>,
    /// Frames opened (Tops with a frame number).
    frames: u64,
}

impl ChunkTree {
    /// Add the node of chunk `c` (kind name `kname`, its object's name if it names one).
    fn add(
        &mut self,
        doc: &mut Document,
        b: &Bytes<'_>,
        c: &ChunkRef,
        kname: &str,
        obj_name: Option<String>,
    ) -> NodeId {
        let mut parent = NodeId::ROOT;
        let named = || match &obj_name {
            Some(o) => format!("{kname}[{o}]"),
            None => kname.to_string(),
        };
        let base_key = match (c.kind, c.section) {
            (0xff01, Section::Frames) => {
                let n = c.top(b).unwrap_or(0);
                self.frame_group = None;
                self.frame_seen.clear();
                if n >= 0xffff_fffe {
                    format!("Top[{}]", n as i32)
                } else {
                    self.frames += 1;
                    let key = uniq_key(&mut self.seen, NodeId::ROOT, format!("frame[{n}]"));
                    let g = doc.add_node(NodeId::ROOT, key, "frame", c.span());
                    self.frame_group = Some(g);
                    parent = g;
                    format!("Top[{n}]")
                }
            }
            (0x0005, Section::Frames) => {
                // A Frame chunk among the frames (a file has one, before them) closes the
                // frame open before it: the group must not reach over a node at the root.
                if self.frame_group.take().is_some() {
                    self.frame_seen.clear();
                    doc.diag(Diagnostic::new(
                        Severity::Warning,
                        Some(c.off),
                        "Frame",
                        format!("a Frame chunk at 0x{:x} inside the frames: the frame before it ends there", c.off),
                    ));
                }
                kname.to_string()
            }
            (_, Section::Frames) => {
                if let Some(g) = self.frame_group {
                    parent = g;
                    if let Some(n) = doc.node_mut(g) {
                        n.span.end = c.end;
                    }
                }
                named()
            }
            _ => named(),
        };
        let key = if parent == NodeId::ROOT {
            uniq_key(&mut self.seen, parent, base_key)
        } else {
            uniq_key(&mut self.frame_seen, parent, base_key)
        };
        doc.add_node(parent, key, kname, c.span())
    }
}

/// The root's summary (name, version, generation, chunks, frames, walk state) and its
/// animation mark when a Top opens a frame; `frames` is how many did.
fn summarise_root(doc: &mut Document, b: &Bytes<'_>, p: &Parsed, frames: u64) {
    let clean = p.walk.clean(b.len());
    let hdr = p.header.as_ref();
    let Some(r) = doc.node_mut(NodeId::ROOT) else { return };
    let generation = hdr.and_then(|h| band::generation_label(h.version)).map(|g| format!(" ({g})"));
    // The Frame chunk (0x0005) declares the scene's frame count; Tops hold the frames
    // that have records (a DATA.BIN scene declares 1 and stores none).
    let declared = p.walk.chunks.iter().find(|c| c.kind == 0x0005).and_then(|c| c.top(b).ok());
    let frames = match declared {
        Some(n) => format!("{n} frame{} (Frame chunk), {frames} with records", if n == 1 { "" } else { "s" }),
        None => format!("{frames} frames"),
    };
    r.summary = format!(
        "{} v0x{:x}{}, {} chunks, {}, walk {}",
        hdr.map_or(String::new(), |h| escape_text(&h.name)),
        hdr.map_or(0, |h| h.version),
        generation.unwrap_or_default(),
        p.walk.chunks.len(),
        frames,
        if clean { "clean" } else { "lost" }
    )
    .into();
    if p.walk
        .chunks
        .iter()
        .any(|c| c.section == Section::Frames && c.kind == 0xff01 && c.top(b).is_ok_and(|n| n < 0xffff_fffe))
    {
        r.anim = Some("frames".into());
    }
}

/// Frame-section records whose body is one declaration and nothing else: their skeleton
/// needs only to know whether the declaration reads (no summary, no children).
fn plain_record_reads(b: &Bytes<'_>, kind: u16, at: u64) -> Option<bool> {
    fn ok<T>(b: &Bytes<'_>, at: u64) -> bool
    where
        T: BinRead + Record,
        for<'x> T::Args<'x>: Default,
    {
        record::read_at::<T>(b, at).is_ok()
    }
    Some(match kind {
        0xff01 => ok::<raw::Top>(b, at),
        0x0005 => ok::<raw::Frame>(b, at),
        0x0101 => ok::<raw::FObj>(b, at),
        0x0108 => ok::<raw::FNote>(b, at),
        0x0201 => ok::<raw::FMaterial>(b, at),
        0x0502 => ok::<raw::FCamera>(b, at),
        0x0601 => ok::<raw::FAmbient>(b, at),
        0x0602 => ok::<raw::FDistantLight>(b, at),
        0x0608 => ok::<raw::FOmniLight>(b, at),
        0x1801 => ok::<raw::FShadow>(b, at),
        _ => return None,
    })
}

/// What the skeleton keeps of a chunk without building its fields: the summary, the Anime
/// key and the findings its body records, in the order the eager document has them; and a
/// Model chunk's decoded model, for the parse to keep.
fn skeleton(
    doc: &mut Document,
    id: NodeId,
    c: &ChunkRef,
    data: &[u8],
    p: &Parsed,
    limits: &Limits,
) -> Option<ModelData> {
    let b = Bytes::new(data);
    let cb = b.sub(c.off, c.end).unwrap_or(b);
    if c.section == Section::Frames && !c.disagrees() && plain_record_reads(&cb, c.kind, c.payload()) == Some(true) {
        // Reads whole: no findings, no summary (the common case: every record of a stream).
        return None;
    }
    let mut scratch = Document::new("ccsf", "", "CCSF", doc.len, limits);
    let sid = scratch.add_node(NodeId::ROOT, "chunk", "", c.span());
    let model = chunk_body(&mut scratch, sid, c, b, p, limits);
    if let (Some(from), Some(to)) = (scratch.node(sid).map(|n| (n.summary.clone(), n.anim.clone())), doc.node_mut(id)) {
        (to.summary, to.anim) = from;
    }
    for d in scratch.diagnostics {
        doc.diag(d);
    }
    model
}

/// A chunk's fields, children, summary and findings, and a Model chunk's decoded model.
/// `b` holds at least the chunk's span (absolute offsets): nothing outside it is read.
fn chunk_body(
    doc: &mut Document,
    id: NodeId,
    c: &ChunkRef,
    b: Bytes<'_>,
    p: &Parsed,
    limits: &Limits,
) -> Option<ModelData> {
    let kname = kind_name(c.kind, c.section == Section::Frames);
    // Every read of this chunk's fields stays inside the chunk's span.
    let cb = b.sub(c.off, c.end).unwrap_or(b);
    let mut fb = Fb { doc, node: id, b: cb, p: c.off, idx: &p.index };
    let mut head = raw::ChunkHeader::at(c.off, c.kind, c.tag, c.size).fields_named(kname, true).into_iter();
    let (Some(kind), Some(tag), Some(mut size)) = (head.next(), head.next(), head.next()) else { return None };
    fb.add(kind);
    fb.add(tag);
    if c.disagrees() {
        let read = (c.end - c.off - 8) / 4;
        size = size.note(format!("size field distrusted: the decoder reads 0x{read:x} words, not 0x{:x}", c.size));
        fb.doc.diag(Diagnostic::new(
            Severity::Info,
            Some(c.off + 4),
            kname,
            format!(
                "size field says 0x{:x} words, decoder reads 0x{read:x} ({} chunks are walked by content)",
                c.size, kname
            ),
        ));
    }
    fb.add(size);
    fb.p = c.payload();
    let r = payload(&mut fb, c.kind, c.off, c.end, p.walk.version, limits);
    let read_to = fb.p;
    let doc = fb.doc;
    let mut model = None;
    match r {
        Ok(decoded) => {
            model = decoded;
            if read_to < c.end && c.kind != 0x0700 {
                let s = Span::new(read_to, c.end);
                let v = if matches!(c.kind, 0x0d00 | 0x1000 | 0x0604 | 0x0606 | 0x0607 | 0x0802 | 0x0803) {
                    Value::unknown_bytes(s.len()).label("layout not documented")
                } else if c.kind == 0x2400 {
                    Value::unknown_bytes(s.len()).label("BIN_ payload: no reader interprets it")
                } else if matches!(c.kind, 0x1f00 | 0x2700 | 0x1a01 | 0x1c01) {
                    Value::unknown_bytes(s.len()).label("layout not documented (no reader)")
                } else if matches!(c.kind, 0x0d80 | 0x0d90) {
                    Value::unknown_bytes(s.len())
                        .label("controllers / generator parameters: framed by size, not decoded")
                } else {
                    Value::unknown_bytes(s.len())
                };
                doc.add_field(id, Field::new("payload", s, v).note("not decoded"));
            }
        }
        Err(e) => {
            let e = e.within(format!("{kname} @0x{:x}", c.off));
            doc.diag(Diagnostic::from_error(&e));
            let from = read_to.clamp(c.payload().min(c.end), c.end);
            if from < c.end {
                doc.add_field(id, Field::new("unparsed", Span::new(from, c.end), Value::unknown_bytes(c.end - from)));
            }
        }
    }
    if let Some(n) = doc.node_mut(id)
        && n.summary.is_empty()
        && c.disagrees()
    {
        n.summary = "size field distrusted".into();
    }
    model
}

/// A chunk's payload by kind: setup layouts here, frame and controller records in
/// [`record`].
fn payload(
    f: &mut Fb<'_, '_>,
    kind: u16,
    off: u64,
    end: u64,
    version: u16,
    limits: &Limits,
) -> Result<Option<ModelData>> {
    let b = f.b;
    let facts = band::of(version);
    match kind {
        0x0001 => header_chunk(f)?,
        0x0002 => index_chunk(f, off, end, limits)?,
        0x0003 => {}
        0x0005 => {
            f.plain::<raw::Frame>()?;
        }
        0xff01 => {
            f.plain::<raw::Top>()?;
        }
        0x0100 => {
            f.rec::<raw::Obj>((version, (end - off - 8) / 4))?;
        }
        0x0200 if facts.gen2() => {
            f.rec::<raw::Material2>(((end - off - 8) / 4,))?;
        }
        0x0200 => {
            f.plain::<raw::Material>()?;
        }
        0x0300 => texture_chunk(f, off, version, limits)?,
        0x0400 => {
            let c = texture::parse_clut(&b, off, version, limits)?;
            f.rec::<raw::ClutHead>((version,))?;
            f.array("colours", Some(c.colours_span), format!("{} × rgba, 0x80 = opaque", c.colours.len()));
            f.p = c.colours_span.end;
        }
        0x0500 => {
            f.plain::<raw::Camera>()?;
        }
        0x0600 => {
            f.plain::<raw::Light>()?;
        }
        0x0700 => anime_chunk(f, off, end, version, limits)?,
        0x0800 => return model_chunk(f, off, version, limits).map(Some),
        0x0900 => clump_chunk(f, end, version)?,
        0x0a00 => {
            f.plain::<raw::ExtObj>()?;
        }
        0x0b00 => hit_chunk(f, end)?,
        0x0c00 => {
            f.plain::<raw::Bbox>()?;
        }
        0x0e00 => {
            let h = f.rec::<raw::Eff>((version,))?;
            let pat = *h.pat_num;
            f.entries::<raw::EffPattern>("eff pattern", "patterns", u64::from(pat), end)?;
        }
        0x1100 => {
            f.plain::<raw::FbRect>()?;
        }
        0x1200 => {
            let n = *f.plain::<raw::FbPage>()?.n;
            f.entries::<raw::FbPageEntry>("fb page", "pages", u64::from(n), end)?;
        }
        0x1300 => {
            f.plain::<raw::DummyPos>()?;
        }
        0x1400 => {
            f.plain::<raw::DummyPosRot>()?;
        }
        0x1700 => layer_chunk(f, end)?,
        0x1800 => {
            f.plain::<raw::Shadow>()?;
        }
        0x1900 => {
            f.plain::<raw::Morpher>()?;
        }
        0x2000 => {
            f.plain::<raw::Obj2>()?;
        }
        0x2400 if facts.gen2() => {
            f.plain::<raw::BlobHead>()?;
        }
        0x1a00 | 0x1b00 | 0x1c00 if facts.gen2() => {
            f.plain::<raw::StreamParam>()?;
        }
        0x1d00 if facts.gen2() => {
            f.plain::<raw::BlurParam>()?;
        }
        0x0d80 if facts.gen2() => {
            let h = f.plain::<raw::ParticleAnmHead>()?;
            let body = particle_ctrls(&b, f.p, end, usize::from(*h.ctrl_count), f.idx);
            particle_body(f, body, end);
        }
        0x0d90 if facts.gen2() => {
            let h = f.plain::<raw::ParticleGenHead>()?;
            let body = particle_generator(&b, f.p, end, *h.flags, version, f.idx);
            particle_body(f, body, end);
        }
        0x1f00 | 0x2700 if facts.gen2() => {}
        0x2300 if facts.gen2() => dynamics_chunk(f, end)?,
        0x2200 => pcm_chunk(f, end)?,
        _ => record(f, kind, end, version, limits)?,
    }
    Ok(None)
}

/// The header chunk: its version (and the generation it names) and its words.
fn header_chunk(f: &mut Fb<'_, '_>) -> Result<()> {
    let b = f.b;
    let h = f.plain::<raw::Header>()?;
    let n = Count::checked(&b, "header word", f.p, u64::from(*h.count), 4, 1 << 16)?;
    f.rec::<raw::Words>((n,))?;
    let node = f.node;
    let generation = band::generation_label(*h.version).map(|g| format!(", {g}"));
    f.summary(node, format!("v0x{:x}{}", *h.version, generation.unwrap_or_default()));
    Ok(())
}

/// A PCM chunk: its head, then its audio words.
fn pcm_chunk(f: &mut Fb<'_, '_>, end: u64) -> Result<()> {
    let h = f.plain::<raw::Pcm>()?;
    let (blocks, words) = (*h.blocks, *h.words);
    let n = u64::from(blocks) * u64::from(words);
    f.run(
        "pcm word",
        "audio",
        n,
        4,
        end,
        format!("{blocks} blocks × {words} words (256 L + 256 R s16 per 1024 bytes, 48 kHz)"),
    )?;
    Ok(())
}

/// A clump chunk: its node list, and (gen 2) one bind pose per node after it.
fn clump_chunk(f: &mut Fb<'_, '_>, end: u64, version: u16) -> Result<()> {
    let b = f.b;
    let facts = band::of(version);
    let h = f.plain::<raw::Clump>()?;
    let n = Count::checked(&b, "clump node", f.p, u64::from(*h.n), 4, (end - f.p) / 4)?;
    f.rec::<raw::ObjectList>((n,))?;
    // gen 2 (B1+ by the size): one bind pose per node after the node list
    if facts.size_decides && n.get() > 0 && end - f.p == 36 * n.get() as u64 {
        f.rec::<raw::ClumpBinds>((n,))?;
    }
    Ok(())
}

/// A layer chunk: its entries, each a kind and an object.
fn layer_chunk(f: &mut Fb<'_, '_>, end: u64) -> Result<()> {
    let b = f.b;
    let n = *f.plain::<raw::Layer>()?.n;
    b.check_count("layer", f.p, u64::from(n), 8, (end - f.p) / 8)?;
    for i in 0..usize::from(n) {
        let e: Spanned<raw::LayerEntry> = record::read_at(&b, f.p)?;
        for fl in e.fields_at(i, f.idx) {
            f.add(fl);
        }
        f.p = e.span.end;
    }
    Ok(())
}

/// The Index chunk: its file names and object names (with the file each is defined in).
fn index_chunk(f: &mut Fb<'_, '_>, off: u64, end: u64, limits: &Limits) -> Result<()> {
    let b = f.b;
    // This chunk's own entries: a file may hold more than one Index chunk, and the
    // document-wide name table (`f.idx`) comes from the first.
    let own = super::parse::parse_index(&b, off, end, limits)?;
    let h = f.plain::<raw::IndexHead>()?;
    let (fc, oc) = (*h.file_count, *h.object_count);
    let idx = &own;
    let node = f.node;
    let fl = f.doc.add_node(node, "files", "files", Span::at(f.p, 32 * u64::from(fc)));
    for (i, (path, s)) in idx.files().enumerate() {
        let mark = match path.first() {
            Some(b'#') => "'#' defined in another file",
            Some(b' ') => "' ' defined here",
            _ => "blank",
        };
        f.doc.add_field(fl, Field::new(format!("file[{i}]"), s, Value::text(&path).label(mark)));
    }
    let os = f.p + 32 * u64::from(fc);
    let ol = f.doc.add_node(node, "objects", "objects", Span::at(os, 32 * u64::from(oc)));
    for (i, (name, file, name_at, file_at)) in idx.objects().enumerate() {
        let fname = match idx.file(usize::from(file)) {
            None => "out of range".to_string(),
            Some((p, _)) if p.is_empty() => "blank".to_string(),
            Some((p, _)) => escape_text(&p),
        };
        f.doc.add_field(ol, Field::new(format!("object[{i}]"), name_at, Value::text(&name)));
        f.doc
            .add_field(ol, Field::new(format!("object[{i}].file"), file_at, Value::dec(u64::from(file)).refers(fname)));
    }
    f.p = os + 32 * u64::from(oc);
    f.summary(node, format!("{fc} files, {oc} objects"));
    Ok(())
}

/// A texture chunk: its head, each mip level (or BTX blocks) with its size.
fn texture_chunk(f: &mut Fb<'_, '_>, off: u64, version: u16, limits: &Limits) -> Result<()> {
    let b = f.b;
    let t = texture::parse_texture(&b, off, version, limits)?;
    let h = f.rec::<raw::TextureHead>((version,))?;
    for (i, lv) in t.levels.iter().enumerate() {
        let n = f.doc.add_node(f.node, format!("level[{i}]"), "mip level", lv.span);
        let size = t.level_size(i).map_or("size unknown [?]".to_string(), |(w, h)| format!("{w}×{h}"));
        let mut g = Fb { doc: &mut *f.doc, node: n, b, p: lv.span.start, idx: f.idx };
        if t.npot.is_some() && i == 0 {
            g.plain::<raw::NpotHead>()?;
        } else {
            g.plain::<raw::LevelHead>()?;
        }
        g.add(
            Field::new("pixels", lv.pixels, Value::bytes(lv.pixels.len()).label(format!("{size} indices")))
                .note("rows bottom-up; 4-bit: low nibble = left pixel"),
        );
        g.summary(n, size);
    }
    if let Some(x) = &t.btx {
        f.plain::<raw::BtxHead>()?;
        f.plain::<raw::BtxHeader>()?;
        f.add(
            Field::new(
                "dxt",
                x.data,
                Value::bytes(x.data.len()).label(format!(
                    "{} blocks, {}×{}",
                    raw::dxt_name(u16::from(t.psm)).unwrap_or("DXT"),
                    *x.header.width,
                    *x.header.height
                )),
            )
            .note("btx_size − 64 bytes (AH); 4×4 blocks, first block row shown on top [?]"),
        );
    }
    f.p = t.end;
    let node = f.node;
    let (w, hh) = t.level_size(0).unwrap_or((0, 0));
    f.summary(node, format!("{w}×{hh} {}, {} levels", raw::psm_name(*h.psm), t.levels.len()));
    Ok(())
}

/// A hit chunk: its groups, each with its vertex positions and normals.
fn hit_chunk(f: &mut Fb<'_, '_>, end: u64) -> Result<()> {
    let b = f.b;
    let h = f.plain::<raw::Hit>()?;
    for gi in 0..*h.groups {
        let v = *record::read_at::<raw::HitGroup>(&b, f.p).map_err(|e| ParseError::new(e.offset, e.kind))?.v;
        b.check_count("hit vertex", f.p + 8, u64::from(v), 24, (end.saturating_sub(f.p + 8)) / 24)?;
        let s = Span::at(f.p, 8 + 24 * u64::from(v));
        let n = f.doc.add_node(f.node, format!("group[{gi}]"), "hit group", s);
        let mut g = Fb { doc: &mut *f.doc, node: n, b, p: f.p, idx: f.idx };
        g.plain::<raw::HitGroup>()?;
        g.array("positions", Some(Span::at(g.p, 12 * u64::from(v))), format!("{v} × f32[3]"));
        g.array(
            "normals",
            Some(Span::at(g.p + 12 * u64::from(v), 12 * u64::from(v))),
            format!("{v} × f32[3] (read, discarded)"),
        );
        f.p = s.end;
    }
    Ok(())
}

/// A dynamics chunk: its springs, then its collision shapes.
fn dynamics_chunk(f: &mut Fb<'_, '_>, end: u64) -> Result<()> {
    let b = f.b;
    let h = f.plain::<raw::DynamicsHead>()?;
    let (ns, nc) = (u64::from(*h.spring_count), u64::from(*h.collision_count));
    b.check_count("spring", f.p, ns, 16, (end - f.p) / 16)?;
    for i in 0..ns as usize {
        let sp: Spanned<raw::Spring> = record::read_at(&b, f.p)?;
        for fl in sp.fields_at(i, f.idx) {
            f.add(fl);
        }
        f.p = sp.span.end;
    }
    b.check_count("collision", f.p, nc, 40, (end - f.p) / 40)?;
    for i in 0..nc as usize {
        let co: Spanned<raw::Collision> = record::read_at(&b, f.p)?;
        for fl in co.fields_at(i, f.idx) {
            f.add(fl);
        }
        f.p = co.span.end;
    }
    Ok(())
}

/// The Anime container (docs/formats/ccsf.md#anime-0x0700): its head, then its sub-records as children.
fn anime_chunk(f: &mut Fb<'_, '_>, off: u64, end: u64, version: u16, limits: &Limits) -> Result<()> {
    let b = f.b;
    let a = anime::parse_anime(&b, off, end, version, limits)?;
    f.plain::<raw::AnimeHead>()?;
    let words_ok = u64::from(a.words) + 3 == (end - off - 8) / 4;
    if !words_ok {
        f.doc.diag(Diagnostic::new(Severity::Warning, Some(off + 4), "Anime", "size is not 3 + words ([I] expected)"));
    }
    records(f, &a.records, version, limits)?;
    if let Some(e) = &a.lost {
        f.doc.diag(Diagnostic::from_error(&e.clone().within("Anime sub-stream")));
        let s = Span::new(e.offset.clamp(a.sub_span.start, a.sub_span.end), a.sub_span.end);
        if !s.is_empty() {
            f.add(Field::new("unwalked", s, Value::unknown_bytes(s.len())).note("sub-record walk stopped here"));
        }
    }
    let node = f.node;
    let once = a.records.iter().rev().find(|r| r.kind == 0xff01).and_then(|r| r.top(&b).ok());
    if let Some(nd) = f.doc.node_mut(node) {
        nd.anim = Some(format!("anime:{}", f.idx.name(a.object)));
        nd.summary = format!(
            "{} frames, {} records, {}",
            a.frames,
            a.records.len(),
            match once {
                Some(0xffff_fffe) => "loop",
                Some(0xffff_ffff) => "once",
                _ => "no end",
            }
        )
        .into();
    }
    f.p = end;
    Ok(())
}

/// The Model chunk (docs/formats/ccsf.md#model-0x0800): its header, then one child per mmat with its header words and
/// arrays (the arrays themselves are `mesh.rs`'s); the decoded model is returned for the
/// parse to keep, so the scene and the check do not decode it again.
fn model_chunk(f: &mut Fb<'_, '_>, off: u64, version: u16, limits: &Limits) -> Result<ModelData> {
    let m = mesh::parse_model(&f.b, off, version, limits)?;
    model_fields(f, &m, version)?;
    Ok(m)
}

/// [`model_chunk`] of the decoded model `m`.
fn model_fields(f: &mut Fb<'_, '_>, m: &ModelData, version: u16) -> Result<()> {
    model_head_fields(f, m, version)?;
    let layout = MmatLayout {
        gen2: m.gen2.is_some(),
        wide_uvs: m.gen2.as_ref().is_some_and(|g| band::of(g.version).uv_16_16),
        unit: m.scale / 4096.0,
        lit: m.mtype & 1 != 0,
    };
    let node = f.node;
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (i, mm) in m.mmats.iter().enumerate() {
        *counts.entry(mm.kind.name()).or_default() += 1;
        let n = f.doc.add_node(node, format!("mmat[{i}]"), format!("{} mmat", mm.kind.name()), mm.span);
        let mut g = Fb { doc: &mut *f.doc, node: n, b: f.b, p: mm.span.start, idx: f.idx };
        mmat_head_fields(&mut g, mm, layout.gen2);
        if let Some(t) = &mm.tri {
            tri_section_fields(&mut g, t);
        }
        let verts = mmat_arrays(&mut g, mm, &layout);
        g.summary(n, format!("{verts} vertices"));
    }
    f.p = m.end;
    let mut kinds: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    kinds.sort();
    let mut sum = if kinds.is_empty() { "no mmats".into() } else { kinds.join(", ") };
    if let Some(g) = m.gen2.as_ref().filter(|g| g.variant != "band") {
        sum.push_str(&format!("; header read {}", g.variant));
    }
    f.summary(node, sum);
    Ok(())
}

/// The Model header's fields (gen 2: with its lookup list); moves the cursor past them.
fn model_head_fields(f: &mut Fb<'_, '_>, m: &ModelData, version: u16) -> Result<()> {
    let Some(g) = &m.gen2 else {
        let h: Spanned<raw::ModelHead> = record::read_at(&f.b, f.p)?;
        for fl in h.fields_with(f.idx, version) {
            f.add(fl);
        }
        f.p = h.span.end;
        return Ok(());
    };
    for fl in g.head.fields_in(f.idx) {
        f.add(fl);
    }
    if let Some(s) = g.lookup_span {
        for (i, e) in g.lookup.iter().enumerate() {
            f.add(Field::new(
                format!("lookup[{i}]"),
                Span::at(s.start + i as u64, 1),
                Value::dec(u64::from(*e)).label("clump node"),
            ));
        }
        let pad = s.start + g.lookup.len() as u64;
        if pad < s.end {
            f.add(Field::new("lookup_pad", Span::new(pad, s.end), Value::bytes(s.end - pad)).note("pad to 4, ignored"));
        }
    }
    f.p = g.lookup_span.map_or(g.head_span.end, |s| s.end);
    Ok(())
}

/// How a model's mmat arrays are labelled: what its generation and band store.
struct MmatLayout {
    /// A gen-2 model.
    gen2: bool,
    /// UVs are s32 16.16 pairs (and skin entries 12 bytes).
    wide_uvs: bool,
    /// The size of one position step (the model's scale / 4096).
    unit: f32,
    /// The model is lit (its vertex colours are dropped).
    lit: bool,
}

impl MmatLayout {
    /// What `n` UVs are.
    fn uvs(&self, n: usize) -> String {
        if self.wide_uvs {
            format!("{n} × s32 u, v 16.16 (/65536)")
        } else if self.gen2 {
            format!("{n} × s16 u, v /256")
        } else {
            format!("{n} × u16 S,T /256")
        }
    }
}

/// An mmat's head words, its bone node and its shadow counts.
fn mmat_head_fields(g: &mut Fb<'_, '_>, mm: &MmatData, gen2: bool) {
    for (name, v, s) in mm.header.iter() {
        let val = match *name {
            "name" | "material" => Value::dec(u64::from(*v)).refers(g.idx.name(*v)),
            _ => Value::dec(u64::from(*v)),
        };
        g.add(Field::new(*name, *s, val));
    }
    if let Some((nd, s)) = mm.node {
        g.add(Field::new("node", s, Value::dec(u64::from(nd)).label("clump slot")));
    }
    if let Some(c) = &mm.shadow_counts {
        let vn = *c.v_num;
        g.add(c.v_num.field("v_num", Value::int(i64::from(vn), 4)));
        g.add(c.i_num.field("i_num", Value::int(i64::from(*c.i_num), 4)).note(if gen2 {
            "gen 2: i_num indices follow (read even when v_num is 0)"
        } else if vn == 0 {
            "ignored: v_num is 0"
        } else {
            "triangles = trunc(i_num / 3)"
        }));
    }
}

/// A triangle-list mmat's sections: each head, its payload array (or clump) and padding.
fn tri_section_fields(g: &mut Fb<'_, '_>, t: &TriList) {
    for (si, s) in t.sections.iter().enumerate() {
        for mut fl in s.head.fields_in(g.idx) {
            fl.name = format!("section[{si}].{}", fl.name);
            g.add(fl);
        }
        let ty = *s.head.section_type;
        let what = match ty {
            0 => format!("{} × s8 x, y, z /64", *s.head.count),
            1 => format!("{} × s16 u, v /256", *s.head.count),
            7 => format!("{} × u8, meaning not given (not applied)", *s.head.count),
            8 => format!("{} × u16, taken three at a time as triangles [I]", *s.head.count),
            32 => format!("{} × (s16[3] pos, u16 weight|last|slot, not applied)", t.positions.len()),
            _ => "u32 clump index".into(),
        };
        let name = format!("section[{si}].{}", raw::tri_section_name(ty));
        match t.clump.filter(|_| ty == 33) {
            Some(c) => g.add(Field::new(name, s.payload, Value::dec(u64::from(c)).refers(g.idx.name(c)))),
            None => g.array(&name, Some(s.payload), what),
        }
        if let Some(p) = s.pad {
            g.add(Field::new(format!("section[{si}].pad4"), p, Value::bytes(p.len())).note("pad to 4, ignored"));
        }
    }
}

/// An mmat's vertex arrays (positions or skin entries, normals, colours, UVs, tangents,
/// triangles or indices); returns its vertex count.
fn mmat_arrays(g: &mut Fb<'_, '_>, mm: &MmatData, layout: &MmatLayout) -> usize {
    let nv = mm.positions.len().max(mm.tri.as_ref().map_or(0, |t| t.positions.len()));
    let ends = mm.entries.iter().filter(|e| e.last()).count();
    match mm.kind {
        MmatKind::Skin => {
            g.array(
                "entries",
                mm.positions_span,
                if layout.wide_uvs {
                    format!("{} × (s16[3] pos, s16 weight /256, s16 stop, s16 node slot)", mm.entries.len())
                } else {
                    format!("{} × (s16[3] pos, u16 weight|last|slot)", mm.entries.len())
                },
            );
            g.array(
                "normals",
                mm.normals_span,
                format!("{} × s8[3]/64 + strip flag (one per entry)", mm.normals.len()),
            );
            if layout.gen2 {
                g.array("uvs", mm.sts_span, format!("{} (one per vertex)", layout.uvs(ends)));
            } else {
                g.array("sts", mm.sts_span, format!("{ends} × u16 S,T /256 (one per vertex)"));
            }
        }
        _ => {
            g.array("positions", mm.positions_span, format!("{nv} × s16[3] × {}", layout.unit));
        }
    }
    if let Some(s) = mm.pad_span {
        g.add(Field::new("pad", s, Value::bytes(s.len())).note("pad to 4, ignored"));
    }
    if !matches!(mm.kind, MmatKind::Skin | MmatKind::TriList) {
        g.array("normals", mm.normals_span, format!("{} × s8[3]/64 + strip flag", mm.normals.len()));
        g.array(
            "colours",
            mm.colours_span,
            format!("{} × rgba, 0x80 = 1.0{}", mm.colours.len(), if layout.lit { " (dropped: lit)" } else { "" }),
        );
        if layout.gen2 {
            g.array("uvs", mm.sts_span, layout.uvs(mm.sts.len().max(mm.uvs32.len())));
        } else {
            g.array("sts", mm.sts_span, format!("{} × u16 S,T /256", mm.sts.len()));
        }
    }
    g.array("tangents", mm.tangents_span, "s8 x, y, z, s8 sign per element".into());
    g.array("binormals", mm.binormals_span, "s8 x, y, z, s8 sign per element".into());
    if layout.gen2 && mm.kind == MmatKind::Shadow {
        let n = mm.shadow_counts.as_ref().map_or(0, |c| *c.i_num);
        g.array("indices", mm.triangles_span, format!("{n} × s32 ({} triangles)", mm.triangles.len()));
    } else {
        g.array("triangles", mm.triangles_span, format!("{} × s32[3]", mm.triangles.len()));
    }
    if mm.kind == MmatKind::Skin { ends } else { nv }
}

/// Frame records and controller records (payload only; header already shown).
fn record(f: &mut Fb<'_, '_>, kind: u16, end: u64, version: u16, limits: &Limits) -> Result<()> {
    let b = f.b;
    let facts = band::of(version);
    match kind {
        0x0101 if facts.gen2() => {
            // gen 2 (docs/formats/ccsf-gen2.md#anime-and-frame-records): a set mask bit drops its value
            let h = f.plain::<raw::FObjHead2>()?;
            f.rec::<raw::FObjValues2>((*h.mask,))?;
        }
        0x0201 if facts.f_material2 => {
            f.plain::<raw::FMaterial2>()?;
        }
        0x1b01 if facts.gen2() => {
            f.plain::<raw::CelShadeFrame>()?;
        }
        0x1d01 if facts.gen2() => {
            f.plain::<raw::BlurFrame>()?;
        }
        0x1a01 | 0x1c01 if facts.gen2() => {}
        0x0503 if facts.gen2() => controller(f, kind, end, version, limits)?,
        0x1902 if facts.gen2() => morph_controller(f, end, limits)?,
        0x0101 => {
            f.plain::<raw::FObj>()?;
        }
        0x0108 => {
            f.plain::<raw::FNote>()?;
        }
        0x0201 => {
            f.plain::<raw::FMaterial>()?;
        }
        0x0502 => {
            f.plain::<raw::FCamera>()?;
        }
        0x0601 => {
            f.plain::<raw::FAmbient>()?;
        }
        0x0602 => {
            f.plain::<raw::FDistantLight>()?;
        }
        0x0608 => {
            f.plain::<raw::FOmniLight>()?;
        }
        0x1801 => {
            f.plain::<raw::FShadow>()?;
        }
        0x1901 => {
            let n = *f.plain::<raw::FMorpher>()?.n;
            b.check_count("morph target", f.p, u64::from(n), 8, (end - f.p) / 8)?;
            for i in 0..usize::from(n) {
                let t: Spanned<raw::MorphTarget> = record::read_at(&b, f.p)?;
                for fl in t.fields_at(i, f.idx) {
                    f.add(fl);
                }
                f.p = t.span.end;
            }
        }
        0x2201 => {
            let h = f.plain::<raw::FPcm>()?;
            let (blocks, words) = (*h.blocks, *h.words);
            let n = u64::from(blocks) * u64::from(words);
            f.run("pcm word", "audio", n, 4, end, format!("{blocks} × {words} words"))?;
        }
        0x0102 | 0x0202 | 0x0603 | 0x0605 | 0x0609 => controller(f, kind, end, version, limits)?,
        0x0604 | 0x0606 | 0x0607 | 0x0802 | 0x0803 => {
            if first_word_is_object(kind) && f.p + 4 <= end {
                f.plain::<raw::Camera>()?;
            }
            // the rest is labelled unknown by the caller
        }
        0x0d00 | 0x1000 => {}
        _ => {
            return Err(ParseError::new(
                f.p,
                crate::error::ErrorKind::Unsupported(format!("no layout for chunk 0x{kind:04x}")),
            ));
        }
    }
    Ok(())
}

/// A controller record (docs/formats/ccsf.md#controllers): its head, then constants as fields and keyed fields as
/// children with their keys.
fn controller(f: &mut Fb<'_, '_>, kind: u16, end: u64, version: u16, limits: &Limits) -> Result<()> {
    let b = f.b;
    let rec = SubRecord { off: f.p - 8, kind, tag: 0, size: 0, end };
    let c = anime::parse_ctrl_at(&b, &rec, version, limits)?;
    let h: raw::CtrlHead = record::read_at(&b, f.p)?;
    // the object only: the flags are shown per field below
    for fl in h.fields_in(f.idx).into_iter().take(1) {
        f.add(fl);
    }
    let mut names = Vec::new();
    for cf in &c.fields {
        if cf.k != 0 {
            names.push(format!(
                "{}={}",
                cf.name,
                match cf.k {
                    1 => "const",
                    4 => "keyed quaternion",
                    _ => "keyed",
                }
            ));
        }
    }
    f.add(
        h.flags
            .field("flags", Value::uint(u64::from(*h.flags), 4).flags(names))
            .note("3 bits per field: 0 absent, 1 constant, 2 keyed"),
    );
    f.p = h.flags.span.end;
    for cf in &c.fields {
        let unit = match cf.name {
            "rotation" => "deg",
            "position" => "units",
            _ => "",
        };
        match &cf.value {
            CtrlValue::Absent => {}
            CtrlValue::Const(v) => {
                for (i, w) in v.iter().enumerate() {
                    let nm = if cf.dim == 3 {
                        format!("{}.{}", cf.name, ["x", "y", "z"].get(i).unwrap_or(&"?"))
                    } else {
                        cf.name.to_string()
                    };
                    let val = ctrl_value(cf.name, *w, unit);
                    f.add(Field::new(nm, Span::at(cf.span.start + 4 * i as u64, 4), val).note("constant"));
                }
            }
            CtrlValue::Keys(keys) => {
                let n = f.doc.add_node(f.node, cf.name, "keyed controller", cf.span);
                f.doc.add_field(n, Field::new("n", Span::at(cf.span.start, 4), Value::dec(keys.len() as u64)));
                for (i, (fr, words, s)) in keys.iter().enumerate() {
                    f.doc.add_field(
                        n,
                        Field::new(format!("key[{i}].frame"), Span::at(s.start, 4), Value::dec(u64::from(*fr))),
                    );
                    for (j, w) in words.iter().enumerate() {
                        let nm = if cf.k == 4 {
                            format!("key[{i}].{}", ["x", "y", "z", "w"].get(j).unwrap_or(&"?"))
                        } else if cf.dim == 3 {
                            format!("key[{i}].{}", ["x", "y", "z"].get(j).unwrap_or(&"?"))
                        } else {
                            format!("key[{i}].value")
                        };
                        let val = if cf.k == 4 { Value::f32(*w) } else { ctrl_value(cf.name, *w, unit) };
                        f.doc.add_field(n, Field::new(nm, Span::at(s.start + 4 + 4 * j as u64, 4), val));
                    }
                }
                f.summary(n, format!("{} keys", keys.len()));
            }
        }
    }
    f.p = c.end;
    Ok(())
}

/// A particle chunk's body after its head: its fields when AH's layout (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90)
/// reads exactly to the chunk's end; otherwise the rest stays opaque, saying why.
fn particle_body(f: &mut Fb<'_, '_>, body: Result<Vec<Field>>, end: u64) {
    match body {
        Ok(fields) => {
            for fl in fields {
                f.add(fl);
            }
            f.p = end;
        }
        Err(e) if f.p < end => {
            f.add(
                Field::new("body", Span::new(f.p, end), Value::unknown_bytes(end - f.p).label("framed by size"))
                    .note(format!("does not fit docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90 layout [X:AH]: {}", e.kind)),
            );
            f.p = end;
        }
        Err(_) => {}
    }
}

/// The body must end exactly at the chunk's end.
fn ends_at(q: u64, end: u64, what: &'static str) -> Result<()> {
    if q == end {
        return Ok(());
    }
    Err(ParseError::new(
        q,
        ErrorKind::BadValue { what, value: format!("ends at 0x{q:x}"), why: format!("the chunk ends at 0x{end:x}") },
    ))
}

/// ParticleAnmCtrl's controllers (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90): a 20-byte head, then `frame_count`
/// bytes zero-padded to 4.
fn particle_ctrls(b: &Bytes<'_>, at: u64, end: u64, n: usize, idx: &Index) -> Result<Vec<Field>> {
    let w = b.sub(at, end)?;
    w.check_count("particle controller", at, n as u64, 20, (end - at) / 20)?;
    let mut q = at;
    let mut out = Vec::new();
    for i in 0..n {
        let c: raw::ParticleCtrl = record::read_at(&w, q)?;
        out.extend(c.fields_at(i, idx));
        q = c.pad.span.end;
        let frames = u64::from(*c.frame_count);
        w.check_count("particle frame", q, frames, 1, end - q)?;
        out.push(
            Field::new(format!("ctrl[{i}].frames"), Span::at(q, frames), Value::bytes(frames).label("one per frame"))
                .note("AH: 1 busy, 2 idle"),
        );
        let padded = frames.div_ceil(4) * 4;
        if padded > frames {
            out.push(
                Field::new(
                    format!("ctrl[{i}].pad_frames"),
                    Span::at(q + frames, padded - frames),
                    Value::bytes(padded - frames),
                )
                .note("zero padding to 4"),
            );
        }
        q += padded;
    }
    ends_at(q, end, "particle controllers")?;
    Ok(out)
}

/// ParticleGenerator's body (docs/formats/ccsf-gen2.md#particleanmctrl-0x0d80-and-particlegenerator-0x0d90): parameters, `(flags >> 16) & 15` force fields,
/// `(flags >> 12) & 15` resources (8 bytes each above version 0x122).
fn particle_generator(b: &Bytes<'_>, at: u64, end: u64, flags: u32, version: u16, idx: &Index) -> Result<Vec<Field>> {
    let w = b.sub(at, end)?;
    let params: raw::ParticleGenParams = record::read_at(&w, at)?;
    let mut out = params.fields_in(idx);
    let mut q = at + 72;
    for i in 0..((flags >> 16) & 15) as usize {
        let ff: raw::ForceField = record::read_at(&w, q)?;
        out.extend(ff.fields_at(i, idx));
        q += 32;
    }
    for i in 0..((flags >> 12) & 15) as usize {
        let r: Spanned<raw::ParticleResource> = record::read(&w, q, (version,))?;
        out.extend(r.fields_at(i, idx));
        q = r.span.end;
    }
    ends_at(q, end, "particle generator")?;
    Ok(out)
}

/// A gen-2 morph controller 0x1902 (docs/formats/ccsf-gen2.md#anime-and-frame-records): its targets, each with a weight
/// controller (field 0: absent, constant or keyed).
fn morph_controller(f: &mut Fb<'_, '_>, end: u64, limits: &Limits) -> Result<()> {
    let b = f.b;
    let m = anime::parse_morph_ctrl(&b, f.p, end, limits)?;
    for fl in m.head.fields_in(f.idx) {
        f.add(fl);
    }
    for (i, t) in m.targets.iter().enumerate() {
        for fl in t.head.fields_at(i, f.idx) {
            f.add(fl);
        }
        match &t.weight {
            CtrlValue::Absent => {}
            CtrlValue::Const(w) => {
                let x = w.first().copied().unwrap_or(0);
                f.add(
                    Field::new(format!("target[{i}].weight"), Span::at(t.head.flags.span.end, 4), Value::f32(x))
                        .note("constant"),
                );
            }
            CtrlValue::Keys(keys) => {
                f.add(Field::new(
                    format!("target[{i}].n"),
                    Span::at(t.head.flags.span.end, 4),
                    Value::dec(keys.len() as u64),
                ));
                for (k, (fr, words, s)) in keys.iter().enumerate() {
                    f.add(Field::new(
                        format!("target[{i}].key[{k}].frame"),
                        Span::at(s.start, 4),
                        Value::dec(u64::from(*fr)),
                    ));
                    let x = words.first().copied().unwrap_or(0);
                    f.add(Field::new(format!("target[{i}].key[{k}].weight"), Span::at(s.start + 4, 4), Value::f32(x)));
                }
            }
        }
    }
    f.p = m.end;
    Ok(())
}

/// Anime sub-records as children of the Anime node, grouped by Top.
fn records(f: &mut Fb<'_, '_>, recs: &[SubRecord], version: u16, limits: &Limits) -> Result<()> {
    let b = f.b;
    let anime = f.node;
    let mut group: Option<NodeId> = None;
    let mut seen = HashMap::new();
    for r in recs {
        let kname = kind_name(r.kind, true);
        let mut parent = anime;
        let key = if r.kind == 0xff01 {
            let n = r.top(&b).unwrap_or(0);
            if n >= 0xffff_fffe {
                group = None;
                format!("Top[{}]", n as i32)
            } else {
                let g = f.doc.add_node(
                    anime,
                    uniq_key(&mut seen, anime, format!("frame[{n}]")),
                    "frame",
                    Span::new(r.off, r.end),
                );
                group = Some(g);
                parent = g;
                format!("Top[{n}]")
            }
        } else {
            if let Some(g) = group {
                parent = g;
                if let Some(nd) = f.doc.node_mut(g) {
                    nd.span.end = r.end;
                }
            }
            let o = r.object(&b).filter(|_| first_word_is_object(r.kind)).map(|o| f.idx.name(o));
            match o {
                Some(o) => format!("{kname}[{o}]"),
                None => kname.to_string(),
            }
        };
        let key = uniq_key(&mut seen, parent, key);
        let id = f.doc.add_node(parent, key, kname, Span::new(r.off, r.end));
        let mut g = Fb { doc: &mut *f.doc, node: id, b: b.sub(r.off, r.end).unwrap_or(b), p: r.off, idx: f.idx };
        for fl in raw::ChunkHeader::at(r.off, r.kind, r.tag, r.size).fields_named(kname, false) {
            g.add(fl);
        }
        g.p = r.off + 8;
        let res = if r.kind == 0xff01 {
            // A Top the sub-stream ends inside ends the Anime's records (as it always has).
            g.plain_top()?;
            Ok(())
        } else {
            record(&mut g, r.kind, r.end, version, limits)
        };
        let at = g.p;
        match res {
            Ok(()) => {
                if at < r.end {
                    let s = Span::new(at, r.end);
                    let v = if r.kind == 0x0607 {
                        Value::unknown_bytes(s.len()).label("layout not documented")
                    } else {
                        Value::unknown_bytes(s.len())
                    };
                    f.doc.add_field(id, Field::new("payload", s, v).note("not decoded"));
                }
            }
            Err(e) => {
                f.doc.diag(Diagnostic::from_error(&e.within(format!("Anime > {kname} @0x{:x}", r.off))));
                let from = at.clamp(r.off + 8, r.end);
                if from < r.end {
                    f.doc.add_field(
                        id,
                        Field::new("unparsed", Span::new(from, r.end), Value::unknown_bytes(r.end - from)),
                    );
                }
            }
        }
    }
    Ok(())
}

impl Fb<'_, '_> {
    /// An Anime's Top: its ends are named as playback ends.
    fn plain_top(&mut self) -> Result<()> {
        let t: Spanned<raw::Top> = record::read_at(&self.b, self.p).map_err(|e| ParseError::new(e.offset, e.kind))?;
        if let Some(fl) = t.value.frame_field(true) {
            self.add(fl);
        }
        self.p = t.span.end;
        Ok(())
    }
}

fn ctrl_value(name: &str, w: u32, unit: &str) -> Value {
    if name == "colour" {
        raw::colour_value(w)
    } else if unit.is_empty() {
        Value::f32(w)
    } else {
        Value::f32(w).number(f64::from(f32::from_bits(w)), unit)
    }
}
