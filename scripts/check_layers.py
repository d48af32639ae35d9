#!/usr/bin/env python3
"""check_layers.py - fails when a layer of src/ depends on a layer it may not use.

The layers, their order and their allowed (direct) dependencies are declared once, in
cmake/layers.txt (CMakeLists.txt builds the include roots from the same file). This script
checks two things against it:

  includes  every `#include "..."` line of every .c/.h file under src/: a layer may include
            its own headers, the public headers (include/hudi), and the exported headers of the
            layers it `uses` (plus the headers it explicitly `reaches`). Anything else is an
            upward include, an undeclared dependency or an internal header of another layer,
            reported as FILE:LINE.
  symbols   (with --objects) the `nm` symbols of each layer's object files: every undefined
            symbol that another layer defines must come from a layer it `uses`; a symbol may be
            defined by one layer only. A declared `uses` that neither an include nor a symbol
            needs is reported as stale, so the file says what the code really does.

Usage: scripts/check_layers.py [--src DIR] [--layers FILE] [--objects MANIFEST] [--nm NM]
MANIFEST (written by CMake into the build folder) has one line per layer:
LAYER<TAB>OBJECT;OBJECT;...  Exit status: 0 clean, 1 violations, 2 usage or setup errors.
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


class Layers:
    def __init__(self, path):
        self.path = path
        self.order = []  # bottom first
        self.uses = {}
        self.exports = {}
        self.reaches = {}
        self.problems = []
        with open(path, encoding="utf-8") as f:
            for lineno, raw in enumerate(f, 1):
                line = raw.split("#", 1)[0].split()
                if not line:
                    continue
                if len(line) < 2:
                    self.problems.append(f"{path}:{lineno}: expected 'LAYER uses|exports|reaches ...'")
                    continue
                layer, kw, items = line[0], line[1], line[2:]
                if kw == "uses":
                    if layer in self.uses:
                        self.problems.append(f"{path}:{lineno}: layer {layer} declared twice")
                    for dep in items:
                        if dep not in self.uses:
                            self.problems.append(
                                f"{path}:{lineno}: {layer} uses {dep}, which is not a layer "
                                f"declared above it")
                    self.order.append(layer)
                    self.uses[layer] = set(items)
                elif kw in ("exports", "reaches"):
                    if layer not in self.uses:
                        self.problems.append(f"{path}:{lineno}: {kw} before '{layer} uses'")
                        continue
                    getattr(self, kw).setdefault(layer, set()).update(items)
                else:
                    self.problems.append(f"{path}:{lineno}: unknown keyword '{kw}'")
        self.rank = {name: i for i, name in enumerate(self.order)}

    def exported(self, layer, header):
        return layer not in self.exports or header in self.exports[layer]


def layer_of(relpath):
    return relpath.split("/", 1)[0]


def check_includes(layers, src, shown_root):
    """Returns (violations, edges): edges[(from, to)] counts direct includes."""
    bad, edges = [], {}
    public = os.path.join(os.path.dirname(os.path.abspath(src)), "include")
    for dirpath, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            shown = os.path.join(shown_root, rel)
            layer = layer_of(rel)
            if layer not in layers.rank:
                bad.append(f"{shown}: folder src/{layer} is not a layer in {layers.path}")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
            for lineno, line in enumerate(lines, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                here = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                if os.path.isfile(os.path.join(src, here)):
                    target = here.replace(os.sep, "/")
                elif os.path.isfile(os.path.join(src, inc)):
                    target = os.path.normpath(inc).replace(os.sep, "/")
                elif os.path.isfile(os.path.join(public, inc)) or inc.startswith("hudi/"):
                    continue  # the public API: every layer may include it
                else:
                    bad.append(f'{shown}:{lineno}: #include "{inc}": no such header under src/')
                    continue
                to = layer_of(target)
                if to == layer:
                    continue
                where = f'{shown}:{lineno}: #include "{inc}":'
                if to not in layers.rank:
                    bad.append(f"{where} src/{to} is not a layer in {layers.path}")
                elif layers.rank[to] > layers.rank[layer]:
                    bad.append(f"{where} upward dependency: layer {layer} includes layer {to}, "
                               f"which is above it")
                elif to not in layers.uses[layer]:
                    bad.append(f"{where} undeclared dependency: layer {layer} does not declare "
                               f"'{layer} uses {to}' in {layers.path}")
                elif (not layers.exported(to, target)
                      and target not in layers.reaches.get(layer, ())):
                    bad.append(f"{where} {target} is internal to layer {to} (not in its exports "
                               f"in {layers.path})")
                else:
                    edges[(layer, to)] = edges.get((layer, to), 0) + 1
    return bad, edges


def nm_symbols(nm, obj):
    out = subprocess.run([nm, "-g", "-P", obj], check=True, capture_output=True, text=True)
    defined, undefined = set(), set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        sym, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(sym)
        elif kind not in ("w", "v"):  # weak undefined references are not uses
            defined.add(sym)
    return defined, undefined


def check_symbols(layers, manifest, nm):
    bad, edges = [], {}
    objects = {}
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            layer, _, objs = line.partition("\t")
            objects[layer] = [o for o in objs.split(";") if o]
    for layer in objects:
        if layer not in layers.rank:
            bad.append(f"{manifest}: objects of '{layer}', which is not a layer in {layers.path}")
    owner, uses = {}, {}
    for layer, objs in objects.items():
        for obj in objs:
            if not os.path.isfile(obj):
                raise FileNotFoundError(f"{obj} (build the layer first)")
            defined, undefined = nm_symbols(nm, obj)
            for sym in defined:
                if sym in owner and owner[sym][0] != layer:
                    bad.append(f"{obj}: {sym} is defined by layers {owner[sym][0]} and {layer}")
                owner.setdefault(sym, (layer, obj))
            for sym in undefined:
                uses.setdefault(layer, []).append((sym, obj))
    for layer, refs in uses.items():
        if layer not in layers.rank:
            continue
        for sym, obj in sorted(refs):
            if sym not in owner or owner[sym][0] == layer:
                continue  # libc, zlib, ... or the layer itself
            to = owner[sym][0]
            if layers.rank.get(to, -1) > layers.rank[layer]:
                bad.append(f"{obj}: upward dependency: layer {layer} uses {sym} of layer {to}, "
                           f"which is above it")
            elif to not in layers.uses[layer]:
                bad.append(f"{obj}: undeclared dependency: layer {layer} uses {sym} of layer "
                           f"{to} without '{layer} uses {to}' in {layers.path}")
            else:
                edges[(layer, to)] = edges.get((layer, to), 0) + 1
    return bad, edges, set(objects)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--src", default=os.path.join(root, "src"))
    ap.add_argument("--layers", default=os.path.join(root, "cmake", "layers.txt"))
    ap.add_argument("--objects", help="per-layer object manifest written by CMake")
    ap.add_argument("--nm", default=os.environ.get("NM", "nm"))
    args = ap.parse_args()
    if not os.path.isdir(args.src) or not os.path.isfile(args.layers):
        print(f"check_layers: need --src DIR and --layers FILE", file=sys.stderr)
        return 2
    layers = Layers(args.layers)
    bad = list(layers.problems)
    for layer in layers.order:
        if not os.path.isdir(os.path.join(args.src, layer)):
            bad.append(f"{args.layers}: layer {layer} has no folder src/{layer}")
    for layer, headers in list(layers.exports.items()) + list(layers.reaches.items()):
        for h in sorted(headers):
            if not os.path.isfile(os.path.join(args.src, h)):
                bad.append(f"{args.layers}: {layer}: no header src/{h}")
    shown_root = os.path.basename(os.path.normpath(args.src))
    inc_bad, edges = check_includes(layers, args.src, shown_root)
    bad += inc_bad
    checked = "includes"
    if args.objects:
        try:
            sym_bad, sym_edges, with_objects = check_symbols(layers, args.objects, args.nm)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"check_layers: {e}", file=sys.stderr)
            return 2
        bad += sym_bad
        checked = "includes and symbols"
        # A declared edge neither includes nor symbols need is stale (only judged when the
        # layer's objects were given, since some edges are symbol-only).
        for layer in layers.order:
            if layer not in with_objects:
                continue
            for dep in sorted(layers.uses[layer]):
                if (layer, dep) not in edges and (layer, dep) not in sym_edges:
                    bad.append(f"{args.layers}: '{layer} uses {dep}' is stale: no include and "
                               f"no symbol of {layer} needs {dep}")
    if bad:
        for b in bad:
            print(f"check_layers: {b}", file=sys.stderr)
        print(f"check_layers: {len(bad)} problem(s); the allowed dependencies are in "
              f"{args.layers}", file=sys.stderr)
        return 1
    print(f"check_layers: {len(layers.order)} layers, {checked} point down only "
          f"({args.layers})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
