#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# java/spark/target/fastsm2-spark.jar: the Spark SQL functions (java/spark/src/main),
# compiled with javac against a Spark's jars (the directory given: a Spark
# installation's jars/, or PySpark's pyspark/jars), Spark 4.x / Scala 2.13;
# and java/spark/target/fastsm2-spark-tests.jar (java/spark/src/test).
# Needs java/target/fastsm2-jca.jar (java/tools/build.sh jar).
#   java/tools/build-spark.sh SPARK_JARS_DIR
set -euo pipefail
jars=${1:?usage: $0 SPARK_JARS_DIR}
jars=$(cd "$jars" && pwd)
cd "$(dirname "$0")/.."
ls "$jars"/spark-sql_2.13-*.jar >/dev/null 2>&1 || {
  echo "build-spark: no spark-sql_2.13 jar in $jars (Spark 4.x, Scala 2.13 needed)" >&2
  exit 1
}
[ -f target/fastsm2-jca.jar ] || { echo "build-spark: build java/target/fastsm2-jca.jar first (make java)" >&2; exit 1; }
out=spark/target
rm -rf "$out/classes" "$out/test-classes"
mkdir -p "$out/classes" "$out/test-classes"
cp=target/fastsm2-jca.jar:$jars/*
nice -n 10 javac -nowarn -encoding UTF-8 --release 17 -d "$out/classes" -cp "$cp" \
  $(find spark/src/main/java -name '*.java' | sort)
jar --create --file "$out/fastsm2-spark.jar" \
  --manifest=<(printf 'Automatic-Module-Name: org.fastsm2.spark\nImplementation-Title: fastsm2-spark\nImplementation-Version: %s\n' \
    "$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n 1)") \
  -C "$out/classes" .
nice -n 10 javac -nowarn -encoding UTF-8 --release 17 -d "$out/test-classes" -cp "$out/classes:$cp" \
  $(find spark/src/test/java -name '*.java' | sort)
jar --create --file "$out/fastsm2-spark-tests.jar" -C "$out/test-classes" .
ls -l "$out/fastsm2-spark.jar"
