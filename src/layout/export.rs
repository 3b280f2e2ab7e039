//! Sharing a layout: a Kaitai Struct `.ksy` fragment and a C header, so what a user learned
//! can be used by other tools. What a language cannot say (half floats, fixed point, flag
//! names) is kept as a comment or `doc`.
//!
//! Every name becomes an identifier of the language whatever the layout file says:
//! characters outside `[A-Za-z0-9_]` become `_`, a name not starting with a letter gets
//! `f_` before it, a keyword or a name the headers define (`int`, `for`, `uint8_t`,
//! `INT8_MAX`; YAML's `null`, `on`; Kaitai's `and`, `not`) gets `_` after it, and two names
//! that come out the same (`a-b` beside `a_b`, `Loop` beside `loop` in Kaitai's lower case)
//! are told apart by `_2`, `_3`. Text from the file reaches a comment or a YAML string only
//! as printable ASCII (others written `<U+XXXX>`), comment terminators broken. A count
//! whose bytes pass what a C array may hold is refused, naming the layout's line.
//!
//! C has no members after one of variable length. A struct's fields are cut after each
//! field of variable length (an array counted by a field or running to the end, a
//! NUL-terminated string, an `align`, a struct of variable length): that field ends its C
//! struct as a flexible array member, and an accessor function gives the address of what
//! follows it (`main_after_points(m->points, m->count)`, the next part as
//! `struct main_after_points`), so every field is reachable at its real offset.
//!
//! Kaitai: an array running to the end reads the whole elements that fit (as the
//! interpreter does, leaving trailing bytes of a partial element unread), never `repeat:
//! eos`, which fails on them.

use super::parse::MinSizes;
use super::{Count, Endian, Layout, LayoutField, Ty};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

/// Most bytes one C array or struct may take: what a 32-bit target's `ptrdiff_t` holds,
/// so the header compiles for any target.
pub const C_MAX_OBJECT: u64 = (1 << 31) - 1;

/// The `.ksy` and the C header of `l` for the paths given, both made before either is
/// written (either may be refused), so the caller can write them all or nothing.
pub fn files(l: &Layout, ksy: Option<&Path>, c: Option<&Path>) -> Result<Vec<(std::path::PathBuf, String)>, String> {
    let mut files: Vec<(std::path::PathBuf, String)> = Vec::new();
    if let Some(p) = ksy {
        files.push((p.to_path_buf(), to_ksy(l)?));
    }
    if let Some(p) = c {
        files.push((p.to_path_buf(), to_c(l)?));
    }
    Ok(files)
}

/// Where a field is declared, for refusals: `FILE:LINE: field NAME` (no line for a
/// built-in record's field).
fn place(l: &Layout, f: &LayoutField) -> String {
    let at = if f.line > 0 { format!(":{}", f.line) } else { String::new() };
    format!("layout {}{at}: field {}", l.origin, f.name)
}

/// Names given out in one namespace: a name already given comes back with `_2`, `_3`, ….
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
}

impl Names {
    fn claim(&mut self, wanted: String) -> String {
        if self.taken.insert(wanted.clone()) {
            return wanted;
        }
        let mut n = 2u64;
        loop {
            let s = format!("{wanted}_{n}");
            if self.taken.insert(s.clone()) {
                return s;
            }
            n += 1;
        }
    }
}

/// Keywords of C (C89 to C23) and names `<stdint.h>`, `<stddef.h>` and GNU modes define:
/// none may be a member, tag or function name of the header.
const C_RESERVED: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "alignas",
    "alignof",
    "bool",
    "constexpr",
    "false",
    "nullptr",
    "static_assert",
    "thread_local",
    "true",
    "typeof",
    "typeof_unqual",
    "asm",
    "NULL",
    "offsetof",
    "size_t",
    "ptrdiff_t",
    "wchar_t",
    "max_align_t",
    "nullptr_t",
    "unreachable",
    "intptr_t",
    "uintptr_t",
    "intmax_t",
    "uintmax_t",
    "unix",
    "linux",
    "i386",
];

/// A name `<stdint.h>` may define: `int8_t`, `uint_fast16_t`, or a macro such as
/// `INT8_MAX`, `UINT64_C`, `SIZE_MAX`.
fn c_stdint_name(s: &str) -> bool {
    let typedef = s.strip_suffix("_t").is_some_and(|b| {
        let b = b.strip_prefix('u').unwrap_or(b);
        let b = b.strip_prefix("int").unwrap_or("?");
        let b = b.strip_prefix("_least").or_else(|| b.strip_prefix("_fast")).unwrap_or(b);
        matches!(b, "8" | "16" | "32" | "64" | "ptr" | "max")
    });
    let upper = !s.is_empty() && s.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    let limit = ["_MAX", "_MIN", "_C", "_WIDTH"].iter().any(|x| s.ends_with(x));
    typedef || (upper && limit)
}

/// `name` as a C identifier (see the module's rules; unique only once claimed).
fn c_ident(name: &str) -> String {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    // `_X` and `__x` are the implementation's; a digit cannot start one
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert_str(0, "f_");
    }
    if C_RESERVED.contains(&s.as_str()) || c_stdint_name(&s) {
        s.push('_');
    }
    s
}

/// Words YAML reads as something other than a string (`null`, `on`, `y`), and those of
/// Kaitai's expression language (`and`, `not`): no id may be one.
const KSY_RESERVED: &[&str] =
    &["null", "true", "false", "yes", "no", "on", "off", "y", "n", "and", "or", "not", "as", "sizeof", "bitsizeof"];

/// A Kaitai built-in type name (`u4le`, `s1`, `f8be`, `b12`, `str`, `strz`): no user
/// type may be called one.
fn ksy_builtin(s: &str) -> bool {
    let num = |r: &str| {
        let r = r.strip_suffix("le").or_else(|| r.strip_suffix("be")).unwrap_or(r);
        !r.is_empty() && r.chars().all(|c| c.is_ascii_digit())
    };
    matches!(s, "str" | "strz" | "bytes") || s.strip_prefix(['u', 's', 'f', 'b']).is_some_and(num)
}

/// `name` as a Kaitai id: lower case letters, digits and `_`, starting with a letter.
fn ksy_ident(name: &str) -> String {
    let mut s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if !s.starts_with(|c: char| c.is_ascii_lowercase()) {
        s.insert_str(0, "f_");
    }
    if KSY_RESERVED.contains(&s.as_str()) || ksy_builtin(&s) {
        s.push('_');
    }
    s
}

/// Text from a layout as printable ASCII: anything else written `<U+XXXX>`.
fn ascii(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        if c == ' ' || c.is_ascii_graphic() {
            o.push(c);
        } else {
            let _ = write!(o, "<U+{:04X}>", u32::from(c));
        }
    }
    o
}

/// `s` inside a C block comment: printable ASCII, no comment start or end, no trigraph.
fn c_comment(s: &str) -> String {
    let mut o = ascii(s);
    while o.contains("*/") || o.contains("/*") || o.contains("??") {
        o = o.replace("*/", "* /").replace("/*", "/ *").replace("??", "? ?");
    }
    o
}

/// `s` as a YAML double-quoted string of printable ASCII (others as `\uXXXX` escapes).
fn yaml_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if c == ' ' || c.is_ascii_graphic() => o.push(c),
            c if u32::from(c) <= 0xffff => {
                let _ = write!(o, "\\u{:04x}", u32::from(c));
            }
            c => {
                let _ = write!(o, "\\U{:08x}", u32::from(c));
            }
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

/// The Kaitai keys of one field's element type, and what to say in `doc`.
fn ksy_type(types: &[String], f: &LayoutField, out: &mut Vec<String>) -> Option<String> {
    let mut ty = |t: String| out.push(format!("type: {t}"));
    let doc = match &f.ty {
        Ty::Int { bytes, signed, endian } => {
            let e = if *bytes > 1 { suffix(*endian) } else { "" };
            ty(format!("{}{bytes}{e}", if *signed { 's' } else { 'u' }));
            None
        }
        Ty::Float { bytes: 2, endian } => {
            ty(format!("u2{}", suffix(*endian)));
            Some("IEEE half float (f16) by its bits".to_string())
        }
        Ty::Float { bytes, endian } => {
            ty(format!("f{bytes}{}", suffix(*endian)));
            None
        }
        Ty::Fixed { bytes, frac, signed, endian } => {
            let e = if *bytes > 1 { suffix(*endian) } else { "" };
            ty(format!("{}{bytes}{e}", if *signed { 's' } else { 'u' }));
            Some(format!("fixed point: value / 2^{frac} ({})", f.ty_name))
        }
        Ty::Angle16(e) => {
            ty(format!("u2{}", suffix(*e)));
            Some("angle: 0x10000 is a full turn".to_string())
        }
        Ty::Snorm16(e) => {
            ty(format!("s2{}", suffix(*e)));
            Some("snorm16: value / 32767, at least -1".to_string())
        }
        Ty::Str(n) => {
            ty("strz".into());
            out.push(format!("size: {n}"));
            out.push("encoding: ASCII".into());
            None
        }
        Ty::Strz(_) => {
            ty("strz".into());
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
            ty(types.get(*i).cloned().unwrap_or_default());
            None
        }
    };
    // in bit order, as the parser sorted them
    let flags: Vec<String> = f.flags.iter().map(|(m, n)| format!("0x{m:x} {n}")).collect();
    match (doc, flags.is_empty()) {
        (d, true) => d,
        (None, false) => Some(format!("flags: {}", flags.join(", "))),
        (Some(d), false) => Some(format!("{d}; flags: {}", flags.join(", "))),
    }
}

/// The layout as a Kaitai Struct `.ksy` (its root struct is the top level; the others are
/// `types`; enums are `enums`).
pub fn to_ksy(l: &Layout) -> Result<String, String> {
    let mut sizes = MinSizes::new(&l.structs);
    let mut fixed = Fixed::new(l);
    // type ids, one namespace (the root's is the meta id)
    let mut type_names = Names::default();
    let meta = type_names.claim(ksy_ident(&l.name));
    let types: Vec<String> = l
        .structs
        .iter()
        .enumerate()
        .map(|(i, s)| if i == l.root { meta.clone() } else { type_names.claim(ksy_ident(&s.name)) })
        .collect();
    let mut enum_names = Names::default();
    let mut enums: Vec<(String, Vec<(u64, String)>)> = Vec::new();
    let mut s = String::new();
    let _ = writeln!(s, "# Exported by animscope from the layout {} ({}).", yaml_str(&l.name), yaml_str(&l.origin));
    let _ = writeln!(s, "# Applies to {} nodes: {}", ascii(&l.format), ascii(&describe_target(l)));
    let _ = writeln!(s, "meta:\n  id: {meta}\n  endian: le");
    let mut seq = |s: &mut String, fields: &[LayoutField], indent: &str| {
        let _ = writeln!(s, "{indent}seq:");
        let mut ids = Names::default();
        let mut by_name: HashMap<&str, String> = HashMap::new();
        for f in fields {
            let id = ids.claim(ksy_ident(&f.name));
            let _ = writeln!(s, "{indent}  - id: {id}");
            let mut keys = Vec::new();
            let doc = ksy_type(&types, f, &mut keys);
            for k in keys {
                let _ = writeln!(s, "{indent}    {k}");
            }
            match &f.count {
                Count::One => {}
                Count::Fixed(n) => {
                    let _ = writeln!(s, "{indent}    repeat: expr\n{indent}    repeat-expr: {n}");
                }
                Count::Field(c) => {
                    let by = by_name.get(c.as_str()).cloned().unwrap_or_else(|| ksy_ident(c));
                    let _ = writeln!(s, "{indent}    repeat: expr\n{indent}    repeat-expr: {by}");
                }
                // whole elements while they fit, as the interpreter reads
                Count::Rest => match fixed.size(&f.ty) {
                    Some(n) => {
                        let _ = writeln!(
                            s,
                            "{indent}    repeat: expr\n{indent}    repeat-expr: (_io.size - _io.pos) / {}",
                            n.max(1)
                        );
                    }
                    None => {
                        let min = sizes.of(&f.ty).max(1);
                        let _ = writeln!(
                            s,
                            "{indent}    if: _io.size - _io.pos >= {min}\n{indent}    repeat: until\n\
                             {indent}    repeat-until: _io.size - _io.pos < {min}"
                        );
                    }
                },
            }
            if !f.enums.is_empty() {
                let name = enum_names.claim(format!("{id}_values"));
                let _ = writeln!(s, "{indent}    enum: {name}");
                enums.push((name, f.enums.clone()));
            }
            if let Some(d) = doc {
                let _ = writeln!(s, "{indent}    doc: {}", yaml_str(&d));
            }
            by_name.entry(f.name.as_str()).or_insert(id);
        }
    };
    if let Some(root) = l.root_struct() {
        seq(&mut s, &root.fields, "");
    }
    let others: Vec<_> = l.structs.iter().enumerate().filter(|(i, _)| *i != l.root).collect();
    if !others.is_empty() {
        let _ = writeln!(s, "types:");
        for (i, st) in others {
            let _ = writeln!(s, "  {}:", types.get(i).map_or("", String::as_str));
            seq(&mut s, &st.fields, "    ");
        }
    }
    if !enums.is_empty() {
        let _ = writeln!(s, "enums:");
        for (name, values) in enums {
            let _ = writeln!(s, "  {name}:");
            let mut names = Names::default();
            for (v, n) in values {
                let _ = writeln!(s, "    {v}: {}", names.claim(ksy_ident(&n)));
            }
        }
    }
    Ok(s)
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
    parts.join("; ")
}

/// Exact sizes of types of fixed size (None: variable), memoised per struct.
struct Fixed<'a> {
    l: &'a Layout,
    memo: HashMap<usize, Option<u64>>,
}

impl<'a> Fixed<'a> {
    fn new(l: &'a Layout) -> Self {
        Fixed { l, memo: HashMap::new() }
    }

    fn size(&mut self, ty: &Ty) -> Option<u64> {
        self.go(ty, 0)
    }

    fn go(&mut self, ty: &Ty, depth: u32) -> Option<u64> {
        match ty {
            Ty::Int { bytes, .. } | Ty::Float { bytes, .. } | Ty::Fixed { bytes, .. } => Some(u64::from(*bytes)),
            Ty::Angle16(_) | Ty::Snorm16(_) => Some(2),
            Ty::Str(n) | Ty::Bytes(n) | Ty::Pad(n) => Some(*n),
            Ty::Strz(_) | Ty::Align(_) => None,
            Ty::Struct(_) if depth > super::parse::MAX_NESTING => None,
            Ty::Struct(i) => {
                if let Some(n) = self.memo.get(i) {
                    return *n;
                }
                let l = self.l;
                let mut total = Some(0u64);
                for f in l.structs.get(*i).map(|s| s.fields.as_slice()).unwrap_or_default() {
                    let elem = self.go(&f.ty, depth + 1);
                    let n = match &f.count {
                        Count::One => elem,
                        Count::Fixed(c) => elem.and_then(|e| e.checked_mul(*c)),
                        Count::Field(_) | Count::Rest => None,
                    };
                    total = total.zip(n).and_then(|(a, b)| a.checked_add(b));
                }
                self.memo.insert(*i, total);
                total
            }
        }
    }
}

/// A C element type: the type, the length of a byte run inside each element (`char
/// name[8]`), and a comment.
fn c_type(tags: &[String], f: &LayoutField) -> (String, Option<u64>, Option<String>) {
    let int = |bytes: u8, signed: bool| format!("{}int{}_t", if signed { "" } else { "u" }, u32::from(bytes) * 8);
    let be = |e: &Endian| (*e == Endian::Big).then(|| "big-endian".to_string());
    match &f.ty {
        Ty::Int { bytes, signed, endian } => (int(*bytes, *signed), None, be(endian)),
        Ty::Float { bytes: 2, endian } => (
            "uint16_t".into(),
            None,
            Some(format!("f16 bits{}", if *endian == Endian::Big { ", big-endian" } else { "" })),
        ),
        Ty::Float { bytes: 4, endian } => ("float".into(), None, be(endian)),
        Ty::Float { endian, .. } => ("double".into(), None, be(endian)),
        Ty::Fixed { bytes, signed, endian, .. } => {
            let e = if *endian == Endian::Big { ", big-endian" } else { "" };
            (int(*bytes, *signed), None, Some(format!("{}{e}", f.ty_name)))
        }
        Ty::Angle16(_) => ("uint16_t".into(), None, Some("angle16: 0x10000 = 360 deg".into())),
        Ty::Snorm16(_) => ("int16_t".into(), None, Some("snorm16: / 32767".into())),
        Ty::Str(n) | Ty::Bytes(n) => ("char".into(), Some(*n), None),
        Ty::Pad(n) => ("uint8_t".into(), Some(*n), Some("padding".into())),
        Ty::Strz(max) => ("char".into(), None, Some(format!("NUL-terminated, at most {max} bytes"))),
        Ty::Align(to) => ("uint8_t".into(), None, Some(format!("padding to a multiple of {to} bytes"))),
        Ty::Struct(i) => (format!("struct {}", tags.get(*i).map_or("", String::as_str)), None, None),
    }
}

/// What follows a field of variable length: how the accessor finds it from the field's
/// address.
enum Step {
    /// `n` elements of this many bytes.
    Count(u64),
    /// A number of bytes the caller knows (a string's, a struct's).
    Bytes,
    /// Padding to a multiple of this many bytes from the layout's start.
    Align(u64),
}

/// An accessor: the address of what follows variable field `field` of a struct part.
struct Accessor {
    name: String,
    /// The part it returns (its tag), or None when that part holds no member of fixed
    /// length (the address is then the next field's).
    returns: Option<String>,
    field: String,
    step: Step,
    what: &'static str,
}

/// The layout as C structs (packed, dependencies first), with an accessor for what
/// follows each field of variable length (see the module's notes). Refused, naming the
/// field's line, when an array or struct would pass [`C_MAX_OBJECT`] bytes.
pub fn to_c(l: &Layout) -> Result<String, String> {
    let mut fixed = Fixed::new(l);
    // tags and functions: one namespace each (a tag and a function may share a name)
    let mut tag_names = Names::default();
    let tags: Vec<String> = l.structs.iter().map(|s| tag_names.claim(c_ident(&s.name))).collect();
    let mut fn_names = Names::default();
    let mut body = String::new();
    let mut accessors: Vec<Accessor> = Vec::new();
    for i in c_order(l) {
        let (Some(st), Some(tag)) = (l.structs.get(i), tags.get(i)) else { continue };
        // the offset from the layout's start, while it is known (the root's first part)
        let mut at_known = (i == l.root).then_some(0u64);
        let mut part = Part::new(tag.clone());
        // the accessor that returns the part being written
        let mut returning: Option<usize> = None;
        let last = st.fields.len().saturating_sub(1);
        for (k, f) in st.fields.iter().enumerate() {
            let (ty, len, note) = c_type(&tags, f);
            let elem = fixed.size(&f.ty);
            let refuse = |what: String| {
                Err(format!("{}: {what}, more than a C array may hold ({C_MAX_OBJECT} bytes)", place(l, f)))
            };
            if let Some(n) = len.filter(|n| *n > C_MAX_OBJECT) {
                return refuse(format!("{n} bytes"));
            }
            let count = match &f.count {
                Count::One => Some(1),
                Count::Fixed(c) => Some(*c),
                _ => None,
            };
            // fixed: a member at its offset
            if let (Some(c), Some(e)) = (count, elem) {
                let Some(bytes) = e.checked_mul(c).filter(|b| *b <= C_MAX_OBJECT) else {
                    return refuse(format!("{c} x {e} bytes"));
                };
                if part.bytes.saturating_add(bytes) > C_MAX_OBJECT {
                    return refuse(format!("struct {} with it takes more than that", st.name));
                }
                let dims = match (&f.count, len) {
                    (Count::Fixed(c), Some(n)) => format!("[{c}][{n}]"),
                    (Count::Fixed(c), None) => format!("[{c}]"),
                    (_, Some(n)) => format!("[{n}]"),
                    _ => String::new(),
                };
                if bytes == 0 {
                    part.comment(&format!("{}: no bytes ({c} elements)", f.name));
                } else {
                    part.member(&ty, &f.name, &dims, note.as_deref());
                }
                part.bytes += bytes;
                at_known = at_known.map(|a| a + bytes);
                continue;
            }
            // align where the offset is known: padding of a known length
            if let (Ty::Align(to), Count::One, Some(a)) = (&f.ty, &f.count, at_known) {
                let pad = (to - a % to) % to;
                if pad == 0 {
                    part.comment(&format!("{}: aligned to {to} bytes here already", f.name));
                } else {
                    part.member("uint8_t", &f.name, &format!("[{pad}]"), note.as_deref());
                }
                part.bytes += pad;
                at_known = Some(a + pad);
                continue;
            }
            // variable: it ends this part, as a flexible array member
            let (member_ty, dims, step, what, notes) = flexible(f, &ty, elem, len, note);
            let field = part.flexible(&member_ty, &f.name, &dims, &notes.join("; "));
            at_known = None;
            if k == last {
                break;
            }
            // what follows: the next part, and the accessor that finds it
            let next_tag = tag_names.claim(c_ident(&format!("{tag}_after_{}", f.name)));
            let done = std::mem::replace(&mut part, Part::new(next_tag));
            let (text, was_struct) = done.finish();
            body.push_str(&text);
            if let Some(a) = returning.and_then(|r| accessors.get_mut(r))
                && let Some(t) = was_struct
            {
                a.returns = Some(t);
            }
            let name = fn_names.claim(c_ident(&format!("{tag}_after_{}", f.name)));
            returning = Some(accessors.len());
            accessors.push(Accessor { name, returns: None, field, step, what });
        }
        let (text, was_struct) = part.finish();
        body.push_str(&text);
        if let Some(a) = returning.and_then(|r| accessors.get_mut(r))
            && let Some(t) = was_struct
        {
            a.returns = Some(t);
        }
    }
    Ok(c_text(l, &body, &accessors))
}

/// A field of variable length as the flexible array member that ends its part: its type,
/// dimensions, how its accessor steps over it, what the accessor is given, and its notes.
fn flexible(
    f: &LayoutField,
    ty: &str,
    elem: Option<u64>,
    len: Option<u64>,
    note: Option<String>,
) -> (String, String, Step, &'static str, Vec<String>) {
    let (member_ty, dims, step, what) = match (&f.ty, elem, &f.count) {
        (Ty::Align(to), _, Count::One) => ("uint8_t".to_string(), "[]".to_string(), Step::Align(*to), "padding"),
        (Ty::Strz(_), _, Count::One) => {
            ("char".to_string(), "[]".to_string(), Step::Bytes, "its bytes, the NUL included")
        }
        (_, Some(e), Count::Field(_) | Count::Rest) => {
            let dims = len.map_or_else(|| "[]".to_string(), |n| format!("[][{n}]"));
            (ty.to_string(), dims, Step::Count(e), "its element count")
        }
        _ => ("uint8_t".to_string(), "[]".to_string(), Step::Bytes, "the bytes it takes"),
    };
    let mut notes: Vec<String> = note.into_iter().collect();
    if member_ty != ty {
        let n = match &f.count {
            Count::One => String::new(),
            Count::Fixed(c) => format!("{c} x "),
            _ => "an array of ".into(),
        };
        notes.push(format!("{n}{ty}, of variable length"));
    }
    match &f.count {
        Count::Field(c) => notes.push(format!("count: {c}")),
        Count::Rest => notes.push("to the end".into()),
        _ => {}
    }
    (member_ty, dims, step, what, notes)
}

/// The C header: what it was exported from, the structs `body` packed, then the accessors.
fn c_text(l: &Layout, body: &str, accessors: &[Accessor]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* Exported by animscope from the layout \"{}\" ({}). */",
        c_comment(&l.name),
        c_comment(&l.origin)
    );
    let _ = writeln!(s, "/* Applies to {} nodes: {} */", c_comment(&l.format), c_comment(&describe_target(l)));
    let _ = writeln!(s, "#include <stddef.h>\n#include <stdint.h>\n\n#pragma pack(push, 1)");
    s.push_str(body);
    let _ = writeln!(s, "\n#pragma pack(pop)");
    for a in accessors {
        let ret = a.returns.as_ref().map_or("const void *".to_string(), |t| format!("const struct {t} *"));
        let (param, at) = match a.step {
            Step::Count(e) => ("size_t n", format!("(const char *)at + n * (size_t){e}")),
            Step::Bytes => ("size_t size", "(const char *)at + size".to_string()),
            Step::Align(to) => (
                "const void *start",
                format!(
                    "(const char *)start + ((size_t)((const char *)at - (const char *)start) + {}) / {to} * {to}",
                    to - 1
                ),
            ),
        };
        let cast = if a.returns.is_some() { format!("({ret})(const void *)") } else { "(const void *)".into() };
        let _ = writeln!(
            s,
            "\n/* What follows {f}, given its address and {what}. */\nstatic inline {ret}{name}(const void *at, {param})\n\
             {{\n    return {cast}({at});\n}}",
            f = c_comment(&a.field),
            what = a.what,
            name = a.name,
        );
    }
    s
}

/// One C struct being written: the members of a struct up to and including its first
/// field of variable length.
struct Part {
    tag: String,
    members: Vec<String>,
    names: Names,
    /// Named members so far (a struct needs one before a flexible array member).
    named: usize,
    bytes: u64,
}

impl Part {
    fn new(tag: String) -> Part {
        Part { tag, members: Vec::new(), names: Names::default(), named: 0, bytes: 0 }
    }

    /// Add a member; returns its identifier.
    fn member(&mut self, ty: &str, name: &str, dims: &str, note: Option<&str>) -> String {
        let id = self.names.claim(c_ident(name));
        let mut comment = note.map(str::to_string).unwrap_or_default();
        if id != name {
            let was = format!("\"{name}\" in the layout");
            comment = if comment.is_empty() { was } else { format!("{comment}; {was}") };
        }
        let comment = if comment.is_empty() { String::new() } else { format!(" /* {} */", c_comment(&comment)) };
        self.members.push(format!("    {ty} {id}{dims};{comment}"));
        self.named += 1;
        id
    }

    fn comment(&mut self, text: &str) {
        let text = format!("    /* {} */", c_comment(text));
        self.members.push(text);
    }

    /// A flexible array member ending the part; returns how to name the field in a
    /// comment. Alone in its part it is only a comment (C wants a named member before
    /// it): the part's address is then the field's.
    fn flexible(&mut self, ty: &str, name: &str, dims: &str, note: &str) -> String {
        if self.named == 0 {
            self.comment(&format!("{name}: {ty}{dims} at this address; {note}"));
            return name.to_string();
        }
        let id = self.member(ty, name, dims, Some(note));
        format!("{}.{id}", self.tag)
    }

    /// The part as C (a struct when it has a named member, else its comments), and its
    /// tag when it is a struct.
    fn finish(self) -> (String, Option<String>) {
        if self.named == 0 {
            if self.members.is_empty() {
                return (String::new(), None);
            }
            let text = format!("\n/* {}: no field of fixed length */\n{}\n", self.tag, self.members.join("\n"));
            return (text, None);
        }
        (format!("\nstruct {} {{\n{}\n}};\n", self.tag, self.members.join("\n")), Some(self.tag))
    }
}

/// Struct indexes with every struct after those it holds (structs are acyclic, nested at
/// most [`super::parse::MAX_NESTING`] deep).
fn c_order(l: &Layout) -> Vec<usize> {
    fn visit(l: &Layout, i: usize, done: &mut Vec<usize>, seen: &mut HashSet<usize>, depth: u32) {
        if depth > super::parse::MAX_NESTING || !seen.insert(i) {
            return;
        }
        for f in l.structs.get(i).map(|s| s.fields.as_slice()).unwrap_or_default() {
            if let Ty::Struct(t) = f.ty {
                visit(l, t, done, seen, depth + 1);
            }
        }
        done.push(i);
    }
    let mut done = Vec::new();
    let mut seen = HashSet::new();
    visit(l, l.root, &mut done, &mut seen, 0);
    for i in 0..l.structs.len() {
        visit(l, i, &mut done, &mut seen, 0);
    }
    done
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(ksy_ident("Count"), "count");
        assert_eq!(ksy_ident("2x"), "f_2x");
        assert_eq!(ksy_ident("a.b-c"), "a_b_c");
        assert_eq!(c_ident("2x"), "f_2x");
        // keywords and header names get `_`; an implementation's `_X` gets `f_`
        for (name, c) in [("int", "int_"), ("for", "for_"), ("uint8_t", "uint8_t_"), ("INT8_MAX", "INT8_MAX_")] {
            assert_eq!(c_ident(name), c);
        }
        assert_eq!(c_ident("_Bool"), "f__Bool");
        assert_eq!(c_ident("/* x */"), "f____x___");
        assert_eq!(c_ident("count"), "count", "an ordinary name is kept");
        for (name, k) in [("null", "null_"), ("On", "on_"), ("and", "and_"), ("u4le", "u4le_"), ("strz", "strz_")] {
            assert_eq!(ksy_ident(name), k);
        }
        assert_eq!(ksy_ident("u4x"), "u4x", "not a built-in type");
    }

    /// Two names that come out the same identifier are told apart; a third too.
    #[test]
    fn collisions_are_told_apart() {
        let mut n = Names::default();
        let got: Vec<String> = ["a-b", "a_b", "a.b", "x"].iter().map(|s| n.claim(c_ident(s))).collect();
        assert_eq!(got, ["a_b", "a_b_2", "a_b_3", "x"]);
        let mut n = Names::default();
        assert_eq!(n.claim(ksy_ident("Loop")), "loop");
        assert_eq!(n.claim(ksy_ident("loop")), "loop_2");
    }

    /// Comments and YAML strings carry printable ASCII only, with no way out of the
    /// comment or the string.
    #[test]
    fn text_cannot_escape_comments_or_strings() {
        assert_eq!(c_comment("a */ b /* c ??/ d\nx"), "a * / b / * c ? ?/ d<U+000A>x");
        for hostile in ["***//**", "*/*/*/", "/**/", "??????/", "a\u{0}b\u{202e}c"] {
            let c = c_comment(hostile);
            assert!(!c.contains("*/") && !c.contains("/*") && !c.contains("??"), "{hostile:?} → {c:?}");
            assert!(c.chars().all(|x| x == ' ' || x.is_ascii_graphic()), "{hostile:?} → {c:?}");
        }
        assert_eq!(yaml_str("a\"b\\\n\u{2028}é"), "\"a\\\"b\\\\\\u000a\\u2028\\u00e9\"");
    }
}
