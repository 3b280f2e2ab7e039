//! The JSON wire types: every `--json` output of the command line is one of these structs
//! serialised on one line (ripgrep's `jsont` shape), so the keys a consumer reads are
//! declared once, here, and documented by docs/GUIDE.md ("JSON output", "Comparing two
//! files").
//!
//! | verb | line type |
//! | --- | --- |
//! | `info --json` | [`Info`] |
//! | `tree --json`, `fields --json` | [`Node`] (fields as [`Field`], values as [`ValueJson`]) |
//! | `walk --json` | [`WalkStep`] |
//! | `decode --json` | [`Decode`] (written track by track, same bytes) |
//! | `survey --json` | [`SurveyLine`] per file, then one for the totals |
//! | `check --json` | [`CheckFinding`] per finding |
//! | `diff --json` | [`Change`] per change, then [`SummaryLine`] |
//! | `diff --summary --json` | [`UnitLine`] per changed unit, then [`SummaryLine`] |
//!
//! Keys come out in alphabetical order: each struct declares its fields in that order,
//! which is the order the output had when it was built as `serde_json` maps, so the bytes
//! did not change when these types replaced them. A key the guide marks optional (`?`) is
//! left out when it has no value. Every struct also deserialises, and refuses keys it does
//! not declare, so the wire test parses the binary's real output into these same types.
//!
//! Strings are borrowed ([`Cow`]) when written and owned when read back.

use crate::diff;
use crate::model::{Diagnostic, Document, Field as ModelField, Meaning as ModelMeaning, Node as ModelNode, Raw, Value};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A string: borrowed when written, owned when parsed.
pub type Text<'a> = Cow<'a, str>;

fn is_false(b: &bool) -> bool {
    !*b
}

/// Owned strings as borrowed wire texts.
fn texts(v: &[String]) -> Vec<Text<'_>> {
    v.iter().map(|s| Cow::Borrowed(s.as_str())).collect()
}

/// `info --json`: the file, its format and the counts of the document.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Info<'a> {
    /// Error diagnostics found while describing.
    pub errors: u64,
    /// Fields held by the document's described nodes.
    pub fields: u64,
    /// The input's name as given (outer members joined by `/`).
    #[serde(borrow)]
    pub file: Text<'a>,
    /// Format id (`motn`, `ccsf`, …).
    #[serde(borrow)]
    pub format: Text<'a>,
    /// The format's one-line description.
    #[serde(borrow)]
    pub format_description: Text<'a>,
    /// For an archive whose members were not all listed yet: how far the listing got.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listing: Option<Listing>,
    /// Whether the input is memory-mapped (else read on demand).
    pub mapped: bool,
    /// The root node (or the node addressed), without its fields.
    #[serde(borrow)]
    pub node: Node<'a>,
    /// Nodes in the document so far.
    pub nodes: u64,
    /// Nodes not yet described (documents built on demand).
    pub pending: u64,
    /// The input's size in bytes.
    pub size: u64,
    /// Structures whose findings are not in `errors` and `warnings` yet: they are read
    /// when shown (`check` reads them all). Absent when the counts are complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<u64>,
    /// Steps of the format walk recorded.
    pub walk_steps: u64,
    /// Warning diagnostics found while describing.
    pub warnings: u64,
}

/// `info --json`'s `listing`: an archive listed only partly.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listing {
    /// Always false: the listing stopped before the end.
    pub complete: bool,
    /// Compressed bytes walked so far.
    pub listed_bytes: u64,
    /// Members found so far.
    pub members_listed: u64,
    /// Bytes read to find them.
    pub probed_bytes: u64,
}

/// A node line of `tree --json`, and the object of `fields --json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Node<'a> {
    /// Whether the node is an alias of another.
    pub alias: bool,
    /// The animation the node is, as `decode --anim` names it.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub anim: Option<Text<'a>>,
    /// Number of children (in a streamed `tree`, of the whole document for the root).
    pub children: u64,
    /// Depth below the node the listing started at.
    pub depth: u64,
    /// End offset (exclusive).
    pub end: u64,
    /// The node's fields (`tree --fields`, `fields`).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<Field<'a>>>,
    /// Key among its siblings (`seq[3]`, `Texture[TEX_a]`).
    #[serde(borrow)]
    pub key: Text<'a>,
    /// Kind (`sequence`, `chunk`, …).
    #[serde(borrow)]
    pub kind: Text<'a>,
    /// Whether the node is a member (an archive entry opened as its own document).
    pub member: bool,
    /// Address from the root (what `info FILE NODE` takes).
    #[serde(borrow)]
    pub path: NodePath<'a>,
    /// Start offset.
    pub start: u64,
    /// One-line summary.
    #[serde(borrow)]
    pub summary: Text<'a>,
}

/// [`Node::path`]: written straight from the document (no string made per line), read
/// back as text.
#[derive(Clone)]
pub enum NodePath<'a> {
    /// The path of a node of a document, written as it is serialised.
    Of(crate::model::PathDisplay<'a>),
    /// A path read back.
    Text(Text<'a>),
}

impl NodePath<'_> {
    /// The path as text.
    pub fn text(&self) -> Text<'_> {
        match self {
            NodePath::Of(p) => Cow::Owned(p.to_string()),
            NodePath::Text(t) => Cow::Borrowed(t),
        }
    }
}

impl std::fmt::Debug for NodePath<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.text(), f)
    }
}

impl Serialize for NodePath<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            NodePath::Of(p) => s.collect_str(p),
            NodePath::Text(t) => s.serialize_str(t),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for NodePath<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a node path")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Cow::Borrowed(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Cow::Owned(v.to_string()))
            }
        }
        d.deserialize_str(Visit).map(NodePath::Text)
    }
}

impl<'a> Node<'a> {
    /// The wire form of `n` at `depth`, with its fields when `with_fields`.
    pub fn new(doc: &'a Document, n: &'a ModelNode, depth: usize, with_fields: bool) -> Node<'a> {
        Node {
            alias: n.alias_of.is_some(),
            anim: n.anim.as_deref().map(Cow::Borrowed),
            children: n.children.len() as u64,
            depth: depth as u64,
            end: n.span.end,
            fields: with_fields.then(|| n.fields.iter().map(Field::new).collect()),
            key: Cow::Borrowed(&n.key),
            kind: Cow::Borrowed(&n.kind),
            member: n.member.is_some(),
            path: NodePath::Of(doc.path_display(n.id)),
            start: n.span.start,
            summary: Cow::Borrowed(&n.summary),
        }
    }
}

/// A field: name, byte range, value.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field<'a> {
    /// First bit, for a bit field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bit_start: Option<u64>,
    /// Width in bits, for a bit field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<u32>,
    /// End offset (exclusive).
    pub end: u64,
    /// Field name.
    #[serde(borrow)]
    pub name: Text<'a>,
    /// A note (why a value is distrusted, which user layout labelled it).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub note: Option<Text<'a>>,
    /// Start offset.
    pub start: u64,
    /// True when a user layout (`--layouts`) labelled the field.
    #[serde(default, skip_serializing_if = "is_false")]
    pub user_layout: bool,
    /// The value.
    #[serde(borrow)]
    pub value: ValueJson<'a>,
}

impl<'a> Field<'a> {
    /// The wire form of `f`.
    pub fn new(f: &'a ModelField) -> Field<'a> {
        Field {
            bit_start: f.bits.map(|b| b.start_bit),
            bits: f.bits.map(|b| b.bits),
            end: f.span.end,
            name: Cow::Borrowed(&f.name),
            note: f.note.as_deref().map(Cow::Borrowed),
            start: f.span.start,
            user_layout: f.note.is_some() && f.is_user_layout(),
            value: ValueJson::new(&f.value),
        }
    }
}

/// A value: the stored number, its display text and its meaning.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueJson<'a> {
    /// As the fields pane shows it.
    #[serde(borrow)]
    pub display: Text<'a>,
    /// What it means, when known (`null` when nothing is said).
    #[serde(borrow)]
    pub meaning: Option<MeaningJson<'a>>,
    /// The stored value.
    #[serde(borrow)]
    pub raw: RawJson<'a>,
}

impl<'a> ValueJson<'a> {
    /// The wire form of `v`.
    pub fn new(v: &'a Value) -> ValueJson<'a> {
        let raw = match &v.raw {
            Raw::U { v, .. } | Raw::Dec(v) | Raw::Bits { v, .. } => RawJson::Unsigned(*v),
            Raw::I { v, .. } => RawJson::Signed(*v),
            Raw::F16(b) => RawJson::Unsigned(u64::from(*b)),
            Raw::F32(b) => RawJson::Float(f32::from_bits(*b)),
            Raw::Text(t) => RawJson::Text(Cow::Owned(crate::model::escape_text(t))),
            Raw::Bytes(n) => RawJson::Bytes(BytesLen { bytes: *n }),
            Raw::Derived(s) => RawJson::Text(Cow::Borrowed(s)),
        };
        let meaning = v.meaning.as_ref().map(|m| match m {
            ModelMeaning::Label(s) => MeaningJson::Label(Label { label: Cow::Borrowed(s) }),
            ModelMeaning::Ref(s) => MeaningJson::Ref(Ref { target: Cow::Borrowed(s) }),
            ModelMeaning::Number { value, unit } => {
                MeaningJson::Number(Number { unit: Cow::Borrowed(unit), value: *value })
            }
            ModelMeaning::Flags(f) => {
                MeaningJson::Flags(Flags { flags: f.iter().map(|s| Cow::Borrowed(&**s)).collect() })
            }
            ModelMeaning::Unknown => MeaningJson::Unknown(UnknownWord::Unknown),
        });
        ValueJson { display: Cow::Owned(v.to_string()), meaning, raw }
    }
}

/// A stored value: a number, text (escaped), or `{"bytes": N}` for opaque bytes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RawJson<'a> {
    /// An unsigned integer (also a half float's bits).
    Unsigned(u64),
    /// A signed integer.
    Signed(i64),
    /// A single float.
    Float(f32),
    /// Text, with bytes that are not printable UTF-8 escaped.
    #[serde(borrow)]
    Text(Text<'a>),
    /// Opaque bytes: their length.
    Bytes(BytesLen),
}

/// `{"bytes": N}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BytesLen {
    /// Length.
    pub bytes: u64,
}

/// A meaning: `"unknown"`, `{label}`, `{ref}`, `{unit, value}` or `{flags}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MeaningJson<'a> {
    /// Known not to be understood.
    Unknown(UnknownWord),
    /// A name for an enumerated value.
    #[serde(borrow)]
    Label(Label<'a>),
    /// A reference to another object.
    #[serde(borrow)]
    Ref(Ref<'a>),
    /// A scaled number with its unit.
    #[serde(borrow)]
    Number(Number<'a>),
    /// Set flags by name.
    #[serde(borrow)]
    Flags(Flags<'a>),
}

/// The word `"unknown"`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub enum UnknownWord {
    /// `"unknown"`.
    #[serde(rename = "unknown")]
    Unknown,
}

/// `{"label": …}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label<'a> {
    /// The name.
    #[serde(borrow)]
    pub label: Text<'a>,
}

/// `{"ref": …}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ref<'a> {
    /// What it refers to.
    #[serde(rename = "ref", borrow)]
    pub target: Text<'a>,
}

/// `{"unit": …, "value": …}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Number<'a> {
    /// Unit (`m`, `deg`, or empty).
    #[serde(borrow)]
    pub unit: Text<'a>,
    /// The converted value.
    pub value: f64,
}

/// `{"flags": [...]}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flags<'a> {
    /// Names of the set flags.
    #[serde(borrow)]
    pub flags: Vec<Text<'a>>,
}

/// One step of `walk --json`, numbered from 1.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalkStep<'a> {
    /// The decision in words.
    #[serde(borrow)]
    pub detail: Text<'a>,
    /// End of the bytes read (exclusive).
    pub end: u64,
    /// Where the walk goes next, if it continues.
    pub next: Option<u64>,
    /// The address of the node this step produced, if any.
    #[serde(borrow)]
    pub node: Option<Text<'a>>,
    /// Start of the bytes read.
    pub start: u64,
    /// Step number, from 1.
    pub step: u64,
    /// What was read.
    #[serde(borrow)]
    pub what: Text<'a>,
}

impl<'a> WalkStep<'a> {
    /// The wire form of step number `step`, `s`, of `doc`.
    pub fn new(doc: &Document, s: &'a crate::model::WalkStep, step: u64) -> WalkStep<'a> {
        WalkStep {
            detail: Cow::Borrowed(&s.detail),
            end: s.span.end,
            next: s.next,
            node: s.node.map(|n| Cow::Owned(doc.path(n))),
            start: s.span.start,
            step,
            what: Cow::Borrowed(&s.what),
        }
    }
}

/// A finding of `survey --json` (in [`SurveyLine::findings`]), and with the file it is
/// in, a line of `check --json` ([`CheckFinding`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finding<'a> {
    /// The input as given (outer members joined by `/`): on `check --json` lines only.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub file: Option<Text<'a>>,
    /// What is wrong, lowercase.
    #[serde(borrow)]
    pub message: Text<'a>,
    /// Absolute offset it refers to, if any.
    pub offset: Option<u64>,
    /// Structure path (may be empty).
    #[serde(borrow)]
    pub path: Text<'a>,
    /// `error`, `warning` or `info`.
    #[serde(borrow)]
    pub severity: Text<'a>,
}

impl<'a> Finding<'a> {
    /// The wire form of `d`.
    pub fn new(d: &'a Diagnostic) -> Finding<'a> {
        Finding {
            file: None,
            message: Cow::Borrowed(&d.message),
            offset: d.offset,
            path: Cow::Borrowed(&d.path),
            severity: Cow::Owned(d.severity.to_string()),
        }
    }

    /// The wire form of `d`, found in `file`: a line of `check --json`.
    pub fn in_file(file: &'a str, d: &'a Diagnostic) -> Finding<'a> {
        Finding { file: Some(Cow::Borrowed(file)), ..Finding::new(d) }
    }
}

/// A line of `check --json`: one finding and the file it is in (`file` always given).
pub type CheckFinding<'a> = Finding<'a>;

/// A line of `survey --json`: one input's counters and findings (the last line: the totals).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SurveyLine<'a> {
    /// Named counters (`clips`, `chunks.Texture`, …).
    pub counters: BTreeMap<Text<'a>, u64>,
    /// Problems found.
    #[serde(borrow)]
    pub findings: Vec<Finding<'a>>,
    /// Format id.
    #[serde(borrow)]
    pub format: Text<'a>,
    /// The input as given.
    #[serde(borrow)]
    pub name: Text<'a>,
}

impl<'a> SurveyLine<'a> {
    /// The wire form of `s`.
    pub fn new(s: &'a crate::formats::Survey) -> SurveyLine<'a> {
        SurveyLine {
            counters: s.counters.iter().map(|(k, v)| (Cow::Borrowed(k.as_str()), *v)).collect(),
            findings: s.findings.iter().map(Finding::new).collect(),
            format: Cow::Borrowed(s.format),
            name: Cow::Borrowed(&s.name),
        }
    }
}

/// `decode --json`: a decoded clip, its tables and its tracks with every frame's sample.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decode<'a> {
    /// Logical frames per second.
    pub fps: f64,
    /// Logical frames sampled (every track has this many samples).
    pub frame_count: u64,
    /// Clip name.
    #[serde(borrow)]
    pub name: Text<'a>,
    /// Notes shown with the clip.
    #[serde(borrow)]
    pub notes: Vec<Text<'a>>,
    /// Stored data as tables.
    #[serde(borrow)]
    pub tables: Vec<Table<'a>>,
    /// Scalar channels.
    #[serde(borrow)]
    pub tracks: Vec<Track<'a>>,
}

/// A table of `decode --json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table<'a> {
    /// Column headings.
    #[serde(borrow)]
    pub columns: Vec<Text<'a>>,
    /// Title.
    #[serde(borrow)]
    pub name: Text<'a>,
    /// Rows of cells.
    #[serde(borrow)]
    pub rows: Vec<Vec<Text<'a>>>,
}

/// A track of `decode --json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Track<'a> {
    /// Stored keys.
    #[serde(borrow)]
    pub keys: Vec<Key<'a>>,
    /// Channel name.
    #[serde(borrow)]
    pub name: Text<'a>,
    /// Value at every logical frame.
    pub samples: Vec<f64>,
    /// What it moves.
    #[serde(borrow)]
    pub target: Text<'a>,
    /// Unit of keys and samples.
    #[serde(borrow)]
    pub unit: Text<'a>,
    /// True when the scaling is unknown and values are raw words.
    pub unknown: bool,
}

/// A stored key of `decode --json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Key<'a> {
    /// Format detail, as is.
    #[serde(borrow)]
    pub detail: Text<'a>,
    /// Position in logical frames.
    pub frame: f64,
    /// Value in the track's unit.
    pub value: f64,
}

impl<'a> Decode<'a> {
    /// The wire form of a clip whose tracks and tables are stored (not made on demand;
    /// `decode --json` itself streams those, with the same bytes).
    pub fn new(c: &'a crate::model::anim::Clip) -> Decode<'a> {
        Decode {
            fps: c.fps,
            frame_count: c.frame_count as u64,
            name: Cow::Borrowed(&c.name),
            notes: texts(&c.notes),
            tables: c
                .tables
                .iter()
                .map(|t| Table {
                    columns: texts(&t.columns),
                    name: Cow::Borrowed(&t.name),
                    rows: t.rows.iter().map(|r| texts(r)).collect(),
                })
                .collect(),
            tracks: c
                .tracks
                .iter()
                .map(|t| Track {
                    keys: t
                        .keys
                        .iter()
                        .map(|k| Key { detail: Cow::Borrowed(&k.detail), frame: k.frame, value: k.value })
                        .collect(),
                    name: Cow::Borrowed(&t.name),
                    samples: t.samples.clone(),
                    target: Cow::Borrowed(&t.target),
                    unit: Cow::Owned(t.unit.to_string()),
                    unknown: t.unknown,
                })
                .collect(),
        }
    }
}

/// A byte range on one side of a diff.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpanJson {
    /// End (exclusive).
    pub end: u64,
    /// Start.
    pub start: u64,
}

impl From<crate::model::Span> for SpanJson {
    fn from(s: crate::model::Span) -> SpanJson {
        SpanJson { end: s.end, start: s.start }
    }
}

/// A line of `diff --json`: one change. Which optional keys it has depends on `change`:
/// `bytes` has `fields` (and `new_kind`), `alias` has `old`/`new`, `anim` has `anim`
/// (and `aliases` on the unit's own line), `unreadable` has `side`/`message`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Change<'a> {
    /// The node's range in A (`null` when only in B).
    pub a: Option<SpanJson>,
    /// The other names of a changed animation.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub aliases: Option<Vec<Text<'a>>>,
    /// How the animation decodes differently.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub anim: Option<AnimChange<'a>>,
    /// The node's range in B (`null` when only in A).
    pub b: Option<SpanJson>,
    /// `only_in_a`, `only_in_b`, `bytes`, `alias`, `anim` or `unreadable`.
    #[serde(borrow)]
    pub change: Text<'a>,
    /// Fields that differ (`bytes`).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<FieldChange<'a>>>,
    /// Node kind.
    #[serde(borrow)]
    pub kind: Text<'a>,
    /// What failed (`unreadable`).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub message: Option<Text<'a>>,
    /// What B's node is an alias of (`alias`; the inner `null`: of nothing).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub new: Option<Option<Text<'a>>>,
    /// B's kind when it differs (`bytes`).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub new_kind: Option<Text<'a>>,
    /// What A's node is an alias of (`alias`).
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub old: Option<Option<Text<'a>>>,
    /// Address of the node.
    #[serde(borrow)]
    pub path: Text<'a>,
    /// Which side failed (`unreadable`): `A`, `B` or `A and B`.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub side: Option<Text<'a>>,
}

impl<'a> Change<'a> {
    /// The wire form of `c`.
    pub fn new(c: &'a diff::Change) -> Change<'a> {
        let mut j = Change {
            a: c.a.map(SpanJson::from),
            aliases: None,
            anim: None,
            b: c.b.map(SpanJson::from),
            change: Cow::Borrowed(c.what.name()),
            fields: None,
            kind: Cow::Borrowed(&c.kind),
            message: None,
            new: None,
            new_kind: None,
            old: None,
            path: Cow::Borrowed(&c.path),
            side: None,
        };
        match &c.what {
            diff::What::OnlyInA | diff::What::OnlyInB => {}
            diff::What::Bytes { new_kind, fields } => {
                j.new_kind = new_kind.as_deref().map(Cow::Borrowed);
                j.fields = Some(
                    fields
                        .iter()
                        .map(|f| FieldChange {
                            name: Cow::Borrowed(&f.name),
                            new: f.new.as_deref().map(Cow::Borrowed),
                            old: f.old.as_deref().map(Cow::Borrowed),
                        })
                        .collect(),
                );
            }
            diff::What::Alias { old, new } => {
                j.old = Some(old.as_deref().map(Cow::Borrowed));
                j.new = Some(new.as_deref().map(Cow::Borrowed));
            }
            diff::What::Anim(a) => j.anim = Some(AnimChange::new(a)),
            diff::What::Unreadable { side, message } => {
                j.side = Some(Cow::Borrowed(side));
                j.message = Some(Cow::Borrowed(message));
            }
        }
        j
    }
}

/// A field that differs: its display text on each side (`null`: absent there).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldChange<'a> {
    /// Field name.
    #[serde(borrow)]
    pub name: Text<'a>,
    /// B's value.
    #[serde(borrow)]
    pub new: Option<Text<'a>>,
    /// A's value.
    #[serde(borrow)]
    pub old: Option<Text<'a>>,
}

/// How an animation decodes differently.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnimChange<'a> {
    /// Channels on both sides that differ.
    #[serde(borrow)]
    pub channels: Vec<ChannelChange<'a>>,
    /// Channels only A has.
    #[serde(borrow)]
    pub channels_only_in_a: Vec<Text<'a>>,
    /// Channels only B has.
    #[serde(borrow)]
    pub channels_only_in_b: Vec<Text<'a>>,
    /// Frame counts of A and B.
    pub frames: [u64; 2],
    /// Animation name.
    #[serde(borrow)]
    pub name: Text<'a>,
}

impl<'a> AnimChange<'a> {
    fn new(a: &'a diff::AnimChange) -> AnimChange<'a> {
        AnimChange {
            channels: a.channels.iter().map(ChannelChange::new).collect(),
            channels_only_in_a: texts(&a.channels_only_in_a),
            channels_only_in_b: texts(&a.channels_only_in_b),
            frames: [a.frames.0 as u64, a.frames.1 as u64],
            name: Cow::Borrowed(&a.name),
        }
    }
}

/// A channel present on both sides that differs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelChange<'a> {
    /// Keys that differ (the first only, unless `--keys`).
    pub key_changes: Vec<KeyChange>,
    /// Key counts of A and B.
    pub keys: [u64; 2],
    /// The frame whose samples differ most.
    pub largest: Option<Largest>,
    /// Channel name.
    #[serde(borrow)]
    pub name: Text<'a>,
}

impl<'a> ChannelChange<'a> {
    fn new(c: &'a diff::ChannelChange) -> ChannelChange<'a> {
        let key = |k: Option<diff::KeyAt>| k.map(|k| KeyAt { frame: k.frame, value: k.value });
        ChannelChange {
            key_changes: c
                .key_changes
                .iter()
                .map(|k| KeyChange { a: key(k.a), b: key(k.b), index: k.index as u64 })
                .collect(),
            keys: [c.keys.0 as u64, c.keys.1 as u64],
            largest: c.largest.map(|l| Largest { a: l.a, b: l.b, delta: l.delta(), frame: l.frame as u64 }),
            name: Cow::Borrowed(&c.name),
        }
    }
}

/// A key that differs: the key at this index on each side (`null`: none there).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyChange {
    /// A's key.
    pub a: Option<KeyAt>,
    /// B's key.
    pub b: Option<KeyAt>,
    /// Index among the channel's keys.
    pub index: u64,
}

/// A key's frame and value.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyAt {
    /// Logical frame.
    pub frame: f64,
    /// Value.
    pub value: f64,
}

/// The largest sample difference of a channel.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Largest {
    /// A's sample.
    pub a: f64,
    /// B's sample.
    pub b: f64,
    /// |b − a|.
    pub delta: f64,
    /// Logical frame.
    pub frame: u64,
}

/// The last line of `diff --json` and `diff --summary --json`: `{"summary": {...}}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummaryLine<'a> {
    /// The totals.
    #[serde(borrow)]
    pub summary: Summary<'a>,
}

/// The totals of a diff.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary<'a> {
    /// Changes reported, by `change`.
    #[serde(borrow)]
    pub by_change: BTreeMap<Text<'a>, u64>,
    /// Changes reported.
    pub changes: u64,
    /// Aligned nodes whose bytes differ only inside their children.
    pub containers: u64,
    /// Aligned nodes whose bytes are equal.
    pub identical: u64,
    /// The same by kind.
    #[serde(borrow)]
    pub identical_by_kind: BTreeMap<Text<'a>, u64>,
    /// Offset fields left out because only the offset changed.
    pub moved_pointers: u64,
}

impl<'a> SummaryLine<'a> {
    /// The wire form of `s`.
    pub fn new(s: &'a diff::Summary) -> SummaryLine<'a> {
        SummaryLine {
            summary: Summary {
                by_change: s.changes.iter().map(|(k, v)| (Cow::Borrowed(*k), *v)).collect(),
                changes: s.change_count(),
                containers: s.containers,
                identical: s.identical,
                identical_by_kind: s.identical_by_kind.iter().map(|(k, v)| (Cow::Borrowed(k.as_str()), *v)).collect(),
                moved_pointers: s.moved_pointers,
            },
        }
    }
}

/// A line of `diff --summary --json`: one changed unit (animation or top-level structure).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitLine<'a> {
    /// The other names of the unit's animation.
    #[serde(borrow)]
    pub aliases: Vec<Text<'a>>,
    /// The animation's change in counts, when it decodes differently.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anim: Option<UnitAnim>,
    /// Changes by `change`.
    #[serde(borrow)]
    pub by_change: BTreeMap<Text<'a>, u64>,
    /// Changes in the unit.
    pub changes: u64,
    /// The unit's kind.
    #[serde(borrow)]
    pub kind: Text<'a>,
    /// The unit's address.
    #[serde(borrow)]
    pub unit: Text<'a>,
}

/// [`UnitLine::anim`]: frame counts and channel counts.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitAnim {
    /// Channels on both sides that differ.
    pub channels_changed: u64,
    /// Channels only A has.
    pub channels_only_in_a: u64,
    /// Channels only B has.
    pub channels_only_in_b: u64,
    /// Frame counts of A and B.
    pub frames: [u64; 2],
}

/// Each line type prints as its one line of JSON (`{}` in `writeln!`).
macro_rules! display_as_json {
    ($($t:ident),*) => {$(
        impl std::fmt::Display for $t<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&serde_json::to_string(self).map_err(|_| std::fmt::Error)?)
            }
        }
    )*};
}
display_as_json!(Info, Node, WalkStep, Decode, SurveyLine, Finding, Change, SummaryLine, UnitLine);
