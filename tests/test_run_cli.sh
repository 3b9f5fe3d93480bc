#!/bin/bash
# The headless command line: --frames 0 --dump writes the initial state (header, one row per
# particle in id order); --stats has the named columns and one row per step; bad flags, an unknown
# scene, --particles 0, --particles 2000000000 and an unknown sort exit non-zero with a message
# naming the problem and write no file. Run as: bash test_run_cli.sh /path/to/fluid
# Uses the radix sort. Skips (77) without GL 4.5.
FLUID=${1:?usage: test_run_cli.sh /path/to/fluid}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

SORT=radix
if ! "$FLUID" --headless --frames 0 --particles 100 >"$TMP/probe.out" 2>"$TMP/probe.err"; then
    if grep -q "GPU:" "$TMP/probe.err"; then echo "SKIP: $(cat "$TMP/probe.err")"; exit 77; fi
    cat "$TMP/probe.err"; fail "a plain headless run failed"
fi

# --frames 0 --dump: the initial state
"$FLUID" --headless --scene dambreak --particles 2000 --sort $SORT --frames 0 --dump "$TMP/d.csv" >"$TMP/out" 2>"$TMP/err" ||
    fail "--frames 0 --dump failed: $(cat "$TMP/err")"
[ "$(head -1 "$TMP/d.csv")" = "id,x,y,z,vx,vy,vz,density" ] || fail "dump header is '$(head -1 "$TMP/d.csv")'"
rows=$(($(wc -l <"$TMP/d.csv") - 1))
[ "$rows" = 2000 ] || fail "dump has $rows rows, expected 2000 (a 10 x 20 x 10 column)"
awk -F, 'NR > 1 && $1 != NR - 2 { bad++ } NR > 1 && ($5 != 0 || $6 != 0 || $7 != 0) { moving++ }
         NR > 1 { rho += $8 } END { rho /= NR - 1; exit (bad || moving || rho < 900 || rho > 1050) ? 1 : 0 }' "$TMP/d.csv" ||
    fail "dump rows are not in id order, the initial state moves, or its mean density is not near 1000"
awk -F, 'NR > 1 { n++; if ($2 < 0 || $2 > 0.146 || $3 < 0 || $3 > 0.292 || $4 < 0 || $4 > 0.146) out++ }
         END { exit out ? 1 : 0 }' "$TMP/d.csv" || fail "initial particles outside the column 0.146 x 0.292 x 0.146 m"
grep -q "2000 particles" "$TMP/out" || fail "the timing table does not report the particle count: $(cat "$TMP/out")"

# --stats: named columns, one row per step
"$FLUID" --headless --scene drop --particles 1500 --sort $SORT --frames 2 --substeps 3 --stats "$TMP/s.csv" \
    --dump "$TMP/d2.csv" >"$TMP/out" 2>"$TMP/err" || fail "--stats run failed: $(cat "$TMP/err")"
header=$(head -1 "$TMP/s.csv")
for col in step time particles front_x density_ratio density_max_dev kinetic_energy potential_energy; do
    echo ",$header," | grep -q ",$col," || fail "stats header lacks $col: $header"
done
for stage in hash sort ranges reorder density forces integrate; do
    echo ",$header," | grep -Eq ",${stage}_(gpu|cpu)_us," || fail "stats header lacks ${stage}_gpu_us / ${stage}_cpu_us: $header"
done
rows=$(($(wc -l <"$TMP/s.csv") - 1))
[ "$rows" = 6 ] || fail "stats has $rows rows for 2 frames of 3 steps"
awk -F, 'NR > 1 && ($1 != NR - 1 || $4 + 0 <= 0 || $5 + 0 < 0.5 || $5 + 0 > 1.5) { bad++ } END { exit bad ? 1 : 0 }' "$TMP/s.csv" ||
    fail "stats rows look wrong: $(sed -n 2p "$TMP/s.csv")"
for stage in hash sort ranges reorder density forces integrate total; do
    grep -Eq "^($stage|step)" "$TMP/out" || fail "timing table lacks $stage: $(cat "$TMP/out")"
done

# Bad input: non-zero exit, a message naming the problem, no files.
bad() { # expected-text args...
    local want=$1
    shift
    rm -f "$TMP/bad.csv" "$TMP/bad2.csv"
    if "$FLUID" "$@" --dump "$TMP/bad.csv" --stats "$TMP/bad2.csv" >"$TMP/out" 2>"$TMP/err"; then
        fail "'$*' succeeded"
    else
        grep -qi -- "$want" "$TMP/err" || fail "'$*': message does not name '$want': $(cat "$TMP/err")"
        [ "$(wc -l <"$TMP/err")" -le 2 ] || fail "'$*': more than a line or two of error: $(cat "$TMP/err")"
    fi
    [ ! -e "$TMP/bad.csv" ] && [ ! -e "$TMP/bad2.csv" ] && [ ! -e "$TMP/bad.csv.tmp" ] || fail "'$*' wrote a file"
}
bad "--bogus" --headless --bogus
bad "lake" --headless --scene lake --frames 1
bad "double-dambreak" --headless --scene lake --frames 1
bad "--particles 0" --headless --particles 0 --frames 1
bad "more than this GPU" --headless --particles 2000000000 --frames 1 --sort $SORT
bad "--particles" --headless --particles -5
bad "quicksort" --headless --sort quicksort
bad "--frames" --headless --frames
bad "--frames" --headless --frames ten
bad "--size" --headless --size 12by5
bad "--substeps" --headless --substeps 0
bad "--style blob" --headless --style blob

# --style picks how the screenshot is drawn
for st in surface raster; do
    "$FLUID" --headless --particles 500 --frames 1 --substeps 2 --style $st --screenshot "$TMP/$st.png" >/dev/null 2>"$TMP/err" ||
        fail "--style $st: $(cat "$TMP/err")"
    [ -s "$TMP/$st.png" ] || fail "--style $st wrote no screenshot"
done

# --help names every command and the run options
"$FLUID" --help >"$TMP/help" 2>&1 || fail "--help exited non-zero"
for w in "fluid sort" "fluid bench" --headless --scene --particles --sort --frames --substeps --stats --dump --screenshot --style --size --vsync --data --debug; do
    grep -q -- "$w" "$TMP/help" || fail "--help does not mention $w"
done

# No display and no --headless: runs headless, says so, and writes the picture it names
(cd "$TMP" && env -u DISPLAY -u WAYLAND_DISPLAY "$FLUID" --particles 500 --substeps 2 >"$TMP/nd.out" 2>"$TMP/nd.err") ||
    fail "without a display fluid exited non-zero: $(cat "$TMP/nd.err")"
grep -q "no display" "$TMP/nd.err" || fail "without a display fluid did not say it runs headless: $(cat "$TMP/nd.err")"
[ -s "$TMP/fluid-headless.png" ] || fail "without a display fluid wrote no fluid-headless.png"
grep -q "^step " "$TMP/nd.out" || fail "without a display fluid printed no timing table"

[ $fails = 0 ] && echo "PASS" || echo "FAIL: $fails"
[ $fails = 0 ]
