//! Later-generation CCSF files (version ≥ 0x110; docs/formats/ccsf-gen2.md; the bands and
//! what they decide are `band.rs`, the gen-2 Model decoder `model2.rs`, the gen-2 Texture
//! end `walk.rs`): the findings on size-driven setup layouts. Every size field of a gen-2
//! file but Texture's is trusted (docs/formats/ccsf-gen2.md#walker); where the readers put
//! a layout change at different versions the chunk's own size decides
//! (docs/formats/ccsf-gen2.md#version-bands "size-driven disambiguation").

use super::band;
use super::model_data::ModelData;
use super::model2::parse_model;
use super::raw;
use crate::bytes::Bytes;
use crate::error::Result;
use crate::formats::record::read_at;
use crate::limits::Limits;

/// Word counts of the size-driven gen-2 setup layouts (docs/formats/ccsf-gen2.md#version-bands, docs/formats/ccsf-gen2.md#setup-chunks): for each Obj,
/// Clump and Material, the reading its size picks, said when it is not the band's own,
/// and a warning when the size fits no reading. Each Model's header variant likewise.
pub(in crate::formats) fn layout_findings(
    data: &[u8],
    chunks: &[super::walk::ChunkRef],
    version: u16,
    limits: &Limits,
    mut decoded: impl FnMut(u64, Result<ModelData>),
) -> Vec<crate::model::Diagnostic> {
    use crate::model::{Diagnostic, Severity};
    let b = Bytes::new(data);
    let facts = band::of(version);
    let label = facts.band.map_or("?", band::Band::label);
    let mut out = Vec::new();
    for c in chunks.iter().filter(|c| c.section == super::walk::Section::Setup) {
        let words = (c.end - c.payload()) / 4;
        // the path is formatted only for a finding (surveys walk many small files)
        let path = || format!("{} @0x{:x}", super::kinds::kind_name(c.kind, false), c.off);
        let mut say = |sev: Severity, msg: String| out.push(Diagnostic::new(sev, Some(c.off + 4), path(), msg));
        match c.kind {
            0x0100 => {
                let own = facts.obj_words;
                if !(4..=5).contains(&words) {
                    say(
                        Severity::Warning,
                        format!("Obj of {words} words: gen 2 Obj has 4 or 5 (docs/formats/ccsf-gen2.md#obj-0x0100)"),
                    );
                } else if words != own {
                    say(
                        Severity::Info,
                        format!(
                            "size picks the {words}-word Obj (band {} reads {own}; readers disagree on the band, docs/formats/ccsf-gen2.md#where-the-readers-disagree)",
                            label
                        ),
                    );
                }
            }
            0x0900 => {
                let n = b
                    .sub(c.off, c.end)
                    .and_then(|w| read_at::<raw::Clump>(&w, c.payload()))
                    .map_or(0, |h| u64::from(*h.n));
                let own = if facts.clump_bind_pose { 2 + 10 * n } else { 2 + n };
                if words != 2 + n && words != 2 + 10 * n {
                    say(Severity::Warning, format!("Clump of {words} words fits neither 2 + n nor 2 + 10n (n = {n})"));
                } else if words != own && n > 0 {
                    let what = if words == 2 + n { "no bind pose" } else { "a bind pose" };
                    say(
                        Severity::Info,
                        format!(
                            "size picks the Clump with {what} (band {} reads {own} words; docs/formats/ccsf-gen2.md#where-the-readers-disagree)",
                            label
                        ),
                    );
                }
            }
            0x0200 => {
                let own = facts.material_words;
                if ![4, 5, 14, 23].contains(&words) {
                    say(Severity::Warning, format!("Material of {words} words: gen 2 Materials have 4, 5, 14 or 23"));
                } else if words != own {
                    say(Severity::Info, format!("size picks the {words}-word Material (band {} reads {own})", label));
                }
            }
            0x0800 => {
                let r = parse_model(&b, c.off, version, limits);
                match &r {
                    Ok(m) if m.end != c.declared_end => say(
                        Severity::Warning,
                        format!(
                            "model body ends at 0x{:x} but its size field ends the chunk at 0x{:x} ({:+} words); no header reading fits{}",
                            m.end,
                            c.declared_end,
                            (i128::from(c.declared_end) - i128::from(m.end)) / 4,
                            if c.end == m.end { "; the walk continued at the body's end" } else { "" }
                        ),
                    ),
                    Ok(m) => {
                        if let Some(g) = m.gen2.as_ref().filter(|g| g.variant != "band") {
                            say(
                                Severity::Info,
                                format!(
                                    "model header read {} (band {}'s reading does not end at the chunk end)",
                                    g.variant, label
                                ),
                            );
                        }
                    }
                    Err(_) => {} // the decode error is reported where the model is decoded
                }
                decoded(c.off, r);
            }
            _ => {}
        }
    }
    out
}
