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
# onesweep runs with llvmpipe's default threads: its look-back falls back instead of waiting
# there (tests/test_sort_onesweep.c says more).

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

# --- outputs that are not plain new files (core/outfile.h) ---
gen "$TMP/w.in" 500 cells
expect "$TMP/w.in" "$TMP/w.expect"
# "-" and /dev/stdout: the pairs on stdout; nothing else there.
checks=$((checks + 1))
"$FLUID" sort --in "$TMP/w.in" --out - >"$TMP/w.stdout" 2>"$TMP/err" || fail "--out - exited non-zero: $(cat "$TMP/err")"
cmp -s "$TMP/w.stdout" "$TMP/w.expect" || fail "--out - did not write the sorted pairs to stdout"
# (A private link as /dev/stdout is one, so a broken writer replaces the link, not /dev/stdout.)
checks=$((checks + 1))
ln -s /proc/self/fd/1 "$TMP/stdout"
"$FLUID" sort --in "$TMP/w.in" --out "$TMP/stdout" >"$TMP/w.devstdout" 2>"$TMP/err" || fail "--out /dev/stdout exited non-zero: $(cat "$TMP/err")"
cmp -s "$TMP/w.devstdout" "$TMP/w.expect" || fail "--out /dev/stdout (redirected to a file) did not get the sorted pairs"
[ -L "$TMP/stdout" ] || fail "--out /dev/stdout: the link was replaced"
rm -f "$TMP/stdout"
# --in -: the pairs from stdin.
checks=$((checks + 1))
"$FLUID" sort --in - --out "$TMP/w.fromstdin" <"$TMP/w.in" 2>"$TMP/err" || fail "--in - exited non-zero: $(cat "$TMP/err")"
cmp -s "$TMP/w.fromstdin" "$TMP/w.expect" || fail "--in - did not sort stdin"
# A FIFO is written into, never replaced.
checks=$((checks + 1))
mkfifo "$TMP/fifo"
timeout 20 cat "$TMP/fifo" >"$TMP/fifo.got" &
reader=$!
timeout 20 "$FLUID" sort --in "$TMP/w.in" --out "$TMP/fifo" 2>"$TMP/err" || fail "--out FIFO exited non-zero: $(cat "$TMP/err")"
wait $reader
[ -p "$TMP/fifo" ] || fail "--out FIFO: the FIFO was replaced by $(stat -c %F "$TMP/fifo")"
cmp -s "$TMP/fifo.got" "$TMP/w.expect" || fail "--out FIFO: the reader did not get the sorted pairs"
# A device node (a private /dev/null made with mknod, as root) stays a device node.
checks=$((checks + 1))
if mknod "$TMP/null" c 1 3 2>/dev/null; then
    "$FLUID" sort --in "$TMP/w.in" --out "$TMP/null" 2>"$TMP/err" || fail "--out DEVICE exited non-zero: $(cat "$TMP/err")"
    [ -c "$TMP/null" ] || fail "--out DEVICE: the device node was replaced by $(stat -c %F "$TMP/null")"
    rm -f "$TMP/null"
    # A write that fails (a private /dev/full): exit 1 naming it, the device kept.
    mknod "$TMP/full" c 1 7
    "$FLUID" sort --in "$TMP/w.in" --out "$TMP/full" 2>"$TMP/err" && fail "--out FULL DEVICE: exited 0"
    grep -q "No space left" "$TMP/err" || fail "--out FULL DEVICE: the write error is not named: $(cat "$TMP/err")"
    [ -c "$TMP/full" ] || fail "--out FULL DEVICE: the device node was replaced"
    rm -f "$TMP/full"
else
    echo "note: not root (mknod failed): the device-node case is left out"
fi
# A planted symlink at the old predictable temporary name is neither followed nor removed; a
# user's own X.tmp is kept.
checks=$((checks + 1))
printf 'victim' >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/p.out.tmp"
"$FLUID" sort --in "$TMP/w.in" --out "$TMP/p.out" 2>"$TMP/err" || fail "planted .tmp link: exited non-zero: $(cat "$TMP/err")"
[ "$(cat "$TMP/victim")" = victim ] || fail "planted .tmp link: its target was overwritten"
[ -L "$TMP/p.out.tmp" ] || fail "planted .tmp link: the link was removed"
cmp -s "$TMP/p.out" "$TMP/w.expect" || fail "planted .tmp link: the output is wrong"
rm -f "$TMP/p.out.tmp" "$TMP/p.out"
# A symlinked output is written through: the target is replaced, the link stays a link.
checks=$((checks + 1))
printf 'old' >"$TMP/target.bin"
ln -s "$TMP/target.bin" "$TMP/link.out"
"$FLUID" sort --in "$TMP/w.in" --out "$TMP/link.out" 2>"$TMP/err" || fail "symlinked --out: exited non-zero: $(cat "$TMP/err")"
[ -L "$TMP/link.out" ] || fail "symlinked --out: the link was replaced by a file"
cmp -s "$TMP/target.bin" "$TMP/w.expect" || fail "symlinked --out: the link's target does not hold the sorted pairs"
ln -s "$TMP/missing.bin" "$TMP/dangling.out"
"$FLUID" sort --in "$TMP/w.in" --out "$TMP/dangling.out" 2>"$TMP/err" && fail "a dangling symlinked --out: exited 0"
grep -q "symbolic link to a missing file" "$TMP/err" || fail "dangling symlink: not said: $(cat "$TMP/err")"
[ -e "$TMP/missing.bin" ] && fail "dangling symlink: its target was created"
rm -f "$TMP/link.out" "$TMP/target.bin" "$TMP/dangling.out"
# An existing output keeps its mode.
checks=$((checks + 1))
printf 'old' >"$TMP/m.out"
chmod 600 "$TMP/m.out"
"$FLUID" sort --in "$TMP/w.in" --out "$TMP/m.out" 2>"$TMP/err" || fail "mode 600 --out: exited non-zero: $(cat "$TMP/err")"
[ "$(stat -c %a "$TMP/m.out")" = 600 ] || fail "a mode-600 output came back $(stat -c %a "$TMP/m.out")"
rm -f "$TMP/m.out"
# Sizes are checked by stat before anything is read: a sparse file of one pair more than this
# GPU's storage buffers hold (tests/gpu_caps; at most 2^30 + 1 pairs, past the sorter's own cap:
# llvmpipe's 128 MiB make it 256 MiB) and a 40 GiB one (more than 2^32 pairs) are refused at once.
checks=$((checks + 1))
CAPS=${FLUID_GPU_CAPS:-$(dirname "$FLUID")/tests/gpu_caps}
max_ssbo=$("$CAPS" | sed -n 's/^max_ssbo_bytes=//p')
[ -n "$max_ssbo" ] || fail "$CAPS did not report max_ssbo_bytes (build the gpu_caps target)"
big=$((${max_ssbo:-0} / 4 + 1))
[ $big -le $(((1 << 30) + 1)) ] || big=$(((1 << 30) + 1))
truncate -s $((8 * big)) "$TMP/big3.in"
start=$(date +%s%N)
timeout 10 "$FLUID" sort --algo cpu --in "$TMP/big3.in" --out "$TMP/big.out" 2>"$TMP/err" && fail "$big pairs: exited 0 (this GPU holds them?)"
ms=$((($(date +%s%N) - start) / 1000000))
[ $ms -lt 3000 ] || fail "$big pairs took $ms ms to be refused (read before the size check?)"
grep -q "storage-buffer limit" "$TMP/err" || fail "$big pairs: the GPU's limit is not named: $(cat "$TMP/err")"
truncate -s 40G "$TMP/big40.in"
start=$(date +%s%N)
timeout 10 "$FLUID" sort --in "$TMP/big40.in" --out "$TMP/big.out" 2>"$TMP/err" && fail "a 40 GiB input: exited 0"
ms=$((($(date +%s%N) - start) / 1000000))
[ $ms -lt 1000 ] || fail "a 40 GiB input took $ms ms to be refused"
grep -q "more than 4,294,967,295" "$TMP/err" || fail "a 40 GiB input: the pair limit is not named: $(cat "$TMP/err")"
[ -e "$TMP/big.out" ] && fail "a refused input left an output"
rm -f "$TMP/big3.in" "$TMP/big40.in"

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
        rm -f "$OUT"
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
        if ls -A "$TMP" | grep -q '^\.err\.out'; then
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
err_case "trailing slash" "ends with '/'" --algo bitonic --in "$TMP/ok.in" --out "$TMP/nodir/"
err_case "bits overflow" "--bits 18014398509481985k" --algo bitonic --bits 18014398509481985k --in "$TMP/ok.in" --out "$OUT"
err_case "stray argument" "unexpected argument" --algo bitonic "$TMP/ok.in" --in "$TMP/ok.in" --out "$OUT"
err_case "unknown algorithm" "unknown sort algorithm 'quick'" --algo quick --in "$TMP/ok.in" --out "$OUT"
err_case "bits 0" "--bits 0: not a whole number from 1 to 32" --algo bitonic --bits 0 --in "$TMP/ok.in" --out "$OUT"
err_case "bits 33" "--bits 33:" --algo cpu --bits 33 --in "$TMP/ok.in" --out "$OUT"
err_case "bits text" "--bits ten:" --algo bitonic --bits ten --in "$TMP/ok.in" --out "$OUT"
err_case "bits negative" "--bits -3:" --algo bitonic --bits -3 --in "$TMP/ok.in" --out "$OUT"
err_case "no input" "no input file" --algo bitonic --out "$OUT"
STALE_MODES=no err_case "no output" "no output file" --algo bitonic --in "$TMP/ok.in"
# The input's checks are the command's own (cmd_sort.c), the same for every algorithm: cpu shows
# them without building GPU programs in each process (bad data dir keeps bitonic: it needs shaders).
err_case "odd size" "12 bytes, not a whole number of 8-byte" --algo cpu --in "$TMP/odd.in" --out "$OUT"
err_case "key too big" "pair 2 has key 16 (0x10), which does not fit in --bits 4" --algo cpu --bits 4 \
    --in "$TMP/big_key.in" --out "$OUT"
err_case "missing input" "cannot open $TMP/nope.in" --algo cpu --in "$TMP/nope.in" --out "$OUT"
err_case "input is a folder" "--in $TMP is a folder" --algo cpu --in "$TMP" --out "$OUT"
err_case "bad data dir" "--data $TMP/nodata" --algo bitonic --data "$TMP/nodata" --in "$TMP/ok.in" --out "$OUT"
gen "$TMP/wide.in" 300 wide
err_case "counting, keys too wide" "--algo counting sorts keys of at most 22 bits, and these need 32" --algo counting \
    --in "$TMP/wide.in" --out "$OUT"
err_case "counting, --bits too wide" "at most 22 bits, and these need 23" --algo counting --bits 23 \
    --in "$TMP/ok.in" --out "$OUT"
# The key check is the command's own, before any algorithm runs (cmd_sort.c): one algorithm shows it
# (each algorithm's --bits handling is checked by the sorting cases above and the C sort tests).
err_case "key too big" "does not fit in --bits 6" --algo cpu --bits 6 --in "$TMP/big_key.in" --out "$OUT"

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
    grep -q -i -E "does not exist|names a folder|is a folder" "$TMP/err" ||
        fail "--out $bad: stderr does not name the problem: $(cat "$TMP/err")"
    [ -e "$TMP/no_such_dir" ] && fail "--out $bad: a folder was created"
    ls -A "$TMP" | grep -q '^\.' && fail "--out $bad: a temporary file is left behind: $(ls -A "$TMP" | grep '^\.')"
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

checks=$((checks + 1))
if ls -A "$TMP" | grep -q '^\.'; then fail "temporary files left behind: $(ls -A "$TMP" | grep '^\.')"; fi

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ] || exit 1
exit 0
