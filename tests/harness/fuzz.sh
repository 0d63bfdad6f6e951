#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make fuzz` / `make fuzz-brief`: build the libFuzzer targets of fuzz/ with
# clang (the whole library instrumented, ASan + UBSan, every backend
# compiled in) and run each for FUZZ_SECONDS, that time shared among the
# backends this CPU can run (FASTSM2_CPU=<name>, the list from `fastsm2
# version --backends`), one corpus carried from one backend to the next.
#
#   tests/harness/fuzz.sh [BUILD_DIR]        (default build-fuzz)
#   FUZZ_SECONDS=60                  seconds per target, all backends together
#   FUZZ_SECONDS_<target>=N          another time for that target
#   FUZZ_TARGETS="sig_der kx"        a subset (default: every fuzz/fuzz_*.c)
#   FUZZ_BACKENDS="generic adx"      a subset of backends
#   tests/harness/fuzz.sh --seeds [BUILD_DIR]  rewrite fuzz/corpus/ from fuzz/make_seeds.c
#
# The committed seeds are in fuzz/corpus/<target>/; what the fuzzer adds
# goes into BUILD_DIR/corpus/<target>/ (not the repository), and a crash
# into BUILD_DIR/crashes/ (the run then fails, printing how to replay it).
# Executions per target and backend are printed and written to
# BUILD_DIR/fuzz-summary.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
SEEDS=0
if [ "${1:-}" = --seeds ]; then
  SEEDS=1
  shift
fi
B=${1:-build-fuzz}
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# clang and its sanitizer and libFuzzer runtimes (Debian: libclang-rt-N-dev)
probe() {
  echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$1/probe.c"
  clang -fsanitize=fuzzer,address,undefined "$1/probe.c" -o "$1/probe" >/dev/null 2>&1
}
mkdir -p "$B"
if ! command -v clang >/dev/null 2>&1 || ! probe "$B"; then
  bash tools/apt-install.sh fuzz clang
  v=$(clang -dumpversion | cut -d. -f1)
  bash tools/apt-install.sh fuzz "libclang-rt-$v-dev" || bash tools/apt-install.sh fuzz libclang-rt-dev
  probe "$B" || { echo "fuzz: clang cannot link -fsanitize=fuzzer" >&2; exit 1; }
fi
# FS2_DEPS_ONLY=1: install, nothing more (make test-all's deps stage, so
# that this stage can run in the background without apt of its own)
[ "${FS2_DEPS_ONLY:-0}" != 1 ] || exit 0

GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
CC=clang cmake -S . -B "$B" "${GEN[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFASTSM2_FUZZ=ON \
  -DFASTSM2_TESTS=OFF -DFASTSM2_CUDA=OFF >/dev/null
cmake --build "$B" -j "$JOBS" --target fuzz_all fastsm2

if [ "$SEEDS" = 1 ]; then
  for src in fuzz/fuzz_*.c; do
    t=$(basename "$src" .c)
    rm -rf "fuzz/corpus/${t#fuzz_}"
    mkdir -p "fuzz/corpus/${t#fuzz_}"
  done
  "$B/fuzz/fuzz_make_seeds" fuzz/corpus
  for f in tests/fixtures/gmssl/*/cert.pem; do
    v=$(basename "$(dirname "$f")")
    cp "$f" "fuzz/corpus/cert/gmssl-$v.pem"
  done
  # certificates, requests and CMS messages other tools made (tests/fixtures/pki)
  for f in tests/fixtures/pki/*/*.pem tests/fixtures/pki/*/*.csr; do
    cp "$f" "fuzz/corpus/x509/$(basename "$(dirname "$f")")-$(basename "$f")"
  done
  for f in tests/fixtures/pki/*/*.cms; do
    cp "$f" "fuzz/corpus/cms/$(basename "$(dirname "$f")")-$(basename "$f")"
  done
  echo "fuzz: seeds written to fuzz/corpus/"
  exit 0
fi

targets=${FUZZ_TARGETS:-$(for s in fuzz/fuzz_*.c; do basename "$s" .c | sed 's/^fuzz_//'; done)}
backends=${FUZZ_BACKENDS:-$("$B/fastsm2" version --backends)}
nb=$(echo "$backends" | wc -w)
summary=$B/fuzz-summary.txt
: >"$summary"
mkdir -p "$B/crashes"
failed=0
for t in $targets; do
  [ -d "fuzz/corpus/$t" ] || { echo "fuzz: no seed corpus fuzz/corpus/$t" >&2; exit 1; }
  v=FUZZ_SECONDS_$t
  per=$(( ${!v:-$SECONDS_PER_TARGET} / nb ))
  [ "$per" -ge 1 ] || per=1
  work=$B/corpus/$t
  mkdir -p "$work"
  for b in $backends; do
    log=$B/fuzz-$t-$b.log
    rc=0
    # -use_value_profile: comparisons guide the search (lengths, tags)
    FASTSM2_CPU=$b "$B/fuzz/fuzz_$t" -max_total_time="$per" -use_value_profile=1 -print_final_stats=1 \
      -artifact_prefix="$B/crashes/$t-$b-" "$work" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    line=$(printf '%-16s %-8s %10s executions  %4ss  cov %s' "$t" "$b" "${runs:-?}" "$per" "${cov:-?}")
    if [ "$rc" != 0 ]; then
      failed=1
      line="$line  FAILED (exit $rc; $log)"
      echo "---- $log" >&2
      grep -E 'ERROR|property failed|runtime error|SUMMARY|Test unit written' "$log" | head -n 20 >&2 || true
      echo "replay: FASTSM2_CPU=$b $B/fuzz/fuzz_$t $B/crashes/$t-$b-<crash file>" >&2
    fi
    echo "$line" | tee -a "$summary"
  done
done
[ "$failed" = 0 ] || { echo "fuzz: a target failed (see above)" >&2; exit 1; }
echo "fuzz: every target ran clean (summary: $summary)"
