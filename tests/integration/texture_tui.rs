//! The decode pane's texture preview on a TestBackend: selecting the `stripes.cmp`
//! fixture's texture (CLUT stripes of known colours) shows them in half-block cells in
//! truecolor, 256 and 16 colours or as characters without colour; a terminal graphics
//! protocol is used only when detection found one, and a failed detection draws nothing
//! but cells.

use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::tui::graphics::{self, Graphics, TerminalQuery};
use animscope::tui::texture::ColourDepth;
use animscope::tui::{App, Config};
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use std::path::Path;

use crate::support::{press, render, text};

/// The app on `stripes.cmp` with its Texture node selected, colours drawn in `depth`.
fn app_on_stripes(depth: ColourDepth) -> App {
    let o = Opened::open_path(Path::new("fixtures/ccsf/stripes.cmp"), Default::default(), None, &Limits::default())
        .expect("opens");
    let mut app = App::new(o, Config::default());
    app.decode.texture.depth = Some(depth);
    for _ in 0..12 {
        if text(&render(&mut app, 200, 60)).contains("Texture · ") {
            return app;
        }
        press(&mut app, "j");
    }
    panic!("no Texture node reached:\n{}", text(&render(&mut app, 200, 60)));
}

/// The bounding box (x0, y0, x1, y1 inclusive) of the half-block cells.
fn picture_box(buf: &Buffer) -> (u16, u16, u16, u16) {
    let mut b = (u16::MAX, u16::MAX, 0, 0);
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            if buf[(x, y)].symbol() == "▀" {
                b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            }
        }
    }
    assert!(b.0 <= b.2, "no half-block cells drawn");
    b
}

/// (fg, bg) at the middle of stripe `i` (0..4) on the picture's first and last rows.
fn stripe_cells(buf: &Buffer, i: u16) -> ((Color, Color), (Color, Color)) {
    let (x0, y0, x1, y1) = picture_box(buf);
    let w = x1 - x0 + 1;
    let x = x0 + w * (2 * i + 1) / 8;
    let c = |y: u16| (buf[(x, y)].fg, buf[(x, y)].bg);
    (c(y0), c(y1))
}

#[test]
fn truecolor_cells_show_the_clut_stripes_top_and_bottom() {
    let mut app = app_on_stripes(ColourDepth::True);
    let buf = render(&mut app, 200, 60);
    let screen = text(&buf);
    assert!(screen.contains("texture 16×16 PSMT4 via CLUT CLT_stripes · truecolor"), "{screen}");
    let (x0, y0, x1, y1) = picture_box(&buf);
    // square picture, half-block cells: twice as many columns as rows
    assert_eq!(x1 - x0 + 1, 2 * (y1 - y0 + 1), "{screen}");
    let rgb = |r, g, b| Color::Rgb(r, g, b);
    let top = [rgb(255, 0, 0), rgb(0, 255, 0), rgb(0, 0, 255), rgb(255, 255, 255)];
    let bottom = [rgb(255, 255, 0), rgb(0, 255, 255), rgb(255, 0, 255), rgb(0x40, 0x40, 0x40)];
    for i in 0..4u16 {
        let (t, b) = stripe_cells(&buf, i);
        assert_eq!(t, (top[usize::from(i)], top[usize::from(i)]), "stripe {i} top");
        assert_eq!(b, (bottom[usize::from(i)], bottom[usize::from(i)]), "stripe {i} bottom");
    }
}

#[test]
fn fewer_colours_reduce_to_the_nearest_palette_entry_and_no_color_draws_characters() {
    let buf = render(&mut app_on_stripes(ColourDepth::Ansi256), 200, 60);
    assert!(text(&buf).contains("· 256 colours"));
    // xterm 256: red 196, green 46, blue 21, white 231; yellow 226, cyan 51, magenta 201, grey 238
    let want = [(196, 226), (46, 51), (21, 201), (231, 238)];
    for (i, (t, b)) in want.into_iter().enumerate() {
        let (top, bottom) = stripe_cells(&buf, i as u16);
        assert_eq!((top.0, bottom.0), (Color::Indexed(t), Color::Indexed(b)), "stripe {i}");
    }
    let buf = render(&mut app_on_stripes(ColourDepth::Ansi16), 200, 60);
    let want = [
        (Color::LightRed, Color::LightYellow),
        (Color::LightGreen, Color::LightCyan),
        (Color::Blue, Color::LightMagenta),
        (Color::White, Color::DarkGray),
    ];
    for (i, (t, b)) in want.into_iter().enumerate() {
        let (top, bottom) = stripe_cells(&buf, i as u16);
        assert_eq!((top.0, bottom.0), (t, b), "stripe {i}");
    }
    // no colour: luminance characters, no half blocks, no colours set
    let buf = render(&mut app_on_stripes(ColourDepth::Mono), 200, 60);
    assert!(!buf.content().iter().any(|c| c.symbol() == "▀"));
    assert!(text(&buf).contains("@@@@"), "white stripe as the densest character:\n{}", text(&buf));
}

/// A terminal that answers with canned bytes.
struct Fake(Option<&'static str>);

impl TerminalQuery for Fake {
    fn ask(&mut self, _: &str, _: std::time::Duration) -> std::io::Result<Vec<u8>> {
        match self.0 {
            Some(r) => Ok(r.as_bytes().to_vec()),
            None => Err(std::io::Error::other("no terminal")),
        }
    }
}

fn escapes(buf: &Buffer) -> usize {
    buf.content().iter().filter(|c| c.symbol().contains('\x1b')).count()
}

#[test]
fn a_failed_detection_draws_only_cells_and_a_detected_protocol_sends_its_image() {
    let env = |_: &str| None;
    for reply in [None, Some(""), Some("\x1b[?62;22c\x1b[0n")] {
        let mut app = app_on_stripes(ColourDepth::True);
        app.decode.texture.graphics = graphics::detect(&env, &mut Fake(reply));
        assert_eq!(app.decode.texture.graphics, Graphics::Cells);
        let buf = render(&mut app, 200, 60);
        assert_eq!(escapes(&buf), 0, "{reply:?}: escape sequences in cells");
        picture_box(&buf);
    }
    // kitty answered: the picture goes out as kitty graphics (escapes in the buffer), not cells
    // (built without the `graphics` feature: cells whatever the terminal says)
    if cfg!(not(feature = "graphics")) {
        return;
    }
    let kitty = "\x1b_Gi=31;OK\x1b\\\x1b[?62;c\x1b[6;20;10t\x1b[0n";
    let mut app = app_on_stripes(ColourDepth::True);
    app.decode.texture.graphics = graphics::detect(&env, &mut Fake(Some(kitty)));
    assert_eq!(app.decode.texture.graphics, Graphics::Kitty((10, 20)));
    let buf = render(&mut app, 200, 60);
    assert!(text(&buf).contains("· kitty graphics"));
    if graphics::under_multiplexer(&|k| std::env::var(k).ok()) {
        // run inside tmux/screen: the protocol is refused whatever was detected
        assert_eq!(escapes(&buf), 0);
        return;
    }
    assert!(escapes(&buf) > 0, "kitty image not sent");
    assert!(buf.content().iter().any(|c| c.symbol().contains("\x1b_G")));
    assert!(!buf.content().iter().any(|c| c.symbol() == "▀"));
}
