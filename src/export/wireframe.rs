//! The mesh wireframe of the pose viewer: a scene's triangle edges, each drawn once, in
//! the positions the scene holds. The scene is the one the OBJ and glTF exports write
//! ([`crate::formats::Meshes::scene`] posed by [`crate::formats::Meshes::scene_pose`]), so
//! the picture and the exports cannot disagree. Drawing is the TUI's.

use crate::model::mesh::{MeshKind, Scene};
use glam::Vec3;

/// Edges of a scene's meshes (shadow volumes left out).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Wireframe {
    /// Every vertex of the meshes drawn, mesh after mesh, as the scene holds them.
    pub points: Vec<Vec3>,
    /// Edges as indices into `points`, each once, of meshes not highlighted.
    pub edges: Vec<[u32; 2]>,
    /// Edges of the highlighted meshes.
    pub lit: Vec<[u32; 2]>,
    /// Meshes drawn.
    pub meshes: usize,
    /// Corners (min, max) of the box holding every finite point.
    pub extent: (Vec3, Vec3),
    /// Each mesh drawn: its range of `points`, and whether it is highlighted.
    pub mesh_points: Vec<(std::ops::Range<usize>, bool)>,
}

/// The corners of the box holding the finite points of `pts` (None: there are none).
fn bounds<'a>(pts: impl IntoIterator<Item = &'a Vec3>) -> Option<(Vec3, Vec3)> {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in pts.into_iter().filter(|p| p.is_finite()) {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
}

/// The box holding both boxes.
fn union(a: Option<(Vec3, Vec3)>, b: Option<(Vec3, Vec3)>) -> Option<(Vec3, Vec3)> {
    match (a, b) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
        (a, b) => a.or(b),
    }
}

/// What moves in a scene over a clip, from its wireframes at a few frames.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Motion {
    /// For each mesh drawn: whether a point of it moves between the frames.
    pub moving: Vec<bool>,
    /// The box holding the moving meshes at every frame given (None: nothing moves).
    pub extent: Option<(Vec3, Vec3)>,
    /// How far the moving meshes' box centre goes from the first frame given to the last.
    pub travel: Vec3,
}

impl Motion {
    /// The motion over `frames` (wireframes of the same scene at frames in order, none
    /// highlighted). Frames whose meshes differ in number or size say nothing moves.
    pub fn of(frames: &[Wireframe]) -> Motion {
        let Some(first) = frames.first() else { return Motion::default() };
        let ranges = |w: &Wireframe| w.mesh_points.iter().map(|(r, _)| r.clone()).collect::<Vec<_>>();
        if frames.iter().any(|w| ranges(w) != ranges(first) || w.points.len() != first.points.len()) {
            return Motion::default();
        }
        let moving: Vec<bool> = first
            .mesh_points
            .iter()
            .map(|(r, _)| frames.iter().any(|w| w.points.get(r.clone()) != first.points.get(r.clone())))
            .collect();
        let at = |w: &Wireframe| w.extent_of(|i, _| moving.get(i).copied().unwrap_or(false));
        let extent = frames.iter().fold(None, |acc, w| union(acc, at(w)));
        let centre = |b: Option<(Vec3, Vec3)>| b.map(|(lo, hi)| (lo + hi) / 2.0);
        let travel = match (centre(at(first)), frames.last().and_then(|w| centre(at(w)))) {
            (Some(a), Some(b)) => b - a,
            _ => Vec3::ZERO,
        };
        Motion { moving, extent, travel }
    }
}

impl Wireframe {
    /// The wireframe of `scene`; meshes of the model named `highlight` are lit.
    pub fn new(scene: &Scene, highlight: Option<&str>) -> Wireframe {
        let mut w = Wireframe::default();
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for m in &scene.meshes {
            if m.kind == Some(MeshKind::Shadow) {
                continue;
            }
            let Ok(base) = u32::try_from(w.points.len()) else { break };
            let n = m.positions.len();
            w.points.extend_from_slice(&m.positions);
            w.mesh_points.push((base as usize..base as usize + n, highlight.is_some_and(|h| h == m.model)));
            for p in &m.positions {
                if p.is_finite() {
                    lo = lo.min(*p);
                    hi = hi.max(*p);
                }
            }
            let mut edges: Vec<[u32; 2]> = Vec::with_capacity(m.triangles.len() * 3);
            for t in &m.triangles {
                for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                    if a != b && (a as usize) < n && (b as usize) < n {
                        edges.push([a.min(b) + base, a.max(b) + base]);
                    }
                }
            }
            edges.sort_unstable();
            edges.dedup();
            if highlight.is_some_and(|h| h == m.model) {
                w.lit.extend(edges);
            } else {
                w.edges.extend(edges);
            }
            w.meshes += 1;
        }
        if !(lo.is_finite() && hi.is_finite()) {
            (lo, hi) = (Vec3::ZERO, Vec3::ZERO);
        }
        w.extent = (lo, hi);
        w
    }

    /// The pose viewer's scene for fitting and the ground grid: no bones, this extent.
    pub fn frame_scene(&self, frames: usize) -> super::pose::PoseScene {
        self.scene_around(self.extent, frames)
    }

    /// [`Wireframe::frame_scene`] fitted to `extent` instead (what moves, or a mesh).
    pub fn scene_around(&self, extent: (Vec3, Vec3), frames: usize) -> super::pose::PoseScene {
        super::pose::PoseScene { bones: Vec::new(), parents: Vec::new(), root: None, trail: Vec::new(), extent, frames }
    }

    /// The box of the finite points of the meshes `pick(index, highlighted)` chooses.
    pub fn extent_of(&self, pick: impl Fn(usize, bool) -> bool) -> Option<(Vec3, Vec3)> {
        let mut out = None;
        for (i, (r, lit)) in self.mesh_points.iter().enumerate() {
            if pick(i, *lit) {
                out = union(out, self.points.get(r.clone()).and_then(bounds));
            }
        }
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::model::mesh::Mesh;

    #[test]
    fn shared_edges_are_drawn_once_and_shadows_not_at_all() {
        let quad = Mesh {
            model: "MDL_a".into(),
            kind: Some(MeshKind::Rigid),
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 2.0)],
            // two triangles sharing the diagonal 1–2; one index out of range is skipped
            triangles: vec![[0, 1, 2], [1, 3, 2], [0, 1, 9]],
            ..Mesh::default()
        };
        let shadow = Mesh { model: "MDL_s".into(), kind: Some(MeshKind::Shadow), ..quad.clone() };
        let other = Mesh { model: "MDL_b".into(), ..quad.clone() };
        let scene = Scene { meshes: vec![quad, shadow, other], ..Scene::default() };
        let w = Wireframe::new(&scene, Some("MDL_b"));
        assert_eq!(w.meshes, 2);
        assert_eq!(w.points.len(), 8);
        assert_eq!(w.edges, vec![[0, 1], [0, 2], [1, 2], [1, 3], [2, 3]]);
        assert_eq!(w.lit, vec![[4, 5], [4, 6], [5, 6], [5, 7], [6, 7]]);
        assert_eq!(w.extent, (Vec3::ZERO, Vec3::new(1.0, 1.0, 2.0)));
        assert_eq!(w.mesh_points, vec![(0..4, false), (4..8, true)]);
    }

    /// Two meshes, the second moved 3 along Y between the frames: it alone moves, its box
    /// spans both places, its centre travels (0, 3, 0).
    #[test]
    fn motion_finds_the_mesh_that_moves() {
        let tri = |model: &str, at: Vec3| Mesh {
            model: model.into(),
            kind: Some(MeshKind::Rigid),
            positions: vec![at, at + Vec3::X, at + Vec3::Z],
            triangles: vec![[0, 1, 2]],
            ..Mesh::default()
        };
        let frame = |y: f32| {
            let scene = Scene {
                meshes: vec![tri("MDL_still", Vec3::splat(100.0)), tri("MDL_go", Vec3::new(0.0, y, 0.0))],
                ..Scene::default()
            };
            Wireframe::new(&scene, None)
        };
        let m = Motion::of(&[frame(0.0), frame(1.0), frame(3.0)]);
        assert_eq!(m.moving, vec![false, true]);
        assert_eq!(m.extent, Some((Vec3::ZERO, Vec3::new(1.0, 3.0, 1.0))));
        assert_eq!(m.travel, Vec3::new(0.0, 3.0, 0.0));
        let still = Motion::of(&[frame(0.0), frame(0.0)]);
        assert_eq!((still.moving, still.extent), (vec![false, false], None));
    }
}
