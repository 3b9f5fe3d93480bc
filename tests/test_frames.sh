#!/bin/bash
# A frame is 1/60 s (issue 17): headless `--frames N` simulates N/60 s within 1e-6 relative for
# both solvers, read from what the run reports (the --stats rows: the last row's time and the sum
# of the rows' dt; the exit table's "s simulated"), and `--substeps K` means the same for both:
# exactly K equal steps of 1/(60 K) s a frame, K from 1 to 1000, refused outside that in one line. An independent check: the expected
# times are N/60 and 1/(60 K), nothing the program computes.
# The DFSPH cases are ones where the flow speeds up within the two frames of record lag (the dam
# break at 8,192 particles, the double dam break at 4,000): before the fix their frames fell short
# (0.19937 s in 12 frames, 0.39627 s in 24). Run as: bash test_frames.sh /path/to/fluid
# Skips (77) without GL 4.5.
FLUID=${1:?usage: test_frames.sh /path/to/fluid}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

if ! "$FLUID" --headless --frames 0 --particles 100 >"$TMP/probe.out" 2>"$TMP/probe.err"; then
    if grep -q "GPU:" "$TMP/probe.err"; then echo "SKIP: $(cat "$TMP/probe.err")"; exit 77; fi
    cat "$TMP/probe.err"; fail "a plain headless run failed"
fi

# simulated NAME FRAMES ARGS...: the run's --stats; the last row's time and the rows' dt sum must
# both be FRAMES/60 within 1e-6 relative.
simulated() {
    local name=$1 frames=$2
    shift 2
    if ! "$FLUID" --headless --no-diffuse --frames "$frames" --stats "$TMP/$name.csv" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"; then
        fail "$name: the run failed: $(tail -3 "$TMP/$name.err")"
        return
    fi
    awk -F, -v want="$frames" -v name="$name" '
        NR == 1 { for (c = 1; c <= NF; c++) { if ($c == "time") tc = c; if ($c == "dt") dc = c } next }
        { t = $tc; sum += $dc; rows++ }
        END {
            want /= 60
            et = (t - want) / want; es = (sum - want) / want
            printf "%s: %d steps, last time %.9f s, dt sum %.9f s, want %.9f s (%.2g, %.2g relative)\n", name, rows, t, sum, want, et, es
            exit (et < -1e-6 || et > 1e-6 || es < -1e-6 || es > 1e-6) ? 1 : 0
        }' "$TMP/$name.csv" || fail "$name: $frames frames did not simulate $frames/60 s"
    # The exit table says the same ("..., 0.2 s simulated").
    local said
    said=$(grep -o '[0-9.e+-]* s simulated' "$TMP/$name.out" | cut -d' ' -f1)
    awk -v t="${said:-0}" -v want="$frames" 'BEGIN { want /= 60; e = (t - want) / want; exit (e < -1e-6 || e > 1e-6) ? 1 : 0 }' ||
        fail "$name: the exit table says ${said:-nothing} s simulated, not $frames/60"
}

simulated dfsph-dambreak 12 --scene dambreak --particles 8000
simulated dfsph-double 24 --scene double-dambreak --particles 4000
simulated wcsph-dambreak 12 --solver wcsph --scene dambreak --particles 2000

# --substeps K: exactly K equal steps of 1/(60 K) s a frame, the same for both solvers.
for solver in dfsph wcsph; do
    name=$solver-substeps
    simulated $name 2 --solver $solver --scene drop --particles 1500 --substeps 7
    awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "dt") dc = c; next }
             { rows++; d = $dc * 420 - 1; if (d < -1e-5 || d > 1e-5) bad++ }
             END { exit (rows != 14 || bad) ? 1 : 0 }' "$TMP/$name.csv" ||
        fail "$solver --substeps 7 --frames 2: not 14 steps of 1/420 s: $(cut -d, -f1-3 "$TMP/$name.csv" | tr '\n' ' ')"
done

# One range, 1 to 1000, for both solvers: 1001 and 0 refused in one line naming the flag.
for solver in dfsph wcsph; do
    for k in 0 1001; do
        if "$FLUID" --headless --solver $solver --frames 1 --particles 500 --substeps $k >"$TMP/out" 2>"$TMP/err"; then
            fail "$solver --substeps $k was accepted"
        else
            [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q -- "--substeps" "$TMP/err" && grep -q "1000" "$TMP/err" ||
                fail "$solver --substeps $k: not a one-line error naming --substeps and its range: $(cat "$TMP/err")"
        fi
    done
done
# The help gives that range.
"$FLUID" --help 2>&1 | grep -A3 -- "--substeps K" | grep -q "(1 to 1000)" || fail "--help does not give --substeps' range 1 to 1000"

[ $fails = 0 ] && echo "test_frames: all passed" && exit 0
echo "test_frames: $fails failed"
exit 1
