//! The user layout builder: at the hex cursor `u` asks for a field (`TYPE NAME`, the types
//! the hex pane's inspector reads) and adds it, the cursor moves to where it ends for the
//! next one, and `U` saves the fields as a layout file in the layouts folder
//! ([`crate::layout`]), which applies to every file of that format opened from then on.

use super::app::App;
use super::component::Level;
use super::prompt::{Prompt, PromptKind};
use crate::layout::builder::LayoutBuilder;

impl App {
    /// Ask for the next field: at the cursor, or where the last one ended.
    pub(super) fn layout_add_prompt(&mut self) {
        let off = self.layout_builder.as_ref().map_or(self.cur().cursor, |b| b.next);
        self.prompt = Some(Prompt::new(PromptKind::LayoutField(off), &self.history));
    }

    /// Add field `spec` (`TYPE NAME`) at `off`; the first one picks the node at `off`.
    pub(super) fn layout_add(&mut self, off: u64, spec: &str) {
        if spec.trim().is_empty() {
            return;
        }
        if self.layout_builder.is_none() {
            let doc = self.cur().doc();
            let Some(n) = doc.node_at(off).and_then(|id| doc.node(id)) else {
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
        }
        let limits = *self.jobs.limits();
        let opened = std::sync::Arc::clone(&self.cur().opened);
        let Some(b) = self.layout_builder.as_mut() else { return };
        // read where each field is, under the check, as layouts are applied: never a copy
        // of the node's whole span
        match b.add_from(spec, crate::layout::interpret::Input::Source(opened.source()), &limits) {
            Ok(size) => {
                let (next, count, kind) = (b.next, b.fields.len(), crate::model::sanitize(&b.kind).into_owned());
                self.set_cursor(next);
                let m = format!(
                    "layout for {kind}: {} ({size} B) added, {count} fields; u adds the next at 0x{next:x}, U saves",
                    crate::model::sanitize(spec.trim())
                );
                self.say((Level::Info, m));
            }
            Err(e) => self.say((Level::Error, format!("layout: {}", crate::model::sanitize(&e)))),
        }
    }

    /// Ask for the name to save the layout under.
    pub(super) fn layout_save_prompt(&mut self) {
        if self.layout_builder.as_ref().is_none_or(|b| b.fields.is_empty()) {
            self.say((Level::Error, "layout: no fields yet (u adds one at the hex cursor)".into()));
            return;
        }
        self.prompt = Some(Prompt::new(PromptKind::LayoutName, &self.history));
    }

    /// Save the layout being built as `NAME.toml` in the layouts folder; a file of that
    /// name is replaced only when the user says so (asked first).
    pub(super) fn layout_save(&mut self, name: &str) {
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            self.say((Level::Error, "layout: a name of letters, digits, - and _".into()));
            return;
        }
        let Some(dir) = self.layouts_dir.clone() else {
            self.say((Level::Error, "layout: no layouts folder (set XDG_CONFIG_HOME or HOME)".into()));
            return;
        };
        // any entry of that name (a file, a link, a folder) is asked about first
        if std::fs::symlink_metadata(dir.join(format!("{name}.toml"))).is_ok() {
            self.prompt = Some(Prompt::new(PromptKind::ConfirmLayoutReplace(name.to_string()), &self.history));
            return;
        }
        self.layout_write(name, false);
    }

    /// The answer to "replace layout NAME?": `y` replaces it, anything else keeps it (and
    /// the fields built, to save under another name).
    pub(super) fn layout_replace(&mut self, name: &str, answer: &str) {
        let answer = answer.trim();
        if answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes") {
            self.layout_write(name, true);
        } else {
            self.say((Level::Info, format!("layout {name} not replaced; U saves under another name")));
        }
    }

    /// Write the layout file `NAME.toml` (replacing one only when `replace`).
    fn layout_write(&mut self, name: &str, replace: bool) {
        let (Some(b), Some(dir)) = (self.layout_builder.as_ref(), self.layouts_dir.clone()) else {
            self.say((Level::Error, "layout: no layouts folder (set XDG_CONFIG_HOME or HOME)".into()));
            return;
        };
        let path = dir.join(format!("{name}.toml"));
        let text = b.to_toml(name);
        let done = std::fs::create_dir_all(&dir)
            .and_then(|()| crate::export::write_atomic(&path, text.as_bytes(), replace, self.jobs.limits().max_output));
        match done {
            Ok(()) => {
                self.layout_builder = None;
                let m = format!("layout {name} saved to {}: it applies to files opened from now on", path.display());
                self.say((Level::Info, crate::model::sanitize(&m).into_owned()));
            }
            Err(e) => {
                let m = format!("layout: {}: {e}", path.display());
                self.say((Level::Error, crate::model::sanitize(&m).into_owned()));
            }
        }
    }
}
