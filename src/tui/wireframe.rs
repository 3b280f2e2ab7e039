//! The wireframe picture: a scene's mesh edges ([`Wireframe`]) as braille lines on
//! ratatui's canvas over the pose viewer's ground grid, the highlighted model's edges in
//! the highlight colour. Geometry and camera are [`crate::export`]'s; this only paints.

use super::pose::Palette;
use crate::export::pose::{PoseScene, View};
use crate::export::wireframe::Wireframe;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::widgets::Widget;
use ratatui::widgets::canvas::{Canvas, Line};

/// One frame of a scene's meshes as the picture shows them.
#[derive(Debug, Clone, Copy)]
pub struct WirePicture<'a> {
    /// The edges and points (posed as the exports pose them).
    pub wire: &'a Wireframe,
    /// Extent and grid for the fit ([`Wireframe::frame_scene`]).
    pub scene: &'a PoseScene,
    /// The camera.
    pub view: &'a View,
    /// Colours (`bone` for edges, `highlight` for the lit model).
    pub palette: Palette,
}

impl WirePicture<'_> {
    /// Screen coordinates of every point, in the order of [`Wireframe::points`].
    pub fn projected(&self) -> Vec<(f64, f64)> {
        self.wire.points.iter().map(|p| self.view.project(*p)).collect()
    }

    /// Paint into `area` of `buf`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let [x0, x1, y0, y1] = self.scene.fit(self.view, area.width, area.height);
        let pts = self.projected();
        let (_, grid) = self.scene.grid();
        let grid: Vec<((f64, f64), (f64, f64))> =
            grid.iter().map(|(a, b)| (self.view.project(*a), self.view.project(*b))).collect();
        let pal = self.palette;
        let wire = self.wire;
        let seg = |e: &[u32; 2]| {
            let (a, b) = (pts.get(e[0] as usize)?, pts.get(e[1] as usize)?);
            (a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite()).then_some((*a, *b))
        };
        Canvas::default()
            .marker(Marker::Braille)
            .x_bounds([x0, x1])
            .y_bounds([y0, y1])
            .paint(|ctx| {
                for (a, b) in &grid {
                    ctx.draw(&Line::new(a.0, a.1, b.0, b.1, pal.grid));
                }
                ctx.layer();
                for (a, b) in wire.edges.iter().filter_map(seg) {
                    ctx.draw(&Line::new(a.0, a.1, b.0, b.1, pal.bone));
                }
                ctx.layer();
                for (a, b) in wire.lit.iter().filter_map(seg) {
                    ctx.draw(&Line::new(a.0, a.1, b.0, b.1, pal.highlight));
                }
            })
            .render(area, buf);
    }
}
