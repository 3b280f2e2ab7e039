//! The committed fixtures under `fixtures/gzarc/`: archives of the CCSF fixtures made by
//! this folder's writer, a single `.gz`, and an archive with a member that does not inflate.

use super::raw::MemberHeader;
use super::write::{FIXTURE_MTIME, archive, gzip_member, pad_to_sector};
use crate::formats::record::FixedSize;

/// Committed fixtures under `fixtures/gzarc/`.
pub fn all() -> Vec<(String, Vec<u8>)> {
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
    // everything after the header (fixed part, FNAME and its NUL) becomes 0xff
    let body = MemberHeader::SIZE as usize + "x_corrupt.cmp".len() + 1;
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
