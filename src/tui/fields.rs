//! The fields pane: the selected node's fields with their values, meanings, offsets,
//! sizes and notes, and the field under the hex cursor when it belongs to another node.

use super::action::Action;
use super::component::{Component, Ctx, Effect, Pane};
use super::layout::wrap_hard;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

/// The fields pane. It keeps no state of its own: the selected field is part of the
/// selection, which the hex cursor moves too.
#[derive(Debug, Default)]
pub struct FieldsPane;

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
        let Some(node) = ctx.ws.docs.get(d).and_then(|e| e.doc().node(n)) else { return Vec::new() };
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
        let theme = ctx.theme;
        let Some(node) = doc.node(ctx.sel.1) else { return };
        let title = format!("Fields · {} {} @{}", node.kind, node.key, node.span);
        let Some(inner) = ctx.framed(f, area, Pane::Fields, title) else { return };
        let buf = f.buffer_mut();
        let w = inner.width as usize;
        let mut y = inner.y;
        let bottom = inner.y + inner.height;
        if let Some((fnode, fi)) = ctx.field_sel.filter(|(n, _)| *n != node.id)
            && let Some(fl) = doc.node(fnode).and_then(|n| n.fields.get(fi))
        {
            let owner = doc.node(fnode).map_or("?", |n| n.key.as_str());
            let text = format!("cursor in {owner}.{} = {}", fl.name, fl.value);
            buf.set_stringn(inner.x, y, text, w, theme.dim);
            y += 1;
        }
        if node.fields.is_empty() {
            // no fields of its own: its children, so the rows say something
            let kids = &node.children;
            let head = match kids.len() {
                0 => "no fields and no children".to_string(),
                n => format!("no fields; {n} children:"),
            };
            if y < bottom {
                buf.set_stringn(inner.x, y, head, w, theme.dim);
                y += 1;
            }
            for &c in kids.iter().take(bottom.saturating_sub(y) as usize) {
                let Some(k) = doc.node(c) else { continue };
                let (key, summary) = (crate::model::sanitize(&k.key), crate::model::sanitize(&k.summary));
                let line = format!(" {key}  {}  @{}  {summary}", k.kind, k.span);
                buf.set_stringn(inner.x, y, line, w, Style::new());
                y += 1;
            }
            return;
        }
        let name_w = node.fields.iter().map(|f| f.name.chars().count()).max().unwrap_or(4).clamp(4, 18);
        let sel = ctx.field_sel.filter(|(n, _)| *n == node.id).map(|x| x.1);
        let rows = bottom.saturating_sub(y) as usize;
        // every field on one line, cut with '…'; the selected one wrapped whole under its
        // value column, so long values (degrees of a turn, a reference's name) are read
        let line_of = |fl: &crate::model::Field| {
            let loc = format!("@0x{:x} {} B", fl.span.start, fl.span.len());
            let note = fl.note.as_deref().map(|n| format!("  {n}")).unwrap_or_default();
            (fl.value.to_string(), format!("  {loc}{note}"))
        };
        let sel_lines: Vec<String> = sel
            .and_then(|i| node.fields.get(i))
            .map(|fl| {
                let (value, tail) = line_of(fl);
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
            })
            .unwrap_or_default();
        let extra = sel_lines.len().saturating_sub(1);
        let top = sel.map_or(0, |s| s.saturating_sub(rows.saturating_sub(1 + extra.min(rows.saturating_sub(1)))));
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
                    buf.set_stringn(inner.x, y, format!("{l:<w$}"), w, style);
                    y += 1;
                }
                continue;
            }
            let (value, tail) = line_of(fl);
            let vw = w.saturating_sub(name_w + 2 + tail.chars().count());
            let line = format!("{}  {}{tail}", fit(&fl.name, name_w), fit(&value, vw.max(8)));
            buf.set_stringn(inner.x, y, line, w, style);
            y += 1;
        }
    }
}
