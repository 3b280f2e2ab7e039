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
pub fn dense_sequence(frames: u16, nodes: u8, inter: u16) -> Vec<u8> {
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

/// A standard sequence of `frames` frames over nodes `0..nodes`, three rotation channels
/// each with two keys (0 at the first frame, 0.5 at the last): a few bytes a channel whose
/// curves have a sample at every frame.
pub fn two_key_rotations(frames: u16, nodes: u8) -> SequenceSpec {
    let last = frames - 1;
    SequenceSpec {
        frames,
        kind_word: 0,
        nodes: (0..nodes)
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
    }
}

/// Class 2 (output amplification, MOTN): one sequence of 32,767 frames over 127 nodes,
/// three rotation channels each, two keys per channel: a few KB that decode to 381 tracks
/// of 32,767 samples.
pub fn motn_long_sequence() -> Vec<u8> {
    let spec = two_key_rotations(32_767, 127);
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

/// Class 4 (SIGBUS), streaming: an archive of `members` members of 1 KiB of noise each
/// (a sector each: 4,000 make 8 MiB, mapped), whose `tree --fields` prints megabytes.
pub fn gzarc_small_members(members: usize) -> Vec<u8> {
    let mut rng = super::support::rng(23);
    let list: Vec<(String, Vec<u8>)> = (0..members)
        .map(|i| (format!("s{i:05}.bin"), (0..128).flat_map(|_| rng.next().to_le_bytes()).collect()))
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
pub fn hostile_leaf() -> Vec<u8> {
    encode_file(&[("LEAF".to_string(), dense_sequence(10, 2, 2))], None)
}

/// Class 6 (huge keymaps): a keymap patch of `bindings` distinct four-chord sequences
/// (none the prefix of another), about 51 bytes each: 20,000 fit in 1 MiB.
pub fn huge_keymap(bindings: usize) -> String {
    let mut s = String::from("name = \"huge\"\n");
    let letters: Vec<char> = ('a'..='z').collect();
    for i in 0..bindings {
        let [a, b, c, d] = [1, 26, 26 * 26, 26 * 26 * 26].map(|unit| letters[(i / unit) % 26]);
        s.push_str(&format!("[[bind]]\nkeys = \"ctrl-alt-{d} {c} {b} {a}\"\naction = \"quit\"\n"));
    }
    s
}

/// Class 7 (escape bytes): an archive whose one member is terminal escapes (OSC 0 retitles
/// the window, OSC 52 sets the clipboard).
pub fn gzarc_escape_member() -> Vec<u8> {
    archive(&[("esc.txt".to_string(), b"\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J".to_vec())])
}

/// A CCSF scene made by the project's writer (the `mini` scene: one textured quad) whose
/// Model's vertex scale is +Inf: every vertex is non-finite, so OBJ must refuse it exactly
/// as glTF does (an OBJ of `v NaN NaN NaN` was written before).
pub fn ccsf_infinite_scale() -> Vec<u8> {
    use animscope::formats::ccsf::write::{Chunk, mini, write};
    let mut f = mini();
    for c in &mut f.chunks {
        if let Chunk::Model(m) = c {
            m.scale = f32::INFINITY;
        }
    }
    write(&f)
}

/// A committed fixture as the project's writers make it (`fixtures/PATH`).
fn fixture(path: &str) -> Vec<u8> {
    animscope::fixtures::all().into_iter().find(|(p, _)| p == path).map(|(_, b)| b).expect("a generated fixture")
}

/// What a class puts in its directory, by relative path.
pub enum Entry {
    /// A regular file of these bytes.
    File(Vec<u8>),
    /// A FIFO no one writes to (opening it for reading would block).
    Fifo,
    /// A directory.
    Dir,
    /// A sparse regular file of this many bytes (holes: no disk, no memory to make).
    Sparse(u64),
    /// A symbolic link to this device (`/dev/zero` reads forever, `/dev/null` is the
    /// system's): a device named in the class's own directory, and were a refusal to
    /// fail, only the link would be replaced.
    Link(&'static str),
}

/// How a run must end.
pub enum Expect {
    /// The clear error: exit 2 and `lines` lines on stderr, each starting `animscope: `,
    /// the first naming `names` and saying `says`; the class's directory is left exactly
    /// as it was (no file written, none replaced, no temp file left).
    Refused { names: &'static str, says: &'static str, lines: usize },
    /// Success (exit 0) with these bytes among what reached the terminal (stdout a pty).
    WroteToTty(&'static [u8]),
    /// Ends by itself within bounds: exit 0 or 1, or the clear error (exit 2, one line);
    /// at most 256 MiB peak RSS, and under `--limit memory=8M` at most 64 MiB unless it
    /// stopped with the budget error; CPU time under a guard (`RLIMIT_CPU`).
    Bounded,
}

/// One run of `animscope ARGS` in the class's directory.
pub struct Run {
    /// The arguments.
    pub args: Vec<String>,
    /// Its standard output is a terminal (a pty), not a file.
    pub to_tty: bool,
    /// How it must end.
    pub expect: Expect,
}

/// One hostile class: what it puts in a directory of its own, the input every verb is run
/// on (if any), and its own runs.
pub struct Class {
    /// Its name, in failures.
    pub name: &'static str,
    /// Made in order (a directory before what is in it).
    pub entries: Vec<(String, Entry)>,
    /// Every verb of the matrix (`hostile_run::verbs`) runs on this input, bounded.
    pub every_verb_on: Option<String>,
    /// The class's own runs.
    pub runs: Vec<Run>,
}

impl Class {
    /// A class that is one input file: every verb runs on it.
    fn input(name: &'static str, bytes: Vec<u8>) -> Class {
        Class {
            name,
            entries: vec![(name.to_string(), Entry::File(bytes))],
            every_verb_on: Some(name.into()),
            runs: vec![],
        }
    }
}

fn run(args: &[&str], expect: Expect) -> Run {
    Run { args: args.iter().map(|a| a.to_string()).collect(), to_tty: false, expect }
}

fn refused(names: &'static str, says: &'static str) -> Expect {
    Expect::Refused { names, says, lines: 1 }
}

/// Output targets that are not regular files (FIFOs, a device, directories), `--force` or
/// not, for every kind of export and for extract: refused, naming the target, which is
/// left as it was.
fn output_targets() -> Class {
    let says = "exports replace regular files only";
    let mut runs = Vec::new();
    for force in [&["--force"][..], &[]] {
        for (args, names) in [
            (&["export", "in.mot", "-o", "fifo.json"][..], "fifo.json"),
            (&["export", "in.mot", "-o", "null.json"][..], "null.json"),
            (&["export", "in.mot", "-o", "dir.json"][..], "dir.json"),
            (&["export", "in.mot", "--gltf", "-o", "fifo.glb"][..], "fifo.glb"),
            (&["export", "rig.ccs", "--obj", "-o", "fifo.obj"][..], "fifo.obj"),
            (&["export", "rig.ccs", "--obj", "-o", "null.obj"][..], "null.obj"),
            (&["export", "rig.ccs", "--anime", "ANM_wave", "-o", "dir.glb"][..], "dir.glb"),
            (&["extract", "ESC.BIN", "esc.txt", "-o", "fifo.bin"][..], "fifo.bin"),
            (&["extract", "ESC.BIN", "esc.txt", "-o", "null.bin"][..], "null.bin"),
        ] {
            let mut a = args.to_vec();
            a.extend_from_slice(force);
            runs.push(run(&a, refused(names, says)));
        }
    }
    let mut entries = vec![
        ("in.mot".to_string(), Entry::File(hostile_leaf())),
        ("rig.ccs".to_string(), Entry::File(fixture("ccsf/g123rig.ccs"))),
        ("ESC.BIN".to_string(), Entry::File(gzarc_escape_member())),
    ];
    for n in ["fifo.json", "fifo.glb", "fifo.obj", "fifo.bin"] {
        entries.push((n.into(), Entry::Fifo));
    }
    for n in ["null.json", "null.obj", "null.bin"] {
        entries.push((n.into(), Entry::Link("/dev/null")));
    }
    for n in ["dir.json", "dir.glb"] {
        entries.push((n.into(), Entry::Dir));
    }
    Class { name: "output_targets", entries, every_verb_on: None, runs }
}

/// Side files that are a FIFO (opening it would block) or `/dev/zero` (reading it never
/// ends): a keymap, a layout in a layouts directory, a skeleton, a frame file. Each is
/// refused at once, naming it. (The keymap's refusal is said, then that the TUI needs a
/// terminal: two lines.)
fn side_files() -> Class {
    let mut runs = Vec::new();
    for (side, kind) in [("fifo", "not a regular file (fifo)"), ("zero", "not a regular file (character device)")] {
        let with = |n: &[&str]| n.iter().map(|a| a.replace("SIDE", side)).collect::<Vec<String>>();
        let named: &'static str = if side == "fifo" { "fifo" } else { "zero" };
        let layout: &'static str = if side == "fifo" { "layouts_fifo/a.toml" } else { "layouts_zero/a.toml" };
        for (args, names, lines_out) in [
            (with(&["--keymap", "SIDE", "in.mot"]), named, 2),
            (with(&["--layouts", "layouts_SIDE", "tree", "in.mot"]), layout, 1),
            (with(&["export", "in.mot", "--skeleton", "SIDE", "-o", "x.json"]), named, 1),
            (with(&["export", "rig.ccs", "--obj", "--frames-from", "SIDE", "-o", "x.obj"]), named, 1),
        ] {
            runs.push(Run { args, to_tty: false, expect: Expect::Refused { names, says: kind, lines: lines_out } });
        }
    }
    let entries = vec![
        ("in.mot".to_string(), Entry::File(hostile_leaf())),
        ("rig.ccs".to_string(), Entry::File(fixture("ccsf/g123rig.ccs"))),
        ("fifo".to_string(), Entry::Fifo),
        ("zero".to_string(), Entry::Link("/dev/zero")),
        ("layouts_fifo".to_string(), Entry::Dir),
        ("layouts_fifo/a.toml".to_string(), Entry::Fifo),
        ("layouts_zero".to_string(), Entry::Dir),
        ("layouts_zero/a.toml".to_string(), Entry::Link("/dev/zero")),
    ];
    Class { name: "side_files", entries, every_verb_on: None, runs }
}

/// Side files the TUI reads itself, under `state/` and `config/` (`hostile_tty` runs the
/// TUI on `in.mot` with `XDG_STATE_HOME` and `XDG_CONFIG_HOME` there): the bookmark file of
/// `in.mot` is a FIFO (it blocked the TUI before its first frame, `q` ignored) and the user
/// keymap is `/dev/zero` (it was read forever). No runs here: the TUI needs a terminal.
pub fn tui_side_files() -> Class {
    let input = hostile_leaf();
    let hash = animscope::tui::bookmarks::content_hash(&input);
    let dir = |p: &str| (p.to_string(), Entry::Dir);
    Class {
        name: "tui_side_files",
        entries: vec![
            ("in.mot".to_string(), Entry::File(input)),
            dir("state"),
            dir("state/animscope"),
            dir("state/animscope/bookmarks"),
            (format!("state/animscope/bookmarks/{hash:016x}.tsv"), Entry::Fifo),
            dir("config"),
            dir("config/animscope"),
            ("config/animscope/keymap.toml".to_string(), Entry::Link("/dev/zero")),
        ],
        every_verb_on: None,
        runs: vec![],
    }
}

/// Keymaps of 8,000 and 20,000 bindings (linear to load; 20,000 took 41 s when loading
/// was quadratic): each loads, so the one line said is that the TUI needs a terminal.
fn huge_keymaps() -> Class {
    let says = "the TUI needs a terminal";
    Class {
        name: "huge_keymaps",
        entries: vec![
            ("in.mot".to_string(), Entry::File(hostile_leaf())),
            ("keymap8k.toml".to_string(), Entry::File(huge_keymap(8_000).into_bytes())),
            ("keymap20k.toml".to_string(), Entry::File(huge_keymap(20_000).into_bytes())),
        ],
        every_verb_on: None,
        runs: vec![
            run(&["--keymap", "keymap8k.toml", "in.mot"], refused("", says)),
            run(&["--keymap", "keymap20k.toml", "in.mot"], refused("", says)),
        ],
    }
}

/// Multi-file exports onto a directory where one of the files already exists (the
/// user's own `.mtl`, a texture PNG): refused, naming it, before anything is written
/// (neither the `.obj`/`.gltf`, its buffer, nor the other PNGs).
fn partial_targets() -> Class {
    Class {
        name: "partial_targets",
        entries: vec![
            ("rig.ccs".to_string(), Entry::File(fixture("ccsf/g123rig.ccs"))),
            ("s.mtl".to_string(), Entry::File(b"user's own\n".to_vec())),
            ("TEX_b.png".to_string(), Entry::File(b"keep".to_vec())),
        ],
        every_verb_on: None,
        runs: vec![
            run(&["export", "rig.ccs", "-o", "s.obj"], refused("s.mtl", "exists")),
            run(&["export", "rig.ccs", "--anime", "ANM_wave", "-o", "g.gltf"], refused("TEX_b.png", "exists")),
        ],
    }
}

/// A Model whose vertex scale is +Inf: OBJ and glTF both refuse the non-finite vertices
/// (to a file or to stdout), and every verb is bounded on it.
fn infinite_scale() -> Class {
    let says = "non-finite";
    let mut c = Class::input("inf_scale.ccs", ccsf_infinite_scale());
    c.name = "infinite_scale";
    c.runs = vec![
        run(&["export", "inf_scale.ccs", "--obj", "-o", "x.obj"], refused("", says)),
        run(&["export", "inf_scale.ccs", "--obj", "-o", "-"], refused("", says)),
        run(&["export", "inf_scale.ccs", "--gltf", "-o", "x.glb"], refused("", says)),
        run(&["export", "inf_scale.ccs", "--gltf", "-o", "x.gltf"], refused("", says)),
    ];
    c
}

/// A member of terminal escapes (it retitles the window, sets the clipboard) extracted to
/// a terminal: refused (a usage error naming `--raw`) before a byte is written; with
/// `--raw` the bytes go through as asked.
fn escape_to_tty() -> Class {
    let mut c = Class::input("ESC.BIN", gzarc_escape_member());
    c.name = "escape_to_tty";
    let tty = |args: &[&str], expect| Run { to_tty: true, ..run(args, expect) };
    c.runs = vec![
        tty(&["extract", "ESC.BIN", "esc.txt", "-o", "-"], refused("--raw", "stdout is a terminal")),
        tty(&["extract", "ESC.BIN", "esc.txt", "-o", "-", "--raw"], Expect::WroteToTty(b"\x1b]0;pwned\x07")),
    ];
    c
}

/// Every class of the audit that a directory of files can hold, each input at most 1 MiB:
/// inputs every verb runs on (shared regions, long sequences and clips, duplicate names,
/// a long anime, nested archives 40 deep, an infinite vertex scale, an escape member) and
/// the classes of refused targets and side files. (Truncation under a slow pipe and under
/// the TUI needs a process to act on meanwhile: `hostile_run` and `hostile_tty`.)
pub fn all() -> Vec<Class> {
    let shared = motn_shared_regions(1);
    vec![
        Class::input("shared_regions.mot", shared.clone()),
        Class::input("shared_regions_1m.mot", motn_shared_regions(7)),
        Class::input("shared_regions.mot.gz", gzip("MOTION.BIN", &shared)),
        Class::input("long_sequence.mot", motn_long_sequence()),
        Class::input("long_clip.mot", sc6_long_clip()),
        Class::input("duplicate_names.gz", gzarc_duplicate_names(32 * 1024)),
        Class::input("long_anime.ccs", ccsf_long_anime(200, 18_000)),
        Class::input("shared_many.mot", motn_shared_many(2000)),
        Class::input("nested40.BIN", gzarc_nested_chain(40, 8)),
        infinite_scale(),
        escape_to_tty(),
        output_targets(),
        side_files(),
        tui_side_files(),
        huge_keymaps(),
        partial_targets(),
    ]
}

/// Make `class`'s entries under `dir`.
pub fn make(dir: &std::path::Path, class: &Class) {
    for (path, e) in &class.entries {
        let p = dir.join(path);
        match e {
            Entry::File(bytes) => std::fs::write(&p, bytes).unwrap(),
            Entry::Fifo => assert!(std::process::Command::new("mkfifo").arg(&p).status().unwrap().success()),
            Entry::Dir => std::fs::create_dir(&p).unwrap(),
            Entry::Sparse(len) => std::fs::File::create(&p).unwrap().set_len(*len).unwrap(),
            Entry::Link(to) => std::os::unix::fs::symlink(to, &p).unwrap(),
        }
    }
}

#[test]
fn generated_classes_are_at_most_one_mebibyte() {
    for class in all() {
        for (name, e) in &class.entries {
            if let Entry::File(bytes) = e {
                assert!(bytes.len() <= 1 << 20, "{}/{name}: {} bytes", class.name, bytes.len());
            }
        }
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
    // the classes' inputs (the other classes' entries are FIFOs and links, made by `make`)
    let mut files: Vec<(String, Vec<u8>)> = all()
        .into_iter()
        .filter_map(|c| {
            let input = c.every_verb_on?;
            c.entries.into_iter().find(|(n, _)| *n == input).and_then(|(n, e)| match e {
                Entry::File(b) => Some((n, b)),
                _ => None,
            })
        })
        .collect();
    files.push(("big_members.BIN".into(), gzarc_big_members(24)));
    if std::env::var_os("HOSTILE_OUT").is_some() {
        // deflating 20 and 40 levels of 127 MiB of zeros takes minutes: by hand only
        files.push(("nested20_127m.BIN".into(), gzarc_nested_chain(20, 127)));
        files.push(("nested40_127m.BIN".into(), gzarc_nested_chain(40, 127)));
        files.push(("keymap20k.toml".into(), huge_keymap(20_000).into_bytes()));
    }
    for (name, bytes) in &files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        assert_eq!(std::fs::read(&p).unwrap().len(), bytes.len(), "{}", p.display());
    }
    eprintln!("hostile inputs written to {}", dir.display());
}

// ---- Round 4 (issue 51): the classes `hostile_r4` runs. ----

/// Round 4, class 1 (decoded samples the budget did not see): [`motn_long_sequence`] (a
/// 2.6 KB sequence of 32,767 frames over 127 nodes whose 381 tracks sample to 100 MB).
pub fn r4_motn_long_samples() -> Vec<u8> {
    motn_long_sequence()
}

/// Round 4, class 5 (aliased IPAC entries): one MOTN blob (a shared-region file with
/// warnings of its own) and as many dictionary entries as fit in `total` bytes, every one
/// naming that blob (its offset and size), each with a distinct name.
pub fn r4_ipac_aliased_entries(total: usize) -> Vec<u8> {
    use animscope::formats::pak::write::{Entry, ipac};
    let blob = motn_shared_regions(1);
    let n = (total - 16 - blob.len().next_multiple_of(16)) / 20;
    let mut entries = vec![Entry::new("BLOB", "MOTN", blob)];
    entries.extend((1..n).map(|i| Entry::new(&format!("A{i:07}"), "MOTN", Vec::new())));
    let mut out = ipac(&entries);
    // every record names the first one's bytes: offset at +12, size at +16 of each record
    let dict = usize::try_from(u32::from_le_bytes(out[4..8].try_into().unwrap())).unwrap();
    let first = out[dict + 12..dict + 20].to_vec();
    for i in 1..n {
        let at = dict + 20 * i + 12;
        out[at..at + 8].copy_from_slice(&first);
    }
    out
}

/// Round 4, class 10 (an IPAC dictionary of many entries): `n` entries of distinct names,
/// each holding one byte (16-aligned: 16 bytes each, then its 20-byte record).
pub fn r4_ipac_many_entries(n: usize) -> Vec<u8> {
    use animscope::formats::pak::write::{Entry, ipac};
    let entries: Vec<Entry> = (0..n).map(|i| Entry::new(&format!("E{i:07}"), "CHRT", vec![i as u8])).collect();
    ipac(&entries)
}

/// Round 4, class 10 for PKS: the same dictionary behind a PKS header.
pub fn r4_pks_many_entries(n: usize) -> Vec<u8> {
    use animscope::formats::pak::write::{Entry, pks};
    let entries: Vec<Entry> = (0..n).map(|i| Entry::new(&format!("E{i:07}"), "CHRT", vec![i as u8])).collect();
    pks(&entries)
}

/// Round 4, class 12: a sector archive of `members` gzip members, each holding a MOTN whose
/// sequences overlap (`motn()`, each member's bytes made distinct).
pub fn r4_gzarc_overlapping_motn(members: usize, motn: impl Fn() -> Vec<u8>) -> Vec<u8> {
    let list: Vec<(String, Vec<u8>)> = (0..members)
        .map(|i| {
            let mut m = motn();
            // a byte of the last sequence's header word 1: distinct members, same shape
            let last = m.len() - 1;
            m[last] ^= u8::try_from(i % 200).unwrap();
            (format!("M_{i:03}.BIN"), m)
        })
        .collect();
    archive(&list)
}

/// Round 4, class 6 (one descriptor per output): a CCSF scene of `models` textured models
/// (each its own CLUT, 4×4 texture, material, quad and object), so an OBJ or glTF export
/// writes one PNG per texture.
pub fn r4_ccsf_many_textures(models: usize) -> Vec<u8> {
    ccsf_textured_models(models, 2)
}

/// `models` CCSF models, each a textured quad whose texture is `2^log2` pixels square
/// (4-bit indexed, every index 0 and 1 alternating).
pub fn ccsf_textured_models(models: usize, log2: u8) -> Vec<u8> {
    use animscope::formats::ccsf::write::{CcsFile, Chunk, Mmat, Model, Vert, write};
    let mut f = CcsFile {
        name: "many".into(),
        version: 0x100,
        frames: 0,
        files: vec![(b' ', "x\\t.bmp".into())],
        objects: Vec::new(),
        chunks: vec![Chunk::Setup],
    };
    for i in 0..models {
        for p in ["C", "T", "A", "M", "O"] {
            f.objects.push((format!("{p}{i}"), 1));
        }
    }
    // a strip of two triangles (flags 1 1 0 0, as the `mini` scene's quad)
    let v = |pos: [i16; 3], st: [u16; 2], flag: u8| Vert { pos, normal: [0, 0, 64], flag, colour: [0x80; 4], st };
    for i in 0..models {
        let id = |p: &str| {
            u32::try_from(5 * i).unwrap() + 1 + ["C", "T", "A", "M", "O"].iter().position(|q| *q == p).unwrap() as u32
        };
        let mut colours = vec![[(i % 256) as u8, 0, 0, 0x80], [0, 0xff, 0, 0x80]];
        colours.resize(16, [0, 0, 0, 0x80]);
        f.chunks.extend([
            Chunk::Clut { clut: id("C"), blt_group: 0, flag: 1, buf: [768, 768], colours },
            Chunk::Texture {
                texture: id("T"),
                clut: id("C"),
                blt_group: 0,
                flag: 0,
                psm: 0x14,
                aref: 0x70,
                tw: log2,
                th: log2,
                levels: vec![(768, 0, vec![0x10; (1usize << (2 * log2)) / 2])],
                size_surplus: 0,
            },
            Chunk::Material { object: id("A"), texture: id("T"), transparency: 1.0, crop: [0, 0] },
            Chunk::Model(Model {
                object: id("M"),
                scale: 256.0,
                mtype: 0,
                flag: 0,
                mmats: vec![Mmat::Rigid {
                    name: 0,
                    material: id("A"),
                    verts: vec![
                        v([0, 0, 0], [0, 0], 1),
                        v([16, 0, 0], [256, 0], 1),
                        v([0, 16, 0], [0, 256], 0),
                        v([16, 16, 0], [256, 256], 0),
                    ],
                }],
                size_surplus: 0,
            }),
            Chunk::Obj { object: id("O"), parent: 0, model: id("M"), shadow: 0 },
        ]);
    }
    f.chunks.extend([Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0xffff_ffff }]);
    write(&f)
}

/// Round 4, class 15 (truncation under the TUI's texture): the `mini`-shaped scene whose
/// texture is 8-bit 1024×1024 (1 MiB of pixels, a 256-colour CLUT), so the file is mapped
/// and the texture's pixels run to near its end.
pub fn r4_ccsf_big_texture() -> Vec<u8> {
    use animscope::formats::ccsf::write::{CcsFile, Chunk, Mmat, Model, Vert, write};
    let objects = ["CLT_big", "TEX_big", "MAT_big", "MDL_big", "OBJ_big"];
    let mut f = CcsFile {
        name: "big".into(),
        version: 0x100,
        frames: 0,
        files: vec![(b' ', "x\\big\\tex\\big.bmp".into())],
        objects: objects.iter().map(|n| (n.to_string(), 1)).collect(),
        chunks: vec![Chunk::Setup],
    };
    let (clt, tex, mat, mdl, obj) =
        (f.obj("CLT_big"), f.obj("TEX_big"), f.obj("MAT_big"), f.obj("MDL_big"), f.obj("OBJ_big"));
    let colours: Vec<[u8; 4]> = (0..256u32).map(|i| [i as u8, (255 - i) as u8, (i * 7) as u8, 0x80]).collect();
    let px: Vec<u8> = (0..1usize << 20).map(|i| ((i >> 10) ^ (i & 0x3ff)) as u8).collect();
    let v = |pos: [i16; 3], st: [u16; 2]| Vert { pos, normal: [0, 0, 64], flag: 1, colour: [0x80; 4], st };
    f.chunks.extend([
        Chunk::Clut { clut: clt, blt_group: 0, flag: 1, buf: [768, 768], colours },
        Chunk::Material { object: mat, texture: tex, transparency: 1.0, crop: [0, 0] },
        Chunk::Model(Model {
            object: mdl,
            scale: 256.0,
            mtype: 0,
            flag: 0,
            mmats: vec![Mmat::Rigid {
                name: 0,
                material: mat,
                verts: vec![v([0, 0, 0], [0, 0]), v([16, 0, 0], [256, 0]), v([0, 16, 0], [0, 256])],
            }],
            size_surplus: 0,
        }),
        Chunk::Obj { object: obj, parent: 0, model: mdl, shadow: 0 },
        Chunk::Texture {
            texture: tex,
            clut: clt,
            blt_group: 0,
            flag: 0,
            psm: 0x13,
            aref: 0x70,
            tw: 10,
            th: 10,
            levels: vec![(768, 0, px)],
            size_surplus: 0,
        },
    ]);
    f.chunks.extend([Chunk::Frame { count: 1, tag: 0xcccc }, Chunk::Top { frame: 0xffff_ffff }]);
    write(&f)
}
