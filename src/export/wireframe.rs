//! The mesh wireframe of the pose viewer: a scene's triangle edges, each drawn once, in
//! the positions the scene holds. The scene is the one the OBJ and glTF exports write
//! ([`crate::formats::Parsed::scene`] posed by [`crate::formats::Parsed::scene_pose`]), so
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
        super::pose::PoseScene {
            bones: Vec::new(),
            parents: Vec::new(),
            root: None,
            trail: Vec::new(),
            extent: self.extent,
            frames,
        }
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
    }
}
