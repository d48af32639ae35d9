"""test_mor_logfmt.py - the log files hudic writes to merge-on-read tables, read by Spark with
Hudi 0.15: Parquet data blocks (hoodie.logfile.data.block.format=parquet), records cut into
several data blocks (hoodie.logfile.data.block.max.size) and log files rolled over to the next
version at hoodie.logfile.max.size. hudic creates a MOR table, inserts, then upserts and deletes
with those settings; the test checks the block types and the log versions in the files, and
Spark and hudic read the snapshot the writes imply. Spark then appends a deltacommit after
hudic's rolled-over logs (its own Parquet blocks) and both read the result.

Needs `hudic table create --type mor`, `write --props` and `cat`; Spark runs live."""
import json
import os
import re
import struct

import pyarrow.parquet as pq
import pytest

import hudic_peer
import spark_harness as h

SCHEMA = "id INT, name STRING, ts BIGINT, part STRING"
KEYS = ["id"]
BLOCK_TYPES = {0: "command", 1: "delete", 3: "avro", 5: "parquet"}


def _rows(ids, tag, ts):
    return [{"id": i, "name": "%s%d" % (tag, i), "ts": ts, "part": "p%d" % (i % 2)}
            for i in ids]


def _hudic(*args):
    cp = hudic_peer.run(*args)
    assert cp.returncode == 0, "hudic %s: %s" % (" ".join(args),
                                                 cp.stderr.decode(errors="replace"))


def _hudic_write(path, work, op, rows, props=None):
    n = len([f for f in os.listdir(work) if f.endswith(".parquet")])
    inp = str(work / ("input-%03d.parquet" % n))
    pq.write_table(h.arrow_rows(rows, h.arrow_schema(SCHEMA)), inp)
    if not os.path.exists(os.path.join(path, ".hoodie", "hoodie.properties")):
        _hudic("table", "create", "--type", "mor", "--name", "hudic_logfmt", "--key", "id",
               "--partition", "part", "--precombine", "ts", "--schema-from", inp, path)
    extra = ["--props", ",".join("%s=%s" % kv for kv in props.items())] if props else []
    _hudic("table", "write", "--op", op, "--input", inp, "--latest-wins", *extra, path)


def _data(rows):
    return sorted(({c: r.get(c) for c in ("id", "name", "ts", "part")} for r in rows),
                  key=lambda r: r["id"])


def _hudic_rows(path):
    got = hudic_peer.run("table", "cat", path)
    assert got.returncode == 0, got.stderr
    return _data(json.loads(line) for line in got.stdout.decode().splitlines())


def _blocks(data):
    """(block type, INSTANT_TIME) of each block of a log file (docs/formats/log-file.md §1)."""
    out, pos = [], 0
    while pos < len(data):
        assert data[pos:pos + 6] == b"#HUDI#", "a block starts with the magic at %d" % pos
        size = struct.unpack(">q", data[pos + 6:pos + 14])[0]
        btype = struct.unpack(">i", data[pos + 18:pos + 22])[0]
        count, p, instant = struct.unpack(">i", data[pos + 22:pos + 26])[0], pos + 26, None
        for _ in range(count):
            key, n = struct.unpack(">ii", data[p:p + 8])
            if key == 0:
                instant = data[p + 8:p + 8 + n].decode()
            p += 8 + n
        out.append((BLOCK_TYPES.get(btype, btype), instant))
        pos += 14 + size
    return out


def _logs_of(path, instant):
    """{log file name: [block types]} of the log files holding blocks of `instant`."""
    found = {}
    for d, _, files in os.walk(path):
        if ".hoodie" in d:
            continue
        for f in files:
            if ".log." not in f or f.endswith(".crc"):
                continue
            with open(os.path.join(d, f), "rb") as fh:
                blocks = _blocks(fh.read())
            if any(i == instant for _, i in blocks):
                found[f] = [t for t, _ in blocks]
    return found


def _version(name):
    return int(re.search(r"\.log\.(\d+)_", name).group(1))


def test_spark_reads_parquet_blocks_and_rolled_over_logs(tmp_path, spark015):
    why = (hudic_peer.missing("table", "create") or hudic_peer.missing("table", "write")
           or hudic_peer.missing("table", "cat"))
    if why:
        pytest.skip(why)
    path = str(tmp_path / "hudic_logfmt")
    state = {}

    def apply(rows, delete=False):
        for r in rows:
            if delete:
                state.pop(r["id"], None)
            else:
                state[r["id"]] = dict(r)

    ids = range(0, 300)
    _hudic_write(path, tmp_path, "insert", _rows(ids, "n", 1))
    apply(_rows(ids, "n", 1))

    # one Parquet data block per touched file group (default limits)
    _hudic_write(path, tmp_path, "upsert", _rows(range(0, 300, 3), "q", 2),
                 {"hoodie.logfile.data.block.format": "parquet"})
    apply(_rows(range(0, 300, 3), "q", 2))
    i1 = h.completed_instants(path)[-1][0]
    logs = _logs_of(path, i1)
    assert logs and all(t == ["parquet"] for t in logs.values()), logs

    # tiny limits: several Parquet blocks, log files rolled over to the next versions, then
    # the deletes' block after the last data block
    tiny = {"hoodie.logfile.data.block.format": "parquet",
            "hoodie.logfile.data.block.max.size": "3000",
            "hoodie.logfile.max.size": "5000",
            "hoodie.parquet.compression.codec": "snappy"}
    _hudic_write(path, tmp_path, "upsert", _rows(ids, "r", 3), tiny)
    apply(_rows(ids, "r", 3))
    i2 = h.completed_instants(path)[-1][0]
    logs = _logs_of(path, i2)
    assert len(logs) > 2, logs  # two partitions, rolled over in each
    for name, types in logs.items():
        assert set(types) == {"parquet"}, (name, types)
    per_group = {}
    for name in logs:
        per_group.setdefault(name.split("_")[0], []).append(_version(name))
    for fid, versions in per_group.items():
        versions.sort()
        assert len(versions) > 1 and versions == list(range(versions[0], versions[-1] + 1)), \
            (fid, versions)

    # the same with Avro blocks, and deletes in the same deltacommit's logs
    tiny_avro = dict(tiny, **{"hoodie.logfile.data.block.format": "avro"})
    _hudic_write(path, tmp_path, "upsert", _rows(range(0, 300, 2), "a", 4), tiny_avro)
    apply(_rows(range(0, 300, 2), "a", 4))
    i3 = h.completed_instants(path)[-1][0]
    logs = _logs_of(path, i3)
    assert len(logs) > 2 and all(set(t) == {"avro"} for t in logs.values()), logs
    _hudic_write(path, tmp_path, "delete", _rows([5, 6, 7, 250], "d", 5), tiny)
    apply(_rows([5, 6, 7, 250], "d", 5), delete=True)
    done = h.completed_instants(path)
    assert [a for _, a in done] == ["deltacommit"] * 5, done

    expected = sorted(state.values(), key=lambda r: r["id"])
    assert _hudic_rows(path) == expected
    spark = spark015()
    assert _data(spark.read(path, key_columns=KEYS).rows) == expected

    # Spark appends after hudic's rolled-over logs, with its own Parquet blocks
    o = h.write_options("hudic_logfmt", "id", operation="upsert", precombine="ts",
                        partition="part")
    o["hoodie.datasource.write.table.type"] = "MERGE_ON_READ"
    o["hoodie.compact.inline"] = "false"
    o["hoodie.logfile.data.block.format"] = "parquet"
    spark_rows = _rows([1, 2, 299], "s", 6)
    si = spark.write(path, spark_rows, SCHEMA, o)
    assert si and si > done[-1][0]
    apply(spark_rows)
    spark_logs = _logs_of(path, si)
    assert spark_logs and all("parquet" in t for t in spark_logs.values()), spark_logs
    expected = sorted(state.values(), key=lambda r: r["id"])
    assert _data(spark.read(path, key_columns=KEYS).rows) == expected
    assert _hudic_rows(path) == expected
