#!/usr/bin/env bash
# A short H100 run of the simulation work (issue 15): the sim tests on the real driver, then
# `fluid bench --sim` for both solvers at 27,648 and 110,592 (radix), the lanes a particle compared
# there (LANES="2 8"), dfsph's neighbour records forced on and off (RECS="0 1"), the frames of
# iteration history its caps look at (HISTORY="1 2"), and with LARGE=1
# also 442,368 and 1,000,000 for 0.5 s.
#   usage: bash tools/h100-sim-fast.sh PACK_DIR OUT_DIR [LARGE]
set -u
source "$(dirname "${BASH_SOURCE[0]}")/h100-step.sh"
pack=$(cd "${1:?pack dir}" && pwd)
final=${2:?out dir}
large=${3:-0}
mkdir -p "$final"
out=$(mktemp -d)/sim-fast
mkdir -p "$out"
trap 'tar czf "$final/sim-fast.tar.gz" -C "$(dirname "$out")" sim-fast; cp "$out/steps.txt" "$out/bench-sim.txt" "$final/" 2>/dev/null' EXIT
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
for t in test_sim_dispatches test_sim_kernels test_sim_neighbours test_sim_sorts test_sim_set; do step "$t" 90 "./tests/$t"; done
step bench-sim 150 ./fluid bench --sim --solvers dfsph,wcsph --particles 27648,110592 --csv "$out/bench-sim.csv"
for lanes in ${LANES:-}; do
    FLUID_SIM_LANES=$lanes step "bench-sim-lanes-$lanes" 60 ./fluid bench --sim --solvers dfsph,wcsph --particles 27648,110592
done
for rec in ${RECS:-}; do
    FLUID_DFSPH_RECORDS=$rec step "bench-sim-records-$rec" 60 ./fluid bench --sim --solvers dfsph --particles 27648,110592
done
for h in ${HISTORY:-}; do
    FLUID_DFSPH_HISTORY=$h step "bench-sim-history-$h" 60 ./fluid bench --sim --solvers dfsph --particles 27648,110592 --csv "$out/bench-sim-history-$h.csv"
done
if [ "$large" = 1 ]; then
    step bench-sim-large 240 ./fluid bench --sim --solvers dfsph,wcsph --particles 442368,1000000 --seconds 0.5 --csv "$out/bench-sim-large.csv"
fi
cat "$out/steps.txt"
