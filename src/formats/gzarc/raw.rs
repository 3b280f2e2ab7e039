//! On-disk records of a gzip member (RFC 1952 §2.3, as used by sector archives:
//! docs/formats/gzarc.md#archive-layout), one binrw declaration each, read by `parse`, shown by
//! `describe` and written by `write`: the fixed member header (ID1 ID2, CM, FLG, MTIME,
//! XFL, OS), the optional header parts FLG announces (FEXTRA, FNAME, FCOMMENT, FHCRC), and
//! the trailer (CRC32, ISIZE). The deflate data between them is flate2's.

use crate::formats::record::{Blob, CString, FixedSize, Magic, Record, Spanned, field};
use crate::model::{Field, Value};
use binrw::binrw;

/// FLG bits.
pub(super) const FTEXT: u8 = 0x01;
pub(super) const FHCRC: u8 = 0x02;
pub(super) const FEXTRA: u8 = 0x04;
pub(super) const FNAME: u8 = 0x08;
pub(super) const FCOMMENT: u8 = 0x10;

/// Longest FNAME searched for its NUL (names on the disc are short paths).
pub(super) const FNAME_MAX: u64 = 1024;
/// Longest FCOMMENT searched for its NUL.
pub(super) const FCOMMENT_MAX: u64 = 1 << 16;

/// FLG's set bits by name, reserved bits by value.
pub(super) fn flag_names(f: u8) -> Vec<String> {
    let mut v = Vec::new();
    for (bit, n) in [(FTEXT, "FTEXT"), (FHCRC, "FHCRC"), (FEXTRA, "FEXTRA"), (FNAME, "FNAME"), (FCOMMENT, "FCOMMENT")] {
        if f & bit != 0 {
            v.push(n.to_string());
        }
    }
    if f & 0xe0 != 0 {
        v.push(format!("reserved 0x{:02x}", f & 0xe0));
    }
    v
}

/// The fixed part of a member header.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct MemberHeader {
    /// ID1 ID2 = `1f 8b`.
    pub magic: Spanned<Magic<2, 0x8b1f>>,
    /// CM = 8 (deflate): the only method, and part of the member-start test.
    pub cm: Spanned<Magic<1, 8>>,
    /// FLG: which optional parts follow.
    pub flg: Spanned<u8>,
    /// MTIME: seconds since 1970 (0 = none).
    pub mtime: Spanned<u32>,
    /// XFL: 2 = best compression, 4 = fastest, else 0.
    pub xfl: Spanned<u8>,
    /// OS: the writer's file system (3 = Unix, 255 = unknown).
    pub os: Spanned<u8>,
}

impl FixedSize for MemberHeader {
    const SIZE: u64 = 10;
}

impl Record for MemberHeader {
    const NAME: &'static str = "gzip member header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        vec![
            field!(s.magic, Value::uint(0x8b1f, 2).label("gzip")),
            field!(s.cm, Value::uint(8, 1).label("deflate")),
            field!(s.flg, Value::uint(u64::from(*s.flg), 1).flags(flag_names(*s.flg))),
            field!(s.mtime, Value::dec(u64::from(*s.mtime)).label("unix seconds")),
            field!(s.xfl, Value::uint(u64::from(*s.xfl), 1)),
            field!(s.os, Value::uint(u64::from(*s.os), 1)),
        ]
    }
}

/// FEXTRA: XLEN and that many bytes of subfields.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct ExtraField {
    /// XLEN.
    pub xlen: Spanned<u16>,
    /// The subfields, not broken down.
    #[br(args(u64::from(xlen.value)))]
    pub extra: Spanned<Blob>,
}

/// The optional header parts in file order, as FLG (the argument) announces them.
#[binrw]
#[brw(little)]
#[br(import(flg: u8))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct MemberOptions {
    /// FEXTRA.
    #[br(if(flg & FEXTRA != 0))]
    pub fextra: Option<ExtraField>,
    /// FNAME: the member's file name, NUL-terminated, Latin-1.
    #[br(if(flg & FNAME != 0))]
    pub fname: Option<Spanned<CString<FNAME_MAX>>>,
    /// FCOMMENT, NUL-terminated.
    #[br(if(flg & FCOMMENT != 0))]
    pub fcomment: Option<Spanned<CString<FCOMMENT_MAX>>>,
    /// FHCRC: the low 16 bits of the CRC-32 of the header before it.
    #[br(if(flg & FHCRC != 0))]
    pub fhcrc: Option<Spanned<u16>>,
}

impl Record for MemberOptions {
    const NAME: &'static str = "gzip member header";
    /// FHCRC is not shown: nothing checks it, and its two bytes lie just before the
    /// deflate data the member's last field starts at.
    fn fields(&self) -> Vec<Field> {
        let mut v = Vec::new();
        if let Some(x) = &self.fextra {
            v.push(field!(x.xlen, Value::dec(u64::from(*x.xlen))));
            v.push(field!(x.extra, Value::bytes(x.extra.span.len())));
        }
        if let Some(n) = &self.fname {
            v.push(n.field("fname", Value::text(&n.0)).note("NUL-terminated, Latin-1"));
        }
        if let Some(c) = &self.fcomment {
            v.push(c.field("fcomment", Value::bytes(c.span.len())));
        }
        v
    }
}

/// The member trailer after the deflate data.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct MemberTrailer {
    /// CRC-32 of the inflated bytes.
    pub crc32: Spanned<u32>,
    /// Inflated length mod 2^32.
    pub isize: Spanned<u32>,
}

impl FixedSize for MemberTrailer {
    const SIZE: u64 = 8;
}

impl Record for MemberTrailer {
    const NAME: &'static str = "gzip member trailer";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        vec![
            field!(s.crc32, Value::uint(u64::from(*s.crc32), 4)),
            field!(s.isize, Value::dec(u64::from(*s.isize))).note("inflated length mod 2^32"),
        ]
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::bytes::Bytes;
    use crate::formats::record::{self, assert_fixed_size};
    use crate::model::Span;

    use crate::test_support::vectors::{self, both, both_at};

    #[test]
    fn fixed_records_have_their_declared_sizes() {
        assert_fixed_size::<MemberHeader>();
        assert_fixed_size::<MemberTrailer>();
    }

    /// RFC 1952 §2.3: ID1 ID2, CM, FLG, MTIME (little-endian), XFL, OS.
    #[test]
    fn member_header_vector() {
        let data = [
            0x1f, 0x8b, // ID1 ID2
            0x08, // CM 8 = deflate
            0x08, // FLG = FNAME
            0x78, 0x56, 0x34, 0x12, // MTIME 0x12345678
            0x02, // XFL 2 = best compression
            0x03, // OS 3 = Unix
        ];
        let h: MemberHeader = both(&data, ());
        assert_eq!((*h.flg, *h.mtime, *h.xfl, *h.os), (FNAME, 0x1234_5678, 2, 3));
        assert_eq!(
            (h.magic.span, h.cm.span, h.mtime.span, h.os.span),
            (Span::new(0, 2), Span::new(2, 3), Span::new(4, 8), Span::new(9, 10))
        );
        let names: Vec<_> = h.fields().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["magic", "cm", "flg", "mtime", "xfl", "os"]);
        // CM 7 is not a member start: refused at CM
        let mut bad = data;
        bad[2] = 7;
        assert_eq!(record::read_at::<MemberHeader>(&Bytes::new(&bad), 0).unwrap_err().offset, 2);
    }

    /// FEXTRA alone (RFC 1952 §2.3.1.1): XLEN, then XLEN bytes of subfields.
    #[test]
    fn extra_field_vector() {
        let data = [
            0x00, 0x00, // (two bytes before: the vector is read at 2)
            0x06, 0x00, // XLEN 6
            b'R', b'A', 0x02, 0x00, 0xaa, 0xbb, // subfield SI1 'R' SI2 'A', LEN 2, data aa bb
        ];
        let x: ExtraField = both_at(&data, 2, ());
        assert_eq!((*x.xlen, x.xlen.span, x.extra.span), (6, Span::new(2, 4), Span::new(4, 10)));
        assert_eq!(x.extra.0, [b'R', b'A', 2, 0, 0xaa, 0xbb]);
    }

    /// Every vector of this module, for the registry.
    const VECTORS: &[fn()] = &[member_header_vector, extra_field_vector, trailer_vector, optional_parts_vector];

    #[test]
    fn every_gzarc_record_has_a_vector() {
        vectors::assert_every_record_has_a_vector("gzarc", include_str!("raw.rs"), VECTORS, Default::default());
    }

    /// RFC 1952 §2.3.1: CRC32 then ISIZE, little-endian; here the trailer of a member
    /// holding `hi` (CRC-32 0xd8932aac, 2 bytes), typed by hand after 4 bytes of deflate.
    #[test]
    fn trailer_vector() {
        let data = [
            0xcb, 0xc8, 0x04, 0x00, // deflate of "hi" (not ours)
            0xac, 0x2a, 0x93, 0xd8, // +4 CRC32 = 0xd8932aac
            0x02, 0x00, 0x00, 0x00, // +8 ISIZE = 2
        ];
        let t: MemberTrailer = both_at(&data, 4, ());
        assert_eq!((*t.crc32, t.crc32.span), (0xd893_2aac, Span::new(4, 8)));
        assert_eq!((*t.isize, t.isize.span), (2, Span::new(8, 12)));
        let mut out = Vec::new();
        record::write(&t, &mut out).unwrap();
        assert_eq!(out, &data[4..]);
    }

    /// The optional parts in RFC order with FLG = FEXTRA | FNAME | FCOMMENT | FHCRC, typed
    /// by hand at the offset they follow the fixed header at.
    #[test]
    fn optional_parts_vector() {
        let data = [
            0x04, 0x00, // +10 XLEN 4
            b'A', b'P', 0x00, 0x00, // +12 subfield SI1 'A', SI2 'P', LEN 0
            b'n', b'.', b'c', b'm', b'p', 0x00, // +16 FNAME "n.cmp"
            b'h', b'i', 0x00, // +22 FCOMMENT "hi"
            0x5d, 0xfc, // +25 FHCRC 0xfc5d
        ];
        let b = Bytes::new(&data);
        let o: Spanned<MemberOptions> = both(&data, (FEXTRA | FNAME | FCOMMENT | FHCRC,));
        assert_eq!(o.span, Span::new(0, 17));
        let x = o.fextra.as_ref().unwrap();
        assert_eq!((*x.xlen, x.extra.span), (4, Span::new(2, 6)));
        assert_eq!(o.fname.as_ref().map(|n| (n.0.as_slice(), n.span)), Some((&b"n.cmp"[..], Span::new(6, 12))));
        assert_eq!(o.fcomment.as_ref().map(|c| c.span), Some(Span::new(12, 15)));
        assert_eq!(o.fhcrc.map(|c| (c.value, c.span)), Some((0xfc5d, Span::new(15, 17))));
        let mut out = Vec::new();
        record::write(&*o, &mut out).unwrap();
        assert_eq!(out, data);
        // FNAME alone: nothing else is read
        let o: Spanned<MemberOptions> = record::read(&b, 6, (FNAME,)).unwrap();
        assert_eq!((o.span, o.fextra.is_none(), o.fhcrc.is_none()), (Span::new(6, 12), true, true));
    }
}
