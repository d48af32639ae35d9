"""test_mor_schema_evolution.py - schema evolution on merge-on-read tables between hudic and
Apache Hudi 0.15 on Spark: the log blocks written under older schemas are read through the
query schema by both.

(i)   Spark evolves a MOR table with schema on read (ALTER TABLE ADD / ALTER TYPE / RENAME /
      DROP between upserts of stored keys, so log files carry blocks of each schema version):
      hudic (`hudic table cat` and `hudic sql`) reads the rows Spark reads, snapshot and
      read-optimized; ALTER is a deltacommit on MOR.
(ii)  hudic evolves a MOR table the same way (`hudic sql`, the same statements): Spark reads
      the rows hudic reads, snapshot and read-optimized; hudic compacts the logs of every
      schema version and Spark reads the compacted table the same; Spark upserts on it.
(iii) on-write evolution: `hudic table write` upserts into a MOR table with a batch that adds a
      column and widens int to long (a log block of the writer schema over base files of the
      old one); Spark reads what hudic reads. And Spark's datasource does the same to a MOR
      table hudic reads.

Rows compare as docs/formats/rendering.md renders them, sorted by partition path and key."""
import json
import os

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h
from test_schema_evolution import data_only, hudic_cat, hudic_sql, same

SOR = "hoodie.schema.on.read.enable"
RO = {"hoodie.datasource.query.type": "read_optimized"}
SPARK_READ_CONF = {"spark.sql.parquet.enableVectorizedReader": "false"}

MOR_CREATE = ("CREATE TABLE {t} (id int, name string, price double, qty int, "
              "col_struct struct<a:int, b:string>, ts bigint, part string) USING hudi "
              "PARTITIONED BY (part) TBLPROPERTIES (type = 'mor', primaryKey = 'id', "
              "preCombineField = 'ts', 'hoodie.metadata.enable' = 'false', "
              "'hoodie.compact.inline' = 'false') LOCATION '{p}'")


def steps(t):
    """The statements after CREATE: inserts (base files), then upserts of stored keys between
    ALTERs (log blocks of each schema version), a DELETE (a delete block) and a dropped name
    added again."""
    return [
        "INSERT INTO {t} VALUES (1, 'n1', 1.5D, 10, named_struct('a', 1, 'b', 'b1'), 1000, 'p1'),"
        " (2, 'n2', 2.5D, 20, named_struct('a', 2, 'b', 'b2'), 1000, 'p2'),"
        " (3, 'n3', 3.5D, 30, named_struct('a', 3, 'b', 'b3'), 1000, 'p1'),"
        " (4, 'n4', 4.5D, 40, named_struct('a', 4, 'b', 'b4'), 1000, 'p2')",
        "UPDATE {t} SET name = 'n1-log', qty = 11, ts = 1001 WHERE id = 1",
        "ALTER TABLE {t} ADD COLUMNS (note string AFTER ts)",
        "ALTER TABLE {t} ADD COLUMNS (col_struct.x int AFTER a)",
        "ALTER TABLE {t} ALTER COLUMN qty TYPE bigint",
        "ALTER TABLE {t} ALTER COLUMN price TYPE string",
        "ALTER TABLE {t} RENAME COLUMN name TO full_name",
        "UPDATE {t} SET note = 'n2-log', qty = 4000000000, ts = 1002 WHERE id = 2",
        "DELETE FROM {t} WHERE id = 4",
        "ALTER TABLE {t} DROP COLUMN note",
        "ALTER TABLE {t} ADD COLUMNS (note string)",
        "UPDATE {t} SET full_name = 'n3-log', note = 'again', ts = 1003 WHERE id = 3",
    ]


WANT = [  # data columns after the steps, sorted by id
    {"id": 1, "full_name": "n1-log", "price": "1.5", "qty": 11,
     "col_struct": {"a": 1, "x": None, "b": "b1"}, "ts": 1001, "part": "p1", "note": None},
    {"id": 2, "full_name": "n2", "price": "2.5", "qty": 4000000000,
     "col_struct": {"a": 2, "x": None, "b": "b2"}, "ts": 1002, "part": "p2", "note": None},
    {"id": 3, "full_name": "n3-log", "price": "3.5", "qty": 30,
     "col_struct": {"a": 3, "x": None, "b": "b3"}, "ts": 1003, "part": "p1", "note": "again"}]


def by_id(res):
    d = data_only(res)
    return sorted(({c: r.get(c) for c in d.columns} for r in d.rows), key=lambda r: r["id"])


def by_id_result(res):
    """Data columns only (a compaction rewrites the file names), rows by id."""
    d = data_only(res)
    return h.Result(d.columns, by_id(res), None, res.reader)


def want_rows(res):
    cols = data_only(res).columns
    return [{c: r[c] for c in cols} for r in WANT]


def log_files(path):
    return [f for d, _, fs in os.walk(path) if ".hoodie" not in d for f in fs if ".log." in f]


def alter_actions(path):
    """The actions of the completed ALTER_SCHEMA instants."""
    out = []
    for t, a in h.completed_instants(path):
        with open(os.path.join(path, ".hoodie", "%s.%s" % (t, a))) as f:
            body = f.read()
        if body and json.loads(body).get("operationType") == "ALTER_SCHEMA":
            out.append(a)
    return out


def spark_read(peer, path, ro=False):
    o = {SOR: "true"}
    if ro:
        o.update(RO)
    return peer.read(path, options=o, conf=SPARK_READ_CONF)


def hudic_rows(path, ro=False):
    args = ["table", "cat"] + (["--read-optimized"] if ro else []) + [path]
    cp = hudic_peer.run(*args)
    assert cp.returncode == 0, cp.stderr.decode(errors="replace")
    rows = [json.loads(l, parse_int=hudic_peer._parse_int)
            for l in cp.stdout.decode().splitlines()]
    return h.Result(list(rows[0].keys()) if rows else [], h.sort_rows(rows), None, "hudic cat")


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("mor_schema_evolution")


def test_spark_evolves_mor_hudic_reads(work, spark015):
    """(i) Spark's ALTERs and upserts on a MOR table, schema on read: hudic reads the rows
    Spark reads, snapshot and read-optimized."""
    if hudic_peer.missing("table", "cat"):
        pytest.fail(hudic_peer.missing("table", "cat"))
    peer = spark015()
    path = str(work / "spark_mor")
    peer.sql("SET %s=true" % SOR, "SET hoodie.metadata.enable=false",
             "SET hoodie.compact.inline=false",
             "DROP TABLE IF EXISTS smor", MOR_CREATE.format(t="smor", p=path))
    try:
        for s in steps("smor"):
            peer.sql(s.format(t="smor"))
        theirs = spark_read(peer, path)
        theirs_ro = spark_read(peer, path, ro=True)
    finally:
        peer.sql("RESET", "DROP TABLE IF EXISTS smor")
    assert len(log_files(path)) >= 3, log_files(path)
    assert alter_actions(path) and set(alter_actions(path)) == {"deltacommit"}, \
        alter_actions(path)
    assert by_id(theirs) == want_rows(theirs)
    same(theirs, hudic_cat(path), "Spark-evolved MOR: hudic snapshot vs Spark")
    same(theirs_ro, hudic_rows(path, ro=True), "Spark-evolved MOR: hudic read-optimized vs Spark")
    rows, _ = hudic_sql(work / "wh_spark_mor", "CREATE TABLE t USING hudi LOCATION '%s'" % path,
                        "SELECT * FROM t", conf={SOR: "true"})
    same(theirs, h.Result(list(rows[0].keys()), h.sort_rows(rows), None, "hudic sql"),
         "Spark-evolved MOR: hudic sql vs Spark")


def test_hudic_evolves_mor_spark_reads(work, spark015):
    """(ii) the same statements run by `hudic sql`: Spark reads the rows hudic reads (and the
    rows of Spark's own run), snapshot and read-optimized; ALTERs are deltacommits."""
    path = str(work / "hudic_mor")
    hudic_sql(work / "wh_hudic_mor", "SET %s=true" % SOR, MOR_CREATE.format(t="t", p=path),
              *[s.format(t="t") for s in steps("t")])
    assert len(log_files(path)) >= 3, log_files(path)
    assert alter_actions(path) and set(alter_actions(path)) == {"deltacommit"}, \
        alter_actions(path)
    ours = hudic_cat(path)
    assert by_id(ours) == want_rows(ours)
    peer = spark015()
    theirs = spark_read(peer, path)
    same(theirs, ours, "hudic-evolved MOR: Spark snapshot vs hudic")
    same(spark_read(peer, path, ro=True), hudic_rows(path, ro=True),
         "hudic-evolved MOR: Spark read-optimized vs hudic")
    # hudic compacts the logs of every schema version into base files of the newest: Spark
    # reads the same rows, snapshot and read-optimized (base files only now)
    before = by_id_result(theirs)
    cp = hudic_peer.run("table", "compact", path)
    assert cp.returncode == 0, cp.stderr.decode(errors="replace")
    assert len(h.completed_instants(path, ("commit",))) == 1, "no compaction commit by hudic"
    same(before, by_id_result(spark_read(peer, path)),
         "hudic-compacted evolved MOR: Spark snapshot vs before")
    same(before, by_id_result(spark_read(peer, path, ro=True)),
         "hudic-compacted evolved MOR: Spark read-optimized vs before")
    same(before, by_id_result(hudic_cat(path)), "hudic-compacted evolved MOR: hudic vs before")
    # Spark keeps writing to hudic's evolved MOR table: an upsert into a log, read by both
    peer.sql("SET %s=true" % SOR, "SET hoodie.metadata.enable=false",
             "SET hoodie.compact.inline=false",
             "DROP TABLE IF EXISTS hmor", "CREATE TABLE hmor USING hudi LOCATION '%s'" % path)
    try:
        peer.sql("UPDATE hmor SET full_name = 'spark', qty = 5000000000, ts = 1004 WHERE id = 1")
        theirs = spark_read(peer, path)
    finally:
        peer.sql("RESET", "DROP TABLE IF EXISTS hmor")
    row1 = [r for r in by_id(theirs) if r["id"] == 1][0]
    assert row1["full_name"] == "spark" and row1["qty"] == 5000000000, row1
    same(theirs, hudic_cat(path), "Spark upsert on hudic-evolved MOR: hudic vs Spark")


ONWRITE_S1 = "id int, name string, v int, ts long, part string"
ONWRITE_S2 = "id int, name string, v long, ts long, part string, score double"
ONWRITE_W1 = [{"id": i, "name": "n%d" % i, "v": i, "ts": 1, "part": "p%d" % (i % 2)}
              for i in range(1, 7)]
ONWRITE_W2 = [{"id": 1, "name": "u1", "v": 8589934592, "ts": 2, "part": "p1", "score": 1.5},
              {"id": 2, "name": "u2", "v": None, "ts": 2, "part": "p0", "score": None}]
ONWRITE_TABLE = {"name": "onwrite_mor", "record_key": "id", "partition": "part",
                 "precombine": "ts"}


def _hudic_write(path, work, op, schema, rows):
    inputs = work / (os.path.basename(path) + ".inputs")
    os.makedirs(inputs, exist_ok=True)
    inp = str(inputs / ("input-%03d.parquet" % len(os.listdir(inputs))))
    pq.write_table(h.arrow_rows(rows, h.arrow_schema(schema)), inp)
    args = []
    if not os.path.exists(os.path.join(path, ".hoodie", "hoodie.properties")):
        args.append(["table", "create", "--type", "mor", "--name", ONWRITE_TABLE["name"],
                     "--key", "id", "--partition", "part", "--precombine", "ts",
                     "--schema-from", inp, path])
    args.append(["table", "write", "--op", op, "--input", inp, "--latest-wins", path])
    for a in args:
        cp = hudic_peer.run(*a)
        assert cp.returncode == 0, "hudic %s: %s" % (" ".join(a), cp.stderr.decode())


def _spark_options():
    o = h.write_options(ONWRITE_TABLE["name"], "id", operation="upsert", precombine="ts",
                        partition="part")
    o["hoodie.datasource.write.table.type"] = "MERGE_ON_READ"
    o["hoodie.compact.inline"] = "false"
    return o


def _onwrite_want(res):
    rows = {r["id"]: dict(r, score=None) for r in ONWRITE_W1}
    for r in ONWRITE_W2:
        rows[r["id"]] = dict(r)
    cols = data_only(res).columns
    return [{c: rows[i][c] for c in cols} for i in sorted(rows)]


def test_onwrite_evolution_mor_both_ways(work, spark015):
    """(iii) an upsert whose batch adds `score` and widens `v` goes to log files over base
    files of the old schema: written by hudic, Spark reads what hudic reads; written by Spark,
    hudic reads what Spark reads."""
    for c in ("create", "write", "cat"):
        if hudic_peer.missing("table", c):
            pytest.fail(hudic_peer.missing("table", c))
    path = str(work / "hudic_onwrite_mor")
    _hudic_write(path, work, "insert", ONWRITE_S1, ONWRITE_W1)
    _hudic_write(path, work, "upsert", ONWRITE_S2, ONWRITE_W2)
    assert len(log_files(path)) >= 1
    ours = hudic_cat(path)
    assert by_id(ours) == _onwrite_want(ours)
    peer = spark015()
    theirs = peer.read(path, conf=SPARK_READ_CONF)
    same(theirs, ours, "hudic on-write evolution on MOR: Spark vs hudic")
    same(peer.read(path, options=RO, conf=SPARK_READ_CONF), hudic_rows(path, ro=True),
         "hudic on-write evolution on MOR, read-optimized: Spark vs hudic")

    spath = str(work / "spark_onwrite_mor")
    peer.write(spath, ONWRITE_W1, ONWRITE_S1, _spark_options())
    peer.write(spath, ONWRITE_W2, ONWRITE_S2, _spark_options())
    assert len(log_files(spath)) >= 1
    theirs = peer.read(spath, conf=SPARK_READ_CONF)
    assert by_id(theirs) == _onwrite_want(theirs)
    same(theirs, hudic_cat(spath), "Spark on-write evolution on MOR: hudic vs Spark")
    same(peer.read(spath, options=RO, conf=SPARK_READ_CONF), hudic_rows(spath, ro=True),
         "Spark on-write evolution on MOR, read-optimized: hudic vs Spark")
