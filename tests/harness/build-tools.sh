#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make build-tools`: build the programs that live outside the CMake build,
# so that none of them can stop compiling unnoticed:
#   bench/peers/gmsm-speed   the gmsm benchmark of `make speed-gmsm` (Go, through
#                      the Go module proxy), run once briefly;
# (the aarch64 instruction counter, bench/armcount, is built and run by
# `make bench-aarch64-brief`.)
#
# usage: tests/harness/build-tools.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
mkdir -p "$B"
OUT=$(cd "$B" && pwd)
GO=$(command -v go || true)
[ -n "$GO" ] || [ ! -x /usr/local/go/bin/go ] || GO=/usr/local/go/bin/go
if [ -z "$GO" ]; then
  echo "build-tools: no Go toolchain" >&2
  bash tools/apt-install.sh build-tools golang-go
  GO=$(command -v go)
fi
(cd bench/peers/gmsm-speed && "$GO" vet . && "$GO" build -o "$OUT/gmsm-speed" .)
"$OUT/gmsm-speed" --json --seconds 0.05 --rounds 1 --ops sign,verify >/dev/null
echo "build-tools: gmsm-speed built and ran ($("$GO" version))"
