#!/bin/bash
# The C code under AddressSanitizer and UndefinedBehaviorSanitizer: builds the project a second
# time with FLUID_SANITIZE=ON (in asan/ beside the fluid binary given as $1) and runs, on that
# build, the test programs that drive the GL layer, the renderer and HUD, the simulation and the
# bitonic sort, then the shell tests of the command line and the window with the sanitized fluid.
# Any sanitizer report (memory error, leak, undefined behaviour) fails it. The radix sort runs in
# the simulation and CLI tests; its own test program is left to the plain build (it is the slow one).
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
run() { # name, command...
    local name=$1 start rc
    shift
    start=$(date +%s)
    "$@" > "$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 77 ] || grep -q "Sanitizer\|runtime error:" "$log"; then
        grep -B2 -A25 "ERROR\|runtime error:\|FAIL" "$log" | head -60
        echo "FAIL: $name (exit $rc) under the sanitizers"
        fails=$((fails + 1))
    else
        echo "ok   $name (exit $rc, $(($(date +%s) - start)) s)"
    fi
}
export FLUID_TEST_OUT=$(mktemp -d)
for t in test_gpu test_render_splat test_render_offscreen test_render_water test_sim_neighbours test_sim_scenes test_sim_sorts test_sort_bitonic; do
    run "$t" "$build/tests/$t"
done
for t in test_cli_sort test_run_cli test_window_xvfb test_render_video; do
    run "$t.sh" bash "$src/tests/$t.sh" "$build/fluid"
done
rm -rf "$FLUID_TEST_OUT"
[ $fails -eq 0 ] && echo "PASS: no sanitizer reports" || echo "FAIL: $fails programs"
exit $((fails > 0))
