//! Layout and the text panes: fields, walk, diagnostics, status line, help, prompt.

use super::action::Action;
use super::app::{App, Level, Pane, PromptKind};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear};

/// A pane's bordered block with its title; focused panes stand out.
pub fn block(app: &App, pane: Pane, title: String) -> Block<'static> {
    let style = if app.focus == pane { app.theme.border_focus } else { app.theme.border };
    let mark = if app.focus == pane { "▶ " } else { "" };
    Block::bordered().border_style(style).title(format!("{mark}{title}"))
}

/// Draw a text pane's bordered block with its title; the area inside it, or None when no
/// text fits.
pub fn framed(app: &App, f: &mut Frame, area: Rect, pane: Pane, title: String) -> Option<Rect> {
    let block = block(app, pane, title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    (inner.height > 0 && inner.width > 0).then_some(inner)
}

/// Where each visible pane goes, and the status line. Adapts from 80×24 (tree, hex and
/// one toggled lower pane) to wide terminals (everything at once).
pub fn layout(app: &App, area: Rect) -> (Vec<(Pane, Rect)>, Rect) {
    let [main, status] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let (w, h) = (main.width, main.height);
    if app.zoom || w < 60 || h < 12 {
        return (vec![(app.focus, main)], status);
    }
    let bottom_pane = if matches!(app.lower, Pane::Walk | Pane::Diagnostics) { app.lower } else { Pane::Walk };
    if w >= 160 && h >= 40 {
        let tree_w = (w / 5).clamp(28, 48);
        let [tree, hex, right] =
            Layout::horizontal([Constraint::Length(tree_w), Constraint::Length(80), Constraint::Min(30)]).areas(main);
        let [fields, decode, bottom] =
            Layout::vertical([Constraint::Percentage(35), Constraint::Percentage(40), Constraint::Min(6)]).areas(right);
        return (every_pane([tree, hex, fields, decode, bottom], bottom_pane), status);
    }
    if w >= 100 && h >= 30 {
        let [tree, right] = Layout::horizontal([Constraint::Length(30), Constraint::Min(40)]).areas(main);
        let [hex, mid, bottom] =
            Layout::vertical([Constraint::Percentage(45), Constraint::Percentage(35), Constraint::Min(5)]).areas(right);
        let [fields, decode] = Layout::horizontal([Constraint::Percentage(45), Constraint::Min(30)]).areas(mid);
        return (every_pane([tree, hex, fields, decode, bottom], bottom_pane), status);
    }
    let tree_w = (w * 3 / 10).clamp(20, 30);
    let [tree, right] = Layout::horizontal([Constraint::Length(tree_w), Constraint::Min(30)]).areas(main);
    let [hex, lower] = Layout::vertical([Constraint::Percentage(55), Constraint::Min(4)]).areas(right);
    (vec![(Pane::Tree, tree), (Pane::Hex, hex), (app.lower, lower)], status)
}

/// The wide layouts: tree, hex, fields and decode, and the walk or diagnostics at the bottom.
fn every_pane([tree, hex, fields, decode, bottom]: [Rect; 5], bottom_pane: Pane) -> Vec<(Pane, Rect)> {
    vec![(Pane::Tree, tree), (Pane::Hex, hex), (Pane::Fields, fields), (Pane::Decode, decode), (bottom_pane, bottom)]
}

/// Draw everything.
pub fn draw(app: &mut App, f: &mut Frame) {
    let area = f.area();
    if area.width < 16 || area.height < 4 {
        f.buffer_mut().set_stringn(area.x, area.y, "terminal too small", area.width as usize, Style::new());
        app.rects.clear();
        return;
    }
    let (panes, status) = layout(app, f.area());
    app.rects = panes.clone();
    for (pane, r) in panes {
        match pane {
            Pane::Tree => super::tree::render(app, f, r),
            Pane::Hex => super::hex::render(app, f, r),
            Pane::Fields => fields(app, f, r),
            Pane::Decode => super::decode::render(app, f, r),
            Pane::Walk => walk(app, f, r),
            Pane::Diagnostics => diagnostics(app, f, r),
        }
    }
    status_line(app, f, status);
    if app.help.is_some() {
        help(app, f);
    }
}

fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        format!("{s:<w$}")
    } else {
        let mut t: String = s.chars().take(w.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn fields(app: &mut App, f: &mut Frame, area: Rect) {
    let doc = app.cur().doc();
    let Some(node) = doc.node(app.sel.1) else { return };
    let title = format!("Fields · {} {} @{}", node.kind, node.key, node.span);
    let Some(inner) = framed(app, f, area, Pane::Fields, title) else { return };
    let buf = f.buffer_mut();
    let w = inner.width as usize;
    let mut y = inner.y;
    let bottom = inner.y + inner.height;
    if let Some((fnode, fi)) = app.field_sel.filter(|(n, _)| *n != node.id)
        && let Some(fl) = doc.node(fnode).and_then(|n| n.fields.get(fi))
    {
        let owner = doc.node(fnode).map_or("?", |n| n.key.as_str());
        let text = format!("cursor in {owner}.{} = {}", fl.name, fl.value);
        buf.set_stringn(inner.x, y, text, w, app.theme.dim);
        y += 1;
    }
    if node.fields.is_empty() && y < bottom {
        buf.set_stringn(inner.x, y, "no fields on this node", w, app.theme.dim);
        return;
    }
    let name_w = node.fields.iter().map(|f| f.name.chars().count()).max().unwrap_or(4).clamp(4, 18);
    let sel = app.field_sel.filter(|(n, _)| *n == node.id).map(|x| x.1);
    let rows = bottom.saturating_sub(y) as usize;
    let top = sel.map_or(0, |s| s.saturating_sub(rows.saturating_sub(1)));
    for (i, fl) in node.fields.iter().enumerate().skip(top).take(rows) {
        let loc = format!("@0x{:x} {} B", fl.span.start, fl.span.len());
        let note = fl.note.as_deref().map(|n| format!("  {n}")).unwrap_or_default();
        let value = fl.value.to_string();
        let vw = w.saturating_sub(name_w + 2 + loc.len() + 2);
        let line = format!("{}  {}  {loc}{note}", fit(&fl.name, name_w), fit(&value, vw.max(8)));
        let mut style = Style::new();
        if matches!(fl.value.meaning, Some(crate::model::Meaning::Unknown)) {
            style = style.patch(app.theme.unknown);
        }
        if sel == Some(i) {
            style = if app.focus == Pane::Fields { app.theme.selected } else { style.add_modifier(Modifier::REVERSED) };
        }
        buf.set_stringn(inner.x, y, line, w, style);
        y += 1;
    }
}

/// Word-wrap `s` to lines of at most `w` columns (long words stay whole).
pub fn wrap(s: &str, w: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in s.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > w {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn walk(app: &mut App, f: &mut Frame, area: Rect) {
    let doc = app.cur().doc();
    let total = doc.walk.len();
    let step = app.cur().walk_step;
    let title = match step {
        Some(i) => format!("Walk · step {}/{total} of {}", i + 1, doc.name),
        None => format!("Walk · {total} steps of {} (w starts)", doc.name),
    };
    let Some(inner) = framed(app, f, area, Pane::Walk, title) else { return };
    let buf = f.buffer_mut();
    let w = inner.width as usize;
    if total == 0 {
        buf.set_stringn(inner.x, inner.y, "this document has no walk trace", w, app.theme.dim);
        return;
    }
    // the decision in words at the bottom, the step list above
    let detail: Vec<String> = step
        .and_then(|i| doc.walk.get(i))
        .map(|s| {
            let next = match s.next {
                Some(n) => format!("→ next 0x{n:x}"),
                None => "→ stop".into(),
            };
            let node = s.node.map(|n| format!(" ({})", doc.path(n))).unwrap_or_default();
            wrap(&format!("{}: {}{node}. {} {next}", s.what, s.span, s.detail), w)
        })
        .unwrap_or_default();
    let dh = (detail.len() as u16).min(inner.height / 2);
    let lh = inner.height.saturating_sub(dh);
    let cur = step.unwrap_or(0);
    let top = cur.saturating_sub((lh as usize).saturating_sub(1) / 2).min(total.saturating_sub(lh as usize));
    for (row, (i, s)) in doc.walk.iter().enumerate().skip(top).take(lh as usize).enumerate() {
        let mark = if step == Some(i) { "▶" } else { " " };
        let line = format!("{mark}{:>4} {:<22} {}", i + 1, s.span.to_string(), s.what);
        let style = if step == Some(i) { app.theme.selected } else { Style::new() };
        buf.set_stringn(inner.x, inner.y + row as u16, line, w, style);
    }
    for (k, l) in detail.iter().take(dh as usize).enumerate() {
        buf.set_stringn(inner.x, inner.y + lh + k as u16, l, w, Style::new().add_modifier(Modifier::BOLD));
    }
}

fn diagnostics(app: &mut App, f: &mut Frame, area: Rect) {
    let entries = app.diag_entries();
    let title =
        format!("Diagnostics · {} · bookmarks {}", app.cur().doc().diagnostics.len(), app.bookmarks.marks.len());
    let Some(inner) = framed(app, f, area, Pane::Diagnostics, title) else { return };
    let buf = f.buffer_mut();
    let w = inner.width as usize;
    if entries.is_empty() {
        buf.set_stringn(inner.x, inner.y, "no diagnostics; no bookmarks (m adds one)", w, app.theme.dim);
        return;
    }
    app.diag_cursor = app.diag_cursor.min(entries.len() - 1);
    let rows = inner.height as usize;
    let top = app.diag_cursor.saturating_sub(rows.saturating_sub(1));
    for (row, (i, (_, _, text))) in entries.iter().enumerate().skip(top).take(rows).enumerate() {
        let mut style = if text.starts_with("error") { app.theme.error } else { Style::new() };
        if i == app.diag_cursor && app.focus == Pane::Diagnostics {
            style = app.theme.selected;
        }
        buf.set_stringn(inner.x, inner.y + row as u16, text, w, style);
    }
}

fn status_line(app: &App, f: &mut Frame, area: Rect) {
    let buf = f.buffer_mut();
    let w = area.width as usize;
    if let Some(p) = &app.prompt {
        let label = match &p.kind {
            PromptKind::Goto => "goto (0x150, 336, +0x20, node path)> ".to_string(),
            PromptKind::Search => "search (hex: 1f 8b · text)> ".to_string(),
            PromptKind::ExportPath => "export clip to> ".to_string(),
            PromptKind::ConfirmOverwrite(path) => format!("{} exists; overwrite? (y/n)> ", path.display()),
        };
        let text = format!("{label}{}█", p.input);
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

/// The help text, generated from the active keymap.
pub fn help_lines(app: &App) -> Vec<String> {
    let km = &app.keymap;
    let mut out = vec![format!("keymap: {}   (Esc or ? closes; ↑/↓ scroll)", km.sources.join(" + ")), String::new()];
    // one line per (action, description), keys joined
    let mut rows: Vec<(String, &str, &str)> = Vec::new();
    for a in Action::ALL {
        let mut groups: Vec<(Vec<String>, &str)> = Vec::new();
        for b in km.bindings.iter().filter(|b| b.action == *a) {
            match groups.iter_mut().find(|g| g.1 == b.desc) {
                Some(g) => g.0.push(b.keys_text()),
                None => groups.push((vec![b.keys_text()], b.desc.as_str())),
            }
        }
        rows.extend(groups.into_iter().map(|(k, d)| (k.join(", "), a.name(), d)));
    }
    let kw = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(4).clamp(6, 24);
    for (keys, name, desc) in rows {
        out.push(format!("{keys:<kw$}  {name:<18} {desc}"));
    }
    out
}

fn help(app: &mut App, f: &mut Frame) {
    let area = f.area();
    let (w, h) = (area.width.saturating_sub(4).min(100), area.height.saturating_sub(2));
    let r = Rect::new(area.x + (area.width - w) / 2, area.y + 1, w, h);
    f.render_widget(Clear, r);
    let block = Block::bordered().title("Help · keys").border_style(app.theme.border_focus);
    let inner = block.inner(r);
    f.render_widget(block, r);
    let lines = help_lines(app);
    let rows = inner.height as usize;
    let max_scroll = lines.len().saturating_sub(rows);
    let scroll = app.help.unwrap_or(0).min(max_scroll);
    app.help = Some(scroll);
    let buf = f.buffer_mut();
    for (i, l) in lines.iter().skip(scroll).take(rows).enumerate() {
        buf.set_line(inner.x, inner.y + i as u16, &Line::from(l.as_str()), inner.width);
    }
}
