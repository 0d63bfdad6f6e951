#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's Java example, run from the jar alone: the jar built by
# `make java` is copied into an empty temporary directory with the example
# (the README's code block after the "java-example" marker) and run there
# with plain `java -cp fastsm2-jca.jar Example.java` (no Maven, no other jar,
# no library installed), on every JDK of the machine that is 11 or newer.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=java/target/fastsm2-jca.jar
[ -f "$JAR" ] || { echo "test-example: $JAR missing (make java)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp "$JAR" "$T/"
awk '/<!-- java-example/ {f=1; next} f && /^```java/ {p=1; next} p && /^```/ {exit} p' README.md >"$T/Example.java"
grep -q "class Example" "$T/Example.java" || { echo "test-example: no example found in README.md" >&2; exit 1; }
n=0
for j in $(command -v java) /usr/lib/jvm/*/bin/java; do
  [ -x "$j" ] || continue
  r=$(readlink -f "$j")
  case " ${seen:-} " in *" $r "*) continue ;; esac
  seen="${seen:-} $r"
  # stdout alone: JDK 24+ adds a warning on stderr about System.load
  # unless --enable-native-access=ALL-UNNAMED is given (docs/JAVA.md)
  out=$(cd "$T" && env -u CLASSPATH "$j" -cp fastsm2-jca.jar Example.java 2>"$T/err") || { cat "$T/err"; echo "test-example: FAILED with $r" >&2; exit 1; }
  grep -q "WARNING: A restricted method" "$T/err" && echo "test-example: (JDK's native-access warning on stderr; none with --enable-native-access=ALL-UNNAMED)"
  [ "$out" = "true secret" ] || { echo "test-example: $r printed '$out', not 'true secret'" >&2; exit 1; }
  echo "test-example: README example from the jar alone: '$out' ($("$j" -version 2>&1 | head -n 1))"
  n=$((n + 1))
done
[ $n -gt 0 ]
