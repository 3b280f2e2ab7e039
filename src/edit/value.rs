//! A typed value typed by a user, encoded into a field's bytes: the field's stored type
//! ([`Raw`]) says how (integer width and sign, half or single float, bit field, fixed-size
//! text), its meaning says in which unit a number is given (a fixed-point or angle field
//! takes the value it shows, `raw:N` the stored integer) and which names it knows (enum
//! labels, flag names). The byte order is the one that reads the stored bytes back as the
//! shown value (every format here is little-endian; a field whose bytes read back in
//! neither order is not edited).
//!
//! Unknown: a field's full list of enum names is not in the document; the names offered
//! are those the document shows for fields of the same name (the error lists them), and a
//! number is always accepted.

use crate::model::{Field, Meaning, Raw, Value, fmt_num};

/// What a field's bytes become, and what they must read back as.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// The new bytes of the field's byte span.
    pub bytes: Vec<u8>,
    /// The stored value they hold.
    pub raw: Raw,
    /// For a value given in the field's unit: the value asked for and the largest
    /// distance the stored value may read back at (half a step of the encoding).
    pub shown: Option<(f64, f64)>,
}

/// What encoding may ask the format: the field's value when its stored number is `raw`
/// (the document re-read with it), to learn a scale or flag names.
pub type Probe<'a> = dyn FnMut(u64) -> Option<Value> + 'a;

/// Byte order of a field's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Little,
    Big,
}

fn read_uint(b: &[u8], order: Order) -> u64 {
    let mut v = 0u64;
    let mut push = |c: &u8| v = (v << 8) | u64::from(*c);
    match order {
        Order::Little => b.iter().rev().for_each(&mut push),
        Order::Big => b.iter().for_each(&mut push),
    }
    v
}

fn write_uint(v: u64, width: usize, order: Order) -> Vec<u8> {
    let le = v.to_le_bytes();
    let mut out: Vec<u8> = le.iter().copied().take(width).collect();
    if order == Order::Big {
        out.reverse();
    }
    out
}

/// The order in which `bytes` read as `stored` (little first when both do).
fn order_of(bytes: &[u8], stored: u64) -> Option<Order> {
    let mask = if bytes.len() >= 8 { u64::MAX } else { (1u64 << (8 * bytes.len())) - 1 };
    [Order::Little, Order::Big].into_iter().find(|o| read_uint(bytes, *o) == stored & mask)
}

/// The bytes of a field now `current` (holding `stored`) holding `raw` instead, in the
/// same width and byte order; None when the bytes read back as neither order.
pub fn raw_bytes(current: &[u8], stored: u64, raw: u64) -> Option<Vec<u8>> {
    Some(write_uint(raw, current.len(), order_of(current, stored)?))
}

/// Parse an integer: decimal, `0x` hex, `0b` binary, with an optional minus sign and `_`.
pub fn parse_int(s: &str) -> Option<i128> {
    let t = s.trim().replace('_', "");
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r.to_string()),
        None => (false, t),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = t.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else {
        t.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Parse a finite number (NaN and infinities are refused by name).
fn parse_float(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("{s:?} is not a number"))?;
    if v.is_nan() {
        return Err("NaN is not allowed".into());
    }
    if v.is_infinite() {
        return Err("an infinite value is not allowed".into());
    }
    Ok(v)
}

/// Units a value may be typed in instead of the unit a field shows: (shown, typed, shown
/// per typed).
const CONVERSIONS: [(&str, &str, f64); 6] = [
    ("turns", "deg", 1.0 / 360.0),
    ("turns", "°", 1.0 / 360.0),
    ("turns/s", "deg/s", 1.0 / 360.0),
    ("turns/s", "°/s", 1.0 / 360.0),
    ("deg", "turns", 360.0),
    ("deg", "°", 1.0),
];

/// Parse a number given in `unit` (the suffix optional) or in a unit [`CONVERSIONS`]
/// converts from (`90deg` for a field in turns), as a number in `unit`.
pub fn parse_in_unit(text: &str, unit: &str) -> Result<f64, String> {
    let t = text.trim();
    for (shown, typed, factor) in CONVERSIONS {
        if shown == unit
            && let Some(n) = t.strip_suffix(typed)
        {
            return Ok(parse_float(n)? * factor);
        }
    }
    parse_float(t.strip_suffix(unit).unwrap_or(t))
}

/// What a half float `bits` showing `value` is scaled by: the ratio, or for a zero half what
/// the field shows when it holds 1.0 (asked of the format); 1 when neither tells.
fn half_scale(bits: u16, value: f64, probe: &mut Probe<'_>) -> f64 {
    let h = f64::from(half::f16::from_bits(bits).to_f32());
    let scale = if h != 0.0 && h.is_finite() {
        value / h
    } else {
        match probe(0x3c00).and_then(|v| v.meaning) {
            Some(Meaning::Number { value, .. }) => value,
            _ => 1.0,
        }
    };
    if scale.is_finite() && scale != 0.0 { scale } else { 1.0 }
}

/// The range of a `width`-byte integer.
fn int_range(width: usize, signed: bool) -> (i128, i128) {
    let bits = 8 * width.min(8) as u32;
    if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) }
}

fn in_range(v: i128, (lo, hi): (i128, i128), what: &str) -> Result<i128, String> {
    if v < lo || v > hi { Err(format!("{v} is out of range for {what} ({lo}..={hi})")) } else { Ok(v) }
}

/// Encode `text` for `field`, whose bytes are now `current` (its byte span). `names` are
/// the enum names known for the field (name, stored value); `probe` re-reads the field
/// with another stored number.
pub fn encode(
    field: &Field,
    current: &[u8],
    text: &str,
    names: &[(String, u64)],
    probe: &mut Probe<'_>,
) -> Result<Encoded, String> {
    let width = current.len();
    if let Some(bits) = field.bits {
        return encode_bits(field, bits, current, text);
    }
    let raw_text = text.strip_prefix("raw:");
    match &field.value.raw {
        Raw::F16(bits) => {
            if let Some(r) = raw_text {
                return encode_int(current, u64::from(*bits), r, false, |v| Raw::F16(v as u16));
            }
            // a half shown in a unit takes the value in that unit (or one it converts from),
            // divided by the half's scale (1 when it shows its own value)
            let (v, scale) = match &field.value.meaning {
                Some(Meaning::Number { value, unit }) => (parse_in_unit(text, unit)?, half_scale(*bits, *value, probe)),
                _ => (parse_float(text)?, 1.0),
            };
            let h = half::f16::from_f64(v / scale);
            if !h.is_finite() {
                return Err(format!("{} is out of range for a half float (±65504)", fmt_num(v)));
            }
            let order = order_of(current, u64::from(*bits)).ok_or_else(unreadable)?;
            Ok(Encoded { bytes: write_uint(u64::from(h.to_bits()), 2, order), raw: Raw::F16(h.to_bits()), shown: None })
        }
        Raw::F32(bits) => {
            if let Some(r) = raw_text {
                return encode_int(current, u64::from(*bits), r, false, |v| Raw::F32(v as u32));
            }
            let v = parse_float(text)?;
            let f = v as f32;
            if !f.is_finite() {
                return Err(format!("{} is out of range for a single float", fmt_num(v)));
            }
            let order = order_of(current, u64::from(*bits)).ok_or_else(unreadable)?;
            Ok(Encoded { bytes: write_uint(u64::from(f.to_bits()), 4, order), raw: Raw::F32(f.to_bits()), shown: None })
        }
        Raw::U { v, .. } | Raw::Dec(v) => {
            let stored = *v;
            let mk = |x: u64| match field.value.raw {
                Raw::Dec(_) => Raw::Dec(x),
                _ => Raw::U { v: x, bytes: width as u8 },
            };
            encode_integer(field, &Stored { current, stored, signed: false, mk: &mk }, text, names, probe)
        }
        Raw::I { v, .. } => {
            let stored = *v as u64;
            let mk = |x: u64| Raw::I { v: sign_extend(x, width), bytes: width as u8 };
            encode_integer(field, &Stored { current, stored, signed: true, mk: &mk }, text, names, probe)
        }
        Raw::Text(_) => {
            let t = text.as_bytes();
            // a NUL-terminated string keeps its terminator
            let room = if current.last() == Some(&0) { width.saturating_sub(1) } else { width };
            if t.len() > room || t.contains(&0) {
                return Err(format!("{text:?} does not fit the field's {room} bytes"));
            }
            let mut bytes = t.to_vec();
            bytes.resize(width, 0);
            let shown: Vec<u8> = bytes.split(|c| *c == 0).next().unwrap_or_default().to_vec();
            Ok(Encoded { bytes, raw: Raw::Text(shown), shown: None })
        }
        _ if current.is_empty() => Err("stores no bytes, so there is nothing to change".to_string()),
        Raw::Bytes(_) | Raw::Derived(_) => {
            Err("holds no single stored value; change its bytes with --byte OFFSET=HEX".to_string())
        }
        Raw::Bits { .. } => Err("is a bit field without a bit span; change its bytes with --byte".to_string()),
    }
}

fn unreadable() -> String {
    "its bytes do not read back as its value in either byte order; not edited (use --byte)".to_string()
}

fn sign_extend(x: u64, width: usize) -> i64 {
    let shift = 64 - 8 * width.min(8) as u32;
    ((x << shift) as i64) >> shift
}

/// `raw:N` of a field stored as `stored`: the integer, in the stored width.
fn encode_int(
    current: &[u8],
    stored: u64,
    text: &str,
    signed: bool,
    mk: impl Fn(u64) -> Raw,
) -> Result<Encoded, String> {
    let width = current.len();
    let v = parse_int(text).ok_or_else(|| format!("{text:?} is not an integer"))?;
    let v = in_range(
        v,
        int_range(width, signed),
        &format!("a {}-byte {}integer", width, if signed { "signed " } else { "" }),
    )?;
    let order = order_of(current, stored).ok_or_else(unreadable)?;
    let bits = v as u64 & if width >= 8 { u64::MAX } else { (1u64 << (8 * width)) - 1 };
    Ok(Encoded { bytes: write_uint(bits, width, order), raw: mk(bits), shown: None })
}

/// An integer field as stored: its bytes, the number they hold, its sign, and how its
/// stored value is made from a new number.
struct Stored<'a> {
    current: &'a [u8],
    stored: u64,
    signed: bool,
    mk: &'a dyn Fn(u64) -> Raw,
}

/// An integer field: a number in its unit (fixed point, angle), an enum name, flag names,
/// or the integer.
fn encode_integer(
    field: &Field,
    st: &Stored<'_>,
    text: &str,
    names: &[(String, u64)],
    probe: &mut Probe<'_>,
) -> Result<Encoded, String> {
    let Stored { current, stored, signed, mk } = *st;
    if let Some(r) = text.strip_prefix("raw:") {
        return encode_int(current, stored, r, signed, mk);
    }
    let width = current.len();
    match &field.value.meaning {
        Some(Meaning::Number { value, unit }) => {
            let want = parse_in_unit(text, unit)?;
            let stored_signed = if signed { sign_extend(stored, width) as f64 } else { stored as f64 };
            let scale = if stored_signed != 0.0 {
                value / stored_signed
            } else {
                match probe(1).and_then(|v| v.meaning) {
                    Some(Meaning::Number { value, .. }) => value,
                    _ => return Err("its scale is unknown (the stored value is 0); give raw:N".into()),
                }
            };
            if scale == 0.0 || !scale.is_finite() {
                return Err("its scale is unknown; give raw:N".into());
            }
            let n = (want / scale).round();
            let (lo, hi) = int_range(width, signed);
            if n < lo as f64 || n > hi as f64 {
                return Err(format!(
                    "{} {unit} is out of range ({} to {} {unit})",
                    fmt_num(want),
                    fmt_num(lo as f64 * scale),
                    fmt_num(hi as f64 * scale)
                ));
            }
            let mut e = encode_int(current, stored, &format!("{}", n as i128), signed, mk)?;
            e.shown = Some((want, scale.abs() / 2.0 + f64::EPSILON * want.abs()));
            Ok(e)
        }
        Some(Meaning::Flags(_)) if parse_int(text).is_none() => {
            let mut v = 0u64;
            let mut known: Vec<(String, u64)> = Vec::new();
            for bit in 0..(8 * width.min(4)) {
                if let Some(Meaning::Flags(n)) = probe(1 << bit).and_then(|v| v.meaning)
                    && let [one] = n.as_slice()
                {
                    known.push((one.clone(), 1 << bit));
                }
            }
            for name in text.split(['|', ',']).map(str::trim).filter(|n| !n.is_empty() && *n != "none") {
                let bit = known.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|k| k.1).ok_or_else(|| {
                    let all: Vec<&str> = known.iter().map(|k| k.0.as_str()).collect();
                    format!("no flag named {name:?} (flags: {})", all.join(", "))
                })?;
                v |= bit;
            }
            encode_int(current, stored, &v.to_string(), false, mk)
        }
        Some(Meaning::Label(_)) if parse_int(text).is_none() => {
            let hit = names.iter().find(|(n, _)| n.eq_ignore_ascii_case(text.trim()));
            match hit {
                Some((_, v)) => encode_int(current, stored, &v.to_string(), signed, mk),
                None => {
                    let all: Vec<&str> = names.iter().map(|k| k.0.as_str()).collect();
                    Err(format!(
                        "unknown name {text:?} (names this file shows for the field: {}; or give a number)",
                        if all.is_empty() { "none".to_string() } else { all.join(", ") }
                    ))
                }
            }
        }
        _ => encode_int(current, stored, text, signed, mk),
    }
}

/// A bit field: the value's bits laid into the bytes they touch (least significant bit
/// first within little-endian bytes, or most significant first: whichever reads the stored
/// value back).
fn encode_bits(field: &Field, bits: crate::model::BitSpan, current: &[u8], text: &str) -> Result<Encoded, String> {
    let Some(stored) = field.value.as_u64() else {
        return Err("is not an integer bit field; change its bytes with --byte".into());
    };
    let n = bits.bits.min(64);
    let v =
        parse_int(text.strip_prefix("raw:").unwrap_or(text)).ok_or_else(|| format!("{text:?} is not an integer"))?;
    let hi = if n >= 64 { i128::from(u64::MAX) } else { (1i128 << n) - 1 };
    let v = in_range(v, (0, hi), &format!("a {n}-bit field"))? as u64;
    let first = bits.start_bit % 8;
    let get = |b: &[u8], i: u64, msb: bool| {
        let at = first + i;
        let byte = b.get(usize::try_from(at / 8).unwrap_or(usize::MAX)).copied().unwrap_or(0);
        if msb { (byte >> (7 - at % 8)) & 1 } else { (byte >> (at % 8)) & 1 }
    };
    let read = |b: &[u8], msb: bool| {
        (0..u64::from(n)).fold(0u64, |acc, i| {
            let bit = u64::from(get(b, i, msb));
            if msb { (acc << 1) | bit } else { acc | (bit << i) }
        })
    };
    let msb = match (read(current, false) == stored, read(current, true) == stored) {
        (true, _) => false,
        (false, true) => true,
        _ => return Err(unreadable()),
    };
    let mut out = current.to_vec();
    for i in 0..u64::from(n) {
        let bit = if msb { (v >> (u64::from(n) - 1 - i)) & 1 } else { (v >> i) & 1 };
        let at = first + i;
        let mask = if msb { 1u8 << (7 - at % 8) } else { 1u8 << (at % 8) };
        if let Some(byte) = out.get_mut(usize::try_from(at / 8).unwrap_or(usize::MAX)) {
            *byte = if bit == 1 { *byte | mask } else { *byte & !mask };
        }
    }
    let raw = match field.value.raw {
        Raw::Dec(_) => Raw::Dec(v),
        Raw::U { bytes, .. } => Raw::U { v, bytes },
        _ => Raw::Bits { v, bits: n as u8 },
    };
    Ok(Encoded { bytes: out, raw, shown: None })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::{BitSpan, Span};

    fn no_probe() -> impl FnMut(u64) -> Option<Value> {
        |_| None
    }

    fn enc(f: &Field, cur: &[u8], t: &str) -> Result<Encoded, String> {
        encode(f, cur, t, &[], &mut no_probe())
    }

    /// Widths, signs and byte orders, each expected value written out by hand.
    #[test]
    fn integers_encode_in_their_width_and_order() {
        let f = Field::new("n", Span::new(0, 2), Value::uint(0x0102, 2));
        assert_eq!(enc(&f, &[0x02, 0x01], "0x1234").unwrap().bytes, [0x34, 0x12]);
        // the same value stored big-endian is written big-endian
        assert_eq!(enc(&f, &[0x01, 0x02], "0x1234").unwrap().bytes, [0x12, 0x34]);
        assert!(enc(&f, &[0x02, 0x01], "65536").unwrap_err().contains("out of range"));
        assert!(enc(&f, &[0x02, 0x01], "-1").unwrap_err().contains("out of range"));
        let s = Field::new("s", Span::new(0, 2), Value::int(-2, 2));
        assert_eq!(enc(&s, &[0xfe, 0xff], "-32768").unwrap().bytes, [0x00, 0x80]);
        assert!(enc(&s, &[0xfe, 0xff], "32768").is_err());
        let d = Field::new("d", Span::new(0, 4), Value::dec(7));
        assert_eq!(enc(&d, &[7, 0, 0, 0], "300").unwrap().bytes, [0x2c, 0x01, 0, 0]);
        // bytes that read back as neither order are not edited
        assert!(enc(&d, &[8, 0, 0, 0], "300").is_err());
    }

    #[test]
    fn floats_refuse_nan_infinity_and_overflow() {
        let h = Field::new("h", Span::new(0, 2), Value::f16(0x3c00));
        // 0.5 is f16 0x3800 (sign 0, exponent 14, mantissa 0)
        assert_eq!(enc(&h, &[0x00, 0x3c], "0.5").unwrap().bytes, [0x00, 0x38]);
        assert!(enc(&h, &[0x00, 0x3c], "NaN").unwrap_err().contains("NaN"));
        assert!(enc(&h, &[0x00, 0x3c], "inf").unwrap_err().contains("infinite"));
        assert!(enc(&h, &[0x00, 0x3c], "70000").unwrap_err().contains("out of range"));
        assert_eq!(enc(&h, &[0x00, 0x3c], "raw:0x7c00").unwrap().bytes, [0x00, 0x7c]);
        let f = Field::new("f", Span::new(0, 4), Value::f32(0x3f80_0000));
        // -2.0 is f32 0xc0000000
        assert_eq!(enc(&f, &[0, 0, 0x80, 0x3f], "-2").unwrap().bytes, [0, 0, 0, 0xc0]);
        assert!(enc(&f, &[0, 0, 0x80, 0x3f], "1e39").unwrap_err().contains("out of range"));
    }

    /// A half shown in turns takes turns (the suffix optional) or degrees, rounded to the
    /// nearest half: 0.25 turn = 2⁻² is 0x3400; 90° is the same quarter turn; 1° = 1/360
    /// turn = 1.4222…b × 2⁻⁹ → exponent 6 (0x1800), mantissa round(0.4222… × 1024) = 432 =
    /// 0x1b0: 0x19b0. A field with no stored bytes is refused.
    #[test]
    fn halves_in_a_unit_take_it_or_degrees() {
        let t = Field::new("key[1]", Span::new(0, 2), Value::f16(0x3800).number(0.5, "turns"));
        assert_eq!(enc(&t, &[0x00, 0x38], "0.25").unwrap().bytes, [0x00, 0x34]);
        assert_eq!(enc(&t, &[0x00, 0x38], "0.25turns").unwrap().bytes, [0x00, 0x34]);
        assert_eq!(enc(&t, &[0x00, 0x38], "90deg").unwrap().bytes, [0x00, 0x34]);
        assert_eq!(enc(&t, &[0x00, 0x38], "-90°").unwrap().bytes, [0x00, 0xb4]);
        assert_eq!(enc(&t, &[0x00, 0x38], "1deg").unwrap().bytes, [0xb0, 0x19]);
        assert!(enc(&t, &[0x00, 0x38], "NaNdeg").unwrap_err().contains("NaN"));
        let none = Field::new("key[0]", Span::new(0, 0), Value::derived("nothing stored"));
        assert!(enc(&none, &[], "1").unwrap_err().contains("stores no bytes"));
    }

    /// A fixed-point or angle field takes the value in its unit, scaled by what it shows.
    #[test]
    fn numbers_in_a_unit_are_scaled() {
        // an angle of 0x4000 units = 90 degrees (65536 units a turn): 45 degrees is 0x2000
        let a = Field::new("rx", Span::new(0, 2), Value::int(0x4000, 2).number(90.0, "deg"));
        let e = enc(&a, &[0x00, 0x40], "45").unwrap();
        assert_eq!(e.bytes, [0x00, 0x20]);
        assert_eq!(enc(&a, &[0x00, 0x40], "-45deg").unwrap().bytes, [0x00, 0xe0]);
        assert!(enc(&a, &[0x00, 0x40], "200").unwrap_err().contains("out of range"));
        // stored 0: the scale is asked of the format (8.8 fixed point: 1 is 1/256)
        let z = Field::new("z", Span::new(0, 2), Value::int(0, 2).number(0.0, ""));
        let mut probe = |r: u64| Some(Value::int(r as i64, 2).number(r as f64 / 256.0, ""));
        assert_eq!(encode(&z, &[0, 0], "1.5", &[], &mut probe).unwrap().bytes, [0x80, 0x01]);
        assert!(enc(&z, &[0, 0], "1.5").unwrap_err().contains("raw:N"));
    }

    #[test]
    fn names_flags_text_and_bits() {
        let k = Field::new("kind", Span::new(0, 1), Value::uint(1, 1).label("A"));
        let names = [("A".to_string(), 1), ("B".to_string(), 7)];
        assert_eq!(encode(&k, &[1], "b", &names, &mut no_probe()).unwrap().bytes, [7]);
        assert!(encode(&k, &[1], "C", &names, &mut no_probe()).unwrap_err().contains("A, B"));
        let fl = Field::new("flg", Span::new(0, 1), Value::uint(8, 1).flags(vec!["FNAME".into()]));
        let mut probe = |r: u64| {
            let n = match r {
                1 => "FTEXT",
                8 => "FNAME",
                _ => "other",
            };
            Some(Value::uint(r, 1).flags(vec![n.to_string()]))
        };
        assert_eq!(encode(&fl, &[8], "FTEXT|FNAME", &[], &mut probe).unwrap().bytes, [9]);
        assert!(encode(&fl, &[8], "FHCRC", &[], &mut probe).is_err());
        let t = Field::new("name", Span::new(0, 8), Value::text(b"AB"));
        assert_eq!(enc(&t, b"AB\0\0\0\0\0\0", "XYZ").unwrap().bytes, *b"XYZ\0\0\0\0\0");
        assert!(enc(&t, b"AB\0\0\0\0\0\0", "TOOLONGNAME").is_err());
        // bits 4..10 of two bytes, least significant first: value 0b101010 = 42
        let b = Field::bits("q", BitSpan { start_bit: 4, bits: 6 }, Value::bits(0, 6));
        assert_eq!(enc(&b, &[0x0f, 0xf0], "42").unwrap().bytes, [0xaf, 0xf2]);
        assert!(enc(&b, &[0x0f, 0xf0], "64").is_err());
    }
}
