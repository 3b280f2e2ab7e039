#!/usr/bin/env bash
# glTF export checks, run by CI after the bake test (whose `cargo build` and bpy venv it
# reuses; it makes either itself when missing). Run from anywhere.
#  1. The Khronos glTF validator (npm `gltf-validator`, run with node) on a .glb and a .gltf
#     export of every case in gltf-cases.txt: 0 errors and 0 warnings required.
#  2. Blender's own importer (test_gltf.py): heads and deformations against the matrix JSON,
#     mesh counts, textures, deformed vertices against the posed OBJ export.
#  3. A batch export over several inputs, a sample of its .glb files imported (test_batch.py).
#  4. A clip edited in Blender (one bone turned 30° at frame 10) and imported back (test_import.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${ANIMSCOPE:-target/debug/animscope}
[ -x "$bin" ] || cargo build -q
out=target/gltf-test
rm -rf "$out"; mkdir -p "$out"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
vdir=target/gltf-validator
if [ ! -d "$vdir/node_modules/gltf-validator" ]; then
  mkdir -p "$vdir"
  npm install --prefix "$vdir" --no-audit --no-fund --silent "gltf-validator@2.0.0-dev.3.10" >/dev/null
fi
files=()
while read -r name fixture sel; do
  [ -z "$name" ] && continue
  [ -f "$fixture" ] || { echo "missing fixture $fixture"; exit 1; }
  for ext in glb gltf; do
    # shellcheck disable=SC2086
    mkdir -p "$out/$ext"
    # the extension alone asks for glTF (the CLI's rule); `exact-skins` is for test_gltf.py
    "$bin" export "$fixture" ${sel/exact-skins/} -o "$out/$ext/$name.$ext"
    files+=("$out/$ext/$name.$ext")
  done
done < tools/blender/gltf-cases.txt
NODE_PATH="$vdir/node_modules" node tools/blender/validate_gltf.js "${files[@]}"

venv=${BPY_VENV:-target/bpy-venv}
if [ ! -x "$venv/bin/python" ]; then
  "${PYTHON:-python3}" -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import bpy" 2>/dev/null; then
  "$venv/bin/pip" install -q --disable-pip-version-check "bpy==5.0.1"
fi
"$venv/bin/python" tools/blender/test_gltf.py "$bin" "$out/blender" tools/blender/gltf-cases.txt 2>&1 | grep -v '| INFO: '

# 3. A batch export (several inputs, one without animations) and Blender importing a sample
#    of its .glb files (test_batch.py).
"$venv/bin/python" tools/blender/test_batch.py "$bin" "$out/batch" 2>&1 | grep -v '| INFO: '

# 4. A clip edited in Blender and imported back (test_import.py): one bone turned 30° about
#    its local X at frame 10 in SC6 and MOTN clips (plain and inside demo.bin / PKS → IPAC)
#    and CCSF's 13-frame gen-1 Anime (stride.cmp), at frame 3 in the 5-frame one of the
#    chara.cmp member of gzarc/DATA.BIN;
#    `decode` must show exactly that turn within the format's quantisation, nothing else moved.
"$venv/bin/python" tools/blender/test_import.py "$bin" "$out/import" 2>&1 | grep -v '| INFO: '
