//! Applying a layout to a node's bytes: each value read becomes a [`Field`] of the node,
//! marked as a user layout field. Fields are added one at a time through
//! [`Document::add_field`], which spends the document's memory budget; no count read from
//! the bytes sizes an allocation. Where the layout runs past its bytes, what fit stays
//! labelled and one more field says where and why reading stopped.

use super::parse::{MAX_NESTING, MinSizes};
use super::{Count, Endian, Layout, LayoutField, StructDef, Ty, USER_LAYOUT_NOTE};
use crate::bytes::Bytes;
use crate::model::{Document, Field, NodeId, Span, Value, fmt_num};
use crate::source::Source;

/// Where and why a layout stopped before its end.
#[derive(Debug, Clone, PartialEq)]
pub struct Stop {
    /// Absolute offset reading stopped at.
    pub offset: u64,
    /// Why.
    pub reason: String,
}

/// Name of the field that says where a layout stopped.
pub const STOPPED: &str = "(layout stopped)";

/// Where a layout's bytes are read from.
#[derive(Clone, Copy)]
pub enum Input<'a> {
    /// Bytes in memory, at their absolute offsets.
    Bytes(Bytes<'a>),
    /// The input itself, read where each value is (a mapped file by `pread`, through the
    /// checked path, a window at a time): a layout over a large node reads what it labels,
    /// not the node's whole span.
    Source(&'a Source),
}

impl Input<'_> {
    /// Absolute offset one past the last byte there is.
    fn end(&self) -> u64 {
        match self {
            Input::Bytes(b) => b.end(),
            Input::Source(s) => s.len(),
        }
    }
}

/// Bytes read from a mapped source at once (values are read from a window this long).
const WINDOW: u64 = 64 << 10;

/// Apply `layout` to `region` (absolute offsets into `data`) of node `node`. Returns where
/// it stopped, when it did not finish (that is also added as a field named [`STOPPED`]).
pub fn apply(layout: &Layout, doc: &mut Document, node: NodeId, data: Bytes<'_>, region: Span) -> Option<Stop> {
    apply_from(layout, doc, node, Input::Bytes(data), region)
}

/// [`apply`] reading from `input`.
pub fn apply_from(layout: &Layout, doc: &mut Document, node: NodeId, input: Input<'_>, region: Span) -> Option<Stop> {
    let end = region.end.min(input.end());
    let root = layout.root_struct()?;
    let note = format!("{USER_LAYOUT_NOTE} {}", layout.name);
    let mut run = Run::new(layout, doc, node, input, region.start, end, note);
    let stop = run.read_struct(root, "", region.start, 0).err()?;
    let span = Span::new(stop.offset.min(end), end);
    let field = Field::new(STOPPED, span, Value::derived(stop.reason.clone())).note(run.note.clone());
    run.doc.add_field(node, field);
    Some(stop)
}

/// Where `layout` ends when read over `region` of `data` (absolute offsets), or where and
/// why it stops: the layout builder's next field starts there. Read into a scratch document
/// under `limits`' memory budget, as [`apply`] reads.
pub fn measure(layout: &Layout, data: Bytes<'_>, region: Span, limits: &crate::limits::Limits) -> Result<u64, Stop> {
    measure_from(layout, Input::Bytes(data), region, limits)
}

/// [`measure`] reading from `input`.
pub fn measure_from(
    layout: &Layout,
    input: Input<'_>,
    region: Span,
    limits: &crate::limits::Limits,
) -> Result<u64, Stop> {
    let end = region.end.min(input.end());
    let root = layout.root_struct().ok_or_else(|| Stop { offset: region.start, reason: "no root struct".into() })?;
    let mut doc = Document::new("raw", "layout", "layout", end, limits);
    let note = format!("{USER_LAYOUT_NOTE} {}", layout.name);
    let mut run = Run::new(layout, &mut doc, NodeId::ROOT, input, region.start, end, note);
    run.read_struct(root, "", region.start, 0)
}

struct Run<'a, 'd> {
    layout: &'a Layout,
    doc: &'d mut Document,
    node: NodeId,
    input: Input<'a>,
    /// Bytes read from a mapped source, at `window_at`.
    window: Vec<u8>,
    window_at: u64,
    sizes: MinSizes<'a>,
    base: u64,
    end: u64,
    note: String,
}

impl<'a, 'd> Run<'a, 'd> {
    fn new(
        layout: &'a Layout,
        doc: &'d mut Document,
        node: NodeId,
        input: Input<'a>,
        base: u64,
        end: u64,
        note: String,
    ) -> Self {
        let sizes = MinSizes::new(&layout.structs);
        Run { layout, doc, node, input, window: Vec::new(), window_at: 0, sizes, base, end, note }
    }

    fn stop(&self, offset: u64, reason: String) -> Stop {
        Stop { offset, reason: format!("{}: {reason}", self.layout.name) }
    }

    fn add(&mut self, name: String, span: Span, value: Value) -> Result<(), Stop> {
        self.doc.add_field(self.node, Field::new(name, span, value).note(self.note.clone()));
        self.budget(span.start)
    }

    /// The budget's error, once it has run out.
    fn budget(&self, at: u64) -> Result<(), Stop> {
        match self.doc.budget_exceeded() {
            Some(b) => Err(self.stop(at, b.error().to_string())),
            None => Ok(()),
        }
    }

    /// `n` bytes at `pos` are within the region.
    fn fits(&self, pos: u64, n: u64, what: &str) -> Result<(), Stop> {
        let left = self.end.saturating_sub(pos);
        if n > left {
            return Err(self.stop(pos, format!("{what} needs {n} bytes at 0x{pos:x}, {left} left")));
        }
        Ok(())
    }

    /// The `n` bytes at `pos` (checked to be within the region). Bytes held for a read
    /// longer than the window are spent from the budget's room first.
    fn bytes(&mut self, pos: u64, n: u64, what: &str) -> Result<&[u8], Stop> {
        self.fits(pos, n, what)?;
        let past = |r: &Run<'_, '_>| r.stop(pos, format!("{what} lies past the data at 0x{pos:x}"));
        let src = match self.input {
            Input::Bytes(b) => return b.slice(pos, n).map_err(|_| past(self)),
            Input::Source(s) if !s.is_mapped() => {
                let from = usize::try_from(pos).ok();
                let to = pos.checked_add(n).and_then(|e| usize::try_from(e).ok());
                let s: &'a Source = s;
                return from.zip(to).and_then(|(a, b)| s.bytes().get(a..b)).ok_or_else(|| past(self));
            }
            Input::Source(s) => s,
        };
        let have = self.window_at..self.window_at + self.window.len() as u64;
        if !(have.contains(&pos) && pos + n <= have.end) {
            if n > WINDOW && n > self.doc.headroom() {
                let room = self.doc.headroom();
                let e = crate::error::ErrorKind::MemoryBudget { needed: n, max: room };
                return Err(self.stop(pos, format!("{what}: {e}")));
            }
            let len = n.max(WINDOW).min(self.end.saturating_sub(pos));
            let len = usize::try_from(len).map_err(|_| past(self))?;
            self.window.clear();
            self.window.resize(len, 0);
            if let Err(e) = src.read_exact_at(pos, &mut self.window) {
                self.window.clear();
                return Err(self.stop(pos, format!("{what}: {e}")));
            }
            self.window_at = pos;
        }
        let from = usize::try_from(pos - self.window_at).unwrap_or(usize::MAX);
        let to = usize::try_from(n).ok().and_then(|n| from.checked_add(n)).unwrap_or(usize::MAX);
        let Some(b) = self.window.get(from..to) else { return Err(past(self)) };
        Ok(b)
    }

    /// Where the first NUL is in the `room` bytes at `pos`, read a window at a time.
    fn find_nul(&mut self, pos: u64, room: u64, what: &str) -> Result<Option<u64>, Stop> {
        let mut at = pos;
        while at < pos + room {
            let n = (pos + room - at).min(WINDOW);
            if let Some(i) = self.bytes(at, n, what)?.iter().position(|c| *c == 0) {
                return Ok(Some(at + i as u64));
            }
            at += n;
        }
        Ok(None)
    }

    /// Read struct `s` at `pos` with names prefixed `prefix`, `depth` structs down;
    /// returns the offset after it.
    fn read_struct(&mut self, s: &StructDef, prefix: &str, mut pos: u64, depth: u32) -> Result<u64, Stop> {
        if depth > MAX_NESTING {
            return Err(self.stop(pos, format!("{prefix}: structs nested deeper than {MAX_NESTING}")));
        }
        // the integer values read so far, for counts
        let mut values: Vec<(&str, u64)> = Vec::new();
        for f in &s.fields {
            let name = format!("{prefix}{}", f.name);
            let n = match &f.count {
                Count::One => {
                    let (after, v) = self.read_one(f, &name, pos, depth)?;
                    if let Some(v) = v {
                        values.push((f.name.as_str(), v));
                    }
                    pos = after;
                    continue;
                }
                Count::Fixed(n) => Some(*n),
                Count::Field(c) => Some(values.iter().rev().find(|(k, _)| *k == c.as_str()).map_or(0, |(_, v)| *v)),
                Count::Rest => None,
            };
            let min = self.sizes.of(&f.ty).max(1);
            let mut i = 0u64;
            loop {
                if n.is_some_and(|n| i >= n) {
                    break;
                }
                if pos.saturating_add(min) > self.end {
                    match n {
                        None => break,
                        Some(n) => {
                            let from = match &f.count {
                                Count::Field(c) => format!(" (from {c})"),
                                _ => String::new(),
                            };
                            return Err(self.stop(
                                pos,
                                format!("{name}: count {n}{from} runs past the end: {i} of {n} elements fit"),
                            ));
                        }
                    }
                }
                let (after, _) = self.read_one(f, &format!("{name}[{i}]"), pos, depth)?;
                pos = after;
                i += 1;
            }
        }
        Ok(pos)
    }

    /// Read one value of `f`'s type at `pos`; returns the offset after it and, for an
    /// integer, its value.
    fn read_one(&mut self, f: &LayoutField, name: &str, pos: u64, depth: u32) -> Result<(u64, Option<u64>), Stop> {
        let what = || format!("{name} ({})", f.ty_name);
        match &f.ty {
            Ty::Struct(i) => {
                let layout = self.layout;
                let Some(s) = layout.structs.get(*i) else { return Ok((pos, None)) };
                Ok((self.read_struct(s, &format!("{name}."), pos, depth + 1)?, None))
            }
            Ty::Align(to) => {
                let rel = pos - self.base;
                let pad = (to - rel % to) % to;
                if pad > 0 {
                    self.fits(pos, pad, &what())?;
                    self.add(name.to_string(), Span::at(pos, pad), Value::bytes(pad).label("padding"))?;
                }
                Ok((pos + pad, None))
            }
            Ty::Pad(n) => {
                self.fits(pos, *n, &what())?;
                self.add(name.to_string(), Span::at(pos, *n), Value::bytes(*n).label("padding"))?;
                Ok((pos + n, None))
            }
            Ty::Bytes(n) => {
                self.fits(pos, *n, &what())?;
                self.add(name.to_string(), Span::at(pos, *n), Value::bytes(*n))?;
                Ok((pos + n, None))
            }
            Ty::Str(n) => {
                // the text is up to the first NUL: only that is read and kept
                self.fits(pos, *n, &what())?;
                let len = self.find_nul(pos, *n, &what())?.map_or(*n, |nul| nul - pos);
                let v = Value::text(self.bytes(pos, len, &what())?);
                self.add(name.to_string(), Span::at(pos, *n), v)?;
                Ok((pos + n, None))
            }
            Ty::Strz(max) => {
                let room = self.end.saturating_sub(pos).min(*max);
                let Some(nul) = self.find_nul(pos, room, &what())? else {
                    return Err(self.stop(pos, format!("{}: no NUL within {room} bytes", what())));
                };
                let v = Value::text(self.bytes(pos, nul - pos, &what())?);
                let len = nul - pos + 1;
                self.add(name.to_string(), Span::at(pos, len), v)?;
                Ok((pos + len, None))
            }
            ty => {
                let (width, endian) = scalar_shape(ty);
                let raw = read_uint(self.bytes(pos, width, &what())?, endian);
                let (value, int) = scalar_value(ty, raw, width);
                let value = name_value(value, raw, f);
                self.add(name.to_string(), Span::at(pos, width), value)?;
                Ok((pos + width, int))
            }
        }
    }
}

fn scalar_shape(ty: &Ty) -> (u64, Endian) {
    match ty {
        Ty::Int { bytes, endian, .. } | Ty::Float { bytes, endian } | Ty::Fixed { bytes, endian, .. } => {
            (u64::from(*bytes), *endian)
        }
        Ty::Angle16(e) | Ty::Snorm16(e) => (2, *e),
        _ => (0, Endian::Little),
    }
}

fn read_uint(b: &[u8], endian: Endian) -> u64 {
    let mut v = 0u64;
    match endian {
        Endian::Big => b.iter().for_each(|c| v = (v << 8) | u64::from(*c)),
        Endian::Little => b.iter().rev().for_each(|c| v = (v << 8) | u64::from(*c)),
    }
    v
}

fn sign_extend(raw: u64, width: u64) -> i64 {
    let shift = 64 - 8 * width.clamp(1, 8);
    ((raw << shift) as i64) >> shift
}

/// The value shown for a scalar, and its integer value when it is one (for counts).
fn scalar_value(ty: &Ty, raw: u64, width: u64) -> (Value, Option<u64>) {
    let w = width as u8;
    match ty {
        Ty::Int { signed: false, .. } => (Value::uint(raw, w), Some(raw)),
        Ty::Int { signed: true, .. } => {
            let v = sign_extend(raw, width);
            (Value::int(v, w), u64::try_from(v).ok())
        }
        Ty::Float { bytes: 2, .. } => (Value::f16(raw as u16), None),
        Ty::Float { bytes: 4, .. } => (Value::f32(raw as u32), None),
        Ty::Float { .. } => (Value::derived(fmt_num(f64::from_bits(raw))), None),
        Ty::Fixed { frac, signed, .. } => {
            let scale = 2f64.powi(i32::from(*frac));
            if *signed {
                let v = sign_extend(raw, width);
                (Value::int(v, w).number(v as f64 / scale, ""), None)
            } else {
                (Value::uint(raw, w).number(raw as f64 / scale, ""), None)
            }
        }
        Ty::Angle16(_) => (Value::uint(raw, 2).number(raw as f64 * 360.0 / 65536.0, "deg"), None),
        Ty::Snorm16(_) => {
            let v = sign_extend(raw, 2);
            (Value::int(v, 2).number((v as f64 / 32767.0).max(-1.0), ""), None)
        }
        _ => (Value::uint(raw, w), None),
    }
}

/// Attach the field's enum or flag names.
fn name_value(v: Value, raw: u64, f: &LayoutField) -> Value {
    if let Some((_, n)) = f.enums.iter().find(|(k, _)| *k == raw) {
        return v.label(n.clone());
    }
    if !f.flags.is_empty() {
        let mut names = Vec::new();
        let mut left = raw;
        for (mask, n) in &f.flags {
            if *mask != 0 && raw & mask == *mask {
                names.push(n.clone());
                left &= !mask;
            }
        }
        if left != 0 {
            names.push(format!("0x{left:x}"));
        }
        return v.flags(names);
    }
    v
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::layout::parse_layout;
    use crate::limits::Limits;

    fn layout(body: &str) -> Layout {
        parse_layout(&format!("format = \"raw\"\nkinds = [\"file\"]\n{body}"), "t.toml", "t").unwrap()
    }

    fn run(l: &Layout, data: &[u8], memory: u64) -> (Document, Option<Stop>) {
        let limits = Limits { max_memory: memory, ..Limits::default() };
        let mut doc = Document::new("raw", "t", "file", data.len() as u64, &limits);
        let stop = apply(l, &mut doc, NodeId::ROOT, Bytes::new(data), Span::new(0, data.len() as u64));
        (doc, stop)
    }

    fn shown(doc: &Document) -> Vec<String> {
        doc.root().fields.iter().map(|f| format!("{} {} {}", f.name, f.span, f.value)).collect()
    }

    const VECS: &str = "[[struct.main]]\nname = \"count\"\ntype = \"u16\"\n[[struct.main]]\nname = \"v\"\ntype = \"vec\"\ncount = \"count\"\n[[struct.vec]]\nname = \"x\"\ntype = \"f32\"\n[[struct.vec]]\nname = \"y\"\ntype = \"f32\"\n";

    /// Hand-made bytes: count 2, then (1.0, -2.0), (0.5, 0.0).
    #[test]
    fn counted_array_of_structs() {
        let mut data = vec![2, 0];
        for f in [1.0f32, -2.0, 0.5, 0.0] {
            data.extend(f.to_le_bytes());
        }
        let (doc, stop) = run(&layout(VECS), &data, 1 << 20);
        assert_eq!(stop, None);
        assert_eq!(
            shown(&doc),
            [
                "count 0x0..0x2 0x0002",
                "v[0].x 0x2..0x6 1.0",
                "v[0].y 0x6..0xa -2.0",
                "v[1].x 0xa..0xe 0.5",
                "v[1].y 0xe..0x12 0.0"
            ]
        );
        assert!(doc.root().fields.iter().all(Field::is_user_layout));
        assert_eq!(doc.validate(), Ok(()));
    }

    /// A count larger than the bytes: what fits is labelled, then where it stopped.
    #[test]
    fn count_past_the_end_labels_what_fits() {
        let mut data = vec![0xff, 0xff];
        data.extend(1.0f32.to_le_bytes());
        data.extend(2.0f32.to_le_bytes());
        data.extend([0, 0, 0]);
        let (doc, stop) = run(&layout(VECS), &data, 1 << 20);
        let stop = stop.unwrap();
        assert_eq!(stop.offset, 10);
        assert_eq!(stop.reason, "t: v: count 65535 (from count) runs past the end: 1 of 65535 elements fit");
        let s = shown(&doc);
        assert_eq!(s.len(), 4);
        assert_eq!(s[3], format!("{STOPPED} 0xa..0xd {}", stop.reason));
    }

    /// A scalar that does not fit says how many bytes it needed.
    #[test]
    fn scalar_past_the_end() {
        let (doc, stop) = run(&layout("[[struct.main]]\nname = \"a\"\ntype = \"u32be\"\n"), &[1, 2], 1 << 20);
        assert_eq!(stop.unwrap().reason, "t: a (u32be) needs 4 bytes at 0x0, 2 left");
        assert_eq!(doc.root().fields.len(), 1);
    }

    /// Every scalar kind against hand-computed values.
    #[test]
    fn scalar_kinds() {
        let l = layout(
            "[[struct.main]]\nname = \"fx\"\ntype = \"fixed16.16\"\n\
             [[struct.main]]\nname = \"ang\"\ntype = \"angle16\"\n\
             [[struct.main]]\nname = \"sn\"\ntype = \"snorm16be\"\n\
             [[struct.main]]\nname = \"h\"\ntype = \"f16\"\n\
             [[struct.main]]\nname = \"d\"\ntype = \"f64\"\n\
             [[struct.main]]\nname = \"i\"\ntype = \"i8\"\n\
             [[struct.main]]\nname = \"pad\"\ntype = \"align\"\nto = 4\n\
             [[struct.main]]\nname = \"s\"\ntype = \"str\"\nlen = 4\n\
             [[struct.main]]\nname = \"z\"\ntype = \"strz\"\n\
             [[struct.main]]\nname = \"k\"\ntype = \"u8\"\nenum = { 1 = \"one\" }\n\
             [[struct.main]]\nname = \"fl\"\ntype = \"u8\"\nflags = { \"0x1\" = \"loop\", \"0x4\" = \"mirror\" }\n",
        );
        let mut data = Vec::new();
        data.extend(0x0001_8000u32.to_le_bytes()); // 1.5
        data.extend(0x4000u16.to_le_bytes()); // 90°
        data.extend(0x8000u16.to_be_bytes()); // -32768 → -1
        data.extend(0x3c00u16.to_le_bytes()); // 1.0
        data.extend(0.25f64.to_le_bytes());
        data.push(0xfe); // -2, at 0x12; align pads 0x13 → 0x14
        data.push(0);
        data.extend(b"ab\0\0");
        data.extend(b"hi\0");
        data.extend([1, 5]);
        let (doc, stop) = run(&l, &data, 1 << 20);
        assert_eq!(stop, None);
        assert_eq!(
            shown(&doc),
            [
                "fx 0x0..0x4 98304 = 1.5",
                "ang 0x4..0x6 0x4000 = 90.0 deg",
                "sn 0x6..0x8 -32768 = -1.0",
                "h 0x8..0xa f16 0x3c00 = 1.0",
                "d 0xa..0x12 0.25",
                "i 0x12..0x13 -2",
                "pad 0x13..0x14 1 bytes padding",
                "s 0x14..0x18 \"ab\"",
                "z 0x18..0x1b \"hi\"",
                "k 0x1b..0x1c 0x01 one",
                "fl 0x1c..0x1d 0x05 loop|mirror",
            ]
        );
    }

    /// `rest` reads whole elements while they fit, and never allocates by a count.
    #[test]
    fn rest_and_budget() {
        let l = layout("[[struct.main]]\nname = \"w\"\ntype = \"u16\"\ncount = \"rest\"\n");
        let (doc, stop) = run(&l, &[1, 0, 2, 0, 3], 1 << 20);
        assert_eq!(stop, None);
        assert_eq!(doc.root().fields.len(), 2);
        // a budget of a few fields binds: the layout stops and says so
        let data = vec![0u8; 100_000];
        let (doc, stop) = run(&l, &data, 8 << 10);
        let stop = stop.unwrap();
        assert!(stop.reason.contains("memory budget"), "{}", stop.reason);
        assert!(doc.root().fields.len() < 200, "{}", doc.root().fields.len());
        assert!(doc.budget_exceeded().is_some());
    }
}
