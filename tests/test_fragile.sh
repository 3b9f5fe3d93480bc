#!/bin/bash
# Issue 25's fragile cases that need no window: --script with no step is refused at parse time
# (';;;' never ended a session), and FLUID_DUMP_PROGRAMS with a folder path too long for the
# program's path buffer dumps nothing rather than a cut path that names a file outside the folder
# (on main 24a6dd8 the 512-byte buffer cut the path and wrote into the folder's parent), and an
# early signal keeps an old stats file rather than an empty one.
FLUID=${1:?usage: test_fragile.sh /path/to/fluid}
. "$(dirname "$0")/lib.sh"
for s in ';;;' ' ; '; do
    timeout 20 "$FLUID" --script "$s" > /dev/null 2> "$TMP/s.err"
    rc=$?
    check "[ $rc = 1 ] && [ \$(wc -l < '$TMP/s.err') = 1 ] && grep -q 'has no step' '$TMP/s.err'" \
        "--script '$s': exit $rc, not a one-line error: $(cat "$TMP/s.err")"
done
# A folder whose path is about 530 bytes, its last part long: a cut at 511 bytes falls inside it.
dir=$TMP/d
mkdir -p "$dir"
while [ ${#dir} -lt 400 ]; do dir=$dir/$(printf 'a%.0s' $(seq 1 60)); done
dir=$dir/$(printf 'b%.0s' $(seq 1 $((530 - ${#dir}))))
mkdir -p "$dir" || { echo "SKIP: cannot make a folder path of ${#dir} bytes"; exit 77; }
FLUID_DUMP_PROGRAMS=$dir "$FLUID" --headless --particles 100 --frames 1 > /dev/null 2> "$TMP/d.err"
rc=$?
skip_without_gl "$TMP/d.err"
check "[ $rc = 0 ]" "the run with FLUID_DUMP_PROGRAMS failed: $(tail -1 "$TMP/d.err")"
stray=$(find "$TMP/d" -type f | head -3)
check "[ -z '$stray' ]" "files written for a folder path too long: $stray"
check "grep -q 'FLUID_DUMP_PROGRAMS: the folder.s path is longer' '$TMP/d.err'" "no word that nothing was dumped"
# Two SIGTERMs at once, early (before the stats header is flushed, in some of the runs): an old
# stats file is kept, or replaced by one with its header, never by an empty file (on main an early
# second signal put an empty file in its place).
for i in 1 2 3 4 5 6 7 8 9; do
    echo old > "$TMP/old.csv"
    "$FLUID" --headless --particles 500 --frames 100 --stats "$TMP/old.csv" > /dev/null 2>&1 &
    pid=$!
    sleep 0.$((2 + i % 3))
    kill -TERM $pid 2> /dev/null
    kill -TERM $pid 2> /dev/null
    wait $pid
    check "[ -s '$TMP/old.csv' ]" "an early signal (run $i) left an empty stats file in place of the old one"
done
finish
