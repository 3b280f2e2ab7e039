//! Bytes forced through the `ccsf` format: describe, validate, decode every clip, members,
//! check, survey.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = animscope::limits::Limits { max_inflated: 4 << 20, ..Default::default() };
    let how = animscope::session::Exercise::Full;
    if let Err(e) = animscope::session::exercise("fuzz", data.to_vec(), Some("ccsf"), &limits, 2, how) {
        panic!("{e}");
    }
});
