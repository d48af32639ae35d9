#!/usr/bin/env python3
"""Writes types.parquet: the column types pandas and pyarrow users hand to CTAS - timestamps in
nanos and millis (with and without time zone), int8 and int16 - two rows, one with nulls.
Run from this folder: python3 gen_types.py (pyarrow 14+)."""
import datetime

import pyarrow as pa
import pyarrow.parquet as pq

ts = [datetime.datetime(2024, 1, 2, 3, 4, 5, 678901), datetime.datetime(1969, 12, 31, 23, 59, 59, 1000)]
table = pa.table({
    "id": pa.array([1, 2], pa.int32()),
    "ts_ns": pa.array(ts, pa.timestamp("ns")),
    "ts_ms_utc": pa.array(ts, pa.timestamp("ms", tz="UTC")),
    "ts_us": pa.array(ts, pa.timestamp("us")),
    "tiny": pa.array([1, None], pa.int8()),
    "small": pa.array([-300, 7], pa.int16()),
})
pq.write_table(table, "types.parquet", compression="snappy")
