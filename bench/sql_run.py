#!/usr/bin/env python3
"""sql_run.py - `hudic sql` vs spark-sql (Spark 3.5 + Hudi 0.15) and DuckDB (1 thread).

    python3 bench/sql_run.py --rows 1000000           # ~15 min on the loaded 2-core box
    python3 bench/sql_run.py --rows 1000000 --no-spark
    python3 bench/sql_run.py --rows 10000000 --reps 3
    python3 bench/sql_run.py --rows 1000000 --only latency --table-type mor --buckets 4

One run, three blocks, each repetition of each measurement 3 times (--reps) and the median
reported; the load average (/proc/loadavg) is recorded before and after each block:

1. Latency (process start to result): `hudic sql -e` vs `spark-sql -e`, whole-process wall
   time, on the same Hudi table (created once by hudic: CTAS from bench/gen_trips.py's rows,
   registered in Spark with CREATE TABLE ... USING hudi LOCATION):
   (a) a point query by key, (b) a 1,000-row INSERT INTO (500 updates of existing keys and
   500 new keys; the table has primaryKey and preCombineField, so both engines upsert). Each
   insert goes into a fresh copy of the table, one copy per engine. The table is
   copy-on-write unless --table-type mor: then the CTAS writes the same base files and the
   INSERT is a deltacommit on both engines.
2. Analytics on the same table: group-by aggregates (by partition, by rider), a selective
   filter, a top-N and a join with a 100-row VALUES dimension table. hudic: one process per
   query (wall time, and the query's own "Time taken"); an empty query (SELECT 1) gives the
   process start-up cost. DuckDB: Python duckdb, SET threads=1, a view over read_parquet of
   the table's base files (the table has one commit, so its base files are its rows), a new
   connection per repetition. Spark: one spark-sql process per repetition running all five
   queries; the per-query "Time taken" lines and the process wall time.
   Before timing, every engine's rows are compared with DuckDB's (counts exact, numbers to
   1e-9 relative).

Needs the release build of hudic (cmake --preset release && cmake --build --preset release
--target hudic), the python duckdb module, and for Spark scripts/setup_compat (pyspark 3.5,
Java 17, the Hudi 0.15 bundle jar; tests/compat/spark_harness.py says where they are).
Raw results: bench/results/sql_latest.json. Markdown on stdout.
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "compat"))
sys.path.insert(0, HERE)

import gen_trips  # noqa: E402

TIME_RE = re.compile(r"Time taken: ([0-9.]+) seconds(?:, Fetched (\d+) row\(s\))?")
DATA_COLS = ("uuid, rider, driver, begin_lat, begin_lon, end_lat, end_lon, fare, ts, "
             "distance_m, partition_path")
# Spark's INSERT: no metadata table (hudic writes none) and no sync to Spark's catalog (the
# sync names the table by hoodie.table.name, `trips`, and would re-point `trips` at the copy).
SPARK_INSERT_SETTINGS = ("SET hoodie.metadata.enable=false; "
                         "SET hoodie.datasource.meta.sync.enable=false; "
                         "SET hoodie.datasource.hive_sync.enable=false; ")
RIDER_TIERS = ["gold", "silver", "bronze", "basic"]


def log(msg):
    print("[%s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def med(v):
    return statistics.median(v) if v else float("nan")


# ------------------------------------------------------------------ the queries

def dim_values():
    rows = ", ".join("('rider-%03d', '%s')" % (i, RIDER_TIERS[i % len(RIDER_TIERS)])
                     for i in range(100))
    return "(VALUES %s) AS d(rider, tier)" % rows


def analytic_queries():
    """name -> SQL text, the same text for every engine (`trips` is the table or view)."""
    return {
        "group by partition": "SELECT partition_path, count(*), sum(fare), avg(fare) "
                              "FROM trips GROUP BY partition_path ORDER BY partition_path",
        "group by rider": "SELECT rider, count(*), sum(fare), avg(distance_m) "
                          "FROM trips GROUP BY rider ORDER BY rider",
        "selective filter": "SELECT uuid, rider, fare, ts FROM trips "
                            "WHERE fare > 99.99 AND distance_m < 25000",
        "top-N": "SELECT uuid, rider, fare FROM trips ORDER BY fare DESC LIMIT 10",
        "join 100-row dim": "SELECT d.tier, count(*), sum(t.fare) FROM trips t JOIN %s "
                            "ON t.rider = d.rider GROUP BY d.tier ORDER BY d.tier"
                            % dim_values(),
    }


ORDERED = {"group by partition", "group by rider", "top-N", "join 100-row dim"}


def parse_tsv(lines):
    out = []
    for line in lines:
        row = []
        for v in line.split("\t"):
            try:
                row.append(int(v))
            except ValueError:
                try:
                    row.append(float(v))
                except ValueError:
                    row.append(None if v == "NULL" else v)
        out.append(tuple(row))
    return out


def same_rows(a, b, ordered):
    """None when the row lists agree (numbers to 1e-9 relative), else a description."""
    if not ordered:
        a, b = sorted(a, key=repr), sorted(b, key=repr)
    if len(a) != len(b):
        return "%d rows, expected %d" % (len(b), len(a))
    for i, (x, y) in enumerate(zip(a, b)):
        if len(x) != len(y):
            return "row %d: %r, expected %r" % (i, y, x)
        for u, v in zip(x, y):
            if isinstance(u, (int, float)) and isinstance(v, (int, float)):
                if abs(u - v) > 1e-9 * max(1.0, abs(u)):
                    return "row %d: %r, expected %r" % (i, y, x)
            elif u != v:
                return "row %d: %r, expected %r" % (i, y, x)
    return None


# ------------------------------------------------------------------ engines

class Hudic:
    def __init__(self, exe, warehouse):
        self.exe, self.warehouse = exe, warehouse

    def run(self, sql, check=True):
        """(wall s, [Time taken s], stdout lines) of one `hudic sql -e` process."""
        cmd = [self.exe, "sql", "--warehouse", self.warehouse, "--mode", "spark", "-e", sql]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if check and p.returncode != 0:
            raise RuntimeError("hudic sql failed (%d): %s\n%s" % (p.returncode, sql[:300],
                                                                  p.stderr[-2000:]))
        taken = [float(m.group(1)) for m in TIME_RE.finditer(p.stderr)]
        return wall, taken, [ln for ln in p.stdout.splitlines() if ln != ""]


class SparkSql:
    """spark-sql (the pyspark installation's launcher), local[2], Hudi 0.15 bundle; the
    metastore (Derby) and warehouse live in `home`, so tables registered once persist."""

    def __init__(self, home, heap):
        import spark_harness as h
        import pyspark
        self.launcher = os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-sql")
        self.home, self.heap = home, heap
        self.jar = h.bundle_jar(h.WRITER)
        self.jvm = " ".join(h.JVM_OPTIONS)
        os.makedirs(home, exist_ok=True)

    def run(self, sql):
        cmd = [self.launcher, "--master", "local[2]", "--driver-memory", self.heap,
               "--jars", self.jar,
               "--conf", "spark.serializer=org.apache.spark.serializer.KryoSerializer",
               "--conf", "spark.sql.extensions="
               "org.apache.spark.sql.hudi.HoodieSparkSessionExtension",
               "--conf", "spark.sql.catalog.spark_catalog="
               "org.apache.spark.sql.hudi.catalog.HoodieCatalog",
               "--conf", "spark.kryo.registrator=org.apache.spark.HoodieSparkKryoRegistrar",
               "--conf", "spark.sql.shuffle.partitions=2",
               "--conf", "spark.default.parallelism=2",
               "--conf", "spark.sql.session.timeZone=UTC",
               "--conf", "spark.ui.enabled=false",
               "--conf", "spark.driver.host=127.0.0.1",
               "--conf", "spark.driver.bindAddress=127.0.0.1",
               "--conf", "spark.sql.warehouse.dir=" + os.path.join(self.home, "warehouse"),
               "--conf", "spark.local.dir=" + os.path.join(self.home, "tmp"),
               "--driver-java-options", self.jvm,
               "-e", sql]
        env = dict(os.environ, SPARK_HOME=os.path.dirname(os.path.dirname(self.launcher)))
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=self.home, env=env)
        wall = time.perf_counter() - t0
        with open(os.path.join(self.home, "spark-sql.log"), "a") as f:
            f.write("==== %s\n%s\n" % (sql[:500], p.stderr))
        if p.returncode != 0:
            raise RuntimeError("spark-sql failed (%d): %s\n%s" % (p.returncode, sql[:300],
                                                                   p.stderr[-3000:]))
        taken = [(float(m.group(1)), int(m.group(2) or 0)) for m in TIME_RE.finditer(p.stderr)]
        return wall, taken, [ln for ln in p.stdout.splitlines() if ln != ""]


# ------------------------------------------------------------------ setup

def small_file(path, rows, rep):
    """1,000 rows: 500 updates of base rows (new fare and ts) and 500 new keys."""
    import duckdb
    if os.path.exists(path):
        return
    step = rows // 500
    first_new = rows + rep * 500
    sql = gen_trips.trips_sql(first_new + 500).replace(
        "FROM range(%d) t(i)" % (first_new + 500),
        "FROM (SELECT range AS i FROM range(%d) WHERE (range < %d AND range %% %d = %d) "
        "OR range >= %d) t(i)" % (first_new + 500, rows, step, rep + 1, first_new))
    con = duckdb.connect()
    con.execute("COPY (SELECT * REPLACE (CASE WHEN row_number() OVER () <= 500 THEN "
                "fare / 2 ELSE fare END AS fare, CASE WHEN row_number() OVER () <= 500 THEN "
                "ts + 3600000 ELSE ts END AS ts) FROM (%s)) TO '%s' (FORMAT parquet)"
                % (sql, path))
    n = con.execute("SELECT count(*) FROM read_parquet('%s')" % path).fetchone()[0]
    con.close()
    assert n == 1000, n


def copy_table(src, dst):
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)


def setup(args, hudic):
    data = os.path.join(args.work_dir, "rows%d" % args.rows)
    src = gen_trips.generate(args.rows, data, 1 << 20, ["snappy"], quiet=False)["snappy"]
    table = os.path.join(hudic.warehouse, "default", "trips")
    if not os.path.exists(os.path.join(table, ".hoodie", "hoodie.properties")):
        shutil.rmtree(hudic.warehouse, ignore_errors=True)
        log("CTAS %d rows into %s" % (args.rows, table))
        wall, taken, _ = hudic.run(
            "CREATE TABLE trips USING hudi PARTITIONED BY (partition_path) "
            "TBLPROPERTIES (type = '%s', primaryKey = 'uuid', preCombineField = 'ts'%s) "
            "AS SELECT * FROM parquet.`%s`" % (args.table_type, bucket_props(args),
                                              os.path.abspath(src)))
        log("  CTAS took %.1f s" % wall)
    smalls = []
    for r in range(args.reps):
        p = os.path.join(data, "small%d.parquet" % r)
        small_file(p, args.rows, r)
        smalls.append(os.path.abspath(p))
    return src, os.path.abspath(table), smalls


# ------------------------------------------------------------------ block 1: latency

def bucket_props(args):
    """The simple bucket index's table properties (--buckets N), as a TBLPROPERTIES tail."""
    if not args.buckets:
        return ""
    return (", hoodie.index.type = 'BUCKET', hoodie.index.bucket.engine = 'SIMPLE', "
            "hoodie.bucket.index.num.buckets = '%d', hoodie.bucket.index.hash.field = 'uuid'"
            % args.buckets)


def bucket_settings(args):
    """The bucket index's options as SET statements, for the INSERT into a copy: both engines
    register the copy by LOCATION, and the index type is a write option, not one of
    hoodie.properties."""
    if not args.buckets:
        return ""
    return ("SET hoodie.index.type=BUCKET; SET hoodie.index.bucket.engine=SIMPLE; "
            "SET hoodie.bucket.index.num.buckets=%d; SET hoodie.bucket.index.hash.field=uuid; "
            % args.buckets)


def spark_insert_settings(args):
    """spark-sql's SETs before its INSERT: no metadata table and no catalog sync (hudic
    writes neither), and the bucket index's options."""
    return SPARK_INSERT_SETTINGS + bucket_settings(args)


def suffix(args):
    """Folder names of a run: the row count, _mor for a MERGE_ON_READ table, _b<N> for the
    bucket index."""
    return "%d%s%s" % (args.rows, "_mor" if args.table_type == "mor" else "",
                       "_b%d" % args.buckets if args.buckets else "")


def insert_dir(args):
    return os.path.abspath(os.path.join(args.work_dir, "ins" + suffix(args)))


def block_latency(args, hudic, spark, table, smalls, out):
    import hudi_run
    key = hudi_run.uuid_of(args.rows // 2)
    point = "SELECT * FROM trips WHERE uuid = '%s'" % key
    ins_dir = insert_dir(args)
    hwh = os.path.join(ins_dir, "hudic-warehouse")
    hcopy, scopy = os.path.join(ins_dir, "hudic_copy"), os.path.join(ins_dir, "spark_copy")
    hins = Hudic(hudic.exe, hwh)
    if not os.path.exists(hwh):
        copy_table(table, hcopy)
        hins.run("CREATE TABLE trips_ins USING hudi LOCATION '%s'" % hcopy)
    res = {"key": key, "load_before": loadavg(), "hudic": {"point": [], "insert": [],
                                                          "point_taken": [],
                                                          "insert_taken": []},
           "spark": {"point": [], "insert": [], "point_taken": [], "insert_taken": []}}
    # Results first (untimed): the point query's row on both engines.
    _, _, hrow = hudic.run(point)
    if len(hrow) != 1 or key not in hrow[0]:
        res["problems"] = ["hudic point query: %r" % hrow]
    for r in range(args.reps):
        copy_table(table, hcopy)
        if spark:
            copy_table(table, scopy)
        ins = "INSERT INTO trips_ins SELECT * FROM parquet.`%s`" % smalls[r]
        w, t, rows = hudic.run(point)
        res["hudic"]["point"].append(w)
        res["hudic"]["point_taken"].append(t[-1])
        w, t, _ = hins.run(bucket_settings(args) + ins)
        res["hudic"]["insert"].append(w)
        res["hudic"]["insert_taken"].append(t[-1])
        if spark:
            w, t, srows = spark.run(point)
            res["spark"]["point"].append(w)
            res["spark"]["point_taken"].append(t[-1][0])
            if r == 0 and parse_tsv(srows) != parse_tsv(rows):
                res.setdefault("problems", []).append(
                    "point query: spark %r, hudic %r" % (srows, rows))
            w, t, _ = spark.run(spark_insert_settings(args) + ins)
            res["spark"]["insert"].append(w)
            res["spark"]["insert_taken"].append(t[-1][0])
        log("  latency rep %d: hudic point %.2f s, insert %.2f s; spark point %s, insert %s"
            % (r + 1, res["hudic"]["point"][-1], res["hudic"]["insert"][-1],
               res["spark"]["point"][-1:] if spark else "-",
               res["spark"]["insert"][-1:] if spark else "-"))
    res["load_after"] = loadavg()
    # The last copies must hold the same rows (hudic reads both, so the check is the data).
    check = "SELECT count(*), sum(fare), sum(ts), count(DISTINCT uuid) FROM trips_ins"
    _, _, hres = hins.run(check)
    res["check"] = {"hudic_copy": hres}
    if spark:
        swh = os.path.join(ins_dir, "check-warehouse")
        shutil.rmtree(swh, ignore_errors=True)
        sch = Hudic(hudic.exe, swh)
        sch.run("CREATE TABLE trips_ins USING hudi LOCATION '%s'" % scopy)
        _, _, sres = sch.run(check)
        res["check"]["spark_copy"] = sres
        if same_rows(parse_tsv(hres), parse_tsv(sres), True):
            res.setdefault("problems", []).append("after insert: spark's copy %r, hudic's %r"
                                                  % (sres, hres))
    import duckdb
    con = duckdb.connect()
    want = con.execute(
        "SELECT count(*), sum(fare), sum(ts), count(DISTINCT uuid) FROM (SELECT * FROM "
        "(SELECT *, row_number() OVER (PARTITION BY uuid ORDER BY src DESC) AS rn FROM "
        "(SELECT %s, 0 AS src FROM read_parquet('%s/**/*.parquet') UNION ALL "
        "SELECT %s, 1 AS src FROM read_parquet('%s'))) WHERE rn = 1)"
        % (DATA_COLS, table, DATA_COLS, smalls[args.reps - 1])).fetchall()
    con.close()
    got = parse_tsv(hres)
    res["check"]["expected"] = [list(want[0])]
    if same_rows([tuple(want[0])], got, True):
        res.setdefault("problems", []).append("after insert: hudic %r, expected %r"
                                              % (got, want))
    out["latency"] = res


# ------------------------------------------------------------------ block 2: analytics

def duckdb_con(table):
    import duckdb
    con = duckdb.connect()
    con.execute("SET threads=1")
    con.execute("CREATE VIEW trips AS SELECT * FROM read_parquet('%s/**/*.parquet', "
                "hive_partitioning=false)" % table)
    return con


def block_analytics(args, hudic, spark, table, out):
    queries = analytic_queries()
    res = {"load_before": loadavg(), "queries": {}, "problems": []}
    # Correctness first (untimed): every engine against DuckDB.
    con = duckdb_con(table)
    expected = {n: [tuple(r) for r in con.execute(q).fetchall()] for n, q in queries.items()}
    con.close()
    for n, q in queries.items():
        _, _, rows = hudic.run(q)
        d = same_rows(expected[n], parse_tsv(rows), n in ORDERED)
        res["queries"][n] = {"rows": len(expected[n]), "hudic_vs_duckdb": d or "same"}
        if d:
            res["problems"].append("hudic %s: %s" % (n, d))
    script = "; ".join(queries.values())
    for n in queries:
        res["queries"][n].update({"hudic_wall": [], "hudic_taken": [], "duckdb": [],
                                  "spark_taken": []})
    res["hudic_empty"], res["spark_wall"] = [], []
    for r in range(args.reps):
        w, t, _ = hudic.run("SELECT 1")
        res["hudic_empty"].append(w)
        for n, q in queries.items():
            w, t, _ = hudic.run(q)
            res["queries"][n]["hudic_wall"].append(w)
            res["queries"][n]["hudic_taken"].append(t[-1])
        con = duckdb_con(table)
        for n, q in queries.items():
            t0 = time.perf_counter()
            con.execute(q).fetchall()
            res["queries"][n]["duckdb"].append(time.perf_counter() - t0)
        con.close()
        if spark:
            w, taken, lines = spark.run(script)
            res["spark_wall"].append(w)
            if len(taken) != len(queries):
                raise RuntimeError("spark-sql printed %d Time taken lines" % len(taken))
            pos = 0
            for (n, q), (secs, fetched) in zip(queries.items(), taken):
                res["queries"][n]["spark_taken"].append(secs)
                if r == 0:
                    d = same_rows(expected[n], parse_tsv(lines[pos:pos + fetched]),
                                  n in ORDERED)
                    res["queries"][n]["spark_vs_duckdb"] = d or "same"
                    if d:
                        res["problems"].append("spark %s: %s" % (n, d))
                pos += fetched
        log("  analytics rep %d done (load %s)" % (r + 1, loadavg()))
    res["load_after"] = loadavg()
    out["analytics"] = res


# ------------------------------------------------------------------ output

def fs(v):
    if v is None or v != v:
        return "-"
    return "%.3f" % v if v < 1 else "%.2f" % v if v < 100 else "%.0f" % v


def markdown(out, spark):
    lines = []
    lat = out.get("latency")
    if lat:
        kind = "merge-on-read" if out.get("table_type") == "mor" else "copy-on-write"
        if out.get("buckets"):
            kind += ", bucket index (%d buckets)" % out["buckets"]
        lines += ["### 1. Latency, process start to result (%s rows, %s; load %s -> %s)"
                  % ("{:,}".format(out["rows"]), kind, lat["load_before"], lat["load_after"]),
                  "",
                  "| statement | hudic sql -e s (query's own) | spark-sql -e s (query's own) "
                  "| speed-up |", "|---|---:|---:|---:|"]
        for k, label in (("point", "point query by key"),
                         ("insert", "INSERT 1,000 rows (500 upd + 500 new)")):
            h, ht = med(lat["hudic"][k]), med(lat["hudic"][k + "_taken"])
            s, st = med(lat["spark"][k]), med(lat["spark"][k + "_taken"])
            lines.append("| %s | %s (%s) | %s (%s) | %s |" % (
                label, fs(h), fs(ht), fs(s) if spark else "-", fs(st) if spark else "-",
                "%.0fx" % (s / h) if spark else "-"))
        lines.append("")
    an = out.get("analytics")
    if an:
        lines += ["### 2. Analytics (%s rows; load %s -> %s); hudic empty query (SELECT 1) "
                  "%s s" % ("{:,}".format(out["rows"]), an["load_before"], an["load_after"],
                            fs(med(an["hudic_empty"]))), "",
                  "| query | rows out | hudic wall s | hudic query s | DuckDB 1 thread s | "
                  "hudic / DuckDB (query) | spark-sql query s | Spark / hudic (query) |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for n, q in an["queries"].items():
            hw, ht, dd = med(q["hudic_wall"]), med(q["hudic_taken"]), med(q["duckdb"])
            st = med(q["spark_taken"])
            lines.append("| %s | %d | %s | %s | %s | %.2f | %s | %s |" % (
                n, q["rows"], fs(hw), fs(ht), fs(dd), ht / dd, fs(st) if spark else "-",
                "%.1fx" % (st / ht) if spark else "-"))
        if spark:
            lines.append("")
            lines.append("spark-sql process for the five queries: %s s wall (median)"
                         % fs(med(an["spark_wall"])))
    problems = (lat or {}).get("problems", []) + (an or {}).get("problems", [])
    lines.append("")
    lines.append("Result checks: " + ("all agree" if not problems else "; ".join(problems)))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description="hudic sql vs spark-sql and DuckDB")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--hudic", default=os.path.join(ROOT, "build", "release", "hudic"))
    ap.add_argument("--work-dir", default=os.path.join(HERE, "data", "sql"))
    ap.add_argument("--heap", default="4g", help="spark-sql driver memory")
    ap.add_argument("--no-spark", action="store_true")
    ap.add_argument("--only", choices=["latency", "analytics"])
    ap.add_argument("--table-type", choices=["cow", "mor"], default="cow",
                    help="the table's type (mor: the INSERT is a deltacommit on both engines)")
    ap.add_argument("--buckets", type=int, default=0,
                    help="Hudi's simple bucket index with N buckets per partition (both engines)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "sql_latest.json"))
    args = ap.parse_args()
    if not os.access(args.hudic, os.X_OK):
        ap.error("%s: not built (cmake --preset release && cmake --build --preset release "
                 "--target hudic)" % args.hudic)
    spark = None
    if not args.no_spark:
        import spark_harness as h
        why = h.spark_missing()
        if why:
            ap.error("Spark: %s (or --no-spark)" % why)
        spark = SparkSql(os.path.join(args.work_dir, "spark%d" % args.rows), args.heap)
    wh = os.path.join(args.work_dir, "warehouse" + suffix(args))
    hudic = Hudic(os.path.abspath(args.hudic), os.path.abspath(wh))
    out = {"rows": args.rows, "reps": args.reps, "table_type": args.table_type,
           "buckets": args.buckets,
           "started": time.strftime("%Y-%m-%d %H:%M:%S"),
           "machine": {"platform": platform.platform(), "cpus": os.cpu_count()}}
    src, table, smalls = setup(args, hudic)
    if spark:
        # Registered afresh every run: an earlier run's INSERT with Spark's catalog sync on
        # re-pointed `trips` at the copy (both copies are named trips in hoodie.properties).
        log("registering the tables in spark-sql")
        scopy = os.path.join(insert_dir(args), "spark_copy")
        copy_table(table, scopy)
        spark.run("DROP TABLE IF EXISTS trips; DROP TABLE IF EXISTS trips_ins; "
                  "CREATE TABLE trips USING hudi LOCATION '%s'; "
                  "CREATE TABLE trips_ins USING hudi LOCATION '%s'" % (table, scopy))
        open(os.path.join(spark.home, "registered"), "w").close()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    if args.only in (None, "latency"):
        log("block 1: latency (load %s)" % loadavg())
        block_latency(args, hudic, spark, table, smalls, out)
    if args.only in (None, "analytics"):
        log("block 2: analytics (load %s)" % loadavg())
        block_analytics(args, hudic, spark, table, out)
    out["finished"] = time.strftime("%Y-%m-%d %H:%M:%S")
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    print(markdown(out, spark is not None))


if __name__ == "__main__":
    main()
