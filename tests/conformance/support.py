"""support.py - shared helpers for the conformance suite: where hudic and the fixtures are,
running hudic, and parsing `hudic parquet cat` output.

Environment: HUDIC = path of the built hudic binary (ctest sets it; otherwise the newest of
build/*/hudic is used), HUDI_SHARED_DIR = the shared/ folder (default: ../shared next to the
repository)."""
import glob
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("HUDI_SHARED_DIR") or os.path.join(os.path.dirname(ROOT), "shared")
PT = os.path.join(SHARED, "fixtures", "parquet-testing")
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
        pytest.skip("hudic binary not found (set HUDIC)")
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
    """Skips the test when a fixture is not in HUDI_SHARED_DIR (the set there is a subset)."""
    if not present(path):
        pytest.skip("fixture not available: %s" % os.path.basename(path))
    return path
