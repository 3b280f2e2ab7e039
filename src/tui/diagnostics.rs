//! The diagnostics pane: the selected document's diagnostics, then the input's bookmarks;
//! Enter jumps to an entry's offset. The pane owns the bookmarks, so adding one (`m`) and
//! jumping to the next (`'`) from any pane come here too.

use super::action::Action;
use super::bookmarks;
use super::component::{Component, Ctx, Effect, Level, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// The diagnostics pane: its cursor and the bookmarks of this input.
#[derive(Debug, Default)]
pub struct DiagnosticsPane {
    /// Entry under the cursor.
    pub cursor: usize,
    /// Bookmarks of this input.
    pub bookmarks: bookmarks::Bookmarks,
}

/// The cursor a frame settled on (clamped to the entries shown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiagnosticsGeometry {
    /// The entry under the cursor.
    pub cursor: usize,
}

impl DiagnosticsPane {
    /// Entries of the pane: (document, offset, text).
    pub fn entries(&self, ctx: &Ctx<'_>) -> Vec<(usize, Option<u64>, String)> {
        let d = ctx.sel.0;
        let mut v: Vec<(usize, Option<u64>, String)> =
            ctx.cur().doc().diagnostics.iter().map(|x| (d, x.offset, x.to_string())).collect();
        // in file order (those without an offset last), as they are read in hex
        v.sort_by_key(|e| e.1.unwrap_or(u64::MAX));
        for b in &self.bookmarks.get().marks {
            let doc = ctx.ws.docs.iter().position(|e| e.opened.title() == b.title);
            let text = match b.name.as_str() {
                "" => format!("bookmark {} @0x{:x}", b.title, b.offset),
                name => format!("bookmark \"{}\" {} @0x{:x}", crate::model::sanitize(name), b.title, b.offset),
            };
            v.push((doc.unwrap_or(usize::MAX), Some(b.offset), text));
        }
        v
    }

    /// Add a bookmark at the hex cursor, or remove the one there; saved at once.
    fn toggle_bookmark(&mut self, ctx: &Ctx<'_>) -> Vec<Effect> {
        let title = ctx.cur().opened.title();
        let off = ctx.cur().cursor;
        let store = self.bookmarks.get_mut();
        let added = store.toggle(&title, off);
        let saved = store.save();
        let what = if added { "bookmarked" } else { "bookmark removed:" };
        let (level, text) = match saved {
            Ok(Some(p)) => (Level::Info, format!("{what} 0x{off:x} (saved to {})", p.display())),
            Ok(None) => (Level::Info, format!("{what} 0x{off:x} (not saved: no state directory)")),
            Err(e) => (Level::Error, format!("{what} 0x{off:x} but saving failed: {e}")),
        };
        vec![Effect::Message(level, text)]
    }

    /// Name the bookmark at the hex cursor (added if there is none); saved at once.
    pub fn name_bookmark(&mut self, title: &str, off: u64, name: &str) -> (Level, String) {
        let store = self.bookmarks.get_mut();
        store.set_name(title, off, name);
        let name = bookmarks::clean_name(name);
        let what = if name.is_empty() {
            format!("bookmark 0x{off:x} has no name now")
        } else {
            format!("bookmarked 0x{off:x} as \"{}\"", crate::model::sanitize(&name))
        };
        match store.save() {
            Ok(Some(p)) => (Level::Info, format!("{what} (saved to {})", p.display())),
            Ok(None) => (Level::Info, format!("{what} (not saved: no state directory)")),
            Err(e) => (Level::Error, format!("{what} but saving failed: {e}")),
        }
    }

    /// To the next bookmark in the selected document's bytes after the cursor (wrapping).
    fn next_bookmark(&self, ctx: &Ctx<'_>) -> Vec<Effect> {
        let title = ctx.cur().opened.title();
        let cur = ctx.cur().cursor;
        let store = self.bookmarks.get();
        let mut mine: Vec<u64> = store.marks.iter().filter(|b| b.title == title).map(|b| b.offset).collect();
        mine.sort_unstable();
        match mine.iter().find(|&&o| o > cur).or(mine.first()) {
            Some(&o) => match store.name_at(&title, o) {
                Some(name) => vec![
                    Effect::Cursor(o),
                    Effect::Message(Level::Info, format!("bookmark \"{}\" @0x{o:x}", crate::model::sanitize(name))),
                ],
                None => vec![Effect::Cursor(o)],
            },
            None => vec![Effect::Message(Level::Info, "no bookmarks in these bytes (m adds one)".into())],
        }
    }
}

impl Component for DiagnosticsPane {
    type Geometry = Option<DiagnosticsGeometry>;

    fn handle(&mut self, a: Action, ctx: &Ctx<'_>) -> Vec<Effect> {
        match a {
            Action::Bookmark => return self.toggle_bookmark(ctx),
            Action::NextBookmark => return self.next_bookmark(ctx),
            _ => {}
        }
        let entries = self.entries(ctx);
        let n = entries.len();
        if n == 0 {
            return Vec::new();
        }
        match a {
            Action::Up => self.cursor = self.cursor.saturating_sub(1),
            Action::Down => self.cursor = (self.cursor + 1).min(n - 1),
            Action::Home => self.cursor = 0,
            Action::End => self.cursor = n - 1,
            Action::Activate => {
                if let Some((d, Some(off), _)) = entries.get(self.cursor).cloned() {
                    return vec![Effect::GotoDoc(d, off)];
                }
            }
            _ => {}
        }
        Vec::new()
    }

    fn after_draw(&mut self, g: &Option<DiagnosticsGeometry>) {
        if let Some(g) = g {
            self.cursor = g.cursor;
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, ctx: &Ctx<'_>) -> Option<DiagnosticsGeometry> {
        let theme = ctx.theme;
        let entries = self.entries(ctx);
        let doc = ctx.cur().doc();
        // structures not read yet (a MOTN sequence until it is expanded): the list is what
        // was read so far, not every finding (`check` reads them all)
        let unread = match doc.unchecked_count() {
            0 => String::new(),
            1 => " so far, 1 structure not read".to_string(),
            n => format!(" so far, {n} structures not read"),
        };
        let title =
            format!("Diagnostics · {}{unread} · bookmarks {}", doc.diagnostics.len(), self.bookmarks.get().marks.len());
        let inner = ctx.framed(f, area, Pane::Diagnostics, title)?;
        let buf = f.buffer_mut();
        let w = inner.width as usize;
        if entries.is_empty() {
            buf.set_stringn(inner.x, inner.y, "no diagnostics; no bookmarks (m adds one)", w, theme.dim);
            return None;
        }
        let cursor = self.cursor.min(entries.len() - 1);
        let rows = inner.height as usize;
        let top = cursor.saturating_sub(rows.saturating_sub(1));
        for (row, (i, (_, _, text))) in entries.iter().enumerate().skip(top).take(rows).enumerate() {
            let mut style = if text.starts_with("error") { theme.error } else { Style::new() };
            if i == cursor && ctx.focus == Pane::Diagnostics {
                style = theme.selected;
            }
            buf.set_stringn(inner.x, inner.y + row as u16, text, w, style);
        }
        Some(DiagnosticsGeometry { cursor })
    }
}
