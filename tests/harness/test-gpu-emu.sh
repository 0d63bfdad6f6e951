#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-gpu-emu`: the CUDA backend run on the CPU (docs/GPU.md), no nvcc,
# no GPU, no download. The library is built with FASTSM2_CUDA=EMU: the
# kernels, the table build, the chunked streams and every CUDA error path of
# src/gpu/cuda/sm2_gpu_kernels.cu compiled by the host C++ compiler against the
# emulated runtime of tests/gpu/emu/, with small chunks (FASTSM2_GPU_CHUNK) so
# that every batch spans several. Then:
#  1. test_gpu_device at table widths 8 and 12 (and 16, the default, on
#     small batches in the fast mode when FS2_GPU_EMU_FULL=1, as `make
#     test-all` sets), the constant-time mode,
#     every injected CUDA failure, a forced rejected nonce, results bit for
#     bit against the CPU library; test_gpu_arith;
#  2. the same at width 8 built with ASan + UBSan, small batches, every
#     eighth injected failure (FS2_GPU_EMU_ASAN=0 skips it). The emulated
#     kernels of this Debug build are compiled with -O1 (the same checks,
#     several times faster than -O0: 435 s -> 116 s here;
#     FS2_GPU_EMU_ASAN_KERNEL_FLAGS= gives them -O0 again).
set -euo pipefail
cd "$(dirname "$0")/../.."
JOBS=${JOBS:-2}
CHUNK=${FS2_GPU_EMU_CHUNK:-64}
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
command -v g++ >/dev/null 2>&1 || bash tools/install-deps.sh

run() { # run BUILD_DIR TYPE TESTS EXTRA_CMAKE_ARGS...
  local dir=$1 type=$2 tests=$3
  shift 3
  cmake -S . -B "$dir" "${GEN[@]}" -DCMAKE_BUILD_TYPE="$type" -DFASTSM2_CUDA=EMU -DFASTSM2_GPU_CHUNK="$CHUNK" \
    -DFASTSM2_CTIME=OFF -DFASTSM2_WERROR="${WERROR:-OFF}" "$@" >/dev/null
  cmake --build "$dir" -j "$JOBS" --target test_gpu_device test_gpu_arith
  (cd "$dir" && ctest --output-on-failure -R "$tests")
  if [ "${FS2_GPU_EMU_FULL:-0}" = 1 ]; then
    # the default width's table and its indexing, on small batches: the
    # constant-time mode (its own width), the injected failures and the
    # larger batches are the same code as at widths 8 and 12 above
    echo "test-gpu-emu: table width 16 (the default), fast mode, small batches"
    (cd "$dir" && FS2_GPU_TEST_NO_FAULTS=1 FS2_GPU_TEST_FAST_ONLY=1 FS2_GPU_TEST_SMALL=1 FASTSM2_GPU_TABLE_BITS=16 \
      ./tests/gpu/test_gpu_device)
  fi
}

start=$(date +%s)
run build-gpu-emu Release '^test_gpu_'
echo "test-gpu-emu: emulated backend passed ($(( $(date +%s) - start )) s)"
if [ "${FS2_GPU_EMU_ASAN:-1}" = 1 ]; then
  start=$(date +%s)
  # the host code, the emulated kernels and the error paths under the
  # sanitizers: width 8 (the width-12 run above is the same host code),
  # small batches, every eighth injected CUDA failure (from an offset the
  # seed draws, and the first and last of each kind; the Release pass above
  # tries them all), with chunks of 16 items so that each failure's cycle
  # of calls is a quarter of the items (the same calls: a batch still spans
  # three chunks). This pass with every third failure, 64-item chunks and
  # both widths took most of the stage's 23 minutes in CI.
  CHUNK=${FS2_GPU_EMU_ASAN_CHUNK:-16}
  ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 UBSAN_OPTIONS=print_stacktrace=1 \
    FS2_GPU_EMU_FULL=0 FS2_GPU_TEST_SMALL=1 FS2_GPU_FAULT_STRIDE=${FS2_GPU_FAULT_STRIDE:-8} \
    run build-gpu-emu-asan Debug '^test_gpu_(arith|device_emu_w8)$' -DFASTSM2_SANITIZE=ON \
    -DFS2_GPU_EMU_KERNEL_FLAGS="${FS2_GPU_EMU_ASAN_KERNEL_FLAGS--O1}"
  echo "test-gpu-emu: under ASan + UBSan passed ($(( $(date +%s) - start )) s)"
fi
