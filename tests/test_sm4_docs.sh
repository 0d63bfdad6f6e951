#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/SM4.md's C examples run as written: every ```c block is built with
# the page's own build line (cc -Iinclude example.c build/libfastsm2.a ...,
# from a scratch directory whose include/ and build/ are the repository's
# and this build's), run, and its output compared with the ```text block
# that follows it, line for line.
set -euo pipefail
build=$(cd "${1:?build dir}" && pwd)
src=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
. "$(dirname "$0")/shlib.sh"
work=$T
doc=$src/docs/SM4.md

# ```c blocks as c<N>.c, the ```text block right after block N as c<N>.txt
awk '/^```c$/{on="c"; n++; next} /^```text$/{on="t"; next} /^```/{on=""; next}
     on=="c"{print > (dir "/c" n ".c")} on=="t"{print > (dir "/c" n ".txt")}' dir="$work" "$doc"
n=$(ls "$work"/c*.c 2>/dev/null | wc -l)
[ "$n" -ge 3 ] && ok || bad "expected at least 3 C examples in docs/SM4.md, found $n"
cmd=$(grep -m1 '^cc -Iinclude example.c' "$doc" || true)
[ -n "$cmd" ] && ok || bad "docs/SM4.md has no build line 'cc -Iinclude example.c ...'"
ln -s "$src/include" "$work/include"
ln -s "$build" "$work/build"
san=""
grep -q '^FASTSM2_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
for c in $(ls "$work"/c*.c | sort -V); do
  name=$(basename "$c" .c)
  cp "$c" "$work/example.c"
  if ! (cd "$work" && $cmd $san >"$work/$name.build" 2>&1); then
    bad "example $name did not build:"; cat "$work/$name.build" >&2; continue
  fi
  ok
  if (cd "$work" && ./example >"$work/$name.out" 2>&1); then ok; else bad "example $name exited non-zero"; fi
  if [ -f "$work/$name.txt" ] && diff -u "$work/$name.txt" "$work/$name.out" >&2; then
    ok
  else
    bad "example $name: its output is not the text block after it"
  fi
done
finish test_sm4_docs
