//! `diff A B [NODE]`: the structure-aware comparison (`crate::diff`) as text or JSON Lines.
//! Text sanitises names from the files; JSON keeps them exact.

use super::{CliError, DiffArgs, Outcome, Resolved};
use crate::diff::{self, Change, KeyAt, Options, Summary, Unit, What, channels_text};
use crate::model::{NodeId, Sanitized, Span, fmt_num};
use crate::session::Opened;
use crate::wire;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The path a resolved node has in the report: outer sources, then the document path.
fn report_path(o: &Opened, id: NodeId) -> String {
    let mut parts = o.outer.clone();
    parts.push(o.doc().path(id));
    parts.join("/")
}

fn resolve(o: Opened, node: Option<&str>) -> Result<(Opened, NodeId), CliError> {
    match node {
        None => Ok((o, NodeId::ROOT)),
        Some(addr) => {
            let limits = *o.limits();
            let (o, id) = o.resolve(addr, &limits)?;
            super::verbs::say_reached(addr, &o)?;
            Ok((o, id))
        }
    }
}

/// Run `diff`: exit 0 when equal, 1 when they differ (2 on errors, by the caller).
pub fn run(args: &DiffArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if args.tolerance.is_nan() || args.tolerance < 0.0 {
        return Err(CliError::Usage(format!("--tolerance {}: must be a number ≥ 0", args.tolerance)));
    }
    // One budget for the command: the two documents and the comparison's working copies
    // of their fields (names, values and the changes made of them, about as much again as
    // the documents hold) share it, a quarter for each document.
    let shared = crate::limits::Limits { max_memory: g.limits.max_memory / 4, ..g.limits };
    let open = |file: &Path| -> Result<Opened, CliError> {
        let mut o = g.open_within(file, &shared)?;
        g.apply_layouts(&mut o)?;
        Ok(o)
    };
    let node = args.node.as_deref();
    let (mut a, ia) = resolve(open(&args.a)?, node)?;
    let (mut b, ib) = resolve(open(&args.b)?, node)?;
    let path = if args.node.is_some() { report_path(&a, ia) } else { a.doc().root().key.to_string() };
    // the decodes and members the comparison opens draw on the command's budget (a quarter
    // for each side's, as the documents), not the default limits
    let opts = Options { tolerance: args.tolerance, all_keys: args.keys, limits: shared, ..Options::default() };
    let json = args.json;
    let mut units: Option<UnitTally> = None;
    let mut text = TextWriter::default();
    let summary = diff::diff_units(&mut *a, ia, &mut *b, ib, &path, &opts, &mut |unit, c| {
        if args.summary {
            if units.as_ref().is_some_and(|u| u.unit.path != unit.path) {
                units.take().map_or(Ok(()), |u| u.write(json, out))?;
            }
            units.get_or_insert_with(|| UnitTally::new(unit)).add(c);
            Ok(())
        } else if json {
            let mut j = wire::Change::new(c);
            if matches!(c.what, What::Anim(_)) && unit.path == c.path && !unit.aliases.is_empty() {
                j.aliases = Some(unit.aliases.iter().map(|a| a.as_str().into()).collect());
            }
            writeln!(out, "{j}")
        } else {
            text.change(unit, c, out)
        }
    })?;
    if let Some(u) = units.take() {
        u.write(json, out)?;
    }
    text.flush(out)?;
    if json {
        writeln!(out, "{}", wire::SummaryLine::new(&summary))?;
    } else {
        write_summary_text(&summary, out)?;
    }
    Ok(if summary.differs() { Outcome::Findings } else { Outcome::Clean })
}

/// `diff --summary`: the changes of one unit counted as they arrive.
struct UnitTally {
    unit: Unit,
    by: BTreeMap<&'static str, u64>,
    /// The one change's path below the unit (while there is one).
    first: Option<String>,
    /// The unit's animation change: frames, channels only in A / B, channels that differ.
    anim: Option<((usize, usize), usize, usize, usize)>,
    /// The fields that differ in the unit, as `path below the unit/name` (the first two:
    /// one is named in the text line, as `set`'s edits are checked by).
    fields: Vec<String>,
}

impl UnitTally {
    fn new(unit: &Unit) -> UnitTally {
        UnitTally { unit: unit.clone(), by: BTreeMap::new(), first: None, anim: None, fields: Vec::new() }
    }

    fn add(&mut self, c: &Change) {
        let n: u64 = self.by.values().sum();
        self.first =
            (n == 0).then(|| c.path.strip_prefix(&self.unit.path).unwrap_or("").trim_start_matches('/').to_string());
        *self.by.entry(c.what.name()).or_insert(0) += 1;
        if let What::Anim(a) = &c.what {
            self.anim = Some((a.frames, a.channels_only_in_a.len(), a.channels_only_in_b.len(), a.channels.len()));
        }
        if let What::Bytes { fields, .. } = &c.what {
            let below = c.path.strip_prefix(&self.unit.path).unwrap_or("").trim_start_matches('/');
            for f in fields.iter().take(2usize.saturating_sub(self.fields.len())) {
                self.fields.push(if below.is_empty() { f.name.clone() } else { format!("{below}/{}", f.name) });
            }
        }
    }

    fn write(&self, json: bool, out: &mut dyn Write) -> std::io::Result<()> {
        let count: u64 = self.by.values().sum();
        if json {
            let j = wire::UnitLine {
                aliases: self.unit.aliases.iter().map(|a| a.as_str().into()).collect(),
                anim: self.anim.map(|(frames, only_a, only_b, differ)| wire::UnitAnim {
                    channels_changed: differ as u64,
                    channels_only_in_a: only_a as u64,
                    channels_only_in_b: only_b as u64,
                    frames: [frames.0 as u64, frames.1 as u64],
                }),
                by_change: self.by.iter().map(|(k, n)| ((*k).into(), *n)).collect(),
                changes: count,
                kind: self.unit.kind.as_str().into(),
                unit: self.unit.path.as_str().into(),
            };
            return writeln!(out, "{j}");
        }
        let by: Vec<String> = self.by.iter().map(|(k, n)| format!("{n} {}", change_label(k))).collect();
        let mut line = format!("{}  {}  ", Sanitized(&self.unit.path), Sanitized(&self.unit.kind));
        match (&self.first, count) {
            (Some(rest), 1) if rest.is_empty() => line.push_str(&by.join("")),
            (Some(rest), 1) => line.push_str(&format!("{}: {}", by.join(""), Sanitized(rest))),
            _ => line.push_str(&format!("{count} changes ({})", by.join(", "))),
        }
        if let [one] = self.fields.as_slice() {
            line.push_str(&format!(" · field {}", Sanitized(one)));
        }
        if let Some((frames, only_a, only_b, differ)) = self.anim {
            let mut parts = Vec::new();
            if frames.0 != frames.1 {
                parts.push(format!("frames {} → {}", frames.0, frames.1));
            }
            if only_a > 0 {
                parts.push(format!("{} only in A", channels_text(only_a)));
            }
            if only_b > 0 {
                parts.push(format!("{} only in B", channels_text(only_b)));
            }
            if differ > 0 {
                parts.push(format!("{} differ", channels_text(differ)));
            }
            line.push_str(&format!(" · animation: {}", parts.join(", ")));
        }
        if !self.unit.aliases.is_empty() {
            line.push_str(&format!(" · also named {}", names_text(&self.unit.aliases, usize::MAX)));
        }
        writeln!(out, "{line}")
    }
}

/// Up to `most` names, sanitised, joined by commas (`… N in all` when cut).
fn names_text(names: &[String], most: usize) -> String {
    let mut s = names.iter().take(most).map(|n| Sanitized(n).to_string()).collect::<Vec<_>>().join(", ");
    if names.len() > most {
        s.push_str(&format!(", … ({} in all)", names.len()));
    }
    s
}

/// The label of a change name in text (`only in A`, `changed`, ...).
fn change_label(k: &str) -> &str {
    match k {
        "only_in_a" => "only in A",
        "only_in_b" => "only in B",
        "bytes" => "changed",
        "anim" => "animation",
        other => other,
    }
}

/// Fields one side lacks up to this many are listed one a line with their values; more
/// are gathered into one line of names.
const FIELDS_LISTED: usize = 3;

/// Most names listed on a line that gathers several (nodes or fields only on one side).
const NAMES_LISTED: usize = 8;

/// The text report: consecutive siblings only on one side (a removed sequence's channels)
/// are gathered into one line.
#[derive(Default)]
struct TextWriter {
    /// Changes of one side only, of one parent and kind, not yet written.
    pending: Vec<Change>,
}

impl TextWriter {
    fn change(&mut self, unit: &Unit, c: &Change, out: &mut dyn Write) -> std::io::Result<()> {
        let gathers = |p: &Change| p.what == c.what && p.kind == c.kind && parent_path(&p.path) == parent_path(&c.path);
        if matches!(c.what, What::OnlyInA | What::OnlyInB) {
            if !self.pending.iter().all(gathers) {
                self.flush(out)?;
            }
            self.pending.push(c.clone());
            return Ok(());
        }
        self.flush(out)?;
        write_change_text(c, out)?;
        if matches!(c.what, What::Anim(_)) && unit.path == c.path && !unit.aliases.is_empty() {
            writeln!(out, "    also named: {}", names_text(&unit.aliases, usize::MAX))?;
        }
        Ok(())
    }

    fn flush(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        match pending.as_slice() {
            [] => Ok(()),
            [one] => write_change_text(one, out),
            [first, .., last] => {
                let label = change_label(first.what.name());
                let names: Vec<String> = pending
                    .iter()
                    .map(|c| c.path.rsplit_once('/').map_or(c.path.as_str(), |(_, k)| k).to_string())
                    .collect();
                let span = |c: &Change| if first.what == What::OnlyInA { c.a } else { c.b };
                let side = if first.what == What::OnlyInA { "A" } else { "B" };
                let extent = match (span(first), span(last)) {
                    (Some(s), Some(e)) => format!("  {side} {}", Span::new(s.start, e.end.max(s.start))),
                    _ => String::new(),
                };
                writeln!(
                    out,
                    "{label:<11} {}/  {} × {}{extent}",
                    Sanitized(parent_path(&first.path)),
                    pending.len(),
                    Sanitized(&first.kind)
                )?;
                writeln!(out, "    {}", names_text(&names, usize::MAX))
            }
        }
    }
}

fn parent_path(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(p, _)| p)
}

fn spans_text(c: &Change) -> String {
    match (c.a, c.b) {
        (Some(a), Some(b)) if a == b => format!("A/B {a}"),
        (Some(a), Some(b)) => format!("A {a}  B {b}"),
        (Some(a), None) => format!("A {a}"),
        (None, Some(b)) => format!("B {b}"),
        (None, None) => String::new(),
    }
}

fn key_text(k: Option<KeyAt>) -> String {
    k.map_or_else(|| "none".to_string(), |k| format!("{} @ frame {}", fmt_num(k.value), fmt_num(k.frame)))
}

/// A field's display value; one that holds an arrow itself (a reference, `0x20 → 0x248`)
/// is parenthesised, so `old → new` stays readable.
fn opt_text(v: &Option<String>) -> String {
    match v.as_deref() {
        None => "(none)".to_string(),
        Some(s) if s.contains(" → ") => format!("({})", Sanitized(s)),
        Some(s) => Sanitized(s).to_string(),
    }
}

/// One change as text lines (`changed  PATH  KIND  A 0x..  B 0x..` and indented details).
pub fn write_change_text(c: &Change, out: &mut dyn Write) -> std::io::Result<()> {
    let head = |label: &str| format!("{label:<11} {}  {}  {}", Sanitized(&c.path), Sanitized(&c.kind), spans_text(c));
    match &c.what {
        What::OnlyInA => writeln!(out, "{}", head("only in A")),
        What::OnlyInB => writeln!(out, "{}", head("only in B")),
        What::Bytes { new_kind, fields } => {
            writeln!(out, "{}", head("changed"))?;
            if let Some(k) = new_kind {
                writeln!(out, "    kind: {} → {}", Sanitized(&c.kind), Sanitized(k))?;
            }
            for f in fields.iter().filter(|f| f.old.is_some() && f.new.is_some()) {
                writeln!(out, "    {}: {} → {}", Sanitized(&f.name), opt_text(&f.old), opt_text(&f.new))?;
            }
            // fields one side lacks: one line each side when there are more than a few (a
            // removed channel's `count[X]` in every block), each with its value when few
            for (side, only) in [
                ("A", fields.iter().filter(|f| f.new.is_none()).collect::<Vec<_>>()),
                ("B", fields.iter().filter(|f| f.old.is_none()).collect()),
            ] {
                if only.len() <= FIELDS_LISTED {
                    for f in &only {
                        writeln!(out, "    {}: {} → {}", Sanitized(&f.name), opt_text(&f.old), opt_text(&f.new))?;
                    }
                } else {
                    {
                        let names: Vec<String> = only.iter().map(|f| f.name.clone()).collect();
                        writeln!(
                            out,
                            "    {} fields only in {side}: {}",
                            only.len(),
                            names_text(&names, NAMES_LISTED)
                        )?;
                    }
                }
            }
            Ok(())
        }
        What::Alias { old, new } => {
            writeln!(out, "{}", head("alias"))?;
            writeln!(out, "    alias of: {} → {}", opt_text(old), opt_text(new))
        }
        What::Anim(a) => {
            writeln!(out, "{}", head("animation"))?;
            if a.frames.0 != a.frames.1 {
                writeln!(out, "    frames: {} → {}", a.frames.0, a.frames.1)?;
            }
            let list = |v: &[String]| v.iter().map(|s| Sanitized(s).to_string()).collect::<Vec<_>>().join(", ");
            if !a.channels_only_in_a.is_empty() {
                writeln!(
                    out,
                    "    {} only in A: {}",
                    channels_text(a.channels_only_in_a.len()),
                    list(&a.channels_only_in_a)
                )?;
            }
            if !a.channels_only_in_b.is_empty() {
                writeln!(
                    out,
                    "    {} only in B: {}",
                    channels_text(a.channels_only_in_b.len()),
                    list(&a.channels_only_in_b)
                )?;
            }
            for ch in &a.channels {
                let mut line = format!("    {}:", Sanitized(&ch.name));
                if ch.keys.0 != ch.keys.1 {
                    line.push_str(&format!(" keys {} → {};", ch.keys.0, ch.keys.1));
                }
                for k in &ch.key_changes {
                    line.push_str(&format!(" key {}: {} → {};", k.index, key_text(k.a), key_text(k.b)));
                }
                if let Some(l) = ch.largest {
                    line.push_str(&format!(
                        " largest difference {} at frame {} ({} → {})",
                        fmt_num(l.delta()),
                        l.frame,
                        fmt_num(l.a),
                        fmt_num(l.b)
                    ));
                }
                writeln!(out, "{}", line.trim_end_matches(';'))?;
            }
            Ok(())
        }
        What::Unreadable { side, message } => {
            writeln!(out, "{}", head("unreadable"))?;
            writeln!(out, "    {side}: {}", Sanitized(message))
        }
    }
}

/// The closing lines: changes by kind, identical structures by kind.
pub fn write_summary_text(s: &Summary, out: &mut dyn Write) -> std::io::Result<()> {
    let kinds = |m: &std::collections::BTreeMap<String, u64>| {
        m.iter().map(|(k, n)| format!("{n} {}", Sanitized(k))).collect::<Vec<_>>().join(", ")
    };
    if s.differs() {
        let by: Vec<String> = s.changes.iter().map(|(k, n)| format!("{n} {}", change_label(k))).collect();
        writeln!(out, "{} changes ({})", s.change_count(), by.join(", "))?;
    } else {
        writeln!(out, "no differences")?;
    }
    if s.identical > 0 {
        writeln!(out, "identical: {} ({})", s.identical, kinds(&s.identical_by_kind))?;
    }
    Ok(())
}

/// `animscope A --diff B`: the TUI in diff mode (A is the embedded demo when not given).
pub(super) fn tui(a: Option<&Path>, b: &Path, g: &Resolved) -> Result<Outcome, CliError> {
    use std::io::IsTerminal;
    if let Some(why) = crate::tui::terminal_refusal() {
        return Err(CliError::Usage(why));
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(format!(
            "the TUI needs a terminal (stdin and stdout); without one use `animscope diff A {}`",
            Sanitized(b.display())
        )));
    }
    // Both files are listed whole: the changes are computed once, over everything.
    let a = match a {
        Some(f) => g.open(f)?,
        None => crate::demo::open(&g.limits)?,
    };
    let b = g.open(b)?;
    crate::tui::run_diff(a, b, g.keymap.as_deref()).map_err(CliError::Io)?;
    Ok(Outcome::Clean)
}
