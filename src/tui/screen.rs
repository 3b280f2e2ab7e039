//! The TUI's terminal output: a ratatui [`Backend`] that writes ANSI itself and knows
//! what the terminal shows, so a frame costs few bytes on a slow link.
//!
//! - Nothing is written when nothing changed (no cursor hide, no empty synchronized
//!   update); a frame goes out in one write, inside a synchronized update.
//! - Colours take the shortest code (`ESC[36m` for the ANSI palette, not `ESC[38;5;6m`),
//!   attributes are sent only when they change, and an attribute turned off uses its own
//!   off code or a reset, whichever is shorter.
//! - Cursor moves only where the text does not already leave the cursor; a short run of
//!   unchanged cells is sent again when that is shorter than a move (`ESC[nC`, `ESC[r;cH`).
//! - Rows that moved up or down are scrolled by the terminal and only what differs after
//!   the move is drawn: full-width rows in a scroll region (DECSTBM, then index or reverse
//!   index), or, where the terminal said it has left/right margins (DECRQM for mode 69,
//!   [`Caps::margins`]), the columns of one pane (DECLRMM and DECSLRM around the scroll;
//!   the app says where panes meet, [`Screen::set_pane_edges`]).
//!   The scroll is chosen by the bytes it spares (each run of changed cells costing a
//!   move and its text; a row that differs in a few cells after the move, the old cursor
//!   row, still counts), pane by pane, up to three a frame (panes side by side).
//! - A row whose rest is blank is erased (EL) rather than written with spaces; after the
//!   last column (the cursor waiting to wrap) the next row is reached by CR LF.
//! - What the terminal can show is honoured ([`Caps`]): 16 colours at most on vt100,
//!   ansi and linux (no `38;5;`), none under `NO_COLOR` or the low-bandwidth mode, ASCII
//!   only (no byte ≥ 0x80) when the locale is not UTF-8.
//! - No cursor-position query: the position is tracked, never asked (ratatui's
//!   `Terminal::clear` asks the backend, and a terminal that does not answer would stall).
//!
//! A symbol holding a control character or a bidi override (from a file's name a pane did
//! not escape) is drawn as `?`/`�`, so no byte of it can act on the terminal; cells a
//! graphics protocol wrote (ratatui-image marks them with a forced width) pass as they are.
//!
//! Unknown: terminals that fill lines scrolled in with something other than the default
//! background after an attribute reset (none known); terminals that answer DECRQM for mode
//! 69 but scroll wrongly inside margins (none known). Not used: REP (repeat the last
//! character; it would shorten borders, but no reply says a terminal has it) and ECH.

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Buffer, Cell, CellDiffOption};
use ratatui::layout::{Position, Rect, Size};
use ratatui::style::{Color, Modifier};
use std::io::Write;
use unicode_width::UnicodeWidthStr;

/// How many colours the terminal is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Colours {
    /// None (attributes only).
    Mono,
    /// The 16 ANSI colours.
    Ansi16,
    /// The 256-colour palette.
    Ansi256,
    /// 24-bit colour.
    True,
}

/// What the terminal is sent (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Colour depth.
    pub colours: Colours,
    /// Only printable ASCII (the locale is not UTF-8).
    pub ascii: bool,
    /// Scroll regions may be used.
    pub scroll: bool,
    /// Frames are wrapped in synchronized updates (mode 2026).
    pub sync: bool,
    /// Left/right margins (DECSLRM, mode 69) may be used: the terminal said it has them
    /// (DECRQM), so a pane beside another scrolls inside its own columns.
    pub margins: bool,
}

impl Default for Caps {
    fn default() -> Self {
        Caps { colours: Colours::Ansi256, ascii: false, scroll: true, sync: true, margins: false }
    }
}

/// Most changed cells a frame orders cheapest-first (more are sent row by row).
const GREEDY_MAX: usize = 256;

/// Terminals of the 8/16-colour era (no 256-colour codes).
const SIXTEEN_COLOUR_TERMS: [&str; 8] = ["vt100", "vt102", "vt220", "vt320", "ansi", "linux", "cons25", "pcansi"];

impl Caps {
    /// From the environment: `TERM`, `COLORTERM`, `NO_COLOR`, the locale (`LC_ALL`,
    /// `LC_CTYPE`, `LANG`: the first one set decides; none set is taken as UTF-8, as most
    /// terminals are today).
    pub fn from_env(var: &dyn Fn(&str) -> Option<String>) -> Caps {
        let set = |k: &str| var(k).filter(|v| !v.is_empty());
        let term = set("TERM").unwrap_or_default().to_ascii_lowercase();
        let base = term.split('-').next().unwrap_or("");
        let colours = if set("NO_COLOR").is_some() {
            Colours::Mono
        } else if SIXTEEN_COLOUR_TERMS.contains(&base) {
            Colours::Ansi16
        } else if set("COLORTERM").is_some_and(|c| c == "truecolor" || c == "24bit") {
            Colours::True
        } else {
            Colours::Ansi256
        };
        let ascii = match ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|k| set(k)) {
            Some(l) => {
                let l = l.to_ascii_lowercase();
                !(l.contains("utf-8") || l.contains("utf8"))
            }
            None => false,
        };
        Caps { colours, ascii, scroll: true, sync: true, margins: false }
    }
}

/// Why the TUI will not start on this terminal (`TERM` unset or `dumb`), as one line.
pub fn refusal(var: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let term = var("TERM").unwrap_or_default();
    if !term.is_empty() && term != "dumb" {
        return None;
    }
    let what = if term.is_empty() { "TERM is not set" } else { "TERM=dumb" };
    Some(format!(
        "{what}: the TUI needs a terminal that takes cursor movement; the verbs tree, hex, fields, decode, plot, \
         pose and export do the same work as plain text (animscope --help)"
    ))
}

/// The pen: colours and attributes the terminal writes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Pen {
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

const PLAIN: Pen = Pen { fg: Color::Reset, bg: Color::Reset, modifier: Modifier::empty() };

/// A ratatui backend writing ANSI to `W` (see the module docs).
#[derive(Debug)]
pub struct Screen<W: Write> {
    out: W,
    /// The frame being written (one write at flush).
    buf: Vec<u8>,
    caps: Caps,
    /// What the terminal shows (ratatui's previous buffer, as this backend drew it).
    shown: Buffer,
    size: Size,
    /// The size is fixed (a test or a counter), not asked of the tty.
    fixed: bool,
    /// Where the terminal's cursor is, when known.
    cursor: Option<(u16, u16)>,
    /// The cursor is at the last column after writing there, waiting to wrap: only a
    /// carriage return or an absolute move take it somewhere known.
    pending_wrap: bool,
    /// The terminal's pen, when known.
    pen: Option<Pen>,
    cursor_visible: Option<bool>,
    /// Bytes written so far.
    written: u64,
    /// Rows scrolled by the terminal (scroll regions) so far.
    scrolled: u64,
    /// How long the last frame's write took (it blocks while the link is behind).
    last_write: std::time::Duration,
    /// Columns that separate panes, as the app laid them out ([`Screen::set_pane_edges`]).
    pane_edges: Vec<usize>,
}

impl<W: Write> Screen<W> {
    /// A backend writing to `out`, sized as stdout's terminal.
    pub fn new(out: W, caps: Caps) -> Self {
        let size = tty_size().unwrap_or(Size { width: 80, height: 24 });
        let mut s = Self::with_size(out, caps, size);
        s.fixed = false;
        s
    }

    /// A backend of a fixed `size` whose screen is blank.
    pub fn with_size(out: W, caps: Caps, size: Size) -> Self {
        Screen {
            out,
            buf: Vec::with_capacity(16 * 1024),
            caps,
            shown: Buffer::empty(Rect::new(0, 0, size.width, size.height)),
            size,
            fixed: true,
            cursor: None,
            pending_wrap: false,
            pen: None,
            cursor_visible: None,
            written: 0,
            scrolled: 0,
            last_write: std::time::Duration::ZERO,
            pane_edges: Vec::new(),
        }
    }

    /// The columns between panes for the next frames (blank gutters the app leaves; a
    /// column drawn with a vertical line in a third of the rows is found without this):
    /// a scroll is scored piece by piece between them (a pane's part of a row that moved
    /// whole costs nothing after it), and with left/right margins it stays between two of
    /// them, never splitting a pane. Only bytes depend on it, never what the terminal shows.
    pub fn set_pane_edges(&mut self, columns: impl IntoIterator<Item = u16>) {
        let mut v: Vec<usize> = columns.into_iter().map(usize::from).collect();
        v.sort_unstable();
        v.dedup();
        self.pane_edges = v;
    }

    /// The capabilities in use.
    pub fn caps(&self) -> Caps {
        self.caps
    }

    /// Change the capabilities (low-bandwidth mode on or off): the pen is reset.
    pub fn set_caps(&mut self, caps: Caps) {
        self.caps = caps;
        self.pen = None;
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// How long writing the last frame took (a write blocks while the buffers towards the
    /// terminal are full).
    pub fn last_write(&self) -> std::time::Duration {
        self.last_write
    }

    /// Rows the terminal scrolled for us so far (scroll regions used).
    pub fn rows_scrolled(&self) -> u64 {
        self.scrolled
    }

    /// The writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The screen is in an unknown state (resumed after a stop): forget the pen, cursor
    /// and what is shown (the next clear makes it blank again).
    pub fn forget(&mut self) {
        self.pen = None;
        self.cursor = None;
        self.pending_wrap = false;
        self.cursor_visible = None;
    }

    fn move_to(&mut self, x: u16, y: u16) {
        if self.cursor == Some((x, y)) && !self.pending_wrap {
            return;
        }
        let seq = self.move_bytes(x, y);
        self.buf.extend_from_slice(&seq);
        self.cursor = Some((x, y));
        self.pending_wrap = false;
    }

    /// The shortest bytes that move the cursor to (x, y): an absolute move, or relative
    /// ones from where it is (line feed and backspace are one byte each; raw mode has no
    /// output processing, so a line feed keeps the column).
    fn move_bytes(&self, x: u16, y: u16) -> Vec<u8> {
        let cup = || {
            if (x, y) == (0, 0) {
                b"\x1b[H".to_vec()
            } else if x == 0 {
                format!("\x1b[{}H", y + 1).into_bytes()
            } else {
                format!("\x1b[{};{}H", y + 1, x + 1).into_bytes()
            }
        };
        let Some((cx, cy)) = self.cursor else { return cup() };
        if (cx, cy) == (x, y) && !self.pending_wrap {
            return Vec::new();
        }
        let rel =
            |n: u16, fin: char| if n == 1 { format!("\x1b[{fin}") } else { format!("\x1b[{n}{fin}") }.into_bytes();
        let mut verts: Vec<Vec<u8>> = Vec::new();
        match y.cmp(&cy) {
            std::cmp::Ordering::Equal => verts.push(Vec::new()),
            std::cmp::Ordering::Greater => {
                let d = y - cy;
                if d <= 4 && y < self.size.height {
                    verts.push(vec![b'\n'; usize::from(d)]);
                }
                verts.push(rel(d, 'B'));
            }
            std::cmp::Ordering::Less => verts.push(rel(cy - y, 'A')),
        }
        let mut hors: Vec<Vec<u8>> = Vec::new();
        match x.cmp(&cx) {
            // waiting to wrap: where relative moves go differs by terminal
            _ if self.pending_wrap => {
                let mut cr = b"\r".to_vec();
                if x > 0 {
                    cr.extend(rel(x, 'C'));
                }
                hors.push(cr);
            }
            std::cmp::Ordering::Equal => hors.push(Vec::new()),
            std::cmp::Ordering::Greater => hors.push(rel(x - cx, 'C')),
            std::cmp::Ordering::Less => {
                let d = cx - x;
                if d <= 4 {
                    hors.push(vec![8u8; usize::from(d)]);
                }
                hors.push(rel(d, 'D'));
                let mut cr = b"\r".to_vec();
                if x > 0 {
                    cr.extend(rel(x, 'C'));
                }
                hors.push(cr);
            }
        }
        let mut best = cup();
        for v in &verts {
            for h in &hors {
                if v.len() + h.len() < best.len() {
                    best = [v.as_slice(), h.as_slice()].concat();
                }
            }
        }
        best
    }

    /// The bytes that bring the cursor to (x, y): a move, or the cells of `next` between
    /// when sending them again with the pen as it is is shorter.
    fn reach(&self, x: u16, y: u16, next: &Buffer) -> Vec<u8> {
        let mv = self.move_bytes(x, y);
        if let Some((cx, cy)) = self.cursor
            && cy == y
            && x > cx
            && usize::from(x - cx) < mv.len()
            && self.gap_fits(next, cx, x, y)
        {
            return (cx..x).filter_map(|gx| next.cell((gx, y))).flat_map(|c| c.symbol().bytes()).collect();
        }
        mv
    }

    /// The pen a cell needs, given the pen the terminal has (a blank keeps its foreground).
    fn pen_for(&self, cell: &Cell) -> Pen {
        let mut want = Pen { fg: cell.fg, bg: cell.bg, modifier: cell.modifier };
        if let Some(have) = self.pen
            && blank_looks_the_same(cell, have, want)
        {
            want.fg = have.fg;
        }
        self.visible_pen(want)
    }

    /// Set the pen to `want`, by the shortest codes.
    fn set_pen(&mut self, want: Pen) {
        self.set_visible_pen(self.visible_pen(want));
    }

    /// [`Screen::set_pen`] for a pen already as this terminal shows it.
    fn set_visible_pen(&mut self, want: Pen) {
        if self.pen == Some(want) {
            return;
        }
        let codes = self.pen_codes(self.pen, want);
        if !codes.is_empty() {
            let _ = write!(self.buf, "\x1b[{}m", codes.join(";"));
        }
        self.pen = Some(want);
    }

    /// The SGR codes from pen `have` (None: unknown) to `want` (already visible), shortest.
    fn pen_codes(&self, have: Option<Pen>, want: Pen) -> Vec<String> {
        let Some(have) = have else { return self.full_codes(want) };
        if have == want {
            return Vec::new();
        }
        let mut incremental: Vec<String> = Vec::new();
        let removed = have.modifier - want.modifier;
        let mut readd = Modifier::empty();
        // bold and dim share their off code (22)
        if removed.intersects(Modifier::BOLD | Modifier::DIM) {
            incremental.push("22".into());
            readd |= want.modifier & (Modifier::BOLD | Modifier::DIM);
        }
        for (m, off) in [
            (Modifier::ITALIC, "23"),
            (Modifier::UNDERLINED, "24"),
            (Modifier::SLOW_BLINK | Modifier::RAPID_BLINK, "25"),
            (Modifier::REVERSED, "27"),
            (Modifier::HIDDEN, "28"),
            (Modifier::CROSSED_OUT, "29"),
        ] {
            if removed.intersects(m) {
                incremental.push(off.into());
            }
        }
        let added = (want.modifier - have.modifier) | readd;
        incremental.extend(modifier_codes(added));
        if want.fg != have.fg {
            incremental.push(self.colour_code(want.fg, false));
        }
        if want.bg != have.bg {
            incremental.push(self.colour_code(want.bg, true));
        }
        let full = self.full_codes(want);
        if sgr_len(&full) < sgr_len(&incremental) { full } else { incremental }
    }

    /// The codes that set `want` from nothing: a reset, then what is not default.
    fn full_codes(&self, want: Pen) -> Vec<String> {
        let mut v = vec!["0".to_string()];
        v.extend(modifier_codes(want.modifier));
        if want.fg != Color::Reset {
            v.push(self.colour_code(want.fg, false));
        }
        if want.bg != Color::Reset {
            v.push(self.colour_code(want.bg, true));
        }
        // `ESC[0;1m` is `ESC[;1m` and `ESC[0m` is `ESC[m`: the reset is the empty parameter
        v[0].clear();
        v
    }

    /// The pen as this terminal can show it (colours reduced to the depth).
    fn visible_pen(&self, p: Pen) -> Pen {
        let reduce = |c: Color| reduce_colour(c, self.caps.colours);
        Pen { fg: reduce(p.fg), bg: reduce(p.bg), modifier: p.modifier }
    }

    fn colour_code(&self, c: Color, bg: bool) -> String {
        let base = if bg { 10 } else { 0 };
        let ansi = |n: u8| {
            if n < 8 { (30 + base + u16::from(n)).to_string() } else { (90 + base + u16::from(n) - 8).to_string() }
        };
        match c {
            Color::Reset => (39 + base).to_string(),
            Color::Black => ansi(0),
            Color::Red => ansi(1),
            Color::Green => ansi(2),
            Color::Yellow => ansi(3),
            Color::Blue => ansi(4),
            Color::Magenta => ansi(5),
            Color::Cyan => ansi(6),
            Color::Gray => ansi(7),
            Color::DarkGray => ansi(8),
            Color::LightRed => ansi(9),
            Color::LightGreen => ansi(10),
            Color::LightYellow => ansi(11),
            Color::LightBlue => ansi(12),
            Color::LightMagenta => ansi(13),
            Color::LightCyan => ansi(14),
            Color::White => ansi(15),
            Color::Indexed(n) if n < 16 => ansi(n),
            Color::Indexed(n) => format!("{};5;{n}", 38 + base),
            Color::Rgb(r, g, b) => format!("{};2;{r};{g};{b}", 38 + base),
        }
    }

    /// Write one cell at (x, y) (the cursor is there).
    fn put(&mut self, cell: &Cell) {
        // a blank shows no foreground: it keeps the pen's (no colour switch for a space
        // between two bytes of one colour)
        let want = self.pen_for(cell);
        self.set_visible_pen(want);
        let Some((x, y)) = self.cursor else { return };
        if matches!(cell.diff_option, CellDiffOption::ForcedWidth(_)) {
            // a graphics protocol's escape sequence: as it is; where it leaves the cursor
            // and pen is its business
            self.buf.extend_from_slice(cell.symbol().as_bytes());
            self.cursor = None;
            self.pending_wrap = false;
            self.pen = None;
            return;
        }
        let sym = cell.symbol();
        // most cells: one printable ASCII byte, one column, written as it is
        let ascii = match sym.as_bytes() {
            &[b] if (0x20..0x7f).contains(&b) => Some(b),
            _ => None,
        };
        let width = if ascii.is_some() { 1 } else { sym.width().max(1) as u16 };
        if let Some(b) = ascii {
            self.buf.push(b);
        } else if sym.chars().any(crate::model::is_unsafe_char) {
            let rep = if self.caps.ascii { "?" } else { "\u{fffd}" };
            self.buf.extend_from_slice(rep.as_bytes());
            for _ in 1..width {
                self.buf.push(b'?');
            }
        } else if self.caps.ascii && !sym.is_ascii() {
            let c = ascii_for(sym);
            self.buf.push(c);
            for _ in 1..width {
                self.buf.push(c);
            }
        } else {
            self.buf.extend_from_slice(sym.as_bytes());
        }
        let nx = x + width;
        // at the last column the cursor waits to wrap (see `pending_wrap`)
        if nx < self.size.width {
            self.cursor = Some((nx, y));
        } else {
            self.cursor = Some((self.size.width - 1, y));
            self.pending_wrap = true;
        }
    }

    /// The scroll that spares the most cells to rewrite, if one pays for itself: rows of
    /// the new frame that the terminal shows `k` rows further down (or up), in full-width
    /// rows (DECSTBM) or, where the terminal has left/right margins, in the columns of one
    /// pane. Cells are compared by hash, and a scroll is scored by the bytes it spares
    /// ([`rewrite_cost`]); a row that differs in a few cells after the move (the old cursor
    /// row losing its highlight) still counts what it spares.
    fn plan_scroll(&self, next: &Buffer) -> Option<Shift> {
        let (w, h) = (usize::from(self.size.width), usize::from(self.size.height));
        if h < 4 || w < 2 || next.content.len() != w * h || self.shown.content.len() != w * h {
            return None;
        }
        // a blank screen (the first frame, after a clear): no row on it spares a rewrite
        if self.shown.content.iter().all(is_plain_blank) {
            return None;
        }
        let oh: Vec<u64> = self.shown.content.iter().map(cell_hash).collect();
        let nh: Vec<u64> = next.content.iter().map(cell_hash).collect();
        if oh.iter().zip(&nh).filter(|(a, b)| a != b).count() < 2 * w.min(16) {
            return None;
        }
        let edges = self.pane_borders(next);
        let spans = self.spans(&edges);
        let plan = ScrollPlan::new(&self.shown, next, oh, nh, &edges);
        let mut best: Option<(i64, Shift)> = None;
        for k in plan.shifts() {
            for up in [true, false] {
                for &span in &spans {
                    if let Some((score, shift)) = plan.score(k, up, span)
                        && best.as_ref().is_none_or(|b| b.0 < score)
                        && plan.clean(&shift)
                    {
                        best = Some((score, shift));
                    }
                }
            }
        }
        best.map(|b| b.1)
    }

    /// Columns between panes: the gutters the app said, and columns drawn with a vertical
    /// line in a third of the rows or more.
    fn pane_borders(&self, next: &Buffer) -> Vec<usize> {
        let (w, h) = (usize::from(self.size.width), usize::from(self.size.height));
        let vertical = |c: &Cell| matches!(c.symbol(), "│" | "┃" | "║" | "|" | "┆" | "┊" | "╎");
        (0..w)
            .filter(|&x| {
                self.pane_edges.binary_search(&x).is_ok()
                    || (0..h).filter(|&y| next.content.get(y * w + x).is_some_and(vertical)).count() * 3 >= h
            })
            .collect()
    }

    /// The column spans a scroll may take: the whole width, and with margins the columns
    /// between two pane borders, so a scroll never splits a pane.
    fn spans(&self, edges: &[usize]) -> Vec<(usize, usize)> {
        let w = usize::from(self.size.width);
        let mut spans = vec![(0, w - 1)];
        if self.caps.margins {
            let mut bounds = edges.to_vec();
            bounds.insert(0, usize::MAX);
            bounds.push(w);
            for pair in bounds.windows(2) {
                let (l, r) = (pair[0].wrapping_add(1), pair[1].wrapping_sub(1));
                if r < w && l <= r && r - l >= 3 && (l, r) != (0, w - 1) {
                    spans.push((l, r));
                }
            }
        }
        spans
    }

    /// Have the terminal scroll as `s` says, and move the shown rows the same way. The
    /// scroll region stays set (and left/right margin mode on, `lrmm`) for the next scroll
    /// of the frame; [`Screen::end_scrolls`] puts them back.
    fn scroll(&mut self, s: Shift, lrmm: &mut bool) {
        let w = usize::from(self.size.width);
        let Shift { k, up, top, bottom, left, right } = s;
        let margins = left > 0 || right < w - 1;
        // lines scrolled in take the pen's background: it must be the default (no
        // attribute either); the foreground does not show on a blank line
        if self.pen.is_none_or(|p| p.bg != Color::Reset || !p.modifier.is_empty()) {
            self.set_pen(PLAIN);
        }
        if margins {
            if !*lrmm {
                self.buf.extend_from_slice(b"\x1b[?69h");
                *lrmm = true;
            }
            let _ = write!(self.buf, "\x1b[{};{}s", left + 1, right + 1);
        } else if *lrmm {
            // the whole width again (with the mode on, CSI s is DECSLRM)
            self.buf.extend_from_slice(b"\x1b[s");
        }
        let _ = write!(self.buf, "\x1b[{};{}r", top + 1, bottom + 1);
        let row = if up { bottom } else { top };
        if left == 0 {
            let _ = write!(self.buf, "\x1b[{}H", row + 1);
        } else {
            let _ = write!(self.buf, "\x1b[{};{}H", row + 1, left + 1);
        }
        for _ in 0..k {
            self.buf.extend_from_slice(if up { b"\n" } else { b"\x1bM" });
        }
        // where the scrolls leave it: known again after them (`end_scrolls`)
        self.cursor = None;
        self.pending_wrap = false;
        self.scrolled += k as u64;
        let old = self.shown.content.clone();
        for y in top..=bottom {
            let from = if up { (y + k <= bottom).then_some(y + k) } else { (y >= top + k).then(|| y - k) };
            for x in left..=right {
                self.shown.content[y * w + x] = from.map_or_else(Cell::default, |f| old[f * w + x].clone());
            }
        }
    }

    /// After a frame's scrolls: the scroll region back to the whole screen, and the
    /// left/right margins to the whole width with their mode off (`lrmm`: it is on).
    fn end_scrolls(&mut self, lrmm: bool) {
        self.buf.extend_from_slice(b"\x1b[r");
        if lrmm {
            self.buf.extend_from_slice(b"\x1b[s\x1b[?69l");
        }
        // DECSTBM and DECSLRM home the cursor
        self.cursor = Some((0, 0));
        self.pending_wrap = false;
    }

    fn cleared(&mut self) {
        if !self.fixed
            && let Some(s) = tty_size()
        {
            self.size = s;
        }
        self.shown = Buffer::empty(Rect::new(0, 0, self.size.width, self.size.height));
    }

    /// Bytes that write the unchanged cells `from..to` of row `y` again from the pen the
    /// terminal has (colour switches included), and the pen after them; None when a cell
    /// there is not a plain one-column symbol or the gap is long.
    fn gap_cost(&self, next: &Buffer, from: u16, to: u16, y: u16) -> Option<(usize, Pen)> {
        if to <= from || to - from > 12 {
            return None;
        }
        let mut pen = self.pen?;
        let mut cost = 0;
        for x in from..to {
            let c = next.cell((x, y))?;
            let sym = c.symbol();
            if c.diff_option != CellDiffOption::None
                || sym.width() != 1
                || (self.caps.ascii && !sym.is_ascii())
                || sym.chars().any(crate::model::is_unsafe_char)
            {
                return None;
            }
            let mut want = Pen { fg: c.fg, bg: c.bg, modifier: c.modifier };
            if blank_looks_the_same(c, pen, want) {
                want.fg = pen.fg;
            }
            let want = self.visible_pen(want);
            cost += sgr_len(&self.pen_codes(Some(pen), want)) + sym.len();
            pen = want;
        }
        Some((cost, pen))
    }

    fn gap_fits(&self, next: &Buffer, from: u16, to: u16, y: u16) -> bool {
        // the unchanged cells between: known, one-column printable ASCII, same pen needed
        if to <= from || to - from > 8 {
            return false;
        }
        let Some(pen) = self.pen else { return false };
        (from..to).all(|x| {
            next.cell((x, y)).is_some_and(|c| {
                c.diff_option == CellDiffOption::None
                    && c.symbol().len() == 1
                    && c.symbol().as_bytes().first().is_some_and(|b| (0x20..0x7f).contains(b))
                    && {
                        let want = self.visible_pen(Pen { fg: c.fg, bg: c.bg, modifier: c.modifier });
                        want == pen || blank_looks_the_same(c, pen, want)
                    }
            })
        })
    }
}

/// A blank cell drawn with `have` looks as drawn with `want`: only the foreground differs,
/// and no attribute draws anything on a blank (underline, reverse, strike-through).
fn blank_looks_the_same(cell: &Cell, have: Pen, want: Pen) -> bool {
    cell.symbol() == " "
        && have.bg == want.bg
        && have.modifier == want.modifier
        && !want.modifier.intersects(Modifier::UNDERLINED | Modifier::REVERSED | Modifier::CROSSED_OUT)
}

/// A blank cell of the default background without attributes (what EL leaves).
fn is_plain_blank(c: &Cell) -> bool {
    c.symbol() == " " && c.bg == Color::Reset && c.modifier.is_empty() && c.diff_option == CellDiffOption::None
}

/// Bytes of `ESC[…m` with these codes.
fn sgr_len(codes: &[String]) -> usize {
    if codes.is_empty() {
        return 0;
    }
    3 + codes.iter().map(String::len).sum::<usize>() + codes.len() - 1
}

fn modifier_codes(m: Modifier) -> Vec<String> {
    let mut v = Vec::new();
    for (bit, on) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::RAPID_BLINK, "6"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if m.contains(bit) {
            v.push(on.to_string());
        }
    }
    v
}

/// A scroll of rows `top..=bottom`, columns `left..=right`, by `k` rows up or down.
#[derive(Debug, Clone, Copy)]
struct Shift {
    k: usize,
    up: bool,
    top: usize,
    bottom: usize,
    left: usize,
    right: usize,
}

/// What choosing a scroll compares: the cells of the shown and the next frame by hash,
/// cut into pieces at the pane borders (each border column a piece of its own), so every
/// span is a run of whole pieces: a pane's piece of a row that moved whole (its hash found
/// k rows away) costs nothing after the move, and only the pieces that did not are
/// compared cell by cell.
struct ScrollPlan<'a> {
    shown: &'a Buffer,
    next: &'a Buffer,
    w: usize,
    h: usize,
    /// Cell hashes of the shown and the next frame.
    oh: Vec<u64>,
    nh: Vec<u64>,
    /// Bytes each cell of the next frame costs to write (its symbol; colours not counted).
    sizes: Vec<u8>,
    /// Columns (first, last) of each piece.
    pieces: Vec<(usize, usize)>,
    /// Hashes of each piece's rows, [piece][row].
    new_hash: Vec<Vec<u64>>,
    old_hash: Vec<Vec<u64>>,
    /// What each piece of each row costs to write where it is, [piece][row].
    in_place: Vec<Vec<i64>>,
}

impl<'a> ScrollPlan<'a> {
    fn new(shown: &'a Buffer, next: &'a Buffer, oh: Vec<u64>, nh: Vec<u64>, edges: &[usize]) -> Self {
        let (w, h) = (usize::from(next.area.width), usize::from(next.area.height));
        let mut cuts = vec![0, w];
        for &e in edges {
            cuts.extend([e, e + 1]);
        }
        cuts.sort_unstable();
        cuts.dedup();
        let pieces: Vec<(usize, usize)> = cuts.windows(2).filter(|p| p[0] < p[1]).map(|p| (p[0], p[1] - 1)).collect();
        let hash_piece = |hashes: &[u64], y: usize, (l, r): (usize, usize)| {
            hashes[y * w + l..=y * w + r]
                .iter()
                .fold(0xcbf2_9ce4_8422_2325u64, |a, &v| (a ^ v).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(17))
        };
        let new_hash = pieces.iter().map(|&p| (0..h).map(|y| hash_piece(&nh, y, p)).collect()).collect();
        let old_hash = pieces.iter().map(|&p| (0..h).map(|y| hash_piece(&oh, y, p)).collect()).collect();
        let sizes = next.content.iter().map(|c| c.symbol().len().clamp(1, 8) as u8).collect();
        let mut plan =
            ScrollPlan { shown, next, w, h, oh, nh, sizes, pieces, new_hash, old_hash, in_place: Vec::new() };
        plan.in_place =
            (0..plan.pieces.len()).map(|pi| (0..h).map(|y| plan.piece_cost(pi, y, Some(y))).collect()).collect();
        plan
    }

    /// Candidate shifts: small ones always, larger ones where whole rows moved.
    fn shifts(&self) -> Vec<usize> {
        let (w, h) = (self.w, self.h);
        let mut ks: Vec<usize> = (1..=(h / 2).min(12)).collect();
        let mut old_rows: std::collections::HashMap<u64, Vec<usize>> = std::collections::HashMap::new();
        for y in 0..h {
            old_rows.entry(row_hash(&self.shown.content[y * w..(y + 1) * w])).or_default().push(y);
        }
        for y in 0..h {
            if let Some(from) = old_rows.get(&row_hash(&self.next.content[y * w..(y + 1) * w])) {
                for &f in from {
                    let k = f.abs_diff(y);
                    if k > 12 && k < h - 1 && !ks.contains(&k) {
                        ks.push(k);
                    }
                }
            }
        }
        ks
    }

    /// What piece `pi` of row `y` costs to write when the terminal shows row `s` of the
    /// old screen there (None: a blank row).
    fn piece_cost(&self, pi: usize, y: usize, s: Option<usize>) -> i64 {
        let w = self.w;
        let (l, r) = self.pieces[pi];
        if s.is_some_and(|s| self.new_hash[pi][y] == self.old_hash[pi][s]) {
            return 0;
        }
        let new = &self.nh[y * w + l..=y * w + r];
        let size = &self.sizes[y * w + l..=y * w + r];
        match s {
            Some(s) => rewrite_cost(size, new.iter().zip(&self.oh[s * w + l..=s * w + r]).map(|(a, b)| a == b)),
            None => {
                let blank = cell_hash(&Cell::default());
                rewrite_cost(size, new.iter().map(|a| *a == blank))
            }
        }
    }

    /// A scroll by `k` rows (`up` or down) in columns `left..=right`: the bytes it spares
    /// less what its own sequences cost, when positive.
    fn score(&self, k: usize, up: bool, (left, right): (usize, usize)) -> Option<(i64, Shift)> {
        let (w, h) = (self.w, self.h);
        let src = |y: usize| if up { (y + k < h).then_some(y + k) } else { y.checked_sub(k) };
        let mine: Vec<usize> =
            (0..self.pieces.len()).filter(|&pi| self.pieces[pi].0 >= left && self.pieces[pi].1 <= right).collect();
        // rows with a piece that moved whole and is worth moving: fewer than two, and this
        // shift is not looked at further (keeps a frame cheap to plan)
        let moved = |y: usize, s: usize| {
            mine.iter().any(|&pi| self.in_place[pi][y] > 0 && self.new_hash[pi][y] == self.old_hash[pi][s])
        };
        if (0..h).filter(|&y| src(y).is_some_and(|s| moved(y, s))).count() < 2 {
            return None;
        }
        // bytes row y costs in place, less what it costs after the move
        let row_gain = |y: usize, s: Option<usize>| -> i64 {
            mine.iter().map(|&pi| self.in_place[pi][y] - self.piece_cost(pi, y, s)).sum()
        };
        let ys: Vec<usize> = (0..h).filter(|&y| src(y).is_some()).collect();
        let gains: Vec<i64> = ys.iter().map(|&y| row_gain(y, src(y))).collect();
        let (a, b, g) = best_run(&gains)?;
        let (start, end) = (ys[a], ys[b]);
        if end - start < 1 {
            return None;
        }
        // rows scrolled in come blank
        let (top, bottom) = if up { (start, end + k) } else { (start - k, end) };
        let entering: i64 = if up {
            (end + 1..=bottom).map(|y| row_gain(y, None)).sum()
        } else {
            (top..start).map(|y| row_gain(y, None)).sum()
        };
        let full = left == 0 && right == w - 1;
        // what the scroll's own sequences cost in bytes (with margins: DECLRMM on and off,
        // DECSLRM set and reset, DECSTBM set and reset, a move)
        let cost = if full { 16 } else { 48 } + 2 * k as i64;
        let score = g + entering - cost;
        (score > 0).then_some((score, Shift { k, up, top, bottom, left, right }))
    }

    /// No wide character or graphics cell is cut by the region of `s`.
    fn clean(&self, s: &Shift) -> bool {
        let w = self.w;
        let full = s.left == 0 && s.right == w - 1;
        (s.top..=s.bottom).all(|y| {
            [self.shown, self.next].iter().all(|buf| {
                let row = &buf.content[y * w..(y + 1) * w];
                row[s.left..=s.right].iter().all(|c| c.diff_option == CellDiffOption::None)
                    && (full
                        || (row[s.right].symbol().width() <= 1
                            && (s.left == 0 || row[s.left - 1].symbol().width() <= 1)))
            })
        })
    }
}

/// Bytes that rewrite the cells of a row that differ (`same` false) from what the
/// terminal shows, cell `i` costing `sizes[i]` bytes: each run of differing cells costs a
/// cursor move (about 5 bytes) and its cells; a gap of up to 3 unchanged cells inside a run
/// is sent again rather than moved over. A measure for choosing scrolls, not exact.
fn rewrite_cost(sizes: &[u8], same: impl Iterator<Item = bool>) -> i64 {
    const MOVE: i64 = 5;
    let (mut cost, mut open, mut gap_cells, mut gap_bytes) = (0i64, false, 0, 0i64);
    for (&n, same) in sizes.iter().zip(same) {
        if same {
            if open {
                gap_cells += 1;
                gap_bytes += i64::from(n);
                if gap_cells > 3 {
                    open = false;
                }
            }
            continue;
        }
        cost += if open { gap_bytes.min(MOVE) } else { MOVE };
        cost += i64::from(n);
        (open, gap_cells, gap_bytes) = (true, 0, 0);
    }
    cost
}

/// The contiguous run of `v` with the largest sum: (first, last, sum); None when empty.
fn best_run(v: &[i64]) -> Option<(usize, usize, i64)> {
    let mut best: Option<(usize, usize, i64)> = None;
    let (mut from, mut sum) = (0, 0i64);
    for (i, &g) in v.iter().enumerate() {
        if sum <= 0 {
            (from, sum) = (i, g);
        } else {
            sum += g;
        }
        if best.is_none_or(|b| sum > b.2) {
            best = Some((from, i, sum));
        }
    }
    best
}

fn cell_hash(c: &Cell) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = foldhash::quality::FixedState::with_seed(0x5eed).build_hasher();
    c.symbol().hash(&mut h);
    c.fg.hash(&mut h);
    c.bg.hash(&mut h);
    c.modifier.hash(&mut h);
    h.finish()
}

fn row_hash(row: &[Cell]) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = foldhash::quality::FixedState::with_seed(0x5eed).build_hasher();
    for c in row {
        c.symbol().hash(&mut h);
        c.fg.hash(&mut h);
        c.bg.hash(&mut h);
        c.modifier.hash(&mut h);
    }
    h.finish()
}

/// The 16 ANSI colours as xterm shows them (for reducing deeper colours).
const ANSI_RGB: [(u8, u8, u8); 16] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
];

/// The RGB of a 256-palette index (xterm's cube and grey ramp).
fn palette_rgb(n: u8) -> (u8, u8, u8) {
    match n {
        0..=15 => ANSI_RGB[usize::from(n)],
        16..=231 => {
            let i = n - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
        _ => {
            let g = 8 + (n - 232) * 10;
            (g, g, g)
        }
    }
}

fn nearest(candidates: impl Iterator<Item = (u8, (u8, u8, u8))>, (r, g, b): (u8, u8, u8)) -> u8 {
    let d = |(cr, cg, cb): (u8, u8, u8)| {
        let dr = i32::from(cr) - i32::from(r);
        let dg = i32::from(cg) - i32::from(g);
        let db = i32::from(cb) - i32::from(b);
        dr * dr + dg * dg + db * db
    };
    candidates.min_by_key(|&(_, c)| d(c)).map_or(0, |(i, _)| i)
}

/// `c` as a terminal of depth `colours` can show it.
fn reduce_colour(c: Color, colours: Colours) -> Color {
    match (colours, c) {
        (Colours::Mono, _) => Color::Reset,
        (Colours::True, _) => c,
        (Colours::Ansi256, Color::Rgb(r, g, b)) => {
            Color::Indexed(nearest((16..=255u8).map(|i| (i, palette_rgb(i))), (r, g, b)))
        }
        (Colours::Ansi256, _) => c,
        (Colours::Ansi16, Color::Rgb(r, g, b)) => {
            Color::Indexed(nearest((0..16u8).map(|i| (i, ANSI_RGB[usize::from(i)])), (r, g, b)))
        }
        (Colours::Ansi16, Color::Indexed(n)) if n >= 16 => {
            Color::Indexed(nearest((0..16u8).map(|i| (i, ANSI_RGB[usize::from(i)])), palette_rgb(n)))
        }
        (Colours::Ansi16, _) => c,
    }
}

/// An ASCII character standing for a non-ASCII symbol (box drawing, blocks, braille,
/// punctuation the panes use; anything else is `?`).
pub fn ascii_for(sym: &str) -> u8 {
    let Some(c) = sym.chars().next() else { return b' ' };
    match c {
        '─' | '━' | '═' | '┄' | '┈' | '╌' | '╴' | '╶' | '–' | '—' | '‐' | '−' => b'-',
        '│' | '┃' | '║' | '┆' | '┊' | '╎' | '╵' | '╷' => b'|',
        '\u{2500}'..='\u{257f}' => b'+',
        '\u{2800}' => b' ',
        '\u{2801}'..='\u{28ff}' => b'.',
        '░' => b'.',
        '▒' => b':',
        '\u{2580}'..='\u{259f}' | '■' => b'#',
        '·' | '⋄' | '•' | '∙' | '…' => b'.',
        '→' | '▶' | '►' | '▸' | '›' | '»' => b'>',
        '←' | '◀' | '◄' | '◂' | '‹' | '«' => b'<',
        '↑' | '▲' | '▴' => b'^',
        '↓' | '▼' | '▾' => b'v',
        '×' => b'x',
        '⚠' => b'!',
        '⧗' | '★' | '☆' | '✱' => b'*',
        '‘' | '’' | '′' => b'\'',
        '“' | '”' | '″' => b'"',
        '✓' | '✔' => b'+',
        '≈' => b'~',
        '≤' => b'<',
        '≥' => b'>',
        '\u{a0}' => b' ',
        _ => b'?',
    }
}

/// The size of stdout's terminal (None when it is no terminal).
pub fn tty_size() -> Option<Size> {
    let ws = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    (ws.ws_col > 0 && ws.ws_row > 0).then_some(Size { width: ws.ws_col, height: ws.ws_row })
}

impl<W: Write> Screen<W> {
    /// Write `updates` (cells of `next`) cheapest next first.
    fn draw_greedy(&mut self, updates: &[(u16, u16, &Cell)], next: &Buffer) {
        let mut left: Vec<(u16, u16, &Cell)> = updates.to_vec();
        let mut pen_cost: std::collections::HashMap<(Option<Pen>, Pen), usize> = std::collections::HashMap::new();
        while !left.is_empty() {
            let mut best = (usize::MAX, 0);
            for (i, &(x, y, cell)) in left.iter().enumerate() {
                let want = self.pen_for(cell);
                let pc = *pen_cost.entry((self.pen, want)).or_insert_with(|| sgr_len(&self.pen_codes(self.pen, want)));
                let cost = self.reach(x, y, next).len() + pc;
                if cost < best.0 {
                    best = (cost, i);
                }
            }
            let (x, y, cell) = left.remove(best.1);
            let path = self.reach(x, y, next);
            self.buf.extend_from_slice(&path);
            self.cursor = Some((x, y));
            self.pending_wrap = false;
            self.put(cell);
        }
    }

    /// Write `updates` (cells of `next`) in reading order: blank row ends erased, short
    /// gaps of unchanged cells sent again where that is shorter than a move.
    fn draw_rows(&mut self, updates: &[(u16, u16, &Cell)], next: &Buffer) {
        let mut last: Option<(u16, u16)> = None;
        // the row erased to its end (EL) from this column: its later updates are done
        let mut erased: Option<(u16, u16)> = None;
        for (i, &(x, y, cell)) in updates.iter().enumerate() {
            if erased.is_some_and(|(ex, ey)| ey == y && x >= ex) {
                continue;
            }
            // the rest of the row blank, and at least 4 of its cells to rewrite: erase it
            // (the row's cells looked at first: most blanks are followed by text)
            if is_plain_blank(cell)
                && (x..self.size.width).all(|bx| next.cell((bx, y)).is_some_and(is_plain_blank))
                && updates[i..].iter().take_while(|u| u.1 == y).count() >= 4
            {
                self.move_to(x, y);
                if self.pen.is_none_or(|p| p.bg != Color::Reset || !p.modifier.is_empty()) {
                    self.set_pen(PLAIN);
                }
                self.buf.extend_from_slice(b"\x1b[K");
                erased = Some((x, y));
                last = Some((x, y));
                continue;
            }
            // a short gap of unchanged cells on the row: sent again when shorter than a move
            if let (Some((lx, ly)), Some((cx, cy))) = (last, self.cursor)
                && ly == y
                && cy == y
                && cx > lx
                && x > cx
                && !self.pending_wrap
                && let Some(pen) = self.pen
                && let Some((cost, end)) = self.gap_cost(next, cx, x, y)
            {
                // the gap again (its colours included), or a move and the pen from here
                let want = self.visible_pen(Pen { fg: cell.fg, bg: cell.bg, modifier: cell.modifier });
                let after_gap = sgr_len(&self.pen_codes(Some(end), want));
                let direct = sgr_len(&self.pen_codes(Some(pen), want));
                let mv = self.move_bytes(x, y).len();
                if cost + after_gap < mv + direct {
                    for gx in cx..x {
                        if let Some(c) = next.cell((gx, y)).cloned() {
                            self.put(&c);
                        }
                    }
                }
            }
            self.move_to(x, y);
            self.put(cell);
            last = Some((x, y));
        }
    }
}

impl<W: Write> Backend for Screen<W> {
    type Error = std::io::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut next = self.shown.clone();
        let mut any = false;
        for (x, y, cell) in content {
            if let Some(c) = next.cell_mut((x, y)) {
                *c = cell.clone();
                any = true;
            }
        }
        if !any {
            return Ok(());
        }
        // a few scrolls: panes beside each other may each have moved (hex rows and the
        // fields listed beside them)
        let (mut scrolled, mut lrmm) = (false, false);
        for _ in 0..3 {
            match self.caps.scroll.then(|| self.plan_scroll(&next)).flatten() {
                Some(shift) => {
                    self.scroll(shift, &mut lrmm);
                    scrolled = true;
                }
                None => break,
            }
        }
        if scrolled {
            self.end_scrolls(lrmm);
        }
        let updates = self.shown.diff(&next);
        let (start, cursor, pen, wrap) = (self.buf.len(), self.cursor, self.pen, self.pending_wrap);
        self.draw_rows(&updates, &next);
        if updates.len() <= GREEDY_MAX {
            // few changes: also the cheapest-next order (a column of changes goes down it
            // with line feeds and one pen switch), and whichever is shorter goes out
            let by_rows = self.buf.split_off(start);
            let after_rows = (self.cursor, self.pen, self.pending_wrap);
            (self.cursor, self.pen, self.pending_wrap) = (cursor, pen, wrap);
            self.draw_greedy(&updates, &next);
            if self.buf.len() - start > by_rows.len() {
                self.buf.truncate(start);
                self.buf.extend_from_slice(&by_rows);
                (self.cursor, self.pen, self.pending_wrap) = after_rows;
            }
        }
        self.shown = next;
        Ok(())
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        if self.cursor_visible != Some(false) {
            self.buf.extend_from_slice(b"\x1b[?25l");
            self.cursor_visible = Some(false);
        }
        Ok(())
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        if self.cursor_visible != Some(true) {
            self.buf.extend_from_slice(b"\x1b[?25h");
            self.cursor_visible = Some(true);
        }
        Ok(())
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        // tracked, never asked (see the module docs)
        let (x, y) = self.cursor.unwrap_or((0, 0));
        Ok(Position { x, y })
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        let p = position.into();
        self.move_to(p.x, p.y);
        Ok(())
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.clear_region(ClearType::All)
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        // Every clear is a whole-screen clear: what a partial one leaves is not known cell
        // by cell, and ratatui draws the viewport whole after any clear (fullscreen only).
        let _ = clear_type;
        self.set_pen(PLAIN);
        self.buf.extend_from_slice(b"\x1b[2J");
        self.cleared();
        Ok(())
    }

    fn size(&self) -> Result<Size, Self::Error> {
        if self.fixed {
            return Ok(self.size);
        }
        Ok(tty_size().unwrap_or(self.size))
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        let columns_rows = self.size()?;
        let ws = rustix::termios::tcgetwinsize(std::io::stdout()).ok();
        let pixels = Size { width: ws.map_or(0, |w| w.ws_xpixel), height: ws.map_or(0, |w| w.ws_ypixel) };
        Ok(WindowSize { columns_rows, pixels })
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let sync = self.caps.sync && self.buf.len() > 16;
        let start = std::time::Instant::now();
        if sync {
            self.out.write_all(b"\x1b[?2026h")?;
        }
        self.out.write_all(&self.buf)?;
        if sync {
            self.out.write_all(b"\x1b[?2026l")?;
        }
        self.out.flush()?;
        self.last_write = start.elapsed();
        self.written += (self.buf.len() + if sync { 16 } else { 0 }) as u64;
        self.buf.clear();
        Ok(())
    }
}

/// Raw writes (escape sequences the UI loop sends itself: queries, OSC 52) go out after
/// the frame, at once.
impl<W: Write> Write for Screen<W> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        Backend::flush(self)?;
        self.out.write_all(data)?;
        self.out.flush()?;
        self.written += data.len() as u64;
        // a raw sequence may move the cursor or change the pen
        self.cursor = None;
        self.pending_wrap = false;
        self.pen = None;
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Backend::flush(self)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use ratatui::Terminal;
    use ratatui::style::Style;

    /// A terminal that understands what [`Screen`] writes (cursor moves, SGR, scroll
    /// regions, index / reverse index, clears), to check the screen it ends up showing.
    struct Vt {
        w: usize,
        h: usize,
        cells: Vec<(String, Pen)>,
        x: usize,
        y: usize,
        pen: Pen,
        top: usize,
        bottom: usize,
        /// Left/right margins (mode 69 and DECSLRM).
        lrmm: bool,
        left: usize,
        right: usize,
    }

    impl Vt {
        fn new(w: u16, h: u16) -> Vt {
            let (w, h) = (usize::from(w), usize::from(h));
            Vt {
                w,
                h,
                cells: vec![(" ".into(), PLAIN); w * h],
                x: 0,
                y: 0,
                pen: PLAIN,
                top: 0,
                bottom: h - 1,
                lrmm: false,
                left: 0,
                right: w - 1,
            }
        }

        fn blank_row(&mut self, y: usize) {
            for x in 0..self.w {
                self.cells[y * self.w + x] = (" ".into(), PLAIN);
            }
        }

        fn scroll_up(&mut self) {
            for y in self.top..self.bottom {
                for x in self.left..=self.right {
                    self.cells[y * self.w + x] = self.cells[(y + 1) * self.w + x].clone();
                }
            }
            for x in self.left..=self.right {
                self.cells[self.bottom * self.w + x] = (" ".into(), PLAIN);
            }
        }

        fn scroll_down(&mut self) {
            for y in (self.top + 1..=self.bottom).rev() {
                for x in self.left..=self.right {
                    self.cells[y * self.w + x] = self.cells[(y - 1) * self.w + x].clone();
                }
            }
            for x in self.left..=self.right {
                self.cells[self.top * self.w + x] = (" ".into(), PLAIN);
            }
        }

        fn sgr(&mut self, params: &str) {
            let p: Vec<u16> = params.split(';').map(|s| s.parse().unwrap_or(0)).collect();
            let mut i = 0;
            let colour = |n: u16| -> Color {
                [
                    Color::Black,
                    Color::Red,
                    Color::Green,
                    Color::Yellow,
                    Color::Blue,
                    Color::Magenta,
                    Color::Cyan,
                    Color::Gray,
                    Color::DarkGray,
                    Color::LightRed,
                    Color::LightGreen,
                    Color::LightYellow,
                    Color::LightBlue,
                    Color::LightMagenta,
                    Color::LightCyan,
                    Color::White,
                ][usize::from(n)]
            };
            while i < p.len() {
                let c = p[i];
                match c {
                    0 => self.pen = PLAIN,
                    1..=9 => {
                        self.pen.modifier |= modifier_codes(Modifier::all())
                            .iter()
                            .position(|s| s == &c.to_string())
                            .map_or(Modifier::empty(), |k| Modifier::from_bits_truncate(1 << k));
                    }
                    22 => self.pen.modifier -= Modifier::BOLD | Modifier::DIM,
                    23 => self.pen.modifier -= Modifier::ITALIC,
                    24 => self.pen.modifier -= Modifier::UNDERLINED,
                    25 => self.pen.modifier -= Modifier::SLOW_BLINK | Modifier::RAPID_BLINK,
                    27 => self.pen.modifier -= Modifier::REVERSED,
                    28 => self.pen.modifier -= Modifier::HIDDEN,
                    29 => self.pen.modifier -= Modifier::CROSSED_OUT,
                    30..=37 => self.pen.fg = colour(c - 30),
                    90..=97 => self.pen.fg = colour(c - 90 + 8),
                    40..=47 => self.pen.bg = colour(c - 40),
                    100..=107 => self.pen.bg = colour(c - 100 + 8),
                    39 => self.pen.fg = Color::Reset,
                    49 => self.pen.bg = Color::Reset,
                    38 | 48 => {
                        let col = if p[i + 1] == 5 {
                            let n = p[i + 2] as u8;
                            i += 2;
                            if n < 16 { colour(u16::from(n)) } else { Color::Indexed(n) }
                        } else {
                            let c = Color::Rgb(p[i + 2] as u8, p[i + 3] as u8, p[i + 4] as u8);
                            i += 4;
                            c
                        };
                        if c == 38 {
                            self.pen.fg = col;
                        } else {
                            self.pen.bg = col;
                        }
                    }
                    _ => panic!("unknown SGR {c}"),
                }
                i += 1;
            }
        }

        fn feed(&mut self, bytes: &[u8]) {
            let s = std::str::from_utf8(bytes).unwrap();
            let mut it = s.chars().peekable();
            while let Some(c) = it.next() {
                match c {
                    '\x1b' => match it.next() {
                        Some('M') => {
                            if self.y == self.top {
                                self.scroll_down();
                            } else {
                                self.y -= 1;
                            }
                        }
                        Some('[') => {
                            let mut params = String::new();
                            let fin = loop {
                                let c = it.next().unwrap();
                                if c.is_ascii_alphabetic() || c == '~' {
                                    break c;
                                }
                                params.push(c);
                            };
                            let n = |d: usize| params.parse::<usize>().unwrap_or(d);
                            match fin {
                                'H' => {
                                    let mut p = params.split(';').map(|s| s.parse::<usize>().unwrap_or(1));
                                    self.y = p.next().unwrap_or(1).max(1) - 1;
                                    self.x = p.next().unwrap_or(1).max(1) - 1;
                                }
                                'C' => self.x += n(1),
                                'D' => self.x -= n(1),
                                'A' => self.y -= n(1),
                                'B' => self.y += n(1),
                                'm' => self.sgr(&params),
                                'r' => {
                                    let mut p = params.split(';').map(|s| s.parse::<usize>().unwrap_or(0));
                                    self.top = p.next().unwrap_or(1).max(1) - 1;
                                    self.bottom = p.next().map_or(self.h - 1, |b| b.max(1) - 1);
                                    (self.x, self.y) = (0, 0);
                                }
                                'J' => {
                                    for y in 0..self.h {
                                        self.blank_row(y);
                                    }
                                }
                                'K' => {
                                    assert_eq!(self.pen.bg, Color::Reset, "EL with a background");
                                    for x in self.x..self.w {
                                        self.cells[self.y * self.w + x] = (" ".into(), PLAIN);
                                    }
                                }
                                's' => {
                                    assert!(self.lrmm, "CSI s without mode 69 saves the cursor");
                                    let mut p = params.split(';').map(|s| s.parse::<usize>().unwrap_or(0));
                                    self.left = p.next().unwrap_or(1).max(1) - 1;
                                    self.right = p.next().map_or(self.w - 1, |b| b.max(1) - 1);
                                    (self.x, self.y) = (0, 0);
                                }
                                'h' | 'l' if params == "?69" => {
                                    self.lrmm = fin == 'h';
                                    if !self.lrmm {
                                        (self.left, self.right) = (0, self.w - 1);
                                    }
                                }
                                'h' | 'l' => {}
                                f => panic!("unknown CSI {params}{f}"),
                            }
                        }
                        o => panic!("unknown ESC {o:?}"),
                    },
                    '\r' => self.x = 0,
                    '\x08' => self.x -= 1,
                    '\n' => {
                        if self.y == self.bottom {
                            assert!((self.left..=self.right).contains(&self.x), "LF outside the margins");
                            self.scroll_up();
                        } else {
                            self.y += 1;
                        }
                    }
                    c => {
                        let mut sym = c.to_string();
                        while let Some(&m) = it.peek() {
                            if unicode_width::UnicodeWidthChar::width(m) == Some(0) {
                                sym.push(m);
                                it.next();
                            } else {
                                break;
                            }
                        }
                        let wd = sym.width().max(1);
                        if self.x < self.w {
                            self.cells[self.y * self.w + self.x] = (sym, self.pen);
                        }
                        // the right half of a wide character: blank, as ratatui keeps it
                        for r in self.x + 1..(self.x + wd).min(self.w) {
                            self.cells[self.y * self.w + r] = (" ".into(), PLAIN);
                        }
                        self.x = (self.x + wd).min(self.w - 1);
                    }
                }
            }
        }

        fn row_text(&self, y: usize) -> String {
            (0..self.w).map(|x| self.cells[y * self.w + x].0.clone()).collect()
        }
    }

    /// Counts and keeps what the backend writes.
    #[derive(Clone, Default)]
    struct Sink(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn terminal(w: u16, h: u16, caps: Caps) -> (Terminal<Screen<Sink>>, Sink) {
        let sink = Sink::default();
        let t = Terminal::new(Screen::with_size(sink.clone(), caps, Size { width: w, height: h })).unwrap();
        (t, sink)
    }

    /// Lines of a scrolling text with a fixed header and footer, styled per line.
    fn scroller(top: usize, f: &mut ratatui::Frame, mark: Option<usize>) {
        let a = f.area();
        let buf = f.buffer_mut();
        buf.set_string(0, 0, "header ─ title ·", Style::new().fg(Color::Cyan));
        for y in 1..a.height - 1 {
            let n = top + usize::from(y);
            let style = match n % 4 {
                0 => Style::new().fg(Color::Yellow),
                1 => Style::new().bg(Color::Blue).add_modifier(Modifier::BOLD),
                2 => Style::new().fg(Color::Indexed(200)),
                _ => Style::new(),
            };
            let text = format!("{n:08x}  {:02x} {:02x} 界 é", n * 7 % 256, n * 13 % 256);
            buf.set_string(0, y, &text, style);
            if mark == Some(n) {
                buf.set_string(0, y, ">", Style::new().add_modifier(Modifier::REVERSED));
            }
        }
        buf.set_string(0, a.height - 1, "status [?] help", Style::new().fg(Color::DarkGray));
    }

    fn shows(vt: &Vt, t: &Terminal<Screen<Sink>>) {
        let b = &t.backend().shown;
        for y in 0..vt.h {
            for x in 0..vt.w {
                let c = b.cell((x as u16, y as u16)).unwrap();
                let (sym, pen) = &vt.cells[y * vt.w + x];
                let want = reduce_colour(c.fg, Colours::True);
                assert_eq!(sym, c.symbol(), "({x},{y}) row {:?}", vt.row_text(y));
                let want_pen = Pen { fg: want, bg: c.bg, modifier: c.modifier };
                if !blank_looks_the_same(c, *pen, want_pen) {
                    assert_eq!(*pen, want_pen, "({x},{y})");
                }
            }
        }
    }

    /// Scrolling one and several rows up and down, jumps, and a moving mark: the screen the
    /// terminal ends up with is what ratatui drew, every frame; scrolls use the terminal's
    /// scroll region and cost a fraction of a redraw.
    #[test]
    fn the_terminal_shows_what_ratatui_drew() {
        let (w, h) = (40u16, 12u16);
        let (mut t, sink) = terminal(w, h, Caps { colours: Colours::True, ..Caps::default() });
        let mut vt = Vt::new(w, h);
        let mut seen = 0;
        let mut sizes = Vec::new();
        for (top, mark) in [
            (0, None),
            (1, None),
            (2, Some(5)),
            (5, Some(5)),
            (4, None),
            (30, None),
            (27, Some(30)),
            (27, Some(31)),
            (28, None),
        ] {
            t.draw(|f| scroller(top, f, mark)).unwrap();
            let out = sink.0.borrow()[seen..].to_vec();
            seen += out.len();
            vt.feed(&out);
            shows(&vt, &t);
            sizes.push(out.len());
        }
        assert!(t.backend().rows_scrolled() >= 4, "{}", t.backend().rows_scrolled());
        // a one-row scroll writes the row that came in, not the ten that moved
        assert!(sizes[1] * 3 < sizes[0], "{sizes:?}");
        // nothing changed: nothing written
        t.draw(|f| scroller(28, f, None)).unwrap();
        assert_eq!(sink.0.borrow().len(), seen, "an unchanged frame writes nothing");
    }

    /// A pane beside another (a fixed left pane, a divider, lines scrolling on the right
    /// with the cursor row highlighted): with left/right margins the terminal scrolls the
    /// right pane's columns alone and the frame costs a fraction of the rewrite without
    /// them; both end with the screen ratatui drew.
    #[test]
    fn a_pane_beside_another_scrolls_inside_its_margins() {
        let (w, h) = (60u16, 14u16);
        let draw = |f: &mut ratatui::Frame, top: usize, cursor: usize| {
            let buf = f.buffer_mut();
            for y in 0..h {
                buf.set_string(0, y, format!("tree {y:>2} ·"), Style::new().fg(Color::Cyan));
                buf.set_string(15, y, "│", Style::new().fg(Color::DarkGray));
            }
            for y in 1..h - 1 {
                let n = top + usize::from(y);
                let style = if n == cursor { Style::new().bg(Color::Blue) } else { Style::new() };
                let text = format!("{n:08x}  {:02x} {:02x} {:02x} ab·", n * 7 % 256, n * 13 % 256, n % 256);
                buf.set_string(17, y, &text, style.fg([Color::Yellow, Color::Green, Color::Magenta][n % 3]));
            }
            buf.set_string(17, h - 1, format!("@{cursor:x}"), Style::new());
        };
        let mut sizes = Vec::new();
        for margins in [false, true] {
            let (mut t, sink) = terminal(w, h, Caps { margins, ..Caps::default() });
            let mut vt = Vt::new(w, h);
            let mut seen = 0;
            let mut last = 0;
            // the cursor walks down to the last row, then each step scrolls one row
            for (i, (top, cursor)) in
                [(0, 1), (0, 12), (1, 13), (2, 14), (3, 15), (2, 14), (1, 14)].into_iter().enumerate()
            {
                t.draw(|f| draw(f, top, cursor)).unwrap();
                let out = sink.0.borrow()[seen..].to_vec();
                seen += out.len();
                vt.feed(&out);
                shows(&vt, &t);
                last = out.len();
                if i == 3 {
                    sizes.push(out.len());
                }
            }
            assert!(last > 0);
            // without margins a full-width scroll may still pay (the left pane repaired)
            let scrolled = t.backend().rows_scrolled();
            assert!(!margins || scrolled > 0, "margins {margins}: {scrolled} rows scrolled");
        }
        // with margins: the new row, the highlight moved and the scroll
        eprintln!("one-row scroll beside a pane, without and with margins: {sizes:?} bytes");
        assert!(sizes[1] < sizes[0], "{sizes:?}");
    }

    /// Two panes that moved by different rows in one frame (hex rows and the fields list
    /// beside them) scroll each inside its own margins, the margin mode set once for both
    /// and put back once; the terminal ends with the screen ratatui drew.
    #[test]
    fn two_panes_scroll_in_one_frame_with_the_margin_mode_set_once() {
        let (w, h) = (64u16, 16u16);
        let draw = |f: &mut ratatui::Frame, a: usize, b: usize| {
            let buf = f.buffer_mut();
            for y in 0..h {
                buf.set_string(0, y, format!("tree {y:>2}"), Style::new().fg(Color::Cyan));
            }
            for y in 1..h - 1 {
                let n = a + usize::from(y);
                let text = format!("{n:08x} {:02x} {:02x} {:02x}", n * 7 % 256, n * 13 % 256, n % 256);
                buf.set_string(12, y, text, Style::new().fg([Color::Yellow, Color::Green][n % 2]));
                let m = b + usize::from(y);
                buf.set_string(40, y, format!("field[{m:>3}] = {:>6}", m * 37 % 1000), Style::new());
            }
        };
        let (mut t, sink) = terminal(w, h, Caps { margins: true, ..Caps::default() });
        t.backend_mut().set_pane_edges([11, 39]);
        let mut vt = Vt::new(w, h);
        t.draw(|f| draw(f, 0, 0)).unwrap();
        let seen = sink.0.borrow().len();
        vt.feed(&sink.0.borrow());
        t.draw(|f| draw(f, 1, 4)).unwrap();
        let out = sink.0.borrow()[seen..].to_vec();
        vt.feed(&out);
        shows(&vt, &t);
        assert_eq!(t.backend().rows_scrolled(), 5, "one row and four");
        let s = String::from_utf8_lossy(&out);
        assert_eq!(s.matches("\x1b[?69h").count(), 1, "{s:?}");
        assert_eq!(s.matches("\x1b[?69l").count(), 1, "{s:?}");
        assert_eq!(s.matches("\x1b[r").count(), 1, "{s:?}");
    }

    /// Bytes of rewriting a row, by hand: cells 0–1 differ (a move, 5, and 2 bytes), a gap
    /// of two unchanged cells is sent again (2) before cell 4 (1), four unchanged cells end
    /// the run, cell 9 differs (a move and 1): 16; a three-byte cell counts three.
    #[test]
    fn rewrite_cost_counts_moves_and_text() {
        let same = [false, false, true, true, false, true, true, true, true, false];
        assert_eq!(rewrite_cost(&[1; 10], same.iter().copied()), 5 + 2 + 2 + 1 + 5 + 1);
        assert_eq!(rewrite_cost(&[3, 1], [false, true].into_iter()), 5 + 3);
        assert_eq!(rewrite_cost(&[1; 4], [true; 4].into_iter()), 0);
    }

    /// A list beside a fixed pane whose entries move up four rows, each row differing from
    /// the one it replaces in only a few scattered digits (as the fields list beside the
    /// hex pane): with margins the terminal scrolls the list's columns, and the screen ends
    /// as ratatui drew it.
    #[test]
    fn a_list_whose_rows_differ_in_a_few_digits_still_scrolls() {
        let (w, h) = (70u16, 14u16);
        let draw = |f: &mut ratatui::Frame, top: usize| {
            let buf = f.buffer_mut();
            for y in 0..h {
                buf.set_string(0, y, format!("tree {y:>2}"), Style::new().fg(Color::Cyan));
                buf.set_string(12, y, "│", Style::new().fg(Color::DarkGray));
            }
            for y in 0..h {
                let n = top + usize::from(y);
                let text = format!("entry[{n:03}]  0x{:08x} → item_{n:04} @0x{:x} 4 B", 0x27000 + n * 0x1f4, n * 4);
                buf.set_string(14, y, &text, Style::new());
            }
        };
        let (mut t, sink) = terminal(w, h, Caps { margins: true, ..Caps::default() });
        let mut vt = Vt::new(w, h);
        let mut seen = 0;
        for top in [100, 104] {
            t.draw(|f| draw(f, top)).unwrap();
            let out = sink.0.borrow()[seen..].to_vec();
            seen += out.len();
            vt.feed(&out);
            shows(&vt, &t);
        }
        assert_eq!(t.backend().rows_scrolled(), 4, "the list scrolled by its four rows");
    }

    #[test]
    fn shortest_codes_and_what_the_terminal_can_show() {
        let draw = |caps: Caps| {
            let (mut t, sink) = terminal(30, 3, caps);
            t.draw(|f| {
                let buf = f.buffer_mut();
                buf.set_string(0, 0, "┌─ab·", Style::new().fg(Color::Cyan));
                buf.set_string(0, 1, "x", Style::new().fg(Color::Indexed(200)).bg(Color::Rgb(10, 200, 30)));
                buf.set_string(2, 1, "界⠿", Style::new().add_modifier(Modifier::BOLD));
            })
            .unwrap();
            sink.0.borrow().clone()
        };
        let full = draw(Caps { colours: Colours::True, ..Caps::default() });
        let s = String::from_utf8_lossy(&full);
        // the first pen after an unknown state starts with a reset (`ESC[;36m`)
        assert!(s.contains(";36m┌─ab·"), "{s:?}");
        assert!(!s.contains("38;5;6"), "{s:?}");
        assert!(s.contains("38;5;200") && s.contains("48;2;10;200;30"), "{s:?}");
        // vt100-class: 16 colours, never 256 or 24-bit codes
        let sixteen = String::from_utf8(draw(Caps { colours: Colours::Ansi16, ..Caps::default() })).unwrap();
        assert!(!sixteen.contains("38;5;") && !sixteen.contains("48;2;") && !sixteen.contains("38;2;"), "{sixteen:?}");
        assert!(sixteen.contains(";36m"), "{sixteen:?}");
        // no colours at all
        let mono = String::from_utf8(draw(Caps { colours: Colours::Mono, ..Caps::default() })).unwrap();
        for code in ["[36", ";36", "38;", "48;", "[4", "[9"] {
            assert!(!mono.contains(code), "{code} in {mono:?}");
        }
        // a non-UTF-8 locale: ASCII only, borders as + and -
        let ascii = draw(Caps { ascii: true, ..Caps::default() });
        assert!(ascii.iter().all(|&b| b < 0x80), "{:?}", String::from_utf8_lossy(&ascii));
        assert!(String::from_utf8_lossy(&ascii).contains("+-ab."));
    }

    #[test]
    fn the_environment_decides_the_caps() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(a, _)| *a == k).map(|(_, b)| (*b).to_string())
        };
        let c = |pairs| Caps::from_env(&env(pairs));
        assert_eq!(c(&[("TERM", "vt100")]).colours, Colours::Ansi16);
        assert_eq!(c(&[("TERM", "linux")]).colours, Colours::Ansi16);
        assert_eq!(c(&[("TERM", "ansi"), ("COLORTERM", "truecolor")]).colours, Colours::Ansi16);
        assert_eq!(c(&[("TERM", "xterm-256color")]).colours, Colours::Ansi256);
        assert_eq!(c(&[("TERM", "xterm-256color"), ("COLORTERM", "truecolor")]).colours, Colours::True);
        assert_eq!(c(&[("TERM", "xterm-256color"), ("NO_COLOR", "1")]).colours, Colours::Mono);
        assert!(c(&[("LANG", "C")]).ascii);
        assert!(c(&[("LANG", "en_US.UTF-8"), ("LC_ALL", "POSIX")]).ascii, "LC_ALL wins");
        assert!(!c(&[("LANG", "C"), ("LC_CTYPE", "de_DE.utf8")]).ascii, "LC_CTYPE before LANG");
        assert!(!c(&[("LANG", "en_GB.UTF-8")]).ascii);
        assert!(!c(&[]).ascii, "no locale set: taken as UTF-8");
        assert!(refusal(&env(&[("TERM", "dumb")])).is_some_and(|m| m.contains("tree, hex") && !m.contains('\n')));
        assert!(refusal(&env(&[])).is_some());
        assert!(refusal(&env(&[("TERM", "vt100")])).is_none());
    }
}
