//! Shared support for the tests: for the unit tests, the field checker of the hand-written
//! byte vectors and the one seeded random source for tests that need reproducible noise;
//! for the integration tests and the benches (feature `harness`, as they reach the crate),
//! the parsed object of the fake formats they define ([`FakeParsed`]).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, clippy::expect_used)]

#[cfg(test)]
use proptest::prelude::Rng;
#[cfg(test)]
use proptest::test_runner::{RngAlgorithm, TestRng};

use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::{AnimRef, DecodeOptions, Format, Member, Parsed};
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::{Document, NodeId};
use crate::source::Source;
use std::sync::Arc;

/// The parsed object of a fake format (the TUI tests' formats, the render bench's): the
/// document its `describe` made, and what it decodes and opens members with.
#[derive(Clone)]
pub struct FakeParsed {
    /// The fake format.
    pub format: &'static dyn Format,
    /// The bytes it was opened from.
    pub source: Arc<Source>,
    /// Its document.
    pub doc: Document,
    /// The clip of an animation key ([`no_decode`] for none).
    pub decode: fn(&str) -> Result<Clip>,
    /// The member of a member index, when the format has members.
    pub member: Option<fn(u32) -> Result<Member>>,
}

/// A fake format's decode of a format without animations.
pub fn no_decode(key: &str) -> Result<Clip> {
    Err(ParseError::new(0, ErrorKind::Unsupported(format!("no decode ({key})"))))
}

impl Parsed for FakeParsed {
    fn clips(&self) -> Option<&dyn crate::formats::Clips> {
        Some(self)
    }

    fn format(&self) -> &'static dyn Format {
        self.format
    }
    fn source(&self) -> &Arc<Source> {
        &self.source
    }
    fn document(&self) -> &Document {
        &self.doc
    }
    fn document_mut(&mut self) -> &mut Document {
        &mut self.doc
    }
    fn clone_parsed(&self) -> Box<dyn Parsed> {
        Box::new(self.clone())
    }
    fn members(&self) -> Option<&dyn crate::formats::Members> {
        Some(self)
    }
}

/// The members of a member index, when the format has them.
impl crate::formats::Members for FakeParsed {
    fn member(&self, node: NodeId, _: &Limits) -> Result<Member> {
        match (self.member, self.doc.node(node).and_then(|n| n.member)) {
            (Some(open), Some(i)) => open(i),
            _ => Err(ParseError::new(0, ErrorKind::NotFound(format!("{} is not a member", self.doc.path(node))))),
        }
    }
    fn member_span(&self, _: NodeId, _: &Limits) -> Option<(u64, u64)> {
        None
    }
}

/// The document's animations, as the formats list theirs; names are not looked up.
impl crate::formats::Clips for FakeParsed {
    fn animations(&self) -> Vec<AnimRef> {
        crate::formats::animations_of(&self.doc, |_| ())
    }
    fn animation_at(&self, node: NodeId) -> Option<AnimRef> {
        crate::formats::animation_at_of(&self.doc, node, |_| ())
    }
    fn find_animation(&self, name: &str) -> Result<AnimRef> {
        let _ = name;
        Err(ParseError::new(0, ErrorKind::Unsupported(format!("{} data has no named animations", self.format.id()))))
    }
    fn decode(&self, anim: &AnimRef, _: &DecodeOptions, _: &Limits) -> Result<Clip> {
        (self.decode)(anim.id())
    }
}

#[cfg(test)]
/// Seeded, reproducible noise (proptest's XorShift generator): the same seed gives the
/// same stream on every run and platform. Use it where a proptest strategy does not fit
/// (noise inside one generated case, fixed sweeps).
pub(crate) struct Noise(TestRng);

#[cfg(test)]
impl Noise {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
}

#[cfg(test)]
/// A generator seeded with `seed`.
pub(crate) fn rng(seed: u64) -> Noise {
    let mut s = [0u8; 16];
    s[..8].copy_from_slice(&seed.to_le_bytes());
    s[8..].copy_from_slice(&(!seed).to_le_bytes());
    Noise(TestRng::from_seed(RngAlgorithm::XorShift, &s))
}

/// Checking a described record against its hand-written expectation.
pub mod expect {
    use crate::model::{Document, Meaning, NodeId, Raw};

    /// An expected field value.
    #[derive(Debug, Clone, Copy)]
    pub enum V {
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
    pub type Want = (&'static str, u64, u64, V);

    /// Assert `written` (the project's writer) equals `hand` (the hand-written vector),
    /// naming the first differing offset.
    pub fn assert_same_bytes(written: &[u8], hand: &[u8]) {
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
    pub fn node(doc: &Document, at: u64, len: u64, kind: &str) -> NodeId {
        let found: Vec<_> = doc.nodes.iter().filter(|n| n.span.start == at && n.kind == kind).collect();
        assert_eq!(found.len(), 1, "one {kind} node at 0x{at:x}");
        assert_eq!(found[0].span.len(), len, "{kind} at 0x{at:x}: span");
        found[0].id
    }

    /// The child of `parent` keyed `key`.
    pub fn child(doc: &Document, parent: NodeId, key: &str) -> NodeId {
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
    pub fn assert_has_fields(doc: &Document, id: NodeId, base: u64, want: &[Want]) {
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
    pub fn assert_fields(doc: &Document, id: NodeId, base: u64, want: &[Want]) {
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

#[cfg(test)]
/// Record-level byte vectors: the round trip every hand-written vector goes through, and
/// the registry check that fails when a record declared in a `raw.rs` has no vector.
///
/// A vector goes through [`both`] / [`both_at`], which reads the record from the hand-typed
/// bytes, writes it back, asserts the same bytes and logs the record's type on this thread.
/// A format's registry test runs its vector functions and compares the logged types with
/// the types its `raw.rs` declares (`#[binrw]` structs and `impl Record for`), read from
/// the source itself, so a new record without a vector fails.
pub(crate) mod vectors {
    use binrw::io::{Cursor, Seek};
    use binrw::{BinRead, BinWrite, Endian};
    use std::cell::RefCell;
    use std::collections::BTreeSet;

    thread_local! {
        /// Types checked by `both_at` on this thread since the last `take_checked`.
        static CHECKED: RefCell<BTreeSet<String>> = const { RefCell::new(BTreeSet::new()) };
    }

    /// The declared name of `T`: `IpacEntry` for `…::pak::raw::IpacEntry` and for
    /// `Spanned<…::IpacEntry>` (a record read with its span is the same record).
    pub(crate) fn short_name<T>() -> String {
        let full = std::any::type_name::<T>();
        let inner = full.strip_prefix("animscope::formats::record::Spanned<").and_then(|s| s.strip_suffix('>'));
        let name = inner.unwrap_or(full);
        let name = name.split('<').next().unwrap_or(name);
        name.rsplit("::").next().unwrap_or(name).to_string()
    }

    /// What an inspector is handed for each record a vector checks: the record, the vector's
    /// bytes, and where the record starts and ends in them.
    pub(crate) type Inspector = Box<dyn FnMut(&dyn std::any::Any, &[u8], u64, u64)>;

    thread_local! {
        /// Called with each record `both_at` checks on this thread, while set.
        static INSPECT: RefCell<Option<Inspector>> = const { RefCell::new(None) };
    }

    /// Hand every record the vectors on this thread check to `f` (none: stop).
    pub(crate) fn set_inspector(f: Option<Inspector>) {
        INSPECT.with(|i| *i.borrow_mut() = f);
    }

    /// Hand `record`, read from `file[at..end]`, to this thread's inspector, if one is set
    /// (for test files whose own `both` does not go through [`both_at`]).
    pub(crate) fn inspect(record: &dyn std::any::Any, file: &[u8], at: u64, end: u64) {
        INSPECT.with(|i| {
            if let Some(f) = i.borrow_mut().as_mut() {
                f(record, file, at, end);
            }
        });
    }

    /// Read `T` (with `args`) at `at` in `file`, assert the read consumed exactly the bytes
    /// the record writes back and that they are `file`'s bytes there, log `T` and hand it
    /// to the inspector, if set.
    pub(crate) fn both_at<'a, T>(file: &[u8], at: u64, args: <T as BinRead>::Args<'a>) -> T
    where
        T: BinRead + BinWrite + 'static,
        for<'b> <T as BinWrite>::Args<'b>: Default,
    {
        let name = short_name::<T>();
        // a cursor over the whole input, so spans are absolute as `parse` reads them
        let mut r = Cursor::new(file);
        r.set_position(at);
        let t = T::read_options(&mut r, Endian::Little, args).unwrap_or_else(|e| panic!("{name}: read: {e}"));
        let end = r.stream_position().unwrap();
        let mut out = Vec::new();
        t.write_options(&mut Cursor::new(&mut out), Endian::Little, Default::default())
            .unwrap_or_else(|e| panic!("{name}: write: {e}"));
        let read = &file[at as usize..end as usize];
        super::expect::assert_same_bytes(&out, read);
        CHECKED.with(|c| c.borrow_mut().insert(name));
        inspect(&t, file, at, end);
        t
    }

    /// [`both_at`] at 0, and the record is all of `bytes`.
    pub(crate) fn both<'a, T>(bytes: &[u8], args: <T as BinRead>::Args<'a>) -> T
    where
        T: BinRead + BinWrite + 'static,
        for<'b> <T as BinWrite>::Args<'b>: Default,
    {
        let t: T = both_at(bytes, 0, args);
        let mut out = Vec::new();
        t.write_options(&mut Cursor::new(&mut out), Endian::Little, Default::default()).unwrap();
        assert_eq!(out.len(), bytes.len(), "{}: the vector is one whole record", short_name::<T>());
        t
    }

    /// The types checked on this thread since the last call.
    pub(crate) fn take_checked() -> BTreeSet<String> {
        CHECKED.with(|c| std::mem::take(&mut *c.borrow_mut()))
    }

    /// Names of the record types `source` (a `raw.rs`) declares: every `#[binrw]` struct or
    /// enum, every `impl Record for X`, and every `X = "name";` row of a `records!` list.
    pub(crate) fn declared(source: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
        let mut after_binrw = false;
        let mut in_records = false;
        for line in source.lines() {
            let t = line.trim();
            if t.starts_with("#[cfg(test)]") {
                break; // the test module's own records are not the format's
            }
            if t == "#[binrw]" {
                after_binrw = true;
            } else if after_binrw && let Some(p) = t.find("struct ").or_else(|| t.find("enum ")) {
                let rest = &t[p..];
                out.insert(ident(rest.split_once(' ').map_or("", |r| r.1)));
                after_binrw = false;
            }
            // `record! { … struct Name = "name" [..] { … } }` declares binrw records too
            if let Some(p) = t.find("struct ").filter(|_| t.contains(" = \"") && t.ends_with('{')) {
                out.insert(ident(t[p..].split_once(' ').map_or("", |r| r.1)));
            }
            if let Some(rest) = t.strip_prefix("impl Record for ") {
                out.insert(ident(rest));
            }
            if t == "records! {" {
                in_records = true;
            } else if in_records && t == "}" {
                in_records = false;
            } else if in_records && let Some((name, _)) = t.split_once(" = \"") {
                out.insert(ident(name));
            }
        }
        out
    }

    /// Types named in `source` as `: Type = both(`: vectors written in a test file whose own
    /// `both` helper (same contract as [`both`]) does not log.
    pub(crate) fn vectored_in(source: &str) -> BTreeSet<String> {
        source
            .match_indices(" = both(")
            .filter_map(|(i, _)| {
                let head = &source[..i];
                let ty = head.rsplit(": ").next()?;
                ty.chars().all(|c| c.is_alphanumeric() || c == '_').then(|| ty.to_string())
            })
            .collect()
    }

    /// Run `vectors` on this thread and assert the types they checked, with `elsewhere`,
    /// are exactly the types `source` declares: none without a vector, none unknown.
    pub(crate) fn assert_every_record_has_a_vector(
        format: &str,
        source: &str,
        vectors: &[fn()],
        elsewhere: BTreeSet<String>,
    ) {
        let declared = declared(source);
        assert!(declared.len() >= 3, "{format}: the source scan found only {declared:?}");
        take_checked();
        for v in vectors {
            v();
        }
        let mut checked = take_checked();
        checked.extend(elsewhere);
        let missing: Vec<_> = declared.difference(&checked).collect();
        let unknown: Vec<_> = checked.difference(&declared).collect();
        assert!(missing.is_empty(), "{format}: records without a hand-written vector: {missing:?}");
        assert!(unknown.is_empty(), "{format}: vectors for types raw.rs does not declare: {unknown:?}");
    }
}
