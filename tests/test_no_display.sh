#!/bin/bash
# No display (DISPLAY and WAYLAND_DISPLAY unset) never turns a command into the demo (issue 25,
# fragile "No display turns a command into the demo"): a run that names its outputs runs as with
# --headless and writes only those, with a one-line notice; a run that names none is still the
# demo (README: the video fluid-headless.mp4 where ffmpeg is, and the last frame fluid-headless.png
# in the current folder). Independent model: the current folder's listing afterwards. On main
# 2d0a307 `fluid --stats s.csv` also wrote fluid-headless.mp4 and fluid-headless.png.
FLUID=$(realpath "${1:?usage: test_no_display.sh /path/to/fluid}")
. "$(dirname "$0")/lib.sh"
nodisplay() { (cd "$1" && shift && env -u DISPLAY -u WAYLAND_DISPLAY "$FLUID" --particles 300 --substeps 4 --frames 1 "$@"); }

mkdir "$TMP/asked" "$TMP/demo"
nodisplay "$TMP/asked" --stats s.csv --size 64x64 --screenshot p.png > /dev/null 2> "$TMP/err"
rc=$?
skip_without_gl "$TMP/err"
check "[ $rc = 0 ]" "--stats --screenshot with no display: exit $rc: $(tail -1 "$TMP/err")"
check "[ \"\$(ls -A '$TMP/asked' | tr '\n' ' ')\" = 'p.png s.csv ' ]" \
    "--stats s.csv --screenshot p.png with no display wrote: $(ls -A "$TMP/asked" | tr '\n' ' ')"
check "head -1 '$TMP/asked/s.csv' | grep -q '^step,'" "the stats are not a CSV"
check "grep -c 'no display' '$TMP/err' | grep -qx 1 && grep -q 'as with --headless' '$TMP/err'" \
    "no one-line notice that it runs as with --headless: $(cat "$TMP/err")"

# No output named: the demo, as the README promises (one frame here, to stay quick).
nodisplay "$TMP/demo" --size 64x64 > /dev/null 2> "$TMP/err"
rc=$?
check "[ $rc = 0 ]" "the demo with no display: exit $rc: $(tail -1 "$TMP/err")"
check "[ -s '$TMP/demo/fluid-headless.png' ]" "the demo wrote no fluid-headless.png: $(ls -A "$TMP/demo")"
if command -v ffmpeg > /dev/null; then
    check "[ -s '$TMP/demo/fluid-headless.mp4' ]" "the demo wrote no fluid-headless.mp4: $(ls -A "$TMP/demo")"
fi
finish
