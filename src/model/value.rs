use std::fmt;

/// The raw number (or bytes) a field holds, exactly as stored.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    /// Unsigned integer of `bytes` width (1, 2, 4, 8), shown in hex.
    U {
        /// Value.
        v: u64,
        /// Width in bytes.
        bytes: u8,
    },
    /// Signed integer of `bytes` width, shown in decimal.
    I {
        /// Value.
        v: i64,
        /// Width in bytes.
        bytes: u8,
    },
    /// An unsigned count or index, shown in decimal.
    Dec(u64),
    /// A bit field value of `bits` width.
    Bits {
        /// Value.
        v: u64,
        /// Width in bits.
        bits: u8,
    },
    /// IEEE half float by its bits.
    F16(u16),
    /// IEEE single float by its bits.
    F32(u32),
    /// A byte string kept as bytes (names may be Shift-JIS); shown escaped.
    Text(Vec<u8>),
    /// Opaque bytes (length only; the hex pane shows them).
    Bytes(u64),
    /// A computed value with no single stored number (e.g. a derived code table row).
    Derived(String),
}

/// What the raw value means, when known.
#[derive(Debug, Clone, PartialEq)]
pub enum Meaning {
    /// A name for an enumerated value: `0x0300 Texture`.
    Label(String),
    /// A reference to another object: `2 → TEX_xasc00`.
    Ref(String),
    /// A scaled number with its unit: `0x1000 = 1.0 m`.
    Number {
        /// The converted value.
        value: f64,
        /// Its unit (`"m"`, `"deg"`, `""`).
        unit: String,
    },
    /// Set flags by name: `0x8004 half-rate|alt-stream`.
    Flags(Vec<String>),
    /// Known not to be understood: shown as `unknown`.
    Unknown,
}

/// A field value: the raw stored number and, when known, its meaning.
///
/// ```
/// use animscope::model::Value;
/// assert_eq!(Value::uint(0x0300, 2).label("Texture").to_string(), "0x0300 Texture");
/// assert_eq!(Value::dec(2).refers("TEX_xasc00").to_string(), "2 → TEX_xasc00");
/// assert_eq!(Value::f16(0x3c00).to_string(), "f16 0x3c00 = 1.0");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// What is stored.
    pub raw: Raw,
    /// What it means, if known.
    pub meaning: Option<Meaning>,
}

impl Value {
    /// Unsigned integer of `bytes` width.
    pub fn uint(v: u64, bytes: u8) -> Self {
        Value { raw: Raw::U { v, bytes }, meaning: None }
    }
    /// Signed integer of `bytes` width.
    pub fn int(v: i64, bytes: u8) -> Self {
        Value { raw: Raw::I { v, bytes }, meaning: None }
    }
    /// A decimal count or index.
    pub fn dec(v: u64) -> Self {
        Value { raw: Raw::Dec(v), meaning: None }
    }
    /// A bit-field value.
    pub fn bits(v: u64, bits: u8) -> Self {
        Value { raw: Raw::Bits { v, bits }, meaning: None }
    }
    /// A half float by its bits; the meaning is its exact value.
    pub fn f16(bits: u16) -> Self {
        let v = f64::from(half::f16::from_bits(bits).to_f32());
        Value { raw: Raw::F16(bits), meaning: Some(Meaning::Number { value: v, unit: String::new() }) }
    }
    /// A single float by its bits.
    pub fn f32(bits: u32) -> Self {
        Value { raw: Raw::F32(bits), meaning: None }
    }
    /// A byte string.
    pub fn text(bytes: &[u8]) -> Self {
        Value { raw: Raw::Text(bytes.to_vec()), meaning: None }
    }
    /// Opaque bytes labelled unknown.
    pub fn unknown_bytes(len: u64) -> Self {
        Value { raw: Raw::Bytes(len), meaning: Some(Meaning::Unknown) }
    }
    /// Opaque bytes (known purpose, not broken down further).
    pub fn bytes(len: u64) -> Self {
        Value { raw: Raw::Bytes(len), meaning: None }
    }
    /// A derived value shown as text.
    pub fn derived(s: impl Into<String>) -> Self {
        Value { raw: Raw::Derived(s.into()), meaning: None }
    }
    /// Attach an enumerated name.
    #[must_use]
    pub fn label(mut self, name: impl Into<String>) -> Self {
        self.meaning = Some(Meaning::Label(name.into()));
        self
    }
    /// Attach a reference target.
    #[must_use]
    pub fn refers(mut self, target: impl Into<String>) -> Self {
        self.meaning = Some(Meaning::Ref(target.into()));
        self
    }
    /// Attach a converted number with unit.
    #[must_use]
    pub fn number(mut self, value: f64, unit: impl Into<String>) -> Self {
        self.meaning = Some(Meaning::Number { value, unit: unit.into() });
        self
    }
    /// Attach flag names.
    #[must_use]
    pub fn flags(mut self, names: Vec<String>) -> Self {
        self.meaning = Some(Meaning::Flags(names));
        self
    }
    /// Mark as not understood.
    #[must_use]
    pub fn unknown(mut self) -> Self {
        self.meaning = Some(Meaning::Unknown);
        self
    }

    /// The raw integer, when the value is an integer of any kind.
    pub fn as_u64(&self) -> Option<u64> {
        match self.raw {
            Raw::U { v, .. } | Raw::Dec(v) | Raw::Bits { v, .. } => Some(v),
            Raw::I { v, .. } => u64::try_from(v).ok(),
            _ => None,
        }
    }
}

/// Escape a byte string: printable ASCII as is, everything else as `\xNN`.
pub fn escape_bytes(b: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let plain = |c: &u8| (0x20..0x7f).contains(c) && *c != b'\\' && *c != b'"';
    let mut s = String::with_capacity(b.len());
    let mut rest = b;
    // runs of printable ASCII copied whole (names are mostly one run), each other byte
    // written as `\xNN` without a formatter
    while !rest.is_empty() {
        let run = rest.iter().position(|c| !plain(c)).unwrap_or(rest.len());
        let (text, tail) = rest.split_at(run);
        s.push_str(std::str::from_utf8(text).unwrap_or_default());
        let Some((&c, after)) = tail.split_first() else { break };
        let hex = |n: u8| HEX.get(usize::from(n & 15)).map_or('0', |&h| char::from(h));
        s.push_str("\\x");
        s.push(hex(c >> 4));
        s.push(hex(c));
        rest = after;
    }
    s
}

/// Shortest decimal that reads back as the same f64, trimmed for display.
pub fn fmt_num(v: f64) -> String {
    let mut s = String::new();
    write_num(&mut s, v);
    s
}

/// [`fmt_num`] appended to `out` (no allocation of its own). A negative zero prints as
/// `0.0`: the sign of a zero is noise to a reader (the raw bits are shown beside it).
pub fn write_num(out: &mut String, v: f64) {
    use std::fmt::Write as _;
    let v = if v == 0.0 { 0.0 } else { v };
    let _ = if v.is_finite() && v == v.trunc() && v.abs() < 1e15 { write!(out, "{v:.1}") } else { write!(out, "{v}") };
}

/// `v` with `places` decimals, without a minus sign on a value that rounds to zero
/// (`-0.00004` at 4 places is `0.0000`, not `-0.0000`).
pub fn fmt_fixed(v: f64, places: usize) -> String {
    let mut s = String::new();
    write_fixed(&mut s, v, places);
    s
}

/// [`fmt_fixed`] appended to `out` (no allocation of its own).
pub fn write_fixed(out: &mut String, v: f64, places: usize) {
    use std::fmt::Write as _;
    let start = out.len();
    let _ = write!(out, "{v:.places$}");
    let negative_zero = out
        .get(start..)
        .and_then(|s| s.strip_prefix('-'))
        .is_some_and(|rest| rest.bytes().all(|c| c == b'0' || c == b'.'));
    if negative_zero {
        out.remove(start);
    }
}

impl fmt::Display for Raw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Raw::U { v, bytes } => write!(f, "0x{:0w$x}", v, w = usize::from(*bytes) * 2),
            Raw::I { v, .. } => write!(f, "{v}"),
            Raw::Dec(v) => write!(f, "{v}"),
            Raw::Bits { v, bits } => write!(f, "0b{:0w$b}", v, w = usize::from(*bits)),
            Raw::F16(b) => write!(f, "f16 0x{b:04x}"),
            Raw::F32(b) => write!(f, "{}", fmt_num(f64::from(f32::from_bits(*b)))),
            Raw::Text(t) => write!(f, "\"{}\"", escape_bytes(t)),
            Raw::Bytes(n) => write!(f, "{n} bytes"),
            Raw::Derived(s) => write!(f, "{s}"),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.raw)?;
        match &self.meaning {
            None => Ok(()),
            Some(Meaning::Label(s)) => write!(f, " {s}"),
            Some(Meaning::Ref(s)) => write!(f, " → {s}"),
            Some(Meaning::Number { value, unit }) => {
                if unit.is_empty() {
                    write!(f, " = {}", fmt_num(*value))
                } else {
                    write!(f, " = {} {unit}", fmt_num(*value))
                }
            }
            Some(Meaning::Flags(v)) if v.is_empty() => write!(f, " (none)"),
            Some(Meaning::Flags(v)) => write!(f, " {}", v.join("|")),
            Some(Meaning::Unknown) => write!(f, " unknown"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_show_raw_and_meaning() {
        assert_eq!(Value::uint(0x0300, 2).label("Texture").to_string(), "0x0300 Texture");
        assert_eq!(Value::dec(2).refers("TEX_xasc00").to_string(), "2 → TEX_xasc00");
        assert_eq!(Value::f16(0x3c00).to_string(), "f16 0x3c00 = 1.0");
        assert_eq!(Value::unknown_bytes(10).to_string(), "10 bytes unknown");
        assert_eq!(Value::text(b"a\x82\xa0").to_string(), "\"a\\x82\\xa0\"");
    }

    /// Printable ASCII other than a backslash and a double quote as is, every other byte as
    /// `\xNN` (lower-case hex): at the start, between and after runs.
    #[test]
    fn bytes_escape_outside_printable_ascii() {
        assert_eq!(escape_bytes(b""), "");
        assert_eq!(escape_bytes(b"TEX_xasc00"), "TEX_xasc00");
        assert_eq!(escape_bytes(b"\x1b[2J"), "\\x1b[2J");
        assert_eq!(escape_bytes(b"FBR_\x95`\x89\xe6"), "FBR_\\x95`\\x89\\xe6");
        assert_eq!(escape_bytes(b"a\\b\"c\x7f\x00 ~"), "a\\x5cb\\x22c\\x7f\\x00 ~");
    }

    /// A zero never prints with a minus sign: an exact negative zero (the f16 0x8000 and
    /// f32 0x80000000 bit patterns) or, at a fixed precision, a small negative value that
    /// rounds to zero. Values that do not round to zero keep their sign.
    #[test]
    fn zero_prints_without_a_minus_sign() {
        assert_eq!(fmt_num(-0.0), "0.0");
        assert_eq!(fmt_num(0.0), "0.0");
        assert_eq!(fmt_num(-0.5), "-0.5");
        assert_eq!(Value::f16(0x8000).to_string(), "f16 0x8000 = 0.0");
        assert_eq!(Value::f32(0x8000_0000).to_string(), "0.0");
        assert_eq!(fmt_fixed(-0.0, 4), "0.0000");
        assert_eq!(fmt_fixed(-0.00004, 4), "0.0000");
        assert_eq!(fmt_fixed(-0.0001, 4), "-0.0001");
        assert_eq!(fmt_fixed(-1.25, 4), "-1.2500");
        assert_eq!(fmt_fixed(-0.0000004, 6), "0.000000");
        assert_eq!(fmt_fixed(-0.4, 0), "0");
        assert_eq!(fmt_fixed(-0.6, 0), "-1");
        let mut out = String::from("x\t");
        write_fixed(&mut out, -0.0, 2);
        assert_eq!(out, "x\t0.00");
    }
}
