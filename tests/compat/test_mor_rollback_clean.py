"""test_mor_rollback_clean.py - rollback and cleaning of merge-on-read tables between hudic and
Spark with Hudi 0.15 (table version 6):
* hudic writes a MOR table (base files, then log files), rolls back its latest deltacommit with
  CALL rollback_to_instant (the deltacommit's log files stay, each slice gets a log file with a
  rollback command block), writes on, compacts and cleans (old slices go with their log files);
  Spark reads the table after the rollback and after the clean with the rows hudic reads, and
  writes a deltacommit on top that both read alike;
* Spark writes a MOR table, rolls back its latest deltacommit with CALL rollback_to_instant,
  writes on with inline compaction, and cleans with CALL run_clean; hudic reads it after the
  rollback and after the clean with the rows Spark reads;
* a Spark deltacommit fails after appending to log files, its markers in the timeline server's
  MARKERS files; hudic's next write rolls it back with command blocks, and both read alike.
* hudic writes its markers in that layout (hoodie.write.markers.type=TIMELINE_SERVER_BASED) and
  is killed after appending a log file; Spark's next write rolls it back by them.

Needs `hudic table create --type mor`, `write`, `compact`, `clean`, `cat` and `hudic sql`;
Spark runs live."""
import json
import os

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h

SCHEMA = "id INT, name STRING, ts BIGINT, part STRING"
KEYS = ["id"]


def _rows(ids, tag, ts):
    return [{"id": i, "name": "%s%d" % (tag, i), "ts": ts, "part": "p%d" % (i % 2)}
            for i in ids]


def _hudic(*args):
    cp = hudic_peer.run(*args)
    assert cp.returncode == 0, "hudic %s: %s" % (" ".join(args),
                                                 cp.stderr.decode(errors="replace"))
    return cp.stdout.decode()


def _hudic_write(path, work, op, rows):
    n = len([f for f in os.listdir(work) if f.endswith(".parquet")])
    inp = str(work / ("input-%03d.parquet" % n))
    pq.write_table(h.arrow_rows(rows, h.arrow_schema(SCHEMA)), inp)
    if not os.path.exists(os.path.join(path, ".hoodie", "hoodie.properties")):
        _hudic("table", "create", "--type", "mor", "--name", "mor_rb", "--key", "id",
               "--partition", "part", "--precombine", "ts", "--schema-from", inp, path)
    _hudic("table", "write", "--op", op, "--input", inp, "--latest-wins", path)
    return h.completed_instants(path)[-1][0]


def _hudic_sql(work, *statements):
    args = ["sql", "--warehouse", str(work / "wh"), "--mode", "jsonl"]
    for s in statements:
        args += ["-e", s]
    return _hudic(*args)


def _data(rows):
    return sorted(({c: r.get(c) for c in ("id", "name", "ts", "part")} for r in rows),
                  key=lambda r: r["id"])


def _expected(state):
    return sorted(state.values(), key=lambda r: r["id"])


def _apply(state, rows, delete=False):
    for r in rows:
        if delete:
            state.pop(r["id"], None)
        else:
            state[r["id"]] = dict(r)


def _hudic_rows(path, read_optimized=False):
    got = hudic_peer.run("table", "cat", *(["--read-optimized"] if read_optimized else []), path)
    assert got.returncode == 0, got.stderr
    assert not got.stderr, got.stderr
    return _data(json.loads(line) for line in got.stdout.decode().splitlines())


def _files(path, pred):
    return sorted(os.path.join(os.path.relpath(d, path), f) for d, _, fs in os.walk(path)
                  if ".hoodie" not in d for f in fs if pred(f))


def _command_block_logs(path):
    """Log files holding exactly one block, a rollback COMMAND_BLOCK (block type 0)."""
    out = []
    for rel in _files(path, lambda f: ".log." in f):
        with open(os.path.join(path, rel), "rb") as fh:
            b = fh.read()
        # "#HUDI#", int64 size, int32 version, int32 type
        if b[:6] == b"#HUDI#" and int.from_bytes(b[6:14], "big") + 14 == len(b) \
                and int.from_bytes(b[18:22], "big") == 0:
            out.append(rel)
    return out


def _spark_options(extra=None):
    o = h.write_options("mor_rb", "id", operation="upsert", precombine="ts", partition="part")
    o["hoodie.datasource.write.table.type"] = "MERGE_ON_READ"
    o["hoodie.compact.inline"] = "false"
    o["hoodie.clean.automatic"] = "false"
    if extra:
        o.update(extra)
    return o


def _need_hudic():
    why = (hudic_peer.missing("table", "create") or hudic_peer.missing("table", "write")
           or hudic_peer.missing("table", "cat") or hudic_peer.missing("table", "compact")
           or hudic_peer.missing("table", "clean") or hudic_peer.missing("sql"))
    if why:
        pytest.skip(why)


def test_spark_reads_hudic_mor_after_rollback_and_clean(tmp_path, spark015):
    _need_hudic()
    path = str(tmp_path / "hudic_mor_rb")
    state = {}
    _hudic_write(path, tmp_path, "insert", _rows(range(0, 10), "n", 1))
    _apply(state, _rows(range(0, 10), "n", 1))
    _hudic_write(path, tmp_path, "upsert", _rows([1, 2, 4], "u", 2))
    _apply(state, _rows([1, 2, 4], "u", 2))
    before = _expected(state)
    logs_before = _files(path, lambda f: ".log." in f)
    # a deltacommit that appends to both slices, then rolled back by hudic
    d2 = _hudic_write(path, tmp_path, "upsert", _rows([2, 3, 5], "x", 3))
    f_logs = sorted(set(_files(path, lambda f: ".log." in f)) - set(logs_before))
    assert len(f_logs) == 2, f_logs
    _hudic_sql(tmp_path, "CREATE TABLE mor_rb USING hudi LOCATION '%s'" % path,
               "CALL rollback_to_instant(table => 'mor_rb', instant_time => '%s')" % d2)
    assert d2 not in [t for t, _ in h.completed_instants(path)]
    # as Hudi 0.15 does: the log files stay, each slice gets a command-block log file
    assert all(os.path.exists(os.path.join(path, f)) for f in f_logs)
    cmds = _command_block_logs(path)
    assert len(cmds) == 2 and all(c.endswith("_1-0-1") for c in cmds), cmds
    assert _hudic_rows(path) == before

    spark = spark015()
    assert _data(spark.read(path, key_columns=KEYS).rows) == before

    # write on (versions after the command blocks), compact, write, clean keeping one commit
    _hudic_write(path, tmp_path, "upsert", _rows([3, 6], "y", 4))
    _apply(state, _rows([3, 6], "y", 4))
    _hudic("table", "compact", path)
    _hudic_write(path, tmp_path, "upsert", _rows([7, 8], "z", 5))
    _apply(state, _rows([7, 8], "z", 5))
    old_slices = [f for f in _files(path, lambda f: True)
                  if not f.endswith(".hoodie_partition_metadata")]
    out = _hudic("table", "clean", "--retain", "1", path)
    assert "cleaned" in out, out
    gone = [f for f in old_slices if not os.path.exists(os.path.join(path, f))]
    # the first slice of each group went whole: base file, hudic's logs, the command blocks
    assert any(".log." in f for f in gone) and any(f.endswith(".parquet") for f in gone), gone
    assert all(c in gone for c in cmds) and all(f in gone for f in f_logs), gone
    assert _hudic_rows(path) == _expected(state)
    assert _data(spark.read(path, key_columns=KEYS).rows) == _expected(state)
    ro = spark.read(path, key_columns=KEYS, options={"hoodie.datasource.query.type":
                                                      "read_optimized"})
    assert _data(ro.rows) == _hudic_rows(path, read_optimized=True)

    # Spark writes on top of the cleaned table; both read the same
    spark_rows = _rows([0, 9, 20], "s", 6)
    spark.write(path, spark_rows, SCHEMA, _spark_options())
    _apply(state, spark_rows)
    assert _data(spark.read(path, key_columns=KEYS).rows) == _expected(state)
    assert _hudic_rows(path) == _expected(state)


def _spark_seeded(spark, path):
    """A Spark MOR table at `path`: 10 inserted rows, then a deltacommit updating 3; its rows."""
    state = {}
    spark.write(path, _rows(range(0, 10), "n", 1), SCHEMA, _spark_options(
        {"hoodie.datasource.write.operation": "insert"}))
    _apply(state, _rows(range(0, 10), "n", 1))
    spark.write(path, _rows([1, 2, 4], "u", 2), SCHEMA, _spark_options())
    _apply(state, _rows([1, 2, 4], "u", 2))
    return state


def test_hudic_reads_spark_mor_after_rollback_and_clean(tmp_path, spark015):
    _need_hudic()
    spark = spark015()
    path = str(tmp_path / "spark_mor_rb")
    state = _spark_seeded(spark, path)
    before = _expected(state)
    d2 = spark.write(path, _rows([2, 3, 5], "x", 3), SCHEMA, _spark_options())
    assert h.completed_instants(path)[-1] == (d2, "deltacommit")
    spark.sql("SET hoodie.metadata.enable=false",
              "CREATE TABLE IF NOT EXISTS spark_mor_rb USING hudi LOCATION '%s'" % path,
              "CALL rollback_to_instant(table => 'spark_mor_rb', instant_time => '%s')" % d2)
    assert d2 not in [t for t, _ in h.completed_instants(path)]
    assert _command_block_logs(path), "Spark wrote no rollback command block"
    assert _data(spark.read(path, key_columns=KEYS).rows) == before
    assert _hudic_rows(path) == before

    # write on with inline compaction after this deltacommit, write again, clean
    spark.write(path, _rows([3, 6], "y", 4), SCHEMA, _spark_options(
        {"hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "1"}))
    _apply(state, _rows([3, 6], "y", 4))
    assert "commit" in [a for _, a in h.completed_instants(path)], "no compaction"
    spark.write(path, _rows([7, 8], "z", 5), SCHEMA, _spark_options())
    _apply(state, _rows([7, 8], "z", 5))
    files = _files(path, lambda f: ".log." in f or f.endswith(".parquet"))
    spark.sql("CALL run_clean(table => 'spark_mor_rb', retain_commits => 1)")
    gone = [f for f in files if not os.path.exists(os.path.join(path, f))]
    assert any(".log." in f for f in gone) and any(f.endswith(".parquet") for f in gone), gone
    assert _data(spark.read(path, key_columns=KEYS).rows) == _expected(state)
    assert _hudic_rows(path) == _expected(state)
    ro = spark.read(path, key_columns=KEYS, options={"hoodie.datasource.query.type":
                                                      "read_optimized"})
    assert _data(ro.rows) == _hudic_rows(path, read_optimized=True)


def test_hudic_rolls_back_a_failed_spark_write_with_timeline_server_markers(tmp_path, spark015):
    """A Spark deltacommit that fails after writing its log files (a pre-commit validator that
    cannot pass), with Spark's default markers: the embedded timeline server's MARKERS.type and
    MARKERS<n> files. hudic's next write rolls it back: the log files Spark appended to get
    rollback command blocks (which hudic finds only through the MARKERS files), and Spark and
    hudic then read the same rows."""
    _need_hudic()
    spark = spark015()
    path = str(tmp_path / "spark_mor_tsm")
    state = _spark_seeded(spark, path)
    failing = _spark_options({
        "hoodie.embed.timeline.server": "true",
        "hoodie.write.markers.type": "TIMELINE_SERVER_BASED",
        "hoodie.precommit.validators":
            "org.apache.hudi.client.validator.SqlQuerySingleResultPreCommitValidator",
        "hoodie.precommit.validators.single.value.sql.queries":
            "select count(*) from <TABLE_NAME> where id < 0#1",
    })
    with pytest.raises(h.PeerError):
        spark.write(path, _rows([2, 3, 5], "x", 3), SCHEMA, failing)
    temp = os.path.join(path, ".hoodie", ".temp")
    pending = [d for d in os.listdir(temp)] if os.path.isdir(temp) else []
    assert len(pending) == 1, pending
    folder = os.path.join(temp, pending[0])
    names = sorted(os.listdir(folder))
    with open(os.path.join(folder, "MARKERS.type")) as fh:
        assert fh.read() == "TIMELINE_SERVER_BASED", names
    lines = []
    for n in names:
        if n.startswith("MARKERS") and n != "MARKERS.type":
            with open(os.path.join(folder, n)) as fh:
                lines += [ln for ln in fh.read().splitlines() if ln]
    assert any(ln.endswith(".marker.APPEND") for ln in lines), lines
    before_cmds = set(_command_block_logs(path))

    _hudic_write(path, tmp_path, "upsert", _rows([7], "z", 4))
    _apply(state, _rows([7], "z", 4))
    assert pending[0] not in [t for t, _ in h.completed_instants(path)]
    assert not os.path.exists(folder)
    cmds = set(_command_block_logs(path)) - before_cmds
    appended = {os.path.dirname(ln) for ln in lines if ln.endswith(".marker.APPEND")}
    assert {os.path.dirname(c) for c in cmds} == appended, (cmds, lines)
    assert _hudic_rows(path) == _expected(state)
    assert _data(spark.read(path, key_columns=KEYS).rows) == _expected(state)


def _kill_once_a_log_file_is_written(path, inp):
    """Runs a `hudic table write` upsert with hoodie.write.markers.type=TIMELINE_SERVER_BASED and
    SIGKILLs it as soon as one of its MARKERS<n> files names an APPEND marker whose log file
    exists: (the killed write's instant, the marker lines) or None when it committed first."""
    import signal
    import subprocess
    import time
    p = subprocess.Popen([hudic_peer.HUDIC, "table", "write", "--op", "upsert", "--input", inp,
                          "--latest-wins", "--props",
                          "hoodie.write.markers.type=TIMELINE_SERVER_BASED,"
                          "hoodie.hudic.parallelism=1", path],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    temp = os.path.join(path, ".hoodie", ".temp")
    deadline = time.time() + 60
    try:
        while p.poll() is None and time.time() < deadline:
            for inst in os.listdir(temp) if os.path.isdir(temp) else []:
                folder = os.path.join(temp, inst)
                lines = []
                for n in os.listdir(folder) if os.path.isdir(folder) else []:
                    if n.startswith("MARKERS") and n != "MARKERS.type":
                        try:
                            with open(os.path.join(folder, n)) as fh:
                                lines += [ln for ln in fh.read().splitlines() if ln]
                        except FileNotFoundError:
                            pass
                for ln in lines:
                    f = ln[:-len(".marker.APPEND")]
                    if ln.endswith(".marker.APPEND") and os.path.exists(os.path.join(path, f)):
                        p.send_signal(signal.SIGKILL)
                        p.wait()
                        return inst, lines
            time.sleep(0.002)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return None


def test_spark_rolls_back_a_killed_hudic_write_with_timeline_server_markers(tmp_path, spark015):
    """hudic writes its markers in the timeline server's layout (hoodie.write.markers.type =
    TIMELINE_SERVER_BASED) and is killed after appending a log file; Spark's next write rolls
    the failed deltacommit back by those markers (Spark reads MARKERS.type, then the MARKERS<n>
    files): the log file's slice gets a rollback command block, and both read the rows of the
    committed writes only."""
    _need_hudic()
    spark = spark015()
    path = str(tmp_path / "hudic_mor_tsm")
    state = {}
    ids = range(0, 200000)
    _hudic_write(path, tmp_path, "insert", _rows(ids, "n", 1))
    _apply(state, _rows(ids, "n", 1))
    killed = None
    for attempt in range(4):
        inp = str(tmp_path / ("kill-%d.parquet" % attempt))
        pq.write_table(h.arrow_rows(_rows(ids, "k%d" % attempt, 2 + attempt),
                                    h.arrow_schema(SCHEMA)), inp)
        killed = _kill_once_a_log_file_is_written(path, inp)
        if killed:
            break
        _apply(state, _rows(ids, "k%d" % attempt, 2 + attempt))  # it committed first
    assert killed, "every write committed before a log file of it was seen"
    instant, lines = killed
    folder = os.path.join(path, ".hoodie", ".temp", instant)
    with open(os.path.join(folder, "MARKERS.type")) as fh:
        assert fh.read() == "TIMELINE_SERVER_BASED"
    assert not [d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d))]
    assert instant not in [t for t, _ in h.completed_instants(path)]
    before_cmds = set(_command_block_logs(path))

    spark.write(path, _rows([1, 3], "s", 10), SCHEMA, _spark_options())
    _apply(state, _rows([1, 3], "s", 10))
    assert instant not in [t for t, _ in h.completed_instants(path)]
    assert not os.path.exists(os.path.join(path, ".hoodie", instant + ".deltacommit.inflight"))
    cmds = set(_command_block_logs(path)) - before_cmds
    appended = {os.path.dirname(ln) for ln in lines if ln.endswith(".marker.APPEND")}
    assert cmds and {os.path.dirname(c) for c in cmds} <= appended, (cmds, lines)
    assert _data(spark.read(path, key_columns=KEYS).rows) == _expected(state)
    assert _hudic_rows(path) == _expected(state)
