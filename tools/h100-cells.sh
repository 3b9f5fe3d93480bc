#!/usr/bin/env bash
# The H100 runs of the neighbour-pass work (issue 15, section 2): h and h/2 grid cells
# (FLUID_SIM_CELL), the fast kernels against the plain ones (FLUID_SIM_FAST) and lanes at 1M
# (FLUID_SIM_LANES). PHASES (space-separated) picks what runs, in this order:
#   tests   test_sim_neighbours, test_sim_kernels, test_sim_persistent on the real driver, h and h/2 cells
#   cells   dfsph at 27,648, 109,744, 432,000, 986,078 (0.5 s) and wcsph (0.5 s up to 109,744,
#           SHORT seconds above) with h and h/2 cells (the CELLS list, default "1 2")
#   lanes   dfsph (0.5 s) and wcsph (SHORT) at 986,078 under FLUID_SIM_LANES=2 and 4, each cell of CELLS
#   fast    the same sizes as cells, FLUID_SIM_FAST=0, each cell of CELLS
#   final   both solvers at the four sizes with the defaults (1 s up to 109,744, 0.5 s above)
#   dfsph2  dfsph as final, with h/2 cells
# Every output goes to OUT_DIR/cells.tar.gz, the table lines to OUT_DIR/summary.txt.
#   usage: PHASES="tests cells" bash tools/h100-cells.sh PACK_DIR OUT_DIR
set -u
source "$(dirname "${BASH_SOURCE[0]}")/h100-step.sh"
pack=$(cd "${1:?pack dir}" && pwd)
final=${2:?out dir}
mkdir -p "$final" && final=$(cd "$final" && pwd)
out=$(mktemp -d)/cells
mkdir -p "$out"
trap 'grep -h "^dfsph \|^wcsph \|^solver " "$out"/*.txt >"$out/summary.txt" 2>/dev/null; tar czf "$final/cells.tar.gz" -C "$(dirname "$out")" cells; cp "$out/steps.txt" "$out/summary.txt" "$final/" 2>/dev/null' EXIT
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
short=${SHORT:-0.1}
cells=${CELLS:-1 2}
small="27648,110592"
large="442368,1000000"
sim() { # NAME SECONDS VAR=VALUE... -- bench args
    local name=$1 secs=$2
    shift 2
    local envs=()
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    step "$name" "$secs" env "${envs[@]}" ./fluid bench --sim --csv "$out/$name.csv" "$@"
}
sizes() { # NAME_PREFIX VAR=VALUE...: dfsph at the four sizes, wcsph small and large
    local pre=$1
    shift
    sim "$pre-dfsph" 60 "$@" -- --solvers dfsph --particles "$small,$large" --seconds 0.5
    sim "$pre-wcsph-small" 40 "$@" -- --solvers wcsph --particles "$small" --seconds 0.5
    sim "$pre-wcsph-large" 40 "$@" -- --solvers wcsph --particles "$large" --seconds "$short"
}
for phase in ${PHASES:-tests cells}; do
    case $phase in
    tests)
        for c in 1 2; do
            for t in test_sim_neighbours test_sim_kernels test_sim_persistent; do step "$t-cell$c" 60 env FLUID_SIM_CELL=$c "./tests/$t"; done
        done ;;
    cells) for c in $cells; do sizes "cell$c" FLUID_SIM_CELL=$c; done ;;
    lanes)
        for c in $cells; do
            for l in 2 4; do
                sim "cell$c-lanes$l-dfsph" 40 FLUID_SIM_CELL=$c FLUID_SIM_LANES=$l -- --solvers dfsph --particles 1000000 --seconds 0.5
                sim "cell$c-lanes$l-wcsph" 40 FLUID_SIM_CELL=$c FLUID_SIM_LANES=$l -- --solvers wcsph --particles 1000000 --seconds "$short"
            done
        done ;;
    fast) for c in $cells; do sizes "cell$c-fast0" FLUID_SIM_CELL=$c FLUID_SIM_FAST=0; done ;;
    final)
        sim final-small 60 X=1 -- --solvers dfsph,wcsph --particles "$small" --seconds 1
        sim final-large 90 X=1 -- --solvers dfsph,wcsph --particles "$large" --seconds 0.5 ;;
    dfsph2)
        sim dfsph2-small 40 FLUID_SIM_CELL=2 -- --solvers dfsph --particles "$small" --seconds 1
        sim dfsph2-large 60 FLUID_SIM_CELL=2 -- --solvers dfsph --particles "$large" --seconds 0.5 ;;
    *) echo "h100-cells: unknown phase '$phase' (tests, cells, lanes, fast, final, dfsph2)" >&2; exit 2 ;;
    esac
done
cat "$out/steps.txt"
