#!/bin/bash
# The window says on screen which particle count it picked for its GPU (issue 26, "The window
# ignores its GPU"), as the headless run says it in its log: on a software renderer (llvmpipe) with
# no --particles, the message on screen (the script's expect-message step reads app_view.message,
# the text the HUD draws) names the software renderer, the count and --particles, before the first
# frame and still after one; with --particles there is none. Independent model: the count the
# window reports on exit, and the log line. Skips (77) without xvfb-run or on a GPU that is not a
# software renderer (there the window picks nothing).
FLUID=$(realpath "${1:?usage: test_window_notice.sh /path/to/fluid}")
. "$(dirname "$0")/lib.sh"
command -v xvfb-run > /dev/null || { echo "SKIP: xvfb-run is missing"; exit 77; }
xvfb() { xvfb-run -a -s "-screen 0 640x480x24" "$@"; }

xvfb "$FLUID" --substeps 1 --size 96x64 --script "expect-message:software renderer;frames:1;expect-message:--particles N" \
    > "$TMP/out" 2> "$TMP/err"
rc=$?
skip_without_gl "$TMP/err"
grep -q "is a software renderer" "$TMP/err" || { echo "SKIP: not a software renderer: $(grep -m1 'APP:' "$TMP/err")"; exit 77; }
check "[ $rc = 0 ]" "the window with the picked count exited $rc: $(grep -E 'expect-message|error' "$TMP/err" | head -3)"
n=$(grep -oE 'software renderer: [0-9]+ particles' "$TMP/err" | head -1 | grep -oE '[0-9]+')
check "[ -n '$n' ] && grep -q 'APP: dambreak, $n particles' '$TMP/err'" "the notice's count ($n) is not the window's: $(grep -m1 'APP: dambreak' "$TMP/err")"
check "[ \"\$(grep -c 'expect-message: \".*software renderer: $n particles.*--particles N' '$TMP/err')\" = 2 ]" \
    "the notice was not on screen before and after the first frame: $(grep expect-message "$TMP/err")"

xvfb "$FLUID" --particles 300 --substeps 1 --size 96x64 --script "expect-message:!software renderer;frames:1;expect-message:!software" \
    > "$TMP/out2" 2> "$TMP/err2"
rc=$?
check "[ $rc = 0 ]" "with --particles the window showed the notice or failed ($rc): $(grep -E 'expect-message|error' "$TMP/err2" | head -3)"
check "! grep -q 'is a software renderer' '$TMP/err2'" "with --particles the count was still picked: $(grep 'software' "$TMP/err2")"
finish
