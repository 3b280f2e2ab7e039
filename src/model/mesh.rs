//! Meshes in a format-agnostic form: what a format decodes from its model records and what
//! every mesh exporter (OBJ, glTF) consumes. Positions and normals stay in the format's model
//! space and units; the scene's notes say which, and how it was posed.

use glam::Vec3;

/// An RGBA8 image, row 0 at the top as drawn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

/// How a mesh's vertices are bound, as its format stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeshKind {
    /// Positions in the owning object's space.
    Rigid,
    /// Every vertex follows one bone/node.
    Bone,
    /// Weighted influences per vertex.
    Skin,
    /// A shadow volume (positions and triangles only; not drawn).
    Shadow,
}

impl MeshKind {
    /// Lower-case name used in object names and notes.
    pub fn name(self) -> &'static str {
        match self {
            MeshKind::Rigid => "rigid",
            MeshKind::Bone => "bone",
            MeshKind::Skin => "skin",
            MeshKind::Shadow => "shadow",
        }
    }
}

/// One drawable piece: vertices and triangles with one material.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Owning model or object name.
    pub model: String,
    /// Index of this piece within its model.
    pub part: usize,
    /// Vertex binding as stored.
    pub kind: Option<MeshKind>,
    /// Index of its material in [`Scene::materials`], if any. By index, not name: real
    /// scenes have different materials with one name.
    pub material: Option<usize>,
    /// Positions.
    pub positions: Vec<Vec3>,
    /// Normals (empty, or one per position).
    pub normals: Vec<Vec3>,
    /// Texture coordinates (empty, or one per position).
    pub uvs: Vec<[f32; 2]>,
    /// Vertex colours RGBA with 1.0 = full (empty, or one per position).
    pub colours: Vec<[f32; 4]>,
    /// Triangles as indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
    /// How the format binds the unposed vertices to the skeleton's bones (the bone names of
    /// the clip's poses), for exporters that keep meshes bound (glTF): per vertex, its
    /// (bone, weight) influences. Rigid and bone meshes have one influence of weight 1 per
    /// vertex; empty when the format binds the mesh to nothing. Positions of a posed scene
    /// are already moved, so only a [`ScenePose::Rest`] scene is meant to be bound again.
    pub binding: Vec<Vec<(String, f32)>>,
}

/// A material: a name and the image it samples, if any.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Material {
    /// Material name as the file gives it (several materials may share one).
    pub name: String,
    /// Index of the image in [`Scene::images`] it uses.
    pub texture: Option<usize>,
}

/// Meshes with their materials and images, as one export unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// Every mesh.
    pub meshes: Vec<Mesh>,
    /// Materials the meshes name.
    pub materials: Vec<Material>,
    /// Decoded images with their names as the file gives them (several may share one);
    /// materials refer to them by index.
    pub images: Vec<(String, Image)>,
    /// The axes and units of positions and normals, in words.
    pub space: String,
    /// What was done (posing source, skipped parts).
    pub notes: Vec<String>,
}

/// How a scene is posed when it is built.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ScenePose {
    /// Unposed: vertices in model space.
    #[default]
    Rest,
    /// Frame `frame` of the named animation in the same file.
    Animation {
        /// Animation name, as `--anim` takes it.
        name: String,
        /// Frame.
        frame: u32,
    },
    /// Stream frame `frame`, from the file's own frame data or from a paired file's bytes.
    Frame {
        /// Frame.
        frame: u32,
        /// The paired frame file's bytes, when the frames are not in this file.
        paired: Option<Vec<u8>>,
    },
}

/// What scene to build.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SceneRequest {
    /// Only this model (by name).
    pub model: Option<String>,
    /// How to pose it.
    pub pose: ScenePose,
}
