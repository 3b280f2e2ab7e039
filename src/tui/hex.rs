//! The hex pane: a custom widget writing straight to the buffer. Offset column, hex bytes
//! coloured by hexyl's byte categories under highlights (selected field, its node, the
//! node's parent, walk step, search match), ASCII column (hexyl's glyphs, in the
//! highlights' colours only: fewer colour changes over SSH), unparsed gaps dimmed, optional
//! collapsing of zero rows, and a data inspector at the cursor. The pane also owns the
//! byte search (with its match count), the shift-selected byte range and copying the
//! selected bytes.

use super::action::Action;
use super::component::{Component, Ctx, Effect, Level, Pane};
use super::search::Needle;
use super::theme::{ByteClass, Theme};
use super::workspace::DocEntry;
use super::{clipboard, search};
use crate::model::{Meaning, Span};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use std::collections::HashMap;

/// Modifiers a space shows (through its foreground colour or as reversed colours).
const SHOWN_ON_SPACE: Modifier = Modifier::UNDERLINED.union(Modifier::REVERSED).union(Modifier::CROSSED_OUT);
/// Modifiers a space does not show.
const HIDDEN_ON_SPACE: Modifier = Modifier::BOLD.union(Modifier::DIM).union(Modifier::ITALIC);

/// Bytes read past the rows shown, so a run of zero rows can collapse into one line.
const ZERO_LOOKAHEAD: u64 = 256 << 10;

/// Say in the pane that the file changed on disk and its bytes are not shown.
fn changed_on_disk(buf: &mut Buffer, inner: Rect, theme: &Theme) {
    buf.set_stringn(inner.x, inner.y, "file changed on disk: bytes not shown", inner.width as usize, theme.error);
    buf.set_stringn(
        inner.x,
        inner.y + 1,
        "the tree, fields and walk are still usable; reopen the file to see its bytes",
        inner.width as usize,
        theme.dim,
    );
}

/// Row geometry for a given inner width: (bytes per row, offset digits).
pub fn geometry(width: u16, len: u64) -> (u64, usize) {
    let digits = (format!("{:x}", len.saturating_sub(1)).len()).max(8);
    for bpr in [16u64, 8, 4] {
        let w = digits as u64 + 1 + bpr * 3 + u64::from(bpr >= 16) + 2 + bpr;
        if w <= u64::from(width) {
            return (bpr, digits);
        }
    }
    (4, digits)
}

/// The hex pane: display toggles, the last search, and each document's scroll.
#[derive(Debug)]
pub struct HexPane {
    /// Collapse runs of zero rows.
    pub collapse_zeros: bool,
    /// The inspector shows big endian first.
    pub big_endian: bool,
    /// Last search: needle and how to show it.
    pub search: Option<Needle>,
    /// Last match (document, span).
    pub matched: Option<(usize, Span)>,
    /// Bytes per row and visible rows at the last draw (for paging).
    pub geom: (u64, u64),
    /// First row shown (row index, not offset) by document.
    top_rows: HashMap<usize, u64>,
    /// Where a shift-selection started (document, offset); the range runs to the cursor.
    pub anchor: Option<(usize, u64)>,
    /// The matches of the last search in a document (document, needle, offsets, more).
    counted: Option<(usize, Needle, Vec<u64>, bool)>,
}

impl Default for HexPane {
    fn default() -> Self {
        HexPane {
            collapse_zeros: false,
            big_endian: false,
            search: None,
            matched: None,
            geom: (16, 16),
            top_rows: HashMap::new(),
            anchor: None,
            counted: None,
        }
    }
}

/// The hex rows a frame drew: the scroll it settled on to keep the cursor in view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexGeometry {
    /// The document shown.
    pub doc: usize,
    /// Its first row shown.
    pub top_row: u64,
    /// Bytes per row.
    pub bytes_per_row: u64,
    /// Rows of bytes shown.
    pub rows: u64,
}

impl HexPane {
    /// First hex row shown of document `d` (row index, not offset).
    pub fn top_row(&self, d: usize) -> u64 {
        self.top_rows.get(&d).copied().unwrap_or(0)
    }

    /// Scroll document `d` (of `len` bytes) so `offset`'s row is a quarter from the top
    /// (rows and bytes per row as at the last draw), even when it is in view or one row past
    /// an edge: a walk step's chunk then shows with its body below it, not on the last row.
    /// Near the end of the file the last row stays at the bottom instead of leaving the
    /// pane half empty.
    pub fn place_near_top(&mut self, d: usize, offset: u64, len: u64) {
        let (bpr, rows) = (self.geom.0.max(1), self.geom.1.max(1));
        let quarter = (offset / bpr).saturating_sub(rows / 4);
        let last_screen = len.div_ceil(bpr).saturating_sub(rows);
        self.top_rows.insert(d, quarter.min(last_screen));
    }

    /// Search the selected document's bytes for the last needle from the cursor (or the
    /// byte after it).
    pub fn find(&mut self, forward: bool, from_next: bool, ctx: &Ctx<'_>) -> Vec<Effect> {
        let Some(needle) = self.search.clone() else {
            return vec![Effect::Message(Level::Info, "no search yet (/ starts one)".into())];
        };
        let d = ctx.sel.0;
        let Some(bytes) = ctx.ws.bytes(d) else {
            return vec![Effect::Message(Level::Error, "file changed on disk: not searched".into())];
        };
        let cur = ctx.cur().cursor;
        let start = if from_next { cur.saturating_add(1) } else { cur };
        match search::find_needle(bytes, &needle, start, forward) {
            Some((off, wrapped)) => {
                self.matched = Some((d, Span::at(off, needle.bytes.len() as u64)));
                let w = if wrapped { " (wrapped)" } else { "" };
                // counted once per search and document; each step looks its match up
                if self.counted.as_ref().is_none_or(|c| c.0 != d || c.1 != needle) {
                    let (all, more) = search::all_matches(bytes, &needle);
                    self.counted = Some((d, needle.clone(), all, more));
                }
                let count = self.counted.as_ref().map_or(String::new(), |(_, _, all, more)| {
                    let i = all.partition_point(|&o| o < off) + 1;
                    let plus = if *more { "+" } else { "" };
                    if *more && i > all.len() {
                        format!(": match {}+/{}+", all.len(), all.len())
                    } else {
                        format!(": match {i}/{}{plus}", all.len())
                    }
                });
                vec![
                    Effect::Cursor(off),
                    Effect::Message(Level::Info, format!("{} at 0x{off:x}{count}{w}", needle.text)),
                ]
            }
            None => {
                self.matched = None;
                vec![Effect::Message(Level::Error, format!("{} not found", needle.text))]
            }
        }
    }

    /// The shift-selected bytes of document `d` (anchor to cursor, both included).
    pub fn range(&self, d: usize, cursor: u64) -> Option<Span> {
        let (ad, a) = self.anchor.filter(|(ad, _)| *ad == d)?;
        let _ = ad;
        Some(Span::new(a.min(cursor), a.max(cursor).saturating_add(1)))
    }

    /// What a copy or a raw export takes: the shift-selected range, else the selected
    /// field, else the selected node; with a name for it (`clip_0_data`, `bytes_0x10`).
    pub fn selected_bytes(&self, ctx: &Ctx<'_>) -> (Span, String) {
        let (d, n) = ctx.sel;
        let doc = ctx.cur().doc();
        if let Some(r) = self.range(d, ctx.cur().cursor) {
            return (r, format!("bytes_0x{:x}", r.start));
        }
        let node_key = doc.node(n).map_or("bytes", |x| super::find::name_of(&x.key));
        match ctx.field_sel.and_then(|(fnode, i)| Some((doc.node(fnode)?, i))) {
            Some((fnode, i)) if fnode.fields.get(i).is_some() => {
                let f = fnode.fields.get(i).map(|f| (f.span, f.name.clone())).unwrap_or_default();
                (f.0, format!("{}_{}", super::find::name_of(&fnode.key), f.1))
            }
            _ => (doc.node(n).map(|x| x.span).unwrap_or_default(), node_key.to_string()),
        }
    }

    /// Copy the shift-selected bytes (else the selected field's, else the selected node's)
    /// to the terminal's clipboard.
    fn copy(&self, ctx: &Ctx<'_>, how: clipboard::As) -> Vec<Effect> {
        let d = ctx.sel.0;
        let (span, name) = self.selected_bytes(ctx);
        let Some(bytes) = ctx.ws.bytes(d) else {
            return vec![Effect::Message(Level::Error, "file changed on disk: nothing copied".into())];
        };
        let end = span.end.min(span.start.saturating_add(clipboard::MAX_COPY));
        let slice = bytes.get(span.start as usize..end as usize).unwrap_or(&[]).to_vec();
        let text = match how {
            clipboard::As::CArray => clipboard::c_array(&name, &slice),
            _ => clipboard::format(&slice, how),
        };
        let cut = if end < span.end { " (truncated)" } else { "" };
        vec![
            Effect::Osc(clipboard::osc52(&text)),
            Effect::Message(
                Level::Info,
                clipboard::Reach::from_env().sent(&format!(
                    "{} bytes at 0x{:x} as {how}{cut}",
                    slice.len(),
                    span.start
                )),
            ),
        ]
    }

    /// To the next or previous start of a field (or of a node).
    fn jump_start(ctx: &Ctx<'_>, forward: bool, nodes: bool) -> Vec<Effect> {
        let e = ctx.cur();
        let starts = if nodes { &e.node_starts } else { &e.field_starts };
        let cur = e.cursor;
        let target = if forward {
            starts.get(starts.partition_point(|&s| s <= cur)).copied()
        } else {
            let i = starts.partition_point(|&s| s < cur);
            i.checked_sub(1).and_then(|i| starts.get(i)).copied()
        };
        match target {
            Some(t) => vec![Effect::Cursor(t)],
            None => {
                let what = if nodes { "node" } else { "field" };
                let dir = if forward { "after" } else { "before" };
                vec![Effect::Message(Level::Info, format!("no {what} starts {dir} 0x{cur:x}"))]
            }
        }
    }
}

impl Component for HexPane {
    type Geometry = Option<HexGeometry>;

    fn handle(&mut self, a: Action, ctx: &Ctx<'_>) -> Vec<Effect> {
        let (bpr, rows) = self.geom;
        let cur = ctx.cur().cursor;
        let len = ctx.cur().doc().len;
        // a plain move ends a shift-selection; a shift move starts or extends one
        let select = matches!(a, Action::SelectLeft | Action::SelectRight | Action::SelectUp | Action::SelectDown);
        if select {
            if self.anchor.is_none_or(|(d, _)| d != ctx.sel.0) {
                self.anchor = Some((ctx.sel.0, cur));
            }
        } else if matches!(
            a,
            Action::Left
                | Action::Right
                | Action::Up
                | Action::Down
                | Action::PageUp
                | Action::PageDown
                | Action::Home
                | Action::End
        ) {
            self.anchor = None;
        }
        let next = match a {
            Action::SelectLeft => cur.saturating_sub(1),
            Action::SelectRight => cur.saturating_add(1).min(len.saturating_sub(1)),
            Action::SelectUp => cur.saturating_sub(bpr),
            Action::SelectDown => cur.saturating_add(bpr).min(len.saturating_sub(1)),
            Action::Left => cur.saturating_sub(1),
            Action::Right => cur.saturating_add(1),
            Action::Up => cur.saturating_sub(bpr),
            Action::Down if cur.saturating_add(bpr) < len => cur + bpr,
            Action::Down => cur,
            Action::PageUp => cur.saturating_sub(bpr * rows.max(1)),
            Action::PageDown => cur.saturating_add(bpr * rows.max(1)).min(len.saturating_sub(1)),
            Action::Home => 0,
            Action::End => len.saturating_sub(1),
            Action::NextField => return Self::jump_start(ctx, true, false),
            Action::PrevField => return Self::jump_start(ctx, false, false),
            Action::NextNode => return Self::jump_start(ctx, true, true),
            Action::PrevNode => return Self::jump_start(ctx, false, true),
            Action::SearchNext => return self.find(true, true, ctx),
            Action::SearchPrev => return self.find(false, true, ctx),
            Action::CopyHex => return self.copy(ctx, clipboard::As::Hex),
            Action::CopyC => return self.copy(ctx, clipboard::As::CArray),
            Action::CopyBase64 => return self.copy(ctx, clipboard::As::Base64),
            Action::ToggleZeros => {
                self.collapse_zeros = !self.collapse_zeros;
                return Vec::new();
            }
            Action::ToggleEndian => {
                self.big_endian = !self.big_endian;
                return Vec::new();
            }
            _ => return Vec::new(),
        };
        if select && let Some(r) = self.range(ctx.sel.0, next) {
            let msg = format!("selected 0x{:x}..0x{:x} ({} bytes; y copies, e exports)", r.start, r.end, r.len());
            return vec![Effect::Cursor(next), Effect::Message(Level::Info, msg)];
        }
        vec![Effect::Cursor(next)]
    }

    fn after_draw(&mut self, g: &Option<HexGeometry>) {
        if let Some(g) = g {
            self.geom = (g.bytes_per_row, g.rows);
            self.top_rows.insert(g.doc, g.top_row);
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, ctx: &Ctx<'_>) -> Option<HexGeometry> {
        let d = ctx.sel.0;
        let entry = ctx.cur();
        let (len, cursor) = (entry.doc().len, entry.cursor);
        let title = format!("Hex · {}", crate::model::Sanitized(entry.opened.title()));
        let pos = format!(" 0x{cursor:x}/0x{len:x} ");
        // the position on the row below (a bottom title takes that row itself: no padding)
        let block = ctx
            .block(Pane::Hex, title)
            .title_bottom(ratatui::text::Line::from(pos).right_aligned())
            .padding(ratatui::widgets::Padding::new(1, 1, 0, 0));
        let inner = block.inner(area);
        f.render_widget(block, area);
        if inner.width < 8 || inner.height < 1 {
            return None;
        }
        let buf = f.buffer_mut();
        if ctx.ws.bytes(d).is_none() {
            changed_on_disk(buf, inner, ctx.theme);
            return None;
        }
        let (bpr, digits) = geometry(inner.width, len);
        let n_insp = inspector_rows(inner.height);
        let rows = u64::from(inner.height.saturating_sub(n_insp).max(1));
        let top = scroll_to(self.top_row(d), cursor / bpr, rows);
        let Some(window) = Window::read(entry, top.saturating_mul(bpr), rows.saturating_mul(bpr)) else {
            changed_on_disk(buf, inner, ctx.theme);
            return None;
        };
        let mut painter = Painter {
            inner,
            bpr,
            digits,
            ctx,
            marks: self.marks(ctx),
            fields: FieldRuns::new(entry),
            collapse_zeros: self.collapse_zeros,
        };
        painter.rows(buf, &window, top, rows);
        if n_insp > 0 {
            let at = cursor.checked_sub(window.start).unwrap_or(u64::MAX);
            let lines = inspector_lines(&window.data, at, self.big_endian, inner.width as usize, n_insp as usize);
            for (i, l) in lines.iter().enumerate() {
                let yy = inner.y + inner.height - n_insp + i as u16;
                buf.set_stringn(inner.x, yy, l, inner.width as usize, ctx.theme.dim);
            }
        }
        Some(HexGeometry { doc: d, top_row: top, bytes_per_row: bpr, rows })
    }
}

impl HexPane {
    /// What the bytes are highlighted by: the cursor, the selected field, node and parent,
    /// the walk step, the last match and the shift-selection.
    fn marks(&self, ctx: &Ctx<'_>) -> Marks {
        let d = ctx.sel.0;
        let entry = ctx.cur();
        let doc = entry.doc();
        let sel_node = doc.node(ctx.sel.1);
        Marks {
            cursor: entry.cursor,
            field: ctx.field_sel.and_then(|(n, i)| doc.node(n).and_then(|n| n.fields.get(i))).map(|f| f.span),
            node: sel_node.map(|n| n.span),
            parent: sel_node.and_then(|n| n.parent).and_then(|p| doc.node(p)).map(|p| p.span),
            walk: if ctx.walk_mode { entry.walk_step.and_then(|i| doc.walk_span(i)) } else { None },
            matched: self.matched.filter(|m| m.0 == d).map(|m| m.1),
            range: self.range(d, entry.cursor),
        }
    }
}

/// Lines of the value inspector for a pane `height` rows high.
fn inspector_rows(height: u16) -> u16 {
    match height {
        30.. => 6,
        14..=29 => 3,
        10..=13 => 2,
        5..=9 => 1,
        _ => 0,
    }
}

/// The bytes a frame shows (and a look-ahead for collapsing zero runs).
struct Window {
    /// Offset of the first byte read.
    start: u64,
    data: Vec<u8>,
}

impl Window {
    /// The `shown` bytes from `start` of `entry` and the look-ahead, read through the
    /// checked path (pread into an owned buffer), never the map: redraws come without a
    /// key, so a file cut shorter since the last check is said (None), not a SIGBUS.
    fn read(entry: &DocEntry, start: u64, shown: u64) -> Option<Window> {
        let source = entry.opened.source();
        let len = shown.saturating_add(ZERO_LOOKAHEAD).min(entry.doc().len.min(source.len()).saturating_sub(start));
        let mut data = vec![0u8; usize::try_from(len).unwrap_or(0)];
        source.read_exact_at(start, &mut data).ok()?;
        Some(Window { start, data })
    }

    /// Offset just past the bytes read.
    fn end(&self) -> u64 {
        self.start + self.data.len() as u64
    }

    /// The bytes of row `r` (`bpr` a row); empty outside what was read.
    fn row(&self, r: u64, bpr: u64) -> &[u8] {
        let Some(s) = (r * bpr).checked_sub(self.start).and_then(|s| usize::try_from(s).ok()) else { return &[] };
        self.data.get(s..(s + bpr as usize).min(self.data.len())).unwrap_or(&[])
    }
}

/// Draws the byte rows of one frame.
struct Painter<'a, 'c> {
    inner: Rect,
    bpr: u64,
    digits: usize,
    ctx: &'a Ctx<'c>,
    marks: Marks,
    fields: FieldRuns<'c>,
    collapse_zeros: bool,
}

impl Painter<'_, '_> {
    /// Rows from `top`, `rows` of them at most, runs of zero rows collapsed when asked.
    fn rows(&mut self, buf: &mut Buffer, window: &Window, top: u64, rows: u64) {
        let (bpr, len) = (self.bpr, self.ctx.cur().doc().len);
        let cursor = self.marks.cursor;
        let zero_row = |r: u64| {
            let b = window.row(r, bpr);
            b.len() as u64 == bpr && b.iter().all(|x| *x == 0) && !(r * bpr..(r + 1) * bpr).contains(&cursor)
        };
        let total_rows = len.div_ceil(bpr);
        let mut r = top;
        let mut y = self.inner.y;
        while y < self.inner.y + rows as u16 && r < total_rows {
            if self.collapse_zeros && zero_row(r) && r + 1 < total_rows && zero_row(r + 1) {
                let mut end = r + 1;
                let limit = r + (64 << 20) / bpr;
                while end < total_rows && end < limit && zero_row(end) {
                    end += 1;
                }
                let text = format!(
                    "{:0w$x}  * {} zero rows 0x{:x}..0x{:x}",
                    r * bpr,
                    end - r,
                    r * bpr,
                    end * bpr,
                    w = self.digits
                );
                buf.set_stringn(self.inner.x, y, text, self.inner.width as usize, self.ctx.theme.dim);
                r = end;
                y += 1;
                if end < total_rows && end * bpr >= window.end() {
                    // the run goes past the bytes read: the rest shows after scrolling
                    break;
                }
                continue;
            }
            self.row(buf, y, r * bpr, window.row(r, bpr));
            r += 1;
            y += 1;
        }
    }

    /// One row of bytes at screen row `y`: offset, hex digits, ASCII column.
    fn row(&mut self, buf: &mut Buffer, y: u16, row_off: u64, bytes: &[u8]) {
        let (inner, digits, bpr) = (self.inner, self.digits, self.bpr);
        set_hex(buf, inner.x, y, row_off, digits, self.ctx.theme.dim);
        let ascii_x = byte_x(inner, digits, bpr, bpr) + 2;
        let mut prev_gap = false;
        for (i, b) in bytes.iter().enumerate() {
            let i = i as u64;
            let x = byte_x(inner, digits, bpr, i);
            let (style, astyle) = self.byte(buf, x, y, row_off + i, *b, &mut prev_gap);
            set_char(buf, x + 1, y, hex_digit(b >> 4), style);
            set_char(buf, x + 2, y, hex_digit(b & 15), style);
            set_char(buf, ascii_x + i as u16, y, glyph(*b), astyle);
        }
        if bytes.len() as u64 == bpr && self.marks.cursor == row_off + bpr - 1 {
            buf.set_string(byte_x(inner, digits, bpr, bpr), y, "]", Style::new());
        }
    }

    /// The separator before byte `b` at `off` (drawn at `x`), and the styles of its hex
    /// digits and ASCII glyph.
    fn byte(&mut self, buf: &mut Buffer, x: u16, y: u16, off: u64, b: u8, prev_gap: &mut bool) -> (Style, Style) {
        let (theme, marks) = (self.ctx.theme, &self.marks);
        let doc = self.ctx.cur().doc();
        let hl = highlight(theme, marks, off);
        let field = self.fields.at(off);
        let mut base = theme.byte(b);
        let gap = field.is_none();
        let gap_inside = gap && *prev_gap;
        *prev_gap = gap;
        match field.and_then(|(n, fi)| doc.node(n).and_then(|n| n.fields.get(fi))) {
            None => base = base.patch(theme.gap),
            Some(f) if matches!(f.value.meaning, Some(Meaning::Unknown)) => base = base.patch(theme.unknown),
            _ => {}
        }
        if self.ctx.edits.is_changed(self.ctx.sel.0, off) {
            base = base.patch(theme.edited);
        }
        let mut style = base.patch(hl);
        if off == marks.cursor {
            style = style.patch(theme.cursor);
        }
        let first = x == byte_x(self.inner, self.digits, self.bpr, 0);
        // separator: bracket the cursor, dot between unparsed bytes (no field covers
        // them; visible without colour), else continue the highlight across the gap
        let sep = if off == marks.cursor {
            '['
        } else if !first && off == marks.cursor + 1 {
            ']'
        } else if gap_inside {
            '·'
        } else {
            ' '
        };
        let sep_style = if !first && sep != '[' && sep != ']' && highlight(theme, marks, off - 1) == hl {
            hl.patch(if gap_inside { theme.gap } else { Style::new() })
        } else if gap_inside {
            theme.gap
        } else {
            Style::new()
        };
        set_char(buf, x, y, sep, separator_style(sep, sep_style, style));
        // the ASCII column in the highlight's colours only: its glyphs already tell
        // hexyl's classes apart (`⋄ _ • ×`), and a colour per class would cost the
        // terminal a colour change every few cells on a slow link
        let astyle = if off == marks.cursor { hl.patch(theme.cursor) } else { hl };
        (style, astyle)
    }
}

/// The style of a separator `sep` drawn in `own` before hex digits drawn in `digits`. A
/// plain space shows neither its foreground nor bold/dim/italic: it takes those of the
/// digits, so the terminal is not sent a colour change before and after every byte (about
/// 10 of the 13 bytes a hex byte costs). The dot between unparsed bytes takes the digits'
/// colour too (it is dimmed with them): one colour change a byte, not two (a table of
/// unparsed bytes cost 14 bytes a byte, most of them colour codes).
fn separator_style(sep: char, own: Style, digits: Style) -> Style {
    let mut s = own;
    if own.fg.is_some() {
        return s;
    }
    if sep == ' ' && !own.add_modifier.intersects(SHOWN_ON_SPACE) {
        s.fg = digits.fg;
        s.add_modifier |= digits.add_modifier & HIDDEN_ON_SPACE;
    } else if sep == '·' {
        s.fg = digits.fg;
    }
    s
}

fn byte_x(inner: Rect, digits: usize, bpr: u64, i: u64) -> u16 {
    // separator cell of byte i; its hex digits follow
    inner.x + digits as u16 + 1 + (i * 3) as u16 + u16::from(bpr >= 16 && i >= 8)
}

/// The first row to show so cursor row `crow` is in view, from `top` with `rows` rows: a
/// step of one row past an edge scrolls by one row; any other move out of view (a goto, a
/// tree selection, a walk step, a search match) puts the cursor a quarter from the top,
/// so the target shows with a little of what comes before it.
pub fn scroll_to(top: u64, crow: u64, rows: u64) -> u64 {
    let rows = rows.max(1);
    if (top..top + rows).contains(&crow) {
        top
    } else if crow + 1 == top {
        crow
    } else if crow == top + rows {
        top + 1
    } else {
        crow.saturating_sub(rows / 4)
    }
}

/// The byte offset drawn at a screen cell of the hex pane at `area` (for mouse clicks),
/// showing bytes of length `len` from row `top_row`.
pub fn offset_at(area: Rect, len: u64, top_row: u64, col: u16, row: u16) -> Option<u64> {
    let inner = Rect::new(area.x + 1, area.y + 1, area.width.saturating_sub(2), area.height.saturating_sub(2));
    let (bpr, digits) = geometry(inner.width, len);
    let r = u64::from(row.checked_sub(inner.y)?);
    let i = (0..bpr).rev().find(|&i| col >= byte_x(inner, digits, bpr, i))?;
    let off = (top_row + r) * bpr + i;
    (off < len).then_some(off)
}

/// The glyph the ASCII column shows for byte `b` (hexyl's: `⋄` NUL, `_` whitespace other
/// than space, `•` other ASCII controls, `×` non-ASCII); the CLI `hex` uses the same.
pub fn glyph(b: u8) -> char {
    match ByteClass::of(b) {
        ByteClass::Null => '⋄',
        ByteClass::Printable => char::from(b),
        ByteClass::Whitespace if b == b' ' => ' ',
        ByteClass::Whitespace => '_',
        ByteClass::Other => '•',
        ByteClass::NonAscii => '×',
    }
}

struct Marks {
    cursor: u64,
    field: Option<Span>,
    node: Option<Span>,
    parent: Option<Span>,
    walk: Option<Span>,
    matched: Option<Span>,
    range: Option<Span>,
}

fn in_span(s: Option<Span>, off: u64) -> bool {
    s.is_some_and(|s| s.contains(off))
}

fn highlight(t: &Theme, m: &Marks, off: u64) -> Style {
    if in_span(m.matched, off) {
        t.matched
    } else if in_span(m.range, off) {
        t.range
    } else if in_span(m.walk, off) {
        t.walk
    } else if in_span(m.field, off) {
        t.field
    } else if in_span(m.node, off) {
        t.node
    } else if in_span(m.parent, off) {
        t.parent
    } else {
        Style::new()
    }
}

fn inspector_cells(data: &[u8], off: u64, big: bool) -> Vec<String> {
    let at = |n: usize| -> Option<Vec<u8>> {
        let s = usize::try_from(off).ok()?;
        data.get(s..s.checked_add(n)?).map(<[u8]>::to_vec)
    };
    let uint = |n: usize, be: bool| -> Option<u64> {
        let b = at(n)?;
        let mut v = 0u64;
        if be {
            for x in &b {
                v = (v << 8) | u64::from(*x);
            }
        } else {
            for x in b.iter().rev() {
                v = (v << 8) | u64::from(*x);
            }
        }
        Some(v)
    };
    let sx = |v: u64, bits: u32| -> i64 { ((v << (64 - bits)) as i64) >> (64 - bits) };
    let na = || "—".to_string();
    let ints = |be: bool| -> Vec<String> {
        let tag = if be { "BE" } else { "LE" };
        let mut v = vec![tag.to_string()];
        for (n, bits) in [(2usize, 16u32), (4, 32), (8, 64)] {
            // u16 and u32 in hex too (flags, ids and offsets read better so)
            let digits = n * 2;
            let text = |x: u64| if bits < 64 { format!("{x} 0x{x:0digits$x}") } else { x.to_string() };
            v.push(format!("u{bits} {}", uint(n, be).map_or_else(na, text)));
            v.push(format!("i{bits} {}", uint(n, be).map_or_else(na, |x| sx(x, bits).to_string())));
        }
        v
    };
    // binary in bytes, most significant first: `0b01000000_00000000`
    let binary = |x: u64, bytes: usize| -> String {
        let groups: Vec<String> = (0..bytes).rev().map(|i| format!("{:08b}", (x >> (8 * i)) & 0xff)).collect();
        format!("0b{}", groups.join("_"))
    };
    let b = big;
    let u16v = uint(2, b);
    let i16v = u16v.map(|x| sx(x, 16));
    let mut v = ints(b);
    // small ints first, then floats and fixed point, then the wide ints, then the other endian
    let wide = v.split_off(5);
    v.splice(
        1..1,
        [
            format!("u8 {}", uint(1, false).map_or_else(na, |x| format!("0x{x:02x} {x}"))),
            format!("i8 {}", uint(1, false).map_or_else(na, |x| sx(x, 8).to_string())),
        ],
    );
    v.extend([
        format!("f16 {}", u16v.map_or_else(na, |x| float_text(f64::from(half::f16::from_bits(x as u16).to_f32())))),
        format!("f32 {}", uint(4, b).map_or_else(na, |x| float_text(f64::from(f32::from_bits(x as u32))))),
        format!("f64 {}", uint(8, b).map_or_else(na, |x| float_text(f64::from_bits(x)))),
        format!("16.16 {}", uint(4, b).map_or_else(na, |x| format!("{:.5}", sx(x, 32) as f64 / 65536.0))),
        format!("4.12 {}", i16v.map_or_else(na, |x| format!("{:.4}", x as f64 / 4096.0))),
        format!("1.15 {}", i16v.map_or_else(na, |x| format!("{:.5}", x as f64 / 32768.0))),
        format!("snorm16 {}", i16v.map_or_else(na, |x| format!("{:.5}", (x as f64 / 32767.0).max(-1.0)))),
        format!("angle16 {}", u16v.map_or_else(na, |x| format!("{:.3}°", x as f64 * 360.0 / 65536.0))),
    ]);
    v.extend(wide);
    v.push(format!("b16 {}", u16v.map_or_else(na, |x| binary(x, 2))));
    v.push(format!("b32 {}", uint(4, b).map_or_else(na, |x| binary(x, 4))));
    v.extend(ints(!b));
    v
}

/// Floats short: plain in a readable range, scientific outside it.
fn float_text(v: f64) -> String {
    if v == 0.0 || (1e-4..1e9).contains(&v.abs()) || !v.is_finite() {
        let s = format!("{v:.6}");
        let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
        if s == "-0" { "-0".into() } else { s }
    } else {
        format!("{v:.4e}")
    }
}

/// Columns a cell of the inspector takes: its label and the widest value it shows (the
/// floats: their common widths; a wider one pushes the rest of its line right). Cells keep
/// their place as the cursor moves, so a move rewrites only the characters that changed
/// (on a slow link, labels shifting with every value's width cost most of a move's bytes).
fn inspector_slot(cell: &str) -> usize {
    let label = cell.split(' ').next().unwrap_or("");
    let widest = match label {
        "u8" => "0xff 255",
        "i8" => "-128",
        "u16" => "65535 0xffff",
        "i16" => "-32768",
        "u32" => "4294967295 0xffffffff",
        "i32" => "-2147483648",
        "u64" => "18446744073709551615",
        "i64" => "-9223372036854775808",
        "f16" => "-6.1035e-5",
        "f32" => "-1.2345e-40",
        "f64" => "-1.2345e-300",
        "16.16" => "-32768.00000",
        "4.12" => "-8.0000",
        "1.15" => "-1.00000",
        "snorm16" => "-1.00000",
        "angle16" => "359.995°",
        "b16" => "0b00000000_00000000",
        "b32" => "0b00000000_00000000_00000000_00000000",
        _ => "",
    };
    let value = if widest.is_empty() { 0 } else { widest.chars().count() + 1 };
    label.chars().count() + value
}

/// Flow inspector cells into `lines` lines of `width` columns, each cell in its slot
/// ([`inspector_slot`]) one column apart; where lines break depends on the slots only.
pub fn inspector_lines(data: &[u8], off: u64, big: bool, width: usize, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut used = 0usize;
    for c in inspector_cells(data, off, big) {
        let slot = inspector_slot(&c);
        let starts_group = c == "LE" || c == "BE";
        if used > 0 && (used + 1 + slot > width || starts_group) {
            out.push(std::mem::take(&mut cur).trim_end().to_string());
            used = 0;
            if out.len() == lines {
                return out;
            }
        }
        if used > 0 {
            // pad the line to where this cell's slot starts (a wider value before it pushes)
            let at = cur.chars().count();
            cur.extend(std::iter::repeat_n(' ', (used + 1).saturating_sub(at).max(1)));
            used += 1;
        }
        cur.push_str(&c);
        used += slot;
    }
    if !cur.is_empty() && out.len() < lines {
        out.push(cur.trim_end().to_string());
    }
    out
}

/// What `Document::field_at` answers: (node, field index).
type FieldHit = Option<(crate::model::NodeId, usize)>;

/// `field_at` for offsets visited in ascending order, looked up once per run of bytes with
/// the same answer instead of once per byte. The answer can only change where some node
/// or field starts (the sorted starts of the document entry), where the field found ends,
/// or where a node on the path from the root to the innermost node ends.
struct FieldRuns<'a> {
    entry: &'a DocEntry,
    /// (first offset, end offset, answer) of the current run.
    run: Option<(u64, u64, FieldHit)>,
}

impl<'a> FieldRuns<'a> {
    fn new(entry: &'a DocEntry) -> Self {
        FieldRuns { entry, run: None }
    }

    fn at(&mut self, off: u64) -> FieldHit {
        if let Some((from, to, found)) = self.run
            && (from..to).contains(&off)
        {
            return found;
        }
        let doc = self.entry.doc();
        let found = doc.field_at(off);
        let next_start = |starts: &[u64]| starts.get(starts.partition_point(|&s| s <= off)).copied();
        let mut end = next_start(&self.entry.field_starts)
            .unwrap_or(u64::MAX)
            .min(next_start(&self.entry.node_starts).unwrap_or(u64::MAX));
        if let Some(f) = found.and_then(|(n, i)| doc.node(n).and_then(|n| n.fields.get(i))) {
            end = end.min(f.span.end);
        }
        let mut node = doc.node_at(off).and_then(|id| doc.node(id));
        for _ in 0..doc.nodes.len() {
            let Some(n) = node else { break };
            end = end.min(n.span.end);
            node = n.parent.and_then(|p| doc.node(p));
        }
        self.run = Some((off, end.max(off + 1), found));
        found
    }
}

/// Write `v` as `digits` lowercase hex digits (zero-padded; more if it needs more).
fn set_hex(buf: &mut Buffer, x: u16, y: u16, v: u64, digits: usize, style: Style) {
    // like `set_stringn(format!("{v:0digits$x}"), digits)`: the first `digits` digits
    let need = (64 - v.leading_zeros() as usize).div_ceil(4).max(digits);
    for k in 0..digits {
        let shift = 4 * (need - 1 - k);
        let nibble = if shift >= 64 { 0 } else { ((v >> shift) & 15) as u8 };
        set_char(buf, x + k as u16, y, hex_digit(nibble), style);
    }
}

fn hex_digit(n: u8) -> char {
    char::from(b"0123456789abcdef".get(usize::from(n & 15)).copied().unwrap_or(b'?'))
}

fn set_char(buf: &mut Buffer, x: u16, y: u16, c: char, style: Style) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_char(c).set_style(style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jumps_land_a_quarter_from_the_top_and_steps_scroll_by_one() {
        // 12 rows shown from row 10 (rows 10..22)
        assert_eq!(scroll_to(10, 15, 12), 10, "in view: no scroll");
        assert_eq!(scroll_to(10, 22, 12), 11, "one row past the bottom: one row");
        assert_eq!(scroll_to(10, 9, 12), 9, "one row above: one row");
        assert_eq!(scroll_to(10, 100, 12), 97, "a jump down: 3 rows (a quarter) above it");
        assert_eq!(scroll_to(100, 40, 12), 37, "a jump up");
        assert_eq!(scroll_to(10, 1, 12), 0, "near the start");
    }

    #[test]
    fn inspector_reads_both_endians_and_fixed_point() {
        let data = [0x00, 0x40, 0x00, 0x00, 0, 0, 0, 0];
        let cells = inspector_cells(&data, 0, false);
        assert!(cells.contains(&"u16 16384 0x4000".to_string()), "{cells:?}");
        assert!(cells.contains(&"u16 64 0x0040".to_string()), "{cells:?}"); // BE 0x0040
        assert!(cells.contains(&"u32 16384 0x00004000".to_string()), "{cells:?}");
        assert!(cells.contains(&"b16 0b01000000_00000000".to_string()), "{cells:?}");
        assert!(cells.contains(&"b32 0b00000000_00000000_01000000_00000000".to_string()), "{cells:?}");
        // 1.0 as f64: 3ff0000000000000, little endian
        let one = [0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
        assert!(inspector_cells(&one, 0, false).contains(&"f64 1".to_string()));
        assert!(inspector_cells(&[0x3f, 0xf0, 0, 0, 0, 0, 0, 0], 0, true).contains(&"f64 1".to_string()));
        // -2.5: c004000000000000
        assert!(inspector_cells(&[0, 0, 0, 0, 0, 0, 0x04, 0xc0], 0, false).contains(&"f64 -2.5".to_string()));
        assert!(inspector_cells(&data, 1, false).contains(&"f64 —".to_string()), "7 bytes left: no f64");
        assert!(cells.contains(&"angle16 90.000°".to_string()), "{cells:?}");
        assert!(cells.contains(&"4.12 4.0000".to_string()), "{cells:?}");
        assert!(cells.contains(&"1.15 0.50000".to_string()), "{cells:?}");
        assert!(cells.contains(&"f16 2".to_string()), "{cells:?}");
        let short = inspector_cells(&data, 7, false);
        assert!(short.contains(&"u16 —".to_string()), "{short:?}");
        let m = [0x00, 0x80];
        assert!(inspector_cells(&m, 0, false).contains(&"snorm16 -1.00000".to_string()));
        assert!(inspector_cells(&[0x00, 0x00, 0x01, 0x00], 0, false).contains(&"16.16 1.00000".to_string()));
    }

    #[test]
    fn field_runs_agree_with_field_at_everywhere() {
        use crate::model::{Document, Field, NodeId, Span, Value};
        // nested nodes, fields of different widths, overlapping fields, gaps, a child
        // ending before its parent's field, and a node without fields
        let mut d = Document::new("raw", "t", "file", 200, &crate::limits::Limits::default());
        let a = d.add_node(NodeId::ROOT, "a", "a", Span::new(0, 100));
        d.add_field(a, Field::new("whole", Span::new(0, 100), Value::bytes(100)));
        d.add_field(a, Field::new("head", Span::new(0, 8), Value::bytes(8)));
        d.add_field(a, Field::new("mid", Span::new(30, 50), Value::bytes(20)));
        let b = d.add_node(a, "b", "b", Span::new(10, 40));
        d.add_field(b, Field::new("x", Span::new(12, 16), Value::bytes(4)));
        d.add_field(b, Field::new("y", Span::new(14, 20), Value::bytes(6)));
        let c = d.add_node(b, "c", "c", Span::new(22, 26));
        let _ = c;
        let e = d.add_node(NodeId::ROOT, "e", "e", Span::new(120, 180));
        d.add_field(e, Field::new("z", Span::new(130, 131), Value::bytes(1)));
        d.add_field(NodeId::ROOT, Field::new("tail", Span::new(190, 200), Value::bytes(10)));
        let src = crate::source::Source::from_vec("t", vec![0; 200]);
        let opened =
            crate::session::Opened::from_parsed(crate::formats::with_document(std::sync::Arc::new(src), d), Vec::new());
        let entry = super::super::workspace::DocEntry::new(std::sync::Arc::new(opened), None);
        for start in [0u64, 5, 13, 21, 99, 125] {
            let mut runs = FieldRuns::new(&entry);
            for off in start..200 {
                assert_eq!(runs.at(off), entry.doc().field_at(off), "offset {off} (from {start})");
            }
        }
    }

    #[test]
    fn geometry_fits() {
        assert_eq!(geometry(76, 100).0, 16);
        assert_eq!(geometry(60, 100).0, 8);
        assert_eq!(geometry(30, 100).0, 4);
    }
}
