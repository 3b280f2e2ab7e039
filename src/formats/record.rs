//! The binrw machinery every format's `raw.rs` declares its records with: one declaration
//! reads a record (parse), writes it (write) and labels its bytes (describe).
//!
//! - **Spans from the reader.** A record's fields are declared as [`Spanned<T>`]; its
//!   `BinRead` asks the reader for its position before and after reading `T`, so each field
//!   carries the absolute bytes it came from. The reader ([`RecordReader`]) addresses the
//!   whole input by absolute offsets, so a nested record, an array element or a field read
//!   at a computed offset gets the right span without rebasing. Chosen over a
//!   position-recording reader that logs every read: such a log has to be matched to the
//!   fields afterwards by order, which breaks as soon as a field is conditional
//!   (`if`), computed (`calc`), skipped (`seek_before`) or read by several reads (arrays);
//!   `Spanned` is attached to the field itself and is right in all of those cases.
//! - **Meanings beside the declaration.** [`Record::fields`] turns a read record into
//!   `model` [`Field`]s (name, span, [`Value`] with its unit, enum name or `unknown`, note),
//!   written next to the struct in `raw.rs`; the [`field!`] macro takes the name from the
//!   declared field itself, so a field cannot be shown under another name.
//! - **Errors.** binrw errors become [`ParseError`]s naming the record and field in the
//!   path (`clip header > frame_count`) at the absolute offset of the short read or failed
//!   check. Field types check themselves ([`Magic`], [`Blob`], [`CString`]) and fail with a
//!   [`RecordError`] carrying the project's [`ErrorKind`], passed through unchanged; a check
//!   inside the field's own read is what lets binrw name the field.
//! - **Counts.** No read allocates by a count binrw has not been handed as a [`Count`], and
//!   a `Count` exists only after a check against the bytes left and a `Limits` maximum
//!   ([`Count::checked`], [`Count::clamped`]). Byte runs and strings inside a record are read
//!   by [`Blob`] and [`CString`], which check the bytes left before allocating.
//! - **Speed.** The reader is a slice and an offset; its `Read`/`Seek` methods are small and
//!   always inlined, reads of 1/2/4/8 bytes are fixed-size copies, byte runs are one read
//!   ([`ByteArray`]), and the error mapping is out of line. Measured (release, one thread):
//!   an SC6 clip header with its six spans 35 ns against 7 ns for six hand-sliced reads
//!   without spans; a gzip header with FNAME 140 ns against 17 ns. Per record that is
//!   noise next to the work that follows it (decoding a clip's groups, inflating a member).

use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::model::{Field, Span, Value};
use binrw::io::{Read, Seek, SeekFrom, Write};
use binrw::{BinRead, BinResult, BinWrite, Endian};
use std::fmt;
use std::io;
use std::ops::Deref;

/// A value with the absolute bytes it was read from. Reads `T` with `T`'s arguments; writes
/// `T` (the span is ignored when writing, and empty for values made in memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Absolute bytes it came from.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// A value made in memory (for writing), with an empty span.
    pub fn new(value: T) -> Self {
        Spanned { value, span: Span::default() }
    }

    /// The model field `name` over this value's bytes.
    pub fn field(&self, name: impl Into<String>, value: Value) -> Field {
        Field::new(name, self.span, value)
    }
}

impl<T> From<T> for Spanned<T> {
    fn from(value: T) -> Self {
        Spanned::new(value)
    }
}

impl<T> Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: BinRead> BinRead for Spanned<T> {
    type Args<'a> = T::Args<'a>;

    #[inline(always)]
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, args: Self::Args<'_>) -> BinResult<Self> {
        let start = reader.stream_position()?;
        let value = T::read_options(reader, endian, args)?;
        let end = reader.stream_position()?;
        Ok(Spanned { value, span: Span::new(start, end) })
    }
}

impl<T: BinWrite> BinWrite for Spanned<T> {
    type Args<'a> = T::Args<'a>;

    fn write_options<W: Write + Seek>(&self, writer: &mut W, endian: Endian, args: Self::Args<'_>) -> BinResult<()> {
        self.value.write_options(writer, endian, args)
    }
}

/// A record as `describe` shows it: its name (for error paths and the registry of vectors)
/// and its fields with their meanings.
pub trait Record {
    /// The record's name as the spec calls it (`clip header`, `IPAC entry`).
    const NAME: &'static str;
    /// Every field of the record, in file order, as model fields.
    fn fields(&self) -> Vec<Field>;
}

/// A record read with its own span is the same record.
impl<T: Record> Record for Spanned<T> {
    const NAME: &'static str = T::NAME;
    fn fields(&self) -> Vec<Field> {
        self.value.fields()
    }
}

/// A record of one fixed size. `tests` of each `raw.rs` check `SIZE` against the
/// declaration (see [`assert_fixed_size`]), so it cannot drift from the fields.
pub trait FixedSize {
    /// Bytes the record occupies.
    const SIZE: u64;
}

/// A model field named after a declared field: `field!(h.frame_count, Value::dec(..))` is
/// `h.frame_count.field("frame_count", ..)`, so the shown name is the declaration's.
macro_rules! field {
    ($rec:ident . $name:ident, $value:expr) => {
        $rec.$name.field(stringify!($name), $value)
    };
}
pub(in crate::formats) use field;

// ---------------------------------------------------------------------------------------
// Layout tables: records that label themselves.

/// How a field's bytes read as a value: the part of a [`FieldDef`] that says what the bytes
/// are. The width and signedness come from the declared Rust type (`Spanned<u16>`, `[T; N]`).
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A count or number: unsigned types in decimal, signed types as signed numbers.
    Dec,
    /// An unsigned number in hex of the field's width (flag words, codes).
    Hex,
    /// An f32 kept as its bits; with a unit, also the number in that unit.
    Float,
    /// Fixed point: the integer and the integer divided by this (16.16: 65536, 8.8: 256,
    /// 1/4096: 4096), in the field's unit.
    Fixed(f64),
    /// An index of another object of the file, shown with that object's name.
    Object,
    /// An RGBA colour word, R in the low byte.
    Colour,
    /// Bytes shown as text.
    Text,
    /// NUL-padded bytes shown as text up to the first NUL.
    TextNul,
    /// Padding the reader skips; shown under its own name only (never prefixed by an
    /// entry's name), noted `pad, ignored` unless the def says otherwise.
    Pad,
    /// Bytes not broken down further.
    Bytes,
    /// A nested record whose fields show as `name.field` (`pos.x`); its floats take the
    /// def's unit when they have none.
    Group,
    /// A nested record whose fields show under their own names (a block present or absent
    /// as a whole).
    Inline,
    /// A value the record keeps but does not read from its bytes (the version it was read
    /// at): never shown.
    Hidden,
    /// A meaning that takes code: the value and a note from the field's raw bits
    /// (sign-extended for signed types) and the version the record was read at.
    Custom(fn(u64, u16) -> (Value, Option<String>)),
}

/// How a declared field repeats, from its Rust type: what decides whether the table can be
/// a user-layout struct ([`crate::formats::record_layout`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One value: a number, a byte run, a nested record.
    One,
    /// A fixed array of this many elements (`[T; N]`).
    Array(u64),
    /// Present or absent by a condition (`Option<T>`, `#[br(if ...)]`).
    Conditional,
    /// As many as an argument says (`Vec<T>`, `#[br(count = ...)]`).
    Counted,
    /// An array of arrays or of options: no single count.
    Complex,
}

/// A name shown beside a field's number.
#[derive(Debug, Clone, Copy)]
pub enum Label {
    /// None.
    None,
    /// Always this text (`words`, `bytes`).
    Text(&'static str),
    /// The name of the value in the table, or the second text when it is not there.
    Enum(&'static [(u64, &'static str)], &'static str),
    /// The names of the set bits (or bit masks) in the table.
    Flags(&'static [(u64, &'static str)]),
    /// A name computed from the value.
    Fn(fn(u64) -> String),
}

/// One field of a record's layout table: its name, where it is, what it means. Built-in
/// records get theirs from the declaration ([`record!`]); user layouts are interpreted into
/// the same shape. Built with the const methods: `FieldDef::of(Kind::Float).unit("deg")`.
#[derive(Debug, Clone, Copy)]
pub struct FieldDef {
    /// The field's name: the declared identifier, a trailing `_` dropped (`type_` is `type`).
    pub name: &'static str,
    /// Bytes from the record's start, when every field before it has a fixed size.
    pub offset: Option<u64>,
    /// Bytes the field takes, when fixed (None for conditional fields and counted arrays).
    pub size: Option<u64>,
    /// The stored type's name (`u16`, `i16`, `u8` for byte runs, the record's name for a
    /// nested record); an array of `size` bytes of a smaller type is that many of them.
    pub ty: &'static str,
    /// What the bytes are.
    pub kind: Kind,
    /// Unit of the number (`deg`, `units`); empty for none.
    pub unit: &'static str,
    /// A name beside the number.
    pub label: Label,
    /// True when the meaning is not known.
    pub unknown: bool,
    /// A note shown after the value.
    pub note: Option<&'static str>,
    /// The field's name in a record read at a version, when generations of a format name
    /// the same bytes differently (one record, the version its argument): see
    /// [`FieldDef::name_in`].
    pub name_by: Option<fn(u16) -> &'static str>,
    /// How the declared type repeats.
    pub shape: Shape,
    /// The nested record's table, when the field is one (or an array or option of one).
    pub nested: Option<&'static [FieldDef]>,
}

impl FieldDef {
    /// A field of `kind` with no unit, label or note (name and place filled in by
    /// [`record!`]).
    pub const fn of(kind: Kind) -> Self {
        FieldDef {
            name: "",
            offset: None,
            size: None,
            ty: "",
            kind,
            unit: "",
            label: Label::None,
            unknown: false,
            note: None,
            name_by: None,
            shape: Shape::One,
            nested: None,
        }
    }
    /// With a unit.
    pub const fn unit(self, unit: &'static str) -> Self {
        FieldDef { unit, ..self }
    }
    /// With a label.
    pub const fn label(self, label: Label) -> Self {
        FieldDef { label, ..self }
    }
    /// Meaning unknown.
    pub const fn unknown(self) -> Self {
        FieldDef { unknown: true, ..self }
    }
    /// With a note.
    pub const fn note(self, note: &'static str) -> Self {
        FieldDef { note: Some(note), ..self }
    }
    /// Named by `f` from the version the record is read at (the declared identifier is
    /// the name in the static table and where no version is known).
    pub const fn name_by(self, f: fn(u16) -> &'static str) -> Self {
        FieldDef { name_by: Some(f), ..self }
    }
    /// The field's name in a record read at `version`.
    pub fn name_in(&self, version: u16) -> &'static str {
        self.name_by.map_or(self.name, |f| f(version))
    }
    /// Named `name` (a declared identifier, see [`field_name`]), sized `size`, of type `ty`.
    pub const fn named(self, name: &'static str, size: Option<u64>, ty: &'static str) -> Self {
        FieldDef { name: field_name(name), size, ty, ..self }
    }
    /// Of `shape`, holding the record of table `nested` (filled in by [`record!`] from the
    /// declared type).
    pub const fn shaped(self, shape: Shape, nested: Option<&'static [FieldDef]>) -> Self {
        FieldDef { shape, nested, ..self }
    }
}

/// The shown name of a declared identifier: a trailing `_` (for a keyword, `type_`) dropped.
pub const fn field_name(ident: &'static str) -> &'static str {
    match ident.as_bytes() {
        [rest @ .., b'_'] => match std::str::from_utf8(rest) {
            Ok(r) => r,
            Err(_) => ident,
        },
        _ => ident,
    }
}

/// The table with offsets filled in: each field's offset is the sum of the sizes before it,
/// while they are all fixed.
#[allow(clippy::indexing_slicing)] // const fn: `i < N` by the loop; `get_mut` is not const
pub const fn layout<const N: usize>(mut defs: [FieldDef; N]) -> [FieldDef; N] {
    let mut at = Some(0u64);
    let mut i = 0;
    while i < N {
        defs[i].offset = at;
        at = match (at, defs[i].size) {
            (Some(a), Some(s)) => Some(a + s),
            _ => None,
        };
        i += 1;
    }
    defs
}

/// Bytes of a whole table, when every field is fixed.
#[allow(clippy::indexing_slicing)] // const fn: `i < len` by the loop
pub const fn table_size(defs: &[FieldDef]) -> Option<u64> {
    let mut sum = 0u64;
    let mut i = 0;
    while i < defs.len() {
        match defs[i].size {
            Some(s) => sum += s,
            None => return None,
        }
        i += 1;
    }
    Some(sum)
}

/// A table as one line, the way a spec writes a small layout: `u16 u, v, transparency, pad`,
/// `u8 px, py, type, pad[3]` (the type written where it changes, `[n]` for runs).
pub fn layout_line(defs: &[FieldDef]) -> String {
    let mut out = String::new();
    let mut last = "";
    for d in defs {
        if !out.is_empty() {
            out.push_str(", ");
        }
        if d.ty != last {
            out.push_str(d.ty);
            out.push(' ');
            last = d.ty;
        }
        out.push_str(d.name);
        let elem = match d.ty {
            "u8" | "i8" => 1,
            "u16" | "i16" => 2,
            "u32" | "i32" => 4,
            _ => 8,
        };
        if let Some(n) = d.size.filter(|&s| s > elem).map(|s| s / elem) {
            out.push_str(&format!("[{n}]"));
        }
    }
    out
}

/// What an object index names (the file's object table).
pub trait Names {
    /// Display name of object `n` (`none` for 0).
    fn name(&self, n: u32) -> String;
}

/// Names without an object table (a record shown on its own): 0 is `none`, any other
/// index is out of range.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNames;

impl Names for NoNames {
    fn name(&self, n: u32) -> String {
        if n == 0 { "none".into() } else { "out of range (of 0)".into() }
    }
}

/// Where a field's name goes: `prefix name suffix` (`layer[2].kind`, `weight[2]`).
#[derive(Debug, Clone, Default)]
pub struct Place {
    /// Before the name.
    pub prefix: String,
    /// After the name.
    pub suffix: String,
}

impl Place {
    /// The shown name of `def` here, in a record read at `version`.
    fn name(&self, def: &FieldDef, version: u16) -> String {
        if matches!(def.kind, Kind::Pad) {
            return def.name.to_string();
        }
        format!("{}{}{}", self.prefix, def.name_in(version), self.suffix)
    }
}

/// What labelling needs besides the bytes.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// Object names.
    pub names: &'a dyn Names,
    /// The version the record was read at (for [`Kind::Custom`]).
    pub version: u16,
    /// Unit for floats that have none (set by a [`Kind::Group`]).
    pub unit: &'static str,
}

/// A declared field's type as the layout sees it: its size and how it shows itself under
/// a [`FieldDef`].
pub trait Show {
    /// Bytes it takes, when fixed.
    const SIZE: Option<u64>;
    /// The stored type's name.
    const TYPE: &'static str;
    /// How it repeats.
    const SHAPE: Shape = Shape::One;
    /// The table of the record it is (or holds), when it is one.
    const NESTED: Option<&'static [FieldDef]> = None;
    /// Add its fields to `out`.
    fn show(&self, def: &FieldDef, at: &Place, ctx: &Ctx<'_>, out: &mut Vec<Field>);
    /// The value as a word and its span, when it is one number of up to 32 bits.
    fn word(&self) -> Option<(u32, Span)> {
        None
    }
}

/// A record with a layout table ([`record!`]): its fields labelled from the table.
pub trait Layout {
    /// The table, in file order.
    const FIELDS: &'static [FieldDef];
    /// Add the fields at `at` to `out`.
    fn show_fields(&self, at: &Place, ctx: &Ctx<'_>, out: &mut Vec<Field>);
    /// The version the record was read at, when it keeps one.
    fn version(&self) -> u16;
    /// Each field that is one number of up to 32 bits, with its def, value and span.
    fn words(&self, f: &mut dyn FnMut(&'static FieldDef, u32, Span));
    /// Every field in file order, object indices named by `names`.
    fn fields_in(&self, names: &dyn Names) -> Vec<Field> {
        self.fields_with(names, self.version())
    }
    /// [`Layout::fields_in`] as read at `version`.
    fn fields_with(&self, names: &dyn Names, version: u16) -> Vec<Field> {
        let mut out = Vec::new();
        self.show_fields(&Place::default(), &Ctx { names, version, unit: "" }, &mut out);
        out
    }
}

/// An entry record shown as element `i` of a table (`layer[i].kind`, `weight[i]`).
pub trait Element: Layout {
    /// The entry's prefix or suffix for element `i`.
    fn place(i: usize) -> Place;
    /// The fields of element `i`.
    fn fields_at(&self, i: usize, names: &dyn Names) -> Vec<Field> {
        let mut out = Vec::new();
        self.show_fields(&Self::place(i), &Ctx { names, version: self.version(), unit: "" }, &mut out);
        out
    }
}

/// A number's value under `def`: raw bits, width in bytes, sign-extended value when signed.
fn number(def: &FieldDef, bits: u64, width: u8, signed: Option<i64>, ctx: &Ctx<'_>) -> (Value, Option<String>) {
    let mut note = None;
    let mut v = match def.kind {
        Kind::Hex => Value::uint(bits, width),
        Kind::Float => {
            let unit = if def.unit.is_empty() { ctx.unit } else { def.unit };
            let v = Value::f32(bits as u32);
            if unit.is_empty() { v } else { v.number(f64::from(f32::from_bits(bits as u32)), unit) }
        }
        Kind::Fixed(div) => {
            let n = signed.unwrap_or(bits as i64);
            Value::int(n, width).number(n as f64 / div, def.unit)
        }
        Kind::Object => Value::dec(bits).refers(ctx.names.name(bits as u32)),
        Kind::Colour => colour_value(bits as u32),
        Kind::Custom(f) => {
            let (v, n) = f(signed.map_or(bits, |s| s as u64), ctx.version);
            note = n;
            v
        }
        _ => match signed {
            Some(n) => Value::int(n, width),
            None => Value::dec(bits),
        },
    };
    v = match def.label {
        Label::None => v,
        Label::Text(t) => v.label(t),
        Label::Enum(t, other) => v.label(t.iter().find(|(k, _)| *k == bits).map_or(other, |(_, n)| *n)),
        Label::Flags(t) => v.flags(t.iter().filter(|(b, _)| bits & b != 0).map(|(_, n)| n.to_string()).collect()),
        Label::Fn(f) => v.label(f(bits)),
    };
    if def.unknown {
        v = v.unknown();
    }
    (v, note.or(def.note.map(String::from)))
}

/// An RGBA colour word (R in the low byte; 0x80 = full in most places).
pub fn colour_value(w: u32) -> Value {
    let [r, g, b, a] = w.to_le_bytes();
    Value::uint(u64::from(w), 4).label(format!("rgba {r} {g} {b} {a}"))
}

fn push(out: &mut Vec<Field>, name: String, span: Span, (v, note): (Value, Option<String>)) {
    let f = Field::new(name, span, v);
    out.push(match note {
        Some(n) => f.note(n),
        None => f,
    });
}

macro_rules! show_numbers {
    ($($t:ty => $w:literal, $signed:expr;)*) => {$(
        impl Show for Spanned<$t> {
            const SIZE: Option<u64> = Some($w);
            const TYPE: &'static str = stringify!($t);
            fn word(&self) -> Option<(u32, Span)> {
                let (bits, _) = ($signed)(self.value);
                u32::try_from(bits).ok().map(|w| (w, self.span))
            }
            fn show(&self, def: &FieldDef, at: &Place, ctx: &Ctx<'_>, out: &mut Vec<Field>) {
                if matches!(def.kind, Kind::Hidden) {
                    return;
                }
                let (bits, signed) = ($signed)(self.value);
                push(out, at.name(def, ctx.version), self.span, number(def, bits, $w, signed, ctx));
            }
        }
    )*};
}

show_numbers! {
    u8 => 1, |v: u8| (u64::from(v), None::<i64>);
    u16 => 2, |v: u16| (u64::from(v), None::<i64>);
    u32 => 4, |v: u32| (u64::from(v), None::<i64>);
    u64 => 8, |v: u64| (v, None::<i64>);
    i8 => 1, |v: i8| (u64::from(v as u8), Some(i64::from(v)));
    i16 => 2, |v: i16| (u64::from(v as u16), Some(i64::from(v)));
    i32 => 4, |v: i32| (u64::from(v as u32), Some(i64::from(v)));
}

/// A value kept in memory only (`#[br(calc)]`): no bytes, never shown.
impl Show for u16 {
    const SIZE: Option<u64> = Some(0);
    const TYPE: &'static str = "u16";
    fn show(&self, _: &FieldDef, _: &Place, _: &Ctx<'_>, _: &mut Vec<Field>) {}
}

/// A value kept in memory only (`#[br(calc)]`): no bytes, never shown.
impl Show for u32 {
    const SIZE: Option<u64> = Some(0);
    const TYPE: &'static str = "u32";
    fn show(&self, _: &FieldDef, _: &Place, _: &Ctx<'_>, _: &mut Vec<Field>) {}
}

/// The bytes up to the first NUL.
pub fn trim_nul(b: &[u8]) -> &[u8] {
    let n = memchr::memchr(0, b).unwrap_or(b.len());
    b.get(..n).unwrap_or(b)
}

impl<const N: usize> Show for Spanned<ByteArray<N>> {
    const SIZE: Option<u64> = Some(N as u64);
    const TYPE: &'static str = "u8";
    fn show(&self, def: &FieldDef, at: &Place, ctx: &Ctx<'_>, out: &mut Vec<Field>) {
        let (mut v, mut note) = match def.kind {
            Kind::Text => (Value::text(&self.value.0), None),
            Kind::TextNul => (Value::text(trim_nul(&self.value.0)), None),
            Kind::Pad => (Value::bytes(N as u64), Some("pad, ignored")),
            _ if def.unknown => (Value::unknown_bytes(N as u64), None),
            _ => (Value::bytes(N as u64), None),
        };
        if let Label::Text(t) = def.label {
            v = v.label(t);
        }
        note = def.note.or(note);
        push(out, at.name(def, ctx.version), self.span, (v, note.map(String::from)));
    }
}

impl<T: Show> Show for Option<T> {
    const SIZE: Option<u64> = None;
    const TYPE: &'static str = T::TYPE;
    const SHAPE: Shape = Shape::Conditional;
    const NESTED: Option<&'static [FieldDef]> = T::NESTED;
    fn show(&self, def: &FieldDef, at: &Place, ctx: &Ctx<'_>, out: &mut Vec<Field>) {
        if let Some(v) = self {
            v.show(def, at, ctx, out);
        }
    }
}

/// Element `i` of an array field: `name[i]` for numbers, `name[i].field` for records.
fn show_elems<'t, T: Show + 't>(
    items: impl Iterator<Item = &'t T>,
    def: &FieldDef,
    at: &Place,
    ctx: &Ctx<'_>,
    out: &mut Vec<Field>,
) {
    for (i, item) in items.enumerate() {
        if matches!(def.kind, Kind::Group | Kind::Inline) {
            let place = Place { prefix: format!("{}{}[{i}].", at.prefix, def.name), suffix: at.suffix.clone() };
            item.show(&FieldDef { kind: Kind::Inline, ..*def }, &place, ctx, out);
        } else {
            let place = Place { prefix: at.prefix.clone(), suffix: format!("[{i}]{}", at.suffix) };
            item.show(def, &place, ctx, out);
        }
    }
}

impl<T: Show> Show for Vec<T> {
    const SIZE: Option<u64> = None;
    const TYPE: &'static str = T::TYPE;
    const SHAPE: Shape = Shape::Counted;
    const NESTED: Option<&'static [FieldDef]> = T::NESTED;
    fn show(&self, def: &FieldDef, at: &Place, ctx: &Ctx<'_>, out: &mut Vec<Field>) {
        show_elems(self.iter(), def, at, ctx, out);
    }
}

impl<T: Show, const N: usize> Show for [T; N] {
    const SIZE: Option<u64> = match T::SIZE {
        Some(s) => Some(s * N as u64),
        None => None,
    };
    const TYPE: &'static str = T::TYPE;
    const SHAPE: Shape = match T::SHAPE {
        Shape::One => Shape::Array(N as u64),
        _ => Shape::Complex,
    };
    const NESTED: Option<&'static [FieldDef]> = T::NESTED;
    fn show(&self, def: &FieldDef, at: &Place, ctx: &Ctx<'_>, out: &mut Vec<Field>) {
        show_elems(self.iter(), def, at, ctx, out);
    }
}

/// Shows a [`Layout`] record as a field of another: [`Kind::Group`] under `name.`,
/// otherwise under the outer names.
pub fn show_nested<T: Layout>(rec: &T, def: &FieldDef, at: &Place, ctx: &Ctx<'_>, out: &mut Vec<Field>) {
    if matches!(def.kind, Kind::Group) {
        let place = Place { prefix: format!("{}{}.", at.prefix, def.name), suffix: at.suffix.clone() };
        let unit = if def.unit.is_empty() { ctx.unit } else { def.unit };
        rec.show_fields(&place, &Ctx { unit, ..*ctx }, out);
    } else {
        rec.show_fields(at, ctx, out);
    }
}

/// Declares binrw records that label themselves: each field's name is its identifier and
/// its meaning a [`FieldDef`] after `=>`; the macro writes the struct (with its binrw
/// attributes), its [`Layout`] table (`FIELDS`, offsets and sizes where fixed), its
/// [`Show`] as a nested field, its [`Record`] and, with `entry`, its [`Element`] naming.
///
/// ```text
/// record! {
///     /// Doc.
///     #[br(import(version: u16))]
///     pub(in crate::formats) struct Eff = "Eff" [version = version] {
///         /// Doc.
///         pub object: Spanned<u32> => FieldDef::of(Kind::Object),
///     }
/// }
/// ```
/// Options in `[...]`: `version = field` (the record keeps the version it was read at in
/// that field), `version_const = expr` (labels as at that version), `entry = name`
/// (element `i` shows as `name[i].field`), `entry_suffix` (element `i` shows as
/// `field[i]`). [`FixedSize`] stays a hand-written number that tests check against the
/// declaration.
macro_rules! record {
    ($(
        $(#[$attr:meta])*
        $vis:vis struct $T:ident = $NAME:literal [$($opt:tt)*] {
            $(
                $(#[$fattr:meta])*
                $fvis:vis $f:ident : $fty:ty => $def:expr
            ),* $(,)?
        }
    )*) => {$(
        #[binrw::binrw]
        #[brw(little)]
        $(#[$attr])*
        $vis struct $T {
            $(
                $(#[$fattr])*
                $fvis $f: $fty,
            )*
        }

        impl $crate::formats::record::Layout for $T {
            const FIELDS: &'static [$crate::formats::record::FieldDef] = &$crate::formats::record::layout([
                $( ($def).named(
                    stringify!($f),
                    <$fty as $crate::formats::record::Show>::SIZE,
                    <$fty as $crate::formats::record::Show>::TYPE,
                ).shaped(
                    <$fty as $crate::formats::record::Show>::SHAPE,
                    <$fty as $crate::formats::record::Show>::NESTED,
                ), )*
            ]);
            fn show_fields(
                &self,
                at: &$crate::formats::record::Place,
                ctx: &$crate::formats::record::Ctx<'_>,
                out: &mut Vec<$crate::model::Field>,
            ) {
                let mut defs = <Self as $crate::formats::record::Layout>::FIELDS.iter();
                $(
                    if let Some(d) = defs.next() {
                        $crate::formats::record::Show::show(&self.$f, d, at, ctx, out);
                    }
                )*
            }
            fn words(&self, f: &mut dyn FnMut(&'static $crate::formats::record::FieldDef, u32, $crate::model::Span)) {
                let mut defs = <Self as $crate::formats::record::Layout>::FIELDS.iter();
                $(
                    if let (Some(d), Some((w, span))) =
                        (defs.next(), $crate::formats::record::Show::word(&self.$f))
                    {
                        f(d, w, span);
                    }
                )*
            }
            $crate::formats::record::record!(@version $($opt)*);
        }

        impl $crate::formats::record::Show for $T {
            const SIZE: Option<u64> =
                $crate::formats::record::table_size(<Self as $crate::formats::record::Layout>::FIELDS);
            const TYPE: &'static str = stringify!($T);
            const NESTED: Option<&'static [$crate::formats::record::FieldDef]> =
                Some(<Self as $crate::formats::record::Layout>::FIELDS);
            fn show(
                &self,
                def: &$crate::formats::record::FieldDef,
                at: &$crate::formats::record::Place,
                ctx: &$crate::formats::record::Ctx<'_>,
                out: &mut Vec<$crate::model::Field>,
            ) {
                $crate::formats::record::show_nested(self, def, at, ctx, out);
            }
        }

        impl $crate::formats::record::Record for $T {
            const NAME: &'static str = $NAME;
            fn fields(&self) -> Vec<$crate::model::Field> {
                $crate::formats::record::record!(@fields self, $($opt)*)
            }
        }

        $crate::formats::record::record!(@extra $T, $($opt)*);
    )*};

    (@version version = $vf:ident $(, $($rest:tt)*)?) => {
        fn version(&self) -> u16 { self.$vf }
    };
    (@version version_const = $v:tt $(, $($rest:tt)*)?) => {
        fn version(&self) -> u16 { $v }
    };
    (@version $other:ident $(= $x:tt)? $(, $($rest:tt)*)?) => {
        $crate::formats::record::record!(@version $($($rest)*)?);
    };
    (@version) => {
        fn version(&self) -> u16 { 0 }
    };

    (@fields $s:ident, entry = $e:tt $($rest:tt)*) => {
        $crate::formats::record::Element::fields_at($s, 0, &$crate::formats::record::NoNames)
    };
    (@fields $s:ident, entry_suffix $($rest:tt)*) => {
        $crate::formats::record::Element::fields_at($s, 0, &$crate::formats::record::NoNames)
    };
    (@fields $s:ident, $other:ident $(= $x:tt)? $(, $($rest:tt)*)?) => {
        $crate::formats::record::record!(@fields $s, $($($rest)*)?)
    };
    (@fields $s:ident, ) => {
        $crate::formats::record::Layout::fields_in($s, &$crate::formats::record::NoNames)
    };

    (@extra $T:ident, entry = $e:ident $(, $($rest:tt)*)?) => {
        impl $crate::formats::record::Element for $T {
            fn place(i: usize) -> $crate::formats::record::Place {
                $crate::formats::record::Place {
                    prefix: format!("{}[{i}].", $crate::formats::record::field_name(stringify!($e))),
                    suffix: String::new(),
                }
            }
        }
        $crate::formats::record::record!(@extra $T, $($($rest)*)?);
    };
    (@extra $T:ident, entry_suffix $(, $($rest:tt)*)?) => {
        impl $crate::formats::record::Element for $T {
            fn place(i: usize) -> $crate::formats::record::Place {
                $crate::formats::record::Place { prefix: String::new(), suffix: format!("[{i}]") }
            }
        }
        $crate::formats::record::record!(@extra $T, $($($rest)*)?);
    };
    (@extra $T:ident, $other:ident $(= $x:tt)? $(, $($rest:tt)*)?) => {
        $crate::formats::record::record!(@extra $T, $($($rest)*)?);
    };
    (@extra $T:ident, ) => {};
}
pub(in crate::formats) use record;

/// An error raised by a declaration's assert or a helper type, carrying the project's kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError(pub ErrorKind);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The assert error for a magic that does not match (`#[br(assert(.., bad_magic(..)))]`).
pub fn bad_magic(expected: &[u8], found: &[u8]) -> RecordError {
    RecordError(ErrorKind::BadMagic {
        expected: crate::model::escape_text(expected),
        found: crate::model::escape_text(found),
    })
}

/// A magic of `N` bytes that are the little-endian bytes of `M` (`Magic<4, { tag(b"IPAC") }>`):
/// reading other bytes fails with `BadMagic` naming the field; writing writes the magic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Magic<const N: usize, const M: u64>;

impl<const N: usize, const M: u64> Magic<N, M> {
    /// The magic's bytes.
    pub fn bytes() -> [u8; N] {
        let mut b = [0u8; N];
        for (d, s) in b.iter_mut().zip(M.to_le_bytes()) {
            *d = s;
        }
        b
    }
}

/// The value of a 4-byte tag for [`Magic`]: `tag(b"IPAC")`.
pub const fn tag(b: &[u8; 4]) -> u64 {
    u32::from_le_bytes(*b) as u64
}

impl<const N: usize, const M: u64> BinRead for Magic<N, M> {
    type Args<'a> = ();

    #[inline(always)]
    fn read_options<R: Read + Seek>(reader: &mut R, _: Endian, _: ()) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        let mut found = [0u8; N];
        reader.read_exact(&mut found)?;
        let expected = Self::bytes();
        if found != expected {
            return Err(binrw::Error::Custom { pos, err: Box::new(bad_magic(&expected, &found)) });
        }
        Ok(Magic)
    }
}

impl<const N: usize, const M: u64> BinWrite for Magic<N, M> {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, _: ()) -> BinResult<()> {
        writer.write_all(&Self::bytes())?;
        Ok(())
    }
}

/// `N` bytes read and written as one run (binrw reads a `[u8; N]` byte by byte): names,
/// tags and opaque bytes of fixed length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ByteArray<const N: usize>(pub [u8; N]);

impl<const N: usize> Default for ByteArray<N> {
    fn default() -> Self {
        ByteArray([0; N])
    }
}

impl<const N: usize> Deref for ByteArray<N> {
    type Target = [u8; N];
    fn deref(&self) -> &[u8; N] {
        &self.0
    }
}

impl<const N: usize> From<[u8; N]> for Spanned<ByteArray<N>> {
    fn from(b: [u8; N]) -> Self {
        Spanned::new(ByteArray(b))
    }
}

impl<const N: usize> BinRead for ByteArray<N> {
    type Args<'a> = ();

    #[inline(always)]
    fn read_options<R: Read + Seek>(reader: &mut R, _: Endian, _: ()) -> BinResult<Self> {
        let mut b = [0u8; N];
        reader.read_exact(&mut b)?;
        Ok(ByteArray(b))
    }
}

impl<const N: usize> BinWrite for ByteArray<N> {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, _: ()) -> BinResult<()> {
        writer.write_all(&self.0)?;
        Ok(())
    }
}

/// A count from a file, checked against the bytes left and a limit: the only count a
/// declaration's `count = ` takes (`#[br(import(n: Count))]`, `count = n.get()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Count(usize);

impl Count {
    /// `count` items of `elem_size` bytes at `offset`, or `CountTooLarge` when they do not
    /// fit in `bytes` or exceed `max`.
    pub fn checked(
        bytes: &Bytes<'_>,
        what: &'static str,
        offset: u64,
        count: u64,
        elem_size: u64,
        max: u64,
    ) -> Result<Count> {
        bytes.check_count(what, offset, count, elem_size, max).map(Count)
    }

    /// As many of `count` items of `elem_size` bytes at `offset` as fit in `bytes` and `max`
    /// (for tables read as far as they go).
    pub fn clamped(bytes: &Bytes<'_>, offset: u64, count: u64, elem_size: u64, max: u64) -> Count {
        let fit = bytes.remaining_from(offset).checked_div(elem_size).unwrap_or(0);
        Count(usize::try_from(count.min(fit).min(max)).unwrap_or(0))
    }

    /// The checked count.
    pub fn get(self) -> usize {
        self.0
    }
}

/// A reader over input bytes at absolute offsets (position = offset in the whole input).
/// Remembers the read that ran short, for the error.
#[derive(Debug, Clone)]
pub struct RecordReader<'a> {
    data: &'a [u8],
    base: u64,
    pos: u64,
    short: Option<(u64, u64)>,
}

impl<'a> RecordReader<'a> {
    /// A reader over `bytes` at absolute `pos`.
    pub fn new(bytes: &Bytes<'a>, pos: u64) -> Self {
        RecordReader { data: bytes.data(), base: bytes.start(), pos, short: None }
    }

    /// Absolute offset one past the last byte.
    pub fn end(&self) -> u64 {
        self.base + self.data.len() as u64
    }

    #[inline(always)]
    fn rest(&self) -> &'a [u8] {
        usize::try_from(self.pos.wrapping_sub(self.base))
            .ok()
            .filter(|_| self.pos >= self.base)
            .and_then(|r| self.data.get(r..))
            .unwrap_or(&[])
    }
}

impl Read for RecordReader<'_> {
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = self.rest();
        let n = rest.len().min(buf.len());
        if let (Some(dst), Some(src)) = (buf.get_mut(..n), rest.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.pos += n as u64;
        Ok(n)
    }

    #[inline(always)]
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        match self.rest().get(..buf.len()) {
            Some(src) => {
                copy_small(buf, src);
                self.pos += buf.len() as u64;
                Ok(())
            }
            None => {
                self.short = Some((self.pos, buf.len() as u64));
                Err(io::Error::from(io::ErrorKind::UnexpectedEof))
            }
        }
    }
}

/// `dst = src` (equal lengths) with the widths binrw reads as fixed-size copies, so a
/// field read compiles to a load instead of a `memcpy` call.
#[inline(always)]
fn copy_small(dst: &mut [u8], src: &[u8]) {
    macro_rules! fixed {
        ($($n:literal)*) => {
            match dst.len() {
                $($n => {
                    if let (Some(d), Some(s)) = (dst.first_chunk_mut::<$n>(), src.first_chunk::<$n>()) {
                        *d = *s;
                    }
                })*
                _ => dst.copy_from_slice(src),
            }
        };
    }
    fixed!(1 2 4 8);
}

impl Seek for RecordReader<'_> {
    #[inline(always)]
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let new = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(d) => self.end().checked_add_signed(d),
        };
        self.pos = new.ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        Ok(self.pos)
    }

    #[inline(always)]
    fn stream_position(&mut self) -> io::Result<u64> {
        Ok(self.pos)
    }
}

/// Read record `T` at absolute `at` in `bytes` (little-endian unless the declaration says
/// otherwise). Errors name the record and field and the absolute offset.
#[inline]
pub fn read<'a, T>(bytes: &Bytes<'_>, at: u64, args: T::Args<'a>) -> Result<T>
where
    T: BinRead + Record,
{
    let mut r = RecordReader::new(bytes, at);
    T::read_options(&mut r, Endian::Little, args).map_err(|e| to_parse_error(&e, T::NAME, &r))
}

/// [`read`] for records without arguments.
#[inline]
pub fn read_at<T>(bytes: &Bytes<'_>, at: u64) -> Result<T>
where
    T: BinRead + Record,
    for<'a> T::Args<'a>: Default,
{
    read(bytes, at, Default::default())
}

/// A record read as far as the bytes go, for showing a truncated record's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Prefix<T> {
    /// The record; fields past `end` hold zeros, not file bytes.
    pub record: T,
    /// True when the whole record was in the bytes.
    pub complete: bool,
    /// End of the bytes the record was read from.
    pub end: u64,
}

impl<T: Record> Prefix<T> {
    /// The fields whose bytes are all present.
    pub fn fields(&self) -> Vec<Field> {
        let mut v = self.record.fields();
        if !self.complete {
            v.retain(|f| f.span.end <= self.end);
        }
        v
    }
}

/// Zeros appended to a truncated record's bytes for [`read_prefix`] (more than any fixed
/// record of the formats is long).
const PREFIX_PAD: usize = 256;

/// Read `T` at `at`; when the bytes end inside it, read it again from the bytes there padded
/// with zeros, so the fields that are present can still be shown ([`Prefix::fields`]).
/// None when even that fails (an assert on a missing field, or `at` outside the bytes).
pub fn read_prefix<T>(bytes: &Bytes<'_>, at: u64) -> Option<Prefix<T>>
where
    T: BinRead + Record,
    for<'a> T::Args<'a>: Default + Clone,
{
    read_prefix_with(bytes, at, Default::default())
}

/// [`read_prefix`] for records with arguments (a version, a count).
pub fn read_prefix_with<'a, T>(bytes: &Bytes<'_>, at: u64, args: T::Args<'a>) -> Option<Prefix<T>>
where
    T: BinRead + Record,
    T::Args<'a>: Clone,
{
    let end = bytes.end();
    match read::<T>(bytes, at, args.clone()) {
        Ok(record) => Some(Prefix { record, complete: true, end }),
        Err(e) if matches!(e.kind, ErrorKind::OutOfBounds { .. }) => {
            let have = bytes.slice(at, bytes.remaining_from(at)).ok()?;
            let mut padded = Vec::with_capacity(have.len() + PREFIX_PAD);
            padded.extend_from_slice(have);
            padded.resize(have.len() + PREFIX_PAD, 0);
            let mut r = RecordReader { data: &padded, base: at, pos: at, short: None };
            let record = T::read_options(&mut r, Endian::Little, args).ok()?;
            Some(Prefix { record, complete: false, end })
        }
        Err(_) => None,
    }
}

/// Append record `rec` to `out`, little-endian.
pub fn write<T>(rec: &T, out: &mut Vec<u8>) -> std::result::Result<(), String>
where
    T: BinWrite,
    for<'a> T::Args<'a>: Default,
{
    let at = out.len() as u64;
    write_over(rec, out, at)
}

/// Write record `rec` into `out` at `at`, over what is there (growing `out` if needed).
pub fn write_over<T>(rec: &T, out: &mut Vec<u8>, at: u64) -> std::result::Result<(), String>
where
    T: BinWrite,
    for<'a> T::Args<'a>: Default,
{
    let mut c = io::Cursor::new(out);
    c.set_position(at);
    rec.write_options(&mut c, Endian::Little, Default::default()).map_err(|e| e.to_string())
}

/// `name` from binrw's context message `While parsing field 'name' in Type`.
fn field_of(message: &str) -> Option<&str> {
    message.strip_prefix("While parsing field '")?.split('\'').next()
}

#[cold]
#[inline(never)]
fn to_parse_error(e: &binrw::Error, record: &'static str, r: &RecordReader<'_>) -> ParseError {
    let mut fields: Vec<&str> = Vec::new();
    let mut root = e;
    if let binrw::Error::Backtrace(bt) = e {
        // Frames are pushed on the way out: innermost first.
        for f in bt.frames.iter().rev() {
            if let binrw::error::BacktraceFrame::Full { message, .. } = f
                && let Some(name) = field_of(message)
            {
                fields.push(name);
            }
        }
        root = &bt.error;
    }
    let (offset, kind) = match root {
        binrw::Error::Io(io) => match r.short {
            Some((at, len)) => (at, ErrorKind::OutOfBounds { offset: at, len, available: r.end() }),
            None => (r.pos, ErrorKind::Other(io.to_string())),
        },
        binrw::Error::Custom { pos, err } => match err.downcast_ref::<RecordError>() {
            Some(RecordError(kind)) => (*pos, kind.clone()),
            None => (*pos, ErrorKind::Other(err.to_string())),
        },
        binrw::Error::BadMagic { pos, found } => {
            (*pos, ErrorKind::BadMagic { expected: "the declared magic".into(), found: format!("{found:?}") })
        }
        binrw::Error::AssertFail { pos, message } => (*pos, ErrorKind::Other(message.clone())),
        other => (r.pos, ErrorKind::Other(other.to_string())),
    };
    ParseError::new(offset, kind).within(fields.join(" > ")).within(record)
}

/// Bytes left in `reader` from its position (its stream is the whole input).
fn bytes_left<R: Read + Seek>(reader: &mut R) -> BinResult<u64> {
    let pos = reader.stream_position()?;
    let end = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(pos))?;
    Ok(end.saturating_sub(pos))
}

/// A run of `len` bytes (its argument), checked against the bytes left before it is
/// allocated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Blob(pub Vec<u8>);

impl BinRead for Blob {
    type Args<'a> = (u64,);

    fn read_options<R: Read + Seek>(reader: &mut R, _: Endian, (len,): Self::Args<'_>) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        let left = bytes_left(reader)?;
        if len > left {
            return Err(binrw::Error::Custom {
                pos,
                err: Box::new(RecordError(ErrorKind::OutOfBounds { offset: pos, len, available: pos + left })),
            });
        }
        let mut v = vec![0u8; usize::try_from(len).unwrap_or(0)];
        reader.read_exact(&mut v)?;
        Ok(Blob(v))
    }
}

impl BinWrite for Blob {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, _: ()) -> BinResult<()> {
        writer.write_all(&self.0)?;
        Ok(())
    }
}

/// A NUL-terminated byte string of at most `MAX` bytes searched (terminator included);
/// holds the bytes without the NUL. A missing terminator is an error.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CString<const MAX: u64>(pub Vec<u8>);

impl<const MAX: u64> BinRead for CString<MAX> {
    type Args<'a> = ();

    fn read_options<R: Read + Seek>(reader: &mut R, _: Endian, _: ()) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        let avail = bytes_left(reader)?.min(MAX);
        let mut v = Vec::new();
        // In chunks, not byte by byte: names are short, one chunk usually holds the NUL.
        let mut chunk = [0u8; 64];
        let mut done = 0u64;
        while done < avail {
            let want = usize::try_from((avail - done).min(64)).unwrap_or(64);
            let Some(c) = chunk.get_mut(..want) else { break };
            reader.read_exact(c)?;
            if let Some(i) = memchr::memchr(0, c) {
                if v.is_empty() {
                    // the usual short name: one exact allocation, not a growth step
                    v = c.get(..i).unwrap_or(&[]).to_vec();
                } else {
                    v.extend_from_slice(c.get(..i).unwrap_or(&[]));
                }
                reader.seek(SeekFrom::Start(pos + done + i as u64 + 1))?;
                return Ok(CString(v));
            }
            v.extend_from_slice(c);
            done += want as u64;
        }
        Err(binrw::Error::Custom {
            pos,
            err: Box::new(RecordError(ErrorKind::Other(format!(
                "string at 0x{pos:x} has no terminator within {avail} bytes"
            )))),
        })
    }
}

impl<const MAX: u64> BinWrite for CString<MAX> {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, _: ()) -> BinResult<()> {
        writer.write_all(&self.0)?;
        writer.write_all(&[0])?;
        Ok(())
    }
}

/// Check that `T::SIZE` is the size of its declaration: a default record writes `SIZE`
/// bytes, reads back from `SIZE` bytes, and does not read from one byte less.
#[cfg(test)]
pub(in crate::formats) fn assert_fixed_size<T>()
where
    T: BinRead + BinWrite + Record + FixedSize + Default,
    for<'a> <T as BinRead>::Args<'a>: Default,
    for<'a> <T as BinWrite>::Args<'a>: Default,
{
    let mut v = Vec::new();
    assert_eq!(write(&T::default(), &mut v), Ok(()));
    assert_eq!(v.len() as u64, T::SIZE, "{}: declared size", T::NAME);
    let b = Bytes::new(&v);
    assert!(read_at::<T>(&b, 0).is_ok(), "{}: reads from SIZE bytes", T::NAME);
    if let Some(short) = v.get(..v.len().saturating_sub(1)) {
        let e = read_at::<T>(&Bytes::new(short), 0).err().map(|e| e.kind);
        assert!(matches!(e, Some(ErrorKind::OutOfBounds { .. })), "{}: one byte short: {e:?}", T::NAME);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use binrw::binrw;

    /// A record exercising what formats need: a magic assert, a nested record, an array
    /// counted by an argument, a conditional field, a string and a byte run.
    #[binrw]
    #[brw(little)]
    #[derive(Debug, Clone, Default, PartialEq)]
    struct Pair {
        a: Spanned<u8>,
        b: Spanned<i16>,
    }

    impl Record for Pair {
        const NAME: &'static str = "pair";
        fn fields(&self) -> Vec<Field> {
            let s = self;
            vec![field!(s.a, Value::uint(u64::from(*s.a), 1)), field!(s.b, Value::int(i64::from(*s.b), 2))]
        }
    }

    impl FixedSize for Pair {
        const SIZE: u64 = 3;
    }

    #[binrw]
    #[brw(little)]
    #[br(import(n: Count))]
    #[derive(Debug, Clone, Default, PartialEq)]
    struct Outer {
        magic: Spanned<Magic<2, 0x4b4f>>,
        flags: Spanned<u8>,
        #[br(count = n.get())]
        pairs: Vec<Spanned<Pair>>,
        #[br(if(flags.value & 1 != 0))]
        name: Option<Spanned<CString<8>>>,
        #[br(args(u64::from(flags.value >> 4)))]
        tail: Spanned<Blob>,
    }

    impl Record for Outer {
        const NAME: &'static str = "outer";
        fn fields(&self) -> Vec<Field> {
            let s = self;
            vec![
                field!(s.magic, Value::text(&Magic::<2, 0x4b4f>::bytes())),
                field!(s.flags, Value::uint(u64::from(*s.flags), 1)),
            ]
        }
    }

    #[test]
    fn fields_carry_absolute_spans_through_nesting_arrays_and_options() {
        // 4 bytes of something else, then the record at 4 (hand-written):
        let data = [
            0xee, 0xee, 0xee, 0xee, // not ours
            b'O', b'K', // +4 magic
            0x21, // +6 flags: name present, tail of 2 bytes
            0x01, 0x02, 0x00, // +7 pair[0]: a = 1, b = 2
            0x03, 0xff, 0xff, // +10 pair[1]: a = 3, b = -1
            b'h', b'i', 0x00, // +13 name "hi"
            0xaa, 0xbb, // +16 tail
        ];
        let b = Bytes::new(&data);
        let n = Count::checked(&b, "pair", 7, 2, Pair::SIZE, 10).unwrap();
        let o: Outer = read(&b, 4, (n,)).unwrap();
        assert_eq!(o.magic.span, Span::new(4, 6));
        assert_eq!(o.flags.span, Span::new(6, 7));
        assert_eq!(o.pairs.iter().map(|p| p.span).collect::<Vec<_>>(), vec![Span::new(7, 10), Span::new(10, 13)]);
        assert_eq!((o.pairs[1].b.value, o.pairs[1].b.span), (-1, Span::new(11, 13)));
        let name = o.name.as_ref().unwrap();
        assert_eq!((name.value.0.as_slice(), name.span), (&b"hi"[..], Span::new(13, 16)));
        assert_eq!((o.tail.value.0.as_slice(), o.tail.span), (&[0xaa, 0xbb][..], Span::new(16, 18)));
        let f = o.pairs[0].fields();
        assert_eq!(
            f.iter().map(|f| (f.name.as_str(), f.span)).collect::<Vec<_>>(),
            [("a", Span::new(7, 8)), ("b", Span::new(8, 10))]
        );
        // writing the record gives the bytes back
        let mut out = Vec::new();
        write(&o, &mut out).unwrap();
        assert_eq!(out, &data[4..]);
    }

    #[test]
    fn errors_name_record_field_and_offset() {
        let data = [b'N', b'O', 0x00];
        let e = read::<Outer>(&Bytes::new(&data), 0, (Count(0),)).unwrap_err();
        assert_eq!(e.offset, 0);
        assert_eq!(e.path, "outer > magic");
        assert_eq!(e.kind, ErrorKind::BadMagic { expected: "OK".into(), found: "NO".into() });
        // short inside the second pair's `b`: the short read's offset and length
        let data = [b'O', b'K', 0x00, 1, 2, 0, 3, 4];
        let e = read::<Outer>(&Bytes::new(&data), 0, (Count(2),)).unwrap_err();
        assert_eq!(e.path, "outer > pairs > b");
        assert_eq!(e.kind, ErrorKind::OutOfBounds { offset: 7, len: 2, available: 8 });
        assert_eq!(e.offset, 7);
        // a byte run longer than the bytes left fails before allocating
        let data = [b'O', b'K', 0xf0];
        let e = read::<Outer>(&Bytes::new(&data), 0, (Count(0),)).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.kind),
            ("outer > tail", ErrorKind::OutOfBounds { offset: 3, len: 15, available: 3 })
        );
        // a string without terminator within its maximum
        let data = [b'O', b'K', 0x01, b'a', b'b', b'c', b'd', b'e', b'f', b'g', b'h', b'i', 0];
        let e = read::<Outer>(&Bytes::new(&data), 0, (Count(0),)).unwrap_err();
        assert_eq!(e.path, "outer > name");
        assert_eq!(e.kind, ErrorKind::Other("string at 0x3 has no terminator within 8 bytes".into()));
    }

    #[test]
    fn counts_are_checked_before_reading() {
        let data = [0u8; 10];
        let b = Bytes::new(&data);
        let e = Count::checked(&b, "pair", 1, 4, 3, 100).unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge { what: "pair", count: 4, max: 3 });
        assert_eq!(
            Count::checked(&b, "pair", 1, 4, 3, 2).unwrap_err().kind,
            ErrorKind::CountTooLarge { what: "pair", count: 4, max: 2 }
        );
        assert_eq!(Count::clamped(&b, 1, 4, 3, 100).get(), 3);
        assert_eq!(Count::clamped(&b, 11, 4, 3, 100).get(), 0);
    }

    #[test]
    fn a_truncated_record_shows_the_fields_present() {
        let data = [0x05, 0x01];
        let p = read_prefix::<Pair>(&Bytes::new(&data), 0).unwrap();
        assert!(!p.complete);
        assert_eq!(p.fields().iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["a"]);
        let p = read_prefix::<Pair>(&Bytes::new(&[1, 2, 3]), 0).unwrap();
        assert!(p.complete);
        assert_eq!(p.fields().len(), 2);
        assert!(read_prefix::<Pair>(&Bytes::new(&[1, 2, 3]), 7).is_none());
        assert_fixed_size::<Pair>();
    }

    #[test]
    fn reader_positions_are_absolute() {
        let data = [1u8, 2, 3, 4, 5, 6];
        let b = Bytes::new(&data);
        let w = b.sub(2, 6).unwrap();
        let p: Pair = read_at(&w, 3).unwrap();
        assert_eq!((p.a.value, p.a.span, p.b.value, p.b.span), (4, Span::new(3, 4), 0x0605, Span::new(4, 6)));
        let e = read_at::<Pair>(&w, 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::OutOfBounds { offset: 1, len: 1, available: 6 });
    }
}
