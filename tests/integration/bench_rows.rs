//! Every figure in benches/README.md comes from a recorded row (issue #53): each number in a
//! `latest` cell of its tables must be found in a row of `benches/runs/*.csv` with the same
//! date and commit as the table row, as the row's value, criterion's median (or its interval
//! or mean) in the unit the README uses, its load or a figure of its reference run. Numbers
//! are compared at the precision the README states them.

use std::path::Path;

/// The fields of one CSV line (RFC 4180 quoting: `"` around fields, `""` inside them).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                push(&mut fields, '"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            _ => push(&mut fields, c),
        }
    }
    fields
}

fn push(fields: &mut [String], c: char) {
    if let Some(f) = fields.last_mut() {
        f.push(c);
    }
}

/// The numbers written in `text` (`12,520` is one number), each with the number of decimals
/// it is written with and the word after it (a unit, when there is one).
fn numbers(text: &str) -> Vec<(f64, usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if !(chars[i].is_ascii_digit() && starts_word) {
            i += 1;
            continue;
        }
        let mut digits = String::new();
        let mut decimals = None;
        while i < chars.len() {
            let c = chars[i];
            let next_is_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if c.is_ascii_digit() {
                digits.push(c);
                decimals = decimals.map(|d| d + 1);
            } else if c == ',' && decimals.is_none() && chars[i + 1..].iter().take(3).all(char::is_ascii_digit) {
                // a thousands separator, not a list comma ("1, 3" has a space)
            } else if c == '.' && decimals.is_none() && next_is_digit {
                digits.push('.');
                decimals = Some(0);
            } else {
                break;
            }
            i += 1;
        }
        // letters glued to the number make it a name (`30d51d6`, `1t`), not a figure
        if chars.get(i).is_some_and(|c| c.is_ascii_alphabetic()) {
            while chars.get(i).is_some_and(|c| c.is_alphanumeric()) {
                i += 1;
            }
            continue;
        }
        let rest: String = chars[i..].iter().collect();
        let unit = rest.trim_start().split(|c: char| c.is_whitespace() || ",;)".contains(c)).next().unwrap_or("");
        if let Ok(v) = digits.parse::<f64>() {
            out.push((v, decimals.unwrap_or(0), unit.to_string()));
        }
    }
    out
}

/// Units of one kind, with their size in the kind's smallest unit.
const KINDS: &[&[(&str, f64)]] = &[
    &[("ns", 1.0), ("µs", 1e3), ("us", 1e3), ("ms", 1e6), ("s", 1e9), ("min", 6e10)],
    &[("B", 1.0), ("bytes", 1.0), ("KB", 1e3), ("kB", 1e3), ("MB", 1e6), ("GB", 1e9)],
    &[("KiB", 1024.0), ("MiB", 1048576.0), ("GiB", 1073741824.0)],
    &[("instructions", 1.0), ("k", 1e3), ("M", 1e6), ("G", 1e9)],
];

/// The kind of `unit` (its first word) and its size in that kind.
fn unit_of(unit: &str) -> Option<(usize, f64)> {
    let word = unit.split_whitespace().next().unwrap_or("");
    KINDS.iter().enumerate().find_map(|(k, units)| units.iter().find(|(u, _)| *u == word).map(|(_, f)| (k, *f)))
}

/// One recorded row: its date, commit, and every figure it holds, each with its unit.
struct Row {
    file: String,
    date: String,
    commit: String,
    figures: Vec<(f64, String)>,
}

fn rows(dir: &Path) -> Vec<Row> {
    let mut out = Vec::new();
    let mut files: Vec<_> =
        std::fs::read_dir(dir).expect("benches/runs").filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "csv")) {
        let text = std::fs::read_to_string(path).expect("reads a runs file");
        let mut lines = text.lines();
        let header = csv_fields(lines.next().unwrap_or(""));
        let col = |name: &str| header.iter().position(|h| h == name);
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        for line in lines.filter(|l| !l.trim().is_empty()) {
            let f = csv_fields(line);
            let get = |name: &str| col(name).and_then(|i| f.get(i)).map(String::as_str).unwrap_or("");
            let mut figures = Vec::new();
            for name in ["median_ns", "mean_ns", "ci_low_ns", "ci_high_ns"] {
                if let Ok(v) = get(name).parse::<f64>() {
                    figures.push((v, "ns".to_string()));
                }
            }
            figures.extend(numbers(get("value")).into_iter().map(|(v, _, _)| (v, get("unit").to_string())));
            figures.extend(numbers(get("load")).into_iter().map(|(v, _, u)| (v, u)));
            // a reference figure without a unit of its own is in the row's unit
            for (v, _, u) in numbers(get("reference")) {
                figures.push((v, if unit_of(&u).is_some() { u } else { get("unit").to_string() }));
            }
            // files begun before the load column say it in the source ("load average 5.7 at the start")
            if let Some(at) = get("source").find("load") {
                let said: String = get("source")[at..].chars().take(30).collect();
                figures.extend(numbers(&said).into_iter().map(|(v, _, u)| (v, u)));
            }
            out.push(Row {
                file: file.clone(),
                date: get("date").to_string(),
                commit: get("commit").to_string(),
                figures,
            });
        }
    }
    out
}

/// Whether the recorded `figure` is `shown` (written with `decimals` decimals, in `unit`).
/// An unlabelled README number ("1.15 vs 0.92 s") may be in any unit of the figure's kind.
fn shows(figure: &(f64, String), shown: f64, decimals: usize, unit: &str) -> bool {
    let half = 0.5 * 10f64.powi(-(decimals as i32)) * (1.0 + 1e-9);
    let (value, recorded) = figure;
    let near = |v: f64| (v - shown).abs() <= half;
    match (unit_of(recorded), unit_of(unit)) {
        (Some((k, from)), Some((j, to))) if k == j => near(value * from / to),
        (Some((k, from)), None) => near(*value) || KINDS[k].iter().any(|(_, to)| near(value * from / to)),
        _ => near(*value),
    }
}

/// Cells of a markdown table line (`| a | b |`).
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

#[test]
fn every_readme_figure_has_a_recorded_row() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("benches/README.md");
    let rows = rows(&root.join("runs"));
    assert!(rows.len() > 100, "benches/runs holds the recorded rows ({} found)", rows.len());
    let mut missing = Vec::new();
    let mut checked = 0;
    let mut header: Option<Vec<String>> = None;
    for (n, line) in readme.lines().enumerate() {
        if !line.trim_start().starts_with('|') {
            header = None;
            continue;
        }
        let c = cells(line);
        let Some(h) = &header else {
            header = Some(c);
            continue;
        };
        if c.iter().all(|x| x.chars().all(|ch| "-: ".contains(ch))) {
            continue;
        }
        let at = |name: &str| h.iter().position(|x| x == name).and_then(|i| c.get(i)).map(String::as_str);
        let Some(latest) = at("latest") else { continue };
        let date = at("date").unwrap_or("");
        let commits: Vec<&str> = at("commit").unwrap_or("").split([',', '/']).map(str::trim).collect();
        let same_run = |r: &&Row| {
            r.date == date
                && commits.iter().any(|k| match *k {
                    "–" | "-" | "" => r.commit.is_empty(),
                    k => r.commit.split_whitespace().next() == Some(k),
                })
        };
        let candidates: Vec<&Row> = rows.iter().filter(same_run).collect();
        for (shown, decimals, unit) in numbers(latest) {
            checked += 1;
            if !candidates.iter().any(|r| r.figures.iter().any(|f| shows(f, shown, decimals, &unit))) {
                let mut files: Vec<&str> = candidates.iter().map(|r| r.file.as_str()).collect();
                files.dedup();
                missing.push(format!(
                    "benches/README.md:{}: {shown} (then {unit:?}; {date}, commit {commits:?}): in none of the {} rows of that run ({})",
                    n + 1,
                    candidates.len(),
                    files.join(", ")
                ));
            }
        }
    }
    assert!(checked > 20, "the README's tables have `latest` columns with figures ({checked} found)");
    assert!(missing.is_empty(), "figures without a recorded row:\n{}", missing.join("\n"));
}

#[test]
fn numbers_are_read_as_written() {
    let got: Vec<(f64, usize, String)> = numbers("12,520 → 7.69 ms (load 5–6), 1, 3; 30d51d6 1t 0.92 s");
    let want =
        [(12520.0, 0, "→"), (7.69, 2, "ms"), (5.0, 0, "–6"), (6.0, 0, ""), (1.0, 0, ""), (3.0, 0, ""), (0.92, 2, "s")];
    let want: Vec<(f64, usize, String)> = want.iter().map(|(v, d, u)| (*v, *d, u.to_string())).collect();
    assert_eq!(got, want);
}
