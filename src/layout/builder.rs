//! Building a layout field by field from a cursor (the TUI's layout builder): the first
//! field fixes the node (or one built-in field of it) and where the layout starts, each
//! next field starts where the last ended, and the result is a layout file's text.
//!
//! A field is `TYPE NAME`. `TYPE` is a type of a layout file (`u32`, `f32`, `str:8`,
//! `strz`, `bytes:4`), a struct declared earlier, or an array of one: `TYPE[N]` (a fixed
//! count), `TYPE[count]` (the value of an earlier integer field), `TYPE[]` (as many as fit).
//! A small struct is declared inline where it is first used: `vec3{f32 x, f32 y, f32 z}`
//! (unnamed, `{f32 x, f32 y}`, it is called `NAME_item`). Where a field ends depends on
//! the bytes for arrays and NUL-terminated strings, so each one added is measured by the
//! layout interpreter ([`super::interpret::measure`]) over the node's bytes.

#[cfg(test)]
use super::interpret::measure;
use super::interpret::{Input, measure_from};
use super::parse::parse_layout;
use super::{Count, Ty};
use crate::bytes::Bytes;
use crate::limits::Limits;
use crate::model::Span;
use std::fmt::Write as _;

/// One field added.
#[derive(Debug, Clone, PartialEq)]
pub struct BuiltField {
    /// Its name.
    pub name: String,
    /// Its element type as written (`u32`, `str:8`, `vec3`).
    pub ty: String,
    /// Its count as written (`3`, `count`, `rest`), for an array.
    pub count: Option<String>,
    /// Bytes it took over the node's bytes when it was added.
    pub size: u64,
}

/// A layout being built over one node's bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutBuilder {
    /// Format id of the document.
    pub format: String,
    /// Kind of the node the layout is for.
    pub kind: String,
    /// The built-in field of the node the layout covers, if it covers one (`payload`).
    pub field: Option<String>,
    /// Absolute offset of the bytes the layout reads (the node's, or its field's).
    pub node_start: u64,
    /// Absolute end of those bytes.
    pub node_end: u64,
    /// Where the first field starts.
    pub start: u64,
    /// Where the next field starts.
    pub next: u64,
    /// The fields added, in order.
    pub fields: Vec<BuiltField>,
    /// Structs declared inline: name, then (type, name) of each member.
    pub structs: Vec<(String, Vec<(String, String)>)>,
}

/// True for a name a layout file accepts for a field or struct.
fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `base` and the length of `str:8`-style types.
fn split_len(ty: &str) -> Result<(&str, Option<u64>), String> {
    match ty.split_once(':') {
        Some((b, n)) => {
            Ok((b, Some(n.parse::<u64>().map_err(|_| format!("\"{ty}\": the length after : is a number"))?)))
        }
        None => Ok((ty, None)),
    }
}

/// One field of a layout file's struct, as TOML.
fn field_toml(t: &mut String, table: &str, name: &str, ty: &str, count: Option<&str>) {
    let _ = writeln!(t, "\n[[struct.{table}]]\nname = \"{name}\"");
    match split_len(ty) {
        Ok((b, Some(len))) => {
            let _ = writeln!(t, "type = \"{b}\"\nlen = {len}");
        }
        _ => {
            let _ = writeln!(t, "type = \"{ty}\"");
        }
    }
    match count {
        None => {}
        Some(n) if n.parse::<u64>().is_ok() => {
            let _ = writeln!(t, "count = {n}");
        }
        Some(c) => {
            let _ = writeln!(t, "count = \"{c}\"");
        }
    }
}

impl LayoutBuilder {
    /// A builder for a node of `kind` spanning `node_start..node_end`, starting at `at`.
    pub fn new(format: &str, kind: &str, node_start: u64, node_end: u64, at: u64) -> Self {
        LayoutBuilder {
            format: format.to_string(),
            kind: kind.to_string(),
            field: None,
            node_start,
            node_end,
            start: at,
            next: at,
            fields: Vec::new(),
            structs: Vec::new(),
        }
    }

    /// A builder over the bytes of built-in field `field` (`span`) of a node of `kind`: the
    /// layout file names the field, so it applies wherever that field is.
    pub fn over_field(format: &str, kind: &str, field: &str, span: Span) -> Self {
        LayoutBuilder {
            field: Some(field.to_string()),
            ..LayoutBuilder::new(format, kind, span.start, span.end, span.start)
        }
    }

    /// Add a field from `TYPE NAME` (see the module's help) at [`LayoutBuilder::next`],
    /// measured over `data` (the node's bytes at their absolute offsets) under `limits`;
    /// returns its size in bytes.
    pub fn add(&mut self, spec: &str, data: Bytes<'_>, limits: &Limits) -> Result<u64, String> {
        self.add_from(spec, Input::Bytes(data), limits)
    }

    /// [`LayoutBuilder::add`] reading the node's bytes from `input` (only what the fields
    /// read, not the node's whole span).
    pub fn add_from(&mut self, spec: &str, input: Input<'_>, limits: &Limits) -> Result<u64, String> {
        let spec = spec.trim();
        let usage = || {
            format!(
                "\"{spec}\": write TYPE NAME, e.g. u32 count, f32 x, str:8 label, strz name, \
                 vec3{{f32 x, f32 y, f32 z}}[count] points"
            )
        };
        let (ty, name) = spec.rsplit_once(char::is_whitespace).ok_or_else(usage)?;
        let (ty, name) = (ty.trim(), name.trim());
        if ty.is_empty() {
            return Err(usage());
        }
        if !is_name(name) || self.fields.iter().any(|f| f.name == name) {
            return Err(format!("field name \"{name}\": letters, digits and _ only, one of each name"));
        }
        // `ELEM[COUNT]`
        let (elem, count) = match ty.strip_suffix(']').and_then(|t| t.rsplit_once('[')) {
            Some((e, c)) => {
                let c = c.trim();
                let c = if c.is_empty() { "rest" } else { c };
                if !is_name(c) {
                    return Err(format!(
                        "count \"{c}\": a number, an earlier field's name, or nothing (as many as fit)"
                    ));
                }
                (e.trim(), Some(c.to_string()))
            }
            None => (ty, None),
        };
        let mut next = self.clone();
        // `SNAME{T a, T b}`: a struct declared here
        let mut declared = None;
        let elem = match elem.strip_suffix('}').and_then(|e| e.split_once('{')) {
            Some((sname, body)) => {
                let sname = sname.trim();
                let sname = if sname.is_empty() { format!("{name}_item") } else { sname.to_string() };
                if !is_name(&sname) || sname == "main" {
                    return Err(format!("struct name \"{sname}\": letters, digits and _ only, not main"));
                }
                let mut members: Vec<(String, String)> = Vec::new();
                for m in body.split(',') {
                    let mut w = m.split_whitespace();
                    let (Some(t), Some(n), None) = (w.next(), w.next(), w.next()) else {
                        return Err(format!("struct {sname}: \"{}\" is not TYPE NAME", m.trim()));
                    };
                    if !is_name(n) || members.iter().any(|x| x.1 == n) {
                        return Err(format!("struct {sname}: member \"{n}\": letters, digits and _ only, one of each"));
                    }
                    split_len(t)?;
                    members.push((t.to_string(), n.to_string()));
                }
                match next.structs.iter().find(|s| s.0 == sname) {
                    Some(s) if s.1 != members => {
                        return Err(format!("struct {sname} is declared already, with other members"));
                    }
                    Some(_) => {}
                    None => next.structs.push((sname.clone(), members)),
                }
                declared = Some(sname.clone());
                sname
            }
            None => elem.to_string(),
        };
        split_len(&elem)?;
        next.fields.push(BuiltField { name: name.to_string(), ty: elem, count, size: 0 });
        // checked as the saved file will be, then read over the bytes as it will be applied
        let l = parse_layout(&next.to_toml("new"), "field", "new").map_err(|e| e.message)?;
        if declared.is_some() {
            let f = l.root_struct().and_then(|s| s.fields.last()).ok_or("no field")?;
            if !matches!(f.ty, Ty::Struct(_)) {
                return Err(format!("struct name \"{}\" is a type already", f.ty_name));
            }
        }
        if let Some(f) = l.root_struct().and_then(|s| s.fields.last())
            && matches!(f.ty, Ty::Align(_))
            && f.count != Count::One
        {
            return Err("an array of align".into());
        }
        let end = measure_from(&l, input, Span::new(self.node_start, self.node_end), limits)
            .map_err(|s| s.reason.strip_prefix("new: ").unwrap_or(&s.reason).to_string())?;
        let size = end.saturating_sub(self.next);
        if let Some(f) = next.fields.last_mut() {
            f.size = size;
        }
        next.next = end;
        *self = next;
        Ok(size)
    }

    /// Drop the last field (and a struct only it declared).
    pub fn undo(&mut self) {
        if let Some(f) = self.fields.pop() {
            self.next -= f.size;
            if !self.fields.iter().any(|g| g.ty == f.ty) {
                self.structs.retain(|s| s.0 != f.ty);
            }
        }
    }

    /// Remove field `name`: the fields after it move up to where it started (a layout is
    /// read in order), each measured again over `input`. A field whose count is `name` is
    /// refused (remove that one first), as is a removal after which a field no longer fits.
    pub fn remove(&mut self, name: &str, input: Input<'_>, limits: &Limits) -> Result<(), String> {
        let i = self.fields.iter().position(|f| f.name == name).ok_or_else(|| format!("no field {name}"))?;
        if let Some(user) = self.fields.iter().find(|f| f.count.as_deref() == Some(name)) {
            return Err(format!("{} is counted by {name}: remove {} first", user.name, user.name));
        }
        let mut next = self.clone();
        let gone = next.fields.remove(i);
        next.drop_unused_struct(&gone.ty);
        next.remeasure(input, limits)?;
        *self = next;
        Ok(())
    }

    /// Rename field `old` to `new` (a count naming it follows).
    pub fn rename(&mut self, old: &str, new: &str) -> Result<(), String> {
        let new = new.trim();
        if !self.fields.iter().any(|f| f.name == old) {
            return Err(format!("no field {old}"));
        }
        if !is_name(new) || self.fields.iter().any(|f| f.name == new) {
            return Err(format!("field name \"{new}\": letters, digits and _ only, one of each name"));
        }
        for f in &mut self.fields {
            if f.name == old {
                f.name = new.to_string();
            }
            if f.count.as_deref() == Some(old) {
                f.count = Some(new.to_string());
            }
        }
        Ok(())
    }

    /// Drop the inline struct `ty` when no field or struct member uses it any more.
    fn drop_unused_struct(&mut self, ty: &str) {
        let used = self.fields.iter().any(|g| g.ty == ty)
            || self.structs.iter().any(|(_, members)| members.iter().any(|(t, _)| t == ty));
        if !used {
            self.structs.retain(|s| s.0 != ty);
        }
    }

    /// Measure every field again from [`LayoutBuilder::start`] over `input`: their sizes
    /// and where the next one starts.
    fn remeasure(&mut self, input: Input<'_>, limits: &Limits) -> Result<(), String> {
        let mut end = self.start;
        for i in 0..self.fields.len() {
            let mut prefix = self.clone();
            prefix.fields.truncate(i + 1);
            let l = parse_layout(&prefix.to_toml("new"), "field", "new").map_err(|e| e.message)?;
            let at = measure_from(&l, input, Span::new(self.node_start, self.node_end), limits)
                .map_err(|s| s.reason.strip_prefix("new: ").unwrap_or(&s.reason).to_string())?;
            if let Some(f) = self.fields.get_mut(i) {
                f.size = at.saturating_sub(end);
            }
            end = at;
        }
        self.next = end;
        Ok(())
    }

    /// The layout file's text, named `name`: for the node's kind (and field), from the
    /// start of its bytes (bytes before the first field are padding).
    pub fn to_toml(&self, name: &str) -> String {
        let q = |s: &str| s.replace(['\\', '"'], "_");
        let mut t = String::new();
        let _ = writeln!(t, "# Built in the animscope TUI at 0x{:x} of a {} node.", self.start, q(&self.kind));
        let _ =
            writeln!(t, "name = \"{}\"\nformat = \"{}\"\nkinds = [\"{}\"]", q(name), q(&self.format), q(&self.kind));
        if let Some(f) = &self.field {
            let _ = writeln!(t, "field = \"{}\"", q(f));
        }
        let lead = self.start.saturating_sub(self.node_start);
        if lead > 0 {
            let _ = writeln!(t, "\n[[struct.main]]\nname = \"skipped\"\ntype = \"pad\"\nlen = {lead}");
        }
        for f in &self.fields {
            field_toml(&mut t, "main", &f.name, &f.ty, f.count.as_deref());
        }
        for (s, members) in &self.structs {
            for (ty, n) in members {
                field_toml(&mut t, s, n, ty, None);
            }
        }
        t
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn add(b: &mut LayoutBuilder, data: &[u8], spec: &str) -> Result<u64, String> {
        b.add(spec, Bytes::with_base(data, 0), &Limits::default())
    }

    #[test]
    fn fields_follow_each_other_and_read_back() {
        let data = [0u8; 0x30];
        let mut b = LayoutBuilder::new("ccsf", "Particle", 0x10, 0x30, 0x1c);
        assert_eq!(add(&mut b, &data, "u32 count"), Ok(4));
        assert_eq!(b.next, 0x20);
        assert_eq!(add(&mut b, &data, "f32 x"), Ok(4));
        assert_eq!(add(&mut b, &data, "str:8 label"), Ok(8));
        assert_eq!(b.next, 0x2c);
        assert!(add(&mut b, &data, "u64 big").unwrap_err().contains("needs 8 bytes at 0x2c, 4 left"));
        assert!(add(&mut b, &data, "u33 y").unwrap_err().contains("unknown type"));
        assert!(add(&mut b, &data, "x").unwrap_err().contains("TYPE NAME"));
        assert!(add(&mut b, &data, "u8 x").unwrap_err().contains("one of each name"));
        b.undo();
        assert_eq!(b.next, 0x24);
        let l = parse_layout(&b.to_toml("mine"), "mine.toml", "mine").unwrap();
        let names: Vec<&str> = l.structs[l.root].fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["skipped", "count", "x"]);
        assert_eq!(l.structs[l.root].fields[0].ty, Ty::Pad(12));
        assert_eq!(l.target.kinds, ["Particle"]);
    }

    /// Removing a field moves the later ones up to where it started; renaming one renames
    /// the count that names it. Bytes: u32 2, then two u16 (7, 9), then 0xee padding.
    #[test]
    fn a_field_is_removed_or_renamed_and_the_rest_follow() {
        let mut data = vec![2, 0, 0, 0, 7, 0, 9, 0];
        data.extend([0xee; 8]);
        let mut b = LayoutBuilder::new("ccsf", "Particle", 0, 16, 0);
        assert_eq!(add(&mut b, &data, "u32 n"), Ok(4));
        assert_eq!(add(&mut b, &data, "u16[n] pair"), Ok(4));
        assert_eq!(add(&mut b, &data, "u8 tail"), Ok(1));
        assert_eq!(b.next, 9);
        let input = Input::Bytes(Bytes::with_base(&data, 0));
        let limits = Limits::default();
        assert_eq!(b.remove("n", input, &limits).unwrap_err(), "pair is counted by n: remove pair first");
        assert_eq!(b.remove("nope", input, &limits).unwrap_err(), "no field nope");
        b.rename("n", "count").unwrap();
        assert_eq!(b.fields[1].count.as_deref(), Some("count"));
        assert!(b.rename("tail", "count").unwrap_err().contains("one of each name"));
        // pair gone: tail now reads the byte at 4 (7)
        b.remove("pair", input, &limits).unwrap();
        let names: Vec<(&str, u64)> = b.fields.iter().map(|f| (f.name.as_str(), f.size)).collect();
        assert_eq!(names, [("count", 4), ("tail", 1)]);
        assert_eq!(b.next, 5);
        let l = parse_layout(&b.to_toml("mine"), "mine.toml", "mine").unwrap();
        let main: Vec<&str> = l.structs[l.root].fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(main, ["count", "tail"]);
    }

    /// `u16 count; count × {f32 x, y, z}` then a NUL-terminated name, over bytes typed
    /// here: count 2, (1, 2, 3), (4, 5, 6), "ab\0".
    #[test]
    fn counted_arrays_of_inline_structs_and_strings_end_where_the_bytes_say() {
        let mut data = vec![0x02, 0x00]; // u16 count = 2
        for v in [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0] {
            data.extend(v.to_le_bytes());
        }
        data.extend(b"ab\0");
        data.extend([0xee; 5]); // bytes after the layout
        let end = data.len() as u64;
        let mut b = LayoutBuilder::new("ccsf", "Particle", 0, end, 0);
        assert_eq!(add(&mut b, &data, "u16 count"), Ok(2));
        assert_eq!(add(&mut b, &data, "vec3{f32 x, f32 y, f32 z}[count] points"), Ok(24), "2 × 12 bytes");
        assert_eq!(b.next, 26);
        assert_eq!(add(&mut b, &data, "strz name"), Ok(3), "'a', 'b' and the NUL");
        assert_eq!(
            add(&mut b, &data, "vec3[count] more").unwrap_err(),
            "more: count 2 (from count) runs past the end: 0 of 2 elements fit"
        );
        assert_eq!(add(&mut b, &data, "{u8 a}[] tail"), Ok(5), "as many as fit");
        assert!(add(&mut b, &data, "vec3{f32 x}[2] other").unwrap_err().contains("declared already"));
        assert!(add(&mut b, &data, "f32[nope] q").unwrap_err().contains("count \"nope\""));
        assert!(add(&mut b, &data, "u32{u8 a} q").unwrap_err().contains("is a type already"));
        b.undo();
        assert_eq!((b.next, b.structs.len()), (29, 1), "tail and its struct tail_item are gone");
        let text = b.to_toml("particle");
        let l = parse_layout(&text, "particle.toml", "particle").unwrap();
        let main = &l.structs[l.root];
        assert_eq!(main.fields[1].count, Count::Field("count".into()));
        assert_eq!(main.fields[2].ty, Ty::Strz(256));
        let vec3 = l.structs.iter().find(|s| s.name == "vec3").unwrap();
        assert_eq!(vec3.fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["x", "y", "z"]);
        // the saved file read back over the same bytes ends where the builder did
        assert_eq!(measure(&l, Bytes::with_base(&data, 0), Span::new(0, end), &Limits::default()), Ok(29));
    }
}
