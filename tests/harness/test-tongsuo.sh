#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-tongsuo` / `make bench-tongsuo`: fastsm2prov inside Tongsuo
# (OpenSSL 3's fork with TLCP, GB/T 38636, "NTLS"), docs/PROVIDER.md
# "Tongsuo":
#   - the signer ID: certificates fastsm2's CLI makes (default ID) verify in
#     `tongsuo verify` with the provider loaded, as without it, and Tongsuo's
#     certificates verify in `fastsm2 certverify`;
#   - TLCP handshakes between `s_server -enable_ntls` and `s_client
#     -enable_ntls -ntls`, both SM2 certificate pairs (signing and
#     encryption) made by fastsm2's CLI, with ECC-SM2-SM4-CBC-SM3,
#     ECC-SM2-SM4-GCM-SM3, ECDHE-SM2-SM4-CBC-SM3 and ECDHE-SM2-SM4-GCM-SM3
#     (the ECDHE suites with a client certificate pair), the provider loaded
#     in the server, the client, both and neither, the client's data
#     arriving at the server;
#   - bench: handshakes per second of one client process (tlcp_bench.c, N
#     handshakes in a loop) and the server's CPU time per handshake
#     (/proc/PID/stat), the provider in neither side, the server, both,
#     alternating, in one run.
#
#   tests/harness/test-tongsuo.sh [test | bench] [BUILD_DIR]
#
# Tongsuo is on no package registry, so this script never downloads it: it
# builds it once from TONGSUO_SRC=<a Tongsuo source tree (8.4 or later)> or
# from a tree already in ~/.cache/fastsm2/tongsuo/src, installs it into
# ~/.cache/fastsm2/tongsuo/install, and exits 77 (skipped) when there is
# neither. The provider is BUILD_DIR's (default build/).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
MODE=${1:-test}
BUILD=$(cd "${2:-build}" && pwd)
CACHE=${FS2_CACHE:-$HOME/.cache/fastsm2}
TS=$CACHE/tongsuo
PREFIX=$TS/install
JOBS=${JOBS:-2}
start=$(date +%s)

skip() {
  echo "skip test-tongsuo $MODE: $*"
  exit 77
}

# ---- 1. the source and the build ------------------------------------------
if [ ! -x "$PREFIX/bin/tongsuo" ] || [ ! -f "$PREFIX/.fastsm2-built" ]; then
  if [ ! -f "$TS/src/Configure" ]; then
    if [ -n "${TONGSUO_SRC:-}" ] && [ -f "$TONGSUO_SRC/Configure" ]; then
      echo "test-tongsuo: copying Tongsuo from $TONGSUO_SRC into $TS/src"
      mkdir -p "$TS"
      rm -rf "$TS/src.tmp"
      cp -a "$TONGSUO_SRC" "$TS/src.tmp"
      mv "$TS/src.tmp" "$TS/src"
    else
      skip "no Tongsuo source: set TONGSUO_SRC to a checkout of Tongsuo-Project/Tongsuo (8.4 or later), or" \
        "put one in $TS/src (it is not on a package registry, so this script does not download it)"
    fi
  fi
  command -v perl >/dev/null || skip "perl is needed by Tongsuo's Configure"
  echo "test-tongsuo: building Tongsuo ($(sed -n 's/^TONGSUO_\(MAJOR\|MINOR\|PATCH\)=//p' "$TS/src/VERSION.dat" | paste -sd.)) into $PREFIX (once)"
  (
    cd "$TS/src"
    nice -n 10 ./config --prefix="$PREFIX" --libdir=lib enable-ntls no-tests \
      "-Wl,-rpath,$PREFIX/lib" >"$TS/build.log" 2>&1
    nice -n 10 make -j"$JOBS" build_sw >>"$TS/build.log" 2>&1
        make install_sw install_ssldirs >>"$TS/build.log" 2>&1
  ) || { tail -30 "$TS/build.log" >&2; echo "test-tongsuo: the Tongsuo build failed (log $TS/build.log)" >&2; exit 1; }
  touch "$PREFIX/.fastsm2-built"
fi
TSO=$PREFIX/bin/tongsuo
"$TSO" version
MOD=$BUILD/provider
[ -f "$MOD/fastsm2prov.so" ] || { echo "test-tongsuo: no $MOD/fastsm2prov.so (build first)" >&2; exit 1; }
FS=$BUILD/fastsm2
[ -x "$FS" ] || { echo "test-tongsuo: no $FS" >&2; exit 1; }
P=(-provider-path "$MOD" -provider fastsm2prov -provider default -propquery '?provider=fastsm2prov')

W=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$W"
}
trap cleanup EXIT
cd "$W"
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); }
bad() {
  FAIL=$((FAIL + 1))
  echo "FAIL: $*" >&2
}
check() {
  local name=$1
  shift
  if "$@" >check.out 2>&1 </dev/null; then ok; else bad "$name: $(tail -5 check.out)"; fi
}

# ---- 2. certificates made by fastsm2's CLI: a CA and two TLCP pairs -----------
"$FS" keygen --out ca.key
"$FS" certgen --key ca.key --subject "/C=CN/O=fastsm2/CN=TLCP test CA" --ca --usage ca --days 30 --out ca.pem
for who in server client; do
  for use in sign enc; do
    "$FS" keygen --out "$who-$use.key"
    "$FS" reqgen --key "$who-$use.key" --subject "/C=CN/O=fastsm2/CN=$who.example/OU=$use" --usage "$use" \
      --san "DNS:$who.example" --out "$who-$use.csr"
    "$FS" reqsign --in "$who-$use.csr" --ca-cert ca.pem --ca-key ca.key --copy-extensions --days 30 \
      --out "$who-$use.pem"
  done
done

# ---- 3. the signer ID: the same verdicts with and without the provider -------
if [ "$MODE" = test ]; then
    check "tongsuo verify" "$TSO" verify -CAfile ca.pem server-sign.pem
  check "tongsuo verify, fastsm2prov" "$TSO" verify "${P[@]}" -CAfile ca.pem server-sign.pem
  # a certificate signed with the empty ID: refused both ways (the provider
  # gives Tongsuo the default ID, as Tongsuo's own code does)
  "$FS" certgen --pub <("$FS" pubkey --key server-sign.key) --ca-cert ca.pem --ca-key ca.key --subject /CN=empty-id \
    --id '' --out emptyid.pem
  if "$TSO" verify -CAfile ca.pem emptyid.pem >/dev/null 2>&1; then bad "tongsuo verified an empty-ID signature"; else ok; fi
  if "$TSO" verify "${P[@]}" -CAfile ca.pem emptyid.pem >/dev/null 2>&1; then
    bad "fastsm2prov in tongsuo verified an empty-ID signature"
  else ok; fi
  # Tongsuo's own certificates, signed without a distid, in fastsm2
  "$TSO" genpkey -algorithm SM2 -out t.key 2>/dev/null
  check "tongsuo req -x509" "$TSO" req -new -x509 -key t.key -sm3 -subj /CN=tongsuo -days 5 -out t.pem
  check "fastsm2 certverify tongsuo's" "$FS" certverify --in t.pem --ca-file t.pem
  check "tongsuo req -x509, fastsm2prov signing" "$TSO" req "${P[@]}" -new -x509 -key t.key -sm3 -subj /CN=ts-prov \
    -days 5 -out tp.pem
  check "fastsm2 certverify tongsuo+fastsm2prov's" "$FS" certverify --in tp.pem --ca-file tp.pem
  check "tongsuo verify tongsuo+fastsm2prov's" "$TSO" verify -CAfile tp.pem tp.pem
  # the provider's own report of its rule
  "$TSO" list -providers -verbose "${P[@]}" >prov.txt 2>&1 || true
  grep -q fastsm2prov prov.txt && ok || bad "tongsuo did not load fastsm2prov: $(cat prov.txt)"
fi

# ---- 4. TLCP handshakes ---------------------------------------------------------
port=$((20000 + RANDOM % 20000))
SUITES=(ECC-SM2-SM4-CBC-SM3 ECC-SM2-SM4-GCM-SM3 ECDHE-SM2-SM4-CBC-SM3 ECDHE-SM2-SM4-GCM-SM3)
server_start() { # PROVIDER(0/1, 2: through docs/PROVIDER.md's tongsuo.cnf) SUITE [extra server options]
  local prov=$1 suite=$2
  shift 2
  local po=() conf=()
  [ "$prov" = 1 ] && po=("${P[@]}")
  [ "$prov" = 2 ] && conf=(OPENSSL_CONF="$W/tongsuo.cnf")
  port=$((port + 1))
  # its stdin kept open (a FIFO held by fd 9): s_server stops at end of input
  rm -f server.in
  mkfifo server.in
  exec 9<>server.in
  env "${conf[@]}" "$TSO" s_server "${po[@]}" -enable_ntls -accept "$port" -cipher "$suite" \
    -sign_cert server-sign.pem -sign_key server-sign.key -enc_cert server-enc.pem -enc_key server-enc.key \
            -CAfile ca.pem -verify 1 "$@" <server.in >server.log 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do # ready when it says ACCEPT (a probe connection would log an error)
    grep -q '^ACCEPT' server.log 2>/dev/null && return 0
    sleep 0.1
  done
  bad "s_server did not start: $(tail -5 server.log)"
  return 1
}
server_stop() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
  exec 9>&-
}
client() { # PROVIDER(0/1) SUITE MESSAGE: prints what comes back
  local prov=$1 suite=$2 msg=$3
  local po=()
  [ "$prov" = 1 ] && po=("${P[@]}")
  (echo "$msg"; sleep 1) | timeout 20 "$TSO" s_client "${po[@]}" -enable_ntls -ntls -connect "127.0.0.1:$port" \
    -cipher "$suite" -sign_cert client-sign.pem -sign_key client-sign.key -enc_cert client-enc.pem \
    -enc_key client-enc.key -CAfile ca.pem -verify_return_error -quiet -no_ign_eof 2>client.err
}

if [ "$MODE" = test ]; then
  for suite in "${SUITES[@]}"; do
    for sp in 0 1; do
      for cp in 0 1; do
        server_start "$sp" "$suite" || continue
        msg="fastsm2 TLCP $suite server-prov=$sp client-prov=$cp $$"
        got=$(client "$cp" "$suite" "$msg" || true)
                # the server prints the suite and the data; the client leaves
        # without close_notify (an "unexpected eof" the server logs after)
        if grep -q -i ":error:\|alert" client.err; then
          bad "$suite server-prov=$sp client-prov=$cp: $(grep -i 'error\|alert' client.err server.log | head -3)"
        elif ! grep -q "^CIPHER is $suite" server.log || ! grep -q "$msg" server.log; then
          bad "$suite server-prov=$sp client-prov=$cp: the server did not get the data: $(tail -3 server.log) $(tail -3 client.err)"
        else
          ok
          echo "TLCP $suite server provider=$sp client provider=$cp: handshake and data OK"
        fi
        : "$got"
        server_stop
      done
    done
  done
  # docs/PROVIDER.md's tongsuo.cnf, as written but for the module's path
  awk '/<!-- tongsuo.cnf -->/ {f = 1; next} f && /^```/ {if (++n == 2) exit; next} f && n == 1' \
    "$ROOT/docs/PROVIDER.md" | sed "s|^module = .*|module = $MOD/fastsm2prov.so|" >tongsuo.cnf
  if OPENSSL_CONF=tongsuo.cnf "$TSO" list -providers 2>&1 | grep -A3 fastsm2prov | grep -q 'status: active'; then
    ok
  else
    bad "tongsuo.cnf of docs/PROVIDER.md: fastsm2prov not active"
  fi
  suite=ECDHE-SM2-SM4-GCM-SM3
  if server_start 2 "$suite"; then
    msg="fastsm2 TLCP through tongsuo.cnf $$"
    client 0 "$suite" "$msg" >/dev/null || true
    grep -q "$msg" server.log && ok || bad "tongsuo.cnf: $(tail -3 server.log) $(tail -3 client.err)"
    server_stop
  fi
  echo "test-tongsuo: $PASS passed, $FAIL failed ($(( $(date +%s) - start )) s)"
  [ "$FAIL" -eq 0 ]
  exit $?
fi

# ---- 5. bench: handshakes/s, server CPU per handshake ------------------------------
# Three settings, alternating in each round: the provider in neither side,
# in the server only, in both (tlcp_bench loads it too). The best rate and
# the least server CPU per handshake of the rounds are kept; the ratios are
# what to read on a loaded machine.
cc -O2 -I"$PREFIX/include" "$ROOT/tests/tongsuo/tlcp_bench.c" -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -lssl \
  -lcrypto -o tlcp_bench
N=${TLCP_BENCH_N:-300}
ROUNDS=${TLCP_BENCH_ROUNDS:-3}
clk=$(getconf CLK_TCK)
names=(neither server both)
printf '%-24s %-8s %12s %17s %17s\n' suite provider handshakes/s "server CPU ms/hs" "client CPU ms/hs"
for suite in "${SUITES[@]}"; do
  rate=(0 0 0) scpu=(0 0 0) ccpu=(0 0 0)
  for r in $(seq "$ROUNDS"); do
    for k in 0 1 2; do
      sp=$(( k > 0 ? 1 : 0 ))
      server_start "$sp" "$suite" || continue
      read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u0 s0 _ </proc/"$server_pid"/stat
      env=()
      [ "$k" = 2 ] && env=(TLCP_BENCH_PROVIDER_DIR="$MOD")
      out=$(env "${env[@]}" ./tlcp_bench 127.0.0.1 "$port" "$suite" "$N" ca.pem client-sign.pem client-sign.key \
        client-enc.pem client-enc.key) || { bad "tlcp_bench $suite ${names[$k]}"; server_stop; continue; }
      read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u1 s1 _ </proc/"$server_pid"/stat
      server_stop
      hs=$(echo "$out" | awk '{print $1}')
      cc_ms=$(echo "$out" | sed -n 's/.*client CPU \([0-9.]*\) ms.*/\1/p')
      sc_ms=$(awk -v a=$((u1 + s1 - u0 - s0)) -v n="$N" -v c="$clk" 'BEGIN {printf "%.3f", a * 1000 / c / n}')
      rate[k]=$(awk -v a="${rate[k]}" -v b="$hs" 'BEGIN {print (b > a) ? b : a}')
      scpu[k]=$(awk -v a="${scpu[k]}" -v b="$sc_ms" 'BEGIN {print (a == 0 || b < a) ? b : a}')
      ccpu[k]=$(awk -v a="${ccpu[k]}" -v b="$cc_ms" 'BEGIN {print (a == 0 || b < a) ? b : a}')
    done
  done
  for k in 0 1 2; do
    printf '%-24s %-8s %12s %17s %17s\n' "$suite" "${names[$k]}" "${rate[k]}" "${scpu[k]}" "${ccpu[k]}"
  done
  awk -v a="${rate[0]}" -v b="${rate[1]}" -v b2="${rate[2]}" -v c="${scpu[0]}" -v d="${scpu[1]}" -v s="$suite" \
    'BEGIN {if (a > 0 && d > 0) printf "RATIO %s: handshakes/s %.2fx (server), %.2fx (both); server CPU per handshake %.2fx less\n", s, b / a, b2 / a, c / d}'
done
echo "bench-tongsuo: N=$N handshakes x $ROUNDS rounds per setting ($(( $(date +%s) - start )) s)"
[ "$FAIL" -eq 0 ]
