#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The command line with the keys users bring: password-encrypted keys
# (--passin/--passout, every source), GmSSL's files (tests/fixtures/gmssl)
# and OpenSSL's, certificates (--cert), HMAC-SM3 (sm3 --hmac against openssl
# dgst), sm3 --check/--tag/--z, sign/verify --digest and --hex, pubkey
# --text, and the message each misleading key file gets.
#
# usage: test_cli_keys.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_keys.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
SRC=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
FIX=$SRC/tests/fixtures/gmssl
cd "$T"
ossl_probe

check() {
    local name=$1
    shift
    if "$@" >"$T/check.out" 2>"$T/check.err" </dev/null; then ok; else bad "$name: $(head -c 400 "$T/check.err")"; fi
}
# expect_rc NAME CODE PATTERN CMD...: exit CODE, and stderr matches PATTERN.
expect_rc() {
    local name=$1 want=$2 pat=$3
    shift 3
    local got=0
    "$@" >"$T/rc.out" 2>"$T/rc.err" </dev/null || got=$?
    if [ "$got" != "$want" ]; then
        bad "$name: exit $got, want $want: $(head -c 400 "$T/rc.err")"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$T/rc.err"; then
        bad "$name: stderr lacks '$pat': $(head -c 400 "$T/rc.err")"
    else
        ok
    fi
}
same() { if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ"; fi; }

MSG=$FIX/msg.txt
PW=fastsm2-fixture

# ---- GmSSL's files ----
for v in 3.1 3.2; do
    D=$FIX/$v
    check "gmssl $v verify" "$FS" verify --pub "$D/pub.pem" --in "$MSG" --sig "$D/sig.der"
    check "gmssl $v verify --cert" "$FS" verify --cert "$D/cert.pem" --in "$MSG" --sig "$D/sig.der"
    check "gmssl $v verify id" "$FS" verify --cert "$D/cert.pem" --id alice@example.com --in "$MSG" --sig "$D/sig-alice.der"
    check "gmssl $v decrypt" "$FS" decrypt --key "$D/key.pem" --passin "pass:$PW" --in "$D/ct.der" --out "dec-$v.txt"
    same "gmssl $v decrypt" "$MSG" "dec-$v.txt"
    expect_rc "gmssl $v no password" 2 "needs a password (an encrypted private key)" setsid "$FS" decrypt --key "$D/key.pem" --in "$D/ct.der"
    expect_rc "gmssl $v wrong password" 2 "wrong password" "$FS" decrypt --key "$D/key.pem" --passin pass:nope --in "$D/ct.der" --out "x-$v"
    [ ! -e "x-$v" ] && ok || bad "output written after a wrong password"
    expect_rc "gmssl $v cert as --pub" 2 "give it with --cert" "$FS" verify --pub "$D/cert.pem" --in "$MSG" --sig "$D/sig.der"
    expect_rc "gmssl $v cert as --key" 2 "is an X.509 certificate, not a private key file" "$FS" sign --key "$D/cert.pem" --in "$MSG" --out "x-$v"
    "$FS" pubkey --key "$D/key.pem" --passin "pass:$PW" --out "pub-$v.pem" && ok || bad "gmssl $v pubkey"
    expect_rc "gmssl $v public key as --key" 2 "is a public key, not a private key" "$FS" sign --key "pub-$v.pem" --in "$MSG" --out "x-$v"
    openssl pkey -pubin -in "pub-$v.pem" -outform DER -out "pub-$v.der" 2>/dev/null && ok || bad "gmssl $v pub to DER"
    expect_rc "gmssl $v public key DER as --key" 2 "is a public key, not a private key" "$FS" decrypt --key "pub-$v.der" --in "$D/ct.der" --out "x-$v"
    [ ! -e "x-$v" ] && ok || bad "output written for a public key as --key"
    "$FS" sm3 --hmac-hex 000102030405060708090a0b0c0d0e0f <"$MSG" | cut -c1-64 >"hm-$v"
    same "gmssl $v hmac" "$D/hmac.txt" "hm-$v"
    # GmSSL's key to OpenSSL's form, read by openssl
    check "gmssl $v key -> openssl" "$FS" key --key "$D/key.pem" --passin "pass:$PW" --passout pass:ossl --pbe sha256-aes256 --out "ossl-$v.pem"
    check "openssl reads it" openssl pkey -in "ossl-$v.pem" -passin pass:ossl -pubout -out "ossl-pub-$v.pem"
    check "same public key" "$FS" verify --pub "ossl-pub-$v.pem" --in "$MSG" --sig "$D/sig.der"
done
# What gmssl did with fastsm2's files (tests/fixtures/gmssl/make-to-gmssl.sh).
for v in 3.1 3.2; do
    D=$FIX/to-$v
    [ -d "$D" ] || continue
    check "gmssl $v signed with our key" "$FS" verify --pub "$D/fastsm2-pub.pem" --in "$MSG" --sig "$D/gmssl-sig.der"
    same "gmssl $v decrypted our ciphertext" "$MSG" "$D/gmssl-decrypted.txt"
    grep -q "verify : success" "$D/gmssl-verify.txt" && ok || bad "gmssl $v did not verify our signature"
done

# ---- password sources ----
check "keygen --passout" "$FS" keygen --out k.pem --pubout p.pem --passout pass:s3cret --iter 1000
grep -q "BEGIN ENCRYPTED PRIVATE KEY" k.pem && ok || bad "keygen --passout wrote a plain key"
echo hello >m
check "pass:" "$FS" sign --key k.pem --passin pass:s3cret --in m --out s1
S3CRET=s3cret check "env:" env S3CRET=s3cret "$FS" sign --key k.pem --passin env:S3CRET --in m --out s2
printf 's3cret\nignored\n' >pwfile
check "file:" "$FS" sign --key k.pem --passin file:pwfile --in m --out s3
check "fd:" bash -c "exec 3<pwfile; '$FS' sign --key k.pem --passin fd:3 --in m --out s4"
check "stdin" bash -c "printf 's3cret\r\n' | '$FS' sign --key k.pem --passin stdin --in m --out s5"
for s in s1 s2 s3 s4 s5; do check "verify $s" "$FS" verify --pub p.pem --in m --sig $s; done
# one stdin, one input: a key read from stdin leaves no password behind it
# (the empty rest was taken as an empty password: "wrong password", and a
# key encrypted with the empty password loaded)
check "keygen, empty password" "$FS" keygen --out kempty.pem --passout pass: --iter 1000
expect_rc "--key - --passin stdin" 2 "only one input" bash -c "'$FS' sign --key - --passin stdin --in m <k.pem"
expect_rc "--key - --passin stdin, empty password" 2 "holds" bash -c "'$FS' sign --key - --passin stdin --in m <kempty.pem"
expect_rc "--key - --passin fd:0" 2 "only one input" bash -c "'$FS' sign --key - --passin fd:0 --in m <kempty.pem"
check "--key - --passin pass:" bash -c "'$FS' sign --key - --passin pass: --in m --out s6 <kempty.pem"
expect_rc "env unset" 2 "not set" "$FS" sign --key k.pem --passin env:NO_SUCH_VAR_X --in m
expect_rc "bad source" 2 "bad password source" "$FS" sign --key k.pem --passin s3cret --in m
expect_rc "no tty" 2 "no terminal" setsid "$FS" sign --key k.pem --in m
expect_rc "pbe without passout" 2 "--passout" "$FS" keygen --out k2.pem --pbe sha256-sm4
expect_rc "bad pbe" 2 "--pbe takes" "$FS" keygen --out k2.pem --passout pass:x --pbe rot13
# The prompt, on a pseudo-terminal (echo off, asked twice for a new key).
if python3 -c 'import pty' 2>/dev/null; then
    cat >ttyrun.py <<'PY'
import os, pty, signal, sys
signal.alarm(120)  # a prompt never answered fails the test instead of hanging it
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
answers = [b"tty-pw\n"] * int(os.environ.get("ANSWERS", "1"))
while True:
    try:
        data = os.read(fd, 1024)
    except OSError:
        break
    if not data:
        break
    out += data
    if answers and out.endswith(b": "):  # a prompt (echo off: nothing else ends so)
        os.write(fd, answers.pop(0))
_, st = os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
sys.exit(os.waitstatus_to_exitcode(st))
PY
    check "prompt on a tty (new key)" env ANSWERS=2 python3 ttyrun.py "$FS" keygen --out kt.pem --passout prompt --iter 1000
    check "prompt on a tty (read)" python3 ttyrun.py "$FS" pubkey --key kt.pem --out pt.pem
    grep -q "tty-pw" "$T/check.out" && bad "the password was echoed" || ok
    check "prompted key" "$FS" pubkey --key kt.pem --passin pass:tty-pw --out pt2.pem
    same "prompted key" pt.pem pt2.pem
fi

# ---- OpenSSL's encrypted keys and ours ----
for c in sm4-cbc aes-256-cbc; do
    openssl genpkey -algorithm SM2 -$c -pass pass:o -out "o-$c.pem" 2>/dev/null
    check "read openssl -$c" "$FS" pubkey --key "o-$c.pem" --passin pass:o --out "o-$c.pub"
    openssl pkey -in "o-$c.pem" -passin pass:o -pubout -out "o-$c.opub"
    same_pub "openssl -$c public key" "o-$c.pub" "o-$c.opub"
done
for pbe in sha256-sm4 sha256-aes256; do
    check "write $pbe" "$FS" key --key "o-sm4-cbc.pem" --passin pass:o --passout pass:n --pbe $pbe --out "n-$pbe.pem"
    check "openssl reads $pbe" openssl pkey -in "n-$pbe.pem" -passin pass:n -pubout -out "n-$pbe.opub"
    same_pub "$pbe public key" "o-sm4-cbc.opub" "n-$pbe.opub"
    check "der $pbe" "$FS" key --key "n-$pbe.pem" --passin pass:n --passout pass:n --pbe $pbe --der --out "n-$pbe.der"
    check "openssl reads der $pbe" openssl pkey -in "n-$pbe.der" -inform DER -passin pass:n -pubout -out "n-$pbe.dpub"
    same_pub "$pbe der public key" "o-sm4-cbc.opub" "n-$pbe.dpub"
done
check "decrypt to plain" "$FS" key --key n-sha256-sm4.pem --passin pass:n --out plain.pem
grep -q "BEGIN PRIVATE KEY" plain.pem && ok || bad "key without --passout is not plain"
expect_rc "sec1 + passout" 2 "PKCS#8" "$FS" key --key plain.pem --sec1 --passout pass:x

# ---- misleading key files get their names ----
openssl genpkey -algorithm SM2 -out sm2.pem 2>/dev/null
openssl pkcs8 -topk8 -in sm2.pem -v2 aes-256-cbc -v2prf hmacWithSHA1 -passout pass:o -out sha1.pem 2>/dev/null
expect_rc "hmacWithSHA1" 2 "scheme fastsm2 does not read" "$FS" pubkey --key sha1.pem --passin pass:o
openssl ec -in sm2.pem -aes256 -passout pass:o -out legacy.pem 2>/dev/null
grep -q "Proc-Type: 4,ENCRYPTED" legacy.pem && ok || bad "openssl ec wrote no legacy key"
expect_rc "legacy" 2 "legacy PEM format" "$FS" pubkey --key legacy.pem --passin pass:o
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p256.pem 2>/dev/null
expect_rc "P-256" 2 "another elliptic curve" "$FS" pubkey --key p256.pem
openssl pkey -in p256.pem -pubout -out p256.pub 2>/dev/null
expect_rc "P-256 pub" 2 "another elliptic curve" "$FS" encrypt --pub p256.pub --in m
openssl genpkey -algorithm ED25519 -out ed.pem 2>/dev/null
expect_rc "Ed25519" 2 "another algorithm" "$FS" pubkey --key ed.pem
{ echo "-----BEGIN PRIVATE KEY-----"; for i in $(seq 120); do echo AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; done; echo "-----END PRIVATE KEY-----"; } >big.pem
expect_rc "oversized" 2 "larger than any" "$FS" pubkey --key big.pem
openssl req -x509 -new -key sm2.pem -sm3 -sigopt distid:1234567812345678 -subj /CN=t -days 2 -out sm2cert.pem 2>/dev/null
check "openssl cert" "$FS" pubkey --cert sm2cert.pem --out cert.pub
openssl pkey -in sm2.pem -pubout -out sm2.pub
same_pub "openssl cert public key" cert.pub sm2.pub
expect_rc "cert as --pub" 2 "give it with --cert" "$FS" encrypt --pub sm2cert.pem --in m
expect_rc "pub as --cert" 2 "not a certificate" "$FS" encrypt --cert sm2.pub --in m
expect_rc "--pub and --cert" 2 "not both" "$FS" encrypt --pub sm2.pub --cert sm2cert.pem --in m
openssl req -x509 -new -key p256.pem -subj /CN=t -days 2 -out p256cert.pem 2>/dev/null
expect_rc "P-256 cert" 2 "another elliptic curve" "$FS" encrypt --cert p256cert.pem --in m
check "encrypt --cert" "$FS" encrypt --cert sm2cert.pem --in m --out ct
check "openssl decrypts" openssl pkeyutl -decrypt -inkey sm2.pem -in ct -out m2
same "encrypt --cert" m m2

# ---- HMAC-SM3, sm3 --check/--tag, Z_A and e ----
head -c 1000 /dev/urandom >r
for key in k secret "a much longer key than the sixty-four bytes of one block of SM3 ....."; do
    want=$(openssl dgst -sm3 -hmac "$key" r | sed 's/.*= //')
    got=$("$FS" sm3 --hmac "$key" r | cut -c1-64)
    [ "$want" = "$got" ] && ok || bad "hmac '$key': $got, want $want"
done
"$FS" sm3 r m >sums
check "sm3 -c" "$FS" sm3 -c sums
"$FS" sm3 --tag r m >tags
grep -q '^SM3 (r) = ' tags && ok || bad "sm3 --tag format"
check "sm3 --check --tag lines" "$FS" sm3 --check tags
echo x >>m
expect_rc "sm3 -c mismatch" 1 "did NOT match" "$FS" sm3 -c sums
grep -q '^m: FAILED' "$T/rc.out" && ok || bad "sm3 -c: no FAILED line"
"$FS" sm3 --hmac k r >hsums
check "hmac check" "$FS" sm3 --hmac k -c hsums
expect_rc "hmac check, wrong key" 1 "did NOT match" "$FS" sm3 --hmac j -c hsums
printf 'garbage\n' >nosums
expect_rc "sm3 -c nothing" 2 "no properly formatted" "$FS" sm3 -c nosums
# e = SM3(Z_A || M), signed and verified as a digest, matches the message forms.
"$FS" sm3 --pub p.pem --id alice r | cut -c1-64 >e.hex
z=$("$FS" sm3 --z --pub p.pem --id alice)
{ printf '%s' "$z" | xxd -r -p; cat r; } | openssl dgst -sm3 -r | cut -c1-64 >e2.hex
same "e = SM3(Z_A || M)" e.hex e2.hex
check "sign --digest --hex" "$FS" sign --key k.pem --passin pass:s3cret --digest --in e.hex --hex --out sig.hex
grep -Eq '^[0-9a-f]+$' sig.hex && ok || bad "--hex output"
check "verify msg with that sig" "$FS" verify --pub p.pem --id alice --in r --sig sig.hex --hex
"$FS" sign --key k.pem --passin pass:s3cret --id alice --in r --raw --out sig.raw
check "verify --digest --raw" "$FS" verify --pub p.pem --digest --in e.hex --sig sig.raw --raw
printf '%064d\n' 0 >e0.hex
expect_rc "verify --digest, another e" 1 "verification failure" "$FS" verify --pub p.pem --digest --in e0.hex --sig sig.raw --raw
expect_rc "digest with id" 2 "ID is already" "$FS" sign --key k.pem --passin pass:s3cret --digest --id a --in e.hex
printf 'abcd' >short
expect_rc "digest of 3 bytes" 2 "digest" "$FS" sign --key k.pem --passin pass:s3cret --digest --in short
check "pubkey --text" "$FS" pubkey --pub p.pem --text
grep -q "^x: " "$T/check.out" && grep -q "Z_A" "$T/check.out" && ok || bad "pubkey --text"

# Ciphertexts as hex text (--hex), raw and DER: the hex is the bytes of a
# ciphertext that decrypts without --hex too, and openssl decrypts the DER.
head -c 1000 /dev/urandom >pt
for fmt in "--raw" "--raw --c1c2c3" ""; do
    check "encrypt $fmt --hex" "$FS" encrypt --pub p.pem --in pt $fmt --hex --out ct.hex
    grep -Eq '^[0-9a-f]+$' ct.hex && [ "$(wc -l <ct.hex)" = 1 ] && ok || bad "encrypt $fmt --hex: not one line of hex"
    xxd -r -p ct.hex >ct.bin
    check "decrypt $fmt --hex" "$FS" decrypt --key k.pem --passin pass:s3cret $fmt --hex --in ct.hex --out pt.hex.out
    same "decrypt $fmt --hex" pt pt.hex.out
    check "decrypt $fmt of the hex's bytes" "$FS" decrypt --key k.pem --passin pass:s3cret $fmt --in ct.bin --out pt.bin.out
    same "decrypt $fmt of the hex's bytes" pt pt.bin.out
done
"$FS" key --key k.pem --passin pass:s3cret --out kplain.pem
if pkeyutl_fits "openssl decrypts the DER of --hex" 1000; then
    check "openssl decrypts the DER of --hex" openssl pkeyutl -decrypt -inkey kplain.pem -in ct.bin -out pt.ossl
    same "openssl decrypts the DER of --hex" pt pt.ossl
fi
printf 'zz' >bad.hex
expect_rc "decrypt --hex of non-hex" 2 "not hex" "$FS" decrypt --key k.pem --passin pass:s3cret --hex --in bad.hex

# ---- the PBKDF2 iteration limit: named with the count, raisable ----
check "keygen --iter 70000" "$FS" keygen --der --out k70k.der --passout pass:p --pbe sha256-aes256 --iter 70000
check "read with the default limit" "$FS" pubkey --key k70k.der --passin pass:p --out /dev/null
expect_rc "--max-iter below the count" 2 "asks for 70000 PBKDF2 iterations, more than the limit of 1000" \
    "$FS" pubkey --key k70k.der --passin pass:p --max-iter 1000
grep -q -- "--max-iter 70000" rc.err && ok || bad "the message does not say how to raise the limit: $(cat rc.err)"
check "--max-iter at the count" "$FS" pubkey --key k70k.der --passin pass:p --max-iter 70000 --out /dev/null
expect_rc "--max-iter junk" 2 "--max-iter takes" "$FS" pubkey --key k70k.der --passin pass:p --max-iter 12x
# a count past the default limit (2^21): named, not "a scheme fastsm2 does
# not read" (as past 2^24 before), and refused without PBKDF2 work or a prompt
python3 - k70k.der k2m.der <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
old, new = bytes([2, 3]) + (70000).to_bytes(3, "big"), bytes([2, 3]) + ((1 << 21) + 1).to_bytes(3, "big")
assert d.count(old) == 1
open(sys.argv[2], "wb").write(d.replace(old, new))
PY
expect_rc "past the default limit" 2 "asks for 2097153 PBKDF2 iterations, more than the limit of 2097152" \
    "$FS" pubkey --key k2m.der --passin pass:p
expect_rc "past the default limit, no password" 2 "more than the limit" setsid "$FS" pubkey --key k2m.der
expect_rc "the limit raised: read (another count, another key: wrong password)" 2 "wrong password" \
    "$FS" pubkey --key k2m.der --passin pass:p --max-iter 2097153

# ---- inputs stop at each parser's limit (/dev/zero as a key) ----
for opt in "pubkey --key" "pubkey --pub" "verify --in m --sig s1 --pub" "verify --in m --pub p.pem --sig" \
    "verify --in m --sig s1 --cert"; do
    expect_rc "$opt /dev/zero" 2 "larger than any" timeout 20 "$FS" $opt /dev/zero
done
expect_rc "pubkey --key - </dev/zero" 2 "larger than any" timeout 20 bash -c "'$FS' pubkey --key - </dev/zero"
# and without growing: 64 MiB of address space is far more than the limits
# need and far less than the 512 MiB the whole-file read reached (not under
# a sanitizer, which reserves more than that for itself)
if (ulimit -v 65536 && "$FS" version >/dev/null 2>&1); then
    expect_rc "pubkey --key /dev/zero in 64 MiB" 2 "larger than any" bash -c "ulimit -v 65536; '$FS' pubkey --key /dev/zero"
    expect_rc "verify --cert /dev/zero in 64 MiB" 2 "larger than any" bash -c "ulimit -v 65536; '$FS' verify --in m --sig s1 --cert /dev/zero"
fi

finish test_cli_keys
