//! `diff A B [NODE]`: the structure-aware comparison (`crate::diff`) as text or JSON Lines.
//! Text sanitises names from the files; JSON keeps them exact.

use super::{CliError, Global, Outcome, open};
use crate::diff::{self, AnimChange, Change, ChannelChange, KeyAt, Options, Summary, What};
use crate::model::{NodeId, Sanitized, Span, fmt_num};
use crate::session::Opened;
use serde_json::{Value as Json, json};
use std::io::Write;
use std::path::Path;

/// What `diff` was asked.
#[derive(Debug, Clone)]
pub struct DiffArgs<'a> {
    /// The original.
    pub a: &'a Path,
    /// The modified file.
    pub b: &'a Path,
    /// Subtree to compare (an address valid in both files).
    pub node: Option<&'a str>,
    /// JSON Lines.
    pub json: bool,
    /// Every differing key, not only the first per channel.
    pub keys: bool,
    /// Values closer than this are equal.
    pub tolerance: f64,
}

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
            Ok(o.resolve(addr, &limits)?)
        }
    }
}

/// Run `diff`: exit 0 when equal, 1 when they differ (2 on errors, by the caller).
pub fn run(args: &DiffArgs, g: &Global, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if args.tolerance.is_nan() || args.tolerance < 0.0 {
        return Err(CliError::Usage(format!("--tolerance {}: must be a number ≥ 0", args.tolerance)));
    }
    let (mut a, ia) = resolve(open(args.a, g)?, args.node)?;
    let (mut b, ib) = resolve(open(args.b, g)?, args.node)?;
    let path = if args.node.is_some() { report_path(&a, ia) } else { a.doc().root().key.to_string() };
    let opts = Options { tolerance: args.tolerance, all_keys: args.keys, ..Options::default() };
    let json = args.json;
    let summary = diff::diff(&mut *a, ia, &mut *b, ib, &path, &opts, &mut |c| {
        if json { writeln!(out, "{}", change_json(c)) } else { write_change_text(c, out) }
    })?;
    if json {
        writeln!(out, "{}", summary_json(&summary))?;
    } else {
        write_summary_text(&summary, out)?;
    }
    Ok(if summary.differs() { Outcome::Findings } else { Outcome::Clean })
}

fn span_json(s: Option<Span>) -> Json {
    s.map_or(Json::Null, |s| json!({ "start": s.start, "end": s.end }))
}

fn key_json(k: Option<KeyAt>) -> Json {
    k.map_or(Json::Null, |k| json!({ "frame": k.frame, "value": k.value }))
}

fn channel_json(c: &ChannelChange) -> Json {
    json!({
        "name": c.name,
        "keys": [c.keys.0, c.keys.1],
        "key_changes": c.key_changes.iter().map(|k| json!({ "index": k.index, "a": key_json(k.a), "b": key_json(k.b) })).collect::<Vec<_>>(),
        "largest": c.largest.map_or(Json::Null, |l| json!({ "frame": l.frame, "a": l.a, "b": l.b, "delta": l.delta() })),
    })
}

fn anim_json(a: &AnimChange) -> Json {
    json!({
        "name": a.name,
        "frames": [a.frames.0, a.frames.1],
        "channels_only_in_a": a.channels_only_in_a,
        "channels_only_in_b": a.channels_only_in_b,
        "channels": a.channels.iter().map(channel_json).collect::<Vec<_>>(),
    })
}

/// One change as a JSON object (one line of `diff --json`).
pub fn change_json(c: &Change) -> Json {
    let mut j =
        json!({ "change": c.what.name(), "path": c.path, "kind": c.kind, "a": span_json(c.a), "b": span_json(c.b) });
    if let Some(o) = j.as_object_mut() {
        match &c.what {
            What::OnlyInA | What::OnlyInB => {}
            What::Bytes { new_kind, fields } => {
                if let Some(k) = new_kind {
                    o.insert("new_kind".into(), json!(k));
                }
                let fs: Vec<Json> =
                    fields.iter().map(|f| json!({ "name": f.name, "old": f.old, "new": f.new })).collect();
                o.insert("fields".into(), Json::Array(fs));
            }
            What::Alias { old, new } => {
                o.insert("old".into(), json!(old));
                o.insert("new".into(), json!(new));
            }
            What::Anim(a) => {
                o.insert("anim".into(), anim_json(a));
            }
            What::Unreadable { side, message } => {
                o.insert("side".into(), json!(side));
                o.insert("message".into(), json!(message));
            }
        }
    }
    j
}

/// The totals line of `diff --json`.
pub fn summary_json(s: &Summary) -> Json {
    json!({ "summary": {
        "changes": s.change_count(), "by_change": s.changes, "identical": s.identical,
        "identical_by_kind": s.identical_by_kind, "containers": s.containers,
        "moved_pointers": s.moved_pointers,
    }})
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
            for f in fields {
                writeln!(out, "    {}: {} → {}", Sanitized(&f.name), opt_text(&f.old), opt_text(&f.new))?;
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
                writeln!(out, "    channels only in A: {}", list(&a.channels_only_in_a))?;
            }
            if !a.channels_only_in_b.is_empty() {
                writeln!(out, "    channels only in B: {}", list(&a.channels_only_in_b))?;
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
        let label = |k: &str| {
            match k {
                "only_in_a" => "only in A",
                "only_in_b" => "only in B",
                "bytes" => "changed",
                "anim" => "animation",
                other => other,
            }
            .to_string()
        };
        let by: Vec<String> = s.changes.iter().map(|(k, n)| format!("{n} {}", label(k))).collect();
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
pub(super) fn tui(a: Option<&Path>, b: &Path, g: &Global, keymap: Option<&Path>) -> Result<Outcome, CliError> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(format!(
            "the TUI needs a terminal (stdin and stdout); without one use `animscope diff A {}`",
            Sanitized(b.display())
        )));
    }
    // Both files are listed whole: the changes are computed once, over everything.
    let a = match a {
        Some(f) => open(f, g)?,
        None => crate::demo::open(&g.limits)?,
    };
    let b = open(b, g)?;
    crate::tui::run_diff(a, b, keymap).map_err(CliError::Io)?;
    Ok(Outcome::Clean)
}
