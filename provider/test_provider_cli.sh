#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# fastsm2prov under the openssl command line (docs/PROVIDER.md): with
# "-provider-path DIR -provider fastsm2prov -provider default -propquery
# ?provider=fastsm2prov" it makes keys, signs, verifies, encrypts, decrypts
# and hashes, and OpenSSL's default provider alone accepts what it makes and
# the other way round; SM4 through openssl enc gives the default provider's
# bytes, and openssl speed -evp sm4-gcm and sm4-ccm run. Each check that the provider ran feeds it a bad input
# and finds the provider's own error name (FASTSM2_ERR_*) in the message.
# The openssl.cnf fragment of docs/PROVIDER.md runs as written.
#
# usage: test_provider_cli.sh MODULE_DIR      (prints "N passed, N failed")
set -uo pipefail
. "$(dirname "$0")/../tests/shlib.sh"
SRC=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(cd "${1:?usage: $0 MODULE_DIR}" && pwd)
[ -f "$DIR/fastsm2prov.so" ] || { echo "no $DIR/fastsm2prov.so" >&2; exit 1; }
command -v openssl >/dev/null || { echo "openssl not found" >&2; exit 1; }
cd "$T" || exit 1

LOAD=(-provider-path "$DIR" -provider fastsm2prov -provider default)
OURS=("${LOAD[@]}" -propquery '?provider=fastsm2prov')
check() { # MSG CMD...: CMD succeeds
    local msg=$1
    shift
    if "$@" >cmd.out 2>&1; then ok; else bad "$msg: $(tail -3 cmd.out)"; fi
}
refuse() { # MSG CMD...: CMD fails
    local msg=$1
    shift
    if "$@" >cmd.out 2>&1; then bad "$msg: accepted"; else ok; fi
}
ran_here() { # MSG ERRNAME CMD...: CMD fails with fastsm2prov's ERRNAME
    local msg=$1 name=$2
    shift 2
    "$@" >cmd.out 2>&1
    if grep -q "fastsm2prov.*$name" cmd.out; then ok; else bad "$msg: no '$name' from fastsm2prov: $(tail -3 cmd.out)"; fi
}

# ---- loading ----------------------------------------------------------------
openssl list -providers "${LOAD[@]}" >prov.txt 2>&1
if grep -q 'fastsm2prov' prov.txt && grep -A3 'fastsm2prov' prov.txt | grep -q 'status: active'; then ok; else
    bad "fastsm2prov not listed as active: $(cat prov.txt)"; fi
openssl list -signature-algorithms "${LOAD[@]}" >algs.txt 2>&1
grep -q 'SM2 } @ fastsm2prov' algs.txt && ok || bad "no SM2 signature @ fastsm2prov: $(cat algs.txt)"

# ---- keys: one made here, one made by the default provider --------------------
check "genpkey (fastsm2prov)" openssl genpkey "${OURS[@]}" -algorithm SM2 -out ours.key
check "genpkey (default)" openssl genpkey -algorithm SM2 -out ref.key
for k in ours ref; do
    check "pubout $k" openssl pkey -in $k.key -pubout -out $k.pub
done
# the key made here is an SM2 key to the default provider, with P = dG
check "pkey -check" openssl pkey -in ours.key -check -noout
openssl pkey -in ours.key -text -noout >ours.txt 2>&1
grep -q 'ASN1 OID: SM2' ours.txt && ok || bad "our key is not an SM2 key to OpenSSL: $(head -5 ours.txt)"

# ---- signatures, both ways; default ID, a custom ID, none ---------------------
head -c 1000 /dev/urandom >msg.bin
n=0
for id in "" "1234567812345678" "alice@example.com"; do
    n=$((n + 1))
    opt=()
    [ -n "$id" ] && opt=(-pkeyopt "distid:$id")
    # ours signs, default verifies
    check "sign ($n) here" openssl pkeyutl "${OURS[@]}" -sign -rawin -digest sm3 -inkey ours.key "${opt[@]}" \
        -in msg.bin -out s_ours$n.bin
    check "verify ($n) in default" openssl pkeyutl -verify -rawin -digest sm3 -pubin -inkey ours.pub "${opt[@]}" \
        -in msg.bin -sigfile s_ours$n.bin
    # default signs, ours verifies
    check "sign ($n) in default" openssl pkeyutl -sign -rawin -digest sm3 -inkey ref.key "${opt[@]}" \
        -in msg.bin -out s_ref$n.bin
    check "verify ($n) here" openssl pkeyutl "${OURS[@]}" -verify -rawin -digest sm3 -pubin -inkey ref.pub \
        "${opt[@]}" -in msg.bin -sigfile s_ref$n.bin
    # another ID fails on both sides
    refuse "wrong ID ($n) in default" openssl pkeyutl -verify -rawin -digest sm3 -pubin -inkey ours.pub \
        -pkeyopt distid:x"$id" -in msg.bin -sigfile s_ours$n.bin
    ran_here "wrong ID ($n) here" FASTSM2_ERR_BAD_SIGNATURE openssl pkeyutl "${OURS[@]}" -verify -rawin \
        -digest sm3 -pubin -inkey ref.pub -pkeyopt distid:x"$id" -in msg.bin -sigfile s_ref$n.bin
done
# openssl dgst: EVP_DigestSign through -sign, the ID through -sigopt
check "dgst -sign here" openssl dgst "${OURS[@]}" -sm3 -sign ours.key -sigopt distid:1234567812345678 \
    -out d_ours.bin msg.bin
check "dgst -verify in default" openssl dgst -sm3 -verify ours.pub -sigopt distid:1234567812345678 \
    -signature d_ours.bin msg.bin
check "dgst -sign in default" openssl dgst -sm3 -sign ref.key -out d_ref.bin msg.bin
check "dgst -verify here" openssl dgst "${OURS[@]}" -sm3 -verify ref.pub -signature d_ref.bin msg.bin
# signing ran here: an ID longer than ENTL can count is our named error
head -c 8192 /dev/zero | tr '\0' a >longid.txt
ran_here "sign ran in fastsm2prov" FASTSM2_ERR_ID openssl pkeyutl "${OURS[@]}" -sign -rawin -digest sm3 \
    -inkey ours.key -pkeyopt "distid:$(cat longid.txt)" -in msg.bin -out /dev/null

# ---- encryption, both ways ----------------------------------------------------
# Early 3.0 releases' pkeyutl (3.0.2) reads at most 10 times the key's size
# of input (720 bytes for SM2), whichever provider runs: there the long case
# is 600 bytes, whose ciphertext is under 720 (checked: the default provider's own round trip of 5000
# bytes fails with that program).
big=5000
head -c 5000 /dev/urandom >probe.bin
if ! { openssl pkeyutl -encrypt -pubin -inkey ref.pub -in probe.bin -out probe.ct &&
       openssl pkeyutl -decrypt -inkey ref.key -in probe.ct -out probe.pt && cmp -s probe.bin probe.pt; } 2>/dev/null; then
    echo "note: $(openssl version): pkeyutl cannot take 5000 bytes of input even in the default provider; 600 instead"
    big=600
fi
for len in 1 100 $big; do
    head -c $len /dev/urandom >pt$len.bin
    check "encrypt $len here" openssl pkeyutl "${OURS[@]}" -encrypt -pubin -inkey ref.pub -in pt$len.bin -out c_ours$len.bin
    check "decrypt $len in default" openssl pkeyutl -decrypt -inkey ref.key -in c_ours$len.bin -out d_ours$len.bin
    cmp -s pt$len.bin d_ours$len.bin && ok || bad "default's decryption of our $len-byte ciphertext differs"
    check "encrypt $len in default" openssl pkeyutl -encrypt -pubin -inkey ours.pub -in pt$len.bin -out c_ref$len.bin
    check "decrypt $len here" openssl pkeyutl "${OURS[@]}" -decrypt -inkey ours.key -in c_ref$len.bin -out d_ref$len.bin
    cmp -s pt$len.bin d_ref$len.bin && ok || bad "our decryption of default's $len-byte ciphertext differs"
done
# GM/T 0009 DER: SEQUENCE { INTEGER x, INTEGER y, OCTET STRING C3, OCTET STRING C2 }
openssl asn1parse -inform DER -in c_ours100.bin >asn1.txt 2>&1
if [ "$(grep -c 'prim: INTEGER' asn1.txt)" = 2 ] && grep -q 'l=  32 prim: OCTET STRING' asn1.txt &&
    grep -q 'l= 100 prim: OCTET STRING' asn1.txt; then ok; else bad "ciphertext layout: $(cat asn1.txt)"; fi
# encryption and decryption ran here
: >empty.bin
ran_here "encrypt ran in fastsm2prov" FASTSM2_ERR_LENGTH openssl pkeyutl "${OURS[@]}" -encrypt -pubin -inkey ref.pub \
    -in empty.bin -out /dev/null
cp c_ref100.bin bad.bin
printf '\001' | dd of=bad.bin bs=1 seek=$(($(wc -c <bad.bin) - 1)) conv=notrunc 2>/dev/null
ran_here "decrypt ran in fastsm2prov" FASTSM2_ERR_DECRYPT openssl pkeyutl "${OURS[@]}" -decrypt -inkey ours.key \
    -in bad.bin -out d_bad.bin
[ -s d_bad.bin ] && bad "a failed decryption wrote plaintext" || ok
# the size query validates: an empty or malformed ciphertext fails, as it
# does in the default provider, instead of an empty plaintext and exit 0
refuse "decrypt of an empty file in default" openssl pkeyutl -decrypt -inkey ref.key -in empty.bin -out d_empty_ref.bin
ran_here "decrypt of an empty file here" FASTSM2_ERR_CIPHERTEXT openssl pkeyutl "${OURS[@]}" -decrypt -inkey ours.key \
    -in empty.bin -out d_empty.bin
head -c 50 c_ref100.bin >cut.bin
ran_here "decrypt of a truncated ciphertext here" FASTSM2_ERR_CIPHERTEXT openssl pkeyutl "${OURS[@]}" -decrypt \
    -inkey ours.key -in cut.bin -out d_cut.bin
printf 'not a ciphertext at all\n' >junk.bin
ran_here "decrypt of junk here" FASTSM2_ERR_CIPHERTEXT openssl pkeyutl "${OURS[@]}" -decrypt -inkey ours.key \
    -in junk.bin -out d_junk.bin

# ---- SM3 ------------------------------------------------------------------------
a=$(openssl dgst "${OURS[@]}" -sm3 -r msg.bin | cut -d' ' -f1)
b=$(openssl dgst -sm3 -r msg.bin | cut -d' ' -f1)
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "SM3 differs: '$a' vs '$b'"

# ---- X.509: a chain signed here verifies in default, and the other way ------------
check "CA cert (default)" openssl req -new -x509 -key ref.key -sm3 -subj /CN=ref-ca -days 30 -out refca.pem
check "CA cert (here)" openssl req "${OURS[@]}" -new -x509 -key ours.key -sm3 -subj /CN=ours-ca -days 30 -out oursca.pem
check "leaf key" openssl genpkey -algorithm SM2 -out leaf.key
check "leaf CSR" openssl req -new -key leaf.key -sm3 -subj /CN=leaf -out leaf.csr
for sigid in "" "1234567812345678"; do
    so=() vo=()
    [ -n "$sigid" ] && so=(-sigopt "distid:$sigid") vo=(-vfyopt "distid:$sigid")
    check "leaf signed here ($sigid)" openssl x509 "${OURS[@]}" -req -in leaf.csr -CA oursca.pem -CAkey ours.key \
        -sm3 "${so[@]}" -days 30 -set_serial 2 -out leaf_o.pem
    check "leaf signed in default ($sigid)" openssl x509 -req -in leaf.csr -CA refca.pem -CAkey ref.key -sm3 \
        "${so[@]}" -days 30 -set_serial 3 -out leaf_r.pem
    check "verify in default ($sigid)" openssl verify "${vo[@]}" -CAfile oursca.pem leaf_o.pem
    check "verify here ($sigid)" openssl verify "${OURS[@]}" "${vo[@]}" -CAfile refca.pem leaf_r.pem
    refuse "wrong ID in default ($sigid)" openssl verify -vfyopt distid:x$sigid -CAfile oursca.pem leaf_o.pem
    ran_here "wrong ID here ($sigid)" FASTSM2_ERR_BAD_SIGNATURE openssl verify "${OURS[@]}" -vfyopt distid:x$sigid \
        -CAfile refca.pem leaf_r.pem
done

# ---- SM4: openssl enc, the same bytes as the default provider's, both ways ------
openssl list -cipher-algorithms "${LOAD[@]}" >ciphers.txt 2>&1
for c in SM4-ECB SM4-CBC SM4-CTR SM4-OFB SM4-CFB SM4-GCM SM4-CCM SM4-XTS; do
    grep -Eq "[ ,]$c[ ,].*@ fastsm2prov" ciphers.txt && ok || bad "no $c @ fastsm2prov in openssl list -cipher-algorithms"
done
K=00112233445566778899aabbccddeeff IV=0f0e0d0c0b0a09080706050403020100
head -c 100003 /dev/urandom >sm4.pt
for m in ecb cbc ctr ofb cfb; do
    iv=(-iv $IV)
    [ $m = ecb ] && iv=()
    check "enc -sm4-$m (fastsm2prov)" openssl enc "${OURS[@]}" -sm4-$m -K $K "${iv[@]}" -in sm4.pt -out o.$m
    check "enc -sm4-$m (default)" openssl enc -sm4-$m -K $K "${iv[@]}" -in sm4.pt -out r.$m
    cmp -s o.$m r.$m && ok || bad "sm4-$m: fastsm2prov and the default provider differ"
    check "enc -d -sm4-$m (fastsm2prov)" openssl enc "${OURS[@]}" -d -sm4-$m -K $K "${iv[@]}" -in r.$m -out o.$m.pt
    cmp -s sm4.pt o.$m.pt && ok || bad "sm4-$m: fastsm2prov does not decrypt the default provider's"
done
# a password (PBKDF2, a random salt): each decrypts the other's
check "enc -pbkdf2 (fastsm2prov)" openssl enc "${OURS[@]}" -sm4-cbc -pbkdf2 -pass pass:pw -in sm4.pt -out o.pb
check "enc -d -pbkdf2 (default)" openssl enc -d -sm4-cbc -pbkdf2 -pass pass:pw -in o.pb -out r.pb.pt
cmp -s sm4.pt r.pb.pt && ok || bad "the default provider does not decrypt fastsm2prov's -pbkdf2 file"
# it ran here: a ciphertext whose padding is wrong gets the provider's error
# (four blocks of zeros encrypted without padding: the last plaintext byte is
# 0, never valid PKCS#7, where random bytes pass as padding 1 time in 256)
head -c 64 /dev/zero >zeros.bin
check "enc -nopad (default)" openssl enc -sm4-cbc -nopad -K $K -iv $IV -in zeros.bin -out junk.bin
ran_here "enc -d bad padding" FASTSM2_ERR_PADDING openssl enc "${OURS[@]}" -d -sm4-cbc -K $K -iv $IV -in junk.bin
# openssl speed -evp sm4-gcm and sm4-ccm (speed's own loop for CCM: the tag
# length and the message length set again each time): on any OpenSSL 3, 3.0
# included, which has neither mode
for m in gcm ccm; do
    M=$(tr a-z A-Z <<<$m)
    openssl speed "${OURS[@]}" -seconds 1 -bytes 256 -evp sm4-$m >speed.txt 2>&1
    grep -Eq "^SM4-$M +[0-9.]+k" speed.txt && ok || bad "openssl speed -evp sm4-$m: $(tail -3 speed.txt)"
done

# ---- the openssl.cnf fragment of docs/PROVIDER.md, as written ------------------
awk '/<!-- openssl.cnf -->/ {f = 1; next} f && /^```/ {if (++n == 2) exit; next} f && n == 1' \
    "$SRC/docs/PROVIDER.md" >fastsm2.cnf
if grep -q 'fastsm2prov' fastsm2.cnf; then ok; else bad "no openssl.cnf fragment in docs/PROVIDER.md"; fi
# its module line names the installed path; where no module is there, the
# check the page gives (openssl list -providers) shows it missing
grep -q '^module = .*/fastsm2prov.so$' fastsm2.cnf && ok || bad "the fragment has no module = line"
if [ ! -e "$(sed -n 's/^module = //p' fastsm2.cnf)" ]; then
    OPENSSL_CONF=$T/fastsm2.cnf openssl list -providers >nomod.txt 2>&1
    grep -q 'fastsm2prov' nomod.txt && bad "a module that is not there listed as loaded: $(cat nomod.txt)" || ok
fi
sed -i "s|^module = .*|module = $(cd "$DIR" && pwd)/fastsm2prov.so|" fastsm2.cnf
export OPENSSL_CONF=$T/fastsm2.cnf
openssl list -providers >cnf.txt 2>&1
grep -A3 'fastsm2prov' cnf.txt | grep -q 'status: active' && grep -A3 'default' cnf.txt | grep -q 'status: active' &&
    ok || bad "the fragment does not load both providers: $(cat cnf.txt)"
check "sign under the fragment" openssl pkeyutl -sign -rawin -digest sm3 -inkey ref.key -in msg.bin -out s_cnf.bin
ran_here "the fragment prefers fastsm2prov" FASTSM2_ERR_BAD_SIGNATURE openssl pkeyutl -verify -rawin -digest sm3 \
    -pubin -inkey ref.pub -pkeyopt distid:x -in msg.bin -sigfile s_cnf.bin
unset OPENSSL_CONF
check "signed under the fragment, verified in default" openssl pkeyutl -verify -rawin -digest sm3 -pubin \
    -inkey ref.pub -in msg.bin -sigfile s_cnf.bin

# ---- no_distid in the provider's section: the ID without distid ------------------
# (auto: the host's rule, checked above; "1234567812345678" and "empty" decide)
FS=$DIR/../fastsm2
if [ -x "$FS" ]; then
    for rule in 1234567812345678 empty; do
        sed "/^\[fastsm2prov_sect\]/a no_distid = $rule" fastsm2.cnf >rule.cnf
        check "sign with no_distid = $rule" env OPENSSL_CONF=$T/rule.cnf openssl pkeyutl -sign -rawin -digest sm3 \
            -inkey ref.key -in msg.bin -out s_rule.bin
        id=1234567812345678
        [ $rule = empty ] && id=
        check "no_distid = $rule: the signature is the ID's" "$FS" verify --pub ref.pub --id "$id" --in msg.bin \
            --sig s_rule.bin
        other=""
        [ $rule = empty ] && other=1234567812345678
        refuse "no_distid = $rule: not the other ID's" "$FS" verify --pub ref.pub --id "$other" --in msg.bin \
            --sig s_rule.bin
    done
    sed "/^\[fastsm2prov_sect\]/a no_distid = sometimes" fastsm2.cnf >rule.cnf
    check "no_distid: another value is auto" env OPENSSL_CONF=$T/rule.cnf openssl pkeyutl -sign -rawin -digest sm3 \
        -inkey ref.key -in msg.bin -out s_rule.bin
    check "no_distid auto: as the default provider" openssl pkeyutl -verify -rawin -digest sm3 -pubin \
        -inkey ref.pub -in msg.bin -sigfile s_rule.bin
else
    echo "skip no_distid: no fastsm2 program beside $DIR"
fi

finish test_provider_cli
