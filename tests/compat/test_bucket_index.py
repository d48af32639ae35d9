"""test_bucket_index.py - Hudi's simple bucket index (hoodie.index.type=BUCKET, 4 buckets) on
merge-on-read tables written in turns by Spark-Hudi 0.15 and hudic:

* Spark creates the table; hudic upserts (updates and inserts into old and new buckets) and
  deletes; Spark reads the same rows and upserts again with the same options (Spark's index
  finds hudic's file groups: no "multiple files ... same bucket id" error, no key twice); hudic
  reads Spark's result;
* the other way round: hudic creates the table (a `hudic sql` CREATE TABLE with the bucket
  settings as TBLPROPERTIES, then INSERT/UPDATE/DELETE/MERGE), Spark upserts and deletes,
  hudic writes again and reads Spark's rows.

After every step: the rows the operations imply, whole rows (meta columns included) identical
between Spark and hudic (snapshot and read-optimized), and the file layout of a bucket table:
every file id starts with its bucket number ("%08d", below 4), one file id per bucket and
partition, every row in its key's bucket (Java's List.hashCode formula)."""
import collections
import json
import os

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h
from test_hudic_mor import SCHEMA, KEYS, Table, _cat, _check, _hudic, _need_hudic, _rows

BUCKET = {"hoodie.index.type": "BUCKET", "hoodie.index.bucket.engine": "SIMPLE",
          "hoodie.bucket.index.num.buckets": "4"}


def _java_bucket(key, n=4):
    """BucketIdentifier.getBucketId for a simple key: [key].hashCode() & INT_MAX % n."""
    s = 0
    data = key.encode("utf-16-be")
    for i in range(0, len(data), 2):
        s = (31 * s + int.from_bytes(data[i:i + 2], "big")) & 0xffffffff
    return ((31 + s) & 0x7fffffff) % n


def _layout(path):
    """partition -> bucket -> set of file ids, from the data files' names."""
    out = collections.defaultdict(lambda: collections.defaultdict(set))
    for d, _, files in os.walk(path):
        if ".hoodie" in d:
            continue
        part = os.path.relpath(d, path)
        for f in files:
            if f.endswith(".parquet"):
                fid = f.split("_")[0]
            elif ".log." in f:
                fid = f.lstrip(".").split("_")[0]
            else:
                continue
            assert fid[:8].isdigit() and fid.endswith("-0"), "%s: not a bucket file id" % f
            out[part][int(fid[:8])].add(fid)
    return out


def _check_buckets(t, snap, what):
    lay = _layout(t.path)
    for part, buckets in lay.items():
        for b, fids in buckets.items():
            assert b < 4, "%s: bucket %d in %s" % (what, b, part)
            assert len(fids) == 1, "%s: bucket %d of %s has groups %s" % (what, b, part, fids)
    for r in snap.rows:
        fid = r["_hoodie_file_name"]
        assert int(fid[:8]) == _java_bucket(r["_hoodie_record_key"]), \
            "%s: key %s in %s" % (what, r["_hoodie_record_key"], fid)


def _hudic_write(t, op, rows):
    inp = str(t.work / ("%s-input-%03d.parquet" % (t.name, t.inputs)))
    t.inputs += 1
    pq.write_table(h.arrow_rows(rows, h.arrow_schema(SCHEMA)), inp)
    props = ",".join("%s=%s" % kv for kv in BUCKET.items())
    _hudic("table", "write", "--op", op, "--latest-wins", "--props", props, "--input", inp,
           t.path)
    t.apply(rows, delete=op == "delete")


def _step(t, peers, what):
    snap = _check(t, peers, what)
    _check_buckets(t, snap, what)
    ids = [r["id"] for r in snap.rows]
    assert len(ids) == len(set(ids)), "%s: duplicate keys %s" % (what, ids)


def test_spark_creates_hudic_writes_bucket_mor(tmp_path, spark015):
    _need_hudic()
    t = Table(tmp_path, "bk_spark")
    spark = spark015()
    t.spark_write(spark, "upsert", _rows(range(0, 12), "s", 1), BUCKET)
    _step(t, [spark], "Spark's first upsert")
    # updates of Spark's rows, inserts into Spark's buckets and into new ones
    _hudic_write(t, "upsert", _rows([1, 2, 3], "h", 2) + _rows(range(20, 30), "h", 2))
    _step(t, [spark], "hudic's upsert")
    _hudic_write(t, "insert", _rows([40, 41], "h", 3))
    _hudic_write(t, "delete", _rows([4, 21], "h", 4))
    _step(t, [spark], "hudic's insert and delete")
    # Spark again, with the same options: it finds hudic's groups
    t.spark_write(spark, "upsert", _rows([2, 20, 40], "s", 5) + _rows(range(50, 56), "s", 5),
                  BUCKET)
    t.spark_write(spark, "delete", _rows([1, 50], "s", 6), BUCKET)
    _step(t, [spark], "Spark's upsert and delete after hudic's")
    _hudic_write(t, "upsert", _rows([51, 3], "h", 7))
    _step(t, [spark], "hudic after Spark again")
    done = h.completed_instants(t.path)
    assert [a for _, a in done] == ["deltacommit"] * len(done), done


def test_hudic_sql_creates_spark_writes_bucket_mor(tmp_path, spark015):
    _need_hudic(("sql",))
    t = Table(tmp_path, "m")  # Spark's options must agree with the SQL table's name
    spark_opts = dict(BUCKET, **{"hoodie.datasource.write.hive_style_partitioning": "true"})
    wh = str(tmp_path / "wh")

    def sql(*statements):
        args = ["sql", "--warehouse", wh, "--mode", "jsonl",
                "-e", "CREATE TABLE IF NOT EXISTS m (id INT, name STRING, ts BIGINT, "
                "part STRING) USING hudi PARTITIONED BY (part) TBLPROPERTIES (type = 'mor', "
                "primaryKey = 'id', preCombineField = 'ts', hoodie.index.type = 'BUCKET', "
                "hoodie.bucket.index.num.buckets = '4') LOCATION '%s'" % t.path]
        for s in statements:
            args += ["-e", s]
        return _hudic(*args)

    sql("INSERT INTO m VALUES " + ", ".join("(%d, 'q%d', 1, 'p%d')" % (i, i, i % 2)
                                            for i in range(0, 10)))
    t.apply(_rows(range(0, 10), "q", 1))
    spark = spark015()
    _step(t, [spark], "SQL INSERT")
    sql("UPDATE m SET name = 'U', ts = 2 WHERE id = 2")
    t.apply([{"id": 2, "name": "U", "ts": 2, "part": "p0"}])
    sql("DELETE FROM m WHERE id = 3")
    t.apply([{"id": 3}], delete=True)
    sql("MERGE INTO m USING (SELECT 4 AS id, 'M' AS name, 3L AS ts, 'p0' AS part UNION ALL "
        "SELECT 31, 'm', 3L, 'p1') s ON m.id = s.id "
        "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")
    t.apply([{"id": 4, "name": "M", "ts": 3, "part": "p0"},
             {"id": 31, "name": "m", "ts": 3, "part": "p1"}])
    _step(t, [spark], "SQL UPDATE, DELETE, MERGE")
    t.spark_write(spark, "upsert", _rows([2, 5, 31], "s", 4) + _rows(range(60, 66), "s", 4),
                  spark_opts)
    t.spark_write(spark, "delete", _rows([6], "s", 5), spark_opts)
    _step(t, [spark], "Spark's upsert and delete on hudic's table")
    _hudic_write(t, "upsert", _rows([60, 7], "h", 6) + _rows([70, 71], "h", 6))
    _step(t, [spark], "hudic after Spark")
    got = json.loads(sql("SELECT count(*) AS n FROM m").splitlines()[-1])
    assert got == {"n": len(t.state)}
