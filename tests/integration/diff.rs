//! `diff`: pairs of files built with the writers, each changed in a known way, and the
//! exact list of changes that way implies (derived from how the pair was built, not from
//! the tool's output); identical copies report nothing and exit 0.

use crate::support::animscope;
use animscope::diff::{self, Change, Options, What};
use animscope::formats::{self, Parsed, ccsf, gzarc, motn, sc6};
use animscope::limits::Limits;
use animscope::model::Span;
use animscope::source::Source;
use std::sync::Arc;

fn open(name: &str, bytes: Vec<u8>) -> Box<dyn Parsed> {
    formats::open(Arc::new(Source::from_vec(name, bytes)), None, &Limits::default()).expect("opens")
}

fn changes(name: &str, a: &[u8], b: &[u8]) -> Vec<Change> {
    diff::changes(&mut *open(name, a.to_vec()), &mut *open(name, b.to_vec()), &Options::default()).0
}

/// (change name, path) of every change, in report order.
fn listed(cs: &[Change]) -> Vec<(&'static str, String)> {
    cs.iter().map(|c| (c.what.name(), c.path.clone())).collect()
}

fn owned(v: &[(&'static str, String)]) -> Vec<(&'static str, String)> {
    v.to_vec()
}

/// Both files on disk, for the CLI: (dir, path A, path B).
fn on_disk(name: &str, a: &[u8], b: &[u8]) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (pa, pb) = (dir.path().join("a").join(name), dir.path().join("b").join(name));
    for (p, bytes) in [(&pa, a), (&pb, b)] {
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
        std::fs::write(p, bytes).expect("write");
    }
    (dir, pa.display().to_string(), pb.display().to_string())
}

/// An identical copy: nothing reported, exit 0, one summary line in JSON.
fn assert_identical_copy(name: &str, bytes: &[u8]) {
    assert!(changes(name, bytes, bytes).is_empty(), "{name}");
    let (_d, a, b) = on_disk(name, bytes, bytes);
    let (code, out, err) = animscope(&["diff", &a, &b]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("no differences\n"), "{out}");
    let (code, out, _) = animscope(&["diff", &a, &b, "--json"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("{\"summary\":{"), "{out}");
}

// ------------------------------------------------------------------------------ MOTN

/// The MOTN pair: `multi.mot` as the fixture encodes it, and the same file with
/// `YKI_WALK`'s channels cut down to those with a non-zero key, re-encoded and written over
/// the old sequence in place (its tail zeroed; every other offset unchanged).
struct MotnPair {
    a: Vec<u8>,
    b: Vec<u8>,
    /// Paths (below the file) the cut implies, in report order: (change, path).
    expected: Vec<(&'static str, String)>,
    /// Track names of the removed channels, in file order.
    removed: Vec<String>,
}

fn motn_pair() -> MotnPair {
    use motn::write::{Channel, KeyValues, MULTI_TRAILER, SeqSource, encode_inputs, encode_sequence, multi_inputs};
    const SEQ: usize = 5; // YKI_WALK: a standard sequence nothing aliases
    let inputs = multi_inputs();
    let a = encode_inputs(&inputs, Some(MULTI_TRAILER)).expect("encodes");
    let (name, SeqSource::Standard(spec)) = &inputs[SEQ] else { panic!("YKI_WALK is a standard sequence") };
    assert_eq!(name, "YKI_WALK");
    let zero = |c: &motn::write::ChannelSpec| c.keys.iter().all(|k| k.values == KeyValues::Zero);
    let mut cut = spec.clone();
    for n in &mut cut.nodes {
        n.channels.retain(|c| !zero(c));
    }
    let (old, new) = (encode_sequence(spec).expect("encodes"), encode_sequence(&cut).expect("encodes"));
    assert!(new.len() < old.len());
    let word = |at: usize| u32::from_le_bytes(a[at..at + 4].try_into().expect("4 bytes")) as usize;
    let base = word(8) + word(0x20 + 8 * SEQ); // data_ofs + data_rel (spec §4.2)
    let mut b = a.clone();
    b[base..base + old.len()].fill(0);
    b[base..base + new.len()].copy_from_slice(&new);

    // The node table names (spec: 0 Root, 5 UpperLeg_R, 12 UpperLeg_L) and channel names.
    let node_name = |n: u8| match n {
        0 => "Root",
        5 => "UpperLeg_R",
        12 => "UpperLeg_L",
        other => panic!("walk() animates nodes 0, 5 and 12, not {other}"),
    };
    let chan = |c: Channel| match c {
        Channel::Px => "px",
        Channel::Py => "py",
        Channel::Pz => "pz",
        Channel::Rx => "rx",
        Channel::Ry => "ry",
        Channel::Rz => "rz",
        _ => panic!("walk() uses translation and rotation channels only"),
    };
    let removed: Vec<String> = spec
        .ordered_channels()
        .into_iter()
        .filter(|(_, c)| zero(c))
        .map(|(n, c)| format!("{}.{}", node_name(n), chan(c.channel)))
        .collect();
    let mut nodes: Vec<u8> = spec.nodes.iter().map(|n| n.node).collect();
    nodes.sort_unstable();
    let seq = "multi.mot/data/seq[YKI_WALK]";
    // What the cut changes, block by block (spec §4.1): the decoded channel set; the header
    // (block offsets move as blocks shrink); every instruction whose node lost a channel
    // (its channel mask); the key counts (one per channel) and key codes (one per key);
    // not the key frames (only keys between the first and last are stored there, and every
    // removed channel has just those two) nor the values (code-0 keys store none); the
    // removed channels' entries under block5; and the zeroed tail, a padding run.
    let mut expected = vec![("anim", seq.to_string()), ("bytes", format!("{seq}/header"))];
    for (i, n) in nodes.iter().enumerate() {
        let node = spec.nodes.iter().find(|s| s.node == *n).expect("a node");
        if node.channels.iter().any(zero) {
            expected.push(("bytes", format!("{seq}/block1/instr[{i}]")));
        }
    }
    expected.push(("bytes", format!("{seq}/block2")));
    assert!(spec.nodes.iter().flat_map(|n| &n.channels).filter(|c| zero(c)).all(|c| c.keys.len() == 2));
    expected.push(("bytes", format!("{seq}/block4")));
    expected.extend(removed.iter().map(|r| ("only_in_a", format!("{seq}/block5/{r}"))));
    expected.push(("only_in_b", format!("multi.mot/data/padding@0x{:x}", base + new.len())));
    MotnPair { a, b, expected, removed }
}

#[test]
fn motn_sequence_cut_down_in_place() {
    let p = motn_pair();
    let cs = changes("multi.mot", &p.a, &p.b);
    assert_eq!(listed(&cs), p.expected, "{cs:#?}");
    let What::Anim(anim) = &cs[0].what else { panic!("{cs:#?}") };
    assert_eq!(anim.frames, (31, 31));
    assert_eq!(anim.channels_only_in_a, p.removed);
    assert!(anim.channels_only_in_b.is_empty() && anim.channels.is_empty(), "{anim:?}");
    // the sequence keeps its start; B's is shorter by what the cut removed
    let (sa, sb) = (cs[0].a.expect("A span"), cs[0].b.expect("B span"));
    assert_eq!(sa.start, sb.start);
    let tail = cs.last().and_then(|c| c.b).expect("the padding's span");
    assert_eq!((sb.end, tail.end), (tail.start, sa.end));
    assert_identical_copy("multi.mot", &p.a);
}

#[test]
fn motn_pair_through_the_cli() {
    let p = motn_pair();
    let (_d, a, b) = on_disk("multi.mot", &p.a, &p.b);
    let (code, out, err) = animscope(&["diff", &a, &b, "--json"]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let (summary, changes) = lines.split_last().expect("a summary line");
    let got: Vec<(String, String)> = changes
        .iter()
        .map(|j| (j["change"].as_str().unwrap_or("").to_string(), j["path"].as_str().unwrap_or("").to_string()))
        .collect();
    let want: Vec<(String, String)> = p.expected.iter().map(|(c, p)| (c.to_string(), p.clone())).collect();
    assert_eq!(got, want);
    assert_eq!(summary["summary"]["changes"], p.expected.len());
    // both spans on a change both sides have; null on the side without the node
    assert!(changes[0]["a"]["start"].is_u64() && changes[0]["b"]["end"].is_u64());
    let only_b = changes.last().expect("a change");
    assert!(only_b["a"].is_null() && only_b["b"]["start"].is_u64());
    // text: one head line per change, details indented, the totals at the end
    let (code, text, _) = animscope(&["diff", &a, &b]);
    assert_eq!(code, 1);
    let heads = text.lines().filter(|l| !l.starts_with(' ')).count();
    assert_eq!(heads, p.expected.len() + 2, "{text}");
    assert!(text.contains("    channels only in A: Root.px, Root.rx"), "{text}");
    // a subtree: only the sequence
    let (code, sub, _) = animscope(&["diff", &a, &b, "data/seq[YKI_WALK]/block1", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(sub.lines().count(), 3 + 1, "{sub}");
    let (code, same, _) = animscope(&["diff", &a, &b, "data/seq[TEST_SEQ]"]);
    assert_eq!((code, same.lines().next()), (0, Some("no differences")));
    // errors exit 2
    let (code, _, err) = animscope(&["diff", &a, "/nonexistent/x.mot"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = animscope(&["diff", &a, &b, "--tolerance", "-1"]);
    assert_eq!(code, 2);
}

// ------------------------------------------------------------------------------- SC6

fn sc6_clip(keys: Vec<Vec<i16>>) -> Vec<u8> {
    let frames = keys.len() as u16;
    let mut spec = sc6::write::ClipSpec::new(frames, 0, 0x2, keys);
    spec.codes = sc6::write::Codes::Flat;
    sc6::write::encode_clip(&spec).expect("encodes")
}

/// Root-only clips (mask bit 1: root x, y, z, facing words), one keyframe per frame.
fn root_keys(frames: i16, f: impl Fn(i16) -> [i16; 4]) -> Vec<Vec<i16>> {
    (0..frames).map(|k| f(k).to_vec()).collect()
}

#[test]
fn sc6_words_changed_and_an_alias_redirected() {
    let c0 = sc6_clip(root_keys(10, |k| [3 * k * k, 956, -20 * k, 0]));
    let c1 = root_keys(8, |k| [100 * k, 50, 0, 0]);
    let c2 = sc6_clip(root_keys(5, |k| [0, 10 * k, 0, 0]));
    // B: clip 1's keyframe 3 root.x word 300 → 1300; slot 3 plays clip 1 instead of clip 0.
    let mut c1b = c1.clone();
    c1b[3][0] = 1300;
    let a = sc6::write::encode_bank(&[c0.clone(), sc6_clip(c1), c2.clone()], &[0, 1, 2, 0]);
    let b = sc6::write::encode_bank(&[c0, sc6_clip(c1b), c2], &[0, 1, 2, 1]);
    let cs = changes("bank.mot", &a, &b);
    let anim_at = cs.iter().position(|c| c.what.name() == "anim").expect("an animation change");
    let c = &cs[anim_at];
    assert_eq!(c.path, "bank.mot/clip[1]");
    let What::Anim(anim) = &c.what else { unreachable!() };
    assert_eq!(anim.frames, (8, 8));
    assert!(anim.channels_only_in_a.is_empty() && anim.channels_only_in_b.is_empty());
    let names: Vec<&str> = anim.channels.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["root.x"], "{anim:#?}");
    let ch = &anim.channels[0];
    assert_eq!(ch.keys.0, ch.keys.1);
    let k = ch.key_changes.first().expect("a differing key");
    assert_eq!((k.index, k.a.map(|x| x.frame), k.b.map(|x| x.frame)), (3, Some(3.0), Some(3.0)));
    let l = ch.largest.expect("a sample difference");
    assert_eq!(l.frame, 3);
    assert!(l.b > l.a, "{l:?}");
    // every other change is inside clip[1] (its words), except the alias
    let alias: Vec<&Change> = cs.iter().filter(|c| c.what.name() == "alias").collect();
    assert_eq!(alias.len(), 1, "{cs:#?}");
    assert_eq!(alias[0].path, "bank.mot/clip[3]");
    assert_eq!(alias[0].what, What::Alias { old: Some("clip[0]".into()), new: Some("clip[1]".into()) });
    // The offset table: slot 3's offset is clip 1's now; slots after clip 1 move when its
    // re-encoded words take another length.
    let table = cs.iter().find(|c| c.path == "bank.mot/offset_table").expect("the offset table changed");
    let What::Bytes { fields, .. } = &table.what else { panic!("{table:#?}") };
    let f3 = fields.iter().find(|f| f.name == "offset[3]").expect("slot 3's offset");
    assert!(f3.old.as_deref().is_some_and(|v| v.ends_with("(alias of clip[0])")), "{f3:?}");
    assert!(f3.new.as_deref().is_some_and(|v| v.ends_with("(alias of clip[1])")), "{f3:?}");
    assert!(fields.iter().all(|f| matches!(f.name.as_str(), "offset[2]" | "offset[3]")), "{fields:?}");
    for c in &cs {
        let inside = c.path == "bank.mot/clip[1]" || c.path.starts_with("bank.mot/clip[1]/");
        let table = c.path == "bank.mot/offset_table";
        assert!(inside || table || c.path == "bank.mot/clip[3]", "unexpected {c:#?}");
        assert!(matches!(c.what.name(), "anim" | "bytes" | "alias"), "{c:#?}");
    }
    assert_identical_copy("bank.mot", &a);
}

// ------------------------------------------------------------------------------ CCSF

#[test]
fn ccsf_keys_changed_and_a_chunk_inserted() {
    use ccsf::write::{Chunk, Ctrl};
    let a_file = ccsf::write::chara();
    let mut b_file = a_file.clone();
    // B: the first ObjCtrl of ANM_walk moves to x = 6 (not 4) at frame 4, and a DummyPos
    // chunk for a new object goes in right after Setup, moving every later chunk by its size.
    for c in &mut b_file.chunks {
        if let Chunk::Anime { records, .. } = c
            && let Some(Chunk::ObjCtrl { pos, .. }) = records.iter_mut().find(|r| matches!(r, Chunk::ObjCtrl { .. }))
        {
            *pos = Ctrl::keys3(&[(0, [0.0, 0.0, 10.0]), (4, [6.0, 0.0, 10.0])]);
        }
    }
    b_file.objects.push(("DMY_new".into(), 0));
    let obj = b_file.obj("DMY_new");
    let setup = b_file.chunks.iter().position(|c| matches!(c, Chunk::Setup)).expect("a Setup");
    b_file.chunks.insert(setup + 1, Chunk::DummyPos { object: obj, pos: [7.0, 8.0, 9.0] });
    let (a, b) = (ccsf::write::write(&a_file), ccsf::write::write(&b_file));
    let cs = changes("chara.cmp", &a, &b);
    let added: Vec<&Change> = cs.iter().filter(|c| c.what.name() == "only_in_b").collect();
    assert_eq!(added.len(), 1, "{cs:#?}");
    assert_eq!(added[0].path, "chara.cmp/DummyPos[DMY_new]");
    assert!(cs.iter().all(|c| c.what.name() != "only_in_a"), "{cs:#?}");
    let anims: Vec<&Change> = cs.iter().filter(|c| c.what.name() == "anim").collect();
    assert_eq!(anims.len(), 1, "{cs:#?}");
    assert_eq!(anims[0].path, "chara.cmp/Anime[ANM_walk]");
    let What::Anim(anim) = &anims[0].what else { unreachable!() };
    assert!(anim.channels_only_in_a.is_empty() && anim.channels_only_in_b.is_empty());
    assert_eq!(anim.frames.0, anim.frames.1);
    let names: Vec<&str> = anim.channels.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), 1, "{anim:#?}");
    assert!(names[0].starts_with("OBJ_hip_c") && names[0].ends_with('x'), "{names:?}");
    let k = anim.channels[0].key_changes.first().expect("a key");
    assert_eq!(
        (k.index, k.a.map(|x| (x.frame, x.value)), k.b.map(|x| (x.frame, x.value))),
        (1, Some((4.0, 4.0)), Some((4.0, 6.0)))
    );
    // Shifted chunks whose bytes are equal are not reported: only the Header/Index (the new
    // object and sizes), the Anime and what is inside it.
    for c in &cs {
        let p = c.path.as_str();
        let ok = p == "chara.cmp"
            || p.starts_with("chara.cmp/Header")
            || p.starts_with("chara.cmp/Index")
            || p.starts_with("chara.cmp/Anime[ANM_walk]")
            || p == "chara.cmp/DummyPos[DMY_new]";
        assert!(ok, "unexpected {c:#?}");
    }
    assert_identical_copy("chara.cmp", &a);
}

// --------------------------------------------------------------------------- archive

#[test]
fn archive_with_one_member_replaced() {
    let p = motn_pair();
    let mini = ccsf::write::write(&ccsf::write::mini());
    let a = gzarc::write::archive(&[("mini.cmp".into(), mini.clone()), ("multi.mot".into(), p.a.clone())]);
    let b = gzarc::write::archive(&[("mini.cmp".into(), mini), ("multi.mot".into(), p.b.clone())]);
    let cs = changes("ARCH.BIN", &a, &b);
    // the member's own record (sizes, CRC) first, then the member's changes as in the
    // MOTN pair, under the member's path
    let inner: Vec<(&'static str, String)> =
        p.expected.iter().map(|(c, path)| (*c, format!("ARCH.BIN/{path}"))).collect();
    let got = listed(&cs);
    let split = got.len().checked_sub(inner.len()).expect("at least the member's changes");
    assert_eq!(owned(&got[split..]), inner, "{cs:#?}");
    for (what, path) in &got[..split] {
        assert_eq!((*what, path.as_str()), ("bytes", "ARCH.BIN/multi.mot"), "{cs:#?}");
    }
    assert!(split >= 1);
    assert!(cs.iter().all(|c| !c.path.contains("mini.cmp")));
    assert_identical_copy("ARCH.BIN", &a);
}

#[test]
fn a_span_is_reported_in_the_bytes_of_its_member() {
    let p = motn_pair();
    let a = gzarc::write::archive(&[("multi.mot".into(), p.a.clone())]);
    let b = gzarc::write::archive(&[("multi.mot".into(), p.b.clone())]);
    let nested = changes("X.BIN", &a, &b);
    let plain = changes("multi.mot", &p.a, &p.b);
    let spans = |cs: &[Change]| -> Vec<(Option<Span>, Option<Span>)> {
        cs.iter().filter(|c| c.path.contains("/data")).map(|c| (c.a, c.b)).collect()
    };
    assert_eq!(spans(&nested), spans(&plain));
}

// ------------------------------------------------------------------- TUI diff mode

mod tui {
    use super::*;
    use animscope::session::Opened;
    use animscope::tui::keymap::Chord;
    use animscope::tui::theme::Theme;
    use animscope::tui::{App, Config, diffview};
    use crossterm::event::KeyEvent;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;
    use ratatui::style::Modifier;

    fn app(name: &str, a: &[u8], b: &[u8]) -> App {
        let mut app = App::new(Opened::from_parsed(open(name, a.to_vec()), Vec::new()), Config::default());
        app.start_diff(Opened::from_parsed(open(name, b.to_vec()), Vec::new()));
        app
    }

    fn press(app: &mut App, keys: &str) {
        for k in keys.split_whitespace() {
            let c = Chord::parse(k).expect("a chord");
            app.handle_key(KeyEvent::new(c.code, c.mods));
            app.wait_idle();
        }
    }

    fn render(app: &mut App, w: u16, h: u16) -> Buffer {
        app.wait_idle();
        let mut term = Terminal::new(TestBackend::new(w, h)).expect("a terminal");
        term.draw(|f| animscope::tui::draw(app, f)).expect("draws");
        term.backend().buffer().clone()
    }

    fn rows(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height).map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>()).collect()
    }

    fn selected(app: &App) -> String {
        diffview::full_path(&app.workspace, app.sel.0, app.sel.1)
    }

    /// The paths `>` visits: each change's node (a node only B has: its parent).
    fn targets(p: &MotnPair) -> Vec<String> {
        p.expected
            .iter()
            .map(|(what, path)| {
                if *what == "only_in_b" {
                    path.rsplit_once('/').map_or(path.clone(), |(p, _)| p.to_string())
                } else {
                    path.clone()
                }
            })
            .collect()
    }

    #[test]
    fn next_and_previous_change_walk_the_list_and_wrap() {
        let p = motn_pair();
        let want = targets(&p);
        let mut app = app("multi.mot", &p.a, &p.b);
        assert!(
            app.message.as_ref().is_some_and(|m| m.1.contains(&format!("{} changes", want.len()))),
            "{:?}",
            app.message
        );
        for w in &want {
            press(&mut app, ">");
            assert_eq!(&selected(&app), w);
        }
        press(&mut app, ">");
        assert_eq!(selected(&app), want[0], "wraps to the first");
        press(&mut app, "<");
        assert_eq!(&selected(&app), want.last().expect("changes"), "and back to the last");
        press(&mut app, "<");
        assert_eq!(selected(&app), want[want.len() - 2]);
        // an identical copy: nothing to visit
        let mut same = super::tui::app("multi.mot", &p.a, &p.a);
        let before = same.sel;
        press(&mut same, ">");
        assert_eq!(same.sel, before);
        assert!(same.message.as_ref().is_some_and(|m| m.1.contains("no differences")));
    }

    #[test]
    fn a_key_picks_the_second_file() {
        let p = motn_pair();
        let (_d, _a, b) = on_disk("multi.mot", &p.a, &p.b);
        let mut app = App::new(Opened::from_parsed(open("multi.mot", p.a.clone()), Vec::new()), Config::default());
        assert!(app.diff.is_none());
        press(&mut app, "D");
        for ch in b.chars() {
            app.handle_key(KeyEvent::new(crossterm::event::KeyCode::Char(ch), crossterm::event::KeyModifiers::NONE));
        }
        press(&mut app, "enter");
        assert_eq!(app.diff.as_ref().map(|d| d.changes.len()), Some(p.expected.len()), "{:?}", app.message);
        press(&mut app, ">");
        assert_eq!(selected(&app), targets(&p)[0]);
        // a file that is not there: a message, diff mode unchanged
        press(&mut app, "D");
        for ch in "/nonexistent/b.mot".chars() {
            app.handle_key(KeyEvent::new(crossterm::event::KeyCode::Char(ch), crossterm::event::KeyModifiers::NONE));
        }
        press(&mut app, "enter");
        assert!(app.message.as_ref().is_some_and(|m| m.1.starts_with("diff: ")), "{:?}", app.message);
        assert!(app.diff.is_some());
    }

    #[test]
    fn the_tree_marks_changed_removed_and_added_nodes() {
        let p = motn_pair();
        let mut app = app("multi.mot", &p.a, &p.b);
        // the removed channels are under block5: go there (the sequence opens on the way)
        let removed_at = p.expected.iter().position(|(w, _)| *w == "only_in_a").expect("a removed channel");
        for _ in 0..=removed_at {
            press(&mut app, ">");
        }
        // the tree pane only: its 32 columns at this size
        let screen: Vec<String> =
            rows(&render(&mut app, 160, 60)).iter().map(|r| r.chars().take(32).collect()).collect();
        let row = |needle: &str| -> Option<&String> { screen.iter().find(|r| r.contains(needle)) };
        let mark_before = |needle: &str| -> Option<char> {
            let r = row(needle)?;
            let at = r.find(needle)?;
            r[..at].trim_end().chars().last()
        };
        assert_eq!(mark_before("seq[YKI_WALK]"), Some('~'), "{screen:#?}");
        assert_eq!(mark_before("header  sequence hea"), Some('~'), "{screen:#?}");
        assert_eq!(mark_before(&format!("{}  chan", p.removed[0])), Some('-'), "{screen:#?}");
        assert_eq!(mark_before("block5"), Some('·'), "{screen:#?}");
        // data: a padding run only B has, so data gains a child
        assert_eq!(mark_before("data  sequence"), Some('+'), "{screen:#?}");
        // a sequence that did not change has no mark
        let test_seq = row("seq[TEST_SEQ]").expect("TEST_SEQ is listed");
        assert!(!test_seq.contains("~ seq") && !test_seq.contains("· seq"), "{test_seq}");
    }

    #[test]
    fn hex_shows_both_byte_runs_with_the_differences_highlighted() {
        let p = motn_pair();
        let mut app = app("multi.mot", &p.a, &p.b);
        press(&mut app, "> >"); // the sequence header
        assert!(selected(&app).ends_with("seq[YKI_WALK]/header"));
        let buf = render(&mut app, 160, 60);
        let screen = rows(&buf);
        assert!(screen.iter().any(|r| r.contains("A / B · multi.mot/data/seq[YKI_WALK]/header")), "{screen:#?}");
        let start = app.workspace.docs[0].doc().node(app.sel.1).expect("a node").span.start;
        let a_row = screen.iter().position(|r| r.contains(&format!("A {start:08x} "))).expect("A's row");
        let b_row = screen.iter().position(|r| r.contains(&format!("B {start:08x} "))).expect("B's row");
        assert_eq!(b_row, a_row + 1);
        // the header's first 8 bytes: the frame count and kind are kept, block offsets
        // move; the highlighted cells are exactly the bytes that differ
        let col = screen[a_row].find(&format!("A {start:08x} ")).expect("found") + format!("A {start:08x} ").len();
        let (sa, _) = (start as usize, 0);
        let old = &p.a[sa..sa + 8];
        let new = &p.b[sa..sa + 8];
        for i in 0..8 {
            let x = u16::try_from(screen[a_row][..col].chars().count() + 3 * i).expect("fits");
            for (row, bytes) in [(a_row, old), (b_row, new)] {
                let cell = &buf[(x, u16::try_from(row).expect("fits"))];
                let lit = cell.modifier.contains(Modifier::REVERSED);
                assert_eq!(lit, old[i] != new[i], "byte {i} of row {row}: {:02x}", bytes[i]);
            }
        }
        assert!(old != new);
    }

    #[test]
    fn decode_overlays_the_other_files_curve() {
        let c0 = sc6_clip(root_keys(10, |k| [3 * k * k, 956, -20 * k, 0]));
        let c1 = root_keys(8, |k| [100 * k, 50, 0, 0]);
        let mut c1b = c1.clone();
        c1b[3][0] = 1300;
        let a = sc6::write::encode_bank(&[c0.clone(), sc6_clip(c1)], &[0, 1]);
        let b = sc6::write::encode_bank(&[c0, sc6_clip(c1b)], &[0, 1]);
        let mut app = app("bank.mot", &a, &b);
        for _ in 0..8 {
            if selected(&app) == "bank.mot/clip[1]" {
                break;
            }
            press(&mut app, ">");
        }
        assert_eq!(selected(&app), "bank.mot/clip[1]");
        press(&mut app, "4");
        let buf = render(&mut app, 160, 48);
        let screen = rows(&buf);
        assert!(screen.iter().any(|r| r.contains("Decode A/B · clip 1")), "{screen:#?}");
        let dim = Theme::colour().dim;
        let overlay_cells = buf
            .content
            .iter()
            .filter(|c| {
                c.symbol().chars().next().is_some_and(|ch| ('\u{2801}'..='\u{28ff}').contains(&ch))
                    && c.fg == dim.fg.unwrap_or_default()
            })
            .count();
        assert!(overlay_cells > 0, "B's curve shows where it leaves A's:\n{}", screen.join("\n"));
        // clip[0] is the same in both: nothing overlaid shows
        app.diff = None;
        let plain = render(&mut app, 160, 48);
        let dim_cells = plain
            .content
            .iter()
            .filter(|c| {
                c.symbol().chars().next().is_some_and(|ch| ('\u{2801}'..='\u{28ff}').contains(&ch))
                    && c.fg == dim.fg.unwrap_or_default()
            })
            .count();
        assert_eq!(dim_cells, 0, "without diff mode no curve is drawn dim");
    }
}
