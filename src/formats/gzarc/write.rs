//! Writer for sector-aligned gzip archives (spec §2.3): each member is a real gzip stream
//! (flate2) with FLG = 0x08 (FNAME only), followed by zero bytes up to the next multiple of
//! 2048. Used for fixtures and round-trip tests.

use super::SECTOR;
use std::io::Write;

/// MTIME written into every member (2001-09-09, a fixed value keeps fixtures reproducible).
pub const FIXTURE_MTIME: u32 = 1_000_000_000;

/// One gzip member (FNAME = `name`, MTIME = `mtime`) holding `bytes`, without padding.
pub fn gzip_member(name: &str, bytes: &[u8], mtime: u32) -> Vec<u8> {
    let mut enc =
        flate2::GzBuilder::new().filename(name.as_bytes()).mtime(mtime).write(Vec::new(), flate2::Compression::new(6));
    // Writing into a Vec cannot fail.
    let _ = enc.write_all(bytes);
    enc.finish().unwrap_or_default()
}

/// Pad `v` with zero bytes up to the next 2048-byte boundary.
pub fn pad_to_sector(v: &mut Vec<u8>) {
    let len = v.len() as u64;
    let target = len.div_ceil(SECTOR) * SECTOR;
    v.resize(usize::try_from(target).unwrap_or(v.len()), 0);
}

/// An archive of `(name, bytes)` members, each gzip-compressed and sector-padded.
pub fn archive(members: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, bytes) in members {
        out.extend(gzip_member(name, bytes, FIXTURE_MTIME));
        pad_to_sector(&mut out);
    }
    out
}

/// Committed fixtures under `fixtures/gzarc/`.
pub fn fixtures() -> Vec<(String, Vec<u8>)> {
    let ccs = crate::formats::ccsf::write::fixture_files();
    let mut data_bin: Vec<(String, Vec<u8>)> = Vec::new();
    let mut stream_bin: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, bytes) in &ccs {
        // Two members each keep the never-panic sweeps (every byte of every fixture) fast.
        if name.starts_with("str0200") {
            stream_bin.push((name.clone(), bytes.clone()));
        } else if name == "mini.cmp" || name == "chara.cmp" {
            data_bin.push((name.clone(), bytes.clone()));
        }
    }
    let mut bad = archive(&data_bin.iter().take(1).cloned().collect::<Vec<_>>());
    // A second member whose deflate data is garbage: the header parses, inflating fails.
    let start = bad.len();
    let mut m = gzip_member("x_corrupt.cmp", b"this member will not inflate", FIXTURE_MTIME);
    let body = "x_corrupt.cmp".len() + 11;
    for b in m.iter_mut().skip(body) {
        *b = 0xff;
    }
    bad.extend(m);
    pad_to_sector(&mut bad);
    debug_assert!(start.is_multiple_of(2048));
    let single = gzip_member(
        "mini.cmp",
        &ccs.iter().find(|(n, _)| n == "mini.cmp").map(|(_, b)| b.clone()).unwrap_or_default(),
        FIXTURE_MTIME,
    );
    vec![
        ("gzarc/DATA.BIN".to_string(), archive(&data_bin)),
        ("gzarc/STR.BIN".to_string(), archive(&stream_bin)),
        ("gzarc/mini.cmp.gz".to_string(), single),
        ("gzarc/x_corrupt_member.BIN".to_string(), bad),
    ]
}
