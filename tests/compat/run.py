"""run.py - what `ctest -L compat` runs: the interoperability suite (pytest on tests/compat),
or exit 77 (ctest's SKIP_RETURN_CODE) with the reason when there is nothing it can check here:
no Spark (pyspark 3.5 + the Hudi bundle jars, see scripts/setup_compat) and no cached
Spark-written tables. Extra arguments go to pytest (e.g. -k hudi_rs, -x)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen_spark_tables as gen  # noqa: E402
import spark_harness as h  # noqa: E402

SKIP = 77


def main():
    try:
        import pytest  # noqa: F401
    except ImportError:
        print("compat: skipped: pytest is not installed")
        return SKIP
    why = h.spark_missing(h.WRITER)
    if why and not gen.load_cached():
        print("compat: skipped: %s; and no cached Spark tables for key %s in %s. "
              "Run scripts/setup_compat (or HUDIC_COMPAT=1 scripts/setup)."
              % (why, gen.cache_key(), os.path.join(h.CACHE, "spark-tables")))
        return SKIP
    if why:
        print("compat: Spark unavailable (%s): using the cached tables; the tests that need a "
              "live Spark skip" % why)
    args = sys.argv[1:]
    # Test paths given: run those; otherwise the whole folder.
    paths = [a for a in args if not a.startswith("-") and os.path.exists(a.split("::")[0])]
    cmd = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
           "--durations=5"] + ([] if paths else [HERE]) + args
    rc = subprocess.call(cmd, cwd=h.ROOT)
    return SKIP if rc == 5 else rc  # 5: pytest collected nothing


if __name__ == "__main__":
    sys.exit(main())
