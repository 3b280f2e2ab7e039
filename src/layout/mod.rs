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

use crate::model::{Annotate, Document, NodeId, Span};
use crate::source::Source;
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
        if let Some(p) = &t.path {
            let full = doc.path(id);
            let p = p.trim_matches('/');
            if full != p && !full.ends_with(&format!("/{p}")) {
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
}

/// Every layout loaded, for every format.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LayoutSet {
    /// The layouts, in the order their files were read.
    pub layouts: Vec<Layout>,
}

impl LayoutSet {
    /// True when a layout names format `format`.
    pub fn has_format(&self, format: &str) -> bool {
        self.layouts.iter().any(|l| l.format == format)
    }

    /// Read every `*.toml` of `dir` (in name order), each at most `max_bytes` (the
    /// command's side-file cap, `--limit side-file`). A missing directory is an error.
    pub fn read_dir(&mut self, dir: &Path, max_bytes: u64) -> Result<(), LayoutError> {
        let list = std::fs::read_dir(dir).map_err(|e| LayoutError::io(dir, &e.to_string()))?;
        let mut files: Vec<PathBuf> =
            list.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
        files.sort();
        for f in files {
            self.read_file(&f, max_bytes)?;
        }
        Ok(())
    }

    /// Read one layout file, opened as inputs are: a regular file, at most `max_bytes` (the
    /// command's side-file cap).
    pub fn read_file(&mut self, path: &Path, max_bytes: u64) -> Result<(), LayoutError> {
        let bytes =
            crate::source::read_small_file(path, max_bytes).map_err(|e| LayoutError::io(path, &e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|_| LayoutError::io(path, "not UTF-8 text"))?;
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        self.layouts.push(parse_layout(&text, &path.display().to_string(), &stem)?);
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
    /// of `dir` (a bad file there is an error); each file at most `max_bytes`.
    pub fn load(
        user_dir: Option<&Path>,
        dir: Option<&Path>,
        max_bytes: u64,
    ) -> Result<(LayoutSet, Vec<String>), LayoutError> {
        let mut set = LayoutSet::default();
        let mut problems = Vec::new();
        if let Some(u) = user_dir.filter(|u| u.is_dir()) {
            let mut files: Vec<PathBuf> = std::fs::read_dir(u)
                .map(|l| l.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect())
                .unwrap_or_default();
            files.sort();
            for f in files {
                if let Err(e) = set.read_file(&f, max_bytes) {
                    problems.push(format!("{e} (file ignored)"));
                }
            }
        }
        if let Some(d) = dir {
            set.read_dir(d, max_bytes)?;
        }
        Ok((set, problems))
    }

    /// The annotator applying these layouts to documents of `source`'s bytes.
    pub fn annotator(self: &Arc<Self>, source: Arc<Source>) -> Arc<dyn Annotate> {
        Arc::new(Annotator { set: Arc::clone(self), source })
    }
}

/// Applies a [`LayoutSet`] to each node of a document as it is built.
struct Annotator {
    set: Arc<LayoutSet>,
    source: Arc<Source>,
}

impl Annotate for Annotator {
    fn annotate(&self, doc: &mut Document, node: NodeId) {
        for l in &self.set.layouts {
            if let Some(region) = l.region(doc, node) {
                // Copied under the check (pread for a mapped file): annotations run as
                // nodes are expanded, which a streaming verb does after a write that may
                // have waited. A file cut shorter adds nothing; the verb's check says why.
                let Ok(bytes) = self.source.checked_span(region.start, region.end) else { continue };
                apply(l, doc, node, crate::bytes::Bytes::with_base(&bytes, region.start), region);
            }
        }
    }
}
