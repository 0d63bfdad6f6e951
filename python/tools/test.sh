#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-python`: build the fastsm2 Python package from source into a
# project-local virtual environment (build-python/venv, git-ignored) and run
# its pytest suite, with the fastsm2 CLI (built here with CMake) and the
# openssl command line for the cross-checks. Works from a clean clone on a
# fresh Debian machine: installs what is missing with apt (python3-venv,
# python3-dev, a C compiler, and tools/install-deps.sh's list).
#   FASTSM2_PY_BUILD   where to build (default: build-python)
#   PYTEST_ARGS        extra pytest arguments
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${FASTSM2_PY_BUILD:-$root/build-python}
venv=$out/venv
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] || jobs=2

# ---- system packages ---------------------------------------------------------
bash "$root/tools/install-deps.sh" # cmake, ninja, gcc, python3, openssl, ...
need=()
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
python3 - <<'PY' >/dev/null 2>&1 || need+=(python3-dev)
import os, sys, sysconfig
sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)
PY
if [ ${#need[@]} -gt 0 ]; then
  echo "python/tools/test.sh: installing ${need[*]}" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# ---- the CLI and the C benchmark, for the cross-checks --------------------------
mkdir -p "$out"
gen=""
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
cmake -S "$root" -B "$out/cmake" $gen -DCMAKE_BUILD_TYPE=Release -DFASTSM2_TESTS=OFF >/dev/null
cmake --build "$out/cmake" -j "$jobs" --target fastsm2 >/dev/null

# ---- the virtual environment and the package ------------------------------------
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
py=$venv/bin/python
# Build requirements installed once, then a build without isolation (no
# download per run); gmssl is the pure-Python package the interop tests read.
# cryptography: the SM4 interop tests (its SM4 in every mode it has).
"$py" -m pip install -q --disable-pip-version-check "setuptools>=61" wheel "cffi>=1.15" "pytest>=7" "gmssl>=3.2" mypy \
  "cryptography>=42"
"$py" -m pip install -q --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps "$root/python"

# ---- the tests -------------------------------------------------------------------
# Run from outside python/ so that the installed package, not the source
# tree, is imported.
cd "$out"
export FASTSM2_CLI="$out/cmake/fastsm2"
export FASTSM2_SPEED="$out/cmake/fastsm2-speed"
export FASTSM2_SOURCE="$root"
export FASTSM2_TEST_STRICT=1 # a missing tool fails the tests instead of skipping them
# shellcheck disable=SC2086
"$py" -m pytest -q -p no:cacheprovider "$root/python/tests" ${PYTEST_ARGS:-}
