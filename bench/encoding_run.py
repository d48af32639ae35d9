#!/usr/bin/env python3
"""encoding_run.py - write speed and size of each value encoding on the trips columns: hudic's
writer (parquet_bench write --encoding) against pyarrow writing the same encoding.

  python3 bench/encoding_run.py [--rows 1000000] [--repeat 3]

Both sides write the same rows (pyarrow writes the table it read from hudic's all-PLAIN file),
snappy, no dictionary, v1 pages, statistics, page index and page CRCs on; every column not in the
measured group is PLAIN. For each (group, encoding) it prints the write CPU seconds (median of
the repetitions, whole file) and the compressed bytes of the group's column chunks, and a
markdown table for BENCHMARKS.md. Builds parquet_bench in build/bench-rel like run.py."""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

import pyarrow.parquet as pq

from run import ROOT, build

GROUPS = {
    "ts, distance_m (int64)": ["ts", "distance_m"],
    "lat/lon, fare (double)": ["begin_lat", "begin_lon", "end_lat", "end_lon", "fare"],
    "uuid, rider, driver, partition_path (string)": ["uuid", "rider", "driver", "partition_path"],
}
CASES = [
    ("ts, distance_m (int64)", "PLAIN"),
    ("ts, distance_m (int64)", "DELTA_BINARY_PACKED"),
    ("ts, distance_m (int64)", "BYTE_STREAM_SPLIT"),
    ("lat/lon, fare (double)", "PLAIN"),
    ("lat/lon, fare (double)", "BYTE_STREAM_SPLIT"),
    ("uuid, rider, driver, partition_path (string)", "PLAIN"),
    ("uuid, rider, driver, partition_path (string)", "DELTA_LENGTH_BYTE_ARRAY"),
    ("uuid, rider, driver, partition_path (string)", "DELTA_BYTE_ARRAY"),
]


def group_bytes(path, cols):
    md = pq.ParquetFile(path).metadata
    return sum(md.row_group(g).column(i).total_compressed_size
               for g in range(md.num_row_groups) for i in range(md.num_columns)
               if md.row_group(g).column(i).path_in_schema in cols)


def hudic_write(exe, out, rows, repeat, cols, enc):
    spec = ",".join("%s=%s" % (c, enc) for c in cols)
    cp = subprocess.run([exe, "write", out, "--rows", str(rows), "--repeat", str(repeat),
                         "--warmup", "1", "--no-dictionary", "1", "--encoding", spec],
                        check=True, capture_output=True, text=True)
    r = json.loads(cp.stdout)
    return statistics.median(r["cpu_s"]), statistics.median(r["times_s"])


def pyarrow_write(table, out, repeat, cols, enc):
    cpu, wall = [], []
    for r in range(repeat + 1):
        c0, t0 = time.process_time(), time.perf_counter()
        pq.write_table(table, out, compression="snappy", use_dictionary=False,
                       column_encoding={c: enc for c in cols}, data_page_version="1.0",
                       write_statistics=True, write_page_index=True, write_page_checksum=True,
                       row_group_size=1 << 20)
        if r > 0:  # the first run warms up, as parquet_bench --warmup 1
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - t0)
    return statistics.median(cpu), statistics.median(wall)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "bench-rel"))
    args = ap.parse_args()
    build(args.build_dir)
    exe = os.path.join(args.build_dir, "bench", "parquet_bench")
    tmp = tempfile.mkdtemp(prefix="hudic-enc-")
    base = os.path.join(tmp, "base.parquet")
    hudic_write(exe, base, args.rows, 1, [], "PLAIN")
    table = pq.read_table(base)
    load = os.getloadavg()[0]
    rows = []
    for group, enc in CASES:
        cols = GROUPS[group]
        h_out, p_out = os.path.join(tmp, "h.parquet"), os.path.join(tmp, "p.parquet")
        h_cpu, h_wall = hudic_write(exe, h_out, args.rows, args.repeat, cols, enc)
        p_cpu, p_wall = pyarrow_write(table, p_out, args.repeat, cols, enc)
        for path in (h_out, p_out):
            got = {pq.ParquetFile(path).metadata.row_group(0).column(i).path_in_schema:
                   pq.ParquetFile(path).metadata.row_group(0).column(i).encodings
                   for i in range(table.num_columns)}
            assert all(enc in got[c] for c in cols), (path, got)
        assert pq.read_table(h_out).equals(table), "hudic's file does not read back equal"
        h_b, p_b = group_bytes(h_out, cols), group_bytes(p_out, cols)
        rows.append((group, enc, h_cpu, p_cpu, h_wall, p_wall, h_b, p_b))
        print(json.dumps({"group": group, "encoding": enc, "hudic_cpu_s": h_cpu,
                          "pyarrow_cpu_s": p_cpu, "hudic_wall_s": h_wall,
                          "pyarrow_wall_s": p_wall, "hudic_group_bytes": h_b,
                          "pyarrow_group_bytes": p_b}), flush=True)
    print("\n%d rows, snappy, no dictionary, v1 pages; load average %.1f at the start, %.1f at "
          "the end\n" % (args.rows, load, os.getloadavg()[0]))
    print("| columns | encoding | write CPU s hudic / pyarrow | ratio | group bytes hudic / "
          "pyarrow | ratio |")
    print("|---|---|---:|---:|---:|---:|")
    for g, e, hc, pc, _, _, hb, pb in rows:
        print("| %s | %s | %.3f / %.3f | %.2f | %s / %s | %.3f |" % (
            g, e, hc, pc, hc / pc, format(hb, ","), format(pb, ","), hb / pb))


if __name__ == "__main__":
    main()
