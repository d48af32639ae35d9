"""test_sql.py - `hudic sql` against spark-sql with Hudi 0.15 and 1.0:

* tables created and written through `hudic sql` (CREATE TABLE, INSERT, UPDATE, DELETE, MERGE)
  are read by Spark with the rows hudic reads;
* a table Spark SQL created and wrote is registered in hudic with CREATE TABLE ... USING hudi
  LOCATION, queried, then updated, deleted from and merged into by hudic, and Spark reads the
  result as hudic does;
* a differential test runs the same SELECT statements (filters, aggregates, joins, functions,
  ORDER BY/LIMIT) in Spark SQL and in `hudic sql --mode jsonl` over the same table and compares
  rows.

Rows compare by position, values as docs/formats/rendering.md renders them (Spark's side
through the harness's canonical rendering). Expressions get aliases where Spark would give two
columns the same name (its rows are keyed by name)."""
import json
import os
import subprocess

import pytest

import hudic_peer
import spark_harness as h

TRIPS_DDL = ("uuid STRING, rider STRING, driver STRING, fare DOUBLE, ts BIGINT, "
             "city STRING")
TRIPS_ROWS = [
    ("334e26e9", "rider-A", "driver-K", 19.10, 1695159649, "san_francisco"),
    ("e96c4396", "rider-C", "driver-M", 27.70, 1695091554, "san_francisco"),
    ("9909a8b1", "rider-D", "driver-L", 33.90, 1695046462, "san_francisco"),
    ("1dced545", "rider-E", "driver-O", 93.50, 1695516137, "sao_paulo"),
    ("e3cf430c", "rider-F", "driver-P", 34.15, 1695376420, "sao_paulo"),
    ("7a84095f", "rider-G", "driver-Q", 43.40, 1695173887, "chennai"),
    ("3eeb61f7", "rider-I", "driver-S", 41.06, 1695211545, "chennai"),
    ("c8abbe79", "rider-J", "driver-T", 17.85, 1695115999, "chennai"),
]


def _values(rows):
    def lit(v):
        if isinstance(v, str):
            return "'%s'" % v.replace("'", "''")
        return repr(v)
    return ", ".join("(%s)" % ", ".join(lit(v) for v in r) for r in rows)


def hudic_sql(warehouse, *statements):
    """Runs statements in one `hudic sql` process; returns the rows of the last one as lists
    (column order kept). Fails the test on a non-zero exit."""
    if hudic_peer.missing("sql"):
        pytest.fail(hudic_peer.missing("sql"))
    args = ["sql", "--warehouse", str(warehouse), "--mode", "jsonl", "--conf",
            "spark.sql.session.timeZone=UTC"]
    for s in statements:
        args += ["-e", s]
    cp = hudic_peer.run(*args)
    if cp.returncode != 0:
        raise AssertionError("hudic sql failed (exit %d): %s" % (
            cp.returncode, cp.stderr.decode(errors="replace").strip()))
    lines = cp.stdout.decode("utf-8").splitlines()
    return [list(json.loads(l, object_pairs_hook=lambda kv: dict(kv),
                            parse_int=hudic_peer._parse_int).values()) for l in lines]


def spark_rows(peer, *statements):
    return [list(r.values()) for r in peer.sql(*statements)]


def same_rows(a, b, ordered=False):
    def key(r):
        return json.dumps(r, sort_keys=True)

    def norm(rows):
        out = []
        for r in rows:
            out.append([round(v, 9) if isinstance(v, float) else v for v in r])
        return out if ordered else sorted(out, key=key)
    return norm(a) == norm(b)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("sql")


def test_hudic_sql_tables_read_by_spark(work, spark015, spark10):
    wh = work / "wh1"
    path = str(work / "trips_hudic")
    hudic_sql(wh,
              "CREATE TABLE trips (%s) USING hudi PARTITIONED BY (city) "
              "TBLPROPERTIES (primaryKey = 'uuid', preCombineField = 'ts') LOCATION '%s'"
              % (TRIPS_DDL, path),
              "INSERT INTO trips VALUES %s" % _values(TRIPS_ROWS),
              "UPDATE trips SET fare = 25.0 WHERE rider = 'rider-A'",
              "DELETE FROM trips WHERE rider = 'rider-D'",
              "MERGE INTO trips t USING (SELECT 'e96c4396' AS uuid, 'rider-C' AS rider, "
              "'driver-M' AS driver, 1.5D AS fare, 1695200000L AS ts, 'san_francisco' AS city "
              "UNION ALL SELECT 'n1', 'rider-N', 'driver-N', 9.0D, 1695200000L, 'chennai') s "
              "ON t.uuid = s.uuid WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")
    ours = hudic_sql(wh, "SELECT uuid, rider, driver, fare, ts, city FROM trips")
    assert len(ours) == 8
    for get in (spark015, spark10):
        peer = get()
        got = peer.read(path, columns=["uuid", "rider", "driver", "fare", "ts", "city"])
        theirs = [[r[c] for c in got.columns] for r in got.rows]
        assert same_rows(ours, theirs), "Spark %s reads %s, hudic %s" % (peer.version, theirs,
                                                                          ours)


def test_spark_sql_table_modified_by_hudic(work, spark015):
    peer = spark015()
    path = str(work / "trips_spark")
    peer.sql("CREATE TABLE spark_trips (%s) USING hudi PARTITIONED BY (city) "
             "TBLPROPERTIES (primaryKey = 'uuid', preCombineField = 'ts') LOCATION '%s'"
             % (TRIPS_DDL, path),
             "INSERT INTO spark_trips VALUES %s" % _values(TRIPS_ROWS))
    wh = work / "wh2"
    q = "SELECT uuid, rider, driver, fare, ts, city FROM t"
    ours = hudic_sql(wh, "CREATE TABLE t USING hudi LOCATION '%s'" % path, q)
    theirs = spark_rows(peer, "SELECT uuid, rider, driver, fare, ts, city FROM spark_trips")
    assert same_rows(ours, theirs)
    ours = hudic_sql(wh,
                     "UPDATE t SET fare = fare + 1 WHERE city = 'chennai'",
                     "DELETE FROM t WHERE uuid = '1dced545'",
                     "MERGE INTO t USING (SELECT 'x1' AS uuid, 'rider-X' AS rider, 'driver-X' "
                     "AS driver, 1.0D AS fare, 1L AS ts, 'sao_paulo' AS city) s ON t.uuid = "
                     "s.uuid WHEN NOT MATCHED THEN INSERT *",
                     q)
    peer.sql("REFRESH TABLE spark_trips")
    theirs = spark_rows(peer, "SELECT uuid, rider, driver, fare, ts, city FROM spark_trips")
    assert len(ours) == 8
    assert same_rows(ours, theirs), "Spark reads %s, hudic %s" % (theirs, ours)


DIFFERENTIAL = [
    "SELECT city, count(*), round(sum(fare), 2), round(avg(fare), 4), min(fare), max(fare) "
    "FROM {t} GROUP BY city",
    "SELECT rider, fare FROM {t} WHERE fare > 30 AND city <> 'chennai'",
    "SELECT uuid FROM {t} WHERE city IN ('chennai', 'sao_paulo') AND rider LIKE 'rider-%'",
    "SELECT rider, fare FROM {t} ORDER BY fare DESC LIMIT 3",
    "SELECT count(DISTINCT city), count(*) FROM {t}",
    "SELECT upper(rider), substring(driver, 8), length(city), concat(city, '/', rider) FROM {t}",
    "SELECT from_unixtime(ts), year(from_unixtime(ts)), hour(from_unixtime(ts)) FROM {t}",
    "SELECT a.rider AS r1, b.rider AS r2 FROM {t} a JOIN {t} b ON a.city = b.city AND a.uuid < b.uuid",
    "SELECT city, rider FROM {t} WHERE fare = (SELECT max(fare) FROM {t})",
    "SELECT cast(fare AS INT) AS a, cast(ts AS STRING) AS b, cast(fare AS DECIMAL(10, 1)) AS c "
    "FROM {t}",
    "SELECT city, sum(CASE WHEN fare > 30 THEN 1 ELSE 0 END) FROM {t} GROUP BY city "
    "HAVING count(*) > 2",
]


@pytest.mark.parametrize("query", DIFFERENTIAL)
def test_differential_select(work, spark015, query):
    peer = spark015()
    path = str(work / "trips_diff")
    if not os.path.exists(path):
        peer.sql("CREATE TABLE diff_trips (%s) USING hudi PARTITIONED BY (city) "
                 "TBLPROPERTIES (primaryKey = 'uuid', preCombineField = 'ts') LOCATION '%s'"
                 % (TRIPS_DDL, path),
                 "INSERT INTO diff_trips VALUES %s" % _values(TRIPS_ROWS))
    wh = work / "wh3"
    ordered = "ORDER BY" in query
    theirs = spark_rows(peer, "SET spark.sql.session.timeZone=UTC",
                        query.format(t="diff_trips"))
    ours = hudic_sql(wh, "CREATE TABLE IF NOT EXISTS t USING hudi LOCATION '%s'" % path,
                     query.format(t="t"))
    assert same_rows(ours, theirs, ordered), "Spark: %s\nhudic: %s" % (theirs, ours)
