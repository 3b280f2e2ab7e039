//! Views the user can shape (issue 52): go to a frame in the decode pane, help that opens
//! on the focused pane's keys and filters as it is typed, pane sizes changed by keys (kept
//! per terminal size), proportional defaults, and enough channel rows at 100×30. Key
//! events into `App`, rendered on a `TestBackend`.

use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::source::OpenOptions;
use animscope::tui::component::Pane;
use animscope::tui::{App, Config};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;

use super::support::{press, render, screen};

fn app_on(rel: &str) -> App {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(rel);
    let o = Opened::open_path(&path, OpenOptions::default(), None, &Limits::default()).unwrap();
    let mut app = App::new(o, Config::default());
    app.wait_idle();
    app
}

/// Type `text` (each character a key press).
fn typed(app: &mut App, text: &str) {
    for ch in text.chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE));
    }
    app.wait_idle();
}

/// Type `text` into the open prompt (after clearing it) and press Enter.
fn answer(app: &mut App, text: &str) {
    app.handle_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    typed(app, text);
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    app.wait_idle();
}

/// The app on multi.mot with A_WALK_L_02 selected and the decode pane focused.
fn walk_in_decode() -> App {
    let mut app = app_on("motn/multi.mot");
    press(&mut app, "g");
    answer(&mut app, "A_WALK_L_02");
    press(&mut app, "4");
    app
}

/// The rectangle pane `p` was drawn in by the last frame.
fn rect(app: &App, p: Pane) -> ratatui::layout::Rect {
    app.layout.panes.iter().find(|(q, _)| *q == p).map(|(_, r)| *r).unwrap_or_else(|| panic!("{p:?} not drawn"))
}

#[test]
fn colon_then_a_number_goes_to_that_frame_and_pgdn_is_ten_frames() {
    let mut app = walk_in_decode();
    let s = screen(&mut app, 100, 30);
    // the sequence's last frame, from the pane's own header `frame 0/LAST`
    let last: usize = s
        .split("frame 0/")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{s}"));
    assert!(last >= 12, "{last}");
    press(&mut app, ":");
    let s = screen(&mut app, 100, 30);
    assert!(s.contains(&format!("go to frame (0..{last})>")), "{s}");
    answer(&mut app, "7");
    assert_eq!(app.decode.frame, 7);
    assert!(screen(&mut app, 100, 30).contains(&format!("frame 7/{last}")));
    press(&mut app, "pgdn");
    assert_eq!(app.decode.frame, (17).min(last));
    press(&mut app, "pgup");
    assert_eq!(app.decode.frame, (17).min(last) - 10);
    // past the end: the last frame
    press(&mut app, ":");
    answer(&mut app, "100000");
    assert_eq!(app.decode.frame, last);
    assert!(screen(&mut app, 100, 30).contains(&format!("frame {last}/{last}")));
    // not a number: said, the frame kept
    press(&mut app, ":");
    answer(&mut app, "x7");
    assert_eq!(app.decode.frame, last);
    assert!(screen(&mut app, 100, 30).contains("x7 is not a frame number"));
}

#[test]
fn help_describes_pgdn_as_ten_frames_and_opens_on_the_focused_pane() {
    let mut app = walk_in_decode();
    press(&mut app, "?");
    let s = screen(&mut app, 100, 40);
    let decode = s.find("── decode (the focused pane)").unwrap_or_else(|| panic!("{s}"));
    let tree = s.find("── tree and finding");
    assert!(tree.is_none_or(|t| t > decode), "the decode section first:\n{s}");
    assert!(s.contains("go to frame N"), "{s}");
    press(&mut app, "esc");
    // from the tree, the tree's section first
    press(&mut app, "1 ?");
    let s = screen(&mut app, 100, 40);
    assert!(s.contains("── tree and finding (the focused pane)"), "{s}");
    // typed letters filter: only the lines holding them, under their sections
    typed(&mut app, "10 frames");
    let s = screen(&mut app, 100, 40);
    assert!(s.contains("filter: 10 frames"), "{s}");
    assert!(s.contains("pgdn") && s.contains("decode: 10 frames on"), "{s}");
    assert!(s.contains("pgup") && s.contains("decode: 10 frames back"), "{s}");
    assert!(!s.contains("quit and restore"), "{s}");
    // backspace takes letters off; a filter matching nothing says so
    for _ in 0.."10 frames".len() {
        app.handle_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    }
    typed(&mut app, "zzzq");
    assert!(screen(&mut app, 100, 40).contains("no key matches \"zzzq\""));
    assert!(!app.quit, "q typed in help filters, it does not quit");
    press(&mut app, "esc");
    assert!(app.help.is_none());
}

#[test]
fn pane_size_keys_widen_the_tree_and_grow_the_lower_pane_per_terminal_size() {
    let mut app = app_on("motn/multi.mot");
    render(&mut app, 100, 30);
    let tree0 = rect(&app, Pane::Tree).width;
    let walk0 = rect(&app, Pane::Walk).height;
    press(&mut app, "W W");
    render(&mut app, 100, 30);
    assert_eq!(rect(&app, Pane::Tree).width, tree0 + 8);
    press(&mut app, "S");
    render(&mut app, 100, 30);
    assert_eq!(rect(&app, Pane::Tree).width, tree0 + 4);
    press(&mut app, "T T T");
    render(&mut app, 100, 30);
    assert_eq!(rect(&app, Pane::Walk).height, walk0 + 6);
    press(&mut app, "R");
    render(&mut app, 100, 30);
    assert_eq!(rect(&app, Pane::Walk).height, walk0 + 4);
    // another terminal size keeps its own (default) sizes; back at 100×30 they are kept
    render(&mut app, 120, 40);
    let tree_120 = rect(&app, Pane::Tree).width;
    let mut fresh = app_on("motn/multi.mot");
    render(&mut fresh, 120, 40);
    assert_eq!(tree_120, rect(&fresh, Pane::Tree).width);
    render(&mut app, 100, 30);
    assert_eq!(rect(&app, Pane::Tree).width, tree0 + 4);
    // pressed past the limit, one press back moves it
    for _ in 0..40 {
        press(&mut app, "S");
    }
    render(&mut app, 100, 30);
    let narrowest = rect(&app, Pane::Tree).width;
    press(&mut app, "W");
    render(&mut app, 100, 30);
    assert_eq!(rect(&app, Pane::Tree).width, narrowest + 4);
}

#[test]
fn wider_terminals_give_the_tree_more() {
    let mut app = app_on("motn/multi.mot");
    let mut widths = Vec::new();
    for (w, h) in [(80, 24), (100, 30), (160, 40), (200, 60)] {
        render(&mut app, w, h);
        widths.push(rect(&app, Pane::Tree).width);
    }
    assert!(widths.windows(2).all(|p| p[0] <= p[1]), "{widths:?}");
    // two fifths of what the 80-column hex pane leaves at 200 and 240 columns (the old
    // layout gave 40 and 48)
    assert_eq!(widths[3], 48, "{widths:?}");
    render(&mut app, 240, 60);
    assert_eq!(rect(&app, Pane::Tree).width, 64);
}

#[test]
fn the_focused_decode_pane_lists_ten_channels_at_100x30() {
    let mut app = walk_in_decode();
    let s = screen(&mut app, 100, 30);
    let channel_rows = s.lines().filter(|l| l.contains("[ ] ") || l.contains("[x] ")).count();
    assert!(channel_rows >= 10, "{channel_rows} channel rows:\n{s}");
}
