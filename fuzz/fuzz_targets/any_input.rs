//! Any bytes through the whole pipeline: sniff, describe, validate, check, survey, decode of
//! every clip, members (nested inflation), export conversion.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = animscope::limits::Limits { max_inflated: 4 << 20, ..Default::default() };
    if let Err(e) = animscope::session::exercise("fuzz", data.to_vec(), None, &limits, 2, animscope::session::Exercise::Full) {
        panic!("{e}");
    }
});
