//! Strings from files made safe for a terminal. Names, keys and messages read from a file
//! may hold control characters: ESC starts sequences that recolour, move the cursor,
//! retitle the window or (OSC 52) write the clipboard; BEL rings; C1 controls (U+0080 to
//! U+009F, e.g. U+009B CSI) act like ESC sequences on some terminals; bidi overrides
//! reorder what follows so a name can display as something else. [`sanitize`] turns each
//! such character into a visible escape; everything else is kept. JSON output does not
//! need this (serde escapes controls) and keeps exact values.

use std::borrow::Cow;

/// True for a character that must not reach a terminal as is: C0 controls (tab and newline
/// included: a name must not break a line), DEL, C1 controls, and the bidi embedding,
/// override and isolate controls (U+202A to U+202E, U+2066 to U+2069).
pub fn is_unsafe_char(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every [`is_unsafe_char`] character written as a visible escape: `\x1b` for
/// ASCII controls and DEL, `\u{9b}` / `\u{202e}` for the others. Borrows when nothing
/// needs escaping (the common case costs one scan).
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_char(&mut out, c);
    }
    Cow::Owned(out)
}

/// Append `c` to `out`, escaped when [`is_unsafe_char`].
fn push_char(out: &mut String, c: char) {
    use std::fmt::Write as _;
    if !is_unsafe_char(c) {
        out.push(c);
    } else if c.is_ascii() {
        let _ = write!(out, "\\x{:02x}", u32::from(c));
    } else {
        let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
    }
}

/// A `Display` adapter writing its inner value through [`sanitize`], for `write!` sites.
pub struct Sanitized<T>(pub T);

impl<T: std::fmt::Display> std::fmt::Display for Sanitized<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.0.to_string();
        f.write_str(&sanitize(&s))
    }
}

/// The name among `names` that `typed` most likely meant: the same name in another case,
/// else the closest by edit distance (Damerau-Levenshtein, case ignored) when it is close
/// enough to be a typo (at least 70 % alike, or one edit away), else one that contains
/// what was typed.
/// None when nothing is near.
pub fn did_you_mean<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let t = typed.to_lowercase();
    let mut best: Option<(f64, &'a str)> = None;
    let mut containing: Option<&'a str> = None;
    for n in names {
        let l = n.to_lowercase();
        if l == t {
            return Some(n);
        }
        let score = strsim::normalized_damerau_levenshtein(&t, &l);
        // one edit away counts for short names too (`vi` for `vim`)
        let near = score >= 0.7 || (t.chars().count() >= 2 && strsim::damerau_levenshtein(&t, &l) <= 1);
        if near && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, n));
        }
        if containing.is_none() && t.len() >= 3 && l.contains(&t) {
            containing = Some(n);
        }
    }
    best.map(|b| b.1).or(containing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_for_typos_and_case() {
        let names = ["A_WALK_L_02", "A_WALK_L_02_COPY", "TEST_SEQ", "info", "tree"];
        assert_eq!(did_you_mean("a_walk_l_02", names), Some("A_WALK_L_02"));
        assert_eq!(did_you_mean("A_WALK_L_20", names), Some("A_WALK_L_02"));
        assert_eq!(did_you_mean("tre", names), Some("tree"));
        assert_eq!(did_you_mean("infoo", names), Some("info"));
        assert_eq!(did_you_mean("TEST", names), Some("TEST_SEQ"), "contains");
        assert_eq!(did_you_mean("zzzzzz", names), None);
        assert_eq!(did_you_mean("vi", ["default", "vim", "emacs"]), Some("vim"));
        assert_eq!(did_you_mean("x", ["default", "vim", "emacs"]), None);
    }

    #[test]
    fn controls_become_visible_escapes() {
        assert!(matches!(sanitize("TEX_a.png ü 漢"), Cow::Borrowed(_)));
        assert_eq!(sanitize("a\u{1b}[31mb"), "a\\x1b[31mb");
        assert_eq!(sanitize("\u{1b}]52;c;AAAA\u{7}"), "\\x1b]52;c;AAAA\\x07");
        assert_eq!(sanitize("x\ty\nz\r\0"), "x\\x09y\\x0az\\x0d\\x00");
        assert_eq!(sanitize("del\u{7f}"), "del\\x7f");
        assert_eq!(sanitize("csi\u{9b}2J st\u{9c} pad\u{80}"), "csi\\u{9b}2J st\\u{9c} pad\\u{80}");
        assert_eq!(sanitize("\u{202e}gnp.exe"), "\\u{202e}gnp.exe");
        assert_eq!(sanitize("\u{202a}\u{202b}\u{202c}\u{202d}"), "\\u{202a}\\u{202b}\\u{202c}\\u{202d}");
        assert_eq!(sanitize("\u{2066}a\u{2069}\u{2067}\u{2068}"), "\\u{2066}a\\u{2069}\\u{2067}\\u{2068}");
        // Neighbours of the ranges are kept.
        assert_eq!(sanitize("\u{a0}\u{2029}\u{202f}\u{2065}\u{206a}~"), "\u{a0}\u{2029}\u{202f}\u{2065}\u{206a}~");
        assert_eq!(Sanitized("a\u{1b}b").to_string(), "a\\x1bb");
    }

    #[test]
    fn no_output_character_is_unsafe() {
        let all: String = (0u32..0x3000).filter_map(char::from_u32).collect();
        let s = sanitize(&all);
        assert!(!s.chars().any(is_unsafe_char));
        assert!(!s.bytes().any(|b| b < 0x20 || b == 0x7f));
    }
}
