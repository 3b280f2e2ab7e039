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
    /// `{ 0x1f, 0x8b, 0x08 }` (copied as [`c_array`]: a declaration, 12 bytes a line).
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

/// Bytes per line of a C array (as `xxd -i` writes them).
const C_PER_LINE: usize = 12;

/// `name` made a C identifier as `xxd -i` makes one: other characters become `_`, a
/// leading digit gets `__` before it (and nothing at all is `_`).
pub fn c_identifier(name: &str) -> String {
    let id: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if id.starts_with(|c: char| c.is_ascii_digit()) {
        format!("__{id}")
    } else if id.is_empty() {
        "_".into()
    } else {
        id
    }
}

/// `data` as a C declaration the way `xxd -i` writes one: the array named after `name`,
/// 12 bytes a line, and its length.
pub fn c_array(name: &str, data: &[u8]) -> String {
    let id = c_identifier(name);
    let lines: Vec<String> = data
        .chunks(C_PER_LINE)
        .map(|row| format!("  {}", row.iter().map(|b| format!("0x{b:02x}")).collect::<Vec<_>>().join(", ")))
        .collect();
    let body = if lines.is_empty() { String::new() } else { format!("{}\n", lines.join(",\n")) };
    format!("unsigned char {id}[] = {{\n{body}}};\nunsigned int {id}_len = {};\n", data.len())
}

/// The OSC 52 sequence that puts `text` on the clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

/// What an OSC 52 copy may run into, from the environment: the terminal's name and
/// whether tmux sits in between. Nothing answers an OSC 52, so a copy can only be said to
/// be sent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reach {
    /// `TERM` (None when unset or empty).
    pub term: Option<String>,
    /// `TMUX` is set: tmux forwards the sequence only with `set-clipboard on`.
    pub tmux: bool,
}

impl Reach {
    /// Read from this process's environment.
    pub fn from_env() -> Reach {
        let term = std::env::var("TERM").ok().filter(|t| !t.is_empty());
        Reach { term, tmux: std::env::var_os("TMUX").is_some_and(|t| !t.is_empty()) }
    }

    /// Why the copy may not reach the clipboard, if there is a known reason: a console
    /// or dumb terminal (or none named) has no OSC 52; tmux needs `set-clipboard on`.
    pub fn doubt(&self) -> Option<String> {
        match self.term.as_deref() {
            None => Some("TERM is not set: it may not reach the clipboard".into()),
            Some(term @ ("linux" | "dumb")) => {
                Some(format!("TERM={term} has no OSC 52: it may not reach the clipboard"))
            }
            _ if self.tmux => {
                Some("under tmux it may not reach the clipboard (tmux passes it on only with set-clipboard on)".into())
            }
            _ => None,
        }
    }

    /// The status message for `what` (e.g. `4 bytes at 0x0 as hex`) sent with OSC 52.
    pub fn sent(&self, what: &str) -> String {
        let sent = format!("sent {what} to the terminal clipboard (OSC 52)");
        match self.doubt() {
            Some(d) => format!("{sent}; {d}"),
            None => sent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The copy message says what was sent, never "copied"; a reason it may not arrive is
    /// added for no TERM, the Linux console, a dumb terminal and tmux (a console without
    /// OSC 52 said before tmux, which would not help it).
    #[test]
    fn copy_messages_say_sent_and_when_it_may_not_arrive() {
        let reach = |term: Option<&str>, tmux: bool| Reach { term: term.map(String::from), tmux };
        let what = "4 bytes at 0x0 as hex";
        assert_eq!(
            reach(Some("xterm-256color"), false).sent(what),
            "sent 4 bytes at 0x0 as hex to the terminal clipboard (OSC 52)"
        );
        assert_eq!(
            reach(Some("tmux-256color"), true).sent(what),
            "sent 4 bytes at 0x0 as hex to the terminal clipboard (OSC 52); under tmux it may not reach the clipboard \
             (tmux passes it on only with set-clipboard on)"
        );
        assert_eq!(
            reach(Some("linux"), false).sent(what),
            "sent 4 bytes at 0x0 as hex to the terminal clipboard (OSC 52); TERM=linux has no OSC 52: it may not reach the clipboard"
        );
        assert_eq!(
            reach(Some("dumb"), true).sent(what),
            "sent 4 bytes at 0x0 as hex to the terminal clipboard (OSC 52); TERM=dumb has no OSC 52: it may not reach the clipboard"
        );
        assert_eq!(
            reach(None, false).sent(what),
            "sent 4 bytes at 0x0 as hex to the terminal clipboard (OSC 52); TERM is not set: it may not reach the clipboard"
        );
        assert_eq!(reach(Some("xterm"), false).doubt(), None);
        assert!(!reach(Some("screen"), true).sent(what).contains("copied"));
    }

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

    #[test]
    fn c_arrays_are_declared_twelve_bytes_a_line_like_xxd() {
        // what `xxd -i` prints for a 13-byte file named clip[0].data (and for 2d, and an
        // empty file)
        let data: Vec<u8> = (1..=13).collect();
        assert_eq!(
            c_array("clip[0].data", &data),
            "unsigned char clip_0__data[] = {\n  0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, \
             0x0c,\n  0x0d\n};\nunsigned int clip_0__data_len = 13;\n"
        );
        assert_eq!(c_array("2d", &[0xff]), "unsigned char __2d[] = {\n  0xff\n};\nunsigned int __2d_len = 1;\n");
        assert_eq!(c_array("", &[]), "unsigned char _[] = {\n};\nunsigned int __len = 0;\n");
    }
}
