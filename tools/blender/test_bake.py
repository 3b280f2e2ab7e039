"""Real-Blender test of the bake and dump scripts (run with the bpy wheel, Python 3.11).

    python test_bake.py [SKELETON.json EXPORT.json]...

With no arguments it runs only the built-in case. For each pair: build an armature from the
skeleton file, bake the export with bake_matrices.py, read pose_bone.matrix back at the
first, a middle and the last frame and compare with the JSON (max abs error <= 1e-4, no
transpose), check neither end frame equals the rest pose where the clip moves there, check
fps and range, and round-trip dump_skeleton.py -> same bones.

The built-in case has a root that moves 0.1 per frame with a rotating child chain below it,
and also checks that a naive parent-first `pose_bone.matrix = target` bake (the stale-parent
trap) is detected by the same comparison, so the comparison is known to be able to fail.
"""
import json
import math
import sys
import tempfile
from pathlib import Path

import bpy
from mathutils import Matrix

sys.path.insert(0, str(Path(__file__).parent))
import bake_matrices  # noqa: E402
import dump_skeleton  # noqa: E402

TOL = 1e-4


def rows(values):
    return Matrix([values[0:4], values[4:8], values[8:12], values[12:16]])


def flat(m):
    return [float(m[r][c]) for r in range(4) for c in range(4)]


def build_armature(skel):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    data = bpy.data.armatures.new(skel.get("name", "skeleton"))
    arm = bpy.data.objects.new(data.name, data)
    bpy.context.scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    for b in skel["bones"]:
        eb = data.edit_bones.new(b["name"])
        eb.head, eb.tail = (0, 0, 0), (0, 0.1, 0)
        eb.matrix = rows(b["rest"])
        if b.get("parent"):
            eb.parent = data.edit_bones[b["parent"]]
    bpy.ops.object.mode_set(mode="OBJECT")
    return arm


def max_err(a, b):
    return max(abs(a[r][c] - b[r][c]) for r in range(4) for c in range(4))


def compare(arm, payload, label):
    scene = bpy.context.scene
    frames = payload["frames"]
    picks = sorted({0, len(frames) // 2, len(frames) - 1})
    worst = 0.0
    for i in picks:
        fr = frames[i]
        scene.frame_set(int(fr["frame"]))
        bpy.context.view_layer.update()
        for name, vals in fr["bones"].items():
            if name not in arm.pose.bones:
                continue
            e = max_err(arm.pose.bones[name].matrix, rows(vals))
            worst = max(worst, e)
    return worst


def check_pair(skel, payload, label):
    arm = build_armature(skel)
    # rest matrices survive edit-bone construction
    for b in skel["bones"]:
        e = max_err(arm.data.bones[b["name"]].matrix_local, rows(b["rest"]))
        assert e < TOL, f"{label}: rest of {b['name']} off by {e}"
    bake_matrices.bake(payload, arm)
    scene = bpy.context.scene
    frames = payload["frames"]
    assert scene.frame_start == frames[0]["frame"] and scene.frame_end == frames[-1]["frame"], label
    assert abs(scene.render.fps / scene.render.fps_base - payload["fps"]) < 1e-6, label
    worst = compare(arm, payload, label)
    assert worst <= TOL, f"{label}: pose differs from JSON by {worst}"
    # Neither end frame may snap to rest where the JSON moves away from rest there.
    rest = {b["name"]: rows(b["rest"]) for b in skel["bones"]}
    for i in (0, len(frames) - 1):
        fr = frames[i]
        moving = [n for n, v in fr["bones"].items() if n in rest and max_err(rows(v), rest[n]) > 1e-3]
        scene.frame_set(int(fr["frame"]))
        for n in moving:
            e = max_err(arm.pose.bones[n].matrix, rest[n])
            assert e > 1e-3, f"{label}: frame {fr['frame']} bone {n} snapped to rest"
    # dump_skeleton round trip
    dumped = dump_skeleton.dump(arm)
    assert [b["name"] for b in dumped["bones"]] == sorted_parent_first(skel), label
    for b in dumped["bones"]:
        src = next(s for s in skel["bones"] if s["name"] == b["name"])
        assert b["parent"] == src.get("parent"), f"{label}: parent of {b['name']}"
        assert max(abs(x - y) for x, y in zip(b["rest"], src["rest"])) < TOL, f"{label}: rest of {b['name']}"
    print(f"ok {label}: {len(frames)} frames, max error {worst:.2e}")
    return worst


def sorted_parent_first(skel):
    kids = {}
    for b in skel["bones"]:
        kids.setdefault(b.get("parent"), []).append(b["name"])
    out = []

    def visit(n):
        out.append(n)
        for c in sorted(kids.get(n, [])):
            visit(c)

    for r in sorted(kids.get(None, [])):
        visit(r)
    return out


def builtin_case():
    """Root slides 0.1/frame along x and turns; two children rotate about their own axes."""
    def trs(t, axis, angle):
        return Matrix.Translation(t) @ Matrix.Rotation(angle, 4, axis)

    rest = {
        "root": trs((0, 0, 0), "Z", 0.0),
        "spine": trs((0, 0, 1), "X", -math.pi / 2),
        "head": trs((0, 0, 2), "X", -math.pi / 2),
    }
    parent = {"root": None, "spine": "root", "head": "spine"}
    skel = {"schema": "animscope-skeleton-v1", "name": "moving_parents", "space": "blender_armature",
            "bones": [{"name": n, "parent": parent[n], "rest": flat(rest[n])} for n in ("root", "spine", "head")]}
    frames = []
    for f in range(9):
        local = {
            "root": trs((0.1 * f, 0, 0), "Z", 0.2 * f),
            "spine": trs((0, 0, 0), "X", 0.15 * f),
            "head": trs((0, 0, 0), "Z", -0.1 * f),
        }
        world = {}
        for n in ("root", "spine", "head"):
            p = parent[n]
            offset = rest[n] if p is None else rest[p].inverted() @ rest[n]
            world[n] = (world[p] if p else Matrix.Identity(4)) @ offset @ local[n]
        frames.append({"frame": f + 1, "bones": {n: flat(m) for n, m in world.items()}})
    payload = {"schema": "sc6-armature-matrices-v1", "action": "moving_parents", "fps": 30,
               "matrix_space": "blender_armature", "frames": frames}
    return skel, payload


def naive_bake_error(skel, payload):
    """Seed 001's approach: assign pose_bone.matrix parent-first without re-evaluating."""
    arm = build_armature(skel)
    arm.animation_data_create()
    arm.animation_data.action = bpy.data.actions.new("naive")
    names = bake_matrices.parent_first(arm, list(payload["frames"][0]["bones"]))
    for fr in payload["frames"]:
        for n in names:
            pb = arm.pose.bones[n]
            pb.rotation_mode = "QUATERNION"
            pb.matrix = rows(fr["bones"][n])
            for path in ("location", "rotation_quaternion", "scale"):
                pb.keyframe_insert(path, frame=fr["frame"])
    return compare(arm, payload, "naive")


def main(args):
    skel, payload = builtin_case()
    check_pair(skel, payload, "builtin moving parents")
    naive = naive_bake_error(skel, payload)
    assert naive > 10 * TOL, f"the stale-parent trap was not detectable (naive error {naive})"
    print(f"ok naive stale-parent bake is caught: error {naive:.3f}")
    for skel_path, export_path in zip(args[0::2], args[1::2]):
        skel = json.loads(Path(skel_path).read_text())
        payload = bake_matrices.load(export_path)
        check_pair(skel, payload, Path(export_path).name)
    print("blender bake tests passed")


if __name__ == "__main__":
    main(sys.argv[1:])
