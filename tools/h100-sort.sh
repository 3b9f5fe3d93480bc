#!/usr/bin/env bash
# The sort's H100 run (issues 11, 16): CUB's figures (tools/cub-bench.cu, when the pack holds its
# binary), `fluid bench` for every sort with --detail and --reference against them, then the
# onesweep tuning variables swept, then (MODE full) the sort tests. Each step has its own time limit.
#   usage: bash tools/h100-sort.sh PACK_DIR OUT_DIR [MODE]    (PACK_DIR from tools/pack-h100.sh;
#          MODE: profile (default: bench and tuning sweeps) or full (bench, the look-back with
#          fallback, the simulation's sort stages, and the sort tests))
# Everything lands in OUT_DIR/sort-run.tar.gz (the device tool brings back at most 8 files), with
# steps.txt, bench.txt and cub.csv beside it.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/h100-step.sh"
pack=$(cd "${1:?pack dir}" && pwd)
final=${2:?out dir}
mode=${3:-profile}
mkdir -p "$final"
out=$(mktemp -d)/sort-run
mkdir -p "$out"
trap 'tar czf "$final/sort-run.tar.gz" -C "$(dirname "$out")" sort-run; cp "$out/steps.txt" "$out/bench.txt" "$out/cub.csv" "$final/" 2>/dev/null' EXIT
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
ref=()
if [ -x ./cub-bench ]; then
    timeout 120 ./cub-bench >"$out/cub.csv" 2>"$out/cub-stderr.txt"
    echo "cub-bench rc=$?" | tee -a "$out/steps.txt"
    ref=(--reference "$out/cub.csv")
fi
# The reference option exists from issue 16 on; an older binary refuses it.
./fluid bench --help | grep -q -- --reference || ref=()
step bench 150 ./fluid bench --algos radix,radix-rts,onesweep,counting --detail "${ref[@]}" --csv "$out/bench.csv"
if [ "$mode" = full ]; then
    # the look-back with fallback on this driver (the default there is the waiting one)
    step bench-fallback 60 env FLUID_ONESWEEP_LOOKBACK=fallback ./fluid bench --algos onesweep --detail "${ref[@]}"
    step bench-sim 120 ./fluid bench --sim --solvers dfsph --sorts radix,counting,bitonic --particles 27648,442368 \
        --seconds 0.25 --csv "$out/bench-sim.csv"
    for t in test_sort_onesweep test_sort_counting test_sort_radix test_sort_bitonic test_sim_sorts test_sim_neighbours; do
        step "$t" 120 "./tests/$t"
    done
    step test_cli_sort 60 bash ./tests/test_cli_sort.sh ./fluid
    exit 0
fi
for w in ${SWEEP_WINDOWS:-1 8 32}; do
    step "tune-window-$w" 30 env FLUID_ONESWEEP_WINDOW=$w ./fluid bench --algos onesweep \
        --sizes 262144,1048576,16777216 --bits 32 --reps 20 --detail
done
for k in ${SWEEP_KPTS:-12 20 24}; do
    step "tune-kpt-$k" 30 env FLUID_ONESWEEP_KPT=$k ./fluid bench --algos onesweep \
        --sizes 1048576,4194304,16777216 --bits 32 --reps 20 --detail
done
