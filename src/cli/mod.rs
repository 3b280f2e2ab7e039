//! The command line: every verb the TUI offers, over any supported file.
//!
//! Node addresses: a path of keys from the root (`DATA.BIN/xasc00.cmp/Model[MDL_a]/mmat[2]`,
//! the root key may be left out, a segment may be a bare kind when unique: `Model`), an
//! offset (`@0x150`, `@336`: the innermost node there), or both (`xasc00.cmp@0x150`:
//! offset inside that member). Paths descend into archive members.
//!
//! Exit codes: 0 clean, 1 findings (check/survey found problems), 2 usage or I/O error.
//! Output that cannot be written (a full disk, `> /dev/full`) is an error naming the
//! stream (exit 2); a closed pipe (`| head -1`) ends output quietly with 0. Nothing is
//! written with `print!`/`eprintln!`, which panic on a failed write: stderr lines go
//! through [`crate::say!`], stdout through the verb's writer.

mod args;
mod batch;
mod clip_stream;
pub mod diff;
pub mod dump;
mod export;
pub mod hex;
mod import;
mod layout;
mod man;
mod plot;
pub mod pose;
mod resolved;
mod set;
mod verbs;

use crate::session::OpenError;
use args::{ADDRESS_FORMS, EXIT_CODES};
pub use args::{
    AnimSel, Cli, Cmd, ColorWhen, DecodeArgs, DiffArgs, ExportArgs, ExtractArgs, GlobalArgs, HexArgs, LayoutCmd,
    PlotArgs, PoseArgs, SkeletonArgs, TreeArgs,
};
pub use resolved::{Mode, Resolved};
use std::io::Write;
use std::process::ExitCode;

/// A failure that ends a command: exit code 2 with one line on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Opening or addressing failed.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// Bad arguments.
    #[error("{0}")]
    Usage(String),
    /// An export failed.
    #[error(transparent)]
    Export(#[from] crate::export::ExportError),
    /// Output failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl CliError {
    /// The standard stream whose write failed, when that is what ended the command.
    pub fn failed_stream(&self) -> Option<crate::stdio::Stream> {
        let mut next: Option<&(dyn std::error::Error + 'static)> = Some(self);
        while let Some(e) = next {
            if let Some(s) = e.downcast_ref::<std::io::Error>().and_then(crate::stdio::stream_of) {
                return Some(s);
            }
            next = e.source();
        }
        None
    }
}

/// What a verb found: clean or findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to report.
    Clean,
    /// Problems found (exit 1).
    Findings,
    /// Some inputs of a batch could not be read (exit 2; each was reported as it came).
    Unreadable,
}

/// Verbs (not the TUI, which has its own signal thread): SIGTERM, SIGHUP and SIGINT
/// remove the temp file of an export being written, then end the process with 128 +
/// signal, as the default action would. (SIGKILL cannot be caught: its `.tmpXXXXXX` stays.)
fn remove_temps_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT]) else { return };
    let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
        if let Some(sig) = signals.forever().next() {
            crate::export::stream::remove_pending_temps();
            std::process::exit(128 + sig);
        }
    });
}

/// Entry point for the binary.
pub fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(v) = version_only(&args) {
        // clap's answer, without building the command line's ~40 verbs first
        return match crate::stdio::out_text(&v) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&CliError::Io(e)),
        };
    }
    // built once: the typo check and the parse share it
    let mut cmd = Cli::command();
    if let Some(m) = misspelt_verb(&args, &cmd) {
        let _ = crate::say!("animscope: {}", crate::model::sanitize(&m));
        return ExitCode::from(2);
    }
    // as `Cli::parse_from`: help, version and usage errors print and end the command
    let cli = match cmd.try_get_matches_from_mut(args) {
        Ok(mut matches) => Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut Cli::command())),
        Err(e) => Err(e),
    };
    // the command line's ~40 verbs and their arguments are left to the exit, not freed one
    // by one (0.13 M instructions of every command)
    std::mem::forget(cmd);
    let cli = match cli {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let res = Resolved::new(cli).and_then(|(args, mode)| match mode {
        // The TUI writes to the terminal itself, and its signal and panic handlers must be able
        // to take the stdout lock from other threads, so it never runs under a held lock.
        Mode::Tui { .. } => run_resolved(&args, mode, &mut std::io::sink()),
        Mode::Verb(_) => {
            // the signal thread starts with the verb's first temp file: print-only verbs
            // (`info`, `decode`) start none
            crate::export::stream::before_first_temp(remove_temps_on_signals);
            EXITS_AFTER_VERB.store(true, std::sync::atomic::Ordering::Relaxed);
            let out = std::io::stdout();
            // Every verb's output counts against the output cap (`--limit output=…`), as
            // export files do: a small input declaring huge counts cannot write for minutes
            // past it.
            let mut out = crate::export::stream::CappedWriter::per_command(
                std::io::BufWriter::new(crate::stdio::Marked::new(out.lock(), crate::stdio::Stream::Stdout)),
                args.limits.max_output,
            );
            run_resolved(&args, mode, &mut out).and_then(|o| {
                out.flush()?;
                Ok(o)
            })
        }
    });
    match res {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Findings) => ExitCode::from(1),
        Ok(Outcome::Unreadable) => ExitCode::from(2),
        Err(e) => fail(&e),
    }
}

/// The end of a command that failed: a closed pipe quietly with 0 (as `rg` and `cat` do),
/// anything else with one line on stderr and 2. When stderr itself cannot be written, the
/// exit code is all that is left.
fn fail(e: &CliError) -> ExitCode {
    if crate::stdio::is_broken_pipe(e) {
        return ExitCode::SUCCESS;
    }
    let _ = crate::say!("animscope: {}", crate::model::Sanitized(e));
    ExitCode::from(2)
}

/// As clap's `Error::exit` (help and version on stdout with 0, usage errors on stderr
/// with 2), but a failed write is said instead of dropped.
fn clap_exit(e: &clap::Error) -> ExitCode {
    let stream = if e.use_stderr() { crate::stdio::Stream::Stderr } else { crate::stdio::Stream::Stdout };
    match e.print().and_then(|()| std::io::Write::flush(&mut std::io::stdout())) {
        Ok(()) => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)),
        Err(w) => fail(&CliError::Io(crate::stdio::failed(stream, w))),
    }
}

/// Set by the binary's [`main`]: the process exits right after the verb, so what a
/// print-only verb built need not be dropped (see [`leave_to_exit`]).
static EXITS_AFTER_VERB: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// End of a print-only verb (`info`, `tree`, `fields`, `check`, `walk`): when the binary
/// exits right after it, `built` is left to the exit instead of dropped (freeing a large
/// document node by node costs a fifth of `info` on a MOTN file of 1,300 sequences); run
/// in process (tests, the library), it is dropped as usual.
pub(crate) fn leave_to_exit<T>(built: T) {
    if EXITS_AFTER_VERB.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(built);
    }
}

/// The command line as users see it, hidden verbs left out (completion scripts and the
/// man page are generated from it).
pub fn user_command() -> clap::Command {
    use clap::CommandFactory;
    let full = Cli::command();
    let visible: Vec<clap::Command> = full.get_subcommands().filter(|c| !c.is_hide_set()).cloned().collect();
    let mut cmd = clap::Command::new("animscope")
        .version(env!("CARGO_PKG_VERSION"))
        .args(full.get_arguments().cloned())
        .subcommands(visible);
    if let Some(a) = full.get_about() {
        // the man page puts the name in front itself
        let about = a.to_string();
        cmd = cmd.about(about.strip_prefix("animscope — ").unwrap_or(&about).to_string());
    }
    if let Some(h) = full.get_after_help() {
        cmd = cmd.after_help(h.clone());
    }
    cmd
}

/// What `animscope --version` (or `-V`) alone prints, as clap prints it (`NAME VERSION`);
/// None for any other command line.
fn version_only(args: &[std::ffi::OsString]) -> Option<String> {
    match args {
        [_, flag] if flag == "--version" || flag == "-V" => Some(format!("animscope {}\n", env!("CARGO_PKG_VERSION"))),
        _ => None,
    }
}

/// The verbs a user may type (hidden ones left out), for suggestions.
fn visible_verbs(cmd: &clap::Command) -> Vec<String> {
    cmd.get_subcommands().filter(|c| !c.is_hide_set()).map(|c| c.get_name().to_string()).collect()
}

/// Before clap: a first word that is neither a verb nor an existing file but looks like
/// a verb is a typo (`animscope tre FILE`); say which verb was meant, never a hidden one.
/// Clap alone would open the TUI on a file `tre` or report the FILE as unexpected.
fn misspelt_verb(args: &[std::ffi::OsString], cmd: &clap::Command) -> Option<String> {
    let mut words = args.iter().skip(1);
    let mut first = None;
    let mut rest = 0usize;
    while let Some(a) = words.next() {
        let s = a.to_str()?;
        if s == "--" {
            return None;
        }
        if matches!(s, "--format" | "--keymap" | "--limit") {
            words.next();
            continue;
        }
        if s.starts_with('-') {
            continue;
        }
        if first.is_none() {
            first = Some(s);
        } else {
            rest += 1;
        }
    }
    let first = first?;
    let known = first == "help" || cmd.get_subcommands().any(|c| c.get_name() == first);
    if known || std::path::Path::new(first).exists() || first.contains(['/', '.']) {
        return None;
    }
    let verbs = visible_verbs(cmd);
    match crate::text::did_you_mean(first, verbs.iter().map(String::as_str)) {
        Some(v) => Some(format!("no verb or file {first}; did you mean `animscope {v}`?")),
        None if rest > 0 => Some(format!("no verb {first} (verbs: {})", verbs.join(", "))),
        None => None,
    }
}

/// Run a parsed command line, writing to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let (args, mode) = Resolved::new(cli)?;
    run_resolved(&args, mode, out)
}

/// Run the resolved command line: the TUI, or a verb writing to `out`.
fn run_resolved(args: &Resolved, mode: Mode, out: &mut dyn Write) -> Result<Outcome, CliError> {
    crate::tui::set_low_bandwidth(args.low_bandwidth);
    match mode {
        Mode::Tui { file, diff: Some(b) } => diff::tui(file.as_deref(), &b, args),
        Mode::Tui { file, diff: None } => verbs::tui(file.as_deref(), args),
        Mode::Verb(cmd) => verbs::run(*cmd, args, out),
    }
}

#[cfg(test)]
mod start_tests {
    use super::*;

    /// The answer to `--version` made without clap is clap's (`render_version`), and only
    /// that command line gets it.
    #[test]
    fn version_alone_is_clap_s_answer() {
        use clap::CommandFactory;
        let args = |a: &[&str]| a.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        let clap_says = Cli::command().render_version();
        assert_eq!(version_only(&args(&["animscope", "--version"])).as_deref(), Some(clap_says.as_str()));
        assert_eq!(version_only(&args(&["animscope", "-V"])).as_deref(), Some(clap_says.as_str()));
        for other in [&["animscope"][..], &["animscope", "--version", "x"], &["animscope", "info", "--version"]] {
            assert_eq!(version_only(&args(other)), None, "{other:?}");
        }
    }
}
