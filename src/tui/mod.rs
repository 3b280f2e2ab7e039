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
//! panic (a panic hook restores first) and on SIGINT/SIGTERM/SIGHUP/SIGQUIT (exit 128 +
//! signal); SIGTSTP restores the terminal and stops the process, SIGCONT takes the
//! terminal back and redraws the whole screen; events are drained in batches and each batch is
//! rendered once inside a synchronized update; only key presses count; mouse capture is
//! off until toggled; `NO_COLOR` selects a modifiers-only theme.

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
pub mod export;
pub mod fields;
pub mod find;
pub mod graphics;
pub mod help;
pub mod hex;
pub mod jobs;
pub mod jumps;
pub mod keymap;
pub mod layout;
mod layout_builder;
mod lazy;
pub mod messages;
pub mod output;
pub mod pose;
pub mod prompt;
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
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event, MouseEventKind};
use crossterm::terminal::{
    BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode,
    enable_raw_mode,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

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

/// The signal thread: SIGINT/SIGTERM/SIGHUP/SIGQUIT restore the terminal and exit with
/// 128 + signal (the default action would leave raw mode and the alternate screen on);
/// SIGTSTP restores it and stops the process (SIGSTOP); on SIGCONT (after our own stop or
/// anyone's SIGSTOP) the terminal is taken again and the whole screen redrawn. A thread of
/// its own because the UI thread may be blocked inside crossterm: when the terminal goes
/// away (ssh drops, tmux is killed) crossterm keeps re-reading the dead tty and never
/// returns.
fn handle_signals(mut signals: signal_hook::iterator::Signals) {
    use signal_hook::consts::{SIGCONT, SIGSTOP, SIGTSTP, SIGWINCH};
    let resume = || {
        enter();
        REDRAW.store(true, Ordering::SeqCst);
        // Wake the UI thread out of its event poll: crossterm turns SIGWINCH into a
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

fn run_with(opened: Opened, diff: Option<Opened>, keymap: Option<&Path>) -> std::io::Result<()> {
    let user = Keymap::user_path();
    // Side files are read within the command's budget, as the input was opened.
    let (km, messages) = Keymap::load(user.as_deref(), keymap, opened.limits().max_side_file);
    for m in &messages {
        eprintln!("animscope: {m}");
    }
    let cfg = Config {
        keymap: km,
        theme: theme::Theme::from_env(),
        state_dir: bookmarks::default_state_dir(),
        layouts_dir: crate::layout::LayoutSet::user_dir(),
        messages,
        ..Config::default()
    };
    let mut app = App::new(opened, cfg);
    if let Some(b) = diff {
        app.start_diff(b);
    }

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
    // Saved before raw mode: a SIGBUS on a mapped input puts these modes back.
    crate::source::sigbus_net::tui_holds_terminal(true);
    enable_raw_mode()?;
    let _guard = Guard;
    let mut stdout = std::io::stdout();
    execute!(stdout, EnterAlternateScreen, cursor::Hide)?;
    // Asked once, in raw mode and before anything reads events: the terminal's replies
    // are read here, not taken for key presses.
    app.decode.texture.graphics = graphics::detect(&|k| std::env::var(k).ok(), &mut graphics::Stdio);
    let mut term = Terminal::new(output::FillSmallGaps::new(CrosstermBackend::new(std::io::stdout())))?;
    term.clear()?;
    let mut mouse_on = false;
    MOUSE.store(false, Ordering::SeqCst);
    ACTIVE.store(true, Ordering::SeqCst);
    use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP};
    let signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGQUIT, SIGINT, SIGTSTP, SIGCONT])?;
    std::thread::Builder::new().name("signals".into()).spawn(move || handle_signals(signals))?;
    // Test hook for tools/tui-smoke.sh, debug builds only: prove the panic hook restores
    // the terminal.
    let panic_test = cfg!(debug_assertions) && std::env::var_os("ANIMSCOPE_TUI_PANIC_TEST").is_some();
    loop {
        app.poll_jobs();
        {
            let _t = lock_terminal();
            if REDRAW.swap(false, Ordering::SeqCst) {
                // Resumed: the screen is blank or someone else's; forget what we drew.
                term.autoresize()?;
                term.clear()?;
            }
            execute!(term.backend_mut(), BeginSynchronizedUpdate)?;
            term.draw(|f| draw(&mut app, f))?;
            execute!(term.backend_mut(), EndSynchronizedUpdate)?;
            for seq in app.osc.drain(..) {
                term.backend_mut().write_all(seq.as_bytes())?;
                term.backend_mut().flush()?;
            }
        }
        if app.quit {
            break;
        }
        if panic_test {
            std::thread::sleep(Duration::from_millis(300));
            panic!("panic requested by ANIMSCOPE_TUI_PANIC_TEST");
        }
        // wait for input (tick while background work runs, to show progress)
        // (listing steps are applied between frames: tick often while it runs)
        let timeout = if app.pose.is_playing() {
            // a frame of the clip shown at its rate (each frame is drawn from the clock)
            Duration::from_millis(15)
        } else if app.workspace.listing.is_some() {
            Duration::from_millis(30)
        } else if app.busy() {
            Duration::from_millis(100)
        } else {
            Duration::from_millis(1000)
        };
        if !event::poll(timeout)? {
            continue;
        }
        // drain the whole batch, then render once
        let mut batch = Vec::new();
        while event::poll(Duration::ZERO)? {
            batch.push(event::read()?);
            if batch.len() > 4096 {
                break;
            }
        }
        app.check_source();
        // key repeat: runs of the same key are coalesced
        let mut events: Vec<(Event, usize)> = Vec::with_capacity(batch.len());
        for ev in batch {
            match (events.last_mut(), &ev) {
                (Some((Event::Key(prev), n)), Event::Key(k)) if prev == k => *n += 1,
                _ => events.push((ev, 1)),
            }
        }
        for (ev, count) in events {
            match ev {
                Event::Key(k) => app.handle_repeated(k, count),
                Event::Mouse(m) if app.mouse => match m.kind {
                    MouseEventKind::Down(_) => app.mouse_at(m.column, m.row, None),
                    MouseEventKind::ScrollDown => app.mouse_at(m.column, m.row, Some(true)),
                    MouseEventKind::ScrollUp => app.mouse_at(m.column, m.row, Some(false)),
                    _ => {}
                },
                Event::Resize(_, _) => {
                    term.autoresize()?;
                }
                _ => {}
            }
            if app.quit {
                break;
            }
        }
        if app.mouse != mouse_on {
            let _t = lock_terminal();
            mouse_on = app.mouse;
            MOUSE.store(mouse_on, Ordering::SeqCst);
            if mouse_on {
                execute!(term.backend_mut(), EnableMouseCapture)?;
            } else {
                execute!(term.backend_mut(), DisableMouseCapture)?;
            }
        }
    }
    drop(term);
    Ok(())
}
