"""Real-Blender round trip of a clip edit (issue: write back, clip import).

    python test_import.py ANIMSCOPE OUT_DIR

For each case below: `animscope export` writes the clip as .glb; Blender's own glTF importer
reads it into an empty scene (at the clip's fps, as a user would set it); one pose bone is
turned 30° about its local X at frame 10 (its rotation multiplied on the right by Rx(30°), a
keyframe inserted there); Blender's glTF exporter writes a new .glb; `animscope import`
writes it back into a copy of the input; `animscope decode` of the written clip is compared
with the original's:

- the edited bone at frame 10 is the original rotation times Rx(30°) (its angle from the
  original 30°), within the format's quantisation: SC6 stores axis-angle words of 1/65536
  turn (angle, azimuth, elevation, each within half a step: at most 2 steps of rotation,
  docs/formats/sc6-mot.md); MOTN stores Euler angles in turns as f16 (each within
  |v| × 2⁻¹¹, docs/formats/motn.md; the rotation within the sum of the three, plus 10⁻⁵
  per angle for the f32 matrices);
- every other channel at every frame, and the edited bone's at every other frame, is the
  original's: SC6 the same values (a quaternion may be negated), MOTN within |v| × 2⁻¹¹ +
  10⁻⁵ (rotations modulo whole turns).

The expected rotation is built here from the original decode and Rx(30°), not from what
animscope wrote. So that the check is seen able to fail, every case also runs it expecting
29° and expecting 30° about local Y, and both must fail. `ROUNDTRIP_TURN_DEG=31` turns the
bone 31° in Blender instead (the check, expecting 30°, then fails: run by hand).

MOTN Euler angles are composed as motn.md says for `euler_order=xyz` (x applied first:
R = Rz · Ry · Rx, mathutils' 'XYZ'); decode reports them in radians.
"""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import bpy
from mathutils import Euler, Quaternion

FRAME = 10
DEGREES = 30.0
STEP_SC6 = 2 * math.pi / 65536  # one rotation word step, radians

# (name, fixture, member or None, clip, bone, format)
CASES = [
    ("sc6_mune1", "fixtures/sc6/flags_none.mot", None, "0", "MUNE1", "sc6"),
    ("sc6_demo_koshi", "fixtures/demo.bin", "chr001.mot", "0", "KOSHI", "sc6"),
    ("motn_upperleg", "fixtures/motn/multi.mot", None, "A_WALK_L_02", "UpperLeg_R", "motn"),
    ("motn_pks_upperleg", "fixtures/motn/motion.pks", "ipac/MULTI.MOTN", "YKI_WALK", "UpperLeg_L", "motn"),
]


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode == 0, f"{args}: exit {r.returncode}: {r.stdout}{r.stderr}"
    return r.stdout


def decode(animscope, fixture, member, clip):
    args = [animscope, "decode", fixture] + ([member] if member else []) + ["--anim", clip, "--json"]
    d = json.loads(run(args))
    return {t["name"]: t["samples"] for t in d["tracks"]}


def rotation(tracks, bone, frame):
    """The bone's local rotation at `frame` as decoded: SC6 quaternion tracks, MOTN Euler."""
    if f"{bone}.qw" in tracks:
        x, y, z, w = (tracks[f"{bone}.q{c}"][frame] for c in "xyzw")
        return Quaternion((w, x, y, z))
    e = [tracks.get(f"{bone}.r{c}", [0.0] * (frame + 1))[frame] for c in "xyz"]
    return Euler(e, "XYZ").to_quaternion()


def angle_between(a, b):
    d = a.rotation_difference(b)
    v = math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z)
    return 2 * math.atan2(v, abs(d.w))


def rotation_bound(fmt, tracks, bone, frame):
    if fmt == "sc6":
        return 2 * STEP_SC6
    return sum(abs(tracks.get(f"{bone}.r{c}", [0.0] * (frame + 1))[frame]) * 2**-11 + 1e-5 for c in "xyz")


def sample_close(fmt, name, a, b):
    if fmt == "sc6":
        return a == b
    if name.endswith((".rx", ".ry", ".rz")):
        d = (a - b + math.pi) % (2 * math.pi) - math.pi
    else:
        d = a - b
    return abs(d) <= max(abs(a), abs(b)) * 2**-11 + 1e-5


def check(fmt, bone, before, after, degrees, axis=(1.0, 0.0, 0.0)):
    """Raise AssertionError unless `after` is `before` with `bone` turned `degrees` about
    its local `axis` at FRAME and everything else kept (see the module docs)."""
    assert sorted(before) == sorted(after), f"channels differ: {sorted(set(before) ^ set(after))}"
    want = rotation(before, bone, FRAME) @ Quaternion(axis, math.radians(degrees))
    have = rotation(after, bone, FRAME)
    bound = rotation_bound(fmt, after, bone, FRAME)
    off = angle_between(want, have)
    assert off <= bound, f"{bone} at frame {FRAME}: {math.degrees(off):.5f}° from the expected rotation (bound {math.degrees(bound):.5f}°)"
    for name, xs in before.items():
        ys = after[name]
        assert len(xs) == len(ys), f"{name}: {len(xs)} vs {len(ys)} frames"
        own = name.startswith(bone + ".")
        quat = name.endswith((".qx", ".qy", ".qz", ".qw"))
        for f, (x, y) in enumerate(zip(xs, ys)):
            if own and f == FRAME:
                continue
            if sample_close(fmt, name, x, y):
                continue
            # q and −q are one rotation: the whole quaternion negated at this frame
            if quat:
                q = name.rsplit(".", 1)[0]
                if all(sample_close(fmt, n, before[n][f], -after[n][f]) for n in (f"{q}.q{c}" for c in "xyzw")):
                    continue
            raise AssertionError(f"{name} frame {f}: {x} became {y}")
    return math.degrees(angle_between(rotation(before, bone, FRAME), have))


def blender_edit(glb, fps, bone, degrees, out):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = int(round(fps))
    scene.render.fps_base = round(fps) / fps
    bpy.ops.import_scene.gltf(filepath=str(glb))
    arms = [o for o in scene.objects if o.type == "ARMATURE"]
    assert len(arms) == 1, f"{glb}: {len(arms)} armatures"
    scene.frame_set(FRAME)
    pb = arms[0].pose.bones[bone]
    assert pb.rotation_mode == "QUATERNION", pb.rotation_mode
    pb.rotation_quaternion = pb.rotation_quaternion @ Quaternion((1.0, 0.0, 0.0), math.radians(degrees))
    assert pb.keyframe_insert("rotation_quaternion", frame=FRAME)
    bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLB", export_animations=True)


def main(animscope, out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    turn = float(os.environ.get("ROUNDTRIP_TURN_DEG", DEGREES))
    for name, fixture, member, clip, bone, fmt in CASES:
        glb = out / f"{name}.glb"
        args = [animscope, "export", fixture] + ([member] if member else []) + ["--anim", clip, "-o", str(glb), "--force"]
        run(args)
        js = out / f"{name}.json"
        run([animscope, "export", fixture] + ([member] if member else []) + ["--anim", clip, "-o", str(js), "--force"])
        want = json.loads(js.read_text())
        assert len(want["frames"]) > FRAME, f"{name}: {len(want['frames'])} frames"
        edited = out / f"{name}.edited.glb"
        blender_edit(glb, want["fps"], bone, turn, edited)
        written = out / f"{name}.out{Path(fixture).suffix}"
        target = f"{member}/{clip}" if member else clip
        run([animscope, "import", fixture, target, "--from", str(edited), "-o", str(written), "--overwrite"])
        before = decode(animscope, fixture, member, clip)
        after = decode(animscope, str(written), member, clip)
        # the check must be able to fail: a wrong angle and a wrong axis are both caught
        for wrong in ((DEGREES - 1.0, (1.0, 0.0, 0.0)), (DEGREES, (0.0, 1.0, 0.0))):
            try:
                check(fmt, bone, before, after, *wrong)
            except AssertionError:
                pass
            else:
                raise AssertionError(f"{name}: the check passed a wrong edit {wrong}")
        got = check(fmt, bone, before, after, DEGREES)
        print(f"import round trip {name}: {bone} {got:.4f}° further at frame {FRAME}, every other channel kept")
    print(f"import round trip: {len(CASES)} cases through Blender")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
