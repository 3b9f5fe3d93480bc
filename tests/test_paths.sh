#!/bin/bash
# Fixed path buffers are bounds-checked, never cut short silently (issue 25, "every fixed path
# buffer is bounds-checked"). Each case is a path that, cut at PATH_MAX (4096), names another file:
#   - a PATH entry of 4,091 bytes: "ENTRY/ffmpeg" cut is "ENTRY/ffm"; a program there must not run
#     as ffmpeg (on main 2d0a307 it ran, and the --video run failed);
#   - a --data folder of 4,070 bytes: refused at once in one line (on 2d0a307 it was accepted and a
#     shader's path was cut later: "cannot open ...nonpressure.c");
#   - a shader's #include of a 131-byte name: refused (2d0a307 included the file its first 127 bytes name);
#   - --script shot:PATH of 4,200 bytes: refused when the script is parsed (2d0a307 kept 4,095 of them).
# Independent model: what ran (a marker file), the exit status and the one error line.
FLUID=${1:?usage: test_paths.sh /path/to/fluid}
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
# long_dir LENGTH: a folder under $TMP whose absolute path is LENGTH bytes, made of 200-byte names
long_dir() {
    local d=$TMP
    while [ $((${#d} + 201)) -le "$1" ]; do d="$d/$(printf 'd%.0s' $(seq 200))"; done
    d="$d/$(printf 'e%.0s' $(seq $(($1 - ${#d} - 1))))"
    mkdir -p "$d" && echo "$d"
}

if command -v ffmpeg > /dev/null; then
    entry=$(long_dir 4091)
    printf '#!/bin/sh\necho ran > "%s/marker"\nexit 1\n' "$TMP" > "$entry/ffm"
    chmod +x "$entry/ffm"
    PATH="$entry:$PATH" "$FLUID" --headless --particles 300 --substeps 4 --frames 1 --size 64x64 --video "$TMP/v.mp4" \
        > /dev/null 2> "$TMP/err"
    rc=$?
    skip_without_gl "$TMP/err"
    check "[ ! -e '$TMP/marker' ]" "ENTRY/ffm ran as ffmpeg (a PATH entry cut short)"
    check "[ $rc = 0 ] && [ -s '$TMP/v.mp4' ]" "--video with a 4,091-byte PATH entry first: exit $rc: $(tail -1 "$TMP/err")"
fi

data=$(long_dir 4070)
ln -s "$src/shaders" "$data/shaders" && ln -s "$src/assets" "$data/assets"
"$FLUID" --headless --particles 300 --substeps 4 --frames 1 --data "$data" > /dev/null 2> "$TMP/err"
rc=$?
skip_without_gl "$TMP/err"
check "[ $rc = 1 ] && [ \$(wc -l < '$TMP/err') = 1 ] && grep -q -- \"--data: the folder's path is 4070 bytes\" '$TMP/err'" \
    "--data of 4,070 bytes: exit $rc: $(head -c 300 "$TMP/err")"

# an #include of a 131-byte name whose first 127 bytes name a file (empty): refused, not included
mkdir "$TMP/data" && cp -r "$src/shaders" "$TMP/data/shaders" && ln -s "$src/assets" "$TMP/data/assets"
inc=$(printf 'i%.0s' $(seq 127))
: > "$TMP/data/shaders/$inc"
printf '#include "%s"\n' "${inc}long" >> "$TMP/data/shaders/common.glsl"
"$FLUID" --headless --particles 300 --substeps 4 --frames 1 --data "$TMP/data" > /dev/null 2> "$TMP/err"
rc=$?
check "[ $rc = 1 ] && grep -q 'include names a file of more than 127 bytes' '$TMP/err'" \
    "an #include of a 131-byte name: exit $rc: $(tail -1 "$TMP/err" | head -c 300)"

long=$(printf 'x%.0s' $(seq 4200))
"$FLUID" --script "frames:1;shot:$TMP/$long.png" > /dev/null 2> "$TMP/err"
rc=$?
check "[ $rc = 1 ] && [ \$(wc -l < '$TMP/err') = 1 ] && grep -q 'script: shot: the value is' '$TMP/err'" \
    "--script shot: with a 4,200-byte path: exit $rc: $(head -c 300 "$TMP/err")"
finish
