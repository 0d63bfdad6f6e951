#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# fastsm2 encrypt/decrypt on inputs larger than the CLI's 1 MiB streaming
# piece (regular files stream through the library's streaming API; stdin
# and stdout go through memory once): every ciphertext form round-trips,
# OpenSSL decrypts our DER ciphertext and we decrypt OpenSSL's, and a
# tampered byte at either end of C2 fails with exit 1 and no output, even
# over an existing file.
#
# usage: test_cli_stream.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_stream.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
cd "$T"
ossl_probe

same() { cmp -s "$2" "$3" && ok || bad "$1"; }
size_of() { wc -c <"$1" | tr -d ' '; }

openssl genpkey -algorithm SM2 -out k.pem 2>/dev/null
openssl pkey -in k.pem -pubout -out p.pem

# 3 MiB + 5 bytes: three whole pieces and a short one.
N=$((3 * 1048576 + 5))
head -c "$N" /dev/urandom >big

for fmt in "" "--raw" "--raw --c1c2c3"; do
    # shellcheck disable=SC2086
    "$FS" encrypt --pub p.pem $fmt --in big --out big.ct && ok || bad "encrypt $fmt"
    if [ -n "$fmt" ]; then
        [ "$(size_of big.ct)" = $((N + 97)) ] && ok || bad "encrypt $fmt: $(size_of big.ct) bytes"
    fi
    # shellcheck disable=SC2086
    "$FS" decrypt --key k.pem $fmt --in big.ct --out big.pt && ok || bad "decrypt $fmt"
    same "round trip $fmt" big big.pt
    # the same ciphertext through stdin and stdout (held once in memory)
    # shellcheck disable=SC2086
    "$FS" decrypt --key k.pem $fmt <big.ct >big.pt2 && ok || bad "decrypt $fmt through stdin"
    same "round trip $fmt through stdin/stdout" big big.pt2
    rm -f big.pt big.pt2
done

# stdin to a file and a file to stdout, DER
"$FS" encrypt --pub p.pem <big --out big.ct2 && ok || bad "encrypt from stdin"
"$FS" decrypt --key k.pem --in big.ct2 >big.pt3 && ok || bad "decrypt to stdout"
same "stdin encrypt, stdout decrypt" big big.pt3

# OpenSSL both ways on the big DER ciphertexts
"$FS" encrypt --pub p.pem --in big --out big.der
if pkeyutl_fits "openssl both ways on the big ciphertexts" "$(wc -c <big)"; then
    openssl pkeyutl -decrypt -inkey k.pem -in big.der -out big.openssl && ok || bad "openssl decrypts our big ciphertext"
    same "openssl decrypts our big ciphertext: plaintext" big big.openssl
    openssl pkeyutl -encrypt -pubin -inkey p.pem -in big -out big.osct && ok || bad "openssl encrypts"
    "$FS" decrypt --key k.pem --in big.osct --out big.ours && ok || bad "decrypt openssl's big ciphertext"
    same "decrypt openssl's big ciphertext: plaintext" big big.ours
fi

# Tampering: the last byte (end of C2) and the first byte of C2 of a raw
# C1C3C2 ciphertext (offset 97); an existing output stays as it was.
"$FS" encrypt --pub p.pem --raw --in big --out raw.ct
for off in 97 $((N + 96)); do
    flip raw.ct "$off" raw.bad
    echo precious >keep.pt
    rc=0
    "$FS" decrypt --key k.pem --raw --in raw.bad --out keep.pt 2>/dev/null || rc=$?
    [ "$rc" = 1 ] && ok || bad "tampered byte $off: exit $rc"
    [ "$(cat keep.pt)" = precious ] && ok || bad "tampered byte $off: the existing output changed"
    rc=0
    "$FS" decrypt --key k.pem --raw --in raw.bad --out new.pt 2>/dev/null || rc=$?
    [ "$rc" = 1 ] && [ ! -e new.pt ] && ok || bad "tampered byte $off: exit $rc or an output left"
    rc=0
    "$FS" decrypt --key k.pem --raw <raw.bad >out.pt 2>/dev/null || rc=$?
    [ "$rc" = 1 ] && [ ! -s out.pt ] && ok || bad "tampered byte $off through stdout: exit $rc or bytes written"
done
# DER truncated by one byte: exit 1, no output
head -c $(($(size_of big.der) - 1)) big.der >trunc.der
rc=0
"$FS" decrypt --key k.pem --in trunc.der --out t.pt 2>/dev/null || rc=$?
[ "$rc" = 1 ] && [ ! -e t.pt ] && ok || bad "truncated DER: exit $rc or an output left"

finish test_cli_stream
