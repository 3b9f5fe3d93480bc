#!/bin/bash
# An interrupt exits 130 whichever signal and whichever moment (README "Exit status"; issue 25,
# fragile "Exit codes"), through the one cleanup path, nothing left behind:
#   - a headless run waiting for a --dump FIFO's reader (open blocks), signalled: 130 and "interrupted",
#     the --stats temporary removed, no s.csv (on main 2d0a307: exit 1, "Interrupted system call");
#   - `fluid sort` waiting for an --out FIFO's reader, and waiting on stdin (before any output is
#     open), given SIGINT, SIGTERM, SIGHUP or SIGQUIT: 130 (on main 2d0a307: 128 + the signal).
# Independent model: the exit status and the folder's listing. The signal is sent once the process
# is seen blocked there (its wchan), or after 10 s.
FLUID=${1:?usage: test_interrupts.sh /path/to/fluid}
. "$(dirname "$0")/lib.sh"
# A background job of a script starts with SIGINT and SIGQUIT ignored: reset them, as a terminal has them.
dfl=(perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec @ARGV or die "exec: $!"') # "${dfl[@]}" CMD &: $! is CMD
# blocked PID PATTERN: waits until PID's wchan matches PATTERN (10 s at most)
blocked() { for _ in $(seq 100); do grep -Eq "$2" "/proc/$1/wchan" 2> /dev/null && return; sleep 0.1; done; }
leftovers() { ls -A "$TMP/d" | grep -v '^fifo$\|^p.bin$\|^err$' | tr '\n' ' '; }
mkdir "$TMP/d" && mkfifo "$TMP/d/fifo"
perl -e 'binmode STDOUT; print pack("V*", map { (($_ * 7919) % 1000, $_) } 0 .. 99)' > "$TMP/d/p.bin"

for sig in INT TERM; do
    "${dfl[@]}" "$FLUID" --headless --particles 300 --substeps 4 --frames 1 --stats "$TMP/d/s.csv" --dump "$TMP/d/fifo" \
        > /dev/null 2> "$TMP/d/err" &
    pid=$!
    blocked $pid 'wait_for_partner|fifo_open'
    kill -$sig $pid
    wait $pid
    rc=$?
    skip_without_gl "$TMP/d/err"
    check "[ $rc = 130 ]" "headless run waiting for a FIFO's reader, SIG$sig: exit $rc, not 130: $(tail -1 "$TMP/d/err")"
    check "grep -q interrupted '$TMP/d/err' && ! grep -q 'Interrupted system call' '$TMP/d/err'" \
        "headless run waiting for a FIFO's reader, SIG$sig: $(tail -1 "$TMP/d/err")"
    check "[ -z '$(leftovers)' ]" "headless run waiting for a FIFO's reader, SIG$sig: left $(leftovers)"
done

# signalled WHAT SIG PATTERN CMD...: CMD in the background (this function's stdin), SIG once it is
# blocked in PATTERN; exit 130 and nothing left behind.
signalled() {
    local what=$1 sig=$2 pattern=$3 pid rc
    shift 3
    "${dfl[@]}" "$@" <&0 > /dev/null 2> "$TMP/d/err" & # <&0: a background job would read /dev/null
    pid=$!
    blocked $pid "$pattern"
    kill -$sig $pid
    wait $pid
    rc=$?
    check "[ $rc = 130 ]" "$what, SIG$sig: exit $rc, not 130"
    check "[ -z '$(leftovers)' ]" "$what, SIG$sig: left $(leftovers)"
}

for sig in INT TERM HUP QUIT; do
    signalled "fluid sort waiting for an --out FIFO's reader" $sig 'wait_for_partner|fifo_open' \
        "$FLUID" sort --in "$TMP/d/p.bin" --out "$TMP/d/fifo"
done

# stdin held open by this shell (fd 3 on a FIFO opened read-write), so fluid sort waits reading it
mkfifo "$TMP/in"
exec 3<> "$TMP/in"
for sig in TERM HUP; do
    signalled "fluid sort reading stdin" $sig 'pipe_read|pipe_wait' "$FLUID" sort --in - --out "$TMP/d/o.bin" < "$TMP/in"
done
exec 3<&-
finish
