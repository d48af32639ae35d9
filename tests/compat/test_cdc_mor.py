"""test_cdc_mor.py - change data capture of merge-on-read tables against Spark with Hudi 0.15.

Hudi writes no `.cdc` files for log appends: a CDC query infers a deltacommit's changes to a file
group from its log file (Hudi's LOG_FILE case): the file slice as it was before the commit is
merged, the commit's log records are merged onto it, and every key that changed gives a row
("i" for a key the slice did not have, "u" with both images when the merged row differs, "d"
for a delete of a key the slice had). Both ways:

* Spark SQL writes a MOR table with hoodie.table.cdc.enabled (inserts into new base files, then
  updates, deletes and merges as log blocks); hudic's CDC query returns Spark's rows;
* `hudic sql` writes the same table; Spark's CDC query returns hudic's rows.

Rows compare as multisets of (op, ts_ms, before, after)."""
import pytest

import spark_harness as h
from test_cdc import WRITES, canon, hudic_cdc, spark_cdc_read, spark_cdc_sql
from test_sql import hudic_sql

DDL = ("CREATE TABLE {t} (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) USING hudi "
       "PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', "
       "type = 'mor', 'hoodie.metadata.enable' = 'false', 'hoodie.table.cdc.enabled' = 'true', "
       "'hoodie.table.cdc.supplemental.logging.mode' = 'DATA_BEFORE_AFTER') LOCATION '{path}'")

# after WRITES: an update whose ordering value loses (no change under event-time ordering),
# a second update of the same key in a later deltacommit (its before image is merged from the
# base file and the first log), and a delete of a key that does not exist
MORE = [
    "UPDATE {t} SET price = 1.0, ts = 1 WHERE id = 3",
    "UPDATE {t} SET name = 'aa', ts = 2222 WHERE id = 1",
    "DELETE FROM {t} WHERE id = 99",
]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("cdc_mor")


def test_hudic_reads_sparks_mor_changes(work, spark015):
    peer = spark015()
    t = "spark_cdc_mor"
    path = str(work / t)
    peer.sql(DDL.format(t=t, path=path), *[w.format(t=t) for w in WRITES + MORE])
    theirs = spark_cdc_sql(peer, path)
    ours = hudic_cdc(work / "wh_r", path)
    assert any(r[0] == "u" for r in theirs) and any(r[0] == "d" for r in theirs)
    assert canon(ours) == canon(theirs), "Spark:\n%s\nhudic:\n%s" % (
        "\n".join(canon(theirs)), "\n".join(canon(ours)))
    commits = [i for i, _ in h.completed_instants(path)]
    begin, end = commits[1], commits[3]
    theirs = spark_cdc_sql(peer, path, begin, end)
    ours = hudic_cdc(work / "wh_r", path, begin, end)
    assert canon(ours) == canon(theirs)


def test_spark_reads_hudics_mor_changes(work, spark015):
    peer = spark015()
    t = "hudic_cdc_mor"
    path = str(work / t)
    wh = work / "wh_w"
    hudic_sql(wh, DDL.format(t=t, path=path), *[w.format(t=t) for w in WRITES + MORE])
    ours = hudic_cdc(wh, path)
    theirs = spark_cdc_read(peer, path)
    assert canon(ours) == canon(theirs), "Spark:\n%s\nhudic:\n%s" % (
        "\n".join(canon(theirs)), "\n".join(canon(ours)))
