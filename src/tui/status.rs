//! The status line: the open prompt, or the cursor offset, node kind, walk step,
//! background work, problems and pending keys, then the status message or key hints.

use super::action::Action;
use super::app::App;
use super::component::Level;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

/// Draw the status line of `app` into `area`.
pub fn draw(app: &App, f: &mut Frame, area: Rect) {
    let buf = f.buffer_mut();
    let w = area.width as usize;
    if let Some(p) = &app.prompt {
        let text = format!("{}{}█", p.label(), p.input);
        buf.set_stringn(area.x, area.y, text, w, Style::new().add_modifier(Modifier::BOLD));
        return;
    }
    let e = app.cur();
    let doc = e.doc();
    let kind = doc.node(app.sel.1).map_or("", |n| n.kind.as_str());
    let mut left = format!(" 0x{:x}/0x{:x}", e.cursor, doc.len);
    if app.message.is_none() {
        left.push_str(&format!("  {kind}"));
    }
    if let Some(i) = e.walk_step.filter(|_| app.message.is_none()) {
        left.push_str(&format!("  walk step {}/{}", i + 1, doc.walk.len()));
    }
    if let Some(p) = &app.workspace.listing {
        left.push_str(&format!("  ⧗ listing {}% ({} members)", p.percent(), thousands(p.members)));
    }
    if app.working() {
        left.push_str("  ⧗ working…");
    }
    let problems = doc.diagnostics.iter().filter(|d| d.severity >= crate::model::Severity::Warning).count();
    if problems > 0 && app.message.is_none() {
        let key = app.keymap.key_for(Action::FocusDiagnostics).unwrap_or_default();
        left.push_str(&format!("  ⚠ {problems} [{key}]"));
    }
    if !app.pending.is_empty() {
        let keys: Vec<String> = app.pending.iter().map(ToString::to_string).collect();
        left.push_str(&format!("  {}-", keys.join(" ")));
    }
    buf.set_stringn(area.x, area.y, &left, w, Style::new().add_modifier(Modifier::BOLD));
    let x = area.x + (left.chars().count() as u16).min(area.width);
    let rest = w.saturating_sub(left.chars().count());
    match &app.message {
        Some((lvl, m)) => {
            let style = if *lvl == Level::Error { app.theme.error } else { app.theme.warn };
            buf.set_stringn(x, area.y, format!("  {m}"), rest, style);
        }
        None => {
            let hint = |a: Action, what: &str| app.keymap.key_for(a).map(|k| format!("[{k}] {what}"));
            let hints: Vec<String> = [
                hint(Action::Help, "help"),
                hint(Action::Search, "search"),
                hint(Action::Goto, "goto"),
                hint(Action::WalkMode, "walk"),
                hint(Action::Export, "export"),
                hint(Action::Quit, "quit"),
            ]
            .into_iter()
            .flatten()
            .collect();
            buf.set_stringn(x, area.y, format!("  {}", hints.join("  ")), rest, app.theme.dim);
        }
    }
}

/// `1210` as `1,210`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
