#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make speed-peers` (its SM4 half): fastsm2's SM4 beside the fastest other
# SM4 libraries, in one table (bench/peers/sm4-table.py):
#   - fastsm2 speed --sm4, which also times OpenSSL's SM4 and AES-128 in the
#     same process;
#   - gmsm (Go with amd64/arm64 assembly), bench/peers/gmsm-speed's SM4 ops
#     (its own GCM, its CCM and GB/T 17964 XTS), through the Go proxy;
#   - GmSSL 3, when GMSSL_SRC names a GmSSL source tree: built once with its
#     fastest SM4 options (x86-64: ENABLE_SM4_AVX2 (its ENABLE_SM4_CTR_AESNI_AVX
#     names a source file that is not in the tree);
#     AArch64: ENABLE_SM4_ARM64, ENABLE_SM4_CE where the CPU has it) under
#     ~/.cache/fastsm2/gmssl-sm4-build/<its commit or tree hash>, and timed
#     by bench/peers/gmssl-speed/gmssl_sm4_speed.c;
#   - libgcrypt (Debian's libgcrypt20-dev, installed if missing), timed by
#     bench/peers/gcrypt-speed/gcrypt_sm4_speed.c.
# The programs run in turn, ROUNDS times (fastsm2, gmsm, GmSSL, libgcrypt,
# fastsm2, ...), so that machine noise hits each alike; each keeps its best
# figure. Every program checks its results before timing (each mode
# decrypts back; each library's GCM gives RFC 8998's tag); a wrong one
# exits 1. KEEP_RUNS=DIR keeps the JSON runs (docs/benchmarks/sm4/ holds
# the ones docs/SM4.md's table is made from).
#
# A peer whose source or toolchain is absent is left out with a message on
# stderr; fastsm2 and OpenSSL are always there. Not part of make test-all.
#
# usage: [GMSSL_SRC=DIR] bench/peers/speed-peers-sm4.sh [BUILD_DIR] [SECONDS] [ROUNDS]
set -eu
BUILD=${1:-build}
SECONDS_PER=${2:-0.3}
ROUNDS=${3:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$BUILD/fastsm2" ] || { echo "speed-peers-sm4: $BUILD/fastsm2 not built (make build)" >&2; exit 1; }
OUT=$(cd "$BUILD" && pwd)
CACHE=${FS2_CACHE:-$HOME/.cache/fastsm2}
OPS=""
for m in ecb cbc-enc cbc-dec ctr gcm-enc gcm-dec ccm xts; do
    for n in 64 1024 16384; do OPS="$OPS${OPS:+,}sm4-$m-$n"; done
done
PEERS=""

GO=$(command -v go || true)
[ -n "$GO" ] || [ ! -x /usr/local/go/bin/go ] || GO=/usr/local/go/bin/go
if [ -n "$GO" ]; then
    (cd "$ROOT/bench/peers/gmsm-speed" && "$GO" build -o "$OUT/gmsm-speed" .)
    PEERS="$PEERS gmsm"
else
    echo "speed-peers-sm4: no Go toolchain: gmsm left out (make build-tools installs one)" >&2
fi

if [ -n "${GMSSL_SRC:-}" ]; then
    [ -f "$GMSSL_SRC/include/gmssl/sm4.h" ] || { echo "speed-peers-sm4: GMSSL_SRC=$GMSSL_SRC is no GmSSL tree" >&2; exit 1; }
    id=$(git -C "$GMSSL_SRC" rev-parse --short HEAD 2>/dev/null || find "$GMSSL_SRC/src" -name '*.c' -exec cat {} + | cksum | cut -d' ' -f1)
    case $(uname -m) in
    x86_64) GM_OPTS="-DENABLE_SM4_AVX2=ON" ;;
    aarch64) GM_OPTS="-DENABLE_SM4_ARM64=ON"
        grep -q '\bsm4\b' /proc/cpuinfo 2>/dev/null && GM_OPTS="-DENABLE_SM4_CE=ON" ;;
    *) GM_OPTS="" ;;
    esac
    GB=$CACHE/gmssl-sm4-build/$id
    if [ ! -f "$GB/bin/libgmssl.a" ]; then
        mkdir -p "$GB"
        GEN=""
        command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"
        # shellcheck disable=SC2086
        cmake -S "$GMSSL_SRC" -B "$GB" $GEN -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF $GM_OPTS \
            -DENABLE_TLS=OFF -DENABLE_QUIC=OFF >"$GB.cmake.log" 2>&1 || { cat "$GB.cmake.log" >&2; exit 1; }
        cmake --build "$GB" -j "${JOBS:-2}" --target gmssl >"$GB.build.log" 2>&1 || { tail -20 "$GB.build.log" >&2; exit 1; }
    fi
    ${CC:-cc} -O2 -DENABLE_SM4_CCM -DENABLE_SM4_XTS -I"$GMSSL_SRC/include" -I"$GB/include" -o "$OUT/gmssl-speed-sm4" \
        "$ROOT/bench/peers/gmssl-speed/gmssl_sm4_speed.c" "$GB/bin/libgmssl.a" -lpthread
    PEERS="$PEERS gmssl"
else
    echo "speed-peers-sm4: GMSSL_SRC not set: GmSSL left out" >&2
fi

if [ -f /usr/include/gcrypt.h ] || bash "$ROOT/tools/apt-install.sh" speed-peers-sm4 libgcrypt20-dev; then
    ${CC:-cc} -O2 -o "$OUT/libgcrypt-speed-sm4" "$ROOT/bench/peers/gcrypt-speed/gcrypt_sm4_speed.c" -lgcrypt
    PEERS="$PEERS libgcrypt"
else
    echo "speed-peers-sm4: no libgcrypt headers (libgcrypt20-dev) and none installable: libgcrypt left out" >&2
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
i=1
while [ "$i" -le "$ROUNDS" ]; do
    "$BUILD/fastsm2" speed --sm4 --json --seconds "$SECONDS_PER" --rounds 1 >"$TMP/fastsm2-$i.json"
    for p in $PEERS; do
        case $p in
        gmsm) "$OUT/gmsm-speed" --json --seconds "$SECONDS_PER" --rounds 1 --ops "$OPS" >"$TMP/$p-$i.json" ;;
        *) "$OUT/$p-speed-sm4" --json --seconds "$SECONDS_PER" --rounds 1 --ops "$OPS" >"$TMP/$p-$i.json" ;;
        esac
    done
    i=$((i + 1))
done
[ -z "${KEEP_RUNS:-}" ] || { mkdir -p "$KEEP_RUNS" && cp "$TMP"/*.json "$KEEP_RUNS"/; }
python3 "$ROOT/bench/peers/sm4-table.py" "$TMP"/*.json
