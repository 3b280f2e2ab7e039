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

/// A layout file and the node bytes it is applied to, split at the first NUL byte (a fixed
/// pattern of 256 bytes when there is none); a broken invariant is a crash.
pub fn exercise_layout(data: &[u8]) {
    let pattern: Vec<u8> = (0..=255u8).map(|i| i.wrapping_mul(37)).collect();
    let (text, bytes) = match data.iter().position(|b| *b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, pattern.as_slice()),
    };
    if let Err(e) = animscope::harness::exercise_layout(text, bytes, &limits()) {
        panic!("{e}");
    }
}

/// A keymap file patched over the shipped default keymap as the TUI loads `--keymap FILE`;
/// when it loads, every binding's keys must look up to a binding (the first of those keys),
/// no shorter prefix of them may be unbound, and each chord must read back from the text
/// help shows for it.
pub fn exercise_keymap(data: &[u8]) {
    use animscope::tui::keymap::{Chord, Keymap, Lookup};
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(mut km) = Keymap::shipped("default") else { panic!("the shipped default keymap does not load") };
    if km.patch_text(text, "fuzz.toml").is_err() {
        return;
    }
    for b in &km.bindings {
        let first = km.bindings.iter().find(|x| x.keys == b.keys).map(|x| x.action);
        assert_eq!(km.lookup(&b.keys), Lookup::Action(first.unwrap()), "keys {}", b.keys_text());
        for n in 1..b.keys.len() {
            assert_ne!(km.lookup(&b.keys[..n]), Lookup::Unbound, "prefix {n} of {}", b.keys_text());
        }
        for c in &b.keys {
            assert_eq!(Chord::parse(&c.to_string()).as_ref(), Ok(c), "chord {c} does not read back");
        }
        assert!(km.key_for(b.action).is_some());
    }
}

/// Decode the animation keyed `key` (`clip:0`, `seq:NAME`) of `bytes` opened as format
/// `format` through `formats::open_as`, as the program opens a file (the round-trip targets).
pub fn decode_key(
    format: &str,
    bytes: Vec<u8>,
    key: &str,
    limits: &animscope::limits::Limits,
) -> animscope::error::Result<animscope::model::anim::Clip> {
    let Some(fmt) = animscope::formats::by_id(format) else { panic!("no format {format}") };
    let src = std::sync::Arc::new(animscope::source::Source::from_vec("fuzz", bytes));
    let p = animscope::formats::open_as(fmt, src, limits)?;
    let clips = p.require_clips()?;
    let anim = match clips.animations().into_iter().find(|a| a.id() == key) {
        Some(a) => a,
        None => clips.find_animation(key.split_once(':').map_or(key, |(_, name)| name))?,
    };
    clips.decode(&anim, &animscope::formats::DecodeOptions::default(), limits)
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
