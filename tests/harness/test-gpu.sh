#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-gpu`: the CUDA backend on a machine with or without a GPU.
#  1. find nvcc, or install it from PyPI into .cuda/ (tools/cuda-env.sh);
#  2. build the library with FASTSM2_CUDA=ON in build-cuda/: every kernel in
#     src/gpu/cuda/*.cu is compiled by nvcc (for FS2_GPU_ARCHS, default 90 = H100), so a
#     kernel that does not compile fails here;
#  3. run the whole ctest suite there: test_gpu_arith runs the device
#     arithmetic as host code against the library and OpenSSL, the other
#     tests check the CUDA-enabled library (exports, CLI, ...), and
#     test_gpu_device runs on a GPU or reports "skipped" without one.
# On a GPU machine, tests/harness/gpu-device-check.sh is the full device check.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tools/cuda-env.sh
. tools/cuda-env.sh
fs2_cuda_env
echo "test-gpu: nvcc: $FS2_NVCC ($("$FS2_NVCC" --version | tail -1))"

BUILD=${FS2_CUDA_BUILD:-build-cuda}
ARCHS=${FS2_GPU_ARCHS:-90}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
cmake -S . -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DFASTSM2_CUDA=ON \
  -DCMAKE_CUDA_COMPILER="$FS2_NVCC" -DCMAKE_CUDA_ARCHITECTURES="$ARCHS" >/dev/null
start=$(date +%s)
cmake --build "$BUILD" -j "$JOBS"
echo "test-gpu: library with CUDA built for sm_${ARCHS// /,sm_} in $(( $(date +%s) - start )) s"
cd "$BUILD"
ctest --output-on-failure -j "$JOBS"
