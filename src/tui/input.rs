//! The TUI's input: bytes read from the terminal ourselves (not through crossterm's event
//! reader) and split into key presses, mouse events and the terminal's replies to our
//! queries, which are recognised and kept apart for the whole run, never read as keys.
//!
//! Why our own reader: crossterm turns a late reply into key presses (`ESC P > | XTerm(390)
//! ESC \` reads as alt-P, `>`, `|`, `X`, `T`, `e` …, so the `e` opened the export prompt), and
//! a `CSI 6;h;w t` cell-size reply makes its parser drop the bytes after it.
//!
//! Recognised as replies (swallowed): DCS, APC, OSC, PM and SOS strings (XTVERSION, kitty
//! graphics, colour reports), and CSI sequences that no key sends: device attributes
//! (`CSI ? … c`, `CSI > … c`), window reports (`CSI … t`), mode reports (`CSI ? … $ y`),
//! status reports (`CSI … n`), cursor position reports (`CSI row;col R` with row > 1: row 1
//! is ambiguous with shifted F3 and reads as that key), kitty keyboard flags (`CSI ? … u`).
//!
//! Ambiguity that timing decides: a lone `ESC` at the end of what the terminal sent is the
//! Esc key once [`ESC_WAIT`] passes with nothing more (a sequence split across reads is
//! joined first). `ESC` and a character arriving together read as alt-character only when
//! the keymap binds that alt chord; otherwise as Esc then the character (a quick Esc and a
//! key over a slow link arrive together). A DCS/APC/OSC introducer at the very end of a
//! read is the alt key it also is (a reply never ends there). Unknown: terminals that
//! split one reply over reads more than [`STRING_WAIT`] apart would have the rest read as
//! keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use std::time::Duration;

/// How long a lone ESC (or an unfinished CSI/SS3 sequence) waits for the rest.
pub const ESC_WAIT: Duration = Duration::from_millis(40);
/// How long an unfinished DCS/APC/OSC string waits for its terminator before it is dropped.
pub const STRING_WAIT: Duration = Duration::from_millis(1000);
/// Longest reply string kept (longer ones are dropped whole, up to their terminator).
const MAX_STRING: usize = 4096;

/// One thing the terminal sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event (SGR encoding).
    Mouse(MouseEvent),
    /// A reply to a query, whole (from its ESC to its terminator).
    Reply(Vec<u8>),
}

/// Splits terminal input into [`Input`]s (see the module docs).
#[derive(Debug, Default)]
pub struct Parser {
    buf: Vec<u8>,
    /// Characters bound as alt-chords in the keymap.
    alt_chars: Vec<char>,
}

/// What the bytes at the start of the buffer are.
enum Step {
    /// An input and how many bytes it used.
    Got(Option<Input>, usize),
    /// Unfinished: more bytes are needed.
    More,
}

fn key(code: KeyCode, mods: KeyModifiers) -> Option<Input> {
    Some(Input::Key(KeyEvent::new(code, mods)))
}

/// The modifiers of xterm's `1 + bits` parameter.
fn modifiers(p: u16) -> KeyModifiers {
    let bits = p.saturating_sub(1);
    let mut m = KeyModifiers::NONE;
    if bits & 1 != 0 {
        m |= KeyModifiers::SHIFT;
    }
    if bits & 2 != 0 {
        m |= KeyModifiers::ALT;
    }
    if bits & 4 != 0 {
        m |= KeyModifiers::CONTROL;
    }
    m
}

/// A plain byte (not ESC) as a key.
fn byte_key(b: u8) -> Option<Input> {
    match b {
        b'\r' => key(KeyCode::Enter, KeyModifiers::NONE),
        b'\t' => key(KeyCode::Tab, KeyModifiers::NONE),
        0x7f | 0x08 => key(KeyCode::Backspace, KeyModifiers::NONE),
        0 => key(KeyCode::Char(' '), KeyModifiers::CONTROL),
        0x01..=0x1a => key(KeyCode::Char(char::from(b - 1 + b'a')), KeyModifiers::CONTROL),
        0x1c..=0x1f => key(KeyCode::Char(char::from(b - 0x1c + b'4')), KeyModifiers::CONTROL),
        b'A'..=b'Z' => key(KeyCode::Char(char::from(b)), KeyModifiers::SHIFT),
        0x20..=0x7e => key(KeyCode::Char(char::from(b)), KeyModifiers::NONE),
        _ => None,
    }
}

/// Length of the UTF-8 character starting with `b` (1 for a stray continuation byte).
fn utf8_len(b: u8) -> usize {
    match b {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

impl Parser {
    /// A parser; `alt_chars` are the characters the keymap binds with alt.
    pub fn new(alt_chars: Vec<char>) -> Parser {
        Parser { buf: Vec::new(), alt_chars }
    }

    /// Add bytes read from the terminal (one read: see the module docs on what that means).
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// How long to wait for more bytes before [`Parser::flush`] (None: nothing pending).
    pub fn wait(&self) -> Option<Duration> {
        match self.buf.as_slice() {
            [] => None,
            [0x1b, b'P' | b'_' | b']' | b'^' | b'X', _, ..] => Some(STRING_WAIT),
            _ => Some(ESC_WAIT),
        }
    }

    /// The complete inputs at the start of the buffer (what is unfinished stays).
    pub fn events(&mut self) -> Vec<Input> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < self.buf.len() {
            match self.step(at, false) {
                Step::Got(i, n) => {
                    out.extend(i);
                    at += n.max(1);
                }
                Step::More => break,
            }
        }
        self.buf.drain(..at.min(self.buf.len()));
        out
    }

    /// Nothing more came within [`Parser::wait`]: what is left is resolved (a lone ESC is
    /// the Esc key, an unfinished reply string is dropped, an unfinished CSI is dropped).
    pub fn flush(&mut self) -> Vec<Input> {
        let mut out = self.events();
        let mut at = 0;
        while at < self.buf.len() {
            match self.step(at, true) {
                Step::Got(i, n) => {
                    out.extend(i);
                    at += n.max(1);
                }
                Step::More => break,
            }
        }
        self.buf.clear();
        out
    }

    fn step(&self, at: usize, end: bool) -> Step {
        let b = &self.buf[at..];
        let Some(&first) = b.first() else { return Step::More };
        if first != 0x1b {
            if first < 0x80 {
                return Step::Got(byte_key(first), 1);
            }
            let n = utf8_len(first);
            if b.len() < n {
                return if end { Step::Got(None, b.len()) } else { Step::More };
            }
            let c = std::str::from_utf8(&b[..n]).ok().and_then(|s| s.chars().next());
            return Step::Got(c.and_then(|c| key(KeyCode::Char(c), KeyModifiers::NONE)), n);
        }
        let Some(&second) = b.get(1) else {
            return if end { Step::Got(key(KeyCode::Esc, KeyModifiers::NONE), 1) } else { Step::More };
        };
        match second {
            b'[' => self.csi(b, end),
            b'O' => match b.get(2) {
                None if end => self.alt_or_esc(b'O'),
                None => Step::More,
                Some(&c) => Step::Got(ss3_key(c), 3),
            },
            b'P' | b'_' | b']' | b'^' | b'X' => {
                if b.len() == 2 {
                    // the introducer ends what the terminal sent: the alt key it also is
                    return if end { self.alt_or_esc(second) } else { Step::More };
                }
                string(b, second == b']', end)
            }
            0x1b => Step::Got(key(KeyCode::Esc, KeyModifiers::NONE), 1),
            _ => {
                // ESC + a key arriving together: alt-key only when that chord is bound
                let n = if second >= 0x80 { utf8_len(second) } else { 1 };
                if b.len() < 1 + n {
                    return if end { Step::Got(None, b.len()) } else { Step::More };
                }
                let c = std::str::from_utf8(&b[1..1 + n]).ok().and_then(|s| s.chars().next());
                match c {
                    Some(c) if self.alt_chars.contains(&c) => {
                        let mods = if c.is_ascii_uppercase() {
                            KeyModifiers::ALT | KeyModifiers::SHIFT
                        } else {
                            KeyModifiers::ALT
                        };
                        Step::Got(key(KeyCode::Char(c), mods), 1 + n)
                    }
                    _ => Step::Got(key(KeyCode::Esc, KeyModifiers::NONE), 1),
                }
            }
        }
    }

    /// `ESC c` ending what was read: alt-c when bound, else Esc (and `c` is read next).
    fn alt_or_esc(&self, c: u8) -> Step {
        let c = char::from(c);
        if self.alt_chars.contains(&c) {
            let shift = if c.is_ascii_uppercase() { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
            Step::Got(key(KeyCode::Char(c), KeyModifiers::ALT | shift), 2)
        } else {
            Step::Got(key(KeyCode::Esc, KeyModifiers::NONE), 1)
        }
    }

    fn csi(&self, b: &[u8], end: bool) -> Step {
        // ESC [ then parameter bytes 0x30..=0x3f, intermediates 0x20..=0x2f, a final 0x40..=0x7e
        let mut i = 2;
        // the legacy X10 mouse (`CSI M b x y`): three raw bytes follow
        if b.get(2) == Some(&b'M') {
            return if b.len() >= 6 || end { Step::Got(None, b.len().min(6)) } else { Step::More };
        }
        while let Some(&c) = b.get(i) {
            match c {
                0x20..=0x3f => i += 1,
                0x40..=0x7e => {
                    let seq = &b[..=i];
                    return Step::Got(csi_input(seq), i + 1);
                }
                // not a CSI after all: drop the introducer
                _ => return Step::Got(None, i),
            }
            if i > 64 {
                return Step::Got(None, i);
            }
        }
        if end {
            if b.len() == 2 {
                return self.alt_or_esc(b'[');
            }
            return Step::Got(None, b.len());
        }
        Step::More
    }
}

/// A DCS/APC/OSC/PM/SOS string: up to ST (`ESC \`), or BEL for OSC.
fn string(b: &[u8], bel_ends: bool, end: bool) -> Step {
    let mut i = 2;
    while let Some(&c) = b.get(i) {
        if c == 0x1b && b.get(i + 1) == Some(&b'\\') {
            let n = i + 2;
            let reply = (n <= MAX_STRING).then(|| Input::Reply(b[..n].to_vec()));
            return Step::Got(reply, n);
        }
        if c == 0x1b && b.get(i + 1).is_some() {
            // a new sequence starts: this string was cut short; drop it
            return Step::Got(None, i);
        }
        if c == 0x07 && bel_ends {
            return Step::Got(Some(Input::Reply(b[..=i].to_vec())), i + 1);
        }
        i += 1;
    }
    if end { Step::Got(None, b.len()) } else { Step::More }
}

/// The parameters of a CSI sequence's parameter bytes (`1;5` → [1, 5]; empty → 0).
fn params(p: &[u8]) -> Vec<u16> {
    p.split(|&c| c == b';' || c == b':')
        .map(|s| {
            s.iter().fold(0u16, |n, &d| {
                if d.is_ascii_digit() { n.saturating_mul(10).saturating_add(u16::from(d - b'0')) } else { n }
            })
        })
        .collect()
}

/// A whole CSI sequence (`ESC [ … final`) as an input.
fn csi_input(seq: &[u8]) -> Option<Input> {
    let fin = *seq.last()?;
    let body = &seq[2..seq.len() - 1];
    let private = body.first().copied().filter(|c| matches!(c, b'?' | b'>' | b'<' | b'='));
    let reply = || Some(Input::Reply(seq.to_vec()));
    if private == Some(b'<') && matches!(fin, b'M' | b'm') {
        return sgr_mouse(&body[1..], fin == b'M');
    }
    let p = params(body);
    let p0 = p.first().copied().unwrap_or(0);
    let mods = modifiers(p.get(1).copied().unwrap_or(1));
    if private.is_some() || body.iter().any(|c| (0x20..=0x2f).contains(c)) {
        // device attributes, mode reports, kitty keyboard flags: never a key
        return reply();
    }
    match fin {
        b'c' | b't' | b'n' | b'y' => reply(),
        b'R' if p.len() == 2 && p0 > 1 => reply(),
        b'A' => key(KeyCode::Up, mods),
        b'B' => key(KeyCode::Down, mods),
        b'C' => key(KeyCode::Right, mods),
        b'D' => key(KeyCode::Left, mods),
        b'H' => key(KeyCode::Home, mods),
        b'F' => key(KeyCode::End, mods),
        b'Z' => key(KeyCode::BackTab, KeyModifiers::SHIFT),
        b'P' => key(KeyCode::F(1), mods),
        b'Q' => key(KeyCode::F(2), mods),
        b'R' => key(KeyCode::F(3), mods),
        b'S' => key(KeyCode::F(4), mods),
        b'~' => {
            let code = match p0 {
                1 | 7 => KeyCode::Home,
                2 => KeyCode::Insert,
                3 => KeyCode::Delete,
                4 | 8 => KeyCode::End,
                5 => KeyCode::PageUp,
                6 => KeyCode::PageDown,
                11..=15 => KeyCode::F((p0 - 10) as u8),
                17..=21 => KeyCode::F((p0 - 11) as u8),
                23..=26 => KeyCode::F((p0 - 12) as u8),
                28 | 29 => KeyCode::F((p0 - 13) as u8),
                31..=34 => KeyCode::F((p0 - 14) as u8),
                _ => return None,
            };
            key(code, mods)
        }
        // focus in/out, bracketed paste markers and anything else: nothing
        _ => None,
    }
}

fn ss3_key(c: u8) -> Option<Input> {
    let none = KeyModifiers::NONE;
    match c {
        b'A' => key(KeyCode::Up, none),
        b'B' => key(KeyCode::Down, none),
        b'C' => key(KeyCode::Right, none),
        b'D' => key(KeyCode::Left, none),
        b'H' => key(KeyCode::Home, none),
        b'F' => key(KeyCode::End, none),
        b'P' => key(KeyCode::F(1), none),
        b'Q' => key(KeyCode::F(2), none),
        b'R' => key(KeyCode::F(3), none),
        b'S' => key(KeyCode::F(4), none),
        b'M' => key(KeyCode::Enter, none),
        _ => None,
    }
}

/// `CSI < b ; x ; y M|m` (x and y from 1).
fn sgr_mouse(body: &[u8], press: bool) -> Option<Input> {
    let p = params(body);
    let (&b, &x, &y) = (p.first()?, p.get(1)?, p.get(2)?);
    let mut modifiers = KeyModifiers::NONE;
    if b & 4 != 0 {
        modifiers |= KeyModifiers::SHIFT;
    }
    if b & 8 != 0 {
        modifiers |= KeyModifiers::ALT;
    }
    if b & 16 != 0 {
        modifiers |= KeyModifiers::CONTROL;
    }
    let button = match b & 3 {
        0 => MouseButton::Left,
        1 => MouseButton::Middle,
        _ => MouseButton::Right,
    };
    let kind = if b & 64 != 0 {
        match b & 3 {
            0 => MouseEventKind::ScrollUp,
            1 => MouseEventKind::ScrollDown,
            2 => MouseEventKind::ScrollLeft,
            _ => MouseEventKind::ScrollRight,
        }
    } else if b & 32 != 0 {
        if b & 3 == 3 { MouseEventKind::Moved } else { MouseEventKind::Drag(button) }
    } else if press {
        MouseEventKind::Down(button)
    } else {
        MouseEventKind::Up(button)
    };
    Some(Input::Mouse(MouseEvent { kind, column: x.saturating_sub(1), row: y.saturating_sub(1), modifiers }))
}

/// The characters `keymap` binds with alt (anywhere in a binding).
pub fn alt_chars(keymap: &super::Keymap) -> Vec<char> {
    let mut v: Vec<char> = keymap
        .bindings
        .iter()
        .flat_map(|b| b.keys.iter())
        .filter(|c| c.mods.contains(KeyModifiers::ALT))
        .filter_map(|c| if let KeyCode::Char(ch) = c.code { Some(ch) } else { None })
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// What the UI loop receives from the reader and the signal thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Something the terminal sent.
    Input(Input),
    /// The terminal changed size (SIGWINCH), or the screen must be drawn again.
    Resize,
    /// The terminal went away (end of input or a read error): the TUI ends.
    Closed,
}

/// Start the thread that reads stdin (raw mode must be on) and sends what it parses.
pub fn spawn_reader(parser: Parser, tx: std::sync::mpsc::Sender<Event>) -> std::io::Result<()> {
    std::thread::Builder::new().name("input".into()).spawn(move || read_loop(parser, &tx))?;
    Ok(())
}

fn read_loop(mut parser: Parser, tx: &std::sync::mpsc::Sender<Event>) {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let stdin = std::io::stdin();
    let mut buf = [0u8; 4096];
    let send = |v: Vec<Input>| v.into_iter().all(|i| tx.send(Event::Input(i)).is_ok());
    loop {
        let wait = parser.wait();
        let ts = wait.map(|d| Timespec { tv_sec: d.as_secs() as i64, tv_nsec: i64::from(d.subsec_nanos()) });
        let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
        match poll(&mut fds, ts.as_ref()) {
            Ok(0) => {
                if !send(parser.flush()) {
                    return;
                }
                continue;
            }
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => {
                let _ = tx.send(Event::Closed);
                return;
            }
        }
        match rustix::io::read(&stdin, &mut buf) {
            Ok(0) => {
                let _ = tx.send(Event::Closed);
                return;
            }
            Ok(n) => {
                parser.push(buf.get(..n).unwrap_or(&[]));
                if !send(parser.events()) {
                    return;
                }
            }
            Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => {}
            Err(_) => {
                let _ = tx.send(Event::Closed);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn k(code: KeyCode, mods: KeyModifiers) -> Input {
        Input::Key(KeyEvent::new(code, mods))
    }
    fn ch(c: char) -> Input {
        k(KeyCode::Char(c), KeyModifiers::NONE)
    }
    fn all(p: &mut Parser, reads: &[&[u8]]) -> Vec<Input> {
        let mut out = Vec::new();
        for r in reads {
            p.push(r);
            out.extend(p.events());
        }
        out.extend(p.flush());
        out
    }
    fn keys(v: &[Input]) -> Vec<&Input> {
        v.iter().filter(|i| !matches!(i, Input::Reply(_))).collect()
    }

    /// Replies as terminals send them (xterm, kitty, iTerm2; cell size, status, cursor
    /// position, mode report, kitty keyboard flags, colour report), whole or split across
    /// reads anywhere, between typed keys: only the typed keys come out.
    #[test]
    fn replies_are_never_keys_however_they_are_split() {
        let replies: [&[u8]; 10] = [
            b"\x1bP>|XTerm(390) qe\x1b\\",
            b"\x1b_Gi=31;OK\x1b\\",
            b"\x1b[?63;1;2;4;6;9;15;22c",
            b"\x1b[>41;390;0c",
            b"\x1b[6;17;9t",
            b"\x1b[0n",
            b"\x1b[24;80R",
            b"\x1b[?2026;2$y",
            b"\x1b[?0u",
            b"\x1b]11;rgb:0000/0000/0000\x07",
        ];
        let mut stream = b"a".to_vec();
        for r in replies {
            stream.extend_from_slice(r);
        }
        stream.push(b'z');
        let want = [ch('a'), ch('z')];
        for cut in 0..stream.len() {
            let mut p = Parser::default();
            let got = all(&mut p, &[&stream[..cut], &stream[cut..]]);
            assert_eq!(keys(&got), want.iter().collect::<Vec<_>>(), "split at {cut}");
            let n = got.iter().filter(|i| matches!(i, Input::Reply(_))).count();
            assert_eq!(n, replies.len(), "split at {cut}: {got:?}");
        }
        // byte by byte
        let mut p = Parser::default();
        let reads: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(keys(&all(&mut p, &reads)), want.iter().collect::<Vec<_>>());
    }

    #[test]
    fn keys_as_terminals_send_them() {
        let none = KeyModifiers::NONE;
        let cases: [(&[u8], Input); 14] = [
            (b"\x1b[A", k(KeyCode::Up, none)),
            (b"\x1bOB", k(KeyCode::Down, none)),
            (b"\x1b[1;3D", k(KeyCode::Left, KeyModifiers::ALT)),
            (b"\x1b[1;5C", k(KeyCode::Right, KeyModifiers::CONTROL)),
            (b"\x1b[1;2A", k(KeyCode::Up, KeyModifiers::SHIFT)),
            (b"\x1b[6~", k(KeyCode::PageDown, none)),
            (b"\x1b[5~", k(KeyCode::PageUp, none)),
            (b"\x1b[15~", k(KeyCode::F(5), none)),
            (b"\x1b[Z", k(KeyCode::BackTab, KeyModifiers::SHIFT)),
            (b"\x1b[1;2R", k(KeyCode::F(3), KeyModifiers::SHIFT)),
            (b"\r", k(KeyCode::Enter, none)),
            (b"\x0f", k(KeyCode::Char('o'), KeyModifiers::CONTROL)),
            (b"G", k(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            ("é".as_bytes(), ch('é')),
        ];
        for (bytes, want) in cases {
            let mut p = Parser::default();
            assert_eq!(all(&mut p, &[bytes]), vec![want], "{bytes:?}");
        }
        let mut p = Parser::default();
        let m = all(&mut p, &[b"\x1b[<0;5;3M\x1b[<65;1;1M"]);
        assert_eq!(
            m,
            vec![
                Input::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(MouseButton::Left),
                    column: 4,
                    row: 2,
                    modifiers: KeyModifiers::NONE
                }),
                Input::Mouse(MouseEvent {
                    kind: MouseEventKind::ScrollDown,
                    column: 0,
                    row: 0,
                    modifiers: KeyModifiers::NONE
                }),
            ]
        );
    }

    #[test]
    fn esc_and_a_key_together_are_alt_only_when_bound() {
        let esc = k(KeyCode::Esc, KeyModifiers::NONE);
        let mut p = Parser::new(vec!['h']);
        assert_eq!(all(&mut p, &[b"\x1bh"]), vec![k(KeyCode::Char('h'), KeyModifiers::ALT)]);
        assert_eq!(all(&mut p, &[b"\x1bq"]), vec![esc.clone(), ch('q')]);
        // a lone ESC, and the key after the wait: Esc then the key, even when bound
        p.push(b"\x1b");
        assert_eq!(p.events(), vec![]);
        assert_eq!(p.wait(), Some(ESC_WAIT));
        assert_eq!(p.flush(), vec![esc.clone()]);
        p.push(b"h");
        assert_eq!(p.events(), vec![ch('h')]);
        // an arrow key split across reads within the wait is joined
        assert_eq!(all(&mut p, &[b"\x1b", b"[B"]), vec![k(KeyCode::Down, KeyModifiers::NONE)]);
        // Esc Esc
        assert_eq!(all(&mut p, &[b"\x1b\x1b"]), vec![esc.clone(), esc.clone()]);
        // a DCS introducer ending the read is the key (alt-P unbound: Esc, then P)
        assert_eq!(all(&mut p, &[b"\x1bP"]), vec![esc, k(KeyCode::Char('P'), KeyModifiers::SHIFT)]);
    }
}
