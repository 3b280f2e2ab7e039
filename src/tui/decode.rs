//! The decode pane: the selected clip's channels as ASCII (braille) curves drawn by
//! textplots, one colour per channel, with a channel list to toggle, a frame cursor,
//! values with units at that frame, and key markers for the channel under the cursor.

use super::action::Action;
use super::channels::{self, ChannelChoice, Row};
use super::component::{Component, Ctx, Effect, Level, Pane};
use super::layout::{wrap, wrap_hard};
use super::workspace::Load;
use crate::model::NodeId;
use crate::model::anim::{Clip, Track};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use textplots::{Chart, Plot, Shape};

/// What a cached plot depends on: clip (document, node), channel, size in dots, y range.
pub type PlotKey = (usize, NodeId, usize, u32, u32, u32, u32);

/// A decoded clip kept with whose it is: (document, node carrying `anim`), the clip.
type KeptClip = ((usize, NodeId), Arc<Clip>);

/// Plotted channels at most kept; the cache is emptied when it grows past this.
const PLOT_CACHE_MAX: usize = 256;

/// The decode pane: the clip shown, its channel list and frame cursor, how it is drawn,
/// and the plots already drawn.
#[derive(Debug, Default)]
pub struct DecodePane {
    /// The clip shown: (document, node carrying `anim`).
    pub shown: Option<(usize, NodeId)>,
    /// Channel under the cursor.
    pub chan: usize,
    /// Channels drawn.
    pub enabled: Vec<bool>,
    /// Frame cursor.
    pub frame: usize,
    /// First channel row shown.
    pub chan_top: usize,
    /// Plot each channel scaled to its own range instead of one shared range.
    pub normalize: bool,
    /// Show the clip's stored tables instead of the plot.
    pub tables: bool,
    /// Plotted channels (braille dot bits per cell), so scrubbing does not re-plot. A
    /// memo filled while drawing, hence the cell.
    plot_cache: RefCell<HashMap<PlotKey, Arc<Vec<Vec<u8>>>>>,
    /// Diff mode: the other file's version of the clip shown, drawn under its curves
    /// (set by the app before each frame).
    pub overlay: RefCell<Option<Arc<Clip>>>,
    /// The channel filter and the remembered choice of drawn channels (kept across clips).
    pub choice: ChannelChoice,
    /// The cursor is on the bone row of the channel under the cursor.
    pub on_group: bool,
    /// The selected texture's picture (nodes without animation that are pictures).
    pub texture: super::texture::TexturePreview,
    /// The last decoded clip drawn and whose it is: drawn again while the same node's clip
    /// is decoded anew (after an edit), so the view and its frame stay until it arrives.
    last_ready: RefCell<Option<KeptClip>>,
}

/// The channel list and frame cursor a frame settled on: clamped to the clip drawn, the
/// channel list scrolled to keep the cursor in view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeGeometry {
    /// Channels of the clip drawn.
    pub tracks: usize,
    /// Channels drawn (the remembered choice for a clip shown the first time).
    pub enabled: Vec<bool>,
    /// Channel under the cursor.
    pub chan: usize,
    /// Frame cursor.
    pub frame: usize,
    /// First channel row shown.
    pub chan_top: usize,
}

impl DecodePane {
    /// Show the clip of (document, node carrying `anim`); a different clip starts at its
    /// first frame and channel (how clips are drawn stays).
    pub fn show(&mut self, key: (usize, NodeId)) {
        if self.shown != Some(key) {
            self.shown = Some(key);
            self.chan = 0;
            self.on_group = false;
            self.enabled = Vec::new();
            self.frame = 0;
            self.chan_top = 0;
        }
    }
}

impl DecodePane {
    /// Where the cursor is in `rows`: the bone row of the channel under the cursor, or its
    /// own row (the first row when it is not listed).
    fn cursor_row(&self, rows: &[Row]) -> usize {
        rows.iter()
            .position(|r| match r {
                Row::Bone(_, idx) => self.on_group && idx.contains(&self.chan),
                Row::Chan { index, .. } => !self.on_group && *index == self.chan,
            })
            .unwrap_or(0)
    }

    /// Show only the channels matching `filter` (typed in the channel filter prompt).
    pub fn set_filter(&mut self, filter: &str) {
        self.choice.filter = filter.to_string();
    }
}

/// The marker drawn for channel `i`'s curve without colour (NO_COLOR): the curves are told
/// apart by their markers, shown in the channel list too.
pub fn curve_marker(i: usize) -> char {
    const MARKERS: [char; 8] = ['●', '■', '▲', '◆', '+', 'x', 'o', '*'];
    MARKERS[i % MARKERS.len()]
}

impl Component for DecodePane {
    type Geometry = Option<DecodeGeometry>;

    /// Channel and frame moves need the clip decoded (the app waits a little for a pending
    /// decode first); the display toggles do not.
    fn handle(&mut self, a: Action, ctx: &Ctx<'_>) -> Vec<Effect> {
        match a {
            Action::ToggleTables => {
                self.tables = !self.tables;
                return Vec::new();
            }
            Action::ToggleNormalize => {
                self.normalize = !self.normalize;
                let how = if self.normalize { "each channel in its own range" } else { "one shared y range" };
                return vec![Effect::Message(Level::Info, format!("plots: {how}"))];
            }
            _ => {}
        }
        let Some(Load::Ready(clip)) = ctx.clip() else {
            if matches!(a, Action::FrameNext | Action::FramePrev) {
                return vec![Effect::Message(Level::Info, "no decoded clip for this node".into())];
            }
            return Vec::new();
        };
        let ntracks = clip.tracks.len();
        if self.enabled.len() != ntracks {
            self.enabled = self.choice.initial(clip);
        }
        let rows = channels::rows(clip, &self.choice.filter);
        if !rows.iter().any(|r| matches!(r, Row::Chan { index, .. } if *index == self.chan)) {
            // the filter hides the channel under the cursor: the first one listed
            if let Some(Row::Chan { index, .. }) = rows.iter().find(|r| matches!(r, Row::Chan { .. })) {
                self.chan = *index;
                self.on_group = false;
            }
        }
        let pos = self.cursor_row(&rows);
        let last = clip.frame_count.saturating_sub(1);
        let listed: Vec<usize> = rows
            .iter()
            .filter_map(|r| match r {
                Row::Chan { index, .. } => Some(*index),
                Row::Bone(..) => None,
            })
            .collect();
        match a {
            Action::Up | Action::Down => {
                let next =
                    if a == Action::Up { pos.saturating_sub(1) } else { (pos + 1).min(rows.len().saturating_sub(1)) };
                match rows.get(next) {
                    Some(Row::Bone(_, idx)) => {
                        self.chan = idx.first().copied().unwrap_or(0);
                        self.on_group = true;
                    }
                    Some(Row::Chan { index, .. }) => {
                        self.chan = *index;
                        self.on_group = false;
                    }
                    None => {}
                }
            }
            Action::Toggle | Action::Activate if self.on_group => {
                if let Some(Row::Bone(_, idx)) = rows.get(pos) {
                    let all_on = idx.iter().all(|&i| self.enabled.get(i).copied().unwrap_or(false));
                    for &i in idx {
                        if let Some(e) = self.enabled.get_mut(i) {
                            *e = !all_on;
                        }
                    }
                    self.choice.remember(clip, &self.enabled);
                }
            }
            Action::ChannelsAll => {
                let all_on = listed.iter().all(|&i| self.enabled.get(i).copied().unwrap_or(false));
                for &i in &listed {
                    if let Some(e) = self.enabled.get_mut(i) {
                        *e = !all_on;
                    }
                }
                self.choice.remember(clip, &self.enabled);
                let which = if self.choice.filter.trim().is_empty() { "every channel" } else { "every listed channel" };
                let what = if all_on { "off" } else { "on" };
                return vec![Effect::Message(Level::Info, format!("{which} {what} ({} channels)", listed.len()))];
            }
            Action::ChannelsAnimated => {
                let mut on = 0;
                for (i, e) in self.enabled.iter_mut().enumerate() {
                    *e = listed.contains(&i) && clip.tracks.get(i).is_some_and(channels::animated);
                    on += usize::from(*e);
                }
                self.choice.remember(clip, &self.enabled);
                return vec![Effect::Message(
                    Level::Info,
                    format!("animated channels only: {on} of {} move", listed.len()),
                )];
            }
            Action::Left | Action::FramePrev => self.frame = self.frame.saturating_sub(1),
            Action::Right | Action::FrameNext => self.frame = (self.frame + 1).min(last),
            Action::PageUp => self.frame = self.frame.saturating_sub(10),
            Action::PageDown => self.frame = (self.frame + 10).min(last),
            Action::Home => self.frame = 0,
            Action::End => self.frame = last,
            Action::Toggle | Action::Activate => {
                if let Some(e) = self.enabled.get_mut(self.chan) {
                    *e = !*e;
                }
                self.choice.remember(clip, &self.enabled);
            }
            _ => {}
        }
        Vec::new()
    }

    fn after_draw(&mut self, g: &Option<DecodeGeometry>) {
        if let Some(g) = g {
            if self.enabled.len() != g.tracks {
                self.enabled = g.enabled.clone();
            }
            if self.chan != g.chan {
                self.on_group = false;
            }
            self.chan = g.chan;
            self.frame = g.frame;
            self.chan_top = g.chan_top;
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, ctx: &Ctx<'_>) -> Option<DecodeGeometry> {
        let (clip, again) = self.clip_to_draw(ctx.clip().cloned());
        let theme = ctx.theme;
        if clip.is_none() && self.draw_texture(f, area, ctx) {
            return None;
        }
        let overlay = self.overlay.borrow().clone();
        let mut title = self.title(clip.as_ref(), overlay.is_some());
        if again {
            title.push_str(" · decoding…");
        }
        let inner = ctx.framed(f, area, Pane::Decode, title)?;
        let buf = f.buffer_mut();
        let clip = ready_or_say(buf, inner, theme, clip)?;
        if inner.height == 0 || inner.width < 10 {
            return None;
        }
        let rows = channels::rows(&clip, &self.choice.filter);
        let mut geometry = self.settle(&clip, &rows);
        let (chan, frame) = (geometry.chan, geometry.frame);
        let header = self.header(&clip, overlay.as_deref(), (chan, frame), inner.height);
        let hl = draw_header(buf, inner, &header);
        let body = Rect::new(inner.x, inner.y + hl, inner.width, inner.height.saturating_sub(hl));
        if body.height == 0 {
            return Some(geometry);
        }
        let (list, plot) = split_body(body, &clip, &rows);
        let pos = if chan == self.chan {
            self.cursor_row(&rows)
        } else {
            rows.iter().position(|r| matches!(r, Row::Chan { index, .. } if *index == chan)).unwrap_or(0)
        };
        geometry.chan_top = scrolled_top(self.chan_top, pos, rows.len(), list.height as usize);
        let listing = Listing { rows: &rows, enabled: &geometry.enabled, pos, top: geometry.chan_top, frame };
        self.draw_list(buf, ctx, &clip, &listing, list);
        if self.tables {
            draw_tables(buf, theme, &clip, frame, plot);
            return Some(geometry);
        }
        self.draw_curves(buf, theme, (&clip, overlay.as_deref()), &geometry, plot);
        Some(geometry)
    }
}

impl DecodePane {
    /// The clip to draw for `clip` (the selection's): while the clip shown last is decoded
    /// again (an edit), that clip, and true. A clip newly decoded for the node shown last
    /// drops that node's kept plots (its values may have changed).
    fn clip_to_draw(&self, clip: Option<Load<Arc<Clip>>>) -> (Option<Load<Arc<Clip>>>, bool) {
        let Some(key) = self.shown else { return (clip, false) };
        let mut last = self.last_ready.borrow_mut();
        match &clip {
            Some(Load::Pending(_)) => match last.as_ref() {
                Some((k, c)) if *k == key => (Some(Load::Ready(Arc::clone(c))), true),
                _ => (clip, false),
            },
            Some(Load::Ready(c)) => {
                if let Some((k, old)) = last.as_ref()
                    && *k == key
                    && !Arc::ptr_eq(old, c)
                {
                    self.plot_cache.borrow_mut().retain(|p, _| (p.0, p.1) != key);
                }
                *last = Some((key, Arc::clone(c)));
                (clip, false)
            }
            _ => {
                *last = None;
                (clip, false)
            }
        }
    }
}

/// The clip when it is decoded; otherwise what there is instead (no clip, decoding,
/// failed) said in `inner`, and None.
fn ready_or_say(
    buf: &mut Buffer,
    inner: Rect,
    theme: &super::theme::Theme,
    clip: Option<Load<Arc<Clip>>>,
) -> Option<Arc<Clip>> {
    let w = inner.width as usize;
    let (text, style) = match clip {
        None => ("no animation on this node (select a clip, sequence or Anime)".to_string(), theme.dim),
        Some(Load::Pending(t)) => (format!("decoding… {:.1}s", t.elapsed().as_secs_f32()), theme.warn),
        Some(Load::Failed(e)) => (format!("decode failed: {e}"), theme.error),
        Some(Load::Ready(c)) => return Some(c),
    };
    for (i, line) in wrap(&text, w).iter().take(inner.height as usize).enumerate() {
        buf.set_stringn(inner.x, inner.y + i as u16, line, w, style);
    }
    None
}

/// The header's lines in `inner`'s top rows: wrapped (a key's detail, e.g. a stored turn
/// in degrees, is read whole at any width), on at most a third of the rows. Returns the
/// rows taken.
fn draw_header(buf: &mut Buffer, inner: Rect, header: &str) -> u16 {
    let w = inner.width as usize;
    let header_lines = if header.chars().count() <= w { vec![header.to_string()] } else { wrap_hard(header, w) };
    let hl = header_lines.len().clamp(1, usize::from(inner.height / 3).max(1)) as u16;
    for (i, l) in header_lines.iter().take(usize::from(hl)).enumerate() {
        buf.set_stringn(inner.x, inner.y + i as u16, l, w, Style::new().add_modifier(Modifier::BOLD));
    }
    hl
}

/// The channel list left (or on top when narrow) and the plot right (or below).
fn split_body(body: Rect, clip: &Clip, rows: &[Row]) -> (Rect, Rect) {
    if body.width >= 60 {
        // wide enough for names and values (a fixed allowance for values, so scrubbing
        // does not move the plot), at most half the pane
        let longest = clip.tracks.iter().map(|t| t.name.chars().count() + 4 + 22).max();
        let lw = (longest.unwrap_or(24) as u16).clamp(24, body.width / 2);
        (
            Rect::new(body.x, body.y, lw, body.height),
            Rect::new(body.x + lw + 1, body.y, body.width - lw - 1, body.height),
        )
    } else {
        let lh = (body.height / 3).max(1).min(rows.len().max(1) as u16);
        (Rect::new(body.x, body.y, body.width, lh), Rect::new(body.x, body.y + lh, body.width, body.height - lh))
    }
}

/// The first row of a list of `len` rows, `shown` at a time, that keeps row `pos` in view,
/// moved as little as possible from `top`.
fn scrolled_top(top: usize, pos: usize, len: usize, shown: usize) -> usize {
    let mut top = top.min(len.saturating_sub(1));
    if pos < top {
        top = pos;
    } else if shown > 0 && pos >= top + shown {
        top = pos + 1 - shown;
    }
    top
}

/// The channel list as a frame draws it: its rows, which are drawn, the cursor's row, the
/// first row shown and the frame whose values are shown.
struct Listing<'a> {
    rows: &'a [Row],
    enabled: &'a [bool],
    pos: usize,
    top: usize,
    frame: usize,
}

impl DecodePane {
    /// The pane's title: the clip, its frames and rate, channels on, and the filter.
    fn title(&self, clip: Option<&Load<Arc<Clip>>>, overlay: bool) -> String {
        // diff mode: "A/B" says B's curves are drawn under A's
        let pane = if overlay { "Decode A/B" } else { "Decode" };
        let Some(Load::Ready(c)) = clip else { return pane.to_string() };
        let on = if self.enabled.len() == c.tracks.len() {
            self.enabled.iter().filter(|e| **e).count()
        } else {
            self.choice.initial(c).iter().filter(|e| **e).count()
        };
        let mut t = format!("{pane} · {}  {} frames @{} Hz · {on}/{} on", c.name, c.frame_count, c.fps, c.tracks.len());
        if !self.choice.filter.trim().is_empty() {
            t.push_str(&format!(" · filter {:?}", self.choice.filter.trim()));
        }
        t
    }

    /// The channel list and frame cursor settled on `clip`: the channels drawn, the cursor's
    /// channel (the first listed when the filter hides it) and frame, clamped.
    fn settle(&self, clip: &Clip, rows: &[Row]) -> DecodeGeometry {
        let n = clip.tracks.len();
        let enabled = if self.enabled.len() == n { self.enabled.clone() } else { self.choice.initial(clip) };
        let listed = |i: usize| rows.iter().any(|r| matches!(r, Row::Chan { index, .. } if *index == i));
        let mut chan = self.chan.min(n.saturating_sub(1));
        if !listed(chan) {
            // the filter hides the channel under the cursor: the first one listed
            chan = rows
                .iter()
                .find_map(|r| match r {
                    Row::Chan { index, .. } => Some(*index),
                    Row::Bone(..) => None,
                })
                .unwrap_or(chan);
        }
        let frame = self.frame.min(clip.frame_count.saturating_sub(1));
        DecodeGeometry { tracks: n, enabled, chan, frame, chan_top: self.chan_top }
    }

    /// The header: the frame cursor, the channel under the cursor with its value (and its
    /// key's detail on a key), and the clip's first note when `height` has rows to spare.
    fn header(&self, clip: &Clip, overlay: Option<&Clip>, (chan, frame): (usize, usize), height: u16) -> String {
        let mut header = format!("frame {frame}/{}", clip.frame_count.saturating_sub(1));
        // diff mode: the channels one side lacks, counted (as `diff --summary` says them),
        // first, so the header's row limit does not cut it
        if let Some(b) = overlay {
            let sides = ab_channels(clip, b);
            if !sides.is_empty() {
                header.push_str(&format!(" · {sides} ·"));
            }
        }
        if let Some(t) = clip.tracks.get(chan) {
            header.push_str(&format!("  {} = {}", t.name, value_text(t, frame)));
            // a key's text may be made only now (a clip whose tracks came on demand)
            let key = t.keys.iter().position(|k| (k.frame - frame as f64).abs() < 1e-9);
            if let Some(detail) = key.and_then(|k| clip.key_detail(chan, k)) {
                header.push_str(&format!("  key: {detail}"));
            }
        }
        if let Some(note) = clip.notes.first().filter(|_| height >= 16) {
            header.push_str(&format!("  · {note}"));
        }
        header
    }

    /// The channel list in `list`: bone rows with how many of theirs are on, channel rows
    /// with their value at the frame, in their curve's colour when drawn.
    fn draw_list(&self, buf: &mut Buffer, ctx: &Ctx<'_>, clip: &Clip, l: &Listing<'_>, list: Rect) {
        let theme = ctx.theme;
        if l.rows.is_empty() {
            let msg = format!("no channel matches {:?} (esc at the filter clears it)", self.choice.filter.trim());
            buf.set_stringn(list.x, list.y, msg, list.width as usize, theme.dim);
        }
        let is_on = |i: usize| l.enabled.get(i).copied().unwrap_or(false);
        let shown = || l.rows.iter().skip(l.top).take(list.height as usize);
        // the values in one column, right-aligned: a frame step rewrites only the digits
        // that changed, at the same columns on every row (issue 48)
        let name_w = shown()
            .filter_map(|r| match r {
                Row::Chan { index, grouped } => clip.tracks.get(*index).map(|t| {
                    let marker = if theme.mono && is_on(*index) { 2 } else { 0 };
                    let indent = if *grouped { 2 } else { 0 };
                    indent + 4 + marker + crate::model::sanitize(channels::short_name(t, *grouped)).chars().count()
                }),
                Row::Bone(..) => None,
            })
            .max()
            .unwrap_or(0);
        for (row, (k, r)) in l.rows.iter().enumerate().skip(l.top).take(list.height as usize).enumerate() {
            let (text, on, colour_of) = match r {
                Row::Bone(name, idx) => {
                    let on = idx.iter().filter(|&&i| is_on(i)).count();
                    let mark = match on {
                        0 => "[ ]",
                        x if x == idx.len() => "[x]",
                        _ => "[-]",
                    };
                    (format!("{mark} {} ({on}/{})", crate::model::sanitize(name), idx.len()), on > 0, None)
                }
                Row::Chan { index, grouped } => {
                    let Some(t) = clip.tracks.get(*index) else { continue };
                    let on = is_on(*index);
                    let mark = if on { "[x]" } else { "[ ]" };
                    let marker = if theme.mono && on { format!("{} ", curve_marker(*index)) } else { String::new() };
                    let indent = if *grouped { "  " } else { "" };
                    let name = crate::model::sanitize(channels::short_name(t, *grouped));
                    let head = format!("{indent}{mark} {marker}{name}");
                    let pad = name_w.saturating_sub(head.chars().count());
                    (format!("{head}{:pad$} {}", "", list_value_text(t, l.frame)), on, Some(*index))
                }
            };
            let mut style = match (on, colour_of) {
                (true, Some(i)) => {
                    Style::new().fg(theme.channels.get(i % theme.channels.len()).copied().unwrap_or_default())
                }
                (true, None) => Style::new().add_modifier(Modifier::BOLD),
                (false, _) => theme.dim,
            };
            if k == l.pos {
                style = if ctx.focus == Pane::Decode { theme.selected } else { style.add_modifier(Modifier::REVERSED) };
            }
            buf.set_stringn(list.x, list.y + row as u16, text, list.width as usize, style);
        }
    }

    /// The curves of the channels drawn in `plot` (the other file's under them in diff
    /// mode), each plot kept for the next frame.
    fn draw_curves(
        &self,
        buf: &mut Buffer,
        theme: &super::theme::Theme,
        (clip, overlay): (&Clip, Option<&Clip>),
        g: &DecodeGeometry,
        plot: Rect,
    ) {
        let enabled: Vec<usize> = (0..g.tracks).filter(|i| g.enabled.get(*i).copied().unwrap_or(false)).collect();
        let mut plots = self.plot_cache.borrow_mut();
        if plots.len() > PLOT_CACHE_MAX {
            plots.clear();
        }
        let shown = self.shown;
        let mut cache = |i: usize, w: u32, h: u32, lo: f32, hi: f32, draw: &dyn Fn() -> Vec<Vec<u8>>| {
            let Some((d, node)) = shown else { return Arc::new(draw()) };
            let key = (d, node, i, w, h, lo.to_bits(), hi.to_bits());
            Arc::clone(plots.entry(key).or_insert_with(|| Arc::new(draw())))
        };
        if let Some(b) = overlay {
            draw_overlay(buf, theme, clip, b, &enabled, self.normalize, plot);
        }
        let of = PlotOf { clip, enabled: &enabled, chan: g.chan, frame: g.frame, normalize: self.normalize };
        draw_plot(buf, theme, of, plot, &mut cache);
    }
}

impl DecodePane {
    /// Draw the selected node's picture when it is one (a texture): true when drawn.
    fn draw_texture(&self, f: &mut Frame, area: Rect, ctx: &Ctx<'_>) -> bool {
        let opened = &ctx.cur().opened;
        // what the budget has left beside the members and clips held now
        let limits = opened.decode_limits();
        let Some(pic) = self.texture.picture(ctx.sel, || {
            let image = opened.pictures().and_then(|p| p.image(ctx.sel.1, &limits));
            image.map(|r| r.map(Arc::new).map_err(|e| e.to_string()))
        }) else {
            return false;
        };
        let key = ctx.cur().doc().node(ctx.sel.1).map(|n| n.key.to_string()).unwrap_or_default();
        let title = format!("Texture · {}", crate::model::sanitize(&key));
        let Some(inner) = ctx.framed(f, area, Pane::Decode, title) else { return true };
        let buf = f.buffer_mut();
        match pic {
            Ok(img) => self.texture.draw(ctx.sel, &img, inner, buf, ctx.theme),
            Err(e) => {
                let msg = format!("texture not decoded: {}", crate::model::sanitize(&e));
                for (i, line) in wrap(&msg, usize::from(inner.width)).iter().take(usize::from(inner.height)).enumerate()
                {
                    buf.set_stringn(inner.x, inner.y + i as u16, line, usize::from(inner.width), ctx.theme.error);
                }
            }
        }
        true
    }
}

/// Diff mode: how the channel sets of A's clip and B's differ, `54 channels only in A, 2
/// channels only in B` (empty when both have the same channels).
pub fn ab_channels(a: &Clip, b: &Clip) -> String {
    fn names(c: &Clip) -> std::collections::HashSet<&str> {
        c.tracks.iter().map(|t| t.name.as_str()).collect()
    }
    let (na, nb) = (names(a), names(b));
    let only_a = a.tracks.iter().filter(|t| !nb.contains(t.name.as_str())).count();
    let only_b = b.tracks.iter().filter(|t| !na.contains(t.name.as_str())).count();
    let mut parts = Vec::new();
    for (n, side) in [(only_a, "A"), (only_b, "B")] {
        if n > 0 {
            parts.push(format!("{} only in {side}", crate::diff::channels_text(n)));
        }
    }
    parts.join(", ")
}

/// Smallest plot textplots may be asked for, in dots (it panics below 32×3).
pub const MIN_DOTS_W: u32 = 32;
/// Smallest plot height in dots we draw (two text rows).
pub const MIN_DOTS_H: u32 = 8;

/// A number in at most about 7 characters for axis labels.
fn short(v: f64) -> String {
    // a negative zero would print as `-0`
    let v = if v == 0.0 { 0.0 } else { v };
    if v == 0.0 || (0.001..10000.0).contains(&v.abs()) {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.2e}")
    }
}

/// `v` with `places` decimals, without a minus sign on a value that rounds to zero.
pub fn fixed(v: f64, places: usize) -> String {
    crate::model::fmt_fixed(v, places)
}

/// A channel's value at `frame` with its unit; radians also in degrees.
pub fn value_text(t: &Track, frame: usize) -> String {
    match t.samples.get(frame) {
        Some(v) => {
            let unit = t.unit.to_string();
            let raw = if t.unknown { " raw?" } else { "" };
            let deg = if t.unit == crate::model::anim::Unit::Radians && v.is_finite() {
                format!(" ({}°)", fixed(v.to_degrees(), 1))
            } else {
                String::new()
            };
            if unit.is_empty() {
                format!("{}{raw}", fixed(*v, 4))
            } else {
                format!("{} {unit}{deg}{raw}", fixed(*v, 4))
            }
        }
        None => "—".into(),
    }
}

/// A channel's value at `frame` as the channel list shows it: right-aligned in a column of
/// [`LIST_VALUE_W`] with its unit, radians without the degrees (the header gives them for
/// the channel under the cursor), so a frame step changes few cells a row.
pub fn list_value_text(t: &Track, frame: usize) -> String {
    match t.samples.get(frame) {
        Some(v) => {
            let unit = t.unit.to_string();
            let raw = if t.unknown { " raw?" } else { "" };
            let sep = if unit.is_empty() { "" } else { " " };
            format!("{:>w$}{sep}{unit}{raw}", fixed(*v, 4), w = LIST_VALUE_W)
        }
        None => format!("{:>w$}", "—", w = LIST_VALUE_W),
    }
}

/// The width of the channel list's value column (`-999.9999`; wider values push the unit
/// right).
pub const LIST_VALUE_W: usize = 9;

/// The clip's stored tables as text; in a table with one row per logical frame the row of
/// the frame cursor is marked and kept in view. Rows made on demand
/// ([`Clip::tracks_on_demand`]) are made only for the lines shown, and their columns are as
/// wide as the shown rows need.
fn draw_tables(buf: &mut Buffer, theme: &super::theme::Theme, clip: &Clip, frame: usize, area: Rect) {
    let w = area.width as usize;
    if clip.tables.is_empty() {
        buf.set_stringn(area.x, area.y, "this clip has no stored tables (t: back to the plot)", w, theme.dim);
        return;
    }
    let lazy = clip.tracks_on_demand.as_ref();
    let row_count = |ti: usize, t: &crate::model::anim::Table| match lazy {
        Some(l) if t.rows.is_empty() => l.row_count(ti),
        _ => t.rows.len(),
    };
    // Lines: per table a title, the column heads, its rows and a blank line.
    let mut starts = Vec::with_capacity(clip.tables.len());
    let mut focus_line = 0;
    let mut total = 0;
    for (ti, t) in clip.tables.iter().enumerate() {
        starts.push(total);
        let n = row_count(ti, t);
        if n == clip.frame_count && frame < n && focus_line == 0 {
            focus_line = total + 2 + frame;
        }
        total += n + 3;
    }
    let rows = area.height as usize;
    let top = focus_line.saturating_sub(rows / 2).min(total.saturating_sub(rows));
    let shown = top..(top + rows).min(total);
    let mut y = area.y;
    for (ti, t) in clip.tables.iter().enumerate() {
        let (first, n) = (starts.get(ti).copied().unwrap_or(0), row_count(ti, t));
        let (lo, hi) = (shown.start.max(first), shown.end.min(first + n + 3));
        if lo >= hi {
            continue;
        }
        // the rows of this table on screen (line `first + 2 + r` is row `r`)
        let visible = lo.saturating_sub(first + 2).min(n)..hi.saturating_sub(first + 2).min(n);
        let cells: Vec<std::borrow::Cow<'_, [String]>> = visible
            .clone()
            .map(|r| match lazy {
                Some(l) if t.rows.is_empty() => std::borrow::Cow::Owned(l.row(ti, r)),
                _ => std::borrow::Cow::Borrowed(t.rows.get(r).map_or(&[][..], Vec::as_slice)),
            })
            .collect();
        let widths: Vec<usize> = (0..t.columns.len())
            .map(|c| {
                let width_of = |r: &[String]| r.get(c).map(|x| x.chars().count());
                let cells: Vec<usize> = if t.rows.is_empty() {
                    cells.iter().filter_map(|r| width_of(r)).collect()
                } else {
                    t.rows.iter().filter_map(|r| width_of(r)).collect()
                };
                cells.into_iter().chain(t.columns.get(c).map(|h| h.chars().count())).max().unwrap_or(1).min(24)
            })
            .collect();
        let fmt_row = |cells: &[String]| -> String {
            cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect::<Vec<_>>().join("  ")
        };
        let per_frame = n == clip.frame_count;
        for line in lo..hi {
            let (text, style) = match line - first {
                0 => (format!("{} ({n} rows)", t.name), Style::new().add_modifier(Modifier::BOLD)),
                1 => (fmt_row(&t.columns), Style::new().add_modifier(Modifier::UNDERLINED)),
                k if k - 2 < n => {
                    let r = k - 2;
                    let text = cells.get(r - visible.start).map_or_else(String::new, |c| fmt_row(c));
                    let marked = per_frame && r == frame;
                    (text, if marked { Style::new().add_modifier(Modifier::REVERSED) } else { Style::new() })
                }
                _ => (String::new(), Style::new()),
            };
            buf.set_stringn(area.x, y, &text, w, style);
            y += 1;
        }
    }
}

type PlotCache<'a> = dyn FnMut(usize, u32, u32, f32, f32, &dyn Fn() -> Vec<Vec<u8>>) -> Arc<Vec<Vec<u8>>> + 'a;

/// One channel plotted by textplots, as braille dot bits per text cell.
fn plot_bits(t: &Track, cw: u32, ch: u32, xmax: f32, ylo: f32, yhi: f32) -> Vec<Vec<u8>> {
    let pts: Vec<(f32, f32)> =
        t.samples.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(x, v)| (x as f32, *v as f32)).collect();
    let mut chart = Chart::new_with_y_range(cw, ch, 0.0, xmax, ylo, yhi);
    let shape = Shape::Lines(&pts);
    let c = chart.lineplot(&shape);
    c.figures();
    c.frame()
        .lines()
        .map(|line| {
            line.chars()
                .map(|chr| {
                    let bits = u32::from(chr).wrapping_sub(0x2800);
                    if bits <= 0xff { bits as u8 } else { 0 }
                })
                .collect()
        })
        .collect()
}

/// What the plot shows: the clip, its enabled channels, the channel and frame under the
/// cursor, and whether curves are normalised to one range.
struct PlotOf<'a> {
    clip: &'a Clip,
    enabled: &'a [usize],
    chan: usize,
    frame: usize,
    normalize: bool,
}

fn draw_plot(buf: &mut Buffer, theme: &super::theme::Theme, of: PlotOf<'_>, area: Rect, cache: &mut PlotCache<'_>) {
    let PlotOf { clip, enabled, chan, frame, normalize } = of;
    let dots_w = u32::from(area.width) * 2;
    let text_rows = area.height.saturating_sub(2); // x labels + key markers
    let dots_h = u32::from(text_rows) * 4;
    if dots_w < MIN_DOTS_W + 2 || dots_h < MIN_DOTS_H {
        buf.set_stringn(area.x, area.y, "plot too small (needs 17×4 cells; z zooms)", area.width as usize, theme.dim);
        return;
    }
    if clip.frame_count < 2 {
        buf.set_stringn(area.x, area.y, "fewer than two frames: nothing to plot", area.width as usize, theme.dim);
        return;
    }
    if enabled.is_empty() {
        buf.set_stringn(area.x, area.y, "no channel enabled (space toggles)", area.width as usize, theme.dim);
        return;
    }
    let xmax = (clip.frame_count - 1) as f32;
    let Some((ylo, yhi)) = y_range(clip, &mut enabled.iter().copied()) else {
        buf.set_stringn(area.x, area.y, "no finite samples", area.width as usize, theme.dim);
        return;
    };
    // textplots may touch one dot past its width; keep a column spare
    let (cw, ch) = (dots_w - 2, dots_h);
    // without colour each curve carries its marker every few columns (see the channel list)
    let mut marks: Vec<(u16, u16, char)> = Vec::new();
    for (k, &i) in enabled.iter().enumerate() {
        let Some(t) = clip.tracks.get(i) else { continue };
        let (lo, hi) =
            if normalize { y_range(clip, &mut std::iter::once(i)).unwrap_or((ylo, yhi)) } else { (ylo, yhi) };
        let grid = cache(i, cw, ch, lo, hi, &|| plot_bits(t, cw, ch, xmax, lo, hi));
        if theme.mono {
            let every = (enabled.len() as u16 + 1).max(6) * 2;
            let mut col = (k as u16 * 2 + 1) % every;
            while col < area.width {
                if let Some(row) =
                    grid.iter().take(text_rows as usize).position(|l| l.get(usize::from(col)).is_some_and(|b| *b != 0))
                {
                    marks.push((col, row as u16, curve_marker(i)));
                }
                col += every;
            }
        }
        let color = theme.channels.get(i % theme.channels.len()).copied().unwrap_or_default();
        for (row, line) in grid.iter().take(text_rows as usize).enumerate() {
            for (col, &bits) in line.iter().take(area.width as usize).enumerate() {
                if bits == 0 {
                    continue;
                }
                let bits = u32::from(bits);
                if let Some(cell) = buf.cell_mut((area.x + col as u16, area.y + row as u16)) {
                    let old = cell.symbol().chars().next().map_or(0, |c| u32::from(c).wrapping_sub(0x2800));
                    let merged = if old <= 0xff { old | bits } else { bits };
                    cell.set_char(char::from_u32(0x2800 + merged).unwrap_or(' '));
                    if !theme.mono {
                        cell.set_fg(color);
                    }
                }
            }
        }
    }
    for (col, row, m) in marks {
        if let Some(cell) = buf.cell_mut((area.x + col, area.y + row)) {
            cell.set_char(m);
        }
    }
    // frame cursor: its column reversed in the plot's top row, and `┴` on the axis below
    // (not the whole column: a frame step would rewrite two cells on every row of the plot,
    // most of what a step costs on a slow link)
    let col_of = |f: f64| -> u16 { ((f as f32 / xmax * cw as f32) as u32 / 2).min(u32::from(area.width) - 1) as u16 };
    let fc = col_of(frame as f64);
    if let Some(cell) = buf.cell_mut((area.x + fc, area.y)) {
        cell.set_style(Style::new().add_modifier(Modifier::REVERSED));
    }
    // key markers of the channel under the cursor, then the x labels
    let ky = area.y + text_rows;
    if let Some(t) = clip.tracks.get(chan) {
        for k in &t.keys {
            if k.frame >= 0.0 && k.frame <= f64::from(xmax) {
                buf.set_string(area.x + col_of(k.frame), ky, "▴", theme.warn);
            }
        }
    }
    buf.set_string(area.x + fc, ky, "┴", Style::new().add_modifier(Modifier::BOLD));
    let ly = ky + 1;
    let right = format!("{}", clip.frame_count - 1);
    let label = if normalize {
        "0  y: each channel in its own range (=)".to_string()
    } else {
        format!("0  y {}..{}", short(f64::from(ylo)), short(f64::from(yhi)))
    };
    buf.set_stringn(area.x, ly, label, area.width as usize, theme.dim);
    let rx = area.x + area.width.saturating_sub(right.len() as u16);
    buf.set_string(rx, ly, right, theme.dim);
}

/// The y range `draw_plot` uses for `ids` of `clip` (None without finite samples).
fn y_range(clip: &Clip, ids: &mut dyn Iterator<Item = usize>) -> Option<(f32, f32)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in ids {
        if let Some(t) = clip.tracks.get(i) {
            for v in t.samples.iter().filter(|v| v.is_finite()) {
                lo = lo.min(*v);
                hi = hi.max(*v);
            }
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return None;
    }
    Some(if hi > lo { (lo as f32, hi as f32) } else { (lo as f32 - 1.0, hi as f32 + 1.0) })
}

/// Diff mode: B's tracks named like A's enabled ones, in A's y range and frames, in the
/// overlay style; A's curves are drawn over them (cells both touch take A's colour).
fn draw_overlay(
    buf: &mut Buffer,
    theme: &super::theme::Theme,
    a: &Clip,
    b: &Clip,
    enabled: &[usize],
    normalize: bool,
    area: Rect,
) {
    let dots_w = u32::from(area.width) * 2;
    let text_rows = area.height.saturating_sub(2);
    let dots_h = u32::from(text_rows) * 4;
    if dots_w < MIN_DOTS_W + 2 || dots_h < MIN_DOTS_H || a.frame_count < 2 {
        return;
    }
    let Some((ylo, yhi)) = y_range(a, &mut enabled.iter().copied()) else { return };
    let xmax = (a.frame_count - 1) as f32;
    let (cw, ch) = (dots_w - 2, dots_h);
    for &i in enabled {
        let Some(ta) = a.tracks.get(i) else { continue };
        let Some(tb) = b.tracks.iter().find(|t| t.name == ta.name) else { continue };
        let (lo, hi) = if normalize { y_range(a, &mut std::iter::once(i)).unwrap_or((ylo, yhi)) } else { (ylo, yhi) };
        // B's samples past A's range are clamped to its edges rather than dropped.
        let clamped = crate::model::anim::Track {
            samples: tb.samples.iter().map(|v| v.clamp(f64::from(lo), f64::from(hi))).collect(),
            ..tb.clone()
        };
        let grid = plot_bits(&clamped, cw, ch, xmax, lo, hi);
        for (row, line) in grid.iter().take(text_rows as usize).enumerate() {
            for (col, &bits) in line.iter().take(area.width as usize).enumerate() {
                if bits == 0 {
                    continue;
                }
                if let Some(cell) = buf.cell_mut((area.x + col as u16, area.y + row as u16)) {
                    cell.set_char(char::from_u32(0x2800 + u32::from(bits)).unwrap_or(' '));
                    cell.set_style(theme.dim);
                }
            }
        }
    }
}

#[cfg(test)]
mod number_tests {
    use super::*;
    use crate::model::anim::Unit;

    /// Axis labels and the value column never show a negative zero: `-0.0` is `0`, and
    /// `-0.00004` at four places is `0.0000`; a value that does not round to zero keeps its
    /// sign.
    #[test]
    fn zero_has_no_minus_sign() {
        assert_eq!(short(-0.0), "0");
        assert_eq!(short(-0.25), "-0.25");
        let t = Track {
            name: "root.x".into(),
            target: "root".into(),
            unit: Unit::Unitless,
            keys: Vec::new(),
            samples: vec![-0.0, -0.00004, -0.0002],
            unknown: false,
        };
        assert_eq!(value_text(&t, 0), "0.0000");
        assert_eq!(value_text(&t, 1), "0.0000");
        assert_eq!(value_text(&t, 2), "-0.0002");
        let r = Track { unit: Unit::Radians, samples: vec![-0.0001], ..t };
        // -0.0001 rad is -0.0057°: one place rounds it to zero, unsigned
        assert_eq!(value_text(&r, 0), format!("-0.0001 {} (0.0°)", Unit::Radians));
    }

    /// While the clip shown is decoded again (after an edit) the pane keeps drawing the
    /// clip it had, saying so in the title; another node's pending clip is not replaced.
    #[test]
    fn a_clip_decoded_again_keeps_the_old_one_on_screen() {
        let mut pane = DecodePane::default();
        let key = (0, NodeId(7));
        pane.show(key);
        pane.frame = 5;
        let old = Arc::new(Clip::new("c", 30.0, 10));
        let (c, again) = pane.clip_to_draw(Some(Load::Ready(Arc::clone(&old))));
        assert!(matches!(c, Some(Load::Ready(ref c)) if Arc::ptr_eq(c, &old)) && !again);
        let (c, again) = pane.clip_to_draw(Some(Load::Pending(std::time::Instant::now())));
        assert!(matches!(c, Some(Load::Ready(ref c)) if Arc::ptr_eq(c, &old)), "{c:?}");
        assert!(again);
        assert_eq!(pane.frame, 5);
        let new = Arc::new(Clip::new("c", 30.0, 10));
        let (c, again) = pane.clip_to_draw(Some(Load::Ready(Arc::clone(&new))));
        assert!(matches!(c, Some(Load::Ready(ref c)) if Arc::ptr_eq(c, &new)) && !again);
        pane.show((0, NodeId(8)));
        let (c, again) = pane.clip_to_draw(Some(Load::Pending(std::time::Instant::now())));
        assert!(matches!(c, Some(Load::Pending(_))) && !again, "{c:?}");
    }

    /// The list's values end in one column whatever their sign and size, radians without
    /// their degrees.
    #[test]
    fn list_values_are_right_aligned() {
        let t = Track {
            name: "root.x".into(),
            target: "root".into(),
            unit: Unit::Radians,
            keys: Vec::new(),
            samples: vec![-1.01664, 0.5, 123.0],
            unknown: false,
        };
        let rad = Unit::Radians.to_string();
        assert_eq!(list_value_text(&t, 0), format!("  -1.0166 {rad}"));
        assert_eq!(list_value_text(&t, 1), format!("   0.5000 {rad}"));
        assert_eq!(list_value_text(&t, 2), format!(" 123.0000 {rad}"));
        assert_eq!(list_value_text(&t, 3), "        —");
        let u = Track { unit: Unit::Unitless, ..t };
        assert_eq!(list_value_text(&u, 0), "  -1.0166");
    }
}
