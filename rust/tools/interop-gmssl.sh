#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# By hand (not in make test-all): fastsm2-rustls's example client against
# GmSSL 3.x's `tls13_server` with TLS_SM4_GCM_SM3, curveSM2 and sm2sig_sm3,
# with a certificate chain GmSSL makes. GmSSL is not downloaded here: give
# a built `gmssl` binary, e.g. GMSSL_BIN=~/.cache/fastsm2/gmssl-build/bin/gmssl
# (built out of tree from GmSSL's public sources). Exits 77 without it.
# docs/RUST.md lists what works and what fails on GmSSL's side.
set -euo pipefail
G=${GMSSL_BIN:-}
if [ -z "$G" ] || [ ! -x "$G" ]; then
    echo "interop-gmssl: SKIP: set GMSSL_BIN to a gmssl 3.x binary"
    exit 77
fi
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
nice -n 10 cargo build -q -j "${JOBS:-2}" -p fastsm2-rustls --example client
CLIENT=$CARGO_TARGET_DIR/debug/examples/client
dir=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT
cd "$dir"
S="-C CN -ST Beijing -L Haidian -O fastsm2 -OU interop"
"$G" sm2keygen -pass pw -out ca_key.pem >/dev/null
"$G" certgen $S -CN "GmSSL interop CA" -days 30 -key ca_key.pem -pass pw -sig_alg sm2sign-with-sm3 \
    -out ca.pem -key_usage keyCertSign -key_usage cRLSign -ca
"$G" sm2keygen -pass pw -out key.pem >/dev/null
"$G" reqgen $S -CN localhost -key key.pem -pass pw -sig_alg sm2sign-with-sm3 -out req.pem
"$G" reqsign -in req.pem -days 30 -key_usage digitalSignature -cacert ca.pem -key ca_key.pem -pass pw \
    -sig_alg sm2sign-with-sm3 -out cert.pem -ext_key_usage serverAuth -subject_dns_name localhost
cat cert.pem ca.pem > chain.pem
port=$(( 20000 + RANDOM % 20000 ))
"$G" tls13_server -port "$port" -cipher_suite TLS_SM4_GCM_SM3 -supported_group sm2p256v1 -sig_alg sm2sig_sm3 \
    -cert chain.pem -key key.pem -pass pw > server.log 2>&1 &
server_pid=$!
sleep 1
msg="hello GmSSL from fastsm2-rustls $$"
out=$(timeout 30 "$CLIENT" 127.0.0.1 "$port" localhost ca.pem "$msg" 2> client.err) || {
    cat client.err server.log >&2
    echo "interop-gmssl: FAIL"
    exit 1
}
cat client.err
# tls13_server echoes what it receives.
if [ "$out" != "$msg" ]; then
    echo "interop-gmssl: FAIL: got '$out'"
    exit 1
fi
echo "interop-gmssl: OK: rustls client <-> gmssl tls13_server, data echoed"
