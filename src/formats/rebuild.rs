//! Write-back through containers: a container format that can put a changed member back
//! answers [`super::Parsed::rebuild`] with a [`Rebuild`], which gives the container's new
//! bytes as a [`Spliced`] list (ranges kept from the original, new bytes between them), so
//! a multi-gigabyte archive is not copied into memory to change one member. Only the new
//! bytes are held; they are charged to the memory budget (`Limits::max_memory`).
//!
//! Nested containers rebuild from the inside out: the innermost member's new bytes go to
//! its container, whose new bytes (made whole, [`Spliced::to_vec`]) go to the container
//! holding it, and so on up to the file.
//!
//! Unknown: tables a game keeps outside a container (a loader's own list of member
//! offsets) are not seen and not updated; a rebuild that moves members says so in its
//! notes.

use crate::error::{ErrorKind, ParseError, Result};
use crate::limits::Limits;
use crate::model::{NodeId, Span};
use crate::source::Source;

/// How a container may change to take a member's new bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RebuildOptions {
    /// A member that no longer fits its extent may grow it, moving the members after it
    /// (sector-gzip archives: refused without it).
    pub grow: bool,
}

/// One piece of a rebuilt container, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// The original bytes of this span.
    Keep(Span),
    /// New bytes.
    New(Vec<u8>),
}

/// A container's new bytes as pieces, and what the rebuild wants the user to know (members
/// moved, tables elsewhere not updated).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spliced {
    /// The pieces, in file order.
    pub pieces: Vec<Piece>,
    /// Notes for the user, one line each.
    pub notes: Vec<String>,
}

impl Spliced {
    /// The original bytes `0..len` with `replaced` standing in for the span `replace`, and
    /// each patch `(at, bytes)` (same length, original offsets outside `replace`) laid
    /// over the kept bytes. Patches that overlap each other or the replaced span are an
    /// error (a format's bug, not the input's).
    pub fn replace(len: u64, replace: Span, replaced: Vec<u8>, mut patches: Vec<(u64, Vec<u8>)>) -> Result<Spliced> {
        patches.sort_by_key(|p| p.0);
        let mut pieces = Vec::new();
        let mut at = 0u64;
        let mut replaced = Some(replaced);
        let keep_to = |pieces: &mut Vec<Piece>, at: &mut u64, to: u64| {
            if to > *at {
                pieces.push(Piece::Keep(Span::new(*at, to)));
                *at = to;
            }
        };
        for (ofs, bytes) in patches {
            let end = ofs + bytes.len() as u64;
            if ofs < at || end > len || (ofs < replace.end && end > replace.start) {
                return Err(ParseError::new(ofs, ErrorKind::Other(format!("rebuild: patch at 0x{ofs:x} overlaps"))));
            }
            if replace.end <= ofs
                && let Some(r) = replaced.take()
            {
                keep_to(&mut pieces, &mut at, replace.start);
                if !r.is_empty() {
                    pieces.push(Piece::New(r));
                }
                at = replace.end;
            }
            keep_to(&mut pieces, &mut at, ofs);
            pieces.push(Piece::New(bytes));
            at = end;
        }
        if let Some(r) = replaced.take() {
            keep_to(&mut pieces, &mut at, replace.start);
            if !r.is_empty() {
                pieces.push(Piece::New(r));
            }
            at = replace.end;
        }
        keep_to(&mut pieces, &mut at, len);
        Ok(Spliced { pieces, notes: Vec::new() })
    }

    /// The original bytes `0..len` with each patch `(at, bytes)` laid over them (same
    /// length: an edit of fields in place).
    pub fn patched(len: u64, patches: Vec<(u64, Vec<u8>)>) -> Result<Spliced> {
        Spliced::replace(len, Span::new(len, len), Vec::new(), patches)
    }

    /// Bytes of the rebuilt container.
    pub fn len(&self) -> u64 {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Keep(s) => s.len(),
                Piece::New(b) => b.len() as u64,
            })
            .sum()
    }

    /// True when the rebuilt container is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the new pieces hold (what the rebuild keeps in memory).
    pub fn held(&self) -> u64 {
        self.pieces.iter().map(|p| if let Piece::New(b) = p { b.len() as u64 } else { 0 }).sum()
    }

    /// Write the rebuilt container to `w`, the kept pieces read from `original` (the bytes
    /// the container was opened from).
    pub fn write_to(&self, original: &Source, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        for p in &self.pieces {
            match p {
                Piece::New(b) => w.write_all(b)?,
                Piece::Keep(s) => w.write_all(&original.checked_span(s.start, s.end)?)?,
            }
        }
        Ok(())
    }

    /// The rebuilt container whole (a nested container's new bytes, handed to its parent),
    /// charged to `limits`' memory budget before anything is allocated.
    pub fn to_vec(&self, original: &Source, limits: &Limits) -> Result<Vec<u8>> {
        let len = self.len();
        limits.spend_clip("the rebuilt container", len, 0)?;
        let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        self.write_to(original, &mut out)
            .map_err(|e| ParseError::new(0, ErrorKind::Other(format!("rebuild: reading the original: {e}"))))?;
        Ok(out)
    }
}

/// A container that can take a member's new bytes.
pub trait Rebuild {
    /// The container's bytes with the member `node` stands for replaced by `bytes` (the
    /// member as its own format sees it: inflated for a gzip member), every table that
    /// locates members rewritten. Errors name the member and the sizes when it cannot be
    /// done under `opts`; the new bytes are charged to `limits`' memory budget.
    fn replace_member(&self, node: NodeId, bytes: &[u8], opts: &RebuildOptions, limits: &Limits) -> Result<Spliced>;
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn whole(s: &Spliced, original: &[u8]) -> Vec<u8> {
        let src = Source::from_vec("x", original.to_vec());
        s.to_vec(&src, &Limits::default()).unwrap()
    }

    /// A replacement and patches on either side come out in file order, kept bytes between.
    #[test]
    fn splices_lay_replacement_and_patches_in_order() {
        let orig: Vec<u8> = (0u8..20).collect();
        let s = Spliced::replace(20, Span::new(8, 12), vec![0xaa; 6], vec![(14, vec![0xbb, 0xbc]), (2, vec![0xcc])])
            .unwrap();
        let mut want: Vec<u8> = vec![0, 1, 0xcc, 3, 4, 5, 6, 7, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 12, 13, 0xbb, 0xbc];
        want.extend(16u8..20);
        assert_eq!(whole(&s, &orig), want);
        assert_eq!((s.len(), s.held()), (22, 9));
        // a patch inside the replaced span is refused
        assert!(Spliced::replace(20, Span::new(8, 12), vec![], vec![(10, vec![1])]).is_err());
        // the budget is spent before the copy
        let src = Source::from_vec("x", orig);
        let small = Limits { max_memory: 10, ..Limits::default() };
        assert!(s.to_vec(&src, &small).is_err());
    }
}
