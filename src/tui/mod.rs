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
//! Terminal hygiene: raw mode and the alternate screen are undone on quit, on error and on
//! panic (a panic hook restores first); events are drained in batches and each batch is
//! rendered once inside a synchronized update; only key presses count; mouse capture is
//! off until toggled; `NO_COLOR` selects a modifiers-only theme.

pub mod action;
pub mod app;
pub mod bookmarks;
pub mod clipboard;
mod commands;
pub mod component;
pub mod decode;
pub mod diagnostics;
pub mod export;
pub mod fields;
pub mod help;
pub mod hex;
pub mod jobs;
pub mod keymap;
pub mod layout;
pub mod output;
pub mod prompt;
pub mod search;
mod selection;
pub mod status;
pub mod theme;
pub mod tree;
pub mod walk;
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
use std::time::Duration;

/// Draw the whole screen for `app` into a frame and keep what was drawn where (used by
/// the loop, tests and benches).
pub fn draw(app: &mut App, f: &mut ratatui::Frame) {
    let layout = app.draw(f);
    app.set_layout(layout);
}

fn restore() {
    let _ = disable_raw_mode();
    let mut out = std::io::stdout();
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
}

/// Restores the terminal when dropped (quit and error paths).
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Run the TUI on an opened document until the user quits.
pub fn run(opened: Opened, keymap: Option<&Path>) -> std::io::Result<()> {
    let user = Keymap::user_path();
    let (km, messages) = Keymap::load(user.as_deref(), keymap);
    for m in &messages {
        eprintln!("animscope: {m}");
    }
    let cfg = Config {
        keymap: km,
        theme: theme::Theme::from_env(),
        state_dir: bookmarks::default_state_dir(),
        messages,
        ..Config::default()
    };
    let mut app = App::new(opened, cfg);

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
    enable_raw_mode()?;
    let _guard = Guard;
    let mut stdout = std::io::stdout();
    execute!(stdout, EnterAlternateScreen, cursor::Hide)?;
    let mut term = Terminal::new(output::FillSmallGaps::new(CrosstermBackend::new(std::io::stdout())))?;
    term.clear()?;
    let mut mouse_on = false;
    // SIGTERM/SIGHUP/SIGQUIT: restore the terminal and exit with 128 + signal (the default
    // action would leave raw mode and the alternate screen on). Handled on a thread of its
    // own because the UI thread may be blocked inside crossterm: when the terminal goes away
    // (ssh drops, tmux is killed) crossterm keeps re-reading the dead tty and never returns.
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGQUIT,
    ])?;
    std::thread::Builder::new().name("signals".into()).spawn(move || {
        if let Some(sig) = signals.forever().next() {
            restore();
            std::process::exit(128 + sig);
        }
    })?;
    // Test hook for tools/tui-smoke.sh, debug builds only: prove the panic hook restores
    // the terminal.
    let panic_test = cfg!(debug_assertions) && std::env::var_os("ANIMSCOPE_TUI_PANIC_TEST").is_some();
    loop {
        app.poll_jobs();
        execute!(term.backend_mut(), BeginSynchronizedUpdate)?;
        term.draw(|f| draw(&mut app, f))?;
        execute!(term.backend_mut(), EndSynchronizedUpdate)?;
        for seq in app.osc.drain(..) {
            term.backend_mut().write_all(seq.as_bytes())?;
            term.backend_mut().flush()?;
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
        let timeout = if app.workspace.listing.is_some() {
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
            mouse_on = app.mouse;
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
