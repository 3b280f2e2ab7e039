//! gzarc: golden dumps and walks of the archive fixtures, members opened through the
//! session, a member that does not inflate.

use animscope::cli::dump::document_text;
use animscope::error::ErrorKind;
use animscope::formats::gzarc;
use animscope::limits::Limits;
use animscope::model::NodeId;
use animscope::session::Opened;
use animscope::source::Source;
use std::sync::Arc;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gzarc").join(name)).unwrap()
}

/// The archive's members as the program lists them: (offset, name) of each member node.
fn member_nodes(bytes: &[u8]) -> Vec<(u64, String)> {
    let p = crate::support::parsed(Some(&gzarc::GzArc), "archive", bytes.to_vec(), &Limits::default()).unwrap();
    let doc = p.document();
    doc.nodes.iter().filter(|n| n.member.is_some()).map(|n| (n.span.start, n.key.to_string())).collect()
}

#[test]
fn golden_dumps_and_walks() {
    for (path, bytes) in gzarc::write::fixtures() {
        let name = path.trim_start_matches("gzarc/");
        let doc = crate::support::whole_document(Some(&gzarc::GzArc), name, &bytes, &Limits::default()).unwrap();
        assert_eq!(doc.validate(), Ok(()), "{name}");
        insta::assert_snapshot!(format!("gzarc_dump_{name}"), document_text(&doc, NodeId::ROOT, None, true));
        let walk: String = doc.walk_steps().enumerate().map(|(i, s)| format!("{i:>4}  {s}\n")).collect();
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
    let one = member_nodes(&fixture("mini.cmp.gz"));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].1, "mini.cmp");
}

#[test]
fn a_member_that_does_not_inflate_is_reported_with_its_offset() {
    let bytes = fixture("x_corrupt_member.BIN");
    let e = crate::support::member_at(&gzarc::GzArc, &bytes, 1, &Limits::default()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Inflate(_)), "{e}");
    assert_eq!(e.offset, 2048);
    let s = crate::support::survey_bytes(&gzarc::GzArc, &bytes, "x", &Limits::default()).unwrap();
    assert_eq!(s.counters.get("members.failed"), Some(&1));
    assert_eq!(s.counters.get("members.inflated"), Some(&1));
    assert_eq!(s.findings.len(), 1);
    assert_eq!(s.findings[0].offset, Some(2048));
    let c = crate::support::check_bytes(&gzarc::GzArc, &bytes, "x", &Limits::default()).unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].offset, Some(2048));
    assert!(c[0].message.contains("does not inflate"), "{}", c[0]);
    assert_eq!(
        crate::support::check_bytes(&gzarc::GzArc, &fixture("DATA.BIN"), "DATA.BIN", &Limits::default()).unwrap(),
        vec![]
    );
}

/// Documents on demand (the twin of the MOTN and CCSF tests): an archive opened through the
/// seam lists one lazy node per member (span, key, summary, walk step); the streaming dump
/// (each member's header fields built when reached, dropped once printed) is byte-identical
/// to the dump of the whole document, and so are the findings and the walk; every offset
/// finds the same node path and field. Damaged archives (cut inside a member's header, a
/// header whose FNAME runs past its extent) are compared too.
#[test]
fn lazy_documents_dump_exactly_like_whole_ones() {
    use animscope::cli::dump::write_document_text;
    use animscope::formats;
    use animscope::model::Document;
    let lim = Limits::default();
    let walk_text = |d: &Document| d.walk_steps().map(|s| format!("{s}\n")).collect::<String>();
    let inputs = archives();
    let (mut files, mut lazy_nodes) = (0, 0);
    for (path, bytes) in inputs {
        let name = path.trim_start_matches("gzarc/").to_string();
        let whole = crate::support::whole_document(Some(&gzarc::GzArc), &name, &bytes, &lim).unwrap();
        let parsed = formats::open(Arc::new(Source::from_vec(name.clone(), bytes)), Some("gzarc"), &lim).unwrap();
        files += 1;
        let mut doc = parsed.document().clone();
        let skeleton = doc.node_count();
        lazy_nodes += doc.pending_count();
        assert!(doc.field_count() < whole.field_count(), "{name}: the listing builds no member's fields");
        assert_eq!(doc.diagnostics, whole.diagnostics, "{name}");
        assert_eq!(walk_text(&doc), walk_text(&whole), "{name}");
        let mut out = Vec::new();
        write_document_text(&mut doc, NodeId::ROOT, None, true, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), document_text(&whole, NodeId::ROOT, None, true), "{name}");
        assert_eq!(doc.node_count(), skeleton, "{name}: streaming keeps nothing it printed");
        doc.expand_all();
        assert_eq!((doc.node_count(), doc.field_count()), (whole.node_count(), whole.field_count()), "{name}");
        assert_eq!(doc.validate(), Ok(()), "{name}");
        let mut skel = parsed.document().clone();
        for off in (0..whole.len).step_by(7) {
            let got = skel.expand_to(off).map(|n| skel.path(n));
            assert_eq!(got, whole.node_at(off).map(|n| whole.path(n)), "{name} @0x{off:x}");
            let f =
                |d: &Document| d.field_at(off).and_then(|(n, i)| Some((d.path(n), d.node(n)?.fields.get(i)?.clone())));
            assert_eq!(f(&skel), f(&whole), "{name} @0x{off:x}");
        }
    }
    assert!(files >= 4, "every archive fixture and the damaged ones ({files})");
    assert!(lazy_nodes >= 10, "the inputs exercise lazy member nodes ({lazy_nodes})");
}

/// The archive fixtures and damaged archives made from them: one cut inside a member's
/// header, one whose last member's FNAME never ends, one with bytes before its first member.
fn archives() -> Vec<(String, Vec<u8>)> {
    let mut inputs = gzarc::write::fixtures();
    let data = fixture("DATA.BIN");
    // cut 5 bytes into the second member's header: its FLG byte is the last one left
    let second = member_nodes(&data)[1].0;
    inputs.push(("cut_in_header.bin".into(), data[..usize::try_from(second + 5).unwrap()].to_vec()));
    // the last member claims an FNAME (FLG bit 3) that never ends before the end of the file
    let mut unterminated = gzarc::write::gzip_member("first", &[7; 4000], 0);
    gzarc::write::pad_to_sector(&mut unterminated);
    let mut last = gzarc::write::gzip_member("b", b"second", 0);
    last.truncate(10);
    last.extend([b'n'; 100]);
    unterminated.extend(last);
    inputs.push(("unterminated_name.bin".into(), unterminated));
    // a sector of junk before the first member
    let mut junk = vec![0x55u8; 2048];
    junk.extend(fixture("DATA.BIN"));
    inputs.push(("junk_first.bin".into(), junk));
    inputs
}

/// `check` of an archive whose document was never built goes member by member without a
/// listing; its findings (listing findings first, then every member's, in member order) are
/// those of the check over the whole document, and of the check after the document is built.
#[test]
fn streaming_check_finds_what_the_document_check_finds() {
    use animscope::formats;
    let lim = Limits::default();
    let mut findings = 0;
    for (path, bytes) in archives() {
        let name = path.trim_start_matches("gzarc/").to_string();
        let whole = crate::support::check_bytes(&gzarc::GzArc, &bytes, &name, &lim).unwrap();
        let parsed = formats::open(Arc::new(Source::from_vec(name.clone(), bytes)), Some("gzarc"), &lim).unwrap();
        assert!(!parsed.is_document_built(), "{name}: opening lists nothing");
        let streamed = parsed.check(&lim).unwrap();
        assert!(!parsed.is_document_built(), "{name}: the check built no document");
        assert_eq!(streamed, whole, "{name}");
        let _ = parsed.document();
        assert_eq!(parsed.check(&lim).unwrap(), whole, "{name}: after the listing");
        findings += whole.len();
    }
    assert!(findings >= 3, "the damaged archives have findings ({findings})");
}

/// `tree` of a whole archive is shown run by run (4,096 members at a time, each run
/// dropped once shown, so memory follows one run, not the archive); across the run
/// boundary it prints exactly what the whole document prints, as text with fields and as
/// JSON: like-named members continue their `~N` suffixes, member numbers continue. `walk`
/// likewise, step by step.
#[test]
fn tree_of_a_big_archive_streams_what_the_whole_document_shows() {
    use animscope::cli::dump::{node_json, visit_tree};
    use std::io::Write as _;
    let members: Vec<(String, Vec<u8>)> = (0..4100u32)
        .map(|i| (if i % 3 == 0 { "dup.cmp".to_string() } else { format!("m{i}.cmp") }, vec![(i % 251) as u8; 10]))
        .collect();
    let data = gzarc::write::archive(&members);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("BIG.BIN");
    std::fs::write(&path, &data).unwrap();
    let p = path.to_str().unwrap();
    let whole = crate::support::whole_document(Some(&gzarc::GzArc), "BIG.BIN", &data, &Limits::default()).unwrap();
    assert_eq!(whole.root().children.len(), 4100);
    let (code, out, err) = crate::support::animscope(&["tree", p, "--fields"]);
    assert_eq!(code, 0, "{err}");
    let want = document_text(&whole, NodeId::ROOT, None, true);
    assert!(want.contains("dup.cmp~1367  gzip member"), "the suffixes run past the first 4,096 members");
    assert_eq!(out, want);
    let (code, out, err) = crate::support::animscope(&["tree", p, "--json", "--fields"]);
    assert_eq!(code, 0, "{err}");
    let mut want = Vec::new();
    visit_tree(&mut whole.clone(), NodeId::ROOT, None, true, &mut |doc, n, d, _, _| {
        writeln!(want, "{}", node_json(doc, n, d, true))
    })
    .unwrap();
    assert_eq!(out, String::from_utf8(want).unwrap());
    // one level down: the members without their fields, as the whole document shows them
    let (code, out, _) = crate::support::animscope(&["tree", p, "--depth", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out, document_text(&whole, NodeId::ROOT, Some(1), false));
    // the walk is shown part by part too, numbered on across the boundary
    let (code, out, err) = crate::support::animscope(&["walk", p]);
    assert_eq!(code, 0, "{err}");
    let want: String = whole.walk_steps().enumerate().map(|(i, s)| format!("{:>4}  {s}\n", i + 1)).collect();
    assert_eq!(whole.walk_steps().count(), 4100, "one step per member");
    assert!(out.contains("\n4097  "), "numbered past the first part");
    assert_eq!(out, want);
    let (code, out, _) = crate::support::animscope(&["walk", p, "--json"]);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4100);
    for (i, (j, s)) in lines.iter().zip(whole.walk_steps()).enumerate() {
        assert_eq!(j["step"], i + 1);
        assert_eq!((j["start"].as_u64(), j["end"].as_u64()), (Some(s.span.start), Some(s.span.end)), "step {i}");
        assert_eq!(j["detail"].as_str(), Some(s.detail.as_str()), "step {i}");
        assert_eq!(j["node"].as_str().map(str::to_string), s.node.map(|n| whole.path(n)), "step {i}");
    }
}
