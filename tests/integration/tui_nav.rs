//! TUI tests on the synthetic fixtures (issue 38: working at 80×24 and navigating like
//! the tools users know): the message log, wrapped field values, the decode pane's
//! channel list, following references with a back/forward stack, the walk pane following
//! the selection. Key events into `App`, rendered on a `TestBackend`.

use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::source::OpenOptions;
use animscope::tui::keymap::{Chord, Keymap};
use animscope::tui::{App, Config};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::Path;

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

/// Press keys written as in keymap files (`tab`, `y h`, `ctrl-c`).
fn press(app: &mut App, keys: &str) {
    for k in keys.split_whitespace() {
        let c = Chord::parse(k).unwrap();
        app.handle_key(KeyEvent::new(c.code, c.mods));
        app.wait_idle();
    }
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

fn screen(app: &mut App, w: u16, h: u16) -> String {
    app.wait_idle();
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| animscope::tui::draw(app, f)).unwrap();
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
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
    let target = "/nonexistent-dir-for-animscope/a/rather/long/path/to/the/export/A_WALK_L_02.json";
    answer(&mut app, target);
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
