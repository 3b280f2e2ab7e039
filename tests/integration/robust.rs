//! Never-panic sweeps over every committed fixture: truncations, bit flips and random bytes
//! go through the whole library pipeline (sniff, describe, validate, members, decode,
//! export) and must come back `Ok` or as a clean error. Bounded so the sweep stays fast.

use animscope::formats;
use animscope::limits::Limits;

/// Everything a user can do to one input, through the library API; panics on a broken
/// invariant. Returns how many documents were described.
fn exercise(path: &str, bytes: Vec<u8>, depth: usize) -> usize {
    let name = path.rsplit('/').next().unwrap_or(path);
    let limits = Limits { max_inflated: 8 << 20, ..Limits::default() };
    animscope::session::exercise(name, bytes, None, &limits, 3usize.saturating_sub(depth))
        .unwrap_or_else(|e| panic!("{e}"))
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

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut v = animscope::fixtures::all();
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

/// Offsets to cut or flip at: all of them for small files, an even sample plus the first
/// and last 512 for large ones.
fn positions(len: usize, all_upto: usize, samples: usize) -> Vec<usize> {
    if len <= all_upto {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..512.min(len)).chain(len.saturating_sub(512)..len).collect();
    let step = (len / samples).max(1);
    v.extend((0..len).step_by(step));
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn truncations_never_panic() {
    for (name, bytes) in fixtures() {
        assert!(exercise(&name, bytes.clone(), 0) >= 1, "{name}: the intact fixture must open");
        for cut in positions(bytes.len(), 64 << 10, 1500) {
            exercise(&name, bytes[..cut].to_vec(), 1);
        }
    }
}

#[test]
fn bit_flips_never_panic() {
    for (name, bytes) in fixtures() {
        for pos in positions(bytes.len(), 16 << 10, 1500) {
            let mut m = bytes.clone();
            m[pos] ^= 1 << (pos % 8);
            exercise(&name, m, 1);
        }
    }
}

#[test]
fn random_bytes_and_splices_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let fx = fixtures();
    for i in 0..300 {
        let len = (rng.next() % 4096) as usize;
        let mut b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        // Half the time start from a real magic so the format parsers get past sniffing.
        if i % 2 == 0
            && let Some((_, f)) = fx.get((rng.next() as usize) % fx.len().max(1))
        {
            let keep = (rng.next() as usize % 64).min(f.len());
            b.splice(0..0, f[..keep].iter().copied());
        }
        exercise("random", b, 1);
    }
    let _ = formats::all();
}
