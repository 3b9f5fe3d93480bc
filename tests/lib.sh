# tests/lib.sh: what the shell tests share. Source it after setting FLUID:
#   FLUID=${1:?usage: test_x.sh /path/to/fluid}; . "$(dirname "$0")/lib.sh"
# Gives: $TMP (a fresh folder, removed on exit), fail MSG (counts a failure), check COND MSG,
# skip_without_gl OUTPUT_FILE (exit 77 when the run's stderr says there is no GL 4.5 GPU), and
# finish (PASS or the count of failures, and the exit status).
TMP=$(mktemp -d)
trap 'chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
failures=0
checks=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
# check "test-expression" "what was expected": one counted check.
check() {
    checks=$((checks + 1))
    eval "$1" || fail "$2"
}
skip_without_gl() {
    if grep -q "GPU:" "$1" 2>/dev/null; then
        echo "SKIP: $(head -1 "$1")"
        exit 77
    fi
}
finish() {
    if [ "$checks" = 0 ]; then fail "no check ran"; fi
    [ "$failures" = 0 ] && echo "PASS ($checks checks)" || echo "$failures of $checks checks failed"
    exit $((failures > 0))
}
