//! `survey`: totals over whole files and archives, computed in parallel (rayon) with
//! results in input order. The CLI prints them; this layer only computes.

use crate::formats::{self, Survey};
use crate::limits::Limits;
use crate::session::OpenError;
use crate::source::{OpenOptions, Source};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// How inputs are opened for a survey.
#[derive(Debug, Clone, Default)]
pub struct SurveyOptions {
    /// Read files instead of mapping them.
    pub no_mmap: bool,
    /// Force a format id instead of sniffing.
    pub format: Option<String>,
}

/// Survey one input with its format, reporting surveyed bytes to `done` as they are
/// finished (archives member by member, other inputs at the end).
pub fn survey_file(
    path: &Path,
    opts: &SurveyOptions,
    limits: &Limits,
    done: &(dyn Fn(u64) + Sync),
) -> Result<Survey, OpenError> {
    // Sniff only: a survey walks everything itself, so describing first would be wasted work.
    let src = Source::open_bounded(path, OpenOptions { no_mmap: opts.no_mmap }, limits.max_input)?;
    let parse = |err| OpenError::Parse { name: src.name().to_string(), err };
    let format = formats::pick(src.bytes(), src.name(), opts.format.as_deref()).map_err(parse)?;
    // Archives read by pread: worker threads never touch the map.
    let mut tally = formats::tally::Tally::default();
    format.survey(&src, limits, done, &mut tally).map_err(parse)?;
    Ok(tally.into_survey(format.id(), src.name()))
}

/// Survey every input in parallel and hand each result to `each` in input order, as soon
/// as it and every input before it are done. One input failing never stops the others.
pub fn survey_files(
    files: &[PathBuf],
    opts: &SurveyOptions,
    limits: &Limits,
    done: &(dyn Fn(u64) + Sync),
    each: &mut dyn FnMut(&Path, Result<Survey, OpenError>),
) {
    // In windows of a few inputs per core: order is kept and finished results do not pile up.
    let window = rayon::current_num_threads().max(1) * 4;
    for chunk in files.chunks(window) {
        let results: Vec<Result<Survey, OpenError>> =
            chunk.par_iter().map(|f| survey_file(f, opts, limits, done)).collect();
        for (f, r) in chunk.iter().zip(results) {
            each(f, r);
        }
    }
}
