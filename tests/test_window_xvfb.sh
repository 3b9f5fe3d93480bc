#!/bin/bash
# The real window under Xvfb (given the fluid binary as $1): a few frames with each sort
# algorithm, switching between them through the same code path as the keys (--script feeds
# app_handle_action), colour and style changes, a rebuild with more and fewer particles, a resize
# storm through a minimised (0x0) window and back, a screenshot checked by the app itself
# (render_image_check: not blank, HUD text, particles), --screenshot on exit, status 0, and no GL
# error in the --debug log. Also: --frames N alone ends the window app, a bad --script is a
# one-line error before any window opens, and the trace key saves the next 120 frames as a
# timestamped Trace Event Format file. Skips (77) without xvfb-run.
set -u
fluid="$1"
if ! command -v xvfb-run > /dev/null; then
    echo "SKIP: xvfb-run is missing (Debian: apt-get install xvfb)"
    exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Is the window app in this binary, and does the command line hand it --script? (The parse error
# of a bad script comes from the app, before any window opens.)
probe=$("$fluid" --script "no-such-step" 2>&1)
case "$probe" in
*"--script: unknown action"*) ;;
*)
    echo "FAIL: the window app does not get --script: $probe"
    echo "(cmd_run.c must parse --script STR into run_opts.script and link app_window_run from src/app/window/app_window.c)"
    exit 1 ;;
esac
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
xvfb() { xvfb-run -a -s "-screen 0 1280x720x24" "$@"; }

# A PNG's size from its IHDR chunk (bytes 16..23, big-endian).
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'; }

# 1. The scripted session.
shot="$out/shot.png"
final="$out/final.png"
# Tab (sort-next) walks the sort library's registry, sort_algos[]: radix, onesweep, counting,
# bitonic, cpu; onesweep runs on llvmpipe with its default threads (LP_NUM_THREADS unset below): its
# look-back falls back instead of waiting, so Tab takes it like any other sort.
script="frames:12;sort:bitonic;expect-sort:bitonic;frames:12;sort-next;expect-sort:cpu;frames:4;sort-next;expect-sort:radix;frames:2"
script+=";sort-next;expect-sort:onesweep;frames:2;sort-next;expect-sort:counting;frames:2;solver-next;frames:4;solver-next;frames:2"
script+=";sort:bitonic;color;color;style;frames:3;style;color;help;frames:2;help;sort:radix;expect-sort:radix"
script+=";resize:0x0;frames:3;resize:800x600;frames:2;resize:1x1;frames:1;resize:1100x640;frames:1;resize:640x400"
script+=";frames:1;resize:0x0;resize:800x600;frames:3;more;frames:2;fewer;frames:3;pause;step;step;pause;frames:2;diffuse;frames:2;diffuse;frames:2"
script+=";shot:$shot;check:$shot"
# At 640x360 (the script resizes it later): a 1280x720 window made this session 2 of the suite's
# slowest minutes on llvmpipe, drawing the same paths four times the pixels.
xvfb env -u LP_NUM_THREADS "$fluid" --debug --particles 4096 --substeps 2 --size 640x360 --script "$script" --screenshot "$final" > "$out/stdout" 2> "$out/stderr"
rc=$?
cat "$out/stderr"
[ "$rc" -eq 0 ] || fail "the scripted session exited with status $rc"
if grep -E '^fluid: GL:' "$out/stderr" > /dev/null; then fail "GL errors in the --debug log (lines 'fluid: GL: ...' above)"; fi
grep -q "sort switched to bitonic" "$out/stderr" || fail "no switch to bitonic logged"
grep -q "sort switched to radix" "$out/stderr" || fail "no switch back to radix logged"
grep -q "sort switched to onesweep" "$out/stderr" || fail "Tab did not take onesweep on llvmpipe"
grep -q "skipped" "$out/stderr" && fail "Tab skipped a sort on llvmpipe"
grep -q "check $shot: .*particles present" "$out/stderr" || fail "the app did not check its screenshot"
for f in "$shot" "$final"; do
    if [ ! -s "$f" ]; then
        fail "$f was not written"
    elif [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' ')" != "89504e470d0a1a0a" ]; then
        fail "$f is not a PNG"
    fi
done
[ -s "$final" ] && [ "$(png_size "$final")" = "800x600" ] || fail "final screenshot is $(png_size "$final" 2>/dev/null), expected the window's 800x600"
ls "$out"/*.tmp > /dev/null 2>&1 && fail "a .tmp file was left behind"

# 2. --frames N alone ends the window app (no script), writing --screenshot at the window's size.
xvfb "$fluid" --debug --particles 4096 --substeps 2 --frames 5 --size 640x360 --screenshot "$out/frames.png" > "$out/stdout2" 2> "$out/stderr2"
rc=$?
[ "$rc" -eq 0 ] || { cat "$out/stderr2"; fail "--frames 5 exited with status $rc"; }
if grep -E '^fluid: GL:' "$out/stderr2" > /dev/null; then fail "GL errors with --frames 5"; fi
[ -s "$out/frames.png" ] && [ "$(png_size "$out/frames.png")" = "640x360" ] || fail "--frames 5 --size 640x360 gave no 640x360 screenshot"

# 3. A bad script: one line naming the step, status 1 (a user error), before any window (no Xvfb needed).
"$fluid" --script "frames:3;warp:9" > /dev/null 2> "$out/stderr3"
rc=$?
[ "$rc" -eq 1 ] || fail "a bad --script exited with status $rc, expected 1"
grep -q "warp" "$out/stderr3" || fail "the bad step is not named: $(cat "$out/stderr3")"
[ "$(wc -l < "$out/stderr3")" -eq 1 ] || fail "a bad --script printed $(wc -l < "$out/stderr3") lines, expected 1"

# 4. Screenshots within one second get distinct names (F12 three times in a row), and "-" at the
#    smallest particle count says so instead of rebuilding the fluid.
mkdir "$out/shots"
(cd "$out/shots" && xvfb "$fluid" --particles 4096 --substeps 1 --size 320x240 \
    --script "frames:2;screenshot;screenshot;screenshot;fewer;frames:1" > /dev/null 2> "$out/stderr4")
rc=$?
[ "$rc" -eq 0 ] || { cat "$out/stderr4"; fail "the screenshot session exited with status $rc"; }
shots=$(ls "$out/shots" | grep -c '^fluid-.*\.png$')
[ "$shots" -eq 3 ] || fail "three screenshots in a row gave $shots files: $(ls "$out/shots")"
grep -q "already at the smallest particle count" "$out/stderr4" || fail "'-' at the smallest count did not say so: $(cat "$out/stderr4")"

# 5. The window refuses --stats and --dump (they are written by headless runs), before opening.
DISPLAY=:999 "$fluid" --stats "$out/w.csv" > /dev/null 2> "$out/stderr5"
rc=$?
[ "$rc" -eq 1 ] && grep -q "headless runs only" "$out/stderr5" || fail "the window with --stats: status $rc: $(cat "$out/stderr5")"
[ -e "$out/w.csv" ] && fail "the window with --stats wrote a file"

# 6. The trace key (T, "trace" in a script): the next 120 frames to fluid-YYYYMMDD-HHMMSS.json, a
#    Trace Event Format file that parses as JSON with exactly 120 frame slices (130 frames run), each
#    nesting its simulation and render, and the log says when it starts and when it is written.
#    (500 particles in a 160x120 window: 4 s on llvmpipe, where 1,000 at 320x240 took 10.)
mkdir "$out/trace"
(cd "$out/trace" && xvfb "$fluid" --particles 500 --substeps 1 --size 160x120 --script "frames:2;trace;frames:130" \
    > /dev/null 2> "$out/stderr6")
rc=$?
[ "$rc" -eq 0 ] || { cat "$out/stderr6"; fail "the trace session exited with status $rc"; }
traces=$(ls "$out/trace" | grep -E '^fluid-[0-9]{8}-[0-9]{6}(-[0-9]+)?\.json$')
if [ "$(echo "$traces" | grep -c .)" -ne 1 ] || [ "$(ls -A "$out/trace" | wc -l)" -ne 1 ]; then
    fail "the trace key left $(ls -A "$out/trace" | tr '\n' ' '), expected one fluid-YYYYMMDD-HHMMSS.json"
else
    grep -q "tracing the next 120 frames" "$out/stderr6" || fail "the trace's start is not logged: $(cat "$out/stderr6")"
    grep -q "trace of 120 frames written to $traces" "$out/stderr6" || fail "the trace's end is not logged: $(cat "$out/stderr6")"
    python3 - "$out/trace/$traces" << 'EOF' || fail "the trace key's file (above)"
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
x = [e for e in events if e["ph"] == "X"]
frames = sorted((e for e in x if e["name"] == "frame"), key=lambda e: e["ts"])
bad = [] if len(frames) == 120 else ["%d frame slices, expected 120" % len(frames)]
for f in frames:
    inside = {e["name"] for e in x if e is not f and f["ts"] - 1e-3 <= e["ts"] and e["ts"] + e["dur"] <= f["ts"] + f["dur"] + 1e-3}
    if not {"simulation", "render"} <= inside: bad.append("a frame at %.3f holds %s" % (f["ts"], sorted(inside))); break
print("\n".join(bad) or "trace key: %d frames, %d slices" % (len(frames), len(x)))
sys.exit(1 if bad else 0)
EOF
fi

if [ "$failures" -eq 0 ]; then
    echo "PASS: window session under Xvfb"
    exit 0
fi
echo "FAIL: $failures problem(s)"
exit 1
