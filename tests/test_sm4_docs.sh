#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/SM4.md's C examples run as written: every ```c block is built with
# the page's own build line (cc -Iinclude example.c build/libfastsm2.a ...,
# from a scratch directory whose include/ and build/ are the repository's
# and this build's), run, and its output compared with the ```text block
# that follows it, line for line; and the speed tables of docs/SM4.md and
# docs/BENCHMARKS.md are bench/peers/sm4-table.py's output for the runs kept
# in docs/benchmarks/sm4/
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

# The speed tables are bench/peers/sm4-table.py's output for the runs kept
# in docs/benchmarks/sm4/, byte for byte: docs/SM4.md's (every size) and
# docs/BENCHMARKS.md's (16 KiB); a run with one figure changed must not match.
runs=$(ls "$src"/docs/benchmarks/sm4/*.json 2>/dev/null || true)
[ -n "$runs" ] && ok || bad "no runs in docs/benchmarks/sm4"
table_check() { # PAGE MARKER [--size N]
  local page=$1 marker=$2
  shift 2
  # shellcheck disable=SC2086
  if python3 "$src/bench/peers/sm4-table.py" "$@" $runs >"$work/table.md" 2>"$work/table.err"; then
    sed -n "/^<!-- $marker -->\$/,/^<!-- end of the generated table -->\$/p" "$page" | sed '1d;$d' >"$work/doc.md"
    [ -s "$work/doc.md" ] && ok || bad "$page has no table between '<!-- $marker -->' and its end marker"
    if cmp -s "$work/table.md" "$work/doc.md"; then ok; else
      bad "$page's SM4 table is not bench/peers/sm4-table.py's output for docs/benchmarks/sm4:"
      diff "$work/table.md" "$work/doc.md" | head -20 >&2
    fi
  else
    bad "bench/peers/sm4-table.py failed: $(cat "$work/table.err")"
  fi
}
table_check "$doc" 'bench\/peers\/sm4-table.py docs\/benchmarks\/sm4\/\*.json'
table_check "$src/docs/BENCHMARKS.md" 'bench\/peers\/sm4-table.py --size 16384 docs\/benchmarks\/sm4\/\*.json' --size 16384
# the check can fail: one fastsm2 figure changed gives another table
first=$(echo "$runs" | head -n 1)
mkdir -p "$work/runs"
for r in $runs; do cp "$r" "$work/runs/"; done
sed -i '0,/"value": [0-9]/s/"value": \([0-9]\)/"value": 9\1/' "$work/runs/$(basename "$first")"
# shellcheck disable=SC2086
python3 "$src/bench/peers/sm4-table.py" "$work"/runs/*.json >"$work/changed.md" 2>/dev/null
python3 "$src/bench/peers/sm4-table.py" $runs >"$work/table.md" 2>/dev/null
cmp -s "$work/changed.md" "$work/table.md" && bad "a changed run gives the same SM4 table" || ok
finish test_sm4_docs
