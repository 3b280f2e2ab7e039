//! Progressive member listing: a document lists the members found so far, and one
//! placeholder node (kind [`TAIL_KIND`], always the last node) covers the bytes not yet
//! listed. Each step probes more 2048-byte boundaries and turns the members whose extent
//! is now known into nodes. The placeholder records how far probing got (its `probed` and
//! `unprobed` fields), so the document itself is the listing state: no side table, and
//! `Document::validate()` holds after every step.
//!
//! A member's extent runs to the next member's start, so the last member found stays
//! *pending* (inside the placeholder) until the next start or the end of the file is seen.

use super::SECTOR;
use super::parse::{MemberInfo, is_member_start, parse_header, probe};
use crate::bytes::Bytes;
use crate::model::{Diagnostic, Document, Field, NodeId, Severity, Span, Value, WalkStep};
use std::collections::HashMap;

/// Reads bytes at an absolute offset into a buffer; returns how many (0 at the end).
pub type ReadAt<'a> = dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize> + 'a;

/// Kind of the placeholder node covering the bytes not yet listed.
pub const TAIL_KIND: &str = "not yet listed";
/// Key of the placeholder node.
pub const TAIL_KEY: &str = "(not yet listed)";
const PAUSED: &str = "listing paused";

/// How far listing of a gzarc document has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingProgress {
    /// Members listed as nodes.
    pub members: u64,
    /// Bytes `0..listed_to` are covered by listed nodes (members, leading unlisted bytes).
    pub listed_to: u64,
    /// Boundaries below this offset have been probed for member starts.
    pub probed_to: u64,
    /// Length of the data.
    pub len: u64,
}

impl ListingProgress {
    /// True when every member is listed.
    pub fn complete(&self) -> bool {
        self.listed_to >= self.len
    }
}

/// The placeholder: (its id, listed-to offset, probed-to offset), when listing is unfinished.
fn tail(doc: &Document) -> Option<(NodeId, u64, u64)> {
    let n = doc.nodes.last()?;
    if n.kind != TAIL_KIND || n.parent != Some(NodeId::ROOT) {
        return None;
    }
    let probed = n.fields.iter().find(|f| f.name == "unprobed").map_or(n.span.end, |f| f.span.start);
    Some((n.id, n.span.start, probed))
}

/// How far listing of `doc` (a gzarc document) has got. None for other documents.
pub fn listing_progress(doc: &Document) -> Option<ListingProgress> {
    if doc.format != "gzarc" {
        return None;
    }
    let members = doc.root().children.iter().filter(|c| doc.node(**c).is_some_and(|n| n.member.is_some())).count();
    let (listed_to, probed_to) = tail(doc).map_or((doc.len, doc.len), |(_, l, p)| (l, p));
    Some(ListingProgress { members: members as u64, listed_to, probed_to, len: doc.len })
}

/// The next range to probe for a step of `budget` bytes, or None when listing is complete.
/// The range starts and ends on 2048-byte boundaries (or the end of the data).
pub fn next_probe_range(doc: &Document, budget: u64) -> Option<(u64, u64)> {
    let (_, _, from) = tail(doc)?;
    let len = doc.len;
    let want = budget.max(SECTOR);
    let to = if want >= len.saturating_sub(from) { len } else { (from + want).div_ceil(SECTOR) * SECTOR };
    Some((from, to.min(len)))
}

/// The node of member `m`, keyed uniquely among its siblings.
fn add_member(doc: &mut Document, m: &MemberInfo, keys: &mut MemberKeys) {
    let len = doc.len;
    let key = keys.unique(m.display_name());
    let span = Span::new(m.offset, m.end);
    let id = doc.add_node(NodeId::ROOT, &key, "gzip member", span);
    if doc.has_expander() {
        doc.add_lazy(id, 0);
    } else {
        for f in m.fields() {
            doc.add_field(id, f);
        }
    }
    if let Some(nd) = doc.node_mut(id) {
        nd.member = Some(m.index);
        nd.summary = format!("0x{:x} bytes compressed", m.end - m.offset).into();
    }
    if let Some(e) = &m.header_error {
        doc.diag(Diagnostic::from_error(e));
    }
    if doc.has_expander() {
        // said when shown (`MemberFields::walk_step`): 315,000 members hold no step text
        doc.walk.push_node(id);
    } else {
        doc.walk.push(m.walk_step(len, id));
    }
}

/// A fresh listing: a placeholder covering all of `doc` with nothing probed.
pub(super) fn start(doc: &mut Document) {
    push_tail(doc, 0, 0);
}

fn push_tail(doc: &mut Document, listed_to: u64, probed_to: u64) {
    let len = doc.len;
    let id = doc.add_node(NodeId::ROOT, TAIL_KEY, TAIL_KIND, Span::new(listed_to, len));
    if probed_to > listed_to {
        doc.add_field(
            id,
            Field::new("probed", Span::new(listed_to, probed_to), Value::bytes(probed_to - listed_to))
                .note("boundaries probed; the member starting here (if any) ends at a start not yet found"),
        );
    }
    doc.add_field(
        id,
        Field::new("unprobed", Span::new(probed_to, len), Value::unknown_bytes(len - probed_to))
            .note("not yet probed for members"),
    );
    if let Some(n) = doc.node_mut(id) {
        n.summary = format!("0x{:x} bytes not yet listed", len - listed_to).into();
    }
    doc.diag(Diagnostic::new(
        Severity::Info,
        Some(listed_to),
        "",
        format!(
            "{PAUSED}: 0x{probed_to:x} of 0x{len:x} bytes probed; members from 0x{listed_to:x} on are not listed yet"
        ),
    ));
    doc.walk.push(WalkStep {
        span: Span::new(listed_to, len),
        what: "not yet listed".into(),
        detail: format!("listing paused after probing boundaries below 0x{probed_to:x}"),
        next: None,
        node: Some(id),
    });
}

/// Remove the placeholder (the last node) with its walk step and diagnostic.
fn pop_tail(doc: &mut Document, id: NodeId, listed_to: u64) {
    if doc.nodes.last().map(|n| n.id) != Some(id) {
        return;
    }
    doc.nodes.pop();
    if let Some(r) = doc.node_mut(NodeId::ROOT) {
        r.children.retain(|c| *c != id);
    }
    if doc.walk.last_node() == Some(id) {
        doc.walk.pop();
    }
    doc.diagnostics.retain(|d| !(is_pause(d) && d.offset == Some(listed_to)));
}

/// One listing step of at most `budget` probed bytes over the memory of `data`. Returns
/// true when listing is complete. `Document::validate()` holds after every step.
pub fn continue_listing(data: &[u8], doc: &mut Document, budget: u64) -> bool {
    let Some((from, to)) = next_probe_range(doc, budget) else { return true };
    let starts = probe(data, from, to);
    apply_probe(data, doc, from, to, &starts)
}

/// Apply the result of probing `from..to` (`starts`: member starts found there, ascending,
/// e.g. from [`probe_reader`] on a background thread) to `doc`: the members whose extent
/// is now known become nodes. Returns true when listing is complete. A range that does not
/// continue where the document's listing stopped is ignored (returns false).
pub fn apply_probe(data: &[u8], doc: &mut Document, from: u64, to: u64, starts: &[u64]) -> bool {
    apply(data, doc, from, to, starts, None, None)
}

/// Like [`apply_probe`], but member headers are read through `read_at` (e.g.
/// `Source::read_at`, `pread`) instead of the memory of `data`: listing a large mapped
/// archive then touches no mapped page per member (a page fault maps up to 16 cached
/// neighbouring pages, 64 KiB per member header). A header that does not parse is parsed
/// again from `data`, so diagnostics are identical.
pub fn apply_probe_reading(
    data: &[u8],
    doc: &mut Document,
    from: u64,
    to: u64,
    starts: &[u64],
    read_at: &mut dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize>,
) -> bool {
    apply(data, doc, from, to, starts, Some(read_at), None)
}

/// The first window of the member at `span` that [`header_via_reader`] reads, given all
/// the member's bytes (`extent`, from `span.start`): its header parsed in those bytes, as
/// that reading parses it, without a copy. None when `extent` is not the whole span.
pub(super) fn header_in_first_window(extent: &[u8], index: u32, span: Span) -> Option<MemberInfo> {
    if extent.len() as u64 != span.len() {
        return None;
    }
    let n = span.len().min(FIRST_HEADER_WINDOW);
    let head = extent.get(..usize::try_from(n).ok()?)?;
    let m = parse_header(&Bytes::with_base(head, span.start), index, span.start, span.start + n);
    Some(MemberInfo { end: span.end, ..m })
}

/// The bytes [`header_via_reader`] reads first: they hold a typical header.
const FIRST_HEADER_WINDOW: u64 = 4096;

/// The header of the member at `start..end`, read through `read_at` into a small buffer.
pub(super) fn header_via_reader(
    read_at: &mut dyn FnMut(u64, &mut [u8]) -> std::io::Result<usize>,
    data: &[u8],
    index: u32,
    start: u64,
    end: u64,
) -> MemberInfo {
    // 4 KiB holds a typical header; 140 KiB the largest possible (FEXTRA 64 KiB, FNAME
    // 1 KiB, FCOMMENT 64 KiB).
    for window in [FIRST_HEADER_WINDOW, 140 << 10] {
        let n = (end - start).min(window);
        let mut buf = vec![0u8; usize::try_from(n).unwrap_or(0)];
        let mut got = 0usize;
        while got < buf.len() {
            match buf.get_mut(got..).map(|rest| read_at(start + got as u64, rest)) {
                Some(Ok(k)) if k > 0 => got += k,
                _ => break,
            }
        }
        // the buffer addressed at the member's offset: spans come out absolute
        if got < buf.len() {
            // The file ends sooner than the listing found (it shrank meanwhile): what is
            // left is parsed, and the mapping past the end is never touched (SIGBUS).
            let left = buf.get(..got).unwrap_or(&[]);
            return MemberInfo {
                end,
                ..parse_header(&Bytes::with_base(left, start), index, start, start + got as u64)
            };
        }
        let m = parse_header(&Bytes::with_base(&buf, start), index, start, start + n);
        if m.header_error.is_some() {
            continue;
        }
        return MemberInfo { end, ..m };
    }
    // A header that does not parse in 140 KiB of a longer extent: parsed over the whole
    // extent, so its finding is the one the memory-mapped listing makes.
    parse_header(&Bytes::new(data), index, start, end)
}

/// Where a listing shown run by run has got: members numbered and keys taken so far (the
/// runs' documents do not hold the earlier members, see `stream.rs`).
#[derive(Default)]
pub(super) struct ListingCursor {
    members: u32,
    keys: Option<MemberKeys>,
}

/// Continue a listing in a fresh document `doc`: a placeholder from `listed_to` with
/// boundaries below `probed_to` probed, as the previous run's document ended.
pub(super) fn resume(doc: &mut Document, listed_to: u64, probed_to: u64) {
    push_tail(doc, listed_to, probed_to);
}

/// [`apply_probe_reading`] numbering members and taking keys from `cursor` (and leaving
/// them there for the next run) instead of from the members `doc` lists.
pub(super) fn apply_run(
    data: &[u8],
    doc: &mut Document,
    from: u64,
    to: u64,
    starts: &[u64],
    read_at: &mut ReadAt<'_>,
    cursor: &mut ListingCursor,
) -> bool {
    apply(data, doc, from, to, starts, Some(read_at), Some(cursor))
}

/// The root's summary once every one of `members` members is listed.
pub(super) fn complete_summary(members: u64) -> String {
    format!("{members} members")
}

/// `doc`'s findings without the placeholder's "listing paused".
pub(super) fn findings_without_pause(doc: &Document) -> impl Iterator<Item = Diagnostic> + '_ {
    doc.diagnostics.iter().filter(|d| !is_pause(d)).cloned()
}

/// True for the placeholder's "listing paused" finding.
fn is_pause(d: &Diagnostic) -> bool {
    d.severity == Severity::Info && d.message.starts_with(PAUSED)
}

/// Bytes `0..` this are covered by listed nodes (the whole length when listing is complete).
pub(super) fn listed_to(doc: &Document) -> u64 {
    tail(doc).map_or(doc.len, |(_, l, _)| l)
}

fn apply(
    data: &[u8],
    doc: &mut Document,
    from: u64,
    to: u64,
    starts: &[u64],
    mut read_at: Option<&mut ReadAt<'_>>,
    cursor: Option<&mut ListingCursor>,
) -> bool {
    let Some((tail_id, listed_to, probed_to)) = tail(doc) else { return true };
    let len = doc.len;
    if from != probed_to || to < from || to > len || data.len() as u64 != len {
        return false;
    }
    pop_tail(doc, tail_id, listed_to);
    // The pending member (found by an earlier step) comes first.
    let mut all: Vec<u64> = Vec::with_capacity(starts.len() + 1);
    if listed_to < probed_to && is_member_start(data, listed_to) {
        all.push(listed_to);
    }
    all.extend(starts.iter().copied().filter(|&s| s >= from && s < to && s % SECTOR == 0));
    let done = to >= len;
    let first_time = listed_to == 0 && !is_member_start(data, 0);
    if first_time && (!all.is_empty() || done) {
        let first = all.first().copied().unwrap_or(len);
        if first > 0 {
            add_head(doc, first);
        }
    }
    let listable = if done { all.len() } else { all.len().saturating_sub(1) };
    let mut own = ListingCursor::default();
    let cursor = match cursor {
        Some(c) => c,
        None => {
            own.members = u32::try_from(
                doc.root().children.iter().filter(|c| doc.node(**c).is_some_and(|n| n.member.is_some())).count(),
            )
            .unwrap_or(u32::MAX);
            &mut own
        }
    };
    let keys = cursor.keys.get_or_insert_with(|| {
        MemberKeys::new(doc.root().children.iter().filter_map(|c| doc.node(*c)).map(|n| n.key.as_str()))
    });
    let mut index = cursor.members;
    let b = Bytes::new(data);
    for (i, &s) in all.iter().enumerate().take(listable) {
        let end = all.get(i + 1).copied().unwrap_or(len);
        let m = match read_at.as_mut() {
            Some(r) => header_via_reader(&mut **r, data, index, s, end),
            None => parse_header(&b, index, s, end),
        };
        add_member(doc, &m, keys);
        index = index.saturating_add(1);
    }
    cursor.members = index;
    let members = index;
    if done {
        if members == 0 {
            doc.diag(no_member());
        }
        if let Some(r) = doc.node_mut(NodeId::ROOT) {
            r.summary = complete_summary(u64::from(members)).into();
        }
        return true;
    }
    let new_listed = if listable < all.len() { all.get(listable).copied().unwrap_or(listed_to) } else { listed_to };
    push_tail(doc, new_listed, to);
    if let Some(r) = doc.node_mut(NodeId::ROOT) {
        r.summary = format!("{members} members listed so far (0x{to:x} of 0x{len:x} bytes probed)").into();
    }
    false
}

/// The finding of an archive in which no member was found.
pub(super) fn no_member() -> Diagnostic {
    Diagnostic::new(Severity::Error, Some(0), "", "no gzip member at any 2048-byte boundary")
}

/// The finding of `first` bytes before the first member (or the whole file, without one).
pub(super) fn bytes_before_first(first: u64) -> Diagnostic {
    Diagnostic::new(
        Severity::Warning,
        Some(0),
        "",
        format!("0x{first:x} bytes before the first member hold no gzip magic at a 2048-byte boundary"),
    )
}

fn add_head(doc: &mut Document, first: u64) {
    let id = doc.add_node(NodeId::ROOT, "unlisted", "unknown", Span::new(0, first));
    doc.add_field(id, Field::new("bytes", Span::new(0, first), Value::unknown_bytes(first)));
    doc.diag(bytes_before_first(first));
    doc.walk.push(WalkStep {
        span: Span::new(0, first),
        what: "unlisted bytes".into(),
        detail: "no 1f 8b 08 at any 2048-byte boundary here".into(),
        next: Some(first),
        node: Some(id),
    });
}

/// Keys for members: a key not used by any listed sibling, the display name, else
/// `name~2`, `name~3`, … (the smallest free suffix). A name seen before remembers the
/// suffix to try next, so N like-named members cost O(N), not O(N²): keys are never freed,
/// so every suffix below the remembered one is still taken and the smallest free one is
/// the same.
pub(super) struct MemberKeys {
    /// Keys in use, as node keys (`/` escaped as by `Document::add_node`).
    taken: KeySet,
    /// Display name → the suffix to try next for it (1 = the bare name); only names met
    /// twice are here (a name met once starts at 1 and finds its bare key taken).
    next: HashMap<String, u32>,
}

impl MemberKeys {
    /// Start from the keys of the siblings already listed.
    pub(super) fn new<S: AsRef<str>>(existing: impl IntoIterator<Item = S>) -> Self {
        let mut taken = KeySet::default();
        for k in existing {
            taken.insert(k.as_ref());
        }
        MemberKeys { taken, next: HashMap::new() }
    }

    /// The key for a member displayed as `name` (see the type).
    pub(super) fn unique(&mut self, name: String) -> String {
        fn escaped(k: &str) -> std::borrow::Cow<'_, str> {
            if k.contains('/') { k.replace('/', "\\x2f").into() } else { k.into() }
        }
        let remembered = self.next.get(&name).copied();
        let mut n = remembered.unwrap_or(1);
        let mut key = if n == 1 { name.clone() } else { format!("{name}~{n}") };
        while self.taken.contains(&escaped(&key)) {
            n = n.saturating_add(1);
            key = format!("{name}~{n}");
        }
        self.taken.insert(&escaped(&key));
        if n > 1 || remembered.is_some() {
            self.next.insert(name, n.saturating_add(1));
        }
        key
    }
}

/// A set of strings kept in one buffer, found by hash: 315,000 member keys take their
/// text and about 24 bytes each, not a heap string apiece.
#[derive(Default)]
struct KeySet {
    text: String,
    /// End of each key in `text` (its start is the previous key's end).
    ends: Vec<usize>,
    /// Hash of a key → its index, and the indexes of further keys with the same hash.
    first: HashMap<u64, u32>,
    more: HashMap<u64, Vec<u32>>,
}

impl KeySet {
    fn hash(k: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        k.hash(&mut h);
        h.finish()
    }

    fn get(&self, i: u32) -> &str {
        let i = i as usize;
        let start = if i == 0 { 0 } else { self.ends.get(i - 1).copied().unwrap_or(0) };
        let end = self.ends.get(i).copied().unwrap_or(start);
        self.text.get(start..end).unwrap_or("")
    }

    fn contains(&self, k: &str) -> bool {
        self.contains_hashed(Self::hash(k), k)
    }

    fn contains_hashed(&self, h: u64, k: &str) -> bool {
        self.first.get(&h).is_some_and(|&i| self.get(i) == k)
            || self.more.get(&h).is_some_and(|v| v.iter().any(|&i| self.get(i) == k))
    }

    fn insert(&mut self, k: &str) {
        let h = Self::hash(k);
        if self.contains_hashed(h, k) {
            return;
        }
        let Ok(i) = u32::try_from(self.ends.len()) else { return };
        self.text.push_str(k);
        self.ends.push(self.text.len());
        match self.first.entry(h) {
            std::collections::hash_map::Entry::Occupied(_) => self.more.entry(h).or_default().push(i),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(i);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::formats::gzarc::{GzArc, write};
    use crate::limits::Limits;
    use std::collections::HashSet;

    /// The scheme as first written (the smallest free suffix, searched from 1 every time):
    /// the reference the remembered-suffix version must equal.
    fn reference_keys(names: &[&str]) -> Vec<String> {
        let escaped = |k: &str| k.replace('/', "\\x2f");
        let mut taken: HashSet<String> = HashSet::new();
        names
            .iter()
            .map(|name| {
                let mut key = name.to_string();
                let mut n = 1u32;
                while taken.contains(&escaped(&key)) {
                    n += 1;
                    key = format!("{name}~{n}");
                }
                taken.insert(escaped(&key));
                key
            })
            .collect()
    }

    #[test]
    fn keys_equal_the_reference_scheme_on_tricky_names() {
        // Literal `x~2` before and after duplicates, `/` against its escape, a name that is
        // itself a suffixed key of another.
        let names =
            ["x", "x~2", "x", "x", "x~3", "x", "a/b", "a\\x2fb", "a/b", "x~2", "x~2", "x~2~2", "", "", "member[0]"];
        let mut k = MemberKeys::new(Vec::<String>::new());
        let got: Vec<String> = names.iter().map(|n| k.unique(n.to_string())).collect();
        assert_eq!(got, reference_keys(&names));
        assert_eq!(got.get(..6).unwrap(), ["x", "x~2", "x~3", "x~4", "x~3~2", "x~5"]);
        // Keys of siblings listed by an earlier step count as taken.
        let mut k = MemberKeys::new(["y".to_string(), "y~2".to_string(), "z~3".to_string()]);
        assert_eq!(k.unique("y".into()), "y~3");
        assert_eq!(k.unique("z".into()), "z");
        assert_eq!(k.unique("z".into()), "z~2");
        assert_eq!(k.unique("z".into()), "z~4");
    }

    proptest::proptest! {
        #[test]
        fn keys_equal_the_reference_scheme(names in proptest::collection::vec("[ab~2/]{0,4}", 0..40)) {
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut k = MemberKeys::new(Vec::<String>::new());
            let got: Vec<String> = names.iter().map(|n| k.unique(n.clone())).collect();
            proptest::prop_assert_eq!(got, reference_keys(&refs));
        }
    }

    /// 20,000 members with one gzip name: keys `clip.cmp`, `clip.cmp~2`, …, all unique.
    #[test]
    fn many_like_named_members_get_the_suffix_scheme() {
        const N: usize = 20_000;
        let mut one = write::gzip_member("clip.cmp", b"x", write::FIXTURE_MTIME);
        write::pad_to_sector(&mut one);
        let data = one.repeat(N);
        let doc = GzArc.describe(&data, "DUP.BIN", &Limits::default()).unwrap();
        let keys: Vec<&str> = doc.root().children.iter().map(|c| doc.node(*c).unwrap().key.as_str()).collect();
        assert_eq!(keys.len(), N);
        assert_eq!(keys.iter().collect::<HashSet<_>>().len(), N);
        for (i, k) in keys.iter().enumerate() {
            let want = if i == 0 { "clip.cmp".to_string() } else { format!("clip.cmp~{}", i + 1) };
            assert_eq!(*k, want);
        }
    }
}
