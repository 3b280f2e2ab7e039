//! CCSF survey throughput against plain gzip inflation of the same members: a synthetic
//! sector-gzip archive (built in memory by `gzarc::write::archive`) of 64 CCSF stream files
//! (`ccsf::write::stream_pair`, 600–1,200 frames each, 7.7 MiB inflated in all, 257 k
//! chunks), once as the writer makes them (near-constant values: deflate 16:1) and once
//! with animated F_Obj values (`ccsf_survey_animated`: 3.5:1). Each is run inside a rayon
//! pool of 1 and of 2 threads. Targets: survey ≤ 1.3× the time of inflation on one thread;
//! survey on 2 threads ≥ 1.7× faster than on 1. `_cpu` variants report CPU time (all
//! threads; see `common/cpu.rs`), so on a shared machine the 1-thread numbers are per-core
//! costs. Run with `cargo bench --bench survey`.

#[path = "common/config.rs"]
mod config;
#[path = "common/cpu.rs"]
mod cpu;
#[path = "common/via.rs"]
mod via;

use animscope::formats::Survey;
use animscope::formats::ccsf::write::{Chunk, stream_pair, write};
use animscope::formats::gzarc::GzArc;
use animscope::limits::Limits;
use animscope::source::Source;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use std::hint::black_box;

/// The archive of 64 stream files. `animated`: every F_Obj record's position and rotation
/// varies per frame (a deterministic noise walk, as recorded animation does) instead of the
/// writer's near-constant values, which deflate 16:1 and inflate at ~2.7 GB/s.
fn archive(animated: bool) -> (Vec<u8>, u64) {
    let mut members = Vec::new();
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut noise = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    for i in 0..64u32 {
        let frames = 600 + (i * 97) % 600;
        let (_, mut s) = stream_pair(&format!("s{i:03}"), frames, frames);
        if animated {
            let (mut p, mut r) = ([0f32; 3], [0f32; 3]);
            for c in &mut s.chunks {
                if let Chunk::FObj { pos, rot, .. } = c {
                    for k in 0..3 {
                        p[k] += noise() * 0.05;
                        r[k] += noise() * 2.0;
                    }
                    (*pos, *rot) = (p, r);
                }
            }
        }
        members.push((format!("s{i:03}.tmp"), write(&s)));
    }
    let inflated = members.iter().map(|(_, b)| b.len() as u64).sum();
    (animscope::formats::gzarc::write::archive(&members), inflated)
}

fn bench(c: &mut Criterion) {
    for animated in [false, true] {
        bench_archive(c, animated);
    }
}

fn bench_archive(c: &mut Criterion, animated: bool) {
    let (data, inflated) = archive(animated);
    let limits = Limits::default();
    let src = Source::from_vec("SYN.BIN", data.clone());
    let members = via::member_spans(&data, &limits);
    let s: Survey = via::survey(&GzArc, &src, &limits);
    assert_eq!(s.counters.get("members.format.ccsf"), Some(&64), "{s:?}");
    assert_eq!(s.counters.get("walks_clean"), Some(&64), "{s:?}");
    let chunks: u64 = s.counters.iter().filter(|(k, _)| k.starts_with("chunks.")).map(|(_, v)| v).sum();
    eprintln!(
        "archive (animated {animated}): {} members, {} bytes compressed, {inflated} inflated, {chunks} chunks walked",
        members.len(),
        data.len()
    );
    let mut g = c.benchmark_group(if animated { "ccsf_survey_animated" } else { "ccsf_survey" });
    g.throughput(Throughput::Bytes(inflated));
    g.sample_size(20);
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        g.bench_function(format!("inflate_only_{threads}t"), |b| {
            b.iter(|| {
                pool.install(|| {
                    let n: usize = members.par_iter().map(|m| via::inflate_len(&data[m.clone()])).sum();
                    black_box(n)
                })
            })
        });
        g.bench_function(format!("gzarc_survey_{threads}t"), |b| {
            b.iter(|| pool.install(|| black_box(via::survey(&GzArc, &src, &limits))))
        });
        if threads == 1 {
            g.bench_function("inflate_only_1t_cpu", |b| {
                b.iter_custom(|n| {
                    pool.install(|| {
                        cpu::cpu_time(n, || members.iter().map(|m| via::inflate_len(&data[m.clone()])).sum::<usize>())
                    })
                })
            });
            g.bench_function("gzarc_survey_1t_cpu", |b| {
                b.iter_custom(|n| pool.install(|| cpu::cpu_time(n, || via::survey(&GzArc, &src, &limits))))
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::short();
    targets = bench
}
criterion_main!(benches);
