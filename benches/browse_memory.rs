//! Peak memory while browsing the 4 GiB synthetic archive (`common/bigarc.rs`): open with
//! the interactive budget, list every member, open 50 members spread over the archive,
//! describe each, and decode 20 clips. Not a criterion bench: it prints VmHWM / VmRSS /
//! RssFile / RssAnon from `/proc/self/status` after each phase. The peak is reset
//! (`/proc/self/clear_refs` = 5) between the two runs:
//! - the TUI's own path (what `animscope FILE` does): `App::new` on the interactive open
//!   (bookmarks hashed and the listing continued in the background by `pread`, steps
//!   applied by the UI thread), then members expanded in the tree (opened by workers) and
//!   clips selected (decoded by workers);
//! - for contrast, listing through the memory map (every page of the file faulted in,
//!   counted in RSS) with members opened through a `MemberCache`.
//!
//! Run with `cargo bench --bench browse_memory`.

#[path = "common/bigarc.rs"]
mod bigarc;

use animscope::formats::gzarc::{self, MemberCache};
use animscope::formats::{DecodeOptions, open};
use animscope::limits::Limits;
use animscope::model::NodeId;
use animscope::session::Opened;
use animscope::source::OpenOptions;
use animscope::tui::app::Load;
use animscope::tui::{Action, App, Config};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::Instant;

fn status() -> String {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let get = |k: &str| {
        s.lines()
            .find(|l| l.starts_with(k))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    format!(
        "VmHWM {:>5} MiB  VmRSS {:>5} MiB  RssFile {:>5} MiB  RssAnon {:>5} MiB",
        get("VmHWM:"),
        get("VmRSS:"),
        get("RssFile:"),
        get("RssAnon:")
    )
}

/// Browse as the TUI does: its App, its background listing, its member and clip workers.
fn browse_tui(path: &std::path::Path) {
    let t = Instant::now();
    let o = Opened::open_path(path, OpenOptions::default(), None, &Limits::interactive()).expect("opens");
    let state = tempfile::tempdir().expect("state dir");
    let mut app = App::new(o, Config { state_dir: Some(state.path().to_path_buf()), ..Config::default() });
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    term.draw(|f| animscope::tui::draw(&mut app, f)).expect("draws");
    println!("  first frame (open, App::new, draw) {:>8.1} ms  {}", t.elapsed().as_secs_f64() * 1e3, status());
    let t = Instant::now();
    app.wait_idle();
    term.draw(|f| animscope::tui::draw(&mut app, f)).expect("draws");
    let doc = app.workspace.docs[0].doc();
    let members: Vec<NodeId> =
        doc.root().children.iter().copied().filter(|c| doc.node(*c).is_some_and(|n| n.member.is_some())).collect();
    println!(
        "  list all {} members (TUI)     {:>8.1} ms  {}",
        members.len(),
        t.elapsed().as_secs_f64() * 1e3,
        status()
    );
    let t = Instant::now();
    let (mut opened, mut decoded) = (0usize, 0usize);
    for k in 0..50 {
        let id = members[k * members.len() / 50];
        app.select_node(0, id, false);
        app.apply(Action::Right); // expand: the member opens on a worker
        app.wait_idle();
        let Some(Load::Ready(d)) = app.workspace.members.get(&(0, id)).cloned() else { continue };
        opened += 1;
        if decoded < 20
            && let Some(clip) = app.workspace.docs[d].doc().nodes.iter().find(|n| n.anim.is_some()).map(|n| n.id)
        {
            app.select_node(d, clip, false); // selecting a clip decodes it on a worker
            app.wait_idle();
            if matches!(app.clip(), Some(Load::Ready(_))) {
                decoded += 1;
            }
        }
        term.draw(|f| animscope::tui::draw(&mut app, f)).expect("draws");
    }
    println!(
        "  expand {opened} members, decode {decoded} clips {:>6.1} ms  {}  ({} documents open)",
        t.elapsed().as_secs_f64() * 1e3,
        status(),
        app.workspace.docs.len()
    );
}

fn browse(path: &std::path::Path, by_pread: bool) {
    let t = Instant::now();
    let limits = Limits::default();
    let o = Opened::open_path(path, OpenOptions::default(), None, &Limits::interactive()).expect("opens");
    println!("  open (interactive budget)    {:>8.1} ms  {}", t.elapsed().as_secs_f64() * 1e3, status());
    if by_pread {
        // one page per header touched, not 16 (fault-around)
        o.source().advise_random().expect("madvise");
    }
    let mut doc = o.doc().clone();
    let data = o.source().bytes();
    let t = Instant::now();
    if by_pread {
        let mut read_at = |off: u64, buf: &mut [u8]| o.source().read_at(off, buf);
        while let Some((from, to)) = gzarc::next_probe_range(&doc, 64 << 20) {
            let starts = gzarc::probe_reader(&mut read_at, from, to).expect("reads");
            if gzarc::apply_probe_reading(data, &mut doc, from, to, &starts, &mut read_at) {
                break;
            }
        }
    } else {
        while !gzarc::continue_listing(data, &mut doc, 64 << 20) {}
    }
    let members: Vec<NodeId> =
        doc.root().children.iter().copied().filter(|c| doc.node(*c).is_some_and(|n| n.member.is_some())).collect();
    println!(
        "  list all {} members ({})  {:>8.1} ms  {}",
        members.len(),
        if by_pread { "pread" } else { "mmap " },
        t.elapsed().as_secs_f64() * 1e3,
        status()
    );
    let t = Instant::now();
    let cache = MemberCache::new();
    let mut decoded = 0usize;
    let mut opened = 0usize;
    for k in 0..50 {
        let id = members[k * members.len() / 50];
        let n = doc.node(id).expect("member node");
        let m = gzarc::MemberInfo::from_node(data, n).expect("member header");
        let bytes = cache.get(data, &m, &limits).expect("inflates");
        let name = m.display_name();
        let p = open(std::sync::Arc::new(animscope::source::Source::from_vec(name, bytes.to_vec())), None, &limits)
            .expect("opens");
        opened += 1;
        if decoded < 20
            && let Some(clips) = p.clips()
            && let Some(anim) = clips.animations().into_iter().next()
            && clips.decode(&anim, &DecodeOptions::default(), &limits).is_ok()
        {
            decoded += 1;
        }
    }
    println!(
        "  open {opened} members, decode {decoded} clips {:>6.1} ms  {}  (cache holds {} KiB)",
        t.elapsed().as_secs_f64() * 1e3,
        status(),
        cache.held_bytes() / 1024
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo bench -- --list` (criterion convention)
    }
    let path = bigarc::big_archive();
    println!("browse_memory: {} (4 GiB, {} MiB apart)", path.display(), bigarc::STRIDE >> 20);
    println!("start                                      {}", status());
    println!("run: the TUI's path (App, background listing by pread, workers)");
    browse_tui(&path);
    let _ = std::fs::write("/proc/self/clear_refs", "5"); // reset VmHWM
    println!("run: listing by memory map (contrast)");
    browse(&path, false);
}
