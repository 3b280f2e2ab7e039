//! Bytes as a layout side file (before the first NUL byte) and the bytes of the node it is
//! applied to (after it; a fixed pattern when there is no NUL): parse and check, Kaitai and
//! C export, apply and measure (`animscope::harness::exercise_layout`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| animscope_fuzz::exercise_layout(data));
