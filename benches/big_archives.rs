//! The 300 MB-inflated archives of the "documents on demand" targets (`common/archives.rs`:
//! 315,000 small CCSF members; 3,000 stream files of 50–500 KB).
//!
//! 1. Whole commands, memory: runs the release binary (`tree --fields`, `check`, `survey`)
//!    on each archive and samples `/proc/PID/status` every 2 ms, printing peak RssAnon
//!    (anonymous memory: what the command allocates, not the mapped input's pages) and
//!    VmHWM. Targets: RssAnon ≤ 64 MiB for each.
//! 2. In process, the TUI's path (open with the interactive budget, `App::new`, the
//!    background listing to the end): VmHWM after listing all 315,000 members, target
//!    ≤ 128 MiB (printed; the peak is reset first through `/proc/self/clear_refs`).
//! 3. Criterion: `survey` against plain inflation of the same members on one thread (CPU
//!    time; target ≤ 1.5×), and survey on 2 threads (wall) against 1 (CPU time, which is
//!    its wall time on an idle machine; target ≥ 1.8×).
//!
//! Run with `cargo bench --bench big_archives` (the first run writes the archives: about a
//! minute). `BENCH_NO_COMMANDS=1` skips parts 1 and 2; `BENCH_COMMANDS_ONLY=1` skips part 3.

#[path = "common/archives.rs"]
mod archives;
#[path = "common/config.rs"]
mod config;
#[path = "common/cpu.rs"]
mod cpu;
#[path = "common/via.rs"]
mod via;

use animscope::formats::Survey;
use animscope::formats::gzarc::GzArc;
use animscope::limits::Limits;
use animscope::source::Source;
use criterion::{Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `KEY:` of a `/proc/.../status` text, in KiB.
fn status_kib(status: &str, key: &str) -> u64 {
    status
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Run the binary with `args`, output discarded; (wall seconds, peak RssAnon MiB, VmHWM MiB).
fn whole_command(args: &[&str]) -> (f64, u64, u64) {
    let t = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_animscope"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs the binary");
    let status_path = format!("/proc/{}/status", child.id());
    let (mut anon, mut hwm) = (0, 0);
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_path) {
            anon = anon.max(status_kib(&s, "RssAnon:"));
            hwm = hwm.max(status_kib(&s, "VmHWM:"));
        }
        if child.try_wait().expect("waits").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    (t.elapsed().as_secs_f64(), anon / 1024, hwm / 1024)
}

fn command_rows(small: &Path, large: &Path) {
    println!("whole commands (release binary; RssAnon target <= 64 MiB):");
    for (label, path) in [("many_small", small), ("many_large", large)] {
        let p = path.to_str().expect("utf-8 path");
        for (verb, options) in [("tree", &["--fields"][..]), ("check", &[]), ("survey", &[])] {
            let args: Vec<&str> = [verb, p].into_iter().chain(options.iter().copied()).collect();
            let (secs, anon, hwm) = whole_command(&args);
            let shown = format!("{verb} {}", options.join(" "));
            println!("  {label:<11} {shown:<14} {secs:>7.2} s  RssAnon {anon:>5} MiB  VmHWM {hwm:>5} MiB");
        }
    }
}

/// The TUI's open and background listing of every member, VmHWM after it.
fn tui_listing(path: &Path) {
    use animscope::session::Opened;
    use animscope::source::OpenOptions;
    use animscope::tui::{App, Config};
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let t = Instant::now();
    let o = Opened::open_path(path, OpenOptions::default(), None, &Limits::interactive()).expect("opens");
    let state = tempfile::tempdir().expect("state dir");
    let mut app = App::new(o, Config { state_dir: Some(state.path().to_path_buf()), ..Config::default() });
    app.wait_idle();
    let doc = app.workspace.docs[0].doc();
    let members = doc.root().children.iter().filter(|c| doc.node(**c).is_some_and(|n| n.member.is_some())).count();
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    println!(
        "TUI listing all {members} members: {:.2} s, VmHWM {} MiB (target <= 128), RssAnon {} MiB",
        t.elapsed().as_secs_f64(),
        status_kib(&s, "VmHWM:") / 1024,
        status_kib(&s, "RssAnon:") / 1024
    );
}

fn survey_bench(c: &mut Criterion, label: &str, path: &Path, inflated: u64) {
    // Read, not mapped: the criterion loop then measures CPU work, not page faults.
    let src = Source::from_vec(label, std::fs::read(path).expect("reads archive"));
    let data = src.bytes();
    let limits = Limits::default();
    let members = via::member_spans(data, &limits);
    let s: Survey = via::survey(&GzArc, &src, &limits);
    eprintln!("{label}: {} members, {} bytes on disk, {inflated} inflated; survey {s:?}", members.len(), data.len());
    let mut g = c.benchmark_group(label);
    g.throughput(Throughput::Bytes(inflated));
    g.sample_size(10);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
    g.bench_function("inflate_only_1t_cpu", |b| {
        b.iter_custom(|n| {
            one.install(|| {
                cpu::cpu_time(n, || members.iter().map(|m| via::inflate_len(&data[m.clone()])).sum::<usize>())
            })
        })
    });
    g.bench_function("survey_1t_cpu", |b| {
        b.iter_custom(|n| one.install(|| cpu::cpu_time(n, || via::survey(&GzArc, &src, &limits))))
    });
    // The 2-core speed-up is survey_2t against survey_1t_cpu (one thread's CPU time is its
    // wall time on an idle machine): a separate 1-thread wall run would add minutes.
    let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
    g.bench_function("survey_2t", |b| b.iter(|| two.install(|| black_box(via::survey(&GzArc, &src, &limits)))));
    g.finish();
}

fn main() {
    let (small, small_inflated) = archives::many_small();
    let (large, large_inflated) = archives::many_large();
    let listing = std::env::args().any(|a| a == "--list");
    if !listing && std::env::var_os("BENCH_NO_COMMANDS").is_none() {
        command_rows(&small, &large);
        tui_listing(&small);
    }
    if std::env::var_os("BENCH_COMMANDS_ONLY").is_some() {
        return;
    }
    let mut c = config::short().configure_from_args();
    survey_bench(&mut c, "many_small", &small, small_inflated);
    survey_bench(&mut c, "many_large", &large, large_inflated);
    c.final_summary();
}
