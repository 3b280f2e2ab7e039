//! The crate's layering, read from its own source: every `crate::…` path outside test
//! modules and comments must point down the layer list, consumers never name a specific
//! format, and formats never reach for the terminal, JSON or the command line. Nothing
//! outside tests writes with `print!`/`eprintln!` (they panic when a write fails: a full
//! disk, a closed pipe); output goes through writers whose errors are handled (`stdio`).
//!
//! Layers, lowest first (a module may use its own layer's internals and anything lower):
//!   0 text, counters, stdio · 1 error · 2 bytes, limits · 3 source · 4 model · 5 formats, layout ·
//!   6 session, diff, export, fixtures · 7 survey, demo, edit · 8 tui, harness, test_support, import · 9 cli
//! Test-only files (`#[cfg(test)] mod x;`) and inline test modules are not checked.

use std::path::{Path, PathBuf};

const LAYERS: &[(&str, u8)] = &[
    ("text", 0),
    ("counters", 0),
    ("stdio", 0),
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
    ("edit", 7),
    ("import", 8),
    ("wire", 7),
    ("demo", 7),
    ("tui", 8),
    ("harness", 8),
    ("test_support", 8),
    ("cli", 9),
];

/// Modules that consume formats only through `formats::{open, sniff, registry}` and `model`.
const CONSUMERS: &[&str] =
    &["cli", "tui", "export", "survey", "session", "diff", "demo", "harness", "wire", "edit", "import"];

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
        let words = line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'));
        if let Some(m) = words.into_iter().find(|w| matches!(*w, "print!" | "println!" | "eprint!" | "eprintln!")) {
            bad.push(format!("line {n}: {m} panics when the stream cannot be written; use crate::say! or a writer"));
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
    // files declared `#[cfg(test)] mod name;` (any visibility, or `#[path = "x.rs"]`) are
    // test code
    let mut test_only = std::collections::BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let dir = if f.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs") {
            f.parent().expect("a folder").to_path_buf()
        } else {
            f.with_extension("")
        };
        let mut cfg_test = false;
        let mut path_attr: Option<&str> = None;
        for line in text.lines().map(str::trim) {
            let decl = line.split_once("mod ").filter(|(vis, _)| vis.is_empty() || vis.starts_with("pub"));
            if cfg_test && let Some(name) = decl.and_then(|(_, r)| r.strip_suffix(';')) {
                test_only.insert(match path_attr {
                    Some(p) => f.parent().expect("a folder").join(p),
                    None => dir.join(format!("{name}.rs")),
                });
            }
            cfg_test = line == "#[cfg(test)]" || (cfg_test && line.starts_with("#["));
            path_attr = if cfg_test {
                line.strip_prefix("#[path = \"").and_then(|r| r.strip_suffix("\"]")).or(path_attr)
            } else {
                None
            };
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
        ("cli", "    eprintln!(\"animscope: {}\", e);"),
        ("tui", "print!(\"{v}\");"),
    ];
    for (module, line) in cases {
        let found = violations(module, &format!("{line}\n"));
        assert!(!found.is_empty(), "{module}: `{line}` was not caught");
    }
    // and lines in test modules and comments are not code
    let test_mod = "#[cfg(test)]\nmod tests {\n    use crate::formats::gzarc::write::archive;\n}\n";
    assert!(violations("session", test_mod).is_empty());
    assert!(violations("session", "// see crate::cli::run\n").is_empty());
    assert!(violations("cli", "crate::say!(\"animscope: {}\", e)?; // not eprintln!\n").is_empty());
}

// ---------------------------------------------------------------------------------------
// Inside a format folder: the files form layers too (ccsf: band → raw → kinds → model_data →
// model2 → walk → gen2 → parse → mesh/anime/texture → pose → clip → describe/decode), so
// the sibling-import graph of every folder must have no cycle.

use std::collections::{BTreeMap, BTreeSet};

/// Back-edges the gzarc, motn and sc6 folders had when this check was added, each removed
/// by moving code down: (folder, from, to).
const FORMER_BACK_EDGES: &[(&str, &str, &str)] = &[
    ("gzarc", "parse", "listing"),
    ("gzarc", "listing", "describe"),
    ("gzarc", "write", "fixtures"),
    ("motn", "variant", "describe"),
    ("sc6", "pose", "decode"),
    ("sc6", "write", "fixtures"),
];

/// The sibling modules a file of format folder `folder` uses: `super::x` paths (not
/// `super::super::`), the modules named inside `use super::{…}`, and
/// `crate::formats::<folder>::x`. A `pub use` statement re-exports a sibling's items under
/// this module's path and runs nothing, so it is not a use (every folder's `write`
/// publishes its `fixtures` that way).
fn sibling_uses(folder: &str, siblings: &BTreeSet<String>, text: &str) -> BTreeSet<String> {
    let code: Vec<String> = code_lines(text).into_iter().map(|(_, l)| l).collect();
    let mut code = code.join("\n");
    while let Some(at) = code.find("pub use ") {
        let end = code[at..].find(';').map_or(code.len(), |e| at + e + 1);
        code.replace_range(at..end, "");
    }
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut out = BTreeSet::new();
    let mut add = |name: String| {
        if siblings.contains(&name) {
            out.insert(name);
        }
    };
    let own = format!("crate::formats::{folder}::");
    for (at, _) in code.match_indices(&own) {
        add(ident(&code[at + own.len()..]));
    }
    for (at, _) in code.match_indices("super::") {
        let rest = &code[at + "super::".len()..];
        if code[..at].ends_with("super::") || rest.starts_with("super::") {
            continue; // the formats module or above
        }
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut end) = (1, group.len());
            for (i, c) in group.char_indices() {
                depth += i32::from(c == '{') - i32::from(c == '}');
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            for word in group[..end].split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                add(word.to_string());
            }
        } else {
            add(ident(rest));
        }
    }
    out
}

/// A cycle in `graph` (module → the modules it uses) as `a → b → … → a`, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut cycle = path[i..].to_vec();
            cycle.push(at.to_string());
            return Some(cycle);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_string());
        for next in graph.get(at).into_iter().flatten() {
            if let Some(c) = visit(next, graph, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(at.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(m, graph, &mut done, &mut Vec::new()))
}

/// Each format folder's sibling-import graph (test-only files and `mod.rs`, the glue,
/// left out).
fn folder_graphs() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let formats = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/formats");
    let mut out = BTreeMap::new();
    for dir in std::fs::read_dir(&formats).expect("src/formats is readable").flatten().map(|e| e.path()) {
        if !dir.is_dir() {
            continue;
        }
        let folder = dir.file_name().expect("a name").to_string_lossy().into_owned();
        let module = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
        let (mut test_only, mut cfg_test) = (BTreeSet::new(), false);
        for line in module.lines().map(str::trim) {
            if let Some(m) = line.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')).filter(|_| cfg_test) {
                test_only.insert(m.to_string());
            }
            cfg_test = line == "#[cfg(test)]" || (cfg_test && line.starts_with("#["));
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("readable").flatten().map(|e| e.path()).collect();
        files.retain(|f| f.extension().is_some_and(|x| x == "rs"));
        let stem = |f: &PathBuf| f.file_stem().expect("a stem").to_string_lossy().into_owned();
        let siblings: BTreeSet<String> =
            files.iter().map(stem).filter(|m| m != "mod" && !test_only.contains(m)).collect();
        let mut graph = BTreeMap::new();
        for f in files.iter().filter(|f| siblings.contains(&stem(f))) {
            let text = std::fs::read_to_string(f).expect("readable");
            let mut uses = sibling_uses(&folder, &siblings, &text);
            uses.remove(&stem(f));
            graph.insert(stem(f), uses);
        }
        out.insert(folder, graph);
    }
    out
}

#[test]
fn no_format_folder_has_an_import_cycle() {
    let graphs = folder_graphs();
    assert!(graphs.len() >= 5 && graphs["ccsf"].len() > 15, "the format folders were read: {:?}", graphs.keys());
    // the edges the ccsf rework removed stay removed (each closed the old five-file cycle)
    for (from, to) in [("raw", "parse"), ("walk", "gen2"), ("mesh", "gen2"), ("gen2", "mesh"), ("model_data", "walk")] {
        assert!(!graphs["ccsf"][from].contains(to), "ccsf: {from} uses {to} again");
    }
    // and the back-edges the other folders once had (the ratchet list this test kept)
    for (folder, from, to) in FORMER_BACK_EDGES {
        assert!(!graphs[*folder][*from].contains(*to), "{folder}: {from} uses {to} again");
    }
    let mut bad = Vec::new();
    for (folder, graph) in graphs {
        if let Some(cycle) = find_cycle(&graph) {
            bad.push(format!("formats/{folder}: {}", cycle.join(" → ")));
        }
    }
    assert!(
        bad.is_empty(),
        "import cycles inside a format folder (a file may use only files below it):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_cycle_finder_names_a_back_edge() {
    let siblings: BTreeSet<String> = ["raw", "walk", "parse", "mesh", "write", "fixtures"].map(String::from).into();
    let files = [
        ("raw", "use super::parse::Index; // the back-edge\nuse super::super::record::Spanned;\n"),
        ("walk", "use super::raw;\nuse crate::error::Result;\n"),
        ("parse", "use super::{\n    raw::{self, Header},\n    walk,\n};\n"),
        ("mesh", "let m = crate::formats::demo::parse::Index::default();\nfn f() { super::parse::x() }\n"),
        ("write", "use super::raw;\npub use super::fixtures::{a, b};\n"),
        ("fixtures", "use super::write::write;\n#[cfg(test)]\nmod tests {\n    use super::mesh;\n}\n"),
    ];
    let mut graph: BTreeMap<String, BTreeSet<String>> =
        files.iter().map(|(m, text)| (m.to_string(), sibling_uses("demo", &siblings, text))).collect();
    let names = |m: &str| graph[m].iter().cloned().collect::<Vec<_>>();
    assert_eq!(names("parse"), ["raw", "walk"], "a multi-line `use super::{{…}}`");
    assert_eq!(names("mesh"), ["parse"], "`crate::formats::<folder>::` and `super::x::` in code");
    assert_eq!(names("write"), ["raw"], "a `pub use` re-export is not a use");
    assert!(names("fixtures") == ["write"], "inline test modules are not checked");
    assert_eq!(names("raw"), ["parse"], "`super::super::` is outside the folder");
    assert_eq!(
        find_cycle(&graph).map(|c| c.join(" → ")).as_deref(),
        Some("raw → parse → raw"),
        "the back-edge raw → parse closes a cycle and is named"
    );
    graph.get_mut("raw").expect("raw").clear();
    assert_eq!(find_cycle(&graph), None, "without the back-edge the graph is layered");
}

#[test]
fn each_former_back_edge_put_back_is_a_cycle() {
    // The real folders, with each removed edge restored in turn: the check must fail.
    for (folder, from, to) in FORMER_BACK_EDGES {
        let mut graph = folder_graphs().remove(*folder).expect("the folder is read");
        assert_eq!(find_cycle(&graph), None, "formats/{folder} is acyclic as committed");
        graph.get_mut(*from).expect("a module").insert(to.to_string());
        let cycle = find_cycle(&graph).unwrap_or_else(|| panic!("{folder}: {from} → {to} was not caught"));
        let names = cycle.join(" → ");
        assert!(names.contains(&format!("{from} → {to}")), "{folder}: the cycle {names} names the edge");
    }
}
