#!/usr/bin/env bash
# The sort's H100 run (issue 11): the sort tests, then `fluid bench` for every sort, then onesweep's
# tile sizes swept with the tuning variables. The safe paths first, so that their figures come
# back even if the look-back were to hang there (each step has its own time limit).
#   usage: bash tools/h100-sort.sh PACK_DIR OUT_DIR      (PACK_DIR from tools/pack-h100.sh)
# Everything lands in OUT_DIR/sort-run.tar.gz (the device tool brings back at most 8 files), with
# steps.txt and bench.txt beside it.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/h100-step.sh"
pack=$(cd "${1:?pack dir}" && pwd)
final=${2:?out dir}
mkdir -p "$final"
out=$(mktemp -d)/sort-run
mkdir -p "$out"
trap 'tar czf "$final/sort-run.tar.gz" -C "$(dirname "$out")" sort-run; cp "$out/steps.txt" "$out/bench.txt" "$final/" 2>/dev/null' EXIT
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
step test_sort_counting 60 ./tests/test_sort_counting
step test_sort_radix 60 ./tests/test_sort_radix
step bench-safe 60 ./fluid bench --algos radix-rts,counting --detail --csv "$out/bench-safe.csv"
step test_sort_onesweep 60 ./tests/test_sort_onesweep
step bench 90 ./fluid bench --algos radix,onesweep,radix-rts,counting --detail --csv "$out/bench.csv"
for k in 4 6 8 12 16; do
    step "tune-small-kpt-$k" 15 env FLUID_ONESWEEP_SMALL_KPT=$k ./fluid bench --algos onesweep \
        --sizes 27648,65536,131072 --bits 16,32 --reps 30
done
for k in 8 12 16 20 24; do
    step "tune-kpt-$k" 20 env FLUID_ONESWEEP_KPT=$k ./fluid bench --algos onesweep \
        --sizes 1048576,16777216 --bits 32 --reps 20 --detail
done
for w in 1 8 16 32; do
    step "tune-window-$w" 20 env FLUID_ONESWEEP_WINDOW=$w ./fluid bench --algos onesweep \
        --sizes 27648,262144,1048576,16777216 --bits 32 --reps 20 --detail
done
step test_cli_sort 60 bash ./tests/test_cli_sort.sh ./fluid
