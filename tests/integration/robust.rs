//! Never-panic sweeps over every committed fixture: truncations, bit flips and random bytes
//! go through the whole library pipeline (sniff, describe, validate, members, decode,
//! export) and must come back `Ok` or as a clean error. Mutations run in parallel (rayon).
//!
//! A sweep cannot pass vacuously: `harness::exercise` returns 0 when its input does not
//! open at all, so every sweep counts how many inputs opened (and, for the intact
//! fixtures, how many clips decoded) and asserts the counts the fixture set guarantees.
//!
//! The default `cargo test` cuts and flips where structures meet (every field's and node's
//! first and last byte ±1) and sets every count to 0, 1 and its maximum; the same sweeps at
//! every byte are ignored (`cargo test -- --ignored`, run in CI).

use crate::support::rng;
use animscope::formats;
use animscope::harness::Exercise;
use animscope::limits::Limits;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Everything a user can do to one input, through the library API; panics on a broken
/// invariant. Returns how many documents were described.
fn exercise(path: &str, bytes: Vec<u8>, how: Exercise) -> usize {
    let name = path.rsplit('/').next().unwrap_or(path);
    let limits = Limits { max_inflated: 8 << 20, ..Limits::default() };
    animscope::harness::exercise(name, bytes, None, &limits, 3, how).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Formats that sniff by a magic in the first 12 bytes only (`1f 8b 08`, `01 00 cc cc` and
/// `CCSF` at 8, `PAKS`, `PAKF`, `IPAC`): a change after byte 12 cannot change their sniff.
const MAGIC_SNIFFED: [&str; 5] = ["gzarc", "ccsf", "pks", "pkf", "ipac"];

/// How many leading bytes a prefix must keep to be sure to open as its format: the magic
/// and fixed header a magic-sniffed format reads before anything permissive (ccsf: the
/// Header chunk, 0x3c bytes; PKS/PKF/IPAC: their 16-byte headers; gzarc: the magic, its
/// listing is permissive). Formats sniffed by structure (sc6, motn) have no such length.
fn header_len(format: &str) -> usize {
    match format {
        "ccsf" => 0x3c,
        "pks" | "pkf" | "ipac" => 16,
        _ => 12,
    }
}

fn leaf(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Counts of one sweep.
#[derive(Default)]
struct Tally {
    inputs: AtomicUsize,
    opened: AtomicUsize,
    /// Inputs that still sniff as the unmutated file's format and open.
    same_format: AtomicUsize,
    /// Of those, the inputs a magic-sniffed format guarantees (its header kept intact).
    past_magic: AtomicUsize,
    past_magic_same: AtomicUsize,
}

impl Tally {
    fn add(&self, format: &str, original: &str, opened: bool, past_magic: bool) {
        self.inputs.fetch_add(1, Ordering::Relaxed);
        self.opened.fetch_add(usize::from(opened), Ordering::Relaxed);
        let same = opened && format == original;
        self.same_format.fetch_add(usize::from(same), Ordering::Relaxed);
        if past_magic && MAGIC_SNIFFED.contains(&original) {
            self.past_magic.fetch_add(1, Ordering::Relaxed);
            self.past_magic_same.fetch_add(usize::from(same), Ordering::Relaxed);
        }
    }
    fn get(&self) -> (usize, usize, usize, usize, usize) {
        let g = |a: &AtomicUsize| a.load(Ordering::Relaxed);
        (g(&self.inputs), g(&self.opened), g(&self.same_format), g(&self.past_magic), g(&self.past_magic_same))
    }
}

/// Describe `data` as sniffed, decode every clip node (with `opts`) and recurse into
/// members (as `harness::exercise` does), counting: (documents described, clip nodes,
/// clips decoded), with the failures by path.
fn decode_everything(
    name: &str,
    data: &[u8],
    opts: &formats::DecodeOptions,
    depth: usize,
    fails: &mut Vec<String>,
) -> (usize, usize, usize) {
    let limits = Limits { max_inflated: 8 << 20, ..Limits::default() };
    let source = std::sync::Arc::new(animscope::source::Source::from_vec(name, data.to_vec()));
    let Ok(mut p) = formats::open(source, None, &limits) else {
        fails.push(format!("{name}: does not describe"));
        return (0, 0, 0);
    };
    p.document_mut().expand_all();
    let (mut described, mut clips, mut decoded) = (1, 0, 0);
    let nodes: Vec<_> = p.document().nodes.iter().map(|n| (n.id, n.anim.clone(), n.member)).collect();
    for (node, anim, member) in nodes {
        if let Some(key) = anim {
            clips += 1;
            match p.animation_at(node).ok_or_else(|| "no animation".to_string()).and_then(|a| {
                p.require_clips_for(&a).and_then(|c| c.decode(&a, opts, &limits)).map_err(|e| e.to_string())
            }) {
                Ok(_) => decoded += 1,
                Err(e) => fails.push(format!("{name} {key}: {e}")),
            }
        }
        if let Some(i) = member
            && depth > 0
        {
            match p.open_member_of(node, &limits) {
                Ok(m) => {
                    let (d, c, k) = decode_everything(&m.name, &m.bytes, opts, depth - 1, fails);
                    described += d;
                    clips += c;
                    decoded += k;
                }
                Err(e) => fails.push(format!("{name} member {i}: {e}")),
            }
        }
    }
    (described, clips, decoded)
}

/// Every fixture plus the committed regression inputs. The demo archive is left out: it
/// is a gzip archive of three other fixtures, each swept on its own and in `gzarc/`.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> =
        animscope::fixtures::all().into_iter().filter(|(p, _)| p != "demo.bin").collect();
    let reg = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/regressions");
    if let Ok(rd) = std::fs::read_dir(reg) {
        for e in rd.flatten() {
            if e.path().extension().is_some_and(|x| x == "md") {
                continue;
            }
            v.push((format!("regressions/{}", e.file_name().to_string_lossy()), std::fs::read(e.path()).unwrap()));
        }
    }
    v
}

/// How much of each fixture a sweep covers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Depth {
    /// Where structures meet ([`crate::sweep::boundaries`]): the default `cargo test`.
    Boundaries,
    /// Every offset of files up to `all_upto` bytes, else the first and last 512 plus an
    /// even sample (ignored: `cargo test -- --ignored`, run in CI).
    EveryByte { all_upto: usize },
}

/// Offsets to cut or flip `bytes` (named `name`) at, within `window`
/// ([`crate::sweep::windows`]). Every byte of a file includes its boundaries.
fn positions(name: &str, bytes: &[u8], window: &std::ops::Range<usize>, depth: Depth) -> Vec<usize> {
    let mut v = crate::sweep::boundaries(leaf(name), bytes);
    if let Depth::EveryByte { all_upto } = depth {
        let len = bytes.len();
        if len <= all_upto {
            v.extend(0..len);
        } else {
            v.extend((0..512.min(len)).chain(len.saturating_sub(512)..len));
            v.extend((0..len).step_by((len / 1500).max(1)));
        }
    }
    v.retain(|p| window.contains(p));
    v.sort_unstable();
    v.dedup();
    v
}

/// One line per fixture when the exhaustive sweeps run (`-- --ignored --nocapture`): they
/// take minutes.
fn progress(depth: Depth, sweep: &str, name: &str, inputs: usize) {
    if depth != Depth::Boundaries {
        eprintln!("{sweep}: {name}: {inputs} inputs");
    }
}

/// The sweeps take their inputs from `fixtures::all()`: the MOTN variant fixtures (the
/// mixed file and every `x_` variant failure) are among them.
#[test]
fn sweeps_cover_the_motn_variant_fixtures() {
    let names: Vec<String> = fixtures().into_iter().map(|(p, _)| p).collect();
    for want in [
        "motn/multi.mot",
        "motn/variants.mot",
        "motn/x_baked_truncated.mot",
        "motn/x_baked_stride.mot",
        "motn/x_baked_mask_root.mot",
        "motn/x_track_records_past_end.mot",
        "motn/x_track_overlap.mot",
        "motn/x_track_odd_offset.mot",
        "motn/x_track_block_past_end.mot",
        "motn/x_track_translation_offset.mot",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} is not swept");
    }
}

#[test]
fn intact_fixtures_pass_the_full_pipeline() {
    let (mut files, mut valid, mut clips, mut decoded) = (0, 0, 0, 0);
    for (name, bytes) in animscope::fixtures::all() {
        files += 1;
        assert!(exercise(&name, bytes.clone(), Exercise::Full) >= 1, "{name}: the intact fixture must open");
        if leaf(&name).starts_with("x_") {
            continue;
        }
        // every valid fixture describes as its own format (never `raw`), and every clip in
        // it and in its members decodes
        let f = formats::sniff(&bytes, leaf(&name));
        assert_ne!(f.id(), "raw", "{name}: no format recognises it");
        // the one fixture that decodes only under a stream override (README: "fits only the
        // skill-check stream"; `--stream skill-check`)
        let mut opts = formats::DecodeOptions::default();
        if name == "sc6/stream_skill_check.mot" {
            opts.stream = Some("skill-check".into());
        }
        let mut fails = Vec::new();
        let (_, c, d) = decode_everything(leaf(&name), &bytes, &opts, 3, &mut fails);
        assert!(fails.is_empty(), "{name}: {fails:?}");
        valid += 1;
        clips += c;
        decoded += d;
    }
    eprintln!("intact: {files} fixtures, {valid} valid, {clips} clips, {decoded} decoded");
    assert_eq!(decoded, clips);
    // The committed set (fixtures/README.md) has 37 valid files: demo.bin, 6 motn, 9 ccsf,
    // 3 gzarc, 18 sc6. Its clips, at least: one per sc6 bank (18); multi.mot's 8 distinct
    // sequences in multi.mot, multi.mot.gz, motion.pks and demo.bin (32); vector_a,
    // vector_b and motion.pkf's vector_a (3); ccsf chara's Anime, town's Anime and frame
    // section, str0100's and str0200's frame sections (5); the same chara in DATA.BIN and
    // demo.bin and str0200 in STR.BIN (3); demo.bin's two-clip chr001.mot (2).
    assert!(valid >= 37, "{valid} valid fixtures");
    assert!(clips >= 18 + 32 + 3 + 5 + 3 + 2, "{clips} clips");
}

/// Regression inputs (minimised fuzz crashers) replayed as sniffed and forced through every
/// format, since a fuzz target may have forced one.
#[test]
fn regressions_replay_under_every_format() {
    let limits = Limits { max_inflated: 8 << 20, ..Limits::default() };
    for (name, bytes) in fixtures().into_iter().filter(|(p, _)| p.starts_with("regressions/")) {
        for f in animscope::formats::all() {
            animscope::harness::exercise(&name, bytes.clone(), Some(f.id()), &limits, 3, Exercise::Full)
                .unwrap_or_else(|e| panic!("{name} as {}: {e}", f.id()));
        }
    }
}

#[test]
fn truncations_at_field_boundaries_never_panic() {
    // measured: 28,245 prefixes, 15,025 of them of a magic-sniffed format with its header
    truncations_never_panic(Depth::Boundaries, 10_000);
}

#[test]
#[ignore = "exhaustive: cargo test -- --ignored"]
fn truncations_at_every_byte_never_panic() {
    // measured: 65,257 prefixes, 47,845 of them of a magic-sniffed format with its header
    truncations_never_panic(Depth::EveryByte { all_upto: 64 << 10 }, 40_000);
}

/// Every prefix at `depth` opens (but the few cut inside a magic-sniffed format's header),
/// and at least `min_past_magic` prefixes of magic-sniffed formats keep their header.
fn truncations_never_panic(depth: Depth, min_past_magic: usize) {
    let t = Tally::default();
    let files = fixtures();
    for ((name, bytes), window) in files.iter().zip(crate::sweep::windows(&files)) {
        let original = formats::sniff(bytes, leaf(name)).id();
        let cuts = positions(name, bytes, &window, depth);
        progress(depth, "truncations", name, cuts.len());
        cuts.into_par_iter().for_each(|cut| {
            // Every 16th prefix also runs check and survey; the rest the core pipeline.
            let how = if cut % 16 == 0 { Exercise::Full } else { Exercise::Core };
            let m = bytes[..cut].to_vec();
            let f = formats::sniff(&m, leaf(name)).id();
            let opened = exercise(name, m, how) >= 1;
            let whole_header = cut >= header_len(original);
            t.add(f, original, opened, whole_header);
            // `raw` takes what no format recognises and the formats describe permissively:
            // only a prefix cut inside a magic-sniffed format's header may fail to open
            assert!(
                opened || (MAGIC_SNIFFED.contains(&original) && !whole_header),
                "{name} cut at {cut} does not open"
            );
        });
    }
    let (inputs, opened, _, past, past_same) = t.get();
    eprintln!(
        "truncations: {inputs} inputs, {opened} opened, {past_same} of {past} with a whole header kept their format"
    );
    // a prefix that keeps a magic-sniffed format's whole header opens as that format; the
    // only prefixes that may fail are the few cut inside a header (at most 0x3c per file)
    assert!(past > min_past_magic, "{past}");
    assert_eq!(past_same, past);
    assert!(inputs - opened <= 0x3c * files.len(), "{opened} of {inputs} opened");
}

#[test]
fn bit_flips_and_counts_at_field_boundaries_never_panic() {
    // measured: 29,631 mutants, 16,716 of them past a magic-sniffed format's magic
    bit_flips_never_panic(Depth::Boundaries, 10_000);
}

#[test]
#[ignore = "exhaustive: cargo test -- --ignored"]
fn bit_flips_and_counts_at_every_byte_never_panic() {
    // measured: 66,643 mutants, 50,320 of them past a magic-sniffed format's magic
    bit_flips_never_panic(Depth::EveryByte { all_upto: 16 << 10 }, 40_000);
}

/// One bit flipped at each offset at `depth` (bit `offset % 8`), and every count of the
/// built document set to 0, 1 and its maximum: everything opens, and at least
/// `min_past_magic` mutants of magic-sniffed formats change nothing in the magic.
fn bit_flips_never_panic(depth: Depth, min_past_magic: usize) {
    let t = Tally::default();
    let files = fixtures();
    for ((name, bytes), window) in files.iter().zip(crate::sweep::windows(&files)) {
        let original = formats::sniff(bytes, leaf(name)).id();
        let mut mutants: Vec<(usize, Vec<u8>)> = positions(name, bytes, &window, depth)
            .into_iter()
            .map(|pos| {
                let mut m = bytes.clone();
                m[pos] ^= 1 << (pos % 8);
                (pos, m)
            })
            .collect();
        let counts: Vec<_> =
            crate::sweep::counts(leaf(name), bytes).into_iter().filter(|c| window.contains(&c.at)).collect();
        mutants.extend(crate::sweep::count_mutations(bytes, &counts).map(|m| (first_change(bytes, &m.bytes), m.bytes)));
        progress(depth, "bit flips and counts", name, mutants.len());
        mutants.into_par_iter().for_each(|(pos, m)| {
            let f = formats::sniff(&m, leaf(name)).id();
            let opened = exercise(name, m, Exercise::Core) >= 1;
            t.add(f, original, opened, pos >= 12);
        });
    }
    let (inputs, opened, same, past, past_same) = t.get();
    eprintln!(
        "bit flips and counts: {inputs} inputs, {opened} opened, {same} as their own format, {past_same} of {past} past a magic"
    );
    // Every mutant opens (as its format or as raw); one after a magic-sniffed format's
    // magic (first 12 bytes) keeps that format; and over all formats (sc6 and motn sniff
    // by structure, so a change in their header or offset table can lose them) at least
    // 95% of the mutants still open as the file's own format.
    assert_eq!(opened, inputs);
    assert!(past > min_past_magic, "{past}");
    assert_eq!(past_same, past);
    assert!(same * 20 >= inputs * 19, "{same} of {inputs} mutants kept their format");
}

/// The first offset where `a` and `b` differ (the length when they do not).
fn first_change(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len())
}

#[test]
fn demo_archive_mutations_at_boundaries_never_panic() {
    // the gzip members' headers and trailers, and every 97th byte of their deflate data
    let demo = animscope::demo::DEMO;
    let mut at = crate::sweep::boundaries("demo.bin", demo);
    at.extend((0..demo.len()).step_by(97));
    demo_archive_mutations_never_panic(at);
}

#[test]
#[ignore = "exhaustive: cargo test -- --ignored"]
fn demo_archive_mutations_every_13th_byte_never_panic() {
    demo_archive_mutations_never_panic((0..animscope::demo::DEMO.len()).step_by(13).collect());
}

/// The demo archive with the byte at each of `at` xor 0x5a: it stays a gzip archive past
/// its first 12 bytes, and most mutants leave two of its three members whole.
fn demo_archive_mutations_never_panic(mut at: Vec<usize>) {
    at.sort_unstable();
    at.dedup();
    let demo = animscope::demo::DEMO.to_vec();
    let t = Tally::default();
    let described = AtomicUsize::new(0);
    at.into_par_iter().for_each(|pos| {
        let mut m = demo.clone();
        m[pos] ^= 0x5a;
        let f = formats::sniff(&m, "demo.bin").id();
        let n = exercise("demo.bin", m, Exercise::Core);
        described.fetch_add(n, Ordering::Relaxed);
        t.add(f, "gzarc", n >= 1, pos >= 12);
    });
    let (inputs, opened, _, past, past_same) = t.get();
    let described = described.into_inner();
    eprintln!(
        "demo mutations: {inputs} inputs, {opened} opened, {past_same} of {past} as gzarc, {described} documents"
    );
    // the archive is three sector-aligned members: a change after the first 12 bytes keeps
    // it a gzip archive, and most mutations leave two members intact, so the sweep
    // describes nested members too (more documents than inputs)
    assert_eq!(opened, inputs);
    assert_eq!(past_same, past);
    assert!(described > 2 * inputs, "{described} documents for {inputs} inputs");
}

#[test]
fn random_bytes_and_splices_never_panic() {
    let mut rng = rng(0x9e37_79b9_7f4a_7c15);
    let fx = fixtures();
    let mut inputs = Vec::new();
    for i in 0..300 {
        let len = (rng.next() % 4096) as usize;
        let mut b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        // Half the time start from a real file's first bytes so parsers get past sniffing.
        if i % 2 == 0
            && let Some((_, f)) = fx.get((rng.next() as usize) % fx.len().max(1))
        {
            let keep = (rng.next() as usize % 64).min(f.len());
            b.splice(0..0, f[..keep].iter().copied());
        }
        inputs.push(b);
    }
    let opened = AtomicUsize::new(0);
    inputs.into_par_iter().for_each(|b| {
        opened.fetch_add(usize::from(exercise("random", b, Exercise::Full) >= 1), Ordering::Relaxed);
    });
    // raw accepts anything: every random input opens
    assert_eq!(opened.into_inner(), 300);
}
