//! The verbs' bodies.

use super::{
    AnimSel, CliError, Cmd, DecodeArgs, ExtractArgs, HexArgs, Outcome, PlotArgs, PoseArgs, Resolved, SkeletonArgs,
    TreeArgs, dump, hex, plot,
};
use crate::formats::{self, DecodeOptions, OptionSpec};
use crate::limits::Limits;
use crate::model::anim::Clip;
use crate::model::{Document, NodeId, Sanitized, Severity, fmt_num};
use crate::session::{Opened, parse_offset};
use crate::wire;
use std::io::Write;
use std::path::Path;

/// Bytes a streaming verb reads at a time through the checked path (a multiple of 16, so
/// hex dump pieces start on a row).
const STREAM_CHUNK: u64 = 256 << 10;

fn parse_num(s: &str, what: &str) -> Result<u64, CliError> {
    parse_offset(s).ok_or_else(|| CliError::Usage(format!("{what}: not a number: {s}")))
}

/// How a verb's input is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OpenFor {
    /// A verb: the command's limits, the user layouts applied.
    Verb,
    /// `info` of a whole file: archive members listed only up to a small budget, so it
    /// answers at once on multi-gigabyte archives and says how much was listed.
    Glance,
    /// The TUI: listed up to the same budget (the rest is listed in the background), the
    /// embedded demo when no file is named, the user layouts applied.
    Browse,
}

/// Where a verb's node leads when it names an archive member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    /// The member node itself (its header, its bytes, its span).
    Node,
    /// The member opened: its document's root (`tree demo.bin chr001.mot` shows the
    /// member's tree; `decode demo.bin chr001.mot` decodes inside it).
    Inside,
}

/// What a verb works on, resolved once from its arguments: the input opened once (or the
/// member its node names, opened from it) with the limits it was opened with, and the node.
pub(super) struct Target {
    pub(super) opened: Opened,
    pub(super) node: NodeId,
}

/// Which animations a decoding verb takes from its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    /// The one it names, or the node's own, or the file's only one (`decode`, `export`).
    One,
    /// As [`Want::One`] when the format has no meshes or an animation is named or at the
    /// node; else none, and the scene stands alone (`export --gltf`).
    OneUnlessScene,
    /// Every animation of the file or member (`export --all`).
    All,
}

/// What a decoding verb works on, resolved once from its arguments (ripgrep's `HiArgs`):
/// the opened input and node ([`Target`]), the decode options checked against its
/// format's, and the animations it decodes as typed handles. The verbs decode from it;
/// nothing is looked up again.
pub(super) struct ClipTarget {
    pub(super) opened: Opened,
    pub(super) node: NodeId,
    pub(super) opts: DecodeOptions,
    pub(super) anims: Vec<formats::AnimRef>,
}

impl ClipTarget {
    /// Open `file` (or the member `sel.node` names), check `opts` and resolve the
    /// animations `want` asks for.
    pub(super) fn resolve(
        file: &Path,
        g: &Resolved,
        sel: &AnimSel,
        opts: DecodeOptions,
        want: Want,
    ) -> Result<Self, CliError> {
        // The root is never a member: a file named without a node keeps a deferred document
        // unbuilt (a MOTN file's sequence decodes from its table alone).
        let Target { opened: o, node: id } = target(Some(file), sel.node.as_deref(), g, OpenFor::Verb, Reach::Inside)?;
        // `root_only` is set by `export --root-only`, not typed by users: not checked here.
        let mut user_opts = DecodeOptions { extra: opts.extra.clone(), ..DecodeOptions::default() };
        user_opts.extra.remove("root_only");
        OptionSpec::validate(o.format().id(), o.format().options(), &user_opts).map_err(CliError::Usage)?;
        // `--anim NAME` the input does not hold itself: the members nested in it are searched
        let (o, id) = match sel.selector()? {
            Some(name) if sel.node.is_none() && !holds_animation(&o, name) => reach_animation(o, id, name)?,
            _ => (o, id),
        };
        let anims = match want {
            Want::One => vec![one_animation(&o, id, file, sel)?],
            Want::OneUnlessScene => {
                if o.meshes().is_none() || sel.selector()?.is_some() || o.animation_at(id).is_some() {
                    vec![one_animation(&o, id, file, sel)?]
                } else {
                    Vec::new()
                }
            }
            Want::All => {
                let all = o.animations();
                if all.is_empty() {
                    return Err(CliError::Usage(format!("{}: no animations to export", o.title())));
                }
                all
            }
        };
        Ok(ClipTarget { opened: o, node: id, opts, anims })
    }

    /// Decode animation `a` with the resolved options under the input's budget (the clip
    /// holds what it stores: `Opened::decode_held`).
    pub(super) fn decode(&self, a: &formats::AnimRef) -> Result<Clip, crate::error::ParseError> {
        self.opened.decode_held(a, &self.opts)
    }

    /// Decode the one animation resolved ([`Want::One`]), if any.
    pub(super) fn decode_one(&self) -> Result<Option<Clip>, CliError> {
        match self.anims.first() {
            Some(a) => self.decode(a).map(Some).map_err(|err| lookup_error(&self.opened, err)),
            None => Ok(None),
        }
    }
}

/// The one place a verb opens its input: `file` (the embedded demo when None, for the
/// TUI) opened as `how` says, then `node` resolved in it and, for [`Reach::Inside`], a
/// member it names opened.
pub(super) fn target(
    file: Option<&Path>,
    node: Option<&str>,
    g: &Resolved,
    how: OpenFor,
    reach: Reach,
) -> Result<Target, CliError> {
    let limits = match how {
        OpenFor::Verb => g.limits,
        OpenFor::Glance | OpenFor::Browse => Limits { list_budget: crate::limits::INTERACTIVE_LIST_BUDGET, ..g.limits },
    };
    let mut opened = match file {
        Some(f) => g.open_within(f, &limits)?,
        None => crate::demo::open(&g.limits)?,
    };
    if how != OpenFor::Glance {
        g.apply_layouts(&mut opened)?;
    }
    let (opened, node) = match reach {
        Reach::Node => resolve(opened, node)?,
        Reach::Inside => resolve_inside(opened, node)?,
    };
    Ok(Target { opened, node })
}

fn resolve(o: Opened, node: Option<&str>) -> Result<(Opened, NodeId), CliError> {
    match node {
        None => Ok((o, NodeId::ROOT)),
        Some(a) => {
            let limits = *o.limits();
            let (mut o, id) = o.resolve(a, &limits)?;
            say_reached(a, &o)?;
            // What the verb shows of the node is built now (documents on demand).
            o.doc_mut().expand(id);
            Ok((o, id))
        }
    }
}

/// `tree --depth N` of node `id` of `o`, `indent` levels down, to `depth` levels below it
/// (text, or JSON lines): an archive member within the depth is opened (one at a time,
/// dropped once shown) and its document's nodes shown under the member's node, to the
/// depth left. A member that does not open says why in its place.
fn write_tree_reaching(
    o: &mut Opened,
    id: NodeId,
    indent: usize,
    depth: Option<usize>,
    fields: bool,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    // the lines of this document first (the visit holds the document), then each member's
    // subtree after its own line
    // each line, and the member to open after it: (member, nesting, level)
    type Line = (String, Option<(NodeId, usize, usize)>);
    let mut lines: Vec<Line> = Vec::new();
    dump::visit_tree(o.doc_mut(), id, depth, indent == 0, &mut |doc, n, d, level, hidden| {
        let mut text = String::new();
        let pad = "  ".repeat(d + indent);
        if json {
            text = format!("{}\n", dump::node_line_json(doc, n, d + indent, fields));
        } else {
            use std::fmt::Write as _;
            let _ = writeln!(text, "{pad}{}", dump::node_line(n));
            if fields {
                for f in &n.fields {
                    let _ = writeln!(text, "{pad}  · {}", dump::field_line(f));
                }
            }
            if hidden > 0 {
                let _ = writeln!(text, "{pad}  … {hidden} children");
            }
        }
        let descend = n.member.is_some() && depth.is_none_or(|max| level < max);
        lines.push((text, descend.then_some((n.id, d, level))));
        Ok(())
    })?;
    // entries that name the same bytes (IPAC aliases) are described once: the first one's
    // subtree, then a line naming it
    let mut shown: std::collections::HashMap<(u64, u64), String> = std::collections::HashMap::new();
    for (text, member) in lines {
        out.write_all(text.as_bytes())?;
        let Some((m, d, level)) = member else { continue };
        if let Some(span) = o.members().and_then(|ms| ms.member_span(m, o.limits())) {
            let key = o.doc().node(m).map(|n| n.key.to_string()).unwrap_or_default();
            match shown.get(&span) {
                Some(first) if !json => {
                    writeln!(out, "{}  (same bytes as {}, shown above)", "  ".repeat(indent + d), Sanitized(first))?;
                    continue;
                }
                Some(_) => continue,
                None => {
                    shown.insert(span, key);
                }
            }
        }
        match o.open_member(m, o.limits()) {
            Ok(mut inner) => {
                let below = depth.map(|max| max.saturating_sub(level + 1));
                for c in inner.doc().root().children.clone() {
                    write_tree_reaching(&mut inner, c, indent + d + 1, below, fields, json, out)?;
                }
            }
            Err(e) if !json => writeln!(out, "{}  (member does not open: {})", "  ".repeat(indent + d), Sanitized(&e))?,
            Err(_) => {}
        }
    }
    Ok(())
}

/// Say on stderr where a name was found when it was found by searching nested members
/// (the full path, which a later command may give instead).
pub(super) fn say_reached(name: &str, o: &Opened) -> std::io::Result<()> {
    match o.reached() {
        Some(path) => crate::say!("animscope: {}: found at {}", Sanitized(name), Sanitized(path)),
        None => Ok(()),
    }
}

/// True when `o` itself lists an animation `name` (or its format takes the name, as SC6
/// takes a clip number) or has no nested members to search instead.
fn holds_animation(o: &Opened, name: &str) -> bool {
    let own = o
        .require_clips()
        .and_then(|c| c.find_animation(name))
        .is_ok_and(|a| a.is_listed() || parse_offset(name).is_some())
        || o.animations().iter().any(|a| a.name() == name);
    own || !o.doc().nodes.iter().any(|n| n.member.is_some())
}

/// The animation `--anim NAME` names in a member nested in `o` (searched as a bare name is):
/// the member document it lives in and its node. No such member: `o` as it was, for the
/// usual "no animation named" message; several: the full paths, to pick one.
fn reach_animation(o: Opened, id: NodeId, name: &str) -> Result<(Opened, NodeId), CliError> {
    let limits = *o.limits();
    let title = o.title();
    match o.find_in_members(name, &limits, &crate::session::NameSearch::default()) {
        crate::session::Reached::One(inner, n) => {
            say_reached(name, &inner)?;
            Ok((*inner, n))
        }
        crate::session::Reached::Many(paths, searched) => {
            let listed: Vec<String> = paths.iter().map(|p| crate::model::sanitize(p).into_owned()).collect();
            Err(CliError::Usage(format!(
                "{title}: {} animations named {} in nested members; name one by its path: {}{}",
                paths.len(),
                crate::model::sanitize(name),
                listed.join(", "),
                searched.unsearched()
            )))
        }
        crate::session::Reached::None(_) => Ok((o, id)),
    }
}

/// Like `resolve`, but an archive member node is opened and its document's root returned:
/// `tree demo.bin chr001.mot` shows the member's tree, not the gzip member header.
fn resolve_inside(o: Opened, node: Option<&str>) -> Result<(Opened, NodeId), CliError> {
    let (o, id) = resolve(o, node)?;
    if node.is_some() && o.doc().node(id).is_some_and(|n| n.member.is_some()) {
        let inner = o.open_member(id, o.limits())?;
        return Ok((inner, NodeId::ROOT));
    }
    Ok((o, id))
}

pub(super) fn tui(file: Option<&Path>, g: &Resolved) -> Result<Outcome, CliError> {
    let keymap = g.keymap.as_deref();
    use std::io::IsTerminal;
    if let Some(why) = crate::tui::terminal_refusal() {
        return Err(CliError::Usage(why));
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        if let Some(k) = keymap {
            // a bad --keymap is said as well (the TUI says it when it starts)
            for m in crate::tui::Keymap::load(None, Some(k), g.limits.max_side_file).1 {
                crate::say!("animscope: {}", Sanitized(&m))?;
            }
        }
        return Err(CliError::Usage(
            "the TUI needs a terminal (stdin and stdout): run `ssh -t HOST animscope FILE`, or use a verb \
             such as `animscope info FILE` (see --help)"
                .into(),
        ));
    }
    // Archives list only their first members before the first frame; the TUI lists the
    // rest in the background.
    let Target { opened, .. } = target(file, None, g, OpenFor::Browse, Reach::Node)?;
    crate::tui::run(opened, keymap).map_err(CliError::Io)?;
    Ok(Outcome::Clean)
}

/// Run verb `cmd` with the resolved command line `g`, writing to `out`: one function per verb.
pub(super) fn run(cmd: Cmd, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    match cmd {
        Cmd::Layout { cmd } => super::layout::run(cmd, g, out),
        Cmd::Set(args) => super::set::run(args, g, out),
        Cmd::Import(args) => super::import::run(args, g, out),
        Cmd::Info { file, node, json } => info(&file, node.as_deref(), json, g, out),
        Cmd::Tree(args) => tree(&args, g, out),
        Cmd::Fields { file, node, json } => fields(&file, &node, json, g, out),
        Cmd::Hex(args) => hex_dump(&args, g, out),
        Cmd::Walk { file, node, json } => walk(&file, node.as_deref(), json, g, out),
        Cmd::Decode(args) => decode(&args, g, out),
        Cmd::Plot(args) => plot_channels(args, g, out),
        Cmd::Pose(args) => pose(&args, g, out),
        Cmd::Diff(args) => super::diff::run(&args, g, out),
        Cmd::Survey { files, json } => super::batch::survey(&files, g, json, out),
        Cmd::Check { files, json } => super::batch::check(&files, g, json, out),
        Cmd::Extract(args) => extract(&args, g, out),
        Cmd::Export(args) => super::export::run(args, g, out),
        Cmd::Skeleton(args) => skeleton(&args, g, out),
        Cmd::Completions { shell } => {
            // into memory first: the generator panics on a write error (a closed pipe)
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut super::user_command(), "animscope", &mut script);
            out.write_all(&script)?;
            Ok(Outcome::Clean)
        }
        Cmd::Man => {
            super::man::render(out)?;
            Ok(Outcome::Clean)
        }
        Cmd::GenFixtures { dir, check } => gen_fixtures(&dir, check, out),
    }
}

/// `info`: format, size, node and field counts, diagnostics of the file or of `node`.
fn info(file: &Path, node: Option<&str>, json: bool, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    // Info on the whole file lists archive members only up to a small budget, so it
    // answers at once on multi-gigabyte archives and says how much was listed.
    let how = if node.is_none() { OpenFor::Glance } else { OpenFor::Verb };
    let Target { opened: o, node: id } = target(Some(file), node, g, how, Reach::Inside)?;
    if json {
        write_info_json(&o, id, out)?;
    } else {
        write_info_text(&o, id, out)?;
    }
    super::leave_to_exit(o);
    Ok(Outcome::Clean)
}

/// The errors and warnings of the document `d` holds.
fn problem_counts(d: &Document) -> (usize, usize) {
    let count = |s: Severity| d.diagnostics.iter().filter(|x| x.severity == s).count();
    (count(Severity::Error), count(Severity::Warning))
}

/// `info --json` of node `id` of `o`: one JSON object.
fn write_info_json(o: &Opened, id: NodeId, out: &mut dyn Write) -> Result<(), CliError> {
    let listing = Some(o.listing_progress()).filter(|p| !p.complete());
    let d = o.doc();
    let n = d.node(id).ok_or_else(|| CliError::Usage("no such node".into()))?;
    let (errs, warns) = problem_counts(d);
    let j = wire::Info {
        errors: errs as u64,
        fields: d.field_count() as u64,
        file: o.title().into(),
        format: o.format().id().into(),
        format_description: o.format().description().into(),
        listing: listing.map(|p| wire::Listing {
            complete: false,
            listed_bytes: p.listed_bytes,
            members_listed: p.members,
            probed_bytes: p.probed_bytes,
        }),
        mapped: o.source().is_mapped(),
        node: dump::node_json(d, n, 0, false),
        nodes: d.node_count() as u64,
        pending: d.pending_count() as u64,
        size: o.source().len(),
        unchecked: Some(d.unchecked_count() as u64).filter(|&n| n > 0),
        walk_steps: d.walk.len() as u64,
        warnings: warns as u64,
    };
    writeln!(out, "{j}")?;
    Ok(())
}

/// `info` of node `id` of `o` as text, one `name  value` line each.
fn write_info_text(o: &Opened, id: NodeId, out: &mut dyn Write) -> Result<(), CliError> {
    let d = o.doc();
    let n = d.node(id).ok_or_else(|| CliError::Usage("no such node".into()))?;
    let (errs, warns) = problem_counts(d);
    let size = o.source().len();
    writeln!(out, "file      {}", Sanitized(o.title()))?;
    writeln!(out, "format    {} ({})", o.format().id(), o.format().description())?;
    let mapped = if o.source().is_mapped() { ", mapped" } else { "" };
    writeln!(out, "size      {size} bytes (0x{size:x}){mapped}")?;
    if let Some(p) = Some(o.listing_progress()).filter(|p| !p.complete()) {
        writeln!(
            out,
            "listing   partial: {} members in the first {} bytes (0x{:x}, {:.1}% of the file); `tree` lists them all",
            p.members,
            p.listed_bytes,
            p.listed_bytes,
            100.0 * p.listed_bytes as f64 / p.len.max(1) as f64
        )?;
    }
    match d.pending_count() {
        0 => {
            writeln!(out, "nodes     {}", d.node_count())?;
            writeln!(out, "fields    {}", d.field_count())?;
        }
        pending => {
            let built = d.node_count();
            writeln!(out, "nodes     {built} built; {pending} more structures build their nodes when shown")?;
            writeln!(out, "fields    {} built", d.field_count())?;
        }
    }
    writeln!(out, "walk      {} steps", d.walk.len())?;
    match d.unchecked_count() {
        0 => writeln!(out, "problems  {errs} errors, {warns} warnings")?,
        n => writeln!(
            out,
            "problems  {errs} errors, {warns} warnings in what was read; {n} {} not read yet (`check` reads them all)",
            if n == 1 { "structure" } else { "structures" }
        )?,
    }
    writeln!(out, "node      {}  {}", Sanitized(d.path(id)), dump::node_line(n))?;
    Ok(())
}

/// `tree`: the document tree (or `node`'s subtree) with spans, to `depth`, members within it
/// opened.
fn tree(args: &TreeArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let TreeArgs { file, node, depth, fields, json } = args;
    let (depth, fields, json) = (*depth, *fields, *json);
    let Target { opened: mut o, node: id } = target(Some(file), node.as_deref(), g, OpenFor::Verb, Reach::Inside)?;
    let source = std::sync::Arc::clone(o.source());
    // Fields are made from the file's bytes as they are printed: each write that may
    // have waited on a slow pipe is followed by a size check before they are touched.
    let mut checked = std::io::BufWriter::with_capacity(CHECKED_WRITE, CheckedWriter { out, source: source.as_ref() });
    let out = &mut checked;
    // a depth given descends into members: the document is built to find them
    if node.is_none() && depth.is_none_or(|d| d == 1) && !o.is_document_built() {
        let limits = g.limits;
        let mut show = |top: formats::TopLevel<'_>| stream_tree_part(top, depth, fields, json, out);
        if let Some(findings) = o.stream_top_level(&limits, &mut show) {
            let findings = findings?;
            if !json && !findings.is_empty() {
                write_diagnostics(&findings, out)?;
            }
            out.flush()?;
            return Ok(Outcome::Clean);
        }
    }
    match depth {
        // with a depth, members within it are opened and shown under their nodes
        Some(_) => {
            write_tree_reaching(&mut o, id, 0, depth, fields, json, out)?;
            if !json && id == NodeId::ROOT && !o.doc().diagnostics.is_empty() {
                write_diagnostics(&o.doc().diagnostics, out)?;
            }
        }
        None if json => dump::visit_tree(o.doc_mut(), id, depth, true, &mut |doc, n, d, _, _| {
            writeln!(out, "{}", dump::node_line_json(doc, n, d, fields))
        })?,
        None => dump::write_document_text(o.doc_mut(), id, depth, fields, out)?,
    }
    out.flush()?;
    drop(checked);
    super::leave_to_exit(o);
    Ok(Outcome::Clean)
}

/// The `diagnostics:` block that ends a text tree.
fn write_diagnostics(found: &[crate::model::Diagnostic], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "diagnostics:")?;
    for dg in found {
        writeln!(out, "  {dg}")?;
    }
    Ok(())
}

/// `fields`: a node's fields with name, value and meaning, offset, size and note.
fn fields(file: &Path, node: &str, json: bool, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let Target { opened: o, node: id } = target(Some(file), Some(node), g, OpenFor::Verb, Reach::Node)?;
    let n = o.doc().node(id).ok_or_else(|| CliError::Usage("no such node".into()))?;
    if json {
        writeln!(out, "{}", dump::node_line_json(o.doc(), n, 0, true))?;
    } else {
        writeln!(out, "{}  {}", Sanitized(o.doc().path(id)), dump::node_line(n))?;
        for f in &n.fields {
            writeln!(out, "  {}", dump::field_line(f))?;
        }
    }
    super::leave_to_exit(o);
    Ok(Outcome::Clean)
}

/// `hex`: the bytes of a node (or `--at`/`--len`) dumped with each row's field names.
fn hex_dump(args: &HexArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let HexArgs { file, node, at, len, color, no_squeezing } = args;
    let Target { opened: mut o, node: id } = target(Some(file), node.as_deref(), g, OpenFor::Verb, Reach::Node)?;
    let span = o.doc().node(id).map(|n| n.span).unwrap_or_default();
    let start = match at {
        Some(a) => parse_num(a, "--at")?,
        None => span.start,
    };
    let n = match len {
        Some(l) => parse_num(l, "--len")?,
        None if at.is_some() => 256,
        None => span.end.saturating_sub(start).min(512),
    };
    let size = o.source().len();
    if start >= size && size > 0 {
        return Err(CliError::Usage(format!(
            "{}: --at 0x{start:x} is past the end (0x{size:x} bytes)",
            Sanitized(o.title())
        )));
    }
    let color = match color {
        super::ColorWhen::Always => true,
        super::ColorWhen::Never => false,
        super::ColorWhen::Auto => {
            use std::io::IsTerminal;
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let style = hex::Style { color, squeeze: !no_squeezing };
    writeln!(out, "{} ({} bytes)", Sanitized(o.title()), size)?;
    o.doc_mut().expand_span(crate::model::Span::at(start, n));
    // Read in chunks through the checked path (pread), never the map: the output may
    // wait on a slow pipe while the file is cut shorter.
    let end = start.saturating_add(n).min(size);
    let mut dumper = hex::Dumper::new(style);
    let mut buf = Vec::new();
    let mut pos = start;
    while pos < end {
        let next = ((pos / STREAM_CHUNK).saturating_add(1)).saturating_mul(STREAM_CHUNK).min(end);
        buf.resize(usize::try_from(next - pos).unwrap_or(0), 0);
        o.source().read_exact_at(pos, &mut buf)?;
        out.write_all(dumper.rows(o.doc(), &buf, pos, start, next).as_bytes())?;
        pos = next;
    }
    Ok(Outcome::Clean)
}

/// `walk`: the walker's decisions, one per line; findings when it lost its way.
fn walk(file: &Path, node: Option<&str>, json: bool, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let Target { opened: o, .. } = target(Some(file), node, g, OpenFor::Verb, Reach::Inside)?;
    // Steps are said from the file's bytes as they are printed (an archive's member
    // headers, its next run of members): written through the same checked writer
    // as `tree --fields`, so a truncation while a write waited on a slow pipe is
    // "file changed on disk" before the bytes are read again.
    let source = std::sync::Arc::clone(o.source());
    let mut checked = std::io::BufWriter::with_capacity(CHECKED_WRITE, CheckedWriter { out, source: source.as_ref() });
    let out = &mut checked;
    if node.is_none() && !o.is_document_built() {
        // An archive's walk is its listing: shown part by part, nothing kept.
        let mut step = 0usize;
        let mut show = |top: formats::TopLevel<'_>| match top {
            formats::TopLevel::PartDone(doc) => write_walk_steps(doc, &mut step, json, out),
            _ => Ok(()),
        };
        if let Some(findings) = o.stream_top_level(&g.limits, &mut show) {
            let lost = findings?.iter().any(|d| d.severity == Severity::Error);
            out.flush()?;
            return Ok(if lost { Outcome::Findings } else { Outcome::Clean });
        }
    }
    let mut step = 0usize;
    write_walk_steps(o.doc(), &mut step, json, out)?;
    out.flush()?;
    drop(checked);
    let lost = o.doc().diagnostics.iter().any(|d| d.severity == Severity::Error);
    super::leave_to_exit(o);
    Ok(if lost { Outcome::Findings } else { Outcome::Clean })
}

/// `decode`: a clip's stored keys and every channel at every logical frame, as text or JSON.
fn decode(args: &DecodeArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let DecodeArgs { file, sel, json, curves_only } = args;
    // JSON and text are written track by track (text's frame table in blocks of
    // frames): formats that can make each track as it is written (SC6) need not
    // hold the clip's samples, keys and word table.
    let opts = DecodeOptions { curves_only: *curves_only, tracks_on_demand: true, ..decode_options(sel)? };
    let clip = decode_with(file, g, sel, opts)?;
    if *json {
        super::clip_stream::write_clip_json(&clip, out)?;
    } else {
        write_clip_text(&clip, out)?;
    }
    Ok(Outcome::Clean)
}

/// `plot`: the channels asked for (of `--node N`, when given) as an ASCII curve.
fn plot_channels(args: PlotArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let PlotArgs { file, sel, channel, node_id, width, height } = args;
    let clip = decode_with(&file, g, &sel, decode_options(&sel)?)?;
    let channel = match node_id {
        None => channel,
        Some(id) => node_channels(&clip, id, channel)?,
    };
    let s = plot::render(&clip, &channel, width, height).map_err(CliError::Usage)?;
    out.write_all(s.as_bytes())?;
    Ok(Outcome::Clean)
}

/// `plot --node ID --channel C…`: the full track names of the channels of the format's node
/// `id` (the clip says which name its tracks use; nodes it does not list are `node_N`).
fn node_channels(clip: &Clip, id: u8, channels: Vec<String>) -> Result<Vec<String>, CliError> {
    let named = clip.nodes.iter().find(|(n, _)| *n == u32::from(id)).map(|(_, name)| name.clone());
    let node = named.unwrap_or_else(|| format!("node_{id}"));
    let mut names = Vec::with_capacity(channels.len());
    for c in channels {
        let full = format!("{node}.{c}");
        if clip.track(&full).is_none() {
            let have: Vec<&str> = clip
                .tracks
                .iter()
                .filter_map(|t| t.name.strip_prefix(&node).and_then(|r| r.strip_prefix('.')))
                .collect();
            return Err(CliError::Usage(format!(
                "node {id} ({node}) has no channel {c}; its channels: {}",
                if have.is_empty() { "none in this clip".to_string() } else { have.join(", ") }
            )));
        }
        names.push(full);
    }
    Ok(names)
}

/// `pose`: a clip's skeleton at one frame as a braille stick figure.
fn pose(args: &PoseArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let PoseArgs { file, sel, frame, view, width, height, skeleton } = args;
    let view = crate::export::pose::Preset::parse(view).ok_or_else(|| {
        CliError::Usage(format!("--view {}: expected front, side or top", crate::text::sanitize(view)))
    })?;
    let clip = decode_with(file, g, sel, decode_options(sel)?)?;
    if clip.poses.is_none() {
        // a variant sequence (baked, node tracks): channels, but no skeleton to pose
        return Err(CliError::Usage(format!(
            "{}: nothing to draw: this animation has {} channels but no posed matrices (its kind is not \
             posed on a skeleton by animscope); `animscope decode` lists its channels and `animscope plot \
             --channel NAME` draws one",
            crate::model::sanitize(&clip.name),
            clip.tracks.len()
        )));
    }
    let picture = super::pose::Picture {
        frame: *frame,
        view,
        width: *width,
        height: *height,
        skeleton: skeleton.as_deref(),
        limits: &g.limits,
    };
    out.write_all(super::pose::render(&clip, &picture)?.as_bytes())?;
    Ok(Outcome::Clean)
}

/// `extract`: a node's raw bytes (an archive member inflated) to a file or stdout.
fn extract(args: &ExtractArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    use std::io::IsTerminal as _;
    let ExtractArgs { file, node, out: path, force, raw } = args;
    if path == "-" && !raw && std::io::stdout().is_terminal() {
        // Checked before anything is read: escape sequences in a member would drive
        // the terminal (OSC 0 retitles it, OSC 52 sets the clipboard).
        return Err(CliError::Usage(
            "extract -o -: stdout is a terminal and raw bytes could drive it; redirect to a file or \
             pipe, view them with `animscope hex`, or pass --raw to write them anyway"
                .into(),
        ));
    }
    let Target { opened: o, node: id } = target(Some(file), Some(node), g, OpenFor::Verb, Reach::Node)?;
    let n = o.doc().node(id).ok_or_else(|| CliError::Usage(format!("no node at {node}")))?;
    let what = crate::model::sanitize(&o.doc().path(id)).into_owned();
    // A member is inflated into memory; a node's span of the input is read in chunks
    // through the checked path (pread), never the map: the output may wait on a slow
    // pipe while the file is cut shorter.
    let (source, span) = if n.member.is_some() {
        let inner = o.open_member(id, &g.limits)?;
        let len = inner.source().len();
        (std::sync::Arc::clone(inner.source()), crate::model::Span::new(0, len))
    } else {
        if n.span.end > o.source().len() || n.span.start > n.span.end {
            return Err(CliError::Usage(format!("{what}: span {} is past the end of the bytes", n.span)));
        }
        (std::sync::Arc::clone(o.source()), n.span)
    };
    let mut copy = |w: &mut dyn Write| -> std::io::Result<()> {
        let mut buf = Vec::new();
        let mut pos = span.start;
        while pos < span.end {
            let next = pos.saturating_add(STREAM_CHUNK).min(span.end);
            buf.resize(usize::try_from(next - pos).unwrap_or(0), 0);
            source.read_exact_at(pos, &mut buf)?;
            w.write_all(&buf)?;
            pos = next;
        }
        Ok(())
    };
    if path == "-" {
        copy(out)?;
    } else {
        crate::export::stream::write_atomic_with(Path::new(path), *force, g.limits.max_output, &mut copy)?;
        crate::say!("wrote {path}: {} bytes of {what}", span.end - span.start)?;
    }
    Ok(Outcome::Clean)
}

/// `skeleton`: a format's built-in skeleton, or the one an export of the file's clip uses,
/// as a skeleton file.
fn skeleton(args: &SkeletonArgs, g: &Resolved, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let SkeletonArgs { file, sel, builtin, out: path, force } = args;
    let skel = match (builtin, file) {
        (Some(id), _) => {
            let f = formats::pick(&[], "", Some(id)).map_err(|e| CliError::Usage(e.kind.to_string()))?;
            let b = f.builtin_skeleton().ok_or_else(|| {
                CliError::Usage(format!("{id} has no built-in skeleton (its skeletons come from each file)"))
            })?;
            crate::export::skeleton::SkeletonFile::from_builtin(&b)
        }
        (None, Some(file)) => {
            let clip = decode_with(file, g, sel, decode_options(sel)?)?;
            let poses = clip.poses.as_ref().ok_or_else(|| {
                CliError::Usage(format!("{}: this clip has no posed matrices, so no skeleton", clip.name))
            })?;
            crate::export::skeleton::to_blender(poses, None).map_err(crate::export::ExportError::Skeleton)?.1
        }
        (None, None) => return Err(CliError::Usage("skeleton: give FILE or --builtin FORMAT".into())),
    };
    let text = serde_json::to_string_pretty(&skel.to_json()).map_err(crate::export::ExportError::from)?;
    if path == "-" {
        writeln!(out, "{text}")?;
    } else {
        crate::export::write_output(Path::new(path), text.as_bytes(), *force, g.limits.max_output)?;
    }
    Ok(Outcome::Clean)
}

/// `gen-fixtures`: write the committed fixtures under `dir` (or compare them, findings when
/// any differs).
fn gen_fixtures(dir: &Path, check: bool, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let mut diff = false;
    for (rel, bytes) in crate::fixtures::all() {
        let p = dir.join(&rel);
        if check {
            let same = std::fs::read(&p).map(|b| b == bytes).unwrap_or(false);
            if !same {
                diff = true;
                writeln!(out, "differs: {}", p.display())?;
            }
        } else {
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&p, &bytes)?;
            writeln!(out, "wrote {} ({} bytes)", p.display(), bytes.len())?;
        }
    }
    Ok(if diff { Outcome::Findings } else { Outcome::Clean })
}

/// `--stream` and every `--opt KEY=VALUE` as decode options.
pub(super) fn decode_options(sel: &AnimSel) -> Result<DecodeOptions, CliError> {
    let mut opts = DecodeOptions { stream: sel.stream.clone(), ..DecodeOptions::default() };
    for kv in &sel.opt {
        let (k, v) = kv.split_once('=').ok_or_else(|| CliError::Usage(format!("--opt {kv}: expected KEY=VALUE")))?;
        opts.extra.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(opts)
}

/// Resolve the selection and decode it with explicit options (checked against the ones
/// the file's format takes).
pub(super) fn decode_with(file: &Path, g: &Resolved, sel: &AnimSel, opts: DecodeOptions) -> Result<Clip, CliError> {
    let t = ClipTarget::resolve(file, g, sel, opts, Want::One)?;
    t.decode_one()?.ok_or_else(|| CliError::Usage(format!("{}: no animation resolved", t.opened.title())))
}

/// The animation `sel` names at node `id` of the opened `o`: the one named, or the node's
/// own (or its nearest ancestor's), or the file's only one.
fn one_animation(o: &Opened, id: NodeId, file: &Path, sel: &AnimSel) -> Result<formats::AnimRef, CliError> {
    if let Some(name) = sel.selector()? {
        return named_animation(o, file, name);
    }
    if let Some(a) = o.animation_at(id) {
        return Ok(a);
    }
    let listed = if id == NodeId::ROOT { o.animations() } else { Vec::new() };
    match listed.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(CliError::Usage(format!(
            "{}: {} carries no animation; name one with --anim (--clip/--seq/--anime)",
            o.title(),
            o.doc().path(id)
        ))),
        many => Err(CliError::Usage(several_animations(o, file, many))),
    }
}

/// Animations listed in a "which one?" message at most.
const ANIMS_LISTED: usize = 20;

/// The message for a file of several animations decoded without naming one: the first
/// [`ANIMS_LISTED`] names and how to pick.
fn several_animations(o: &Opened, file: &Path, listed: &[formats::AnimRef]) -> String {
    let quote = |name: &str| format!("\"{}\"", crate::model::sanitize(name));
    // quoted: a name such as ERROR must not read like a message
    let names: Vec<String> = listed.iter().take(ANIMS_LISTED).map(|a| quote(a.name())).collect();
    let more = if listed.len() > ANIMS_LISTED { format!(", … (the first {ANIMS_LISTED})") } else { String::new() };
    // the example is a name that does not read like an error word; when every name does,
    // the first, said to be the first
    let example = match example_animation(listed.iter().map(formats::AnimRef::name)) {
        Some(name) => format!("e.g. --anim {}", quote(name)),
        None => {
            format!("e.g. the first animation, --anim {}", listed.first().map(|a| quote(a.name())).unwrap_or_default())
        }
    };
    let title = o.title();
    // `tree FILE` lists the file's own animations; a member's are under its node there
    let where_listed = if title.contains(" › ") {
        "they are".to_string()
    } else {
        format!("`animscope tree {}` lists them", file.display())
    };
    format!(
        "{title}: {} animations and none picked; pick one with --anim NAME or a node path ({example}); \
         {where_listed}: {}{more}",
        listed.len(),
        names.join(", ")
    )
}

/// The first name fit to show as an example `--anim NAME`: not empty, and not starting
/// with a word that reads like an error or a placeholder (`ERROR`, `NULL_01`, `dummy`), which
/// in a message would look like the tool's own failure.
fn example_animation<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    const ERROR_LIKE: [&str; 11] =
        ["ERROR", "ERR", "NULL", "NIL", "NONE", "DUMMY", "DUMY", "EMPTY", "INVALID", "UNUSED", "UNKNOWN"];
    names.into_iter().find(|name| {
        let word = name.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
        !name.trim().is_empty() && !ERROR_LIKE.iter().any(|e| e.eq_ignore_ascii_case(word))
    })
}

/// The animation named by `--anim NAME`. A name the document does not list (numbers
/// aside: SC6 ids are checked by the format) is a usage error suggesting the nearest
/// listed name; the format's own lookup errors lose the offset (there is none to show).
pub(super) fn named_animation(o: &Opened, file: &Path, name: &str) -> Result<formats::AnimRef, CliError> {
    let found = o.require_clips().and_then(|c| c.find_animation(name));
    if let Ok(a) = &found
        && (a.is_listed() || parse_offset(name).is_some())
    {
        return Ok(a.clone());
    }
    // A name exactly as the listing gives it (a CCSF frame section is listed under its
    // file's name, which no lookup by Anime name finds).
    let listed = o.animations();
    if let Some(a) = listed.iter().find(|a| a.name() == name) {
        return Ok(a.clone());
    }
    let a = found.map_err(|err| lookup_error(o, err))?;
    if listed.is_empty() {
        return Ok(a);
    }
    let hint = match crate::text::did_you_mean(name, listed.iter().map(formats::AnimRef::name)) {
        Some(s) => format!("; did you mean {}?", crate::model::sanitize(s)),
        None => String::new(),
    };
    let how = match listed.as_slice() {
        [one] => format!("its one animation is {}", crate::model::sanitize(one.name())),
        _ => format!("`animscope decode {}` lists its {} animations", file.display(), listed.len()),
    };
    Err(CliError::Usage(format!("{}: no animation named {}{hint} ({how})", o.title(), crate::model::sanitize(name))))
}

/// A format's lookup failure (a name it does not know) as a usage error without a byte
/// offset; anything else stays a parse error.
fn lookup_error(o: &Opened, err: crate::error::ParseError) -> CliError {
    match &err.kind {
        crate::error::ErrorKind::NotFound(_) | crate::error::ErrorKind::Unsupported(_) if err.offset == 0 => {
            CliError::Usage(format!("{}: {}", o.title(), Sanitized(&err.kind)))
        }
        _ => CliError::Open(o.error(err)),
    }
}

/// Text of a decoded clip: header, notes, tables, keys per track, then one row per frame,
/// written as it goes (a long clip's rows never exist as one string).
pub fn write_clip_text(c: &Clip, out: &mut dyn Write) -> std::io::Result<()> {
    write_clip_text_in_blocks(c, out, TEXT_BLOCK_CELLS)
}

/// Samples held at once while the frame table is written (8 bytes each): a clip whose
/// tracks are made on demand is written in blocks of frames this many cells large, each
/// track made again for each block after the first, so memory follows the block, not the clip.
const TEXT_BLOCK_CELLS: usize = 1 << 22;

/// [`write_clip_text`] writing the frame table in blocks of at most `cells` samples.
fn write_clip_text_in_blocks(c: &Clip, out: &mut dyn Write, cells: usize) -> std::io::Result<()> {
    use std::borrow::Cow;
    // Names, notes and cells may come from the file: each is made terminal-safe on its own
    // (the tabs between them are the output's own).
    let safe = |x: &str| crate::model::sanitize(x).into_owned();
    let row = |cells: &[String]| cells.iter().map(|x| safe(x)).collect::<Vec<_>>().join("\t");
    let lazy = c.tracks_on_demand.as_ref();
    writeln!(out, "{}  {} frames @{} Hz  {} channels", safe(&c.name), c.frame_count, c.fps, c.tracks.len())?;
    for n in &c.notes {
        writeln!(out, "note: {}", safe(n))?;
    }
    for (ti, t) in c.tables.iter().enumerate() {
        writeln!(out, "\n{}\n{}", safe(&t.name), row(&t.columns))?;
        match lazy {
            Some(l) => {
                for r in 0..l.row_count(ti) {
                    writeln!(out, "{}", row(&l.row(ti, r)))?;
                }
            }
            None => {
                for r in &t.rows {
                    writeln!(out, "{}", row(r))?;
                }
            }
        }
    }
    let block = (cells / c.tracks.len().max(1)).max(1);
    // Each track made on demand is made here for its keys; the samples of the first block of
    // frames are kept from it, so a clip that fits one block is made once.
    let mut first: Vec<Vec<f64>> = Vec::new();
    for (i, t) in c.tracks.iter().enumerate() {
        let made = lazy.map(|l| l.track(i));
        if let Some((_, samples)) = &made {
            first.push(frames(samples, 0, block).to_vec());
        }
        let keys = made.as_ref().map_or(&t.keys, |(k, _)| k);
        if keys.is_empty() {
            continue;
        }
        writeln!(out, "\nkeys {} [{}]{}", safe(&t.name), t.unit, if t.unknown { " (unknown scaling)" } else { "" })?;
        for k in keys {
            writeln!(out, "  frame {}  {}  {}", fmt_num(k.frame), fmt_num(k.value), safe(&k.detail))?;
        }
    }
    writeln!(
        out,
        "\nframe\t{}",
        c.tracks.iter().map(|t| format!("{} [{}]", safe(&t.name), t.unit)).collect::<Vec<_>>().join("\t")
    )?;
    let mut line = String::new();
    let mut from = 0usize;
    while from < c.frame_count {
        let to = from.saturating_add(block).min(c.frame_count);
        let columns: Vec<Cow<'_, [f64]>> = match lazy {
            Some(_) if from == 0 => std::mem::take(&mut first).into_iter().map(Cow::Owned).collect(),
            Some(l) => (0..c.tracks.len()).map(|i| Cow::Owned(frames(&l.track(i).1, from, to).to_vec())).collect(),
            None => c.tracks.iter().map(|t| Cow::Borrowed(frames(&t.samples, from, to))).collect(),
        };
        for f in from..to {
            use std::fmt::Write as _;
            line.clear();
            let _ = write!(line, "{f}");
            if c.tracks.is_empty() {
                line.push('\t');
            }
            for col in &columns {
                match col.get(f - from) {
                    Some(v) => {
                        line.push('\t');
                        crate::model::write_fixed(&mut line, *v, 6);
                    }
                    None => line.push_str("\t-"),
                }
            }
            writeln!(out, "{line}")?;
        }
        from = to;
    }
    Ok(())
}

/// The samples of frames `from..to` (fewer where the track is shorter).
fn frames(samples: &[f64], from: usize, to: usize) -> &[f64] {
    samples.get(from.min(samples.len())..to.min(samples.len())).unwrap_or_default()
}

/// The walk steps of `doc`, numbered on from `step` (which is left at the last number).
fn write_walk_steps(doc: &Document, step: &mut usize, json: bool, out: &mut dyn Write) -> std::io::Result<()> {
    for s in doc.walk_steps() {
        *step += 1;
        if json {
            writeln!(out, "{}", wire::WalkStep::new(doc, &s, *step as u64))?;
        } else {
            writeln!(out, "{:>4}  {s}", *step)?;
        }
    }
    Ok(())
}

/// Bytes a [`CheckedWriter`] is given at once: one size check per 64 KiB of output.
const CHECKED_WRITE: usize = 64 << 10;

/// The verb's output, checked after every write: a write to a slow pipe may wait for a
/// long time, and the input may be cut shorter meanwhile; the check (one `fstat`,
/// [`crate::source::Source::check_not_shorter`]) comes before the verb reads the mapped
/// bytes again, so the truncation is "NAME: file changed on disk", never a fault. Given
/// whole chunks by a [`std::io::BufWriter`] of [`CHECKED_WRITE`] bytes, so the output's
/// own (smaller) buffer writes them straight through and nothing waits unchecked.
struct CheckedWriter<'a> {
    out: &'a mut dyn Write,
    source: &'a crate::source::Source,
}

impl Write for CheckedWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write_all(buf)?;
        self.source.check_not_shorter()?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()?;
        self.source.check_not_shorter()
    }
}

/// One part of `tree` shown by [`formats::Format::stream_top_level`]: the root line (with
/// the whole document's number of children), or a child's subtree one level down.
fn stream_tree_part(
    top: formats::TopLevel<'_>,
    depth: Option<usize>,
    fields: bool,
    json: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match top {
        formats::TopLevel::Root(doc, children) => {
            let Some(n) = doc.node(NodeId::ROOT) else { return Ok(()) };
            if json {
                let mut j = dump::node_json(doc, n, 0, fields);
                j.children = children as u64;
                writeln!(out, "{j}")
            } else {
                writeln!(out, "{}", dump::node_line(n))?;
                if fields {
                    for f in &n.fields {
                        writeln!(out, "  · {}", dump::field_line(f))?;
                    }
                }
                Ok(())
            }
        }
        formats::TopLevel::Child(doc, id) => {
            let below = depth.map(|d| d.saturating_sub(1));
            if json {
                dump::visit_tree(doc, id, below, false, &mut |doc, n, d, _, _| {
                    writeln!(out, "{}", dump::node_line_json(doc, n, d + 1, fields))
                })
            } else {
                dump::write_subtree_text(doc, id, 1, below, fields, out)
            }
        }
        formats::TopLevel::PartDone(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example `--anim` skips names that read like an error or a placeholder, whole or
    /// as their first word, in any case; a name that merely contains such a word is kept.
    #[test]
    fn example_animation_skips_error_like_names() {
        assert_eq!(example_animation(["ERROR", "NULL_01", "A_WALK"]), Some("A_WALK"));
        assert_eq!(example_animation(["dummy", "", "Idle"]), Some("Idle"));
        assert_eq!(example_animation(["none2", "ERRORS_FIXED"]), Some("ERRORS_FIXED"));
        assert_eq!(example_animation(["A_ERROR"]), Some("A_ERROR"));
        assert_eq!(example_animation(["ERROR", "NONE"]), None);
        assert_eq!(example_animation(["0", "1"]), Some("0"));
    }

    /// Text of SC6 clips whose tracks and word table are made on demand, written with the
    /// frame table in blocks of 1, 7 and 64 cells and whole, is the text of the same clip
    /// decoded with everything stored, on every SC6 fixture clip and stream.
    #[test]
    fn on_demand_text_is_the_stored_clips_text() {
        let sc6 = crate::formats::sc6::Sc6;
        let mut compared = 0;
        for (name, bytes) in crate::fixtures::all().into_iter().filter(|(n, _)| n.starts_with("sc6/")) {
            for slot in 0..8 {
                let key = format!("clip:{slot}");
                for stream in [None, Some("alternate"), Some("skill-check")] {
                    let opts = DecodeOptions { stream: stream.map(Into::into), ..DecodeOptions::default() };
                    let Ok(stored) = sc6.decode(&bytes, &key, &opts, &Limits::default()) else { continue };
                    let lazy_opts = DecodeOptions { tracks_on_demand: true, ..opts.clone() };
                    let lazy = sc6.decode(&bytes, &key, &lazy_opts, &Limits::default()).unwrap();
                    assert!(lazy.tracks_on_demand.is_some() && lazy.tracks.iter().all(|t| t.samples.is_empty()));
                    let mut want = Vec::new();
                    write_clip_text(&stored, &mut want).unwrap();
                    let want = String::from_utf8(want).unwrap();
                    assert!(want.contains("\nframe\t") && stored.frame_count > 0, "{name} {key}");
                    for cells in [1, 7, 64, TEXT_BLOCK_CELLS] {
                        for c in [&stored, &lazy] {
                            let mut got = Vec::new();
                            write_clip_text_in_blocks(c, &mut got, cells).unwrap();
                            assert!(
                                String::from_utf8(got).unwrap() == want,
                                "{name} {key} {stream:?} blocks of {cells}"
                            );
                        }
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared >= 10, "only {compared} clips compared");
    }
}
