//! The texture preview: the selected texture's decoded picture ([`DecodedImage`], from
//! [`crate::formats::Pictures::image`]) scaled to fit the decode pane, with its size, pixel
//! format and CLUT named. Drawn with half-block cells (`▀`, the top pixel in the
//! foreground and the bottom one in the background) in truecolor, 256 or 16 colours as the
//! terminal says it can (`COLORTERM`, `TERM`, `NO_COLOR`), or by a terminal graphics
//! protocol (kitty, sixel, iTerm2) when one was detected by query ([`super::graphics`]).

use super::graphics::Graphics;
use crate::model::NodeId;
use crate::model::image::DecodedImage;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use std::cell::RefCell;
use std::sync::Arc;

/// How many colours the terminal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourDepth {
    /// 24-bit RGB (`COLORTERM=truecolor` or `24bit`).
    True,
    /// The xterm 256-colour palette (`TERM=*-256color`).
    Ansi256,
    /// The 16 ANSI colours.
    Ansi16,
    /// No colour (`NO_COLOR`): the picture as a luminance ramp of characters.
    Mono,
}

impl ColourDepth {
    /// The depth the environment says: `NO_COLOR` (non-empty) → mono; `COLORTERM`
    /// `truecolor`/`24bit` → true colour; `TERM` naming 256 colours → 256; `TERM=dumb` →
    /// mono; otherwise 16.
    pub fn from_env_with(var: impl Fn(&str) -> Option<String>) -> ColourDepth {
        let set = |k: &str| var(k).filter(|v| !v.is_empty());
        if set("NO_COLOR").is_some() {
            return ColourDepth::Mono;
        }
        if set("COLORTERM").is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "truecolor" | "24bit")) {
            return ColourDepth::True;
        }
        match set("TERM") {
            Some(t) if t.contains("256color") => ColourDepth::Ansi256,
            Some(t) if t == "dumb" => ColourDepth::Mono,
            _ => ColourDepth::Ansi16,
        }
    }

    /// [`ColourDepth::from_env_with`] the process environment.
    pub fn from_env() -> ColourDepth {
        ColourDepth::from_env_with(|k| std::env::var(k).ok())
    }

    /// `rgb` in this depth (None for mono).
    pub fn colour(self, [r, g, b]: [u8; 3]) -> Option<Color> {
        match self {
            ColourDepth::True => Some(Color::Rgb(r, g, b)),
            ColourDepth::Ansi256 => Some(Color::Indexed(ansi256(r, g, b))),
            ColourDepth::Ansi16 => Some(ansi16(r, g, b)),
            ColourDepth::Mono => None,
        }
    }

    /// Short name for the pane's header.
    pub fn name(self) -> &'static str {
        match self {
            ColourDepth::True => "truecolor",
            ColourDepth::Ansi256 => "256 colours",
            ColourDepth::Ansi16 => "16 colours",
            ColourDepth::Mono => "no colour",
        }
    }
}

/// The nearest colour of the xterm 256 palette: the 6×6×6 cube or the 24 greys.
pub fn ansi256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let level = |c: u8| {
        let mut best = 0usize;
        for (i, l) in LEVELS.iter().enumerate() {
            if c.abs_diff(*l) < c.abs_diff(LEVELS[best]) {
                best = i;
            }
        }
        best
    };
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let cube = [LEVELS[ri], LEVELS[gi], LEVELS[bi]];
    let cube_index = 16 + 36 * ri + 6 * gi + bi;
    let avg = (u16::from(r) + u16::from(g) + u16::from(b)) / 3;
    let grey_i = (avg.saturating_sub(3) / 10).min(23);
    let grey = (8 + 10 * grey_i) as u8;
    let dist = |c: [u8; 3]| {
        let d = |a: u8, b: u8| u32::from(a.abs_diff(b)).pow(2);
        d(c[0], r) + d(c[1], g) + d(c[2], b)
    };
    if dist([grey, grey, grey]) < dist(cube) { (232 + grey_i) as u8 } else { cube_index as u8 }
}

/// The nearest of the 16 ANSI colours (by their xterm defaults).
pub fn ansi16(r: u8, g: u8, b: u8) -> Color {
    const TABLE: [(Color, [u8; 3]); 16] = [
        (Color::Black, [0, 0, 0]),
        (Color::Red, [205, 0, 0]),
        (Color::Green, [0, 205, 0]),
        (Color::Yellow, [205, 205, 0]),
        (Color::Blue, [0, 0, 238]),
        (Color::Magenta, [205, 0, 205]),
        (Color::Cyan, [0, 205, 205]),
        (Color::Gray, [229, 229, 229]),
        (Color::DarkGray, [127, 127, 127]),
        (Color::LightRed, [255, 0, 0]),
        (Color::LightGreen, [0, 255, 0]),
        (Color::LightYellow, [255, 255, 0]),
        (Color::LightBlue, [92, 92, 255]),
        (Color::LightMagenta, [255, 0, 255]),
        (Color::LightCyan, [0, 255, 255]),
        (Color::White, [255, 255, 255]),
    ];
    let d = |c: [u8; 3]| {
        let d = |a: u8, b: u8| u32::from(a.abs_diff(b)).pow(2);
        d(c[0], r) + d(c[1], g) + d(c[2], b)
    };
    TABLE.iter().min_by_key(|(_, c)| d(*c)).map_or(Color::Reset, |(c, _)| *c)
}

/// The cells (columns, rows) an image of `w`×`h` pixels takes scaled to fit `cols`×`rows`
/// half-block cells (one pixel wide, two tall), keeping its aspect; at least one cell.
pub fn fit(w: u32, h: u32, cols: u16, rows: u16) -> (u16, u16) {
    if w == 0 || h == 0 || cols == 0 || rows == 0 {
        return (0, 0);
    }
    let scale = (f64::from(cols) / f64::from(w)).min(f64::from(rows) * 2.0 / f64::from(h));
    let c = ((f64::from(w) * scale).floor() as u16).clamp(1, cols);
    let r = ((f64::from(h) * scale / 2.0).ceil() as u16).clamp(1, rows);
    (c, r)
}

/// The greys of the checkerboard transparent texels are shown over (as image editors do):
/// squares of two columns by two half-cells, about square in a cell twice as tall as wide.
pub const CHECKER: [u8; 2] = [0x66, 0x99];

/// The picture's pixel under half-cell (`x`, `y`) of a `cols`×`rows*2` grid, composited
/// by its alpha over the checkerboard ([`CHECKER`]): a transparent texel shows the
/// checkerboard, not black.
fn sample(img: &DecodedImage, cols: u16, rows: u16, x: u16, y: u16) -> [u8; 3] {
    let sx = (u64::from(x) * u64::from(img.width) / u64::from(cols.max(1))) as u32;
    let sy = (u64::from(y) * u64::from(img.height) / (u64::from(rows.max(1)) * 2)) as u32;
    let [r, g, b, a] =
        img.pixel(sx.min(img.width.saturating_sub(1)), sy.min(img.height.saturating_sub(1))).unwrap_or([0; 4]);
    let under = u16::from(CHECKER[usize::from((x / 2 + y / 2) % 2)]);
    let over = |c: u8| ((u16::from(c) * u16::from(a) + under * (255 - u16::from(a))) / 255) as u8;
    [over(r), over(g), over(b)]
}

/// Luminance ramp for mono pictures, dark to light.
const RAMP: &[u8] = b" .:-=+*#%@";

/// Paint `img` fitted into `area` of `buf` as half-block cells in `depth`, centred
/// horizontally; the cells it took.
pub fn render_cells(img: &DecodedImage, depth: ColourDepth, area: Rect, buf: &mut Buffer) -> Rect {
    let (cols, rows) = fit(img.width, img.height, area.width, area.height);
    let at = Rect::new(area.x + (area.width - cols) / 2, area.y, cols, rows);
    for cy in 0..rows {
        for cx in 0..cols {
            let top = sample(img, cols, rows, cx, cy * 2);
            let bottom = sample(img, cols, rows, cx, cy * 2 + 1);
            let Some(cell) = buf.cell_mut((at.x + cx, at.y + cy)) else { continue };
            match (depth.colour(top), depth.colour(bottom)) {
                (Some(fg), Some(bg)) => {
                    cell.set_symbol("▀").set_style(Style::new().fg(fg).bg(bg));
                }
                _ => {
                    let lum = |c: [u8; 3]| 299 * u32::from(c[0]) + 587 * u32::from(c[1]) + 114 * u32::from(c[2]);
                    let l = (lum(top) + lum(bottom)) / 2 / 1000;
                    let i = (l as usize * (RAMP.len() - 1)) / 255;
                    let ch = RAMP.get(i).copied().unwrap_or(b' ');
                    cell.set_char(char::from(ch)).set_style(Style::new());
                }
            }
        }
    }
    at
}

/// A decoded picture of (document, node), or why there is none to show.
pub type Decoded = Result<Arc<DecodedImage>, String>;

/// The decode pane's texture preview: the last picture decoded (kept while the same node
/// is selected), how colours are drawn, and the graphics protocol detected, if any.
#[derive(Default)]
pub struct TexturePreview {
    /// Colour depth; None: read from the environment on first use.
    pub depth: Option<ColourDepth>,
    /// The graphics protocol detected at start ([`Graphics::Cells`] when none).
    pub graphics: Graphics,
    decoded: RefCell<Option<DecodedMemo>>,
    /// The protocol image made for the last (node, area), so a redraw sends nothing new.
    #[cfg(feature = "graphics")]
    protocol: RefCell<Option<ProtocolMemo>>,
}

/// The picture of (document, node), or None when the node is no picture.
type DecodedMemo = ((usize, NodeId), Option<Decoded>);
/// The protocol image made for (document, node, area).
#[cfg(feature = "graphics")]
type ProtocolMemo = ((usize, NodeId, Rect), ratatui_image::protocol::Protocol);

impl std::fmt::Debug for TexturePreview {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TexturePreview").field("depth", &self.depth).field("graphics", &self.graphics).finish()
    }
}

impl TexturePreview {
    fn depth(&self) -> ColourDepth {
        self.depth.unwrap_or_else(ColourDepth::from_env)
    }

    /// The picture of (document `d`, `node`) decoded by `decode` once while it stays
    /// selected; None when the node is no picture.
    pub fn picture(&self, key: (usize, NodeId), decode: impl FnOnce() -> Option<Decoded>) -> Option<Decoded> {
        let mut memo = self.decoded.borrow_mut();
        if let Some((k, d)) = memo.as_ref()
            && *k == key
        {
            return d.clone();
        }
        let d = decode();
        *memo = Some((key, d.clone()));
        d
    }

    /// Draw `img` into `area` (inside the pane's frame): a header line naming it, then the
    /// picture fitted below.
    pub fn draw(
        &self,
        key: (usize, NodeId),
        img: &DecodedImage,
        area: Rect,
        buf: &mut Buffer,
        theme: &super::theme::Theme,
    ) {
        if area.height == 0 || area.width == 0 {
            return;
        }
        let depth = if theme.mono { ColourDepth::Mono } else { self.depth() };
        let how = match self.graphics {
            Graphics::Cells => depth.name(),
            g => g.name(),
        };
        let header = format!("texture {} · {how}", crate::text::sanitize(&img.describe()));
        buf.set_stringn(
            area.x,
            area.y,
            header,
            usize::from(area.width),
            Style::new().add_modifier(ratatui::style::Modifier::BOLD),
        );
        let body = Rect::new(area.x, area.y + 1, area.width, area.height.saturating_sub(1));
        if body.height == 0 {
            return;
        }
        #[cfg(not(feature = "graphics"))]
        let _ = key;
        #[cfg(feature = "graphics")]
        if self.graphics != Graphics::Cells
            && let Some(picker) = self.graphics.picker()
        {
            let pkey = (key.0, key.1, body);
            let mut memo = self.protocol.borrow_mut();
            let fresh = memo.as_ref().is_none_or(|(k, _)| *k != pkey);
            if fresh {
                *memo = super::graphics::protocol_for(&picker, img, body).map(|p| (pkey, p));
            }
            if let Some((_, p)) = memo.as_ref() {
                ratatui::widgets::Widget::render(ratatui_image::Image::new(p), body, buf);
                return;
            }
        }
        render_cells(img, depth, body, buf);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let v: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        move |k| v.iter().find(|(a, _)| a == k).map(|(_, b)| b.clone())
    }

    #[test]
    fn colour_depth_follows_no_color_colorterm_and_term() {
        assert_eq!(
            ColourDepth::from_env_with(env(&[("COLORTERM", "truecolor"), ("TERM", "xterm")])),
            ColourDepth::True
        );
        assert_eq!(ColourDepth::from_env_with(env(&[("COLORTERM", "24bit")])), ColourDepth::True);
        assert_eq!(ColourDepth::from_env_with(env(&[("TERM", "xterm-256color")])), ColourDepth::Ansi256);
        assert_eq!(ColourDepth::from_env_with(env(&[("TERM", "xterm")])), ColourDepth::Ansi16);
        assert_eq!(ColourDepth::from_env_with(env(&[])), ColourDepth::Ansi16);
        assert_eq!(ColourDepth::from_env_with(env(&[("TERM", "dumb")])), ColourDepth::Mono);
        // NO_COLOR wins; an empty NO_COLOR is unset
        let both = [("NO_COLOR", "1"), ("COLORTERM", "truecolor")];
        assert_eq!(ColourDepth::from_env_with(env(&both)), ColourDepth::Mono);
        let empty = [("NO_COLOR", ""), ("COLORTERM", "truecolor")];
        assert_eq!(ColourDepth::from_env_with(env(&empty)), ColourDepth::True);
    }

    #[test]
    fn palette_reductions_pick_the_nearest_entry() {
        // xterm 256: cube corners and a mid grey
        assert_eq!(ansi256(255, 0, 0), 196);
        assert_eq!(ansi256(0, 255, 0), 46);
        assert_eq!(ansi256(0, 0, 0), 16);
        assert_eq!(ansi256(255, 255, 255), 231);
        assert_eq!(ansi256(0x40, 0x40, 0x40), 238); // grey ramp: 8 + 10·6 = 68 ≈ 0x40
        assert_eq!(ansi16(255, 0, 0), Color::LightRed);
        assert_eq!(ansi16(0x40, 0x40, 0x40), Color::DarkGray);
        assert_eq!(ansi16(0, 0, 0xff), Color::Blue);
    }

    /// A 4×4 picture: the top half opaque red, the bottom half transparent (alpha 0), one
    /// texel of it half transparent blue. In truecolor cells the red stays red and the
    /// transparent texels show the checkerboard's greys, never black.
    #[test]
    fn transparent_texels_show_the_checkerboard() {
        let mut rgba = Vec::new();
        for y in 0..4 {
            for x in 0..4 {
                rgba.extend(match (y, x) {
                    (0 | 1, _) => [255, 0, 0, 255],
                    (3, 3) => [0, 0, 255, 128],
                    _ => [0, 0, 0, 0],
                });
            }
        }
        let img = DecodedImage { width: 4, height: 4, rgba, format: "RGBA32".into(), clut: None, level: 0 };
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 2));
        let at = render_cells(&img, ColourDepth::True, Rect::new(0, 0, 4, 2), &mut buf);
        assert_eq!(at, Rect::new(0, 0, 4, 2), "a cell per column, two texel rows per cell");
        let grey = |v: u8| Color::Rgb(v, v, v);
        let (dark, light) = (grey(CHECKER[0]), grey(CHECKER[1]));
        for x in 0..4u16 {
            let top = buf.cell((x, 0)).unwrap();
            assert_eq!((top.fg, top.bg), (Color::Rgb(255, 0, 0), Color::Rgb(255, 0, 0)));
            let bottom = buf.cell((x, 1)).unwrap();
            // half-cells y = 2, 3: squares of two columns, dark where (x/2 + 1) is even
            let want = if (x / 2 + 1) % 2 == 0 { dark } else { light };
            assert_eq!(bottom.fg, want, "column {x}");
            if x < 3 {
                assert_eq!(bottom.bg, want, "column {x}");
            }
        }
        // the half-transparent blue over its square's grey, the dark one ((3/2 + 3/2) is
        // even): (0x66 × 127 + c × 128) / 255
        let mix = |c: u16| ((c * 128 + u16::from(CHECKER[0]) * 127) / 255) as u8;
        assert_eq!(buf.cell((3, 1)).unwrap().bg, Color::Rgb(mix(0), mix(0), mix(255)));
    }

    #[test]
    fn fit_keeps_the_aspect_in_half_block_cells() {
        // 16×16 px in 16 cols × 8 rows exactly; in a wide pane the height binds
        assert_eq!(fit(16, 16, 16, 8), (16, 8));
        assert_eq!(fit(16, 16, 80, 8), (16, 8));
        assert_eq!(fit(256, 256, 200, 58), (116, 58));
        // tiny textures grow to fill, huge ones shrink
        assert_eq!(fit(4, 4, 40, 20), (40, 20));
        assert_eq!(fit(4096, 1024, 80, 20), (80, 10));
        assert_eq!(fit(0, 4, 10, 10), (0, 0));
    }
}
