//! The message log: every status message and error of the session, kept in full (the
//! status line shows only the start of the latest). An overlay opened by a key
//! (`message_log`, `L` by default) lists them newest last, long lines wrapped to the width.

use super::component::Level;
use super::layout::wrap_hard;
use super::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Clear};

/// Messages kept at most; the oldest go first.
pub const LOG_MAX: usize = 1000;

/// Every message said this session, oldest first.
#[derive(Debug, Default, Clone)]
pub struct MessageLog {
    /// (level, text) in the order they were said.
    pub entries: Vec<(Level, String)>,
    /// Messages dropped from the front because the log was full.
    pub dropped: usize,
}

impl MessageLog {
    /// Keep `text` (a repeat of the latest message is kept once).
    pub fn push(&mut self, level: Level, text: &str) {
        if self.entries.last().is_some_and(|(l, t)| *l == level && t == text) {
            return;
        }
        if self.entries.len() >= LOG_MAX {
            self.entries.remove(0);
            self.dropped += 1;
        }
        self.entries.push((level, text.to_string()));
    }

    /// The log as screen lines `w` columns wide: each message wrapped (continuation lines
    /// indented), errors marked.
    pub fn lines(&self, w: usize) -> Vec<(Level, String)> {
        let mut out = Vec::new();
        if self.dropped > 0 {
            out.push((Level::Info, format!("({} older messages dropped)", self.dropped)));
        }
        for (i, (level, text)) in self.entries.iter().enumerate() {
            let mark = if *level == Level::Error { "!" } else { " " };
            let head = format!("{:>3}{mark} ", i + 1 + self.dropped);
            let indent = head.chars().count();
            for (k, part) in text.lines().flat_map(|l| wrap_hard(l, w.saturating_sub(indent).max(8))).enumerate() {
                let lead = if k == 0 { head.clone() } else { " ".repeat(indent) };
                out.push((*level, format!("{lead}{part}")));
            }
        }
        out
    }

    /// Draw the log as an overlay over the whole frame, scrolled `scroll` lines up from the
    /// end (0: the newest at the bottom); returns the scroll used (clamped).
    pub fn draw(&self, theme: &Theme, scroll: usize, close_key: &str, f: &mut Frame) -> usize {
        let area = f.area();
        let (w, h) = (area.width.saturating_sub(2).min(120), area.height.saturating_sub(1));
        let r = Rect::new(area.x + (area.width - w) / 2, area.y, w, h);
        f.render_widget(Clear, r);
        let title = format!("Messages · {} · {close_key} or Esc closes; ↑/↓ scroll", self.entries.len());
        let block = Block::bordered().title(title).border_style(theme.border_focus);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let lines = self.lines(usize::from(inner.width));
        let rows = usize::from(inner.height);
        let max_scroll = lines.len().saturating_sub(rows);
        let scroll = scroll.min(max_scroll);
        let first = lines.len().saturating_sub(rows + scroll);
        let buf = f.buffer_mut();
        if lines.is_empty() {
            buf.set_stringn(inner.x, inner.y, "no messages yet", usize::from(inner.width), theme.dim);
        }
        for (i, (level, l)) in lines.iter().skip(first).take(rows).enumerate() {
            let style = if *level == Level::Error { theme.error } else { Style::new() };
            buf.set_stringn(inner.x, inner.y + i as u16, l, usize::from(inner.width), style);
        }
        scroll
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_wrap_whole_and_repeats_are_kept_once() {
        let mut log = MessageLog::default();
        log.push(Level::Info, "short");
        log.push(Level::Info, "short");
        let long = format!("export: cannot write {}: permission denied", "/very/long/path".repeat(6));
        log.push(Level::Error, &long);
        assert_eq!(log.entries.len(), 2);
        let lines = log.lines(40);
        assert_eq!(lines[0].1, "  1  short");
        assert!(lines.iter().all(|(_, l)| l.chars().count() <= 40), "{lines:?}");
        // every character of the long message is on some line, in order
        let joined: String = lines[1..].iter().map(|(_, l)| l.get(5..).unwrap_or("").trim_end()).collect();
        assert_eq!(joined.replace(' ', ""), long.replace(' ', ""));
        assert!(lines[1].1.starts_with("  2! export"));
    }

    #[test]
    fn the_oldest_go_when_full() {
        let mut log = MessageLog::default();
        for i in 0..LOG_MAX + 3 {
            log.push(Level::Info, &format!("m{i}"));
        }
        assert_eq!(log.entries.len(), LOG_MAX);
        assert_eq!(log.dropped, 3);
        assert_eq!(log.entries[0].1, "m3");
        assert_eq!(log.lines(80)[0].1, "(3 older messages dropped)");
    }
}
