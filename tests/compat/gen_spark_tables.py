"""gen_spark_tables.py - the tables Apache Hudi 0.15 on Spark writes for the interoperability
tests, the queries run on them, and what Spark (0.15.x and 1.0.x bundles) returns for each.

Each scenario is a sequence of writes (datasource operations or Spark SQL statements); every
step makes exactly one completed commit or replacecommit. For N steps the queries are:
snapshot; as_of_K (time travel to step K's instant, K < N); incr_K (changes in
(instant K-1, instant K], with "000" before the first); incr_all ((000, instant N]); columns
(a projection of the snapshot).

Generating costs a few minutes of Spark, so the result is cached: $HUDIC_CACHE/spark-tables/KEY/
(default ~/.cache/hudic/...) holds one table folder per scenario plus manifest.json with the
instants and every reader's rendered rows. KEY hashes this file, spark_harness.py,
versions.env, log4j2.properties and tests/conformance/normalise.py, so changing any of them
regenerates; anything else reuses the tables. Run directly to (re)generate:
    python3 tests/compat/gen_spark_tables.py [--force]
"""
import hashlib
import json
import os
import shutil
import sys
import time

import spark_harness as h

# ---- Data --------------------------------------------------------------------------------------

RICH = ("id int, name string, price double, score float, qty int, amount decimal(10,2), "
        "day date, event_ts timestamp, tags array<string>, attrs map<string,int>, "
        "addr struct<city:string,zip:int>, ts long, part string")


def rich(i, name, ts, part="p0", **kw):
    """One row of the RICH schema; values derive from i so every column is checked."""
    r = {"id": i, "name": name, "price": i * 1.25, "score": i / 3.0, "qty": i * 10,
         "amount": "%d.%02d" % (i * 7, i % 100), "day": "2024-01-%02d" % (i % 28 + 1),
         "event_ts": "2024-03-%02dT%02d:15:30.%06dZ" % (i % 28 + 1, i % 24, i * 1001),
         "tags": ["t%d" % j for j in range(i % 3)], "attrs": {"a": i, "b": i + 1},
         "addr": {"city": "city%d" % (i % 4), "zip": 10000 + i}, "ts": ts, "part": part}
    r.update(kw)
    return r


TYPES = ("key string, b boolean, i8 tinyint, i16 smallint, i32 int, i64 bigint, f32 float, "
         "f64 double, dec_small decimal(5,2), dec_big decimal(30,8), s string, bin binary, "
         "d date, t timestamp, arr array<int>, arr_of_struct array<struct<x:int,y:string>>, "
         "m map<string,double>, nested struct<inner:struct<v:long,w:array<string>>,u:string>, "
         "ts long")


def typed(k, variant):
    """Rows that exercise edge values: nulls at every level, empty containers, negative and
    big decimals, pre-1970 dates and timestamps, non-ASCII text, binary. Variant 3 has null
    list elements, which only the bulk-insert row writer takes: Hudi 0.15's Avro write path
    (upsert, and any merge into a file holding such a row) fails with "Array contains a null
    element" because parquet-avro writes the old two-level list layout by default."""
    if variant == 3:
        return dict(typed(k, 0), arr=[1, None, 3], arr_of_struct=[{"x": 1, "y": "a"}, None])
    if variant == 0:
        return {"key": k, "b": True, "i8": -128, "i16": 32767, "i32": -2147483648,
                "i64": 9223372036854775807, "f32": 1.5, "f64": -0.1, "dec_small": "-999.99",
                "dec_big": "1234567890123456789012.12345678", "s": "h\u00e9llo \u2603",
                "bin": "AAEC/w==", "d": "1969-12-31", "t": "1969-12-31T23:59:59.999999Z",
                "arr": [1, 2, 3], "arr_of_struct": [{"x": 1, "y": "a"}, {"x": None, "y": None}],
                "m": {"k1": 1.0, "k2": None}, "nested": {"inner": {"v": 5, "w": ["p", "q"]},
                                                         "u": "x"}, "ts": 1}
    if variant == 1:
        return {"key": k, "b": False, "i8": 0, "i16": 0, "i32": 0, "i64": 0, "f32": 0.1,
                "f64": 1e300, "dec_small": "0.05", "dec_big": "-0.00000001", "s": "",
                "bin": "", "d": "2038-01-19", "t": "2262-04-11T23:47:16.854775Z", "arr": [],
                "arr_of_struct": [], "m": {}, "nested": {"inner": None, "u": None}, "ts": 1}
    return {"key": k, "b": None, "i8": None, "i16": None, "i32": None, "i64": None,
            "f32": None, "f64": None, "dec_small": None, "dec_big": None, "s": None,
            "bin": None, "d": None, "t": None, "arr": None, "arr_of_struct": None, "m": None,
            "nested": None, "ts": 1}


DAY0_MS, DAY_MS = 1700000000000, 86400000

# Spark 3.5's vectorized Parquet reader fails on the bulk-insert row writer's tinyint and
# smallint columns (INT32 annotated INT(8)/INT(16), read as the table schema's int): an NPE,
# "Cannot load from int array because this.intData is null". Spark's row-based reader reads
# them; scenarios with those columns use it (spark_read_conf).
NO_VECTORIZED = {"spark.sql.parquet.enableVectorizedReader": "false"}

# ---- Scenarios ---------------------------------------------------------------------------------
# table: write_options() arguments. steps: (operation, rows) or ("sql", statement) with
# {path} and {table} substituted. expect: id -> name in the final snapshot (None: absent), a
# check that the scenario did what it says before any reader is compared.

SCENARIOS = {
    "nonpart_simple_latest": {
        "doc": "non-partitioned, simple key, latest-write-wins payload; in-batch duplicate "
               "keys (the larger precombine value wins), an update with a smaller precombine "
               "value than stored (still wins: latest payload), delete by key, plain insert",
        "schema": RICH,
        "table": {"record_key": "id", "precombine": "ts"},
        "steps": [
            ("insert", [rich(i, "v1", 10) for i in range(1, 7)]),
            ("upsert", [rich(1, "v2", 20), rich(2, "v2", 5), rich(7, "v1", 10),
                        rich(3, "v3a", 30), rich(3, "v3b", 25)]),
            ("delete", [rich(4, "v1", 10), rich(5, "v1", 10)]),
            ("insert", [rich(8, "v1", 10), rich(9, "v1", 10)]),
        ],
        "expect": {1: "v2", 2: "v2", 3: "v3a", 4: None, 5: None, 6: "v1", 7: "v1", 8: "v1",
                   9: "v1"},
    },
    "part_simple_ordering": {
        "doc": "partitioned (plain folders), simple key, ordering-field-wins payload; bulk "
               "insert, an upsert whose smaller precombine value loses to the stored record, "
               "soft delete with _hoodie_is_deleted, insert_overwrite of one partition",
        "schema": RICH + ", _hoodie_is_deleted boolean",
        "table": {"record_key": "id", "precombine": "ts", "partition": "part",
                  "payload": "ordering"},
        "steps": [
            ("bulk_insert", [rich(i, "v1", 10, "p%d" % (i % 3), _hoodie_is_deleted=False)
                             for i in range(1, 9)]),
            ("upsert", [rich(2, "v2", 20, "p2", _hoodie_is_deleted=False),
                        rich(5, "v2", 5, "p2", _hoodie_is_deleted=False),
                        rich(9, "v1", 10, "p0", _hoodie_is_deleted=False),
                        rich(3, "v3a", 30, "p0", _hoodie_is_deleted=False),
                        rich(3, "v3b", 25, "p0", _hoodie_is_deleted=False)]),
            ("upsert", [rich(6, "gone", 50, "p0", _hoodie_is_deleted=True)]),
            ("insert_overwrite", [rich(i, "new", 10, "p1", _hoodie_is_deleted=False)
                                  for i in (20, 21)]),
        ],
        "expect": {1: None, 2: "v2", 3: "v3a", 4: None, 5: "v1", 6: None, 7: None, 8: "v1",
                   9: "v1", 20: "new", 21: "new"},
    },
    "complex_hive": {
        "doc": "complex key (id, kind), two hive-style partition fields (region, year); "
               "insert, upsert, delete, insert_overwrite_table (replaces every file group)",
        "schema": "id int, kind string, name string, amount decimal(12,3), ts long, "
                  "region string, year int",
        "table": {"record_key": "id,kind", "precombine": "ts", "partition": "region,year",
                  "hive_style": True},
        "steps": [
            ("insert", [{"id": i, "kind": k, "name": "v1", "amount": "%d.5" % i, "ts": 1,
                         "region": r, "year": y}
                        for i, k, r, y in [(1, "a", "eu", 2023), (1, "b", "eu", 2023),
                                           (2, "a", "us", 2024), (3, "a", "us", 2023),
                                           (4, "c", "eu", 2024)]]),
            ("upsert", [{"id": 1, "kind": "b", "name": "v2", "amount": "-1.125", "ts": 2,
                         "region": "eu", "year": 2023},
                        {"id": 5, "kind": "a", "name": "v1", "amount": "0.001", "ts": 1,
                         "region": "apac", "year": 2024}]),
            ("delete", [{"id": 3, "kind": "a", "name": "v1", "amount": "3.5", "ts": 1,
                         "region": "us", "year": 2023}]),
            ("insert_overwrite_table", [{"id": 6, "kind": "z", "name": "only", "amount": "6",
                                         "ts": 1, "region": "eu", "year": 2025}]),
        ],
        "expect": {1: None, 2: None, 3: None, 4: None, 5: None, 6: "only"},
    },
    "sql_dml": {
        "doc": "Spark SQL: CREATE TABLE ... USING hudi PARTITIONED BY (dt), INSERT INTO, "
               "UPDATE, MERGE INTO (update + insert), DELETE FROM, INSERT OVERWRITE of a "
               "partition",
        "table": {"record_key": "id", "precombine": "ts", "partition": "dt"},
        "sql_setup": [
            "CREATE TABLE {table} (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) "
            "USING hudi PARTITIONED BY (dt) LOCATION '{path}' TBLPROPERTIES (type = 'cow', "
            "primaryKey = 'id', preCombineField = 'ts', 'hoodie.metadata.enable' = 'false', "
            "'hoodie.embed.timeline.server' = 'false', 'hoodie.write.markers.type' = 'DIRECT')",
        ],
        "steps": [
            ("sql", "INSERT INTO {table} VALUES (1, 'v1', 1.5, 10, '2024-01-01'), "
                    "(2, 'v1', 2.5, 10, '2024-01-01'), (3, 'v1', 3.5, 10, '2024-01-02'), "
                    "(4, 'v1', 4.5, 10, '2024-01-02'), (5, 'v1', 5.5, 10, '2024-01-03')"),
            ("sql", "UPDATE {table} SET name = 'v2', price = price * 2, ts = 20 WHERE id = 1"),
            ("sql", "MERGE INTO {table} t USING (SELECT 2 AS id, 'v2' AS name, 0.25 AS price, "
                    "20L AS ts, '2024-01-01' AS dt UNION ALL SELECT 6, 'v1', 6.5, 10L, "
                    "'2024-01-03') s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * "
                    "WHEN NOT MATCHED THEN INSERT *"),
            ("sql", "DELETE FROM {table} WHERE id = 5"),
            ("sql", "INSERT OVERWRITE {table} PARTITION (dt = '2024-01-02') "
                    "SELECT 7, 'ow', 7.5, 10L"),
        ],
        "expect": {1: "v2", 2: "v2", 3: None, 4: None, 5: None, 6: "v1", 7: "ow"},
    },
    "no_meta_fields": {
        "doc": "hoodie.populate.meta.fields=false: base files without _hoodie_* columns; "
               "hive-style partitions; insert then upsert",
        "schema": "id int, name string, ts long, part string",
        "columns": ["id", "name"],
        "table": {"record_key": "id", "precombine": "ts", "partition": "part",
                  "hive_style": True, "meta_fields": False},
        "steps": [
            ("insert", [{"id": i, "name": "v1", "ts": 1, "part": "p%d" % (i % 2)}
                        for i in range(1, 5)]),
            ("upsert", [{"id": 2, "name": "v2", "ts": 2, "part": "p0"},
                        {"id": 5, "name": "v1", "ts": 1, "part": "p1"}]),
        ],
        "expect": {1: "v1", 2: "v2", 3: "v1", 4: "v1", 5: "v1"},
    },
    "types_bulk_then_upsert": {
        "doc": "every Spark type with edge values and nulls at every level, first through the "
               "bulk-insert row writer, then rewritten by an upsert (Avro write path: other "
               "Parquet list/map layouts, tinyint/smallint as plain INT32), then a second bulk "
               "insert, so the snapshot mixes files of both writers",
        "schema": TYPES,
        "columns": ["_hoodie_record_key", "f32", "dec_big", "nested"],
        "table": {"record_key": "key", "precombine": "ts"},
        "spark_read_conf": NO_VECTORIZED,
        "steps": [
            ("bulk_insert", [typed("k%d" % v, v) for v in range(3)]),
            ("upsert", [dict(typed("k1", 0), key="k1", ts=2), typed("k3", 1)]),
            ("bulk_insert", [typed("k4", 0), typed("k5", 2)]),
        ],
        "expect": {},
    },
    "bulk_insert_null_elements": {
        "doc": "the bulk-insert row writer's three-level lists holding null elements (which "
               "Hudi's Avro write path cannot write)",
        "schema": TYPES,
        "columns": ["_hoodie_record_key", "arr", "arr_of_struct"],
        "table": {"record_key": "key", "precombine": "ts"},
        "spark_read_conf": NO_VECTORIZED,
        "steps": [("bulk_insert", [typed("k0", 3), typed("k1", 2)])],
        "expect": {},
        "spark_cannot_merge": True,  # see typed(): an upsert into this table fails in Spark
    },
    "timestamp_keygen": {
        "doc": "TimestampBasedKeyGenerator: epoch-millis column formatted yyyy/MM/dd into "
               "three-level plain partition folders",
        "schema": "id int, name string, ts long, event_ms long",
        "table": {"record_key": "id", "precombine": "ts", "partition": "event_ms",
                  "keygen": "timestamp",
                  "extra": {"hoodie.keygen.timebased.timestamp.type": "EPOCHMILLISECONDS",
                            "hoodie.keygen.timebased.output.dateformat": "yyyy/MM/dd",
                            "hoodie.keygen.timebased.timezone": "UTC"}},
        # Spark's snapshot and time-travel reads take this column's value from the partition
        # path: 0.15 gives the formatted folder ("2023/11/15"), 1.0 the value as a string;
        # the files (and incremental reads, and hudi-rs) hold the long.
        "spark_value_from_path": ["event_ms"],
        "steps": [
            ("insert", [{"id": i, "name": "v1", "ts": 1, "event_ms": DAY0_MS + i * DAY_MS}
                        for i in range(1, 4)]),
            ("upsert", [{"id": 2, "name": "v2", "ts": 2, "event_ms": DAY0_MS + 2 * DAY_MS}]),
        ],
        "expect": {1: "v1", 2: "v2", 3: "v1"},
    },
}


def query_ids(sc):
    n = len(sc["steps"])
    ids = ["snapshot"] + ["as_of_%d" % k for k in range(1, n)]
    # Hudi answers incremental queries from _hoodie_commit_time: not without meta fields.
    if sc["table"].get("meta_fields", True):
        ids += ["incr_%d" % k for k in range(1, n + 1)] + ["incr_all"]
    return ids + ["columns"]


def query_args(sc, qid, instants):
    """The reader arguments of a query id, given the scenario's instants (one per step)."""
    if qid == "snapshot":
        return {}
    if qid.startswith("as_of_"):
        return {"as_of": instants[int(qid[6:]) - 1]}
    if qid.startswith("incr_") and qid != "incr_all":
        k = int(qid[5:])
        return {"incremental": [instants[k - 2] if k > 1 else "000", instants[k - 1]]}
    if qid == "incr_all":
        return {"incremental": ["000", instants[-1]]}
    if qid == "columns":
        return {"columns": sc.get("columns", ["_hoodie_record_key", "id", "name"])}
    raise ValueError(qid)


def read_conf(sc):
    return sc.get("spark_read_conf")


def spark_ignores(sc, args):
    """Columns to leave out when comparing a Spark read with another reader's: those whose
    value Spark takes from the partition path on snapshot and time-travel reads."""
    if args.get("incremental"):
        return ()
    return tuple(sc.get("spark_value_from_path", ()))


def key_columns(sc):
    """Sort columns for readers' rows: the meta columns when the table has them, else the
    record key fields."""
    if sc["table"].get("meta_fields", True):
        return None
    return sc["table"]["record_key"].split(",")


# ---- Cache -------------------------------------------------------------------------------------

KEY_FILES = [os.path.abspath(__file__), os.path.join(h.HERE, "spark_harness.py"),
             os.path.join(h.HERE, "versions.env"), os.path.join(h.HERE, "log4j2.properties"),
             os.path.join(h.ROOT, "tests", "conformance", "normalise.py")]


def cache_key():
    d = hashlib.sha256()
    for p in KEY_FILES:
        with open(p, "rb") as f:
            d.update(hashlib.sha256(f.read()).digest())
    return d.hexdigest()[:16]


def cache_dir(key=None):
    return os.path.join(h.CACHE, "spark-tables", key or cache_key())


def load_cached(key=None):
    """(folder, manifest) when the key's tables exist (default: the current key), else None."""
    d = cache_dir(key)
    m = os.path.join(d, "manifest.json")
    if not os.path.exists(m):
        return None
    with open(m) as f:
        return d, json.load(f)


def ensure(log=None, force=False):
    """Returns (folder, manifest), generating with Spark when the cache has no tables for the
    current key. Raises h.PeerError when Spark is needed and cannot run."""
    key = cache_key()  # once: the tables belong to the files as they were when we started
    got = None if force else load_cached(key)
    if got:
        return got
    why = h.spark_missing(h.WRITER)
    if why:
        raise h.PeerError(why)
    final = cache_dir(key)
    tmp = "%s.tmp-%d" % (final, os.getpid())
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        manifest = generate(tmp, key, log or (lambda s: None))
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    with open(os.path.join(tmp, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    if force:
        shutil.rmtree(final, ignore_errors=True)
    try:
        os.rename(tmp, final)
    except OSError:  # a concurrent run got there first; its tables are as good
        shutil.rmtree(tmp, ignore_errors=True)
    _prune(key)
    return load_cached(key)


def _prune(key):
    """Removes tables of other keys (older versions of these files) and leftovers of
    generations that died, so the cache holds one set of tables."""
    base = os.path.dirname(cache_dir(key))
    for name in os.listdir(base):
        if name == key:
            continue
        if ".tmp-" in name:
            try:
                os.kill(int(name.rsplit("-", 1)[1]), 0)
                continue  # a generation still running
            except (ValueError, ProcessLookupError):
                pass
            except PermissionError:
                continue
        shutil.rmtree(os.path.join(base, name), ignore_errors=True)


def _run_step(peer, sc, name, path, step):
    op, payload = step
    if op == "sql":
        peer.sql(payload.format(path=path, table=name))
        return
    t = dict(sc["table"])
    extra = t.pop("extra", None)
    opts = h.write_options(name, operation=op, extra=extra, **t)
    mode = "overwrite" if not os.path.exists(os.path.join(path, ".hoodie")) else "append"
    peer.request("write", path=path, rows=payload, schema=sc["schema"], options=opts, mode=mode)


def generate(out, key, log):
    timings = {}
    t0 = time.time()
    peer = h.SparkPeer(h.WRITER)
    timings["spark_%s_start_s" % h.WRITER] = round(peer.start_s, 1)
    log("spark %s started in %.1f s" % (h.WRITER, peer.start_s))
    manifest = {"key": key, "versions": h.VERSIONS, "spark": peer.spark_version,
                "scenarios": {}}
    try:
        for name, sc in SCENARIOS.items():
            ts = time.time()
            path = os.path.join(out, name)
            for s in sc.get("sql_setup", []):
                peer.sql(s.format(path=path, table=name))
            instants = []
            for i, step in enumerate(sc["steps"]):
                _run_step(peer, sc, name, path, step)
                done = [t for t, _ in h.completed_instants(path)]
                new = [t for t in done if t not in instants]
                if len(new) != 1:
                    raise h.PeerError("%s step %d (%s) made %d completed write instants, "
                                      "expected 1: %s" % (name, i + 1, step[0], len(new), new))
                instants.append(new[0])
            entry = {"doc": sc["doc"], "instants": instants, "queries": {},
                     "actions": h.completed_instants(path)}
            for qid in query_ids(sc):
                args = query_args(sc, qid, instants)
                res = peer.read(path, key_columns=key_columns(sc), conf=read_conf(sc), **args)
                entry["queries"][qid] = {"args": args, "results": {h.WRITER: res.to_json()}}
            manifest["scenarios"][name] = entry
            timings["write_and_read_%s_s" % name] = round(time.time() - ts, 1)
            log("%s: %d steps, %.1f s" % (name, len(instants), time.time() - ts))
    finally:
        peer.close()
    ts = time.time()
    try:
        peer2 = h.SparkPeer(h.READER2)
    except h.PeerError as e:
        peer2 = None
        manifest["reader2_error"] = str(e)
    if peer2:
        try:
            for name, entry in manifest["scenarios"].items():
                path = os.path.join(out, name)
                for qid, q in entry["queries"].items():
                    try:
                        sc = SCENARIOS[name]
                        r = peer2.read(path, key_columns=key_columns(sc), conf=read_conf(sc),
                                       **q["args"]).to_json()
                    except h.PeerError as e:
                        r = {"error": str(e)}
                    q["results"][h.READER2] = r
        finally:
            peer2.close()
        timings["spark_%s_reads_s" % h.READER2] = round(time.time() - ts, 1)
    timings["total_s"] = round(time.time() - t0, 1)
    manifest["timings"] = timings
    log("generated in %.1f s" % timings["total_s"])
    return manifest


if __name__ == "__main__":
    t = time.time()
    d, m = ensure(log=lambda s: print("gen_spark_tables: " + s, flush=True),
                  force="--force" in sys.argv)
    print("gen_spark_tables: %s (%.1f s; generation timings %s)" % (d, time.time() - t,
                                                                    m.get("timings")))
