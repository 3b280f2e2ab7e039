//! The pose picture: a clip's skeleton at one frame as a braille stick figure on ratatui's
//! canvas — the ground grid, the root's trail over the clip, bones, joints, and the
//! selected bone highlighted. The geometry (armature-space joints from the matrices the
//! matrix JSON export writes, the projection, the fit) is [`crate::export::pose`]'s; this
//! module only paints it. Used by the decode pane's pose view and by `animscope pose`.

use crate::export::pose::{PoseScene, View};
use glam::Vec3;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::symbols::Marker;
use ratatui::widgets::Widget;
use ratatui::widgets::canvas::{Canvas, Line, Painter, Shape};

/// Colours of the picture's parts (`None`: the terminal's default, for plain text or
/// `NO_COLOR`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// Ground grid.
    pub grid: Color,
    /// Root trail.
    pub trail: Color,
    /// Bones.
    pub bone: Color,
    /// Joints.
    pub joint: Color,
    /// The highlighted bone and its joint.
    pub highlight: Color,
}

impl Palette {
    /// 16-colour palette.
    pub fn colour() -> Palette {
        Palette {
            grid: Color::DarkGray,
            trail: Color::Cyan,
            bone: Color::White,
            joint: Color::LightRed,
            highlight: Color::Yellow,
        }
    }

    /// No colours at all (plain text, `NO_COLOR`).
    pub fn plain() -> Palette {
        Palette {
            grid: Color::Reset,
            trail: Color::Reset,
            bone: Color::Reset,
            joint: Color::Reset,
            highlight: Color::Reset,
        }
    }
}

/// One frame of a clip as the picture shows it.
#[derive(Debug, Clone, Copy)]
pub struct PosePicture<'a> {
    /// The clip's bones, trail and extent.
    pub scene: &'a PoseScene,
    /// Joint positions at the frame shown (armature space), one per bone.
    pub joints: &'a [Vec3],
    /// The camera.
    pub view: &'a View,
    /// The bone to highlight.
    pub highlight: Option<usize>,
    /// Colours.
    pub palette: Palette,
}

/// A bone on screen: (child bone index, parent joint, child joint).
pub type Segment = (usize, (f64, f64), (f64, f64));

/// A joint: a plus sign of five dots, so it stands out of the bones through it.
struct Joint {
    at: (f64, f64),
    color: Color,
}

impl Shape for Joint {
    fn draw(&self, painter: &mut Painter) {
        let Some((x, y)) = painter.get_point(self.at.0, self.at.1) else { return };
        painter.paint(x, y, self.color);
        for (dx, dy) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (Some(px), Some(py)) = (x.checked_add_signed(dx as isize), y.checked_add_signed(dy as isize)) else {
                continue;
            };
            // painting past the grid is ignored by the canvas
            painter.paint(px, py, self.color);
        }
    }
}

impl PosePicture<'_> {
    /// The screen segments of the bones: (child, from parent joint, to child joint).
    pub fn bone_segments(&self) -> Vec<Segment> {
        let mut out = Vec::with_capacity(self.joints.len());
        for (i, parent) in self.scene.parents.iter().enumerate() {
            let (Some(p), Some(c)) = (parent.and_then(|p| self.joints.get(p)), self.joints.get(i)) else { continue };
            if p.is_finite() && c.is_finite() {
                out.push((i, self.view.project(*p), self.view.project(*c)));
            }
        }
        out
    }

    /// Paint into `area` of `buf`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let [x0, x1, y0, y1] = self.scene.fit(self.view, area.width, area.height);
        let view = self.view;
        let pal = self.palette;
        let (_, grid) = self.scene.grid();
        let grid: Vec<((f64, f64), (f64, f64))> =
            grid.iter().map(|(a, b)| (view.project(*a), view.project(*b))).collect();
        let trail: Vec<(f64, f64)> =
            self.scene.trail.iter().filter(|p| p.is_finite()).map(|p| view.project(*p)).collect();
        let bones = self.bone_segments();
        let joints: Vec<(usize, (f64, f64))> =
            self.joints.iter().enumerate().filter(|(_, j)| j.is_finite()).map(|(i, j)| (i, view.project(*j))).collect();
        let highlight = self.highlight;
        Canvas::default()
            .marker(Marker::Braille)
            .x_bounds([x0, x1])
            .y_bounds([y0, y1])
            .paint(move |ctx| {
                let line = |a: (f64, f64), b: (f64, f64), color| Line::new(a.0, a.1, b.0, b.1, color);
                for (a, b) in &grid {
                    ctx.draw(&line(*a, *b, pal.grid));
                }
                ctx.layer();
                for w in trail.windows(2) {
                    if let [a, b] = w {
                        ctx.draw(&line(*a, *b, pal.trail));
                    }
                }
                ctx.layer();
                for (i, a, b) in &bones {
                    if Some(*i) != highlight {
                        ctx.draw(&line(*a, *b, pal.bone));
                    }
                }
                for (i, at) in &joints {
                    if Some(*i) != highlight {
                        ctx.draw(&Joint { at: *at, color: pal.joint });
                    }
                }
                // the highlighted bone last, over everything
                ctx.layer();
                for (i, a, b) in &bones {
                    if Some(*i) == highlight {
                        ctx.draw(&line(*a, *b, pal.highlight));
                    }
                }
                for (i, at) in &joints {
                    if Some(*i) == highlight {
                        ctx.draw(&Joint { at: *at, color: pal.highlight });
                    }
                }
            })
            .render(area, buf);
    }
}

/// The text of `area` of `buf`, one line per row, trailing blanks kept (a picture's rows
/// line up).
pub fn buffer_text(buf: &Buffer, area: Rect) -> String {
    let mut out = String::with_capacity(usize::from(area.width + 1) * usize::from(area.height) * 3);
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            out.push_str(buf.cell((x, y)).map_or(" ", |c| c.symbol()));
        }
        out.push('\n');
    }
    out
}
