"""Bake an animscope matrix JSON (schema sc6-armature-matrices-v1) onto an armature.

Run headless:   blender -b scene.blend -P bake_matrices.py -- EXPORT.json [ARMATURE_NAME]
or with the bpy module:  python bake_matrices.py EXPORT.json [ARMATURE_NAME]  (needs a scene)
or from Blender's text editor: set JSON_PATH below, select the armature, run.

Every frame of the JSON is keyed on every named bone (location, quaternion rotation, scale),
parent-first. Each bone's matrix_basis is computed directly from its own armature-space target
and its parent's *target* (not the parent's possibly stale evaluated pose), so a child never
inherits its parent's motion twice. Scene fps and frame range are set from the JSON.
"""
import json
import sys
from pathlib import Path

import bpy
from mathutils import Matrix

JSON_PATH = ""  # for use from the text editor
SCHEMA = "sc6-armature-matrices-v1"


def _rows(values):
    if len(values) != 16:
        raise ValueError(f"matrix needs 16 numbers, got {len(values)}")
    return Matrix([values[0:4], values[4:8], values[8:12], values[12:16]])


def load(path):
    payload = json.loads(Path(path).read_text(encoding="utf-8"))
    if payload.get("schema") != SCHEMA:
        raise ValueError(f"{path}: schema is {payload.get('schema')!r}, expected {SCHEMA}")
    if payload.get("matrix_space") != "blender_armature":
        raise ValueError(f"{path}: matrices must be in blender_armature space")
    frames = payload.get("frames") or []
    if not frames:
        raise ValueError(f"{path}: no frames")
    names = set(frames[0]["bones"])
    for fr in frames:
        if set(fr["bones"]) != names:
            raise ValueError(f"{path}: frame {fr['frame']} has a different bone set")
    return payload


def basis_for(arm, name, target, targets):
    """matrix_basis that makes pose_bone.matrix == target, given the parent's target."""
    bone = arm.data.bones[name]
    rest = bone.matrix_local
    if bone.parent is None:
        return rest.inverted() @ target
    parent_target = targets.get(bone.parent.name)
    if parent_target is None:
        # Parent not in the JSON: it stays at its keyed/rest pose; use its evaluated matrix.
        parent_target = arm.pose.bones[bone.parent.name].matrix
    parent_rest = bone.parent.matrix_local
    return rest.inverted() @ parent_rest @ parent_target.inverted() @ target


def parent_first(arm, names):
    depth = {}
    for n in names:
        b, d = arm.data.bones[n], 0
        while b.parent is not None:
            b, d = b.parent, d + 1
        depth[n] = d
    return sorted(names, key=lambda n: (depth[n], n))


def bake(payload, arm, action_name=None):
    scene = bpy.context.scene
    frames = payload["frames"]
    fps = payload.get("fps", 60)
    scene.render.fps = int(round(fps))
    scene.render.fps_base = scene.render.fps / fps if fps else 1.0
    names = [n for n in frames[0]["bones"] if n in arm.data.bones]
    missing = sorted(set(frames[0]["bones"]) - set(names))
    if missing:
        print(f"bake_matrices: {len(missing)} bones not in armature {arm.name}: {missing[:8]}")
    order = parent_first(arm, names)
    arm.animation_data_create()
    action = bpy.data.actions.new(action_name or payload.get("action", "animscope"))
    arm.animation_data.action = action
    for n in order:
        arm.pose.bones[n].rotation_mode = "QUATERNION"
    previous_q = {}
    for fr in frames:
        f = int(fr["frame"])
        targets = {n: _rows(fr["bones"][n]) for n in names}
        for n in order:
            pb = arm.pose.bones[n]
            basis = basis_for(arm, n, targets[n], targets)
            loc, rot, scale = basis.decompose()
            prev = previous_q.get(n)
            if prev is not None and prev.dot(rot) < 0:
                rot.negate()  # keep quaternion keys on one hemisphere so interpolation is short
            previous_q[n] = rot.copy()
            pb.location, pb.rotation_quaternion, pb.scale = loc, rot, scale
            pb.keyframe_insert("location", frame=f)
            pb.keyframe_insert("rotation_quaternion", frame=f)
            pb.keyframe_insert("scale", frame=f)
    scene.frame_start = int(frames[0]["frame"])
    scene.frame_end = int(frames[-1]["frame"])
    scene.frame_set(scene.frame_start)
    print(f"bake_matrices: baked {action.name}: {len(frames)} frames, {len(order)} bones at {fps} fps")
    return action


def find_armature(name=None):
    if name:
        return bpy.data.objects[name]
    obj = bpy.context.active_object
    if obj is not None and obj.type == "ARMATURE":
        return obj
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    if len(arms) != 1:
        raise ValueError("select an armature or name one")
    return arms[0]


def main(argv):
    args = argv[argv.index("--") + 1:] if "--" in argv else argv[1:]
    path = args[0] if args else JSON_PATH
    if not path:
        raise SystemExit("usage: bake_matrices.py EXPORT.json [ARMATURE]")
    bake(load(path), find_armature(args[1] if len(args) > 1 else None))


if __name__ == "__main__":
    main(sys.argv)
