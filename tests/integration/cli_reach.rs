//! Reaching anything by name (issue 52): a bare NAME and `--anim NAME` find a clip nested
//! three containers deep (gzip → PKS → IPAC → MOTN) in every verb, the path found said on
//! stderr; an ambiguous name lists every full path; `tree --depth N` descends into
//! members; `check` says when it checked nothing; a damaged IPAC table says what does not
//! fit and where, and the content-size field's reading is offered as a recovery; `export`
//! takes many inputs and an output pattern, one line per failure.

use crate::support::animscope;
use animscope::formats::gzarc::write::{archive, gzip_member};
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> String {
    format!("{}/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(fixture(rel)).unwrap()
}

/// `motn/motion.pks` (a PKS whose IPAC holds `MULTI.MOTN`, the bytes of `motn/multi.mot`)
/// wrapped in one gzip member named `motion.pks`: gzip → PKS → IPAC → MOTN.
fn deep(dir: &Path) -> PathBuf {
    let p = dir.join("deep.gz");
    std::fs::write(&p, gzip_member("motion.pks", &read("motn/motion.pks"), 0)).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The line `found at PATH` of `stderr` for `name`, its PATH.
fn found_at<'a>(err: &'a str, name: &str) -> &'a str {
    let tag = format!("animscope: {name}: found at ");
    err.lines().find_map(|l| l.strip_prefix(tag.as_str())).unwrap_or_else(|| panic!("no found-at line: {err}"))
}

#[test]
fn the_pks_fixture_holds_multi_mot_as_its_motn_entry() {
    // the fixture this file builds on: its first IPAC member is multi.mot's bytes
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.bin");
    let (code, _, err) = animscope(&["extract", &fixture("motn/motion.pks"), "MULTI.MOTN", "-o", s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), read("motn/multi.mot"));
}

#[test]
fn a_clip_three_containers_deep_is_decoded_posed_and_diffed_by_its_bare_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = deep(dir.path());
    let multi = fixture("motn/multi.mot");
    // the same sequence decoded straight from multi.mot is what the nested one must decode as
    for verb in [&["decode"][..], &["pose", "--frame", "3"], &["plot", "--channel", "UpperLeg_R.rx"]] {
        let mut direct = verb.to_vec();
        direct.insert(1, &multi);
        direct.insert(2, "A_WALK_L_02");
        let (code, want, err) = animscope(&direct);
        assert_eq!(code, 0, "{direct:?}: {err}");
        for how in [&["A_WALK_L_02"][..], &["--anim", "A_WALK_L_02"], &["--seq", "A_WALK_L_02"]] {
            let mut args = verb.to_vec();
            args.insert(1, s(&file));
            for (i, a) in how.iter().enumerate() {
                args.insert(2 + i, a);
            }
            let (code, got, err) = animscope(&args);
            assert_eq!(code, 0, "{args:?}: {err}");
            assert!(got == want, "{args:?}: differs from the direct decode:\n{got}\n---\n{want}");
            let path = found_at(&err, "A_WALK_L_02");
            assert!(path.starts_with("deep.gz/motion.pks/") && path.ends_with("seq[A_WALK_L_02]"), "{path}");
        }
    }
    // the path said is an address the verbs take as it is
    let (_, _, err) = animscope(&["info", s(&file), "A_WALK_L_02"]);
    let path = found_at(&err, "A_WALK_L_02").to_string();
    let (code, out, err) = animscope(&["info", s(&file), &path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("seq[A_WALK_L_02]  sequence"), "{out}");
    assert!(!err.contains("found at"), "a path is not searched for: {err}");
    // diff by the bare name: the nested sequence and multi.mot's own are the same bytes
    let (code, out, err) = animscope(&["diff", s(&file), &multi, "A_WALK_L_02"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(found_at(&err, "A_WALK_L_02"), path);
}

#[test]
fn a_clip_three_containers_deep_is_exported_by_its_bare_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = deep(dir.path());
    let (a, b) = (dir.path().join("nested.json"), dir.path().join("direct.json"));
    let (code, _, err) = animscope(&["export", s(&file), "A_WALK_L_02", "-o", s(&a)]);
    assert_eq!(code, 0, "{err}");
    assert!(found_at(&err, "A_WALK_L_02").ends_with("seq[A_WALK_L_02]"), "{err}");
    let (code, _, err) = animscope(&["export", &fixture("motn/multi.mot"), "A_WALK_L_02", "-o", s(&b)]);
    assert_eq!(code, 0, "{err}");
    let json = |p: &Path| serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(p).unwrap()).unwrap();
    let (a, b) = (json(&a), json(&b));
    assert_eq!(a["frames"], b["frames"], "the same matrices");
    assert!(a["frames"].as_array().is_some_and(|f| !f.is_empty()), "{a}");
    // glTF by --anim, too
    let glb = dir.path().join("walk.glb");
    let (code, _, err) = animscope(&["export", s(&file), "--anim", "A_WALK_L_02", "-o", s(&glb)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&std::fs::read(&glb).unwrap()[..4], b"glTF");
}

/// The node lines of `tree` output: (depth by indent, key).
fn tree_keys(out: &str) -> Vec<(usize, &str)> {
    out.lines()
        .take_while(|l| *l != "diagnostics:")
        .map(|l| ((l.len() - l.trim_start().len()) / 2, l.trim_start().split("  ").next().unwrap_or("")))
        .collect()
}

#[test]
fn tree_depth_descends_into_the_members() {
    let dir = tempfile::tempdir().unwrap();
    let file = deep(dir.path());
    // Levels counted by --depth: 1 the gzip member (the PKS); 2 the PKS's IPAC and, as a
    // container costs no level of its own, its members beside it (MULTI.MOTN); 3 the MOTN
    // file's parts (data, table); 4 the sequences. The indent shows the real nesting (the
    // sequence is indented five levels).
    let (code, out, err) = animscope(&["tree", s(&file), "--depth", "4"]);
    assert_eq!(code, 0, "{err}");
    let keys = tree_keys(&out);
    for want in [
        (1, "motion.pks"),
        (2, "ipac"),
        (3, "MULTI.MOTN"),
        (4, "data"),
        (4, "table"),
        (3, "CHARA.CHRT"),
        (5, "seq[A_WALK_L_02]"),
    ] {
        assert!(keys.contains(&want), "{want:?}: {out}");
    }
    // the walk's 6 children (its channels and keys) are below the depth
    let walk = out.lines().position(|l| l.trim_start().starts_with("seq[A_WALK_L_02]  ")).unwrap();
    assert_eq!(out.lines().nth(walk + 1).map(str::trim), Some("… 6 children"), "{out}");
    let (code, out, err) = animscope(&["tree", s(&file), "--depth", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(tree_keys(&out).contains(&(4, "data")) && !out.contains("A_WALK_L_02"), "{out}");
    assert!(out.contains("… 10 children"), "the sequences under the depth counted: {out}");
    // without a depth the members stay closed (an archive may hold thousands)
    let (_, out, _) = animscope(&["tree", s(&file)]);
    assert!(!out.contains("A_WALK_L_02"), "{out}");
    // at 2 the IPAC's members are listed, not opened
    let (_, out, _) = animscope(&["tree", s(&file), "--depth", "2"]);
    let keys = tree_keys(&out);
    assert!(keys.contains(&(2, "ipac")) && keys.contains(&(3, "MULTI.MOTN")), "{out}");
    assert!(!keys.iter().any(|k| k.1 == "data"), "{out}");
    // a member is as deep in a PKS as in a bare IPAC: depth 1 of the PKS lists them
    let (code, out, err) = animscope(&["tree", &fixture("motn/motion.pks"), "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    let keys = tree_keys(&out);
    assert!(keys.contains(&(1, "ipac")) && keys.contains(&(2, "MULTI.MOTN")), "{out}");
    assert!(!out.contains("entry[0]"), "the dictionary's entries are a level below: {out}");
}

#[test]
fn an_ambiguous_name_lists_every_full_path() {
    let dir = tempfile::tempdir().unwrap();
    // the sequence twice: in a PKS member and in a plain MOTN member
    let members =
        vec![("one.pks".to_string(), read("motn/motion.pks")), ("two.mot".to_string(), read("motn/multi.mot"))];
    let file = dir.path().join("arc.bin");
    std::fs::write(&file, archive(&members)).unwrap();
    for args in [
        vec!["decode", s(&file), "A_WALK_L_02"],
        vec!["decode", s(&file), "--anim", "A_WALK_L_02"],
        vec!["info", s(&file), "A_WALK_L_02"],
    ] {
        let (code, _, err) = animscope(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        let listed = err.split("name one by its path: ").nth(1).unwrap_or_else(|| panic!("{err}"));
        let paths: Vec<&str> = listed.trim_end().split(", ").collect();
        assert_eq!(paths.len(), 2, "{args:?}: {err}");
        assert!(paths[0].starts_with("arc.bin/one.pks/") && paths[0].ends_with("/seq[A_WALK_L_02]"), "{err}");
        assert_eq!(paths[1], "arc.bin/two.mot/data/seq[A_WALK_L_02]", "{err}");
        // each listed path reaches its node
        for p in paths {
            let (code, out, err) = animscope(&["info", s(&file), p]);
            assert_eq!(code, 0, "{p}: {err}");
            assert!(out.contains("seq[A_WALK_L_02]"), "{out}");
        }
    }
    // a name found nowhere says so (and still suggests nothing wrong)
    let (code, _, err) = animscope(&["decode", s(&file), "NO_SUCH_SEQ"]);
    assert_eq!(code, 2);
    assert!(err.contains("no node at NO_SUCH_SEQ"), "{err}");
}

#[test]
fn check_of_an_unrecognised_file_says_nothing_was_checked() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("noise.bin");
    std::fs::write(&raw, (0..300u32).map(|i| (i * 37 % 251) as u8).collect::<Vec<_>>()).unwrap();
    let (code, out, err) = animscope(&["check", s(&raw)]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("noise.bin: not recognised: nothing checked"), "{out}");
    assert!(!out.contains("ok"), "{out}");
    // in a batch: counted apart from the clean files
    let (code, out, err) = animscope(&["check", &fixture("motn/multi.mot"), s(&raw), &fixture("motn/turn.mot")]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("checked 3 inputs: 2 ok, 0 with problems, 1 not recognised (nothing checked), 0 unreadable"),
        "{out}"
    );
}

/// The IPAC of `motn/motion.pks` (at 0x10): (dictionary offset, entry count, content size)
/// as the header stores them, and where they are.
fn ipac_header(b: &[u8]) -> (u32, u32, u32) {
    let w = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    (w(0x14), w(0x18), w(0x1c))
}

#[test]
fn a_dictionary_offset_that_leaves_too_few_bytes_says_so_and_the_content_size_reading_is_a_recovery() {
    let dir = tempfile::tempdir().unwrap();
    let good = read("motn/motion.pks");
    let (dict, count, content) = ipac_header(&good);
    // the writer puts the 20-byte entries last, and the content size where they start
    assert_eq!((count, content), (2, dict));
    assert_eq!(good.len() as u32, 0x10 + dict + 2 * 20);
    // the dictionary offset moved 8 bytes on: 32 bytes remain for 40
    let mut moved = good.clone();
    moved[0x14..0x18].copy_from_slice(&(dict + 8).to_le_bytes());
    let p = dir.path().join("moved.pks");
    std::fs::write(&p, &moved).unwrap();
    let (code, out, err) = animscope(&["check", s(&p)]);
    assert_eq!(code, 1, "the recovery is a finding: {out}{err}");
    let table = 0x10 + dict;
    assert!(out.contains("recovered reading"), "{out}");
    assert!(out.contains(&format!("places the table at 0x{table:x}")), "{out}");
    // the recovered view: both members, and the sequence inside decodes
    let (code, out, err) = animscope(&["tree", s(&p)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("MULTI.MOTN") && out.contains("CHARA.CHRT"), "{out}");
    let (code, _, err) = animscope(&["decode", s(&p), "A_WALK_L_02"]);
    assert_eq!(code, 0, "{err}");
    // with the content size no help either: what does not fit, and where
    let mut both = moved.clone();
    both[0x1c..0x20].copy_from_slice(&(dict + 4).to_le_bytes());
    let p = dir.path().join("both.pks");
    std::fs::write(&p, &both).unwrap();
    let (code, out, _) = animscope(&["check", s(&p)]);
    assert_eq!(code, 1);
    let at = 0x10 + dict + 8;
    let want = format!("the table at 0x{at:x} needs 40 bytes (2 entries of 20), 32 remain");
    assert!(out.contains(&want), "{want}\n{out}");
    assert!(!out.contains("recovered"), "{out}");
}

#[test]
fn export_takes_many_inputs_and_a_pattern_and_a_bad_input_costs_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    std::fs::copy(fixture("motn/turn.mot"), inputs.join("turn.mot")).unwrap();
    std::fs::copy(fixture("sc6/fixture_a.mot"), inputs.join("fixture_a.mot")).unwrap();
    // damaged: the MOTN file cut in its table
    std::fs::write(inputs.join("cut.mot"), &read("motn/multi.mot")[..40]).unwrap();
    let out = dir.path().join("out");
    let pattern = format!("{}/{{file}}/{{clip}}.glb", out.display());
    let (code, stdout, err) = animscope(&["export", &fixture("motn/multi.mot"), s(&inputs), "--all", "-o", &pattern]);
    assert_eq!(code, 1, "{err}");
    let failures: Vec<&str> = err.lines().filter(|l| l.starts_with("animscope: ")).collect();
    assert_eq!(failures.len(), 1, "one line for the damaged input: {err}");
    assert!(failures[0].contains("cut.mot"), "{err}");
    let written: Vec<&str> = stdout.lines().collect();
    for w in &written {
        assert_eq!(&std::fs::read(w).unwrap()[..4], b"glTF", "{w}");
    }
    assert!(out.join("multi.mot/A_WALK_L_02.glb").is_file(), "{stdout}");
    assert!(out.join("turn.mot/TURN_90.glb").is_file(), "{stdout}");
    assert!(written.iter().any(|w| w.contains("/fixture_a.mot/")), "{stdout}");
    assert!(err.contains(&format!("exported {} files from 4 inputs", written.len())), "{err}");
    assert!(err.contains("1 inputs failed"), "{err}");
}

/// The animations of an input are written in parallel, yet said on stdout in the file's
/// order (its name table's), the same on every run; stderr, not a
/// terminal here, carries no progress bar (no carriage returns or escapes).
#[test]
fn a_parallel_batch_says_its_files_in_the_inputs_order() {
    let dir = tempfile::tempdir().unwrap();
    let multi = fixture("motn/multi.mot");
    let run = |out: &str| {
        let pattern = format!("{}/{out}/{{clip}}.glb", dir.path().display());
        let (code, stdout, err) = animscope(&["export", &multi, "--all", "-o", &pattern]);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
        let names: Vec<String> =
            stdout.lines().map(|l| Path::new(l).file_stem().unwrap().to_string_lossy().into_owned()).collect();
        for l in stdout.lines() {
            assert_eq!(&std::fs::read(l).unwrap()[..4], b"glTF", "{l}");
        }
        names
    };
    let (a, b) = (run("a"), run("b"));
    assert_eq!(a, b, "the same order on every run");
    assert!(a.len() >= 5, "{a:?}");
    // the order of the sequences in the file: its name table's
    let (_, names, _) = animscope(&["fields", &multi, "names"]);
    let order: Vec<String> = names
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("name[")?.split('"').nth(1).map(str::to_string))
        .filter(|n| a.contains(n))
        .collect();
    assert_eq!(a, order, "{names}");
}

/// `tree --depth` describes a member once however many IPAC entries name its bytes: an
/// IPAC of four entries whose records all give the first one's offset and size lists the
/// MOTN inside once, then one line per alias naming the entry shown.
#[test]
fn tree_depth_shows_aliased_entries_once() {
    let blob_len = crate::hostile_gen::motn_shared_regions(1).len().next_multiple_of(16);
    let data = crate::hostile_gen::r4_ipac_aliased_entries(16 + blob_len + 20 * 4);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("alias.ipac");
    std::fs::write(&p, data).unwrap();
    let (code, out, err) = animscope(&["tree", s(&p), "--depth", "3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("(same bytes as BLOB.MOTN, shown above)").count(), 3, "{out}");
    assert_eq!(out.matches("seq[SHARED_0_000]").count(), 1, "{out}");
}
