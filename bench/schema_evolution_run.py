#!/usr/bin/env python3
"""bench/schema_evolution_run.py - what reading through schema evolution costs.

Two copy-on-write tables hold the same rows, written by `hudic table write --op bulk_insert`
in five commits: table "one" under one schema throughout; table "evolved" with an ALTER TABLE
(schema on read) between the commits - ADD COLUMNS, RENAME COLUMN, ALTER COLUMN TYPE (int to
bigint, so old files are converted), DROP COLUMN - so its files span five schema versions and
every read maps old files by column id. Then the same query runs on both:

- hudic: PROCS `hudic sql` processes, alternating between the tables, each running the query
  REPS times; "cold" is the first query of a process (process start to result, wall), "warm"
  the median of the others (the shell's own "Time taken"), "cpu" the process's user+system
  time divided by REPS.
- Spark with Hudi 0.15 (--spark; needs the compat suite's Spark setup): one local[2] session
  reads both tables with hoodie.schema.on.read.enable=true, alternating, ROUNDS times after a
  warm-up round; wall and JVM CPU per query.

The ratio evolved / one is what the evolution costs. Usage:
  bench/schema_evolution_run.py [--rows N] [--procs P] [--reps R] [--spark] [--rounds K]
HUDIC=path of the hudic binary (default build/release/hudic).
"""
import argparse, json, os, resource, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUDIC = os.environ.get("HUDIC", os.path.join(ROOT, "build", "release", "hudic"))
COMPAT = os.path.join(ROOT, "tests", "compat")
SOR = "hoodie.schema.on.read.enable"
QUERY = "SELECT count(*), sum(a), count(b2), count(d), max(b2) FROM {t}"
ROWS = 200000


def run(*args):
    r = subprocess.run([HUDIC, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("hudic %s: %s" % (" ".join(args[:3]), r.stderr.strip()))
    return r.stdout


def sql(wh, *stmts):
    args = ["sql", "--warehouse", wh, "-S", "--conf", SOR + "=true"]
    for s in stmts:
        args += ["-e", s]
    return run(*args)


def batch(k, cols):
    """Rows k*ROWS .. (k+1)*ROWS-1 with the columns `cols` (name -> kind)."""
    import pyarrow as pa
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
    import pyarrow.parquet as pq
    f = os.path.join(tmp, "b%d.parquet" % k)
    pq.write_table(batch(k, cols), f)
    run("table", "write", "--op", "bulk_insert", "--input", f, path)


def build_tables(wh, tmp):
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
    return {"one": one, "evolved": evolved}


def hudic_process(wh, t, reps):
    """One `hudic sql` process running the query `reps` times: (cold wall s, warm times, cpu/rep)."""
    args = [HUDIC, "sql", "--warehouse", wh, "--conf", SOR + "=true"]
    for _ in range(reps):
        args += ["-e", QUERY.format(t=t)]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = None
    for line in p.stdout:  # the first result row marks the end of the first query
        if first is None:
            first = time.perf_counter() - t0
    err = p.stderr.read()
    if p.wait() != 0:
        sys.exit("hudic sql: " + err.strip())
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    taken = [float(l.split()[2]) for l in err.splitlines() if l.startswith("Time taken:")]
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return first, taken[1:], cpu / reps


def bench_hudic(wh, procs, reps):
    res = {t: {"cold": [], "warm": [], "cpu": []} for t in ("one", "evolved")}
    for _ in range(procs):
        for t in ("one", "evolved"):  # alternate so load hits both alike
            cold, warm, cpu = hudic_process(wh, t, reps)
            res[t]["cold"].append(cold)
            res[t]["warm"].extend(warm)
            res[t]["cpu"].append(cpu)
    out = {t: {k: statistics.median(v) for k, v in m.items()} for t, m in res.items()}
    out["ratio"] = {k: out["evolved"][k] / out["one"][k] for k in ("cold", "warm", "cpu")}
    return out


def proc_cpu_s(pid):
    with open("/proc/%s/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spark_child(spec):
    """Runs in its own process: one Spark session reads both tables, prints one JSON line."""
    sys.path.insert(0, COMPAT)
    import spark_harness as h
    from pyspark.sql import functions as F
    spark = h.start_session(h.WRITER, app="hudic-se-bench")
    pid = spark._jvm.java.lang.ProcessHandle.current().pid()

    def query(path):
        df = spark.read.format("hudi").option(SOR, "true").load(path)
        return tuple(df.agg(F.count(F.lit(1)), F.sum("a"), F.count("b2"), F.count("d"),
                            F.max("b2")).collect()[0])

    times = {t: {"wall": [], "cpu": []} for t in spec["tables"]}
    rows = {}
    for r in range(spec["rounds"] + 1):
        for t, path in spec["tables"].items():
            c0, t0 = proc_cpu_s(pid), time.perf_counter()
            rows[t] = query(path)
            if r > 0:  # round 0 warms the JVM up
                times[t]["wall"].append(time.perf_counter() - t0)
                times[t]["cpu"].append(proc_cpu_s(pid) - c0)
    spark.stop()
    out = {t: {k: statistics.median(v) for k, v in m.items()} for t, m in times.items()}
    out["ratio"] = {k: out["evolved"][k] / out["one"][k] for k in ("wall", "cpu")}
    out["rows"] = {t: [str(v) for v in r] for t, r in rows.items()}
    print("BENCH " + json.dumps(out))


def bench_spark(tables, rounds):
    spec = {"tables": tables, "rounds": rounds}
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--spark-child",
                        json.dumps(spec)], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:])
    sys.exit("spark child failed: " + p.stderr[-2000:])


def main():
    global ROWS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=200000, help="rows per commit (5 commits)")
    ap.add_argument("--procs", type=int, default=9, help="hudic processes per table")
    ap.add_argument("--reps", type=int, default=10, help="queries per hudic process")
    ap.add_argument("--spark", action="store_true", help="also time Spark with Hudi 0.15")
    ap.add_argument("--rounds", type=int, default=5, help="Spark queries per table")
    ap.add_argument("--keep", action="store_true", help="keep the tables (prints the folder)")
    ap.add_argument("--spark-child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.spark_child:
        return spark_child(json.loads(a.spark_child))
    ROWS = a.rows
    tmp = tempfile.mkdtemp(prefix="hudic_se_bench_")
    wh = os.path.join(tmp, "wh")
    tables = build_tables(wh, tmp)
    result = {"rows": 5 * ROWS, "answer": {t: sql(wh, QUERY.format(t=t)).strip() for t in tables},
              "load_before": os.getloadavg(), "hudic": bench_hudic(wh, a.procs, a.reps)}
    if a.spark:
        result["spark"] = bench_spark(tables, a.rounds)
        result["spark_over_hudic_warm"] = {
            t: result["spark"][t]["wall"] / result["hudic"][t]["warm"] for t in tables}
    result["load_after"] = os.getloadavg()
    print(json.dumps(result, indent=1))
    if a.keep:
        print("tables kept in", wh)
    else:
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
