#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C library's SM4 table tests (tests/test_sm4_tables.c: every slot of
# every table against the portable one, every mode of the public API;
# tests/test_sm4_aead.c, tests/test_sm4_xts.c; tests/test_sm4_wasm_sbox.c,
# the SIMD S-box on all 256 inputs) compiled by emscripten
# against the SIMD WebAssembly build of js/tools/build.sh (js/build/wasm-simd;
# WASM_CTESTS_KINDS="wasm wasm-simd" adds the scalar one, whose only table,
# generic, the native tests cover) and run in Node: they cover the
# wasm-simd table (src/sm4/sm4_wasm_simd.c), which no native build has.
# About 12 s here. Needs js/tools/build.sh to have run.
set -euo pipefail
js=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$js/.." && pwd)
out=$js/build/ctests
mkdir -p "$out"
defs=(-DFS2T_NO_OPENSSL -DFS2T_SOURCE_DIR="\"$root\"" -DFS2T_VECTORS_FILE="\"$root/tests/vectors/gbt32918-examples.txt\"")
for kind in ${WASM_CTESTS_KINDS:-wasm-simd}; do
  b=$js/build/$kind
  [ -f "$b/libfastsm2.a" ] || { echo "wasm-ctests: no $b/libfastsm2.a (run js/tools/build.sh)" >&2; exit 1; }
  flags=(-O2 -Wall -Werror)
  [ $kind = wasm-simd ] && flags+=(-msimd128)
  nice -n 10 emcc "${flags[@]}" "${defs[@]}" -I"$root/include" -I"$root/src" -I"$root/tests" -I"$b" \
    -c "$root/tests/testutil.c" -o "$out/testutil-$kind.o"
  tests=(test_sm4_tables test_sm4_aead test_sm4_xts)
  # the swizzle S-box on all 256 inputs (src/sm4/sm4_wasm_sbox.h)
  [ $kind = wasm-simd ] && tests+=(test_sm4_wasm_sbox)
  for t in "${tests[@]}"; do
    nice -n 10 emcc "${flags[@]}" "${defs[@]}" -I"$root/include" -I"$root/src" -I"$root/tests" -I"$b" \
      -c "$root/tests/$t.c" -o "$out/$t-$kind.o"
    # linked at -O0: Debian's emscripten would run its JavaScript
    # optimiser (which needs acorn) at -O2; the code is compiled already
    emcc -O0 "$out/$t-$kind.o" "$out/testutil-$kind.o" "$b/libfastsm2.a" -sALLOW_MEMORY_GROWTH=1 \
      -sINITIAL_MEMORY=64MB -sNODERAWFS=1 -o "$out/$t-$kind.js"
    echo "== $t ($kind)"
    # this emscripten's loader would fetch() the .wasm under Node 20
    (cd "$root/tests" && node --no-experimental-fetch "$out/$t-$kind.js")
  done
done
# the SIMD build must have run the wasm-simd table (a build without it
# would pass the above on generic alone)
log=$(cd "$root/tests" && node --no-experimental-fetch "$out/test_sm4_tables-wasm-simd.js" 2>&1)
grep -q '^SM4 table wasm-simd against generic' <<<"$log" ||
  { echo "wasm-ctests: the SIMD build has no wasm-simd SM4 table" >&2; exit 1; }
echo "wasm-ctests: passed"
