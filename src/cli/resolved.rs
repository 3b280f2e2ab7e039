//! The command line resolved once (ripgrep's `HiArgs`): clap's parse ([`super::Cli`]) becomes
//! one [`Resolved`] value holding what every verb runs with — the limits, the forced format,
//! the mmap choice, the user layouts, the keymap — and the [`Mode`] to run. No verb parses a
//! global option again.

use super::{Cli, CliError, Cmd};
use crate::layout::LayoutSet;
use crate::limits::Limits;
use crate::session::{OpenError, Opened};
use crate::source::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// What a command runs with, resolved once from its command line.
#[derive(Debug, Default)]
pub struct Resolved {
    /// `--format`: the format forced instead of sniffed.
    pub format: Option<String>,
    /// How inputs are opened (`--no-mmap`).
    pub open_options: OpenOptions,
    /// The command's one budget: the defaults with every `--limit` applied, passed down to
    /// every open, decode, export and side file.
    pub limits: Limits,
    /// `--layouts DIR`: user layouts read after those of the user's config folder.
    pub layouts_dir: Option<PathBuf>,
    /// `--keymap`: the file patching the TUI's default bindings.
    pub keymap: Option<PathBuf>,
    /// `--low-bandwidth`: the TUI without colours, in fewer bytes.
    pub low_bandwidth: bool,
    /// The user layouts, read on first use and once per command (a batch verb over many
    /// files, or a file and its members, does not read the layout folders again for each).
    layout_set: OnceLock<Option<Arc<LayoutSet>>>,
}

/// What a command line runs.
#[derive(Debug)]
pub enum Mode {
    /// The TUI on `file` (the embedded demo when None), in diff mode against `diff`.
    Tui {
        /// The file to browse.
        file: Option<PathBuf>,
        /// `--diff FILE_B`.
        diff: Option<PathBuf>,
    },
    /// A verb.
    Verb(Box<Cmd>),
}

impl Resolved {
    /// Resolve clap's parse: the `--limit` values checked and applied, the options taken
    /// out; a verb given with `--diff` is a usage error.
    pub fn new(cli: Cli) -> Result<(Resolved, Mode), CliError> {
        let limits = Limits::default().with_args(&cli.global.limit).map_err(CliError::Usage)?;
        let mode = match cli.cmd {
            None => Mode::Tui { file: cli.file, diff: cli.diff },
            Some(_) if cli.diff.is_some() => {
                return Err(CliError::Usage("--diff FILE_B opens the TUI; the verb is `animscope diff A B`".into()));
            }
            Some(cmd) => Mode::Verb(Box::new(cmd)),
        };
        let resolved = Resolved {
            format: cli.global.format,
            open_options: OpenOptions { no_mmap: cli.global.no_mmap },
            limits,
            layouts_dir: cli.global.layouts,
            keymap: cli.keymap,
            low_bandwidth: cli.low_bandwidth,
            layout_set: OnceLock::new(),
        };
        Ok((resolved, mode))
    }

    /// `--no-mmap`: inputs are read into memory instead of mapped.
    pub fn no_mmap(&self) -> bool {
        self.open_options.no_mmap
    }

    /// Open `file` as the command line says (format, mmap) within `limits`, the user layouts
    /// not applied.
    pub(crate) fn open_within(&self, file: &Path, limits: &Limits) -> Result<Opened, CliError> {
        Opened::open_path(file, self.open_options, self.format.as_deref(), limits)
            .map_err(|e| self.forced_format_error(e))
    }

    /// Open `file` as the command line says, within the command's limits, with the user
    /// layouts applied.
    pub(crate) fn open(&self, file: &Path) -> Result<Opened, CliError> {
        let mut o = self.open_within(file, &self.limits)?;
        self.apply_layouts(&mut o)?;
        Ok(o)
    }

    /// The user layouts (`$XDG_CONFIG_HOME/animscope/layouts`, then `--layouts DIR`); None
    /// when there are none. A bad file of the user's directory is said and skipped; a bad
    /// file of `--layouts` is an error.
    pub(crate) fn layouts(&self) -> Result<Option<Arc<LayoutSet>>, CliError> {
        if let Some(set) = self.layout_set.get() {
            return Ok(set.clone());
        }
        let user = LayoutSet::user_dir();
        let (set, problems) = LayoutSet::load(user.as_deref(), self.layouts_dir.as_deref(), &self.limits)
            .map_err(|e| CliError::Usage(e.to_string()))?;
        for p in problems {
            crate::say!("animscope: {}", crate::model::Sanitized(&p))?;
        }
        let set = Some(Arc::new(set)).filter(|s| !s.layouts.is_empty());
        Ok(self.layout_set.get_or_init(|| set).clone())
    }

    /// Apply the user layouts to an opened input.
    pub(crate) fn apply_layouts(&self, o: &mut Opened) -> Result<(), CliError> {
        if let Some(set) = self.layouts()? {
            o.apply_layouts(&set);
        }
        Ok(())
    }

    /// A `--format` that names no format is a usage error listing the formats (without the
    /// byte offset a parse error shows).
    pub(crate) fn forced_format_error(&self, e: OpenError) -> CliError {
        match (&e, self.format.as_deref()) {
            (OpenError::Parse { err, .. }, Some(id))
                if err.offset == 0
                    && matches!(&err.kind, crate::error::ErrorKind::NotFound(m) if m.starts_with("format ")) =>
            {
                let ids: Vec<&str> = crate::formats::all().iter().map(|f| f.id()).collect();
                let hint = crate::text::did_you_mean(id, ids.iter().copied())
                    .map(|s| format!("; did you mean {s}?"))
                    .unwrap_or_default();
                CliError::Usage(format!(
                    "--format {}: no such format{hint} (formats: {})",
                    crate::model::sanitize(id),
                    ids.join(", ")
                ))
            }
            _ => CliError::Open(e),
        }
    }
}
