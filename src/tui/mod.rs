//! The interactive inspector (ratatui + crossterm + tui-tree-widget + textplots).
//!
//! Built as components: a [`workspace`] (the opened documents, nested members, loads in
//! progress), one [`jobs`] runner for background work (opening archive members, decoding
//! clips, hashing for bookmarks, the background member listing; results reach the UI loop
//! through one channel, so input never blocks), and one struct per pane (Tree, Hex,
//! Fields, Decode, Walk, Diagnostics) that owns its state, handles its own actions and
//! draws from `&self`. [`App`] is the glue: it routes keys and mouse to the focused pane,
//! applies what panes ask for, runs the prompts and composes the screen with a status
//! line, a help overlay generated from the keymap and a prompt line. Every key becomes a
//! typed [`Action`] through the [`Keymap`].
//!
//! Terminal hygiene: raw mode and the alternate screen are undone on quit, on error, on
//! panic (a panic hook restores first) and on every catchable signal whose default ends
//! the process (SIGINT/SIGTERM/SIGHUP/SIGQUIT, SIGUSR1/SIGUSR2, SIGALRM, SIGVTALRM,
//! SIGPROF, SIGXCPU, SIGXFSZ: exit 128 + signal); SIGTSTP restores the terminal and stops the process, SIGCONT takes the
//! terminal back and redraws the whole screen; events are drained in batches and each batch is
//! rendered once inside a synchronized update; only key presses count; mouse capture is
//! off until toggled; `NO_COLOR` selects a modifiers-only theme.
//!
//! Over a slow link (issue 48): the first frame is drawn at once; the terminal is asked
//! about graphics and left/right margins (DECRQM, not under tmux or screen) only after it
//! and never about the cursor; input is read by our own
//! [`input`] reader, which keeps the terminal's replies apart from keys for the whole run;
//! the [`screen`] backend writes only what changed, in the shortest codes, scrolling rows
//! in the terminal where it can; during playback a frame is drawn only once the terminal
//! has answered a status request sent after the previous one (so a slow link shows fewer
//! frames, never a backlog), or, where the terminal never answers, after a pause as long
//! as the last write blocked; `TERM=dumb` is refused, vt100-class terminals get 16
//! colours, a non-UTF-8 locale ASCII, and `--low-bandwidth` (or its key) no colours.

pub mod action;
pub mod app;
pub mod bookmarks;
pub mod channels;
pub mod clipboard;
mod commands;
pub mod component;
pub mod decode;
pub mod diagnostics;
pub mod diffview;
pub mod edits;
pub mod export;
pub mod fields;
pub mod find;
pub mod graphics;
pub mod help;
pub mod hex;
pub mod input;
pub mod jobs;
pub mod jumps;
pub mod keymap;
pub mod layout;
mod layout_builder;
mod lazy;
pub mod messages;
pub mod pose;
pub mod prompt;
pub mod screen;
pub mod search;
mod selection;
pub mod status;
pub mod texture;
pub mod theme;
pub mod tree;
pub mod walk;
pub mod wireframe;
pub mod workspace;

pub use action::Action;
pub use app::{App, Config, Load, Pane};
pub use keymap::Keymap;

use crate::session::Opened;
use crossterm::event::{DisableMouseCapture, EnableMouseCapture, MouseEventKind};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use crossterm::{cursor, execute};
use input::Input;
use ratatui::Terminal;
use ratatui::layout::Rect;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

/// Held while the UI thread writes a frame and while the signal thread gives the terminal
/// back or takes it again, so no half frame lands on the restored screen.
static TERMINAL: Mutex<()> = Mutex::new(());
/// The TUI owns the terminal (set after entering, cleared by [`Guard`]): signals after the
/// TUI ended do not take the terminal again.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Mouse capture is on (to turn it back on after a resume).
static MOUSE: AtomicBool = AtomicBool::new(false);
/// The screen must be cleared and drawn whole (set on resume).
static REDRAW: AtomicBool = AtomicBool::new(false);
/// `--low-bandwidth` was given.
static LOW_BANDWIDTH: AtomicBool = AtomicBool::new(false);

/// Start the TUI in the low-bandwidth mode (the `--low-bandwidth` flag; also
/// `ANIMSCOPE_LOW_BANDWIDTH=1`, and a key toggles it): no colours, no synchronized-update
/// brackets, and the status line says so.
pub fn set_low_bandwidth(on: bool) {
    LOW_BANDWIDTH.store(on, Ordering::SeqCst);
}

/// Why the TUI will not run on this terminal (`TERM` unset or `dumb`), as the one line to
/// print: the CLI verbs that do the same work are named.
pub fn terminal_refusal() -> Option<String> {
    screen::refusal(&|k| std::env::var(k).ok())
}

/// Bytes that ask the terminal to report its status (`ESC [ 0 n` comes back once all
/// that was written before has reached it).
const STATUS_REQUEST: &[u8] = b"\x1b[5n";
/// The status report.
const STATUS_OK: &[u8] = b"\x1b[0n";
/// DECRQM: does the terminal have left/right margin mode (69)?
const MARGINS_QUERY: &[u8] = b"\x1b[?69$p";

/// The answer to [`MARGINS_QUERY`]: whether the mode can be set (1 set, 2 reset; 0 not
/// recognised, 3/4 permanently set/reset); None for another reply.
fn margins_reply(seq: &[u8]) -> Option<bool> {
    let v = seq.strip_prefix(b"\x1b[?69;")?.strip_suffix(b"$y")?;
    Some(matches!(v, b"1" | b"2"))
}

/// A frame whose write blocked this long means the link is behind (the fallback for
/// terminals that do not answer status requests: see the UI loop).
const WRITE_BLOCKED: Duration = Duration::from_millis(40);

/// A drain probe unanswered this long is taken as lost (frames go on).
const PROBE_LOST: Duration = Duration::from_secs(3);
/// A frame whose drain probe took longer than this means a slow link (said on the status
/// line, with the key of the low-bandwidth mode).
const SLOW_LINK: Duration = Duration::from_millis(400);

/// The terminal lock for the UI thread (a poisoned lock is still a lock).
fn lock_terminal() -> MutexGuard<'static, ()> {
    TERMINAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The terminal lock for the signal thread: waits up to half a second, then goes on
/// without it, so a UI thread stuck in a write (output paused with XOFF) cannot keep a
/// signal from restoring the terminal and ending the process.
fn try_lock_terminal() -> Option<MutexGuard<'static, ()>> {
    for _ in 0..50 {
        match TERMINAL.try_lock() {
            Ok(g) => return Some(g),
            Err(TryLockError::Poisoned(p)) => return Some(p.into_inner()),
            Err(TryLockError::WouldBlock) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    None
}

/// Draw the whole screen for `app` into a frame and keep what was drawn where (used by
/// the loop, tests and benches).
pub fn draw(app: &mut App, f: &mut ratatui::Frame) {
    app.prepare_view();
    let layout = app.draw(f);
    app.set_layout(layout);
}

fn restore() {
    crate::source::sigbus_net::tui_holds_terminal(false);
    let _ = disable_raw_mode();
    let mut out = std::io::stdout();
    // a frame cut short may have left a scroll region or attributes set
    let _ = out.write_all(b"\x1b[r\x1b[0m");
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
}

/// Take the terminal (again, after a resume): raw mode (reset first: the shell may have
/// changed the modes while we were stopped), alternate screen, hidden cursor, and mouse
/// capture when it was on.
fn enter() {
    let _ = disable_raw_mode();
    crate::source::sigbus_net::tui_holds_terminal(true);
    let _ = enable_raw_mode();
    let mut out = std::io::stdout();
    let _ = execute!(out, EnterAlternateScreen, cursor::Hide);
    if MOUSE.load(Ordering::SeqCst) {
        let _ = execute!(out, EnableMouseCapture);
    }
    let _ = out.flush();
}

/// Restores the terminal when dropped (quit and error paths).
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        let _t = try_lock_terminal();
        ACTIVE.store(false, Ordering::SeqCst);
        restore();
    }
}

/// The signal thread: SIGINT/SIGTERM/SIGHUP/SIGQUIT (and the other terminating signals)
/// restore the terminal and exit with 128 + signal (the default action would leave raw mode and the alternate screen on);
/// SIGTSTP restores it and stops the process (SIGSTOP); on SIGCONT (after our own stop or
/// anyone's SIGSTOP) the terminal is taken again and the whole screen redrawn. A thread of
/// its own because the UI thread may be blocked in a write to a terminal that stopped
/// reading (output paused, a dead link).
fn handle_signals(mut signals: signal_hook::iterator::Signals) {
    use signal_hook::consts::{SIGCONT, SIGSTOP, SIGTSTP, SIGWINCH};
    let resume = || {
        enter();
        REDRAW.store(true, Ordering::SeqCst);
        // Wake the UI thread out of its wait: the winch thread turns SIGWINCH into a
        // resize event, and the loop then draws the whole screen.
        let _ = signal_hook::low_level::raise(SIGWINCH);
    };
    // The SIGCONT that ended our own stop finds the terminal already taken back.
    let mut own_cont = false;
    for sig in signals.forever() {
        match sig {
            SIGTSTP => {
                let t = try_lock_terminal();
                let active = ACTIVE.load(Ordering::SeqCst);
                if active {
                    restore();
                }
                let _ = signal_hook::low_level::raise(SIGSTOP);
                // Continued: take the terminal back before the UI thread may draw again.
                if active && ACTIVE.load(Ordering::SeqCst) {
                    resume();
                    own_cont = true;
                }
                drop(t);
            }
            SIGCONT if std::mem::take(&mut own_cont) => {}
            SIGCONT => {
                // After a SIGSTOP we did not see (kill -STOP): the shell may have reset the
                // terminal meanwhile.
                let _t = try_lock_terminal();
                if ACTIVE.load(Ordering::SeqCst) {
                    resume();
                }
            }
            _ => {
                let _t = try_lock_terminal();
                if ACTIVE.load(Ordering::SeqCst) {
                    restore();
                }
                std::process::exit(128 + sig);
            }
        }
    }
}

/// Run the TUI on an opened document until the user quits.
pub fn run(opened: Opened, keymap: Option<&Path>) -> std::io::Result<()> {
    run_with(opened, None, keymap)
}

/// Run the TUI in diff mode: `a` compared with `b` ([`diffview`]).
pub fn run_diff(a: Opened, b: Opened, keymap: Option<&Path>) -> std::io::Result<()> {
    run_with(a, Some(b), keymap)
}

/// The process environment, as the terminal checks read it.
fn env(k: &str) -> Option<String> {
    std::env::var(k).ok()
}

/// The terminal's abilities as frames are written: all of them, or in the low-bandwidth
/// mode no colours and no synchronized-update brackets.
fn caps_for(full: screen::Caps, low: bool) -> screen::Caps {
    if low { screen::Caps { colours: screen::Colours::Mono, sync: false, ..full } } else { full }
}

fn run_with(opened: Opened, diff: Option<Opened>, keymap: Option<&Path>) -> std::io::Result<()> {
    if let Some(why) = screen::refusal(&env) {
        return Err(std::io::Error::other(why));
    }
    let low_bandwidth = LOW_BANDWIDTH.load(Ordering::SeqCst)
        || env("ANIMSCOPE_LOW_BANDWIDTH").is_some_and(|v| !v.is_empty() && v != "0");
    let full_theme = theme::Theme::from_env();
    let mut app = new_app(opened, diff, keymap, low_bandwidth, full_theme)?;
    let full_caps = screen::Caps::from_env(&env);
    install_panic_hook();
    // Saved before raw mode: a SIGBUS on a mapped input puts these modes back.
    crate::source::sigbus_net::tui_holds_terminal(true);
    enable_raw_mode()?;
    let _guard = Guard;
    let mut stdout = std::io::stdout();
    execute!(stdout, EnterAlternateScreen, cursor::Hide)?;
    // Nothing is asked before the first frame: the graphics query goes out after it, and
    // the position of the cursor is never asked (the backend tracks it).
    let mut term = Terminal::new(screen::Screen::new(std::io::stdout(), caps_for(full_caps, low_bandwidth)))?;
    term.clear()?;
    MOUSE.store(false, Ordering::SeqCst);
    ACTIVE.store(true, Ordering::SeqCst);
    let rx = spawn_threads(&app)?;
    let mut ui = Ui {
        term,
        full_caps,
        low_bandwidth,
        full_theme,
        detection: graphics::Detection::default(),
        asked: false,
        answers_status: false,
        probe: None,
        slow_link: false,
        held_until: None,
        dirty: true,
        mouse_on: false,
    };
    ui.run(&mut app, &rx)?;
    drop(ui);
    // The process ends after this: its exit frees the documents at once, where dropping
    // them frees every node and field one by one (about 1 ms for a 1.7 MB MOTN file).
    std::mem::forget(std::mem::take(&mut app.workspace.docs));
    Ok(())
}

/// The app on `opened` (comparing it with `diff` in diff mode), with the user's keymap and
/// `keymap` (what is wrong with them said on stderr) and the state and layout folders.
fn new_app(
    opened: Opened,
    diff: Option<Opened>,
    keymap: Option<&Path>,
    low_bandwidth: bool,
    full_theme: theme::Theme,
) -> std::io::Result<App> {
    let user = Keymap::user_path();
    // Side files are read within the command's budget, as the input was opened.
    let (km, messages) = Keymap::load(user.as_deref(), keymap, opened.limits().max_side_file);
    for m in &messages {
        crate::say!("animscope: {m}")?;
    }
    let cfg = Config {
        keymap: km,
        theme: if low_bandwidth { theme::Theme::mono() } else { full_theme },
        state_dir: bookmarks::default_state_dir(),
        layouts_dir: crate::layout::LayoutSet::user_dir(),
        project_layouts_dir: std::env::current_dir().ok().map(|d| d.join("layouts")),
        messages,
        // not `..Config::default()`: that parses the shipped keymap once more (0.5 ms)
        listing_step: app::LISTING_STEP,
    };
    let mut app = App::new(opened, cfg);
    if let Some(b) = diff {
        app.start_diff(b);
    }
    app.low_bandwidth = low_bandwidth;
    Ok(app)
}

/// A panic on the UI thread restores the terminal before the usual report.
fn install_panic_hook() {
    let prev_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // Background workers catch their own panics and report them in the UI; only a
        // panic on the UI thread ends the program, so only then restore and print.
        if std::thread::current().name() == Some(app::WORKER) {
            return;
        }
        restore();
        prev_hook(info);
    }));
}

/// The threads beside the UI: signals (restore, stop, resume), the input reader (replies
/// to queries never become keys) and window changes; input and resizes arrive on the
/// channel returned.
fn spawn_threads(app: &App) -> std::io::Result<std::sync::mpsc::Receiver<input::Event>> {
    use signal_hook::consts::{
        SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGPROF, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2, SIGVTALRM, SIGWINCH,
        SIGXCPU, SIGXFSZ,
    };
    // Every catchable signal whose default ends the process (issue 51, class 16).
    let signals = signal_hook::iterator::Signals::new([
        SIGTERM, SIGHUP, SIGQUIT, SIGINT, SIGTSTP, SIGCONT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
        SIGXFSZ,
    ])?;
    std::thread::Builder::new().name("signals".into()).spawn(move || handle_signals(signals))?;
    let (tx, rx) = std::sync::mpsc::channel();
    input::spawn_reader(input::Parser::new(input::alt_chars(&app.keymap)), tx.clone())?;
    let mut winch = signal_hook::iterator::Signals::new([SIGWINCH])?;
    std::thread::Builder::new().name("winch".into()).spawn(move || {
        for _ in winch.forever() {
            if tx.send(input::Event::Resize).is_err() {
                return;
            }
        }
    })?;
    Ok(rx)
}

/// How long the loop waits for input before it draws again: a frame of the clip at its
/// rate while it plays, often while the member listing or other background work runs
/// (to show progress), else once a second.
fn wait_time(app: &App) -> Duration {
    if app.pose.is_playing() {
        // a frame of the clip shown at its rate (each frame is drawn from the clock)
        Duration::from_millis(15)
    } else if app.workspace.listing.is_some() {
        // listing steps are applied between frames
        Duration::from_millis(30)
    } else if app.busy() {
        Duration::from_millis(100)
    } else {
        Duration::from_millis(1000)
    }
}

/// The UI loop's state: the terminal, what it is known to answer and how fast the link is.
struct Ui {
    term: Terminal<screen::Screen<std::io::Stdout>>,
    /// The terminal's abilities (margins learnt from its reply), before the low-bandwidth
    /// mode takes colours away.
    full_caps: screen::Caps,
    low_bandwidth: bool,
    full_theme: theme::Theme,
    detection: graphics::Detection,
    /// The queries that follow the first frame went out.
    asked: bool,
    /// The terminal answers status requests (learnt from the first): frames during
    /// animation then wait for the previous one to arrive.
    answers_status: bool,
    /// A status request sent after a frame and not answered yet.
    probe: Option<Instant>,
    slow_link: bool,
    /// Terminals that never answer a status request: a frame whose write blocked (the
    /// system's buffers towards the link are full) holds the next animation frame back as
    /// long again, so at most half the time goes to writing. Weaker than the probe: the
    /// buffers (a pty's, sshd's, the socket's) hold a backlog before any write blocks, and
    /// the queue of a pty is not visible (TIOCOUTQ on a pty answers 0).
    held_until: Option<Instant>,
    /// Something shown may have changed since the last frame. A frame costs as much to
    /// build as to diff (every pane is laid out again), so none is built for what shows
    /// nothing new: a batch of terminal replies (the margins answer after the first
    /// frame) alone.
    dirty: bool,
    mouse_on: bool,
}

impl Ui {
    /// Frames and input until the user quits (or input ends).
    fn run(&mut self, app: &mut App, rx: &std::sync::mpsc::Receiver<input::Event>) -> std::io::Result<()> {
        // Test hook for tools/tui-smoke.sh, debug builds only: prove the panic hook restores
        // the terminal.
        let panic_test = cfg!(debug_assertions) && std::env::var_os("ANIMSCOPE_TUI_PANIC_TEST").is_some();
        loop {
            self.frame(app)?;
            if !self.asked {
                self.ask()?;
            }
            if app.quit {
                break;
            }
            if panic_test {
                std::thread::sleep(Duration::from_millis(300));
                panic!("panic requested by ANIMSCOPE_TUI_PANIC_TEST");
            }
            let first = match rx.recv_timeout(wait_time(app)) {
                Ok(ev) => ev,
                Err(RecvTimeoutError::Timeout) => {
                    // a tick: progress, the clip's clock and messages move with time
                    self.dirty = true;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            // drain the whole batch, then render once
            let mut batch = vec![first];
            while let Ok(ev) = rx.try_recv() {
                batch.push(ev);
                if batch.len() > 4096 {
                    break;
                }
            }
            self.dirty |= app.check_source();
            self.handle(app, batch)?;
            if app.quit {
                break;
            }
            self.sync_mouse(app)?;
        }
        Ok(())
    }

    /// A frame, when something shown may have changed and the link has taken the last one.
    fn frame(&mut self, app: &mut App) -> std::io::Result<()> {
        self.dirty |= app.poll_jobs();
        if app.low_bandwidth != self.low_bandwidth {
            self.dirty = true;
            self.low_bandwidth = app.low_bandwidth;
            app.theme = if self.low_bandwidth { theme::Theme::mono() } else { self.full_theme };
            self.term.backend_mut().set_caps(caps_for(self.full_caps, self.low_bandwidth));
        }
        // While animating on a link that has not taken the last frame yet: no new frame
        // (the clock decides what the next one shows, so a slow link shows fewer frames,
        // never a backlog).
        let draining = (self.probe.is_some_and(|t| t.elapsed() < PROBE_LOST)
            || self.held_until.is_some_and(|t| Instant::now() < t))
            && app.pose.is_playing();
        if draining || !(self.dirty || REDRAW.load(Ordering::SeqCst)) {
            return Ok(());
        }
        self.dirty = false;
        let _t = lock_terminal();
        let term = &mut self.term;
        if REDRAW.swap(false, Ordering::SeqCst) {
            // Resumed: the screen is blank or someone else's; forget what we drew.
            term.backend_mut().forget();
            term.autoresize()?;
            term.clear()?;
        }
        let before = term.backend().written();
        let tag = if self.low_bandwidth {
            Some("low bandwidth")
        } else if self.slow_link {
            Some("slow link")
        } else {
            None
        };
        let tag_key = app.keymap.key_for(Action::LowBandwidth);
        if let Ok(size) = term.size() {
            term.backend_mut().set_pane_edges(app.pane_edges(Rect::new(0, 0, size.width, size.height)));
        }
        term.draw(|f| {
            draw(app, f);
            if let Some(tag) = tag {
                status_tag(f, tag, tag_key.as_deref());
            }
        })?;
        for seq in app.osc.drain(..) {
            term.backend_mut().write_all(seq.as_bytes())?;
            term.backend_mut().flush()?;
        }
        let wrote = term.backend().written() > before;
        let took = term.backend().last_write();
        if wrote && !self.answers_status && app.pose.is_playing() && took > WRITE_BLOCKED {
            self.held_until = Some(Instant::now() + took);
            self.slow_link = true;
        }
        if wrote && self.answers_status && self.probe.is_none() && app.pose.is_playing() {
            term.backend_mut().write_all(STATUS_REQUEST)?;
            self.probe = Some(Instant::now());
        }
        Ok(())
    }

    /// After the first frame: the graphics query (or a bare status request, to learn
    /// whether the terminal answers them), and the left/right margins.
    fn ask(&mut self) -> std::io::Result<()> {
        self.asked = true;
        let _t = lock_terminal();
        // left/right margins (DECRQM for mode 69): a multiplexer in between answers for
        // itself or not at all, and draws none
        if !graphics::under_multiplexer(&env) {
            self.term.backend_mut().write_all(MARGINS_QUERY)?;
        }
        if graphics::should_ask(&env) {
            self.term.backend_mut().write_all(graphics::query_text().as_bytes())?;
            self.detection.asked();
        } else {
            self.term.backend_mut().write_all(STATUS_REQUEST)?;
        }
        Ok(())
    }

    /// A batch of input: keys (runs of one key coalesced, as key repeat sends them), mouse,
    /// the terminal's replies and resizes.
    fn handle(&mut self, app: &mut App, batch: Vec<input::Event>) -> std::io::Result<()> {
        let mut events: Vec<(input::Event, usize)> = Vec::with_capacity(batch.len());
        for ev in batch {
            match (events.last_mut(), &ev) {
                (Some((input::Event::Input(Input::Key(prev)), n)), input::Event::Input(Input::Key(k))) if prev == k => {
                    *n += 1;
                }
                _ => events.push((ev, 1)),
            }
        }
        for (ev, count) in events {
            match ev {
                input::Event::Input(Input::Key(k)) => {
                    self.dirty = true;
                    app.handle_repeated(k, count);
                }
                input::Event::Input(Input::Mouse(m)) if app.mouse => {
                    self.dirty = true;
                    match m.kind {
                        MouseEventKind::Down(_) => app.mouse_at(m.column, m.row, None),
                        MouseEventKind::ScrollDown => app.mouse_at(m.column, m.row, Some(true)),
                        MouseEventKind::ScrollUp => app.mouse_at(m.column, m.row, Some(false)),
                        _ => {}
                    }
                }
                input::Event::Input(Input::Mouse(_)) => {}
                input::Event::Input(Input::Reply(seq)) => self.reply(app, &seq),
                input::Event::Resize => {
                    self.dirty = true;
                    let _t = lock_terminal();
                    self.term.autoresize()?;
                }
                input::Event::Closed => app.quit = true,
            }
            if app.quit {
                break;
            }
        }
        Ok(())
    }

    /// A reply of the terminal: the margins (which change how later frames are written,
    /// not what they show), the graphics query's answer, or a status report.
    fn reply(&mut self, app: &mut App, seq: &[u8]) {
        if let Some(has) = margins_reply(seq) {
            self.full_caps.margins = has;
            self.term.backend_mut().set_caps(caps_for(self.full_caps, self.low_bandwidth));
        } else if let Some(g) = self.detection.feed(seq) {
            // the graphics query answered (late or not): upgrade
            app.decode.texture.graphics = g;
            self.answers_status = true;
            self.dirty = true;
        } else if seq == STATUS_OK {
            match self.probe.take() {
                Some(t) => {
                    let slow = t.elapsed() > SLOW_LINK;
                    // the status line's tag says so
                    self.dirty |= slow != self.slow_link;
                    self.slow_link = slow;
                }
                None => self.answers_status = true,
            }
        }
    }

    /// Mouse capture on or off as the app has it.
    fn sync_mouse(&mut self, app: &App) -> std::io::Result<()> {
        if app.mouse != self.mouse_on {
            let _t = lock_terminal();
            self.mouse_on = app.mouse;
            MOUSE.store(self.mouse_on, Ordering::SeqCst);
            if self.mouse_on {
                execute!(self.term.backend_mut(), EnableMouseCapture)?;
            } else {
                execute!(self.term.backend_mut(), DisableMouseCapture)?;
            }
        }
        Ok(())
    }
}

/// The low-bandwidth or slow-link note at the right end of the status line (the last row),
/// naming the key that toggles the mode.
fn status_tag(f: &mut ratatui::Frame, tag: &str, key: Option<&str>) {
    let area = f.area();
    let text = match key {
        Some(k) => format!(" {tag} [{k}] "),
        None => format!(" {tag} "),
    };
    let w = text.chars().count() as u16;
    if area.height == 0 || area.width < w + 20 {
        return;
    }
    let style = ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::REVERSED);
    f.buffer_mut().set_stringn(area.right() - w, area.bottom() - 1, &text, usize::from(w), style);
}
