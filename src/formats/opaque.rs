//! The `raw` format: any file as one node of unknown bytes, so every command works on
//! every input even before (or without) a format that understands it.

use super::parsed::{self, LazyDocument};
use super::tally::Tally;
use super::{Format, Parsed};
use crate::error::Result;
use crate::limits::Limits;
use crate::model::{Diagnostic, Document, Field, NodeId, Span, Value, WalkStep};
use crate::source::Source;
use std::sync::Arc;

/// Bytes with no known structure.
#[derive(Debug, Clone, Copy)]
pub struct Opaque;

impl Opaque {
    /// The document: one node of unknown bytes.
    pub(crate) fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> Result<Document> {
        let len = data.len() as u64;
        let mut doc = Document::new("raw", name, "file", len, limits);
        doc.add_field(NodeId::ROOT, Field::new("bytes", Span::new(0, len), Value::unknown_bytes(len)));
        doc.walk.push(WalkStep {
            span: Span::new(0, len),
            what: "file".into(),
            detail: format!("no format recognised; 0x{len:x} bytes shown as unknown"),
            next: None,
            node: Some(NodeId::ROOT),
        });
        Ok(doc)
    }
}

impl Format for Opaque {
    fn id(&self) -> &'static str {
        "raw"
    }

    fn description(&self) -> &'static str {
        "any file, shown as one node of unknown bytes"
    }

    fn recognises_structure(&self) -> bool {
        false
    }

    fn sniff(&self, _data: &[u8], _name: &str) -> u8 {
        1
    }

    fn open(&self, source: Arc<Source>, limits: &Limits) -> Result<Box<dyn Parsed>> {
        let doc = self.describe(source.bytes(), source.name(), limits)?;
        Ok(OpaqueParsed::with(source, doc))
    }

    fn check(&self, _source: &Source, _limits: &Limits) -> Result<Vec<Diagnostic>> {
        // one node of unknown bytes: nothing can be wrong with it
        Ok(Vec::new())
    }

    fn survey(&self, source: &Source, limits: &Limits, done: &(dyn Fn(u64) + Sync), tally: &mut Tally) -> Result<()> {
        let doc = self.describe(source.bytes(), source.name(), limits)?;
        parsed::document_survey(&doc, tally);
        done(source.len());
        Ok(())
    }
}

/// Bytes opened as one node: the document is all there is.
#[derive(Clone)]
pub(in crate::formats) struct OpaqueParsed {
    doc: LazyDocument,
}

impl OpaqueParsed {
    /// A parsed object holding `doc` as the document of `source`.
    pub(in crate::formats) fn with(source: Arc<Source>, doc: Document) -> Box<dyn Parsed> {
        Box::new(OpaqueParsed { doc: LazyDocument::ready(source, doc) })
    }
}

impl Parsed for OpaqueParsed {
    parsed::parsed_document_methods!(Opaque);
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn raw_document_is_one_valid_node() {
        let doc = Opaque.describe(b"hello", "h.txt", &Limits::default()).unwrap();
        assert_eq!(doc.nodes.len(), 1);
        assert_eq!(doc.root().span, Span::new(0, 5));
        assert_eq!(doc.validate(), Ok(()));
        assert_eq!(doc.field_at(4), Some((NodeId::ROOT, 0)));
    }
}
