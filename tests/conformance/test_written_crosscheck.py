"""test_written_crosscheck.py - files WRITTEN by hudic, read back by hudic, pyarrow and DuckDB.

For each seed, gen_random_parquet (tests/conformance/gen_random_parquet.c) writes a file with a
random schema (every leaf type, structs/lists/maps nested up to depth 3, nulls at every level,
empty lists and maps), random column encodings (DELTA_*, BYTE_STREAM_SPLIT, ...) and random
writer options (codec, page v1/v2, dictionary and fallback,
tiny pages and row groups, legacy 2-level lists, FLBA decimals, statistics, page index, CRC,
bloom filters). `hudic parquet cat` must print exactly what pyarrow and DuckDB read, after
normalising the rendering only (normalise.py), and every reader must see the right row count.

The comparison walks the generator's field tree, so a reader's known limitation is handled for
that reader only and only at the leaves it concerns (the per-reader UNSUPPORTED lists below,
each with its reason); the rest of the file is still compared value by value. A file a reader
refuses must match an entry of that reader's REFUSES list (the reason, and either the columns
left out of that reader's comparison or an xfail naming the known bug); any other refusal fails.

Environment: HUDI_GEN_RANDOM = the gen_random_parquet binary (ctest sets it; otherwise the newest
build/*/tests/gen_random_parquet), HUDI_RANDOM_SEEDS = seeds as "A-B" (default 1-40), e.g.
HUDI_RANDOM_SEEDS=1-2000 for a long run. Reproduce one seed with
`gen_random_parquet SEED /tmp/x.parquet && hudic parquet cat /tmp/x.parquet`."""
import glob
import json
import math
import os
import subprocess

import pytest

from normalise import canon_table, f32, fmt_timestamp
from support import ROOT, TIMEOUT_S, json_lines, peer, run

pa = peer("pyarrow")
pq = peer("pyarrow.parquet")


def _find_gen():
    env = os.environ.get("HUDI_GEN_RANDOM")
    if env:
        return env
    found = [p for p in glob.glob(os.path.join(ROOT, "build", "*", "tests", "gen_random_parquet"))
             if os.access(p, os.X_OK)]
    return max(found, key=os.path.getmtime) if found else None


GEN = _find_gen()


def _seeds():
    spec = os.environ.get("HUDI_RANDOM_SEEDS", "1-40")
    lo, _, hi = spec.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


SEEDS = _seeds()
INT64_MAX = 2**63 - 1

# ---- per-reader limitations ---------------------------------------------------------------------
#
# Each entry: (predicate(field, file description), action, reason). Actions:
#   "micros": the reader keeps only microseconds; hudic's value is compared truncated to micros.
#   "mask":   the reader cannot represent the values; only null-ness is compared at that leaf.
#   "unwrap": (lists) the reader returns each element's only struct field instead of the
#             one-field struct; hudic's elements are compared unwrapped the same way.
#   "ms_infinity": the reader maps TIMESTAMP(MILLIS) +-(2^63 - 1) to its +-infinity.
# Fields are the generator's (type, nullable, unit, utc, precision, scale, width, uuid, children).


def _legacy_list_of_one_field_struct(f, meta):
    """A list written 2-level (`repeated group array { one field }`, legacy_list_format with a
    non-null element) whose element is a struct with exactly one field."""
    if f["type"] != "list" or not meta["options"]["legacy_lists"]:
        return False
    e = f["children"][0]
    return not e["nullable"] and e["type"] == "struct" and len(e["children"]) == 1


DUCKDB_UNSUPPORTED = [
    (lambda f, meta: f["type"] == "time" and f["unit"] == "ns" and f["utc"], "micros",
     "DuckDB reads TIME(NANOS, isAdjustedToUTC=true) as TIME WITH TIME ZONE, which has "
     "microsecond precision, so the nanoseconds are dropped (TIME(NANOS, false) is TIME_NS and "
     "is compared in full)"),
    (lambda f, meta: f["type"] == "timestamp" and f["unit"] == "ms", "ms_infinity",
     "DuckDB reads TIMESTAMP(MILLIS) as microseconds and maps the millisecond values "
     "+-(2^63 - 1) to +-infinity (microseconds +-(2^63 - 1)); exactly that is accepted for those "
     "two values, every other value is compared"),
    (_legacy_list_of_one_field_struct, "unwrap",
     "DuckDB does not apply backward-compatibility rule 4 of docs/formats/parquet.md §4.5 (a repeated group "
     "named `array` with one field is the element): it takes the one field as the element, the "
     "ambiguity of hudi#19782; pyarrow applies the rule and is compared in full"),
]

# pyarrow 26 reads every type hudic writes (FLOAT16 as halffloat, UUID as arrow.uuid, unsigned,
# TIME/TIMESTAMP nanos, 2-level lists); nothing is excluded for it.
PYARROW_UNSUPPORTED = []

# Whole files a reader refuses: (predicate on the file description, error message, columns to
# drop, reason). The test checks that the refusal is this one (the message matches and the
# predicate holds). With a column predicate, the file is read again without the top-level columns
# that contain a matching field and the rest is compared; without one, the test reports xfail so
# the known problem stays visible. A reader that reads such a file is compared as usual.
PYARROW_REFUSES = [
    (lambda meta: meta["options"]["legacy_lists"] and any(
        _has_field(f, _legacy_list_of_3level_list) for f in meta["fields"]),
     "LIST-annotated groups must not be repeated", None,
     "hudic writer (src/format/parquet/schema.c, legacy_list_format): a list whose element is a "
     "non-null list with nullable elements is written 2-level as `repeated group array (LIST) "
     "{ repeated group list { optional T element } }`; parquet-avro never writes that shape "
     "(its inner list is 2-level too) and arrow refuses the file"),
]


def _is_ts_millis(f):
    return f["type"] == "timestamp" and f["unit"] == "ms"


def _is_flba(f):
    return (f["type"] in ("fixed_binary", "float16")
            or (f["type"] == "decimal" and f.get("physical") == "FIXED_LEN_BYTE_ARRAY"))


def _bss_flba(f):
    """A top-level column written in BYTE_STREAM_SPLIT that holds a FIXED_LEN_BYTE_ARRAY leaf
    (`encoding` is set on top-level fields by generate())."""
    return f.get("encoding") == "BYTE_STREAM_SPLIT" and _has_field(f, _is_flba)


DUCKDB_REFUSES = [
    (lambda meta: any(_has_field(f, _is_ts_millis) for f in meta["fields"]),
     "Could not convert Timestamp(MS) to Timestamp(US)", _is_ts_millis,
     "DuckDB converts TIMESTAMP(MILLIS) to microseconds and refuses the whole file when a value "
     "overflows int64 microseconds (years beyond about +-294000); pyarrow compares those columns"),
    (lambda meta: any(_bss_flba(f) for f in meta["fields"]),
     "BYTE_STREAM_SPLIT encoding is only supported for FLOAT, DOUBLE, INT32 or INT64", _bss_flba,
     "DuckDB 2.0 decodes BYTE_STREAM_SPLIT only for FLOAT, DOUBLE, INT32 and INT64, not for "
     "FIXED_LEN_BYTE_ARRAY (allowed since parquet-format 2.11); pyarrow compares those columns"),
]


def _has_field(f, pred):
    return pred(f) or any(_has_field(c, pred) for c in f.get("children", []))


def _legacy_list_of_3level_list(f):
    if f["type"] != "list":
        return False
    e = f["children"][0]
    return not e["nullable"] and e["type"] == "list" and e["children"][0]["nullable"]


# ---- generating and reading -------------------------------------------------------------------

@pytest.fixture(scope="module")
def outdir(tmp_path_factory):
    return tmp_path_factory.mktemp("written")


_generated = {}


def generate(seed, outdir):
    """(path, description) of the file for `seed`, written once per session."""
    if seed in _generated:
        return _generated[seed]
    if not GEN or not os.access(GEN, os.X_OK):
        pytest.fail("gen_random_parquet not found: build it or set HUDI_GEN_RANDOM", pytrace=False)
    path = str(outdir / ("seed%d.parquet" % seed))
    cp = subprocess.run([GEN, str(seed), path], capture_output=True, timeout=TIMEOUT_S)
    assert cp.returncode == 0 and cp.stderr == b"", "gen_random_parquet %d failed: %s" % (
        seed, cp.stderr.decode(errors="replace"))
    meta = json.loads(cp.stdout)
    annotate(meta)
    _generated[seed] = (path, meta)
    return path, meta


def annotate(meta):
    """Marks each top-level field with the encoding chosen for it (or None) and each decimal
    with its physical type, for the per-reader rules."""
    flba_decimals = meta["options"].get("decimal_as_fixed", False)

    def walk(f):
        if f["type"] == "decimal":
            f["physical"] = ("FIXED_LEN_BYTE_ARRAY" if flba_decimals or f["precision"] > 18
                             else "INT64" if f["precision"] > 9 else "INT32")
        for c in f.get("children", []):
            walk(c)

    for f in meta["fields"]:
        f["encoding"] = meta.get("encodings", {}).get(f["name"])
        walk(f)


def hudic_rows(path, meta):
    r = run("parquet", "cat", path)
    assert r.code == 0 and r.err == "", "hudic cannot read its own file (seed %d): %r" % (
        meta["seed"], r)
    rows = json_lines(r.out)
    assert len(rows) == meta["rows"], "seed %d: hudic read %d rows, %d written" % (
        meta["seed"], len(rows), meta["rows"])
    return rows


_duckdb_con = None


def duckdb_table(path, columns=None):
    """The file (or only `columns`) read by DuckDB, as an Arrow table."""
    global _duckdb_con
    duckdb = peer("duckdb")
    if _duckdb_con is None:
        _duckdb_con = duckdb.connect()
    cols = ", ".join('"%s"' % c for c in columns) if columns is not None else "*"
    if not cols:
        cols = "count(*) AS n"  # nothing left to compare: the row count still is
    rel = _duckdb_con.sql("SELECT %s FROM read_parquet('%s')" % (cols, path.replace("'", "''")))
    t = rel.to_arrow_table() if hasattr(rel, "to_arrow_table") else rel.arrow()
    t = t.read_all() if isinstance(t, pa.RecordBatchReader) else t
    if columns is not None and not columns:
        return pa.table({"_": pa.nulls(t.column(0)[0].as_py())})
    return t


# ---- comparison -------------------------------------------------------------------------------

_FRAC_DIGITS = {"ms": 3, "us": 6, "ns": 9}


def _time_at_unit(s, unit):
    """Rendering only: a reader that widens TIME(MILLIS) to micros (DuckDB's TIME) renders six
    fraction digits; drop the trailing ones when they are zeros, so the value itself still has
    to match."""
    head, dot, frac = s.partition(".")
    want = _FRAC_DIGITS[unit]
    if dot and len(frac) > want and set(frac[want:]) == {"0"}:
        return head + "." + frac[:want]
    return s


def _truncate_micros(s):
    head, dot, frac = s.partition(".")
    return head + "." + frac[:6] if dot and len(frac) > 6 else s


def _as_f32(v):
    return f32(float(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else v


def _same_leaf(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
            return False
        # -0.0 and 0.0 compare equal as floats; the sign is part of the value
        return float(a) == float(b) and math.copysign(1, a) == math.copysign(1, b)
    return a == b and type(a) is type(b)


class Walk:
    """Compares hudic's value with a reference reader's along one generator field tree and
    collects differences as readable lines."""

    def __init__(self, reader, rules, meta):
        self.reader = reader
        self.rules = rules
        self.meta = meta
        self.diffs = []

    def rule(self, f):
        for pred, action, reason in self.rules:
            if pred(f, self.meta):
                return action, reason
        return None, None

    def diff(self, path, what, a, b):
        if len(self.diffs) < 20:
            self.diffs.append("%s: %s: hudic %r, %s %r" % (path, what, a, self.reader, b))

    def value(self, a, b, f, path):
        t = f["type"]
        if a is None or b is None:
            if a is not None or b is not None:
                self.diff(path, "null-ness", a, b)
            return
        if t == "struct":
            if not isinstance(a, dict) or not isinstance(b, dict):
                return self.diff(path, "not an object", a, b)
            names = [c["name"] for c in f["children"]]
            if list(a) != names or list(b) != names:
                return self.diff(path, "keys", list(a), list(b))
            for c in f["children"]:
                self.value(a[c["name"]], b[c["name"]], c, path + "." + c["name"])
        elif t in ("list", "map"):
            if not isinstance(a, list) or not isinstance(b, list) or len(a) != len(b):
                return self.diff(path, "length", a, b)
            if t == "list":
                elem = f["children"][0]
                if self.rule(f)[0] == "unwrap":
                    elem = elem["children"][0]
                    a = [x[elem["name"]] if isinstance(x, dict) else x for x in a]
                for i, (x, y) in enumerate(zip(a, b)):
                    self.value(x, y, elem, "%s[%d]" % (path, i))
                return
            key, val = f["children"][0]["children"]
            for i, (x, y) in enumerate(zip(a, b)):
                if list(x) != ["key", "value"] or list(y) != ["key", "value"]:
                    return self.diff(path, "map entry keys", x, y)
                self.value(x["key"], y["key"], key, "%s[%d].key" % (path, i))
                self.value(x["value"], y["value"], val, "%s[%d].value" % (path, i))
        else:
            self.leaf(a, b, f, path)

    def leaf(self, a, b, f, path):
        action = self.rule(f)[0]
        if action == "mask":
            return
        if f["type"] == "time" and isinstance(b, str):
            b = _time_at_unit(b, f["unit"])
        if action == "micros":
            a = _truncate_micros(a) if isinstance(a, str) else a
        if action == "ms_infinity":
            for v in (INT64_MAX, -INT64_MAX):
                if a == fmt_timestamp(v, "ms", f["utc"]):
                    a = fmt_timestamp(v, "us", f["utc"])
        if f["type"] in ("float", "float16"):
            # hudic prints the shortest text that reads back as the same float32
            a, b = _as_f32(a), _as_f32(b)
        if not _same_leaf(a, b):
            self.diff(path, "value", a, b)


def compare(reader, rules, got, table, meta, path, fields=None):
    """hudic's rows equal the reader's table on `fields` (default: all columns)."""
    fields = meta["fields"] if fields is None else fields
    seed = meta["seed"]
    where = "seed %d (%s; options %s)" % (seed, path, json.dumps(meta["options"]))
    assert table.num_rows == meta["rows"], "%s: %s read %d rows, %d written" % (
        where, reader, table.num_rows, meta["rows"])
    if not fields:
        return
    assert table.schema.names == [f["name"] for f in fields], where
    expected = canon_table(table)
    w = Walk(reader, rules, meta)
    for i, (g, e) in enumerate(zip(got, expected)):
        for f in fields:
            w.value(g[f["name"]], e[f["name"]], f, "row %d %s" % (i, f["name"]))
    assert not w.diffs, "%s: hudic differs from %s:\n  %s" % (where, reader, "\n  ".join(w.diffs))


def _refusal(refuses, meta, error):
    """(columns predicate, reason) of the known refusal `error` is, or None."""
    for pred, message, drop, reason in refuses:
        if pred(meta) and message in str(error):
            return drop, reason
    return None


@pytest.mark.parametrize("seed", SEEDS)
def test_pyarrow(seed, outdir):
    path, meta = generate(seed, outdir)
    got = hudic_rows(path, meta)
    try:
        pf = pq.ParquetFile(path)
        assert pf.metadata.num_rows == meta["rows"], "seed %d: footer num_rows" % seed
        table = pf.read()
    except pa.ArrowException as e:
        known = _refusal(PYARROW_REFUSES, meta, e)
        if not known:
            raise
        assert known[0] is None, "column dropping is not implemented for pyarrow"
        pytest.xfail("seed %d: %s" % (seed, known[1]))
    compare("pyarrow", PYARROW_UNSUPPORTED, got, table, meta, path)


@pytest.mark.parametrize("seed", SEEDS)
def test_duckdb(seed, outdir):
    path, meta = generate(seed, outdir)
    got = hudic_rows(path, meta)
    table, fields = duckdb_known_refusals(path, meta, seed)
    compare("duckdb", DUCKDB_UNSUPPORTED, got, table, meta, path, fields)


def duckdb_known_refusals(path, meta, seed):
    """DuckDB's table of the file and the fields it holds: all of them, or, after each known
    refusal, the columns DuckDB can read (the dropped ones are compared by test_pyarrow)."""
    fields = meta["fields"]
    for _ in range(len(DUCKDB_REFUSES) + 1):
        try:
            return duckdb_table(path, None if fields is meta["fields"] else
                                [f["name"] for f in fields]), fields
        except Exception as e:  # duckdb's exception classes differ between releases
            known = _refusal(DUCKDB_REFUSES, meta, e)
            if not known:
                raise
            drop, reason = known
            if drop is None:
                pytest.xfail("seed %d: %s" % (seed, reason))
            fields = [f for f in fields if not _has_field(f, drop)]
    raise AssertionError("seed %d: DuckDB keeps refusing the file" % seed)


def test_generator_is_deterministic(tmp_path):
    """A seed names one file: the same seed gives the same bytes (failures reproduce)."""
    if not GEN or not os.access(GEN, os.X_OK):
        pytest.fail("gen_random_parquet not found: build it or set HUDI_GEN_RANDOM", pytrace=False)
    a, b = str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")
    for p in (a, b):
        subprocess.run([GEN, "7", p], check=True, capture_output=True, timeout=TIMEOUT_S)
    with open(a, "rb") as fa, open(b, "rb") as fb:
        assert fa.read() == fb.read()


def test_seeds_cover_every_type_and_option(outdir):
    """The default seeds exercise every leaf type, the codecs, every encoding a column can be
    given, both page versions, dictionaries on and off, legacy lists, and nesting at depth 3 (so a generator change cannot quietly
    narrow what this suite checks)."""
    leaves, codecs, opts, encodings, depth = set(), set(), set(), set(), 0

    def walk(f, d):
        nonlocal depth
        depth = max(depth, d)
        if "children" not in f:
            leaves.add("uuid" if f.get("uuid") else f["type"] + (f.get("unit") or ""))
        for c in f.get("children", []):
            walk(c, d + (0 if f["type"] == "map" and c["name"] == "key_value" else 1))

    for seed in SEEDS:
        _, meta = generate(seed, outdir)
        for f in meta["fields"]:
            walk(f, 0)
        o = meta["options"]
        codecs.add(o["codec"])
        encodings.update(meta["encodings"].values())
        opts |= {("v2", o["page_v2"]), ("dict", o["dictionary"]), ("legacy", o["legacy_lists"])}
    if len(SEEDS) < 40:
        pytest.skip("coverage is asserted for the default 40 seeds or more")
    want = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float16", "float", "double", "decimal", "date", "timems", "timeus", "timens",
            "timestampms", "timestampus", "timestampns", "string", "binary", "fixed_binary",
            "uuid"}
    assert want <= leaves, "leaf types never generated: %s" % sorted(want - leaves)
    # BROTLI is rare here (test_written_encodings.py writes it on purpose)
    assert codecs >= {"uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "lz4"}, codecs
    assert encodings == {"PLAIN", "RLE", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY",
                         "DELTA_BYTE_ARRAY", "BYTE_STREAM_SPLIT", "RLE_DICTIONARY"}, encodings
    assert len(opts) == 6, opts
    assert depth >= 3, depth
