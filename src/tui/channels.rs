//! The decode pane's channel list: which of a clip's channels are listed (a filter typed
//! as you go: every word a case-insensitive part of the channel's or its bone's name),
//! how they are grouped (a bone row above the channels of a bone that has several), and
//! which are drawn. The choice of drawn channels is remembered by channel name, so the
//! next clip of the same skeleton (one sharing channel names) starts with the same
//! channels on; a clip sharing none starts with its first four.

use crate::model::anim::{Clip, Track};
use std::collections::HashMap;

/// Channels drawn when a clip is first shown and nothing was chosen: the first four.
pub const DEFAULT_ON: usize = 4;

/// A row of the channel list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A bone with several channels listed: its name and its listed channels.
    Bone(String, Vec<usize>),
    /// A channel (track index); `grouped` when it is listed under a bone row.
    Chan {
        /// Track index.
        index: usize,
        /// Listed under its bone's row (drawn indented, without the bone's name).
        grouped: bool,
    },
}

/// The filter and the remembered choice (kept across clips).
#[derive(Debug, Default, Clone)]
pub struct ChannelChoice {
    /// The filter as typed (empty: every channel).
    pub filter: String,
    /// Channel name → drawn, for every channel of a clip whose choice the user changed.
    pub chosen: HashMap<String, bool>,
}

/// Whether `t` is listed under `filter`.
pub fn matches(t: &Track, filter: &str) -> bool {
    let name = t.name.to_lowercase();
    let target = t.target.to_lowercase();
    filter.split_whitespace().map(str::to_lowercase).all(|w| name.contains(&w) || target.contains(&w))
}

/// Whether `t` moves: its finite samples are not all the same value.
pub fn animated(t: &Track) -> bool {
    let mut it = t.samples.iter().filter(|v| v.is_finite());
    let Some(first) = it.next() else { return false };
    it.any(|v| (v - first).abs() > 1e-9)
}

/// The rows listed for `clip` under `filter`: channels in track order, a bone row above
/// each run of two or more listed channels of one bone.
pub fn rows(clip: &Clip, filter: &str) -> Vec<Row> {
    let listed: Vec<usize> = (0..clip.tracks.len()).filter(|&i| matches(&clip.tracks[i], filter)).collect();
    let mut out = Vec::with_capacity(listed.len() + 8);
    let mut k = 0;
    while k < listed.len() {
        let target = &clip.tracks[listed[k]].target;
        let mut end = k + 1;
        while end < listed.len() && !target.is_empty() && clip.tracks[listed[end]].target == *target {
            end += 1;
        }
        let run = &listed[k..end];
        let grouped = run.len() > 1;
        if grouped {
            out.push(Row::Bone(target.clone(), run.to_vec()));
        }
        out.extend(run.iter().map(|&index| Row::Chan { index, grouped }));
        k = end;
    }
    out
}

/// The name a channel row shows: under its bone's row, without the bone's name.
pub fn short_name(t: &Track, grouped: bool) -> &str {
    let rest = t.name.strip_prefix(t.target.as_str()).map(|r| r.trim_start_matches(['.', '_', ':', ' ']));
    match rest {
        Some(r) if grouped && !t.target.is_empty() && !r.is_empty() => r,
        _ => &t.name,
    }
}

impl ChannelChoice {
    /// The channels drawn when `clip` is first shown: the remembered choice when the clip
    /// shares channel names with it and any of them was on, else the first four.
    pub fn initial(&self, clip: &Clip) -> Vec<bool> {
        let remembered: Vec<bool> =
            clip.tracks.iter().map(|t| self.chosen.get(&t.name).copied().unwrap_or(false)).collect();
        if remembered.iter().any(|on| *on) {
            return remembered;
        }
        (0..clip.tracks.len()).map(|i| i < DEFAULT_ON).collect()
    }

    /// Remember the drawn channels of `clip` (the user changed them).
    pub fn remember(&mut self, clip: &Clip, enabled: &[bool]) {
        for (t, on) in clip.tracks.iter().zip(enabled) {
            self.chosen.insert(t.name.clone(), *on);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::anim::Unit;

    fn track(name: &str, target: &str, samples: &[f64]) -> Track {
        Track {
            name: name.into(),
            target: target.into(),
            unit: Unit::Radians,
            keys: Vec::new(),
            samples: samples.to_vec(),
            unknown: false,
        }
    }

    fn clip() -> Clip {
        let mut c = Clip::new("c", 30.0, 2);
        c.tracks.push(track("Root.px", "Root", &[0.0, 1.0]));
        c.tracks.push(track("Root.py", "Root", &[2.0, 2.0]));
        c.tracks.push(track("Leg_L.rx", "Leg_L", &[0.0, 0.5]));
        c.tracks.push(track("Leg_R.rx", "Leg_R", &[0.0, 0.0]));
        c.tracks.push(track("Leg_R.ry", "Leg_R", &[f64::NAN, 1.0]));
        c
    }

    #[test]
    fn bones_with_several_channels_get_a_row_and_filters_match_every_word() {
        let c = clip();
        let r = rows(&c, "");
        assert_eq!(r[0], Row::Bone("Root".into(), vec![0, 1]));
        assert_eq!(r[1], Row::Chan { index: 0, grouped: true });
        assert_eq!(r[3], Row::Chan { index: 2, grouped: false });
        assert_eq!(r[4], Row::Bone("Leg_R".into(), vec![3, 4]));
        assert_eq!(r.len(), 7);
        assert_eq!(short_name(&c.tracks[0], true), "px");
        assert_eq!(short_name(&c.tracks[0], false), "Root.px");
        let r = rows(&c, "leg rx");
        assert_eq!(r, vec![Row::Chan { index: 2, grouped: false }, Row::Chan { index: 3, grouped: false }]);
        assert!(rows(&c, "nothing").is_empty());
    }

    #[test]
    fn animated_means_the_finite_samples_differ() {
        let c = clip();
        let moving: Vec<bool> = c.tracks.iter().map(animated).collect();
        assert_eq!(moving, vec![true, false, true, false, false]);
    }

    #[test]
    fn a_choice_carries_to_clips_sharing_channel_names() {
        let c = clip();
        let mut choice = ChannelChoice::default();
        assert_eq!(choice.initial(&c), vec![true, true, true, true, false]);
        choice.remember(&c, &[false, false, false, false, true]);
        let mut other = Clip::new("d", 30.0, 2);
        other.tracks.push(track("Spine.rx", "Spine", &[0.0, 1.0]));
        other.tracks.push(track("Leg_R.ry", "Leg_R", &[0.0, 1.0]));
        assert_eq!(choice.initial(&other), vec![false, true]);
        let mut unrelated = Clip::new("e", 30.0, 2);
        unrelated.tracks.push(track("a", "", &[0.0, 1.0]));
        assert_eq!(choice.initial(&unrelated), vec![true]);
    }
}
