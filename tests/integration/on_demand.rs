//! Documents on demand on a file shaped like a real `MOTION.BIN` (1,300 sequences of 60
//! channels, made by the writer as the benches make it): what opening and one lookup build,
//! and that dropping built structures under a bound and building them again gives the same
//! fields.

use crate::motn_big;

use animscope::formats;
use animscope::limits::Limits;
use animscope::model::{Document, Field, NodeId};
use animscope::source::Source;
use std::sync::Arc;

fn opened() -> (Box<dyn formats::Parsed>, Vec<String>) {
    let (bytes, names) = motn_big::motn_file(1300);
    let parsed = formats::open(Arc::new(Source::from_vec("MOTION.BIN", bytes)), None, &Limits::default())
        .expect("the writer's file opens");
    (parsed, names)
}

/// The fields of `path` and of every node below it, with their paths.
fn fields_below(doc: &Document, id: NodeId) -> Vec<(String, Field)> {
    let mut out = Vec::new();
    let mut stack = vec![id];
    while let Some(id) = stack.pop() {
        let Some(n) = doc.node(id) else { continue };
        out.extend(n.fields.iter().map(|f| (doc.path(id), f.clone())));
        stack.extend(n.children.iter().rev().copied());
    }
    out
}

#[test]
fn opening_and_one_lookup_build_little() {
    let (parsed, names) = opened();
    assert_eq!(parsed.format().id(), "motn");
    let mut doc = parsed.document().clone();
    // every sequence is listed (an animation to pick), none is built
    assert_eq!(parsed.animations().len(), 1300);
    // (the writer gives every sequence the same extra-data record: one node, built when shown)
    assert_eq!(
        doc.pending_count(),
        1300 + 3 + 1,
        "1,300 sequences, the three tables and the extra-data record wait to be built"
    );
    // look up one byte inside a key value of the middle sequence
    let seq = doc.find_path(&format!("data/seq[{}]", names[650])).expect("the sequence is listed");
    let span = doc.node(seq).expect("node").span;
    let off = span.end - 2;
    let inner = doc.expand_to(off).expect("an innermost node");
    let (n, i) = doc.field_at(off).expect("a field there");
    let field = &doc.node(n).expect("node").fields[i];
    assert!(field.name.starts_with("key["), "{}", field.name);
    assert!(doc.path(inner).starts_with(&format!("MOTION.BIN/data/seq[{}]/block5/", names[650])));
    eprintln!("opening and one lookup built {} nodes and {} fields", doc.node_count(), doc.field_count());
    assert!(doc.node_count() <= 2000, "{} nodes built", doc.node_count());
    assert!(doc.field_count() <= 200, "{} fields built", doc.field_count());
}

#[test]
fn dropping_and_rebuilding_gives_identical_fields() {
    let (parsed, names) = opened();
    let mut doc = parsed.document().clone();
    let picks: Vec<NodeId> = [3usize, 400, 1299]
        .iter()
        .map(|&i| doc.find_path(&format!("data/seq[{}]", names[i])).expect("listed"))
        .collect();
    let mut first = Vec::new();
    for &id in &picks {
        doc.expand_subtree(id);
        first.push(fields_below(&doc, id));
    }
    let built = doc.expanded_fields();
    let total: usize = first.iter().map(Vec::len).sum();
    assert_eq!(built, total, "every built field belongs to one of the three sequences");
    assert!(built > 1000, "three sequences build their fields ({built})");
    // a bound of what the last one holds drops the two oldest, and keeps what `keep` names
    // (with everything inside it)
    let keep_last = picks[2];
    let nodes_before = doc.node_count();
    doc.trim(first[2].len(), &|id| id == keep_last);
    assert!(doc.node(picks[0]).expect("listed").is_pending());
    assert!(doc.node(picks[1]).expect("listed").is_pending());
    assert!(!doc.node(picks[2]).expect("listed").is_pending());
    assert_eq!(doc.expanded_fields(), first[2].len());
    assert_eq!(fields_below(&doc, picks[2]), first[2], "the kept sequence is untouched");
    assert!(doc.node_count() < nodes_before, "dropped nodes are gone");
    for (k, &id) in picks.iter().enumerate() {
        doc.expand_subtree(id);
        assert_eq!(fields_below(&doc, id), first[k], "sequence {k} rebuilds the same fields");
    }
    assert_eq!(doc.validate(), Ok(()));
}

/// `decode --seq NAME` needs only the tables: naming and decoding one sequence through the
/// seam leaves the document unbuilt, and decodes the same clip as after building it.
#[test]
fn naming_and_decoding_one_sequence_builds_no_document() {
    let (parsed, names) = opened();
    let name = &names[700];
    assert!(!parsed.is_document_built(), "opening defers the document");
    let anim = parsed.clips().expect("MOTN has clips").find_animation(name).expect("a listed name");
    assert!(anim.is_listed(), "found in the sequence table");
    assert_eq!(anim.node(), None, "no node: the document was not asked for");
    let opts = formats::DecodeOptions { curves_only: true, ..Default::default() };
    let clip = parsed.clips().expect("MOTN has clips").decode(&anim, &opts, &Limits::default()).expect("decodes");
    assert!(!parsed.is_document_built(), "decoding read the sequence, not the document");
    assert_eq!(clip.name, *name);

    // A name the table does not hold is not listed (the CLI then suggests one).
    let missing = parsed.clips().expect("MOTN has clips").find_animation("NO_SUCH_SEQ").expect("a key");
    assert!(!missing.is_listed());

    // After the document is built the lookup goes through its node, to the same clip.
    let _ = parsed.document();
    assert!(parsed.is_document_built());
    let by_node = parsed.clips().expect("MOTN has clips").find_animation(name).expect("listed");
    assert!(by_node.node().is_some() && by_node.is_listed());
    let again = parsed.clips().expect("MOTN has clips").decode(&by_node, &opts, &Limits::default()).expect("decodes");
    assert_eq!(again.tracks.len(), clip.tracks.len());
    assert_eq!(
        again.tracks.iter().map(|t| t.keys.len()).collect::<Vec<_>>(),
        clip.tracks.iter().map(|t| t.keys.len()).collect::<Vec<_>>()
    );
}
