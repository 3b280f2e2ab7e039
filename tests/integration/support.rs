//! Shared support for the integration tests: the one seeded random source. Sweeps that
//! need reproducible noise take it from here (proptest's XorShift generator) instead of a
//! hand-written generator per file.

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// Seeded, reproducible noise: the same seed gives the same stream on every run.
pub struct Noise(TestRng);

impl Noise {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// A generator seeded with `seed`.
pub fn rng(seed: u64) -> Noise {
    let mut s = [0u8; 16];
    s[..8].copy_from_slice(&seed.to_le_bytes());
    s[8..].copy_from_slice(&(!seed).to_le_bytes());
    Noise(TestRng::from_seed(RngAlgorithm::XorShift, &s))
}

/// Run the binary under test: (exit code, stdout, stderr).
#[allow(clippy::unwrap_used)]
pub fn animscope(args: &[&str]) -> (i32, String, String) {
    let o = assert_cmd::Command::cargo_bin("animscope").unwrap().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// The child's own peak RSS so far (`VmHWM`, reset by exec), KiB. `wait4`'s and
/// `RUSAGE_CHILDREN`'s `ru_maxrss` cannot be used for this: Linux carries the forked test
/// process's high-water mark across exec (so every child would report at least this large,
/// multi-threaded process's RSS), and `RUSAGE_CHILDREN` is the maximum over every child of
/// the process, including other tests' children running at the same time. A sample every
/// 10 ms can miss only growth in the child's last moments.
pub fn vm_hwm_kib(pid: u32) -> Option<i64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Press keys written as in keymap files (`tab`, `ctrl-left`, `y h`) in the TUI, waiting for
/// the background work each starts.
pub fn press(app: &mut animscope::tui::App, keys: &str) {
    for k in keys.split_whitespace() {
        let c = animscope::tui::keymap::Chord::parse(k).expect("a chord");
        app.handle_key(crossterm::event::KeyEvent::new(c.code, c.mods));
        app.wait_idle();
    }
}

/// One `w`×`h` frame of the TUI on a TestBackend, once background work is done.
pub fn render(app: &mut animscope::tui::App, w: u16, h: u16) -> ratatui::buffer::Buffer {
    app.wait_idle();
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("a terminal");
    term.draw(|f| animscope::tui::draw(app, f)).expect("draws");
    term.backend().buffer().clone()
}

/// A buffer's text, one line per row, trailing spaces trimmed.
pub fn text(buf: &ratatui::buffer::Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_string()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The text of one `w`×`h` frame of the TUI ([`render`], then [`text`]).
pub fn screen(app: &mut animscope::tui::App, w: u16, h: u16) -> String {
    text(&render(app, w, h))
}

/// `bytes` named `name` parsed as `format` (or sniffed when None) through `formats::open_as`
/// / `formats::open`: the one object the program itself works with.
pub fn parsed(
    format: Option<&'static dyn animscope::formats::Format>,
    name: &str,
    bytes: Vec<u8>,
    limits: &animscope::limits::Limits,
) -> animscope::error::Result<Box<dyn animscope::formats::Parsed>> {
    let src = std::sync::Arc::new(animscope::source::Source::from_vec(name, bytes));
    match format {
        Some(f) => animscope::formats::open_as(f, src, limits),
        None => animscope::formats::open(src, None, limits),
    }
}

/// The whole document of `bytes` as the program builds it: parsed through
/// [`parsed`], then every node deferred to first use built.
pub fn whole_document(
    format: Option<&'static dyn animscope::formats::Format>,
    name: &str,
    bytes: &[u8],
    limits: &animscope::limits::Limits,
) -> animscope::error::Result<animscope::model::Document> {
    let p = parsed(format, name, bytes.to_vec(), limits)?;
    let mut doc = p.document().clone();
    doc.expand_all();
    Ok(doc)
}

/// Decode the animation keyed `key` (`anime:NAME`, `seq:NAME`, `clip:3`, `frames`) in `bytes`
/// parsed as `format`: the listed animation with that key, else the name after the colon as
/// `--anim` takes it (so a key the document does not list is reported by the format).
pub fn decode_key(
    format: &'static dyn animscope::formats::Format,
    bytes: &[u8],
    key: &str,
    opts: &animscope::formats::DecodeOptions,
    limits: &animscope::limits::Limits,
) -> animscope::error::Result<animscope::model::anim::Clip> {
    let p = parsed(Some(format), "decode_key", bytes.to_vec(), limits)?;
    let clips = p.require_clips()?;
    let anim = match clips.animations().into_iter().find(|a| a.id() == key) {
        Some(a) => a,
        None => clips.find_animation(key.split_once(':').map_or(key, |(_, name)| name))?,
    };
    clips.decode(&anim, opts, limits)
}

/// The strict check of `bytes` named `name`, parsed as `format` (the findings `check` prints).
pub fn check_bytes(
    format: &'static dyn animscope::formats::Format,
    bytes: &[u8],
    name: &str,
    limits: &animscope::limits::Limits,
) -> animscope::error::Result<Vec<animscope::model::Diagnostic>> {
    parsed(Some(format), name, bytes.to_vec(), limits)?.check(limits)
}

/// `survey`'s totals for `bytes` named `name` as `format` (the format's own survey walk).
pub fn survey_bytes(
    format: &'static dyn animscope::formats::Format,
    bytes: &[u8],
    name: &str,
    limits: &animscope::limits::Limits,
) -> animscope::error::Result<animscope::formats::Survey> {
    let src = animscope::source::Source::from_vec(name, bytes.to_vec());
    let mut tally = animscope::formats::tally::Tally::default();
    format.survey(&src, limits, &|_| (), &mut tally)?;
    Ok(tally.into_survey(format.id(), name))
}

/// The scene `req` asks for in `bytes` parsed as `format` (what `export --obj/--gltf` build).
pub fn scene_of(
    format: &'static dyn animscope::formats::Format,
    bytes: &[u8],
    req: &animscope::model::mesh::SceneRequest,
    limits: &animscope::limits::Limits,
) -> animscope::error::Result<animscope::model::mesh::Scene> {
    parsed(Some(format), "scene_of", bytes.to_vec(), limits)?.require_meshes()?.scene(req, limits)
}

/// Open member number `index` (in document order) of `bytes` parsed as `format`.
pub fn member_at(
    format: &'static dyn animscope::formats::Format,
    bytes: &[u8],
    index: usize,
    limits: &animscope::limits::Limits,
) -> animscope::error::Result<animscope::formats::Member> {
    let p = parsed(Some(format), "member_at", bytes.to_vec(), limits)?;
    let doc = p.document();
    let node = doc.nodes.iter().filter(|n| n.member.is_some()).nth(index).map(|n| n.id).expect("a member node");
    p.open_member_of(node, limits)
}

/// The committed fixture at `rel` (a path under `fixtures/`).
pub fn fixture_file(rel: &str) -> Vec<u8> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    std::fs::read(root.join(rel)).expect("a fixture")
}

/// `bytes` written as `name` in a fresh folder (kept while the returned folder lives).
pub fn on_disk(name: &str, bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().expect("a temp dir");
    let p = d.path().join(name);
    std::fs::write(&p, bytes).expect("written");
    (d, p)
}

/// What the document of `path` retains, opened as the verbs open it with the default limits
/// and every node built (the budget counts what nodes and fields hold, shared regions per
/// use).
pub fn retained_with_default_limits(path: &std::path::Path) -> u64 {
    let o = animscope::session::Opened::open_path(
        path,
        animscope::source::OpenOptions::default(),
        None,
        &animscope::limits::Limits::default(),
    )
    .expect("opens");
    let mut doc = o.doc().clone();
    doc.expand_all();
    assert!(doc.budget_exceeded().is_none(), "the default budget holds the whole document");
    doc.retained_bytes()
}

/// Every file under `dir` (recursively, sorted) that `keep` accepts.
pub fn files_under(dir: &std::path::Path, keep: &dyn Fn(&std::path::Path) -> bool) -> Vec<std::path::PathBuf> {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    let mut out = Vec::new();
    for p in entries {
        if p.is_dir() {
            out.extend(files_under(&p, keep));
        } else if keep(&p) {
            out.push(p);
        }
    }
    out
}
