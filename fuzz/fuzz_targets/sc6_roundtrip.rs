//! Encoder → decoder round trip: a clip built from fuzz bytes (frame count, rate flags,
//! presence mask, keyframe words) is encoded by the SC6 writer, and the decoder must give
//! back exactly the input words.
#![no_main]
use animscope::formats::sc6::write::{ClipSpec, encode_bank, encode_clip, encoded_count, stream_words};
use animscope_fuzz::Cur;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut c = Cur(data);
    let frame_count = 1 + u16::from(c.u8() % 64);
    let flags = [0u32, 0x04, 0x08, 0x10, 0x14, 0x18, 0x8000, 0x1000_0000, 0x4000][usize::from(c.u8() % 9)];
    let mut mask = 0u64;
    for _ in 0..8 {
        mask = (mask << 8) | u64::from(c.u8());
    }
    let stream = if flags & 0x8000 != 0 { "alternate" } else { "default" };
    let Some(wc) = stream_words(stream, flags, mask) else { return };
    if wc == 0 || wc > 200 {
        return;
    }
    let n = encoded_count(frame_count, flags);
    let keyframes: Vec<Vec<i16>> = (0..n).map(|_| (0..wc).map(|_| c.u16() as i16).collect()).collect();
    let spec = ClipSpec::new(frame_count, flags, mask, keyframes.clone());
    let Ok(clip) = encode_clip(&spec) else { return };
    let bank = encode_bank(&[clip], &[0]);
    let limits = animscope::limits::Limits::default();
    let decoded = animscope_fuzz::decode_key("sc6", bank, "clip:0", &limits).unwrap();
    let table = decoded.tables.iter().find(|t| t.name.starts_with("decoded words")).unwrap();
    assert_eq!(table.rows.len(), n);
    for (row, want) in table.rows.iter().zip(&keyframes) {
        // columns: key, frame, group, then one per word
        let got: Vec<i16> = row[3..].iter().map(|s| s.parse::<i16>().unwrap()).collect();
        assert_eq!(&got, want);
    }
});
