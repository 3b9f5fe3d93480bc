#!/usr/bin/env bash
# Damaged assets (issue 25, item 9 and "Assets"): a data folder whose shader is a FIFO, a folder, or
# whose font is cut short. Each must give one line naming the file, exit 1, within seconds (a FIFO
# hung the start), and leave no output behind (--screenshot, --stats). Reference: the same run with
# the assets intact writes both files. Usage: bash test_assets.sh /path/to/fluid   (77: no GL 4.5)
FLUID=${1:?usage: test_assets.sh /path/to/fluid}
. "$(dirname "$0")/lib.sh"
src=${FLUID_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
[ -d "$src/shaders" ] || src=$(dirname "$FLUID") # the H100's pack: shaders/ beside the binary

fresh() { # a copy of the data folder
    rm -rf "$TMP/d" "$TMP/out" && mkdir -p "$TMP/d" "$TMP/out" && cp -r "$src/shaders" "$src/assets" "$TMP/d/"
}
run() { # NAME WHAT: a run on $TMP/d that must fail with one line naming NAME
    name=$1 what=$2
    timeout 60 "$FLUID" --headless --data "$TMP/d" --particles 1000 --frames 1 --screenshot "$TMP/out/p.png" \
        --stats "$TMP/out/s.csv" >/dev/null 2>"$TMP/err"
    rc=$?
    check '[ $rc = 1 ]' "$what: exit $rc, not 1 ($(head -c 200 "$TMP/err"))"
    check '[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "$name" "$TMP/err"' "$what: not one line naming $name: $(cat "$TMP/err")"
    check '[ -z "$(ls -A "$TMP/out")" ]' "$what: left $(ls -A "$TMP/out" | tr '\n' ' ')"
}

fresh
"$FLUID" --headless --data "$TMP/d" --particles 1000 --frames 1 --screenshot "$TMP/out/p.png" --stats "$TMP/out/s.csv" \
    >/dev/null 2>"$TMP/err" || { skip_without_gl "$TMP/err"; fail "the intact run failed: $(cat "$TMP/err")"; }
check '[ -s "$TMP/out/p.png" ] && [ -s "$TMP/out/s.csv" ]' "the intact run did not write its outputs"

fresh && rm "$TMP/d/shaders/common.glsl" && mkfifo "$TMP/d/shaders/common.glsl"
run "common.glsl" "a shader that is a FIFO"
fresh && rm "$TMP/d/shaders/common.glsl" && mkdir "$TMP/d/shaders/common.glsl"
run "common.glsl" "a shader that is a folder"
check '! grep -q "9223372036854775807" "$TMP/err"' "a shader that is a folder: $(cat "$TMP/err")"
fresh && head -c 20000 "$src/assets/fonts/DejaVuSansMono.ttf" >"$TMP/d/assets/fonts/DejaVuSansMono.ttf"
run "DejaVuSansMono.ttf" "a font cut short"
fresh && : >"$TMP/d/assets/fonts/DejaVuSansMono.ttf"
run "DejaVuSansMono.ttf" "an empty font"
finish
