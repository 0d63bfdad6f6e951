#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C/C++ test programs (tests/test_*.c, tests/*/test_*.c*) that are
# built in BUILD_DIR, one a line, as paths under BUILD_DIR/tests (test_x,
# gpu/test_y): what tests/harness/seed-sweep.sh and tests/harness/test-x86-cpus.sh run.
#
# usage: tests/harness/test-programs.sh BUILD_DIR
set -euo pipefail
B=$(cd "$1" && pwd)
cd "$(dirname "$0")/../.."
for src in tests/test_*.c tests/*/test_*.c tests/*/test_*.cpp; do
  [ -f "$src" ] || continue
  rel=${src#tests/}
  rel=${rel%.*}
  if [ -x "$B/tests/$rel" ]; then
    echo "$rel"
  fi
done
