#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fastsm2 beside gmsm (github.com/emmansun/gmsm, Go with amd64 assembly), the
# other fast open-source SM2: `make speed-gmsm`. Builds bench/peers/gmsm-speed with
# the Go toolchain (its module comes through the Go module proxy), then runs
# `fastsm2 speed --json` and `gmsm-speed --json` in turn, ROUNDS times each
# (machine noise hits both alike), keeps each side's best and prints one
# markdown table with the ratios (bench/bench-table.py --gmsm).
#
# usage: bench/peers/speed-gmsm.sh [BUILD_DIR] [SECONDS] [ROUNDS]
set -eu
BUILD=${1:-build}
SECONDS_PER=${2:-0.5}
ROUNDS=${3:-3}
OPS=keygen,keygen-sign,sign,verify,sign-digest,verify-digest,encrypt-32,decrypt-32,encrypt-4096,decrypt-4096,encrypt-1048576,decrypt-1048576,sm3-8192
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v go >/dev/null 2>&1 || { echo "speed-gmsm: no Go toolchain (go) on PATH" >&2; exit 1; }
[ -x "$BUILD/fastsm2" ] || { echo "speed-gmsm: $BUILD/fastsm2 not built (make build)" >&2; exit 1; }
OUT=$(cd "$BUILD" && pwd)
(cd "$ROOT/bench/peers/gmsm-speed" && go build -o "$OUT/gmsm-speed" .)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
i=1
while [ "$i" -le "$ROUNDS" ]; do
    "$BUILD/fastsm2" speed --json --seconds "$SECONDS_PER" --rounds 1 --ops "$OPS" > "$TMP/fastsm2-$i.json"
    "$BUILD/gmsm-speed" --json --seconds "$SECONDS_PER" --rounds 1 --ops "$OPS" > "$TMP/gmsm-$i.json"
    i=$((i + 1))
done
python3 "$ROOT/bench/bench-table.py" --gmsm "$TMP"/fastsm2-*.json -- "$TMP"/gmsm-*.json
