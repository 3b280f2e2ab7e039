//! File names for exported items named by the input (OBJ textures): names from a file may
//! be empty, `.`/`..`, hidden (`.x`), reserved on Windows (`CON`, `nul.x`), long, or
//! collide once unsafe characters are replaced (`TEX/a` and `TEX_a` both give `TEX_a`) or
//! on a case-insensitive filesystem (`Tex` and `TEX`). [`unique_file_names`] turns each into
//! a stem that is none of these.

use std::collections::{HashMap, HashSet};

/// Longest stem kept (bytes, all ASCII): room for a `_NNNN` suffix and an extension
/// within the usual 255-byte file name limit.
pub const MAX_STEM: usize = 200;

/// Stem used for an empty name.
pub const UNNAMED: &str = "unnamed";

/// Device names Windows reserves whatever the extension (`CON`, `con.png`).
const RESERVED: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "LPT1", "LPT2",
    "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// One name made safe on its own: ASCII letters, digits, `_`, `-` and `.` are kept, any
/// other character becomes `_` (as the OBJ export has always done, so ordinary names keep
/// their files); then no leading or trailing `.` (hidden files, `.`, `..`, Windows
/// dropping a trailing dot), never empty, no reserved device name, at most [`MAX_STEM`].
pub fn safe_stem(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' { c } else { '_' })
        .collect();
    s.truncate(MAX_STEM);
    let lead = s.len() - s.trim_start_matches('.').len();
    let trail = s.len() - s.trim_end_matches('.').len();
    if lead == s.len() {
        s = "_".repeat(s.len());
    } else {
        s.replace_range(..lead, &"_".repeat(lead));
        let keep = s.len() - trail;
        s.replace_range(keep.., &"_".repeat(trail));
    }
    if s.is_empty() {
        return UNNAMED.to_string();
    }
    let device = s.split('.').next().unwrap_or_default();
    if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(device)) {
        s.insert(0, '_');
    }
    s
}

/// A file stem for each of `names`, in order (the caller adds the extension): each is
/// [`safe_stem`] of its name, equal names get equal stems, and different names get stems
/// that differ even ignoring ASCII case: the first name keeps its stem, a later one that
/// would collide gets the smallest free `_2`, `_3`, … suffix. Linear in the number of
/// names (each stem remembers the next suffix to try).
pub fn unique_file_names(names: &[String]) -> Vec<String> {
    stems(names, true)
}

/// A distinct stem for every entry of `names`, in order, even where two entries have the
/// same name (two Material chunks named alike are two materials): the first entry of a name
/// keeps its stem, later ones get the smallest free `_2`, `_3`, … suffix, as in
/// [`unique_file_names`]. Stable across runs: it depends on the names and their order only.
pub fn unique_per_entry(names: &[String]) -> Vec<String> {
    stems(names, false)
}

fn stems(names: &[String], share_equal: bool) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut next: HashMap<String, u32> = HashMap::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        if let Some(&i) = by_name.get(name.as_str()).filter(|_| share_equal) {
            let same = out.get(i).cloned().unwrap_or_default();
            out.push(same);
            continue;
        }
        let base = safe_stem(name);
        let folded = base.to_ascii_lowercase();
        let mut n = next.get(&folded).copied().unwrap_or(1);
        let mut stem = if n == 1 { base.clone() } else { format!("{base}_{n}") };
        while taken.contains(&stem.to_ascii_lowercase()) {
            n = n.saturating_add(1);
            stem = format!("{base}_{n}");
        }
        taken.insert(stem.to_ascii_lowercase());
        next.insert(folded, n.saturating_add(1));
        by_name.insert(name, out.len());
        out.push(stem);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn safe_stems() {
        for (name, want) in [
            ("TEX_a", "TEX_a"),
            ("TEX/a", "TEX_a"),
            ("tex-1.2", "tex-1.2"),
            ("", "unnamed"),
            (".", "_"),
            ("..", "__"),
            ("...", "___"),
            (".hidden", "_hidden"),
            ("..x..", "__x__"),
            ("a.", "a_"),
            ("../../etc/passwd", "___.._etc_passwd"),
            ("C:\\x", "C__x"),
            ("CON", "_CON"),
            ("nul.tex", "_nul.tex"),
            ("com1", "_com1"),
            ("CONSOLE", "CONSOLE"),
            ("é\u{1b}[31m", "___31m"),
        ] {
            assert_eq!(safe_stem(name), want, "{name:?}");
        }
        assert_eq!(safe_stem(&"x".repeat(1000)).len(), MAX_STEM);
        assert_eq!(safe_stem(&format!("{}.", "x".repeat(MAX_STEM - 1))), format!("{}_", "x".repeat(MAX_STEM - 1)));
    }

    #[test]
    fn collisions_get_suffixes_and_equal_names_share_a_file() {
        let got = unique_file_names(&names(&["TEX/a", "TEX_a", "TEX a", "TEX/a", "tex_A", "TEX_a_2", "", ".", ".."]));
        assert_eq!(got, ["TEX_a", "TEX_a_2", "TEX_a_3", "TEX_a", "tex_A_4", "TEX_a_2_2", "unnamed", "_", "__"]);
        // No two different names share a stem, even ignoring case; none is hidden or empty.
        let folded: HashSet<String> = got.iter().map(|s| s.to_ascii_lowercase()).collect();
        assert_eq!(folded.len(), got.len() - 1);
        assert!(got.iter().all(|s| !s.is_empty() && !s.starts_with('.')));
    }

    #[test]
    fn every_entry_gets_its_own_stem() {
        let got = unique_per_entry(&names(&["MAT_a", "MAT_b", "MAT_a", "MAT_a_2", "MAT_a"]));
        assert_eq!(got, ["MAT_a", "MAT_b", "MAT_a_2", "MAT_a_2_2", "MAT_a_3"]);
        assert_eq!(unique_per_entry(&names(&["x", "y"])), ["x", "y"]);
    }

    #[test]
    fn ordinary_names_are_kept_and_many_collisions_stay_linear() {
        let plain = names(&["body", "face", "TEX_hair.tga"]);
        assert_eq!(unique_file_names(&plain), plain);
        // 20,000 different names that all make the stem `t_x`.
        let many: Vec<String> =
            (0..20_000u32).filter_map(|i| char::from_u32(0x4e00 + i)).map(|c| format!("t{c}x")).collect();
        assert_eq!(many.len(), 20_000);
        let got = unique_file_names(&many);
        for (i, s) in got.iter().enumerate() {
            let want = if i == 0 { "t_x".to_string() } else { format!("t_x_{}", i + 1) };
            assert_eq!(*s, want);
        }
    }
}
