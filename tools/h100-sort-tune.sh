#!/usr/bin/env bash
# The onesweep tuning run of issue 16 on the H100: the look-back with fallback against the waiting
# one, spin counts, tile sizes, against reduce-then-scan and CUB, then the onesweep test there.
#   usage: bash tools/h100-sort-tune.sh PACK_DIR OUT_DIR
set -u
source "$(dirname "${BASH_SOURCE[0]}")/h100-step.sh"
pack=$(cd "${1:?pack dir}" && pwd)
final=${2:?out dir}
mkdir -p "$final"
out=$(mktemp -d)/sort-tune
mkdir -p "$out"
trap 'tar czf "$final/sort-tune.tar.gz" -C "$(dirname "$out")" sort-tune; cp "$out/steps.txt" "$final/" 2>/dev/null' EXIT
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ref=()
[ -f ./cub.csv ] && ref=(--reference ./cub.csv)
step bench-fallback 90 ./fluid bench --algos onesweep,radix-rts --detail "${ref[@]}"
step bench-wait 60 env FLUID_ONESWEEP_LOOKBACK=wait ./fluid bench --algos onesweep --detail "${ref[@]}"
for s in 8 1024; do
    step "spin-$s" 30 env FLUID_ONESWEEP_SPIN=$s ./fluid bench --algos onesweep --sizes 262144,1048576,16777216 --bits 32 --reps 20
done
for k in 8 10 14; do
    step "kpt-$k" 30 env FLUID_ONESWEEP_KPT=$k ./fluid bench --algos onesweep --sizes 1048576,4194304,16777216 --bits 16,32 --reps 20 --detail
done
for k in 4 6 12; do
    step "small-kpt-$k" 30 env FLUID_ONESWEEP_SMALL_KPT=$k ./fluid bench --algos onesweep --sizes 27648,65536,131072 --bits 16,32 --reps 20 --detail
done
step test_sort_onesweep 150 ./tests/test_sort_onesweep
