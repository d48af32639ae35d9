#!/usr/bin/env python3
"""CPU seconds of bench/sql_run.py's analytics queries, one thread on each side.

    python3 bench/sql_cpu.py [--rows 10000000] [--reps 3] [--hudic build/release/hudic]...
                             [--only "selective filter"]...

Runs on the table that `bench/sql_run.py --rows N` created (bench/data/sql/warehouse<N>).
hudic: one `hudic sql -e` process per query and repetition with `SET hudic.threads=1`, CPU =
user + system of the child (getrusage), start-up included. DuckDB: `SET threads=1`, a view over
read_parquet of the table's base files (as sql_run.py does), a new connection per repetition,
CPU = this process's user + system around execute ... fetchall. The sides alternate. Prints
every repetition and the ratio of the medians, with the load average before and after. Several
--hudic binaries (a before and an after build) take turns with DuckDB, each compared with it;
--only restricts the queries (by name, as sql_run.py's analytic_queries names them)."""
import argparse
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import duckdb  # noqa: E402
import sql_run  # noqa: E402


def cpu(ru):
    return ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--hudic", action="append", default=[],
                    help="hudic binary; repeat to compare builds (default build/release/hudic)")
    ap.add_argument("--only", action="append", default=[], help="query name; repeatable")
    args = ap.parse_args()
    bins = args.hudic or [os.path.join(HERE, "..", "build", "release", "hudic")]
    wh = os.path.join(HERE, "data", "sql", "warehouse%d" % args.rows)
    table = os.path.join(wh, "default", "trips")
    if not os.path.exists(os.path.join(table, ".hoodie")):
        sys.exit("no table at %s: run bench/sql_run.py --rows %d first" % (table, args.rows))
    print("load before:", open("/proc/loadavg").read().strip())
    for name, q in sql_run.analytic_queries().items():
        if args.only and name not in args.only:
            continue
        hs, d = [[] for _ in bins], []
        for _ in range(args.reps):
            for b, h in zip(bins, hs):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([b, "sql", "--warehouse", wh, "--mode", "spark",
                                "-e", "SET hudic.threads=1", "-e", q], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                h.append(cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - cpu(before))
            con = duckdb.connect()
            con.execute("SET threads=1")
            con.execute("CREATE VIEW trips AS SELECT * FROM read_parquet('%s/**/*.parquet', "
                        "hive_partitioning=false)" % table)
            before = resource.getrusage(resource.RUSAGE_SELF)
            con.execute(q).fetchall()
            d.append(cpu(resource.getrusage(resource.RUSAGE_SELF)) - cpu(before))
            con.close()
        d.sort()
        for b, h in zip(bins, hs):
            h.sort()
            label = "hudic" if len(bins) == 1 else b
            print("%-20s %s %s | duckdb %s | hudic/duckdb %.2f" % (
                name, label, " ".join("%.3f" % x for x in h), " ".join("%.3f" % x for x in d),
                h[len(h) // 2] / d[len(d) // 2]))
    print("load after:", open("/proc/loadavg").read().strip())


if __name__ == "__main__":
    main()
