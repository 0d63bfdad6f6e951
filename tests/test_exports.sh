#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The library's link surface:
#  - libfastsm2.so exports only fastsm2_* symbols, and every function the
#    public header declares FASTSM2_API (parsed from include/fastsm2.h);
#  - libfastsm2.a defines no global symbol outside fastsm2_* and fs2_* (so it
#    cannot clash with an application's own names), and defines every
#    public function too;
#  - a small program that uses only include/fastsm2.h builds warning-free
#    as strict C11 (-pedantic -Werror) and as C++, links against the shared
#    library and runs;
#  - libfastsm2.so needs only libc (libpthread and the dynamic loader are
#    allowed too): no libcrypto, no libssl.
#
# usage: test_exports.sh BUILD_DIR     (prints "N passed, N failed")
set -uo pipefail

BUILD=${1:?usage: test_exports.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd) || exit 1
SRC=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
HEADER=$SRC/include/fastsm2.h
SO=$BUILD/libfastsm2.so
AR=$BUILD/libfastsm2.a
CC=${CC:-cc}

. "$(dirname "$0")/shlib.sh"

for tool in nm readelf "$CC"; do
    if ! command -v "$tool" >/dev/null; then
        bad "$tool not found"
        finish test_exports
    fi
done
for f in "$HEADER" "$SO" "$AR"; do
    if [ -e "$f" ]; then ok; else bad "missing $f"; fi
done
[ "$FAIL" -eq 0 ] || finish test_exports

# A sanitizer build (cmake -DFASTSM2_SANITIZE=ON) links the sanitizer
# runtimes and adds instrumentation symbols; allow exactly those, and build
# the user program below with the same sanitizers so that it can load the
# library.
readelf -d "$SO" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$T/needed.txt"
SAN_FLAGS=()
grep -q '^libasan\.so' "$T/needed.txt" && SAN_FLAGS+=(-fsanitize=address)
grep -q '^libubsan\.so' "$T/needed.txt" && SAN_FLAGS+=(-fsanitize=undefined)
grep -q '^libtsan\.so' "$T/needed.txt" && SAN_FLAGS+=(-fsanitize=thread)
SAN_LIBS='^$'
if [ ${#SAN_FLAGS[@]} -gt 0 ]; then
    echo "note: sanitizer build (${SAN_FLAGS[*]}): its runtimes and instrumentation symbols are allowed" >&2
    SAN_LIBS='^(libasan|libubsan|libtsan)\.so'
fi

# ---- the public functions, from the header ---------------------------------
# Every declaration starts a line with FASTSM2_API; a declaration that wraps
# is joined up to its ';'. The name is the last identifier before the first
# '('.
awk '/^[[:space:]]*FASTSM2_API[[:space:]]/ {
        buf = $0
        while (buf !~ /;/ && (getline line) > 0) buf = buf " " line
        print buf
    }' "$HEADER" |
    sed -E 's/\(.*//; s/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*$/\1/' |
    sort -u >"$T/api.txt"
# Cross-check: every use of FASTSM2_API outside a preprocessor line must be
# one of those declarations (none hidden mid-line).
grep -v '^[[:space:]]*#' "$HEADER" | grep -o 'FASTSM2_API' | wc -l >"$T/api_lines.txt"
napi=$(wc -l <"$T/api.txt")
if [ "$napi" -ge 30 ] && [ "$napi" -eq "$(cat "$T/api_lines.txt")" ]; then
    ok
else
    bad "parsed $napi FASTSM2_API functions from $HEADER, but FASTSM2_API appears $(cat "$T/api_lines.txt") times"
fi
while read -r name; do
    case $name in
    fastsm2_*) ok ;;
    *) bad "public function without the fastsm2_ prefix: $name" ;;
    esac
done <"$T/api.txt"

# ---- the shared library's dynamic symbols ----------------------------------
nm -D --defined-only "$SO" | awk 'NF >= 3 {print $3} NF == 2 {print $2}' | sed 's/@.*//' |
    sort -u >"$T/so_syms.txt"
if [ -s "$T/so_syms.txt" ]; then ok; else bad "nm -D found no symbols in $SO"; fi
extra=$(grep -v '^fastsm2_' "$T/so_syms.txt" || true)
empty "libfastsm2.so exports symbols outside fastsm2_*:" "$extra"
missing=$(comm -23 "$T/api.txt" "$T/so_syms.txt")
empty "declared FASTSM2_API but not exported by libfastsm2.so:" "$missing"
# and nothing exported that the header does not declare
undeclared=$(comm -13 "$T/api.txt" "$T/so_syms.txt")
empty "exported by libfastsm2.so but not declared in fastsm2.h:" "$undeclared"

# ---- the static library's global symbols -----------------------------------
# Defined globals only (archive member headers and blank lines dropped).
# ASan's one-definition-rule markers (__odr_asan.NAME) are judged by NAME.
nm -g --defined-only "$AR" 2>/dev/null | awk 'NF >= 2 && $0 !~ /:$/ {print $NF}' |
    sed 's/^__odr_asan[._]//' | sort -u >"$T/a_syms.txt"
if [ -s "$T/a_syms.txt" ]; then ok; else bad "nm found no global symbols in $AR"; fi
extra=$(grep -vE '^(fastsm2_|fs2_)' "$T/a_syms.txt" || true)
empty "libfastsm2.a defines globals outside fastsm2_*/fs2_*:" "$extra"
missing=$(comm -23 "$T/api.txt" "$T/a_syms.txt")
empty "declared FASTSM2_API but not defined in libfastsm2.a:" "$missing"

# ---- dependencies of the shared library ------------------------------------
if grep -q '^libc\.so' "$T/needed.txt"; then ok; else bad "libfastsm2.so does not list libc: $(cat "$T/needed.txt")"; fi
if grep -qiE 'crypto|ssl' "$T/needed.txt"; then
    bad "libfastsm2.so needs OpenSSL:" $(cat "$T/needed.txt")
else
    ok
fi
others=$(grep -vE '^(libc\.so|libpthread\.so|ld-linux)' "$T/needed.txt" | grep -vE "$SAN_LIBS" || true)
empty "libfastsm2.so needs more than libc:" "$others"

# ---- a program that uses only the public header ----------------------------
cat >"$T/user.c" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <string.h>

#include "fastsm2.h"

int main(void)
{
    /* GB/T 32905 appendix A, example 1: SM3("abc") */
    static const unsigned char abc[32] = {
        0x66, 0xc7, 0xf0, 0xf4, 0x62, 0xee, 0xed, 0xd9, 0xd1, 0xf2, 0xd4, 0x6b, 0xdc, 0x10, 0xe4, 0xe2,
        0x41, 0x67, 0xc4, 0x87, 0x5c, 0xf2, 0xf7, 0xa2, 0x29, 0x7d, 0xa0, 0x2b, 0x8f, 0x4b, 0xa8, 0xe0};
    unsigned char h[32];
    fastsm2_sm3(h, "abc", 3);
    if (memcmp(h, abc, 32) != 0)
        return 10;
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char sig[FASTSM2_SIG_RAW_SIZE];
    const char msg[] = "message digest";
    if (fastsm2_privkey_generate(&key) != FASTSM2_OK || fastsm2_privkey_pubkey(&pub, &key) != FASTSM2_OK)
        return 11;
    if (fastsm2_sign(sig, &key, NULL, 0, msg, sizeof msg - 1) != FASTSM2_OK)
        return 12;
    if (fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig) != 1)
        return 13;
    sig[5] ^= 1;
    if (fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig) != 0)
        return 14;
    fastsm2_privkey_clear(&key);
    if (strcmp(fastsm2_version(), FASTSM2_VERSION_STRING) != 0)
        return 15;
    printf("ok %s\n", fastsm2_error_name(FASTSM2_ERR_DER));
    return 0;
}
EOF

# check_user NAME COMPILER FLAGS...: compile user.c, link the shared
# library, run it.
check_user() {
    local name=$1 exe=$T/user_$1
    shift
    if "$@" ${SAN_FLAGS[@]+"${SAN_FLAGS[@]}"} -I"$SRC/include" "$T/user.c" -o "$exe" -L"$BUILD" -lfastsm2 >"$T/$name.log" 2>&1; then
        ok
    else
        bad "$name: a program using only fastsm2.h does not build:"
        sed 's/^/    /' "$T/$name.log" >&2
        return
    fi
    # it must really use the shared library
    if readelf -d "$exe" | grep -q 'NEEDED.*libfastsm2\.so'; then ok; else bad "$name: not linked to libfastsm2.so"; fi
    local out rc
    out=$(LD_LIBRARY_PATH="$BUILD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$exe" 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ] && [ "$out" = "ok FASTSM2_ERR_DER" ]; then
        ok
    else
        bad "$name: the program failed (exit $rc): $out"
    fi
}

check_user c11 "$CC" -std=c11 -Wall -Wextra -Werror -pedantic
if command -v g++ >/dev/null; then
    check_user cxx g++ -x c++ -Wall -Wextra -Werror -pedantic
    # the header alone, as C++98 too (nothing newer is needed to include it)
    if echo '#include "fastsm2.h"' | g++ -x c++ -std=c++98 -Wall -Wextra -Werror -pedantic \
        -I"$SRC/include" -fsyntax-only - >"$T/cxx98.log" 2>&1; then
        ok
    else
        bad "fastsm2.h does not compile as C++98:"
        sed 's/^/    /' "$T/cxx98.log" >&2
    fi
else
    echo "note: g++ not found, C++ checks skipped" >&2
fi
# the header alone, under -std=c99 -pedantic too
if echo '#include "fastsm2.h"' | "$CC" -x c -std=c99 -Wall -Wextra -Werror -pedantic \
    -I"$SRC/include" -fsyntax-only - >"$T/c99.log" 2>&1; then
    ok
else
    bad "fastsm2.h does not compile as C99:"
    sed 's/^/    /' "$T/c99.log" >&2
fi

finish test_exports
