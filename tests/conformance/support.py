"""support.py - shared helpers for the conformance suite: where hudic and the fixtures are,
running hudic, and parsing `hudic parquet cat` output.

Environment: HUDIC = path of the built hudic binary (ctest sets it; otherwise the newest of
build/*/hudic is used), HUDI_TEST_DATA_DIR = the test data folder (default: tests/data of this
repository, see tests/data/README.md). A reference reader (pyarrow, DuckDB) that is not installed
fails the tests that need it; HUDIC_ALLOW_MISSING_PEERS=1 turns that into a skip."""
import glob
import importlib
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEST_DATA = os.environ.get("HUDI_TEST_DATA_DIR") or os.path.join(ROOT, "tests", "data")
PT = os.path.join(TEST_DATA, "parquet-testing")
HUDI_RS = os.path.join(TEST_DATA, "hudi-rs")
DATA = os.path.join(PT, "data")
BAD = os.path.join(PT, "bad_data")
TIMEOUT_S = 120  # a hang is a failure, not a stuck CI run


def _find_hudic():
    env = os.environ.get("HUDIC")
    if env:
        return env
    found = [p for p in glob.glob(os.path.join(ROOT, "build", "*", "hudic")) if os.access(p, os.X_OK)]
    return max(found, key=os.path.getmtime) if found else None


HUDIC = _find_hudic()


def data(name):
    return os.path.join(DATA, name)


def bad(name):
    return os.path.join(BAD, name)


def present(path):
    return os.path.exists(path)


class Result:
    def __init__(self, cp):
        self.code = cp.returncode
        self.out = cp.stdout
        self.err = cp.stderr

    def __repr__(self):
        return "exit %s, stderr %r, stdout %r" % (self.code, self.err[:500], self.out[:300])


_runs = {}


def run(*args, timeout=TIMEOUT_S):
    """Runs hudic with args; never raises on a non-zero exit. hudic is deterministic, so a
    repeated command line reuses the first result (keeps the suite fast under ASan)."""
    if not HUDIC or not os.access(HUDIC, os.X_OK):
        pytest.fail("hudic binary not found: build it (cmake --build --preset asan) or set HUDIC",
                    pytrace=False)
    if args in _runs:
        return _runs[args]
    cp = subprocess.run([HUDIC, *args], capture_output=True, timeout=timeout)
    r = Result(cp)
    r.out = cp.stdout.decode("utf-8", errors="strict")
    r.err = cp.stderr.decode("utf-8", errors="replace")
    _runs[args] = r
    return r


def _parse_int(s):
    # "-0" only appears for floats (hudic prints -0.0 as -0); keep its sign.
    return float("-0.0") if s == "-0" else int(s)


def loads(line):
    return json.loads(line, parse_int=_parse_int)


def json_lines(text):
    """Rows of JSON-lines output. Splits on "\n" only: str.splitlines() also splits on U+0085,
    U+2028 and U+2029, which hudic copies unescaped into strings (docs/formats/rendering.md)."""
    return [loads(line) for line in text.split("\n") if line]


def cat(path, *opts):
    """Rows of `hudic parquet cat` as dicts; asserts exit 0 and an empty stderr."""
    r = run("parquet", "cat", *opts, path)
    assert r.code == 0, r
    assert r.err == "", r
    return json_lines(r.out)


def count(path, *opts):
    r = run("parquet", "cat", "--count", *opts, path)
    assert r.code == 0, r
    return int(r.out.strip())


def assert_clean_failure(r, path, *words):
    """Exit 1 (not a signal, not a usage error), one line `hudic: <file>: ...` on stderr
    naming the file, optionally containing one of `words` (case-insensitive)."""
    assert r.code == 1, r
    lines = r.err.splitlines()
    assert len(lines) == 1, r
    line = lines[0]
    assert line.startswith("hudic: "), r
    assert os.path.basename(path) in line, r
    if words:
        assert any(w.lower() in line.lower() for w in words), r


def need(path):
    """Returns path; fails the test when the file is not in the test data (it is part of the
    repository, so a missing file is a broken checkout or a wrong name, never a skip)."""
    assert present(path), "test data file missing: %s" % path
    return path


def peer(module):
    """Imports a reference reader (pyarrow, duckdb, ...). Missing, it fails the calling test:
    scripts/setup installs it and CI has it, so a missing peer must not pass as a skip. With
    HUDIC_ALLOW_MISSING_PEERS=1 (a machine without them) the test is skipped instead."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get("HUDIC_ALLOW_MISSING_PEERS") == "1":
            pytest.skip("%s not importable (HUDIC_ALLOW_MISSING_PEERS=1): %s" % (module, e),
                        allow_module_level=True)
        pytest.fail("%s not importable: %s (run scripts/setup, or set "
                    "HUDIC_ALLOW_MISSING_PEERS=1 to skip)" % (module, e), pytrace=False)
