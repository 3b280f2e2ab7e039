//! Bytes forced through the `ccsf` format: describe, validate, decode every clip, members,
//! check, survey.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| animscope_fuzz::exercise(data, Some("ccsf")));
