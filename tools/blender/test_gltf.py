"""Real-Blender test of the glTF export with Blender's own importer (bpy wheel, Python 3.11).

    python test_gltf.py ANIMSCOPE OUT_DIR CASES_FILE

Each line of CASES_FILE: <name> <fixture> <selection args...>. For each case the script runs
animscope itself: `export --gltf -o NAME.glb` and, for a clip, the matrix JSON of the same
clip (`-o NAME.json --skeleton-out NAME.skel.json`); for a scene, the OBJ export (at rest,
and posed at each compared frame). Then it imports the .glb with bpy.ops.import_scene.gltf
and checks:

- at the first, a middle and the last frame of the matrix JSON, every bone's head and
  deformation (pose · rest⁻¹, world space) equal the JSON's (<= 1e-4, relative to the
  numbers' size when they exceed 1); the importer's
  bone-orientation heuristic changes rest orientations, not these;
- the action's frame range and the scene fps are the clip's;
- meshes: vertex and triangle counts equal the OBJ export's (meshes with faces), every
  material that names a texture in the MTL has that texture attached (the image the glTF
  names is the PNG the MTL names: materials are matched by index, not by name), and every
  vertex deformed by the armature lands on the OBJ export posed at the same frame
  (<= 1e-4 relative to its distance from the origin, at least 1e-4). Skin vertices are
  compared when the case says `exact-skins`: a CCSF skin stores one position per
  influence, glTF one per vertex, so they agree only where the influences describe one
  point at the bind pose (later-generation scenes with bind poses); otherwise only their
  weights are checked.

The export is asked for by the output's extension alone (no --gltf), as a user would.

A wrong axis conversion, a transposed matrix or a lost parent fails the first check (the
built-in self-test below shows the comparison can fail).
"""
import json
import subprocess
import sys
from pathlib import Path

import bpy
from mathutils import Matrix, Vector

TOL = 1e-4


def rows(values):
    return Matrix([values[0:4], values[4:8], values[8:12], values[12:16]])


def max_err(a, b):
    return max(abs(a[r][c] - b[r][c]) for r in range(4) for c in range(4))


def run(animscope, *args):
    subprocess.run([animscope, *args, "--force"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def read_obj(path):
    """Per object with faces: positions (in order) and face count; MTL texture per material."""
    objs, cur = [], None
    for line in Path(path).read_text().splitlines():
        p = line.split()
        if not p:
            continue
        if p[0] == "o":
            cur = {"name": p[1], "v": [], "f": 0, "mtl": None}
            objs.append(cur)
        elif p[0] == "v":
            cur["v"].append(Vector([float(x) for x in p[1:4]]))
        elif p[0] == "f":
            cur["f"] += 1
            cur.setdefault("used", set()).update(int(x.split("/")[0]) for x in p[1:])
        elif p[0] == "usemtl":
            cur["mtl"] = p[1]
    textures, mat = {}, None
    mtl = Path(path).with_suffix(".mtl")
    for line in mtl.read_text().splitlines() if mtl.exists() else []:
        p = line.split()
        if p and p[0] == "newmtl":
            mat = p[1]
        elif p and p[0] == "map_Kd":
            textures[mat] = p[1]
    # OBJ indices are global and 1-based: make each object's used set local.
    base = 1
    for o in objs:
        o["used"] = sorted(i - base for i in o.get("used", ()))
        base += len(o["v"])
    return [o for o in objs if o["f"] > 0], textures


def import_glb(path, fps):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = int(round(fps))
    bpy.context.scene.render.fps_base = round(fps) / fps
    bpy.ops.import_scene.gltf(filepath=str(path))
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    meshes = [o for o in bpy.data.objects if o.type == "MESH" and o.data.users and o.name != "Icosphere"]
    # The importer's bone display shape is a mesh object too: keep only meshes with a material
    # or an armature modifier or a name from the export.
    meshes = [o for o in meshes if o.parent is not None or o.modifiers or o.data.materials]
    return (arms[0] if arms else None), meshes


def compare_bones(arm, payload, skel, label):
    rest = {b["name"]: rows(b["rest"]) for b in skel["bones"]}
    frames = payload["frames"]
    picks = sorted({0, len(frames) // 2, len(frames) - 1})
    worst, checked, moved = 0.0, 0, False
    scene = bpy.context.scene
    for i in picks:
        fr = frames[i]
        scene.frame_set(int(fr["frame"]))
        bpy.context.view_layer.update()
        for name, vals in fr["bones"].items():
            pb = arm.pose.bones.get(name)
            assert pb is not None, f"{label}: bone {name} missing after import"
            pose = arm.matrix_world @ pb.matrix
            rest_b = arm.matrix_world @ arm.data.bones[name].matrix_local
            want_pose = rows(vals)
            want_def = want_pose @ rest[name].inverted()
            got_def = pose @ rest_b.inverted()
            # relative to the size of the numbers: real scenes stand 1,000+ units from the
            # origin, where an f32 carries about 1e-4 absolute
            size = max(1.0, want_pose.translation.length, max(abs(want_def[r][c]) for r in range(4) for c in range(4)))
            head = max(abs(a - b) for a, b in zip(pose.translation, want_pose.translation))
            worst = max(worst, head / size, max_err(got_def, want_def) / size)
            moved |= max_err(want_def, Matrix.Identity(4)) > 1e-3
            checked += 1
    assert worst <= TOL, f"{label}: heads/deformations differ from the matrix JSON by {worst}"
    return worst, checked, moved


def mesh_world_positions(obj):
    dg = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(dg)
    me = ev.to_mesh()
    out = [ev.matrix_world @ v.co for v in me.vertices]
    ev.to_mesh_clear()
    return out


def check_meshes(meshes, obj_rest, textures, label):
    """Counts, and the texture of every mesh's material against the MTL's for that mesh."""
    # Blender's importer keeps only the vertices that triangles use.
    want_v = sum(len(o["used"]) for o in obj_rest)
    want_f = sum(o["f"] for o in obj_rest)
    got_v = sum(len(o.data.vertices) for o in meshes)
    got_f = sum(len(o.data.polygons) for o in meshes)
    assert (got_v, got_f) == (want_v, want_f), f"{label}: meshes have {got_v} vertices {got_f} triangles, OBJ {want_v} {want_f}"
    by_name = {o["name"]: o for o in obj_rest}
    attached = 0
    for m in meshes:
        o = by_name.get(m.name) or by_name.get(m.data.name)
        assert o is not None, f"{label}: imported mesh {m.name} is not in the OBJ export"
        mat = m.data.materials[0] if m.data.materials else None
        if o["mtl"] is not None:
            assert mat is not None and mat.name.split(".")[0] == o["mtl"], (
                f"{label}: {m.name} has material {mat.name if mat else None}, the OBJ uses {o['mtl']}"
            )
        if o["mtl"] in textures:
            imgs = [n.image for n in mat.node_tree.nodes if n.type == "TEX_IMAGE" and n.image] if mat else []
            assert imgs and imgs[0].size[0] > 0, f"{label}: {m.name} has no texture attached (MTL says {textures[o['mtl']]})"
            want = Path(textures[o["mtl"]]).stem
            got = imgs[0].name.rsplit(".png", 1)[0]
            assert got == want, f"{label}: {m.name} samples image {imgs[0].name}, the MTL gives {textures[o['mtl']]}"
            attached += 1
    return got_v, got_f, attached


def check_deformed(meshes, obj_rest, obj_posed, label, exact_skins):
    """Each imported vertex is matched to the OBJ vertex at its rest position (the importer
    may drop and reorder vertices); deformed by the armature, it must land on that vertex
    posed. Skin meshes without `exact_skins`: armature-bound, weights summing to 1.
    Returns the worst error relative to max(1, distance from the origin)."""
    rest = {o["name"]: o for o in obj_rest}
    posed = {o["name"]: o for o in obj_posed}
    worst = 0.0
    for m in meshes:
        assert any(md.type == "ARMATURE" and md.object for md in m.modifiers), f"{label}: {m.name} is not skinned"
        if m.name.endswith("_skin") and not exact_skins:
            # CCSF stores one position per influence, glTF one per vertex (bound at the
            # weighted mean): only the weights can be checked here.
            for v in m.data.vertices:
                total = sum(g.weight for g in v.groups)
                assert abs(total - 1.0) <= 1e-4, f"{label}: {m.name} vertex weights sum to {total}"
            continue
        got = mesh_world_positions(m)
        for v, g in zip(m.data.vertices, got):
            at = m.matrix_world @ v.co
            i = min(rest[m.name]["used"], key=lambda k: (rest[m.name]["v"][k] - at).length)
            near = (rest[m.name]["v"][i] - at).length / max(1.0, at.length)
            assert near <= TOL, f"{label}: {m.name} vertex at {at} is not in the OBJ"
            want = posed[m.name]["v"][i]
            err = (want - g).length / max(1.0, want.length)
            assert err <= TOL, f"{label}: {m.name} vertex lands at {g}, the posed OBJ has {want} (relative error {err})"
            worst = max(worst, err)
    return worst


def case(animscope, out, name, fixture, sel):
    exact_skins = "exact-skins" in sel
    sel = [s for s in sel if s != "exact-skins"]
    glb = out / f"{name}.glb"
    run(animscope, "export", fixture, *sel, "-o", str(glb))
    has_clip = any(a in sel for a in ("--clip", "--seq", "--anime", "--anim"))
    msg = [name]
    payload = None
    if has_clip:
        run(animscope, "export", fixture, *sel, "-o", str(out / f"{name}.json"), "--skeleton-out", str(out / f"{name}.skel.json"))
        payload = json.loads((out / f"{name}.json").read_text())
        skel = json.loads((out / f"{name}.skel.json").read_text())
    arm, meshes = import_glb(glb, payload["fps"] if payload else 30.0)
    if payload:
        assert arm is not None, f"{name}: no armature imported"
        worst, checked, moved = compare_bones(arm, payload, skel, name)
        assert moved, f"{name}: the clip does not move, so the comparison proves nothing"
        act = arm.animation_data.action
        first, last = payload["frames"][0]["frame"], payload["frames"][-1]["frame"]
        assert (round(act.frame_range[0]), round(act.frame_range[1])) == (first, last), f"{name}: action range {act.frame_range[:]}"
        msg.append(f"{checked} bone checks, max error {worst:.2e}, frames {first}..{last}")
    if "ccsf/" in fixture:
        anim = [s for s in sel if not s.startswith("-")]
        obj = out / f"{name}.obj"
        run(animscope, "export", fixture, "--obj", "-o", str(obj))
        obj_rest, textures = read_obj(obj)
        v, f, t = check_meshes(meshes, obj_rest, textures, name)
        msg.append(f"{len(meshes)} meshes, {v} vertices, {f} triangles, {t} textured")
        if payload and anim:
            worst = 0.0
            picks = sorted({0, len(payload["frames"]) // 2, len(payload["frames"]) - 1})
            for i in picks:
                fr = payload["frames"][i]["frame"]
                posed = out / f"{name}_f{fr}.obj"
                run(animscope, "export", fixture, "--obj", "--anime", anim[0], "--frame", str(fr), "-o", str(posed))
                bpy.context.scene.frame_set(fr)
                bpy.context.view_layer.update()
                worst = max(worst, check_deformed(meshes, obj_rest, read_obj(posed)[0], name, exact_skins))
            msg.append(f"deformed vertices max relative error {worst:.2e} at frames {picks}")
    print("ok " + ": ".join([msg[0], ", ".join(msg[1:])]))


def self_test():
    """The bone comparison fails on a wrong conversion: a JSON whose poses are rotated by
    90° about X (Y up taken for Z up) must not pass."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    data = bpy.data.armatures.new("a")
    arm = bpy.data.objects.new("a", data)
    bpy.context.scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    eb = data.edit_bones.new("b")
    eb.head, eb.tail = (0, 0, 0), (0, 0.1, 0)
    bpy.ops.object.mode_set(mode="OBJECT")
    pb = arm.pose.bones["b"]
    pb.location = (0.0, 0.0, 1.0)
    bpy.context.view_layer.update()
    wrong = Matrix.Rotation(1.5707963, 4, "X") @ (arm.matrix_world @ pb.matrix)
    flat = [wrong[r][c] for r in range(4) for c in range(4)]
    payload = {"frames": [{"frame": 1, "bones": {"b": flat}}]}
    skel = {"bones": [{"name": "b", "rest": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}]}
    try:
        compare_bones(arm, payload, skel, "self-test")
    except AssertionError:
        print("ok self-test: a Y-up/Z-up mix-up is caught")
        return
    raise AssertionError("the bone comparison cannot fail")


def main(args):
    animscope, out, cases = args[0], Path(args[1]), Path(args[2])
    out.mkdir(parents=True, exist_ok=True)
    self_test()
    for line in cases.read_text().splitlines():
        p = line.split()
        if p:
            case(animscope, out, p[0], p[1], p[2:])
    print("blender glTF import tests passed")


if __name__ == "__main__":
    main(sys.argv[1:])
