//! `animscope export`: one clip (or every clip, or one per input of a batch) as matrix
//! JSON, glTF or OBJ. What is written is decided once per output by
//! [`crate::export::export`], the service the TUI's export prompt runs too; this file
//! resolves what to export (inputs, animations, scenes) and where.

use super::verbs::{ClipTarget, OpenFor, Reach, Target, Want, decode_options, decode_with, named_animation, target};
use super::{AnimSel, CliError, ExportArgs, Outcome, Resolved};
use crate::export::{ExportDone, ExportRequest, OutputKind};
use crate::formats::{self, DecodeOptions};
use crate::model::Sanitized;
use crate::model::mesh::{ScenePose, SceneRequest};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Run `export`: one input to one output (or `--all` to a folder), else a batch over
/// several inputs or to a pattern.
pub(super) fn run(mut args: ExportArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    // A second word naming an existing file or folder is an input, not a node.
    let mut inputs = vec![std::mem::take(&mut args.file)];
    if let Some(n) = args.sel.node.clone().filter(|n| Path::new(n).exists()) {
        inputs.push(PathBuf::from(n));
        args.sel.node = None;
    }
    inputs.append(&mut args.more);
    let file = inputs.first().cloned().unwrap_or_default();
    if inputs.len() > 1 || file.is_dir() || args.out.contains('{') {
        if args.skeleton_out.is_some() || args.frames_from.is_some() {
            return Err(CliError::Usage(
                "export of several inputs or to a pattern: --skeleton-out and --frames-from are for one export".into(),
            ));
        }
        let (req, opts) = request(&args, OutputKind::Matrices, g)?;
        let job = BatchExport { args: &args, opts, req };
        return export_batch(&inputs, &job, g, out);
    }
    // One rule for what an export writes (the TUI's export prompt uses it too): the
    // flag, else the output's extension; a flag the extension contradicts is a usage
    // error. `--all` writes matrix JSON.
    let kind = if args.all {
        OutputKind::Matrices
    } else {
        OutputKind::choose(Path::new(args.out.as_str()), args.gltf, args.obj)
            .map_err(|e| CliError::Usage(format!("export: {e}")))?
    };
    if kind == OutputKind::Obj {
        return export_obj(&file, &args, g, out);
    }
    let (req, opts) = request(&args, kind, g)?;
    if args.all {
        return export_all(&file, g, &args.sel, opts, &req, out);
    }
    if kind == OutputKind::Gltf {
        if args.skeleton_out.is_some() || args.frame.is_some() || args.frames_from.is_some() {
            return Err(CliError::Usage(
                "export --gltf: --skeleton-out, --frame and --frames-from are for the matrix JSON and OBJ exports \
                 (a glTF holds its skeleton, and its meshes are bound at rest)"
                    .into(),
            ));
        }
        return export_gltf(&file, g, &args.sel, opts, &req, args.model.clone());
    }
    let clip = decode_with(&file, g, &args.sel, opts)?;
    // `-o -`: written to the output as it is made, not collected first.
    let done = crate::export::export(Some(&clip), None, &input_name(&file), &req, out)?;
    if !req.to_stream() {
        let path = req.out_path.display();
        crate::say!("wrote {path} (in {}): {}", Sanitized(folder_of(&req.out_path).display()), done_text(&done))?;
    }
    Ok(Outcome::Clean)
}

/// The export request `args` make for `kind` (`--frames A..B` checked), and the decode
/// options (`--root-only` included).
fn request(args: &ExportArgs, kind: OutputKind, g: &Resolved) -> Result<(ExportRequest, DecodeOptions), CliError> {
    let frames = match args.frames.as_deref() {
        Some(f) => Some(
            crate::export::parse_frames(f)
                .ok_or_else(|| CliError::Usage(format!("--frames {f}: expected A..B with A <= B")))?,
        ),
        None => None,
    };
    let mut opts = decode_options(&args.sel)?;
    if args.root_only {
        opts.extra.insert("root_only".into(), "1".into());
    }
    // Exports read poses frame by frame: a long clip need not be held whole.
    opts.poses_on_demand = true;
    let req = ExportRequest {
        out_path: PathBuf::from(&args.out),
        kind,
        force: args.force,
        skeleton: args.skeleton.clone(),
        skeleton_out: args.skeleton_out.clone(),
        frames,
        limits: g.limits,
    };
    Ok((req, opts))
}

/// An input's file name, as the exports record it.
fn input_name(file: &Path) -> String {
    file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// What an export wrote, as the line after `wrote PATH` says it.
fn done_text(done: &ExportDone) -> String {
    match done {
        ExportDone::Matrices(m) => m.to_string(),
        ExportDone::Gltf(s) => s.to_string(),
        ExportDone::Obj(said) => said.clone(),
    }
}

/// `export --obj` (or `-o X.obj`): the scene of the file, or of the member the node names;
/// a node of a model picks that model; posed at `--anim NAME --frame N`, at stream frame
/// `--frame N`, or from the paired frame file `--frames-from FILE`.
fn export_obj(file: &Path, args: &ExportArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let limits = g.limits;
    // the root is never a member: a file named without a node keeps a deferred
    // document unbuilt
    let Target { opened: o, node: id } = target(Some(file), args.sel.node.as_deref(), g, OpenFor::Verb, Reach::Inside)?;
    if o.meshes().is_none() {
        // an archive: the scenes are its members
        let d = o.doc();
        let member = d.root().children.iter().filter_map(|c| d.node(*c)).find(|n| n.member.is_some());
        if let Some(m) = member {
            return Err(CliError::Usage(format!(
                "{}: {} holds no meshes itself; name a member: `animscope export {} {} --obj -o OUT.obj` \
                 (`animscope tree {}` lists them)",
                o.title(),
                d.root().kind,
                file.display(),
                crate::model::sanitize(&d.path(m.id)),
                file.display()
            )));
        }
    }
    let paired = match &args.frames_from {
        Some(p) => {
            Some(crate::source::read_small_file(p, limits.max_side_file).map_err(crate::session::OpenError::from)?)
        }
        None => None,
    };
    let pose = match (args.sel.selector()?, paired, args.frame) {
        // the animation as decode finds it (a listed name, suggestions on a miss), posed as
        // its format poses it
        (Some(a), _, f) => {
            let a = named_animation(&o, file, a)?;
            // without meshes the scene below says so; the pose is not used
            o.meshes().map_or(ScenePose::Rest, |m| m.scene_pose(&a, f.unwrap_or(0)))
        }
        (None, Some(b), f) => ScenePose::Frame { frame: f.unwrap_or(0), paired: Some(b) },
        (None, None, Some(f)) => ScenePose::Frame { frame: f, paired: None },
        (None, None, None) => ScenePose::Rest,
    };
    let req = SceneRequest { model: args.model.clone().or_else(|| o.meshes().and_then(|m| m.model_of(id))), pose };
    // the scene's meshes and textures draw on what the input's budget has left
    let scene =
        o.require_meshes().and_then(|m| m.scene(&req, &o.decode_limits())).map_err(crate::export::ExportError::from)?;
    let req = ExportRequest {
        out_path: PathBuf::from(&args.out),
        kind: OutputKind::Obj,
        force: args.force,
        limits,
        ..ExportRequest::default()
    };
    let done = crate::export::export(None, Some(&scene), &input_name(file), &req, out)?;
    if !req.to_stream() {
        crate::say!("{} (in {})", done_text(&done), Sanitized(folder_of(&req.out_path).display()))?;
    }
    Ok(Outcome::Clean)
}

/// `export --gltf`: the decoded clip, plus the unposed scene of the same document when its
/// format has meshes (bound to the clip's skeleton by the glTF export); a document with
/// meshes and no animation exports its scene alone.
fn export_gltf(
    file: &Path,
    g: &Resolved,
    sel: &AnimSel,
    opts: DecodeOptions,
    req: &ExportRequest,
    model: Option<String>,
) -> Result<Outcome, CliError> {
    if req.to_stream() {
        return Err(CliError::Usage("export --gltf: -o - is not possible; name a .glb or .gltf file".into()));
    }
    // One open for the clip and the scene.
    let t = ClipTarget::resolve(file, g, sel, opts, Want::OneUnlessScene)?;
    let clip = t.decode_one()?;
    let o = t.opened;
    let scene = if let Some(m) = o.meshes() {
        let scene_req = SceneRequest { model: model.or_else(|| m.model_of(t.node)), pose: ScenePose::Rest };
        Some(m.scene(&scene_req, &o.decode_limits()).map_err(|e| crate::export::ExportError::Gltf(e.to_string()))?)
    } else {
        None
    };
    drop(o);
    let done = crate::export::export(clip.as_ref(), scene.as_ref(), &input_name(file), req, &mut std::io::sink())?;
    let path = req.out_path.display();
    crate::say!("wrote {path} (in {}): {}", Sanitized(folder_of(&req.out_path).display()), done_text(&done))?;
    Ok(Outcome::Clean)
}

/// `export --all -o DIR`: every animation of the file (or of the member `sel.node`
/// names) as matrix JSON in `dir`, one file each named after the animation (unsafe
/// characters replaced, made unique); progress on stderr when it is a terminal. Clips
/// with tracks but no poses are skipped and counted. `req` is each file's request but for
/// its path (its `out_path` is the folder).
fn export_all(
    file: &Path,
    g: &Resolved,
    sel: &AnimSel,
    opts: DecodeOptions,
    req: &ExportRequest,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    use std::io::IsTerminal;
    let dir = req.out_path.as_path();
    let t = ClipTarget::resolve(file, g, sel, opts, Want::All)?;
    let (o, anims) = (&t.opened, &t.anims);
    std::fs::create_dir_all(dir)?;
    let progress = std::io::stderr().is_terminal();
    let input = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut taken = std::collections::HashSet::new();
    let (mut written, mut no_poses, mut failed) = (0usize, 0usize, 0usize);
    for (i, a) in anims.iter().enumerate() {
        if progress {
            crate::stdio::err_text(format_args!(
                "\r\x1b[K[{}/{}] {}",
                i + 1,
                anims.len(),
                crate::model::sanitize(a.name())
            ))?;
        }
        let name = unique_file_name(a.name(), &mut taken);
        let path = dir.join(format!("{name}.json"));
        let clip = match t.decode(a) {
            Ok(c) => c,
            Err(e) => {
                failed += 1;
                if progress {
                    crate::say!("")?;
                }
                crate::say!("animscope: {}: {}", crate::model::sanitize(a.name()), Sanitized(&o.error(e)))?;
                continue;
            }
        };
        if clip.poses.is_none() {
            no_poses += 1;
            continue;
        }
        let req = ExportRequest { out_path: path, skeleton_out: None, ..req.clone() };
        crate::export::export(Some(&clip), None, &input, &req, &mut std::io::sink())?;
        writeln!(out, "{}", req.out_path.display())?;
        written += 1;
    }
    if progress {
        crate::stdio::err_text(format_args!("\r\x1b[K"))?;
    }
    let skipped =
        if no_poses > 0 { format!(", {no_poses} skipped (tracks but no posed matrices)") } else { String::new() };
    let bad = if failed > 0 { format!(", {failed} did not decode") } else { String::new() };
    let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    crate::say!(
        "exported {written} of {} animations to {} ({}){skipped}{bad}",
        anims.len(),
        dir.display(),
        abs.display()
    )?;
    Ok(if failed > 0 { Outcome::Findings } else { Outcome::Clean })
}

/// What `export` does over several inputs or to an output pattern: the arguments, the
/// decode options and the request each output's is made from (its path and kind filled in).
struct BatchExport<'a> {
    args: &'a ExportArgs,
    opts: DecodeOptions,
    req: ExportRequest,
}

/// What a batch export did, for its summary.
#[derive(Debug, Default)]
struct BatchCounts {
    inputs: usize,
    written: usize,
    /// Animations with tracks but no posed matrices (matrix JSON has nothing to write).
    no_poses: usize,
    /// Inputs that did not open or held nothing to export.
    bad_inputs: usize,
    /// Animations (or scenes) that failed to decode or write.
    failed: usize,
}

/// The output pattern of a batch export: `-o` as given when it holds `{`, else a directory:
/// `DIR/{file}/{clip}.EXT` for several inputs, `DIR/{clip}.EXT` for one.
fn output_pattern(out: &str, several: bool, kind: OutputKind) -> String {
    if out.contains('{') {
        return out.to_string();
    }
    let ext = match kind {
        OutputKind::Matrices => "json",
        OutputKind::Gltf => "glb",
        OutputKind::Obj => "obj",
    };
    let dir = out.trim_end_matches('/');
    let dir = if dir.is_empty() { "." } else { dir };
    if several { format!("{dir}/{{file}}/{{clip}}.{ext}") } else { format!("{dir}/{{clip}}.{ext}") }
}

/// The kind and the output pattern of a batch export: the kind by the flags, else the
/// pattern's extension, else matrix JSON; a pattern that would make two outputs one path
/// is a usage error.
fn batch_pattern(args: &ExportArgs, several: bool) -> Result<(OutputKind, String), CliError> {
    let kind = if args.out.contains('{') {
        OutputKind::choose(Path::new(&args.out), args.gltf, args.obj)
            .map_err(|e| CliError::Usage(format!("export: {e}")))?
    } else if args.gltf {
        OutputKind::Gltf
    } else if args.obj {
        OutputKind::Obj
    } else {
        OutputKind::Matrices
    };
    let pattern = output_pattern(&args.out, several, kind);
    if several && !pattern.contains("{file}") {
        return Err(CliError::Usage(format!(
            "export of several inputs: the pattern {} needs {{file}}, or each input's files would overwrite the last's",
            crate::model::sanitize(&pattern)
        )));
    }
    if args.all && !pattern.contains("{clip}") {
        return Err(CliError::Usage(format!(
            "export --all: the pattern {} needs {{clip}} to name each animation's file",
            crate::model::sanitize(&pattern)
        )));
    }
    Ok((kind, pattern))
}

/// `pattern` with `{file}` and `{clip}` filled in (each already made safe for a path).
fn fill_pattern(pattern: &str, file: &str, clip: &str) -> PathBuf {
    PathBuf::from(pattern.replace("{file}", file).replace("{clip}", clip))
}

/// `export` over several inputs (folders walked) or to a pattern: each input opened on its
/// own, every animation (`--all`) or the one selected of each written to the pattern's
/// path; each failure is one line on stderr and the rest go on; a summary ends it; exit 1
/// when anything failed.
fn export_batch(
    inputs: &[PathBuf],
    job: &BatchExport<'_>,
    g: &Resolved,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let mut unreadable = 0usize;
    let files = super::batch::expand(inputs, &mut unreadable)?;
    let several = files.len() > 1 || inputs.iter().any(|p| p.is_dir());
    let (kind, pattern) = batch_pattern(job.args, several)?;
    let mut counts = BatchCounts { bad_inputs: unreadable, ..BatchCounts::default() };
    let mut files_taken = std::collections::HashSet::new();
    let mut paths_taken = std::collections::HashSet::new();
    // a bar of the animations written, on stderr when it is a terminal; each input adds
    // its animations to the length when it is opened
    let bar = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
        let b = indicatif::ProgressBar::new(0);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} {eta}") {
            b.set_style(style);
        }
        b
    });
    for f in &files {
        counts.inputs += 1;
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if let Some(b) = &bar {
            b.set_message(crate::model::sanitize(&name).into_owned());
        }
        let file_part = unique_file_name_keeping_dots(&name, &mut files_taken);
        let input = ExportInput { file: f, file_part: &file_part, pattern: &pattern, kind, bar: bar.as_ref() };
        if let Err(e) = export_input(&input, job, g, &mut counts, &mut paths_taken, out) {
            if e.failed_stream().is_some() {
                // stdout or stderr cannot take more: no other input would fare better
                return Err(e);
            }
            counts.bad_inputs += 1;
            // the error names the input by its base name: said once, by its path as given
            let e = e.to_string();
            let e = e.strip_prefix(&format!("{name}: ")).unwrap_or(&e);
            say_over_bar(bar.as_ref(), &format!("animscope: {}: {}", Sanitized(f.display()), Sanitized(e)))?;
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    say_batch_summary(&counts, &pattern)?;
    Ok(if counts.failed + counts.bad_inputs > 0 { Outcome::Findings } else { Outcome::Clean })
}

/// The line on stderr that ends a batch export: files written, inputs, where, what failed.
fn say_batch_summary(counts: &BatchCounts, pattern: &str) -> std::io::Result<()> {
    let mut tail = Vec::new();
    if counts.no_poses > 0 {
        tail.push(format!("{} skipped (tracks but no posed matrices)", counts.no_poses));
    }
    if counts.failed > 0 {
        tail.push(format!("{} animations failed", counts.failed));
    }
    if counts.bad_inputs > 0 {
        tail.push(format!("{} inputs failed", counts.bad_inputs));
    }
    let tail = if tail.is_empty() { String::new() } else { format!("; {}", tail.join(", ")) };
    crate::say!(
        "exported {} files from {} inputs to {} (in {}){tail}",
        counts.written,
        counts.inputs,
        Sanitized(pattern),
        Sanitized(folder_of(Path::new(pattern)).display())
    )
}

/// The folder a path is written in, made absolute (the current folder for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    // the part before the first placeholder: the folder every output is under
    let text = path.to_string_lossy();
    let fixed = text.split('{').next().unwrap_or("");
    let dir = match Path::new(fixed) {
        p if fixed.ends_with('/') => p.to_path_buf(),
        p => p.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let dir = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir };
    std::path::absolute(&dir).unwrap_or(dir)
}

/// A line on stderr, printed above the progress bar when there is one.
fn say_over_bar(bar: Option<&indicatif::ProgressBar>, line: &str) -> std::io::Result<()> {
    match bar {
        Some(b) => b.suspend(|| crate::say!("{line}")),
        None => crate::say!("{line}"),
    }
}

/// One input of a batch export and where its files go.
struct ExportInput<'a> {
    file: &'a Path,
    /// The input's part of the output paths (`{file}`).
    file_part: &'a str,
    pattern: &'a str,
    kind: OutputKind,
    /// The batch's progress bar (stderr a terminal).
    bar: Option<&'a indicatif::ProgressBar>,
}

/// One input of a batch export: every animation (or the one selected) written to
/// `pattern`, the animations decoded and written in parallel (rayon); the paths are said
/// on stdout in the input's order. An error here is the input's (it did not open, holds
/// nothing to export); each animation's own failure is one line, counted, and the rest go
/// on.
fn export_input(
    input_job: &ExportInput<'_>,
    job: &BatchExport<'_>,
    g: &Resolved,
    counts: &mut BatchCounts,
    paths_taken: &mut std::collections::HashSet<PathBuf>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    use rayon::prelude::*;
    let ExportInput { file, file_part, pattern, kind, bar } = *input_job;
    let t = input_target(file, job, kind, g)?;
    let o = &t.opened;
    let input = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let model = job.args.model.clone().or_else(|| o.meshes().and_then(|m| m.model_of(t.node)));
    let rest_scene = if kind == OutputKind::Gltf
        && let Some(m) = o.meshes()
    {
        let req = SceneRequest { model: model.clone(), pose: ScenePose::Rest };
        Some(m.scene(&req, &o.decode_limits()).map_err(|e| crate::export::ExportError::Gltf(e.to_string()))?)
    } else {
        None
    };
    if kind == OutputKind::Obj && o.meshes().is_none() {
        return Err(CliError::Usage(format!("{}: holds no meshes to write as OBJ", o.title())));
    }
    let planned = plan_paths(&t, pattern, file_part, paths_taken);
    if let Some(b) = bar {
        b.inc_length(planned.len() as u64);
    }
    let results: Vec<Result<bool, CliError>> = planned
        .par_iter()
        .map(|(a, path)| {
            let clips = InputClips { t: &t, kind, rest_scene: rest_scene.as_ref(), model: &model, input: &input };
            let r = export_one(&clips, *a, path, job);
            if let Some(b) = bar {
                b.inc(1);
            }
            r
        })
        .collect();
    for ((a, path), r) in planned.iter().zip(results) {
        let what = a.map_or("scene", formats::AnimRef::name);
        match r {
            Ok(true) => {
                writeln!(out, "{}", path.display())?;
                counts.written += 1;
            }
            Ok(false) => counts.no_poses += 1,
            Err(e) => {
                counts.failed += 1;
                let e = e.to_string();
                // the error names the clip itself
                let e = e.strip_prefix(&format!("{what}: ")).unwrap_or(&e);
                let line = format!(
                    "animscope: {}: {}: {}",
                    Sanitized(file.display()),
                    crate::model::sanitize(what),
                    Sanitized(e)
                );
                say_over_bar(bar, &line)?;
            }
        }
    }
    Ok(())
}

/// The animations of one input of a batch export `job` writes as `kind`: every one
/// (`--all`), else the one selected; a scene without animations, as glTF or OBJ, stands
/// alone.
fn input_target(file: &Path, job: &BatchExport<'_>, kind: OutputKind, g: &Resolved) -> Result<ClipTarget, CliError> {
    let want = match (job.args.all, kind) {
        (true, _) => Want::All,
        (false, OutputKind::Matrices) => Want::One,
        (false, _) => Want::OneUnlessScene,
    };
    match ClipTarget::resolve(file, g, &job.args.sel, job.opts.clone(), want) {
        Err(CliError::Usage(m))
            if want == Want::All && kind != OutputKind::Matrices && m.ends_with("no animations to export") =>
        {
            // a scene without animations: its meshes alone
            match ClipTarget::resolve(file, g, &job.args.sel, job.opts.clone(), Want::OneUnlessScene) {
                Ok(t) if t.opened.meshes().is_some() => Ok(t),
                _ => Err(CliError::Usage(m)),
            }
        }
        other => other,
    }
}

/// Each animation of `t` (None: the scene alone, named `scene`) and its output path:
/// `pattern` filled with `file_part` and the animation's name made safe, chosen in order
/// (a path already taken takes `_2`, `_3`).
fn plan_paths<'t>(
    t: &'t ClipTarget,
    pattern: &str,
    file_part: &str,
    paths_taken: &mut std::collections::HashSet<PathBuf>,
) -> Vec<(Option<&'t formats::AnimRef>, PathBuf)> {
    let mut clip_taken = std::collections::HashSet::new();
    let mut items: Vec<(Option<&formats::AnimRef>, String)> =
        t.anims.iter().map(|a| (Some(a), unique_file_name(a.name(), &mut clip_taken))).collect();
    if items.is_empty() {
        items.push((None, "scene".to_string()));
    }
    let mut planned = Vec::with_capacity(items.len());
    for (a, clip_part) in items {
        let mut path = fill_pattern(pattern, file_part, &clip_part);
        let mut n = 1;
        while !paths_taken.insert(path.clone()) {
            n += 1;
            path = fill_pattern(pattern, file_part, &format!("{clip_part}_{n}"));
        }
        planned.push((a, path));
    }
    planned
}

/// One input of a batch export, resolved: its clips, the output kind, its meshes at rest
/// (glTF), the model asked for and its file name.
struct InputClips<'a> {
    t: &'a ClipTarget,
    kind: OutputKind,
    rest_scene: Option<&'a crate::model::mesh::Scene>,
    model: &'a Option<String>,
    input: &'a str,
}

/// Write animation `a` of the input `clips` (None: the scene alone) to `path` as its kind.
/// False: nothing to write (a clip with tracks but no posed matrices, as matrix JSON).
fn export_one(
    clips: &InputClips<'_>,
    a: Option<&formats::AnimRef>,
    path: &Path,
    job: &BatchExport<'_>,
) -> Result<bool, CliError> {
    let InputClips { t, kind, rest_scene, model, input } = *clips;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let clip = match (kind, a) {
        (OutputKind::Obj, _) | (_, None) => None,
        (_, Some(a)) => Some(t.decode(a).map_err(|e| CliError::Open(t.opened.error(e)))?),
    };
    // a clip with tracks but no posed matrices has nothing to write, nor matrix JSON without a clip
    if clip.as_ref().is_some_and(|c| c.poses.is_none()) || (kind == OutputKind::Matrices && clip.is_none()) {
        return Ok(false);
    }
    let posed;
    let scene = if kind == OutputKind::Obj {
        let o = &t.opened;
        let frame = job.args.frame.unwrap_or(0);
        let pose = match a {
            Some(a) => o.meshes().map_or(ScenePose::Rest, |m| m.scene_pose(a, frame)),
            None if job.args.frame.is_some() => ScenePose::Frame { frame, paired: None },
            None => ScenePose::Rest,
        };
        let req = SceneRequest { model: model.clone(), pose };
        posed = o
            .require_meshes()
            .and_then(|m| m.scene(&req, &o.decode_limits()))
            .map_err(crate::export::ExportError::from)?;
        Some(&posed)
    } else {
        rest_scene
    };
    let req = ExportRequest { out_path: path.to_path_buf(), kind, skeleton_out: None, ..job.req.clone() };
    crate::export::export(clip.as_ref(), scene, input, &req, &mut std::io::sink())?;
    Ok(true)
}

/// [`unique_file_name`] keeping dots (an input's name, `multi.mot`), never `.` or `..`.
fn unique_file_name_keeping_dots(name: &str, taken: &mut std::collections::HashSet<String>) -> String {
    let parts: Vec<String> = name
        .split('.')
        .map(|p| p.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect())
        .collect();
    let mut base = parts.join(".");
    if base.trim_matches('.').is_empty() || base.starts_with('.') {
        base = format!("input{base}");
    }
    first_free(base, taken)
}

/// A file name for animation `name`: letters, digits, `-` and `_` kept, anything else `_`,
/// never empty or hidden, and not one already `taken` (compared without case, for
/// case-insensitive file systems): `_2`, `_3`, … are appended.
fn unique_file_name(name: &str, taken: &mut std::collections::HashSet<String>) -> String {
    let mut base: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    if base.is_empty() || base.chars().all(|c| c == '_') {
        base = format!("anim{base}");
    }
    first_free(base, taken)
}

/// `base`, or `base_2`, `base_3`, … : the first not already `taken` (compared without case,
/// for case-insensitive file systems), now taken.
fn first_free(base: String, taken: &mut std::collections::HashSet<String>) -> String {
    let mut candidate = base.clone();
    let mut n = 1;
    while !taken.insert(candidate.to_lowercase()) {
        n += 1;
        candidate = format!("{base}_{n}");
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_file_names_are_safe_and_unique() {
        let mut taken = std::collections::HashSet::new();
        assert_eq!(unique_file_name("A_WALK_L_02", &mut taken), "A_WALK_L_02");
        assert_eq!(unique_file_name("a_walk_l_02", &mut taken), "a_walk_l_02_2", "case-insensitive file systems");
        assert_eq!(unique_file_name("../etc/passwd", &mut taken), "___etc_passwd");
        assert_eq!(unique_file_name("clip 3", &mut taken), "clip_3");
        assert_eq!(unique_file_name("", &mut taken), "anim");
        assert_eq!(unique_file_name("..", &mut taken), "anim__");
    }
}
