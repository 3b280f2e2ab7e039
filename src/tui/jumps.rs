//! Jumps and the way back, as in vim (`ctrl-o`/`ctrl-i`), ImHex and 010 Editor: every
//! jump (goto, find, search and its next/previous match, walk steps, diff changes,
//! bookmarks, following a reference) leaves where it started on a back stack; `back`
//! returns there (the place left goes on a forward stack), `forward` undoes a `back`.
//! A new jump clears the forward stack.
//!
//! Following a reference (`follow`; Enter in the fields pane): a field whose meaning names
//! another node (`clut 988 → CLT_s01art02`) selects the node of that name in the same
//! document; a field named as an offset (`…_ofs`, `…offset`, `…ptr`, `…pointer`) with an
//! unsigned value inside the document moves the hex cursor there, taken as an offset from
//! the start of the document's bytes (what the format means by it may differ: the status
//! line says how it was taken).

use super::action::Action;
use super::app::App;
use super::component::{Level, Pane};
use crate::model::{Meaning, NodeId, Raw};
use crate::session::bracketed;

/// Places kept on each stack at most.
pub const JUMPS_MAX: usize = 100;

/// A place: (document, node selected, hex cursor).
pub type Place = (usize, NodeId, u64);

/// The back and forward stacks.
#[derive(Debug, Default, Clone)]
pub struct Jumps {
    /// Places jumped from, newest last.
    pub back: Vec<Place>,
    /// Places left by `back`, newest last.
    pub forward: Vec<Place>,
}

impl Jumps {
    /// A jump left `from`.
    pub fn jumped(&mut self, from: Place) {
        if self.back.last() != Some(&from) {
            self.back.push(from);
            if self.back.len() > JUMPS_MAX {
                self.back.remove(0);
            }
        }
        self.forward.clear();
    }

    /// Document `d` was parsed again: each place in it takes the node `map` finds for its
    /// old node; a place whose node is not found is dropped (it would name another node).
    pub fn remap_doc(&mut self, d: usize, map: &dyn Fn(NodeId) -> Option<NodeId>) {
        for stack in [&mut self.back, &mut self.forward] {
            stack.retain_mut(|p| {
                if p.0 != d {
                    return true;
                }
                map(p.1).inspect(|n| p.1 = *n).is_some()
            });
        }
    }
}

/// Whether action `a` is a jump (where it starts is kept on the back stack).
pub fn is_jump(a: Action) -> bool {
    matches!(
        a,
        Action::SearchNext
            | Action::SearchPrev
            | Action::WalkMode
            | Action::WalkNext
            | Action::WalkPrev
            | Action::DiffNext
            | Action::DiffPrev
            | Action::NextBookmark
            | Action::Follow
    )
}

/// A field name that says its value is an offset.
fn offset_named(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["ofs", "offset", "ptr", "pointer"].iter().any(|w| n.ends_with(w) || n.contains(&format!("{w}_")))
}

impl App {
    /// Where the selection is now.
    pub fn here(&self) -> Place {
        (self.sel.0, self.sel.1, self.cur().cursor)
    }

    /// Go to a place kept on a stack.
    fn go_to_place(&mut self, (d, n, off): Place) {
        if d >= self.workspace.docs.len() {
            return;
        }
        self.select_node(d, n, false);
        let len = self.cur().doc().len;
        self.cur_mut().cursor = off.min(len.saturating_sub(1));
        self.refresh_field();
    }

    /// Back to where the last jump started (`back`).
    pub(super) fn jump_back(&mut self) {
        let Some(p) = self.jumps.back.pop() else {
            self.say((Level::Info, "no jump to go back from".into()));
            return;
        };
        let here = self.here();
        self.jumps.forward.push(here);
        self.go_to_place(p);
        self.say((
            Level::Info,
            format!("back ({} more back, {} forward)", self.jumps.back.len(), self.jumps.forward.len()),
        ));
    }

    /// Undo a `back` (`forward`).
    pub(super) fn jump_forward(&mut self) {
        let Some(p) = self.jumps.forward.pop() else {
            self.say((Level::Info, "nothing to go forward to".into()));
            return;
        };
        let here = self.here();
        self.jumps.back.push(here);
        self.go_to_place(p);
        self.say((Level::Info, format!("forward ({} more forward)", self.jumps.forward.len())));
    }

    /// Follow the reference in the selected field (`follow`, Enter in the fields pane).
    /// Returns false when the field refers to nothing (Enter then does what it did).
    pub(super) fn follow(&mut self) -> bool {
        let d = self.sel.0;
        let Some((fnode, fi)) = self.field_sel else { return false };
        let Some(field) = self.cur().doc().node(fnode).and_then(|n| n.fields.get(fi)).cloned() else { return false };
        if let Some(Meaning::Ref(name)) = &field.value.meaning {
            let doc = self.cur().doc();
            let hits: Vec<NodeId> = doc
                .nodes
                .iter()
                .filter(|n| n.key == name.as_str() || bracketed(&n.key) == Some(name.as_str()))
                .map(|n| n.id)
                .collect();
            let shown = crate::model::sanitize(name).into_owned();
            return match hits.first() {
                Some(&n) if n == fnode => {
                    self.say((Level::Info, format!("{} refers to this node ({shown})", field.name)));
                    true
                }
                Some(&n) => {
                    self.select_node(d, n, false);
                    let path = crate::model::sanitize(&self.cur().doc().path(n)).into_owned();
                    let more =
                        if hits.len() > 1 { format!(" (first of {} of that name)", hits.len()) } else { String::new() };
                    let key = self.keymap.key_for(Action::Back).unwrap_or_else(|| Action::Back.name().into());
                    self.say((Level::Info, format!("followed {} → {path}{more}; {key} goes back", field.name)));
                    true
                }
                None => {
                    self.say((
                        Level::Info,
                        format!("{} refers to {shown}, which is not a node of this document", field.name),
                    ));
                    true
                }
            };
        }
        let value = match field.value.raw {
            Raw::U { v, .. } | Raw::Dec(v) => Some(v),
            _ => None,
        };
        if let Some(v) = value.filter(|_| offset_named(&field.name)) {
            let len = self.cur().doc().len;
            if v < len {
                self.set_cursor(v);
                self.focus = Pane::Hex;
                let key = self.keymap.key_for(Action::Back).unwrap_or_else(|| Action::Back.name().into());
                self.say((
                    Level::Info,
                    format!(
                        "followed {} = 0x{v:x} as an offset from the start of the bytes; {key} goes back",
                        field.name
                    ),
                ));
            } else {
                self.say((Level::Info, format!("{} = 0x{v:x} is past the end (0x{len:x})", field.name)));
            }
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_jump_clears_forward_and_repeats_are_kept_once() {
        let mut j = Jumps::default();
        j.jumped((0, NodeId(1), 5));
        j.jumped((0, NodeId(1), 5));
        assert_eq!(j.back.len(), 1);
        j.forward.push((0, NodeId(2), 9));
        j.jumped((0, NodeId(3), 1));
        assert!(j.forward.is_empty());
        for i in 0..JUMPS_MAX as u64 + 5 {
            j.jumped((0, NodeId(0), i));
        }
        assert_eq!(j.back.len(), JUMPS_MAX);
    }

    /// Places in the reparsed document take their node's new id or go; places in other
    /// documents stay as they were.
    #[test]
    fn places_in_a_reparsed_document_are_remapped_or_dropped() {
        let mut j = Jumps {
            back: vec![(0, NodeId(4), 1), (1, NodeId(4), 2), (0, NodeId(7), 3)],
            forward: vec![(0, NodeId(9), 4)],
        };
        // node 4 is now 5; 7 and 9 are not found
        j.remap_doc(0, &|n| (n == NodeId(4)).then_some(NodeId(5)));
        assert_eq!(j.back, [(0, NodeId(5), 1), (1, NodeId(4), 2)]);
        assert!(j.forward.is_empty());
    }

    #[test]
    fn offset_names() {
        for yes in ["table_ofs", "data_offset", "name_ptr", "pointer", "ofs_table"] {
            assert!(offset_named(yes), "{yes}");
        }
        for no in ["frame_count", "flags", "softness"] {
            assert!(!offset_named(no), "{no}");
        }
    }
}
