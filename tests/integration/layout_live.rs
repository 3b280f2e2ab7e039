//! The layout builder applies as it is typed (issue 52): each field added, removed or
//! renamed shows at once in the fields and hex panes of the open file (no reopening), and
//! `U` asks where to save: the user's config folder, the file's folder, or the project's
//! layouts folder (Tab moves between them).

use crate::support::{press, screen};
use animscope::session::Opened;
use animscope::tui::App;
use animscope::tui::app::Config;
use std::path::Path;

/// The fixture's points, as the writer was given them (`ccsf::fixtures::PARTICLE_POINTS`).
const POINTS: [[f32; 3]; 3] = [[0.0, 1.0, 0.0], [0.5, 2.0, -0.25], [-1.5, 0.0, 4.0]];

/// Keys that type `text` at a prompt.
fn typed(text: &str) -> String {
    text.chars().map(|c| if c == ' ' { "space".to_string() } else { c.to_string() }).collect::<Vec<_>>().join(" ")
}

/// The TUI on a copy of the particle fixture in `dir` (so its folder is a scratch one),
/// saving layouts in `dir/config` or `dir/project`; the hex cursor at the Particle chunk's
/// payload (8 bytes into the chunk: docs/formats/ccsf.md#chunks).
fn app_in(dir: &Path) -> (App, u64) {
    let file = dir.join("particle.cmp");
    std::fs::copy(format!("{}/fixtures/ccsf/particle.cmp", env!("CARGO_MANIFEST_DIR")), &file).unwrap();
    let o = Opened::open_path(&file, Default::default(), None, &animscope::limits::Limits::default()).unwrap();
    let cfg = Config {
        layouts_dir: Some(dir.join("config")),
        project_layouts_dir: Some(dir.join("project")),
        ..Config::default()
    };
    let mut app = App::new(o, cfg);
    let doc = app.cur().doc();
    let node = (0..doc.node_count() as u32)
        .map(animscope::model::NodeId)
        .find(|id| doc.node(*id).is_some_and(|n| n.kind == "Particle"))
        .unwrap();
    let payload = doc.node(node).unwrap().span.start + 8;
    press(&mut app, &format!("g 0 x {} enter", typed(&format!("{payload:x}"))));
    assert_eq!(app.cur().cursor, payload);
    (app, payload)
}

/// The user-layout fields on the node at `off`: (name, value), in order.
fn shown_fields(app: &App, off: u64) -> Vec<(String, String)> {
    let doc = app.cur().doc();
    let n = doc.node(doc.node_at(off).unwrap()).unwrap();
    n.fields.iter().filter(|f| f.is_user_layout()).map(|f| (f.name.clone(), f.value.to_string())).collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn the_builder_applies_each_field_at_once_and_removes_one() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, payload) = app_in(dir.path());
    // count (3 points), then the first point's x and y
    press(&mut app, &format!("u {} enter", typed("u32 count")));
    press(&mut app, &format!("u {} enter u {} enter", typed("f32 px"), typed("f32 py")));
    // values as the fields pane writes them: a u32 in hex, an f32 with its point
    let (x, y) = (format!("{:?}", POINTS[0][0]), format!("{:?}", POINTS[0][1]));
    assert_eq!(shown_fields(&app, payload), pairs(&[("count", "0x00000003"), ("px", &x), ("py", &y)]));
    // on screen without reopening: the fields pane lists them, marked as the unsaved layout
    press(&mut app, &format!("g 0 x {} enter", typed(&format!("{:x}", payload + 4))));
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("user layout unsaved"), "{s}");
    for name in ["count", "px", "py"] {
        assert!(s.contains(name), "{name}:\n{s}");
    }
    // px removed: py moves up to where px started, reading the first point's x
    press(&mut app, &format!("u {} enter", typed("-px")));
    assert_eq!(shown_fields(&app, payload), pairs(&[("count", "0x00000003"), ("py", &x)]));
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("layout field removed; fields: count, py"), "{s}");
    assert!(!s.contains("px"), "{s}");
    // renamed: count is n now, on screen too
    press(&mut app, &format!("u {} enter", typed("count=n")));
    assert_eq!(shown_fields(&app, payload), pairs(&[("n", "0x00000003"), ("py", &x)]));
    // the next field goes where py ends
    press(&mut app, "u");
    assert!(screen(&mut app, 160, 40).contains(&format!("layout field at 0x{:x}", payload + 8)));
    press(&mut app, "esc");
    // a field counted by another cannot go first
    press(&mut app, &format!("u {} enter u {} enter", typed("f32[n] xs"), typed("-n")));
    assert!(screen(&mut app, 160, 40).contains("xs is counted by n: remove xs first"));
    press(&mut app, &format!("u {} enter", typed("-xs")));
    assert_eq!(shown_fields(&app, payload), pairs(&[("n", "0x00000003"), ("py", &x)]));
}

#[test]
fn save_asks_where_the_config_the_files_or_the_project_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, payload) = app_in(dir.path());
    press(&mut app, &format!("u {} enter", typed("u32 count")));
    press(&mut app, "U");
    let s = screen(&mut app, 200, 40);
    let config = dir.path().join("config");
    assert!(s.contains(&format!("in your config folder {}, Tab: elsewhere", config.display())), "{s}");
    press(&mut app, "tab");
    let s = screen(&mut app, 200, 40);
    assert!(s.contains(&format!("in the file's folder {}", dir.path().display())), "{s}");
    press(&mut app, "tab");
    let project = dir.path().join("project");
    assert!(screen(&mut app, 200, 40).contains(&format!("in the project folder {}", project.display())));
    press(&mut app, "tab tab");
    // back at the file's folder: saved there, and said how to apply it
    assert!(screen(&mut app, 200, 40).contains("in the file's folder"));
    press(&mut app, &format!("{} enter", typed("mine")));
    let saved = dir.path().join("mine.toml");
    let s = screen(&mut app, 200, 40);
    assert!(s.contains(&format!("--layouts {} applies it", dir.path().display())), "{s}");
    assert!(std::fs::read_to_string(&saved).unwrap().contains("name = \"count\""));
    assert!(!config.exists() && !project.exists(), "nothing written elsewhere");
    // the fields shown now carry the saved name
    let doc = app.cur().doc();
    let n = doc.node(doc.node_at(payload).unwrap()).unwrap();
    let f = n.fields.iter().find(|f| f.name == "count").unwrap();
    assert_eq!(f.note.as_deref(), Some("user layout mine"));
    // the project folder: the same name again asks, there too
    press(&mut app, &format!("u {} enter", typed("u32 other")));
    press(&mut app, &format!("U tab tab {} enter", typed("mine")));
    assert!(project.join("mine.toml").is_file());
    press(&mut app, &format!("u {} enter", typed("u32 third")));
    press(&mut app, &format!("U tab tab {} enter", typed("mine")));
    assert!(screen(&mut app, 200, 40).contains("a layout mine.toml exists; replace it? (y/n)"));
    press(&mut app, "y enter");
    assert!(std::fs::read_to_string(project.join("mine.toml")).unwrap().contains("name = \"third\""));
}
