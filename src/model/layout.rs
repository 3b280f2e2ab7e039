//! What a layout says the bytes are, without reading any: field types ([`Ty`]), array
//! counts ([`Count`]), fields ([`LayoutField`]) and named structs ([`StructDef`]). User
//! layouts (`crate::layout`, read from TOML) and the built-in records' layout tables
//! (`crate::formats::record`, converted) are both described in these types, so one
//! interpreter and one set of exporters serve both; they live here, below both, because
//! neither of those may use the other.

/// Byte order of a multi-byte value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    /// Least significant byte first.
    Little,
    /// Most significant byte first.
    Big,
}

/// What a field's bytes are.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// An integer of 1, 2, 4 or 8 bytes.
    Int {
        /// Width in bytes.
        bytes: u8,
        /// Two's complement.
        signed: bool,
        /// Byte order.
        endian: Endian,
    },
    /// IEEE float of 2, 4 or 8 bytes.
    Float {
        /// Width in bytes.
        bytes: u8,
        /// Byte order.
        endian: Endian,
    },
    /// Fixed point: an integer of `bytes` width over 2^`frac` (`fixed16.16`).
    Fixed {
        /// Width in bytes.
        bytes: u8,
        /// Fraction bits.
        frac: u8,
        /// Two's complement.
        signed: bool,
        /// Byte order.
        endian: Endian,
    },
    /// A u16 angle: 0x10000 is a full turn, shown in degrees.
    Angle16(Endian),
    /// A signed 16-bit value over 32767, clamped to −1.
    Snorm16(Endian),
    /// A fixed-length string (text up to the first NUL).
    Str(u64),
    /// A NUL-terminated string of at most this many bytes, the NUL included.
    Strz(u64),
    /// Opaque bytes of this length.
    Bytes(u64),
    /// Padding bytes of this length.
    Pad(u64),
    /// Padding up to the next multiple of this many bytes from the layout's start.
    Align(u64),
    /// One of the layout's structs (an index into the list the struct belongs to:
    /// `crate::layout::Layout::structs`, or a built-in record's converted structs).
    Struct(usize),
}

/// How many times a field repeats.
#[derive(Debug, Clone, PartialEq)]
pub enum Count {
    /// Once: not an array.
    One,
    /// A fixed count.
    Fixed(u64),
    /// The value of an earlier integer field of the same struct.
    Field(String),
    /// As many whole elements as fit in the bytes left.
    Rest,
}

/// One declared field.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutField {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// The type as written (`u32`, `vec3`), for exports and messages.
    pub ty_name: String,
    /// Array count.
    pub count: Count,
    /// Names of values (`enum`), by value ascending.
    pub enums: Vec<(u64, String)>,
    /// Names of bits (`flags`), by mask ascending (bit order).
    pub flags: Vec<(u64, String)>,
    /// Line (from 1) of the layout file that declares it, for messages about it; 0 when
    /// it comes from no file (a built-in record's table).
    pub line: u32,
}

/// A named list of fields.
#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    /// Its name.
    pub name: String,
    /// Its fields in order.
    pub fields: Vec<LayoutField>,
}
