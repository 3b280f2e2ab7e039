#!/usr/bin/env bash
# Write a sparse sector-gzip archive for the sparse survey/check measurements
# (benches/README.md): COUNT copies of the first member of fixtures/gzarc/DATA.BIN (made by
# the project's gzip archive writer, `animscope gen-fixtures`), APART bytes apart, holes
# between them (nothing is written there). Nothing large is committed: run it where the
# file may go.
#   tools/sparse-archive.sh OUT [COUNT=4096] [APART=1048576]
set -euo pipefail
out=$(realpath -m "$1")
count=${2:-4096}
apart=${3:-1048576}
cd "$(dirname "$0")/.."
python3 - "$out" "$count" "$apart" <<'PY'
import sys
out, count, apart = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
member = open("fixtures/gzarc/DATA.BIN", "rb").read()[:2048]
assert member[:3] == b"\x1f\x8b\x08"
with open(out, "wb") as f:
    for i in range(count):
        f.seek(i * apart)
        f.write(member)
    f.truncate(count * apart)
PY
