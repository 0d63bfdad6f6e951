#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds everything the npm package ships, from the repository:
#   prebuilds/linux-x64/fastsm2.napi.node    the Node-API addon (src/addon.c) linked
#                                            with libfastsm2.a of the CMake build (-fPIC)
#   prebuilds/linux-arm64/fastsm2.napi.node  the same cross-compiled with Debian's
#                                            gcc-aarch64-linux-gnu (cmake/aarch64-linux-gnu.cmake)
#   fastsm2.wasm                             libfastsm2 built by Debian's emscripten
#                                            (the generic C backend; OS randomness through
#                                            getentropy, which src/wasm-engine.ts maps to
#                                            crypto.getRandomValues)
#   fastsm2-simd.wasm                        the same with WebAssembly SIMD (-msimd128)
#   dist/                                    src/*.ts compiled: CommonJS, ES modules, declarations (tools/build-ts.mjs)
# and installs the dev dependencies (npm ci; npm's cache is ~/.npm). Missing
# Debian packages come through tools/apt-install.sh. Build folders: js/build/.
#   usage: js/tools/build.sh [--no-arm64]
set -euo pipefail
js=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$js/.." && pwd)
cd "$js"
jobs=${JOBS:-2}
arm64=1
[ "${1:-}" = --no-arm64 ] && arm64=0
have() { command -v "$1" >/dev/null 2>&1; }
need=()
have node || need+=(nodejs)
have npm || need+=(npm)
[ -f /usr/include/node/node_api.h ] || need+=(libnode-dev)
have emcc || need+=(emscripten)
have cmake || need+=(cmake)
have make || need+=(make)
if [ $arm64 = 1 ]; then have aarch64-linux-gnu-gcc || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross); fi
[ ${#need[@]} -eq 0 ] || bash "$root/tools/apt-install.sh" "js/tools/build.sh" "${need[@]}"

# ---- dev dependencies (sm-crypto, sm-crypto-v2, playwright-core) ----------
if [ ! -d node_modules/sm-crypto-v2 ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --ignore-scripts --no-audit --no-fund --prefer-offline
fi

# ---- TypeScript: dist/cjs, dist/esm, dist/types ----------------------------
node tools/build-ts.mjs

# ---- the static library and the addon, per platform -------------------------
lib_opts=(-DCMAKE_BUILD_TYPE=Release -DFASTSM2_TESTS=OFF -DFASTSM2_BENCH=OFF -DFASTSM2_CLI=OFF
  -DFASTSM2_PROVIDER=OFF -DFASTSM2_CTIME=OFF -DFASTSM2_INSTALL=OFF -DFASTSM2_CUDA=OFF)
addon() { # CC BUILD_DIR OUT [cmake args...]
  local cc=$1 b=$2 out=$3
  shift 3
  cmake -S "$root" -B "$b" -G "Unix Makefiles" "${lib_opts[@]}" "$@" >/dev/null
  nice -n 10 cmake --build "$b" -j "$jobs" --target fastsm2_static >/dev/null
  mkdir -p "$(dirname "$out")"
  nice -n 10 "$cc" -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror -DNODE_GYP_MODULE_NAME=fastsm2 \
    -I/usr/include/node -I"$root/include" src/addon.c "$b/libfastsm2.a" -lpthread \
    -Wl,--exclude-libs,ALL -Wl,-O1 -s -o "$out"
  echo "built $out ($(stat -c %s "$out") bytes)"
}
addon "${CC:-cc}" build/native prebuilds/linux-x64/fastsm2.napi.node
if [ $arm64 = 1 ]; then
  addon aarch64-linux-gnu-gcc build/arm64 prebuilds/linux-arm64/fastsm2.napi.node \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake"
fi

# ---- WebAssembly -------------------------------------------------------------
# Debian's emscripten ships its system libraries prebuilt (a frozen cache):
# nothing is downloaded or built outside the repository. No pthreads in
# this build (CMake's Threads check is answered: the C library's stubs);
# the batch API's pool then runs on the calling thread. The C library is
# configured as test-portable's first build (FASTSM2_NO_INT128=ON,
# FASTSM2_RANDOM=getentropy), whose valgrind constant-time test covers
# the generic backend that WebAssembly runs: 64x64-bit products from
# 32-bit halves, about 25% faster in WebAssembly than clang's __int128
# (a call to __multi3 for each product).
exports=(malloc free fs2js_privkey_size fs2js_pubkey_size fs2js_kx_size fs2js_sm4_key_size fs2js_sm4_ctx_size
  fs2js_sm4_gcm_size fastsm2_version fastsm2_backend_name
  fastsm2_error_name fastsm2_strerror fastsm2_privkey_generate fastsm2_privkey_from_bytes
  fastsm2_privkey_to_bytes fastsm2_privkey_pubkey fastsm2_privkey_clear fastsm2_privkey_parse
  fastsm2_privkey_parse_encrypted fastsm2_privkey_serialize fastsm2_pubkey_from_bytes
  fastsm2_pubkey_parse fastsm2_pubkey_to_bytes fastsm2_pubkey_serialize fastsm2_pubkey_precompute
  fastsm2_compute_z fastsm2_sign fastsm2_sign_digest fastsm2_verify_status
  fastsm2_verify_digest_status fastsm2_encrypt fastsm2_decrypt fastsm2_ciphertext_size fastsm2_sm3
  fastsm2_hmac_sm3 fastsm2_sig_to_der fastsm2_sig_from_der fastsm2_sign_digest_batch fastsm2_verify_digest_batch
  fastsm2_sign_digest_with_nonce fastsm2_encrypt_with_nonce fastsm2_ecdh fastsm2_kx_init fastsm2_kx_start_with_nonce
  fastsm2_kx_compute fastsm2_kx_clear fastsm2_kdf fastsm2_sm4_backend_name fastsm2_sm4_key_init fastsm2_sm4_key_clear
  fastsm2_sm4_ecb_encrypt fastsm2_sm4_ecb_decrypt fastsm2_sm4_cbc_encrypt fastsm2_sm4_cbc_decrypt fastsm2_sm4_ctr
  fastsm2_sm4_gcm_encrypt fastsm2_sm4_gcm_decrypt fastsm2_sm4_ccm_encrypt fastsm2_sm4_ccm_decrypt fastsm2_sm4_xts_encrypt
  fastsm2_sm4_xts_decrypt fastsm2_sm4_init fastsm2_sm4_update fastsm2_sm4_final fastsm2_sm4_ctx_clear fastsm2_sm4_gcm_init
  fastsm2_sm4_gcm_aad fastsm2_sm4_gcm_update fastsm2_sm4_gcm_encrypt_final fastsm2_sm4_gcm_decrypt_final fastsm2_sm4_gcm_clear)
list=$(printf '_%s,' "${exports[@]}")
# Two builds: fastsm2.wasm (scalar: every WebAssembly engine) and
# fastsm2-simd.wasm (-msimd128: the library's WebAssembly SIMD code, for
# engines with SIMD; src/wasm-select.ts picks). clang's vectorizers are off
# in the SIMD build (after -O3, which would turn them back on): they made
# the one-stream SM3 1.6x slower and gained nothing measurable elsewhere.
wasm_build() { # NAME BUILD_DIR CFLAGS
  local name=$1 b=$2 cflags=$3
  emcmake cmake -S "$root" -B "$b" -G "Unix Makefiles" "${lib_opts[@]}" -DFASTSM2_RANDOM=getentropy \
    -DFASTSM2_NO_INT128=ON -DCMAKE_HAVE_LIBC_PTHREAD=1 -DCMAKE_C_FLAGS_RELEASE="-O3 -DNDEBUG $cflags" \
    ${FASTSM2_WASM_CMAKE_ARGS:-} >/dev/null 2>&1
  nice -n 10 cmake --build "$b" -j "$jobs" --target fastsm2_static >/dev/null
  nice -n 10 emcc -O3 $cflags -I"$root/include" src/wasm_glue.c "$b/libfastsm2.a" -sSTANDALONE_WASM=1 --no-entry \
    -sALLOW_MEMORY_GROWTH=1 -sEXPORTED_FUNCTIONS="${list%,}" -o "build/$name"
  cp "build/$name" "$name"
  local size
  size=$(stat -c %s "$name")
  echo "built $name ($size bytes)"
  # a bound against accidental growth (a source the exports do not need
  # pulled in): 420 KB, about 3% above the modules of 0.3.0 (399 and 411
  # KB, of which the status messages of the certificate codes are 1 KB)
  [ "$size" -le 430080 ] || { echo "js/tools/build.sh: $name is $size bytes, over the 420 KB bound" >&2; exit 1; }
}
wasm_build fastsm2.wasm build/wasm ""
wasm_build fastsm2-simd.wasm build/wasm-simd "-msimd128 -fno-vectorize -fno-slp-vectorize"
