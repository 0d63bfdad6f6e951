#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run test stages (Makefile targets) one after another, one line per stage
# with its time, and a summary at the end. `make test` and `make test-all`
# call this with their stage lists.
#
#   tests/harness/stages.sh STAGE...
#
# Each stage is `make <stage>`; its output goes to build-logs/<stage>.log
# (STAGES_VERBOSE=1 also shows it as it runs). A stage that runs for more
# than a minute prints a line each minute, so that nothing is silent for
# long. A failed stage prints the end of its log; the later stages still
# run, and the exit status is 1 if any stage failed.
#
# STAGES_BACKGROUND="STAGE..." names stages (of those given) that run in
# the background instead, niced, all started when the first stage (deps)
# has ended: a stage that keeps one core busy for minutes (a compiler, the
# fuzzer, the GPU simulator) then takes the time the other stages leave
# idle. They are waited for at the end and reported like the others. Such
# a stage must share no build directory, file or port with the others,
# and run no apt (deps installs what it needs first).
#
# The tests draw their random inputs from FS2T_SEED. When it is not set, a
# fresh seed is drawn here and printed: a failure is replayed with
#   make test FS2T_SEED=<the printed value>
set -uo pipefail
cd "$(dirname "$0")/../.."

LOGS=${STAGES_LOGS:-build-logs}
mkdir -p "$LOGS"
if [ -z "${FS2T_SEED:-}" ]; then
  FS2T_SEED=0x$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n')
fi
export FS2T_SEED
echo "stages: FS2T_SEED=$FS2T_SEED (replay a failure with: make <target> FS2T_SEED=$FS2T_SEED)"

# cpu_of FILE: the CPU seconds (user + system) in the output of bash's
# `times` that FILE holds (its second line: the children's), "" if none
cpu_of() {
  [ -f "$1" ] || return 0
  sed -n 2p "$1" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d\n", s + 0.5 }'
}

fmt_time() { # seconds -> "1m05s" or "12s"
  local s=$1
  if [ "$s" -ge 60 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# Tests a stage skipped (could not run here: exit 77), counted from its log:
# ctest's "***Skipped" lines, pytest's "N skipped" summaries and the
# "skip ..." lines of the scripts that run test programs themselves.
count_skips() {
  local n
  n=$(grep -c -e '\*\*\*Skipped' -e '^skip ' "$1" 2>/dev/null)
  n=$((${n:-0} + $(grep -E '^=+ .*[0-9]+ skipped' "$1" 2>/dev/null |
    sed -E 's/.* ([0-9]+) skipped.*/\1/' | awk '{s += $1} END {print s + 0}')))
  echo "$n"
}

total=$#
skips_all=0
i=0
failed=()
summary=()
start_all=$(date +%s)
is_bg() { case " ${STAGES_BACKGROUND:-} " in *" $1 "*) return 0 ;; esac; return 1; }
bg_stages=()
for stage in "$@"; do
  is_bg "$stage" && bg_stages+=("$stage")
done
bg_start=0
start_bg() { # after the first stage (deps: what gets installed is there)
  local stage
  bg_start=$(date +%s)
  for stage in "${bg_stages[@]}"; do
    rm -f "$LOGS/$stage.rc" "$LOGS/$stage.end"
    (
      nice -n 10 make --no-print-directory "$stage" >"$LOGS/$stage.log" 2>&1
      echo $? >"$LOGS/$stage.rc"
      times >"$LOGS/$stage.times"
      date +%s >"$LOGS/$stage.end"
    ) &
    echo "[bg] $stage started in the background (log: $LOGS/$stage.log)"
  done
}

# report STAGE RC SECONDS: the stage's line and its summary entry (with the
# CPU time its processes took, of the cores' time: where it is well below
# twice the wall time, a core was left idle)
report() {
  local stage=$1 rc=$2 took=$3 log=$LOGS/$1.log skips extra="" cpu
  skips=$(count_skips "$log")
  skips_all=$((skips_all + skips))
  cpu=$(cpu_of "$LOGS/$stage.times")
  [ -n "$cpu" ] && extra=", cpu $(fmt_time "$cpu")"
  [ "$skips" -gt 0 ] && extra="$extra, $skips tests skipped"
  if [ "$rc" -eq 0 ]; then
    echo "ok ($(fmt_time "$took")$extra)"
    summary+=("$(printf '  ok    %-16s %8s%s' "$stage" "$(fmt_time "$took")" "$extra")")
  else
    echo "FAILED ($(fmt_time "$took"), exit $rc; log: $log)"
    summary+=("$(printf '  FAIL  %-16s %8s   %s' "$stage" "$(fmt_time "$took")" "$log")")
    failed+=("$stage")
    if [ "${STAGES_VERBOSE:-0}" != 1 ]; then
      lines=${STAGES_TAIL:-60}
      [ -n "${CI:-}" ] && lines=400
      echo "---- last $lines lines of $log"
      tail -n "$lines" "$log"
      echo "---- end of $log"
    fi
  fi
}

for stage in "$@"; do
  is_bg "$stage" && continue
  i=$((i + 1))
  log=$LOGS/$stage.log
  printf '[%d/%d] %-16s ... ' "$i" "$total" "$stage"
  start=$(date +%s)
  rm -f "$LOGS/$stage.times"
  if [ "${STAGES_VERBOSE:-0}" = 1 ]; then
    echo
    make --no-print-directory "$stage" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
  else
    (
      make --no-print-directory "$stage" >"$log" 2>&1
      rc=$?
      times >"$LOGS/$stage.times"
      exit $rc
    ) &
    pid=$!
    # a line a minute while the stage runs
    (
      n=0
      while sleep 60; do
        n=$((n + 1))
        printf '\n        %s still running (%s)... ' "$stage" "$(fmt_time $((n * 60)))"
      done
    ) &
    ticker=$!
    wait "$pid"
    rc=$?
    kill "$ticker" 2>/dev/null
    wait "$ticker" 2>/dev/null
  fi
  report "$stage" "$rc" $(($(date +%s) - start))
  [ "$i" = 1 ] && [ ${#bg_stages[@]} -gt 0 ] && start_bg
done
[ "$bg_start" = 0 ] && [ ${#bg_stages[@]} -gt 0 ] && start_bg
for stage in "${bg_stages[@]}"; do
  i=$((i + 1))
  printf '[%d/%d] %-16s ... (background) ' "$i" "$total" "$stage"
  waited=$(date +%s)
  while [ ! -f "$LOGS/$stage.end" ]; do
    sleep 5
  done
  [ "$(($(date +%s) - waited))" -ge 10 ] && printf '(waited %s) ' "$(fmt_time $(($(date +%s) - waited)))"
  report "$stage" "$(cat "$LOGS/$stage.rc")" $(($(cat "$LOGS/$stage.end") - bg_start))
done
wait

echo
echo "summary (FS2T_SEED=$FS2T_SEED, $(fmt_time $(($(date +%s) - start_all))) in all):"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all $total stages passed ($skips_all tests skipped: they could not run here; the logs say why)"
