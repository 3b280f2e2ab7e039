use super::walk::{Walk, plain_node_step};
use super::{BitSpan, Diagnostic, IntervalIndex, Span, Value, WalkStep};
use compact_str::CompactString;
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// A format's builder of lazy nodes: opening a file builds the cheap skeleton (one node per
/// sequence, clip or chunk with its span, summary, diagnostics and walk step); the fields and
/// children of a node marked lazy ([`Document::add_lazy`]) are built by this when a consumer
/// asks ([`Document::expand`]), and can be dropped again ([`Document::collapse`],
/// [`Document::trim`]). Expanding must give the same fields and children every time.
pub trait Expand: Send + Sync {
    /// Build node `node`'s fields and children into `doc` (with `add_field`, `add_node`,
    /// `place`, `fill_gaps`). `token` is what the format gave [`Document::add_lazy`].
    /// Diagnostics and walk steps it records are discarded: the skeleton has them (except
    /// at the first expansion of a node marked [`Document::mark_unchecked`], whose
    /// diagnostics are kept: the skeleton left its findings to it).
    fn expand(&self, doc: &mut Document, node: NodeId, token: u64);

    /// The walk step of `node`, kept as its id ([`Walk::push_node`]), in words. None: the
    /// node's kind and key are shown.
    fn walk_step(&self, doc: &Document, node: NodeId) -> Option<WalkStep> {
        let _ = (doc, node);
        None
    }
}

/// A node's path as [`Document::path`] says it, written by `Display` ([`Document::path_display`]).
#[derive(Debug, Clone, Copy)]
pub struct PathDisplay<'a> {
    doc: &'a Document,
    id: NodeId,
}

impl std::fmt::Display for PathDisplay<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The keys from the node up, kept inline for the usual depths; a deeper chain
        // (hostile nesting) is written from [`Document::path`].
        const INLINE: usize = 32;
        let mut up: [Option<&Node>; INLINE] = [None; INLINE];
        let mut depth = 0usize;
        let mut cur = self.doc.node(self.id);
        while let Some(n) = cur {
            let Some(slot) = up.get_mut(depth) else { return f.write_str(&self.doc.path(self.id)) };
            *slot = Some(n);
            depth += 1;
            cur = n.parent.and_then(|p| self.doc.node(p));
        }
        for (i, n) in up.iter().take(depth).rev().flatten().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            f.write_str(&n.key)?;
        }
        Ok(())
    }
}

/// Adds fields to nodes as they are built, over what the format labels: the user layouts
/// ([`crate::layout`]). Called once for each node built: every node there is when it is
/// installed ([`Document::set_annotator`]), then each node an expansion builds.
pub trait Annotate: Send + Sync {
    /// Add `node`'s extra fields to `doc` (with [`Document::add_field`]).
    fn annotate(&self, doc: &mut Document, node: NodeId);
}

/// The note of every field a user layout adds, followed by the layout's name.
pub const USER_LAYOUT_NOTE: &str = "user layout";

/// Index of a node in its [`Document`] (`nodes[id.0]`). Node 0 is the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root node of every document.
    pub const ROOT: NodeId = NodeId(0);

    /// As a vector index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A named, typed value with the bytes it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Name as in the spec (`frame_count`, `kind`).
    pub name: String,
    /// Bytes the value was read from (for bit fields: the bytes its bits touch).
    pub span: Span,
    /// Exact bits, for bit-granular fields.
    pub bits: Option<BitSpan>,
    /// Raw value and meaning.
    pub value: Value,
    /// Notes: `size field distrusted`, `[I] inferred`, `unknown`.
    pub note: Option<String>,
}

impl Field {
    /// A field over `span`.
    pub fn new(name: impl Into<String>, span: Span, value: Value) -> Self {
        Field { name: name.into(), span, bits: None, value, note: None }
    }

    /// A bit-granular field.
    pub fn bits(name: impl Into<String>, bits: BitSpan, value: Value) -> Self {
        Field { name: name.into(), span: bits.byte_span(), bits: Some(bits), value, note: None }
    }

    /// True when a user layout added this field ([`USER_LAYOUT_NOTE`]).
    pub fn is_user_layout(&self) -> bool {
        self.note.as_deref().is_some_and(|n| n.starts_with(USER_LAYOUT_NOTE))
    }

    /// Attach a note.
    #[must_use]
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }
}

/// One structure in the tree: a chunk, clip, sequence, member, record.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// This node's id.
    pub id: NodeId,
    /// Parent (None for the root).
    pub parent: Option<NodeId>,
    /// Children in file order.
    pub children: Vec<NodeId>,
    /// Path segment, unique among siblings where possible (`Model[MDL_a]`, `clip[181]`).
    /// Up to 24 bytes are kept inline (no heap string per node).
    pub key: CompactString,
    /// What kind of structure (`Texture`, `clip`, `sequence`, `gzip member`, `unknown`).
    pub kind: CompactString,
    /// Short summary shown beside the key in the tree (`38 frames @60 Hz`).
    pub summary: CompactString,
    /// The bytes this node covers.
    pub span: Span,
    /// Its named fields.
    pub fields: Vec<Field>,
    /// Another node whose bytes this one shares on purpose (SC6 aliased clips, MOTN shared sequences).
    pub alias_of: Option<NodeId>,
    /// A nested source (archive member) the format can open; its number for `Format::member`.
    pub member: Option<u32>,
    /// A key the format's decoder understands (`clip:181`, `seq:NAME`), when the node carries animation.
    pub anim: Option<String>,
    /// Lazy nodes: the format's token for building the fields and children, and whether
    /// they are built now.
    lazy: Option<(u64, bool)>,
    /// False for the slot of a node that was dropped ([`Document::collapse`]).
    live: bool,
    /// The largest end of the children added so far: a node placed at or after it
    /// overlaps none of them (keeps placing a long run of children linear).
    children_end: u64,
    /// Offset lookup over this node's children and fields, built on first use and reset
    /// when they change (so building one node on demand does not rebuild every index).
    ix: NodeIndex,
}

/// A node's lookup indexes (not part of what a node is: clones and comparisons skip them).
/// Boxed on first lookup: most nodes are never looked into, and two inline `OnceLock`s
/// were a third of a node (an archive of 315,000 members holds one node per member).
#[derive(Default)]
struct NodeIndex(OnceLock<Box<Indexes>>);

/// The two lookups of a node, each built on first use.
#[derive(Default)]
struct Indexes {
    children: OnceLock<Option<IntervalIndex>>,
    fields: OnceLock<Option<IntervalIndex>>,
}

impl NodeIndex {
    fn reset(&mut self) {
        *self = NodeIndex::default();
    }

    fn get(&self) -> &Indexes {
        self.0.get_or_init(Box::default)
    }

    fn reset_children(&mut self) {
        if let Some(ix) = self.0.get_mut() {
            ix.children = OnceLock::new();
        }
    }

    fn reset_fields(&mut self) {
        if let Some(ix) = self.0.get_mut() {
            ix.fields = OnceLock::new();
        }
    }

    #[cfg(test)]
    fn is_built(&self) -> bool {
        self.0.get().is_some_and(|ix| ix.children.get().is_some() || ix.fields.get().is_some())
    }
}

impl Clone for NodeIndex {
    fn clone(&self) -> Self {
        NodeIndex::default()
    }
}

impl PartialEq for NodeIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for NodeIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NodeIndex")
    }
}

impl Node {
    /// True when this node's fields and children are not built yet ([`Document::expand`]).
    pub fn is_pending(&self) -> bool {
        matches!(self.lazy, Some((_, false)))
    }

    /// True when this node is built on demand (pending or expanded).
    pub fn is_lazy(&self) -> bool {
        self.lazy.is_some()
    }

    /// The token this node is built with on demand ([`Document::add_lazy`]), pending or
    /// expanded: what the format's [`Expand::walk_step`] says a step kept as it from.
    pub fn lazy_token(&self) -> Option<u64> {
        self.lazy.map(|(token, _)| token)
    }

    fn blank(id: NodeId, parent: Option<NodeId>, key: CompactString, kind: CompactString, span: Span) -> Node {
        Node {
            id,
            parent,
            children: Vec::new(),
            key,
            kind,
            summary: CompactString::default(),
            span,
            fields: Vec::new(),
            alias_of: None,
            member: None,
            anim: None,
            lazy: None,
            live: true,
            children_end: 0,
            ix: NodeIndex::default(),
        }
    }
}

/// A parsed file as the consumers see it: a tree of nodes with byte spans, diagnostics and
/// the walk trace.
#[derive(Debug)]
pub struct Document {
    /// Format id (`raw`, `sc6`, `motn`, `ccsf`, `gzarc`, ...).
    pub format: &'static str,
    /// Name of the bytes (file or member name).
    pub name: String,
    /// Length of the bytes the spans refer to.
    pub len: u64,
    /// All nodes; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
    /// Findings in file order of discovery.
    pub diagnostics: Vec<Diagnostic>,
    /// The walker's decisions, in order (read them with [`Document::walk_step`]).
    pub walk: Walk,
    expander: Option<Arc<dyn Expand>>,
    /// What adds the user layouts' fields to each node built.
    annotator: Option<Arc<dyn Annotate>>,
    /// Slots of dropped nodes, reused by the next `add_node`.
    free: Vec<u32>,
    /// Expanded lazy nodes, oldest first, with the fields each expansion added.
    expanded: Vec<(NodeId, usize)>,
    /// The memory budget: what its nodes and fields may take, what they take now, and the
    /// first overrun (see [`Document::budget_exceeded`]).
    budget: Budget,
    /// Pending nodes whose findings are not known yet ([`Document::mark_unchecked`]), by
    /// index, ascending.
    unchecked: Vec<u32>,
}

/// A document's memory budget ([`crate::limits::Limits::max_memory`]): an estimate of the
/// bytes its retained nodes and fields hold, drawn by every `add_node`/`add_field` and
/// given back when an expansion is dropped.
#[derive(Debug, Clone, Copy, Default)]
struct Budget {
    max: u64,
    retained: u64,
    /// Set at the first add that did not fit: (bytes it would have taken, offset of the
    /// structure being built). Everything added after it is dropped.
    exceeded: Option<(u64, u64)>,
}

/// The budget ran out: what would have been retained, the budget, and the byte offset of
/// the structure being built when it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// Estimated bytes the document would have held.
    pub needed: u64,
    /// The budget ([`crate::limits::Limits::max_memory`]).
    pub max: u64,
    /// Offset of the structure being built.
    pub offset: u64,
}

impl BudgetExceeded {
    /// As a parse error at the structure being built ([`crate::error::ErrorKind::MemoryBudget`]).
    pub fn error(&self) -> crate::error::ParseError {
        crate::error::ParseError::new(
            self.offset,
            crate::error::ErrorKind::MemoryBudget { needed: self.needed, max: self.max },
        )
    }
}

/// Estimated heap and inline bytes of one node (without its fields): the struct, its
/// strings and its slot in the parent's child list.
fn node_cost(key: &str, kind: &str) -> u64 {
    (std::mem::size_of::<Node>() + key.len() + kind.len() + 4 + 32) as u64
}

/// Estimated bytes of one field: the struct and the heap behind its strings.
fn field_cost(f: &Field) -> u64 {
    use super::{Meaning, Raw};
    let raw = match &f.value.raw {
        Raw::Text(b) => b.len(),
        Raw::Derived(s) => s.len(),
        _ => 0,
    };
    let meaning = match &f.value.meaning {
        Some(Meaning::Label(s) | Meaning::Ref(s)) => s.len(),
        Some(Meaning::Number { unit, .. }) => unit.len(),
        Some(Meaning::Flags(v)) => v.iter().map(|s| s.len() + 24).sum(),
        _ => 0,
    };
    (std::mem::size_of::<Field>() + f.name.len() + f.note.as_ref().map_or(0, String::len) + raw + meaning + 16) as u64
}

impl std::fmt::Debug for dyn Annotate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Annotate")
    }
}

impl std::fmt::Debug for dyn Expand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Expand")
    }
}

/// A copy of the document; the lookup index is not copied (it is rebuilt on first use).
impl Clone for Document {
    fn clone(&self) -> Self {
        Document {
            format: self.format,
            name: self.name.clone(),
            len: self.len,
            nodes: self.nodes.clone(),
            diagnostics: self.diagnostics.clone(),
            walk: self.walk.clone(),
            expander: self.expander.clone(),
            annotator: self.annotator.clone(),
            free: self.free.clone(),
            expanded: self.expanded.clone(),
            budget: self.budget,
            unchecked: self.unchecked.clone(),
        }
    }
}

/// Key of the dead slot that stands for nodes past the budget.
const OVERFLOW_KEY: &str = "\u{0}over budget";

fn sanitize_key(key: &str) -> CompactString {
    if key.contains('/') { key.replace('/', "\\x2f").into() } else { key.into() }
}

impl Document {
    /// A document with one root node covering `0..len`, whose memory budget is
    /// `limits.max_memory` (the limits its command was given, passed down from the open:
    /// no process-wide value is read here).
    pub fn new(
        format: &'static str,
        name: impl Into<String>,
        kind: impl Into<CompactString>,
        len: u64,
        limits: &crate::limits::Limits,
    ) -> Self {
        let name = name.into();
        let root = Node::blank(NodeId::ROOT, None, sanitize_key(&name), kind.into(), Span::new(0, len));
        let max = limits.max_memory;
        let budget = Budget { max, retained: node_cost(&root.key, &root.kind), exceeded: None };
        Document {
            format,
            name,
            len,
            nodes: vec![root],
            diagnostics: Vec::new(),
            walk: Walk::default(),
            expander: None,
            annotator: None,
            free: Vec::new(),
            expanded: Vec::new(),
            budget,
            unchecked: Vec::new(),
        }
    }

    /// Mark the pending node `id` as not checked yet: the skeleton did not read what its
    /// findings come from (a MOTN sequence's blocks). Its first expansion keeps the
    /// diagnostics it records (later ones drop them, as for every node), and until then
    /// [`Document::unchecked_count`] counts it, so no one reads the diagnostics as complete.
    pub fn mark_unchecked(&mut self, id: NodeId) {
        if let Err(at) = self.unchecked.binary_search(&id.0) {
            self.unchecked.insert(at, id.0);
        }
    }

    /// Nodes whose findings are not in [`Document::diagnostics`] yet (0: the diagnostics
    /// are every finding of the document; `check` reads everything).
    pub fn unchecked_count(&self) -> usize {
        self.unchecked.len()
    }

    /// Give back `cost` drawn with [`Document::retain`] for bytes held only while an
    /// expansion builds (a copy of the spans it reads).
    pub fn release(&mut self, cost: u64) {
        self.budget.retained = self.budget.retained.saturating_sub(cost);
    }

    /// Set this document's memory budget (normally [`crate::limits::Limits::max_memory`],
    /// which [`Document::new`] is given).
    pub fn set_memory_budget(&mut self, max: u64) {
        self.budget.max = max;
    }

    /// Estimated bytes the document's nodes and fields hold now.
    pub fn retained_bytes(&self) -> u64 {
        self.budget.retained
    }

    /// The first time the memory budget ran out, if it did. From then on the document
    /// drops every node and field added (they come back as dead ids): consumers treat it as
    /// an error ([`BudgetExceeded`]'s message names the budget and `--limit memory=…`).
    pub fn budget_exceeded(&self) -> Option<BudgetExceeded> {
        self.budget.exceeded.map(|(needed, offset)| BudgetExceeded { needed, max: self.budget.max, offset })
    }

    /// Bytes the memory budget has left (none once it ran out): what a read made for a
    /// shown document, which cannot draw on its budget, may hold at once.
    pub fn headroom(&self) -> u64 {
        match self.budget.exceeded {
            Some(_) => 0,
            None => self.budget.max.saturating_sub(self.budget.retained),
        }
    }

    /// Draw `cost` bytes the document needs beside its nodes for its life (a copy its
    /// format reads from) from the budget, as an add does: false, and the overrun recorded
    /// at `offset`, when they do not fit.
    pub fn retain(&mut self, cost: u64, offset: u64) -> bool {
        self.draw(cost, offset)
    }

    /// Draw `cost` bytes held beside the document for its life (a cache its format keeps,
    /// such as decoded models) from the budget: true when they fit. What does not fit is
    /// not an overrun: the caller drops it and computes it again when it is wanted.
    pub fn retain_extra(&mut self, cost: u64, _offset: u64) -> bool {
        if self.budget.exceeded.is_some() {
            return false;
        }
        match self.budget.retained.checked_add(cost) {
            Some(after) if after <= self.budget.max => {
                self.budget.retained = after;
                true
            }
            _ => false,
        }
    }

    /// Draw `cost` from the budget; false (and the overrun recorded) when it does not fit.
    fn draw(&mut self, cost: u64, offset: u64) -> bool {
        if self.budget.exceeded.is_some() {
            return false;
        }
        let after = self.budget.retained.saturating_add(cost);
        if after > self.budget.max {
            self.budget.exceeded = Some((after, offset));
            return false;
        }
        self.budget.retained = after;
        true
    }

    /// A dead id for a node that did not fit the budget: it is never live, so lookups miss
    /// it and adds below it are dropped too.
    fn overflow_node(&mut self) -> NodeId {
        if let Some(n) = self.nodes.last().filter(|n| !n.live && n.key == OVERFLOW_KEY) {
            return n.id;
        }
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        let mut n = Node::blank(id, None, OVERFLOW_KEY.into(), CompactString::default(), Span::default());
        n.live = false;
        self.nodes.push(n);
        id
    }

    /// Add a child of `parent` and return its id. Keys containing `/` are escaped.
    pub fn add_node(
        &mut self,
        parent: NodeId,
        key: impl AsRef<str>,
        kind: impl Into<CompactString>,
        span: Span,
    ) -> NodeId {
        let key = sanitize_key(key.as_ref());
        let kind = kind.into();
        if self.node(parent).is_none() || !self.draw(node_cost(&key, &kind), span.start) {
            return self.overflow_node();
        }
        let id = match self.free.pop() {
            Some(slot) => {
                let id = NodeId(slot);
                if let Some(n) = self.nodes.get_mut(id.index()) {
                    *n = Node::blank(id, Some(parent), key, kind, span);
                }
                id
            }
            None => {
                let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
                self.nodes.push(Node::blank(id, Some(parent), key, kind, span));
                id
            }
        };
        if let Some(p) = self.nodes.get_mut(parent.index()) {
            p.children_end = p.children_end.max(span.end);
            p.children.push(id);
            p.ix.reset_children();
        }
        id
    }

    /// Add a field to `node`.
    pub fn add_field(&mut self, node: NodeId, field: Field) {
        if self.node(node).is_none() || !self.draw(field_cost(&field), field.span.start) {
            return;
        }
        if let Some(n) = self.nodes.get_mut(node.index()) {
            n.fields.push(field);
            n.ix.reset_fields();
        }
    }

    /// Drop the fields of `node` that `drop` picks (the layout builder's preview, redone as
    /// the layout changes), giving back what they cost.
    pub fn remove_fields(&mut self, node: NodeId, drop: impl Fn(&Field) -> bool) {
        let Some(n) = self.nodes.get_mut(node.index()) else { return };
        let before = n.fields.len();
        let mut freed = 0;
        n.fields.retain(|f| {
            let gone = drop(f);
            if gone {
                freed += field_cost(f);
            }
            !gone
        });
        if n.fields.len() != before {
            n.ix.reset_fields();
        }
        self.budget.retained = self.budget.retained.saturating_sub(freed);
    }

    /// Record a diagnostic.
    pub fn diag(&mut self, d: Diagnostic) {
        // Findings are retained too: a hostile file can make one per structure pair.
        let cost = (std::mem::size_of::<Diagnostic>() + d.path.len() + d.message.len()) as u64;
        if self.draw(cost, d.offset.unwrap_or(0)) {
            self.diagnostics.push(d);
        }
    }

    /// The node with `id`, if it exists.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index()).filter(|n| n.live)
    }

    /// Mutable access to a node.
    pub fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        // Its span, children or fields may change: so may its and its parent's lookups.
        let parent = self.nodes.get(id.index()).and_then(|n| n.parent);
        if let Some(p) = parent.and_then(|p| self.nodes.get_mut(p.index())) {
            p.ix.reset_children();
        }
        let n = self.nodes.get_mut(id.index()).filter(|n| n.live)?;
        n.ix.reset();
        Some(n)
    }

    /// The largest end of `id`'s children's spans (0 without children): a span starting
    /// at or after it overlaps none of them.
    pub fn children_end(&self, id: NodeId) -> u64 {
        self.node(id).map_or(0, |n| if n.children.is_empty() { 0 } else { n.children_end })
    }

    /// Every node that exists now (dropped slots skipped), in slot order.
    pub fn live_nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.live)
    }

    /// Number of nodes that exist now.
    pub fn node_count(&self) -> usize {
        self.nodes.len() - self.free.len()
    }

    /// Number of lazy nodes whose fields and children are not built.
    pub fn pending_count(&self) -> usize {
        self.live_nodes().filter(|n| n.is_pending()).count()
    }

    /// Install `annotator`: it labels every node built now (pending ones when they are
    /// expanded) and each node built from now on.
    pub fn set_annotator(&mut self, annotator: Arc<dyn Annotate>) {
        self.annotator = Some(Arc::clone(&annotator));
        let built: Vec<NodeId> = self.nodes.iter().filter(|n| n.live && !n.is_pending()).map(|n| n.id).collect();
        for id in built {
            annotator.annotate(self, id);
        }
    }

    /// Set the builder of this document's lazy nodes.
    pub fn set_expander(&mut self, expander: Arc<dyn Expand>) {
        self.expander = Some(expander);
    }

    /// True when lazy nodes can be built ([`Document::set_expander`] was called): a format
    /// that adds nodes later (an archive's listing) makes them lazy then.
    pub fn has_expander(&self) -> bool {
        self.expander.is_some()
    }

    /// Walk step `i`, in words (a step kept as its node is said by the format's
    /// [`Expand::walk_step`] now).
    pub fn walk_step(&self, i: usize) -> Option<Cow<'_, WalkStep>> {
        match self.walk.entry(i)? {
            Ok(s) => Some(Cow::Borrowed(s)),
            Err(id) => {
                let said = self.expander.as_ref().and_then(|e| e.walk_step(self, id));
                let n = self.node(id);
                Some(Cow::Owned(said.unwrap_or_else(|| {
                    let (kind, key, span) =
                        n.map_or(("", "", Span::default()), |n| (n.kind.as_str(), n.key.as_str(), n.span));
                    plain_node_step(id, kind, key, span, self.len)
                })))
            }
        }
    }

    /// The bytes walk step `i` read, without putting it into words.
    pub fn walk_span(&self, i: usize) -> Option<Span> {
        match self.walk.entry(i)? {
            Ok(s) => Some(s.span),
            Err(id) => Some(self.node(id).map_or_else(Span::default, |n| n.span)),
        }
    }

    /// The node walk step `i` produced, without putting it into words.
    pub fn walk_node(&self, i: usize) -> Option<NodeId> {
        match self.walk.entry(i)? {
            Ok(s) => s.node,
            Err(id) => Some(id),
        }
    }

    /// Every walk step in order, in words ([`Document::walk_step`]).
    pub fn walk_steps(&self) -> impl Iterator<Item = Cow<'_, WalkStep>> {
        (0..self.walk.len()).filter_map(|i| self.walk_step(i))
    }

    /// Mark `id` (a node without fields or children yet) as built on demand with `token`.
    pub fn add_lazy(&mut self, id: NodeId, token: u64) {
        if let Some(n) = self.nodes.get_mut(id.index()) {
            n.lazy = Some((token, false));
        }
    }

    /// Build a pending node's fields and children. True when something was built.
    pub fn expand(&mut self, id: NodeId) -> bool {
        let Some((token, false)) = self.node(id).and_then(|n| n.lazy) else { return false };
        let Some(expander) = self.expander.clone() else { return false };
        let (diags, walk) = (self.diagnostics.len(), self.walk.len());
        // the first expansion of an unchecked node is where its findings are found
        let checking = match self.unchecked.binary_search(&id.0) {
            Ok(at) => {
                self.unchecked.remove(at);
                true
            }
            Err(_) => false,
        };
        if let Some(n) = self.nodes.get_mut(id.index()) {
            n.lazy = Some((token, true));
        }
        expander.expand(self, id, token);
        if let Some(annotator) = self.annotator.clone() {
            // the node and what its expansion built (its pending children wait for theirs)
            let mut stack = vec![id];
            while let Some(n) = stack.pop() {
                let Some(node) = self.node(n) else { continue };
                if node.is_pending() {
                    continue;
                }
                stack.extend(node.children.iter().copied());
                annotator.annotate(self, n);
            }
        }
        if !checking {
            self.diagnostics.truncate(diags);
        }
        self.walk.truncate(walk);
        let added = self.subtree_fields(id);
        self.expanded.push((id, added));
        true
    }

    /// Expand every pending node on the way to the innermost node at `offset`, and return it.
    pub fn expand_to(&mut self, offset: u64) -> Option<NodeId> {
        for _ in 0..=self.nodes.len() {
            let id = self.node_at(offset)?;
            if !self.expand(id) {
                return Some(id);
            }
        }
        self.node_at(offset)
    }

    /// Expand every pending node overlapping `span` (what a hex window shows).
    pub fn expand_span(&mut self, span: Span) {
        let mut stack = vec![NodeId::ROOT];
        let mut guard = 0usize;
        while let Some(id) = stack.pop() {
            guard += 1;
            if guard > self.nodes.len() + 1 {
                break;
            }
            self.expand(id);
            let Some(n) = self.node(id) else { continue };
            stack.extend(n.children.iter().copied().filter(|c| {
                self.node(*c)
                    .is_some_and(|k| k.span.overlaps(&span) || (k.span.is_empty() && span.contains(k.span.start)))
            }));
        }
    }

    /// Expand every pending node (and the ones their expansion adds): the whole document.
    pub fn expand_all(&mut self) {
        let mut i = 0;
        while i < self.nodes.len() {
            self.expand(NodeId(u32::try_from(i).unwrap_or(u32::MAX)));
            i += 1;
        }
    }

    /// Expand `id` if pending and every lazy node below it (for a dump of that subtree).
    pub fn expand_subtree(&mut self, id: NodeId) {
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            self.expand(id);
            if let Some(n) = self.node(id) {
                stack.extend(n.children.iter().copied());
            }
        }
    }

    /// Drop what expanding `id` built (its fields and descendants); it becomes pending
    /// again. Nodes of other expansions below it are dropped too. False when `id` is not an
    /// expanded lazy node.
    pub fn collapse(&mut self, id: NodeId) -> bool {
        let Some((token, true)) = self.node(id).and_then(|n| n.lazy) else { return false };
        let mut below = Vec::new();
        let mut stack: Vec<NodeId> = self.node(id).map(|n| n.children.clone()).unwrap_or_default();
        while let Some(c) = stack.pop() {
            if let Some(n) = self.node(c) {
                stack.extend(n.children.iter().copied());
                below.push(c);
            }
        }
        // What the expansion drew from the budget comes back.
        let cost = |n: &Node| n.fields.iter().map(field_cost).sum::<u64>();
        let freed: u64 =
            below.iter().filter_map(|c| self.node(*c)).map(|n| node_cost(&n.key, &n.kind) + cost(n)).sum::<u64>()
                + self.node(id).map_or(0, cost);
        self.budget.retained = self.budget.retained.saturating_sub(freed);
        if let Some(n) = self.nodes.get_mut(id.index()) {
            n.ix.reset();
            n.children = Vec::new();
            n.children_end = 0;
            n.fields = Vec::new();
            n.lazy = Some((token, false));
        }
        below.sort_unstable();
        self.expanded.retain(|(e, _)| *e != id && below.binary_search(e).is_err());
        // The newest expansion sits at the end of the arena: give its slots back by
        // shortening it, so streaming verbs leave no dropped slots behind.
        while let Some(&last) = below.last() {
            if last.index() + 1 != self.nodes.len() {
                break;
            }
            below.pop();
            self.nodes.pop();
        }
        let len = self.nodes.len();
        self.free.retain(|&s| (s as usize) < len);
        for c in below {
            if let Some(n) = self.nodes.get_mut(c.index()) {
                *n = Node::blank(c, None, CompactString::default(), CompactString::default(), Span::default());
                n.live = false;
                self.free.push(c.0);
            }
        }
        true
    }

    /// Drop the oldest expansions until the fields built by expansions number at most
    /// `max_fields`. An expansion stays when `keep` is true for its node or for one of
    /// that node's ancestors (what is on screen keeps everything inside it).
    pub fn trim(&mut self, max_fields: usize, keep: &dyn Fn(NodeId) -> bool) {
        let mut i = 0;
        while self.expanded_fields() > max_fields && i < self.expanded.len() {
            let Some(&(id, _)) = self.expanded.get(i) else { break };
            if self.kept(id, keep) {
                i += 1;
                continue;
            }
            // removes this entry and those of expansions below it
            self.collapse(id);
        }
    }

    fn kept(&self, id: NodeId, keep: &dyn Fn(NodeId) -> bool) -> bool {
        let mut cur = Some(id);
        let mut guard = 0usize;
        while let Some(c) = cur {
            if keep(c) {
                return true;
            }
            guard += 1;
            if guard > self.nodes.len() {
                break;
            }
            cur = self.node(c).and_then(|n| n.parent);
        }
        false
    }

    /// Fields of `id` and everything below it.
    fn subtree_fields(&self, id: NodeId) -> usize {
        let mut fields = 0usize;
        let mut stack = vec![id];
        while let Some(c) = stack.pop() {
            if let Some(n) = self.node(c) {
                fields += n.fields.len();
                stack.extend(n.children.iter().copied());
            }
        }
        fields
    }

    /// Fields built by expansions that are still kept.
    pub fn expanded_fields(&self) -> usize {
        self.expanded.iter().map(|(_, f)| f).sum()
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        // nodes[0] always exists: `new` creates it and nothing removes nodes.
        #[allow(clippy::indexing_slicing)]
        &self.nodes[0]
    }

    /// Total number of fields over all nodes built now.
    pub fn field_count(&self) -> usize {
        self.nodes.iter().map(|n| n.fields.len()).sum()
    }

    /// [`Document::path`] written where it is displayed, without making the string (a
    /// `tree --json` line per node): the keys are written from the root down.
    pub fn path_display(&self, id: NodeId) -> PathDisplay<'_> {
        PathDisplay { doc: self, id }
    }

    /// Stable path of a node: keys from the root joined by `/`.
    pub fn path(&self, id: NodeId) -> String {
        let mut parts = Vec::new();
        let mut cur = self.node(id);
        let mut guard = 0usize;
        while let Some(n) = cur {
            parts.push(n.key.as_str());
            cur = n.parent.and_then(|p| self.node(p));
            guard += 1;
            if guard > self.nodes.len() {
                break;
            }
        }
        parts.reverse();
        parts.join("/")
    }

    /// Find a node by path. The root key may be given or left out; a segment matches a
    /// child's key exactly, or (when unique) a child whose key starts with `segment[`.
    /// Pending nodes on the way are not expanded (see [`Document::find_path_expanding`]).
    pub fn find_path(&self, path: &str) -> Option<NodeId> {
        let mut cur = NodeId::ROOT;
        for seg in self.path_segments(path) {
            cur = self.child_by_key(cur, seg)?;
        }
        Some(cur)
    }

    /// [`Document::find_path`], expanding every pending node on the way and the one found.
    pub fn find_path_expanding(&mut self, path: &str) -> Option<NodeId> {
        let segs: Vec<String> = self.path_segments(path).into_iter().map(str::to_string).collect();
        let mut cur = NodeId::ROOT;
        for seg in &segs {
            self.expand(cur);
            cur = self.child_by_key(cur, seg)?;
        }
        self.expand(cur);
        Some(cur)
    }

    fn path_segments<'a>(&self, path: &'a str) -> Vec<&'a str> {
        let path = path.trim_matches('/');
        let mut segs: Vec<&str> = if path.is_empty() { Vec::new() } else { path.split('/').collect() };
        if segs.first() == Some(&self.root().key.as_str()) {
            segs.remove(0);
        }
        segs
    }

    fn child_by_key(&self, parent: NodeId, seg: &str) -> Option<NodeId> {
        let node = self.node(parent)?;
        let exact = node.children.iter().copied().find(|c| self.node(*c).is_some_and(|n| n.key == seg));
        if exact.is_some() {
            return exact;
        }
        let mut it = node.children.iter().copied().filter(|c| {
            self.node(*c).is_some_and(|n| {
                n.key.eq_ignore_ascii_case(seg) || n.key.strip_prefix(seg).is_some_and(|rest| rest.starts_with('['))
            })
        });
        let first = it.next()?;
        if it.next().is_some() {
            return None;
        }
        Some(first)
    }

    fn child_index<'a>(&self, n: &'a Node) -> Option<&'a IntervalIndex> {
        n.ix.get()
            .children
            .get_or_init(|| {
                let spans: Vec<Span> = n.children.iter().filter_map(|c| self.node(*c).map(|c| c.span)).collect();
                (!spans.is_empty()).then(|| IntervalIndex::new(&spans))
            })
            .as_ref()
    }

    fn field_index<'a>(&self, n: &'a Node) -> Option<&'a IntervalIndex> {
        n.ix.get()
            .fields
            .get_or_init(|| {
                let spans: Vec<Span> = n.fields.iter().map(|f| f.span).collect();
                (!spans.is_empty()).then(|| IntervalIndex::new(&spans))
            })
            .as_ref()
    }

    /// The innermost node containing `offset`: descend from the root into the narrowest
    /// child containing it. None when the offset is outside the root.
    pub fn node_at(&self, offset: u64) -> Option<NodeId> {
        let mut cur = self.root();
        if !cur.span.contains(offset) {
            return None;
        }
        for _ in 0..self.nodes.len() {
            let next = self
                .child_index(cur)
                .and_then(|ix| ix.innermost(offset))
                .and_then(|i| cur.children.get(i as usize))
                .and_then(|c| self.node(*c));
            match next {
                Some(n) => cur = n,
                None => break,
            }
        }
        Some(cur.id)
    }

    /// The innermost field containing `offset`: the narrowest field of the innermost node,
    /// else of its nearest ancestor that has one there. Returns (node, field index).
    pub fn field_at(&self, offset: u64) -> Option<(NodeId, usize)> {
        let mut cur = self.node_at(offset).and_then(|id| self.node(id));
        for _ in 0..self.nodes.len() {
            let n = cur?;
            if let Some(i) = self.field_index(n).and_then(|ix| ix.innermost(offset)) {
                return Some((n.id, i as usize));
            }
            cur = n.parent.and_then(|p| self.node(p));
        }
        None
    }

    /// Check the span contract: every span inside the data, children inside parents,
    /// fields inside their node, siblings not overlapping unless one is an alias of the
    /// other or a diagnostic sits at the start of the overlap. Returns every problem found.
    pub fn validate(&self) -> Result<(), Vec<String>> {
        let mut problems = Vec::new();
        for n in self.live_nodes() {
            let path = || self.path(n.id);
            if n.span.end > self.len || n.span.start > n.span.end {
                problems.push(format!("{}: span {} outside data 0x0..0x{:x}", path(), n.span, self.len));
            }
            if let Some(p) = n.parent.and_then(|p| self.node(p)) {
                if !p.span.covers(&n.span) {
                    problems.push(format!("{}: span {} outside parent span {}", path(), n.span, p.span));
                }
                if !p.children.contains(&n.id) {
                    problems.push(format!("{}: not listed among its parent's children", path()));
                }
            } else if n.id != NodeId::ROOT {
                problems.push(format!("{}: has no parent", path()));
            }
            for f in &n.fields {
                if !n.span.covers(&f.span) {
                    problems.push(format!("{}: field {} span {} outside node span {}", path(), f.name, f.span, n.span));
                }
            }
            let mut kids: Vec<&Node> = n.children.iter().filter_map(|c| self.node(*c)).collect();
            kids.sort_by_key(|k| (k.span.start, k.id));
            let mut widest: Option<&Node> = None;
            for k in kids {
                if let Some(w) = widest
                    && w.span.overlaps(&k.span)
                    && !self.overlap_explained(w, k)
                {
                    problems.push(format!(
                        "{}: span {} overlaps sibling {} {} with no alias or diagnostic",
                        self.path(k.id),
                        k.span,
                        w.key,
                        w.span
                    ));
                }
                if widest.is_none_or(|w| k.span.end > w.span.end) {
                    widest = Some(k);
                }
            }
        }
        if problems.is_empty() { Ok(()) } else { Err(problems) }
    }

    fn overlap_explained(&self, a: &Node, b: &Node) -> bool {
        if a.alias_of == Some(b.id) || b.alias_of == Some(a.id) || (a.alias_of.is_some() && a.alias_of == b.alias_of) {
            return true;
        }
        let overlap = Span::new(a.span.start.max(b.span.start), a.span.end.min(b.span.end));
        // `build::placement` names a node's first few overlaps at their starts and then
        // counts the rest in one finding on that node, recording the bytes they cover.
        self.diagnostics.iter().any(|d| {
            d.offset == Some(overlap.start)
                || ((d.path == a.key || d.path == b.key) && d.counted_overlaps.is_some_and(|c| c.covers(&overlap)))
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sample() -> Document {
        let mut d = Document::new("raw", "f.bin", "file", 0x100, &crate::limits::Limits::default());
        let h = d.add_node(NodeId::ROOT, "header", "Header", Span::new(0, 0x10));
        d.add_field(h, Field::new("magic", Span::at(0, 4), Value::uint(1, 4)));
        d.add_field(h, Field::new("count", Span::at(4, 4), Value::dec(2)));
        let c = d.add_node(NodeId::ROOT, "clip[0]", "clip", Span::new(0x10, 0x80));
        d.add_node(c, "group[0]", "group", Span::new(0x20, 0x40));
        d
    }

    /// A clone answers lookups like the original, the original's built index not copied.
    #[test]
    fn clone_keeps_everything_but_the_built_index() {
        let d = sample();
        let _ = d.field_at(0); // build the original's index first
        let c = d.clone();
        assert!(c.nodes.iter().all(|n| !n.ix.is_built()));
        assert_eq!((c.format, &c.name, c.len, c.nodes.len()), (d.format, &d.name, d.len, d.nodes.len()));
        for off in 0..0x100 {
            assert_eq!(c.node_at(off), d.node_at(off), "node at {off}");
            assert_eq!(c.field_at(off), d.field_at(off), "field at {off}");
        }
    }

    #[test]
    fn paths_round_trip() {
        let d = sample();
        for n in &d.nodes {
            assert_eq!(d.find_path(&d.path(n.id)), Some(n.id));
        }
        assert_eq!(d.find_path("clip/group[0]"), Some(NodeId(3)));
        assert_eq!(d.path(NodeId(3)), "f.bin/clip[0]/group[0]");
    }

    #[test]
    fn lookup_finds_innermost() {
        let d = sample();
        assert_eq!(d.node_at(0x25), Some(NodeId(3)));
        assert_eq!(d.node_at(0x90), Some(NodeId::ROOT));
        assert_eq!(d.node_at(0x100), None);
        assert_eq!(d.field_at(5), Some((NodeId(1), 1)));
        assert_eq!(d.field_at(0x25), None);
    }

    #[test]
    fn validate_rejects_child_outside_parent() {
        let mut d = sample();
        assert_eq!(d.validate(), Ok(()));
        d.add_node(NodeId(2), "bad", "x", Span::new(0x70, 0x90));
        let errs = d.validate().unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].contains("outside parent span 0x10..0x80"), "{errs:?}");
    }

    #[test]
    fn validate_rejects_unexplained_overlap_and_field_outside() {
        let mut d = sample();
        d.add_node(NodeId::ROOT, "other", "x", Span::new(0x70, 0x90));
        d.add_field(NodeId(1), Field::new("spill", Span::new(0xc, 0x14), Value::dec(0)));
        let errs = d.validate().unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
        d.diag(Diagnostic::new(super::super::Severity::Info, Some(0x70), "", "shared on purpose"));
        assert_eq!(d.validate().unwrap_err().len(), 1);
    }

    /// The path written by `path_display` is `path`'s string, for shallow nodes (kept
    /// inline) and for a chain deeper than the inline keys (written from `path`).
    #[test]
    fn path_display_writes_the_path() {
        let mut d = sample();
        let mut cur = NodeId::ROOT;
        let mut chain = Vec::new();
        for i in 0..40u64 {
            cur = d.add_node(cur, format!("n{i}"), "x", Span::new(0x40 + i, 0x100));
            chain.push(cur);
        }
        let all: Vec<NodeId> = d.live_nodes().map(|n| n.id).collect();
        for id in all.into_iter().chain(chain) {
            assert_eq!(d.path_display(id).to_string(), d.path(id));
        }
        assert_eq!(d.path_display(NodeId(2)).to_string(), "f.bin/clip[0]");
    }

    /// A counted-overlaps finding explains the overlaps of its node inside the bytes it
    /// records, by that span and not by its words: the same words with no span, or a span
    /// that misses the overlap, explain nothing.
    #[test]
    fn counted_overlaps_explain_by_their_span() {
        use super::super::Severity::Info;
        let mut d = sample();
        d.add_node(NodeId::ROOT, "other", "x", Span::new(0x70, 0x90));
        let problems = |d: &Document| d.validate().map_err(|e| e.len());
        assert_eq!(problems(&d), Err(1));
        let words = || Diagnostic::new(Info, Some(0x10), "other", "overlaps 3 more siblings");
        d.diag(words());
        assert_eq!(problems(&d), Err(1), "words alone explain nothing");
        d.diag(words().counting_overlaps(Span::new(0x78, 0x80)));
        assert_eq!(problems(&d), Err(1), "a span that misses part of the overlap");
        d.diag(words().counting_overlaps(Span::new(0x70, 0x80)));
        assert_eq!(problems(&d), Ok(()));
    }

    /// Random nested trees: node_at/field_at agree with a naive scan of every node.
    fn naive_node_at(d: &Document, off: u64) -> Option<NodeId> {
        let root = d.root();
        if !root.span.contains(off) {
            return None;
        }
        let mut cur = root;
        loop {
            let next = cur
                .children
                .iter()
                .map(|c| &d.nodes[c.index()])
                .filter(|c| c.span.contains(off))
                .enumerate()
                .min_by_key(|(i, c)| (c.span.len(), *i));
            match next {
                Some((_, n)) => cur = n,
                None => return Some(cur.id),
            }
        }
    }

    fn build(splits: &[(u8, u8)]) -> Document {
        // Each entry subdivides a random existing node into a child covering part of it.
        let mut d = Document::new("raw", "t", "file", 1000, &crate::limits::Limits::default());
        for &(pick, frac) in splits {
            let p = NodeId(u32::from(pick) % d.nodes.len() as u32);
            let ps = d.nodes[p.index()].span;
            let len = ps.len() * u64::from(frac % 100) / 100;
            let start = ps.start + (ps.len() - len) * u64::from(pick % 7) / 7;
            let id = d.add_node(p, format!("n{}", d.nodes.len()), "x", Span::at(start, len));
            d.add_field(id, Field::new("f", Span::at(start, len / 2), Value::dec(0)));
        }
        d
    }

    proptest! {
        #[test]
        fn node_at_matches_naive(splits in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..60), probes in proptest::collection::vec(0u64..1100, 1..40)) {
            let d = build(&splits);
            for off in probes {
                prop_assert_eq!(d.node_at(off), naive_node_at(&d, off));
                let naive_field = {
                    let mut cur = naive_node_at(&d, off);
                    let mut found = None;
                    while let Some(id) = cur {
                        let n = &d.nodes[id.index()];
                        if let Some(i) = n.fields.iter().enumerate().filter(|(_, f)| f.span.contains(off)).min_by_key(|(i, f)| (f.span.len(), *i)).map(|(i, _)| i) {
                            found = Some((id, i));
                            break;
                        }
                        cur = n.parent;
                    }
                    found
                };
                prop_assert_eq!(d.field_at(off), naive_field);
            }
        }
    }
}
