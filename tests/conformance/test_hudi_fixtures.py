"""test_hudi_fixtures.py - hudic reads the Spark-written Hudi tables of tests/data/hudi-rs
(README.md there) with exactly the rows of their *.expected.json.

Every copy-on-write table (versions 6, 8 and 9; partitioned or not; simple, complex and
timestamp keys; with and without meta fields; INSERT OVERWRITE; empty; the historical table)
is read through `hudic table cat` for every entry of its "expected" list: the snapshot
(no flags), time travel (--as-of) and incremental reads (--incremental BEGIN,END), with
--columns when the entry is a projection. Beyond the expected list: the snapshot's column order
and --count, `--where COL = v` on the partition path and record key (the snapshot filtered
here), time travel to before the first commit (no rows, but the columns of
hoodie.table.create.schema), and an empty table. `hudic table info` must name the table, its
completed instants and its latest file slices. Lance tables must be refused with one clear
line. Merge-on-read tables: every expected query too (snapshots merge the log files into the
base files' rows; time travel and incremental reads likewise), `--where` on the merged rows, and
read-optimized (`--read-optimized`, the base files of the latest file slices; log files
ignored): the rows must be exactly read_optimized_latest.

Rows are compared as multisets. Only the rendering is normalised (docs/formats/rendering.md vs
the README's "Value conventions"): expected "hex:<hex>" binary vs our base64, timestamps with
or without a fraction, FLOAT values rounded to 7 significant digits vs our shortest float32
text, integral floats printed without a fraction, maps as JSON objects vs our key/value arrays.
"""
import base64
import glob
import json
import os
import re
import zipfile

import pytest

from normalise import f32
from support import HUDI_RS as HUDI, assert_clean_failure, loads, need, run

SNAPSHOT_EXCLUDED = ("_hoodie_commit_seqno", "_hoodie_file_name")
ALL_COLUMNS_NOTE = "all except _hoodie_commit_seqno and _hoodie_file_name"


def _load_fixtures():
    out = []
    for path in sorted(glob.glob(os.path.join(HUDI, "**", "*.expected.json"), recursive=True)):
        rel = os.path.relpath(path, HUDI)[: -len(".expected.json")]
        if rel.startswith("components"):
            continue
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        spec["_rel"] = rel
        out.append(spec)
    return out


FIXTURES = _load_fixtures()


def test_every_table_is_found():
    """All 29 tables of tests/data/hudi-rs are here (an empty glob would check nothing)."""
    assert len(FIXTURES) == 29, [s["_rel"] for s in FIXTURES]


def table_type(spec):
    return spec["table_properties"]["table_type"]


def is_lance(spec):
    return spec["_rel"].startswith("lance/")


COW = [s for s in FIXTURES if table_type(s) == "COPY_ON_WRITE" and not is_lance(s)]
MOR = [s for s in FIXTURES if table_type(s) == "MERGE_ON_READ"]
LANCE = [s for s in FIXTURES if is_lance(s)]


def fid(spec):
    return spec["_rel"].replace("/", ".")


# ---- unzipping (once per session) -----------------------------------------------------------

@pytest.fixture(scope="session")
def table_dir(tmp_path_factory):
    """spec -> the table base path, unzipped once per session into a pytest tmp dir."""
    cache = {}
    root = tmp_path_factory.mktemp("hudi-rs")

    def get(spec):
        rel = spec["_rel"]
        if rel not in cache:
            zpath = need(os.path.join(HUDI, rel + ".zip"))
            dest = os.path.join(str(root), rel.replace("/", "__"))
            with zipfile.ZipFile(zpath) as z:
                z.extractall(dest, [m for m in z.namelist() if not m.startswith("__MACOSX/")])
            base = os.path.join(dest, spec["root_dir_in_zip"])
            assert os.path.isdir(os.path.join(base, ".hoodie")), base
            cache[rel] = base
        return cache[rel]

    return get


# ---- value normalisation and comparison -----------------------------------------------------

_TS = re.compile(r"^(-?\+?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z?)$")


def norm_scalar_str(s, expected):
    """Strings: "hex:" binary (expected side) to base64; ISO timestamps to 9 fraction digits."""
    if expected and s.startswith("hex:"):
        try:
            return base64.b64encode(bytes.fromhex(s[4:])).decode()
        except ValueError:
            return s
    m = _TS.match(s)
    if m:
        return "%s.%s%s" % (m.group(1), (m.group(2) or "").ljust(9, "0"), m.group(3))
    return s


def is_kv_list(v):
    return isinstance(v, list) and all(
        isinstance(e, dict) and list(e.keys()) == ["key", "value"] for e in v)


def same(exp, got):
    """True when hudic's value `got` renders the expected value `exp`."""
    if exp is None or got is None:
        return exp is None and got is None
    if isinstance(exp, bool) or isinstance(got, bool):
        return isinstance(exp, bool) and isinstance(got, bool) and exp == got
    if isinstance(exp, (int, float)) and isinstance(got, (int, float)):
        if float(exp) == float(got):
            return True
        # FLOAT: the README rounds to 7 significant digits, hudic prints the shortest text
        # that reads back as the same float32.
        g = float(got)
        return f32(g) == g and float("%.7g" % g) == float(exp)
    if isinstance(exp, str) and isinstance(got, str):
        return norm_scalar_str(exp, True) == norm_scalar_str(got, False)
    if isinstance(exp, dict) and is_kv_list(got):  # MAP: JSON object vs key/value array
        if len(exp) != len(got):
            return False
        got_map = {}
        for e in got:
            k = e["key"] if isinstance(e["key"], str) else json.dumps(e["key"])
            got_map[k] = e["value"]
        return len(got_map) == len(exp) and all(
            k in got_map and same(v, got_map[k]) for k, v in exp.items())
    if isinstance(exp, dict) and isinstance(got, dict):  # STRUCT (and row)
        return set(exp) == set(got) and all(same(v, got[k]) for k, v in exp.items())
    if isinstance(exp, list) and isinstance(got, list):
        return len(exp) == len(got) and all(same(a, b) for a, b in zip(exp, got))
    return False


def first_diff(exp, got, path="row"):
    if isinstance(exp, dict) and isinstance(got, dict):
        if set(exp) != set(got):
            return "%s: columns missing %s, unexpected %s" % (
                path, sorted(set(exp) - set(got)), sorted(set(got) - set(exp)))
        for k in exp:
            if not same(exp[k], got[k]):
                return first_diff(exp[k], got[k], "%s.%s" % (path, k))
        return None
    if same(exp, got):
        return None
    return "%s: expected %r, got %r" % (path, exp, got)


def row_key(r):
    for k in ("_hoodie_record_key", "id", "txn_id", "uuid", "key"):
        if r.get(k) is not None:
            return (k, json.dumps(r[k]))
    return None


def assert_same_rows(got, expected, what):
    """Multiset equality under `same`; on failure names the first differing value."""
    left = list(got)
    missing = []
    for e in expected:
        for i, g in enumerate(left):
            if same(e, g):
                del left[i]
                break
        else:
            missing.append(e)
    if not missing and not left:
        return
    lines = ["%s: %d rows, expected %d; %d expected rows unmatched, %d extra rows" % (
        what, len(got), len(expected), len(missing), len(left))]
    for e in missing[:3]:
        twin = next((g for g in left if row_key(g) and row_key(g) == row_key(e)), None)
        if twin is not None:
            lines.append("  " + first_diff(e, twin, "row %s=%s" % row_key(e)))
        else:
            lines.append("  missing %s" % json.dumps(e)[:300])
    for g in left[:3]:
        if not any(row_key(g) and row_key(g) == row_key(e) for e in missing):
            lines.append("  extra %s" % json.dumps(g)[:300])
    pytest.fail("\n".join(lines), pytrace=False)


def table_cat(path, *opts):
    """Rows of `hudic table cat` (exit 0, empty stderr), keys in output order."""
    r = run("table", "cat", *opts, path)
    assert r.code == 0, r
    assert r.err == "", r
    return [loads(line) for line in r.out.splitlines()]


# ---- COW: every expected query --------------------------------------------------------------

def projection_of(spec, entry):
    """The columns of a projection entry: its rows' keys, or (no rows) a sibling's."""
    if entry["columns"] == ALL_COLUMNS_NOTE:
        return None
    for e in [entry] + (spec["expected"] or []):
        if e["columns"] == entry["columns"] and e["rows"]:
            return list(e["rows"][0].keys())
    return None


def query_opts(spec, entry):
    opts = []
    if entry["id"].startswith("incremental_"):
        opts += ["--incremental", "%s,%s" % (entry["start_exclusive"], entry["end_inclusive"])]
    elif entry.get("as_of"):
        opts += ["--as-of", entry["as_of"]]
    else:
        assert entry["id"] == "snapshot_latest", entry["id"]
    cols = projection_of(spec, entry)
    if cols:
        opts += ["--columns", ",".join(cols)]
    return opts, cols


QUERIES = [pytest.param(s, e, id="%s-%s" % (fid(s), e["id"]))
           for s in COW for e in s["expected"] or []]


MOR_QUERIES = [pytest.param(s, e, id="%s-%s" % (fid(s), e["id"]))
               for s in MOR if not is_lance(s) for e in s["expected"] or []
               if e["id"] != "read_optimized_latest"]


@pytest.mark.parametrize("spec,entry", QUERIES)
def test_cow_query(table_dir, spec, entry):
    check_query(table_dir, spec, entry)


@pytest.mark.parametrize("spec,entry", MOR_QUERIES)
def test_mor_query(table_dir, spec, entry):
    """Merge-on-read snapshot, time travel and incremental queries: base rows merged with
    their log records (updates, deletes, inserts) as the table's merge mode says."""
    check_query(table_dir, spec, entry)


def check_query(table_dir, spec, entry):
    path = table_dir(spec)
    opts, cols = query_opts(spec, entry)
    got = table_cat(path, *opts)
    assert len(entry["rows"]) == entry["row_count"]
    if cols is None:
        # Snapshot: every column but the two the expected rows leave out.
        got = [{k: v for k, v in r.items() if k not in SNAPSHOT_EXCLUDED} for r in got]
    elif got:
        assert list(got[0].keys()) == cols, "--columns order: %s" % list(got[0].keys())
    assert_same_rows(got, entry["rows"], "%s %s" % (spec["_rel"], entry["id"]))


SNAPSHOTS = [pytest.param(s, id=fid(s)) for s in COW
             if any(e["id"] == "snapshot_latest" and e["rows"] for e in s["expected"] or [])]
MOR_SNAPSHOTS = [pytest.param(s, id=fid(s)) for s in MOR if not is_lance(s)
                 if any(e["id"] == "snapshot_latest" and e["rows"] for e in s["expected"] or [])]


@pytest.mark.parametrize("spec", SNAPSHOTS)
def test_cow_snapshot_column_order_and_count(table_dir, spec):
    """The snapshot's columns in schema order (meta columns first), and --count agrees."""
    path = table_dir(spec)
    entry = next(e for e in spec["expected"] if e["id"] == "snapshot_latest")
    got = table_cat(path)
    names = [k for k in got[0].keys() if k not in SNAPSHOT_EXCLUDED]
    assert names == list(entry["rows"][0].keys())
    r = run("table", "cat", "--count", path)
    assert r.code == 0 and r.err == "", r
    assert int(r.out) == entry["row_count"]


def has_create_schema(path):
    with open(os.path.join(path, ".hoodie", "hoodie.properties"), encoding="utf-8") as f:
        return any(ln.startswith("hoodie.table.create.schema=") for ln in f)


def snapshot_rows(spec):
    return next(e["rows"] for e in spec["expected"] if e["id"] == "snapshot_latest")


def literal(v):
    return "'%s'" % v.replace("'", "''") if isinstance(v, str) else str(v)


def where_cases():
    """`COL = value` on the partition path, the record key and the first key field, with a
    value from the expected snapshot; the expected result is the snapshot filtered here."""
    out = []
    for s in SNAPSHOTS + MOR_SNAPSHOTS:
        spec = s.values[0]
        first = snapshot_rows(spec)[0]
        key_fields = spec["table_properties"]["record_key_fields"] or ""
        cols = ["_hoodie_partition_path", "_hoodie_record_key"] + key_fields.split(",")[:1]
        for col in cols:
            v = first.get(col)
            if col and isinstance(v, (str, int)) and not isinstance(v, bool):
                out.append(pytest.param(spec, col, v, id="%s-%s" % (fid(spec), col)))
    return out


@pytest.mark.parametrize("spec,col,value", where_cases())
def test_where(table_dir, spec, col, value):
    path = table_dir(spec)
    got = table_cat(path, "--where", "%s = %s" % (col, literal(value)))
    got = [{k: v for k, v in r.items() if k not in SNAPSHOT_EXCLUDED} for r in got]
    want = [r for r in snapshot_rows(spec) if same(r[col], value)]
    assert want
    assert_same_rows(got, want, "%s --where %s" % (spec["_rel"], col))


@pytest.mark.parametrize("spec", SNAPSHOTS)
def test_cow_as_of_before_first_commit(table_dir, spec):
    """Time travel to before the first commit sees no file slices: zero rows, and a
    projection of table columns still works (the schema does not come from data files)."""
    path = table_dir(spec)
    assert table_cat(path, "--as-of", "19700101000000000") == []
    cols = list(snapshot_rows(spec)[0].keys())[-2:]
    r = run("table", "cat", "--as-of", "19700101000000000", "--columns", ",".join(cols), path)
    if not has_create_schema(path) and r.code == 1 and "no column named" in r.err:
        pytest.xfail("known gap: with no base file and no hoodie.table.create.schema the schema "
                     "is empty (read.c create_schema; Hudi would use the commit metadata's)")
    assert r.err == "" and r.out == "", r


EMPTY = [pytest.param(s, id=fid(s)) for s in COW if not s["timeline_completed"]]


@pytest.mark.parametrize("spec", EMPTY)
def test_cow_empty_table_has_create_schema(table_dir, spec):
    """A table with no commits reads as zero rows of the schema in hoodie.table.create.schema:
    projecting a declared column works and yields nothing."""
    path = table_dir(spec)
    assert table_cat(path) == []
    first = spec["columns"].split(" ")[0]
    r = run("table", "cat", "--columns", "_hoodie_record_key,%s" % first, path)
    assert r.code == 0 and r.err == "" and r.out == "", r
    r = run("table", "cat", "--where", "%s IS NULL" % first, "--count", path)
    assert r.code == 0 and r.err == "" and r.out == "0\n", r


# ---- table info -----------------------------------------------------------------------------

INFO = [pytest.param(s, id=fid(s)) for s in FIXTURES]


@pytest.mark.parametrize("spec", INFO)
def test_table_info(table_dir, spec):
    path = table_dir(spec)
    r = run("table", "info", path)
    assert r.code == 0, r
    assert r.err == "", r
    lines = r.out.splitlines()
    name = spec["table_properties"]["table_name"]
    assert "name: %s" % name in lines, r
    for inst in spec["timeline_completed"]:
        want = [inst["instant"], inst["action"], "COMPLETED"]
        if inst.get("completion_time"):
            want.append(inst["completion_time"])
        hits = [ln for ln in lines if all(re.search(r"\b%s\b" % w, ln) for w in want)]
        assert hits, "no timeline line with %s in:\n%s" % (want, r.out)
    for fs in spec.get("file_slices_latest") or []:
        at = [i for i, ln in enumerate(lines) if fs["file_id"] in ln and "file group" in ln
              and "'%s'" % fs["partition"] in ln]
        assert at, "file group %s/%s not listed" % (fs["partition"], fs["file_id"])
        block = []
        for ln in lines[at[0] + 1:]:
            if not ln.startswith("    "):
                break
            block.append(ln)
        if fs["base_file"]:
            assert any(ln.split()[:2] == ["base", fs["base_file"]] for ln in block), block
        for lf in fs["log_files"]:
            assert any(ln.split()[:2] == ["log", lf] for ln in block), block
    if "file_slices_latest" in spec:
        m = re.search(r"^file groups as of \S+: (\d+)$", r.out, re.M)
        assert m and int(m.group(1)) == len(spec["file_slices_latest"]), r.out


# ---- Lance and MOR --------------------------------------------------------------------------

LANCE_QUERIES = [pytest.param(s, f, id="%s-%s" % (fid(s), "ro" if f else "snapshot"))
                 for s in LANCE for f in [()] + ([("--read-optimized",)]
                                                 if table_type(s) == "MERGE_ON_READ" else [])]


@pytest.mark.parametrize("spec,flags", LANCE_QUERIES)
def test_lance_unsupported(table_dir, spec, flags):
    path = table_dir(spec)
    r = run("table", "cat", *flags, path)
    assert_clean_failure(r, path, "unsupported base file format")


MOR_RO = [pytest.param(s, id=fid(s)) for s in MOR if not is_lance(s)]


@pytest.mark.parametrize("spec", MOR_RO)
def test_mor_read_optimized(table_dir, spec):
    """README: merge-on-read tables are read read-optimized. `--read-optimized` must succeed and
    give exactly the base-file rows of the latest file slices (read_optimized_latest), and
    --count must agree."""
    path = table_dir(spec)
    entry = next(e for e in spec["expected"] if e["id"] == "read_optimized_latest")
    assert len(entry["rows"]) == entry["row_count"]
    got = [{k: v for k, v in r.items() if k not in SNAPSHOT_EXCLUDED}
           for r in table_cat(path, "--read-optimized")]
    assert_same_rows(got, entry["rows"], "%s read_optimized_latest" % spec["_rel"])
    r = run("table", "cat", "--read-optimized", "--count", path)
    assert r.code == 0 and r.err == "", r
    assert int(r.out) == entry["row_count"]


def test_mor_fixtures_are_all_checked():
    """Every hudi-rs merge-on-read table with Parquet base files has a read-optimized result to
    compare with (a fixture without one would silently check nothing)."""
    assert len(MOR_RO) >= 13, len(MOR_RO)
    for p in MOR_RO:
        spec = p.values[0]
        assert any(e["id"] == "read_optimized_latest" for e in spec["expected"] or []), spec["_rel"]


@pytest.mark.parametrize("cmd", ["info", "cat"])
def test_error_names_path_once(tmp_path, cmd):
    """A table path given with a trailing slash is named once in the one-line error."""
    path = str(tmp_path / "not_a_table") + "/"
    os.mkdir(path)
    r = run("table", cmd, path)
    assert_clean_failure(r, path.rstrip("/"), "not a Hudi table")
    assert r.err.count("not_a_table") == 1, r
