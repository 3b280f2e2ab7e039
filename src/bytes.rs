//! A checked view over untrusted bytes. Every read returns `Result` and names its absolute
//! offset on failure; counts are checked against the bytes left before anything is allocated.

use crate::error::{ErrorKind, ParseError, Result};

/// A window of bytes addressed by **absolute** offsets (offsets in the whole buffer the
/// window was cut from), so errors and spans never need rebasing.
///
/// ```
/// use animscope::bytes::Bytes;
/// let data = [0x01, 0x00, 0xcc, 0xcc, 0x39, 0x20];
/// let b = Bytes::new(&data);
/// assert_eq!(b.u16_le(0).unwrap(), 1);
/// let tail = b.sub(2, 6).unwrap();
/// assert_eq!(tail.u16_le(4).unwrap(), 0x2039); // still absolute offset 4
/// let err = tail.u32_le(4).unwrap_err();       // 4 bytes at 4 pass the end
/// assert_eq!(err.to_string(), "read of 4 bytes at 0x4 passes the end (0x6 bytes) at 0x4");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Bytes<'a> {
    data: &'a [u8],
    base: u64,
}

macro_rules! read_int {
    ($name:ident, $ty:ty, $conv:ident, $doc:literal) => {
        #[doc = $doc]
        pub fn $name(&self, offset: u64) -> Result<$ty> {
            let s = self.slice(offset, std::mem::size_of::<$ty>() as u64)?;
            let mut a = [0u8; std::mem::size_of::<$ty>()];
            a.copy_from_slice(s);
            Ok(<$ty>::$conv(a))
        }
    };
}

impl<'a> Bytes<'a> {
    /// A view of the whole buffer; offset 0 is `data[0]`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, base: 0 }
    }

    /// A view of `data` whose first byte is at absolute offset `base` (a piece of a larger
    /// input read into memory on its own).
    pub fn with_base(data: &'a [u8], base: u64) -> Self {
        Bytes { data, base }
    }

    /// The underlying slice of this window.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Absolute offset of the window's first byte.
    pub fn start(&self) -> u64 {
        self.base
    }

    /// Absolute offset one past the window's last byte.
    pub fn end(&self) -> u64 {
        self.base + self.data.len() as u64
    }

    /// Bytes in the window.
    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }

    /// True when the window holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    fn oob(&self, offset: u64, len: u64) -> ParseError {
        ParseError::new(offset, ErrorKind::OutOfBounds { offset, len, available: self.end() })
    }

    /// `len` bytes at absolute `offset`, or `OutOfBounds`.
    pub fn slice(&self, offset: u64, len: u64) -> Result<&'a [u8]> {
        let rel = offset.checked_sub(self.base).ok_or_else(|| self.oob(offset, len))?;
        let end = rel.checked_add(len).ok_or_else(|| self.oob(offset, len))?;
        let (rel, end) = (
            usize::try_from(rel).map_err(|_| self.oob(offset, len))?,
            usize::try_from(end).map_err(|_| self.oob(offset, len))?,
        );
        self.data.get(rel..end).ok_or_else(|| self.oob(offset, len))
    }

    /// A sub-window `start..end` (absolute), or `OutOfBounds`.
    pub fn sub(&self, start: u64, end: u64) -> Result<Bytes<'a>> {
        let len = end.checked_sub(start).ok_or_else(|| self.oob(start, 0))?;
        Ok(Bytes { data: self.slice(start, len)?, base: start })
    }

    /// Bytes from absolute `offset` to the window's end.
    pub fn remaining_from(&self, offset: u64) -> u64 {
        self.end().saturating_sub(offset)
    }

    read_int!(u8, u8, from_le_bytes, "A byte at `offset`.");
    read_int!(i8, i8, from_le_bytes, "A signed byte at `offset`.");
    read_int!(u16_le, u16, from_le_bytes, "Little-endian u16 at `offset`.");
    read_int!(i16_le, i16, from_le_bytes, "Little-endian i16 at `offset`.");
    read_int!(u32_le, u32, from_le_bytes, "Little-endian u32 at `offset`.");
    read_int!(i32_le, i32, from_le_bytes, "Little-endian i32 at `offset`.");
    read_int!(u64_le, u64, from_le_bytes, "Little-endian u64 at `offset`.");
    read_int!(f32_le, f32, from_le_bytes, "Little-endian f32 at `offset`.");
    read_int!(u16_be, u16, from_be_bytes, "Big-endian u16 at `offset`.");
    read_int!(u32_be, u32, from_be_bytes, "Big-endian u32 at `offset`.");

    /// Check that `count` items of `elem_size` bytes fit between `offset` and the window's
    /// end and that `count <= max`; returns the count as `usize` for allocation. Call this
    /// before `Vec::with_capacity` on any count read from a file.
    pub fn check_count(&self, what: &'static str, offset: u64, count: u64, elem_size: u64, max: u64) -> Result<usize> {
        let fit = self.remaining_from(offset).checked_div(elem_size).unwrap_or(u64::MAX);
        let cap = fit.min(max);
        if count > cap {
            return Err(ParseError::new(offset, ErrorKind::CountTooLarge { what, count, max: cap }));
        }
        usize::try_from(count).map_err(|_| ParseError::new(offset, ErrorKind::CountTooLarge { what, count, max: cap }))
    }

    /// A NUL-terminated byte string starting at `offset` (at most `max` bytes searched);
    /// returns the bytes without the NUL. Missing terminator is an error.
    pub fn cstr(&self, offset: u64, max: u64) -> Result<&'a [u8]> {
        let avail = self.remaining_from(offset).min(max);
        let s = self.slice(offset, avail)?;
        match memchr::memchr(0, s) {
            Some(n) => s.get(..n).ok_or_else(|| self.oob(offset, n as u64)),
            None => Err(ParseError::new(
                offset,
                ErrorKind::Other(format!("string at 0x{offset:x} has no terminator within {avail} bytes")),
            )),
        }
    }
}

/// A cursor over a [`Bytes`] window; each read advances it.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    bytes: Bytes<'a>,
    pos: u64,
}

macro_rules! cursor_int {
    ($name:ident, $ty:ty) => {
        #[doc = concat!("Read a `", stringify!($ty), "` and advance.")]
        pub fn $name(&mut self) -> Result<$ty> {
            let v = self.bytes.$name(self.pos)?;
            self.pos += std::mem::size_of::<$ty>() as u64;
            Ok(v)
        }
    };
}

impl<'a> Reader<'a> {
    /// A cursor at absolute `pos` in `bytes`.
    pub fn new(bytes: Bytes<'a>, pos: u64) -> Self {
        Reader { bytes, pos }
    }

    /// Current absolute offset.
    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// Move to absolute `pos` (checked on the next read).
    pub fn seek(&mut self, pos: u64) {
        self.pos = pos;
    }

    /// The window this cursor reads.
    pub fn bytes(&self) -> Bytes<'a> {
        self.bytes
    }

    /// Take `len` bytes and advance.
    pub fn take(&mut self, len: u64) -> Result<&'a [u8]> {
        let s = self.bytes.slice(self.pos, len)?;
        self.pos += len;
        Ok(s)
    }

    cursor_int!(u8, u8);
    cursor_int!(i8, i8);
    cursor_int!(u16_le, u16);
    cursor_int!(i16_le, i16);
    cursor_int!(u32_le, u32);
    cursor_int!(i32_le, i32);
    cursor_int!(u64_le, u64);
    cursor_int!(f32_le, f32);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_checked_and_absolute() {
        let data = [0x01, 0x02, 0x03, 0x04, 0x05];
        let b = Bytes::new(&data);
        assert_eq!(b.u16_le(0).ok(), Some(0x0201));
        assert_eq!(b.u32_be(1).ok(), Some(0x0203_0405));
        let sub = b.sub(2, 5).ok();
        let sub = sub.as_ref();
        assert_eq!(sub.and_then(|s| s.u8(2).ok()), Some(3));
        // offset 1 lies before the sub-window: an error, not a panic
        assert!(sub.map(|s| s.u8(1).is_err()).unwrap_or(false));
        let err = b.u32_le(3).err().map(|e| e.kind);
        assert_eq!(err, Some(ErrorKind::OutOfBounds { offset: 3, len: 4, available: 5 }));
        assert!(b.slice(u64::MAX, 2).is_err());
    }

    #[test]
    fn count_guard_uses_remaining_bytes() {
        let data = [0u8; 16];
        let b = Bytes::new(&data);
        assert_eq!(b.check_count("x", 8, 2, 4, 100).ok(), Some(2));
        assert!(b.check_count("x", 8, 3, 4, 100).is_err());
        assert!(b.check_count("x", 0, 5, 1, 4).is_err());
    }

    #[test]
    fn cstr_needs_terminator() {
        let b = Bytes::new(b"ab\0cd");
        assert_eq!(b.cstr(0, 10).ok(), Some(&b"ab"[..]));
        assert!(b.cstr(3, 10).is_err());
    }
}
