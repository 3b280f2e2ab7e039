//! CCSF survey throughput against plain gzip inflation of the same members: a synthetic
//! sector-gzip archive (built in memory by `gzarc::write::archive`) of 64 CCSF stream files
//! (`ccsf::write::stream_pair`, 600–1,200 frames each, ~10 MiB inflated in all). Each is
//! run inside a rayon pool of 1 and of 2 threads. Targets: survey ≤ 1.3× the time of
//! inflation on one thread; survey on 2 threads ≥ 1.7× faster than on 1.
//! `_cpu` variants report CPU time (all threads; see `common/cpu.rs`), so on the shared
//! machine the 1-thread numbers are per-core costs. Run with `cargo bench --bench survey`.

#[path = "common/cpu.rs"]
mod cpu;

use animscope::formats::ccsf::write::{stream_pair, write};
use animscope::formats::gzarc::{self, GzArc};
use animscope::formats::{Format, Survey};
use animscope::limits::Limits;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use std::hint::black_box;

fn archive() -> (Vec<u8>, u64) {
    let mut members = Vec::new();
    for i in 0..64u32 {
        let frames = 600 + (i * 97) % 600;
        let (_, s) = stream_pair(&format!("s{i:03}"), frames, frames);
        members.push((format!("s{i:03}.tmp"), write(&s)));
    }
    let inflated = members.iter().map(|(_, b)| b.len() as u64).sum();
    (gzarc::write::archive(&members), inflated)
}

fn bench(c: &mut Criterion) {
    let (data, inflated) = archive();
    let limits = Limits::default();
    let members = gzarc::list(&data);
    let s: Survey = GzArc.survey(&data, "SYN.BIN", &limits).expect("surveys");
    assert_eq!(s.counters.get("members.format.ccsf"), Some(&64), "{s:?}");
    let mut g = c.benchmark_group("ccsf_survey");
    g.throughput(Throughput::Bytes(inflated));
    g.sample_size(20);
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        g.bench_function(format!("inflate_only_{threads}t"), |b| {
            b.iter(|| {
                pool.install(|| {
                    let n: usize =
                        members.par_iter().map(|m| gzarc::inflate(&data, m, &limits).map_or(0, |v| v.len())).sum();
                    black_box(n)
                })
            })
        });
        g.bench_function(format!("gzarc_survey_{threads}t"), |b| {
            b.iter(|| pool.install(|| black_box(GzArc.survey(&data, "SYN.BIN", &limits).expect("surveys"))))
        });
        if threads == 1 {
            g.bench_function("inflate_only_1t_cpu", |b| {
                b.iter_custom(|n| {
                    pool.install(|| {
                        cpu::cpu_time(n, || {
                            members
                                .iter()
                                .map(|m| gzarc::inflate(&data, m, &limits).map_or(0, |v| v.len()))
                                .sum::<usize>()
                        })
                    })
                })
            });
            g.bench_function("gzarc_survey_1t_cpu", |b| {
                b.iter_custom(|n| pool.install(|| cpu::cpu_time(n, || GzArc.survey(&data, "SYN.BIN", &limits))))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
