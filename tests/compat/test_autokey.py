"""test_autokey.py - tables without a primaryKey (record keys generated on insert,
docs/formats/keys.md §9) between `hudic sql` and spark-sql with Hudi 0.15:

* a table hudic creates and writes without a primaryKey (INSERT twice with duplicates,
  UPDATE, DELETE, MERGE; partitioned and not, also CTAS) reads in Spark with the same rows,
  keys and partition paths, and its hoodie.properties holds what Spark's own holds;
* a table Spark SQL created without a primaryKey is registered in hudic, read with the same
  rows and keys, inserted into, updated and deleted from by hudic, and Spark reads the result
  as hudic does (and can insert into it again)."""
import pytest

import test_sql as ts

COLS = ["_hoodie_record_key", "_hoodie_partition_path", "id", "msg", "level"]
DDL = "id INT, msg STRING, level STRING"
ROWS = "(1, 'start', 'info'), (2, 'disk', 'warn'), (2, 'disk', 'warn'), (3, 'stop', 'info')"


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("autokey")


def _spark_table_rows(peer, path, cols):
    got = peer.read(path, columns=cols)
    return [[r[c] for c in got.columns] for r in got.rows]


def _key_props(path):
    p = ts.h.table_properties(path)
    # names, schema and checksum differ by table; the metadata table is Spark's alone
    return {k: v for k, v in p.items()
            if k not in ("hoodie.table.checksum", "hoodie.table.name", "hoodie.table.create.schema",
                         "hoodie.database.name")
            and not k.startswith("hoodie.table.metadata.")}


def test_hudic_autokey_tables_read_by_spark(work, spark015):
    wh = work / "ak_wh1"
    part = str(work / "ak_hudic_part")
    flat = str(work / "ak_hudic_flat")
    ctas = str(work / "ak_hudic_ctas")
    ts.hudic_sql(wh,
                 "CREATE TABLE lp (%s) USING hudi PARTITIONED BY (level) LOCATION '%s'"
                 % (DDL, part),
                 "CREATE TABLE lf (%s) USING hudi LOCATION '%s'" % (DDL, flat),
                 "INSERT INTO lp VALUES %s" % ROWS,
                 "INSERT INTO lp VALUES %s" % ROWS,
                 "INSERT INTO lf VALUES %s" % ROWS,
                 "UPDATE lp SET msg = 'disk full' WHERE id = 2",
                 "DELETE FROM lp WHERE id = 3",
                 "MERGE INTO lf t USING (SELECT 2 AS id, 'x' AS msg, 'warn' AS level UNION ALL "
                 "SELECT 1, 'gone', 'info' UNION ALL SELECT 9, 'new', 'error') s ON t.id = s.id "
                 "WHEN MATCHED AND s.msg = 'gone' THEN DELETE WHEN MATCHED THEN UPDATE SET "
                 "msg = s.msg WHEN NOT MATCHED THEN INSERT *",
                 "CREATE TABLE lc USING hudi PARTITIONED BY (level) LOCATION '%s' AS "
                 "SELECT id, msg, level FROM lp" % ctas)
    peer = spark015()
    for name, path, n in (("lp", part, 6), ("lf", flat, 4), ("lc", ctas, 6)):
        ours = ts.hudic_sql(wh, "SELECT %s FROM %s" % (", ".join(COLS), name))
        assert len(ours) == n, ours
        assert len({r[0] for r in ours}) == n, "keys are not distinct: %s" % ours
        theirs = _spark_table_rows(peer, path, COLS)
        assert ts.same_rows(ours, theirs), "%s: Spark reads %s, hudic %s" % (name, theirs, ours)
    # Spark SQL queries and appends to the hudic table as to its own
    peer.sql("CREATE TABLE ak_lp USING hudi LOCATION '%s'" % part,
             "INSERT INTO ak_lp VALUES (7, 'spark', 'info')")
    ours = ts.hudic_sql(wh, "SELECT %s FROM lp" % ", ".join(COLS))
    theirs = ts.spark_rows(peer, "SELECT %s FROM ak_lp" % ", ".join(COLS))
    assert len(ours) == 7 and ts.same_rows(ours, theirs), "Spark %s, hudic %s" % (theirs, ours)
    # the same table config as Spark SQL's own table without a primaryKey
    sp_part, sp_flat = str(work / "ak_spark_cfg_p"), str(work / "ak_spark_cfg_f")
    peer.sql("CREATE TABLE ak_cfg_p (%s) USING hudi PARTITIONED BY (level) LOCATION '%s'"
             % (DDL, sp_part),
             "CREATE TABLE ak_cfg_f (%s) USING hudi LOCATION '%s'" % (DDL, sp_flat))
    assert _key_props(part) == _key_props(sp_part)
    assert _key_props(flat) == _key_props(sp_flat)
    assert "hoodie.table.recordkey.fields" not in _key_props(part)


def test_spark_autokey_table_modified_by_hudic(work, spark015):
    peer = spark015()
    path = str(work / "ak_spark")
    peer.sql("CREATE TABLE ak_spark (%s) USING hudi PARTITIONED BY (level) LOCATION '%s'"
             % (DDL, path),
             "INSERT INTO ak_spark VALUES %s" % ROWS)
    wh = work / "ak_wh2"
    q = "SELECT %s FROM t" % ", ".join(COLS)
    ours = ts.hudic_sql(wh, "CREATE TABLE t USING hudi LOCATION '%s'" % path, q)
    theirs = ts.spark_rows(peer, "SELECT %s FROM ak_spark" % ", ".join(COLS))
    assert len(ours) == 4 and ts.same_rows(ours, theirs), "Spark %s, hudic %s" % (theirs, ours)
    ours = ts.hudic_sql(wh,
                        "INSERT INTO t VALUES (2, 'disk', 'warn'), (5, 'hudic', 'error')",
                        "UPDATE t SET msg = 'disk full' WHERE id = 2",
                        "DELETE FROM t WHERE id = 1",
                        q)
    assert len(ours) == 5, ours
    assert len({r[0] for r in ours}) == 5, "keys are not distinct: %s" % ours
    assert sorted(r[3] for r in ours if r[2] == 2) == ["disk full"] * 3
    peer.sql("REFRESH TABLE ak_spark")
    theirs = ts.spark_rows(peer, "SELECT %s FROM ak_spark" % ", ".join(COLS))
    assert ts.same_rows(ours, theirs), "Spark reads %s, hudic %s" % (theirs, ours)
    # Spark writes again on top of hudic's commits
    peer.sql("INSERT INTO ak_spark VALUES (6, 'spark', 'info')",
             "UPDATE ak_spark SET msg = 'again' WHERE id = 5")
    theirs = ts.spark_rows(peer, "SELECT %s FROM ak_spark" % ", ".join(COLS))
    ours = ts.hudic_sql(wh, q)
    assert len(ours) == 6 and ts.same_rows(ours, theirs), "Spark %s, hudic %s" % (theirs, ours)
