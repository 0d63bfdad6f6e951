#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-spark-java`: the Spark SQL functions of java/spark (sm2_verify,
# sm2_sign, sm3; docs/SPARK.md "From Scala, Java and SQL") in a local[2]
# Spark, on the Spark that `make test-spark` installs (PySpark from PyPI,
# whose jars are a whole Spark: no Spark download from Maven Central).
#   1. java/tools/build.sh jar            java/target/fastsm2-jca.jar (JDK, Maven, native code)
#   2. java/tools/build-spark.sh          java/spark/target/fastsm2-spark.jar, compiled
#                                         against PySpark's jars, and the test classes
#   3. RowsCheck (plain java)             the per-task key cache: private keys and the
#                                         copies of their bytes bounded by the cache, wiped
#                                         when evicted and when the task ends
#   4. spark-submit SparkFunctionsCheck   100,000 rows signed and verified through the
#                                         extension's SQL functions, samples checked with
#                                         the JCA provider and BouncyCastle, bad input,
#                                         SM3 vectors; then FastSM2Functions.register
#   5. docs/SPARK.md's spark-sql example  run as written (--jars, --conf spark.sql.extensions)
#                                         from the repository root, its output compared
#   tests/harness/test-spark-java.sh bench [ARGS]   `make bench-spark-java`:
#       java/spark/tools/bench_spark_jvm.py ARGS (rows/s of the JVM functions beside
#       fastsm2.spark on the same data, one Spark session; needs the fastsm2 wheel too)
#   FASTSM2_SPARK_BUILD  the PySpark environment (default: build-spark, as test-spark)
#   PYSPARK_SPEC         the PySpark to install if missing (default: pyspark[sql]==4.3.0)
#   SPARK_JAVA_ROWS      rows of step 3 (default 100000)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
t0=$(date +%s)
what=${1:-test}
out=${FASTSM2_SPARK_BUILD:-$root/build-spark}
venv=$out/venv
spec=${PYSPARK_SPEC:-pyspark[sql]==4.3.0}

bash java/tools/build.sh jar >/dev/null

# ---- PySpark (its jars are the Spark we compile against and run on) ----
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || bash tools/apt-install.sh test-spark-java python3-venv
mkdir -p "$out"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
py=$venv/bin/python
if ! "$py" -c 'import pyspark' >/dev/null 2>&1; then
  read -r -a specs <<<"$spec"
  "$py" -m pip install -q --disable-pip-version-check "${specs[@]}"
fi
SPARK_HOME=$("$py" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME
echo "test-spark-java: Spark $("$py" -c 'import pyspark; print(pyspark.__version__)') ($SPARK_HOME), $(java -version 2>&1 | head -n 1)"

bash java/tools/build-spark.sh "$SPARK_HOME/jars"
jca=$root/java/target/fastsm2-jca.jar
fs=$root/java/spark/target/fastsm2-spark.jar
export PYSPARK_PYTHON=$py PYSPARK_DRIVER_PYTHON=$py

if [ "$what" = bench ]; then
  shift
  # the Python side of the comparison: the fastsm2 wheel, as test-spark installs it
  if ! "$py" -c 'import fastsm2.spark, pandas, pyarrow' >/dev/null 2>&1; then
    echo "test-spark-java: installing the fastsm2 wheel and pandas/pyarrow (as make test-spark)" >&2
    "$py" -m pip install -q --disable-pip-version-check "${spec%% *}" "pandas<3" "setuptools>=61" wheel "cffi>=1.15"
    rm -rf "$out/dist"
    "$py" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps -w "$out/dist" "$root/python"
    "$py" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$out"/dist/fastsm2-*.whl
  fi
  export FASTSM2_GPU=off
  exec "$py" "$root/java/spark/tools/bench_spark_jvm.py" --jars "$jca,$fs" "$@"
fi

# BouncyCastle (Maven Central, test scope of java/pom.xml, so in ~/.m2 after step 1) checks a sample
bc=$(ls "$HOME"/.m2/repository/org/bouncycastle/bcprov-jdk18on/*/bcprov-jdk18on-*.jar 2>/dev/null | tail -n 1 || true)
jars=$jca,$fs
[ -n "$bc" ] && jars=$jars,$bc
t1=$(date +%s)
nice -n 10 java -cp "$jca:$fs:$root/java/spark/target/fastsm2-spark-tests.jar:$SPARK_HOME/jars/*" \
  org.fastsm2.spark.RowsCheck
echo "test-spark-java: RowsCheck: $(($(date +%s) - t1)) s"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
t1=$(date +%s)
nice -n 10 "$SPARK_HOME/bin/spark-submit" --master "local[2]" --driver-memory 2g \
  --conf spark.ui.enabled=false --conf spark.log.level=WARN --jars "$jars" \
  --class org.fastsm2.spark.SparkFunctionsCheck "$root/java/spark/target/fastsm2-spark-tests.jar" \
  "${SPARK_JAVA_ROWS:-100000}"
echo "test-spark-java: spark-submit run: $(($(date +%s) - t1)) s"

# ---- the docs' example (docs/SPARK.md, the sh block after the marker), run as written from the ----
# ---- repository root with Spark's bin/ on PATH; its last output line must be the text block's   ----
t1=$(date +%s)
cmd=$(awk '/<!-- test-spark-java runs this block/{m=1; next} m==1 && /^```sh$/{m=2; next} m==2 && /^```$/{exit} m==2' "$root/docs/SPARK.md")
want=$(awk '/<!-- test-spark-java runs this block/{m=1; next} m==1 && /^```sh$/{m=2; next} m==2 && /^```$/{m=3; next} m==3 && /^```text$/{m=4; next} m==4 {print; exit}' "$root/docs/SPARK.md")
[ -n "$cmd" ] && [ -n "$want" ] || { echo "test-spark-java: FAIL: no tested example in docs/SPARK.md" >&2; exit 1; }
# in a scratch directory that looks like the repository root (spark-sql leaves metastore_db/ where it runs)
mkdir -p "$work/root"
ln -s "$root/java" "$work/root/java"
got=$(cd "$work/root" && PATH=$SPARK_HOME/bin:$PATH nice -n 10 bash -euo pipefail -c "$cmd" 2>"$work/spark-sql.log" | tail -n 1) || {
  tail -n 30 "$work/spark-sql.log" >&2
  exit 1
}
if [ "$got" != "$want" ]; then
  echo "test-spark-java: FAIL: the docs/SPARK.md example printed '$got', not '$want'" >&2
  tail -n 30 "$work/spark-sql.log" >&2
  exit 1
fi
echo "test-spark-java: the docs/SPARK.md spark-sql example (--jars, --conf spark.sql.extensions): OK ($(($(date +%s) - t1)) s)"
echo "test-spark-java: passed in $(($(date +%s) - t0)) s"
