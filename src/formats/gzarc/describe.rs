//! A gzip archive → `model::Document`: the listing (`listing.rs`) adds one node per member,
//! labelled here with the fields of its header's `raw.rs` declarations; the deflate data,
//! trailer and padding are one opaque field (the trailer's place is known only after
//! inflating).

use super::listing::{self, MemberKeys, continue_listing};
use super::parse::MemberInfo;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::Record;
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, Field, NodeId, Span, Value, WalkStep};

/// The archive's document, listed as far as `limits.list_budget` goes.
pub(super) fn describe(data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
    let len = data.len() as u64;
    let mut doc = Document::new("gzarc", name, "gzip archive", len);
    listing::start(&mut doc);
    continue_listing(data, &mut doc, limits.list_budget);
    let members = doc.root().children.len();
    if members >= limits.max_nodes {
        return Err(ParseError::new(
            0,
            ErrorKind::LimitExceeded { what: "members", value: members as u64, max: limits.max_nodes as u64 },
        ));
    }
    Ok(doc)
}

/// The node of member `m`, keyed uniquely among its siblings.
pub(super) fn add_member(doc: &mut Document, m: &MemberInfo, keys: &mut MemberKeys) {
    let len = doc.len;
    let key = keys.unique(m.display_name());
    let span = Span::new(m.offset, m.end);
    let id = doc.add_node(NodeId::ROOT, &key, "gzip member", span);
    // the header's fields as far as the extent holds them, then the optional parts
    let mut fields = m.header.as_ref().map(|h| h.fields()).unwrap_or_default();
    if let Some(o) = &m.options {
        fields.extend(o.fields());
    }
    if m.header_error.is_none() {
        let ds = Span::new(m.data_start, m.end);
        fields.push(
            Field::new("deflate", ds, Value::bytes(ds.len()))
                .note("deflate stream, crc32, isize, then zero padding to the next 2048-byte boundary"),
        );
    }
    if let Some(nd) = doc.node_mut(id) {
        nd.fields = fields;
        nd.member = Some(m.index);
        nd.summary = format!("0x{:x} bytes compressed", m.end - m.offset);
    }
    if let Some(e) = &m.header_error {
        doc.diag(Diagnostic::from_error(e));
    }
    doc.walk.push(WalkStep {
        span,
        what: format!("gzip member {} at 0x{:x}", m.index, m.offset),
        detail: format!(
            "1f 8b 08 at a 2048-byte boundary; FLG 0x{:02x}; name {}; extent to {} 0x{:x}",
            m.flags,
            m.name.as_ref().map_or("(none)".to_string(), |(n, _)| crate::model::escape_text(n)),
            if m.end == len { "end of file" } else { "next member" },
            m.end
        ),
        next: (m.end < len).then_some(m.end),
        node: Some(id),
    });
}
