//! On-disk records of the Shenmue containers (spec `shared/specs/motn.md` §6.3–6.5), one
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

/// PKS header (§6.3): `PAKS`, the IPAC's offset, two words of unknown use.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct PksHeader {
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

/// IPAC header (§6.4).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct IpacHeader {
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

/// IPAC dictionary entry (§6.4).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct IpacEntry {
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

/// PKF header (§6.5).
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

/// PKF chunk header (§6.5): a token and the chunk's size including this header; the
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
mod tests {
    use super::*;
    use crate::formats::record::assert_fixed_size;

    #[test]
    fn fixed_records_have_their_declared_sizes() {
        assert_fixed_size::<PksHeader>();
        assert_fixed_size::<IpacHeader>();
        assert_fixed_size::<IpacEntry>();
        assert_fixed_size::<PkfHeader>();
        assert_fixed_size::<ChunkHeader>();
    }
}
