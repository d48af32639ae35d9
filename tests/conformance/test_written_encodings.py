"""test_written_encodings.py - every value encoding hudic's writer offers, on every physical
type it allows, in v1 and v2 data pages, with and without nulls, flat and nested (lists, a
struct, a map), read back by pyarrow and DuckDB.

`gen_random_parquet --encoding ENC --pages v1|v2 --nulls PCT SEED OUT` (gen_random_parquet.c)
writes a fixed schema holding every leaf type at the top level and inside lists, with ENC chosen
for every top-level column whose leaves all allow it (the dictionary stays on, so the choice has
to replace it). The footer, as pyarrow reads it, must list ENC for exactly those column chunks
and no dictionary page; pyarrow's and DuckDB's values must equal what `hudic parquet cat` prints
(compared as in test_written_crosscheck.py). Hadoop-framed LZ4 and BROTLI pages are read too.

pyarrow and DuckDB are required: without them this module fails, unless
HUDIC_ALLOW_MISSING_PEERS=1, which turns the failure into a skip."""
import json
import os
import subprocess

import pytest

from support import TIMEOUT_S, peer

pq = peer("pyarrow.parquet")
duckdb = peer("duckdb")

from test_written_crosscheck import (DUCKDB_UNSUPPORTED, GEN, PYARROW_UNSUPPORTED,  # noqa: E402
                                     annotate, compare, duckdb_known_refusals, hudic_rows)

ENCODINGS = ["PLAIN", "RLE", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
             "BYTE_STREAM_SPLIT"]

# Columns each encoding must reach (the generator picks them from the physical types, so this
# list keeps that choice honest): logical types stored as INT32/INT64/FLBA, lists, the struct, the
# map of strings.
MUST_COVER = {
    "PLAIN": ["c_bool", "c_string", "c_double", "l_uuid", "st", "m"],
    "RLE": ["c_bool", "l_bool"],
    "DELTA_BINARY_PACKED": ["c_int8", "c_int16", "c_int32", "c_int64", "c_uint8", "c_uint32",
                            "c_uint64", "c_date", "c_time_ms", "c_time_ns", "c_ts_us", "c_dec9",
                            "c_dec18", "l_int32", "l_ts_ns", "st"],
    "DELTA_LENGTH_BYTE_ARRAY": ["c_string", "c_binary", "l_string", "m"],
    "DELTA_BYTE_ARRAY": ["c_string", "c_binary", "c_fixed", "c_uuid", "c_dec38", "c_float16",
                         "l_string", "l_fixed", "m"],
    "BYTE_STREAM_SPLIT": ["c_float", "c_double", "c_int32", "c_int64", "c_date", "c_dec18",
                          "c_float16", "c_fixed", "c_dec38", "l_double", "l_float", "st"],
}
# Columns an encoding must not reach (their physical type does not allow it).
MUST_NOT = {
    "RLE": ["c_int32", "c_string"],
    "DELTA_BINARY_PACKED": ["c_string", "c_float", "c_bool", "c_dec38", "m"],
    "DELTA_LENGTH_BYTE_ARRAY": ["c_fixed", "c_int64"],
    "DELTA_BYTE_ARRAY": ["c_int64", "c_double"],
    "BYTE_STREAM_SPLIT": ["c_string", "c_bool", "m"],
}

CASES = [(enc, pages, nulls, "snappy") for enc in ENCODINGS for pages in ("v1", "v2")
         for nulls in (0, 25)]
CODEC_CASES = [("DELTA_BINARY_PACKED", "v1", 10, "lz4"), ("DELTA_BYTE_ARRAY", "v2", 10, "lz4"),
               ("BYTE_STREAM_SPLIT", "v2", 10, "brotli"), ("PLAIN", "v1", 10, "brotli")]


def case_id(c):
    return "%s-%s-nulls%d-%s" % c


@pytest.fixture(scope="module")
def outdir(tmp_path_factory):
    return tmp_path_factory.mktemp("encodings")


_written = {}


def write(case, outdir):
    if case in _written:
        return _written[case]
    assert GEN and os.access(GEN, os.X_OK), "gen_random_parquet not found (set HUDI_GEN_RANDOM)"
    enc, pages, nulls, codec = case
    path = str(outdir / (case_id(case) + ".parquet"))
    cmd = [GEN, "--encoding", enc, "--pages", pages, "--nulls", str(nulls)]
    if codec != "snappy":
        cmd += ["--codec", codec]
    cp = subprocess.run(cmd + ["11", path], capture_output=True, timeout=TIMEOUT_S)
    assert cp.returncode == 0 and cp.stderr == b"", cp.stderr.decode(errors="replace")
    meta = json.loads(cp.stdout)
    annotate(meta)
    _written[case] = (path, meta)
    return path, meta


def check_footer(path, meta, enc, codec):
    # DuckDB names the codec ids as parquet.thrift does (pyarrow calls codec 5, Hadoop-framed
    # LZ4, "UNKNOWN", and LZ4_RAW "LZ4")
    codecs = duckdb.sql("SELECT DISTINCT compression FROM parquet_metadata('%s')"
                        % path.replace("'", "''")).fetchall()
    assert codecs == [(codec.upper(),)], codecs
    md = pq.ParquetFile(path).metadata
    assert md.num_row_groups >= 2 and md.num_rows == meta["rows"]
    chosen = meta["encodings"]
    assert set(chosen.values()) == {enc}
    for name in MUST_COVER[enc]:
        assert name in chosen, "%s not written in %s" % (name, enc)
    for name in MUST_NOT.get(enc, []):
        assert name not in chosen, "%s cannot be %s" % (name, enc)
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        for i in range(rg.num_columns):
            col = rg.column(i)
            top = col.path_in_schema.split(".")[0]
            if top in chosen:
                assert enc in col.encodings, "%s: encodings %s" % (col.path_in_schema, col.encodings)
                assert not col.has_dictionary_page, col.path_in_schema
                assert "RLE_DICTIONARY" not in col.encodings, col.path_in_schema
            else:
                assert enc in ("PLAIN", "RLE") or enc not in col.encodings, col.path_in_schema


@pytest.mark.parametrize("case", CASES + CODEC_CASES, ids=case_id)
def test_footer_lists_the_encoding(case, outdir):
    path, meta = write(case, outdir)
    check_footer(path, meta, case[0], case[3])


@pytest.mark.parametrize("case", CASES + CODEC_CASES, ids=case_id)
def test_pyarrow_reads(case, outdir):
    path, meta = write(case, outdir)
    got = hudic_rows(path, meta)
    table = pq.ParquetFile(path).read()
    compare("pyarrow", PYARROW_UNSUPPORTED, got, table, meta, path)


@pytest.mark.parametrize("case", CASES + CODEC_CASES, ids=case_id)
def test_duckdb_reads(case, outdir):
    path, meta = write(case, outdir)
    got = hudic_rows(path, meta)
    table, fields = duckdb_known_refusals(path, meta, meta["seed"])
    if case[0] == "BYTE_STREAM_SPLIT":  # DuckDB 2.0 refuses BSS on FIXED_LEN_BYTE_ARRAY only
        assert len(fields) < len(meta["fields"])
    else:
        assert fields is meta["fields"]
    compare("duckdb", DUCKDB_UNSUPPORTED, got, table, meta, path, fields)
