//! Opening a container's entries: the bytes of IPAC entry `index` as a nested member (the
//! containers hold no animation of their own; a MOTN entry decodes as its own document).

use super::parse::Ipac;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::Member;

/// The bytes of IPAC entry `index` as a member.
pub(super) fn ipac_member(data: &[u8], ip: &Ipac, index: u32) -> Result<Member> {
    let e = ip
        .entries
        .get(index as usize)
        .ok_or_else(|| ParseError::new(ip.start, ErrorKind::NotFound(format!("ipac entry {index}"))))?;
    let span = e.data.clone()?;
    let bytes = Bytes::new(data).slice(span.start, span.len())?.to_vec();
    Ok(Member { name: e.member_name(), bytes, inflated: false })
}
