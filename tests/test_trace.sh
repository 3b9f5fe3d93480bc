#!/bin/bash
# --trace FILE.json (headless): the frames' timeline in the Trace Event Format, checked by python3's
# json module, not by the code that wrote it:
#   - it parses as JSON, with a traceEvents list of complete slices ("X") and counters ("C");
#   - the slices nest on their one track: each lies wholly inside the one before that still covers
#     its start (no slice crosses its parent's end);
#   - children add to their parent: the sampled step's stages to the step, the step and "other
#     steps" to "simulation", and "simulation" to "frame", within 5% of the parent plus 20 us (the
#     CPU clock's gaps between one stage's end and the next's begin: glFinish, the dispatch calls);
#   - the names: the step's slices are exactly the stages of the timing table the same run prints,
#     in that order, and the other slices are "frame", "simulation", "step", "other steps";
#   - one frame slice a frame, and the "steps" counters add to the run's steps (the table's line);
#   - each frame's own steps: one "steps" counter a frame, at its start, each at least 1; with
#     --substeps 3 (DFSPH), 3 in every frame, the first included (an analytic count; made to fail with
#     session 36's trace, whose counter at a frame was the records read since the frame before:
#     0 in the first three DFSPH frames and the first WCSPH frame, the rest at the run's end);
#   - the fused step's phases as counters, DFSPH's five with the fused step forced where the driver
#     has a shader clock, none for WCSPH (made to fail once: the counters left out);
# Also: --trace without --headless and --trace into a missing folder are one-line errors (exit 1).
# Run as: bash test_trace.sh /path/to/fluid. Skips (77) without GL 4.5 or python3.
FLUID=${1:?usage: test_trace.sh /path/to/fluid}
command -v python3 > /dev/null || { echo "SKIP: python3 is missing"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for run in "dfsph" "wcsph" "dfsph 3"; do # (wcsph's frames' records: test_sim_frames)
    set -- $run
    solver=$1 sub=${2:-0}
    subargs=()
    [ "$sub" != 0 ] && subargs=(--substeps "$sub")
    if ! "$FLUID" --headless --solver $solver --particles 1000 --frames 4 "${subargs[@]}" --trace "$TMP/t.json" > "$TMP/out" 2> "$TMP/err"; then
        if grep -q "GPU:" "$TMP/err"; then echo "SKIP: $(cat "$TMP/err")"; exit 77; fi
        cat "$TMP/err"; fail "$solver: the headless run failed"; continue
    fi
    # The table's stage names: the rows between the "stage" heading and "step".
    awk '/^stage / { on = 1; next } $1 == "step" { on = 0 } on { print $1 }' "$TMP/out" > "$TMP/names"
    steps=$(sed -n 's/.*frames, \([0-9]*\) steps.*/\1/p' "$TMP/out")
    python3 - "$TMP/t.json" "$TMP/names" "$steps" 4 "$sub" << 'EOF' || fail "$run: the trace (above)"
import json, sys
path, names_path, steps, frames, sub = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
table = open(names_path).read().split()
events = json.load(open(path))["traceEvents"]
slices = sorted((e for e in events if e["ph"] == "X"), key=lambda e: (e["ts"], -e["dur"]))
bad = []
def check(ok, msg):
    if not ok: bad.append(msg)
TOL = lambda parent: 0.05 * parent["dur"] + 20.0
# Nesting: a stack of open slices; a slice starts inside the top that still covers it, and ends by its end.
stack, children = [], {}
for s in slices:
    while stack and stack[-1]["ts"] + stack[-1]["dur"] <= s["ts"] + 1e-3:  # ended before s starts (printed to 1 ns)
        stack.pop()
    if stack:
        p = stack[-1]
        check(s["ts"] + s["dur"] <= p["ts"] + p["dur"] + 1e-3, "%s [%.3f, %.3f] crosses its parent %s's end %.3f" %
              (s["name"], s["ts"], s["ts"] + s["dur"], p["name"], p["ts"] + p["dur"]))
        children.setdefault(id(p), (p, []))[1].append(s)
    else:
        check(s["name"] == "frame", "%s at %.3f is outside every frame" % (s["name"], s["ts"]))
    stack.append(s)
check(sum(s["name"] == "frame" for s in slices) == frames, "%d frame slices, %d frames run" %
      (sum(s["name"] == "frame" for s in slices), frames))
for p, kids in children.values():
    total = sum(k["dur"] for k in kids)
    if p["name"] in ("frame", "simulation", "step"):
        check(abs(total - p["dur"]) <= TOL(p), "%s at %.3f lasts %.3f us, its children (%s) add to %.3f" %
              (p["name"], p["ts"], p["dur"], ", ".join(k["name"] for k in kids), total))
    if p["name"] == "step":
        got = [k["name"] for k in kids]
        check(got == table, "the step's slices %s, the table's stages %s" % (got, table))
    if p["name"] == "frame":
        check([k["name"] for k in kids] == ["simulation"], "a frame holds %s" % [k["name"] for k in kids])
    if p["name"] == "simulation":
        check([k["name"] for k in kids][:1] == ["step"], "a simulation holds %s" % [k["name"] for k in kids])
others = {s["name"] for s in slices} - set(table)
check(others <= {"frame", "simulation", "step", "other steps"}, "slices named %s" % sorted(others))
counted = sum(e["args"]["value"] for e in events if e["ph"] == "C" and e["name"] == "steps")
check(counted == steps, "the steps counters add to %g, the run took %d" % (counted, steps))
# Each frame's own steps, at its start.
starts = sorted(s["ts"] for s in slices if s["name"] == "frame")
per = sorted((e["ts"], e["args"]["value"]) for e in events if e["ph"] == "C" and e["name"] == "steps")
check([ts for ts, _ in per] == starts, "steps counters at %s, frames starting at %s" % ([ts for ts, _ in per], starts))
check(all(v >= 1 for _, v in per), "a frame of no steps: %s" % [v for _, v in per])
if sub: check(all(v == sub for _, v in per), "--substeps %d, the frames' steps counters %s" % (sub, [v for _, v in per]))
for name in ("iterations", "particles", "dt (ms)"):
    check(any(e["ph"] == "C" and e["name"] == name for e in events), "no %s counter" % name)
for b in bad[:10]: print(b)
print("%d slices, %d counters, %d problems" % (len(slices), sum(e["ph"] == "C" for e in events), len(bad)))
sys.exit(1 if bad else 0)
EOF
done

# bench --sim --trace: every row's frames on one timeline (two rows of 6 frames), each spanning its
# simulation (the sampled ones too), each step's stages adding to it, the names those of the rows' stages in the CSV, committed with the CSV;
# a "steps" counter at each frame's start, its own steps.
if "$FLUID" bench --sim --particles 1000 --seconds 0.1 --solvers dfsph,wcsph --sorts radix --trace "$TMP/b.json" \
    --csv "$TMP/b.csv" > "$TMP/out" 2> "$TMP/err"; then
    python3 - "$TMP/b.json" "$TMP/b.csv" << 'EOF' || fail "bench --sim --trace (above)"
import csv, json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
names = {kv.rsplit("=", 1)[0] for row in csv.DictReader(open(sys.argv[2])) for kv in row["stages"].split(";")}
x = sorted((e for e in events if e["ph"] == "X"), key=lambda e: (e["ts"], -e["dur"]))
bad = []
frames = [e for e in x if e["name"] == "frame"]
if len(frames) != 12: bad.append("%d frames, 2 rows of 6 run" % len(frames))
for a, b in zip(frames, frames[1:]):
    if a["ts"] + a["dur"] > b["ts"] + 1e-3: bad.append("frames overlap at %.3f" % b["ts"])
if sum(e["name"] == "step" for e in x) < 2: bad.append("no sampled step in a row (every row samples one)")
# Each frame spans its whole simulation, a sampled one too (until session 36 such a frame held its
# first step alone: made to fail that way): one "simulation" slice of the frame's extent in each.
sims = [e for e in x if e["name"] == "simulation"]
for f in frames:
    inner = [e for e in sims if f["ts"] - 1e-3 <= e["ts"] and e["ts"] + e["dur"] <= f["ts"] + f["dur"] + 1e-3]
    if len(inner) != 1 or abs(inner[0]["dur"] - f["dur"]) > 0.05 * f["dur"] + 20:
        bad.append("the frame at %.3f (%.3f us) holds %d simulation slices" % (f["ts"], f["dur"], len(inner)))
for st in (e for e in x if e["name"] == "step"):
    if not any(e["ts"] - 1e-3 <= st["ts"] and st["ts"] + st["dur"] <= e["ts"] + e["dur"] + 1e-3 for e in sims):
        bad.append("the step at %.3f is outside every simulation slice" % st["ts"])
for st in (e for e in x if e["name"] == "step"):
    kids = [e for e in x if e["name"] in names and st["ts"] <= e["ts"] and e["ts"] + e["dur"] <= st["ts"] + st["dur"] + 1e-3]
    total = sum(k["dur"] for k in kids)
    if abs(total - st["dur"]) > 0.05 * st["dur"] + 20: bad.append("a step of %.3f us, its stages add to %.3f" % (st["dur"], total))
extra = {e["name"] for e in x} - names - {"frame", "simulation", "step", "other steps"}
if extra: bad.append("slices named %s" % sorted(extra))
# Each frame's own steps at its start, each row's last frames too (written once the row's records
# are in, before its sim goes; made to fail with session 36's trace: the rows' first frames read 0).
per = sorted((e["ts"], e["args"]["value"]) for e in events if e["ph"] == "C" and e["name"] == "steps")
if [ts for ts, _ in per] != [f["ts"] for f in frames] or not all(v >= 1 for _, v in per):
    bad.append("steps counters %s, frames starting at %s" % (per, [f["ts"] for f in frames]))
print("\n".join(bad[:10]) or "bench: %d slices, %d frames" % (len(x), len(frames)))
sys.exit(1 if bad else 0)
EOF
else
    cat "$TMP/err"; fail "bench --sim --trace failed"
fi

# The fused step's phases as counters: with the fused step forced (one group, as test_sim_persistent
# runs it), DFSPH's five, each above 0, where the driver has a shader clock (gpu_caps); WCSPH has
# none. In µs ("fused NAME (us a step)": the run measures the clock's rate when the first phases
# come) where the GPU's timer queries work, else in cycles ("fused NAME (cycles a step)": llvmpipe).
CAPS=${FLUID_GPU_CAPS:-$(dirname "$FLUID")/tests/gpu_caps}
clock=$("$CAPS" | sed -n 's/^shader_clock=//p')
unit=cycles
[ "$("$CAPS" | sed -n 's/^timer_queries=//p')" = 1 ] && unit=us
for solver in dfsph wcsph; do
    FLUID_DFSPH_PERSISTENT=1 "$FLUID" --headless --solver $solver --particles 1000 --frames 4 --trace "$TMP/p.json" \
        > "$TMP/out" 2> "$TMP/err" || { cat "$TMP/err"; fail "$solver: the fused --trace run failed"; continue; }
    want=0
    [ $solver = dfsph ] && [ "$clock" = 1 ] && want=5
    python3 - "$TMP/p.json" "$want" "$unit" << 'EOF' || fail "$solver: the fused phases' counters (above)"
import json, sys
events, want, unit = json.load(open(sys.argv[1]))["traceEvents"], int(sys.argv[2]), sys.argv[3]
fused = [e for e in events if e["ph"] == "C" and e["name"].startswith("fused ")]
names = sorted({e["name"] for e in fused})
stages = ["density", "divergence", "nonpressure", "pressure", "integrate"]
bad = []
if want and names != sorted("fused %s (%s a step)" % (s, unit) for s in stages): bad.append("fused counters %s" % names)
if not want and fused: bad.append("%d fused counters where none are measured" % len(fused))
if want and any(e["args"]["value"] <= 0 for e in fused): bad.append("a fused counter at 0")
if want and len(fused) < want: bad.append("%d fused counters in 4 frames (the records come 2 frames late)" % len(fused))
print("\n".join(bad) or "fused counters: %d (%d names)" % (len(fused), len(names)))
sys.exit(1 if bad else 0)
EOF
done

# Bad use: one line, exit 1, nothing written.
out=$("$FLUID" --trace "$TMP/w.json" --script "quit" 2>&1)
rc=$?
[ $rc = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q -- "--trace" && [ ! -e "$TMP/w.json" ] ||
    fail "--trace in the window: exit $rc, said: $out"
out=$("$FLUID" --headless --trace "$TMP/none/t.json" 2>&1)
rc=$?
[ $rc = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q -- "--trace" ||
    fail "--trace into a missing folder: exit $rc, said: $out"
[ $fails = 0 ] && echo PASS
exit $((fails > 0))
