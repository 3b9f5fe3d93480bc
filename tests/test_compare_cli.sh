#!/usr/bin/env bash
# --compare on the command line: the headless run prints the table of sorts on the same keys (one
# row per distinct path, the skipped ones with their reason, no mismatch) after its own, and its
# --dump is byte-identical to the run without --compare; without --compare there is no table.
# bench --sim --compare prints the same table for its one run.
# Usage: bash test_compare_cli.sh /path/to/fluid   (exit 0 pass, 1 fail, 77 skip: no GL 4.5)
set -u
FLUID=${1:?usage: test_compare_cli.sh /path/to/fluid}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
"$FLUID" --headless --particles 1000 --frames 4 --dump "$TMP/off.csv" > "$TMP/off.txt" 2> "$TMP/off.err"
rc=$?
if [ $rc -ne 0 ] && grep -q "GL 4.5\|EGL" "$TMP/off.err"; then echo "SKIP: no GL 4.5"; exit 77; fi
[ $rc -eq 0 ] || fail "the run without --compare failed: $(tail -1 "$TMP/off.err")"
"$FLUID" --headless --particles 1000 --frames 4 --compare --dump "$TMP/on.csv" > "$TMP/on.txt" 2> "$TMP/on.err" ||
    fail "the run with --compare failed: $(tail -1 "$TMP/on.err")"
cmp -s "$TMP/off.csv" "$TMP/on.csv" || fail "--compare changed the dump"
grep -q "sorts on the same keys" "$TMP/off.txt" && fail "a compare table without --compare"
grep -q "^sorts on the same keys (.* clock; 4 frames checked" "$TMP/on.txt" || fail "no compare table: $(cat "$TMP/on.txt")"
grep -Eq "^  sort +median +p95 +x fastest +mismatches" "$TMP/on.txt" || fail "no table heading"
for s in radix counting bitonic; do
    grep -Eq "^  $s +[0-9.]+ .s +[0-9.]+ .s +[0-9.]+ +0 " "$TMP/on.txt" || fail "no clean row for $s"
done
grep -q "^  cpu        skipped: " "$TMP/on.txt" || fail "cpu not listed as skipped"
grep -q "warning" "$TMP/on.txt" && fail "a warning in a clean run"
"$FLUID" bench --sim --compare --particles 1000 --seconds 0.05 --solvers dfsph > "$TMP/bench.txt" 2> "$TMP/bench.err" ||
    fail "bench --sim --compare failed: $(tail -1 "$TMP/bench.err")"
[ "$(grep -c "sorts on the same keys" "$TMP/bench.txt")" = 1 ] || fail "bench: not one table: $(cat "$TMP/bench.txt")"
grep -Eq "^  bitonic +[0-9.]+ .s" "$TMP/bench.txt" || fail "bench: no bitonic row"
[ $failures -eq 0 ] && echo "PASS" || echo "FAIL: $failures"
[ $failures -eq 0 ]
