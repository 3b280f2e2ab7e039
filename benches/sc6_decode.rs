//! Decoded words per second over a synthetic 2,000-clip SC6 bank made by the encoder, and
//! selecting a 600-frame clip in the TUI (decode + plot + draw of a 200×60 frame).
//! Run with `cargo bench --bench sc6_decode` (not part of CI). `*_cpu_1t` variants run in a
//! one-thread rayon pool and report CPU time (see `common/cpu.rs`): per-core throughput on
//! a shared machine.

#[path = "common/config.rs"]
mod config;
#[path = "common/cpu.rs"]
mod cpu;

use animscope::formats::sc6::write::{ClipSpec, encode_bank, encode_clip, encoded_count, stream_words};
use animscope::formats::tally::Tally;
use animscope::formats::{self, DecodeOptions, Format};
use animscope::limits::Limits;
use animscope::model::NodeId;
use animscope::session::Opened;
use animscope::source::Source;
use animscope::tui::{App, Config, Load};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn bank(clips: usize) -> (Vec<u8>, u64) {
    bank_with(clips, |i| 30 + (i % 90) as u16)
}

/// A bank of `clips` clips with frame counts from `frames(i)`; returns it and its word count.
fn bank_with(clips: usize, frames: impl Fn(usize) -> u16) -> (Vec<u8>, u64) {
    let mut out = Vec::with_capacity(clips);
    let mut words = 0u64;
    let mask = (1u64 << 44) - 1; // every default-stream channel: 122 words per keyframe
    for i in 0..clips {
        let fc = frames(i);
        let wc = stream_words("default", 0, mask).unwrap_or(1);
        let n = encoded_count(fc, 0);
        let keys: Vec<Vec<i16>> =
            (0..n).map(|k| (0..wc).map(|j| ((k * (j + 3) + i) as i16).wrapping_mul(37) % 2000).collect()).collect();
        words += (n * wc) as u64;
        out.push(encode_clip(&ClipSpec::new(fc, 0, mask, keys)).unwrap_or_default());
    }
    let slots: Vec<usize> = (0..clips).collect();
    (encode_bank(&out, &slots), words)
}

fn bench(c: &mut Criterion) {
    let (data, words) = bank(2000);
    let sc6 = &animscope::formats::sc6::Sc6;
    let limits = Limits::default();
    let src = Source::from_vec("bench.mot", data.clone());
    let survey = |s: &Source| {
        let mut t = Tally::default();
        Format::survey(sc6, s, &limits, &|_| (), &mut t).expect("surveys");
        t
    };
    let open = |s: &Arc<Source>| formats::open_as(sc6, Arc::clone(s), &limits).expect("opens");
    let mut g = c.benchmark_group("sc6");
    g.sample_size(10);
    g.throughput(Throughput::Elements(words));
    g.bench_function("survey_2000_clips_words", |b| b.iter(|| survey(&src)));
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
    g.bench_function("survey_2000_clips_words_cpu_1t", |b| {
        b.iter_custom(|n| one.install(|| cpu::cpu_time(n, || survey(&src))))
    });
    let src = Arc::new(src);
    g.bench_function("describe_2000_clips", |b| b.iter(|| open(&src)));
    g.finish();
    // Selecting a 600-frame clip in the TUI: clip 0 of a 16-clip bank has 600 frames.
    let (data, _) = bank_with(16, |i| if i == 0 { 600 } else { 60 });
    let mut g = c.benchmark_group("sc6_600_frames");
    let src = Arc::new(Source::from_vec("bench.mot", data.clone()));
    let parsed = open(&src);
    let bank = parsed.clips().expect("sc6 has clips");
    let clip0 = bank.find_animation("0").expect("clip 0");
    g.bench_function("decode_600_frame_clip_with_samples", |b| {
        b.iter(|| bank.decode(&clip0, &DecodeOptions::default(), &limits).expect("decodes"))
    });
    assert_eq!(bank.decode(&clip0, &DecodeOptions::default(), &limits).expect("decodes").frame_count, 600);
    // From selection to the drawn 200×60 frame that plots its curves: a fresh App each time
    // (no decoded clip or plot cached), select the node, wait for the background decode,
    // draw. App construction is outside the timing.
    let doc = parsed.document();
    let node =
        NodeId(doc.nodes.iter().position(|n| n.anim.as_deref() == Some("clip:0")).expect("clip 0 has a node") as u32);
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    let opened = Opened::from_source(Arc::clone(&src), Some("sc6"), &limits, Vec::new()).expect("opens");
    let fresh_app = || App::new(opened.clone_document(), Config::default());
    // Selection to a drawn frame, timed over `iters` fresh Apps; `wait` decides when the
    // clip counts as shown, and whatever is still running after is awaited untimed.
    let mut time_selection = |iters: u64, wait: &dyn Fn(&mut App)| {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let mut app = fresh_app();
            let t = Instant::now();
            app.select_node(0, node, false);
            wait(&mut app);
            term.draw(|f| animscope::tui::draw(&mut app, f)).expect("draws");
            total += t.elapsed();
            app.wait_idle();
        }
        total
    };
    // Until the first frame that plots the curves (the worker decodes the clip once,
    // complete with its text tables and poses).
    let curves_shown = |app: &mut App| {
        while !matches!(app.clip(), Some(Load::Ready(_))) {
            app.poll_jobs();
            std::thread::yield_now();
        }
    };
    g.bench_function("tui_select_600_frame_clip_first_plot_200x60", |b| {
        b.iter_custom(|iters| time_selection(iters, &curves_shown))
    });
    g.bench_function("tui_select_600_frame_clip_complete_200x60", |b| {
        b.iter_custom(|iters| time_selection(iters, &|app: &mut App| app.wait_idle()))
    });
    // the frame really shows the clip's curves
    let mut app = fresh_app();
    app.select_node(0, node, false);
    app.wait_idle();
    let frame = term.draw(|f| animscope::tui::draw(&mut app, f)).expect("draws");
    let text: String = frame.buffer.content.iter().map(|c| c.symbol()).collect();
    assert!(text.contains("600"), "the decode pane names the 600-frame clip");
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::short();
    targets = bench
}
criterion_main!(benches);
