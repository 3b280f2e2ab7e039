//! Open latency on a 4 GiB synthetic sector-gzip archive (see `common/bigarc.rs`; generated
//! into `target/bench-data/` on first run): `animscope info` end to end, the document for a
//! first TUI frame (`Limits::interactive()`), the TUI's first frame as `animscope FILE`
//! makes it (open, `App::new` with a state directory, one 200×60 draw), one background
//! listing step as the TUI takes it (probe by `pread`, apply), and the complete listing by
//! `pread`, by the memory map and through the TUI (`App` until idle).
//! Run with `cargo bench --bench open`.

#[path = "common/bigarc.rs"]
mod bigarc;
#[path = "common/config.rs"]
mod config;

use animscope::formats::gzarc;
use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::source::{OpenOptions, Source};
use animscope::tui::app::LISTING_STEP;
use animscope::tui::{App, Config};
use clap::Parser;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let path = bigarc::big_archive();
    let p = path.to_str().expect("utf-8 path").to_string();
    let mut g = c.benchmark_group("open_4GiB");
    g.sample_size(20);
    g.bench_function("cli_info", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            let cli = animscope::cli::Cli::try_parse_from(["animscope", "info", &p]).expect("args");
            animscope::cli::run(cli, &mut out).expect("info");
            black_box(out.len())
        })
    });
    g.bench_function("first_frame_document", |b| {
        b.iter(|| {
            let o = Opened::open_path(&path, OpenOptions::default(), None, &Limits::interactive()).expect("opens");
            black_box(o.doc().nodes.len())
        })
    });
    let state = tempfile::tempdir().expect("state dir");
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    g.bench_function("tui_first_frame", |b| {
        b.iter(|| {
            let o = Opened::open_path(&path, OpenOptions::default(), None, &Limits::interactive()).expect("opens");
            let cfg = Config { state_dir: Some(state.path().to_path_buf()), ..Config::default() };
            let mut app = App::new(o, cfg);
            term.draw(|f| animscope::tui::draw(&mut app, f)).expect("draws");
            black_box(app.workspace.listing.map(|p| p.members))
        })
    });
    let o = Opened::open_path(&path, OpenOptions::default(), None, &Limits::interactive()).expect("opens");
    g.bench_function("tui_listing_step_64MiB", |b| {
        b.iter_batched(
            || o.clone_document(),
            |mut fresh| {
                let mut prober = fresh.listing_prober(LISTING_STEP).expect("listing is partial");
                let step = prober.next_step().expect("a step").expect("reads");
                black_box(fresh.apply_listing(&step))
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("listing_step_64MiB_pread", |b| {
        b.iter(|| {
            let (from, to) = gzarc::next_probe_range(o.doc(), 64 << 20).expect("listing is partial");
            let mut read_at = |off: u64, buf: &mut [u8]| o.source().read_at(off, buf);
            black_box(gzarc::probe_reader(&mut read_at, from, to).expect("reads"))
        })
    });
    g.sample_size(10);
    g.bench_function("complete_listing_pread", |b| {
        b.iter(|| {
            let mut doc = o.doc().clone();
            black_box(list_all_pread(o.source(), &mut doc))
        })
    });
    g.bench_function("complete_listing_tui", |b| {
        b.iter(|| {
            let o = Opened::open_path(&path, OpenOptions::default(), None, &Limits::interactive()).expect("opens");
            let mut app = App::new(o, Config::default());
            app.wait_idle();
            black_box(app.workspace.docs[0].opened.listing_progress().members)
        })
    });
    g.bench_function("complete_listing_mmap", |b| {
        b.iter(|| {
            let src = Source::open(&path, OpenOptions::default()).expect("opens");
            black_box(gzarc::probe(src.bytes(), 0, src.len()).len())
        })
    });
    g.finish();
}

/// List every member, probing by `pread` in 64 MiB steps; returns the member count.
fn list_all_pread(src: &Source, doc: &mut animscope::model::Document) -> u64 {
    let mut read_at = |off: u64, buf: &mut [u8]| src.read_at(off, buf);
    while let Some((from, to)) = gzarc::next_probe_range(doc, 64 << 20) {
        let starts = gzarc::probe_reader(&mut read_at, from, to).expect("reads");
        if gzarc::apply_probe_reading(src.bytes(), doc, from, to, &starts, &mut read_at) {
            break;
        }
    }
    gzarc::listing_progress(doc).map_or(0, |p| p.members)
}

criterion_group! {
    name = benches;
    config = config::short();
    targets = bench
}
criterion_main!(benches);
