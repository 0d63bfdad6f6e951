#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# By hand (not in make test-all): fastsm2-rustls's example client and server
# against Tongsuo's s_server and s_client (Tongsuo 8.5, the OpenSSL fork
# with RFC 8998's suites) over TCP on localhost, both suites
# (TLS_SM4_GCM_SM3, TLS_SM4_CCM_SM3), curveSM2, sm2sig_sm3, with and
# without client certificates, certificates from the example server's
# --make-pki. Tongsuo is not downloaded here: give a built binary, e.g.
# TONGSUO_BIN=~/.cache/fastsm2/tongsuo/install/bin/tongsuo (built out of
# tree from Tongsuo's public sources). Exits 77 without it.
# docs/RUST.md lists the results.
set -euo pipefail
T=${TONGSUO_BIN:-}
if [ -z "$T" ] || [ ! -x "$T" ]; then
    echo "interop-tongsuo: SKIP: set TONGSUO_BIN to a Tongsuo 8.x binary (tongsuo or openssl)"
    exit 77
fi
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
nice -n 10 cargo build -q -j "${JOBS:-2}" -p fastsm2-rustls --examples
EX=$CARGO_TARGET_DIR/debug/examples
dir=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$dir"
}
trap cleanup EXIT
"$EX/server" --make-pki "$dir"
# Tongsuo wants the leaf alone as -cert and the CA as -cert_chain / -CAfile.
awk '/BEGIN/{n++} n==1' "$dir/chain.pem" > "$dir/leaf.pem"
awk '/BEGIN/{n++} n==1' "$dir/client.pem" > "$dir/client-leaf.pem"
TLS="-tls1_3 -groups SM2 -sigalgs sm2sig_sm3"
fails=0
check() { # name, expected substring, output file
    if grep -q -- "$2" "$3"; then
        echo "interop-tongsuo: ok   $1"
    else
        echo "interop-tongsuo: FAIL $1 (wanted '$2')"
        sed 's/^/    /' "$3" | tail -20
        fails=$((fails + 1))
    fi
}
port() { echo $(( 20000 + RANDOM % 20000 )); }

for suite in TLS_SM4_GCM_SM3 TLS_SM4_CCM_SM3; do
    # 1. fastsm2-rustls client -> Tongsuo s_server (-rev answers each line reversed)
    for auth in none client-cert; do
        p=$(port)
        extra=""
        [ "$auth" = client-cert ] && extra="-Verify 2 -CAfile $dir/ca.pem"
        # shellcheck disable=SC2086
        "$T" s_server -accept "$p" $TLS -ciphersuites "$suite" -cert "$dir/leaf.pem" -key "$dir/key.pem" \
            -cert_chain "$dir/ca.pem" -rev $extra > "$dir/s.$suite.$auth.log" 2>&1 &
        pids+=($!)
        sleep 1
        args=(127.0.0.1 "$p" localhost "$dir/ca.pem" "hello tongsuo $suite")
        [ "$auth" = client-cert ] && args+=("$dir/client.pem" "$dir/client-key.pem")
        FASTSM2_CLIENT_WAIT=5 timeout 30 "$EX/client" "${args[@]}" > "$dir/c.out" 2>&1 || true
        check "rustls client -> s_server, $suite, $auth" "$(echo "hello tongsuo $suite" | rev)" "$dir/c.out"
        check "  (suite negotiated)" "$suite" <(sed 's/TLS13_/TLS_/' "$dir/c.out")
        kill "${pids[-1]}" 2>/dev/null || true
        sleep 0.2
        if grep -qi "unexpected eof" "$dir/s.$suite.$auth.log"; then
            echo "interop-tongsuo: FAIL s_server saw no close_notify ($suite, $auth)"
            fails=$((fails + 1))
        fi
    done
    # 2. Tongsuo s_client -> fastsm2-rustls server
    for auth in none client-cert; do
        p=$(port)
        sargs=("$p" "$dir/chain.pem" "$dir/key.pem")
        [ "$auth" = client-cert ] && sargs+=("$dir/ca.pem")
        "$EX/server" "${sargs[@]}" > "$dir/rs.log" 2>&1 &
        pids+=($!)
        sleep 1
        extra=""
        [ "$auth" = client-cert ] && extra="-cert $dir/client-leaf.pem -key $dir/client-key.pem"
        # shellcheck disable=SC2086
        echo "hello fastsm2 $suite" | timeout 30 "$T" s_client -connect "127.0.0.1:$p" $TLS -ciphersuites "$suite" \
            -CAfile "$dir/ca.pem" -servername localhost -verify_return_error -ign_eof $extra > "$dir/tc.out" 2>&1 || true
        check "s_client -> rustls server, $suite, $auth" "fastsm2-rustls got: hello fastsm2 $suite" "$dir/tc.out"
        check "  (suite negotiated)" "Cipher is $suite" "$dir/tc.out"
        check "  (our chain verified)" "Verify return code: 0 (ok)" "$dir/tc.out"
        kill "${pids[-1]}" 2>/dev/null || true
    done
done
[ "$fails" = 0 ] || { echo "interop-tongsuo: $fails failed"; exit 1; }
echo "interop-tongsuo: OK: both suites, both directions, with and without client certificates"
