#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Executed AArch64 instructions per operation under qemu-aarch64 (user mode),
# counted by a small TCG plugin (insncount.c), for:
#   fastsm2 armv8-sm3 / armv8 / generic (FASTSM2_CPU forces each; "generic"
#     is the portable C compiled for AArch64),
#   gmsm v0.44.0 (Go, GOARCH=arm64: its arm64 assembly), bench/armcount/gmsm,
#   Debian's arm64 OpenSSL 3.0 (libcrypto.so.3 from libssl3:arm64).
# One operation = (count(N) - count(0)) / N with identical set-up in both
# runs. The C programs' counts repeat exactly; gmsm's vary with the Go
# runtime's background work, so gmsm is counted GO_RUNS times and given as
# the range over those runs (min-max), and so are the ratios to it.
# Instructions are not cycles: a MUL, an SM3TT1A and an ADD count one each.
#
# Columns: sign; verify with a public key object already used twice (its
# tables made: the steady state); verify with a fresh public key object from
# its 65 bytes each time (load + verify); kG; kP; SM3 per 64-byte block; and
# fastsm2_sm3_many on 4 messages (the backend's SM3 lanes, the KDF's path)
# per message-block.
#
# Then (PROFILE=1, the default) where the instructions of sign, fresh-key
# verify and kG go, by function and by kind of instruction, for fastsm2
# armv8-sm3 and gmsm (profile.py over insncount.c's block profiles), and
# (MCA=1, the default) llvm-mca cycle estimates of the field product, the
# squaring and the SM3 block of both (mca.py, LLVM 19's llvm-mca from
# Debian's llvm-19, installed if missing).
#
# Everything goes to BUILD/armcount/{table,profile,mca}.md and stdout.
#
# usage: bench/armcount/count.sh [BUILD_DIR]   (default build-aarch64; built
#        here with cmake/aarch64-linux-gnu.cmake if needed)
#   N_EC=20 N_SM3=2000 GO_RUNS=5 PROFILE=1 MCA=1 are the defaults;
#   make bench-aarch64-brief runs N_EC=2 GO_RUNS=2 (that it builds and runs:
#   gmsm's figures are then within the Go runtime's noise)
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build-aarch64}
TRIPLE=aarch64-linux-gnu
SYSROOT=/usr/$TRIPLE
N_EC=${N_EC:-20}
N_SM3=${N_SM3:-2000}
GO_RUNS=${GO_RUNS:-5}
PROFILE=${PROFILE:-1}
MCA=${MCA:-1}
OUT=$B/armcount
mkdir -p "$OUT"

# the cross toolchain, qemu and arm64 OpenSSL: tests/harness/test-aarch64.sh installs
# them; build the library (not the tests) if needed
if ! command -v $TRIPLE-gcc >/dev/null || ! [ -f /usr/lib/$TRIPLE/libcrypto.so ]; then
  echo "armcount: run tests/harness/test-aarch64.sh first (installs the cross compiler, qemu, libssl-dev:arm64)" >&2
  exit 1
fi
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
QEMU_L=() # the guest C library: as in tests/harness/test-aarch64.sh
[ -e /lib/ld-linux-aarch64.so.1 ] || QEMU_L=(-L "$SYSROOT")
if [ ! -f "$B/CMakeCache.txt" ]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
    -DCMAKE_BUILD_TYPE=Release -DFASTSM2_CTIME=OFF -DFASTSM2_CUDA=OFF >/dev/null
fi
cmake --build "$B" --target fastsm2_static -j "$(nproc)" >/dev/null

cc -O2 -shared -fPIC -Wall -Wextra -o "$OUT/insncount.so" bench/armcount/insncount.c \
  -Wl,--unresolved-symbols=ignore-all
# not position-independent: the profiles map block addresses to symbols
$TRIPLE-gcc -O2 -no-pie -Wall -Wextra -Iinclude -Isrc -I"$B/generated" -o "$OUT/opcount" bench/armcount/opcount.c \
  bench/armcount/kernels.c "$B/libfastsm2.a" -lcrypto -lpthread

GMSM=""
GO=$(command -v go || echo /usr/local/go/bin/go)
if [ -x "$GO" ]; then
  (cd bench/armcount/gmsm && GOARCH=arm64 CGO_ENABLED=0 "$GO" build -o "../../../$OUT/gmsmcount" .) &&
    GMSM=$OUT/gmsmcount
else
  echo "armcount: no Go toolchain, the gmsm column is left out" >&2
fi
GMSM_VERSION=$(sed -n 's/.*emmansun\/gmsm \(v[^ ]*\).*/\1/p' bench/armcount/gmsm/go.mod)

# count QEMU_CPU ENV... -- PROGRAM ARGS: guest instructions of one run
count() {
  local cpu=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env QEMU_CPU="$cpu" GOMAXPROCS=1 GOGC=off ${envs[@]+"${envs[@]}"} "$QEMU" ${QEMU_L[@]+"${QEMU_L[@]}"} \
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

# go_range CPU OP N: "min-max" of per_op over GO_RUNS runs of gmsmcount
go_range() {
  local lo="" hi="" v
  for _ in $(seq "$GO_RUNS"); do
    v=$(per_op "$1" -- "$GMSM" "$2" "$3")
    if [ -z "$lo" ] || [ "$v" -lt "$lo" ]; then lo=$v; fi
    if [ -z "$hi" ] || [ "$v" -gt "$hi" ]; then hi=$v; fi
  done
  echo "$lo-$hi"
}

declare -A R
ops="sign verify verify-fresh kg kp sm3"
for op in $ops; do
  n=$N_EC
  [ "$op" = sm3 ] && n=$N_SM3
  R[fs_sm3,$op]=$(per_op max FASTSM2_CPU=armv8-sm3 -- "$OUT/opcount" fastsm2 "$op" "$n")
  R[fs_neon,$op]=$(per_op max FASTSM2_CPU=armv8 -- "$OUT/opcount" fastsm2 "$op" "$n")
  R[fs_gen,$op]=$(per_op max FASTSM2_CPU=generic -- "$OUT/opcount" fastsm2 "$op" "$n")
  if [ "$op" = verify-fresh ]; then
    R[ossl,$op]="-"
  else
    R[ossl,$op]=$(per_op max -- "$OUT/opcount" openssl "$op" "$n")
  fi
  if [ "$op" = sm3 ]; then
    # fastsm2_sm3_many over 4 messages: the backend's SM3 lanes, per lane-block
    for v in "fs_sm3 armv8-sm3" "fs_neon armv8" "fs_gen generic"; do
      set -- $v
      R[$1,sm3x4]=$(($(per_op max FASTSM2_CPU=$2 -- "$OUT/opcount" fastsm2 sm3x4 "$n") / 4))
    done
  fi
  if [ -n "$GMSM" ]; then
    R[gmsm,$op]=$(go_range max "$op" "$n")
  else
    R[gmsm,$op]="-"
  fi
done
# gmsm's scalar SM3 (a CPU without the SM3 instructions)
R[gmsm_a72,sm3]="-"
[ -z "$GMSM" ] || R[gmsm_a72,sm3]=$(go_range cortex-a72 sm3 "$N_SM3")

ratio() { # a b -> a/b with two decimals; b may be a range "lo-hi"
  local a=$1 b=$2
  if [ "$a" = "-" ] || [ "$b" = "-" ] || [ "$b" = 0 ]; then
    echo "-"
  elif [[ $b == *-* ]]; then
    awk -v a="$a" -v lo="${b%-*}" -v hi="${b#*-}" 'BEGIN {
      x = sprintf("%.2f", a / hi); y = sprintf("%.2f", a / lo); print (x == y ? x : x "-" y) }'
  else
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }'
  fi
}
qv=$("$QEMU" --version | sed -n 's/.*version \([^ ]*\).*/\1/p')
osslv=$("$QEMU" ${QEMU_L[@]+"${QEMU_L[@]}"} "$OUT/opcount" openssl sm3 0 | awk '{print $3}')

{
  echo "| executed AArch64 instructions (qemu $qv, user mode, -cpu max) | sign | verify (key's tables) | verify (fresh key) | kG | kP | SM3 per 64-byte block | SM3, 4 messages at once, per block |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  row() { echo "| $1 | ${R[$2,sign]:--} | ${R[$2,verify]:--} | ${R[$2,verify-fresh]:--} | ${R[$2,kg]:--} | ${R[$2,kp]:--} | ${R[$2,sm3]:--} | ${R[$2,sm3x4]:--} |"; }
  row "fastsm2 armv8-sm3 (field asm, NEON select, SM3 instructions)" fs_sm3
  row "fastsm2 armv8 (same; SM3: scalar C, 4 NEON lanes)" fs_neon
  row "fastsm2 generic (portable C)" fs_gen
  row "gmsm $GMSM_VERSION (Go, arm64 assembly; range over $GO_RUNS runs)" gmsm
  row "gmsm $GMSM_VERSION on -cpu cortex-a72 (no SM3 instructions)" gmsm_a72
  row "OpenSSL $osslv (Debian arm64)" ossl
  echo
  echo "| ratios of executed instructions | sign | verify (key's tables) | verify (fresh key) | kG | kP | SM3 per block |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  rrow() {
    local r="| $1 |"
    for op in sign verify verify-fresh kg kp sm3; do r="$r $(ratio "${R[$2,$op]:--}" "${R[$3,$op]:--}") |"; done
    echo "$r"
  }
  rrow "armv8-sm3 / gmsm $GMSM_VERSION" fs_sm3 gmsm
  rrow "armv8 / gmsm $GMSM_VERSION on cortex-a72 (scalar SM3 both)" fs_neon gmsm_a72
  rrow "armv8-sm3 / OpenSSL 3.0" fs_sm3 ossl
  rrow "armv8-sm3 / generic" fs_sm3 fs_gen
  rrow "armv8-sm3 / armv8" fs_sm3 fs_neon
  if [ -n "$GMSM" ]; then
    echo
    goal() { # LABEL OP LIMIT
      local r
      r=$(ratio "${R[fs_sm3,$2]}" "${R[gmsm,$2]}")
      echo "- $1: ${r}x gmsm $GMSM_VERSION's instructions (goal <= $3: $(awk -v r="${r##*-}" -v l="$3" 'BEGIN { print (r <= l ? "met" : "not met") }'))"
    }
    goal sign sign 0.55
    goal "fresh-key verify" verify-fresh 0.7
    goal kG kg 0.8
  fi
} | tee "$OUT/table.md"

if [ "$PROFILE" = 1 ]; then
  # prof LABEL CPU ENV... -- PROGRAM ARGS-BEFORE-N N: profile.py's tables
  prof() {
    local label=$1 cpu=$2 n=${!#}
    shift 2
    local args=("${@:1:$(($# - 1))}") envs=()
    while [ "${args[0]}" != "--" ]; do envs+=("${args[0]}"); args=("${args[@]:1}"); done
    args=("${args[@]:1}")
    local bin=${args[0]}
    for k in 0 "$n"; do
      env QEMU_CPU="$cpu" GOMAXPROCS=1 GOGC=off ${envs[@]+"${envs[@]}"} "$QEMU" ${QEMU_L[@]+"${QEMU_L[@]}"} \
        -plugin "$OUT/insncount.so,profile=on" -d plugin -D "$OUT/profile-$k.log" "${args[@]}" "$k" >/dev/null
    done
    echo "#### $label"
    echo
    python3 bench/armcount/profile.py "$TRIPLE" "$bin" "$OUT/profile-$n.log" "$OUT/profile-0.log" "$n" 10
    echo
  }
  {
    for op in sign verify-fresh kg; do
      prof "fastsm2 armv8-sm3: $op" max FASTSM2_CPU=armv8-sm3 -- "$OUT/opcount" fastsm2 "$op" "$N_EC"
      [ -z "$GMSM" ] || prof "gmsm $GMSM_VERSION: $op (one run)" max -- "$GMSM" "$op" "$N_EC"
    done
  } >"$OUT/profile.md"
  echo
  echo "armcount: where the instructions go: $OUT/profile.md"
fi

if [ "$MCA" = 1 ]; then
  MCA_BIN=/usr/lib/llvm-19/bin/llvm-mca
  if [ ! -x "$MCA_BIN" ]; then
    echo "armcount: installing Debian's llvm-19 (for llvm-mca)" >&2
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 -qq install -y --no-install-recommends llvm-19 >/dev/null ||
      { $SUDO apt-get -qq update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 -qq install -y --no-install-recommends llvm-19 >/dev/null; }
  fi
  G=github.com/emmansun/gmsm/internal
  specs=(
    "fastsm2 field product|$OUT/opcount|armcount_a64_mul_p|core"
    "fastsm2 field squaring (a run of squarings)|$OUT/opcount|armcount_a64_sqr_n_p|loop"
    "fastsm2 SM3 block, SM3 instructions|$OUT/opcount|fs2_sm3_compress_armv8_sm3|loop|${R[fs_sm3,sm3]}"
    "fastsm2 SM3 block, scalar|$OUT/opcount|fs2_sm3_compress_generic|loop|${R[fs_neon,sm3]}"
  )
  [ -z "$GMSM" ] || specs+=(
    "gmsm field product (sm2P256MulInternal)|$GMSM|sm2P256MulInternal|core"
    "gmsm field squaring (p256Sqr's loop)|$GMSM|$G/sm2ec.p256Sqr.abi0|loop"
    "gmsm SM3 block, SM3 instructions (blockSM3NI)|$GMSM|$G/sm3.blockSM3NI.abi0|loop"
    "gmsm SM3 block, scalar (blockARM64)|$GMSM|$G/sm3.blockARM64.abi0|loop"
  )
  {
    echo "llvm-mca $("$MCA_BIN" --version | sed -n 's/.*LLVM version \([0-9.]*\).*/\1/p'), cycles per iteration over 200 iterations:"
    echo
    python3 bench/armcount/mca.py "$TRIPLE" "$MCA_BIN" neoverse-n1,neoverse-v1,cortex-a72,tsv110 "${specs[@]}"
  } | tee "$OUT/mca.md"
fi
