"""test_hudic_mor.py - merge-on-read tables hudic writes, read by Spark with Hudi 0.15: hudic
creates a MOR table, inserts (base files), upserts stored keys and deletes some (log files,
deltacommits); Spark reads it snapshot (base files merged with the logs) and read-optimized
(base files only) with the rows the operations imply, and so does hudic. Then Spark writes a
deltacommit to the same table (a log file after hudic's), hudic reads it (snapshot and
read-optimized) as Spark does, hudic upserts once more on top (its log file after Spark's) and
Spark and hudic read the merged result.

Needs `hudic table create --type mor`, `write` and `cat`; Spark runs live."""
import json
import os

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h

SCHEMA = "id INT, name STRING, ts BIGINT, part STRING"
KEYS = ["id"]
SNAPSHOT = {}
RO = {"hoodie.datasource.query.type": "read_optimized"}


def _rows(ids, tag, ts):
    return [{"id": i, "name": "%s%d" % (tag, i), "ts": ts, "part": "p%d" % (i % 2)}
            for i in ids]


def _hudic(*args):
    cp = hudic_peer.run(*args)
    assert cp.returncode == 0, "hudic %s: %s" % (" ".join(args),
                                                 cp.stderr.decode(errors="replace"))


def _hudic_write(path, work, op, rows):
    n = len([f for f in os.listdir(work) if f.endswith(".parquet")])
    inp = str(work / ("input-%03d.parquet" % n))
    pq.write_table(h.arrow_rows(rows, h.arrow_schema(SCHEMA)), inp)
    if not os.path.exists(os.path.join(path, ".hoodie", "hoodie.properties")):
        _hudic("table", "create", "--type", "mor", "--name", "hudic_mor", "--key", "id",
               "--partition", "part", "--precombine", "ts", "--schema-from", inp, path)
    _hudic("table", "write", "--op", op, "--input", inp, "--latest-wins", path)


def _data(res):
    """Data columns only, sorted by id."""
    rows = [{c: r.get(c) for c in ("id", "name", "ts", "part")} for r in res.rows]
    return sorted(rows, key=lambda r: r["id"])


def _expected(state):
    return sorted(state.values(), key=lambda r: r["id"])


def _apply(state, rows, delete=False):
    for r in rows:
        if delete:
            state.pop(r["id"], None)
        else:
            state[r["id"]] = dict(r)


def _hudic_rows(path, snapshot=False):
    got = hudic_peer.run("table", "cat", *([] if snapshot else ["--read-optimized"]), path)
    assert got.returncode == 0, got.stderr
    rows = (json.loads(line) for line in got.stdout.decode().splitlines())
    return sorted(({c: r.get(c) for c in ("id", "name", "ts", "part")} for r in rows),
                  key=lambda r: r["id"])


def _spark_options():
    o = h.write_options("hudic_mor", "id", operation="upsert", precombine="ts", partition="part")
    o["hoodie.datasource.write.table.type"] = "MERGE_ON_READ"
    o["hoodie.compact.inline"] = "false"
    return o


def test_spark_reads_hudic_mor_table(tmp_path, spark015):
    why = (hudic_peer.missing("table", "create") or hudic_peer.missing("table", "write")
           or hudic_peer.missing("table", "cat"))
    if why:
        pytest.skip(why)
    path = str(tmp_path / "hudic_mor")
    state = {}
    _hudic_write(path, tmp_path, "insert", _rows(range(0, 10), "n", 1))
    _apply(state, _rows(range(0, 10), "n", 1))
    base_rows = _expected(state)
    # upserts of stored keys only: log files, the base files stay as inserted
    _hudic_write(path, tmp_path, "upsert", _rows([1, 2, 3], "u", 2))
    _apply(state, _rows([1, 2, 3], "u", 2))
    _hudic_write(path, tmp_path, "upsert", _rows([2, 5], "v", 3))
    _apply(state, _rows([2, 5], "v", 3))
    _hudic_write(path, tmp_path, "delete", _rows([3, 4], "d", 4))
    _apply(state, _rows([3, 4], "d", 4), delete=True)
    done = h.completed_instants(path)
    assert [a for _, a in done] == ["deltacommit"] * 4, done
    logs = [f for d, _, fs in os.walk(path) if ".hoodie" not in d for f in fs if ".log." in f]
    assert len(logs) >= 3, logs

    spark = spark015()
    snap = spark.read(path, key_columns=KEYS)
    assert _data(snap) == _expected(state)
    assert _hudic_rows(path, snapshot=True) == _expected(state)
    ro = spark.read(path, key_columns=KEYS, options=RO)
    assert _data(ro) == base_rows
    # hudic's read-optimized read is Spark's
    mine = _hudic_rows(path)
    assert mine == base_rows

    # Spark writes a deltacommit to hudic's table: updates (a log after hudic's) and an insert
    spark_rows = _rows([0, 5], "s", 5) + _rows([100], "s", 5)
    spark_instant = spark.write(path, spark_rows, SCHEMA, _spark_options())
    assert spark_instant and spark_instant > done[-1][0]
    _apply(state, spark_rows)
    assert h.completed_instants(path)[-1][1] == "deltacommit"
    snap = spark.read(path, key_columns=KEYS)
    assert _data(snap) == _expected(state)
    assert _hudic_rows(path, snapshot=True) == _expected(state)  # hudic reads Spark's log
    mine = _hudic_rows(path)
    assert mine == _data(spark.read(path, key_columns=KEYS, options=RO))

    # hudic upserts on top of Spark's log files; Spark reads the merged result
    _hudic_write(path, tmp_path, "upsert", _rows([0, 1, 100], "h", 6))
    _apply(state, _rows([0, 1, 100], "h", 6))
    _hudic_write(path, tmp_path, "delete", _rows([5], "d", 7))
    _apply(state, _rows([5], "d", 7), delete=True)
    snap = spark.read(path, key_columns=KEYS)
    assert _data(snap) == _expected(state)
    assert _hudic_rows(path, snapshot=True) == _expected(state)
