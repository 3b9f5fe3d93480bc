#!/usr/bin/env bash
# The whole H100 run in one command, from the packed folder (tools/pack-h100.sh):
#   the GPU tests (subgroup paths included), the sort benchmark with per-dispatch detail, and the
#   simulation's per-stage GPU times and render time at several particle counts, for each sort.
# Usage, on the H100 machine:  bash tools/h100-run.sh .gpu "$OUT/run"
# Writes OUT/h100.tgz (the device tool brings back few files): tests.log, test-*.log, bench.txt,
# bench.csv, sim-*.txt, shot-*.png, summary.txt.
set -u
pack=$(cd "${1:?usage: h100-run.sh PACK_DIR OUT_DIR}" && pwd)
out=$(mkdir -p "${2:?usage: h100-run.sh PACK_DIR OUT_DIR}" && cd "$2" && pwd)
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fluid=$pack/fluid
summary=$out/summary.txt
: >"$summary"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >>"$summary" 2>&1 || true

# 1. Tests: every test program, and the shell tests that need no display.
for t in tests/test_*; do
    name=$(basename "$t")
    case "$name" in
    *xvfb* | *sanitize*) continue ;; # no display; no compiler there
    *.sh) cmd=(bash "$t" "$fluid") ;;
    *) cmd=("$t") ;;
    esac
    start=$(date +%s%N)
    timeout 240 "${cmd[@]}" >"$out/test-$name.log" 2>&1
    rc=$?
    printf '%-28s rc %3d  %6d ms\n' "$name" "$rc" $((($(date +%s%N) - start) / 1000000)) | tee -a "$out/tests.log"
done
cat "$out/tests.log" >>"$summary"

# 2. The sort benchmark: default sizes and widths, every algorithm, per-dispatch detail.
timeout 300 "$fluid" bench --algos radix,radix-shared,bitonic,cpu --csv "$out/bench.csv" --detail >"$out/bench.txt" 2>&1
echo "bench rc $?" >>"$summary"

# 3. The simulation: per-stage GPU times (sync timer reads per step) and render times at 1280x720.
for n in 27648 110592 442368; do
    for sort in radix bitonic; do
        timeout 120 "$fluid" --headless --particles "$n" --sort "$sort" --frames 6 \
            --screenshot "$out/shot-$sort-$n.png" >"$out/sim-$sort-$n.txt" 2>&1
        echo "sim $sort $n rc $?" >>"$summary"
    done
done
# A later moment of the default dam break (1 s simulated), for the docs' picture.
timeout 120 "$fluid" --headless --frames 60 --screenshot "$out/shot-dambreak-1s.png" >"$out/sim-dambreak-1s.txt" 2>&1
echo "sim dambreak 1 s rc $?" >>"$summary"
timeout 120 "$fluid" --headless --frames 60 --style surface --screenshot "$out/shot-dambreak-1s-surface.png" >"$out/sim-dambreak-1s-surface.txt" 2>&1
echo "sim dambreak 1 s surface rc $?" >>"$summary"
cat "$summary"
tar czf "$out/../h100.tgz" -C "$out" . && rm -rf "$out"
