//! Reading a layout file: TOML through serde, then every name and type checked, each
//! problem one error naming the file, line and column.

use super::{Count, Endian, Layout, LayoutField, StructDef, Target, Ty};
use crate::model::Span;
use serde::Deserialize;
use std::collections::BTreeMap;
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

/// Parse and check a layout file's text. `origin` names the file in errors; `stem` is the
/// layout's name when the file gives none.
pub fn parse_layout(text: &str, origin: &str, stem: &str) -> Result<Layout, LayoutError> {
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
    let root_name = file.root.as_ref().map_or("main", |r| r.get_ref().as_str());
    let Some(root) = names.iter().position(|n| *n == root_name) else {
        let span = file.root.as_ref().map_or(structs_span, Spanned::span);
        return Err(err(
            Some(span),
            format!("no struct \"{root_name}\" to start from (structs: {}; set root = \"NAME\")", names.join(", ")),
        ));
    };
    let mut structs = Vec::with_capacity(names.len());
    for (sname, fields) in &raw {
        if fields.is_empty() {
            return Err(err(Some(structs_span), format!("struct {sname} has no fields")));
        }
        let mut out: Vec<LayoutField> = Vec::with_capacity(fields.len());
        for f in fields {
            let tname = f.ty.get_ref().as_str();
            let need_len = |what: &str| {
                f.len.as_ref().map(|l| *l.get_ref()).filter(|l| *l > 0).ok_or_else(|| {
                    err(
                        Some(f.ty.span()),
                        format!("field {}: {what} needs len = N (bytes, at least 1)", f.name.get_ref()),
                    )
                })
            };
            let ty = match tname {
                "str" => Ty::Str(need_len("str")?),
                "strz" => Ty::Strz(f.len.as_ref().map_or(256, |l| *l.get_ref()).max(1)),
                "bytes" => Ty::Bytes(need_len("bytes")?),
                "pad" => Ty::Pad(need_len("pad")?),
                "align" => {
                    let to = f.to.as_ref().map(|t| *t.get_ref()).filter(|t| *t > 0).ok_or_else(|| {
                        err(Some(f.ty.span()), format!("field {}: align needs to = N (bytes)", f.name.get_ref()))
                    })?;
                    Ty::Align(to)
                }
                t => match (scalar(t, endian), names.iter().position(|n| *n == t)) {
                    (Some(s), _) => s,
                    (None, Some(i)) => Ty::Struct(i),
                    (None, None) => {
                        let cands = SCALARS.iter().copied().chain(names.iter().copied());
                        let hint = crate::text::did_you_mean(t, cands)
                            .map(|m| format!("; did you mean {m}?"))
                            .unwrap_or_default();
                        return Err(err(
                            Some(f.ty.span()),
                            format!(
                                "field {}: unknown type \"{t}\"{hint} (types: u8..u64, i8..i64 with le/be, f16, f32, \
                                 f64, fixedI.F, ufixedI.F, angle16, snorm16, str, strz, bytes, pad, align, or a \
                                 struct of this file: {})",
                                f.name.get_ref(),
                                names.join(", ")
                            ),
                        ));
                    }
                },
            };
            let count = match &f.count {
                None => Count::One,
                Some(c) => match c.get_ref() {
                    toml::Value::Integer(n) if *n >= 0 => Count::Fixed(*n as u64),
                    toml::Value::String(s) if s == "rest" => Count::Rest,
                    toml::Value::String(s) => {
                        let earlier = out.iter().find(|o| o.name == *s);
                        if !earlier.is_some_and(|o| matches!(o.ty, Ty::Int { .. }) && o.count == Count::One) {
                            return Err(err(
                                Some(c.span()),
                                format!(
                                    "field {}: count \"{s}\" is not an earlier integer field of struct {sname} \
                                     (or a number, or \"rest\")",
                                    f.name.get_ref()
                                ),
                            ));
                        }
                        Count::Field(s.clone())
                    }
                    _ => {
                        return Err(err(
                            Some(c.span()),
                            format!(
                                "field {}: count is a number, an earlier field's name or \"rest\"",
                                f.name.get_ref()
                            ),
                        ));
                    }
                },
            };
            let names_of = |m: &Option<Spanned<BTreeMap<String, String>>>, what: &str| {
                let mut v = Vec::new();
                if let Some(m) = m {
                    if !matches!(ty, Ty::Int { .. }) {
                        return Err(err(
                            Some(m.span()),
                            format!("field {}: {what} needs an integer type", f.name.get_ref()),
                        ));
                    }
                    for (k, name) in m.get_ref() {
                        let n = parse_num(k).ok_or_else(|| {
                            err(
                                Some(m.span()),
                                format!("field {}: {what} key \"{k}\" is not a number", f.name.get_ref()),
                            )
                        })?;
                        v.push((n, name.clone()));
                    }
                }
                Ok(v)
            };
            let enums = names_of(&f.enums, "enum")?;
            let flags = names_of(&f.flags, "flags")?;
            out.push(LayoutField {
                name: f.name.get_ref().clone(),
                ty,
                ty_name: tname.to_string(),
                count,
                enums,
                flags,
            });
        }
        structs.push(StructDef { name: sname.clone(), fields: out });
    }
    // A struct that holds itself, directly or through others, would never end.
    let field_span = |s: usize, i: usize| raw.values().nth(s).and_then(|f| f.get(i)).map(|f| f.ty.span());
    if let Some((s, i, chain)) = find_cycle(&structs) {
        return Err(err(field_span(s, i), format!("recursive struct: {}", chain.join(" → "))));
    }
    // Arrays that run to the end or by a count need elements that take bytes, or a count
    // would make fields without reading anything.
    for (si, s) in structs.iter().enumerate() {
        for (fi, f) in s.fields.iter().enumerate() {
            if f.count != Count::One && min_size(&structs, &f.ty) == 0 {
                return Err(err(
                    field_span(si, fi),
                    format!("field {}: an array of {} whose elements may take no bytes", f.name, f.ty_name),
                ));
            }
        }
    }
    Ok(Layout {
        name: file.name.unwrap_or_else(|| stem.to_string()),
        origin: origin.to_string(),
        format: file.format.into_inner(),
        target: Target { kinds: file.kinds, path: file.path, range, field: file.field },
        structs,
        root,
    })
}

/// The fewest bytes a value of `ty` takes (arrays counted as none). Structs must be acyclic.
pub fn min_size(structs: &[StructDef], ty: &Ty) -> u64 {
    fn go(structs: &[StructDef], ty: &Ty, depth: usize) -> u64 {
        match ty {
            Ty::Int { bytes, .. } | Ty::Float { bytes, .. } | Ty::Fixed { bytes, .. } => u64::from(*bytes),
            Ty::Angle16(_) | Ty::Snorm16(_) => 2,
            Ty::Str(n) | Ty::Bytes(n) | Ty::Pad(n) => *n,
            Ty::Strz(_) => 1,
            Ty::Align(_) => 0,
            Ty::Struct(i) if depth <= structs.len() => structs.get(*i).map_or(0, |s| {
                s.fields.iter().filter(|f| f.count == Count::One).map(|f| go(structs, &f.ty, depth + 1)).sum()
            }),
            Ty::Struct(_) => 0,
        }
    }
    go(structs, ty, 0)
}

/// A struct reachable from itself: (struct, field index of the edge back, names on the way).
fn find_cycle(structs: &[StructDef]) -> Option<(usize, usize, Vec<String>)> {
    // 0 unseen, 1 on the path, 2 done
    fn visit(
        structs: &[StructDef],
        s: usize,
        state: &mut [u8],
        path: &mut Vec<usize>,
    ) -> Option<(usize, usize, Vec<String>)> {
        if let Some(x) = state.get_mut(s) {
            *x = 1;
        }
        path.push(s);
        for (fi, f) in structs.get(s).map(|d| d.fields.as_slice()).unwrap_or_default().iter().enumerate() {
            let Ty::Struct(t) = f.ty else { continue };
            match state.get(t) {
                Some(1) => {
                    let from = path.iter().position(|p| *p == t).unwrap_or(0);
                    let mut names: Vec<String> = path
                        .get(from..)
                        .unwrap_or_default()
                        .iter()
                        .filter_map(|p| structs.get(*p))
                        .map(|d| d.name.clone())
                        .collect();
                    names.push(structs.get(t).map(|d| d.name.clone()).unwrap_or_default());
                    return Some((s, fi, names));
                }
                Some(0) => {
                    if let Some(c) = visit(structs, t, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        if let Some(x) = state.get_mut(s) {
            *x = 2;
        }
        None
    }
    let mut state = vec![0u8; structs.len()];
    for s in 0..structs.len() {
        if state.get(s) == Some(&0) {
            let mut path = Vec::new();
            if let Some(c) = visit(structs, s, &mut state, &mut path) {
                return Some(c);
            }
        }
    }
    None
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
}
