//! Goto and search input: offsets (`0x150`, `336`, `+0x20`, `-16`) and needles (hex bytes
//! `1f 8b` or `x:1f8b`, else text; `"..."` forces text), found with memchr's memmem.

use crate::session::parse_offset;

/// What to search for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Needle {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// How to show it (`hex 1f 8b`, `"TEX_"`).
    pub text: String,
}

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
        return Ok(Needle { bytes: t.as_bytes().to_vec(), text: format!("\"{t}\"") });
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
            Ok(Needle { bytes: b, text })
        }
        _ if forced.is_some() => Err(format!("search: {s} is not hex bytes")),
        _ => Ok(Needle { bytes: s.as_bytes().to_vec(), text: format!("\"{s}\"") }),
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
