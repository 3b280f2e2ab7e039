//! Edits in the TUI, driven by keys on a TestBackend (issue 50): a field of a decoded SC6
//! clip edited in the fields pane, seen in the decode pane and in hex, taken back, edited
//! again and written to a new file; a bad value says `set`'s own error and changes nothing;
//! raw bytes typed in hex; a field of a gzip archive's member written back through the
//! archive. Every expected value is worked out from what was typed and the specs' layouts,
//! never read from what the code under test wrote.

use crate::support::{animscope, press, render, text};
use crate::support::{fixture_file as fixture, on_disk};
use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::tui::{App, Config};
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use std::io::Read;
use std::path::Path;

/// `s` with each run of spaces as one (the channel list pads its names to a value column).
fn squeezed(s: &str) -> String {
    s.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
}

fn app_on(path: &Path) -> App {
    let o = Opened::open_path(path, Default::default(), None, &Limits::default()).expect("opens");
    App::new(o, Config::default())
}

/// Type `s` at the open prompt, one key per character (`space` for a blank).
fn typed(app: &mut App, s: &str) {
    let keys: Vec<String> = s.chars().map(|c| if c == ' ' { "space".to_string() } else { c.to_string() }).collect();
    press(app, &keys.join(" "));
}

/// Whether the hex row starting `row` shows `pair` (two hex digits) drawn in the edited
/// style: light red, bold, underlined.
fn edited_cell(buf: &Buffer, row: &str, pair: &str) -> Option<bool> {
    let (a, b) = (&pair[..1], &pair[1..]);
    for y in 0..buf.area.height {
        let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_string()).collect();
        if !line.contains(row) {
            continue;
        }
        for x in 0..buf.area.width.saturating_sub(1) {
            let after = buf[(x + 2, y)].symbol();
            if buf[(x, y)].symbol() == a && buf[(x + 1, y)].symbol() == b && (after == " " || after == "]") {
                let c = &buf[(x, y)];
                return Some(c.fg == Color::LightRed && c.modifier.contains(Modifier::BOLD | Modifier::UNDERLINED));
            }
        }
    }
    None
}

/// `fixture_a.mot`'s clip 0, group 0, its `base.w1` word: the root's second word (root.y)
/// for keyframes 0..7, stored as an i16 at 0x32 (956 = 0x03bc: `bc 03`). The decode notes
/// give the root's scale: 0.001 m per unit, so root.y is the word / 1000 m.
#[test]
fn a_key_value_is_edited_seen_undone_edited_again_and_written() {
    let input = fixture("sc6/fixture_a.mot");
    let (dir, path) = on_disk("fixture_a.mot", &input);
    let mut app = app_on(&path);
    // the tree: root, offset table, clip[0] (expanded with enter), its header, group table,
    // group[0]; the fields pane: base.w0 is under the cursor, down to base.w1
    press(&mut app, "j j enter j j j 3 j");
    let s = text(&render(&mut app, 160, 50));
    assert!(squeezed(&s).contains("[x] y 0.9560 m"), "{s}");
    // (the hex cursor's brackets are around the field's first byte)
    assert!(s.contains("00000030  00 00[bc]03 00 00"), "{s}");

    // a value out of the i16's range: `set`'s own one-line error, nothing changed
    press(&mut app, "c ctrl-u");
    typed(&mut app, "70000");
    press(&mut app, "enter");
    let out = dir.path().join("cli.mot");
    let (code, _, err) = animscope(&[
        "set",
        path.to_str().expect("UTF-8"),
        "clip[0]/group[0]",
        "base.w1=70000",
        "-o",
        out.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code, 2, "{err}");
    let want = err.trim().strip_prefix("animscope: ").expect("the CLI's prefix");
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert_eq!(said, want);
    assert_eq!(app.edits.count(), 0);
    assert!(!out.exists());

    // 1000: the word becomes 0x03e8 (`e8 03`), root.y 1.0000 m
    press(&mut app, "c");
    assert_eq!(app.prompt.as_ref().map(|p| p.text().to_string()).as_deref(), Some("956"), "prefilled as shown");
    press(&mut app, "ctrl-u");
    typed(&mut app, "1000");
    press(&mut app, "enter");
    let buf = render(&mut app, 160, 50);
    let s = text(&buf);
    assert!(squeezed(&s).contains("[x] y 1.0000 m"), "{s}");
    assert!(s.contains("00000030  00 00[e8]03 00 00"), "{s}");
    assert!(s.contains("✎ 1 edit [s]"), "{s}");
    assert_eq!(edited_cell(&buf, "00000030", "e8"), Some(true), "{s}");
    assert_eq!(edited_cell(&buf, "00000030", "03"), Some(false), "03 is unchanged and not marked");
    // group[1] (keyframes 8..9) has its own base words: untouched
    assert!(s.contains("00000050  f2 22 00 00 c0 00 bc 03"), "{s}");
    assert_eq!(std::fs::read(&path).expect("the input"), input, "the input is not written");

    // undo: back to 956, nothing marked
    press(&mut app, "ctrl-z");
    let buf = render(&mut app, 160, 50);
    let s = text(&buf);
    assert!(squeezed(&s).contains("[x] y 0.9560 m"), "{s}");
    assert!(s.contains("00000030  00 00[bc]03 00 00"), "{s}");
    assert_eq!(edited_cell(&buf, "00000030", "bc"), Some(false));
    assert_eq!(app.edits.count(), 0);

    // again, 1234 (0x04d2: `d2 04`), root.y 1.2340 m; then written beside the input
    press(&mut app, "c ctrl-u");
    typed(&mut app, "1234");
    press(&mut app, "enter");
    let s = text(&render(&mut app, 160, 50));
    assert!(squeezed(&s).contains("[x] y 1.2340 m"), "{s}");
    // quitting with edits not written says so first
    press(&mut app, "q");
    assert!(!app.quit);
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert!(said.contains("1 edit(s) not written"), "{said}");
    press(&mut app, "s");
    let edited = dir.path().join("fixture_a.edited.mot");
    let offered = app.prompt.as_ref().map(|p| p.text().to_string()).unwrap_or_default();
    assert_eq!(offered, edited.display().to_string());
    press(&mut app, "enter");
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert!(said.starts_with(&format!("wrote 110 bytes to {}", edited.display())), "{said}");
    let got = std::fs::read(&edited).expect("written");
    let mut want = input.clone();
    want[0x32..0x34].copy_from_slice(&[0xd2, 0x04]);
    assert_eq!(got, want);
    assert_eq!(std::fs::read(&path).expect("the input"), input, "the input is unchanged");
    let (code, decoded, err) = animscope(&["decode", edited.to_str().expect("UTF-8"), "--anim", "0"]);
    assert_eq!(code, 0, "{err}");
    // keyframes 0..7 take group 0's base word; 8 and 9 keep group 1's 956
    assert!(decoded.contains("0\t0.0\t0\t0\t1234\t0\t0"), "{decoded}");
    assert!(decoded.contains("8\t8.0\t1\t192\t956\t-160\t0"), "{decoded}");

    // the input itself is refused as the output
    press(&mut app, "s ctrl-u");
    typed(&mut app, path.to_str().expect("UTF-8"));
    press(&mut app, "enter");
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert!(said.contains("that is the input"), "{said}");
    assert_eq!(std::fs::read(&path).expect("the input"), input);
    // written: quit quits
    press(&mut app, "q");
    assert!(app.quit);
}

/// Raw bytes typed in hex: `turn.mot`'s UpperLeg_R.rx key 1 is an f16 at 0x84 (0xad1f,
/// stored little-endian `1f ad`); `00 b4` makes it 0xb400 = -2^(13-15) = -0.25 turns.
#[test]
fn raw_bytes_typed_in_hex_are_applied_and_taken_back() {
    let input = fixture("motn/turn.mot");
    let (_dir, path) = on_disk("turn.mot", &input);
    let mut app = app_on(&path);
    press(&mut app, "g");
    typed(&mut app, "0x84");
    press(&mut app, "enter c");
    assert_eq!(app.prompt.as_ref().map(|p| p.text().to_string()).as_deref(), Some("1f"), "the byte at the cursor");
    press(&mut app, "ctrl-u");
    typed(&mut app, "00 b4");
    press(&mut app, "enter");
    let key = |app: &App| {
        let doc = app.workspace.docs[0].doc();
        let n = doc.find_path("turn.mot/data/seq[TURN_90]/block5/UpperLeg_R.rx").expect("the channel");
        doc.node(n).expect("a node").fields[1].value.to_string()
    };
    assert!(key(&app).contains("f16 0xb400 = -0.25 turns"), "{}", key(&app));
    let buf = render(&mut app, 160, 50);
    assert_eq!(edited_cell(&buf, "00000080", "b4"), Some(true), "{}", text(&buf));
    // bad hex: the error names the bytes, nothing changes
    press(&mut app, "c ctrl-u");
    typed(&mut app, "zz");
    press(&mut app, "enter");
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert!(said.ends_with("not hex digits"), "{said}");
    assert_eq!(app.edits.count(), 1);
    press(&mut app, "ctrl-z");
    assert!(key(&app).contains("f16 0xad1f = -0.08001708984375 turns"), "{}", key(&app));
}

/// The first gzip member of `b`, inflated by flate2's gzip reader (CRC and length checked).
fn gunzip(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(b).read_to_end(&mut out).expect("a valid gzip member");
    out
}

/// A field of an archive member, written back through the archive: DATA.BIN's
/// `mini.cmp` Header `pad` (u16 at member offset 0x2e, ccsf.md: the Header chunk's 8-byte
/// header, then `pad` at 0x26 of its payload) becomes 0x1234 (`34 12`).
#[test]
fn a_field_of_an_archive_member_is_written_through_the_archive() {
    let input = fixture("gzarc/DATA.BIN");
    let (dir, path) = on_disk("DATA.BIN", &input);
    let mut app = app_on(&path);
    press(&mut app, "g");
    typed(&mut app, "mini.cmp@0x2e");
    press(&mut app, "enter 3 c");
    assert_eq!(app.prompt.as_ref().map(|p| p.label()).unwrap_or_default(), "set pad (2 B @0x2e) to> ");
    press(&mut app, "ctrl-u");
    typed(&mut app, "0x1234");
    press(&mut app, "enter s enter");
    let edited = dir.path().join("DATA.edited.BIN");
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert!(said.starts_with(&format!("wrote {} bytes to {}", input.len(), edited.display())), "{said}");
    let got = std::fs::read(&edited).expect("written");
    let mut want = gunzip(&input[..0x800]);
    want[0x2e..0x30].copy_from_slice(&[0x34, 0x12]);
    assert_eq!(gunzip(&got[..0x800]), want);
    assert_eq!(got[0x800..], input[0x800..], "the second member stays");
    assert_eq!(std::fs::read(&path).expect("the input"), input);
}

/// The edited copy is spent from the document's memory budget: a budget that holds the
/// document but not a second copy of its bytes refuses the edit with the budget error.
#[test]
fn the_edited_copy_spends_the_memory_budget() {
    // a large-enough file: the demo; the budget just above what its document holds
    let input = fixture("demo.bin");
    let (_dir, path) = on_disk("demo.bin", &input);
    let probe = Opened::open_path(&path, Default::default(), None, &Limits::default()).expect("opens");
    let retained = probe.doc().retained_bytes();
    let limits = Limits { max_memory: retained + input.len() as u64 / 2, ..Limits::default() };
    let o = Opened::open_path(&path, Default::default(), None, &limits).expect("opens under the budget");
    let mut app = App::new(o, Config::default());
    press(&mut app, "2 c enter");
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert!(said.contains("--limit memory="), "{said}");
    assert_eq!(app.edits.count(), 0);
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes")) as usize
}

/// The offset of TEST_SEQ's kind word in `motion.pks`, read as pak.md and motn.md lay it
/// out: PKS `ipac_ofs` at 4; IPAC `dictionary_ofs` at +4, the first entry's `offset` at +12
/// of its record (from the IPAC start); MOTN `table_ofs` at 0 and `data_ofs` at 8, table
/// entry 1 (8 bytes each) holding `data_rel`; the sequence header's `kind_word` at +2.
/// Returns where the MOTN member starts and the kind word, both offsets of `pks`.
fn test_seq_kind_word(pks: &[u8]) -> (usize, usize) {
    let ipac = u32_at(pks, 4);
    let dict = ipac + u32_at(pks, ipac + 4);
    let motn = ipac + u32_at(pks, dict + 12);
    let table = motn + u32_at(pks, motn);
    let data = motn + u32_at(pks, motn + 8);
    (motn, data + u32_at(pks, table + 8) + 2)
}

/// gzip → PKS → IPAC → MOTN: a field of a sequence three containers deep, edited in the
/// TUI and written back through every container.
#[test]
fn a_field_three_containers_deep_is_written_through_them() {
    use animscope::formats::gzarc::write::{FIXTURE_MTIME, gzip_member, pad_to_sector};
    let pks = fixture("motn/motion.pks");
    let mut gz = gzip_member("motion.pks", &pks, FIXTURE_MTIME);
    pad_to_sector(&mut gz);
    let (dir, path) = on_disk("motion.bin", &gz);
    let mut app = app_on(&path);
    // the name is found inside the members (opened on the way); the header is its first
    // child; the kind word 2 bytes into it
    // the tree: the gzip member (opened), its PKS document, the PKS header, the ipac node
    // (expanded), its header, the MULTI.MOTN member (opened), its MOTN document; there the
    // sequence by name, its header (its first child), and the kind word 2 bytes into it
    press(&mut app, "j l j l j j l j j l j g");
    typed(&mut app, "TEST_SEQ");
    press(&mut app, "enter 1 l j");
    press(&mut app, "g");
    typed(&mut app, "+2");
    let (motn, at) = test_seq_kind_word(&pks);
    press(&mut app, "enter 3 c");
    let label = app.prompt.as_ref().map(|p| p.label()).unwrap_or_default();
    assert_eq!(label, format!("set kind_word (2 B @0x{:x}) to> ", at - motn), "an offset of the member");
    press(&mut app, "ctrl-u");
    typed(&mut app, "0x000d");
    press(&mut app, "enter s enter");
    let edited = dir.path().join("motion.edited.bin");
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert!(said.starts_with(&format!("wrote {} bytes to {}", gz.len(), edited.display())), "{said}");
    let got = std::fs::read(&edited).expect("written");
    let mut want = pks.clone();
    assert_eq!(want[at..at + 2], [0, 0], "TEST_SEQ's kind word was 0");
    want[at..at + 2].copy_from_slice(&[0x0d, 0x00]);
    assert_eq!(gunzip(&got), want);
    assert_eq!(std::fs::read(&path).expect("the input"), gz);
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("the folder")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The write has `set`'s safety: an edit that makes a finding the original has not stops
/// the write with a y/n question, `n` leaves nothing behind, `y` writes it (`--force`).
/// `multi.mot`'s TEST_SEQ is motn.md's vector A (n = 10): Block 3's first byte is py's one
/// intermediate key frame, 4. motn.md §2.10: intermediate frames lie in 1..n−2 (the last
/// key is the implicit one at n−1), so 9 is a finding the original has not.
#[test]
fn a_write_that_makes_a_new_finding_asks_first() {
    let multi = fixture("motn/multi.mot");
    let (dir, path) = on_disk("multi.mot", &multi);
    // table_ofs at 0, data_ofs at 8; table entry 1 (TEST_SEQ) holds data_rel at +8 of the
    // table; b3 at +6 of the sequence header (motn.md §2)
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([multi[at], multi[at + 1]]));
    let seq = u32_at(&multi, 8) + u32_at(&multi, u32_at(&multi, 0) + 8);
    let b3 = seq + u16_at(seq + 6);
    assert_eq!(multi[b3], 4, "py's intermediate key frame (vector A)");
    let mut app = app_on(&path);
    // the sequence by name; in the tree its children: header, block1, block2, block3
    press(&mut app, "g");
    typed(&mut app, "TEST_SEQ");
    drawn(&mut app, "enter 1 l j j j j");
    assert_eq!(at(&app), "multi.mot/data/seq[TEST_SEQ]/block3");
    press(&mut app, "3 c");
    assert_eq!(app.prompt.as_ref().map(|p| p.text().to_string()).as_deref(), Some("4"));
    press(&mut app, "ctrl-u 9 enter");
    assert_eq!(app.edits.count(), 1, "{:?}", app.message);

    // the write stops at the finding and asks
    press(&mut app, "s enter");
    let edited = dir.path().join("multi.edited.mot");
    let asked = app.prompt.as_ref().map(|p| p.label()).unwrap_or_default();
    assert_eq!(
        asked,
        format!(
            "{}: the written file has findings the original has not (L lists them); write anyway? (y/n)> ",
            edited.display()
        )
    );
    let logged: Vec<String> = app.log.lines(400).into_iter().map(|(_, l)| l).collect();
    assert!(logged.iter().any(|l| l.contains("frame 9 is outside 1..8")), "{logged:?}");
    assert_eq!(names_in(dir.path()), ["multi.mot"], "nothing is written while it asks");
    // no (a y/n question takes one key): nothing written, no temp file left
    press(&mut app, "n");
    assert!(app.prompt.is_none());
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert_eq!(said, format!("not written: {}", edited.display()));
    assert_eq!(names_in(dir.path()), ["multi.mot"]);
    assert!(app.edits.unwritten(), "the edit is still pending");

    // again, yes: written as it was edited, the input unchanged
    press(&mut app, "s enter y");
    let said = app.message.as_ref().map(|m| m.1.clone()).unwrap_or_default();
    assert!(said.starts_with(&format!("wrote {} bytes to {}", multi.len(), edited.display())), "{said}");
    let mut want = multi.clone();
    want[b3] = 9;
    assert_eq!(std::fs::read(&edited).expect("written"), want);
    assert_eq!(std::fs::read(&path).expect("the input"), multi);
    assert!(!app.edits.unwritten());
}

/// The selected node's path.
fn at(app: &App) -> String {
    app.workspace.docs[app.sel.0].doc().path(app.sel.1)
}

/// `keys` pressed one at a time, a frame drawn after each: nodes the screen shows are built
/// before a frame (a decode still reading the document defers it to a later one).
fn drawn(app: &mut App, keys: &str) {
    for k in keys.split_whitespace() {
        press(app, k);
        render(app, 160, 50);
    }
}

/// After an edit the document is parsed again and its node ids found again by path: the
/// places kept for `back` and `forward` follow, so they return to the nodes they left. A
/// sequence's channels are made when its block5 is first opened, numbered after every node
/// made before; YKI_WALK's are made first here and closed again, so the parse after the
/// edit, which opens only what is shown, numbers TEST_SEQ's channels differently. (Tree
/// rows under a sequence, as `animscope tree` lists them: header, block1 (closed), block2,
/// block3, block4, TEST_SEQ's padding byte, block5.)
#[test]
fn back_and_forward_after_an_edit_return_to_the_nodes_left() {
    let multi = fixture("motn/multi.mot");
    let (_dir, path) = on_disk("multi.mot", &multi);
    let mut app = app_on(&path);
    // YKI_WALK's channels made, then closed again
    press(&mut app, "g");
    typed(&mut app, "YKI_WALK");
    drawn(&mut app, "enter 1 l j j j j j j l h");
    assert_eq!(at(&app), "multi.mot/data/seq[YKI_WALK]/block5");
    // TEST_SEQ's channels made; the first selected
    press(&mut app, "g");
    typed(&mut app, "TEST_SEQ");
    drawn(&mut app, "enter 1 l j j j j j j j l j");
    let channel = at(&app);
    assert_eq!(channel, "multi.mot/data/seq[TEST_SEQ]/block5/Root.px");
    // a jump from the channel: it is kept for back
    let (seq, block3) = ("multi.mot/data/seq[TEST_SEQ]", "multi.mot/data/seq[TEST_SEQ]/block3");
    press(&mut app, "g");
    typed(&mut app, "TEST_SEQ");
    press(&mut app, "enter");
    assert_eq!(at(&app), seq);
    drawn(&mut app, "1 j j j j");
    assert_eq!(at(&app), block3);
    // py's intermediate frame 4 -> 5 (within 1..8: no finding)
    press(&mut app, "3 c ctrl-u 5 enter");
    assert_eq!(app.edits.count(), 1, "{:?}", app.message);
    press(&mut app, "ctrl-o");
    assert_eq!(at(&app), channel);
    // forward: where back was pressed
    press(&mut app, "alt-right");
    assert_eq!(at(&app), block3);
    // undo parses it again too
    press(&mut app, "ctrl-z");
    assert_eq!(app.edits.count(), 0);
    press(&mut app, "ctrl-o");
    assert_eq!(at(&app), channel);
}

/// The bytes around the hex cursor are still shown as fields the moment an edit is kept:
/// the edited document is built where the screen shows it before the selection's decode
/// starts reading it (a worker holding the document keeps frames from building it). Before,
/// the frame drawn while that decode ran showed those rows as unparsed bytes and the next
/// one as fields again: 25 KB over the link for one Enter at 200×60 (issue 48).
#[test]
fn an_edit_keeps_the_bytes_on_screen_parsed() {
    let multi = fixture("motn/multi.mot");
    let (_dir, path) = on_disk("multi.mot", &multi);
    let mut app = app_on(&path);
    press(&mut app, "g");
    typed(&mut app, "TEST_SEQ");
    drawn(&mut app, "enter 1 l j j j j");
    assert_eq!(at(&app), "multi.mot/data/seq[TEST_SEQ]/block3");
    let parsed = |app: &App| -> Vec<u64> {
        let e = &app.workspace.docs[app.sel.0];
        let window = e.cursor.saturating_sub(512)..(e.cursor + 512).min(e.doc().len);
        window.filter(|&o| e.doc().field_at(o).is_some()).collect()
    };
    let before = parsed(&app);
    // bytes outside the sequence (its neighbours in the table and data) are among them
    assert!(before.len() > 600, "{}", before.len());
    press(&mut app, "3 c ctrl-u 9 enter");
    assert_eq!(app.edits.count(), 1, "{:?}", app.message);
    // no frame drawn since the edit: what the screen shows is built already
    assert_eq!(parsed(&app), before);
}
