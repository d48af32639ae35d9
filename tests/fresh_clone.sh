#!/usr/bin/env bash
# tests/fresh_clone.sh [SRC] - the repository stands on its own: clones the committed HEAD of
# the checkout SRC (default: this repository) into an empty temporary folder, with nothing
# beside it, runs scripts/demo there (setup without the Spark peers, release build, every demo
# step) and checks that it exits 0 and that its output shows each main step's result.
# Uncommitted changes are not part of the clone, so they are not tested here.
# Exit 0 = pass, 77 = skipped (SRC is not a git checkout), anything else = failure.
# HUDIC_KEEP_FRESH_CLONE=1 keeps the temporary folder (clone, build, demo.log) for a look.
# ctest runs it as the test `fresh_clone` (label fresh_clone).
set -euo pipefail
SRC=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if ! git -C "$SRC" rev-parse --verify -q HEAD >/dev/null; then
    echo "fresh_clone: $SRC is not a git checkout with a commit: skipped"
    exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hudic-fresh-clone.XXXXXX")
trap '[ -n "${HUDIC_KEEP_FRESH_CLONE:-}" ] || rm -rf "$TMP"' EXIT
git clone -q --no-local "$SRC" "$TMP/hudic"
echo "fresh_clone: cloned $(git -C "$TMP/hudic" rev-parse --short HEAD) into $TMP/hudic"
# The clone is the only thing in $TMP: nothing beside it, no build folder, no cache from $SRC.
[ "$(ls -A "$TMP")" = hudic ] || { echo "fresh_clone: $TMP is not empty"; exit 1; }
[ ! -e "$TMP/hudic/build" ] || { echo "fresh_clone: the clone has a build folder"; exit 1; }

LOG=$TMP/demo.log
start=$(date +%s)
# Without HUDIC_COMPAT the demo must not need Spark; colour codes are stripped below.
rc=0
(cd "$TMP/hudic" && env -u HUDIC -u HUDIC_COMPAT scripts/demo) >"$LOG" 2>&1 || rc=$?
if [ "$rc" -ne 0 ]; then
    cat "$LOG"
    echo "fresh_clone: scripts/demo exited $rc in a fresh clone"
    exit 1
fi
echo "fresh_clone: scripts/demo exited 0 after $(($(date +%s) - start)) s"
sed -i 's/\x1b\[[0-9;]*m//g' "$LOG"

fail=0
expect() { # expect WHAT FIXED-STRING: the demo's output must contain the string
    if grep -qF -- "$2" "$LOG"; then
        echo "  ok: $1"
    else
        echo "  MISSING: $1 (no line containing: $2)"
        fail=1
    fi
}
# Every step ran (scripts/demo prints "$ hudic ARGS" before each).
for step in "table create" "table write" "table cat" "table info" "parquet schema" \
    "parquet cat"; do
    expect "step hudic $step" "\$ hudic $step"
done
# The upsert: t1 updated (newer ts), t3's older update lost, t5 inserted.
expect "upsert updated t1" '"_hoodie_commit_time":"20260102000000000","uuid":"t1","rider":"rider-A","fare":25'
expect "older update of t3 lost" '"_hoodie_commit_time":"20260101000000000","uuid":"t3","rider":"rider-D","fare":33.9'
expect "upsert inserted t5" '"uuid":"t5","rider":"rider-J","fare":17.85'
# Time travel sees t1's first fare; the incremental read returns the second commit's rows.
expect "time travel" '{"uuid":"t1","fare":19.1}'
expect "incremental" '{"_hoodie_commit_time":"20260102000000000","uuid":"t5","fare":17.85}'
expect "filter" '{"uuid":"t1","fare":25,"city":"san_francisco"}'
expect "table info" 'file groups as of 20260102000000000: 3'
# The table written by Apache Hudi on Spark (tests/data/hudi-rs).
expect "Spark-written table" '"id":1,"name":"Alice"'
# The Parquet file from parquet-testing.
expect "parquet cat" '{"a":[[["a","b"],["c"]],[null,["d"]]],"b":1}'
if grep -qi -e "error" -e "hudic: " "$LOG"; then
    grep -ni -e "error" -e "hudic: " "$LOG" | head
    echo "  error text in the demo output"
    fail=1
fi
if [ "$fail" -ne 0 ]; then
    cat "$LOG"
    echo "fresh_clone: the demo's output lacks expected results"
    exit 1
fi
echo "fresh_clone: ok"
