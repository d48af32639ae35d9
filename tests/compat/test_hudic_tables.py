"""test_hudic_tables.py - tables hudic writes, read by the peers: hudic writes each datasource
scenario of gen_spark_tables.py (same rows, same operations: partitioned and not, simple,
complex and timestamp keys, inserts, upserts with out-of-order precombine values, deletes,
overwrites), then Spark with Hudi 0.15 and 1.0 and hudi-rs read it with the rows and meta
columns hudic reads (snapshot, time travel, incremental, projection). Then Spark 0.15 upserts
into the hudic table and hudic reads the result as Spark does; then hudic writes once more
on top of Spark's commit and Spark reads that.

Needs `hudic table create`, `write` and `cat` (how they are called is in hudic_peer.py);
without them every test here skips, saying so, and a scenario whose table options the command
line cannot express skips naming the option. Spark runs live (hudic's tables change with
hudic): a JVM start per bundle plus about a second per read."""
import os
import shutil

import pytest

import gen_spark_tables as gen
import hudic_peer
import spark_harness as h

# Spark SQL scenarios are Spark's own syntax; hudic writes the datasource ones.
SCENARIOS = {n: sc for n, sc in gen.SCENARIOS.items() if "sql_setup" not in sc}
QUERIES = [pytest.param(n, q, id="%s-%s" % (n, q))
           for n, sc in SCENARIOS.items() for q in gen.query_ids(sc)]

_built = {}


def _need_hudic():
    why = (hudic_peer.missing("table", "create") or hudic_peer.missing("table", "write")
           or hudic_peer.missing("table", "cat"))
    if why:
        pytest.skip(why)


def _table_args(name):
    t = dict(SCENARIOS[name]["table"])
    t["name"] = name
    return t


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("hudic_tables")


def hudic_table(work, name):
    """(path, instants) of the scenario's table as hudic writes it, built once per run."""
    _need_hudic()
    if name not in _built:
        sc = SCENARIOS[name]
        path = str(work / name)
        schema = h.arrow_schema(sc["schema"])
        instants = []
        try:
            for op, rows in sc["steps"]:
                instants.append(hudic_peer.write(path, op, _table_args(name), schema, rows,
                                                 str(work / (name + ".inputs"))))
        except (hudic_peer.HudicError, hudic_peer.Unsupported) as e:
            _built[name] = e
        else:
            _built[name] = (path, instants)
    got = _built[name]
    if isinstance(got, hudic_peer.Unsupported):
        pytest.skip("hudic cannot write %s: %s" % (name, got))
    if isinstance(got, Exception):
        hudic_peer.xfail_if_known(name, got)
        pytest.fail("hudic could not write %s: %s" % (name, got))
    return got


def _hudic_read(name, path, args):
    """hudic's rows, its column order checked against the table schema, compared as in
    test_spark_tables.py (without the meta columns of a table that has none)."""
    sc = SCENARIOS[name]
    try:
        got = hudic_peer.cat(path, key_columns=gen.key_columns(sc), **args)
    except hudic_peer.HudicError as e:
        hudic_peer.xfail_if_known(name, e)
        raise
    hudic_peer.check_order(got, path, sc, args, "%s %s" % (name, args))
    return hudic_peer.without_meta_columns(got, sc)


def _spark_diff(theirs, mine, name, args, what):
    return h.difference(theirs, mine, what, ignore=gen.spark_ignores(SCENARIOS[name], args))


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_hudic_table_has_what_the_operations_imply(work, name):
    path, instants = hudic_table(work, name)
    sc = SCENARIOS[name]
    assert len(set(instants)) == len(sc["steps"]) and None not in instants
    props = h.table_properties(path)
    assert props.get("hoodie.table.version") == "6"
    if sc["expect"]:
        rows = _hudic_read(name, path, {}).rows
        got = {r["id"]: r["name"] for r in rows}
        assert got == {i: n for i, n in sc["expect"].items() if n is not None}


@pytest.mark.parametrize("name,qid", QUERIES)
def test_spark_0_15_reads_hudic_table(work, spark015, name, qid):
    path, instants = hudic_table(work, name)
    args = gen.query_args(SCENARIOS[name], qid, instants)
    mine = _hudic_read(name, path, args)
    theirs = spark015().read(path, key_columns=gen.key_columns(SCENARIOS[name]),
                             conf=gen.read_conf(SCENARIOS[name]), **args)
    d = _spark_diff(theirs, mine, name, args, "%s %s" % (name, qid))
    assert d is None, d


@pytest.mark.parametrize("name,qid", QUERIES)
def test_spark_1_0_reads_hudic_table(work, spark10, name, qid):
    path, instants = hudic_table(work, name)
    args = gen.query_args(SCENARIOS[name], qid, instants)
    mine = _hudic_read(name, path, args)
    theirs = spark10().read(path, key_columns=gen.key_columns(SCENARIOS[name]),
                            conf=gen.read_conf(SCENARIOS[name]), **args)
    d = _spark_diff(theirs, mine, name, args, "%s %s" % (name, qid))
    assert d is None, d


@pytest.mark.parametrize("name,qid", QUERIES)
def test_hudi_rs_reads_hudic_table(work, name, qid):
    why = h.hudi_rs_missing()
    if why:
        pytest.skip(why)
    path, instants = hudic_table(work, name)
    args = gen.query_args(SCENARIOS[name], qid, instants)
    mine = _hudic_read(name, path, args)
    theirs = h.hudi_rs_read(path, key_columns=gen.key_columns(SCENARIOS[name]), **args)
    d = h.difference(theirs, mine, "%s %s" % (name, qid))
    assert d is None, d


def _follow_up_rows(name, marker, ts_bump, key_bump):
    """An update of a row the final table holds (a larger precombine value, so it wins under
    either payload) and one new row, in the scenario's schema."""
    sc = SCENARIOS[name]
    row = dict(sc["steps"][-1][1][0])
    text_col = "name" if "name" in row else "s"
    row[text_col] = marker
    row["ts"] = row["ts"] + ts_bump
    new = dict(row)
    for k in sc["table"]["record_key"].split(","):
        new[k] = new[k] + key_bump if isinstance(new[k], int) else "%s_%d" % (new[k], key_bump)
    return [row, new]


# Spark's Avro merge path cannot rewrite lists with null elements (see gen_spark_tables.typed).
@pytest.mark.parametrize("name", [n for n, sc in SCENARIOS.items()
                                  if not sc.get("spark_cannot_merge")])
def test_spark_upserts_into_hudic_table_then_hudic_reads(work, spark015, name):
    src, instants = hudic_table(work, name)
    spark = spark015()
    sc = SCENARIOS[name]
    path = str(work / (name + "_spark_upsert"))
    shutil.copytree(src, path)
    keys = gen.key_columns(sc)
    t = dict(sc["table"])
    extra = t.pop("extra", None)
    opts = h.write_options(name, operation="upsert", extra=extra, **t)

    spark_instant = spark.write(path, _follow_up_rows(name, "spark", 100, 1000),
                                   sc["schema"], opts)
    assert spark_instant and spark_instant > instants[-1]
    queries = [{}, {"as_of": instants[-1]}]
    if sc["table"].get("meta_fields", True):
        queries.append({"incremental": [instants[-1], spark_instant]})
    for args in queries:
        d = _spark_diff(spark.read(path, key_columns=keys, conf=gen.read_conf(sc), **args),
                        _hudic_read(name, path, args), name, args,
                        "%s after Spark's upsert %s" % (name, args))
        assert d is None, d

    # hudic writes on top of Spark's commit; Spark reads what hudic reads.
    hudic_instant = hudic_peer.write(path, "upsert", _table_args(name),
                                     h.arrow_schema(sc["schema"]),
                                     _follow_up_rows(name, "hudic", 200, 2000),
                                     str(work / (name + ".inputs2")))
    assert hudic_instant > spark_instant
    for args in ({}, {"as_of": spark_instant}):
        d = _spark_diff(spark.read(path, key_columns=keys, conf=gen.read_conf(sc), **args),
                        _hudic_read(name, path, args), name, args,
                        "%s after hudic's upsert %s" % (name, args))
        assert d is None, d
    assert os.path.exists(os.path.join(path, ".hoodie", "hoodie.properties"))
