//! User layouts on the command line (issue 37): the example layout labels the committed
//! fixture's opaque Particle chunk in `tree --fields --json`, `fields` and `hex`; bad layout
//! files get one clear error; the exports compile with `cc` and match the Kaitai schema's
//! shape.

use animscope::session::Opened;
use assert_cmd::Command;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

const PARTICLE: &str = "fixtures/ccsf/particle.cmp";
const EXAMPLES: &str = "examples/layouts";

/// The fixture's points, as the writer was given them (`ccsf::fixtures::PARTICLE_POINTS`).
const POINTS: [[f32; 3]; 3] = [[0.0, 1.0, 0.0], [0.5, 2.0, -0.25], [-1.5, 0.0, 4.0]];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run in the crate folder with an empty user config (no user layouts), `xdg` overriding.
fn run_with(args: &[&str], xdg: Option<&Path>) -> (i32, String, String) {
    let empty = tempfile::tempdir().unwrap();
    let o = Command::cargo_bin("animscope")
        .unwrap()
        .current_dir(root())
        .env("XDG_CONFIG_HOME", xdg.unwrap_or(empty.path()))
        .env("HOME", empty.path())
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_with(args, None)
}

/// The Particle node's JSON line of `tree --fields --json`.
fn particle_node(out: &str) -> Json {
    out.lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .find(|j| j["kind"] == "Particle")
        .expect("a Particle node")
}

#[test]
fn tree_json_labels_the_particle_chunk() {
    let (code, out, err) = run(&["tree", "--fields", "--json", "--layouts", EXAMPLES, PARTICLE]);
    assert_eq!(code, 0, "{err}");
    let node = particle_node(&out);
    let fields = node["fields"].as_array().unwrap();
    let payload = fields.iter().find(|f| f["name"] == "payload").expect("the built-in payload field");
    let start = payload["start"].as_u64().unwrap();
    let user: Vec<&Json> = fields.iter().filter(|f| f["user_layout"] == true).collect();
    assert_eq!(user.len(), 1 + 9, "count and 3 × (x, y, z)");
    assert_eq!(user[0]["name"], "count");
    assert_eq!(user[0]["value"]["raw"], 3);
    assert_eq!((user[0]["start"].as_u64(), user[0]["end"].as_u64()), (Some(start), Some(start + 4)));
    for (i, p) in POINTS.iter().enumerate() {
        for (k, axis) in ["x", "y", "z"].iter().enumerate() {
            let f = user[1 + 3 * i + k];
            assert_eq!(f["name"], format!("points[{i}].{axis}"));
            assert_eq!(f["value"]["raw"].as_f64(), Some(f64::from(p[k])), "{f}");
            let at = start + 4 + 12 * i as u64 + 4 * k as u64;
            assert_eq!(f["start"].as_u64(), Some(at));
            assert_eq!(f["note"], "user layout ccsf-particle");
        }
    }
    // without layouts, nothing is labelled by one
    let (_, plain, _) = run(&["tree", "--fields", "--json", PARTICLE]);
    assert!(!plain.contains("user_layout"));
    assert!(particle_node(&plain)["fields"].as_array().unwrap().iter().any(|f| f["name"] == "payload"));
}

#[test]
fn layout_files_are_capped_by_the_commands_side_file_limit() {
    let size = std::fs::metadata(Path::new(EXAMPLES).join("ccsf-particle.toml")).unwrap().len();
    let small = format!("side-file={}", size - 1);
    for args in [
        &["tree", "--fields", "--json", "--layouts", EXAMPLES, "--limit", &small, PARTICLE][..],
        &["layout", "check", "examples/layouts/ccsf-particle.toml", "--limit", &small][..],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("ccsf-particle.toml"), "{args:?}: the error names the file: {err}");
    }
    // one byte more and it is read
    let (code, out, err) =
        run(&["tree", "--fields", "--json", "--layouts", EXAMPLES, "--limit", &format!("side-file={size}"), PARTICLE]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("user_layout"), "applied at exactly its size");
}

#[test]
fn fields_and_hex_show_user_fields() {
    let (code, out, err) = run(&["fields", PARTICLE, "Particle", "--layouts", EXAMPLES]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("points[2].z = 4.0  @0x100 4 B  (user layout ccsf-particle)"), "{out}");
    assert!(out.contains("count = 0x00000003"), "{out}");
    let (code, out, _) = run(&["hex", "--color", "never", PARTICLE, "Particle", "--layouts", EXAMPLES]);
    assert_eq!(code, 0);
    assert!(out.contains("points[1].y, points[1].z, points[2].x, points[2].y"), "{out}");
}

/// The user's directory is read too; a relative XDG_CONFIG_HOME is ignored (XDG spec).
#[test]
fn user_directory_layouts_apply() {
    let cfg = tempfile::tempdir().unwrap();
    let dir = cfg.path().join("animscope").join("layouts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(root().join(EXAMPLES).join("ccsf-particle.toml"), dir.join("p.toml")).unwrap();
    let (code, out, _) = run_with(&["fields", PARTICLE, "Particle"], Some(cfg.path()));
    assert_eq!(code, 0);
    assert!(out.contains("(user layout ccsf-particle)"), "{out}");
    // a bad file there is said and skipped, not fatal
    std::fs::write(dir.join("bad.toml"), "format = \n").unwrap();
    let (code, out, err) = run_with(&["fields", PARTICLE, "Particle"], Some(cfg.path()));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("bad.toml:1:") && err.contains("(file ignored)"), "{err}");
    assert!(out.contains("(user layout ccsf-particle)"));
    let (_, out, _) = run_with(&["fields", PARTICLE, "Particle"], Some(Path::new("relative/cfg")));
    assert!(!out.contains("user layout"), "{out}");
}

fn layouts_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(d.path().join(name), text).unwrap();
    }
    d
}

fn example() -> String {
    std::fs::read_to_string(root().join(EXAMPLES).join("ccsf-particle.toml")).unwrap()
}

/// A bad file of --layouts: exit 2, one line naming the file, line and column.
#[test]
fn bad_layout_files_are_placed_errors() {
    let cases = [
        ("malformed.toml", "format = \"ccsf\"\nkinds = [\"Particle\"\n".to_string(), ":2:", "malformed"),
        ("type.toml", example().replace("type = \"f32\"", "type = \"float\""), ":25:8", "unknown type \"float\""),
        (
            "loop.toml",
            format!("{}\n[[struct.vec3]]\nname = \"w\"\ntype = \"main\"\n", example()),
            ":",
            "recursive struct",
        ),
    ];
    for (name, text, at, what) in cases {
        let d = layouts_dir(&[(name, &text)]);
        let (code, _, err) = run(&["fields", PARTICLE, "Particle", "--layouts", d.path().to_str().unwrap()]);
        assert_eq!(code, 2, "{name}: {err}");
        let line = err.lines().next().unwrap_or_default();
        assert!(line.contains(name) && line.contains(at), "{name}: {err}");
        if what != "malformed" {
            assert!(line.contains(what), "{name}: {err}");
        }
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// A count past the node's bytes: what fits is labelled, then where it stopped.
#[test]
fn count_past_the_end_stops_with_a_field() {
    let text = example().replace("count = \"count\"", "count = 1000");
    let d = layouts_dir(&[("big.toml", &text)]);
    let (code, out, err) = run(&["fields", PARTICLE, "Particle", "--layouts", d.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("points[2].z = 4.0"), "{out}");
    assert!(
        out.contains("(layout stopped) = ccsf-particle: points: count 1000 runs past the end: 3 of 1000 elements fit"),
        "{out}"
    );
}

/// `layout export`: the C compiles with `cc` and has the layout's size; the .ksy has the
/// Kaitai schema's shape (meta.id, seq of ids with known types, the count expression).
#[test]
fn exports_compile_and_match_kaitai() {
    let d = tempfile::tempdir().unwrap();
    let (ksy, c) = (d.path().join("p.ksy"), d.path().join("p.h"));
    let (code, _, err) = run(&[
        "layout",
        "export",
        &format!("{EXAMPLES}/ccsf-particle.toml"),
        "--ksy",
        ksy.to_str().unwrap(),
        "--c",
        c.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let k = std::fs::read_to_string(&ksy).unwrap();
    for line in [
        "  id: ccsf_particle",
        "  - id: count\n    type: u4le",
        "    type: vec3\n    repeat: expr\n    repeat-expr: count",
        "types:\n  vec3:\n    seq:\n      - id: x\n        type: f4le",
    ] {
        assert!(k.contains(line), "{line:?} in\n{k}");
    }
    let main = d.path().join("t.c");
    std::fs::write(
        &main,
        format!(
            "#include \"{}\"\n_Static_assert(sizeof(struct vec3) == 12, \"vec3\");\n\
             _Static_assert(sizeof(struct main) == 4, \"count, then the points\");\nint main(void) {{ return 0; }}\n",
            c.display()
        ),
    )
    .unwrap();
    match std::process::Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-c", "-o"])
        .arg(d.path().join("t.o"))
        .arg(&main)
        .output()
    {
        Err(e) => skip(&format!("no C compiler (cc: {e})")),
        Ok(o) => assert!(o.status.success(), "cc: {}", String::from_utf8_lossy(&o.stderr)),
    }
    let (code, out, _) = run(&["layout", "check", &format!("{EXAMPLES}/ccsf-particle.toml")]);
    assert_eq!(code, 0);
    assert!(out.contains("layout ccsf-particle for ccsf: 2 structs, 5 fields"), "{out}");
}

/// The particle fixture opened as the TUI opens a file.
fn open_particle() -> Opened {
    Opened::open_path(&root().join(PARTICLE), Default::default(), None, &animscope::limits::Limits::default()).unwrap()
}

/// The TUI on the particle fixture with the layouts saved in `dir` applied.
fn reopen_with_layouts(dir: &Path) -> animscope::tui::App {
    let (set, problems) =
        animscope::layout::LayoutSet::load(None, Some(dir), &animscope::limits::Limits::default()).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let mut o = open_particle();
    o.apply_layouts(&std::sync::Arc::new(set));
    animscope::tui::App::new(o, animscope::tui::app::Config::default())
}

/// The TUI's builder, driven by keys: at the payload `u` adds `u32 count`, then x, y, z
/// follow where each ended; `U` saves `mine.toml`; the file reopened with that folder
/// shows the fields, marked as the user layout's.
#[test]
fn tui_builds_saves_and_reopens_a_layout() {
    use crate::support::{press, screen};
    use animscope::tui::App;
    use animscope::tui::app::Config;
    let dir = tempfile::tempdir().unwrap();
    let mut app =
        App::new(open_particle(), Config { layouts_dir: Some(dir.path().to_path_buf()), ..Config::default() });
    press(&mut app, "g 0 x d c enter");
    assert_eq!(app.cur().cursor, 0xdc);
    press(&mut app, "u u 3 2 space c o u n t enter");
    let s = screen(&mut app, 120, 30);
    assert!(s.contains("layout for Particle: u32 count (4 B) added, 1 fields; u adds the next at 0xe0"), "{s}");
    assert_eq!(app.cur().cursor, 0xe0, "the cursor moves to where the field ended");
    press(&mut app, "u f 3 2 space x enter u f 3 2 space y enter u f 3 2 space z enter");
    assert_eq!(app.cur().cursor, 0xec);
    // a type that is not one is said, and adds nothing
    press(&mut app, "u f 3 3 space w enter");
    assert!(screen(&mut app, 120, 30).contains("unknown type \"f33\""));
    press(&mut app, "U m i n e enter");
    let saved = dir.path().join("mine.toml");
    let s = screen(&mut app, 160, 30);
    assert!(s.contains("layout mine saved to"), "{s}");
    let text = std::fs::read_to_string(&saved).unwrap();
    // 0xdc is where the chunk's opaque payload starts, which runs to the chunk's end: the
    // layout is for that field
    assert!(text.contains("kinds = [\"Particle\"]") && text.contains("field = \"payload\""), "{text}");

    // reopen with the folder's layouts: the fields are there, marked as the user's
    let mut app = reopen_with_layouts(dir.path());
    press(&mut app, "g 0 x e 4 enter");
    let s = screen(&mut app, 140, 40);
    assert!(s.contains("user layout mine"), "{s}");
    for line in ["count", "0x00000003", "y"] {
        assert!(s.contains(line), "{line} in\n{s}");
    }
    let doc = app.cur().doc();
    let (node, i) = doc.field_at(0xe4).unwrap();
    let f = &doc.node(node).unwrap().fields[i];
    assert_eq!((f.name.as_str(), f.value.to_string()), ("y", "1.0".to_string()));
    assert!(f.is_user_layout());
}

/// Keys that type `text` at a prompt.
fn typed(text: &str) -> String {
    text.chars().map(|c| if c == ' ' { "space".to_string() } else { c.to_string() }).collect::<Vec<_>>().join(" ")
}

/// The issue's own example built with keys: at the Particle chunk's payload `u` adds
/// `u32 count`, then `vec3{f32 x, f32 y, f32 z}[count] points` (a struct declared inline,
/// counted by the earlier field): the cursor lands where the array ends, read off the
/// bytes. `U` saves it; the file is the committed example's layout, and reopened it labels
/// every point with the values the fixture's writer was given.
#[test]
fn tui_builds_the_particle_layout_with_a_counted_array() {
    use crate::support::{press, screen};
    use animscope::layout::parse_layout;
    use animscope::model::Raw;
    use animscope::tui::App;
    use animscope::tui::app::Config;
    let dir = tempfile::tempdir().unwrap();
    let mut app =
        App::new(open_particle(), Config { layouts_dir: Some(dir.path().to_path_buf()), ..Config::default() });
    // the chunk: an 8-byte chunk header, then its payload (docs/formats/ccsf.md#chunks)
    let doc = app.cur().doc();
    let node = (0..doc.node_count() as u32)
        .map(animscope::model::NodeId)
        .find(|id| doc.node(*id).is_some_and(|n| n.kind == "Particle"))
        .unwrap();
    let chunk = doc.node(node).unwrap().span;
    let payload = chunk.start + 8;
    press(&mut app, &format!("g 0 x {} enter", typed(&format!("{payload:x}"))));
    assert_eq!(app.cur().cursor, payload);
    press(&mut app, &format!("u {} enter", typed("u32 count")));
    press(&mut app, &format!("u {} enter", typed("vec3{f32 x, f32 y, f32 z}[count] points")));
    let s = screen(&mut app, 160, 30);
    let n = POINTS.len() as u64;
    assert!(s.contains(&format!("({} B) added, 2 fields", 12 * n)), "3 vectors of 12 bytes:\n{s}");
    assert_eq!(app.cur().cursor, payload + 4 + 12 * n, "the next field starts where the array ends");
    assert_eq!(app.cur().cursor, chunk.end, "which is the chunk's end");
    // one more vector does not fit, and is refused with the reason
    press(&mut app, &format!("u {} enter", typed("vec3[1] extra")));
    assert!(screen(&mut app, 160, 30).contains("extra: count 1 runs past the end: 0 of 1 elements fit"));
    press(&mut app, "U m i n e enter");
    assert!(screen(&mut app, 160, 30).contains("layout mine saved to"));

    // the saved file reads as the committed example does, but for its name
    let text = std::fs::read_to_string(dir.path().join("mine.toml")).unwrap();
    let mine = parse_layout(&text, "mine.toml", "mine").unwrap();
    let example_path = root().join(EXAMPLES).join("ccsf-particle.toml");
    let example = parse_layout(&std::fs::read_to_string(&example_path).unwrap(), "example", "example").unwrap();
    // the fields' lines differ (the example has comments): the rest is the same
    let unlined = |s: &[animscope::layout::StructDef]| -> Vec<animscope::layout::StructDef> {
        s.iter()
            .map(|d| animscope::layout::StructDef {
                name: d.name.clone(),
                fields: d.fields.iter().map(|f| animscope::layout::LayoutField { line: 0, ..f.clone() }).collect(),
            })
            .collect()
    };
    assert_eq!(
        (&mine.format, &mine.target, unlined(&mine.structs), mine.root),
        (&example.format, &example.target, unlined(&example.structs), example.root),
        "{text}"
    );

    // reopened with the folder's layouts, each point is labelled with the writer's values
    let mut app = reopen_with_layouts(dir.path());
    press(&mut app, &format!("g 0 x {} enter", typed(&format!("{:x}", payload + 4))));
    let s = screen(&mut app, 140, 40);
    assert!(s.contains("points[0].x") && s.contains("user layout mine"), "{s}");
    let doc = app.cur().doc();
    let field = |at: u64| {
        let (node, i) = doc.field_at(at).unwrap();
        doc.node(node).unwrap().fields[i].clone()
    };
    let count = field(payload);
    assert_eq!((count.name.as_str(), count.value.as_u64()), ("count", Some(n)));
    for (i, p) in POINTS.iter().enumerate() {
        for (k, axis) in ["x", "y", "z"].iter().enumerate() {
            let f = field(payload + 4 + 12 * i as u64 + 4 * k as u64);
            assert_eq!(f.name, format!("points[{i}].{axis}"));
            assert_eq!(f.value.raw, Raw::F32(p[k].to_bits()), "{}", f.name);
            assert!(f.is_user_layout());
        }
    }
}

/// Every type a layout declares, exported: the C compiles with `cc -Werror`, and the .ksy
/// compiles with the Kaitai Struct compiler (`tools/kaitai/ksc-check.js`) where it is
/// installed; a .ksy naming a type that does not exist is refused by the same check.
#[test]
fn ksy_export_compiles_with_ksc() {
    let layout = r#"
name = "every type"
format = "ccsf"
kinds = ["Particle"]
endian = "be"

[[struct.main]]
name = "magic"
type = "str"
len = 4
[[struct.main]]
name = "kind"
type = "u16le"
enum = { 1 = "spark", 2 = "smoke" }
[[struct.main]]
name = "flags"
type = "u8"
flags = { "0x1" = "loop", "0x4" = "mirror" }
[[struct.main]]
name = "gap"
type = "align"
to = 4
[[struct.main]]
name = "speed"
type = "fixed16.16"
[[struct.main]]
name = "turn"
type = "angle16"
[[struct.main]]
name = "n"
type = "snorm16"
[[struct.main]]
name = "h"
type = "f16"
[[struct.main]]
name = "d"
type = "f64"
[[struct.main]]
name = "label"
type = "strz"
len = 16
[[struct.main]]
name = "pad"
type = "pad"
len = 2
[[struct.main]]
name = "two"
type = "pair"
count = 2
[[struct.main]]
name = "tail"
type = "i8"
count = "rest"

[[struct.pair]]
name = "a"
type = "i32"
[[struct.pair]]
name = "b"
type = "u64"
"#;
    let d = layouts_dir(&[("every.toml", layout)]);
    let (ksy, c) = (d.path().join("every.ksy"), d.path().join("every.h"));
    let src = d.path().join("every.toml");
    let (code, _, err) =
        run(&["layout", "export", src.to_str().unwrap(), "--ksy", ksy.to_str().unwrap(), "--c", c.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let k = std::fs::read_to_string(&ksy).unwrap();
    assert!(k.contains("  id: every_type\n  endian: le"), "{k}");
    assert!(k.contains("enum: kind_values") && k.contains("enums:\n  kind_values:\n    1: spark\n    2: smoke"), "{k}");
    assert!(
        k.contains("  - id: tail\n    type: s1\n    repeat: expr\n    repeat-expr: (_io.size - _io.pos) / 1\n"),
        "{k}"
    );
    assert!(k.contains("  - id: b\n        type: u8be"), "{k}");
    let main = d.path().join("every.c");
    std::fs::write(&main, format!("#include \"{}\"\nint main(void) {{ return 0; }}\n", c.display())).unwrap();
    match std::process::Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-c", "-o"])
        .arg(d.path().join("every.o"))
        .arg(&main)
        .output()
    {
        Err(e) => skip(&format!("the C check: no C compiler (cc: {e})")),
        Ok(o) => assert!(
            o.status.success(),
            "cc: {}\n{}",
            String::from_utf8_lossy(&o.stderr),
            std::fs::read_to_string(&c).unwrap()
        ),
    }
    // the issue's own example: the particle layout, an array counted by an earlier field
    let particle = d.path().join("ccsf_particle.ksy");
    let example = root().join("examples/layouts/ccsf-particle.toml");
    let (code, _, err) = run(&["layout", "export", example.to_str().unwrap(), "--ksy", particle.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let p = std::fs::read_to_string(&particle).unwrap();
    assert!(p.contains("repeat-expr: count"), "{p}");
    let check = root().join("tools/kaitai/ksc-check.js");
    let ksc = |file: &Path| std::process::Command::new("node").arg(&check).arg(file).output();
    if let Some(o) = ksc(&particle).ok().filter(|o| o.status.code() != Some(3)) {
        assert!(o.status.success(), "ksc on the particle layout: {}\n{p}", String::from_utf8_lossy(&o.stderr));
    }
    match ksc(&ksy) {
        Err(e) => skip(&format!("the Kaitai check: no node ({e})")),
        Ok(o) if o.status.code() == Some(3) => skip(&format!(
            "the Kaitai check: {} (see tools/kaitai/README.md)",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(o) => {
            assert!(o.status.success(), "ksc: {}\n{k}", String::from_utf8_lossy(&o.stderr));
            let bad = d.path().join("bad.ksy");
            std::fs::write(&bad, k.replace("type: pair", "type: no_such_type")).unwrap();
            let o = ksc(&bad).unwrap();
            assert_eq!(o.status.code(), Some(1), "a .ksy naming a missing type must be refused");
            assert!(String::from_utf8_lossy(&o.stderr).contains("no_such_type"));
        }
    }
}

/// A check whose tool is missing: said and skipped on a developer's machine, a failure in
/// CI (`CI` set; .ci/run installs cc, node and the Kaitai compiler), so it cannot pass there
/// by not running.
fn skip(why: &str) {
    assert!(std::env::var_os("CI").is_none(), "CI must run this check, but: {why}");
    println!("skipped {why}");
}

/// Every built-in record a layout can say, exported with `layout export --record`: each C
/// header compiles with `cc -Werror` and its root struct is the record's size (the size its
/// table declares, which the format's own tests check against the binrw declaration); each
/// .ksy compiles with the Kaitai Struct compiler where it is installed. A record with a
/// conditional field is refused with the field named.
#[test]
fn builtin_record_exports_compile() {
    let d = tempfile::tempdir().unwrap();
    let mut units = Vec::new();
    let mut ksys = Vec::new();
    let mut exported = 0;
    for (format, r) in animscope::formats::record_tables() {
        let (ksy, c) = (d.path().join(format!("{}.ksy", r.ty)), d.path().join(format!("{}.h", r.ty)));
        let (code, _, err) =
            run(&["layout", "export", "--record", r.ty, "--ksy", ksy.to_str().unwrap(), "--c", c.to_str().unwrap()]);
        if let Err(why) = r.structs() {
            assert_eq!(code, 2, "{}: refused", r.ty);
            assert!(err.contains(&why.field) && err.contains(r.ty), "{err}");
            continue;
        }
        assert_eq!(code, 0, "{}: {err}", r.ty);
        exported += 1;
        let k = std::fs::read_to_string(&ksy).unwrap();
        assert!(k.contains(&format!("built-in {format} record {}", r.name)), "{k}");
        let size: u64 = r.fields.iter().map(|f| f.size.unwrap()).sum();
        let unit = d.path().join(format!("{}.c", r.ty));
        std::fs::write(
            &unit,
            format!(
                "#include \"{}\"\n_Static_assert(sizeof(struct {}) == {size}, \"{} is {size} bytes\");\n",
                c.display(),
                r.ty,
                r.ty
            ),
        )
        .unwrap();
        units.push(unit);
        ksys.push(ksy);
    }
    assert!(exported >= 75, "{exported} records exported");
    let (code, _, err) = run(&["layout", "export", "--record", "Obj", "--c", d.path().join("o.h").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("record Obj cannot be a layout: shadow_model: present or absent by a condition"), "{err}");
    match std::process::Command::new("cc").args(["-std=c11", "-Wall", "-Werror", "-fsyntax-only"]).args(&units).output()
    {
        Err(e) => skip(&format!("the C check: no C compiler (cc: {e})")),
        Ok(o) => assert!(o.status.success(), "cc: {}", String::from_utf8_lossy(&o.stderr)),
    }
    let check = root().join("tools/kaitai/ksc-check.js");
    match std::process::Command::new("node").arg(&check).args(&ksys).output() {
        Err(e) => skip(&format!("the Kaitai check: no node ({e})")),
        Ok(o) if o.status.code() == Some(3) => skip(&format!(
            "the Kaitai check: {} (see tools/kaitai/README.md)",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(o) => assert!(o.status.success(), "ksc: {}", String::from_utf8_lossy(&o.stderr)),
    }
}

/// A layout file for raw files (`kinds = ["file"]`) with these struct tables.
fn raw_layout(structs: &str) -> String {
    format!("format = \"raw\"\nkinds = [\"file\"]\n{structs}")
}

/// Issue 51's classes about user layouts, keymaps and layout exports, for the hostile
/// matrix (`hostile_gen::all`): each input a directory of files made here (no side file
/// over 1 MiB but class 4's, which is the audit's own 62 MB), each run bounded
/// (`Expect::Bounded`: exit 0–2 with the clear error, ≤ 256 MiB, under `--limit
/// memory=8M` ≤ 64 MiB or the budget error, CPU under a guard) or refused leaving the
/// directory as it was.
pub fn hostile_classes() -> Vec<crate::hostile_gen::Class> {
    use crate::hostile_gen::{Class, Entry, Expect, Run};
    let run = |args: &[&str], expect: Expect| Run {
        args: args.iter().map(|a| a.to_string()).collect(),
        to_tty: false,
        expect,
    };
    let bounded = |args: &[&str]| run(args, Expect::Bounded);
    let file = |p: &str, bytes: Vec<u8>| (p.to_string(), Entry::File(bytes));
    let dir = |p: &str| (p.to_string(), Entry::Dir);
    let small = |args: &[&str]| {
        let mut a = vec!["--limit", "memory=8M"];
        a.extend_from_slice(args);
        run(&a, Expect::Bounded)
    };
    let one_u8 = raw_layout("[[struct.main]]\nname = \"a\"\ntype = \"u8\"\n").into_bytes();
    let rest_u8 = raw_layout("[[struct.main]]\nname = \"w\"\ntype = \"u8\"\ncount = \"rest\"\n").into_bytes();
    let mib: Vec<u8> = (0..1u32 << 20).map(|i| (i.wrapping_mul(7) >> 3) as u8).collect();
    let mib2: Vec<u8> = (0..1u32 << 20).map(|i| (i.wrapping_mul(5) >> 2) as u8).collect();

    // 2: a one-u8 layout on a 1 GiB sparse file copied the node's whole span
    let sparse = Class {
        name: "layout_over_a_huge_span",
        entries: vec![("big.bin".into(), Entry::Sparse(1 << 30)), dir("lay"), file("lay/one.toml", one_u8)],
        every_verb_on: None,
        runs: vec![
            bounded(&["--layouts", "lay", "tree", "big.bin", "--fields"]),
            small(&["--layouts", "lay", "tree", "big.bin", "--fields", "--json"]),
            small(&["--layouts", "lay", "fields", "big.bin", "/"]),
        ],
    };
    // 3: a u8[rest] layout on 1 MiB: fields --json held the fields thrice; diff two budgets
    let fields = Class {
        name: "layout_fields_as_json",
        entries: vec![file("m.bin", mib), file("m2.bin", mib2), dir("lay"), file("lay/rest.toml", rest_u8)],
        every_verb_on: None,
        runs: vec![
            bounded(&["--layouts", "lay", "fields", "m.bin", "/", "--json"]),
            bounded(&["--layouts", "lay", "tree", "m.bin", "--fields", "--json"]),
            bounded(&["--layouts", "lay", "diff", "m.bin", "m2.bin"]),
            bounded(&["--layouts", "lay", "diff", "m.bin", "m2.bin", "--json"]),
            small(&["--layouts", "lay", "fields", "m.bin", "/", "--json"]),
            small(&["--layouts", "lay", "diff", "m.bin", "m2.bin"]),
        ],
    };
    // 4: a 62 MB layout of 1.5 M one-byte fields (the side-file cap is 64 MiB)
    let mut side = raw_layout("");
    let mut i = 0;
    while side.len() < 62_000_000 {
        side.push_str(&format!("[[struct.main]]\nname = \"f{i}\"\ntype = \"u8\"\n"));
        i += 1;
    }
    let side_file = Class {
        name: "layout_side_file_memory",
        entries: vec![file("big.toml", side.into_bytes())],
        every_verb_on: None,
        runs: vec![bounded(&["layout", "check", "big.toml"]), small(&["layout", "check", "big.toml"])],
    };
    // 7: 40 levels of two fields of the next, read as an array: 2^40 sizes unmemoised
    let mut dag = raw_layout("[[struct.main]]\nname = \"all\"\ntype = \"s01\"\ncount = \"rest\"\n");
    for l in 1..40 {
        for k in ["a", "b"] {
            dag.push_str(&format!("[[struct.s{l:02}]]\nname = \"{k}\"\ntype = \"s{:02}\"\n", l + 1));
        }
    }
    dag.push_str("[[struct.s40]]\nname = \"x\"\ntype = \"u8\"\n");
    let small_bin: Vec<u8> = (0..4096u32).map(|i| i as u8).collect();
    let dag_class = Class {
        name: "layout_struct_dag",
        entries: vec![file("small.bin", small_bin.clone()), dir("lay"), file("lay/dag.toml", dag.into_bytes())],
        every_verb_on: None,
        runs: vec![
            bounded(&["layout", "check", "lay/dag.toml"]),
            bounded(&["--layouts", "lay", "tree", "small.bin", "--fields"]),
            bounded(&["layout", "export", "lay/dag.toml", "--c", "dag.h", "--ksy", "dag.ksy"]),
        ],
    };
    // 8: unknown type names of 20,000 and 200,000 characters (edit distance against each
    // struct name), and 25,000 chained structs (linear type lookup, then the nesting)
    let long = |n: usize| {
        raw_layout(&format!(
            "[[struct.main]]\nname = \"a\"\ntype = \"{}\"\n[[struct.{}]]\nname = \"b\"\ntype = \"u8\"\n",
            "x".repeat(n),
            "y".repeat(n)
        ))
        .into_bytes()
    };
    let mut chain = raw_layout("");
    for l in 0..25_000 {
        let name = if l == 0 { "main".to_string() } else { format!("s{l:05}") };
        let ty = if l == 24_999 { "u8".to_string() } else { format!("s{:05}", l + 1) };
        chain.push_str(&format!("[[struct.{name}]]\nname = \"a\"\ntype = \"{ty}\"\n"));
    }
    let names = Class {
        name: "layout_long_names",
        entries: vec![
            file("l40k.toml", long(20_000)),
            file("l400k.toml", long(200_000)),
            file("chain.toml", chain.into_bytes()),
        ],
        every_verb_on: None,
        runs: vec![
            bounded(&["layout", "check", "l40k.toml"]),
            bounded(&["layout", "check", "l400k.toml"]),
            bounded(&["layout", "check", "chain.toml"]),
        ],
    };
    // 9: one layout of 100,000 kinds, and 5,000 path layouts, on 1,300 sequences
    let seqs: Vec<(String, Vec<u8>)> = (0..1300)
        .map(|i| (format!("S{i:04}"), crate::hostile_gen::dense_sequence(4 + (i % 50) as u16, 1, 1)))
        .collect();
    let mot = animscope::formats::motn::write::encode_file(&seqs, None);
    let kinds: Vec<String> = (0..100_000).map(|i| format!("\"K{i}\"")).collect();
    let kinds_layout =
        format!("format = \"motn\"\nkinds = [{}]\n[[struct.main]]\nname = \"a\"\ntype = \"u8\"\n", kinds.join(","));
    let mut entries =
        vec![file("f.mot", mot), dir("kinds"), file("kinds/k.toml", kinds_layout.into_bytes()), dir("paths")];
    for i in 0..5000 {
        let t = format!("format = \"motn\"\npath = \"NOPE{i}\"\n[[struct.main]]\nname = \"a\"\ntype = \"u8\"\n");
        entries.push(file(&format!("paths/p{i:04}.toml"), t.into_bytes()));
    }
    let index = Class {
        name: "layouts_on_every_node",
        entries,
        every_verb_on: None,
        runs: vec![
            bounded(&["--layouts", "kinds", "tree", "f.mot"]),
            bounded(&["--layouts", "paths", "tree", "f.mot"]),
            bounded(&["--layouts", "paths", "check", "f.mot"]),
        ],
    };
    // 11: a keymap binding of 20,000 chords (each prefix was hashed)
    let keys = vec!["ctrl-alt-x"; 20_000].join(" ");
    let keymap = Class {
        name: "keymap_long_binding",
        entries: vec![
            ("in.mot".into(), Entry::File(crate::hostile_gen::hostile_leaf())),
            file("k.toml", format!("[[bind]]\nkeys = \"{keys}\"\naction = \"quit\"\n").into_bytes()),
        ],
        every_verb_on: None,
        runs: vec![run(
            &["--keymap", "k.toml", "in.mot"],
            Expect::Refused { names: "", says: "the TUI needs a terminal", lines: 1 },
        )],
    };
    // 17 (counts past a C array) and 18 (--ksy written, then --c refused: not all or nothing)
    let huge = raw_layout("[[struct.main]]\nname = \"big\"\ntype = \"u8\"\ncount = 9223372036854775807\n");
    let exports = Class {
        name: "layout_exports",
        entries: vec![
            file("huge.toml", huge.into_bytes()),
            file("ok.toml", raw_layout("[[struct.main]]\nname = \"a\"\ntype = \"u8\"\n").into_bytes()),
            file("B.h", b"the user's own header\n".to_vec()),
        ],
        every_verb_on: None,
        runs: vec![
            run(
                &["layout", "export", "huge.toml", "--c", "h.h", "--ksy", "h.ksy"],
                Expect::Refused { names: "huge.toml:4", says: "more than a C array may hold", lines: 1 },
            ),
            run(
                &["layout", "export", "ok.toml", "--ksy", "A.ksy", "--c", "B.h"],
                Expect::Refused { names: "B.h", says: "exists", lines: 1 },
            ),
        ],
    };
    vec![sparse, fields, side_file, dag_class, names, index, keymap, exports]
}

/// Issue 52: a struct with two counted arrays exported as C: a program compiled from the
/// header reads the second array, and the field after it, at their real offsets (bytes
/// written here by hand: n1 = 2, n2 = 3, set1 = {0x1111, 0x2222}, set2 = {10, 11, 12},
/// tail = 0x7f). The C struct used to place set2 where set1 starts.
#[test]
fn c_export_reads_a_second_counted_array_at_its_offset() {
    let layout = raw_layout(
        "[[struct.main]]\nname = \"n1\"\ntype = \"u16\"\n[[struct.main]]\nname = \"n2\"\ntype = \"u16\"\n\
         [[struct.main]]\nname = \"set1\"\ntype = \"u16\"\ncount = \"n1\"\n\
         [[struct.main]]\nname = \"set2\"\ntype = \"u32\"\ncount = \"n2\"\n\
         [[struct.main]]\nname = \"tail\"\ntype = \"u8\"\n",
    );
    let d = layouts_dir(&[("two.toml", &layout)]);
    let h = d.path().join("two.h");
    let (code, _, err) =
        run(&["layout", "export", d.path().join("two.toml").to_str().unwrap(), "--c", h.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let main = d.path().join("t.c");
    std::fs::write(
        &main,
        format!(
            "#include \"{}\"\n\
             int main(void) {{\n\
             static const unsigned char b[] = {{2,0, 3,0, 0x11,0x11, 0x22,0x22, 10,0,0,0, 11,0,0,0, 12,0,0,0, 0x7f}};\n\
             const struct main *m = (const struct main *)(const void *)b;\n\
             const uint32_t *set2 = main_after_set1(m->set1, m->n1);\n\
             const struct main_after_set2 *t = main_after_set2(set2, m->n2);\n\
             if (m->n1 != 2 || m->set1[1] != 0x2222) return 1;\n\
             if ((const unsigned char *)set2 - b != 8 || set2[0] != 10 || set2[2] != 12) return 2;\n\
             return t->tail == 0x7f ? 0 : 3;\n}}\n",
            h.display()
        ),
    )
    .unwrap();
    let exe = d.path().join("t");
    match std::process::Command::new("cc").args(["-std=c11", "-Wall", "-Werror", "-o"]).arg(&exe).arg(&main).output() {
        Err(e) => skip(&format!("no C compiler (cc: {e})")),
        Ok(o) => {
            let header = std::fs::read_to_string(&h).unwrap();
            assert!(o.status.success(), "cc: {}\n{header}", String::from_utf8_lossy(&o.stderr));
            let ran = std::process::Command::new(&exe).status().unwrap();
            assert_eq!(ran.code(), Some(0), "the program read the wrong bytes:\n{header}");
        }
    }
}

/// Issue 51 class 17: names and text a C header and a YAML file cannot carry as they are
/// (keywords, `/*`, `a-b` beside `a_b`, header macros, two enum names differing in case,
/// `null`, a format string with a newline): both exports are written, the C compiles
/// with `-Wall -Werror`, the .ksy compiles with the Kaitai compiler where it is installed,
/// and the newline did not start a YAML line of its own.
#[test]
fn hostile_names_export_valid_c_and_ksy() {
    let layout = "name = \"evil */ /* x\"\nformat = \"raw\\n- id: injected\\n\"\nkinds = [\"file\"]\n\
        [[struct.main]]\nname = \"int\"\ntype = \"u8\"\nenum = { 1 = \"Loop\", 2 = \"loop\", 3 = \"null\" }\n\
        [[struct.main]]\nname = \"for\"\ntype = \"u8\"\nflags = { \"0x10\" = \"high\", \"0x2\" = \"low\" }\n\
        [[struct.main]]\nname = \"a-b\"\ntype = \"u8\"\n[[struct.main]]\nname = \"a_b\"\ntype = \"u8\"\n\
        [[struct.main]]\nname = \"/* c */\"\ntype = \"INT8_MAX\"\n\
        [[struct.main]]\nname = \"uint8_t\"\ntype = \"strz\"\n\
        [[struct.main]]\nname = \"rest\"\ntype = \"pair\"\ncount = \"rest\"\n\
        [[struct.INT8_MAX]]\nname = \"v\"\ntype = \"u8\"\n[[struct.pair]]\nname = \"s\"\ntype = \"strz\"\n";
    let d = layouts_dir(&[("evil.toml", layout)]);
    let (ksy, c) = (d.path().join("evil.ksy"), d.path().join("evil.h"));
    let src = d.path().join("evil.toml");
    let (code, _, err) =
        run(&["layout", "export", src.to_str().unwrap(), "--ksy", ksy.to_str().unwrap(), "--c", c.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let k = std::fs::read_to_string(&ksy).unwrap();
    assert!(!k.lines().any(|l| l.trim_start().starts_with("- id: injected")), "{k}");
    assert!(k.contains("    1: loop\n    2: loop_2\n    3: null_\n"), "{k}");
    assert!(k.contains("doc: \"flags: 0x2 low, 0x10 high\""), "flags in bit order: {k}");
    let h = std::fs::read_to_string(&c).unwrap();
    assert!(h.contains("uint8_t a_b;") && h.contains("uint8_t a_b_2; /* \"a_b\" in the layout */"), "{h}");
    match std::process::Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-fsyntax-only", "-x", "c"])
        .arg(&c)
        .output()
    {
        Err(e) => skip(&format!("no C compiler (cc: {e})")),
        Ok(o) => assert!(o.status.success(), "cc: {}\n{h}", String::from_utf8_lossy(&o.stderr)),
    }
    let check = root().join("tools/kaitai/ksc-check.js");
    match std::process::Command::new("node").arg(&check).arg(&ksy).output() {
        Err(e) => skip(&format!("the Kaitai check: no node ({e})")),
        Ok(o) if o.status.code() == Some(3) => skip(&format!(
            "the Kaitai check: {} (see tools/kaitai/README.md)",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(o) => assert!(o.status.success(), "ksc: {}\n{k}", String::from_utf8_lossy(&o.stderr)),
    }
}

/// Issue 52: `count = "rest"` reads the whole elements that fit, in the .ksy as in
/// `fields`: over 10 bytes a `u32[rest]` is two elements, the 2 trailing bytes left (it
/// was `repeat: eos`, which fails on them); flags are named in bit order.
#[test]
fn rest_arrays_and_flags_read_as_fields_says() {
    let layout = raw_layout(
        "[[struct.main]]\nname = \"fl\"\ntype = \"u8\"\nflags = { \"0x10\" = \"high\", \"0x2\" = \"low\" }\n\
         [[struct.main]]\nname = \"w\"\ntype = \"u32\"\ncount = \"rest\"\n",
    );
    let d = layouts_dir(&[("r.toml", &layout)]);
    let bin = d.path().join("r.bin");
    std::fs::write(&bin, [0x12, 1, 0, 0, 0, 2, 0, 0, 0, 0xee, 0xee]).unwrap();
    let (code, out, err) = run(&["fields", bin.to_str().unwrap(), "/", "--layouts", d.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("fl = 0x12 low|high"), "{out}");
    assert!(out.contains("w[1] = 0x00000002") && !out.contains("w[2]"), "{out}");
    let ksy = d.path().join("r.ksy");
    let (code, _, err) =
        run(&["layout", "export", d.path().join("r.toml").to_str().unwrap(), "--ksy", ksy.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let k = std::fs::read_to_string(&ksy).unwrap();
    assert!(
        k.contains("  - id: w\n    type: u4le\n    repeat: expr\n    repeat-expr: (_io.size - _io.pos) / 4\n"),
        "{k}"
    );
}

/// Issue 51 class 18: `--ksy A --c B` with B existing (no `--force`): refused naming B,
/// and A is not written either; with `--force` both are.
#[test]
fn layout_export_of_two_files_is_all_or_nothing() {
    let d =
        layouts_dir(&[("ok.toml", &raw_layout("[[struct.main]]\nname = \"a\"\ntype = \"u8\"\n")), ("B.h", "mine\n")]);
    let (a, b) = (d.path().join("A.ksy"), d.path().join("B.h"));
    let src = d.path().join("ok.toml");
    let args = ["layout", "export", src.to_str().unwrap(), "--ksy", a.to_str().unwrap(), "--c", b.to_str().unwrap()];
    let (code, _, err) = run(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("B.h") && err.contains("exists"), "{err}");
    assert!(!a.exists(), "A written although B was refused");
    assert_eq!(std::fs::read_to_string(&b).unwrap(), "mine\n");
    let mut forced = args.to_vec();
    forced.push("--force");
    let (code, _, err) = run(&forced);
    assert_eq!(code, 0, "{err}");
    assert!(a.exists() && std::fs::read_to_string(&b).unwrap().contains("struct main"));
}

/// Issue 51 class 19: the builder's save asks before replacing a layout file of that
/// name; `n` keeps it (and the fields, to save under another name), `y` replaces it.
#[test]
fn tui_builder_asks_before_replacing_a_layout() {
    use crate::support::{press, screen};
    use animscope::tui::App;
    use animscope::tui::app::Config;
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("mine.toml");
    std::fs::write(&saved, "# the user's own layout\n").unwrap();
    let mut app =
        App::new(open_particle(), Config { layouts_dir: Some(dir.path().to_path_buf()), ..Config::default() });
    press(&mut app, "g 0 x d c enter u u 3 2 space c o u n t enter U m i n e enter");
    assert!(screen(&mut app, 160, 30).contains("a layout mine.toml exists; replace it? (y/n)"));
    press(&mut app, "n enter");
    assert!(screen(&mut app, 160, 30).contains("layout mine not replaced"));
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), "# the user's own layout\n");
    press(&mut app, "U m i n e enter y enter");
    assert!(screen(&mut app, 160, 30).contains("layout mine saved to"));
    assert!(std::fs::read_to_string(&saved).unwrap().contains("name = \"count\""));
}

/// Write the layout and keymap classes' directories under `$HOSTILE_OUT` (for measuring
/// by hand with `/usr/bin/time -v`; a temporary directory when unset).
#[test]
#[ignore = "writes the inputs for measuring by hand: HOSTILE_OUT=dir cargo test write_layout_classes -- --ignored"]
fn write_layout_classes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = std::env::var_os("HOSTILE_OUT").map_or_else(|| tmp.path().to_path_buf(), PathBuf::from);
    for class in hostile_classes() {
        let dir = out.join(class.name);
        std::fs::create_dir_all(&dir).unwrap();
        crate::hostile_gen::make(&dir, &class);
        assert!(dir.read_dir().unwrap().next().is_some(), "{}", class.name);
    }
}

/// The fuzz target `layout`'s entry: the committed example is a layout, applied without a
/// broken invariant to node bytes it fits (its `u32 count` of 3 points of 12 bytes needs
/// 40 bytes; 64 are given); text that is not a layout (bad TOML, not UTF-8) is said to be
/// none.
#[test]
fn the_layout_exercise_reads_the_example_and_refuses_non_layouts() {
    let text = std::fs::read(root().join(EXAMPLES).join("ccsf-particle.toml")).unwrap();
    let mut data = vec![0u8; 64];
    data[..4].copy_from_slice(&3u32.to_le_bytes());
    let limits = animscope::limits::Limits::default();
    assert_eq!(animscope::harness::exercise_layout(&text, &data, &limits), Ok(true));
    assert_eq!(animscope::harness::exercise_layout(b"format = [", &data, &limits), Ok(false));
    assert_eq!(animscope::harness::exercise_layout(&[0xff, 0xfe], &data, &limits), Ok(false));
}
