//! TUI tests on the synthetic fixtures (issue 38: working at 80×24 and navigating like
//! the tools users know): the message log, wrapped field values, the decode pane's
//! channel list, following references with a back/forward stack, the walk pane following
//! the selection. Key events into `App`, rendered on a `TestBackend`.

use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::source::OpenOptions;
use animscope::tui::keymap::Keymap;
use animscope::tui::{App, Config};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;

use super::support::{press, screen};

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(rel)
}

fn app_on(rel: &str) -> App {
    app_with(rel, "default")
}

fn app_with(rel: &str, keymap: &str) -> App {
    let o = Opened::open_path(&fixture(rel), OpenOptions::default(), None, &Limits::default()).unwrap();
    let cfg = Config { keymap: Keymap::shipped(keymap).unwrap(), ..Config::default() };
    let mut app = App::new(o, cfg);
    app.wait_idle();
    app
}

/// Type `text` into the open prompt (after clearing it) and press Enter.
fn answer(app: &mut App, text: &str) {
    app.handle_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    for ch in text.chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE));
    }
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    app.wait_idle();
}

fn status(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn an_export_error_is_kept_in_full_in_the_message_log() {
    let mut app = app_on("motn/multi.mot");
    press(&mut app, "g");
    answer(&mut app, "A_WALK_L_02");
    press(&mut app, "e");
    // nothing can be created under /proc: the prompt offers to make the folder, and that fails
    let target = "/proc/nonexistent-dir-for-animscope/a/rather/long/path/to/the/export/A_WALK_L_02.json";
    answer(&mut app, target);
    assert!(screen(&mut app, 80, 24).contains("create the missing directory? (y/n) /proc/"));
    press(&mut app, "y");
    let s = screen(&mut app, 80, 24);
    let line = status(&s);
    assert!(line.ends_with("… [L] more"), "the status line says there is more:\n{s}");
    assert!(line.contains("export"), "{s}");
    press(&mut app, "L");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Messages · "), "{s}");
    // the whole message, wrapped: every piece of the path is on screen
    let shown: String = s.lines().map(|l| l.trim_matches(|c| c == '│' || c == ' ')).collect::<Vec<_>>().join(" ");
    let squeezed: String = shown.split_whitespace().collect();
    assert!(squeezed.contains(&target.replace(' ', "")), "{s}");
    assert!(squeezed.contains("Nosuchfileordirectory") || squeezed.contains("notfound"), "{s}");
    press(&mut app, "esc");
    assert!(!screen(&mut app, 80, 24).contains("Messages · "));
}

#[test]
fn the_180_degree_turn_is_read_at_80x24() {
    let mut app = app_on("motn/multi.mot");
    press(&mut app, "g");
    answer(&mut app, "TEST_SEQ");
    press(&mut app, "4");
    // the decode pane takes the full width and most rows at 80×24
    let s = screen(&mut app, 80, 24);
    let decode_rows = s.lines().skip_while(|l| !l.contains("Decode · TEST_SEQ")).count();
    assert!(decode_rows >= 12, "{s}");
    // UpperLeg_R.rx stores 0.5 turns at frame 0: the value column and the key's detail
    press(&mut app, "F");
    answer(&mut app, "upperleg rx");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("UpperLeg_R.rx = 3.1416 rad (180.0°)"), "{s}");
    // the list's value right-aligned in its column, without the degrees
    let squeezed = s.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    assert!(squeezed.contains("rx 3.1416 rad"), "{s}");
    let flat: String = s.lines().map(|l| l.trim_matches(|c| c == '│' || c == ' ')).collect::<Vec<_>>().join(" ");
    assert!(flat.contains("value 0.5 (stored turns, = 180.0°)"), "the key's detail wrapped whole:\n{s}");
}

#[test]
fn the_decode_pane_lists_most_channels_at_120x40() {
    // the newcomer saw 3 of 63 channel rows at 120×40 unless zoomed
    let mut app = app_on("motn/multi.mot");
    press(&mut app, "g");
    answer(&mut app, "A_WALK_L_02");
    press(&mut app, "4");
    let s = screen(&mut app, 120, 40);
    // the decode pane's rows: from its title to the walk pane's
    let decode_rows =
        s.lines().skip_while(|l| !l.contains("Decode · A_WALK_L_02")).take_while(|l| !l.contains("Walk · ")).count();
    assert!(decode_rows >= 20, "{s}");
    let channel_rows = s.lines().filter(|l| l.contains("[ ] ") || l.contains("[x] ")).count();
    assert!(channel_rows >= 12, "{channel_rows} channel rows:\n{s}");
}

#[test]
fn the_channel_filter_lists_matches_as_it_is_typed_and_esc_puts_it_back() {
    let mut app = app_on("motn/multi.mot");
    press(&mut app, "g");
    answer(&mut app, "A_WALK_L_02");
    press(&mut app, "F");
    for ch in "leg_l".chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE));
    }
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("[ ] UpperLeg_L (0/3)"), "a bone row for the matches:\n{s}");
    assert!(s.contains("filter \"leg_l\""), "{s}");
    assert!(!s.contains("[ ] Root") && !s.contains("[x] Root"), "Root's channels are not listed:\n{s}");
    assert!(s.contains("frame 0/36 UpperLeg_L.rx = "), "the cursor on the first channel listed:\n{s}");
    app.handle_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    assert_eq!(app.decode.choice.filter, "");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("[ ] UpperLeg_R (0/3)"), "every bone listed again:\n{s}");
    // a filter kept with Enter; the bone row toggles its channels
    press(&mut app, "F");
    answer(&mut app, "upperleg_l");
    press(&mut app, "k space");
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("[x] UpperLeg_L (3/3)"), "{s}");
    assert!(s.contains("[x] rx"), "channels under the bone row without its name:\n{s}");
}

#[test]
fn toggle_all_animated_only_and_the_choice_kept_for_the_next_clip() {
    let mut app = app_on("motn/multi.mot");
    press(&mut app, "g");
    answer(&mut app, "A_WALK_L_02");
    press(&mut app, "4");
    app.wait_idle();
    let _ = screen(&mut app, 200, 60);
    let n = app.decode.enabled.len();
    assert_eq!(n, 12);
    assert_eq!(app.decode.enabled.iter().filter(|e| **e).count(), 4, "the first four at first");
    press(&mut app, "A");
    assert!(app.decode.enabled.iter().all(|e| *e), "A: all on");
    press(&mut app, "A");
    assert!(app.decode.enabled.iter().all(|e| !*e), "A again: all off");
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("0/12 on"), "{s}");
    press(&mut app, "a");
    let on: Vec<usize> = (0..n).filter(|&i| app.decode.enabled[i]).collect();
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("animated channels only:"), "{s}");
    // the channels with 0 stored values (Root.px, Root.rx...) stay still
    assert!(!on.is_empty() && on.len() < n, "{on:?}");
    let names: Vec<String> = {
        let Some(animscope::tui::Load::Ready(c)) = app.clip() else { panic!("no clip") };
        on.iter().map(|&i| c.tracks[i].name.clone()).collect()
    };
    assert!(names.contains(&"UpperLeg_R.rx".to_string()), "{names:?}");
    assert!(!names.contains(&"Root.px".to_string()), "{names:?}");
    // the copy of the sequence has the same channels: the same ones are on
    press(&mut app, "g");
    answer(&mut app, "A_WALK_L_02_COPY");
    let _ = screen(&mut app, 200, 60);
    let kept: Vec<String> = {
        let Some(animscope::tui::Load::Ready(c)) = app.clip() else { panic!("no clip") };
        (0..c.tracks.len())
            .filter(|&i| app.decode.enabled.get(i) == Some(&true))
            .map(|i| c.tracks[i].name.clone())
            .collect()
    };
    assert_eq!(kept, names);
}

fn selected_path(app: &App) -> String {
    app.cur().doc().path(app.sel.1)
}

#[test]
fn enter_follows_a_reference_and_ctrl_o_ctrl_i_go_back_and_forward() {
    let mut app = app_on("ccsf/g123.ccs");
    press(&mut app, "g");
    answer(&mut app, "Obj[OBJ_arm]");
    assert_eq!(selected_path(&app), "g123.ccs/Obj[OBJ_arm]");
    // the fields pane: down to `parent = 2 → OBJ_root`, Enter follows it
    press(&mut app, "3 j j j j");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("parent") && s.contains("→ OBJ_root"), "{s}");
    let on_parent = app.cur().cursor;
    press(&mut app, "enter");
    assert_eq!(selected_path(&app), "g123.ccs/Obj[OBJ_root]");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("followed parent → g123.ccs/Obj[OBJ_root]"), "{s}");
    // back to the field followed, then forward again
    press(&mut app, "ctrl-o");
    assert_eq!(selected_path(&app), "g123.ccs/Obj[OBJ_arm]");
    assert_eq!(app.cur().cursor, on_parent);
    press(&mut app, "ctrl-i");
    assert_eq!(selected_path(&app), "g123.ccs/Obj[OBJ_root]");
    // every jump is kept: goto, then find, then back twice
    press(&mut app, "g");
    answer(&mut app, "MDL_prop");
    assert_eq!(selected_path(&app), "g123.ccs/Model[MDL_prop]");
    press(&mut app, "/");
    answer(&mut app, "ANM_demo");
    let after_search = app.here();
    assert_ne!(after_search.2, app.jumps.back.last().unwrap().2);
    press(&mut app, "ctrl-o");
    assert_eq!(selected_path(&app), "g123.ccs/Model[MDL_prop]");
    press(&mut app, "ctrl-o");
    assert_eq!(selected_path(&app), "g123.ccs/Obj[OBJ_root]");
    // a new jump clears forward
    press(&mut app, "g");
    answer(&mut app, "0x10");
    assert!(app.jumps.forward.is_empty());
    press(&mut app, "ctrl-i");
    assert!(screen(&mut app, 80, 24).contains("nothing to go forward to"));
}

#[test]
fn the_emacs_and_vim_keymaps_follow_and_go_back() {
    for (km, follow, back) in [("emacs", "alt-.", "alt-,"), ("vim", "g d", "ctrl-o")] {
        let mut app = app_with("ccsf/g123.ccs", km);
        let goto = if km == "vim" { ":" } else { "g" };
        press(&mut app, goto);
        answer(&mut app, "Obj[OBJ_arm]");
        press(&mut app, "3 down down down down");
        press(&mut app, follow);
        assert_eq!(selected_path(&app), "g123.ccs/Obj[OBJ_root]", "{km}");
        press(&mut app, back);
        assert_eq!(selected_path(&app), "g123.ccs/Obj[OBJ_arm]", "{km}");
    }
}

#[test]
fn the_walk_follows_the_selection() {
    let mut app = app_on("ccsf/g123.ccs");
    press(&mut app, "g");
    answer(&mut app, "MDL_prop");
    let doc = app.cur().doc();
    let step = app.cur().walk_step.expect("a walk step for the selection");
    let node = doc.walk_node(step).expect("the step's node");
    // the step produced the selected node or one of its ancestors
    let mut cur = Some(app.sel.1);
    let mut found = false;
    while let Some(id) = cur {
        found |= id == node;
        cur = doc.node(id).and_then(|n| n.parent);
    }
    assert!(found, "step {step} ({node:?}) is not on the way to {:?}", app.sel.1);
    let s = screen(&mut app, 200, 60);
    assert!(s.contains(&format!("Walk · step {}/", step + 1)), "{s}");
    // another node: another step
    press(&mut app, "g");
    answer(&mut app, "ANM_demo");
    assert_ne!(app.cur().walk_step, Some(step));
    // walk steps themselves stay where they are
    press(&mut app, "w )");
    let i = app.cur().walk_step.unwrap();
    press(&mut app, ")");
    assert_eq!(app.cur().walk_step, Some(i + 1));
}

#[test]
fn diagnostics_are_listed_by_offset() {
    let mut app = app_on("sc6/x_bank_count_too_large.mot");
    press(&mut app, "6 z");
    let s = screen(&mut app, 200, 60);
    let lines: Vec<&str> = s.lines().collect();
    let offsets: Vec<u64> = lines[1..lines.len() - 2]
        .iter()
        .filter_map(|l| {
            let at = l.find("@0x").or_else(|| l.find(" 0x"))?;
            let hex: String = l[at..]
                .trim_start_matches([' ', '@'])
                .trim_start_matches("0x")
                .chars()
                .take_while(char::is_ascii_hexdigit)
                .collect();
            u64::from_str_radix(&hex, 16).ok()
        })
        .collect();
    assert!(offsets.len() >= 2, "{s}");
    assert!(offsets.windows(2).all(|w| w[0] <= w[1]), "{offsets:?}\n{s}");
}

/// Without colour (NO_COLOR) the curves are told apart by markers: each enabled channel's
/// row in the list carries its marker, and the plot draws the same marker on its curve, so
/// a curve can be matched to its channel with no colour at all. The markers are the
/// documented set (●, ■, ▲, ◆, +, x, o, *), one per channel index.
#[test]
fn without_colour_each_curve_has_a_marker_shown_beside_its_channel() {
    let o = Opened::open_path(&fixture("motn/multi.mot"), OpenOptions::default(), None, &Limits::default()).unwrap();
    let cfg = Config { theme: animscope::tui::theme::Theme::mono(), ..Config::default() };
    let mut app = App::new(o, cfg);
    app.wait_idle();
    press(&mut app, "g");
    answer(&mut app, "TEST_SEQ");
    press(&mut app, "4");
    press(&mut app, "z");
    let s = screen(&mut app, 120, 40);
    let markers = ['●', '■', '▲', '◆', '+', 'x', 'o', '*'];
    // channel rows: "[x] M NAME value"
    let listed: Vec<char> = s
        .lines()
        .filter_map(|l| l.split("[x] ").nth(1))
        .filter_map(|rest| rest.chars().next())
        .filter(|c| markers.contains(c))
        .collect();
    assert!(listed.len() >= 2, "at least two enabled channels listed with markers:\n{s}");
    assert_ne!(listed[0], listed[1], "two channels, two markers:\n{s}");
    // the plot (rows without a channel-list box) shows the listed markers
    let plot: String = s.lines().filter(|l| !l.contains("[x]") && !l.contains("[ ]")).collect();
    for m in &listed[..2] {
        assert!(plot.contains(*m), "marker {m} drawn on its curve:\n{s}");
    }
}

/// The offsets of the hex rows on an 80×24 screen of the default layout: the text after
/// the tree's column and the hex pane's blank left one, for the rows that start with one.
fn hex_row_offsets(s: &str) -> Vec<u64> {
    let from = tree_right(s) + 2;
    s.lines()
        .skip(1)
        .map(|l| l.chars().skip(from).take(8).collect::<String>())
        .map_while(|h| u64::from_str_radix(&h, 16).ok())
        .collect()
}

#[test]
fn walk_jumps_put_the_chunk_a_quarter_from_the_top() {
    // at 80×24 the hex pane shows 9 rows of 8 bytes; a quarter of 9 rows is 2 rows, so the
    // chunk's row is the third one shown
    let mut app = app_on("ccsf/g123.ccs");
    let _ = screen(&mut app, 80, 24);
    press(&mut app, "w )");
    // step 2 starts at 0x3c (row 0x38); from the top of the file it was in view on the
    // 8th of 9 rows: now rows from 0x28, it on the third
    assert_eq!(app.cur().cursor, 0x3c);
    let s = screen(&mut app, 80, 24);
    assert_eq!(hex_row_offsets(&s), [0x28, 0x30, 0x38, 0x40, 0x48, 0x50, 0x58, 0x60, 0x68], "{s}");
    // step 4 (0x414) was in view four rows down after step 3 (0x40c, rows from 0x3f8): now
    // rows from 0x400, its row 0x410 the third
    press(&mut app, ") )");
    assert_eq!(app.cur().cursor, 0x414);
    let s = screen(&mut app, 80, 24);
    assert_eq!(hex_row_offsets(&s).first(), Some(&0x400), "{s}");
    assert!(s.lines().nth(3).is_some_and(|l| l.contains("00000410  00 00 00 00[00]09 cc cc")), "{s}");
    // going back is a jump too: step 3 (0x40c, row 0x408) puts rows from 0x3f8
    press(&mut app, "(");
    assert_eq!(app.cur().cursor, 0x40c);
    let s = screen(&mut app, 80, 24);
    assert_eq!(hex_row_offsets(&s).first(), Some(&0x3f8), "{s}");
    // the last step: the file's last row (0xea0, 0xea8 bytes) stays on the bottom row
    press(&mut app, "end");
    let s = screen(&mut app, 80, 24);
    let rows = hex_row_offsets(&s);
    assert_eq!(rows.last(), Some(&0xea0), "{s}");
    assert_eq!(rows.len(), 9, "{s}");
    let cursor_row = app.cur().cursor / 8 * 8;
    assert!(rows.contains(&cursor_row), "{s}");
}

/// The tree pane's last column: the blank one where its title rule stops (the pane at the
/// left, its rule the first on the top row).
fn tree_right(s: &str) -> usize {
    let top: Vec<char> = s.lines().next().unwrap_or("").chars().collect();
    top.windows(2).position(|w| w == ['─', ' ']).map_or(0, |p| p + 1)
}

/// The tree pane's column of a screen: the columns inside its padding.
fn tree_column(s: &str) -> String {
    let right = tree_right(s);
    let rows: Vec<String> =
        s.lines().map(|l| l.chars().take(right).skip(1).collect::<String>().trim_end().to_string()).collect();
    rows.join("\n")
}

fn app_on_path(path: &Path) -> App {
    let o = Opened::open_path(path, OpenOptions::default(), None, &Limits::default()).unwrap();
    let mut app = App::new(o, Config::default());
    app.wait_idle();
    app
}

#[test]
fn tree_names_do_not_repeat_the_kind_the_parent_says() {
    // `data  sequence data` says what its children are: they show their bare names
    let mut app = app_on("motn/multi.mot");
    press(&mut app, "g");
    answer(&mut app, "data");
    press(&mut app, "1 l");
    let s = screen(&mut app, 80, 24);
    let tree = tree_column(&s);
    assert!(tree.contains("▸ A_WALK_L_02  37"), "{s}");
    assert!(tree.contains("▸ TEST_SEQ  10 fr"), "the kind said by the parent is not repeated:\n{s}");
    assert!(tree.contains("▸ AKI_AKI…S00_R_ST"), "only what does not fit is cut, in the middle:\n{s}");
    assert!(!tree.contains("seq["), "{s}");
    // an alias is another kind: it says so
    let s = screen(&mut app, 200, 60);
    assert!(s.lines().any(|l| l.starts_with("       ERROR  sequence alias  same data")), "{s}");
    assert!(s.lines().any(|l| l.starts_with("     ▸ TEST_SEQ  10 frames")), "{s}");
    // the address is unchanged: the selection's path, and goto by it
    press(&mut app, "j j j");
    assert_eq!(selected_path(&app), "multi.mot/data/seq[TEST_SEQ]");
    press(&mut app, "g");
    answer(&mut app, "multi.mot/data/seq[LONG_SEQ]");
    assert_eq!(selected_path(&app), "multi.mot/data/seq[LONG_SEQ]");
    // a CCSF scene's chunks are of many kinds under a root that names none: kept whole
    let mut app = app_on("ccsf/g123.ccs");
    press(&mut app, "1");
    let tree = tree_column(&screen(&mut app, 80, 24));
    assert!(tree.contains("Clump[CMP_demo]") && tree.contains("Obj[OBJ_root]"), "{tree}");
}

/// A MOTN bank of `n` distinct one-channel sequences named `{stem}000`...
fn long_motn(dir: &Path, n: usize, stem: &str) -> std::path::PathBuf {
    use animscope::formats::motn::write::{
        Channel, ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec, encode_file, encode_sequence,
    };
    let entries: Vec<(String, Vec<u8>)> = (0..n)
        .map(|i| {
            let keys = vec![
                KeySpec { frame: 0, values: KeyValues::Value(i as f32) },
                KeySpec { frame: 9, values: KeyValues::Value(1.0) },
            ];
            let spec = SequenceSpec {
                frames: 10,
                kind_word: 0,
                nodes: vec![NodeSpec { node: 0, channels: vec![ChannelSpec { channel: Channel::Px, keys }] }],
            };
            (format!("{stem}{i:03}"), encode_sequence(&spec).unwrap())
        })
        .collect();
    let path = dir.join(format!("{stem}.mot"));
    std::fs::write(&path, encode_file(&entries, None)).unwrap();
    path
}

#[test]
fn group_rows_name_their_first_and_last_and_their_children_show_bare_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_path(&long_motn(dir.path(), 130, "YAK_WALK_LOOP_"));
    press(&mut app, "g");
    answer(&mut app, "data");
    press(&mut app, "1 l j l");
    let s = screen(&mut app, 80, 24);
    let tree = tree_column(&s);
    // 16 columns for a group row two levels down: the names cut to 6 columns each, their
    // ends (what tells them apart) kept
    assert!(tree.contains("▾ YA…000 … YA…099"), "{s}");
    assert!(tree.contains("▸ YAK_WA…OOP_000"), "the children's bare names, cut to 14 columns:\n{s}");
    assert!(!tree.contains("seq["), "{s}");
    // a 38-column tree (160 columns' 30 widened twice by 4): 32 for the group row, the
    // kind and the names cut to 9 each
    screen(&mut app, 160, 48);
    press(&mut app, "W W");
    let s = screen(&mut app, 160, 48);
    assert!(s.contains("▾ sequence  YAK_…_000 … YAK_…_099"), "{s}");
    assert!(s.contains("▸ YAK_WALK_LOOP_000  10 frames"), "{s}");
    // a 46-column tree (the default at 200 columns): 40 for the group row, the names whole
    // before the kind
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("▾ YAK_WALK_LOOP_000 … YAK_WALK_LOOP_099"), "{s}");
    // short names in a 40-column group row: the span of indexes too
    let mut app = app_on_path(&long_motn(dir.path(), 130, "WALK_"));
    press(&mut app, "g");
    answer(&mut app, "data");
    press(&mut app, "1 l");
    let s = screen(&mut app, 240, 60);
    assert!(s.contains("▸ sequence [0..100)  WALK_000 … WALK_099"), "{s}");
    assert!(s.contains("▸ sequence [100..130)  WALK_100 … WALK_129"), "{s}");
}

/// A CCSF scene of 120 textures (`TEX_000`...) sharing one CLUT, written by the writer.
fn many_textures(dir: &Path) -> std::path::PathBuf {
    use animscope::formats::ccsf::write::{CcsFile, Chunk, texture_chunk, write};
    let mut objects = vec![("CLT_shared".to_string(), 1u16)];
    objects.extend((0..120).map(|i| (format!("TEX_{i:03}"), 1u16)));
    let mut f = CcsFile {
        name: "many".into(),
        version: 0x100,
        frames: 0,
        files: vec![(b' ', "x\\many\\tex.bmp".into())],
        objects,
        chunks: vec![Chunk::Setup],
    };
    let clut = f.obj("CLT_shared");
    f.chunks.push(Chunk::Clut { clut, blt_group: 0, flag: 1, buf: [768, 768], colours: vec![[0, 0, 0, 0x80]; 16] });
    for i in 0..120 {
        let texture = f.obj(&format!("TEX_{i:03}"));
        f.chunks.push(texture_chunk(texture, clut, vec![0x11; 16 * 16 / 2]));
    }
    let path = dir.join("many.cmp");
    std::fs::write(&path, write(&f)).unwrap();
    path
}

#[test]
fn ccsf_textures_under_a_texture_group_show_bare_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_path(&many_textures(dir.path()));
    press(&mut app, "1");
    let s = screen(&mut app, 80, 24);
    let tree = tree_column(&s);
    // 18 columns: both names whole, the kind left out
    assert!(tree.contains("▸ TEX_000 … TEX_099"), "{s}");
    assert!(tree.contains("▸ TEX_100 … TEX_119"), "{s}");
    // the CLUT beside the group keeps its kind
    assert!(tree.contains("Clut[CLT_shared]"), "{s}");
    press(&mut app, "g");
    answer(&mut app, "TEX_007");
    assert_eq!(selected_path(&app), "many.cmp/Texture[TEX_007]");
    press(&mut app, "1");
    let s = screen(&mut app, 80, 24);
    let tree = tree_column(&s);
    assert!(tree.contains("▾ TEX_000 … TEX_099"), "{s}");
    assert!(tree.contains("    ▸ TEX_007  16×16"), "{s}");
    assert!(!tree.contains("Texture["), "{s}");
    let s = screen(&mut app, 200, 60);
    let group = s.lines().find(|l| l.contains("TEX_000 … TEX_099")).unwrap_or_else(|| panic!("{s}"));
    assert!(group.contains("▾ Texture "), "wider, the group row names the kind:\n{s}");
}

#[test]
fn the_demo_at_100x30_shows_the_panes_side_by_side_with_the_decode_pane() {
    let o = animscope::demo::open(&Limits::default()).unwrap();
    let mut app = App::new(o, Config::default());
    app.wait_idle();
    let s = screen(&mut app, 100, 30);
    let row = |needle: &str| s.lines().position(|l| l.contains(needle));
    let (fields, decode) = (row("Fields · "), row(" Decode"));
    assert!(fields.is_some() && fields == decode, "fields and decode side by side:\n{s}");
    assert!(s.contains("Walk · step"), "{s}");
    assert!(s.lines().any(|l| l.starts_with("▶ Tree─") && l.contains("─ Hex · demo.bin")), "{s}");
    // a clip selected: the decode pane draws it beside the fields
    press(&mut app, "g");
    answer(&mut app, "A_WALK_L_02");
    let s = screen(&mut app, 100, 30);
    let decode_row = s.lines().find(|l| l.contains(" Decode · A_WALK_L_02")).unwrap_or_else(|| panic!("{s}"));
    assert!(decode_row.contains(" Fields · "), "{s}");
    assert!(s.contains("frame 0/36"), "{s}");
}

#[test]
fn long_field_values_scroll_sideways_and_show_units() {
    let mut app = app_on("motn/multi.mot");
    // TEST_SEQ's UpperLeg_R.rx keys: 0.5 turns in key[0] and key[1], -0.5 in key[3]
    // (selected, so wrapped whole)
    press(&mut app, "g");
    answer(&mut app, "0x1bc");
    assert_eq!(selected_path(&app), "multi.mot/data/seq[TEST_SEQ]/block5/UpperLeg_R.rx");
    press(&mut app, "3");
    let s = screen(&mut app, 80, 24);
    // the unit in the value column; unselected rows are cut: key[1]'s note (its frame, code
    // and the half turn in degrees) is not readable
    assert!(s.contains("key[1]  f16 0x3800 = 0.5 turns  @0x1b8 2 B  frame 3, c"), "{s}");
    assert!(s.contains("; -180.0°") && !s.contains("; 180.0°"), "{s}");
    assert!(!s.contains("implicit first key"), "key[0]'s note is cut:\n{s}");
    press(&mut app, "l");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("«"), "{s}");
    // further right shows the notes' ends; back left, the rows as before
    press(&mut app, "l l l l");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("implicit first key") && s.contains("; 180.0°"), "{s}");
    press(&mut app, "h h h h h h");
    let s = screen(&mut app, 80, 24);
    assert!(!s.contains("«") && s.contains("key[1]  f16 0x3800 = 0.5 turns"), "{s}");
    // a fixed-point value read as its number in the value column
    let mut app = app_on("ccsf/g125n.ccs");
    press(&mut app, "g");
    answer(&mut app, "EFF_spark");
    press(&mut app, "3");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("zoffs") && s.contains("384 = 1.5"), "{s}");
}

/// An SC6 clip is decoded once with its curves stored: the key text at the frame cursor
/// and the word table's rows are made when they are shown, and read as the complete
/// decode (every key's text and row stored) gives them.
#[test]
fn a_clip_shows_its_key_text_and_word_table_made_when_looked_at() {
    let mut app = app_on("sc6/fixture_b.mot");
    press(&mut app, "g");
    answer(&mut app, "clip[0]");
    let shown = {
        let Some(animscope::tui::Load::Ready(c)) = app.clip() else { panic!("no clip") };
        assert!(c.tracks_on_demand.is_some() && c.tracks.iter().all(|t| !t.samples.is_empty()));
        c.tracks[0].keys.first().map(|k| (k.detail.clone(), k.frame))
    };
    // the stored keys carry no text
    assert_eq!(shown, Some((String::new(), 0.0)));
    let o = Opened::open_path(&fixture("sc6/fixture_b.mot"), OpenOptions::default(), None, &Limits::default()).unwrap();
    let anim = o.animations().into_iter().find(|a| a.id() == "clip:0").unwrap();
    let full = o.clips().unwrap().decode(&anim, &Default::default(), &Limits::default()).unwrap();
    let s = screen(&mut app, 200, 60);
    let text = &full.tracks[0].keys[0].detail;
    assert!(text.starts_with("key 0 words ["), "{text}");
    assert!(s.contains(&format!("key: {text}")), "{s}");
    press(&mut app, "4 t");
    let s = screen(&mut app, 240, 60);
    let table = &full.tables[0];
    assert!(s.contains(&format!("{} ({} rows)", table.name, table.rows.len())), "{s}");
    // each row as far as the pane shows it (key, frame, group and the first two words)
    assert!(!table.rows.is_empty());
    for row in &table.rows {
        let cells: Vec<&str> = row.iter().take(5).map(String::as_str).collect();
        let shown = s
            .lines()
            .any(|l| l.split(['│', ' ']).filter(|x| !x.is_empty()).collect::<Vec<_>>().windows(5).any(|w| w == cells));
        assert!(shown, "row {cells:?} not shown:\n{s}");
    }
}
