//! `import FILE CLIP --from EDIT.json|EDIT.glb -o OUT`: an edited clip written back into its file
//! (`crate::import`), the clip re-encoded natively and the containers around it rebuilt.
//! One line per written channel with its largest deviation on stderr; the output's name
//! and size on stdout.

use super::{CliError, Outcome, Resolved};
use crate::import::{ImportError, ImportRequest};
use crate::model::Sanitized;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `animscope import`'s arguments.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Input file (opened read-only, never changed).
    pub file: PathBuf,
    /// The clip to replace: an animation name of the file (an SC6 clip index, a MOTN
    /// sequence name) or a node address (`chr001.mot/clip[3]`, through archive members and
    /// containers, which are rebuilt from the inside out).
    pub clip: String,
    /// The edited clip: matrix JSON (`.json`) or glTF binary (`.glb`), as `export` writes
    /// them (joints by name).
    #[arg(long, value_name = "EDIT")]
    pub from: PathBuf,
    /// Output path (never the input).
    #[arg(short, long)]
    pub out: PathBuf,
    /// Key placement: `every` (a key per frame; SC6: every stored keyframe) or `fit=TOL`
    /// (MOTN: as few keys as keep each channel within TOL turns or metres; SC6: refused
    /// when quantisation alone passes TOL).
    #[arg(long, default_value = "every", value_name = "every|fit=TOL")]
    pub keys: String,
    /// Skeleton file the export was retargeted onto (as `export --skeleton`).
    #[arg(long)]
    pub skeleton: Option<PathBuf>,
    /// Decode option KEY=VALUE the export was made with (repeatable): sc6
    /// `lr_order=horsemod|enum`, motn `euler_order=xyz|…`.
    #[arg(long = "opt", value_name = "KEY=VALUE")]
    pub opt: Vec<String>,
    /// MOTN: when other names share the sequence, write a copy for this name only (by
    /// default every name sharing it plays the import).
    #[arg(long)]
    pub unshare: bool,
    /// How the output is written.
    #[command(flatten)]
    pub write: super::set::WriteFlags,
}

/// Run `import`: exit 0 with the deviations listed, or 2 with one line and nothing written.
pub(super) fn run(args: ImportArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let keys = crate::import::parse_keys(&args.keys).map_err(CliError::Usage)?;
    let mut opts = crate::formats::DecodeOptions::default();
    for kv in &args.opt {
        let (k, v) = kv.split_once('=').ok_or_else(|| CliError::Usage(format!("--opt {kv}: expected KEY=VALUE")))?;
        opts.extra.insert(k.trim().to_string(), v.trim().to_string());
    }
    let req = ImportRequest {
        input: &args.file,
        clip: &args.clip,
        from: &args.from,
        out: &args.out,
        keys,
        opts,
        skeleton: args.skeleton.as_deref(),
        unshare: args.unshare,
        grow: args.write.grow,
        force: args.write.force,
        overwrite: args.write.overwrite,
        no_mmap: g.no_mmap(),
    };
    let report = crate::import::import(g.open(&args.file)?, &req).map_err(|e| match e {
        ImportError::Open(o) => CliError::Open(o),
        ImportError::Input(m) | ImportError::Refused(m) => CliError::Usage(m),
    })?;
    let mut err = crate::stdio::Marked::new(std::io::stderr().lock(), crate::stdio::Stream::Stderr);
    for c in &report.channels {
        let line = format!("channel {}: {} keys, largest deviation {:.3e} {}", c.name, c.keys, c.deviation, c.unit);
        writeln!(err, "{}", Sanitized(&line))?;
    }
    for b in &report.bones {
        let line = format!("bone {}: largest deviation {:.4}° {:.5} m", b.bone, b.degrees, b.metres);
        writeln!(err, "{}", Sanitized(&line))?;
    }
    for n in &report.notes {
        writeln!(out, "note: {}", Sanitized(n))?;
    }
    for d in &report.new_findings {
        writeln!(out, "forced past: {d}")?;
    }
    writeln!(
        out,
        "imported {} frames into {}; wrote {} bytes to {}",
        report.frames,
        Sanitized(&report.path),
        report.written,
        Sanitized(&args.out.display().to_string())
    )?;
    Ok(Outcome::Clean)
}
