//! Never-panic sweeps over every committed fixture: truncations, bit flips and random bytes
//! go through the whole library pipeline (sniff, describe, validate, members, decode,
//! export) and must come back `Ok` or as a clean error. Mutations run in parallel (rayon)
//! and are bounded so the sweep stays well under two minutes.

use animscope::harness::Exercise;
use animscope::limits::Limits;
use rayon::prelude::*;

/// Everything a user can do to one input, through the library API; panics on a broken
/// invariant. Returns how many documents were described.
fn exercise(path: &str, bytes: Vec<u8>, how: Exercise) -> usize {
    let name = path.rsplit('/').next().unwrap_or(path);
    let limits = Limits { max_inflated: 8 << 20, ..Limits::default() };
    animscope::harness::exercise(name, bytes, None, &limits, 3, how).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Deterministic xorshift so sweeps are reproducible without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Every fixture plus the committed regression inputs. The demo archive is left out: it
/// is a gzip archive of three other fixtures, each swept on its own and in `gzarc/`.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> =
        animscope::fixtures::all().into_iter().filter(|(p, _)| p != "demo.bin").collect();
    let reg = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/regressions");
    if let Ok(rd) = std::fs::read_dir(reg) {
        for e in rd.flatten() {
            if e.path().extension().is_some_and(|x| x == "md") {
                continue;
            }
            v.push((format!("regressions/{}", e.file_name().to_string_lossy()), std::fs::read(e.path()).unwrap()));
        }
    }
    v
}

/// Offsets to cut or flip at: all of them for files up to `all_upto` bytes, else the first
/// and last 512 plus an even sample of about `samples`.
fn positions(len: usize, all_upto: usize, samples: usize) -> Vec<usize> {
    if len <= all_upto {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..512.min(len)).chain(len.saturating_sub(512)..len).collect();
    v.extend((0..len).step_by((len / samples).max(1)));
    v.sort_unstable();
    v.dedup();
    v
}

/// The sweeps take their inputs from `fixtures::all()`: the MOTN variant fixtures (the
/// mixed file and every `x_` variant failure) are among them.
#[test]
fn sweeps_cover_the_motn_variant_fixtures() {
    let names: Vec<String> = fixtures().into_iter().map(|(p, _)| p).collect();
    for want in [
        "motn/multi.mot",
        "motn/variants.mot",
        "motn/x_baked_truncated.mot",
        "motn/x_baked_stride.mot",
        "motn/x_baked_mask_root.mot",
        "motn/x_track_records_past_end.mot",
        "motn/x_track_overlap.mot",
        "motn/x_track_odd_offset.mot",
        "motn/x_track_block_past_end.mot",
        "motn/x_track_translation_offset.mot",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} is not swept");
    }
}

#[test]
fn intact_fixtures_pass_the_full_pipeline() {
    for (name, bytes) in animscope::fixtures::all() {
        assert!(exercise(&name, bytes, Exercise::Full) >= 1, "{name}: the intact fixture must open");
    }
}

/// Regression inputs (minimised fuzz crashers) replayed as sniffed and forced through every
/// format, since a fuzz target may have forced one.
#[test]
fn regressions_replay_under_every_format() {
    let limits = Limits { max_inflated: 8 << 20, ..Limits::default() };
    for (name, bytes) in fixtures().into_iter().filter(|(p, _)| p.starts_with("regressions/")) {
        for f in animscope::formats::all() {
            animscope::harness::exercise(&name, bytes.clone(), Some(f.id()), &limits, 3, Exercise::Full)
                .unwrap_or_else(|e| panic!("{name} as {}: {e}", f.id()));
        }
    }
}

#[test]
fn truncations_never_panic() {
    for (name, bytes) in fixtures() {
        positions(bytes.len(), 64 << 10, 1500).into_par_iter().for_each(|cut| {
            // Every 16th prefix also runs check and survey; the rest the core pipeline.
            let how = if cut % 16 == 0 { Exercise::Full } else { Exercise::Core };
            exercise(&name, bytes[..cut].to_vec(), how);
        });
    }
}

#[test]
fn bit_flips_never_panic() {
    for (name, bytes) in fixtures() {
        positions(bytes.len(), 16 << 10, 1500).into_par_iter().for_each(|pos| {
            let mut m = bytes.clone();
            m[pos] ^= 1 << (pos % 8);
            exercise(&name, m, Exercise::Core);
        });
    }
}

#[test]
fn demo_archive_mutations_never_panic() {
    let demo = animscope::demo::DEMO.to_vec();
    (0..demo.len()).step_by(13).collect::<Vec<_>>().into_par_iter().for_each(|pos| {
        let mut m = demo.clone();
        m[pos] ^= 0x5a;
        exercise("demo.bin", m, Exercise::Core);
    });
}

#[test]
fn random_bytes_and_splices_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let fx = fixtures();
    let mut inputs = Vec::new();
    for i in 0..300 {
        let len = (rng.next() % 4096) as usize;
        let mut b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        // Half the time start from a real file's first bytes so parsers get past sniffing.
        if i % 2 == 0
            && let Some((_, f)) = fx.get((rng.next() as usize) % fx.len().max(1))
        {
            let keep = (rng.next() as usize % 64).min(f.len());
            b.splice(0..0, f[..keep].iter().copied());
        }
        inputs.push(b);
    }
    inputs.into_par_iter().for_each(|b| {
        exercise("random", b, Exercise::Full);
    });
}
