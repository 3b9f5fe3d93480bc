#!/bin/bash
# The profiler measures the whole frame: with many steps a frame (60 here, more than the 18 the
# old per-stage queries could hold), the headless run's frame total must cover all of them, so it
# is many times the one timed step, and the step's stages must add up to the step. The time comes
# from the CPU clock around glFinish on llvmpipe (GL timestamps where the driver has them).
# Run as: bash test_profile_frame.sh /path/to/fluid. Skips (77) without GL 4.5.
FLUID=${1:?usage: test_profile_frame.sh /path/to/fluid}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for solver in wcsph dfsph; do
    if ! "$FLUID" --headless --solver $solver --particles 1000 --frames 3 --substeps 60 >"$TMP/out" 2>"$TMP/err"; then
        if grep -q "GPU:" "$TMP/err"; then echo "SKIP: $(cat "$TMP/err")"; exit 77; fi
        cat "$TMP/err"; fail "$solver: the headless run failed"; continue
    fi
    step=$(awk '$1 == "step" { print $2 }' "$TMP/out")
    frame=$(awk '$1 == "frame" { print $2 }' "$TMP/out")
    steps=$(sed -n 's/.*frames, \([0-9]*\) steps.*/\1/p' "$TMP/out")
    stages=$(awk '/^stage/ { on = 1; next } $1 == "step" { on = 0 } on { s += $2 } END { print s }' "$TMP/out")
    echo "$solver: $steps steps in 3 frames; one step ${step} us (stages add to ${stages}), a frame ${frame} us"
    [ "$steps" = 180 ] || fail "$solver: $steps steps, expected 3 frames of 60"
    awk -v s="$step" -v f="$frame" 'BEGIN { exit (s > 0 && f >= 20 * s) ? 0 : 1 }' ||
        fail "$solver: a frame of 60 steps timed ${frame} us, under 20 times its one step (${step} us): steps went untimed"
    awk -v s="$step" -v t="$stages" 'BEGIN { d = s - t; exit (d < 0.01 * s && d > -0.01 * s) ? 0 : 1 }' ||
        fail "$solver: the stages add to ${stages} us, the step is ${step} us"
done
[ $fails = 0 ] && echo PASS
exit $((fails > 0))
