//! Building a layout field by field from a cursor (the TUI's layout builder): the first
//! field fixes the node and where the layout starts, each next field starts where the last
//! ended, and the result is a layout file's text.

use super::parse::{min_size, parse_layout};
use super::{Count, Ty};
use std::fmt::Write as _;

/// A layout being built over one node's bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutBuilder {
    /// Format id of the document.
    pub format: String,
    /// Kind of the node the layout is for.
    pub kind: String,
    /// Absolute offset of the node's first byte.
    pub node_start: u64,
    /// Absolute offset of the node's end.
    pub node_end: u64,
    /// Where the first field starts.
    pub start: u64,
    /// Where the next field starts.
    pub next: u64,
    /// (name, type as written, size in bytes).
    pub fields: Vec<(String, String, u64)>,
}

impl LayoutBuilder {
    /// A builder for a node of `kind` spanning `node_start..node_end`, starting at `at`.
    pub fn new(format: &str, kind: &str, node_start: u64, node_end: u64, at: u64) -> Self {
        LayoutBuilder {
            format: format.to_string(),
            kind: kind.to_string(),
            node_start,
            node_end,
            start: at,
            next: at,
            fields: Vec::new(),
        }
    }

    /// Add a field from `TYPE NAME` (`u32 count`, `str:8 label`, `bytes:4 unknown`) at
    /// [`LayoutBuilder::next`]; returns its size. Only fixed-size types are built this way.
    pub fn add(&mut self, spec: &str) -> Result<u64, String> {
        let mut words = spec.split_whitespace();
        let (Some(ty), Some(name), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!("\"{spec}\": write TYPE NAME, e.g. u32 count, f32 x, str:8 label"));
        };
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || self.fields.iter().any(|f| f.0 == name) {
            return Err(format!("field name \"{name}\": letters, digits and _ only, one of each name"));
        }
        let (base, len) = match ty.split_once(':') {
            Some((b, n)) => {
                (b, Some(n.parse::<u64>().map_err(|_| format!("\"{ty}\": the length after : is a number"))?))
            }
            None => (ty, None),
        };
        // checked as a layout file would be: one field of this type
        let mut text =
            format!("format = \"x\"\nkinds = [\"x\"]\n[[struct.main]]\nname = \"{name}\"\ntype = \"{base}\"\n");
        if let Some(n) = len {
            let _ = writeln!(text, "len = {n}");
        }
        let l = parse_layout(&text, "field", "field").map_err(|e| e.message)?;
        let f = l.root_struct().and_then(|s| s.fields.first()).ok_or("no field")?;
        if matches!(f.ty, Ty::Strz(_) | Ty::Align(_) | Ty::Struct(_)) || f.count != Count::One {
            return Err(format!("{ty}: the builder adds fixed-size fields only"));
        }
        let size = min_size(&l.structs, &f.ty);
        if self.next.saturating_add(size) > self.node_end {
            return Err(format!("{ty} at 0x{:x} runs past the node's end 0x{:x}", self.next, self.node_end));
        }
        self.fields.push((name.to_string(), ty.to_string(), size));
        self.next += size;
        Ok(size)
    }

    /// Drop the last field.
    pub fn undo(&mut self) {
        if let Some((_, _, size)) = self.fields.pop() {
            self.next -= size;
        }
    }

    /// The layout file's text, named `name`: for the node's kind, from the node's start
    /// (bytes before the first field are padding).
    pub fn to_toml(&self, name: &str) -> String {
        let q = |s: &str| s.replace(['\\', '"'], "_");
        let mut t = String::new();
        let _ = writeln!(t, "# Built in the animscope TUI at 0x{:x} of a {} node.", self.start, q(&self.kind));
        let _ =
            writeln!(t, "name = \"{}\"\nformat = \"{}\"\nkinds = [\"{}\"]", q(name), q(&self.format), q(&self.kind));
        let lead = self.start.saturating_sub(self.node_start);
        if lead > 0 {
            let _ = writeln!(t, "\n[[struct.main]]\nname = \"skipped\"\ntype = \"pad\"\nlen = {lead}");
        }
        for (n, ty, _) in &self.fields {
            let _ = writeln!(t, "\n[[struct.main]]\nname = \"{n}\"");
            match ty.split_once(':') {
                Some((b, len)) => {
                    let _ = writeln!(t, "type = \"{b}\"\nlen = {len}");
                }
                None => {
                    let _ = writeln!(t, "type = \"{ty}\"");
                }
            }
        }
        t
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn fields_follow_each_other_and_read_back() {
        let mut b = LayoutBuilder::new("ccsf", "Particle", 0x10, 0x30, 0x1c);
        assert_eq!(b.add("u32 count"), Ok(4));
        assert_eq!(b.next, 0x20);
        assert_eq!(b.add("f32 x"), Ok(4));
        assert_eq!(b.add("str:8 label"), Ok(8));
        assert_eq!(b.next, 0x2c);
        assert!(b.add("u64 big").unwrap_err().contains("runs past the node's end 0x30"));
        assert!(b.add("u33 y").unwrap_err().contains("unknown type"));
        assert!(b.add("x").unwrap_err().contains("TYPE NAME"));
        assert!(b.add("u8 x").unwrap_err().contains("one of each name"));
        b.undo();
        assert_eq!(b.next, 0x24);
        let l = parse_layout(&b.to_toml("mine"), "mine.toml", "mine").unwrap();
        let names: Vec<&str> = l.structs[l.root].fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["skipped", "count", "x"]);
        assert_eq!(l.structs[l.root].fields[0].ty, Ty::Pad(12));
        assert_eq!(l.target.kinds, ["Particle"]);
    }
}
