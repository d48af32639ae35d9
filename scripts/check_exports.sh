#!/usr/bin/env bash
# scripts/check_exports.sh [LIB] - fails when the shared library exports a dynamic symbol that
# does not start with hudi_ (STYLE.md "Build": every export starts with hudi_). Undefined
# symbols (imports from libc, zlib, ...) and the linker's own markers are not exports.
# LIB defaults to the newest libhudic.so under build/.
set -euo pipefail
cd "$(dirname "$0")/.."
lib="${1:-}"
if [[ -z "$lib" ]]; then
    lib=$(find build -name 'libhudic.so*' -type f 2>/dev/null | xargs -r ls -t | head -n1 || true)
fi
if [[ -z "$lib" || ! -f "$lib" ]]; then
    echo "check_exports: no libhudic.so found (build the hudic_shared target)" >&2
    exit 2
fi
# --defined-only: exports only; -D: the dynamic table; skip _init/_fini/_edata-style markers.
bad=$(nm -D --defined-only "$lib" | awk '{print $NF}' |
      grep -v -E '^(hudi_|_init$|_fini$|_edata$|_end$|__bss_start$)' || true)
count=$(nm -D --defined-only "$lib" | awk '{print $NF}' | grep -c '^hudi_' || true)
if [[ -n "$bad" ]]; then
    echo "check_exports: $lib exports symbols without the hudi_ prefix:" >&2
    echo "$bad" | sed 's/^/  /' >&2
    exit 1
fi
echo "check_exports: $lib exports $count symbols, all hudi_*"
