#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make seed-sweep`: every C/C++ test program (tests/test_*.c and
# tests/*/test_*.c*) under N fresh
# random seeds (FS2T_SEED), on every backend this CPU can run (FASTSM2_CPU),
# to find tests that can fail by chance. Each failure prints the command
# that replays it. The shell tests draw from /dev/urandom, not the seed,
# and the valgrind test has no random input: they are not swept.
#
# usage: tests/harness/seed-sweep.sh [BUILD_DIR] [N]     (defaults: build, 100)
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
N=${2:-100}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[ -x "$B/fastsm2" ] || { echo "seed-sweep: build $B first (make build)" >&2; exit 2; }
B=$(cd "$B" && pwd)
mapfile -t progs < <(bash tests/harness/test-programs.sh "$B") # paths under $B/tests: test_x, gpu/test_y
backends=$("$B/fastsm2" version --backends | tr "\n" " ")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# one job per (seed, backend): every program in turn
for s in $(seq 1 "$N"); do
  seed=0x$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n')
  for b in $backends; do echo "$seed $b"; done
done >"$out/jobs"
export B out
export PROGS="${progs[*]}"
run_job() {
  local seed=$1 b=$2 p
  for p in $PROGS; do
    local log=$out/${p//\//_}-$seed-$b.log
    (cd "$B/tests" && FS2T_SEED=$seed FASTSM2_CPU=$b "./$p" >"$log" 2>&1)
    local rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then # 77: cannot run here, skipped
      echo "FAIL: (cd $B/tests && FS2T_SEED=$seed FASTSM2_CPU=$b ./$p)"
      tail -n 5 "$log" | sed 's/^/    /'
    fi
    rm -f "$log"
  done
}
export -f run_job
start=$(date +%s)
xargs -P "$JOBS" -L 1 bash -c 'run_job "$@"' _ <"$out/jobs" | tee "$out/fails"
runs=$(($(wc -l <"$out/jobs") * ${#progs[@]}))
nfail=$(grep -c '^FAIL' "$out/fails" || true)
echo "seed-sweep: $N seeds x backends ($backends) x ${#progs[@]} programs = $runs runs," \
  "$nfail failed, $(($(date +%s) - start)) s"
[ "$nfail" -eq 0 ]
