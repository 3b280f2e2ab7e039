//! Unit tests of the CCSF format: hand-annotated byte vectors from the spec, evaluation
//! rules, and writer → parser round trips.

use super::*;
use crate::error::ErrorKind;
use glam::Mat3;
use proptest::prelude::*;

fn le32(v: &mut Vec<u8>, x: u32) {
    v.extend(x.to_le_bytes());
}

fn name32(v: &mut Vec<u8>, s: &[u8], n: usize) {
    let mut b = s.to_vec();
    b.resize(n, 0);
    v.extend(b);
}

/// Header (version `version`) + Index with F = 2, O = 3 (docs/formats/ccsf.md#writing-synthetic-files example), by hand.
fn header_and_index(version: u16, objects: &[&[u8]; 2]) -> Vec<u8> {
    let mut v = Vec::new();
    le32(&mut v, 0xcccc_0001); // 0x00 header word: kind 0x0001, tag 0xcccc
    le32(&mut v, 13); // 0x04 size = 12 + count
    v.extend(b"CCSF"); // 0x08 magic
    name32(&mut v, b"hand", 32); // 0x0c name
    v.extend(version.to_le_bytes()); // 0x2c version
    v.extend([0, 0]); // 0x2e pad
    le32(&mut v, 0); // 0x30 frames
    le32(&mut v, 1); // 0x34 count
    le32(&mut v, 0); // 0x38 words[0]
    assert_eq!(v.len(), 0x3c);
    le32(&mut v, 0xcccc_0002); // 0x3c Index header word
    le32(&mut v, 42); // size = 2 + 8 * (2 + 3)
    le32(&mut v, 2); // file_count (blank entry 0 included)
    le32(&mut v, 3); // object_count
    name32(&mut v, b"", 32); // file[0] blank
    name32(&mut v, b" x\\hand.max", 32); // file[1] ' ' = defined here
    name32(&mut v, b"", 30); // object[0] name (blank) ...
    v.extend([0, 0]); // ... and its file index
    for o in objects {
        name32(&mut v, o, 30); // object name, NUL-padded to 30
        v.extend(1u16.to_le_bytes()); // file index 1
    }
    assert_eq!(v.len(), 0xec, "docs/formats/ccsf.md#writing-synthetic-files: the index ends at 0xEC");
    v
}

fn setup_and_end(v: &mut Vec<u8>, body: &[u8]) {
    le32(v, 0x0000_0003); // Setup, tag 0x0000
    le32(v, 0); // size 0
    v.extend(body);
    le32(v, 0xcccc_0005); // Frame
    le32(v, 1); // size 1
    le32(v, 1); // frame_count 1
    le32(v, 0xcccc_ff01); // Top
    le32(v, 1);
    le32(v, 0xffff_ffff); // end -1
}

#[test]
fn strip_vector_from_the_spec() {
    assert_eq!(strip_triangles(&[1, 1, 0, 0, 1, 1, 0]), vec![[1, 0, 2], [1, 2, 3], [5, 4, 6]]);
}

#[test]
fn header_and_index_by_hand() {
    let mut v = header_and_index(0x100, &[b"OBJ_a", b"FBR_\x95\x60\x89\xe6"]);
    setup_and_end(&mut v, &[]);
    let p = parse::parse(&v, &Limits::default()).unwrap();
    assert_eq!(&*p.header.as_ref().unwrap().name, b"hand");
    assert_eq!(
        p.walk.chunks.iter().map(|c| (c.kind, c.off)).collect::<Vec<_>>(),
        vec![(1, 0), (2, 0x3c), (3, 0xec), (5, 0xf4), (0xff01, 0x100)]
    );
    assert!(p.walk.clean(v.len() as u64));
    assert_eq!(p.index.objects_len(), 3);
    // Shift-JIS names are kept as bytes; display escapes them.
    assert_eq!(&*p.index.object(2).unwrap().0, b"FBR_\x95\x60\x89\xe6");
    assert_eq!(p.index.name(1), "OBJ_a");
    assert_eq!(p.index.name(2), "FBR_\\x95`\\x89\\xe6");
    assert_eq!(&*p.index.file(1).unwrap().0, b" x\\hand.max");
}

/// Clut (16 colours) + 4×2 PSMT4 texture with a wrong size field, version 0x100, by hand.
fn texture_file() -> Vec<u8> {
    let mut v = header_and_index(0x100, &[b"CLT_t", b"TEX_t"]);
    let mut body = Vec::new();
    le32(&mut body, 0xcccc_0400); // Clut
    le32(&mut body, 4 + 16 + 1); // size = 4 + count (+1 blt_group)
    le32(&mut body, 1); // clut = object 1
    le32(&mut body, 0); // blt_group (version >= 0x92)
    body.extend([0x01, 0x00, 0x00, 0x00]); // flag 1, cpsm 0, unknown_2, unknown_3
    body.extend([0x00, 0x03, 0x00, 0x03]); // buf_x 768, buf_y 768
    le32(&mut body, 16); // count
    for i in 0..16u32 {
        // colour i = (R = 16 i, G = 255 - i, B = 7, A = 0x80 opaque), A of colour 15 half
        let a = if i == 15 { 0x40 } else { 0x80 };
        body.extend([(16 * i) as u8, (255 - i) as u8, 7, a]);
    }
    le32(&mut body, 0xcccc_0300); // Texture
    le32(&mut body, 0x2039); // size: deliberately wrong (the disc's xasc00 says 0x2039)
    le32(&mut body, 2); // texture = object 2
    le32(&mut body, 1); // clut = object 1
    le32(&mut body, 0); // blt_group
    body.extend([0x00, 0x14, 0x00, 0x70]); // flag 0, psm 0x14 (PSMT4), mipmap 0, aref 0x70
    body.extend([0x02, 0x01, 0xcd, 0xcd]); // tw 2 (4 px), th 1 (2 px), pad cd cd
    body.extend([0x00, 0x03, 0x00, 0x00]); // level 0: buf_x 768, buf_y 0
    le32(&mut body, 1); // count: 1 word = 8 pixels at 4 bpp
    // stored row 0 (bottom): pixels 1,2,3,4; stored row 1 (top): 15,0,0,5 (low nibble first)
    body.extend([0x21, 0x43, 0x0f, 0x50]);
    setup_and_end(&mut v, &body);
    v
}

#[test]
fn texture_decodes_to_known_pixels_and_size_is_distrusted() {
    let v = texture_file();
    let p = parse::parse(&v, &Limits::default()).unwrap();
    let tex = p.walk.chunks.iter().find(|c| c.kind == 0x300).unwrap();
    // 8 header + 12 object words + 8 texture header + 8 level header + 4 pixel bytes
    assert_eq!(tex.end - tex.off, 40);
    assert_eq!(tex.declared_end, tex.off + 8 + 4 * 0x2039);
    assert!(p.walk.clean(v.len() as u64));
    let img = decode_texture(&v, "TEX_t", 0, &Limits::default()).unwrap();
    assert_eq!((img.width, img.height), (4, 2));
    let px = |i: u32| -> [u8; 4] {
        let a = if i == 15 { 0x80 } else { 0xff };
        [(16 * i) as u8, (255 - i) as u8, 7, a]
    };
    // top row first in the image: the stored second row
    let expect: Vec<u8> = [15, 0, 0, 5, 1, 2, 3, 4].iter().flat_map(|i| px(*i)).collect();
    assert_eq!(img.rgba, expect);
}

/// A rigid model with 3 vertices (odd: 2 pad bytes) and every array, by hand.
fn rigid_model_body(mtype: u16) -> Vec<u8> {
    let mut b = Vec::new();
    le32(&mut b, 0xcccc_0800); // Model
    le32(&mut b, 5 + 3 + 5 + 9); // true size in words
    le32(&mut b, 1); // model object
    b.extend(2048.0f32.to_le_bytes()); // vertexScale → unit 0.5
    b.extend(mtype.to_le_bytes()); // mtype
    b.extend(1u16.to_le_bytes()); // mmatNum
    b.extend([0, 0, 0, 0]); // flag, zoffs
    b.extend([0x70, 0, 0, 0]); // unknown 0x70, pad
    le32(&mut b, 0); // mmat name
    le32(&mut b, 0); // material
    le32(&mut b, 3); // vertexNum
    for p in [[2i16, 4, 6], [-2, 0, 0], [0, 8, 0]] {
        for c in p {
            b.extend(c.to_le_bytes()); // s16 positions
        }
    }
    b.extend([0xcd, 0xcd]); // pad to 4
    for f in [1u8, 1, 0] {
        b.extend([0, 0, 64, f]); // normal (0,0,1) + strip flag
    }
    for _ in 0..3 {
        b.extend([0x80, 0x80, 0x80, 0x80]); // colours
    }
    for st in [[0u16, 0], [256, 0], [128, 512]] {
        b.extend(st[0].to_le_bytes()); // S
        b.extend(st[1].to_le_bytes()); // T
    }
    b
}

#[test]
fn rigid_model_by_hand() {
    let mut v = header_and_index(0x100, &[b"MDL_r", b"OBJ_r"]);
    setup_and_end(&mut v, &rigid_model_body(0));
    let p = parse::parse(&v, &Limits::default()).unwrap();
    let c = p.walk.chunks.iter().find(|c| c.kind == 0x800).unwrap();
    assert!(!c.disagrees());
    assert_eq!(c.end - c.off, 8 + 20 + 12 + 18 + 2 + 36);
    let m = mesh::parse_model(&Bytes::new(&v), c.off, 0x100, &Limits::default()).unwrap();
    let ms = mesh::meshes(&m, Some(&p.index)).unwrap();
    assert_eq!(ms[0].positions, vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(-1.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0)]);
    assert_eq!(ms[0].uvs, vec![[0.0, 0.0], [1.0, 0.0], [0.5, 2.0]]);
    assert_eq!(ms[0].normals[0], Vec3::new(0.0, 0.0, 1.0));
    assert_eq!(ms[0].colours[0], [1.0; 4]);
    assert_eq!(ms[0].triangles, vec![[1, 0, 2]]);
}

#[test]
fn mtype_is_masked_below_version_0x100() {
    // 0x0240 stored: in 0x100 files "no normals, no colours" (0x40|0x200); below 0x100 the
    // mask leaves 0x40 only, so the colour array is read.
    let mut body = rigid_model_body(0x240);
    // remove the normals (12 bytes after positions+pad at +8+20+12+20)
    let at = 8 + 20 + 12 + 20;
    body.drain(at..at + 12);
    body[4..8].copy_from_slice(&((5 + 3 + 5 + 6) as u32).to_le_bytes());
    let mut v = header_and_index(0x96, &[b"MDL_r", b"OBJ_r"]);
    setup_and_end(&mut v, &body);
    let p = parse::parse(&v, &Limits::default()).unwrap();
    assert!(p.walk.clean(v.len() as u64), "{:?}", p.walk.lost);
    let c = p.walk.chunks.iter().find(|c| c.kind == 0x800).unwrap();
    let m = mesh::parse_model(&Bytes::new(&v), c.off, 0x96, &Limits::default()).unwrap();
    assert_eq!(m.mtype, 0x40);
    assert_eq!(m.mmats[0].colours.len(), 3);
    // the same bytes read as 0x100 would skip colours and mis-walk
    assert_ne!(walk::model_end(&Bytes::new(&v), c.off, 0x100).ok(), Some(c.end));
}

#[test]
fn skin_model_end_ignores_the_plus_15_size() {
    let f = write::chara();
    let v = write::write(&f);
    let p = parse::parse(&v, &Limits::default()).unwrap();
    let c = p.walk.chunks.iter().find(|c| c.kind == 0x800).unwrap();
    assert_eq!((c.declared_end - c.end) / 4, 30, "two mmats × 15 words");
    assert!(p.walk.clean(v.len() as u64));
}

#[test]
fn walk_errors_name_kind_and_offset() {
    let files: std::collections::HashMap<String, Vec<u8>> = write::bad_files().into_iter().collect();
    let lost = |n: &str| parse::parse(&files[n], &Limits::default()).unwrap().walk.lost.unwrap();
    let mini = write::write(&write::mini());
    let model_at = write::find_kind(&mini, 0x0800).unwrap() as u64;
    let mat_at = write::find_kind(&mini, 0x0200).unwrap() as u64;
    let e = lost("x_truncated.ccs");
    assert_eq!(e.offset, model_at);
    assert!(matches!(e.kind, ErrorKind::OffsetOutOfRange { what: "model end", .. }), "{e}");
    let e = lost("x_size_past_end.ccs");
    assert_eq!(e.offset, mat_at);
    assert!(
        matches!(e.kind, ErrorKind::OffsetOutOfRange { what: "chunk end", offset, .. } if offset == mat_at + 8 + 4 * 0x10_0000),
        "{e}"
    );
    let e = lost("x_count_too_large.ccs");
    assert_eq!(e.offset, model_at + 28 + 12, "the guard is at the first vertex byte");
    assert!(matches!(e.kind, ErrorKind::CountTooLarge { what: "rigid vertex", count: 0x4000_0000, .. }), "{e}");
    let e = lost("x_unknown_kind.ccs");
    assert_eq!(e.offset, mat_at);
    assert!(matches!(e.kind, ErrorKind::BadValue { what: "chunk kind", .. }), "{e}");
    // Cycles are errors of posing/decoding, at the chunk that closes them.
    let d = Ccsf.decode(&files["x_parent_cycle.ccs"], "anime:ANM_c", &DecodeOptions::default(), &Limits::default());
    let e = d.unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Cycle { what: "Obj parent", .. }), "{e}");
    assert_eq!(e.offset, write::find_kind(&files["x_parent_cycle.ccs"], 0x0100).unwrap() as u64);
    let e = Ccsf
        .decode(&files["x_extobj_cycle.ccs"], "anime:ANM_c", &DecodeOptions::default(), &Limits::default())
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Cycle { what: "ExtObj target", .. }), "{e}");
    assert_eq!(e.offset, write::find_kind(&files["x_extobj_cycle.ccs"], 0x0a00).unwrap() as u64);
}

#[test]
fn linear_keys_hold_and_interpolate() {
    let k = [(2u32, 10.0f32), (6, 30.0)];
    assert_eq!(anime::eval_linear(&k, 0), 10.0, "hold the first key before it");
    assert_eq!(anime::eval_linear(&k, 2 * 256), 10.0);
    assert_eq!(anime::eval_linear(&k, 3 * 256), 15.0);
    assert_eq!(anime::eval_linear(&k, 4 * 256 + 128), 22.5);
    assert_eq!(anime::eval_linear(&k, 6 * 256), 30.0);
    assert_eq!(anime::eval_linear(&k, 100 * 256), 30.0, "hold the last key after it");
    // duplicate frame: zero-length segment always passed
    assert_eq!(anime::eval_linear(&[(0, 1.0), (0, 5.0), (4, 9.0)], 2 * 256), 7.0);
    // a key back in time: a ~2^32 segment never passed, so the value stays near the key before
    let back = anime::eval_linear(&[(0, 0.0), (4, 4.0), (2, 100.0)], 4 * 256 + 200);
    assert!((back - 4.0).abs() < 1e-3, "{back}");
    assert_eq!(anime::time_of(9, 5), 4 * 256, "time clamps to (N-1)*256");
    // once holds the last frame; loop restarts at N-1, so a loop is N-1 frames long
    assert_eq!((0..7).map(|f| anime::playback_frame(f, 5, false)).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 4, 4]);
    assert_eq!((0..7).map(|f| anime::playback_frame(f, 5, true)).collect::<Vec<_>>(), vec![0, 1, 2, 3, 0, 1, 2]);
}

#[test]
fn rotation_keys_are_quantised_and_interpolated_by_axis_angle() {
    // 90° → trunc(90 × 182.044) = 16383 units of 1/65536 turn
    let q = 16383.0f32 * std::f32::consts::PI / 32768.0;
    assert!((quantise_deg(90.0) - q).abs() < 1e-6);
    let keys = [(0u32, Vec3::ZERO), (4, Vec3::new(0.0, 0.0, 90.0))];
    let m = anime::eval_rotation(&keys, 256);
    let expect = Mat3::from_rotation_z(q / 4.0);
    assert!(m.abs_diff_eq(expect, 1e-5), "{m:?} vs {expect:?}");
    // composite rotation: halfway is half the relative angle about the relative axis
    let k2 = [(0u32, Vec3::new(10.0, 20.0, 30.0)), (2, Vec3::new(40.0, -20.0, 60.0))];
    let r0 = rot_xyz(Vec3::new(quantise_deg(10.0), quantise_deg(20.0), quantise_deg(30.0)));
    let r1 = rot_xyz(Vec3::new(quantise_deg(40.0), quantise_deg(-20.0), quantise_deg(60.0)));
    let (axis, angle) = glam::Quat::from_mat3(&(r1 * r0.transpose())).to_axis_angle();
    let half = Mat3::from_axis_angle(axis, angle / 2.0) * r0;
    assert!(anime::eval_rotation(&k2, 256).abs_diff_eq(half, 1e-5));
    assert!(anime::eval_rotation(&k2, 512).abs_diff_eq(r1, 1e-5));
}

#[test]
fn controller_record_by_hand() {
    let mut r = Vec::new();
    le32(&mut r, 0xcccc_0102); // object controller
    le32(&mut r, 2 + 1 + 2 * 4 + 3); // size
    le32(&mut r, 7); // object 7
    le32(&mut r, 0o0012); // flags: position k=2 (bits 0-2), rotation k=1 (bits 3-5)
    le32(&mut r, 2); // position: 2 keys
    le32(&mut r, 0); // key 0 frame
    for x in [1.0f32, 2.0, 3.0] {
        r.extend(x.to_le_bytes());
    }
    le32(&mut r, 8); // key 1 frame
    for x in [5.0f32, 2.0, 3.0] {
        r.extend(x.to_le_bytes());
    }
    for x in [0.0f32, 0.0, 45.0] {
        r.extend(x.to_le_bytes()); // constant rotation (degrees, not quantised)
    }
    let rec = anime::SubRecord { off: 0, kind: 0x0102, tag: 0xcccc, size: 14, end: r.len() as u64 };
    let c = anime::parse_ctrl(&Bytes::new(&r), &rec, &Limits::default()).unwrap();
    assert_eq!(c.object, 7);
    assert_eq!(c.fields.iter().map(|f| f.k).collect::<Vec<_>>(), vec![2, 1, 0, 0]);
    let p = anime::eval_object(&c, 2 * 256);
    assert_eq!(p.pos, Vec3::new(2.0, 2.0, 3.0));
    assert!(p.rot.abs_diff_eq(Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4), 1e-6));
    assert_eq!(p.scale, Vec3::ONE);
    // a k = 3 field is rejected
    let mut bad = r.clone();
    bad[12..16].copy_from_slice(&0o0013u32.to_le_bytes());
    assert!(anime::parse_ctrl(&Bytes::new(&bad), &rec, &Limits::default()).is_err());
}

#[test]
fn euler_decomposition_round_trips() {
    for (x, y, z) in [(10.0f32, 20.0, 30.0), (-70.0, 45.0, 170.0), (0.0, -80.0, 5.0)] {
        let m = rot_xyz(Vec3::new(x, y, z) * (std::f32::consts::PI / 180.0));
        let e = euler_xyz_deg(&m);
        assert!((e - Vec3::new(x, y, z)).abs().max_element() < 1e-3, "{e:?}");
    }
}

/// The three ways of walking agree: traced (describe), plain (check, decode) and visiting
/// with only setup chunks kept (survey) see the same chunks, loss and cleanliness, on
/// every fixture and on every prefix of each (walks lost at every kind of place).
#[test]
fn traced_plain_and_visiting_walks_agree() {
    let lim = Limits::default();
    for (name, bytes) in write::fixture_files().into_iter().chain(write::bad_files()) {
        let cuts: Vec<usize> = (0..bytes.len()).step_by(bytes.len() / 97 + 1).chain([bytes.len()]).collect();
        for cut in cuts {
            let data = &bytes[..cut];
            let Ok(traced) = parse::parse_traced(data, &lim) else { continue };
            let plain = parse::parse(data, &lim).unwrap();
            let mut seen = Vec::new();
            let visiting = parse::parse_visiting(data, &lim, |c| seen.push(c.clone())).unwrap();
            let len = data.len() as u64;
            assert_eq!(traced.walk.chunks, plain.walk.chunks, "{name} cut {cut}");
            assert_eq!(seen, plain.walk.chunks, "{name} cut {cut}");
            let setup: Vec<_> = plain.walk.chunks.iter().filter(|c| c.section == Section::Setup).cloned().collect();
            assert_eq!(visiting.walk.chunks, setup, "{name} cut {cut}");
            for w in [&plain.walk, &visiting.walk] {
                assert_eq!(w.clean(len), traced.walk.clean(len), "{name} cut {cut}");
                assert_eq!(w.lost, traced.walk.lost, "{name} cut {cut}");
                assert_eq!(w.walked, plain.walk.chunks.len(), "{name} cut {cut}");
            }
            // untraced walks keep only the step that says where the walk ended early
            assert_eq!(
                plain.walk.steps.last(),
                traced.walk.steps.last().filter(|_| !traced.walk.clean(len)),
                "{name} cut {cut}"
            );
            assert_eq!(
                traced.walk.steps.len(),
                plain.walk.chunks.len() + usize::from(!traced.walk.clean(len)),
                "{name} cut {cut}"
            );
        }
    }
}

#[test]
fn every_fixture_validates_and_walks_clean() {
    for (name, bytes) in write::fixture_files() {
        let doc = Ccsf.describe(&bytes, &name, &Limits::default()).unwrap();
        assert_eq!(doc.validate(), Ok(()), "{name}");
        let p = parse::parse(&bytes, &Limits::default()).unwrap();
        let clean = p.walk.clean(bytes.len() as u64);
        assert_eq!(clean, !name.starts_with("x_") || name.contains("cycle") || name.contains("below"), "{name}");
    }
}

fn vert_strategy() -> impl Strategy<Value = write::Vert> {
    (any::<[i16; 3]>(), any::<[i8; 3]>(), 0u8..2, any::<[u8; 4]>(), any::<[u16; 2]>())
        .prop_map(|(pos, normal, flag, colour, st)| write::Vert { pos, normal, flag, colour, st })
}

proptest! {
    #[test]
    fn rigid_models_round_trip(verts in proptest::collection::vec(vert_strategy(), 0..40), mtype in prop::sample::select(vec![0u16, 1, 0x40, 0x200, 0x400, 0x641]), scale in 1.0f32..8192.0) {
        let mut f = write::mini();
        f.chunks.retain(|c| !matches!(c, write::Chunk::Model(_)));
        f.chunks.insert(1, write::Chunk::Model(write::Model { object: 4, scale, mtype, flag: 0, mmats: vec![write::Mmat::Rigid { name: 0, material: 3, verts: verts.clone() }], size_surplus: 0 }));
        let v = write::write(&f);
        let p = parse::parse(&v, &Limits::default()).unwrap();
        prop_assert!(p.walk.clean(v.len() as u64));
        let c = p.walk.chunks.iter().find(|c| c.kind == 0x800).unwrap();
        prop_assert!(!c.disagrees());
        let m = mesh::parse_model(&Bytes::new(&v), c.off, 0x100, &Limits::default()).unwrap();
        prop_assert_eq!(m.end, c.end);
        let mm = &m.mmats[0];
        prop_assert_eq!(&mm.positions, &verts.iter().map(|x| x.pos).collect::<Vec<_>>());
        prop_assert_eq!(mm.normals.len(), if mtype & 0x40 == 0 { verts.len() } else { 0 });
        prop_assert_eq!(mm.colours.len(), if mtype & 0x200 == 0 { verts.len() } else { 0 });
        prop_assert_eq!(mm.sts.len(), if mtype & 0x400 == 0 { verts.len() } else { 0 });
        let ms = mesh::meshes(&m, Some(&p.index)).unwrap();
        for (a, b) in ms[0].positions.iter().zip(&verts) {
            prop_assert_eq!(a.x, f32::from(b.pos[0]) * scale / 4096.0);
        }
    }

    #[test]
    fn skin_models_round_trip(vs in proptest::collection::vec(proptest::collection::vec((any::<[i16; 3]>(), 0u16..512, 0u8..64), 1..4), 1..20), surplus in 0u32..40) {
        let mut entries = Vec::new();
        for v in &vs {
            for (i, (pos, w, slot)) in v.iter().enumerate() {
                entries.push(write::Entry { pos: *pos, weight: *w, last: i + 1 == v.len(), slot: *slot, normal: [0, 0, 64], flag: 1 });
            }
        }
        let mut f = write::mini();
        f.chunks.retain(|c| !matches!(c, write::Chunk::Model(_)));
        f.chunks.insert(1, write::Chunk::Model(write::Model { object: 4, scale: 4096.0, mtype: 5, flag: 0, mmats: vec![write::Mmat::Skin { material: 3, entries: entries.clone(), sts: vec![[0, 0]; vs.len()] }], size_surplus: surplus }));
        let v = write::write(&f);
        let p = parse::parse(&v, &Limits::default()).unwrap();
        prop_assert!(p.walk.clean(v.len() as u64));
        let c = p.walk.chunks.iter().find(|c| c.kind == 0x800).unwrap();
        prop_assert_eq!((c.declared_end - c.end) / 4, u64::from(surplus));
        let m = mesh::parse_model(&Bytes::new(&v), c.off, 0x100, &Limits::default()).unwrap();
        let ms = mesh::meshes(&m, Some(&p.index)).unwrap();
        prop_assert_eq!(ms[0].influences.len(), vs.len());
        for (inf, src) in ms[0].influences.iter().zip(&vs) {
            prop_assert_eq!(inf.len(), src.len());
            for (a, (_, w, slot)) in inf.iter().zip(src) {
                prop_assert_eq!(a.slot, *slot);
                prop_assert_eq!(a.weight, f32::from(*w) / 256.0);
            }
        }
    }

    #[test]
    fn textures_round_trip(eight in any::<bool>(), tw in 0u8..5, th in 0u8..5, seed in any::<u64>()) {
        let (w, h) = (1usize << tw, 1usize << th);
        let ncol = if eight { 256 } else { 16 };
        let mut rng = crate::test_support::rng(seed);
        let mut next = || rng.next();
        let idx: Vec<u8> = (0..w * h).map(|_| (next() % ncol as u64) as u8).collect();
        let pal: Vec<[u8; 4]> = (0..ncol).map(|_| { let r = next().to_le_bytes(); [r[0], r[1], r[2], r[3] & 0x80] }).collect();
        // stored rows bottom-up, 4-bit: low nibble = left pixel
        let mut stored = Vec::new();
        for row in (0..h).rev() {
            let line = &idx[row * w..row * w + w];
            if eight {
                stored.extend(line);
            } else {
                for pair in line.chunks(2) {
                    stored.push(pair[0] | pair.get(1).copied().unwrap_or(0) << 4);
                }
            }
        }
        // odd 4-bit rows of width 1 pack two rows per byte: only even widths are valid at 4 bpp
        prop_assume!(eight || w >= 2);
        let mut f = write::mini();
        f.chunks.retain(|c| !matches!(c, write::Chunk::Texture { .. } | write::Chunk::Clut { .. }));
        f.chunks.insert(1, write::Chunk::Clut { clut: 1, blt_group: 0, flag: 0, buf: [0, 0], colours: pal.clone() });
        f.chunks.insert(2, write::Chunk::Texture { texture: 2, clut: 1, blt_group: 0, flag: 0, psm: if eight { 0x13 } else { 0x14 }, aref: 0, tw, th, levels: vec![(0, 0, stored)], size_surplus: 7 });
        let v = write::write(&f);
        let img = decode_texture(&v, "TEX_mini", 0, &Limits::default()).unwrap();
        let want: Vec<u8> = idx.iter().flat_map(|i| { let c = pal[*i as usize]; [c[0], c[1], c[2], (u16::from(c[3]) * 2).min(255) as u8] }).collect();
        prop_assert_eq!(img.rgba, want);
    }

    #[test]
    fn keyed_controllers_hit_their_keys(mut keys in proptest::collection::vec((0u32..50, -1000.0f32..1000.0), 2..6)) {
        keys.sort_by_key(|k| k.0);
        keys.dedup_by_key(|k| k.0);
        prop_assume!(keys.len() >= 2);
        let frames = keys.last().unwrap().0 + 1;
        let mut f = write::chara();
        f.chunks.retain(|c| !matches!(c, write::Chunk::Anime { .. }));
        let hipc = f.obj("OBJ_hip_c");
        let at = f.chunks.iter().position(|c| matches!(c, write::Chunk::Frame { .. })).unwrap();
        f.chunks.insert(at, write::Chunk::Anime { object: f.obj("ANM_walk"), frames, records: vec![
            write::Chunk::Top { frame: 0 },
            write::Chunk::ObjCtrl { object: hipc, pos: write::Ctrl::keys3(&keys.iter().map(|(fr, x)| (*fr, [*x, 0.0, 0.0])).collect::<Vec<_>>()), rot: write::Ctrl::Absent, scale: write::Ctrl::Absent, alpha: write::Ctrl::Absent },
            write::Chunk::Top { frame: 0xffff_ffff },
        ]});
        let v = write::write(&f);
        let clip = Ccsf.decode(&v, "anime:ANM_walk", &DecodeOptions::default(), &Limits::default()).unwrap();
        let t = clip.track("OBJ_hip_c.tx").unwrap();
        prop_assert_eq!(t.samples.len(), frames as usize);
        for (fr, x) in &keys {
            prop_assert!((t.samples[*fr as usize] - f64::from(*x)).abs() < 1e-3);
        }
    }
}

#[test]
fn skin_and_shadow_bodies_by_hand() {
    let mut b = Vec::new();
    le32(&mut b, 0xcccc_0800); // Model
    le32(&mut b, 5 + 3 + 4 + 2 + 1 + 15); // size: the true 15 words + the disc's +15 per mmat
    le32(&mut b, 1); // model object
    b.extend(4096.0f32.to_le_bytes()); // vertexScale → unit 1
    b.extend(5u16.to_le_bytes()); // mtype 5: lit, bone/skin layout
    b.extend(1u16.to_le_bytes()); // mmatNum 1
    b.extend([0, 0, 0, 0, 0x70, 0, 0, 0]); // flag, zoffs, unknown 0x70, pad
    le32(&mut b, 0); // material
    le32(&mut b, 1); // vertexNum (1 vertex)
    le32(&mut b, 2); // offsetNum (2 entries) → skin
    for (pos, w) in [([10i16, 0, 0], 0x80u16 | 3 << 10), ([0, 20, 0], 0x80 | 0x200 | 5 << 10)] {
        for c in pos {
            b.extend(c.to_le_bytes()); // entry position
        }
        b.extend(w.to_le_bytes()); // weight 0.5, bit 9 = last, bits 10-15 = slot
    }
    b.extend([0, 0, 64, 0]); // normal of entry 0 (flag byte unused)
    b.extend([0, 64, 0, 1]); // normal of entry 1: its byte 3 is the vertex's strip flag
    b.extend([0, 1, 0, 1]); // one ST per vertex: S = 256, T = 256
    b.extend([0xcc; 60]); // the +15 surplus words the size field claims
    let mut v = header_and_index(0x100, &[b"MDL_s", b"OBJ_s"]);
    let model_at = v.len() as u64 + 8;
    setup_and_end(&mut v, &b);
    // the surplus words are not a chunk: the walker must skip them by content
    let p = parse::parse(&v, &Limits::default()).unwrap();
    let lost = p.walk.lost.unwrap();
    assert_eq!(lost.offset, model_at + 8 + 20 + 12 + 16 + 8 + 4, "walked to the end of the STs");
    let m = mesh::parse_model(&Bytes::new(&v), model_at, 0x100, &Limits::default()).unwrap();
    let ms = mesh::meshes(&m, Some(&p.index)).unwrap();
    assert_eq!(ms[0].kind, MmatKind::Skin);
    let inf = &ms[0].influences[0];
    assert_eq!((inf[0].slot, inf[0].weight, inf[0].position), (3, 0.5, Vec3::new(10.0, 0.0, 0.0)));
    assert_eq!((inf[1].slot, inf[1].weight, inf[1].position), (5, 0.5, Vec3::new(0.0, 20.0, 0.0)));
    assert_eq!(ms[0].flags, vec![1]);
    assert_eq!(ms[0].uvs, vec![[1.0, 1.0]]);

    // shadow: vNum 3, iNum 4 → trunc(4/3) = 1 triangle
    let mut s = Vec::new();
    le32(&mut s, 0xcccc_0800);
    le32(&mut s, 5 + 2 + 5 + 3);
    le32(&mut s, 1);
    s.extend(4096.0f32.to_le_bytes());
    s.extend(8u16.to_le_bytes()); // mtype 8: shadow, no per-mmat header words
    s.extend(1u16.to_le_bytes());
    s.extend([0, 0, 0, 0, 0x70, 0, 0, 0]);
    le32(&mut s, 3); // vNum
    le32(&mut s, 4); // iNum
    for c in [0i16, 0, 0, 1, 0, 0, 0, 1, 0] {
        s.extend(c.to_le_bytes()); // 3 positions
    }
    s.extend([0, 0]); // pad to 4
    for i in [0i32, 1, 2] {
        s.extend(i.to_le_bytes()); // one triangle
    }
    let mut v = header_and_index(0x100, &[b"MDL_s", b"OBJ_s"]);
    setup_and_end(&mut v, &s);
    let p = parse::parse(&v, &Limits::default()).unwrap();
    assert!(p.walk.clean(v.len() as u64), "{:?}", p.walk.lost);
    let c = p.walk.chunks.iter().find(|c| c.kind == 0x800).unwrap();
    let m = mesh::parse_model(&Bytes::new(&v), c.off, 0x100, &Limits::default()).unwrap();
    assert_eq!(mesh::meshes(&m, Some(&p.index)).unwrap()[0].triangles, vec![[0, 1, 2]]);
}

#[test]
fn mip_levels_and_old_texture_headers() {
    // old(0x90): 4×2 PSMT8 level 0 = indices 0..7, level 1 (2×1) = indices 9, 10; colour i = (8i, 0, 0, opaque)
    let v = write::write(&write::old(0x90));
    let l1 = decode_texture(&v, "TEX_old", 1, &Limits::default()).unwrap();
    assert_eq!((l1.width, l1.height), (2, 1));
    assert_eq!(l1.rgba, vec![72, 0, 0, 255, 80, 0, 0, 255]);
    let l0 = decode_texture(&v, "TEX_old", 0, &Limits::default()).unwrap();
    assert_eq!(&l0.rgba[..4], &[32, 0, 0, 255], "top-left = stored second row, first pixel (index 4)");
    // version < 0x90: `flag, psm, pad, pad` and a single level
    let mut t = Vec::new();
    le32(&mut t, 0xcccc_0300); // Texture
    le32(&mut t, 99); // size (ignored)
    le32(&mut t, 2); // texture
    le32(&mut t, 1); // clut (no blt_group below 0x92)
    t.extend([0, 0x14, 0xcd, 0xcd]); // flag, psm, pad
    t.extend([0, 0, 0, 0]); // buf_x, buf_y
    le32(&mut t, 2); // count
    t.extend([0u8; 8]); // pixels
    assert_eq!(walk::texture_end(&Bytes::new(&t), 0, 0x8f).unwrap(), t.len() as u64);
    // read with the 0x90 header the pad byte 0xcd would be a mip count: it does not land
    assert_ne!(walk::texture_end(&Bytes::new(&t), 0, 0x90).ok(), Some(t.len() as u64));
}

/// Word and position arrays: read whole as little-endian values; cut off, the error is the
/// first missing element's read (its offset), as reading them one by one gave.
#[test]
fn vertex_and_palette_arrays_read_whole_or_fail_at_the_first_missing_element() {
    // two words 0x04030201, 0x08070605 at file offset 0x10, then two bytes of a third
    let bytes = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    let b = Bytes::with_base(&bytes, 0x10);
    let (words, span) = model_data::read_u32s(&b, 0x10, 2).unwrap();
    assert_eq!((words, span), (vec![0x0403_0201, 0x0807_0605], crate::model::Span::new(0x10, 0x18)));
    let e = model_data::read_u32s(&b, 0x10, 3).unwrap_err();
    assert_eq!(e.offset, 0x18, "the third word starts at 0x18: {e}");
    assert!(matches!(e.kind, ErrorKind::OutOfBounds { .. }), "{e}");
    // positions: i16 x, y, z; the first is (0x0201, 0x0403, 0x0605); of the second, x
    // (0x16) and y (0x18) are there, z (0x1a) is not
    let (pos, span, pad, end) = model_data::read_positions(&b, 0x10, 1).unwrap();
    assert_eq!(
        (pos, span, pad, end),
        (
            vec![[0x0201, 0x0403, 0x0605]],
            crate::model::Span::new(0x10, 0x16),
            Some(crate::model::Span::new(0x16, 0x18)),
            0x18
        )
    );
    let e = model_data::read_positions(&b, 0x10, 2).unwrap_err();
    assert_eq!(e.offset, 0x1a, "{e}");
}

/// The models the on-demand document's skeleton decoded are kept in the parse and charged
/// to the document's budget: with one byte less than the document and its kept models
/// take, the last model is dropped (decoded again where wanted) and the document itself
/// still fits.
#[test]
fn kept_models_draw_on_the_document_budget() {
    let data = write::write(&write::chara());
    let src = std::sync::Arc::new(crate::source::Source::from_vec("chara.ccs", data.clone()));
    let open = |max_memory: u64| {
        let limits = Limits { max_memory, ..Limits::default() };
        let (doc, p) = describe::describe_lazy(&src, parse::parse(&data, &limits).unwrap(), &limits);
        let kept = p.models.iter().filter(|(_, m)| m.is_ok()).count();
        (doc.retained_bytes(), doc.budget_exceeded(), kept)
    };
    let (all, exceeded, models) = open(Limits::default().max_memory);
    assert!(exceeded.is_none());
    assert!(models >= 2, "chara has {models} models");
    assert_eq!(open(all), (all, None, models), "exactly enough keeps every model");
    let (less, exceeded, kept) = open(all - 1);
    assert!(exceeded.is_none(), "the document itself fits: {exceeded:?}");
    assert_eq!(kept, models - 1, "the last model did not fit");
    assert!(less < all);
}
