//! Terminal graphics protocols for the texture preview: which one (kitty, sixel, iTerm2)
//! the terminal supports is found by asking it (the kitty graphics query, device
//! attributes, XTVERSION and the cell size in pixels) and reading its replies — never
//! guessed from environment variables and never sent blind. Under tmux or screen nothing
//! is asked and cells are drawn (a multiplexer passes graphics only when configured to).
//! Over SSH the query reaches the user's terminal like any output, so detection works.
//!
//! The protocol encoding itself is ratatui-image's; its reply parser reads the answers.
//! Both are in the `graphics` cargo feature (on by default): built without it, nothing is
//! asked and pictures are always cells.
//! The TUI never waits for them: it draws with cells, sends the query after its first
//! frame, and the input reader ([`super::input`]) hands the replies to a [`Detection`]
//! whenever they arrive (a terminal that never answers keeps cells). The blocking
//! [`detect`] behind [`TerminalQuery`] remains for tests with fake replies.
//!
//! A reported cell size is trusted only within [`MAX_CELL_PX`] a side, and a picture is
//! scaled to at most [`MAX_PICTURE_PIXELS`] before anything the size of it is allocated.

#[cfg(feature = "graphics")]
use crate::model::image::DecodedImage;
use ratatui::layout::Rect;
#[cfg(feature = "graphics")]
use ratatui_image::picker::cap_parser::{Parser, QueryStdioOptions, Response};
#[cfg(feature = "graphics")]
use ratatui_image::picker::{Picker, ProtocolType};
use std::time::Duration;

/// How the preview draws pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Graphics {
    /// Half-block character cells (every terminal).
    #[default]
    Cells,
    /// The kitty graphics protocol, with the cell size in pixels.
    Kitty((u16, u16)),
    /// Sixel, with the cell size in pixels.
    Sixel((u16, u16)),
    /// The iTerm2 inline-image protocol, with the cell size in pixels.
    Iterm2((u16, u16)),
}

impl Graphics {
    /// Short name for the pane's header.
    pub fn name(self) -> &'static str {
        match self {
            Graphics::Cells => "cells",
            Graphics::Kitty(_) => "kitty graphics",
            Graphics::Sixel(_) => "sixel",
            Graphics::Iterm2(_) => "iTerm2 images",
        }
    }

    /// The ratatui-image picker for this protocol (None for cells, and under a terminal
    /// multiplexer whatever was detected: the crate's constructors would turn on tmux's
    /// passthrough).
    #[cfg(feature = "graphics")]
    pub fn picker(self) -> Option<Picker> {
        if under_multiplexer(&|k| std::env::var(k).ok()) {
            return None;
        }
        let (kind, font) = match self {
            Graphics::Cells => return None,
            Graphics::Kitty(f) => (ProtocolType::Kitty, f),
            Graphics::Sixel(f) => (ProtocolType::Sixel, f),
            Graphics::Iterm2(f) => (ProtocolType::Iterm2, f),
        };
        // `from_fontsize` is deprecated in favour of the crate's own stdio query, which
        // falls back to environment guesses (and changes tmux options): the query here is
        // ours, so only the cell size is handed over. Never reached under tmux.
        #[allow(deprecated)]
        let mut p = Picker::from_fontsize(font.into());
        p.set_protocol_type(kind);
        Some(p)
    }
}

/// Asks the terminal and returns what it answered.
pub trait TerminalQuery {
    /// Write `query` to the terminal and return the bytes it answered within `timeout`
    /// (stopping early once the answer to the final status request has arrived).
    fn ask(&mut self, query: &str, timeout: Duration) -> std::io::Result<Vec<u8>>;
}

/// XTVERSION: terminals answer `DCS > | name version ST`.
const XTVERSION: &str = "\x1b[>q";

/// The query sent: XTVERSION, then ratatui-image's (kitty graphics query, device
/// attributes, cell size in pixels, ending with a status request every terminal answers).
#[cfg(feature = "graphics")]
pub fn query_text() -> String {
    format!("{XTVERSION}{}", Parser::query(false, QueryStdioOptions::default()))
}

/// Without the `graphics` feature only the status request is sent (nothing to detect).
#[cfg(not(feature = "graphics"))]
pub fn query_text() -> String {
    let _ = XTVERSION;
    "\x1b[5n".to_string()
}

/// True when a terminal multiplexer sits between us and the terminal.
pub fn under_multiplexer(var: &dyn Fn(&str) -> Option<String>) -> bool {
    let set = |k: &str| var(k).filter(|v| !v.is_empty());
    set("TMUX").is_some()
        || set("STY").is_some()
        || set("TERM").is_some_and(|t| t.starts_with("tmux") || t.starts_with("screen"))
        || set("TERM_PROGRAM").is_some_and(|t| t == "tmux")
}

/// What the replies said: the terminal's XTVERSION name, and the parsed answers.
#[cfg(feature = "graphics")]
pub fn parse_replies(reply: &[u8]) -> (Option<String>, Vec<Response>) {
    let text = String::from_utf8_lossy(reply);
    let mut name = None;
    let mut rest = String::with_capacity(text.len());
    let mut s: &str = &text;
    while let Some(at) = s.find("\x1bP>|") {
        rest.push_str(&s[..at]);
        let after = &s[at + 4..];
        let end = after.find("\x1b\\").unwrap_or(after.len());
        name = Some(after[..end].to_string());
        s = after.get(end + 2..).unwrap_or("");
    }
    rest.push_str(s);
    let mut parser = Parser::new();
    let mut out = Vec::new();
    for c in rest.chars() {
        out.extend(parser.push(c));
    }
    (name, out)
}

/// Largest cell side, in pixels, believed from a terminal's `CSI 6;h;w t` (larger is clamped).
pub const MAX_CELL_PX: u16 = 256;
/// Most pixels a protocol picture is scaled to (16 Mi pixels, 64 MiB as RGBA).
pub const MAX_PICTURE_PIXELS: u64 = 16 << 20;

/// Decide from the replies: a terminal naming itself iTerm2 or WezTerm gets iTerm2 images;
/// Konsole gets cells (its sixel and kitty support draw wrongly); otherwise kitty when it
/// answered the kitty query, sixel when its device attributes list sixel (4). Without a
/// cell size in pixels no protocol can size a picture: cells.
#[cfg(feature = "graphics")]
pub fn decide(name: Option<&str>, replies: &[Response]) -> Graphics {
    let font = replies.iter().find_map(|r| match r {
        Response::CellSize(Some((w, h))) if *w > 0 && *h > 0 => Some(((*w).min(MAX_CELL_PX), (*h).min(MAX_CELL_PX))),
        _ => None,
    });
    let Some(font) = font else { return Graphics::Cells };
    let name = name.unwrap_or("").to_ascii_lowercase();
    if name.contains("konsole") {
        return Graphics::Cells;
    }
    if name.contains("iterm2") || name.contains("wezterm") {
        return Graphics::Iterm2(font);
    }
    if replies.contains(&Response::Kitty) {
        return Graphics::Kitty(font);
    }
    if replies.contains(&Response::Sixel) {
        return Graphics::Sixel(font);
    }
    Graphics::Cells
}

/// Detect the protocol: nothing is asked under a multiplexer or when
/// `ANIMSCOPE_GRAPHICS=cells`; a failed or silent query means cells.
pub fn detect(var: &dyn Fn(&str) -> Option<String>, term: &mut dyn TerminalQuery) -> Graphics {
    if under_multiplexer(var) || var("ANIMSCOPE_GRAPHICS").is_some_and(|v| v == "cells") {
        return Graphics::Cells;
    }
    match term.ask(&query_text(), Duration::from_millis(800)) {
        Ok(reply) => decide_replies(&reply),
        Err(_) => Graphics::Cells,
    }
}

/// The protocol the whole of a terminal's replies to [`query_text`] allow.
#[cfg(feature = "graphics")]
fn decide_replies(reply: &[u8]) -> Graphics {
    let (name, replies) = parse_replies(reply);
    decide(name.as_deref(), &replies)
}

/// Without the `graphics` feature: cells, whatever the terminal said.
#[cfg(not(feature = "graphics"))]
fn decide_replies(_: &[u8]) -> Graphics {
    Graphics::Cells
}

/// Whether the TUI asks the terminal at all: not under a multiplexer, not with
/// `ANIMSCOPE_GRAPHICS=cells`.
pub fn should_ask(var: &dyn Fn(&str) -> Option<String>) -> bool {
    cfg!(feature = "graphics") && !(under_multiplexer(var) || var("ANIMSCOPE_GRAPHICS").is_some_and(|v| v == "cells"))
}

/// Detection without waiting: the replies to [`query_text`] collected as the input reader
/// recognises them; the answer to its final status request decides.
#[derive(Debug, Default)]
pub struct Detection {
    replies: Vec<u8>,
    asked: bool,
    done: bool,
}

/// The status request's answer, which ends the replies.
const STATUS_OK: &[u8] = b"\x1b[0n";

impl Detection {
    /// The query was sent.
    pub fn asked(&mut self) {
        self.asked = true;
    }

    /// True once the terminal answered the whole query (it answers status requests).
    pub fn answered(&self) -> bool {
        self.done
    }

    /// One reply sequence arrived; the protocol once the query's replies are complete.
    /// Replies that come after (or without) the query change nothing.
    pub fn feed(&mut self, seq: &[u8]) -> Option<Graphics> {
        if !self.asked || self.done {
            return None;
        }
        if seq == STATUS_OK {
            self.done = true;
            let replies = std::mem::take(&mut self.replies);
            return Some(decide_replies(&replies));
        }
        if self.replies.len() + seq.len() <= 16 * 1024 {
            self.replies.extend_from_slice(seq);
        }
        None
    }
}

/// The real terminal: the query written to stdout, the answer read from stdin (raw mode
/// must be on, and nothing else reading stdin yet).
#[derive(Debug, Default)]
pub struct Stdio;

impl TerminalQuery for Stdio {
    fn ask(&mut self, query: &str, timeout: Duration) -> std::io::Result<Vec<u8>> {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        use std::io::Write;
        let stdin = std::io::stdin();
        if !rustix::termios::isatty(&stdin) {
            return Err(std::io::Error::other("stdin is not a terminal"));
        }
        let mut out = std::io::stdout();
        out.write_all(query.as_bytes())?;
        out.flush()?;
        let start = std::time::Instant::now();
        let mut reply = Vec::new();
        let mut buf = [0u8; 256];
        // the status request's answer (`ESC [ 0 n`) ends the replies
        while !reply.windows(4).any(|w| w == b"\x1b[0n") {
            let left = timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                break;
            }
            let ts = Timespec { tv_sec: left.as_secs() as i64, tv_nsec: i64::from(left.subsec_nanos()) };
            let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
            if poll(&mut fds, Some(&ts)).map_err(std::io::Error::from)? == 0 {
                break;
            }
            let n = rustix::io::read(&stdin, &mut buf).map_err(std::io::Error::from)?;
            if n == 0 {
                break;
            }
            reply.extend_from_slice(buf.get(..n).unwrap_or(&[]));
        }
        Ok(reply)
    }
}

/// The pixel size `img` (`w`×`h`) is scaled to for `area` with cells of `font` pixels:
/// as large as the area's pixels and its aspect allow, and never more than
/// [`MAX_PICTURE_PIXELS`].
pub fn picture_size((iw, ih): (u32, u32), (fw, fh): (u16, u16), area: Rect) -> (u32, u32) {
    let (cols, rows) = super::texture::fit(
        iw,
        ih,
        area.width,
        // cells of `fit` are half as tall as a pixel cell is wide: in pixels, the area's
        // rows carry fh/fw × the width's pixels per cell
        area.height,
    );
    let (tw, th) = (u32::from(cols) * u32::from(fw), u32::from(rows) * u32::from(fh));
    let scale = (f64::from(tw) / f64::from(iw.max(1))).min(f64::from(th) / f64::from(ih.max(1)));
    let (mut w, mut h) = (((f64::from(iw) * scale) as u32).max(1), ((f64::from(ih) * scale) as u32).max(1));
    // never more pixels than a sane display has, whatever the cell size or area
    if u64::from(w) * u64::from(h) > MAX_PICTURE_PIXELS {
        let f = (MAX_PICTURE_PIXELS as f64 / (f64::from(w) * f64::from(h))).sqrt();
        (w, h) = (((f64::from(w) * f).floor() as u32).max(1), ((f64::from(h) * f).floor() as u32).max(1));
    }
    (w, h)
}

/// The protocol image of `img` for `area`: scaled by nearest neighbour to fill as many
/// pixels of the area as its aspect allows, then encoded by ratatui-image.
#[cfg(feature = "graphics")]
pub fn protocol_for(picker: &Picker, img: &DecodedImage, area: Rect) -> Option<ratatui_image::protocol::Protocol> {
    let ratatui_image::FontSize { width: fw, height: fh } = picker.font_size();
    let (w, h) = picture_size((img.width, img.height), (fw, fh), area);
    let buf = image::RgbaImage::from_raw(img.width, img.height, img.rgba.clone())?;
    let scaled = image::imageops::resize(&buf, w, h, image::imageops::FilterType::Nearest);
    picker
        .new_protocol(
            image::DynamicImage::ImageRgba8(scaled),
            ratatui::layout::Size::new(area.width, area.height),
            ratatui_image::Resize::Fit(None),
        )
        .ok()
}

#[cfg(all(test, feature = "graphics"))]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    /// A terminal that answers with canned bytes and records what it was asked.
    struct Fake {
        reply: std::io::Result<Vec<u8>>,
        asked: Vec<String>,
    }

    impl Fake {
        fn answering(reply: &str) -> Fake {
            Fake { reply: Ok(reply.as_bytes().to_vec()), asked: Vec::new() }
        }
    }

    impl TerminalQuery for Fake {
        fn ask(&mut self, query: &str, _: Duration) -> std::io::Result<Vec<u8>> {
            self.asked.push(query.to_string());
            match &self.reply {
                Ok(r) => Ok(r.clone()),
                Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
            }
        }
    }

    fn no_env(_: &str) -> Option<String> {
        None
    }

    // Replies as terminals send them: kitty's graphics answer `ESC _ G i=31;OK ESC \`,
    // DA1 `ESC [ ? 62;4;22 c` (4 = sixel), cell size `ESC [ 6 ; h ; w t`, status `ESC [ 0 n`.
    const KITTY: &str = "\x1bP>|kitty(0.32.2)\x1b\\\x1b_Gi=31;OK\x1b\\\x1b[?62;c\x1b[6;20;10t\x1b[0n";
    const XTERM_SIXEL: &str = "\x1bP>|XTerm(390)\x1b\\\x1b[?63;1;2;4;6;9;15;22c\x1b[6;17;9t\x1b[0n";
    const ITERM: &str = "\x1bP>|iTerm2 3.5.0\x1b\\\x1b[?62;4c\x1b[6;32;14t\x1b[0n";
    const PLAIN: &str = "\x1b[?62;22c\x1b[6;16;8t\x1b[0n";

    #[test]
    fn replies_decide_the_protocol() {
        let cases = [
            (KITTY, Graphics::Kitty((10, 20))),
            (XTERM_SIXEL, Graphics::Sixel((9, 17))),
            (ITERM, Graphics::Iterm2((14, 32))),
            (PLAIN, Graphics::Cells),
            ("\x1bP>|Konsole 23\x1b\\\x1b[?62;4c\x1b[6;16;8t\x1b[0n", Graphics::Cells),
            // sixel listed but no cell size: cannot size a picture
            ("\x1b[?62;4c\x1b[0n", Graphics::Cells),
        ];
        for (reply, want) in cases {
            let mut t = Fake::answering(reply);
            assert_eq!(detect(&no_env, &mut t), want, "{reply:?}");
            assert_eq!(t.asked, vec![query_text()]);
        }
        let (name, _) = parse_replies(ITERM.as_bytes());
        assert_eq!(name.as_deref(), Some("iTerm2 3.5.0"));
    }

    /// Class 13: a terminal reporting 65535x65535-pixel cells gets 256x256 (the largest
    /// believed), and a picture for a 500x200-cell area at that size is scaled to the cap.
    #[test]
    fn absurd_cell_sizes_are_clamped_and_pictures_capped() {
        let g = decide(None, &[Response::Kitty, Response::CellSize(Some((65535, 65535)))]);
        assert_eq!(g, Graphics::Kitty((256, 256)));
        let g = decide(None, &[Response::Sixel, Response::CellSize(Some((2000, 9)))]);
        assert_eq!(g, Graphics::Sixel((256, 9)));
        // a 4x4 picture in 500x200 cells of 256x256 px: fitted, it would be 51200x51200
        // pixels (2.6 G, 10 GiB as RGBA); capped it is the largest square within 16 Mi
        let (w, h) = picture_size((4, 4), (256, 256), Rect::new(0, 0, 500, 200));
        assert!(u64::from(w) * u64::from(h) <= MAX_PICTURE_PIXELS && w == h && w > 4000, "{w}x{h}");
        // a small cell size is left alone: 20x10 cells of 8x16 px fit a 4x4 picture in 80x80
        let (w, h) = picture_size((4, 4), (8, 16), Rect::new(0, 0, 20, 10));
        assert!(w == h && (40..=160).contains(&w), "{w}x{h}");
    }

    /// Replies fed one sequence at a time, in any delay: the status answer decides; replies
    /// without a query, or after the decision, change nothing.
    #[test]
    fn detection_decides_when_the_status_answer_arrives() {
        let mut d = Detection::default();
        assert_eq!(d.feed(b"\x1b[0n"), None, "nothing was asked");
        d.asked();
        let seqs: [&[u8]; 4] = [b"\x1bP>|XTerm(390)\x1b\\", b"\x1b[?63;1;2;4;6;9;15;22c", b"\x1b[6;17;9t", b"\x1b[0n"];
        let got: Vec<Option<Graphics>> = seqs.iter().map(|s| d.feed(s)).collect();
        assert_eq!(got, vec![None, None, None, Some(Graphics::Sixel((9, 17)))]);
        assert!(d.answered());
        assert_eq!(d.feed(b"\x1b[0n"), None);
    }

    #[test]
    fn the_query_asks_for_kitty_device_attributes_cell_size_and_status() {
        let q = query_text();
        assert!(q.starts_with("\x1b[>q"));
        for part in ["\x1b_Gi=31,s=1,v=1,a=q", "\x1b[c", "\x1b[16t"] {
            assert!(q.contains(part), "{q:?} lacks {part:?}");
        }
        assert!(q.ends_with("\x1b[5n"));
    }

    #[test]
    fn nothing_is_asked_under_tmux_or_screen_and_silence_means_cells() {
        for (k, v) in
            [("TMUX", "/tmp/tmux-0/default,1,0"), ("TERM", "tmux-256color"), ("TERM", "screen"), ("STY", "1.pts")]
        {
            let env = move |key: &str| (key == k).then(|| v.to_string());
            let mut t = Fake::answering(KITTY);
            assert_eq!(detect(&env, &mut t), Graphics::Cells, "{k}={v}");
            assert!(t.asked.is_empty(), "{k}={v}: asked {:?}", t.asked);
        }
        let off = |k: &str| (k == "ANIMSCOPE_GRAPHICS").then(|| "cells".to_string());
        let mut t = Fake::answering(KITTY);
        assert_eq!(detect(&off, &mut t), Graphics::Cells);
        assert!(t.asked.is_empty());
        // a terminal that answers nothing, or a failed query
        assert_eq!(detect(&no_env, &mut Fake::answering("")), Graphics::Cells);
        let mut broken = Fake { reply: Err(std::io::Error::other("no tty")), asked: Vec::new() };
        assert_eq!(detect(&no_env, &mut broken), Graphics::Cells);
    }
}
