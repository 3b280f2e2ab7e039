//! The pose viewer's cost: one frame of a 90-joint skeleton drawn as a braille stick figure
//! at 200×60 (the joints from the export's matrices, projection, grid, trail, bones, joints
//! onto a ratatui Buffer), and building the clip's scene (trail and extent over its
//! frames), which the TUI does once per clip. Run with `cargo bench --bench pose`.

#[path = "common/config.rs"]
mod config;
use animscope::export::BlenderFrames;
use animscope::export::pose::{PoseScene, Preset, View, joints};
use animscope::model::anim::{Clip, PoseSeq, Space};
use animscope::tui::pose::{Palette, PosePicture};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Mat4, Quat, Vec3};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const BONES: usize = 90;
const FRAMES: usize = 240;

/// A synthetic 90-bone skeleton (each bone 10 cm from its parent, parents `(i - 1) / 3`:
/// a bushy tree four levels deep) whose root walks and turns and whose bones swing,
/// posed in Blender armature space for every frame.
fn clip() -> Clip {
    let parents: Vec<Option<usize>> = (0..BONES).map(|i| if i == 0 { None } else { Some((i - 1) / 3) }).collect();
    let mut frames = Vec::with_capacity(FRAMES);
    for f in 0..FRAMES {
        let t = f as f32 / FRAMES as f32;
        let mut world: Vec<Mat4> = Vec::with_capacity(BONES);
        for (i, p) in parents.iter().enumerate() {
            let local = match p {
                None => Mat4::from_rotation_translation(
                    Quat::from_rotation_z(t * std::f32::consts::TAU),
                    Vec3::new(t * 2.0, t, 1.0),
                ),
                Some(_) => Mat4::from_rotation_translation(
                    Quat::from_rotation_x((t * 6.0 + i as f32).sin() * 0.5),
                    Vec3::new(0.0, 0.02 * (i % 3) as f32, 0.1),
                ),
            };
            let m = match p {
                Some(p) => world[*p] * local,
                None => local,
            };
            world.push(m);
        }
        frames.push(world);
    }
    let mut c = Clip::new("bench", 30.0, FRAMES);
    c.poses = Some(PoseSeq {
        space: Space::BlenderArmature,
        bones: (0..BONES).map(|i| format!("bone_{i}")).collect(),
        frames,
        parents,
        rest: vec![Mat4::IDENTITY; BONES],
        conversion_matrix: Mat4::IDENTITY,
        source: "bench".into(),
        skeleton: "bench".into(),
        conversion: "none".into(),
    });
    c
}

fn bench(c: &mut Criterion) {
    let clip = clip();
    let bf = BlenderFrames::new(&clip, None, None, &animscope::limits::Limits::default()).expect("poses");
    let scene = PoseScene::new(&bf).expect("scene");
    let view = View::preset(Preset::Front);
    let area = Rect::new(0, 0, 200, 60);
    let mut g = c.benchmark_group("pose");
    g.bench_function("frame_90_joints_200x60", |b| {
        let mut f = 0;
        let mut buf = Buffer::empty(area);
        b.iter(|| {
            // what the TUI does per frame: the frame's matrices, then the picture
            f = (f + 1) % FRAMES;
            let bf = BlenderFrames::new(&clip, None, None, &animscope::limits::Limits::default()).expect("poses");
            let at = joints(&bf, f).expect("frame");
            buf.reset();
            PosePicture { scene: &scene, joints: &at, view: &view, highlight: Some(5), palette: Palette::colour() }
                .render(area, &mut buf);
            std::hint::black_box(&buf);
        });
    });
    g.bench_function("scene_90_joints_240_frames", |b| {
        b.iter(|| std::hint::black_box(PoseScene::new(&bf).expect("scene")));
    });
    g.finish();
}

criterion_group! { name = benches; config = config::short(); targets = bench }
criterion_main!(benches);
