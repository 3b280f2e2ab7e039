//! Output that cannot be written (issue 49): a verb whose stdout is a full disk
//! (`> /dev/full`) ends with exit 2 and one line naming the stream, never a panic (exit
//! 101, as `print!`/`eprintln!` give); one whose stderr is full still ends with 2; and one
//! whose reader closed the pipe (`| head -1`) ends quietly with 0, as `rg` and `cat` do.
//! Inputs are the committed fixtures and scenes made by the project's writers.

use super::hostile_gen::ccsf_long_anime;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// What a full disk says (ENOSPC, as Linux words it).
const FULL: &str = "cannot write standard output: No space left on device (os error 28)";

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(rel).display().to_string()
}

/// `/dev/full` opened for writing: every write fails with ENOSPC.
fn dev_full() -> std::fs::File {
    std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full (Linux)")
}

fn animscope(dir: &Path) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("animscope"));
    c.current_dir(dir).stdin(Stdio::null());
    c
}

fn stderr_of(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every verb that writes to stdout, over committed fixtures, with the exit it gives when
/// stdout can be written (1 where it reports findings or differences).
fn stdout_verbs() -> Vec<(Vec<String>, i32)> {
    let sc6 = fixture("sc6/fixture_a.mot");
    let turn = fixture("motn/turn.mot");
    let demo = fixture("demo.bin");
    let v = |a: &[&str], code: i32| (a.iter().map(|s| s.to_string()).collect::<Vec<_>>(), code);
    vec![
        v(&["info", &sc6], 0),
        v(&["tree", &demo], 0),
        v(&["tree", &demo, "chr001.mot"], 0),
        v(&["fields", &sc6, "@0"], 0),
        v(&["hex", &sc6], 0),
        v(&["walk", &sc6], 0),
        v(&["decode", &sc6, "--anim", "0"], 0),
        v(&["decode", &demo, "chr001.mot", "--anim", "0", "--curves-only"], 0),
        v(&["plot", &sc6, "--anim", "0", "--channel", "root.x"], 0),
        v(&["pose", &demo, "chr001.mot", "--anim", "0"], 0),
        v(&["survey", &demo], 0),
        v(&["check", &demo], 0),
        v(&["check", &fixture("sc6/x_bank_count_zero.mot")], 1),
        v(&["diff", &sc6, &fixture("sc6/fixture_b.mot")], 1),
        v(&["extract", &demo, "chr001.mot", "-o", "-"], 0),
        v(&["export", &demo, "chr001.mot", "--anim", "0", "-o", "-"], 0),
        v(&["skeleton", "--builtin", "sc6", "-o", "-"], 0),
        v(&["completions", "bash"], 0),
        v(&["man"], 0),
        v(&["help"], 0),
        v(&["--help"], 0),
        v(&["info", "--help"], 0),
        v(&["--version"], 0),
        v(&["info", &turn], 0),
    ]
}

/// Every verb with stdout on a full disk: exit 2 and one line on stderr naming standard
/// output (the same verb writing to a working stdout exits as usual, so each did reach
/// its output).
#[test]
fn every_verb_says_when_stdout_is_full() {
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (args, ok) in stdout_verbs() {
        let o = animscope(tmp.path()).args(&args).stdout(Stdio::piped()).output().unwrap();
        if o.status.code() != Some(ok) || o.stdout.is_empty() {
            failures.push(format!("{args:?} to a pipe: {:?}, {} bytes: {}", o.status, o.stdout.len(), stderr_of(&o)));
            continue;
        }
        let o = animscope(tmp.path()).args(&args).stdout(dev_full()).output().unwrap();
        let err = stderr_of(&o);
        let one_line = err.lines().count() == 1 && err.starts_with("animscope: ") && err.trim_end().ends_with(FULL);
        if o.status.code() != Some(2) || !one_line {
            failures.push(format!("{args:?} to /dev/full: {:?}: {err}", o.status));
        }
    }
    assert!(failures.is_empty(), "{} runs:\n{}", failures.len(), failures.join("\n"));
}

/// `anime.ccs` in `dir`: a 40-object chain driven by one Anime of 3,600 frames, whose poses
/// (40 × 3,600 × 64 bytes = 9.2 MB) need more than `--limit memory=8M`
/// (`budget_verbs`'s input), and whose decode writes far more than a pipe holds.
fn long_anime(dir: &Path) -> PathBuf {
    let p = dir.join("anime.ccs");
    std::fs::write(&p, ccsf_long_anime(40, 3_600)).unwrap();
    p
}

/// Verbs whose only words are on stderr (a file written, a member found by name, an error
/// such as the budget's), with stderr on a full disk: exit 2, not a panic's 101. The
/// first is issue 49's report, `--limit memory=8M decode LONG --curves-only` on a full disk.
#[test]
fn a_full_stderr_ends_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let anime = long_anime(tmp.path()).display().to_string();
    let demo = fixture("demo.bin");
    let runs: Vec<Vec<&str>> = vec![
        vec!["--limit", "memory=8M", "decode", &anime, "Anime[ANM_long]", "--curves-only"],
        vec!["extract", &demo, "chr001.mot", "-o", "x.mot"],
        vec!["export", &demo, "chr001.mot", "--anim", "0", "-o", "x.json"],
        vec!["info", "no-such-file.mot"],
        vec!["tre", "x", "y"],
    ];
    let mut failures = Vec::new();
    for args in runs {
        // the words that were to be written: a working stderr gets them
        for f in ["x.mot", "x.json"] {
            let _ = std::fs::remove_file(tmp.path().join(f));
        }
        let o = animscope(tmp.path()).args(&args).stdout(Stdio::null()).output().unwrap();
        if stderr_of(&o).is_empty() {
            failures.push(format!("{args:?}: nothing on a working stderr"));
        }
        for f in ["x.mot", "x.json"] {
            let _ = std::fs::remove_file(tmp.path().join(f));
        }
        let o = animscope(tmp.path()).args(&args).stdout(dev_full()).stderr(dev_full()).output().unwrap();
        if o.status.code() != Some(2) {
            failures.push(format!("{args:?} with stdout and stderr on /dev/full: {:?}", o.status));
        }
    }
    assert!(failures.is_empty(), "{} runs:\n{}", failures.len(), failures.join("\n"));
}

/// `many.pak` in `dir`: an IPAC of 4,000 one-byte entries, whose tree and hex dump are far
/// more than a pipe holds.
fn many_entries(dir: &Path) -> PathBuf {
    use animscope::formats::pak::write::{Entry, ipac};
    let entries: Vec<Entry> = (0..4_000).map(|i| Entry::new(&format!("E{i:07}"), "CHRT", vec![i as u8])).collect();
    let p = dir.join("many.pak");
    std::fs::write(&p, ipac(&entries)).unwrap();
    p
}

/// A reader that takes one line and closes the pipe (`| head -1`): the verb ends quietly
/// with exit 0 and nothing on stderr. Each output is larger than a pipe holds (64 KiB), so
/// the verb is still writing when the pipe closes.
#[test]
fn a_closed_pipe_ends_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let anime = long_anime(tmp.path()).display().to_string();
    let pak = many_entries(tmp.path()).display().to_string();
    let runs: Vec<Vec<&str>> = vec![
        vec!["decode", &anime, "Anime[ANM_long]"],
        vec!["decode", &anime, "Anime[ANM_long]", "--json"],
        vec!["tree", &pak],
        vec!["hex", &pak, "--len", "200000"],
        vec!["export", &anime, "Anime[ANM_long]", "-o", "-"],
    ];
    let mut failures = Vec::new();
    for args in runs {
        let whole = animscope(tmp.path()).args(&args).output().unwrap();
        if whole.status.code() != Some(0) || whole.stdout.len() < 256 << 10 {
            failures.push(format!("{args:?}: {:?}, {} bytes (want ≥ 256 KiB)", whole.status, whole.stdout.len()));
            continue;
        }
        let mut child =
            animscope(tmp.path()).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        drop(reader);
        let o = child.wait_with_output().unwrap();
        if first.is_empty() || o.status.code() != Some(0) || !o.stderr.is_empty() {
            failures.push(format!("{args:?} | head -1: {:?}: {}", o.status, stderr_of(&o)));
        }
    }
    assert!(failures.is_empty(), "{} runs:\n{}", failures.len(), failures.join("\n"));
}
