#!/usr/bin/env bash
# The one H100 runner: runs a plan's steps from the packed folder (tools/pack-h100.sh), each with
# its own time limit, and brings the results back as one archive.
#
# Usage, on the H100 machine:  bash tools/h100.sh PLAN PACK_DIR OUT_DIR
#   PLAN     a name in tools/plans/ (all, sort, sim, cells, fused, sort-tune) or a file's path
#   OUT_DIR  gets PLAN.tgz (every step's output), and beside it steps.txt, summary.txt and any
#            pictures (the device tool brings back few files)
#
# A plan is a text file, a step a line:   NAME SECONDS COMMAND...
#   COMMAND runs under bash in PACK_DIR, killed after SECONDS; its output goes to $OUT/NAME.txt.
#   It sees $OUT (where to write files), $FLUID (the binary) and the caller's environment.
#   `tests SECONDS` runs every test program and shell test of the pack, each a step of its own
#   (test-NAME) with that limit, on the default GPU path (no FLUID_* set), but the ones that need
#   a display (xvfb), a compiler (sanitize) or the sources (includes), and the open issues' targets;
#   JOBS=N in the caller's environment runs N of them at once (JOBS=3: the whole suite in ~5 minutes).
#   `#` starts a comment; blank lines are skipped.
# steps.txt gets a line per step: its name, exit status and milliseconds; summary.txt the GPU,
# steps.txt and every step's output, in plan order.
set -u
usage="usage: h100.sh PLAN PACK_DIR OUT_DIR (PLAN: $(cd "$(dirname "$0")/plans" && ls *.plan | sed 's/\.plan$//' | paste -sd' '))"
plan=${1:?$usage}
[ -f "$plan" ] || plan=$(dirname "$0")/plans/$plan.plan
[ -f "$plan" ] || { echo "h100.sh: no plan '$1'; $usage" >&2; exit 2; }
plan=$(cd "$(dirname "$plan")" && pwd)/$(basename "$plan")
name=$(basename "$plan" .plan)
pack=$(cd "${2:?$usage}" && pwd) || exit 2
final=$(mkdir -p "${3:?$usage}" && cd "$3" && pwd) || exit 2
export OUT=$final/$name FLUID=$pack/fluid
mkdir -p "$OUT"
cd "$pack"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The H200 image keeps NVIDIA's driver under /usr/local/nvidia, where glvnd's loader does not look.
nv=/usr/local/nvidia
if [ -f $nv/share/glvnd/egl_vendor.d/10_nvidia.json ] && ! ls /usr/share/glvnd/egl_vendor.d/*nvidia* /etc/glvnd/egl_vendor.d/*nvidia* >/dev/null 2>&1; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=$nv/share/glvnd/egl_vendor.d/10_nvidia.json
fi
[ -d $nv/lib64 ] && export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$nv/lib64
: >"$OUT/steps.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/gpu.txt" 2>&1 || true

step() { # NAME SECONDS CMD...
    local sname=$1 secs=$2 t0 rc
    shift 2
    t0=$(date +%s%N)
    timeout "$secs" "$@" >"$OUT/$sname.txt" 2>&1 </dev/null
    rc=$?
    printf '%-32s rc %3d  %7d ms\n' "$sname" "$rc" $((($(date +%s%N) - t0) / 1000000)) | tee -a "$OUT/steps.txt"
}

test_one() { # TEST SECONDS
    local t=$1 tname
    tname=$(basename "$t")
    case "$tname" in
    *xvfb* | *sanitize* | *includes* | *rest_iterations*) return ;; # rest_iterations: an open issue's target (ctest label open)
    *.sh) step "test-$tname" "$2" bash "$t" "$FLUID" ;;
    *) step "test-$tname" "$2" "$t" ;;
    esac
}
export -f step test_one

while read -r sname secs cmd <&3; do
    case "$sname" in '' | '#'*) continue ;; esac
    case "$secs" in '' | *[!0-9]*) echo "h100.sh: $plan: step '$sname' has no time limit in seconds" >&2; exit 2 ;; esac
    if [ "$sname" = tests ]; then
        # JOBS=N runs N tests at once (the whole suite in one call; CI runs them two at a time).
        printf '%s\n' tests/test_* | xargs -P "${JOBS:-1}" -I{} bash -c 'test_one "$@"' _ {} "$secs"
    else
        step "$sname" "$secs" bash -c "$cmd"
    fi
done 3<"$plan"

{
    cat "$OUT/gpu.txt" "$OUT/steps.txt"
    for f in "$OUT"/*.txt; do
        case "$f" in */steps.txt | */gpu.txt | */summary.txt) continue ;; esac
        echo "== $(basename "$f" .txt)"
        tail -n 60 "$f"
    done
} >"$OUT/summary.txt"
cp "$OUT/steps.txt" "$OUT/summary.txt" "$final/"
cp "$OUT"/*.png "$final/" 2>/dev/null
tar czf "$final/$name.tgz" -C "$final" "$name" && rm -rf "$OUT"
cat "$final/steps.txt"
