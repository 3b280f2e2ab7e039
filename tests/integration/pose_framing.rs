//! The pose view frames what moves (issue 52): a CCSF scene with a floor 1,600,000 units
//! across beside a panel 100 × 200 units that its Anime carries 300 units along +Y. By
//! default the picture is fitted to the panel and seen from the side (its travel is along
//! Y); `V` fits everything, where the panel is lost.

use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::tui::app::Load;
use animscope::tui::{App, Config};

use crate::support::{press, render, text};

/// The app on the framing scene (written by the CCSF writer) with `ANM_move` decoded.
fn app_on_move(dir: &std::path::Path) -> App {
    let file = dir.join("framing.cmp");
    std::fs::write(&file, animscope::formats::ccsf::write::write(&animscope::formats::ccsf::write::framing())).unwrap();
    let o = Opened::open_path(&file, Default::default(), None, &Limits::default()).expect("opens");
    let mut app = App::new(o, Config::default());
    for _ in 0..40 {
        if matches!(app.clip(), Some(Load::Ready(c)) if c.name.contains("ANM_move")) {
            return app;
        }
        press(&mut app, "j");
    }
    panic!("ANM_move not reached:\n{}", text(&render(&mut app, 120, 40)));
}

/// The part of the pane (across, down) the panel covers in the last picture: the panel's
/// points are the ones within 1,000 units of the origin (the floor's are 800,000 out).
fn panel_share(app: &App) -> (f64, f64) {
    let (_, wire) = app.pose.last_wireframe().expect("a wireframe");
    let [x0, x1, y0, y1] = app.pose.last_fit().expect("a picture");
    let view = app.pose.shown_view();
    let pts: Vec<(f64, f64)> =
        wire.points.iter().filter(|p| p.abs().max_element() < 1000.0).map(|p| view.project(*p)).collect();
    assert_eq!(pts.len(), 4, "the panel's four corners");
    let span = |f: fn(&(f64, f64)) -> f64| {
        let v: Vec<f64> = pts.iter().map(f).collect();
        v.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - v.iter().cloned().fold(f64::INFINITY, f64::min)
    };
    (span(|p| p.0) / (x1 - x0), span(|p| p.1) / (y1 - y0))
}

#[test]
fn the_pose_view_frames_the_animated_mesh_and_v_fits_all() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_move(dir.path());
    // the decode pane focused (4), its pose view (P)
    press(&mut app, "4 P");
    let screen = text(&render(&mut app, 80, 24));
    assert!(screen.contains("wireframe: 2 meshes"), "{screen}");
    // travel along Y: the side view; fitted to the panel
    assert!(screen.contains("side") && screen.contains("fit: what moves"), "{screen}");
    let (across, down) = panel_share(&app);
    assert!(across.max(down) >= 1.0 / 3.0, "the panel covers {across:.3} × {down:.3} of the pane\n{screen}");
    // the frame stays on it as it moves (frame 4: 300 units on)
    press(&mut app, "end");
    let s = text(&render(&mut app, 80, 24));
    assert!(s.contains("frame 4/4"), "{s}");
    let (across, down) = panel_share(&app);
    assert!(across.max(down) >= 1.0 / 3.0, "at frame 4: {across:.3} × {down:.3}\n{s}");
    // V: everything, the floor's 1,600,000 units; the panel under a hundredth
    press(&mut app, "V");
    let s = text(&render(&mut app, 80, 24));
    assert!(s.contains("fit: all"), "{s}");
    let (across, down) = panel_share(&app);
    assert!(across.max(down) < 0.01, "fitted to all: {across} × {down}\n{s}");
    // turning the camera keeps the user's direction from then on
    press(&mut app, "V v");
    let s = text(&render(&mut app, 80, 24));
    assert!(s.contains("top") && s.contains("fit: what moves"), "side, then v: top\n{s}");
}
