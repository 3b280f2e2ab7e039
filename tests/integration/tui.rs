//! TUI tests: key events into `App`, rendered on a `TestBackend`, checked as text
//! snapshots (colours dropped) and with style assertions on the buffer. The documents come
//! from a small fake format defined here, so these tests do not depend on real formats.

use animscope::error::Result as PResult;
use animscope::formats::tally::Tally;
use animscope::formats::{DecodeOptions, Format, Member, Parsed};
use animscope::limits::Limits;
use animscope::model::anim::{Clip, Key, PoseSeq, Space, Track, Unit};
use animscope::model::{Diagnostic, Document, Field, NodeId, Severity, Span, Value, WalkStep};
use animscope::session::Opened;
use animscope::source::Source;
use animscope::tui::app::{Load, Pane};
use animscope::tui::keymap::{Chord, Keymap};
use animscope::tui::theme::Theme;
use animscope::tui::{App, Config};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use std::sync::Arc;

use super::support::{press, render, screen, text};
use animscope::test_support::{FakeParsed, no_decode};

/// A fake format: header, two clips (one with poses), 250 one-byte items (bucketed in the
/// tree), an unparsed gap, and a member holding another document.
struct Fake;

const LEN: usize = 0x200;
const ITEMS: u64 = 250;

fn fake_bytes() -> Vec<u8> {
    let mut v: Vec<u8> = (0..LEN).map(|i| (i * 7 % 251) as u8).collect();
    v[..4].copy_from_slice(b"FAKE");
    v[4..8].copy_from_slice(&2u32.to_le_bytes());
    v[0x30] = 0x1f;
    v[0x31] = 0x8b;
    v[0x1a0..0x1c0].fill(0);
    v
}

impl Fake {
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> PResult<Document> {
        let mut d = Document::new("fake", name, "archive", data.len() as u64, limits);
        let h = d.add_node(NodeId::ROOT, "Header", "Header", Span::new(0, 0x10));
        d.add_field(h, Field::new("magic", Span::at(0, 4), Value::text(b"FAKE")));
        d.add_field(h, Field::new("clips", Span::at(4, 4), Value::dec(2)));
        d.add_field(h, Field::new("version", Span::at(8, 4), Value::uint(0x0102, 4).label("v1.2")));
        d.add_field(h, Field::new("reserved", Span::at(12, 4), Value::unknown_bytes(4)).note("[I] inferred"));
        for (i, span) in [Span::new(0x10, 0x40), Span::new(0x40, 0x80)].into_iter().enumerate() {
            let c = d.add_node(NodeId::ROOT, format!("clip[{i}]"), "clip", span);
            d.node_mut(c).unwrap().anim = Some(format!("clip:{i}"));
            d.node_mut(c).unwrap().summary = "31 frames @30 Hz".into();
            d.add_field(c, Field::new("frame_count", Span::at(span.start, 2), Value::dec(31)));
            d.add_field(c, Field::new("fps", Span::at(span.start + 2, 2), Value::dec(30)));
            d.add_field(c, Field::new("data", Span::new(span.start + 4, span.end), Value::bytes(span.len() - 4)));
        }
        let items = d.add_node(NodeId::ROOT, "items", "items", Span::new(0x80, 0x80 + ITEMS));
        for i in 0..ITEMS {
            let it = d.add_node(items, format!("item[{i}]"), "item", Span::at(0x80 + i, 1));
            d.add_field(it, Field::new("v", Span::at(0x80 + i, 1), Value::uint(u64::from(data[0x80 + i as usize]), 1)));
        }
        let m = d.add_node(NodeId::ROOT, "inner.bin", "member", Span::new(0x180, 0x200));
        d.node_mut(m).unwrap().member = Some(0);
        d.add_field(m, Field::new("packed", Span::new(0x180, 0x1a0), Value::bytes(0x20)));
        d.diag(Diagnostic::new(Severity::Warning, Some(0x17a), "items", "6 bytes after the items are not parsed"));
        let steps = [
            (Span::new(0, 0x10), "header", "magic FAKE, 2 clips", Some(0x10), Some(h)),
            (Span::new(0x10, 0x40), "clip 0", "frame_count 31; size computed from the next clip", Some(0x40), None),
            (Span::new(0x40, 0x80), "clip 1", "frame_count 31; ends at the item table", Some(0x80), None),
            (Span::new(0x80, 0x17a), "items", "250 one-byte items", Some(0x180), Some(items)),
            (Span::new(0x180, 0x200), "member", "packed member inner.bin to the end", None, Some(m)),
        ];
        for (span, what, detail, next, node) in steps {
            d.walk.push(WalkStep { span, what: what.into(), detail: detail.into(), next, node });
        }
        d.validate()
            .map_err(|e| animscope::error::ParseError::new(0, animscope::error::ErrorKind::NotFound(e.join("; "))))?;
        Ok(d)
    }
    fn decode(&self, _: &[u8], key: &str, _: &DecodeOptions, _: &Limits) -> PResult<Clip> {
        let idx: usize = key.trim_start_matches("clip:").parse().unwrap_or(0);
        let mut c = Clip::new(format!("clip {idx}"), 30.0, 31);
        let sine: Vec<f64> = (0..31).map(|f| (f as f64 / 30.0 * std::f64::consts::TAU).sin()).collect();
        let cosine: Vec<f64> = (0..31).map(|f| 2.0 * (f as f64 / 30.0 * std::f64::consts::TAU).cos()).collect();
        let keys = [0usize, 10, 20, 30]
            .iter()
            .map(|&f| Key { frame: f as f64, value: sine[f], detail: format!("key@{f}") })
            .collect();
        c.tracks.push(Track {
            name: "root.ry".into(),
            target: "root".into(),
            unit: Unit::Radians,
            keys,
            samples: sine,
            unknown: false,
        });
        c.tracks.push(Track {
            name: "root.x".into(),
            target: "root".into(),
            unit: Unit::Metres,
            keys: Vec::new(),
            samples: cosine,
            unknown: false,
        });
        c.tables.push(animscope::model::anim::Table {
            name: "per frame".into(),
            columns: vec!["frame".into(), "word".into()],
            rows: (0..31).map(|f| vec![f.to_string(), format!("0x{:04x}", f * 0x111)]).collect(),
        });
        if idx == 0 {
            c.poses = Some(PoseSeq {
                space: Space::FormatModel,
                bones: vec!["root".into()],
                frames: (0..31).map(|_| vec![glam::Mat4::IDENTITY]).collect(),
                parents: vec![None],
                source: "fake".into(),
                skeleton: "fake".into(),
                conversion: "none".into(),
                rest: vec![glam::Mat4::IDENTITY],
                conversion_matrix: glam::Mat4::IDENTITY,
            });
        }
        Ok(c)
    }
    fn member(&self, _: &[u8], index: u32, _: &Limits) -> PResult<Member> {
        assert_eq!(index, 0);
        Ok(Member { name: "inner.bin".into(), bytes: b"inner member bytes\0\0\0\0".to_vec(), inflated: true })
    }
}

impl Format for Fake {
    fn id(&self) -> &'static str {
        "fake"
    }
    fn description(&self) -> &'static str {
        "test format"
    }
    fn sniff(&self, _: &[u8], _: &str) -> u8 {
        0
    }
    fn open(&self, source: Arc<Source>, limits: &Limits) -> PResult<Box<dyn Parsed>> {
        let doc = Fake.describe(source.bytes(), source.name(), limits)?;
        Ok(Box::new(FakeParsed {
            format: &FAKE,
            source,
            doc,
            decode: |k| Fake.decode(&[], k, &DecodeOptions::default(), &Limits::default()),
            member: Some(|i| Fake.member(&[], i, &Limits::default())),
        }))
    }
    fn check(&self, _: &Source, _: &Limits) -> PResult<Vec<Diagnostic>> {
        Ok(Vec::new())
    }
    fn survey(&self, _: &Source, _: &Limits, _: &(dyn Fn(u64) + Sync), _: &mut Tally) -> PResult<()> {
        Ok(())
    }
}

static FAKE: Fake = Fake;

fn opened() -> Opened {
    let src = Source::from_vec("fake.bin", fake_bytes());
    Opened::from_parsed(animscope::formats::open_as(&FAKE, Arc::new(src), &Limits::default()).unwrap(), Vec::new())
}

fn new_app(state: Option<&std::path::Path>) -> App {
    let cfg = Config { state_dir: state.map(|p| p.to_path_buf()), ..Config::default() };
    App::new(opened(), cfg)
}

fn typed(app: &mut App, text: &str) {
    for ch in text.chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE));
    }
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    app.wait_idle();
}

/// Cell of the first occurrence of `needle` on a row starting with `row_prefix`.
fn find_cell(buf: &Buffer, row_prefix: &str, needle: &str) -> (u16, u16) {
    let t = text(buf);
    for (y, line) in t.lines().enumerate() {
        if let Some(p) = line.find(row_prefix) {
            let rest = &line[p..];
            if let Some(q) = rest.find(needle) {
                let col = line[..p + q].chars().count() as u16;
                return (col, y as u16);
            }
        }
    }
    panic!("{needle} after {row_prefix} not on screen:\n{t}");
}

#[test]
fn every_pane_at_80x24() {
    let mut app = new_app(None);
    press(&mut app, "j j"); // Header, clip[0]
    for (key, name) in
        [("1", "tree"), ("2", "hex"), ("3", "fields"), ("4", "decode"), ("5", "walk"), ("6", "diagnostics")]
    {
        press(&mut app, key);
        let s = screen(&mut app, 80, 24);
        insta::assert_snapshot!(format!("pane_{name}_80x24"), s);
    }
    press(&mut app, "4 z");
    insta::assert_snapshot!("decode_zoomed_80x24", screen(&mut app, 80, 24));
}

#[test]
fn open_clip_and_scrub_frames() {
    let mut app = new_app(None);
    press(&mut app, "j j");
    assert!(matches!(app.clip(), Some(Load::Ready(_))));
    press(&mut app, "4 . . . j");
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("frame 3/30  root.x = 1.6180 m"), "{s}");
    assert!(s.contains("Decode · clip 0  31 frames @30 Hz"), "{s}");
    insta::assert_snapshot!("clip_scrubbed_200x60", s);
    // toggle root.ry off: only one channel drawn
    press(&mut app, "k space");
    assert_eq!(app.decode.enabled, vec![false, true]);
    press(&mut app, "end");
    assert!(screen(&mut app, 200, 60).contains("frame 30/30  root.ry = 0.0000 rad (0.0°)  key: key@30"));
    press(&mut app, "=");
    // (the plot's axis line needs the wider plot of 240 columns to be whole)
    assert!(screen(&mut app, 240, 60).contains("y: each channel in its own range"));
    // stored tables instead of the plot; the frame cursor's row is marked
    press(&mut app, "t home . .");
    let buf = render(&mut app, 200, 60);
    let s = text(&buf);
    assert!(s.contains("per frame (31 rows)"), "{s}");
    let (x, y) = find_cell(&buf, "2 ", "0x0222");
    assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED), "frame 2 row marked:\n{s}");
}

#[test]
fn walk_steps_move_the_hex_cursor_and_fields() {
    let mut app = new_app(None);
    press(&mut app, "w");
    assert_eq!(app.focus, Pane::Walk);
    assert_eq!(app.cur().walk_step, Some(0));
    press(&mut app, "j");
    assert_eq!(app.cur().cursor, 0x10);
    assert_eq!(app.sel.1, NodeId(2), "clip[0] follows from the cursor");
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("frame_count 31; size computed from the next clip"), "{s}");
    assert!(s.contains("Fields · clip clip[0] @0x10..0x40"), "{s}");
    insta::assert_snapshot!("walk_step2_120x40", s);
    press(&mut app, ") ) )");
    assert_eq!(app.cur().walk_step, Some(4));
    assert_eq!(app.cur().cursor, 0x180);
    press(&mut app, "(");
    assert_eq!(app.cur().cursor, 0x80);
    // follow a field in hex: next field from the items start
    press(&mut app, "2 ]");
    assert_eq!(app.cur().cursor, 0x81);
    assert_eq!(app.field_sel, Some((app.sel.1, 0)));
    assert_eq!(app.cur().doc().node(app.sel.1).unwrap().key, "item[1]");
}

#[test]
fn goto_offsets_and_paths() {
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "0x150");
    assert_eq!(app.cur().cursor, 0x150);
    assert_eq!(app.cur().doc().node(app.sel.1).unwrap().key, "item[208]");
    press(&mut app, "g");
    typed(&mut app, "+0x20");
    assert_eq!(app.cur().cursor, 0x170);
    press(&mut app, "g");
    typed(&mut app, "16");
    assert_eq!(app.cur().cursor, 16);
    press(&mut app, "g");
    typed(&mut app, "clip[1]");
    assert_eq!(app.cur().cursor, 0x40);
    assert_eq!(app.sel.1, NodeId(3));
    press(&mut app, "g");
    typed(&mut app, "0x9999");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("0x9999 is past the end"), "{s}");
    insta::assert_snapshot!("goto_past_end_80x24", s);
    press(&mut app, "g");
    typed(&mut app, "nowhere");
    assert!(screen(&mut app, 120, 24).contains("goto: nowhere is not an offset"));
}

#[test]
fn search_hex_and_text_next_previous() {
    let mut app = new_app(None);
    press(&mut app, "/");
    assert!(screen(&mut app, 80, 24).contains("search (hex: 1f 8b · text · i:text any case)>"));
    typed(&mut app, "1f 8b");
    assert_eq!(app.cur().cursor, 0x30);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("hex 1f 8b at 0x30"), "{s}");
    insta::assert_snapshot!("search_1f8b_80x24", s);
    press(&mut app, "n");
    assert_eq!(app.cur().cursor, 0x30, "only match: wraps to itself");
    assert!(screen(&mut app, 80, 24).contains("(wrapped)"));
    press(&mut app, "/");
    typed(&mut app, "FAKE");
    assert_eq!(app.cur().cursor, 0);
    press(&mut app, "/");
    typed(&mut app, "x:00 00 00 00 00");
    let first = app.cur().cursor;
    assert_eq!(first, 0x1a0);
    press(&mut app, "n");
    assert_eq!(app.cur().cursor, 0x1a1);
    press(&mut app, "N");
    assert_eq!(app.cur().cursor, 0x1a0);
    press(&mut app, "/");
    typed(&mut app, "no such text");
    assert!(screen(&mut app, 80, 24).contains("\"no such text\" not found"));
}

#[test]
fn help_is_generated_from_the_keymap() {
    let mut app = new_app(None);
    press(&mut app, "?");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("keymap: default"), "{s}");
    // the focused pane's keys first (the app starts on the tree)
    assert!(s.contains("── tree and finding (the focused pane)"), "{s}");
    insta::assert_snapshot!("help_80x24", s);
    // the rest further down, or typed
    for c in "quit".chars() {
        app.handle_key(crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char(c),
            crossterm::event::KeyModifiers::NONE,
        ));
    }
    assert!(screen(&mut app, 80, 24).contains("quit and restore the terminal"));
    press(&mut app, "esc");
    assert!(app.help.is_none());
    // a patched keymap shows up in help
    let mut km = Keymap::shipped("vim").unwrap();
    km.patch_text("[[bind]]\nkeys = \"X\"\naction = \"export\"\ndesc = \"send it away\"\n", "mine").unwrap();
    let mut app = App::new(opened(), Config { keymap: km, ..Config::default() });
    press(&mut app, "?");
    let s = screen(&mut app, 100, 90);
    assert!(s.contains("keymap: default + vim + mine"), "{s}");
    assert!(s.contains("send it away"), "{s}");
    assert!(s.contains("g g"), "{s}");
    // the selection and named-bookmark keys are listed in every keymap's help
    for name in ["default", "vim", "emacs"] {
        let app_km = Keymap::shipped(name).unwrap();
        let mut app = App::new(opened(), Config { keymap: app_km, ..Config::default() });
        press(&mut app, "?");
        let s = screen(&mut app, 120, 100);
        for want in ["shift-left", "select_left", "shift-down", "select_down", "bookmark_named"] {
            assert!(s.contains(want), "{name}: {want} not in help:\n{s}");
        }
        if name == "emacs" {
            assert!(s.contains("ctrl-x r m"), "{s}");
        }
    }
}

#[test]
fn members_open_in_the_background_and_appear_inline() {
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "inner.bin");
    press(&mut app, "1 l");
    app.wait_idle();
    assert_eq!(app.workspace.docs.len(), 2);
    press(&mut app, "j j");
    assert_eq!(app.sel, (1, NodeId::ROOT));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Hex · fake.bin › inner.bin (inflated)"), "{s}");
    insta::assert_snapshot!("member_inline_80x24", s);
    // the member's bytes are searched, not the outer file's
    press(&mut app, "/");
    typed(&mut app, "bytes");
    assert_eq!(app.cur().cursor, 13);
}

#[test]
fn long_child_lists_are_bucketed() {
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "items");
    press(&mut app, "1 l");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("item [0..100)"), "{s}");
    assert!(s.contains("item [200..250)"), "{s}");
    let tree_col: String = s.lines().map(|l| l.chars().take(24).collect::<String>()).collect::<Vec<_>>().join("\n");
    assert!(!tree_col.contains("item[0]"), "closed buckets build no items:\n{s}");
    // hex cursor into the third bucket opens it and selects the item
    press(&mut app, "g");
    typed(&mut app, "0x14b");
    assert_eq!(app.cur().doc().node(app.sel.1).unwrap().key, "item[203]");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("item[203]"), "{s}");
    insta::assert_snapshot!("bucket_follow_80x24", s);
}

#[test]
fn hex_highlights_have_distinct_styles() {
    let mut app = new_app(None);
    // cursor on clip[0].fps (0x12): field = fps, node = clip[0], parent = root
    press(&mut app, "g");
    typed(&mut app, "0x12");
    let buf = render(&mut app, 200, 60);
    let theme = Theme::colour();
    let (x, y) = find_cell(&buf, "00000010", "[7e");
    let cursor = &buf[(x + 1, y)];
    assert!(cursor.modifier.contains(Modifier::REVERSED), "cursor reversed: {cursor:?}");
    let field = &buf[(x + 4, y)]; // 0x13, second byte of fps
    assert_eq!(field.bg, theme.field.bg.unwrap(), "field bg: {field:?}");
    let node = &buf[(x + 7, y)]; // 0x14, clip data: in the node, not the field
    assert_eq!(node.bg, theme.node.bg.unwrap(), "node bg: {node:?}");
    let (_, y0) = find_cell(&buf, "00000000", "46");
    let (px, _) = find_cell(&buf, "00000000", " 46");
    let parent = buf[(px + 1, y0)].clone();
    assert!(parent.modifier.contains(Modifier::UNDERLINED), "parent underlined: {parent:?}");
    assert_ne!(parent.bg, theme.node.bg.unwrap());
    // unparsed gap (0x17a..0x180 has no field) is dimmed; byte categories colour the rest
    press(&mut app, "g");
    typed(&mut app, "0x100");
    let buf = render(&mut app, 200, 60);
    let (gx, gy) = find_cell(&buf, "00000170", "  ");
    let gap_x = gx + 2 + 10 * 3 + 1; // byte 0x17a
    let gap = &buf[(gap_x, gy)];
    assert!(gap.modifier.contains(Modifier::DIM), "gap dim: {gap:?} at {gap_x},{gy}\n{}", text(&buf));
    let (hx, hy) = find_cell(&buf, "00000100", " ");
    let b = &buf[(hx + 2, hy)];
    assert_ne!(b.fg, Color::Reset, "byte categories coloured: {b:?}");
    // NO_COLOR: modifiers only
    let mut mono = App::new(opened(), Config { theme: Theme::mono(), ..Config::default() });
    let buf = render(&mut mono, 120, 40);
    assert!(buf.content().iter().all(|c| c.fg == Color::Reset && c.bg == Color::Reset), "no colours under NO_COLOR");
}

#[test]
fn export_prompts_and_never_overwrites_silently() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clip0.json");
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "clip[0]");
    press(&mut app, "e");
    assert_eq!(app.prompt.as_ref().map(|p| p.text()), Some("clip_0.json"));
    // replace the suggested path
    for _ in 0..20 {
        app.handle_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    }
    typed(&mut app, out.to_str().unwrap());
    let json = std::fs::read_to_string(&out).unwrap();
    assert!(json.contains("\"schema\": \"sc6-armature-matrices-v1\""), "{json}");
    assert!(screen(&mut app, 120, 24).contains("wrote "));
    std::fs::write(&out, "keep me").unwrap();
    press(&mut app, "e");
    for _ in 0..20 {
        app.handle_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    }
    typed(&mut app, out.to_str().unwrap());
    let s = screen(&mut app, 160, 24);
    assert!(s.contains("exists; overwrite? (y/n)>"), "{s}");
    press(&mut app, "n");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    press(&mut app, "e");
    for _ in 0..20 {
        app.handle_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    }
    typed(&mut app, out.to_str().unwrap());
    press(&mut app, "y");
    assert!(std::fs::read_to_string(&out).unwrap().contains("sc6-armature-matrices-v1"));
    // a clip without poses says why not
    press(&mut app, "g");
    typed(&mut app, "clip[1]");
    press(&mut app, "e");
    assert!(app.prompt.is_none());
    assert!(screen(&mut app, 160, 24).contains("clip 1 has tracks but no posed matrices"));
    // a node without animation: its bytes, as they are
    press(&mut app, "g");
    typed(&mut app, "Header");
    press(&mut app, "e");
    assert_eq!(prompt_text(&app).as_deref(), Some("Header.bin"));
    assert!(screen(&mut app, 160, 24).contains("export bytes 0x0..0x10 (16 B) to (tab completes)> Header.bin"));
}

#[test]
fn e_writes_the_bytes_of_a_node_or_of_the_shift_selected_range() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "Header");
    press(&mut app, "e");
    let out = dir.path().join("head.bin");
    chord(&mut app, "ctrl-u");
    typed(&mut app, out.to_str().unwrap());
    assert_eq!(std::fs::read(&out).unwrap(), fake_bytes()[..0x10]);
    assert!(screen(&mut app, 160, 24).contains("16 bytes (0x0..0x10 of fake.bin)"));
    // shift-select 1f 8b and the two bytes after them
    press(&mut app, "g");
    typed(&mut app, "0x30");
    press(&mut app, "shift-right shift-right shift-right");
    let buf = render(&mut app, 120, 30);
    assert!(text(&buf).contains("selected 0x30..0x34 (4 bytes; y copies, e exports)"), "{}", text(&buf));
    let (x, y) = find_cell(&buf, "00000030", " 1f");
    assert_eq!(buf[(x + 1, y)].bg, Color::Green, "the range is highlighted");
    let (x, y) = find_cell(&buf, "00000030", " 8b");
    assert_eq!(buf[(x + 1, y)].bg, Color::Green);
    press(&mut app, "y h");
    let bytes = &fake_bytes()[0x30..0x34];
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(app.osc.last().unwrap(), &animscope::tui::clipboard::osc52(&hex.join(" ")));
    press(&mut app, "e");
    assert_eq!(prompt_text(&app).as_deref(), Some("bytes_0x30-0x34.bin"));
    chord(&mut app, "ctrl-u");
    typed(&mut app, out.to_str().unwrap());
    // the file exists: asked first, then the range replaces it
    assert!(screen(&mut app, 160, 24).contains("exists; overwrite? (y/n)>"));
    press(&mut app, "y");
    assert_eq!(std::fs::read(&out).unwrap(), [0x1f, 0x8b, bytes[2], bytes[3]]);
    // upwards from the anchor too; a plain move ends the selection
    press(&mut app, "g");
    typed(&mut app, "0x40");
    press(&mut app, "shift-up");
    assert!(screen(&mut app, 160, 24).contains("selected 0x30..0x41 (17 bytes"));
    press(&mut app, "right e");
    assert_eq!(prompt_text(&app).as_deref(), Some("clip_0.json"), "no range: the clip under the cursor");
}

#[test]
fn search_counts_matches_and_has_an_any_case_text_mode() {
    let mut app = new_app(None);
    press(&mut app, "/");
    // 32 zero bytes at 0x1a0: a run of five starts at each of 0x1a0..=0x1bb
    typed(&mut app, "x:00 00 00 00 00");
    assert_eq!(app.cur().cursor, 0x1a0);
    assert!(screen(&mut app, 120, 24).contains("hex 00 00 00 00 00 at 0x1a0: match 1/28"));
    press(&mut app, "n n");
    assert!(screen(&mut app, 120, 24).contains("at 0x1a2: match 3/28"));
    press(&mut app, "N");
    assert!(screen(&mut app, 120, 24).contains("at 0x1a1: match 2/28"));
    // the magic in lower case: not found as typed, found with i:
    press(&mut app, "/");
    typed(&mut app, "fake");
    assert!(screen(&mut app, 120, 24).contains("\"fake\" not found"));
    press(&mut app, "/");
    assert!(screen(&mut app, 120, 24).contains("i:text any case"), "the prompt says how");
    typed(&mut app, "i:fAkE");
    assert_eq!(app.cur().cursor, 0);
    assert!(screen(&mut app, 120, 24).contains("\"fAkE\" (any case) at 0x0: match 1/1"));
}

#[test]
fn bookmarks_can_be_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(Some(dir.path()));
    press(&mut app, "g");
    typed(&mut app, "0x44");
    press(&mut app, "B");
    assert!(screen(&mut app, 120, 24).lines().last().unwrap().starts_with("name for the bookmark at 0x44>"));
    typed(&mut app, "second clip");
    assert!(screen(&mut app, 160, 24).contains("bookmarked 0x44 as \"second clip\""));
    let mut again = new_app(Some(dir.path()));
    assert_eq!(again.diagnostics.bookmarks.get().marks.len(), 1);
    press(&mut again, "6");
    assert!(screen(&mut again, 100, 24).contains("bookmark \"second clip\" fake.bin @0x44"));
    press(&mut again, "'");
    assert_eq!(again.cur().cursor, 0x44);
    assert!(screen(&mut again, 100, 24).contains("bookmark \"second clip\" @0x44"));
    // B again offers the name to edit
    press(&mut again, "B");
    assert_eq!(prompt_text(&again).as_deref(), Some("second clip"));
}

#[test]
fn the_inspector_shows_f64_hex_and_binary() {
    let mut app = new_app(None);
    // 0x1a0: zeros, then the tall hex pane's six inspector lines
    press(&mut app, "2 z g");
    typed(&mut app, "0x8");
    let s = screen(&mut app, 120, 40);
    // at 0x8: 38 3f 46 4d 54 5b 62 69 (byte i is i * 7 % 251)
    assert!(s.contains("u16 16184 0x3f38"), "{s}");
    assert!(s.contains("u32 1296449336 0x4d463f38"), "{s}");
    assert!(s.contains("b16 0b00111111_00111000"), "{s}");
    assert!(s.contains("b32 0b01001101_01000110_00111111_00111000"), "{s}");
    // the eight bytes as a little-endian f64
    assert!(s.contains("f64 4.3910e199"), "{s}");
}

#[test]
fn copy_as_sends_osc52() {
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "0x1");
    press(&mut app, "y h");
    assert_eq!(app.osc.last().unwrap(), &animscope::tui::clipboard::osc52("46 41 4b 45"));
    press(&mut app, "y c");
    // a declaration named after the node and field, as `xxd -i` writes one
    let decl = "unsigned char Header_magic[] = {\n  0x46, 0x41, 0x4b, 0x45\n};\nunsigned int Header_magic_len = 4;\n";
    assert_eq!(app.osc.last().unwrap(), &animscope::tui::clipboard::osc52(decl));
    press(&mut app, "y b");
    assert_eq!(app.osc.last().unwrap(), &animscope::tui::clipboard::osc52("RkFLRQ=="));
    // what was sent, not "copied": nothing tells whether the terminal took it
    assert!(screen(&mut app, 120, 24).contains("sent 4 bytes at 0x0 as base64 to the terminal clipboard (OSC 52)"));
    press(&mut app, "y x");
    assert!(screen(&mut app, 120, 24).contains("y x is not bound"));
}

#[test]
fn bookmarks_persist_by_content() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(Some(dir.path()));
    press(&mut app, "g");
    typed(&mut app, "0x44");
    press(&mut app, "m");
    press(&mut app, "g");
    typed(&mut app, "0x100");
    press(&mut app, "m home");
    let mut again = new_app(Some(dir.path()));
    assert_eq!(again.diagnostics.bookmarks.get().marks.len(), 2);
    press(&mut again, "'");
    assert_eq!(again.cur().cursor, 0x44);
    press(&mut again, "'");
    assert_eq!(again.cur().cursor, 0x100);
    press(&mut again, "6");
    let s = screen(&mut again, 80, 24);
    assert!(s.contains("bookmark fake.bin @0x44"), "{s}");
    assert!(s.contains("warning @0x17a items: 6 bytes after the items"), "{s}");
    press(&mut again, "j j enter");
    assert_eq!(again.cur().cursor, 0x100);
    assert_eq!(again.focus, Pane::Hex);
}

#[test]
fn zero_rows_collapse_and_endianness_toggles() {
    let mut app = new_app(None);
    press(&mut app, "2 Z");
    press(&mut app, "g");
    typed(&mut app, "0x190");
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("* 2 zero rows 0x1a0..0x1c0"), "{s}");
    press(&mut app, "Z");
    assert!(!screen(&mut app, 200, 60).contains("zero rows"));
    press(&mut app, "g");
    typed(&mut app, "0x4");
    // the inspector's cells keep their columns (padded to their widest value): compared
    // with the runs of spaces between them squeezed
    let squeezed = |s: String| s.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    assert!(squeezed(screen(&mut app, 200, 60)).contains("LE u8 0x02 2 i8 2 u16 2 0x0002 i16 2 u32 2 0x00000002"));
    press(&mut app, "E");
    assert!(
        squeezed(screen(&mut app, 200, 60))
            .contains("BE u8 0x02 2 i8 2 u16 512 0x0200 i16 512 u32 33554432 0x02000000")
    );
}

#[test]
fn renders_at_any_size_without_panicking() {
    let mut app = new_app(None);
    press(&mut app, "j j");
    for zoom in [false, true] {
        for pane in ["1", "2", "3", "4", "5", "6"] {
            press(&mut app, pane);
            if zoom != app.zoom {
                press(&mut app, "z");
            }
            for (w, h) in [
                (1, 1),
                (10, 3),
                (20, 5),
                (33, 7),
                (40, 10),
                (59, 11),
                (60, 12),
                (80, 24),
                (100, 30),
                (160, 40),
                (250, 70),
            ] {
                render(&mut app, w, h);
            }
        }
    }
    press(&mut app, "?");
    render(&mut app, 10, 4);
}

#[test]
fn a_changed_file_is_not_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f.bin");
    std::fs::write(&p, b"hello world, some bytes").unwrap();
    let o = Opened::open_path(&p, Default::default(), None, &Limits::default()).unwrap();
    let mut app = App::new(o, Config::default());
    assert!(screen(&mut app, 80, 24).contains("hello wo"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&p, b"changed!").unwrap();
    app.check_source();
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("file changed on disk: bytes not shown"), "{s}");
    assert!(s.contains("the file changed on disk"), "{s}");
    press(&mut app, "y h");
    assert!(app.osc.is_empty());
}

#[test]
fn bad_keymap_message_is_shown_and_defaults_stay() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("k.toml");
    std::fs::write(&bad, "[[bind]]\nkeys = \"q\"\naction = \"explode\"\n").unwrap();
    let (km, msgs) = Keymap::load(None, Some(&bad), animscope::limits::DEFAULT_SIDE_FILE);
    let mut app = App::new(opened(), Config { keymap: km, messages: msgs, ..Config::default() });
    let s = screen(&mut app, 200, 30);
    assert!(s.contains("unknown action \"explode\" (file ignored, using default)"), "{s}");
    press(&mut app, "q");
    assert!(app.quit);
}

#[test]
fn multi_key_sequences_from_vim_and_emacs() {
    let mut app = App::new(opened(), Config { keymap: Keymap::shipped("vim").unwrap(), ..Config::default() });
    press(&mut app, "2 G");
    assert_eq!(app.cur().cursor, LEN as u64 - 1);
    press(&mut app, "g");
    assert!(screen(&mut app, 80, 24).contains(" g-"), "pending sequence shown");
    press(&mut app, "g");
    assert_eq!(app.cur().cursor, 0);
    press(&mut app, "Z Z");
    assert!(app.quit);
    let mut app = App::new(opened(), Config { keymap: Keymap::shipped("emacs").unwrap(), ..Config::default() });
    press(&mut app, "ctrl-x o ctrl-f ctrl-f");
    assert_eq!(app.cur().cursor, 2);
    press(&mut app, "ctrl-x ctrl-c");
    assert!(app.quit);
}

#[test]
fn mouse_clicks_select_and_wheel_scrolls() {
    let mut app = new_app(None);
    press(&mut app, "M");
    assert!(app.mouse);
    let buf = render(&mut app, 80, 24);
    // click the byte at 0x12 in hex (row 0x10 in the 8-byte layout is "00000010")
    let (x, y) = find_cell(&buf, "00000010", " 7e");
    app.mouse_at(x + 1, y, None);
    assert_eq!(app.cur().cursor, 0x12);
    assert_eq!(app.focus, Pane::Hex);
    assert_eq!(app.sel.1, NodeId(2));
    // click a tree row
    render(&mut app, 80, 24);
    let buf = render(&mut app, 80, 24);
    let (tx, ty) = find_cell(&buf, "", "Header");
    app.mouse_at(tx, ty, None);
    assert_eq!(app.focus, Pane::Tree);
    assert_eq!(app.sel.1, NodeId(1));
    // wheel in hex moves by rows
    let (hx, hy) = find_cell(&buf, "00000000", "46");
    app.mouse_at(hx, hy, Some(true));
    assert_eq!(app.focus, Pane::Hex);
    assert_eq!(app.cur().cursor, 3 * 8);
}

/// A format whose decoder panics: the UI reports it and keeps going.
struct Panicky;

impl Panicky {
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> PResult<Document> {
        let mut d = Document::new("panicky", name, "file", data.len() as u64, limits);
        d.node_mut(NodeId::ROOT).unwrap().anim = Some("clip:0".into());
        Ok(d)
    }
    fn decode(&self, _: &[u8], _: &str, _: &DecodeOptions, _: &Limits) -> PResult<Clip> {
        panic!("decoder bug")
    }
}

impl Format for Panicky {
    fn id(&self) -> &'static str {
        "panicky"
    }
    fn description(&self) -> &'static str {
        "decoder panics"
    }
    fn sniff(&self, _: &[u8], _: &str) -> u8 {
        0
    }
    fn open(&self, source: Arc<Source>, limits: &Limits) -> PResult<Box<dyn Parsed>> {
        let doc = Panicky.describe(source.bytes(), source.name(), limits)?;
        Ok(Box::new(FakeParsed {
            format: &PANICKY,
            source,
            doc,
            decode: |k| Panicky.decode(&[], k, &DecodeOptions::default(), &Limits::default()),
            member: None,
        }))
    }
    fn check(&self, _: &Source, _: &Limits) -> PResult<Vec<Diagnostic>> {
        Ok(Vec::new())
    }
    fn survey(&self, _: &Source, _: &Limits, _: &(dyn Fn(u64) + Sync), _: &mut Tally) -> PResult<()> {
        Ok(())
    }
}

static PANICKY: Panicky = Panicky;

#[test]
fn a_panicking_decoder_becomes_a_message() {
    let src = Source::from_vec("p.bin", vec![1, 2, 3]);
    let parsed = animscope::formats::open_as(&PANICKY, Arc::new(src), &Limits::default()).unwrap();
    let mut app = App::new(Opened::from_parsed(parsed, Vec::new()), Config::default());
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("decode failed: internal error (panic) in background work: decoder bug"), "{s}");
    press(&mut app, "2 right");
    assert_eq!(app.cur().cursor, 1);
}

#[test]
fn repeated_keys_are_coalesced_into_one_move() {
    let mut app = new_app(None);
    let down = KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE);
    app.handle_repeated(down, 3);
    assert_eq!(app.sel.1, NodeId(3), "root → Header → clip[0] → clip[1]");
    app.handle_repeated(down, 1000);
    assert_eq!(app.cur().doc().node(app.sel.1).unwrap().key, "inner.bin", "clamped at the last row");
    press(&mut app, "2");
    app.handle_repeated(down, 2);
    assert_eq!(app.cur().cursor, 0x180 + 2 * 16);
}

/// A CCSF scene (the real format, from its fixture): `e` on the document offers an OBJ
/// export (no posed clip selected), which writes the OBJ with its MTL beside it.
#[test]
fn ccsf_models_export_as_obj_from_the_tui() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("chara.obj");
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ccsf/chara.cmp")).unwrap();
    let src = Arc::new(Source::from_vec("chara.cmp", bytes));
    let opened = Opened::from_source(src, None, &Limits::default(), Vec::new()).unwrap();
    let mut app = App::new(opened, Config::default());
    press(&mut app, "e");
    assert_eq!(app.prompt.as_ref().map(|p| p.text()), Some("chara.obj"));
    for _ in 0..20 {
        app.handle_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    }
    typed(&mut app, out.to_str().unwrap());
    let obj = std::fs::read_to_string(&out).unwrap();
    assert!(obj.lines().any(|l| l.starts_with("v ")), "{obj}");
    assert!(obj.lines().any(|l| l.starts_with("f ")), "{obj}");
    assert!(dir.path().join("chara.mtl").exists());
    assert!(screen(&mut app, 160, 24).contains("meshes"));
}

/// A sector-gzip archive with one member every `stride` bytes (zero gaps), written by the
/// gzarc writer; returns the file and the number of members written.
fn spaced_archive(dir: &std::path::Path, len: usize, stride: usize) -> (std::path::PathBuf, usize) {
    use animscope::formats::gzarc::write::{FIXTURE_MTIME, gzip_member};
    let mut data = vec![0u8; len];
    let mut written = 0;
    for (i, off) in (0..len).step_by(stride).enumerate() {
        let m = gzip_member(&format!("m{i:05}.bin"), format!("member {i} payload").as_bytes(), FIXTURE_MTIME);
        assert!(m.len() <= stride);
        data[off..off + m.len()].copy_from_slice(&m);
        written += 1;
    }
    let path = dir.join("spaced.bin");
    std::fs::write(&path, &data).unwrap();
    (path, written)
}

fn member_nodes(app: &App) -> Vec<NodeId> {
    let doc = app.workspace.docs[0].doc();
    doc.root().children.iter().copied().filter(|c| doc.node(*c).unwrap().member.is_some()).collect()
}

fn status_row(buf: &Buffer) -> String {
    text(buf).lines().last().unwrap_or_default().to_string()
}

#[test]
fn archives_beyond_the_interactive_budget_list_progressively() {
    use animscope::limits::INTERACTIVE_LIST_BUDGET;
    use animscope::source::OpenOptions;
    let dir = tempfile::tempdir().unwrap();
    // 20 MiB, one member every 64 KiB: 320 members, 256 of them inside the 16 MiB probed
    // before the first frame.
    let (path, members) = spaced_archive(dir.path(), 20 << 20, 64 << 10);
    const { assert!(20 << 20 > INTERACTIVE_LIST_BUDGET) };
    let o = Opened::open_path(&path, OpenOptions::default(), None, &Limits::interactive()).unwrap();
    let mut app = App::new(o, Config::default());
    let p = app.workspace.listing.expect("listing continues in the background");
    assert!(p.members < members as u64, "{} of {members} listed at first", p.members);
    let first = member_nodes(&app);
    assert_eq!(first.len() as u64, p.members);
    // first frame: no waiting for the background; the status line says how far listing got
    let mut term = Terminal::new(TestBackend::new(120, 30)).unwrap();
    term.draw(|f| animscope::tui::draw(&mut app, f)).unwrap();
    let status = status_row(term.backend().buffer());
    assert!(status.contains(&format!("listing {}% ({} members)", p.percent(), p.members)), "{status}");
    // select a listed member, then let the listing finish
    let chosen = first[7];
    app.select_node(0, chosen, false);
    let path_before = app.tree.selected().to_vec();
    app.wait_idle();
    assert!(app.workspace.listing.is_none());
    assert_eq!(member_nodes(&app).len(), members, "every member written is listed");
    assert_eq!(app.workspace.docs[0].opened.listing_progress().members, members as u64);
    assert_eq!(app.sel, (0, chosen), "selection kept");
    assert_eq!(app.tree.selected(), path_before.as_slice());
    assert!(app.workspace.docs[0].doc().validate().is_ok());
    term.draw(|f| animscope::tui::draw(&mut app, f)).unwrap();
    assert!(!status_row(term.backend().buffer()).contains("listing"));
}

#[test]
fn listing_steps_keep_selection_and_expansion_across_buckets() {
    use animscope::source::OpenOptions;
    let dir = tempfile::tempdir().unwrap();
    // 160 members 4 KiB apart; 16 KiB probed at open, 64 KiB per step: 10 steps, and the
    // root passes 100 children (tree buckets appear) midway.
    let (path, members) = spaced_archive(dir.path(), 160 << 12, 1 << 12);
    let limits = Limits { list_budget: 16 << 10, ..Limits::default() };
    let o = Opened::open_path(&path, OpenOptions::default(), None, &limits).unwrap();
    let mut app = App::new(o, Config { listing_step: 64 << 10, ..Config::default() });
    let first = member_nodes(&app);
    assert!(first.len() < 10, "{}", first.len());
    // open member 2 (expanded in the tree, its contents load in the background)
    let opened_member = first[2];
    app.select_node(0, opened_member, false);
    app.apply(animscope::tui::Action::Right);
    // select the placeholder for the unlisted bytes: its id changes with every step
    let tail = app.workspace.docs[0].opened.unlisted_node().unwrap();
    app.select_node(0, tail, false);
    let tail_start = app.workspace.docs[0].doc().node(tail).unwrap().span.start;
    assert!(app.pump_listing_step());
    let (d, n) = app.sel;
    let now = app.workspace.docs[0].doc().node(n).unwrap();
    assert_eq!(d, 0);
    assert_eq!(now.span.start, tail_start, "the selection moved to what now covers the cursor");
    assert!(now.member.is_some(), "a member listed where the placeholder started");
    let chosen = app.sel.1;
    let mut steps = 1;
    while app.pump_listing_step() {
        steps += 1;
        assert_eq!(app.sel, (0, chosen), "selection kept at step {steps}");
        assert!(app.workspace.docs[0].doc().validate().is_ok());
    }
    assert!(steps >= 5, "{steps} steps");
    app.wait_idle();
    assert_eq!(member_nodes(&app).len(), members);
    assert!(app.workspace.docs[0].doc().root().children.len() > animscope::tui::app::BUCKET);
    // paths now go through buckets; selection and the expanded member are still in view
    assert_eq!(app.tree.selected(), app.tree_path(0, chosen).as_slice());
    let member_path = app.tree_path(0, opened_member);
    assert!(matches!(member_path[1], animscope::tui::app::Tid::B(0)));
    assert!(app.tree.opened().contains(&member_path), "expanded member stays expanded");
    assert!(matches!(app.workspace.members.get(&(0, opened_member)), Some(Load::Ready(_))));
    let screen = screen(&mut app, 120, 40);
    // the expanded member, under the first bucket, shows its opened contents below it
    let lines: Vec<&str> = screen.lines().collect();
    let i = lines.iter().position(|l| l.contains("▾ m00002.bin")).expect("member 2 expanded");
    // (24 columns for the bucket's row: its first and last names whole, before its kind)
    assert!(lines[i - 3].contains("▾ m00000.bin … m00099.bin"), "{screen}");
    assert!(lines[i + 1].contains("m00002.bin  file"), "{screen}");
}

/// A grid format for the output-size test: 0x100-byte clips, each with sixteen 16-byte fields.
struct Grid;

impl Grid {
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> PResult<Document> {
        let len = data.len() as u64;
        let mut d = Document::new("grid", name, "file", len, limits);
        for i in 0..len / 0x100 {
            let c = d.add_node(NodeId::ROOT, format!("clip[{i}]"), "clip", Span::at(i * 0x100, 0x100));
            for j in 0..16 {
                d.add_field(c, Field::new(format!("f{j}"), Span::at(i * 0x100 + j * 16, 16), Value::uint(j, 2)));
            }
        }
        Ok(d)
    }
}

impl Format for Grid {
    fn id(&self) -> &'static str {
        "grid"
    }
    fn description(&self) -> &'static str {
        "test grid"
    }
    fn sniff(&self, _: &[u8], _: &str) -> u8 {
        0
    }
    fn open(&self, source: Arc<Source>, limits: &Limits) -> PResult<Box<dyn Parsed>> {
        let doc = Grid.describe(source.bytes(), source.name(), limits)?;
        Ok(Box::new(FakeParsed { format: &GRID, source, doc, decode: no_decode, member: None }))
    }
    fn check(&self, _: &Source, _: &Limits) -> PResult<Vec<Diagnostic>> {
        Ok(Vec::new())
    }
    fn survey(&self, _: &Source, _: &Limits, _: &(dyn Fn(u64) + Sync), _: &mut Tally) -> PResult<()> {
        Ok(())
    }
}

static GRID: Grid = Grid;

/// Counts the bytes a backend writes (what would cross a slow link).
#[derive(Clone, Default)]
struct CountingWriter(std::rc::Rc<std::cell::Cell<usize>>);

impl std::io::Write for CountingWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.set(self.0.get() + buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Bytes written for (full frame, unchanged frame, one-row scroll, next field, highlight
/// move) at 200x60, through the plain crossterm backend (each frame in a synchronized
/// update, as the UI loop wrote them before) or the TUI's own backend (`tui::screen`).
fn bytes_written(screen: bool) -> [usize; 5] {
    use animscope::tui::screen::{Caps, Screen};
    use crossterm::execute;
    use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
    use ratatui::backend::{Backend, CrosstermBackend};
    use ratatui::layout::{Rect, Size};
    use ratatui::{TerminalOptions, Viewport};
    let data: Vec<u8> = (0..0x10000u32).map(|i| (i * 31 % 256) as u8).collect();
    let src = Source::from_vec("grid.bin", data);
    let parsed = animscope::formats::open_as(&GRID, Arc::new(src), &Limits::default()).unwrap();
    let mut app = App::new(Opened::from_parsed(parsed, Vec::new()), Config::default());
    app.apply(animscope::tui::Action::FocusHex);
    let count = CountingWriter::default();
    let opts = TerminalOptions { viewport: Viewport::Fixed(Rect::new(0, 0, 200, 60)) };
    fn run<B: Backend + std::io::Write>(
        mut term: Terminal<B>,
        app: &mut App,
        count: &CountingWriter,
        sync: bool,
    ) -> [usize; 5]
    where
        B::Error: std::fmt::Debug,
    {
        // one frame as the UI loop writes it; bytes written
        let mut frame = |app: &mut App| {
            let before = count.0.get();
            if sync {
                execute!(term.backend_mut(), BeginSynchronizedUpdate).unwrap();
            }
            term.draw(|f| animscope::tui::draw(app, f)).unwrap();
            if sync {
                execute!(term.backend_mut(), EndSynchronizedUpdate).unwrap();
            }
            count.0.get() - before
        };
        let full = frame(app);
        let (_, rows) = app.hex.geom;
        // cursor to the last visible hex row (no scrolling yet), then one more row down
        for _ in 1..rows {
            app.apply(animscope::tui::Action::Down);
            frame(app);
        }
        assert_eq!(app.hex.top_row(app.sel.0), 0);
        let idle = frame(app);
        app.apply(animscope::tui::Action::Down);
        let scroll = frame(app);
        assert_eq!(app.hex.top_row(app.sel.0), 1, "scrolled one row");
        app.apply(animscope::tui::Action::NextField);
        let field_move = frame(app);
        assert_eq!(app.hex.top_row(app.sel.0), 2, "the next field starts on the next row");
        // a highlight move inside the visible rows: up two rows, then onto the previous field
        app.apply(animscope::tui::Action::Up);
        app.apply(animscope::tui::Action::Up);
        frame(app);
        app.apply(animscope::tui::Action::PrevField);
        let highlight = frame(app);
        [full, idle, scroll, field_move, highlight]
    }
    if screen {
        let mut backend = Screen::with_size(count.clone(), Caps::default(), Size { width: 200, height: 60 });
        // the columns between panes, as the UI loop tells the backend before each frame
        backend.set_pane_edges(app.pane_edges(Rect::new(0, 0, 200, 60)));
        run(Terminal::with_options(backend, opts).unwrap(), &mut app, &count, false)
    } else {
        run(Terminal::with_options(CrosstermBackend::new(count.clone()), opts).unwrap(), &mut app, &count, true)
    }
}

#[test]
fn bytes_written_for_a_scroll_and_a_highlight_move() {
    let plain = bytes_written(false);
    let own = bytes_written(true);
    for (name, [full, idle, scroll, field_move, highlight]) in [("crossterm", plain), ("screen", own)] {
        println!(
            "{name} backend, bytes written at 200x60 (16 bytes x 51 hex rows): full frame {full}, unchanged \
             frame {idle}, one-row scroll {scroll}, next field (scrolls a row) {field_move}, highlight move to the \
             previous field {highlight}"
        );
        assert!(idle < 64, "an unchanged frame writes at most the synchronized-update brackets: {idle}");
        assert!(highlight * 4 < full, "a highlight move writes far less than a full frame: {highlight} of {full}");
        assert!(scroll < full, "{scroll} of {full}");
    }
    assert_eq!(own[1], 0, "the own backend writes nothing for an unchanged frame");
    for i in 0..5 {
        assert!(own[i] <= plain[i], "the own backend never costs more: {own:?} vs {plain:?}");
    }
    assert!(own[2] * 2 < plain[2], "a scroll costs less than half: {} vs {}", own[2], plain[2]);
}

/// Selecting a clip gives a complete clip: its curves stored, and its per-key text, word
/// table and poses there when looked at (stored, or made from the same decode); a clip
/// without them is never the last word while nothing is pending.
#[test]
fn clips_arrive_as_curves_then_complete() {
    let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/sc6/fixture_b.mot")).unwrap();
    let o =
        Opened::from_source(Arc::new(Source::from_vec("fixture_b.mot", data)), None, &Limits::default(), Vec::new())
            .unwrap();
    let node = o.doc().nodes.iter().find(|n| n.anim.is_some()).map(|n| n.id).expect("a clip node");
    let mut app = App::new(o, Config::default());
    app.select_node(0, node, false);
    let start = std::time::Instant::now();
    loop {
        app.poll_jobs();
        match app.clip() {
            Some(Load::Ready(c)) if c.tables.is_empty() => {
                assert!(app.working(), "a curves-only clip with no job left to complete it");
            }
            Some(Load::Ready(_)) => break,
            Some(Load::Failed(e)) => panic!("decode failed: {e}"),
            _ => {}
        }
        // a hang guard only (far above any normal run, even on a loaded machine)
        assert!(start.elapsed() < std::time::Duration::from_secs(600), "the clip never completed: hung");
        std::thread::yield_now();
    }
    app.wait_idle();
    let Some(Load::Ready(c)) = app.clip() else { panic!("clip not ready") };
    assert!(!c.tables.is_empty() && c.poses.is_some());
    assert!(c.tracks.iter().all(|t| !t.samples.is_empty()));
    assert!((0..c.tracks.len()).any(|i| (0..c.tracks[i].keys.len()).any(|k| c.key_detail(i, k).is_some())));
    assert!(!app.working());
}

/// Press one chord (`ctrl-u`, `alt-b`, `left`) without waiting for background work.
fn chord(app: &mut App, k: &str) {
    let c = Chord::parse(k).unwrap();
    app.handle_key(KeyEvent::new(c.code, c.mods));
}

/// Type text into an open prompt without submitting it.
fn type_in(app: &mut App, text: &str) {
    for ch in text.chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE));
    }
}

fn prompt_text(app: &App) -> Option<String> {
    app.prompt.as_ref().map(|p| p.text().to_string())
}

#[test]
fn every_prompt_is_a_line_editor_with_history() {
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "clip[0]");
    press(&mut app, "e");
    assert_eq!(prompt_text(&app).as_deref(), Some("clip_0.json"));
    // readline keys edit the line instead of inserting letters
    chord(&mut app, "ctrl-u");
    assert_eq!(prompt_text(&app).as_deref(), Some(""));
    type_in(&mut app, "out dir/walk.json");
    // Ctrl-W deletes the word before the cursor (a path component)
    chord(&mut app, "ctrl-w");
    assert_eq!(prompt_text(&app).as_deref(), Some("out dir/"));
    chord(&mut app, "ctrl-a");
    type_in(&mut app, "my");
    chord(&mut app, "end");
    chord(&mut app, "left");
    chord(&mut app, "ctrl-k");
    assert_eq!(prompt_text(&app).as_deref(), Some("myout dir"));
    chord(&mut app, "alt-b");
    chord(&mut app, "alt-b");
    chord(&mut app, "right");
    chord(&mut app, "right");
    type_in(&mut app, "_");
    assert_eq!(prompt_text(&app).as_deref(), Some("my_out dir"));
    let s = screen(&mut app, 80, 24);
    assert!(s.lines().last().unwrap().starts_with("export clip to (tab completes)> my_out"), "{s}");
    chord(&mut app, "esc");
    assert!(app.prompt.is_none());
    // each prompt keeps what was submitted at it: goto's history holds clip[0]
    press(&mut app, "g");
    chord(&mut app, "up");
    assert_eq!(prompt_text(&app).as_deref(), Some("clip[0]"));
    chord(&mut app, "down");
    assert_eq!(prompt_text(&app).as_deref(), Some(""));
    chord(&mut app, "esc");
    press(&mut app, "/");
    chord(&mut app, "up");
    assert_eq!(prompt_text(&app).as_deref(), Some(""), "search has its own, empty history");
}

#[test]
fn tab_completes_the_export_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("exports")).unwrap();
    std::fs::write(dir.path().join("walk_a.json"), "").unwrap();
    std::fs::write(dir.path().join("walk_b.json"), "").unwrap();
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "clip[0]");
    press(&mut app, "e");
    chord(&mut app, "ctrl-u");
    type_in(&mut app, &format!("{}/ex", dir.path().display()));
    chord(&mut app, "tab");
    assert_eq!(prompt_text(&app), Some(format!("{}/exports/", dir.path().display())));
    chord(&mut app, "ctrl-u");
    type_in(&mut app, &format!("{}/w", dir.path().display()));
    chord(&mut app, "tab");
    assert_eq!(prompt_text(&app), Some(format!("{}/walk_", dir.path().display())));
    let s = screen(&mut app, 200, 24);
    assert!(s.lines().last().unwrap().contains("walk_a.json  walk_b.json"), "candidates listed:\n{s}");
}

#[test]
fn find_lists_matches_live_and_enter_jumps() {
    let mut app = new_app(None);
    press(&mut app, "f");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Find · 2 animations of 256 nodes"), "{s}");
    assert!(s.contains("fake.bin/clip[0]  clip  ♪") && s.contains("fake.bin/clip[1]  clip  ♪"), "{s}");
    type_in(&mut app, "clp1");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Find · 1/"), "{s}");
    assert!(s.contains("fake.bin/clip[1]  clip  ♪"), "{s}");
    assert!(s.lines().last().unwrap().starts_with("find> clp1"), "{s}");
    insta::assert_snapshot!("find_clp1_80x24", s);
    chord(&mut app, "enter");
    app.wait_idle();
    assert_eq!(app.sel, (0, NodeId(3)));
    assert_eq!(app.focus, Pane::Tree);
    assert_eq!(app.lower, Pane::Decode, "a clip found shows its curves");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Decode · clip 1"), "{s}");
    assert!(app.prompt.is_none() && app.finder.is_none());
    // Down picks the next result; no match says so
    press(&mut app, "f");
    type_in(&mut app, "item[2");
    chord(&mut app, "down");
    let second = app.finder.as_ref().unwrap().hits[1].node;
    chord(&mut app, "enter");
    assert_eq!(app.sel.1, second);
    press(&mut app, "f");
    type_in(&mut app, "qqqq");
    assert!(screen(&mut app, 80, 24).contains("Find · no match among 256 nodes"));
    chord(&mut app, "enter");
    assert!(screen(&mut app, 80, 24).contains("find: no node matches qqqq"));
}

#[test]
fn goto_takes_a_name_and_lists_near_misses() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/motn/multi.mot")).unwrap();
    let src = Arc::new(Source::from_vec("multi.mot", bytes));
    let opened = Opened::from_source(src, None, &Limits::default(), Vec::new()).unwrap();
    let mut app = App::new(opened, Config::default());
    press(&mut app, "g");
    typed(&mut app, "A_WALK_L_02");
    let e = app.cur();
    assert_eq!(e.doc().path(app.sel.1), "multi.mot/data/seq[A_WALK_L_02]");
    assert_eq!(app.lower, Pane::Decode);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Decode · A_WALK_L_02"), "{s}");
    // lower case works too
    press(&mut app, "g");
    typed(&mut app, "tmn_bag");
    assert_eq!(app.cur().doc().path(app.sel.1), "multi.mot/data/seq[TMN_BAG]");
    // not a whole name: the finder opens with what matched
    press(&mut app, "g");
    typed(&mut app, "walkl02");
    let p = app.prompt.as_ref().expect("finder open");
    assert_eq!(p.text(), "walkl02");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("seq[A_WALK_L_02]") && s.contains("seq[A_WALK_L_02_COPY]"), "{s}");
}

#[test]
fn jumps_put_their_target_a_quarter_from_the_top() {
    let mut app = new_app(None);
    // 80x24: the hex pane shows 16 bytes per row; goto far down
    press(&mut app, "g");
    typed(&mut app, "0x150");
    let s = screen(&mut app, 80, 24);
    let rows: Vec<&str> = s.lines().filter(|l| l.contains("  00000")).collect();
    let at = rows.iter().position(|l| l.contains("  00000150")).unwrap_or_else(|| panic!("{s}"));
    assert!(at >= 1 && at <= rows.len() / 2, "target row {at} of {}:\n{s}", rows.len());
    // Enter on a node at the bottom of the tree brings its children into view
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "items");
    press(&mut app, "1 enter");
    let s = screen(&mut app, 80, 12);
    assert!(s.contains("item [0..100)") && s.contains("item [200..250)"), "{s}");
}

/// An archive (`arc.bin`) of two members, neither opened: `bank.mot` (the MOTN fixture
/// with `A_WALK_L_02` and `TMN_BAG`) at 0 and `notes.txt` in the next sector.
fn motn_archive(dir: &std::path::Path) -> App {
    use animscope::formats::gzarc::write::archive;
    let mot = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/motn/multi.mot")).unwrap();
    let members = vec![("bank.mot".to_string(), mot), ("notes.txt".to_string(), b"0123456789abcdef".to_vec())];
    let path = dir.join("arc.bin");
    std::fs::write(&path, archive(&members)).unwrap();
    let o = Opened::open_path(&path, animscope::source::OpenOptions::default(), None, &Limits::interactive()).unwrap();
    let app = App::new(o, Config::default());
    assert_eq!(app.workspace.docs.len(), 1, "no member opened yet");
    app
}

#[test]
fn goto_member_at_offset_opens_it_and_lands_there() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = motn_archive(dir.path());
    // a member by its whole name: opened on demand, the cursor on its byte 6 ('6')
    press(&mut app, "g");
    typed(&mut app, "notes.txt@0x6");
    assert_eq!(app.workspace.docs.len(), 2);
    assert_eq!(app.sel.0, 1);
    assert_eq!(app.cur().cursor, 6);
    assert_eq!(app.focus, Pane::Hex);
    let buf = render(&mut app, 100, 30);
    let s = text(&buf);
    assert!(s.contains("Hex · arc.bin › notes.txt (inflated)"), "{s}");
    assert!(s.contains("at 0x6 of arc.bin › notes.txt (inflated)"), "{s}");
    let (x, y) = find_cell(&buf, "00000000", "[36");
    assert!(buf[(x + 1, y)].modifier.contains(Modifier::REVERSED) || buf[(x + 1, y)].bg != Color::Reset, "cursor on 6");
    // the file itself by name: an offset of the archive's bytes
    press(&mut app, "g");
    typed(&mut app, "ARC.BIN@0x800");
    assert_eq!((app.sel.0, app.cur().cursor), (0, 0x800));
    // a fragment of a member name goes through the matcher; the member opens
    press(&mut app, "g");
    typed(&mut app, "bank@0x10");
    assert_eq!(app.workspace.docs.len(), 3);
    assert_eq!(app.cur().opened.title(), "arc.bin › bank.mot (inflated)");
    assert_eq!(app.cur().cursor, 0x10);
    // an opened member again: no second copy
    press(&mut app, "g");
    typed(&mut app, "notes.txt@3");
    assert_eq!((app.workspace.docs.len(), app.sel.0, app.cur().cursor), (3, 1, 3));
    press(&mut app, "g");
    typed(&mut app, "notes.txt@0x10");
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("0x10 is past the end of arc.bin › notes.txt (inflated) (0x10 bytes)"), "{s}");
    press(&mut app, "g");
    typed(&mut app, "qqq@0x10");
    let s = screen(&mut app, 120, 30);
    assert!(s.contains("goto: no opened document or archive member is named qqq"), "{s}");
}

#[test]
fn find_lists_names_inside_unopened_members_and_enter_opens_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = motn_archive(dir.path());
    press(&mut app, "f");
    type_in(&mut app, "a_walk_l_02");
    app.wait_idle();
    let s = screen(&mut app, 100, 30);
    // read in the background, not opened: the member's path, then the node's inside it
    assert!(s.contains("arc.bin/bank.mot › data/seq[A_WALK_L_02]  sequence  ♪"), "{s}");
    assert!(s.contains("arc.bin/bank.mot › data/seq[A_WALK_L_02_COPY]"), "{s}");
    assert_eq!(app.workspace.docs.len(), 1, "names read, member not kept open");
    chord(&mut app, "enter");
    app.wait_idle();
    assert_eq!(app.workspace.docs.len(), 2);
    assert_eq!(app.cur().doc().path(app.sel.1), "bank.mot/data/seq[A_WALK_L_02]");
    assert_eq!(app.lower, Pane::Decode);
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("Decode · A_WALK_L_02"), "{s}");
    assert!(s.contains("seq[A_WALK_L_02]"), "the tree shows the node:\n{s}");
}

#[test]
fn goto_name_finds_it_inside_an_unopened_member() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = motn_archive(dir.path());
    press(&mut app, "g");
    typed(&mut app, "tmn_bag");
    assert_eq!(app.cur().doc().path(app.sel.1), "bank.mot/data/seq[TMN_BAG]");
    assert_eq!(app.focus, Pane::Tree);
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("at bank.mot/data/seq[TMN_BAG]"), "{s}");
    // a fragment: once every member is read, the finder lists what matched
    let mut app = motn_archive(dir.path());
    press(&mut app, "g");
    typed(&mut app, "walkl02");
    let p = app.prompt.as_ref().expect("finder open");
    assert_eq!(p.text(), "walkl02");
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("bank.mot › data/seq[A_WALK_L_02]"), "{s}");
}

/// A rewrite of the same size that puts the mtime back (a time-preserving copy) is seen
/// too (by the ctime): the TUI says the file changed and shows no stale bytes.
#[test]
fn a_same_size_same_mtime_rewrite_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f.bin");
    std::fs::write(&p, b"hello world, some bytes").unwrap();
    let mtime = std::fs::metadata(&p).unwrap().modified().unwrap();
    let o = Opened::open_path(&p, Default::default(), None, &Limits::default()).unwrap();
    let mut app = App::new(o, Config::default());
    assert!(screen(&mut app, 80, 24).contains("hello wo"));
    app.check_source();
    assert!(!screen(&mut app, 80, 24).contains("changed on disk"), "nothing changed yet");
    std::fs::write(&p, b"HELLO WORLD, SOME BYTES").unwrap();
    std::fs::File::options().write(true).open(&p).unwrap().set_modified(mtime).unwrap();
    let m = std::fs::metadata(&p).unwrap();
    assert_eq!((m.len(), m.modified().unwrap()), (23, mtime));
    app.check_source();
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("file changed on disk: bytes not shown"), "{s}");
    assert!(!s.contains("HELLO"), "{s}");
}

/// A clip past the memory budget (a CCSF Anime of 18,000 frames over a 200-object chain,
/// 11 KB) is a clear message in the decode pane naming the budget and `--limit memory=`,
/// not a hang or an out-of-memory death.
#[test]
fn a_clip_past_the_memory_budget_names_the_flag() {
    let data = super::hostile_gen::ccsf_long_anime(200, 18_000);
    let o = Opened::from_source(Arc::new(Source::from_vec("long.ccs", data)), None, &Limits::default(), Vec::new())
        .unwrap();
    let node = o.doc().nodes.iter().find(|n| n.anim.is_some()).map(|n| n.id).expect("an Anime node");
    let mut app = App::new(o, Config::default());
    app.select_node(0, node, false);
    app.wait_idle();
    app.poll_jobs();
    let Some(Load::Failed(e)) = app.clip() else { panic!("the decode did not fail") };
    assert!(e.contains("memory budget exceeded") && e.contains("--limit memory=SIZE raises it"), "{e}");
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("decode failed:") && s.contains("memory budget exceeded"), "{s}");
}

/// An export path in a folder that does not exist: the prompt names the folder and offers
/// to create it; `n` creates nothing, `y` creates it and writes the export.
#[test]
fn export_offers_to_create_a_missing_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("new/deeper");
    let out = folder.join("clip0.json");
    let mut app = new_app(None);
    press(&mut app, "g");
    typed(&mut app, "clip[0]");
    for answer in ["n", "y"] {
        press(&mut app, "e");
        for _ in 0..20 {
            app.handle_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
        }
        typed(&mut app, out.to_str().unwrap());
        let s = screen(&mut app, 200, 24);
        assert!(s.contains(&format!("create the missing directory? (y/n) {}>", folder.display())), "{s}");
        press(&mut app, answer);
        assert_eq!(out.exists(), answer == "y", "after {answer}");
        assert_eq!(folder.exists(), answer == "y", "after {answer}");
    }
    assert!(std::fs::read_to_string(&out).unwrap().contains("sc6-armature-matrices-v1"));
}
