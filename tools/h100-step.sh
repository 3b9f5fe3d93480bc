# What the H100 run scripts share (sourced by h100-sim.sh, h100-sim-fast.sh, h100-sort.sh, h100-cells.sh and h100-fused.sh; $out is the caller's
# output folder).
step() { # NAME SECONDS CMD...: runs CMD, output to OUT/NAME.txt, and its status and time
    local name=$1 secs=$2
    shift 2
    local t0=$(date +%s%N)
    timeout "$secs" "$@" >"$out/$name.txt" 2>&1
    local rc=$?
    local ms=$((($(date +%s%N) - t0) / 1000000))
    printf '%-28s rc=%-3s %6d ms\n' "$name" "$rc" "$ms" | tee -a "$out/steps.txt"
}
