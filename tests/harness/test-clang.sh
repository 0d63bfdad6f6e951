#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-clang`: the library, the CLI and the tests built with clang
# (installed from Debian if missing), warnings as errors when WERROR=ON, and
# the suite run on the default backend and on every other one this CPU can
# run. The valgrind constant-time test runs over every backend too: clang's
# optimiser is the one that turns masks back into branches when it can.
#
# usage: tests/harness/test-clang.sh [BUILD_DIR]     (default build-clang)
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build-clang}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
if ! command -v clang >/dev/null 2>&1; then
  bash tools/apt-install.sh test-clang clang
fi
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
CC=clang CXX=clang++ cmake -S . -B "$B" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DFASTSM2_WERROR="${WERROR:-OFF}" -DFASTSM2_CUDA=OFF
cmake --build "$B" -j "$JOBS"
echo "== clang $(clang -dumpversion): the suite on the default backend"
(cd "$B" && ctest --output-on-failure -j "$JOBS")
bash tests/harness/test-backends.sh "$B"
