//! A clip inside an archive member is decoded under the same memory budget by the CLI and
//! the TUI: what the member's enclosing documents left of `--limit memory=`, not the whole
//! budget again.

use super::support::animscope;
use animscope::formats::gzarc::write::archive;
use animscope::formats::motn::write::{encode_file, encode_sequence};
use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::tui::app::Load;
use animscope::tui::{App, Config};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Bytes of zeros after the MOTN blob inside the member: they inflate to 4 MiB (the member
/// holds them) while the archive stays small.
const MEMBER_PADDING: usize = 4 << 20;

/// A MOTN file of one sequence `LONG`: 6,000 frames over 80 nodes, three rotation channels
/// of two keys each (a few KB of keys whose curves are 1.44 M samples), followed by
/// `padding` zero bytes.
fn long_motn(padding: usize) -> Vec<u8> {
    let spec = super::hostile_gen::two_key_rotations(6_000, 80);
    let mut file = encode_file(&[("LONG".to_string(), encode_sequence(&spec).unwrap())], None);
    file.resize(file.len() + padding, 0);
    file
}

/// Whether the TUI, opened on `path` under `mib` MiB, decodes `LONG` once it is reached by
/// name (`g LONG`): true when decoded, false when stopped by the memory budget (anything
/// else fails the test).
fn tui_decodes(path: &std::path::Path, mib: u64) -> bool {
    let limits = Limits { max_memory: mib << 20, ..Limits::interactive() };
    let Ok(o) = Opened::open_path(path, Default::default(), None, &limits) else { return false };
    let mut app = App::new(o, Config::default());
    app.handle_key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::NONE));
    for ch in "LONG".chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE));
    }
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    app.wait_idle();
    if !app.cur().doc().path(app.sel.1).ends_with("data/seq[LONG]") {
        // the member did not open under this budget
        return false;
    }
    app.wait_idle();
    app.poll_jobs();
    match app.clip() {
        Some(Load::Ready(_)) => true,
        Some(Load::Failed(e)) if e.contains("memory budget exceeded") => false,
        other => panic!("the TUI's decode under {mib} MiB ended as {other:?}"),
    }
}

/// The smallest whole number of MiB (up to 32) under which the TUI decodes `LONG` in `path`.
fn least_budget(path: &std::path::Path) -> u64 {
    (1..=32).find(|&mib| tui_decodes(path, mib)).expect("decodes under 32 MiB")
}

/// The same clip alone and as an archive member that also holds 4 MiB of other bytes: the
/// member's decode draws on what the member left of the budget, so it needs at least 4 MiB
/// more than the clip alone. (Before, the TUI gave a member's decode the whole budget
/// again, where the CLI gave it the member's: `Opened::limits`.) The CLI's `decode`
/// reaches the member's clip under that budget too.
#[test]
fn a_members_clip_decodes_under_what_the_member_left() {
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("long.mot");
    std::fs::write(&alone, long_motn(0)).unwrap();
    let packed = dir.path().join("arc.bin");
    std::fs::write(&packed, archive(&[("long.mot".to_string(), long_motn(MEMBER_PADDING))])).unwrap();
    let (a, m) = (least_budget(&alone), least_budget(&packed));
    assert!(a >= 3, "the clip's stored curves need megabytes: {a} MiB");
    assert!(m >= a + 4, "alone from {a} MiB, as a member from {m} MiB");
    let cli = |mib: u64| {
        let limit = format!("memory={mib}M");
        animscope(&["--limit", &limit, "decode", packed.to_str().unwrap(), "LONG"]).0
    };
    assert_eq!(cli(m), 0, "the CLI decodes the member's clip under {m} MiB");
}
