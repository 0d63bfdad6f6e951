#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make bench-js`: build (js/tools/build.sh, no arm64), then bench/bench.mjs.
set -euo pipefail
js=$(cd "$(dirname "$0")/.." && pwd)
bash "$js/tools/build.sh" --no-arm64 >/dev/null
cd "$js"
node bench/bench.mjs
