//! Writers for IPAC, PKS and PKF containers (synthetic fixtures). Layout choices follow
//! the public reference writer where the format leaves room: IPAC entry data 16-aligned
//! after the header, the dictionary after the data with `content size` = dictionary
//! offset [I]; PKS's IPAC at 0x10 with both unknown words 0; PKF with a 16-byte `DUMY`
//! chunk and the trailing IPAC at `content size`. Every header and entry is written from
//! its `raw.rs` declaration.

use super::raw::{ChunkHeader, IpacEntry, IpacHeader, PkfHeader, PksHeader};
use crate::formats::record::{self, ByteArray, FixedSize, Spanned};

/// One IPAC entry to write.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Name, at most 8 ASCII bytes (NUL-padded on disk).
    pub name: String,
    /// Extension/type, at most 4 ASCII bytes (`MOTN`, `CHRT`).
    pub ext: String,
    /// The entry's bytes.
    pub data: Vec<u8>,
}

impl Entry {
    /// An entry from parts.
    pub fn new(name: &str, ext: &str, data: Vec<u8>) -> Self {
        Entry { name: name.to_string(), ext: ext.to_string(), data }
    }
}

fn u32_of(v: usize) -> Spanned<u32> {
    u32::try_from(v).unwrap_or(u32::MAX).into()
}

fn fixed<const N: usize>(s: &str) -> Spanned<ByteArray<N>> {
    let mut v = [0u8; N];
    for (d, c) in v.iter_mut().zip(s.bytes()) {
        *d = c;
    }
    v.into()
}

// Writing into a Vec cannot fail: the records' write results are ignored below.

/// An IPAC block: header, 16-aligned entry data, then the dictionary.
pub fn ipac(entries: &[Entry]) -> Vec<u8> {
    let mut out = vec![0u8; IpacHeader::SIZE as usize];
    let mut offsets = Vec::with_capacity(entries.len());
    for e in entries {
        out.resize(out.len().next_multiple_of(16), 0);
        offsets.push(out.len());
        out.extend_from_slice(&e.data);
    }
    out.resize(out.len().next_multiple_of(16), 0);
    let dict = out.len();
    for (e, ofs) in entries.iter().zip(&offsets) {
        let entry = IpacEntry {
            name: fixed(&e.name),
            extension: fixed(&e.ext),
            offset: u32_of(*ofs),
            size: u32_of(e.data.len()),
        };
        let _ = record::write(&entry, &mut out);
    }
    let header = IpacHeader {
        magic: Default::default(),
        dictionary_ofs: u32_of(dict),
        file_count: u32_of(entries.len()),
        content_size: u32_of(dict),
    };
    let _ = record::write_over(&header, &mut out, 0);
    out
}

/// A PKS: `PAKS`, IPAC offset 0x10, two unknown words (0), then the IPAC.
pub fn pks(entries: &[Entry]) -> Vec<u8> {
    let header = PksHeader {
        magic: Default::default(),
        ipac_ofs: u32_of(PksHeader::SIZE as usize),
        unknown_08: 0.into(),
        unknown_0c: 0.into(),
    };
    let mut out = Vec::new();
    let _ = record::write(&header, &mut out);
    out.extend(ipac(entries));
    out
}

/// A PKF: `PAKF` header, a `DUMY` chunk, `chunks` (token, payload), then a trailing IPAC
/// of `entries` at the content size (none when `entries` is empty).
pub fn pkf(chunks: &[(&str, Vec<u8>)], entries: &[Entry]) -> Vec<u8> {
    let mut out = vec![0u8; PkfHeader::SIZE as usize];
    // DUMY: its header and 8 zero bytes
    let dummy = ChunkHeader { token: fixed("DUMY"), size: u32_of(ChunkHeader::SIZE as usize + 8) };
    let _ = record::write(&dummy, &mut out);
    out.extend([0u8; 8]);
    for (token, payload) in chunks {
        let header = ChunkHeader { token: fixed(token), size: u32_of(payload.len() + ChunkHeader::SIZE as usize) };
        let _ = record::write(&header, &mut out);
        out.extend_from_slice(payload);
    }
    let content = out.len();
    if !entries.is_empty() {
        out.extend(ipac(entries));
    }
    let header = PkfHeader {
        magic: Default::default(),
        content_size: u32_of(content),
        unknown_08: 0.into(),
        file_count: u32_of(chunks.len()),
    };
    let _ = record::write_over(&header, &mut out, 0);
    out
}

pub use super::fixtures::filler;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::formats::pak;
    use crate::limits::Limits;

    #[test]
    fn ipac_layout_and_members_round_trip() {
        let a = filler(5, 1);
        let b = filler(20, 2);
        let ip = ipac(&[Entry::new("A", "MOTN", a.clone()), Entry::new("LONGNAME", "CHRT", b.clone())]);
        // header: magic, dictionary at 0x40 (16 + 16 aligned + 32 aligned), 2 entries
        assert_eq!(&ip[0..4], b"IPAC");
        assert_eq!(u32::from_le_bytes(ip[4..8].try_into().unwrap()), 0x40);
        assert_eq!(u32::from_le_bytes(ip[8..12].try_into().unwrap()), 2);
        // entry 1: name, extension, offset 0x20, size 20
        assert_eq!(&ip[0x54..0x5c], b"LONGNAME");
        assert_eq!(&ip[0x5c..0x60], b"CHRT");
        assert_eq!(u32::from_le_bytes(ip[0x60..0x64].try_into().unwrap()), 0x20);
        let lim = Limits::default();
        let m = pak::IpacFormat.member(&ip, 1, &lim).unwrap();
        assert_eq!((m.name.as_str(), m.bytes), ("LONGNAME.CHRT", b));
        let p = pks(&[Entry::new("A", "MOTN", a.clone())]);
        assert_eq!(pak::Pks.member(&p, 0, &lim).unwrap().bytes, a);
        let f = pkf(&[("TEXN", filler(9, 3))], &[Entry::new("A", "MOTN", a.clone())]);
        assert_eq!(u32::from_le_bytes(f[4..8].try_into().unwrap()) as usize, 16 + 16 + 17);
        assert_eq!(pak::Pkf.member(&f, 0, &lim).unwrap().bytes, a);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod proptests {
    use super::*;
    use crate::formats::{Format, pak};
    use crate::limits::Limits;
    use proptest::prelude::*;

    fn arb_entry() -> impl Strategy<Value = Entry> {
        ("[A-Z_]{1,8}", "[A-Z0-9]{1,4}", proptest::collection::vec(any::<u8>(), 0..200))
            .prop_map(|(name, ext, data)| Entry { name, ext, data })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Writer → reader: every entry comes back as a member with its name and bytes,
        /// through IPAC, PKS and PKF, and the documents keep the span contract.
        #[test]
        fn containers_round_trip(entries in proptest::collection::vec(arb_entry(), 1..6), chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..3)) {
            let lim = Limits::default();
            let chunk_refs: Vec<(&str, Vec<u8>)> = chunks.into_iter().map(|c| ("TEXN", c)).collect();
            let files: [(&dyn Format, Vec<u8>); 3] =
                [(&pak::IpacFormat, ipac(&entries)), (&pak::Pks, pks(&entries)), (&pak::Pkf, pkf(&chunk_refs, &entries))];
            for (f, data) in files {
                prop_assert_eq!(f.sniff(&data, "x"), 100);
                let (_, doc) = crate::formats::describe(&data, "x", Some(f.id()), &lim).unwrap();
                prop_assert_eq!(doc.validate(), Ok(()));
                let source = crate::source::Source::from_vec("x", data.clone());
                prop_assert!(f.check(&source, &lim).unwrap().is_empty());
                let opened = crate::formats::open_as(f, std::sync::Arc::new(source), &lim).unwrap();
                for (i, e) in entries.iter().enumerate() {
                    let node = opened.document().nodes.iter().find(|n| n.member == Some(i as u32)).unwrap().id;
                    let m = opened.member(node, &lim).unwrap();
                    prop_assert_eq!(m.name, format!("{}.{}", e.name, e.ext));
                    prop_assert_eq!(&m.bytes, &e.data);
                }
                let members = doc.nodes.iter().filter(|n| n.member.is_some()).count();
                prop_assert_eq!(members, entries.len());
            }
        }
    }
}
