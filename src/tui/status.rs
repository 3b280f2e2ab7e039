//! The status line: the open prompt, or the cursor offset, node kind, walk step,
//! background work, problems and pending keys, then the status message or key hints.

use super::action::Action;
use super::app::App;
use super::component::Level;
use super::find::Finder;
use super::prompt::Prompt;
use super::theme::Theme;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Clear;
use unicode_width::UnicodeWidthStr;

/// Draw the status line of `app` into `area`.
pub fn draw(app: &App, f: &mut Frame, area: Rect) {
    let buf = f.buffer_mut();
    let w = area.width as usize;
    if let Some(p) = &app.prompt {
        draw_prompt(p, buf, area);
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
    if let Some(p) = app.diff.as_ref().and_then(|v| v.progress_text()) {
        left.push_str(&format!("  {p}"));
    } else if app.working() {
        left.push_str("  ⧗ working…");
    }
    let problems = doc.diagnostics.iter().filter(|d| d.severity >= crate::model::Severity::Warning).count();
    if problems > 0 && app.message.is_none() {
        let key = app.keymap.key_for(Action::FocusDiagnostics).unwrap_or_default();
        left.push_str(&format!("  ⚠ {problems} [{key}]"));
    }
    if app.edits.count() > 0 {
        let key = app.keymap.key_for(Action::EditWrite).unwrap_or_default();
        let n = app.edits.count();
        left.push_str(&format!("  ✎ {n} edit{} [{key}]", if n == 1 { "" } else { "s" }));
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
            let key = app.keymap.key_for(Action::MessageLog).unwrap_or_else(|| Action::MessageLog.name().into());
            buf.set_stringn(x, area.y, message_start(m, rest, &key), rest, style);
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

/// The start of message `m` in `room` columns (after two spaces). A message that does
/// not fit (or has more lines) ends in `… [KEY] more`, naming the message log's key.
pub fn message_start(m: &str, room: usize, key: &str) -> String {
    let first = m.lines().next().unwrap_or("");
    if first.width() + 2 <= room && !m.contains('\n') {
        return format!("  {m}");
    }
    let more = format!("… [{key}] more");
    let keep = room.saturating_sub(2 + more.width());
    let mut out = String::from("  ");
    let mut used = 0;
    for ch in first.chars() {
        let cw = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
        if used + cw > keep {
            break;
        }
        used += cw;
        out.push(ch);
    }
    out.push_str(&more);
    out
}

/// The prompt line: its label, the input scrolled so the cursor is in view, the cursor
/// as a reversed cell, and any completion candidates after it.
fn draw_prompt(p: &Prompt, buf: &mut Buffer, area: Rect) {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let label = p.label();
    let w = area.width as usize;
    let (lx, _) = buf.set_stringn(area.x, area.y, &label, w, bold);
    let room = usize::from(area.right().saturating_sub(lx)).saturating_sub(1);
    if room == 0 {
        return;
    }
    let scroll = p.line.visual_scroll(room);
    // the input from the first column shown (scroll is in columns; names are mostly ASCII)
    let mut col = 0usize;
    let mut shown = String::new();
    for ch in p.text().chars() {
        let cw = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
        if col >= scroll {
            shown.push(ch);
        }
        col += cw;
    }
    let shown = crate::model::sanitize(&shown).into_owned();
    let (ex, _) = buf.set_stringn(lx, area.y, &shown, room, bold);
    let cx = lx + u16::try_from(p.line.visual_cursor().saturating_sub(scroll)).unwrap_or(u16::MAX);
    if cx < area.right()
        && let Some(c) = buf.cell_mut((cx, area.y))
    {
        if c.symbol().trim().is_empty() {
            c.set_symbol(" ");
        }
        c.set_style(Style::new().add_modifier(Modifier::REVERSED));
    }
    if let Some(h) = &p.hint {
        let x = ex.max(cx + 1) + 2;
        if x < area.right() {
            buf.set_stringn(x, area.y, h, usize::from(area.right() - x), Style::new().add_modifier(Modifier::DIM));
        }
    }
}

/// The finder's results above the prompt line, in `screen` (the whole frame): the
/// highlighted result, each node's path and kind, and how many matched.
pub fn draw_finder(finder: &Finder, p: &Prompt, app: &App, theme: &Theme, f: &mut Frame, screen: Rect) {
    let rows = finder.hits.len().clamp(1, 12) as u16;
    let h = (rows + 2).min(screen.height.saturating_sub(1));
    if h < 3 {
        return;
    }
    let area = Rect::new(screen.x, screen.bottom().saturating_sub(1 + h), screen.width, h);
    let sel = p.selected.min(finder.hits.len().saturating_sub(1));
    let title = if p.text().trim().is_empty() {
        format!(
            "Find · {} animations of {} nodes · type a fragment of a name or kind",
            finder.total,
            finder.index.len()
        )
    } else if finder.total == 0 {
        format!("Find · no match among {} nodes", finder.index.len())
    } else {
        format!("Find · {}/{} · ↑↓ choose · enter jumps · esc closes", sel + 1, finder.total)
    };
    // names inside members that are not opened arrive as the background reads them
    let (left, asked) = app.workspace.names_progress();
    let title = if left > 0 { format!("{title} · ⧗ {}/{asked} members read", asked - left) } else { title };
    f.render_widget(Clear, area);
    let block = ratatui::widgets::Block::bordered().border_style(theme.border_focus).title(title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let top = sel.saturating_sub(usize::from(inner.height).saturating_sub(1));
    let buf = f.buffer_mut();
    let w = usize::from(inner.width);
    for (row, (i, hit)) in finder.hits.iter().enumerate().skip(top).take(usize::from(inner.height)).enumerate() {
        let Some(e) = app.workspace.docs.get(hit.doc) else { continue };
        let doc = e.doc();
        let Some(n) = doc.node(hit.node) else { continue };
        let mut path = crate::model::sanitize(&doc.path(hit.node)).into_owned();
        if hit.doc > 0 {
            path = format!("{} › {path}", crate::model::sanitize(&doc.name));
        }
        // a node inside a member not opened: the member's path, then the node's inside it
        let (kind, anim, summary) = match &hit.inside {
            Some(m) => {
                let inner = m.path.split_once('/').map_or(m.path.as_str(), |x| x.1);
                path = format!("{path} › {}", crate::model::sanitize(inner));
                (m.kind.as_str(), m.anim, m.summary.as_str())
            }
            None => (n.kind.as_str(), n.anim.is_some(), n.summary.as_str()),
        };
        let mut tail = format!("  {kind}");
        if anim {
            tail.push_str("  ♪");
        }
        if !summary.is_empty() {
            tail.push_str(&format!("  {}", crate::model::sanitize(summary)));
        }
        // the end of a long path (the name) matters most: cut it in the middle
        let room = w.saturating_sub(tail.width().min(w / 2));
        let line = format!("{}{tail}", super::tree::middle_truncate(&path, room));
        let style = if i == sel { theme.selected } else { Style::new() };
        let y = inner.y + row as u16;
        buf.set_stringn(inner.x, y, " ".repeat(w), w, style);
        buf.set_stringn(inner.x, y, line, w, style);
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

#[cfg(test)]
mod tests {
    use super::message_start;

    #[test]
    fn long_messages_end_with_where_the_rest_is() {
        assert_eq!(message_start("short", 20, "L"), "  short");
        let m = "export: cannot write /tmp/a/b/c.json: No such file or directory";
        let s = message_start(m, 40, "L");
        assert_eq!(s, "  export: cannot write /tmp/a/… [L] more");
        assert!(unicode_width::UnicodeWidthStr::width(s.as_str()) <= 40);
        assert_eq!(message_start("a\nb", 40, "L"), "  a… [L] more");
    }
}
