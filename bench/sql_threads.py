#!/usr/bin/env python3
"""sql_threads.py - SQL scans of a Hudi table with `SET hudic.threads` 1 and N, side by side.

    python3 bench/sql_threads.py --warehouse /tmp/sqlbench/data/warehouse10000000 --threads 2

Each query runs in its own `hudic sql -e` process (release build), threads 1 and N alternating,
--reps times each; the fastest wall time of each setting is reported with the CPU seconds
(user + system, all threads, from wait4) of that run, and the load average before and after. "(ROWS DIFFER)" flags a query whose rows (order included)
differ between the two settings.
The table is `trips` of the warehouse's default database (bench/sql_run.py creates it).
"""
import argparse
import os
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

QUERIES = {
    "count + sum": "SELECT count(*), sum(fare), sum(distance_m) FROM trips",
    "group by partition": "SELECT partition_path, count(*), sum(fare), avg(fare) "
                          "FROM trips GROUP BY partition_path ORDER BY partition_path",
    "group by rider": "SELECT rider, count(*), sum(fare), avg(distance_m) "
                      "FROM trips GROUP BY rider ORDER BY rider",
    "selective filter": "SELECT uuid, rider, fare, ts FROM trips "
                        "WHERE fare > 99.99 AND distance_m < 25000",
    "top-N": "SELECT uuid, rider, fare FROM trips ORDER BY fare DESC LIMIT 10",
}


def run(hudic, warehouse, threads, sql):
    t0 = time.monotonic()
    p = subprocess.Popen([hudic, "sql", "--warehouse", warehouse, "-e",
                          "SET hudic.threads = %d" % threads, "-e", sql],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if status != 0:
        raise SystemExit("hudic failed: %s" % sql)
    rows = out.split(b"\n", 1)[1] if b"\n" in out else b""  # the SET's own row first
    return wall, ru.ru_utime + ru.ru_stime, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warehouse", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--hudic", default=os.path.join(ROOT, "build", "release", "hudic"))
    a = ap.parse_args()
    load0 = open("/proc/loadavg").read().split()[:3]
    print("| query | 1 thread s (cpu s) | %d threads s (cpu s) | wall 1/%d | cpu %d/1 |"
          % (a.threads, a.threads, a.threads))
    print("|---|---:|---:|---:|---:|")
    for name, sql in QUERIES.items():
        best = {}
        outs = {}
        for _ in range(a.reps):
            for n in (1, a.threads):
                wall, cpu, out = run(a.hudic, a.warehouse, n, sql)
                outs.setdefault(n, out)
                if n not in best or wall < best[n][0]:
                    best[n] = (wall, cpu)
        same = "" if outs[1] == outs[a.threads] else " (ROWS DIFFER)"
        w1, c1 = best[1]
        wn, cn = best[a.threads]
        print("| %s%s | %.2f (%.2f) | %.2f (%.2f) | %.2f | %.2f |"
              % (name, same, w1, c1, wn, cn, w1 / wn, cn / c1))
    load1 = open("/proc/loadavg").read().split()[:3]
    print("\nload average before: %s, after: %s" % (" ".join(load0), " ".join(load1)))


if __name__ == "__main__":
    main()
