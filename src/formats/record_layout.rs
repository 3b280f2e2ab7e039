//! A built-in record's layout table ([`FieldDef`]s, written by `record!`) as the structs a
//! user layout declares ([`StructDef`] of `model::layout`), so the user-layout interpreter
//! and its exporters can read and write what the built-in records say.
//!
//! What a user layout can say converts: integers, f32, fixed point over a power of two,
//! byte runs, text, padding, fixed arrays, nested records (as structs when shown under
//! `name.`, folded into the outer struct when shown under the outer names), enum and flag
//! names. What it cannot say is refused with the field and the reason, never approximated:
//! fields present or absent by a condition (`Option`, `#[br(if ...)]`), arrays counted by
//! an argument (`Vec`, `#[br(count = ...)]`), padding inside a nested struct (shown without
//! the struct's prefix), fixed point over other divisors.

use super::record::{FieldDef, Kind, Label, Shape};
use crate::model::layout::{Count, Endian, LayoutField, StructDef, Ty};
use std::fmt;

/// Why a record's table is not a user-layout struct: the first field that cannot be said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotConvertible {
    /// The field, by its declared names from the record (`long.width`).
    pub field: String,
    /// Why.
    pub reason: &'static str,
}

impl fmt::Display for NotConvertible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

/// The structs of table `defs` of the record type `name`, with the field names of a record
/// read at `version` (none: the declared names). The record's own struct is first.
pub fn to_structs(
    name: &str,
    defs: &'static [FieldDef],
    version: Option<u16>,
) -> Result<Vec<StructDef>, NotConvertible> {
    let mut c = Convert { structs: Vec::new(), version };
    c.struct_of(name, defs, "")?;
    Ok(c.structs)
}

struct Convert {
    structs: Vec<StructDef>,
    version: Option<u16>,
}

fn refuse<T>(field: &str, reason: &'static str) -> Result<T, NotConvertible> {
    Err(NotConvertible { field: field.to_string(), reason })
}

impl Convert {
    /// The index of the struct for record type `name`, converted on first use.
    fn struct_of(&mut self, name: &str, defs: &'static [FieldDef], path: &str) -> Result<usize, NotConvertible> {
        if let Some(i) = self.structs.iter().position(|s| s.name == name) {
            return Ok(i);
        }
        let i = self.structs.len();
        self.structs.push(StructDef { name: name.to_string(), fields: Vec::new() });
        let mut fields = Vec::new();
        // the root's fields show under their own names; a nested struct's under `name.`
        self.fields(defs, path, i > 0, &mut fields)?;
        if let Some(s) = self.structs.get_mut(i) {
            s.fields = fields;
        }
        Ok(i)
    }

    fn fields(
        &mut self,
        defs: &'static [FieldDef],
        path: &str,
        prefixed: bool,
        out: &mut Vec<LayoutField>,
    ) -> Result<(), NotConvertible> {
        for d in defs {
            let here = format!("{path}{}", d.name);
            if d.size == Some(0) {
                continue; // kept in memory, not read from the bytes: never shown
            }
            if matches!(d.kind, Kind::Hidden) {
                return refuse(&here, "a hidden field with bytes");
            }
            let count = match d.shape {
                Shape::One => Count::One,
                Shape::Array(n) => Count::Fixed(n),
                Shape::Conditional => return refuse(&here, "present or absent by a condition (#[br(if ...)])"),
                Shape::Counted => return refuse(&here, "counted by an argument (#[br(count = ...)])"),
                Shape::Complex => return refuse(&here, "an array of arrays or of options"),
            };
            let name = self.version.map_or(d.name, |v| d.name_in(v)).to_string();
            if let Some(table) = d.nested {
                match (d.kind, &count) {
                    (Kind::Inline, Count::One) => self.fields(table, &format!("{here}."), prefixed, out)?,
                    (Kind::Group | Kind::Inline, _) => {
                        let i = self.struct_of(d.ty, table, &format!("{here}."))?;
                        out.push(field(name, Ty::Struct(i), d.ty.to_string(), count, d));
                    }
                    _ => return refuse(&here, "a nested record shown neither as a group nor inline"),
                }
                continue;
            }
            if matches!(d.kind, Kind::Pad) && prefixed {
                return refuse(&here, "padding inside a nested struct shows without the struct's prefix");
            }
            if matches!(d.kind, Kind::Pad) && count != Count::One {
                return refuse(&here, "an array of padding shows every element under one name");
            }
            let n = match count {
                Count::Fixed(n) => n,
                _ => 1,
            };
            let Some(elem) = d.size.and_then(|s| s.checked_div(n)) else {
                return refuse(&here, "no fixed size");
            };
            let (ty, ty_name) = scalar(d, elem).ok_or(NotConvertible {
                field: here,
                reason: "a meaning a user layout cannot say (fixed point over a divisor that is not a power \
                         of two, or text in a number)",
            })?;
            out.push(field(name, ty, ty_name, count, d));
        }
        Ok(())
    }
}

fn field(name: String, ty: Ty, ty_name: String, count: Count, d: &FieldDef) -> LayoutField {
    let names = |t: &[(u64, &str)]| t.iter().map(|(k, n)| (*k, n.to_string())).collect();
    let (enums, flags) = match d.label {
        Label::Enum(t, _) => (names(t), Vec::new()),
        Label::Flags(t) => (Vec::new(), names(t)),
        _ => (Vec::new(), Vec::new()),
    };
    LayoutField { name, ty, ty_name, count, enums, flags, line: 0 }
}

/// The user-layout type of one element of `d`, `elem` bytes long, and its name as a layout
/// file writes it.
fn scalar(d: &FieldDef, elem: u64) -> Option<(Ty, String)> {
    let endian = Endian::Little; // every record is declared `#[brw(little)]`
    let int = match d.ty {
        "u8" => Some((1u8, false)),
        "u16" => Some((2, false)),
        "u32" => Some((4, false)),
        "u64" => Some((8, false)),
        "i8" => Some((1, true)),
        "i16" => Some((2, true)),
        "i32" => Some((4, true)),
        "i64" => Some((8, true)),
        _ => None,
    };
    let run = d.ty == "u8" && (elem != 1 || matches!(d.kind, Kind::Text | Kind::TextNul | Kind::Bytes));
    if run {
        return Some(match d.kind {
            Kind::Text | Kind::TextNul => (Ty::Str(elem), "str".into()),
            Kind::Pad => (Ty::Pad(elem), "pad".into()),
            _ => (Ty::Bytes(elem), "bytes".into()),
        });
    }
    let (bytes, signed) = int.filter(|(b, _)| u64::from(*b) == elem)?;
    Some(match d.kind {
        Kind::Float if bytes == 4 => (Ty::Float { bytes, endian }, "f32".into()),
        Kind::Float => return None,
        Kind::Fixed(div) => {
            let frac = div.log2();
            let bits = f64::from(bytes) * 8.0;
            if frac.fract() != 0.0 || frac < 1.0 || frac >= bits {
                return None;
            }
            let frac = frac as u8;
            let name = format!("{}fixed{}.{frac}", if signed { "" } else { "u" }, bytes * 8 - frac);
            (Ty::Fixed { bytes, frac, signed, endian }, name)
        }
        Kind::Pad => (Ty::Pad(elem), "pad".into()),
        Kind::Text | Kind::TextNul => return None,
        _ => (Ty::Int { bytes, signed, endian }, d.ty.to_string()),
    })
}

/// A built-in record's layout table, by the record's type and spec names.
#[derive(Debug, Clone, Copy)]
pub struct RecordTable {
    /// The declared type (`ChunkHeader`).
    pub ty: &'static str,
    /// The record's name as the spec calls it (`chunk header`).
    pub name: &'static str,
    /// Its table.
    pub fields: &'static [FieldDef],
}

impl RecordTable {
    /// Its structs with the declared names ([`to_structs`]).
    pub fn structs(&self) -> Result<Vec<StructDef>, NotConvertible> {
        to_structs(self.ty, self.fields, None)
    }
}

/// Lists record types as [`RecordTable`]s (`const NAME: &[RecordTable]`), and in tests
/// `fn inspect` that, given a value read by a hand vector, finds which listed record it is
/// (by itself or read `Spanned`) and returns its type name, table, version and fields.
macro_rules! record_tables {
    ($list:ident: $($T:ident),* $(,)?) => {
        /// Every record `raw.rs` declares with `record!`, with its layout table.
        pub(in crate::formats) const $list: &[$crate::formats::record_layout::RecordTable] = &[$(
            $crate::formats::record_layout::RecordTable {
                ty: stringify!($T),
                name: <$T as $crate::formats::record::Record>::NAME,
                fields: <$T as $crate::formats::record::Layout>::FIELDS,
            },
        )*];

        /// The listed record `v` is (itself or `Spanned`): its type name, table, the version
        /// it was read at and its fields as its table labels them (no object names).
        #[cfg(test)]
        pub(in crate::formats) fn inspect(
            v: &dyn std::any::Any,
        ) -> Option<(&'static str, &'static [$crate::formats::record::FieldDef], u16, Vec<$crate::model::Field>)> {
            use $crate::formats::record::{Layout, NoNames, Spanned};
            $(
                let r = v.downcast_ref::<$T>().or_else(|| v.downcast_ref::<Spanned<$T>>().map(|s| &s.value));
                if let Some(r) = r {
                    return Some((stringify!($T), <$T as Layout>::FIELDS, r.version(), r.fields_in(&NoNames)));
                }
            )*
            None
        }
    };
}
pub(in crate::formats) use record_tables;
