//! The help overlay, generated from the active keymap.

use super::action::Action;
use super::keymap::Keymap;
use super::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear};

/// The help text, generated from the keymap `km`.
pub fn lines(km: &Keymap) -> Vec<String> {
    let mut out = vec![format!("keymap: {}   (Esc or ? closes; ↑/↓ scroll)", km.sources.join(" + ")), String::new()];
    // one line per (action, description), keys joined
    let mut rows: Vec<(String, &str, &str)> = Vec::new();
    for a in Action::ALL {
        let mut groups: Vec<(Vec<String>, &str)> = Vec::new();
        for b in km.bindings.iter().filter(|b| b.action == *a) {
            match groups.iter_mut().find(|g| g.1 == b.desc) {
                Some(g) => g.0.push(b.keys_text()),
                None => groups.push((vec![b.keys_text()], b.desc.as_str())),
            }
        }
        rows.extend(groups.into_iter().map(|(k, d)| (k.join(", "), a.name(), d)));
    }
    let kw = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(4).clamp(6, 24);
    for (keys, name, desc) in rows {
        out.push(format!("{keys:<kw$}  {name:<18} {desc}"));
    }
    out
}

/// One row per bound action, in help order: the action's key sequences (as written in
/// keymap files) and the description of its first binding.
pub fn action_rows(km: &Keymap) -> Vec<(Vec<String>, &str)> {
    let mut rows = Vec::new();
    for a in Action::ALL {
        let mut bound = km.bindings.iter().filter(|b| b.action == *a).peekable();
        let Some(first) = bound.peek() else { continue };
        let desc = first.desc.as_str();
        rows.push((bound.map(|b| b.keys_text()).collect(), desc));
    }
    rows
}

/// The bindings of `km` as the README's Markdown key table (two actions per row, in help
/// order), ending with a newline. A test compares README.md's table with this one.
pub fn markdown_table(km: &Keymap) -> String {
    let esc = |t: &str| t.replace('|', "\\|");
    let cell = |keys: &[String]| keys.iter().map(|k| format!("`{}`", esc(k))).collect::<Vec<_>>().join(", ");
    let rows = action_rows(km);
    let mut out = String::from("| keys | action | keys | action |\n| --- | --- | --- | --- |\n");
    for pair in rows.chunks(2) {
        let [(k1, d1), rest @ ..] = pair else { continue };
        let (k2, d2) = rest.first().map_or((String::new(), String::new()), |(k, d)| (cell(k), esc(d)));
        out.push_str(&format!("| {} | {} | {k2} | {d2} |\n", cell(k1), esc(d1)));
    }
    out
}

/// Draw the overlay scrolled by `scroll` lines; returns the scroll used (clamped so the
/// last page stays full).
pub fn draw(km: &Keymap, theme: &Theme, scroll: usize, f: &mut Frame) -> usize {
    let area = f.area();
    let (w, h) = (area.width.saturating_sub(4).min(100), area.height.saturating_sub(2));
    let r = Rect::new(area.x + (area.width - w) / 2, area.y + 1, w, h);
    f.render_widget(Clear, r);
    let block = Block::bordered().title("Help · keys").border_style(theme.border_focus);
    let inner = block.inner(r);
    f.render_widget(block, r);
    let lines = lines(km);
    let rows = inner.height as usize;
    let max_scroll = lines.len().saturating_sub(rows);
    let scroll = scroll.min(max_scroll);
    let buf = f.buffer_mut();
    for (i, l) in lines.iter().skip(scroll).take(rows).enumerate() {
        buf.set_line(inner.x, inner.y + i as u16, &Line::from(l.as_str()), inner.width);
    }
    scroll
}
