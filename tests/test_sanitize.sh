#!/bin/bash
# The C code under AddressSanitizer and UndefinedBehaviorSanitizer: builds the project a second
# time with FLUID_SANITIZE=ON (in asan/ beside the fluid binary given as $1) and runs, on that
# build, the test programs that drive the GL layer, the renderer and HUD, the simulation and both
# sorts, then the shell tests of the command line (fluid, fluid sort, fluid bench) and the window
# with the sanitized fluid. Any sanitizer report (memory error, leak, undefined behaviour) fails
# it. A program that skips (77) checked nothing under the sanitizers: the run then skips as a
# whole (77) unless something failed, so a skip never reads as a pass.
set -u
fluid=${1:?usage: test_sanitize.sh /path/to/fluid}
src=${FLUID_SOURCE_DIR:?run through ctest, which sets FLUID_SOURCE_DIR}
build=$(cd "$(dirname "$fluid")" && pwd)/asan
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cmake -S "$src" -B "$build" -DFLUID_SANITIZE=ON > "$log" 2>&1 || ! cmake --build "$build" -j2 >> "$log" 2>&1; then
    cat "$log"
    echo "FAIL: the sanitizer build failed"
    exit 1
fi
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fails=0
skips=0
run() { # name, command...
    local name=$1 start rc
    shift
    start=$(date +%s)
    "$@" > "$log" 2>&1
    rc=$?
    if [ $rc -eq 77 ] && ! grep -q "Sanitizer\|runtime error:" "$log"; then
        echo "skip $name: $(tail -1 "$log")"
        skips=$((skips + 1))
    elif [ $rc -ne 0 ] || grep -q "Sanitizer\|runtime error:" "$log"; then
        grep -B2 -A25 "ERROR\|runtime error:\|FAIL" "$log" | head -60
        echo "FAIL: $name (exit $rc) under the sanitizers"
        fails=$((fails + 1))
    else
        echo "ok   $name (exit $rc, $(($(date +%s) - start)) s)"
    fi
}
export FLUID_TEST_OUT=$(mktemp -d)
for t in test_outfile test_gpu test_layout test_controls test_hud_scale test_render_splat test_render_offscreen test_render_water test_sim_neighbours test_sim_set test_sim_sorts test_sort_bitonic test_sort_radix; do
    run "$t" "$build/tests/$t"
done
for t in test_cli_sort test_run_cli test_bench_cli test_window_xvfb test_render_video test_outputs; do
    run "$t.sh" bash "$src/tests/$t.sh" "$build/fluid"
done
rm -rf "$FLUID_TEST_OUT"
if [ $fails -gt 0 ]; then
    echo "FAIL: $fails programs"
    exit 1
fi
if [ $skips -gt 0 ]; then
    echo "SKIP: $skips programs skipped under the sanitizers (see above); the rest had no reports"
    exit 77
fi
echo "PASS: no sanitizer reports"
exit 0
