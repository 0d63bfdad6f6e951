#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The valgrind constant-time test (tests/ctime/ctime_test.c) on AArch64:
# Debian's arm64 valgrind (memcheck) run under qemu-aarch64 (user mode) on
# a dynamically linked aarch64 ctime_test, which marks every secret as
# undefined memory; memcheck reports any branch or address that depends on
# one. It covers the generic and armv8 backends and the SM4 tables generic
# and armv8-aes. armv8-sm3 and armv8-sm4 are out of its reach: valgrind
# hides the SM3 and SM4 HWCAPs from the program, so the library never
# selects them (tests/harness/arm-ctime/trace.sh checks those).
#
# Positive controls (tests/ctime/ctime_planted.c), each of which memcheck
# must report: a branch on a secret, a load at a secret index, and
# fastsm2_verify_digest (variable time by design) on a signature marked
# secret, once per backend, so that a report from inside the library is
# seen to reach the exit status.
#
# What it installs when missing (Debian's packages only):
#   - the cross compiler, qemu-user and the arm64 C library
#     (tests/harness/test-aarch64.sh --build-only, which also builds libfastsm2.a);
#   - libc6-dbg:arm64 (apt-get install): valgrind needs the symbols of the
#     arm64 ld.so (its strlen must be redirected);
#   - valgrind:arm64, which cannot be installed beside the amd64 valgrind:
#     `apt-get download` and `dpkg -x` into BUILD/arm-ctime/valgrind.
# The arm64 valgrind runs with VALGRIND_LIB set and its tool
# (memcheck-arm64-linux) started directly, since without a binfmt_misc entry
# the launcher could not exec it. A static ctime_test is not used: valgrind
# then reports false errors in the C library's TLS set-up.
#
# usage: tests/harness/arm-ctime/valgrind.sh [BUILD_DIR]   (default build-aarch64)
set -euo pipefail
cd "$(dirname "$0")/../../.."
B=${1:-build-aarch64}
TRIPLE=aarch64-linux-gnu
OUT=$B/arm-ctime
VG=$OUT/valgrind
start=$(date +%s)

bash tests/harness/test-aarch64.sh --build-only "$B"
mkdir -p "$OUT"
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
if [ ! -e /lib/ld-linux-aarch64.so.1 ]; then
  echo "valgrind-aarch64: no multiarch libc6:arm64 (/lib/ld-linux-aarch64.so.1)" >&2
  exit 1
fi
if ! grep -q '^FS2_VALGRIND_INCLUDE:PATH=/' "$B/CMakeCache.txt"; then
  echo "valgrind-aarch64: $B's library was built without valgrind's client requests" \
    "(no valgrind/memcheck.h): its declassifications would be lost" >&2
  exit 1
fi

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
APT=(-o DPkg::Lock::Timeout=300 -qq)

# ---- libc6-dbg:arm64: the debug file of this ld.so, by its build ID ----------
ldso=$(readlink -f /lib/ld-linux-aarch64.so.1)
bid=$($TRIPLE-readelf -n "$ldso" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
if [ -z "$bid" ] || [ ! -f "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ]; then
  v=$(dpkg-query -W -f='${Version}' libc6:arm64)
  echo "valgrind-aarch64: installing libc6-dbg:arm64=$v" >&2
  $SUDO apt-get "${APT[@]}" install -y --no-install-recommends "libc6-dbg:arm64=$v" ||
    { $SUDO apt-get "${APT[@]}" update && $SUDO apt-get "${APT[@]}" install -y --no-install-recommends "libc6-dbg:arm64=$v"; }
fi

# ---- valgrind:arm64, unpacked into the build directory -------------------------
if [ ! -x "$VG/usr/libexec/valgrind/memcheck-arm64-linux" ]; then
  tmp=$(mktemp -d)
  chmod 755 "$tmp"
  echo "valgrind-aarch64: unpacking valgrind:arm64 into $VG" >&2
  (cd "$tmp" && { apt-get "${APT[@]}" download valgrind:arm64 ||
    { $SUDO apt-get "${APT[@]}" update && apt-get "${APT[@]}" download valgrind:arm64; }; }) 2>&1 |
    grep -v 'unsandboxed' >&2 || true
  deb=$(ls "$tmp"/valgrind_*_arm64.deb)
  rm -rf "$VG"
  dpkg -x "$deb" "$VG"
  dpkg-deb -f "$deb" Version >"$VG/VERSION"
  rm -rf "$tmp"
fi
VGLIB=$(cd "$VG/usr/libexec/valgrind" && pwd)

# ---- the programs: dynamically linked, against the cross-built library --------
CFLAGS=(-O2 -g -Wall -Wextra -Iinclude -Isrc -I"$B/generated" -I"$VG/usr/include")
$TRIPLE-gcc "${CFLAGS[@]}" -o "$OUT/ctime_test" tests/ctime/ctime_test.c "$B/libfastsm2.a" -lpthread
$TRIPLE-gcc "${CFLAGS[@]}" -o "$OUT/ctime_planted" tests/ctime/ctime_planted.c "$B/libfastsm2.a" -lpthread
$TRIPLE-readelf -l "$OUT/ctime_test" | grep -q 'program interpreter: /lib/ld-linux-aarch64.so.1' ||
  { echo "valgrind-aarch64: ctime_test is not dynamically linked" >&2; exit 1; }

# memcheck LOG PROGRAM ARGS...: the exit status of memcheck on PROGRAM
memcheck() {
  local log=$1
  shift
  set +e
  VALGRIND_LAUNCHER=$VG/usr/bin/valgrind VALGRIND_LIB=$VGLIB QEMU_CPU=max \
    "$QEMU" "$VGLIB/memcheck-arm64-linux" --error-exitcode=42 --track-origins=yes "$@" >"$log" 2>&1
  local rc=$?
  set -e
  return $rc
}

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "  ok    $*"; }
fail() { failed=$((failed + 1)); echo "  FAIL  $*"; }

echo "== memcheck (Debian's valgrind:arm64 $(cat "$VG/VERSION" 2>/dev/null)) under $("$QEMU" --version | head -1)"
rc=0
memcheck "$OUT/ctime_test.log" "$OUT/ctime_test" || rc=$?
if [ "$rc" = 0 ] && grep -q '^backend generic$' "$OUT/ctime_test.log" && grep -q '^backend armv8$' "$OUT/ctime_test.log" &&
  grep -q '^SM4 table generic$' "$OUT/ctime_test.log" && grep -q '^SM4 table armv8-aes$' "$OUT/ctime_test.log" &&
  grep -q '^ctime_test: [1-9][0-9]* passed, 0 failed$' "$OUT/ctime_test.log"; then
  pass "ctime_test: $(grep -c '^backend [a-z0-9-]*$' "$OUT/ctime_test.log") backends," \
    "$(grep -c '^SM4 table [a-z0-9-]*$' "$OUT/ctime_test.log") SM4 tables, no report" \
    "($(sed -n 's/^ctime_test: //p' "$OUT/ctime_test.log"))"
  grep '^backend .*skipped' "$OUT/ctime_test.log" | sed 's/^/        /' || true
else
  fail "ctime_test (memcheck exit status $rc; log $OUT/ctime_test.log):"
  grep -E '^==[0-9]+== (Conditional|Use of|   (at|by) )|^backend|^SM4|^ctime_test' "$OUT/ctime_test.log" | head -60
fi

# positive controls: memcheck must report each (its error exit status 42)
control() { # NAME WANT-IN-LOG BACKEND MODE
  local name=$1 want=$2 be=$3 mode=$4 log=$OUT/planted-$1.log rc=0
  (export FASTSM2_CPU=$be && memcheck "$log" "$OUT/ctime_planted" "$mode") || rc=$?
  if [ "$rc" = 42 ] && grep -q "$want" "$log"; then
    pass "positive control $name: reported ($(grep -m1 -o 'Conditional jump[^(]*\|Use of uninitialised value of size [0-9]*' "$log"))"
  else
    fail "positive control $name: memcheck exit status $rc, expected 42 with '$want' (log $log)"
  fi
}
control branch 'Conditional jump or move depends on uninitialised value' "" branch
control index 'Use of uninitialised value of size' "" index
for be in generic armv8; do
  control "verify-$be" 'by 0x[0-9A-F]*: fastsm2_verify_digest' $be verify
done

echo "valgrind-aarch64: $passed passed, $failed failed ($(($(date +%s) - start)) s)"
[ "$failed" = 0 ]
