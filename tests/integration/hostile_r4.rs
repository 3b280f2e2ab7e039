//! Round 4 of the hostile audit (issue 51), the classes of memory the budget did not see,
//! work out of proportion and descriptors held: each a crafted input of at most 1 MiB
//! (`hostile_gen::r4_*`, made by the project's writers), every verb run on it in a child
//! process, once with the default limits and once under `--limit memory=8M`. Each run must
//! end by itself (exit 0–2, no signal) within 2 s of CPU (user + sys, from the child's
//! rusage: what the machine's load does not inflate; [`MAX_CPU`] for unoptimised builds) and 256 MiB peak RSS; under 8M it
//! must end within 64 MiB or stop with the one-line budget error naming `--limit memory=`.
//! Exports of many files run with at most 64 descriptors (`RLIMIT_NOFILE`).
//!
//! Ignored (seconds of child processes each): `cargo test -- --ignored` and CI run them.

// Children are reaped by `wait4` (for their own rusage), which clippy cannot see.
#![allow(clippy::zombie_processes)]

use super::hostile_gen;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Peak RSS every run stays under.
const MAX_RSS_KIB: i64 = 256 * 1024;
/// Peak RSS a run under `--limit memory=8M` that does not stop at the budget stays under.
const SMALL_BUDGET_RSS_KIB: i64 = 64 * 1024;
/// CPU (user + sys) every run stays under: 2 s for the optimised binary; the tests' own
/// binary is built without optimisation (`cfg!(debug_assertions)` says so), which takes
/// about four times that for the same work.
const MAX_CPU: Duration = Duration::from_secs(if cfg!(debug_assertions) { 8 } else { 2 });
/// Descriptors a child may hold.
const MAX_FILES: u64 = 64;
/// Kill a child only when it has clearly hung (not a speed target).
const HANG_GUARD: Duration = Duration::from_secs(600);

/// How one run ended.
#[derive(Debug)]
pub struct Ran {
    /// Exit code, when it exited.
    pub code: Option<i32>,
    /// The signal that ended it.
    pub signal: Option<i32>,
    /// Peak RSS (KiB).
    pub rss_kib: i64,
    /// User + system CPU.
    pub cpu: Duration,
    /// What it said on stderr.
    pub stderr: String,
}

/// Run `animscope ARGS` in `dir` (stdout and stderr into files there) with at most
/// [`MAX_FILES`] descriptors; its exit and CPU from `wait4`, its peak RSS sampled.
#[allow(unsafe_code)]
pub fn run(dir: &Path, args: &[&str]) -> Ran {
    let err_path = dir.join(".stderr");
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("animscope"));
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join(".stdout")).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap());
    super::hostile_run::limit_child(&mut cmd, libc::RLIMIT_NOFILE, MAX_FILES);
    let child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    // Peak RSS sampled from the child's own VmHWM (`ru_maxrss` also counts the forked test
    // process before the exec), as `hostile_run` does.
    let mut hwm = 0i64;
    loop {
        hwm = hwm.max(crate::support::vm_hwm_kib(child.id()).unwrap_or(0));
        let mut status = 0i32;
        // SAFETY: rusage is plain old data; all-zero is a valid value.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes only into the two out-parameters passed.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut ru) };
        if r == pid {
            let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
            let (code, signal) = if libc::WIFEXITED(status) {
                (Some(libc::WEXITSTATUS(status)), None)
            } else {
                (None, libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)))
            };
            return Ran {
                code,
                signal,
                rss_kib: hwm,
                cpu: tv(ru.ru_utime) + tv(ru.ru_stime),
                stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
            };
        }
        if start.elapsed() > HANG_GUARD {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("animscope {args:?} still running after {HANG_GUARD:?}: hung");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// One class: its input file and the runs beyond every verb.
pub struct Case {
    /// The class number and what it is, in failures.
    pub name: &'static str,
    /// The input's file name.
    pub file: &'static str,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Runs of its own.
    pub extra: Vec<Vec<&'static str>>,
}

/// Every class of round 4 that a file holds (15, a truncation under the TUI, is in
/// `hostile_tty`).
pub fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "1 (decoded MOTN samples)",
            file: "long.mot",
            bytes: hostile_gen::r4_motn_long_samples(),
            extra: vec![
                vec!["plot", "long.mot", "--node", "0", "--channel", "rx"],
                vec!["pose", "long.mot", "--frame", "100"],
                vec!["decode", "long.mot", "--curves-only"],
            ],
        },
        Case {
            name: "1 (decoded SC6 samples)",
            file: "clip.mot",
            bytes: hostile_gen::sc6_long_clip(),
            extra: vec![vec!["plot", "clip.mot", "--channel", "root.x"], vec!["pose", "clip.mot", "--frame", "100"]],
        },
        Case {
            name: "5 (aliased IPAC entries)",
            file: "alias.ipac",
            bytes: hostile_gen::r4_ipac_aliased_entries(150 << 10),
            extra: vec![],
        },
        Case {
            name: "10 (IPAC of many entries)",
            file: "many.ipac",
            bytes: hostile_gen::r4_ipac_many_entries(28_000),
            extra: vec![],
        },
        Case {
            name: "10 (PKS of many entries)",
            file: "many.pks",
            bytes: hostile_gen::r4_pks_many_entries(28_000),
            extra: vec![],
        },
        Case {
            name: "12 (gzip members of overlapping MOTN)",
            file: "overlap.BIN",
            bytes: hostile_gen::r4_gzarc_overlapping_motn(24, || hostile_gen::motn_shared_many(2000)),
            extra: vec![],
        },
        Case {
            name: "6 (a multi-file export of many textures)",
            file: "many.ccs",
            bytes: hostile_gen::r4_ccsf_many_textures(2200),
            extra: vec![
                vec!["export", "many.ccs", "--obj", "-o", "s.obj", "--force"],
                vec!["export", "many.ccs", "--gltf", "-o", "s.gltf", "--force"],
            ],
        },
    ]
}

/// The verbs run on every class, then the class's own.
fn runs(c: &Case) -> Vec<Vec<&'static str>> {
    let f = c.file;
    let mut v = vec![
        vec!["info", f],
        vec!["tree", f, "--depth", "3"],
        vec!["tree", f, "--json", "--depth", "2"],
        vec!["walk", f],
        vec!["check", f],
        vec!["survey", f],
        vec!["decode", f],
        vec!["decode", f, "--json"],
        vec!["export", f, "-o", "out.json", "--force"],
        vec!["export", f, "--gltf", "-o", "out.glb", "--force"],
    ];
    v.extend(c.extra.iter().cloned());
    v
}

/// Why `r` (of `args`, under `limit` or the defaults) is out of bounds, if it is.
fn out_of_bounds(r: &Ran, limit: Option<&str>) -> Option<String> {
    if r.signal.is_some() || !matches!(r.code, Some(0..=2)) {
        return Some(format!("ended by signal {:?} / exit {:?}: {}", r.signal, r.code, r.stderr.trim_end()));
    }
    if r.code == Some(2) && !(r.stderr.starts_with("animscope: ") && r.stderr.lines().count() == 1) {
        return Some(format!("exit 2 without the one-line error: {:?}", r.stderr));
    }
    if r.cpu > MAX_CPU {
        return Some(format!("{:.2} s of CPU", r.cpu.as_secs_f64()));
    }
    if r.rss_kib > MAX_RSS_KIB {
        return Some(format!("peak RSS {} KiB", r.rss_kib));
    }
    let stopped =
        r.code == Some(2) && r.stderr.contains("memory budget exceeded") && r.stderr.contains("--limit memory=");
    if limit.is_some() && r.rss_kib > SMALL_BUDGET_RSS_KIB && !stopped {
        return Some(format!(
            "peak RSS {} KiB under the 8M budget, not stopped by it: {}",
            r.rss_kib,
            r.stderr.trim_end()
        ));
    }
    None
}

/// Every verb on every class, with the default limits and under `--limit memory=8M`: each
/// within its bounds (the module's doc). Prints every run's exit, CPU and peak RSS.
#[test]
#[ignore = "seconds of child processes: cargo test -- --ignored"]
fn every_verb_on_every_round_4_class_is_bounded() {
    let mut failures = Vec::new();
    for c in cases() {
        assert!(c.bytes.len() <= 1 << 20, "{}: {} bytes", c.name, c.bytes.len());
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(c.file), &c.bytes).unwrap();
        for args in runs(&c) {
            for limit in [None, Some("memory=8M")] {
                let mut a: Vec<&str> = limit.map(|l| vec!["--limit", l]).unwrap_or_default();
                a.extend(&args);
                let r = run(dir.path(), &a);
                eprintln!(
                    "class {}: animscope {}: exit {:?} signal {:?}, {:.2} s CPU, {} KiB",
                    c.name,
                    a.join(" "),
                    r.code,
                    r.signal,
                    r.cpu.as_secs_f64(),
                    r.rss_kib
                );
                if let Some(why) = out_of_bounds(&r, limit) {
                    failures.push(format!("class {}: animscope {}: {why}", c.name, a.join(" ")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} runs out of bounds:\n{}", failures.len(), failures.join("\n"));
}

/// Write round 4's inputs to `$HOSTILE_OUT` (for measuring by hand; a temporary directory
/// when unset) and read them back.
#[test]
#[ignore = "writes the round 4 inputs: HOSTILE_OUT=dir cargo test write_round_4_inputs -- --ignored"]
fn write_round_4_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("HOSTILE_OUT").map_or_else(|| tmp.path().to_path_buf(), std::path::PathBuf::from);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<(&str, Vec<u8>)> = cases().into_iter().map(|c| (c.file, c.bytes)).collect();
    files.push(("big.ccs", hostile_gen::r4_ccsf_big_texture()));
    for (name, bytes) in &files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        assert_eq!(std::fs::read(&p).unwrap().len(), bytes.len(), "{}", p.display());
    }
    eprintln!("round 4 inputs written to {}", dir.display());
}
