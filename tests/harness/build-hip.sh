#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make build-hip`: the GPU kernels (src/gpu/cuda/sm2_gpu_kernels.cu and the .cuh
# headers it includes) compiled by hipcc (ROCm, HIP-Clang) for AMD GPUs,
# gfx906 by default (Radeon VII / MI50 / MI60, the class of Hygon's DCU).
# A compile check: nothing runs (no AMD GPU here). docs/GPU.md, "HIP".
#  1. find hipcc, or install Debian's (package hipcc, ROCm 5.2 in bookworm,
#     with clang-15, rocm-device-libs and libamdhip64-dev);
#  2. compile the kernels for FS2_HIP_ARCHS (host code and device code
#     objects, warnings on; errors with WERROR=ON, as make test-all sets);
#  3. link them with the one library function they call into a shared
#     object, undefined symbols refused: every CUDA name of
#     src/gpu/cuda/sm2_gpu_hip.h has to exist in libamdhip64;
#  4. take each architecture's code object out of the fat binary, check that
#     all five kernels are in it, and print their registers, spills, scratch
#     and how their 32x32-bit products were compiled.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${FS2_HIP_BUILD:-build-hip}
ARCHS=${FS2_HIP_ARCHS:-gfx906}
KERNELS="fs2g_k_table fs2g_k_sign fs2g_k_verify fs2g_k_verify_key fs2g_k_keygen"

if ! command -v hipcc >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || { echo "build-hip: no hipcc, and no apt-get to install Debian's" >&2; exit 1; }
  bash tools/apt-install.sh build-hip hipcc
fi
# FS2_DEPS_ONLY=1: install, nothing more (make test-all's deps stage, so
# that this stage can run in the background without apt of its own)
[ "${FS2_DEPS_ONLY:-0}" != 1 ] || exit 0
# The LLVM tools beside hipcc's clang: where hipconfig says (a ROCm install:
# /opt/rocm/llvm/bin), else beside clang++-15 (Debian's hipcc drives it).
LLVM_BIN=""
for d in "$(hipconfig -l 2>/dev/null || true)" "$(dirname "$(readlink -f "$(command -v clang++-15 || echo /none)")")"; do
  if [ -x "$d/clang-offload-bundler" ] && [ -x "$d/llvm-readelf" ] && [ -x "$d/llvm-objdump" ]; then
    LLVM_BIN=$d
    break
  fi
done
[ -n "$LLVM_BIN" ] || { echo "build-hip: no clang-offload-bundler, llvm-readelf, llvm-objdump beside hipcc's clang" >&2; exit 1; }
echo "build-hip: $(hipcc --offload-arch=gfx906 --version 2>&1 | head -2 | tr '\n' ' ')"

rm -rf "$OUT"
mkdir -p "$OUT"
FLAGS=(-O3 -fPIC -Wall -Wextra -Iinclude -Isrc)
# Errors with WERROR=ON, except clang's note that a `#pragma unroll` loop was
# left rolled (the sign kernel's items-per-thread loop: a question of speed
# on AMD, not of correctness; docs/GPU.md, "HIP"): it stays a warning.
[ "${WERROR:-OFF}" = ON ] && FLAGS+=(-Werror -Wno-error=pass-failed)
ARCH_FLAGS=()
for a in $ARCHS; do ARCH_FLAGS+=("--offload-arch=$a"); done

# An explicit --offload-arch: otherwise hipcc asks the (absent) GPU.
start=$(date +%s)
hipcc "${ARCH_FLAGS[@]}" "${FLAGS[@]}" -c src/gpu/cuda/sm2_gpu_kernels.cu -o "$OUT/sm2_gpu_kernels.o"
echo "build-hip: kernels compiled for $ARCHS in $(($(date +%s) - start)) s"

cc -O2 -fPIC -Iinclude -c src/util.c -o "$OUT/util.o" # fs2_wipe
hipcc "${ARCH_FLAGS[@]}" -shared -Wl,--no-undefined "$OUT/sm2_gpu_kernels.o" "$OUT/util.o" -o "$OUT/libfs2hip.so"
echo "build-hip: linked against libamdhip64 with no undefined symbol ($OUT/libfs2hip.so)"

objcopy -O binary --only-section=.hip_fatbin "$OUT/sm2_gpu_kernels.o" "$OUT/fatbin"
fail=0
for a in $ARCHS; do
  co=$OUT/$a.co
  "$LLVM_BIN/clang-offload-bundler" --unbundle --type=o --input="$OUT/fatbin" \
    --targets="hipv4-amdgcn-amd-amdhsa--$a" --output="$co"
  "$LLVM_BIN/llvm-readelf" --notes "$co" >"$OUT/$a.notes"
  "$LLVM_BIN/llvm-objdump" -d --mcpu="$a" "$co" >"$OUT/$a.s"
  echo "build-hip: $a code object: per kernel (static instruction counts, not per operation)"
  printf '  %-14s %5s %5s %6s %8s %8s %8s %12s %12s\n' kernel vgpr sgpr 'spills' scratch instrs mad_u64 mul_lo+hi add/addc_co
  for k in $KERNELS; do
    # the kernel's metadata: from its .name line to the next kernel's (the
    # fields are in alphabetical order: counts and sizes follow the name)
    meta=$(awk -v k="$k" '$0 ~ "\\.name: +_ZL?[0-9]+"k"[0-9A-Z]" {on = 1} on && /^ *- \.args:/ {exit} on' "$OUT/$a.notes")
    if [ -z "$meta" ]; then
      echo "build-hip: $a: kernel $k missing from the code object" >&2
      fail=1
      continue
    fi
    field() { printf '%s\n' "$meta" | awk -v f="$1" '$1 == f":" {print $2; exit}'; }
    # the kernel's instructions: from its label to the next label
    ops=$(awk -v k="$k" '/^[0-9a-f]+ <.*>:$/{on = ($2 ~ "^<_ZL?[0-9]+"k"[0-9A-Z]")} on && /^\t[a-z]/{print $1}' "$OUT/$a.s")
    cnt() { printf '%s\n' "$ops" | grep -cE "^($1)\$" || true; }
    printf '  %-14s %5s %5s %6s %8s %8s %8s %12s %12s\n' "$k" "$(field .vgpr_count)" "$(field .sgpr_count)" \
      "$(field .vgpr_spill_count)/$(field .sgpr_spill_count)" "$(field .private_segment_fixed_size)" \
      "$(printf '%s\n' "$ops" | grep -c .)" "$(cnt v_mad_u64_u32)" "$(cnt 'v_mul_lo_u32|v_mul_hi_u32')" \
      "$(cnt 'v_addc?_co_u32_e(32|64)')"
  done
done
[ "$fail" = 0 ] || exit 1
echo "build-hip: OK ($(($(date +%s) - start)) s)"
