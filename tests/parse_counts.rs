//! What a command costs in steps, counted (`animscope::counters`): `export FILE.ccs --gltf`
//! (and with `--anime NAME`) opens the file once, walks it once and decodes each of its
//! models once, on every committed CCSF fixture. A test binary of its own (the counters are
//! process-wide) with one test running the cases in turn, so nothing else counts while
//! one runs. Also: selecting, posing and exporting a clip in the TUI decodes it once.

use animscope::cli::{Cli, run};
use animscope::counters::Counts;
use animscope::session::Opened;
use animscope::source::OpenOptions;
use clap::Parser;
use std::path::Path;

fn export(args: &[&str]) -> (Counts, String) {
    let mut argv = vec!["animscope", "export"];
    argv.extend_from_slice(args);
    let cli = Cli::try_parse_from(&argv).expect("arguments parse");
    let before = Counts::now();
    let mut sink = Vec::new();
    let r = run(cli, &mut sink);
    (Counts::since(before), format!("{:?}", r.map_err(|e| e.to_string())))
}

/// Selecting a clip in the TUI, posing it (`P`, scrubbing) and exporting it from the
/// prompt (matrix JSON and glTF) decode it once: the pane, the pose view and the export
/// share the one complete decode.
fn tui_selecting_posing_and_exporting_a_clip_decodes_it_once() {
    use animscope::tui::app::Load;
    let press = |app: &mut animscope::tui::App, keys: &str| {
        for k in keys.split_whitespace() {
            let c = animscope::tui::keymap::Chord::parse(k).expect("a chord");
            app.handle_key(crossterm::event::KeyEvent::new(c.code, c.mods));
            app.wait_idle();
        }
    };
    let file = format!("{}/fixtures/motn/turn.mot", env!("CARGO_MANIFEST_DIR"));
    let limits = animscope::limits::Limits::default();
    let o = Opened::open_path(Path::new(&file), OpenOptions::default(), None, &limits).unwrap();
    let before = Counts::now();
    let mut app = animscope::tui::App::new(o, animscope::tui::Config::default());
    // root, header, padding, table, terminator, extra, name pointers, names, data (opened),
    // then the sequence (as the pose view tests select it)
    press(&mut app, "j j j j j j j j enter j");
    let clip = match app.clip() {
        Some(Load::Ready(c)) => std::sync::Arc::clone(c),
        other => panic!("TURN_90 not decoded: {:?}", other.map(|_| "not ready")),
    };
    assert_eq!(clip.name, "TURN_90");
    assert!(clip.poses.is_some() && !clip.tracks.is_empty(), "the one decode is complete");
    press(&mut app, "4 P end , p p");
    let dir = std::env::temp_dir().join(format!("animscope-tui-counts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for out in ["x.json", "x.glb"] {
        let Some(Load::Ready(c)) = app.clip() else { panic!("the clip is gone") };
        let req = animscope::tui::export::request(&dir.join(out), true, &limits);
        let r = animscope::tui::export::write_clip(c, None, "turn.mot", &req);
        assert!(matches!(r, Some(Ok(_))), "{out}: {r:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    app.wait_idle();
    assert_eq!(Counts::since(before).anim_decodes, 1, "selected, posed and exported: decoded once");
}

fn ccsf_gltf_export_opens_walks_and_decodes_models_once() {
    let root = format!("{}/fixtures/ccsf", env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("animscope-parse-counts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("x.glb");
    let out = out.to_str().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let (mut runs, mut exported) = (0, 0);
    for f in &files {
        let file = f.to_str().unwrap();
        // What the file holds, from a separate open (not counted).
        let o = Opened::open_path(f, OpenOptions::default(), None, &animscope::limits::Limits::default()).unwrap();
        let models = o.doc().nodes.iter().filter(|n| n.key.starts_with("Model[")).count();
        // A gen-2 model whose size field is wrong is decoded by the walk too, to find its
        // end (under the default limits, so a command's own limits still bind its decode).
        let walk_decoded =
            o.doc().walk_steps().filter(|s| s.detail.contains("the declared end does not start")).count();
        let animes: Vec<String> =
            o.animations().iter().filter(|a| a.node().is_some()).map(|a| a.name().to_string()).collect();
        drop(o);
        let mut cases: Vec<Vec<&str>> = vec![vec![file, "--gltf", "-o", out, "--force"]];
        for a in &animes {
            cases.push(vec![file, "--anime", a, "--gltf", "-o", out, "--force"]);
        }
        eprintln!("{} models, {walk_decoded} decoded by the walk", models);
        for args in cases {
            let (c, result) = export(&args);
            runs += 1;
            let name = Path::new(file).file_name().unwrap().to_string_lossy();
            eprintln!("{name} {:?}: {c:?} {models} models: {result}", &args[1..args.len() - 3]);
            exported += usize::from(result.starts_with("Ok"));
            assert_eq!(c.file_opens, 1, "{name} {args:?}: opens");
            assert!(c.ccsf_walks <= 1, "{name} {args:?}: walks {c:?}");
            if result.starts_with("Ok") {
                assert_eq!(c.ccsf_walks, 1, "{name} {args:?}: walks");
                assert_eq!(c.ccsf_model_parses, models + walk_decoded, "{name} {args:?}: every model decoded once");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(runs > 12 && exported > 6, "{runs} runs, {exported} exported: the fixtures were not reached");
}

/// `info` and opening the TUI on a MOTN file parse no standard sequence's blocks (the
/// skeleton reads headers; info says how many are not read); expanding one parses it;
/// `check` still reports every finding it reported when the skeleton parsed every sequence:
/// on every committed MOTN fixture its findings equal those of the whole document built
/// at once (`Motn::describe`, every node and field, as before this change).
fn motn_info_and_tui_parse_no_sequence_and_check_finds_everything() {
    use animscope::formats::{Format, motn::Motn};
    let root = format!("{}/fixtures/motn", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mot"))
        .collect();
    files.sort();
    let (mut unread_total, mut findings_total) = (0, 0);
    for f in &files {
        let file = f.to_str().unwrap();
        let bytes = std::fs::read(f).unwrap();
        let name = f.file_name().unwrap().to_str().unwrap();
        let cli = |args: &[&str]| {
            let cli = Cli::try_parse_from(args).expect("arguments parse");
            let mut out = Vec::new();
            let before = Counts::now();
            let _ = run(cli, &mut out);
            (Counts::since(before), String::from_utf8_lossy(&out).to_string())
        };
        let (c, out) = cli(&["animscope", "info", file]);
        // only a sequence whose blocks do not fit is parsed at once (to show it unreadable)
        let limits = animscope::limits::Limits::default();
        let o = Opened::open_path(f, OpenOptions::default(), None, &limits).unwrap();
        let unreadable = o.doc().nodes.iter().filter(|n| n.kind == "sequence (unreadable)").count();
        assert!(c.motn_sequence_parses <= unreadable, "info {name} parsed sequences:\n{out}");
        // a file with standard sequences says its problem count is partial
        let unread = o.doc().unchecked_count();
        unread_total += unread;
        if unread > 0 {
            let noun = if unread == 1 { "structure" } else { "structures" };
            assert!(out.contains(&format!("{unread} {noun} not read yet")), "{name}: {out}");
        }
        // the TUI's first frame parses only the sequences it shows (the hex pane builds the
        // structures in view: each of their blocks and channels is built from a parse, so a
        // parse per sequence, block and channel shown), never the ones out of view
        let before = Counts::now();
        let mut app = animscope::tui::App::new(o, animscope::tui::Config::default());
        let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(200, 60)).unwrap();
        term.draw(|fr| animscope::tui::draw(&mut app, fr)).unwrap();
        app.wait_idle();
        let shown = unread - app.workspace.docs[0].opened.doc().unchecked_count();
        let parses = Counts::since(before).motn_sequence_parses;
        assert!(parses <= 64 * shown, "the TUI's first frame on {name}: {parses} parses for {shown} sequences shown");
        // check: the same findings as the whole document's, in the same order
        let src = std::sync::Arc::new(animscope::source::Source::from_vec(name, bytes.clone()));
        let mut whole = animscope::formats::open_as(&Motn, src, &limits).unwrap().document().clone();
        whole.expand_all();
        let want: Vec<String> = whole
            .diagnostics
            .iter()
            .filter(|d| d.severity >= animscope::model::Severity::Warning)
            .map(|d| d.to_string())
            .collect();
        let src = animscope::source::Source::from_vec(name, bytes.clone());
        let got: Vec<String> = Format::check(&Motn, &src, &limits).unwrap().iter().map(|d| d.to_string()).collect();
        assert_eq!(got, want, "{name}");
        let o = Opened::open_path(f, OpenOptions::default(), None, &limits).unwrap();
        let through_open: Vec<String> = o.check(&limits).unwrap().iter().map(|d| d.to_string()).collect();
        assert_eq!(through_open, want, "{name} through the opened file");
        findings_total += want.len();
    }
    assert!(files.len() >= 10 && unread_total >= 10, "{} files, {unread_total} unread sequences", files.len());
    assert!(findings_total >= 5, "the fixtures have findings ({findings_total})");
}

/// The cases in turn (one test: the counters are process-wide).
#[test]
fn each_step_runs_once() {
    motn_info_and_tui_parse_no_sequence_and_check_finds_everything();
    tui_selecting_posing_and_exporting_a_clip_decodes_it_once();
    ccsf_gltf_export_opens_walks_and_decodes_models_once();
}
