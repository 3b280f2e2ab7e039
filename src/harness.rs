//! The never-panic sweep harness used by the integration tests and the fuzz targets
//! (feature `harness`): every read-only operation a user can trigger, over any bytes,
//! checking the invariants consumers rely on.

use crate::export;
use crate::formats::DecodeOptions;
use crate::limits::Limits;
use crate::session::Opened;
use crate::source::Source;
use std::sync::Arc;

/// How much of the pipeline [`exercise`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exercise {
    /// Describe, validate, walk, decode every clip, members, export conversion.
    Core,
    /// Core plus the strict `check` and `survey` (each parses the input again) and the glTF
    /// writer on two frames of every posed clip.
    Full,
}

/// Run every read-only operation a user can trigger on `bytes` named `name`: sniff,
/// describe, validate, offset lookups, decode of every node carrying animation (up to 400
/// nodes), conversion of posed clips to export JSON, the same for nested members down to
/// `depth_left` levels, and with [`Exercise::Full`] also `check`, `survey`, the
/// curves-only decode the TUI plots first and the glTF writer. Used by the never-panic sweeps and the fuzz
/// targets. Returns how many documents were described, or the first broken invariant (a
/// document violating the span contract, a track with the wrong number of samples, a
/// curves-only decode whose tracks differ from the complete one).
pub fn exercise(
    name: &str,
    bytes: Vec<u8>,
    forced: Option<&str>,
    limits: &Limits,
    depth_left: usize,
    how: Exercise,
) -> Result<usize, String> {
    let Ok(mut o) = Opened::from_source(Arc::new(Source::from_vec(name, bytes)), forced, limits, Vec::new()) else {
        return Ok(0);
    };
    o.doc().validate().map_err(|p| format!("{name}: document violates the span contract: {p:?}"))?;
    let described = exercise_opened(&o, name, limits, depth_left, how)?;
    // Documents on demand: build every structure, as a user scrolling through it would. Done
    // last and in place (the skeleton was used above), so no run pays for a copy.
    let whole = o.doc_mut();
    whole.expand_all();
    whole.validate().map_err(|p| format!("{name}: built document violates the span contract: {p:?}"))?;
    let _ = whole.field_at(whole.len / 3);
    Ok(described)
}

/// [`exercise`] on the opened skeleton: lookups, check and survey, decodes, exports and
/// members.
fn exercise_opened(o: &Opened, name: &str, limits: &Limits, depth_left: usize, how: Exercise) -> Result<usize, String> {
    let data = o.source().bytes();
    if how == Exercise::Full {
        let _ = o.check(limits);
        let _ = o.format().survey(o.source(), limits, &|_| {}, &mut crate::formats::tally::Tally::default());
    }
    let _ = o.doc().node_at(data.len() as u64 / 2);
    let _ = o.doc().field_at(data.len().saturating_sub(1) as u64);
    // the walk as the walk verb and pane say it (steps kept as nodes are said now): every
    // step that reads bytes reads the file's (an empty one may name where a header points)
    for step in o.doc().walk_steps() {
        if !step.span.is_empty() && step.span.end > data.len() as u64 {
            return Err(format!("{name}: walk step \"{}\" reaches past the end: {}", step.what, step.span));
        }
    }
    let mut described = 1;
    for n in o.doc().nodes.iter().take(400) {
        let anim = if n.anim.is_some() { o.animation_at(n.id) } else { None };
        // The TUI plots from a curves-only decode first: it must agree with the complete one.
        let curves = match (&anim, how) {
            (Some(a), Exercise::Full) => {
                let opts = DecodeOptions { curves_only: true, ..DecodeOptions::default() };
                Some(o.require_clips_for(a).and_then(|c| c.decode(a, &opts, limits)))
            }
            _ => None,
        };
        if let Some(a) = &anim
            && let Ok(clip) = o.require_clips_for(a).and_then(|c| c.decode(a, &DecodeOptions::default(), limits))
        {
            let key = a.name();
            if let Some(Ok(c)) = &curves {
                let shape = |x: &crate::model::anim::Clip| {
                    x.tracks.iter().map(|t| (t.name.clone(), t.samples.len())).collect::<Vec<_>>()
                };
                if c.frame_count != clip.frame_count || shape(c) != shape(&clip) {
                    return Err(format!("{name}: {key}: the curves-only decode differs from the complete one"));
                }
            }
            if let Some(t) = clip.tracks.iter().find(|t| t.samples.len() != clip.frame_count) {
                return Err(format!(
                    "{name}: {key}: track {} has {} samples for {} frames",
                    t.name,
                    t.samples.len(),
                    clip.frame_count
                ));
            }
            if let Some(p) = &clip.poses
                && let Ok((mut b, _)) = export::skeleton::to_blender(p, None)
            {
                // Every frame went through the conversion; serialising two is enough to
                // exercise the JSON writer (and its non-finite check) without the cost of all.
                let last = b.frames.len().saturating_sub(1);
                b.frames = b
                    .frames
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i == 0 || *i == last)
                    .map(|(_, f)| f.clone())
                    .collect();
                let _ = export::matrix_json(&clip, &b, name);
            }
            // Full only: the glTF writer (TRS split, key times, GLB layout) on the clip cut to
            // its first two frames, so the sweep's cost does not grow with clip length.
            if how == Exercise::Full
                && let Some(p) = &clip.poses
            {
                let short = crate::model::anim::Clip {
                    poses: Some(crate::model::anim::PoseSeq {
                        frames: p.frames.iter().take(2).cloned().collect(),
                        bones: p.bones.clone(),
                        parents: p.parents.clone(),
                        rest: p.rest.clone(),
                        source: p.source.clone(),
                        skeleton: p.skeleton.clone(),
                        conversion: p.conversion.clone(),
                        ..*p
                    }),
                    ..crate::model::anim::Clip::new(clip.name.clone(), clip.fps, 2)
                };
                let req = export::ExportRequest::default();
                let _ = export::gltf::gltf_files(Some(&short), None, name, &req, export::gltf::Container::Glb, "x");
            }
        }
        if n.member.is_some()
            && depth_left > 0
            && let Ok(m) = o.open_member(n.id, limits)
        {
            let inner = m.source().bytes().to_vec();
            described += exercise(m.source().name(), inner, None, limits, depth_left - 1, how)?;
        }
    }
    Ok(described)
}

/// A layout side file as `layout check`, `layout export` and the TUI's layouts take one:
/// `text` parsed and checked under `limits`' memory budget (as [`crate::layout::LayoutSet`]
/// reads a file), exported as a Kaitai Struct fragment and a C struct, then applied to a
/// synthetic node of the layout's first kind (else `Node`) holding `data`, and measured
/// as the TUI's builder measures. Used by the fuzz target `layout`. Returns whether `text`
/// was a layout, or the first broken invariant: a built document outside the span
/// contract, a user field outside the node's bytes, a measured end outside them.
pub fn exercise_layout(text: &[u8], data: &[u8], limits: &Limits) -> Result<bool, String> {
    use crate::layout::{interpret, parse};
    let Ok(text) = std::str::from_utf8(text) else { return Ok(false) };
    let Ok(l) = parse::parse_layout_within(text, "fuzz.toml", "fuzz", limits.max_memory) else { return Ok(false) };
    let _ = crate::layout::export::to_ksy(&l);
    let _ = crate::layout::export::to_c(&l);
    let len = data.len() as u64;
    let mut doc = crate::model::Document::new("raw", "fuzz", "file", len, limits);
    let kind = l.target.kinds.first().map_or("Node", String::as_str);
    let span = crate::model::Span::new(0, len);
    let node = doc.add_node(crate::model::NodeId::ROOT, "node", kind, span);
    let bytes = crate::bytes::Bytes::new(data);
    let _ = interpret::apply(&l, &mut doc, node, bytes, span);
    doc.validate().map_err(|p| format!("layout applied: the document violates the span contract: {p:?}"))?;
    if let Some(n) = doc.node(node)
        && let Some(f) = n.fields.iter().find(|f| f.is_user_layout() && !span.covers(&f.span))
    {
        return Err(format!("layout field {} at {} outside the node's bytes {span}", f.name, f.span));
    }
    if let Ok(end) = interpret::measure(&l, bytes, span, limits)
        && end > len
    {
        return Err(format!("layout measured to end at {end}, past the node's {len} bytes"));
    }
    Ok(true)
}
