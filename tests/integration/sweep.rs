//! The one mutation source of the never-panic sweeps that do not go through
//! `harness::exercise` (the MOTN and CCSF API sweeps): truncations at evenly spaced cuts
//! and single-byte mutations drawn from proptest's seeded generator
//! ([`crate::support::rng`]), each labelled so a failing input can be named.

use crate::support::rng;

/// One mutated input: what was done (for a failure message) and the bytes.
pub struct Mutant {
    /// `cut at 0x12` / `byte 0x40 = 0xff`.
    pub what: String,
    /// The mutated bytes.
    pub bytes: Vec<u8>,
}

/// `data` cut at about `cuts` evenly spaced lengths (0 included, the whole file not).
pub fn truncations(data: &[u8], cuts: usize) -> impl Iterator<Item = Mutant> + '_ {
    let step = (data.len() / cuts.max(1)).max(1);
    (0..data.len()).step_by(step).map(|cut| Mutant { what: format!("cut at 0x{cut:x}"), bytes: data[..cut].to_vec() })
}

/// `n` copies of `data` with one byte replaced, drawn from `seed`: by 0, by 0xff, by
/// itself with one bit flipped, or by a random byte, in equal shares.
pub fn byte_mutations(data: &[u8], seed: u64, n: usize) -> impl Iterator<Item = Mutant> + '_ {
    let mut r = rng(seed);
    (0..if data.is_empty() { 0 } else { n }).map(move |_| {
        let mut m = data.to_vec();
        let at = (r.next() as usize) % m.len();
        m[at] = match r.next() % 4 {
            0 => 0,
            1 => 0xff,
            2 => m[at] ^ (1 << (r.next() % 8)),
            _ => r.next() as u8,
        };
        Mutant { what: format!("byte 0x{at:x} = 0x{:02x}", m[at]), bytes: m }
    })
}
