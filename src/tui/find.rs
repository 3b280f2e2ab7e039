//! Finding nodes by name: a fuzzy matcher (`nucleo-matcher`, the one behind helix) over
//! the keys and kinds of every node of every opened document, shared by the finder (`f`)
//! and `g NAME`.
//!
//! An archive member that is listed but not opened is found by its own name (its node)
//! and, once a background job has opened it and read its node names ([`member_names`],
//! kept in the workspace; the member's document itself is not kept), by the names inside
//! it; jumping to one of those opens the member. The index is built once per finder
//! session and again when the workspace grew (names that arrive from members are
//! appended), through [`nodes_of`], the one place that enumerates a document's nodes.

use super::workspace::{Load, Workspace};
use crate::model::{Document, NodeId};
use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32String};
use std::collections::HashSet;
use std::sync::Arc;

/// Score added to nodes that carry an animation (what people usually look for).
const ANIM_BONUS: u32 = 24;

/// Score added when the query is the node's whole name (its key or the name in brackets).
const EXACT_BONUS: u32 = 1000;

/// One searchable node.
#[derive(Debug, Clone)]
struct Entry {
    doc: usize,
    node: NodeId,
    depth: u32,
    anim: bool,
    /// The name part of the key (`A_WALK_L_02` of `seq[A_WALK_L_02]`), lower case.
    name_lc: String,
    key_lc: String,
    /// What is matched: `key kind`.
    hay: Utf32String,
    /// A node inside the member `node` of `doc`, which is not opened.
    inside: Option<Arc<MemberName>>,
}

/// A node of an archive member that is listed but not opened: what the finder shows and
/// where a jump goes once the member is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberName {
    /// Its path in the member's document (the root key first, as `Document::path` gives).
    pub path: String,
    /// Its key.
    pub key: String,
    /// Its kind.
    pub kind: String,
    /// Its one-line summary.
    pub summary: String,
    /// It carries an animation.
    pub anim: bool,
    /// Depth below the member's root (1: a child of the root).
    pub depth: u32,
}

/// The names of every node of a member's document `doc` but its root (the member node
/// of the outer document stands for it), in tree order.
pub fn member_names(doc: &Document) -> Vec<Arc<MemberName>> {
    nodes_of(doc)
        .into_iter()
        .filter(|(_, depth)| *depth > 0)
        .filter_map(|(id, depth)| {
            let n = doc.node(id)?;
            Some(Arc::new(MemberName {
                path: doc.path(id),
                key: n.key.to_string(),
                kind: n.kind.to_string(),
                summary: n.summary.to_string(),
                anim: n.anim.is_some(),
                depth,
            }))
        })
        .collect()
}

/// The searchable names of a workspace.
#[derive(Debug, Clone, Default)]
pub struct Index {
    entries: Vec<Entry>,
    /// The workspace size it was built for (documents, nodes of all of them).
    built_for: (usize, usize),
    /// Members whose inside names are in `entries`.
    members_in: HashSet<(usize, NodeId)>,
}

/// A node that matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// Document index in the workspace.
    pub doc: usize,
    /// The node.
    pub node: NodeId,
    /// Matcher score (higher is better), bonuses included.
    pub score: u32,
    /// The query is this node's whole name.
    pub exact: bool,
    /// The node matched is inside the member `node` of `doc`, which is not opened yet.
    pub inside: Option<Arc<MemberName>>,
}

/// The name in a key's brackets (`seq[A_WALK_L_02]` → `A_WALK_L_02`), else the key.
pub fn name_of(key: &str) -> &str {
    match (key.find('['), key.strip_suffix(']')) {
        (Some(i), Some(body)) => body.get(i + 1..).unwrap_or(key),
        _ => key,
    }
}

/// Every node of `doc` with its depth, in tree order (parents before children).
pub fn nodes_of(doc: &Document) -> Vec<(NodeId, u32)> {
    let mut out = Vec::new();
    let mut stack = vec![(NodeId::ROOT, 0u32)];
    // a malformed tree (a cycle) cannot loop: each node is taken once at most
    let mut budget = doc.nodes.len();
    while let Some((id, depth)) = stack.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        let Some(n) = doc.node(id) else { continue };
        out.push((id, depth));
        stack.extend(n.children.iter().rev().map(|c| (*c, depth + 1)));
    }
    out
}

impl Index {
    /// The index of every node in `ws`.
    pub fn build(ws: &Workspace) -> Index {
        let mut entries = Vec::new();
        for (d, e) in ws.docs.iter().enumerate() {
            let doc = e.doc();
            for (id, depth) in nodes_of(doc) {
                let Some(n) = doc.node(id) else { continue };
                let key = crate::model::sanitize(&n.key);
                let hay =
                    if n.key.starts_with(n.kind.as_str()) { key.to_string() } else { format!("{key} {}", n.kind) };
                entries.push(Entry {
                    doc: d,
                    node: id,
                    depth,
                    anim: n.anim.is_some(),
                    name_lc: name_of(&n.key).to_lowercase(),
                    key_lc: n.key.to_lowercase().to_string(),
                    hay: Utf32String::from(hay.as_str()),
                    inside: None,
                });
            }
        }
        let mut ix = Index { entries, built_for: Self::size_of(ws), members_in: HashSet::new() };
        ix.add_member_names(ws);
        ix
    }

    /// Append the names of members read since this index was built (members opened
    /// meanwhile are in the documents instead: a rebuild takes those).
    fn add_member_names(&mut self, ws: &Workspace) {
        let mut keys: Vec<&(usize, NodeId)> = ws
            .member_names
            .iter()
            .filter(|(k, v)| matches!(v, Load::Ready(_)) && !self.members_in.contains(*k))
            .filter(|(k, _)| !matches!(ws.members.get(*k), Some(Load::Ready(_))))
            .map(|(k, _)| k)
            .collect();
        // the same order whatever order they arrived in: documents, then node order
        keys.sort();
        for &(d, member) in keys {
            let Some(Load::Ready(names)) = ws.member_names.get(&(d, member)) else { continue };
            let base = ws.docs.get(d).and_then(|e| e.doc().node(member)).map_or(0, |_| 1);
            for m in names.iter() {
                let key = crate::model::sanitize(&m.key);
                let hay = if m.key.starts_with(&m.kind) { key.to_string() } else { format!("{key} {}", m.kind) };
                self.entries.push(Entry {
                    doc: d,
                    node: member,
                    depth: base + m.depth,
                    anim: m.anim,
                    name_lc: name_of(&m.key).to_lowercase(),
                    key_lc: m.key.to_lowercase(),
                    hay: Utf32String::from(hay.as_str()),
                    inside: Some(Arc::clone(m)),
                });
            }
            self.members_in.insert((d, member));
        }
    }

    fn size_of(ws: &Workspace) -> (usize, usize) {
        (ws.docs.len(), ws.docs.iter().map(|e| e.doc().nodes.len()).sum())
    }

    /// This index no longer covers `ws` (a member opened, the listing grew, names of a
    /// member arrived).
    pub fn stale(&self, ws: &Workspace) -> bool {
        self.built_for != Self::size_of(ws) || self.missing_names(ws)
    }

    /// Names of a member arrived that are not in the index.
    fn missing_names(&self, ws: &Workspace) -> bool {
        ws.member_names.iter().any(|(k, v)| matches!(v, Load::Ready(_)) && !self.members_in.contains(k))
    }

    /// Nodes searched.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Nothing to search.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The nodes matching `query`, best first (at most `limit`), and how many matched; for
    /// an empty query, the nodes that carry an animation.
    /// Case is ignored (names in these files are upper case; people type lower case).
    /// Whole-name matches come first, animation nodes get a small bonus; ties go to
    /// shallower nodes, then tree order.
    pub fn search(&self, query: &str, limit: usize) -> (Vec<Hit>, usize) {
        let q = query.trim();
        if q.is_empty() {
            // nothing typed yet: what people usually come for, every animation in tree order
            let anims = self.entries.iter().filter(|e| e.anim);
            let total = anims.clone().count();
            let hits = anims.take(limit).map(|e| Hit {
                doc: e.doc,
                node: e.node,
                score: 0,
                exact: false,
                inside: e.inside.clone(),
            });
            return (hits.collect(), total);
        }
        let q_lc = q.to_lowercase();
        let pattern = Pattern::parse(q, CaseMatching::Ignore, Normalization::Smart);
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut hits: Vec<(Hit, u32, usize)> = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            let Some(score) = pattern.score(e.hay.slice(..), &mut matcher) else { continue };
            let exact = e.name_lc == q_lc || e.key_lc == q_lc;
            let score = score + if e.anim { ANIM_BONUS } else { 0 } + if exact { EXACT_BONUS } else { 0 };
            hits.push((Hit { doc: e.doc, node: e.node, score, exact, inside: e.inside.clone() }, e.depth, i));
        }
        let total = hits.len();
        hits.sort_by(|a, b| b.0.score.cmp(&a.0.score).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        hits.truncate(limit);
        (hits.into_iter().map(|h| h.0).collect(), total)
    }
}

/// Results kept for the finder list.
pub const RESULTS: usize = 200;

/// The finder while its prompt is open: the index and the results for the typed text.
#[derive(Debug, Clone, Default)]
pub struct Finder {
    /// What is searched.
    pub index: Index,
    /// The best matches, best first (at most [`RESULTS`]).
    pub hits: Vec<Hit>,
    /// How many nodes matched.
    pub total: usize,
}

impl Finder {
    /// Search again for `query`, rebuilding the index first if `ws` grew (names read
    /// from members are only appended).
    pub fn refresh(&mut self, ws: &Workspace, query: &str) {
        if self.index.built_for != Index::size_of(ws) {
            self.index = Index::build(ws);
        } else if self.index.missing_names(ws) {
            self.index.add_member_names(ws);
        }
        (self.hits, self.total) = self.index.search(query, RESULTS);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::Span;

    fn doc() -> Document {
        let mut d = Document::new("raw", "m.bin", "file", 0x100, &crate::limits::Limits::default());
        let data = d.add_node(NodeId::ROOT, "data", "sequence data", Span::new(0, 0x100));
        for (i, name) in ["AKI_AKI_YS00_R_ST", "A_WALK_L_02", "A_WALK_L_02_COPY", "TEST_SEQ"].iter().enumerate() {
            let s = d.add_node(data, format!("seq[{name}]"), "sequence", Span::at(i as u64 * 0x10, 0x10));
            d.node_mut(s).unwrap().anim = Some(format!("seq:{name}"));
            d.add_node(s, "header", "sequence header", Span::at(i as u64 * 0x10, 4));
        }
        d
    }

    fn index(doc: Document) -> Index {
        let src = crate::source::Source::from_vec("m.bin", vec![0; 0x100]);
        let opened = crate::session::Opened::from_parsed(
            crate::formats::with_document(std::sync::Arc::new(src), doc),
            Vec::new(),
        );
        Index::build(&Workspace::new(std::sync::Arc::new(opened)))
    }

    fn keys(ix: &Index, d: &Document, q: &str) -> Vec<String> {
        ix.search(q, 10).0.iter().map(|h| d.node(h.node).unwrap().key.to_string()).collect()
    }

    #[test]
    fn whole_names_first_then_fuzzy_fragments() {
        let d = doc();
        let ix = index(doc());
        // the exact name beats the longer name it is a prefix of
        assert_eq!(keys(&ix, &d, "a_walk_l_02").first().map(String::as_str), Some("seq[A_WALK_L_02]"));
        assert!(ix.search("A_WALK_L_02", 10).0.first().unwrap().exact);
        // a fragment, typed in lower case and with letters left out, finds both walks
        let walk = keys(&ix, &d, "walkl02");
        assert_eq!(walk.get(..2), Some(&["seq[A_WALK_L_02]".to_string(), "seq[A_WALK_L_02_COPY]".to_string()][..]));
        assert!(!walk.iter().any(|k| k.contains("TEST")), "{walk:?}");
        // kinds are searchable too
        assert_eq!(ix.search("sequence header", 10).1, 4);
        assert_eq!(keys(&ix, &d, "").len(), 4, "nothing typed: the animations");
        assert_eq!(ix.search("", 2).1, 4);
        assert_eq!(ix.search("zzzz", 10).1, 0);
    }

    #[test]
    fn names_in_brackets() {
        assert_eq!(name_of("seq[A_WALK_L_02]"), "A_WALK_L_02");
        assert_eq!(name_of("header"), "header");
        assert_eq!(name_of("Model[MDL_a]"), "MDL_a");
    }
}
