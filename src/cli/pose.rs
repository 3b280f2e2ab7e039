//! `pose`: a clip's skeleton at one frame as a braille stick figure (joints, bones, the
//! root's trail over the clip, a ground grid), drawn by the TUI's pose picture into an
//! off-screen buffer and printed as text — for scripts and terminals without the TUI. The
//! joints are the translations of the matrices `export` writes for the same frame.

use crate::export::BlenderFrames;
use crate::export::pose::{PoseScene, Preset, View, joints};
use crate::model::anim::Clip;
use crate::tui::pose::{Palette, PosePicture, buffer_text};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// Smallest picture drawn.
pub const MIN_WIDTH: u16 = 16;
/// Smallest picture height.
pub const MIN_HEIGHT: u16 = 6;
/// Largest picture side (cells).
pub const MAX_SIDE: u16 = 1000;

/// The picture `pose` draws of a clip: its frame, view, size and skeleton.
#[derive(Debug, Clone)]
pub struct Picture<'a> {
    /// Logical frame.
    pub frame: usize,
    /// View direction.
    pub view: Preset,
    /// Picture size in cells (the header line comes on top).
    pub width: u16,
    /// Picture height in cells.
    pub height: u16,
    /// Skeleton file to retarget onto (as `export --skeleton`).
    pub skeleton: Option<&'a std::path::Path>,
    /// The command's budget (the skeleton file's size cap).
    pub limits: &'a crate::limits::Limits,
}

/// The picture of `clip` at `args.frame`: a header line, then `height` lines of `width`
/// cells. Errors are worded for the user.
pub fn render(clip: &Clip, args: &Picture<'_>) -> Result<String, super::CliError> {
    use super::CliError;
    if !(MIN_WIDTH..=MAX_SIDE).contains(&args.width) || !(MIN_HEIGHT..=MAX_SIDE).contains(&args.height) {
        return Err(CliError::Usage(format!(
            "pose picture {}x{}: width and height must be {MIN_WIDTH}..{MAX_SIDE} and {MIN_HEIGHT}..{MAX_SIDE}",
            args.width, args.height
        )));
    }
    let bf = BlenderFrames::new(clip, args.skeleton, None, args.limits)?;
    if args.frame >= bf.count {
        return Err(CliError::Usage(format!(
            "--frame {}: {} has frames 0..{}",
            args.frame,
            crate::text::sanitize(&clip.name),
            bf.count.saturating_sub(1)
        )));
    }
    let scene = PoseScene::new(&bf)?;
    let at = joints(&bf, args.frame)?;
    let view = View::preset(args.view);
    let area = Rect::new(0, 0, args.width, args.height);
    let mut buf = Buffer::empty(area);
    PosePicture { scene: &scene, joints: &at, view: &view, highlight: None, palette: Palette::plain() }
        .render(area, &mut buf);
    let (step, _) = scene.grid();
    let mut out = format!(
        "{} frame {}/{} @{} Hz  {} view  {} bones  grid step {}  ({}; {})\n",
        crate::text::sanitize(&clip.name),
        args.frame,
        bf.count.saturating_sub(1),
        clip.fps,
        args.view.name(),
        scene.bones.len(),
        super::plot::sig(f64::from(step), 3),
        crate::text::sanitize(&bf.head().source),
        crate::text::sanitize(&bf.head().skeleton),
    );
    out.push_str(&buffer_text(&buf, area));
    Ok(out)
}
