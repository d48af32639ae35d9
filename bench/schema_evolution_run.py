#!/usr/bin/env python3
"""bench/schema_evolution_run.py - what reading through schema evolution costs.

Two copy-on-write tables hold the same rows, written by `hudic table write --op bulk_insert`
in five commits: table "one" under one schema throughout; table "evolved" with an ALTER TABLE
(schema on read) between the commits - ADD COLUMNS, RENAME COLUMN, ALTER COLUMN TYPE (int to
bigint, so old files are converted), DROP COLUMN - so its files span five schema versions and
every read maps old files by column id. Then the same query runs on both in `hudic sql`
(median of N runs, each in its own process, timed from process start to result); the ratio
evolved / one is what the evolution costs. Usage: bench/schema_evolution_run.py [ROWS_PER_COMMIT]
[RUNS] (defaults 200000, 5); HUDIC=path of the hudic binary (default build/release/hudic).
"""
import json, os, statistics, subprocess, sys, tempfile, time

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUDIC = os.environ.get("HUDIC", os.path.join(ROOT, "build", "release", "hudic"))
ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def run(*args):
    r = subprocess.run([HUDIC, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("hudic %s: %s" % (" ".join(args[:3]), r.stderr.strip()))
    return r.stdout


def sql(wh, *stmts):
    args = ["sql", "--warehouse", wh, "-S", "--conf", "hoodie.schema.on.read.enable=true"]
    for s in stmts:
        args += ["-e", s]
    return run(*args)


def batch(k, cols):
    """Rows k*ROWS .. (k+1)*ROWS-1 with the columns `cols` (name -> kind)."""
    base = k * ROWS
    ids = pa.array(range(base, base + ROWS), pa.int64())
    data = {"id": pa.array(["k%09d" % i for i in range(base, base + ROWS)]), "ts": ids}
    for name, kind in cols:
        if kind == "int":
            data[name] = pa.array([i % 100000 for i in range(base, base + ROWS)], pa.int32())
        elif kind == "long":
            data[name] = pa.array([i % 100000 for i in range(base, base + ROWS)], pa.int64())
        elif kind == "str":
            data[name] = pa.array(["v%d" % (i % 1000) for i in range(base, base + ROWS)])
        else:
            data[name] = pa.array([i * 0.5 for i in range(base, base + ROWS)], pa.float64())
    return pa.table(data)


def write(path, k, cols, tmp):
    f = os.path.join(tmp, "b%d.parquet" % k)
    pq.write_table(batch(k, cols), f)
    run("table", "write", "--op", "bulk_insert", "--input", f, path)


def main():
    tmp = tempfile.mkdtemp(prefix="hudic_se_bench_")
    wh = os.path.join(tmp, "wh")
    create = ("CREATE TABLE {t} (id STRING, ts BIGINT, a INT, b STRING, c DOUBLE) USING hudi "
              "TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts')")
    sql(wh, create.format(t="one"), create.format(t="evolved"))
    one = os.path.join(wh, "default", "one")
    evolved = os.path.join(wh, "default", "evolved")
    final = [("a", "long"), ("b2", "str"), ("d", "str")]
    # table "one": the final schema from the start (a bigint, b2, d; no c)
    sql(wh, "ALTER TABLE one ALTER COLUMN a TYPE bigint", "ALTER TABLE one RENAME COLUMN b TO b2",
        "ALTER TABLE one ADD COLUMNS (d STRING)", "ALTER TABLE one DROP COLUMN c")
    steps = [
        ([("a", "int"), ("b", "str"), ("c", "dbl")], "ALTER TABLE evolved ADD COLUMNS (d STRING)"),
        ([("a", "int"), ("b", "str"), ("c", "dbl"), ("d", "str")],
         "ALTER TABLE evolved RENAME COLUMN b TO b2"),
        ([("a", "int"), ("b2", "str"), ("c", "dbl"), ("d", "str")],
         "ALTER TABLE evolved ALTER COLUMN a TYPE bigint"),
        ([("a", "long"), ("b2", "str"), ("c", "dbl"), ("d", "str")],
         "ALTER TABLE evolved DROP COLUMN c"),
        (final, None),
    ]
    for k, (cols, alter) in enumerate(steps):
        write(one, k, final, tmp)
        write(evolved, k, cols, tmp)
        if alter:
            sql(wh, alter)
    q = "SELECT count(*), sum(a), count(b2), count(d), max(b2) FROM {t}"
    a = sql(wh, q.format(t="one"))
    b = sql(wh, q.format(t="evolved"))
    times = {"one": [], "evolved": []}
    for _ in range(RUNS):
        for t in ("one", "evolved"):  # alternate so load hits both alike
            t0 = time.perf_counter()
            sql(wh, q.format(t=t))
            times[t].append(time.perf_counter() - t0)
    med = {t: statistics.median(v) for t, v in times.items()}
    print(json.dumps({"rows": 5 * ROWS, "one": a.strip(), "evolved": b.strip(),
                      "median_s": med, "ratio_evolved_over_one": med["evolved"] / med["one"],
                      "load": os.getloadavg()}, indent=1))
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
