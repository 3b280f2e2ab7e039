//! User layouts: TOML files that teach the tool what an opaque node's bytes are
//! (`u32 count; count × {f32 x, y, z}`), applied to the nodes they name and shown like
//! built-in fields, marked as user fields.
//!
//! Layouts come from `$XDG_CONFIG_HOME/animscope/layouts/*.toml` (else
//! `$HOME/.config/animscope/layouts`) and `--layouts DIR`. A file names the format, where it
//! applies (node kinds, a node path, or an offset range, optionally narrowed to one
//! built-in field's bytes) and its structs:
//!
//! ```toml
//! format = "ccsf"
//! kinds = ["Particle"]
//! field = "payload"
//!
//! [[struct.main]]
//! name = "count"
//! type = "u32"
//! [[struct.main]]
//! name = "points"
//! type = "vec3"
//! count = "count"
//!
//! [[struct.vec3]]
//! name = "x"
//! type = "f32"
//! ```
//!
//! [`parse`] reads and checks a file (one clear error with file, line and column),
//! [`interpret`] applies one to a node's bytes, spending the document's memory budget,
//! [`export`] writes a Kaitai Struct fragment or a C struct.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod builder;
pub mod export;
pub mod interpret;
pub mod parse;

use crate::limits::Limits;
use crate::model::{Annotate, Document, NodeId, Span};
use crate::source::Source;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use interpret::{Stop, apply};
pub use parse::{LayoutError, parse_layout};

/// The layout description types, shared with the built-in records' tables.
pub use crate::model::layout::{Count, Endian, LayoutField, StructDef, Ty};

/// The note every user layout field carries (followed by the layout's name), so every view
/// can tell them from built-in fields ([`crate::model::Field::is_user_layout`]).
pub use crate::model::USER_LAYOUT_NOTE;

/// Where a layout applies.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Target {
    /// Node kinds (`Particle`).
    pub kinds: Vec<String>,
    /// A node path (the whole path, or its last segments).
    pub path: Option<String>,
    /// An absolute byte range of the document: applied to the innermost node holding it.
    pub range: Option<Span>,
    /// A built-in field of the node whose bytes the layout covers (`payload`); none: the
    /// whole node (or the range).
    pub field: Option<String>,
}

/// One layout file, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Its name (the `name` key, else the file stem).
    pub name: String,
    /// The file it came from.
    pub origin: String,
    /// Format id it applies to (`ccsf`).
    pub format: String,
    /// Where it applies.
    pub target: Target,
    /// Its structs; [`Layout::root`] is where reading starts.
    pub structs: Vec<StructDef>,
    /// Index of the struct read first.
    pub root: usize,
}

impl Layout {
    /// The struct reading starts with.
    pub fn root_struct(&self) -> Option<&StructDef> {
        self.structs.get(self.root)
    }

    /// The bytes of node `id` this layout reads, when it applies there.
    pub fn region(&self, doc: &Document, id: NodeId) -> Option<Span> {
        if self.format != doc.format {
            return None;
        }
        let n = doc.node(id)?;
        let t = &self.target;
        if !t.kinds.is_empty() && !t.kinds.iter().any(|k| k.as_str() == n.kind.as_str()) {
            return None;
        }
        self.region_of_kind(doc, id, &mut None)
    }

    /// [`Layout::region`] for a node whose format and kind this layout is known to match;
    /// `path` is the node's path, made here once when a layout first needs it.
    fn region_of_kind(&self, doc: &Document, id: NodeId, path: &mut Option<String>) -> Option<Span> {
        let n = doc.node(id)?;
        let t = &self.target;
        if let Some(p) = &t.path {
            let full = path.get_or_insert_with(|| doc.path(id));
            let p = p.trim_matches('/');
            let tail = full.strip_suffix(p).is_some_and(|before| before.is_empty() || before.ends_with('/'));
            if !tail {
                return None;
            }
        }
        let mut span = n.span;
        if let Some(r) = t.range {
            // the innermost node holding the range: none of its children does
            let child_holds = n.children.iter().filter_map(|c| doc.node(*c)).any(|c| c.span.covers(&r));
            if !n.span.covers(&r) || child_holds {
                return None;
            }
            span = r;
        }
        if let Some(f) = &t.field {
            span = n.fields.iter().find(|x| x.name == *f && !x.is_user_layout())?.span;
        }
        Some(span)
    }

    /// The last segment of the path this layout names, when it names one.
    fn path_key(&self) -> Option<&str> {
        let p = self.target.path.as_deref()?.trim_matches('/');
        Some(p.rsplit('/').next().unwrap_or(p))
    }
}

/// The layouts of one format, indexed by what a node must be for each to apply: a node
/// looks up its kind and its key (a path's last segment) once, instead of every layout
/// being tried on every node (and the node's path made for each).
#[derive(Debug, Default)]
struct Index {
    /// Layouts naming kinds, by kind.
    by_kind: HashMap<String, Vec<usize>>,
    /// Layouts naming a path and no kinds, by the path's last segment.
    by_key: HashMap<String, Vec<usize>>,
    /// Layouts naming only a range, by the range's start.
    by_range: Vec<(u64, usize)>,
}

impl Index {
    fn new(layouts: &[Layout]) -> HashMap<String, Index> {
        let mut all: HashMap<String, Index> = HashMap::new();
        for (i, l) in layouts.iter().enumerate() {
            let ix = all.entry(l.format.clone()).or_default();
            let t = &l.target;
            if !t.kinds.is_empty() {
                let mut kinds: Vec<&String> = t.kinds.iter().collect();
                kinds.sort_unstable();
                kinds.dedup();
                for k in kinds {
                    ix.by_kind.entry(k.clone()).or_default().push(i);
                }
            } else if let Some(key) = l.path_key() {
                ix.by_key.entry(key.to_string()).or_default().push(i);
            } else if let Some(r) = t.range {
                ix.by_range.push((r.start, i));
            }
        }
        for ix in all.values_mut() {
            ix.by_range.sort_unstable();
        }
        all
    }

    /// The layouts that may apply to `n`, in the order their files were read.
    fn candidates(&self, n: &crate::model::Node) -> Vec<usize> {
        let mut c: Vec<usize> = Vec::new();
        c.extend(self.by_kind.get(n.kind.as_str()).into_iter().flatten());
        c.extend(self.by_key.get(n.key.as_str()).into_iter().flatten());
        // ranges starting within the node's span
        let from = self.by_range.partition_point(|(s, _)| *s < n.span.start);
        c.extend(
            self.by_range.get(from..).unwrap_or_default().iter().take_while(|(s, _)| *s < n.span.end).map(|x| x.1),
        );
        if c.len() > 1 {
            c.sort_unstable();
            c.dedup();
        }
        c
    }
}

/// Every layout loaded, for every format.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LayoutSet {
    /// The layouts, in the order their files were read.
    pub layouts: Vec<Layout>,
    /// Estimated bytes the layouts read so far hold ([`held_by`]).
    held: u64,
}

/// Estimated bytes a checked layout holds: its structs and fields with their names.
fn held_by(l: &Layout) -> u64 {
    let fields: usize = l
        .structs
        .iter()
        .flat_map(|s| &s.fields)
        .map(|f| {
            std::mem::size_of::<LayoutField>()
                + f.name.len()
                + f.ty_name.len()
                + f.enums.iter().chain(&f.flags).map(|(_, n)| n.len() + 32).sum::<usize>()
        })
        .sum();
    let structs: usize = l.structs.iter().map(|s| std::mem::size_of::<StructDef>() + s.name.len()).sum();
    (fields + structs) as u64
}

impl LayoutSet {
    /// True when a layout names format `format`.
    pub fn has_format(&self, format: &str) -> bool {
        self.layouts.iter().any(|l| l.format == format)
    }

    /// Read every `*.toml` of `dir` (in name order), each at most the command's side-file
    /// cap (`--limit side-file`), parsed under its memory budget. A missing directory is an
    /// error.
    pub fn read_dir(&mut self, dir: &Path, limits: &Limits) -> Result<(), LayoutError> {
        let list = std::fs::read_dir(dir).map_err(|e| LayoutError::io(dir, &e.to_string()))?;
        let mut files: Vec<PathBuf> =
            list.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
        files.sort();
        for f in files {
            self.read_file(&f, limits)?;
        }
        Ok(())
    }

    /// Read one layout file, opened as inputs are: a regular file, at most the command's
    /// side-file cap; parsed under what is left of its memory budget (the layouts read
    /// before it hold the rest), the budget error when its lines would need more.
    pub fn read_file(&mut self, path: &Path, limits: &Limits) -> Result<(), LayoutError> {
        let bytes = crate::source::read_small_file(path, limits.max_side_file)
            .map_err(|e| LayoutError::io(path, &e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|_| LayoutError::io(path, "not UTF-8 text"))?;
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let room = limits.max_memory.saturating_sub(self.held);
        let l = parse::parse_layout_within(&text, &path.display().to_string(), &stem, room)?;
        self.held = self.held.saturating_add(held_by(&l));
        self.layouts.push(l);
        Ok(())
    }

    /// The user's layouts directory: `$XDG_CONFIG_HOME/animscope/layouts`, else
    /// `$HOME/.config/animscope/layouts` (a relative `XDG_CONFIG_HOME` is ignored, as the
    /// XDG base directory spec says).
    pub fn user_dir() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
        Some(base.join("animscope").join("layouts"))
    }

    /// The user's layouts (problems returned as messages, each bad file skipped) and those
    /// of `dir` (a bad file there is an error); each file at most the side-file cap, all
    /// of them parsed and held under the memory budget of `limits`.
    pub fn load(
        user_dir: Option<&Path>,
        dir: Option<&Path>,
        limits: &Limits,
    ) -> Result<(LayoutSet, Vec<String>), LayoutError> {
        let mut set = LayoutSet::default();
        let mut problems = Vec::new();
        if let Some(u) = user_dir.filter(|u| u.is_dir()) {
            let mut files: Vec<PathBuf> = std::fs::read_dir(u)
                .map(|l| l.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect())
                .unwrap_or_default();
            files.sort();
            for f in files {
                if let Err(e) = set.read_file(&f, limits) {
                    problems.push(format!("{e} (file ignored)"));
                }
            }
        }
        if let Some(d) = dir {
            set.read_dir(d, limits)?;
        }
        Ok((set, problems))
    }

    /// The annotator applying these layouts to documents of `source`'s bytes.
    pub fn annotator(self: &Arc<Self>, source: Arc<Source>) -> Arc<dyn Annotate> {
        Arc::new(Annotator { set: Arc::clone(self), index: Index::new(&self.layouts), source })
    }
}

/// Applies a [`LayoutSet`] to each node of a document as it is built.
struct Annotator {
    set: Arc<LayoutSet>,
    /// The set's layouts by format, then by what they match.
    index: HashMap<String, Index>,
    source: Arc<Source>,
}

impl Annotate for Annotator {
    fn annotate(&self, doc: &mut Document, node: NodeId) {
        let Some(ix) = self.index.get(doc.format) else { return };
        let Some(candidates) = doc.node(node).map(|n| ix.candidates(n)) else { return };
        let mut path = None;
        for l in candidates.iter().filter_map(|i| self.set.layouts.get(*i)) {
            if let Some(region) = l.region_of_kind(doc, node, &mut path) {
                // Read where each value is, under the check (pread for a mapped file):
                // annotations run as nodes are expanded, which a streaming verb does after
                // a write that may have waited. A file cut shorter stops the layout there,
                // saying why. Only what the layout labels is read, never the whole span.
                interpret::apply_from(l, doc, node, interpret::Input::Source(&self.source), region);
            }
        }
    }
}
