"""test_concurrent_writers.py - hudic and Apache Hudi 0.15 on Spark writing one table at the same
time, both with optimistic concurrency control and Hudi's FileSystemBasedLockProvider
(docs/formats/concurrency.md): they take the same lock file (.hoodie/lock), so each waits while
the other holds it; every commit either acknowledged survives; afterwards hudic and Spark read
the same rows. hudic writes through `hudic table write --props` (settings as Hudi names them),
Spark through the datasource with the same settings."""
import fcntl
import json
import os
import socket
import threading
import time

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h

FS_LOCK = "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider"
OCC = {
    "hoodie.write.concurrency.mode": "optimistic_concurrency_control",
    "hoodie.cleaner.policy.failed.writes": "LAZY",
    "hoodie.write.lock.provider": FS_LOCK,
}
DDL = "id int, name string, ts long, part string"
TABLE = {"name": "occ", "record_key": "id", "partition": "part", "precombine": "ts"}
ROWS = 200


def _need_hudic():
    why = hudic_peer.missing("table", "write") or hudic_peer.missing("table", "cat")
    if why:
        pytest.skip(why)


def _rows(first, tag, part):
    return [{"id": first + i, "name": "%s%d" % (tag, first + i), "ts": 1, "part": part}
            for i in range(ROWS)]


def _props(extra=None):
    p = dict(OCC)
    p.update(extra or {})
    return ",".join("%s=%s" % kv for kv in sorted(p.items()))


def _hudic_write(path, rows, tmp, n, extra=None):
    """One `hudic table write` (upsert, OCC): (exit code, committed instant or None, stderr)."""
    inp = os.path.join(tmp, "in-%03d.parquet" % n)
    pq.write_table(h.arrow_rows(rows, h.arrow_schema(DDL)), inp)
    cp = hudic_peer.run("table", "write", "--op", "upsert", "--input", inp, "--props",
                        _props(extra), path)
    out = cp.stdout.decode(errors="replace")
    instant = out.split()[1] if cp.returncode == 0 and out.startswith("committed ") else None
    return cp.returncode, instant, cp.stderr.decode(errors="replace")


def _spark_options():
    return h.write_options(TABLE["name"], TABLE["record_key"], operation="upsert",
                           precombine=TABLE["precombine"], partition=TABLE["partition"],
                           extra=dict(OCC, **{
                               # fail fast rather than wait minutes when the lock is held
                               "hoodie.write.lock.wait_time_ms": "2000",
                               "hoodie.write.lock.num_retries": "3",
                               "hoodie.write.lock.wait_time_ms_between_retry": "500",
                               "hoodie.write.lock.client.num_retries": "3",
                               "hoodie.write.lock.client.wait_time_ms_between_retry": "500",
                               # keep every instant on the active timeline, so the test can
                               # find each acknowledged commit there (no archival)
                               "hoodie.keep.min.commits": "80",
                               "hoodie.keep.max.commits": "90",
                           }))


def _ids(res):
    return sorted(r["id"] for r in res.rows)


@pytest.fixture
def table(tmp_path):
    """A hudic-created table with one hudic commit; (path, scratch folder)."""
    _need_hudic()
    path = str(tmp_path / "t")
    tmp = str(tmp_path / "inputs")
    hudic_peer.write(path, "insert", TABLE, h.arrow_schema(DDL), _rows(0, "seed", "h"), tmp)
    return path, tmp


def test_spark_and_hudic_write_at_the_same_time(table, spark015):
    path, tmp = table
    spark = spark015()
    opts = _spark_options()
    spark_acks, spark_errors = [], []

    def spark_loop():
        for r in range(3):
            rows = _rows(100000 + r * 1000, "s", "s")
            for _ in range(5):
                try:
                    spark_acks.append((r, spark.write(path, rows, DDL, opts)))
                    break
                except h.PeerError as e:
                    # a conflict or a lock held too long: retry, as a Spark user would
                    if "onflict" not in str(e) and "lock" not in str(e).lower():
                        spark_errors.append(str(e)[:2000])
                        return

    th = threading.Thread(target=spark_loop)
    th.start()
    hudic_acks, n, r, tries = [], 0, 0, 0
    while (th.is_alive() or r < 4) and r < 30:
        rc, instant, err = _hudic_write(path, _rows(200000 + r * 1000, "h", "h"), tmp, n)
        n += 1
        if rc == 0:
            hudic_acks.append((r, instant))
            r += 1
            tries = 0
        else:
            tries += 1
            assert ("write conflict" in err or "being written by another writer" in err) \
                and tries < 10, err
        time.sleep(0.3)
    th.join()
    assert not spark_errors, spark_errors[0]
    assert len(spark_acks) == 3 and len(hudic_acks) >= 4

    done = {t for t, _ in h.completed_instants(path)}
    for _, instant in hudic_acks:
        assert instant in done, "hudic's acknowledged %s is gone" % instant
    want = set(range(ROWS))
    for r, _ in spark_acks:
        want |= set(range(100000 + r * 1000, 100000 + r * 1000 + ROWS))
    for r, _ in hudic_acks:
        want |= set(range(200000 + r * 1000, 200000 + r * 1000 + ROWS))
    keys = ["_hoodie_partition_path", "_hoodie_record_key"]
    mine = hudic_peer.cat(path, key_columns=keys)
    theirs = spark.read(path, key_columns=keys)
    assert _ids(mine) == sorted(want)
    d = h.difference(theirs, mine, "after concurrent writes")
    assert d is None, d
    assert not os.path.exists(os.path.join(path, ".hoodie", "lock"))


def _hold_lock_as_hudic(path):
    """Takes .hoodie/lock the way a hudic process does (flock, then link into place) and
    returns the open file; closing it is what that process's death would do."""
    lock = os.path.join(path, ".hoodie", "lock")
    tmp = lock + ".hudic-tmp-%d-0" % os.getpid()
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    info = {"lockCreateTime": time.strftime("%Y-%m-%d %H:%M:%S.000"),
            "lockThreadName": "hudic pid %d on %s" % (os.getpid(), socket.gethostname()),
            "lockStacksInfo": []}
    os.write(fd, json.dumps(info, indent=2).encode())
    os.link(tmp, lock)
    os.unlink(tmp)
    return fd, lock


def test_one_lock_file_excludes_both(table, spark015):
    path, tmp = table
    spark = spark015()
    fd, lock = _hold_lock_as_hudic(path)
    try:
        rc, _, err = _hudic_write(path, _rows(300000, "h", "h"), tmp, 900,
                                  {"hoodie.write.lock.wait_time_ms": "300"})
        assert rc != 0 and "being written by another writer (hudic pid %d" % os.getpid() in err, \
            err
        with pytest.raises(h.PeerError) as e:
            spark.write(path, _rows(400000, "s", "s"), DDL, _spark_options())
        assert "unable to acquire lock" in str(e.value).lower(), str(e.value)[:2000]
        # Hudi 0.15 then deletes .hoodie/lock although it never held it: its
        # FileSystemBasedLockProvider.close() deletes the file unconditionally. A hudic writer
        # holding the lock notices before it commits (the file is no longer the one it
        # created) and fails with a conflict instead of committing without exclusion.
    finally:
        os.close(fd)  # the holder dies: its flock goes, the file stays
    # hudic breaks the lock of a dead hudic process of this host at once, then Spark can go
    rc, instant, err = _hudic_write(path, _rows(300000, "h", "h"), tmp, 901,
                                    {"hoodie.write.lock.wait_time_ms": "0"})
    assert rc == 0, err
    spark_instant = spark.write(path, _rows(400000, "s", "s"), DDL, _spark_options())
    assert spark_instant > instant
    keys = ["_hoodie_partition_path", "_hoodie_record_key"]
    mine = hudic_peer.cat(path, key_columns=keys)
    assert len(mine.rows) == 3 * ROWS
    d = h.difference(spark.read(path, key_columns=keys), mine, "after the lock was released")
    assert d is None, d


def test_killed_writers_leave_a_table_both_read(table, spark015):
    """The issue's stress scenario with Spark as the judge: four hudic processes upsert disjoint
    keys into one table at the same time (default single-writer mode: the table lock), several
    rounds each, and some are killed with SIGKILL mid-write. Afterwards every acknowledged
    commit's rows are there exactly once, a killed write is either wholly committed or wholly
    invisible, the next write recovers the table, and Spark-Hudi reads exactly what hudic
    reads."""
    import random
    import signal
    import subprocess

    path, tmp = table
    rng = random.Random(7)
    acked, killed = [], []  # (first key, instant); first keys of killed writes
    n = 0
    for rnd in range(4):
        procs = []
        for w in range(4):
            first = 500000 + rnd * 10000 + w * 1000
            inp = os.path.join(tmp, "kill-%03d.parquet" % n)
            n += 1
            rows = [{"id": first + i, "name": "k%d" % (first + i), "ts": 1, "part": "p%d" % w}
                    for i in range(ROWS)]
            pq.write_table(h.arrow_rows(rows, h.arrow_schema(DDL)), inp)
            p = subprocess.Popen([hudic_peer.HUDIC, "table", "write", "--op", "upsert",
                                  "--input", inp, path], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            procs.append((first, p))
        victims = set(rng.sample(range(4), 1 if rnd % 2 == 0 else 2))
        time.sleep(rng.uniform(0.05, 0.4))
        for i in victims:
            procs[i][1].send_signal(signal.SIGKILL)
        for i, (first, p) in enumerate(procs):
            out, err = p.communicate(timeout=hudic_peer.TIMEOUT_S)
            out = out.decode(errors="replace")
            if p.returncode == 0:
                assert out.startswith("committed "), out
                acked.append((first, out.split()[1]))
            elif p.returncode == -signal.SIGKILL:
                killed.append(first)
            else:  # a live writer never fails: it waits for the lock
                pytest.fail("writer %d failed: %s" % (i, err.decode(errors="replace")))
    assert acked and killed, "acknowledged %d, killed %d: the test needs both" % (
        len(acked), len(killed))
    # The next write rolls back what the killed writers left pending, then commits.
    rc, instant, err = _hudic_write(path, _rows(900000, "z", "z"), tmp, 999)
    assert rc == 0, err

    done = {t for t, _ in h.completed_instants(path)}
    for _, inst in acked:
        assert inst in done, "acknowledged %s is gone" % inst
    keys = ["_hoodie_partition_path", "_hoodie_record_key"]
    mine = hudic_peer.cat(path, key_columns=keys)
    ids = _ids(mine)
    assert len(ids) == len(set(ids)), "a key is present twice"
    present = set(ids)
    want = set(range(ROWS)) | set(range(900000, 900000 + ROWS))
    for first, _ in acked:
        want |= set(range(first, first + ROWS))
    assert want <= present, "acknowledged rows are missing"
    for first in killed:  # all or nothing
        got = len(present & set(range(first, first + ROWS)))
        assert got in (0, ROWS), "a killed write is partly visible (%d rows)" % got
        want |= set(range(first, first + ROWS)) if got else set()
    assert present == want, "rows nobody wrote"
    d = h.difference(spark015().read(path, key_columns=keys), mine, "after killed writers")
    assert d is None, d
