//! Goto and search input: offsets (`0x150`, `336`, `+0x20`, `-16`) and needles (hex bytes
//! `1f 8b` or `x:1f8b`, else text; `"..."` forces text; `i:text` is text in any ASCII
//! case), found with memchr's memmem (any case: memchr2 on the first letter's two cases,
//! then a compare). Matches are counted for "match 3/7".

use crate::session::parse_offset;

/// What to search for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Needle {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// How to show it (`hex 1f 8b`, `"TEX_"`).
    pub text: String,
    /// Text in any ASCII case (`i:walk` finds `WALK` and `Walk`).
    pub ignore_case: bool,
}

/// Matches counted at most (past it, "match 3/100000+").
pub const COUNT_MAX: usize = 100_000;

/// Parse a goto target relative to `cursor`: absolute hex/decimal or `+N`/`-N`. None when
/// the input is not a number (it may be a node path).
pub fn parse_goto(s: &str, cursor: u64) -> Option<u64> {
    let s = s.trim();
    if let Some(r) = s.strip_prefix('+') {
        return parse_offset(r).map(|d| cursor.saturating_add(d));
    }
    if let Some(r) = s.strip_prefix('-') {
        return parse_offset(r).map(|d| cursor.saturating_sub(d));
    }
    parse_offset(s)
}

fn hex_token(t: &str) -> Option<Vec<u8>> {
    if t.is_empty() || !t.len().is_multiple_of(2) || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..t.len()).step_by(2).map(|i| t.get(i..i + 2).and_then(|p| u8::from_str_radix(p, 16).ok())).collect()
}

/// Parse search input.
pub fn parse_needle(s: &str) -> Result<Needle, String> {
    if s.is_empty() {
        return Err("search: nothing to search for".into());
    }
    if let Some(q) = s.strip_prefix('"') {
        let t = q.strip_suffix('"').unwrap_or(q);
        if t.is_empty() {
            return Err("search: empty text".into());
        }
        return Ok(Needle { bytes: t.as_bytes().to_vec(), text: format!("\"{t}\""), ignore_case: false });
    }
    if let Some(t) = s.strip_prefix("i:") {
        let t = t.strip_prefix('"').map_or(t, |q| q.strip_suffix('"').unwrap_or(q));
        if t.is_empty() {
            return Err("search: empty text".into());
        }
        return Ok(Needle { bytes: t.as_bytes().to_vec(), text: format!("\"{t}\" (any case)"), ignore_case: true });
    }
    let forced = s.strip_prefix("x:").or_else(|| s.strip_prefix("0x"));
    let body = forced.unwrap_or(s);
    let tokens: Vec<&str> = body.split_whitespace().collect();
    let hex: Option<Vec<u8>> =
        tokens.iter().map(|t| hex_token(t)).collect::<Option<Vec<Vec<u8>>>>().map(|v| v.concat());
    match hex {
        Some(b)
            if !b.is_empty()
                && (forced.is_some() || tokens.len() > 1 || tokens.first().is_some_and(|t| t.len() == 2)) =>
        {
            let text = format!("hex {}", b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(" "));
            Ok(Needle { bytes: b, text, ignore_case: false })
        }
        _ if forced.is_some() => Err(format!("search: {s} is not hex bytes")),
        _ => Ok(Needle { bytes: s.as_bytes().to_vec(), text: format!("\"{s}\""), ignore_case: false }),
    }
}

/// Find `needle` at or after `start` (forward) or before `start` (backward), wrapping
/// around once. Returns (offset, wrapped).
pub fn find(hay: &[u8], needle: &[u8], start: u64, forward: bool) -> Option<(u64, bool)> {
    if needle.is_empty() {
        return None;
    }
    let start = usize::try_from(start).unwrap_or(usize::MAX).min(hay.len());
    if forward {
        let tail = hay.get(start..).unwrap_or(&[]);
        if let Some(i) = memchr::memmem::find(tail, needle) {
            return Some(((start + i) as u64, false));
        }
        memchr::memmem::find(hay, needle).map(|i| (i as u64, true))
    } else {
        // matches starting before start-1 (start is cursor+1 on `N`)
        let before = start.saturating_sub(1);
        let head = hay.get(..(before + needle.len() - 1).min(hay.len())).unwrap_or(&[]);
        if let Some(i) = memchr::memmem::rfind(head, needle) {
            return Some((i as u64, false));
        }
        memchr::memmem::rfind(hay, needle).map(|i| (i as u64, true))
    }
}

/// [`find`] for `needle`, in any ASCII case when it asks for that.
pub fn find_needle(hay: &[u8], needle: &Needle, start: u64, forward: bool) -> Option<(u64, bool)> {
    if needle.ignore_case {
        find_any_case(hay, &needle.bytes, start, forward)
    } else {
        find(hay, &needle.bytes, start, forward)
    }
}

/// Does `needle` match (in any ASCII case) at `i`?
fn any_case_at(hay: &[u8], needle: &[u8], i: usize) -> bool {
    hay.get(i..i.saturating_add(needle.len())).is_some_and(|w| w.eq_ignore_ascii_case(needle))
}

/// The first match at or after `from` in any ASCII case, before `end` (start offsets).
fn next_any_case(hay: &[u8], needle: &[u8], from: usize, end: usize) -> Option<usize> {
    let first = *needle.first()?;
    let (a, b) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    let mut at = from;
    while at < end {
        let i = at + memchr::memchr2(a, b, hay.get(at..end)?)?;
        if any_case_at(hay, needle, i) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// The last match starting before `end` in any ASCII case.
fn prev_any_case(hay: &[u8], needle: &[u8], end: usize) -> Option<usize> {
    let first = *needle.first()?;
    let (a, b) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    let mut end = end.min(hay.len());
    while end > 0 {
        let i = memchr::memrchr2(a, b, hay.get(..end)?)?;
        if any_case_at(hay, needle, i) {
            return Some(i);
        }
        end = i;
    }
    None
}

/// [`find`] in any ASCII case.
pub fn find_any_case(hay: &[u8], needle: &[u8], start: u64, forward: bool) -> Option<(u64, bool)> {
    if needle.is_empty() {
        return None;
    }
    let start = usize::try_from(start).unwrap_or(usize::MAX).min(hay.len());
    if forward {
        if let Some(i) = next_any_case(hay, needle, start, hay.len()) {
            return Some((i as u64, false));
        }
        next_any_case(hay, needle, 0, hay.len()).map(|i| (i as u64, true))
    } else {
        // as `find`: matches starting before start-1
        if let Some(i) = prev_any_case(hay, needle, start.saturating_sub(1)) {
            return Some((i as u64, false));
        }
        prev_any_case(hay, needle, hay.len()).map(|i| (i as u64, true))
    }
}

/// Every match of `needle` (overlapping ones too, as `n` steps), at most [`COUNT_MAX`]:
/// their offsets, and whether there are more.
pub fn all_matches(hay: &[u8], needle: &Needle) -> (Vec<u64>, bool) {
    let mut out = Vec::new();
    if needle.bytes.is_empty() {
        return (out, false);
    }
    let mut at = 0usize;
    loop {
        let next = if needle.ignore_case {
            next_any_case(hay, &needle.bytes, at, hay.len())
        } else {
            hay.get(at..).and_then(|t| memchr::memmem::find(t, &needle.bytes)).map(|i| at + i)
        };
        let Some(i) = next else { return (out, false) };
        if out.len() == COUNT_MAX {
            return (out, true);
        }
        out.push(i as u64);
        at = i + 1;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn goto_forms() {
        assert_eq!(parse_goto("0x150", 0), Some(0x150));
        assert_eq!(parse_goto("336", 0), Some(336));
        assert_eq!(parse_goto("+0x20", 0x100), Some(0x120));
        assert_eq!(parse_goto("-16", 0x100), Some(0xf0));
        assert_eq!(parse_goto("clip[3]", 0), None);
    }

    #[test]
    fn needles() {
        assert_eq!(parse_needle("1f 8b").unwrap().bytes, vec![0x1f, 0x8b]);
        assert_eq!(parse_needle("x:1f8b").unwrap().bytes, vec![0x1f, 0x8b]);
        assert_eq!(parse_needle("ff").unwrap().bytes, vec![0xff]);
        assert_eq!(parse_needle("demo").unwrap().bytes, b"demo".to_vec());
        assert_eq!(parse_needle("\"1f 8b\"").unwrap().bytes, b"1f 8b".to_vec());
        assert!(parse_needle("x:zz").is_err());
    }

    #[test]
    fn any_case_text_finds_every_case_and_counts_overlaps() {
        let n = parse_needle("i:walk").unwrap();
        assert!(n.ignore_case);
        assert_eq!(n.text, "\"walk\" (any case)");
        let hay = b"A_WALK_L .. walk .. Walk .. wal";
        assert_eq!(find_needle(hay, &n, 0, true), Some((2, false)));
        assert_eq!(find_needle(hay, &n, 3, true), Some((12, false)));
        assert_eq!(find_needle(hay, &n, 21, true), Some((2, true)), "wraps");
        assert_eq!(find_needle(hay, &n, 13, false), Some((2, false)));
        assert_eq!(find_needle(hay, &n, 1, false), Some((20, true)), "wraps back to the last");
        assert_eq!(all_matches(hay, &n), (vec![2, 12, 20], false));
        // case matters without i:
        assert_eq!(all_matches(hay, &parse_needle("walk").unwrap()), (vec![12], false));
        // overlapping matches count one by one, as n visits them
        assert_eq!(all_matches(b"aaaa", &parse_needle("\"aa\"").unwrap()), (vec![0, 1, 2], false));
        assert_eq!(all_matches(b"xAaAa", &parse_needle("i:aa").unwrap()), (vec![1, 2, 3], false));
        assert!(parse_needle("i:").is_err());
    }

    #[test]
    fn find_wraps_both_ways() {
        let hay = b"ab..ab..ab";
        assert_eq!(find(hay, b"ab", 1, true), Some((4, false)));
        assert_eq!(find(hay, b"ab", 9, true), Some((0, true)));
        // backward from cursor 4 (start = 5): the match at 4 is the cursor itself, so 0
        assert_eq!(find(hay, b"ab", 5, false), Some((0, false)));
        assert_eq!(find(hay, b"ab", 1, false), Some((8, true)));
        assert_eq!(find(hay, b"zz", 0, true), None);
    }
}
