#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-spark`: fastsm2.spark against a real Spark session (local[2]).
# Installs what is missing: a Java runtime (Debian's openjdk-*-jre-headless,
# 17 or later, as PySpark 4 needs) and, in a project-local virtual
# environment (build-spark/venv, git-ignored), PySpark with pandas and
# pyarrow from PyPI. Builds the fastsm2 wheel from this checkout, installs
# it there as an executor would, and runs python/tests_spark.
#   tests/harness/test-spark.sh bench [ARGS]   runs python/tools/bench_spark.py ARGS
#                                      there instead (`make bench-spark`)
#   FASTSM2_SPARK_BUILD  where to build (default: build-spark)
#   PYSPARK_SPEC         the PySpark requirements, space-separated (default
#                        below); PySpark 3.5 (numpy < 2) also needs
#                        pyarrow < 18: PYSPARK_SPEC="pyspark[sql]==3.5.7 pyarrow<18"
#   PYTEST_ARGS          extra pytest arguments
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${FASTSM2_SPARK_BUILD:-$root/build-spark}
venv=$out/venv
# pandas below 3: PySpark 4.3 warns that it does not fully support pandas 3.
spec=${PYSPARK_SPEC:-pyspark[sql]==4.3.0}

# ---- system packages ---------------------------------------------------------------
bash "$root/tools/install-deps.sh" # gcc, python3, ...
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then
    $SUDO apt-get update -qq
    apt_updated=1
  fi
  $SUDO apt-get install -y -qq --no-install-recommends "$@"
}
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || apt_install python3-venv
python3 - <<'PY' >/dev/null 2>&1 || apt_install python3-dev
import os, sys, sysconfig
sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)
PY

java_major() { # the major version of `java` on PATH, 0 if none
  local v=""
  if command -v java >/dev/null 2>&1; then
    v=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | sed 's/^1\.//' | head -n1)
  fi
  echo "${v:-0}"
}
if [ "$(java_major)" -lt 17 ]; then
  [ "$apt_updated" = 1 ] || { $SUDO apt-get update -qq; apt_updated=1; }
  jre=""
  for v in 21 17 25; do
    if apt-cache show "openjdk-$v-jre-headless" >/dev/null 2>&1; then
      jre=openjdk-$v-jre-headless
      break
    fi
  done
  [ -n "$jre" ] || { echo "test-spark: no openjdk-{17,21,25}-jre-headless in apt" >&2; exit 1; }
  echo "test-spark: installing $jre" >&2
  apt_install "$jre"
  v=${jre#openjdk-}
  v=${v%%-*}
  jhome=$(ls -d /usr/lib/jvm/java-"$v"-openjdk-* | head -n1)
  export JAVA_HOME=$jhome PATH=$jhome/bin:$PATH
fi
echo "test-spark: java $(java_major) ($(command -v java))"

# ---- the virtual environment: PySpark, then the fastsm2 wheel --------------------------
mkdir -p "$out"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
py=$venv/bin/python
read -r -a specs <<<"$spec"
"$py" -m pip install -q --disable-pip-version-check "${specs[@]}" "pandas<3" "setuptools>=61" wheel "cffi>=1.15" "pytest>=7"
rm -rf "$out/dist"
"$py" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps -w "$out/dist" "$root/python"
"$py" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$out"/dist/fastsm2-*.whl

# ---- the benchmark, or the tests ---------------------------------------------------------------------------
cd "$out"
export PYSPARK_PYTHON=$py PYSPARK_DRIVER_PYTHON=$py
export FASTSM2_SOURCE=$root
export FASTSM2_GPU=off
if [ "${1:-}" = bench ]; then
  shift
  exec "$py" "$root/python/tools/bench_spark.py" "$@"
fi
# shellcheck disable=SC2086
"$py" -m pytest -q -p no:cacheprovider "$root/python/tests_spark" ${PYTEST_ARGS:-}
