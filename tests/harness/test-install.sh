#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-install`: fastsm2 used the ways a C user takes it (README,
# "Installing"), from the files git would put in a clean clone:
#  1. the library alone, with nothing but a C compiler and libc: tests and
#     benchmark off, OpenSSL not looked for (CMAKE_DISABLE_FIND_PACKAGE) and
#     every OpenSSL header poisoned (an #error earlier on the include path),
#     libfastsm2.so needing libc alone;
#  2. cmake --install into a temporary prefix: the expected files, a
#     versioned SONAME, the man page; `fastsm2 speed` explains that this
#     build has no benchmark;
#  3. tests/install/consumer.c built against the prefix through pkg-config
#     (shared, and fully static), and through find_package (fastsm2::shared,
#     fastsm2::static, fastsm2::fastsm2), each run;
#  4. the same program with fastsm2 inside its project: add_subdirectory and
#     FetchContent (from a source tarball): nothing of fastsm2 at the top of
#     the parent's build tree, no fastsm2 tests in its ctest, nothing of
#     fastsm2 in its install;
#  5. the uninstall target empties the prefix again.
#   usage: tests/harness/test-install.sh [WORK_DIR]   (default build-install)
set -euo pipefail
# grep that reads all its input: grep -q stops at the first match, and
# under pipefail the writer's SIGPIPE (ldd writes on) then fails the test.
gq() { grep "$@" >/dev/null; }
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$root/build-install}
work=$(mkdir -p "$work" && cd "$work" && pwd)
jobs=${JOBS:-2}
gen=""
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

# ---- the clean clone: the files git tracks or would track -----------------
src=$work/src
rm -rf "$src" && mkdir -p "$src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$root" && xargs -0 -I{} sh -c '[ -e "{}" ] && printf "%s\0" "{}" || true') |
  tar -C "$root" --null -T - -cf - | tar -C "$src" -xf -
[ -f "$src/CMakeLists.txt" ] || fail "no sources copied"
tar -C "$work" -czf "$work/fastsm2-src.tar.gz" src

# ---- 1. the library with nothing but libc -------------------------------------
step "libc-only build (FASTSM2_TESTS=OFF FASTSM2_BENCH=OFF, OpenSSL headers poisoned)"
poison=$work/poison
rm -rf "$poison" && mkdir -p "$poison/openssl"
for h in evp.h ec.h bn.h crypto.h opensslv.h err.h rand.h sha.h obj_mac.h x509.h pem.h \
  $(ls /usr/include/openssl /usr/include/*/openssl 2>/dev/null | grep '\.h$' || true); do
  echo '#error "an OpenSSL header in a build that must not need OpenSSL"' >"$poison/openssl/$h"
done
lib=$work/lib-build
rm -rf "$lib"
cmake -S "$src" -B "$lib" $gen -DCMAKE_BUILD_TYPE=Release -DFASTSM2_TESTS=OFF -DFASTSM2_BENCH=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_C_FLAGS="-I$poison" -DFASTSM2_WERROR="${WERROR:-OFF}" >"$work/lib-configure.log"
cmake --build "$lib" -j "$jobs" >"$work/lib-build.log" || { tail -30 "$work/lib-build.log"; fail "libc-only build"; }
! grep -q '^OPENSSL_' "$lib/CMakeCache.txt" || fail "the libc-only configure looked for OpenSSL"
! grep -qi 'ssl\|crypto' "$lib/compile_commands.json" || fail "an OpenSSL flag in compile_commands.json"
grep -q 'poison' "$lib/compile_commands.json" || fail "the poisoned headers are not on the include path"
needed=$(readelf -d "$lib/libfastsm2.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
for n in $needed; do
  case $n in libc.so.* | libpthread.so.* | ld-linux*.so.*) ;; *) fail "libfastsm2.so needs $n" ;; esac
done
soname=$(readelf -d "$lib/libfastsm2.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libfastsm2.so.0 ] || fail "SONAME is '$soname', not libfastsm2.so.0"
echo "   libfastsm2.so needs: $needed"

# ---- 2. cmake --install ---------------------------------------------------------
step "cmake --install into a prefix"
prefix=$work/prefix
rm -rf "$prefix"
cmake --install "$lib" --prefix "$prefix" >"$work/install.log"
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$lib/CMakeCache.txt")
for f in include/fastsm2.h "$libdir/libfastsm2.a" "$libdir/libfastsm2.so" "$libdir/libfastsm2.so.0" \
  bin/fastsm2 share/man/man1/fastsm2.1 "$libdir/pkgconfig/fastsm2.pc" \
  "$libdir/cmake/fastsm2/fastsm2Config.cmake" "$libdir/cmake/fastsm2/fastsm2ConfigVersion.cmake" \
  "$libdir/cmake/fastsm2/fastsm2Targets.cmake"; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ ! -e "$prefix/bin/fastsm2-speed" ] || fail "fastsm2-speed installed from a build without FASTSM2_BENCH"
"$prefix/bin/fastsm2" version | gq '^fastsm2 ' || fail "the installed CLI does not run"
man -l "$prefix/share/man/man1/fastsm2.1" >/dev/null 2>&1 || ! command -v man >/dev/null ||
  fail "man cannot read the installed page"
set +e
"$prefix/bin/fastsm2" speed --seconds 0.01 >/dev/null 2>"$work/speed.err"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'FASTSM2_BENCH' "$work/speed.err" ||
  fail "fastsm2 speed without the benchmark: exit $rc, $(cat "$work/speed.err")"

# ---- 3. a user's program against the prefix ---------------------------------------
step "pkg-config"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
out=$work/consumer
rm -rf "$out" && mkdir -p "$out"
cc=${CC:-cc}
pkg-config --exists fastsm2 || fail "pkg-config does not find fastsm2"
[ "$(pkg-config --modversion fastsm2)" = "$(sed -n 's/^project(fastsm2 VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")" ] ||
  fail "pkg-config version differs from the project's"
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Werror -o "$out/pc_shared" "$src/tests/install/consumer.c" $(pkg-config --cflags --libs fastsm2) \
  -Wl,-rpath,"$prefix/$libdir"
"$out/pc_shared"
ldd "$out/pc_shared" | gq "$prefix/$libdir/libfastsm2.so.0" || fail "pc_shared does not load the prefix's library"
if [ -n "$($cc -print-file-name=libc.a | grep /)" ]; then
  # shellcheck disable=SC2046
  $cc -static -std=c11 -Wall -Werror -o "$out/pc_static" "$src/tests/install/consumer.c" \
    $(pkg-config --static --cflags --libs fastsm2)
  "$out/pc_static"
  ! readelf -l "$out/pc_static" | gq INTERP || fail "pc_static is not static"
else
  echo "   (no static libc here: the fully static link is skipped)"
fi

step "find_package"
cmake -S "$src/tests/install" -B "$out/package" $gen -DFS2_MODE=package -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$out/package" -j "$jobs" >/dev/null
for p in consumer_shared consumer_static consumer_default; do "$out/package/$p"; done
readelf -d "$out/package/consumer_shared" | gq 'NEEDED.*libfastsm2.so.0' || fail "consumer_shared: no libfastsm2.so.0"
! readelf -d "$out/package/consumer_static" | gq 'NEEDED.*libfastsm2' || fail "consumer_static needs libfastsm2.so"
readelf -d "$out/package/consumer_default" | gq 'NEEDED.*libfastsm2.so.0' || fail "fastsm2::fastsm2 is not the shared library"
cmake -S "$src/tests/install" -B "$out/package-static" $gen -DFS2_MODE=package -DCMAKE_PREFIX_PATH="$prefix" \
  -DFASTSM2_USE_STATIC_LIBS=ON >/dev/null
cmake --build "$out/package-static" -j "$jobs" --target consumer_default >/dev/null
"$out/package-static/consumer_default"
! readelf -d "$out/package-static/consumer_default" | gq 'NEEDED.*libfastsm2' ||
  fail "fastsm2::fastsm2 with FASTSM2_USE_STATIC_LIBS is not the static library"
# a version the package does not claim compatibility with is refused
mkdir -p "$out/badver"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(v C)\nfind_package(fastsm2 9.0 REQUIRED)\n' >"$out/badver/CMakeLists.txt"
! cmake -S "$out/badver" -B "$out/badver/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1 ||
  fail "find_package(fastsm2 9.0) accepted version 0.x"

# ---- 4. fastsm2 inside the user's project ----------------------------------------------
check_parent() { # BUILD_DIR: what a parent project must not get from fastsm2
  local b=$1
  for f in fastsm2-speed libfastsm2.a libfastsm2.so generated; do
    [ ! -e "$b/$f" ] || fail "$b/$f: fastsm2 wrote to the top of the parent's build tree"
  done
  [ ! -e "$b/fastsm2" ] || [ -d "$b/fastsm2" ] || fail "$b/fastsm2 is not the subproject's directory"
  (cd "$b" && ctest -N) | gq 'Total Tests: 2$' || fail "$b: ctest lists tests other than the parent's two"
  rm -rf "$b/inst"
  cmake --install "$b" --prefix "$b/inst" >/dev/null
  local extra
  extra=$(cd "$b/inst" && find . -type f ! -name 'consumer_*')
  [ -z "$extra" ] || fail "$b: the parent's install also installs $extra"
  (cd "$b" && ctest --output-on-failure >/dev/null) || fail "$b: the parent's tests fail"
}
step "add_subdirectory"
cmake -S "$src/tests/install" -B "$out/subdir" $gen -DFS2_MODE=subdirectory -DFASTSM2_SOURCE="$src" \
  --no-warn-unused-cli -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON >/dev/null
cmake --build "$out/subdir" -j "$jobs" >/dev/null
check_parent "$out/subdir"
"$out/subdir/fastsm2/fastsm2" version >/dev/null || fail "the subproject's CLI (FASTSM2_CLI=ON) does not run"

step "FetchContent"
cmake -S "$src/tests/install" -B "$out/fetch" $gen -DFS2_MODE=fetch -DFASTSM2_URL="$work/fastsm2-src.tar.gz" \
  --no-warn-unused-cli -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON >/dev/null
cmake --build "$out/fetch" -j "$jobs" >/dev/null
check_parent "$out/fetch"
[ ! -e "$out/fetch/fastsm2" ] || fail "FetchContent: the CLI was built though the parent did not ask for it"

# ---- 5. uninstall ---------------------------------------------------------------------
step "uninstall"
cmake --build "$lib" --target uninstall >/dev/null
left=$(find "$prefix" -type f)
[ -z "$left" ] || fail "files left after uninstall: $left"
echo "test-install: all checks passed"
