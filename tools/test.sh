#!/bin/bash
# The suite, each step timed:
#   bash tools/test.sh [BUILD_DIR]
#       the tests (the README's test command): every test but the sanitizer run and the open
#       issues' targets, ctest -LE "sanitize|open" -j2
#   bash tools/test.sh --sanitize [BUILD_DIR]
#       the same, then the sanitizer run as its own step (what .ci/run runs): ctest -L sanitize, an
#       ASan + UBSan build of fluid and a chosen subset of the tests (tests/test_sanitize.sh)
# BUILD_DIR defaults to build (configure and build it first). For the engineer's loop, the fast
# label alone: ctest --test-dir build -L fast -j2 (CONTRIBUTING.md). Exits 0 only when every step
# passes (a skipped test is reported by ctest and does not fail it).
set -u
cd "$(dirname "$0")/.."
sanitize=0
[ "${1:-}" = --sanitize ] && { sanitize=1; shift; }
build=${1:-build}
[ -f "$build/CTestTestfile.cmake" ] || { echo "tools/test.sh: $build is not a configured build; run cmake -S . -B $build && cmake --build $build -j2 first"; exit 1; }
t0=$(date +%s)
ctest --test-dir "$build" -LE "sanitize|open" -j2 --output-on-failure
rc1=$?
t1=$(date +%s)
said="the tests $((t1 - t0)) s ($([ $rc1 = 0 ] && echo passed || echo FAILED))"
rc2=0
if [ $sanitize = 1 ]; then
    ctest --test-dir "$build" -L sanitize --output-on-failure
    rc2=$?
    said+=", the sanitizer run $(($(date +%s) - t1)) s ($([ $rc2 = 0 ] && echo passed || echo FAILED))"
fi
echo "tools/test.sh: $said; load now: $(cut -d' ' -f1-3 /proc/loadavg)"
[ $rc1 = 0 ] && [ $rc2 = 0 ]
