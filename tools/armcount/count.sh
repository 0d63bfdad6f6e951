#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Executed AArch64 instructions per operation under qemu-aarch64 (user mode),
# counted by a small TCG plugin (insncount.c), for:
#   fastsm2 armv8-sm3 / armv8 / generic (FASTSM2_CPU forces each; "generic"
#     is the portable C compiled for AArch64),
#   gmsm (Go, GOARCH=arm64: its arm64 assembly), tools/armcount/gmsm,
#   Debian's arm64 OpenSSL 3.0 (libcrypto.so.3 from libssl3:arm64).
# One operation = (count(N) - count(0)) / N with identical set-up in both
# runs. Instructions are not cycles: a MUL, an SM3TT1A and an ADD count one
# each. The last column is fastsm2_sm3_many on 4 messages (the backend's
# SM3 lanes: the KDF's path), per message-block. Prints a Markdown table (also written to BUILD/armcount/table.md).
#
# usage: tools/armcount/count.sh [BUILD_DIR]   (default build-aarch64; built
#        here with cmake/aarch64-linux-gnu.cmake if needed)
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build-aarch64}
TRIPLE=aarch64-linux-gnu
SYSROOT=/usr/$TRIPLE
N_EC=${N_EC:-20}
N_SM3=${N_SM3:-2000}
OUT=$B/armcount
mkdir -p "$OUT"

# the cross toolchain, qemu and arm64 OpenSSL: tools/test-aarch64.sh installs
# them; build the library (not the tests) if needed
if ! command -v $TRIPLE-gcc >/dev/null || ! [ -f /usr/lib/$TRIPLE/libcrypto.so ]; then
  echo "armcount: run tools/test-aarch64.sh first (installs the cross compiler, qemu, libssl-dev:arm64)" >&2
  exit 1
fi
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
QEMU_L=() # the guest C library: as in tools/test-aarch64.sh
[ -e /lib/ld-linux-aarch64.so.1 ] || QEMU_L=(-L "$SYSROOT")
if [ ! -f "$B/CMakeCache.txt" ]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
    -DCMAKE_BUILD_TYPE=Release -DFASTSM2_CTIME=OFF -DFASTSM2_CUDA=OFF >/dev/null
fi
cmake --build "$B" --target fastsm2_static -j "$(nproc)" >/dev/null

cc -O2 -shared -fPIC -Wall -Wextra -o "$OUT/insncount.so" tools/armcount/insncount.c \
  -Wl,--unresolved-symbols=ignore-all
$TRIPLE-gcc -O2 -Wall -Wextra -Iinclude -Isrc -I"$B/generated" -o "$OUT/opcount" tools/armcount/opcount.c \
  "$B/libfastsm2.a" -lcrypto -lpthread

GMSM=""
GO=$(command -v go || echo /usr/local/go/bin/go)
if [ -x "$GO" ]; then
  (cd tools/armcount/gmsm && GOARCH=arm64 CGO_ENABLED=0 "$GO" build -o "../../../$OUT/gmsmcount" .) &&
    GMSM=$OUT/gmsmcount
else
  echo "armcount: no Go toolchain, the gmsm column is left out" >&2
fi

# count QEMU_CPU ENV... -- PROGRAM ARGS: guest instructions of one run
count() {
  local cpu=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env QEMU_CPU="$cpu" GOMAXPROCS=1 GOGC=off "${envs[@]}" "$QEMU" ${QEMU_L[@]+"${QEMU_L[@]}"} \
    -plugin "$OUT/insncount.so" -d plugin -D "$OUT/plugin.log" "$@" >/dev/null
  sed -n 's/^insns: //p' "$OUT/plugin.log"
}

# per_op CPU ENV... -- PROGRAM ARGS-BEFORE-N N
per_op() {
  local cpu=$1 n=${!#}
  shift
  local args=("${@:1:$(($# - 1))}")
  local c0 cn
  c0=$(count "$cpu" "${args[@]}" 0)
  cn=$(count "$cpu" "${args[@]}" "$n")
  echo $(((cn - c0 + n / 2) / n))
}

declare -A R
ops="sign verify kg kp sm3"
for op in $ops; do
  n=$N_EC
  [ "$op" = sm3 ] && n=$N_SM3
  R[fs_sm3,$op]=$(per_op max FASTSM2_CPU=armv8-sm3 -- "$OUT/opcount" fastsm2 "$op" "$n")
  R[fs_neon,$op]=$(per_op max FASTSM2_CPU=armv8 -- "$OUT/opcount" fastsm2 "$op" "$n")
  R[fs_gen,$op]=$(per_op max FASTSM2_CPU=generic -- "$OUT/opcount" fastsm2 "$op" "$n")
  R[ossl,$op]=$(per_op max -- "$OUT/opcount" openssl "$op" "$n")
  if [ "$op" = sm3 ]; then
    # fastsm2_sm3_many over 4 messages: the backend's SM3 lanes, per lane-block
    for v in "fs_sm3 armv8-sm3" "fs_neon armv8" "fs_gen generic"; do
      set -- $v
      R[$1,sm3x4]=$(($(per_op max FASTSM2_CPU=$2 -- "$OUT/opcount" fastsm2 sm3x4 "$n") / 4))
    done
  fi
  if [ -n "$GMSM" ]; then
    # gmsm 0.15.5 takes its SM3-instruction path on a CPU that has them and
    # then dies of SIGILL (its encodings are wrong), so its SM3 is counted on
    # a CPU without them (its scalar arm64 assembly).
    cpu=max
    [ "$op" = sm3 ] && cpu=cortex-a72
    R[gmsm,$op]=$(per_op $cpu -- "$GMSM" "$op" "$n")
  else
    R[gmsm,$op]="-"
  fi
done

ratio() { # a b -> a/b with two decimals
  if [ "$2" = "-" ] || [ "$2" = 0 ]; then echo "-"; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi
}

{
  echo "| executed AArch64 instructions (qemu $("$QEMU" --version | sed -n 's/.*version \([^ ]*\).*/\1/p'), user mode) | sign | verify | kG | kP | SM3 per 64-byte block | SM3, 4 messages at once, per block |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  row() { echo "| $1 | ${R[$2,sign]} | ${R[$2,verify]} | ${R[$2,kg]} | ${R[$2,kp]} | ${R[$2,sm3]} | ${R[$2,sm3x4]:--} |"; }
  row "fastsm2 armv8-sm3 (field asm, NEON select, SM3 instructions)" fs_sm3
  row "fastsm2 armv8 (same; SM3: scalar C, 4 NEON lanes)" fs_neon
  row "fastsm2 generic (portable C)" fs_gen
  row "gmsm $(sed -n 's/.*emmansun\/gmsm \(v[^ ]*\).*/\1/p' tools/armcount/gmsm/go.mod) (Go, arm64 assembly)" gmsm
  row "OpenSSL $("$QEMU" ${QEMU_L[@]+"${QEMU_L[@]}"} "$OUT/opcount" openssl sm3 0 | awk '{print $3}') (Debian arm64)" ossl
  echo
  echo "| ratios | sign | verify | kG | kP | SM3 per block |"
  echo "|---|---:|---:|---:|---:|---:|"
  rrow() {
    echo "| $1 | $(ratio "${R[$2,sign]}" "${R[$3,sign]}") | $(ratio "${R[$2,verify]}" "${R[$3,verify]}") |" \
      "$(ratio "${R[$2,kg]}" "${R[$3,kg]}") | $(ratio "${R[$2,kp]}" "${R[$3,kp]}") | $(ratio "${R[$2,sm3]}" "${R[$3,sm3]}") |"
  }
  rrow "armv8-sm3 / gmsm" fs_sm3 gmsm
  rrow "armv8-sm3 / OpenSSL 3.0" fs_sm3 ossl
  rrow "armv8-sm3 / generic" fs_sm3 fs_gen
  rrow "armv8-sm3 / armv8" fs_sm3 fs_neon
} | tee "$OUT/table.md"
