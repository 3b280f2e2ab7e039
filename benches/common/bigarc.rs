//! The large synthetic sector-gzip archive shared by the `open` and `browse_memory`
//! benches: `target/bench-data/big4g.bin`, 4 GiB, 4,096 members one MiB apart. Each member
//! is a committed fixture (CCSF scene, SC6 bank or MOTN file, made by the writers)
//! gzip-compressed by `gzarc::write::gzip_member`; the gap after each member up to the
//! next MiB is a sparse hole (zeros), so writing the file takes a second or two and almost
//! no disk. The file is reused when present with the right size.

use animscope::formats::gzarc::write::{FIXTURE_MTIME, gzip_member};
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;

/// Archive size.
pub const BIG_LEN: u64 = 4 << 30;
/// Distance between member starts.
pub const STRIDE: u64 = 1 << 20;

/// Members' payloads: every non-failure fixture of the animation formats.
pub fn payloads() -> Vec<(String, Vec<u8>)> {
    animscope::fixtures::all()
        .into_iter()
        .filter(|(p, _)| {
            (p.starts_with("ccsf/") || p.starts_with("sc6/") || p.starts_with("motn/"))
                && !p.rsplit('/').next().unwrap_or("").starts_with("x_")
        })
        .map(|(p, b)| (p.rsplit('/').next().unwrap_or("").to_string(), b))
        .collect()
}

/// Path of the archive, generated if missing.
pub fn big_archive() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    let path = dir.join("big4g.bin");
    if std::fs::metadata(&path).map(|m| m.len() == BIG_LEN).unwrap_or(false) {
        return path;
    }
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    let tmp = dir.join("big4g.bin.tmp");
    let mut f = std::fs::File::create(&tmp).expect("create archive");
    let payloads = payloads();
    let mut i = 0usize;
    let mut off = 0u64;
    while off < BIG_LEN {
        let (name, bytes) = &payloads[i % payloads.len()];
        let m = gzip_member(&format!("{i:05}_{name}"), bytes, FIXTURE_MTIME);
        f.seek(SeekFrom::Start(off)).expect("seek");
        f.write_all(&m).expect("write member");
        i += 1;
        off += STRIDE;
    }
    f.set_len(BIG_LEN).expect("extend to 4 GiB (sparse)");
    drop(f);
    std::fs::rename(&tmp, &path).expect("rename archive");
    path
}
