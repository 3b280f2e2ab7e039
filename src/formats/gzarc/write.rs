//! Writer for sector-aligned gzip archives (docs/formats/gzarc.md#writing): each member is the `raw.rs` header
//! with FLG = 0x08 (FNAME only), flate2's raw deflate data and the trailer, followed by zero
//! bytes up to the next multiple of 2048. Used for fixtures, round-trip tests and write-back
//! ([`super::super::Parsed::rebuild`]: a changed member re-deflated behind its own header,
//! padded to its sectors). (The bytes equal what `flate2::GzBuilder` writes for the same
//! name, MTIME and level: XFL 0 at level 6, OS 255.)

use super::SECTOR;
/// Committed fixtures under `fixtures/gzarc/`, made in `fixtures.rs` with this writer.
pub use super::fixtures::all as fixtures;
use super::raw::{FNAME, MemberHeader, MemberOptions, MemberTrailer};
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::rebuild::{Rebuild, RebuildOptions, Spliced};
use crate::formats::record::{self, CString};
use crate::limits::Limits;
use crate::model::{NodeId, Span};
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
    // Writing into a Vec cannot fail.
    let mut head = Vec::new();
    let _ = record::write(&header, &mut head);
    let _ = record::write(&options, &mut head);
    behind_header(head, bytes, 6)
}

/// A gzip member: `head` (a whole member header, written or kept from a member), then
/// `bytes` deflated at `level` (0..=9) and the trailer (CRC-32, length mod 2^32).
pub fn behind_header(head: Vec<u8>, bytes: &[u8], level: u32) -> Vec<u8> {
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    // ISIZE is the length mod 2^32 (RFC 1952 §2.3.1): the truncation is the format's.
    let trailer = MemberTrailer { crc32: crc.sum().into(), isize: (bytes.len() as u64 as u32).into() };
    // Writing into a Vec cannot fail.
    let mut enc = flate2::write::DeflateEncoder::new(head, flate2::Compression::new(level.min(9)));
    let _ = enc.write_all(bytes);
    let mut out = enc.finish().unwrap_or_default();
    let _ = record::write(&trailer, &mut out);
    out
}

/// The deflate level a member's XFL asks for (RFC 1952: 2 = best compression, 4 = fastest;
/// anything else is written at flate2's default level, as the fixtures are).
fn level_of(xfl: u8) -> u32 {
    match xfl {
        2 => 9,
        4 => 1,
        _ => 6,
    }
}

impl Rebuild for super::GzArcParsed {
    /// The member's header is kept byte for byte (name, MTIME, XFL, OS, extra field,
    /// comment, header CRC: the header does not change, so neither does its CRC); the new
    /// bytes are deflated at the level XFL names and padded with zeros to the member's
    /// extent. A member that no longer fits its extent is refused unless `opts.grow`: then
    /// it takes whole sectors and every member after it moves by the growth.
    fn replace_member(&self, node: NodeId, bytes: &[u8], opts: &RebuildOptions, limits: &Limits) -> Result<Spliced> {
        use crate::formats::Parsed;
        let doc = self.document();
        let not_member = || ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", doc.path(node))));
        let n = doc.node(node).ok_or_else(not_member)?;
        let index = n.member.ok_or_else(not_member)?;
        let source = self.source();
        let data = source.bytes();
        let m = super::MemberInfo::at(data, index, n.span).ok_or_else(not_member)?;
        if let Some(e) = &m.header_error {
            return Err(e.clone());
        }
        let head = usize::try_from(m.offset)
            .ok()
            .zip(usize::try_from(m.data_start).ok())
            .and_then(|(a, b)| data.get(a..b))
            .ok_or_else(not_member)?;
        // the deflated bytes are at most the stored bytes plus 5 bytes per 64 KiB block
        let bound = (head.len() + bytes.len() + bytes.len() / 16_000 + 64) as u64;
        limits.spend_clip("the re-deflated member", bound.max(m.end - m.offset), m.offset)?;
        let mut member = behind_header(head.to_vec(), bytes, level_of(m.xfl));
        let extent = m.end - m.offset;
        let name = m.name().map_or_else(|| format!("member[{index}]"), |(n, _)| crate::model::escape_text(n));
        let mut notes = Vec::new();
        // A last member not padded to a sector (a plain .gz file) keeps no sectors: it is
        // written as long as it is.
        let unpadded = m.end == source.len() && !extent.is_multiple_of(SECTOR);
        if unpadded {
            let mut s = Spliced::replace(source.len(), Span::new(m.offset, m.end), member, Vec::new())?;
            s.notes = notes;
            return Ok(s);
        }
        if member.len() as u64 > extent {
            let sectors = extent / SECTOR;
            if !opts.grow {
                return Err(ParseError::new(
                    m.offset,
                    ErrorKind::Other(format!(
                        "member {name}: re-deflated it is {} bytes, more than its {extent} bytes \
                         ({sectors} sector(s) of {SECTOR}); --grow moves the members after it",
                        member.len()
                    )),
                ));
            }
            pad_to_sector(&mut member);
            let moved = member.len() as u64 - extent;
            let after = doc.live_nodes().filter(|x| x.member.is_some() && x.span.start >= m.end).count();
            notes.push(format!(
                "member {name} grew from {extent} to {} bytes: the {after} members after it moved by {moved} \
                 bytes; a table of member offsets kept elsewhere by the game (if any) is not updated",
                member.len()
            ));
        } else {
            member.resize(usize::try_from(extent).unwrap_or(member.len()), 0);
        }
        let mut s = Spliced::replace(source.len(), Span::new(m.offset, m.end), member, Vec::new())?;
        s.notes = notes;
        Ok(s)
    }
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
