#!/bin/bash
# A RenderDoc capture of a headless frame on llvmpipe, opened with RenderDoc's Python module
# (Debian 12: apt-get install renderdoccmd python3-renderdoc), and its action tree walked: the
# debug groups must be frame -> simulation -> each of the sim's stages (the names the helper prints
# from sim_stage_name, in order) and frame -> render -> the render passes, the HUD last.
# The helper tests/renderdoc_frame brackets one session frame with RenderDoc's in-application API
# (a headless context has no swap for RenderDoc to count frames by). The replay needs
# EGL_PLATFORM=surfaceless (without it RenderDoc asks for an X display or a GLES context and fails).
# Run as: bash test_renderdoc.sh /path/to/fluid. Skips (77) without renderdoccmd, the Python module
# (in the system's python3), the helper, or GL 4.5.
FLUID=${1:?usage: test_renderdoc.sh /path/to/fluid}
HELPER="$(dirname "$FLUID")/tests/renderdoc_frame"
PY=/usr/bin/python3
command -v renderdoccmd > /dev/null || { echo "SKIP: renderdoccmd is missing (apt-get install renderdoccmd)"; exit 77; }
[ -x "$PY" ] && "$PY" -c "import renderdoc" 2> /dev/null || { echo "SKIP: no renderdoc module for $PY (apt-get install python3-renderdoc)"; exit 77; }
[ -x "$HELPER" ] || { echo "SKIP: $HELPER is not built"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
renderdoccmd capture -w -c "$TMP/frame" "$HELPER" > "$TMP/out" 2> "$TMP/err"
if grep -q "^SKIP" "$TMP/out"; then grep "^SKIP" "$TMP/out"; exit 77; fi
sed -n 's/^stage: //p' "$TMP/out" > "$TMP/stages"
cap=$(ls "$TMP"/frame*.rdc 2> /dev/null | head -1)
if [ -z "$cap" ] || [ ! -s "$TMP/stages" ]; then
    cat "$TMP/out" "$TMP/err"; echo "FAIL: no capture (or no stage names) from renderdoccmd capture"; exit 1
fi
EGL_PLATFORM=surfaceless "$PY" - "$cap" "$TMP/stages" << 'PYEOF'
import sys, renderdoc as rd
cap_path, stages = sys.argv[1], open(sys.argv[2]).read().split("\n")[:-1]
rd.InitialiseReplay(rd.GlobalEnvironment(), [])
cap = rd.OpenCaptureFile()
if cap.OpenFile(cap_path, "", None) != rd.ResultCode.Succeeded:
    print("FAIL: RenderDoc cannot open the capture"); sys.exit(1)
status, ctrl = cap.OpenCapture(rd.ReplayOptions(), None)
if status != rd.ResultCode.Succeeded:
    print("FAIL: no replay: %s" % status); sys.exit(1)
paths = []
def walk(actions, path):
    for a in actions:
        if a.flags & rd.ActionFlags.PushMarker:
            paths.append("/".join(path + [a.customName]))
            walk(a.children, path + [a.customName])
walk(ctrl.GetRootActions(), [])
ctrl.Shutdown(); cap.Shutdown(); rd.ShutdownReplay()
bad = []
step = [p.split("/", 2)[2] for p in paths if p.startswith("frame/simulation/")]
passes = [p.split("/", 2)[2] for p in paths if p.startswith("frame/render/")]
if paths[:2] != ["frame", "frame/simulation"]: bad.append("the tree starts %s" % paths[:2])
if step != stages: bad.append("simulation's groups %s, the sim's stages %s" % (step, stages))
if not passes or passes[-1] != "hud": bad.append("render's groups %s: no passes, or the HUD not last" % passes)
outside = [p for p in paths if not p.startswith("frame")]
if outside: bad.append("groups outside the frame: %s" % outside)
print("\n".join(paths))
print("\n".join("FAIL: " + b for b in bad) or "PASS: %d groups, %d stages, %d render passes" % (len(paths), len(step), len(passes)))
sys.exit(1 if bad else 0)
PYEOF
