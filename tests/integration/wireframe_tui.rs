//! The pose view's mesh wireframe on a TestBackend: a CCSF scene's meshes drawn as edges,
//! posed at the Anime frame under the cursor, from the same posed vertices the OBJ export
//! writes (checked against `animscope export --obj` of the same frame).

use animscope::export::pose::View;
use animscope::limits::Limits;
use animscope::session::Opened;
use animscope::tui::app::Load;
use animscope::tui::{App, Config};
use std::path::Path;

use crate::support::{animscope, press, render, text};

/// The app on `chara.cmp` with the Anime `ANM_walk` selected and decoded.
fn app_on_walk() -> App {
    let o = Opened::open_path(Path::new("fixtures/ccsf/chara.cmp"), Default::default(), None, &Limits::default())
        .expect("opens");
    let mut app = App::new(o, Config::default());
    for _ in 0..80 {
        if matches!(app.clip(), Some(Load::Ready(c)) if c.name.contains("ANM_walk")) {
            return app;
        }
        press(&mut app, "j");
    }
    panic!("ANM_walk not reached:\n{}", text(&render(&mut app, 120, 40)));
}

/// The OBJ export's vertices of `--anime ANM_walk --frame N`, shadow objects left out (the
/// wireframe does not draw shadow volumes).
fn obj_vertices(frame: usize) -> Vec<[f32; 3]> {
    let (code, out, err) = animscope(&[
        "export",
        "fixtures/ccsf/chara.cmp",
        "--obj",
        "--anime",
        "ANM_walk",
        "--frame",
        &frame.to_string(),
        "-o",
        "-",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut shadow = false;
    let mut v = Vec::new();
    for line in out.lines() {
        if let Some(name) = line.strip_prefix("o ") {
            shadow = name.ends_with("_shadow");
        } else if let Some(rest) = line.strip_prefix("v ")
            && !shadow
        {
            let xyz: Vec<f32> = rest.split_whitespace().map(|x| x.parse().unwrap()).collect();
            v.push([xyz[0], xyz[1], xyz[2]]);
        }
    }
    v
}

fn pose_pane(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines.iter().position(|l| l.contains("Pose · ")).unwrap_or(0);
    lines[top..].join("\n")
}

#[test]
fn the_pose_view_draws_the_posed_meshes_as_the_obj_export_writes_them() {
    let mut app = app_on_walk();
    press(&mut app, "4 P . .");
    let screen = text(&render(&mut app, 200, 60));
    assert!(screen.contains("frame 2/"), "{screen}");
    assert!(screen.contains("wireframe: "), "{screen}");
    let (frame, wire) = app.pose.last_wireframe().expect("a wireframe was drawn");
    assert_eq!(frame, 2);
    let obj = obj_vertices(2);
    let drawn: Vec<[f32; 3]> = wire.points.iter().map(|p| p.to_array()).collect();
    assert_eq!(drawn, obj, "the wireframe's vertices are the OBJ export's");
    // projected by the view's camera: what the picture draws is the export's points projected
    let view = View::default();
    let pic = animscope::tui::wireframe::WirePicture {
        wire: &wire,
        scene: &wire.frame_scene(1),
        view: &view,
        palette: animscope::tui::pose::Palette::plain(),
    };
    let want: Vec<(f64, f64)> = obj.iter().map(|p| view.project(glam::Vec3::from_array(*p))).collect();
    assert_eq!(pic.projected(), want);
    // another frame poses the meshes elsewhere (the walk moves them)
    press(&mut app, "home");
    render(&mut app, 200, 60);
    let (f0, w0) = app.pose.last_wireframe().unwrap();
    assert_eq!(f0, 0);
    assert_eq!(w0.points.iter().map(|p| p.to_array()).collect::<Vec<_>>(), obj_vertices(0));
    assert_ne!(w0.points, wire.points, "frames 0 and 2 pose the meshes differently");
}

#[test]
fn wireframe_snapshot_80x24() {
    let mut app = app_on_walk();
    press(&mut app, "4 P . .");
    let screen = text(&render(&mut app, 80, 24));
    insta::assert_snapshot!("wireframe_anm_walk_frame_2_80x24", pose_pane(&screen));
}
