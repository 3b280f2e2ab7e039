use std::fmt;

/// A half-open byte range `start..end` in absolute offsets of the bytes it lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
}

impl Span {
    /// `start..end`; an inverted range is clamped to empty at `start`.
    pub fn new(start: u64, end: u64) -> Self {
        Span { start, end: end.max(start) }
    }

    /// `start..start+len` (saturating).
    pub fn at(start: u64, len: u64) -> Self {
        Span { start, end: start.saturating_add(len) }
    }

    /// Length in bytes.
    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    /// True when the span holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }

    /// True when `offset` lies inside.
    pub fn contains(&self, offset: u64) -> bool {
        self.start <= offset && offset < self.end
    }

    /// True when `other` lies entirely inside (an empty span at an edge counts as inside).
    pub fn covers(&self, other: &Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// True when the two spans share at least one byte (an empty span shares none).
    pub fn overlaps(&self, other: &Span) -> bool {
        !self.is_empty() && !other.is_empty() && self.start < other.end && other.start < self.end
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:x}..0x{:x}", self.start, self.end)
    }
}

/// A range of bits for bit-granular fields (Huffman code lengths, symbols): absolute bit
/// offset from the start of the bytes (`byte * 8 + bit`, bit 0 = the first bit the format
/// reads from that byte) and a length in bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitSpan {
    /// Absolute bit offset of the first bit.
    pub start_bit: u64,
    /// Number of bits.
    pub bits: u32,
}

impl BitSpan {
    /// The bytes these bits touch.
    pub fn byte_span(&self) -> Span {
        let end_bit = self.start_bit + u64::from(self.bits);
        Span::new(self.start_bit / 8, end_bit.div_ceil(8).max(self.start_bit / 8 + 1))
    }
}

impl fmt::Display for BitSpan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:x}.{} +{}b", self.start_bit / 8, self.start_bit % 8, self.bits)
    }
}
