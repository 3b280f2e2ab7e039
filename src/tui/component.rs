//! What the panes have in common. Each pane is a [`Component`]: it owns its state, handles
//! the actions routed to it and draws from `&self`, reading the rest of the inspector
//! through a [`Ctx`]. A pane never changes another pane or the selection itself: it
//! returns [`Effect`]s and the app applies them, so cross-pane behaviour (the selection
//! following the hex cursor, the tree following the selection) lives in one place.

use super::action::Action;
use super::theme::Theme;
use super::workspace::{DocEntry, Load, Workspace};
use crate::model::NodeId;
use crate::model::anim::Clip;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding};
use std::sync::Arc;

/// A pane of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    /// The document tree.
    Tree,
    /// Field-annotated hex.
    Hex,
    /// The selected node's fields.
    Fields,
    /// Plots of the selected clip's channels.
    Decode,
    /// The walk trace.
    Walk,
    /// Diagnostics and bookmarks.
    Diagnostics,
}

impl Pane {
    /// Focus order.
    pub const ALL: [Pane; 6] = [Pane::Tree, Pane::Hex, Pane::Fields, Pane::Decode, Pane::Walk, Pane::Diagnostics];

    /// Title word.
    pub fn name(self) -> &'static str {
        match self {
            Pane::Tree => "Tree",
            Pane::Hex => "Hex",
            Pane::Fields => "Fields",
            Pane::Decode => "Decode",
            Pane::Walk => "Walk",
            Pane::Diagnostics => "Diagnostics",
        }
    }
}

/// How a status message is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Plain information.
    Info,
    /// Something did not work.
    Error,
}

/// What a pane asks of the rest of the inspector after handling an action, applied in
/// order by the app.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Move the hex cursor in the selected document; the selection follows it.
    Cursor(u64),
    /// The tree selected (document, node): the selection follows, and the hex cursor moves
    /// to the node's start unless it is already inside.
    TreeSelected(usize, NodeId),
    /// Open the archive member at (document, node) in the background.
    OpenMember(usize, NodeId),
    /// The fields pane selected field `index` of `node`, which starts at `start`: the hex
    /// cursor goes there (the selected node stays).
    Field {
        /// The node whose field it is.
        node: NodeId,
        /// Index in its fields.
        index: usize,
        /// Where the field starts.
        start: u64,
    },
    /// Focus a pane.
    Focus(Pane),
    /// Show this offset of document `doc` in hex (focused).
    GotoDoc(usize, u64),
    /// Go to walk step `i` of the selected document.
    WalkTo(usize),
    /// Write this escape sequence to the terminal (an OSC 52 copy).
    Osc(String),
    /// Show a status message.
    Message(Level, String),
}

/// What a pane reads from the rest of the inspector while handling an action or drawing.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// The opened documents and their loads.
    pub ws: &'a Workspace,
    /// Selected (document, node).
    pub sel: (usize, NodeId),
    /// Selected field (node, index) in the selected document.
    pub field_sel: Option<(NodeId, usize)>,
    /// Focused pane.
    pub focus: Pane,
    /// Styles.
    pub theme: &'a Theme,
    /// Walk mode: the current walk step is highlighted in hex.
    pub walk_mode: bool,
    /// Where each pane is: while drawing, this frame's; while handling, the last frame's
    /// (paging by the visible height).
    pub panes: &'a [(Pane, Rect)],
    /// Edits not written yet (hex marks the bytes they changed).
    pub edits: &'a super::edits::Edits,
}

impl<'a> Ctx<'a> {
    /// The selected document entry.
    pub fn cur(&self) -> &'a DocEntry {
        self.ws.entry(self.sel.0)
    }

    /// The clip for the selection, if its decode was started.
    pub fn clip(&self) -> Option<&'a Load<Arc<Clip>>> {
        self.ws.clip(self.sel)
    }

    /// Where `pane` is on screen, if it is shown.
    pub fn area_of(&self, pane: Pane) -> Option<Rect> {
        self.panes.iter().find(|r| r.0 == pane).map(|r| r.1)
    }

    /// A pane's block: its title on a rule above it; the focused pane stands out.
    pub fn block(&self, pane: Pane, title: String) -> Block<'static> {
        let style = if self.focus == pane { self.theme.border_focus } else { self.theme.border };
        let mark = if self.focus == pane { "▶ " } else { "" };
        // Only a rule with the title on top: side and bottom borders cost a slow link three
        // bytes a cell and a colour change on every row (about a quarter of a first frame).
        // The inner area is what a full border leaves (one column each side, one row below,
        // blank), so panes side by side are two blank columns apart, and the rule stops one
        // column short of the pane's right edge so the rules of neighbours do not run together.
        Block::new()
            .borders(Borders::TOP)
            .padding(Padding::new(1, 1, 0, 1))
            .border_style(style)
            .title(format!("{mark}{title}"))
            .title(Line::from(Span::styled(" ", Style::reset())).right_aligned())
    }

    /// Draw a text pane's bordered block with its title; the area inside it, or None when
    /// no text fits.
    pub fn framed(&self, f: &mut Frame, area: Rect, pane: Pane, title: String) -> Option<Rect> {
        let block = self.block(pane, title);
        let inner = block.inner(area);
        f.render_widget(block, area);
        (inner.height > 0 && inner.width > 0).then_some(inner)
    }
}

/// A pane: its own state, the actions it handles and how it draws.
pub trait Component {
    /// What a draw reports back: the scroll positions it settled on and where things went
    /// (for the mouse), kept by the app after the frame.
    type Geometry;

    /// Handle an action routed to this pane; what the rest of the inspector should do.
    fn handle(&mut self, action: Action, ctx: &Ctx<'_>) -> Vec<Effect>;

    /// Draw into `area` of the frame.
    fn draw(&self, f: &mut Frame, area: Rect, ctx: &Ctx<'_>) -> Self::Geometry;

    /// Keep what the last draw settled on (scroll positions, clamped cursors).
    fn after_draw(&mut self, _geometry: &Self::Geometry) {}
}

/// The [`Ctx`] of an `App`, borrowing only the fields it reads, so one of its panes can be
/// borrowed mutably beside it (`app.hex.handle(a, &ctx!(app))`).
macro_rules! ctx {
    ($app:expr) => {
        $crate::tui::component::Ctx {
            ws: &$app.workspace,
            sel: $app.sel,
            field_sel: $app.field_sel,
            focus: $app.focus,
            theme: &$app.theme,
            walk_mode: $app.walk.active,
            panes: &$app.layout.panes,
            edits: &$app.edits,
        }
    };
}
pub(super) use ctx;
