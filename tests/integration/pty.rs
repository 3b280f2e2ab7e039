//! The real binary in a pseudo-terminal this test plays the terminal of (issues 48 and 51):
//! it counts every byte the TUI writes, answers the graphics query after a delay (or
//! never), answers status requests as a terminal does once it has read everything before
//! them, and can read at a link's rate. Used for: replies that come late are never keys
//! (and graphics come up when they do), the first frame needs no reply, `TERM`/locale are
//! honoured, signals restore the terminal, and the bytes each action writes (the byte
//! meter: `cargo test --test integration pty::byte_meter -- --ignored --nocapture`).
//!
//! Waits poll with generous deadlines (a hang guard on a loaded machine, not a speed
//! target); byte counts are what they are on any machine.
#![allow(unsafe_code, clippy::unwrap_used)]

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest wait for anything expected (hang guard).
const PATIENCE: Duration = Duration::from_secs(30);

/// The graphics query's start (XTVERSION), which the TUI sends after its first frame.
const QUERY: &[u8] = b"\x1b[>q";
const STATUS_REQUEST: &[u8] = b"\x1b[5n";
/// DECRQM for left/right margin mode, which the TUI asks after its first frame.
const MARGINS_QUERY: &[u8] = b"\x1b[?69$p";
/// What an XTerm with sixel answers, its name holding `q` and `e` (keys that quit and
/// export if a reply were read as keys), ending with the status answer.
const REPLY: &[u8] = b"\x1bP>|XTerm(390) qe\x1b\\\x1b[?63;1;2;4;6;9;15;22c\x1b[6;17;9t\x1b[0n";

/// When the pretend terminal answers.
#[derive(Clone, Copy, Debug)]
pub enum Answer {
    /// The graphics query after this delay; status requests at once.
    After(Duration),
    /// Never anything.
    Never,
}

/// What the TUI wrote, with when.
#[derive(Default)]
struct Log {
    bytes: Vec<u8>,
    /// When the query was first seen (offset in `bytes`, time).
    query: Option<(usize, Instant)>,
    /// When the reply went out.
    replied: Option<Instant>,
}

/// The binary in a pty.
pub struct Term {
    master: std::fs::File,
    slave: std::fs::File,
    child: Child,
    log: Arc<Mutex<Log>>,
    pub start: Instant,
    _home: tempfile::TempDir,
}

/// How to start it.
pub struct Opts<'a> {
    pub cols: u16,
    pub rows: u16,
    pub env: Vec<(&'a str, &'a str)>,
    pub args: Vec<String>,
    pub answer: Answer,
    /// Bytes per second the terminal reads (None: as fast as it can).
    pub rate: Option<usize>,
    /// The answer to DECRQM for left/right margins (mode 69): settable, or not recognised
    /// (as tmux and screen); never answered with [`Answer::Never`].
    pub margins: bool,
}

impl Default for Opts<'_> {
    fn default() -> Self {
        Opts {
            cols: 80,
            rows: 24,
            env: vec![("TERM", "xterm-256color"), ("LANG", "C.UTF-8")],
            args: Vec::new(),
            answer: Answer::After(Duration::ZERO),
            rate: None,
            margins: false,
        }
    }
}

fn openpty(cols: u16, rows: u16) -> (std::fs::File, std::fs::File) {
    let mut master = 0;
    let mut slave = 0;
    let ws = libc::winsize { ws_row: rows, ws_col: cols, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: out-pointers to two ints; the name pointer and termios may be null.
    let r = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &ws) };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: openpty returned two open descriptors we now own.
    unsafe { (std::fs::File::from_raw_fd(master), std::fs::File::from_raw_fd(slave)) }
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

impl Term {
    pub fn start(o: Opts) -> Term {
        let (master, slave) = openpty(o.cols, o.rows);
        let home = tempfile::tempdir().unwrap();
        // the meter can measure another build (a release binary, or an older one)
        let bin = std::env::var_os("ANIMSCOPE_METER_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_animscope").into());
        let mut cmd = Command::new(bin);
        cmd.args(&o.args).env_clear().current_dir(env!("CARGO_MANIFEST_DIR"));
        cmd.env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_STATE_HOME", home.path().join("state"))
            .env("PATH", std::env::var_os("PATH").unwrap_or_default());
        for (k, v) in &o.env {
            cmd.env(k, v);
        }
        let fd = |f: &std::fs::File| Stdio::from(OwnedFd::from(f.try_clone().unwrap()));
        cmd.stdin(fd(&slave)).stdout(fd(&slave)).stderr(fd(&slave));
        // SAFETY: async-signal-safe calls only, between fork and exec.
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(|| {
                libc::setsid();
                libc::ioctl(0, libc::TIOCSCTTY, 0);
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap();
        let start = Instant::now();
        let log = Arc::new(Mutex::new(Log::default()));
        let (mut rd, replies) = (master.try_clone().unwrap(), master.try_clone().unwrap());
        let (log2, answer, rate, margins) = (Arc::clone(&log), o.answer, o.rate, o.margins);
        std::thread::spawn(move || {
            let replies = Arc::new(Mutex::new(replies));
            let mut buf = vec![0u8; 65536];
            let mut scanned = 0;
            let mut cpr_scanned = 0;
            let mut decrqm_scanned = 0;
            loop {
                let want = rate.map_or(buf.len(), |r| (r / 50).max(1));
                let n = match rd.read(&mut buf[..want]) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                let mut l = log2.lock().unwrap();
                l.bytes.extend_from_slice(&buf[..n]);
                // a cursor position request (older builds asked): row 1, column 1
                if matches!(answer, Answer::After(_)) && find(&l.bytes, b"\x1b[6n", cpr_scanned).is_some() {
                    cpr_scanned = l.bytes.len();
                    let _ = replies.lock().unwrap().write_all(b"\x1b[1;1R");
                }
                // the margins query, after the same delay as the graphics query
                if let Answer::After(delay) = answer
                    && let Some(at) = find(&l.bytes, MARGINS_QUERY, decrqm_scanned)
                {
                    decrqm_scanned = at + MARGINS_QUERY.len();
                    let reply: &[u8] = if margins { b"\x1b[?69;2$y" } else { b"\x1b[?69;0$y" };
                    let w = Arc::clone(&replies);
                    std::thread::spawn(move || {
                        std::thread::sleep(delay);
                        let _ = w.lock().unwrap().write_all(reply);
                    });
                }
                // answer what arrived: the query after the delay, status requests at once
                while let Some(at) = find(&l.bytes, QUERY, scanned).or_else(|| find(&l.bytes, STATUS_REQUEST, scanned))
                {
                    let is_query = l.bytes[at..].starts_with(QUERY);
                    scanned = at + if is_query { QUERY.len() } else { STATUS_REQUEST.len() };
                    if is_query {
                        // the query's own status request is answered with the query
                        if let Some(s) = find(&l.bytes, STATUS_REQUEST, scanned) {
                            scanned = s + STATUS_REQUEST.len();
                        } else {
                            // its end not read yet: skip it when it comes
                            scanned = l.bytes.len();
                        }
                        l.query.get_or_insert((at, Instant::now()));
                    }
                    let Answer::After(delay) = answer else { continue };
                    let (w, log3) = (Arc::clone(&replies), Arc::clone(&log2));
                    let (bytes, delay): (&[u8], Duration) =
                        if is_query { (REPLY, delay) } else { (b"\x1b[0n", Duration::ZERO) };
                    std::thread::spawn(move || {
                        std::thread::sleep(delay);
                        let _ = w.lock().unwrap().write_all(bytes);
                        if is_query {
                            log3.lock().unwrap().replied = Some(Instant::now());
                        }
                    });
                }
                scanned = scanned.max(l.bytes.len().saturating_sub(QUERY.len()));
                drop(l);
                if let Some(r) = rate {
                    std::thread::sleep(Duration::from_secs_f64(n as f64 / r as f64));
                }
            }
        });
        Term { master, slave, child, log, start, _home: home }
    }

    /// Everything written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.log.lock().unwrap().bytes.clone()
    }

    pub fn len(&self) -> usize {
        self.log.lock().unwrap().bytes.len()
    }

    /// When the query was seen (offset of it in the output, time since start).
    pub fn query(&self) -> Option<(usize, Duration)> {
        self.log.lock().unwrap().query.map(|(at, t)| (at, t - self.start))
    }

    /// The `HOME` the binary runs with (its `XDG_CONFIG_HOME` is `config` in it).
    pub fn home(&self) -> &std::path::Path {
        self._home.path()
    }

    pub fn replied(&self) -> bool {
        self.log.lock().unwrap().replied.is_some()
    }

    /// Type `keys`.
    pub fn send(&mut self, keys: &[u8]) {
        self.master.write_all(keys).unwrap();
    }

    /// Wait until the output holds `text` (panics with the output after [`PATIENCE`]).
    pub fn wait_for(&self, text: &str) {
        let t = Instant::now();
        while t.elapsed() < PATIENCE {
            if find(&self.bytes(), text.as_bytes(), 0).is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("{text:?} never written: {:?}", String::from_utf8_lossy(&self.bytes()));
    }

    /// Wait until nothing was written for `quiet`; the bytes written so far.
    pub fn settle(&self, quiet: Duration) -> usize {
        let t = Instant::now();
        let mut last = (self.len(), Instant::now());
        while t.elapsed() < PATIENCE {
            std::thread::sleep(Duration::from_millis(10));
            let n = self.len();
            if n != last.0 {
                last = (n, Instant::now());
            } else if last.1.elapsed() >= quiet {
                return n;
            }
        }
        panic!("output never went quiet");
    }

    /// Bytes written for typing `keys` (until quiet for 200 ms).
    pub fn action(&mut self, keys: &[u8]) -> usize {
        let before = self.settle(Duration::from_millis(200));
        self.send(keys);
        self.settle(Duration::from_millis(200)) - before
    }

    /// Still running?
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Wait for the exit; its status.
    pub fn exit(&mut self) -> std::process::ExitStatus {
        let t = Instant::now();
        while t.elapsed() < PATIENCE {
            if let Some(s) = self.child.try_wait().unwrap() {
                // what it wrote last (the restore) is read before we look
                std::thread::sleep(Duration::from_millis(100));
                return s;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("never exited: {:?}", String::from_utf8_lossy(&self.bytes()));
    }

    /// The pty's line discipline is back in cooked mode with echo.
    pub fn cooked(&self) -> bool {
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: a valid fd and a termios to fill.
        let r = unsafe { libc::tcgetattr(self.slave.as_raw_fd(), &mut t) };
        r == 0 && t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0
    }

    pub fn signal(&self, sig: i32) {
        // SAFETY: kill(2) on our child's pid.
        unsafe {
            libc::kill(self.child.id() as i32, sig);
        }
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The text hinting at the help key: the status line is drawn (the frame is complete).
const FRAME_DONE: &str = "help";

/// Late, later and no replies: the first frame is out before any reply (the query comes
/// after it), the reply's bytes never reach a key binding (its `q` would quit, its `e`
/// open the export prompt) nor an open prompt, and `q` quits.
fn replies_are_never_keys(answer: Answer) {
    let mut t = Term::start(Opts { answer, margins: true, ..Opts::default() });
    t.wait_for(FRAME_DONE);
    // a hang guard, not a speed target (the figure is in benches/README.md): the frame
    // waits for no reply, so it comes as soon as the file is open
    let first = t.start.elapsed();
    eprintln!("{answer:?}: first frame seen after {first:?}");
    assert!(first < Duration::from_secs(10), "{first:?}");
    t.wait_for("\x1b[>q");
    let (at, when) = t.query().unwrap();
    let out = t.bytes();
    let frame_at = find(&out, FRAME_DONE.as_bytes(), 0).unwrap();
    assert!(frame_at < at, "the first frame is written before the query");
    eprintln!("{answer:?}: query (after the first frame) at {when:?}");
    // a prompt open while the reply arrives
    t.send(b"g");
    t.wait_for("goto");
    let delay = match answer {
        Answer::After(d) => d,
        Answer::Never => Duration::from_millis(500),
    };
    let t0 = Instant::now();
    while t0.elapsed() < delay + Duration::from_millis(400) && !(matches!(answer, Answer::After(_)) && t.replied()) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mark = t.settle(Duration::from_millis(300));
    assert!(t.running(), "a reply ended the TUI: {:?}", String::from_utf8_lossy(&t.bytes()[at..]));
    let after = t.bytes()[mark.min(t.len())..].to_vec();
    let since_query = String::from_utf8_lossy(&t.bytes()[at..]).into_owned();
    for leaked in ["XTerm", "390", "63;1", "17;9", "$y"] {
        assert!(!since_query.contains(leaked), "reply text {leaked:?} reached the screen: {since_query:?}");
    }
    assert!(after.is_empty(), "{after:?}");
    // Esc closes the prompt, q quits
    t.send(b"\x1b");
    std::thread::sleep(Duration::from_millis(150));
    t.send(b"q");
    let s = t.exit();
    assert!(s.success(), "{s:?}: {:?}", String::from_utf8_lossy(&t.bytes()[at..]));
}

#[test]
fn replies_at_once_are_never_keys() {
    replies_are_never_keys(Answer::After(Duration::ZERO));
}

#[test]
fn replies_after_300ms_are_never_keys() {
    replies_are_never_keys(Answer::After(Duration::from_millis(300)));
}

#[test]
fn no_reply_costs_nothing_but_graphics() {
    replies_are_never_keys(Answer::Never);
}

#[test]
#[ignore = "waits for a reply a second late"]
fn replies_after_1s_are_never_keys() {
    replies_are_never_keys(Answer::After(Duration::from_secs(1)));
}

#[test]
#[ignore = "waits for a reply three seconds late"]
fn replies_after_3s_are_never_keys() {
    replies_are_never_keys(Answer::After(Duration::from_secs(3)));
}

/// Class 16 of issue 51: SIGUSR1, SIGUSR2 and SIGALRM restore the terminal (cooked mode,
/// main screen, cursor shown) and end with 128 + the signal.
#[test]
fn other_terminating_signals_restore_the_terminal() {
    for sig in [libc::SIGUSR1, libc::SIGUSR2, libc::SIGALRM] {
        let mut t = Term::start(Opts::default());
        t.wait_for(FRAME_DONE);
        assert!(!t.cooked(), "raw while the TUI runs");
        t.signal(sig);
        let s = t.exit();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(s.code(), Some(128 + sig), "signal {sig}: {s:?} (signal {:?})", s.signal());
        assert!(t.cooked(), "signal {sig}: the tty is back in cooked mode with echo");
        let out = t.bytes();
        let left = out.windows(8).rposition(|w| w == b"\x1b[?1049l");
        let shown = out.windows(6).rposition(|w| w == b"\x1b[?25h");
        assert!(left.is_some() && shown.is_some(), "signal {sig}: main screen and cursor back");
    }
}

/// Class 19 of issue 51, in the real binary: the layout builder's save (`U`) to a name
/// whose file exists in the user's layouts folder asks first; `n` keeps the file as it
/// was, `y` replaces it. Fails if the save replaces the file without the question.
#[test]
fn the_builder_asks_before_replacing_a_layout_file() {
    let mut t =
        Term::start(Opts { cols: 160, rows: 30, args: vec!["fixtures/ccsf/particle.cmp".into()], ..Opts::default() });
    let dir = t.home().join("config/animscope/layouts");
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("mine.toml");
    let theirs = "# the user's own layout\n";
    std::fs::write(&saved, theirs).unwrap();
    t.wait_for(FRAME_DONE);
    // at the Particle chunk's payload (0xdc), add `u32 count`, then save as `mine`
    t.action(b"g0xdc\r");
    t.action(b"uu32 count\r");
    t.action(b"Umine\r");
    t.wait_for("(y/n)");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), theirs, "replaced before the answer");
    t.action(b"n\r");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), theirs, "replaced after n");
    t.action(b"Umine\r");
    t.action(b"y\r");
    let deadline = Instant::now() + PATIENCE;
    while !std::fs::read_to_string(&saved).unwrap().contains("name = \"count\"") {
        assert!(Instant::now() < deadline, "not replaced after y: {:?}", String::from_utf8_lossy(&t.bytes()));
        std::thread::sleep(Duration::from_millis(20));
    }
    t.send(b"q");
    assert!(t.exit().success());
}

/// The fixture the byte figures are taken on: a synthetic MOTN file with ten sequences.
const MOTN: &str = "fixtures/motn/multi.mot";

#[path = "../../benches/common/motn_real.rs"]
#[allow(dead_code)]
mod motn_real;

/// A MOTN file shaped like the real `MOTION.BIN` (1,559 names, 1,319 sequences; written by
/// the project's writer under target/bench-data on first use), and a standard sequence in it.
fn real_motn() -> (String, String) {
    (motn_real::motn_real_path(1).display().to_string(), motn_real::middle_name())
}

/// Writes the real-shaped MOTN file for `tools/tui-bytes.py` and prints its path.
#[test]
#[ignore = "writes target/bench-data/motn_real_1x.bin (a second or two)"]
fn write_real_motn() {
    let (path, seq) = real_motn();
    println!("{path} {seq}");
}

fn pgdn() -> &'static [u8] {
    b"\x1b[6~"
}

/// What the byte figures are taken on, and how the terminal answers.
struct Meter {
    cols: u16,
    rows: u16,
    env: Vec<(&'static str, &'static str)>,
    /// The file, and a sequence in it (a MOTN file) or None (a CCSF scene: walk steps).
    file: String,
    seq: Option<String>,
    margins: bool,
    idle_for: Duration,
}

impl Meter {
    /// At `cols`×`rows` on the real-shaped MOTN file, the terminal answering at once.
    fn motn(cols: u16, rows: u16, margins: bool) -> Meter {
        let (file, seq) = real_motn();
        Meter {
            cols,
            rows,
            env: Opts::default().env,
            file,
            seq: Some(seq.to_lowercase()),
            margins,
            idle_for: Duration::from_millis(1300),
        }
    }
}

/// Bytes per action: (name, bytes; the largest of three where an action repeats).
fn measure(m: &Meter) -> Vec<(&'static str, usize)> {
    let (cols, rows) = (m.cols, m.rows);
    let mut t = Term::start(Opts {
        cols,
        rows,
        env: m.env.clone(),
        args: vec![m.file.clone()],
        margins: m.margins,
        ..Opts::default()
    });
    t.wait_for(FRAME_DONE);
    // everything up to the first quiet moment (the queries and their replies included)
    let first = t.settle(Duration::from_millis(300));
    std::thread::sleep(m.idle_for);
    let idle = t.len() - first;
    let mut v = vec![("first frame", first), ("idle", idle)];
    let most = |t: &mut Term, keys: &[u8]| (0..3).map(|_| t.action(keys)).max().unwrap_or(0);
    if m.seq.is_none() {
        t.action(b"5");
        t.action(b"w");
        t.action(b")");
        v.push(("walk step", most(&mut t, b")")));
        t.action(b"w");
    }
    // the hex pane: to its last visible row, then one row more (scrolls one row)
    t.action(b"2");
    t.action(&vec![b'j'; usize::from(rows)]);
    v.push(("hex j, one-row scroll", most(&mut t, b"j")));
    v.push(("hex PgDn", t.action(pgdn())));
    // zoomed to the whole width: the same in a scroll region
    t.action(b"z");
    t.action(&vec![b'j'; usize::from(rows)]);
    v.push(("hex zoomed j, one-row scroll", most(&mut t, b"j")));
    v.push(("hex zoomed PgDn", t.action(pgdn())));
    t.action(b"z");
    if let Some(seq) = &m.seq {
        // a sequence's curves, one frame step
        t.action(b"g");
        t.action(format!("{seq}\r").as_bytes());
        // an edit of the field under the hex cursor on the sequence's key rows (fields
        // pane, `c`, the value cleared and typed): Enter keeps it, ctrl-z takes it back
        t.action(b"2");
        t.action(&vec![b'j'; usize::from(rows) + 10]);
        t.action(b"3");
        t.action(b"c");
        t.action(b"\x15");
        t.action(b"1");
        v.push(("edit Enter", t.action(b"\r")));
        t.action(b"\x1a");
        t.action(b"4");
        // the first steps fill the value table once the clip has arrived
        t.action(b".");
        t.settle(Duration::from_millis(500));
        t.action(b".");
        v.push(("decode frame step", most(&mut t, b".")));
        // pose playback for two seconds
        t.action(b"P");
        let before = t.settle(Duration::from_millis(200));
        t.send(b"p");
        std::thread::sleep(Duration::from_secs(2));
        t.send(b"p");
        v.push(("pose playback, 2 s", t.settle(Duration::from_millis(300)) - before));
    }
    t.send(b"q");
    assert!(t.exit().success());
    v
}

/// Issue 48's worst cases through the pty at 200×60 on the real-shaped MOTN file, on a
/// terminal with left/right margins: nothing is written while idle, and each action stays
/// under its ceiling. The ceilings guard what was reached (measured: first frame 13.3 KB,
/// one-row scroll 1.02–1.05 KB, zoomed 0.65–0.68 KB, frame step 0.31–0.34 KB with the
/// list's values in one column, an edit's Enter 0.9 KB with the decode pane keeping its
/// clip while it is decoded again; benches/runs/notes-2026-12-07.md), with
/// room for the cursor landing on other bytes; issue 48's targets are lower. The hex pane's
/// ASCII column in one colour per class again, the frame cursor down the whole plot, or a
/// frame drawn after an edit before the view is built (the hex rows shown unparsed, then
/// parsed: 25 KB for that Enter), the decode pane drawn whole again after an edit (2.9 KB)
/// or the list's values and degrees rewritten a step (0.53 KB) would break them.
#[test]
fn bytes_per_action_stay_under_the_ceilings() {
    let m = measure(&Meter::motn(200, 60, true));
    let get = |name: &str| m.iter().find(|(n, _)| *n == name).map(|x| x.1).unwrap();
    eprintln!("{m:?}");
    assert_eq!(get("idle"), 0, "{m:?}");
    for (name, ceiling) in [
        ("first frame", 14_500),
        ("hex j, one-row scroll", 1_200),
        ("hex zoomed j, one-row scroll", 800),
        ("decode frame step", 420),
        ("edit Enter", 2_000),
    ] {
        assert!(get(name) <= ceiling, "{name}: {} > {ceiling}: {m:?}", get(name));
    }
}

/// The byte meter: bytes per action at 80×24 and 200×60 on the real-shaped MOTN file and a
/// CCSF scene, colour (with and without left/right margins) and `--low-bandwidth` (rows of
/// benches/README.md).
#[test]
#[ignore = "the byte meter (prints a table; a few minutes)"]
fn byte_meter() {
    for (cols, rows) in [(80u16, 24u16), (200, 60)] {
        for (what, extra, margins) in [
            ("colour, no margins", None, false),
            ("colour, margins", None, true),
            ("low bandwidth", Some(("ANIMSCOPE_LOW_BANDWIDTH", "1")), false),
        ] {
            let mut m = Meter::motn(cols, rows, margins);
            m.env.extend(extra);
            m.idle_for = Duration::from_secs(3);
            for (name, n) in measure(&m) {
                println!("{cols}x{rows} MOTION-shaped {what}: {name}: {n}");
            }
            let ccsf = Meter { file: "fixtures/ccsf/g123.ccs".into(), seq: None, ..m };
            for (name, n) in measure(&ccsf) {
                println!("{cols}x{rows} CCSF g123 {what}: {name}: {n}");
            }
        }
    }
}

/// At 960 bytes a second (9600 baud), 5 s of pose playback then pause: how long after the
/// pause the screen is still.
fn still_after_pause(answer: Answer) -> Duration {
    still_after_pause_on(MOTN, "tmn_bag", answer)
}

/// The same on `file`'s sequence `seq`.
fn still_after_pause_on(file: &str, seq: &str, answer: Answer) -> Duration {
    let mut t = Term::start(Opts { args: vec![file.into()], rate: Some(960), answer, ..Opts::default() });
    t.wait_for(FRAME_DONE);
    t.settle(Duration::from_millis(500));
    let goto = format!("{seq}\r");
    for keys in [&b"g"[..], goto.as_bytes(), b"P"] {
        t.send(keys);
        t.settle(Duration::from_millis(500));
    }
    t.send(b"p");
    std::thread::sleep(Duration::from_secs(5));
    let paused = Instant::now();
    t.send(b"p");
    // the last byte of the animation
    let mut last = (t.len(), Instant::now());
    while last.1.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(20));
        if t.len() != last.0 {
            last = (t.len(), Instant::now());
        }
    }
    t.send(b"q");
    t.exit();
    last.1.saturating_duration_since(paused)
}

/// At 960 B/s, pausing pose playback: the screen is still soon after (frames wait for the
/// terminal's answer to a status request sent after the previous one, so no backlog builds).
#[test]
#[ignore = "reads at 960 B/s for about half a minute"]
fn playback_keeps_up_with_a_slow_link() {
    let still_after = still_after_pause(Answer::After(Duration::ZERO));
    println!("960 B/s: the screen still {still_after:?} after pause");
    assert!(still_after <= Duration::from_millis(1500), "{still_after:?}");
}

/// The same on a terminal that never answers: the fallback (a frame whose write blocked
/// holds the next back) only bounds the backlog to what the pty's buffer holds.
#[test]
#[ignore = "reads at 960 B/s for about half a minute"]
fn playback_on_a_slow_link_that_never_answers() {
    let still_after = still_after_pause(Answer::Never);
    println!("960 B/s, no answers: the screen still {still_after:?} after pause");
    assert!(still_after <= Duration::from_secs(20), "{still_after:?}");
}

/// A link the playback saturates: the real-shaped MOTN file's pose at 80×24 writes several
/// KB a second where the link takes 960 B/s (with `multi.mot` above the frames do not fill
/// it). Frames wait for the answer to a status request sent after the previous one, so the
/// screen is still within a second of the pause.
#[test]
#[ignore = "reads at 960 B/s for about half a minute"]
fn playback_on_a_saturated_link_keeps_up() {
    let (file, seq) = real_motn();
    let still_after = still_after_pause_on(&file, &seq.to_lowercase(), Answer::After(Duration::ZERO));
    println!("960 B/s saturated: the screen still {still_after:?} after pause");
    assert!(still_after <= Duration::from_secs(1), "{still_after:?}");
}

/// The same on a terminal that never answers: only the write-time fallback paces the
/// frames, and a write blocks only once the pty's buffer is full (about 17 KB in raw mode on
/// Linux, 18 s at 960 B/s; over SSH the channel's window is larger still), so the backlog
/// is bounded by that buffer, not by a second.
#[test]
#[ignore = "reads at 960 B/s for about a minute"]
fn playback_on_a_saturated_link_that_never_answers() {
    let (file, seq) = real_motn();
    let still_after = still_after_pause_on(&file, &seq.to_lowercase(), Answer::Never);
    println!("960 B/s saturated, no answers: the screen still {still_after:?} after pause");
    assert!(still_after <= Duration::from_secs(25), "{still_after:?}");
}

/// `TERM=dumb` refuses with one line naming the verbs; `TERM=vt100` never gets a 256- or
/// 24-bit colour code; `LANG=C` gets no byte ≥ 0x80 (the first frame, a sequence's curves
/// and its pose).
#[test]
fn the_terminal_type_and_locale_are_honoured() {
    let mut t = Term::start(Opts { env: vec![("TERM", "dumb")], args: vec![MOTN.into()], ..Opts::default() });
    let s = t.exit();
    assert_eq!(s.code(), Some(2));
    let out = String::from_utf8_lossy(&t.bytes()).into_owned();
    assert!(out.contains("tree, hex, fields, decode, plot, pose and export"), "{out:?}");
    assert_eq!(out.trim_end().lines().count(), 1, "{out:?}");
    assert!(!out.contains('\x1b'), "{out:?}");
    for (env, bad) in [
        (vec![("TERM", "vt100"), ("LANG", "C.UTF-8")], "vt100"),
        (vec![("TERM", "xterm-256color"), ("LANG", "C")], "LANG=C"),
    ] {
        let mut t = Term::start(Opts { env, args: vec![MOTN.into()], ..Opts::default() });
        t.wait_for(FRAME_DONE);
        for keys in [&b"g"[..], b"tmn_bag\r", b"P", b"p"] {
            t.action(keys);
        }
        t.send(b"q");
        assert!(t.exit().success());
        let out = t.bytes();
        if bad == "vt100" {
            let s = String::from_utf8_lossy(&out);
            assert!(
                !s.contains("38;5;") && !s.contains("48;5;") && !s.contains("38;2;") && !s.contains("48;2;"),
                "{bad}"
            );
        } else {
            let at = out.iter().position(|&b| b >= 0x80);
            assert!(at.is_none(), "{bad}: {:?}", String::from_utf8_lossy(&out[at.unwrap().saturating_sub(80)..]));
        }
    }
}

/// Bytes the TUI's backend writes in process (no pty), frame by frame.
mod in_process {
    use animscope::limits::Limits;
    use animscope::session::Opened;
    use animscope::source::Source;
    use animscope::tui::screen::{Caps, Screen};
    use animscope::tui::{Action, App, Config};
    use ratatui::Terminal;
    use ratatui::layout::Size;
    use std::sync::Arc;

    #[derive(Clone, Default)]
    struct Count(std::rc::Rc<std::cell::Cell<usize>>);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.set(self.0.get() + b.len());
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn app(file: &str) -> App {
        let data = std::fs::read(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let src = Arc::new(Source::from_vec(file.rsplit('/').next().unwrap(), data));
        App::new(Opened::from_source(src, None, &Limits::default(), Vec::new()).unwrap(), Config::default())
    }

    fn frame(t: &mut Terminal<Screen<Count>>, app: &mut App, c: &Count) -> usize {
        let before = c.0.get();
        // the columns between panes, as the UI loop tells the backend before each frame
        t.backend_mut().set_pane_edges(app.pane_edges(ratatui::layout::Rect::new(0, 0, 200, 60)));
        t.draw(|f| animscope::tui::draw(app, f)).unwrap();
        c.0.get() - before
    }

    fn terminal(c: &Count) -> Terminal<Screen<Count>> {
        Terminal::new(Screen::with_size(c.clone(), Caps::default(), Size { width: 200, height: 60 })).unwrap()
    }

    /// Issue 48's ceilings at 200×60: the hex pane zoomed to the whole width scrolls one row
    /// in ≤ 300 bytes on `demo.bin` (a scroll region; measured 233, issue 48 asks 500), an
    /// unchanged frame writes nothing.
    #[test]
    fn a_zoomed_hex_pane_scrolls_one_row_in_a_scroll_region() {
        let c = Count::default();
        let mut t = terminal(&c);
        let mut app = app("fixtures/demo.bin");
        app.apply(Action::FocusHex);
        app.apply(Action::Zoom);
        frame(&mut t, &mut app, &c);
        let top = app.hex.top_row(app.sel.0);
        let mut scroll = None;
        for _ in 0..200 {
            app.apply(Action::Down);
            let n = frame(&mut t, &mut app, &c);
            if app.hex.top_row(app.sel.0) == top + 1 {
                scroll = Some(n);
                break;
            }
        }
        let scroll = scroll.expect("the view scrolled one row");
        eprintln!("zoomed one-row scroll: {scroll} bytes");
        assert!(t.backend().rows_scrolled() >= 1, "the terminal scrolled the rows");
        assert!(scroll <= 300, "{scroll}");
        assert_eq!(frame(&mut t, &mut app, &c), 0, "an unchanged frame writes nothing");
    }

    /// A frame step in the decode pane at 200×60: ≤ 250 bytes (issue 48 asks 400; this
    /// sequence's steps measured 144–156, 393–469 while the frame cursor was drawn down the
    /// whole plot, 1,260 before that). The first step after the clip arrives also fills
    /// the value table: ≤ 1,400 (measured 1,060).
    #[test]
    fn a_frame_step_is_a_few_hundred_bytes() {
        let c = Count::default();
        let mut t = terminal(&c);
        let mut app = app("fixtures/motn/multi.mot");
        let node = app.cur().doc().nodes.iter().find(|n| n.anim.is_some()).map(|n| n.id).expect("a sequence");
        app.select_node(0, node, false);
        app.wait_idle();
        app.poll_jobs();
        app.apply(Action::FocusDecode);
        // settle: background results that change the screen (under load they can arrive
        // after the first draw) are drawn before the steps are counted
        for _ in 0..20 {
            app.wait_idle();
            app.poll_jobs();
            if frame(&mut t, &mut app, &c) == 0 {
                break;
            }
        }
        let steps: Vec<usize> = (0..4)
            .map(|_| {
                app.apply(Action::FrameNext);
                // what background work the step started is in the frame (not a later one)
                app.wait_idle();
                app.poll_jobs();
                frame(&mut t, &mut app, &c)
            })
            .collect();
        eprintln!("frame steps: {steps:?} bytes");
        assert!(steps[0] <= 1_400, "{steps:?}");
        assert!(steps[1..].iter().all(|&n| n > 0 && n <= 250), "{steps:?}");
    }
}
