//! An opened input (the [`Parsed`] object its format made) plus addressing of nodes by
//! path or offset across nested members (`DATA.BIN/xasc00.cmp/…`).

use crate::error::ParseError;
use crate::formats::{self, Parsed};
pub use crate::formats::{ListingProber, ListingProgress, ListingStep};
use crate::limits::{Budget, Held, Limits};
use crate::model::anim::Clip;
use crate::model::{Document, NodeId};
use crate::source::{OpenOptions, Source, SourceError};
use std::path::Path;
use std::sync::Arc;

/// Why opening or addressing failed.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file could not be read.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// The bytes could not be parsed at all.
    #[error("{name}: {err}")]
    Parse {
        /// The file or member name.
        name: String,
        /// What went wrong.
        err: ParseError,
    },
    /// A node address matched nothing.
    #[error("{name}: no node at {addr}{hint}")]
    NoNode {
        /// The file or member name.
        name: String,
        /// The address given.
        addr: String,
        /// What may have been meant (`; did you mean …?`), or empty.
        hint: String,
    },
}

/// The inputs a nested node was reached through, outermost first, each with the member
/// node that leads to the next ([`Opened::resolve_nested`]).
pub type Nesting = Vec<(Opened, NodeId)>;

/// An opened input: the parsed object its format made (which answers everything about
/// it) and the names of the sources it is nested in.
pub struct Opened {
    parsed: Box<dyn Parsed>,
    /// Names of the outer sources this one is nested in, outermost first.
    pub outer: Vec<String>,
    /// The limits this input was opened with (for a member: its memory budget is what its
    /// enclosing documents left): members opened from it draw from them, and verbs that
    /// resolve and decode in it use them (the command's one budget, never a default).
    limits: Limits,
    /// The user layouts applied to this input and to the members opened from it.
    layouts: Option<Arc<crate::layout::LayoutSet>>,
    /// The full path (from the outermost file's root) of the node a bare name was found at
    /// by searching nested members ([`Opened::resolve`]); None when it was not searched for.
    reached: Option<String>,
    /// How the file was opened (`--no-mmap`, `--format`): a second file opened to compare
    /// with this one is opened alike ([`Opened::open_alike`]).
    opened_as: (OpenOptions, Option<String>),
    /// The command's one memory budget (`--limit memory=`): made when the outermost input
    /// is opened and shared by every member opened from it; decoded clips
    /// ([`Opened::decode_held`]) and members' bytes reserve from it while they live.
    budget: Budget,
    /// This input's own bytes when it is a member (inflated or copied out of its parent),
    /// reserved from the budget while it (or a copy of it) lives.
    held: Held,
}

impl std::fmt::Debug for Opened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opened").field("source", self.source()).field("format", &self.format().id()).finish()
    }
}

impl std::ops::Deref for Opened {
    type Target = dyn Parsed;
    fn deref(&self) -> &(dyn Parsed + 'static) {
        &*self.parsed
    }
}

impl std::ops::DerefMut for Opened {
    fn deref_mut(&mut self) -> &mut (dyn Parsed + 'static) {
        &mut *self.parsed
    }
}

impl Opened {
    /// Open a file (read-only) and parse it.
    pub fn open_path(
        path: &Path,
        opts: OpenOptions,
        forced: Option<&str>,
        limits: &Limits,
    ) -> Result<Opened, OpenError> {
        let src = Source::open_bounded(path, opts, limits.max_input)?;
        let mut opened = Opened::from_source(Arc::new(src), forced, limits, Vec::new())?;
        opened.opened_as = (opts, forced.map(str::to_string));
        Ok(opened)
    }

    /// Open another file the way this one was opened (the same `--no-mmap` and `--format`,
    /// the same user layouts) under `limits`: the second file of an in-app comparison.
    pub fn open_alike(&self, path: &Path, limits: &Limits) -> Result<Opened, OpenError> {
        let (opts, forced) = &self.opened_as;
        let mut opened = Opened::open_path(path, *opts, forced.as_deref(), limits)?;
        if let Some(set) = &self.layouts {
            opened.apply_layouts(set);
        }
        Ok(opened)
    }

    /// Parse bytes already loaded.
    pub fn from_source(
        source: Arc<Source>,
        forced: Option<&str>,
        limits: &Limits,
        outer: Vec<String>,
    ) -> Result<Opened, OpenError> {
        let name = source.name().to_string();
        let parsed = formats::open(source, forced, limits).map_err(|err| OpenError::Parse { name, err })?;
        Ok(Opened {
            parsed,
            outer,
            limits: *limits,
            layouts: None,
            reached: None,
            opened_as: Default::default(),
            budget: Budget::new(limits.max_memory),
            held: Held::default(),
        })
    }

    /// Wrap an already parsed input.
    pub fn from_parsed(parsed: Box<dyn Parsed>, outer: Vec<String>) -> Opened {
        Opened {
            parsed,
            outer,
            limits: Limits { max_memory: u64::MAX, ..Limits::default() },
            layouts: None,
            reached: None,
            opened_as: Default::default(),
            budget: Budget::new(u64::MAX),
            held: Held::default(),
        }
    }

    /// The limits this input was opened with (the command's budget; for a member, what
    /// its enclosing documents left of it).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The command's memory budget this input (and every member opened from it) spends.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// The limits a decode in this input runs under: this input's, with no more memory than
    /// its budget has room for (the members and clips held now spend the rest).
    pub fn decode_limits(&self) -> Limits {
        Limits { max_memory: self.limits.max_memory.min(self.budget.room()), ..self.limits }
    }

    /// Decode `anim` under [`Opened::decode_limits`], then reserve what the clip stores
    /// ([`Clip::stored_bytes`]) from the budget, held by the clip ([`Clip::held`]) until it
    /// drops: the budget error naming `--limit memory=` when it does not fit. The CLI and
    /// the TUI decode through here, so a member's clip decodes under the same limits in both.
    pub fn decode_held(&self, anim: &formats::AnimRef, opts: &formats::DecodeOptions) -> Result<Clip, ParseError> {
        let mut clip = self.parsed.require_clips_for(anim)?.decode(anim, opts, &self.decode_limits())?;
        let held = self.budget.reserve("the clip's samples, keys and poses", clip.stored_bytes(), 0)?;
        clip.held = Held::new(held);
        Ok(clip)
    }

    /// Apply user layouts to this input's document (and to the members opened from it from
    /// now on). A set with no layout for this input's format leaves the document as it is.
    pub fn apply_layouts(&mut self, set: &Arc<crate::layout::LayoutSet>) {
        self.layouts = Some(Arc::clone(set));
        if set.has_format(self.format().id()) {
            let annotator = set.annotator(Arc::clone(self.source()));
            self.doc_mut().set_annotator(annotator);
        }
    }

    /// The user layouts applied to this input, if any.
    pub fn layouts(&self) -> Option<&Arc<crate::layout::LayoutSet>> {
        self.layouts.as_ref()
    }

    /// The document.
    pub fn doc(&self) -> &Document {
        self.parsed.document()
    }

    /// Bytes this input's document holds now (0 while a deferred document is unbuilt: it is
    /// not built just to be measured).
    fn parsed_retained(&self) -> u64 {
        if self.parsed.is_document_built() { self.parsed.document().retained_bytes() } else { 0 }
    }

    /// The document, mutably.
    pub fn doc_mut(&mut self) -> &mut Document {
        self.parsed.document_mut()
    }

    /// A parse error of this input, with its name.
    pub fn error(&self, err: ParseError) -> OpenError {
        OpenError::Parse { name: self.title(), err }
    }

    /// Name shown for these bytes: outer names then this one, joined by ` › `.
    pub fn title(&self) -> String {
        let mut parts = self.outer.clone();
        parts.push(self.source().name().to_string());
        parts.join(" › ")
    }

    /// Open the nested member a node links to, as its own document.
    pub fn open_member(&self, node: NodeId, limits: &Limits) -> Result<Opened, OpenError> {
        let name = self.source().name().to_string();
        // The member draws from this document's budget: what its nodes and fields hold now,
        // then the member's bytes; a member nested in it draws from what is left (depth is
        // not a multiplier).
        // No more than the command's budget has room for (the members and clips held now).
        let max_memory = limits.max_memory.min(self.limits.max_memory).min(self.budget.room());
        let limits = &Limits { max_memory, ..*limits };
        let limits = &limits.for_member(self.parsed_retained());
        // From the listed span: an archive member is read without finding it again.
        let m = self
            .parsed
            .open_member_of(node, limits)
            .map_err(|err| OpenError::Parse { name: name.clone(), err: err.within(self.doc().path(node)) })?;
        // the member's bytes spend the command's budget while the member is open
        let held = self
            .budget
            .reserve("the member's bytes", m.bytes.len() as u64, 0)
            .map_err(|err| OpenError::Parse { name: name.clone(), err: err.within(self.doc().path(node)) })?;
        let mut outer = self.outer.clone();
        outer.push(name);
        let label = if m.inflated { format!("{} (inflated)", m.name) } else { m.name.clone() };
        let limits = &limits.for_member(m.bytes.len() as u64);
        let src = Source::from_vec(label, m.bytes);
        let mut opened = Opened::from_source(Arc::new(src), None, limits, outer)?;
        opened.budget = self.budget.clone();
        opened.held = Held::new(held);
        // Keep the member's plain name as its root key so paths read `DATA.BIN/xasc00.cmp/...`.
        if let Some(root) = opened.doc_mut().node_mut(NodeId::ROOT) {
            root.key = m.name.into();
        }
        if let Some(set) = &self.layouts {
            opened.apply_layouts(set);
        }
        Ok(opened)
    }

    /// Resolve a node address: `@OFF` (innermost node at offset, hex `0x..` or decimal), a
    /// path of keys (`chr.mot/clip[3]`), or `PATH@OFF`. Paths descend into members.
    /// Returns the document the node lives in (self or a nested member) and the node.
    pub fn resolve(self, addr: &str, limits: &Limits) -> Result<(Opened, NodeId), OpenError> {
        let (path, off) = match addr.rsplit_once('@') {
            Some((p, o)) => (p, Some(o)),
            None => (addr, None),
        };
        if off.is_none() && !addr.contains('/') {
            // a name, as the TUI's goto takes it: `A_WALK_L_02` or `seq[A_WALK_L_02]`
            let mut o = self;
            if o.doc_mut().find_path_expanding(addr).is_none() {
                return match o.node_named(addr) {
                    Ok(n) => Ok((o, n)),
                    Err(hint) => {
                        let name = o.source().name().to_string();
                        // not in this document: the members nested in it, as the TUI's finder
                        // searches them (several nodes of the name here stay ambiguous)
                        if hint.starts_with("; did you mean") || hint.is_empty() {
                            match o.find_in_members(addr, limits, &NameSearch::default()) {
                                Reached::One(inner, n) => return Ok((*inner, n)),
                                Reached::Many(paths, searched) => {
                                    return Err(OpenError::NoNode {
                                        name,
                                        addr: addr.to_string(),
                                        hint: ambiguous(&paths, &searched),
                                    });
                                }
                                Reached::None(searched) => {
                                    let hint = format!("{hint}{}", searched.unsearched());
                                    return Err(OpenError::NoNode { name, addr: addr.to_string(), hint });
                                }
                            }
                        }
                        Err(OpenError::NoNode { name, addr: addr.to_string(), hint })
                    }
                };
            }
            return o.resolve_path(addr, None, limits);
        }
        self.resolve_path(path, off, limits)
    }

    /// [`Opened::resolve`] keeping the way there: each enclosing input and the member node
    /// it was entered by, outermost first (empty when the node is in this input). What
    /// write-back rebuilds from the inside out.
    pub fn resolve_nested(self, addr: &str, limits: &Limits) -> Result<(Nesting, Opened, NodeId), OpenError> {
        let mut chain = Vec::new();
        let (path, off) = match addr.rsplit_once('@') {
            Some((p, o)) => (p, Some(o)),
            None => (addr, None),
        };
        if off.is_none() && !addr.contains('/') {
            let (o, n) = self.resolve(addr, limits)?;
            return Ok((chain, o, n));
        }
        let (o, n) = self.resolve_path_via(path, off, limits, Some(&mut chain))?;
        Ok((chain, o, n))
    }

    /// [`Opened::resolve`] of a path and an optional offset in the document it leads to.
    fn resolve_path(self, path: &str, off: Option<&str>, limits: &Limits) -> Result<(Opened, NodeId), OpenError> {
        self.resolve_path_via(path, off, limits, None)
    }

    /// [`Opened::resolve_path`], pushing each input left for a member (and the member's
    /// node) onto `chain` when one is given.
    fn resolve_path_via(
        self,
        path: &str,
        off: Option<&str>,
        limits: &Limits,
        mut chain: Option<&mut Nesting>,
    ) -> Result<(Opened, NodeId), OpenError> {
        let addr = match off {
            Some(o) => format!("{path}@{o}"),
            None => path.to_string(),
        };
        let no_node = |o: &Opened| OpenError::NoNode {
            name: o.source().name().to_string(),
            addr: addr.clone(),
            hint: String::new(),
        };
        let mut cur = self;
        let mut segs: Vec<&str> = path.trim_matches('/').split('/').filter(|s| !s.is_empty()).collect();
        if segs.first() == Some(&cur.doc().root().key.as_str()) {
            segs.remove(0);
        }
        let mut node = NodeId::ROOT;
        let mut i = 0;
        while i < segs.len() {
            let rest = segs.get(i..).unwrap_or(&[]);
            // longest prefix of the remaining segments that names a node in this document
            let mut found = None;
            for j in (1..=rest.len()).rev() {
                let prefix = rest.get(..j).unwrap_or(&[]).join("/");
                let base = cur.doc().path(node);
                if let Some(n) = cur.doc_mut().find_path_expanding(&format!("{base}/{prefix}")) {
                    found = Some((n, j));
                    break;
                }
            }
            let Some((n, used)) = found else { return Err(no_node(&cur)) };
            i += used;
            node = n;
            if (i < segs.len() || off.is_some()) && cur.doc().node(n).is_some_and(|x| x.member.is_some()) {
                let inner = cur.open_member(n, limits)?;
                match chain.as_deref_mut() {
                    Some(c) => c.push((std::mem::replace(&mut cur, inner), n)),
                    None => cur = inner,
                }
                node = NodeId::ROOT;
                if segs.get(i) == Some(&cur.doc().root().key.as_str()) {
                    i += 1;
                }
            }
        }
        if let Some(o) = off {
            let o = parse_offset(o).ok_or_else(|| no_node(&cur))?;
            node = cur.doc_mut().expand_to(o).ok_or_else(|| no_node(&cur))?;
        }
        Ok((cur, node))
    }
}

/// How far a search of nested members for a name goes ([`Opened::find_in_members`]): the
/// members opened and the bytes they hold are counted, so a name missing from a
/// multi-gigabyte archive is said after a bounded search, not after inflating all of it.
#[derive(Debug, Clone, Copy)]
pub struct NameSearch {
    /// Members opened at most.
    pub members: usize,
    /// Bytes of opened members at most (their sizes once inflated, summed).
    pub bytes: u64,
    /// Containers descended into at most (a member of a member of …).
    pub depth: usize,
}

impl Default for NameSearch {
    fn default() -> Self {
        NameSearch { members: 4096, bytes: 1 << 30, depth: 8 }
    }
}

/// What a search of nested members covered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Searched {
    /// Members opened and searched.
    pub members: usize,
    /// Members that did not open (damaged, over a limit): not searched.
    pub unopened: usize,
    /// The search stopped at its budget: members after it were not searched.
    pub stopped: bool,
}

impl Searched {
    /// What a miss adds about members not searched (empty when every member was).
    pub fn unsearched(&self) -> String {
        let mut parts = Vec::new();
        if self.unopened > 0 {
            parts.push(format!("{} members did not open", self.unopened));
        }
        if self.stopped {
            parts.push(format!("the search stopped after {} members", self.members));
        }
        if parts.is_empty() { String::new() } else { format!(" ({}; not searched)", parts.join(", ")) }
    }
}

/// The result of [`Opened::find_in_members`].
#[derive(Debug)]
pub enum Reached {
    /// One node of the name: the member document it lives in (its full path in
    /// [`Opened::reached`]) and the node.
    One(Box<Opened>, NodeId),
    /// Several nodes of the name: their full paths (at most [`AMBIGUOUS_LISTED`]), and
    /// what was searched.
    Many(Vec<String>, Searched),
    /// None.
    None(Searched),
}

/// Paths an ambiguous name lists at most.
pub const AMBIGUOUS_LISTED: usize = 20;

/// The hint of an ambiguous name: every full path found (as many as were kept).
fn ambiguous(paths: &[String], searched: &Searched) -> String {
    let listed: Vec<String> = paths.iter().map(|p| crate::model::sanitize(p).into_owned()).collect();
    let more = if paths.len() >= AMBIGUOUS_LISTED { " (the first found)" } else { "" };
    format!(
        "; {} nodes in nested members have that name{more}; name one by its path: {}{}",
        paths.len(),
        listed.join(", "),
        searched.unsearched()
    )
}

impl Opened {
    /// The full path of the node a bare name was found at by searching nested members
    /// (for a verb to say on stderr), if it was.
    pub fn reached(&self) -> Option<&str> {
        self.reached.as_deref()
    }

    /// The full path of node `id` of this document given the full path `prefix` of the
    /// member node it was opened from (empty: this is the outermost document).
    fn full_path(&self, prefix: &str, id: NodeId) -> String {
        let inner = self.doc().path(id);
        if prefix.is_empty() {
            return inner;
        }
        let root = self.doc().root().key.to_string();
        match inner.strip_prefix(root.as_str()) {
            Some("") => prefix.to_string(),
            Some(rest) if rest.starts_with('/') => format!("{prefix}{rest}"),
            _ => format!("{prefix}/{inner}"),
        }
    }

    /// The nodes of this document whose whole name is `name`: an animation listed under
    /// it, or a node whose key or bracketed name is it (`seq[NAME]`, `NAME`).
    fn nodes_named(&mut self, name: &str) -> Vec<NodeId> {
        let inner = bracketed(name).unwrap_or(name);
        let mut hits: Vec<NodeId> = Vec::new();
        for cand in [name, inner] {
            if let Ok(a) = self.require_clips().and_then(|c| c.find_animation(cand))
                && a.is_listed()
                && a.name() == cand
                && let Some(n) = a.node()
            {
                hits.push(n);
            }
        }
        let doc = self.doc();
        hits.extend(doc.nodes.iter().filter(|n| n.key == name || bracketed(&n.key) == Some(inner)).map(|n| n.id));
        hits.sort_by_key(|n| n.0);
        hits.dedup();
        hits
    }

    /// Search the members nested in this document (and in them, depth first in tree
    /// order, each opened only when reached and dropped once searched) for nodes whose
    /// whole name is `name`, within `budget`. This document's own nodes are not searched.
    pub fn find_in_members(&self, name: &str, limits: &Limits, budget: &NameSearch) -> Reached {
        let mut walk = MemberWalk {
            name,
            limits,
            budget,
            searched: Searched::default(),
            bytes: 0,
            paths: Vec::new(),
            first: None,
        };
        let top = self.full_path("", NodeId::ROOT);
        walk.descend(self, &top, 0);
        let searched = walk.searched;
        match (walk.paths.len(), walk.first) {
            (1, Some((mut inner, n))) => {
                inner.reached = walk.paths.pop();
                inner.doc_mut().expand(n);
                Reached::One(Box::new(inner), n)
            }
            (0, _) => Reached::None(searched),
            _ => Reached::Many(walk.paths, searched),
        }
    }
}

/// The state of one [`Opened::find_in_members`].
struct MemberWalk<'a> {
    name: &'a str,
    limits: &'a Limits,
    budget: &'a NameSearch,
    searched: Searched,
    bytes: u64,
    /// Full paths of the nodes found, in the order found.
    paths: Vec<String>,
    /// The member document of the first node found, and the node.
    first: Option<(Opened, NodeId)>,
}

impl MemberWalk<'_> {
    /// Search the members of `o` (whose root's full path is `prefix`), `depth` containers down.
    fn descend(&mut self, o: &Opened, prefix: &str, depth: usize) {
        if depth >= self.budget.depth {
            return;
        }
        let members: Vec<NodeId> = o.doc().nodes.iter().filter(|n| n.member.is_some()).map(|n| n.id).collect();
        for m in members {
            if self.paths.len() >= AMBIGUOUS_LISTED {
                return;
            }
            if self.searched.members >= self.budget.members || self.bytes >= self.budget.bytes {
                self.searched.stopped = true;
                return;
            }
            let at = o.full_path(prefix, m);
            let Ok(mut inner) = o.open_member(m, self.limits) else {
                self.searched.unopened += 1;
                continue;
            };
            self.searched.members += 1;
            self.bytes = self.bytes.saturating_add(inner.source().len());
            let hits = inner.nodes_named(self.name);
            for &n in &hits {
                if self.paths.len() < AMBIGUOUS_LISTED {
                    self.paths.push(inner.full_path(&at, n));
                }
            }
            self.descend(&inner, &at, depth + 1);
            if self.first.is_none()
                && let Some(&n) = hits.first()
            {
                self.first = Some((inner, n));
            }
        }
    }
}

impl Opened {
    /// The node a bare name stands for: an animation of that name (what `--anim` takes),
    /// else the one node whose key is `name` or whose bracketed name is (`seq[NAME]`,
    /// `NAME`). On a miss, what to say after the address: the nearest name, or the paths
    /// of several nodes of that name.
    fn node_named(&mut self, name: &str) -> Result<NodeId, String> {
        let inner = bracketed(name).unwrap_or(name);
        for cand in [name, inner] {
            if let Ok(a) = self.require_clips().and_then(|c| c.find_animation(cand))
                && let Some(n) = a.node()
            {
                self.doc_mut().expand(n);
                return Ok(n);
            }
        }
        let doc = self.doc();
        let hits: Vec<NodeId> =
            doc.nodes.iter().filter(|n| n.key == name || bracketed(&n.key) == Some(inner)).map(|n| n.id).collect();
        match hits.as_slice() {
            [n] => {
                let n = *n;
                self.doc_mut().expand(n);
                return Ok(n);
            }
            [] => {}
            many => {
                let paths: Vec<String> =
                    many.iter().take(4).map(|n| crate::model::sanitize(&doc.path(*n)).into_owned()).collect();
                let more = if many.len() > 4 { ", …" } else { "" };
                return Err(format!("; {} nodes have that name: {}{more}", many.len(), paths.join(", ")));
            }
        }
        let anims: Vec<String> = self.animations().iter().map(|a| a.name().to_string()).collect();
        let keys: Vec<String> =
            doc.nodes.iter().map(|n| bracketed(&n.key).unwrap_or(n.key.as_str()).to_string()).collect();
        let names = anims.iter().chain(keys.iter()).map(String::as_str);
        match crate::text::did_you_mean(inner, names) {
            Some(m) => Err(format!("; did you mean \"{}\"?", crate::model::sanitize(m))),
            None => Err(String::new()),
        }
    }

    /// One listing step of `budget` bytes on the calling thread (probe and apply). Returns
    /// true when the listing is complete.
    pub fn continue_listing(&mut self, budget: u64) -> std::io::Result<bool> {
        let Some(mut prober) = self.listing_prober(budget) else { return Ok(true) };
        match prober.next_step() {
            Some(step) => Ok(self.apply_listing(&step?)),
            None => Ok(true),
        }
    }

    /// This input parsed again from `bytes` (an edited copy of its bytes, in memory) under
    /// `limits`: the same format, name, outer sources, root key, user layouts and way of
    /// opening (a file compared with it is opened alike).
    pub fn reparsed(&self, bytes: Vec<u8>, limits: &Limits) -> Result<Opened, OpenError> {
        let name = self.source().name().to_string();
        let src = Arc::new(Source::from_vec(name.clone(), bytes));
        let parsed = formats::open_as(self.format(), src, limits).map_err(|err| OpenError::Parse { name, err })?;
        let mut o = Opened {
            parsed,
            outer: self.outer.clone(),
            limits: *limits,
            layouts: None,
            reached: None,
            opened_as: self.opened_as.clone(),
            budget: self.budget.clone(),
            held: Held::default(),
        };
        let key = self.doc().root().key.clone();
        if let Some(root) = o.doc_mut().node_mut(NodeId::ROOT) {
            root.key = key;
        }
        if let Some(set) = &self.layouts {
            o.apply_layouts(set);
        }
        Ok(o)
    }

    /// Whether the input was opened without mapping it (`--no-mmap`).
    pub fn no_mmap(&self) -> bool {
        self.opened_as.0.no_mmap
    }

    /// A copy sharing the bytes, with its own copy of the document (to apply listing
    /// steps while another thread still reads the original).
    pub fn clone_document(&self) -> Opened {
        Opened {
            parsed: self.parsed.clone_parsed(),
            outer: self.outer.clone(),
            limits: self.limits,
            layouts: self.layouts.clone(),
            reached: self.reached.clone(),
            opened_as: self.opened_as.clone(),
            budget: self.budget.clone(),
            held: self.held.clone(),
        }
    }
}

/// The name inside a key's brackets: `NAME` of `seq[NAME]`.
pub(crate) fn bracketed(key: &str) -> Option<&str> {
    let open = key.find('[')?;
    key.strip_suffix(']').map(|k| &k[open + 1..]).filter(|k| !k.is_empty())
}

/// Parse `0x150`, `336` or `0o..`-free plain numbers into an offset.
pub fn parse_offset(s: &str) -> Option<u64> {
    let s = s.trim().replace('_', "");
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::formats::gzarc::write::archive; // test input only

    /// `n` members of 3,000 stored bytes each (two sectors once compressed and padded).
    fn members(n: usize) -> Vec<(String, Vec<u8>)> {
        (0..n)
            .map(|i| {
                let body: Vec<u8> =
                    (0..3000u32).map(|k| (k.wrapping_mul(2_654_435_761) >> (i % 7 + 8)) as u8).collect();
                (format!("m{i}.bin"), body)
            })
            .collect()
    }

    fn open(bytes: Vec<u8>, budget: u64) -> Opened {
        let limits = Limits { list_budget: budget, ..Limits::default() };
        Opened::from_source(Arc::new(Source::from_vec("a.bin", bytes)), None, &limits, Vec::new()).unwrap()
    }

    #[test]
    fn stepwise_listing_ends_with_the_complete_document() {
        let ms = members(40);
        let bytes = archive(&ms);
        let whole = open(bytes.clone(), u64::MAX);
        assert!(whole.listing_progress().complete());
        assert_eq!(whole.listing_progress().members, 40);
        let mut part = open(bytes, 0x1000);
        let first = part.listing_progress();
        assert!(!first.complete() && first.members < 40, "{first:?}");
        assert!(part.unlisted_node().is_some());
        let mut steps = 0;
        while !part.continue_listing(0x3000).unwrap() {
            steps += 1;
            assert!(part.doc().validate().is_ok());
            assert!(part.listing_progress().members <= 40);
        }
        assert!(steps > 3, "{steps}");
        assert!(part.unlisted_node().is_none());
        assert_eq!(part.listing_progress().percent(), 100);
        let keys = |o: &Opened| o.doc().nodes.iter().map(|n| (n.key.clone(), n.span, n.member)).collect::<Vec<_>>();
        assert_eq!(keys(&part), keys(&whole));
        // members open from their listed span, as from the complete listing
        let id = part.doc().find_path("a.bin/m39.bin").unwrap();
        let m = part.open_member(id, &Limits::default()).unwrap();
        assert_eq!(m.source().bytes(), ms[39].1.as_slice());
    }

    #[test]
    fn a_prober_on_another_thread_feeds_the_document() {
        let bytes = archive(&members(25));
        let mut o = open(bytes, 0);
        let mut prober = o.listing_prober(0x2800).unwrap();
        let steps =
            std::thread::spawn(move || std::iter::from_fn(|| prober.next_step()).collect::<Vec<_>>()).join().unwrap();
        let len = o.source().len();
        assert!(steps.last().unwrap().as_ref().unwrap().is_last(len));
        let copy = o.clone_document();
        for s in &steps {
            o.apply_listing(s.as_ref().unwrap());
        }
        assert_eq!(o.listing_progress().members, 25);
        assert!(o.listing_progress().complete());
        assert!(!copy.listing_progress().complete(), "the copy is not changed");
        // a step out of order is ignored
        let mut again = open(archive(&members(25)), 0);
        assert!(!again.apply_listing(steps[1].as_ref().unwrap()));
        assert_eq!(again.listing_progress().members, 0);
    }

    /// A member's bytes and a decoded clip spend the one budget of the input they come from
    /// while they live, and give it back when they drop; a member that does not fit what
    /// is left is refused with the budget error.
    #[test]
    fn members_and_clips_spend_the_inputs_budget_while_they_live() {
        use crate::formats::motn::write::{
            Channel, ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec, encode_file, encode_sequence,
        };
        // one sequence of 100 frames, one node, one channel of two keys: one track of 100
        // samples once decoded (800 bytes of f64)
        let keys = vec![
            KeySpec { frame: 0, values: KeyValues::Value(0.0) },
            KeySpec { frame: 99, values: KeyValues::Value(1.0) },
        ];
        let channels = vec![ChannelSpec { channel: Channel::Rx, keys }];
        let spec = SequenceSpec { frames: 100, kind_word: 0, nodes: vec![NodeSpec { node: 0, channels }] };
        let motn = encode_file(&[("ONE".to_string(), encode_sequence(&spec).unwrap())], None);
        let mut body = motn.clone();
        body.resize(5000, 0);
        let o = open(archive(&[("MOTION.BIN".to_string(), body)]), u64::MAX);
        let id = o.doc().find_path("a.bin/MOTION.BIN").unwrap();
        assert_eq!(o.budget().spent(), 0);
        let m = o.open_member(id, &Limits::default()).unwrap();
        assert_eq!(o.budget().spent(), 5000, "the member's 5,000 inflated bytes");
        let anim = m.clips().unwrap().find_animation("ONE").unwrap();
        let clip = m.decode_held(&anim, &crate::formats::DecodeOptions::default()).unwrap();
        assert!(clip.held.bytes() >= 800, "the track's samples: {}", clip.held.bytes());
        assert_eq!(o.budget().spent(), 5000 + clip.held.bytes());
        let copy = clip.clone();
        drop(clip);
        assert_eq!(o.budget().spent(), 5000 + copy.held.bytes(), "a clone holds it still");
        drop(copy);
        drop(m);
        assert_eq!(o.budget().spent(), 0, "all given back");
        // with all but 4,999 bytes of the budget held elsewhere, the member does not fit
        let others = o.budget().reserve("others", o.budget().max() - 4999, 0).unwrap();
        let e = o.open_member(id, &Limits::default()).unwrap_err().to_string();
        assert!(e.contains("memory budget exceeded") && e.contains("--limit memory="), "{e}");
        drop(others);
        assert!(o.open_member(id, &Limits::default()).is_ok());
    }

    #[test]
    fn other_formats_are_always_complete() {
        let mut o = open(b"plain bytes".to_vec(), 0);
        assert!(o.listing_progress().complete());
        assert!(o.listing_prober(1).is_none());
        assert!(o.unlisted_node().is_none());
        assert!(o.continue_listing(1).unwrap());
    }
}
