//! Posing (docs/formats/ccsf.md#posing): node hierarchy from Obj/ExtObj/Clump chunks, world matrices
//! `world = parent_world · local`, ExtObj target chains with cycle and depth guards, and
//! bone/skin vertices `node_world · p`.

use super::band;
use super::mesh::{Mesh, MmatKind};
use super::parse::Parsed;
use super::raw;
use super::walk::Section;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::{Count, read, read_at};
use glam::{Mat4, Vec3};
use std::collections::{BTreeMap, HashMap};

/// A map keyed by object number. Hashed by foldhash, not SipHash: a survey builds a scene's
/// maps for every member (hashing was 4 % of surveying a 1 KB scene); seeded per process,
/// so a file cannot choose colliding numbers.
pub(in crate::formats) type ObjMap<V> = HashMap<u32, V, foldhash::fast::RandomState>;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct ObjInfo {
    pub object: u32,
    pub parent: u32,
    pub model: u32,
    pub shadow: Option<u32>,
    pub off: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::formats) struct ExtInfo {
    pub parent: u32,
    pub target: u32,
    pub off: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub(in crate::formats) struct ClumpInfo {
    pub object: u32,
    pub nodes: Vec<u32>,
    pub off: u64,
    /// Gen 2 (B1+): each node's bind pose as a local matrix, in node order.
    pub bind: Vec<Mat4>,
}

/// The scene's node objects.
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::formats) struct SceneObjs {
    pub objs: Vec<ObjInfo>,
    pub by_object: ObjMap<usize>,
    pub ext: BTreeMap<u32, ExtInfo>,
    pub clumps: Vec<ClumpInfo>,
    /// Rest locals from gen-2 Clump bind poses, by node object: the local of a node no
    /// animation drives (docs/formats/ccsf-gen2.md#clump-0x0900-bind-poses).
    pub rest: ObjMap<Mat4>,
}

/// A declaration's read error as the byte reads gave it: offset and kind (the caller names
/// the structure).
fn plain<T>(r: Result<T>) -> Result<T> {
    r.map_err(|e| ParseError::new(e.offset, e.kind))
}

pub(in crate::formats) fn collect(data: &[u8], p: &Parsed, max_depth: usize) -> Result<SceneObjs> {
    let mut s = SceneObjs::default();
    collect_into(data, p, max_depth, &mut s)?;
    Ok(s)
}

/// [`collect`] into `s`, emptied first and its arrays and maps reused (the strict check
/// collects every surveyed member's scene into one per thread).
pub(in crate::formats) fn collect_into(data: &[u8], p: &Parsed, max_depth: usize, s: &mut SceneObjs) -> Result<()> {
    let b = Bytes::new(data);
    s.objs.clear();
    s.by_object.clear();
    s.ext.clear();
    s.clumps.clear();
    s.rest.clear();
    // sized for the scene's Obj records at once (a survey collects every member's scene)
    let objs = p.walk.chunks.iter().filter(|c| c.section == Section::Setup && c.kind == 0x0100).count();
    s.objs.reserve_exact(objs);
    s.by_object.reserve(objs);
    for c in p.walk.chunks.iter().filter(|c| c.section == Section::Setup) {
        let q = c.payload();
        match c.kind {
            0x0100 => {
                let r: raw::Obj = plain(read(&b, q, (p.walk.version, (c.end - q) / 4)))?;
                let o = ObjInfo {
                    object: *r.object,
                    parent: *r.parent,
                    model: *r.model,
                    shadow: r.shadow_model.map(|s| *s),
                    off: c.off,
                };
                s.by_object.entry(o.object).or_insert(s.objs.len());
                s.objs.push(o);
            }
            0x0a00 => {
                let r: raw::ExtObj = plain(read_at(&b, q))?;
                s.ext.entry(*r.object).or_insert(ExtInfo { parent: *r.parent, target: *r.target, off: c.off });
            }
            0x0900 => {
                let h: raw::Clump = plain(read_at(&b, q))?;
                let n = Count::checked(&b, "clump node", q + 8, u64::from(*h.n), 4, c.end.saturating_sub(q + 8) / 4)?;
                let l: raw::ObjectList = plain(read(&b, q + 8, (n,)))?;
                let nodes: Vec<u32> = l.node.iter().map(|x| **x).collect();
                let after = q + 8 + 4 * n.get() as u64;
                let mut bind = Vec::new();
                if band::of(p.walk.version).size_decides && n.get() > 0 && c.end - after == 36 * n.get() as u64 {
                    let bs: raw::ClumpBinds = plain(read(&b, after, (n,)))?;
                    let v = |x: &raw::Vec3| Vec3::new(f32::from_bits(*x.x), f32::from_bits(*x.y), f32::from_bits(*x.z));
                    bind = bs
                        .bind
                        .iter()
                        .map(|r| {
                            let rot = super::anime::rot_xyz(v(&r.rot) * (std::f32::consts::PI / 180.0));
                            super::anime::local_matrix(v(&r.pos), rot, v(&r.scale))
                        })
                        .collect();
                    for (node, m) in nodes.iter().zip(&bind) {
                        s.rest.entry(*node).or_insert(*m);
                    }
                }
                s.clumps.push(ClumpInfo { object: *h.object, nodes, off: c.off, bind });
            }
            _ => {}
        }
    }
    // Validate every ExtObj chain up front so cycles are reported where they start.
    for &o in s.ext.keys() {
        s.resolve(o, max_depth)?;
    }
    Ok(())
}

impl SceneObjs {
    /// Follow ExtObj targets from `o` to the object the animation really drives.
    pub fn resolve(&self, o: u32, max_depth: usize) -> Result<u32> {
        let mut cur = o;
        for _ in 0..=max_depth {
            match self.ext.get(&cur) {
                Some(e) if e.target != 0 => cur = e.target,
                _ => return Ok(cur),
            }
        }
        let off = self.ext.get(&o).map_or(0, |e| e.off);
        Err(ParseError::new(off, ErrorKind::Cycle { what: "ExtObj target", at: u64::from(o), max: max_depth as u64 }))
    }

    /// World matrices of every Obj (and every other object with a local), given locals
    /// keyed by object and per-object parent overrides (a driving ExtObj copy's parent).
    pub fn worlds(&self, locals: &ObjMap<Mat4>, parents: &ObjMap<u32>, max_depth: usize) -> Result<ObjMap<Mat4>> {
        let mut all: Vec<u32> = self.objs.iter().map(|o| o.object).collect();
        let mut extra: Vec<u32> = locals.keys().copied().filter(|o| !self.by_object.contains_key(o)).collect();
        extra.sort_unstable();
        all.extend(extra);
        // one world per object at most; one chain buffer for every object's walk up
        let mut out: ObjMap<Mat4> = ObjMap::with_capacity_and_hasher(all.len(), Default::default());
        let mut chain = Vec::new();
        for o in all {
            chain.clear();
            let mut cur = o;
            while cur != 0 && !out.contains_key(&cur) {
                if chain.contains(&cur) || chain.len() > max_depth {
                    return Err(self.parent_cycle(o, max_depth));
                }
                chain.push(cur);
                let parent = match parents.get(&cur) {
                    Some(p) => *p,
                    None => self.stored_parent(cur),
                };
                cur = if parent == 0 { 0 } else { self.resolve(parent, max_depth)? };
            }
            let mut w = if cur == 0 { Mat4::IDENTITY } else { out.get(&cur).copied().unwrap_or(Mat4::IDENTITY) };
            for c in chain.iter().rev() {
                w *= locals.get(c).or_else(|| self.rest.get(c)).copied().unwrap_or(Mat4::IDENTITY);
                out.insert(*c, w);
            }
        }
        Ok(out)
    }

    /// The parent Obj record `object` names (0 when it has no record or no parent).
    pub fn stored_parent(&self, object: u32) -> u32 {
        self.by_object.get(&object).and_then(|i| self.objs.get(*i)).map_or(0, |x| x.parent)
    }

    /// The error of a parent chain from `object` that loops or runs deeper than `max_depth`,
    /// at the offset of `object`'s record.
    fn parent_cycle(&self, object: u32, max_depth: usize) -> ParseError {
        let off = self.by_object.get(&object).and_then(|i| self.objs.get(*i)).map_or(0, |x| x.off);
        ParseError::new(off, ErrorKind::Cycle { what: "Obj parent", at: u64::from(object), max: max_depth as u64 })
    }

    /// The error [`SceneObjs::worlds`] gives at rest (no locals, no parent overrides), if
    /// any: the first Obj parent cycle or chain deeper than `max_depth`, found in the same
    /// order, without making a matrix (the strict check and the survey ask it of every file).
    pub fn check_parents(&self, max_depth: usize) -> Result<()> {
        let mut placed = ObjSet::default();
        let mut chain = ObjChain::default();
        for o in self.objs.iter().map(|x| x.object) {
            chain.clear();
            let mut cur = o;
            while cur != 0 && !placed.contains(&cur) {
                if chain.contains(&cur) || chain.len() > max_depth {
                    return Err(self.parent_cycle(o, max_depth));
                }
                chain.push(cur);
                let parent = self.stored_parent(cur);
                cur = if parent == 0 { 0 } else { self.resolve(parent, max_depth)? };
            }
            for &c in chain.iter() {
                placed.insert(c);
            }
        }
        Ok(())
    }

    /// The Obj whose model (or shadow model) field names `model` (first wins).
    pub fn owner(&self, model: u32) -> Option<&ObjInfo> {
        self.objs.iter().find(|o| o.model == model).or_else(|| self.objs.iter().find(|o| o.shadow == Some(model)))
    }

    /// The clump whose node list contains `obj`.
    pub fn clump_of(&self, obj: u32) -> Option<&ClumpInfo> {
        self.clumps.iter().find(|c| c.nodes.contains(&obj))
    }
}

/// A set of object numbers: inline while it holds a scene's usual few (no allocation; the
/// survey checks every member's hierarchy), hashed past that.
enum ObjSet {
    Few(crate::formats::inline::Inline<u32, 32>),
    Many(std::collections::HashSet<u32, foldhash::fast::RandomState>),
}

impl Default for ObjSet {
    fn default() -> Self {
        ObjSet::Few(Default::default())
    }
}

impl ObjSet {
    fn contains(&self, o: &u32) -> bool {
        match self {
            ObjSet::Few(v) => v.contains(o),
            ObjSet::Many(h) => h.contains(o),
        }
    }

    fn insert(&mut self, o: u32) {
        match self {
            ObjSet::Few(v) => {
                if !v.contains(&o) && !v.push(o) {
                    let mut h: std::collections::HashSet<u32, foldhash::fast::RandomState> =
                        v.iter().copied().collect();
                    h.insert(o);
                    *self = ObjSet::Many(h);
                }
            }
            ObjSet::Many(h) => {
                h.insert(o);
            }
        }
    }
}

/// Objects walked from one object up to its root, in order: inline while the chain is a
/// scene's usual few (no allocation per member: the survey checks every member's
/// hierarchy), a vector past that.
enum ObjChain {
    Few(crate::formats::inline::Inline<u32, 32>),
    Many(Vec<u32>),
}

impl Default for ObjChain {
    fn default() -> Self {
        ObjChain::Few(Default::default())
    }
}

impl ObjChain {
    fn clear(&mut self) {
        match self {
            ObjChain::Few(v) => v.clear(),
            ObjChain::Many(v) => v.clear(),
        }
    }

    fn push(&mut self, o: u32) {
        match self {
            ObjChain::Few(v) => {
                if !v.push(o) {
                    let mut all = v.to_vec();
                    all.push(o);
                    *self = ObjChain::Many(all);
                }
            }
            ObjChain::Many(v) => v.push(o),
        }
    }
}

impl std::ops::Deref for ObjChain {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        match self {
            ObjChain::Few(v) => v,
            ObjChain::Many(v) => v,
        }
    }
}

/// Pose meshes of model object `model` in place: rigid/shadow by the owner's world,
/// bone by its node's world, skin as Σ weight · node_world · p.
pub(in crate::formats) fn pose_meshes(
    meshes: &mut [Mesh],
    model: u32,
    s: &SceneObjs,
    worlds: &ObjMap<Mat4>,
    max_depth: usize,
) -> Result<()> {
    let owner = s.owner(model);
    let owner_world = owner.and_then(|o| worlds.get(&o.object)).copied().unwrap_or(Mat4::IDENTITY);
    let clump = owner.and_then(|o| s.clump_of(o.object));
    let node_world = |slot: u32| -> Result<Mat4> {
        match clump.and_then(|c| c.nodes.get(slot as usize)) {
            Some(&n) => Ok(worlds.get(&s.resolve(n, max_depth)?).copied().unwrap_or(Mat4::IDENTITY)),
            None => Ok(Mat4::IDENTITY),
        }
    };
    for m in meshes.iter_mut() {
        match m.kind {
            MmatKind::Rigid | MmatKind::Shadow | MmatKind::TriList => {
                for p in &mut m.positions {
                    *p = owner_world.transform_point3(*p);
                }
                for n in &mut m.normals {
                    *n = owner_world.transform_vector3(*n).normalize_or_zero();
                }
            }
            MmatKind::Bone => {
                let w = node_world(m.bone_slot.unwrap_or(u32::MAX))?;
                for p in &mut m.positions {
                    *p = w.transform_point3(*p);
                }
                for n in &mut m.normals {
                    *n = w.transform_vector3(*n).normalize_or_zero();
                }
            }
            MmatKind::Skin => {
                for (i, inf) in m.influences.iter().enumerate() {
                    let mut p = Vec3::ZERO;
                    let mut n = Vec3::ZERO;
                    for e in inf {
                        let w = node_world(u32::from(e.slot))?;
                        p += w.transform_point3(e.position) * e.weight;
                        n += w.transform_vector3(e.normal) * e.weight;
                    }
                    if let Some(d) = m.positions.get_mut(i) {
                        *d = p;
                    }
                    if let Some(d) = m.normals.get_mut(i) {
                        *d = n.normalize_or_zero();
                    }
                }
            }
        }
    }
    Ok(())
}

/// Record in each mesh of model object `model` which objects move its vertices, by the same
/// choices as [`pose_meshes`]: rigid and shadow meshes follow the owning Obj, bone meshes
/// their clump slot's node, skins each entry's slot node (ExtObj targets followed). A slot
/// outside the clump binds nothing (posing leaves it at identity), so such a vertex has no
/// entry for it.
pub(in crate::formats) fn bind_meshes(
    meshes: &mut [Mesh],
    model: u32,
    s: &SceneObjs,
    index: &super::parse::Index,
    max_depth: usize,
) -> Result<()> {
    let owner = s.owner(model);
    let clump = owner.and_then(|o| s.clump_of(o.object));
    let node = |slot: u32| -> Result<Option<String>> {
        match clump.and_then(|c| c.nodes.get(slot as usize)) {
            Some(&n) => Ok(Some(index.name(s.resolve(n, max_depth)?))),
            None => Ok(None),
        }
    };
    for m in meshes.iter_mut() {
        let whole = match m.kind {
            MmatKind::Rigid | MmatKind::Shadow | MmatKind::TriList => owner.map(|o| index.name(o.object)),
            MmatKind::Bone => node(m.bone_slot.unwrap_or(u32::MAX))?,
            MmatKind::Skin => {
                let mut binding = Vec::with_capacity(m.influences.len());
                for inf in &m.influences {
                    let mut v = Vec::with_capacity(inf.len());
                    for e in inf {
                        if let Some(name) = node(u32::from(e.slot))? {
                            v.push((name, e.weight));
                        }
                    }
                    binding.push(v);
                }
                m.binding = binding;
                continue;
            }
        };
        m.binding = match whole {
            Some(name) => vec![vec![(name, 1.0)]; m.positions.len()],
            None => Vec::new(),
        };
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod check_parents_tests {
    use super::*;
    use proptest::prelude::*;

    fn scene(objs: &[(u32, u32)], ext: &[(u32, u32, u32)]) -> SceneObjs {
        let mut s = SceneObjs::default();
        for (i, &(object, parent)) in objs.iter().enumerate() {
            s.by_object.entry(object).or_insert(s.objs.len());
            s.objs.push(ObjInfo { object, parent, model: 0, shadow: None, off: 0x100 + 0x10 * i as u64 });
        }
        for &(object, parent, target) in ext {
            s.ext.entry(object).or_insert(ExtInfo { parent, target, off: 0x800 + u64::from(object) });
        }
        s
    }

    #[test]
    fn a_chain_longer_than_the_inline_room_spills_in_order() {
        let mut c = ObjChain::default();
        for o in 1..=40 {
            c.push(o);
        }
        assert!(matches!(c, ObjChain::Many(_)));
        assert_eq!(&*c, (1..=40).collect::<Vec<u32>>().as_slice());
        c.clear();
        c.push(7);
        assert_eq!(&*c, &[7]);
    }

    #[test]
    fn deep_hierarchies_past_the_inline_room_check_as_worlds_walks_them() {
        // object k's parent is k+1, 48 deep (past the chain's 32 kept in place)
        let deep: Vec<(u32, u32)> = (1..=48).map(|o| (o, if o == 48 { 0 } else { o + 1 })).collect();
        for max_depth in [8, 47, 48, 64] {
            let s = scene(&deep, &[]);
            let at_rest = s.worlds(&ObjMap::default(), &ObjMap::default(), max_depth).map(|_| ());
            assert_eq!(format!("{:?}", s.check_parents(max_depth)), format!("{at_rest:?}"), "max_depth {max_depth}");
        }
        assert!(scene(&deep, &[]).check_parents(64).is_ok());
        assert!(scene(&deep, &[]).check_parents(8).is_err());
        // the same chain closed into a cycle 40 objects round
        let mut cycle = deep.clone();
        cycle.truncate(40);
        if let Some(last) = cycle.last_mut() {
            last.1 = 1;
        }
        let s = scene(&cycle, &[]);
        let at_rest = s.worlds(&ObjMap::default(), &ObjMap::default(), 64).map(|_| ());
        assert!(at_rest.is_err());
        assert_eq!(format!("{:?}", s.check_parents(64)), format!("{at_rest:?}"));
    }

    #[test]
    fn a_parent_cycle_is_the_error_worlds_gives() {
        let s = scene(&[(1, 0), (2, 3), (3, 2)], &[]);
        let e = s.check_parents(8).unwrap_err();
        assert_eq!(e.offset, 0x110, "reported at the first Obj whose chain loops");
        assert!(matches!(e.kind, ErrorKind::Cycle { what: "Obj parent", at: 2, max: 8 }), "{e:?}");
        assert!(scene(&[(1, 0), (2, 1), (3, 2)], &[]).check_parents(8).is_ok());
    }

    proptest! {
        /// On any hierarchy (duplicate objects, ExtObj redirections, their cycles, chains
        /// deeper than the bound), the check gives exactly what `worlds` at rest gives.
        #[test]
        fn check_parents_agrees_with_worlds_at_rest(
            objs in proptest::collection::vec((1u32..12, 0u32..12), 0..12),
            ext in proptest::collection::vec((1u32..12, 0u32..12, 0u32..12), 0..6),
            max_depth in 0usize..6,
        ) {
            let s = scene(&objs, &ext);
            let at_rest = s.worlds(&ObjMap::default(), &ObjMap::default(), max_depth).map(|_| ());
            prop_assert_eq!(format!("{:?}", s.check_parents(max_depth)), format!("{at_rest:?}"));
        }
    }
}
