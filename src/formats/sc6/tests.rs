//! Spec vectors (Fixtures A and B, docs/formats/sc6-mot.md#fixtures-a-and-b), strict rejections over the `x_` fixtures, and
//! the encoder → decoder round trip.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, clippy::expect_used)]

use super::fixtures::{self, keyframes_for, motion_clip};
use super::parse::{StreamKind, decode_groups, layout, parse_bank, parse_header};
use super::raw::*;
use super::reject::Reason;
use super::write::{ClipSpec, Codes, encode_bank, encode_clip, encoded_count};
use super::*;
use crate::bytes::Bytes;
use crate::formats::DecodeOptions;
use proptest::prelude::*;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// Decoded keyframes of a bare clip (no bank).
fn words_of(clip: &[u8]) -> (parse::Header, Vec<Vec<i16>>) {
    let b = Bytes::new(clip);
    let h = parse_header(b).unwrap();
    let d = decode_groups(b, &h, &Limits::default(), 0);
    assert!(d.failure.is_none(), "{:?}", d.failure);
    let wc = h.wc as usize;
    (h, d.words.chunks(wc).map(<[i16]>::to_vec).collect())
}

/// Spec Fixture A, region by region (docs/formats/sc6-mot.md#fixtures-a-and-b).
fn fixture_a_spec_bytes() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend(hex("0a00")); // frame_count 10
    v.extend(hex("0800")); // word_bytes 8 → 4 words
    v.extend(hex("00000000")); // flags 0
    v.extend(hex("0200000000000000")); // presence mask 0x2: entry 1 = 0x16 root
    v.extend(hex("0000")); // turn word 0
    v.extend([0u8; 10]); // unknown +0x12..+0x1B
    v.extend(hex("0400 2400")); // group table: group 0 at 0x20, group 1 at 0x20 + 0x24 = 0x44
    v.extend(hex("0000 bc03 0000 0000")); // group 0 base words = keyframe 0 [0, 956, 0, 0]
    v.extend(hex("4444444444444455556d2588f9111f2223e4447c888f9111f2220000")); // lengths + symbols, padded to 16 bits
    v.extend(hex("c000 bc03 60ff 0000")); // group 1 base = keyframe 8 [192, 956, -160, 0]
    v.extend(hex("444444444444445555acd2583fffe000")); // lengths + keyframe 9 symbols
    v.extend(hex("0000")); // trailing zero u16
    v
}

#[test]
fn fixture_a_encodes_to_spec_bytes_and_decodes_to_spec_words() {
    let spec = fixture_a_spec_bytes();
    assert_eq!(spec.len(), 94);
    assert_eq!(
        fixtures::fixture_a_clip(),
        spec,
        "encoder output differs from docs/formats/sc6-mot.md#fixtures-a-and-b Fixture A"
    );
    let (h, keys) = words_of(&spec);
    assert_eq!((h.frame_count, h.wc, h.encoded, h.group_count), (10, 4, 10, 2));
    for (k, w) in keys.iter().enumerate() {
        let k = k as i16;
        let want = if k == 9 { vec![243, 956, -180, 32767] } else { vec![3 * k * k, 956, -20 * k, 0] };
        assert_eq!(*w, want, "keyframe {k}");
    }
    // Through 0x16, keyframe 9 gives (0.243, 0.956, −0.180) m with facing 32767/65536 turns.
    let (p, f) = decode::root_values(&keys[9], 0, 0);
    assert!((p[0] - 0.243).abs() < 1e-6 && (p[1] - 0.956).abs() < 1e-6 && (p[2] + 0.180).abs() < 1e-6, "{p:?}");
    assert_eq!(f, 32767.0 / 65536.0);
    // Wrapped in a bank of 2 aliased slots (110 bytes).
    let bank = encode_bank(std::slice::from_ref(&spec), &[0, 0]);
    assert_eq!(bank.len(), 110);
    assert_eq!(&bank[..16], &hex("02000000 00000000 10000000 10000000")[..]);
    assert_eq!(&bank[16..], &spec[..]);
}

#[test]
fn fixture_b_matches_spec_bytes_words_and_samples() {
    let mut spec = Vec::new();
    spec.extend(hex("05000800 04000000 04010000 00000000")); // fc 5, 4 words, half rate, mask 0x104
    spec.extend([0u8; 12]); // turn word + unknown bytes
    spec.extend(hex("0200")); // group table: group 0 right after the table
    spec.extend(hex("0020 0040 0000 0010")); // base words [8192, 16384, 0, 4096]
    spec.extend(hex("431240000000000000 7592 00")); // lengths 4,3,1,2,4,0… then symbols
    spec.extend(hex("0000")); // tail pad
    assert_eq!(
        fixtures::fixture_b_clip(),
        spec,
        "encoder output differs from docs/formats/sc6-mot.md#fixtures-a-and-b Fixture B"
    );
    let (h, keys) = words_of(&spec);
    assert_eq!((h.effective, h.encoded, h.group_count), (3.0, 3, 1));
    assert_eq!(keys, vec![vec![8192, 16384, 0, 4096], vec![8193, 16384, 0, 4097], vec![8195, 16384, -1, 4097]]);
    // decode through the Format: 0x02 on MUNE1 (entry 2), 0x06 on entry 8
    let bank = encode_bank(&[spec], &[0]);
    let clip = Sc6.decode(&bank, "clip:0", &DecodeOptions::default(), &Limits::default()).unwrap();
    assert_eq!(clip.frame_count, 5);
    let q = |name: &str, f: usize| -> Vec<f64> {
        ["qx", "qy", "qz", "qw"].iter().map(|s| clip.track(&format!("{name}.{s}")).unwrap().samples[f]).collect()
    };
    let want02 = [0.0, 0.0, -0.3826834, 0.9238795];
    let want06 = [0.0, 0.0, 0.1950903, 0.9807853];
    for (a, b) in q("MUNE1", 0).iter().zip(want02) {
        assert!((a - b).abs() < 1e-7);
    }
    for (a, b) in q("UDE_L", 0).iter().zip(want06) {
        assert!((a - b).abs() < 1e-7);
    }
    // logical frames 0..4 sample keyframes 0, 0.5, 1, 1.5, 2 (half rate): frame 1 is the
    // hinge halfway between 4096 and 4097
    let mid = decode::hinge(4096.5);
    assert!((q("UDE_L", 1)[2] - mid[2]).abs() < 1e-12);
    let k2 = decode::hinge(4097.0);
    assert!((q("UDE_L", 4)[2] - k2[2]).abs() < 1e-12);
}

#[test]
fn half_rate_odd_frames_are_the_mean_of_their_neighbours() {
    // docs/formats/sc6-mot.md#sampling: playback frame 5 = mean of frames 4 and 6 (linear channels: root)
    let bank = encode_bank(&[encode_clip(&motion_clip(StreamKind::Default, 20, F_HALF, 0b10, 5)).unwrap()], &[0]);
    let clip = Sc6.decode(&bank, "clip:0", &DecodeOptions::default(), &Limits::default()).unwrap();
    for name in ["root.x", "root.y", "root.z"] {
        let s = &clip.track(name).unwrap().samples;
        assert_eq!(s.len(), 20);
        for f in (1..19).step_by(2) {
            assert!((s[f] - (s[f - 1] + s[f + 1]) / 2.0).abs() < 1e-12, "{name} frame {f}");
        }
        // effective 10.5: the last odd frame clamps onto the final keyframe
        assert_eq!(s[19], s[18]);
    }
}

/// (fixture name, expected reason, expected absolute offset)
fn expected_rejections() -> Vec<(&'static str, Reason, u64)> {
    let c = 0x10u64; // clip start in one-slot banks
    let base = fixtures::base_clip();
    let clip_len = base.len() as u64;
    vec![
        ("x_bank_count_zero.mot", Reason::BankCountZero, 0),
        ("x_bank_count_too_large.mot", Reason::BankCountTooLarge, 0),
        ("x_bank_reserved_nonzero.mot", Reason::BankReservedNonzero, 4),
        ("x_offset_table_truncated.mot", Reason::OffsetTableTruncated, 8),
        ("x_offset_inside_table.mot", Reason::OffsetInsideTable, 8),
        ("x_offsets_out_of_order.mot", Reason::OffsetsOutOfOrder, 12),
        ("x_offset_past_eof.mot", Reason::OffsetPastEof, 12),
        ("x_offset_zero.mot", Reason::OffsetZero, 12),
        ("x_clip_too_short.mot", Reason::ClipTooShort, c),
        ("x_frame_count_zero.mot", Reason::FrameCountZero, c),
        ("x_word_count_zero.mot", Reason::WordCountZero, c + 2),
        ("x_word_count_too_large.mot", Reason::WordCountTooLarge, c + 2),
        ("x_group_table_past_clip.mot", Reason::GroupTablePastClip, c + 0x1C),
        ("x_payload_before_table.mot", Reason::PayloadBeforeTable, c + 0x1C),
        ("x_payload_past_clip.mot", Reason::PayloadPastClip, c + 0x1E),
        ("x_payload_odd.mot", Reason::PayloadOdd, c + 0x1C),
        ("x_base_words_past_clip.mot", Reason::BaseWordsPastClip, c + clip_len - 2),
        ("x_bit_read_past_clip.mot", Reason::BitReadPastClip, c + 0x1C + 4 + 28),
        ("x_code_lengths_all_zero.mot", Reason::CodeLengthsAllZero, c + 0x1C + 4 + 14),
        ("x_code_lengths_oversubscribed.mot", Reason::CodeLengthsOversubscribed, c + 0x1C + 4 + 14),
        ("x_channel_stream_mismatch.mot", Reason::ConsumptionMismatch, c + 8),
        ("x_decode_work_exceeded.mot", Reason::DecodeWorkExceeded, c),
    ]
}

#[test]
fn every_x_fixture_fails_strictly_with_its_reason_and_offset() {
    let all: std::collections::BTreeMap<String, Vec<u8>> = fixtures::all().into_iter().collect();
    let exp = expected_rejections();
    // every x_ fixture except the unreadable-header one is listed
    let listed: Vec<&str> = exp.iter().map(|e| e.0).collect();
    for name in all.keys().filter(|n| n.starts_with("sc6/x_")) {
        let short = name.trim_start_matches("sc6/");
        assert!(short == "x_bank_too_short.mot" || listed.contains(&short), "{short} has no expectation");
    }
    for (name, reason, offset) in exp {
        let data = &all[&format!("sc6/{name}")];
        let f = strict_findings(data, &Limits::default()).unwrap();
        // the first finding, except for a zero offset: the reference's monotonic check
        // (which runs first) also fires on it
        let hit = if name == "x_offset_zero.mot" { f.iter().find(|(_, e)| e.reason == reason) } else { f.first() };
        let (sev, e) = hit.unwrap_or_else(|| panic!("{name}: no finding in {f:?}"));
        assert_eq!(*sev, Severity::Error, "{name}");
        assert_eq!((e.reason, e.err.offset), (reason, offset), "{name}: {}", e.err);
        // the permissive document still validates and carries the error at that offset
        let doc = Sc6.describe(data, name, &Limits::default()).unwrap();
        assert_eq!(doc.validate(), Ok(()), "{name}");
        assert!(
            doc.diagnostics.iter().any(|d| d.severity == Severity::Error && d.offset == Some(offset)),
            "{name}: {:?}",
            doc.diagnostics
        );
    }
    // too short to read the count: strict parse fails outright, describe still shows the bytes
    let short = &all["sc6/x_bank_too_short.mot"];
    assert_eq!(parse_bank(Bytes::new(short)).map(|b| b.problems[0].reason).ok(), Some(Reason::BankTooShort));
    assert_eq!(Sc6.describe(short, "s.mot", &Limits::default()).unwrap().validate(), Ok(()));
}

#[test]
fn mismatch_message_names_both_numbers() {
    let data = fixtures::all().into_iter().find(|(n, _)| n.ends_with("x_channel_stream_mismatch.mot")).unwrap().1;
    let e = Sc6.decode(&data, "clip:0", &DecodeOptions::default(), &Limits::default()).unwrap_err();
    let msg = e.to_string();
    // mask 0b10 → root only = 4 words; the clip has 7 (root 4 + one rotation 3)
    assert!(msg.contains("consumes 4 words") && msg.contains("has 7 words"), "{msg}");
    assert_eq!(e.offset, 0x18);
}

#[test]
fn valid_fixtures_check_clean_and_validate() {
    for (name, data) in fixtures::all() {
        let doc = Sc6.describe(&data, &name, &Limits::default()).unwrap();
        assert_eq!(doc.validate(), Ok(()), "{name}");
        if name.contains("/x_") {
            continue;
        }
        let f = Sc6.check(&data, &name, &Limits::default()).unwrap();
        assert!(f.iter().all(|d| d.severity == Severity::Info), "{name}: {f:?}");
        assert_eq!(Sc6.sniff(&data, &name), 95, "{name}");
        assert!(doc.diagnostics.iter().all(|d| d.severity == Severity::Info), "{name}: {:?}", doc.diagnostics);
    }
}

#[test]
fn stream_override_decodes_skill_check_clips() {
    let data = fixtures::all().into_iter().find(|(n, _)| n.ends_with("stream_skill_check.mot")).unwrap().1;
    // default stream: mask 0x7FFF consumes more than 25 words → mismatch
    let e = Sc6.decode(&data, "clip:0", &DecodeOptions::default(), &Limits::default()).unwrap_err();
    assert!(e.to_string().contains("channel_stream_mismatch"), "{e}");
    let opts = DecodeOptions { stream: Some("skill-check".into()), ..DecodeOptions::default() };
    let clip = Sc6.decode(&data, "clip:0", &opts, &Limits::default()).unwrap();
    assert!(clip.track("OYA3.qw").is_some() && clip.track("KO1.qz").is_some());
    assert!(clip.track("root.x").is_none());
    // survey counts it as a skill-check-only clip
    let s = Sc6.survey(&data, "s.mot", &Limits::default()).unwrap();
    assert_eq!(s.counters.get("clips_decoded_skill_check_stream"), Some(&1));
}

#[test]
fn lr_order_switches_names() {
    let data = fixtures::all().into_iter().find(|(n, _)| n.ends_with("fixture_b.mot")).unwrap().1;
    let mut opts = DecodeOptions::default();
    opts.extra.insert("lr_order".into(), "enum".into());
    let clip = Sc6.decode(&data, "clip:0", &opts, &Limits::default()).unwrap();
    assert!(clip.track("UDE_R.qz").is_some(), "entry 8 is UDE_R in the game enum");
    assert!(clip.notes.iter().any(|n| n.contains("unresolved (docs/formats/sc6-mot.md#open-questions)")));
}

#[test]
fn decode_work_is_bounded() {
    let data = fixtures::all().into_iter().find(|(n, _)| n.ends_with("x_decode_work_exceeded.mot")).unwrap().1;
    // The bound is the work limit: the decode stops with LimitExceeded (no timing here;
    // a decode that ignored the limit would hang the test run, not fail a clock).
    let e = Sc6.decode(&data, "clip:0", &DecodeOptions::default(), &Limits::default()).unwrap_err();
    assert!(matches!(e.kind, crate::error::ErrorKind::LimitExceeded { .. }), "{e}");
}

fn roundtrip(
    kind: StreamKind,
    fc: u16,
    flags: u32,
    mask: u64,
    keys: Vec<Vec<i16>>,
    codes: Codes,
) -> Result<(), TestCaseError> {
    let mut spec = ClipSpec::new(fc, flags, mask, keys.clone());
    spec.codes = codes;
    let clip = encode_clip(&spec).map_err(TestCaseError::fail)?;
    prop_assert_eq!(clip.len() % 2, 0);
    let bank = encode_bank(&[clip], &[0]);
    let b = Bytes::new(&bank);
    let parsed = parse_bank(b).unwrap();
    prop_assert!(parsed.problems.is_empty());
    let c = parsed.clip(b, 0).unwrap();
    let h = parse_header(c).unwrap();
    let d = decode_groups(c, &h, &Limits::default(), 0);
    prop_assert!(d.failure.is_none(), "{:?}", d.failure);
    let wc = h.wc as usize;
    let got: Vec<Vec<i16>> = d.words.chunks(wc).map(<[i16]>::to_vec).collect();
    prop_assert_eq!(got, keys);
    let opts = DecodeOptions { stream: Some(kind.name().into()), ..DecodeOptions::default() };
    if layout(kind, &h).is_ok() {
        let clip =
            Sc6.decode(&bank, "clip:0", &opts, &Limits::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(clip.frame_count as u64, h.playback);
        for t in &clip.tracks {
            prop_assert_eq!(t.samples.len(), clip.frame_count);
            // random f32 word pairs (bit 28) may be NaN: only i16 channels must stay finite
            if flags & F_F32 == 0 {
                prop_assert!(t.samples.iter().all(|v| v.is_finite()));
            }
        }
        // curves only: the same tracks, keys and bit-identical samples; no text, no poses
        let copts = DecodeOptions { curves_only: true, ..opts.clone() };
        let curves =
            Sc6.decode(&bank, "clip:0", &copts, &Limits::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(curves.tables.is_empty() && curves.poses.is_none());
        prop_assert_eq!(curves.tracks.len(), clip.tracks.len());
        for (c, f) in curves.tracks.iter().zip(&clip.tracks) {
            prop_assert_eq!(&c.name, &f.name);
            let bits = |t: &crate::model::anim::Track| -> (Vec<u64>, Vec<(u64, u64)>) {
                (
                    t.samples.iter().map(|v| v.to_bits()).collect(),
                    t.keys.iter().map(|k| (k.frame.to_bits(), k.value.to_bits())).collect(),
                )
            };
            prop_assert_eq!(bits(c), bits(f));
            prop_assert!(c.keys.iter().all(|k| k.detail.is_empty()));
        }
    }
    Ok(())
}

fn word() -> impl Strategy<Value = i16> {
    prop_oneof![any::<i16>(), Just(i16::MAX), Just(i16::MIN), Just(-32767i16), Just(0i16), -40i16..40]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Random clips: every flag, every stream, random masks, 1..600 keyframes, extreme and
    /// wrapping values; encode → decode gives exactly the input words.
    #[test]
    fn random_clips_round_trip(
        stream in 0usize..3,
        flag_bits in proptest::collection::vec(any::<bool>(), 6),
        mask_seed in any::<u64>(),
        nkeys in 1usize..600,
        seed in any::<u64>(),
        extremes in proptest::collection::vec(word(), 1..64),
        codes in 0u8..3,
    ) {
        let kind = [StreamKind::Default, StreamKind::Alternate, StreamKind::SkillCheck][stream];
        let all_flags = [F_HALF, F_QUARTER, F_EXTRA_FRAME, F_ROOT_SCALE_16000, F_ALT_STREAM, F_F32];
        let flags = flag_bits.iter().zip(all_flags).filter(|(b, _)| **b).fold(0, |a, (_, f)| a | f);
        let mask = mask_seed & ((1u64 << kind.entries().len()) - 1);
        let mask = if mask == 0 { 1 << (kind.entries().len() - 1) } else { mask };
        // a frame count giving roughly nkeys stored keyframes
        let rate = parse::rate(flags);
        let fc = ((nkeys as f64 / rate) as u64).clamp(1, 65535) as u16;
        let n = encoded_count(fc, flags);
        let wc = write::stream_words(kind.name(), flags, mask).unwrap().max(1);
        let mut rng = crate::test_support::rng(seed);
        let mut next = || rng.next();
        let keys: Vec<Vec<i16>> = (0..n).map(|_| (0..wc).map(|_| {
            let r = next();
            match r % 4 {
                0 => extremes[(r >> 8) as usize % extremes.len()],
                1 => (r >> 16) as i16,
                _ => ((r >> 20) % 64) as i16 - 32,
            }
        }).collect()).collect();
        let codes = match codes { 0 => Codes::Huffman, 1 => Codes::Flat, _ => Codes::Huffman };
        roundtrip(kind, fc, flags, mask, keys, codes)?;
    }

    /// Smooth generated motion on random masks: Huffman codes stay ≤ 15 bits and decode.
    /// Every case round-trips: the generator must give `n ≥ 1` keyframes of the mask's
    /// word count (≥ 1, entry 1 is always present), never an empty clip to skip.
    #[test]
    fn generated_motion_round_trips(stream in 0usize..3, mask_seed in any::<u64>(), fc in 1u16..200, flags in 0u32..32) {
        let kind = [StreamKind::Default, StreamKind::Alternate, StreamKind::SkillCheck][stream];
        let mask = (mask_seed & ((1u64 << kind.entries().len()) - 1)) | 0b10;
        let flags = flags & (F_HALF | F_QUARTER | F_EXTRA_FRAME);
        let n = encoded_count(fc, flags);
        let wc = write::stream_words(kind.name(), flags, mask).unwrap();
        prop_assert!(n >= 1 && wc >= 1, "fc {} flags 0x{:x} mask 0x{:x}: {} keyframes of {} words", fc, flags, mask, n, wc);
        let keys = keyframes_for(kind, flags, mask, n, fc as u32);
        prop_assert_eq!(keys.len(), n);
        prop_assert!(keys.iter().all(|k| k.len() == wc));
        roundtrip(kind, fc, flags, mask, keys, Codes::Huffman)?;
    }
}

#[test]
fn huffman_lengths_are_limited_and_complete() {
    // Fibonacci frequencies force a deep tree: lengths must be capped at 15 and stay complete.
    let mut freq = [0u64; 18];
    let (mut a, mut b) = (1u64, 1u64);
    for f in &mut freq {
        *f = a;
        (a, b) = (b, a + b);
    }
    let l = write::huffman_lengths(&freq);
    assert!(l.iter().all(|&x| (1..=15).contains(&x)), "{l:?}");
    let kraft: f64 = l.iter().map(|&x| 2f64.powi(-i32::from(x))).sum();
    assert_eq!(kraft, 1.0);
}

#[test]
fn poses_compose_root_and_rotations() {
    use glam::{Quat, Vec3};
    // Fixture A: root only (mask 0x2). Keyframe 9 root = (0.243, 0.956, -0.180) m, base turn 0.
    let a = encode_bank(&[fixtures::fixture_a_clip()], &[0]);
    let c = Sc6.decode(&a, "clip:0", &DecodeOptions::default(), &Limits::default()).unwrap();
    let p = c.poses.as_ref().unwrap();
    assert_eq!((p.space, p.bones.len(), p.frames.len()), (crate::model::anim::Space::FormatModel, 32, 10));
    assert_eq!(p.source, "authored mot sample");
    assert_eq!(p.parents[8], Some(7));
    let base = p.frames[9][0].transform_point3(Vec3::ZERO);
    assert!((base - Vec3::new(0.243, 0.0, -0.180)).length() < 1e-6, "{base}");
    let hara = p.frames[9][1].transform_point3(Vec3::ZERO);
    assert!((hara - Vec3::new(0.243, 0.956, -0.180)).length() < 1e-6, "{hara}");
    // Fixture B: MUNE1 (transform 2) carries the 0x02 rotation of docs/formats/sc6-mot.md#fixtures-a-and-b at frame 0; its
    // parents are unrotated, so its world rotation is that quaternion.
    let b = encode_bank(&[fixtures::fixture_b_clip()], &[0]);
    let c = Sc6.decode(&b, "clip:0", &DecodeOptions::default(), &Limits::default()).unwrap();
    let p = c.poses.as_ref().unwrap();
    let (_, r, _) = p.frames[0][2].to_scale_rotation_translation();
    let want = Quat::from_xyzw(0.0, 0.0, -0.3826834, 0.9238795);
    assert!(r.dot(want).abs() > 1.0 - 1e-6, "{r:?}");
    // root_only keeps transforms 0 and 1
    let mut opts = DecodeOptions::default();
    opts.extra.insert("root_only".into(), "1".into());
    let c = Sc6.decode(&a, "clip:0", &opts, &Limits::default()).unwrap();
    let p = c.poses.as_ref().unwrap();
    assert_eq!((p.bones.len(), p.source.as_str()), (2, "root curve only"));
    assert!(c.tracks.iter().all(|t| t.name.starts_with("root.")));
}

#[test]
fn keys_and_word_table_are_bounded_by_the_key_limit() {
    let data = fixtures::all().into_iter().find(|(n, _)| n.ends_with("flags_none.mot")).unwrap().1;
    let limits = Limits { max_keys: 120, ..Limits::default() }; // decoded-word budget 4 × 120 ≥ 20 × 23
    let c = Sc6.decode(&data, "clip:0", &DecodeOptions::default(), &limits).unwrap();
    // 23 words per keyframe: 120 / 23 = 5 rows; 20 keyframes × 29 tracks > 120: no keys
    assert_eq!(c.tables[0].rows.len(), 5);
    assert!(c.tracks.iter().all(|t| t.keys.is_empty() && t.samples.len() == 20));
    assert!(c.notes.iter().any(|n| n.contains("stored keys omitted")));
}

#[test]
fn axis_angle_encoder_inverse_round_trips() {
    // docs/formats/sc6-mot.md#selector-streams encoder inverse: normalise, w ≥ 0, angle = 2·acos(w), el = asin(axis.y), az = atan2(−axis.z, axis.x)
    let cases = [
        [0.0, 0.0, -0.3826834, 0.9238795], // Fixture B's 0x02 rotation
        [0.3, -0.4, 0.1, 0.860233],
        [-0.5, 0.5, 0.5, -0.5], // w < 0: same rotation as its negation
        [0.0, 0.0, 0.0, 1.0],   // identity → 0, 0, 0
        [1.0, 0.0, 0.0, 0.0],   // half turn: angle word 32768 wraps to −32768
    ];
    for q in cases {
        let w = write::quat_to_words(q);
        let back = decode::axis_angle(w[0], w[1], w[2]);
        let dot: f64 =
            q.iter().zip(back).map(|(a, b)| a * b).sum::<f64>() / q.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(dot.abs() > 1.0 - 1e-6, "{q:?} → {w:?} → {back:?}");
    }
    assert_eq!(write::quat_to_words([0.0, 0.0, 0.0, 1.0]), [0, 0, 0]);
    assert_eq!(write::quat_to_words([1.0, 0.0, 0.0, 0.0])[0], -32768);
    assert_eq!(write::quat_to_words([0.0, 0.0, -0.3826834, 0.9238795]), [8192, 16384, 0]);
}

/// The TUI's clip (one decode with `tracks_on_demand`, curves stored, table rows, key text
/// and poses made when looked at) says what the complete decode says, for every clip of
/// every valid fixture: samples, keys, each key's text, every table row and every pose.
#[test]
fn curves_stored_with_the_rest_on_demand_equal_the_complete_decode() {
    let mut clips = 0;
    for (name, data) in fixtures::all() {
        if name.contains("/x_") {
            continue;
        }
        let doc = Sc6.describe(&data, &name, &Limits::default()).unwrap();
        for key in doc.nodes.iter().filter_map(|n| n.anim.clone()) {
            let Ok(full) = Sc6.decode(&data, &key, &DecodeOptions::default(), &Limits::default()) else { continue };
            let opts = DecodeOptions { tracks_on_demand: true, ..DecodeOptions::default() };
            let mut lazy = Sc6.decode(&data, &key, &opts, &Limits::default()).unwrap();
            lazy.store_curves();
            assert_eq!(lazy.tracks.len(), full.tracks.len(), "{name} {key}");
            for (i, (l, f)) in lazy.tracks.iter().zip(&full.tracks).enumerate() {
                assert_eq!(l.samples, f.samples, "{name} {key} {}", f.name);
                assert_eq!(l.keys.len(), f.keys.len(), "{name} {key} {}", f.name);
                for (k, (lk, fk)) in l.keys.iter().zip(&f.keys).enumerate() {
                    assert_eq!((lk.frame, lk.value), (fk.frame, fk.value), "{name} {key} {} key {k}", f.name);
                    // the stored keys carry no text: it is made for the key looked at
                    assert!(lk.detail.is_empty());
                    assert!(!fk.detail.is_empty());
                    assert_eq!(lazy.key_detail(i, k).as_deref(), Some(fk.detail.as_str()), "{name} {key}");
                }
            }
            let rows = lazy.tracks_on_demand.as_ref().unwrap();
            for (t, table) in full.tables.iter().enumerate() {
                assert!(lazy.tables[t].rows.is_empty());
                assert_eq!(rows.row_count(t), table.rows.len(), "{name} {key}");
                for (r, row) in table.rows.iter().enumerate() {
                    assert_eq!(&rows.row(t, r), row, "{name} {key} row {r}");
                }
            }
            assert_eq!(lazy.pose_frames(), full.pose_frames(), "{name} {key}");
            for f in 0..full.pose_frames() {
                assert_eq!(lazy.pose_frame(f), full.pose_frame(f), "{name} {key} frame {f}");
            }
            clips += 1;
        }
    }
    assert!(clips >= 10, "only {clips} clips compared");
}
