"""test_crosscheck.py - for every fixture hudic reads, its `parquet cat` output equals what
DuckDB and pyarrow read from the same file, after normalising the rendering only
(normalise.py: decimals as strings with `scale` digits, timestamps ISO, binary base64, maps as
key/value arrays, floats compared as floats of the column's width).

hudic must read every fixture listed here: a refusal fails the test (the files hudic must reject
are in test_fixtures.py and not listed here). Where a reference reader is known to be wrong or
cannot read a file, the test skips that reader with the reason (docs/formats/parquet.md §8 item
numbers) and the other reader still checks it; test_fixtures.py pins the rows of such files."""
import os

import pytest

from normalise import canon_table, first_difference, round_rows
from support import BAD, DATA, cat, need, peer, run, loads

pa = peer("pyarrow")
pq = peer("pyarrow.parquet")

# Files no reader comparison makes sense for: not Parquet, encrypted, or too large to render
# (large_string_map holds two 1 GiB keys; test_fixtures.py checks it).
EXCLUDED = {"uniform_encryption.parquet.encrypted", "large_string_map.brotli.parquet"}

# hudic options per file: the corrupt-checksum files are compared with verification off, where
# every reader returns the same (altered) values (§8 item 19).
HUDIC_OPTS = {
    "datapage_v1-corrupt-checksum.parquet": ["--no-crc"],
    "rle-dict-uncompressed-corrupt-checksum.parquet": ["--no-crc"],
}

DUCKDB_SKIP = {
    # §8 item 5: the file's last INT96 value overflows the nanosecond range on purpose; DuckDB
    # refuses the whole file ("Int96 timestamp is out of range"; 1.5.6 returned a wrong value).
    "int96_from_spark.parquet": "DuckDB rejects/misreads the overflowed INT96 value (parquet.md §8 item 5)",
}

# Files a DuckDB release may refuse; when it does the test skips with this reason, when it reads
# them the values are compared. (§8 item 18 - ARROW-GH-45185, ARROW-RS-GH-6229-LEVELS, where
# DuckDB returns data for malformed levels - concerns files hudic rejects; they are checked in
# test_fixtures.py, not here.)
DUCKDB_MAY_FAIL = {
    # §8 item 12: codec 5 (LZ4) in Hadoop framing / raw blocks; DuckDB 1.5.6 refused codec 5.
    "hadoop_lz4_compressed.parquet": "DuckDB refuses the legacy LZ4 codec (parquet.md §8 item 12)",
    "non_hadoop_lz4_compressed.parquet": "DuckDB refuses the legacy LZ4 codec (parquet.md §8 item 12)",
    # §8 item 7: maps with optional keys or without a value field.
    "incorrect_map_schema.parquet": "DuckDB refuses maps with optional keys (parquet.md §8 item 7)",
    "map_no_value.parquet": "DuckDB rejects MAP without a value field (parquet.md §8 item 7)",
    # §8 item 11: PARQUET-816-era dictionary page sizes.
    "nation.dict-malformed.parquet": "DuckDB refuses PARQUET-816-era page sizes (parquet.md §8 item 11)",
}

PYARROW_MAY_FAIL = {
    "hadoop_lz4_compressed.parquet": "pyarrow refuses this LZ4 framing (parquet.md §8 item 12)",
    "non_hadoop_lz4_compressed.parquet": "pyarrow refuses this LZ4 framing (parquet.md §8 item 12)",
    "nation.dict-malformed.parquet": "pyarrow refuses PARQUET-816-era page sizes",
}

PYARROW_SKIP = {
    # §8 item 7: Presto/Trino maps with OPTIONAL keys; arrow refuses them.
    "incorrect_map_schema.parquet": "pyarrow refuses maps with optional keys "
                                    "('Map keys must be annotated as required', parquet.md §8 item 7)",
}

# Rows a reference reader gets wrong, compared for the other rows only.
PYARROW_BAD_ROWS = {
    # arrow converts INT96 through int64 nanoseconds, which overflows for the year-290000 value
    # (parquet.md §5.4); hudic follows the documented micros 9089380393200000000.
    "int96_from_spark.parquet": {5},
}


def _fixtures():
    names = [("data", f) for f in sorted(os.listdir(need(DATA)))
             if f.endswith(".parquet") and f not in EXCLUDED]
    names.append(("bad_data", "ARROW-GH-43605.parquet"))  # valid despite its folder
    return names


FIXTURES = _fixtures()


def test_every_fixture_is_listed():
    """The comparison covers the whole data/ folder (an empty listing would check nothing)."""
    assert len(FIXTURES) >= 45, FIXTURES


def _path(folder, name):
    return os.path.join(DATA if folder == "data" else BAD, name)


def hudic_rows(folder, name):
    """hudic's rows; hudic must read every file compared here (exit 0, empty stderr)."""
    path = need(_path(folder, name))
    r = run("parquet", "cat", *HUDIC_OPTS.get(name, []), path)
    assert r.code == 0 and r.err == "", "hudic must read %s: %r" % (name, r)
    return [loads(line) for line in r.out.splitlines()]


def int96_columns(path):
    """Top-level INT96 columns: hudic renders them as UTC instants (parquet.md §5.4) while Arrow and
    DuckDB type them as zone-less timestamps."""
    try:
        schema = pq.ParquetFile(path).schema
    except pa.ArrowException:  # arrow cannot even build the schema (incorrect_map_schema)
        return set()
    return {schema.column(i).name for i in range(len(schema))
            if schema.column(i).physical_type == "INT96" and "." not in schema.column(i).path}


def converted_only_timestamps(path):
    """True when the file has TIMESTAMP_MILLIS/MICROS ConvertedTypes without a LogicalType.
    parquet.md §5.1: those mean isAdjustedToUTC = true (hudic and arrow agree); DuckDB reads them as
    zone-less TIMESTAMP, so its values are rendered as UTC instants for the comparison."""
    r = run("parquet", "schema", path)
    return "(TIMESTAMP_MILLIS)" in r.out or "(TIMESTAMP_MICROS)" in r.out


def compare(name, got, table, path, bad_rows=(), all_utc=False):
    expected = round_rows(canon_table(table, int96_columns(path), all_utc), table.schema)
    got = round_rows(got, table.schema)
    assert len(got) == len(expected), "%s: hudic %d rows, reference %d" % (
        name, len(got), len(expected))
    for i, (g, e) in enumerate(zip(got, expected)):
        if i in bad_rows:
            continue
        d = first_difference(g, e, "%s row %d" % (name, i))
        assert d is None, "hudic vs reference: " + d


@pytest.mark.parametrize("folder,name", FIXTURES, ids=[n for _, n in FIXTURES])
def test_pyarrow(folder, name):
    if name in PYARROW_SKIP:
        pytest.skip(PYARROW_SKIP[name])
    path = _path(folder, name)
    got = hudic_rows(folder, name)
    try:
        table = pq.read_table(path, coerce_int96_timestamp_unit="us")
    except pa.ArrowException as e:
        if name in PYARROW_MAY_FAIL:
            pytest.skip("%s: %s" % (PYARROW_MAY_FAIL[name], e))
        raise
    compare(name, got, table, path, PYARROW_BAD_ROWS.get(name, ()))


def _duckdb_table(path):
    duckdb = peer("duckdb")
    con = duckdb.connect()
    try:
        rel = con.sql("SELECT * FROM read_parquet('%s')" % path.replace("'", "''"))
        t = rel.to_arrow_table() if hasattr(rel, "to_arrow_table") else rel.arrow()
        if isinstance(t, pa.RecordBatchReader):
            t = t.read_all()
        return t
    finally:
        con.close()


@pytest.mark.parametrize("folder,name", FIXTURES, ids=[n for _, n in FIXTURES])
def test_duckdb(folder, name):
    if name in DUCKDB_SKIP:
        pytest.skip(DUCKDB_SKIP[name])
    path = _path(folder, name)
    got = hudic_rows(folder, name)
    try:
        table = _duckdb_table(path)
    except Exception as e:  # duckdb's exception classes differ between releases
        if name in DUCKDB_MAY_FAIL:
            pytest.skip("%s: %s" % (DUCKDB_MAY_FAIL[name], e))
        raise
    compare(name, got, table, path, all_utc=converted_only_timestamps(path))


def test_int96_pyarrow_agrees_except_overflow():
    """The rows arrow gets right are the parquet.md §9 values; the skipped one is the overflow."""
    path = need(os.path.join(DATA, "int96_from_spark.parquet"))
    rows = cat(path)
    assert rows[5]["a"] == "+290000-12-30T23:00:00.000000Z"
