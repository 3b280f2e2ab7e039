//! Documents on demand, MOTN: what a command costs on a 1,300-sequence file shaped like a
//! real `MOTION.BIN` (`common/motn_big.rs`) and on its 3× version. Each iteration is what
//! the CLI verb or the TUI does in-process (argument parsing, open, the verb's work, output
//! to a buffer). Peak memory of the whole command is measured with `/usr/bin/time -v` on
//! the files this bench writes (`target/bench-data/motn_{1300,3900}.bin`), see README.
//! `motn_real_{1,3}x` do the same on a file with the measured shape of the real one
//! (`common/motn_real.rs`: channel, frame and key counts by its quartiles, aliases,
//! variant sequences, extra-data records) and on that shape tripled, plus a one-sequence
//! export as glTF and as matrix JSON. `motn_real_tenths_{1,3}` run `info` on a tenth and
//! three tenths of the 1× file (`info` must grow linearly: 1×, 3×, 10×; a file counts at
//! most 4,094 names, so 10× is not one file).

#[path = "common/config.rs"]
mod config;
#[path = "common/motn_big.rs"]
mod motn_big;
#[path = "common/motn_real.rs"]
mod motn_real;

use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::source::OpenOptions;
use animscope::tui::{App, Config};
use clap::Parser;
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::hint::black_box;

fn cli(args: &[&str]) -> usize {
    let mut out = Vec::new();
    let cli = animscope::cli::Cli::try_parse_from(args).expect("args");
    // `check` exits with findings on some inputs; the output is what is timed.
    let _ = animscope::cli::run(cli, &mut out);
    out.len()
}

/// Open `path` as the TUI does, make the app and draw its first 200×60 frame.
fn tui_first_frame(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, path: &std::path::Path) {
    let state = tempfile::tempdir().expect("state dir");
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    g.bench_function("tui_first_frame_200x60", |b| {
        b.iter(|| {
            let o = Opened::open_path(path, OpenOptions::default(), None, &Limits::interactive()).expect("opens");
            let cfg = Config { state_dir: Some(state.path().to_path_buf()), ..Config::default() };
            let mut app = App::new(o, cfg);
            term.draw(|f| animscope::tui::draw(&mut app, f)).expect("draws");
            black_box(app.workspace.docs.len())
        })
    });
}

fn bench(c: &mut Criterion) {
    for count in [1300usize, 3900] {
        let path = motn_big::motn_path(count);
        let p = path.to_str().expect("utf-8 path").to_string();
        let seq = motn_big::name(count / 2);
        let mut g = c.benchmark_group(format!("motn_docs_{count}"));
        g.sample_size(10);
        g.bench_function("cli_info", |b| b.iter(|| black_box(cli(&["animscope", "info", &p]))));
        g.bench_function("cli_decode_one_seq_json_curves_only", |b| {
            b.iter(|| black_box(cli(&["animscope", "decode", &p, "--seq", &seq, "--json", "--curves-only"])))
        });
        g.bench_function("cli_check", |b| b.iter(|| black_box(cli(&["animscope", "check", &p]))));
        tui_first_frame(&mut g, &path);
        g.finish();
    }
}

fn bench_real(c: &mut Criterion) {
    let seq = motn_real::middle_name();
    for copies in [1usize, 3] {
        let path = motn_real::motn_real_path(copies);
        let p = path.to_str().expect("utf-8 path").to_string();
        let out = tempfile::tempdir().expect("out dir");
        let glb = out.path().join("one.glb").to_str().expect("utf-8").to_string();
        let json = out.path().join("one.json").to_str().expect("utf-8").to_string();
        let mut g = c.benchmark_group(format!("motn_real_{copies}x"));
        g.sample_size(10);
        g.bench_function("cli_info", |b| b.iter(|| black_box(cli(&["animscope", "info", &p]))));
        g.bench_function("cli_check", |b| b.iter(|| black_box(cli(&["animscope", "check", &p]))));
        g.bench_function("cli_export_one_seq_gltf", |b| {
            b.iter(|| black_box(cli(&["animscope", "export", &p, "--seq", &seq, "-o", &glb, "--force"])))
        });
        g.bench_function("cli_export_one_seq_json", |b| {
            b.iter(|| black_box(cli(&["animscope", "export", &p, "--seq", &seq, "-o", &json, "--force"])))
        });
        tui_first_frame(&mut g, &path);
        g.finish();
    }
}

fn bench_tenths(c: &mut Criterion) {
    let mut g = c.benchmark_group("motn_real_tenths");
    g.sample_size(10);
    for tenths in [1usize, 3] {
        let path = motn_real::motn_real_tenths_path(tenths);
        let p = path.to_str().expect("utf-8 path").to_string();
        g.bench_function(format!("cli_info_{tenths}"), |b| b.iter(|| black_box(cli(&["animscope", "info", &p]))));
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::short();
    targets = bench, bench_real, bench_tenths
}
criterion_main!(benches);
