"""Real-Blender round trip of a clip edit (issue: write back, clip import).

    python test_import.py ANIMSCOPE OUT_DIR

For each case below: `animscope export` writes the clip as .glb; Blender's own glTF importer
reads it into an empty scene (at the clip's fps, as a user would set it); one pose bone is
turned 30° about its local X at frame 10 (its rotation multiplied on the right by Rx(30°), a
keyframe inserted there; for CCSF on stride.cmp's 13-frame ANM_stride, whose keys fall on
frame 10, at frame 3 on the chara.cmp member of DATA.BIN, whose ANM_walk has 5 frames, and
at frame 5 on the later-generation g123rig.ccs's 8-frame ANM_wave, whose nodes have bind
poses);
Blender's glTF exporter writes a new .glb; `animscope import`
writes it back into a copy of the input; `animscope decode` of the written clip is compared
with the original's:

- the edited bone at frame 10 is the original rotation times Rx(30°) (its angle from the
  original 30°), within the format's quantisation: SC6 stores axis-angle words of 1/65536
  turn (angle, azimuth, elevation, each within half a step: at most 2 steps of rotation,
  docs/formats/sc6-mot.md); MOTN stores Euler angles in turns as f16 (each within
  |v| × 2⁻¹¹, docs/formats/motn.md; the rotation within the sum of the three, plus 10⁻⁵
  per angle for the f32 matrices); CCSF keys XYZ Euler degrees truncated to 1/65536 turn
  (each angle within half a step: at most 2 steps of rotation, docs/formats/ccsf.md#import);
- every other channel at every frame, and the edited bone's at every other frame, is the
  original's: SC6 the same values (a quaternion may be negated), MOTN within |v| × 2⁻¹¹ +
  10⁻⁵ (rotations modulo whole turns), CCSF the same values for every other object (their
  records are kept byte for byte) and, for the edited object's other frames (its controller
  is keyed again on every frame), angles within half a step and positions within 10⁻⁴
  (relative; plus two f32 steps of the world coordinates where they are large, SLACK).

The expected rotation is built here from the original decode and Rx(30°), not from what
animscope wrote. So that the check is seen able to fail, every case also runs it expecting
29° and expecting 30° about local Y, and both must fail. `ROUNDTRIP_TURN_DEG=31` turns the
bone 31° in Blender instead (the check, expecting 30°, then fails: run by hand);
`ROUNDTRIP_ONLY=ccsf` runs the cases whose name starts so.

MOTN Euler angles are composed as motn.md says for `euler_order=xyz` (x applied first:
R = Rz · Ry · Rx, mathutils' 'XYZ'); decode reports them in radians. CCSF's are
R = Rx · Ry · Rz (ccsf.md#evaluation; mathutils' 'ZYX'), in degrees, on tracks named after
the controller's object (the ExtObj copy `OBJ_hip_c` driving the bone `OBJ_hip`).
"""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import bpy
from mathutils import Euler, Quaternion

DEGREES = 30.0
STEP = 2 * math.pi / 65536  # one SC6 rotation word, one CCSF rotation key step: radians

# (name, fixture, member or None, clip, bone, its tracks' prefix, format, frame)
CASES = [
    ("sc6_mune1", "fixtures/sc6/flags_none.mot", None, "0", "MUNE1", "MUNE1", "sc6", 10),
    ("sc6_demo_koshi", "fixtures/demo.bin", "chr001.mot", "0", "KOSHI", "KOSHI", "sc6", 10),
    ("motn_upperleg", "fixtures/motn/multi.mot", None, "A_WALK_L_02", "UpperLeg_R", "UpperLeg_R", "motn", 10),
    ("motn_pks_upperleg", "fixtures/motn/motion.pks", "ipac/MULTI.MOTN", "YKI_WALK", "UpperLeg_L", "UpperLeg_L", "motn", 10),
    ("ccsf_hip", "fixtures/ccsf/stride.cmp", None, "ANM_stride", "OBJ_hip", "OBJ_hip_c", "ccsf", 10),
    ("ccsf_data_hip", "fixtures/gzarc/DATA.BIN", "chara.cmp", "ANM_walk", "OBJ_hip", "OBJ_hip_c", "ccsf", 3),
    ("ccsf2_rig_arm", "fixtures/ccsf/g123rig.ccs", None, "ANM_wave", "OBJ_arm", "OBJ_arm", "ccsf", 5),
]

# Rewritten CCSF positions are the locals import derives from f32 world matrices: within a
# few f32 steps of the world coordinates, not of the local value. g123rig's nodes sit 1,208
# units up (fixtures/README.md), where one f32 step is 2⁻¹³: two steps of slack.
SLACK = {"ccsf2_rig_arm": 2**-12}


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode == 0, f"{args}: exit {r.returncode}: {r.stdout}{r.stderr}"
    return r.stdout


def decode(animscope, fixture, member, clip):
    args = [animscope, "decode", fixture] + ([member] if member else []) + ["--anim", clip, "--json"]
    d = json.loads(run(args))
    return {t["name"]: t["samples"] for t in d["tracks"]}


def rotation(fmt, tracks, bone, frame):
    """The bone's local rotation at `frame` as decoded: SC6 quaternion tracks, MOTN Euler
    radians (x first), CCSF Euler degrees (z first)."""
    if fmt == "sc6":
        x, y, z, w = (tracks[f"{bone}.q{c}"][frame] for c in "xyzw")
        return Quaternion((w, x, y, z))
    e = [tracks.get(f"{bone}.r{c}", [0.0] * (frame + 1))[frame] for c in "xyz"]
    if fmt == "ccsf":
        return Euler([math.radians(v) for v in e], "ZYX").to_quaternion()
    return Euler(e, "XYZ").to_quaternion()


def angle_between(a, b):
    d = a.rotation_difference(b)
    v = math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z)
    return 2 * math.atan2(v, abs(d.w))


def rotation_bound(fmt, tracks, bone, frame):
    if fmt in ("sc6", "ccsf"):
        return 2 * STEP
    return sum(abs(tracks.get(f"{bone}.r{c}", [0.0] * (frame + 1))[frame]) * 2**-11 + 1e-5 for c in "xyz")


def sample_close(fmt, name, a, b, rewritten=False, slack=0.0):
    if fmt == "ccsf" and rewritten:
        if name.endswith((".rx", ".ry", ".rz")):
            return abs((a - b + 180.0) % 360.0 - 180.0) <= math.degrees(STEP) / 2 + 1e-4
        return abs(a - b) <= 1e-4 * (1 + abs(a)) + slack
    if fmt in ("sc6", "ccsf"):
        return a == b
    if name.endswith((".rx", ".ry", ".rz")):
        d = (a - b + math.pi) % (2 * math.pi) - math.pi
    else:
        d = a - b
    return abs(d) <= max(abs(a), abs(b)) * 2**-11 + 1e-5


def check(fmt, bone, frame, before, after, degrees, axis=(1.0, 0.0, 0.0), slack=0.0):
    """Raise AssertionError unless `after` is `before` with `bone` (its tracks' prefix)
    turned `degrees` about its local `axis` at `frame` and everything else kept (see the
    module docs)."""
    assert sorted(before) == sorted(after), f"channels differ: {sorted(set(before) ^ set(after))}"
    want = rotation(fmt, before, bone, frame) @ Quaternion(axis, math.radians(degrees))
    have = rotation(fmt, after, bone, frame)
    bound = rotation_bound(fmt, after, bone, frame)
    off = angle_between(want, have)
    assert off <= bound, f"{bone} at frame {frame}: {math.degrees(off):.5f}° from the expected rotation (bound {math.degrees(bound):.5f}°)"
    for name, xs in before.items():
        ys = after[name]
        assert len(xs) == len(ys), f"{name}: {len(xs)} vs {len(ys)} frames"
        own = name.startswith(bone + ".")
        quat = name.endswith((".qx", ".qy", ".qz", ".qw"))
        for f, (x, y) in enumerate(zip(xs, ys)):
            if own and f == frame:
                continue
            if sample_close(fmt, name, x, y, rewritten=own, slack=slack):
                continue
            # q and −q are one rotation: the whole quaternion negated at this frame
            if quat:
                q = name.rsplit(".", 1)[0]
                if all(sample_close(fmt, n, before[n][f], -after[n][f]) for n in (f"{q}.q{c}" for c in "xyzw")):
                    continue
            raise AssertionError(f"{name} frame {f}: {x} became {y}")
    return math.degrees(angle_between(rotation(fmt, before, bone, frame), have))


def blender_edit(glb, fps, bone, frame, degrees, out):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = int(round(fps))
    scene.render.fps_base = round(fps) / fps
    bpy.ops.import_scene.gltf(filepath=str(glb))
    arms = [o for o in scene.objects if o.type == "ARMATURE"]
    assert len(arms) == 1, f"{glb}: {len(arms)} armatures"
    scene.frame_set(frame)
    pb = arms[0].pose.bones[bone]
    assert pb.rotation_mode == "QUATERNION", pb.rotation_mode
    pb.rotation_quaternion = pb.rotation_quaternion @ Quaternion((1.0, 0.0, 0.0), math.radians(degrees))
    assert pb.keyframe_insert("rotation_quaternion", frame=frame)
    bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLB", export_animations=True)


def main(animscope, out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    turn = float(os.environ.get("ROUNDTRIP_TURN_DEG", DEGREES))
    only = os.environ.get("ROUNDTRIP_ONLY", "")
    for name, fixture, member, clip, bone, tracks, fmt, frame in CASES:
        if not name.startswith(only):
            continue
        glb = out / f"{name}.glb"
        args = [animscope, "export", fixture] + ([member] if member else []) + ["--anim", clip, "-o", str(glb), "--force"]
        run(args)
        js = out / f"{name}.json"
        run([animscope, "export", fixture] + ([member] if member else []) + ["--anim", clip, "-o", str(js), "--force"])
        want = json.loads(js.read_text())
        assert len(want["frames"]) > frame, f"{name}: {len(want['frames'])} frames"
        edited = out / f"{name}.edited.glb"
        blender_edit(glb, want["fps"], bone, frame, turn, edited)
        written = out / f"{name}.out{Path(fixture).suffix}"
        target = f"{member}/{clip}" if member else clip
        run([animscope, "import", fixture, target, "--from", str(edited), "-o", str(written), "--overwrite"])
        before = decode(animscope, fixture, member, clip)
        after = decode(animscope, str(written), member, clip)
        # the check must be able to fail: a wrong angle and a wrong axis are both caught
        for wrong in ((DEGREES - 1.0, (1.0, 0.0, 0.0)), (DEGREES, (0.0, 1.0, 0.0))):
            try:
                check(fmt, tracks, frame, before, after, *wrong, slack=SLACK.get(name, 0.0))
            except AssertionError:
                pass
            else:
                raise AssertionError(f"{name}: the check passed a wrong edit {wrong}")
        got = check(fmt, tracks, frame, before, after, DEGREES, slack=SLACK.get(name, 0.0))
        print(f"import round trip {name}: {bone} {got:.4f}° further at frame {frame}, every other channel kept")
    print(f"import round trip: {len(CASES)} cases through Blender")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
