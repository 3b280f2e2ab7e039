//! The commands that go through the prompt line and belong to no single pane: goto an
//! offset or node path, start a search, export the selection to disk.

use super::app::App;
use super::component::{Level, Pane, ctx};
use super::prompt::{Prompt, PromptKind};
use super::workspace::Load;
use super::{export, search};
use std::path::PathBuf;

impl App {
    /// Do what a submitted prompt asks.
    pub(super) fn submit_prompt(&mut self, p: Prompt) {
        match p.kind {
            PromptKind::Goto => self.goto(&p.input),
            PromptKind::Search => match search::parse_needle(&p.input) {
                Ok(n) => {
                    self.hex.search = Some(n);
                    let fx = self.hex.find(true, false, &ctx!(self));
                    self.run(fx);
                }
                Err(e) => self.message = Some((Level::Error, e)),
            },
            PromptKind::ExportPath => {
                let path = PathBuf::from(p.input.trim());
                if p.input.trim().is_empty() {
                    self.message = Some((Level::Info, "export cancelled".into()));
                } else if path.exists() {
                    self.prompt = Some(Prompt::new(PromptKind::ConfirmOverwrite(path)));
                } else {
                    self.export_write(path, false);
                }
            }
            PromptKind::ConfirmOverwrite(path) => {
                if p.input.trim().eq_ignore_ascii_case("y") || p.input.trim().eq_ignore_ascii_case("yes") {
                    self.export_write(path, true);
                } else {
                    self.message = Some((Level::Info, format!("not overwritten: {}", path.display())));
                }
            }
        }
    }

    /// Go to an offset (absolute, or relative to the cursor) or a node path.
    fn goto(&mut self, input: &str) {
        let input = input.trim();
        let cur = self.cur().cursor;
        match search::parse_goto(input, cur) {
            Some(off) if off < self.cur().doc().len => {
                self.set_cursor(off);
                self.focus = Pane::Hex;
            }
            Some(off) => {
                self.message =
                    Some((Level::Error, format!("0x{off:x} is past the end (0x{:x} bytes)", self.cur().doc().len)))
            }
            None => {
                // a node path: the selected document first, then every opened one
                let docs = &self.workspace.docs;
                let found = std::iter::once(self.sel.0)
                    .chain((0..docs.len()).filter(|d| *d != self.sel.0))
                    .find_map(|d| Some((d, docs.get(d)?.doc().find_path(input)?)));
                match found {
                    Some((d, n)) => self.select_node(d, n, false),
                    None => {
                        self.message = Some((
                            Level::Error,
                            format!(
                                "goto: {input} is not an offset (0x150, 336, +0x20) or a node path of an opened \
                                 document"
                            ),
                        ))
                    }
                }
            }
        }
    }

    /// `e`: offer a path for the export. CCSF documents also export their models as OBJ
    /// (+MTL, PNG), posed at the current Anime frame when an Anime is selected: offered
    /// when there is no posed clip to write as matrix JSON.
    pub(super) fn start_export(&mut self) {
        let has_poses = matches!(self.clip(), Some(Load::Ready(c)) if c.poses.is_some());
        if export::offers_obj(&self.cur().opened) && !has_poses {
            let input = export::default_obj_path(&self.cur().opened);
            self.prompt = Some(Prompt { kind: PromptKind::ExportPath, input });
            return;
        }
        self.wait_clip();
        match export::check_clip(self.clip()) {
            Ok(()) => {
                let input = export::default_json_path(self.clip());
                self.prompt = Some(Prompt { kind: PromptKind::ExportPath, input });
            }
            Err(m) => self.message = Some(m),
        }
    }

    /// Write the export to `path` (`.obj`: the OBJ export, else matrix JSON).
    fn export_write(&mut self, path: PathBuf, force: bool) {
        let res = if export::wants_obj(&path) {
            // posed at the decode pane's frame when an Anime is selected
            let e = self.cur();
            let anim = self.anim_node().and_then(|n| e.opened.animation_at(n));
            Some(export::write_obj(&e.opened, anim.as_ref(), self.decode.frame, &path, force, self.jobs.limits()))
        } else {
            let Some(Load::Ready(clip)) = self.clip() else { return };
            export::write_matrix_json(clip, &self.cur().opened.title(), &path, force)
        };
        match res {
            Some(Ok(m)) => self.message = Some((Level::Info, m)),
            Some(Err(m)) => self.message = Some((Level::Error, m)),
            None => {}
        }
    }
}
