//! Render cost of the TUI: one full 200×60 frame of the default layout, and each pane
//! alone (zoomed) at 200×60, on a synthetic document with a decoded two-channel clip.
//! Run with `cargo bench --bench render`.

#[path = "common/config.rs"]
mod config;
use animscope::error::Result as PResult;
use animscope::formats::tally::Tally;
use animscope::formats::{DecodeOptions, Format, Parsed};
use animscope::limits::Limits;
use animscope::model::anim::{Clip, Track, Unit};
use animscope::model::{Document, Field, NodeId, Span, Value, WalkStep};
use animscope::session::Opened;
use animscope::source::Source;
use animscope::test_support::FakeParsed;
use animscope::tui::{Action, App, Config};
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;

struct Bench;

impl Bench {
    fn describe(&self, data: &[u8], name: &str, limits: &Limits) -> PResult<Document> {
        let len = data.len() as u64;
        let mut d = Document::new("bench", name, "file", len, limits);
        for i in 0..(len / 0x100) {
            let c = d.add_node(NodeId::ROOT, format!("clip[{i}]"), "clip", Span::at(i * 0x100, 0x100));
            if let Some(n) = d.node_mut(c) {
                n.anim = Some(format!("clip:{i}"));
            }
            for j in 0..16 {
                d.add_field(c, Field::new(format!("f{j}"), Span::at(i * 0x100 + j * 16, 16), Value::uint(j, 2)));
            }
            d.walk.push(WalkStep {
                span: Span::at(i * 0x100, 0x100),
                what: format!("clip {i}"),
                detail: "fixed size 0x100".into(),
                next: Some((i + 1) * 0x100),
                node: Some(c),
            });
        }
        Ok(d)
    }
    fn decode(&self, _: &[u8], key: &str, _: &DecodeOptions, _: &Limits) -> PResult<Clip> {
        let mut c = Clip::new(key, 60.0, 120);
        for (k, name) in ["root.x", "root.y", "root.z", "root.ry"].iter().enumerate() {
            c.tracks.push(Track {
                name: (*name).into(),
                target: "root".into(),
                unit: Unit::Metres,
                keys: Vec::new(),
                samples: (0..120).map(|f| (f as f64 / 20.0 + k as f64).sin()).collect(),
                unknown: false,
            });
        }
        Ok(c)
    }
}

impl Format for Bench {
    fn id(&self) -> &'static str {
        "bench"
    }
    fn description(&self) -> &'static str {
        "bench"
    }
    fn sniff(&self, _: &[u8], _: &str) -> u8 {
        0
    }
    fn open(&self, source: Arc<Source>, limits: &Limits) -> PResult<Box<dyn Parsed>> {
        let doc = Bench.describe(source.bytes(), source.name(), limits)?;
        Ok(Box::new(FakeParsed {
            format: &BENCH,
            source,
            doc,
            decode: |k| Bench.decode(&[], k, &DecodeOptions::default(), &Limits::default()),
            member: None,
        }))
    }
    fn check(&self, _: &Source, _: &Limits) -> PResult<Vec<animscope::model::Diagnostic>> {
        Ok(Vec::new())
    }
    fn survey(&self, _: &Source, _: &Limits, _: &(dyn Fn(u64) + Sync), _: &mut Tally) -> PResult<()> {
        Ok(())
    }
}

static BENCH: Bench = Bench;

fn app() -> App {
    let data: Vec<u8> = (0..0x10000u32).map(|i| (i * 31 % 256) as u8).collect();
    let src = Source::from_vec("bench.bin", data);
    let parsed =
        animscope::formats::open_as(&BENCH, Arc::new(src), &Limits::default()).unwrap_or_else(|_| unreachable!());
    let mut app = App::new(Opened::from_parsed(parsed, Vec::new()), Config::default());
    app.apply(Action::Down); // select clip[0]
    app.wait_idle();
    app.apply(Action::WalkNext);
    app.wait_idle();
    app
}

fn render(c: &mut Criterion) {
    let mut term = Terminal::new(TestBackend::new(200, 60)).unwrap_or_else(|_| unreachable!());
    let mut a = app();
    // full repaint: every cell differs from the previous frame
    c.bench_function("frame 200x60 all panes, full repaint", |b| {
        b.iter(|| {
            term.clear().ok();
            term.draw(|f| animscope::tui::draw(&mut a, f)).ok();
        })
    });
    // the usual case: build the frame, diff it, send only changed cells (here: none)
    c.bench_function("frame 200x60 all panes, redraw", |b| {
        b.iter(|| {
            term.draw(|f| animscope::tui::draw(&mut a, f)).ok();
        })
    });
    a.apply(Action::Zoom);
    for (action, name) in [
        (Action::FocusTree, "tree"),
        (Action::FocusHex, "hex"),
        (Action::FocusFields, "fields"),
        (Action::FocusDecode, "decode"),
        (Action::FocusWalk, "walk"),
        (Action::FocusDiagnostics, "diagnostics"),
    ] {
        a.apply(action);
        c.bench_function(&format!("pane {name} 200x60"), |b| {
            b.iter(|| {
                term.draw(|f| animscope::tui::draw(&mut a, f)).ok();
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = config::short();
    targets = render
}
criterion_main!(benches);
