#!/bin/bash
# The whole suite (what the README's test command and .ci/run run), in two steps, each timed:
#   1. every test but the sanitizer run and the open issues' targets:  ctest -LE "sanitize|open" -j2
#   2. the sanitizer run, its own step:   ctest -L sanitize  (an ASan + UBSan build of fluid and a
#      chosen subset of the tests, tests/test_sanitize.sh)
# Usage: bash tools/test.sh [BUILD_DIR]   (default build; configure and build it first).
# For the engineer's loop, the fast label alone: ctest --test-dir build -L fast -j2 (CONTRIBUTING.md).
# Exits 0 only when both steps pass (a skipped test is reported by ctest and does not fail it).
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
[ -f "$build/CTestTestfile.cmake" ] || { echo "tools/test.sh: $build is not a configured build; run cmake -S . -B $build && cmake --build $build -j2 first"; exit 1; }
t0=$(date +%s)
ctest --test-dir "$build" -LE "sanitize|open" -j2 --output-on-failure
rc1=$?
t1=$(date +%s)
ctest --test-dir "$build" -L sanitize --output-on-failure
rc2=$?
t2=$(date +%s)
echo "tools/test.sh: the tests $((t1 - t0)) s ($([ $rc1 = 0 ] && echo passed || echo FAILED)), the sanitizer run $((t2 - t1)) s ($([ $rc2 = 0 ] && echo passed || echo FAILED)); load now: $(cut -d' ' -f1-3 /proc/loadavg)"
[ $rc1 = 0 ] && [ $rc2 = 0 ]
