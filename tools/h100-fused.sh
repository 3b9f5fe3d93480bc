#!/usr/bin/env bash
# H100 run of the step task (issue 15, the fused DFSPH step): the tests that cover it, then
# `fluid bench --sim --solvers dfsph --particles 27648` with the fused step (the default) against
# FLUID_DFSPH_FUSED=2 (its first form, positions read coherent), FLUID_DFSPH_FUSED=0 (the
# persistent solves alone) and the indirect path, interleaved.
# Run from the pack (.gpu): bash h100-fused.sh; outputs under $OUT/r.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib
o=$OUT/r
mkdir -p "$o"
s() {
    local n=$1 t=$2
    shift 2
    local t0=$(date +%s%N)
    timeout "$t" "$@" >"$o/$n.txt" 2>&1
    printf '%-36s rc=%-3s %6d ms\n' "$n" "$?" $((($(date +%s%N) - t0) / 1000000)) | tee -a "$o/steps.txt"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$o/gpu.txt" 2>&1
for t in test_sim_persistent test_sim_dispatches test_sim_frames test_sim_dambreak test_sim_scenes; do
    s "$t" 40 "./tests/$t"
done
B="./fluid bench --sim --solvers dfsph --particles 27648"
for k in 1 2; do
    s bench-fused-$k 20 $B
    s bench-FUSED2-$k 20 env FLUID_DFSPH_FUSED=2 $B
    s bench-FUSED0-$k 20 env FLUID_DFSPH_FUSED=0 $B
done
s bench-indirect 20 env FLUID_DFSPH_PERSISTENT=0 $B
s bench-fused-3 20 $B
for f in "$o"/bench-*.txt; do grep -E "^dfsph|^solver" "$f" | sed "s|^|$(basename "$f" .txt): |"; done >"$o/summary.txt"
cd "$OUT" && tar czf r.tgz r && rm -rf r
