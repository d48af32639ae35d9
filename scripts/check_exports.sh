#!/usr/bin/env bash
# scripts/check_exports.sh [LIB...] - fails when libhudic.so exports a dynamic symbol, or
# libhudic.a defines a global symbol, that does not start with hudi_ (STYLE.md "Build": every
# export starts with hudi_; static helpers have no prefix because they are not global).
# Undefined symbols (imports from libc, zlib, ...) and the linker's own markers are not
# exports; the sanitizers' per-global ODR indicators (__odr_asan.hudi_x) name a hudi_ symbol.
# LIB is a .so or a .a; without arguments, the newest libhudic.so and libhudic.a under build/.
set -euo pipefail
cd "$(dirname "$0")/.."
libs=("$@")
if [[ ${#libs[@]} -eq 0 ]]; then
    for pattern in 'libhudic.so*' 'libhudic.a'; do
        lib=$(find build -name "$pattern" -type f 2>/dev/null | xargs -r ls -t | head -n1 || true)
        [[ -n "$lib" ]] && libs+=("$lib")
    done
fi
if [[ ${#libs[@]} -eq 0 ]]; then
    echo "check_exports: no libhudic.so or libhudic.a found (build hudic and hudic_shared)" >&2
    exit 2
fi
status=0
for lib in "${libs[@]}"; do
    if [[ ! -f "$lib" ]]; then
        echo "check_exports: $lib: no such file" >&2
        exit 2
    fi
    case "$lib" in
    *.a)
        # --defined-only -g: the archive members' global definitions (one line per symbol,
        # "member:" headers and blank lines skipped).
        what="defines global symbols"
        names=$(nm -g --defined-only "$lib" | awk 'NF == 3 {print $3}')
        ;;
    *)
        # -D: the dynamic table; skip _init/_fini/_edata-style markers.
        what="exports symbols"
        names=$(nm -D --defined-only "$lib" | awk '{print $NF}' |
                grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' || true)
        ;;
    esac
    bad=$(echo "$names" | grep -v -E '^$|^(__odr_asan[._](gen_)?)?hudi_' || true)
    count=$(echo "$names" | grep -c '^hudi_' || true)
    if [[ -n "$bad" ]]; then
        echo "check_exports: $lib $what without the hudi_ prefix:" >&2
        echo "$bad" | sort -u | sed 's/^/  /' >&2
        status=1
    elif [[ "$count" -eq 0 ]]; then
        echo "check_exports: $lib $what: none found (not a hudic library?)" >&2
        status=1
    else
        echo "check_exports: $lib $what: $count, all hudi_*"
    fi
done
exit $status
