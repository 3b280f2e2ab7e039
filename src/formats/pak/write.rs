//! Writers for IPAC, PKS and PKF containers: whole containers for fixtures, and write-back
//! of one changed entry ([`super::super::Parsed::rebuild`]). Layout choices follow
//! the public reference writer where the format leaves room: IPAC entry data 16-aligned
//! after the header, the dictionary after the data with `content size` = dictionary
//! offset [I]; PKS's IPAC at 0x10 with both unknown words 0; PKF with a 16-byte `DUMY`
//! chunk and the trailing IPAC at `content size`. Every header and entry is written from
//! its `raw.rs` declaration.

use super::parse::{Ipac, parse_ipac, parse_pkf, pks_ipac_start};
use super::raw::{ChunkHeader, IpacEntry, IpacHeader, PkfHeader, PksHeader};
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::rebuild::{Rebuild, RebuildOptions, Spliced};
use crate::formats::record::{self, ByteArray, FixedSize, Spanned};
use crate::limits::Limits;
use crate::model::{NodeId, Span};

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

/// IPAC entry data starts on multiples of this from the IPAC start (the reference writer's
/// alignment [I]); a rewritten entry keeps the entries after it so aligned.
const ALIGN: u64 = 16;

impl Rebuild for super::ContainerParsed {
    /// Entry data is replaced in place; when its length changes, everything after it
    /// (later entries' data, the dictionary if it follows) moves by the change rounded to
    /// keep 16-byte alignment, and the dictionary's offsets and the entry's size, the
    /// header's dictionary offset and content size are rewritten. The PKS and PKF headers
    /// locate only what comes before the entries and stay as they are.
    fn replace_member(&self, node: NodeId, bytes: &[u8], opts: &RebuildOptions, limits: &Limits) -> Result<Spliced> {
        let _ = opts;
        let doc = self.doc.get();
        let not_member = || ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", doc.path(node))));
        let index = doc.node(node).and_then(|n| n.member).ok_or_else(not_member)?;
        let data = self.doc.source().bytes();
        let b = Bytes::new(data);
        let ip = match self.kind {
            super::Container::Ipac => parse_ipac(&b, 0, b.len(), limits)?,
            super::Container::Pks => parse_ipac(&b, pks_ipac_start(&b)?.0, b.len(), limits)?,
            super::Container::Pkf => match parse_pkf(&b, limits)?.ipac {
                Some(ip) => ip?,
                None => return Err(not_member()),
            },
        };
        let i = usize::try_from(index).map_err(|_| not_member())?;
        replace_entry(&ip, i, bytes, b.len(), limits)
    }
}

/// The container of `len` bytes holding `ip` with entry `i`'s data replaced by `new`.
fn replace_entry(ip: &Ipac, i: usize, new: &[u8], len: u64, limits: &Limits) -> Result<Spliced> {
    let entry = ip.entries.get(i).ok_or_else(|| ParseError::new(0, ErrorKind::NotFound(format!("ipac entry {i}"))))?;
    let span = entry.data.clone()?;
    let name = entry.member_name();
    let refuse = |why: String| Err(ParseError::new(entry.raw.span.start, ErrorKind::Other(format!("{name}: {why}"))));
    if span.start < ip.start + IpacHeader::SIZE {
        return refuse("its data overlaps the IPAC header; not rewritten".into());
    }
    for other in ip.entries.iter().filter(|o| o.index != i) {
        if let Ok(s) = &other.data
            && !s.is_empty()
            && s.overlaps(&span)
        {
            return refuse(format!("its bytes are shared with entry {}; not rewritten", other.member_name()));
        }
    }
    let dict = Span::new(ip.dict_at, ip.dict_at + IpacEntry::SIZE * ip.entries.len() as u64);
    if dict.overlaps(&span) {
        return refuse("its data overlaps the dictionary; not rewritten".into());
    }
    let rel = |p: u64| p - ip.start;
    let aligned = |p: u64| ip.start + rel(p).next_multiple_of(ALIGN);
    // Where the kept bytes resume: after the entry's padding when nothing starts inside it
    // (then every later start keeps its alignment), else right after its data.
    let starts_in_pad = |to: u64| {
        ip.entries.iter().filter_map(|o| o.data.as_ref().ok()).any(|s| s.start > span.end && s.start < to)
            || (dict.start > span.end && dict.start < to)
    };
    let padded_end = aligned(span.end);
    let (cut, region_len) = if padded_end <= ip.end && !starts_in_pad(padded_end) {
        (padded_end, rel(span.start + new.len() as u64).next_multiple_of(ALIGN) - rel(span.start))
    } else {
        (span.end, new.len() as u64)
    };
    limits.spend_clip("the rewritten entry", region_len + dict.len() + IpacHeader::SIZE, span.start)?;
    let delta = i128::from(span.start + region_len) - i128::from(cut);
    let moved = |p: u64| -> Result<u32> {
        let q = if p >= cut { i128::from(p) + delta } else { i128::from(p) };
        u32::try_from(q - i128::from(ip.start)).map_err(|_| {
            ParseError::new(p, ErrorKind::Other(format!("{name}: the container would pass 4 GiB; not rewritten")))
        })
    };
    let mut patches = Vec::new();
    let mut header = ip.header.clone();
    header.dictionary_ofs = moved(ip.dict_at)?.into();
    header.content_size = moved(ip.start + u64::from(*ip.header.content_size))?.into();
    let mut rec = Vec::new();
    let _ = record::write(&header, &mut rec);
    patches.push((ip.start, rec));
    for e in &ip.entries {
        let mut raw = (*e.raw).clone();
        if e.index == i {
            raw.size = u32::try_from(new.len())
                .map_err(|_| ParseError::new(0, ErrorKind::Other(format!("{name}: 4 GiB or more; not rewritten"))))?
                .into();
        } else {
            raw.offset = moved(ip.start + u64::from(*e.raw.offset))?.into();
        }
        let mut rec = Vec::new();
        let _ = record::write(&raw, &mut rec);
        patches.push((e.raw.span.start, rec));
    }
    let mut region = new.to_vec();
    region.resize(usize::try_from(region_len).unwrap_or(new.len()), 0);
    let mut s = Spliced::replace(len, Span::new(span.start, cut), region, patches)?;
    if delta != 0 {
        let after = ip.entries.iter().filter(|o| o.data.as_ref().is_ok_and(|d| d.start >= cut)).count();
        s.notes.push(format!(
            "{name}: {} to {} bytes; {after} entries after it moved by {delta} bytes, the dictionary rewritten",
            span.len(),
            new.len()
        ));
    }
    Ok(s)
}

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
                    let m = opened.open_member_of(node, &lim).unwrap();
                    prop_assert_eq!(m.name, format!("{}.{}", e.name, e.ext));
                    prop_assert_eq!(&m.bytes, &e.data);
                }
                let members = doc.nodes.iter().filter(|n| n.member.is_some()).count();
                prop_assert_eq!(members, entries.len());
            }
        }
    }
}
