#!/usr/bin/env bash
# H100 call 3 of the persist task: the branch's head checked (sim tests, the reset diagnostic, state
# hashes of both paths) and timed (the default, then one change at a time).
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
    printf '%-44s rc=%-3s %6d ms\n' "$n" "$?" $((($(date +%s%N) - t0) / 1000000)) | tee -a "$o/steps.txt"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$o/gpu.txt" 2>&1
for t in test_gpu test_layout test_sim_dispatches test_sim_persistent test_sim_dambreak test_sim_scenes test_sim_sorts test_sim_rest test_sim_set test_sim_kernels test_sim_neighbours; do
    s "$t" 60 "./tests/$t"
done
s test_sim_dispatches-reset264 40 env FLUID_DFSPH_PERSISTENT_RESET=264 ./tests/test_sim_dispatches
s diag-reset-default 40 ./tests/diag_persist_reset 528
s diag-hash 40 env FLUID_DFSPH_SLACK=9 ./tests/diag_persist_reset hash 864
B="./fluid bench --sim --solvers dfsph"
s bench-default 60 $B --particles 27648,110592
s bench-default-again 30 $B --particles 27648
for v in FLUID_DFSPH_PREFETCH=0 FLUID_DFSPH_PERSISTENT=864 FLUID_DFSPH_GRID_FORM=0 FLUID_DFSPH_PERSISTENT=0; do
    s "bench-$v" 30 env "$v" $B --particles 27648
done
s bench-indirect-noprefetch 30 env FLUID_DFSPH_PERSISTENT=0 FLUID_DFSPH_PREFETCH=0 $B --particles 27648
s bench-110592-noprefetch 40 env FLUID_DFSPH_PREFETCH=0 $B --particles 110592
s bench-large 60 $B --particles 442368,1000000 --seconds 0.5
s bench-large-noprefetch 50 env FLUID_DFSPH_PREFETCH=0 $B --particles 442368,1000000 --seconds 0.5
grep -h "^dfsph\|^wcsph\|FAIL\|bit-identical\|DIFFERENT\|differ\|hash" "$o"/*.txt | cut -c1-60,150-330 | head -90
