//! Tests that keep the documentation in step with the code: every binrw record a format's
//! `raw.rs` declares is named on its page under `docs/formats/`.

use crate::test_support::vectors::declared;
use std::path::{Path, PathBuf};

/// Format folder under `src/formats/` → the pages its records may be named on.
const PAGES: &[(&str, &[&str])] = &[
    ("ccsf", &["ccsf.md", "ccsf-gen2.md"]),
    ("gzarc", &["gzarc.md"]),
    ("motn", &["motn.md"]),
    ("pak", &["pak.md"]),
    ("sc6", &["sc6-mot.md"]),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Records of `source` not named (as `` `Name` ``) in any of `pages`.
fn unnamed(source: &str, pages: &[String]) -> Vec<String> {
    declared(source).into_iter().filter(|r| !pages.iter().any(|p| p.contains(&format!("`{r}`")))).collect()
}

#[test]
fn docs_name_every_record() {
    let formats = root().join("src/formats");
    let docs = root().join("docs/formats");
    let mut missing = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(&formats).expect("src/formats is readable").flatten() {
        let raw = entry.path().join("raw.rs");
        if !raw.is_file() {
            continue;
        }
        let folder = entry.file_name().to_string_lossy().into_owned();
        let Some((_, pages)) = PAGES.iter().find(|(f, _)| *f == folder) else {
            panic!("src/formats/{folder}/raw.rs has no page in docs_tests::PAGES (add one under docs/formats/)");
        };
        let source = read(&raw);
        let records = declared(&source);
        assert!(records.len() >= 3, "{folder}: the source scan found only {records:?}");
        let texts: Vec<String> = pages.iter().map(|p| read(&docs.join(p))).collect();
        checked += records.len();
        missing.extend(
            unnamed(&source, &texts).into_iter().map(|r| format!("{r} (src/formats/{folder}/raw.rs → {pages:?})")),
        );
    }
    // The shared record helpers declare no format record of their own (their binrw
    // structs live in a test module); should one appear, it belongs on some page.
    let all: Vec<String> = PAGES.iter().flat_map(|(_, p)| p.iter()).map(|p| read(&docs.join(p))).collect();
    missing.extend(
        unnamed(&read(&formats.join("record.rs")), &all).into_iter().map(|r| format!("{r} (src/formats/record.rs)")),
    );
    assert!(checked >= 100, "only {checked} records found: the scan is broken");
    assert!(missing.is_empty(), "records not named on their docs/formats page: {missing:#?}");
}

#[test]
fn a_record_missing_from_its_page_is_reported() {
    let source = "#[binrw]\n#[brw(little)]\npub struct Present {\n}\n#[binrw]\npub struct Absent {\n}\n";
    let page = "**`Present`** (4 bytes). A record.".to_string();
    assert_eq!(unnamed(source, &[page]), ["Absent"]);
}
