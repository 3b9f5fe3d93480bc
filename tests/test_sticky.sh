#!/bin/bash
# Checks before work match the real replace (issue 25, item 5): in a sticky folder (mode 1777)
# a file that belongs to another user cannot be renamed over; run as nobody, --dump to it must
# fail in the early check (one line, nothing left behind), not after the whole run with a hidden
# .x.csv.old.* link left (as on main 24a6dd8). Needs root and runuser or setpriv (else skips).
FLUID=${1:?usage: test_sticky.sh /path/to/fluid}
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (to run as nobody)"; exit 77; }
id nobody > /dev/null 2>&1 || { echo "SKIP: no user nobody"; exit 77; }
if command -v runuser > /dev/null; then as_nobody() { runuser -u nobody -- "$@"; }
elif command -v setpriv > /dev/null; then as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
else echo "SKIP: neither runuser nor setpriv"; exit 77; fi
chmod 755 "$TMP"
mkdir "$TMP/st" && chmod 1777 "$TMP/st"
echo old > "$TMP/st/x.csv" && chmod 666 "$TMP/st/x.csv" # root's, writable by all
as_nobody env HOME=/tmp "$FLUID" --headless --particles 200 --frames 2 --dump "$TMP/st/x.csv" > /dev/null 2> "$TMP/err"
rc=$?
skip_without_gl "$TMP/err"
check "[ $rc = 1 ]" "exit $rc, not 1: $(tail -1 "$TMP/err")"
check "grep -q 'sticky folder' '$TMP/err' && ! grep -q 'CLI: dambreak' '$TMP/err'" \
    "not refused before the run: $(cat "$TMP/err")"
check "[ \"\$(cat '$TMP/st/x.csv')\" = old ]" "the old file changed"
left=$(ls -A "$TMP/st" | grep -v '^x.csv$')
check "[ -z '$left' ]" "left behind: $left"
finish
