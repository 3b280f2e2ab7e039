//! `hex`: a hexyl-like dump where each row lists the fields whose bytes it shows: bytes
//! coloured by category on a terminal (`--color`), the TUI's glyphs in the ASCII column,
//! and runs of identical rows squeezed to one `*` line.

use crate::model::{Document, sanitize};
use crate::tui::theme::ByteClass;
use std::fmt::Write as _;

/// How the dump is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours by byte category (hexyl's: NUL grey, printable cyan, whitespace green,
    /// other ASCII magenta, non-ASCII yellow).
    pub color: bool,
    /// Runs of rows identical to the one before them are shown as one `*` line.
    pub squeeze: bool,
}

/// The ANSI colour of a byte category.
fn colour(c: ByteClass) -> &'static str {
    match c {
        ByteClass::Null => "\x1b[90m",
        ByteClass::Printable => "\x1b[36m",
        ByteClass::Whitespace => "\x1b[32m",
        ByteClass::Other => "\x1b[35m",
        ByteClass::NonAscii => "\x1b[33m",
    }
}

const RESET: &str = "\x1b[0m";

/// Dump `data[at..at+len]` 16 bytes a row: offset, hex in two groups of 8, ASCII, then
/// `│ name, name` for the fields that start in (or cover the start of) the row (names
/// from the file with control characters escaped).
pub fn dump(doc: &Document, data: &[u8], at: u64, len: u64) -> String {
    dump_styled(doc, data, at, len, Style::default())
}

/// [`dump`] with colours and squeezing as `style` asks.
pub fn dump_styled(doc: &Document, data: &[u8], at: u64, len: u64, style: Style) -> String {
    let end = at.saturating_add(len).min(data.len() as u64);
    Dumper::new(style).rows(doc, data, 0, at, end)
}

/// A dump written in pieces (the `hex` verb reads the bytes in chunks through the checked
/// path, so a file cut shorter while the output waits is an error, not a fault): keeps the
/// squeezing state from one piece to the next, so the pieces together read as one dump.
#[derive(Debug)]
pub struct Dumper {
    style: Style,
    /// The last whole row written, for squeezing.
    prev: Option<[u8; 16]>,
    squeezed: bool,
}

impl Dumper {
    /// A dump styled as `style` asks.
    pub fn new(style: Style) -> Dumper {
        Dumper { style, prev: None, squeezed: false }
    }

    /// The rows of `at..end` (the whole dump's start, this piece's end) that `data` holds:
    /// the bytes at `base..`. Pieces after the first start on a row boundary.
    pub fn rows(&mut self, doc: &Document, data: &[u8], base: u64, at: u64, end: u64) -> String {
        let mut out = String::new();
        let end = end.min(base.saturating_add(data.len() as u64));
        let from = base.max(at);
        let mut row = from - from % 16;
        let style = self.style;
        let byte = |o: u64| -> Option<&u8> {
            if o < at || o >= end || o < base {
                return None;
            }
            data.get(usize::try_from(o - base).ok()?)
        };
        while row < end {
            let full = row >= at && row + 16 <= end;
            let lo = usize::try_from(row.max(base) - base).unwrap_or(usize::MAX);
            let hi = usize::try_from(row + 16 - base).unwrap_or(usize::MAX).min(data.len());
            let bytes = data.get(lo..hi).unwrap_or(&[]);
            let names = row_fields(doc, row.max(at), (row + 16).min(end));
            // only whole rows with no field of their own starting in them are squeezed
            let same = style.squeeze
                && full
                && self.prev.as_ref().map(|p| &p[..]) == Some(bytes)
                && names.iter().all(|n| n.starts_with('…'));
            self.prev = if full { <[u8; 16]>::try_from(bytes).ok() } else { None };
            if same {
                if !self.squeezed {
                    out.push_str("*\n");
                    self.squeezed = true;
                }
                row += 16;
                continue;
            }
            self.squeezed = false;
            let _ = write!(out, "{row:08x}  ");
            let mut ascii = String::new();
            for i in 0..16u64 {
                let o = row + i;
                if i == 8 {
                    out.push(' ');
                }
                match byte(o) {
                    Some(b) => {
                        let g = crate::tui::hex::glyph(*b);
                        if style.color {
                            let c = colour(ByteClass::of(*b));
                            let _ = write!(out, "{c}{b:02x}{RESET} ");
                            let _ = write!(ascii, "{c}{g}{RESET}");
                        } else {
                            let _ = write!(out, "{b:02x} ");
                            ascii.push(g);
                        }
                    }
                    None => {
                        out.push_str("   ");
                        ascii.push(' ');
                    }
                }
            }
            let _ = write!(out, " {ascii}");
            if !names.is_empty() {
                let _ = write!(out, "  │ {}", sanitize(&names.join(", ")));
            }
            out.push('\n');
            row += 16;
        }
        out
    }
}

/// Names of the innermost fields at each byte of `start..end`, deduplicated in order;
/// a field continuing from an earlier row is shown with a leading `…`.
fn row_fields(doc: &Document, start: u64, end: u64) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut last = None;
    for o in start..end {
        let hit = doc.field_at(o);
        if hit == last {
            continue;
        }
        last = hit;
        if let Some(f) = hit.and_then(|(n, i)| doc.node(n).and_then(|n| n.fields.get(i))) {
            let name = if f.span.start < start { format!("…{}", f.name) } else { f.name.clone() };
            if names.last() != Some(&name) {
                names.push(name);
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_colours_and_squeezing() {
        let mut data = vec![0u8; 0x40];
        data[0] = b'A';
        data[1] = b'\t';
        data[2] = 0x07;
        data[3] = 0xff;
        data[4] = b' ';
        let doc = Document::new("raw", "z", "file", data.len() as u64, &crate::limits::Limits::default());
        let plain = dump_styled(&doc, &data, 0, 0x40, Style { color: false, squeeze: true });
        let lines: Vec<&str> = plain.lines().collect();
        // row 0, then rows 0x10..0x40 are all zero: row 0x10 shown, the rest one `*`
        assert_eq!(lines.len(), 3, "{plain}");
        assert_eq!(lines[0], "00000000  41 09 07 ff 20 00 00 00  00 00 00 00 00 00 00 00  A_•× ⋄⋄⋄⋄⋄⋄⋄⋄⋄⋄⋄");
        assert!(lines[1].starts_with("00000010  00 00"), "{plain}");
        assert_eq!(lines[2], "*");
        let all = dump_styled(&doc, &data, 0, 0x40, Style { color: false, squeeze: false });
        assert_eq!(all.lines().count(), 4);
        let coloured = dump_styled(&doc, &data, 0, 0x10, Style { color: true, squeeze: false });
        assert!(
            coloured.contains("\x1b[36m41\x1b[0m \x1b[32m09\x1b[0m \x1b[35m07\x1b[0m \x1b[33mff\x1b[0m"),
            "{coloured:?}"
        );
        assert!(coloured.contains("\x1b[90m⋄\x1b[0m"), "{coloured:?}");
    }
}
