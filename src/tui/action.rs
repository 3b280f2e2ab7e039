//! Every user command as a named, typed [`Action`]; keymaps bind keys to these names.

use std::fmt;
use std::str::FromStr;

macro_rules! actions {
    ($($variant:ident = $name:literal, $desc:literal;)*) => {
        /// A user command. Keymaps name them in snake_case (`next_field`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action {
            $(
                #[doc = $desc]
                $variant,
            )*
        }

        impl Action {
            /// Every action, in help order.
            pub const ALL: &'static [Action] = &[$(Action::$variant),*];

            /// The snake_case name used in keymap files.
            pub fn name(self) -> &'static str {
                match self { $(Action::$variant => $name),* }
            }

            /// What the action does (used when a binding gives no `desc`).
            pub fn describe(self) -> &'static str {
                match self { $(Action::$variant => $desc),* }
            }
        }
    };
}

actions! {
    Quit = "quit", "quit and restore the terminal";
    Help = "help", "show or hide this help";
    MessageLog = "message_log", "show every status message and error of the session in full (the message log)";
    Cancel = "cancel", "close help, prompt or zoom; clear the message";
    FocusNext = "focus_next", "focus the next pane";
    FocusPrev = "focus_prev", "focus the previous pane";
    FocusTree = "focus_tree", "focus the tree";
    FocusHex = "focus_hex", "focus the hex pane";
    FocusFields = "focus_fields", "focus the fields pane";
    FocusDecode = "focus_decode", "focus the decode pane";
    FocusWalk = "focus_walk", "focus the walk pane";
    FocusDiagnostics = "focus_diagnostics", "focus diagnostics and bookmarks";
    Zoom = "zoom", "show the focused pane alone (toggle)";
    SideWider = "side_wider", "make the side pane (the tree) wider (kept for this terminal size)";
    SideNarrower = "side_narrower", "make the side pane (the tree) narrower (kept for this terminal size)";
    LowerTaller = "lower_taller", "make the lower pane (walk, diagnostics, decode) taller (kept for this terminal size)";
    LowerShorter = "lower_shorter", "make the lower pane shorter (kept for this terminal size)";
    Up = "up", "move up (tree row, hex row, field, channel, walk step)";
    Down = "down", "move down";
    Left = "left", "collapse (tree), byte back (hex), frame back (decode), scroll left (fields)";
    Right = "right", "expand (tree), byte forward (hex), frame forward (decode), scroll right (fields)";
    PageUp = "page_up", "page up (decode: 10 frames back)";
    PageDown = "page_down", "page down (decode: 10 frames on)";
    Home = "home", "go to the start";
    End = "end", "go to the end";
    Activate = "activate", "expand/collapse a tree node; jump to the selected item";
    Toggle = "toggle", "toggle the channel under the cursor (decode)";
    NextField = "next_field", "hex cursor to the next field";
    PrevField = "prev_field", "hex cursor to the previous field";
    NextNode = "next_node", "hex cursor to the next node (chunk, clip)";
    PrevNode = "prev_node", "hex cursor to the previous node";
    Goto = "goto", "go to an offset (0x150, +0x20), a node path or name, or FILE/MEMBER@0x1a0 (opens the member)";
    Find = "find", "find nodes by name or kind (fuzzy, every opened document)";
    Search = "search", "search hex bytes (1f 8b) or text";
    SearchNext = "search_next", "next search match";
    SearchPrev = "search_prev", "previous search match";
    WalkMode = "walk_mode", "walk mode: step the format's walk trace";
    WalkNext = "walk_next", "next walk step";
    WalkPrev = "walk_prev", "previous walk step";
    FrameNext = "frame_next", "next frame (decode)";
    FramePrev = "frame_prev", "previous frame (decode)";
    GotoFrame = "goto_frame", "decode: go to frame N (type the number, Enter)";
    ToggleZeros = "toggle_zeros", "collapse runs of zero rows in hex (toggle)";
    ToggleEndian = "toggle_endian", "inspector: little/big endian first (toggle)";
    ToggleTables = "toggle_tables", "decode: show the clip's stored tables instead of the plot (toggle)";
    ToggleNormalize = "toggle_normalize", "decode: scale each channel to its own range (toggle)";
    ChannelFilter = "channel_filter", "decode: list only the channels whose names contain what is typed (as you type)";
    ChannelsAll = "channels_all", "decode: draw every listed channel, or none when all are drawn (toggle)";
    ChannelsAnimated = "channels_animated", "decode: draw only the listed channels that move";
    SelectLeft = "select_left", "hex: extend the selected byte range one byte back";
    SelectRight = "select_right", "hex: extend the selected byte range one byte forward";
    SelectUp = "select_up", "hex: extend the selected byte range one row up";
    SelectDown = "select_down", "hex: extend the selected byte range one row down";
    Bookmark = "bookmark", "add or remove a bookmark at the hex cursor";
    BookmarkNamed = "bookmark_named", "name the bookmark at the hex cursor (adds it if there is none)";
    LayoutAddField = "layout_add_field", "user layout builder: add a field (TYPE NAME: u32 n, strz s, vec3{f32 x, f32 y, f32 z}[n] p) at the hex cursor; the next starts where it ends; -NAME removes one, OLD=NEW renames one; each change shows at once";
    LayoutSave = "layout_save", "user layout builder: save the fields added as a layout file, in your config folder (applied when a file is opened), the file's folder or the project's layouts folder (Tab picks)";
    EditValue = "edit_value", "edit: change the selected field's value (typed as `animscope set` takes it: a number in the unit shown, raw:N, an enum or flag name, text); in hex, the bytes at the cursor (XX XX..); the document is shown edited at once, the input is never written";
    EditUndo = "edit_undo", "edit: take the last edit back";
    EditWrite = "edit_write", "edit: write the file with the edits to a new path (prompt; never the input), rebuilt through its containers and checked before it is kept";
    NextBookmark = "next_bookmark", "jump to the next bookmark";
    CopyHex = "copy_hex", "copy the selected field's bytes as hex (OSC 52)";
    CopyC = "copy_c", "copy the selected field's bytes as a C declaration (OSC 52)";
    CopyBase64 = "copy_base64", "copy the selected field's bytes as base64 (OSC 52)";
    Export = "export", "export the selected clip as matrix JSON, or the selected bytes to a file";
    ToggleMouse = "toggle_mouse", "mouse capture on/off (off keeps terminal selection)";
    LowBandwidth = "low_bandwidth", "low-bandwidth mode on/off: no colours, fewer bytes for a slow link (also --low-bandwidth)";
    DiffNext = "diff_next", "diff mode: jump to the next change";
    DiffPrev = "diff_prev", "diff mode: jump to the previous change";
    DiffFile = "diff_file", "diff mode: compare with a second file (path prompt)";
    Follow = "follow", "follow the selected field's reference: the node it names, or the offset it holds";
    Back = "back", "back to where the last jump (goto, find, search, walk, diff, bookmark, follow) started";
    Forward = "forward", "forward again after going back";
    TogglePose = "toggle_pose", "decode: the clip's skeleton as a stick figure instead of the curves (toggle)";
    PlayPause = "play_pause", "pose view: play or pause the clip at its rate";
    OrbitLeft = "orbit_left", "pose view: orbit the camera left";
    OrbitRight = "orbit_right", "pose view: orbit the camera right";
    TiltUp = "tilt_up", "pose view: tilt the camera to look down more";
    TiltDown = "tilt_down", "pose view: tilt the camera to look up more";
    ZoomIn = "zoom_in", "pose view: zoom in";
    ZoomOut = "zoom_out", "pose view: zoom out";
    PanLeft = "pan_left", "pose view: pan left";
    PanRight = "pan_right", "pose view: pan right";
    PanUp = "pan_up", "pose view: pan up";
    PanDown = "pan_down", "pose view: pan down";
    NextView = "next_view", "pose view: front, side, top view in turn (resets orbit, zoom and pan); until turned, the view follows the clip's root motion (side view for a walk)";
    FitAll = "fit_all", "pose view: fit everything in the picture, or (again) what moves or the selected mesh (toggle)";
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Action::ALL.iter().copied().find(|a| a.name() == s).ok_or_else(|| format!("unknown action \"{s}\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for a in Action::ALL {
            assert_eq!(a.name().parse::<Action>(), Ok(*a));
        }
        assert!("nope".parse::<Action>().is_err());
    }
}
