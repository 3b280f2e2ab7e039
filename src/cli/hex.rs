//! `hex`: a hexyl-like dump where each row lists the fields whose bytes it shows.

use crate::model::{Document, sanitize};
use std::fmt::Write as _;

/// Dump `data[at..at+len]` 16 bytes a row: offset, hex in two groups of 8, ASCII, then
/// `│ name, name` for the fields that start in (or cover the start of) the row (names
/// from the file with control characters escaped).
pub fn dump(doc: &Document, data: &[u8], at: u64, len: u64) -> String {
    let mut out = String::new();
    let end = at.saturating_add(len).min(data.len() as u64);
    let mut row = at - at % 16;
    while row < end {
        let _ = write!(out, "{row:08x}  ");
        let mut ascii = String::new();
        for i in 0..16u64 {
            let o = row + i;
            if i == 8 {
                out.push(' ');
            }
            match data.get(o as usize).filter(|_| o >= at && o < end) {
                Some(b) => {
                    let _ = write!(out, "{b:02x} ");
                    ascii.push(if b.is_ascii_graphic() || *b == b' ' { char::from(*b) } else { '.' });
                }
                None => {
                    out.push_str("   ");
                    ascii.push(' ');
                }
            }
        }
        let _ = write!(out, " {ascii}");
        let names = row_fields(doc, row.max(at), (row + 16).min(end));
        if !names.is_empty() {
            let _ = write!(out, "  │ {}", sanitize(&names.join(", ")));
        }
        out.push('\n');
        row += 16;
    }
    out
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
