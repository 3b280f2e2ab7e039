//! gzarc: golden dumps and walks of the archive fixtures, members opened through the
//! session, a member that does not inflate.

use animscope::cli::dump::document_text;
use animscope::error::ErrorKind;
use animscope::formats::{Format, gzarc};
use animscope::limits::Limits;
use animscope::model::NodeId;
use animscope::session::Opened;
use animscope::source::Source;
use std::sync::Arc;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gzarc").join(name)).unwrap()
}

#[test]
fn golden_dumps_and_walks() {
    for (path, bytes) in gzarc::write::fixtures() {
        let name = path.trim_start_matches("gzarc/");
        let doc = gzarc::GzArc.describe(&bytes, name, &Limits::default()).unwrap();
        assert_eq!(doc.validate(), Ok(()), "{name}");
        insta::assert_snapshot!(format!("gzarc_dump_{name}"), document_text(&doc, NodeId::ROOT, None, true));
        let walk: String = doc.walk.iter().enumerate().map(|(i, s)| format!("{i:>4}  {s}\n")).collect();
        insta::assert_snapshot!(format!("gzarc_walk_{name}"), walk);
    }
}

#[test]
fn members_open_as_ccsf_documents() {
    let src = Source::from_vec("DATA.BIN", fixture("DATA.BIN"));
    let o = Opened::from_source(Arc::new(src), None, &Limits::default(), Vec::new()).unwrap();
    assert_eq!(o.format().id(), "gzarc");
    let (m, id) = o.resolve("chara.cmp/Model[MDL_body]/mmat[1]", &Limits::default()).unwrap();
    assert_eq!(m.format().id(), "ccsf");
    assert_eq!(m.title(), "DATA.BIN › chara.cmp (inflated)");
    assert_eq!(m.doc().node(id).unwrap().kind, "skin mmat");
    // a plain single-member .gz file is the one-member case
    let one = gzarc::list(&fixture("mini.cmp.gz"));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].display_name(), "mini.cmp");
}

#[test]
fn a_member_that_does_not_inflate_is_reported_with_its_offset() {
    let bytes = fixture("x_corrupt_member.BIN");
    let e = gzarc::GzArc.member(&bytes, 1, &Limits::default()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Inflate(_)), "{e}");
    assert_eq!(e.offset, 2048);
    let s = gzarc::GzArc.survey(&bytes, "x", &Limits::default()).unwrap();
    assert_eq!(s.counters.get("members.failed"), Some(&1));
    assert_eq!(s.counters.get("members.inflated"), Some(&1));
    assert_eq!(s.findings.len(), 1);
    assert_eq!(s.findings[0].offset, Some(2048));
    let c = gzarc::GzArc.check(&bytes, "x", &Limits::default()).unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].offset, Some(2048));
    assert!(c[0].message.contains("does not inflate"), "{}", c[0]);
    assert_eq!(gzarc::GzArc.check(&fixture("DATA.BIN"), "DATA.BIN", &Limits::default()).unwrap(), vec![]);
}
