//! The user layout builder: at the hex cursor `u` asks for a field (`TYPE NAME`, the types
//! the hex pane's inspector reads) and adds it, the cursor moves to where it ends for the
//! next one; at the same prompt `-NAME` removes a field and `OLD=NEW` renames one. Each
//! change is applied to the node at once (the fields and hex panes show the layout as it
//! is typed, marked `user layout unsaved`). `U` asks for a name and where to save it (Tab:
//! the user's config folder, the file's folder, the project's `layouts/` folder) and
//! writes the fields as a layout file ([`crate::layout`]); one of that name there is
//! replaced only when the user says so.

use super::app::App;
use super::component::Level;
use super::prompt::{LayoutPlace, Prompt, PromptKind};
use crate::layout::builder::LayoutBuilder;
use crate::layout::interpret::Input;
use crate::model::{Span, USER_LAYOUT_NOTE, sanitize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The name the layout being built is shown under until it is saved.
const UNSAVED: &str = "unsaved";

impl App {
    /// Ask for the next field: at the cursor, or where the last one ended.
    pub(super) fn layout_add_prompt(&mut self) {
        let off = self.layout_builder.as_ref().map_or(self.cur().cursor, |b| b.next);
        self.prompt = Some(Prompt::new(PromptKind::LayoutField(off), &self.history));
    }

    /// What was typed at the field prompt: `TYPE NAME` adds a field at `off` (the first
    /// one picks the node at `off`), `-NAME` removes one, `OLD=NEW` renames one.
    pub(super) fn layout_add(&mut self, off: u64, spec: &str) {
        let spec = spec.trim();
        if spec.is_empty() {
            return;
        }
        if let Some(name) = spec.strip_prefix('-') {
            return self.layout_edit(|b, input, limits| b.remove(name.trim(), input, limits).map(|()| "removed"));
        }
        if let Some((old, new)) = spec.split_once('=').filter(|_| !spec.contains(char::is_whitespace)) {
            return self.layout_edit(|b, _, _| b.rename(old, new).map(|()| "renamed"));
        }
        if self.layout_builder.is_none() {
            let d = self.sel.0;
            let doc = self.cur().doc();
            let Some((id, n)) = doc.node_at(off).and_then(|id| Some((id, doc.node(id)?))) else {
                self.say((Level::Error, format!("layout: no node at 0x{off:x}")));
                return;
            };
            // At the start of a built-in field running to the node's end (an opaque
            // payload), the layout is for that field: it applies wherever the field is.
            let field = n
                .fields
                .iter()
                .find(|f| !f.is_user_layout() && f.span.start == off && f.span.end == n.span.end && !f.span.is_empty());
            self.layout_builder = Some(match field {
                Some(f) => LayoutBuilder::over_field(doc.format, &n.kind, &f.name, f.span),
                None => LayoutBuilder::new(doc.format, &n.kind, n.span.start, n.span.end, off),
            });
            self.layout_builder_at = Some((d, id));
        }
        let limits = *self.jobs.limits();
        let opened = Arc::clone(&self.cur().opened);
        let Some(b) = self.layout_builder.as_mut() else { return };
        // read where each field is, under the check, as layouts are applied: never a copy
        // of the node's whole span
        match b.add_from(spec, Input::Source(opened.source()), &limits) {
            Ok(size) => {
                let (next, count, kind) = (b.next, b.fields.len(), sanitize(&b.kind).into_owned());
                self.set_cursor(next);
                let m = format!(
                    "layout for {kind}: {} ({size} B) added, {count} fields; u adds the next at 0x{next:x}, U saves",
                    sanitize(spec)
                );
                self.say((Level::Info, m));
                self.layout_show(UNSAVED);
            }
            Err(e) => self.say((Level::Error, format!("layout: {}", sanitize(&e)))),
        }
    }

    /// Change the layout being built with `edit` (given the bytes and limits), said as
    /// `done`, and show it again.
    fn layout_edit(
        &mut self,
        edit: impl FnOnce(&mut LayoutBuilder, Input<'_>, &crate::limits::Limits) -> Result<&'static str, String>,
    ) {
        let limits = *self.jobs.limits();
        let Some((d, _)) = self.layout_builder_at else {
            self.say((Level::Error, "layout: no fields yet (u adds one at the hex cursor)".into()));
            return;
        };
        let Some(opened) = self.workspace.docs.get(d).map(|e| Arc::clone(&e.opened)) else { return };
        let Some(b) = self.layout_builder.as_mut() else { return };
        match edit(b, Input::Source(opened.source()), &limits) {
            Ok(done) => {
                let names: Vec<&str> = b.fields.iter().map(|f| f.name.as_str()).collect();
                let m = format!("layout field {done}; fields: {}; u adds at 0x{:x}", names.join(", "), b.next);
                self.say((Level::Info, sanitize(&m).into_owned()));
                self.layout_show(UNSAVED);
            }
            Err(e) => self.say((Level::Error, format!("layout: {}", sanitize(&e)))),
        }
    }

    /// Show the layout being built on its node, named `name` (its fields replace the ones
    /// shown before); nothing built: the fields shown are taken away.
    fn layout_show(&mut self, name: &str) {
        let Some((d, node)) = self.layout_builder_at else { return };
        let layout = match self.layout_builder.as_ref().filter(|b| !b.fields.is_empty()) {
            None => None,
            Some(b) => match crate::layout::parse_layout(&b.to_toml(name), "builder", name) {
                Ok(l) => Some((l, Span::new(b.node_start, b.node_end))),
                Err(e) => {
                    self.say((Level::Error, format!("layout: {}", sanitize(&e.message))));
                    return;
                }
            },
        };
        let Some(e) = self.workspace.docs.get_mut(d) else { return };
        if Arc::get_mut(&mut e.opened).is_none() {
            // a worker still reads the document: change a copy (the worker keeps its own)
            e.opened = Arc::new(e.opened.clone_document());
        }
        let Some(o) = Arc::get_mut(&mut e.opened) else { return };
        let source = Arc::clone(o.source());
        let doc = o.doc_mut();
        let shown = format!("{USER_LAYOUT_NOTE} {UNSAVED}");
        doc.remove_fields(node, |f| f.note.as_deref() == Some(shown.as_str()));
        if let Some((l, region)) = layout {
            crate::layout::interpret::apply_from(&l, doc, node, Input::Source(&source), region);
        }
        e.index_starts();
    }

    /// The folders a layout can be saved in: the user's config folder, the opened file's
    /// folder, the project's layouts folder (those known, each once).
    fn layout_places(&self) -> Vec<LayoutPlace> {
        let file_dir =
            self.workspace.docs.first().and_then(|e| e.opened.source().path().map(Path::to_path_buf)).and_then(|p| {
                p.parent().map(|d| if d.as_os_str().is_empty() { PathBuf::from(".") } else { d.to_path_buf() })
            });
        let mut places: Vec<LayoutPlace> = Vec::new();
        for (what, dir) in [
            ("your config folder", self.layouts_dir.clone()),
            ("the file's folder", file_dir),
            ("the project folder", self.project_layouts_dir.clone()),
        ] {
            if let Some(dir) = dir.filter(|d| !places.iter().any(|p| p.dir == *d)) {
                places.push(LayoutPlace { what, dir });
            }
        }
        places
    }

    /// Ask for the name to save the layout under, and where.
    pub(super) fn layout_save_prompt(&mut self) {
        if self.layout_builder.as_ref().is_none_or(|b| b.fields.is_empty()) {
            self.say((Level::Error, "layout: no fields yet (u adds one at the hex cursor)".into()));
            return;
        }
        let places = self.layout_places();
        self.prompt = Some(Prompt::new(PromptKind::LayoutName { places, at: 0 }, &self.history));
    }

    /// Save the layout being built as `NAME.toml` in `dir`; a file of that name is
    /// replaced only when the user says so (asked first).
    pub(super) fn layout_save(&mut self, name: &str, dir: Option<PathBuf>) {
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            self.say((Level::Error, "layout: a name of letters, digits, - and _".into()));
            return;
        }
        let Some(dir) = dir else {
            self.say((Level::Error, "layout: no layouts folder (set XDG_CONFIG_HOME or HOME)".into()));
            return;
        };
        // any entry of that name (a file, a link, a folder) is asked about first
        if std::fs::symlink_metadata(dir.join(format!("{name}.toml"))).is_ok() {
            let kind = PromptKind::ConfirmLayoutReplace(name.to_string(), dir);
            self.prompt = Some(Prompt::new(kind, &self.history));
            return;
        }
        self.layout_write(name, &dir, false);
    }

    /// The answer to "replace layout NAME?": `y` replaces it, anything else keeps it (and
    /// the fields built, to save under another name).
    pub(super) fn layout_replace(&mut self, name: &str, dir: &Path, answer: &str) {
        let answer = answer.trim();
        if answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes") {
            self.layout_write(name, dir, true);
        } else {
            self.say((Level::Info, format!("layout {name} not replaced; U saves under another name")));
        }
    }

    /// Write the layout file `NAME.toml` in `dir` (replacing one only when `replace`); the
    /// fields shown take the saved name.
    fn layout_write(&mut self, name: &str, dir: &Path, replace: bool) {
        let Some(b) = self.layout_builder.as_ref() else { return };
        let path = dir.join(format!("{name}.toml"));
        let text = b.to_toml(name);
        let done = std::fs::create_dir_all(dir)
            .and_then(|()| crate::export::write_atomic(&path, text.as_bytes(), replace, self.jobs.limits().max_output));
        match done {
            Ok(()) => {
                self.layout_show(name);
                self.layout_builder = None;
                self.layout_builder_at = None;
                let applies = if self.layouts_dir.as_deref() == Some(dir) {
                    "it applies to files opened from now on".to_string()
                } else {
                    format!("--layouts {} applies it", dir.display())
                };
                let m = format!("layout {name} saved to {}: {applies}", path.display());
                self.say((Level::Info, sanitize(&m).into_owned()));
            }
            Err(e) => {
                let m = format!("layout: {}: {e}", path.display());
                self.say((Level::Error, sanitize(&m).into_owned()));
            }
        }
    }
}
