#!/usr/bin/env bash
# The simulation's H100 run (issue 9, and the neighbour search of issue 11): the sim tests on the
# real driver, then `fluid bench --sim` for each solver, sort and particle count, then a headless
# dam break of 1 s with its per-step stats and the neighbour passes' lanes compared at 27,648.
#   usage: bash tools/h100-sim.sh PACK_DIR OUT_DIR      (PACK_DIR from tools/pack-h100.sh)
# Everything lands in OUT_DIR/sim-run.tar.gz, with steps.txt and bench-sim.txt beside it.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/h100-step.sh"
pack=$(cd "${1:?pack dir}" && pwd)
final=${2:?out dir}
mkdir -p "$final"
out=$(mktemp -d)/sim-run
mkdir -p "$out"
trap 'tar czf "$final/sim-run.tar.gz" -C "$(dirname "$out")" sim-run; cp "$out/steps.txt" "$out/bench-sim.txt" "$final/" 2>/dev/null' EXIT
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
for t in test_sim_kernels test_sim_neighbours test_sim_sorts test_sim_dambreak; do step "$t" 120 "./tests/$t"; done
step bench-sim 200 ./fluid bench --sim --solvers dfsph,wcsph --sorts radix,counting,bitonic --particles 27648,110592 \
    --csv "$out/bench-sim.csv"
step bench-sim-large 300 ./fluid bench --sim --solvers dfsph,wcsph --sorts radix --particles 442368,1000000 --seconds 0.5 \
    --csv "$out/bench-sim-large.csv"
for slack in 0 2; do
    FLUID_DFSPH_SLACK=$slack step "bench-sim-slack-$slack" 60 ./fluid bench --sim --solvers dfsph --particles 27648
done
step dambreak-1s 60 ./fluid --headless --frames 60 --stats "$out/dambreak-1s-stats.csv"
cat "$out/steps.txt"
