//! The pose picture: a clip's skeleton at one frame as a braille stick figure on ratatui's
//! canvas — the ground grid, the root's trail over the clip, bones, joints, and the
//! selected bone highlighted. The geometry (armature-space joints from the matrices the
//! matrix JSON export writes, the projection, the fit) is [`crate::export::pose`]'s; this
//! module only paints it. Used by the decode pane's pose view and by `animscope pose`.

use crate::export::pose::{PoseScene, View};
use crate::export::wireframe::Motion;
use glam::Vec3;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::symbols::Marker;
use ratatui::widgets::Widget;
use ratatui::widgets::canvas::{Canvas, Line, Painter, Shape};

/// Colours of the picture's parts (`None`: the terminal's default, for plain text or
/// `NO_COLOR`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// Ground grid.
    pub grid: Color,
    /// Root trail.
    pub trail: Color,
    /// Bones.
    pub bone: Color,
    /// Joints.
    pub joint: Color,
    /// The highlighted bone and its joint.
    pub highlight: Color,
}

impl Palette {
    /// 16-colour palette.
    pub fn colour() -> Palette {
        Palette {
            grid: Color::DarkGray,
            trail: Color::Cyan,
            bone: Color::White,
            joint: Color::LightRed,
            highlight: Color::Yellow,
        }
    }

    /// No colours at all (plain text, `NO_COLOR`).
    pub fn plain() -> Palette {
        Palette {
            grid: Color::Reset,
            trail: Color::Reset,
            bone: Color::Reset,
            joint: Color::Reset,
            highlight: Color::Reset,
        }
    }
}

/// One frame of a clip as the picture shows it.
#[derive(Debug, Clone, Copy)]
pub struct PosePicture<'a> {
    /// The clip's bones, trail and extent.
    pub scene: &'a PoseScene,
    /// Joint positions at the frame shown (armature space), one per bone.
    pub joints: &'a [Vec3],
    /// The camera.
    pub view: &'a View,
    /// The bone to highlight.
    pub highlight: Option<usize>,
    /// Colours.
    pub palette: Palette,
}

/// A bone on screen: (child bone index, parent joint, child joint).
pub type Segment = (usize, (f64, f64), (f64, f64));

/// A joint: a plus sign of five dots, so it stands out of the bones through it.
struct Joint {
    at: (f64, f64),
    color: Color,
}

impl Shape for Joint {
    fn draw(&self, painter: &mut Painter) {
        let Some((x, y)) = painter.get_point(self.at.0, self.at.1) else { return };
        painter.paint(x, y, self.color);
        for (dx, dy) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (Some(px), Some(py)) = (x.checked_add_signed(dx as isize), y.checked_add_signed(dy as isize)) else {
                continue;
            };
            // painting past the grid is ignored by the canvas
            painter.paint(px, py, self.color);
        }
    }
}

impl PosePicture<'_> {
    /// The screen segments of the bones: (child, from parent joint, to child joint).
    pub fn bone_segments(&self) -> Vec<Segment> {
        let mut out = Vec::with_capacity(self.joints.len());
        for (i, parent) in self.scene.parents.iter().enumerate() {
            let (Some(p), Some(c)) = (parent.and_then(|p| self.joints.get(p)), self.joints.get(i)) else { continue };
            if p.is_finite() && c.is_finite() {
                out.push((i, self.view.project(*p), self.view.project(*c)));
            }
        }
        out
    }

    /// Paint into `area` of `buf`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let [x0, x1, y0, y1] = self.scene.fit(self.view, area.width, area.height);
        let view = self.view;
        let pal = self.palette;
        let (_, grid) = self.scene.grid();
        let grid: Vec<((f64, f64), (f64, f64))> =
            grid.iter().map(|(a, b)| (view.project(*a), view.project(*b))).collect();
        let trail: Vec<(f64, f64)> =
            self.scene.trail.iter().filter(|p| p.is_finite()).map(|p| view.project(*p)).collect();
        let bones = self.bone_segments();
        let joints: Vec<(usize, (f64, f64))> =
            self.joints.iter().enumerate().filter(|(_, j)| j.is_finite()).map(|(i, j)| (i, view.project(*j))).collect();
        let highlight = self.highlight;
        Canvas::default()
            .marker(Marker::Braille)
            .x_bounds([x0, x1])
            .y_bounds([y0, y1])
            .paint(move |ctx| {
                let line = |a: (f64, f64), b: (f64, f64), color| Line::new(a.0, a.1, b.0, b.1, color);
                for (a, b) in &grid {
                    ctx.draw(&line(*a, *b, pal.grid));
                }
                ctx.layer();
                for w in trail.windows(2) {
                    if let [a, b] = w {
                        ctx.draw(&line(*a, *b, pal.trail));
                    }
                }
                ctx.layer();
                for (i, a, b) in &bones {
                    if Some(*i) != highlight {
                        ctx.draw(&line(*a, *b, pal.bone));
                    }
                }
                for (i, at) in &joints {
                    if Some(*i) != highlight {
                        ctx.draw(&Joint { at: *at, color: pal.joint });
                    }
                }
                // the highlighted bone last, over everything
                ctx.layer();
                for (i, a, b) in &bones {
                    if Some(*i) == highlight {
                        ctx.draw(&line(*a, *b, pal.highlight));
                    }
                }
                for (i, at) in &joints {
                    if Some(*i) == highlight {
                        ctx.draw(&Joint { at: *at, color: pal.highlight });
                    }
                }
            })
            .render(area, buf);
    }
}

/// The text of `area` of `buf`, one line per row, trailing blanks kept (a picture's rows
/// line up).
pub fn buffer_text(buf: &Buffer, area: Rect) -> String {
    let mut out = String::with_capacity(usize::from(area.width + 1) * usize::from(area.height) * 3);
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            out.push_str(buf.cell((x, y)).map_or(" ", |c| c.symbol()));
        }
        out.push('\n');
    }
    out
}

/// How far one orbit or tilt key turns the view.
const ORBIT_STEP: f32 = std::f32::consts::PI / 12.0;
/// How much one zoom key magnifies.
const ZOOM_STEP: f32 = 1.25;
/// How far one pan key moves, in fractions of the picture's half-size.
const PAN_STEP: f32 = 0.2;

/// A clip's scene as last built, kept while the same decoded clip is shown (building it
/// poses up to [`crate::export::pose::MAX_SAMPLED_FRAMES`] frames).
type SceneMemo = Option<(std::sync::Arc<crate::model::anim::Clip>, Result<std::sync::Arc<PoseScene>, String>)>;

/// The decode pane's pose view (toggled with `toggle_pose`): the selected clip's skeleton
/// at the decode pane's frame cursor, the selected channel's bone highlighted; its own
/// camera keys, and play/pause at the clip's rate (the app calls [`PoseView::tick`]).
#[derive(Debug, Default)]
pub struct PoseView {
    /// Shown instead of the curves.
    pub on: bool,
    /// The camera.
    pub view: View,
    /// Playing since (instant, frame then).
    pub playing: Option<(std::time::Instant, usize)>,
    scene: std::cell::RefCell<SceneMemo>,
    wire: std::cell::RefCell<Option<(WireKey, WireMemo)>>,
    /// What moves in the selected animation's scene, by (document, node).
    motion: std::cell::RefCell<Option<(MotionKey, Option<std::sync::Arc<Motion>>)>>,
    /// The picture is fitted to everything, not to what moves (or the selected mesh).
    pub fit_all: bool,
    /// The user turned the camera: its direction no longer follows the clip's motion.
    pub view_chosen: bool,
    /// The direction the clip drawn last is best seen from (its root motion).
    auto: std::cell::Cell<Option<crate::export::pose::Preset>>,
    /// The screen rectangle the last picture showed (x0, x1, y0, y1, armature units).
    fitted: std::cell::RefCell<Option<[f64; 4]>>,
    /// The model of the last model node selected while the view was on: highlighted in
    /// the wireframe of the animation selected after it.
    last_model: std::cell::RefCell<Option<(usize, String)>>,
}

/// What a scene's motion depends on: (document, node).
type MotionKey = (usize, crate::model::NodeId);

/// Frames posed to find what moves in a scene (spread over the clip, ends included).
const MOTION_FRAMES: usize = 5;

/// What a wireframe depends on: (document, node), frame, highlighted model.
type WireKey = (usize, crate::model::NodeId, usize, Option<String>);
/// A built wireframe (None: the input has no meshes to draw), or why it failed.
type WireMemo = Result<Option<std::sync::Arc<crate::export::wireframe::Wireframe>>, String>;

impl PoseView {
    /// Handle a pose action; `frame` is the decode pane's frame cursor (play starts there).
    /// Returns a message for the status line, if any.
    pub fn handle(&mut self, a: super::Action, frame: usize, now: std::time::Instant) -> Option<String> {
        use super::Action;
        match a {
            Action::TogglePose => {
                self.on = !self.on;
                if !self.on {
                    self.playing = None;
                }
                return Some(if self.on { "decode: pose view" } else { "decode: curves" }.into());
            }
            _ if !self.on => return Some("pose keys work in the pose view (toggle_pose)".into()),
            Action::PlayPause => {
                self.playing = match self.playing {
                    Some(_) => None,
                    None => Some((now, frame)),
                };
            }
            Action::FitAll => {
                self.fit_all = !self.fit_all;
                return Some(
                    if self.fit_all { "pose view: fitted to everything" } else { "pose view: fitted to what moves" }
                        .into(),
                );
            }
            Action::OrbitLeft | Action::OrbitRight | Action::TiltUp | Action::TiltDown | Action::NextView
                if !self.view_chosen =>
            {
                // the direction shown (the clip's) is where turning starts
                self.view = self.shown_view();
                self.view_chosen = true;
                return self.handle(a, frame, now);
            }
            Action::OrbitLeft => self.view.orbit(-ORBIT_STEP, 0.0),
            Action::OrbitRight => self.view.orbit(ORBIT_STEP, 0.0),
            Action::TiltUp => self.view.orbit(0.0, ORBIT_STEP),
            Action::TiltDown => self.view.orbit(0.0, -ORBIT_STEP),
            Action::ZoomIn => self.view.zoom = (self.view.zoom * ZOOM_STEP).min(64.0),
            Action::ZoomOut => self.view.zoom = (self.view.zoom / ZOOM_STEP).max(0.25),
            Action::PanLeft => self.view.pan.0 -= PAN_STEP,
            Action::PanRight => self.view.pan.0 += PAN_STEP,
            Action::PanUp => self.view.pan.1 += PAN_STEP,
            Action::PanDown => self.view.pan.1 -= PAN_STEP,
            Action::NextView => {
                use crate::export::pose::Preset;
                let next = match self.view.preset_of() {
                    Some(Preset::Front) => Preset::Side,
                    Some(Preset::Side) => Preset::Top,
                    _ => Preset::Front,
                };
                self.view = View::preset(next);
            }
            _ => {}
        }
        None
    }

    /// The camera the picture uses: the user's, or until they turn it, looking from the
    /// direction the clip's motion calls for (with the user's zoom and pan).
    pub fn shown_view(&self) -> View {
        match self.auto.get().filter(|_| !self.view_chosen) {
            Some(p) => View { zoom: self.view.zoom, pan: self.view.pan, ..View::preset(p) },
            None => self.view,
        }
    }

    /// What moves in the selected animation's scene (posed at [`MOTION_FRAMES`] frames),
    /// once per animation; None when it cannot be posed.
    fn motion_of(
        &self,
        ctx: &super::component::Ctx<'_>,
        clip: &crate::model::anim::Clip,
    ) -> Option<std::sync::Arc<Motion>> {
        use crate::model::mesh::SceneRequest;
        let key = (ctx.sel.0, ctx.sel.1);
        let mut memo = self.motion.borrow_mut();
        if let Some((k, m)) = memo.as_ref()
            && *k == key
        {
            return m.clone();
        }
        let opened = &ctx.cur().opened;
        let last = clip.frame_count.saturating_sub(1);
        let mut frames: Vec<usize> = (0..MOTION_FRAMES).map(|i| i * last / (MOTION_FRAMES - 1)).collect();
        frames.dedup();
        let anim = opened.animation_at(ctx.sel.1);
        let wires: Option<Vec<crate::export::wireframe::Wireframe>> = anim.and_then(|anim| {
            frames
                .iter()
                .map(|f| {
                    let meshes = opened.meshes()?;
                    let pose = meshes.scene_pose(&anim, u32::try_from(*f).unwrap_or(u32::MAX));
                    let s = meshes.scene(&SceneRequest { model: None, pose }, &opened.decode_limits()).ok()?;
                    Some(crate::export::wireframe::Wireframe::new(&s, None))
                })
                .collect()
        });
        let m = wires.map(|w| std::sync::Arc::new(Motion::of(&w)));
        *memo = Some((key, m.clone()));
        m
    }

    /// Whether playing (the event loop then wakes at the clip's rate).
    pub fn is_playing(&self) -> bool {
        self.on && self.playing.is_some()
    }

    /// While playing, the frame `now` reaches at `fps` from where play started, looping
    /// over `frames`; `None` when not playing or nothing changes.
    pub fn tick(&self, now: std::time::Instant, fps: f64, frames: usize, current: usize) -> Option<usize> {
        let (since, start) = self.playing.filter(|_| self.on)?;
        if frames == 0 || !(fps.is_finite() && fps > 0.0) {
            return None;
        }
        let advanced = (now.saturating_duration_since(since).as_secs_f64() * fps) as usize;
        let f = (start % frames + advanced % frames) % frames;
        (f != current).then_some(f)
    }

    /// The scene of `clip`, built once per decoded clip.
    fn scene_of(&self, clip: &std::sync::Arc<crate::model::anim::Clip>) -> Result<std::sync::Arc<PoseScene>, String> {
        let mut memo = self.scene.borrow_mut();
        if let Some((c, s)) = memo.as_ref()
            && std::sync::Arc::ptr_eq(c, clip)
        {
            return s.clone();
        }
        // No skeleton file is read (the poses' own skeleton), so no side-file budget is spent.
        let s = crate::export::BlenderFrames::new(clip, None, None, &crate::limits::Limits::default())
            .and_then(|bf| PoseScene::new(&bf))
            .map(std::sync::Arc::new)
            .map_err(|e| e.to_string());
        *memo = Some((std::sync::Arc::clone(clip), s.clone()));
        s
    }

    /// The screen rectangle `[x0, x1, y0, y1]` the last picture showed (armature units in
    /// the shown view's screen axes), None before one was drawn.
    pub fn last_fit(&self) -> Option<[f64; 4]> {
        *self.fitted.borrow()
    }

    /// The wireframe drawn last (None before one was drawn), with its frame.
    pub fn last_wireframe(&self) -> Option<(usize, std::sync::Arc<crate::export::wireframe::Wireframe>)> {
        let memo = self.wire.borrow();
        let ((_, _, frame, _), w) = memo.as_ref()?;
        Some((*frame, w.as_ref().ok()?.as_ref()?.clone()))
    }

    /// The meshes of the selected input posed at `frame` of the selected animation — the
    /// scene the OBJ and glTF exports write — as a wireframe, built once per (node, frame,
    /// highlighted model); None when the input has no meshes. The highlighted model is the
    /// selected node's, or the one the selected channel names.
    fn wire_of(
        &self,
        ctx: &super::component::Ctx<'_>,
        clip: &crate::model::anim::Clip,
        frame: usize,
        chan: usize,
    ) -> Option<Result<std::sync::Arc<crate::export::wireframe::Wireframe>, String>> {
        use crate::model::mesh::SceneRequest;
        let opened = &ctx.cur().opened;
        let meshes = opened.meshes()?;
        let frame = frame.min(clip.frame_count.saturating_sub(1));
        let remembered = self.last_model.borrow().as_ref().filter(|(d, _)| *d == ctx.sel.0).map(|(_, m)| m.clone());
        let highlight =
            meshes.model_of(ctx.sel.1).or(remembered).or_else(|| clip.tracks.get(chan).map(|t| t.target.clone()));
        let key = (ctx.sel.0, ctx.sel.1, frame, highlight.clone());
        let mut memo = self.wire.borrow_mut();
        if let Some((k, w)) = memo.as_ref()
            && *k == key
        {
            return w.clone().transpose();
        }
        let anim = opened.animation_at(ctx.sel.1)?;
        let pose = meshes.scene_pose(&anim, u32::try_from(frame).unwrap_or(u32::MAX));
        let built = meshes
            .scene(&SceneRequest { model: None, pose }, &opened.decode_limits())
            .map(|s| crate::export::wireframe::Wireframe::new(&s, highlight.as_deref()))
            .map(|w| (w.meshes > 0).then(|| std::sync::Arc::new(w)))
            .map_err(|e| crate::text::sanitize(&e.to_string()).to_string());
        *memo = Some((key, built.clone()));
        built.transpose()
    }

    /// Draw the pose view of the selected clip into the decode pane's `area`, at frame
    /// `frame` with channel `chan`'s bone highlighted.
    pub fn draw(&self, f: &mut ratatui::Frame, area: Rect, ctx: &super::component::Ctx<'_>, frame: usize, chan: usize) {
        use super::component::Pane;
        use super::workspace::Load;
        let theme = ctx.theme;
        let clip = ctx.clip().cloned();
        if let Some(m) = ctx.cur().opened.meshes().and_then(|m| m.model_of(ctx.sel.1)) {
            *self.last_model.borrow_mut() = Some((ctx.sel.0, m));
        }
        let title = match &clip {
            Some(Load::Ready(c)) => {
                format!("Pose · {}  {} frames @{} Hz", crate::text::sanitize(&c.name), c.frame_count, c.fps)
            }
            _ => "Pose".to_string(),
        };
        let Some(inner) = ctx.framed(f, area, Pane::Decode, title) else { return };
        let buf = f.buffer_mut();
        let w = usize::from(inner.width);
        let say = |buf: &mut Buffer, s: &str, style| {
            buf.set_stringn(inner.x, inner.y, s, w, style);
        };
        let clip = match clip {
            Some(Load::Ready(c)) => c,
            Some(Load::Pending(_)) => return say(buf, "decoding…", theme.warn),
            Some(Load::Failed(e)) => return say(buf, &format!("decode failed: {e}"), theme.error),
            None => return say(buf, "no animation on this node (select a clip, sequence or Anime)", theme.dim),
        };
        if let Some(wire) = self.wire_of(ctx, &clip, frame, chan) {
            let frame = frame.min(clip.frame_count.saturating_sub(1));
            let palette = if theme.mono { Palette::plain() } else { Palette::colour() };
            return match wire {
                Ok(w) => {
                    let motion = self.motion_of(ctx, &clip);
                    let moving = motion.as_ref().and_then(|m| m.extent);
                    self.auto.set(Some(match (&motion, moving) {
                        (Some(m), Some(e)) => {
                            crate::export::pose::Preset::for_travel(m.travel, crate::export::pose::box_size(e))
                        }
                        _ => crate::export::pose::Preset::Front,
                    }));
                    // fitted to: everything when asked, else the highlighted mesh, else
                    // what moves, else everything
                    let lit = if w.lit.is_empty() { None } else { w.extent_of(|_, lit| lit) };
                    let (extent, fitted) = match (self.fit_all, lit, moving) {
                        (true, _, _) => (w.extent, "all"),
                        (false, Some(e), _) => (e, "selected mesh"),
                        (false, None, Some(e)) => (e, "what moves"),
                        (false, None, None) => (w.extent, "all"),
                    };
                    let view = self.shown_view();
                    let header = format!(
                        "frame {frame}/{}  {}  {}  fit: {fitted}  wireframe: {} meshes, {} vertices, {} edges",
                        clip.frame_count.saturating_sub(1),
                        view.describe(),
                        if self.playing.is_some() { "▶ playing" } else { "paused" },
                        w.meshes,
                        w.points.len(),
                        w.edges.len() + w.lit.len()
                    );
                    say(buf, &header, ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::BOLD));
                    let body = Rect::new(inner.x, inner.y + 1, inner.width, inner.height.saturating_sub(1));
                    let scene = w.scene_around(extent, clip.frame_count);
                    *self.fitted.borrow_mut() = Some(scene.fit(&view, body.width, body.height));
                    super::wireframe::WirePicture { wire: &w, scene: &scene, view: &view, palette }.render(body, buf);
                }
                Err(e) => say(buf, &format!("no meshes to draw at frame {frame}: {e}"), theme.error),
            };
        }
        let scene = match self.scene_of(&clip) {
            Ok(s) => s,
            Err(e) => return say(buf, &format!("no pose to draw: {e}"), theme.dim),
        };
        self.auto.set(Some(crate::export::pose::Preset::for_travel(
            scene.travel(),
            crate::export::pose::box_size(scene.extent),
        )));
        let view = self.shown_view();
        let frame = frame.min(scene.frames.saturating_sub(1));
        let joints = match crate::export::BlenderFrames::new(&clip, None, None, &crate::limits::Limits::default())
            .and_then(|bf| crate::export::pose::joints(&bf, frame))
        {
            Ok(j) => j,
            Err(e) => return say(buf, &format!("frame {frame}: {e}"), theme.error),
        };
        // the selected channel's bone: its track's target, by name
        let target = clip.tracks.get(chan).map(|t| t.target.as_str());
        let highlight = target.and_then(|t| scene.bones.iter().position(|b| b == t));
        let play = if self.playing.is_some() { "▶ playing" } else { "paused" };
        let bone = match (target, highlight) {
            (Some(t), Some(_)) => format!("  bone {}", crate::text::sanitize(t)),
            (Some(t), None) => format!("  ({} has no bone)", crate::text::sanitize(t)),
            _ => String::new(),
        };
        let header = format!(
            "frame {frame}/{}  {}  {play}{bone}  ({} bones)",
            scene.frames.saturating_sub(1),
            view.describe(),
            scene.bones.len()
        );
        say(buf, &header, ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::BOLD));
        let body = Rect::new(inner.x, inner.y + 1, inner.width, inner.height.saturating_sub(1));
        let palette = if theme.mono { Palette::plain() } else { Palette::colour() };
        *self.fitted.borrow_mut() = Some(scene.fit(&view, body.width, body.height));
        PosePicture { scene: &scene, joints: &joints, view: &view, highlight, palette }.render(body, buf);
    }
}
