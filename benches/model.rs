//! Model benches: the "innermost node/field at offset" lookup on documents with millions
//! of fields (the hex cursor calls it on every move), and building its index.

use animscope::model::{Document, Field, NodeId, Span, Value};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// 10,000 nodes of 100 four-byte fields each: 1,000,000 fields over 4 MB.
fn big_document() -> Document {
    let mut d = Document::new("raw", "big", "file", 4_000_000, &animscope::limits::Limits::default());
    for n in 0..10_000u64 {
        let start = n * 400;
        let id = d.add_node(NodeId::ROOT, format!("rec[{n}]"), "record", Span::at(start, 400));
        for f in 0..100u64 {
            d.add_field(id, Field::new(format!("w{f}"), Span::at(start + f * 4, 4), Value::uint(f, 4)));
        }
    }
    d
}

fn lookup(c: &mut Criterion) {
    let d = big_document();
    let _ = d.field_at(0); // build the index once
    let mut off = 0u64;
    c.bench_function("field_at on 1M fields", |b| {
        b.iter(|| {
            off = (off + 7_919_993) % 4_000_000;
            black_box(d.field_at(black_box(off)))
        })
    });
    c.bench_function("build lookup index for 1M fields", |b| {
        b.iter_batched(
            || {
                let mut d2 = Document::new("raw", "big", "file", 4_000_000, &animscope::limits::Limits::default());
                std::mem::swap(&mut d2.nodes, &mut big_document().nodes);
                d2
            },
            |d2| black_box(d2.field_at(123)),
            criterion::BatchSize::LargeInput,
        )
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = lookup
}
criterion_main!(benches);
