"""test_schema_evolution.py - schema evolution between hudic and Apache Hudi 0.15 on Spark:

(i)   Spark-evolved tables (on write through the datasource, and Spark SQL DDL with schema on
      read: tests/data/spark-evolved, made by gen_evolved_tables.py) are replayed live from
      their recorded steps; hudic (`hudic table cat` and `hudic sql --mode jsonl`) reads every
      row and column Spark reads, and hudic's DESCRIBE has Spark's types. The stored copies
      are read too, against their recorded rows.
(ii)  hudic-evolved tables: `hudic table write` with an added column and a promoted type, and
      the sor_ddl statements (ADD COLUMNS, ALTER COLUMN TYPE, RENAME COLUMN, DROP COLUMN, a
      dropped name added again, inserts and an UPDATE between) run by `hudic sql` with
      hoodie.schema.on.read.enable=true; Spark reads them with schema on read, with the rows
      and DESCRIBE of the same statements run by Spark. Every ALTER Spark refuses, hudic
      refuses too.
(iii) turns: Spark DDL, hudic INSERT, Spark reads; hudic DDL, Spark INSERT, hudic reads.

Rows compare as docs/formats/rendering.md renders them (Spark's side through the harness's
canonical rendering), sorted by partition path and record key. Spark reads with schema on read
where the table has an InternalSchema and with its vectorized Parquet reader off where Hudi
needs that for nested type changes (Spark's own error otherwise)."""
import copy
import json
import os
import re
import shutil
import subprocess

import pytest

import hudic_peer
import spark_harness as h

DATA = os.path.join(h.ROOT, "tests", "data", "spark-evolved")
TABLES = ["onwrite_seed", "onwrite_newpart", "onwrite_nested", "sor_rename_drop", "sor_ddl"]
SOR = "hoodie.schema.on.read.enable"
VECTORIZED = "spark.sql.parquet.enableVectorizedReader"
SPARK_READ_CONF = {VECTORIZED: "false"}  # Hudi 0.15 needs it for nested type changes
META = h.META_COLUMNS


def expected(name):
    with open(os.path.join(DATA, name + ".expected.json")) as f:
        return json.load(f)


def recorded(name):
    e = expected(name)
    return h.Result(e["columns"], e["rows"], None, "spark-hudi %s (recorded)" % h.WRITER)


def data_only(res):
    """The result without the meta columns (for tables written twice: instants differ), rows
    sorted by their whole content."""
    return h.Result([c for c in res.columns if c not in META],
                    h.sort_rows([{k: v for k, v in r.items() if k not in META}
                                 for r in res.rows]), res.schema, res.reader)


def by_key(res, key):
    """Rows sorted by a data column (meta-free results have no record key column)."""
    rows = sorted(res.rows, key=lambda r: json.dumps(r.get(key), sort_keys=True))
    return h.Result(res.columns, rows, res.schema, res.reader)


def same(a, b, what, ordered_columns=False):
    d = h.difference(a, b, what, ordered_columns=ordered_columns)
    assert d is None, d


# ---- hudic -------------------------------------------------------------------------------------

def hudic_sql(warehouse, *statements, check=True, conf=None):
    """Runs statements in one `hudic sql` process; returns (the rows printed, as dicts in
    hudic's column order, CompletedProcess). Only queries should print rows."""
    if hudic_peer.missing("sql"):
        pytest.fail(hudic_peer.missing("sql"))
    args = ["sql", "--warehouse", str(warehouse), "--mode", "jsonl", "--conf",
            "spark.sql.session.timeZone=UTC"]
    for k, v in (conf or {}).items():
        args += ["--conf", "%s=%s" % (k, v)]
    for s in statements:
        args += ["-e", s]
    cp = hudic_peer.run(*args)
    if check and cp.returncode != 0:
        raise AssertionError("hudic sql failed (exit %d): %s" % (
            cp.returncode, cp.stderr.decode(errors="replace").strip()))
    rows = [json.loads(l, parse_int=hudic_peer._parse_int)
            for l in cp.stdout.decode("utf-8").splitlines()]
    return rows, cp


def hudic_cat(path):
    try:
        return hudic_peer.cat(path)
    except hudic_peer.HudicError as e:
        pytest.fail(str(e))


def hudic_select(warehouse, path, sor=True):
    """SELECT * through `hudic sql` on a table registered by location."""
    rows, _ = hudic_sql(warehouse, "CREATE TABLE IF NOT EXISTS t USING hudi LOCATION '%s'"
                        % path, "SELECT * FROM t", conf={SOR: "true"} if sor else None)
    cols = list(rows[0].keys()) if rows else []
    return h.Result(cols, h.sort_rows(rows), None, "hudic sql")


def hudic_describe(warehouse, path):
    rows, _ = hudic_sql(warehouse, "CREATE TABLE IF NOT EXISTS t USING hudi LOCATION '%s'" % path,
                        "DESCRIBE t")
    out = []
    for r in rows:
        v = list(r.values())
        if not v or not v[0] or str(v[0]).startswith("#"):
            break  # partition information and the like follow an empty line
        out.append((v[0], v[1]))
    return out


def spark_describe_pairs(e):
    return [(d["col_name"], d["data_type"]) for d in e["describe"]]


# ---- Spark -------------------------------------------------------------------------------------

def spark_read(peer, path, sor):
    return peer.read(path, options={SOR: "true"} if sor else None, conf=SPARK_READ_CONF)


def spark_describe(peer, path, sor):
    peer.sql("SET %s=%s" % (SOR, "true" if sor else "false"))
    view = ("CREATE OR REPLACE TEMPORARY VIEW evolved_describe USING hudi OPTIONS (path '%s'%s)"
            % (path, ", `%s` 'true'" % SOR if sor else ""))
    rows = peer.sql(view, "DESCRIBE evolved_describe")
    return [(r["col_name"], r["data_type"]) for r in rows]


def _location(steps):
    for s in steps:
        m = re.search(r"LOCATION '([^']*)'", s.get("sql", ""))
        if m:
            return m.group(1)
    return None


def relocated(steps, path):
    """The recorded SQL steps with the table's LOCATION replaced by `path`."""
    old = _location(steps)
    out = []
    for s in steps:
        if "sql" in s:
            out.append(s["sql"].replace(old, path) if old else s["sql"])
    return out


def replay_in_spark(peer, name, path):
    """Runs a table's recorded steps in the Spark peer at `path` (a fresh table)."""
    e = expected(name)
    peer.sql("DROP TABLE IF EXISTS %s" % name)
    try:
        for s in e["steps"]:
            if "datasource_write" in s:
                w = s["datasource_write"]
                peer.write(path, w["rows"], w["schema"], w["options"], w["mode"])
            else:
                peer.sql(relocated([s], path)[0] if "LOCATION" in s["sql"] else s["sql"])
    finally:
        peer.sql("RESET")
        peer.sql("DROP TABLE IF EXISTS %s" % name)
    return e


def unzip(name, dest):
    subprocess.run(["unzip", "-q", "-o", os.path.join(DATA, name + ".zip"), "-d", str(dest)],
                   check=True)
    return os.path.join(str(dest), name)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("schema_evolution")


def _is_sor(name):
    return name.startswith("sor_")


# ---- (i) Spark-evolved tables read by hudic ----------------------------------------------------

@pytest.mark.parametrize("name", TABLES)
def test_stored_spark_table_read_by_hudic(work, name):
    """The stored Spark-written copy: `hudic table cat` and `hudic sql` give exactly the rows
    (all columns) Spark read when it wrote them; DESCRIBE gives Spark's types."""
    path = unzip(name, work / ("stored_" + name))
    want = recorded(name)
    same(want, hudic_cat(path), "%s: hudic table cat" % name)
    same(want, hudic_select(work / ("wh_stored_" + name), path, _is_sor(name)),
         "%s: hudic sql" % name)
    got = hudic_describe(work / ("wh_stored_desc_" + name), path)
    theirs = spark_describe_pairs(expected(name))
    # hudic's SQL lists the partition columns last, as Spark's catalog does (Spark SQL's INSERT
    # positions follow it); Spark's datasource read, which recorded `theirs`, may put them
    # elsewhere. The same columns and types, and the data columns in the same order.
    parts = {"part", "partitionId"}
    assert sorted(got) == sorted(theirs), "%s: hudic DESCRIBE %s, Spark %s" % (name, got, theirs)
    data = lambda cols: [c for c in cols if c[0] not in parts]
    assert data(got) == data(theirs), "%s: hudic DESCRIBE %s, Spark %s" % (name, got, theirs)
    n_parts = len([c for c in got if c[0] in parts])
    assert all(c[0] in parts for c in got[len(got) - n_parts:]), \
        "%s: hudic DESCRIBE %s: partition columns not last" % (name, got)


@pytest.mark.parametrize("name", TABLES)
def test_live_spark_table_read_by_hudic(work, spark015, name):
    """The recorded steps run again in Spark: Spark reads the recorded data (the steps are
    reproducible), and hudic reads what Spark reads, meta columns included."""
    peer = spark015()
    path = str(work / ("live_" + name))
    replay_in_spark(peer, name, path)
    theirs = spark_read(peer, path, _is_sor(name))
    same(data_only(recorded(name)), data_only(theirs), "%s: Spark replay vs recorded" % name)
    same(theirs, hudic_cat(path), "%s: hudic table cat vs Spark" % name)
    same(theirs, hudic_select(work / ("wh_live_" + name), path, _is_sor(name)),
         "%s: hudic sql vs Spark" % name)
    if _is_sor(name):
        # With an InternalSchema the columns are in its order in both readers.
        assert hudic_cat(path).columns == theirs.columns


# ---- (ii) hudic-evolved tables read by Spark ---------------------------------------------------

ONWRITE_TABLE = {"name": "hudic_onwrite", "record_key": "rowId", "partition": "partitionId",
                 "precombine": "preComb"}
ONWRITE_S1 = ("rowId string, partitionId string, preComb long, name string, versionId string, "
              "intToLong int")
ONWRITE_S2 = ("rowId string, partitionId string, preComb long, name string, versionId string, "
              "intToLong long, newField string")
ONWRITE_W1 = [
    {"rowId": "row_1", "partitionId": "part_0", "preComb": 0, "name": "bob", "versionId": "v_0",
     "intToLong": -7},
    {"rowId": "row_2", "partitionId": "part_0", "preComb": 0, "name": "john",
     "versionId": "v_0", "intToLong": 2147483647},
    {"rowId": "row_3", "partitionId": "part_1", "preComb": 0, "name": "tom", "versionId": "v_0",
     "intToLong": 0}]
ONWRITE_W2 = [  # part_1 only: part_0 keeps its int file without newField
    {"rowId": "row_3", "partitionId": "part_1", "preComb": 5, "name": "tom", "versionId": "v_3",
     "intToLong": 8589934592, "newField": "newField_1"},
    {"rowId": "row_9", "partitionId": "part_1", "preComb": 5, "name": "michael",
     "versionId": "v_2", "intToLong": 2, "newField": None}]
ONWRITE_ROWS = [
    {"rowId": "row_1", "partitionId": "part_0", "preComb": 0, "name": "bob", "versionId": "v_0",
     "intToLong": -7, "newField": None},
    {"rowId": "row_2", "partitionId": "part_0", "preComb": 0, "name": "john",
     "versionId": "v_0", "intToLong": 2147483647, "newField": None},
    {"rowId": "row_3", "partitionId": "part_1", "preComb": 5, "name": "tom", "versionId": "v_3",
     "intToLong": 8589934592, "newField": "newField_1"},
    {"rowId": "row_9", "partitionId": "part_1", "preComb": 5, "name": "michael",
     "versionId": "v_2", "intToLong": 2, "newField": None}]


def test_hudic_write_evolution_read_by_spark(work, spark015):
    """`hudic table write` with a batch that adds newField and makes intToLong a long (into
    one partition only): Spark reads every row hudic reads, the int file as long, newField
    null where absent, and DESCRIBE has bigint and the new column."""
    for c in ("create", "write", "cat"):
        if hudic_peer.missing("table", c):
            pytest.fail(hudic_peer.missing("table", c))
    path = str(work / "hudic_onwrite")
    inputs = str(work / "hudic_onwrite.inputs")
    try:
        hudic_peer.write(path, "upsert", ONWRITE_TABLE, h.arrow_schema(ONWRITE_S1), ONWRITE_W1,
                         inputs)
        hudic_peer.write(path, "upsert", ONWRITE_TABLE, h.arrow_schema(ONWRITE_S2), ONWRITE_W2,
                         inputs)
    except hudic_peer.HudicError as e:
        pytest.fail(str(e))
    ours = hudic_cat(path)
    assert by_key(data_only(ours), "rowId").rows == [
        {c: r[c] for c in data_only(ours).columns} for r in ONWRITE_ROWS]
    peer = spark015()
    theirs = spark_read(peer, path, False)
    same(theirs, ours, "hudic on-write evolution: Spark vs hudic")
    types = dict(spark_describe(peer, path, False))
    assert types.get("intToLong") == "bigint" and types.get("newField") == "string", types


@pytest.mark.parametrize("name", [n for n in TABLES if n.startswith("onwrite_")])
def test_hudic_replays_onwrite_read_by_spark(work, spark015, name):
    """The datasource writes of a Spark-evolved table, made by `hudic table write` instead
    (same batches, same schemas): Spark reads the data Spark's own writes gave, and hudic
    reads what Spark reads."""
    for c in ("create", "write", "cat"):
        if hudic_peer.missing("table", c):
            pytest.fail(hudic_peer.missing("table", c))
    path = str(work / ("hudic_" + name))
    for s in expected(name)["steps"]:
        w = s["datasource_write"]
        o = w["options"]
        table = {"name": o["hoodie.table.name"],
                 "record_key": o["hoodie.datasource.write.recordkey.field"],
                 "partition": o["hoodie.datasource.write.partitionpath.field"] or None,
                 "precombine": o.get("hoodie.datasource.write.precombine.field")}
        try:
            hudic_peer.write(path, o["hoodie.datasource.write.operation"], table,
                             h.arrow_schema(w["schema"]), w["rows"],
                             str(work / ("hudic_%s.inputs" % name)))
        except hudic_peer.HudicError as e:
            pytest.fail(str(e))
    peer = spark015()
    theirs = spark_read(peer, path, False)
    same(data_only(recorded(name)), data_only(theirs), "%s written by hudic: Spark" % name)
    same(theirs, hudic_cat(path), "%s written by hudic: hudic vs Spark" % name)


SOR_CREATE = ("CREATE TABLE {t} (id int, name string, price double, qty int, fl float, "
              "col_struct struct<a:int, b:string>, ts bigint, part string) USING hudi "
              "PARTITIONED BY (part) TBLPROPERTIES (type = 'cow', primaryKey = 'id', "
              "preCombineField = 'ts', 'hoodie.metadata.enable' = 'false') LOCATION '{p}'")


def test_hudic_sor_ddl_read_by_spark(work, spark015):
    """The sor_ddl statements (the same text Spark ran) run by `hudic sql`: Spark, with schema
    on read, reads the data columns and DESCRIBE Spark's own run gave; hudic reads the same."""
    e = expected("sor_ddl")
    path = str(work / "hudic_sor_ddl")
    wh = work / "wh_hudic_sor_ddl"
    hudic_sql(wh, *relocated(e["steps"], path))
    peer = spark015()
    theirs = spark_read(peer, path, True)
    want = data_only(recorded("sor_ddl"))
    same(want, data_only(theirs), "hudic-made sor_ddl: Spark vs Spark's own run")
    same(theirs, hudic_cat(path), "hudic-made sor_ddl: hudic vs Spark")
    assert spark_describe(peer, path, True) == spark_describe_pairs(e)


@pytest.mark.parametrize("name", ["sor_ddl", "sor_rename_drop"])
def test_hudic_refuses_what_spark_refuses(work, name):
    """Each ALTER that Hudi refused on the Spark-made table, hudic refuses on the same table
    (a non-zero exit and one error line) and the table reads as before."""
    e = expected(name)
    assert e["illegal_alters"]
    path = unzip(name, work / ("refuse_" + name))
    before = hudic_cat(path)
    for ill in e["illegal_alters"]:
        stmt = ill["sql"].replace("ALTER TABLE %s " % name, "ALTER TABLE t ")
        wh = work / ("wh_refuse_%s_%d" % (name, e["illegal_alters"].index(ill)))
        _, cp = hudic_sql(wh, "SET %s=true" % SOR,
                          "CREATE TABLE t USING hudi LOCATION '%s'" % path, stmt, check=False)
        err = cp.stderr.decode(errors="replace").strip()
        assert cp.returncode != 0, "hudic accepted %r (Spark: %s)" % (stmt, ill["error"])
        # hudic sql's error form: one line naming the problem, then the statement and a caret
        lines = err.splitlines()
        assert lines and lines[0].startswith("Error: ") and all(
            l == stmt or not l.strip(" ^") for l in lines[1:]), (
            "hudic's error for %r: %r" % (stmt, err))
    same(before, hudic_cat(path), "%s after refused ALTERs" % name)


# ---- (iii) turns -------------------------------------------------------------------------------

TURNS_ROWS = [  # data columns after the turns, sorted by id
    {"id": 1, "full_name": "n1", "price": "1.5", "qty": 10, "col_struct": {"a": 1, "x": None,
     "b": "b1"}, "ts": 1000, "note": None, "part": "p1"},
    {"id": 2, "full_name": "n2", "price": "2.25", "qty": 4000000000,
     "col_struct": {"a": 2, "x": 22, "b": "b2"}, "ts": 1001, "note": "hudic", "part": "p2"},
    {"id": 3, "full_name": "n3", "price": "abc", "qty": -3,
     "col_struct": {"a": 3, "x": 33, "b": "b3"}, "ts": 1002, "note": "spark", "part": "p1"}]


def _turn_rows(res):
    return by_key(data_only(res), "id").rows


def _expect_turn_rows(res):
    cols = data_only(res).columns
    return [{c: r[c] for c in cols} for r in TURNS_ROWS]


def test_turn_spark_ddl_hudic_insert_spark_reads(work, spark015):
    """Spark creates and evolves (schema on read), hudic inserts with the evolved columns,
    then Spark inserts again: Spark and hudic read the same rows."""
    peer = spark015()
    path = str(work / "turn_spark_ddl")
    peer.sql("SET %s=true" % SOR, "SET hoodie.metadata.enable=false",
             "SET hoodie.parquet.small.file.limit=0",
             "DROP TABLE IF EXISTS turn1",
             SOR_CREATE.format(t="turn1", p=path).replace("fl float, ", ""),
             "INSERT INTO turn1 VALUES (1, 'n1', 1.5D, 10, named_struct('a', 1, 'b', 'b1'), "
             "1000, 'p1')",
             "ALTER TABLE turn1 ADD COLUMNS (note string AFTER ts)",
             "ALTER TABLE turn1 ADD COLUMNS (col_struct.x int AFTER a)",
             "ALTER TABLE turn1 ALTER COLUMN qty TYPE bigint",
             "ALTER TABLE turn1 ALTER COLUMN price TYPE string",
             "ALTER TABLE turn1 RENAME COLUMN name TO full_name")
    wh = work / "wh_turn1"
    hudic_sql(wh, "SET %s=true" % SOR, "SET hoodie.parquet.small.file.limit=0",
              "CREATE TABLE t USING hudi LOCATION '%s'" % path,
              "INSERT INTO t (id, full_name, price, qty, col_struct, ts, note, part) VALUES "
              "(2, 'n2', '2.25', 4000000000, named_struct('a', 2, 'x', 22, 'b', 'b2'), 1001, "
              "'hudic', 'p2')")
    peer.sql("REFRESH TABLE turn1",
             "INSERT INTO turn1 SELECT 3 AS id, 'n3' AS full_name, 'abc' AS price, -3L AS qty, "
             "named_struct('a', 3, 'x', 33, 'b', 'b3') AS col_struct, 1002L AS ts, "
             "'spark' AS note, 'p1' AS part")
    theirs = spark_read(peer, path, True)
    peer.sql("RESET", "DROP TABLE IF EXISTS turn1")
    assert _turn_rows(theirs) == _expect_turn_rows(theirs)
    same(theirs, hudic_cat(path), "turn Spark DDL / hudic insert: hudic vs Spark")


def test_turn_hudic_ddl_spark_insert_hudic_reads(work, spark015):
    """hudic creates and evolves (schema on read), Spark registers the table, inserts with the
    evolved columns; hudic reads Spark's row and its own through the InternalSchema."""
    path = str(work / "turn_hudic_ddl")
    wh = work / "wh_turn2"
    hudic_sql(wh, "SET %s=true" % SOR, "SET hoodie.parquet.small.file.limit=0",
              SOR_CREATE.format(t="t", p=path).replace("fl float, ", ""),
              "INSERT INTO t VALUES (1, 'n1', 1.5D, 10, named_struct('a', 1, 'b', 'b1'), 1000, "
              "'p1')",
              "ALTER TABLE t ADD COLUMNS (note string AFTER ts)",
              "ALTER TABLE t ADD COLUMNS (col_struct.x int AFTER a)",
              "ALTER TABLE t ALTER COLUMN qty TYPE bigint",
              "ALTER TABLE t ALTER COLUMN price TYPE string",
              "ALTER TABLE t RENAME COLUMN name TO full_name",
              "INSERT INTO t (id, full_name, price, qty, col_struct, ts, note, part) VALUES "
              "(2, 'n2', '2.25', 4000000000, named_struct('a', 2, 'x', 22, 'b', 'b2'), 1001, "
              "'hudic', 'p2')")
    peer = spark015()
    peer.sql("SET %s=true" % SOR, "SET hoodie.metadata.enable=false",
             "SET hoodie.parquet.small.file.limit=0", "DROP TABLE IF EXISTS turn2",
             "CREATE TABLE turn2 USING hudi LOCATION '%s'" % path,
             "INSERT INTO turn2 SELECT 3 AS id, 'n3' AS full_name, 'abc' AS price, -3L AS qty, "
             "named_struct('a', 3, 'x', 33, 'b', 'b3') AS col_struct, 1002L AS ts, "
             "'spark' AS note, 'p1' AS part")
    theirs = spark_read(peer, path, True)
    peer.sql("RESET", "DROP TABLE IF EXISTS turn2")
    ours = hudic_cat(path)
    assert _turn_rows(ours) == _expect_turn_rows(ours)
    same(theirs, ours, "turn hudic DDL / Spark insert: hudic vs Spark")
