#!/usr/bin/env python3
"""perf_summary.py - self and inclusive shares of the samples under one function, from a
`perf record --call-graph dwarf` profile (perf report cannot restrict to one subtree simply).

    perf record -F 499 --call-graph dwarf,16384 -o upsert.data \
        build/bench-rel/bench/hudi_bench run /tmp/t --rows 1000000 --phases upsert
    python3 bench/perf_summary.py upsert.data hudi_tbl_write

Only samples whose call chain contains ROOT count (so batch generation in hudi_bench is left
out); "self" is the leaf function of the sample, "inclusive" any function on the chain below
ROOT.
"""
import collections
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    data, root = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    out = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym", "--no-inline"],
                         capture_output=True, text=True, check=True).stdout
    self_c, incl, n = collections.Counter(), collections.Counter(), 0
    for sample in out.split("\n\n"):
        syms = []
        for line in sample.strip().splitlines():
            parts = line.strip().split(None, 1)
            if len(parts) > 1:
                syms.append(parts[1].rsplit(" (", 1)[0].split("+0x")[0])
        if root not in syms:
            continue
        n += 1
        self_c[syms[0]] += 1
        for s in set(syms[:syms.index(root) + 1]):
            incl[s] += 1
    if not n:
        sys.exit("no samples under %s" % root)
    print("samples under %s: %d" % (root, n))
    print("-- self")
    for k, v in self_c.most_common(top):
        print("%6.1f%%  %s" % (100.0 * v / n, k))
    print("-- inclusive")
    for k, v in incl.most_common(top):
        print("%6.1f%%  %s" % (100.0 * v / n, k))


if __name__ == "__main__":
    main()
