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
# Every step ran (scripts/demo prints "hudic-sql> STATEMENT" or "$ hudic ARGS" before each).
for step in "CREATE TABLE trips" "INSERT INTO trips" "UPDATE trips" "MERGE INTO trips" \
    "EXPLAIN SELECT" "SET hoodie.schema.on.read.enable" "CREATE TABLE spark_table"; do
    expect "statement $step" "hudic-sql> $step"
done
for step in "table info" "parquet schema" "parquet cat"; do
    expect "step hudic $step" "\$ hudic $step"
done
# The writes: t1 updated, t5 merged in; time travel sees t1's first fare and the deleted t2.
expect "insert" "4 rows affected"
expect "update" "│ t1     │ rider-A │   25.0 │ san_francisco │"
expect "merge insert" "│ t5     │ rider-J │  17.85 │ chennai       │"
expect "time travel" "│ t2     │   27.7 │"
expect "aggregate" "│ chennai       │      2 │     26.0 │"
expect "partition pruning" "partitions: 1 of 3 read"
# Schema evolution: the renamed column keeps its values, the added one reads null in old rows.
expect "renamed column" "│ t1     │ rider-A    │   25.0 │   NULL │ san_francisco │"
expect "added column" "│ t6     │ rider-K    │   21.5 │    3.5 │ chennai       │"
# The table written by Apache Hudi on Spark (tests/data/hudi-rs), registered by location.
expect "Spark-written table" "│   1 │ Alice  │ false    │   12345.67890 │"
expect "table info" "hoodie.table.recordkey.fields = uuid"
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
