//! An opened input: its bytes, the format that describes them and the document, plus
//! addressing of nodes by path or offset across nested members (`DATA.BIN/xasc00.cmp/…`).

use crate::error::{ErrorKind, ParseError};
use crate::formats::{self, Format};
use crate::limits::Limits;
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
    #[error("{name}: no node at {addr}")]
    NoNode {
        /// The file or member name.
        name: String,
        /// The address given.
        addr: String,
    },
}

/// Bytes, their format and their document.
pub struct Opened {
    /// The bytes.
    pub source: Arc<Source>,
    /// The format describing them.
    pub format: &'static dyn Format,
    /// The document.
    pub doc: Document,
    /// Names of the outer sources this one is nested in, outermost first.
    pub outer: Vec<String>,
}

impl std::fmt::Debug for Opened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opened").field("source", &self.source).field("format", &self.format.id()).finish()
    }
}

impl Opened {
    /// Open a file (read-only) and describe it.
    pub fn open_path(
        path: &Path,
        opts: OpenOptions,
        forced: Option<&str>,
        limits: &Limits,
    ) -> Result<Opened, OpenError> {
        let src = Source::open(path, opts)?;
        Opened::from_source(Arc::new(src), forced, limits, Vec::new())
    }

    /// Describe bytes already loaded.
    pub fn from_source(
        source: Arc<Source>,
        forced: Option<&str>,
        limits: &Limits,
        outer: Vec<String>,
    ) -> Result<Opened, OpenError> {
        let (format, doc) = formats::describe(source.bytes(), source.name(), forced, limits)
            .map_err(|err| OpenError::Parse { name: source.name().to_string(), err })?;
        Ok(Opened { source, format, doc, outer })
    }

    /// Name shown for these bytes: outer names then this one, joined by ` › `.
    pub fn title(&self) -> String {
        let mut parts = self.outer.clone();
        parts.push(self.source.name().to_string());
        parts.join(" › ")
    }

    /// Open the nested member a node links to, as its own document.
    pub fn open_member(&self, node: NodeId, limits: &Limits) -> Result<Opened, OpenError> {
        let name = self.source.name().to_string();
        let (idx, span) =
            self.doc.node(node).and_then(|n| Some((n.member?, n.span))).ok_or_else(|| OpenError::Parse {
                name: name.clone(),
                err: ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", self.doc.path(node)))),
            })?;
        // From the listed span: an archive member is read without finding it again.
        let m = self
            .format
            .member_in(self.source.bytes(), idx, span, limits)
            .map_err(|err| OpenError::Parse { name: name.clone(), err: err.within(self.doc.path(node)) })?;
        let mut outer = self.outer.clone();
        outer.push(name);
        let label = if m.inflated { format!("{} (inflated)", m.name) } else { m.name.clone() };
        let src = Source::from_vec(label, m.bytes);
        let mut opened = Opened::from_source(Arc::new(src), None, limits, outer)?;
        // Keep the member's plain name as its root key so paths read `DATA.BIN/xasc00.cmp/...`.
        if let Some(root) = opened.doc.node_mut(NodeId::ROOT) {
            root.key = m.name;
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
        let no_node = |o: &Opened| OpenError::NoNode { name: o.source.name().to_string(), addr: addr.to_string() };
        let mut cur = self;
        let mut segs: Vec<&str> = path.trim_matches('/').split('/').filter(|s| !s.is_empty()).collect();
        if segs.first() == Some(&cur.doc.root().key.as_str()) {
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
                let base = cur.doc.path(node);
                if let Some(n) = cur.doc.find_path(&format!("{base}/{prefix}")) {
                    found = Some((n, j));
                    break;
                }
            }
            let Some((n, used)) = found else { return Err(no_node(&cur)) };
            i += used;
            node = n;
            if (i < segs.len() || off.is_some()) && cur.doc.node(n).is_some_and(|x| x.member.is_some()) {
                cur = cur.open_member(n, limits)?;
                node = NodeId::ROOT;
                if segs.get(i) == Some(&cur.doc.root().key.as_str()) {
                    i += 1;
                }
            }
        }
        if let Some(o) = off {
            let o = parse_offset(o).ok_or_else(|| no_node(&cur))?;
            node = cur.doc.node_at(o).ok_or_else(|| no_node(&cur))?;
        }
        Ok((cur, node))
    }
}

/// How far the listing of an archive's members has got. Documents of formats that list
/// everything at once (every format but sector-gzip archives) are always complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingProgress {
    /// Members listed as nodes so far.
    pub members: u64,
    /// Bytes `0..listed_bytes` are covered by listed nodes.
    pub listed_bytes: u64,
    /// Bytes `0..probed_bytes` have been searched for member starts.
    pub probed_bytes: u64,
    /// Length of the bytes.
    pub len: u64,
}

impl ListingProgress {
    /// True when every member is listed.
    pub fn complete(&self) -> bool {
        self.listed_bytes >= self.len
    }

    /// Share of the bytes probed, in percent (0..=100).
    pub fn percent(&self) -> u8 {
        if self.len == 0 {
            return 100;
        }
        u8::try_from(u128::from(self.probed_bytes.min(self.len)) * 100 / u128::from(self.len)).unwrap_or(100)
    }
}

/// One probed range of an unfinished listing: where member starts were found in
/// `from..to`. Made off the UI thread by a [`ListingProber`], applied with
/// [`Opened::apply_listing`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingStep {
    /// First byte probed.
    pub from: u64,
    /// End of the probed range (exclusive).
    pub to: u64,
    starts: Vec<u64>,
}

impl ListingStep {
    /// True when this step reaches the end of the bytes (the last step).
    pub fn is_last(&self, len: u64) -> bool {
        self.to >= len
    }
}

/// Probes the rest of an unfinished listing in steps of a fixed size, reading the file by
/// `pread` (no mapped page is touched, so RSS stays bounded however large the file). It
/// owns only the bytes (`Arc<Source>`), not the document, so it can run on a background
/// thread while the UI thread applies its steps (in order) to its own document.
#[derive(Debug)]
pub struct ListingProber {
    source: Arc<Source>,
    next: u64,
    step: u64,
}

impl ListingProber {
    /// Probe the next range; None when the end was reached.
    pub fn next_step(&mut self) -> Option<std::io::Result<ListingStep>> {
        self.next_step_unless(&std::sync::atomic::AtomicBool::new(false))
    }

    /// Like [`ListingProber::next_step`], but gives up (None) as soon as `stop` is set,
    /// checked every 4 MiB, so a background prober ends promptly when its consumer is gone.
    pub fn next_step_unless(&mut self, stop: &std::sync::atomic::AtomicBool) -> Option<std::io::Result<ListingStep>> {
        const PIECE: u64 = 4 << 20;
        let len = self.source.len();
        if self.next >= len {
            return None;
        }
        let from = self.next;
        let to = from.saturating_add(self.step.max(1)).min(len);
        let src = &self.source;
        let mut read_at = |off: u64, buf: &mut [u8]| src.read_at(off, buf);
        let mut starts = Vec::new();
        let mut at = from;
        while at < to {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            let end = at.saturating_add(PIECE).min(to);
            match formats::gzarc::probe_reader(&mut read_at, at, end) {
                Ok(found) => starts.extend(found),
                Err(e) => return Some(Err(e)),
            }
            at = end;
        }
        self.next = to;
        Some(Ok(ListingStep { from, to, starts }))
    }
}

impl Opened {
    /// How far the member listing has got (complete for formats without progressive
    /// listing).
    pub fn listing_progress(&self) -> ListingProgress {
        match formats::gzarc::listing_progress(&self.doc) {
            Some(p) => {
                ListingProgress { members: p.members, listed_bytes: p.listed_to, probed_bytes: p.probed_to, len: p.len }
            }
            None => ListingProgress {
                members: 0,
                listed_bytes: self.doc.len,
                probed_bytes: self.doc.len,
                len: self.doc.len,
            },
        }
    }

    /// The node standing for the bytes not listed yet (always the last node; its id
    /// changes with every listing step), when the listing is unfinished.
    pub fn unlisted_node(&self) -> Option<NodeId> {
        if self.listing_progress().complete() {
            return None;
        }
        self.doc.nodes.last().filter(|n| n.kind == formats::gzarc::TAIL_KIND).map(|n| n.id)
    }

    /// A prober for the rest of the listing in steps of `step` bytes, or None when the
    /// listing is complete.
    pub fn listing_prober(&self, step: u64) -> Option<ListingProber> {
        let (from, _) = formats::gzarc::next_probe_range(&self.doc, step)?;
        Some(ListingProber { source: Arc::clone(&self.source), next: from, step })
    }

    /// Apply a probed step to the document (member headers are read by `pread`). Steps
    /// must come in order; one that does not continue where the listing stopped is
    /// ignored. Returns true when the listing is complete.
    pub fn apply_listing(&mut self, step: &ListingStep) -> bool {
        if self.listing_progress().complete() {
            return true;
        }
        let src = &self.source;
        let mut read_at = |off: u64, buf: &mut [u8]| src.read_at(off, buf);
        formats::gzarc::apply_probe_reading(src.bytes(), &mut self.doc, step.from, step.to, &step.starts, &mut read_at)
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

    /// A copy sharing the bytes, with its own copy of the document (to apply listing
    /// steps while another thread still reads the original).
    pub fn clone_document(&self) -> Opened {
        Opened {
            source: Arc::clone(&self.source),
            format: self.format,
            doc: self.doc.clone(),
            outer: self.outer.clone(),
        }
    }
}

/// How much of the pipeline [`exercise`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exercise {
    /// Describe, validate, walk, decode every clip, members, export conversion.
    Core,
    /// Core plus the strict `check` and `survey` (each parses the input again).
    Full,
}

/// Run every read-only operation a user can trigger on `bytes` named `name`: sniff,
/// describe, validate, offset lookups, decode of every node carrying animation (up to 400
/// nodes), conversion of posed clips to export JSON, the same for nested members down to
/// `depth_left` levels, and with [`Exercise::Full`] also `check`, `survey` and the
/// curves-only decode the TUI plots first. Used by the never-panic sweeps and the fuzz
/// targets. Returns how many documents were described, or the first broken invariant (a
/// document violating the span contract, a track with the wrong number of samples, a
/// curves-only decode whose tracks differ from the complete one).
pub fn exercise(
    name: &str,
    bytes: Vec<u8>,
    forced: Option<&str>,
    limits: &Limits,
    depth_left: usize,
    how: Exercise,
) -> Result<usize, String> {
    use crate::formats::DecodeOptions;
    let Ok(o) = Opened::from_source(Arc::new(Source::from_vec(name, bytes)), forced, limits, Vec::new()) else {
        return Ok(0);
    };
    o.doc.validate().map_err(|p| format!("{name}: document violates the span contract: {p:?}"))?;
    let data = o.source.bytes();
    if how == Exercise::Full {
        let _ = o.format.check(data, name, limits);
        let _ = o.format.survey(data, name, limits);
    }
    let _ = o.doc.node_at(data.len() as u64 / 2);
    let _ = o.doc.field_at(data.len().saturating_sub(1) as u64);
    let mut described = 1;
    for n in o.doc.nodes.iter().take(400) {
        // The TUI plots from a curves-only decode first: it must agree with the complete one.
        let curves = match (&n.anim, how) {
            (Some(key), Exercise::Full) => Some(o.format.decode(
                data,
                key,
                &DecodeOptions { curves_only: true, ..DecodeOptions::default() },
                limits,
            )),
            _ => None,
        };
        if let Some(key) = &n.anim
            && let Ok(clip) = o.format.decode(data, key, &DecodeOptions::default(), limits)
        {
            if let Some(Ok(c)) = &curves {
                let shape = |x: &crate::model::anim::Clip| {
                    x.tracks.iter().map(|t| (t.name.clone(), t.samples.len())).collect::<Vec<_>>()
                };
                if c.frame_count != clip.frame_count || shape(c) != shape(&clip) {
                    return Err(format!("{name}: {key}: the curves-only decode differs from the complete one"));
                }
            }
            if let Some(t) = clip.tracks.iter().find(|t| t.samples.len() != clip.frame_count) {
                return Err(format!(
                    "{name}: {key}: track {} has {} samples for {} frames",
                    t.name,
                    t.samples.len(),
                    clip.frame_count
                ));
            }
            if let Some(p) = &clip.poses
                && let Ok((mut b, _)) = crate::export::skeleton::to_blender(p, None)
            {
                // Every frame went through the conversion; serialising two is enough to
                // exercise the JSON writer (and its non-finite check) without the cost of all.
                let last = b.frames.len().saturating_sub(1);
                b.frames = b
                    .frames
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i == 0 || *i == last)
                    .map(|(_, f)| f.clone())
                    .collect();
                let _ = crate::export::matrix_json(&clip, &b, name);
            }
        }
        if n.member.is_some()
            && depth_left > 0
            && let Ok(m) = o.open_member(n.id, limits)
        {
            let inner = m.source.bytes().to_vec();
            described += exercise(m.source.name(), inner, None, limits, depth_left - 1, how)?;
        }
    }
    Ok(described)
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
    use crate::formats::gzarc::write::archive;

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
            assert!(part.doc.validate().is_ok());
            assert!(part.listing_progress().members <= 40);
        }
        assert!(steps > 3, "{steps}");
        assert!(part.unlisted_node().is_none());
        assert_eq!(part.listing_progress().percent(), 100);
        let keys = |o: &Opened| o.doc.nodes.iter().map(|n| (n.key.clone(), n.span, n.member)).collect::<Vec<_>>();
        assert_eq!(keys(&part), keys(&whole));
        // members open from their listed span, as from the complete listing
        let id = part.doc.find_path("a.bin/m39.bin").unwrap();
        let m = part.open_member(id, &Limits::default()).unwrap();
        assert_eq!(m.source.bytes(), ms[39].1.as_slice());
    }

    #[test]
    fn a_prober_on_another_thread_feeds_the_document() {
        let bytes = archive(&members(25));
        let mut o = open(bytes, 0);
        let mut prober = o.listing_prober(0x2800).unwrap();
        let steps =
            std::thread::spawn(move || std::iter::from_fn(|| prober.next_step()).collect::<Vec<_>>()).join().unwrap();
        let len = o.source.len();
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

    #[test]
    fn other_formats_are_always_complete() {
        let mut o = open(b"plain bytes".to_vec(), 0);
        assert!(o.listing_progress().complete());
        assert!(o.listing_prober(1).is_none());
        assert!(o.unlisted_node().is_none());
        assert!(o.continue_listing(1).unwrap());
    }
}
