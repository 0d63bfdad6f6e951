#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The suite for 64-bit ARM, on any x86-64 Debian machine: cross-build
# with gcc-aarch64-linux-gnu (cmake/aarch64-linux-gnu.cmake) in build-aarch64
# and run ctest there under qemu-aarch64 (user mode), once per backend:
#   1. qemu -cpu max (has the ARMv8.2 SM3 and SM4 instructions): the
#      default choice must be armv8-sm3 and SM4's armv8-sm4. The whole
#      suite: its C tests also loop over every backend and every SM4 table
#      this CPU runs (test_ecmult, test_sm3, test_encrypt_stream,
#      test_openssl_diff, test_sm4, test_sm4_tables, ...);
#   2. FASTSM2_CPU=armv8 and FASTSM2_CPU=generic forced, same CPU;
#   3. qemu -cpu cortex-a72 (ASIMD, AES and PMULL; no SM3, no SM4): the
#      default choice must fall back to armv8, whose SM3 is the scalar code
#      plus the NEON lanes, and SM4's to armv8-aes.
# Passes 2 and 3 run the brief set (PER_BACKEND below): the tests that go
# end to end through the backend the library chose (known answers, sign,
# encrypt, key exchange, SM3, SM4 with its 1,000,000-fold example and every
# mode), and on cortex-a72 also every table this CPU runs
# against the portable one (no SM3 or SM4 instruction may hide in the
# fallbacks). The long tests that do not depend on the choice (the fields,
# the CLI, the provider, the key files) or that loop over every backend
# themselves run once, in pass 1. FS2T_AARCH64_FULL=1 runs the whole suite
# in every pass (4x the time).
# Installs what is missing (cross compiler, qemu-user, Debian's arm64
# libssl-dev for the tests' OpenSSL reference). The valgrind constant-time
# test is not in these passes: tests/harness/arm-ctime/valgrind.sh runs it with
# Debian's arm64 valgrind under qemu, and tests/harness/arm-ctime/trace.sh compares
# execution traces over many secrets (docs/ARM.md).
#
# usage: tests/harness/test-aarch64.sh [--build-only] [BUILD_DIR]   (default build-aarch64)
#   --build-only  install what is missing and build the library
#                 (libfastsm2.a), run nothing: for tests/harness/arm-ctime
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_ONLY=0
if [ "${1:-}" = --build-only ]; then
  BUILD_ONLY=1
  shift
fi
B=${1:-build-aarch64}
TRIPLE=aarch64-linux-gnu
SYSROOT=/usr/$TRIPLE
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# ---- dependencies -----------------------------------------------------------
have() { command -v "$1" >/dev/null 2>&1; }
need=()
have $TRIPLE-gcc || need+=(gcc-$TRIPLE libc6-dev-arm64-cross)
have $TRIPLE-g++ || need+=(g++-$TRIPLE)
have qemu-aarch64 || have qemu-aarch64-static || need+=(qemu-user)
have cmake || need+=(cmake)
have ninja || need+=(ninja-build)
have openssl || need+=(openssl)
# the arm64 multiarch libraries the test programs load under qemu
[ -f /usr/lib/$TRIPLE/libcrypto.so ] || need+=(libssl-dev:arm64)
[ -f /usr/lib/$TRIPLE/libstdc++.so.6 ] || need+=(libstdc++6:arm64) # tests/gpu (C++)
if [ ${#need[@]} -gt 0 ]; then
  echo "test-aarch64: installing ${need[*]}" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    have sudo || { echo "test-aarch64: need root or sudo to install: ${need[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
# The guest C library: the multiarch libc6:arm64 that libssl3:arm64 pulls in
# (its loader is /lib/ld-linux-aarch64.so.1), else the cross sysroot. Not
# both: qemu -L would pair the sysroot's ld.so with the multiarch libc.so.6,
# and threaded programs hang when their versions differ (as in Debian 12).
QEMU_L=()
[ -e /lib/ld-linux-aarch64.so.1 ] || QEMU_L=(-L "$SYSROOT")

# ---- build ------------------------------------------------------------------
# The CLI programs are replaced by qemu wrappers after each build (below):
# put the real programs back so that the build sees what it made.
WRAPPED="fastsm2 fastsm2-speed"
for p in $WRAPPED; do
  if [ -f "$B/$p.aarch64" ]; then
    mv -f "$B/$p.aarch64" "$B/$p"
  fi
done
GEN=()
have ninja && GEN=(-G Ninja)
cmake -S . -B "$B" "${GEN[@]}" -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
  -DCMAKE_BUILD_TYPE=Release -DFASTSM2_CTIME=OFF -DFASTSM2_CUDA=OFF >/dev/null
if [ "$BUILD_ONLY" = 1 ]; then
  cmake --build "$B" --target fastsm2_static -j "$JOBS"
  echo "test-aarch64: library built in $B"
  exit 0
fi
cmake --build "$B" -j "$JOBS"

# The shell tests run "$BUILD/fastsm2" next to the host's openssl. Without a
# binfmt_misc entry for aarch64 an ARM program cannot be exec'd directly, so
# fastsm2 (and fastsm2-speed, which `fastsm2 speed` execs from the directory
# of /proc/self/exe) become scripts that run the real ones under qemu. A
# wrapper copied elsewhere (test_cli copies fastsm2 to check how `speed`
# finds its benchmark) takes a copy of the real program along, so that
# /proc/self/exe, which qemu reports as the guest program, stays beside it.
# The shell tests that compile and run their own programs with the host's
# cc (exports, readme, dlclose: packaging checks, run natively by `make test`) need
# binfmt and are left out without it.
# test_sm4_docs builds docs/SM4.md's examples with the host's cc: like
# test_readme, a check of the page run natively by `make test`;
# and the certificate and CMS commands once (test_x509 and test_cms run the same code here)
skip="ctime_valgrind|test_sm4_docs|test_cli_pki|test_pki_docs"
if [ -r /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64; then
  [ ${#QEMU_L[@]} -eq 0 ] || export QEMU_LD_PREFIX=$SYSROOT
else
  skip="$skip|test_exports|test_readme|test_dlclose"
  ABS_B=$(cd "$B" && pwd)
  for p in $WRAPPED; do
    mv -f "$B/$p" "$B/$p.aarch64"
    cat >"$B/$p" <<EOF
#!/bin/sh
# Written by tests/harness/test-aarch64.sh: the aarch64 $p under qemu-user.
d=\$(dirname "\$0")
[ -f "\$d/$p.aarch64" ] || cp "$ABS_B/$p.aarch64" "\$d/$p.aarch64"
exec "$QEMU" ${QEMU_L[*]} "\$d/$p.aarch64" "\$@"
EOF
    chmod +x "$B/$p"
  done
fi
backend_of() { # QEMU_CPU FASTSM2_CPU -> the backend the library picks
  QEMU_CPU=$1 FASTSM2_CPU=$2 "$B/fastsm2" version | sed -n 's/^backend: //p'
}

# The brief set of passes 2 and 3 (ctest names).
PER_BACKEND="test_kat|test_sign|test_encrypt|test_kx|test_keys|test_sm3|test_sm4|test_sm4_modes|test_sm4_aead|test_sym"
A72_EXTRA="test_sm4_tables|test_sm3_lanes"

run_suite() { # LABEL QEMU_CPU FASTSM2_CPU WANT WANT_SM4 [CTEST_REGEX]
  local label=$1 cpu=$2 force=$3 want=$4 want_sm4=$5 only=${6:-} got sel=()
  got=$(backend_of "$cpu" "$force")
  if [ "$got" != "$want" ]; then
    echo "test-aarch64: qemu -cpu $cpu, FASTSM2_CPU='$force': backend '$got', expected '$want'" >&2
    exit 1
  fi
  [ -z "$only" ] || [ "${FS2T_AARCH64_FULL:-0}" = 1 ] || sel=(-R "^($only)\$")
  echo "== aarch64 suite: $label (qemu -cpu $cpu, backend $got, SM4 $want_sm4${sel:+, brief set})"
  # FS2T_QEMU_USER: test_batch leaves out its fork test, which qemu-user
  # cannot run (threads started in the child of a multithreaded process).
  # FS2T_SM4_EXPECT: test_sm4 checks the SM4 table chosen.
  # the pass's time, wall and CPU (qemu is the CPU: a measure that holds on a loaded machine)
  local t0=$SECONDS tm=() cpuf
  cpuf=$(cd "$B" && pwd)/pass-cpu.txt
  have /usr/bin/time && tm=(/usr/bin/time -f "%U %S" -o "$cpuf")
  (cd "$B" && QEMU_CPU=$cpu FASTSM2_CPU=$force FS2T_QEMU_USER=1 FS2T_SM4_EXPECT=$want_sm4 \
    ${tm[@]+"${tm[@]}"} ctest --output-on-failure -j "$JOBS" -E "$skip" ${sel[@]+"${sel[@]}"})
  echo "test-aarch64: pass '$label': $((SECONDS - t0)) s$([ ${#tm[@]} -eq 0 ] ||
    awk '{ printf ", %.0f s of CPU", $1 + $2 }' "$cpuf")"
}

start=$(date +%s)
run_suite "default, SM3 and SM4 instructions" max "" armv8-sm3 armv8-sm4
run_suite "forced armv8" max armv8 armv8 armv8-sm4 "$PER_BACKEND"
run_suite "forced generic" max generic generic generic "$PER_BACKEND"
run_suite "no SM3, no SM4 extension: fallback" cortex-a72 "" armv8 armv8-aes "$PER_BACKEND|$A72_EXTRA"
echo "test-aarch64: all passes OK in $(($(date +%s) - start)) s"
