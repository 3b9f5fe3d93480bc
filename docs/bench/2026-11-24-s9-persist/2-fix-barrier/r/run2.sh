#!/usr/bin/env bash
# H100 call 2 of the persist task: the reset fix and the one-word grid barrier checked, then timed.
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
s test_gpu 30 ./tests/test_gpu
s barrier 40 ./tests/diag_persist_reset barrier
s diag-528 40 ./tests/diag_persist_reset 528
for t in test_sim_dispatches test_sim_persistent test_sim_dambreak test_sim_scenes test_sim_sorts test_sim_rest test_sim_set test_sim_kernels test_sim_neighbours; do
    s "$t" 60 "./tests/$t"
done
s test_sim_dispatches-reset264 40 env FLUID_DFSPH_PERSISTENT_RESET=264 ./tests/test_sim_dispatches
s bench-default 60 ./fluid bench --sim --solvers dfsph --particles 27648,110592
for v in FLUID_DFSPH_PERSISTENT=0 FLUID_DFSPH_GRID_FORM=0 FLUID_DFSPH_PERSISTENT=432 FLUID_DFSPH_PERSISTENT=264 FLUID_SIM_LANES=2; do
    s "bench-$v" 30 env "$v" ./fluid bench --sim --solvers dfsph --particles 27648
done
grep -h "^dfsph\|^GL\|FAIL\|PASS\|bit-identical\|DIFFERENT\|differ" "$o"/*.txt | cut -c1-250 | head -80
