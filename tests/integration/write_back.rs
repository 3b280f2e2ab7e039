//! Write-back (`animscope set`) through containers. Every expected byte is worked out from
//! the specs' layouts (docs/formats/*.md) or from how the input was built with the
//! project's writers, never read from what `set` wrote: the gzip members are inflated by
//! flate2's own gzip reader (which checks the CRC), the offsets found by reading the
//! headers the specs describe.

use crate::support::animscope;
use crate::support::{fixture_file as fixture, on_disk};
use animscope::formats::gzarc::write::{FIXTURE_MTIME, archive, gzip_member, pad_to_sector};
use animscope::formats::pak::write::{Entry, filler, ipac, pkf, pks};
use animscope::formats::{RebuildOptions, open};
use animscope::limits::Limits;
use animscope::source::Source;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes")) as usize
}

/// The first gzip member of `b`, inflated by flate2's gzip reader (CRC and length checked).
fn gunzip(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(b).read_to_end(&mut out).expect("a valid gzip member");
    out
}

/// The files in a folder, by name.
fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .expect("a folder")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into())
        .collect();
    v.sort();
    v
}

/// A field of a member of a sector-gzip archive: DATA.BIN's `mini.cmp` Header `pad`.
/// ccsf.md: the Header chunk's 8-byte chunk header, then the Header payload with `pad` (u16)
/// at 0x26, so the member's bytes 0x2e..0x30 become 0x1234 little-endian.
#[test]
fn a_field_of_a_gzip_archive_member_is_written_back() {
    let input = fixture("gzarc/DATA.BIN");
    let (d, path) = on_disk("DATA.BIN", &input);
    let out = d.path().join("out.BIN");
    let (code, stdout, err) = animscope(&["set", s(&path), "mini.cmp/Header", "pad=0x1234", "-o", s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("DATA.BIN/mini.cmp/Header: pad: 0x0000 unknown -> 0x1234 unknown"), "{stdout}");
    assert_eq!(std::fs::read(&path).expect("the input"), input, "the input is unchanged");
    let got = std::fs::read(&out).expect("the output");
    // the member still fits its sector: the second member stays where it was, unchanged
    assert_eq!(got.len(), input.len());
    assert_eq!(got[0x800..], input[0x800..]);
    // the header is kept: 10 fixed bytes, FNAME "mini.cmp" and its NUL
    let head = 10 + "mini.cmp".len() + 1;
    assert_eq!(got[..head], input[..head]);
    let mut want = gunzip(&input[..0x800]);
    want[0x2e..0x30].copy_from_slice(&[0x34, 0x12]);
    assert_eq!(gunzip(&got[..0x800]), want);
    let (code, o, e) = animscope(&["check", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let (code, summary, _) = animscope(&["diff", s(&path), s(&out), "--summary"]);
    assert_eq!(code, 1);
    let fields: Vec<&str> = summary.lines().filter(|l| l.contains(" · field ")).collect();
    assert_eq!(fields, ["DATA.BIN/mini.cmp/Header  Header  1 changed · field pad"], "{summary}");
}

/// The PKS, IPAC and MOTN offsets of TEST_SEQ's kind word in `motion.pks`, read as
/// pak.md and motn.md lay them out: PKS `ipac_ofs` at 4; IPAC `dictionary_ofs` at +4, the
/// first entry's `offset` at +12 of its record (from the IPAC start); MOTN `table_ofs` at 0
/// and `data_ofs` at 8, table entry `i` (8 bytes) holding `data_rel`; the sequence header's
/// `kind_word` at +2. TEST_SEQ is the second name `multi_inputs` lists, table entry 1.
fn test_seq_kind_word(pks: &[u8]) -> usize {
    let ipac = u32_at(pks, 4);
    let dict = ipac + u32_at(pks, ipac + 4);
    let motn = ipac + u32_at(pks, dict + 12);
    let table = motn + u32_at(pks, motn);
    let data = motn + u32_at(pks, motn + 8);
    data + u32_at(pks, table + 8) + 2
}

/// gzip → PKS → IPAC → MOTN: a field of a sequence three containers deep.
#[test]
fn a_field_three_containers_deep_is_written_back() {
    let pks_bytes = fixture("motn/motion.pks");
    let mut gz = gzip_member("motion.pks", &pks_bytes, FIXTURE_MTIME);
    pad_to_sector(&mut gz);
    let (d, path) = on_disk("motion.bin", &gz);
    let out = d.path().join("out.bin");
    let node = "motion.pks/ipac/MULTI.MOTN/data/seq[TEST_SEQ]/header";
    let (code, stdout, err) = animscope(&["set", s(&path), node, "kind_word=0x000d", "-o", s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("kind_word: 0x0000"), "{stdout}");
    assert_eq!(std::fs::read(&path).expect("the input"), gz, "the input is unchanged");
    let got = std::fs::read(&out).expect("the output");
    let at = test_seq_kind_word(&pks_bytes);
    let mut want = pks_bytes.clone();
    assert_eq!(want[at..at + 2], [0, 0], "TEST_SEQ's kind word was 0");
    want[at..at + 2].copy_from_slice(&[0x0d, 0x00]);
    assert_eq!(gunzip(&got), want);
    assert_eq!(got.len(), gz.len(), "padded to the same sector");
    assert_eq!(got[..10 + "motion.pks".len() + 1], gz[..10 + "motion.pks".len() + 1], "the header is kept");
    let (code, o, e) = animscope(&["check", s(&out)]);
    assert_eq!(code, 0, "{o}{e}");
    let (_, summary, _) = animscope(&["diff", s(&path), s(&out), "--summary"]);
    let named: Vec<&str> = summary.lines().filter(|l| l.contains("field header/kind_word")).collect();
    assert_eq!(named.len(), 1, "{summary}");
    assert!(named[0].starts_with("motion.bin/motion.pks/ipac/MULTI.MOTN/data/seq[TEST_SEQ]  sequence"), "{summary}");
    // the sequence's tracks decode as before (the kind word is not used by the decoder; the
    // notes name it)
    let seq = "motion.pks/ipac/MULTI.MOTN/data/seq[TEST_SEQ]";
    let tracks = |p: &Path| {
        let (code, j, e) = animscope(&["decode", s(p), seq, "--json"]);
        assert_eq!(code, 0, "{e}");
        serde_json::from_str::<serde_json::Value>(&j).expect("JSON")["tracks"].clone()
    };
    let a = tracks(&path);
    assert_eq!(a.as_array().map(Vec::len), Some(6), "TEST_SEQ's six channels");
    assert_eq!(a, tracks(&out));
}

/// A field set to the value it holds writes the input's bytes again: the member is
/// re-deflated at the level its XFL names, as the fixture writer deflated it.
#[test]
fn a_round_trip_without_change_gives_the_same_bytes() {
    let input = fixture("gzarc/DATA.BIN");
    let (d, path) = on_disk("DATA.BIN", &input);
    let out = d.path().join("same.BIN");
    let (code, _, err) = animscope(&["set", s(&path), "mini.cmp/Header", "pad=0", "-o", s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out).expect("the output"), input);
    let (code, o, _) = animscope(&["diff", s(&path), s(&out)]);
    assert_eq!(code, 0, "{o}");
    let pks_bytes = fixture("motn/motion.pks");
    let (d, path) = on_disk("motion.pks", &pks_bytes);
    let out = d.path().join("same.pks");
    let node = "ipac/MULTI.MOTN/data/seq[TEST_SEQ]/header";
    let (code, _, err) = animscope(&["set", s(&path), node, "frame_count=10", "-o", s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out).expect("the output"), pks_bytes);
}

/// Each bad edit: exit 2, one line naming the file, node and field, and no file left
/// (not the output, not a temp file).
#[test]
fn hostile_edits_write_nothing() {
    let multi = fixture("motn/multi.mot");
    let (d, path) = on_disk("multi.mot", &multi);
    let link = d.path().join("link.mot");
    std::fs::hard_link(&path, &link).expect("a hard link");
    let out = d.path().join("out.mot");
    let (p, o, l) = (s(&path), s(&out), s(&link));
    let bag = "data/seq[TMN_BAG]/header";
    let test = "data/seq[TEST_SEQ]/header";
    let cases: [(&[&str], &str); 11] = [
        (&["set", p, bag, "unk_04=NaN", "-o", o], "unk_04: NaN is not allowed"),
        (&["set", p, bag, "unk_04=-inf", "-o", o], "unk_04: an infinite value is not allowed"),
        (&["set", p, bag, "unk_04=1e6", "-o", o], "unk_04: 1000000.0 is out of range for a half float"),
        (&["set", p, test, "frame_count=32768", "-o", o], "frame_count: 32768 is out of range for a 15-bit field"),
        (&["set", p, test, "b2=-1", "-o", o], "b2: -1 is out of range for a 2-byte integer"),
        (&["set", p, test, "frame_cuont=3", "-o", o], "frame_cuont: no such field (did you mean frame_count?"),
        (&["set", p, test, "kind_word=walker", "-o", o], "kind_word: unknown name \"walker\""),
        (&["set", p, test, "--byte", "0x3c=00", "-o", o], "bytes: --byte 0x3c: 1 bytes pass the end"),
        (&["set", p, "data/seq[TEST_SEQ]/block5", "--byte", "0x1b4=00", "-o", p], "that is the input"),
        (&["set", p, test, "frame_count=3", "-o", l], "that is the input"),
        (&["set", p, "data", "frame_count=3", "-o", o], "frame_count: no such field"),
    ];
    for (args, want) in cases {
        // the --byte case: an offset of the header node's document, one past its end
        let args: Vec<String> = args.iter().map(|a| a.replace("0x3c=", &format!("0x{:x}=", multi.len()))).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, err) = animscope(&args);
        assert_eq!(code, 2, "{args:?}: {stdout}{err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        let want = want.replace("0x3c", &format!("0x{:x}", multi.len()));
        assert!(err.starts_with("animscope: "), "{args:?}: {err}");
        // a field that exists is named with its offset (`unk_04 @0x1c4: NaN …`)
        match want.split_once(": ") {
            Some((field, rest))
                if args.iter().any(|a| a.starts_with(&format!("{field}="))) && !rest.contains("no such") =>
            {
                assert!(err.contains(&format!("{field} @0x")) && err.contains(rest), "{args:?}: {err}");
            }
            _ => assert!(err.contains(&want), "{args:?}: {err}"),
        }
        if !want.contains("that is the input") {
            assert!(err.contains(&format!("{p}: multi.mot/data")), "{args:?} names file and node: {err}");
        }
        assert_eq!(names(d.path()), ["link.mot", "multi.mot"], "{args:?} left a file");
    }
    assert_eq!(std::fs::read(&path).expect("the input"), multi);
}

/// A re-deflated member that no longer fits its sectors is refused with the sizes; with
/// `--grow` it takes whole sectors and the member after it moves by one sector.
#[test]
fn a_member_that_outgrows_its_sectors_needs_grow() {
    let b = filler(700, 3);
    let input = archive(&[("a.bin".into(), vec![0u8; 3000]), ("b.bin".into(), b.clone())]);
    assert_eq!(input.len(), 2 * 2048, "two members of one sector each");
    let (d, path) = on_disk("ARC.BIN", &input);
    let out = d.path().join("out.BIN");
    // 2,600 bytes of noise do not deflate below 2,048
    let mut noise = crate::support::rng(7);
    let hex: String = (0..2600).map(|_| format!("{:02x}", noise.next() as u8)).collect();
    let byte = format!("0={hex}");
    let (code, _, err) = animscope(&["set", s(&path), "a.bin@0", "--byte", &byte, "-o", s(&out)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("more than its 2048 bytes (1 sector(s) of 2048); --grow"), "{err}");
    assert_eq!(names(d.path()), ["ARC.BIN"]);
    let (code, stdout, err) = animscope(&["set", s(&path), "a.bin@0", "--byte", &byte, "-o", s(&out), "--grow"]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("the 1 members after it moved by 2048 bytes"), "{stdout}");
    assert!(stdout.contains("not updated"), "{stdout}");
    let got = std::fs::read(&out).expect("the output");
    assert_eq!(got.len(), 3 * 2048);
    assert_eq!(got[2 * 2048..], input[2048..], "b.bin moved one sector, unchanged");
    let mut want = vec![0u8; 3000];
    for (i, w) in want.iter_mut().take(2600).enumerate() {
        *w = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex");
    }
    assert_eq!(gunzip(&got[..2 * 2048]), want);
    assert_eq!(gunzip(&got[2 * 2048..]), b);
}

/// IPAC entries that change length, through the parsed object's rebuild: the result is
/// what the container writer makes of the changed entries (data 16-aligned, dictionary
/// after), for a stand-alone IPAC, a PKS and a PKF, first and last entry, longer and shorter.
#[test]
fn ipac_tables_are_rewritten_for_a_longer_or_shorter_entry() {
    let lim = Limits::default();
    let entries = vec![Entry::new("FIRST", "MOTN", filler(37, 1)), Entry::new("SECOND", "CHRT", filler(21, 2))];
    let chunks = [("TEXN", filler(9, 4))];
    type Make = fn(&[Entry], &[(&str, Vec<u8>)]) -> Vec<u8>;
    let makers: [(&str, Make); 3] = [("ipac", |e, _| ipac(e)), ("pks", |e, _| pks(e)), ("pkf", |e, c| pkf(c, e))];
    for (what, make) in makers {
        for (i, len) in [(0, 80), (0, 5), (1, 100), (1, 0), (0, 37)] {
            let before = make(&entries, &chunks);
            let mut changed = entries.clone();
            changed[i].data = filler(len, 9);
            let want = make(&changed, &chunks);
            let src = Arc::new(Source::from_vec("x", before));
            let p = open(Arc::clone(&src), None, &lim).expect("opens");
            let node = p.document().nodes.iter().find(|n| n.member == Some(i as u32)).expect("the entry").id;
            let spliced = p
                .rebuild()
                .expect("containers rebuild")
                .replace_member(node, &changed[i].data, &RebuildOptions::default(), &lim)
                .expect("rebuilt");
            assert_eq!(spliced.to_vec(&src, &lim).expect("whole"), want, "{what}: entry {i} to {len} bytes");
        }
    }
}

/// Write-back spends the memory budget: the rebuilt members are refused with the budget's
/// one line when it cannot hold them, and nothing is written.
#[test]
fn write_back_spends_the_memory_budget() {
    let big = vec![7u8; 300_000];
    let input = archive(&[("big.bin".into(), big)]);
    let (d, path) = on_disk("ARC.BIN", &input);
    let out = d.path().join("out.BIN");
    let (code, _, err) =
        animscope(&["--limit", "memory=500K", "set", s(&path), "big.bin@0", "--byte", "0=01", "-o", s(&out)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("memory budget exceeded: the edited member") && err.contains("--limit memory="), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(names(d.path()), ["ARC.BIN"]);
    let (code, _, err) = animscope(&["set", s(&path), "big.bin@0", "--byte", "0=01", "-o", s(&out)]);
    assert_eq!(code, 0, "{err}");
}

/// Where TEST_SEQ's blocks 3 and 5 start in a MOTN blob at `motn` of `b`, read as motn.md
/// lays them out: `table_ofs` at 0 and `data_ofs` at 8, table entry 1 (TEST_SEQ) holding
/// `data_rel`; the sequence header's `b3` at +6 and `b5` at +10, from the sequence start.
fn test_seq_blocks(b: &[u8], motn: usize) -> (usize, usize) {
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([b[at], b[at + 1]]));
    let table = motn + u32_at(b, motn);
    let base = motn + u32_at(b, motn + 8) + u32_at(b, table + 8);
    (base + u16_at(base + 6), base + u16_at(base + 10))
}

/// The MOTN blob's start inside `motion.pks` (see `test_seq_kind_word`).
fn motn_in_pks(pks: &[u8]) -> usize {
    let ipac = u32_at(pks, 4);
    let dict = ipac + u32_at(pks, ipac + 4);
    ipac + u32_at(pks, dict + 12)
}

/// One track's keys of `decode --json` as (frame, value).
fn decoded_keys(p: &Path, seq: &str, track: &str) -> Vec<(f64, f64)> {
    let (code, j, e) = animscope(&["decode", s(p), seq, "--json"]);
    assert_eq!(code, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(&j).expect("JSON");
    let t = v["tracks"].as_array().expect("tracks").iter().find(|t| t["name"] == track).expect("the track").clone();
    t["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .map(|k| (k["frame"].as_f64().expect("frame"), k["value"].as_f64().expect("value")))
        .collect()
}

/// MOTN key values and key frames are fields `set` writes, in a bare `.mot` and three
/// containers deep (gzip → PKS → IPAC → MOTN). TEST_SEQ is vector A (motn.md): its channels
/// in order Root.px (codes 3 3: 12 bytes of Block 5), Root.py (codes 1 2 1: 8 bytes, one
/// stored frame), Root.pz (codes 0 0), UpperLeg_R.rx (codes 1 1 1 1, two stored frames). So
/// Root.py key[2]'s value is at b5 + 12 + 2 + 4, UpperLeg_R.rx key[1]'s at b5 + 20 + 2, and
/// Root.py key[1]'s frame at b3 + 0. Expected halves by hand from IEEE binary16: 1.25 =
/// 1.01b × 2⁰ → exponent 15, mantissa 0x100: 0x3d00; 30° = 1/12 turn = 1.0101…b × 2⁻⁴ →
/// exponent 11 (0x2c00), mantissa round(1024/3) = 341 = 0x155: 0x2d55.
#[test]
fn motn_key_values_and_frames_are_written_back() {
    let seq = "data/seq[TEST_SEQ]";
    let multi = fixture("motn/multi.mot");
    let pks_bytes = fixture("motn/motion.pks");
    let mut gz = gzip_member("motion.pks", &pks_bytes, FIXTURE_MTIME);
    pad_to_sector(&mut gz);
    let motn = motn_in_pks(&pks_bytes);
    let nested = format!("motion.pks/ipac/MULTI.MOTN/{seq}");
    // (input name, bytes, node prefix, the MOTN blob's bytes as the output holds them)
    let unwrap_plain = |b: &[u8]| b.to_vec();
    let unwrap_gz = |b: &[u8]| gunzip(b);
    type Unwrap<'a> = &'a dyn Fn(&[u8]) -> Vec<u8>;
    let cases: [(&str, &[u8], &str, usize, Unwrap<'_>); 2] =
        [("multi.mot", &multi, seq, 0, &unwrap_plain), ("motion.bin", &gz, &nested, motn, &unwrap_gz)];
    for (name, input, node, motn, unwrap) in cases {
        let original = unwrap(input);
        let (b3, b5) = test_seq_blocks(&original, motn);
        let (d, path) = on_disk(name, input);
        // (node under the sequence, edit, offset in the blob, bytes before, bytes after)
        type Edit<'a> = (&'a str, &'a str, usize, &'a [u8], &'a [u8]);
        let edits: [Edit<'_>; 4] = [
            ("block5/Root.py", "key[2]=1.25", b5 + 18, &[0x00, 0x3c], &[0x00, 0x3d]),
            ("block5/UpperLeg_R.rx", "key[1]=30deg", b5 + 22, &[0x00, 0x38], &[0x55, 0x2d]),
            // the unit shown (turns), the suffix optional
            ("block5/UpperLeg_R.rx", "key[1]=-0.25", b5 + 22, &[0x00, 0x38], &[0x00, 0xb4]),
            ("block3", "frame[Root.py][1]=7", b3, &[4], &[7]),
        ];
        for (i, (sub, edit, at, before, after)) in edits.into_iter().enumerate() {
            let out = d.path().join(format!("out{i}"));
            let (code, stdout, err) = animscope(&["set", s(&path), &format!("{node}/{sub}"), edit, "-o", s(&out)]);
            assert_eq!(code, 0, "{name} {edit}: {err}");
            assert!(stdout.contains(&edit[..edit.find('=').unwrap_or(0)]), "{stdout}");
            assert_eq!(original[at..at + before.len()], *before, "{name} {edit}: the fixture's bytes");
            let mut want = original.clone();
            want[at..at + after.len()].copy_from_slice(after);
            assert_eq!(unwrap(&std::fs::read(&out).expect("the output")), want, "{name} {edit}");
            let (code, o, e) = animscope(&["check", s(&out)]);
            assert_eq!(code, 0, "{name} {edit}: {o}{e}");
        }
        assert_eq!(std::fs::read(&path).expect("the input"), input, "the input is unchanged");
        // decode shows the new values at their keys (rotations decode in radians)
        let keys = |i: usize, track: &str| decoded_keys(&d.path().join(format!("out{i}")), node, track);
        assert_eq!(keys(0, "Root.py"), [(0.0, 1.0), (4.0, 1.5), (9.0, 1.25)]);
        let rx = keys(1, "UpperLeg_R.rx");
        let tau = std::f64::consts::TAU;
        assert_eq!(rx[1].0, 3.0);
        assert!((rx[1].1 - 1365.0 / 16384.0 * tau).abs() < 1e-9, "{rx:?}");
        assert!((keys(2, "UpperLeg_R.rx")[1].1 + 0.25 * tau).abs() < 1e-9);
        assert_eq!(keys(3, "Root.py"), [(0.0, 1.0), (7.0, 1.5), (9.0, 1.0)]);
    }
}

/// A key value or frame that does not fit is refused in one line naming the field and its
/// offset, and nothing is written: NaN, beyond the half range, a frame past the last
/// intermediate frame (n − 2 = 8 for TEST_SEQ's 10 frames), a frame below the one before
/// it, a code-0 key (nothing stored).
#[test]
fn motn_key_values_that_do_not_fit_write_nothing() {
    let multi = fixture("motn/multi.mot");
    let (b3, b5) = test_seq_blocks(&multi, 0);
    let (d, path) = on_disk("multi.mot", &multi);
    let out = d.path().join("out.mot");
    let (p, o) = (s(&path), s(&out));
    let py = "data/seq[TEST_SEQ]/block5/Root.py";
    let b3n = "data/seq[TEST_SEQ]/block3";
    let cases: [(&str, &str, String); 6] = [
        (py, "key[2]=NaN", format!("key[2] @0x{:x}: NaN is not allowed", b5 + 18)),
        (py, "key[2]=65520", format!("key[2] @0x{:x}: 65520.0 is out of range for a half float", b5 + 18)),
        (py, "key[1].tangent=inf", format!("key[1].tangent @0x{:x}: an infinite value", b5 + 14)),
        (b3n, "frame[Root.py][1]=9", format!("frame[Root.py][1] @0x{b3:x}: 9 would make a finding")),
        (b3n, "frame[UpperLeg_R.rx][1]=5", format!("frame[UpperLeg_R.rx][1] @0x{:x}: 5 would make", b3 + 1)),
        ("data/seq[TEST_SEQ]/block5/Root.pz", "key[1]=1", format!("key[1] @0x{:x}: stores no bytes", b5 + 20)),
    ];
    for (node, edit, want) in cases {
        let (code, stdout, err) = animscope(&["set", p, node, edit, "-o", o]);
        assert_eq!(code, 2, "{edit}: {stdout}{err}");
        assert_eq!(err.lines().count(), 1, "{edit}: {err}");
        assert!(err.contains(&want), "{edit}: {err}");
        assert_eq!(names(d.path()), ["multi.mot"], "{edit} left a file");
    }
    assert!(animscope(&["set", p, b3n, "frame[Root.py][1]=9", "-o", o]).2.contains("frame 9 is outside 1..8"));
}
