#!/usr/bin/env python3
"""run.py - hudic vs DuckDB on the same Parquet files, side by side.

    python3 bench/run.py            # 10M rows, 5 repetitions (several minutes)
    python3 bench/run.py --quick    # 1M rows, 3 repetitions (smoke test, about a minute)

Builds bench/parquet_bench (Release) unless --no-build, generates the trips files
(gen_trips.py) if missing, then for every case runs one untimed warm-up round per side
(which also checks that both sides computed the same answer) and `reps` timed rounds.
Every measurement is a fresh process (parquet_bench, or this script with --duckdb-child),
and the two sides alternate within a round, so background load hits both alike.
Reported: median wall seconds, median CPU seconds (CLOCK_PROCESS_CPUTIME_ID over the timed
region, all threads), the hudic/DuckDB ratio of each (<= 1.0: hudic as fast or faster),
and each side's peak RSS (VmHWM of its process) and RSS after setup.

Results go to bench/results/latest.json (--quick: quick.json; or --out) and markdown tables
on stdout.
"""
import argparse
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
sys.path.insert(0, HERE)
import gen_trips  # noqa: E402

STRING_COLS = {"uuid", "rider", "driver", "partition_path"}
ALL_COLS = ["uuid", "rider", "driver", "begin_lat", "begin_lon", "end_lat", "end_lon", "fare",
            "ts", "distance_m", "partition_path"]
PROJ_COLS = ["uuid", "fare", "ts"]
PRED_COL, PRED_OP, PRED_VALUE = "fare", ">", "99.5"
# Write row groups: DuckDB's default (122880 rows), given to both sides. DuckDB's COPY is
# much slower with 1M-row groups (17 s vs 9 s for 10M rows here), hudic barely changes, so
# this is the setting that favours DuckDB.
WRITE_ROW_GROUP = 122880
# Each measuring process runs the operation twice: the first run is a fresh process (what a
# CLI invocation pays: first-touch page faults, lazily built state), the second a warm one
# (what a long-running engine pays). Both are reported; the ratios use the warm run.
RUNS_PER_PROCESS = 2


# ---------------------------------------------------------------- DuckDB child process

def status_kb(key):
    """/proc/self/status value in kB. Peak RSS is VmHWM, not ru_maxrss: Linux carries
    ru_maxrss across execve, so children would inherit this (DuckDB-importing) parent's."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


def duckdb_child(spec):
    """Runs one DuckDB measurement in this (fresh) process and prints a JSON line."""
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET threads={spec['threads']}")
    con.execute("SET enable_progress_bar=false")
    out = {"threads": spec["threads"]}
    if spec["kind"] == "query":
        setup = status_kb("VmRSS")
        sql = spec["sql"]
    else:  # write: from an in-memory table, so neither side reads Parquet while timed
        con.execute(f"CREATE TABLE trips AS SELECT * FROM read_parquet('{spec['src']}')")
        setup = status_kb("VmRSS")
        sql = (f"COPY trips TO '{spec['out']}' (FORMAT parquet, COMPRESSION "
               f"{spec['codec']}, ROW_GROUP_SIZE {spec['row_group_size']})")
    out["times_s"], out["cpu_s"] = [], []
    for _ in range(RUNS_PER_PROCESS):  # first run: fresh process; second: warm process
        t0, c0 = time.perf_counter(), time.process_time()
        row = con.execute(sql).fetchone()
        out["times_s"].append(time.perf_counter() - t0)
        out["cpu_s"].append(time.process_time() - c0)
    if spec["kind"] == "query":
        out["result"] = [float(v) if isinstance(v, float) else int(v) for v in row]
    else:
        out["bytes"] = os.path.getsize(spec["out"])
    out["setup_rss_kb"] = setup
    out["peak_rss_kb"] = status_kb("VmHWM")
    print(json.dumps(out))


# ---------------------------------------------------------------- running the two sides

def run_json(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def per_run(r):
    """Splits a child's two runs into cold (fresh process) and warm numbers."""
    return {"cold_s": r["times_s"][0], "cold_cpu_s": r["cpu_s"][0],
            "time_s": r["times_s"][-1], "cpu_s": r["cpu_s"][-1],
            "peak_rss_kb": r["peak_rss_kb"], "setup_rss_kb": r.get("setup_rss_kb", 0), "raw": r}


def run_hudic(bench, args):
    return per_run(run_json([bench] + args + ["--repeat", str(RUNS_PER_PROCESS)]))


def run_duckdb(spec):
    return per_run(run_json([sys.executable, os.path.abspath(__file__), "--duckdb-child",
                             json.dumps(spec)]))


def sum_expr(c):
    return f"sum(strlen({c}))" if c in STRING_COLS else f"sum({c})"


def check_same(case, hudic_raw, duck):
    """Both sides must have computed the same rows and sums (doubles to 1e-9 relative)."""
    if case["kind"] != "scan":
        return
    sums = hudic_raw["checksums"]
    expect = [hudic_raw["rows"]]
    for c in case["cols"]:
        expect.append(sums[c]["bytes"] if c in STRING_COLS else sums[c]["sum"])
    got = duck["raw"]["result"]
    for e, g in zip(expect, got):
        if isinstance(g, float) or isinstance(e, float):
            ok = abs(float(e) - float(g)) <= 1e-9 * max(1.0, abs(float(g)))
        else:
            ok = int(e) == int(g)
        if not ok:
            raise RuntimeError(f"{case['name']}: hudic {expect} != duckdb {got}")


def verify_write(case, out_paths, src):
    """hudic's output must hold exactly the rows of the source file (checked by DuckDB)."""
    import duckdb

    con = duckdb.connect()
    files = "[" + ",".join(f"'{p}'" for p in out_paths) + "]"
    n = con.execute(f"SELECT count(*) FROM read_parquet({files})").fetchone()[0]
    diff = con.execute(f"SELECT count(*) FROM (SELECT * FROM read_parquet({files}) EXCEPT "
                       f"SELECT * FROM read_parquet('{src}'))").fetchone()[0]
    want = con.execute(f"SELECT count(*) FROM read_parquet('{src}')").fetchone()[0]
    if n != want or diff != 0:
        raise RuntimeError(f"{case['name']}: hudic wrote {n} rows ({diff} not in {src})")


def make_cases(files, rows, tmpdir, codecs):
    cases = []
    for codec in codecs:
        for t in (1, 2):
            cases.append({"name": f"scan all columns, {codec}, {t} thread{'s' * (t > 1)}",
                          "kind": "scan", "file": files[codec], "threads": t, "cols": ALL_COLS,
                          "group": "full", "codec": codec})
    for t in (1, 2):
        cases.append({"name": f"projection ({','.join(PROJ_COLS)}), snappy, {t}t",
                      "kind": "scan", "file": files["snappy"], "threads": t, "cols": PROJ_COLS,
                      "group": "projection", "codec": "snappy"})
        cases.append({"name": f"filter {PRED_COL} {PRED_OP} {PRED_VALUE}, snappy, {t}t",
                      "kind": "scan", "file": files["snappy"], "threads": t, "cols": [PRED_COL],
                      "where": True, "group": "filter", "codec": "snappy"})
    for t in (1, 2):
        cases.append({"name": f"write snappy, {t} thread{'s' * (t > 1)}", "kind": "write",
                      "threads": t, "rows": rows, "codec": "snappy", "src": files["snappy"],
                      "out": os.path.join(tmpdir, f"write_t{t}"), "group": "write"})
    for c in cases:
        c["hudic_args"], c["duckdb_spec"] = sides(c)
    return cases


def sides(c):
    t = c["threads"]
    if c["kind"] == "scan":
        args = ["scan", c["file"], "--threads", str(t)]
        sql_cols = ", ".join(sum_expr(x) for x in c["cols"])
        where = ""
        if c.get("where"):
            args += ["--where", f"{PRED_COL}{PRED_OP}{PRED_VALUE}"]
            where = f" WHERE {PRED_COL} {PRED_OP} {PRED_VALUE}"
        elif c["cols"] != ALL_COLS:
            args += ["--columns", ",".join(c["cols"])]
        sql = f"SELECT count(*), {sql_cols} FROM read_parquet('{c['file']}'){where}"
        return args, {"kind": "query", "threads": t, "sql": sql}
    hudic_out = c["out"] + "_hudic.parquet"
    args = ["write", hudic_out, "--rows", str(c["rows"]), "--codec", c["codec"],
            "--threads", str(t), "--row-group-rows", str(WRITE_ROW_GROUP)]
    spec = {"kind": "write", "threads": t, "src": c["src"], "out": c["out"] + "_duckdb.parquet",
            "codec": c["codec"], "row_group_size": WRITE_ROW_GROUP}
    return args, spec


def hudic_write_outputs(c):
    base = c["out"] + "_hudic.parquet"
    if c["threads"] == 1:
        return [base]
    return [f"{base}.part{k}" for k in range(c["threads"])]


def cleanup_write(c):
    for p in hudic_write_outputs(c) + [c["duckdb_spec"]["out"]]:
        if os.path.exists(p):
            os.remove(p)


def measure(bench, case, reps, log, before=None):
    """before: a second parquet_bench (an older build), run in the same rounds as a third side
    for scan cases, so a before/after comparison shares the load of one run."""
    hs, ds, bs = [], [], []
    before = before if case["kind"] == "scan" else None
    # Warm-up round: page cache, plus the correctness check of both answers.
    h = run_hudic(bench, case["hudic_args"])
    d = run_duckdb(case["duckdb_spec"])
    if case["kind"] == "scan":
        check_same(case, h["raw"], d)
        if before:
            check_same(case, run_hudic(before, case["hudic_args"])["raw"], d)
    else:
        verify_write(case, hudic_write_outputs(case), case["src"])
        cleanup_write(case)
    for r in range(reps):
        order = ["h", "d"] + (["b"] if before else [])
        for side in order if r % 2 == 0 else order[::-1]:
            if side == "h":
                hs.append(run_hudic(bench, case["hudic_args"]))
            elif side == "b":
                bs.append(run_hudic(before, case["hudic_args"]))
            else:
                ds.append(run_duckdb(case["duckdb_spec"]))
            if case["kind"] == "write":
                cleanup_write(case)
    res = summarize(case, hs, ds)
    res["loadavg_after"] = os.getloadavg()
    if bs:
        res["hudic_before"] = side_summary(bs)
        res["ratio_cpu_before"] = res["hudic_before"]["median_cpu_s"] / res["duckdb"]["median_cpu_s"]
        log(f"    before: {res['hudic_before']['median_s']:.3f}s "
            f"(cpu {res['hudic_before']['median_cpu_s']:.3f}) -> cpu ratio "
            f"{res['ratio_cpu_before']:.2f}")
    log(f"  {case['name']}: hudic {res['hudic']['median_s']:.3f}s "
        f"(cpu {res['hudic']['median_cpu_s']:.3f}), duckdb {res['duckdb']['median_s']:.3f}s "
        f"(cpu {res['duckdb']['median_cpu_s']:.3f}) -> ratio {res['ratio_wall']:.2f} "
        f"(cpu {res['ratio_cpu']:.2f})")
    return res


def side_summary(runs):
    return {"median_s": statistics.median(r["time_s"] for r in runs),
            "median_cpu_s": statistics.median(r["cpu_s"] for r in runs),
            "median_cold_s": statistics.median(r["cold_s"] for r in runs),
            "median_cold_cpu_s": statistics.median(r["cold_cpu_s"] for r in runs),
            "times_s": [round(r["time_s"], 4) for r in runs],
            "cpu_s": [round(r["cpu_s"], 4) for r in runs],
            "peak_rss_mb": max(r["peak_rss_kb"] for r in runs) / 1024,
            "setup_rss_mb": statistics.median(r["setup_rss_kb"] for r in runs) / 1024}


def summarize(case, hs, ds):
    h, d = side_summary(hs), side_summary(ds)
    res = {k: case[k] for k in ("name", "kind", "group", "threads")}
    res["codec"] = case.get("codec")
    res["hudic"], res["duckdb"] = h, d
    res["ratio_wall"] = h["median_s"] / d["median_s"]
    res["ratio_cpu"] = h["median_cpu_s"] / d["median_cpu_s"]
    res["ratio_cold_wall"] = h["median_cold_s"] / d["median_cold_s"]
    if case["kind"] == "scan":
        res["rows_out"] = hs[0]["raw"]["rows"]
    else:
        res["hudic_bytes"] = hs[0]["raw"]["bytes"]
        res["duckdb_bytes"] = ds[0]["raw"]["bytes"]
    return res


def rawcodec(bench, files, codecs, reps, full_results, log):
    out = []
    for codec in codecs:
        r = run_json([bench, "rawcodec", files[codec], "--repeat", str(reps), "--warmup", "1"])
        scan = next(x for x in full_results if x["group"] == "full" and x["codec"] == codec
                    and x["threads"] == 1)
        raw_cpu = statistics.median(r["cpu_s"])
        row = {"codec": codec, "pages": r["pages"],
               "compressed_mb": r["compressed_bytes"] / 1e6,
               "uncompressed_mb": r["uncompressed_bytes"] / 1e6,
               "raw_decompress_s": r["median_s"], "raw_decompress_cpu_s": raw_cpu,
               "hudic_scan_cpu_s": scan["hudic"]["median_cpu_s"],
               "duckdb_scan_cpu_s": scan["duckdb"]["median_cpu_s"]}
        row["hudic_fraction"] = raw_cpu / row["hudic_scan_cpu_s"]
        row["duckdb_fraction"] = raw_cpu / row["duckdb_scan_cpu_s"]
        log(f"  rawcodec {codec}: {raw_cpu:.3f}s cpu; decode speed = "
            f"{row['hudic_fraction']:.2f} of raw decompression (duckdb {row['duckdb_fraction']:.2f})")
        out.append(row)
    return out


# ---------------------------------------------------------------- reporting

def machine_info():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    import duckdb

    try:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = "?"
    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout
    return {"nproc": os.cpu_count(), "cpu": model, "kernel": platform.release(),
            "mem_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
            "duckdb": duckdb.__version__, "python": platform.python_version(),
            "cc": cc.splitlines()[0] if cc else "?", "hudic_commit": commit}


def markdown(report):
    lines = ["| case | hudic s (cpu s) | DuckDB s (cpu s) | ratio wall | ratio cpu "
             "| cold-process ratio | hudic peak MB (after setup) | DuckDB peak MB (after setup) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in report["results"]:
        h, d = r["hudic"], r["duckdb"]
        lines.append(f"| {r['name']} | {h['median_s']:.3f} ({h['median_cpu_s']:.3f}) "
                     f"| {d['median_s']:.3f} ({d['median_cpu_s']:.3f}) "
                     f"| {r['ratio_wall']:.2f} | {r['ratio_cpu']:.2f} "
                     f"| {r['ratio_cold_wall']:.2f} "
                     f"| {h['peak_rss_mb']:.0f} ({h['setup_rss_mb']:.0f}) "
                     f"| {d['peak_rss_mb']:.0f} "
                     f"({d['setup_rss_mb']:.0f}) |")
    lines += ["", "| codec | pages | compressed MB | uncompressed MB | raw decompress cpu s "
              "| hudic scan cpu s (1t) | raw / hudic | raw / DuckDB |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in report["rawcodec"]:
        lines.append(f"| {r['codec']} | {r['pages']} | {r['compressed_mb']:.1f} "
                     f"| {r['uncompressed_mb']:.1f} | {r['raw_decompress_cpu_s']:.3f} "
                     f"| {r['hudic_scan_cpu_s']:.3f} | {r['hudic_fraction']:.2f} "
                     f"| {r['duckdb_fraction']:.2f} |")
    b = [r for r in report["results"] if "hudic_before" in r]
    if b:
        lines += ["", "| case (same run) | hudic before cpu s | hudic after cpu s | DuckDB cpu s "
                  "| cpu ratio before | cpu ratio after | hudic before wall s | hudic after wall s "
                  "| DuckDB wall s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in b:
            hb, h, d = r["hudic_before"], r["hudic"], r["duckdb"]
            lines.append(f"| {r['name']} | {hb['median_cpu_s']:.3f} | {h['median_cpu_s']:.3f} "
                         f"| {d['median_cpu_s']:.3f} | {r['ratio_cpu_before']:.2f} "
                         f"| {r['ratio_cpu']:.2f} | {hb['median_s']:.3f} | {h['median_s']:.3f} "
                         f"| {d['median_s']:.3f} |")
    w = [r for r in report["results"] if r["kind"] == "write"]
    if w:
        lines += ["", "| write | hudic bytes | DuckDB bytes |", "|---|---:|---:|"]
        for r in w:
            lines.append(f"| {r['name']} | {r['hudic_bytes']:,} | {r['duckdb_bytes']:,} |")
    return "\n".join(lines)


def build(build_dir):
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_C_FLAGS_RELEASE=-O3 -march=x86-64-v2 -DNDEBUG",
                        "-DHUDI_BUILD_TESTS=OFF", "-DHUDI_WERROR=OFF"], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", build_dir, "parquet_bench"], check=True,
                   stdout=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description="hudic vs DuckDB Parquet benchmarks")
    ap.add_argument("--quick", action="store_true", help="1M rows, 3 repetitions")
    ap.add_argument("--rows", type=int)
    ap.add_argument("--reps", type=int)
    ap.add_argument("--codecs", default=",".join(gen_trips.CODECS))
    ap.add_argument("--only", help="run only cases whose name contains this (or one of "
                    "several, separated by |)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "bench-rel"))
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--out", help="results file (default bench/results/latest.json, "
                    "or quick.json with --quick)")
    ap.add_argument("--before", help="an older parquet_bench binary, measured in the same "
                    "rounds as a third side of every scan case (before/after tables)")
    ap.add_argument("--duckdb-child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.duckdb_child:
        duckdb_child(json.loads(args.duckdb_child))
        return

    rows = args.rows or (1_000_000 if args.quick else 10_000_000)
    args.out = args.out or os.path.join(HERE, "results", "quick.json" if args.quick else
                                        "latest.json")
    reps = args.reps or (3 if args.quick else 5)
    codecs = args.codecs.split(",")
    data_dir = os.path.join(HERE, "data") if rows == 10_000_000 else \
        os.path.join(HERE, "data", f"rows{rows}")
    # Row groups of about a tenth of the file (1M rows at full size, like Hudi's 120 MB
    # parquet.block.size), so 2 threads always have row groups to split.
    rg = 1 << 20 if rows >= 10_000_000 else max(2048, (rows // 8 + 2047) // 2048 * 2048)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731

    if not args.no_build:
        build(args.build_dir)
    bench = os.path.join(args.build_dir, "bench", "parquet_bench")
    sys.path.insert(0, HERE)
    from hudi_run import require_fresh  # noqa: E402
    require_fresh(bench)
    files = gen_trips.generate(rows, data_dir, rg, codecs)
    tmpdir = os.path.join(HERE, "data", "tmp")
    os.makedirs(tmpdir, exist_ok=True)
    if "snappy" not in files:
        files.update(gen_trips.generate(rows, data_dir, rg, ["snappy"]))

    report = {"machine": machine_info(), "rows": rows, "reps": reps, "row_group_rows": rg,
              "loadavg_start": os.getloadavg(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
              "files": {c: {"path": os.path.relpath(p, ROOT), "bytes": os.path.getsize(p)}
                        for c, p in files.items()}}
    log(f"hudic vs DuckDB: {rows} rows, {reps} reps, load average {os.getloadavg()[0]:.1f}")
    results = []
    for case in make_cases(files, rows, tmpdir, codecs):
        if args.only and not any(o in case["name"] for o in args.only.split("|")):
            continue
        results.append(measure(bench, case, reps, log, args.before))
    report["results"] = results
    report["loadavg_before_rawcodec"] = os.getloadavg()
    report["rawcodec"] = rawcodec(bench, files, [c for c in codecs if any(
        r["group"] == "full" and r["codec"] == c and r["threads"] == 1 for r in results)],
        reps, results, log)
    report["loadavg_end"] = os.getloadavg()
    shutil.rmtree(tmpdir, ignore_errors=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    print(markdown(report))
    log(f"load average at end {os.getloadavg()[0]:.1f}; results in {args.out}")


if __name__ == "__main__":
    main()
