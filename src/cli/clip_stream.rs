//! `decode --json` written as it goes: the same bytes as [`crate::wire::Decode`]
//! printed compactly (keys in sorted order, as `serde_json`'s map keeps them), without
//! building that value: a 32,767-frame sequence of hundreds of tracks is serialised track
//! by track from the decoded clip. A clip whose tracks and table rows are made on demand
//! ([`Clip::tracks_on_demand`]) has each track made as it is written, so the memory is one
//! track's, not the clip's.

use crate::model::anim::{Clip, Key, Table, Track, TracksOnDemand};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::io::Write;

struct ClipJson<'a>(&'a Clip);
/// A track, with its index among the clip's and the maker of its keys and samples when
/// they are made on demand.
struct TrackJson<'a>(&'a Track, usize, Option<&'a TracksOnDemand>);
struct KeyJson<'a>(&'a Key);
/// A table, with its index and the maker of its rows when they are made on demand.
struct TableJson<'a>(&'a Table, usize, Option<&'a TracksOnDemand>);
/// Rows `0..n` of table `t`, made on demand.
struct RowsJson<'a>(&'a TracksOnDemand, usize, usize);

/// A slice serialised as a sequence of its elements wrapped by `W` (one impl for the
/// tables, tracks and keys).
struct Each<'a, T, W>(&'a [T], fn(&'a T) -> W);

impl<'a, T, W: Serialize> Serialize for Each<'a, T, W> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(self.1))
    }
}

/// A slice serialised as a sequence of its elements and their indexes wrapped by `W`.
struct Indexed<'a, T, F>(&'a [T], F);

impl<'a, T, W: Serialize, F: Fn(&'a T, usize) -> W> Serialize for Indexed<'a, T, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().enumerate().map(|(i, t)| (self.1)(t, i)))
    }
}

impl Serialize for RowsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((0..self.2).map(|r| self.0.row(self.1, r)))
    }
}

impl Serialize for ClipJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let mut m = s.serialize_map(Some(6))?;
        m.serialize_entry("fps", &c.fps)?;
        m.serialize_entry("frame_count", &c.frame_count)?;
        m.serialize_entry("name", &c.name)?;
        m.serialize_entry("notes", &c.notes)?;
        let lazy = c.tracks_on_demand.as_ref();
        m.serialize_entry("tables", &Indexed(&c.tables, |t, i| TableJson(t, i, lazy)))?;
        m.serialize_entry("tracks", &Indexed(&c.tracks, |t, i| TrackJson(t, i, lazy)))?;
        m.end()
    }
}

impl Serialize for TableJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("columns", &self.0.columns)?;
        m.serialize_entry("name", &self.0.name)?;
        match self.2 {
            Some(lazy) => m.serialize_entry("rows", &RowsJson(lazy, self.1, lazy.row_count(self.1)))?,
            None => m.serialize_entry("rows", &self.0.rows)?,
        }
        m.end()
    }
}

impl Serialize for TrackJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let made = self.2.map(|lazy| lazy.track(self.1));
        let (keys, samples) = match &made {
            Some((k, s)) => (k, s),
            None => (&t.keys, &t.samples),
        };
        let mut m = s.serialize_map(Some(6))?;
        m.serialize_entry("keys", &Each(keys, KeyJson))?;
        m.serialize_entry("name", &t.name)?;
        m.serialize_entry("samples", samples)?;
        m.serialize_entry("target", &t.target)?;
        m.serialize_entry("unit", &t.unit.to_string())?;
        m.serialize_entry("unknown", &t.unknown)?;
        m.end()
    }
}

impl Serialize for KeyJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("detail", &self.0.detail)?;
        m.serialize_entry("frame", &self.0.frame)?;
        m.serialize_entry("value", &self.0.value)?;
        m.end()
    }
}

/// Write `decode --json`'s one line for `c` to `out` (newline included), streamed.
pub fn write_clip_json(c: &Clip, out: &mut dyn Write) -> std::io::Result<()> {
    // The serializer writes a few bytes at a time (a brace, a key, a number): into a buffer
    // of its own type they are a copy each, where `out` (a writer behind a `dyn`, capped
    // and buffered again) costs a call chain each. 64 KiB reach `out` at a time.
    let mut buf = std::io::BufWriter::with_capacity(1 << 16, &mut *out);
    let mut ser = serde_json::Serializer::new(&mut buf);
    ClipJson(c).serialize(&mut ser).map_err(std::io::Error::other)?;
    buf.write_all(b"\n")?;
    buf.flush()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::anim::Unit;

    /// The streamed line is byte for byte what printing the built value gives (the schema
    /// docs/GUIDE.md documents), non-finite samples included (JSON null).
    #[test]
    fn streamed_json_equals_the_value() {
        let mut c = Clip::new("seq \"A\"\u{1b}", 30.0, 3);
        c.notes.push("note".into());
        c.tables.push(Table { name: "t".into(), columns: vec!["a".into()], rows: vec![vec!["1".into()]] });
        let mut t = Track {
            name: "root.x".into(),
            target: "root".into(),
            unit: Unit::Metres,
            keys: Vec::new(),
            samples: Vec::new(),
            unknown: false,
        };
        t.keys.push(Key { frame: 0.0, value: 0.25, detail: "k".into() });
        t.samples = vec![0.1, f64::NAN, 1e300];
        c.tracks.push(t);
        let mut out = Vec::new();
        write_clip_json(&c, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("{}\n", crate::wire::Decode::new(&c)));
    }

    /// SC6 clips decoded with their tracks and word table made on demand print the same
    /// bytes as the stored clip, on every SC6 fixture clip, for each stream, the root-only
    /// reading, curves only, and a key limit that cuts the word table and omits the keys.
    #[test]
    fn on_demand_tracks_print_what_stored_tracks_print() {
        use crate::formats::DecodeOptions;
        use crate::limits::Limits;
        let sc6 = crate::formats::sc6::Sc6;
        let small = Limits { max_keys: 40, ..Limits::default() };
        let mut compared = 0;
        for (name, bytes) in crate::fixtures::all().into_iter().filter(|(n, _)| n.starts_with("sc6/")) {
            for slot in 0..8 {
                let key = format!("clip:{slot}");
                for (opts, limits) in [
                    (DecodeOptions::default(), Limits::default()),
                    (DecodeOptions { stream: Some("alternate".into()), ..DecodeOptions::default() }, Limits::default()),
                    (
                        DecodeOptions { stream: Some("skill-check".into()), ..DecodeOptions::default() },
                        Limits::default(),
                    ),
                    (DecodeOptions { curves_only: true, ..DecodeOptions::default() }, Limits::default()),
                    (DecodeOptions::default(), small),
                    (
                        DecodeOptions {
                            extra: [("root_only".to_string(), "1".to_string())].into_iter().collect(),
                            ..DecodeOptions::default()
                        },
                        Limits::default(),
                    ),
                ] {
                    let Ok(stored) = sc6.decode(&bytes, &key, &opts, &limits) else { continue };
                    let lazy_opts = DecodeOptions { tracks_on_demand: true, ..opts.clone() };
                    let lazy = sc6.decode(&bytes, &key, &lazy_opts, &limits).unwrap();
                    assert!(lazy.tracks_on_demand.is_some(), "{name} {key}");
                    assert!(lazy.tracks.iter().all(|t| t.samples.is_empty() && t.keys.is_empty()), "{name} {key}");
                    assert!(lazy.tables.iter().all(|t| t.rows.is_empty()), "{name} {key}");
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    write_clip_json(&stored, &mut a).unwrap();
                    write_clip_json(&lazy, &mut b).unwrap();
                    assert!(a == b, "{name} {key} {opts:?}: on-demand JSON differs");
                    assert_eq!(
                        String::from_utf8(a).unwrap(),
                        format!("{}\n", crate::wire::Decode::new(&stored)),
                        "{name} {key}"
                    );
                    // the poses are the same, made frame by frame
                    assert_eq!(lazy.pose_frames(), stored.pose_frames(), "{name} {key}");
                    for f in [0, stored.pose_frames() / 2, stored.pose_frames().saturating_sub(1)] {
                        assert_eq!(lazy.pose_frame(f), stored.pose_frame(f), "{name} {key} frame {f}");
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared >= 20, "only {compared} clips compared");
    }
}
