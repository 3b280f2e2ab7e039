//! Animation data in explicit units and spaces: clips of scalar tracks (stored keys plus
//! values sampled at every logical frame), skeletons and posed matrices.

use glam::Mat4;
use std::fmt;

/// The unit a track's values are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Radians.
    Radians,
    /// Degrees.
    Degrees,
    /// Metres.
    Metres,
    /// The format's own distance units (model units, game units).
    GameUnits,
    /// A quaternion component (unitless, |q| = 1).
    QuatComponent,
    /// A plain number (scale factors, weights, colours).
    Unitless,
    /// Raw stored words whose meaning is unknown.
    RawWord,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Radians => "rad",
            Unit::Degrees => "deg",
            Unit::Metres => "m",
            Unit::GameUnits => "units",
            Unit::QuatComponent => "quat",
            Unit::Unitless => "",
            Unit::RawWord => "raw",
        })
    }
}

/// A stored key of a track: where it sits (in logical frames), its value, and format
/// detail (`code 2 in 0.5 out 0.5`, raw words).
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    /// Position in logical frames (fractional for sub-rate keys).
    pub frame: f64,
    /// Value in the track's unit.
    pub value: f64,
    /// Format-specific detail, shown as is.
    pub detail: String,
}

/// One scalar channel: its stored keys and its value at every logical frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// Channel name (`root.x`, `Spine1.qw`, `node_3.rx`).
    pub name: String,
    /// What it moves (bone, node or object name).
    pub target: String,
    /// Unit of keys and samples.
    pub unit: Unit,
    /// Stored keys (empty when the format stores every frame and keys add nothing).
    pub keys: Vec<Key>,
    /// Value at logical frames 0..frame_count.
    pub samples: Vec<f64>,
    /// True when the scaling is unknown and values are raw words.
    pub unknown: bool,
}

/// A rectangular table of stored data for display (e.g. decoded words per keyframe).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// Title.
    pub name: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// The space a matrix is expressed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Relative to the parent bone/node, in the format's axes and units.
    FormatLocal,
    /// Model/world space of the format (its axes and units).
    FormatModel,
    /// Blender armature space (after the axis/unit conversion).
    BlenderArmature,
}

/// A bone of a skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// Bone name.
    pub name: String,
    /// Parent bone index.
    pub parent: Option<usize>,
    /// Rest matrix (column-vector convention) in the skeleton's space.
    pub rest: Mat4,
}

/// Bones with parents; parents come before children.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skeleton {
    /// Bones, parents first.
    pub bones: Vec<Bone>,
}

/// Posed matrices per logical frame for a fixed bone set.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseSeq {
    /// Space of the matrices.
    pub space: Space,
    /// Bone names, one per column of `frames`.
    pub bones: Vec<String>,
    /// `frames[f][b]`: matrix of bone `b` at logical frame `f` (column-vector convention).
    pub frames: Vec<Vec<Mat4>>,
    /// Bone parents (index into `bones`), for consumers that need local matrices.
    pub parents: Vec<Option<usize>>,
    /// Rest matrix of each bone in the same space as `frames` (the pose the format's
    /// reference skeleton has when nothing animates it).
    pub rest: Vec<Mat4>,
    /// The format's default axis/unit conversion `C` into Blender armature space
    /// (identity when `space` is already `BlenderArmature`).
    pub conversion_matrix: Mat4,
    /// What the matrices are, for the export's `source` key (`authored mot sample`,
    /// `root curve only`, `ccsf anime`, `motn sequence`).
    pub source: String,
    /// The skeleton used (`builtin sc6`, a file name).
    pub skeleton: String,
    /// The axis/unit conversion applied, in words and as a matrix (row-major).
    pub conversion: String,
}

/// A decoded clip: tracks sampled at every logical frame (including the terminal one).
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// Clip name (`clip 0x28f`, sequence name, Anime name).
    pub name: String,
    /// Logical frames per second.
    pub fps: f64,
    /// Number of logical frames sampled (each track has this many samples).
    pub frame_count: usize,
    /// Scalar channels.
    pub tracks: Vec<Track>,
    /// Stored data as tables (keyframe words, instruction lists).
    pub tables: Vec<Table>,
    /// Posed matrices, when the format can pose without extra inputs.
    pub poses: Option<PoseSeq>,
    /// Notes to show with the clip (`authored mot sample`, unknown channels).
    pub notes: Vec<String>,
    /// The format's node numbers and the names their tracks use (`5 → UpperLeg_R`), where
    /// the format numbers its nodes (`plot --node N`).
    pub nodes: Vec<(u32, String)>,
    /// Poses made one frame at a time, when the decoder was asked for them
    /// (`DecodeOptions::poses_on_demand`): then `poses` holds the bones, rest and
    /// conversion with no stored frames, and these make each frame in the same space.
    pub on_demand: Option<PosesOnDemand>,
    /// Keys and samples of the tracks and rows of the tables made one at a time, when the
    /// decoder was asked for them (`DecodeOptions::tracks_on_demand`): then `tracks` and
    /// `tables` hold names, units and columns only, and these give the rest.
    pub tracks_on_demand: Option<TracksOnDemand>,
    /// The memory budget's bytes this clip holds ([`Clip::stored_bytes`], reserved by
    /// `session::Opened::decode_held`): given back when the clip and its clones drop.
    pub held: crate::limits::Held,
}

/// One track's stored keys and samples, made on demand.
type TrackMaker = dyn Fn(usize) -> (Vec<Key>, Vec<f64>) + Send + Sync;
/// One table row's cells (table index, row index), made on demand.
type RowMaker = dyn Fn(usize, usize) -> Vec<String> + Send + Sync;
/// One stored key's detail text (track index, key index), made on demand.
type DetailMaker = dyn Fn(usize, usize) -> String + Send + Sync;

/// Track contents and table rows made on demand, one track or row at a time, so a consumer
/// that writes as it goes (`decode --json`) needs memory for one track, not the clip.
#[derive(Clone)]
pub struct TracksOnDemand {
    track: std::sync::Arc<TrackMaker>,
    rows: Vec<usize>,
    row: std::sync::Arc<RowMaker>,
    /// The same keys without their detail text, and that text one key at a time, where
    /// the format can split them (the plot needs values only; the text is read at a cursor).
    curves: Option<(std::sync::Arc<TrackMaker>, std::sync::Arc<DetailMaker>)>,
}

impl TracksOnDemand {
    /// `track(i)` gives track `i`'s keys and samples; table `t` has `rows[t]` rows, and
    /// `row(t, r)` gives row `r`'s cells.
    pub fn new(
        track: impl Fn(usize) -> (Vec<Key>, Vec<f64>) + Send + Sync + 'static,
        rows: Vec<usize>,
        row: impl Fn(usize, usize) -> Vec<String> + Send + Sync + 'static,
    ) -> Self {
        TracksOnDemand { track: std::sync::Arc::new(track), rows, row: std::sync::Arc::new(row), curves: None }
    }

    /// These makers, plus `curves(i)`, track `i`'s keys with empty detail text and its
    /// samples, and `detail(i, k)`, the text of its key `k` as [`TracksOnDemand::track`]
    /// gives it.
    pub fn with_curves(
        mut self,
        curves: impl Fn(usize) -> (Vec<Key>, Vec<f64>) + Send + Sync + 'static,
        detail: impl Fn(usize, usize) -> String + Send + Sync + 'static,
    ) -> Self {
        self.curves = Some((std::sync::Arc::new(curves), std::sync::Arc::new(detail)));
        self
    }

    /// Keys and samples of track `i`.
    pub fn track(&self, i: usize) -> (Vec<Key>, Vec<f64>) {
        (self.track)(i)
    }

    /// Keys (detail text left empty where [`TracksOnDemand::key_detail`] gives it) and
    /// samples of track `i`.
    pub fn curves(&self, i: usize) -> (Vec<Key>, Vec<f64>) {
        match &self.curves {
            Some((curves, _)) => curves(i),
            None => (self.track)(i),
        }
    }

    /// The detail text of key `k` of track `i`, when the keys [`TracksOnDemand::curves`]
    /// gives leave it out (None: the keys carry their own text).
    pub fn key_detail(&self, i: usize, k: usize) -> Option<String> {
        self.curves.as_ref().map(|(_, detail)| detail(i, k))
    }

    /// Rows of table `t` (0 past the last table).
    pub fn row_count(&self, t: usize) -> usize {
        self.rows.get(t).copied().unwrap_or(0)
    }

    /// Cells of row `r` of table `t` (empty past the end).
    pub fn row(&self, t: usize, r: usize) -> Vec<String> {
        if r < self.row_count(t) { (self.row)(t, r) } else { Vec::new() }
    }
}

impl fmt::Debug for TracksOnDemand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TracksOnDemand(rows {:?})", self.rows)
    }
}

impl PartialEq for TracksOnDemand {
    fn eq(&self, other: &Self) -> bool {
        self.rows == other.rows
            && std::sync::Arc::ptr_eq(&self.track, &other.track)
            && std::sync::Arc::ptr_eq(&self.row, &other.row)
    }
}

/// Posed matrices made on demand, one logical frame at a time, so a consumer that writes
/// frame by frame (the matrix JSON export) needs memory for one frame, not the clip.
#[derive(Clone)]
pub struct PosesOnDemand {
    frames: usize,
    pose: std::sync::Arc<dyn Fn(usize) -> Vec<Mat4> + Send + Sync>,
}

impl PosesOnDemand {
    /// `frames` logical frames; `pose(f)` gives frame `f`'s matrices, one per bone.
    pub fn new(frames: usize, pose: impl Fn(usize) -> Vec<Mat4> + Send + Sync + 'static) -> Self {
        PosesOnDemand { frames, pose: std::sync::Arc::new(pose) }
    }

    /// Number of logical frames.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The matrices of frame `f` (empty past the last frame).
    pub fn pose(&self, f: usize) -> Vec<Mat4> {
        if f < self.frames { (self.pose)(f) } else { Vec::new() }
    }
}

impl fmt::Debug for PosesOnDemand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PosesOnDemand({} frames)", self.frames)
    }
}

impl PartialEq for PosesOnDemand {
    fn eq(&self, other: &Self) -> bool {
        self.frames == other.frames && std::sync::Arc::ptr_eq(&self.pose, &other.pose)
    }
}

impl Clip {
    /// An empty clip.
    pub fn new(name: impl Into<String>, fps: f64, frame_count: usize) -> Self {
        Clip {
            name: name.into(),
            fps,
            frame_count,
            tracks: Vec::new(),
            tables: Vec::new(),
            poses: None,
            notes: Vec::new(),
            nodes: Vec::new(),
            on_demand: None,
            tracks_on_demand: None,
            held: crate::limits::Held::default(),
        }
    }

    /// Bytes [`Clip::store_curves`] adds at least: every track's samples (8 bytes a frame),
    /// to spend from the memory budget before storing them (the keys are known once made:
    /// [`Clip::stored_bytes`] then counts them). 0 for a clip whose tracks are stored.
    pub fn curve_samples_bytes(&self) -> u64 {
        if self.tracks_on_demand.is_none() {
            return 0;
        }
        (self.tracks.len() as u64).saturating_mul(self.frame_count as u64).saturating_mul(8)
    }

    /// Bytes this clip holds, estimated: its tracks' samples and keys (with their text), its
    /// tables' cells and its stored poses (64 bytes a matrix). What a cache of decoded clips
    /// counts against the memory budget.
    pub fn stored_bytes(&self) -> u64 {
        let key = std::mem::size_of::<Key>() as u64;
        let tracks: u64 = self
            .tracks
            .iter()
            .map(|t| {
                t.samples.len() as u64 * 8
                    + t.keys.len() as u64 * key
                    + t.keys.iter().map(|k| k.detail.len() as u64).sum::<u64>()
                    + t.name.len() as u64
                    + t.target.len() as u64
            })
            .sum();
        let tables: u64 = self.tables.iter().flat_map(|t| &t.rows).flatten().map(|c| c.len() as u64 + 24).sum();
        let poses = self.poses.as_ref().map_or(0, |p| p.frames.iter().map(|f| f.len() as u64 * 64).sum());
        tracks.saturating_add(tables).saturating_add(poses)
    }

    /// Store every track's keys and samples, made from [`Clip::tracks_on_demand`] (which is
    /// kept: it still gives the table rows and the keys' detail text) by
    /// [`TracksOnDemand::curves`]: a plot gets its curves without the text of every key.
    /// Nothing changes for a clip whose tracks are stored.
    pub fn store_curves(&mut self) {
        let Some(lazy) = self.tracks_on_demand.clone() else { return };
        for (i, t) in self.tracks.iter_mut().enumerate() {
            (t.keys, t.samples) = lazy.curves(i);
        }
    }

    /// The detail text of key `k` of track `i`: stored with the key, else made on demand.
    pub fn key_detail(&self, i: usize, k: usize) -> Option<String> {
        let stored = self.tracks.get(i)?.keys.get(k)?;
        if !stored.detail.is_empty() {
            return Some(stored.detail.clone());
        }
        self.tracks_on_demand.as_ref().and_then(|l| l.key_detail(i, k)).filter(|d| !d.is_empty())
    }

    /// Number of posed frames, stored or made on demand (0 without poses).
    pub fn pose_frames(&self) -> usize {
        match (&self.on_demand, &self.poses) {
            (Some(d), _) => d.frames(),
            (None, Some(p)) => p.frames.len(),
            (None, None) => 0,
        }
    }

    /// The posed matrices of frame `f`, stored or made on demand (empty past the end).
    pub fn pose_frame(&self, f: usize) -> std::borrow::Cow<'_, [Mat4]> {
        match (&self.on_demand, &self.poses) {
            (Some(d), _) => std::borrow::Cow::Owned(d.pose(f)),
            (None, Some(p)) => std::borrow::Cow::Borrowed(p.frames.get(f).map_or(&[][..], Vec::as_slice)),
            (None, None) => std::borrow::Cow::Borrowed(&[]),
        }
    }

    /// The track named `name`.
    pub fn track(&self, name: &str) -> Option<&Track> {
        self.tracks.iter().find(|t| t.name == name)
    }
}
