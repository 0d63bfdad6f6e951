#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/PKI.md's examples run as written: its ```sh blocks, in order, in one
# scratch directory with the build on PATH (each stopping at its first
# failing command), and its C example, compiled as the page says, printing
# what the page says. (Its Python, Java and Rust examples run in those
# suites: python/tests/test_docs.py, PkiTest, x509_builder.)
set -euo pipefail
build=$(cd "${1:?build dir}" && pwd)
src=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
. "$(dirname "$0")/shlib.sh"
page=$src/docs/PKI.md
work=$T

awk '/^```sh$/{on=1; n++; next} /^```$/{on=0} on{print > (dir "/block" n ".sh")}' dir="$work" "$page"
nblocks=$(ls "$work"/block*.sh 2>/dev/null | wc -l)
[ "$nblocks" -ge 3 ] && ok || bad "expected at least 3 sh blocks in docs/PKI.md, found $nblocks"
for b in $(ls "$work"/block*.sh | sort -V); do
    if (cd "$work" && PATH="$build:$PATH" bash -euo pipefail "$b" >"$b.out" 2>&1); then
        ok
    else
        bad "$(basename "$b") failed:"
        cat "$b.out" >&2
    fi
done
# what the page says the refused chain prints
want='fastsm2 certverify: api.pem: verification failed: the certificate (/C=CN/O=Example/CN=api.example.com): it has expired (FASTSM2_ERR_EXPIRED)'
grep -qxF "$want" "$work"/block*.sh.out && ok || bad "no block printed: $want"
grep -qF "\`$want\`" "$page" && ok || bad "docs/PKI.md does not state: $want"
want="fastsm2 cmsdecrypt: letter.cms: the key is none of the recipients' (FASTSM2_ERR_RECIPIENT)"
grep -qxF "$want" "$work"/block*.sh.out && ok || bad "no block printed: $want"
grep -qF "\`$want\`" "$page" && ok || bad "docs/PKI.md does not state: $want"

# the C example
awk '/^```c$/{on=1; next} /^```$/{on=0} on{print}' "$page" >"$work/pki.c"
[ -s "$work/pki.c" ] && ok || bad "no C example in docs/PKI.md"
grep -q '^cc -Iinclude pki.c build/libfastsm2.a -lpthread -o pki && ./pki$' "$page" && ok ||
    bad "no build line for the C example"
san=""
grep -q '^FASTSM2_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
if (cd "$work" && cc $san -I"$src/include" pki.c "$build/libfastsm2.a" -lpthread -o pki && ./pki >pki.out); then
    ok
    for want in "chain: FASTSM2_OK" "in 2099: FASTSM2_ERR_EXPIRED at depth 0" "cms: FASTSM2_OK" \
        "envelope: FASTSM2_OK, a content too large to hold, in pieces"; do
        grep -qxF "$want" "$work/pki.out" && ok || bad "the C example's output lacks '$want': $(cat "$work/pki.out")"
        grep -qF "\`$want\`" "$page" && ok || bad "docs/PKI.md does not state '$want'"
    done
else
    bad "the C example did not build or run"
fi
finish test_pki_docs
