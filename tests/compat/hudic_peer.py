"""hudic_peer.py - hudic as one more peer of the interoperability harness: reads through
`hudic table cat` (JSON Lines, rendered as docs/formats/rendering.md says) and writes through
`hudic table create` and `hudic table write`. Everything the harness assumes about hudic's
command line is in this file, so a change of the CLI is a change here only. KNOWN_BUGS lists
the hudic bugs the harness has found and that are not fixed yet.

HUDIC = path of the hudic binary (ctest sets it); otherwise the newest build/*/hudic.
"""
import functools
import glob
import json
import os
import re
import subprocess

import pyarrow.parquet as pq

import spark_harness as h

TIMEOUT_S = 300  # a hang is a failure, not a stuck CI run


def find_hudic():
    env = os.environ.get("HUDIC")
    if env:
        return env
    found = [p for p in glob.glob(os.path.join(h.ROOT, "build", "*", "hudic"))
             if os.access(p, os.X_OK)]
    return max(found, key=os.path.getmtime) if found else None


HUDIC = find_hudic()


class HudicError(Exception):
    pass


# Known hudic bugs the harness found: (scenario, regex on hudic's error, reason). A test that
# fails with a listed error is reported as xfailed with the reason (the test still runs, and
# passes once hudic is fixed: then delete the entry). Any other failure fails. Matching the
# error, not the query, because which queries meet a bug can depend on how Spark laid out
# file groups when it generated the table.
KNOWN_BUGS = []  # every bug the harness has found so far is fixed

def xfail_if_known(name, exc):
    """Turns a failure of hudic that KNOWN_BUGS lists into an expected failure."""
    import pytest
    for n, pattern, why in KNOWN_BUGS:
        if n == name and re.search(pattern, str(exc)):
            pytest.xfail("known hudic bug: " + why)


def run(*args, timeout=TIMEOUT_S):
    if not HUDIC or not os.access(HUDIC, os.X_OK):
        raise HudicError("hudic binary not found (build it, or set HUDIC)")
    return subprocess.run([HUDIC, *args], capture_output=True, timeout=timeout)


@functools.lru_cache(maxsize=None)
def missing(*command):
    """None when `hudic COMMAND --help` exits 0, else why the command cannot be used."""
    if not HUDIC or not os.access(HUDIC, os.X_OK):
        return "hudic binary not found (build it, or set HUDIC)"
    cp = run(*command, "--help")
    if cp.returncode != 0:
        return "`hudic %s` does not exist yet (--help exits %d: %s)" % (
            " ".join(command), cp.returncode, cp.stderr.decode(errors="replace").strip()[:200])
    return None


def _parse_int(s):
    # "-0" only appears for floats (hudic prints -0.0 as -0); keep its sign.
    return float("-0.0") if s == "-0" else int(s)


def cat(path, as_of=None, incremental=None, columns=None, key_columns=None,
        read_optimized=False):
    """Rows of `hudic table cat` as a spark_harness.Result (sorted like the other readers').
    Raises HudicError on a non-zero exit or any stderr output."""
    args = ["table", "cat"]
    if read_optimized:
        args.append("--read-optimized")
    if as_of:
        args += ["--as-of", as_of]
    if incremental:
        args += ["--incremental", "%s,%s" % (incremental[0] or "", incremental[1] or "")]
    if columns:
        args += ["--columns", ",".join(columns)]
    cp = run(*args, path)
    err = cp.stderr.decode("utf-8", errors="replace")
    if cp.returncode != 0 or err:
        raise HudicError("hudic %s: exit %d: %s" % (" ".join(args), cp.returncode, err.strip()))
    rows = [json.loads(l, parse_int=_parse_int) for l in cp.stdout.decode("utf-8").splitlines()]
    cols = list(rows[0].keys()) if rows else []
    return h.Result(cols, h.sort_rows(rows, key_columns), None, "hudic")


def without_meta_columns(res, sc):
    """For a table without meta fields hudic prints the five meta columns anyway (nulls, and
    the base file name in _hoodie_file_name); Spark and hudi-rs print none, so they are not
    compared: returns the rows without them. Other tables' results come back unchanged."""
    if sc["table"].get("meta_fields", True):
        return res
    rows = [{k: v for k, v in r.items() if k not in h.META_COLUMNS} for r in res.rows]
    return h.Result([c for c in res.columns if c not in h.META_COLUMNS], rows, None, res.reader)


def expected_columns(path, sc, args):
    """The column order hudic should print: the meta columns, then the table schema of the
    commit the query reads (its as-of or end instant), projected in schema order."""
    inst = args.get("as_of") or (args.get("incremental") or [None, None])[1]
    cols = h.commit_schema_columns(path, inst)
    if cols is None:
        return None
    cols = h.META_COLUMNS + cols
    if args.get("columns"):
        cols = [c for c in cols if c in args["columns"]]
    return cols


def check_order(res, path, sc, args, what):
    want = expected_columns(path, sc, args)
    if res.rows and want is not None:
        assert res.columns == want, "%s: hudic prints columns %s, table schema order is %s" % (
            what, res.columns, want)


# ---- Writes ----
# A table is made with `hudic table create` (its schema taken from the first input file), then
# every write is `hudic table write --op OP --input FILE.parquet [--latest-wins] PATH`.

class Unsupported(Exception):
    """hudic's command line cannot express a table option the scenario needs."""


def create_args(path, table, input_parquet):
    extra = table.get("extra") or {}
    bad = [k for k, v in extra.items() if "," in str(k) + str(v) or "=" in str(k)]
    if bad:
        raise Unsupported("`hudic table create --props` cannot carry %s" % ", ".join(sorted(bad)))
    args = ["table", "create", "--name", table.get("name", os.path.basename(path)),
            "--key", table["record_key"], "--schema-from", input_parquet]
    if table.get("partition"):
        args += ["--partition", table["partition"]]
    if table.get("precombine"):
        args += ["--precombine", table["precombine"]]
    if table.get("keygen"):
        args += ["--keygen", h.KEYGENS.get(table["keygen"], table["keygen"])]
    if table.get("hive_style"):
        args.append("--hive-style")
    if table.get("meta_fields") is False:
        args.append("--no-meta-fields")
    if extra:
        args += ["--props", ",".join("%s=%s" % (k, v) for k, v in sorted(extra.items()))]
    return args + [path]


def write(path, op, table, schema, rows, tmpdir):
    """Writes `rows` (dicts of JSON values, as for spark_harness.spark_write) with hudic,
    creating the table first when `path` has none. `schema` is a pyarrow schema
    (spark_harness.arrow_schema of the Spark DDL); the rows go to hudic as a Parquet file of
    exactly that schema. `table` holds spark_harness.write_options() arguments plus "name";
    the payload is Spark's default, latest-wins, unless it says "ordering". Returns the
    newest completed write instant afterwards."""
    os.makedirs(tmpdir, exist_ok=True)
    n = len(glob.glob(os.path.join(tmpdir, "input-*.parquet")))
    inp = os.path.join(tmpdir, "input-%03d.parquet" % n)
    pq.write_table(h.arrow_rows(rows, schema), inp)
    steps = []
    if not os.path.exists(os.path.join(path, ".hoodie", "hoodie.properties")):
        steps.append(create_args(path, table, inp))
    w = ["table", "write", "--op", op, "--input", inp]
    if table.get("payload") != "ordering":
        w.append("--latest-wins")
    steps.append(w + [path])
    for args in steps:
        cp = run(*args)
        if cp.returncode != 0:
            raise HudicError("hudic %s: exit %d: %s" % (" ".join(args), cp.returncode,
                                                       cp.stderr.decode(errors="replace")))
    done = h.completed_instants(path)
    return done[-1][0] if done else None
