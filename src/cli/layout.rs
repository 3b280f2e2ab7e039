//! `animscope layout check|export`: a user layout file read and described, or a layout
//! (a file's, or a built-in record's) written as Kaitai Struct and/or C.

use super::{CliError, LayoutCmd, Outcome, Resolved};
use std::io::Write;

/// `animscope layout …`.
pub(super) fn run(cmd: LayoutCmd, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let read = |file: &std::path::Path| {
        let mut set = crate::layout::LayoutSet::default();
        set.read_file(file, &g.limits).map_err(|e| CliError::Usage(e.to_string()))?;
        set.layouts.pop().ok_or_else(|| CliError::Usage("layout: nothing read".into()))
    };
    match cmd {
        LayoutCmd::Check { file } => {
            let l = read(&file)?;
            let fields: usize = l.structs.iter().map(|s| s.fields.len()).sum();
            let line = format!(
                "{}: layout {} for {}: {} structs, {} fields",
                file.display(),
                l.name,
                l.format,
                l.structs.len(),
                fields
            );
            writeln!(out, "{}", crate::model::Sanitized(&line))?;
        }
        LayoutCmd::Export { file, record, ksy, c, force } => {
            if ksy.is_none() && c.is_none() {
                return Err(CliError::Usage("layout export: give --ksy OUT and/or --c OUT".into()));
            }
            let l = match (file, record) {
                (Some(file), _) => read(&file)?,
                (None, Some(name)) => record_layout(&name)?,
                (None, None) => return Err(CliError::Usage("layout export: give a layout file or --record".into())),
            };
            // both made and both targets checked before either is written
            let files = crate::layout::export::files(&l, ksy.as_deref(), c.as_deref())
                .map_err(|e| CliError::Usage(format!("layout export: {e}")))?;
            let refs: Vec<(std::path::PathBuf, &[u8])> = files.iter().map(|(p, t)| (p.clone(), t.as_bytes())).collect();
            crate::export::write_all_or_nothing(&refs, force, g.limits.max_output)
                .map_err(|e| CliError::Usage(format!("layout export: {e}")))?;
        }
    }
    Ok(Outcome::Clean)
}

/// The built-in record `name` (its type, or its spec name when that names one record) as a
/// layout to export.
fn record_layout(name: &str) -> Result<crate::layout::Layout, CliError> {
    let usage = |m: String| CliError::Usage(format!("layout export: {}", crate::model::sanitize(&m)));
    let all: Vec<_> = crate::formats::record_tables().collect();
    let by_type: Vec<_> = all.iter().filter(|(_, r)| r.ty == name).collect();
    let found = if by_type.is_empty() {
        all.iter().filter(|(_, r)| r.name.eq_ignore_ascii_case(name)).collect()
    } else {
        by_type
    };
    let (format, table) = match found.as_slice() {
        [one] => **one,
        [] => {
            let types: Vec<_> = all.iter().map(|(_, r)| r.ty).collect();
            return Err(usage(format!("no built-in record {name} (records: {})", types.join(", "))));
        }
        many => {
            let types: Vec<_> = many.iter().map(|(_, r)| r.ty).collect();
            return Err(usage(format!("{name} names several records; give one of {}", types.join(", "))));
        }
    };
    let structs = table.structs().map_err(|e| usage(format!("record {} cannot be a layout: {e}", table.ty)))?;
    Ok(crate::layout::Layout {
        name: table.ty.to_string(),
        origin: format!("built-in {format} record {}", table.name),
        format: format.to_string(),
        target: crate::layout::Target::default(),
        structs,
        root: 0,
    })
}
