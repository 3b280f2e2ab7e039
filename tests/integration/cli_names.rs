//! Node addresses by name on the command line (issue 38): every verb that takes a NODE
//! accepts what the TUI's goto accepts: a bare unique name (`A_WALK_L_02`), the key with
//! its kind (`seq[A_WALK_L_02]`) or a path; a miss suggests the nearest name.

use crate::support::animscope;

const MOTN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/motn/multi.mot");
const CCSF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ccsf/g123.ccs");

#[test]
fn info_and_fields_take_a_bare_name_and_the_bracketed_key() {
    for addr in ["A_WALK_L_02", "seq[A_WALK_L_02]", "data/seq[A_WALK_L_02]"] {
        let (code, out, err) = animscope(&["info", MOTN, addr]);
        assert_eq!(code, 0, "{addr}: {err}");
        assert!(
            out.contains("node      multi.mot/data/seq[A_WALK_L_02]  seq[A_WALK_L_02]  sequence  0x120..0x180"),
            "{addr}: {out}"
        );
        let (code, out, err) = animscope(&["fields", MOTN, addr]);
        assert_eq!(code, 0, "{addr}: {err}");
        assert!(out.starts_with("multi.mot/data/seq[A_WALK_L_02]  seq[A_WALK_L_02]  sequence"), "{addr}: {out}");
    }
    // an Anime of a CCSF file by its name alone
    let (code, out, err) = animscope(&["info", CCSF, "ANM_demo"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Anime[ANM_demo]  Anime  0x850..0x944"), "{out}");
}

#[test]
fn a_name_that_is_not_there_suggests_the_nearest() {
    for verb in ["info", "fields"] {
        let (code, _, err) = animscope(&[verb, MOTN, "A_WALK_L_20"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("no node at A_WALK_L_20; did you mean \"A_WALK_L_02\"?"), "{verb}: {err}");
        let (_, _, err) = animscope(&[verb, MOTN, "seq[TEST_SQ]"]);
        assert!(err.contains("did you mean \"TEST_SEQ\"?"), "{verb}: {err}");
    }
    // extract and export take the same addresses, and write nothing on a miss
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    let out = out.to_str().unwrap();
    for args in [["extract", MOTN, "A_WALK_L_20", "-o", out], ["export", MOTN, "A_WALK_L_20", "--out", out]] {
        let (code, _, err) = animscope(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("no node at A_WALK_L_20; did you mean \"A_WALK_L_02\"?"), "{}: {err}", args[0]);
    }
    for args in [["extract", MOTN, "seq[TEST_SQ]", "-o", out], ["export", MOTN, "seq[TEST_SQ]", "--out", out]] {
        let (code, _, err) = animscope(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("did you mean \"TEST_SEQ\"?"), "{}: {err}", args[0]);
    }
    assert!(!std::path::Path::new(out).exists(), "a miss writes no file");
    let (code, _, err) = animscope(&["info", MOTN, "zzzzzzzz"]);
    assert_eq!(code, 2);
    assert!(err.trim_end().ends_with("no node at zzzzzzzz"), "nothing near, nothing suggested: {err}");
}

#[test]
fn extract_and_export_take_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let by_name = dir.path().join("by_name.bin");
    let by_path = dir.path().join("by_path.bin");
    let (code, _, err) = animscope(&["extract", MOTN, "TEST_SEQ", "-o", by_name.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = animscope(&["extract", MOTN, "data/seq[TEST_SEQ]", "-o", by_path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let a = std::fs::read(&by_name).unwrap();
    assert_eq!(a, std::fs::read(&by_path).unwrap());
    // the sequence's span in the tree: 62 bytes
    assert_eq!(a.len(), 62);
    let json = dir.path().join("walk.json");
    let (code, _, err) = animscope(&["export", MOTN, "seq[A_WALK_L_02]", "--out", json.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains("A_WALK_L_02"), "{}", &text[..text.len().min(400)]);
}

#[test]
fn diff_takes_a_name_valid_in_both_files() {
    let (code, out, err) = animscope(&["diff", MOTN, MOTN, "A_WALK_L_02"]);
    assert_eq!(code, 0, "the same file: no differences\n{out}{err}");
    let (code, _, err) = animscope(&["diff", MOTN, MOTN, "A_WALK_L_2"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean \"A_WALK_L_02\"?"), "{err}");
}

/// A CCSF frame section is listed under its file's name; `--anime` with that name (as the
/// listing and the error hint give it) decodes it, the same as naming nothing. It said
/// "no animation named str0200.tmp; did you mean str0200.tmp?".
#[test]
fn the_frame_section_is_named_as_it_is_listed() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ccsf/str0200.tmp");
    let (code, alone, err) = animscope(&["decode", file]);
    assert_eq!(code, 0, "{err}");
    assert!(alone.starts_with("frame section  2 frames @30 Hz"), "{alone}");
    let (code, named, err) = animscope(&["decode", file, "--anime", "str0200.tmp"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(named, alone);
    // in a file of two animations, the frame section by its listed name too
    let town = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ccsf/town.cmp");
    let (code, out, err) = animscope(&["decode", town, "--anime", "town.cmp"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("frame section  2 frames @30 Hz"), "{out}");
    // OBJ: the frame section by that name poses the models at its stream frame, the same
    // files as `--frame N`
    let g125 = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ccsf/g125.ccs");
    let dir = tempfile::tempdir().unwrap();
    let (named, frame) = (dir.path().join("named"), dir.path().join("frame"));
    for (sub, args) in [(&named, ["--anime", "g125.ccs"]), (&frame, ["--frame", "1"])] {
        std::fs::create_dir_all(sub).unwrap();
        let obj = sub.join("x.obj");
        let mut argv = vec!["export", g125, "--obj", "-o", obj.to_str().unwrap()];
        argv.extend(args);
        if args[0] == "--anime" {
            argv.extend(["--frame", "1"]);
        }
        let (code, _, err) = animscope(&argv);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(err.contains("3 meshes") && err.contains("(posed at stream frame 1)"), "{err}");
    }
    for f in ["x.obj", "x.mtl"] {
        assert_eq!(std::fs::read(named.join(f)).unwrap(), std::fs::read(frame.join(f)).unwrap(), "{f}");
    }
}
