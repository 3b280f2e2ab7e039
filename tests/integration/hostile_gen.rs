//! Generators of the hostile input classes of the resource audit, each at most 1 MiB, made
//! with the formats' own writers plus byte edits (nothing is committed as a file). The
//! bounded-run test (`hostile_run.rs`) runs every verb on each; `write_hostile_inputs`
//! (ignored) writes them to `$HOSTILE_OUT` for measuring by hand.

use animscope::formats::gzarc::write::{archive, gzip_member};
use animscope::formats::motn::write::{
    Channel, ChannelSpec, KeySpec, KeyValues, NodeSpec, SequenceSpec, encode_file, encode_sequence,
};
use animscope::formats::sc6::write::{ClipSpec, encode_bank, encode_clip, encoded_count, stream_words};

/// Size of a MOTN sequence header plus Block 1 for `nodes` instructions (docs/formats/motn.md#blocks-25:
/// `b2 = 12 + 2·(n_instr + 1)`).
fn head_len(nodes: usize) -> usize {
    12 + 2 * (nodes + 1)
}

/// A standard sequence of `frames` frames, nodes `0..nodes`, six channels each (Px..Rz),
/// each channel with its first key, `inter` intermediate keys at frames 1..=inter and its
/// last key, every key storing one value.
fn dense_sequence(frames: u16, nodes: u8, inter: u16) -> Vec<u8> {
    let last = frames - 1;
    let chans = [Channel::Px, Channel::Py, Channel::Pz, Channel::Rx, Channel::Ry, Channel::Rz];
    let spec = SequenceSpec {
        frames,
        kind_word: 0,
        nodes: (0..nodes)
            .map(|node| NodeSpec {
                node,
                channels: chans
                    .iter()
                    .map(|&channel| ChannelSpec {
                        channel,
                        keys: std::iter::once(0)
                            .chain(1..=inter)
                            .chain(std::iter::once(last))
                            .map(|frame| KeySpec { frame, values: KeyValues::Value(0.25 + f32::from(frame) / 64.0) })
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
    };
    encode_sequence(&spec).expect("dense sequence encodes")
}

/// As many headers of sequence `s` (`nodes` nodes) as u16 offsets allow, each with its
/// Block 2–5 offsets moved forward so that, placed before `s` in order, they all point at
/// `s`'s blocks; named by `name(k)`.
fn headers_pointing_at(s: &[u8], nodes: usize, name: impl Fn(usize) -> String) -> Vec<(String, Vec<u8>)> {
    let h = head_len(nodes);
    let b = |at: usize| usize::from(u16::from_le_bytes([s[at], s[at + 1]]));
    let (b2, b3, b4, b5) = (b(4), b(6), b(8), b(10));
    assert_eq!(b2, h, "Block 2 follows Block 1");
    // Offsets are u16 from each sequence's start: the first header must reach Block 5.
    let count = (0xFFFF - b5) / h;
    (0..count)
        .map(|k| {
            let shift = (count - k) * h;
            let mut head = s[..h].to_vec();
            for (at, v) in [(4, b2), (6, b3), (8, b4), (10, b5)] {
                head[at..at + 2].copy_from_slice(&u16::try_from(v + shift).unwrap().to_le_bytes());
            }
            (name(k), head)
        })
        .collect()
}

/// Class 1 (shared regions): `groups` groups of sequences. In each, the last sequence is a
/// real dense one (127 nodes × 6 channels × 32 keys); every other sequence is that
/// sequence's header and Block 1 alone, with its Block 2–5 offsets moved forward so they
/// point at the last sequence's blocks. Every sequence decodes to the full key set while
/// the file holds the key data once per group. Legal-looking: the gaps between Block 1 and
/// Block 2 are only warnings.
pub fn motn_shared_regions(groups: usize) -> Vec<u8> {
    let nodes = 127u8;
    let s = dense_sequence(200, nodes, 30);
    let mut entries = Vec::new();
    for g in 0..groups {
        entries.extend(headers_pointing_at(&s, usize::from(nodes), |k| format!("SHARED_{g}_{k:03}")));
        // Unique bytes per group, so `encode_file` does not share the group's last one.
        let mut last = s.clone();
        last[2] = u8::try_from(g % 100).unwrap();
        entries.push((format!("SHARED_{g}_END"), last));
    }
    encode_file(&entries, None)
}

/// Class 2 (output amplification, MOTN): one sequence of 32,767 frames over 127 nodes,
/// three rotation channels each, two keys per channel: a few KB that decode to 381 tracks
/// of 32,767 samples.
pub fn motn_long_sequence() -> Vec<u8> {
    let last = 32_766u16;
    let spec = SequenceSpec {
        frames: 32_767,
        kind_word: 0,
        nodes: (0..127u8)
            .map(|node| NodeSpec {
                node,
                channels: [Channel::Rx, Channel::Ry, Channel::Rz]
                    .iter()
                    .map(|&channel| ChannelSpec {
                        channel,
                        keys: vec![
                            KeySpec { frame: 0, values: KeyValues::Value(0.0) },
                            KeySpec { frame: last, values: KeyValues::Value(0.5) },
                        ],
                    })
                    .collect(),
            })
            .collect(),
    };
    encode_file(&[("LONG_SEQ".to_string(), encode_sequence(&spec).unwrap())], None)
}

/// Class 2 (output amplification, SC6): a bank of one 65,535-frame clip (root and seven
/// body transforms on the default stream), smoothly varying words.
pub fn sc6_long_clip() -> Vec<u8> {
    let mask: u64 = (1 << 1) | (1 << 2) | (1 << 8) | (1 << 14) | (1 << 23) | (1 << 25) | (1 << 26) | (1 << 43);
    let frames = 65_535u16;
    let n = encoded_count(frames, 0);
    let words = stream_words("default", 0, mask).unwrap();
    let keys: Vec<Vec<i16>> =
        (0..n).map(|k| (0..words).map(|w| (((k as f64) * 0.01 + w as f64).sin() * 2000.0) as i16).collect()).collect();
    let clip = encode_clip(&ClipSpec::new(frames, 0, mask, keys)).unwrap();
    encode_bank(&[clip], &[0])
}

/// Class 2 (output amplification, CCSF): a scene of a `depth`-object parent chain whose
/// leaf one Anime of `frames` frames drives: every frame poses the whole chain, so the
/// poses are `frames × depth` matrices from a file of a few KB.
pub fn ccsf_long_anime(depth: usize, frames: u32) -> Vec<u8> {
    use animscope::formats::ccsf::write::{CcsFile, Chunk, Ctrl, write};
    let mut objects: Vec<(String, u16)> = (0..depth).map(|i| (format!("OBJ_{i}"), 1)).collect();
    objects.push(("ANM_long".into(), 1));
    let mut f = CcsFile {
        name: "long".into(),
        version: 0x100,
        frames: 0,
        files: Vec::new(),
        objects,
        chunks: vec![Chunk::Setup],
    };
    let ids: Vec<u32> = (0..depth).map(|i| f.obj(&format!("OBJ_{i}"))).collect();
    for (i, &id) in ids.iter().enumerate() {
        let parent = if i == 0 { 0 } else { ids[i - 1] };
        f.chunks.push(Chunk::Obj { object: id, parent, model: 0, shadow: 0 });
    }
    let leaf = ids[depth - 1];
    f.chunks.push(Chunk::Anime {
        object: f.obj("ANM_long"),
        frames,
        records: vec![
            Chunk::Top { frame: 0 },
            Chunk::ObjCtrl {
                object: leaf,
                pos: Ctrl::keys3(&[(0, [0.0, 0.0, 0.0]), (frames - 1, [1.0, 2.0, 3.0])]),
                rot: Ctrl::vec3([0.0, 0.0, 0.0]),
                scale: Ctrl::Absent,
                alpha: Ctrl::Absent,
            },
            Chunk::Top { frame: 0xffff_fffe },
        ],
    });
    f.chunks.extend([Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0xffff_ffff }]);
    write(&f)
}

/// gzip of `bytes` (FNAME `name`), as one plain `.gz` file.
pub fn gzip(name: &str, bytes: &[u8]) -> Vec<u8> {
    gzip_member(name, bytes, 0)
}

/// Class 3 (quadratic naming): a sector archive of `count` members all named `a.cmp`,
/// gzipped as a whole (the archive is a member of the outer gzip).
pub fn gzarc_duplicate_names(count: usize) -> Vec<u8> {
    let members: Vec<(String, Vec<u8>)> = (0..count).map(|_| ("a.cmp".to_string(), b"x".to_vec())).collect();
    gzip("DUP.BIN", &archive(&members))
}

/// Class 4 (SIGBUS): a mapped-size archive (≥ 1 MiB) whose members take a while to inflate
/// and to hash: `members` members of 1 MiB of noise each.
pub fn gzarc_big_members(members: usize) -> Vec<u8> {
    let mut rng = super::support::rng(19);
    let list: Vec<(String, Vec<u8>)> = (0..members)
        .map(|i| {
            let bytes: Vec<u8> = (0..(1 << 17)).flat_map(|_| rng.next().to_le_bytes()).collect();
            (format!("m{i:03}.bin"), bytes)
        })
        .collect();
    archive(&list)
}

/// Class 4 (SIGBUS), the slow kind: an archive of `members` members of 100 MiB of zeros
/// each (about 100 KiB compressed, so the file is mapped: ≥ 1 MiB for 11 or more),
/// whose inflation takes long enough to truncate the file in the middle of it.
pub fn gzarc_zero_members(members: usize) -> Vec<u8> {
    gzarc_zero_members_of(members, 100)
}

/// [`gzarc_zero_members`] with members of `mib` MiB of zeros each (about `mib` KiB
/// compressed).
pub fn gzarc_zero_members_of(members: usize, mib: usize) -> Vec<u8> {
    let one = gzip_member("z.bin", &vec![0u8; mib << 20], 0);
    let mut out = Vec::new();
    for _ in 0..members {
        out.extend_from_slice(&one);
        animscope::formats::gzarc::write::pad_to_sector(&mut out);
    }
    out
}

/// Class 1 (shared regions, many sequences): `per_group`-style headers of one node
/// (16 bytes each) all pointing at one region holding 6 channels × (`inter` + 2) keys, so
/// thousands of sequences each decode the whole region: the work and the retained keys
/// grow with sequences × region while the file holds the region once.
pub fn motn_shared_many(inter: u16) -> Vec<u8> {
    let s = dense_sequence(inter + 100, 1, inter);
    let mut entries = headers_pointing_at(&s, 1, |k| format!("S{k:04}"));
    entries.push(("S_END".to_string(), s));
    encode_file(&entries, None)
}

/// Class 5 (nested archives): a chain `depth` deep of one-member sector archives, each
/// member inflating to `zeros_mib` MiB: the next level's archive, then zeros. Written
/// streaming (no level is held inflated) at the fastest deflate level.
pub fn gzarc_nested_chain(depth: usize, zeros_mib: usize) -> Vec<u8> {
    use std::io::Write;
    let mut inner = hostile_leaf();
    for level in 0..depth {
        let total = zeros_mib << 20;
        let pad = total.saturating_sub(inner.len());
        let mut crc = flate2::Crc::new();
        let mut out = vec![0x1f, 0x8b, 8, 0x08, 0, 0, 0, 0, 0, 255];
        out.extend_from_slice(format!("L{level:02}.BIN").as_bytes());
        out.push(0);
        let mut enc = flate2::write::DeflateEncoder::new(out, flate2::Compression::fast());
        enc.write_all(&inner).unwrap();
        crc.update(&inner);
        let zeros = vec![0u8; 1 << 20];
        let mut left = pad;
        while left > 0 {
            let n = left.min(zeros.len());
            enc.write_all(&zeros[..n]).unwrap();
            crc.update(&zeros[..n]);
            left -= n;
        }
        let mut out = enc.finish().unwrap();
        out.extend_from_slice(&crc.sum().to_le_bytes());
        out.extend_from_slice(&(u32::try_from(inner.len() + pad).unwrap()).to_le_bytes());
        animscope::formats::gzarc::write::pad_to_sector(&mut out);
        inner = out;
    }
    inner
}

/// The innermost member of the nested chain: a small real MOTN file.
fn hostile_leaf() -> Vec<u8> {
    encode_file(&[("LEAF".to_string(), dense_sequence(10, 2, 2))], None)
}

/// Class 6 (huge keymaps): a keymap patch of `bindings` distinct two-chord sequences.
pub fn huge_keymap(bindings: usize) -> String {
    let mut s = String::from("name = \"huge\"\n");
    let letters: Vec<char> = ('a'..='z').collect();
    for i in 0..bindings {
        let (a, b, c) = (letters[i % 26], letters[(i / 26) % 26], letters[(i / 676) % 26]);
        s.push_str(&format!("[[bind]]\nkeys = \"ctrl-alt-{c} {b} {a}\"\naction = \"quit\"\ndesc = \"binding {i}\"\n"));
    }
    s
}

/// Class 7 (escape bytes): an archive whose one member is terminal escapes (OSC 0 retitles
/// the window, OSC 52 sets the clipboard).
pub fn gzarc_escape_member() -> Vec<u8> {
    archive(&[("esc.txt".to_string(), b"\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J".to_vec())])
}

/// Every class that is a file, by name, each at most 1 MiB.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    let shared = motn_shared_regions(1);
    vec![
        ("shared_regions.mot", shared.clone()),
        ("shared_regions_1m.mot", motn_shared_regions(7)),
        ("shared_regions.mot.gz", gzip("MOTION.BIN", &shared)),
        ("long_sequence.mot", motn_long_sequence()),
        ("long_clip.mot", sc6_long_clip()),
        ("duplicate_names.gz", gzarc_duplicate_names(32 * 1024)),
        ("long_anime.ccs", ccsf_long_anime(200, 18_000)),
        ("shared_many.mot", motn_shared_many(2000)),
    ]
}

#[test]
fn generated_classes_are_at_most_one_mebibyte() {
    for (name, bytes) in all() {
        assert!(bytes.len() <= 1 << 20, "{name}: {} bytes", bytes.len());
    }
}

/// Write the generated inputs to `$HOSTILE_OUT` (for measuring by hand; a temporary
/// directory when unset, so `cargo test -- --ignored` runs it too) and read them back.
#[test]
#[ignore = "writes the hostile inputs for measuring by hand: HOSTILE_OUT=dir cargo test write_hostile_inputs -- --ignored"]
fn write_hostile_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("HOSTILE_OUT").map_or_else(|| tmp.path().to_path_buf(), std::path::PathBuf::from);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = all();
    files.push(("big_members.BIN", gzarc_big_members(24)));
    files.push(("escape.BIN", gzarc_escape_member()));
    if std::env::var_os("HOSTILE_OUT").is_some() {
        // deflating 20 and 40 levels of 127 MiB of zeros takes minutes: by hand only
        files.push(("nested20.BIN", gzarc_nested_chain(20, 127)));
        files.push(("nested40.BIN", gzarc_nested_chain(40, 127)));
        files.push(("keymap20k.toml", huge_keymap(20_000).into_bytes()));
    }
    for (name, bytes) in &files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        assert_eq!(std::fs::read(&p).unwrap().len(), bytes.len(), "{}", p.display());
    }
    eprintln!("hostile inputs written to {}", dir.display());
}
