#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make bench-java`: the FastSM2 provider beside BouncyCastle (JMH,
# java/bench), and the same operations of the C library (`fastsm2 speed`)
# in the same run window, alternated: C, JMH 1 thread, C, JMH 2 threads
# (BENCH_THREADS=1 skips the second), so that the load of a shared machine
# falls on both. Prints a markdown table of ops/s and ratios (also in
# build-java-native/bench/table.md) for docs/JAVA.md. Then ops per CPU
# second (the process's CPU clock: a loaded machine's waiting does not
# count) of the C library (java/tools/cpu-bench.c), the provider and
# BouncyCastle (java/bench CpuTime), alternated twice.
# usage: java/tools/bench.sh [BUILD_DIR]   (a build with fastsm2-speed; else
#        one is made in build-java-native/speed)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
OUT=build-java-native/bench
mkdir -p "$OUT"
JMH_OPTS=${JMH_OPTS:--f 1 -wi 2 -w 1s -i 3 -r 1s}
C_SECONDS=${C_SECONDS:-1}
OPS=keygen,sign,verify,encrypt-32,decrypt-32,sm3-8192

[ -f java/target/fastsm2-jca.jar ] || bash java/tools/build.sh jar
if [ ! -x "$BUILD/fastsm2" ] || [ ! -x "$BUILD/fastsm2-speed" ]; then
  BUILD=build-java-native/speed
  GEN=""
  command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"
  nice -n 10 cmake -S . -B "$BUILD" $GEN -DCMAKE_BUILD_TYPE=Release -DFASTSM2_TESTS=OFF -DFASTSM2_CTIME=OFF \
    -DFASTSM2_PROVIDER=OFF -DFASTSM2_CUDA=OFF >"$OUT/cmake.log"
  nice -n 10 cmake --build "$BUILD" -j 2 --target fastsm2 fastsm2-speed >"$OUT/build.log"
fi
(cd java/bench && nice -n 10 mvn -B -q -Dstyle.color=never package dependency:build-classpath -Dmdep.outputFile=target/cp.txt)
CP="java/bench/target/classes:$(cat java/bench/target/cp.txt)"

c_speed() { "$BUILD/fastsm2" speed --ops "$OPS" --seconds "$C_SECONDS" --json >"$OUT/$1.json"; }
jmh() { # threads
  java -cp "$CP" org.openjdk.jmh.Main SM2Bench $JMH_OPTS -t "$1" -rf json -rff "$OUT/jmh-t$1.json" >"$OUT/jmh-t$1.log" 2>&1 ||
    { tail -30 "$OUT/jmh-t$1.log"; exit 1; }
  if grep -q "<failure>" "$OUT/jmh-t$1.log"; then
    grep -m1 -A8 "<failure>" "$OUT/jmh-t$1.log"
    echo "bench-java: a benchmark failed (see $OUT/jmh-t$1.log)" >&2
    exit 1
  fi
}
[ "${BENCH_JMH:-1}" = 0 ] || rm -f "$OUT"/*.json
rm -f "$OUT"/cpu-*.txt
echo "bench-java: C, JMH 1 thread, C$( [ "${BENCH_THREADS:-2}" = 1 ] || echo ", JMH 2 threads") ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
if [ "${BENCH_JMH:-1}" = 1 ]; then # BENCH_JMH=0: the per-CPU-second table alone
  c_speed c1
  jmh 1
  c_speed c2
  [ "${BENCH_THREADS:-2}" = 1 ] || jmh 2
fi
# ops per CPU second (the process's CPU clock), C and Java alternated twice
cc -O2 -std=c11 -Iinclude java/tools/cpu-bench.c build-java-native/lib-x86_64/libfastsm2.a -o "$OUT/cpu-bench" -pthread
for r in 1 2; do
  "$OUT/cpu-bench" "${CPU_SECONDS:-0.5}" >"$OUT/cpu-c$r.txt"
  java -cp "$CP" org.fastsm2.bench.CpuTime "${CPU_SECONDS:-0.5}" >"$OUT/cpu-java$r.txt"
done
python3 java/tools/bench_table.py "$OUT" | tee "$OUT/table.md"
