//! Whole-archive byte search (the TUI's `/`): memmem over a warm 512 MiB buffer for a
//! needle that occurs only at the very end, so every byte is scanned. Target ≥ 2 GiB/s.

#[path = "common/config.rs"]
mod config;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn search(c: &mut Criterion) {
    let len = 512usize << 20;
    // Archive-like bytes: a xorshift stream (incompressible, like gzip members).
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut hay: Vec<u8> = Vec::with_capacity(len);
    while hay.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        hay.extend_from_slice(&x.to_le_bytes());
    }
    let needle = b"\x1f\x8b\x08\x08MOTION.BIN";
    let at = len - needle.len();
    hay[at..].copy_from_slice(needle);
    let mut g = c.benchmark_group("search");
    g.throughput(Throughput::Bytes(len as u64));
    g.sample_size(10);
    g.bench_function("memmem 512 MiB forward", |b| {
        b.iter(|| black_box(animscope::tui::search::find(black_box(&hay), needle, 0, true)))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = config::short();
    targets = search
}
criterion_main!(benches);
