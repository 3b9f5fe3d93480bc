#!/usr/bin/env bash
# H100 run of the fused DFSPH step (issue 15): the tests that cover it, then
# `fluid bench --sim --solvers dfsph --particles 27648` with the fused step (the default) against
# FLUID_DFSPH_FUSED=2 (its first form, positions read coherent), FLUID_DFSPH_FUSED=0 (the
# persistent solves alone) and the indirect path, interleaved.
#   usage: bash tools/h100-fused.sh PACK_DIR OUT_DIR   (OUT_DIR/fused.tar.gz, steps.txt, summary.txt)
set -u
source "$(dirname "${BASH_SOURCE[0]}")/h100-step.sh"
pack=$(cd "${1:?pack dir}" && pwd)
final=${2:?out dir}
mkdir -p "$final" && final=$(cd "$final" && pwd)
out=$(mktemp -d)/fused
mkdir -p "$out"
trap 'grep -h "^dfsph \|^solver " "$out"/bench-*.txt >"$out/summary.txt" 2>/dev/null; tar czf "$final/fused.tar.gz" -C "$(dirname "$out")" fused; cp "$out/steps.txt" "$out/summary.txt" "$final/" 2>/dev/null' EXIT
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
for t in test_sim_persistent test_sim_dispatches test_sim_frames test_sim_dambreak test_sim_scenes; do
    step "$t" 40 "./tests/$t"
done
B="./fluid bench --sim --solvers dfsph --particles 27648"
for k in 1 2; do
    step bench-fused-$k 20 $B
    step bench-FUSED2-$k 20 env FLUID_DFSPH_FUSED=2 $B
    step bench-FUSED0-$k 20 env FLUID_DFSPH_FUSED=0 $B
done
step bench-indirect 20 env FLUID_DFSPH_PERSISTENT=0 $B
step bench-fused-3 20 $B
