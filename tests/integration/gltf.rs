//! glTF exports read back here (JSON, buffer, GLB chunks) and checked against matrices
//! computed independently of the exporter: from the decoded channel samples (`decode
//! --json`), the fixtures' known hierarchies and glTF's axes (Y up), with glam.

use glam::{EulerRot, Mat4, Quat, Vec3};
use serde_json::Value;
use std::path::Path;

use super::support::animscope;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = animscope(args);
    assert_eq!(code, 0, "animscope {args:?}: {err}");
    format!("{out}{err}")
}

fn fixture(p: &str) -> String {
    format!("{}/fixtures/{p}", env!("CARGO_MANIFEST_DIR"))
}

fn samples(decoded: &Value, track: &str) -> Vec<f32> {
    let t = decoded["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == track)
        .unwrap_or_else(|| panic!("no track {track}"));
    t["samples"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect()
}

/// A glTF document and its buffer 0.
struct Doc {
    json: Value,
    bin: Vec<u8>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Read a `.glb` by its chunk layout (12-byte header, JSON chunk, BIN chunk).
fn read_glb(path: &Path) -> Doc {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[0..4], b"glTF");
    assert_eq!(u32_at(&b, 4), 2, "container version");
    assert_eq!(u32_at(&b, 8) as usize, b.len(), "total length");
    let jl = u32_at(&b, 12) as usize;
    assert_eq!(&b[16..20], b"JSON");
    assert_eq!(jl % 4, 0);
    let json: Value = serde_json::from_slice(&b[20..20 + jl]).unwrap();
    let at = 20 + jl;
    let bl = u32_at(&b, at) as usize;
    assert_eq!(&b[at + 4..at + 8], b"BIN\0");
    assert_eq!(bl % 4, 0);
    assert_eq!(at + 8 + bl, b.len());
    let bin = b[at + 8..at + 8 + bl].to_vec();
    assert!(json["buffers"][0]["uri"].is_null(), "a GLB's buffer is its BIN chunk");
    Doc { json, bin }
}

fn read_gltf(path: &Path) -> Doc {
    let json: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let uri = json["buffers"][0]["uri"].as_str().unwrap().to_string();
    let bin = std::fs::read(path.parent().unwrap().join(uri)).unwrap();
    Doc { json, bin }
}

impl Doc {
    /// Accessor `i` as rows of numbers (floats and unsigned integers; tightly packed).
    fn accessor(&self, i: usize) -> Vec<Vec<f64>> {
        let a = &self.json["accessors"][i];
        let v = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let base = v["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let n = match a["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            t => panic!("type {t}"),
        };
        let (size, read): (usize, fn(&[u8]) -> f64) = match a["componentType"].as_u64().unwrap() {
            5126 => (4, |b| f64::from(f32::from_le_bytes(b.try_into().unwrap()))),
            5125 => (4, |b| f64::from(u32::from_le_bytes(b.try_into().unwrap()))),
            5123 => (2, |b| f64::from(u16::from_le_bytes(b.try_into().unwrap()))),
            5121 => (1, |b| f64::from(b[0])),
            c => panic!("component type {c}"),
        };
        let count = a["count"].as_u64().unwrap() as usize;
        assert!(base + count * n * size <= self.bin.len(), "accessor {i} inside the buffer");
        (0..count).map(|r| (0..n).map(|c| read(&self.bin[base + (r * n + c) * size..][..size])).collect()).collect()
    }

    fn node_index(&self, name: &str) -> usize {
        self.json["nodes"].as_array().unwrap().iter().position(|n| n["name"] == name).unwrap()
    }

    fn parent(&self, node: usize) -> Option<usize> {
        self.json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|n| n["children"].as_array().is_some_and(|c| c.iter().any(|x| x.as_u64() == Some(node as u64))))
    }

    /// Per node and path, the animation's sampled values: `keys[node][path][frame]`.
    fn channel(&self, node: usize, path: &str) -> Vec<Vec<f64>> {
        let anim = &self.json["animations"][0];
        let ch = anim["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["target"]["node"].as_u64() == Some(node as u64) && c["target"]["path"] == path)
            .unwrap_or_else(|| panic!("no {path} channel for node {node}"));
        let s = &anim["samplers"][ch["sampler"].as_u64().unwrap() as usize];
        assert_eq!(s["interpolation"], "LINEAR");
        self.accessor(s["output"].as_u64().unwrap() as usize)
    }

    fn times(&self) -> Vec<f64> {
        let s = &self.json["animations"][0]["samplers"][0];
        self.accessor(s["input"].as_u64().unwrap() as usize).into_iter().map(|r| r[0]).collect()
    }

    /// World matrix of `node` at key `f`, composed here from the animated TRS up the node
    /// hierarchy (translation · rotation · scale, glTF's order).
    fn world(&self, node: usize, f: usize) -> Mat4 {
        let v3 = |r: &Vec<f64>| Vec3::new(r[0] as f32, r[1] as f32, r[2] as f32);
        let t = v3(&self.channel(node, "translation")[f]);
        let q = &self.channel(node, "rotation")[f];
        let r = Quat::from_xyzw(q[0] as f32, q[1] as f32, q[2] as f32, q[3] as f32);
        let s = v3(&self.channel(node, "scale")[f]);
        let local = Mat4::from_translation(t) * Mat4::from_quat(r) * Mat4::from_scale(s);
        match self.parent(node) {
            Some(p) => self.world(p, f) * local,
            None => local,
        }
    }
}

fn assert_close(got: Mat4, want: Mat4, what: &str) {
    let d = (got - want).to_cols_array().iter().fold(0f32, |m, v| m.max(v.abs()));
    assert!(d <= 1e-4, "{what}: max abs difference {d}\n got {got}\nwant {want}");
}

/// glTF is Y up: a Z-up (CCSF, Blender) point (x, y, z) is (x, z, −y) in glTF.
fn z_up_to_gltf(m: Mat4) -> Mat4 {
    let y = Mat4::from_cols_array(&[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    y * m * y.inverse()
}

#[test]
fn sc6_root_only_keys_are_the_root_channels_in_y_up_metres() {
    let dir = tempfile::tempdir().unwrap();
    let f = fixture("sc6/flags_half.mot");
    let out = dir.path().join("root.glb");
    ok(&["export", &f, "--clip", "0", "--root-only", "--gltf", "-o", out.to_str().unwrap()]);
    let doc = read_glb(&out);
    let decoded: Value = serde_json::from_str(&ok(&["decode", &f, "--clip", "0", "--json"])).unwrap();
    let (x, y, z) = (samples(&decoded, "root.x"), samples(&decoded, "root.y"), samples(&decoded, "root.z"));
    let n = decoded["frame_count"].as_u64().unwrap() as usize;
    // One key per logical frame, terminal frame included, at frame / 60 Hz.
    let times = doc.times();
    assert_eq!(times.len(), n);
    for (i, t) in times.iter().enumerate() {
        assert!((t - i as f64 / 60.0).abs() < 1e-6, "key {i} at {t}");
    }
    // Lux space is already Y up in metres, so the glTF translation is the channels as they are.
    let (actor, motion) = (doc.node_index("actor_root"), doc.node_index("motion_root"));
    let mut moved = false;
    for i in 0..n {
        assert_close(doc.world(actor, i), Mat4::from_translation(Vec3::new(x[i], 0.0, z[i])), &format!("actor {i}"));
        assert_close(doc.world(motion, i), Mat4::from_translation(Vec3::new(x[i], y[i], z[i])), &format!("motion {i}"));
        moved |= x[i] != x[0] || z[i] != z[0];
    }
    assert!(moved, "the fixture's root must move for this test to mean anything");
    let extras = &doc.json["asset"]["extras"];
    assert_eq!(extras["source"], "root curve only");
    assert_eq!(extras["input"], "flags_half.mot");
    assert!(doc.json["asset"]["generator"].as_str().unwrap().starts_with("animscope "));
}

#[test]
fn ccsf_anime_keys_follow_the_controllers_through_the_hierarchy() {
    let dir = tempfile::tempdir().unwrap();
    let f = fixture("ccsf/chara.cmp");
    let out = dir.path().join("walk.gltf");
    ok(&["export", &f, "--anime", "ANM_walk", "--gltf", "-o", out.to_str().unwrap()]);
    let doc = read_gltf(&out);
    let decoded: Value = serde_json::from_str(&ok(&["decode", &f, "--anime", "ANM_walk", "--json"])).unwrap();
    // The writer's chara scene: OBJ_root ← OBJ_hip ← OBJ_leg ← OBJ_prop; ExtObj OBJ_hip_c and
    // OBJ_leg_c carry the controllers; local = T·Rx·Ry·Rz·S (degrees), Z up.
    let local = |obj: &str, i: usize| {
        let s = |c: &str| samples(&decoded, &format!("{obj}.{c}"))[i];
        let r = |c: &str| s(c).to_radians();
        Mat4::from_translation(Vec3::new(s("tx"), s("ty"), s("tz")))
            * Mat4::from_euler(EulerRot::XYZ, r("rx"), r("ry"), r("rz"))
            * Mat4::from_scale(Vec3::new(s("sx"), s("sy"), s("sz")))
    };
    let n = decoded["frame_count"].as_u64().unwrap() as usize;
    assert_eq!(doc.times().len(), n);
    let ids = ["OBJ_root", "OBJ_hip", "OBJ_leg", "OBJ_prop"].map(|b| doc.node_index(b));
    assert_eq!(doc.parent(ids[1]), Some(ids[0]));
    assert_eq!(doc.parent(ids[2]), Some(ids[1]));
    for i in 0..n {
        let hip = local("OBJ_hip_c", i);
        let leg = hip * local("OBJ_leg_c", i);
        assert_close(doc.world(ids[0], i), Mat4::IDENTITY, &format!("frame {i} root"));
        assert_close(doc.world(ids[1], i), z_up_to_gltf(hip), &format!("frame {i} hip"));
        assert_close(doc.world(ids[2], i), z_up_to_gltf(leg), &format!("frame {i} leg"));
        assert_close(doc.world(ids[3], i), z_up_to_gltf(leg), &format!("frame {i} prop"));
    }
    assert!(doc.world(ids[1], n - 1) != Mat4::IDENTITY, "the hip must move");
    // Rotations are unit and sign-continuous from key to key.
    for &j in &ids {
        let r = doc.channel(j, "rotation");
        for (a, b) in r.iter().zip(r.iter().skip(1)) {
            let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
            assert!(dot >= 0.0, "node {j}: quaternion sign flips");
        }
        for q in &r {
            assert!((q.iter().map(|x| x * x).sum::<f64>().sqrt() - 1.0).abs() < 1e-6);
        }
    }
    // Inverse bind matrices are the inverse rest worlds: CCSF's rest is identity.
    let skin = &doc.json["skins"][0];
    for m in doc.accessor(skin["inverseBindMatrices"].as_u64().unwrap() as usize) {
        let m = Mat4::from_cols_array(&std::array::from_fn(|k| m[k] as f32));
        assert_close(m, Mat4::IDENTITY, "inverse bind matrix");
    }
}

#[test]
fn ccsf_skin_weights_and_bind_positions_are_the_stored_entries() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("walk.glb");
    ok(&["export", &fixture("ccsf/chara.cmp"), "--anime", "ANM_walk", "--gltf", "-o", out.to_str().unwrap()]);
    let doc = read_glb(&out);
    let meshes = doc.json["meshes"].as_array().unwrap();
    let skin_mesh = meshes.iter().find(|m| m["name"] == "MDL_body_mmat1_skin").expect("the skin mmat");
    let attrs = &skin_mesh["primitives"][0]["attributes"];
    let at = |k: &str| doc.accessor(attrs[k].as_u64().unwrap() as usize);
    let (pos, joints, weights) = (at("POSITION"), at("JOINTS_0"), at("WEIGHTS_0"));
    let joint_names: Vec<String> = doc.json["skins"][0]["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| doc.json["nodes"][j.as_u64().unwrap() as usize]["name"].as_str().unwrap().to_string())
        .collect();
    // The writer's skin: vertex 0 on slots 1, 2 (0.5 each) at (0,0,32) and (0,0,-32); vertex
    // 1 on slot 1 at (64,0,0); vertex 2 on slots 0, 1, 2 (0.25, 0.25, 0.5) at (0,64,0) twice
    // and (0,64,16). Clump slots 0, 1, 2 are OBJ_root, OBJ_hip, OBJ_leg; units are s16 ·
    // scale/4096 = 1/4; the bind position is the weighted mean (x, z, −y in glTF).
    let want: [(Vec3, &[(&str, f64)]); 3] = [
        (Vec3::ZERO, &[("OBJ_hip", 0.5), ("OBJ_leg", 0.5)]),
        (Vec3::new(16.0, 0.0, 0.0), &[("OBJ_hip", 1.0)]),
        (Vec3::new(0.0, 2.0, -16.0), &[("OBJ_leg", 0.5), ("OBJ_root", 0.25), ("OBJ_hip", 0.25)]),
    ];
    assert_eq!(pos.len(), 3);
    for (v, (p, infl)) in want.iter().enumerate() {
        let got = Vec3::new(pos[v][0] as f32, pos[v][1] as f32, pos[v][2] as f32);
        assert!((got - *p).length() < 1e-5, "vertex {v}: {got} want {p}");
        let sum: f64 = weights[v].iter().sum();
        assert!((sum - 1.0).abs() < 1e-6, "vertex {v}: weights sum to {sum}");
        for (name, w) in infl.iter() {
            let slot = (0..4)
                .find(|&k| joint_names[joints[v][k] as usize] == *name && weights[v][k] > 0.0)
                .unwrap_or_else(|| panic!("vertex {v}: no influence of {name}"));
            assert!((weights[v][slot] - w).abs() < 1e-6, "vertex {v} {name}: {}", weights[v][slot]);
        }
        assert_eq!(weights[v].iter().filter(|w| **w > 0.0).count(), infl.len());
    }
    // Every skinned node is a root of the scene (glTF ignores a skinned node's transform).
    let roots: Vec<u64> =
        doc.json["scenes"][0]["nodes"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    for (i, n) in doc.json["nodes"].as_array().unwrap().iter().enumerate() {
        if n.get("skin").is_some() {
            assert!(roots.contains(&(i as u64)), "skinned node {i} is not a scene root");
        }
    }
}

#[test]
fn frames_cut_the_keys_and_textures_go_inside_a_glb_or_beside_a_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let f = fixture("sc6/flags_none.mot");
    let out = dir.path().join("cut.glb");
    ok(&["export", &f, "--clip", "0", "--frames", "2..5", "--gltf", "-o", out.to_str().unwrap()]);
    let doc = read_glb(&out);
    let t = doc.times();
    assert_eq!(t.len(), 4);
    assert!((t[0] - 2.0 / 60.0).abs() < 1e-6 && (t[3] - 5.0 / 60.0).abs() < 1e-6, "{t:?}");
    assert_eq!(doc.json["asset"]["extras"]["frames"], serde_json::json!([2, 5]));
    // Refused: existing output without --force, stdout, other extensions.
    let (code, _, err) = animscope(&["export", &f, "--clip", "0", "--gltf", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("exists"), "{err}");
    let (code, _, err) = animscope(&["export", &f, "--clip", "0", "--gltf", "-o", "-"]);
    assert_eq!(code, 2, "{err}");
    let bad = dir.path().join("x.json");
    let (code, _, err) = animscope(&["export", &f, "--clip", "0", "--gltf", "-o", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("asks for matrix JSON by its extension, but --gltf was given") && !bad.exists(), "{err}");
    let bad = dir.path().join("x.bin");
    let (code, _, err) = animscope(&["export", &f, "--clip", "0", "--gltf", "-o", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains(".glb or .gltf") && !bad.exists(), "{err}");

    let mini = fixture("ccsf/mini.cmp");
    let glb = dir.path().join("mini.glb");
    ok(&["export", &mini, "--gltf", "-o", glb.to_str().unwrap()]);
    let doc = read_glb(&glb);
    let img = &doc.json["images"][0];
    assert_eq!(img["mimeType"], "image/png");
    let v = &doc.json["bufferViews"][img["bufferView"].as_u64().unwrap() as usize];
    let off = v["byteOffset"].as_u64().unwrap() as usize;
    assert_eq!(&doc.bin[off..off + 8], b"\x89PNG\r\n\x1a\n");
    assert!(doc.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"].is_object());
    // The quad's texture coordinates: v flipped from the OBJ's bottom-up convention.
    let uv_acc = doc.json["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"].as_u64().unwrap() as usize;
    let uv = doc.accessor(uv_acc);
    assert_eq!(uv, vec![vec![0.0, 1.0], vec![1.0, 1.0], vec![0.0, 0.0], vec![1.0, 0.0]]);

    let gltf = dir.path().join("mini.gltf");
    ok(&["export", &mini, "--gltf", "-o", gltf.to_str().unwrap()]);
    let doc = read_gltf(&gltf);
    let uri = doc.json["images"][0]["uri"].as_str().unwrap();
    assert_eq!(&std::fs::read(dir.path().join(uri)).unwrap()[..4], b"\x89PNG");
    assert_eq!(doc.json["buffers"][0]["uri"], "mini.bin");
}

/// An OBJ object: name, vertices in order, `usemtl`.
type ObjObject = (String, Vec<Vec3>, Option<String>);
/// An MTL material: name, `map_Kd`.
type MtlMaterial = (String, Option<String>);

/// OBJ files read back: per `o` object, its vertices in order and its `usemtl`; the MTL's
/// `map_Kd` per material.
fn read_obj(path: &Path) -> (Vec<ObjObject>, Vec<MtlMaterial>) {
    let mut objs: Vec<ObjObject> = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let p: Vec<&str> = line.split_whitespace().collect();
        match p.first() {
            Some(&"o") => objs.push((p[1].to_string(), Vec::new(), None)),
            Some(&"v") => {
                let f = |i: usize| p[i].parse::<f32>().unwrap();
                objs.last_mut().unwrap().1.push(Vec3::new(f(1), f(2), f(3)));
            }
            Some(&"usemtl") => objs.last_mut().unwrap().2 = Some(p[1].to_string()),
            _ => {}
        }
    }
    let mut mtl: Vec<MtlMaterial> = Vec::new();
    for line in std::fs::read_to_string(path.with_extension("mtl")).unwrap().lines() {
        let p: Vec<&str> = line.split_whitespace().collect();
        match p.first() {
            Some(&"newmtl") => mtl.push((p[1].to_string(), None)),
            Some(&"map_Kd") => mtl.last_mut().unwrap().1 = Some(p[1].to_string()),
            _ => {}
        }
    }
    (objs, mtl)
}

/// A later-generation scene with bind poses four deep (as real ones have): the glTF skin,
/// evaluated here by glTF's own rule (`Σ weight · joint_world · inverse_bind · position`,
/// joint worlds composed from the animated TRS up the node tree), puts every vertex of
/// every mesh (rigid, bone and skin) where the OBJ export posed at the same Anime frame
/// puts it, at three frames. With the bind applied twice (identity inverse binds) the
/// rigid meshes under the bound nodes land hundreds of units away.
#[test]
fn ccsf_bind_poses_skin_every_mesh_where_the_posed_obj_puts_it() {
    let dir = tempfile::tempdir().unwrap();
    let rig = fixture("ccsf/g123rig.ccs");
    let glb = dir.path().join("rig.glb");
    // the extension alone asks for glTF
    ok(&["export", &rig, "--anime", "ANM_wave", "-o", glb.to_str().unwrap()]);
    let doc = read_glb(&glb);
    let skin = &doc.json["skins"][0];
    let joints: Vec<usize> = skin["joints"].as_array().unwrap().iter().map(|j| j.as_u64().unwrap() as usize).collect();
    let ibm: Vec<Mat4> = doc
        .accessor(skin["inverseBindMatrices"].as_u64().unwrap() as usize)
        .iter()
        .map(|r| Mat4::from_cols_array(&std::array::from_fn(|i| r[i] as f32)))
        .collect();
    let to_gltf = |p: Vec3| Vec3::new(p.x, p.z, -p.y);
    let mut compared = 0;
    for frame in [0usize, 3, 7] {
        let obj = dir.path().join(format!("rig_{frame}.obj"));
        let fs = frame.to_string();
        ok(&["export", &rig, "--anime", "ANM_wave", "--frame", &fs, "-o", obj.to_str().unwrap(), "--force"]);
        let (posed, _) = read_obj(&obj);
        let worlds: Vec<Mat4> = joints.iter().map(|&n| doc.world(n, frame)).collect();
        for node in doc.json["nodes"].as_array().unwrap().iter().filter(|n| n.get("mesh").is_some()) {
            let name = node["name"].as_str().unwrap();
            let mesh = &doc.json["meshes"][node["mesh"].as_u64().unwrap() as usize];
            let attrs = &mesh["primitives"][0]["attributes"];
            let at = |k: &str| doc.accessor(attrs[k].as_u64().unwrap() as usize);
            let (pos, js, ws) = (at("POSITION"), at("JOINTS_0"), at("WEIGHTS_0"));
            let want = &posed.iter().find(|(o, ..)| o == name).unwrap_or_else(|| panic!("{name} not in the OBJ")).1;
            assert_eq!(pos.len(), want.len(), "{name}");
            for (v, p) in pos.iter().enumerate() {
                let p = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32);
                let mut got = Vec3::ZERO;
                for k in 0..4 {
                    let (j, w) = (js[v][k] as usize, ws[v][k] as f32);
                    got += (worlds[j] * ibm[j]).transform_point3(p) * w;
                }
                let want = to_gltf(want[v]);
                let err = (got - want).length() / want.length().max(1.0);
                assert!(err < 1e-5, "frame {frame} {name} vertex {v}: glTF {got}, posed OBJ {want}");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 3 * 19, "every vertex of the five meshes at three frames");
    // The bind is not identity: frame 0 is not the meshes' stored positions moved by the
    // Anime alone (the test would pass trivially on a scene without binds).
    let hips = doc.node_index("OBJ_hips");
    let rest = ibm[joints.iter().position(|&j| j == hips).unwrap()].inverse();
    assert!(rest.w_axis.truncate().length() > 1000.0, "OBJ_hips binds 1,208 units up: {rest}");
}

/// Two Material chunks named `MAT_cloth` point at different textures: every mesh's glTF
/// material, its OBJ `usemtl` (through the MTL) and the mmat's material field (through the
/// Material chunk it names by object number) name the same texture, and the MTL defines
/// every name once.
#[test]
fn materials_are_matched_by_index_in_the_fields_the_obj_and_the_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let rig = fixture("ccsf/g123rig.ccs");
    let glb = dir.path().join("rig.glb");
    let obj = dir.path().join("rig.obj");
    ok(&["export", &rig, "--anime", "ANM_wave", "-o", glb.to_str().unwrap()]);
    ok(&["export", &rig, "-o", obj.to_str().unwrap()]);
    let doc = read_glb(&glb);
    let (objs, mtl) = read_obj(&obj);
    let mut names: Vec<&String> = mtl.iter().map(|(n, _)| n).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), mtl.len(), "an MTL name defined twice: {mtl:?}");
    // The fields: each mmat's material object number, each Material's texture name.
    let fields = |node: &str| -> Value {
        let (code, out, err) = animscope(&["fields", &rig, node, "--json"]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let field = |v: &Value, name: &str| -> Value {
        v["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("no {name}: {v}"))
            .clone()
    };
    let texture_of_material = |object: u64| -> String {
        let (_, out, _) = animscope(&["tree", &rig, "--json"]);
        let node = out
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|n| n["kind"] == "Material")
            .find(|n| field(&fields(n["path"].as_str().unwrap()), "object")["value"]["raw"].as_u64() == Some(object))
            .unwrap_or_else(|| panic!("no Material {object}"));
        let t = field(&fields(node["path"].as_str().unwrap()), "texture");
        t["value"]["meaning"]["ref"].as_str().unwrap().to_string()
    };
    let mut checked = 0;
    for (o, _, usemtl) in &objs {
        let (model, rest) = o.split_once("_mmat").unwrap();
        let part = rest.split('_').next().unwrap();
        let mmat = fields(&format!("Model[{model}]/mmat[{part}]"));
        let object = field(&mmat, "material")["value"]["raw"].as_u64().unwrap();
        let from_fields = texture_of_material(object);
        let map = mtl.iter().find(|(n, _)| Some(n) == usemtl.as_ref()).unwrap().1.clone().unwrap();
        assert_eq!(map, format!("{from_fields}.png"), "{o}: the MTL and the fields disagree");
        let node = doc.node_index(o);
        let m = &doc.json["meshes"][doc.json["nodes"][node]["mesh"].as_u64().unwrap() as usize];
        let mat = &doc.json["materials"][m["primitives"][0]["material"].as_u64().unwrap() as usize];
        assert_eq!(mat["name"].as_str(), usemtl.as_deref(), "{o}: glTF and OBJ material names");
        let tex =
            &doc.json["textures"][mat["pbrMetallicRoughness"]["baseColorTexture"]["index"].as_u64().unwrap() as usize];
        assert_eq!(tex["name"].as_str(), Some(from_fields.as_str()), "{o}: the glTF and the fields disagree");
        checked += 1;
    }
    assert_eq!(checked, 5);
    // the two MAT_cloth materials are two, with different textures
    let cloth: Vec<_> = mtl.iter().filter(|(n, _)| n.starts_with("MAT_cloth")).collect();
    assert_eq!(cloth.len(), 2);
    assert_ne!(cloth[0].1, cloth[1].1);
}

/// One rule for what an export writes: the flag, else the extension; a contradiction is a
/// usage error; a missing folder is named. (Targets that are not regular files, and
/// multi-file exports onto existing files, are classes of `hostile_gen`, run by
/// `hostile_run::every_hostile_class_ends_as_expected`.)
#[test]
fn the_output_kind_comes_from_the_extension_and_targets_are_checked_first() {
    let dir = tempfile::tempdir().unwrap();
    let rig = fixture("ccsf/g123rig.ccs");
    let p = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    ok(&["export", &rig, "--anime", "ANM_wave", "-o", &p("a.glb")]);
    assert_eq!(&std::fs::read(p("a.glb")).unwrap()[..4], b"glTF");
    ok(&["export", &rig, "-o", &p("a.obj")]);
    assert!(std::fs::read_to_string(p("a.obj")).unwrap().contains("\nv "));
    ok(&["export", &rig, "--anime", "ANM_wave", "-o", &p("a.json")]);
    assert!(std::fs::read_to_string(p("a.json")).unwrap().contains("sc6-armature-matrices-v1"));
    // contradictions
    for (flag, out) in [("--obj", "b.glb"), ("--gltf", "b.obj"), ("--obj", "b.json")] {
        let (code, _, err) = animscope(&["export", &rig, "--anime", "ANM_wave", flag, "-o", &p(out)]);
        assert_eq!(code, 2, "{flag} {out}: {err}");
        assert!(err.contains("by its extension") && err.lines().count() == 1, "{err}");
        assert!(!Path::new(&p(out)).exists());
    }
    // a missing folder: one line naming it
    let missing = dir.path().join("no/such");
    let (code, _, err) =
        animscope(&["export", &rig, "--anime", "ANM_wave", "-o", missing.join("x.glb").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    let named = format!("directory {} does not exist", missing.display());
    assert!(err.contains(&named) && !err.replace(&named, "").contains(".tmp"), "no temp file named: {err}");
}
