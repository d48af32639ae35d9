"""test_spark_tables.py - tables that Apache Hudi 0.15 on Spark writes (gen_spark_tables.py:
partitioned and not; simple, complex and timestamp keys; insert, bulk_insert, upsert with
out-of-order precombine values, delete, soft delete, insert_overwrite(_table), Spark SQL DML;
with and without meta fields) read by every peer with the rows Spark itself reads back:
hudic (`hudic table cat`), hudi-rs, and Spark with the Hudi 1.0 bundle. Snapshot, time travel
to every earlier commit, incremental for every commit and for all of them, and a projection.

The tables and Spark's results are cached (see gen_spark_tables.py), so a warm run starts no
JVM."""
import os

import pytest

import gen_spark_tables as gen
import hudic_peer
import spark_harness as h

SCENARIOS = gen.SCENARIOS
QUERIES = [pytest.param(n, q, id="%s-%s" % (n, q))
           for n, sc in SCENARIOS.items() for q in gen.query_ids(sc)]


def _query(spark_tables, name, qid):
    folder, manifest = spark_tables
    q = manifest["scenarios"][name]["queries"][qid]
    return os.path.join(folder, name), q


def _spark(q):
    return h.Result.from_json(q["results"][h.WRITER])


def _listing(folder):
    out = {}
    for d, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(d, f)
            st = os.stat(p)
            out[os.path.relpath(p, folder)] = (st.st_size, st.st_mtime_ns)
    return out


@pytest.fixture(scope="module")
def before(spark_tables):
    """The tables' files before any reader ran: readers must not change them."""
    return _listing(spark_tables[0])


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scenario_did_what_it_says(spark_tables, before, name):
    """Spark's final snapshot has exactly the ids and names the scenario's operations imply,
    so the comparisons below compare tables that really exercise those operations."""
    folder, manifest = spark_tables
    sc = SCENARIOS[name]
    entry = manifest["scenarios"][name]
    assert len(entry["instants"]) == len(sc["steps"])
    rows = _spark(entry["queries"]["snapshot"]).rows
    if sc["expect"]:
        got = {r["id"]: r["name"] for r in rows}
        want = {i: n for i, n in sc["expect"].items() if n is not None}
        assert got == want
    props = h.table_properties(os.path.join(folder, name))
    assert props["hoodie.table.version"] == "6"
    assert props["hoodie.table.type"] == "COPY_ON_WRITE"
    assert not os.path.exists(os.path.join(folder, name, ".hoodie", "metadata"))
    overwrites = [s for s in sc["steps"] if s[0].startswith("insert_overwrite")
                  or (s[0] == "sql" and "INSERT OVERWRITE" in s[1])]
    replaces = [a for _, a in entry["actions"] if a == "replacecommit"]
    assert len(replaces) == len(overwrites)


def _hudic(path, name, qid, q):
    why = hudic_peer.missing("table", "cat")
    if why:
        pytest.skip(why)
    sc = SCENARIOS[name]
    try:
        got = hudic_peer.cat(path, key_columns=gen.key_columns(sc), **q["args"])
    except hudic_peer.HudicError as e:
        hudic_peer.xfail_if_known(name, e)
        raise
    hudic_peer.check_order(got, path, sc, q["args"], "%s %s" % (name, qid))
    return hudic_peer.without_meta_columns(got, sc)


@pytest.mark.parametrize("name,qid", QUERIES)
def test_hudic_reads_as_spark(spark_tables, before, name, qid):
    """hudic's rows, meta columns included, are Spark 0.15's; hudic's columns come in table
    schema order (Spark moves partition columns to the end, so row keys compare unordered)."""
    path, q = _query(spark_tables, name, qid)
    got = _hudic(path, name, qid, q)
    d = h.difference(_spark(q), got, "%s %s" % (name, qid),
                     ignore=gen.spark_ignores(SCENARIOS[name], q["args"]))
    assert d is None, d


@pytest.mark.parametrize("name,qid", QUERIES)
def test_hudic_reads_as_hudi_rs(spark_tables, before, name, qid):
    """The same against hudi-rs, which reads every column from the files (so this also covers
    the columns Spark takes from partition paths)."""
    why = h.hudi_rs_missing()
    if why:
        pytest.skip(why)
    path, q = _query(spark_tables, name, qid)
    got = _hudic(path, name, qid, q)
    theirs = h.hudi_rs_read(path, key_columns=gen.key_columns(SCENARIOS[name]), **q["args"])
    d = h.difference(theirs, got, "%s %s" % (name, qid))
    assert d is None, d


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_hudic_info_lists_every_commit(spark_tables, before, name):
    why = hudic_peer.missing("table", "info")
    if why:
        pytest.skip(why)
    folder, manifest = spark_tables
    cp = hudic_peer.run("table", "info", os.path.join(folder, name))
    assert cp.returncode == 0 and not cp.stderr, cp.stderr.decode(errors="replace")
    out = cp.stdout.decode()
    for t, action in manifest["scenarios"][name]["actions"]:
        assert t in out, "%s: instant %s (%s) not in `hudic table info`" % (name, t, action)


@pytest.mark.parametrize("name,qid", QUERIES)
def test_hudi_rs_reads_as_spark(spark_tables, before, name, qid):
    why = h.hudi_rs_missing()
    if why:
        pytest.skip(why)
    path, q = _query(spark_tables, name, qid)
    got = h.hudi_rs_read(path, key_columns=gen.key_columns(SCENARIOS[name]), **q["args"])
    d = h.difference(_spark(q), got, "%s %s" % (name, qid),
                     ignore=gen.spark_ignores(SCENARIOS[name], q["args"]))
    assert d is None, d


@pytest.mark.parametrize("name,qid", QUERIES)
def test_spark_hudi_1_0_reads_as_0_15(spark_tables, before, name, qid):
    folder, manifest = spark_tables
    _, q = _query(spark_tables, name, qid)
    r2 = q["results"].get(h.READER2)
    if r2 is None:
        pytest.skip("Spark with Hudi %s did not run when the tables were generated: %s"
                    % (h.READER2, manifest.get("reader2_error", "unknown reason")))
    assert "error" not in r2, "Spark with Hudi %s failed: %s" % (h.READER2, r2["error"])
    d = h.difference(_spark(q), h.Result.from_json(r2), "%s %s" % (name, qid),
                     ignore=gen.spark_ignores(SCENARIOS[name], q["args"]))
    assert d is None, d


def test_zz_readers_left_tables_untouched(spark_tables, before):
    """Runs last (pytest keeps file order): no reader created, changed or removed a file."""
    assert _listing(spark_tables[0]) == before
