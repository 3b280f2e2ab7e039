//! `plot`: channels as ASCII curves with textplots.

use crate::model::anim::Clip;
use textplots::{Chart, Plot, Shape};

/// Smallest chart textplots draws sensibly; below this we print a note instead.
pub const MIN_WIDTH: u32 = 32;
/// Smallest useful height.
pub const MIN_HEIGHT: u32 = 8;

/// Render the named channels of `clip` over its logical frames; unknown names are errors.
pub fn render(clip: &Clip, channels: &[String], width: u32, height: u32) -> Result<String, String> {
    if width < MIN_WIDTH || height < MIN_HEIGHT {
        return Err(format!("plot too small: {width}x{height} (at least {MIN_WIDTH}x{MIN_HEIGHT})"));
    }
    let mut out = String::new();
    for name in channels {
        let t = clip.track(name).ok_or_else(|| {
            let names: Vec<&str> = clip.tracks.iter().map(|t| t.name.as_str()).collect();
            format!("no channel {name}; channels: {}", names.join(", "))
        })?;
        let pts: Vec<(f32, f32)> = t.samples.iter().enumerate().map(|(i, v)| (i as f32, *v as f32)).collect();
        let xmax = (pts.len().max(2) - 1) as f32;
        let (lo, hi) = t.samples.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(*v), b.max(*v)));
        out.push_str(&format!(
            "{} [{}] frames 0..{} @{} Hz  min {} max {}\n",
            crate::model::sanitize(&t.name),
            t.unit,
            pts.len().saturating_sub(1),
            clip.fps,
            crate::model::fmt_num(lo),
            crate::model::fmt_num(hi)
        ));
        if pts.len() < 2 || !(lo.is_finite() && hi.is_finite()) {
            out.push_str("(fewer than two finite samples: nothing to plot)\n");
            continue;
        }
        // A flat line gives textplots a zero y-range; pad it.
        let (ylo, yhi) = if hi > lo { (lo as f32, hi as f32) } else { (lo as f32 - 1.0, hi as f32 + 1.0) };
        let mut chart = Chart::new_with_y_range(width, height, 0.0, xmax, ylo, yhi);
        let shape = Shape::Lines(&pts);
        let c = chart.lineplot(&shape);
        c.axis();
        c.figures();
        out.push_str(&format!("{c}\n"));
    }
    Ok(out)
}
