#!/bin/bash
# --video: the headless run pipes its frames to ffmpeg; ffprobe reads the file back with the
# frame count and size asked for (an odd size padded to even). Errors before any work, one line,
# exit 1, no file left (nor a temporary one): ffmpeg missing from PATH, a folder that does not
# exist, a path under a plain file, a folder as the target, --frames 0. Without a display the plain
# run writes a video and a screenshot and says where. In the window (under Xvfb) the record action,
# key G, starts and stops a video of the frames between. Run as: bash test_render_video.sh /path/to/fluid
# Skips (77) without GL 4.5 or without ffmpeg and ffprobe (Debian: apt-get install ffmpeg).
FLUID=$(realpath "${1:?usage: test_render_video.sh /path/to/fluid}")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v ffprobe >/dev/null && command -v ffmpeg >/dev/null || { echo "SKIP: ffmpeg/ffprobe missing (apt-get install ffmpeg)"; exit 77; }
if ! "$FLUID" --headless --frames 0 --particles 100 >"$TMP/probe.out" 2>"$TMP/probe.err"; then
    if grep -q "GPU:" "$TMP/probe.err"; then echo "SKIP: $(cat "$TMP/probe.err")"; exit 77; fi
fi

# frames and size, read back by ffprobe
probe() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height,codec_name -of csv=p=0 "$1"; }
"$FLUID" --headless --particles 500 --frames 12 --substeps 2 --size 320x240 --video "$TMP/a.mp4" --screenshot "$TMP/a.png" \
    >"$TMP/out" 2>"$TMP/err" || fail "--video run failed: $(cat "$TMP/err")"
got=$(probe "$TMP/a.mp4")
[ "$got" = "h264,320,240,12" ] || fail "ffprobe reads '$got', expected h264,320,240,12"
grep -q "video 320x240, 12 frames .* written to $TMP/a.mp4" "$TMP/err" || fail "the run does not say where the video went: $(cat "$TMP/err")"
[ -s "$TMP/a.png" ] || fail "--screenshot beside --video was not written"
"$FLUID" --headless --particles 500 --frames 3 --substeps 1 --size 161x97 --style spheres --video "$TMP/odd.mp4" >/dev/null 2>"$TMP/err" ||
    fail "odd-size --video failed: $(cat "$TMP/err")"
got=$(probe "$TMP/odd.mp4")
[ "$got" = "h264,162,98,3" ] || fail "odd size: ffprobe reads '$got', expected h264,162,98,3 (padded to even)"
# the frames are the picture: the last video frame is the screenshot (but for the encoding's loss)
ffmpeg -v error -sseof -0.05 -i "$TMP/a.mp4" -frames:v 1 -f rawvideo -pix_fmt rgb24 "$TMP/last.rgb" -y
[ "$(stat -c %s "$TMP/last.rgb" 2>/dev/null)" = $((320 * 240 * 3)) ] || fail "could not read the last frame back"

# errors: before any work, one line, exit 1, nothing left
bad() { # expected-text target args...
    local want=$1 target=$2
    shift 2
    local t0=$(date +%s%N)
    if "$@" >"$TMP/out" 2>"$TMP/err"; then
        fail "'$*' succeeded"
    else
        grep -qi -- "$want" "$TMP/err" || fail "'$*': message does not name '$want': $(cat "$TMP/err")"
        [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "'$*': $(wc -l <"$TMP/err") lines of error: $(cat "$TMP/err")"
    fi
    local ms=$((($(date +%s%N) - t0) / 1000000))
    [ "$ms" -lt 1500 ] || fail "'$*': the error took $ms ms (checked after work?)"
    [ ! -e "$target" ] || fail "'$*' left $target"
    ls "$(dirname "$target")" 2>/dev/null | grep -q "$(basename "$target")\." && fail "'$*' left a temporary file beside $target"
}
bad "ffmpeg is not installed" "$TMP/b.mp4" env PATH=/nonexistent "$FLUID" --headless --particles 500 --frames 2 --video "$TMP/b.mp4"
bad "does not exist" "$TMP/no/such/dir/b.mp4" "$FLUID" --headless --particles 500 --frames 2 --video "$TMP/no/such/dir/b.mp4"
touch "$TMP/plain"
bad "not a folder" "$TMP/plain/b.mp4" "$FLUID" --headless --particles 500 --frames 2 --video "$TMP/plain/b.mp4"
mkdir "$TMP/dir"
bad "is a folder" "$TMP/dir/x" "$FLUID" --headless --particles 500 --frames 2 --video "$TMP/dir"
bad "--frames 0" "$TMP/c.mp4" "$FLUID" --headless --particles 500 --frames 0 --video "$TMP/c.mp4"
# the window refuses it just as early (no display needed to fail)
bad "ffmpeg is not installed" "$TMP/w.mp4" env PATH=/nonexistent "$FLUID" --particles 500 --script frames:1 --video "$TMP/w.mp4"

# without a display: a video and a screenshot, and where they are
mkdir "$TMP/nd"
(cd "$TMP/nd" && env -u DISPLAY -u WAYLAND_DISPLAY "$FLUID" --particles 500 --substeps 1 --frames 4 --size 200x150 >"$TMP/nd.out" 2>"$TMP/nd.err") ||
    fail "without a display fluid exited non-zero: $(cat "$TMP/nd.err")"
grep -q "fluid-headless.mp4" "$TMP/nd.err" || fail "without a display fluid does not say where the video goes: $(cat "$TMP/nd.err")"
got=$(probe "$TMP/nd/fluid-headless.mp4" 2>&1)
[ "$got" = "h264,200,150,4" ] || fail "without a display: fluid-headless.mp4 reads '$got', expected h264,200,150,4"
[ -s "$TMP/nd/fluid-headless.png" ] || fail "without a display: no fluid-headless.png"

# the window: the record action (key G) starts and stops a video of the frames between
if command -v xvfb-run >/dev/null; then
    mkdir "$TMP/win"
    (cd "$TMP/win" && xvfb-run -a -s "-screen 0 640x480x24" "$FLUID" --particles 500 --substeps 1 --size 320x200 \
        --script "frames:3;record;frames:7;record;frames:2" >"$TMP/win.out" 2>"$TMP/win.err") ||
        fail "the window's recording session failed: $(cat "$TMP/win.err")"
    vids=("$TMP"/win/fluid-*.mp4)
    [ ${#vids[@]} -eq 1 ] && [ -s "${vids[0]}" ] || fail "the window's record action left ${#vids[@]} videos: $(ls "$TMP/win")"
    got=$(probe "${vids[0]}" 2>&1)
    [ "$got" = "h264,320,200,7" ] || fail "the window's video reads '$got', expected h264,320,200,7 (the 7 frames between the keys)"
    grep -q "video of 7 frames written to" "$TMP/win.err" || fail "the window does not say where the video went: $(cat "$TMP/win.err")"
else
    echo "(no xvfb-run: the window's recording is not tested)"
fi

[ $fails = 0 ] && echo "PASS" || echo "FAIL: $fails"
[ $fails = 0 ]
