//! Reading on-disk records through their binrw declarations (`formats/record.rs`) against
//! the same public paths before the change: the bench uses only APIs that existed before
//! the records were declared, so the lead can run it on both sides of the merge and compare
//! (`cargo bench --bench records`). Each case is dominated by record reads:
//!
//! - `gzarc_list_32k_members`: the archive's parsed member listing of 32,768 one-byte members (one member header
//!   with FNAME read per member, nothing inflated);
//! - `sc6_sniff_bank`: sniffing a 256-slot bank (bank header, 256 offsets, a clip header);
//! - `sc6_survey_2000_clip_headers`: surveying a 2,000-clip bank of one-keyframe clips
//!   (per clip: clip header, group table, one group's base words, no bitstream);
//! - `ipac_describe_4096_entries`: describing an IPAC of 4,096 entries (dictionary records
//!   plus the document they make).

#[path = "common/config.rs"]
mod config;
#[path = "common/via.rs"]
mod via;

use animscope::formats::Format;
use animscope::formats::gzarc::write;
use animscope::formats::pak::{self, write as pak_write};
use animscope::formats::sc6::{Sc6, write as sc6_write};
use animscope::limits::Limits;
use animscope::source::Source;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut one = write::gzip_member("clip00000.cmp", b"x", write::FIXTURE_MTIME);
    write::pad_to_sector(&mut one);
    let arc = one.repeat(32_768);
    let clip = sc6_write::encode_clip(&sc6_write::ClipSpec::new(1, 0, 0b110, vec![vec![0i16; 7]])).expect("clip");
    let small = sc6_write::encode_bank(std::slice::from_ref(&clip), &(0..256).map(|_| 0).collect::<Vec<_>>());
    let clips: Vec<Vec<u8>> = (0..2000).map(|_| clip.clone()).collect();
    let bank = sc6_write::encode_bank(&clips, &(0..2000).collect::<Vec<_>>());
    let entries: Vec<pak_write::Entry> =
        (0..4096).map(|i| pak_write::Entry::new(&format!("E{i:05}"), "MOTN", vec![0u8; 16])).collect();
    let ipac = pak_write::ipac(&entries);
    let lim = Limits::default();
    let mut g = c.benchmark_group("records");
    g.sample_size(20);
    g.bench_function("gzarc_list_32k_members", |b| b.iter(|| black_box(via::member_spans(&arc, &lim).len())));
    g.bench_function("sc6_sniff_bank", |b| b.iter(|| black_box(Sc6.sniff(&small, "a.mot"))));
    g.bench_function("sc6_survey_2000_clip_headers", |b| {
        let bank = Source::from_vec("a.mot", bank.clone());
        b.iter(|| black_box(via::survey(&Sc6, &bank, &lim).counters.len()))
    });
    g.bench_function("ipac_describe_4096_entries", |b| {
        b.iter(|| black_box(via::open(&pak::IpacFormat, "a.ipac", &ipac, &lim).document().nodes.len()))
    });
    g.finish();
}

criterion_group! { name = benches; config = config::short(); targets = bench }
criterion_main!(benches);
