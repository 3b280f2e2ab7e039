//! Bytes as a keymap TOML file through the keymap loader, patched over the shipped default
//! keymap; every binding must then look up to its keys (`animscope_fuzz::exercise_keymap`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| animscope_fuzz::exercise_keymap(data));
