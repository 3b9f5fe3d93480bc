#!/bin/bash
# The window's messages name the file really written (issue 25, fragile "Messages": "recording to
# X.mp4" named a file then saved as X-2.mp4). Every fluid-YYYYMMDD-HHMMSS.mp4 and .json of the next
# few minutes exists already (another window's), so the record and trace keys (through --script)
# must save under -2 and say so; no message may name one of the existing files, which stay as they
# were. Independent model: the folder's listing and the files' contents. Skips (77) without
# xvfb-run or ffmpeg. On main 2d0a307 the start lines named fluid-T.mp4 and fluid-T.json.
FLUID=$(realpath "${1:?usage: test_window_names.sh /path/to/fluid}")
. "$(dirname "$0")/lib.sh"
command -v xvfb-run > /dev/null || { echo "SKIP: xvfb-run is missing"; exit 77; }
command -v ffmpeg > /dev/null || { echo "SKIP: ffmpeg is missing"; exit 77; }
echo other > "$TMP/other"
now=$(date +%s)
for i in $(seq 0 300); do
    t=$(date -d "@$((now + i))" +%Y%m%d-%H%M%S)
    echo other > "$TMP/fluid-$t.mp4"
    echo other > "$TMP/fluid-$t.json"
done
(cd "$TMP" && xvfb-run -a -s "-screen 0 640x480x24" "$FLUID" --particles 300 --substeps 2 --size 96x64 \
    --script "record;frames:2;record;trace;frames:2;trace" > /dev/null 2> "$TMP/err")
rc=$?
skip_without_gl "$TMP/err"
check "[ $rc = 0 ]" "the window exited $rc: $(tail -3 "$TMP/err")"
new=$(ls "$TMP" | grep -E '^fluid-[0-9]{8}-[0-9]{6}-2\.(mp4|json)$' | tr '\n' ' ')
check "[ \"\$(echo $new | wc -w)\" = 2 ]" "expected one -2.mp4 and one -2.json, got: $new"
# every name a message gives is a file written now (not one of the others)
named=$(grep -oE 'fluid-[0-9]{8}-[0-9]{6}(-[0-9]+)?\.(mp4|json)' "$TMP/err" | sort -u | tr '\n' ' ')
check "[ -n '$named' ]" "no message names the files: $(cat "$TMP/err")"
for n in $named; do
    check "[ -s '$TMP/$n' ] && ! cmp -s '$TMP/other' '$TMP/$n'" "a message names $n, not a file written by this run: $(grep -F "$n" "$TMP/err")"
done
check "[ \"\$(grep -l '^other$' "$TMP"/fluid-* | wc -l)\" = 602 ]" "an existing file was changed"
finish
