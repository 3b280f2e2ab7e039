//! CCSF: golden dumps and walk traces of every fixture, survey totals derived from the
//! writer's inputs, posing checked against matrices computed here by hand, OBJ export,
//! bad inputs, and a never-panic sweep over the scene/export API.

use animscope::cli::dump::document_text;
use animscope::export::obj::obj_files;
use animscope::formats::ccsf::write::{self, Chunk, Mmat};
use animscope::formats::ccsf::{self, Ccsf};
use animscope::formats::{DecodeOptions, gzarc};
use animscope::limits::Limits;
use animscope::model::mesh::{MeshKind, ScenePose, SceneRequest};
use animscope::model::{NodeId, Severity};
use glam::{Mat4, Vec3};
use std::collections::BTreeMap;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ccsf").join(name)).unwrap()
}

#[test]
fn golden_dumps_and_walks_of_every_fixture() {
    for (name, bytes) in write::fixture_files() {
        let doc = crate::support::whole_document(Some(&Ccsf), &name, &bytes, &Limits::default()).unwrap();
        assert_eq!(doc.validate(), Ok(()), "{name}");
        insta::assert_snapshot!(format!("ccsf_dump_{name}"), document_text(&doc, NodeId::ROOT, None, true));
        let walk: String = doc.walk_steps().enumerate().map(|(i, s)| format!("{i:>4}  {s}\n")).collect();
        insta::assert_snapshot!(format!("ccsf_walk_{name}"), walk);
    }
}

fn kind_name(c: &Chunk) -> &'static str {
    match c {
        Chunk::Setup => "Setup",
        Chunk::Obj { .. } => "Obj",
        Chunk::Material { .. } => "Material",
        Chunk::Texture { .. } => "Texture",
        Chunk::Clut { .. } => "Clut",
        Chunk::Camera { .. } => "Camera",
        Chunk::Light { .. } => "Light",
        Chunk::Anime { .. } => "Anime",
        Chunk::Model(_) => "Model",
        Chunk::Clump { .. } => "Clump",
        Chunk::ExtObj { .. } => "ExtObj",
        Chunk::Hit { .. } => "Hit",
        Chunk::Bbox { .. } => "Bbox",
        Chunk::DummyPos { .. } => "DummyPos",
        Chunk::DummyPosRot { .. } => "DummyPosRot",
        Chunk::Layer { .. } => "Layer",
        Chunk::Morpher { .. } => "Morpher",
        Chunk::Obj2 { .. } => "Obj2",
        Chunk::Frame { .. } => "Frame",
        Chunk::Top { .. } => "Top",
        Chunk::FObj { .. } => "F_Obj",
        Chunk::FNote { .. } => "F_Note",
        Chunk::FCamera { .. } => "F_Camera",
        Chunk::FAmbient { .. } => "F_Ambient",
        Chunk::FMorpher { .. } => "F_Morpher",
        Chunk::ObjCtrl { .. } => "ObjCtrl",
        Chunk::MatCtrl { .. } => "MatCtrl",
        Chunk::LightCtrl { kind: 0x0603, .. } => "DistantLightCtrl",
        Chunk::LightCtrl { kind: 0x0605, .. } => "DirectLightCtrl",
        Chunk::LightCtrl { kind: 0x0609, .. } => "OmniLightCtrl",
        Chunk::LightCtrl { .. } => "other",
        Chunk::Obj5 { .. } => "Obj",
        Chunk::ClumpBind { .. } => "Clump",
        Chunk::Material2 { .. } => "Material",
        Chunk::Model2(_) => "Model",
        Chunk::Blob { .. } => "BinaryBlob",
        Chunk::StreamParam { .. } => "StreamOutlineParam",
        Chunk::Dynamics { .. } => "Dynamics",
        Chunk::FObjMasked { .. } => "F_Obj",
        Chunk::MorphCtrl { .. } => "MorphCtrl",
        Chunk::TextureNpot { .. } | Chunk::TextureBtx { .. } => "Texture",
        Chunk::Eff { .. } => "Eff",
        Chunk::ParticleAnm { .. } => "ParticleAnmCtrl",
        Chunk::ParticleGen { .. } => "ParticleGenerator",
        Chunk::Raw { kind, .. } => match kind {
            0x0d00 => "Particle",
            0x0e00 => "Eff",
            0x1000 => "BltGrp",
            0x1100 => "FBRect",
            0x1200 => "FBPage",
            0x1800 => "Shadow",
            0x2200 => "Pcm",
            0x2201 => "F_Pcm",
            0x0201 => "F_Material",
            0x0602 => "F_DistantLight",
            0x0604 => "F_DirectLight",
            0x0606 => "F_SpotLight",
            0x0607 => "SpotLightCtrl",
            0x0608 => "F_OmniLight",
            0x1801 => "F_Shadow",
            _ => "other",
        },
    }
}

#[test]
fn survey_of_a_synthetic_archive_has_exact_totals() {
    let (e1, s1) = write::stream_pair("str0300", 3, 0xffff_ffff);
    let (e2, s2) = write::stream_pair("str0400", 2, 0xffff_fffe);
    let files = vec![write::mini(), write::chara(), write::town(), write::old(0x90), write::old(0x95), e1, s1, e2, s2];
    let members: Vec<(String, Vec<u8>)> = files.iter().map(|f| (format!("{}.cmp", f.name), write::write(f))).collect();
    let archive = gzarc::write::archive(&members);
    // Expected totals from the writer's inputs.
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    let mut add = |k: String, n: u64| *want.entry(k).or_insert(0) += n;
    add("members".into(), files.len() as u64);
    add("members.inflated".into(), files.len() as u64);
    add("members.format.ccsf".into(), files.len() as u64);
    add("ccsf.files".into(), files.len() as u64);
    add("walks_clean".into(), files.len() as u64);
    add("members.inflated_bytes".into(), members.iter().map(|m| m.1.len() as u64).sum());
    add("members.extent_bytes".into(), archive.len() as u64);
    for f in &files {
        add("chunks.Header".into(), 1);
        add("chunks.Index".into(), 1);
        let mut in_frames = false;
        for c in &f.chunks {
            add(format!("chunks.{}", kind_name(c)), 1);
            match c {
                Chunk::Frame { .. } => in_frames = true,
                Chunk::Top { frame } if in_frames => match *frame {
                    0xffff_ffff => add("frame_closes.end".into(), 1),
                    0xffff_fffe => add("frame_closes.end_reset".into(), 1),
                    _ => add("frames".into(), 1),
                },
                Chunk::Texture { size_surplus, .. } => {
                    add("textures".into(), 1);
                    if *size_surplus != 0 {
                        add("size_disagree.Texture".into(), 1);
                    }
                }
                Chunk::Anime { .. } => add("animes".into(), 1),
                Chunk::Model(m) => {
                    add("models".into(), 1);
                    if m.size_surplus != 0 {
                        add("size_disagree.Model".into(), 1);
                    }
                    let lit_no_normals = (if f.version < 0x100 { m.mtype & 0xff } else { m.mtype }) & 0x40 != 0;
                    for mm in &m.mmats {
                        let (kind, verts, tris) = match mm {
                            Mmat::Rigid { verts, .. } => {
                                let flags: Vec<u8> = verts.iter().map(|v| v.flag).collect();
                                let t = if lit_no_normals { 0 } else { ccsf::strip_triangles(&flags).len() };
                                ("rigid", verts.len(), t)
                            }
                            Mmat::Bone { verts, .. } => {
                                let flags: Vec<u8> = verts.iter().map(|v| v.flag).collect();
                                ("bone", verts.len(), ccsf::strip_triangles(&flags).len())
                            }
                            Mmat::Skin { entries, .. } => {
                                let flags: Vec<u8> = entries.iter().filter(|e| e.last).map(|e| e.flag).collect();
                                ("skin", flags.len(), ccsf::strip_triangles(&flags).len())
                            }
                            Mmat::Shadow { positions, triangles, .. } => {
                                ("shadow", positions.len(), if positions.is_empty() { 0 } else { triangles.len() })
                            }
                        };
                        add(format!("mmats.{kind}"), 1);
                        add("vertices".into(), verts as u64);
                        add("triangles".into(), tris as u64);
                    }
                }
                _ => {}
            }
        }
    }
    // the chara skin is posed from its Anime and fits its Bbox
    add("posed_skins".into(), 1);
    add("posed_skins_in_bbox".into(), 1);
    let s = crate::support::survey_bytes(&gzarc::GzArc, &archive, "SYN.BIN", &Limits::default()).unwrap();
    assert_eq!(s.counters, want);
    assert_eq!(s.findings, vec![]);
    assert_eq!(want["frames"], 3 + 2 + 2, "stream pairs and town");
    assert_eq!(want["size_disagree.Model"], 3);
}

#[test]
fn skinned_model_posed_from_an_anime_frame_matches_hand_computed_matrices() {
    // chara: OBJ_root → OBJ_hip → OBJ_leg; clump [root, hip, leg]; ANM_walk drives hip via
    // OBJ_hip_c (pos keys (0,0,10)@0 → (4,0,10)@4, rot z keys 0@0 → 90°@4) and leg via
    // OBJ_leg_c (const pos (0,0,-5), const rot x 30°). Frame 2 = halfway.
    let bytes = fixture("chara.cmp");
    let req = SceneRequest {
        model: Some("MDL_body".into()),
        pose: ScenePose::Animation { name: "ANM_walk".into(), frame: 2 },
    };
    let scene = crate::support::scene_of(&Ccsf, &bytes, &req, &Limits::default()).unwrap();
    let quarter_turn_quantised = 16383.0f32 * std::f32::consts::PI / 32768.0; // trunc(90 × 182.044) units
    let hip = Mat4::from_translation(Vec3::new(2.0, 0.0, 10.0)) * Mat4::from_rotation_z(quarter_turn_quantised / 2.0);
    let leg = hip * Mat4::from_translation(Vec3::new(0.0, 0.0, -5.0)) * Mat4::from_rotation_x(30f32.to_radians());
    let unit = 1024.0 / 4096.0;
    let p = |x: i16, y: i16, z: i16| Vec3::new(f32::from(x), f32::from(y), f32::from(z)) * unit;
    let skin = scene.meshes.iter().find(|m| m.kind == Some(MeshKind::Skin)).unwrap();
    let want = [
        hip.transform_point3(p(0, 0, 32)) * 0.5 + leg.transform_point3(p(0, 0, -32)) * 0.5,
        hip.transform_point3(p(64, 0, 0)),
        Mat4::IDENTITY.transform_point3(p(0, 64, 0)) * 0.25
            + hip.transform_point3(p(0, 64, 0)) * 0.25
            + leg.transform_point3(p(0, 64, 16)) * 0.5,
    ];
    assert_eq!(skin.positions.len(), 3);
    for (got, want) in skin.positions.iter().zip(want) {
        assert!(got.abs_diff_eq(want, 1e-4), "{got} vs {want}");
    }
    // the bone mmat follows clump slot 2 (leg)
    let bone = scene.meshes.iter().find(|m| m.kind == Some(MeshKind::Bone)).unwrap();
    assert!(bone.positions[1].abs_diff_eq(leg.transform_point3(p(64, 0, 0)), 1e-4));
    // the OBJ export carries the same numbers
    let files =
        obj_files(&crate::support::scene_of(&Ccsf, &bytes, &req, &Limits::default()).unwrap(), "chara").unwrap();
    let v: Vec<Vec3> = files
        .obj
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let n: Vec<f32> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            Vec3::new(n[0], n[1], n[2])
        })
        .collect();
    assert!(v[3].abs_diff_eq(want[0], 1e-4), "{:?}", v[3]);
    assert!(files.obj.contains("usemtl MAT_body"));
}

#[test]
fn anime_clip_tracks_and_poses() {
    let bytes = fixture("chara.cmp");
    let clip =
        crate::support::decode_key(&Ccsf, &bytes, "anime:ANM_walk", &DecodeOptions::default(), &Limits::default())
            .unwrap();
    assert_eq!(clip.frame_count, 5);
    let tx = clip.track("OBJ_hip_c.tx").unwrap();
    assert_eq!(tx.samples, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    let rz = clip.track("OBJ_hip_c.rz").unwrap();
    let q = 16383.0f64 * 360.0 / 65536.0;
    assert!((rz.samples[4] - q).abs() < 1e-3 && (rz.samples[2] - q / 2.0).abs() < 1e-3, "{:?}", rz.samples);
    let alpha = clip.track("OBJ_leg_c.alpha").unwrap();
    assert_eq!(alpha.samples, vec![1.0, 1.0, 0.75, 0.5, 0.5], "hold before the first and after the last key");
    // ANM_walk ends with Top -2 (loop): playback restarts at frame N-1 = 4
    let mut opts = DecodeOptions::default();
    opts.extra.insert("frames".into(), "9".into());
    let looped = crate::support::decode_key(&Ccsf, &bytes, "anime:ANM_walk", &opts, &Limits::default()).unwrap();
    assert_eq!(looped.track("OBJ_hip_c.tx").unwrap().samples, vec![0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0, 0.0]);
    let poses = clip.poses.as_ref().unwrap();
    let leg = poses.bones.iter().position(|b| b == "OBJ_leg").unwrap();
    let hip = poses.bones.iter().position(|b| b == "OBJ_hip").unwrap();
    assert_eq!(poses.parents[leg], Some(hip));
    let want = Mat4::from_translation(Vec3::new(0.0, 0.0, 10.0))
        * Mat4::from_translation(Vec3::new(0.0, 0.0, -5.0))
        * Mat4::from_rotation_x(30f32.to_radians());
    assert!(poses.frames[0][leg].abs_diff_eq(want, 1e-5));
}

#[test]
fn stream_frames_decode_and_pose_the_paired_model() {
    let frames = fixture("str0100.tmp");
    let clip =
        crate::support::decode_key(&Ccsf, &frames, "frames", &DecodeOptions::default(), &Limits::default()).unwrap();
    assert_eq!(clip.frame_count, 4);
    assert_eq!(clip.track("OBJ_arm.rz").unwrap().samples, vec![0.0, 0.0, 20.0, 20.0], "last F_Obj holds");
    let model = fixture("str0100e.tmp");
    let req = SceneRequest { model: None, pose: ScenePose::Frame { frame: 3, paired: Some(frames.clone()) } };
    let scene = crate::support::scene_of(&Ccsf, &model, &req, &Limits::default()).unwrap();
    let arm = Mat4::from_translation(Vec3::new(3.0, 0.0, 0.0))
        * Mat4::from_translation(Vec3::new(0.0, 0.0, 1.0))
        * Mat4::from_rotation_z(20f32.to_radians());
    assert!(
        scene.meshes[0].positions[1]
            .abs_diff_eq(arm.transform_point3(Vec3::new(1.0, 0.0, 0.0) / 4096.0 * 4096.0), 1e-4)
    );
}

#[test]
fn mini_texture_exports_as_png() {
    let bytes = fixture("mini.cmp");
    let scene = crate::support::scene_of(&Ccsf, &bytes, &SceneRequest::default(), &Limits::default()).unwrap();
    let files = obj_files(&scene, "mini").unwrap();
    assert_eq!(files.pngs.len(), 1);
    assert!(files.mtl.contains("map_Kd TEX_mini.png"));
    let png = &files.pngs[0].1;
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: 4 × 4, 8-bit RGBA
    assert_eq!(&png[16..26], &[0, 0, 0, 4, 0, 0, 0, 4, 8, 6]);
    // pixels: stored bottom row bytes 0x21 0x03 → indices 1,2,3,0; the image's last row
    let img = &scene.images[0].1;
    assert_eq!(&img.rgba[48..64], &[255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 128, 0, 0, 0, 255]);
    assert_eq!(files.obj.matches("\nf ").count(), 2);
}

#[test]
fn bad_inputs_report_kind_and_offset() {
    let mini = write::write(&write::mini());
    let model_at = write::find_kind(&mini, 0x0800).unwrap() as u64;
    let mat_at = write::find_kind(&mini, 0x0200).unwrap() as u64;
    let cases: [(&str, u64, &str); 4] = [
        ("x_truncated.ccs", model_at, "model end offset"),
        ("x_size_past_end.ccs", mat_at, "chunk end offset"),
        ("x_count_too_large.ccs", model_at + 40, "rigid vertex count 1073741824 exceeds"),
        ("x_unknown_kind.ccs", mat_at, "chunk kind is 0x0f00"),
    ];
    for (name, off, msg) in cases {
        let bytes = fixture(name);
        let doc = crate::support::whole_document(Some(&Ccsf), name, &bytes, &Limits::default()).unwrap();
        assert_eq!(doc.validate(), Ok(()), "{name}");
        let d = doc.diagnostics.iter().find(|d| d.severity == Severity::Error).unwrap();
        assert_eq!(d.offset, Some(off), "{name}: {d}");
        assert!(d.message.contains(msg), "{name}: {d}");
        // everything before the loss is still there
        assert!(doc.find_path("Header").is_some() && doc.find_path("Clut").is_some(), "{name}");
        assert!(doc.find_path("unwalked").is_some(), "{name}");
        let findings = crate::support::check_bytes(&Ccsf, &bytes, name, &Limits::default()).unwrap();
        assert!(findings.iter().any(|f| f.offset == Some(off)), "{name}: {findings:?}");
    }
    for (name, what) in [("x_parent_cycle.ccs", "Obj parent"), ("x_extobj_cycle.ccs", "ExtObj target")] {
        let findings = crate::support::check_bytes(&Ccsf, &fixture(name), name, &Limits::default()).unwrap();
        assert!(
            findings.iter().any(|f| f.message.contains(what) && f.message.contains("chain loops")),
            "{name}: {findings:?}"
        );
    }
}

#[test]
fn versions_outside_the_known_bands_are_said_plainly() {
    // above .hack//Infection but below the gen-2 addendum: gen-1 rules with a warning
    let mut f = write::mini();
    f.version = 0x105;
    let doc =
        crate::support::whole_document(Some(&Ccsf), "between.ccs", &write::write(&f), &Limits::default()).unwrap();
    assert!(doc.diagnostics.iter().any(|d| d.severity == Severity::Warning && d.offset == Some(0x2c)));
    // above the highest version the addendum describes (0x131): band B7's rules, a warning
    let mut g = write::scene_123(0);
    g.version = 0x140;
    let doc = crate::support::whole_document(Some(&Ccsf), "later.ccs", &write::write(&g), &Limits::default()).unwrap();
    let w: Vec<_> = doc.diagnostics.iter().filter(|d| d.severity == Severity::Warning).collect();
    assert!(w.iter().any(|d| d.offset == Some(0x2c) && d.message.contains("B7")), "{w:?}");
    // the public sample's version: no warning, the generation in the summary
    let doc =
        crate::support::whole_document(Some(&Ccsf), "g123.ccs", &fixture("g123.ccs"), &Limits::default()).unwrap();
    assert!(doc.diagnostics.iter().all(|d| d.severity < Severity::Warning), "{:?}", doc.diagnostics);
    assert!(doc.root().summary.contains("gen 2 band B4"), "{}", doc.root().summary);
    // below every band: an error-level finding at the version word
    let doc =
        crate::support::whole_document(Some(&Ccsf), "x.ccs", &fixture("x_version_below_0x90.ccs"), &Limits::default())
            .unwrap();
    assert!(doc.diagnostics.iter().any(|d| d.severity == Severity::Error && d.offset == Some(0x2c)));
}

#[test]
fn scene_api_never_panics_on_mutations() {
    let (_, frames) = write::stream_pair("s", 2, 0xffff_ffff);
    let frames = write::write(&frames);
    let (mut inputs, mut scenes) = (0, 0);
    for name in ["chara.cmp", "mini.cmp", "str0100e.tmp"] {
        let bytes = fixture(name);
        let mutants = crate::sweep::byte_mutations(&bytes, 0x2545_f491_4f6c_dd1d, 1200)
            .chain(crate::sweep::truncations(&bytes, 300));
        for crate::sweep::Mutant { bytes: m, .. } in mutants {
            inputs += 1;
            for pose in [
                ScenePose::Rest,
                ScenePose::Animation { name: "ANM_walk".into(), frame: 3 },
                ScenePose::Frame { frame: 1, paired: Some(frames.clone()) },
            ] {
                if let Ok(s) =
                    crate::support::scene_of(&Ccsf, &m, &SceneRequest { model: None, pose }, &Limits::default())
                {
                    scenes += 1;
                    let _ = obj_files(&s, "x");
                }
            }
            let _ = crate::support::check_bytes(&Ccsf, &m, name, &Limits::default());
            let _ = crate::support::survey_bytes(&Ccsf, &m, name, &Limits::default());
        }
    }
    eprintln!("ccsf scene sweep: {inputs} inputs, {scenes} scenes built (3 poses each)");
    // most mutants still build scenes (measured 7,431 from 4,724 mutants over 3 poses); a
    // sweep where nothing builds proves nothing
    assert!(inputs >= 4000 && scenes >= inputs, "{scenes} scenes from {inputs} mutants");
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = assert_cmd::Command::cargo_bin("animscope")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn cli_verbs_on_the_fixtures() {
    let (code, out, _) = run(&["tree", "fixtures/gzarc/DATA.BIN", "chara.cmp/Model[MDL_body]", "--fields"]);
    assert_eq!(code, 0);
    assert!(out.contains("mmat[1]  skin mmat") && out.contains("size field distrusted"), "{out}");
    let (code, out, _) = run(&["walk", "fixtures/ccsf/mini.cmp"]);
    assert_eq!(code, 0);
    assert!(out.contains("texture sizes are distrusted"), "{out}");
    let (code, _, _) = run(&["walk", "fixtures/ccsf/x_unknown_kind.ccs"]);
    assert_eq!(code, 1, "a lost walk is a finding");
    let (code, out, _) = run(&["decode", "fixtures/ccsf/chara.cmp", "--anime", "ANM_walk", "--json"]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["frame_count"], 5);
    let (code, out, _) = run(&["decode", "fixtures/gzarc/STR.BIN", "str0200.tmp"]);
    assert_eq!(code, 0, "the member's root carries the frame section");
    assert!(out.starts_with("frame section  2 frames"), "{out}");
    let (code, out, _) = run(&["survey", "fixtures/gzarc/DATA.BIN", "fixtures/gzarc/STR.BIN", "--json"]);
    assert_eq!(code, 0, "{out}");
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["counters"]["members"], 4);
    assert_eq!(last["counters"]["walks_clean"], 4);
    let (code, _, _) = run(&["survey", "fixtures/gzarc/x_corrupt_member.BIN"]);
    assert_eq!(code, 1);
    let (code, out, _) =
        run(&["check", "fixtures/ccsf/chara.cmp", "fixtures/ccsf/town.cmp", "fixtures/ccsf/str0100.tmp"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = run(&["check", "fixtures/ccsf/x_parent_cycle.ccs"]);
    assert_eq!(code, 1, "{out}");
    let d = tempfile::tempdir().unwrap();
    let obj = d.path().join("chara.obj");
    let (code, _, err) = run(&[
        "export",
        "fixtures/ccsf/chara.cmp",
        "--obj",
        "--anime",
        "ANM_walk",
        "--frame",
        "2",
        "-o",
        obj.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&obj).unwrap().contains("# posed at frame 2 of ANM_walk"));
    assert!(d.path().join("chara.mtl").exists());
    let obj = d.path().join("mini.obj");
    let (code, _, err) = run(&["export", "fixtures/gzarc/DATA.BIN", "mini.cmp", "--obj", "-o", obj.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(d.path().join("TEX_mini.png").exists());
}

/// Documents on demand (the twin of the MOTN test): a CCSF file opened through the seam is
/// a skeleton of one node per chunk and frame; the streaming dump (each chunk built when
/// reached, dropped once printed) is byte-identical to the dump of the whole document, and
/// so are the findings and the walk; every offset finds the same node path and field.
#[test]
fn lazy_documents_dump_exactly_like_whole_ones() {
    use animscope::cli::dump::write_document_text;
    use animscope::formats;
    use animscope::model::Document;
    use animscope::source::Source;
    use std::sync::Arc;
    let lim = Limits::default();
    let walk_text = |d: &Document| d.walk_steps().map(|s| format!("{s}\n")).collect::<String>();
    let (mut files, mut lazy_nodes) = (0, 0);
    for (name, data) in write::fixture_files().into_iter().chain(write::bad_files()) {
        let Ok(whole) = crate::support::whole_document(Some(&Ccsf), &name, &data, &lim) else { continue };
        let parsed = formats::open(Arc::new(Source::from_vec(name.clone(), data)), None, &lim).expect("opens");
        assert_eq!(parsed.format().id(), "ccsf", "{name}");
        files += 1;
        let mut doc = parsed.document().clone();
        let skeleton = doc.node_count();
        lazy_nodes += doc.pending_count();
        assert!(doc.field_count() < whole.field_count(), "{name}: the skeleton builds no chunk's fields");
        assert_eq!(doc.diagnostics, whole.diagnostics, "{name}");
        assert_eq!(walk_text(&doc), walk_text(&whole), "{name}");
        let mut out = Vec::new();
        write_document_text(&mut doc, NodeId::ROOT, None, true, &mut out).expect("writes");
        assert_eq!(String::from_utf8(out).expect("utf-8"), document_text(&whole, NodeId::ROOT, None, true), "{name}");
        assert_eq!(doc.node_count(), skeleton, "{name}: streaming keeps nothing it printed");
        doc.expand_all();
        assert_eq!((doc.node_count(), doc.field_count()), (whole.node_count(), whole.field_count()), "{name}");
        assert_eq!(doc.validate(), Ok(()), "{name}");
        let mut skel = parsed.document().clone();
        for off in 0..whole.len {
            let got = skel.expand_to(off).map(|n| skel.path(n));
            assert_eq!(got, whole.node_at(off).map(|n| whole.path(n)), "{name} @0x{off:x}");
            let f =
                |d: &Document| d.field_at(off).and_then(|(n, i)| Some((d.path(n), d.node(n)?.fields.get(i)?.clone())));
            assert_eq!(f(&skel), f(&whole), "{name} @0x{off:x}");
        }
        // one offset builds only the chunk that holds it
        let mut one = parsed.document().clone();
        let before = one.pending_count();
        one.expand_to(whole.len / 2);
        assert!(one.pending_count() + 1 >= before, "{name}: one lookup expands at most one chunk");
    }
    assert!(files >= 10, "every CCSF fixture is checked ({files})");
    assert!(lazy_nodes >= 100, "the fixtures exercise lazy nodes ({lazy_nodes})");
}

/// Vertices and triangles of the later-generation fixtures, counted from how
/// `gen2_fixtures.rs` builds them (strip `1 1 0 0` = 2 triangles, `2 2 0 0 0` = 3,
/// `1 1 0` / `2 2 0` = 1, shadow indices / 3), not from the decoder.
#[test]
fn later_generation_fixtures_export_survey_and_check() {
    let lim = Limits::default();
    // g123: prop quad 4/2 + zigzag 5/3, flat 3/1, skin bone 3/1 + skin 4/2, lit bone 3/1,
    // shadow 0/0 + 4/2, empty model: no mesh
    // g125: quad with tangents 4/2, bone 3/1, skin 3/1 (one vertex of two entries)
    // g123t: one triangle-list quad, 4 position records / 6 indices = 2 triangles
    // g125n: three rigid quads 12/6, one on each of a non-power-of-two, a DXT1 and a DXT5
    // texture: 3 images
    // g115 / g115s: g123's meshes at band B2 (4-word Obj and Material), with and without the
    // skin model's lookup list
    for (name, meshes, verts, tris, textures) in [
        ("g123.ccs", 8, 26, 12, 2),
        ("g125.ccs", 3, 10, 4, 1),
        ("g123t.ccs", 1, 4, 2, 0),
        ("g125n.ccs", 3, 12, 6, 3),
        ("g115.ccs", 8, 26, 12, 2),
        ("g115s.ccs", 8, 26, 12, 2),
    ] {
        let bytes = fixture(name);
        let scene = crate::support::scene_of(&Ccsf, &bytes, &SceneRequest::default(), &lim).unwrap();
        assert_eq!(scene.meshes.len(), meshes, "{name}");
        assert_eq!(scene.meshes.iter().map(|m| m.positions.len()).sum::<usize>(), verts, "{name}");
        assert_eq!(scene.meshes.iter().map(|m| m.triangles.len()).sum::<usize>(), tris, "{name}");
        assert_eq!(scene.images.len(), textures, "{name}");
        let files = obj_files(&scene, "out").unwrap();
        assert_eq!(files.obj.lines().filter(|l| l.starts_with("v ")).count(), verts, "{name}");
        assert_eq!(files.obj.lines().filter(|l| l.starts_with("f ")).count(), tris, "{name}");
        let s = crate::support::survey_bytes(&Ccsf, &bytes, name, &lim).unwrap();
        let n = |k: &str| s.counters.get(k).copied().unwrap_or(0);
        assert_eq!((n("walks_clean"), n("vertices"), n("triangles")), (1, verts as u64, tris as u64), "{name}");
        assert!(s.findings.is_empty(), "{name}: {:?}", s.findings);
    }
    // g125n's images, by how the writer built them: TEX_npot 3×2 through the Clut example palette (docs/formats/ccsf-gen2.md#texture-0x0300-btx-and-non-power-of-two)
    // (stored bottom row 0 1 0 → the image's last row), TEX_dxt1 8×4 (block 0: top row
    // blue, the rest red; block 1 transparent black), TEX_dxt5 4×4 (green, texel 0 alpha 0)
    let scene = crate::support::scene_of(&Ccsf, &fixture("g125n.ccs"), &SceneRequest::default(), &lim).unwrap();
    let image = |n: &str| &scene.images.iter().find(|(name, _)| name == n).unwrap().1;
    let (c0, c1) = ([0x80, 0x20, 0x10, 255], [0x10, 0x80, 0x20, 255]);
    let npot = image("TEX_npot");
    assert_eq!((npot.width, npot.height, npot.rgba.clone()), (3, 2, [c1, c0, c1, c0, c1, c0].concat()));
    let dxt1 = image("TEX_dxt1");
    assert_eq!((dxt1.width, dxt1.height), (8, 4));
    assert_eq!(
        (&dxt1.rgba[..4], &dxt1.rgba[32..36], &dxt1.rgba[16..20]),
        (&[0u8, 0, 255, 255][..], &[255u8, 0, 0, 255][..], &[0u8, 0, 0, 0][..])
    );
    let dxt5 = image("TEX_dxt5");
    assert_eq!((&dxt5.rgba[..4], &dxt5.rgba[4..8]), (&[0u8, 255, 0, 0][..], &[0u8, 255, 0, 255][..]));
    let files = obj_files(&scene, "out").unwrap();
    assert_eq!(files.pngs.len(), 3);
    // the bind pose poses the rest scene: g123's bone mmat (slot 1 → lookup[1] = node 2)
    // follows OBJ_hand, which stands at T(10,0,0)·Rz(90°)·T(0,5,0) → origin (5, 0, 0)
    let scene = crate::support::scene_of(&Ccsf, &fixture("g123.ccs"), &SceneRequest::default(), &lim).unwrap();
    let bone = scene.meshes.iter().find(|m| m.model == "MDL_skin" && m.part == 0).unwrap();
    assert!(bone.positions[0].abs_diff_eq(Vec3::new(5.0, 0.0, 0.0), 1e-5), "{:?}", bone.positions[0]);
    // band B2: with the lookup list (AH) slot 1 is node 2 as in g123; without it (SC's
    // reading, the count byte 0x70 ignored) slot 1 is clump node 1, OBJ_arm at
    // T(10,0,0)·Rz(90°) → origin (10, 0, 0)
    for (name, at) in [("g115.ccs", Vec3::new(5.0, 0.0, 0.0)), ("g115s.ccs", Vec3::new(10.0, 0.0, 0.0))] {
        let scene = crate::support::scene_of(&Ccsf, &fixture(name), &SceneRequest::default(), &lim).unwrap();
        let bone = scene.meshes.iter().find(|m| m.model == "MDL_skin" && m.part == 0).unwrap();
        assert!(bone.positions[0].abs_diff_eq(at, 1e-5), "{name}: {:?}", bone.positions[0]);
    }
    let doc = crate::support::whole_document(Some(&Ccsf), "g115s.ccs", &fixture("g115s.ccs"), &lim).unwrap();
    let skin = doc.find_path("g115s.ccs/Model[MDL_skin]").unwrap();
    assert!(doc.node(skin).unwrap().summary.ends_with("header read without lookup list"));
    for (name, bytes) in write::gen2_files() {
        let findings = crate::support::check_bytes(&Ccsf, &bytes, &name, &lim).unwrap();
        assert!(findings.iter().all(|f| f.severity < Severity::Warning), "{name}: {findings:?}");
    }
    // the gen-2 failures: where and why
    let doc = crate::support::whole_document(Some(&Ccsf), "x", &fixture("x_gen2_blob_past_end.ccs"), &lim).unwrap();
    let lost: Vec<_> = doc.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    assert!(lost.iter().any(|d| d.offset == Some(0x944) && d.message.contains("chunk end")), "{lost:?}");
    let doc = crate::support::whole_document(Some(&Ccsf), "x", &fixture("x_gen2_model_truncated.ccs"), &lim).unwrap();
    assert!(doc.root().summary.ends_with("walk lost"), "{}", doc.root().summary);
}

/// A scene's meshes and textures are held together until an export is written, so they are
/// charged to one memory budget (issue 51, class 6): 20 models with a 64 × 64 texture each
/// decode to 16,384 pixel bytes a texture. Under a 128 KiB budget at most 8 textures could
/// fit with nothing else held; with the meshes held too, at most 7: every texture past
/// the budget is left out of the scene with a note naming the budget (the meshes stay).
/// 1 MiB holds them all.
#[test]
fn a_scene_of_many_textured_models_is_charged_to_the_memory_budget() {
    let bytes = crate::hostile_gen::ccsf_textured_models(20, 6);
    let small = Limits { max_memory: 128 << 10, ..Limits::default() };
    let scene = crate::support::scene_of(&Ccsf, &bytes, &SceneRequest::default(), &small).unwrap();
    let kept = scene.images.len();
    assert!((1..=7).contains(&kept), "{kept} textures kept under 128 KiB");
    assert_eq!(scene.meshes.len(), 20);
    let left_out = scene
        .notes
        .iter()
        .filter(|n| {
            n.contains("not decoded") && n.contains("the scene's meshes and textures") && n.contains("--limit memory=")
        })
        .count();
    assert_eq!(left_out, 20 - kept, "{:?}", scene.notes);
    let enough = Limits { max_memory: 1 << 20, ..Limits::default() };
    let scene = crate::support::scene_of(&Ccsf, &bytes, &SceneRequest::default(), &enough).unwrap();
    assert_eq!((scene.meshes.len(), scene.images.len()), (20, 20));
    assert!(scene.images.iter().all(|(_, i)| (i.width, i.height, i.rgba.len()) == (64, 64, 64 * 64 * 4)));
}

/// The same charge stops the scene when its meshes do not fit: 200 models of 4 vertices,
/// each with a position, normal, texture coordinate and colour (12 + 12 + 8 + 16 bytes as
/// f32s), hold at least 200 × 4 × 48 = 38,400 bytes, past a 16 KiB budget: the scene's
/// error (the document opened under the default budget); 1 MiB holds them.
#[test]
fn a_scene_whose_meshes_pass_the_budget_is_refused() {
    let bytes = crate::hostile_gen::r4_ccsf_many_textures(200);
    // the document is opened under the default budget; the scene is built under each
    let p = crate::support::parsed(Some(&Ccsf), "many.ccs", bytes, &Limits::default()).unwrap();
    let small = Limits { max_memory: 16 << 10, ..Limits::default() };
    let e = p.require_meshes().unwrap().scene(&SceneRequest::default(), &small).unwrap_err().to_string();
    assert!(e.contains("the scene's meshes and textures") && e.contains("--limit memory="), "{e}");
    let enough = Limits { max_memory: 1 << 20, ..Limits::default() };
    let scene = p.require_meshes().unwrap().scene(&SceneRequest::default(), &enough).unwrap();
    assert_eq!((scene.meshes.len(), scene.images.len()), (200, 200));
}
