//! The walk pane: the selected document's chunk walk, one decision per step (the header
//! it read, the size field, the end it computed and why, the next offset); stepping moves
//! the hex cursor and, in walk mode, highlights the step's bytes.

use super::action::Action;
use super::component::{Component, Ctx, Effect, Level, Pane};
use super::layout::wrap;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

/// The walk pane. The current step is kept per document (in the workspace), so each
/// document remembers where its walk was.
#[derive(Debug, Default)]
pub struct WalkPane {
    /// Walk mode: the current step is highlighted in hex.
    pub active: bool,
}

impl WalkPane {
    /// Step the walk by `delta` (the first step when none is current yet).
    pub fn step(delta: isize, ctx: &Ctx<'_>) -> Vec<Effect> {
        let n = ctx.cur().doc().walk.len();
        if n == 0 {
            return vec![Effect::Message(Level::Info, "this document has no walk trace".into())];
        }
        let next = match ctx.cur().walk_step {
            None => 0,
            Some(i) => i.saturating_add_signed(delta).min(n - 1),
        };
        vec![Effect::WalkTo(next)]
    }
}

impl Component for WalkPane {
    type Geometry = ();

    fn handle(&mut self, a: Action, ctx: &Ctx<'_>) -> Vec<Effect> {
        match a {
            Action::Up | Action::Left | Action::WalkPrev => Self::step(-1, ctx),
            Action::Down | Action::Right | Action::Activate | Action::WalkNext => Self::step(1, ctx),
            Action::PageUp => Self::step(-10, ctx),
            Action::PageDown => Self::step(10, ctx),
            Action::Home => vec![Effect::WalkTo(0)],
            Action::End => vec![Effect::WalkTo(ctx.cur().doc().walk.len().saturating_sub(1))],
            _ => Vec::new(),
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let doc = ctx.cur().doc();
        let theme = ctx.theme;
        let total = doc.walk.len();
        let step = ctx.cur().walk_step;
        let title = match step {
            Some(i) => format!("Walk · step {}/{total} of {}", i + 1, doc.name),
            None => format!("Walk · {total} steps of {} (w starts)", doc.name),
        };
        let Some(inner) = ctx.framed(f, area, Pane::Walk, title) else { return };
        let buf = f.buffer_mut();
        let w = inner.width as usize;
        if total == 0 {
            buf.set_stringn(inner.x, inner.y, "this document has no walk trace", w, theme.dim);
            return;
        }
        // the decision in words at the bottom, the step list above
        let detail: Vec<String> = step
            .and_then(|i| doc.walk_step(i))
            .map(|s| {
                let next = match s.next {
                    Some(n) => format!("→ next 0x{n:x}"),
                    None => "→ stop".into(),
                };
                let node = s.node.map(|n| format!(" ({})", doc.path(n))).unwrap_or_default();
                let text = format!("{}: {}{node}. {} {next}", s.what, s.span, s.detail);
                wrap(&crate::model::sanitize(&text), w)
            })
            .unwrap_or_default();
        let dh = (detail.len() as u16).min(inner.height / 2);
        let lh = inner.height.saturating_sub(dh);
        let cur = step.unwrap_or(0);
        let top = cur.saturating_sub((lh as usize).saturating_sub(1) / 2).min(total.saturating_sub(lh as usize));
        for (row, i) in (top..total).take(lh as usize).enumerate() {
            let Some(s) = doc.walk_step(i) else { continue };
            let mark = if step == Some(i) { "▶" } else { " " };
            let line = format!("{mark}{:>4} {:<22} {}", i + 1, s.span.to_string(), crate::model::sanitize(&s.what));
            let style = if step == Some(i) { theme.selected } else { Style::new() };
            buf.set_stringn(inner.x, inner.y + row as u16, line, w, style);
        }
        for (k, l) in detail.iter().take(dh as usize).enumerate() {
            buf.set_stringn(inner.x, inner.y + lh + k as u16, l, w, Style::new().add_modifier(Modifier::BOLD));
        }
    }
}
