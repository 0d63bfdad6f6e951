#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-gmssl-pki`: certificates, requests and CMS between fastsm2's CLI
# and GmSSL 3's gmssl command, both ways, live (docs/PKI.md "Interop"):
#   - gmssl reqgen -> fastsm2 reqsign -> gmssl certverify, and fastsm2
#     reqgen -> gmssl reqsign -> fastsm2 certverify;
#   - fastsm2 certgen/reqsign chains (root, intermediate, leaf) -> gmssl
#     certverify; a TLCP signing + encryption pair -> certverify
#     -double_certs; gmssl certgen/reqsign chains -> fastsm2 certverify;
#   - a signature under the empty ID refused by both;
#   - gmssl cmssign -> fastsm2 cmsverify --gmssl, fastsm2 cmssign --gmssl ->
#     gmssl cmsverify; a standard (RFC 5652) SignedData refused by gmssl,
#     GmSSL's refused by fastsm2 without --gmssl (its signature: docs/PKI.md);
#   - fastsm2 reading GmSSL's encrypted private keys (--passin).
# The committed fixtures (tests/fixtures/pki/gmssl-3.1, make-gmssl.sh) keep
# the same checks in `make test` without GmSSL.
#
#   tests/harness/test-gmssl-pki.sh [BUILD_DIR]
#
# GmSSL: GMSSL_BIN=<a gmssl 3.x program>, or one built before into
# ~/.cache/fastsm2/gmssl/<version>-build/bin/gmssl, or built here from
# GMSSL_SRC=<a GmSSL 3 source tree> (cmake, the gmssl program only) into
# that directory. Exits 77 (skipped) with none of them: GmSSL is not on a
# package registry, so this script does not download it.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=$(cd "${1:-build}" && pwd)
FS=$BUILD/fastsm2
CACHE=${FS2_CACHE:-$HOME/.cache/fastsm2}/gmssl
start=$(date +%s)
[ -x "$FS" ] || { echo "test-gmssl-pki: no $FS (build first)" >&2; exit 1; }

skip() {
  echo "skip test-gmssl-pki: $*"
  exit 77
}

G=${GMSSL_BIN:-}
if [ -z "$G" ] && [ -n "${GMSSL_SRC:-}" ]; then
  [ -f "$GMSSL_SRC/include/gmssl/sm2.h" ] || { echo "test-gmssl-pki: GMSSL_SRC=$GMSSL_SRC is no GmSSL tree" >&2; exit 1; }
  v=$(sed -n 's/.*GMSSL_VERSION_STR *"GmSSL \([0-9.]*\).*/\1/p' "$GMSSL_SRC/include/gmssl/version.h" | head -n 1)
  GB=$CACHE/${v:-unknown}-build
  if [ ! -x "$GB/bin/gmssl" ]; then
    echo "test-gmssl-pki: building GmSSL ${v:-?} from $GMSSL_SRC into $GB (once)"
    mkdir -p "$CACHE"
    { cmake -S "$GMSSL_SRC" -B "$GB" -DCMAKE_BUILD_TYPE=Release &&
      nice -n 10 cmake --build "$GB" -j "${JOBS:-2}" --target gmssl-bin; } >"$CACHE/build-${v:-unknown}.log" 2>&1 ||
      { tail -20 "$CACHE/build-${v:-unknown}.log" >&2; echo "test-gmssl-pki: the GmSSL build failed" >&2; exit 1; }
  fi
  G=$GB/bin/gmssl
fi
if [ -z "$G" ]; then
  for g in "$CACHE"/*-build/bin/gmssl; do
    [ -x "$g" ] && G=$g
  done
fi
[ -n "$G" ] && [ -x "$G" ] || skip "no GmSSL: set GMSSL_SRC to a GmSSL 3 source tree (or GMSSL_BIN to a gmssl program)"
echo "GmSSL: $("$G" version | head -n 1) ($G)"

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); }
bad() {
  FAIL=$((FAIL + 1))
  echo "FAIL: $*" >&2
}
# check NAME CMD...: CMD succeeds; refuse NAME CMD...: CMD fails
check() {
  local name=$1
  shift
  if "$@" >out.txt 2>&1 </dev/null; then ok; else bad "$name: $(tail -3 out.txt)"; fi
}
refuse() {
  local name=$1
  shift
  if "$@" >out.txt 2>&1 </dev/null; then bad "$name: accepted"; else ok; fi
}
# gmssl certverify exits 0 on some failures: its verdict is the text
gm_verify() { # CHAIN CA [more certverify options]
  local chain=$1 ca=$2
  shift 2
  "$G" certverify -in "$chain" -cacert "$ca" "$@" >gv.txt 2>&1 && grep -q "Verification success" gv.txt &&
    ! grep -qi "fail" gv.txt
}

# ---- fastsm2 issues, gmssl verifies ------------------------------------------------
"$FS" keygen --out ca.key
"$FS" certgen --key ca.key --subject "/C=CN/O=fastsm2/CN=fastsm2 Root" --ca --usage ca --days 365 --out ca.pem
"$FS" keygen --out inter.key
"$FS" reqgen --key inter.key --subject "/C=CN/O=fastsm2/CN=fastsm2 Intermediate" --ca --path-len 0 --usage ca \
  --out inter.csr
"$FS" reqsign --in inter.csr --ca-cert ca.pem --ca-key ca.key --copy-extensions --days 365 --out inter.pem
"$G" sm2keygen -pass pw -out gm-leaf.key >/dev/null
"$G" reqgen -C CN -O GmSSL -CN gm-leaf.example -key gm-leaf.key -pass pw -out gm-leaf.csr
check "fastsm2 reqparse of gmssl's request" "$FS" reqparse --in gm-leaf.csr
check "fastsm2 reqsign of gmssl's request" "$FS" reqsign --in gm-leaf.csr --ca-cert inter.pem --ca-key inter.key \
  --usage digitalSignature --san DNS:gm-leaf.example --days 30 --out gm-leaf.pem
cat gm-leaf.pem inter.pem >chain.pem
check "gmssl certverify: fastsm2's chain to gmssl's key" gm_verify chain.pem ca.pem
# fastsm2's own leaf, a TLCP pair
for use in sign enc; do
  "$FS" keygen --out "tlcp-$use.key"
  "$FS" reqgen --key "tlcp-$use.key" --subject "/C=CN/O=fastsm2/CN=tlcp.example" --usage "$use" --out "tlcp-$use.csr"
  "$FS" reqsign --in "tlcp-$use.csr" --ca-cert inter.pem --ca-key inter.key --copy-extensions --days 30 \
    --out "tlcp-$use.pem"
done
cat tlcp-sign.pem inter.pem >sign-chain.pem
check "gmssl certverify: fastsm2's signing certificate" gm_verify sign-chain.pem ca.pem
cat tlcp-sign.pem tlcp-enc.pem inter.pem >double.pem
check "gmssl certverify -double_certs: fastsm2's TLCP pair" gm_verify double.pem ca.pem -double_certs
# self-signed, from a public key (certgen --pub)
"$FS" pubkey --key tlcp-sign.key --out p.pem
check "fastsm2 certgen --pub" "$FS" certgen --pub p.pem --ca-cert ca.pem --ca-key ca.key --subject /CN=from-pub \
  --days 30 --out frompub.pem
check "gmssl certverify: certgen --pub" gm_verify frompub.pem ca.pem
# the empty ID: refused by both (their default ID)
"$FS" certgen --pub p.pem --ca-cert ca.pem --ca-key ca.key --subject /CN=empty-id --id '' --days 30 --out emptyid.pem
refuse "gmssl certverify: a certificate signed with the empty ID" gm_verify emptyid.pem ca.pem
refuse "fastsm2 certverify: the same" "$FS" certverify --in emptyid.pem --ca-file ca.pem
# another CA's chain: refused
"$FS" keygen --out other.key
"$FS" certgen --key other.key --subject "/CN=other root" --ca --usage ca --days 30 --out other.pem
refuse "gmssl certverify: the wrong root" gm_verify chain.pem other.pem

# ---- gmssl issues, fastsm2 verifies ------------------------------------------------
"$G" sm2keygen -pass pw -out gm-ca.key >/dev/null
"$G" certgen -C CN -O GmSSL -CN "GmSSL Root" -serial_len 12 -days 365 -key gm-ca.key -pass pw \
  -key_usage keyCertSign -key_usage cRLSign -ca -gen_subject_key_id -out gm-ca.pem
check "fastsm2 certparse of gmssl's CA" "$FS" certparse --in gm-ca.pem
check "fastsm2 certverify: gmssl's self-signed CA" "$FS" certverify --in gm-ca.pem --ca-file gm-ca.pem
"$FS" keygen --out fs-leaf.key
"$FS" reqgen --key fs-leaf.key --subject "/C=CN/O=fastsm2/CN=fs-leaf.example" --san DNS:fs-leaf.example \
  --out fs-leaf.csr
check "gmssl reqsign of fastsm2's request" "$G" reqsign -in fs-leaf.csr -days 30 -cacert gm-ca.pem -key gm-ca.key \
  -pass pw -key_usage digitalSignature -gen_authority_key_id -subject_dns_name fs-leaf.example -out fs-leaf.pem
check "fastsm2 certverify: gmssl's signature on fastsm2's request" "$FS" certverify --in fs-leaf.pem \
  --ca-file gm-ca.pem
refuse "fastsm2 certverify: gmssl's certificate, another root" "$FS" certverify --in fs-leaf.pem --ca-file ca.pem
# a CA key GmSSL wrote (encrypted PKCS#8), used by fastsm2
check "fastsm2 reqsign with gmssl's encrypted CA key" "$FS" reqsign --in tlcp-sign.csr --ca-cert gm-ca.pem \
  --ca-key gm-ca.key --passin pass:pw --copy-extensions --days 30 --out fs-by-gmkey.pem
check "gmssl certverify: signed by fastsm2 with gmssl's key" gm_verify fs-by-gmkey.pem gm-ca.pem
check "fastsm2 certverify: the same" "$FS" certverify --in fs-by-gmkey.pem --ca-file gm-ca.pem

# ---- CMS SignedData ---------------------------------------------------------------
printf 'fastsm2 and GmSSL, CMS %s\n' "$$" >msg.txt
check "gmssl cmssign" "$G" cmssign -key gm-leaf.key -pass pw -cert gm-leaf.pem -in msg.txt -out gm.cms
check "fastsm2 cmsverify --gmssl of gmssl's SignedData" "$FS" cmsverify --in gm.cms --gmssl --ca-file ca.pem \
  --certs inter.pem --out gm-content.txt
cmp -s gm-content.txt msg.txt && ok || bad "fastsm2 cmsverify: the content of gmssl's SignedData differs"
refuse "fastsm2 cmsverify of gmssl's SignedData without --gmssl" "$FS" cmsverify --in gm.cms --ca-file ca.pem \
  --certs inter.pem
check "fastsm2 cmssign --gmssl" "$FS" cmssign --key gm-leaf.key --passin pass:pw --cert gm-leaf.pem --in msg.txt \
  --gmssl --pem --out fs-gm.cms
"$G" cmsverify -in fs-gm.cms >cv.txt 2>&1 || true
grep -q "verify success" cv.txt && ok || bad "gmssl cmsverify of fastsm2 --gmssl: $(tail -2 cv.txt)"
"$FS" cmssign --key gm-leaf.key --passin pass:pw --cert gm-leaf.pem --in msg.txt --gm --pem --out fs-std.cms
"$G" cmsverify -in fs-std.cms >cv.txt 2>&1 || true
grep -q "verify success" cv.txt && bad "gmssl cmsverify accepted a standard SignedData (it signs another hash)" || ok
check "fastsm2 cmsverify of its own GM/T 0010 SignedData" "$FS" cmsverify --in fs-std.cms --ca-file ca.pem \
  --certs inter.pem
# enveloped data both ways: GmSSL's cmsencrypt opened by fastsm2; fastsm2's
# --gmssl (GmSSL's versions and SM2 encryption OID) opened by gmssl cmsdecrypt,
# which refuses the standard form (versions 0, OID 1.2.156.10197.1.301.3)
check "gmssl cmsencrypt" "$G" cmsencrypt -rcptcert gm-leaf.pem -in msg.txt -out gm-env.pem
check "fastsm2 cmsdecrypt of gmssl's" "$FS" cmsdecrypt --key gm-leaf.key --passin pass:pw --cert gm-leaf.pem \
  --in gm-env.pem --out gm-env.txt
cmp -s gm-env.txt msg.txt && ok || bad "fastsm2 cmsdecrypt: the content of gmssl's EnvelopedData differs"
check "fastsm2 cmsencrypt --gmssl" "$FS" cmsencrypt --cert gm-leaf.pem --in msg.txt --gmssl --pem --out fs-env.pem
check "gmssl cmsdecrypt of fastsm2's" "$G" cmsdecrypt -key gm-leaf.key -pass pw -cert gm-leaf.pem -in fs-env.pem \
  -out fs-env.txt
cmp -s fs-env.txt msg.txt && ok || bad "gmssl cmsdecrypt: the content of fastsm2's EnvelopedData differs"
"$FS" cmsencrypt --cert gm-leaf.pem --in msg.txt --gm --pem --out fs-env-std.pem
refuse "gmssl cmsdecrypt of the standard form" "$G" cmsdecrypt -key gm-leaf.key -pass pw -cert gm-leaf.pem \
  -in fs-env-std.pem -out fs-env-std.txt

echo "test-gmssl-pki: $PASS passed, $FAIL failed ($(($(date +%s) - start)) s)"
[ "$FAIL" -eq 0 ]
