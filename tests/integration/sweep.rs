//! The mutation source of the never-panic sweeps: truncations at evenly spaced cuts and
//! single-byte mutations drawn from proptest's seeded generator ([`crate::support::rng`])
//! for the MOTN and CCSF API sweeps; for the pipeline sweeps (`robust.rs`) the offsets
//! where structures meet ([`boundaries`]), counts set to 0, 1 and their maximum
//! ([`count_mutations`]) and the part of each file not already swept as another
//! ([`windows`]). Each mutant is labelled so a failing input can be named.

use crate::support::rng;

/// One mutated input: what was done (for a failure message) and the bytes.
pub struct Mutant {
    /// `cut at 0x12` / `byte 0x40 = 0xff`.
    pub what: String,
    /// The mutated bytes.
    pub bytes: Vec<u8>,
}

/// `data` cut at about `cuts` evenly spaced lengths (0 included, the whole file not).
pub fn truncations(data: &[u8], cuts: usize) -> impl Iterator<Item = Mutant> + '_ {
    let step = (data.len() / cuts.max(1)).max(1);
    (0..data.len()).step_by(step).map(|cut| Mutant { what: format!("cut at 0x{cut:x}"), bytes: data[..cut].to_vec() })
}

/// `n` copies of `data` with one byte replaced, drawn from `seed`: by 0, by 0xff, by
/// itself with one bit flipped, or by a random byte, in equal shares.
pub fn byte_mutations(data: &[u8], seed: u64, n: usize) -> impl Iterator<Item = Mutant> + '_ {
    let mut r = rng(seed);
    (0..if data.is_empty() { 0 } else { n }).map(move |_| {
        let mut m = data.to_vec();
        let at = (r.next() as usize) % m.len();
        m[at] = match r.next() % 4 {
            0 => 0,
            1 => 0xff,
            2 => m[at] ^ (1 << (r.next() % 8)),
            _ => r.next() as u8,
        };
        Mutant { what: format!("byte 0x{at:x} = 0x{:02x}", m[at]), bytes: m }
    })
}

/// Offsets a sampled sweep cuts and flips `data` (named `name`) at: the first and last
/// byte of every node and field of its fully built document, each ±1, in order. Where
/// structures meet is where parsers branch; the bytes inside a long field are payload.
pub fn boundaries(name: &str, data: &[u8]) -> Vec<usize> {
    let mut at = std::collections::BTreeSet::from([0, data.len().saturating_sub(1)]);
    if let Some(doc) = built_document(name, data) {
        let spans = doc.nodes.iter().flat_map(|n| std::iter::once(n.span).chain(n.fields.iter().map(|f| f.span)));
        for s in spans {
            let (first, last) = (s.start as usize, (s.end as usize).saturating_sub(1).max(s.start as usize));
            for p in
                [first.checked_sub(1), Some(first), Some(first + 1), last.checked_sub(1), Some(last), Some(last + 1)]
                    .into_iter()
                    .flatten()
            {
                at.insert(p);
            }
        }
    }
    at.into_iter().filter(|&p| p < data.len()).collect()
}

/// The document of `data` as sniffed, every lazy node built (None when it does not open).
fn built_document(name: &str, data: &[u8]) -> Option<animscope::model::Document> {
    crate::support::whole_document(None, name, data, &animscope::limits::Limits::default()).ok()
}

/// A count in `data`'s built document: a byte-aligned integer field named as one
/// (`frame_count`, `lookup_count`, `mmat_num`, `n`, `frames`, `count[Root.px]`), with the
/// byte order its stored value was read in.
pub struct Count {
    /// Offset of its first byte.
    pub at: usize,
    /// Width in bytes (1, 2, 4 or 8).
    pub width: usize,
    /// True when the value is stored big-endian.
    pub big_endian: bool,
}

/// The counts of `data`'s built document ([`Count`]).
pub fn counts(name: &str, data: &[u8]) -> Vec<Count> {
    use animscope::model::Raw;
    let Some(doc) = built_document(name, data) else { return Vec::new() };
    let mut out = Vec::new();
    for f in doc.nodes.iter().flat_map(|n| &n.fields) {
        let leaf = f.name.rsplit('.').next().unwrap_or(&f.name);
        let leaf = leaf.split('[').next().unwrap_or(leaf);
        let named = leaf.contains("count") || leaf.ends_with("_num") || leaf == "n" || leaf == "frames";
        let stored = match f.value.raw {
            Raw::U { v, .. } | Raw::Dec(v) => v,
            _ => continue,
        };
        let (at, width) = (f.span.start as usize, f.span.len() as usize);
        let Some(bytes) = data.get(at..at + width) else { continue };
        if !named || f.bits.is_some() || ![1, 2, 4, 8].contains(&width) {
            continue;
        }
        let le = bytes.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b));
        let be = bytes.iter().fold(0u64, |v, &b| v << 8 | u64::from(b));
        // A value that is neither reading of its bytes (scaled, derived) is no stored count.
        if stored == le || stored == be {
            out.push(Count { at, width, big_endian: stored != le });
        }
    }
    out
}

/// `data` with each count set to 0, to 1 and to its largest value in turn.
pub fn count_mutations<'a>(data: &'a [u8], counts: &'a [Count]) -> impl Iterator<Item = Mutant> + 'a {
    counts.iter().flat_map(move |c| {
        let one: Vec<u8> =
            (0..c.width).map(|i| u8::from(if c.big_endian { i == c.width - 1 } else { i == 0 })).collect();
        [(0u64, vec![0u8; c.width]), (1, one), (u64::MAX, vec![0xff; c.width])].into_iter().map(move |(v, b)| {
            let mut m = data.to_vec();
            m[c.at..c.at + c.width].copy_from_slice(&b);
            let v = if v == u64::MAX { "max".to_string() } else { v.to_string() };
            Mutant { what: format!("count at 0x{:x} = {v}", c.at), bytes: m }
        })
    })
}

/// The part of each file worth sweeping, in `files` order. A file of the same length as an
/// earlier one that differs from it in at most 16 bytes (the g123 scene and its three
/// variants) is swept only within 256 bytes of where it differs: elsewhere its mutants are
/// those of the earlier file but for those few bytes (a file equal to an earlier one is
/// not swept again). Every other file is swept whole.
pub fn windows(files: &[(String, Vec<u8>)]) -> Vec<std::ops::Range<usize>> {
    files
        .iter()
        .enumerate()
        .map(|(i, (_, b))| {
            let near = files[..i].iter().filter(|(_, a)| a.len() == b.len()).find_map(|(_, a)| {
                let diff: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).take(17).collect();
                (diff.len() <= 16).then_some(diff)
            });
            match near.as_deref() {
                // the same bytes as an earlier file: nothing of its own to sweep
                Some([]) => 0..0,
                Some([first, .., last] | [first @ last]) => first.saturating_sub(256)..(last + 257).min(b.len()),
                None => 0..b.len(),
            }
        })
        .collect()
}
