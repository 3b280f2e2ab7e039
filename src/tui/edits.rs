//! Edits in the inspector (issue 50): a field's value typed in the fields pane (`c`: a
//! prompt prefilled with the value as shown, parsed by the field's declared type exactly as
//! `animscope set` parses it, [`crate::edit::plan_field_at`]), or raw bytes typed at the hex
//! cursor (`c` in hex: `XX XX..`, for bytes no field declares). Each accepted edit is a patch
//! of the edited document, kept in memory and never written to the input; the document is
//! parsed again from the patched copy at once, so the tree, fields, hex, decode curves and
//! pose show the effect before anything is written. Changed bytes are marked in hex, the
//! status line counts the edits (the message log lists each), `ctrl-z` takes the last one
//! back, and `s` writes the result to a new path through `set`'s own write
//! ([`crate::edit::set`]): rebuilt through every container the document is nested in,
//! staged, opened again and checked before it is kept, refused when the written file has
//! findings the original has not unless the user says to write anyway.
//!
//! One document carries edits at a time. A document with archive members opened from it,
//! or still being listed, is not edited: those would go on showing the bytes before the
//! edit. The patched copy and the original's document (kept for undo) are charged to the
//! edited document's memory budget while they are held; the copy is parsed under what is
//! left.
//!
//! Node ids of the edited document are found again by path after each edit and undo (the
//! tree's, the selection's and the places kept for `back`/`forward`); a node whose path an
//! edit changes (a renamed key) is not kept selected, and a place on it is dropped rather
//! than left pointing at another node.

use super::app::App;
use super::component::{Level, Pane};
use super::diffview::full_path;
use super::prompt::{Prompt, PromptKind};
use super::workspace::Load;
use crate::edit::{self, ByteEdit, EditError, SetRequest};
use crate::limits::{Budget, Charge, Limits};
use crate::model::{NodeId, Span, sanitize};
use crate::session::Opened;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One accepted edit: bytes laid at an offset of the edited document, and what it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    /// Offset in the edited document.
    pub at: u64,
    /// The bytes laid there.
    pub bytes: Vec<u8>,
    /// The edit in words (`PATH: FIELD: OLD -> NEW`), for the message log.
    pub said: String,
}

/// The edits of the one edited document.
#[derive(Debug)]
pub struct Pending {
    /// The edited document (index in the workspace).
    pub doc: usize,
    /// The document as it was opened (its bytes are what the patches are laid over).
    original: Arc<Opened>,
    /// The edits, oldest first.
    pub patches: Vec<Patch>,
    /// Byte ranges whose bytes differ from the original's, sorted.
    changed: Vec<Span>,
    /// The patched copy's share of the memory budget (None before the first copy).
    _held: Option<Charge>,
}

/// The edit state of the inspector.
#[derive(Debug, Default)]
pub struct Edits {
    /// The document with edits, if any.
    pub pending: Option<Pending>,
    /// Edits and undos made, counted (what was written is told apart by it).
    changes: u64,
    /// `changes` when the edits were last written.
    written: u64,
    /// Quitting with edits not written was warned about once since the last change.
    quit_warned: bool,
}

impl Edits {
    /// The document that carries edits.
    pub fn doc(&self) -> Option<usize> {
        self.pending.as_ref().map(|p| p.doc)
    }

    /// Edits are pending that were not written since they changed.
    pub fn unwritten(&self) -> bool {
        self.pending.is_some() && self.changes != self.written
    }

    /// An edit was made or taken back.
    fn changed_now(&mut self) {
        self.changes += 1;
        self.quit_warned = false;
    }

    /// Edits made and not taken back.
    pub fn count(&self) -> usize {
        self.pending.as_ref().map_or(0, |p| p.patches.len())
    }

    /// The edits, oldest first.
    pub fn patches(&self) -> &[Patch] {
        self.pending.as_ref().map_or(&[], |p| p.patches.as_slice())
    }

    /// Whether byte `off` of document `d` differs from the bytes opened.
    pub fn is_changed(&self, d: usize, off: u64) -> bool {
        let Some(p) = self.pending.as_ref().filter(|p| p.doc == d) else { return false };
        let i = p.changed.partition_point(|s| s.end <= off);
        p.changed.get(i).is_some_and(|s| s.contains(off))
    }

    /// The byte ranges of document `d` that differ from the bytes opened.
    pub fn changed(&self, d: usize) -> &[Span] {
        self.pending.as_ref().filter(|p| p.doc == d).map_or(&[], |p| p.changed.as_slice())
    }
}

/// The ranges where `copy` differs from `original`, looked for only where `patches` lie.
fn changed_spans(original: &[u8], copy: &[u8], patches: &[Patch]) -> Vec<Span> {
    let mut offs: Vec<u64> = Vec::new();
    for p in patches {
        for i in 0..p.bytes.len() as u64 {
            let o = p.at + i;
            let at = usize::try_from(o).unwrap_or(usize::MAX);
            if original.get(at) != copy.get(at) {
                offs.push(o);
            }
        }
    }
    offs.sort_unstable();
    offs.dedup();
    let mut out: Vec<Span> = Vec::new();
    for o in offs {
        match out.last_mut() {
            Some(s) if s.end == o => s.end = o + 1,
            _ => out.push(Span::new(o, o + 1)),
        }
    }
    out
}

/// Bytes as `set --byte` and the hex prompt take them: `bc 03`.
fn hex_text(b: &[u8]) -> String {
    b.iter().map(|c| format!("{c:02x}")).collect::<Vec<_>>().join(" ")
}

/// `NAME.edited.EXT` beside `input` (`NAME.edited` without an extension).
pub fn edited_name(input: &Path) -> PathBuf {
    let name = match (input.file_stem(), input.extension()) {
        (Some(s), Some(e)) => format!("{}.edited.{}", s.to_string_lossy(), e.to_string_lossy()),
        (Some(s), None) => format!("{}.edited", s.to_string_lossy()),
        _ => "edited".to_string(),
    };
    input.with_file_name(name)
}

impl App {
    /// `quit`: with edits not written, the first press says so and stays.
    pub(super) fn request_quit(&mut self) {
        if self.edits.unwritten() && !self.edits.quit_warned {
            self.edits.quit_warned = true;
            let n = self.edits.count();
            let key = self.keymap.key_for(super::Action::EditWrite).unwrap_or_default();
            self.say((Level::Error, format!("{n} edit(s) not written: {key} writes them; quit again to drop them")));
            return;
        }
        self.quit = true;
    }

    /// The input file's path as given (None: the input has no path).
    fn input_path(&self) -> Option<PathBuf> {
        let first = self.edits.pending.as_ref().map(|p| &p.original).filter(|_| self.edits.doc() == Some(0));
        let first = first.or_else(|| self.workspace.docs.first().map(|e| &e.opened))?;
        first.source().path().map(Path::to_path_buf)
    }

    /// `FILE: PATH: WHAT` for a message about node `n` of document `d`, as `set` says it.
    fn edit_at(&self, d: usize, n: NodeId, what: &str) -> String {
        let file = self.input_path().map_or_else(|| self.cur().opened.title(), |p| p.display().to_string());
        edit::located(&file, &full_path(&self.workspace, d, n), what)
    }

    /// Why document `d` cannot take an edit now, if it cannot.
    fn edit_refusal(&self, d: usize) -> Option<String> {
        if let Some(o) = self.edits.doc().filter(|o| *o != d) {
            let title = self.workspace.entry(o).opened.title();
            let undo = self.keymap.key_for(super::Action::EditUndo).unwrap_or_default();
            let write = self.keymap.key_for(super::Action::EditWrite).unwrap_or_default();
            return Some(format!(
                "edit: {} has edits; write them ({write}) or take them back ({undo}) before editing another document",
                sanitize(&title)
            ));
        }
        if self.workspace.source_changed {
            return Some("edit: the file changed on disk since it was opened; reopen it".into());
        }
        if d == 0 && self.workspace.listing.is_some() {
            return Some("edit: the archive is still being listed; edit once it is".into());
        }
        if self.workspace.members.keys().any(|(md, _)| *md == d) {
            return Some(
                "edit: members of this document are open in the tree and would show the bytes before the edit; \
                 edit inside a member, or use `animscope set`"
                    .into(),
            );
        }
        None
    }

    /// `edit_value`: the hex pane edits bytes at the cursor; elsewhere the selected field
    /// is edited.
    pub(super) fn edit_prompt(&mut self) {
        let d = self.sel.0;
        if let Some(why) = self.edit_refusal(d) {
            self.say((Level::Error, why));
            return;
        }
        if self.focus == Pane::Hex {
            let cursor = self.cur().cursor;
            let span = self.hex.range(d, cursor).unwrap_or(Span::at(cursor, 1));
            let bytes = self.workspace.bytes(d).and_then(|b| b.get(edit_range(span))).unwrap_or_default();
            let text = hex_text(bytes);
            let kind = PromptKind::EditBytes { doc: d, offset: span.start };
            self.prompt = Some(Prompt::with_input(kind, text, &self.history));
            return;
        }
        let Some((node, index)) = self.field_sel else {
            self.say((Level::Info, "edit: no field selected (pick one in the fields pane)".into()));
            return;
        };
        let doc = self.cur().doc();
        let Some(field) = doc.node(node).and_then(|n| n.fields.get(index)) else { return };
        let text = edit::prefill(doc, field);
        let label = format!("{} ({} B @0x{:x})", sanitize(&field.name), field.span.len(), field.span.start);
        let kind = PromptKind::EditField { doc: d, node, index, label };
        self.prompt = Some(Prompt::with_input(kind, text, &self.history));
    }

    /// The field prompt was answered: encode the value as `set` does and apply it, or say
    /// `set`'s one-line error and change nothing.
    pub(super) fn edit_field(&mut self, d: usize, node: NodeId, index: usize, text: &str) {
        if let Some(why) = self.edit_refusal(d) {
            self.say((Level::Error, why));
            return;
        }
        let Some(leaf) = self.workspace.docs.get(d).map(|e| Arc::clone(&e.opened)) else { return };
        let Some(field) = leaf.doc().node(node).and_then(|n| n.fields.get(index)).cloned() else { return };
        let limits = *leaf.limits();
        let planned = edit::plan_field_at(&leaf, node, index, text, leaf.source(), &[], &limits);
        let p = match planned {
            Ok(p) => p,
            Err(m) => {
                let at = self.edit_at(d, node, &edit::field_named(&field.name, field.span));
                self.say((Level::Error, format!("{at}: {m}")));
                return;
            }
        };
        let (path, own) = (full_path(&self.workspace, d, node), leaf.doc().path(node));
        let patch = Patch { at: field.span.start, bytes: p.encoded.bytes, said: String::new() };
        if let Err(m) = self.edit_apply(d, patch) {
            self.say((Level::Error, format!("{}: {m}; not applied", self.edit_at(d, node, &field.name))));
            return;
        }
        // the value as the edited document shows it
        let new = self
            .workspace
            .docs
            .get(d)
            .and_then(|e| {
                let doc = e.doc();
                let n = doc.find_path(&own)?;
                doc.node(n)?.fields.get(index).filter(|f| f.name == field.name).map(|f| f.value.to_string())
            })
            .unwrap_or_else(|| "?".into());
        let said = format!("{}: {}: {} -> {new}", sanitize(&path), sanitize(&field.name), field.value);
        self.edit_said(said);
    }

    /// The bytes prompt was answered: lay the bytes at `offset` of document `d`.
    pub(super) fn edit_bytes(&mut self, d: usize, offset: u64, text: &str) {
        if let Some(why) = self.edit_refusal(d) {
            self.say((Level::Error, why));
            return;
        }
        let Some(leaf) = self.workspace.docs.get(d).map(|e| Arc::clone(&e.opened)) else { return };
        let b = match ByteEdit::parse(&format!("0x{offset:x}={text}")) {
            Ok(b) => b,
            Err(m) => {
                self.say((Level::Error, format!("{}: {m}", self.edit_at(d, NodeId::ROOT, "bytes"))));
                return;
            }
        };
        if let Err(m) = edit::byte_edit_fits(&b, leaf.source()) {
            self.say((Level::Error, format!("{}: {m}", self.edit_at(d, NodeId::ROOT, "bytes"))));
            return;
        }
        let old =
            hex_text(leaf.source().bytes().get(edit_range(Span::at(offset, b.bytes.len() as u64))).unwrap_or(&[]));
        let said = format!(
            "{}: bytes @0x{offset:x}: {old} -> {}",
            sanitize(&full_path(&self.workspace, d, NodeId::ROOT)),
            hex_text(&b.bytes)
        );
        let patch = Patch { at: offset, bytes: b.bytes, said: String::new() };
        if let Err(m) = self.edit_apply(d, patch) {
            self.say((Level::Error, format!("{}: {m}; not applied", self.edit_at(d, NodeId::ROOT, "bytes"))));
            return;
        }
        self.edit_said(said);
    }

    /// Say the edit just applied and keep it in words with its patch.
    fn edit_said(&mut self, said: String) {
        let n = self.edits.count();
        if let Some(p) = self.edits.pending.as_mut().and_then(|p| p.patches.last_mut()) {
            p.said = said.clone();
        }
        let undo = self.keymap.key_for(super::Action::EditUndo).unwrap_or_default();
        let write = self.keymap.key_for(super::Action::EditWrite).unwrap_or_default();
        self.say((Level::Info, format!("edit {n}: {said} ({undo} takes it back, {write} writes a copy)")));
    }

    /// Add `patch` to document `d`'s edits and show the document parsed from the edited
    /// bytes; on failure nothing changes.
    fn edit_apply(&mut self, d: usize, patch: Patch) -> Result<(), String> {
        if self.edits.pending.is_none() {
            let Some(e) = self.workspace.docs.get(d) else { return Err("no such document".into()) };
            self.edits.pending = Some(Pending {
                doc: d,
                original: Arc::clone(&e.opened),
                patches: Vec::new(),
                changed: Vec::new(),
                _held: None,
            });
        }
        if let Some(p) = self.edits.pending.as_mut() {
            p.patches.push(patch);
        }
        match self.edit_rebuild() {
            Ok(()) => {
                self.edits.changed_now();
                Ok(())
            }
            Err(m) => {
                if let Some(p) = self.edits.pending.as_mut() {
                    p.patches.pop();
                    if p.patches.is_empty() {
                        self.edits.pending = None;
                    }
                }
                Err(m)
            }
        }
    }

    /// `edit_undo`: take the last edit back; the document shows the bytes without it.
    pub(super) fn edit_undo(&mut self) {
        let Some(p) = self.edits.pending.as_mut() else {
            self.say((Level::Info, "no edits to take back".into()));
            return;
        };
        let d = p.doc;
        let Some(last) = p.patches.pop() else { return };
        let left = p.patches.len();
        let result = if left == 0 { self.edit_restore() } else { self.edit_rebuild() };
        match result {
            Ok(()) => {
                self.edits.changed_now();
                let more = if left == 0 { "no edits left".to_string() } else { format!("{left} left") };
                self.say((Level::Info, format!("took back: {} ({more})", last.said)));
            }
            Err(m) => {
                if let Some(p) = self.edits.pending.as_mut() {
                    p.patches.push(last);
                }
                self.say((Level::Error, format!("{}: {m}", self.edit_at(d, NodeId::ROOT, "undo"))));
            }
        }
    }

    /// Wait a little for decodes reading document `d` (their results name its node ids);
    /// an error when one is still running.
    fn edit_wait_doc(&mut self, d: usize) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(5);
        let busy = |app: &App| app.workspace.clips.iter().any(|((cd, _), l)| *cd == d && matches!(l, Load::Pending(_)));
        while busy(self) {
            if Instant::now() >= deadline {
                return Err("a decode of this document is still running; try again".into());
            }
            if let Some(done) = self.jobs.next_within(Duration::from_millis(20)) {
                self.finish(done);
            }
        }
        Ok(())
    }

    /// Parse the edited document again from its original bytes with every patch laid over
    /// them, and show it in place of the one shown.
    fn edit_rebuild(&mut self) -> Result<(), String> {
        let Some(p) = self.edits.pending.as_ref() else { return Ok(()) };
        let (d, original) = (p.doc, Arc::clone(&p.original));
        let runs: Vec<(u64, Vec<u8>)> = p.patches.iter().map(|x| (x.at, x.bytes.clone())).collect();
        self.edit_wait_doc(d)?;
        // The copy and the original's document (kept for undo) are held together: both are
        // spent from what the document may hold, and the copy is parsed under what is left.
        let limits = *original.limits();
        let holding = original.source().len().saturating_add(original.doc().retained_bytes());
        let held = Budget::new(limits.max_memory).reserve("the edited copy", holding, 0).map_err(|e| e.to_string())?;
        let copy = edit::patched_copy(original.source(), &runs);
        let Some(p) = self.edits.pending.as_ref() else { return Ok(()) };
        let changed = changed_spans(original.source().bytes(), &copy, &p.patches);
        let under = Limits { list_budget: u64::MAX, ..limits.for_member(holding) };
        let new = original.reparsed(copy, &under).map_err(|e| format!("the edited bytes do not open: {e}"))?;
        if let Some(p) = self.edits.pending.as_mut() {
            p.changed = changed;
            p._held = Some(held);
        }
        self.edit_show(d, new);
        Ok(())
    }

    /// Every edit taken back: show the document as it was opened, and drop the copy.
    fn edit_restore(&mut self) -> Result<(), String> {
        let Some(p) = self.edits.pending.as_ref() else { return Ok(()) };
        let (d, original) = (p.doc, Arc::clone(&p.original));
        self.edit_wait_doc(d)?;
        self.edits.pending = None;
        // the original's document as it is now (built further since, perhaps)
        self.edit_show_arc(d, original);
        Ok(())
    }

    fn edit_show(&mut self, d: usize, new: Opened) {
        self.edit_show_arc(d, Arc::new(new));
    }

    /// Show `new` as document `d`: the panes' node ids of `d` are found again by path, its
    /// clips are decoded again.
    fn edit_show_arc(&mut self, d: usize, mut new: Arc<Opened>) {
        let Some(old) = self.workspace.docs.get(d).map(|e| Arc::clone(&e.opened)) else { return };
        let mut held: Vec<NodeId> = self
            .tree
            .opened()
            .iter()
            .chain(std::iter::once(&self.tree.selected()))
            .filter_map(|p| super::tree::node_of_path(p))
            .filter(|(pd, _)| *pd == d)
            .map(|(_, n)| n)
            .collect();
        if self.sel.0 == d {
            held.push(self.sel.1);
            held.extend(self.field_sel.map(|f| f.0));
        }
        let places = self.jumps.back.iter().chain(&self.jumps.forward);
        held.extend(places.filter(|p| p.0 == d).map(|p| p.1));
        held.sort_unstable_by_key(|n| n.0);
        held.dedup();
        let mut map: HashMap<NodeId, NodeId> = HashMap::new();
        if Arc::get_mut(&mut new).is_none() {
            // the original, when restored, may still be read by a worker: build on a copy
            new = Arc::new(new.clone_document());
        }
        if let Some(o) = Arc::get_mut(&mut new) {
            for id in held {
                let path = old.doc().path(id);
                if let Some(n) = o.doc_mut().find_path_expanding(&path) {
                    map.insert(id, n);
                }
            }
        }
        drop(old);
        if let Some(e) = self.workspace.docs.get_mut(d) {
            e.opened = new;
            e.walk_step = None;
            e.index_starts();
        }
        self.workspace.forget_doc(d);
        self.tree.remap_doc(&self.workspace, d, &|n| map.get(&n).copied());
        self.jumps.remap_doc(d, &|n| map.get(&n).copied());
        if self.sel.0 == d {
            let field = self.field_sel.and_then(|(n, i)| Some((*map.get(&n)?, i)));
            let n = map.get(&self.sel.1).copied().unwrap_or(NodeId::ROOT);
            // What the screen shows is built now, before the selection starts a decode: a
            // worker holding the document keeps the next frames from building it, and a
            // frame drawn meanwhile showed the hex rows as unparsed bytes (25 KB at 200×60
            // for one edit), then as fields again.
            self.sel = (d, n);
            self.prepare_view();
            self.select_node(d, n, true);
            if let Some((n, i)) = field
                && self.cur().doc().node(n).is_some_and(|x| x.fields.len() > i)
            {
                self.field_sel = Some((n, i));
            }
        }
    }

    /// `edit_write`: ask where to write the edited file (`NAME.edited.EXT` beside the
    /// input).
    pub(super) fn edit_write_prompt(&mut self) {
        if self.edits.count() == 0 {
            let key = self.keymap.key_for(super::Action::EditValue).unwrap_or_default();
            self.say((Level::Info, format!("no edits to write ({key} edits the selected field or hex bytes)")));
            return;
        }
        let Some(input) = self.input_path() else {
            self.say((Level::Error, "write: the input has no path to write beside".into()));
            return;
        };
        let text = edited_name(&input).display().to_string();
        self.prompt = Some(Prompt::with_input(PromptKind::EditWritePath, text, &self.history));
    }

    /// The write prompt was answered with a path.
    pub(super) fn edit_write_to(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            self.say((Level::Info, "write cancelled".into()));
            return;
        }
        let path = PathBuf::from(text);
        if let Some(input) = self.input_path()
            && let Err(e) = edit::refuse_same_file(&input, &path)
        {
            self.say((Level::Error, e.to_string()));
            return;
        }
        if std::fs::symlink_metadata(&path).is_ok() {
            let kind = PromptKind::ConfirmEditWrite { path, overwrite: true, force: false };
            self.prompt = Some(Prompt::new(kind, &self.history));
            return;
        }
        self.edit_write(&path, false, false);
    }

    /// The answer to "overwrite?" or "write anyway?".
    pub(super) fn edit_write_confirmed(&mut self, path: &Path, overwrite: bool, force: bool, answer: &str) {
        let answer = answer.trim();
        if answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes") {
            self.edit_write(path, overwrite, force);
        } else {
            self.say((Level::Info, format!("not written: {}", sanitize(&path.display().to_string()))));
        }
    }

    /// Write the input with the edits to `out` as `set` writes: the edited document's
    /// changed bytes pushed out through the containers it is nested in, staged, opened
    /// again and checked, kept only then.
    pub(super) fn edit_write(&mut self, out: &Path, overwrite: bool, force: bool) {
        let Some(p) = self.edits.pending.as_ref() else { return };
        let d = p.doc;
        let Some(input) = self.input_path() else { return };
        if self.workspace.source_changed || self.workspace.docs.first().is_some_and(|e| e.opened.source().changed()) {
            self.say((Level::Error, "write: the file changed on disk since it was opened; nothing written".into()));
            return;
        }
        if p.changed.is_empty() {
            self.say((Level::Info, "write: the edits change no byte; nothing to write".into()));
            return;
        }
        let Some(copy) = self.workspace.docs.get(d).map(|e| Arc::clone(e.opened.source())) else { return };
        let bytes: Vec<ByteEdit> = p
            .changed
            .iter()
            .map(|s| ByteEdit { offset: s.start, bytes: copy.bytes().get(edit_range(*s)).unwrap_or_default().to_vec() })
            .collect();
        let node = format!("{}@0", full_path(&self.workspace, d, NodeId::ROOT));
        let limits = *self.jobs.limits();
        let Some(first) = self.workspace.docs.first().map(|e| Arc::clone(&e.opened)) else { return };
        let top = match first.open_alike(&input, &limits) {
            Ok(t) => t,
            Err(e) => {
                self.say((Level::Error, format!("write: {}", crate::model::Sanitized(&e))));
                return;
            }
        };
        let req = SetRequest {
            input: &input,
            node: &node,
            fields: &[],
            bytes: &bytes,
            out,
            grow: false,
            force,
            overwrite,
            no_mmap: first.no_mmap(),
        };
        match edit::set(top, &req) {
            Ok(report) => {
                self.edits.written = self.edits.changes;
                for c in &report.changes {
                    self.log.push(Level::Info, &format!("wrote {}: {}: {} -> {}", c.path, c.what, c.old, c.new));
                }
                let notes: Vec<String> = report.notes.iter().map(|n| format!("; {n}")).collect();
                let m = format!(
                    "wrote {} bytes to {}: {} edit(s), {} byte run(s) changed; it opens and checks{}",
                    report.written,
                    out.display(),
                    self.edits.count(),
                    report.changes.len(),
                    notes.concat()
                );
                self.say((Level::Info, sanitize(&m).into_owned()));
            }
            Err(EditError::NewFindings(m)) => {
                self.log.push(Level::Error, &m);
                let kind = PromptKind::ConfirmEditWrite { path: out.to_path_buf(), overwrite, force: true };
                self.prompt = Some(Prompt::new(kind, &self.history));
            }
            Err(e) => self.say((Level::Error, sanitize(&e.to_string()).into_owned())),
        }
    }
}

/// `s` as a slice range (empty when it does not fit `usize`).
fn edit_range(s: Span) -> std::ops::Range<usize> {
    match (usize::try_from(s.start), usize::try_from(s.end)) {
        (Ok(a), Ok(b)) => a..b,
        _ => 0..0,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_output_is_named_beside_the_input() {
        assert_eq!(edited_name(Path::new("a/walk.mot")), PathBuf::from("a/walk.edited.mot"));
        assert_eq!(edited_name(Path::new("DATA")), PathBuf::from("DATA.edited"));
    }

    #[test]
    fn only_bytes_that_differ_are_marked() {
        let original = [0u8, 1, 2, 3, 4, 5];
        let copy = [0u8, 9, 2, 7, 8, 5];
        let p = |at, bytes: Vec<u8>| Patch { at, bytes, said: String::new() };
        // the patch at 1 lays 9 2 (2 unchanged), the one at 3 lays 7 8
        let spans = changed_spans(&original, &copy, &[p(1, vec![9, 2]), p(3, vec![7, 8])]);
        assert_eq!(spans, [Span::new(1, 2), Span::new(3, 5)]);
    }
}
