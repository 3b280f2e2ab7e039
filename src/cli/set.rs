//! `set FILE NODE FIELD=VALUE… -o OUT`: write-back of field and byte edits through the
//! containers the node is nested in (`crate::edit`), one line per change on stdout.

use super::{CliError, Outcome, Resolved};
use crate::edit::{self, ByteEdit, EditError, FieldEdit, SetRequest};
use crate::model::Sanitized;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `animscope set`'s arguments.
#[derive(Debug, Args)]
pub struct SetArgs {
    /// Input file (opened read-only, never changed).
    pub file: PathBuf,
    /// Node whose fields to change (see NODE ADDRESSES); may be inside archive members and
    /// containers, which are rebuilt from the inside out.
    pub node: String,
    /// FIELD=VALUE, repeatable: a field of the node as `fields` names it, the value by the
    /// field's type: an integer (decimal, 0x hex; range-checked), a float or half float
    /// (no NaN or infinity), a fixed-point or angle value in the unit `fields` shows (or
    /// raw:N for the stored integer), an enum name, flag names joined by `|`, text.
    #[arg(value_name = "FIELD=VALUE")]
    pub edits: Vec<String>,
    /// Raw bytes OFFSET=HEX at an offset of the node's document (a member's own offsets),
    /// for bytes no field declares; repeatable, applied after the field edits.
    #[arg(long = "byte", value_name = "OFFSET=HEX")]
    pub bytes: Vec<String>,
    /// Output path (never the input).
    #[arg(short, long)]
    pub out: PathBuf,
    /// How the output is written.
    #[command(flatten)]
    pub write: WriteFlags,
}

/// How a write-back verb (`set`, `import`) writes its output.
#[derive(Debug, Args)]
pub struct WriteFlags {
    /// Let a re-deflated archive member that no longer fits its sectors grow, moving the
    /// members after it (refused by default, naming the sizes).
    #[arg(long)]
    pub grow: bool,
    /// Write even when the written file's check finds what the original's did not.
    #[arg(long)]
    pub force: bool,
    /// Replace an existing output file.
    #[arg(long)]
    pub overwrite: bool,
}

/// Run `set`: exit 0 with the changes listed, or 2 with one line and nothing written.
pub(super) fn run(args: SetArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let fields =
        args.edits.iter().map(|s| FieldEdit::parse(s)).collect::<Result<Vec<_>, _>>().map_err(CliError::Usage)?;
    let bytes =
        args.bytes.iter().map(|s| ByteEdit::parse(s)).collect::<Result<Vec<_>, _>>().map_err(CliError::Usage)?;
    let req = SetRequest {
        input: &args.file,
        node: &args.node,
        fields: &fields,
        bytes: &bytes,
        out: &args.out,
        grow: args.write.grow,
        force: args.write.force,
        overwrite: args.write.overwrite,
        no_mmap: g.no_mmap(),
    };
    let report = edit::set(g.open(&args.file)?, &req).map_err(|e| match e {
        EditError::Open(o) => CliError::Open(o),
        EditError::Refused(m) | EditError::NewFindings(m) => CliError::Usage(m),
    })?;
    for c in &report.changes {
        let line = format!("{}: {}: {} -> {}", c.path, c.what, c.old, c.new);
        writeln!(out, "{}", Sanitized(&line))?;
    }
    for n in &report.notes {
        writeln!(out, "note: {}", Sanitized(n))?;
    }
    for d in &report.new_findings {
        writeln!(out, "forced past: {d}")?;
    }
    writeln!(out, "wrote {} bytes to {}", report.written, Sanitized(&args.out.display().to_string()))?;
    Ok(Outcome::Clean)
}
