#!/usr/bin/env bash
# Run benchmarks and append criterion's estimates of this run to benches/runs/DATE.csv.
#
#   benches/record.sh                 every [[bench]] of Cargo.toml, one after another
#   benches/record.sh records open    only these benches
#   benches/record.sh records -- gzarc    arguments after `--` go to the bench binary (a filter)
#
# Rows: date, commit (-dirty when the tree has changes), bench, id (criterion's full id),
# median_ns, mean_ns, ci_low_ns, ci_high_ns (the median's 95 % interval), value, unit
# (empty for criterion rows), source, load (the 1-minute load average before and after the
# bench ran, "START-END": figures taken on a loaded machine are not comparable with idle
# ones), reference (the reference run beside a figure: filled for a `*_1t_cpu` survey when the
# same run measured `inflate_only_1t_cpu` of its group; by hand for rows added by hand). Only benchmarks this run measured are appended (their
# estimates.json is newer than the run's start). Figures a bench prints itself (RSS phases
# of browse_memory and big_archives, ratios) are not in criterion's files: add them by hand
# with value/unit and source "printed".
set -euo pipefail
cd "$(dirname "$0")/.."

benches=()
pass=()
while [ $# -gt 0 ]; do
    case "$1" in
        --) shift; pass=("$@"); break ;;
        *) benches+=("$1"); shift ;;
    esac
done
if [ ${#benches[@]} -eq 0 ]; then
    mapfile -t benches < <(awk '/^\[\[bench\]\]/ { b = 1; next } b && /^name *=/ { gsub(/^name *= *"|"$/, ""); print; b = 0 }' Cargo.toml)
fi

day=$(date -u +%Y-%m-%d)
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- src benches/*.rs benches/common Cargo.toml Cargo.lock || commit="$commit-dirty"
out="benches/runs/$day.csv"
criterion="${CARGO_TARGET_DIR:-target}/criterion"
mkdir -p benches/runs
[ -s "$out" ] || echo "date,commit,bench,id,median_ns,mean_ns,ci_low_ns,ci_high_ns,value,unit,source,load,reference" >"$out"
# files begun before the load and reference columns keep their layout
columns=new
head -1 "$out" | grep -q ',load,reference$' || columns=old

for bench in "${benches[@]}"; do
    stamp=$(mktemp)
    # build first, so the load is read around the measurement and not the compilation
    cargo bench --no-run --bench "$bench"
    touch "$stamp"
    start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
    cargo bench --bench "$bench" -- ${pass[@]+"${pass[@]}"}
    end=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
    load="$start-$end"
    python3 - "$criterion" "$stamp" "$day" "$commit" "$bench" "$load" "$columns" >>"$out" <<'PY'
import csv, json, os, sys
root, stamp, day, commit, bench, load, columns = sys.argv[1:]
since = os.path.getmtime(stamp)
w = csv.writer(sys.stdout, lineterminator="\n")
rows = []
for d, _, files in os.walk(root):
    if os.path.basename(d) != "new" or "estimates.json" not in files:
        continue
    est = os.path.join(d, "estimates.json")
    if os.path.getmtime(est) < since:
        continue
    with open(est) as f:
        e = json.load(f)
    try:
        with open(os.path.join(d, "benchmark.json")) as f:
            name = json.load(f)["full_id"]
    except (OSError, KeyError, ValueError):
        name = os.path.relpath(os.path.dirname(d), root)
    m = e["median"]
    ci = m["confidence_interval"]
    rows.append([day, commit, bench, name, f"{m['point_estimate']:.1f}", f"{e['mean']['point_estimate']:.1f}",
                 f"{ci['lower_bound']:.1f}", f"{ci['upper_bound']:.1f}", "", ""]
                + ([f"criterion, load average {load} at the start"] if columns == "old" else ["criterion", load, ""]))
# The reference run beside a figure, when the same run measured it: plain inflation of the same
# members beside each survey or check of a group (`GROUP/inflate_only_1t_cpu`).
medians = {r[3]: float(r[4]) for r in rows}
for r in rows:
    group, _, case = r[3].rpartition("/")
    ref = f"{group}/inflate_only_1t_cpu"
    if columns == "new" and case.endswith("_1t_cpu") and "inflate_only" not in case and ref in medians:
        base = medians[ref]
        r[12] = f"{ref} in the same run: {base / 1e6:.2f} ms; ratio {float(r[4]) / base:.2f}"
    # and the same work on one thread beside a 2-thread run (`X_2t` beside `X_1t_cpu`)
    one = f"{group}/{case[:-3]}_1t_cpu"
    if columns == "new" and case.endswith("_2t") and one in medians:
        r[12] = f"{one} in the same run: {medians[one] / 1e6:.2f} ms; speed-up {medians[one] / float(r[4]):.2f}"
for r in sorted(rows, key=lambda r: r[3]):
    w.writerow(r)
print(f"{bench}: {len(rows)} rows appended", file=sys.stderr)
PY
    rm -f "$stamp"
done
echo "rows in $out" >&2
