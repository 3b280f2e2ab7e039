//! Inflating members: one member's deflate data inflated on demand, capped by
//! `Limits::max_inflated`, with a small memory-bounded cache for consumers that revisit
//! members, and opening the member a listed node stands for.

use super::MemberInfo;
use super::raw::MemberTrailer;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::Member;
use crate::formats::record::{self, FixedSize};
use crate::limits::Limits;
use crate::model::Span;
use std::io::Read;
use std::sync::{Arc, Mutex};

/// Inflate one gzip member from its extent. The output is capped at `limits.max_inflated`
/// bytes (a bomb stops with `LimitExceeded`, never exhausting memory); a stream that does
/// not inflate is an `Inflate` error at the member's offset.
pub fn inflate(data: &[u8], m: &MemberInfo, limits: &Limits) -> Result<Vec<u8>> {
    let path = format!("member[{}] {}", m.index, m.display_name());
    if let Some(e) = &m.header_error {
        return Err(e.clone());
    }
    let slice = Bytes::new(data).slice(m.offset, m.end.saturating_sub(m.offset)).map_err(|e| e.within(&path))?;
    let max = limits.max_inflated;
    // Size the output from the trailer's ISIZE (inflated length mod 2^32), trusted only up
    // to the cap and to deflate's best ratio (1032:1), so a lying trailer cannot make a big
    // allocation; a wrong guess only costs regrowth.
    let extent = Bytes::with_base(slice, m.offset);
    let isize_hint = record::read_at::<MemberTrailer>(&extent, m.end.saturating_sub(MemberTrailer::SIZE))
        .map_or(0, |t| u64::from(*t.isize).min(max).min(slice.len() as u64 * 1032));
    let mut out = Vec::with_capacity(usize::try_from(isize_hint).unwrap_or(0));
    // bufread: the decoder reads the mapped bytes in place (no intermediate buffer copy).
    let mut dec = flate2::bufread::GzDecoder::new(slice).take(max.saturating_add(1));
    dec.read_to_end(&mut out).map_err(|e| {
        ParseError::new(m.offset, ErrorKind::Inflate(format!("member does not inflate: {e}"))).within(&path)
    })?;
    if out.len() as u64 > max {
        return Err(ParseError::new(
            m.offset,
            ErrorKind::LimitExceeded { what: "inflated bytes", value: max + 1, max },
        )
        .within(&path));
    }
    Ok(out)
}

/// A memory-bounded cache of inflated members, keyed by member offset. Consumers that
/// revisit members (the TUI) may hold one; evicts oldest first when `cache_bytes` is passed.
#[derive(Debug, Default)]
pub struct MemberCache {
    entries: Mutex<Vec<(u64, Arc<Vec<u8>>)>>,
}

impl MemberCache {
    /// An empty cache.
    pub fn new() -> Self {
        MemberCache::default()
    }

    /// The inflated bytes of `m`, from the cache or freshly inflated.
    pub fn get(&self, data: &[u8], m: &MemberInfo, limits: &Limits) -> Result<Arc<Vec<u8>>> {
        if let Ok(e) = self.entries.lock()
            && let Some((_, v)) = e.iter().find(|(o, _)| *o == m.offset)
        {
            return Ok(Arc::clone(v));
        }
        let v = Arc::new(inflate(data, m, limits)?);
        if let Ok(mut e) = self.entries.lock() {
            e.push((m.offset, Arc::clone(&v)));
            let mut total: u64 = e.iter().map(|(_, b)| b.len() as u64).sum();
            while total > limits.cache_bytes && !e.is_empty() {
                total -= e.remove(0).1.len() as u64;
            }
        }
        Ok(v)
    }

    /// Bytes held now.
    pub fn held_bytes(&self) -> u64 {
        self.entries.lock().map(|e| e.iter().map(|(_, b)| b.len() as u64).sum()).unwrap_or(0)
    }
}

/// Open the member a listed node covers (`span` = the node's span, `index` = its
/// `member`) without re-scanning the archive from the start: O(1) in the archive size and
/// touching only the member's own bytes (`GzArc`'s [`Format::member_in`]). [`Format::member`]
/// only gets an index and so has to probe every boundary before the member.
pub fn member_at(data: &[u8], index: u32, span: Span, limits: &Limits) -> Result<Member> {
    let m = MemberInfo::at(data, index, span).ok_or_else(|| {
        ParseError::new(span.start, ErrorKind::NotFound(format!("gzip member {index} at 0x{:x}", span.start)))
    })?;
    let bytes = inflate(data, &m, limits)?;
    Ok(Member { name: m.display_name(), bytes, inflated: true })
}
