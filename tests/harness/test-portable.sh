#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-portable`: the code paths of platforms this machine is not,
# built and tested here.
#  1. Without __int128 (FASTSM2_NO_INT128: 32-bit targets, compilers
#     without it): the 64x64-bit products, carries and divstep sums of
#     src/field/wide.h. Built from scratch with -Wpedantic, whose "ISO C
#     does not support __int128" marks any __int128 left on this path: one
#     fails the stage, except in src/ec/ifma/ (AVX-512 IFMA, compiled on
#     x86-64 alone, where GCC and Clang always have __int128; other
#     warnings are errors as usual); then the whole suite (OpenSSL differential tests,
#     the valgrind constant-time test over every backend) and the suite on
#     every other backend, generic included. This build also takes its OS
#     randomness from getentropy.
#  2. The other OS random sources (src/util.c): arc4random_buf (macOS, the
#     BSDs; glibc 2.36 has it too), /dev/urandom, and the getrandom system
#     call (Linux C libraries older than getrandom(), as in manylinux2014):
#     the tree of 1 configured again with each (the source's define is
#     util.c's alone, so one object is rebuilt), the symbol it calls
#     checked, and test_rng run.
#   usage: tests/harness/test-portable.sh [WORK_DIR]   (default build-portable)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$root/build-portable}
mkdir -p "$work"
work=$(cd "$work" && pwd)
jobs=${JOBS:-2}
gen=""
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
fail() { echo "test-portable: FAIL: $*" >&2; exit 1; }

# The undefined symbols of the library's OS-randomness object.
util_calls() {
  nm -u "$1/CMakeFiles/fastsm2_obj.dir/src/util.c.o" | awk '{print $NF}' | tr '\n' ' '
}
calls() { # BUILD SYMBOL: util.c.o calls SYMBOL
  util_calls "$1" | grep -w "$2" >/dev/null
}

# ---- 1. no __int128, getentropy ----------------------------------------------------
b=$work/noint128
echo "== FASTSM2_NO_INT128=ON FASTSM2_RANDOM=getentropy (-Wpedantic): $b"
rm -rf "$b"
cmake -S "$root" -B "$b" $gen -DCMAKE_BUILD_TYPE=Release -DFASTSM2_NO_INT128=ON -DFASTSM2_RANDOM=getentropy \
  -DFASTSM2_WERROR=ON -DCMAKE_C_FLAGS="-Wpedantic -Wno-error=pedantic" >/dev/null
cmake --build "$b" -j "$jobs" 2>&1 | tee "$b/build.log"
int128=$(grep -E "warning: ISO C does not support .__int128. types" "$b/build.log" | grep -v '/src/ec/ifma/' || true)
[ -z "$int128" ] || fail "__int128 on the portable path:
$int128"
calls "$b" getentropy && ! calls "$b" getrandom || fail "util.c.o calls $(util_calls "$b"), not getentropy"
(cd "$b" && ctest --output-on-failure -j "$jobs" -E ctime_ifma_trace) # the IFMA code keeps __int128
bash "$root/tests/harness/test-backends.sh" "$b"

# ---- 2. the other random sources ------------------------------------------------------
for src in arc4random urandom getrandom-syscall; do
  echo "== FASTSM2_RANDOM=$src: $b"
  cmake -S "$root" -B "$b" -DFASTSM2_RANDOM=$src >/dev/null
  cmake --build "$b" -j "$jobs" --target test_rng
  case $src in
    arc4random) calls "$b" arc4random_buf || fail "util.c.o does not call arc4random_buf: $(util_calls "$b")" ;;
    urandom) calls "$b" read && ! calls "$b" getrandom || fail "util.c.o calls $(util_calls "$b")" ;;
    getrandom-syscall) calls "$b" syscall && ! calls "$b" getrandom || fail "util.c.o calls $(util_calls "$b")" ;;
  esac
  "$b/tests/test_rng"
done
echo "test-portable: all checks passed"
