//! The command line: every verb the TUI offers, over any supported file.
//!
//! Node addresses: a path of keys from the root (`DATA.BIN/xasc00.cmp/Model[MDL_a]/mmat[2]`,
//! the root key may be left out, a segment may be a bare kind when unique: `Model`), an
//! offset (`@0x150`, `@336`: the innermost node there), or both (`xasc00.cmp@0x150`:
//! offset inside that member). Paths descend into archive members.
//!
//! Exit codes: 0 clean, 1 findings (check/survey found problems), 2 usage or I/O error.
//! A closed pipe ends output quietly with 0.

mod batch;
mod clip_stream;
pub mod diff;
pub mod dump;
pub mod hex;
mod import;
mod man;
mod plot;
pub mod pose;
mod set;
mod verbs;

use crate::limits::Limits;
use crate::session::{OpenError, Opened};
use crate::source::OpenOptions;
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const ADDRESSING: &str = "\
NODE ADDRESSES:
  NAME        a node's name alone, as the TUI's goto takes it: A_WALK_L_02 or
              seq[A_WALK_L_02] (unique in the file; a miss suggests the nearest)
  PATH        keys from the root joined by '/', e.g. demo.bin/chr001.mot/clip[3]
              (the root key may be omitted; a bare kind like 'Header' matches a
              unique child 'Header[...]'; paths descend into archive members)
  @OFF        the innermost node at byte offset OFF (0x150 or 336)
  PATH@OFF    offset OFF inside the document PATH leads to (e.g. a member)

EXIT CODES: 0 clean, 1 findings, 2 usage or I/O error";

/// The forms of a node address, for the man page (the same as [`ADDRESSING`] says).
const ADDRESS_FORMS: [(&str, &str); 4] = [
    (
        "NAME",
        "a node's name alone, as the TUI's goto takes it: A_WALK_L_02 or seq[A_WALK_L_02] (unique in \
         the file; a miss suggests the nearest)",
    ),
    (
        "PATH",
        "keys from the root joined by '/', e.g. demo.bin/chr001.mot/clip[3] (the root key may be \
         omitted; a bare kind like 'Header' matches a unique child 'Header[...]'; paths descend into \
         archive members)",
    ),
    ("@OFF", "the innermost node at byte offset OFF (0x150 or 336)"),
    ("PATH@OFF", "offset OFF inside the document PATH leads to (e.g. a member)"),
];

/// The exit codes, for the man page (as [`ADDRESSING`] says them).
const EXIT_CODES: [(u8, &str); 3] = [
    (0, "clean: nothing found (check, survey, diff: no findings, no differences)"),
    (1, "findings: check or survey found problems, diff found differences"),
    (2, "a usage or I/O error, or an input that does not open"),
];

/// animscope — inspect game animation and scene archives byte by byte.
#[derive(Debug, Parser)]
#[command(name = "animscope", version, about, after_help = ADDRESSING)]
pub struct Cli {
    /// File to open in the TUI (none: the embedded demo archive).
    pub file: Option<PathBuf>,
    /// A second file to compare FILE with in the TUI (diff mode).
    #[arg(long, value_name = "FILE_B")]
    pub diff: Option<PathBuf>,
    /// Options every verb takes.
    #[command(flatten)]
    pub global: Global,
    /// Keymap file patching the default bindings (TUI).
    #[arg(long, global = true)]
    pub keymap: Option<PathBuf>,
    /// TUI for a slow link: no colours, fewer bytes (also ANIMSCOPE_LOW_BANDWIDTH=1; a key toggles it).
    #[arg(long)]
    pub low_bandwidth: bool,
    /// The verb (none: open the TUI).
    #[command(subcommand)]
    pub cmd: Option<Cmd>,
}

/// Options every verb takes.
#[derive(Debug, Args, Clone, Default)]
pub struct Global {
    /// Force a format instead of sniffing (raw, sc6, motn, ccsf, gzarc, ...).
    #[arg(long, global = true)]
    pub format: Option<String>,
    /// Read the file into memory instead of mapping it.
    #[arg(long, global = true)]
    pub no_mmap: bool,
    /// Raise or lower a resource limit, KEY=SIZE (repeatable; sizes like 512M, 2G, none):
    /// memory (budget per document / archive member, default 96M), output (most bytes a
    /// command's exports write, default 16G), inflated (per archive member, default 128M), input (read
    /// into memory, default 4G), side-file (skeleton / frames file, default 64M).
    #[arg(long = "limit", value_name = "KEY=SIZE", global = true)]
    pub limit: Vec<String>,
    /// The command's one budget: the defaults with `limit` applied, resolved once by
    /// [`run`] and passed down to every open, decode, export and side file.
    #[arg(skip)]
    pub limits: Limits,
    /// A directory of user layout files (*.toml) labelling bytes the formats leave opaque,
    /// read after those of $XDG_CONFIG_HOME/animscope/layouts (see docs/GUIDE.md).
    #[arg(long, value_name = "DIR", global = true)]
    pub layouts: Option<PathBuf>,
    /// The user layouts, read once per command (a batch verb over many files, or a file
    /// and its members, does not read the layout folders again for each).
    #[arg(skip)]
    pub layout_set: std::sync::Arc<std::sync::OnceLock<Option<std::sync::Arc<crate::layout::LayoutSet>>>>,
}

/// Which animation to decode: a node path, or a format selector.
#[derive(Debug, Args, Clone, Default)]
pub struct AnimSel {
    /// Node address of a clip/sequence/Anime (see NODE ADDRESSES), or of the member holding it.
    pub node: Option<String>,
    /// The animation by name: an SC6 clip index (181) or packed motion id (0x10B5), a MOTN
    /// sequence name, a CCSF Anime name.
    #[arg(long, value_name = "NAME")]
    pub anim: Option<String>,
    /// Alias of --anim (SC6 clip index or packed motion id).
    #[arg(long, value_name = "NAME")]
    pub clip: Option<String>,
    /// Alias of --anim (MOTN sequence name).
    #[arg(long, value_name = "NAME")]
    pub seq: Option<String>,
    /// Alias of --anim (CCSF Anime name).
    #[arg(long, value_name = "NAME")]
    pub anime: Option<String>,
    /// SC6 selector stream override: default, alternate, skill-check.
    #[arg(long)]
    pub stream: Option<String>,
    /// Format decode option KEY=VALUE (repeatable): sc6 `lr_order=horsemod|enum`,
    /// motn `euler_order=xyz|zyx|…`, ccsf `frames=N`.
    #[arg(long = "opt", value_name = "KEY=VALUE")]
    pub opt: Vec<String>,
}

impl AnimSel {
    /// The one animation name given by `--anim` or an alias; two at once is a usage error.
    pub fn selector(&self) -> Result<Option<&str>, CliError> {
        let given: Vec<(&str, &str)> =
            [("--anim", &self.anim), ("--clip", &self.clip), ("--seq", &self.seq), ("--anime", &self.anime)]
                .into_iter()
                .filter_map(|(flag, v)| v.as_deref().map(|v| (flag, v)))
                .collect();
        match given.as_slice() {
            [] => Ok(None),
            [(_, v)] => Ok(Some(v)),
            [(a, _), (b, _), ..] => Err(CliError::Usage(format!("{a} and {b} both name an animation; give one"))),
        }
    }
}

/// The verbs.
#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// Format, size, node and field counts, diagnostics.
    Info {
        /// Input file.
        file: PathBuf,
        /// Node to describe (default: the root).
        node: Option<String>,
        /// One JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The document tree with spans.
    Tree {
        /// Input file.
        file: PathBuf,
        /// Subtree to show (default: the root).
        node: Option<String>,
        /// Deepest level shown; members within it are opened. A container inside a file
        /// (a PKS's IPAC) costs no level: its members count as its own level.
        #[arg(long)]
        depth: Option<usize>,
        /// Also list every field.
        #[arg(long)]
        fields: bool,
        /// JSON Lines, one node per line, depth-first.
        #[arg(long)]
        json: bool,
    },
    /// A node's fields: name, value with meaning, offset, size, note.
    Fields {
        /// Input file.
        file: PathBuf,
        /// Node address.
        node: String,
        /// One JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Hex dump with each row's field names (hexyl's colours and glyphs).
    Hex {
        /// Input file.
        file: PathBuf,
        /// Node (its bytes are dumped unless --at/--len say otherwise); may enter a member.
        node: Option<String>,
        /// Start offset (hex 0x.. or decimal).
        #[arg(long, short = 's', visible_alias = "skip")]
        at: Option<String>,
        /// Bytes to show (default: the node's span, at most 512 without --len).
        #[arg(long, short = 'n', visible_alias = "length")]
        len: Option<String>,
        /// Colour bytes by category: auto (on a terminal, unless NO_COLOR is set), always, never.
        #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
        color: ColorWhen,
        /// Show every row (identical rows are squeezed to one `*` line by default).
        #[arg(long, short = 'v')]
        no_squeezing: bool,
    },
    /// The walker's decisions, one per line.
    Walk {
        /// Input file.
        file: PathBuf,
        /// Member or node whose document's walk to show.
        node: Option<String>,
        /// JSON Lines, one step per line.
        #[arg(long)]
        json: bool,
    },
    /// A clip's stored keys and every channel at every logical frame, with units.
    Decode {
        /// Input file.
        file: PathBuf,
        /// What to decode.
        #[command(flatten)]
        sel: AnimSel,
        /// One JSON object.
        #[arg(long)]
        json: bool,
        /// Only the curves (keys and per-frame samples): no per-key text, tables or poses.
        /// Much faster on big files; for scripts that dump many clips.
        #[arg(long)]
        curves_only: bool,
    },
    /// Totals over whole files or archives (members in parallel).
    Survey {
        /// Input files or directories (walked recursively, sorted).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// JSON Lines: one object per file, then a totals object.
        #[arg(long)]
        json: bool,
    },
    /// Strict consistency checks; exit 1 when anything is found.
    Check {
        /// Input files or directories (walked recursively, sorted).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// JSON Lines, one finding per line.
        #[arg(long)]
        json: bool,
    },
    /// Compare two files structure by structure (aligned by node path, not offset); exit 1
    /// when they differ.
    Diff {
        /// The original file (A).
        a: PathBuf,
        /// The modified file (B).
        b: PathBuf,
        /// Subtree to compare: an address valid in both files (see NODE ADDRESSES).
        node: Option<String>,
        /// JSON Lines: one change per line, then a summary object.
        #[arg(long)]
        json: bool,
        /// List every differing key of a channel (default: the first).
        #[arg(long)]
        keys: bool,
        /// One line per changed animation or top-level structure: its changes counted,
        /// channels only on one side counted, its aliases named.
        #[arg(long, conflicts_with = "keys")]
        summary: bool,
        /// Key and sample values closer than T are equal (float noise).
        #[arg(long, value_name = "T", default_value_t = 0.0)]
        tolerance: f64,
    },
    /// Plot one channel as an ASCII curve.
    Plot {
        /// Input file.
        file: PathBuf,
        /// What to decode.
        #[command(flatten)]
        sel: AnimSel,
        /// Channel name (e.g. root.x); repeat for several. With --node, the channel of
        /// that node (rx, py, ...).
        #[arg(long, required = true)]
        channel: Vec<String>,
        /// MOTN node id: --channel then names that node's channel (`--node 5 --channel rx`
        /// is the track `UpperLeg_R.rx`, or `node_5.rx` for unnamed nodes).
        #[arg(long = "node", id = "node_id", value_name = "N")]
        node_id: Option<u8>,
        /// Plot width in characters (at least 32).
        #[arg(long, default_value_t = 100)]
        width: u32,
        /// Plot height in characters (at least 8).
        #[arg(long, default_value_t = 24)]
        height: u32,
    },
    /// Draw a clip's skeleton at one frame as a braille stick figure: joints, bones, the
    /// root's trail over the clip and a ground grid, from the matrices `export` writes.
    Pose {
        /// Input file.
        file: PathBuf,
        /// What to decode.
        #[command(flatten)]
        sel: AnimSel,
        /// Logical frame to draw.
        #[arg(long, value_name = "N", default_value_t = 0)]
        frame: usize,
        /// View direction: front (X right, Z up), side (Y right, Z up) or top (X right, Y up),
        /// in Blender armature space.
        #[arg(long, value_name = "front|side|top", default_value = "front")]
        view: String,
        /// Picture width in characters (each holds 2×4 braille dots).
        #[arg(long, default_value_t = 80)]
        width: u16,
        /// Picture height in lines (the header line comes on top).
        #[arg(long, default_value_t = 30)]
        height: u16,
        /// Skeleton file (animscope-skeleton-v1) to pose on, as `export --skeleton`.
        #[arg(long)]
        skeleton: Option<PathBuf>,
    },
    /// Write a node's raw bytes to a file: an archive member or IPAC entry (inflated), or
    /// any node's span.
    Extract {
        /// Input file.
        file: PathBuf,
        /// Node address (see NODE ADDRESSES); a member node writes the member's bytes.
        node: String,
        /// Output path (`-` for stdout).
        #[arg(short, long)]
        out: String,
        /// Overwrite an existing output file.
        #[arg(long)]
        force: bool,
        /// With `-o -`, write the raw bytes even when stdout is a terminal (refused by
        /// default: bytes from a file can retitle the window or set the clipboard).
        #[arg(long)]
        raw: bool,
    },
    /// Write one clip as matrix JSON (sc6-armature-matrices-v1), glTF or OBJ; with --all,
    /// every clip. Without --gltf/--obj the output's extension picks: .glb/.gltf glTF, .obj
    /// OBJ, anything else matrix JSON; a flag the extension contradicts is a usage error.
    /// The files of one export are written all or nothing, into a folder that must exist.
    Export {
        /// Input file.
        file: PathBuf,
        /// What to decode.
        #[command(flatten)]
        sel: AnimSel,
        /// More inputs: files and folders (walked recursively, sorted). A second word that
        /// names an existing file or folder is an input too, not a NODE. Each input is
        /// exported on its own; one that fails costs one line on stderr, never the rest
        /// (exit 1 at the end), and a summary ends the run.
        #[arg(value_name = "MORE")]
        more: Vec<PathBuf>,
        /// Output path (`-` for stdout); with --all or several inputs, a directory or a
        /// pattern: `{file}` the input's name, `{clip}` the animation's (made safe and
        /// unique), e.g. `-o 'out/{file}/{clip}.glb'` (its extension picks the kind).
        #[arg(short, long)]
        out: String,
        /// Every animation of each input (or of the member NODE names), one file each in
        /// the directory or pattern -o names, files named after the animations (made safe
        /// and unique): matrix JSON, or glTF / OBJ by --gltf/--obj or the pattern's extension.
        #[arg(long, conflicts_with_all = ["anim", "clip", "seq", "anime"])]
        all: bool,
        /// Overwrite an existing output file.
        #[arg(long)]
        force: bool,
        /// Skeleton file (animscope-skeleton-v1) to retarget onto; default: the format's built-in one.
        #[arg(long)]
        skeleton: Option<PathBuf>,
        /// Also write the skeleton the export used (to build a matching armature).
        #[arg(long)]
        skeleton_out: Option<PathBuf>,
        /// Only logical frames A..B (inclusive).
        #[arg(long, value_name = "A..B")]
        frames: Option<String>,
        /// SC6: export only the root curve (selector 0x16 translation and facing).
        #[arg(long)]
        root_only: bool,
        /// CCSF: write the models as Wavefront OBJ (+ .mtl, + .png textures) instead of
        /// matrix JSON; posed at `--anime NAME --frame N`, at stream frame `--frame N`,
        /// or from a paired frame file with `--frames-from FILE`.
        #[arg(long)]
        obj: bool,
        /// Write glTF 2.0 (`-o OUT.glb` or `OUT.gltf`): the skeleton as joints with a skin, the
        /// clip as an animation, and for CCSF the scene's meshes, materials and textures.
        #[arg(long, conflicts_with = "obj")]
        gltf: bool,
        /// CCSF OBJ: frame to pose at (Anime frame or stream frame).
        #[arg(long, value_name = "N")]
        frame: Option<u32>,
        /// CCSF OBJ: paired stream frame file (`strNNNN.tmp`) whose F_Obj records pose the models.
        #[arg(long, value_name = "FILE")]
        frames_from: Option<PathBuf>,
        /// CCSF OBJ: only this model (`MDL_x`).
        #[arg(long, value_name = "MDL_NAME")]
        model: Option<String>,
    },
    /// Write a skeleton file (animscope-skeleton-v1) for users to edit: a format's built-in
    /// one (`--builtin sc6`), or the one an export of FILE's clip would use.
    Skeleton {
        /// Input file whose clip's skeleton to write.
        file: Option<PathBuf>,
        /// What to decode (with FILE).
        #[command(flatten)]
        sel: AnimSel,
        /// A format's built-in skeleton instead (sc6, motn, ...).
        #[arg(long, conflicts_with = "file")]
        builtin: Option<String>,
        /// Output path (`-` for stdout).
        #[arg(short, long)]
        out: String,
        /// Overwrite an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Change fields or bytes of a node and write the whole file to a new path: values
    /// parsed by each field's type, archive members and containers rebuilt around the
    /// change, the output checked before it is kept (see docs/GUIDE.md, Writing back).
    Set(set::SetArgs),
    /// Replace a clip with an edited one (matrix JSON from `export`): converted to the
    /// format's channels, re-encoded natively, containers rebuilt, the output checked and
    /// compared with the import before it is kept (see docs/GUIDE.md, Importing a clip).
    Import(import::ImportArgs),
    /// Print a shell completion script: `animscope completions bash > ~/.local/share/bash-completion/completions/animscope`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `animscope man > animscope.1; man ./animscope.1`.
    Man,
    /// User layouts: check one, or export it for other tools.
    Layout {
        /// What to do.
        #[command(subcommand)]
        cmd: LayoutCmd,
    },
    /// Regenerate the committed fixtures (or check them with --check).
    #[command(hide = true)]
    GenFixtures {
        /// Directory holding fixtures/.
        #[arg(default_value = "fixtures")]
        dir: PathBuf,
        /// Compare instead of writing; exit 1 on any difference.
        #[arg(long)]
        check: bool,
    },
}

/// What `animscope layout` does.
#[derive(Debug, Subcommand)]
pub enum LayoutCmd {
    /// Read a layout file and say what it declares (or its error, with line and column).
    Check {
        /// The layout file (.toml).
        file: PathBuf,
    },
    /// Write a layout as a Kaitai Struct .ksy fragment and/or a C struct: a layout file's,
    /// or a built-in record's (`--record ChunkHeader`).
    Export {
        /// The layout file (.toml).
        #[arg(required_unless_present = "record", conflicts_with = "record")]
        file: Option<PathBuf>,
        /// A built-in record instead of a file: its type (`DummyPosRot`) or its spec name
        /// (`chunk header`) when that names one record.
        #[arg(long, value_name = "NAME")]
        record: Option<String>,
        /// Write a Kaitai Struct .ksy here.
        #[arg(long, value_name = "OUT")]
        ksy: Option<PathBuf>,
        /// Write a C header with the structs here.
        #[arg(long, value_name = "OUT")]
        c: Option<PathBuf>,
        /// Overwrite existing outputs.
        #[arg(long)]
        force: bool,
    },
}

/// `animscope layout …`.
pub(crate) fn layout_verb(cmd: LayoutCmd, g: &Global, out: &mut dyn Write) -> Result<Outcome, CliError> {
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

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

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
        print!("{v}");
        return ExitCode::SUCCESS;
    }
    // built once: the typo check and the parse share it
    let cmd = Cli::command();
    if let Some(m) = misspelt_verb(&args, &cmd) {
        eprintln!("animscope: {}", crate::model::sanitize(&m));
        return ExitCode::from(2);
    }
    // as `Cli::parse_from`: help, version and usage errors print and exit
    let mut matches = cmd.get_matches_from(args);
    let mut cli = Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|e| e.format(&mut Cli::command()).exit());
    match Limits::default().with_args(&cli.global.limit) {
        Ok(l) => cli.global.limits = l,
        Err(m) => {
            eprintln!("animscope: {}", crate::model::sanitize(&m));
            return ExitCode::from(2);
        }
    }
    crate::tui::set_low_bandwidth(cli.low_bandwidth);
    let res = match cli.cmd {
        // The TUI writes to the terminal itself, and its signal and panic handlers must be able
        // to take the stdout lock from other threads, so it never runs under a held lock.
        None => match cli.diff.as_deref() {
            Some(b) => diff::tui(cli.file.as_deref(), b, &cli.global, cli.keymap.as_deref()),
            None => verbs::tui(cli.file.as_deref(), &cli.global, cli.keymap.as_deref()),
        },
        Some(_) => {
            remove_temps_on_signals();
            EXITS_AFTER_VERB.store(true, std::sync::atomic::Ordering::Relaxed);
            let out = std::io::stdout();
            // Every verb's output counts against the output cap (`--limit output=…`), as
            // export files do: a small input declaring huge counts cannot write for minutes
            // past it.
            let mut out = crate::export::stream::CappedWriter::per_command(
                std::io::BufWriter::new(out.lock()),
                cli.global.limits.max_output,
            );
            run(cli, &mut out).and_then(|o| {
                out.flush()?;
                Ok(o)
            })
        }
    };
    match res {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Findings) => ExitCode::from(1),
        Ok(Outcome::Unreadable) => ExitCode::from(2),
        Err(CliError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("animscope: {}", crate::model::Sanitized(&e));
            ExitCode::from(2)
        }
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

pub(crate) fn open(file: &std::path::Path, g: &Global) -> Result<Opened, CliError> {
    let mut o = Opened::open_path(file, OpenOptions { no_mmap: g.no_mmap }, g.format.as_deref(), &g.limits)
        .map_err(|e| forced_format_error(e, g))?;
    apply_layouts(&mut o, g)?;
    Ok(o)
}

/// The user layouts (`$XDG_CONFIG_HOME/animscope/layouts`, then `--layouts DIR`); None when
/// there are none. A bad file of the user's directory is said and skipped; a bad file of
/// `--layouts` is an error.
pub(crate) fn load_layouts(g: &Global) -> Result<Option<std::sync::Arc<crate::layout::LayoutSet>>, CliError> {
    if let Some(set) = g.layout_set.get() {
        return Ok(set.clone());
    }
    let user = crate::layout::LayoutSet::user_dir();
    let (set, problems) = crate::layout::LayoutSet::load(user.as_deref(), g.layouts.as_deref(), &g.limits)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    for p in problems {
        eprintln!("animscope: {}", crate::model::Sanitized(&p));
    }
    let set = Some(std::sync::Arc::new(set)).filter(|s| !s.layouts.is_empty());
    Ok(g.layout_set.get_or_init(|| set).clone())
}

/// Apply the user layouts to an opened input.
pub(crate) fn apply_layouts(o: &mut Opened, g: &Global) -> Result<(), CliError> {
    if let Some(set) = load_layouts(g)? {
        o.apply_layouts(&set);
    }
    Ok(())
}

/// A `--format` that names no format is a usage error listing the formats (without the
/// byte offset a parse error shows).
pub(crate) fn forced_format_error(e: OpenError, g: &Global) -> CliError {
    match (&e, g.format.as_deref()) {
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
    let mut g = cli.global.clone();
    g.limits = Limits::default().with_args(&g.limit).map_err(CliError::Usage)?;
    crate::tui::set_low_bandwidth(cli.low_bandwidth);
    match cli.cmd {
        None => match cli.diff.as_deref() {
            Some(b) => diff::tui(cli.file.as_deref(), b, &g, cli.keymap.as_deref()),
            None => verbs::tui(cli.file.as_deref(), &g, cli.keymap.as_deref()),
        },
        Some(_) if cli.diff.is_some() => {
            Err(CliError::Usage("--diff FILE_B opens the TUI; the verb is `animscope diff A B`".into()))
        }
        Some(cmd) => verbs::run(cmd, &g, out),
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
