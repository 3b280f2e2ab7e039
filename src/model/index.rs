use super::Span;

/// Intervals sorted by start with a running maximum of ends, answering "which intervals
/// contain this offset" in O(log n + k) where k is the number of intervals that start
/// before the offset and still reach past it (small when intervals mostly do not overlap,
/// as siblings and a node's fields do).
#[derive(Debug, Clone, Default)]
pub struct IntervalIndex {
    /// (start, end, item) sorted by (start, item).
    items: Vec<(u64, u64, u32)>,
    /// `max_end[i]` = max end of items[..=i].
    max_end: Vec<u64>,
}

impl IntervalIndex {
    /// Build from spans; the item number of each is its position in `spans`.
    pub fn new<'a>(spans: impl IntoIterator<Item = &'a Span>) -> Self {
        let mut items: Vec<(u64, u64, u32)> = spans
            .into_iter()
            .enumerate()
            .map(|(i, s)| (s.start, s.end, u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        items.sort_unstable_by_key(|&(s, _, i)| (s, i));
        let mut max_end = Vec::with_capacity(items.len());
        let mut m = 0;
        for &(_, e, _) in &items {
            m = m.max(e);
            max_end.push(m);
        }
        IntervalIndex { items, max_end }
    }

    /// Number of intervals indexed.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Items whose span contains `offset`, in no particular order.
    pub fn containing(&self, offset: u64) -> impl Iterator<Item = (Span, u32)> + '_ {
        let upto = self.items.partition_point(|&(s, _, _)| s <= offset);
        let items = self.items.get(..upto).unwrap_or(&[]);
        let maxes = self.max_end.get(..upto).unwrap_or(&[]);
        items
            .iter()
            .zip(maxes)
            .rev()
            .take_while(move |&(_, &m)| m > offset)
            .filter(move |(item, _)| item.1 > offset)
            .map(|(&(s, e, i), _)| (Span { start: s, end: e }, i))
    }

    /// The narrowest item containing `offset`; ties go to the lowest item number.
    pub fn innermost(&self, offset: u64) -> Option<u32> {
        self.containing(offset).min_by_key(|&(s, i)| (s.len(), i)).map(|(_, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive(spans: &[Span], off: u64) -> Option<u32> {
        spans
            .iter()
            .enumerate()
            .filter(|(_, s)| s.contains(off))
            .min_by_key(|&(i, s)| (s.len(), i))
            .map(|(i, _)| i as u32)
    }

    proptest! {
        #[test]
        fn innermost_matches_naive_scan(
            raw in proptest::collection::vec((0u64..500, 0u64..80), 0..200),
            probes in proptest::collection::vec(0u64..600, 1..50),
        ) {
            let spans: Vec<Span> = raw.iter().map(|&(s, l)| Span::at(s, l)).collect();
            let idx = IntervalIndex::new(&spans);
            for off in probes {
                prop_assert_eq!(idx.innermost(off), naive(&spans, off));
            }
        }
    }
}
