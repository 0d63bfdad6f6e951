#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The fastsm2 command-line tool against the openssl command line (OpenSSL 3):
# keys, signatures and ciphertexts must cross between the two both ways;
# tampered inputs and usage errors must give the documented exit status, one
# line on stderr and no output file.
#
# usage: test_cli.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
cd "$T"
ossl_probe

ID=1234567812345678 # the default signer ID

# check NAME CMD...: CMD must succeed.
check() {
    local name=$1
    shift
    if "$@" >"$T/check.out" 2>"$T/check.err"; then
        ok
    else
        bad "$name: $(head -c 400 "$T/check.err")"
    fi
}

# check_not NAME CMD...: CMD must fail.
check_not() {
    local name=$1
    shift
    if "$@" >/dev/null 2>&1; then bad "$name: succeeded"; else ok; fi
}

# expect_rc NAME CODE CMD...: CMD must exit with CODE; on a failure (CODE
# != 0) stderr must be one line starting with "fastsm2".
expect_rc() {
    local name=$1 want=$2
    shift 2
    local got=0
    "$@" >"$T/rc.out" 2>"$T/rc.err" || got=$?
    if [ "$got" != "$want" ]; then
        bad "$name: exit $got, want $want: $(head -c 400 "$T/rc.err")"
    elif [ "$want" != 0 ] && { [ "$(wc -l <"$T/rc.err")" != 1 ] || ! grep -q '^fastsm2' "$T/rc.err"; }; then
        bad "$name: stderr is not one 'fastsm2 ...' line: $(head -c 400 "$T/rc.err")"
    else
        ok
    fi
}

# absent NAME FILE: FILE (and any temporary file beside it) must not exist.
absent() {
    local dir base
    dir=$(dirname "$2")
    base=$(basename "$2")
    if [ -e "$2" ] || compgen -G "$dir/.$base.*" >/dev/null; then
        bad "$1: $2 or a temporary file was left behind"
    else
        ok
    fi
}

# same NAME A B: files A and B are equal byte for byte.
same() {
    if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ"; fi
}

size_of() { wc -c <"$1" | tr -d ' '; }

# ---------------------------------------------------------------------------
# Keys: openssl's load here, ours load there, public keys byte for byte
# ---------------------------------------------------------------------------
openssl genpkey -algorithm SM2 -out k.pem 2>/dev/null
openssl pkey -in k.pem -pubout -out p.pem
openssl pkey -in k.pem -outform DER -out k.der
openssl pkey -in k.pem -pubout -outform DER -out p.der
openssl ec -in k.pem -out sec1.pem 2>/dev/null           # "SM2 PRIVATE KEY" label
sed 's/SM2 PRIVATE KEY/EC PRIVATE KEY/' sec1.pem >sec1-ec.pem
openssl ec -in k.pem -outform DER -out sec1.der 2>/dev/null

for k in k.pem k.der sec1-ec.pem sec1.der sec1.pem; do
    expect_rc "pubkey --key $k" 0 "$FS" pubkey --key "$k" --out "pub-$k"
    same_pub "pubkey of $k equals openssl's" "pub-$k" p.pem
done
check "pubkey --der" "$FS" pubkey --key k.pem --der --out pub.der
same_pub "pubkey --der equals openssl's" pub.der p.der
"$FS" pubkey --key k.pem >pub-stdout.pem
same_pub "pubkey to stdout" pub-stdout.pem p.pem

check "keygen" "$FS" keygen --out fk.pem --pubout fp.pem
if [ "$(stat -c %a fk.pem)" = 600 ]; then ok; else bad "keygen: private key mode $(stat -c %a fk.pem)"; fi
check "openssl loads our private key" openssl pkey -in fk.pem -noout
check "openssl loads our public key" openssl pkey -pubin -in fp.pem -noout
openssl pkey -in fk.pem -pubout -out fp-openssl.pem
same_pub "openssl derives our public key" fp-openssl.pem fp.pem
grep -q '^-----BEGIN PRIVATE KEY-----$' fk.pem && ok || bad "keygen: not PKCS#8 PEM"
"$FS" keygen >fk2.pem
check "keygen to stdout loads in openssl" openssl pkey -in fk2.pem -noout
check "keygen --der" "$FS" keygen --der --out fk.der --pubout fp.der
check "openssl loads our DER key" openssl pkey -inform DER -in fk.der -noout
openssl pkey -inform DER -in fk.der -pubout -outform DER -out fp-openssl.der
same_pub "openssl derives our DER public key" fp-openssl.der fp.der
if cmp -s fk.pem fk2.pem; then bad "keygen made the same key twice"; else ok; fi
# an existing file is replaced, and a private key still gets mode 0600
echo old >fk3.pem
chmod 644 fk3.pem
check "keygen over an existing file" "$FS" keygen --out fk3.pem
if [ "$(stat -c %a fk3.pem)" = 600 ]; then ok; else bad "keygen over a file: mode $(stat -c %a fk3.pem)"; fi
check "openssl loads the replaced key" openssl pkey -in fk3.pem -noout

# ---------------------------------------------------------------------------
# Signatures
# ---------------------------------------------------------------------------
printf 'abc' >m-abc
: >m-empty
head -c 102400 /dev/urandom >m-100k
CUSTOM=alice@example.com

for m in m-abc m-empty m-100k; do
    # ours -> openssl, default ID
    check "sign $m" "$FS" sign --key k.pem --in "$m" --out "$m.sig"
    check "openssl dgst verifies our signature on $m" \
        openssl dgst -sm3 -verify p.pem -sigopt "distid:$ID" -signature "$m.sig" "$m"
    check "openssl pkeyutl verifies our signature on $m" \
        openssl pkeyutl -verify -pubin -inkey p.pem -rawin -digest sm3 -pkeyopt "distid:$ID" -in "$m" -sigfile "$m.sig"
    expect_rc "we verify our signature on $m" 0 "$FS" verify --pub p.pem --in "$m" --sig "$m.sig"
    # openssl -> ours, default ID
    openssl dgst -sm3 -sign k.pem -sigopt "distid:$ID" -out "$m.osig" "$m"
    expect_rc "we verify openssl's signature on $m" 0 "$FS" verify --pub p.pem --in "$m" --sig "$m.osig"
done
grep -qx 'Verified OK' rc.out && ok || bad "verify: no 'Verified OK' on stdout"
expect_rc "verify --quiet" 0 "$FS" verify --quiet --pub p.der --in m-abc --sig m-abc.sig
[ -s rc.out ] && bad "verify --quiet printed something" || ok

# a custom ID, both ways; --id-hex gives the same bytes
check "sign --id" "$FS" sign --key k.der --id "$CUSTOM" --in m-abc --out id.sig
check "openssl verifies with our custom ID" \
    openssl dgst -sm3 -verify p.pem -sigopt "distid:$CUSTOM" -signature id.sig m-abc
check_not "openssl refuses it with the default ID" \
    openssl dgst -sm3 -verify p.pem -sigopt "distid:$ID" -signature id.sig m-abc
CUSTOM_HEX=$(printf '%s' "$CUSTOM" | od -An -tx1 | tr -d ' \n')
expect_rc "verify --id-hex" 0 "$FS" verify --pub p.pem --id-hex "$CUSTOM_HEX" --in m-abc --sig id.sig
openssl pkeyutl -sign -inkey k.pem -rawin -digest sm3 -pkeyopt "distid:$CUSTOM" -in m-abc -out id.osig
expect_rc "we verify openssl's custom-ID signature" 0 "$FS" verify --pub p.pem --id "$CUSTOM" --in m-abc --sig id.osig
expect_rc "wrong ID: exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig id.osig
expect_rc "wrong ID (other way): exit 1" 1 "$FS" verify --pub p.pem --id "$CUSTOM" --in m-abc --sig m-abc.sig

# the empty ID (--id ''): what openssl 3.x signs with when no distid is set;
# openssl 4.0 takes the default ID then, and the empty one as "distid:"
if [ "$OSSL_NO_ID_IS_DEFAULT" = 1 ]; then
    SOPT=(-sigopt distid:) POPT=(-pkeyopt distid:)
    openssl dgst -sm3 -sign k.pem -out nodistid.osig m-abc
    expect_rc "openssl 4's no-distid signature is the default ID's" 0 "$FS" verify --pub p.pem --in m-abc --sig nodistid.osig
else
    SOPT=() POPT=()
fi
check "sign --id ''" "$FS" sign --key k.pem --id '' --in m-abc --out empty.sig
check "openssl dgst (empty distid) verifies our empty-ID signature" \
    openssl dgst -sm3 -verify p.pem "${SOPT[@]}" -signature empty.sig m-abc
check "openssl pkeyutl (empty distid) verifies our empty-ID signature" \
    openssl pkeyutl -verify -pubin -inkey p.pem -rawin -digest sm3 "${POPT[@]}" -in m-abc -sigfile empty.sig
check_not "openssl refuses it with the default ID" \
    openssl dgst -sm3 -verify p.pem -sigopt "distid:$ID" -signature empty.sig m-abc
openssl dgst -sm3 -sign k.pem "${SOPT[@]}" -out empty-dgst.osig m-abc
openssl pkeyutl -sign -inkey k.pem -rawin -digest sm3 "${POPT[@]}" -in m-abc -out empty-pkeyutl.osig
for s in empty-dgst.osig empty-pkeyutl.osig; do
    expect_rc "we verify openssl's empty-ID signature ($s) with --id ''" 0 "$FS" verify --pub p.pem --id '' --in m-abc --sig "$s"
    expect_rc "... and with --id-hex ''" 0 "$FS" verify --pub p.pem --id-hex '' --in m-abc --sig "$s"
    expect_rc "... but not with the default ID: exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig "$s"
done
ZE=$("$FS" sm3 --pub p.pem --id '' --z | cut -d' ' -f1)
ZD=$("$FS" sm3 --pub p.pem --z | cut -d' ' -f1)
[ -n "$ZE" ] && [ "$ZE" != "$ZD" ] && ok || bad "sm3 --z --id '': the empty ID's Z_A must differ from the default's"

# our generated key in openssl, and the private key file as --pub
check "sign with a keygen key" "$FS" sign --key fk.pem --in m-100k --out fk.sig
check "openssl verifies a keygen key's signature" \
    openssl dgst -sm3 -verify fp.pem -sigopt "distid:$ID" -signature fk.sig m-100k
expect_rc "verify --pub PRIVATE-KEY-FILE" 0 "$FS" verify --pub fk.pem --in m-100k --sig fk.sig
expect_rc "verify against another key: exit 1" 1 "$FS" verify --pub p.pem --in m-100k --sig fk.sig

# stdin and stdout
"$FS" sign --key sec1.der <m-abc >stdin.sig
expect_rc "sign stdin -> stdout" 0 "$FS" verify --pub p.pem --sig stdin.sig <m-abc
expect_rc "verify with --in -" 0 "$FS" verify --pub p.pem --in - --sig stdin.sig <m-abc
expect_rc "stdin for two inputs: exit 2" 2 "$FS" verify --pub p.pem --sig - <m-abc

# raw r || s
check "sign --raw" "$FS" sign --key k.pem --raw --in m-abc --out raw.sig
[ "$(size_of raw.sig)" = 64 ] && ok || bad "sign --raw: $(size_of raw.sig) bytes"
expect_rc "verify --raw" 0 "$FS" verify --pub p.pem --raw --in m-abc --sig raw.sig
expect_rc "raw signature read as DER: exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig raw.sig
expect_rc "DER signature read as raw: exit 1" 1 "$FS" verify --pub p.pem --raw --in m-abc --sig m-abc.sig

# tampering: exit 1
flip m-abc 1 m-abc.flipped
expect_rc "flipped message bit: exit 1" 1 "$FS" verify --pub p.pem --in m-abc.flipped --sig m-abc.sig
flip m-abc.sig 12 bad1.sig # inside r
expect_rc "flipped signature byte (DER r): exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig bad1.sig
flip m-abc.sig $(($(size_of m-abc.sig) - 1)) bad2.sig # last byte of s
expect_rc "flipped signature byte (DER s): exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig bad2.sig
flip raw.sig 40 bad3.sig
expect_rc "flipped signature byte (raw): exit 1" 1 "$FS" verify --pub p.pem --raw --in m-abc --sig bad3.sig
check_not "openssl agrees the flipped signature is bad" \
    openssl dgst -sm3 -verify p.pem -sigopt "distid:$ID" -signature bad1.sig m-abc
# malformed signature files are invalid signatures (exit 1), as documented
head -c 70 /dev/urandom >garbage.sig
expect_rc "garbage signature: exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig garbage.sig
: >empty.sig
expect_rc "empty signature: exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig empty.sig
head -c 20 m-abc.sig >trunc.sig
expect_rc "truncated signature: exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig trunc.sig
cp m-abc.sig trail.sig
printf '\0' >>trail.sig
expect_rc "signature with a trailing byte: exit 1" 1 "$FS" verify --pub p.pem --in m-abc --sig trail.sig
# but an unreadable one is an input error (exit 2)
expect_rc "missing signature file: exit 2" 2 "$FS" verify --pub p.pem --in m-abc --sig nosuch.sig
expect_rc "missing message file: exit 2" 2 "$FS" verify --pub p.pem --in nosuch --sig m-abc.sig
expect_rc "bad public key file: exit 2" 2 "$FS" verify --pub m-100k --in m-abc --sig m-abc.sig
expect_rc "empty --id: not the default ID (exit 1)" 1 "$FS" verify --pub p.pem --id "" --in m-abc --sig m-abc.sig
expect_rc "ID of 8192 bytes: exit 2" 2 "$FS" verify --pub p.pem --id "$(printf '%8192s' x)" --in m-abc --sig m-abc.sig
check "ID of 8191 bytes" "$FS" sign --key k.pem --id "$(printf '%8191s' x)" --in m-abc --out longid.sig
expect_rc "verify with an ID of 8191 bytes" 0 "$FS" verify --pub p.pem --id "$(printf '%8191s' x)" --in m-abc --sig longid.sig
expect_rc "--id and --id-hex: exit 2" 2 "$FS" verify --pub p.pem --id a --id-hex 61 --in m-abc --sig m-abc.sig
expect_rc "bad --id-hex: exit 2" 2 "$FS" sign --key k.pem --id-hex 6g --in m-abc --out idhex.sig
absent "bad --id-hex: no output" idhex.sig

# ---------------------------------------------------------------------------
# Encryption
# ---------------------------------------------------------------------------
for n in 1 32 4096 102400; do
    head -c "$n" /dev/urandom >"pt$n"
    check "encrypt $n bytes" "$FS" encrypt --pub p.pem --in "pt$n" --out "ct$n"
    if pkeyutl_fits "openssl pkeyutl both ways" "$n"; then
        # openssl -> ours
        openssl pkeyutl -encrypt -pubin -inkey p.pem -in "pt$n" -out "ct$n.openssl"
        check "decrypt openssl's $n-byte ciphertext" "$FS" decrypt --key k.pem --in "ct$n.openssl" --out "pt$n.ours"
        same "decrypt openssl's $n-byte ciphertext: plaintext" "pt$n" "pt$n.ours"
        # ours -> openssl
        check "openssl decrypts our $n-byte ciphertext" \
            openssl pkeyutl -decrypt -inkey k.pem -in "ct$n" -out "pt$n.openssl"
        same "openssl decrypts our $n-byte ciphertext: plaintext" "pt$n" "pt$n.openssl"
    fi
    # raw formats round trip, with their exact sizes
    for fmt in "--raw" "--raw --c1c2c3"; do
        # shellcheck disable=SC2086
        check "encrypt $fmt $n bytes" "$FS" encrypt --pub p.der $fmt --in "pt$n" --out "ct$n.raw"
        [ "$(size_of "ct$n.raw")" = $((n + 97)) ] && ok || bad "encrypt $fmt $n: $(size_of "ct$n.raw") bytes"
        # shellcheck disable=SC2086
        check "decrypt $fmt $n bytes" "$FS" decrypt --key k.der $fmt --in "ct$n.raw" --out "pt$n.raw"
        same "decrypt $fmt $n bytes: plaintext" "pt$n" "pt$n.raw"
    done
done
# empty: openssl 3.0 refuses to encrypt it; ours must round-trip it or refuse
# it cleanly (exit 2, no output)
rc=0
"$FS" encrypt --pub p.pem --in m-empty --out ct0 2>/dev/null || rc=$?
if [ $rc = 0 ]; then
    check "decrypt an empty message" "$FS" decrypt --key k.pem --in ct0 --out pt0
    [ -f pt0 ] && [ ! -s pt0 ] && ok || bad "empty message did not round-trip"
elif [ $rc = 2 ]; then
    ok
    absent "encrypt empty refused: no output" ct0
else
    bad "encrypt empty: exit $rc"
fi

# stdin -> stdout
"$FS" encrypt --pub p.pem <pt32 >ct-stdio
"$FS" decrypt --key k.pem <ct-stdio >pt-stdio
same "encrypt/decrypt through stdin and stdout" pt32 pt-stdio

# flags must match; --c1c2c3 alone is a usage error
"$FS" encrypt --pub p.pem --raw --c1c2c3 --in pt4096 --out c123
expect_rc "C1C2C3 ciphertext decrypted as C1C3C2: exit 1" 1 "$FS" decrypt --key k.pem --raw --in c123 --out c123.pt
absent "wrong order: no output" c123.pt
expect_rc "raw ciphertext decrypted as DER: exit 1" 1 "$FS" decrypt --key k.pem --in c123 --out c123.pt
expect_rc "encrypt --c1c2c3 without --raw: exit 2" 2 "$FS" encrypt --pub p.pem --c1c2c3 --in pt32 --out c.x
absent "encrypt --c1c2c3 without --raw: no output" c.x
expect_rc "decrypt --c1c2c3 without --raw: exit 2" 2 "$FS" decrypt --key k.pem --c1c2c3 --in ct32 --out c.x
expect_rc "decrypt with the wrong key: exit 1" 1 "$FS" decrypt --key fk.pem --in ct32 --out c.x
absent "decrypt with the wrong key: no output" c.x

# tampering: exit 1, and no output file (nor a temporary one)
"$FS" encrypt --pub p.pem --raw --in pt4096 --out rawct # 04||x||y (65) C3 (32) C2
flip rawct 70 rawct.c3
expect_rc "raw: flipped C3 byte: exit 1" 1 "$FS" decrypt --key k.pem --raw --in rawct.c3 --out t.pt
absent "raw: flipped C3 byte: no output" t.pt
flip rawct 2000 rawct.c2
expect_rc "raw: flipped C2 byte: exit 1" 1 "$FS" decrypt --key k.pem --raw --in rawct.c2 --out t.pt
absent "raw: flipped C2 byte: no output" t.pt
flip rawct 10 rawct.c1
expect_rc "raw: flipped C1 byte: exit 1" 1 "$FS" decrypt --key k.pem --raw --in rawct.c1 --out t.pt
absent "raw: flipped C1 byte: no output" t.pt
# DER: find C3 and C2 (the two OCTET STRINGs) with openssl asn1parse
read -r c3off c2off < <(openssl asn1parse -inform DER -in ct4096 |
    awk -F'[: =]+' '/OCTET STRING/ { for (i = 1; i < NF; i++) if ($i == "hl") hl = $(i + 1);
                                     printf "%d ", $2 + hl }') || true
c3off=${c3off:-0}
c2off=${c2off:-0}
[ "$c3off" -gt 64 ] && [ "$c2off" -gt "$c3off" ] && ok || bad "could not locate C3/C2 in the DER ciphertext"
flip ct4096 $((c3off + 5)) derct.c3
expect_rc "DER: flipped C3 byte: exit 1" 1 "$FS" decrypt --key k.pem --in derct.c3 --out t.pt
absent "DER: flipped C3 byte: no output" t.pt
flip ct4096 $((c2off + 100)) derct.c2
expect_rc "DER: flipped C2 byte: exit 1" 1 "$FS" decrypt --key k.pem --in derct.c2 --out t.pt
absent "DER: flipped C2 byte: no output" t.pt
check_not "openssl agrees the flipped ciphertext is bad" openssl pkeyutl -decrypt -inkey k.pem -in derct.c2
# a failed decryption leaves an existing output file as it was
echo precious >keep.pt
expect_rc "tampered ciphertext over an existing file: exit 1" 1 "$FS" decrypt --key k.pem --in derct.c2 --out keep.pt
[ "$(cat keep.pt)" = precious ] && ok || bad "a failed decryption changed the existing output file"
# truncated ciphertexts: exit 1, as documented
head -c 4000 ct4096 >ct.trunc
expect_rc "DER: truncated ciphertext: exit 1" 1 "$FS" decrypt --key k.pem --in ct.trunc --out t.pt
absent "DER: truncated ciphertext: no output" t.pt
head -c 96 rawct >rawct.trunc
expect_rc "raw: ciphertext shorter than C1||C3: exit 1" 1 "$FS" decrypt --key k.pem --raw --in rawct.trunc --out t.pt
absent "raw: truncated ciphertext: no output" t.pt
expect_rc "empty ciphertext: exit 1" 1 "$FS" decrypt --key k.pem --in m-empty --out t.pt
absent "empty ciphertext: no output" t.pt

# ---------------------------------------------------------------------------
# SM3
# ---------------------------------------------------------------------------
printf 'abc' | "$FS" sm3 >sm3.out
[ "$(cat sm3.out)" = "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  -" ] && ok ||
    bad "sm3 of 'abc' (GB/T 32905 A.1): $(cat sm3.out)"
head -c 1000000 /dev/urandom >m-1m
cp m-abc 'name with spaces'
: >sm3.expected
for f in m-abc m-empty m-100k m-1m pt1 'name with spaces'; do
    echo "$(openssl dgst -sm3 -r <"$f" | cut -d' ' -f1)  $f" >>sm3.expected
done
"$FS" sm3 m-abc m-empty m-100k m-1m pt1 'name with spaces' >sm3.out
same "sm3 FILE... equals openssl dgst -sm3" sm3.expected sm3.out
"$FS" sm3 <m-1m >sm3.stdin
[ "$(cat sm3.stdin)" = "$(openssl dgst -sm3 -r <m-1m | cut -d' ' -f1)  -" ] && ok || bad "sm3 of stdin"
"$FS" sm3 - <m-100k >sm3.dash
[ "$(cat sm3.dash)" = "$(openssl dgst -sm3 -r <m-100k | cut -d' ' -f1)  -" ] && ok || bad "sm3 -"
cp m-abc 'back\slash'
"$FS" sm3 'back\slash' >sm3.esc
[ "$(cat sm3.esc)" = "\\66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  back\\\\slash" ] && ok ||
    bad "sm3: escaped name: $(cat sm3.esc)"
if command -v sha256sum >/dev/null; then
    # the same layout as sha256sum, digest aside
    sha256sum m-abc 'name with spaces' | sed 's/^[0-9a-f]*//' >layout.sha
    "$FS" sm3 m-abc 'name with spaces' | sed 's/^[0-9a-f]*//' >layout.sm3
    same "sm3 output laid out as sha256sum's" layout.sha layout.sm3
fi
expect_rc "sm3 of a missing file: exit 2" 2 "$FS" sm3 m-abc nosuch
grep -q '  m-abc$' rc.out && ok || bad "sm3: the readable file was not printed before the error"

# ---------------------------------------------------------------------------
# Usage and input errors: exit 2, one line on stderr, no output file
# ---------------------------------------------------------------------------
expect_rc "no command" 2 "$FS"
expect_rc "unknown command" 2 "$FS" frobnicate
expect_rc "unknown option" 2 "$FS" sign --key k.pem --frob --out u.sig
absent "unknown option: no output" u.sig
expect_rc "option without its value" 2 "$FS" sign --key
expect_rc "a switch given a value" 2 "$FS" sign --key k.pem --raw=1 --in m-abc --out u.sig
expect_rc "an option twice" 2 "$FS" sign --key k.pem --key k.pem --in m-abc --out u.sig
expect_rc "stray argument" 2 "$FS" sign --key k.pem m-abc --out u.sig
expect_rc "sign without --key" 2 "$FS" sign --in m-abc --out u.sig
absent "sign without --key: no output" u.sig
expect_rc "verify without --sig" 2 "$FS" verify --pub p.pem --in m-abc
expect_rc "encrypt without --pub" 2 "$FS" encrypt --in m-abc --out u.ct
expect_rc "decrypt without --key" 2 "$FS" decrypt --in ct32 --out u.pt
expect_rc "pubkey without --key" 2 "$FS" pubkey --out u.pub
expect_rc "unreadable key file" 2 "$FS" sign --key nosuch.pem --in m-abc --out u.sig
grep -q 'cannot read nosuch.pem: No such file or directory' rc.err && ok || bad "unreadable key: message: $(cat rc.err)"
absent "unreadable key file: no output" u.sig
expect_rc "garbage key file" 2 "$FS" sign --key m-100k --in m-abc --out u.sig
absent "garbage key file: no output" u.sig
expect_rc "public key given as --key" 2 "$FS" sign --key p.pem --in m-abc --out u.sig
expect_rc "private key file is a directory" 2 "$FS" decrypt --key "$T" --in ct32 --out u.pt
expect_rc "bad key for encrypt" 2 "$FS" encrypt --pub m-abc --in pt32 --out u.ct
absent "bad key for encrypt: no output" u.ct
expect_rc "output in a missing directory" 2 "$FS" sign --key k.pem --in m-abc --out nodir/u.sig
expect_rc "output is a directory" 2 "$FS" sign --key k.pem --in m-abc --out "$T"
expect_rc "keygen: both keys to stdout" 2 "$FS" keygen --pubout -
expect_rc "keygen: public key in a missing directory" 2 "$FS" keygen --out kk.pem --pubout nodir/kk.pub
absent "keygen: no private key when the public one cannot be written" kk.pem
expect_rc "output to /dev/null" 0 "$FS" sign --key k.pem --in m-abc --out /dev/null
[ -c /dev/null ] && ok || bad "/dev/null was replaced"
ln -s target.sig link.sig
expect_rc "output through a symlink" 0 "$FS" sign --key k.pem --in m-abc --out link.sig
[ -L link.sig ] && [ -s target.sig ] && ok || bad "output through a symlink did not reach the target"

expect_rc "help" 0 "$FS" help
grep -q 'Exit status' rc.out && ok || bad "help does not document the exit status"
expect_rc "--help" 0 "$FS" --help
expect_rc "help verify" 0 "$FS" help verify
grep -q 'exits 1' rc.out && ok || bad "help verify does not document exit 1"
expect_rc "sign --help" 0 "$FS" sign --help
grep -q '^usage: fastsm2 sign' rc.out && ok || bad "sign --help"
expect_rc "help of an unknown command" 2 "$FS" help frobnicate
expect_rc "version" 0 "$FS" version
grep -q '^fastsm2 [0-9]' rc.out && ok || bad "version: $(cat rc.out)"

# GB/T 32918.4 6.1 A5: a 1-byte plaintext meets an all-zero t once in 256
# encryptions, which must then be redone with a fresh k, never fail: 400
# encryptions through the file path and 400 through stdin
printf 'x' > one.txt
fails=0
for i in $(seq 400); do
  "$FS" encrypt --pub fp.pem --in one.txt --out one.ct 2>/dev/null || fails=$((fails + 1))
  "$FS" encrypt --pub fp.pem --raw < one.txt > one.raw 2>/dev/null || fails=$((fails + 1))
done
[ "$fails" = 0 ] && ok || bad "1-byte encryptions failed $fails times in 800"
"$FS" decrypt --key fk.pem --in one.ct --out one.out && cmp -s one.txt one.out && ok || bad "1-byte round trip"

# speed runs fastsm2-speed beside the binary, with the arguments untouched
mkdir speed
cp "$FS" speed/fastsm2
expect_rc "speed without fastsm2-speed: exit 2" 2 speed/fastsm2 speed --seconds 1
printf '#!/bin/sh\nfor a in "$@"; do printf "[%%s]" "$a"; done\n' >speed/fastsm2-speed
chmod +x speed/fastsm2-speed
expect_rc "speed runs fastsm2-speed" 0 speed/fastsm2 speed --seconds 0.5 --json 'a b'
[ "$(cat rc.out)" = "[--seconds][0.5][--json][a b]" ] && ok || bad "speed passed: $(cat rc.out)"

# speed --threads: the batch API with 1 and N threads; its output is checked
# by the benchmark itself (every signature verifies), and bad N is a usage error
expect_rc "speed --threads 2" 0 "$FS" speed --threads 2 --seconds 0.05 --rounds 1 --json
[ "$(grep -c '"op": "sign-batch"' rc.out)" = 2 ] && [ "$(grep -c '"op": "verify-batch"' rc.out)" = 2 ] &&
  grep -q '"threads": 2' rc.out && ok || bad "speed --threads json: $(cat rc.out)"
expect_rc "speed --threads x" 2 "$FS" speed --threads x
expect_rc "speed --threads -1" 2 "$FS" speed --threads -1

finish test_cli
