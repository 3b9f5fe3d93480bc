#!/bin/bash
# The include structure of src/ (tools/check_includes.py): no include cycle between modules, and
# every folder includes only what its row of docs/DESIGN.md's "may include" table allows. No GL.
set -u
src="${FLUID_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
if ! command -v python3 > /dev/null; then
    echo "SKIP: python3 is missing"
    exit 77
fi
python3 "$src/tools/check_includes.py" "$src"
