"""test_hudic_mor.py - merge-on-read tables between hudic and Apache Hudi on Spark (0.15 as
writer and reader, 1.0 as a second reader). Every comparison is of whole rows, the five meta
columns included (commit time, sequence number, key, partition and file name must agree):

* hudic writes MOR tables (partitioned and not, OverwriteWithLatest and DefaultHoodieRecordPayload
  tables) through `hudic table write`: inserts, upserts and deletes as deltacommits, an older
  ordering value in a later deltacommit, a compaction by hudic and more deltacommits after it;
  after every step Spark 0.15 and 1.0 read the table (snapshot and read-optimized) with
  hudic's rows, and the snapshot holds the rows the operations imply;
* `hudic sql` INSERT/UPDATE/DELETE/MERGE on a type='mor' table, read the same way;
* Spark and hudic take turns writing deltacommits to one table (upserts, deletes, inserts),
  each reading the other's result identically after every turn;
* Spark writes MOR tables (upserts, deletes, inserts into small files, a failed deltacommit
  and its rollback, inline compaction; a bucket-index table with log-only file slices) and
  hudic reads them as Spark does: snapshot, read-optimized, time travel to every instant,
  incremental between instants, and through `hudic sql` (TIMESTAMP AS OF,
  hudi_table_changes).

Needs `hudic table create --type mor`, `write`, `cat`, `compact` and `hudic sql`; Spark runs
live."""
import json
import os

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h

SCHEMA = "id INT, name STRING, ts BIGINT, part STRING"
KEYS = ["id"]
RO = {"hoodie.datasource.query.type": "read_optimized"}
DEFAULT_PAYLOAD = "org.apache.hudi.common.model.DefaultHoodieRecordPayload"


def _need_hudic(*more):
    for cmd in (("table", "create"), ("table", "write"), ("table", "cat")) + more:
        why = hudic_peer.missing(*cmd)
        if why:
            pytest.skip(why)


def _rows(ids, tag, ts):
    return [{"id": i, "name": "%s%d" % (tag, i), "ts": ts, "part": "p%d" % (i % 2)}
            for i in ids]


def _hudic(*args):
    cp = hudic_peer.run(*args)
    assert cp.returncode == 0, "hudic %s: %s" % (" ".join(args),
                                                 cp.stderr.decode(errors="replace"))
    return cp.stdout.decode()


class Table:
    """A MOR table at `path`, with the rows its operations imply (`state`, by id). ordering:
    a DefaultHoodieRecordPayload table (the larger ts wins, stored or incoming), else
    OverwriteWithLatestAvroPayload (Spark's datasource default: the later write wins)."""

    def __init__(self, work, name, partitioned=True, ordering=False):
        self.work = work
        self.name = name
        self.path = str(work / name)
        self.partitioned = partitioned
        self.ordering = ordering
        self.state = {}
        self.inputs = 0

    def apply(self, rows, delete=False):
        for r in rows:
            old = self.state.get(r["id"])
            if delete:
                self.state.pop(r["id"], None)
            elif not (self.ordering and old is not None and old["ts"] > r["ts"]):
                self.state[r["id"]] = dict(r)

    def expected(self):
        return sorted(self.state.values(), key=lambda r: r["id"])

    def spark_options(self, operation="upsert", extra=None):
        o = h.write_options(self.name, "id", operation=operation, precombine="ts",
                            partition="part" if self.partitioned else None,
                            payload="ordering" if self.ordering else None, extra=extra)
        o["hoodie.datasource.write.table.type"] = "MERGE_ON_READ"
        o.setdefault("hoodie.compact.inline", "false")
        return o

    def hudic_write(self, op, rows):
        inp = str(self.work / ("%s-input-%03d.parquet" % (self.name, self.inputs)))
        self.inputs += 1
        pq.write_table(h.arrow_rows(rows, h.arrow_schema(SCHEMA)), inp)
        if not os.path.exists(os.path.join(self.path, ".hoodie", "hoodie.properties")):
            args = ["table", "create", "--type", "mor", "--name", self.name, "--key", "id",
                    "--precombine", "ts", "--schema-from", inp]
            if self.partitioned:
                args += ["--partition", "part"]
            if self.ordering:
                args += ["--props", "hoodie.compaction.payload.class=" + DEFAULT_PAYLOAD]
            _hudic(*(args + [self.path]))
        w = ["table", "write", "--op", op, "--input", inp]
        if not self.ordering:
            w.append("--latest-wins")
        _hudic(*(w + [self.path]))
        self.apply(rows, delete=op == "delete")
        return h.completed_instants(self.path)[-1][0]

    def spark_write(self, spark, op, rows, extra=None):
        instant = spark.write(self.path, rows, SCHEMA, self.spark_options(op, extra))
        self.apply(rows, delete=op == "delete")
        return instant


def _data(res):
    """Data columns only, sorted by id."""
    return sorted(({c: r.get(c) for c in ("id", "name", "ts", "part")} for r in res.rows),
                  key=lambda r: r["id"])


def _cat(path, **args):
    return hudic_peer.cat(path, key_columns=KEYS, **args)


def _same(theirs, mine, what):
    d = h.difference(theirs, mine, what)
    assert d is None, d


def _check(t, peers, what):
    """hudic's snapshot holds the rows the operations imply; every peer reads the table,
    snapshot and read-optimized, with hudic's rows (meta columns included)."""
    snap = _cat(t.path)
    ro = _cat(t.path, read_optimized=True)
    for peer in peers:
        _same(peer.read(t.path, key_columns=KEYS), snap,
              "%s: Spark %s snapshot" % (what, peer.version))
        _same(peer.read(t.path, key_columns=KEYS, options=RO), ro,
              "%s: Spark %s read-optimized" % (what, peer.version))
    assert _data(snap) == t.expected(), "%s: hudic's snapshot" % what
    return snap


def _files(path, what):
    return sorted(f for d, _, fs in os.walk(path) if ".hoodie" not in d for f in fs
                  if what in f)


# ---- hudic writes, Spark 0.15 and 1.0 read -------------------------------------------------

@pytest.mark.parametrize("partitioned,ordering", [(True, True), (False, False)],
                         ids=["partitioned-ordering", "nonpartitioned-latest"])
def test_spark_reads_hudic_mor_table(tmp_path, spark015, spark10, partitioned, ordering):
    _need_hudic(("table", "compact"))
    t = Table(tmp_path, "hudic_mor", partitioned, ordering)
    peers = [spark015(), spark10()]
    t.hudic_write("insert", _rows(range(0, 12), "n", 10))
    _check(t, peers, "insert")
    t.hudic_write("upsert", _rows([1, 2, 3], "u", 20))
    assert len(_files(t.path, ".log.")) >= 1
    # Later deltacommits with older ordering values: key 2 against a log record (ts 20), key 5
    # against its base record (ts 10), key 6 a tie; keys 20 and 21 are new.
    t.hudic_write("upsert", _rows([5], "old", 5) + _rows([6], "tie", 10) + _rows([20, 21], "i", 1))
    _check(t, peers, "upserts with older ordering values")
    t.hudic_write("delete", _rows([3, 4], "d", 0))
    _check(t, peers, "delete")
    done = h.completed_instants(t.path)
    assert [a for _, a in done] == ["deltacommit"] * len(done), done

    out = _hudic("table", "compact", t.path)
    assert "compacted" in out, out
    assert h.completed_instants(t.path)[-1][1] == "commit"
    _check(t, peers, "after hudic's compaction")
    t.hudic_write("upsert", _rows([1], "w", 30) + _rows([7], "older", 9) + _rows([22], "i", 1))
    t.hudic_write("delete", _rows([8], "d", 0))
    _check(t, peers, "deltacommits after the compaction")


def test_spark_reads_hudic_mor_older_ordering_in_logs(tmp_path, spark015, spark10):
    """An older ordering value in a later deltacommit against a LOG record of the same key
    (not a base record): under DefaultHoodieRecordPayload the larger ts stays."""
    _need_hudic()
    t = Table(tmp_path, "hudic_mor_ord", True, True)
    peers = [spark015(), spark10()]
    t.hudic_write("insert", _rows(range(0, 4), "n", 10))
    t.hudic_write("upsert", _rows([1, 2], "u", 20))
    t.hudic_write("upsert", _rows([2], "old", 15) + _rows([1], "new", 25))
    _check(t, peers, "older ordering value against a log record")


def test_spark_reads_hudic_sql_mor_table(tmp_path, spark015, spark10):
    _need_hudic(("sql",))
    path = str(tmp_path / "sql_mor")
    wh = str(tmp_path / "wh")

    def sql(*statements):
        args = ["sql", "--warehouse", wh, "--mode", "jsonl",
                "-e", "CREATE TABLE IF NOT EXISTS m (id INT, name STRING, ts BIGINT, "
                "part STRING) USING hudi PARTITIONED BY (part) TBLPROPERTIES (type = 'mor', "
                "primaryKey = 'id', preCombineField = 'ts') LOCATION '%s'" % path]
        for s in statements:
            args += ["-e", s]
        return _hudic(*args)

    t = Table(tmp_path, "sql_mor")
    sql("INSERT INTO m VALUES (1, 'a', 10, 'p1'), (2, 'b', 10, 'p0'), (3, 'c', 10, 'p1'), "
        "(4, 'd', 10, 'p0'), (5, 'e', 10, 'p1')")
    t.apply([{"id": i, "name": n, "ts": 10, "part": "p%d" % (i % 2)}
             for i, n in zip(range(1, 6), "abcde")])
    peers = [spark015(), spark10()]
    _check(t, peers, "SQL INSERT")
    sql("UPDATE m SET name = 'B', ts = 11 WHERE id = 2")
    t.apply([{"id": 2, "name": "B", "ts": 11, "part": "p0"}])
    sql("DELETE FROM m WHERE id = 3")
    t.apply([{"id": 3}], delete=True)
    sql("MERGE INTO m USING (SELECT 4 AS id, 'D' AS name, 12L AS ts, 'p0' AS part UNION ALL "
        "SELECT 6, 'f', 12L, 'p0') s ON m.id = s.id "
        "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")
    t.apply([{"id": 4, "name": "D", "ts": 12, "part": "p0"},
             {"id": 6, "name": "f", "ts": 12, "part": "p0"}])
    done = h.completed_instants(path)
    assert [a for _, a in done] == ["deltacommit"] * 4, done
    assert _files(path, ".log.")
    _check(t, peers, "SQL UPDATE, DELETE, MERGE")
    got = json.loads(sql("SELECT count(*) AS n FROM m").splitlines()[-1])
    assert got == {"n": 5}


# ---- Spark and hudic take turns ----------------------------------------------------------------

def test_spark_and_hudic_take_turns(tmp_path, spark015, spark10):
    _need_hudic()
    t = Table(tmp_path, "turns")
    spark = spark015()
    t.hudic_write("insert", _rows(range(0, 10), "h", 1))
    _check(t, [spark], "hudic insert")
    turns = [
        ("spark", "upsert", _rows([1, 2, 3], "s", 2)),
        ("hudic", "upsert", _rows([2, 3, 4], "h", 3)),
        ("spark", "delete", _rows([3], "s", 4)),
        ("hudic", "delete", _rows([4, 5], "h", 5)),
        ("spark", "upsert", _rows([1, 6], "s", 6) + _rows([30, 31], "s", 6)),
        ("hudic", "upsert", _rows([30, 1], "h", 7) + _rows([40], "h", 7)),
        ("spark", "upsert", _rows([40, 2], "s", 8)),
        ("hudic", "delete", _rows([31, 40], "h", 9)),
        ("spark", "insert", _rows([50, 51], "s", 10)),
        ("hudic", "upsert", _rows([50], "h", 11)),
    ]
    for who, op, rows in turns:
        before = h.completed_instants(t.path)[-1][0]
        if who == "spark":
            inst = t.spark_write(spark, op, rows)
        else:
            inst = t.hudic_write(op, rows)
        assert inst > before
        assert h.completed_instants(t.path)[-1][1] == "deltacommit"
        _check(t, [spark], "%s %s %s" % (who, op, [r["id"] for r in rows]))
    _check(t, [spark, spark10()], "after the turns")

    # Spark compacts the logs both wrote (inline, with its next deltacommit); hudic reads the
    # result and writes more on top, and Spark reads that. (hudic's own compaction of this
    # table after Spark's fails: see the branch report; test_spark_reads_hudic_mor_table
    # covers hudic's compaction of its own logs.)
    t.spark_write(spark, "upsert", _rows([6], "s", 12), extra={
        "hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "1"})
    assert h.completed_instants(t.path)[-1][1] == "commit"
    _check(t, [spark], "after Spark's compaction")
    t.hudic_write("upsert", _rows([6, 7], "h", 13))
    t.spark_write(spark, "delete", _rows([7], "s", 14))
    _check(t, [spark, spark10()], "after Spark's compaction and more deltacommits")


# ---- Spark writes, hudic reads -----------------------------------------------------------------

def _compare_history(t, spark, instants, what):
    """Time travel to every instant and incremental reads between them: hudic's rows are
    Spark's."""
    for i, inst in enumerate(instants):
        _same(spark.read(t.path, key_columns=KEYS, as_of=inst), _cat(t.path, as_of=inst),
              "%s: as of %s" % (what, inst))
        begin = instants[i - 1] if i else "000"
        _same(spark.read(t.path, key_columns=KEYS, incremental=[begin, inst]),
              _cat(t.path, incremental=(begin, inst)),
              "%s: incremental (%s, %s]" % (what, begin, inst))


def _validator_fails():
    """Options under which Spark writes a deltacommit's files and then fails before
    committing it (a pre-commit validator that always fails): a failed write."""
    return {
        "hoodie.precommit.validators":
            "org.apache.hudi.client.validator.SqlQuerySingleResultPreCommitValidator",
        "hoodie.precommit.validators.single.value.sql.queries":
            "select count(*) from <TABLE_NAME> where id < 0#1",
    }


def test_hudic_reads_spark_mor_table(tmp_path, spark015, spark10):
    _need_hudic()
    t = Table(tmp_path, "spark_mor")
    spark = spark015()
    instants = [t.spark_write(spark, "insert", _rows(range(0, 10), "n", 1))]
    instants.append(t.spark_write(spark, "upsert", _rows([1, 2, 3], "u", 2)))
    instants.append(t.spark_write(spark, "delete", _rows([3, 4], "d", 3)))
    # new keys and updates together: Spark puts inserts into small base files (a new base
    # file in a deltacommit) or new file groups
    instants.append(t.spark_write(spark, "upsert", _rows([5], "u", 4) + _rows([20, 21], "i", 4)))
    assert _files(t.path, ".log.")
    _check(t, [spark], "Spark deltacommits")

    # a failed deltacommit: its log files are there, its instant is not completed
    with pytest.raises(h.PeerError):
        t.spark_write(spark, "upsert", _rows([1, 6], "failed", 5), _validator_fails())
    hoodie = os.listdir(os.path.join(t.path, ".hoodie"))
    assert any(f.endswith(".deltacommit.inflight") for f in hoodie), hoodie
    _check(t, [spark], "a failed Spark deltacommit")

    # Spark's next write rolls the failed one back first: the rollback's instant time is
    # after the new deltacommit's (Spark takes the deltacommit's time first), so its command
    # block ends Hudi 0.15's log scan before the new deltacommit's log block (the scan stops at
    # a block after the query instant): the write shows only once a later commit completes.
    before = dict(t.state)
    instants.append(t.spark_write(spark, "upsert", _rows([2, 7], "r", 6)))
    rollbacks = [f for f in os.listdir(os.path.join(t.path, ".hoodie")) if f.endswith(".rollback")]
    assert len(rollbacks) == 1 and rollbacks[0].split(".")[0] > instants[-1], rollbacks
    after, t.state = t.state, before
    _check(t, [spark], "after Spark's rollback")
    t.state = after
    # Spark with Hudi 1.0.2 already shows the new deltacommit here: the two readers differ
    # until the next commit; hudic reads as the writer's version, 0.15, does.
    assert _data(spark10().read(t.path, key_columns=KEYS)) == t.expected()

    # Spark's own (inline) compaction, then more deltacommits
    instants.append(t.spark_write(spark, "upsert", _rows([8], "c", 7), extra={
        "hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "1"}))
    assert "commit" in [a for _, a in h.completed_instants(t.path)]
    _check(t, [spark], "after Spark's compaction")
    instants = [i for i, _ in h.completed_instants(t.path)]
    instants.append(t.spark_write(spark, "upsert", _rows([1, 9], "after", 8)))
    instants.append(t.spark_write(spark, "delete", _rows([0], "d", 9)))
    _check(t, [spark, spark10()], "deltacommits after Spark's compaction")
    _compare_history(t, spark, instants, "Spark MOR table")

    # hudic SQL: TIMESTAMP AS OF and hudi_table_changes give Spark's rows
    if not hudic_peer.missing("sql"):
        wh = str(tmp_path / "wh")
        as_of, begin, end = instants[2], instants[1], instants[-2]
        out = _hudic("sql", "--warehouse", wh, "--mode", "jsonl",
                     "-e", "CREATE TABLE s USING hudi LOCATION '%s'" % t.path,
                     "-e", "SELECT id, name, ts, part FROM s TIMESTAMP AS OF '%s'" % as_of)
        mine = sorted((json.loads(l) for l in out.splitlines()), key=lambda r: r["id"])
        assert mine == _data(spark.read(t.path, key_columns=KEYS, as_of=as_of))
        out = _hudic("sql", "--warehouse", wh, "--mode", "jsonl",
                     "-e", "SELECT id, name, ts, part FROM hudi_table_changes('%s', "
                     "'latest_state', '%s', '%s')" % (t.path, begin, end))
        mine = sorted((json.loads(l) for l in out.splitlines()), key=lambda r: r["id"])
        assert mine == _data(spark.read(t.path, key_columns=KEYS, incremental=[begin, end]))


def test_hudic_reads_spark_log_only_slices(tmp_path, spark015, spark10):
    """Spark with an index that can index log files (INMEMORY: kept in the Spark worker's JVM
    across its writes) writes inserts into log files of new file groups: file slices without
    a base file. hudic reads them as Spark does."""
    _need_hudic()
    t = Table(tmp_path, "spark_logonly", partitioned=True, ordering=True)
    spark = spark015()
    bucket = {"hoodie.index.type": "INMEMORY"}
    instants = [t.spark_write(spark, "upsert", _rows(range(0, 8), "n", 10), bucket)]
    assert not _files(t.path, ".parquet"), "expected log-only slices"
    instants.append(t.spark_write(spark, "upsert", _rows([1, 2], "u", 20) + _rows([3], "old", 5),
                                  bucket))
    instants.append(t.spark_write(spark, "delete", _rows([4], "d", 30), bucket))
    _check(t, [spark, spark10()], "log-only slices")
    _compare_history(t, spark, instants, "log-only slices")
    # hudic's bloom index cannot see keys stored in logs alone: an upsert is refused, clearly,
    # instead of writing duplicates of them, and the table is left as Spark wrote it
    inp = str(tmp_path / "logonly-upsert.parquet")
    pq.write_table(h.arrow_rows(_rows([1], "h", 40), h.arrow_schema(SCHEMA)), inp)
    cp = hudic_peer.run("table", "write", "--op", "upsert", "--input", inp, t.path)
    err = cp.stderr.decode(errors="replace")
    assert cp.returncode != 0 and "has log files and no base file" in err, err
    _check(t, [spark], "log-only slices after hudic's refused upsert")
