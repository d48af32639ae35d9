#!/usr/bin/env python3
"""gen_trips.py - writes Parquet files shaped like Hudi's quickstart "trips" data.

Columns (all nullable, no nulls, like Spark/DuckDB output):
    uuid            VARCHAR  36-char UUID-formatted key, unique per row, random order
    rider           VARCHAR  'rider-NNN'   (1000 distinct values)
    driver          VARCHAR  'driver-NNN'  (1000 distinct values)
    begin_lat, begin_lon, end_lat, end_lon  DOUBLE in [0, 1)   (Hudi: rand.nextDouble())
    fare            DOUBLE in [0, 100)                        (Hudi: rand.nextDouble() * 100)
    ts              BIGINT epoch ms, increasing with jitter
    distance_m      BIGINT in [0, 50000)
    partition_path  VARCHAR  one of Hudi's three quickstart partitions

The values come from a small integer hash (mix) that needs no 64-bit overflow, so
bench/parquet_bench.c reproduces exactly the same rows in C for the write benchmark
(`parquet_bench write` output can be compared row for row with these files).

Key invariant: the same (rows) always produces the same data, byte for byte, whatever the
thread count, so every run and both engines work on identical rows.

Usage: gen_trips.py [--rows N] [--out-dir DIR] [--row-group-size R] [--codecs a,b]
"""
import argparse
import os
import sys
import time

P = 2147483647  # 2^31 - 1 (prime): every product below stays under 2^63
CODECS = ["snappy", "zstd", "gzip", "uncompressed"]
PARTITIONS = ["americas/united_states/san_francisco", "americas/brazil/sao_paulo",
              "asia/india/chennai"]


def mix(i, s):
    """SQL for a pseudo-random integer in [0, 2^31) from row i and salt s (see mix() in C)."""
    a = f"((({i}) + {s} * 16777259) * 1103515245 + 12345) % {P}"
    return f"xor((({a}) * ({a})) % {P}, ({a}) >> 5)"


def unit_double(i, s):
    """SQL for a double in [0, 1) with 53 random bits: (mix(s) << 22 | mix(s+1) >> 9) / 2^53."""
    return f"(({mix(i, s)}) * 4194304 + (({mix(i, s + 1)}) >> 9))::DOUBLE / 9007199254740992.0"


def trips_sql(rows):
    """A SELECT producing the trips rows 0..rows-1 in order."""
    i = "i"
    # Unique key: the LCG step alone is a bijection on [0, P) so the first 8 hex digits
    # differ for every row; the rest is hash noise.
    u = f"((i + 1) * 1103515245 + 12345) % {P}"
    uuid = (f"printf('%08x-%04x-%04x-%04x-%04x%08x', {u}, ({mix(i, 11)}) & 65535, "
            f"(({mix(i, 11)}) >> 16) & 65535, ({mix(i, 12)}) & 65535, "
            f"(({mix(i, 12)}) >> 16) & 65535, {mix(i, 13)})")
    parts = ", ".join(f"'{p}'" for p in PARTITIONS)
    return f"""
SELECT
  {uuid} AS uuid,
  printf('rider-%03d', ({mix(i, 1)}) % 1000) AS rider,
  printf('driver-%03d', ({mix(i, 2)}) % 1000) AS driver,
  {unit_double(i, 3)} AS begin_lat,
  {unit_double(i, 5)} AS begin_lon,
  {unit_double(i, 7)} AS end_lat,
  {unit_double(i, 9)} AS end_lon,
  ({unit_double(i, 14)}) * 100.0 AS fare,
  1695000000000 + i * 100 + ({mix(i, 16)}) % 1000 AS ts,
  ({mix(i, 17)}) % 50000 AS distance_m,
  ([{parts}])[(({mix(i, 18)}) % 3) + 1] AS partition_path
FROM range({rows}) t(i)
ORDER BY i
"""


def file_rows(con, path):
    try:
        return con.execute(f"SELECT sum(num_rows) FROM parquet_file_metadata('{path}')"
                           ).fetchone()[0]
    except Exception:  # noqa: BLE001 - unreadable or missing file: regenerate
        return None


def generate(rows, out_dir, row_group_size, codecs, force=False, quiet=False):
    """Creates out_dir/trips_<codec>.parquet for each codec unless present with `rows` rows."""
    import duckdb

    os.makedirs(out_dir, exist_ok=True)
    con = duckdb.connect()
    paths = {}
    table_ready = False
    for codec in codecs:
        path = os.path.join(out_dir, f"trips_{codec}.parquet")
        paths[codec] = path
        if not force and os.path.exists(path) and file_rows(con, path) == rows:
            continue
        if not table_ready:
            t0 = time.time()
            con.sql(f"CREATE OR REPLACE TABLE trips AS {trips_sql(rows)}")
            table_ready = True
            if not quiet:
                print(f"generated {rows} rows in {time.time() - t0:.1f}s", file=sys.stderr)
        t0 = time.time()
        tmp = path + ".tmp"
        con.sql(f"COPY trips TO '{tmp}' (FORMAT parquet, COMPRESSION {codec}, "
                f"ROW_GROUP_SIZE {row_group_size})")
        os.replace(tmp, path)
        if not quiet:
            print(f"wrote {path} ({os.path.getsize(path) / 1e6:.1f} MB) in "
                  f"{time.time() - t0:.1f}s", file=sys.stderr)
    con.close()
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(__file__), "data"))
    ap.add_argument("--row-group-size", type=int, default=1 << 20,
                    help="rows per row group (default 1048576, about Hudi's 120 MB blocks)")
    ap.add_argument("--codecs", default=",".join(CODECS))
    ap.add_argument("--force", action="store_true", help="regenerate even if present")
    args = ap.parse_args()
    generate(args.rows, args.out_dir, args.row_group_size, args.codecs.split(","), args.force)


if __name__ == "__main__":
    main()
