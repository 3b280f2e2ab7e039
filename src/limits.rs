//! Budgets that bound every parse and decode, so hostile counts cannot exhaust memory or time.

use crate::error::{ErrorKind, ParseError, Result};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds applied while parsing and decoding untrusted input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most nodes one document may hold.
    pub max_nodes: usize,
    /// Most fields one document may hold.
    pub max_fields: usize,
    /// Most keys or keyframes one clip may hold.
    pub max_keys: usize,
    /// Most bytes one inflated member may have (gzip bombs stop here).
    pub max_inflated: u64,
    /// Most bytes the inflated-member cache keeps.
    pub cache_bytes: u64,
    /// Abstract decode work units (e.g. words decoded) one clip may take.
    pub max_decode_work: u64,
    /// Deepest chain (parent links, targets, nested containers) followed.
    pub max_depth: usize,
    /// Most bytes an archive's `describe` probes eagerly for members (gzarc); the rest is
    /// covered by a "not yet listed" placeholder node and listed later in steps
    /// (`formats::gzarc::continue_listing`). Unbounded by default (complete listings for
    /// `tree`, `survey`, `check`); interactive consumers use [`Limits::interactive`].
    pub list_budget: u64,
    /// Most bytes one input file is read into memory (files below the map threshold,
    /// `--no-mmap`). A larger file is refused; a file that grows while read is read only
    /// up to its size at open. Mapped files are not copied and not bounded by this.
    pub max_input: u64,
    /// Most bytes a side file given on the command line (a skeleton, a frames file) may
    /// have: these are read whole into memory.
    pub max_side_file: u64,
    /// The memory budget of one document (one input, one archive member): the bytes its
    /// retained nodes, fields and keys are estimated to take. Every node and field a format
    /// adds to a [`crate::model::Document`] draws from it (and dropping an expansion gives
    /// its share back), so shared regions that make many structures out of the same bytes
    /// are paid for once per use. Exceeding it is an error naming the budget and
    /// `--limit memory=…`.
    pub max_memory: u64,
    /// Most bytes one command's exports may write, all files together (the disk guard for
    /// output that is legitimately huge and streamed): `--limit output=…`.
    pub max_output: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: 4_000_000,
            max_fields: 16_000_000,
            max_keys: 4_000_000,
            max_inflated: 128 << 20,
            cache_bytes: 64 << 20,
            max_decode_work: 200_000_000,
            max_depth: 64,
            list_budget: u64::MAX,
            max_input: 4 << 30,
            max_side_file: DEFAULT_SIDE_FILE,
            max_memory: DEFAULT_MEMORY_BUDGET,
            max_output: 16 << 30,
        }
    }
}

/// Default [`Limits::max_memory`]: with the allocator's overhead and the rest of the
/// process this keeps any input of at most 1 MiB under 256 MiB peak RSS, and is far above
/// what a real document's skeleton or any one expanded structure needs.
pub const DEFAULT_MEMORY_BUDGET: u64 = 96 << 20;

/// Default [`Limits::max_side_file`].
pub const DEFAULT_SIDE_FILE: u64 = 64 << 20;

/// The `--limit KEY=SIZE` keys, what each sets, for usage messages and help.
pub const LIMIT_KEYS: [(&str, &str); 5] = [
    ("memory", "memory budget per document / archive member"),
    ("output", "most bytes one command's exports write"),
    ("inflated", "most bytes one archive member inflates to"),
    ("input", "most bytes one input is read into memory"),
    ("side-file", "most bytes of a skeleton or frames file"),
];

/// Parse a size: a number with an optional `K`, `M`, `G` or `T` suffix (powers of 1024,
/// `KiB`/`MB` spellings accepted), or `none` for no limit.
pub fn parse_size(s: &str) -> Option<u64> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("none") || t.eq_ignore_ascii_case("unlimited") {
        return Some(u64::MAX);
    }
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let n: u64 = num.parse().ok()?;
    let shift = match unit.trim().to_ascii_lowercase().trim_end_matches('b').trim_end_matches('i') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return None,
    };
    n.checked_mul(1u64 << shift)
}

/// Eager listing budget for interactive opens (`info`, the TUI's first frame): 16 MiB of
/// boundaries probe in a few milliseconds even from a cold page cache.
pub const INTERACTIVE_LIST_BUDGET: u64 = 16 << 20;

impl Limits {
    /// These limits with a command's `--limit KEY=SIZE` arguments applied (later ones win).
    /// The result is the command's one budget: it is passed down to every open, decode,
    /// export and side file, and nothing reads limits from anywhere else. An unknown key or
    /// a bad size is an error naming the valid keys.
    pub fn with_args(mut self, args: &[String]) -> std::result::Result<Limits, String> {
        for a in args {
            let (k, v) =
                a.split_once('=').ok_or_else(|| format!("--limit {a}: expected KEY=SIZE (e.g. memory=512M)"))?;
            let key =
                LIMIT_KEYS.iter().find(|(name, _)| *name == k.trim()).map(|(name, _)| *name).ok_or_else(|| {
                    let keys: Vec<&str> = LIMIT_KEYS.iter().map(|(n, _)| *n).collect();
                    format!("--limit {a}: no limit {k}; valid: {}", keys.join(", "))
                })?;
            let size = parse_size(v)
                .ok_or_else(|| format!("--limit {a}: {v} is not a size (a number with K, M, G or T, or none)"))?;
            match key {
                "memory" => self.max_memory = size,
                "output" => self.max_output = size,
                "inflated" => self.max_inflated = size,
                "input" => self.max_input = size,
                "side-file" => self.max_side_file = size,
                _ => {}
            }
        }
        Ok(self)
    }

    /// Defaults with a small eager listing budget ([`INTERACTIVE_LIST_BUDGET`]), for opens
    /// that must show something at once and list the rest progressively.
    pub fn interactive() -> Limits {
        Limits { list_budget: INTERACTIVE_LIST_BUDGET, ..Limits::default() }
    }

    /// The limits of a member nested in a document that holds `held` bytes (the member's
    /// own inflated or copied bytes, plus the enclosing document's nodes and fields): the
    /// member, its document and everything nested in it draw from what is left of this
    /// memory budget, so a chain of nested archives shares one budget (depth is not a
    /// multiplier).
    pub fn for_member(&self, held: u64) -> Limits {
        Limits { max_memory: self.max_memory.saturating_sub(held), ..*self }
    }

    /// Most bytes one member may inflate to: the inflated-member cap, and never more than
    /// the memory budget left (the inflated bytes are held while they are read).
    pub fn inflate_cap(&self) -> u64 {
        self.max_inflated.min(self.max_memory)
    }

    /// The error for a member that inflates past [`Limits::inflate_cap`], naming the limit
    /// that bound it (`--limit memory=` or `--limit inflated=`).
    pub fn inflate_error(&self, offset: u64) -> ParseError {
        let max = self.inflate_cap();
        let key = if self.max_memory < self.max_inflated { "memory" } else { "inflated" };
        ParseError::new(offset, ErrorKind::InflateBudget { max, key })
    }

    /// Check, before allocating them, that `needed` bytes for one decoded clip (`what` it
    /// holds) fit [`Limits::max_memory`]: the budget error naming `--limit memory=…` when
    /// they do not. It holds nothing: a clip's bytes are reserved from the command's
    /// [`Budget`] once it is made (`session::Opened::decode_held`), and the limits a format
    /// is given for it are what that budget has left.
    pub fn spend_clip(&self, what: &'static str, needed: u64, offset: u64) -> Result<()> {
        if needed > self.max_memory {
            Err(ParseError::new(offset, ErrorKind::ClipBudget { what, needed, max: self.max_memory }))
        } else {
            Ok(())
        }
    }

    /// Fail with `LimitExceeded` at `offset` when `value > max`.
    pub fn check(what: &'static str, value: u64, max: u64, offset: u64) -> Result<()> {
        if value > max { Err(ParseError::new(offset, ErrorKind::LimitExceeded { what, value, max })) } else { Ok(()) }
    }
}

/// A memory budget that is spent and given back (image-png's `Limits::reserve_bytes`
/// shape): made once per command, or once per TUI run, from `--limit memory=`, and shared
/// by everything that command holds (clones share one account). Each allocation whose size
/// follows a file's counts reserves its bytes first and gets a [`Charge`]; dropping the
/// charge returns them. Reservations from several threads never pass the maximum together.
#[derive(Debug, Clone)]
pub struct Budget {
    account: Arc<Account>,
}

#[derive(Debug)]
struct Account {
    max: u64,
    spent: AtomicU64,
}

impl Budget {
    /// A budget of `max` bytes, nothing spent.
    pub fn new(max: u64) -> Budget {
        Budget { account: Arc::new(Account { max, spent: AtomicU64::new(0) }) }
    }

    /// The maximum (`--limit memory=`).
    pub fn max(&self) -> u64 {
        self.account.max
    }

    /// Bytes held by live charges.
    pub fn spent(&self) -> u64 {
        self.account.spent.load(Ordering::Acquire)
    }

    /// Bytes still free.
    pub fn room(&self) -> u64 {
        self.max().saturating_sub(self.spent())
    }

    /// Reserve `bytes` for `what` (read at `offset` of the input), or fail with the one-line
    /// budget error naming `--limit memory=` before anything is allocated.
    pub fn reserve(&self, what: &'static str, bytes: u64, offset: u64) -> Result<Charge> {
        self.take(what, bytes, offset)?;
        Ok(Charge { budget: self.clone(), bytes })
    }

    fn take(&self, what: &'static str, bytes: u64, offset: u64) -> Result<()> {
        let a = &self.account;
        let mut spent = a.spent.load(Ordering::Acquire);
        loop {
            let after = spent.checked_add(bytes).filter(|after| *after <= a.max);
            let Some(after) = after else {
                let needed = spent.saturating_add(bytes);
                return Err(ParseError::new(offset, ErrorKind::ClipBudget { what, needed, max: a.max }));
            };
            match a.spent.compare_exchange_weak(spent, after, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Ok(()),
                Err(now) => spent = now,
            }
        }
    }
}

/// A [`Charge`] shared by the values that hold the same bytes (a decoded clip and its
/// clones, an opened member and its copies): given back when the last of them drops. Equal
/// to every other: what is held does not make two values differ.
#[derive(Debug, Clone, Default)]
pub struct Held(Option<Arc<Charge>>);

impl Held {
    /// Hold `charge`.
    pub fn new(charge: Charge) -> Held {
        Held(Some(Arc::new(charge)))
    }

    /// Bytes held (0 for nothing).
    pub fn bytes(&self) -> u64 {
        self.0.as_ref().map_or(0, |c| c.bytes())
    }
}

impl PartialEq for Held {
    fn eq(&self, _: &Held) -> bool {
        true
    }
}

/// Bytes reserved from a [`Budget`], returned when dropped.
#[derive(Debug)]
pub struct Charge {
    budget: Budget,
    bytes: u64,
}

impl Charge {
    /// Bytes this charge holds.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Hold `more` bytes as well (a buffer that grows), or fail as [`Budget::reserve`] does
    /// and keep what is held.
    pub fn grow(&mut self, what: &'static str, more: u64, offset: u64) -> Result<()> {
        self.budget.take(what, more, offset)?;
        self.bytes += more;
        Ok(())
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.budget.account.spent.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// `--limit` arguments change only the limits they are applied to: the defaults stay the
    /// defaults (no process-wide state), later arguments win, bad ones are errors naming the
    /// valid keys.
    #[test]
    fn limit_arguments_apply_to_the_limits_given_and_nowhere_else() {
        let args = ["memory=8M".to_string(), "output=1K".to_string(), "memory=16M".to_string()];
        let l = Limits::default().with_args(&args).unwrap();
        assert_eq!((l.max_memory, l.max_output), (16 << 20, 1 << 10));
        assert_eq!(l.max_inflated, 128 << 20);
        let d = Limits::default();
        assert_eq!((d.max_memory, d.max_output), (DEFAULT_MEMORY_BUDGET, 16 << 30));
        let e = Limits::default().with_args(&["mem=1M".to_string()]).unwrap_err();
        assert!(e.contains("no limit mem; valid: memory, output, inflated, input, side-file"), "{e}");
        let e = Limits::default().with_args(&["memory=lots".to_string()]).unwrap_err();
        assert!(e.contains("lots is not a size"), "{e}");
        let l = Limits::default().with_args(&["side-file=none".to_string(), "input=2G".to_string()]).unwrap();
        assert_eq!((l.max_side_file, l.max_input), (u64::MAX, 2 << 30));
    }

    /// A budget is spent by charges and given back when they drop; a reservation that would
    /// pass the maximum fails with the budget error and spends nothing; clones share one
    /// account; threads reserving at once never pass the maximum together.
    #[test]
    fn a_budget_is_spent_by_charges_and_given_back_when_they_drop() {
        let b = Budget::new(100);
        let mut first = b.reserve("first", 60, 0).unwrap();
        assert_eq!((b.spent(), b.room()), (60, 40));
        let e = b.clone().reserve("second", 41, 0x20).unwrap_err();
        assert_eq!(e.offset, 0x20);
        assert!(e.to_string().contains("second") && e.to_string().contains("--limit memory="), "{e}");
        assert_eq!(b.spent(), 60, "a refused reservation spends nothing");
        first.grow("first", 40, 0).unwrap();
        assert!(first.grow("first", 1, 0).is_err());
        assert_eq!((first.bytes(), b.room()), (100, 0));
        drop(first);
        assert_eq!(b.spent(), 0);
        // 8 threads × 50 reservations of 3 bytes against 100: at most 33 held at once.
        let held = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..50 {
                        if let Ok(c) = b.reserve("t", 3, 0) {
                            held.lock().unwrap().push(c);
                        }
                    }
                });
            }
        });
        assert_eq!(held.lock().unwrap().len(), 33);
        assert_eq!(b.spent(), 99);
        held.lock().unwrap().clear();
        assert_eq!(b.spent(), 0);
    }
}
