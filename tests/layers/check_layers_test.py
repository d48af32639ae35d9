#!/usr/bin/env python3
"""check_layers_test.py - scripts/check_layers.py must pass on the real tree and fail, naming
the file and line, on each kind of wrong dependency planted in a copy of it: an upward include,
an undeclared (downward) one, another layer's internal header, an object calling a symbol of a
layer above it, and a stale `uses` line. Run by ctest (check_layers_selftest); exits non-zero
with the reason on the first expectation that does not hold."""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "check_layers.py")


def run(src, layers, objects=None):
    cmd = [sys.executable, SCRIPT, "--src", src, "--layers", layers]
    if objects:
        cmd += ["--objects", objects]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def fail(msg, out=""):
    print(f"FAIL: {msg}\n{out}", file=sys.stderr)
    sys.exit(1)


def expect(rc, out, want_rc, *needles):
    if rc != want_rc:
        fail(f"exit {rc}, expected {want_rc}", out)
    for n in needles:
        if n not in out:
            fail(f"output does not mention {n!r}", out)


def main():
    tmp = tempfile.mkdtemp(prefix="check_layers_")
    try:
        layers = os.path.join(tmp, "layers.txt")
        shutil.copy(os.path.join(ROOT, "cmake", "layers.txt"), layers)

        def fresh_tree(name):
            dst = os.path.join(tmp, name, "src")
            shutil.copytree(os.path.join(ROOT, "src"), dst)
            return dst

        def plant(src, rel, text):
            with open(os.path.join(src, rel), "w") as f:
                f.write(text)

        # The real tree is clean (so a failure below is the planted file's).
        rc, out = run(fresh_tree("clean"), layers)
        expect(rc, out, 0, "point down only")

        src = fresh_tree("upward")
        plant(src, "base/upward.c", '/* a base file */\n#include "base/base.h"\n'
              '#include "table/table.h"\n')
        rc, out = run(src, layers)
        expect(rc, out, 1, "src/base/upward.c:3:", "table/table.h", "upward dependency")

        src = fresh_tree("undeclared")
        plant(src, "schema/uses_storage.c", '#include "storage/storage.h"\n')
        rc, out = run(src, layers)
        expect(rc, out, 1, "src/schema/uses_storage.c:1:", "undeclared dependency",
               "schema uses storage")

        src = fresh_tree("internal")
        plant(src, "read/peek.c", '#include "read/read.h"\n\n#include "format/parquet/meta.h"\n')
        rc, out = run(src, layers)
        expect(rc, out, 1, "src/read/peek.c:3:", "internal to layer format")

        src = fresh_tree("missing")
        plant(src, "write/nothing.c", '#include "write/no_such_header.h"\n')
        rc, out = run(src, layers)
        expect(rc, out, 1, "src/write/nothing.c:1:", "no such header")

        # Symbols: a base object calling a function a table object defines.
        cc = os.environ.get("CC", "cc")
        objs = {}
        for layer, code in (("base", "int hudi_table_thing(void);\n"
                                     "int hudi_base_thing(void) { return hudi_table_thing(); }\n"),
                            ("table", "int hudi_table_thing(void) { return 1; }\n"),
                            ("columnar", "int hudi_columnar_thing(void) { return 2; }\n")):
            c = os.path.join(tmp, f"{layer}_obj.c")
            with open(c, "w") as f:
                f.write(code)
            objs[layer] = os.path.join(tmp, f"{layer}_obj.o")
            subprocess.run([cc, "-c", c, "-o", objs[layer]], check=True)
        manifest = os.path.join(tmp, "objects.txt")
        with open(manifest, "w") as f:
            for layer, o in objs.items():
                f.write(f"{layer}\t{o}\n")
        rc, out = run(fresh_tree("symbols"), layers, manifest)
        expect(rc, out, 1, "base_obj.o", "hudi_table_thing", "upward dependency")

        # A declared edge that no include and no symbol needs is stale.
        stale = os.path.join(tmp, "stale_layers.txt")
        with open(layers) as f:
            text = f.read()
        with open(stale, "w") as f:
            f.write(text.replace("columnar uses base\n", "columnar uses base storage\n"))
        rc, out = run(fresh_tree("stale"), stale, manifest)
        expect(rc, out, 1, "'columnar uses storage' is stale")

        # A `uses` naming a layer above (or unknown) is refused in layers.txt itself.
        with open(layers, "a") as f:
            f.write("extra uses nosuchlayer\n")
        rc, out = run(fresh_tree("badfile"), layers)
        expect(rc, out, 1, "extra uses nosuchlayer", "not a layer declared above it")
    finally:
        shutil.rmtree(tmp)
    print("check_layers_test: all expectations hold")


if __name__ == "__main__":
    main()
