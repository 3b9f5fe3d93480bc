#!/usr/bin/env bash
# `fluid sort` end to end: files of little-endian uint32 (key, value) pairs sorted by each
# algorithm (radix, onesweep, counting, bitonic, cpu) must equal, byte for byte, the pairs sorted by perl (by key, then
# value; the values here are distinct and ascending, so that is also the stable order), and every
# error must exit non-zero with a one-line message naming the problem and write nothing: no new
# output file, and an existing one left exactly as it was.
# Usage: bash test_cli_sort.sh /path/to/fluid   (exit 0 pass, 1 fail, 77 skip: no GL 4.5)
set -u

FLUID=${1:?usage: test_cli_sort.sh /path/to/fluid}
TMP=$(mktemp -d)
trap 'chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# gen FILE N MODE: N pairs; values 0 .. N-1 in order; keys by MODE (seeded, repeatable).
gen() {
    perl -e '
        my ($n, $mode) = @ARGV; my $s = 12345;
        sub rnd { $s = ($s * 1103515245 + 12345) % 2147483648; return $s; }
        my @out;
        for my $i (0 .. $n - 1) {
            my $k = $mode eq "cells" ? rnd() % 32768
                  : $mode eq "wide" ? (rnd() * 2 + ($i & 1)) % 4294967296
                  : $mode eq "same" ? 7
                  : $mode eq "extremes" ? (0, 4294967295, 1, 4294967294)[rnd() % 4]
                  : $mode eq "reversed" ? $n - $i
                  : die "mode?";
            push @out, $k, $i;
        }
        binmode STDOUT; print pack("V*", @out);' "$2" "$3" >"$1"
}

# expect IN OUT: the pairs of IN sorted by (key, value), by perl.
expect() {
    perl -e '
        local $/; open my $f, "<:raw", $ARGV[0] or die; my @w = unpack("V*", <$f>);
        my @p = map { [$w[2 * $_], $w[2 * $_ + 1]] } 0 .. @w / 2 - 1;
        @p = sort { $a->[0] <=> $b->[0] || $a->[1] <=> $b->[1] } @p;
        binmode STDOUT; print pack("V*", map { @$_ } @p);' "$1" >"$2"
}

ALGOS="bitonic cpu radix onesweep counting"
# onesweep's look-back waits on other work groups; on llvmpipe a long wait is cut off by its
# 65,535-iteration loop limit, so it runs on one thread there (tests/test_sort_onesweep.c says
# more). Other drivers ignore the variable.
export LP_NUM_THREADS=1

# Skip (77) where no GL 4.5 context can be made; anything else is a real failure, found below.
gen "$TMP/probe.bin" 3 reversed
if ! "$FLUID" sort --algo cpu --in "$TMP/probe.bin" --out "$TMP/probe.out" 2>"$TMP/probe.err"; then
    if grep -q -E "EGL|OpenGL 4.5" "$TMP/probe.err"; then
        echo "SKIP: $(cat "$TMP/probe.err")"
        exit 77
    fi
fi

# --- sorting ---
sort_case() { # NAME N MODE [extra flags]
    local name=$1 n=$2 mode=$3
    shift 3
    gen "$TMP/$name.in" "$n" "$mode"
    expect "$TMP/$name.in" "$TMP/$name.expect"
    for algo in $ALGOS; do
        # counting takes keys of at most 22 bits: the 32-bit cases are its refusal cases below
        [ $algo = counting ] && { [ $mode = wide ] || [ $mode = extremes ]; } && continue
        checks=$((checks + 1))
        local out="$TMP/$name.$algo.out"
        if ! "$FLUID" sort --algo "$algo" "$@" --in "$TMP/$name.in" --out "$out" 2>"$TMP/err"; then
            fail "$name ($n pairs, $mode keys) --algo $algo exited non-zero: $(cat "$TMP/err")"
        elif ! cmp -s "$out" "$TMP/$name.expect"; then
            fail "$name ($n pairs, $mode keys) --algo $algo: output differs from the expected order ($(cmp "$out" "$TMP/$name.expect" 2>&1))"
        elif ! grep -q "$n pairs" "$TMP/err"; then
            fail "$name --algo $algo: no summary line naming $n pairs on stderr: $(cat "$TMP/err")"
        fi
    done
}
sort_case fluid 27648 cells
sort_case wide 5001 wide
sort_case extremes 4099 extremes
sort_case same 1000 same
sort_case reversed 9000 reversed --bits 14
sort_case one 1 reversed
sort_case exact_bits 300 reversed --bits 9
sort_case empty 0 same

checks=$((checks + 1))
if [ -e "$TMP/empty.cpu.out" ] && [ -s "$TMP/empty.cpu.out" ]; then fail "an empty input gave a non-empty output"; fi
if [ ! -e "$TMP/empty.bitonic.out" ]; then fail "an empty input gave no output file"; fi

checks=$((checks + 1))
"$FLUID" sort --help >"$TMP/help" 2>&1 || fail "fluid sort --help exited non-zero"
grep -q -- "--algo" "$TMP/help" || fail "fluid sort --help does not list --algo"

# --- errors ---
# err_case NAME PATTERN ARGS...: exits non-zero, one stderr line holding PATTERN, and no output
# file afterwards when none existed before, or the existing one untouched when one did
# (STALE_MODES=no: only the first, for a command that names no output).
OUT="$TMP/err.out"
err_case() {
    local name=$1 pattern=$2
    shift 2
    for stale in ${STALE_MODES:-no yes}; do
        checks=$((checks + 1))
        rm -f "$OUT" "$OUT.tmp"
        [ $stale = yes ] && printf 'stale' >"$OUT"
        "$FLUID" sort "$@" >"$TMP/stdout" 2>"$TMP/err"
        local rc=$?
        if [ $rc -eq 0 ]; then
            fail "$name (stale output: $stale): exited 0"
        fi
        if ! grep -q -i -F -e "$pattern" "$TMP/err"; then
            fail "$name (stale output: $stale): stderr does not mention '$pattern': $(cat "$TMP/err")"
        fi
        if [ "$(grep -c '' "$TMP/err")" -ne 1 ]; then
            fail "$name (stale output: $stale): expected one line on stderr, got: $(cat "$TMP/err")"
        fi
        if [ -e "$OUT.tmp" ]; then
            fail "$name (stale output: $stale): a temporary output file is left behind"
        elif [ $stale = no ] && [ -e "$OUT" ]; then
            fail "$name: an output file is left behind"
        elif [ $stale = yes ] && [ "$(cat "$OUT" 2>/dev/null)" != stale ]; then
            fail "$name: the existing output file was changed or removed"
        fi
    done
}

gen "$TMP/ok.in" 100 reversed
printf 'twelve bytes' >"$TMP/odd.in"
perl -e 'binmode STDOUT; print pack("V*", 1, 0, 15, 1, 16, 2, 99, 3)' >"$TMP/big_key.in"

err_case "unknown flag" "unknown option '--frobnicate'" --algo bitonic --frobnicate --in "$TMP/ok.in" --out "$OUT"
err_case "missing value" "--in needs a value" --algo bitonic --out "$OUT" --in
err_case "flag as value" "--in needs a value" --algo bitonic --in --out "$OUT"
err_case "stray argument" "unexpected argument" --algo bitonic "$TMP/ok.in" --in "$TMP/ok.in" --out "$OUT"
err_case "unknown algorithm" "unknown sort algorithm 'quick'" --algo quick --in "$TMP/ok.in" --out "$OUT"
err_case "bits 0" "--bits '0' is not a number from 1 to 32" --algo bitonic --bits 0 --in "$TMP/ok.in" --out "$OUT"
err_case "bits 33" "--bits '33'" --algo cpu --bits 33 --in "$TMP/ok.in" --out "$OUT"
err_case "bits text" "--bits 'ten'" --algo bitonic --bits ten --in "$TMP/ok.in" --out "$OUT"
err_case "bits negative" "--bits '-3'" --algo bitonic --bits -3 --in "$TMP/ok.in" --out "$OUT"
err_case "no input" "no input file" --algo bitonic --out "$OUT"
STALE_MODES=no err_case "no output" "no output file" --algo bitonic --in "$TMP/ok.in"
err_case "odd size" "12 bytes, not a whole number of 8-byte" --algo bitonic --in "$TMP/odd.in" --out "$OUT"
err_case "key too big" "pair 2 has key 16 (0x10), which does not fit in --bits 4" --algo bitonic --bits 4 \
    --in "$TMP/big_key.in" --out "$OUT"
err_case "missing input" "cannot open $TMP/nope.in" --algo bitonic --in "$TMP/nope.in" --out "$OUT"
err_case "input is a folder" "--in $TMP is a folder" --algo bitonic --in "$TMP" --out "$OUT"
err_case "bad data dir" "--data $TMP/nodata" --algo bitonic --data "$TMP/nodata" --in "$TMP/ok.in" --out "$OUT"
gen "$TMP/wide.in" 300 wide
err_case "counting, keys too wide" "--algo counting sorts keys of at most 22 bits, and these need 32" --algo counting \
    --in "$TMP/wide.in" --out "$OUT"
err_case "counting, --bits too wide" "at most 22 bits, and these need 23" --algo counting --bits 23 \
    --in "$TMP/ok.in" --out "$OUT"
for algo in $ALGOS; do
    err_case "key too big ($algo)" "does not fit in --bits 6" --algo "$algo" --bits 6 --in "$TMP/big_key.in" --out "$OUT"
done

cp "$TMP/ok.in" "$TMP/locked.in"
chmod 000 "$TMP/locked.in"
if [ -r "$TMP/locked.in" ]; then
    echo "note: running as root, the unreadable-input and unwritable-folder cases are left out"
else
    err_case "unreadable input" "cannot open $TMP/locked.in" --algo bitonic --in "$TMP/locked.in" --out "$OUT"
    mkdir "$TMP/ro"
    chmod 555 "$TMP/ro"
    for stale in no yes; do
        checks=$((checks + 1))
        "$FLUID" sort --algo bitonic --in "$TMP/ok.in" --out "$TMP/ro/x.out" 2>"$TMP/err" &&
            fail "an output in a read-only folder: exited 0"
        grep -q "not writable" "$TMP/err" || fail "read-only folder: stderr does not say so: $(cat "$TMP/err")"
        [ -e "$TMP/ro/x.out" ] && fail "read-only folder: an output file appeared"
    done
fi

# Output paths that cannot be written (no stale file can exist there either).
for bad in "$TMP/no_such_dir/x.out" "$TMP/" "$TMP/adir"; do
    mkdir -p "$TMP/adir"
    checks=$((checks + 1))
    if "$FLUID" sort --algo bitonic --in "$TMP/ok.in" --out "$bad" 2>"$TMP/err"; then
        fail "--out $bad: exited 0"
    fi
    grep -q -i -E "does not exist|not a file name|directory" "$TMP/err" ||
        fail "--out $bad: stderr does not name the problem: $(cat "$TMP/err")"
    [ -e "$TMP/no_such_dir" ] && fail "--out $bad: a folder was created"
    [ -e "$TMP/adir.tmp" ] || [ -e "$TMP/.tmp" ] && fail "--out $bad: a temporary file is left behind"
done
[ -d "$TMP/adir" ] || fail "--out naming a folder removed the folder"

# A failure never removes the input, even when --out names the input file.
cp "$TMP/ok.in" "$TMP/self.in"
checks=$((checks + 1))
"$FLUID" sort --algo quick --in "$TMP/self.in" --out "$TMP/self.in" 2>/dev/null && fail "--algo quick exited 0"
cmp -s "$TMP/self.in" "$TMP/ok.in" || fail "a failed sort with --out = --in removed or changed the input"
# ... and a successful one sorts it in place.
checks=$((checks + 1))
expect "$TMP/ok.in" "$TMP/ok.expect"
"$FLUID" sort --algo bitonic --in "$TMP/self.in" --out "$TMP/self.in" 2>/dev/null || fail "sorting a file in place failed"
cmp -s "$TMP/self.in" "$TMP/ok.expect" || fail "sorting a file in place gave the wrong result"

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ] || exit 1
exit 0
