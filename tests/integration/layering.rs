//! The crate's layering, read from its own source: every `crate::…` path outside test
//! modules and comments must point down the layer list, consumers never name a specific
//! format, and formats never reach for the terminal, JSON or the command line.
//!
//! Layers, lowest first (a module may use its own layer's internals and anything lower):
//!   0 text · 1 error · 2 bytes, limits · 3 source · 4 model · 5 formats, layout ·
//!   6 session, diff, export, fixtures · 7 survey, demo · 8 tui, harness · 9 cli
//! Test-only files (`#[cfg(test)] mod x;`) and inline test modules are not checked.

use std::path::{Path, PathBuf};

const LAYERS: &[(&str, u8)] = &[
    ("text", 0),
    ("error", 1),
    ("bytes", 2),
    ("limits", 2),
    ("source", 3),
    ("model", 4),
    ("formats", 5),
    ("layout", 5),
    ("session", 6),
    ("diff", 6),
    ("export", 6),
    ("fixtures", 6),
    ("survey", 7),
    ("demo", 7),
    ("tui", 8),
    ("harness", 8),
    ("cli", 9),
];

/// Modules that consume formats only through `formats::{open, sniff, registry}` and `model`.
const CONSUMERS: &[&str] = &["cli", "tui", "export", "survey", "session", "diff", "demo", "harness"];

/// The format folders (and the fallback format) consumers must not name.
const FORMAT_MODULES: &[&str] = &["ccsf", "gzarc", "motn", "pak", "opaque", "raw", "sc6"];

/// Crates the formats must not use: drawing, JSON and argument parsing belong above them.
const NOT_IN_FORMATS: &[&str] = &["ratatui", "crossterm", "serde_json", "clap", "indicatif", "tui_tree_widget"];

fn layer(top: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == top).map(|(_, l)| *l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src is readable").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code lines of a file that are not in an inline `#[cfg(test)] mod … { … }` block,
/// with `//` comments removed.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cfg_test = false;
    let mut skip_depth: Option<i64> = None;
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("").to_string();
        let t = code.trim();
        if let Some(d) = skip_depth.as_mut() {
            *d += t.matches('{').count() as i64 - t.matches('}').count() as i64;
            if *d <= 0 {
                skip_depth = None;
            }
            continue;
        }
        if t == "#[cfg(test)]" {
            cfg_test = true;
            continue;
        }
        if cfg_test && t.contains("mod ") && t.ends_with('{') {
            skip_depth = Some(1);
            cfg_test = false;
            continue;
        }
        // further attributes between `#[cfg(test)]` and its `mod`
        cfg_test = cfg_test && t.starts_with("#[");
        out.push((i + 1, code));
    }
    out
}

/// The module a file belongs to (`src/tui/app.rs` → `tui`, `src/survey.rs` → `survey`).
fn top_module(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component").as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// Every violation in `text` of a file in module `module`.
fn violations(module: &str, text: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let own = layer(module);
    for (n, line) in code_lines(text) {
        let mut rest = line.as_str();
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let top: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if let (Some(mine), Some(theirs)) = (own, layer(&top))
                && top != module
                && theirs >= mine
            {
                bad.push(format!("line {n}: {module} (layer {mine}) uses crate::{top} (layer {theirs})"));
            }
            rest = after;
        }
        // `formats::ccsf::…` with or without `crate::` (after `use crate::formats;`)
        if CONSUMERS.contains(&module) {
            let mut rest = line.as_str();
            while let Some(at) = rest.find("formats::") {
                let after = &rest[at + "formats::".len()..];
                let sub: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if FORMAT_MODULES.contains(&sub.as_str()) {
                    bad.push(format!("line {n}: consumer {module} names the format module formats::{sub}"));
                }
                rest = after;
            }
        }
        if CONSUMERS.contains(&module) && (line.contains("id() ==") || line.contains("id() !=")) {
            bad.push(format!("line {n}: consumer {module} compares a format id"));
        }
        if module == "formats" || module == "model" {
            for c in NOT_IN_FORMATS {
                if line.contains(&format!("{c}::")) {
                    bad.push(format!("line {n}: {module} uses {c}"));
                }
            }
        }
    }
    bad
}

#[test]
fn every_import_points_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 40, "the source tree was read ({} files)", files.len());
    // files declared `#[cfg(test)] mod name;` are test code
    let mut test_only = std::collections::BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let dir = if f.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs") {
            f.parent().expect("a folder").to_path_buf()
        } else {
            f.with_extension("")
        };
        let mut cfg_test = false;
        for line in text.lines().map(str::trim) {
            if cfg_test && let Some(name) = line.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                test_only.insert(dir.join(format!("{name}.rs")));
            }
            cfg_test = line == "#[cfg(test)]" || (cfg_test && line.starts_with("#["));
        }
    }
    let mut bad = Vec::new();
    let mut checked = 0;
    for f in files.iter().filter(|f| !test_only.contains(*f)) {
        let module = top_module(&src, f);
        if module == "lib" || module == "main" {
            continue;
        }
        assert!(layer(&module).is_some(), "{}: module {module} has no layer; add it to LAYERS", f.display());
        let text = std::fs::read_to_string(f).expect("readable");
        checked += 1;
        bad.extend(violations(&module, &text).into_iter().map(|v| format!("{}: {v}", f.display())));
    }
    assert!(checked > 40);
    assert!(bad.is_empty(), "layering violations:\n{}", bad.join("\n"));
}

#[test]
fn the_checker_catches_each_kind_of_back_edge() {
    // The back-edges this crate once had, each as a one-line file body.
    let cases = [
        ("export", "use crate::cli::{CliError, Outcome};"),
        ("survey", "use crate::cli::Global;"),
        ("session", "let j = crate::export::matrix_json(&clip, &b, name);"),
        ("session", "match formats::gzarc::probe_reader(&mut r, a, b) {}"),
        ("session", "let x = crate::formats::gzarc::TAIL_KIND;"),
        ("export", "use crate::formats::ccsf::{Image, SceneMeshes};"),
        ("tui", "if self.opened.format().id() == \"ccsf\" {"),
        ("formats", "use crate::session::Opened;"),
        ("formats", "let v = serde_json::json!({});"),
        ("model", "use crate::formats::Format;"),
    ];
    for (module, line) in cases {
        let found = violations(module, &format!("{line}\n"));
        assert!(!found.is_empty(), "{module}: `{line}` was not caught");
    }
    // and lines in test modules and comments are not code
    let test_mod = "#[cfg(test)]\nmod tests {\n    use crate::formats::gzarc::write::archive;\n}\n";
    assert!(violations("session", test_mod).is_empty());
    assert!(violations("session", "// see crate::cli::run\n").is_empty());
}
