//! [`crate::formats::Pictures::image`] for CCSF textures: the preview decodes through the
//! same decoder the exports use, names the pixel format and CLUT, and is charged to the
//! memory budget.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, clippy::expect_used)]

use super::write::{self, CcsFile, Chunk};
use crate::limits::Limits;
use crate::model::NodeId;
use crate::session::Opened;
use std::sync::Arc;

fn open(name: &str, data: Vec<u8>) -> Opened {
    let src = Arc::new(crate::source::Source::from_vec(name, data));
    Opened::from_source(src, None, &Limits::default(), Vec::new()).unwrap()
}

fn nodes_of_kind(o: &mut Opened, kind: &str) -> Vec<NodeId> {
    let ids: Vec<NodeId> = o.doc().nodes.iter().filter(|n| n.kind == kind).map(|n| n.id).collect();
    for id in &ids {
        o.doc_mut().expand(*id);
    }
    ids
}

#[test]
fn stripes_decode_to_their_clut_colours_top_half_first() {
    let mut o = open("stripes.cmp", write::write(&write::stripes()));
    let tex = nodes_of_kind(&mut o, "Texture");
    assert_eq!(tex.len(), 1);
    let img = o.pictures().unwrap().image(tex[0], &Limits::default()).unwrap().unwrap();
    assert_eq!((img.width, img.height, img.format.as_str()), (16, 16, "PSMT4"));
    assert_eq!(img.clut.as_deref(), Some("CLT_stripes"));
    // CLUT alpha 0x80 is opaque (255); stripes 4 px wide: colours 1..=4 on top, 5..=8 below
    assert_eq!(img.pixel(0, 0), Some([0xff, 0, 0, 255]));
    assert_eq!(img.pixel(5, 7), Some([0, 0xff, 0, 255]));
    assert_eq!(img.pixel(8, 0), Some([0, 0, 0xff, 255]));
    assert_eq!(img.pixel(15, 7), Some([0xff, 0xff, 0xff, 255]));
    assert_eq!(img.pixel(0, 8), Some([0xff, 0xff, 0, 255]));
    assert_eq!(img.pixel(4, 15), Some([0, 0xff, 0xff, 255]));
    assert_eq!(img.pixel(11, 12), Some([0xff, 0, 0xff, 255]));
    assert_eq!(img.pixel(15, 15), Some([0x40, 0x40, 0x40, 255]));
    assert_eq!(img.describe(), "16×16 PSMT4 via CLUT CLT_stripes");
}

#[test]
fn every_fixture_texture_previews_as_the_export_decoder_decodes_it() {
    let mut seen = Vec::new();
    for (name, data) in write::fixture_files() {
        if name.starts_with("x_") || name.contains("str0") {
            continue;
        }
        let mut o = open(&name, data.clone());
        for id in nodes_of_kind(&mut o, "Texture") {
            let img = o.pictures().unwrap().image(id, &Limits::default()).unwrap().unwrap();
            let obj = o.doc().node(id).unwrap().key.to_string();
            let tname = obj.split_once('[').map(|(_, r)| r.trim_end_matches(']')).unwrap().to_string();
            let export = super::decode_texture(&data, &tname, 0, &Limits::default()).unwrap();
            assert_eq!((img.width, img.height), (export.width, export.height), "{name} {tname}");
            assert_eq!(img.rgba, export.rgba, "{name} {tname}");
            seen.push(img.format.clone());
        }
    }
    for want in ["PSMT4", "PSMT8", "DXT1 (BTX)", "DXT5 (BTX)"] {
        assert!(seen.iter().any(|f| f == want), "no fixture texture of {want}: {seen:?}");
    }
}

#[test]
fn gen2_rgba32_has_no_clut_and_keeps_its_alpha_scale() {
    let mut f = CcsFile {
        name: "rgba".into(),
        version: 0x123,
        frames: 0,
        files: vec![(b' ', "x.max".into())],
        objects: vec![("TEX_rgba".into(), 1)],
        chunks: vec![Chunk::Setup],
    };
    let tex = f.obj("TEX_rgba");
    // 2×2, stored bottom row first: bottom (10 20 30 80)(40 50 60 40), top (ff 00 00 80)(00 00 00 00)
    let px = vec![0x10, 0x20, 0x30, 0x80, 0x40, 0x50, 0x60, 0x40, 0xff, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00];
    f.chunks.push(Chunk::Texture {
        texture: tex,
        clut: 0,
        blt_group: 0,
        flag: 0,
        psm: 0,
        aref: 0x70,
        tw: 1,
        th: 1,
        levels: vec![(0, 0, px)],
        size_surplus: 0,
    });
    f.chunks.extend(write::empty_frame_section());
    let mut o = open("rgba.ccs", write::write(&f));
    let id = nodes_of_kind(&mut o, "Texture")[0];
    let img = o.pictures().unwrap().image(id, &Limits::default()).unwrap().unwrap();
    assert_eq!((img.format.as_str(), img.clut.as_deref()), ("RGBA32", None));
    assert_eq!(img.pixel(0, 0), Some([0xff, 0, 0, 255]));
    assert_eq!(img.pixel(1, 0), Some([0, 0, 0, 0]));
    assert_eq!(img.pixel(0, 1), Some([0x10, 0x20, 0x30, 255]));
    assert_eq!(img.pixel(1, 1), Some([0x40, 0x50, 0x60, 0x80]));
}

#[test]
fn a_mip_level_node_previews_that_level() {
    let mut o = open("old90.cmp", write::write(&write::old(0x90)));
    let tex = nodes_of_kind(&mut o, "Texture")[0];
    let levels = nodes_of_kind(&mut o, "mip level");
    assert_eq!(levels.len(), 2);
    let full = o.pictures().unwrap().image(tex, &Limits::default()).unwrap().unwrap();
    let mip = o.pictures().unwrap().image(levels[1], &Limits::default()).unwrap().unwrap();
    assert_eq!((mip.width * 2, mip.height * 2, mip.level), (full.width, full.height, 1));
    assert!(mip.describe().contains("(mip 1)"));
}

#[test]
fn the_pixels_are_charged_to_the_memory_left_and_other_nodes_are_no_picture() {
    let mut o = open("stripes.cmp", write::write(&write::stripes()));
    let tex = nodes_of_kind(&mut o, "Texture")[0];
    // 16×16×4 = 1024 bytes: what the document holds plus 1000 leaves too little
    let held = o.doc().retained_bytes();
    let tight = Limits { max_memory: held + 1000, ..Limits::default() };
    let err = o.pictures().unwrap().image(tex, &tight).unwrap().unwrap_err().to_string();
    assert!(err.contains("memory"), "{err}");
    let enough = Limits { max_memory: held + 1024, ..Limits::default() };
    assert!(o.pictures().unwrap().image(tex, &enough).unwrap().is_ok());
    assert!(o.pictures().unwrap().image(NodeId::ROOT, &Limits::default()).is_none());
    let clut = nodes_of_kind(&mut o, "Clut")[0];
    assert!(o.pictures().unwrap().image(clut, &Limits::default()).is_none());
}
