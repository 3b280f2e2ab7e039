//! Resource bounds: hostile inputs of at most 1 MiB open, walk and decode with peak RSS
//! ≤ 256 MiB and without hanging. Each case runs the real binary in a child process so its
//! peak RSS can be sampled from its own `VmHWM`; a child still running after [`HANG_GUARD`] is
//! killed (a hang guard only: it is far above any normal run, even on a loaded machine,
//! and is not a speed target). Every `x_` fixture must fail `check` with exactly the error
//! the fixture README (and the specs) give it: its offset and its error kind.

use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MAX_RSS_KIB: i64 = 256 * 1024;
/// Kill a child only when it has clearly hung.
const HANG_GUARD: Duration = Duration::from_secs(600);

fn gzip(name: &str, data: &[u8]) -> Vec<u8> {
    let mut e = flate2::GzBuilder::new().filename(name).write(Vec::new(), Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Run `animscope ARGS` on `file` under the hang guard; returns the exit code and stdout
/// (written to a file next to `file`, so a large output never blocks the child on a pipe).
/// Fails when the child's own peak RSS (sampled) passes [`MAX_RSS_KIB`].
fn run_bounded(args: &[&str], file: &Path) -> (i32, String) {
    let start = Instant::now();
    let out_path = file.with_extension("stdout");
    let out = std::fs::File::create(&out_path).unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("animscope"))
        .args(args)
        .arg(file)
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut peak = 0;
    loop {
        peak = peak.max(crate::support::vm_hwm_kib(child.id()).unwrap_or(0));
        assert!(peak <= MAX_RSS_KIB, "animscope {args:?} {}: peak RSS {peak} KiB > {MAX_RSS_KIB} KiB", file.display());
        if let Some(status) = child.try_wait().unwrap() {
            let text = std::fs::read_to_string(&out_path).unwrap_or_default();
            return (status.code().unwrap_or(-1), text);
        }
        if start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            let _ = child.wait();
            panic!("animscope {args:?} {} still running after {HANG_GUARD:?}: hung", file.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// What `check` must report for each hostile case: (file, offset, a fragment naming the
/// error kind). Offsets come from the fixture README and the specs' layouts, not from
/// running the code:
/// - ccsf: the `mini` scene is Header 0x3c bytes, Index (2 files, 6 objects) 0x110, Setup 8,
///   Clut (16 colours, blt_group) 0x5c, Texture (4×4 PSMT4, walked by content) 0x2c, so
///   the Material is at 0x1dc and the Model at 0x1f4, its first vertex byte at
///   0x1f4 + 28 + 12. The cycle scenes have the same Index size: the first Obj is at 0x154
///   and (after a 4-word Obj, 24 bytes) the first ExtObj at 0x16c.
/// - motn: the offsets stated in the README table.
/// - sc6: clips start at 0x10; offsets per the spec's header and group-table layout
///   (frame_count +0, word_bytes +2, mask +8, group table +0x1C, base words, then the 18
///   code lengths at +14 of the group's bitstream).
/// - gzarc: member 1 of `x_corrupt_member.BIN` starts at 0x800; every fake member fails to
///   inflate, the first at 0. (The bomb, 1 GiB of zeros in member 0, is not a finding: it
///   stops the check at the memory budget.)
fn expected_errors(file_len: &dyn Fn(&str) -> u64) -> Vec<(&'static str, u64, String)> {
    let c = 0x10u64;
    let g = c + 0x1c + 4; // group 0's bitstream: after the 2-byte group table entry and base words
    let mut v: Vec<(&'static str, u64, String)> = vec![
        ("fake_members.BIN", 0, "inflate".into()),
        ("x_truncated.ccs", 0x1f4, "model end".into()),
        ("x_size_past_end.ccs", 0x1dc, "chunk end".into()),
        ("x_count_too_large.ccs", 0x1f4 + 28 + 12, "rigid vertex".into()),
        ("x_unknown_kind.ccs", 0x1dc, "chunk kind".into()),
        ("x_parent_cycle.ccs", 0x154, "Obj parent".into()),
        ("x_extobj_cycle.ccs", 0x16c, "ExtObj target".into()),
        ("x_version_below_0x90.ccs", 0x2c, "below 0x90".into()),
        ("x_gen2_blob_past_end.ccs", 0x944, "chunk end".into()),
        ("x_gen2_model_truncated.ccs", 0x1c4, "chunk end".into()),
        ("x_gen2_lookup_truncated.ccs", 0x674, "chunk end".into()),
        ("x_corrupt_member.BIN", 0x800, "inflate".into()),
        ("x_block_order.mot", 0x54, "block offsets".into()),
        ("x_block_past_end.mot", 0x5a, "block 5".into()),
        ("x_no_terminator.mot", 0x5c, "block 1".into()),
        ("x_name_pointer.mot", 0x40, "name pointer".into()),
        ("x_counts_past_end.mot", 0x68, "block 3 frame count 203".into()),
        ("x_entry_past_parent.pks", 0xbc, "ipac entry end".into()),
        // MOTN variant layouts (offsets from fixtures/README.md, docs/formats/motn.md#variant-sequences)
        ("x_baked_truncated.mot", 0x5e, "baked frame".into()),
        ("x_baked_stride.mot", 0x54, "stride".into()),
        ("x_baked_mask_root.mot", 0x56, "node mask".into()),
        ("x_track_records_past_end.mot", 0x5c, "node-track record".into()),
        ("x_track_overlap.mot", 0x88, "block offsets".into()),
        ("x_track_odd_offset.mot", 0x68, "block offset".into()),
        ("x_track_block_past_end.mot", 0x8c, "node-track block end".into()),
        ("x_track_translation_offset.mot", 0x74, "unsupported".into()),
    ];
    let sc6: [(&'static str, u64); 23] = [
        ("x_bank_too_short.mot", 0),
        ("x_bank_count_zero.mot", 0),
        ("x_bank_count_too_large.mot", 0),
        ("x_bank_reserved_nonzero.mot", 4),
        ("x_offset_table_truncated.mot", 8),
        ("x_offset_inside_table.mot", 8),
        ("x_offsets_out_of_order.mot", 12),
        ("x_offset_past_eof.mot", 12),
        ("x_offset_zero.mot", 12),
        ("x_clip_too_short.mot", c),
        ("x_frame_count_zero.mot", c),
        ("x_word_count_zero.mot", c + 2),
        ("x_word_count_too_large.mot", c + 2),
        ("x_group_table_past_clip.mot", c + 0x1c),
        ("x_payload_before_table.mot", c + 0x1c),
        ("x_payload_past_clip.mot", c + 0x1e),
        ("x_payload_odd.mot", c + 0x1c),
        ("x_base_words_past_clip.mot", file_len("x_base_words_past_clip.mot") - 2),
        ("x_bit_read_past_clip.mot", g + 28),
        ("x_code_lengths_all_zero.mot", g + 14),
        ("x_code_lengths_oversubscribed.mot", g + 14),
        ("x_channel_stream_mismatch.mot", c + 8),
        ("x_decode_work_exceeded.mot", c),
    ];
    for (name, off) in sc6 {
        // sc6 errors name their reason: the fixture's name without `x_` and `.mot`
        let reason = name.trim_start_matches("x_").trim_end_matches(".mot").to_string();
        v.push((name, off, reason));
    }
    v
}

/// Hostile inputs that do not depend on one format's writer.
fn generic_cases() -> Vec<(&'static str, Vec<u8>)> {
    // 1 GiB of zeros compresses to about 1 MiB: a gzip bomb in one member.
    let mut bomb_enc = GzBuilderLike::new("bomb.bin");
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..1024 {
        bomb_enc.write(&zeros);
    }
    let bomb = bomb_enc.finish();
    // gzip nested 40 deep.
    let mut nested = b"MOTN".to_vec();
    for i in 0..40 {
        nested = gzip(&format!("layer{i}.gz"), &nested);
    }
    // A sector archive whose every 2048-byte boundary claims a gzip member that does not inflate.
    let mut fake_members = Vec::new();
    for _ in 0..400 {
        let mut sector = vec![0u8; 2048];
        sector[..10].copy_from_slice(&[0x1f, 0x8b, 0x08, 0x08, 0, 0, 0, 0, 0, 3]);
        sector[10..15].copy_from_slice(b"x.cmp");
        fake_members.extend(sector);
    }
    vec![("gzip_bomb.gz", bomb), ("nested40.gz", nested), ("fake_members.BIN", fake_members)]
}

/// Streaming gzip writer so the bomb never needs 1 GiB in memory.
struct GzBuilderLike(GzEncoder<Vec<u8>>);
impl GzBuilderLike {
    fn new(name: &str) -> Self {
        GzBuilderLike(flate2::GzBuilder::new().filename(name).write(Vec::new(), Compression::best()))
    }
    fn write(&mut self, b: &[u8]) {
        self.0.write_all(b).unwrap();
    }
    fn finish(self) -> Vec<u8> {
        self.0.finish().unwrap()
    }
}

#[test]
fn hostile_inputs_stay_within_memory_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases = generic_cases();
    for (name, bytes) in animscope::fixtures::all() {
        if name.contains("/x_") || name.starts_with("x_") {
            let leaf = name.rsplit('/').next().unwrap_or(&name).to_string();
            cases.push((Box::leak(leaf.into_boxed_str()), bytes));
        }
    }
    let lens: std::collections::HashMap<&str, u64> = cases.iter().map(|(n, b)| (*n, b.len() as u64)).collect();
    let expected = expected_errors(&|n| lens[n]);
    let mut checked = 0;
    for (name, bytes) in &cases {
        assert!(bytes.len() <= 1 << 20, "{name} is {} bytes; cases are at most 1 MiB", bytes.len());
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let (code, out) = run_bounded(&["check"], &p);
        if *name == "gzip_bomb.gz" {
            // the member passes the memory budget (96 MiB by default, below `--limit
            // inflated=`'s 128 MiB) when inflated: the check stops there with the one-line
            // budget error at the member's start, as every verb stops at the budget
            assert_eq!(code, 2, "animscope check {name}: exit {code}\n{out}");
            let (_, _, err) = crate::support::animscope(&["check", p.to_str().unwrap()]);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains("memory budget exceeded: the member inflates to more than 96 MiB"), "{err}");
            assert!(err.contains("--limit memory=") && err.trim_end().ends_with(" at 0x0"), "{err}");
        }
        match expected.iter().find(|e| e.0 == *name).filter(|_| *name != "gzip_bomb.gz") {
            Some((_, offset, what)) => {
                // exit 1 = findings; the finding is an error at the stated offset naming its kind
                assert_eq!(code, 1, "animscope check {name}: exit {code}\n{out}");
                let at = format!("error @0x{offset:x} ");
                assert!(
                    out.lines().any(|l| l.contains(&at) && l.contains(what.as_str())),
                    "animscope check {name}: no `{at}… {what}` in\n{out}"
                );
                checked += 1;
            }
            // nested40.gz: a well-formed (if deep) gzip chain; it only has to finish
            None => {
                assert!(!name.starts_with("x_"), "{name}: an x_ fixture without an expected error");
                assert!((0..=2).contains(&code), "animscope check {name}: exit {code}");
            }
        }
        for args in [&["tree", "--fields"][..], &["walk"][..], &["survey"][..]] {
            let (code, _) = run_bounded(args, &p);
            assert!((0..=2).contains(&code), "animscope {args:?} {name}: exit {code}");
        }
        // Descend into the first member, if any (inflation is where bombs go off).
        let _ = run_bounded(&["tree", "--depth", "2"], &p);
    }
    // every expectation was used: the fixture set still has each x_ file
    assert_eq!(checked, expected.len(), "expected errors for files that are no longer fixtures");
}
