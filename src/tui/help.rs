//! The help overlay, generated from the active keymap.

use super::action::Action;
use super::component::Pane;
use super::keymap::Keymap;
use super::layout::wrap_hard;
use super::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear};

/// What help shows: the pane whose section comes first, and the typed filter.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    /// The pane whose keys come first (the focused one when help was opened).
    pub section: Pane,
    /// Only lines containing this (any case) are shown; empty: all.
    pub filter: &'a str,
}

impl Default for View<'_> {
    fn default() -> Self {
        View { section: Pane::Tree, filter: "" }
    }
}

/// The sections of help, in their order when no pane comes first.
const SECTIONS: [&str; 8] = [
    "tree and finding",
    "moves (in the focused pane)",
    "hex and fields",
    "decode",
    "pose view",
    "walk",
    "diagnostics and bookmarks",
    "everywhere",
];

/// The section of `pane`'s own keys.
fn section_of_pane(pane: Pane) -> &'static str {
    match pane {
        Pane::Tree => "tree and finding",
        Pane::Hex | Pane::Fields => "hex and fields",
        Pane::Decode => "decode",
        Pane::Walk => "walk",
        Pane::Diagnostics => "diagnostics and bookmarks",
    }
}

/// The section an action's keys are listed in.
fn section_of(a: Action) -> &'static str {
    use Action as A;
    match a {
        A::Goto | A::Find => "tree and finding",
        A::Up | A::Down | A::Left | A::Right | A::PageUp | A::PageDown | A::Home | A::End | A::Activate => {
            "moves (in the focused pane)"
        }
        A::NextField
        | A::PrevField
        | A::NextNode
        | A::PrevNode
        | A::Search
        | A::SearchNext
        | A::SearchPrev
        | A::ToggleZeros
        | A::ToggleEndian
        | A::SelectLeft
        | A::SelectRight
        | A::SelectUp
        | A::SelectDown
        | A::CopyHex
        | A::CopyC
        | A::CopyBase64
        | A::Follow
        | A::LayoutAddField
        | A::LayoutSave
        | A::EditValue
        | A::EditUndo
        | A::EditWrite => "hex and fields",
        A::FrameNext
        | A::FramePrev
        | A::GotoFrame
        | A::Toggle
        | A::ToggleTables
        | A::ToggleNormalize
        | A::ChannelFilter
        | A::ChannelsAll
        | A::ChannelsAnimated
        | A::TogglePose
        | A::Export => "decode",
        A::PlayPause
        | A::OrbitLeft
        | A::OrbitRight
        | A::TiltUp
        | A::TiltDown
        | A::ZoomIn
        | A::ZoomOut
        | A::PanLeft
        | A::PanRight
        | A::PanUp
        | A::PanDown
        | A::NextView
        | A::FitAll => "pose view",
        A::WalkMode | A::WalkNext | A::WalkPrev => "walk",
        A::Bookmark | A::BookmarkNamed | A::NextBookmark => "diagnostics and bookmarks",
        _ => "everywhere",
    }
}

/// The help text, generated from the keymap `km`: every section, in their usual order.
pub fn lines(km: &Keymap) -> Vec<String> {
    lines_for(km, &View::default())
}

/// The help text for `view`: the section of its pane first (the moves every pane shares
/// after it), then the others; with a filter, only the lines containing it (any case),
/// under their sections' titles.
pub fn lines_for(km: &Keymap, view: &View<'_>) -> Vec<String> {
    let first = section_of_pane(view.section);
    let filter = view.filter.trim().to_lowercase();
    let head = if filter.is_empty() {
        format!("keymap: {}   (type to filter; Esc or ? closes; ↑/↓ scroll)", km.sources.join(" + "))
    } else {
        format!("filter: {}   (backspace takes a letter off; Esc or ? closes)", crate::model::sanitize(view.filter))
    };
    let mut out = vec![head, String::new()];
    // one line per (action, description), keys joined
    let mut rows: Vec<(String, &str, &str, &str)> = Vec::new();
    for a in Action::ALL {
        let mut groups: Vec<(Vec<String>, &str)> = Vec::new();
        for b in km.bindings.iter().filter(|b| b.action == *a) {
            match groups.iter_mut().find(|g| g.1 == b.desc) {
                Some(g) => g.0.push(b.keys_text()),
                None => groups.push((vec![b.keys_text()], b.desc.as_str())),
            }
        }
        rows.extend(groups.into_iter().map(|(k, d)| (k.join(", "), a.name(), d, section_of(*a))));
    }
    let kw = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(4).clamp(6, 24);
    // the focused pane's own keys, then the moves (which act in it), then the rest
    const MOVES: &str = "moves (in the focused pane)";
    let mut order: Vec<&str> = vec![first, MOVES];
    order.extend(SECTIONS.iter().copied().filter(|s| *s != first && *s != MOVES));
    let mut shown = 0usize;
    for section in order {
        let lines: Vec<String> = rows
            .iter()
            .filter(|r| r.3 == section)
            .map(|(keys, name, desc, _)| format!("{keys:<kw$}  {name:<18} {desc}"))
            .filter(|l| filter.is_empty() || l.to_lowercase().contains(&filter))
            .collect();
        if lines.is_empty() {
            continue;
        }
        if shown > 0 {
            out.push(String::new());
        }
        let mark = if section == first { " (the focused pane)" } else { "" };
        out.push(format!("── {section}{mark}"));
        shown += lines.len();
        out.extend(lines);
    }
    if shown == 0 {
        out.push(format!("no key matches \"{}\"", crate::model::sanitize(view.filter)));
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
    wrapped_for(km, &View::default(), w)
}

/// [`wrapped`] of the help for `view`.
pub fn wrapped_for(km: &Keymap, view: &View<'_>, w: usize) -> Vec<String> {
    let lines = lines_for(km, view);
    // descriptions start after the keys column, two spaces, the 18-column name and a space
    let kw =
        lines.iter().skip(2).filter(|l| !l.starts_with("── ")).map(|l| l.find("  ").unwrap_or(0)).max().unwrap_or(6);
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
pub fn draw(km: &Keymap, theme: &Theme, scroll: usize, view: &View<'_>, f: &mut Frame) -> usize {
    let area = f.area();
    let (w, h) = (area.width.saturating_sub(4).min(100), area.height.saturating_sub(2));
    let r = Rect::new(area.x + (area.width - w) / 2, area.y + 1, w, h);
    f.render_widget(Clear, r);
    let block = Block::bordered().title("Help · keys").border_style(theme.border_focus);
    let inner = block.inner(r);
    f.render_widget(block, r);
    let lines = wrapped_for(km, view, usize::from(inner.width));
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
