//! Where the panes go, and what a drawn frame reports back ([`ScreenLayout`]).

use super::component::Pane;
use super::decode::DecodeGeometry;
use super::diagnostics::DiagnosticsGeometry;
use super::hex::HexGeometry;
use super::tree::TreeGeometry;
use ratatui::layout::{Constraint, Layout, Rect};

/// What one frame drew where: the panes' rectangles and the geometry each pane reported.
/// The app keeps the last one for the mouse and for paging.
#[derive(Debug, Default)]
pub struct ScreenLayout {
    /// Pane rectangles, in drawing order.
    pub panes: Vec<(Pane, Rect)>,
    /// The tree's rows, if it was drawn.
    pub tree: Option<TreeGeometry>,
    /// The hex rows, if they were drawn.
    pub hex: Option<HexGeometry>,
    /// The decode pane's channel list and frame cursor, if a clip was drawn.
    pub decode: Option<DecodeGeometry>,
    /// The diagnostics cursor, if entries were drawn.
    pub diagnostics: Option<DiagnosticsGeometry>,
    /// The help overlay's scroll, if it was drawn.
    pub help_scroll: Option<usize>,
    /// The message log's scroll, if it was drawn.
    pub log_scroll: Option<usize>,
}

/// Where each visible pane goes, and the status line. Adapts from 80×24 (tree, hex and
/// one toggled lower pane) to wide terminals (everything at once).
pub fn panes(area: Rect, zoom: bool, focus: Pane, lower: Pane) -> (Vec<(Pane, Rect)>, Rect) {
    let [main, status] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let (w, h) = (main.width, main.height);
    if zoom || w < 60 || h < 12 {
        return (vec![(focus, main)], status);
    }
    let bottom_pane = if matches!(lower, Pane::Walk | Pane::Diagnostics) { lower } else { Pane::Walk };
    // the decode pane focused: it takes rows from the hex and bottom panes and width from
    // the fields, so its channel list sits beside the plot with the pane's full height
    let decode_focus = focus == Pane::Decode;
    // (sizes are the terminal's: the status line is one of its rows)
    if w >= 160 && area.height >= 40 {
        let tree_w = (w / 5).clamp(28, 48);
        let [tree, hex, right] =
            Layout::horizontal([Constraint::Length(tree_w), Constraint::Length(80), Constraint::Min(30)]).areas(main);
        let rows = if decode_focus {
            [Constraint::Percentage(20), Constraint::Min(10), Constraint::Length(6)]
        } else {
            [Constraint::Percentage(35), Constraint::Percentage(40), Constraint::Min(6)]
        };
        let [fields, decode, bottom] = Layout::vertical(rows).areas(right);
        return (every_pane([tree, hex, fields, decode, bottom], bottom_pane), status);
    }
    if w >= 100 && area.height >= 30 {
        let [tree, right] = Layout::horizontal([Constraint::Length(30), Constraint::Min(40)]).areas(main);
        let (rows, fields_w) = if decode_focus {
            ([Constraint::Percentage(25), Constraint::Min(10), Constraint::Length(5)], 30)
        } else {
            ([Constraint::Percentage(45), Constraint::Percentage(35), Constraint::Min(5)], 45)
        };
        let [hex, mid, bottom] = Layout::vertical(rows).areas(right);
        let [fields, decode] = Layout::horizontal([Constraint::Percentage(fields_w), Constraint::Min(30)]).areas(mid);
        return (every_pane([tree, hex, fields, decode, bottom], bottom_pane), status);
    }
    if lower == Pane::Decode && h >= 18 {
        // a clip at 80×24: the decode pane takes the full width and most rows; tree and hex
        // share the top (the tree narrower)
        let tree_w = (w / 4).clamp(18, 30);
        let [top, decode] = Layout::vertical([Constraint::Percentage(40), Constraint::Min(8)]).areas(main);
        let [tree, hex] = Layout::horizontal([Constraint::Length(tree_w), Constraint::Min(30)]).areas(top);
        return (vec![(Pane::Tree, tree), (Pane::Hex, hex), (Pane::Decode, decode)], status);
    }
    let tree_w = (w * 3 / 10).clamp(20, 30);
    let [tree, right] = Layout::horizontal([Constraint::Length(tree_w), Constraint::Min(30)]).areas(main);
    let [hex, lower_area] = Layout::vertical([Constraint::Percentage(55), Constraint::Min(4)]).areas(right);
    (vec![(Pane::Tree, tree), (Pane::Hex, hex), (lower, lower_area)], status)
}

/// The wide layouts: tree, hex, fields and decode, and the walk or diagnostics at the bottom.
fn every_pane([tree, hex, fields, decode, bottom]: [Rect; 5], bottom_pane: Pane) -> Vec<(Pane, Rect)> {
    vec![(Pane::Tree, tree), (Pane::Hex, hex), (Pane::Fields, fields), (Pane::Decode, decode), (bottom_pane, bottom)]
}

/// Word-wrap `s` to lines of at most `w` columns (long words stay whole).
pub fn wrap(s: &str, w: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in s.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > w {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Word-wrap `s` to lines of at most `w` columns, breaking words longer than a line (a
/// long path or name is split rather than cut). Widths count characters.
pub fn wrap_hard(s: &str, w: usize) -> Vec<String> {
    let w = w.max(1);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_len = 0usize;
    for word in s.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        if cur_len > 0 && cur_len + 1 + word.len() > w {
            out.push(std::mem::take(&mut cur));
            cur_len = 0;
        }
        if cur_len > 0 {
            cur.push(' ');
            cur_len += 1;
        }
        while cur_len + word.len() > w {
            let take = w - cur_len;
            cur.extend(word.drain(..take));
            out.push(std::mem::take(&mut cur));
            cur_len = 0;
        }
        cur_len += word.len();
        cur.extend(word);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_wrap_splits_long_words_and_keeps_every_character() {
        assert_eq!(wrap_hard("ab cd ef", 5), vec!["ab cd", "ef"]);
        assert_eq!(wrap_hard("abcdefghij k", 4), vec!["abcd", "efgh", "ij k"]);
        assert_eq!(wrap_hard("", 4), Vec::<String>::new());
        assert_eq!(wrap_hard("x abcdef", 3), vec!["x", "abc", "def"]);
    }
}
