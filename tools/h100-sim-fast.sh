#!/usr/bin/env bash
# A short H100 run of the simulation work (issue 15): the sim tests on the real driver (TESTS
# overrides the list), then `fluid bench --sim` for both solvers at 27,648 and 110,592 (radix),
# then DFSPH again under each setting of VARIANTS (space-separated VAR=VALUE, for example
# "FLUID_SIM_LANES=2 FLUID_DFSPH_RECORDS=0 FLUID_DFSPH_PERSISTENT=528 FLUID_DFSPH_PERSISTENT=0";
# docs/ENVIRONMENT.md lists them), and with LARGE=1 also 442,368 and 1,000,000 for 0.5 s (under
# LARGE_VARIANT=VAR=VALUE when given).
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
for t in ${TESTS-test_gpu test_sim_dispatches test_sim_persistent test_sim_kernels test_sim_neighbours test_sim_sorts test_sim_set}; do
    step "$t" 90 "./tests/$t"
done
step bench-sim 150 ./fluid bench --sim --solvers dfsph,wcsph --particles 27648,110592 --csv "$out/bench-sim.csv"
for v in ${VARIANTS:-}; do
    step "bench-sim-$v" 90 env "$v" ./fluid bench --sim --solvers dfsph --particles 27648,110592 --csv "$out/bench-sim-$v.csv"
done
if [ "$large" = 1 ]; then
    step bench-sim-large 240 env ${LARGE_VARIANT:-} ./fluid bench --sim --solvers dfsph,wcsph --particles 442368,1000000 --seconds 0.5 \
        --csv "$out/bench-sim-large.csv"
fi
cat "$out/steps.txt"
