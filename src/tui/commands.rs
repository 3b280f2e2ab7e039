//! The commands that go through the prompt line and belong to no single pane: goto an
//! offset, node path or name (`FILE@0x800`, `MEMBER@0x1a0` into any opened document or
//! listed member), find nodes by name (inside listed members too: they are opened on
//! demand), start a search, export the selection to disk.

use super::app::{App, PendingJump, Target};
use super::component::{Level, Pane, ctx};
use super::find::{Finder, Hit, name_of};
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
            PromptKind::Frame(last) => self.goto_frame(p.text(), last),
            PromptKind::DiffFile => self.diff_with_file(p.text()),
            PromptKind::ChannelFilter(_) => {
                self.decode.set_filter(p.text());
                let f = p.text().trim();
                if !f.is_empty() {
                    self.say((Level::Info, format!("channels matching {f:?} (F changes the filter)")));
                }
            }
            PromptKind::Find => {
                let picked =
                    self.finder.as_ref().and_then(|f| f.hits.get(p.selected.min(f.hits.len().saturating_sub(1))));
                match picked.cloned() {
                    Some(h) => self.jump_to_hit(&h),
                    None if p.text().trim().is_empty() => {}
                    None => self.say((Level::Error, format!("find: no node matches {}", p.text().trim()))),
                }
            }
            PromptKind::Search => match search::parse_needle(p.text()) {
                Ok(n) => {
                    self.hex.search = Some(n);
                    let fx = self.hex.find(true, false, &ctx!(self));
                    self.run(fx);
                }
                Err(e) => self.say((Level::Error, e)),
            },
            PromptKind::ExportPath | PromptKind::ExportBytes { .. } => {
                self.raw_export = match p.kind {
                    PromptKind::ExportBytes { doc, span } => Some((doc, span)),
                    _ => None,
                };
                let path = PathBuf::from(p.text().trim());
                if p.text().trim().is_empty() {
                    self.say((Level::Info, "export cancelled".into()));
                } else if path.parent().is_some_and(|d| !d.as_os_str().is_empty() && !d.exists()) {
                    self.prompt = Some(Prompt::new(PromptKind::ConfirmCreateDir(path), &self.history));
                } else {
                    self.export_to(path);
                }
            }
            PromptKind::ConfirmCreateDir(path) => {
                let answer = text.trim();
                let dir = path.parent().map(PathBuf::from).unwrap_or_default();
                if !(answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes")) {
                    self.say((Level::Info, format!("export cancelled: {} does not exist", dir.display())));
                } else if let Err(e) = std::fs::create_dir_all(&dir) {
                    self.say((Level::Error, format!("export {}: creating {}: {e}", path.display(), dir.display())));
                } else {
                    self.export_to(path);
                }
            }
            PromptKind::LayoutField(off) => self.layout_add(off, p.text()),
            PromptKind::LayoutName { ref places, at } => {
                let dir = places.get(at).map(|p| p.dir.clone());
                self.layout_save(p.text(), dir)
            }
            PromptKind::ConfirmLayoutReplace(name, dir) => self.layout_replace(&name, &dir, &text),
            PromptKind::BookmarkName(off) => {
                let title = self.cur().opened.title();
                let m = self.diagnostics.name_bookmark(&title, off, p.text());
                self.say(m);
            }
            PromptKind::EditField { doc, node, index, .. } => self.edit_field(doc, node, index, p.text()),
            PromptKind::EditBytes { doc, offset } => self.edit_bytes(doc, offset, p.text()),
            PromptKind::EditWritePath => self.edit_write_to(p.text()),
            PromptKind::ConfirmEditWrite { path, overwrite, force } => {
                self.edit_write_confirmed(&path, overwrite, force, &text)
            }
            PromptKind::ConfirmOverwrite(path) => {
                let answer = text.trim();
                if answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes") {
                    self.export_write(path, true);
                } else {
                    self.say((Level::Info, format!("not overwritten: {}", path.display())));
                }
            }
        }
    }

    /// Go to an offset (absolute, or relative to the cursor), `NAME@OFFSET` (an offset of
    /// an opened document or a listed archive member, opened on demand), a node path or
    /// a node name.
    fn goto(&mut self, input: &str) {
        // a jump ends a shift-selection
        self.hex.anchor = None;
        let input = input.trim();
        let cur = self.cur().cursor;
        if let Some((name, off)) = input.rsplit_once('@')
            && let Some(off) = crate::session::parse_offset(off)
            && !name.trim().is_empty()
        {
            self.goto_at(name.trim(), off);
            return;
        }
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
                let unread = self.unread_members();
                match finder.hits.first().cloned() {
                    Some(h) if h.exact => self.jump_to_hit(&h),
                    _ if unread > 0 => {
                        // the name may be inside a member not opened yet: read their names
                        self.workspace.read_member_names(&mut self.jobs);
                        self.goto_wait = Some(input.to_string());
                        self.say((
                            Level::Info,
                            format!(
                                "looking for {} in {unread} unopened members (any key stops)",
                                crate::model::sanitize(input)
                            ),
                        ));
                    }
                    Some(_) => self.open_finder(input.to_string()),
                    None => self.say((
                        Level::Error,
                        format!(
                            "goto: {input} is not an offset (0x150, 336, +0x20), a node path or a node name of \
                                 an opened document"
                        ),
                    )),
                }
            }
        }
    }

    /// `e`: offer a path for the export. CCSF documents also export their models as OBJ
    /// (+MTL, PNG), posed at the current Anime frame when an Anime is selected: offered
    /// when there is no posed clip to write as matrix JSON.
    pub(super) fn start_export(&mut self) {
        // selected bytes (shift-select in hex): written as they are
        let d = self.sel.0;
        if let Some(span) = self.hex.range(d, self.cur().cursor) {
            self.ask_raw_path(d, span, &format!("bytes_0x{:x}-0x{:x}", span.start, span.end));
            return;
        }
        let has_poses = matches!(self.clip(), Some(Load::Ready(c)) if c.poses.is_some());
        if export::offers_obj(&self.cur().opened) && !has_poses {
            let input = export::default_obj_path(&self.cur().opened);
            self.prompt = Some(Prompt::with_input(PromptKind::ExportPath, input, &self.history));
            return;
        }
        if self.anim_node().is_none() {
            // a node without animation: its bytes
            let Some(n) = self.cur().doc().node(self.sel.1) else { return };
            let (span, name) = (n.span, super::find::name_of(&n.key).to_string());
            if span.is_empty() {
                self.say((Level::Error, "export: the selected node has no bytes".into()));
                return;
            }
            self.ask_raw_path(d, span, &name);
            return;
        }
        self.wait_clip();
        match export::check_clip(self.clip()) {
            Ok(()) => {
                let input = export::default_json_path(self.clip());
                self.prompt = Some(Prompt::with_input(PromptKind::ExportPath, input, &self.history));
            }
            Err(m) => self.say(m),
        }
    }

    /// Ask where to write the bytes `span` of document `d`, offering `<name>.bin`.
    fn ask_raw_path(&mut self, d: usize, span: crate::model::Span, name: &str) {
        let input = format!("{}.bin", export::file_stem_of(name));
        self.prompt = Some(Prompt::with_input(PromptKind::ExportBytes { doc: d, span }, input, &self.history));
    }

    /// Export to `path`, asking first when it exists.
    fn export_to(&mut self, path: PathBuf) {
        if path.exists() {
            self.prompt = Some(Prompt::new(PromptKind::ConfirmOverwrite(path), &self.history));
        } else {
            self.export_write(path, false);
        }
    }

    /// Write the export to `path`: raw bytes when the prompt was for bytes, else what the
    /// extension asks for by the CLI's rule ([`crate::export::OutputKind`]): `.obj` the OBJ
    /// export, `.glb`/`.gltf` glTF, anything else matrix JSON.
    fn export_write(&mut self, path: PathBuf, force: bool) {
        if let Some((d, span)) = self.raw_export.take() {
            let res = match self.workspace.bytes(d) {
                Some(bytes) => {
                    let title = self.workspace.entry(d).opened.title();
                    export::write_bytes(bytes, span, &title, &path, force, self.jobs.limits())
                }
                None => Err("export: the file changed on disk; its bytes are not read again".into()),
            };
            self.say(match res {
                Ok(m) => (Level::Info, m),
                Err(m) => (Level::Error, m),
            });
            return;
        }
        let req = export::request(&path, force, self.jobs.limits());
        let res = if req.kind == crate::export::OutputKind::Obj {
            // posed at the decode pane's frame when an Anime is selected
            let e = self.cur();
            let anim = self.anim_node().and_then(|n| e.opened.animation_at(n));
            Some(export::write_obj(&e.opened, anim.as_ref(), self.decode.frame, &req))
        } else {
            let Some(Load::Ready(clip)) = self.clip() else { return };
            let e = self.cur();
            // glTF of a scene with models carries its meshes too (as `export --gltf` does)
            let scene = if req.kind == crate::export::OutputKind::Gltf && e.opened.meshes().is_some() {
                let scene_req =
                    crate::model::mesh::SceneRequest { model: None, pose: crate::model::mesh::ScenePose::Rest };
                match e.opened.require_meshes().and_then(|m| m.scene(&scene_req, &e.opened.decode_limits())) {
                    Ok(s) => Some(s),
                    Err(err) => {
                        self.say((Level::Error, format!("export {}: the scene: {err}", path.display())));
                        return;
                    }
                }
            } else {
                None
            };
            export::write_clip(clip, scene.as_ref(), &e.opened.title(), &req)
        };
        match res {
            Some(Ok(m)) => self.say((Level::Info, m)),
            Some(Err(m)) => self.say((Level::Error, m)),
            None => {}
        }
    }

    /// Open the finder with `input` typed in (results at once; names inside listed
    /// members that are not opened join them as the members are read in the background).
    pub(super) fn open_finder(&mut self, input: String) {
        self.prompt = Some(Prompt::with_input(PromptKind::Find, input, &self.history));
        self.finder = Some(Finder::default());
        self.workspace.read_member_names(&mut self.jobs);
        self.refresh_finder();
    }

    /// Listed members neither opened nor read for their names.
    fn unread_members(&self) -> usize {
        let ws = &self.workspace;
        ws.docs
            .iter()
            .enumerate()
            .map(|(d, e)| {
                e.doc()
                    .live_nodes()
                    .filter(|n| n.member.is_some())
                    .filter(|n| !ws.members.contains_key(&(d, n.id)) && !ws.member_names.contains_key(&(d, n.id)))
                    .count()
            })
            .sum()
    }

    /// The finder's results for the text in the find prompt (after each key).
    pub(super) fn refresh_finder(&mut self) {
        self.finder_dirty = false;
        let Some(p) = self.prompt.as_mut().filter(|p| p.kind == PromptKind::Find) else { return };
        let f = self.finder.get_or_insert_with(Finder::default);
        f.refresh(&self.workspace, p.line.value());
        p.selected = p.selected.min(f.hits.len().saturating_sub(1));
    }

    /// Jump to a finder hit: a node of an opened document, or one inside a member that is
    /// not opened (opened first).
    pub(super) fn jump_to_hit(&mut self, h: &Hit) {
        match &h.inside {
            None => self.jump_to_node(h.doc, h.node),
            Some(m) => self.jump_into_member(h.doc, h.node, Target::Path(m.path.clone())),
        }
    }

    /// `NAME@OFFSET`: `NAME` is an opened document (its file or member name) or a listed
    /// member (a whole name, else the best fuzzy match among member names).
    fn goto_at(&mut self, name: &str, off: u64) {
        let lc = name.to_lowercase();
        let ws = &self.workspace;
        let doc = ws.docs.iter().position(|e| {
            let root = e.doc().root().key.to_lowercase();
            root == lc || e.opened.source().name().to_lowercase() == lc
        });
        if let Some(d) = doc {
            self.land(d, Target::Offset(off));
            return;
        }
        // listed members: whole names first, then the matcher over member names
        let members: Vec<(usize, crate::model::NodeId, String)> = ws
            .docs
            .iter()
            .enumerate()
            .flat_map(|(d, e)| {
                e.doc().live_nodes().filter(|n| n.member.is_some()).map(move |n| (d, n.id, n.key.to_string()))
            })
            .collect();
        let whole = members.iter().find(|(_, _, k)| k.to_lowercase() == lc || name_of(k).to_lowercase() == lc);
        let picked = whole.or_else(|| {
            use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
            let pattern = Pattern::parse(name, CaseMatching::Ignore, Normalization::Smart);
            let mut matcher = nucleo_matcher::Matcher::new(nucleo_matcher::Config::DEFAULT);
            let mut buf = Vec::new();
            members
                .iter()
                .filter_map(|m| {
                    let hay = nucleo_matcher::Utf32Str::new(&m.2, &mut buf);
                    pattern.score(hay, &mut matcher).map(|s| (s, m))
                })
                .max_by(|a, b| a.0.cmp(&b.0).then(b.1.0.cmp(&a.1.0)).then(b.1.1.cmp(&a.1.1)))
                .map(|(_, m)| m)
        });
        match picked.map(|m| (m.0, m.1)) {
            Some((d, n)) => self.jump_into_member(d, n, Target::Offset(off)),
            None => self.say((
                Level::Error,
                format!(
                    "goto: no opened document or archive member is named {} (FILE@0x800, MEMBER@0x1a0)",
                    crate::model::sanitize(name)
                ),
            )),
        }
    }

    /// Jump to `target` in the member at (document `d`, node `n`): at once when it is
    /// opened, else once the background has opened it.
    pub(super) fn jump_into_member(&mut self, d: usize, n: crate::model::NodeId, target: Target) {
        if let Some(Load::Ready(idx)) = self.workspace.members.get(&(d, n)).cloned() {
            self.land(idx, target);
            return;
        }
        self.workspace.start_member(&mut self.jobs, d, n);
        // the member shows in the tree while it opens
        self.select_node(d, n, false);
        let path = self.tree_path(d, n);
        self.tree.open(path);
        if let Some(Load::Failed(e)) = self.workspace.members.get(&(d, n)) {
            self.say((Level::Error, e.clone()));
            return;
        }
        let name = self.workspace.docs.get(d).and_then(|e| e.doc().node(n)).map(|x| x.key.clone()).unwrap_or_default();
        self.say((Level::Info, format!("opening {}…", crate::model::sanitize(&name))));
        self.pending_jump = Some(PendingJump { member: (d, n), target });
    }

    /// Land on `target` in opened document `d`.
    fn land(&mut self, d: usize, target: Target) {
        match target {
            Target::Offset(off) => {
                let len = self.workspace.entry(d).doc().len;
                if off >= len {
                    let title = self.workspace.entry(d).opened.title();
                    self.say((
                        Level::Error,
                        format!("0x{off:x} is past the end of {} (0x{len:x} bytes)", crate::model::sanitize(&title)),
                    ));
                    return;
                }
                self.sel.0 = d;
                self.set_cursor(off);
                self.focus = Pane::Hex;
                let title = self.workspace.entry(d).opened.title();
                self.say((Level::Info, format!("at 0x{off:x} of {}", crate::model::sanitize(&title))));
            }
            Target::Path(path) => {
                let mut found = None;
                self.build_in(d, |_| true, |doc| found = doc.find_path_expanding(&path));
                let found = found.or_else(|| self.workspace.docs.get(d).and_then(|e| e.doc().find_path(&path)));
                match found {
                    Some(n) => self.jump_to_node(d, n),
                    None => {
                        self.message =
                            Some((Level::Error, format!("{} is gone from the member", crate::model::sanitize(&path))))
                    }
                }
            }
        }
    }

    /// A member finished opening (or failed): a jump waiting for it lands.
    pub(super) fn member_opened(&mut self, key: (usize, crate::model::NodeId)) {
        if self.pending_jump.as_ref().is_none_or(|p| p.member != key) {
            return;
        }
        let Some(p) = self.pending_jump.take() else { return };
        if let Some(Load::Ready(idx)) = self.workspace.members.get(&key).cloned() {
            self.land(idx, p.target);
        }
    }

    /// Names of a member arrived: a `g NAME` still looking lands on a whole-name match
    /// among them; once every member is read, it lists what matched (or says nothing did).
    pub(super) fn names_read(&mut self, key: (usize, crate::model::NodeId)) {
        let Some(name) = self.goto_wait.clone() else { return };
        let lc = name.to_lowercase();
        if let Some(Load::Ready(names)) = self.workspace.member_names.get(&key)
            && let Some(m) =
                names.iter().find(|m| m.key.to_lowercase() == lc || name_of(&m.key).to_lowercase() == lc).cloned()
        {
            self.goto_wait = None;
            self.jump_into_member(key.0, key.1, Target::Path(m.path.clone()));
            return;
        }
        if self.workspace.names_progress().0 > 0 {
            return;
        }
        self.goto_wait = None;
        let mut finder = Finder::default();
        finder.refresh(&self.workspace, &name);
        if finder.hits.is_empty() {
            self.say((
                Level::Error,
                format!(
                    "goto: {} is not an offset (0x150, 336, +0x20), a node path or a node name (opened documents \
                     and listed members searched)",
                    crate::model::sanitize(&name)
                ),
            ));
        } else {
            self.open_finder(name);
        }
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
            self.say((Level::Info, format!("at {path}")));
        }
    }
}
