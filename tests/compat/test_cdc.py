"""test_cdc.py - change data capture against Spark with Hudi 0.15, both ways:

* Spark SQL creates copy-on-write tables with hoodie.table.cdc.enabled (one per supplemental
  logging mode) and writes them (insert, update, delete, merge, an insert into a new partition,
  a delete that empties a file group); hudic's `hudi_table_changes(path, 'cdc', ...)` returns
  the rows Spark's own CDC query returns, for the whole timeline and for a range (begin, end];
* `hudic sql` creates and writes the same tables (its merges write the `.cdc` log files); Spark's
  CDC read (the datasource's incremental query with incremental.format=cdc) returns the rows
  hudic's CDC query returns.

Rows compare as multisets of (op, ts_ms, before, after), strings as both sides print them."""
import json

import pytest

import spark_harness as h
from test_sql import hudic_sql

MODES = ["DATA_BEFORE_AFTER", "DATA_BEFORE", "OP_KEY_ONLY"]

DDL = ("CREATE TABLE {t} (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) USING hudi "
       "PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', "
       "type = 'cow', 'hoodie.metadata.enable' = 'false', 'hoodie.table.cdc.enabled' = 'true', "
       "'hoodie.table.cdc.supplemental.logging.mode' = '{mode}') LOCATION '{path}'")

WRITES = [
    "INSERT INTO {t} VALUES (1, 'a', 10.0, 1000, '2021'), (2, 'b\"x', 20.0, 1000, '2021'), "
    "(3, 'c', 30.0, 1000, '2022')",
    "UPDATE {t} SET price = price * 2, ts = 1111 WHERE id = 1",
    "DELETE FROM {t} WHERE id = 2",
    "MERGE INTO {t} t USING (SELECT 3 AS id, 'cc' AS name, 33.0D AS price, 1200L AS ts, "
    "'2022' AS dt UNION ALL SELECT 4, 'd', 40.0D, 1200L, '2022') s ON t.id = s.id "
    "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
    "INSERT INTO {t} VALUES (5, 'e', 50.0, 1000, '2023')",
    "DELETE FROM {t} WHERE id = 5",
]

COLS = ["op", "ts_ms", "before", "after"]


def canon(rows):
    return sorted((json.dumps(r) for r in rows))


def hudic_cdc(wh, path, begin="earliest", end=None):
    args = "'%s', 'cdc', '%s'" % (path, begin) + (", '%s'" % end if end else "")
    return hudic_sql(wh, "SELECT op, ts_ms, before, after FROM hudi_table_changes(%s)" % args)


def spark_cdc_sql(peer, path, begin="earliest", end=None):
    args = "'%s', 'cdc', '%s'" % (path, begin) + (", '%s'" % end if end else "")
    return [[r[c] for c in COLS] for r in
            peer.sql("SELECT op, ts_ms, before, after FROM hudi_table_changes(%s)" % args)]


def spark_cdc_read(peer, path):
    got = peer.read(path, options={
        "hoodie.datasource.query.type": "incremental",
        "hoodie.datasource.query.incremental.format": "cdc",
        "hoodie.datasource.read.begin.instanttime": "000"})
    return [[r[c] for c in COLS] for r in got.rows]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("cdc")


@pytest.mark.parametrize("mode", MODES)
def test_hudic_reads_sparks_changes(work, spark015, mode):
    peer = spark015()
    t = "spark_cdc_%s" % mode.lower()
    path = str(work / t)
    peer.sql(DDL.format(t=t, mode=mode, path=path), *[w.format(t=t) for w in WRITES])
    theirs = spark_cdc_sql(peer, path)
    ours = hudic_cdc(work / "wh_r", path)
    assert len(theirs) == 9
    assert canon(ours) == canon(theirs), "Spark:\n%s\nhudic:\n%s" % (
        "\n".join(canon(theirs)), "\n".join(canon(ours)))
    commits = [i for i, _ in h.completed_instants(path)]
    begin, end = commits[1], commits[3]  # the delete and the merge
    theirs = spark_cdc_sql(peer, path, begin, end)
    ours = hudic_cdc(work / "wh_r", path, begin, end)
    assert len(theirs) == 3
    assert canon(ours) == canon(theirs)


@pytest.mark.parametrize("mode", MODES)
def test_spark_reads_hudics_changes(work, spark015, mode):
    peer = spark015()
    t = "hudic_cdc_%s" % mode.lower()
    path = str(work / t)
    wh = work / "wh_w"
    hudic_sql(wh, DDL.format(t=t, mode=mode, path=path), *[w.format(t=t) for w in WRITES])
    ours = hudic_cdc(wh, path)
    assert len(ours) == 9
    theirs = spark_cdc_read(peer, path)
    assert canon(ours) == canon(theirs), "Spark:\n%s\nhudic:\n%s" % (
        "\n".join(canon(theirs)), "\n".join(canon(ours)))
    theirs = spark_cdc_sql(peer, path)
    assert canon(ours) == canon(theirs)


def test_cdc_query_of_a_table_without_cdc(work):
    wh = work / "wh_e"
    path = str(work / "plain")
    hudic_sql(wh, "CREATE TABLE plain (id INT, ts BIGINT) USING hudi TBLPROPERTIES "
              "(primaryKey = 'id') LOCATION '%s'" % path, "INSERT INTO plain VALUES (1, 1)")
    with pytest.raises(AssertionError, match="isn't a CDC hudi table"):
        hudic_cdc(wh, path)
