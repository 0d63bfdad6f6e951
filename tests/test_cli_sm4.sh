#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# fastsm2 sm4, seal and open (docs/SM4.md, "Command line"):
#  - the GCM stream and the envelope round-trip every size around the
#    64 KiB chunks, through files and through stdin/stdout;
#  - a wrong key, a wrong --aad, and every kind of damage (a changed byte
#    in each part, truncation inside a chunk and at a chunk's end, a chunk
#    dropped, bytes appended) exit 1 and leave no output file, and an
#    existing output file as it was;
#  - the raw modes are openssl enc's bytes both ways (-K, -iv, -nopad);
#  - the envelope's wrapped key is GM/T 0009 DER that openssl pkeyutl
#    decrypts; keys in every form fastsm2 reads; bad keys, IVs and options
#    are usage errors (exit 2);
#  - the examples of docs/SM4.md, "Command line", run as written.
#
# usage: test_cli_sm4.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_sm4.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
SRC=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$T"

# expect_rc NAME CODE PATTERN CMD...: exit CODE, and stderr matches PATTERN.
expect_rc() {
    local name=$1 want=$2 pat=$3 got=0
    shift 3
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
absent() { if [ -e "$2" ]; then bad "$1: $2 was left behind"; else ok; fi; }
size() { stat -c %s "$1"; }
# byte N (from 0) of FILE as a number
byte_at() { od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '; }
# part FILE OFFSET [COUNT]: COUNT bytes of FILE from OFFSET (to the end without COUNT)
part() { dd if="$1" iflag=skip_bytes,count_bytes skip="$2" ${3:+count="$3"} status=none; }

K=000102030405060708090a0b0c0d0e0f
printf '%s\n' $K >k.hex
printf '%s' $K | xxd -r -p >k.bin
C=65536

# ---- the GCM stream: sizes around the chunk ------------------------------------
for n in 0 1 16 1000 $((C - 1)) $C $((C + 1)) $((2 * C)) $((2 * C + 5)) 300000; do
    head -c $n /dev/urandom >p.$n
    "$FS" sm4 -e --key k.hex --in p.$n --out c.$n && ok || bad "encrypt $n bytes"
    # header 25 bytes, a tag per chunk (at least one), the data
    chunks=$(((n + C - 1) / C))
    [ $chunks -eq 0 ] && chunks=1
    [ $((n % C)) -eq 0 ] && [ $n -gt 0 ] && chunks=$((n / C))
    [ "$(size c.$n)" = $((25 + n + 16 * chunks)) ] && ok || bad "encrypt $n bytes: size $(size c.$n)"
    "$FS" sm4 -d --key-hex $K --in c.$n --out d.$n && ok || bad "decrypt $n bytes"
    same "round trip $n bytes" p.$n d.$n
done
# stdin to stdout, both ways, with a key file of 16 raw bytes
"$FS" sm4 -e --key k.bin <p.300000 >c.pipe && ok || bad "encrypt through a pipe"
"$FS" sm4 -d --key k.bin <c.pipe >d.pipe && ok || bad "decrypt through a pipe"
same "through stdin/stdout" p.300000 d.pipe
cat p.300000 | "$FS" sm4 -e --key-hex $K | "$FS" sm4 -d --key k.hex >d.pipe2 && ok || bad "pipes both ends"
same "pipes both ends" p.300000 d.pipe2
# a fresh salt every time: the same file twice gives two ciphertexts
"$FS" sm4 -e --key k.hex --in p.1000 --out c2.1000
cmp -s c.1000 c2.1000 && bad "two encryptions of one file are equal" || ok
# --aad: bound to the file, must match
"$FS" sm4 -e --key k.hex --aad "record 7" --in p.1000 --out ca.1000 && ok || bad "encrypt --aad"
"$FS" sm4 -d --key k.hex --aad "record 7" --in ca.1000 --out da.1000 && ok || bad "decrypt --aad"
same "--aad round trip" p.1000 da.1000
expect_rc "wrong --aad" 1 "fails its tag" "$FS" sm4 -d --key k.hex --aad "record 8" --in ca.1000 --out x
expect_rc "no --aad" 1 "fails its tag" "$FS" sm4 -d --key k.hex --in ca.1000 --out x
absent "wrong --aad" x

# ---- damage: exit 1, no output, an existing output untouched ----------------------
f=c.$((2 * C + 5)) # three chunks: 25 + (65536+16) * 2 + 5 + 16
L=$(size $f)
echo "keep me" >existing
cp existing existing.orig
for off in 0 8 9 20 24 25 1000 $((25 + C + 15)) $((25 + C + 16)) $((25 + 2 * C + 32)) $((L - 1)); do
    flip $f $off bad.c
    expect_rc "byte $off changed" $([ $off -lt 8 ] && echo 2 || echo 1) "" "$FS" sm4 -d --key k.hex --in bad.c --out existing
    same "byte $off changed: the old output stays" existing.orig existing
done
h=25 c=$((C + 16))                      # the header, a whole chunk with its tag
head -c $((h + c + 100)) $f >trunc.mid  # inside the second chunk
head -c $((h + 2 * c)) $f >trunc.edge   # the last chunk dropped
head -c 20 $f >trunc.hdr                # inside the header
head -c $((h + 2 * c + 10)) $f >trunc.tag # the last chunk shorter than a tag
{ part $f 0 $h; part $f $((h + c)) $c; part $f $h $c; part $f $((h + 2 * c)); } >swap # two chunks swapped
{ cat $f; printf '\0'; } >extra                                                     # a byte appended
{ cat $f; part $f $h 21; } >extra.chunk                                              # a chunk's worth appended
[ "$(size swap)" = "$L" ] && [ "$(size extra)" = $((L + 1)) ] && [ "$(size extra.chunk)" = $((L + 21)) ] && ok ||
    bad "the damaged files are not the sizes meant"
cmp -s swap $f && bad "swap: the chunks are the same" || ok
for b in trunc.mid trunc.edge trunc.hdr trunc.tag swap extra extra.chunk; do
    expect_rc "$b" 1 "does not decrypt" "$FS" sm4 -d --key k.hex --in $b --out out.$b
    absent "$b" out.$b
done
expect_rc "wrong key" 1 "fails its tag" "$FS" sm4 -d --key-hex ffffffffffffffffffffffffffffffff --in $f --out out.wk
absent "wrong key" out.wk
ls -a | grep -q '^\.out\.' && bad "a temporary file was left behind" || ok
# to stdout: the chunks that authenticate, then exit 1
# (the second chunk is full but was not the last: it fails as a last one)
"$FS" sm4 -d --key k.hex --in trunc.edge >part.out 2>/dev/null && bad "truncated to stdout: exit 0" || ok
[ "$(size part.out)" = $C ] && ok || bad "truncated to stdout: $(size part.out) bytes written"

# ---- raw modes: openssl enc's bytes ---------------------------------------------------
IV=f0e1d2c3b4a5968778695a4b3c2d1e0f
head -c 100 /dev/urandom >p.100
head -c 70000 /dev/urandom >p.70000
for n in 0 1 100 70000; do
    for m in cbc ctr ecb ofb cfb; do
        iv=(--iv $IV)
        oiv=(-iv $IV)
        [ $m = ecb ] && iv=() && oiv=()
        [ $n = 0 ] && [ $m != cbc ] && [ $m != ecb ] && continue
        "$FS" sm4 -e --mode $m --key k.hex "${iv[@]}" --in p.$n --out r.$m && ok || bad "raw $m $n"
        openssl enc -sm4-$m -K $K "${oiv[@]}" -in p.$n -out o.$m 2>/dev/null
        same "raw $m $n = openssl enc -sm4-$m" r.$m o.$m
        "$FS" sm4 -d --mode $m --key k.hex "${iv[@]}" --in o.$m --out rd.$m && ok || bad "raw $m $n: decrypt openssl's"
        same "raw $m $n: decrypt openssl's" p.$n rd.$m
        openssl enc -d -sm4-$m -K $K "${oiv[@]}" -in r.$m -out od.$m 2>/dev/null && ok || bad "openssl decrypts raw $m $n"
        same "openssl decrypts raw $m $n" p.$n od.$m
    done
done
head -c 4096 /dev/urandom >p.4096
"$FS" sm4 -e --mode cbc --nopad --key k.hex --iv $IV --in p.4096 --out r.np && ok || bad "raw cbc --nopad"
openssl enc -sm4-cbc -nopad -K $K -iv $IV -in p.4096 -out o.np
same "raw cbc --nopad = openssl enc -nopad" r.np o.np
expect_rc "--nopad, not whole blocks" 2 "whole number" "$FS" sm4 -e --mode cbc --nopad --key k.hex --iv $IV --in p.100
# (zeros encrypted without padding decrypt to a last byte 0, never valid
# PKCS#7; random bytes would pass as padding 1 time in 256)
head -c 64 /dev/zero | openssl enc -sm4-cbc -nopad -K $K -iv $IV -out junk
expect_rc "raw cbc, bad padding" 1 "padding" "$FS" sm4 -d --mode cbc --key k.hex --iv $IV --in junk --out out.junk
absent "raw cbc, bad padding" out.junk

# ---- the envelope ------------------------------------------------------------------------
"$FS" keygen --out a.key --pubout a.pub
"$FS" keygen --out b.key --pubout b.pub --passout pass:bpw --iter 1000
for n in 0 1 $C $((C + 1)) 300000; do
    "$FS" seal --pub a.pub --in p.$n --out s.$n && ok || bad "seal $n"
    "$FS" open --key a.key --in s.$n --out o.$n && ok || bad "open $n"
    same "seal/open $n" p.$n o.$n
done
"$FS" seal --pub b.pub <p.300000 | "$FS" open --key b.key --passin pass:bpw >o.pipe && ok || bad "seal | open"
same "seal | open, encrypted key" p.300000 o.pipe
openssl req -x509 -new -key a.key -sm3 -sigopt distid:1234567812345678 -subj /CN=a -days 2 -out a.crt 2>/dev/null
"$FS" seal --cert a.crt --in p.1000 --out s.cert && "$FS" open --key a.key --in s.cert --out o.cert && ok ||
    bad "seal --cert"
same "seal --cert" p.1000 o.cert
expect_rc "open with another key" 1 "sealed for another key" "$FS" open --key b.key --passin pass:bpw --in s.300000 --out x
absent "open with another key" x
# the wrapped key: GM/T 0009 DER, which openssl decrypts to 16 bytes
[ "$(head -c 8 s.1 | od -An -tx1 | tr -d ' \n')" = 4653325345414c01 ] && ok || bad "s.1 does not start with FS2SEAL 01"
WL=$(($(byte_at s.1 8) << 8 | $(byte_at s.1 9)))
part s.1 10 $WL >wrapped.der
[ "$(byte_at s.1 $((10 + WL)))" = 16 ] && ok || bad "s.1: no 16-byte key length after the wrapped key"
openssl pkeyutl -decrypt -inkey a.key -in wrapped.der -out wrapped.key 2>/dev/null && ok || bad "openssl pkeyutl opens the wrapped key"
[ "$(size wrapped.key)" = 16 ] && ok || bad "the wrapped key is not 16 bytes"
# damage to a sealed file
f=s.300000
L=$(size $f)
for off in 0 9 20 $(($(size wrapped.der) + 10)) $((L - 1)) $((L / 2)); do
    flip $f $off bad.s
    expect_rc "sealed, byte $off changed" $([ $off -lt 8 ] && echo 2 || echo 1) "" "$FS" open --key a.key --in bad.s --out existing
    same "sealed, byte $off changed: the old output stays" existing.orig existing
done
head -c $((L - 20)) $f >trunc.s
expect_rc "sealed, truncated" 1 "does not decrypt" "$FS" open --key a.key --in trunc.s --out out.ts
absent "sealed, truncated" out.ts
expect_rc "sm4 file given to open" 2 "sm4 -d" "$FS" open --key a.key --in c.1000
expect_rc "sealed file given to sm4" 2 "fastsm2 open" "$FS" sm4 -d --key k.hex --in s.1
expect_rc "not ours" 2 "not a sealed file" "$FS" open --key a.key --in p.1000

# ---- keys, IVs, options ------------------------------------------------------------------
"$FS" sm4 --genkey --out g.key && ok || bad "--genkey"
[ "$(stat -c %a g.key)" = 600 ] && ok || bad "--genkey: mode $(stat -c %a g.key)"
grep -Eq '^[0-9a-f]{32}$' g.key && [ "$(size g.key)" = 33 ] && ok || bad "--genkey: not 32 hex digits"
"$FS" sm4 -e --key g.key --in p.1000 | "$FS" sm4 -d --key g.key >o.g && same "--genkey key" p.1000 o.g
for h in 0 1 abc 0001020304050607 000102030405060708090a0b0c0d0e0 000102030405060708090a0b0c0d0e0f0 \
    000102030405060708090a0b0c0d0e0f00 00010203040506070809 zz0102030405060708090a0b0c0d0e0f; do
    expect_rc "--key-hex '$h'" 2 "exactly 32 hex digits" "$FS" sm4 -e --key-hex "$h" --in p.1
done
printf '0123' >k.short
expect_rc "a 4-byte key file" 2 "not an SM4 key file" "$FS" sm4 -e --key k.short --in p.1
head -c 100 /dev/urandom >k.long
expect_rc "a 100-byte key file" 2 "larger than any SM4 key file" "$FS" sm4 -e --key k.long --in p.1
expect_rc "no key" 2 "--key FILE or --key-hex" "$FS" sm4 -e --in p.1
expect_rc "two keys" 2 "one of them" "$FS" sm4 -e --key k.hex --key-hex $K --in p.1
expect_rc "no direction" 2 "--encrypt" "$FS" sm4 --key k.hex --in p.1
expect_rc "raw mode without IV" 2 "needs --iv" "$FS" sm4 -e --mode ctr --key k.hex --in p.1
expect_rc "short IV" 2 "32 hex digits" "$FS" sm4 -e --mode ctr --key k.hex --iv 00 --in p.1
expect_rc "IV with GCM" 2 "makes its own nonces" "$FS" sm4 -e --key k.hex --iv $IV --in p.1
expect_rc "ecb with IV" 2 "takes no IV" "$FS" sm4 -e --mode ecb --key k.hex --iv $IV --in p.1
expect_rc "--aad with a raw mode" 2 "GCM stream" "$FS" sm4 -e --mode cbc --key k.hex --iv $IV --aad x --in p.1
expect_rc "unknown mode" 2 "--mode takes" "$FS" sm4 -e --mode xts --key k.hex --in p.1
expect_rc "key and data on stdin" 2 "only one input" bash -c "'$FS' sm4 -e --key - <k.hex"
expect_rc "key on stdin under another name" 2 "only one input" bash -c "'$FS' sm4 -e --key /dev/stdin --in - <k.hex"
expect_rc "seal: a P-256 key" 2 "another elliptic curve" bash -c \
    "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 2>/dev/null | openssl pkey -pubout >p256.pub && '$FS' seal --pub p256.pub --in p.1"
expect_rc "open: a public key" 2 "public key, not a private key" "$FS" open --key a.pub --in s.1

# the SM4 implementation in use: a line of its own in fastsm2 version
"$FS" version | grep -Eq '^sm4: [a-z0-9-]+$' && ok || bad "fastsm2 version has no sm4: line"
[ "$(env -u FASTSM2_SM4 FASTSM2_CPU=generic "$FS" version | sed -n 's/^sm4: //p')" = generic ] && ok ||
    bad "FASTSM2_CPU=generic does not give the generic SM4"

# ---- docs/SM4.md, "Command line": its examples run as written ------------------------
mkdir docs && awk '/^## Command line/ {on = 1; next} on && /^## / {on = 0} on && /^```sh$/ {b = 1; next}
    on && /^```$/ {b = 0} on && b' "$SRC/docs/SM4.md" >docs/examples.sh
[ "$(grep -c . docs/examples.sh)" -ge 10 ] && ok || bad "docs/SM4.md has no examples under 'Command line'"
(cd docs && PATH="$(dirname "$FS"):$PATH" bash -euo pipefail examples.sh >examples.out 2>&1) && ok ||
    bad "docs/SM4.md's examples: $(tail -5 docs/examples.out)"

finish test_cli_sm4
