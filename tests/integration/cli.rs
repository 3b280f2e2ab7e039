//! The command line on any file: raw format, addressing, errors and exit codes.

use assert_cmd::Command;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

fn bin() -> Command {
    Command::cargo_bin("animscope").unwrap()
}

/// Run with args and return (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let o = bin().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// [`run`] with a kill timeout: an input that blocks or never ends fails the test
/// instead of hanging the suite.
fn run_guarded(args: &[&str]) -> (i32, String, String) {
    let o = bin().args(args).timeout(std::time::Duration::from_secs(30)).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

fn temp_with(name: &str, bytes: &[u8]) -> (tempfile::TempDir, String) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    let s = p.to_string_lossy().into_owned();
    (d, s)
}

#[test]
fn bad_inputs_give_one_line_and_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let missing = d.path().join("missing.bin");
    let empty = d.path().join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    // Not regular files: a socket, a FIFO with no writer (opening it must not block), a
    // device that never ends.
    let sock = d.path().join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let fifo = d.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let cases = [
        (missing.to_string_lossy().into_owned(), "no such file"),
        (d.path().to_string_lossy().into_owned(), "is a directory"),
        (empty.to_string_lossy().into_owned(), "file is empty"),
        (sock.to_string_lossy().into_owned(), "not a regular file (socket)"),
        (fifo.to_string_lossy().into_owned(), "not a regular file (fifo)"),
        ("/dev/zero".to_string(), "not a regular file (character device)"),
    ];
    for (path, needle) in cases {
        for verb in ["info", "tree", "hex", "walk", "survey"] {
            if verb == "survey" && needle == "is a directory" {
                continue; // survey walks directories (see batch_verbs_walk_directories_in_sorted_order)
            }
            let (code, out, err) = run_guarded(&[verb, &path]);
            assert_eq!(code, 2, "{verb} {path}: {err}");
            assert!(out.is_empty(), "{verb} {path}: stdout {out}");
            assert_eq!(err.lines().count(), 1, "{verb} {path}: {err}");
            assert!(err.starts_with("animscope: ") && err.contains(needle), "{verb} {path}: {err}");
            assert!(err.contains(&path), "{verb}: error must name the file: {err}");
        }
    }
    if !nix_is_root() {
        let locked = d.path().join("locked.bin");
        std::fs::write(&locked, b"x").unwrap();
        std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
        let (code, _, err) = run(&["info", &locked.to_string_lossy()]);
        assert_eq!(code, 2);
        assert!(err.contains("permission denied"), "{err}");
    }
}

fn nix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| s.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0")))
        .unwrap_or(false)
}

#[test]
fn usage_errors_exit_2() {
    let (code, _, err) = run(&["tree"]);
    assert_eq!(code, 2, "{err}");
    let (_d, p) = temp_with("a.bin", b"abcdef");
    let (code, _, err) = run(&["fields", &p, "no/such/node"]);
    assert_eq!(code, 2);
    assert!(err.contains("no node at no/such/node"), "{err}");
    let (code, _, err) = run(&["hex", &p, "--at", "zz"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a number"), "{err}");
    let (code, _, err) = run(&["--format", "nope", "info", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("format nope"), "{err}");
}

#[test]
fn raw_format_info_tree_hex_walk() {
    let bytes: Vec<u8> = (0u8..40).collect();
    let (_d, p) = temp_with("any.dat", &bytes);
    let (code, out, _) = run(&["info", &p]);
    assert_eq!(code, 0);
    assert!(out.contains("format    raw"), "{out}");
    assert!(out.contains("size      40 bytes (0x28)"), "{out}");

    let (_, out, _) = run(&["tree", &p, "--fields"]);
    assert_eq!(out.lines().next(), Some("any.dat  file  0x0..0x28"));
    assert!(out.contains("bytes = 40 bytes unknown  @0x0 40 B"), "{out}");

    let (_, out, _) = run(&["hex", &p, "--at", "0x10", "--len", "0x10"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[1].starts_with("00000010  10 11 12 13 14 15 16 17  18 19 1a 1b 1c 1d 1e 1f "), "{out}");
    assert!(lines[1].ends_with("│ …bytes"), "{out}");

    let (code, out, _) = run(&["walk", &p, "--json"]);
    assert_eq!(code, 0);
    let step: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(step["start"], 0);
    assert_eq!(step["end"], 40);

    let (_, out, _) = run(&["tree", &p, "--json", "--fields"]);
    let node: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(node["end"], 40);
    assert_eq!(node["fields"][0]["value"]["meaning"], "unknown");

    let (_, out, _) = run(&["fields", &p, "@0x5"]);
    assert!(out.starts_with("any.dat  any.dat  file  0x0..0x28"), "{out}");
}

#[test]
fn forced_format_and_no_mmap() {
    let (_d, p) = temp_with("x.bin", b"hello");
    let (code, out, _) = run(&["--format", "raw", "--no-mmap", "info", &p, "--json"]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["format"], "raw");
    assert_eq!(j["mapped"], false);
}

#[test]
fn broken_pipe_exits_quietly() {
    let (_d, p) = temp_with("big.bin", &vec![0x41u8; 1 << 20]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("animscope"))
        // every row shown (-v): identical rows would be squeezed to a few lines
        .args(["hex", &p, "--len", "1048576", "-v"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).unwrap();
    // The reader is dropped here: the pipe closes while animscope is still writing.
    let out = child.wait_with_output().unwrap();
    assert!(first.contains("big.bin"), "{first}");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// FNV-1a over a file's bytes: enough to notice any change.
fn hash(p: &std::path::Path) -> u64 {
    std::fs::read(p)
        .unwrap()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3))
}

#[test]
fn no_command_modifies_any_fixture() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for (rel, _) in animscope::fixtures::all() {
        files.push(root.join(rel));
    }
    let before: Vec<(u64, std::time::SystemTime)> =
        files.iter().map(|f| (hash(f), std::fs::metadata(f).unwrap().modified().unwrap())).collect();
    let dir = tempfile::tempdir().unwrap();
    for f in &files {
        let p = f.to_string_lossy().into_owned();
        let out = dir.path().join("out.json").to_string_lossy().into_owned();
        let commands: [&[&str]; 8] = [
            &["info", &p],
            &["tree", &p, "--fields"],
            &["hex", &p, "--len", "4096"],
            &["walk", &p],
            &["check", &p],
            &["survey", &p],
            &["decode", &p, "@0x10"],
            &["export", &p, "@0x10", "-o", &out, "--force"],
        ];
        for args in commands {
            let _ = run(args);
        }
    }
    for (f, (h, m)) in files.iter().zip(before) {
        assert_eq!(hash(f), h, "{} changed", f.display());
        assert_eq!(std::fs::metadata(f).unwrap().modified().unwrap(), m, "{} was touched", f.display());
    }
}

/// `info` on an archive larger than the interactive listing budget answers from the first
/// part and says so; `tree` lists every member. Counts follow from where the writer put
/// the members (one every 1 MiB over 24 MiB).
#[test]
fn info_on_a_big_archive_reports_a_partial_listing() {
    use animscope::formats::gzarc::write::{FIXTURE_MTIME, gzip_member};
    use animscope::limits::INTERACTIVE_LIST_BUDGET;
    const MIB: usize = 1 << 20;
    let len = 24 * MIB;
    let mut data = vec![0u8; len];
    for (i, off) in (0..len).step_by(MIB).enumerate() {
        let m = gzip_member(&format!("m{i:02}.bin"), format!("member {i}").as_bytes(), FIXTURE_MTIME);
        data[off..off + m.len()].copy_from_slice(&m);
    }
    let (_d, p) = temp_with("big.bin", &data);
    let budget = usize::try_from(INTERACTIVE_LIST_BUDGET).unwrap();
    assert!(budget < len, "the archive must exceed the interactive budget");
    // The budget finds the starts at 0, 1, … MiB below it; every one but the last is listed
    // (a member's end is the next start, and the last one's is not found yet).
    let starts_probed = budget.div_ceil(MIB);
    let (members, listed) = (starts_probed as u64 - 1, ((starts_probed - 1) * MIB) as u64);
    let (code, out, _) = run(&["info", &p, "--json"]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let listing = &j["listing"];
    assert_eq!(listing["complete"], false, "{j}");
    assert_eq!(listing["members_listed"].as_u64(), Some(members), "{listing}");
    assert_eq!(listing["listed_bytes"].as_u64(), Some(listed), "{listing}");
    assert_eq!(listing["probed_bytes"].as_u64(), Some(budget as u64), "{listing}");
    let (code, out, _) = run(&["info", &p]);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("listing   partial: {members} members in the first {listed} bytes")), "{out}");
    let (code, out, _) = run(&["tree", &p, "--depth", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().filter(|l| l.contains("gzip member")).count(), len / MIB, "{out}");
}

fn fixture_path(rel: &str) -> String {
    format!("{}/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn batch_verbs_report_every_file_and_exit_2_for_unreadable_ones() {
    let (a, b) = (fixture_path("sc6/fixture_a.mot"), fixture_path("motn/vector_a.mot"));
    let missing = fixture_path("does/not/exist.mot");
    for verb in ["survey", "check"] {
        let (code, out, err) = run(&[verb, &a, &missing, &b]);
        assert_eq!(code, 2, "{verb}: {out}{err}");
        assert!(out.contains("fixture_a.mot"), "{verb} reports the first file: {out}");
        assert!(out.contains("vector_a.mot"), "{verb} reports the file after the missing one: {out}");
        let err_lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(err_lines.len(), 1, "{verb}: one error line: {err}");
        assert!(err_lines[0].contains("exist.mot"), "{verb}: the line names the file: {err}");
    }
    // every file readable: the usual 0
    let (code, _, err) = run(&["survey", &a, &b]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn batch_verbs_walk_directories_in_sorted_order() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("sub")).unwrap();
    let a = std::fs::read(fixture_path("sc6/fixture_a.mot")).unwrap();
    let v = std::fs::read(fixture_path("motn/vector_a.mot")).unwrap();
    std::fs::write(d.path().join("sub/b.mot"), &v).unwrap();
    std::fs::write(d.path().join("a.mot"), &a).unwrap();
    let (code, out, err) = run(&["survey", &d.path().to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    let a_at = out.find("a.mot (sc6)").expect("a.mot surveyed");
    let b_at = out.find("b.mot (motn)").expect("sub/b.mot surveyed");
    assert!(a_at < b_at, "sorted by path: {out}");
    assert!(out.contains("total (total)"), "two files give a total: {out}");
}

#[test]
fn unknown_options_and_two_selectors_are_usage_errors() {
    let a = fixture_path("sc6/fixture_a.mot");
    let (code, _, err) = run(&["decode", &a, "--clip", "0", "--opt", "typo_order=enum"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no option typo_order") && err.contains("lr_order"), "names the valid ones: {err}");
    let (code, _, err) = run(&["decode", &a, "--clip", "0", "--opt", "lr_order=sideways"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("horsemod") && err.contains("enum"), "lists the values: {err}");
    let (code, _, err) = run(&["decode", &a, "--clip", "0", "--seq", "FOO"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--clip") && err.contains("--seq"), "{err}");
    // --anim is the one selector; the aliases reach the same clip
    let (code, by_anim, err) = run(&["decode", &a, "--anim", "0", "--json"]);
    assert_eq!(code, 0, "{err}");
    let (_, by_clip, _) = run(&["decode", &a, "--clip", "0", "--json"]);
    assert_eq!(by_anim, by_clip);
}

#[test]
fn the_tui_without_a_terminal_says_what_to_do() {
    let a = fixture_path("sc6/fixture_a.mot");
    // assert_cmd gives the child pipes, not a terminal
    let (code, out, err) = run(&[&a]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("needs a terminal") && err.contains("ssh -t"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// stderr of a failing command, which must be one line with exit code 2.
fn usage_line(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    err.trim_end().to_string()
}

#[test]
fn messages_say_what_to_do() {
    let multi = fixture_path("motn/multi.mot");
    let chara = fixture_path("ccsf/chara.cmp");
    let data = fixture_path("gzarc/DATA.BIN");
    // a file of several animations: how many, how to pick, an example, where the list is
    assert_eq!(
        usage_line(&["decode", &multi]),
        format!(
            "animscope: multi.mot: 10 animations and none picked; pick one with --anim NAME or a node path \
             (e.g. --anim \"A_WALK_L_02\"); `animscope tree {multi}` lists them: \"A_WALK_L_02\", \"TEST_SEQ\", \
             \"A_WALK_L_02_COPY\", \"LONG_SEQ\", \"AKI_AKI_YS00_R_ST\", \"YKI_WALK\", \"TMN_BAG\", \"WIDE_KEYS\", \
             \"YAG_LOW_BITS\", \"ERROR\""
        )
    );
    // a file of one animation decodes it
    let (code, out, err) = run(&["decode", &chara]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("anime ANM_walk  5 frames @30 Hz"), "{out}");
    // a name that is not there: the nearest one, no offset
    assert_eq!(
        usage_line(&["decode", &multi, "--seq", "a_walk_l_02"]),
        format!(
            "animscope: multi.mot: no animation named a_walk_l_02; did you mean A_WALK_L_02? (`animscope decode \
             {multi}` lists its 10 animations)"
        )
    );
    assert_eq!(
        usage_line(&["decode", &chara, "--anime", "ANM_wlk"]),
        "animscope: chara.cmp: no animation named ANM_wlk; did you mean ANM_walk? (its one animation is ANM_walk)"
    );
    assert_eq!(
        usage_line(&["decode", &multi, "--anim", "NOTHING_LIKE_IT"]),
        format!(
            "animscope: multi.mot: no animation named NOTHING_LIKE_IT (`animscope decode {multi}` lists its 10 animations)"
        )
    );
    // formats listed on a bad --format, with the nearest one
    assert_eq!(
        usage_line(&["--format", "bogus", "info", &multi]),
        "animscope: --format bogus: no such format (formats: gzarc, ccsf, sc6, pks, ipac, pkf, motn, raw)"
    );
    assert_eq!(
        usage_line(&["--format", "mtn", "info", &multi]),
        "animscope: --format mtn: no such format; did you mean motn? (formats: gzarc, ccsf, sc6, pks, ipac, pkf, motn, \
         raw)"
    );
    // typo'd verbs: the visible verb meant, never the hidden gen-fixtures
    assert_eq!(usage_line(&["tre", &multi]), "animscope: no verb or file tre; did you mean `animscope tree`?");
    assert_eq!(usage_line(&["infoo"]), "animscope: no verb or file infoo; did you mean `animscope info`?");
    let no_verb = usage_line(&["gen", &multi]);
    assert_eq!(
        no_verb,
        "animscope: no verb gen (verbs: info, tree, fields, hex, walk, decode, survey, check, diff, plot, pose, extract, \
         export, skeleton, set, import, completions, man, layout)"
    );
    // an archive has no meshes: name a member
    assert_eq!(
        usage_line(&["export", &data, "--obj", "-o", "x.obj"]),
        format!(
            "animscope: DATA.BIN: gzip archive holds no meshes itself; name a member: `animscope export {data} \
             DATA.BIN/mini.cmp --obj -o OUT.obj` (`animscope tree {data}` lists them)"
        )
    );
    // usage errors end without a byte offset
    for args in [&["decode", &multi, "--seq", "zz"][..], &["--format", "bogus", "tree", &multi][..]] {
        let line = usage_line(args);
        assert!(!line.contains(" at 0x"), "{line}");
    }
}

#[test]
fn a_bad_keymap_lists_the_shipped_ones() {
    let a = fixture_path("sc6/fixture_a.mot");
    let (code, _, err) = run(&["--keymap", "vi", &a]);
    assert_eq!(code, 2);
    let first = err.lines().next().unwrap_or("");
    assert_eq!(
        first,
        "animscope: keymap vi: no such file and no shipped keymap of that name; did you mean vim? (shipped: default, \
         vim, emacs) (file ignored, using default)"
    );
    let (_d, bad) = temp_with("k.toml", b"name = \"k\"\n[[bind]]\nkeys = \"q\"\naction = \n");
    let (_, _, err) = run(&["--keymap", &bad, &a]);
    let first = err.lines().next().unwrap_or("");
    assert!(first.starts_with(&format!("animscope: keymap {bad}:4:")), "line and column: {err}");
}

#[test]
fn walk_steps_count_from_one_in_text_and_json() {
    let multi = fixture_path("motn/multi.mot");
    let (code, out, _) = run(&["walk", &multi]);
    assert_eq!(code, 0);
    assert!(out.starts_with("   1  0x0..0x14 file header"), "{out}");
    let (_, out, _) = run(&["walk", &multi, "--json"]);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["step"], 1);
}

#[test]
fn completions_and_man_page_come_from_the_clap_definitions() {
    for (shell, marker) in [("bash", "_animscope()"), ("zsh", "#compdef animscope"), ("fish", "complete -c animscope")]
    {
        let (code, out, err) = run(&["completions", shell]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(marker), "{shell}: {out}");
        for verb in ["info", "tree", "decode", "export", "completions", "man"] {
            assert!(out.contains(verb), "{shell} completes {verb}");
        }
        assert!(!out.contains("gen-fixtures"), "{shell}: hidden verbs are not completed");
    }
    let (code, out, err) = run(&["man"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(".TH animscope 1"), "{out}");
    assert!(out.contains("animscope \\- inspect game animation"), "{out}");
    assert!(out.contains("NODE ADDRESSES"), "the addressing help is in the page");
    assert!(!out.contains("gen\\-fixtures"), "hidden verbs are not in the page");
    assert!(!out.contains("gen-fixtures"), "hidden verbs are not in the page");
    let (code, _, err) = run(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(err.contains("bash") && err.contains("zsh") && err.contains("fish"), "lists the shells: {err}");
}

#[test]
fn extract_writes_a_members_or_a_nodes_bytes() {
    let d = tempfile::tempdir().unwrap();
    // an IPAC entry is the MOTN file it was packed from, byte for byte
    let pks = fixture_path("motn/motion.pks");
    let multi = std::fs::read(fixture_path("motn/multi.mot")).unwrap();
    let o = bin().args(["extract", &pks, "ipac/MULTI.MOTN", "-o", "-"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(o.stdout, multi);
    // a node's span: the file header of multi.mot is its first 0x14 bytes
    let out = d.path().join("header.bin");
    let (code, _, err) = run(&["extract", &fixture_path("motn/multi.mot"), "header", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), multi[..0x14]);
    assert!(err.contains("wrote") && err.contains("20 bytes of multi.mot/header"), "{err}");
    // never overwrites silently
    let (code, _, err) = run(&["extract", &fixture_path("motn/multi.mot"), "header", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("exists (use --force to overwrite)"), "{err}");
    // a gzip member is written inflated: it opens as the CCSF scene it holds
    let cmp = d.path().join("mini.cmp");
    let (code, _, err) = run(&["extract", &fixture_path("gzarc/DATA.BIN"), "mini.cmp", "-o", cmp.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (_, info, _) = run(&["info", cmp.to_str().unwrap()]);
    assert!(info.contains("format    ccsf"), "{info}");
}

#[test]
fn export_all_writes_one_json_per_animation() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("out");
    let (code, out, err) = run(&["export", &fixture_path("motn/multi.mot"), "--all", "-o", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    // the standard sequences are posed; the baked and node-track variants are not
    assert!(
        names.contains(&"A_WALK_L_02.json".to_string()) && names.contains(&"TEST_SEQ.json".to_string()),
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.starts_with("TMN_BAG") || n.starts_with("AKI_AKI")), "{names:?}");
    assert_eq!(out.lines().count(), names.len(), "one line per file written: {out}");
    assert!(err.contains(&format!("exported {} of 10 animations", names.len())) && err.contains("skipped"), "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("A_WALK_L_02.json")).unwrap()).unwrap();
    assert_eq!(json["schema"], "sc6-armature-matrices-v1");
    // again without --force: nothing is overwritten
    let (code, _, err) = run(&["export", &fixture_path("motn/multi.mot"), "--all", "-o", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exists"), "{err}");
}

#[test]
fn hex_follows_hexyl() {
    let mut bytes = vec![0u8; 0x100];
    bytes[..6].copy_from_slice(b"AB\t\x07\xff ");
    let (_d, p) = temp_with("z.bin", &bytes);
    // -s/-n are --at/--len; piped output has no colour; the TUI's glyphs
    let (code, out, err) = run(&["hex", &p, "-s", "0", "-n", "0x100"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "00000000  41 42 09 07 ff 20 00 00  00 00 00 00 00 00 00 00  AB_•× ⋄⋄⋄⋄⋄⋄⋄⋄⋄⋄  │ bytes");
    // the 15 zero rows after it: the first shown, the rest squeezed
    assert!(lines[2].starts_with("00000010  00 00 00"), "{out}");
    assert_eq!(lines[3], "*");
    assert_eq!(lines.len(), 4, "{out}");
    assert!(!out.contains('\x1b'), "no colour into a pipe");
    let (_, all, _) = run(&["hex", &p, "-n", "0x100", "--no-squeezing"]);
    assert_eq!(all.lines().count(), 17);
    // colour on request, by byte category
    let (_, col, _) = run(&["hex", &p, "-n", "0x10", "--color", "always"]);
    assert!(col.contains("\x1b[36m41\x1b[0m") && col.contains("\x1b[33mff\x1b[0m"), "{col:?}");
    // past the end is an error, not an empty dump
    let (code, out, err) = run(&["hex", &p, "--at", "0x100"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("--at 0x100 is past the end (0x100 bytes)"), "{err}");
}

/// Batch verbs name each input by its path as given (relative to the argument), so two
/// inputs of one name in different folders are told apart; every entry a directory walk
/// skips costs one stderr line saying why (a FIFO, a symlink: not followed, so a loop
/// cannot trap the walk), and a count ends the walk.
#[test]
fn batch_verbs_name_paths_as_given_and_say_what_they_skip() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("in");
    for sub in ["a", "b"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
    }
    std::fs::copy(fixture_path("motn/vector_a.mot"), root.join("a/x.mot")).unwrap();
    // b/x.mot: a MOTN file cut short, so its check has findings or fails
    let v = std::fs::read(fixture_path("motn/vector_a.mot")).unwrap();
    std::fs::write(root.join("b/x.mot"), &v[..v.len() / 2]).unwrap();
    let fifo = root.join("pipe");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::os::unix::fs::symlink(&root, root.join("a/loop")).unwrap();
    let arg = root.to_string_lossy().into_owned();
    for verb in ["check", "survey"] {
        let (_, out, err) = run_guarded(&[verb, &arg]);
        let (ax, bx) = (format!("{arg}/a/x.mot"), format!("{arg}/b/x.mot"));
        assert!(out.contains(&ax) || err.contains(&ax), "{verb} names a/x.mot by its path:\n{out}\n{err}");
        assert!(out.contains(&bx) || err.contains(&bx), "{verb} names b/x.mot by its path:\n{out}\n{err}");
        assert!(err.contains(&format!("{arg}/pipe: skipped: a FIFO")), "{verb}: {err}");
        assert!(err.contains(&format!("{arg}/a/loop: skipped: a symbolic link")), "{verb}: {err}");
        assert!(err.contains("skipped 2 entries that are not regular files"), "{verb}: {err}");
    }
}

/// Every `--opt` value is checked: a number option given a word, a negative number or one
/// past its range is a usage error naming the option, not silently ignored.
#[test]
fn bad_option_values_are_usage_errors_naming_the_option() {
    let chara = fixture_path("ccsf/chara.cmp");
    for bad in ["frames=abc", "frames=-1", "frames=99999999999", "frames="] {
        let (code, _, err) = run(&["decode", &chara, "--opt", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains(&format!("--opt {bad}")) && err.contains("whole number"), "{bad}: {err}");
    }
    let (code, _, err) = run(&["decode", &chara, "--opt", "frames=12"]);
    assert_eq!(code, 0, "{err}");
}

/// The man page is whole (issue 38): a section per verb with its usage and options, the
/// TUI's keys from the default keymap, the addresses and exit codes as lists, no reference
/// to an `animscope-VERB(1)` page (none is generated), and no preformatted block for `man`
/// to refill into broken lines. `man --warnings` on it is run by .ci/run (and here when
/// `man` is installed).
#[test]
fn the_man_page_has_every_verb_and_the_tui_keys() {
    let (code, page, err) = run(&["man"]);
    assert_eq!(code, 0, "{err}");
    // the verbs `--help` lists, each a section
    let (_, help, _) = run(&["--help"]);
    let verbs: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|v| *v != "help")
        .collect();
    assert!(verbs.len() >= 15, "{help}");
    for v in &verbs {
        assert!(page.contains(&format!(".SS \"animscope {v}\"")), "no section for {v}");
        assert!(page.contains(&format!("\\fBUsage:\\fR animscope {v}")), "no usage for {v}");
    }
    // options of a verb, with the minus signs roff wants
    assert!(page.contains("\\fB\\-\\-summary\\fR"), "diff's --summary");
    assert!(page.contains("\\fB\\-\\-tolerance\\fR \\fIT\\fR"), "an option with its value name");
    for refers in ["animscope-info(1)", "animscope\\-info", ".SH EXTRA", ".nf"] {
        assert!(!page.contains(refers), "the page has {refers:?}");
    }
    // the TUI keys: every action of the default keymap, from the keymap file
    let keymap = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/keymaps/default.toml")).expect("keymap");
    assert!(page.contains(".SH \"TUI KEYS\""));
    let mut descs = 0;
    for line in keymap.lines() {
        if let Some(d) = line.trim().strip_prefix("desc = \"").and_then(|d| d.strip_suffix('"')) {
            descs += 1;
            let d = d.replace("\\\"", "\"");
            assert!(page.contains(&d), "key description {d:?} not in the page");
        }
    }
    assert!(descs > 20, "{descs} descriptions read from the keymap");
    for section in [".SH \"NODE ADDRESSES\"", ".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".TP\n\\fINAME\\fR"] {
        assert!(page.contains(section), "{section}");
    }
    // man itself, when installed: no warnings at 80 columns
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("animscope.1");
    std::fs::write(&file, &page).expect("write");
    let man = std::process::Command::new("man").args(["--warnings", "-l"]).arg(&file).env("MANWIDTH", "80").output();
    if let Ok(o) = man {
        let warnings = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() && warnings.trim().is_empty(), "man --warnings:\n{warnings}");
        // without the overstrike bold (`X\x08X`) man writes when not on a terminal
        let mut text = String::new();
        for ch in String::from_utf8_lossy(&o.stdout).chars() {
            if ch == '\u{8}' {
                text.pop();
            } else {
                text.push(ch);
            }
        }
        assert!(text.contains("TUI KEYS") && text.contains("animscope diff"), "{text}");
    }
}
