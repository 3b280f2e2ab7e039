//! Small arrays kept in place: up to `N` values read as a slice. Decoders that a survey
//! runs for every archive member use them for values with a small fixed bound (a name
//! field, a controller value's words, an mmat head's words), where a vector each was an
//! allocation per value.

/// Up to `N` values of `T` in place, read as a slice of the ones stored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::formats) struct Inline<T: Copy + Default, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Inline { len: 0, items: [T::default(); N] }
    }
}

impl<T: Copy + Default, const N: usize> Inline<T, N> {
    /// The first `N` of `items` (any more are not kept).
    pub fn from_slice(items: &[T]) -> Self {
        let mut v = Self::default();
        for x in items {
            if !v.push(*x) {
                break;
            }
        }
        v
    }

    /// Forget the stored values.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Append `x`; false, and nothing stored, when `N` are already stored.
    pub fn push(&mut self, x: T) -> bool {
        match self.items.get_mut(usize::from(self.len)) {
            Some(slot) if usize::from(self.len) < usize::from(u8::MAX) => {
                *slot = x;
                self.len += 1;
                true
            }
            _ => false,
        }
    }
}

impl<T: Copy + Default, const N: usize> std::ops::Deref for Inline<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.items.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl<T: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for Inline<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // as the values stored (the derived Debug of the vectors these replaced)
        std::fmt::Debug::fmt(&**self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::Inline;

    #[test]
    fn keeps_at_most_n_and_reads_as_the_stored_prefix() {
        let mut v: Inline<u32, 3> = Inline::default();
        assert_eq!(&*v, &[] as &[u32]);
        assert!(v.push(7) && v.push(8));
        assert_eq!(&*v, &[7, 8]);
        assert!(v.push(9));
        assert!(!v.push(10), "a fourth value does not fit");
        assert_eq!(&*v, &[7, 8, 9]);
        v.clear();
        assert_eq!(&*v, &[] as &[u32]);
        assert!(v.push(1));
        assert_eq!(&*v, &[1]);
        assert_eq!(&*Inline::<u8, 2>::from_slice(b"abc"), b"ab");
        assert_eq!(format!("{:?}", Inline::<u8, 4>::from_slice(&[1, 2])), "[1, 2]");
        // equal when the stored values are
        assert_eq!(Inline::<u8, 4>::from_slice(&[1, 2]), Inline::<u8, 4>::from_slice(&[1, 2]));
        assert_ne!(Inline::<u8, 4>::from_slice(&[1, 2]), Inline::<u8, 4>::from_slice(&[1, 2, 0]));
    }
}
