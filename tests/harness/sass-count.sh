#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make sass-count`: SASS instructions per signature, verification and key
# generation of the CUDA backend, for sm_90 (H100), without a GPU
# (docs/GPU.md "SASS count"). Needs nvcc, cuobjdump and nvdisasm: found or
# installed from PyPI into .cuda/ (tools/cuda-env.sh).
#  1. production build (as the library compiles src/gpu/cuda/sm2_gpu_kernels.cu):
#     registers, stack, spills (ptxas -v) and static SASS per kernel;
#     fails if a kernel spills;
#  2. the model of SASS per operation: the SASS of every cost-model unit
#     (field product and square, point doubling and additions, table
#     selection, SM3 compression, scalar product) inlined in a kernel of its
#     own (tests/harness/sass-micro.cu), times the calls of each unit per operation
#     (tests/harness/sass-opcount.cpp runs the same .cuh code on the CPU and counts
#     them), plus the kernel's own code once (accounting build
#     FS2G_SASS_COUNT, where the units are separate device functions);
#  3. the constant-time check: the constant-time signing path compiled as
#     one probe kernel (FS2G_SASS_CT_PROBE), and a data-flow pass over its
#     SASS requires that no conditional branch depends on a value read from
#     memory (the secrets); the same probe with a deliberate branch on the
#     nonce (FS2G_SASS_CT_INJECT) must be flagged.
# FS2_SASS_OUT (default build-sass/) keeps the listings; FS2_SASS_BASELINE
# names an earlier run's sass-count.json to print ratios against.
# The compiler's outputs of steps 1-3 (listings and ptxas reports) are
# cached in ~/.cache/fastsm2/sass/ by the hash of every file the compiles
# read, the flags and nvcc's version (the last 4 kept; FS2_SASS_CACHE=0: no
# cache); the model and the checks always run on them.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tools/cuda-env.sh
. tools/cuda-env.sh
fs2_cuda_env
fs2_cuda_sass_tools
OUT=${FS2_SASS_OUT:-build-sass}
ARCH=${FS2_SASS_ARCH:-90}
W=${FS2_SASS_W:-16}
mkdir -p "$OUT"
# FS2_SASS_FLAGS: more nvcc flags, e.g. a build variant
# ("-DFS2G_BLOCK=64 -DFS2G_MIN_BLOCKS=4", docs/GPU.md "Occupancy")
# shellcheck disable=SC2206
NVFLAGS=(-arch="sm_$ARCH" -cubin -O3 -std=c++17 -Iinclude -Isrc -DFASTSM2_WITH_CUDA=1 ${FS2_SASS_FLAGS:-})

cubin() { # cubin NAME EXTRA_FLAGS...
  local name=$1
  shift
  "$FS2_NVCC" "${NVFLAGS[@]}" "$@" -Xptxas -v src/gpu/cuda/sm2_gpu_kernels.cu -o "$OUT/$name.cubin" 2>"$OUT/$name.ptxas" || {
    cat "$OUT/$name.ptxas" >&2
    return 1
  }
  nvdisasm -c "$OUT/$name.cubin" >"$OUT/$name.sass"
}

echo "sass-count: nvcc $("$FS2_NVCC" --version | tail -1), sm_$ARCH, table width $W"
CACHED=(prod.sass prod.ptxas count.sass micro.sass probe.sass inject.sass)
key=""
if [ "${FS2_SASS_CACHE:-1}" = 1 ]; then
  CDIR=${FS2_CACHE:-$HOME/.cache/fastsm2}/sass
  # the files the compiles read (nvcc -M: the host preprocessor's view,
  # which includes every header of the device code)
  mflags=()
  for f in "${NVFLAGS[@]}"; do [ "$f" = -cubin ] || mflags+=("$f"); done
  tk=$(cd "$(dirname "$FS2_NVCC")/.." && pwd)
  deps=$({
    for f in src/gpu/cuda/sm2_gpu_kernels.cu tests/harness/sass-micro.cu; do
      "$FS2_NVCC" -M "${mflags[@]}" -Isrc/gpu/cuda "$f" 2>/dev/null || echo FAILED
    done
    ls src/gpu/cuda/* tests/harness/sass-micro.cu
  } | tr -d '\\' | tr ' ' '\n' | grep -v -e ':$' -e '^$' -e '^/usr/' -e "^$tk/" | sort -u)
  case $deps in *FAILED*) deps="" ;; esac
  if [ -n "$deps" ]; then
    key=$({ "$FS2_NVCC" --version; echo "${NVFLAGS[*]}"; for f in $deps; do if [ -f "$f" ]; then echo "$f"; cat "$f"; fi; done; } |
      sha256sum | cut -c1-32)
  fi
fi
if [ -n "$key" ] && [ -f "$CDIR/$key/inject.sass" ]; then
  for f in "${CACHED[@]}"; do cp "$CDIR/$key/$f" "$OUT/"; done
  echo "sass-count: compiler outputs from the cache ($CDIR/$key)"
else
cubin prod &
cubin count -DFS2G_SASS_COUNT
wait $!
"$FS2_NVCC" "${NVFLAGS[@]}" -Isrc/gpu/cuda tests/harness/sass-micro.cu -o "$OUT/micro.cubin"
nvdisasm -c "$OUT/micro.cubin" >"$OUT/micro.sass"
# (the probe builds compile the probe kernel alone: quick, also side by side)
cubin probe -DFS2G_SASS_CT_PROBE &
cubin inject -DFS2G_SASS_CT_PROBE -DFS2G_SASS_CT_INJECT
wait $!
if [ -n "$key" ]; then
  mkdir -p "$CDIR/$key.tmp.$$"
  for f in "${CACHED[@]}"; do cp "$OUT/$f" "$CDIR/$key.tmp.$$/"; done
  rm -rf "$CDIR/$key"
  mv "$CDIR/$key.tmp.$$" "$CDIR/$key"
  # the newest 4 entries
  find "$CDIR" -mindepth 1 -maxdepth 1 -type d ! -name '*.tmp.*' -printf '%T@ %p\n' | sort -rn | tail -n +5 | cut -d' ' -f2- |
    xargs -r rm -rf
fi
fi
CXX=${CXX:-g++}
"$CXX" -O2 -std=c++17 -DFS2G_OPCOUNT -Isrc/gpu/cuda tests/harness/sass-opcount.cpp -o "$OUT/sass-opcount"
"$OUT/sass-opcount" "$W" 64 >"$OUT/opcount.tsv"
args=(--prod "$OUT/prod.sass" --ptxas "$OUT/prod.ptxas" --count "$OUT/count.sass" --opcount "$OUT/opcount.tsv"
  --micro "$OUT/micro.sass"
  --ct-probe "$OUT/probe.sass" --ct-inject "$OUT/inject.sass" --json "$OUT/sass-count.json" --arch "$ARCH")
[ -n "${FS2_SASS_BASELINE:-}" ] && args+=(--baseline "$FS2_SASS_BASELINE")
python3 tests/harness/sass-count.py "${args[@]}"
