//! The texture preview and the mesh wireframe. Run with `cargo bench --bench pictures`.
//!
//! - `texture_256_psmt8_decode_fit_200x60`: a 256×256 PSMT8 texture with its 256-colour
//!   CLUT (a CCSF file made by the project's writer) decoded through `Pictures::image` — the
//!   decoder the PNG export uses — and drawn fitted as truecolor half-block cells into a
//!   200×60 buffer: what selecting a texture costs.
//! - `wireframe_32k_vertices_200x60`: a scene shaped like the measured later-generation
//!   scene (278 rigid meshes, 32,007 vertices, 12,269 triangles, coordinates up to ≈ 290,000
//!   units) turned into edges and drawn on the braille canvas at 200×60: what the pose view
//!   does per frame once the scene is posed (posing is the export's, measured by it).

#[path = "common/config.rs"]
mod config;
use animscope::export::pose::View;
use animscope::export::wireframe::Wireframe;
use animscope::formats::ccsf::write::{CcsFile, Chunk, empty_frame_section, write};
use animscope::limits::Limits;
use animscope::model::mesh::{Mesh, MeshKind, Scene};
use animscope::session::Opened;
use animscope::tui::pose::Palette;
use animscope::tui::texture::{ColourDepth, render_cells};
use animscope::tui::wireframe::WirePicture;
use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::sync::Arc;

/// A CCSF file with one 256×256 PSMT8 texture (a diagonal gradient of indices) and its CLUT.
fn texture_file() -> Vec<u8> {
    let mut f = CcsFile {
        name: "bench".into(),
        version: 0x100,
        frames: 0,
        files: vec![(b' ', "x.max".into())],
        objects: vec![("CLT_b".into(), 1), ("TEX_b".into(), 1)],
        chunks: vec![Chunk::Setup],
    };
    let (clt, tex) = (f.obj("CLT_b"), f.obj("TEX_b"));
    let colours: Vec<[u8; 4]> = (0..=255u8).map(|i| [i, 255 - i, i / 2, 0x80]).collect();
    let px: Vec<u8> = (0..256 * 256).map(|i| ((i % 256 + i / 256) % 256) as u8).collect();
    f.chunks.extend([
        Chunk::Clut { clut: clt, blt_group: 0, flag: 1, buf: [0, 0], colours },
        Chunk::Texture {
            texture: tex,
            clut: clt,
            blt_group: 0,
            flag: 0,
            psm: 0x13,
            aref: 0x70,
            tw: 8,
            th: 8,
            levels: vec![(0, 0, px)],
            size_surplus: 0,
        },
    ]);
    f.chunks.extend(empty_frame_section());
    write(&f)
}

/// 278 rigid meshes, 32,007 vertices and 12,269 triangles in all: each a strip of
/// triangles over its vertices, placed on a ring up to ≈ 290,000 units out.
fn scene() -> Scene {
    const MESHES: usize = 278;
    const VERTS: usize = 32_007;
    const TRIS: usize = 12_269;
    let mut meshes = Vec::with_capacity(MESHES);
    for m in 0..MESHES {
        let nv = VERTS / MESHES + usize::from(m < VERTS % MESHES);
        let nt = (TRIS / MESHES + usize::from(m < TRIS % MESHES)).min(nv - 2);
        let a = m as f32 / MESHES as f32 * std::f32::consts::TAU;
        let centre = Vec3::new(a.cos(), a.sin(), 0.0) * 280_000.0;
        let positions: Vec<Vec3> = (0..nv)
            .map(|i| {
                centre + Vec3::new((i % 12) as f32 * 700.0, (i / 12) as f32 * 500.0, ((i * 7) % 13) as f32 * 300.0)
            })
            .collect();
        let triangles: Vec<[u32; 3]> = (0..nt as u32).map(|i| [i, i + 1, i + 2]).collect();
        meshes.push(Mesh {
            model: format!("MDL_{m}"),
            kind: Some(MeshKind::Rigid),
            positions,
            triangles,
            ..Mesh::default()
        });
    }
    Scene { meshes, ..Scene::default() }
}

fn bench(c: &mut Criterion) {
    let src = Arc::new(animscope::source::Source::from_vec("bench.ccs", texture_file()));
    let mut opened = Opened::from_source(src, None, &Limits::default(), Vec::new()).expect("opens");
    let tex = opened.doc().nodes.iter().find(|n| n.kind == "Texture").map(|n| n.id).expect("a texture");
    opened.doc_mut().expand(tex);
    let area = Rect::new(0, 0, 200, 60);
    let mut g = c.benchmark_group("pictures");
    g.bench_function("texture_256_psmt8_decode_fit_200x60", |b| {
        let mut buf = Buffer::empty(area);
        b.iter(|| {
            let img = opened
                .pictures()
                .expect("CCSF has pictures")
                .image(tex, &Limits::default())
                .expect("a picture")
                .expect("decodes");
            buf.reset();
            render_cells(&img, ColourDepth::True, area, &mut buf);
            std::hint::black_box(&buf);
        });
    });
    let scene = scene();
    let view = View::default();
    g.bench_function("wireframe_32k_vertices_200x60", |b| {
        let mut buf = Buffer::empty(area);
        b.iter(|| {
            let wire = Wireframe::new(&scene, Some("MDL_7"));
            let fit = wire.frame_scene(1);
            buf.reset();
            WirePicture { wire: &wire, scene: &fit, view: &view, palette: Palette::colour() }.render(area, &mut buf);
            std::hint::black_box(&buf);
        });
    });
    g.finish();
}

criterion_group! { name = benches; config = config::short(); targets = bench }
criterion_main!(benches);
