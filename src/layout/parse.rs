//! Reading a layout file: TOML through serde, then every name and type checked, each
//! problem one error naming the file, line and column.

use super::{Count, Endian, Layout, LayoutField, StructDef, Target, Ty};
use crate::model::Span;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use toml::Spanned;

/// A layout file that cannot be used: where and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("layout {file}{}: {message}", at.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default())]
pub struct LayoutError {
    /// The file.
    pub file: String,
    /// Line and column (from 1), when the problem has a place in the text.
    pub at: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

impl LayoutError {
    /// A file that could not be read.
    pub fn io(path: &std::path::Path, message: &str) -> Self {
        LayoutError { file: path.display().to_string(), at: None, message: message.to_string() }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    name: Option<String>,
    format: Spanned<String>,
    #[serde(default)]
    kinds: Vec<String>,
    path: Option<String>,
    range: Option<Spanned<String>>,
    field: Option<String>,
    root: Option<Spanned<String>>,
    endian: Option<Spanned<String>>,
    #[serde(rename = "struct")]
    structs: Spanned<BTreeMap<String, Vec<FieldToml>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldToml {
    name: Spanned<String>,
    #[serde(rename = "type")]
    ty: Spanned<String>,
    count: Option<Spanned<toml::Value>>,
    len: Option<Spanned<u64>>,
    to: Option<Spanned<u64>>,
    #[serde(rename = "enum")]
    enums: Option<Spanned<BTreeMap<String, String>>>,
    flags: Option<Spanned<BTreeMap<String, String>>>,
}

/// Line and column (from 1) of byte `at` of `text`, as editors count.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The scalar type names a field may use (with `le`/`be` suffixes on multi-byte ones).
pub const SCALARS: &[&str] = &[
    "u8",
    "u16",
    "u32",
    "u64",
    "i8",
    "i16",
    "i32",
    "i64",
    "f16",
    "f32",
    "f64",
    "angle16",
    "snorm16",
    "fixed16.16",
    "fixed8.8",
    "str",
    "strz",
    "bytes",
    "pad",
    "align",
];

fn parse_num(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(&h.replace('_', ""), 16).ok(),
        None => s.replace('_', "").parse().ok(),
    }
}

/// A scalar type name without its length or count (`u32be`, `fixed16.16`), or None.
fn scalar(name: &str, default: Endian) -> Option<Ty> {
    let (base, endian) = if let Some(b) = name.strip_suffix("le") {
        (b, Endian::Little)
    } else if let Some(b) = name.strip_suffix("be") {
        (b, Endian::Big)
    } else {
        (name, default)
    };
    let width = |bits: &str| match bits {
        "8" => Some(1u8),
        "16" => Some(2),
        "32" => Some(4),
        "64" => Some(8),
        _ => None,
    };
    if let Some(b) = base.strip_prefix('u').and_then(width) {
        return Some(Ty::Int { bytes: b, signed: false, endian });
    }
    if let Some(b) = base.strip_prefix('i').and_then(width) {
        return Some(Ty::Int { bytes: b, signed: true, endian });
    }
    if let Some(b) = base.strip_prefix('f').and_then(width).filter(|b| *b >= 2) {
        return Some(Ty::Float { bytes: b, endian });
    }
    match base {
        "angle16" => return Some(Ty::Angle16(endian)),
        "snorm16" => return Some(Ty::Snorm16(endian)),
        _ => {}
    }
    let (signed, rest) = match base.strip_prefix("ufixed") {
        Some(r) => (false, r),
        None => (true, base.strip_prefix("fixed")?),
    };
    let (i, f) = rest.split_once('.')?;
    let (i, f): (u8, u8) = (i.parse().ok()?, f.parse().ok()?);
    let bytes = width(&(u16::from(i) + u16::from(f)).to_string())?;
    Some(Ty::Fixed { bytes, frac: f, signed, endian })
}

/// Deepest nesting of structs a layout may declare (a struct holding a struct holding …):
/// far past any real record, and a bound on every walk over the structs (reading, sizing,
/// exporting), so none recurses without end or deeper than the stack allows.
pub const MAX_NESTING: u32 = 64;

/// Estimated bytes parsing takes for each table header (`[[struct.main]]`), key (`=`) and
/// list or inline-table element (`,`) of a layout file: the TOML parser's items with their
/// spans, the deserialised fields and the checked layout, as measured on files of
/// one-byte fields (≈ 1.8 KiB a field of three lines) and of a long enum (≈ 0.35 KiB an
/// entry). A file is refused before it is parsed when its items would need more than the
/// memory budget ([`parse_layout_within`]).
pub const PARSE_BYTES_PER_TABLE: u64 = 1152;
/// See [`PARSE_BYTES_PER_TABLE`].
pub const PARSE_BYTES_PER_KEY: u64 = 320;
/// See [`PARSE_BYTES_PER_TABLE`].
pub const PARSE_BYTES_PER_ELEMENT: u64 = 64;

/// What parsing `text` is estimated to take ([`PARSE_BYTES_PER_TABLE`]): one pass over
/// its bytes.
pub fn parse_cost(text: &str) -> u64 {
    let (mut tables, mut keys, mut elements) = (0u64, 0u64, 0u64);
    let mut prev = 0u8;
    for b in text.bytes() {
        match b {
            b'[' if prev == b'[' => tables += 1,
            b'=' => keys += 1,
            b',' => elements += 1,
            _ => {}
        }
        prev = b;
    }
    tables
        .saturating_mul(PARSE_BYTES_PER_TABLE)
        .saturating_add(keys.saturating_mul(PARSE_BYTES_PER_KEY))
        .saturating_add(elements.saturating_mul(PARSE_BYTES_PER_ELEMENT))
}

/// Most struct names an error lists (a file may declare thousands).
const LISTED_NAMES: usize = 24;

/// Longest type name that gets a "did you mean" (longer ones are no typo of a short name).
const SUGGEST_MAX_LEN: usize = 64;

/// Parse and check a layout file's text. `origin` names the file in errors; `stem` is the
/// layout's name when the file gives none.
pub fn parse_layout(text: &str, origin: &str, stem: &str) -> Result<Layout, LayoutError> {
    parse_layout_within(text, origin, stem, u64::MAX)
}

/// [`parse_layout`] under a memory budget of `max_memory` bytes: a file whose parse would
/// need more ([`parse_cost`]) is refused with the budget error before it is parsed.
pub fn parse_layout_within(text: &str, origin: &str, stem: &str, max_memory: u64) -> Result<Layout, LayoutError> {
    let needed = parse_cost(text);
    if needed > max_memory {
        let e = crate::limits::Limits { max_memory, ..crate::limits::Limits::default() }
            .spend_clip("parsing its tables and keys", needed, 0)
            .err()
            .map_or_else(|| "memory budget exceeded".to_string(), |e| e.kind.to_string());
        return Err(LayoutError { file: origin.to_string(), at: None, message: e });
    }
    let err = |span: Option<std::ops::Range<usize>>, message: String| LayoutError {
        file: origin.to_string(),
        at: span.map(|r| line_col(text, r.start)),
        message,
    };
    let file: FileToml = toml::from_str(text).map_err(|e| err(e.span(), e.message().trim_end().to_string()))?;
    let endian = match file.endian.as_ref().map(|e| (e.get_ref().as_str(), e.span())) {
        None | Some(("le" | "little", _)) => Endian::Little,
        Some(("be" | "big", _)) => Endian::Big,
        Some((other, span)) => return Err(err(Some(span), format!("endian \"{other}\": use \"le\" or \"be\""))),
    };
    let range = match &file.range {
        None => None,
        Some(r) => {
            let parsed = r
                .get_ref()
                .split_once("..")
                .and_then(|(a, b)| Some((parse_num(a)?, parse_num(b)?)))
                .filter(|(a, b)| a < b);
            let Some((a, b)) = parsed else {
                return Err(err(
                    Some(r.span()),
                    format!("range \"{}\": write START..END, e.g. \"0x40..0x80\"", r.get_ref()),
                ));
            };
            Some(Span::new(a, b))
        }
    };
    if file.kinds.is_empty() && file.path.is_none() && range.is_none() {
        return Err(err(Some(file.format.span()), "says nowhere to apply: give kinds, path or range".into()));
    }
    let structs_span = file.structs.span();
    let raw = file.structs.into_inner();
    let names: Vec<&str> = raw.keys().map(String::as_str).collect();
    // hashed: a file of thousands of structs looks each type up once
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let listed = || list_names(&names);
    let root_name = file.root.as_ref().map_or("main", |r| r.get_ref().as_str());
    let Some(&root) = index.get(root_name) else {
        let span = file.root.as_ref().map_or(structs_span, Spanned::span);
        return Err(err(
            Some(span),
            format!("no struct \"{root_name}\" to start from (structs: {}; set root = \"NAME\")", listed()),
        ));
    };
    let lines = LineIndex::new(text);
    let mut structs = Vec::with_capacity(names.len());
    for (sname, fields) in &raw {
        if fields.is_empty() {
            return Err(err(Some(structs_span), format!("struct {sname} has no fields")));
        }
        let mut out: Vec<LayoutField> = Vec::with_capacity(fields.len());
        // the earlier fields by name: is each a single integer (a count may name it)
        let mut earlier: HashMap<&str, bool> = HashMap::with_capacity(fields.len());
        for f in fields {
            let fname = f.name.get_ref().as_str();
            let tname = f.ty.get_ref().as_str();
            if earlier.contains_key(fname) {
                return Err(err(
                    Some(f.name.span()),
                    format!("field {fname}: struct {sname} has a field of that name already (names are one each)"),
                ));
            }
            let ty = field_type(f, endian, &index, &names, &err)?;
            let count = field_count(f, sname, &earlier, &err)?;
            let enums = value_names(&f.enums, "enum", f, &ty, &err)?;
            let flags = value_names(&f.flags, "flags", f, &ty, &err)?;
            earlier.insert(fname, matches!(ty, Ty::Int { .. }) && count == Count::One);
            out.push(LayoutField {
                name: fname.to_string(),
                ty,
                ty_name: tname.to_string(),
                count,
                enums,
                flags,
                line: u32::try_from(lines.line(f.name.span().start)).unwrap_or(u32::MAX),
            });
        }
        structs.push(StructDef { name: sname.clone(), fields: out });
    }
    let field_span = |s: usize, i: usize| raw.values().nth(s).and_then(|f| f.get(i)).map(|f| f.ty.span());
    check_structs(&structs, &field_span, structs_span, &err)?;
    Ok(Layout {
        name: file.name.unwrap_or_else(|| stem.to_string()),
        origin: origin.to_string(),
        format: file.format.into_inner(),
        target: Target { kinds: file.kinds, path: file.path, range, field: file.field },
        structs,
        root,
    })
}

/// How a field's error is made: the span it points at (for the line and column) and the
/// message.
type ErrAt<'a> = &'a dyn Fn(Option<std::ops::Range<usize>>, String) -> LayoutError;

/// The type a field names: a scalar, a sized string, bytes or padding, an alignment, or a
/// struct of the file (`index` by name); an unknown one suggests the nearest.
fn field_type(
    f: &FieldToml,
    endian: Endian,
    index: &HashMap<&str, usize>,
    names: &[&str],
    err: ErrAt<'_>,
) -> Result<Ty, LayoutError> {
    let (fname, tname) = (f.name.get_ref().as_str(), f.ty.get_ref().as_str());
    let listed = || list_names(names);
    let need_len =
        |what: &str| {
            f.len.as_ref().map(|l| *l.get_ref()).filter(|l| *l > 0).ok_or_else(|| {
                err(Some(f.ty.span()), format!("field {fname}: {what} needs len = N (bytes, at least 1)"))
            })
        };
    let ty = match tname {
        "str" => Ty::Str(need_len("str")?),
        "strz" => Ty::Strz(f.len.as_ref().map_or(256, |l| *l.get_ref()).max(1)),
        "bytes" => Ty::Bytes(need_len("bytes")?),
        "pad" => Ty::Pad(need_len("pad")?),
        "align" => {
            let to =
                f.to.as_ref()
                    .map(|t| *t.get_ref())
                    .filter(|t| *t > 0)
                    .ok_or_else(|| err(Some(f.ty.span()), format!("field {fname}: align needs to = N (bytes)")))?;
            Ty::Align(to)
        }
        t => match (scalar(t, endian), index.get(t)) {
            (Some(s), _) => s,
            (None, Some(i)) => Ty::Struct(*i),
            (None, None) => {
                let hint = suggest(t, names).map(|m| format!("; did you mean {m}?")).unwrap_or_default();
                return Err(err(
                    Some(f.ty.span()),
                    format!(
                        "field {fname}: unknown type \"{}\"{hint} (types: u8..u64, i8..i64 with le/be, f16, \
                         f32, f64, fixedI.F, ufixedI.F, angle16, snorm16, str, strz, bytes, pad, align, or a \
                         struct of this file: {})",
                        clip(t),
                        listed()
                    ),
                ));
            }
        },
    };
    Ok(ty)
}

/// A field's count: one, a number, `rest`, or the name of an earlier integer field of the
/// struct (`earlier` says which are).
fn field_count(
    f: &FieldToml,
    sname: &str,
    earlier: &HashMap<&str, bool>,
    err: ErrAt<'_>,
) -> Result<Count, LayoutError> {
    let fname = f.name.get_ref().as_str();
    Ok(match &f.count {
        None => Count::One,
        Some(c) => match c.get_ref() {
            toml::Value::Integer(n) if *n >= 0 => Count::Fixed(*n as u64),
            toml::Value::String(s) if s == "rest" => Count::Rest,
            toml::Value::String(s) => {
                if earlier.get(s.as_str()) != Some(&true) {
                    return Err(err(
                        Some(c.span()),
                        format!(
                            "field {fname}: count \"{}\" is not an earlier integer field of struct {sname} \
                             (or a number, or \"rest\")",
                            clip(s)
                        ),
                    ));
                }
                Count::Field(s.clone())
            }
            _ => {
                return Err(err(
                    Some(c.span()),
                    format!("field {fname}: count is a number, an earlier field's name or \"rest\""),
                ));
            }
        },
    })
}

/// The names a field's `enum` or `flags` table gives its values (an integer field's only),
/// by value; a key that is no number or a value named twice is an error.
fn value_names(
    m: &Option<Spanned<BTreeMap<String, String>>>,
    what: &str,
    f: &FieldToml,
    ty: &Ty,
    err: ErrAt<'_>,
) -> Result<Vec<(u64, String)>, LayoutError> {
    let fname = f.name.get_ref().as_str();
    let mut v: Vec<(u64, String)> = Vec::new();
    if let Some(m) = m {
        if !matches!(ty, Ty::Int { .. }) {
            return Err(err(Some(m.span()), format!("field {fname}: {what} needs an integer type")));
        }
        for (k, name) in m.get_ref() {
            let n = parse_num(k).ok_or_else(|| {
                err(Some(m.span()), format!("field {fname}: {what} key \"{}\" is not a number", clip(k)))
            })?;
            v.push((n, name.clone()));
        }
        // by value (bit order for flags): the TOML table's keys are in text order
        v.sort_by_key(|(n, _)| *n);
        if let Some(w) = v.windows(2).find(|w| w.first().map(|a| a.0) == w.get(1).map(|b| b.0)) {
            let n = w.first().map_or(0, |a| a.0);
            return Err(err(Some(m.span()), format!("field {fname}: {what} value 0x{n:x} is named twice")));
        }
    }
    Ok(v)
}

/// Structs that hold themselves (directly or through others), nest past [`MAX_NESTING`], or
/// hold an array whose elements may take no bytes are refused, naming the field.
fn check_structs(
    structs: &[StructDef],
    field_span: &dyn Fn(usize, usize) -> Option<std::ops::Range<usize>>,
    structs_span: std::ops::Range<usize>,
    err: ErrAt<'_>,
) -> Result<(), LayoutError> {
    // A struct that holds itself, directly or through others, would never end; one nested
    // past MAX_NESTING is refused too. One walk over the structs, each visited once.
    let depth = match nesting(structs) {
        Ok(d) => d,
        Err((s, i, chain)) => {
            return Err(err(field_span(s, i), format!("recursive struct: {}", chain.join(" → "))));
        }
    };
    if let Some((s, st)) = structs.iter().enumerate().find(|(s, _)| depth.get(*s).is_some_and(|d| *d > MAX_NESTING)) {
        let d = depth.get(s).copied().unwrap_or(0);
        // the field that leads deepest
        let deeper =
            st.fields.iter().position(|f| matches!(f.ty, Ty::Struct(t) if depth.get(t).copied().unwrap_or(0) + 1 == d));
        return Err(err(
            deeper.and_then(|i| field_span(s, i)).or(Some(structs_span)),
            format!("struct {} nests structs {d} deep: at most {MAX_NESTING}", st.name),
        ));
    }
    // Arrays that run to the end or by a count need elements that take bytes, or a count
    // would make fields without reading anything.
    let mut sizes = MinSizes::new(structs);
    for (si, s) in structs.iter().enumerate() {
        for (fi, f) in s.fields.iter().enumerate() {
            if f.count != Count::One && sizes.of(&f.ty) == 0 {
                return Err(err(
                    field_span(si, fi),
                    format!("field {}: an array of {} whose elements may take no bytes", f.name, f.ty_name),
                ));
            }
        }
    }
    Ok(())
}

/// `s`, cut to a length an error line can carry.
fn clip(s: &str) -> String {
    match s.char_indices().nth(SUGGEST_MAX_LEN) {
        Some((at, _)) => format!("{}…", s.get(..at).unwrap_or_default()),
        None => s.to_string(),
    }
}

/// The struct names for an error: the first few, then how many more.
fn list_names(names: &[&str]) -> String {
    let shown: Vec<String> = names.iter().take(LISTED_NAMES).map(|n| clip(n)).collect();
    match names.len().saturating_sub(LISTED_NAMES) {
        0 => shown.join(", "),
        more => format!("{}, … ({more} more)", shown.join(", ")),
    }
}

/// A "did you mean" for type `typed`: only names within a few characters of its length
/// are compared (an edit distance costs the product of the lengths), and none for a
/// name longer than any typo of a short one.
fn suggest<'a>(typed: &str, names: &[&'a str]) -> Option<&'a str> {
    let len = typed.chars().count();
    if len > SUGGEST_MAX_LEN {
        return None;
    }
    let near = |n: &&str| n.len() <= 4 * SUGGEST_MAX_LEN && n.chars().count().abs_diff(len) <= 3.max(len / 3);
    let cands = SCALARS.iter().copied().chain(names.iter().copied().filter(near));
    crate::text::did_you_mean(typed, cands)
}

/// Line numbers of byte offsets of one text, by a binary search over its line starts (a
/// file of many fields asks once per field).
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// Line (from 1) of byte `at`.
    fn line(&self, at: usize) -> usize {
        self.starts.partition_point(|s| *s <= at)
    }
}

/// The fewest bytes values take, memoised per struct: each struct is sized once however
/// many fields name it (a struct of two fields of the next, 40 levels down, is 40 sums,
/// not 2⁴⁰).
pub struct MinSizes<'a> {
    structs: &'a [StructDef],
    memo: HashMap<usize, u64>,
}

impl<'a> MinSizes<'a> {
    /// Sizes of `structs`' types, computed as they are asked for.
    pub fn new(structs: &'a [StructDef]) -> MinSizes<'a> {
        MinSizes { structs, memo: HashMap::new() }
    }

    /// The fewest bytes a value of `ty` takes (arrays counted as none).
    pub fn of(&mut self, ty: &Ty) -> u64 {
        self.go(ty, 0)
    }

    fn go(&mut self, ty: &Ty, depth: u32) -> u64 {
        match ty {
            Ty::Int { bytes, .. } | Ty::Float { bytes, .. } | Ty::Fixed { bytes, .. } => u64::from(*bytes),
            Ty::Angle16(_) | Ty::Snorm16(_) => 2,
            Ty::Str(n) | Ty::Bytes(n) | Ty::Pad(n) => *n,
            Ty::Strz(_) => 1,
            Ty::Align(_) => 0,
            // a cycle or a nesting past the bound (refused by the parser; a built-in
            // record's structs are shallow) counts as nothing rather than recursing on
            Ty::Struct(_) if depth > MAX_NESTING => 0,
            Ty::Struct(i) => {
                if let Some(n) = self.memo.get(i) {
                    return *n;
                }
                let structs = self.structs;
                let n = structs.get(*i).map_or(0, |s| {
                    s.fields
                        .iter()
                        .filter(|f| f.count == Count::One)
                        .fold(0u64, |sum, f| sum.saturating_add(self.go(&f.ty, depth + 1)))
                });
                self.memo.insert(*i, n);
                n
            }
        }
    }
}

/// The fewest bytes a value of `ty` takes (arrays counted as none), memoised
/// ([`MinSizes`]; reuse one for many asks).
pub fn min_size(structs: &[StructDef], ty: &Ty) -> u64 {
    MinSizes::new(structs).of(ty)
}

/// How deep each struct nests structs (1: it holds none), by one iterative walk visiting
/// each struct once; or a struct reachable from itself: (struct, field index of the edge
/// back, names on the way).
#[allow(clippy::type_complexity)]
fn nesting(structs: &[StructDef]) -> Result<Vec<u32>, (usize, usize, Vec<String>)> {
    const UNSEEN: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![UNSEEN; structs.len()];
    let mut depth = vec![1u32; structs.len()];
    let fields = |s: usize| structs.get(s).map(|d| d.fields.as_slice()).unwrap_or_default();
    for start in 0..structs.len() {
        if state.get(start) != Some(&UNSEEN) {
            continue;
        }
        // the path: (struct, next field to look at)
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        if let Some(x) = state.get_mut(start) {
            *x = ON_PATH;
        }
        while let Some(top) = path.last_mut() {
            let (s, fi) = *top;
            let Some(f) = fields(s).get(fi) else {
                // every field seen: its depth is known
                path.pop();
                if let Some(x) = state.get_mut(s) {
                    *x = DONE;
                }
                let d = depth.get(s).copied().unwrap_or(1);
                if let Some((p, _)) = path.last()
                    && let Some(pd) = depth.get_mut(*p)
                {
                    *pd = (*pd).max(d.saturating_add(1));
                }
                continue;
            };
            top.1 += 1;
            let Ty::Struct(t) = f.ty else { continue };
            match state.get(t) {
                Some(&ON_PATH) => {
                    let from = path.iter().position(|(p, _)| *p == t).unwrap_or(0);
                    let mut names: Vec<String> = path
                        .get(from..)
                        .unwrap_or_default()
                        .iter()
                        .filter_map(|(p, _)| structs.get(*p))
                        .map(|d| d.name.clone())
                        .collect();
                    names.push(structs.get(t).map(|d| d.name.clone()).unwrap_or_default());
                    return Err((s, fi, names));
                }
                Some(&UNSEEN) => {
                    if let Some(x) = state.get_mut(t) {
                        *x = ON_PATH;
                    }
                    path.push((t, 0));
                }
                _ => {
                    let d = depth.get(t).copied().unwrap_or(1);
                    if let Some(sd) = depth.get_mut(s) {
                        *sd = (*sd).max(d.saturating_add(1));
                    }
                }
            }
        }
    }
    Ok(depth)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
format = "ccsf"
kinds = ["Particle"]
field = "payload"

[[struct.main]]
name = "count"
type = "u32"

[[struct.main]]
name = "points"
type = "vec3"
count = "count"

[[struct.vec3]]
name = "x"
type = "f32"
"#;

    fn bad(text: &str) -> LayoutError {
        parse_layout(text, "t.toml", "t").unwrap_err()
    }

    #[test]
    fn a_good_file_reads() {
        let l = parse_layout(GOOD, "p.toml", "p").unwrap();
        assert_eq!(l.name, "p");
        assert_eq!(l.structs[l.root].name, "main");
        assert_eq!(l.structs[l.root].fields[1].count, Count::Field("count".into()));
        assert_eq!(l.structs[l.root].fields[1].ty, Ty::Struct(1));
        assert_eq!(l.target.field.as_deref(), Some("payload"));
    }

    #[test]
    fn scalar_names() {
        let le = Endian::Little;
        assert_eq!(scalar("u16be", le), Some(Ty::Int { bytes: 2, signed: false, endian: Endian::Big }));
        assert_eq!(scalar("i64", le), Some(Ty::Int { bytes: 8, signed: true, endian: le }));
        assert_eq!(scalar("f16", le), Some(Ty::Float { bytes: 2, endian: le }));
        assert_eq!(scalar("f8", le), None);
        assert_eq!(scalar("fixed16.16", le), Some(Ty::Fixed { bytes: 4, frac: 16, signed: true, endian: le }));
        assert_eq!(
            scalar("ufixed4.12be", le),
            Some(Ty::Fixed { bytes: 2, frac: 12, signed: false, endian: Endian::Big })
        );
        assert_eq!(scalar("fixed3.3", le), None);
        assert_eq!(scalar("angle16", le), Some(Ty::Angle16(le)));
    }

    /// Malformed TOML: toml's own message, at the line and column of the fault.
    #[test]
    fn malformed_toml_names_file_line_and_column() {
        let e = bad("format = \"ccsf\"\nkinds = [\"Particle\"\n");
        assert_eq!(e.file, "t.toml");
        assert_eq!(e.at.map(|a| a.0), Some(2), "{e}");
        assert!(e.to_string().starts_with("layout t.toml:2:"), "{e}");
    }

    #[test]
    fn unknown_type_is_placed_and_suggests() {
        let e = bad(&GOOD.replace("type = \"f32\"", "type = \"f33\""));
        // the `type = "f33"` line of vec3: the 17th line of GOOD
        assert_eq!(e.at, Some((17, 8)), "{e}");
        assert!(e.message.contains("unknown type \"f33\""), "{e}");
        assert!(e.message.contains("did you mean"), "{e}");
    }

    #[test]
    fn recursive_structs_are_refused() {
        let e = bad(&format!("{GOOD}\n[[struct.vec3]]\nname = \"again\"\ntype = \"main\"\n"));
        assert!(e.message.contains("recursive struct: main → vec3 → main"), "{e}");
        assert_eq!(e.at.map(|a| a.0), Some(21), "{e}");
    }

    #[test]
    fn counts_must_name_an_earlier_integer() {
        let e = bad(&GOOD.replace("count = \"count\"", "count = \"later\""));
        assert!(e.message.contains("count \"later\" is not an earlier integer field"), "{e}");
        assert_eq!(e.at, Some((13, 9)));
    }

    #[test]
    fn unknown_keys_and_nowhere_are_refused() {
        assert!(bad(&GOOD.replace("field = ", "feild = ")).message.contains("unknown field `feild`"));
        assert!(bad(&GOOD.replace("kinds = [\"Particle\"]", "")).message.contains("says nowhere to apply"));
        let e = bad(&GOOD.replace("type = \"f32\"", "type = \"align\""));
        assert!(e.message.contains("align needs to = N"), "{e}");
    }

    #[test]
    fn zero_size_arrays_are_refused() {
        let t = GOOD.replace("type = \"f32\"", "type = \"align\"\nto = 4");
        assert!(bad(&t).message.contains("elements may take no bytes"));
    }

    /// `levels` structs each holding two fields of the next, the last one `u8`, read as an
    /// array from main: 2^(levels-1) bytes a struct, summed once per struct.
    fn dag(levels: usize) -> String {
        let mut t = String::from(
            "format = \"raw\"\nkinds = [\"file\"]\n[[struct.main]]\nname = \"all\"\ntype = \"s1\"\ncount = \"rest\"\n",
        );
        for l in 1..levels {
            for k in ["a", "b"] {
                t.push_str(&format!("[[struct.s{l}]]\nname = \"{k}\"\ntype = \"s{}\"\n", l + 1));
            }
        }
        t.push_str(&format!("[[struct.s{levels}]]\nname = \"x\"\ntype = \"u8\"\n"));
        t
    }

    /// A DAG of 40 levels (2^39 leaves under s1) is sized by one sum per struct: the size
    /// is 2^(40 - l) for struct s_l, as doubling from the one-byte leaf says.
    #[test]
    fn sizes_are_memoised_over_a_dag() {
        let l = parse_layout(&dag(40), "d.toml", "d").unwrap();
        let mut sizes = MinSizes::new(&l.structs);
        let s1 = l.structs.iter().position(|s| s.name == "s1").unwrap();
        let s40 = l.structs.iter().position(|s| s.name == "s40").unwrap();
        assert_eq!(sizes.of(&Ty::Struct(s1)), 1 << 39);
        assert_eq!(sizes.of(&Ty::Struct(s40)), 1);
        assert_eq!(sizes.memo.len(), 40, "each struct sized once");
    }

    /// Nesting past MAX_NESTING is refused at the field leading deeper; a cycle through
    /// three structs is named in order.
    #[test]
    fn nesting_and_cycles_are_found_in_one_walk() {
        let mut t = String::from("format = \"raw\"\nkinds = [\"file\"]\n");
        for l in 0..70 {
            let name = if l == 0 { "main".to_string() } else { format!("s{l:02}") };
            t.push_str(&format!("[[struct.{name}]]\nname = \"a\"\ntype = \"s{:02}\"\n", l + 1));
        }
        t.push_str("[[struct.s70]]\nname = \"x\"\ntype = \"u8\"\n");
        let e = bad(&t);
        assert!(e.message.contains("struct main nests structs 71 deep: at most 64"), "{e}");
        // main's field, on the fifth line
        assert_eq!(e.at.map(|a| a.0), Some(5), "{e}");
        let cyc = "format = \"raw\"\nkinds = [\"file\"]\n[[struct.main]]\nname = \"a\"\ntype = \"b\"\n\
                   [[struct.b]]\nname = \"c\"\ntype = \"c\"\n[[struct.c]]\nname = \"m\"\ntype = \"main\"\n";
        assert!(bad(cyc).message.contains("recursive struct: b → c → main → b"), "{}", bad(cyc));
    }

    /// Thousands of structs: types found by hash, the error's list cut, no suggestion
    /// compared against a 20,000-character name.
    #[test]
    fn many_and_long_names_stay_cheap() {
        let mut t = String::from("format = \"raw\"\nkinds = [\"file\"]\n");
        for i in 0..5000 {
            t.push_str(&format!("[[struct.main]]\nname = \"f{i}\"\ntype = \"s{i}\"\n"));
        }
        for i in 0..5000 {
            t.push_str(&format!("[[struct.s{i}]]\nname = \"a\"\ntype = \"u8\"\n"));
        }
        let l = parse_layout(&t, "m.toml", "m").unwrap();
        assert_eq!(l.structs[l.root].fields.len(), 5000);
        assert_eq!(l.structs[l.root].fields[4999].line, 3 * 4999 + 4, "each field's name line");
        let long = "x".repeat(20_000);
        let e = bad(&format!(
            "{}[[struct.{long}y]]\nname = \"b\"\ntype = \"u8\"\n",
            t.replace("type = \"s7\"", &format!("type = \"{long}\""))
        ));
        assert!(
            e.message.contains("unknown type \"xxxx") && !e.message.contains("did you mean"),
            "{}",
            &e.message[..200]
        );
        assert!(e.message.contains("(4978 more)"), "5,002 structs listed as 24 and a count: {}", e.message.len());
        assert!(e.message.len() < 4000, "{} bytes", e.message.len());
    }

    /// A second field of a name, and an enum value named twice, are refused; enum and
    /// flag names are kept in value order, not the TOML's key order ("0x10" < "0x2").
    #[test]
    fn duplicates_refused_and_names_in_value_order() {
        let dup = format!("{GOOD}[[struct.vec3]]\nname = \"x\"\ntype = \"f32\"\n");
        assert!(bad(&dup).message.contains("field x: struct vec3 has a field of that name already"), "{}", bad(&dup));
        let t = GOOD.replace("type = \"u32\"", "type = \"u32\"\nflags = { \"0x10\" = \"high\", \"0x2\" = \"low\" }");
        let l = parse_layout(&t, "t.toml", "t").unwrap();
        assert_eq!(l.structs[l.root].fields[0].flags, [(2, "low".to_string()), (16, "high".to_string())]);
        let t = GOOD.replace("type = \"u32\"", "type = \"u32\"\nenum = { \"1\" = \"a\", \"0x1\" = \"b\" }");
        assert!(bad(&t).message.contains("enum value 0x1 is named twice"), "{}", bad(&t));
    }

    /// The parse's memory is bounded before it starts: its tables, keys and elements
    /// counted (GOOD: 3 tables, 10 keys, no element) against the budget given, the budget
    /// error naming `--limit memory=`.
    #[test]
    fn a_file_past_the_budget_is_refused_before_parsing() {
        let cost = 3 * PARSE_BYTES_PER_TABLE + 10 * PARSE_BYTES_PER_KEY;
        assert_eq!(parse_cost(GOOD), cost);
        assert_eq!(parse_cost("kinds = [\"a\", \"b\"]"), PARSE_BYTES_PER_KEY + PARSE_BYTES_PER_ELEMENT);
        assert!(parse_layout_within(GOOD, "g.toml", "g", cost).is_ok());
        let e = parse_layout_within(GOOD, "g.toml", "g", cost - 1).unwrap_err();
        assert!(e.message.starts_with("memory budget exceeded: parsing its tables and keys"), "{e}");
        assert!(e.message.contains("--limit memory="), "{e}");
    }
}
