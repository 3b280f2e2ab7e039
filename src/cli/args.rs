//! The command line as clap parses it: the global options, the verbs and their arguments,
//! as typed. [`super::Resolved`] is what the verbs run with, resolved from it once.

use super::CliError;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

pub(super) const ADDRESSING: &str = "\
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
pub(super) const ADDRESS_FORMS: [(&str, &str); 4] = [
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
pub(super) const EXIT_CODES: [(u8, &str); 3] = [
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
    pub global: GlobalArgs,
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

/// Options every verb takes, as typed (resolved once into [`super::Resolved`]).
#[derive(Debug, Args, Clone, Default)]
pub struct GlobalArgs {
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
    /// A directory of user layout files (*.toml) labelling bytes the formats leave opaque,
    /// read after those of $XDG_CONFIG_HOME/animscope/layouts (see docs/GUIDE.md).
    #[arg(long, value_name = "DIR", global = true)]
    pub layouts: Option<PathBuf>,
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
    Tree(TreeArgs),
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
    Hex(HexArgs),
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
    Decode(DecodeArgs),
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
    Diff(DiffArgs),
    /// Plot one channel as an ASCII curve.
    Plot(PlotArgs),
    /// Draw a clip's skeleton at one frame as a braille stick figure: joints, bones, the
    /// root's trail over the clip and a ground grid, from the matrices `export` writes.
    Pose(PoseArgs),
    /// Write a node's raw bytes to a file: an archive member or IPAC entry (inflated), or
    /// any node's span.
    Extract(ExtractArgs),
    /// Write one clip as matrix JSON (sc6-armature-matrices-v1), glTF or OBJ; with --all,
    /// every clip. Without --gltf/--obj the output's extension picks: .glb/.gltf glTF, .obj
    /// OBJ, anything else matrix JSON; a flag the extension contradicts is a usage error.
    /// The files of one export are written all or nothing, into a folder that must exist.
    Export(ExportArgs),
    /// Write a skeleton file (animscope-skeleton-v1) for users to edit: a format's built-in
    /// one (`--builtin sc6`), or the one an export of FILE's clip would use.
    Skeleton(SkeletonArgs),
    /// Change fields or bytes of a node and write the whole file to a new path: values
    /// parsed by each field's type, archive members and containers rebuilt around the
    /// change, the output checked before it is kept (see docs/GUIDE.md, Writing back).
    Set(super::set::SetArgs),
    /// Replace a clip with an edited one (matrix JSON or .glb from `export`): converted to the
    /// format's channels, re-encoded natively, containers rebuilt, the output checked and
    /// compared with the import before it is kept (see docs/GUIDE.md, Importing a clip).
    Import(super::import::ImportArgs),
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

/// `animscope tree`'s arguments.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// Input file.
    pub file: PathBuf,
    /// Subtree to show (default: the root).
    pub node: Option<String>,
    /// Deepest level shown; members within it are opened. A container inside a file
    /// (a PKS's IPAC) costs no level: its members count as its own level.
    #[arg(long)]
    pub depth: Option<usize>,
    /// Also list every field.
    #[arg(long)]
    pub fields: bool,
    /// JSON Lines, one node per line, depth-first.
    #[arg(long)]
    pub json: bool,
}

/// `animscope hex`'s arguments.
#[derive(Debug, Args)]
pub struct HexArgs {
    /// Input file.
    pub file: PathBuf,
    /// Node (its bytes are dumped unless --at/--len say otherwise); may enter a member.
    pub node: Option<String>,
    /// Start offset (hex 0x.. or decimal).
    #[arg(long, short = 's', visible_alias = "skip")]
    pub at: Option<String>,
    /// Bytes to show (default: the node's span, at most 512 without --len).
    #[arg(long, short = 'n', visible_alias = "length")]
    pub len: Option<String>,
    /// Colour bytes by category: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Show every row (identical rows are squeezed to one `*` line by default).
    #[arg(long, short = 'v')]
    pub no_squeezing: bool,
}

/// `animscope decode`'s arguments.
#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// Input file.
    pub file: PathBuf,
    /// What to decode.
    #[command(flatten)]
    pub sel: AnimSel,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// Only the curves (keys and per-frame samples): no per-key text, tables or poses.
    /// Much faster on big files; for scripts that dump many clips.
    #[arg(long)]
    pub curves_only: bool,
}

/// `animscope plot`'s arguments.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Input file.
    pub file: PathBuf,
    /// What to decode.
    #[command(flatten)]
    pub sel: AnimSel,
    /// Channel name (e.g. root.x); repeat for several. With --node, the channel of
    /// that node (rx, py, ...).
    #[arg(long, required = true)]
    pub channel: Vec<String>,
    /// MOTN node id: --channel then names that node's channel (`--node 5 --channel rx`
    /// is the track `UpperLeg_R.rx`, or `node_5.rx` for unnamed nodes).
    #[arg(long = "node", id = "node_id", value_name = "N")]
    pub node_id: Option<u8>,
    /// Plot width in characters (at least 32).
    #[arg(long, default_value_t = 100)]
    pub width: u32,
    /// Plot height in characters (at least 8).
    #[arg(long, default_value_t = 24)]
    pub height: u32,
}

/// `animscope pose`'s arguments.
#[derive(Debug, Args)]
pub struct PoseArgs {
    /// Input file.
    pub file: PathBuf,
    /// What to decode.
    #[command(flatten)]
    pub sel: AnimSel,
    /// Logical frame to draw.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub frame: usize,
    /// View direction: front (X right, Z up), side (Y right, Z up) or top (X right, Y up),
    /// in Blender armature space.
    #[arg(long, value_name = "front|side|top", default_value = "front")]
    pub view: String,
    /// Picture width in characters (each holds 2×4 braille dots).
    #[arg(long, default_value_t = 80)]
    pub width: u16,
    /// Picture height in lines (the header line comes on top).
    #[arg(long, default_value_t = 30)]
    pub height: u16,
    /// Skeleton file (animscope-skeleton-v1) to pose on, as `export --skeleton`.
    #[arg(long)]
    pub skeleton: Option<PathBuf>,
}

/// `animscope extract`'s arguments.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Input file.
    pub file: PathBuf,
    /// Node address (see NODE ADDRESSES); a member node writes the member's bytes.
    pub node: String,
    /// Output path (`-` for stdout).
    #[arg(short, long)]
    pub out: String,
    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,
    /// With `-o -`, write the raw bytes even when stdout is a terminal (refused by
    /// default: bytes from a file can retitle the window or set the clipboard).
    #[arg(long)]
    pub raw: bool,
}

/// `animscope export`'s arguments.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Input file.
    pub file: PathBuf,
    /// What to decode.
    #[command(flatten)]
    pub sel: AnimSel,
    /// More inputs: files and folders (walked recursively, sorted). A second word that
    /// names an existing file or folder is an input too, not a NODE. Each input is
    /// exported on its own; one that fails costs one line on stderr, never the rest
    /// (exit 1 at the end), and a summary ends the run.
    #[arg(value_name = "MORE")]
    pub more: Vec<PathBuf>,
    /// Output path (`-` for stdout); with --all or several inputs, a directory or a
    /// pattern: `{file}` the input's name, `{clip}` the animation's (made safe and
    /// unique), e.g. `-o 'out/{file}/{clip}.glb'` (its extension picks the kind).
    #[arg(short, long)]
    pub out: String,
    /// Every animation of each input (or of the member NODE names), one file each in
    /// the directory or pattern -o names, files named after the animations (made safe
    /// and unique): matrix JSON, or glTF / OBJ by --gltf/--obj or the pattern's extension.
    #[arg(long, conflicts_with_all = ["anim", "clip", "seq", "anime"])]
    pub all: bool,
    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,
    /// Skeleton file (animscope-skeleton-v1) to retarget onto; default: the format's built-in one.
    #[arg(long)]
    pub skeleton: Option<PathBuf>,
    /// Also write the skeleton the export used (to build a matching armature).
    #[arg(long)]
    pub skeleton_out: Option<PathBuf>,
    /// Only logical frames A..B (inclusive).
    #[arg(long, value_name = "A..B")]
    pub frames: Option<String>,
    /// SC6: export only the root curve (selector 0x16 translation and facing).
    #[arg(long)]
    pub root_only: bool,
    /// CCSF: write the models as Wavefront OBJ (+ .mtl, + .png textures) instead of
    /// matrix JSON; posed at `--anime NAME --frame N`, at stream frame `--frame N`,
    /// or from a paired frame file with `--frames-from FILE`.
    #[arg(long)]
    pub obj: bool,
    /// Write glTF 2.0 (`-o OUT.glb` or `OUT.gltf`): the skeleton as joints with a skin, the
    /// clip as an animation, and for CCSF the scene's meshes, materials and textures.
    #[arg(long, conflicts_with = "obj")]
    pub gltf: bool,
    /// CCSF OBJ: frame to pose at (Anime frame or stream frame).
    #[arg(long, value_name = "N")]
    pub frame: Option<u32>,
    /// CCSF OBJ: paired stream frame file (`strNNNN.tmp`) whose F_Obj records pose the models.
    #[arg(long, value_name = "FILE")]
    pub frames_from: Option<PathBuf>,
    /// CCSF OBJ: only this model (`MDL_x`).
    #[arg(long, value_name = "MDL_NAME")]
    pub model: Option<String>,
}

/// `animscope skeleton`'s arguments.
#[derive(Debug, Args)]
pub struct SkeletonArgs {
    /// Input file whose clip's skeleton to write.
    pub file: Option<PathBuf>,
    /// What to decode (with FILE).
    #[command(flatten)]
    pub sel: AnimSel,
    /// A format's built-in skeleton instead (sc6, motn, ...).
    #[arg(long, conflicts_with = "file")]
    pub builtin: Option<String>,
    /// Output path (`-` for stdout).
    #[arg(short, long)]
    pub out: String,
    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,
}

/// `animscope diff`'s arguments.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The original file (A).
    pub a: PathBuf,
    /// The modified file (B).
    pub b: PathBuf,
    /// Subtree to compare: an address valid in both files (see NODE ADDRESSES).
    pub node: Option<String>,
    /// JSON Lines: one change per line, then a summary object.
    #[arg(long)]
    pub json: bool,
    /// List every differing key of a channel (default: the first).
    #[arg(long)]
    pub keys: bool,
    /// One line per changed animation or top-level structure: its changes counted,
    /// channels only on one side counted, its aliases named.
    #[arg(long, conflicts_with = "keys")]
    pub summary: bool,
    /// Key and sample values closer than T are equal (float noise).
    #[arg(long, value_name = "T", default_value_t = 0.0)]
    pub tolerance: f64,
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
