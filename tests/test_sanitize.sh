#!/bin/bash
# The C code under AddressSanitizer and UndefinedBehaviorSanitizer, on a subset chosen to reach
# every kernel path's host code in minutes (the whole suite under the sanitizers took 12 minutes,
# most of it the CPU side of the long sort sweeps, which add sizes, not paths). Builds fluid,
# gpu_caps and the programs below a second time with FLUID_SANITIZE=ON (in asan/ beside the
# fluid binary given as $1), then runs:
#   programs  the GL layer and shader loader, the C/GLSL layouts, the key table, the HUD at every
#             scale, the session (the frame every command shares), the render style registry and
#             the renderer (every style: surface, spheres, raster, splats), the sim's kernels,
#             neighbour lists and state setting, the fluid's read-back (test_sim_read), the diffuse particles (test_sim_diffuse:
#             their overflow, host side), the radix sort's resizing (the sim over time:
#             the headless runs, bench --sim and the window below);
#   sorts     fluid bench, every algorithm (radix on both paths, shared ranking, onesweep on one
#             llvmpipe thread, counting, bitonic, cpu) at odd sizes and two widths, each checked
#             against the CPU sort, and radix's tiles, one-group and emulated-subgroup paths;
#   command   test_cli_sort and test_bench_cli (every error path of sort and bench), headless runs
#             of both solvers with --stats, --dump, --screenshot and --video in each style, an
#             interrupted run, bench --sim, test_fragile (--script refused at parse time);
#   window    a short scripted session under Xvfb (the script parser on every kind of step): every sort and solver switch, every style and
#             colour, help, resizes through 0x0, more and fewer particles, pause and step, a
#             screenshot checked by the app.
# Any sanitizer report (memory error, leak, undefined behaviour) or failure fails it. A part
# that skips (77) checked nothing under the sanitizers: the run then skips as a whole (77)
# unless something failed, so a skip never reads as a pass. The full tests, unsanitized, are the
# rest of the suite; tools/test.sh --sanitize (.ci/run) runs this as its own step (ctest -L sanitize).
set -u
fluid=${1:?usage: test_sanitize.sh /path/to/fluid}
src=${FLUID_SOURCE_DIR:?run through ctest, which sets FLUID_SOURCE_DIR}
build=$(cd "$(dirname "$fluid")" && pwd)/asan
programs=(test_outfile test_gpu test_layout test_controls test_hud_scale test_session test_render_styles test_render_offscreen
    test_render_splat test_render_water test_sim_kernels test_sim_neighbours test_sim_set test_font test_sim_read test_sim_diffuse)
log=$(mktemp)
TMP=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$TMP"' EXIT
t0=$(date +%s)
# Debug at -O1: asserts on (RelWithDebInfo's NDEBUG drops them), and half the compile time of
# -O2 (16 s against 34 s for fluidcore here); -O1 is what ASan's own documents advise.
if ! cmake -S "$src" -B "$build" -DFLUID_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-O1 -g" > "$log" 2>&1 ||
    ! cmake --build "$build" -j2 --target fluid gpu_caps test_sort_radix "${programs[@]}" >> "$log" 2>&1; then
    cat "$log"
    echo "FAIL: the sanitizer build failed"
    exit 1
fi
echo "built in $(($(date +%s) - t0)) s"
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export FLUID_TEST_OUT=$TMP FLUID_GPU_CAPS=$build/tests/gpu_caps
asan=$build/fluid
fails=0
skips=0
run() { # name, command...: passes on exit 0 with no sanitizer report
    local name=$1 start rc
    shift
    start=$(date +%s)
    "$@" > "$log" 2>&1
    rc=$?
    # A part that failed with no sanitizer report and no failed check of its own (CI saw one such
    # exit 1 of test_render_water whose log held neither, not reproduced in 10 runs) is shown and
    # run once more: the unsanitized suite has run the same test; a report fails at once. So is one
    # whose only report is LeakSanitizer's own crash ("Tracer caught signal 11", then "LeakSanitizer
    # has encountered a fatal error": its thread that stops the others to scan for leaks died, so
    # no leak was looked for; CI saw it once after test_session had passed its 55 checks, not
    # reproduced in 3 runs).
    if [ $rc -ne 0 ] && [ $rc -ne 77 ] && { ! grep -q "Sanitizer\|runtime error:\|FAIL" "$log" ||
        { grep -q "LeakSanitizer has encountered a fatal error" "$log" &&
            ! grep -q "ERROR: [A-Za-z]*Sanitizer\|runtime error:\|FAIL" "$log"; }; }; then
        echo "  $name exited $rc with no report on our code (none, or LeakSanitizer's own crash) and no failed check; its log's last lines, then once more:"
        tail -15 "$log" | sed 's/^/    /'
        "$@" > "$log" 2>&1
        rc=$?
    fi
    if [ $rc -eq 77 ] && ! grep -q "Sanitizer\|runtime error:" "$log"; then
        echo "skip $name: $(tail -1 "$log")"
        skips=$((skips + 1))
    elif [ $rc -ne 0 ] || grep -q "Sanitizer\|runtime error:" "$log"; then
        grep -B2 -A25 "ERROR\|runtime error:\|FAIL" "$log" | head -60 | grep . || tail -15 "$log"
        echo "FAIL: $name (exit $rc) under the sanitizers"
        fails=$((fails + 1))
    else
        echo "ok   $name ($(($(date +%s) - start)) s)"
    fi
}
# bench_ok ALGOS ARGS...: fluid bench --algos ALGOS, no row failing its check against the CPU
# sort and every algorithm with an "ok" row (counting skips widths past
# 22 bits: those rows say skipped).
bench_ok() {
    local algos=$1 a
    shift
    "$asan" bench --reps 1 --warmup 0 --algos "$algos" "$@" > "$TMP/bench.out" || return 1
    if grep -q "FAIL" "$TMP/bench.out"; then cat "$TMP/bench.out"; return 1; fi
    for a in ${algos//,/ }; do
        grep -qE "^ *$a +[0-9]+ +[0-9]+ .* ok$" "$TMP/bench.out" || { cat "$TMP/bench.out"; echo "FAIL: no ok row of $a"; return 1; }
    done
}
with_env() { # VAR=VALUE command...
    local kv=$1
    shift
    (export "${kv?}" && "$@")
}
# A headless run that must write every output it names.
headless() { # name, args...
    local name=$1
    shift
    rm -f "$TMP"/h.*
    "$asan" --headless --particles 500 --frames 3 --substeps 2 --size 320x240 --stats "$TMP/h.csv" --dump "$TMP/h.dump" \
        --screenshot "$TMP/h.png" "$@" || return 1
    for f in "$TMP/h.csv" "$TMP/h.dump" "$TMP/h.png"; do [ -s "$f" ] || { echo "FAIL: $name wrote no $f"; return 1; }; done
}
interrupted() { # a long run, Ctrl-C once it steps: exit 130, its stats kept
    "$asan" --headless --particles 500 --frames 100000 --substeps 1 --stats "$TMP/int.csv" 2> "$TMP/int.err" &
    local pid=$! i rc
    for i in $(seq 1 300); do grep -q "CLI:" "$TMP/int.err" && break; sleep 0.1; done
    sleep 1
    kill -INT $pid
    wait $pid
    rc=$?
    cat "$TMP/int.err"
    [ $rc = 130 ] && [ -s "$TMP/int.csv" ] || { echo "FAIL: the interrupted run exited $rc"; return 1; }
}
window() { # a scripted session under Xvfb; the app checks its own screenshot
    command -v xvfb-run > /dev/null || { echo "SKIP: xvfb-run is missing"; return 77; }
    # Tab walks sort_algos[]: radix, onesweep, counting, bitonic, cpu.
    local s="frames:2;sort-next;expect-sort:onesweep;frames:1;sort-next;expect-sort:counting;frames:1;sort-next"
    s+=";expect-sort:bitonic;frames:1;sort-next;expect-sort:cpu;frames:1;sort-next;expect-sort:radix;frames:1"
    s+=";solver-next;frames:2;solver-next;frames:1;style;frames:1;style;frames:1;style;color;frames:1;color;help;frames:1;help"
    s+=";resize:0x0;frames:1;resize:400x300;frames:1;more;frames:1;fewer;frames:1;pause;step;pause;shot:$TMP/w.png;check:$TMP/w.png"
    xvfb-run -a -s "-screen 0 640x480x24" env -u LP_NUM_THREADS "$asan" --debug --particles 4096 --substeps 1 --size 320x240 --script "$s" || return 1
    [ -s "$TMP/w.png" ] || { echo "FAIL: no screenshot"; return 1; }
}

for t in "${programs[@]}"; do run "$t" "$build/tests/$t"; done
run "test_sort_radix (resizing)" env FLUID_TEST_RESIZE_ONLY=1 "$build/tests/test_sort_radix"
run "sorts: every algorithm" bench_ok radix,radix-rts,radix-shared,onesweep,counting,bitonic,cpu --sizes 1,1000,4099,70000 --bits 9,32
run "sorts: onesweep on one thread" with_env LP_NUM_THREADS=1 bench_ok onesweep --sizes 1000,70000 --bits 9,32
for v in FLUID_RADIX_COUNT_AHEAD_TILES=0 FLUID_RADIX_ONEGROUP_MAX=32768 FLUID_RADIX_EMULATE_SUBGROUP=32; do
    run "sorts: radix with $v" with_env "$v" bench_ok radix-rts --sizes 1000,70000 --bits 32
done
run test_cli_sort.sh bash "$src/tests/test_cli_sort.sh" "$asan"
run test_bench_cli.sh bash "$src/tests/test_bench_cli.sh" "$asan"
run test_outputs.sh bash "$src/tests/test_outputs.sh" "$asan"
run "test_fragile.sh (the script parser's refusal, the program dump's path)" bash "$src/tests/test_fragile.sh" "$asan"
run "run: dfsph, surface, video" headless dfsph --solver dfsph --style surface --video "$TMP/h.mp4"
run "run: wcsph, spheres" headless wcsph --solver wcsph --style spheres --scene drop
run "run: raster, bitonic" headless raster --style raster --sort bitonic --scene double-dambreak
run "run: interrupted" interrupted
run "bench --sim" "$asan" bench --sim --particles 500 --seconds 0.05 --sorts radix,counting
run "window under Xvfb" window
echo "the sanitizer run took $(($(date +%s) - t0)) s"
if [ $fails -gt 0 ]; then
    echo "FAIL: $fails parts"
    exit 1
fi
if [ $skips -gt 0 ]; then
    echo "SKIP: $skips parts skipped under the sanitizers (see above); the rest had no reports"
    exit 77
fi
echo "PASS: no sanitizer reports"
exit 0
