//! Any bytes through the whole pipeline: sniff, describe, validate, check, survey, decode of
//! every clip, members (nested inflation), export conversion.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| animscope_fuzz::exercise(data, None));
