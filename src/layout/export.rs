//! Sharing a layout: a Kaitai Struct `.ksy` fragment and a C struct, so what a user learned
//! can be used by other tools. Names are made identifiers of each language (lower snake
//! case for Kaitai); what a language cannot say (half floats, fixed point, flag names) is
//! kept as a comment or `doc`.

use super::{Count, Endian, Layout, LayoutField, Ty};
use std::fmt::Write as _;

/// `name` as a Kaitai id: lower case letters, digits and `_`, starting with a letter.
fn ksy_id(name: &str) -> String {
    let mut s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if !s.starts_with(|c: char| c.is_ascii_lowercase()) {
        s.insert_str(0, "f_");
    }
    s
}

/// `name` as a C identifier.
fn c_id(name: &str) -> String {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, '_');
    }
    s
}

fn yaml_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(o, "\\x{:02x}", u32::from(c) & 0xff);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn suffix(e: Endian) -> &'static str {
    match e {
        Endian::Little => "le",
        Endian::Big => "be",
    }
}

fn push_ty(out: &mut Vec<String>, t: String) {
    out.push(format!("type: {t}"));
}

/// The Kaitai type keys of one field's element, and what to say in `doc`.
fn ksy_type(l: &Layout, f: &LayoutField, out: &mut Vec<String>) -> Option<String> {
    let doc = match &f.ty {
        Ty::Int { bytes, signed, endian } => {
            let e = if *bytes > 1 { suffix(*endian) } else { "" };
            push_ty(out, format!("{}{bytes}{e}", if *signed { 's' } else { 'u' }));
            None
        }
        Ty::Float { bytes: 2, endian } => {
            push_ty(out, format!("u2{}", suffix(*endian)));
            Some("IEEE half float (f16) by its bits".to_string())
        }
        Ty::Float { bytes, endian } => {
            push_ty(out, format!("f{bytes}{}", suffix(*endian)));
            None
        }
        Ty::Fixed { bytes, frac, signed, endian } => {
            let e = if *bytes > 1 { suffix(*endian) } else { "" };
            push_ty(out, format!("{}{bytes}{e}", if *signed { 's' } else { 'u' }));
            Some(format!("fixed point: value / 2^{frac} ({})", f.ty_name))
        }
        Ty::Angle16(e) => {
            push_ty(out, format!("u2{}", suffix(*e)));
            Some("angle: 0x10000 is a full turn".to_string())
        }
        Ty::Snorm16(e) => {
            push_ty(out, format!("s2{}", suffix(*e)));
            Some("snorm16: value / 32767, at least -1".to_string())
        }
        Ty::Str(n) => {
            push_ty(out, "strz".into());
            out.push(format!("size: {n}"));
            out.push("encoding: ASCII".into());
            None
        }
        Ty::Strz(_) => {
            push_ty(out, "strz".into());
            out.push("encoding: ASCII".into());
            None
        }
        Ty::Bytes(n) => {
            out.push(format!("size: {n}"));
            None
        }
        Ty::Pad(n) => {
            out.push(format!("size: {n}"));
            Some("padding".to_string())
        }
        Ty::Align(to) => {
            out.push(format!("size: ({to} - _io.pos % {to}) % {to}"));
            Some(format!("padding to a multiple of {to} bytes"))
        }
        Ty::Struct(i) => {
            push_ty(out, l.structs.get(*i).map(|s| ksy_id(&s.name)).unwrap_or_default());
            None
        }
    };
    let flags: Vec<String> = f.flags.iter().map(|(m, n)| format!("0x{m:x} {n}")).collect();
    match (doc, flags.is_empty()) {
        (d, true) => d,
        (None, false) => Some(format!("flags: {}", flags.join(", "))),
        (Some(d), false) => Some(format!("{d}; flags: {}", flags.join(", "))),
    }
}

/// The layout as a Kaitai Struct `.ksy` (its root struct is the top level; the others are
/// `types`; enums are `enums`).
pub fn to_ksy(l: &Layout) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Exported by animscope from the layout {} ({}).", yaml_str(&l.name), yaml_str(&l.origin));
    let _ = writeln!(s, "# Applies to {} nodes: {}", l.format, describe_target(l));
    let _ = writeln!(s, "meta:\n  id: {}\n  endian: le", ksy_id(&l.name));
    let mut enums = Vec::new();
    let mut seq = |s: &mut String, fields: &[LayoutField], indent: &str| {
        let _ = writeln!(s, "{indent}seq:");
        for f in fields {
            let _ = writeln!(s, "{indent}  - id: {}", ksy_id(&f.name));
            let mut keys = Vec::new();
            let doc = ksy_type(l, f, &mut keys);
            for k in keys {
                let _ = writeln!(s, "{indent}    {k}");
            }
            match &f.count {
                Count::One => {}
                Count::Fixed(n) => {
                    let _ = writeln!(s, "{indent}    repeat: expr\n{indent}    repeat-expr: {n}");
                }
                Count::Field(c) => {
                    let _ = writeln!(s, "{indent}    repeat: expr\n{indent}    repeat-expr: {}", ksy_id(c));
                }
                Count::Rest => {
                    let _ = writeln!(s, "{indent}    repeat: eos");
                }
            }
            if !f.enums.is_empty() {
                let name = format!("{}_values", ksy_id(&f.name));
                let _ = writeln!(s, "{indent}    enum: {name}");
                enums.push((name, f.enums.clone()));
            }
            if let Some(d) = doc {
                let _ = writeln!(s, "{indent}    doc: {}", yaml_str(&d));
            }
        }
    };
    if let Some(root) = l.root_struct() {
        seq(&mut s, &root.fields, "");
    }
    let others: Vec<_> = l.structs.iter().enumerate().filter(|(i, _)| *i != l.root).collect();
    if !others.is_empty() {
        let _ = writeln!(s, "types:");
        for (_, st) in others {
            let _ = writeln!(s, "  {}:", ksy_id(&st.name));
            seq(&mut s, &st.fields, "    ");
        }
    }
    if !enums.is_empty() {
        let _ = writeln!(s, "enums:");
        for (name, values) in enums {
            let _ = writeln!(s, "  {name}:");
            for (v, n) in values {
                let _ = writeln!(s, "    {v}: {}", ksy_id(&n));
            }
        }
    }
    s
}

fn describe_target(l: &Layout) -> String {
    let t = &l.target;
    let mut parts = Vec::new();
    if !t.kinds.is_empty() {
        parts.push(format!("kinds {}", t.kinds.join(", ")));
    }
    if let Some(p) = &t.path {
        parts.push(format!("path {p}"));
    }
    if let Some(r) = t.range {
        parts.push(format!("range {r}"));
    }
    if let Some(f) = &t.field {
        parts.push(format!("the bytes of field {f}"));
    }
    if parts.is_empty() {
        // a built-in record's layout: the format's own parser places it
        return "where the format's parser reads this record".into();
    }
    parts.join("; ").replace(['\n', '\r'], " ")
}

/// The C type of a fixed-size element, and a comment.
fn c_type(l: &Layout, f: &LayoutField) -> (String, Option<String>, Option<u64>) {
    let int = |bytes: u8, signed: bool| format!("{}int{}_t", if signed { "" } else { "u" }, u32::from(bytes) * 8);
    let be = |e: &Endian| (*e == Endian::Big).then(|| "big-endian".to_string());
    match &f.ty {
        Ty::Int { bytes, signed, endian } => (int(*bytes, *signed), be(endian), None),
        Ty::Float { bytes: 2, endian } => (
            "uint16_t".into(),
            Some(format!("f16 bits{}", if *endian == Endian::Big { ", big-endian" } else { "" })),
            None,
        ),
        Ty::Float { bytes: 4, endian } => ("float".into(), be(endian), None),
        Ty::Float { endian, .. } => ("double".into(), be(endian), None),
        Ty::Fixed { bytes, signed, endian, .. } => {
            let e = if *endian == Endian::Big { ", big-endian" } else { "" };
            (int(*bytes, *signed), Some(format!("{}{e}", f.ty_name)), None)
        }
        Ty::Angle16(_) => ("uint16_t".into(), Some("angle16: 0x10000 = 360 deg".into()), None),
        Ty::Snorm16(_) => ("int16_t".into(), Some("snorm16: / 32767".into()), None),
        Ty::Str(n) | Ty::Bytes(n) => ("char".into(), None, Some(*n)),
        Ty::Pad(n) => ("uint8_t".into(), Some("padding".into()), Some(*n)),
        Ty::Strz(max) => {
            ("char".into(), Some(format!("NUL-terminated, at most {max} bytes: variable length")), Some(*max))
        }
        Ty::Align(to) => ("uint8_t".into(), Some(format!("padding to a multiple of {to}: variable length")), Some(0)),
        Ty::Struct(i) => {
            (format!("struct {}", l.structs.get(*i).map(|s| c_id(&s.name)).unwrap_or_default()), None, None)
        }
    }
}

/// The layout as C structs (packed, dependencies first). Arrays counted by a field or
/// running to the end are flexible or commented: C has no such members inside a struct.
pub fn to_c(l: &Layout) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* Exported by animscope from the layout \"{}\" ({}). */",
        c_comment(&l.name),
        c_comment(&l.origin)
    );
    let _ = writeln!(s, "/* Applies to {} nodes: {} */", c_comment(&l.format), c_comment(&describe_target(l)));
    let _ = writeln!(s, "#include <stdint.h>\n\n#pragma pack(push, 1)");
    for i in c_order(l) {
        let Some(st) = l.structs.get(i) else { continue };
        let _ = writeln!(s, "\nstruct {} {{", c_id(&st.name));
        let last = st.fields.len().saturating_sub(1);
        for (k, f) in st.fields.iter().enumerate() {
            let (ty, note, len) = c_type(l, f);
            let mut note = note.unwrap_or_default();
            let dims = match (&f.count, len) {
                (Count::One, None) => String::new(),
                (Count::One, Some(n)) => format!("[{n}]"),
                (Count::Fixed(c), None) => format!("[{c}]"),
                (Count::Fixed(c), Some(n)) => format!("[{c}][{n}]"),
                (Count::Field(_) | Count::Rest, len) => {
                    let by = match &f.count {
                        Count::Field(c) => format!("count: {c}"),
                        _ => "to the end".to_string(),
                    };
                    note = if note.is_empty() { by } else { format!("{note}; {by}") };
                    if k == last {
                        format!("[]{}", len.map(|n| format!("[{n}]")).unwrap_or_default())
                    } else {
                        "[0]".into()
                    }
                }
            };
            let comment = if note.is_empty() { String::new() } else { format!(" /* {} */", c_comment(&note)) };
            let _ = writeln!(s, "    {ty} {}{dims};{comment}", c_id(&f.name));
        }
        let _ = writeln!(s, "}};");
    }
    let _ = writeln!(s, "\n#pragma pack(pop)");
    s
}

fn c_comment(s: &str) -> String {
    s.replace("*/", "* /").replace(['\n', '\r'], " ")
}

/// Struct indexes with every struct after those it holds (structs are acyclic).
fn c_order(l: &Layout) -> Vec<usize> {
    fn visit(l: &Layout, i: usize, done: &mut Vec<usize>, depth: usize) {
        if done.contains(&i) || depth > l.structs.len() {
            return;
        }
        for f in l.structs.get(i).map(|s| s.fields.as_slice()).unwrap_or_default() {
            if let Ty::Struct(t) = f.ty {
                visit(l, t, done, depth + 1);
            }
        }
        done.push(i);
    }
    let mut done = Vec::new();
    visit(l, l.root, &mut done, 0);
    for i in 0..l.structs.len() {
        visit(l, i, &mut done, 0);
    }
    done
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(ksy_id("Count"), "count");
        assert_eq!(ksy_id("2x"), "f_2x");
        assert_eq!(ksy_id("a.b-c"), "a_b_c");
        assert_eq!(c_id("2x"), "_2x");
    }
}
