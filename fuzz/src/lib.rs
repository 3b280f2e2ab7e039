//! Shared pieces of the fuzz targets.

/// Limits for fuzzing: small inflate cap so bombs stay cheap, and a third of the default
/// memory budget: the harness holds a clip's poses and their Blender conversion at once,
/// and the sanitizer build at least doubles what that costs, so a clip just under the
/// default budget (a 1,889-byte MOTN file of three 32,767-frame sequences) went past
/// libFuzzer's 512 MB RSS limit without any command being unbounded.
pub fn limits() -> animscope::limits::Limits {
    animscope::limits::Limits { max_inflated: 4 << 20, max_memory: 32 << 20, ..Default::default() }
}

/// Everything the library does with an input, optionally forcing a format; a broken
/// invariant is a crash.
pub fn exercise(data: &[u8], format: Option<&str>) {
    let how = animscope::harness::Exercise::Full;
    if let Err(e) = animscope::harness::exercise("fuzz", data.to_vec(), format, &limits(), 2, how) {
        panic!("{e}");
    }
}

/// A cursor that hands out fuzz bytes (zeros once they run out).
pub struct Cur<'a>(pub &'a [u8]);

impl Cur<'_> {
    /// Next byte.
    pub fn u8(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map(|(b, r)| (*b, r)).unwrap_or((0, &[]));
        self.0 = rest;
        b
    }

    /// A small value exactly representable as an IEEE half float (k/8, |k| ≤ 128).
    pub fn f16_exact(&mut self) -> f32 {
        f32::from(self.u8() as i8) / 8.0
    }

    /// Next little-endian u16.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | (u16::from(self.u8()) << 8)
    }
}
