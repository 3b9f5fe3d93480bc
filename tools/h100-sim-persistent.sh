#!/usr/bin/env bash
# An H100 run of DFSPH's persistent solve (issue 15, second round): the tests that cover it on the
# real driver (test_gpu's grid barrier, test_sim_persistent's both-paths comparison, the sim
# tests), then `fluid bench --sim --solvers dfsph` at 27,648 and 110,592 with the path forced each
# way (FLUID_DFSPH_PERSISTENT=$PERSISTENT groups, default 264 = 2 an SM on the H100; 0: the
# indirect path, the default), the grid sizes in GRIDS (e.g. "132 528"), and with LARGE=1 also
# 432,000 and 1,000,000 for 0.5 s (the indirect path; the persistent too with LARGE_PERSISTENT=N).
#   usage: bash tools/h100-sim-persistent.sh PACK_DIR OUT_DIR [LARGE]
set -u
source "$(dirname "${BASH_SOURCE[0]}")/h100-step.sh"
pack=$(cd "${1:?pack dir}" && pwd)
final=${2:?out dir}
large=${3:-0}
mkdir -p "$final"
out=$(mktemp -d)/sim-persistent
mkdir -p "$out"
trap 'tar czf "$final/sim-persistent.tar.gz" -C "$(dirname "$out")" sim-persistent; cp "$out/steps.txt" "$final/" 2>/dev/null' EXIT
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
for t in ${TESTS-test_gpu test_sim_persistent test_sim_dispatches test_sim_kernels test_sim_neighbours test_sim_sorts test_sim_set}; do
    step "$t" 90 "./tests/$t"
done
FLUID_DFSPH_PERSISTENT=${PERSISTENT:-264} step bench-persistent 90 ./fluid bench --sim --solvers dfsph --particles 27648,110592 --csv "$out/bench-persistent.csv"
FLUID_DFSPH_PERSISTENT=0 step bench-indirect 90 ./fluid bench --sim --solvers dfsph --particles 27648,110592 --csv "$out/bench-indirect.csv"
for g in ${GRIDS:-}; do
    FLUID_DFSPH_PERSISTENT=$g step "bench-grid-$g" 60 ./fluid bench --sim --solvers dfsph --particles 27648,110592
done
if [ "$large" = 1 ]; then
    [ -n "${LARGE_PERSISTENT:-}" ] && FLUID_DFSPH_PERSISTENT=$LARGE_PERSISTENT step bench-large-persistent 120 ./fluid bench --sim --solvers dfsph --particles 432000,1000000 --seconds 0.5 --csv "$out/bench-large-persistent.csv"
    FLUID_DFSPH_PERSISTENT=0 step bench-large-indirect 120 ./fluid bench --sim --solvers dfsph --particles 432000,1000000 --seconds 0.5 --csv "$out/bench-large-indirect.csv"
fi
cat "$out/steps.txt"
