#!/usr/bin/env bash
# Packs the fluid binary, the test programs, shaders/ and assets/ with their libraries into .gpu/
# for the H100 machine (headless NVIDIA GL through EGL; see docs/BENCHMARKS.md). Run after a build.
#   usage: tools/pack-h100.sh [BUILD_DIR]
# There:  cd .gpu && LD_LIBRARY_PATH=$PWD/lib ./fluid bench ...   (./tests/test_x for the tests)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
pack=../shared/gpu/pack-runtime.sh
[ -x "$pack" ] || [ -f "$pack" ] || { echo "pack-h100: $pack not found (it ships with the workplace)" >&2; exit 2; }
bash "$pack" .gpu "$build/fluid" shaders assets
mkdir -p .gpu/tests
# gpu_caps: the shell tests read the limits from it. A test program without its source (a test since
# removed, its binary left in the build folder) is not packed: session 30's suite ran such a one.
for t in "$build"/tests/test_* "$build"/tests/gpu_caps; do
    name=$(basename "$t")
    [ -x "$t" ] && { [ -f "tests/$name.c" ] || [ "$name" = gpu_caps ]; } && cp "$t" .gpu/tests/
done
cp tests/*.sh .gpu/tests/ 2>/dev/null || true
du -sh .gpu
