//! The two ~300 MB-inflated synthetic sector-gzip archives of the "documents on demand"
//! targets, written to `target/bench-data/` on first use and reused afterwards (delete them
//! to regenerate):
//! - `many_small.bin`: 315,000 small CCSF members cycling through the committed gen-1
//!   (.hack//Infection) CCSF fixtures ([`SMALL_PAYLOADS`]: 492–2,108 bytes, 951 on average,
//!   300 MB inflated), each gzipped under its own name and sector-padded (645 MB on disk).
//!   The set is named, not "every fixture": an archive of that game holds gen-1 files only,
//!   and a fixture added later must not change the bench's input (the gen-2 fixtures,
//!   3.7 KB each, took the archive to 490 MB inflated when they were picked up silently);
//! - `many_large.bin`: 3,000 CCSF stream files of 50–500 KB (nine in ten of 50–100 KB, one
//!   in ten of 100–500 KB: ≈ 290 MB inflated) whose F_Obj values vary per frame, as
//!   recorded animation does, so they deflate ≈ 3.5:1 rather than the writer's 16:1.
//!
//! Everything is made by the project's own writers; nothing here is game data.

use animscope::formats::ccsf::write::{Chunk, stream_pair, write};
use animscope::formats::gzarc::write::{FIXTURE_MTIME, gzip_member, pad_to_sector};
use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use std::io::Write;
use std::path::PathBuf;

/// Members of `many_small.bin`.
pub const SMALL_MEMBERS: usize = 315_000;
/// Members of `many_large.bin`.
pub const LARGE_MEMBERS: usize = 3_000;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data")
}

/// Write `member(0..count)` as a sector-gzip archive at `name` unless it exists with the
/// same `recipe`; the path and the inflated size of all members (kept with the recipe in
/// `NAME.done`, written last, so an archive made from other inputs is made again).
fn archive_file(
    name: &str,
    count: usize,
    recipe: &str,
    mut member: impl FnMut(usize) -> (String, Vec<u8>),
) -> (PathBuf, u64) {
    let dir = data_dir();
    let path = dir.join(name);
    let done = dir.join(format!("{name}.done"));
    let marker = std::fs::read_to_string(&done).unwrap_or_default();
    if let Some((inflated, made_from)) = marker.split_once('\n')
        && let Ok(inflated) = inflated.trim().parse()
        && made_from.trim() == recipe.trim()
        && path.exists()
    {
        return (path, inflated);
    }
    let mut inflated = 0u64;
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    let tmp = dir.join(format!("{name}.tmp"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp).expect("create archive"));
    let mut buf = Vec::new();
    for i in 0..count {
        let (name, bytes) = member(i);
        inflated += bytes.len() as u64;
        buf.clear();
        buf.extend(gzip_member(&name, &bytes, FIXTURE_MTIME));
        pad_to_sector(&mut buf);
        out.write_all(&buf).expect("write member");
    }
    out.flush().expect("flush");
    drop(out);
    std::fs::rename(&tmp, &path).expect("rename archive");
    std::fs::write(&done, format!("{inflated}\n{recipe}\n")).expect("mark done");
    (path, inflated)
}

/// The gen-1 CCSF fixtures `many_small.bin` cycles through, in this order.
pub const SMALL_PAYLOADS: [&str; 9] = [
    "chara.cmp",
    "mini.cmp",
    "old90.cmp",
    "old95.cmp",
    "str0100.tmp",
    "str0100e.tmp",
    "str0200.tmp",
    "str0200e.tmp",
    "town.cmp",
];

/// The committed fixtures named in [`SMALL_PAYLOADS`], with their bytes.
fn small_payloads() -> Vec<(String, Vec<u8>)> {
    let all = animscope::fixtures::all();
    SMALL_PAYLOADS
        .iter()
        .map(|name| {
            let (_, bytes) = all.iter().find(|(p, _)| *p == format!("ccsf/{name}")).expect("a committed CCSF fixture");
            (name.to_string(), bytes.clone())
        })
        .collect()
}

/// `many_small.bin` (see the module docs), generated on first use, and its inflated size.
pub fn many_small() -> (PathBuf, u64) {
    let payloads = small_payloads();
    // the payloads' names and sizes: a fixture rewritten by its writer makes a new archive
    let recipe: Vec<String> = payloads.iter().map(|(n, b)| format!("{n}:{}", b.len())).collect();
    archive_file("many_small.bin", SMALL_MEMBERS, &recipe.join(" "), |i| {
        let (name, bytes) = &payloads[i % payloads.len()];
        (format!("m{i:06}_{name}"), bytes.clone())
    })
}

/// A stream file of about `target` bytes whose F_Obj values follow a noise walk.
fn animated_stream(stem: &str, target: usize, rng: &mut TestRng) -> Vec<u8> {
    // Bytes per frame measured on the writer itself (two frame counts), so the size follows
    // the writer if its records change.
    let per_frame = (write(&stream_pair("p", 200, 200).1).len() - write(&stream_pair("p", 100, 100).1).len()) / 100;
    let frames = u32::try_from((target / per_frame).max(2)).unwrap_or(u32::MAX);
    let (_, mut s) = stream_pair(stem, frames, frames);
    let (mut p, mut r) = ([0f32; 3], [0f32; 3]);
    for c in &mut s.chunks {
        if let Chunk::FObj { pos, rot, .. } = c {
            for k in 0..3 {
                p[k] += rng.random_range(-0.025f32..0.025);
                r[k] += rng.random_range(-1.0f32..1.0);
            }
            (*pos, *rot) = (p, r);
        }
    }
    write(&s)
}

/// `many_large.bin` (see the module docs), generated on first use, and its inflated size.
pub fn many_large() -> (PathBuf, u64) {
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    archive_file("many_large.bin", LARGE_MEMBERS, "animated stream files, seed 7", |i| {
        let kb = if i % 10 == 9 { rng.random_range(100..=500) } else { rng.random_range(50..=100) };
        let stem = format!("l{i:04}");
        let bytes = animated_stream(&stem, kb * 1024, &mut rng);
        (format!("{stem}.tmp"), bytes)
    })
}
