#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make speed-peers`: fastsm2 beside the fastest other SM2 libraries, in one
# table of ratios (bench/bench-table.py):
#   - gmsm (github.com/emmansun/gmsm, Go with assembly), the version pinned
#     in bench/peers/gmsm-speed/go.mod (v0.44.0), through the Go module proxy;
#   - GmSSL 3, when GMSSL_SRC names a GmSSL source tree: built out of tree
#     in BUILD/peers/gmssl with its x86-64 assembly (ENABLE_SM2_AMD64,
#     ENABLE_SM3_SSE; on AArch64 its ARM64 options) and timed by
#     bench/peers/gmssl-speed/gmssl_speed.c through its public API.
# The programs run in turn, ROUNDS times each (fastsm2 speed, gmsm-speed,
# gmssl-speed, fastsm2 speed, ...), so that machine noise hits every side
# alike; each keeps its best figure and the table sets them side by side.
# Every program checks its results before timing (signatures verify,
# ciphertexts decrypt) and exits 1 on a wrong one.
#
# usage: [GMSSL_SRC=DIR [GMSSL_BUILD=DIR]] bench/peers/speed-peers.sh [BUILD_DIR] [SECONDS] [ROUNDS]
set -eu
BUILD=${1:-build}
SECONDS_PER=${2:-0.5}
ROUNDS=${3:-3}
PEER_OPS=keygen,keygen-sign,sign,verify,sign-digest,verify-digest,encrypt-32,decrypt-32,encrypt-4096,decrypt-4096,encrypt-1048576,decrypt-1048576,sm3-8192
# fastsm2 also times its batch API on one thread (no peer row: set it
# beside GmSSL's sign context, which draws 32 nonces at a time)
OPS=$PEER_OPS,sign-digest-batch,verify-digest-batch
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$BUILD/fastsm2" ] || { echo "speed-peers: $BUILD/fastsm2 not built (make build)" >&2; exit 1; }
OUT=$(cd "$BUILD" && pwd)
PEERS=""

GO=$(command -v go || true)
[ -n "$GO" ] || [ ! -x /usr/local/go/bin/go ] || GO=/usr/local/go/bin/go
if [ -n "$GO" ]; then
    (cd "$ROOT/bench/peers/gmsm-speed" && "$GO" build -o "$OUT/gmsm-speed" .)
    PEERS="$PEERS gmsm"
else
    echo "speed-peers: no Go toolchain: gmsm left out (make build-tools installs one)" >&2
fi

if [ -n "${GMSSL_SRC:-}" ]; then
    [ -f "$GMSSL_SRC/include/gmssl/sm2.h" ] || { echo "speed-peers: GMSSL_SRC=$GMSSL_SRC is no GmSSL tree" >&2; exit 1; }
    case $(uname -m) in
    x86_64) GM_OPTS="-DENABLE_SM2_AMD64=ON -DENABLE_SM3_SSE=ON" ;;
    aarch64) GM_OPTS="-DENABLE_SM2_ARM64=ON -DENABLE_SM3_ARM64=ON" ;;
    *) GM_OPTS="" ;;
    esac
    # GMSSL_BUILD: a build of that tree made with the options below (e.g.
    # ~/.cache/fastsm2/gmssl-build), used as it is instead of building again
    GB="${GMSSL_BUILD:-$OUT/peers/gmssl}"
    if [ -z "${GMSSL_BUILD:-}" ] || [ ! -f "$GB/bin/libgmssl.a" ]; then
        mkdir -p "$GB"
        GEN=""
        command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"
        # shellcheck disable=SC2086
        cmake -S "$GMSSL_SRC" -B "$GB" $GEN -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF $GM_OPTS \
            -DENABLE_TLS=OFF -DENABLE_QUIC=OFF >"$GB.cmake.log" 2>&1 ||
            { cat "$GB.cmake.log" >&2; exit 1; }
        cmake --build "$GB" -j "${JOBS:-2}" --target gmssl >"$GB.build.log" 2>&1 || { tail -20 "$GB.build.log" >&2; exit 1; }
    fi
    ${CC:-cc} -O2 -I"$GMSSL_SRC/include" -I"$GB/include" -o "$OUT/gmssl-speed" \
        "$ROOT/bench/peers/gmssl-speed/gmssl_speed.c" "$GB/bin/libgmssl.a" -lpthread
    PEERS="$PEERS gmssl"
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
i=1
while [ "$i" -le "$ROUNDS" ]; do
    "$BUILD/fastsm2" speed --json --seconds "$SECONDS_PER" --rounds 1 --ops "$OPS" >"$TMP/fastsm2-$i.json"
    for p in $PEERS; do
        "$OUT/$p-speed" --json --seconds "$SECONDS_PER" --rounds 1 --ops "$PEER_OPS" >"$TMP/$p-$i.json"
    done
    i=$((i + 1))
done
[ -z "${KEEP_RUNS:-}" ] || { mkdir -p "$KEEP_RUNS" && cp "$TMP"/*.json "$KEEP_RUNS"/; }
python3 "$ROOT/bench/bench-table.py" "$TMP"/*.json
