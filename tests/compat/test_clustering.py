"""test_clustering.py - clustering (docs/formats/timeline.md §13) between hudic and Spark:

- hudic clusters a copy-on-write table it wrote (small file groups rewritten, sorted by a
  column); Spark with Hudi 0.15 and 1.0 read it with the rows hudic reads, the replaced file
  groups hidden, the meta columns preserved.
- Spark clusters a table (CALL run_clustering); hudic reads it as Spark does.
- Spark schedules a clustering (op => 'schedule'); hudic executes Spark's plan, refusing updates
  to its file groups meanwhile; Spark reads the result.

Needs `hudic table create`, `write`, `cat` and `cluster`; Spark runs live."""
import json
import os

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h

SCHEMA = "id INT, name STRING, ts BIGINT, part STRING"
KEYS = ["id"]
DATA = ("id", "name", "ts", "part")


def _rows(ids, tag, ts):
    return [{"id": i, "name": "%s%03d" % (tag, (i * 37) % 101), "ts": ts, "part": "p%d" % (i % 2)}
            for i in ids]


def _need():
    why = (hudic_peer.missing("table", "create") or hudic_peer.missing("table", "write")
           or hudic_peer.missing("table", "cat") or hudic_peer.missing("table", "cluster"))
    if why:
        pytest.skip(why)


def _hudic(*args, ok=True):
    cp = hudic_peer.run(*args)
    if ok:
        assert cp.returncode == 0, "hudic %s: %s" % (" ".join(args),
                                                     cp.stderr.decode(errors="replace"))
    return cp


def _hudic_write(path, work, op, rows):
    n = len([f for f in os.listdir(work) if f.endswith(".parquet")])
    inp = str(work / ("input-%03d.parquet" % n))
    pq.write_table(h.arrow_rows(rows, h.arrow_schema(SCHEMA)), inp)
    if not os.path.exists(os.path.join(path, ".hoodie", "hoodie.properties")):
        _hudic("table", "create", "--name", "clu", "--key", "id", "--partition", "part",
               "--precombine", "ts", "--schema-from", inp, path)
    _hudic("table", "write", "--op", op, "--input", inp, path)


def _hudic_rows(path, cols=DATA):
    got = _hudic("table", "cat", path)
    rows = (json.loads(line) for line in got.stdout.decode().splitlines())
    return sorted(({c: r.get(c) for c in cols} for r in rows), key=lambda r: r["id"])


def _data(res, cols=DATA):
    return sorted(({c: r.get(c) for c in cols} for r in res.rows), key=lambda r: r["id"])


def _base_files(path):
    """Base files per partition folder (every version on storage)."""
    out = {}
    for d, _, fs in os.walk(path):
        if ".hoodie" in d:
            continue
        for f in fs:
            if f.endswith(".parquet"):
                out.setdefault(os.path.relpath(d, path), []).append(f)
    return out


def _requested_replace(path):
    return sorted(f for f in os.listdir(os.path.join(path, ".hoodie"))
                  if f.endswith(".replacecommit.requested"))


def _spark_options(table):
    return h.write_options(table, "id", operation="upsert", precombine="ts", partition="part")


META = ("id", "_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
        "_hoodie_partition_path", "_hoodie_file_name")


def test_spark_reads_table_hudic_clustered(tmp_path, spark015, spark10):
    _need()
    path = str(tmp_path / "clu")
    for c in range(4):  # four bulk inserts: four small file groups per partition
        _hudic_write(path, tmp_path, "bulk_insert", _rows(range(c * 10, c * 10 + 10), "n", c))
    _hudic_write(path, tmp_path, "upsert", _rows([1, 2, 13], "u", 9))
    before = _hudic_rows(path)
    before_meta = _hudic_rows(path, META)
    assert len(before) == 40
    out = _hudic("table", "cluster", "--sort", "name", path).stdout.decode()
    assert out.startswith("completed clustering of 2 groups at "), out
    instant = out.split()[-1]
    done = h.completed_instants(path)
    assert done[-1] == (instant, "replacecommit"), done
    with open(os.path.join(path, ".hoodie", instant + ".replacecommit")) as f:
        md = json.load(f)
    assert md["operationType"] == "CLUSTER"
    assert sorted(md["partitionToReplaceFileIds"]) == ["p0", "p1"]
    assert all(len(v) == 4 for v in md["partitionToReplaceFileIds"].values())
    assert _hudic_rows(path) == before
    after_meta = _hudic_rows(path, META)
    for b, a in zip(before_meta, after_meta):  # commit time, seqno, key preserved
        assert {k: v for k, v in a.items() if k != "_hoodie_file_name"} == \
            {k: v for k, v in b.items() if k != "_hoodie_file_name"}
        assert a["_hoodie_file_name"].endswith("_%s.parquet" % instant)

    # the new files hold their partition's rows in name order
    new = [os.path.join(path, d, f) for d, fs in _base_files(path).items() for f in fs
           if f.endswith("_%s.parquet" % instant)]
    assert len(new) == 2, new
    for f in new:
        names = pq.read_table(f, columns=["name"]).column("name").to_pylist()
        assert names == sorted(names) and len(names) == 20, f

    for peer in (spark015, spark10):
        spark = peer()
        res = spark.read(path, key_columns=KEYS)
        assert _data(res) == before, spark.version
        assert _data(res, META) == _hudic_rows(path, META), spark.version
        # each partition is one new file
        assert len({r["_hoodie_file_name"] for r in res.rows}) == 2
        # Spark writes on top of the clustered table; hudic reads it
        spark_rows = _rows([3, 55], "s" + spark.version.replace(".", ""), 20)
        spark.write(path, spark_rows, SCHEMA, _spark_options("clu"))
        want = {r["id"]: r for r in before}
        for r in spark_rows:
            want[r["id"]] = r
        before = sorted(want.values(), key=lambda r: r["id"])
        assert _hudic_rows(path) == before
        assert _data(spark.read(path, key_columns=KEYS)) == before


def test_hudic_reads_table_spark_clustered(tmp_path, spark015):
    _need()
    path = str(tmp_path / "sparkclu")
    spark = spark015()
    opts = _spark_options("sparkclu")
    opts["hoodie.datasource.write.operation"] = "bulk_insert"
    state = {}
    for c in range(3):
        rows = _rows(range(c * 8, c * 8 + 8), "b", c)
        spark.write(path, rows, SCHEMA, opts)
        state.update({r["id"]: r for r in rows})
    want = sorted(state.values(), key=lambda r: r["id"])
    assert _hudic_rows(path) == want
    got = spark.sql("CALL run_clustering(path => '%s', order => 'name', options => "
                    "'hoodie.metadata.enable=false,hoodie.clustering.plan.strategy."
                    "small.file.limit=629145600')" % path)
    assert got and len(got) == 1, got
    done = h.completed_instants(path)
    assert done[-1][1] == "replacecommit", done
    with open(os.path.join(path, ".hoodie", done[-1][0] + ".replacecommit")) as f:
        assert json.load(f)["operationType"] == "CLUSTER"
    assert _hudic_rows(path) == want
    res = hudic_peer.cat(path, columns=["id", "_hoodie_file_name"], key_columns=KEYS)
    assert len({r["_hoodie_file_name"] for r in res.rows}) == 2  # one file per partition
    assert _data(spark.read(path, key_columns=KEYS)) == want
    # hudic's show_clustering-like view: hudic plans nothing new over Spark's new files
    # larger than the limit, and writes on top of the clustered table
    _hudic_write(path, tmp_path, "upsert", _rows([0, 9], "h", 30))
    state.update({r["id"]: r for r in _rows([0, 9], "h", 30)})
    want = sorted(state.values(), key=lambda r: r["id"])
    assert _hudic_rows(path) == want
    assert _data(spark.read(path, key_columns=KEYS)) == want


def test_hudic_executes_plan_spark_scheduled(tmp_path, spark015, spark10):
    _need()
    path = str(tmp_path / "plan")
    spark = spark015()
    opts = _spark_options("plan")
    opts["hoodie.datasource.write.operation"] = "bulk_insert"
    state = {}
    for c in range(3):
        rows = _rows(range(c * 6, c * 6 + 6), "p", c)
        spark.write(path, rows, SCHEMA, opts)
        state.update({r["id"]: r for r in rows})
    got = spark.sql("CALL run_clustering(path => '%s', op => 'schedule', order => 'ts,id', "
                    "options => 'hoodie.metadata.enable=false')" % path)
    assert got and len(got) == 1, got
    reqs = _requested_replace(path)
    assert len(reqs) == 1, reqs
    instant = reqs[0].split(".")[0]
    # an update of a key in a planned file group is refused as Spark refuses it
    inp = str(tmp_path / "upd.parquet")
    pq.write_table(h.arrow_rows(_rows([1], "x", 50), h.arrow_schema(SCHEMA)), inp)
    cp = _hudic("table", "write", "--op", "upsert", "--input", inp, path, ok=False)
    assert cp.returncode != 0
    assert b"Not allowed to update the clustering file group" in cp.stderr, cp.stderr
    want = sorted(state.values(), key=lambda r: r["id"])
    assert _hudic_rows(path) == want
    # hudic executes Spark's plan
    out = _hudic("table", "cluster", "--execute", instant, path).stdout.decode()
    assert out.strip() == "executed clustering %s" % instant, out
    assert h.completed_instants(path)[-1] == (instant, "replacecommit")
    assert _hudic_rows(path) == want
    for peer in (spark015, spark10):
        s = peer()
        res = s.read(path, key_columns=KEYS)
        assert _data(res) == want, s.version
        assert len({r["_hoodie_file_name"] for r in res.rows}) == 2
    # the update goes through now, and Spark reads it
    _hudic("table", "write", "--op", "upsert", "--input", inp, path)
    state[1] = _rows([1], "x", 50)[0]
    want = sorted(state.values(), key=lambda r: r["id"])
    assert _data(spark.read(path, key_columns=KEYS)) == want
