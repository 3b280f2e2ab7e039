//! Decode and evaluate every key of a 1,300-sequence synthetic MOTN file built by the
//! project's writer (20 nodes, 3 channels each, up to 12 keys per channel, 30..330 frames).

#[path = "common/config.rs"]
mod config;
#[path = "common/cpu.rs"]
mod cpu;
#[path = "common/motn_big.rs"]
#[allow(dead_code)]
mod motn_big;

use animscope::formats::motn::write;
use animscope::formats::{self, DecodeOptions, Parsed};
use animscope::limits::Limits;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Up to 12 keys per channel (`motn_big` makes the same sequences with fewer keys).
const SHAPE: motn_big::Shape = motn_big::Shape { inter_mod: 11, first: 0.1, scale: 1.0, last: -0.1 };

fn sequence(i: u16) -> animscope::formats::motn::write::SequenceSpec {
    motn_big::shaped_sequence(usize::from(i), &SHAPE)
}

fn file() -> (Vec<u8>, Vec<String>) {
    let mut entries = Vec::new();
    for i in 0..1300u16 {
        let bytes = write::encode_sequence(&sequence(i)).expect("bench sequences encode");
        entries.push((format!("SEQ_{i:04}"), bytes));
    }
    let names = entries.iter().map(|(n, _)| n.clone()).collect();
    (write::encode_file(&entries, None), names)
}

/// Decode every sequence by name; returns the number of samples (each clip goes through
/// `black_box`, so nothing is optimised away, without timing a pass over the samples).
fn decode_all(motn: &dyn Parsed, names: &[String], opts: &DecodeOptions, lim: &Limits) -> usize {
    names.iter().map(|n| decode_one(motn, n, opts, lim)).sum()
}

/// Decode one sequence by name through the parsed file, as the CLI's `--anim NAME` does.
fn decode_one(motn: &dyn Parsed, name: &str, opts: &DecodeOptions, lim: &Limits) -> usize {
    let clips = motn.clips().expect("MOTN has clips");
    let anim = clips.find_animation(name).expect("named");
    let clip = black_box(clips.decode(&anim, opts, lim).expect("decodes"));
    clip.tracks.iter().map(|t| t.samples.len()).sum()
}

/// `data` parsed once as MOTN (the object every consumer asks).
fn parsed(data: &[u8], lim: &Limits) -> Box<dyn Parsed> {
    let src = std::sync::Arc::new(animscope::source::Source::from_vec("bench.mot", data.to_vec()));
    formats::open_as(&formats::motn::Motn, src, lim).expect("opens")
}

fn bench(c: &mut Criterion) {
    let (data, names) = file();
    let lim = Limits::default();
    let motn = &*parsed(&data, &lim);
    // The target: decode and evaluate every key (keys + a sample at every frame), as `plot`
    // and surveys ask for it (`curves_only`: no display text, no poses).
    let curves = DecodeOptions { curves_only: true, ..DecodeOptions::default() };
    // What the TUI decode pane and `export` ask for: also per-key text, the instruction and
    // key tables, and poses of the nominal skeleton at every frame.
    let full = DecodeOptions::default();
    c.bench_function("motn_decode_1300_sequences", |b| b.iter(|| decode_all(motn, &names, &curves, &lim)));
    // The same work timed in CPU time (the machine is shared; see common/cpu.rs).
    let mut g = c.benchmark_group("motn_cpu");
    g.sample_size(10);
    g.bench_function("motn_decode_1300_sequences_cpu", |b| {
        b.iter_custom(|iters| cpu::cpu_time(iters, || decode_all(motn, &names, &curves, &lim)))
    });
    g.finish();
    // Sequences are independent: a consumer that wants them all (a batch export, a survey)
    // decodes them on every core. Wall time on a 2-thread pool.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
    let mut g = c.benchmark_group("motn_2t");
    g.sample_size(20);
    g.bench_function("motn_decode_1300_sequences_2t_wall", |b| {
        b.iter(|| {
            use rayon::prelude::*;
            pool.install(|| names.par_iter().map(|n| decode_one(motn, n, &curves, &lim)).sum::<usize>())
        })
    });
    g.finish();
    let mut g = c.benchmark_group("motn_cpu");
    g.sample_size(10);
    g.bench_function("motn_decode_1300_sequences_full_cpu", |b| {
        b.iter_custom(|iters| cpu::cpu_time(iters, || decode_all(motn, &names, &full, &lim)))
    });
    g.finish();
    let mut g = c.benchmark_group("motn_describe");
    g.sample_size(10);
    // opened, then every deferred node built: the whole document the TUI would hold
    let whole = || {
        let mut p = parsed(&data, &lim);
        p.document_mut().expand_all();
        p
    };
    g.bench_function("motn_describe_1300_sequences", |b| b.iter(|| black_box(whole().document().nodes.len())));
    // what opening costs: the document is kept, so its drop is not timed here
    g.bench_function("motn_describe_1300_sequences_without_drop", |b| b.iter_with_large_drop(whole));
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::short();
    targets = bench
}
criterion_main!(benches);
