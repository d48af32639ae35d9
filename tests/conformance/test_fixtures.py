"""test_fixtures.py - hudic reads the parquet-testing fixtures (docs/formats/parquet.md §9)
with exactly the expected values, and rejects the malformed ones cleanly.

Expected rows are written out below as JSON lines in hudic's rendering
(docs/formats/rendering.md: decimals as strings with `scale` digits, timestamps ISO with 'Z' when
adjusted to UTC, INT96 as UTC micros, binary as base64, maps as [{"key","value"}], non-finite
floats as strings). Large files are checked through the aggregates parquet.md §9 gives. Every test
runs hudic as a process: a crash (signal) or a sanitizer report fails the test."""
import base64
import csv
import os

import pytest

from normalise import f32, first_difference
from support import BAD, DATA, assert_clean_failure, bad, cat, count, data, loads, need, peer, run


def b64(s):
    return base64.b64encode(s.encode() if isinstance(s, str) else bytes(s)).decode()


def rows_of(text):
    return [loads(line) for line in text.strip().splitlines()]


def assert_rows(got, expected, what):
    assert len(got) == len(expected), "%s: %d rows, expected %d" % (what, len(got), len(expected))
    for i, (g, e) in enumerate(zip(got, expected)):
        d = first_difference(g, e, "%s row %d" % (what, i))
        assert d is None, d


# ---- files whose every row is written out ---------------------------------------------------

EXPECTED = {
    "alltypes_plain.parquet": """
{"id":4,"bool_col":true,"tinyint_col":0,"smallint_col":0,"int_col":0,"bigint_col":0,"float_col":0,"double_col":0,"date_string_col":"MDMvMDEvMDk=","string_col":"MA==","timestamp_col":"2009-03-01T00:00:00.000000Z"}
{"id":5,"bool_col":false,"tinyint_col":1,"smallint_col":1,"int_col":1,"bigint_col":10,"float_col":1.1,"double_col":10.1,"date_string_col":"MDMvMDEvMDk=","string_col":"MQ==","timestamp_col":"2009-03-01T00:01:00.000000Z"}
{"id":6,"bool_col":true,"tinyint_col":0,"smallint_col":0,"int_col":0,"bigint_col":0,"float_col":0,"double_col":0,"date_string_col":"MDQvMDEvMDk=","string_col":"MA==","timestamp_col":"2009-04-01T00:00:00.000000Z"}
{"id":7,"bool_col":false,"tinyint_col":1,"smallint_col":1,"int_col":1,"bigint_col":10,"float_col":1.1,"double_col":10.1,"date_string_col":"MDQvMDEvMDk=","string_col":"MQ==","timestamp_col":"2009-04-01T00:01:00.000000Z"}
{"id":2,"bool_col":true,"tinyint_col":0,"smallint_col":0,"int_col":0,"bigint_col":0,"float_col":0,"double_col":0,"date_string_col":"MDIvMDEvMDk=","string_col":"MA==","timestamp_col":"2009-02-01T00:00:00.000000Z"}
{"id":3,"bool_col":false,"tinyint_col":1,"smallint_col":1,"int_col":1,"bigint_col":10,"float_col":1.1,"double_col":10.1,"date_string_col":"MDIvMDEvMDk=","string_col":"MQ==","timestamp_col":"2009-02-01T00:01:00.000000Z"}
{"id":0,"bool_col":true,"tinyint_col":0,"smallint_col":0,"int_col":0,"bigint_col":0,"float_col":0,"double_col":0,"date_string_col":"MDEvMDEvMDk=","string_col":"MA==","timestamp_col":"2009-01-01T00:00:00.000000Z"}
{"id":1,"bool_col":false,"tinyint_col":1,"smallint_col":1,"int_col":1,"bigint_col":10,"float_col":1.1,"double_col":10.1,"date_string_col":"MDEvMDEvMDk=","string_col":"MQ==","timestamp_col":"2009-01-01T00:01:00.000000Z"}
""",
    "alltypes_dictionary.parquet": """
{"id":0,"bool_col":true,"tinyint_col":0,"smallint_col":0,"int_col":0,"bigint_col":0,"float_col":0,"double_col":0,"date_string_col":"MDEvMDEvMDk=","string_col":"MA==","timestamp_col":"2009-01-01T00:00:00.000000Z"}
{"id":1,"bool_col":false,"tinyint_col":1,"smallint_col":1,"int_col":1,"bigint_col":10,"float_col":1.1,"double_col":10.1,"date_string_col":"MDEvMDEvMDk=","string_col":"MQ==","timestamp_col":"2009-01-01T00:01:00.000000Z"}
""",
    "binary_truncated_min_max.parquet": """
{"utf8_full_truncation":"Blart Versenwald III","binary_full_truncation":"QmxhcnQgVmVyc2Vud2FsZCBJSUk=","utf8_partial_truncation":"Blart Versenwald III","binary_partial_truncation":"QmxhcnQgVmVyc2Vud2FsZCBJSUk=","utf8_no_truncation":"Blart Versenwald III","binary_no_truncation":"QmxhcnQgVmVyc2Vud2FsZCBJSUk="}
{"utf8_full_truncation":"Alice Johnson","binary_full_truncation":"QWxpY2UgSm9obnNvbg==","utf8_partial_truncation":"Alice Johnson","binary_partial_truncation":"QWxpY2UgSm9obnNvbg==","utf8_no_truncation":"Al","binary_no_truncation":"QWw="}
{"utf8_full_truncation":"Bob Smith","binary_full_truncation":"Qm9iIFNtaXRo","utf8_partial_truncation":"Bob Smith","binary_partial_truncation":"Qm9iIFNtaXRo","utf8_no_truncation":"Bob Smith","binary_no_truncation":"Qm9iIFNtaXRo"}
{"utf8_full_truncation":"Charlie Brown","binary_full_truncation":"Q2hhcmxpZSBCcm93bg==","utf8_partial_truncation":"Charlie Brown","binary_partial_truncation":"Q2hhcmxpZSBCcm93bg==","utf8_no_truncation":"Charlie Brown","binary_no_truncation":"Q2hhcmxpZSBCcm93bg=="}
{"utf8_full_truncation":"Diana Prince","binary_full_truncation":"RGlhbmEgUHJpbmNl","utf8_partial_truncation":"Diana Prince","binary_partial_truncation":"RGlhbmEgUHJpbmNl","utf8_no_truncation":"Diana Prince","binary_no_truncation":"RGlhbmEgUHJpbmNl"}
{"utf8_full_truncation":"Edward Norton","binary_full_truncation":"RWR3YXJkIE5vcnRvbg==","utf8_partial_truncation":"Edward Norton","binary_partial_truncation":"RWR3YXJkIE5vcnRvbg==","utf8_no_truncation":"Edward Norton","binary_no_truncation":"RWR3YXJkIE5vcnRvbg=="}
{"utf8_full_truncation":"Fiona Apple","binary_full_truncation":"RmlvbmEgQXBwbGU=","utf8_partial_truncation":"Fiona Apple","binary_partial_truncation":"RmlvbmEgQXBwbGU=","utf8_no_truncation":"Fiona Apple","binary_no_truncation":"RmlvbmEgQXBwbGU="}
{"utf8_full_truncation":"George Lucas","binary_full_truncation":"R2VvcmdlIEx1Y2Fz","utf8_partial_truncation":"George Lucas","binary_partial_truncation":"R2VvcmdlIEx1Y2Fz","utf8_no_truncation":"George Lucas","binary_no_truncation":"R2VvcmdlIEx1Y2Fz"}
{"utf8_full_truncation":"Helen Keller","binary_full_truncation":"SGVsZW4gS2VsbGVy","utf8_partial_truncation":"Helen Keller","binary_partial_truncation":"SGVsZW4gS2VsbGVy","utf8_no_truncation":"Helen Keller","binary_no_truncation":"SGVsZW4gS2VsbGVy"}
{"utf8_full_truncation":"Ivan Drago","binary_full_truncation":"SXZhbiBEcmFnbw==","utf8_partial_truncation":"Ivan Drago","binary_partial_truncation":"SXZhbiBEcmFnbw==","utf8_no_truncation":"Ivan Drago","binary_no_truncation":"SXZhbiBEcmFnbw=="}
{"utf8_full_truncation":"Julia Roberts","binary_full_truncation":"SnVsaWEgUm9iZXJ0cw==","utf8_partial_truncation":"Julia Roberts","binary_partial_truncation":"SnVsaWEgUm9iZXJ0cw==","utf8_no_truncation":"Julia Roberts","binary_no_truncation":"SnVsaWEgUm9iZXJ0cw=="}
{"utf8_full_truncation":"Kevin Bacon","binary_full_truncation":"S2V2aW4gQmFjb24=","utf8_partial_truncation":"\\ud83d\\ude80Kevin Bacon","binary_partial_truncation":"//8BAg==","utf8_no_truncation":"Ke","binary_no_truncation":"S2U="}
""",
    "datapage_v2.snappy.parquet": """
{"a":"abc","b":1,"c":2.0,"d":true,"e":[1,2,3]}
{"a":"abc","b":2,"c":3.0,"d":true,"e":null}
{"a":"abc","b":3,"c":4.0,"d":true,"e":null}
{"a":null,"b":4,"c":5.0,"d":false,"e":[1,2,3]}
{"a":"abc","b":5,"c":2.0,"d":true,"e":[1,2]}
""",
    "datapage_v2_empty_datapage.snappy.parquet": """
{"value":null}
""",
    "data_index_bloom_encoding_stats.parquet": """
{"String":"Hello"}
{"String":"This is"}
{"String":"a"}
{"String":"test"}
{"String":"How"}
{"String":"are you"}
{"String":"doing "}
{"String":"today"}
{"String":"the quick"}
{"String":"brown fox"}
{"String":"jumps"}
{"String":"over"}
{"String":"the lazy"}
{"String":"dog"}
""",
    "float16_nonzeros_and_nans.parquet": """
{"x":null}
{"x":1.0}
{"x":-2.0}
{"x":"NaN"}
{"x":0.0}
{"x":-1.0}
{"x":-0.0}
{"x":2.0}
""",
    "incorrect_map_schema.parquet": """
{"my_map":[{"key":"parent","value":"another"},{"key":"name","value":"report"}]}
""",
    # parquet.md §5.4: signed Julian day, wrapping 64-bit micros; the last value is the documented
    # year-290000 overflow value 9089380393200000000 us.
    "int96_from_spark.parquet": """
{"a":"2024-01-01T20:34:56.123456Z"}
{"a":"2024-01-01T01:00:00.000000Z"}
{"a":"9999-12-31T03:00:00.000000Z"}
{"a":"2024-12-30T23:00:00.000000Z"}
{"a":null}
{"a":"+290000-12-30T23:00:00.000000Z"}
""",
    "list_columns.parquet": """
{"int64_list":[1,2,3],"utf8_list":["abc","efg","hij"]}
{"int64_list":[null,1],"utf8_list":null}
{"int64_list":[4],"utf8_list":["efg",null,"hij","xyz"]}
""",
    "lz4_raw_compressed.parquet": """
{"c0":1593604800,"c1":"YWJj","v11":42.0}
{"c0":1593604800,"c1":"ZGVm","v11":7.7}
{"c0":1593604801,"c1":"YWJj","v11":42.125}
{"c0":1593604801,"c1":"ZGVm","v11":7.7}
""",
    "nan_in_stats.parquet": """
{"x":1.0}
{"x":"NaN"}
""",
    "nested_lists.snappy.parquet": """
{"a":[[["a","b"],["c"]],[null,["d"]]],"b":1}
{"a":[[["a","b"],["c","d"]],[null,["e"]]],"b":1}
{"a":[[["a","b"],["c","d"],["e"]],[null,["f"]]],"b":1}
""",
    "nonnullable.impala.parquet": """
{"ID":8,"Int_Array":[-1],"int_array_array":[[-1,-2],[]],"Int_Map":[{"key":"k1","value":-1}],"int_map_array":[[],[{"key":"k1","value":1}],[],[]],"nested_Struct":{"a":-1,"B":[-1],"c":{"D":[[{"e":-1,"f":"nonnullable"}]]},"G":[]}}
""",
    "null_list.parquet": """
{"emptylist":[]}
""",
    "nulls.snappy.parquet": "\n".join(['{"b_struct":{"b_c_int":null}}'] * 8),
    "old_list_structure.parquet": """
{"a":[[1,2],[3,4]]}
""",
    "repeated_no_annotation.parquet": """
{"id":1,"phoneNumbers":null}
{"id":2,"phoneNumbers":null}
{"id":3,"phoneNumbers":{"phone":[]}}
{"id":4,"phoneNumbers":{"phone":[{"number":5555555555,"kind":null}]}}
{"id":5,"phoneNumbers":{"phone":[{"number":1111111111,"kind":"home"}]}}
{"id":6,"phoneNumbers":{"phone":[{"number":1111111111,"kind":"home"},{"number":2222222222,"kind":null},{"number":3333333333,"kind":"mobile"}]}}
""",
    # The unknown LogicalType member (id 2555) degrades to the physical type: binary.
    "unknown-logical-type.parquet": """
{"column with known type":"known string 1","column with unknown type":"dW5rbm93biBzdHJpbmcgMQ=="}
{"column with known type":"known string 2","column with unknown type":"dW5rbm93biBzdHJpbmcgMg=="}
{"column with known type":"known string 3","column with unknown type":"dW5rbm93biBzdHJpbmcgMw=="}
""",
}

DECIMAL_24 = "\n".join('{"value":"%d.00"}' % i for i in range(1, 25))
for _name in ("byte_array_decimal.parquet", "fixed_length_decimal.parquet",
              "fixed_length_decimal_legacy.parquet", "int32_decimal.parquet"):
    EXPECTED[_name] = DECIMAL_24
EXPECTED["binary.parquet"] = "\n".join('{"foo":"%s"}' % b64([i]) for i in range(12))
EXPECTED["concatenated_gzip_members.parquet"] = "\n".join(
    '{"long_col":%d}' % i for i in range(1, 514))
EXPECTED["delta_length_byte_array.parquet"] = "\n".join(
    '{"FRUIT":"apple_banana_mango%d"}' % (i * i) for i in range(1000))
EXPECTED["dict-page-offset-zero.parquet"] = "\n".join(['{"l_partkey":1552}'] * 39)
EXPECTED["plain-dict-uncompressed-checksum.parquet"] = "\n".join(
    ['{"long_field":0,"binary_field":"%s"}' % b64("a655fd0e-9949-4059-bcae-fd6a002a4652")] * 1000)

# Floats of parquet.md §9: RG0..RG4 of floating_orders_nan_count.parquet, same for all six columns.
_NAN = float("nan")
FLOATING_ORDERS = [-2, -1, -0.0, 0, 0.5, 1, 2, 3, 4, 5,
                   _NAN, -2, _NAN, -1, -0.0, 0, 1, _NAN, 3, _NAN,
                   _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN,
                   0, 0, 0, 0.5, 1, 1.5, 2, 3, 4, 5,
                   -5, -4, -3, -2, -1.5, -1, -0.5, -0.0, -0.0, -0.0]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_expected_rows(name):
    path = need(data(name))
    expected = rows_of(EXPECTED[name])
    assert_rows(cat(path), expected, name)
    assert count(path) == len(expected)


def test_alltypes_plain_exact_text():
    """The exact bytes of the output: compact JSON, keys in schema order, one row a line."""
    path = need(data("alltypes_plain.parquet"))
    r = run("parquet", "cat", path)
    assert r.code == 0, r
    assert r.out == EXPECTED["alltypes_plain.parquet"].lstrip("\n"), r.out


def test_float16_signed_zeros():
    path = need(data("float16_nonzeros_and_nans.parquet"))
    xs = [r["x"] for r in cat(path)]
    assert xs[4] == 0 and str(float(xs[4])) == "0.0", xs
    assert xs[6] == 0 and str(float(xs[6])) == "-0.0", xs


# ---- files checked through aggregates ------------------------------------------------------------

def test_alltypes_tiny_pages():
    path = need(data("alltypes_tiny_pages.parquet"))
    rows = cat(path)
    assert len(rows) == 7300
    ids = [r["id"] for r in rows]
    assert sorted(ids) == list(range(7300)) and sum(ids) == 26641350
    assert ids[0] == 122 and ids[-1] == 6174
    assert sum(r["bool_col"] for r in rows) == 3650
    for col in ("tinyint_col", "smallint_col", "int_col"):
        assert sum(r[col] for r in rows) == 32850, col
        assert all(0 <= r[col] <= 9 for r in rows), col
    assert sum(r["bigint_col"] for r in rows) == 328500
    assert sum(r["year"] for r in rows) == 14669350
    assert sum(r["month"] for r in rows) == 47640
    assert rows[0]["date_string_col"] == "01/13/09"
    assert rows[0]["string_col"] == "2" and f32(rows[0]["float_col"]) == f32(2.2)
    assert rows[0]["timestamp_col"] == "2009-01-13T01:02:05.410000Z"
    assert all(None not in r.values() for r in rows)


def test_byte_stream_split_zstd():
    path = need(data("byte_stream_split.zstd.parquet"))
    rows = cat(path)
    assert len(rows) == 300
    f32s = [1.7640524, 0.40015721, 0.978738, 2.2408931, 1.867558]
    assert [f32(r["f32"]) for r in rows[:5]] == [f32(x) for x in f32s]
    assert [r["f64"] for r in rows[:3]] == [-1.3065268517353166, 1.658130679618188,
                                           -0.11816404512856976]


def test_column_chunk_key_value_metadata_empty():
    path = need(data("column_chunk_key_value_metadata.parquet"))
    r = run("parquet", "cat", path)
    assert r.code == 0 and r.out == "", r
    assert count(path) == 0


def test_datapage_v1_uncompressed_checksum():
    path = need(data("datapage_v1-uncompressed-checksum.parquet"))
    rows = cat(path)
    assert len(rows) == 5120
    assert rows[0]["a"] == 50462976
    assert sum(r["a"] for r in rows) == 43118090240
    assert sum(r["b"] for r in rows) == 129016125440


def test_fixed_length_byte_array():
    path = need(data("fixed_length_byte_array.parquet"))
    rows = cat(path)
    assert len(rows) == 1000
    vals = [r["flba_field"] for r in rows]
    assert sum(v is None for v in vals) == 105
    assert vals[0] == b64([0, 0, 3, 0xE8]) and vals[1:10] == [None] * 9
    assert vals[10:12] == [b64([0, 0, 3, 0xDE]), b64([0, 0, 3, 0xDD])]
    assert vals[-1] == b64([0, 0, 0, 1])
    ints = [int.from_bytes(base64.b64decode(v), "big") for v in vals if v is not None]
    assert all(a > b for a, b in zip(ints, ints[1:])), "values must descend"


def test_floating_orders_nan_count():
    path = need(data("floating_orders_nan_count.parquet"))
    rows = cat(path)
    assert len(rows) == 50
    cols = ["float_ieee754", "float_typedef", "double_ieee754", "double_typedef",
            "float16_ieee754", "float16_typedef"]
    assert list(rows[0].keys()) == cols
    for i, (r, want) in enumerate(zip(rows, FLOATING_ORDERS)):
        for c in cols:
            got = r[c]
            if want != want:
                assert got == "NaN", (i, c, got)
            else:
                assert isinstance(got, (int, float)) and float(got) == want, (i, c, got)
                if want == 0:  # the sign of zero is data here
                    assert str(float(got)).startswith("-") == str(want).startswith("-"), (i, c, got)


def test_nested_structs_rust():
    path = need(data("nested_structs.rust.parquet"))
    rows = cat(path)
    assert len(rows) == 1
    r = rows[0]
    assert r["roll_num"]["min"] == 190406409000602
    assert r["roll_num"]["max"] == 190407175004000
    assert r["roll_num"]["count"] == 495
    assert r["PC_CUR"]["min"] == 115 and r["PC_CUR"]["max"] == 742
    assert r["PC_CUR"]["sum"] == 206195
    leaves = []

    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        else:
            leaves.append(v)
    walk(r)
    assert len(leaves) == 216
    assert all(x is not None and not isinstance(x, bool) for x in leaves)


def test_overflow_i16_page_cnt():
    path = need(data("overflow_i16_page_cnt.parquet"))
    rows = cat(path)
    assert len(rows) == 40000
    assert all(r == {"inc": False} for r in rows)


def test_rle_boolean_encoding():
    path = need(data("rle_boolean_encoding.parquet"))
    vals = [r["datatype_boolean"] for r in cat(path)]
    assert len(vals) == 68
    assert sum(v is None for v in vals) == 6
    assert sum(v is True for v in vals) == 36
    T, F, N = True, False, None
    assert vals[:12] == [T, F, N, T, T, F, F, T, T, T, F, F]


def _csv_rows(csv_name):
    with open(data(csv_name), newline="") as f:
        rd = csv.reader(f)
        next(rd)  # header names differ from the Parquet names (spaces, ':'): match by position
        return list(rd)


@pytest.mark.parametrize("name", ["delta_binary_packed.parquet", "delta_byte_array.parquet",
                                  "delta_encoding_optional_column.parquet",
                                  "delta_encoding_required_column.parquet"])
def test_delta_files_equal_expect_csv(name):
    path = need(data(name))
    csv_rows = _csv_rows(name.replace(".parquet", "_expect.csv"))
    rows = cat(path)
    assert len(rows) == len(csv_rows)
    for i, (r, c) in enumerate(zip(rows, csv_rows)):
        vals = list(r.values())
        assert len(vals) == len(c), (i, len(vals), len(c))
        for j, (v, s) in enumerate(zip(vals, c)):
            if s == "":  # an empty CSV field is a null
                assert v is None, (name, i, j, v)
            elif isinstance(v, int) and not isinstance(v, bool):
                assert v == int(s), (name, i, j, v, s)
            else:
                assert v == s, (name, i, j, v, s)
    assert count(path) == len(csv_rows)


# ---- legacy LZ4, brotli and tolerated oddities ------------------------------------------------

LZ4_ROWS = EXPECTED["lz4_raw_compressed.parquet"]


@pytest.mark.parametrize("name", ["hadoop_lz4_compressed.parquet",
                                  "non_hadoop_lz4_compressed.parquet"])
def test_legacy_lz4(name):
    """Codec 5 (LZ4), which the README claims: Hadoop framing and raw blocks both read, with the
    same rows as the LZ4_RAW file."""
    path = need(data(name))
    assert_rows(cat(path), rows_of(LZ4_ROWS), name)
    assert count(path) == 4


def test_nation_dict_malformed():
    """PARQUET-816-era sizes (dictionary page header left out of the chunk size): arrow, DuckDB
    and hudic read 25 rows."""
    path = need(data("nation.dict-malformed.parquet"))
    rows = cat(path)
    assert len(rows) == 25
    assert sum(x["nation_key"] for x in rows) == 300
    assert rows[0]["name"] == b64("ALGERIA")


def test_large_string_map_brotli():
    """BROTLI pages holding two 1 GiB map keys (a 2 GiB dictionary page). hudic's byte arrays
    have 32-bit offsets (like Arrow's non-large strings), so the keys cannot sit in one batch:
    the brotli pages must decompress and decode, and the read then stops at exactly that limit
    (any other failure - codec, memory, corruption - fails the test). Reading both rows would
    pass too."""
    path = need(data("large_string_map.brotli.parquet"))
    r = run("parquet", "cat", "--count", path, timeout=600)
    if r.code == 0:
        assert r.out.strip() == "2"
    else:
        assert_clean_failure(r, path, "byte array data exceeds 2 GiB in one batch")


BROTLI_COLUMNS = {
    "i32": [1, None, -7, 2**31 - 1, 0],
    "i64": [2**62, -1, None, 5, 6],
    "f64": [0.5, -2.25, 1e300, None, 3.0],
    "s": ["brotli", "", None, "x" * 3000, "\u00e9t\u00e9"],
    "lst": [[1, 2], [], None, [None, 4], [5]],
}


def _brotli_expected(n):
    return [{k: v[i % 5] for k, v in BROTLI_COLUMNS.items()} for i in range(n)]


def test_brotli_written_by_pyarrow(tmp_path):
    """Brotli (the README's codec list) on files another writer made: pyarrow writes BROTLI with
    v1 and v2 data pages, with and without dictionaries; hudic must read every row exactly."""
    pa = peer("pyarrow")
    pq = peer("pyarrow.parquet")
    n = 2000
    cols = {k: [v[i % 5] for i in range(n)] for k, v in BROTLI_COLUMNS.items()}
    table = pa.table(cols, schema=pa.schema([("i32", pa.int32()), ("i64", pa.int64()),
                                             ("f64", pa.float64()), ("s", pa.string()),
                                             ("lst", pa.list_(pa.int64()))]))
    for version in ("1.0", "2.0"):
        for dictionary in (True, False):
            path = str(tmp_path / ("brotli_v%s_%s.parquet" % (version, dictionary)))
            pq.write_table(table, path, compression="brotli", data_page_version=version,
                           use_dictionary=dictionary, data_page_size=4096)
            codecs = {pq.ParquetFile(path).metadata.row_group(0).column(i).compression
                      for i in range(5)}
            assert codecs == {"BROTLI"}, codecs
            assert_rows(cat(path), _brotli_expected(n), path)


def test_brotli_written_by_duckdb(tmp_path):
    """The same through DuckDB's writer (its own brotli framing choices and page layout)."""
    duckdb = peer("duckdb")
    path = str(tmp_path / "brotli_duckdb.parquet")
    con = duckdb.connect()
    try:
        con.execute("COPY (SELECT i::INTEGER AS i, 'v' || (i %% 7)::VARCHAR AS s, "
                    "CASE WHEN i %% 3 = 0 THEN NULL ELSE (i * 0.5)::DOUBLE END AS d "
                    "FROM range(5000) t(i)) TO '%s' (FORMAT parquet, COMPRESSION brotli)"
                    % path.replace("'", "''"))
    finally:
        con.close()
    r = run("parquet", "meta", path)
    assert r.code == 0 and "BROTLI" in r.out, r
    want = [{"i": i, "s": "v%d" % (i % 7), "d": None if i % 3 == 0 else i * 0.5}
            for i in range(5000)]
    assert_rows(cat(path), want, path)


# ---- files that must fail ------------------------------------------------------------------------

def test_corrupt_checksum_fails_with_crc():
    path = need(data("datapage_v1-corrupt-checksum.parquet"))
    assert_clean_failure(run("parquet", "cat", path), path, "crc", "checksum")
    assert_clean_failure(run("parquet", "cat", "--count", path), path, "crc", "checksum")


def test_corrupt_checksum_reads_altered_values_without_crc():
    """§8 item 19: with verification off the damaged pages decode to other values."""
    path = need(data("datapage_v1-corrupt-checksum.parquet"))
    rows = cat(path, "--no-crc")
    assert len(rows) == 5120
    assert sum(r["a"] for r in rows) == 43118090496  # the intact file sums to 43,118,090,240
    assert sum(r["b"] for r in rows) != 129016125440


def test_rle_dict_corrupt_checksum():
    path = need(data("rle-dict-uncompressed-corrupt-checksum.parquet"))
    assert_clean_failure(run("parquet", "cat", path), path, "crc", "checksum")
    assert count(path, "--no-crc") == 1000


def test_uniform_encryption_is_refused():
    path = need(data("uniform_encryption.parquet.encrypted"))
    for cmd in ("cat", "schema", "meta"):
        assert_clean_failure(run("parquet", cmd, path), path, "encrypt")


@pytest.mark.parametrize("name", ["bloom_filter.bin", "bloom_filter.xxhash.bin"])
def test_not_parquet_files(name):
    path = need(data(name))
    assert_clean_failure(run("parquet", "cat", path), path)


def test_missing_file():
    path = os.path.join(DATA, "no_such_file.parquet")
    assert_clean_failure(run("parquet", "cat", path), path)


BAD_FILES = sorted(f for f in os.listdir(need(BAD)) if f.endswith(".parquet"))


@pytest.mark.parametrize("name", [f for f in BAD_FILES if f != "ARROW-GH-43605.parquet"])
def test_bad_data_fails_cleanly(name):
    path = bad(name)
    for args in (["cat"], ["cat", "--count"], ["cat", "--no-crc"]):
        r = run("parquet", *args, path)
        assert_clean_failure(r, path)
    for cmd in ("schema", "meta"):  # may succeed (the footer can be fine) but never crash
        r = run("parquet", cmd, path)
        assert r.code in (0, 1), r
        if r.code == 1:
            assert_clean_failure(r, path)


def test_arrow_gh_43605_bit_width_zero_reads():
    """bad_data/ARROW-GH-43605: dictionary indices of bit width 0 are valid: 21,186 zeros."""
    path = need(bad("ARROW-GH-43605.parquet"))
    rows = cat(path)
    assert len(rows) == 21186
    assert all(r == {"min_fl": 0} for r in rows)
    assert count(path) == 21186


# ---- every must-read file also survives schema/meta and --limit ----------------------------------

MUST_READ = sorted(set(EXPECTED) | {
    "alltypes_tiny_pages.parquet", "byte_stream_split.zstd.parquet",
    "column_chunk_key_value_metadata.parquet", "datapage_v1-uncompressed-checksum.parquet",
    "fixed_length_byte_array.parquet", "floating_orders_nan_count.parquet",
    "nested_structs.rust.parquet", "overflow_i16_page_cnt.parquet",
    "rle_boolean_encoding.parquet", "delta_binary_packed.parquet", "delta_byte_array.parquet",
    "delta_encoding_optional_column.parquet", "delta_encoding_required_column.parquet"})


@pytest.mark.parametrize("name", MUST_READ)
def test_schema_meta_and_limit(name):
    path = need(data(name))
    for cmd in ("schema", "meta"):
        r = run("parquet", cmd, path)
        assert r.code == 0 and r.err == "" and r.out, (cmd, r)
    first = cat(path, "--limit", "1")
    assert len(first) == min(1, count(path))
