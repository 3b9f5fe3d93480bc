#!/usr/bin/env bash
# The standard streams (issue 25, item 1): with stderr or stdout closed (`2>&-`, `>&-`) the first file
# the program opens would take descriptor 2 or 1 and receive its log lines; outputs must hold only
# their data. A failed write to stdout (`>/dev/full`) must be an error, never exit 0.
# References: the same command's output with the streams open (byte for byte), the PNG signature,
# the CSV's header. Usage: bash test_streams.sh /path/to/fluid   (77: no GL 4.5)
FLUID=${1:?usage: test_streams.sh /path/to/fluid}
. "$(dirname "$0")/lib.sh"

# 100 pairs, repeatable
perl -e 'binmode STDOUT; print pack("V*", map { (($_ * 7919) % 1000, $_) } 0 .. 99)' >"$TMP/p.bin"
"$FLUID" sort --in "$TMP/p.bin" --out "$TMP/open.bin" 2>"$TMP/err" || { skip_without_gl "$TMP/err"; fail "sort failed: $(cat "$TMP/err")"; }
"$FLUID" sort --in "$TMP/p.bin" --out "$TMP/closed.bin" 2>&-
check '[ $? = 0 ]' "sort with stderr closed failed"
check 'cmp -s "$TMP/open.bin" "$TMP/closed.bin"' "sort --out with stderr closed: $(wc -c <"$TMP/closed.bin") bytes, not the $(wc -c <"$TMP/open.bin") of the same sort with it open"

"$FLUID" --headless --particles 1000 --frames 1 --stats "$TMP/s.csv" --screenshot "$TMP/p.png" --size 64x64 2>&- >/dev/null
check '[ $? = 0 ]' "the headless run with stderr closed failed"
check 'head -c 8 "$TMP/p.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a"' "--screenshot with stderr closed: not a PNG from its first byte"
check 'head -1 "$TMP/s.csv" | grep -q "^step,"' "--stats with stderr closed: the CSV begins '$(head -c 40 "$TMP/s.csv")'"

"$FLUID" bench --algos radix --sizes 1000 --bits 16 --reps 1 --warmup 0 --csv "$TMP/b.csv" >&- 2>/dev/null
check '[ $? = 0 ]' "bench with stdout closed failed"
check 'head -1 "$TMP/b.csv" | grep -q "^[a-z_]*,"' "bench --csv with stdout closed: the CSV begins '$(head -c 40 "$TMP/b.csv")'"
check '! grep -q "  " "$TMP/b.csv"' "bench --csv with stdout closed: the human table is in the CSV"

"$FLUID" --help >/dev/full 2>"$TMP/err"
rc=$?
check '[ $rc = 1 ]' "--help into a full device exited $rc, not 1"
check 'grep -q "standard output" "$TMP/err"' "--help into a full device: no message ($(cat "$TMP/err"))"
"$FLUID" sort --in "$TMP/p.bin" --out - >/dev/full 2>"$TMP/err"
rc=$?
check '[ $rc != 0 ]' "sort --out - into a full device exited 0"
finish
