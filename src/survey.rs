//! `survey`: totals over whole files and archives, computed in parallel (rayon) with
//! results in input order.

use crate::cli::{CliError, Global, Outcome};
use crate::formats::{self, Survey};
use crate::limits::Limits;
use crate::model::{Sanitized, sanitize};
use crate::session::OpenError;
use crate::source::{OpenOptions, Source};
use rayon::prelude::*;
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Survey one input with its format, reporting surveyed bytes to `done` as they are
/// finished (archives member by member, other inputs at the end).
pub fn survey_file(
    path: &std::path::Path,
    g: &Global,
    limits: &Limits,
    done: &(dyn Fn(u64) + Sync),
) -> Result<Survey, CliError> {
    // Sniff only: a survey walks everything itself, so describing first would be wasted work.
    let src = Source::open(path, OpenOptions { no_mmap: g.no_mmap }).map_err(OpenError::from)?;
    let parse = |err| CliError::Open(OpenError::Parse { name: src.name().to_string(), err });
    let format = match &g.format {
        Some(id) => formats::by_id(id).ok_or_else(|| CliError::Usage(format!("unknown format {id}")))?,
        None => formats::sniff(src.bytes(), src.name()),
    };
    format.survey_progress(src.bytes(), src.name(), limits, done).map_err(parse)
}

/// The CLI verb: one block (or JSON line) per file, then totals; exit 1 on findings.
pub fn run_cli(files: &[PathBuf], g: &Global, json: bool, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let limits = Limits::default();
    // Progress in bytes, so one multi-gigabyte archive moves the bar member by member.
    let bar = (!json && std::io::stderr().is_terminal()).then(|| {
        let total: u64 = files.iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum();
        let b = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} {wide_bar} {bytes}/{total_bytes} {eta}") {
            b.set_style(style);
        }
        b.set_message("surveying");
        b
    });
    let done = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let results: Vec<Result<Survey, CliError>> = files.par_iter().map(|f| survey_file(f, g, &limits, &done)).collect();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut total = Survey { format: "total", name: "total".into(), ..Survey::default() };
    for r in results {
        let s = r?;
        print_survey(&s, json, out)?;
        total.merge(s);
    }
    if files.len() > 1 {
        print_survey(&total, json, out)?;
    }
    Ok(if total.findings.is_empty() { Outcome::Clean } else { Outcome::Findings })
}

fn print_survey(s: &Survey, json: bool, out: &mut dyn Write) -> std::io::Result<()> {
    if json {
        let findings: Vec<_> = s
            .findings
            .iter()
            .map(|d| json!({"severity": d.severity.to_string(), "offset": d.offset, "path": d.path, "message": d.message}))
            .collect();
        writeln!(out, "{}", json!({"name": s.name, "format": s.format, "counters": s.counters, "findings": findings}))
    } else {
        writeln!(out, "{} ({})", Sanitized(&s.name), s.format)?;
        for (k, v) in &s.counters {
            writeln!(out, "  {:<32} {v}", sanitize(k))?;
        }
        writeln!(out, "  {:<32} {}", "findings", s.findings.len())?;
        for d in s.findings.iter().take(20) {
            writeln!(out, "    {d}")?;
        }
        if s.findings.len() > 20 {
            writeln!(out, "    … {} more", s.findings.len() - 20)?;
        }
        Ok(())
    }
}
