//! Listing an archive whose members share one gzip name (each gets a unique key:
//! `clip.cmp`, `clip.cmp~2`, …): describing 32,768 like-named members against 32,768
//! members with distinct names, built in memory by `gzarc::write` (one member repeated,
//! sector-padded: 64 MiB). Before the remembered-suffix keys this was quadratic (`tree`
//! took 83 s on 32 K like-named members). Run with `cargo bench --bench gzarc_keys`.

#[path = "common/config.rs"]
mod config;
#[path = "common/via.rs"]
mod via;

use animscope::formats::gzarc::{GzArc, write};
use animscope::limits::Limits;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const MEMBERS: usize = 32_768;

/// `MEMBERS` sector-padded members named by `name(i)`.
fn archive(name: impl Fn(usize) -> String) -> Vec<u8> {
    let mut out = Vec::with_capacity(MEMBERS * 2048);
    for i in 0..MEMBERS {
        out.extend(write::gzip_member(&name(i), b"x", write::FIXTURE_MTIME));
        write::pad_to_sector(&mut out);
    }
    out
}

fn bench(c: &mut Criterion) {
    let alike = archive(|_| "clip.cmp".to_string());
    let distinct = archive(|i| format!("clip{i:05}.cmp"));
    let mut g = c.benchmark_group("gzarc_keys_32k");
    g.sample_size(10);
    for (label, data) in [("like_named", &alike), ("distinct_names", &distinct)] {
        g.bench_function(label, |b| {
            b.iter(|| {
                let p = via::open(&GzArc, "DUP.BIN", data, &Limits::default());
                black_box(p.document().nodes.len())
            })
        });
    }
    g.finish();
}

criterion_group! { name = benches; config = config::short(); targets = bench }
criterion_main!(benches);
