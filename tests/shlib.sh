# SPDX-License-Identifier: Apache-2.0
# Shared by the shell tests: a scratch directory $T removed on exit, and the
# counters behind the "N passed, N failed" line.
#   ok            count a passed check
#   bad MSG...    count a failed check, say why on stderr
#   finish NAME   print the summary line and exit non-zero on any failure
#   flip IN OFFSET OUT  OUT is IN with the lowest bit of byte OFFSET flipped
#                 (always a change: a byte written over the old one is the
#                 same byte 1 time in 256 when the input is random)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); }
bad() {
    FAIL=$((FAIL + 1))
    echo "FAIL: $*" >&2
}
finish() {
    echo "$1: $PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ]
    exit $?
}
flip() {
    local b
    cp "$1" "$3"
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    [ -n "$b" ] || { echo "flip: $1 has no byte $2" >&2; exit 1; }
    # shellcheck disable=SC2059
    printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}

# For the tests of the command-line tool: FS = the fastsm2 binary in the
# build directory $1, the openssl command line present, and a sanitizer
# report never passing for the tool's own exit status 1.
cli_setup() {
    FS=$(cd "$1" && pwd)/fastsm2
    [ -x "$FS" ] || { echo "no $FS" >&2; exit 1; }
    command -v openssl >/dev/null || { echo "openssl not found" >&2; exit 1; }
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=98"
}

# empty MSG LIST: a check that LIST (a word list, e.g. symbol names) is
# empty; otherwise fail with MSG followed by the list.
empty() {
    if [ -z "$2" ]; then ok; else bad "$1" $2; fi
}

# What the openssl command line on PATH can do: the tests cross-check with
# whichever release they find (tests/harness/test-openssl.sh runs them against
# several). Call after cli_setup, in the scratch directory.
#   OSSL_PKEYUTL_MAX  the longest plaintext whose SM2 round trip its pkeyutl
#                     takes whole: 0 for no limit; 600 where pkeyutl reads at
#                     most 10 times the key's size of input (720 bytes:
#                     OpenSSL 3.0.2), so that the ciphertext fits too
#   OSSL_SPKI_SM2_OID 1 if it writes an SM2 public key with the SM2 OID as
#                     the SPKI algorithm (3.0.2), not id-ecPublicKey (later
#                     releases and fastsm2)
ossl_probe() {
    openssl genpkey -algorithm SM2 -out probe.key 2>/dev/null
    openssl pkey -in probe.key -pubout -out probe.pub
    OSSL_PKEYUTL_MAX=0
    head -c 5000 /dev/urandom >probe.pt
    if ! { openssl pkeyutl -encrypt -pubin -inkey probe.pub -in probe.pt -out probe.ct &&
        openssl pkeyutl -decrypt -inkey probe.key -in probe.ct -out probe.pt2 && cmp -s probe.pt probe.pt2; } 2>/dev/null; then
        OSSL_PKEYUTL_MAX=600
        echo "note: $(openssl version): pkeyutl takes at most 720 bytes of input; SM2 encryption cross-checks over 600 bytes are skipped"
    fi
    OSSL_SPKI_SM2_OID=0
    if openssl asn1parse -in probe.pub | grep -q 'OBJECT *:id-ecPublicKey'; then :; else
        OSSL_SPKI_SM2_OID=1
        echo "note: $(openssl version) writes SM2 public keys with the SM2 OID: public keys compared by their point"
    fi
    # OSSL_NO_ID_IS_DEFAULT: 1 where openssl signs with the default ID
    # 1234567812345678 when no distid is set (4.0 on), 0 where with the
    # empty ID (3.x)
    OSSL_NO_ID_IS_DEFAULT=0
    [ "$(openssl version | awk '{print $2}' | cut -d. -f1)" -ge 4 ] && OSSL_NO_ID_IS_DEFAULT=1
    rm -f probe.*
}

# pkeyutl_fits LABEL N: 0 if openssl pkeyutl takes an N-byte plaintext (and
# its ciphertext) whole; otherwise says "skip LABEL" and returns 1.
pkeyutl_fits() {
    if [ "${OSSL_PKEYUTL_MAX:-0}" -eq 0 ] || [ "$2" -le "$OSSL_PKEYUTL_MAX" ]; then return 0; fi
    echo "skip $1: $2 bytes, over what this openssl pkeyutl reads"
    return 1
}

# same_pub LABEL A B: the same public key: the same bytes, or, where openssl
# writes the SM2 OID (OSSL_SPKI_SM2_OID=1), the same point (the last 65
# bytes of the DER SPKI), A being fastsm2's file, which must then still use
# id-ecPublicKey.
same_pub() {
    if [ "${OSSL_SPKI_SM2_OID:-0}" = 0 ]; then
        same "$@"
        return
    fi
    local a b
    a=$(openssl pkey -pubin -in "$2" -outform DER 2>/dev/null | tail -c 65 | od -An -tx1 | tr -d ' \n')
    b=$(openssl pkey -pubin -in "$3" -outform DER 2>/dev/null | tail -c 65 | od -An -tx1 | tr -d ' \n')
    if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "$1: $2 and $3 hold different points"; fi
}
