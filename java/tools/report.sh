#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One line from surefire's reports: "java: N passed, N failed, N skipped (JDK)";
# exits non-zero when a test failed or none ran.
set -euo pipefail
dir=$1
jdk=${2:-}
t=0 f=0 e=0 s=0
for x in "$dir"/TEST-*.xml; do
  [ -f "$x" ] || continue
  line=$(grep -m1 -o '<testsuite [^>]*>' "$x")
  get() { echo "$line" | sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p"; }
  t=$((t + $(get tests))) f=$((f + $(get failures))) e=$((e + $(get errors))) s=$((s + $(get skipped)))
done
# name the skipped tests and why (e.g. the empty ID before the C API has it)
for x in "$dir"/TEST-*.xml; do
  [ -f "$x" ] || continue
  grep -A1 '<testcase name=' "$x" | awk '/<testcase name=/ {match($0, /name="[^"]*"/); n = substr($0, RSTART + 6, RLENGTH - 7)}
    /<skipped/ {sub(/.*Assumption failed: /, ""); print "java: SKIPPED " n ": " $0}'
done
echo "java: $((t - f - e - s)) passed, $((f + e)) failed, $s skipped ($jdk)"
[ "$t" -gt 0 ] && [ $((f + e)) -eq 0 ]
