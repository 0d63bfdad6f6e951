#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-x86-cpus`: the C test programs on x86-64 CPUs this machine is
# not, under qemu-user (qemu-x86_64, TCG; installed from Debian if
# missing), so that what the library picks at run time on those CPUs (its
# default backend, the SM3 path, the order in which tests draw their
# random inputs) is tested on every machine:
#   EPYC-Rome  AVX2, BMI2, ADX, no AVX-512 (a Zen 2): default backend avx2
#   Haswell    AVX2 and BMI2 but no ADX: default backend generic
# Each program runs once per model on the default backend (the programs
# that walk every backend walk those the model has). The shell tests and
# the valgrind test run natively in `make test`.
#
# usage: tests/harness/test-x86-cpus.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$(uname -m)" = x86_64 ] || { echo "test-x86-cpus: not an x86-64 machine, skipped"; exit 0; }
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
  bash tools/apt-install.sh test-x86-cpus qemu-user
fi
[ -x "$B/fastsm2" ] || { echo "test-x86-cpus: build $B first (make build)" >&2; exit 2; }
B=$(cd "$B" && pwd)
mapfile -t progs < <(bash tests/harness/test-programs.sh "$B")
export B
run_one() { # MODEL PROGRAM
  local log
  log=$(mktemp)
  (cd "$B/tests" && qemu-x86_64 -cpu "$1" "./$2" >"$log" 2>&1)
  local rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "ok   $1 $2"
  elif [ "$rc" -eq 77 ]; then # cannot run on this CPU model
    echo "skip $1 $2: $(tail -n 1 "$log")"
  else
    echo "FAIL $1 $2 (replay: cd $B/tests && FS2T_SEED=$FS2T_SEED qemu-x86_64 -cpu $1 ./$2)"
    grep -v 'TCG doesn.t support' "$log" | tail -n 20 | sed 's/^/    /'
  fi
  rm -f "$log"
}
export -f run_one
export FS2T_SEED=${FS2T_SEED:-1}
# test_batch leaves out its fork test, which qemu-user cannot run (threads
# started in the child of a multithreaded process); it runs natively.
export FS2T_QEMU_USER=1
status=0
for spec in EPYC-Rome:avx2 Haswell:generic; do
  model=${spec%%:*}
  want=${spec#*:}
  got=$(qemu-x86_64 -cpu "$model" "$B/fastsm2" version 2>/dev/null | sed -n 's/^backend: //p')
  if [ "$got" != "$want" ]; then
    echo "test-x86-cpus: qemu -cpu $model: default backend '$got', expected '$want'" >&2
    status=1
    continue
  fi
  echo "== qemu -cpu $model (default backend $got): ${#progs[@]} programs"
  printf '%s\n' "${progs[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_one "$0" "$1"' "$model" {} | tee "$B/x86-cpus-$model.log"
  grep -q '^FAIL' "$B/x86-cpus-$model.log" && status=1
done
exit $status
