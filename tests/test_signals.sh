#!/bin/bash
# Every way out of a headless --video run by a signal (issue 25, items 3, 4 and the fragile
# signals): SIGINT, SIGTERM, SIGHUP and SIGQUIT, once or twice, early, and to the whole process
# group; each exits 130, leaves no temporary (.v.mp4.XXXXXX, .s.csv.XXXXXX) and keeps the stats
# rows so far. On main 24a6dd8 a second signal or an early SIGHUP left .v.mp4.* behind (ffmpeg not
# stopped before the unlink), two SIGTERMs exited 143 and SIGQUIT left every temporary; the races
# are run twice each (three times cost 11 s more of the suite on 2 cores).
FLUID=${1:?usage: test_signals.sh /path/to/fluid}
. "$(dirname "$0")/lib.sh"
command -v ffmpeg > /dev/null || { echo "SKIP: ffmpeg is missing"; exit 77; }
# case NAME SIGNAL TWICE GROUP: a run signalled once its first frames are done
case_run() {
    local name=$1 sig=$2 twice=$3 group=$4 d="$TMP/$1" pid rc
    mkdir -p "$d"
    setsid bash -c 'exec "$@"' _ "$FLUID" --headless --particles 500 --frames 400 --size 160x120 \
        --video "$d/v.mp4" --stats "$d/s.csv" > /dev/null 2> "$d/err" &
    pid=$!
    for _ in $(seq 1 300); do [ -s "$d/err" ] && grep -q "CLI:" "$d/err" && break; sleep 0.1; done
    sleep 0.5
    if [ "$group" = 1 ]; then kill -"$sig" -- -"$pid"; else kill -"$sig" "$pid"; fi
    [ "$twice" = 1 ] && kill -"$sig" "$pid" 2> /dev/null
    wait "$pid"
    rc=$?
    check "[ $rc = 130 ]" "$name: exit $rc, not 130: $(tail -1 "$d/err")"
    local left
    left=$(ls -A "$d" | grep -v '^err$\|^s.csv$')
    check "[ -z '$left' ]" "$name: left behind: $left"
    check "[ -s '$d/s.csv' ] && head -1 '$d/s.csv' | grep -q '^step,'" "$name: the stats rows so far are not kept"
}
for i in 1 2; do
    for sig in INT TERM HUP QUIT; do
        case_run "$sig-once-$i" "$sig" 0 0
        case_run "$sig-twice-$i" "$sig" 1 0
    done
    case_run "INT-group-$i" INT 0 1
done
finish
