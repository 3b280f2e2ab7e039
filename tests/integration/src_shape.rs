//! The shape of `src/` that issue #49 asks for, measured on the source itself: no function
//! over 120 lines, and the share of lines compiled only for tests (`#[cfg(test)]` items and
//! the files of `#[cfg(test)] mod x;` modules) held at a ratchet on its way to 8 %.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The longest a function in `src/` may be, from its `fn` line to its closing brace.
const MAX_FN_LINES: usize = 120;

/// The test-only share of `src/` lines may not grow past this (it was 15.2 % on 2026-12-07,
/// counting test-only module files; issue #49 asks for 8 %).
const TEST_SHARE_RATCHET: f64 = 0.153;

/// The file a `mod name;` declared in `file` loads: `#[path]` is relative to the file's
/// directory; otherwise `name.rs` beside a `mod.rs`/`lib.rs`, or under a folder named after
/// any other file.
fn module_file(file: &Path, name: &str, path_attr: Option<&str>) -> Option<PathBuf> {
    let dir = file.parent()?;
    if let Some(p) = path_attr {
        return Some(dir.join(p));
    }
    let stem = file.file_stem()?.to_str()?;
    let base = if matches!(stem, "mod" | "lib" | "main") { dir.to_path_buf() } else { dir.join(stem) };
    [base.join(format!("{name}.rs")), base.join(name).join("mod.rs")].into_iter().find(|p| p.exists())
}

/// Lines of `text` inside `#[cfg(test)]` items, and the files of its test-only `mod x;`.
fn test_lines(file: &Path, text: &str, test_files: &mut HashSet<PathBuf>) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let (mut counted, mut i) = (0, 0);
    while i < lines.len() {
        if lines[i].trim() != "#[cfg(test)]" {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let mut path_attr = None;
        while j < lines.len() && lines[j].trim().starts_with("#[") {
            if let Some(p) = lines[j].trim().strip_prefix("#[path = \"").and_then(|r| r.strip_suffix("\"]")) {
                path_attr = Some(p);
            }
            j += 1;
        }
        let Some(item) = lines.get(j) else { break };
        let declared = item.trim().trim_start_matches("pub ").strip_prefix("mod ").and_then(|r| r.strip_suffix(';'));
        if let Some(name) = declared {
            let target = module_file(file, name.trim(), path_attr)
                .unwrap_or_else(|| panic!("{}: test module {name} not found", file.display()));
            test_files.insert(target);
            counted += j - i + 1;
            i = j + 1;
            continue;
        }
        if item.trim_end().ends_with(';') {
            counted += j - i + 1;
            i = j + 1;
            continue;
        }
        let indent = &item[..item.len() - item.trim_start().len()];
        let close = format!("{indent}}}");
        let end = (j + 1..lines.len()).find(|&k| lines[k] == close).unwrap_or(j);
        counted += end - i + 1;
        i = end + 1;
    }
    counted
}

/// Functions of `text` longer than [`MAX_FN_LINES`]: name, first line, length.
fn long_functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut long = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let mut rest = body.strip_prefix("pub ").unwrap_or(body);
        if let Some(r) = rest.strip_prefix("pub(") {
            rest = r.split_once(") ").map_or(r, |(_, r)| r);
        }
        for q in ["const ", "async ", "unsafe "] {
            rest = rest.strip_prefix(q).unwrap_or(rest);
        }
        let Some(sig) = rest.strip_prefix("fn ") else { continue };
        if line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = sig.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let close = format!("{}}}", &line[..line.len() - body.len()]);
        if let Some(end) = (i + 1..lines.len()).find(|&k| lines[k] == close)
            && end - i + 1 > MAX_FN_LINES
        {
            long.push((name, i + 1, end - i + 1));
        }
    }
    long
}

fn src_files() -> Vec<PathBuf> {
    let files = crate::support::files_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &|p| {
        p.extension().is_some_and(|e| e == "rs")
    });
    assert!(files.len() > 100, "src/ has {} .rs files", files.len());
    files
}

#[test]
fn no_function_in_src_is_over_120_lines() {
    let mut long = Vec::new();
    for f in src_files() {
        for (name, line, n) in long_functions(&std::fs::read_to_string(&f).unwrap()) {
            long.push(format!("{}:{line} {name}: {n} lines", f.display()));
        }
    }
    assert!(long.is_empty(), "functions over {MAX_FN_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_measures_see_what_they_measure() {
    let long = "fn a() {\n".to_string() + &"    x();\n".repeat(MAX_FN_LINES) + "}\nfn b() {}\n";
    assert_eq!(long_functions(&long), vec![("a".to_string(), 1, MAX_FN_LINES + 2)]);
    assert!(long_functions(&long.replace("    x();\n", "")).is_empty());
    let text = "fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n#[cfg(test)]\nuse std::fmt;\n";
    let mut files = HashSet::new();
    // the five lines of the test module and the two of the `use`
    assert_eq!(test_lines(Path::new("src/x.rs"), text, &mut files), 5 + 2);
    assert!(files.is_empty());
}

#[test]
fn test_only_lines_stay_under_the_ratchet() {
    let files = src_files();
    let (mut total, mut inline) = (0usize, 0usize);
    let mut test_files = HashSet::new();
    let texts: Vec<(PathBuf, String)> =
        files.iter().map(|f| (f.clone(), std::fs::read_to_string(f).unwrap())).collect();
    for (f, text) in &texts {
        total += text.lines().count();
        inline += test_lines(f, text, &mut test_files);
    }
    // a test-only file counts whole; its own `#[cfg(test)]` items are not counted twice
    let mut in_files = 0;
    for (f, text) in &texts {
        if test_files.contains(f) {
            in_files += text.lines().count();
            inline -= test_lines(f, text, &mut HashSet::new());
        }
    }
    assert!(test_files.len() >= 10, "test-only module files found: {test_files:?}");
    let share = (inline + in_files) as f64 / total as f64;
    eprintln!(
        "src: {total} lines; test-only {} ({inline} in #[cfg(test)] items, {in_files} in {} files) = {:.1} %",
        inline + in_files,
        test_files.len(),
        share * 100.0
    );
    assert!(share <= TEST_SHARE_RATCHET, "test-only share {:.1} % is over the ratchet", share * 100.0);
}
