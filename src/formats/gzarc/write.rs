//! Writer for sector-aligned gzip archives (docs/formats/gzarc.md#writing): each member is the `raw.rs` header
//! with FLG = 0x08 (FNAME only), flate2's raw deflate data and the trailer, followed by zero
//! bytes up to the next multiple of 2048. Used for fixtures and round-trip tests. (The
//! bytes equal what `flate2::GzBuilder` writes for the same name, MTIME and level: XFL 0 at
//! level 6, OS 255.)

use super::SECTOR;
/// Committed fixtures under `fixtures/gzarc/`, made in `fixtures.rs` with this writer.
pub use super::fixtures::all as fixtures;
use super::raw::{FNAME, MemberHeader, MemberOptions, MemberTrailer};
use crate::formats::record::{self, CString};
use std::io::Write;

/// MTIME written into every member (2001-09-09, a fixed value keeps fixtures reproducible).
pub const FIXTURE_MTIME: u32 = 1_000_000_000;

/// One gzip member (FNAME = `name`, MTIME = `mtime`) holding `bytes`, without padding.
pub fn gzip_member(name: &str, bytes: &[u8], mtime: u32) -> Vec<u8> {
    let header = MemberHeader {
        magic: Default::default(),
        cm: Default::default(),
        flg: FNAME.into(),
        mtime: mtime.into(),
        xfl: 0.into(),
        os: 255.into(),
    };
    let options = MemberOptions { fname: Some(CString(name.as_bytes().to_vec()).into()), ..MemberOptions::default() };
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    let trailer = MemberTrailer { crc32: crc.sum().into(), isize: (bytes.len() as u32).into() };
    // Writing into a Vec cannot fail.
    let mut out = Vec::new();
    let _ = record::write(&header, &mut out);
    let _ = record::write(&options, &mut out);
    let mut enc = flate2::write::DeflateEncoder::new(out, flate2::Compression::new(6));
    let _ = enc.write_all(bytes);
    let mut out = enc.finish().unwrap_or_default();
    let _ = record::write(&trailer, &mut out);
    out
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
