#!/usr/bin/env python3
"""mor_run.py - hudic vs Apache Hudi 0.15 on Spark local[2]: merge-on-read tables (issue 10).

    python3 bench/mor_run.py --quick                # 100k rows, 1 rep per side (~30 min at load 20-30)
    python3 bench/mor_run.py                        # 10M rows: hudic 3 reps, Spark 1 (10 deltacommits)
    python3 bench/mor_run.py --only hudic --reps 5  # hudic alone
    python3 bench/mor_run.py --rows 1000000 --spark-deltacommits 50

The workload (hudi_bench.c, mor_dc_spec; the rows of bench/gen_trips.py): a MERGE_ON_READ table
(key uuid, precombine ts, partition partition_path, table version 6, no metadata table, BLOOM
index, snappy) gets N rows by bulk_insert, then deltacommits of UPDATES only:

  dc 1       1% of the rows (N/100)            "upsert 1%"
  dc 2       10% of the rows (N/10)            "upsert 10%"
  dc 3..D    1,000 rows each                   "upsert 1,000 rows" (latency)

and is read (snapshot query, every column: count, sums of the numeric columns, bytes of the
strings) after deltacommit 1, 10 and D, then compacted (every file group has logs) and read
again. Every step's row count and sums are compared between the engines, and sampled keys
with the values computed here from the generator.

hudic (release build, build/bench-rel):
  * `hudi_bench mor` (C API, one process): bulk_insert, dc 1..10 (write call timed alone,
    batch built before the clock), the scans (--scan-reps times per point, default 4: the first
    cold, the others warm; the tables show the median of the warm ones, Spark's likewise);
  * dc 11..D: `hudic table write --op upsert --latest-wins --input dc<k>.parquet`, timed from
    process start to end (wall, CPU and peak RSS of the child from wait4);
  * `hudi_bench mor --scan-now D --compact`: the read after D, the compaction, the compacted read.
  When Spark runs fewer deltacommits (K = --spark-deltacommits, default 10), hudic's table is
  copied after dc K (untimed) and the copy compacted too, so the compactions compared are of
  the same table state.
Spark (this script with --spark-child, its own JVM, tests/compat/spark_harness.py): the same
steps through df.write.format("hudi") (MERGE_ON_READ, payload OverwriteWithLatestAvroPayload,
no inline or async compaction), input files cached before the clock; the compaction is
CALL run_compaction(op => 'schedule') then (op => 'run'), timed together.

Before each side of each repetition the script waits for a quiet machine (hudi_run.settle:
sync, then a second with under 10% of the CPU busy, at most 60 s), so that a side is not
measured while the other's JVM winds down or its table is written back.

Per step: wall, CPU (hudic: CLOCK_PROCESS_CPUTIME_ID or the child's rusage; Spark: utime+stime
of the JVM), peak RSS (VmHWM reset before the step), and the load average before and after each
block. Results: bench/results/mor_latest.json (every step of every rep), markdown on stdout.
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
sys.path.insert(0, HERE)
import hudi_run as hr  # noqa: E402  (generator mirror, /proc helpers, Spark child for reads)

TABLE = "trips"


# ------------------------------------------------------------------ the workload (hudi_bench.c)

def dc_spec(n, k):
    """(n_upd, first, step, salt) of deltacommit k, as mor_dc_spec in hudi_bench.c."""
    if k == 1:
        return (n // 100, 0, 100, 1)
    if k == 2:
        return (n // 10, 1, 10, 2)
    return (1000, k, n // 1000, k)


def dc_rows(n, k):
    return dc_spec(n, k)[0]


def sample_keys(n, upto):
    """{uuid: expected [partition, rider, fare, ts, distance_m]} after deltacommits 1..upto:
    rows of each deltacommit (first, middle, last) and rows never updated."""
    picks = {2, 3, 5, n - 1, n // 2 + 7}
    for k in range(1, upto + 1):
        cnt, first, step, _ = dc_spec(n, k)
        picks |= {first, first + step * (cnt // 2), first + step * (cnt - 1)}
    out = {}
    for i in sorted(picks):
        salt = 0
        for k in range(1, upto + 1):
            cnt, first, step, s = dc_spec(n, k)
            if i >= first and (i - first) % step == 0 and (i - first) // step < cnt:
                salt = s
        out[hr.uuid_of(i)] = hr.trips_row(i, salt)
    return out


# ------------------------------------------------------------------ Spark child

def spark_child(spec):
    os.environ["PYSPARK_SUBMIT_ARGS"] = "--driver-memory %s pyspark-shell" % spec["heap"]
    sys.path.insert(0, COMPAT)
    import spark_harness as h
    from pyspark.sql import functions as F

    spark = h.start_session(h.WRITER, app="hudic-mor-bench")
    jvm = spark._jvm
    pid = jvm.java.lang.ProcessHandle.current().pid()
    emit({"phase": "session", "jvm_pid": pid, "spark": spark.version,
          "max_heap_mb": jvm.java.lang.Runtime.getRuntime().maxMemory() // (1 << 20)})
    table = spec["table"]
    extra = {
        "hoodie.datasource.write.table.type": "MERGE_ON_READ",
        "hoodie.parquet.compression.codec": "snappy",
        "hoodie.parquet.max.file.size": str(hr.MAX_FILE_BYTES),
        "hoodie.parquet.small.file.limit": str(hr.SMALL_FILE_BYTES),
        "hoodie.index.type": "BLOOM",
        "hoodie.compact.inline": "false",
        "hoodie.compact.schedule.inline": "false",
        "hoodie.datasource.compaction.async.enable": "false",
    }
    # The compaction procedure builds its write client from the session's hoodie.* settings.
    for k, v in (("hoodie.metadata.enable", "false"), ("hoodie.embed.timeline.server", "false"),
                 ("hoodie.write.markers.type", "DIRECT"),
                 ("hoodie.parquet.compression.codec", "snappy"),
                 ("hoodie.parquet.max.file.size", str(hr.MAX_FILE_BYTES)),
                 ("hoodie.compaction.payload.class", h.PAYLOADS["latest"])):
        spark.conf.set(k, v)

    def options(op):
        return h.write_options(TABLE, "uuid", operation=op, precombine="ts",
                               partition="partition_path", payload="latest", extra=extra)

    def timed(name, label, fn, rows=0):
        setup = hr.proc_status_kb(pid, "VmRSS")
        hr.reset_peak(pid)
        c0, t0 = hr.proc_cpu_s(pid), time.perf_counter()
        res = fn()
        dt, dc = time.perf_counter() - t0, hr.proc_cpu_s(pid) - c0
        out = {"phase": name, "round": label, "rows": rows, "time_s": dt, "cpu_s": dc,
               "setup_rss_kb": setup, "peak_rss_kb": hr.proc_status_kb(pid, "VmHWM"),
               "loadavg": hr.loadavg()}
        if isinstance(res, dict):
            out.update(res)
        emit(out)

    def write(name, label, src, op, mode):
        df = spark.read.parquet(src).cache()
        rows = df.count()  # materialise the cache before the clock starts
        timed(name, label,
              lambda: df.write.format("hudi").options(**options(op)).mode(mode).save(table),
              rows)
        df.unpersist(blocking=True)

    def scans(name, label):
        for r in range(spec.get("scan_reps", 2)):
            timed(name, label, lambda: dict(hr.spark_scan(spark, F, table, None), rep=r))

    def compact():
        spark.sql("CALL run_compaction(op => 'schedule', path => '%s')" % table).collect()
        rows = spark.sql("CALL run_compaction(op => 'run', path => '%s')" % table).collect()
        return {"procedure_rows": [str(r) for r in rows]}

    inputs = spec["inputs"]
    if spec["mode"] == "read":
        emit(dict(hr.spark_scan(spark, F, table, spec.get("keys")), phase="read"))
        spark.stop()
        return
    write("bulk_insert", 0, os.path.join(inputs, "base.parquet"), "bulk_insert", "overwrite")
    for k in range(1, spec["deltacommits"] + 1):
        name = "upsert_1pct" if k == 1 else "upsert_10pct" if k == 2 else "upsert_1000"
        write(name, k, os.path.join(inputs, "dc%d.parquet" % k), "upsert", "append")
        if k in spec["scan_at"]:
            scans("scan", k)
    timed("compact", 0, compact)
    scans("scan_compacted", 0)
    spark.stop()


def emit(obj):
    print("BENCH " + json.dumps(obj), flush=True)


# ------------------------------------------------------------------ orchestration

def log(msg):
    hr.log(msg)


def build(build_dir):
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_C_FLAGS_RELEASE=-O3 -march=x86-64-v2 -DNDEBUG",
                        "-DHUDI_BUILD_TESTS=OFF", "-DHUDI_WERROR=OFF"], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", build_dir, "hudi_bench", "hudic"], check=True,
                   stdout=subprocess.DEVNULL)


def gen_inputs(bench, data_dir, rows, deltacommits):
    stamp = os.path.join(data_dir, "done.json")
    want = {"rows": rows, "deltacommits": deltacommits, "version": 1}
    if os.path.exists(stamp):
        with open(stamp) as f:
            if json.load(f) == want:
                return
    os.makedirs(data_dir, exist_ok=True)
    t0 = time.time()
    subprocess.run([bench, "gen-mor", data_dir, "--rows", str(rows), "--deltacommits",
                    str(deltacommits)], check=True, stdout=subprocess.DEVNULL)
    with open(stamp, "w") as f:
        json.dump(want, f)
    log("generated inputs in %s (%.0f s)" % (data_dir, time.time() - t0))


def instant_stats(table):
    """Per completed deltacommit/commit, in instant order: action, files and bytes written
    (totalWriteBytes of every write stat), log files among them, records written."""
    out = []
    paths = glob.glob(os.path.join(table, ".hoodie", "*.deltacommit")) + \
        glob.glob(os.path.join(table, ".hoodie", "*.commit"))
    for path in sorted(paths, key=os.path.basename):
        with open(path) as f:
            md = json.load(f)
        files = logs = nbytes = writes = 0
        for stats in (md.get("partitionToWriteStats") or {}).values():
            for s in stats:
                files += 1
                logs += ".log." in (s.get("path") or "")
                nbytes += s.get("totalWriteBytes", 0)
                writes += s.get("numWrites", 0)
        base = os.path.basename(path)
        out.append({"instant": base.split(".")[0], "action": base.split(".", 1)[1],
                    "files": files, "log_files": logs, "bytes": nbytes, "writes": writes,
                    "operation": md.get("operationType")})
    return out


def run_bench(bench, args_, block, scan_reps=None):
    """One hudi_bench process; its JSON lines tagged with the load before and after."""
    if scan_reps:
        args_ = args_ + ["--scan-reps", str(scan_reps)]
    la0 = hr.loadavg()
    t0 = time.time()
    p = subprocess.run([bench] + args_, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("hudi_bench %s failed (%d): %s"
                           % (" ".join(args_), p.returncode, p.stderr[-2000:]))
    lines = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    la1 = hr.loadavg()
    for x in lines:
        x["block"] = block
        x["loadavg_block"] = [la0, la1]
    log("  %s: %.1f s (load %s -> %s)" % (block, time.time() - t0, la0[0], la1[0]))
    return lines


def run_cli_write(hudic, table, src, k):
    """`hudic table write` as a user runs it: process start to end, with the child's CPU and
    peak RSS from wait4."""
    cmd = [hudic, "table", "write", "--op", "upsert", "--latest-wins", "--input", src, table]
    la0 = hr.loadavg()
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    out, err = p.stdout.read(), p.stderr.read()
    p.stdout.close()
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), err.decode(errors="replace")[-1000:]))
    return {"phase": "cli_upsert_1000", "round": k, "rows": 1000, "time_s": dt,
            "cpu_s": ru.ru_utime + ru.ru_stime, "peak_rss_kb": ru.ru_maxrss,
            "loadavg": [la0, hr.loadavg()], "stdout": out.decode(errors="replace").strip()}


def run_hudic(bench, hudic, tables, data_dir, args):
    t_main = os.path.join(tables, "hudic_mor_%d" % args.rows)
    t_k = os.path.join(tables, "hudic_mor_%d_dc%d" % (args.rows, args.spark_deltacommits))
    for t in (t_main, t_k):
        shutil.rmtree(t, ignore_errors=True)
    d, ks = args.deltacommits, args.spark_deltacommits
    first = min(10, d)
    scan_at = sorted({1, 10, ks} & set(range(1, first + 1)))
    phases = run_bench(bench, ["mor", t_main, "--rows", str(args.rows), "--create",
                               "--dc-from", "1", "--dc-to", str(first),
                               "--scan-at", ",".join(map(str, scan_at))], "capi",
                       scan_reps=args.scan_reps)
    copy = None
    for k in range(first + 1, d + 1):
        if k - 1 == ks:
            copy = t_k
            shutil.copytree(t_main, t_k, symlinks=True)
        phases.append(dict(run_cli_write(hudic, t_main, os.path.join(data_dir, "dc%d.parquet" % k),
                                         k), block="cli"))
        if k in (ks, d) and k != d:
            phases += run_bench(bench, ["mor", t_main, "--rows", str(args.rows), "--scan-now",
                                        str(k)], "scan", scan_reps=args.scan_reps)
    if d > first:
        log("  cli writes: dc %d..%d done" % (first + 1, d))
    if d == ks:
        copy = None
    extra = ["--scan-now", str(d)] if d > first else []
    for th in args.compact_threads:
        # the same table state compacted on a copy with hoodie.hudic.parallelism = th
        t_th = t_main + "_threads%d" % th
        shutil.rmtree(t_th, ignore_errors=True)
        shutil.copytree(t_main, t_th, symlinks=True)
        more = run_bench(bench, ["mor", t_th, "--rows", str(args.rows), "--compact",
                                 "--threads", str(th)], "compact_threads_%d" % th,
                         scan_reps=args.scan_reps)
        for x in more:
            x["phase"] += "_threads_%d" % th
        phases += more
        shutil.rmtree(t_th, ignore_errors=True)
    phases += run_bench(bench, ["mor", t_main, "--rows", str(args.rows), "--compact"] + extra,
                        "compact", scan_reps=args.scan_reps)
    if copy:
        more = run_bench(bench, ["mor", copy, "--rows", str(args.rows), "--compact"],
                         "compact_at_%d" % ks, scan_reps=args.scan_reps)
        for x in more:
            x["phase"] += "_at_%d" % ks
        phases += more
    return {"phases": phases, "instants": instant_stats(t_main), "table": t_main,
            "table_at_spark": copy or t_main}


def run_spark(tables, data_dir, args, log_path):
    table = os.path.join(tables, "spark_mor_%d" % args.rows)
    shutil.rmtree(table, ignore_errors=True)
    ks = args.spark_deltacommits
    spec = {"mode": "run", "table": table, "inputs": data_dir, "deltacommits": ks,
            "scan_reps": args.scan_reps,
            "scan_at": sorted({1, 10, ks} & set(range(1, ks + 1))), "heap": args.heap}
    la0 = hr.loadavg()
    lines, total = spark_run_child(spec, log_path)
    return {"session": lines[0], "phases": lines[1:], "instants": instant_stats(table),
            "table": table, "total_s": total, "loadavg_block": [la0, hr.loadavg()]}


def spark_run_child(spec, log_path):
    """Runs the Spark child; its BENCH lines are also appended to log_path + ".jsonl" as they
    come, so a run stopped half way keeps the steps done."""
    cmd = [sys.executable, os.path.abspath(__file__), "--spark-child", json.dumps(spec)]
    t0 = time.time()
    with open(log_path, "a") as lf, open(log_path + ".jsonl", "a") as jf:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=lf, text=True)
        lines = []
        for line in p.stdout:
            if line.startswith("BENCH "):
                lines.append(json.loads(line[6:]))
                jf.write(line)
                jf.flush()
                x = lines[-1]
                if "time_s" in x:
                    log("  spark %s %s: %.1f s (cpu %.1f, load %s)"
                        % (x["phase"], x.get("round"), x["time_s"], x["cpu_s"],
                           (x.get("loadavg") or ["?"])[0]))
        p.wait()
    if p.returncode != 0:
        raise RuntimeError("spark child failed (%d), see %s; last output: %s"
                           % (p.returncode, log_path, lines[-1:]))
    return lines, time.time() - t0


# ------------------------------------------------------------------ checks

def sums_equal(a, b):
    problems = []
    for c in hr.DATA_COLS:
        x, y = a.get(c), b.get(c)
        if isinstance(x, float) or isinstance(y, float):
            ok = x is not None and y is not None and abs(x - y) <= 1e-9 * max(1.0, abs(x))
        else:
            ok = x == y
        if not ok:
            problems.append("sum(%s): %s vs %s" % (c, x, y))
    return problems


def step_checks(result, rows, d, ks):
    """Every scan: N rows; per scan point (after deltacommit k; compacted after k), equal sums
    in every scan of every rep and side."""
    problems, by_point = [], {}
    for rep in result["reps"]:
        for side in ("hudic", "spark"):
            for x in (rep.get(side) or {}).get("phases", []):
                if not x["phase"].startswith("scan") or "sums" not in x:
                    continue
                if x["rows"] != rows:
                    problems.append("%s %s@%s: %d rows, expected %d"
                                    % (side, x["phase"], x["round"], x["rows"], rows))
                if x["phase"].startswith("scan_compacted_at_"):
                    point = "compacted@%s" % x["phase"][len("scan_compacted_at_"):]
                elif x["phase"] == "scan_compacted":
                    point = "compacted@%d" % (d if side == "hudic" else ks)
                else:
                    point = "dc%s" % x["round"]
                by_point.setdefault(point, []).append((side, x["sums"]))
    return by_point, problems


def cross_check(bench, hudic_table, spark_table, upto, rows, args, log_path):
    """Both engines read both tables (same state: after dc `upto`, compacted): rows, sums,
    sampled keys against the generator."""
    keys = sample_keys(rows, upto)
    res = {}
    for who, table in (("hudic", hudic_table), ("spark", spark_table)):
        p = subprocess.run([bench, "scan", table, "--keys", ",".join(keys)], capture_output=True,
                           text=True, check=True)
        res["hudic reads " + who] = json.loads(p.stdout.strip().splitlines()[-1])
        if spark_table:
            lines, _ = spark_run_child({"mode": "read", "table": table, "keys": list(keys),
                                        "heap": args.heap, "inputs": ""}, log_path)
            res["spark reads " + who] = lines[-1]
        if not spark_table:
            break
    problems, ref = [], None
    for name, r in res.items():
        if r["rows"] != rows:
            problems.append("%s: %d rows, expected %d" % (name, r["rows"], rows))
        for k, want in keys.items():
            got = r["keys"].get(k)
            if got is None or got[:2] != want[:2] or got[3:] != want[3:] or \
                    abs(got[2] - want[2]) > 1e-9 * max(1.0, abs(want[2])):
                problems.append("%s: key %s is %s, expected %s" % (name, k, got, want))
                break
        if ref is None:
            ref = r
        else:
            problems += ["%s: %s" % (name, p) for p in sums_equal(ref["sums"], r["sums"])]
    return {"keys_checked": len(keys), "problems": problems, "ok": not problems,
            "results": res}


# ------------------------------------------------------------------ summary

def med(v):
    return statistics.median(v) if v else float("nan")


def collect(result, side, phase, label=None, warm=True):
    out = []
    for rep in result["reps"]:
        for x in (rep.get(side) or {}).get("phases", []):
            if x.get("phase") != phase or (label is not None and x.get("round") != label):
                continue
            if phase.startswith("scan") and warm and x.get("rep", 1) < 1:
                continue
            out.append(x)
    return out


def stat(xs):
    if not xs:
        return None
    return {"n": len(xs), "time_s": med([x["time_s"] for x in xs]),
            "cpu_s": med([x["cpu_s"] for x in xs]),
            "min_s": min(x["time_s"] for x in xs), "max_s": max(x["time_s"] for x in xs),
            "peak_rss_kb": max(x.get("peak_rss_kb", -1) for x in xs),
            "rows": xs[0].get("rows", 0)}


def summarise(result, args):
    ks, d = args.spark_deltacommits, args.deltacommits
    comp_h = "compact_at_%d" % ks if ks != d else "compact"
    scomp_h = "scan_compacted_at_%d" % ks if ks != d else "scan_compacted"
    rows = [
        ("bulk_insert", ("bulk_insert", None), ("bulk_insert", None)),
        ("upsert 1% (dc 1)", ("upsert_1pct", None), ("upsert_1pct", None)),
        ("upsert 10% (dc 2)", ("upsert_10pct", None), ("upsert_10pct", None)),
        ("upsert 1,000 rows, write call (dc 3-%d)" % min(10, d), ("upsert_1000", None),
         ("upsert_1000", None)),
        ("upsert 1,000 rows, `hudic table write` process (dc 11-%d)" % d,
         ("cli_upsert_1000", None), None),
        ("snapshot read after 1 deltacommit", ("scan", 1), ("scan", 1)),
        ("snapshot read after 10 deltacommits", ("scan", 10), ("scan", 10)),
    ]
    if d > 10:
        rows.append(("snapshot read after %d deltacommits" % d, ("scan", d),
                     ("scan", d) if ks == d else None))
    if ks not in (10, d) and ks > 1:
        rows.append(("snapshot read after %d deltacommits" % ks, ("scan", ks), ("scan", ks)))
    rows += [("compaction after %d deltacommits" % ks, (comp_h, None), ("compact", None)),
             ("snapshot read of the compacted table (after %d dc)" % ks, (scomp_h, None),
              ("scan_compacted", None))]
    if ks != d:
        rows += [("compaction after %d deltacommits" % d, ("compact", None), None),
                 ("snapshot read of the compacted table (after %d dc)" % d,
                  ("scan_compacted", None), None)]
    out = []
    for label, hk, sk in rows:
        h = stat(collect(result, "hudic", *hk)) if hk else None
        s = stat(collect(result, "spark", *sk)) if sk else None
        for x in (h, s):
            if x and label.startswith("compaction"):
                x["rows"] = args.rows  # every row of the table is rewritten
        if h or s:
            out.append({"step": label, "hudic": h, "spark": s})
    return out


def fmt_s(v):
    if v is None or v != v:
        return "-"
    return "%.4f" % v if v < 0.1 else "%.3f" % v if v < 10 else "%.1f" % v


def fmt_mb(kb):
    return "%.0f" % (kb / 1024.0) if kb and kb > 0 else "-"


def markdown(summary):
    out = ["| step | rows | hudic s (CPU s) [n] | Spark s (CPU s) [n] | speed-up wall (CPU) | "
           "hudic rows/s | Spark rows/s | peak RSS MB hudic / Spark |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in summary:
        h, s = r["hudic"], r["spark"]
        rows = (h or s)["rows"]
        cell = lambda x: "-" if not x else "%s (%s) [%d]" % (fmt_s(x["time_s"]),
                                                             fmt_s(x["cpu_s"]), x["n"])
        sp = "-"
        if h and s and h["time_s"] > 0 and h["cpu_s"] > 0:
            sp = "%.1fx (%.1fx)" % (s["time_s"] / h["time_s"], s["cpu_s"] / h["cpu_s"])
        rps = lambda x: "-" if not x or not rows or x["time_s"] <= 0 else \
            "%.0f" % (rows / x["time_s"])
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s / %s |" % (
            r["step"], "{:,}".format(rows) if rows else "-", cell(h), cell(s), sp, rps(h),
            rps(s), fmt_mb(h and h["peak_rss_kb"]), fmt_mb(s and s["peak_rss_kb"])))
    return "\n".join(out)


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description="hudic vs Apache Hudi on Spark: MOR tables")
    ap.add_argument("--quick", action="store_true", help="100k rows, 1 rep")
    ap.add_argument("--rows", type=int)
    ap.add_argument("--reps", type=int, help="hudic repetitions (default 3; --quick 1)")
    ap.add_argument("--spark-reps", type=int, default=1)
    ap.add_argument("--scan-reps", type=int, default=4,
                    help="scans per read point and engine, the first cold (default 4); "
                         "the tables show the median of the warm ones")
    ap.add_argument("--deltacommits", type=int, default=50, help="hudic's deltacommits (>= 10)")
    ap.add_argument("--spark-deltacommits", type=int, default=10,
                    help="Spark's deltacommits; hudic's table is also compacted at this point")
    ap.add_argument("--compact-threads", default="",
                    help="also compact copies of hudic's final table with these "
                         "hoodie.hudic.parallelism values (e.g. 1,2) before the timed compaction")
    ap.add_argument("--heap", default="8g", help="Spark driver JVM heap (local mode)")
    ap.add_argument("--only", choices=["hudic", "spark"], help="run one side only")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "bench-rel"))
    ap.add_argument("--work-dir", default=os.path.join(HERE, "data", "mor"))
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-check", action="store_true", help="skip the cross-engine read check")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "mor_latest.json"))
    ap.add_argument("--summary", metavar="JSON",
                    help="only print the tables of an earlier run's results (also a partial one)")
    ap.add_argument("--spark-steps", metavar="JSONL",
                    help="with --summary: Spark's steps from a run's spark.log.jsonl (the steps a "
                         "stopped run finished), when the results hold no Spark side")
    ap.add_argument("--spark-child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    try:
        args.compact_threads = [int(x) for x in args.compact_threads.split(",") if x.strip()]
    except ValueError:
        ap.error("--compact-threads: thread counts separated by commas")
    if args.spark_child:
        spark_child(json.loads(args.spark_child))
        return
    if args.summary:
        with open(args.summary) as f:
            result = json.load(f)
        for k in ("rows", "deltacommits", "spark_deltacommits"):
            setattr(args, k, result[k])
        if args.spark_steps and result["reps"] and "spark" not in result["reps"][0]:
            with open(args.spark_steps) as f:
                steps = [json.loads(line[6:]) for line in f if line.startswith("BENCH ")]
            last = max(i for i, x in enumerate(steps) if x["phase"] == "session")
            result["reps"][0]["spark"] = {"phases": [x for x in steps[last + 1:]
                                                     if x.get("rows", 0) in (0, args.rows) or
                                                     not x["phase"].startswith("scan")]}
        print_tables(result, args)
        return
    args.rows = args.rows or (100_000 if args.quick else 10_000_000)
    args.reps = args.reps or (1 if args.quick else 3)
    if args.rows % 100_000 or args.deltacommits < 10 or args.deltacommits > 97 or \
            not 10 <= args.spark_deltacommits <= args.deltacommits:
        ap.error("--rows: a multiple of 100000; 10 <= --deltacommits <= 97; "
                 "10 <= --spark-deltacommits <= --deltacommits")
    bench = os.path.join(args.build_dir, "bench", "hudi_bench")
    hudic = os.path.join(args.build_dir, "hudic")
    if not args.no_build:
        build(args.build_dir)
    hr.require_fresh(bench)
    hr.require_fresh(hudic)
    data_dir = os.path.join(args.work_dir, "rows%d" % args.rows)
    gen_inputs(bench, data_dir, args.rows, args.deltacommits)
    tables = os.path.join(args.work_dir, "tables")
    os.makedirs(tables, exist_ok=True)
    log_path = os.path.join(args.work_dir, "spark.log")
    result = {"rows": args.rows, "deltacommits": args.deltacommits,
              "spark_deltacommits": args.spark_deltacommits, "heap": args.heap, "reps": [],
              "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                          "loadavg_start": hr.loadavg()},
              "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                       capture_output=True, text=True).stdout.strip(),
              "started": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    last = {}
    for r in range(args.reps):
        rep = {"loadavg": hr.loadavg()}
        order = ["hudic", "spark"] if r % 2 == 0 else ["spark", "hudic"]
        for side in order:
            if args.only and side != args.only:
                continue
            if side == "spark" and r >= args.spark_reps:
                continue
            waited = hr.settle()
            log("rep %d/%d: %s (load %s, waited %.0f s for a quiet machine)"
                % (r + 1, args.reps, side, hr.loadavg(), waited))
            t0 = time.time()
            if side == "hudic":
                rep[side] = run_hudic(bench, hudic, tables, data_dir, args)
            else:
                rep[side] = run_spark(tables, data_dir, args, log_path)
            rep[side]["total_s"] = time.time() - t0
            rep[side]["settle_s"] = waited
            last[side] = rep[side]
            log("  %s done in %.0f s" % (side, rep[side]["total_s"]))
        result["reps"].append(rep)
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    by_point, problems = step_checks(result, args.rows, args.deltacommits,
                                     args.spark_deltacommits)
    for point, entries in by_point.items():
        for side, sums in entries[1:]:
            problems += ["%s (%s vs %s): %s" % (point, entries[0][0], side, p)
                         for p in sums_equal(entries[0][1], sums)]
    result["step_check"] = {"points": sorted(by_point), "problems": problems}
    log("step check (%s): %s" % (", ".join(sorted(by_point)),
                                 "ok" if not problems else "; ".join(problems[:5])))
    if not args.no_check and "hudic" in last:
        log("cross-engine check")
        result["check"] = cross_check(bench, last["hudic"]["table_at_spark"],
                                      last.get("spark", {}).get("table"),
                                      args.spark_deltacommits, args.rows, args, log_path)
        log("cross-engine check: %s" % ("ok" if result["check"]["ok"]
                                        else "; ".join(result["check"]["problems"][:5])))
    result["machine"]["loadavg_end"] = hr.loadavg()
    result["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    result["summary"] = summarise(result, args)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print_tables(result, args)


def print_tables(result, args):
    """The comparison table, the load of each block, the step checks and hudic's read ratios."""
    by_point, problems = step_checks(result, args.rows, args.deltacommits,
                                     args.spark_deltacommits)
    for point, entries in by_point.items():
        for side, sums in entries[1:]:
            problems += ["%s (%s vs %s): %s" % (point, entries[0][0], side, p)
                         for p in sums_equal(entries[0][1], sums)]
    print(markdown(summarise(result, args)))
    print()
    print("step checks (%s): %s" % (", ".join(sorted(by_point)),
                                    "ok" if not problems else "; ".join(problems[:5])))
    for i, rep in enumerate(result["reps"]):
        for side in ("hudic", "spark"):
            r = rep.get(side)
            if not r:
                continue
            blocks = {}
            for x in r["phases"]:
                la = x.get("loadavg_block") or x.get("loadavg")
                if la and isinstance(la[0], list):
                    b = blocks.setdefault(x.get("block", side), [la[0][0], la[1][0]])
                    b[1] = la[1][0]
                elif la:
                    b = blocks.setdefault(side, [la[0], la[0]])
                    b[1] = la[0]
            print("rep %d %s: %.0f s; load average (1 min) before -> after: %s" % (
                i + 1, side, r.get("total_s", 0),
                ", ".join("%s %s -> %s" % (k, v[0], v[1]) for k, v in blocks.items())))
    # hudic: merged reads against the compacted read, per repetition (warm scans, CPU and wall)
    for i, rep in enumerate(result["reps"]):
        ph = (rep.get("hudic") or {}).get("phases", [])
        warm = {}
        for x in ph:
            if x["phase"].startswith("scan") and x.get("rep", 0) >= 1:
                warm.setdefault((x["phase"], x["round"]), []).append(x)
        warm = {k: {"time_s": med([x["time_s"] for x in v]), "cpu_s": med([x["cpu_s"] for x in v])}
                for k, v in warm.items()}
        ks = args.spark_deltacommits
        base = warm.get(("scan_compacted_at_%d" % ks, 0)) or warm.get(("scan_compacted", 0))
        if not base:
            continue
        parts = []
        for (name, rnd), x in sorted(warm.items(), key=lambda kv: (kv[0][0] != "scan", kv[0][1])):
            if name == "scan":
                parts.append("after %d dc %.2fx wall, %.2fx CPU" % (
                    rnd, x["time_s"] / base["time_s"], x["cpu_s"] / base["cpu_s"]))
        print("rep %d hudic snapshot read / compacted read (after %d dc): %s"
              % (i + 1, ks, "; ".join(parts)))


if __name__ == "__main__":
    main()
