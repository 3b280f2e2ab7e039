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
    /// The whole screen's size.
    pub area: Rect,
}

/// What the user changed of the default pane sizes ([`panes_sized`]): columns added to the
/// side pane (the tree), rows added to the lower pane (walk, diagnostics, or the decode
/// pane at 80×24); negative values take away. Kept per terminal size by the app.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PaneSizes {
    /// Columns added to the side pane.
    pub side: i16,
    /// Rows added to the lower pane.
    pub lower: i16,
}

impl PaneSizes {
    /// `sizes` cut to what the layout of `area` can give: the change the panes drawn with
    /// them actually show (pressing past a limit does not pile up).
    pub fn clamped(sizes: PaneSizes, area: Rect, zoom: bool, focus: Pane, lower: Pane) -> PaneSizes {
        let measure = |s: PaneSizes| {
            let (panes, _) = panes_sized(area, zoom, focus, lower, s);
            let side = panes.iter().find(|(p, _)| *p == Pane::Tree).map_or(0, |(_, r)| i32::from(r.width));
            let low = panes.iter().max_by_key(|(_, r)| r.y).map_or(0, |(_, r)| i32::from(r.height));
            (side, low)
        };
        let (s0, l0) = measure(PaneSizes::default());
        let (s1, l1) = measure(sizes);
        let cut = |v: i32| i16::try_from(v).unwrap_or(0);
        PaneSizes { side: cut(s1 - s0), lower: cut(l1 - l0) }
    }
}

/// `base` changed by `by`, kept within `lo..=hi` (`hi` wins when the range is empty).
fn sized(base: u16, by: i16, lo: u16, hi: u16) -> u16 {
    let v = i32::from(base) + i32::from(by);
    let v = v.max(i32::from(lo)).min(i32::from(hi));
    u16::try_from(v.max(0)).unwrap_or(base)
}

/// Rows for three panes stacked in `area`: `default` when `by` is 0, else the bottom pane
/// `by` rows taller than `default` makes it (kept within `lo..=hi`), the two above sharing
/// the rest as `default` shares it.
fn grown(default: [Constraint; 3], area: Rect, by: i16, lo: u16, hi: u16) -> [Constraint; 3] {
    if by == 0 {
        return default;
    }
    let [a, b, bottom] = Layout::vertical(default).areas(area);
    let h = sized(bottom.height, by, lo, hi);
    [Constraint::Fill(a.height.max(1)), Constraint::Fill(b.height.max(1)), Constraint::Length(h)]
}

/// `p` percent of `n`, rounded as a layout rounds a percentage.
fn percent(n: u16, p: u16) -> u16 {
    u16::try_from((u32::from(n) * u32::from(p) + 50) / 100).unwrap_or(n)
}

/// [`panes_sized`] with the default sizes.
pub fn panes(area: Rect, zoom: bool, focus: Pane, lower: Pane) -> (Vec<(Pane, Rect)>, Rect) {
    panes_sized(area, zoom, focus, lower, PaneSizes::default())
}

/// Where each visible pane goes, and the status line. Adapts from 80×24 (tree, hex and
/// one toggled lower pane) to wide terminals (everything at once). The side pane's width
/// is proportional to the terminal's (wider terminals give the tree more), and `sizes`
/// changes it and the lower pane's height.
pub fn panes_sized(area: Rect, zoom: bool, focus: Pane, lower: Pane, sizes: PaneSizes) -> (Vec<(Pane, Rect)>, Rect) {
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
        // the hex pane keeps its 80 columns and the right column at least 48: the tree gets
        // two fifths of what the hex pane leaves (32 columns at 160, 48 at 200, 64 at 240)
        let tree_w = sized(((w - 80) * 2 / 5).clamp(28, w - 128), sizes.side, 16, w - 110);
        let [tree, hex, right] =
            Layout::horizontal([Constraint::Length(tree_w), Constraint::Length(80), Constraint::Min(30)]).areas(main);
        let rows = if decode_focus {
            let bottom_h = sized(6, sizes.lower, 3, h.saturating_sub(16));
            [Constraint::Percentage(20), Constraint::Min(10), Constraint::Length(bottom_h)]
        } else {
            let default = [Constraint::Percentage(35), Constraint::Percentage(40), Constraint::Min(6)];
            grown(default, right, sizes.lower, 3, h.saturating_sub(12))
        };
        let [fields, decode, bottom] = Layout::vertical(rows).areas(right);
        return (every_pane([tree, hex, fields, decode, bottom], bottom_pane), status);
    }
    if w >= 100 && area.height >= 30 {
        // the hex pane and the fields need the rest below 160 columns
        let tree_w = sized(30, sizes.side, 12, w - 60);
        let [tree, right] = Layout::horizontal([Constraint::Length(tree_w), Constraint::Min(40)]).areas(main);
        if decode_focus {
            let bottom_h = sized(5, sizes.lower, 3, h.saturating_sub(14));
            // the decode pane takes the right column's full width (its channel list beside
            // the plot), hex and fields share a short row above it
            let rows = [Constraint::Percentage(25), Constraint::Min(10), Constraint::Length(bottom_h)];
            let [top, decode, bottom] = Layout::vertical(rows).areas(right);
            let [hex, fields] = Layout::horizontal([Constraint::Percentage(60), Constraint::Min(10)]).areas(top);
            return (every_pane([tree, hex, fields, decode, bottom], bottom_pane), status);
        }
        let default = [Constraint::Percentage(45), Constraint::Percentage(35), Constraint::Min(5)];
        let rows = grown(default, right, sizes.lower, 3, h.saturating_sub(14));
        let [hex, mid, bottom] = Layout::vertical(rows).areas(right);
        let [fields, decode] = Layout::horizontal([Constraint::Percentage(45), Constraint::Min(30)]).areas(mid);
        return (every_pane([tree, hex, fields, decode, bottom], bottom_pane), status);
    }
    if lower == Pane::Decode && h >= 18 {
        // a clip at 80×24: the decode pane takes the full width and most rows; tree and hex
        // share the top (the tree narrower)
        let tree_w = sized((w / 4).clamp(18, 30), sizes.side, 12, w - 30);
        let decode_h = sized(h - percent(h, 40), sizes.lower, 8, h - 4);
        let rows = if sizes.lower == 0 {
            [Constraint::Percentage(40), Constraint::Min(8)]
        } else {
            [Constraint::Min(4), Constraint::Length(decode_h)]
        };
        let [top, decode] = Layout::vertical(rows).areas(main);
        let [tree, hex] = Layout::horizontal([Constraint::Length(tree_w), Constraint::Min(30)]).areas(top);
        return (vec![(Pane::Tree, tree), (Pane::Hex, hex), (Pane::Decode, decode)], status);
    }
    let tree_w = sized((w * 3 / 10).clamp(20, 30), sizes.side, 12, w - 30);
    let [tree, right] = Layout::horizontal([Constraint::Length(tree_w), Constraint::Min(30)]).areas(main);
    let lower_h = sized(h - percent(h, 55), sizes.lower, 4, h - 4);
    let rows = if sizes.lower == 0 {
        [Constraint::Percentage(55), Constraint::Min(4)]
    } else {
        [Constraint::Min(4), Constraint::Length(lower_h)]
    };
    let [hex, lower_area] = Layout::vertical(rows).areas(right);
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
