#!/usr/bin/env bash
# The whole H100 run in one command, from the packed folder (tools/pack-h100.sh):
#   1. every test program and the shell tests that need no display;
#   2. (SORTS=1) the sort benchmark with per-dispatch detail, beside CUB where the pack holds
#      tools/cub-bench's binary (tools/h100-sort.sh has the sort's own longer run);
#   3. the simulation per displayed frame (fluid bench --sim): both solvers at 27,648 and 110,592
#      over 1 s of the dam break, both again at 442,368 and 1,000,000 over 0.5 s; each extra
#      environment in SIM_VARIANTS (space-separated VAR=VALUE) repeats the first row set under it;
#   4. the pictures of the README (1 s of the default dam break, water and spheres);
#   5. the renderer's times (fluid bench --render: every style with and without the HUD).
# Usage, on the H100 machine:  bash tools/h100-run.sh .gpu "$OUT/run"
# Writes OUT/h100.tgz (the device tool brings back few files), with summary.txt and the pictures beside it.
set -u
pack=$(cd "${1:?usage: h100-run.sh PACK_DIR OUT_DIR}" && pwd)
out=$(mkdir -p "${2:?usage: h100-run.sh PACK_DIR OUT_DIR}" && cd "$2" && pwd)
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fluid=$pack/fluid
summary=$out/summary.txt
: >"$summary"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >>"$summary" 2>&1 || true

# 1. Tests: every test program, and the shell tests that need no display.
for t in tests/test_*; do
    name=$(basename "$t")
    case "$name" in
    *xvfb* | *sanitize* | *includes*) continue ;; # no display; no compiler there; no sources
    *.sh) cmd=(bash "$t" "$fluid") ;;
    *) cmd=("$t") ;;
    esac
    start=$(date +%s%N)
    timeout 240 "${cmd[@]}" >"$out/test-$name.log" 2>&1
    rc=$?
    printf '%-28s rc %3d  %6d ms\n' "$name" "$rc" $((($(date +%s%N) - start) / 1000000)) | tee -a "$out/tests.log"
done
cat "$out/tests.log" >>"$summary"

# 2. The sort benchmark (SORTS=1): every algorithm, per-dispatch detail, CUB beside it.
if [ "${SORTS:-0}" = 1 ]; then
    ref=()
    if [ -x ./cub-bench ]; then timeout 120 ./cub-bench >"$out/cub.csv" 2>&1 && ref=(--reference "$out/cub.csv"); fi
    timeout 300 "$fluid" bench --algos radix,radix-rts,onesweep,counting,bitonic --csv "$out/bench.csv" --detail "${ref[@]}" >"$out/bench.txt" 2>&1
    echo "bench rc $?" >>"$summary"
fi

# 2b. The simulation per displayed frame.
timeout 200 "$fluid" bench --sim --solvers dfsph,wcsph --particles 27648,110592 --csv "$out/sim.csv" >"$out/sim.txt" 2>&1
echo "bench --sim rc $?" >>"$summary"
timeout 240 "$fluid" bench --sim --solvers dfsph,wcsph --particles 442368,1000000 --seconds 0.5 --csv "$out/sim-large.csv" >"$out/sim-large.txt" 2>&1
echo "bench --sim large rc $?" >>"$summary"
for v in ${SIM_VARIANTS:-}; do
    timeout 120 env "$v" "$fluid" bench --sim --solvers dfsph --particles 27648,110592 >"$out/sim-$v.txt" 2>&1
    echo "bench --sim $v rc $?" >>"$summary"
done
cat "$out"/sim*.txt >>"$summary"

# 3. The simulation: per-stage GPU times (sync timer reads per step), and a picture of each.
# A later moment of the default dam break (1 s simulated), for the docs' pictures: the water (the
# default style) and the same moment as spheres.
timeout 120 "$fluid" --headless --frames 60 --screenshot "$out/shot-dambreak-1s-surface.png" >"$out/sim-dambreak-1s-surface.txt" 2>&1
echo "sim dambreak 1 s surface rc $?" >>"$summary"
timeout 120 "$fluid" --headless --frames 60 --style spheres --screenshot "$out/shot-dambreak-1s.png" >"$out/sim-dambreak-1s.txt" 2>&1
echo "sim dambreak 1 s spheres rc $?" >>"$summary"

# 4. The renderer (targets: surface 27,648 at 1280x720 with the HUD <= 0.5 ms; surface 1M at
#    1920x1080 <= 2 ms; spheres 27,648 at 1280x720 no slower than 0.106 ms), after 1 s of the dam
#    break (60 frames; 10 at 1M, whose steps are many).
timeout 300 "$fluid" bench --render --particles 27648 --size 1280x720 --frames 60 >"$out/render-27648-1280x720.txt" 2>&1
echo "render 27648 1280x720 rc $?" >>"$summary"
timeout 300 "$fluid" bench --render --particles 110592 --size 1280x720 --frames 30 >"$out/render-110592-1280x720.txt" 2>&1
echo "render 110592 1280x720 rc $?" >>"$summary"
timeout 400 "$fluid" bench --render --particles 1000000 --size 1920x1080 --frames 10 >"$out/render-1000000-1920x1080.txt" 2>&1
echo "render 1000000 1920x1080 rc $?" >>"$summary"
cat "$out"/render-*.txt >>"$summary"
cat "$summary"
cp "$summary" "$out"/shot-*.png "$out/../" 2>/dev/null
tar czf "$out/../h100.tgz" -C "$out" . && rm -rf "$out"
