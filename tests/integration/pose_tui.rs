//! The decode pane's pose view, driven by keys on a TestBackend: `P` swaps the curves for
//! the stick figure of the selected clip (the MOTN `TURN_90` fixture), scrubbing moves it,
//! the selected channel's bone is highlighted, the camera keys change the view, and play
//! follows the clock at the clip's rate.

use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::tui::app::Load;
use animscope::tui::{App, Config};
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use std::path::Path;

use crate::support::{press, render, text};
use std::time::{Duration, Instant};

/// The app on `turn.mot` with `seq[TURN_90]` selected and its clip decoded.
fn app_on_turn() -> App {
    let o = Opened::open_path(Path::new("fixtures/motn/turn.mot"), Default::default(), None, &Limits::default())
        .expect("opens");
    let mut app = App::new(o, Config::default());
    // the tree: root, header, padding, table, terminator, extra, name pointers, names,
    // data (expanded with enter), then the sequence
    press(&mut app, "j j j j j j j j enter j");
    assert!(matches!(app.clip(), Some(Load::Ready(c)) if c.name == "TURN_90"), "TURN_90 selected");
    app
}

/// Cells of the pose pane (right of the channel-less picture) painted in `colour`.
fn cells_in(buf: &Buffer, colour: Color) -> usize {
    braille_cells_in(buf, colour).len()
}

/// Where the braille cells drawn in `colour` are (x, y).
fn braille_cells_in(buf: &Buffer, colour: Color) -> Vec<(u16, u16)> {
    let w = buf.area.width.max(1);
    buf.content()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.fg == colour && c.symbol().chars().any(|ch| ('\u{2801}'..='\u{28ff}').contains(&ch)))
        .map(|(i, _)| (i as u16 % w, i as u16 / w))
        .collect()
}

/// The screen from the pose pane's top border down: the snapshot is of the picture (the
/// hex pane above it marks the selection's bytes once background work has caught up, which
/// varies from run to run).
fn pose_pane(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines.iter().position(|l| l.contains("Pose · ")).unwrap_or(0);
    lines[top..].join("\n")
}

#[test]
fn p_shows_the_pose_and_scrubbing_turns_the_figure() {
    let mut app = app_on_turn();
    press(&mut app, "4 P");
    let first = text(&render(&mut app, 80, 24));
    assert!(first.contains("Pose · TURN_90  31 frames @30 Hz"), "{first}");
    assert!(first.contains("frame 0/30  front  paused  bone Root  (29 bones)"), "{first}");
    insta::assert_snapshot!("pose_view_turn_90_frame_0_80x24", pose_pane(&first));
    // scrubbing (the decode pane's keys) moves the figure: at the last frame it is turned
    press(&mut app, "end");
    let last = text(&render(&mut app, 80, 24));
    assert!(last.contains("frame 30/30  front"), "{last}");
    assert_ne!(first, last);
    insta::assert_snapshot!("pose_view_turn_90_frame_30_80x24", pose_pane(&last));
    press(&mut app, ", ,");
    assert!(text(&render(&mut app, 80, 24)).contains("frame 28/30"));
    // P again: the curves are back, at the same frame
    press(&mut app, "P");
    let curves = text(&render(&mut app, 80, 24));
    assert!(curves.contains("Decode · TURN_90") && curves.contains("frame 28/30"), "{curves}");
}

#[test]
fn the_selected_channels_bone_is_highlighted() {
    let mut app = app_on_turn();
    press(&mut app, "4 P");
    let buf = render(&mut app, 120, 40);
    let root_only = braille_cells_in(&buf, Color::Yellow);
    // channels: Root px pz rx ry rz, then UpperLeg_R.rx: five down is the right upper leg
    press(&mut app, "j j j j j");
    let buf = render(&mut app, 120, 40);
    let s = text(&buf);
    assert!(s.contains("bone UpperLeg_R"), "{s}");
    // the highlight moved from the root joint to the leg (the decode pane, focused, is
    // large enough at 120×40 that the two can draw as many cells; they share the hip)
    let leg = braille_cells_in(&buf, Color::Yellow);
    assert!(
        leg.len() >= 3 && leg.iter().filter(|c| !root_only.contains(c)).count() >= 2,
        "the leg bone is drawn highlighted ({leg:?}), not the root joint ({root_only:?})\n{s}"
    );
    assert!(cells_in(&buf, Color::White) > 10, "the other bones in the bone colour");
    assert!(cells_in(&buf, Color::DarkGray) > 0, "the ground grid");
}

#[test]
fn camera_keys_orbit_zoom_pan_and_switch_views() {
    let mut app = app_on_turn();
    press(&mut app, "4 P");
    let front = text(&render(&mut app, 100, 30));
    press(&mut app, "v");
    let side = text(&render(&mut app, 100, 30));
    assert!(side.contains("frame 0/30  side"), "{side}");
    assert_ne!(front, side);
    press(&mut app, "v");
    assert!(text(&render(&mut app, 100, 30)).contains("frame 0/30  top"));
    press(&mut app, "v alt-h");
    assert!(text(&render(&mut app, 100, 30)).contains("yaw 345° pitch 0°"));
    press(&mut app, "alt-l K");
    assert!(text(&render(&mut app, 100, 30)).contains("yaw 0° pitch 15°"));
    press(&mut app, "v +");
    let zoomed = text(&render(&mut app, 100, 30));
    assert!(zoomed.contains("front ×1.25"), "{zoomed}");
    press(&mut app, "ctrl-left");
    let panned = text(&render(&mut app, 100, 30));
    assert_ne!(zoomed, panned, "panning moves the picture");
    // the camera keys do nothing with the curves shown (and say so)
    press(&mut app, "P alt-h");
    assert!(text(&render(&mut app, 100, 30)).contains("pose keys work in the pose view"));
}

#[test]
fn play_follows_the_clock_at_the_clips_rate() {
    let mut app = app_on_turn();
    press(&mut app, "4 P . . p");
    assert!(app.pose.is_playing());
    let (since, start) = app.pose.playing.expect("playing");
    assert_eq!(start, 2, "play starts at the frame cursor");
    // 30 Hz: half a second is 15 frames on; 1.1 s from frame 2 wraps past frame 30
    assert_eq!(app.pose.tick(since + Duration::from_millis(500), 30.0, 31, 2), Some(17));
    assert_eq!(app.pose.tick(since + Duration::from_millis(1100), 30.0, 31, 2), Some(4));
    assert_eq!(app.pose.tick(since + Duration::from_millis(10), 30.0, 31, 2), None, "not a frame yet");
    // the app's own tick moves the decode pane's frame
    std::thread::sleep(Duration::from_millis(120));
    app.poll_jobs();
    assert!(app.decode.frame > 2, "frame {} after 120 ms at 30 Hz", app.decode.frame);
    assert!(text(&render(&mut app, 80, 24)).contains("▶ playing"));
    press(&mut app, "p");
    assert!(!app.pose.is_playing());
    let paused = app.decode.frame;
    std::thread::sleep(Duration::from_millis(50));
    app.poll_jobs();
    assert_eq!(app.decode.frame, paused, "paused stays");
    let _ = Instant::now();
}
