#!/usr/bin/env bash
# Real-Blender test: install the bpy wheel (Blender as a Python module, Python 3.11) into a
# virtual environment, export each format's fixture clip with animscope, and bake + read back
# every export in Blender (tools/blender/test_bake.py). Run from the project root.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=target/bpy-venv
py=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import bpy" 2>/dev/null; then
  "$venv/bin/pip" install -q --disable-pip-version-check "bpy==5.0.1"
fi
cargo build -q
out=target/bake-test
rm -rf "$out"; mkdir -p "$out"
pairs=()
# Each line: <name> <fixture> <selection args...>; the export and its skeleton are written
# by animscope itself (skeleton = the built-in one for the format, as used by the export).
while read -r name fixture sel; do
  [ -z "$name" ] && continue
  [ -f "$fixture" ] || { echo "missing fixture $fixture"; exit 1; }
  # shellcheck disable=SC2086
  target/debug/animscope export "$fixture" $sel -o "$out/$name.json" --skeleton-out "$out/$name.skel.json"
  pairs+=("$out/$name.skel.json" "$out/$name.json")
done < tools/blender/bake-cases.txt
"$venv/bin/python" tools/blender/test_bake.py "${pairs[@]}"
