//! What a command costs in steps, counted (`animscope::counters`): `export FILE.ccs --gltf`
//! (and with `--anime NAME`) opens the file once, walks it once and decodes each of its
//! models once, on every committed CCSF fixture. A test binary of its own (the counters are
//! process-wide) with one test, so nothing else counts while it runs.

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

#[test]
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
