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
cubin prod &
cubin count -DFS2G_SASS_COUNT
wait $!
"$FS2_NVCC" "${NVFLAGS[@]}" -Isrc/gpu/cuda tests/harness/sass-micro.cu -o "$OUT/micro.cubin"
nvdisasm -c "$OUT/micro.cubin" >"$OUT/micro.sass"
cubin probe -DFS2G_SASS_CT_PROBE
cubin inject -DFS2G_SASS_CT_PROBE -DFS2G_SASS_CT_INJECT
CXX=${CXX:-g++}
"$CXX" -O2 -std=c++17 -DFS2G_OPCOUNT -Isrc/gpu/cuda tests/harness/sass-opcount.cpp -o "$OUT/sass-opcount"
"$OUT/sass-opcount" "$W" 64 >"$OUT/opcount.tsv"
args=(--prod "$OUT/prod.sass" --ptxas "$OUT/prod.ptxas" --count "$OUT/count.sass" --opcount "$OUT/opcount.tsv"
  --micro "$OUT/micro.sass"
  --ct-probe "$OUT/probe.sass" --ct-inject "$OUT/inject.sass" --json "$OUT/sass-count.json" --arch "$ARCH")
[ -n "${FS2_SASS_BASELINE:-}" ] && args+=(--baseline "$FS2_SASS_BASELINE")
python3 tests/harness/sass-count.py "${args[@]}"
