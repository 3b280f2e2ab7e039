//! The geometry of the pose viewer: joints, bones, the root's trail and a ground grid of a
//! clip in Blender armature space (Z up, metres where the format's conversion says so),
//! projected orthographically for a front, side, top or orbiting view.
//!
//! Every joint position is the translation of the bone's matrix from [`BlenderFrames`]:
//! the matrices the matrix JSON export writes, so the picture and the export cannot
//! disagree. Drawing (braille canvas) is the TUI's; this module has no terminal code.

use super::{BlenderFrames, ExportError};
use glam::Vec3;

/// At most this many frames are read to find the clip's extent and the root's trail: a
/// long on-demand clip is sampled evenly instead of posed whole.
pub const MAX_SAMPLED_FRAMES: usize = 512;

/// A named view direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Looking along +Y (Blender's front view): X right, Z up.
    Front,
    /// Looking along −X (Blender's right view): Y right, Z up.
    Side,
    /// Looking down −Z (Blender's top view): X right, Y up.
    Top,
}

impl Preset {
    /// Parse `front`, `side` or `top`.
    pub fn parse(s: &str) -> Option<Preset> {
        match s.to_ascii_lowercase().as_str() {
            "front" => Some(Preset::Front),
            "side" | "right" => Some(Preset::Side),
            "top" => Some(Preset::Top),
            _ => None,
        }
    }

    /// The preset's name.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Front => "front",
            Preset::Side => "side",
            Preset::Top => "top",
        }
    }
}

impl Preset {
    /// The view to see a clip from that carries what it moves by `travel` (armature
    /// space) within a box `size` across: the side view (Y across the screen) when it
    /// goes mostly along Y by more than a tenth of `size` (locomotion: forward is ±Y in
    /// Blender's convention), else the front view (X across, which shows travel along X).
    pub fn for_travel(travel: Vec3, size: f32) -> Preset {
        if travel.y.abs() > travel.x.abs() && travel.y.abs() > 0.1 * size { Preset::Side } else { Preset::Front }
    }
}

/// The largest side of the box `extent`.
pub fn box_size(extent: (Vec3, Vec3)) -> f32 {
    let d = extent.1 - extent.0;
    d.x.max(d.y).max(d.z)
}

/// An orthographic camera: orbit angles, zoom and pan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Orbit about the Z axis, radians (0 = front, +90° = side).
    pub yaw: f32,
    /// Elevation, radians (0 = level, +90° = looking straight down).
    pub pitch: f32,
    /// Magnification over the fitted picture (1 = the whole clip fits).
    pub zoom: f32,
    /// Pan in fractions of the fitted picture's half-size (x right, y up).
    pub pan: (f32, f32),
}

impl Default for View {
    fn default() -> View {
        View::preset(Preset::Front)
    }
}

impl View {
    /// The view of a preset, unzoomed and centred.
    pub fn preset(p: Preset) -> View {
        let (yaw, pitch) = match p {
            Preset::Front => (0.0, 0.0),
            Preset::Side => (std::f32::consts::FRAC_PI_2, 0.0),
            Preset::Top => (0.0, std::f32::consts::FRAC_PI_2),
        };
        View { yaw, pitch, zoom: 1.0, pan: (0.0, 0.0) }
    }

    /// The preset this view is (unrotated), if any.
    pub fn preset_of(&self) -> Option<Preset> {
        [Preset::Front, Preset::Side, Preset::Top].into_iter().find(|p| {
            let v = View::preset(*p);
            (v.yaw - self.yaw).abs() < 1e-4 && (v.pitch - self.pitch).abs() < 1e-4
        })
    }

    /// The screen axes: (right, up), unit vectors in armature space.
    pub fn axes(&self) -> (Vec3, Vec3) {
        // cos(90°) in f32 is -4e-8, not 0: snapped, so a preset's axes are exact
        let snap = |(s, c): (f32, f32)| (if s.abs() < 1e-6 { 0.0 } else { s }, if c.abs() < 1e-6 { 0.0 } else { c });
        let (sy, cy) = snap(self.yaw.sin_cos());
        let (sp, cp) = snap(self.pitch.sin_cos());
        let right = Vec3::new(cy, sy, 0.0);
        let forward = Vec3::new(-sy, cy, 0.0);
        let up = Vec3::Z * cp + forward * sp;
        (right, up)
    }

    /// Screen coordinates (x right, y up, armature units) of armature-space point `p`.
    pub fn project(&self, p: Vec3) -> (f64, f64) {
        let (right, up) = self.axes();
        (f64::from(p.dot(right)), f64::from(p.dot(up)))
    }

    /// Orbit by `dyaw` and tilt by `dpitch` radians (pitch kept within ±90°).
    pub fn orbit(&mut self, dyaw: f32, dpitch: f32) {
        use std::f32::consts::{FRAC_PI_2, TAU};
        self.yaw = (self.yaw + dyaw).rem_euclid(TAU);
        self.pitch = (self.pitch + dpitch).clamp(-FRAC_PI_2, FRAC_PI_2);
    }

    /// A short description: `front`, or `yaw 30° pitch 15°`, with zoom when not 1.
    pub fn describe(&self) -> String {
        let dir = match self.preset_of() {
            Some(p) => p.name().to_string(),
            None => format!("yaw {:.0}° pitch {:.0}°", self.yaw.to_degrees(), self.pitch.to_degrees()),
        };
        if (self.zoom - 1.0).abs() > 1e-3 { format!("{dir} ×{:.2}", self.zoom) } else { dir }
    }
}

/// A clip's skeleton as the viewer draws it: bones and parents, the root's trail and the
/// extent of every sampled pose (all in armature space).
#[derive(Debug, Clone, PartialEq)]
pub struct PoseScene {
    /// Armature bone names (the export's).
    pub bones: Vec<String>,
    /// Parent of each bone (index into `bones`).
    pub parents: Vec<Option<usize>>,
    /// The bone whose trail is drawn: the first bone without a parent.
    pub root: Option<usize>,
    /// The root's position at each sampled frame, in frame order.
    pub trail: Vec<Vec3>,
    /// Corners (min, max) of the box holding every joint of every sampled frame.
    pub extent: (Vec3, Vec3),
    /// Logical frames the clip has (the first is 0).
    pub frames: usize,
}

impl PoseScene {
    /// The scene of `bf` (its kept frames), sampling at most [`MAX_SAMPLED_FRAMES`] frames
    /// for the trail and the extent.
    pub fn new(bf: &BlenderFrames<'_>) -> Result<PoseScene, ExportError> {
        let head = bf.head();
        let root = head.parents.iter().position(Option::is_none).or(if head.bones.is_empty() { None } else { Some(0) });
        let mut trail = Vec::new();
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for f in sampled_frames(bf.count) {
            let joints = joints(bf, f)?;
            for j in &joints {
                if j.is_finite() {
                    lo = lo.min(*j);
                    hi = hi.max(*j);
                }
            }
            if let Some(r) = root.and_then(|r| joints.get(r)) {
                trail.push(*r);
            }
        }
        if !(lo.is_finite() && hi.is_finite()) {
            (lo, hi) = (Vec3::ZERO, Vec3::ZERO);
        }
        Ok(PoseScene {
            bones: head.bones.clone(),
            parents: head.parents.clone(),
            root,
            trail,
            extent: (lo, hi),
            frames: bf.count,
        })
    }

    /// How far the root goes from the first sampled frame to the last (zero without one).
    pub fn travel(&self) -> Vec3 {
        match (self.trail.first(), self.trail.last()) {
            (Some(a), Some(b)) if a.is_finite() && b.is_finite() => *b - *a,
            _ => Vec3::ZERO,
        }
    }

    /// The grid lines on the ground (the Z = 0 plane) under the clip's extent: segments
    /// `(a, b)` one `step` apart, `step` a round number (1, 2 or 5 × 10ⁿ) giving a handful of
    /// lines across.
    pub fn grid(&self) -> (f32, Vec<(Vec3, Vec3)>) {
        let (lo, hi) = self.extent;
        let span = (hi.x - lo.x).max(hi.y - lo.y).max(hi.z - lo.z).max(1e-3);
        let step = round_step(span / 5.0);
        // the extent rounded out to whole steps
        let x0 = (lo.x / step).floor() * step;
        let x1 = (hi.x / step).ceil() * step;
        let y0 = (lo.y / step).floor() * step;
        let y1 = (hi.y / step).ceil() * step;
        let mut lines = Vec::new();
        let count = |a: f32, b: f32| (((b - a) / step).round() as i64).clamp(0, 200);
        for i in 0..=count(x0, x1) {
            let x = x0 + i as f32 * step;
            lines.push((Vec3::new(x, y0, 0.0), Vec3::new(x, y1, 0.0)));
        }
        for i in 0..=count(y0, y1) {
            let y = y0 + i as f32 * step;
            lines.push((Vec3::new(x0, y, 0.0), Vec3::new(x1, y, 0.0)));
        }
        (step, lines)
    }

    /// The screen rectangle `(x_min, x_max, y_min, y_max)` that shows the whole clip (its
    /// extent and the grid) in `view` on a `cols` × `rows` cell area whose braille dots
    /// (2 × 4 per cell, a cell twice as tall as wide) are square; then zoomed and panned.
    pub fn fit(&self, view: &View, cols: u16, rows: u16) -> [f64; 4] {
        let (lo, hi) = self.extent;
        let (_, grid) = self.grid();
        let mut pts: Vec<Vec3> = Vec::with_capacity(8 + grid.len() * 2);
        for i in 0..8 {
            pts.push(Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            ));
        }
        for (a, b) in &grid {
            pts.push(*a);
            pts.push(*b);
        }
        let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        for p in pts {
            let (x, y) = view.project(p);
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        // units per dot, the same across and down; a 5% margin
        let dots_x = f64::from(cols.max(1)) * 2.0;
        let dots_y = f64::from(rows.max(1)) * 4.0;
        let zoom = f64::from(view.zoom.max(1e-3));
        let unit = ((x1 - x0) / dots_x).max((y1 - y0) / dots_y).max(1e-6) * 1.05 / zoom;
        let (hx, hy) = (unit * dots_x / 2.0, unit * dots_y / 2.0);
        let (cx, cy) = (cx + f64::from(view.pan.0) * hx, cy + f64::from(view.pan.1) * hy);
        [cx - hx, cx + hx, cy - hy, cy + hy]
    }
}

/// The joint positions (armature space) of kept frame `f`: the translation of each bone's
/// exported matrix.
pub fn joints(bf: &BlenderFrames<'_>, f: usize) -> Result<Vec<Vec3>, ExportError> {
    Ok(bf.frame(f)?.iter().map(|m| m.w_axis.truncate()).collect())
}

/// The frames read for the trail and the extent: every frame, or [`MAX_SAMPLED_FRAMES`]
/// spread evenly over them (the first and the last included).
pub fn sampled_frames(count: usize) -> Vec<usize> {
    if count <= MAX_SAMPLED_FRAMES {
        return (0..count).collect();
    }
    let n = MAX_SAMPLED_FRAMES;
    (0..n).map(|i| i * (count - 1) / (n - 1)).collect()
}

/// The round number (1, 2 or 5 × 10ⁿ) nearest above `x`.
fn round_step(x: f32) -> f32 {
    let mag = 10f32.powf(x.max(1e-6).log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * mag >= x {
            return m * mag;
        }
    }
    10.0 * mag
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn travel_along_y_is_seen_from_the_side() {
        // a walk of 3 along -Y in a 2-unit box: side; along X, or a sway of 0.1: front
        assert_eq!(Preset::for_travel(Vec3::new(0.2, -3.0, 0.0), 2.0), Preset::Side);
        assert_eq!(Preset::for_travel(Vec3::new(3.0, 0.5, 0.0), 2.0), Preset::Front);
        assert_eq!(Preset::for_travel(Vec3::new(0.0, 0.1, 0.0), 2.0), Preset::Front);
        assert_eq!(box_size((Vec3::ZERO, Vec3::new(1.0, 4.0, 2.0))), 4.0);
    }

    #[test]
    fn presets_look_along_blenders_axes() {
        let p = Vec3::new(1.0, 2.0, 3.0);
        let close = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6;
        // front: X right, Z up; side (right view): Y right, Z up; top: X right, Y up
        assert!(close(View::preset(Preset::Front).project(p), (1.0, 3.0)));
        assert!(close(View::preset(Preset::Side).project(p), (2.0, 3.0)));
        assert!(close(View::preset(Preset::Top).project(p), (1.0, 2.0)));
    }

    #[test]
    fn orbiting_a_quarter_turn_from_front_is_the_side_view() {
        let mut v = View::preset(Preset::Front);
        v.orbit(std::f32::consts::FRAC_PI_2, 0.0);
        assert_eq!(v.preset_of(), Some(Preset::Side));
        v.orbit(0.0, 10.0);
        assert!((v.pitch - std::f32::consts::FRAC_PI_2).abs() < 1e-6, "pitch is clamped");
    }

    #[test]
    fn round_steps() {
        assert_eq!(round_step(0.3), 0.5);
        assert_eq!(round_step(1.0), 1.0);
        assert_eq!(round_step(1.2), 2.0);
        assert_eq!(round_step(30.0), 50.0);
    }

    #[test]
    fn long_clips_are_sampled_with_both_ends() {
        let s = sampled_frames(100_000);
        assert_eq!(s.len(), MAX_SAMPLED_FRAMES);
        assert_eq!((s[0], s[s.len() - 1]), (0, 99_999));
        assert_eq!(sampled_frames(3), vec![0, 1, 2]);
    }
}
