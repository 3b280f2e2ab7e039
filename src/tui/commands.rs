//! The commands that go through the prompt line and belong to no single pane: goto an
//! offset, node path or name, find nodes by name, start a search, export the selection
//! to disk.

use super::app::App;
use super::component::{Level, Pane, ctx};
use super::find::Finder;
use super::prompt::{Prompt, PromptKind};
use super::workspace::Load;
use super::{export, search};
use crate::model::NodeId;
use std::path::PathBuf;

impl App {
    /// Do what a submitted prompt asks.
    pub(super) fn submit_prompt(&mut self, p: Prompt) {
        let text = p.text().to_string();
        match p.kind {
            PromptKind::Goto => self.goto(p.text()),
            PromptKind::DiffFile => self.diff_with_file(p.text()),
            PromptKind::Find => {
                let picked =
                    self.finder.as_ref().and_then(|f| f.hits.get(p.selected.min(f.hits.len().saturating_sub(1))));
                match picked {
                    Some(h) => {
                        let (d, n) = (h.doc, h.node);
                        self.jump_to_node(d, n);
                    }
                    None if p.text().trim().is_empty() => {}
                    None => self.message = Some((Level::Error, format!("find: no node matches {}", p.text().trim()))),
                }
            }
            PromptKind::Search => match search::parse_needle(p.text()) {
                Ok(n) => {
                    self.hex.search = Some(n);
                    let fx = self.hex.find(true, false, &ctx!(self));
                    self.run(fx);
                }
                Err(e) => self.message = Some((Level::Error, e)),
            },
            PromptKind::ExportPath => {
                let path = PathBuf::from(p.text().trim());
                if p.text().trim().is_empty() {
                    self.message = Some((Level::Info, "export cancelled".into()));
                } else if path.exists() {
                    self.prompt = Some(Prompt::new(PromptKind::ConfirmOverwrite(path), &self.history));
                } else {
                    self.export_write(path, false);
                }
            }
            PromptKind::ConfirmOverwrite(path) => {
                let answer = text.trim();
                if answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes") {
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
                if let Some((d, n)) = found {
                    self.select_node(d, n, false);
                    return;
                }
                // a name: the finder's matcher; a whole name jumps, anything else lists
                let mut finder = Finder::default();
                finder.refresh(&self.workspace, input);
                match finder.hits.first() {
                    Some(h) if h.exact => {
                        let (d, n) = (h.doc, h.node);
                        self.jump_to_node(d, n);
                    }
                    Some(_) => self.open_finder(input.to_string()),
                    None => {
                        self.message = Some((
                            Level::Error,
                            format!(
                                "goto: {input} is not an offset (0x150, 336, +0x20), a node path or a node name of \
                                 an opened document"
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
            self.prompt = Some(Prompt::with_input(PromptKind::ExportPath, input, &self.history));
            return;
        }
        self.wait_clip();
        match export::check_clip(self.clip()) {
            Ok(()) => {
                let input = export::default_json_path(self.clip());
                self.prompt = Some(Prompt::with_input(PromptKind::ExportPath, input, &self.history));
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
            let e = self.cur();
            // glTF of a scene with models carries its meshes too (as `export --gltf` does)
            let scene = (export::wants_gltf(&path) && e.opened.format().has_meshes())
                .then(|| {
                    let req =
                        crate::model::mesh::SceneRequest { model: None, pose: crate::model::mesh::ScenePose::Rest };
                    e.opened.scene(&req, self.jobs.limits()).ok()
                })
                .flatten();
            export::write_clip(clip, scene.as_ref(), &e.opened.title(), &path, force)
        };
        match res {
            Some(Ok(m)) => self.message = Some((Level::Info, m)),
            Some(Err(m)) => self.message = Some((Level::Error, m)),
            None => {}
        }
    }

    /// Open the finder with `input` typed in (results at once).
    pub(super) fn open_finder(&mut self, input: String) {
        self.prompt = Some(Prompt::with_input(PromptKind::Find, input, &self.history));
        self.finder = Some(Finder::default());
        self.refresh_finder();
    }

    /// The finder's results for the text in the find prompt (after each key).
    pub(super) fn refresh_finder(&mut self) {
        let Some(p) = self.prompt.as_mut().filter(|p| p.kind == PromptKind::Find) else { return };
        let f = self.finder.get_or_insert_with(Finder::default);
        f.refresh(&self.workspace, p.line.value());
        p.selected = p.selected.min(f.hits.len().saturating_sub(1));
    }

    /// Jump to a node found by name: select it (its clip starts decoding), show it in the
    /// tree, and open it when it is an archive member not opened yet.
    pub(super) fn jump_to_node(&mut self, d: usize, n: NodeId) {
        self.select_node(d, n, false);
        self.focus_pane(Pane::Tree);
        if self.anim_node().is_some() {
            // what was looked for is usually the curves: the small layouts show them
            self.lower = Pane::Decode;
        }
        let member = self.workspace.docs.get(d).and_then(|e| e.doc().node(n)).is_some_and(|x| x.member.is_some());
        if member {
            self.workspace.start_member(&mut self.jobs, d, n);
            let mut path = self.tree_path(d, n);
            self.tree.open(std::mem::take(&mut path));
        }
        if let Some(e) = self.workspace.docs.get(d) {
            let path = crate::model::sanitize(&e.doc().path(n)).into_owned();
            self.message = Some((Level::Info, format!("at {path}")));
        }
    }
}
