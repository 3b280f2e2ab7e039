//! The benches reach the formats the way the program does: through `formats::open_as` and
//! the `Format` trait (a parsed object, a `Source`), never through byte-slice functions.

#![allow(dead_code)]

use animscope::formats::tally::Tally;
use animscope::formats::{self, Format, Parsed, Survey};
use animscope::limits::Limits;
use animscope::source::Source;
use std::io::Read;
use std::sync::Arc;

/// `data` named `name` parsed once as `format`.
pub fn open(format: &'static dyn Format, name: &str, data: &[u8], limits: &Limits) -> Box<dyn Parsed> {
    formats::open_as(format, Arc::new(Source::from_vec(name, data.to_vec())), limits).expect("opens")
}

/// `survey`'s totals for `src` as `format` (the format's own survey walk).
pub fn survey(format: &'static dyn Format, src: &Source, limits: &Limits) -> Survey {
    let mut tally = Tally::default();
    format.survey(src, limits, &|_| (), &mut tally).expect("surveys");
    tally.into_survey(format.id(), src.name())
}

/// Byte ranges of the members of the sector-gzip archive `data`, as its parsed document
/// lists them.
pub fn member_spans(data: &[u8], limits: &Limits) -> Vec<std::ops::Range<usize>> {
    let p = open(&formats::gzarc::GzArc, "archive", data, limits);
    let doc = p.document();
    doc.nodes
        .iter()
        .filter(|n| n.member.is_some())
        .map(|n| usize::try_from(n.span.start).unwrap_or(0)..usize::try_from(n.span.end).unwrap_or(0))
        .collect()
}

/// Inflate one gzip member with flate2 alone (the baseline the archive code is compared
/// with): its inflated length, 0 when it does not inflate.
pub fn inflate_len(member: &[u8]) -> usize {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(member).read_to_end(&mut out).map_or(0, |_| out.len())
}
