//! Fixture helpers for the containers. The committed PKS/PKF fixtures wrap MOTN blobs and
//! are made with the MOTN fixtures (`motn::write`) through `pak::write`; what is the
//! containers' own is the filler for entries and chunks whose contents do not matter.

/// Filler bytes for entries and chunks whose contents are not this project's concern.
pub fn filler(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(13).wrapping_add(seed)).collect()
}
