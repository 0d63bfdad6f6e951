#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The certificate and CMS commands against the openssl command line, both
# ways: requests and certificates fastsm2 makes are read and verified by
# openssl req, x509 and verify (with -vfyopt distid:1234567812345678), and
# openssl's by fastsm2; chains refused with their reasons (wrong signature,
# expired, a CA without cA, a key usage, an untrusted root, a loop); a TLCP
# signing/encryption pair; CMS signed data made and verified (attached,
# detached, GM/T 0010, PEM, a content streamed through), read by openssl
# cms, and, from OpenSSL 3.2 on, verified and signed by it; outputs that
# appear whole or not at all; hostile and truncated inputs refused.
#
# usage: test_cli_pki.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_pki.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
SRC=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$T"
ossl_probe
OSSL_REL=$(openssl version | awk '{print $2}')
OSSL_MAJOR=$(echo "$OSSL_REL" | cut -d. -f1)
OSSL_MINOR=$(echo "$OSSL_REL" | cut -d. -f2)
ID=1234567812345678
V="-vfyopt distid:$ID"
S="-sigopt distid:$ID"

check() {
    local name=$1
    shift
    if "$@" >"$T/check.out" 2>"$T/check.err" </dev/null; then ok; else bad "$name: $(head -c 600 "$T/check.err")"; fi
}
# expect_rc NAME CODE PATTERN CMD...: exit CODE, and stderr matches PATTERN.
expect_rc() {
    local name=$1 want=$2 pat=$3
    shift 3
    local got=0
    "$@" >"$T/rc.out" 2>"$T/rc.err" </dev/null || got=$?
    if [ "$got" != "$want" ]; then
        bad "$name: exit $got, want $want: $(head -c 600 "$T/rc.err")"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$T/rc.err"; then
        bad "$name: stderr lacks '$pat': $(head -c 600 "$T/rc.err")"
    else
        ok
    fi
}
# has NAME FILE PATTERN: FILE holds a line matching PATTERN (grep -E).
has() { if grep -qE -- "$3" "$2"; then ok; else bad "$1: no '$3' in $2: $(head -c 600 "$2")"; fi; }

# ---- fastsm2 makes, openssl reads and verifies ---------------------------
check "keygen ca" "$FS" keygen --out ca.key
check "certgen root" "$FS" certgen --key ca.key --subject "/C=CN/O=fastsm2 test/CN=Root CA" --ca --usage ca \
    --days 3650 --out ca.pem
check "keygen inter" "$FS" keygen --out inter.key
check "reqgen inter" "$FS" reqgen --key inter.key --subject "/C=CN/O=fastsm2 test/CN=Intermediate CA" --ca \
    --path-len 0 --usage ca --out inter.csr
check "reqsign inter" "$FS" reqsign --in inter.csr --ca-cert ca.pem --ca-key ca.key --copy-extensions --days 1000 \
    --out inter.pem
check "keygen leaf" "$FS" keygen --out leaf.key
check "reqgen leaf" "$FS" reqgen --key leaf.key --subject "/C=CN/ST=Beijing/O=fastsm2 test/CN=leaf.example" \
    --san DNS:leaf.example,IP:127.0.0.1,email:pki@example.com --usage digitalSignature \
    --ext-usage serverAuth,clientAuth --out leaf.csr
check "reqsign leaf" "$FS" reqsign --in leaf.csr --ca-cert inter.pem --ca-key inter.key --copy-extensions \
    --days 30 --out leaf.pem
check "openssl req -verify" openssl req -in leaf.csr -verify $V -noout
if openssl req -in leaf.csr -verify -noout >req.out 2>&1 && ! grep -q "verify failure" req.out; then
    [ "$OSSL_NO_ID_IS_DEFAULT" = 1 ] && ok || bad "openssl 3 verified a request signed with the default ID without distid"
else
    [ "$OSSL_NO_ID_IS_DEFAULT" = 0 ] && ok || bad "openssl 4 refused a request signed with its default ID"
fi
if [ "$OSSL_MAJOR" -ge 4 ]; then
    check "openssl 4 req -verify, no distid" openssl req -in inter.csr -verify -noout
fi
# openssl verify applies -vfyopt distid: to the certificate it verifies, not
# to the intermediates it finds (3.x hashes the empty ID for those): each
# link on its own, the intermediate trusted (-partial_chain) for the leaf
check "openssl verify inter" openssl verify $V -CAfile ca.pem inter.pem
check "openssl verify leaf" openssl verify $V -partial_chain -CAfile inter.pem leaf.pem
has "openssl verify" check.out "leaf.pem: OK"
if [ "$OSSL_MAJOR" -lt 4 ]; then
    expect_rc "openssl 3 verify without distid" 2 "" openssl verify -partial_chain -CAfile inter.pem leaf.pem
else
    check "openssl 4 verify of the whole chain (its default ID)" openssl verify -CAfile ca.pem -untrusted inter.pem \
        leaf.pem
fi
check "openssl x509 -text" openssl x509 -in leaf.pem -noout -text
has "x509 subject" check.out "Subject: C ?= ?CN, ST ?= ?Beijing, O ?= ?fastsm2 test, CN ?= ?leaf.example"
has "x509 SAN" check.out "DNS:leaf.example, IP Address:127.0.0.1, email:pki@example.com"
has "x509 KU" check.out "Digital Signature"
has "x509 EKU" check.out "TLS Web Server Authentication, TLS Web Client Authentication"
has "x509 sig alg" check.out "Signature Algorithm: SM2-with-SM3"
check "openssl x509 -text inter" openssl x509 -in inter.pem -noout -text
has "inter CA" check.out "CA:TRUE, pathlen:0"
has "inter KU" check.out "Certificate Sign, CRL Sign"
serial=$(openssl x509 -in leaf.pem -noout -serial | cut -d= -f2)
[ ${#serial} -eq 32 ] && ok || bad "serial $serial is not 16 bytes"
check "openssl x509 -checkend" openssl x509 -in leaf.pem -noout -checkend 86400
# the chain as fastsm2 sees it
check "certverify" "$FS" certverify --in leaf.pem --chain inter.pem --ca-file ca.pem
has "certverify says OK" check.out "leaf.pem: OK"
cat leaf.pem inter.pem >chain.pem
check "certverify chain in --in" "$FS" certverify --in chain.pem --ca-file ca.pem
openssl x509 -in leaf.pem -outform DER -out leaf.der
openssl x509 -in ca.pem -outform DER -out ca.der
check "certverify DER" "$FS" certverify --in leaf.der --chain inter.pem --ca-file ca.der
check "certparse" "$FS" certparse --in leaf.der
has "certparse subject" check.out "Subject: /C=CN/ST=Beijing/O=fastsm2 test/CN=leaf.example"
has "certparse issuer" check.out "Issuer: /C=CN/O=fastsm2 test/CN=Intermediate CA"
check "certparse --der" "$FS" certparse --in leaf.pem --der --out back.der
cmp -s back.der leaf.der && ok || bad "certparse --der differs from openssl's DER"
check "certparse --pem" "$FS" certparse --in leaf.der --pem --out back.pem
cmp -s back.pem leaf.pem && ok || bad "certparse --pem differs from the PEM written"
check "reqparse" "$FS" reqparse --in leaf.csr
has "reqparse signature" check.out "Signature: verified"

# ---- openssl makes, fastsm2 reads and verifies ---------------------------
openssl genpkey -algorithm SM2 -out oca.key 2>/dev/null
check "openssl root" openssl req -new -x509 -key oca.key -sm3 $S -subj "/CN=OpenSSL Root" -days 30 \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out oca.pem
openssl genpkey -algorithm SM2 -out oleaf.key 2>/dev/null
# a request signed with openssl's own default ID (3.x: empty; 4.0: 1234567812345678)
check "openssl req (no distid)" openssl req -new -key oleaf.key -sm3 -subj "/CN=openssl leaf" -out oleaf.csr
check "openssl req (distid)" openssl req -new -key oleaf.key -sm3 $S -subj "/CN=openssl leaf" \
    -addext "subjectAltName=DNS:o.example" -out oleaf-id.csr
check "reqparse openssl's" "$FS" reqparse --in oleaf-id.csr
if [ "$OSSL_NO_ID_IS_DEFAULT" = 0 ]; then
    expect_rc "reqsign openssl 3 request, default ID" 1 "req-id ''" "$FS" reqsign --in oleaf.csr --ca-cert ca.pem \
        --ca-key ca.key --out x.pem
    [ ! -e x.pem ] && ok || bad "reqsign left an output after refusing the request"
    check "reqsign openssl 3 request, --req-id ''" "$FS" reqsign --in oleaf.csr --req-id '' --ca-cert ca.pem \
        --ca-key ca.key --out ofs-leaf.pem
    expect_rc "reqparse openssl 3 request" 1 "does not verify" "$FS" reqparse --in oleaf.csr
    check "reqparse openssl 3 request --id ''" "$FS" reqparse --in oleaf.csr --id ''
else
    check "reqsign openssl 4 request" "$FS" reqsign --in oleaf.csr --ca-cert ca.pem --ca-key ca.key \
        --out ofs-leaf.pem
fi
check "openssl verifies fastsm2's cert for its request" openssl verify $V -CAfile ca.pem ofs-leaf.pem
check "reqsign --copy-extensions" "$FS" reqsign --in oleaf-id.csr --ca-cert ca.pem --ca-key ca.key \
    --copy-extensions --out ofs-leaf2.pem
check "its SAN" openssl x509 -in ofs-leaf2.pem -noout -ext subjectAltName
has "copied SAN" check.out "DNS:o.example"
# openssl issues a certificate for fastsm2's request, under openssl's root
check "openssl x509 -req" openssl x509 -req -in leaf.csr $V -CA oca.pem -CAkey oca.key -sm3 $S -days 10 \
    -set_serial 0x01020304 -out oleaf.pem
check "certverify openssl's chain" "$FS" certverify --in oleaf.pem --ca-file oca.pem
check "certparse openssl's" "$FS" certparse --in oca.pem
has "openssl root is a CA" check.out "Basic constraints \(critical\): CA:TRUE"
# and fastsm2 issues under openssl's root
check "certgen --pub under openssl's root" "$FS" certgen --pub <(openssl pkey -in oleaf.key -pubout) \
    --ca-cert oca.pem --ca-key oca.key --subject "/CN=fastsm2 under openssl" --usage sign --days 5 --out fo.pem
check "openssl verify fastsm2 under openssl" openssl verify $V -CAfile oca.pem fo.pem
check "certverify fastsm2 under openssl" "$FS" certverify --in fo.pem --ca-file oca.pem
# GmSSL 3.1's and 3.2's self-signed certificates (tests/fixtures/gmssl)
for v in 3.1 3.2; do
    G=$SRC/tests/fixtures/gmssl/$v/cert.pem
    check "certverify gmssl $v" "$FS" certverify --in "$G" --ca-file "$G"
done
# what GmSSL 3.1 made (tests/fixtures/pki/gmssl-3.1, make-gmssl.sh): its CA,
# request, leaf, and a leaf for fastsm2's request; its CMS signature (its
# own digest: --gmssl); the verdicts it gave on fastsm2's files
GM=$SRC/tests/fixtures/pki/gmssl-3.1
check "certverify gmssl's leaf" "$FS" certverify --in "$GM/leaf.pem" --ca-file "$GM/ca.pem" --at 2027-01-01
check "certverify gmssl's cert for fastsm2's request" "$FS" certverify --in "$GM/fastsm2-leaf.pem" \
    --ca-file "$GM/ca.pem" --at 2027-01-01
check "reqparse gmssl's request" "$FS" reqparse --in "$GM/leaf.csr"
check "reqsign gmssl's request" "$FS" reqsign --in "$GM/leaf.csr" --ca-cert ca.pem --ca-key ca.key --out gm-leaf.pem
check "openssl verifies it" openssl verify $V -CAfile ca.pem gm-leaf.pem
check "cmsverify gmssl's cmssign" "$FS" cmsverify --gmssl --in "$GM/signed.cms" --ca-file "$GM/ca.pem" \
    --at 2027-01-01 --out gm-msg.txt
cmp -s gm-msg.txt "$GM/msg.txt" && ok || bad "gmssl's CMS content"
expect_rc "gmssl's cmssign is not a standard signature" 1 "FASTSM2_ERR_BAD_SIGNATURE" "$FS" cmsverify \
    --in "$GM/signed.cms" --no-chain
has "gmssl certverify took fastsm2's chain" "$GM/verdicts.txt" "certverify fastsm2 chain: successes 2"
has "gmssl cmsverify took fastsm2's --gmssl" "$GM/verdicts.txt" "cmsverify fastsm2 --gmssl: verify success"
check "cmsdecrypt gmssl's cmsencrypt" "$FS" cmsdecrypt --key "$SRC/tests/fixtures/pki/fastsm2/leaf.key" \
    --in "$GM/enveloped.cms" --out gm-env.txt
cmp -s gm-env.txt "$GM/msg.txt" && ok || bad "gmssl's enveloped content"

# ---- enveloped data: two recipients, each opens; refusals named ----------
printf 'enveloped content\n' >env-msg.txt
cat leaf.pem inter.pem >two.pem
check "cmsencrypt sm4-cbc" "$FS" cmsencrypt --cert two.pem --in env-msg.txt --cipher sm4-cbc --out env.cms
check "cmsencrypt (sm4-gcm)" "$FS" cmsencrypt --cert two.pem --in env-msg.txt --out envg.cms
check "cmsencrypt --gm --pem" "$FS" cmsencrypt --cert leaf.pem --in env-msg.txt --gm --pem --out envgm.pem
for m in env.cms envg.cms envgm.pem; do
    rm -f env-out.txt
    check "cmsdecrypt $m by certificate" "$FS" cmsdecrypt --key leaf.key --cert leaf.pem --in "$m" --out env-out.txt
    cmp -s env-out.txt env-msg.txt && ok || bad "cmsdecrypt $m content"
done
check "cmsdecrypt, the recipient tried" "$FS" cmsdecrypt --key inter.key --in envg.cms --out env-out2.txt
cmp -s env-out2.txt env-msg.txt && ok || bad "cmsdecrypt (tried) content"
"$FS" cmsparse --in envg.cms >env-parse.txt 2>&1
has "cmsparse enveloped" env-parse.txt "Recipients: 2"
has "cmsencrypt's default is sm4-gcm" env-parse.txt "Cipher: SM4-GCM"
"$FS" cmsparse --in envgm.pem >env-parse.txt 2>&1
has "cmsencrypt --gm is sm4-cbc" env-parse.txt "Cipher: SM4-CBC"
rm -f env-no.txt
expect_rc "not a recipient" 1 "FASTSM2_ERR_RECIPIENT" "$FS" cmsdecrypt --key ca.key --in env.cms --out env-no.txt
expect_rc "certificate of another key" 2 "not the key of the certificate" "$FS" cmsdecrypt --key leaf.key \
    --cert inter.pem --in env.cms --out env-no.txt
n=$(wc -c <envg.cms)
head -c $((n - 1)) envg.cms >envg-cut.cms
expect_rc "truncated" 1 "not a well-formed CMS message" "$FS" cmsdecrypt --key leaf.key --in envg-cut.cms \
    --out env-no.txt
last=$(tail -c 1 envg.cms | od -An -tu1 | tr -d ' ')
cp envg-cut.cms envg-bad.cms
printf "\\$(printf %03o $((last ^ 1)))" >>envg-bad.cms
expect_rc "tag altered" 1 "FASTSM2_ERR_TAG" "$FS" cmsdecrypt --key leaf.key --in envg-bad.cms --out env-no.txt
[ ! -e env-no.txt ] && ok || bad "cmsdecrypt wrote output on failure"
# OpenSSL (3.0 to 4.0) opens SM2 key transport with SM4-CBC; SM4-GCM in
# AuthEnvelopedData is "unknown cipher" to its CMS, and its cms -encrypt
# takes an SM2 certificate for ECDH (key agreement) and fails
# OpenSSL 3.0.2's CMS unwraps a wrong content key from SM2 key transport
# ("bad decrypt" from the SM4-CBC unpadding; its pkeyutl decrypts the same
# SM2 ciphertexts, test_openssl_diff); 3.0.22, 3.5.5 and 4.0.3 open it. An
# early 3.0 release that fails says so and is left out; any other failure
# fails the test.
if openssl cms -decrypt -binary -inform DER -in env.cms -inkey leaf.key -recip leaf.pem -out env-ossl.txt \
    >env-ossl.err 2>&1; then
    ok
    ossl_opens=1
    cmp -s env-ossl.txt env-msg.txt && ok || bad "openssl cms -decrypt content"
elif grep -q "bad decrypt" env-ossl.err && [[ $OSSL_REL =~ ^3\.0\.([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -lt 22 ]; then
    echo "skip openssl cms -decrypt of cmsencrypt sm4-cbc: OpenSSL $OSSL_REL's CMS unwraps a wrong SM2 content key (bad decrypt)"
else
    cat env-ossl.err >&2
    bad "openssl cms -decrypt of cmsencrypt sm4-cbc"
fi
# --keyid: the recipients named by subjectKeyIdentifier; fastsm2 finds its
# recipient by certificate, and OpenSSL opens it where it opens the above
check "cmsencrypt --keyid" "$FS" cmsencrypt --cert two.pem --in env-msg.txt --cipher sm4-cbc --keyid --out envk.cms
check "cmsencrypt --keyid (sm4-gcm)" "$FS" cmsencrypt --cert two.pem --in env-msg.txt --keyid --out envkg.cms
for m in envk.cms envkg.cms; do
    rm -f env-out.txt
    check "cmsdecrypt $m by certificate" "$FS" cmsdecrypt --key inter.key --cert inter.pem --in "$m" --out env-out.txt
    cmp -s env-out.txt env-msg.txt && ok || bad "cmsdecrypt $m content"
done
ski=$(openssl x509 -in leaf.pem -noout -ext subjectKeyIdentifier | tail -1 | tr -d ' :\n')
[ ${#ski} = 40 ] && od -An -tx1 -v envk.cms | tr -d ' \n' | grep -qi "8014$ski" && ok ||
    bad "cmsencrypt --keyid: no [0] $ski (the leaf's subjectKeyIdentifier) in the message"
if [ "${ossl_opens:-0}" = 1 ]; then # (where it opened the one above)
    rm -f env-ossl.txt
    check "openssl cms -decrypt of cmsencrypt --keyid" openssl cms -decrypt -binary -inform DER -in envk.cms \
        -inkey leaf.key -recip leaf.pem -out env-ossl.txt
    cmp -s env-ossl.txt env-msg.txt && ok || bad "openssl cms -decrypt content (--keyid)"
fi
expect_rc "--keyid with --gmssl" 2 "issuer and serial number only" "$FS" cmsencrypt --cert leaf.pem --gmssl \
    --keyid --in env-msg.txt --out env-no.txt
if openssl req -x509 -new -key leaf.key -subj /CN=noski -days 30 -addext subjectKeyIdentifier=none \
    -addext authorityKeyIdentifier=none -out noski.pem >/dev/null 2>&1 &&
    ! openssl x509 -in noski.pem -noout -ext subjectKeyIdentifier 2>/dev/null | grep -q Identifier; then
    expect_rc "--keyid, no subjectKeyIdentifier" 2 "no subjectKeyIdentifier" "$FS" cmsencrypt --cert noski.pem \
        --keyid --in env-msg.txt --out env-no.txt
else
    echo "skip cmsencrypt --keyid without a subjectKeyIdentifier: openssl req could not make such a certificate"
fi
if openssl cms -encrypt -binary -sm4-cbc -in env-msg.txt -recip leaf.pem -outform DER -out env-ossl.cms \
    >/dev/null 2>&1 && [ -s env-ossl.cms ]; then
    check "cmsdecrypt of openssl cms -encrypt" "$FS" cmsdecrypt --key leaf.key --in env-ossl.cms --out env-ossl2.txt
    cmp -s env-ossl2.txt env-msg.txt && ok || bad "cmsdecrypt of openssl's content"
else
    echo "skip cmsdecrypt of openssl cms -encrypt: OpenSSL $OSSL_REL cannot encrypt CMS to an SM2 certificate"
fi
rm -f env-no.txt
expect_rc "--gm with sm4-gcm" 2 "no authenticated enveloped data" "$FS" cmsencrypt --cert leaf.pem --gm \
    --cipher sm4-gcm --in env-msg.txt --out env-no.txt
expect_rc "unknown cipher" 2 "sm4-cbc or sm4-gcm" "$FS" cmsencrypt --cert leaf.pem --cipher aes --in env-msg.txt \
    --out env-no.txt

# what BouncyCastle's builders and CMS generator made, every signature by the
# FastSM2 JCA provider (tests/fixtures/pki/bouncycastle-*, make-bc.sh); its
# CMS is BER (indefinite lengths, the content a constructed OCTET STRING)
for BC in "$SRC"/tests/fixtures/pki/bouncycastle-*; do
  check "certverify bouncycastle's leaf" "$FS" certverify --in "$BC/leaf.der" --ca-file "$BC/ca.der"
  check "reqparse bouncycastle's request" "$FS" reqparse --in "$BC/leaf-csr.der"
  check "reqsign bouncycastle's request" "$FS" reqsign --in "$BC/leaf-csr.der" --ca-cert ca.pem --ca-key ca.key \
    --out bc-leaf.pem
  check "cmsverify bouncycastle's BER SignedData" "$FS" cmsverify --in "$BC/signed.cms" --ca-file "$BC/ca.der" \
    --out bc-msg.txt
  cmp -s bc-msg.txt "$BC/msg.txt" && ok || bad "bouncycastle's CMS content"
  check "cmsverify bouncycastle's detached" "$FS" cmsverify --in "$BC/detached.cms" --content "$BC/msg.txt" \
    --ca-file "$BC/ca.der"
  printf 'another' >bc-other.txt
  expect_rc "bouncycastle's detached, other content" 1 "FASTSM2_ERR_DIGEST" "$FS" cmsverify \
    --in "$BC/detached.cms" --content bc-other.txt --ca-file "$BC/ca.der"
  check "cmsparse bouncycastle's" "$FS" cmsparse --in "$BC/signed.cms"
  openssl x509 -inform DER -in "$BC/ca.der" -out bc-ca.pem 2>/dev/null
  openssl x509 -inform DER -in "$BC/leaf.der" -out bc-leaf-o.pem 2>/dev/null
  check "openssl verify bouncycastle's leaf" openssl verify $V -CAfile bc-ca.pem bc-leaf-o.pem
done
# fastsm2's own fixtures (tests/fixtures/pki/fastsm2, read by BouncyCastle's tests too)
FX=$SRC/tests/fixtures/pki/fastsm2
check "certverify the fastsm2 fixture" "$FS" certverify --in "$FX/leaf.pem" --chain "$FX/inter.pem" \
    --ca-file "$FX/ca.pem"
for m in signed signed-gm noattrs; do
    check "cmsverify fixture $m" "$FS" cmsverify --in "$FX/$m.cms" --certs "$FX/inter.pem" --ca-file "$FX/ca.pem"
done
check "cmsverify fixture detached" "$FS" cmsverify --in "$FX/detached.cms" --content "$FX/msg.txt" \
    --certs "$FX/inter.pem" --ca-file "$FX/ca.pem"

# ---- refusals, each with its reason ---------------------------------------
expect_rc "untrusted root" 1 "FASTSM2_ERR_ISSUER" "$FS" certverify --in leaf.pem --chain inter.pem --ca-file oca.pem
expect_rc "missing intermediate" 1 "the certificate (/C=CN/ST=Beijing/O=fastsm2 test/CN=leaf.example): its issuer" \
    "$FS" certverify --in leaf.pem --ca-file ca.pem
expect_rc "wrong ID" 1 "FASTSM2_ERR_BAD_SIGNATURE" "$FS" certverify --in chain.pem --ca-file ca.pem --id other
expect_rc "expired" 1 "has expired (FASTSM2_ERR_EXPIRED)" "$FS" certverify --in chain.pem --ca-file ca.pem \
    --at 2099-01-01
expect_rc "not yet valid" 1 "FASTSM2_ERR_NOT_YET_VALID" "$FS" certverify --in chain.pem --ca-file ca.pem \
    --at 20000101000000Z
check "no time check" "$FS" certverify --in chain.pem --ca-file ca.pem --no-time-check --quiet
[ ! -s check.out ] && ok || bad "--quiet printed something"
check "usage asked and present" "$FS" certverify --in chain.pem --ca-file ca.pem --usage digitalSignature \
    --ext-usage serverAuth
expect_rc "usage asked and absent" 1 "FASTSM2_ERR_KEY_USAGE" "$FS" certverify --in chain.pem --ca-file ca.pem \
    --usage keyEncipherment
expect_rc "max depth" 1 "FASTSM2_ERR_PATH_LENGTH" "$FS" certverify --in chain.pem --ca-file ca.pem --max-depth 2
# a wrong signature: one bit of the leaf's signature flipped
n=$(stat -c %s leaf.der)
flip leaf.der $((n - 3)) bad.der
cmp -s leaf.der bad.der && bad "the flip changed nothing" || ok
expect_rc "wrong signature" 1 "FASTSM2_ERR_BAD_SIGNATURE" "$FS" certverify --in bad.der --chain inter.pem \
    --ca-file ca.pem
# a CA without cA
check "keygen notca" "$FS" keygen --out notca.key
check "certgen notca" "$FS" certgen --pub <("$FS" pubkey --key notca.key) --ca-cert ca.pem --ca-key ca.key \
    --subject "/CN=Not a CA" --out notca.pem
check "certgen under notca" "$FS" certgen --pub <("$FS" pubkey --key leaf.key) --ca-cert notca.pem \
    --ca-key notca.key --subject "/CN=under not a CA" --out undernot.pem
has "warned of a non-CA issuer" check.err "is not a CA certificate"
expect_rc "CA without cA" 1 "is not a CA (no basicConstraints cA) (FASTSM2_ERR_NOT_CA)" "$FS" certverify \
    --in undernot.pem --chain notca.pem --ca-file ca.pem
# path length: inter allows 0 CAs below it
check "certgen CA under inter" "$FS" certgen --pub <("$FS" pubkey --key notca.key) --ca-cert inter.pem \
    --ca-key inter.key --subject "/CN=Sub CA" --ca --out sub.pem
check "certgen leaf under sub" "$FS" certgen --pub <("$FS" pubkey --key leaf.key) --ca-cert sub.pem \
    --ca-key notca.key --subject "/CN=deep leaf" --out deep.pem
cat inter.pem sub.pem >deepchain.pem
expect_rc "path length" 1 "FASTSM2_ERR_PATH_LENGTH" "$FS" certverify --in deep.pem --chain deepchain.pem \
    --ca-file ca.pem
# a loop: A issued by B, B issued by A, and a leaf under A, nothing trusted on the way
check "keygen A" "$FS" keygen --out a.key
check "keygen B" "$FS" keygen --out b.key
check "B self" "$FS" certgen --key b.key --subject "/CN=Loop B" --ca --out b0.pem
check "A by B" "$FS" certgen --pub <("$FS" pubkey --key a.key) --ca-cert b0.pem --ca-key b.key \
    --subject "/CN=Loop A" --ca --out a.pem
check "B by A" "$FS" certgen --pub <("$FS" pubkey --key b.key) --ca-cert a.pem --ca-key a.key \
    --subject "/CN=Loop B" --ca --out b.pem
check "leaf by A" "$FS" certgen --pub <("$FS" pubkey --key leaf.key) --ca-cert a.pem --ca-key a.key \
    --subject "/CN=looped" --out looped.pem
cat a.pem b.pem >loop.pem
expect_rc "loop" 1 "FASTSM2_ERR_CHAIN_LOOP" "$FS" certverify --in looped.pem --chain loop.pem --ca-file ca.pem

# ---- openssl verify's verdict on the same defects ----------------------------
# Certificates signed with the ID openssl hashes when none is set (3.x: the
# empty one; 4.0: 1234567812345678), so that openssl verify checks whole
# chains; fastsm2 certverify given that ID must refuse each one as openssl
# does, for the same reason.
OID=""
[ "$OSSL_NO_ID_IS_DEFAULT" = 1 ] && OID=$ID
E="--id $OID"
[ -z "$OID" ] && E="--id="
# agree NAME FASTSM2_REASON OPENSSL_REASON LEAF UNTRUSTED [certverify options]
agree() {
    local name=$1 ours=$2 theirs=$3 leaf=$4 untrusted=$5
    shift 5
    expect_rc "certverify: $name" 1 "$ours" "$FS" certverify $E --in "$leaf" --chain "$untrusted" --ca-file e-ca.pem "$@"
    local at=()
    [ "${1:-}" = --at ] && at=(-attime "$(date -d "${2}" +%s)")
    expect_rc "openssl verify: $name" 2 "$theirs" openssl verify "${at[@]}" -CAfile e-ca.pem -untrusted "$untrusted" \
        "$leaf"
}
check "e root" "$FS" certgen $E --key ca.key --subject "/CN=E Root" --ca --path-len 1 --usage ca --out e-ca.pem
check "e inter" "$FS" certgen $E --pub <("$FS" pubkey --key inter.key) --ca-cert e-ca.pem --ca-key ca.key \
    --subject "/CN=E Inter" --ca --path-len 0 --usage ca --out e-inter.pem
check "e leaf" "$FS" certgen $E --pub <("$FS" pubkey --key leaf.key) --ca-cert e-inter.pem --ca-key inter.key \
    --subject "/CN=e.example" --usage digitalSignature --days 20 --out e-leaf.pem
check "openssl verifies the whole chain" openssl verify -CAfile e-ca.pem -untrusted e-inter.pem e-leaf.pem
check "certverify the whole chain" "$FS" certverify $E --in e-leaf.pem --chain e-inter.pem --ca-file e-ca.pem
expect_rc "certverify needs the ID" 1 "FASTSM2_ERR_BAD_SIGNATURE" "$FS" certverify --id other --in e-leaf.pem \
    --chain e-inter.pem --ca-file e-ca.pem
openssl x509 -in e-leaf.pem -outform DER -out e-leaf.der
n=$(stat -c %s e-leaf.der)
flip e-leaf.der $((n - 3)) e-bad.der
agree "wrong signature" FASTSM2_ERR_BAD_SIGNATURE "certificate signature failure" e-bad.der e-inter.pem
agree "expired" FASTSM2_ERR_EXPIRED "certificate has expired" e-leaf.pem e-inter.pem --at "2099-01-01"
check "e notca" "$FS" certgen $E --pub <("$FS" pubkey --key notca.key) --ca-cert e-ca.pem --ca-key ca.key \
    --subject "/CN=E Not a CA" --out e-notca.pem
check "e under notca" "$FS" certgen $E --pub <("$FS" pubkey --key leaf.key) --ca-cert e-notca.pem \
    --ca-key notca.key --subject "/CN=e under not a CA" --out e-undernot.pem
agree "CA without cA" FASTSM2_ERR_NOT_CA "invalid CA certificate" e-undernot.pem e-notca.pem
check "e sub" "$FS" certgen $E --pub <("$FS" pubkey --key a.key) --ca-cert e-inter.pem --ca-key inter.key \
    --subject "/CN=E Sub" --ca --out e-sub.pem
check "e deep" "$FS" certgen $E --pub <("$FS" pubkey --key leaf.key) --ca-cert e-sub.pem --ca-key a.key \
    --subject "/CN=e deep" --out e-deep.pem
cat e-inter.pem e-sub.pem >e-deepchain.pem
agree "path length" FASTSM2_ERR_PATH_LENGTH "path length constraint exceeded" e-deep.pem e-deepchain.pem
check "e noksign" "$FS" certgen $E --pub <("$FS" pubkey --key notca.key) --ca-cert e-ca.pem --ca-key ca.key \
    --subject "/CN=E CA without keyCertSign" --ca --usage digitalSignature --out e-noks.pem
check "e under noksign" "$FS" certgen $E --pub <("$FS" pubkey --key leaf.key) --ca-cert e-noks.pem \
    --ca-key notca.key --subject "/CN=e under noks" --out e-undernoks.pem
agree "CA without keyCertSign" FASTSM2_ERR_KEY_USAGE "key usage does not include certificate signing" \
    e-undernoks.pem e-noks.pem

# ---- a TLCP pair: signing and encryption certificates ----------------------
check "keygen enc" "$FS" keygen --out enc.key
check "reqgen sign" "$FS" reqgen --key leaf.key --subject "/CN=tlcp.example/OU=sign" --usage sign --out s.csr
check "reqgen enc" "$FS" reqgen --key enc.key --subject "/CN=tlcp.example/OU=enc" --usage enc --out e.csr
check "reqsign sign" "$FS" reqsign --in s.csr --ca-cert ca.pem --ca-key ca.key --copy-extensions --out sign.pem
check "reqsign enc" "$FS" reqsign --in e.csr --ca-cert ca.pem --ca-key ca.key --copy-extensions --out enc.pem
check "openssl sign cert KU" openssl x509 -in sign.pem -noout -ext keyUsage
has "sign KU" check.out "Digital Signature, Non Repudiation"
check "openssl enc cert KU" openssl x509 -in enc.pem -noout -ext keyUsage
has "enc KU" check.out "Key Encipherment, Data Encipherment, Key Agreement"
check "sign cert for signing" "$FS" certverify --in sign.pem --ca-file ca.pem --usage sign
expect_rc "enc cert for signing" 1 "FASTSM2_ERR_KEY_USAGE" "$FS" certverify --in enc.pem --ca-file ca.pem --usage sign
check "enc cert for encryption" "$FS" certverify --in enc.pem --ca-file ca.pem --usage enc

# ---- usage errors and hostile input -----------------------------------------
expect_rc "bad subject" 2 "is not a name" "$FS" reqgen --key leaf.key --subject "CN=no slash" --out x.csr
expect_rc "bad san" 2 "is not a subjectAltName" "$FS" reqgen --key leaf.key --subject /CN=x --san FTP:x --out x.csr
expect_rc "bad usage" 2 "unknown name 'signing'" "$FS" reqgen --key leaf.key --subject /CN=x --usage signing \
    --out x.csr
expect_rc "path-len without ca" 2 "--path-len needs --ca" "$FS" reqgen --key leaf.key --subject /CN=x --path-len 1 \
    --out x.csr
expect_rc "bad time" 2 "is not a time" "$FS" certverify --in leaf.pem --ca-file ca.pem --at yesterday
expect_rc "bad days" 2 "--days takes" "$FS" certgen --key ca.key --subject /CN=x --days 0 --out x.pem
expect_rc "wrong CA key" 2 "not the key of the CA certificate" "$FS" reqsign --in leaf.csr --ca-cert ca.pem \
    --ca-key leaf.key --out x.pem
[ ! -e x.csr ] && [ ! -e x.pem ] && ok || bad "a failed command left an output file"
head -c 200 leaf.der >trunc.der
expect_rc "truncated certificate" 2 "FASTSM2_ERR_DER" "$FS" certparse --in trunc.der
expect_rc "truncated leaf" 2 "FASTSM2_ERR_DER" "$FS" certverify --in trunc.der --ca-file ca.pem
head -c 3000 /dev/urandom >junk.bin
expect_rc "junk" 2 "" "$FS" certparse --in junk.bin
expect_rc "junk request" 2 "" "$FS" reqsign --in junk.bin --ca-cert ca.pem --ca-key ca.key --out x.pem
expect_rc "certificate as request" 2 "is a certificate, not a certificate request" "$FS" reqparse --in leaf.pem
expect_rc "request as certificate" 2 "is a certificate request, not a certificate" "$FS" certparse --in leaf.csr
expect_rc "key as CA file" 2 "" "$FS" certverify --in leaf.pem --ca-file ca.key
# a certificate with a length that runs past its end: a named error, not a crash
printf '\x30\x84\x7f\xff\xff\xff\x30\x00' >hostile.der
expect_rc "hostile length" 2 "FASTSM2_ERR_DER" "$FS" certparse --in hostile.der
# the existing mode of a replaced output is kept
check "certgen over a file" "$FS" certgen --key ca.key --subject /CN=mode --out mode.pem
chmod 640 mode.pem
check "certgen over it again" "$FS" certgen --key ca.key --subject /CN=mode2 --out mode.pem
[ "$(stat -c %a mode.pem)" = 640 ] && ok || bad "the replaced certificate's mode changed"

# ---- CMS signed data ------------------------------------------------------------
printf 'fastsm2 CMS test content\n' >msg.txt
check "cmssign" "$FS" cmssign --key leaf.key --cert leaf.pem --in msg.txt --out s.cms
check "cmsverify" "$FS" cmsverify --in s.cms --ca-file ca.pem --certs inter.pem --out got.txt
cmp -s msg.txt got.txt && ok || bad "cmsverify --out differs"
check "cmsverify --no-chain" "$FS" cmsverify --in s.cms --no-chain --quiet
expect_rc "cmsverify needs trust" 2 "--ca-file" "$FS" cmsverify --in s.cms
expect_rc "cmsverify untrusted signer" 1 "FASTSM2_ERR_ISSUER" "$FS" cmsverify --in s.cms --ca-file oca.pem \
    --certs inter.pem
check "cmssign detached gm pem" "$FS" cmssign --key leaf.key --cert leaf.pem --in msg.txt --detached --gm --pem \
    --out d.pem
has "PEM label" d.pem "BEGIN CMS"
check "cmsverify detached" "$FS" cmsverify --in d.pem --content msg.txt --ca-file ca.pem --certs inter.pem
check "cmsparse" "$FS" cmsparse --in d.pem
has "cmsparse type" check.out "signed data \(GM/T 0010 content types\)"
has "cmsparse signer" check.out "Signer: /C=CN/ST=Beijing/O=fastsm2 test/CN=leaf.example"
printf 'fastsm2 CMS test content!\n' >other.txt
expect_rc "detached, another content" 1 "the content is not the one signed" "$FS" cmsverify --in d.pem \
    --content other.txt --no-chain
expect_rc "wrong ID" 1 "FASTSM2_ERR_BAD_SIGNATURE" "$FS" cmsverify --in s.cms --no-chain --id ''
expect_rc "detached without content" 2 "give the content with --content" "$FS" cmsverify --in d.pem --no-chain
check "cmssign no certs, no attributes" "$FS" cmssign --key leaf.key --cert leaf.pem --in msg.txt --no-certs \
    --no-attributes --out na.cms
expect_rc "signer missing" 1 "give it with --certs" "$FS" cmsverify --in na.cms --no-chain
check "signer given" "$FS" cmsverify --in na.cms --certs chain.pem --ca-file ca.pem
expect_rc "wrong key for the certificate" 2 "not the key of the signer's certificate" "$FS" cmssign --key ca.key \
    --cert leaf.pem --in msg.txt --out x.cms
[ ! -e x.cms ] && ok || bad "cmssign left an output after failing"
# a large content through the streamed path (read twice, never held)
head -c $((6 * 1024 * 1024 + 7)) /dev/urandom >big.bin
check "cmssign big" "$FS" cmssign --key leaf.key --cert leaf.pem --in big.bin --out big.cms
check "cmsverify big" "$FS" cmsverify --in big.cms --ca-file ca.pem --certs inter.pem --out big.out
cmp -s big.bin big.out && ok || bad "the big content came back different"
check "cmssign big detached" "$FS" cmssign --key leaf.key --cert leaf.pem --in big.bin --detached --out bigd.cms
[ "$(stat -c %s bigd.cms)" -lt 4096 ] && ok || bad "a detached message holds the content"
check "cmsverify big detached" "$FS" cmsverify --in bigd.cms --content big.bin --ca-file ca.pem --certs inter.pem
# enveloped data streamed (a regular file of 1 MiB or more into a regular
# file), each way against the in-memory path (stdin, stdout); a tampered
# message leaves no output (an existing one untouched), as in memory
check "cmsencrypt big (sm4-gcm)" "$FS" cmsencrypt --cert two.pem --in big.bin --out bigg.cms
check "cmsencrypt big sm4-cbc" "$FS" cmsencrypt --cert two.pem --in big.bin --cipher sm4-cbc --out bigc.cms
check "cmsdecrypt big (sm4-gcm)" "$FS" cmsdecrypt --key leaf.key --in bigg.cms --out big-g.out
cmp -s big.bin big-g.out && ok || bad "cmsdecrypt big (sm4-gcm) content"
check "cmsdecrypt big sm4-cbc" "$FS" cmsdecrypt --key inter.key --cert inter.pem --in bigc.cms --out big-c.out
cmp -s big.bin big-c.out && ok || bad "cmsdecrypt big sm4-cbc content"
check "cmsdecrypt big to stdout" bash -c "\"$FS\" cmsdecrypt --key leaf.key --out - <bigg.cms >big-m.out"
cmp -s big.bin big-m.out && ok || bad "cmsdecrypt big (in memory) content"
check "cmsencrypt big from stdin" bash -c "\"$FS\" cmsencrypt --cert leaf.pem --cipher sm4-cbc <big.bin >bigm.cms"
rm -f big-c.out
check "cmsdecrypt big, made in memory" "$FS" cmsdecrypt --key leaf.key --in bigm.cms --out big-c.out
cmp -s big.bin big-c.out && ok || bad "cmsdecrypt big (made in memory) content"
"$FS" cmsparse --in bigc.cms >env-parse.txt 2>&1
has "cmsparse big sm4-cbc" env-parse.txt "Cipher: SM4-CBC"
if [ "${ossl_opens:-0}" = 1 ]; then
    rm -f big-ossl.out
    check "openssl cms -decrypt of a streamed cmsencrypt" openssl cms -decrypt -binary -inform DER -in bigc.cms \
        -inkey leaf.key -recip leaf.pem -out big-ossl.out
    cmp -s big.bin big-ossl.out && ok || bad "openssl cms -decrypt content (streamed)"
fi
rm -f big-no.out
flip bigg.cms 5000 bigg-bad.cms
expect_rc "big, tampered (sm4-gcm)" 1 "FASTSM2_ERR_TAG" "$FS" cmsdecrypt --key leaf.key --in bigg-bad.cms \
    --out big-no.out
[ ! -e big-no.out ] && ok || bad "cmsdecrypt of a tampered big message left an output"
expect_rc "big, tampered, in memory" 1 "FASTSM2_ERR_TAG" bash -c "\"$FS\" cmsdecrypt --key leaf.key <bigg-bad.cms"
printf 'kept\n' >big-keep.out
cp big-keep.out big-keep.exp
expect_rc "big, tampered, over a file" 1 "FASTSM2_ERR_TAG" "$FS" cmsdecrypt --key leaf.key --in bigg-bad.cms \
    --out big-keep.out
cmp -s big-keep.out big-keep.exp && ok || bad "cmsdecrypt of a tampered big message changed the existing output"
# CBC: 6 MiB + 7 bytes end in 9 bytes of padding 09; the last one flipped
# through the block before it (08): bad padding
n=$(wc -c <bigc.cms)
flip bigc.cms $((n - 17)) bigc-bad.cms
expect_rc "big, bad padding (sm4-cbc)" 1 "FASTSM2_ERR_PADDING" "$FS" cmsdecrypt --key leaf.key --in bigc-bad.cms \
    --out big-no.out
[ ! -e big-no.out ] && ok || bad "cmsdecrypt of a badly padded big message left an output"
expect_rc "big, not a recipient" 1 "FASTSM2_ERR_RECIPIENT" "$FS" cmsdecrypt --key ca.key --in bigc.cms \
    --out big-no.out
head -c $((n - 1)) bigc.cms >bigc-cut.cms
expect_rc "big, truncated" 1 "not a well-formed CMS message" "$FS" cmsdecrypt --key leaf.key --in bigc-cut.cms \
    --out big-no.out
[ ! -e big-no.out ] && ok || bad "cmsdecrypt of a refused big message left an output"
# the same bytes through stdin and stdout (in memory)
check "cmssign stdin" bash -c "\"$FS\" cmssign --key leaf.key --cert leaf.pem <msg.txt >stdin.cms"
check "cmsverify stdin" bash -c "\"$FS\" cmsverify --no-chain --out - <stdin.cms >stdin.out"
cmp -s msg.txt stdin.out && ok || bad "stdin round trip"
# tampered and hostile messages
flip big.cms 5000 tampered.cms
expect_rc "tampered content" 1 "the content is not the one signed" "$FS" cmsverify --in tampered.cms --no-chain \
    --out t.out
[ ! -e t.out ] && ok || bad "a tampered message's content was written"
head -c 300 s.cms >trunc.cms
expect_rc "truncated CMS" 1 "not a well-formed CMS message" "$FS" cmsverify --in trunc.cms --no-chain
expect_rc "junk CMS" 1 "not a well-formed CMS message" "$FS" cmsverify --in junk.bin --no-chain
# GmSSL's signature, both ways through fastsm2
check "cmssign --gmssl" "$FS" cmssign --key leaf.key --cert leaf.pem --in msg.txt --gmssl --out gms.cms
check "cmsverify --gmssl" "$FS" cmsverify --gmssl --in gms.cms --no-chain
expect_rc "--gmssl is not standard" 1 "FASTSM2_ERR_BAD_SIGNATURE" "$FS" cmsverify --in gms.cms --no-chain
expect_rc "standard is not --gmssl" 1 "FASTSM2_ERR_BAD_SIGNATURE" "$FS" cmsverify --gmssl --in s.cms --no-chain
expect_rc "--gmssl needs the content inside" 2 "" "$FS" cmssign --key leaf.key --cert leaf.pem --in msg.txt \
    --gmssl --detached --out x.cms
# openssl reads our messages
check "openssl cms -cmsout" openssl cms -cmsout -print -inform DER -in s.cms
has "openssl sees signedData" check.out "contentType: pkcs7-signedData"
has "openssl sees SM3" check.out "algorithm: sm3"
if [ "$OSSL_MAJOR" -ge 4 ] || { [ "$OSSL_MAJOR" -eq 3 ] && [ "$OSSL_MINOR" -ge 2 ]; }; then
    # OpenSSL 3.2 on signs and verifies CMS with SM2, with its release's
    # default signer ID (3.x: the empty one, 4.0: 1234567812345678), its
    # certificates' signatures included: the e- chain made with that ID
    check "cmssign for openssl" "$FS" cmssign $E --key leaf.key --cert e-leaf.pem --in msg.txt --out os.cms
    check "openssl cms -verify ours" openssl cms -verify -binary -inform DER -in os.cms -CAfile e-ca.pem \
        -certfile e-inter.pem -out os.txt
    cmp -s msg.txt os.txt && ok || bad "openssl cms -verify content"
    check "cmssign detached for openssl" "$FS" cmssign $E --key leaf.key --cert e-leaf.pem --in msg.txt --detached \
        --pem --out osd.pem
    check "openssl cms -verify detached" openssl cms -verify -binary -inform PEM -in osd.pem -content msg.txt \
        -CAfile e-ca.pem -certfile e-inter.pem -out /dev/null
    expect_rc "openssl cms -verify, another content" 4 "" openssl cms -verify -binary -inform PEM -in osd.pem \
        -content other.txt -CAfile e-ca.pem -certfile e-inter.pem -out /dev/null
    check "openssl cms -sign" openssl cms -sign -binary -nodetach -md sm3 -in msg.txt -signer e-leaf.pem \
        -inkey leaf.key -certfile e-inter.pem -outform DER -out theirs.cms
    check "cmsverify openssl's" "$FS" cmsverify $E --in theirs.cms --ca-file e-ca.pem --out theirs.txt
    cmp -s msg.txt theirs.txt && ok || bad "cmsverify openssl's content"
    expect_rc "cmsverify openssl's, another ID" 1 "FASTSM2_ERR_BAD_SIGNATURE" "$FS" cmsverify --id other \
        --in theirs.cms --no-chain
    check "openssl cms -sign detached" openssl cms -sign -binary -md sm3 -in msg.txt -signer e-leaf.pem \
        -inkey leaf.key -outform PEM -out theirsd.pem
    check "cmsverify openssl's detached" "$FS" cmsverify $E --in theirsd.pem --content msg.txt --ca-file e-ca.pem \
        --certs e-inter.pem
else
    echo "skip openssl cms -sign/-verify: OpenSSL $OSSL_REL cannot sign CMS with SM2 (3.2 can)"
fi

finish test_cli_pki
