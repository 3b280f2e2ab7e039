//! Verbs over many inputs (`survey`, `check`): directories are walked recursively in sorted
//! order, every input is reported, and an unreadable one costs one line on stderr, never
//! the rest of the batch (exit 2 at the end if any could not be read, else 1 on findings).

use super::{CliError, Outcome, Resolved};
use crate::formats::Survey;
use crate::model::{Sanitized, sanitize};
use crate::survey::{SurveyOptions, survey_files};
use crate::wire;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// The inputs named: files as given, directories replaced by every regular file under them
/// (sorted by path, named relative to the argument as given; symlinks not followed, so no
/// loop). Unreadable directories are reported; every entry skipped (a FIFO, a device, a
/// socket, a symlink) costs one line on stderr saying why, and a count ends the walk.
pub(super) fn expand(paths: &[PathBuf], errors: &mut usize) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut skipped = 0usize;
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk_dir(p, &mut found, errors, &mut skipped)?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    if skipped > 0 {
        crate::say!(
            "animscope: skipped {skipped} entries that are not regular files (FIFOs, devices, sockets, symlinks)"
        )?;
    }
    Ok(out)
}

/// Why a directory entry of type `t` is not an input of a batch.
fn skip_reason(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_symlink() {
        "a symbolic link (not followed: it could loop or leave the directory)"
    } else if t.is_fifo() {
        "a FIFO (reading it could block)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// A failed write of the lines on stderr is returned.
fn walk_dir(dir: &Path, out: &mut Vec<PathBuf>, errors: &mut usize, skipped: &mut usize) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            crate::say!("animscope: {}: {e}", Sanitized(dir.display()))?;
            *errors += 1;
            return Ok(());
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk_dir(&path, out, errors, skipped)?,
            Ok(t) if t.is_file() => out.push(path),
            Ok(t) => {
                crate::say!("animscope: {}: skipped: {}", Sanitized(path.display()), skip_reason(t))?;
                *skipped += 1;
            }
            Err(e) => {
                crate::say!("animscope: {}: skipped: {e}", Sanitized(path.display()))?;
                *skipped += 1;
            }
        }
    }
    Ok(())
}

/// An open error of a batch input, naming the input by its path as given rather than its
/// base name.
fn named_by_path(e: crate::session::OpenError, path: &Path) -> crate::session::OpenError {
    match e {
        crate::session::OpenError::Parse { err, .. } => {
            crate::session::OpenError::Parse { name: path.display().to_string(), err }
        }
        other => other,
    }
}

fn outcome(unreadable: usize, findings: bool) -> Outcome {
    if unreadable > 0 {
        Outcome::Unreadable
    } else if findings {
        Outcome::Findings
    } else {
        Outcome::Clean
    }
}

/// `survey`: one block (or JSON line) per input, then totals.
pub(super) fn survey(files: &[PathBuf], g: &Resolved, json: bool, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let mut unreadable = 0;
    let files = expand(files, &mut unreadable)?;
    let limits = g.limits;
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
    let opts = SurveyOptions { no_mmap: g.no_mmap(), format: g.format.clone() };
    let mut total = Survey { format: "total", name: "total".into(), ..Survey::default() };
    let mut surveyed = 0usize;
    let mut write_err = None;
    survey_files(&files, &opts, &limits, &done, &mut |path, r| match r.map_err(|e| named_by_path(e, path)) {
        Ok(mut s) => {
            // named as given (`DIR/a/x.mot`), so two inputs of one name are told apart
            s.name = path.display().to_string();
            if write_err.is_none()
                && let Err(e) = print_survey(&s, json, out)
            {
                write_err = Some(e);
            }
            surveyed += 1;
            total.merge(s);
        }
        Err(e) => {
            if write_err.is_none()
                && let Err(w) = crate::say!("animscope: {}", Sanitized(&e))
            {
                write_err = Some(w);
            }
            unreadable += 1;
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_err {
        return Err(e.into());
    }
    if surveyed > 1 {
        print_survey(&total, json, out)?;
    }
    Ok(outcome(unreadable, !total.findings.is_empty()))
}

fn print_survey(s: &Survey, json: bool, out: &mut dyn Write) -> std::io::Result<()> {
    if json {
        writeln!(out, "{}", wire::SurveyLine::new(s))
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

/// `check`: every finding of every input (the strict check reuses the parse), then one
/// summary line per input.
pub(super) fn check(files: &[PathBuf], g: &Resolved, json: bool, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let mut unreadable = 0;
    let files = expand(files, &mut unreadable)?;
    let limits = g.limits;
    let mut any = false;
    // inputs that were clean, had findings, opened as `raw` (nothing a format checks)
    let (mut clean, mut problems, mut unrecognised) = (0usize, 0usize, 0usize);
    // One file: what its check built is left to the exit (many files: each is dropped,
    // so memory does not add up over the files).
    let single = files.len() == 1;
    for f in &files {
        // named as given (`DIR/a/x.mot`), so two inputs of one name are told apart
        let checked = g.open(f).and_then(|o| {
            if !o.format().recognises_structure() {
                return Ok((f.display().to_string(), None));
            }
            let findings = o.check(&limits).map_err(|err| CliError::Open(o.error(err)))?;
            if single {
                super::leave_to_exit(o);
            }
            Ok((f.display().to_string(), Some(findings)))
        });
        let checked = checked.map_err(|e| match e {
            CliError::Open(e) => CliError::Open(named_by_path(e, f)),
            other => other,
        });
        let (title, findings) = match checked {
            Ok(x) => x,
            Err(e) => {
                crate::say!("animscope: {}", Sanitized(&e))?;
                unreadable += 1;
                continue;
            }
        };
        let Some(findings) = findings else {
            // a clean "ok" would read as checked: no format recognised the bytes
            unrecognised += 1;
            any = true;
            if json {
                let d = crate::model::Diagnostic::new(
                    crate::model::Severity::Error,
                    None,
                    "",
                    "not recognised: nothing checked",
                );
                writeln!(out, "{}", wire::Finding::in_file(&title, &d))?;
            } else {
                writeln!(out, "{}: not recognised: nothing checked", Sanitized(&title))?;
            }
            continue;
        };
        any |= !findings.is_empty();
        if findings.is_empty() {
            clean += 1;
        } else {
            problems += 1;
        }
        for d in &findings {
            if json {
                writeln!(out, "{}", wire::Finding::in_file(&title, d))?;
            } else {
                writeln!(out, "{}: {d}", Sanitized(&title))?;
            }
        }
        if !json {
            writeln!(
                out,
                "{}: {} ({} findings)",
                Sanitized(&title),
                if findings.is_empty() { "ok" } else { "problems" },
                findings.len()
            )?;
        }
    }
    if !json && files.len() > 1 {
        writeln!(
            out,
            "checked {} inputs: {clean} ok, {problems} with problems, {unrecognised} not recognised (nothing \
             checked), {unreadable} unreadable",
            files.len()
        )?;
    }
    Ok(outcome(unreadable, any))
}
