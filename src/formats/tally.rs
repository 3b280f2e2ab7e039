//! Typed survey counters. A survey of 315,000 archive members adds a few dozen counters
//! per member; naming each by a formatted `String` in a map, then merging maps, cost more
//! than surveying the member itself. Here a counter is a [`Key`]: a name interned once per
//! process (key tables are built on first use, never per member), and a [`Tally`] holds
//! the counts in a vector indexed by key, so adding is an index and merging is a sum.
//! Names are only looked up when a tally becomes a [`Survey`] at the end.

use super::Survey;
use crate::model::Diagnostic;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, PoisonError};

/// An interned counter name (see [`key`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(u32);

/// Every interned name, in id order, and the id of each.
#[derive(Default)]
struct Registry {
    names: Vec<&'static str>,
    ids: HashMap<&'static str, u32>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

fn with_registry<T>(f: impl FnOnce(&mut Registry) -> T) -> T {
    // a panic elsewhere while the lock was held leaves the table itself consistent
    let mut guard = REGISTRY.lock().unwrap_or_else(PoisonError::into_inner);
    f(guard.get_or_insert_with(Registry::default))
}

/// The key named `name`, the same key for the same name wherever it is asked for. Takes a
/// lock: call it when building a key table, not per counter added.
pub fn key(name: &'static str) -> Key {
    with_registry(|r| {
        if let Some(&id) = r.ids.get(name) {
            return Key(id);
        }
        let id = u32::try_from(r.names.len()).unwrap_or(u32::MAX);
        r.names.push(name);
        r.ids.insert(name, id);
        Key(id)
    })
}

/// [`key`] for a name made at run time. The name is kept for the rest of the process, so
/// this is for key tables built once (names from a fixed set), never for names taken from
/// input data.
pub fn key_owned(name: String) -> Key {
    let known = with_registry(|r| r.ids.get(name.as_str()).copied());
    match known {
        Some(id) => Key(id),
        None => key(Box::leak(name.into_boxed_str())),
    }
}

/// Counters and findings being summed over many inputs. Counters exist once added, even
/// with 0 (as [`Survey::add`] makes them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Counts by key id; None: never added.
    counts: Vec<Option<u64>>,
    /// Counters named at run time that have no key (rare: names from input data, and the
    /// counters of formats that report a [`Survey`]).
    named: BTreeMap<String, u64>,
    /// Problems found, in the order they were added.
    pub findings: Vec<Diagnostic>,
}

impl Tally {
    /// Add `n` to the counter `k`.
    #[inline]
    pub fn add(&mut self, k: Key, n: u64) {
        let i = k.0 as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, None);
        }
        if let Some(c) = self.counts.get_mut(i) {
            *c.get_or_insert(0) += n;
        }
    }

    /// Add `n` to the counter named `name`, for names made at run time (see [`Tally`]).
    pub fn add_named(&mut self, name: &str, n: u64) {
        match self.named.get_mut(name) {
            Some(v) => *v += n,
            None => {
                self.named.insert(name.to_string(), n);
            }
        }
    }

    /// Add another tally's counters and append its findings.
    pub fn merge(&mut self, other: Tally) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), None);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            if let Some(n) = theirs {
                *mine.get_or_insert(0) += n;
            }
        }
        if self.named.is_empty() {
            self.named = other.named;
        } else {
            for (k, v) in other.named {
                match self.named.get_mut(&k) {
                    Some(mine) => *mine += v,
                    None => {
                        self.named.insert(k, v);
                    }
                }
            }
        }
        self.findings.extend(other.findings);
    }

    /// Add a survey's counters (by name) and append its findings.
    pub fn merge_survey(&mut self, s: Survey) {
        for (k, v) in s.counters {
            match self.named.get_mut(&k) {
                Some(mine) => *mine += v,
                None => {
                    self.named.insert(k, v);
                }
            }
        }
        self.findings.extend(s.findings);
    }

    /// The counters by name (keyed and named ones summed) and the findings.
    pub fn into_survey(self, format: &'static str, name: &str) -> Survey {
        let mut s = Survey { format, name: name.to_string(), ..Survey::default() };
        s.counters = self.named;
        with_registry(|r| {
            for (i, n) in self.counts.iter().enumerate() {
                if let (Some(n), Some(k)) = (n, r.names.get(i)) {
                    s.add(*k, *n);
                }
            }
        });
        s.findings = self.findings;
        s
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_interned_by_name() {
        let a = key("tally_test.a");
        assert_eq!(key("tally_test.a"), a);
        assert_eq!(key_owned(String::from("tally_test.a")), a);
        assert_ne!(key("tally_test.b"), a);
    }

    /// A tally ends as the survey made by `Survey::add` with the same names: zero-valued
    /// counters kept, keyed and named counters of one name summed.
    #[test]
    fn tally_ends_as_the_string_keyed_survey() {
        let (a, z) = (key("tally_test.sum"), key("tally_test.zero"));
        let mut t = Tally::default();
        t.add(a, 2);
        t.add(z, 0);
        t.add_named("tally_test.sum", 3);
        t.add_named("tally_test.named", 1);
        let mut other = Tally::default();
        other.add(a, 10);
        other.findings.push(Diagnostic::new(crate::model::Severity::Warning, Some(4), "p", "second"));
        t.findings.push(Diagnostic::new(crate::model::Severity::Error, Some(1), "p", "first"));
        t.merge(other);
        let mut extra = Survey::default();
        extra.add("tally_test.named", 5);
        t.merge_survey(extra);
        let s = t.into_survey("ccsf", "n");
        let got: Vec<(&str, u64)> = s.counters.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(got, vec![("tally_test.named", 6), ("tally_test.sum", 15), ("tally_test.zero", 0)]);
        let messages: Vec<&str> = s.findings.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, vec!["first", "second"]);
        assert_eq!((s.format, s.name.as_str()), ("ccsf", "n"));
    }
}
