//! `plot`: channels as ASCII curves with textplots, in the size asked for (characters, y
//! labels included) and labelled with as many significant digits as tell the ends apart.

use crate::model::anim::Clip;
use textplots::{Chart, Plot, Shape};

/// Smallest chart textplots draws sensibly; below this we print a note instead.
pub const MIN_WIDTH: u32 = 32;
/// Smallest useful height.
pub const MIN_HEIGHT: u32 = 8;

/// `v` with `sig` significant digits, trailing zeros dropped (`1.10` → `1.1`, never
/// exponent notation for the magnitudes channels have).
pub fn sig(v: f64, sig: u32) -> String {
    if v == 0.0 {
        // also a negative zero, which `{v}` would print as `-0`
        return "0".into();
    }
    if !v.is_finite() {
        return format!("{v}");
    }
    let mag = v.abs().log10().floor() as i32;
    let decimals = (i32::try_from(sig).unwrap_or(6) - 1 - mag).clamp(0, 15) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if s == "-0" { "0".into() } else { s }
}

/// Labels for the two ends of a y range: the fewest significant digits (at least 3) that
/// show `lo` and `hi` differently.
pub fn end_labels(lo: f64, hi: f64) -> (String, String) {
    for digits in 3..=12 {
        let (a, b) = (sig(lo, digits), sig(hi, digits));
        if a != b {
            return (a, b);
        }
    }
    (sig(lo, 12), sig(hi, 12))
}

/// The braille cells of one textplots row (its own labels dropped).
fn canvas_cells(line: &str) -> String {
    line.chars().filter(|c| ('\u{2800}'..='\u{28ff}').contains(c)).collect()
}

/// Render the named channels of `clip` over its logical frames; unknown names are errors.
/// Each chart is `width` characters wide (y labels included) and `height` lines tall (the
/// frame numbers' line included).
pub fn render(clip: &Clip, channels: &[String], width: u32, height: u32) -> Result<String, String> {
    if width < MIN_WIDTH || height < MIN_HEIGHT {
        return Err(format!("plot too small: {width}x{height} (at least {MIN_WIDTH}x{MIN_HEIGHT})"));
    }
    let mut out = String::new();
    for name in channels {
        let t = clip.track(name).ok_or_else(|| {
            let names: Vec<&str> = clip.tracks.iter().map(|t| t.name.as_str()).collect();
            let hint = crate::text::did_you_mean(name, names.iter().copied())
                .map(|n| format!("; did you mean {n}?"))
                .unwrap_or_default();
            format!("no channel {name}{hint} (channels: {})", names.join(", "))
        })?;
        let pts: Vec<(f32, f32)> = t.samples.iter().enumerate().map(|(i, v)| (i as f32, *v as f32)).collect();
        let last = pts.len().saturating_sub(1);
        let (lo, hi) = t.samples.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(*v), b.max(*v)));
        let (lo_s, hi_s) = if lo < hi { end_labels(lo, hi) } else { (sig(lo, 6), sig(hi, 6)) };
        out.push_str(&format!(
            "{} [{}] frames 0..{last} @{} Hz  min {lo_s} max {hi_s}\n",
            crate::model::sanitize(&t.name),
            t.unit,
            clip.fps,
        ));
        if pts.len() < 2 || !(lo.is_finite() && hi.is_finite()) {
            out.push_str("(fewer than two finite samples: nothing to plot)\n");
            continue;
        }
        // y labels: the two ends, or for a constant channel its value on the middle row
        // (a flat line is drawn in the middle of a small padded range)
        let flat = hi <= lo;
        let (top, bottom) = if flat { (String::new(), String::new()) } else { (hi_s.clone(), lo_s.clone()) };
        let middle = if flat { format!("{lo_s} (constant)") } else { String::new() };
        let lw = top.chars().count().max(bottom.chars().count()).max(middle.chars().count());
        // (textplots needs 32 dots across; a dot count of 2n - 1 fills exactly n cells)
        let cols = width.saturating_sub(lw as u32 + 1).max(17);
        let rows = height - 1;
        let pad = if flat { (lo.abs() * 0.1).max(1e-3) } else { 0.0 };
        let (ylo, yhi) = ((lo - pad) as f32, (hi + pad) as f32);
        let mut chart = Chart::new_with_y_range(cols * 2 - 1, rows * 4 - 1, 0.0, last as f32, ylo, yhi);
        let shape = Shape::Lines(&pts);
        let c = chart.lineplot(&shape);
        c.figures();
        let drawn = c.to_string();
        let mid = (rows / 2) as usize;
        for (i, line) in drawn.lines().take(rows as usize).enumerate() {
            let label = match i {
                0 => &top,
                i if i + 1 == rows as usize => &bottom,
                i if i == mid => &middle,
                _ => "",
            };
            out.push_str(&format!("{label:>lw$} {}\n", canvas_cells(line)));
        }
        let first = "0".to_string();
        let end = last.to_string();
        let gap = (cols as usize).saturating_sub(first.len() + end.len());
        out.push_str(&format!("{:lw$} {first}{:gap$}{end}\n", "", ""));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::anim::{Track, Unit};

    fn clip(samples: Vec<f64>) -> Clip {
        let mut c = Clip::new("c", 30.0, samples.len());
        c.tracks.push(Track {
            name: "root.y".into(),
            target: "root".into(),
            unit: Unit::Metres,
            keys: Vec::new(),
            samples,
            unknown: false,
        });
        c
    }

    #[test]
    fn significant_digits() {
        assert_eq!(sig(1.104, 3), "1.1");
        assert_eq!(sig(1.144, 3), "1.14");
        assert_eq!(sig(0.000_123_45, 3), "0.000123");
        assert_eq!(sig(-23.763, 3), "-23.8");
        assert_eq!(sig(-0.0, 3), "0");
        assert_eq!(sig(0.0, 3), "0");
        assert_eq!(sig(1_136.930_606, 3), "1137");
        assert_eq!(end_labels(1.104, 1.144), ("1.1".to_string(), "1.14".to_string()));
        assert_eq!(end_labels(1.089_843_75, 1.136_930_606_460_048), ("1.09".to_string(), "1.14".to_string()));
        assert_eq!(end_labels(2.0001, 2.0002), ("2.0001".to_string(), "2.0002".to_string()));
    }

    #[test]
    fn the_chart_has_the_size_asked_for() {
        let c = clip((0..37).map(|f| 1.104 + 0.04 * (f64::from(f) / 36.0)).collect());
        let s = render(&c, &["root.y".into()], 60, 10).unwrap();
        let lines: Vec<&str> = s.lines().collect();
        // header, then 10 lines: 9 of curve and one of frame numbers
        assert_eq!(lines.len(), 11, "{s}");
        assert_eq!(lines[0], "root.y [m] frames 0..36 @30 Hz  min 1.1 max 1.14");
        for l in &lines[1..] {
            assert!(l.chars().count() <= 60, "{l:?} wider than 60");
        }
        assert_eq!(lines[1].chars().count(), 60, "{s}");
        assert!(lines[1].starts_with("1.14 "), "{s}");
        assert!(lines[9].starts_with(" 1.1 "), "{s}");
        assert!(lines[10].trim_start().starts_with('0') && lines[10].ends_with("36"), "{s}");
    }

    #[test]
    fn a_constant_channel_is_labelled_with_its_value() {
        let c = clip(vec![0.25; 10]);
        let s = render(&c, &["root.y".into()], 40, 8).unwrap();
        assert!(s.starts_with("root.y [m] frames 0..9 @30 Hz  min 0.25 max 0.25\n"), "{s}");
        assert!(s.contains("0.25 (constant) "), "{s}");
        assert!(!s.contains("-1") && !s.contains("1.0"), "no made-up range labels: {s}");
    }
}
