#!/bin/bash
# `fluid bench` end to end, at small sizes (llvmpipe): the table has a row per (algorithm, bits,
# size), every row checked "ok" against the CPU sort; --csv has the header and the same rows, and
# "-" streams it to stdout (the table then on stderr); bad flags, a bad --csv path and a size the
# GPU cannot hold are refused at once (under a second, before any sorting), with one line and exit
# 1, and no CSV left (bench --sim's sort that cannot take a row's keys too); --reference adds the ratio to a reference CSV, row by (algorithm, bits,
# pairs), and lists the rows matched on neither side; the path column is whole; bench --sim puts
# the solvers side by side (one table, counters by name) and --warmup shifts its timed window;
# fluid --help names every command and mode. Run as: bash test_bench_cli.sh /path/to/fluid. Skips (77) without GL 4.5.
FLUID=${1:?usage: test_bench_cli.sh /path/to/fluid}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

SMALL=(--algos radix,radix-shared,bitonic,cpu --sizes 1000,4099 --bits 9,32 --reps 2 --warmup 1)
"$FLUID" bench "${SMALL[@]}" --csv "$TMP/b.csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc != 0 ] && grep -q "GPU:" "$TMP/err"; then echo "SKIP: $(cat "$TMP/err")"; exit 77; fi
[ $rc = 0 ] || fail "bench exited $rc: $(cat "$TMP/err")"
rows=$(grep -cE '^(radix|radix-shared|bitonic|cpu) +(9|32) +(1000|4099) +(gpu|cpu) .* ok$' "$TMP/out")
[ "$rows" = 16 ] || fail "the table has $rows ok rows, expected 16 (4 algorithms x 2 widths x 2 sizes): $(cat "$TMP/out")"
grep -q FAIL "$TMP/out" && fail "a row failed its check: $(grep FAIL "$TMP/out")"
[ "$(head -1 "$TMP/b.csv")" = "algorithm,bits,pairs,clock,median_us,min_us,max_us,mpairs_per_s,cpu_sort_us,check,spread_pct,noisy,path" ] ||
    fail "CSV header is '$(head -1 "$TMP/b.csv")'"
[ "$(grep -c ',ok,' "$TMP/b.csv")" = 16 ] || fail "the CSV has $(grep -c ',ok,' "$TMP/b.csv") ok rows, expected 16"
awk -F, 'NR > 1 && ($3 != 1000 && $3 != 4099 || $5 + 0 <= 0) { bad++ } END { exit bad ? 1 : 0 }' "$TMP/b.csv" ||
    fail "CSV rows look wrong: $(sed -n 2p "$TMP/b.csv")"

# The path column whole: radix's description on llvmpipe is longer than 159 characters (where an
# old buffer cut it); the CSV's must end as the stdout line does, with its closing parenthesis.
csv_path=$(grep '^radix,32,4099,' "$TMP/b.csv" | sed 's/^[^"]*"\(.*\)"$/\1/')
out_path=$(grep -A1 -E '^radix +32 +4099 ' "$TMP/out" | tail -1 | sed 's/^    //')
[ "$csv_path" = "$out_path" ] && [ ${#csv_path} -ge 160 ] && [ "${csv_path: -1}" = ")" ] ||
    fail "the path is cut: CSV '${csv_path}' (${#csv_path} characters), table '${out_path}'"

# --csv -: the CSV alone on stdout, the table on stderr.
"$FLUID" bench --algos cpu --sizes 100 --bits 8 --reps 1 --warmup 0 --csv - >"$TMP/dash" 2>"$TMP/err" || fail "--csv -: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/dash")" = 2 ] && head -1 "$TMP/dash" | grep -q '^algorithm,bits' || fail "--csv -: stdout is not the CSV alone: $(cat "$TMP/dash")"
grep -q "^cpu " "$TMP/err" || fail "--csv -: the table did not go to stderr"

# Errors: at once, one line, exit 1, no CSV.
bad() { # expected-text args...
    local want=$1 start ms rc
    shift
    rm -f "$TMP/x.csv"
    start=$(date +%s%N)
    timeout 120 "$FLUID" bench "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    [ $rc = 1 ] || fail "bench $*: exited $rc, expected 1"
    grep -qF -- "$want" "$TMP/err" || fail "bench $*: the message does not name '$want': $(cat "$TMP/err")"
    [ "$(wc -l <"$TMP/err")" = 1 ] || fail "bench $*: not one line: $(cat "$TMP/err")"
    [ $ms -lt "${LIMIT_MS:-1000}" ] || fail "bench $*: took $ms ms to refuse"
    [ -e "$TMP/x.csv" ] && fail "bench $*: a CSV was written"
    ! ls -A "$TMP" | grep -q '^\.' || fail "bench $*: a temporary file is left"
}
bad "unknown option '--fast'" --fast
bad "--reps needs a value" --reps --detail
bad "--csv needs a value" --detail --csv
bad "--sizes 12,x" --sizes 12,x --csv "$TMP/x.csv"
bad "--sizes 268435457" --sizes 268435457
bad "--bits 33" --bits 33
bad "--reps 18014398509481985k" --reps 18014398509481985k
bad "unknown algorithm 'quick'" --algos radix,quick
bad "--csv $TMP/nodir/x.csv: folder $TMP/nodir does not exist" --sizes 1000 --csv "$TMP/nodir/x.csv"
bad "--csv $TMP/: ends with '/'" --csv "$TMP/"
# A size the GPU cannot hold: refused with the real reason (the storage-buffer limit) once the
# GPU is known, before any keys are made (a moment, not 40 seconds and 8.5 GB). The size is one
# pair past this GPU's own limit (tests/gpu_caps: llvmpipe's 128 MiB, 2^25 pairs; a GPU that holds
# bench's largest size, 2^28 pairs, has no such size, and the case is left out there).
CAPS=${FLUID_GPU_CAPS:-$(dirname "$FLUID")/tests/gpu_caps}
max_ssbo=$("$CAPS" | sed -n 's/^max_ssbo_bytes=//p')
[ -n "$max_ssbo" ] || fail "$CAPS did not report max_ssbo_bytes (build the gpu_caps target)"
too_many=$((${max_ssbo:-0} / 4 + 1))
if [ -z "$max_ssbo" ]; then :
elif [ $too_many -le 268435456 ]; then
    LIMIT_MS=3000 bad "storage-buffer limit" --sizes 1000,$too_many --csv "$TMP/x.csv"
else
    echo "note: this GPU's storage buffers hold $((max_ssbo >> 20)) MiB, bench's largest size (2^28 pairs) fits: the refusal is not reachable here"
fi
# bench --sim: a sort that cannot take a row's cell keys (the counting sort: 22 bits; WCSPH's h/2
# grid at 986,078 particles needs 23) is refused before the first row runs, not after the rows
# before it (session 18: the radix row ran first, then the error).
LIMIT_MS=3000 bad "counting takes at most 22" --sim --solvers wcsph --particles 1000000 --sorts radix,counting --seconds 0.02 --csv "$TMP/x.csv"
[ -s "$TMP/out" ] && fail "bench --sim with a sort that cannot take the keys printed a table: $(head -3 "$TMP/out")"
# --reference: a reference run's CSV (cub-bench's columns); each row gets its median and our
# ratio to it, "-" where it has none; a bad file is refused before any sorting, no CSV left.
printf 'algorithm,bits,pairs,clock,median_us,min_us,max_us,mpairs_per_s\ncub,8,100,gpu,0.5,0.4,0.6,200\n' >"$TMP/ref.csv"
"$FLUID" bench --algos cpu --sizes 100,200 --bits 8 --reps 1 --warmup 0 --reference "$TMP/ref.csv" --csv "$TMP/r.csv" \
    >"$TMP/rout" 2>"$TMP/err" || fail "--reference: $(cat "$TMP/err")"
grep -qE '^cpu +8 +100 .* ok +0\.5 +[0-9.]+$' "$TMP/rout" || fail "--reference: no ratio on the 100-pair row: $(cat "$TMP/rout")"
grep -qE '^cpu +8 +200 .* ok +- +-$' "$TMP/rout" || fail "--reference: the 200-pair row should show -: $(cat "$TMP/rout")"
head -1 "$TMP/r.csv" | grep -q ',ref_median_us,ratio_to_ref$' || fail "--reference: CSV header '$(head -1 "$TMP/r.csv")'"
grep -qE '^cpu,8,100,.*,0\.50,[0-9.]+$' "$TMP/r.csv" || fail "--reference: CSV row $(grep '^cpu,8,100' "$TMP/r.csv")"
grep -q '^reference: no reference row for: cpu 8 bits 200 pairs$' "$TMP/rout" ||
    fail "--reference: the unmatched 200-pair row is not reported: $(cat "$TMP/rout")"
# By algorithm: a reference with two algorithms at one size; each row is compared with its own
# (cpu with 0.5 us, bitonic with 1000 us), not both with the file's first. A reference row no
# row here has (counting) and a row here without one (both at 200 pairs) are listed.
printf 'algorithm,bits,pairs,median_us\ncpu,8,100,0.5\nbitonic,8,100,1000\ncounting,8,100,7\n' >"$TMP/ref2.csv"
"$FLUID" bench --algos bitonic,cpu --sizes 100,200 --bits 8 --reps 1 --warmup 0 --reference "$TMP/ref2.csv" \
    --csv "$TMP/r2.csv" >"$TMP/rout" 2>"$TMP/err" || fail "--reference by algorithm: $(cat "$TMP/err")"
grep -qE '^cpu +8 +100 .* ok +0\.5 +[0-9.]+$' "$TMP/rout" || fail "--reference: cpu not against cpu's 0.5: $(cat "$TMP/rout")"
grep -qE '^bitonic +8 +100 .* ok +1000\.0 +[0-9.]+$' "$TMP/rout" ||
    fail "--reference: bitonic not against bitonic's 1000: $(cat "$TMP/rout")"
grep -qE '^bitonic,8,100,.*,bitonic,1000\.00,[0-9.]+$' "$TMP/r2.csv" || fail "--reference: CSV row $(grep '^bitonic,8,100' "$TMP/r2.csv")"
grep -q '^reference: no reference row for: bitonic 8 bits 200 pairs, cpu 8 bits 200 pairs$' "$TMP/rout" ||
    fail "--reference: the rows without a reference row are not listed: $(cat "$TMP/rout")"
grep -q '^reference: rows of the reference no row here matched: counting 8 bits 100 pairs$' "$TMP/rout" ||
    fail "--reference: the reference row nobody matched is not listed: $(cat "$TMP/rout")"
# The spread: a column in the table, and in the CSV (a number and yes or no).
head -8 "$TMP/rout" | grep -qE ' spread +check ' || fail "no spread column in the table header"
awk -F, 'NR > 1 && !($11 ~ /^[0-9.]+$/ && ($12 == "yes" || $12 == "no")) { bad++ } END { exit bad ? 1 : 0 }' "$TMP/r2.csv" ||
    fail "CSV spread columns: $(sed -n 2p "$TMP/r2.csv")"
printf 'bits,pairs,median_us\n8,100,fast\n' >"$TMP/badref.csv"
bad "--reference $TMP/badref.csv: line 2" --reference "$TMP/badref.csv" --csv "$TMP/x.csv"
bad "--reference $TMP/none.csv: cannot read it" --reference "$TMP/none.csv"

# bench --sim: DFSPH and WCSPH in one table, a row each at the count; the iterations by the
# solvers' own counters (it_divergence, it_pressure; WCSPH has none: "-" and empty in the CSV, not
# 0); x_fastest checked against the rows' own ms (the fastest row 1.00).
if "$FLUID" bench --sim --particles 1000 --seconds 0.05 --solvers dfsph,wcsph --csv "$TMP/s.csv" >"$TMP/sout" 2>"$TMP/err"; then
    python3 - "$TMP/s.csv" <<'EOF' || fail "bench --sim's CSV (above): $(cat "$TMP/s.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = []
cols = list(rows[0].keys()) if rows else []
if cols[:3] != ["solver", "sort", "particles"] or "it_divergence" not in cols or "it_pressure" not in cols or "it_div" in cols:
    bad.append("columns %s" % cols)
by = {r["solver"]: r for r in rows}
if sorted(by) != ["dfsph", "wcsph"] or len({r["particles"] for r in rows}) != 1:
    bad.append("rows %s" % [(r["solver"], r["particles"]) for r in rows])
else:
    d, w = by["dfsph"], by["wcsph"]
    if not (float(d["it_divergence"]) >= 0 and float(d["it_pressure"]) >= 2 and float(d["err_density_mean"]) > 0):
        bad.append("dfsph's iterations %s" % d)
    if w["it_divergence"] != "" or w["it_pressure"] != "" or w["err_density_mean"] != "":
        bad.append("wcsph's iterations are not empty: %s" % w)
    fastest = min(float(r["ms_per_60th_mean"]) for r in rows)
    for r in rows:
        x = float(r["ms_per_60th_mean"]) / fastest  # from the CSV's 4 decimals: rounding ~1e-4 of the fastest
        if abs(float(r["x_fastest"]) - x) > 1e-3 * max(1.0, x): bad.append("x_fastest %s" % r)
        if float(r["t_start"]) != 0 or abs(float(r["t_end"]) - 0.05) > 1e-4: bad.append("window %s to %s" % (r["t_start"], r["t_end"]))
        # ms per simulated 1/60 s: the mean frame's over the fluid's time a frame (3 frames of 1/60 s)
        per = float(r["ms_frame_mean"]) * 0.05 / (float(r["t_end"]) - float(r["t_start"]))
        if abs(float(r["ms_per_60th_mean"]) - per) > 1e-3 * per + 2e-4: bad.append("ms_per_60th_mean %s against %.4f" % (r["ms_per_60th_mean"], per))
    # the slots issued: at least the steps taken (DFSPH's empty slots past a frame's time), WCSPH's the same
    if not float(d["slots_per_60th"]) >= float(d["steps_per_60th"]) > 0: bad.append("dfsph's slots %s" % d)
    if float(w["slots_per_60th"]) != float(w["steps_per_60th"]): bad.append("wcsph's slots %s" % w)
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
    grep -qE '^ *particles +solver +sort +clock +t_start +t_end +ms_per_60th +worst_ms +x_fastest +steps +slots +it_divergence +it_pressure ' "$TMP/sout" ||
        fail "bench --sim's table header: $(grep particles "$TMP/sout")"
    grep -qE '^ +1024 +dfsph +radix +[a-z]+ +0\.000 +0\.050( +[0-9.]+){8} ' "$TMP/sout" &&
        grep -qE '^ +1024 +wcsph +radix +[a-z]+ +0\.000 +0\.050( +[0-9.]+){5} +- +- +- +- +- ' "$TMP/sout" ||
        fail "bench --sim's table rows: $(cat "$TMP/sout")"
    # the worst frame's steps (records binned by their time) against its slots: DFSPH's at most its
    # slots, WCSPH's its slots (within one: a step's end on the frame's edge)
    awk '/^ +1024 +(dfsph|wcsph) / { match($0, /worst frame: [0-9]+ steps, [0-9]+ slots/); split(substr($0, RSTART, RLENGTH), w, /[ ,]+/);
            n = w[3] + 0; m = w[5] + 0; ok += ($2 == "dfsph") ? (n > 0 && n <= m) : (n > 0 && n - m <= 1 && m - n <= 1) }
         END { exit ok == 2 ? 0 : 1 }' "$TMP/sout" || fail "bench --sim's worst frame: $(grep -o 'worst frame: [^|]*' "$TMP/sout")"
else
    fail "bench --sim: $(cat "$TMP/err")"
fi
# --warmup S: S seconds simulated untimed first, so the timed window starts at t = S (its
# reported start, the records' own time) and lasts --seconds.
if "$FLUID" bench --sim --scene dambreak --particles 1000 --warmup 0.1 --seconds 0.05 --solvers dfsph --csv "$TMP/w.csv" \
    >"$TMP/wout" 2>"$TMP/err"; then
    awk -F, 'NR == 2 { s = $5 + 0; e = $6 + 0; ok = s > 0.0999 && s < 0.1001 && e - s > 0.0499 && e - s < 0.0501 }
        END { exit ok ? 0 : 1 }' "$TMP/w.csv" || fail "--warmup 0.1: the window is not t = 0.1 to 0.15: $(cat "$TMP/w.csv")"
    grep -qE '^ +1024 +dfsph +radix +[a-z]+ +0\.100 +0\.150 ' "$TMP/wout" || fail "--warmup 0.1: the table's t_start, t_end: $(cat "$TMP/wout")"
    grep -q 'dambreak, t = 0.1 to 0.15 s' "$TMP/wout" || fail "--warmup 0.1: the heading: $(head -1 "$TMP/wout")"
    grep -q 'warm-up frame 6 of 6' "$TMP/err" || fail "--warmup 0.1: no progress for the warm-up"
else
    fail "bench --sim --warmup: $(cat "$TMP/err")"
fi
# The counter columns are every registered solver's, whatever --solvers: WCSPH alone still has them, empty.
"$FLUID" bench --sim --solvers wcsph --particles 500 --seconds 0.02 --csv - >"$TMP/wc.csv" 2>"$TMP/err" ||
    fail "bench --sim --solvers wcsph: $(cat "$TMP/err")"
grep -qE '^wcsph,radix,[0-9]+,[a-z]+,0\.0000,[0-9.]+,[0-9.]+,[0-9.]+,1\.0000,[0-9.]+,[0-9.]+,,,,,,' "$TMP/wc.csv" &&
    grep -q ',steps_per_60th,slots_per_60th,it_divergence,it_pressure,err_density_mean,' "$TMP/wc.csv" ||
    fail "--solvers wcsph alone: the CSV's counter columns: $(cat "$TMP/wc.csv")"
bad "--warmup x: expected seconds from 0 to 60" --sim --warmup x
bad "--warmup -1: expected seconds from 0 to 60" --sim --warmup=-1
bad "--warmup 61: expected seconds from 0 to 60" --sim --warmup 61 --csv "$TMP/x.csv"
bad "--warmup needs a value" --sim --warmup
bad "--scene sea: unknown scene; choose dambreak" --sim --scene sea --warmup 3

# fluid --help names every command and mode.
"$FLUID" --help >"$TMP/help" 2>&1 || fail "fluid --help exited non-zero"
for want in "fluid sort" "fluid bench ..." "fluid bench --sim" "fluid bench --render" "--script" "--headless" "--warmup S" \
    "--scene NAME" "T key saves the next 120 frames"; do
    grep -qF -- "$want" "$TMP/help" || fail "fluid --help does not mention '$want'"
done

[ $fails = 0 ] && echo "PASS" || echo "FAIL: $fails"
[ $fails = 0 ]
