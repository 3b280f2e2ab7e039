//! On-disk records of the Shenmue containers (docs/formats/pak.md), one
//! binrw declaration each, read by `parse`, shown by `describe` and written by `write`:
//! the PKS header, the IPAC header and dictionary entry, the PKF header and chunk header.
//! Field names follow the spec; the words it does not explain are `unknown_<offset>`.

use crate::formats::record::{ByteArray, Count, FixedSize, Magic, Record, Spanned, field, tag};
use crate::model::{Field, Value};
use binrw::binrw;

/// A little-endian u32 shown in hex.
fn word(w: &Spanned<u32>) -> Value {
    Value::uint(u64::from(**w), 4)
}

/// The bytes before the first NUL (names and extensions are NUL-padded).
pub(super) fn trim_nul(b: &[u8]) -> &[u8] {
    b.split(|&c| c == 0).next().unwrap_or(b)
}

/// What an IPAC extension or PKF chunk token holds.
pub(super) fn ext_label(ext: &[u8]) -> &'static str {
    match ext {
        b"MOTN" => "MOTN motion (opens as motn)",
        b"CHRT" => "CHRT (character table; not decoded)",
        b"MT5" | b"MT5C" => "MT5 model (not decoded)",
        b"TEXN" => "TEXN texture (not decoded)",
        _ => "unknown type",
    }
}

/// PKS header (docs/formats/pak.md#pks): `PAKS`, the IPAC's offset, two words of unknown use.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct PksHeader {
    /// `PAKS`.
    pub magic: Spanned<Magic<4, { tag(b"PAKS") }>>,
    /// Offset of the IPAC (16 in every known file).
    pub ipac_ofs: Spanned<u32>,
    /// Unknown.
    pub unknown_08: Spanned<u32>,
    /// Unknown; one writer stores the entry count − 1.
    pub unknown_0c: Spanned<u32>,
}

impl FixedSize for PksHeader {
    const SIZE: u64 = 16;
}

impl Record for PksHeader {
    const NAME: &'static str = "PKS header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        vec![
            field!(s.magic, Value::text(b"PAKS")),
            field!(s.ipac_ofs, word(&s.ipac_ofs)),
            field!(s.unknown_08, word(&s.unknown_08).unknown()).note("unknown"),
            field!(s.unknown_0c, word(&s.unknown_0c).unknown()).note("unknown (one writer stores the entry count − 1)"),
        ]
    }
}

/// IPAC header (docs/formats/pak.md#ipac).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct IpacHeader {
    /// `IPAC`.
    pub magic: Spanned<Magic<4, { tag(b"IPAC") }>>,
    /// Offset of the dictionary from the IPAC start.
    pub dictionary_ofs: Spanned<u32>,
    /// Dictionary entries.
    pub file_count: Spanned<u32>,
    /// Meaning not certain; the reference writer puts the dictionary offset there [I].
    pub content_size: Spanned<u32>,
}

impl FixedSize for IpacHeader {
    const SIZE: u64 = 16;
}

impl Record for IpacHeader {
    const NAME: &'static str = "IPAC header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        vec![
            field!(s.magic, Value::text(b"IPAC")),
            field!(s.dictionary_ofs, word(&s.dictionary_ofs)).note("from the IPAC start"),
            field!(s.file_count, word(&s.file_count)),
            field!(s.content_size, word(&s.content_size))
                .note("meaning not certain; the reference writer puts the dictionary there [I]"),
        ]
    }
}

/// IPAC dictionary entry (docs/formats/pak.md#ipac).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct IpacEntry {
    /// Name, NUL-padded.
    pub name: Spanned<ByteArray<8>>,
    /// Extension / type (`MOTN`, `CHRT`), NUL-padded.
    pub extension: Spanned<ByteArray<4>>,
    /// Offset of the entry's bytes from the IPAC start.
    pub offset: Spanned<u32>,
    /// Bytes of the entry.
    pub size: Spanned<u32>,
}

impl FixedSize for IpacEntry {
    const SIZE: u64 = 20;
}

impl Record for IpacEntry {
    const NAME: &'static str = "IPAC entry";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        let ext = trim_nul(s.extension.as_slice());
        vec![
            field!(s.name, Value::text(trim_nul(s.name.as_slice()))).note("NUL-padded"),
            field!(s.extension, Value::text(ext).label(ext_label(ext))),
            field!(s.offset, word(&s.offset)).note("from the IPAC start"),
            field!(s.size, word(&s.size)),
        ]
    }
}

/// The IPAC dictionary: `n` entries (a checked count).
#[binrw]
#[brw(little)]
#[br(import(n: Count))]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct IpacDictionary {
    /// The entries.
    #[br(count = n.get())]
    pub entry: Vec<Spanned<IpacEntry>>,
}

impl Record for IpacDictionary {
    const NAME: &'static str = "IPAC dictionary";
    fn fields(&self) -> Vec<Field> {
        self.entry.iter().flat_map(|e| e.fields()).collect()
    }
}

/// PKF header (docs/formats/pak.md#pkf).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct PkfHeader {
    /// `PAKF`.
    pub magic: Spanned<Magic<4, { tag(b"PAKF") }>>,
    /// End of the chunks; a trailing IPAC may start here.
    pub content_size: Spanned<u32>,
    /// Unknown.
    pub unknown_08: Spanned<u32>,
    /// Chunks after the optional `DUMY`.
    pub file_count: Spanned<u32>,
}

impl FixedSize for PkfHeader {
    const SIZE: u64 = 16;
}

impl Record for PkfHeader {
    const NAME: &'static str = "PKF header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        vec![
            field!(s.magic, Value::text(b"PAKF")),
            field!(s.content_size, word(&s.content_size)).note("end of the chunks; a trailing IPAC may start here"),
            field!(s.unknown_08, word(&s.unknown_08).unknown()).note("unknown"),
            field!(s.file_count, word(&s.file_count)).note("chunks after the optional DUMY"),
        ]
    }
}

/// PKF chunk header (docs/formats/pak.md#pkf): a token and the chunk's size including this header; the
/// payload follows.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct ChunkHeader {
    /// `DUMY`, `TEXN`, ….
    pub token: Spanned<ByteArray<4>>,
    /// Bytes of the chunk, header included.
    pub size: Spanned<u32>,
}

impl FixedSize for ChunkHeader {
    const SIZE: u64 = 8;
}

impl Record for ChunkHeader {
    const NAME: &'static str = "PKF chunk header";
    fn fields(&self) -> Vec<Field> {
        let s = self;
        vec![
            field!(s.token, Value::text(s.token.as_slice()).label(ext_label(s.token.as_slice()))),
            field!(s.size, word(&s.size)).note("includes the 8-byte header"),
        ]
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    //! Record vectors typed from docs/formats/pak.md#pks (PKS), docs/formats/pak.md#ipac (IPAC header and
    //! 20-byte entry) and docs/formats/pak.md#pkf (PKF header, chunk header), a comment per field, read and
    //! written both ways; `every_pak_record_has_a_vector` is the registry.
    use super::*;
    use crate::bytes::Bytes;
    use crate::formats::record::assert_fixed_size;
    use crate::model::Span;
    use crate::test_support::vectors::{self, both, both_at};

    /// Names and spans of a record's fields.
    fn layout(r: &impl Record) -> Vec<(String, u64, u64)> {
        r.fields().iter().map(|f| (f.name.clone(), f.span.start, f.span.len())).collect()
    }

    fn names(r: &impl Record) -> Vec<String> {
        r.fields().into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn pks_header() {
        let h: PksHeader = both(
            &[
                b'P', b'A', b'K', b'S', // +0x00 "PAKS"
                0x10, 0x00, 0x00, 0x00, // +0x04 IPAC offset 16
                0x00, 0x00, 0x00, 0x00, // +0x08 unknown 0
                0x02, 0x00, 0x00, 0x00, // +0x0c unknown 2 (entry count − 1 for S4's writer)
            ],
            (),
        );
        assert_eq!((*h.ipac_ofs, *h.unknown_08, *h.unknown_0c), (16, 0, 2));
        assert_eq!(h.ipac_ofs.span, Span::new(4, 8));
        let want = [("magic", 0, 4), ("ipac_ofs", 4, 4), ("unknown_08", 8, 4), ("unknown_0c", 12, 4)];
        assert_eq!(layout(&h), want.map(|(n, s, l)| (n.to_string(), s, l)));
        // another magic is refused at the magic
        let e = crate::formats::record::read_at::<PksHeader>(&Bytes::new(b"PAKF\x10\0\0\0\0\0\0\0\0\0\0\0"), 0);
        assert_eq!(e.unwrap_err().offset, 0);
    }

    #[test]
    fn ipac_header_entry_and_dictionary() {
        // an IPAC at file offset 0x10 (after a PKS header); its fields are absolute there
        let mut b = vec![0u8; 0x10];
        b.extend([
            b'I', b'P', b'A', b'C', // +0x00 "IPAC"
            0x40, 0x00, 0x00, 0x00, // +0x04 dictionary offset 0x40 (from the IPAC start)
            0x02, 0x00, 0x00, 0x00, // +0x08 file count 2
            0x40, 0x00, 0x00, 0x00, // +0x0c content size 0x40
        ]);
        let h: IpacHeader = both_at(&b, 0x10, ());
        assert_eq!((*h.dictionary_ofs, *h.file_count, *h.content_size), (0x40, 2, 0x40));
        assert_eq!((h.magic.span, h.content_size.span), (Span::new(0x10, 0x14), Span::new(0x1c, 0x20)));
        assert_eq!(names(&h), ["magic", "dictionary_ofs", "file_count", "content_size"]);

        let dict = [
            b'A', b'K', b'I', b'_', b'W', b'A', b'L', b'K', // +0 name "AKI_WALK" (all 8 bytes)
            b'M', b'O', b'T', b'N', // +8 extension "MOTN"
            0x10, 0x00, 0x00, 0x00, // +12 offset 0x10 from the IPAC start
            0x8e, 0x00, 0x00, 0x00, // +16 size 142
            b'C', b'H', b'A', b'R', b'A', 0x00, 0x00, 0x00, // name "CHARA", NUL-padded
            b'C', b'H', b'R', b'T', // extension "CHRT"
            0xa0, 0x00, 0x00, 0x00, // offset 0xa0
            0x00, 0x01, 0x00, 0x00, // size 256
        ];
        let e: IpacEntry = both_at(&dict, 20, ());
        assert_eq!((&e.name.0, &e.extension.0, *e.offset, *e.size), (b"CHARA\0\0\0", b"CHRT", 0xa0, 256));
        assert_eq!((e.offset.span, e.size.span), (Span::new(32, 36), Span::new(36, 40)));
        let want = [("name", 20, 8), ("extension", 28, 4), ("offset", 32, 4), ("size", 36, 4)];
        assert_eq!(layout(&e), want.map(|(n, s, l)| (n.to_string(), s, l)));
        let n = Count::checked(&Bytes::new(&dict), "IPAC entry", 0, 2, 20, 2).unwrap();
        let d: IpacDictionary = both(&dict, (n,));
        assert_eq!(
            d.entry.iter().map(|e| (e.name.0, *e.offset, *e.size)).collect::<Vec<_>>(),
            [(*b"AKI_WALK", 0x10, 142), (*b"CHARA\0\0\0", 0xa0, 256)]
        );
        assert_eq!((d.entry[0].span, d.entry[1].span), (Span::new(0, 20), Span::new(20, 40)));
    }

    #[test]
    fn pkf_header_and_chunk_header() {
        let h: PkfHeader = both(
            &[
                b'P', b'A', b'K', b'F', // +0x00 "PAKF"
                0x00, 0x02, 0x00, 0x00, // +0x04 content size 0x200
                0x07, 0x00, 0x00, 0x00, // +0x08 unknown 7
                0x03, 0x00, 0x00, 0x00, // +0x0c file count 3
            ],
            (),
        );
        assert_eq!((*h.content_size, *h.unknown_08, *h.file_count), (0x200, 7, 3));
        let want = [("magic", 0, 4), ("content_size", 4, 4), ("unknown_08", 8, 4), ("file_count", 12, 4)];
        assert_eq!(layout(&h), want.map(|(n, s, l)| (n.to_string(), s, l)));
        let c: ChunkHeader = both(
            &[
                b'T', b'E', b'X', b'N', // token "TEXN"
                0x28, 0x01, 0x00, 0x00, // size 0x128, the 8-byte header included
            ],
            (),
        );
        assert_eq!((&c.token.0, *c.size, c.size.span), (b"TEXN", 0x128, Span::new(4, 8)));
        assert_eq!(names(&c), ["token", "size"]);
    }

    /// Every vector of this module, for the registry.
    const VECTORS: &[fn()] = &[pks_header, ipac_header_entry_and_dictionary, pkf_header_and_chunk_header];

    #[test]
    fn every_pak_record_has_a_vector() {
        vectors::assert_every_record_has_a_vector("pak", include_str!("raw.rs"), VECTORS, Default::default());
    }

    #[test]
    fn fixed_records_have_their_declared_sizes() {
        assert_fixed_size::<PksHeader>();
        assert_fixed_size::<IpacHeader>();
        assert_fixed_size::<IpacEntry>();
        assert_fixed_size::<PkfHeader>();
        assert_fixed_size::<ChunkHeader>();
    }
}
