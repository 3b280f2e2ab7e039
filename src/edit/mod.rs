//! Write-back (`animscope set`): typed field edits and raw byte edits of one node, pushed out
//! through every container the node is nested in, written to a new file all or nothing.
//!
//! The way: the node is resolved keeping the containers it is nested in
//! ([`Opened::resolve_nested`]); each `FIELD=VALUE` is encoded by the field's stored type
//! and meaning ([`value::encode`]) into the field's bytes; `--byte OFFSET=HEX` lays bytes
//! at offsets of the node's document. The changed bytes go back through the containers
//! from the inside out ([`crate::formats::Parsed::rebuild`]), and the outermost container's
//! pieces are written to a temp file beside the output. That file is opened again: the
//! node is resolved in it, every edited field must read back as asked, and its `check` may
//! not find anything the original's did not (unless forced). Only then is it renamed onto
//! the output. The input is opened read-only and never written; an output that is the
//! input (same path or same file) is refused.
//!
//! Memory: the edited member, every container's new pieces and every rebuilt container
//! nested in another are spent from one [`Budget`] (what the enclosing documents left of
//! `--limit memory=`) while they are held; the outermost file is written from its pieces,
//! its kept ranges copied from the input.
//!
//! Unknown: whether a game keeps its own table of an archive's member offsets elsewhere
//! (such a table is not updated when `--grow` moves members; the output says so).

pub mod value;

use crate::formats::{self, RebuildOptions, Spliced};
use crate::limits::{Budget, Charge, Limits};
use crate::model::{Diagnostic, Document, Field, NodeId, Raw, Severity, Span, Value, sanitize};
use crate::session::{OpenError, Opened};
use crate::source::{OpenOptions, Source};
use std::path::Path;
use std::sync::Arc;

/// `FIELD=VALUE`: a field of the node and the value it is to hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldEdit {
    /// The field's name as `fields` shows it.
    pub field: String,
    /// The value as typed.
    pub value: String,
}

impl FieldEdit {
    /// Parse `FIELD=VALUE` (split at the first `=`).
    pub fn parse(s: &str) -> Result<FieldEdit, String> {
        match s.split_once('=') {
            Some((f, v)) if !f.trim().is_empty() => Ok(FieldEdit { field: f.trim().to_string(), value: v.to_string() }),
            _ => Err(format!("{}: expected FIELD=VALUE", sanitize(s))),
        }
    }
}

/// `--byte OFFSET=HEX`: bytes laid at an offset of the node's document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteEdit {
    /// Offset in the document the node is in (a member's own offsets inside a member).
    pub offset: u64,
    /// The bytes.
    pub bytes: Vec<u8>,
}

impl ByteEdit {
    /// Parse `OFFSET=HEX`: the offset as `0x150` or `336`, the bytes as hex digits
    /// (spaces allowed between pairs).
    pub fn parse(s: &str) -> Result<ByteEdit, String> {
        let bad = |why: &str| format!("--byte {}: {why}", sanitize(s));
        let (o, h) = s.split_once('=').ok_or_else(|| bad("expected OFFSET=HEX"))?;
        let offset = crate::session::parse_offset(o).ok_or_else(|| bad("the offset is not a number"))?;
        let digits: Vec<u8> = h.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
        if digits.is_empty() || !digits.len().is_multiple_of(2) {
            return Err(bad("expected an even number of hex digits"));
        }
        let hex = |c: u8| char::from(c).to_digit(16).map(|d| d as u8);
        let bytes = digits
            .chunks(2)
            .map(|p| match p {
                [a, b] => Some(hex(*a)? << 4 | hex(*b)?),
                _ => None,
            })
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(|| bad("not hex digits"))?;
        Ok(ByteEdit { offset, bytes })
    }
}

/// What `set` is asked to do.
#[derive(Debug, Clone, Copy)]
pub struct SetRequest<'a> {
    /// The input file (never written).
    pub input: &'a Path,
    /// The node's address (see the CLI's NODE ADDRESSES).
    pub node: &'a str,
    /// Field edits, applied in order.
    pub fields: &'a [FieldEdit],
    /// Raw byte edits, applied after the field edits.
    pub bytes: &'a [ByteEdit],
    /// The output file.
    pub out: &'a Path,
    /// A member that no longer fits its extent may grow, moving later members.
    pub grow: bool,
    /// Write even when the written file's check finds what the original's did not.
    pub force: bool,
    /// Replace an existing output file.
    pub overwrite: bool,
    /// Read the output back without mapping it.
    pub no_mmap: bool,
}

/// One change made.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Path of the node (outer inputs, then the document path).
    pub path: String,
    /// The field's name, or `bytes @0xOFF` for a raw edit.
    pub what: String,
    /// The value before, as shown.
    pub old: String,
    /// The value after, as the written file shows it.
    pub new: String,
    /// Bytes of the node's document that changed.
    pub span: Span,
}

/// What `set` did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SetReport {
    /// Every change, in the order asked.
    pub changes: Vec<Change>,
    /// What the containers said (members moved, tables elsewhere not updated).
    pub notes: Vec<String>,
    /// Bytes written.
    pub written: u64,
    /// Findings of the written file the original has not, written anyway (`force`).
    pub new_findings: Vec<Diagnostic>,
}

/// Why `set` wrote nothing: one line, naming the file, node and field where it can.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// Opening or addressing failed.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The edit was refused (a bad value, a member that does not fit).
    #[error("{0}")]
    Refused(String),
    /// The written file's check found what the original's did not; nothing was written
    /// (`force` writes it anyway).
    #[error("{0}")]
    NewFindings(String),
}

/// One field edit resolved: where, what it was, what it becomes.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The field as it was.
    pub field: Field,
    /// Its new bytes and the value they hold.
    pub encoded: value::Encoded,
}

/// Run `set`: see the module docs. `top` is the input as opened (with any user layouts).
pub fn set(top: Opened, req: &SetRequest<'_>) -> Result<SetReport, EditError> {
    refuse_same_file(req.input, req.out)?;
    let limits = *top.limits();
    let refuse = |m: String| EditError::Refused(m);
    let file = req.input.display().to_string();
    // what the original's check finds, to tell the written file's new findings from them
    let before = top.check(&limits).map_err(|e| refuse(format!("{file}: the input does not check: {e}")))?;
    let top_root = top.doc().root().key.to_string();
    let (chain, mut leaf, id) = top.resolve_nested(req.node, &limits)?;
    leaf.doc_mut().expand(id);
    let node_path = nested_path(&chain, &leaf, id);
    let at = |what: &str| located(&file, &node_path, what);
    if let Some(b) = leaf.doc().budget_exceeded() {
        return Err(refuse(format!("{}: {}", at(""), b.error())));
    }
    let original = Arc::clone(leaf.source());
    let mut patches: Vec<(u64, Vec<u8>)> = Vec::new();
    let mut planned = Vec::new();
    let named = |f: &str, span: Option<Span>| match span {
        Some(s) => field_named(f, s),
        None => f.to_string(),
    };
    for e in req.fields {
        let p = plan_field(&leaf, id, e, &original, &patches, &limits)
            .map_err(|(span, m)| refuse(format!("{}: {m}", at(&named(&e.field, span)))))?;
        patches.push((p.field.span.start, p.encoded.bytes.clone()));
        planned.push(p);
    }
    if !planned.is_empty() && !req.force {
        fields_keep_the_check(&leaf, &original, &patches, &planned, req.fields, &limits)
            .map_err(|(f, span, m)| refuse(format!("{}: {m}", at(&named(&f, Some(span))))))?;
    }
    for b in req.bytes {
        byte_edit_fits(b, &original).map_err(|m| refuse(format!("{}: {m}", at("bytes"))))?;
        patches.push((b.offset, b.bytes.clone()));
    }
    if patches.is_empty() {
        return Err(refuse(format!("{}: nothing to change (give FIELD=VALUE or --byte OFFSET=HEX)", at(""))));
    }
    let flat = flatten(&patches);
    let Pushed { spliced, source, format, notes, held } =
        push_out(chain, &leaf, flat, req).map_err(|m| refuse(format!("{}: {m}", at(""))))?;
    drop(leaf);
    let out = req.out.display().to_string();
    let (set, written, tmp) =
        stage_output(req.out, req.overwrite, limits.max_output, &spliced, &source).map_err(refuse)?;
    let after = Opened::open_path(&tmp, OpenOptions { no_mmap: req.no_mmap }, Some(format), &limits)
        .map_err(|e| refuse(format!("{out}: the written file does not open: {e}")))?;
    let (changes, new_findings) = verify(after, &top_root, req, &planned, &before, &node_path, &limits)
        .map_err(|m| refuse(format!("{out}: {m}; nothing written")))?;
    if !new_findings.is_empty() && !req.force {
        let first = new_findings.first().map(ToString::to_string).unwrap_or_default();
        return Err(EditError::NewFindings(format!(
            "{out}: the written file has {} finding(s) the original has not (first: {first}); nothing written \
             (--force writes it anyway)",
            new_findings.len()
        )));
    }
    set.commit().map_err(|e| refuse(format!("{out}: {e}")))?;
    drop(held);
    let mut changes = changes;
    for b in req.bytes {
        changes.push(Change {
            path: node_path.clone(),
            what: format!("bytes @0x{:x}", b.offset),
            old: hex(original.bytes().get(range(Span::at(b.offset, b.bytes.len() as u64))).unwrap_or_default()),
            new: hex(&b.bytes),
            span: Span::at(b.offset, b.bytes.len() as u64),
        });
    }
    Ok(SetReport { changes, notes, written, new_findings })
}

/// Where an edit's message is about: `FILE: NODE` or `FILE: NODE: WHAT` (the node's path
/// and `WHAT` sanitised), as every refusal of `set` starts; the TUI's edits say the same.
pub fn located(file: &str, node_path: &str, what: &str) -> String {
    match what {
        "" => format!("{file}: {}", sanitize(node_path)),
        _ => format!("{file}: {}: {}", sanitize(node_path), sanitize(what)),
    }
}

/// A raw byte edit must lie inside the bytes of its document (`source`): else why not.
pub fn byte_edit_fits(b: &ByteEdit, source: &Source) -> Result<(), String> {
    let end = b.offset.checked_add(b.bytes.len() as u64).filter(|e| *e <= source.len());
    match end {
        Some(_) => Ok(()),
        None => Err(format!(
            "--byte 0x{:x}: {} bytes pass the end of {} (0x{:x} bytes)",
            b.offset,
            b.bytes.len(),
            sanitize(source.name()),
            source.len()
        )),
    }
}

/// The node's address from the outermost input's root, through every member (each
/// member's root key standing for it once): an address `set` and `fields` take.
fn nested_path(chain: &crate::session::Nesting, leaf: &Opened, id: NodeId) -> String {
    let mut parts: Vec<String> = Vec::new();
    let docs = chain.iter().map(|(o, n)| (o.doc(), *n)).chain(std::iter::once((leaf.doc(), id)));
    for (i, (doc, n)) in docs.enumerate() {
        let p = doc.path(n);
        let p = if i == 0 { p } else { relative(&p) };
        if !p.is_empty() {
            parts.push(p);
        }
    }
    parts.join("/")
}

/// A path without its first segment (the root's key).
fn relative(p: &str) -> String {
    p.split_once('/').map_or(String::new(), |(_, rest)| rest.to_string())
}

/// `r` as a slice range of the bytes (empty when it does not fit `usize`).
fn range(s: Span) -> std::ops::Range<usize> {
    match (usize::try_from(s.start), usize::try_from(s.end)) {
        (Ok(a), Ok(b)) => a..b,
        _ => 0..0,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|c| format!("{c:02x}")).collect::<Vec<_>>().join(" ")
}

/// The output may not be the input: not the same path, not the same file under another
/// name (a hard link, a symlink).
pub fn refuse_same_file(input: &Path, out: &Path) -> Result<(), EditError> {
    use std::os::unix::fs::MetadataExt;
    let same = match (std::fs::metadata(input), std::fs::metadata(out)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    };
    if same || input == out {
        return Err(EditError::Refused(format!(
            "-o {}: that is the input {}; set never changes its input (write to another path)",
            out.display(),
            input.display()
        )));
    }
    Ok(())
}

/// The bytes of `span` of `original` with `patches` laid over them in order.
fn view(original: &Source, patches: &[(u64, Vec<u8>)], span: Span) -> Vec<u8> {
    let mut v = original.bytes().get(range(span)).unwrap_or_default().to_vec();
    for (at, bytes) in patches {
        for (i, b) in bytes.iter().enumerate() {
            let p = at + i as u64;
            if span.contains(p)
                && let Some(d) = v.get_mut(usize::try_from(p - span.start).unwrap_or(usize::MAX))
            {
                *d = *b;
            }
        }
    }
    v
}

/// Patches laid in order, as non-overlapping runs (a later edit of the same byte wins).
fn flatten(patches: &[(u64, Vec<u8>)]) -> Vec<(u64, Vec<u8>)> {
    let mut bytes: std::collections::BTreeMap<u64, u8> = std::collections::BTreeMap::new();
    for (at, b) in patches {
        for (i, c) in b.iter().enumerate() {
            bytes.insert(at + i as u64, *c);
        }
    }
    let mut out: Vec<(u64, Vec<u8>)> = Vec::new();
    for (p, c) in bytes {
        match out.last_mut() {
            Some((at, run)) if *at + run.len() as u64 == p => run.push(c),
            _ => out.push((p, vec![c])),
        }
    }
    out
}

/// The field edits' values must keep the leaf's check: a finding the leaf's bytes with the
/// edits have and the original's have not (a key frame past the sequence's end, frames out
/// of order) refuses the edit whose field holds the finding's offset (else the first), with
/// the finding's words. The leaf's edited copy is charged to its memory budget while held.
fn fields_keep_the_check(
    leaf: &Opened,
    original: &Arc<Source>,
    patches: &[(u64, Vec<u8>)],
    planned: &[Planned],
    asked: &[FieldEdit],
    limits: &Limits,
) -> Result<(), (String, Span, String)> {
    let format = leaf.format();
    let first = planned.first().map(|p| (p.field.name.clone(), p.field.span)).unwrap_or_default();
    let fail = |(name, span): (String, Span), m: String| (name, span, m);
    let before =
        format.check(original, limits).map_err(|e| fail(first.clone(), format!("the member does not check: {e}")))?;
    let _held = Budget::new(limits.max_memory)
        .reserve("the edited member's check", original.len(), 0)
        .map_err(|e| fail(first.clone(), e.to_string()))?;
    let all = view(original, patches, Span::new(0, original.len()));
    let after = format
        .check(&Source::from_vec(original.name(), all), limits)
        .map_err(|e| fail(first.clone(), format!("the edited bytes do not parse: {e}")))?;
    let Some(found) = new_findings(&before, &after).into_iter().next() else { return Ok(()) };
    let (i, p) = planned
        .iter()
        .enumerate()
        .find(|(_, p)| found.offset.is_some_and(|o| p.field.span.contains(o)))
        .or_else(|| planned.iter().enumerate().next())
        .ok_or_else(|| fail(first.clone(), String::new()))?;
    let value = asked.get(i).map(|e| e.value.as_str()).unwrap_or_default();
    Err(fail(
        (p.field.name.clone(), p.field.span),
        format!(
            "{} would make a finding the file has not ({}); nothing written (--force writes it anyway)",
            sanitize(value),
            sanitize(&found.to_string())
        ),
    ))
}

/// A refused field as `set` names it: `key[2] @0x1b4`, its offset in the node's document.
pub fn field_named(name: &str, span: Span) -> String {
    format!("{name} @0x{:x}", span.start)
}

/// The field `e` names on node `id` of `leaf`, and its new bytes; refused with the field's
/// span when there is one.
fn plan_field(
    leaf: &Opened,
    id: NodeId,
    e: &FieldEdit,
    original: &Arc<Source>,
    patches: &[(u64, Vec<u8>)],
    limits: &Limits,
) -> Result<Planned, (Option<Span>, String)> {
    let node = leaf.doc().node(id).ok_or((None, "the node is gone".to_string()))?;
    let hits: Vec<usize> = node.fields.iter().enumerate().filter(|(_, f)| f.name == e.field).map(|(i, _)| i).collect();
    match hits.as_slice() {
        [one] => plan_field_at(leaf, id, *one, &e.value, original, patches, limits)
            .map_err(|m| (node.fields.get(*one).map(|f| f.span), m)),
        [] => {
            let names: Vec<&str> = node.fields.iter().map(|f| f.name.as_str()).collect();
            let hint = crate::text::did_you_mean(&e.field, names.iter().copied())
                .map(|s| format!("did you mean {s}? "))
                .unwrap_or_default();
            Err((
                None,
                format!(
                    "no such field ({hint}fields: {})",
                    if names.is_empty() { "none".into() } else { names.join(", ") }
                ),
            ))
        }
        _ => Err((None, format!("{} fields have that name; edit them with --byte", hits.len()))),
    }
}

/// Field `index` of node `id` of `leaf` given the value `text` (typed as `set` takes it):
/// the field and its new bytes. The field's bytes are read from `original` with `patches`
/// laid over it; a scale or flag names the format knows are asked of it by re-reading the
/// document with another stored number. The error is the reason alone (callers say where,
/// see [`located`]).
pub fn plan_field_at(
    leaf: &Opened,
    id: NodeId,
    index: usize,
    text: &str,
    original: &Arc<Source>,
    patches: &[(u64, Vec<u8>)],
    limits: &Limits,
) -> Result<Planned, String> {
    let doc = leaf.doc();
    let node = doc.node(id).ok_or("the node is gone")?;
    let field = node.fields.get(index).ok_or("the field is gone")?;
    let current = view(original, patches, field.span);
    let names = enum_names(doc, &field.name);
    let rel = relative_path(doc, id);
    let stored = match field.value.raw {
        Raw::I { v, .. } => v as u64,
        Raw::F16(b) => u64::from(b),
        Raw::F32(b) => u64::from(b),
        _ => field.value.as_u64().unwrap_or(0),
    };
    let format = leaf.format();
    let name = field.name.clone();
    let mut probe = |raw: u64| -> Option<Value> {
        let bytes = value::raw_bytes(&current, stored, raw)?;
        let mut all = view(original, patches, Span::new(0, original.len()));
        all.get_mut(range(field.span))?.copy_from_slice(&bytes);
        let p = formats::open_as(format, Arc::new(Source::from_vec(original.name(), all)), limits).ok()?;
        let mut o = Opened::from_parsed(p, Vec::new());
        let n = o.doc_mut().find_path_expanding(&rel)?;
        o.doc().node(n)?.fields.get(index).filter(|f| f.name == name).map(|f| f.value.clone())
    };
    let encoded = value::encode(field, &current, text, &names, &mut probe)?;
    Ok(Planned { field: field.clone(), encoded })
}

/// The bytes of `original` with `patches` laid over them in order (a later patch of the
/// same byte wins): the edited copy of a whole document.
pub fn patched_copy(original: &Source, patches: &[(u64, Vec<u8>)]) -> Vec<u8> {
    view(original, patches, Span::new(0, original.len()))
}

/// The text an edit prompt starts with for `field` of `doc`: its value as shown, in the
/// form [`value::encode`] takes back (the number in the field's unit, the enum name, the
/// flag names, the text, else the stored integer).
pub fn prefill(doc: &Document, field: &Field) -> String {
    use crate::model::Meaning;
    if field.bits.is_some() {
        // a bit field takes the integer alone
        return field.value.as_u64().map_or_else(|| field.value.raw.to_string(), |v| v.to_string());
    }
    match (&field.value.meaning, &field.value.raw) {
        (Some(Meaning::Number { value, .. }), _) => crate::model::fmt_num(*value),
        (Some(Meaning::Label(l)), _) if enum_names(doc, &field.name).iter().any(|(n, _)| n == l) => l.clone(),
        (Some(Meaning::Flags(v)), _) => {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join("|")
            }
        }
        (_, Raw::Text(t)) if t.iter().all(|c| c.is_ascii_graphic() || *c == b' ') => {
            String::from_utf8_lossy(t).into_owned()
        }
        (_, raw) => raw.to_string(),
    }
}

/// The names the document shows for fields called `name` that carry an enum label, with
/// their stored values.
fn enum_names(doc: &Document, name: &str) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for f in doc.nodes.iter().flat_map(|n| n.fields.iter()).filter(|f| f.name == name) {
        if let (Some(crate::model::Meaning::Label(l)), Some(v)) = (&f.value.meaning, f.value.as_u64())
            && !out.iter().any(|(n, w)| n == l && *w == v)
        {
            out.push((l.clone(), v));
        }
    }
    // a name shown for several values names none of them
    let shared: Vec<String> =
        out.iter().filter(|(n, v)| out.iter().any(|(m, w)| m == n && w != v)).map(|(n, _)| n.clone()).collect();
    out.retain(|(n, _)| !shared.contains(n));
    out
}

/// The node's path without the root's key (the same in a copy of the bytes under another
/// name).
fn relative_path(doc: &Document, id: NodeId) -> String {
    relative(&doc.path(id))
}

/// The outermost input's new bytes as pieces of its bytes, its format, and what the
/// containers said.
pub struct Pushed {
    /// The outermost input's new bytes, as pieces of its original bytes.
    pub spliced: Spliced,
    /// The outermost input's bytes (what the kept pieces are read from).
    pub source: Arc<Source>,
    /// The outermost input's format.
    pub format: &'static str,
    /// What the containers said (members moved, tables elsewhere not updated).
    pub notes: Vec<String>,
    /// The new pieces' share of the memory budget, held until they are written.
    pub held: Charge,
}

/// Push the leaf's edits out through `chain` from the inside out: the outermost input's
/// pieces and bytes, and what the containers said.
fn push_out(
    chain: crate::session::Nesting,
    leaf: &Opened,
    patches: Vec<(u64, Vec<u8>)>,
    req: &SetRequest<'_>,
) -> Result<Pushed, String> {
    if chain.is_empty() {
        let spliced = Spliced::patched(leaf.source().len(), patches).map_err(|e| e.to_string())?;
        let held = Budget::new(leaf.limits().max_memory)
            .reserve("the edited bytes", spliced.held(), 0)
            .map_err(|e| e.to_string())?;
        return Ok(Pushed {
            spliced,
            source: Arc::clone(leaf.source()),
            format: leaf.format().id(),
            notes: Vec::new(),
            held,
        });
    }
    let source = leaf.source();
    let budget = Budget::new(leaf.limits().max_memory);
    let held = budget.reserve("the edited member", source.len(), 0).map_err(|e| e.to_string())?;
    let mut bytes = source.bytes().to_vec();
    for (at, b) in &patches {
        if let Some(d) = bytes.get_mut(range(Span::at(*at, b.len() as u64))) {
            d.copy_from_slice(b);
        }
    }
    push_member(chain, leaf, bytes, &budget, held, req.grow)
}

/// Write `spliced` (over `source`) to the temp file of `out`, refused when `out` exists
/// and `overwrite` is off: the output set (its commit keeps the file), the bytes written
/// and the temp file's path, to re-open and check before the commit.
pub fn stage_output(
    out: &Path,
    overwrite: bool,
    max_output: u64,
    spliced: &Spliced,
    source: &Arc<Source>,
) -> Result<(crate::export::stream::OutputSet, u64, std::path::PathBuf), String> {
    let shown = out.display().to_string();
    let mut set = crate::export::stream::OutputSet::new(overwrite);
    set.check(out).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => format!("{shown} exists (--overwrite replaces it)"),
        _ => format!("{shown}: {e}"),
    })?;
    let written =
        set.add_writer(out, max_output, &mut |w| spliced.write_to(source, w)).map_err(|e| format!("{shown}: {e}"))?;
    let tmp = set.pending(out).map(Path::to_path_buf).ok_or_else(|| format!("{shown}: not written"))?;
    Ok((set, written, tmp))
}

/// Replace the leaf's bytes with `bytes` (its whole new document, e.g. a bank with one
/// clip re-encoded) and push them out through `chain` from the inside out: the outermost
/// input's pieces, its bytes and what the containers said. `bytes` are charged to the
/// leaf's memory budget while they are held.
pub fn push_whole(chain: crate::session::Nesting, leaf: &Opened, bytes: Vec<u8>, grow: bool) -> Result<Pushed, String> {
    let budget = Budget::new(leaf.limits().max_memory);
    let held = budget.reserve("the new member bytes", bytes.len() as u64, 0).map_err(|e| e.to_string())?;
    if chain.is_empty() {
        let len = leaf.source().len();
        let spliced = Spliced::replace(len, Span::new(0, len), bytes, Vec::new()).map_err(|e| e.to_string())?;
        return Ok(Pushed {
            spliced,
            source: Arc::clone(leaf.source()),
            format: leaf.format().id(),
            notes: Vec::new(),
            held,
        });
    }
    push_member(chain, leaf, bytes, &budget, held, grow)
}

/// The member `bytes` (held under `held`) pushed out through a non-empty `chain`.
fn push_member(
    chain: crate::session::Nesting,
    leaf: &Opened,
    mut bytes: Vec<u8>,
    budget: &Budget,
    mut held: Charge,
    grow: bool,
) -> Result<Pushed, String> {
    let _ = leaf;
    let opts = RebuildOptions { grow };
    let mut notes = Vec::new();
    let Some((outermost, _)) = chain.first() else { return Err("no container to write".into()) };
    let format = outermost.format().id();
    // Everything the write holds at once is spent from one account: what the enclosing
    // documents left of the memory budget. The member's bytes, each container's new
    // pieces and each nested container made whole; a level's bytes are given back once the
    // container holding them is made.
    for (depth, (parent, node)) in chain.iter().enumerate().rev() {
        let name = parent.doc().path(*node);
        let rebuild = parent.rebuild().ok_or_else(|| {
            format!("{} cannot put a changed member back ({})", parent.format().id(), sanitize(&name))
        })?;
        let s = rebuild.replace_member(*node, &bytes, &opts, parent.limits()).map_err(|e| e.to_string())?;
        let pieces = budget.reserve("the rebuilt container's new bytes", s.held(), 0).map_err(|e| e.to_string())?;
        notes.extend(s.notes.iter().cloned());
        if depth == 0 {
            return Ok(Pushed { spliced: s, source: Arc::clone(parent.source()), format, notes, held: pieces });
        }
        let whole = budget.reserve("the rebuilt container", s.len(), 0).map_err(|e| e.to_string())?;
        bytes = s.to_vec(parent.source(), parent.limits()).map_err(|e| e.to_string())?;
        drop(pieces);
        held = whole;
    }
    drop(held);
    Err("no container to write".into())
}

/// Read the written file back: each edited field must read as encoded, and its check may
/// not find what the original's did not. Returns the changes as the file shows them and
/// the new findings.
fn verify(
    mut after: Opened,
    top_root: &str,
    req: &SetRequest<'_>,
    planned: &[Planned],
    before: &[Diagnostic],
    node_path: &str,
    limits: &Limits,
) -> Result<(Vec<Change>, Vec<Diagnostic>), String> {
    // the temp file's name is not the input's: paths are read with the input's root key
    if let Some(root) = after.doc_mut().node_mut(NodeId::ROOT) {
        root.key = top_root.into();
    }
    let found = after.check(limits).map_err(|e| format!("the written file does not check: {e}"))?;
    let new_findings = new_findings(before, &found);
    let (_, mut leaf, id) = after.resolve_nested(req.node, limits).map_err(|e| format!("the node is gone: {e}"))?;
    leaf.doc_mut().expand(id);
    let doc = leaf.doc();
    let node = doc.node(id).ok_or("the node is gone")?;
    let mut changes = Vec::new();
    for p in planned {
        let f = node.fields.iter().find(|f| f.name == p.field.name && f.span == p.field.span);
        let Some(f) = f else { return Err(format!("{}: the field is gone after the edit", p.field.name)) };
        let ok = match p.encoded.shown {
            Some((want, tol)) => match &f.value.meaning {
                Some(crate::model::Meaning::Number { value, .. }) => (value - want).abs() <= tol,
                _ => false,
            },
            None => f.value.raw == p.encoded.raw,
        };
        if !ok {
            return Err(format!(
                "{}: reads back as {}, not as asked (the format derives it from more than its bytes)",
                sanitize(&p.field.name),
                sanitize(&f.value.to_string())
            ));
        }
        changes.push(Change {
            path: node_path.to_string(),
            what: p.field.name.clone(),
            old: p.field.value.to_string(),
            new: f.value.to_string(),
            span: p.field.span,
        });
    }
    Ok((changes, new_findings))
}

/// Findings of `after` that `before` has not: compared by severity and message (offsets
/// and the file's name differ between the two), each of `before` matching once.
pub fn new_findings(before: &[Diagnostic], after: &[Diagnostic]) -> Vec<Diagnostic> {
    let key = |d: &Diagnostic| (d.severity, d.message.clone());
    let mut left: Vec<(Severity, String)> = before.iter().map(key).collect();
    let mut out = Vec::new();
    for d in after.iter().filter(|d| d.severity >= Severity::Warning) {
        match left.iter().position(|k| *k == key(d)) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => out.push(d.clone()),
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn edits_parse() {
        assert_eq!(
            FieldEdit::parse("frame_count=12").unwrap(),
            FieldEdit { field: "frame_count".into(), value: "12".into() }
        );
        assert_eq!(FieldEdit::parse("name=a=b").unwrap().value, "a=b");
        assert!(FieldEdit::parse("=3").is_err());
        assert_eq!(ByteEdit::parse("0x10=ab CD").unwrap(), ByteEdit { offset: 16, bytes: vec![0xab, 0xcd] });
        assert!(ByteEdit::parse("16=abc").is_err());
        assert!(ByteEdit::parse("16=zz").is_err());
        assert!(ByteEdit::parse("x=00").is_err());
    }

    /// What an edit prompt starts with reads back as the value shown: the number in the
    /// field's unit, the flag names, the text, the integer of a bit field.
    #[test]
    fn prefill_is_the_value_as_shown() {
        use crate::model::{BitSpan, Value};
        let doc = Document::new("raw", "x", "file", 16, &Limits::default());
        let f = |v: Value| Field::new("f", Span::new(0, 2), v);
        assert_eq!(prefill(&doc, &f(Value::int(0x4000, 2).number(90.0, "deg"))), "90.0");
        assert_eq!(prefill(&doc, &f(Value::uint(9, 1).flags(vec!["FTEXT".into(), "FNAME".into()]))), "FTEXT|FNAME");
        assert_eq!(prefill(&doc, &f(Value::uint(0, 1).flags(Vec::new()))), "none");
        assert_eq!(prefill(&doc, &f(Value::text(b"AB"))), "AB");
        assert_eq!(prefill(&doc, &f(Value::int(-160, 2))), "-160");
        assert_eq!(prefill(&doc, &f(Value::uint(0x0300, 2))), "0x0300");
        // a label the document does not show for a field of that name: the number
        assert_eq!(prefill(&doc, &f(Value::uint(3, 1).label("Texture"))), "0x03");
        let b = Field::bits("q", BitSpan { start_bit: 4, bits: 6 }, Value::bits(42, 6));
        assert_eq!(prefill(&doc, &b), "42");
    }

    #[test]
    fn later_edits_of_a_byte_win_and_runs_join() {
        let f = flatten(&[(4, vec![1, 2, 3]), (6, vec![9, 8]), (1, vec![7])]);
        assert_eq!(f, [(1, vec![7]), (4, vec![1, 2, 9, 8])]);
    }

    #[test]
    fn only_findings_the_original_lacks_are_new() {
        let d = |m: &str, o: u64| Diagnostic::new(Severity::Warning, Some(o), "x", m);
        let before = [d("a", 1), d("b", 2)];
        let after = [d("a", 9), d("b", 2), d("b", 3), Diagnostic::new(Severity::Info, None, "", "c")];
        assert_eq!(new_findings(&before, &after), [d("b", 3)]);
    }
}
