"""test_mor_compaction.py - compaction plans exchanged between hudic and Spark with Hudi 0.15:
(a) Spark schedules a compaction (CALL run_compaction(op => 'schedule')) on a merge-on-read table
whose log files hudic and Spark wrote; hudic runs that plan by its operations (`hudic table
compact --instant`); Spark 0.15 and 1.0 read the rows the writes imply, snapshot and
read-optimized. (b) hudic schedules (`--schedule`), hudic writes a deltacommit while the plan is
pending (its log in the slice the compaction opens), Spark reads the table merged, Spark runs
hudic's plan (CALL run_compaction(op => 'run', timestamp => I)) and hudic reads what Spark reads.
(c) hudic compacts, then writes deltacommits after the compaction; Spark 0.15 and 1.0 read it.

Needs `hudic table create --type mor`, `write`, `cat` and `compact`; Spark runs live."""
import glob
import json
import os

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h

SCHEMA = "id INT, name STRING, ts BIGINT, part STRING"
KEYS = ["id"]
RO = {"hoodie.datasource.query.type": "read_optimized"}
# Spark's write client for the procedures: no metadata table (hudic tables have none)
CALL_OPTS = ("hoodie.metadata.enable=false,hoodie.embed.timeline.server=false,"
             "hoodie.compact.inline.max.delta.commits=1")


def _rows(ids, tag, ts):
    return [{"id": i, "name": "%s%d" % (tag, i), "ts": ts, "part": "p%d" % (i % 2)}
            for i in ids]


def _hudic(*args):
    cp = hudic_peer.run(*args)
    assert cp.returncode == 0, "hudic %s: %s" % (" ".join(args),
                                                 cp.stderr.decode(errors="replace"))
    return cp.stdout.decode()


def _hudic_write(path, work, op, rows):
    n = len([f for f in os.listdir(work) if f.endswith(".parquet")])
    inp = str(work / ("input-%03d.parquet" % n))
    pq.write_table(h.arrow_rows(rows, h.arrow_schema(SCHEMA)), inp)
    if not os.path.exists(os.path.join(path, ".hoodie", "hoodie.properties")):
        _hudic("table", "create", "--type", "mor", "--name", "hudic_mor", "--key", "id",
               "--partition", "part", "--precombine", "ts", "--schema-from", inp, path)
    _hudic("table", "write", "--op", op, "--input", inp, "--latest-wins", path)


def _data(rows):
    return sorted(({c: r.get(c) for c in ("id", "name", "ts", "part")} for r in rows),
                  key=lambda r: r["id"])


def _hudic_rows(path, snapshot=True):
    out = _hudic("table", "cat", *([] if snapshot else ["--read-optimized"]), path)
    return _data(json.loads(line) for line in out.splitlines())


def _apply(state, rows, delete=False):
    for r in rows:
        if delete:
            state.pop(r["id"], None)
        else:
            state[r["id"]] = dict(r)


def _expected(state):
    return sorted(state.values(), key=lambda r: r["id"])


def _spark_options():
    o = h.write_options("hudic_mor", "id", operation="upsert", precombine="ts", partition="part")
    o["hoodie.datasource.write.table.type"] = "MERGE_ON_READ"
    o["hoodie.compact.inline"] = "false"
    return o


def _pending(path):
    """Pending compaction instants (requested, no commit of the same time)."""
    hoodie = os.path.join(path, ".hoodie")
    req = sorted(os.path.basename(p).split(".")[0]
                 for p in glob.glob(os.path.join(hoodie, "*.compaction.requested")))
    return [t for t in req if not os.path.exists(os.path.join(hoodie, t + ".commit"))]


def _logs(path):
    return sorted(f for d, _, fs in os.walk(path) if ".hoodie" not in d for f in fs
                  if ".log." in f)


def _skip_without_hudic():
    why = (hudic_peer.missing("table", "create") or hudic_peer.missing("table", "write")
           or hudic_peer.missing("table", "cat") or hudic_peer.missing("table", "compact"))
    if why:
        pytest.skip(why)


def _check_reads(spark, path, state, ro_expected):
    got = spark.read(path, key_columns=KEYS)
    assert _data(got.rows) == _expected(state), "Spark %s snapshot" % spark.version
    ro = spark.read(path, key_columns=KEYS, options=RO)
    assert _data(ro.rows) == ro_expected, "Spark %s read-optimized" % spark.version


def _mixed_table(path, work, spark):
    """hudic inserts 0..9 and upserts (hudic's logs), Spark upserts (a log after hudic's)."""
    state = {}
    _hudic_write(path, work, "insert", _rows(range(10), "n", 1))
    _apply(state, _rows(range(10), "n", 1))
    _hudic_write(path, work, "upsert", _rows([1, 2, 3], "u", 2))
    _apply(state, _rows([1, 2, 3], "u", 2))
    _hudic_write(path, work, "delete", _rows([4], "d", 3))
    _apply(state, _rows([4], "d", 3), delete=True)
    spark.write(path, _rows([2, 5], "s", 4), SCHEMA, _spark_options())
    _apply(state, _rows([2, 5], "s", 4))
    assert [a for _, a in h.completed_instants(path)] == ["deltacommit"] * 4
    assert len(_logs(path)) >= 3
    return state


def test_spark_schedules_hudic_runs(tmp_path, spark015, spark10):
    _skip_without_hudic()
    path = str(tmp_path / "t")
    spark = spark015()
    state = _mixed_table(path, tmp_path, spark)
    rows = spark.sql("CALL run_compaction(op => 'schedule', path => '%s', options => '%s')"
                     % (path, CALL_OPTS))
    pending = _pending(path)
    assert len(pending) == 1, (rows, pending)
    instant = pending[0]
    assert instant in json.dumps(rows)
    # hudic reads the table with Spark's plan pending, then runs the plan
    assert _hudic_rows(path) == _expected(state)
    out = _hudic("table", "compact", "--instant", instant, path)
    assert "compacted 2 file groups at %s" % instant in out, out
    assert os.path.exists(os.path.join(path, ".hoodie", instant + ".commit"))
    assert _pending(path) == []
    assert _hudic_rows(path) == _expected(state)
    assert _hudic_rows(path, snapshot=False) == _expected(state)
    _check_reads(spark, path, state, _expected(state))
    _check_reads(spark10(), path, state, _expected(state))
    # Spark's show_compaction lists it completed
    shown = spark.sql("CALL show_compaction(path => '%s')" % path)
    assert shown == [{"timestamp": instant, "operation_size": 2, "state": "COMPLETED"}], shown


def test_hudic_schedules_spark_runs(tmp_path, spark015):
    _skip_without_hudic()
    path = str(tmp_path / "t")
    spark = spark015()
    state = _mixed_table(path, tmp_path, spark)
    out = _hudic("table", "compact", "--schedule", path)
    pending = _pending(path)
    assert len(pending) == 1 and "scheduled compaction %s of 2 file groups" % pending[0] in out
    instant = pending[0]
    planned = _expected(state)
    # Spark lists hudic's plan
    shown = spark.sql("CALL show_compaction(path => '%s')" % path)
    assert instant in json.dumps(shown) and "REQUESTED" in json.dumps(shown), shown
    # a hudic deltacommit while the plan is pending: its logs open the compaction's slice
    _hudic_write(path, tmp_path, "upsert", _rows([1, 6], "p", 5))
    _apply(state, _rows([1, 6], "p", 5))
    assert [f for f in _logs(path) if "_%s.log." % instant in f], _logs(path)
    # read-optimized while the plan is pending: the inserted base files
    _check_reads(spark, path, state, _data(_rows(range(10), "n", 1)))
    assert _hudic_rows(path) == _expected(state)
    # Spark runs hudic's plan
    spark.sql("CALL run_compaction(op => 'run', path => '%s', timestamp => %s, options => '%s')"
              % (path, instant, CALL_OPTS))
    assert os.path.exists(os.path.join(path, ".hoodie", instant + ".commit"))
    assert _pending(path) == []
    assert _hudic_rows(path) == _expected(state)
    # read-optimized: the compacted base files hold the records as planned
    assert _hudic_rows(path, snapshot=False) == planned
    _check_reads(spark, path, state, planned)
    # hudic compacts the logs written after the plan; Spark reads the result
    _hudic("table", "compact", path)
    assert _hudic_rows(path, snapshot=False) == _expected(state)
    _check_reads(spark, path, state, _expected(state))


def test_spark_reads_hudic_compaction_then_deltacommits(tmp_path, spark015, spark10):
    _skip_without_hudic()
    path = str(tmp_path / "t")
    state = {}
    _hudic_write(path, tmp_path, "insert", _rows(range(12), "n", 1))
    _apply(state, _rows(range(12), "n", 1))
    _hudic_write(path, tmp_path, "upsert", _rows([0, 3, 7], "u", 2))
    _apply(state, _rows([0, 3, 7], "u", 2))
    out = _hudic("table", "compact", path)
    assert "compacted 2 file groups" in out, out
    compacted = _expected(state)
    _hudic_write(path, tmp_path, "upsert", _rows([3, 8], "v", 3))
    _apply(state, _rows([3, 8], "v", 3))
    _hudic_write(path, tmp_path, "delete", _rows([0], "d", 4))
    _apply(state, _rows([0], "d", 4), delete=True)
    actions = [a for _, a in h.completed_instants(path)]
    assert actions == ["deltacommit", "deltacommit", "commit", "deltacommit", "deltacommit"]
    # the read-optimized view: the compacted base files
    ro = compacted
    assert _hudic_rows(path) == _expected(state)
    assert _hudic_rows(path, snapshot=False) == ro
    _check_reads(spark015(), path, state, ro)
    _check_reads(spark10(), path, state, ro)
    # Spark writes after hudic's compaction too, and hudic reads it
    spark015().write(path, _rows([8, 9], "s", 5), SCHEMA, _spark_options())
    _apply(state, _rows([8, 9], "s", 5))
    assert _hudic_rows(path) == _expected(state)
