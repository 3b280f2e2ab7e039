//! Fewer bytes to the terminal: [`FillSmallGaps`] wraps a backend and, where ratatui's diff
//! leaves a short run of unchanged cells between two changed ones on a row, sends those
//! cells again (they are known: it keeps a copy of what is on screen) instead of a cursor
//! move when that is shorter. A cursor move (`ESC [ row ; col H`) costs 6 to 10 bytes; a
//! hex scroll changes every few cells of each row, so most moves skip only one or two
//! single-byte cells.

use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::{Cell, CellDiffOption};
use ratatui::layout::{Position, Size};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Longest run of unchanged cells that may be sent again instead of a cursor move.
const MAX_GAP: u16 = 8;

/// A backend that fills short gaps between changed cells (see the module docs).
#[derive(Debug)]
pub struct FillSmallGaps<B> {
    inner: B,
    /// What the terminal shows, row-major `width` columns; None where unknown (before the
    /// first clear, after a partial clear).
    screen: Vec<Option<Cell>>,
    width: u16,
    height: u16,
    refilled: u64,
    /// Encodes candidate runs to compare their lengths (ANSI, as crossterm writes them).
    scratch: CrosstermBackend<ByteCount>,
    scratch_len: Arc<AtomicUsize>,
}

/// A writer that only counts bytes.
#[derive(Debug)]
struct ByteCount(Arc<AtomicUsize>);

impl Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.fetch_add(buf.len(), Ordering::Relaxed);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<B: Backend> FillSmallGaps<B> {
    /// Wrap `inner`, taking the screen to be blank, as a new ratatui `Terminal` does (its
    /// first frame sends only the cells that are not blank); unknown when the backend
    /// cannot tell its size, until the screen is cleared.
    pub fn new(inner: B) -> Self {
        let mut w = Self::size_unknown(inner);
        if let Ok(size) = w.inner.size() {
            w.blank(size);
        }
        w
    }

    /// Wrap `inner` whose screen is blank and `size` large (for backends that cannot tell
    /// their size, e.g. writing to a file or a counter).
    pub fn with_size(inner: B, size: Size) -> Self {
        let mut w = Self::size_unknown(inner);
        w.blank(size);
        w
    }

    /// The wrapper before it knows the screen's size (nothing is filled until it does).
    fn size_unknown(inner: B) -> Self {
        let len = Arc::new(AtomicUsize::new(0));
        FillSmallGaps {
            inner,
            screen: Vec::new(),
            width: 0,
            height: 0,
            refilled: 0,
            scratch: CrosstermBackend::new(ByteCount(Arc::clone(&len))),
            scratch_len: len,
        }
    }

    /// Unchanged cells sent again instead of cursor moves so far.
    pub fn cells_refilled(&self) -> u64 {
        self.refilled
    }

    /// The wrapped backend.
    pub fn inner(&self) -> &B {
        &self.inner
    }

    fn forget(&mut self) {
        self.screen.iter_mut().for_each(|c| *c = None);
    }

    fn blank(&mut self, s: Size) {
        self.width = s.width;
        self.height = s.height;
        self.screen = vec![Some(Cell::default()); usize::from(s.width) * usize::from(s.height)];
    }

    /// The whole screen was cleared.
    fn cleared(&mut self) {
        let size = self.inner.size().unwrap_or(Size { width: self.width, height: self.height });
        self.blank(size);
    }

    fn known(&self, x: u16, y: u16) -> Option<&Cell> {
        if x >= self.width {
            return None;
        }
        self.screen.get(usize::from(y) * usize::from(self.width) + usize::from(x))?.as_ref()
    }

    fn remember(&mut self, x: u16, y: u16, cell: &Cell) {
        if x >= self.width {
            return;
        }
        if let Some(slot) = self.screen.get_mut(usize::from(y) * usize::from(self.width) + usize::from(x)) {
            *slot = Some(cell.clone());
        }
    }

    /// The unchanged cells between `prev` (just sent at `px`) and `next` (to be sent at
    /// `nx`) on row `y`, when sending them (with any style changes they need) is shorter
    /// than the cursor move: every one known and printable ASCII, `prev` one column wide.
    fn gap_cells(&mut self, prev: &Cell, px: u16, next: &Cell, nx: u16, y: u16) -> Option<Vec<Cell>> {
        if nx <= px + 1 || nx - px - 1 > MAX_GAP || !one_column(prev) {
            return None;
        }
        let mut cells = Vec::with_capacity(usize::from(nx - px - 1));
        for x in px + 1..nx {
            let c = self.known(x, y)?;
            if c.diff_option != CellDiffOption::None || !ascii(c) {
                return None;
            }
            cells.push(c.clone());
        }
        let mut run: Vec<(u16, u16, &Cell)> = vec![(px, y, prev)];
        run.extend(cells.iter().zip(px + 1..).map(|(c, x)| (x, y, c)));
        run.push((nx, y, next));
        let filled = self.ansi_len(&run);
        let moved = self.ansi_len(&[(px, y, prev), (nx, y, next)]);
        (filled < moved).then_some(cells)
    }

    /// Bytes crossterm writes for these cells (the same for every backend's terminal).
    fn ansi_len(&mut self, cells: &[(u16, u16, &Cell)]) -> usize {
        self.scratch_len.store(0, Ordering::Relaxed);
        match self.scratch.draw(cells.iter().copied()) {
            Ok(()) => self.scratch_len.load(Ordering::Relaxed),
            Err(_) => usize::MAX,
        }
    }
}

/// One column wide by Unicode (the same assumption the backend makes when it sends the
/// next cell without a cursor move).
fn one_column(c: &Cell) -> bool {
    ratatui::text::Span::raw(c.symbol()).width() == 1
}

/// The cell as it may reach the terminal: a symbol holding a control character or a bidi
/// override (from a name in a file that a pane did not escape) is drawn as `�`, so no
/// byte of it can act on the terminal.
fn terminal_safe(c: &Cell) -> Cell {
    let mut c = c.clone();
    if c.symbol().chars().any(crate::model::is_unsafe_char) {
        c.set_symbol("\u{fffd}");
    }
    c
}

/// Printable ASCII: one column on every terminal (no ambiguous widths).
fn ascii(c: &Cell) -> bool {
    let s = c.symbol().as_bytes();
    s.len() == 1 && s.first().is_some_and(|b| (0x20..0x7f).contains(b))
}

impl<B: Backend> Backend for FillSmallGaps<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut out: Vec<(u16, u16, Cell)> = Vec::new();
        for (x, y, cell) in content {
            let fill = match out.last() {
                Some((px, py, prev)) if *py == y && x > px + 1 => {
                    let (px, prev) = (*px, prev.clone());
                    self.gap_cells(&prev, px, cell, x, y).map(|f| (px, f))
                }
                _ => None,
            };
            if let Some((px, fill)) = fill {
                let start = px + 1;
                self.refilled += fill.len() as u64;
                out.extend(fill.into_iter().zip(start..).map(|(c, gx)| (gx, y, c)));
            }
            out.push((x, y, terminal_safe(cell)));
        }
        for (x, y, c) in &out {
            self.remember(*x, *y, c);
        }
        self.inner.draw(out.iter().map(|(x, y, c)| (*x, *y, c)))
    }

    fn append_lines(&mut self, n: u16) -> Result<(), Self::Error> {
        self.forget();
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner.clear()?;
        self.cleared();
        Ok(())
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.inner.clear_region(clear_type)?;
        if clear_type == ClearType::All {
            self.cleared();
        } else {
            self.forget();
        }
        Ok(())
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.inner.size()
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.inner.flush()
    }
}

/// Raw writes (escape sequences the UI loop sends itself) go to the wrapped backend.
impl<B: Backend + Write> Write for FillSmallGaps<B> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Write::flush(&mut self.inner)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::style::{Color, Style};

    #[test]
    fn no_control_or_bidi_character_reaches_the_terminal() {
        let mut term = Terminal::new(FillSmallGaps::new(TestBackend::new(24, 1))).unwrap();
        // a name as a file might carry it: ESC, an OSC 52 clipboard write, BEL, C1 CSI, RLO
        let hostile = "a\u{1b}]52;c;eA==\u{7}b\u{9b}c\u{202e}d";
        term.draw(|f| f.render_widget(ratatui::text::Line::raw(hostile), f.area())).unwrap();
        let shown: String = term.backend().inner().buffer().content().iter().map(|c| c.symbol()).collect();
        assert!(!shown.chars().any(crate::model::is_unsafe_char), "{shown:?}");
        assert!(shown.starts_with('a') && shown.contains('b') && shown.contains('d'), "{shown:?}");
    }

    /// Frames whose diffs leave gaps of every size, with styles, wide characters and
    /// combining marks; the screen through the wrapper must equal ratatui's buffer.
    #[test]
    fn the_screen_is_what_ratatui_drew() {
        let mut plain = Terminal::new(TestBackend::new(40, 6)).unwrap();
        let mut filled = Terminal::new(FillSmallGaps::new(TestBackend::new(40, 6))).unwrap();
        for frame in 0..40u32 {
            let draw = |f: &mut ratatui::Frame| {
                let buf = f.buffer_mut();
                for y in 0..6u16 {
                    for x in 0..40u16 {
                        let v = (u32::from(x) * 7 + u32::from(y) * 3 + frame * ((u32::from(x) % 5) + 1)) % 11;
                        let style = if v == 3 { Style::new().fg(Color::Cyan) } else { Style::new() };
                        let sym = match v {
                            0 => "a",
                            1 => "b",
                            2 if x < 39 => "界",
                            4 => "e\u{301}",
                            _ => " ",
                        };
                        if let Some(c) = buf.cell_mut((x, y)) {
                            c.set_symbol(sym).set_style(style);
                        }
                    }
                }
            };
            plain.draw(draw).unwrap();
            filled.draw(draw).unwrap();
            assert_eq!(filled.backend().inner().buffer(), plain.backend().buffer(), "frame {frame}");
        }
        assert!(filled.backend().cells_refilled() > 100, "{}", filled.backend().cells_refilled());
    }

    #[test]
    fn a_short_gap_is_sent_again_instead_of_a_cursor_move() {
        let count = |fill: bool| {
            let mut out = Vec::new();
            {
                let backend = ratatui::backend::CrosstermBackend::new(&mut out);
                let opts = ratatui::TerminalOptions {
                    viewport: ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, 30, 1)),
                };
                let frames = ["a1b1c1d1e1f1g1h1", "a2b2c2d2e2f2g2h2"];
                if fill {
                    let size = Size { width: 30, height: 1 };
                    let mut t = Terminal::with_options(FillSmallGaps::with_size(backend, size), opts).unwrap();
                    for s in frames {
                        t.draw(|f| f.buffer_mut().set_string(0, 0, s, Style::new())).unwrap();
                    }
                } else {
                    let mut t = Terminal::with_options(backend, opts).unwrap();
                    for s in frames {
                        t.draw(|f| f.buffer_mut().set_string(0, 0, s, Style::new())).unwrap();
                    }
                }
            }
            out.len()
        };
        let (moves, fills) = (count(false), count(true));
        // the second frame changes every other cell: 7 cursor moves of 6 bytes become 7
        // single letters
        assert!(fills + 30 < moves, "{fills} vs {moves}");
    }
}
