#!/usr/bin/env python3
"""hudi_run.py - hudic vs Apache Hudi 0.15 on Spark local[2]: Hudi copy-on-write tables.

    python3 bench/hudi_run.py --spark-reps 1  # 10M rows: hudic 3 reps (~4 min each), Spark 1 (~30 min)
    python3 bench/hudi_run.py --quick         # 1M rows, 3 reps per side (~35 min on a loaded 2-core box)
    python3 bench/hudi_run.py --rows 2000000 --reps 1 --codec gzip

Builds bench/hudi_bench (Release, build/bench-rel) unless --no-build, writes the workload's
input files once (`hudi_bench gen`: base.parquet, round1..5.parquet, small1..3.parquet, the
same rows hudi_bench generates in memory), then per repetition runs both sides on a fresh
table, alternating which goes first:

* hudic: `hudi_bench run TABLE` (one process: bulk_insert, 5 upsert rounds, 1,000-row upserts,
  2 snapshot scans), one JSON line per phase;
* Spark: this script with --spark-child (its own process and JVM, through
  tests/compat/spark_harness.py): each input file is read and cached in memory (untimed),
  then the timed df.write.format("hudi") call; scans are an aggregate over every column.

Per phase, both sides report wall seconds, CPU seconds of the engine process (hudic:
CLOCK_PROCESS_CPUTIME_ID; Spark: utime+stime of the JVM from /proc), the RSS with the input
resident and the peak RSS during the phase (VmHWM reset through /proc/PID/clear_refs, hudic's
own process / the JVM). Bytes and files written come from each commit's metadata
(totalWriteBytes of every write stat), read the same way for both tables.

Afterwards the last repetition's tables are read crosswise (Spark reads hudic's table, hudic
reads Spark's): row counts, per-column sums and a sample of keys must agree with each other
and with the expected rows (computed here from the same generator).

Results: bench/results/hudi_latest.json (every repetition) and markdown on stdout.
"""
import argparse
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COMPAT = os.path.join(ROOT, "tests", "compat")

TABLE = "trips"
CODECS = {"snappy", "gzip", "zstd", "uncompressed"}
MAX_FILE_BYTES = 120 * 1024 * 1024  # hoodie.parquet.max.file.size (Hudi's default)
SMALL_FILE_BYTES = 100 * 1024 * 1024  # hoodie.parquet.small.file.limit (Hudi's default)
DATA_COLS = ["uuid", "rider", "driver", "begin_lat", "begin_lon", "end_lat", "end_lon", "fare",
             "ts", "distance_m", "partition_path"]
STRING_COLS = {"uuid", "rider", "driver", "partition_path"}
META_COLS = ["_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
             "_hoodie_partition_path", "_hoodie_file_name"]

# ------------------------------------------------------------------ the workload (see hudi_bench.c)

P = 2147483647
PARTITIONS = ["americas/united_states/san_francisco", "americas/brazil/sao_paulo",
              "asia/india/chennai"]


def mix(i, s):
    x = ((i + s * 16777259) * 1103515245 + 12345) % P
    return ((x * x) % P) ^ (x >> 5)


def unit_double(i, s):
    return (mix(i, s) * 4194304 + (mix(i, s + 1) >> 9)) / 9007199254740992.0


def uuid_of(i):
    u = ((i + 1) * 1103515245 + 12345) % P
    m11, m12 = mix(i, 11), mix(i, 12)
    return "%08x-%04x-%04x-%04x-%04x%08x" % (u, m11 & 65535, (m11 >> 16) & 65535, m12 & 65535,
                                             (m12 >> 16) & 65535, mix(i, 13))


def trips_row(i, k):
    """[partition, rider, fare, ts, distance_m] of generated row i after update salt k."""
    ts = 1695000000000 + i * 100 + mix(i, 16) % 1000
    if k == 0:
        fare, dist = unit_double(i, 14) * 100.0, mix(i, 17) % 50000
    else:
        fare, dist, ts = unit_double(i, 40 + 2 * k) * 100.0, mix(i, 60 + k) % 50000, \
            ts + k * 3600000
    return [PARTITIONS[mix(i, 18) % 3], "rider-%03d" % (mix(i, 1) % 1000), fare, ts, dist]


def batch_specs(n, rounds, small_rounds):
    """(name, n_upd, upd_first, upd_step, upd_salt, n_ins, ins_first) as in hudi_bench.c."""
    ins = n // 20
    out = [("base", 0, 0, 0, 0, n, 0)]
    for k in range(1, rounds + 1):
        out.append(("round%d" % k, n // 10, k - 1, 10, k, ins, n + (k - 1) * ins))
    step = max(ins // 500, 1)
    for s in range(1, small_rounds + 1):
        out.append(("small%d" % s, 500, n + (rounds - 1) * ins + (s - 1), step, rounds + s,
                    500, n + rounds * ins + (s - 1) * 500))
    return out


def expected_rows(n, rounds, small_rounds):
    specs = batch_specs(n, rounds, small_rounds)
    return sum(s[5] for s in specs)


def sample_keys(n, rounds, small_rounds):
    """{uuid: expected [partition, rider, fare, ts, distance_m]} for rows touched by each
    batch and rows never updated."""
    specs = batch_specs(n, rounds, small_rounds)
    ins = n // 20
    picks = set(range(0, 12)) | {n - 1, n - 2, n // 2}
    for _, n_upd, uf, us, _, n_ins, inf in specs[1:]:
        picks |= {uf, uf + us * (n_upd // 2), uf + us * (n_upd - 1), inf, inf + n_ins - 1}
    picks |= {n + ins * rounds - 1}
    out = {}
    for i in sorted(picks):
        salt = 0
        for _, n_upd, uf, us, s, _, _ in specs:
            if n_upd and i >= uf and (i - uf) % us == 0 and (i - uf) // us < n_upd:
                salt = s
        out[uuid_of(i)] = trips_row(i, salt)
    return out


# ------------------------------------------------------------------ process measurements

def proc_status_kb(pid, key):
    try:
        with open("/proc/%s/status" % pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def proc_cpu_s(pid):
    with open("/proc/%s/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reset_peak(pid):
    try:
        with open("/proc/%s/clear_refs" % pid, "w") as f:
            f.write("5")
    except OSError:
        pass


def commit_stats(table):
    """Per completed commit, in instant order: files and bytes written (sum of
    totalWriteBytes over write stats), inserts, update writes."""
    out = []
    for path in sorted(glob.glob(os.path.join(table, ".hoodie", "*.commit"))):
        with open(path) as f:
            md = json.load(f)
        files = nbytes = inserts = updates = 0
        for stats in (md.get("partitionToWriteStats") or {}).values():
            for s in stats:
                files += 1
                nbytes += s.get("totalWriteBytes", 0)
                inserts += s.get("numInserts", 0)
                updates += s.get("numUpdateWrites", 0)
        out.append({"instant": os.path.basename(path).split(".")[0], "files": files,
                    "bytes": nbytes, "inserts": inserts, "updates": updates,
                    "operation": md.get("operationType")})
    return out


def table_files(table):
    """Every base file on disk (all versions, nothing is cleaned): count and bytes."""
    total, count = 0, 0
    for dirpath, dirnames, files in os.walk(table):
        if ".hoodie" in dirpath.split(os.sep):
            continue
        for fn in files:
            if fn.endswith(".parquet"):
                count += 1
                total += os.path.getsize(os.path.join(dirpath, fn))
    return {"parquet_files": count, "parquet_bytes": total}


# ------------------------------------------------------------------ Spark child

def spark_child(spec):
    """One Spark session (own JVM) runs the whole workload on spec['table'] and prints one
    'BENCH {json}' line per phase, or reads a table (mode 'read')."""
    os.environ["PYSPARK_SUBMIT_ARGS"] = "--driver-memory %s pyspark-shell" % spec["heap"]
    sys.path.insert(0, COMPAT)
    import spark_harness as h
    from pyspark.sql import functions as F

    spark = h.start_session(h.WRITER, app="hudic-bench")
    jvm = spark._jvm
    pid = jvm.java.lang.ProcessHandle.current().pid()
    emit({"phase": "session", "jvm_pid": pid,
          "max_heap_mb": jvm.java.lang.Runtime.getRuntime().maxMemory() // (1 << 20),
          "rss_kb": proc_status_kb(pid, "VmRSS")})
    if spec["mode"] == "read":
        emit(dict(spark_scan(spark, F, spec["table"], spec.get("keys")), phase="read"))
        spark.stop()
        return

    def options(op):
        return h.write_options(TABLE, "uuid", operation=op, precombine="ts",
                               partition="partition_path", extra={
                                   "hoodie.parquet.compression.codec": spec["codec"],
                                   "hoodie.parquet.max.file.size": str(MAX_FILE_BYTES),
                                   "hoodie.parquet.small.file.limit": str(SMALL_FILE_BYTES),
                                   "hoodie.index.type": "BLOOM",
                               })

    def timed_write(name, rnd, src, op, mode):
        df = spark.read.parquet(src).cache()
        rows = df.count()  # materialise the cache before the clock starts
        setup = proc_status_kb(pid, "VmRSS")
        reset_peak(pid)
        c0, t0 = proc_cpu_s(pid), time.perf_counter()
        df.write.format("hudi").options(**options(op)).mode(mode).save(spec["table"])
        dt, dc = time.perf_counter() - t0, proc_cpu_s(pid) - c0
        emit({"phase": name, "round": rnd, "rows": rows, "time_s": dt, "cpu_s": dc,
              "setup_rss_kb": setup, "peak_rss_kb": proc_status_kb(pid, "VmHWM")})
        df.unpersist(blocking=True)

    inputs = spec["inputs"]
    phases = spec.get("phases", "bulk,upsert,small,scan").split(",")
    if "bulk" in phases:
        timed_write("bulk_insert", 0, os.path.join(inputs, "base.parquet"), "bulk_insert",
                    "overwrite")
    if "upsert" in phases:
        for k in range(1, spec["rounds"] + 1):
            timed_write("upsert", k, os.path.join(inputs, "round%d.parquet" % k), "upsert",
                        "append")
    if "small" in phases:
        for s in range(1, spec["small_rounds"] + 1):
            timed_write("upsert_1000", s, os.path.join(inputs, "small%d.parquet" % s), "upsert",
                        "append")
    if "scan" in phases:
        for r in range(2):
            setup = proc_status_kb(pid, "VmRSS")
            reset_peak(pid)
            c0, t0 = proc_cpu_s(pid), time.perf_counter()
            res = spark_scan(spark, F, spec["table"], None)
            dt, dc = time.perf_counter() - t0, proc_cpu_s(pid) - c0
            emit(dict(res, phase="scan", round=r, time_s=dt, cpu_s=dc, setup_rss_kb=setup,
                      peak_rss_kb=proc_status_kb(pid, "VmHWM")))
    spark.stop()


def spark_scan(spark, F, table, keys):
    """Snapshot read of every column: count, sums of the data columns (string bytes for
    strings), and the bytes of the meta columns so Spark cannot prune them; with keys, the
    rows of those keys."""
    df = spark.read.format("hudi").load(table)
    aggs = [F.count(F.lit(1)).alias("rows")]
    for c in DATA_COLS + META_COLS:
        aggs.append((F.sum(F.length(c)) if c in STRING_COLS or c in META_COLS else F.sum(c))
                    .alias(c))
    row = df.agg(*aggs).collect()[0]
    out = {"rows": row["rows"], "sums": {c: row[c] for c in DATA_COLS}}
    if keys:
        got = {r["uuid"]: [r["partition_path"], r["rider"], r["fare"], r["ts"], r["distance_m"]]
               for r in df.where(F.col("uuid").isin(list(keys))).select(
                   "uuid", "partition_path", "rider", "fare", "ts", "distance_m").collect()}
        out["keys"] = {k: got.get(k) for k in keys}
    return out


def emit(obj):
    print("BENCH " + json.dumps(obj), flush=True)


# ------------------------------------------------------------------ orchestration

def require_fresh(binary):
    """Stops when `binary` is older than a source it is built from (src/, include/, bench/*.c):
    with --no-build a stale binary would measure old code."""
    newest, which = 0.0, None
    for pattern in ("src/**/*.[ch]", "include/**/*.h", "bench/*.c", "CMakeLists.txt"):
        for f in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            m = os.path.getmtime(f)
            if m > newest:
                newest, which = m, f
    if not os.path.exists(binary):
        sys.exit("%s: not built (drop --no-build)" % binary)
    if os.path.getmtime(binary) < newest:
        sys.exit("%s is older than %s: rebuild it or drop --no-build" %
                 (binary, os.path.relpath(which, ROOT)))


def build(build_dir):
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_C_FLAGS_RELEASE=-O3 -march=x86-64-v2 -DNDEBUG",
                        "-DHUDI_BUILD_TESTS=OFF", "-DHUDI_WERROR=OFF"], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", build_dir, "hudi_bench"], check=True,
                   stdout=subprocess.DEVNULL)


def gen_inputs(bench, data_dir, rows, rounds, small_rounds):
    stamp = os.path.join(data_dir, "done.json")
    want = {"rows": rows, "rounds": rounds, "small_rounds": small_rounds, "version": 1}
    if os.path.exists(stamp):
        with open(stamp) as f:
            if json.load(f) == want:
                return
    os.makedirs(data_dir, exist_ok=True)
    t0 = time.time()
    subprocess.run([bench, "gen", data_dir, "--rows", str(rows), "--rounds", str(rounds),
                    "--small-rounds", str(small_rounds)], check=True, stdout=subprocess.DEVNULL)
    with open(stamp, "w") as f:
        json.dump(want, f)
    log("generated inputs in %s (%.0f s)" % (data_dir, time.time() - t0))


def log(msg):
    print("[%s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def run_hudic(bench, table, args):
    shutil.rmtree(table, ignore_errors=True)
    cmd = [bench, "run", table, "--rows", str(args.rows), "--rounds", str(args.rounds),
           "--small-rounds", str(args.small_rounds), "--codec", args.codec,
           "--phases", args.phases]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    phases = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    return {"phases": phases, "commits": commit_stats(table), "files": table_files(table),
            "total_s": time.time() - t0}


def run_spark_child(spec, log_path):
    cmd = [sys.executable, os.path.abspath(__file__), "--spark-child", json.dumps(spec)]
    t0 = time.time()
    with open(log_path, "a") as lf:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=lf, text=True)
    lines = [json.loads(line[6:]) for line in p.stdout.splitlines() if line.startswith("BENCH ")]
    if p.returncode != 0:
        raise RuntimeError("spark child failed (%d), see %s; last output: %s"
                           % (p.returncode, log_path, lines[-1:] if lines else p.stdout[-500:]))
    return lines, time.time() - t0


def run_spark(table, args, data_dir, log_path):
    shutil.rmtree(table, ignore_errors=True)
    spec = {"mode": "run", "table": table, "inputs": data_dir, "rounds": args.rounds,
            "small_rounds": args.small_rounds, "codec": args.codec, "heap": args.heap,
            "phases": args.phases}
    lines, total = run_spark_child(spec, log_path)
    return {"session": lines[0], "phases": lines[1:], "commits": commit_stats(table),
            "files": table_files(table), "total_s": total}


def med(v):
    return statistics.median(v) if v else float("nan")


def summarise(reps, side):
    """Per phase name: medians over repetitions (and over rounds for upserts)."""
    out = {}
    for name in ("bulk_insert", "upsert", "upsert_1000", "scan"):
        rows_, times, cpus, peaks, setups, nbytes, files = [], [], [], [], [], [], []
        for rep in reps:
            if side not in rep:
                continue
            r = rep[side]
            ph = [p for p in r["phases"] if p.get("phase") == name]
            if name == "scan":
                ph = ph[-1:]  # the warm scan
            commits = r["commits"]
            for p in ph:
                rows_.append(p["rows"])
                times.append(p["time_s"])
                cpus.append(p["cpu_s"])
                peaks.append(p["peak_rss_kb"])
                setups.append(p["setup_rss_kb"])
            # Commits in order: bulk, rounds, smalls.
            idx = {"bulk_insert": [0],
                   "upsert": list(range(1, 1 + rep["rounds"])),
                   "upsert_1000": list(range(1 + rep["rounds"],
                                             1 + rep["rounds"] + rep["small_rounds"]))
                   }.get(name, [])
            for i in idx:
                if i < len(commits):
                    nbytes.append(commits[i]["bytes"])
                    files.append(commits[i]["files"])
        if not times:
            continue
        out[name] = {"rows": med(rows_), "time_s": med(times), "cpu_s": med(cpus),
                     "times": times, "peak_rss_kb": max(peaks), "setup_rss_kb": med(setups),
                     "bytes": med(nbytes) if nbytes else None,
                     "files": med(files) if files else None}
    return out


def cross_check(bench, hudic_table, spark_table, args, log_path):
    keys = sample_keys(args.rows, args.rounds, args.small_rounds)
    expected = expected_rows(args.rows, args.rounds, args.small_rounds)
    res = {}
    for who, table in (("hudic", hudic_table), ("spark", spark_table)):
        p = subprocess.run([bench, "scan", table, "--keys", ",".join(keys)], capture_output=True,
                           text=True, check=True)
        res["hudic reads " + who] = json.loads(p.stdout.strip().splitlines()[-1])
        lines, _ = run_spark_child({"mode": "read", "table": table, "keys": list(keys),
                                    "heap": args.heap}, log_path)
        res["spark reads " + who] = lines[-1]
    problems = []
    ref = None
    for name, r in res.items():
        if r["rows"] != expected:
            problems.append("%s: %d rows, expected %d" % (name, r["rows"], expected))
        for k, want in keys.items():
            got = r["keys"].get(k)
            if got is None or got[:2] != want[:2] or got[3:] != want[3:] or \
                    abs(got[2] - want[2]) > 1e-9 * max(1.0, abs(want[2])):
                problems.append("%s: key %s is %s, expected %s" % (name, k, got, want))
                break
        if ref is None:
            ref = r
            continue
        for c in DATA_COLS:
            a, b = ref["sums"][c], r["sums"][c]
            if isinstance(a, float) or isinstance(b, float):
                ok = abs(a - b) <= 1e-9 * max(1.0, abs(a))
            else:
                ok = a == b
            if not ok:
                problems.append("%s: sum(%s) = %s, %s has %s" % (name, c, b, "first", a))
    return {"expected_rows": expected, "keys_checked": len(keys), "results": res,
            "problems": problems, "ok": not problems}


def fmt_s(v):
    if v is None or v != v:
        return "-"
    return "%.3f" % v if v < 1 else "%.2f" % v if v < 100 else "%.0f" % v


def fmt_mb(kb):
    return "%.0f" % (kb / 1024.0) if kb and kb > 0 else "-"


def markdown(summary, rows, args):
    h, s = summary["hudic"], summary["spark"]
    out = ["| phase | rows | hudic s (CPU s) | Spark s (CPU s) | speed-up wall (CPU) | "
           "hudic rows/s | Spark rows/s | files, MB written hudic / Spark | "
           "peak RSS MB hudic / Spark (input resident) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    labels = {"bulk_insert": "bulk_insert %d rows" % rows,
              "upsert": "upsert (10%% upd + 5%% ins), median of %d rounds x reps" % args.rounds,
              "upsert_1000": "upsert 1,000 rows (latency), median",
              "scan": "snapshot scan, all columns (warm)"}
    for name in ("bulk_insert", "upsert", "upsert_1000", "scan"):
        if name not in h or name not in s:
            continue
        a, b = h[name], s[name]
        sp_w = b["time_s"] / a["time_s"] if a["time_s"] > 0 else float("nan")
        sp_c = b["cpu_s"] / a["cpu_s"] if a["cpu_s"] > 0 else float("nan")
        wb = "-" if a["bytes"] is None else "%d, %.0f / %d, %.0f" % (
            a["files"], a["bytes"] / 1e6, b["files"], b["bytes"] / 1e6)
        out.append("| %s | %d | %s (%s) | %s (%s) | %.1fx (%.1fx) | %.0f | %.0f | %s | "
                   "%s (%s) / %s (%s) |" % (
                       labels[name], a["rows"], fmt_s(a["time_s"]), fmt_s(a["cpu_s"]),
                       fmt_s(b["time_s"]), fmt_s(b["cpu_s"]), sp_w, sp_c,
                       a["rows"] / a["time_s"], b["rows"] / b["time_s"], wb,
                       fmt_mb(a["peak_rss_kb"]), fmt_mb(a["setup_rss_kb"]),
                       fmt_mb(b["peak_rss_kb"]), fmt_mb(b["setup_rss_kb"])))
    return "\n".join(out)


def cpu_busy(interval=1.0):
    """The share of CPU time not idle (idle and iowait) over `interval` seconds, all cores."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]
    t0, i0 = sample()
    time.sleep(interval)
    t1, i1 = sample()
    return 1.0 - (i1 - i0) / max(1, t1 - t0)


def settle(max_wait=60.0, busy=0.10):
    """Waits for a quiet machine before a timed side: the page cache written back (sync), then
    one second with at most `busy` of the CPU in use (a JVM winding down, the kernel flushing
    the previous side's table), or `max_wait` seconds. Returns the seconds waited."""
    t0 = time.time()
    os.sync()
    try:
        while cpu_busy() > busy and time.time() - t0 < max_wait:
            pass
    except OSError:
        pass
    return time.time() - t0


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[:3]
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser(description="hudic vs Apache Hudi on Spark: COW tables")
    ap.add_argument("--quick", action="store_true", help="1M rows")
    ap.add_argument("--rows", type=int)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--spark-reps", type=int,
                    help="repetitions of the Spark side (default --reps; a 10M-row Spark "
                         "repetition takes about half an hour here)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--small-rounds", type=int, default=3)
    ap.add_argument("--codec", default="snappy")
    ap.add_argument("--heap", default="8g", help="Spark driver JVM heap (local mode)")
    ap.add_argument("--phases", default="bulk,upsert,small,scan")
    ap.add_argument("--only", choices=["hudic", "spark"], help="run one side only")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "bench-rel"))
    ap.add_argument("--work-dir", default=os.path.join(HERE, "data", "hudi"))
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-check", action="store_true", help="skip the cross-engine read check")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "hudi_latest.json"))
    ap.add_argument("--spark-child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.spark_child:
        spark_child(json.loads(args.spark_child))
        return
    if args.codec not in CODECS:
        ap.error("--codec: one of %s" % ", ".join(sorted(CODECS)))
    args.rows = args.rows or (1_000_000 if args.quick else 10_000_000)
    bench = os.path.join(args.build_dir, "bench", "hudi_bench")
    if not args.no_build:
        build(args.build_dir)
    require_fresh(bench)
    data_dir = os.path.join(args.work_dir, "rows%d" % args.rows)
    gen_inputs(bench, data_dir, args.rows, args.rounds, args.small_rounds)
    tables = os.path.join(args.work_dir, "tables")
    os.makedirs(tables, exist_ok=True)
    hudic_table = os.path.join(tables, "hudic_%d_%s" % (args.rows, args.codec))
    spark_table = os.path.join(tables, "spark_%d_%s" % (args.rows, args.codec))
    log_path = os.path.join(args.work_dir, "spark.log")
    result = {"rows": args.rows, "codec": args.codec, "rounds": args.rounds,
              "small_rounds": args.small_rounds, "heap": args.heap, "reps": [],
              "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                          "loadavg_start": loadavg()},
              "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    for r in range(args.reps):
        rep = {"rounds": args.rounds, "small_rounds": args.small_rounds, "loadavg": loadavg()}
        order = ["hudic", "spark"] if r % 2 == 0 else ["spark", "hudic"]
        for side in order:
            if args.only and side != args.only:
                continue
            if side == "spark" and args.spark_reps is not None and r >= args.spark_reps:
                continue
            log("rep %d/%d: %s" % (r + 1, args.reps, side))
            if side == "hudic":
                rep["hudic"] = run_hudic(bench, hudic_table, args)
            else:
                rep["spark"] = run_spark(spark_table, args, data_dir, log_path)
            log("  %s done in %.0f s" % (side, rep[side]["total_s"]))
        result["reps"].append(rep)
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    sides = [s for s in ("hudic", "spark") if not args.only or s == args.only]
    result["summary"] = {s: summarise(result["reps"], s) for s in sides}
    if not args.no_check and not args.only and "scan" in args.phases and \
            "bulk" in args.phases:
        log("cross-engine check")
        result["check"] = cross_check(bench, hudic_table, spark_table, args, log_path)
        log("cross-engine check: %s" % ("ok" if result["check"]["ok"]
                                        else "; ".join(result["check"]["problems"][:5])))
    result["machine"]["loadavg_end"] = loadavg()
    result["finished"] = time.strftime("%Y-%m-%d %H:%M:%S")
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    if len(sides) == 2:
        print(markdown(result["summary"], args.rows, args))
    else:
        print(json.dumps(result["summary"], indent=1))


if __name__ == "__main__":
    main()
