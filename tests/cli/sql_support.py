"""sql_support.py - helpers for the `hudic sql` tests: where hudic is, and running it on a warehouse
of the test's own (a temporary folder) with SQL from -e, -f or stdin.

Environment: HUDIC = path of the built hudic binary (ctest sets it; otherwise the newest of
build/*/hudic is used)."""
import glob
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT_S = 120  # a hang is a failure, not a stuck CI run


def _find_hudic():
    env = os.environ.get("HUDIC")
    if env:
        return env
    found = [p for p in glob.glob(os.path.join(ROOT, "build", "*", "hudic")) if os.access(p, os.X_OK)]
    return max(found, key=os.path.getmtime) if found else None


HUDIC = _find_hudic()
HUDIC = os.path.abspath(HUDIC) if HUDIC else None

# spark-sql's timing line (docs/SQL.md, "The shell")
TIMING = re.compile(r"Time taken: \d+\.\d{1,3} seconds(, Fetched \d+ row\(s\))?")


class Result:
    def __init__(self, cp):
        self.code = cp.returncode
        self.out = cp.stdout.decode("utf-8")
        self.err = cp.stderr.decode("utf-8", errors="replace")

    def __repr__(self):
        return "exit %s, stderr %r, stdout %r" % (self.code, self.err[:800], self.out[:800])


def hudic(*args, stdin=None, env=None, cwd=None, timeout=TIMEOUT_S):
    """Runs hudic with args (stdin: text piped in, else /dev/null)."""
    if not HUDIC or not os.access(HUDIC, os.X_OK):
        pytest.fail("hudic binary not found: build it (cmake --build --preset asan) or set HUDIC",
                    pytrace=False)
    e = dict(os.environ)
    e.pop("HUDIC_WAREHOUSE", None)
    e.pop("COLUMNS", None)
    if env:
        e.update(env)
    cp = subprocess.run([HUDIC, *args], input=(stdin or "").encode("utf-8"), capture_output=True,
                        timeout=timeout, env=e, cwd=cwd)
    return Result(cp)


def timing_lines(err):
    """The stderr lines, each checked to be a timing line; returns the ', Fetched' parts."""
    lines = err.splitlines()
    for l in lines:
        assert TIMING.fullmatch(l), "not a timing line: %r (stderr %r)" % (l, err)
    return [TIMING.fullmatch(l).group(1) or "" for l in lines]


class Warehouse:
    """A warehouse folder and `hudic sql` on it."""

    def __init__(self, path):
        self.path = str(path)

    def sql(self, *args, stdin=None, env=None, cwd=None, timeout=TIMEOUT_S):
        return hudic("sql", "--warehouse", self.path, *args, stdin=stdin, env=env, cwd=cwd,
                     timeout=timeout)

    def ok(self, *args, **kw):
        """Runs and asserts exit 0; returns the result."""
        r = self.sql(*args, **kw)
        assert r.code == 0, r
        return r
