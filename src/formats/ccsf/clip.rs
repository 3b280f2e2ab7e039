//! Anime and frame-section decoding into `model::anim::Clip`: per-object controller tracks
//! sampled at every frame, tables of stored records, and posed world matrices.

use super::anime::{self, CtrlField, CtrlRecord, CtrlValue, FObj, MorphCtrl};
use super::band;
use super::parse::Parsed;
use super::pose::{ObjMap, SceneObjs};
use super::raw;
use super::walk::Section;
use crate::bytes::Bytes;
use crate::error::{ErrorKind, ParseError, Result};
use crate::formats::record::read_at;
use crate::limits::Limits;
use crate::model::anim::{Clip, Key, PoseSeq, Space, Table, Track, Unit};
use glam::Mat4;
use std::collections::HashMap;

/// Frames per second of CCSF scenes (the game runs its scenes at 30 Hz) [I].
pub(in crate::formats) const FPS: f64 = 30.0;

/// An Anime chunk's parsed content.
pub(in crate::formats) struct AnimeScene {
    pub object: u32,
    pub frames: u32,
    pub looped: bool,
    pub ctrls: Vec<(u16, CtrlRecord)>,
    /// Gen-2 morph controllers 0x1902 (docs/formats/ccsf-gen2.md#anime-and-frame-records).
    pub morphs: Vec<MorphCtrl>,
    /// F_Obj records applied from frame ≥ 1 (frame, record).
    pub fobjs: Vec<(u32, FObj)>,
    /// Every record: (frame, kind, offset).
    pub listing: Vec<(Option<u32>, u16, u64)>,
}

/// Find the Anime chunk named `name` (or numbered `#i` among Anime chunks) and parse it.
pub(in crate::formats) fn find_anime(data: &[u8], p: &Parsed, name: &str, limits: &Limits) -> Result<AnimeScene> {
    let c = find_anime_chunk(data, p, name)?;
    anime_scene(data, p, c, limits)
}

/// The Anime chunk [`find_anime`] parses for `name`.
pub(in crate::formats) fn find_anime_chunk<'p>(
    data: &[u8],
    p: &'p Parsed,
    name: &str,
) -> Result<&'p super::walk::ChunkRef> {
    let b = Bytes::new(data);
    let animes: Vec<_> = p.walk.chunks.iter().filter(|c| c.kind == 0x0700 && c.section == Section::Setup).collect();
    let by_num = name.strip_prefix('#').and_then(|n| n.parse::<usize>().ok());
    let mut found = None;
    for (i, c) in animes.iter().enumerate() {
        let o = c
            .object(&b)
            .ok_or_else(|| ParseError::new(c.payload(), ErrorKind::Other("Anime without its object word".into())))?;
        if by_num == Some(i) || p.index.name(o) == name || o.to_string() == name {
            found = Some(*c);
            break;
        }
    }
    let c = found.ok_or_else(|| {
        let names: Vec<String> = animes.iter().filter_map(|c| c.object(&b)).map(|o| p.index.name(o)).collect();
        ParseError::new(0, ErrorKind::NotFound(format!("anime {name} (this file has: {})", names.join(", "))))
    })?;
    Ok(c)
}

/// Parse the Anime chunk `c` (a setup chunk of kind 0x0700) as [`find_anime`] does once it
/// has found it.
pub(in crate::formats) fn anime_scene(
    data: &[u8],
    p: &Parsed,
    c: &super::walk::ChunkRef,
    limits: &Limits,
) -> Result<AnimeScene> {
    let b = Bytes::new(data);
    let a = anime::parse_anime(&b, c.off, c.end, p.walk.version, limits)?;
    if let Some(e) = a.lost {
        return Err(e.within("Anime"));
    }
    let mut s = AnimeScene {
        object: a.object,
        frames: a.frames,
        looped: false,
        ctrls: Vec::new(),
        morphs: Vec::new(),
        fobjs: Vec::new(),
        listing: Vec::with_capacity(a.records.len()),
    };
    let gen2 = band::of(p.walk.version).gen2();
    let mut frame: Option<u32> = None;
    for r in &a.records {
        match r.kind {
            0xff01 => {
                let n = r.top(&b)?;
                if n >= 0xffff_fffe {
                    s.looped = n == 0xffff_fffe;
                    frame = None;
                } else {
                    frame = Some(n);
                }
            }
            0x0102 | 0x0202 | 0x0603 | 0x0605 | 0x0609 => {
                s.ctrls.push((
                    r.kind,
                    anime::parse_ctrl_at(&b, r, p.walk.version, limits).map_err(|e| e.within("Anime"))?,
                ));
            }
            // gen 2 (docs/formats/ccsf-gen2.md#anime-and-frame-records): the camera controller has the controller encoding
            0x0503 if gen2 => {
                s.ctrls.push((
                    r.kind,
                    anime::parse_ctrl_at(&b, r, p.walk.version, limits).map_err(|e| e.within("Anime"))?,
                ));
            }
            0x1902 if gen2 => {
                s.morphs.push(anime::parse_morph_ctrl(&b, r.off + 8, r.end, limits).map_err(|e| e.within("Anime"))?);
            }
            0x0101 => {
                let fo = anime::parse_fobj_at(&b, r.off, p.walk.version)?;
                if let Some(f) = frame.filter(|f| *f >= 1) {
                    s.fobjs.push((f, fo));
                }
            }
            _ => {}
        }
        s.listing.push((frame, r.kind, r.off));
    }
    Ok(s)
}

/// Locals and parent overrides of an Anime at `frame`.
pub(in crate::formats) fn anime_locals(
    a: &AnimeScene,
    scene: &SceneObjs,
    frame: u32,
    max_depth: usize,
) -> Result<(ObjMap<Mat4>, ObjMap<u32>)> {
    // Stored frames as they are; beyond them, the loop/once end decides.
    let frame = if frame < a.frames { frame } else { anime::playback_frame(frame, a.frames, a.looped) };
    let t = anime::time_of(frame, a.frames);
    // a local per object controller (the parent overrides are few)
    let mut locals = ObjMap::with_capacity_and_hasher(a.ctrls.len(), Default::default());
    let mut parents = ObjMap::default();
    for (kind, r) in &a.ctrls {
        if *kind != 0x0102 {
            continue;
        }
        let target = scene.resolve(r.object, max_depth)?;
        let pose = anime::eval_object(r, t);
        locals.insert(target, anime::local_matrix(pose.pos, pose.rot, pose.scale));
        if let Some(e) = scene.ext.get(&r.object) {
            // [I] the copy's own parent applies to the driven target (docs/formats/ccsf.md#controllers).
            parents.insert(target, e.parent);
        }
    }
    let mut applied: Vec<&(u32, FObj)> = a.fobjs.iter().filter(|(f, _)| *f <= frame).collect();
    applied.sort_by_key(|(f, _)| *f);
    for (_, fo) in applied {
        locals.insert(scene.resolve(fo.object, max_depth)?, fo.local());
    }
    Ok((locals, parents))
}

pub(in crate::formats) fn bones_of(
    scene: &SceneObjs,
    p: &Parsed,
    extra: &[u32],
) -> (Vec<u32>, Vec<String>, Vec<Option<usize>>) {
    let mut ids: Vec<u32> = scene.objs.iter().map(|o| o.object).collect();
    for e in extra {
        if !ids.contains(e) {
            ids.push(*e);
        }
    }
    let names = ids.iter().map(|o| p.index.name(*o)).collect();
    let parents = ids
        .iter()
        .map(|o| {
            let par = scene.by_object.get(o).and_then(|i| scene.objs.get(*i)).map_or(0, |x| x.parent);
            ids.iter().position(|x| *x == par && par != 0)
        })
        .collect();
    (ids, names, parents)
}

fn push_track(clip: &mut Clip, name: String, target: &str, unit: Unit, keys: Vec<Key>, samples: Vec<f64>) {
    clip.tracks.push(Track { name, target: target.to_string(), unit, keys, samples, unknown: false });
}

/// Decode `anime:NAME`: tracks per driven object, tables, and poses.
/// `play`: sample this many playback frames (loop/once applied) instead of the N stored ones.
pub(in crate::formats) fn anime_clip(
    p: &Parsed,
    scene: &SceneObjs,
    a: AnimeScene,
    play: Option<u32>,
    limits: &Limits,
) -> Result<Clip> {
    let n = play.unwrap_or(a.frames).max(1);
    // The stored timeline by default (its terminal frame N-1 included); with `play`, the
    // playback timeline, where a loop shows frame 0 again at N-1.
    let tf = |f: u32| match play {
        Some(_) => anime::time_of(anime::playback_frame(f, a.frames, a.looped), a.frames),
        None => anime::time_of(f, a.frames),
    };
    // Bound both time (keys walked per sample) and memory (samples and pose matrices).
    let key_count = |v: &CtrlValue| match v {
        CtrlValue::Keys(k) => k.len() as u64,
        _ => 1,
    };
    let keys: u64 = a.ctrls.iter().flat_map(|(_, r)| &r.fields).map(|f| key_count(&f.value)).sum::<u64>()
        + a.morphs.iter().flat_map(|m| &m.targets).map(|t| key_count(&t.weight)).sum::<u64>();
    let work = u64::from(n) * (keys + scene.objs.len() as u64 + 1);
    Limits::check("anime decode work", work, limits.max_decode_work, 0)?;
    let morph_targets: u64 = a.morphs.iter().map(|m| m.targets.len() as u64).sum();
    let cells = u64::from(n) * (10 * a.ctrls.len() as u64 + morph_targets + scene.objs.len() as u64 + 1);
    Limits::check("anime samples", cells, limits.max_keys as u64, 0)?;
    let count = usize::try_from(n).unwrap_or(usize::MAX);
    // The bones posed at every frame (node objects and their ancestors).
    let mut targets = Vec::new();
    for (k, r) in &a.ctrls {
        if *k == 0x0102 {
            targets.push(scene.resolve(r.object, limits.max_depth)?);
        }
    }
    let (ids, names, parents) = bones_of(scene, p, &targets);
    // A small file may declare a huge frame count: the samples (8 bytes a cell) and the
    // poses (a 64-byte matrix per bone and frame) are spent from the memory budget first.
    let pose_bytes = u64::from(n).saturating_mul(ids.len() as u64).saturating_mul(64);
    limits
        .spend_clip(
            "the anime's samples and poses",
            cells.saturating_mul(8).saturating_add(pose_bytes),
            a.listing.first().map_or(0, |l| l.2),
        )
        .map_err(|e| e.within(format!("Anime[{}]", p.index.name(a.object))))?;
    let mut clip = Clip::new(format!("anime {}", p.index.name(a.object)), FPS, count);
    clip.notes.push(format!(
        "{} stored frames, {}; {}",
        a.frames,
        if a.looped {
            "end -2 = loop (playback resets at frame N-1, so one loop is N-1 frames)"
        } else {
            "end -1 = play once (holds frame N-1)"
        },
        if play.is_some() {
            "sampled on the playback timeline"
        } else {
            "sampled on the stored timeline, time in 1/256 frames clamped to (N-1)*256"
        }
    ));
    clip.notes.push("rotation keys are quantised to 1/65536 turn and interpolated by axis-angle steps; rx/ry/rz samples are the XYZ Euler angles of that matrix".into());
    let mut ctrl_table = Table {
        name: "controllers".into(),
        columns: vec!["record".into(), "object".into(), "field".into(), "k".into(), "keys".into()],
        rows: Vec::new(),
    };
    // the time of each sampled frame (1/256 frames)
    let times: Vec<u32> = (0..n).map(&tf).collect();
    let mut seen: HashMap<String, u32> = HashMap::new();
    for (kind, r) in &a.ctrls {
        let obj = p.index.name(r.object);
        let cnt = seen.entry(obj.clone()).or_insert(0);
        *cnt += 1;
        let base = if *cnt > 1 { format!("{obj}~{cnt}") } else { obj.clone() };
        for fld in &r.fields {
            ctrl_table.rows.push(vec![
                format!("0x{kind:04x}"),
                obj.clone(),
                fld.name.to_string(),
                fld.k.to_string(),
                match &fld.value {
                    CtrlValue::Keys(k) => k.len().to_string(),
                    _ => "-".into(),
                },
            ]);
        }
        if *kind == 0x0102 {
            object_tracks(&mut clip, &base, &obj, r, &times);
        } else if *kind == 0x0503 {
            camera_tracks(&mut clip, &base, &obj, r, &times);
        } else {
            scalar_tracks(&mut clip, &base, &obj, r, &times);
        }
    }
    if a.ctrls.iter().any(|(k, _)| *k == 0x0503) {
        clip.notes.push(
            "camera controllers (gen 2, docs/formats/ccsf-gen2.md#anime-and-frame-records): position and rotation evaluated as an object controller's (docs/formats/ccsf.md#evaluation rules, quaternion keys included) [I]; fov keys interpolated linearly [I], its unit is not stated by the addendum".into(),
        );
    }
    for m in &a.morphs {
        morph_tracks(&mut clip, &mut ctrl_table, p, m, &times);
    }
    if !a.morphs.is_empty() {
        clip.notes.push(
            "morph controllers (gen 2, docs/formats/ccsf-gen2.md#anime-and-frame-records): one weight track per target, keys interpolated linearly [I]; the weights are listed, not applied to the meshes".into(),
        );
    }
    if a.ctrls.iter().any(|(k, _)| !matches!(*k, 0x0102 | 0x0503)) {
        clip.notes.push(
            "material and light controllers: keys interpolated linearly per component, light rotations included [I]; colours are listed in the chunk, not sampled".into(),
        );
    }
    clip.tables.push(ctrl_table);
    clip.tables.push(records_table(&a));
    let frames = anime_poses(&a, scene, &ids, play, limits)?;
    let rest = rest_worlds(scene, &ids, limits)?;
    clip.poses = Some(object_poses(names, parents, rest, frames, "ccsf anime"));
    Ok(clip)
}

/// The tracks of an object controller (0x0102): position, rotation (XYZ Euler degrees of
/// the interpolated rotation) and scale, and transparency when keyed, sampled at `ts`.
fn object_tracks(clip: &mut Clip, base: &str, obj: &str, r: &CtrlRecord, ts: &[u32]) {
    let poses: Vec<anime::CtrlPose> = ts.iter().map(|t| anime::eval_object(r, *t)).collect();
    let keyed = |fname: &str, comp: usize| -> Vec<Key> {
        r.fields.iter().find(|f| f.name == fname).map(|f| field_keys(f, comp)).unwrap_or_default()
    };
    for (i, c) in ["x", "y", "z"].iter().enumerate() {
        push_track(
            clip,
            format!("{base}.t{c}"),
            obj,
            Unit::GameUnits,
            keyed("position", i),
            poses.iter().map(|q| f64::from(q.pos[i])).collect(),
        );
    }
    for (i, c) in ["x", "y", "z"].iter().enumerate() {
        push_track(
            clip,
            format!("{base}.r{c}"),
            obj,
            Unit::Degrees,
            keyed("rotation", i),
            poses.iter().map(|q| f64::from(anime::euler_xyz_deg(&q.rot)[i])).collect(),
        );
    }
    for (i, c) in ["x", "y", "z"].iter().enumerate() {
        push_track(
            clip,
            format!("{base}.s{c}"),
            obj,
            Unit::Unitless,
            keyed("scale", i),
            poses.iter().map(|q| f64::from(q.scale[i])).collect(),
        );
    }
    if r.fields.iter().any(|f| f.name == "transparency" && f.k != 0) {
        push_track(
            clip,
            format!("{base}.alpha"),
            obj,
            Unit::Unitless,
            keyed("transparency", 0),
            poses.iter().map(|q| f64::from(q.alpha)).collect(),
        );
    }
}

/// The tracks of a material or light controller: each keyed scalar component, linear keys
/// as for floats, sampled at `ts`.
fn scalar_tracks(clip: &mut Clip, base: &str, obj: &str, r: &CtrlRecord, ts: &[u32]) {
    for fld in &r.fields {
        if fld.name == "colour" || fld.k == 0 {
            continue;
        }
        for comp in 0..fld.dim {
            let keys: Vec<(u32, f32)> = match &fld.value {
                CtrlValue::Keys(k) => {
                    k.iter().map(|(f, w, _)| (*f, f32::from_bits(w.get(comp).copied().unwrap_or(0)))).collect()
                }
                CtrlValue::Const(w) => vec![(0, f32::from_bits(w.get(comp).copied().unwrap_or(0)))],
                CtrlValue::Absent => Vec::new(),
            };
            let suffix =
                if fld.dim == 3 { format!(".{}", ["x", "y", "z"].get(comp).unwrap_or(&"?")) } else { String::new() };
            let samples = ts.iter().map(|t| f64::from(anime::eval_linear(&keys, *t))).collect();
            let kk = listed_keys(&fld.value, &keys);
            let unit = match fld.name {
                "rotation" => Unit::Degrees,
                "position" => Unit::GameUnits,
                _ => Unit::Unitless,
            };
            push_track(clip, format!("{base}.{}{suffix}", fld.name), obj, unit, kk, samples);
        }
    }
}

/// The Anime's records in file order: frame, kind and offset.
fn records_table(a: &AnimeScene) -> Table {
    let mut rec_table = Table {
        name: "records".into(),
        columns: vec!["frame".into(), "kind".into(), "offset".into()],
        rows: Vec::new(),
    };
    for (f, k, o) in &a.listing {
        rec_table.rows.push(vec![
            f.map_or("-".into(), |f| f.to_string()),
            format!("0x{k:04x} {}", super::kinds::kind_name(*k, true)),
            format!("0x{o:x}"),
        ]);
    }
    rec_table
}

/// The world matrices of the objects `ids` at every sampled frame (the playback timeline
/// with `play`).
fn anime_poses(
    a: &AnimeScene,
    scene: &SceneObjs,
    ids: &[u32],
    play: Option<u32>,
    limits: &Limits,
) -> Result<Vec<Vec<Mat4>>> {
    let n = play.unwrap_or(a.frames).max(1);
    let count = usize::try_from(n).unwrap_or(usize::MAX);
    let mut frames = Vec::with_capacity(count);
    for f in 0..n {
        let pf = if play.is_some() { anime::playback_frame(f, a.frames, a.looped) } else { f };
        let (locals, pars) = anime_locals(a, scene, pf, limits.max_depth)?;
        let w = scene.worlds(&locals, &pars, limits.max_depth)?;
        frames.push(ids.iter().map(|o| w.get(o).copied().unwrap_or(Mat4::IDENTITY)).collect());
    }
    Ok(frames)
}

/// Keys of component `comp` of a controller field, as stored; quaternion keys (k = 4) as
/// the XYZ Euler degrees of each key's rotation, so they match the rotation samples.
fn field_keys(f: &CtrlField, comp: usize) -> Vec<Key> {
    let CtrlValue::Keys(k) = &f.value else { return Vec::new() };
    k.iter()
        .enumerate()
        .map(|(i, (fr, w, _))| Key {
            frame: f64::from(*fr),
            value: if f.k == 4 {
                f64::from(anime::euler_xyz_deg(&anime::quat_key_matrix(w))[comp])
            } else {
                f64::from(f32::from_bits(w.get(comp).copied().unwrap_or(0)))
            },
            detail: format!("key {i}"),
        })
        .collect()
}

/// The keys a track lists for `keys` read from `value`: none when the value is a constant
/// (it has no key records to point at).
fn listed_keys(value: &CtrlValue, keys: &[(u32, f32)]) -> Vec<Key> {
    if !matches!(value, CtrlValue::Keys(_)) {
        return Vec::new();
    }
    let key = |(i, (f, v)): (usize, &(u32, f32))| Key {
        frame: f64::from(*f),
        value: f64::from(*v),
        detail: format!("key {i}"),
    };
    keys.iter().enumerate().map(key).collect()
}

/// `(frame, value)` pairs of a one-word controller value (constant: one pair at frame 0).
fn scalar_keys(v: &CtrlValue) -> Vec<(u32, f32)> {
    match v {
        CtrlValue::Keys(k) => k.iter().map(|(f, w, _)| (*f, f32::from_bits(w.first().copied().unwrap_or(0)))).collect(),
        CtrlValue::Const(w) => vec![(0, f32::from_bits(w.first().copied().unwrap_or(0)))],
        CtrlValue::Absent => Vec::new(),
    }
}

/// A gen-2 camera controller 0x0503's tracks at times `ts`: tx ty tz and rx ry rz as an
/// object controller's (rotation samples are the XYZ Euler degrees of the evaluated
/// matrix), and fov when it is stored.
fn camera_tracks(clip: &mut Clip, base: &str, obj: &str, r: &CtrlRecord, ts: &[u32]) {
    let poses: Vec<anime::CtrlPose> = ts.iter().map(|t| anime::eval_object(r, *t)).collect();
    let keyed = |fname: &str, comp: usize| {
        r.fields.iter().find(|f| f.name == fname).map(|f| field_keys(f, comp)).unwrap_or_default()
    };
    for (i, c) in ["x", "y", "z"].iter().enumerate() {
        let samples = poses.iter().map(|q| f64::from(q.pos[i])).collect();
        push_track(clip, format!("{base}.t{c}"), obj, Unit::GameUnits, keyed("position", i), samples);
    }
    for (i, c) in ["x", "y", "z"].iter().enumerate() {
        let samples = poses.iter().map(|q| f64::from(anime::euler_xyz_deg(&q.rot)[i])).collect();
        push_track(clip, format!("{base}.r{c}"), obj, Unit::Degrees, keyed("rotation", i), samples);
    }
    if let Some(fov) = r.fields.iter().find(|f| f.name == "fov" && f.k != 0) {
        let keys = scalar_keys(&fov.value);
        let samples = ts.iter().map(|t| f64::from(anime::eval_linear(&keys, *t))).collect();
        push_track(clip, format!("{base}.fov"), obj, Unit::Unitless, field_keys(fov, 0), samples);
    }
}

/// A gen-2 morph controller's weight track per target (`MPH.weight[MDL]`) at times `ts`,
/// and its rows in the controllers table.
fn morph_tracks(clip: &mut Clip, table: &mut Table, p: &Parsed, m: &MorphCtrl, ts: &[u32]) {
    let mph = p.index.name(m.morpher());
    for t in &m.targets {
        let field = format!("weight[{}]", p.index.name(t.model()));
        let k = *t.head.flags & 7;
        table.rows.push(vec![
            "0x1902".into(),
            mph.clone(),
            field.clone(),
            k.to_string(),
            match &t.weight {
                CtrlValue::Keys(k) => k.len().to_string(),
                _ => "-".into(),
            },
        ]);
        if k == 0 {
            continue;
        }
        let keys = scalar_keys(&t.weight);
        let shown = listed_keys(&t.weight, &keys);
        let samples = ts.iter().map(|x| f64::from(anime::eval_linear(&keys, *x))).collect();
        push_track(clip, format!("{mph}.{field}"), &mph, Unit::Unitless, shown, samples);
    }
}

/// An F_Camera record: (frame, object, flag, stored values by flag bit 1..8).
pub(in crate::formats) type CameraRec = (u32, u32, u32, Vec<(u32, f32)>);

/// Frame-section content: F_Obj per frame, camera and ambient values.
pub(in crate::formats) struct FrameScene {
    pub frames: Vec<(u32, Vec<FObj>)>,
    /// F_Camera records.
    pub cameras: Vec<CameraRec>,
    pub ambient: Vec<(u32, u32)>,
    pub closes: Option<u32>,
}

pub(in crate::formats) fn frame_scene(data: &[u8], p: &Parsed) -> Result<FrameScene> {
    let b = Bytes::new(data);
    let mut s = FrameScene { frames: Vec::new(), cameras: Vec::new(), ambient: Vec::new(), closes: None };
    for c in p.walk.chunks.iter().filter(|c| c.section == Section::Frames) {
        match c.kind {
            0xff01 => {
                let n = c.top(&b)?;
                if n >= 0xffff_fffe {
                    s.closes = Some(n);
                } else {
                    s.frames.push((n, Vec::new()));
                }
            }
            0x0101 => {
                let fo = anime::parse_fobj_at(&b, c.off, p.walk.version)?;
                if let Some(last) = s.frames.last_mut() {
                    last.1.push(fo);
                }
            }
            0x0502 => {
                let w = b.sub(c.off, c.end)?;
                let r: raw::FCamera = read_at(&w, c.payload()).map_err(|e| ParseError::new(e.offset, e.kind))?;
                let (object, flag) = (*r.object, *r.flag);
                // the values present, in bit order (bits 1..8 clear)
                let bits = (1..=8u32).filter(|bit| flag & (1 << bit) == 0);
                let vals: Vec<(u32, f32)> = bits.zip(r.values()).map(|(bit, v)| (bit, f32::from_bits(v))).collect();
                if let Some((f, _)) = s.frames.last() {
                    s.cameras.push((*f, object, flag, vals));
                }
            }
            0x0601 => {
                if let Some((f, _)) = s.frames.last() {
                    let w = b.sub(c.off, c.end)?;
                    let r: raw::FAmbient = read_at(&w, c.payload()).map_err(|e| ParseError::new(e.offset, e.kind))?;
                    s.ambient.push((*f, *r.colour));
                }
            }
            _ => {}
        }
    }
    Ok(s)
}

/// Locals at stream frame `frame`: the last F_Obj per object over frames 0..=frame.
pub(in crate::formats) fn frame_locals(fs: &FrameScene, frame: u32) -> ObjMap<Mat4> {
    let mut locals = ObjMap::default();
    for (f, recs) in &fs.frames {
        if *f > frame {
            continue;
        }
        for r in recs {
            locals.insert(r.object, r.local());
        }
    }
    locals
}

/// Decode `frames`: the frame section as a clip.
pub(in crate::formats) fn frames_clip(data: &[u8], p: &Parsed, scene: &SceneObjs, limits: &Limits) -> Result<Clip> {
    let fs = frame_scene(data, p)?;
    let n = fs.frames.len();
    let mut distinct: Vec<u32> = fs.frames.iter().flat_map(|(_, r)| r.iter().map(|x| x.object)).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let cells = (n as u64) * (10 * distinct.len() as u64 + scene.objs.len() as u64 + 1);
    Limits::check("frame decode work", cells, limits.max_decode_work, 0)?;
    Limits::check("frame samples", cells, limits.max_keys as u64 * 4, 0)?;
    let mut clip = Clip::new("frame section", FPS, n);
    clip.notes.push(format!(
        "{n} frames; closed by {}; a node is hidden until its first F_Obj (samples before it hold the defaults)",
        match fs.closes {
            Some(0xffff_fffe) => "Top -2 (end and reset)",
            Some(_) => "Top -1 (end)",
            None => "nothing",
        }
    ));
    let mut objs: Vec<u32> = Vec::new();
    for (_, recs) in &fs.frames {
        for r in recs {
            if !objs.contains(&r.object) {
                objs.push(r.object);
            }
        }
    }
    for o in &objs {
        let name = p.index.name(*o);
        let mut cur: Option<FObj> = None;
        let mut vals: Vec<[f64; 10]> = Vec::with_capacity(n);
        let mut keys: Vec<Vec<Key>> = vec![Vec::new(); 10];
        for (f, recs) in &fs.frames {
            if let Some(r) = recs.iter().rev().find(|r| r.object == *o) {
                cur = Some(*r);
                for (k, x) in keys.iter_mut().zip(r.channels()) {
                    k.push(Key { frame: f64::from(*f), value: f64::from(x), detail: "F_Obj".into() });
                }
            }
            let v = cur.map_or([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0], |r| r.channels().map(f64::from));
            vals.push(v);
        }
        let chans = ["tx", "ty", "tz", "rx", "ry", "rz", "sx", "sy", "sz", "alpha"];
        for (i, (c, k)) in chans.iter().zip(keys).enumerate() {
            let unit = match i {
                0..=2 => Unit::GameUnits,
                3..=5 => Unit::Degrees,
                _ => Unit::Unitless,
            };
            push_track(
                &mut clip,
                format!("{name}.{c}"),
                &name,
                unit,
                k,
                vals.iter().map(|v| v.get(i).copied().unwrap_or(0.0)).collect(),
            );
        }
    }
    // Camera channels: a value holds until a later F_Camera stores that bit again [I].
    let mut cams: Vec<u32> = fs.cameras.iter().map(|c| c.1).collect();
    cams.sort_unstable();
    cams.dedup();
    for cam in cams {
        let name = p.index.name(cam);
        let chans = [
            (1, "tx", Unit::GameUnits),
            (2, "ty", Unit::GameUnits),
            (3, "tz", Unit::GameUnits),
            (4, "rx", Unit::Degrees),
            (5, "ry", Unit::Degrees),
            (6, "rz", Unit::Degrees),
            (8, "fov", Unit::Degrees),
        ];
        for (bit, ch, unit) in chans {
            let mut cur = f64::NAN;
            let mut keys = Vec::new();
            let mut samples = Vec::with_capacity(n);
            for (f, _) in &fs.frames {
                for (cf, _, _, vals) in fs.cameras.iter().filter(|c| c.0 == *f && c.1 == cam) {
                    if let Some((_, v)) = vals.iter().find(|(b, _)| *b == bit) {
                        cur = f64::from(*v);
                        keys.push(Key { frame: f64::from(*cf), value: cur, detail: "F_Camera".into() });
                    }
                }
                samples.push(if cur.is_nan() { 0.0 } else { cur });
            }
            if !keys.is_empty() {
                push_track(&mut clip, format!("{name}.{ch}"), &name, unit, keys, samples);
            }
        }
    }
    if !fs.ambient.is_empty() {
        let mut t = Table {
            name: "F_Ambient".into(),
            columns: vec!["frame".into(), "r".into(), "g".into(), "b".into()],
            rows: Vec::new(),
        };
        for (f, c) in &fs.ambient {
            let [r, g, bl, _] = c.to_le_bytes();
            t.rows.push(vec![f.to_string(), r.to_string(), g.to_string(), bl.to_string()]);
        }
        clip.tables.push(t);
    }
    let (ids, names, parents) = bones_of(scene, p, &objs);
    let pose_bytes = (n as u64).saturating_mul(ids.len() as u64).saturating_mul(64);
    limits.spend_clip("the frame section's poses", pose_bytes, 0)?;
    let mut frames = Vec::with_capacity(n);
    // Frames are numbered in file order (docs/formats/ccsf.md#frame-0x0005-and-top-0xff01): keep the last F_Obj per object as we go.
    let mut locals = ObjMap::default();
    for (_, recs) in &fs.frames {
        for r in recs {
            locals.insert(r.object, r.local());
        }
        let w = scene.worlds(&locals, &ObjMap::default(), limits.max_depth)?;
        frames.push(ids.iter().map(|o| w.get(o).copied().unwrap_or(Mat4::IDENTITY)).collect());
    }
    let rest = rest_worlds(scene, &ids, limits)?;
    clip.poses = Some(object_poses(names, parents, rest, frames, "ccsf frame section"));
    Ok(clip)
}

/// The world matrix of each of `ids` at rest: the gen-2 Clump bind poses through the Obj
/// hierarchy (Clump bind pose: docs/formats/ccsf-gen2.md), identity where a node has none
/// (gen 1 stores no bind pose). The meshes of a scene at rest stand in this pose, so it is
/// the skeleton's rest: a glTF skin's inverse bind matrices are its inverses.
fn rest_worlds(scene: &SceneObjs, ids: &[u32], limits: &Limits) -> Result<Vec<Mat4>> {
    if scene.rest.is_empty() {
        return Ok(vec![Mat4::IDENTITY; ids.len()]);
    }
    let w = scene.worlds(&ObjMap::default(), &ObjMap::default(), limits.max_depth)?;
    Ok(ids.iter().map(|o| w.get(o).copied().unwrap_or(Mat4::IDENTITY)).collect())
}

/// Per-object world matrices as export poses: the file's Obj hierarchy is the skeleton, its
/// rest is the bind pose ([`rest_worlds`]), and no axis conversion is needed (CCSF is Z up,
/// right-handed like Blender; model units are kept).
fn object_poses(
    bones: Vec<String>,
    parents: Vec<Option<usize>>,
    rest: Vec<Mat4>,
    frames: Vec<Vec<Mat4>>,
    source: &str,
) -> PoseSeq {
    PoseSeq {
        space: Space::FormatModel,
        rest,
        bones,
        frames,
        parents,
        conversion_matrix: Mat4::IDENTITY,
        source: source.into(),
        skeleton: "the file's Obj hierarchy".into(),
        conversion: "none: CCSF model space (Z up, right-handed, model units)".into(),
    }
}
