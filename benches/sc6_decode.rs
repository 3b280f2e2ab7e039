//! Decoded words per second over a synthetic 2,000-clip SC6 bank made by the encoder.
//! Run with `cargo bench --bench sc6_decode` (not part of CI). `*_cpu_1t` variants run in a
//! one-thread rayon pool and report CPU time (see `common/cpu.rs`): per-core throughput on
//! a shared machine.

#[path = "common/cpu.rs"]
mod cpu;

use animscope::formats::sc6::write::{ClipSpec, encode_bank, encode_clip, encoded_count, stream_words};
use animscope::formats::{DecodeOptions, by_id};
use animscope::limits::Limits;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn bank(clips: usize) -> (Vec<u8>, u64) {
    let mut out = Vec::with_capacity(clips);
    let mut words = 0u64;
    let mask = (1u64 << 44) - 1; // every default-stream channel: 122 words per keyframe
    for i in 0..clips {
        let fc = 30 + (i % 90) as u16;
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
    let sc6 = by_id("sc6").expect("sc6 format registered");
    let limits = Limits::default();
    let mut g = c.benchmark_group("sc6");
    g.sample_size(10);
    g.throughput(Throughput::Elements(words));
    g.bench_function("survey_2000_clips_words", |b| b.iter(|| sc6.survey(&data, "bench.mot", &limits)));
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
    g.bench_function("survey_2000_clips_words_cpu_1t", |b| {
        b.iter_custom(|n| one.install(|| cpu::cpu_time(n, || sc6.survey(&data, "bench.mot", &limits))))
    });
    g.bench_function("describe_2000_clips", |b| b.iter(|| sc6.describe(&data, "bench.mot", &limits)));
    g.throughput(Throughput::Elements(words / 2000));
    g.bench_function("decode_one_clip_with_samples", |b| {
        b.iter(|| sc6.decode(&data, "clip:1000", &DecodeOptions::default(), &limits))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
