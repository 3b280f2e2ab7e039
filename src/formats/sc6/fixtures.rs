//! Synthetic SC6 fixtures, all made by the encoder in `write.rs`: the spec's Fixtures A and
//! B, one bank per flag combination and stream, an aliased bank, and `x_<reason>.mot`
//! files that each break exactly one rule of docs/formats/sc6-mot.md#clip-checks / the list.

use super::parse::{StreamKind, parse_bank, parse_header, walk_stream};
use super::raw::*;
use super::write::{ClipSpec, Codes, encode_bank, encode_clip, encoded_count, quat_to_words};
use crate::bytes::Bytes;
use crate::formats::record::{self, FixedSize, Spanned};

/// Keyframes for a mask under a stream: smooth, deterministic motion per selector.
pub(in crate::formats) fn keyframes_for(kind: StreamKind, flags: u32, mask: u64, n: usize, seed: u32) -> Vec<Vec<i16>> {
    let (chans, bytes) = walk_stream(kind.entries(), flags, mask, 0).unwrap_or_default();
    let wc = usize::try_from(bytes / 2).unwrap_or(0);
    let s = f64::from(seed % 97) / 97.0;
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let t = k as f64;
        let mut w = vec![0i16; wc];
        for (ci, c) in chans.iter().enumerate() {
            let ph = s * 6.0 + ci as f64 * 0.37;
            let mut put = |j: usize, v: i16| {
                if let Some(x) = w.get_mut(c.word + j) {
                    *x = v;
                }
            };
            match c.sel {
                0x16 if flags & F_F32 != 0 => {
                    let scale = if flags & F_ROOT_SCALE_16000 != 0 { ROOT_SCALE_16000 } else { ROOT_SCALE_DEFAULT };
                    let metres = [0.031 * t, 0.95 + 0.05 * (t * 0.3 + ph).sin(), -0.012 * t * t];
                    for (i, m) in metres.iter().enumerate() {
                        let bits = ((m / scale) as f32).to_bits();
                        put(2 * i, (bits & 0xFFFF) as u16 as i16);
                        put(2 * i + 1, (bits >> 16) as u16 as i16);
                    }
                    put(6, (t * 700.0) as i64 as i16);
                }
                0x16 => {
                    put(0, (t * 31.0) as i16);
                    put(1, (950.0 + 50.0 * (t * 0.3 + ph).sin()) as i16);
                    put(2, (-(t * t) * 3.0).max(-32000.0) as i16);
                    put(3, (t * 1500.0) as i64 as i16); // wraps past ±0.5 turn on long clips
                }
                0x02 | 0x19 => {
                    let angle = 0.8 * (t * 0.21 + ph).sin();
                    let (ax, ay, az) = (ph.cos(), 0.5, ph.sin());
                    let n = (ax * ax + ay * ay + az * az).sqrt();
                    let h = angle / 2.0;
                    let q = [h.sin() * ax / n, h.sin() * ay / n, h.sin() * az / n, h.cos()];
                    for (j, v) in quat_to_words(q).into_iter().enumerate() {
                        put(j, v);
                    }
                }
                0x06 => put(0, (6000.0 * (t * 0.17 + ph).sin()) as i16),
                0x17 | 0x18 if flags & F_F32 != 0 => {
                    for i in 0..3 {
                        let bits = ((0.1 * (t * 0.1 + i as f64 + ph).cos()) as f32).to_bits();
                        put(2 * i, (bits & 0xFFFF) as u16 as i16);
                        put(2 * i + 1, (bits >> 16) as u16 as i16);
                    }
                }
                _ => {
                    for j in 0..c.words {
                        put(j, ((t * 37.0 + j as f64 * 1000.0 + ph * 100.0) as i64 % 4000) as i16);
                    }
                }
            }
        }
        out.push(w);
    }
    out
}

/// A clip with generated motion.
pub(in crate::formats) fn motion_clip(
    kind: StreamKind,
    frame_count: u16,
    flags: u32,
    mask: u64,
    seed: u32,
) -> ClipSpec {
    let n = encoded_count(frame_count, flags);
    ClipSpec::new(frame_count, flags, mask, keyframes_for(kind, flags, mask, n, seed))
}

fn enc(spec: &ClipSpec) -> Vec<u8> {
    encode_clip(spec).unwrap_or_default()
}

/// Spec Fixture A (docs/formats/sc6-mot.md#fixtures-a-and-b) as a clip: `[3k², 956, −20k, 0]`, keyframe 9 = `[243, 956, −180, 32767]`.
pub(in crate::formats) fn fixture_a_clip() -> Vec<u8> {
    let mut keys: Vec<Vec<i16>> = (0..10i16).map(|k| vec![3 * k * k, 956, -20 * k, 0]).collect();
    if let Some(k9) = keys.get_mut(9) {
        *k9 = vec![243, 956, -180, 32767];
    }
    let mut spec = ClipSpec::new(10, 0, 0x2, keys);
    spec.codes = Codes::Flat;
    enc(&spec)
}

/// Spec Fixture B (docs/formats/sc6-mot.md#fixtures-a-and-b) as a clip.
pub(in crate::formats) fn fixture_b_clip() -> Vec<u8> {
    let keys = vec![vec![8192, 16384, 0, 4096], vec![8193, 16384, 0, 4097], vec![8195, 16384, -1, 4097]];
    let mut spec = ClipSpec::new(5, F_HALF, 0x104, keys);
    let mut l = [0u8; 18];
    l[..5].copy_from_slice(&[4, 3, 1, 2, 4]);
    spec.codes = Codes::Fixed(l);
    enc(&spec)
}

/// Root (entry 1) + MUNE1 (2) + UDE hinge (8) + KOSHI (14) + aux 0x17 (23) + weapon pair (25, 26) + 0x14 (43).
pub(in crate::formats) const MASK_BODY: u64 =
    (1 << 1) | (1 << 2) | (1 << 8) | (1 << 14) | (1 << 23) | (1 << 25) | (1 << 26) | (1 << 43);

/// The clip every `x_` file starts from: 12 frames, root + one rotation, one bank slot.
pub(in crate::formats) fn base_clip() -> Vec<u8> {
    enc(&motion_clip(StreamKind::Default, 12, 0, 0b110, 7))
}

// The `x_` files patch fields through their declarations: read the record, change a
// field, write it back where it was read.

/// Change the bank header of bank `b`.
fn with_bank_header(b: &mut Vec<u8>, f: impl FnOnce(&mut BankHeader)) {
    if let Ok(mut h) = record::read_at::<BankHeader>(&Bytes::new(b), 0) {
        f(&mut h);
        let _ = record::write_over(&h, b, 0);
    }
}

/// Change the offsets of bank `b`.
fn with_offsets(b: &mut Vec<u8>, f: impl FnOnce(&mut [Spanned<u32>])) {
    if let Ok(mut bank) = parse_bank(Bytes::new(b)) {
        f(&mut bank.table.offset);
        let _ = record::write_over(&bank.table, b, BankHeader::SIZE);
    }
}

/// Change the header of clip `c` (the clip starts at 0).
fn with_clip_header(c: &mut Vec<u8>, f: impl FnOnce(&mut ClipHeader)) {
    if let Ok(mut h) = record::read_at::<ClipHeader>(&Bytes::new(c), 0) {
        f(&mut h);
        let _ = record::write_over(&h, c, 0);
    }
}

/// Change the group table of a valid clip `c`.
fn with_group_table(c: &mut Vec<u8>, f: impl FnOnce(&mut [Spanned<i16>])) {
    if let Ok(mut h) = parse_header(Bytes::new(c)) {
        f(&mut h.groups.entry);
        let _ = record::write_over(&h.groups, c, ClipHeader::SIZE);
    }
}

/// Where group 0's code lengths start in a valid clip: after its payload's base words.
fn group0_lengths_at(c: &[u8]) -> usize {
    parse_header(Bytes::new(c)).map_or(0, |h| {
        let entry0 = h.groups.entry.first().map_or(0, |e| u64::try_from(e.value).unwrap_or(0));
        usize::try_from(ClipHeader::SIZE + entry0 + 2 * h.wc).unwrap_or(0)
    })
}

/// A one-slot bank around a (possibly patched) clip; the clip starts at 0x10.
fn one(clip: Vec<u8>) -> Vec<u8> {
    encode_bank(&[clip], &[0])
}

fn patched(f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut c = base_clip();
    f(&mut c);
    one(c)
}

/// Every fixture: (path under `fixtures/`, bytes).
pub fn all() -> Vec<(String, Vec<u8>)> {
    let mut v = good_files();
    // x_ files: each breaks one rule.
    v.extend(bank_failures());
    v.extend(clip_failures());
    v
}

/// The fixtures that decode: the two hand-made clips, one clip per flag combination and
/// stream kind, unknown bits, extreme wrapping values and a bank with aliases.
fn good_files() -> Vec<(String, Vec<u8>)> {
    let d = StreamKind::Default;
    let mut v: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |name: &str, bytes: Vec<u8>| v.push((format!("sc6/{name}"), bytes));
    add("fixture_a.mot", encode_bank(&[fixture_a_clip()], &[0, 0]));
    add("fixture_b.mot", one(fixture_b_clip()));
    let combos: [(&str, u16, u32); 10] = [
        ("flags_none.mot", 20, 0),
        ("flags_half.mot", 20, F_HALF),
        ("flags_quarter.mot", 22, F_QUARTER),
        ("flags_extra.mot", 16, F_EXTRA_FRAME),
        ("flags_half_extra.mot", 19, F_HALF | F_EXTRA_FRAME),
        ("flags_quarter_extra.mot", 21, F_QUARTER | F_EXTRA_FRAME),
        ("flags_root16000.mot", 12, F_ROOT_SCALE_16000),
        ("flags_f32.mot", 12, F_F32),
        ("flags_f32_root16000.mot", 12, F_F32 | F_ROOT_SCALE_16000),
        ("flags_half_f32.mot", 13, F_HALF | F_F32),
    ];
    for (i, (name, fc, flags)) in combos.into_iter().enumerate() {
        let mut spec = motion_clip(d, fc, flags, MASK_BODY, i as u32 + 1);
        if flags & F_ROOT_SCALE_16000 != 0 {
            spec.turn_word = 0x4000; // a quarter base turn
        }
        add(name, one(enc(&spec)));
    }
    let full_default = (1u64 << 44) - 1;
    add("stream_default_full.mot", one(enc(&motion_clip(d, 3, 0, full_default, 11))));
    add("stream_alternate.mot", one(enc(&motion_clip(StreamKind::Alternate, 3, F_ALT_STREAM, (1u64 << 43) - 1, 12))));
    add("stream_skill_check.mot", one(enc(&motion_clip(StreamKind::SkillCheck, 18, F_HALF, 0x7FFF, 13))));
    let mut odd = motion_clip(d, 9, 0x20 | 0x100, 0b110, 14);
    odd.turn_word = 0x8123;
    odd.unknown = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    add("unknown_bits.mot", one(enc(&odd)));
    let wrap = ClipSpec::new(
        9,
        0,
        0b110,
        (0..9)
            .map(|k| {
                let e = if k % 2 == 0 { i16::MAX } else { i16::MIN };
                vec![e, e.wrapping_add(1).wrapping_neg(), 0, (k * 9000) as i16, e, 0, e.wrapping_add(1).wrapping_neg()]
            })
            .collect(),
    );
    add("wrap_extremes.mot", one(enc(&wrap)));
    let clips = [
        enc(&motion_clip(d, 8, 0, 0b110, 21)),
        enc(&motion_clip(d, 30, F_HALF, MASK_BODY, 22)),
        enc(&motion_clip(d, 3, 0, 0b10, 23)),
    ];
    add("aliases.mot", encode_bank(&clips, &[0, 0, 1, 2, 2, 2]));

    v
}

/// The x_ files that break a bank rule: its header, its offset table.
fn bank_failures() -> Vec<(String, Vec<u8>)> {
    let d = StreamKind::Default;
    let mut v: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |name: &str, bytes: Vec<u8>| v.push((format!("sc6/{name}"), bytes));
    let mut b = Vec::new();
    let _ = record::write(&BankHeader { motion_count: 1.into(), reserved: 0.into() }, &mut b);
    let _ = record::write(&OffsetTable { offset: vec![0x10.into()] }, &mut b);
    add("x_bank_too_short.mot", b);
    add("x_bank_count_zero.mot", vec![0; 16]);
    add("x_bank_count_too_large.mot", patched_bank(|b| with_bank_header(b, |h| h.motion_count.value = 0x20_0000)));
    add("x_bank_reserved_nonzero.mot", patched_bank(|b| with_bank_header(b, |h| h.reserved.value = 1)));
    add("x_offset_table_truncated.mot", patched_bank(|b| with_bank_header(b, |h| h.motion_count.value = 100)));
    let two = || encode_bank(&[base_clip(), enc(&motion_clip(d, 5, 0, 0b10, 3))], &[0, 1]);
    let mut b = two();
    with_offsets(&mut b, |o| set(o, 0, 0x0C));
    add("x_offset_inside_table.mot", b);
    let mut b = two();
    with_offsets(&mut b, |o| o.swap(0, 1));
    add("x_offsets_out_of_order.mot", b);
    let mut b = two();
    let l = b.len() as u32;
    with_offsets(&mut b, |o| set(o, 1, l + 0x100));
    add("x_offset_past_eof.mot", b);
    let mut b = two();
    with_offsets(&mut b, |o| set(o, 1, 0));
    add("x_offset_zero.mot", b);
    v
}

/// The x_ files that break a clip rule: its header, its group table, its bitstreams, its
/// streams, its decode budget.
fn clip_failures() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |name: &str, bytes: Vec<u8>| v.push((format!("sc6/{name}"), bytes));
    // 16 bytes: frame_count, word_bytes, flags and the mask of a header cut before turn_word
    let mut short = Vec::new();
    let h =
        ClipHeader { frame_count: 1.into(), word_bytes: 2.into(), presence_mask: 2.into(), ..ClipHeader::default() };
    let _ = record::write(&h, &mut short);
    short.truncate(16);
    add("x_clip_too_short.mot", one(short));
    add("x_frame_count_zero.mot", patched(|c| with_clip_header(c, |h| h.frame_count.value = 0)));
    add("x_word_count_zero.mot", patched(|c| with_clip_header(c, |h| h.word_bytes.value = 1)));
    add("x_word_count_too_large.mot", patched(|c| with_clip_header(c, |h| h.word_bytes.value = 0x2002)));
    add("x_group_table_past_clip.mot", patched(|c| with_clip_header(c, |h| h.frame_count.value = 60000)));
    add("x_payload_before_table.mot", patched(|c| with_group_table(c, |t| set(t, 0, 0))));
    add("x_payload_past_clip.mot", patched(|c| with_group_table(c, |t| set(t, 1, 0x7000))));
    add("x_payload_odd.mot", patched(|c| with_group_table(c, |t| set(t, 0, 5))));
    add(
        "x_base_words_past_clip.mot",
        patched(|c| {
            // point group 1 two bytes before the clip end: its 7 base words cannot fit
            let target = (c.len() - 2) as i64;
            with_group_table(c, |t| {
                let g0 = ClipHeader::SIZE as i64 + t.first().map_or(0, |e| i64::from(e.value));
                set(t, 1, (target - g0) as i16);
            });
        }),
    );
    add(
        "x_bit_read_past_clip.mot",
        patched(|c| {
            // cut the clip in the middle of group 0's bitstream (14 bytes after its lengths)
            let cut = group0_lengths_at(c) + 14;
            c.truncate(cut);
        }),
    );
    add(
        "x_code_lengths_all_zero.mot",
        patched(|c| {
            let at = group0_lengths_at(c);
            if let Some(s) = c.get_mut(at..at + 9) {
                s.fill(0);
            }
        }),
    );
    add(
        "x_code_lengths_oversubscribed.mot",
        patched(|c| {
            let at = group0_lengths_at(c);
            if let Some(s) = c.get_mut(at..at + 9) {
                s.fill(0x11);
            }
        }),
    );
    add("x_channel_stream_mismatch.mot", patched(|c| with_clip_header(c, |h| h.presence_mask.value = 0b10)));
    // 4200 keyframes × 4096 words passes the decoded-word budget; the table (525 groups) fits
    let mut big = Vec::new();
    let h = ClipHeader { frame_count: 4200.into(), word_bytes: 0x2000.into(), ..ClipHeader::default() };
    let _ = record::write(&h, &mut big);
    big.resize(big.len() + 2 * 525 + 2, 0);
    add("x_decode_work_exceeded.mot", one(big));
    v
}

/// Set element `i` of a table read from a record.
/// The SC6 bank inside the embedded demo archive: a 90-frame clip with root motion and body
/// rotations on the default stream, and a 60-frame half-rate clip, made by the same
/// generator as the committed fixtures.
pub fn demo_bank() -> Vec<u8> {
    let full = motion_clip(StreamKind::Default, 90, 0, MASK_BODY, 3);
    let half = motion_clip(StreamKind::Default, 60, 0x04, MASK_BODY, 11);
    let clips: Vec<Vec<u8>> = [full, half].iter().map(|c| encode_clip(c).unwrap_or_default()).collect();
    encode_bank(&clips, &[0, 1])
}

fn set<T>(t: &mut [Spanned<T>], i: usize, v: T) {
    if let Some(e) = t.get_mut(i) {
        e.value = v;
    }
}

fn patched_bank(f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut b = one(base_clip());
    f(&mut b);
    b
}
