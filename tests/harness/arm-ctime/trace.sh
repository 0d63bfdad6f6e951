#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Constant time on AArch64 by trace comparison, for all three aarch64
# backends (armv8-sm3, which valgrind cannot see, armv8 and generic) and
# all three SM4 tables (armv8-sm4, whose SM4E valgrind cannot run, under
# armv8-sm3 and armv8; armv8-aes forced with FASTSM2_SM4 under armv8; the
# portable one under generic): a
# qemu TCG plugin (tracehash.c) hashes every executed block address and
# every load/store address of each operation of trace_driver.c, which runs
# a key load, first and later signatures, kG, kP (with and without the
# point's tables), encryption, decryption (success and failure) and a key
# exchange, and SM4's key schedule, CTR, CBC, GCM (and its failure path),
# CCM and both XTS orders, over 12 secret sets (d = 1, d = n-2, k = 1, k = n-1 among them,
# the rest random from FS2T_SEED). Every operation's trace must be the same
# for all sets; the positive controls (verification on each set's own
# public inputs, a planted secret branch and a planted secret-indexed load)
# must differ. When an operation differs, the two traces are dumped and the
# first place where they part is printed with its function (addr2line).
#
# Needs the cross compiler and qemu-user (tests/harness/test-aarch64.sh --build-only
# installs them and builds libfastsm2.a), a host C compiler for the plugin
# and python3. Runs in seconds: qemu executes the whole driver, plugin
# included, in well under a second per backend.
#
# usage: tests/harness/arm-ctime/trace.sh [BUILD_DIR]   (default build-aarch64)
set -euo pipefail
cd "$(dirname "$0")/../../.."
B=${1:-build-aarch64}
TRIPLE=aarch64-linux-gnu
OUT=$B/arm-ctime
start=$(date +%s)

bash tests/harness/test-aarch64.sh --build-only "$B"
mkdir -p "$OUT"
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
QEMU_L=() # the guest C library, as in tests/harness/test-aarch64.sh (a static driver needs none)
[ -e /lib/ld-linux-aarch64.so.1 ] || QEMU_L=(-L "/usr/$TRIPLE")

cc -O2 -shared -fPIC -Wall -Wextra -o "$OUT/tracehash.so" tests/harness/arm-ctime/tracehash.c \
  -Wl,--unresolved-symbols=ignore-all
# static and not position-independent: fixed addresses, no lazy binding
$TRIPLE-gcc -O2 -g -Wall -Wextra -static -no-pie -Iinclude -Isrc -I"$B/generated" -Itests \
  -DFS2T_VECTORS_FILE='"unused"' -DFS2T_SOURCE_DIR='"unused"' -o "$OUT/trace_driver" tests/harness/arm-ctime/trace_driver.c tests/testutil.c \
  "$B/libfastsm2.a" -lcrypto -lpthread # testutil.c uses libcrypto (static: never called here)
mark=$($TRIPLE-nm "$OUT/trace_driver" | awk '$3 == "trace_mark" { print "0x" $1 }')
[ -n "$mark" ] || { echo "trace-aarch64: no trace_mark symbol in the driver" >&2; exit 1; }

# run BACKEND LOG [PLUGIN-ARGS]: the driver under qemu -cpu max with the plugin
# (FASTSM2_SM4 from the caller: the SM4 table)
run() {
  local be=$1 log=$2 extra=${3:-}
  QEMU_CPU=max FASTSM2_CPU=$be FASTSM2_SM4=${SM4:-} "$QEMU" ${QEMU_L[@]+"${QEMU_L[@]}"} \
    -plugin "$OUT/tracehash.so,mark=$mark$extra" -d plugin -D "$log" "$OUT/trace_driver"
}

sym() { # "B addr" -> the function of the block; else nothing
  case $1 in
  "B "*) $TRIPLE-addr2line -f -e "$OUT/trace_driver" "0x${1#B }" | head -1 ;;
  esac
}

# where two dumped segments part: the first differing event, symbolised
first_difference() { # LOG SEG_A SEG_B
  local log=$1 a=$2 b=$3
  : >"$OUT/dump-a.txt"
  : >"$OUT/dump-b.txt"
  awk -v a="$a" -v b="$b" -v dir="$OUT" '
    /^dump / { cur = $2; next }
    /^seg / { cur = -1; next }
    cur == a { print > (dir "/dump-a.txt") }
    cur == b { print > (dir "/dump-b.txt") }' "$log"
  local line
  line=$({ cmp "$OUT/dump-a.txt" "$OUT/dump-b.txt" 2>/dev/null || true; } | sed -n 's/.* line \([0-9]*\).*/\1/p')
  [ -n "$line" ] || line=$(($(wc -l <"$OUT/dump-a.txt") + 1))
  echo "  the traces part at event $line:"
  local from=$((line > 8 ? line - 8 : 1))
  paste -d'|' <(sed -n "${from},$((line + 2))p" "$OUT/dump-a.txt") <(sed -n "${from},$((line + 2))p" "$OUT/dump-b.txt") |
    while IFS='|' read -r x y; do
      printf '    %-24s %-24s %s\n' "$x" "$y" "$(sym "$x") $(sym "$y")"
    done
}

passed=0
failed=0
# BACKEND:SM4-TABLE
for pair in armv8-sm3:armv8-sm4 armv8:armv8-aes generic:generic; do
  be=${pair%%:*}
  SM4=${pair#*:}
  log=$OUT/trace-$be.log
  if ! run "$be" "$log" >"$OUT/trace-$be.out"; then
    echo "trace-aarch64: the driver failed on $be:" >&2
    cat "$OUT/trace-$be.out" >&2
    failed=$((failed + 1))
    continue
  fi
  got=$(sed -n 's/^backend //p' "$OUT/trace-$be.out")
  if [ "$got" != "$be" ]; then
    echo "trace-aarch64: FASTSM2_CPU=$be ran backend '$got'" >&2
    failed=$((failed + 1))
    continue
  fi
  got=$(sed -n 's/^sm4 //p' "$OUT/trace-$be.out")
  if [ "$got" != "$SM4" ]; then
    echo "trace-aarch64: FASTSM2_SM4=$SM4 ran SM4 table '$got'" >&2
    failed=$((failed + 1))
    continue
  fi
  grep '^trace_driver: ' "$OUT/trace-$be.out"
  if python3 tests/harness/arm-ctime/trace_compare.py "$OUT/trace-$be.out" "$log" | tee "$OUT/compare-$be.txt"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    d=$(sed -n 's/^diverge //p' "$OUT/compare-$be.txt")
    if [ -n "$d" ]; then
      set -- $d
      run "$be" "$OUT/dump-$be.log" ",dump=$2,dump2=$3" >/dev/null || true
      first_difference "$OUT/dump-$be.log" "$2" "$3"
    fi
  fi
  echo
done
echo "trace-aarch64: $passed passed, $failed failed ($(($(date +%s) - start)) s)"
[ "$failed" = 0 ]
