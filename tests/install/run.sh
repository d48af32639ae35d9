#!/usr/bin/env bash
# tests/install/run.sh BUILD_DIR SOURCE_DIR VERSION [CC [CFLAGS]] - installs the build into a
# temporary prefix and checks what a user gets there: the file list (bin/hudic, the versioned
# libhudic.so, libhudic.a, every public header, hudic.pc, the CMake package, the man page when
# docs/hudic.1 exists), then builds every examples/*.c against the INSTALLED files only - with
# pkg-config (shared, and --static against libhudic.a) and with a CMake project using
# find_package(hudic) (hudic::hudic and hudic::hudic_static) - and runs each program, plus
# `bin/hudic --help`. Examples run without arguments, as ctest runs them. CFLAGS are the
# build's own (a sanitizer or coverage build needs them to link its library).
# ctest: `install` (label install). Exit 0 when everything holds; the first failure is printed.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
version=$3
cc=${4:-cc}
# Examples are standalone C11 programs: they must build warning-free without the build's defines.
cflags="-std=c11 -Wall -Wextra -Werror ${5:-}"
major=${version%%.*}

work=$(mktemp -d "${TMPDIR:-/tmp}/hudic-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() {
    echo "install test: $*" >&2
    exit 1
}

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || {
    cat "$work/install.log" >&2
    fail "cmake --install failed"
}

# ---- the files ---------------------------------------------------------------------------------
lib=$prefix/lib
for f in bin/hudic lib/libhudic.a "lib/libhudic.so.$version" lib/pkgconfig/hudic.pc \
    lib/cmake/hudic/hudicConfig.cmake lib/cmake/hudic/hudicConfigVersion.cmake \
    lib/cmake/hudic/hudicTargets.cmake; do
    [ -f "$prefix/$f" ] || fail "$f is not installed"
done
[ "$(readlink "$lib/libhudic.so.$major")" = "libhudic.so.$version" ] ||
    fail "lib/libhudic.so.$major does not link to libhudic.so.$version"
[ "$(readlink "$lib/libhudic.so")" = "libhudic.so.$major" ] ||
    fail "lib/libhudic.so does not link to libhudic.so.$major"
soname=$(readelf -d "$lib/libhudic.so.$version" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libhudic.so.$major" ] || fail "SONAME is '$soname', expected libhudic.so.$major"
for h in "$src"/include/hudi/*.h; do
    cmp -s "$h" "$prefix/include/hudi/$(basename "$h")" || fail "include/hudi/$(basename "$h") missing"
done
if [ -f "$src/docs/hudic.1" ]; then
    cmp -s "$src/docs/hudic.1" "$prefix/share/man/man1/hudic.1" || fail "share/man/man1/hudic.1 missing"
fi
out=$("$prefix/bin/hudic" --help) || fail "bin/hudic --help failed"
grep -q "usage: hudic" <<<"$out" || fail "bin/hudic --help printed no usage"

# The examples are copied away from the source tree; only the prefix provides headers.
mkdir -p "$work/src"
examples=("$src"/examples/*.c)
[ -f "${examples[0]}" ] || fail "no examples/*.c"
cp "${examples[@]}" "$work/src/"

# Runs one built example: no libhudic.so dependency for a static link, the installed one
# (not the build tree's) for a shared link.
run_example() { # BINARY static|shared
    local bin=$1 kind=$2 needed
    needed=$(readelf -d "$bin" | grep -c 'NEEDED.*libhudic' || true)
    if [ "$kind" = static ]; then
        [ "$needed" = 0 ] || fail "$bin: a static link still needs libhudic.so"
    else
        [ "$needed" = 1 ] || fail "$bin: a shared link does not need libhudic.so"
        local resolved
        resolved=$(LD_LIBRARY_PATH=$lib ldd "$bin" | awk '/libhudic/ {print $3}')
        case "$resolved" in "$lib"/*) ;; *) fail "$bin loads $resolved, not the installed library" ;; esac
    fi
    (cd "$work" && LD_LIBRARY_PATH=$lib "$bin" >"$bin.out" 2>&1) || {
        cat "$bin.out" >&2
        fail "$bin ($kind) failed"
    }
}

# ---- (a) pkg-config ------------------------------------------------------------------------------
export PKG_CONFIG_PATH=$lib/pkgconfig
pc_cflags=$(pkg-config --cflags hudic) || fail "pkg-config --cflags hudic failed"
pc_libs=$(pkg-config --libs hudic)
# The archive, not the shared library, with every dependency Libs.private/Requires.private name.
pc_static=$(pkg-config --static --libs hudic | sed 's/-lhudic\b/-l:libhudic.a/')
[ "$(pkg-config --modversion hudic)" = "$version" ] || fail "hudic.pc has the wrong version"
case "$pc_cflags $pc_libs" in *"$src"* | *"$build"*) fail "hudic.pc points into the build" ;; esac
for ex in "$work"/src/*.c; do
    name=$(basename "$ex" .c)
    # shellcheck disable=SC2086 # word splitting of flags is intended
    $cc $cflags $pc_cflags "$ex" -o "$work/$name.pc-shared" $pc_libs ||
        fail "$name: pkg-config shared build failed"
    # shellcheck disable=SC2086
    $cc $cflags $pc_cflags "$ex" -o "$work/$name.pc-static" $pc_static ||
        fail "$name: pkg-config --static build failed"
    run_example "$work/$name.pc-shared" shared
    run_example "$work/$name.pc-static" static
done

# ---- (b) CMake: find_package(hudic) --------------------------------------------------------------
cat >"$work/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(hudic_consumer LANGUAGES C)
find_package(hudic 0.1 REQUIRED CONFIG)
file(GLOB examples ${CMAKE_SOURCE_DIR}/*.c)
foreach(ex ${examples})
  get_filename_component(name ${ex} NAME_WE)
  add_executable(${name}.cmake-shared ${ex})
  target_link_libraries(${name}.cmake-shared PRIVATE hudic::hudic)
  add_executable(${name}.cmake-static ${ex})
  target_link_libraries(${name}.cmake-static PRIVATE hudic::hudic_static)
endforeach()
EOF
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$work/src" -B "$work/cmake" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    >"$work/cmake.log" 2>&1 || {
    cat "$work/cmake.log" >&2
    fail "configuring the find_package(hudic) project failed"
}
grep -q -e "$src" -e "$build" "$work/cmake/compile_commands.json" &&
    fail "the find_package(hudic) project compiles against the build tree"
cmake --build "$work/cmake" >>"$work/cmake.log" 2>&1 || {
    cat "$work/cmake.log" >&2
    fail "building the find_package(hudic) project failed"
}
n=0
for ex in "$work"/src/*.c; do
    name=$(basename "$ex" .c)
    run_example "$work/cmake/$name.cmake-shared" shared
    run_example "$work/cmake/$name.cmake-static" static
    n=$((n + 1))
done
echo "install test: ok ($n example(s), pkg-config and find_package, shared and static, into $prefix)"
