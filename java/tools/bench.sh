#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make bench-java`: the FastSM2 provider beside BouncyCastle, in one run:
#   1. JMH (java/bench: SM2Bench, SM4Bench), 1 thread, ops/s of wall-clock
#      time; both providers warmed up the same way (JMH_OPTS, default 5
#      warm-up iterations of 2 s, then 5 of 1 s);
#   2. ops per CPU second of the thread that runs them: the C library
#      (java/tools/cpu-bench.c, linked with the very library in the jar)
#      and the Java providers (java/bench CpuTime: each operation warmed up
#      CPU_WARM (3) s of CPU per provider before either is measured, then
#      the two take turns, twice, CPU_SECONDS (1) s each), C, Java, C, Java
#      ... CPU_ROUNDS (3) times, so that the load of a shared machine falls
#      on both; the table gives the medians;
#   3. BENCH_LEGACY=1 adds CpuTime the older way (the process's CPU clock,
#      0.25 s of warm-up), whose ratios docs/JAVA.md explains.
# Prints markdown tables (also in build-java-native/bench/table.md) for
# docs/JAVA.md. BENCH_JMH=0 skips step 1; BENCH_THREADS=2 adds a JMH run
# on 2 threads sharing the keys.
# usage: java/tools/bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=build-java-native/bench
mkdir -p "$OUT"
JMH_OPTS=${JMH_OPTS:--f 1 -wi 5 -w 2s -i 5 -r 1s}
CPU_WARM=${CPU_WARM:-3}
CPU_SECONDS=${CPU_SECONDS:-1}

[ -f java/target/fastsm2-jca.jar ] || bash java/tools/build.sh jar
(cd java/bench && nice -n 10 mvn -B -q -Dstyle.color=never package dependency:build-classpath -Dmdep.outputFile=target/cp.txt)
CP="java/bench/target/classes:$(cat java/bench/target/cp.txt)"
cc -O2 -std=c11 -Iinclude java/tools/cpu-bench.c build-java-native/lib-x86_64/libfastsm2.a -o "$OUT/cpu-bench" -pthread

jmh() { # threads
  java -cp "$CP" org.openjdk.jmh.Main 'SM2Bench|SM4Bench' $JMH_OPTS -t "$1" -rf json -rff "$OUT/jmh-t$1.json" \
    >"$OUT/jmh-t$1.log" 2>&1 || { tail -30 "$OUT/jmh-t$1.log"; exit 1; }
  if grep -q "<failure>" "$OUT/jmh-t$1.log"; then
    grep -m1 -A8 "<failure>" "$OUT/jmh-t$1.log"
    echo "bench-java: a benchmark failed (see $OUT/jmh-t$1.log)" >&2
    exit 1
  fi
}
echo "bench-java: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -n 1)"
if [ "${BENCH_JMH:-1}" = 1 ]; then
  rm -f "$OUT"/jmh-t*.json
  jmh 1
  [ "${BENCH_THREADS:-1}" = 1 ] || jmh "$BENCH_THREADS"
fi
rm -f "$OUT"/cpu-*.txt
for r in $(seq "${CPU_ROUNDS:-3}"); do
  "$OUT/cpu-bench" "$CPU_SECONDS" >"$OUT/cpu-c$r.txt"
  java -cp "$CP" org.fastsm2.bench.CpuTime "$CPU_WARM" "$CPU_SECONDS" thread >"$OUT/cpu-java$r.txt"
done
if [ "${BENCH_LEGACY:-0}" = 1 ]; then
  java -cp "$CP" org.fastsm2.bench.CpuTime 0.25 0.5 process sign,verify >"$OUT/cpu-legacy.txt"
fi
python3 java/tools/bench_table.py "$OUT" | tee "$OUT/table.md"
