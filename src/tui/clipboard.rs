//! Copy-as: bytes as hex, a C array or base64, sent to the terminal's clipboard with an
//! OSC 52 sequence (works over SSH in terminals that allow it).

use std::fmt;

/// Most bytes one copy takes (terminals cap OSC 52 payloads).
pub const MAX_COPY: u64 = 64 * 1024;

/// How to format copied bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum As {
    /// `1f 8b 08`.
    Hex,
    /// `{ 0x1f, 0x8b, 0x08 }`.
    CArray,
    /// `H4sI`.
    Base64,
}

impl fmt::Display for As {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            As::Hex => "hex",
            As::CArray => "C array",
            As::Base64 => "base64",
        })
    }
}

/// Standard base64 with padding.
pub fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(T[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Format bytes for the clipboard.
pub fn format(data: &[u8], how: As) -> String {
    match how {
        As::Hex => data.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" "),
        As::CArray => {
            let body: Vec<String> = data.iter().map(|b| format!("0x{b:02x}")).collect();
            format!("{{ {} }}", body.join(", "))
        }
        As::Base64 => base64(data),
    }
}

/// The OSC 52 sequence that puts `text` on the clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (i, o) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("foobar", "Zm9vYmFy")]
        {
            assert_eq!(base64(i.as_bytes()), o);
        }
    }

    #[test]
    fn formats() {
        assert_eq!(format(&[0x1f, 0x8b], As::Hex), "1f 8b");
        assert_eq!(format(&[0x1f, 0x8b], As::CArray), "{ 0x1f, 0x8b }");
        assert_eq!(osc52("hi"), "\x1b]52;c;aGk=\x07");
    }
}
