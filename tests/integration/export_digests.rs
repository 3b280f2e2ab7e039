//! Safety net for refactors of the open/decode/export path: every committed fixture's
//! every animation (in the file and in each of its archive members), exported as matrix
//! JSON, glTF and OBJ through the command line (in process), with each written file's
//! length and FNV-1a 64 digest, or the error the export gave. Plus each file's and
//! member's glTF and OBJ with no animation named (a scene alone, or the file's only clip).
//! The snapshot was recorded from the code before the parse-once refactor; a refactor must
//! leave it unchanged.

use animscope::cli::{Cli, run};
use animscope::model::NodeId;
use animscope::session::Opened;
use animscope::source::OpenOptions;
use clap::Parser;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn fnv64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Every file under `dir`, sorted, with length and digest; the directory is emptied.
fn digests(dir: &Path) -> String {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut s = String::new();
    for f in files {
        let b = std::fs::read(&f).unwrap();
        let _ = write!(s, " {}:{}:{:016x}", f.file_name().unwrap().to_string_lossy(), b.len(), fnv64(&b));
        std::fs::remove_file(&f).unwrap();
    }
    s
}

/// Run `animscope export ARGS -o DIR/OUT` in process; the written files' digests or the error.
fn export(args: &[String], dir: &Path, out: &str, fix: &str) -> String {
    let out_path = dir.join(out);
    let mut argv: Vec<String> = vec!["animscope".into(), "export".into()];
    argv.extend(args.iter().cloned());
    argv.push("-o".into());
    argv.push(out_path.to_string_lossy().into_owned());
    let cli = match Cli::try_parse_from(&argv) {
        Ok(c) => c,
        Err(e) => return format!(" usage: {}", e.kind()),
    };
    let mut sink = Vec::new();
    let r = run(cli, &mut sink);
    let written = digests(dir);
    match r {
        Ok(o) => format!(" {o:?}{written} stdout:{}", sink.len()),
        Err(e) => {
            let msg = e.to_string().replace(&dir.to_string_lossy().into_owned(), "$OUT").replace(fix, "$FIX");
            format!(" error: {msg}{written}")
        }
    }
}

/// (member address or None, opened document) for the file and each member, depth first.
fn parts(o: Opened, prefix: Option<String>, out: &mut Vec<(Option<String>, Opened)>, depth: usize) {
    let members: Vec<NodeId> = o.doc().nodes.iter().filter(|n| n.member.is_some()).map(|n| n.id).collect();
    let mut found = Vec::new();
    if depth < 3 {
        for id in members {
            let path = o.doc().path(id);
            let addr = match &prefix {
                Some(p) => format!("{p}/{path}"),
                None => path,
            };
            if let Ok(m) = o.open_member(id, &animscope::limits::Limits::default()) {
                found.push((addr, m));
            }
        }
    }
    out.push((prefix, o));
    for (addr, m) in found {
        parts(m, Some(addr), out, depth + 1);
    }
}

#[test]
fn every_fixture_export_is_unchanged() {
    let root = format!("{}/fixtures", env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile_dir();
    let mut report = String::new();
    let mut exports = 0usize;
    for (rel, _) in animscope::fixtures::all() {
        let file = format!("{root}/{rel}");
        let Ok(o) =
            Opened::open_path(Path::new(&file), OpenOptions::default(), None, &animscope::limits::Limits::default())
        else {
            let _ = writeln!(report, "{rel}: does not open");
            continue;
        };
        let mut list = Vec::new();
        parts(o, None, &mut list, 0);
        for (member, o) in list {
            let mut base = vec![file.clone()];
            if let Some(m) = &member {
                base.push(m.clone());
            }
            let here = format!("{rel}{}", member.as_deref().map(|m| format!(" {m}")).unwrap_or_default());
            for (kind, flag, out) in [("gltf", "--gltf", "x.glb"), ("obj", "--obj", "x.obj")] {
                let mut args = base.clone();
                args.push(flag.into());
                let _ = writeln!(report, "{here} [no anim] {kind}:{}", export(&args, &tmp, out, &root));
                exports += 1;
            }
            for a in o.animations() {
                for (kind, flag, out) in
                    [("json", None, "x.json"), ("gltf", Some("--gltf"), "x.glb"), ("obj", Some("--obj"), "x.obj")]
                {
                    let mut args = base.clone();
                    args.push("--anim".into());
                    args.push(a.name().into());
                    if let Some(f) = flag {
                        args.push(f.into());
                    }
                    let _ = writeln!(report, "{here} [{}] {kind}:{}", a.name(), export(&args, &tmp, out, &root));
                    exports += 1;
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(exports > 300, "only {exports} exports: the enumeration lost fixtures");
    assert!(report.matches(" Clean ").count() > 100, "too few exports succeeded:\n{report}");
    insta::assert_snapshot!("export_digests", report);
}

fn tempfile_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("animscope-export-digests-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
