#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Other projects' own SM4 test vectors through fastsm2prov's ciphers: the
# evpciph_sm4.txt of a Tongsuo source tree (TONGSUO_SRC, else the one kept in
# ~/.cache/fastsm2/tongsuo/src) and of an OpenSSL 3.2 or later source tree
# (OPENSSL_SRC), in evp_test's stanza format, run by test_provider_sm4 (each
# way, whole, byte by byte, in pieces and in place). Skipped (77) when there
# is neither.
#
# usage: test_provider_sm4_theirs.sh TEST_PROGRAM MODULE_DIR OUR_VECTORS
set -eu
prog=$1 dir=$2 ours=$3
rel=test/recipes/30-test_evp_data/evpciph_sm4.txt
files=""
for src in "${TONGSUO_SRC:-$HOME/.cache/fastsm2/tongsuo/src}" "${OPENSSL_SRC:-}"; do
    if [ -n "$src" ] && [ -f "$src/$rel" ]; then
        files="$files${files:+:}$src/$rel"
    fi
done
if [ -z "$files" ]; then
    echo "skip: no Tongsuo or OpenSSL source tree (set TONGSUO_SRC or OPENSSL_SRC)"
    exit 77
fi
echo "their vectors: $files"
FS2_EVP_VECTORS=$files exec "$prog" "$dir" "$ours"
