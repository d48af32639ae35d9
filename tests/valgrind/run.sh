#!/usr/bin/env bash
# tests/valgrind/run.sh PROGRAM [ARGS...] - runs a Criterion test binary under valgrind's
# memcheck (leaks included) and fails when valgrind reports anything in any process.
# Criterion runs every test in a re-executed child whose exit status it does not report, so
# --error-exitcode alone would see nothing: each process writes its own log (-q: empty unless
# there is an error) and any non-empty log fails the run. System programs the tests start
# (sh, unzip, ...) are not traced, nor are children a test forks without exec (the stress tests'
# writer processes, which exit holding Criterion's inherited state; ASan covers them).
# Leaks whose every frame is inside Criterion's own runner are suppressed (criterion.supp);
# nothing of hudic is.
# ctest: label valgrind (`ctest --preset valgrind`).
set -uo pipefail
logs=$(mktemp -d "${TMPDIR:-/tmp}/hudic-valgrind.XXXXXX")
trap 'rm -rf "$logs"' EXIT
valgrind -q --trace-children=yes --child-silent-after-fork=yes \
    --trace-children-skip='/bin/*,/usr/*,/sbin/*' \
    --leak-check=full --errors-for-leak-kinds=definite,possible \
    --suppressions="$(dirname "$0")/criterion.supp" \
    --log-file="$logs/vg.%p.log" "$@"
rc=$?
bad=0
for f in "$logs"/vg.*.log; do
    [ -s "$f" ] || continue
    bad=$((bad + 1))
    echo "---- valgrind: $(basename "$f")" >&2
    cat "$f" >&2
done
if [ "$bad" -gt 0 ]; then
    echo "valgrind: errors in $bad process(es) of $(basename "$1")" >&2
    exit 1
fi
exit "$rc"
