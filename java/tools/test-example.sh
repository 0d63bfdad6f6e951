#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The docs' Java examples, run from the jar alone: the jar built by
# `make java` is copied into an empty temporary directory with each example
# (the ```java block after its marker) and run there with plain
# `java -cp fastsm2-jca.jar Name.java` (no Maven, no other jar, no library
# installed), on every JDK of the machine that is 11 or newer:
#   README.md      <!-- java-example ...      Example.java      prints "true secret"
#   docs/JAVA.md   <!-- java-sm4-example ...  SM4Example.java   prints "secret secret"
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=java/target/fastsm2-jca.jar
[ -f "$JAR" ] || { echo "test-example: $JAR missing (make java)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp "$JAR" "$T/"
run() { # file marker class expected
  local file=$1 marker=$2 cls=$3 want=$4
  awk -v m="<!-- $marker" 'index($0, m) == 1 {f=1; next} f && /^```java/ {p=1; next} p && /^```/ {exit} p' "$file" >"$T/$cls.java"
  grep -q "class $cls" "$T/$cls.java" || { echo "test-example: no $cls example found in $file" >&2; exit 1; }
  local n=0 seen="" j r out
  for j in $(command -v java) /usr/lib/jvm/*/bin/java; do
    [ -x "$j" ] || continue
    r=$(readlink -f "$j")
    case " $seen " in *" $r "*) continue ;; esac
    seen="$seen $r"
    # stdout alone: JDK 24+ adds a warning on stderr about System.load
    # unless --enable-native-access=ALL-UNNAMED is given (docs/JAVA.md)
    out=$(cd "$T" && env -u CLASSPATH "$j" -cp fastsm2-jca.jar "$cls.java" 2>"$T/err") || {
      cat "$T/err"
      echo "test-example: $file's $cls FAILED with $r" >&2
      exit 1
    }
    grep -q "WARNING: A restricted method" "$T/err" && echo "test-example: (JDK's native-access warning on stderr; none with --enable-native-access=ALL-UNNAMED)"
    [ "$out" = "$want" ] || { echo "test-example: $file's $cls with $r printed '$out', not '$want'" >&2; exit 1; }
    echo "test-example: $file's $cls from the jar alone: '$out' ($("$j" -version 2>&1 | head -n 1))"
    n=$((n + 1))
  done
  [ $n -gt 0 ]
}
run README.md java-example Example "true secret"
run docs/JAVA.md java-sm4-example SM4Example "secret secret"
