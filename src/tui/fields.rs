//! The fields pane: the selected node's fields with their values, meanings, offsets,
//! sizes and notes, and the field under the hex cursor when it belongs to another node.
//! Rows too long for the pane scroll sideways (`left`/`right`, `h`/`l`, as `less -S`
//! does): scrolled, every row shows its value, offset and note from that column on, with
//! `«` and `»` where more is hidden, beside its name, which stays.

use super::action::Action;
use super::component::{Component, Ctx, Effect, Pane};
use super::layout::wrap_hard;
use crate::model::NodeId;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

/// The fields pane. The selected field is part of the selection, which the hex cursor
/// moves too; the pane keeps only its sideways scroll.
#[derive(Debug, Default)]
pub struct FieldsPane {
    /// Columns scrolled to the right (0: rows fit the pane, cut with `…`).
    pub hscroll: usize,
}

/// One line as it scrolls sideways: a field's name (which stays, as a spreadsheet's first
/// column does) and the rest whole: its value (with its meaning and unit conversions),
/// offset, size and note. Other lines, and fields whose names are wider than the names
/// column, have no name apart and scroll whole.
struct Whole {
    name: Option<String>,
    rest: String,
}

/// The lines of `node` as they scroll sideways: the field under the hex cursor when it
/// belongs to another node, then every field (or, with none, the node's children).
fn whole_lines(
    doc: &crate::model::Document,
    node: &crate::model::Node,
    field_sel: Option<(NodeId, usize)>,
    name_w: usize,
) -> Vec<Whole> {
    let mut out = Vec::new();
    if let Some((fnode, fi)) = field_sel.filter(|(n, _)| *n != node.id)
        && let Some(fl) = doc.node(fnode).and_then(|n| n.fields.get(fi))
    {
        let owner = doc.node(fnode).map_or("?", |n| n.key.as_str());
        out.push(Whole { name: None, rest: format!("cursor in {owner}.{} = {}", fl.name, fl.value) });
    }
    if node.fields.is_empty() {
        let head = match node.children.len() {
            0 => "no fields and no children".to_string(),
            n => format!("no fields; {n} children:"),
        };
        out.push(Whole { name: None, rest: head });
        for k in node.children.iter().filter_map(|c| doc.node(*c)) {
            let (key, summary) = (crate::model::sanitize(&k.key), crate::model::sanitize(&k.summary));
            out.push(Whole { name: None, rest: format!(" {key}  {}  @{}  {summary}", k.kind, k.span) });
        }
        return out;
    }
    for fl in &node.fields {
        let note = fl.note.as_deref().map(|n| format!("  {n}")).unwrap_or_default();
        let rest = format!("{}  @0x{:x} {} B{note}", fl.value, fl.span.start, fl.span.len());
        if fl.name.chars().count() <= name_w {
            out.push(Whole { name: Some(fl.name.to_string()), rest });
        } else {
            out.push(Whole { name: None, rest: format!("{}  {rest}", fl.name) });
        }
    }
    out
}

/// The width of the names column: the longest name, 4 to 18 columns.
fn name_width(node: &crate::model::Node) -> usize {
    node.fields.iter().map(|f| f.name.chars().count()).max().unwrap_or(4).clamp(4, 18)
}

/// The width of the names column when scrolled: the longest name, at most half the pane.
fn scrolled_name_width(node: &crate::model::Node, w: usize) -> usize {
    node.fields.iter().map(|f| f.name.chars().count()).max().unwrap_or(4).clamp(4, (w / 2).max(4))
}

/// Columns left for a line's scrolled part in a pane `w` wide.
fn room_of(line: &Whole, name_w: usize, w: usize) -> usize {
    if line.name.is_some() { w.saturating_sub(name_w + 2) } else { w }
}

/// The furthest scroll that is useful: where the longest line's end is in view.
fn scroll_end(lines: &[Whole], name_w: usize, w: usize) -> usize {
    // a scrolled part shows `«` and one column less than its room
    lines
        .iter()
        .map(|l| l.rest.chars().count().saturating_sub(room_of(l, name_w, w).saturating_sub(1)))
        .max()
        .unwrap_or(0)
}

/// `line` from column `from`, in `w` columns: `«` first (columns before are hidden), `»`
/// last when columns after are.
fn scrolled(line: &str, from: usize, w: usize) -> String {
    let rest: Vec<char> = line.chars().skip(from).collect();
    let room = w.saturating_sub(1);
    let mut out = String::from("«");
    if rest.len() > room {
        out.extend(rest.iter().take(room.saturating_sub(1)));
        out.push('»');
    } else {
        out.extend(rest.iter());
    }
    out
}

fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        format!("{s:<w$}")
    } else {
        let mut t: String = s.chars().take(w.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

impl Component for FieldsPane {
    type Geometry = ();

    fn handle(&mut self, a: Action, ctx: &Ctx<'_>) -> Vec<Effect> {
        let (d, n) = ctx.sel;
        let Some(doc) = ctx.ws.docs.get(d).map(|e| e.doc()) else { return Vec::new() };
        let Some(node) = doc.node(n) else { return Vec::new() };
        if matches!(a, Action::Left | Action::Right) {
            // half a pane per press; right stops where the longest row's end is in view
            let w = ctx.area_of(Pane::Fields).map_or(40, |r| usize::from(r.width.saturating_sub(2)));
            let step = (w / 2).max(4);
            let name_w = scrolled_name_width(node, w);
            let last = scroll_end(&whole_lines(doc, node, ctx.field_sel, name_w), name_w, w);
            self.hscroll =
                if a == Action::Left { self.hscroll.saturating_sub(step) } else { (self.hscroll + step).min(last) };
            return Vec::new();
        }
        let count = node.fields.len();
        if count == 0 {
            return Vec::new();
        }
        let cur = match ctx.field_sel {
            Some((fnode, i)) if fnode == n => i,
            _ => usize::MAX,
        };
        let next = match a {
            Action::Up if cur == usize::MAX => count - 1,
            Action::Up => cur.saturating_sub(1),
            Action::Down if cur == usize::MAX => 0,
            Action::Down => (cur + 1).min(count - 1),
            Action::Home | Action::PageUp => 0,
            Action::End | Action::PageDown => count - 1,
            Action::Activate => return vec![Effect::Focus(Pane::Hex)],
            _ => return Vec::new(),
        };
        match node.fields.get(next) {
            Some(f) => vec![Effect::Field { node: n, index: next, start: f.span.start }],
            None => Vec::new(),
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let doc = ctx.cur().doc();
        let Some(node) = doc.node(ctx.sel.1) else { return };
        let title = format!("Fields · {} {} @{}", node.kind, node.key, node.span);
        let Some(inner) = ctx.framed(f, area, Pane::Fields, title) else { return };
        let buf = f.buffer_mut();
        let w = inner.width as usize;
        let scroll_w = scrolled_name_width(node, w);
        let lines = if self.hscroll > 0 { whole_lines(doc, node, ctx.field_sel, scroll_w) } else { Vec::new() };
        // another node's lines may be shorter: no further than their longest end
        let from = self.hscroll.min(scroll_end(&lines, scroll_w, w));
        if from > 0 {
            draw_scrolled(buf, inner, ctx, node, &lines, (from, scroll_w));
            return;
        }
        let mut y = inner.y;
        if let Some((fnode, fi)) = ctx.field_sel.filter(|(n, _)| *n != node.id)
            && let Some(fl) = doc.node(fnode).and_then(|n| n.fields.get(fi))
        {
            let owner = doc.node(fnode).map_or("?", |n| n.key.as_str());
            let text = format!("cursor in {owner}.{} = {}", fl.name, fl.value);
            buf.set_stringn(inner.x, y, text, w, ctx.theme.dim);
            y += 1;
        }
        let below = Rect { y, height: (inner.y + inner.height).saturating_sub(y), ..inner };
        if node.fields.is_empty() {
            draw_children(buf, below, ctx, node);
        } else {
            draw_fields(buf, below, ctx, node);
        }
    }
}

/// The rows scrolled sideways `from` columns, the names (`name_w` wide) kept: every line
/// of [`whole_lines`], the selected one highlighted and kept in view.
fn draw_scrolled(
    buf: &mut Buffer,
    inner: Rect,
    ctx: &Ctx<'_>,
    node: &crate::model::Node,
    lines: &[Whole],
    (from, name_w): (usize, usize),
) {
    let w = inner.width as usize;
    let cursor_line = usize::from(ctx.field_sel.is_some_and(|(n, _)| n != node.id) && lines.len() > node.fields.len());
    let sel = ctx.field_sel.filter(|(n, _)| *n == node.id).map(|x| x.1 + cursor_line);
    let rows = usize::from(inner.height);
    let top = sel.map_or(0, |s| (s + 1).saturating_sub(rows));
    for ((i, line), y) in lines.iter().enumerate().skip(top).take(rows).zip(inner.y..) {
        let mut style = Style::new();
        if sel == Some(i) {
            style = if ctx.focus == Pane::Fields { ctx.theme.selected } else { style.add_modifier(Modifier::REVERSED) };
        }
        let part = scrolled(&line.rest, from, room_of(line, name_w, w));
        let text = match &line.name {
            Some(n) => format!("{n:<name_w$}  {part}"),
            None => part,
        };
        buf.set_stringn(inner.x, y, format!("{text:<w$}"), w, style);
    }
}

/// A node without fields of its own: its children, one a row, so the rows say something.
fn draw_children(buf: &mut Buffer, area: Rect, ctx: &Ctx<'_>, node: &crate::model::Node) {
    let doc = ctx.cur().doc();
    let (w, bottom) = (area.width as usize, area.y + area.height);
    let mut y = area.y;
    let kids = &node.children;
    let head = match kids.len() {
        0 => "no fields and no children".to_string(),
        n => format!("no fields; {n} children:"),
    };
    if y < bottom {
        buf.set_stringn(area.x, y, head, w, ctx.theme.dim);
        y += 1;
    }
    for &c in kids.iter().take(bottom.saturating_sub(y) as usize) {
        let Some(k) = doc.node(c) else { continue };
        let (key, summary) = (crate::model::sanitize(&k.key), crate::model::sanitize(&k.summary));
        let line = format!(" {key}  {}  @{}  {summary}", k.kind, k.span);
        buf.set_stringn(area.x, y, line, w, Style::new());
        y += 1;
    }
}

/// A field's value and what follows it (`  @0xOFF N B  note`).
fn value_and_tail(fl: &crate::model::Field) -> (String, String) {
    let loc = format!("@0x{:x} {} B", fl.span.start, fl.span.len());
    let note = fl.note.as_deref().map(|n| format!("  {n}")).unwrap_or_default();
    (fl.value.to_string(), format!("  {loc}{note}"))
}

/// The selected field's lines: one when it fits `w`, else its value and tail wrapped whole
/// under the value column, so long values (degrees of a turn, a reference's name) are read.
fn selected_lines(fl: &crate::model::Field, name_w: usize, w: usize) -> Vec<String> {
    let (value, tail) = value_and_tail(fl);
    if name_w + 2 + value.chars().count() + tail.chars().count() <= w {
        let vw = w.saturating_sub(name_w + 2 + tail.chars().count());
        return vec![format!("{}  {}{tail}", fit(&fl.name, name_w), fit(&value, vw.max(8)))];
    }
    let indent = (name_w + 2).min(w / 2);
    let room = w.saturating_sub(indent).max(8);
    let mut out: Vec<String> = Vec::new();
    for (k, part) in wrap_hard(&format!("{value}{tail}"), room).into_iter().enumerate() {
        let lead = if k == 0 { format!("{}  ", fit(&fl.name, name_w)) } else { " ".repeat(indent) };
        out.push(format!("{lead}{part}"));
    }
    out
}

/// A field that is not selected, on one line cut with `…`.
fn field_line(fl: &crate::model::Field, name_w: usize, w: usize) -> String {
    let (value, tail) = value_and_tail(fl);
    let (value_w, tail_w) = (value.chars().count(), tail.chars().count());
    let vw = if name_w + 2 + value_w + tail_w <= w {
        // everything fits: the offsets line up at the right edge
        w - name_w - 2 - tail_w
    } else {
        // the value (its meaning, unit conversion) before the note, which the
        // edge cuts; the offset and size kept when the value leaves room
        let loc_w = tail_w - fl.note.as_deref().map_or(0, |n| n.chars().count() + 2);
        value_w.min(w.saturating_sub(name_w + 2 + loc_w)).max(8)
    };
    format!("{}  {}{tail}", fit(&fl.name, name_w), fit(&value, vw))
}

/// The node's fields in `area`, one a row, the selected one wrapped whole and kept in view.
fn draw_fields(buf: &mut Buffer, area: Rect, ctx: &Ctx<'_>, node: &crate::model::Node) {
    let theme = ctx.theme;
    let (w, bottom) = (area.width as usize, area.y + area.height);
    let name_w = name_width(node);
    let sel = ctx.field_sel.filter(|(n, _)| *n == node.id).map(|x| x.1);
    let rows = area.height as usize;
    let sel_lines = sel.and_then(|i| node.fields.get(i)).map(|fl| selected_lines(fl, name_w, w)).unwrap_or_default();
    let extra = sel_lines.len().saturating_sub(1);
    let top = sel.map_or(0, |s| s.saturating_sub(rows.saturating_sub(1 + extra.min(rows.saturating_sub(1)))));
    let mut y = area.y;
    for (i, fl) in node.fields.iter().enumerate().skip(top) {
        if y >= bottom {
            break;
        }
        let mut style = Style::new();
        if matches!(fl.value.meaning, Some(crate::model::Meaning::Unknown)) {
            style = style.patch(theme.unknown);
        }
        if sel == Some(i) {
            style = if ctx.focus == Pane::Fields { theme.selected } else { style.add_modifier(Modifier::REVERSED) };
            for l in &sel_lines {
                if y >= bottom {
                    break;
                }
                buf.set_stringn(area.x, y, format!("{l:<w$}"), w, style);
                y += 1;
            }
            continue;
        }
        buf.set_stringn(area.x, y, field_line(fl, name_w, w), w, style);
        y += 1;
    }
}
