//! Shared support for the unit tests: the field checker of the hand-written byte vectors
//! and the one seeded random source for tests that need reproducible noise.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, clippy::expect_used)]

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// Seeded, reproducible noise (proptest's XorShift generator): the same seed gives the
/// same stream on every run and platform. Use it where a proptest strategy does not fit
/// (noise inside one generated case, fixed sweeps).
pub(crate) struct Noise(TestRng);

impl Noise {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// A generator seeded with `seed`.
pub(crate) fn rng(seed: u64) -> Noise {
    let mut s = [0u8; 16];
    s[..8].copy_from_slice(&seed.to_le_bytes());
    s[8..].copy_from_slice(&(!seed).to_le_bytes());
    Noise(TestRng::from_seed(RngAlgorithm::XorShift, &s))
}

/// Checking a described record against its hand-written expectation.
pub(crate) mod expect {
    use crate::model::{Document, Meaning, NodeId, Raw};

    /// An expected field value.
    #[derive(Debug, Clone, Copy)]
    pub(crate) enum V {
        /// An unsigned integer (hex, decimal or bits).
        N(u64),
        /// A signed integer.
        I(i64),
        /// An f32, compared by its bits.
        F(f32),
        /// An index and the name it resolves to (`Meaning::Ref`).
        R(u64, &'static str),
        /// A byte string.
        T(&'static [u8]),
        /// Opaque bytes as long as the field's span.
        B,
    }
    use V::*;

    /// (field name, offset from the record start, length, value).
    pub(crate) type Want = (&'static str, u64, u64, V);

    /// Assert `written` (the project's writer) equals `hand` (the hand-written vector),
    /// naming the first differing offset.
    pub(crate) fn assert_same_bytes(written: &[u8], hand: &[u8]) {
        let first = written.iter().zip(hand).position(|(a, b)| a != b);
        assert!(
            first.is_none() && written.len() == hand.len(),
            "writer output differs from the hand-written vector: lengths {} vs {}, first difference at {:?}",
            written.len(),
            hand.len(),
            first.map(|o| format!("0x{o:x}: writer {:02x}, hand {:02x}", written[o], hand[o]))
        );
    }

    /// The one node of kind `kind` spanning `at..at + len`.
    pub(crate) fn node(doc: &Document, at: u64, len: u64, kind: &str) -> NodeId {
        let found: Vec<_> = doc.nodes.iter().filter(|n| n.span.start == at && n.kind == kind).collect();
        assert_eq!(found.len(), 1, "one {kind} node at 0x{at:x}");
        assert_eq!(found[0].span.len(), len, "{kind} at 0x{at:x}: span");
        found[0].id
    }

    /// The child of `parent` keyed `key`.
    pub(crate) fn child(doc: &Document, parent: NodeId, key: &str) -> NodeId {
        let p = doc.node(parent).unwrap();
        let c = p.children.iter().copied().find(|c| doc.node(*c).is_some_and(|n| n.key == key));
        c.unwrap_or_else(|| panic!("{}: no child {key}", doc.path(parent)))
    }

    fn value_matches(f: &crate::model::Field, want: V) -> bool {
        match (want, &f.value.raw) {
            (N(x), Raw::U { v, .. } | Raw::Dec(v) | Raw::Bits { v, .. }) => *v == x,
            (I(x), Raw::I { v, .. }) => *v == x,
            (F(x), Raw::F32(b)) => *b == x.to_bits(),
            (R(x, name), Raw::Dec(v) | Raw::U { v, .. }) => {
                *v == x && f.value.meaning == Some(Meaning::Ref(name.into()))
            }
            (T(t), Raw::Text(b)) => b == t,
            (B, Raw::Bytes(l)) => *l == f.span.len(),
            _ => false,
        }
    }

    /// Assert node `id` has each of the fields `want` (exactly one field of each name, at
    /// that span relative to `base`, with that value); other fields may exist (derived
    /// values a format adds for display).
    pub(crate) fn assert_has_fields(doc: &Document, id: NodeId, base: u64, want: &[Want]) {
        let n = doc.node(id).unwrap();
        for w in want {
            let found: Vec<_> = n.fields.iter().filter(|f| f.name == w.0).collect();
            assert_eq!(found.len(), 1, "{}: one field {}", doc.path(id), w.0);
            let f = found[0];
            assert_eq!(
                (f.span.start.wrapping_sub(base), f.span.len()),
                (w.1, w.2),
                "{}: field {} span",
                doc.path(id),
                w.0
            );
            assert!(value_matches(f, w.3), "{}: field {} is {:?}, want {:?}", doc.path(id), f.name, f.value, w.3);
        }
    }

    /// Assert node `id` has exactly the fields `want` (names, spans relative to `base`,
    /// values), in order.
    pub(crate) fn assert_fields(doc: &Document, id: NodeId, base: u64, want: &[Want]) {
        let n = doc.node(id).unwrap();
        let got: Vec<_> =
            n.fields.iter().map(|f| (f.name.as_str(), f.span.start.wrapping_sub(base), f.span.len())).collect();
        let exp: Vec<_> = want.iter().map(|w| (w.0, w.1, w.2)).collect();
        assert_eq!(got, exp, "{}: field names and spans", doc.path(id));
        for (f, w) in n.fields.iter().zip(want) {
            assert!(value_matches(f, w.3), "{}: field {} is {:?}, want {:?}", doc.path(id), f.name, f.value, w.3);
        }
    }
}
