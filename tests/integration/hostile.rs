//! Hostile names: strings from a file never reach a terminal as control characters. A
//! sector-gzip archive whose member names carry ESC/CSI, OSC 52 (clipboard), BEL, C1 and
//! bidi controls goes through the text verbs and an error path; JSON keeps exact values.

use animscope::formats::gzarc::write::archive;
use animscope::model::is_unsafe_char;
use assert_cmd::Command;

/// Member names, as the gzip FNAME bytes. gzarc decodes them as Latin-1, so the UTF-8 of
/// U+009B comes back as `Â` + U+009B (a C1 control either way) and a bidi control's UTF-8
/// comes back as a C1 control between two letters (bidi escaping is tested in
/// `model::text`).
const NAMES: [&str; 7] = [
    "a\u{1b}[31mred\u{1b}[0m.cmp",
    "\u{1b}]52;c;QUFBQQ==\u{7}clip.cmp",
    "bell\u{7}\u{7}.cmp",
    "csi\u{9b}2J.cmp",
    "\u{202e}gnp.cmp",
    "tab\tnl\ncr\r.cmp",
    "del\u{7f}\u{2066}iso\u{2069}.cmp",
];

fn hostile_archive() -> (tempfile::TempDir, String) {
    let members: Vec<(String, Vec<u8>)> =
        NAMES.iter().map(|n| (n.to_string(), b"member bytes, raw".to_vec())).collect();
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("HOSTILE.BIN");
    std::fs::write(&p, archive(&members)).unwrap();
    let s = p.to_string_lossy().into_owned();
    (d, s)
}

/// Run (stdout is a pipe, not a TTY) and return (exit code, stdout, stderr), failing if
/// the output is not UTF-8.
fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::cargo_bin("animscope")
        .unwrap()
        .args(args)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
}

/// No control character but the line breaks the output itself writes.
fn assert_terminal_safe(what: &str, text: &str) {
    for (i, c) in text.char_indices() {
        assert!(c == '\n' || !is_unsafe_char(c), "{what}: control {c:?} at byte {i} in:\n{text}");
    }
}

/// Exact member paths as JSON reports them (`HOSTILE.BIN/<name>`).
fn member_paths(file: &str) -> Vec<String> {
    let (code, out, err) = run(&["tree", file, "--json", "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|j| j["depth"] == 1)
        .map(|j| j["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn member_names_reach_the_terminal_escaped() {
    let (_d, file) = hostile_archive();
    let paths = member_paths(&file);
    // JSON keeps the exact names (serde escapes the controls), Latin-1 decoded.
    let exact: Vec<String> =
        NAMES.iter().map(|n| format!("HOSTILE.BIN/{}", n.bytes().map(char::from).collect::<String>())).collect();
    assert_eq!(paths, exact);

    let mut outputs = Vec::new();
    for args in [
        vec!["tree", &file],
        vec!["tree", &file, "--fields"],
        vec!["info", &file],
        vec!["walk", &file],
        vec!["check", &file],
        vec!["survey", &file],
    ] {
        let (code, out, err) = run(&args);
        assert!(code == 0 || code == 1, "{args:?}: {err}");
        outputs.push((format!("{args:?}"), out, err));
    }
    for p in &paths {
        for verb in ["fields", "info", "hex", "tree"] {
            let (code, out, err) = run(&[verb, &file, p]);
            assert_eq!(code, 0, "{verb} {p:?}: {err}");
            outputs.push((format!("{verb} {p:?}"), out, err));
        }
        // An error naming a node inside the member: the member's name is in the message.
        let (code, out, err) = run(&["fields", &file, &format!("{p}/no/such")]);
        assert_eq!(code, 2, "{p:?}: {err}");
        assert!(err.contains("no node at"), "{err}");
        outputs.push((format!("error {p:?}"), out, err));
    }
    for (what, out, err) in &outputs {
        assert_terminal_safe(what, out);
        assert_terminal_safe(what, err);
    }
    // The names are still there, visibly escaped.
    let tree = &outputs[0].1;
    for escaped in [
        "a\\x1b[31mred\\x1b[0m.cmp",
        "\\x1b]52;c;QUFBQQ==\\x07clip.cmp",
        "bell\\x07\\x07.cmp",
        "csi\u{c2}\\u{9b}2J.cmp",
        "â\\u{80}®gnp.cmp",
        "tab\\x09nl\\x0acr\\x0d.cmp",
        "del\\x7fâ\\u{81}¦isoâ\\u{81}©.cmp",
    ] {
        assert!(tree.contains(escaped), "{escaped} not in:\n{tree}");
    }
    let info_member = &outputs.iter().find(|(w, _, _)| w.starts_with("info \"HOSTILE.BIN/a")).unwrap().1;
    assert!(info_member.contains("file      HOSTILE.BIN › a\\x1b[31mred"), "{info_member}");
}

#[test]
fn a_hostile_file_name_is_escaped_in_errors() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("evil\u{1b}]0;pwned\u{7}.bin");
    std::fs::write(&p, b"").unwrap();
    let (code, out, err) = run(&["info", &p.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_terminal_safe("empty file error", &err);
    assert!(err.contains("evil\\x1b]0;pwned\\x07.bin: file is empty"), "{err}");
}
