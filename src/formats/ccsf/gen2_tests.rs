//! The gen-2 decoders' inner values, which the document, clips, images and scenes do not
//! show: model ends, skin influences (slot, weight, position), masked F_Obj values, the
//! clump bind pose's worlds, texture levels, and the strict check with kept decodes. The
//! addendum's hand-typed vectors (docs/formats/ccsf-gen2.md) are checked against the document
//! and the writer in `tests/integration/vectors/ccsf_gen2.rs`, which also shows the writer
//! builds exactly their bytes from the records used here.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, clippy::expect_used)]

use super::write::{self, CcsFile, Chunk, Entry2, Mmat2, Model2, Vert2};
use super::{MmatKind, anime, band, mesh, parse, pose};
use crate::bytes::Bytes;
use crate::limits::Limits;
use crate::model::Severity;
use glam::Vec3;

/// A v`version` file: Setup, `chunks`, then Frame(1) and Top -1; objects 1..=12 exist.
fn file(version: u16, chunks: Vec<Chunk>) -> Vec<u8> {
    let mut all = vec![Chunk::Setup];
    all.extend(chunks);
    all.extend([Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0xffff_ffff }]);
    write::write(&CcsFile {
        name: "vec".into(),
        version,
        frames: 0,
        files: vec![(b' ', "x\\vec.max".into())],
        objects: (1..=12).map(|i| (format!("o{i}"), 1)).collect(),
        chunks: all,
    })
}

/// The offset of the first chunk of `kind` in `bytes`, and the walk.
fn chunk_at(bytes: &[u8], kind: u16) -> (u64, parse::Parsed) {
    let p = parse::parse(bytes, &Limits::default()).unwrap();
    let at = p.walk.chunks.iter().find(|c| c.kind == kind).unwrap().off;
    (at, p)
}

fn v2(pos: [i16; 3], flag: u8, uv: [i32; 2]) -> Vert2 {
    Vert2 { pos, normal: [0, 0, 64], flag, colour: [0x80; 4], uv, tangent: 0, binormal: 0 }
}

/// The addendum's v0x123 deformable model (docs/formats/ccsf-gen2.md#mmats: lookup list
/// [0, 2, 1], a bone mmat on lookup index 1, a skin mmat of three entries).
fn deformable() -> Model2 {
    let e = |pos, weight, last, slot| Entry2 { pos, weight, last, slot, normal: [0, 0, 64], flag: 1 };
    Model2 {
        object: 12,
        scale: 256.0,
        mtype: 4,
        mflags: 0,
        flag: [0, 0x10],
        tbn: false,
        outline: Some(([0; 4], 1.0)),
        lookup: Some(vec![0, 2, 1]),
        mmats: vec![
            Mmat2::Bone {
                material: 5,
                node: 1,
                verts: vec![v2([0, 0, 0], 2, [0, 0]), v2([0, 256, 0], 2, [256, 0]), v2([256, 0, 0], 0, [0, 256])],
            },
            Mmat2::Skin {
                material: 5,
                entries: vec![e([0, 0, 0], 256, true, 0), e([100, 0, 0], 128, false, 1), e([-100, 0, 0], 128, true, 2)],
                uvs: vec![[0, 0], [256, 0]],
            },
        ],
        size_surplus: 0,
    }
}

#[test]
fn deformable_model_slots_and_influences() {
    for version in [0x115, 0x123] {
        let bytes = file(version, vec![Chunk::Model2(deformable())]);
        let (at, p) = chunk_at(&bytes, 0x0800);
        let m = mesh::parse_model(&Bytes::new(&bytes), at, version, &Limits::default()).unwrap();
        assert_eq!(m.end, at + 0x9c, "decode ends at the declared end");
        assert_eq!(m.gen2.as_ref().unwrap().lookup, [0, 2, 1]);
        let ms = mesh::meshes(&m, Some(&p.index)).unwrap();
        let (bone, skin) = (&ms[0], &ms[1]);
        assert_eq!((bone.kind, bone.bone_slot), (MmatKind::Bone, Some(2)), "lookup[1] = node 2");
        assert_eq!(skin.kind, MmatKind::Skin);
        assert_eq!(skin.influences.len(), 2, "the entries' closing bits make vertexNum vertices");
        let inf0 = &skin.influences[0];
        assert_eq!((inf0.len(), inf0[0].slot, inf0[0].weight), (1, 0, 1.0));
        // weights /256; entry slots through the lookup list: 1 → node 2, 2 → node 1
        let inf1 = &skin.influences[1];
        let unit = 256.0 / 4096.0;
        assert_eq!(inf1.iter().map(|i| (i.slot, i.weight)).collect::<Vec<_>>(), [(2, 0.5), (1, 0.5)]);
        assert_eq!(inf1[0].position, Vec3::new(100.0 * unit, 0.0, 0.0));
        assert_eq!(inf1[1].position, Vec3::new(-100.0 * unit, 0.0, 0.0));
    }
}

#[test]
fn band_b2_without_its_lookup_list_names_slots_directly() {
    // StudioCCS's B2 reading (docs/formats/ccsf-gen2.md#where-the-readers-disagree): no list,
    // lookupCount holding 0x70, size one word less
    let mut bytes = file(0x115, vec![Chunk::Model2(deformable())]);
    let (at, _) = chunk_at(&bytes, 0x0800);
    let at = at as usize;
    bytes[at + 4] = 0x24;
    bytes[at + 0x18] = 0x70;
    bytes.drain(at + 0x24..at + 0x28);
    let (at, p) = chunk_at(&bytes, 0x0800);
    let m = mesh::parse_model(&Bytes::new(&bytes), at, 0x115, &Limits::default()).unwrap();
    assert_eq!(m.end, at + 0x98, "decode ends at the declared end");
    let g = m.gen2.as_ref().unwrap();
    assert!(g.lookup.is_empty() && g.variant == "without lookup list", "{:?} {}", g.lookup, g.variant);
    assert_eq!(mesh::meshes(&m, Some(&p.index)).unwrap()[0].bone_slot, Some(1), "slot 1 names clump node 1");
}

#[test]
fn version_0x125_skin_entries_weigh_by_their_own_byte() {
    // docs/formats/ccsf-gen2.md#mmats: v0x125 entries (10, 0, 0) and (-10, 0, 0), weight 128 each
    let e = |pos, last, slot| Entry2 { pos, weight: 128, last, slot, normal: [0, 0, 64], flag: 1 };
    let model = Model2 {
        object: 12,
        scale: 256.0,
        mtype: 5,
        mflags: 0,
        flag: [0, 0],
        tbn: false,
        outline: Some(([0; 4], 1.0)),
        lookup: None,
        mmats: vec![Mmat2::Skin {
            material: 5,
            entries: vec![e([10, 0, 0], false, 0), e([-10, 0, 0], true, 1)],
            uvs: vec![[0x8000, 0x10000]],
        }],
        size_surplus: 0,
    };
    let bytes = file(0x125, vec![Chunk::Model2(model)]);
    let (at, p) = chunk_at(&bytes, 0x0800);
    let m = mesh::parse_model(&Bytes::new(&bytes), at, 0x125, &Limits::default()).unwrap();
    assert_eq!(m.end, at + 8 + 4 * 20);
    let ms = mesh::meshes(&m, Some(&p.index)).unwrap();
    let inf = &ms[0].influences[0];
    assert_eq!(inf.iter().map(|i| (i.slot, i.weight)).collect::<Vec<_>>(), [(0, 0.5), (1, 0.5)]);
}

#[test]
fn masked_f_obj_reads_only_its_present_values() {
    // docs/formats/ccsf-gen2.md#masked-f_obj-0x0101: mask 0x0B80, 2 + 7 clear bits among 1..10 words
    let mut f = CcsFile {
        chunks: vec![
            Chunk::Setup,
            Chunk::Frame { count: 1, tag: 0xcccc },
            Chunk::Top { frame: 0 },
            Chunk::FObjMasked {
                object: 1,
                mask: 0xb80,
                values: vec![1.0, 2.0, 3.0, 0.0, 0.0, 45.0, 1.0],
                display: None,
            },
            Chunk::Top { frame: 0xffff_ffff },
        ],
        name: "vec".into(),
        version: 0x123,
        frames: 0,
        files: vec![],
        objects: vec![("o1".into(), 1)],
    };
    f.files.push((b' ', "x".into()));
    let bytes = write::write(&f);
    let (at, _) = chunk_at(&bytes, 0x0101);
    let fo = anime::parse_fobj_at(&Bytes::new(&bytes), at, 0x123).unwrap();
    assert_eq!(
        (fo.pos, fo.rot_deg, fo.scale, fo.alpha),
        (Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.0, 45.0), Vec3::ONE, 1.0)
    );
}

#[test]
fn clump_bind_poses_place_the_nodes_at_rest() {
    // docs/formats/ccsf-gen2.md#clump-0x0900-bind-poses: with no Obj parents, node 3 sits at
    // (10, 0, 0) rotated 90° about z, so its local +x axis maps to world +y
    let bind = vec![[[0.0; 3], [0.0; 3], [1.0; 3]], [[10.0, 0.0, 0.0], [0.0, 0.0, 90.0], [1.0; 3]]];
    let bytes = file(
        0x123,
        vec![
            Chunk::Obj { object: 1, parent: 0, model: 0, shadow: 0 },
            Chunk::Obj { object: 3, parent: 0, model: 0, shadow: 0 },
            Chunk::ClumpBind { object: 2, nodes: vec![1, 3], bind },
        ],
    );
    let p = parse::parse(&bytes, &Limits::default()).unwrap();
    let s = pose::collect(&bytes, &p, 64).unwrap();
    let worlds = s.worlds(&Default::default(), &Default::default(), 64).unwrap();
    let w3 = worlds[&3];
    assert!(w3.transform_point3(Vec3::ZERO).abs_diff_eq(Vec3::new(10.0, 0.0, 0.0), 1e-5));
    assert!(w3.transform_vector3(Vec3::X).abs_diff_eq(Vec3::Y, 1e-5));
    assert!(worlds[&1].transform_point3(Vec3::ONE).abs_diff_eq(Vec3::ONE, 1e-6));
}

#[test]
fn a_texture_level_whose_size_is_not_stated_is_an_error() {
    // a non-power-of-two texture states only level 0's size: asking for level 1 is an error, not a guess
    let bytes = file(
        0x125,
        vec![
            Chunk::Clut { clut: 7, blt_group: 0, flag: 1, buf: [0, 0], colours: vec![[0x80; 4]; 16] },
            Chunk::TextureNpot {
                texture: 6,
                clut: 7,
                flag: 1,
                psm: 0x13,
                width: 3,
                height: 2,
                pixels: vec![0; 8],
                mips: vec![],
                size_surplus: 0,
            },
        ],
    );
    assert!(super::decode_texture(&bytes, "o6", 0, &Limits::default()).is_ok());
    assert!(super::decode_texture(&bytes, "o6", 1, &Limits::default()).is_err());
}

#[test]
fn every_gen2_model_decode_ends_at_its_chunk_end() {
    let lim = Limits::default();
    for (name, bytes) in write::gen2_files() {
        let p = parse::parse(&bytes, &lim).unwrap();
        assert!(p.walk.clean(bytes.len() as u64), "{name}");
        let b = Bytes::new(&bytes);
        for c in p.walk.chunks.iter().filter(|c| c.kind == 0x0800) {
            let m = mesh::parse_model(&b, c.off, p.walk.version, &lim).unwrap();
            assert_eq!((m.end, c.end), (c.declared_end, c.declared_end), "{name} @0x{:x}", c.off);
        }
        // the setup section ends at the first Frame, the frame section with Top -1 or -2
        let last = p.walk.chunks.last().unwrap();
        assert_eq!(last.kind, 0xff01, "{name}");
        assert!(b.u32_le(last.payload()).unwrap() >= 0xffff_fffe, "{name}");
        assert!(band::generation_label(p.walk.version).is_some());
    }
}

/// docs/formats/ccsf-gen2.md#walker: a deformable model whose size declares 15 words per mmat too many (the
/// committed `g123s15.ccs`): the walk ends the chunk where the decoder
/// does, reaches the file's end, and `check` reports the size.
#[test]
fn deformable_model_with_15_surplus_words_per_mmat() {
    let (_, bytes) = write::fixture_files().into_iter().find(|(n, _)| n == "g123s15.ccs").unwrap();
    let p = parse::parse(&bytes, &Limits::default()).unwrap();
    assert!(p.walk.clean(bytes.len() as u64), "{:?}", p.walk.lost);
    let b = Bytes::new(&bytes);
    let skin = p
        .walk
        .chunks
        .iter()
        .filter(|c| c.kind == 0x0800)
        .find(|c| {
            mesh::parse_model(&b, c.off, 0x123, &Limits::default())
                .is_ok_and(|m| m.mmats.len() == 2 && m.gen2.as_ref().is_some_and(|g| g.has_lookup))
        })
        .unwrap();
    // 2 mmats × 15 words = 120 bytes past the body's end
    assert_eq!(skin.declared_end, skin.end + 120);
    let findings = super::check(&bytes, &p, &Limits::default());
    assert!(
        findings.iter().any(|f| f.severity == Severity::Warning && f.message.contains("+30 words")),
        "{findings:?}"
    );
}

/// The strict check decodes each gen-2 model once when the parse kept the layout findings'
/// decodes (surveys, `check`), and finds exactly what it finds decoding them itself: every
/// gen-2 fixture, good and bad, and each cut short every 61 bytes (inside its models too).
#[test]
fn check_with_kept_models_finds_what_decoding_again_finds() {
    let limits = Limits::default();
    let mut inputs: Vec<(String, Vec<u8>)> = super::gen2_fixtures::gen2_files();
    inputs.extend(super::gen2_fixtures::gen2_bad_files());
    let mut with_models = 0;
    let whole = inputs.clone();
    for (name, bytes) in &whole {
        // cut inside the models too: a kept decode error must be the same error
        for cut in (0..bytes.len()).step_by(61) {
            inputs.push((format!("{name} cut at {cut}"), bytes[..cut].to_vec()));
        }
    }
    for (name, bytes) in &inputs {
        let (Ok(kept), Ok(plain)) = (parse::parse_checking(bytes, &limits), parse::parse(bytes, &limits)) else {
            continue;
        };
        assert!(plain.models.is_empty(), "{name}: a plain parse keeps no models");
        let models = kept.walk.chunks.iter().filter(|c| c.kind == 0x0800).count();
        if kept.walk.version >= 0x110 {
            assert_eq!(kept.models.len(), models, "{name}: every setup Model kept");
            with_models += usize::from(models > 0);
        }
        assert_eq!(super::check(bytes, &kept, &limits), super::check(bytes, &plain, &limits), "{name}");
    }
    assert!(with_models >= 10, "the gen-2 fixtures have models ({with_models} inputs)");
}
