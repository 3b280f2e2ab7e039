//! Styles: a 16-colour default theme (safe over SSH and in any terminal) and a `NO_COLOR`
//! theme that uses only modifiers.

use ratatui::style::{Color, Modifier, Style};

/// hexyl's byte categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteClass {
    /// 0x00.
    Null,
    /// Printable ASCII (0x21..=0x7e).
    Printable,
    /// ASCII whitespace (space, tab, newline, CR, FF, VT).
    Whitespace,
    /// Other ASCII (control characters, DEL).
    Other,
    /// 0x80 and above.
    NonAscii,
}

impl ByteClass {
    /// The category of `b`.
    pub fn of(b: u8) -> ByteClass {
        match b {
            0 => ByteClass::Null,
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => ByteClass::Whitespace,
            0x21..=0x7e => ByteClass::Printable,
            0x01..=0x7f => ByteClass::Other,
            _ => ByteClass::NonAscii,
        }
    }
}

/// Every style the panes use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// True when `NO_COLOR` asked for no colours.
    pub mono: bool,
    /// Pane border, unfocused.
    pub border: Style,
    /// Pane border, focused.
    pub border_focus: Style,
    /// Dimmed text (offsets, hints).
    pub dim: Style,
    /// Selected row in lists.
    pub selected: Style,
    /// Hex: the byte under the cursor.
    pub cursor: Style,
    /// Hex: bytes of the selected field.
    pub field: Style,
    /// Hex: bytes of the selected node (outside the field).
    pub node: Style,
    /// Hex: bytes of the node's parent (outside the node).
    pub parent: Style,
    /// Hex: the current walk step's bytes.
    pub walk: Style,
    /// Hex: search match.
    pub matched: Style,
    /// Hex: the shift-selected bytes.
    pub range: Style,
    /// Hex: bytes no field covers (unparsed gaps).
    pub gap: Style,
    /// Hex: bytes an edit changed (not written yet).
    pub edited: Style,
    /// Hex: bytes of fields marked unknown.
    pub unknown: Style,
    /// Byte category colours.
    pub null: Style,
    /// Printable ASCII.
    pub printable: Style,
    /// ASCII whitespace.
    pub whitespace: Style,
    /// Other ASCII.
    pub other: Style,
    /// Non-ASCII.
    pub non_ascii: Style,
    /// Error messages.
    pub error: Style,
    /// Warnings and notices.
    pub warn: Style,
    /// Plot colours per channel.
    pub channels: [Color; 6],
}

impl Theme {
    /// The 16-colour theme.
    pub fn colour() -> Theme {
        Theme {
            mono: false,
            border: Style::new().fg(Color::DarkGray),
            border_focus: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            dim: Style::new().fg(Color::DarkGray),
            selected: Style::new().bg(Color::Blue).fg(Color::White),
            cursor: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            field: Style::new().bg(Color::Blue),
            node: Style::new().bg(Color::Black),
            parent: Style::new().add_modifier(Modifier::UNDERLINED),
            walk: Style::new().bg(Color::Magenta),
            matched: Style::new().bg(Color::Yellow).fg(Color::Black),
            range: Style::new().bg(Color::Green).fg(Color::Black),
            gap: Style::new().add_modifier(Modifier::DIM),
            edited: Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD.union(Modifier::UNDERLINED)),
            unknown: Style::new().add_modifier(Modifier::ITALIC),
            null: Style::new().fg(Color::DarkGray),
            printable: Style::new().fg(Color::Cyan),
            whitespace: Style::new().fg(Color::Green),
            other: Style::new().fg(Color::Magenta),
            non_ascii: Style::new().fg(Color::Yellow),
            error: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            warn: Style::new().fg(Color::Yellow),
            channels: [Color::Cyan, Color::Yellow, Color::Green, Color::Magenta, Color::Red, Color::Blue],
        }
    }

    /// The `NO_COLOR` theme: modifiers only.
    pub fn mono() -> Theme {
        let none = Style::new();
        Theme {
            mono: true,
            border: none,
            border_focus: Style::new().add_modifier(Modifier::BOLD),
            dim: none,
            selected: Style::new().add_modifier(Modifier::REVERSED),
            cursor: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            field: Style::new().add_modifier(Modifier::REVERSED),
            node: Style::new().add_modifier(Modifier::BOLD),
            parent: Style::new().add_modifier(Modifier::UNDERLINED),
            walk: Style::new().add_modifier(Modifier::REVERSED | Modifier::ITALIC),
            matched: Style::new().add_modifier(Modifier::REVERSED | Modifier::UNDERLINED),
            range: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            gap: Style::new().add_modifier(Modifier::DIM),
            edited: Style::new().add_modifier(Modifier::BOLD.union(Modifier::UNDERLINED)),
            unknown: Style::new().add_modifier(Modifier::ITALIC),
            null: none,
            printable: none,
            whitespace: none,
            other: none,
            non_ascii: none,
            error: Style::new().add_modifier(Modifier::BOLD),
            warn: none,
            channels: [Color::Reset; 6],
        }
    }

    /// `NO_COLOR` set and non-empty → mono, else colour.
    pub fn from_env() -> Theme {
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) { Theme::mono() } else { Theme::colour() }
    }

    /// The foreground for a byte's category.
    pub fn byte(&self, b: u8) -> Style {
        match ByteClass::of(b) {
            ByteClass::Null => self.null,
            ByteClass::Printable => self.printable,
            ByteClass::Whitespace => self.whitespace,
            ByteClass::Other => self.other,
            ByteClass::NonAscii => self.non_ascii,
        }
    }
}
