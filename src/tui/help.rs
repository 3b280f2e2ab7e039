//! The help overlay, generated from the active keymap.

use super::action::Action;
use super::keymap::Keymap;
use super::layout::wrap_hard;
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

/// The help text wrapped to `w` columns: a line too long goes on under its description
/// (indented to where descriptions start, or by four columns when that is most of the
/// width), so every word of every line is shown.
pub fn wrapped(km: &Keymap, w: usize) -> Vec<String> {
    let lines = lines(km);
    // descriptions start after the keys column, two spaces, the 18-column name and a space
    let kw = lines.iter().skip(2).map(|l| l.find("  ").unwrap_or(0)).max().unwrap_or(6);
    let indent = if kw + 21 <= w / 2 { kw + 21 } else { 4 };
    let mut out = Vec::new();
    for l in lines {
        if l.chars().count() <= w {
            out.push(l);
            continue;
        }
        let (head, rest) = if l.chars().count() > indent && indent > 4 {
            let cut = l.char_indices().nth(indent).map_or(l.len(), |x| x.0);
            (l[..cut].to_string(), l[cut..].to_string())
        } else {
            (String::new(), l.clone())
        };
        let room = w.saturating_sub(if head.is_empty() { 0 } else { indent }).max(8);
        for (i, part) in wrap_hard(&rest, room).into_iter().enumerate() {
            match i {
                0 if head.is_empty() => out.push(part),
                0 => out.push(format!("{head}{part}")),
                _ => out.push(format!("{}{part}", " ".repeat(indent.min(w.saturating_sub(8))))),
            }
        }
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
    let lines = wrapped(km, usize::from(inner.width));
    let rows = inner.height as usize;
    let max_scroll = lines.len().saturating_sub(rows);
    let scroll = scroll.min(max_scroll);
    let buf = f.buffer_mut();
    for (i, l) in lines.iter().skip(scroll).take(rows).enumerate() {
        buf.set_line(inner.x, inner.y + i as u16, &Line::from(l.as_str()), inner.width);
    }
    scroll
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At 80 columns (74 inside the overlay) every word of every help line is shown.
    #[test]
    fn wrapped_help_keeps_every_word() {
        let km = Keymap::shipped("default").unwrap();
        for w in [40, 74, 100] {
            let full = lines(&km);
            let shown = wrapped(&km, w);
            assert!(shown.iter().all(|l| l.chars().count() <= w), "{w}: {shown:?}");
            let words = |v: &[String]| v.join(" ").split_whitespace().map(str::to_string).collect::<Vec<_>>();
            assert_eq!(words(&shown), words(&full), "width {w}");
        }
        let at74 = wrapped(&km, 74).join("\n");
        let i = at74.find("(xxd -i").expect("the copy_c line");
        assert!(at74[i..].lines().nth(1).is_some_and(|l| l.trim() == "style)"), "{at74}");
    }
}
