//! Resource bounds: hostile inputs of at most 1 MiB open, walk and decode with peak RSS
//! ≤ 256 MiB and finish well within 10 s (a hang guard, not a speed target). Each case runs
//! the real binary in a child process so its peak RSS can be read from `getrusage`.

use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MAX_RSS_KIB: i64 = 256 * 1024;
const MAX_TIME: Duration = Duration::from_secs(10);

fn gzip(name: &str, data: &[u8]) -> Vec<u8> {
    let mut e = flate2::GzBuilder::new().filename(name).write(Vec::new(), Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Largest peak RSS (KiB) of any child reaped so far. (Test-only FFI: std has no rusage.)
#[allow(unsafe_code)]
fn children_max_rss_kib() -> i64 {
    // SAFETY: rusage is plain old data; all-zero is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage only writes into the struct we pass.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    assert_eq!(rc, 0);
    ru.ru_maxrss
}

/// Run `animscope ARGS` on `file` with a time guard; returns the exit code.
fn run_bounded(args: &[&str], file: &Path) -> i32 {
    let start = Instant::now();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("animscope"))
        .args(args)
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        if start.elapsed() > MAX_TIME {
            let _ = child.kill();
            let _ = child.wait();
            panic!("animscope {args:?} {} ran past {MAX_TIME:?}", file.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Hostile inputs that do not depend on one format's writer.
fn generic_cases() -> Vec<(&'static str, Vec<u8>)> {
    // 1 GiB of zeros compresses to about 1 MiB: a gzip bomb in one member.
    let mut bomb_enc = GzBuilderLike::new("bomb.bin");
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..1024 {
        bomb_enc.write(&zeros);
    }
    let bomb = bomb_enc.finish();
    // gzip nested 40 deep.
    let mut nested = b"MOTN".to_vec();
    for i in 0..40 {
        nested = gzip(&format!("layer{i}.gz"), &nested);
    }
    // A sector archive whose every 2048-byte boundary claims a gzip member that does not inflate.
    let mut fake_members = Vec::new();
    for _ in 0..400 {
        let mut sector = vec![0u8; 2048];
        sector[..10].copy_from_slice(&[0x1f, 0x8b, 0x08, 0x08, 0, 0, 0, 0, 0, 3]);
        sector[10..15].copy_from_slice(b"x.cmp");
        fake_members.extend(sector);
    }
    vec![("gzip_bomb.gz", bomb), ("nested40.gz", nested), ("fake_members.BIN", fake_members)]
}

/// Streaming gzip writer so the bomb never needs 1 GiB in memory.
struct GzBuilderLike(GzEncoder<Vec<u8>>);
impl GzBuilderLike {
    fn new(name: &str) -> Self {
        GzBuilderLike(flate2::GzBuilder::new().filename(name).write(Vec::new(), Compression::best()))
    }
    fn write(&mut self, b: &[u8]) {
        self.0.write_all(b).unwrap();
    }
    fn finish(self) -> Vec<u8> {
        self.0.finish().unwrap()
    }
}

#[test]
fn hostile_inputs_stay_within_memory_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases = generic_cases();
    for (name, bytes) in animscope::fixtures::all() {
        if name.contains("/x_") || name.starts_with("x_") {
            let leaf = name.rsplit('/').next().unwrap_or(&name).to_string();
            cases.push((Box::leak(leaf.into_boxed_str()), bytes));
        }
    }
    for (name, bytes) in &cases {
        assert!(bytes.len() <= 1 << 20, "{name} is {} bytes; cases are at most 1 MiB", bytes.len());
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        for args in [&["check"][..], &["tree", "--fields"][..], &["walk"][..], &["survey"][..]] {
            let code = run_bounded(args, &p);
            assert!((0..=2).contains(&code), "animscope {args:?} {name}: exit {code}");
        }
        // Descend into the first member, if any (inflation is where bombs go off).
        let _ = run_bounded(&["tree", "--depth", "2"], &p);
    }
    let rss = children_max_rss_kib();
    assert!(rss <= MAX_RSS_KIB, "peak RSS {rss} KiB exceeds {MAX_RSS_KIB} KiB");
}
