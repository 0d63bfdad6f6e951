#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The CUDA backend's checks on a machine with a GPU (docs/GPU.md).
#
# usage: tests/harness/gpu-device-check.sh [build|run|run-tests|run-speed|all]  (default: all)
#   build  compile, here or anywhere with nvcc (installed from PyPI into .cuda/
#          when missing), the CUDA-enabled test and benchmark programs into a
#          self-contained bundle: build-gpudev/bundle/ (static CUDA runtime,
#          libcrypto and compute-sanitizer copied in; under 64 MiB).
#   run    on the GPU machine, with the bundle present (built there when it
#          is missing and nvcc + cmake are available):
#            1. test_gpu_device for table widths 16, 12, 8 and the
#               constant-time mode: fixed (d, e, k) bit-identical to the CPU,
#               GPU signatures verify on the CPU and CPU ones on the GPU,
#               invalid signatures mixed into a batch flagged exactly,
#               keygen equal to the CPU's, argument errors, a 2^20+ batch;
#            2. test_gpu_arith (the same arithmetic as host code);
#            3. compute-sanitizer --tool memcheck on a small test_gpu_device;
#            4. fastsm2-speed --gpu --json (2^10..2^24, end to end, kernel,
#               constant-time, CPU batch API on every core), and sign/keygen
#               at table widths 8, 12, 16 (the segment width measurement).
#          Logs and JSON go to $OUT when set (else build-gpudev/out/);
#          summary.txt lists every step; the exit status is 0 only if all
#          passed.
#   run-tests, run-speed: steps 1-3 or step 4 alone (each well under the
#          device tool's 10 minutes per command).
#   all    build, then run.
#
# Environment: FS2_GPU_ARCHS (default 90; e.g. "80;90"), FS2_GPU_BATCHES
# (default 10-24), FS2_GPU_SECONDS (default 1).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
MODE=${1:-all}
WORK=$ROOT/build-gpudev
BUNDLE=$WORK/bundle
OUTDIR=${OUT:-$WORK/out}
ARCHS=${FS2_GPU_ARCHS:-90}

do_build() {
  # shellcheck source=tools/cuda-env.sh
  . "$ROOT/tools/cuda-env.sh"
  fs2_cuda_env || return 1
  echo "gpu-device-check: nvcc $FS2_NVCC, sm_$ARCHS"
  local gen=()
  command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
  cmake -S "$ROOT" -B "$WORK/cmake" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DFASTSM2_CUDA=ON \
    -DCMAKE_CUDA_COMPILER="$FS2_NVCC" -DCMAKE_CUDA_ARCHITECTURES="$ARCHS" -DFASTSM2_CTIME=OFF >/dev/null || return 1
  cmake --build "$WORK/cmake" -j "$(nproc 2>/dev/null || echo 2)" \
    --target fastsm2 fastsm2-speed test_gpu_device test_gpu_arith || return 1
  rm -rf "$BUNDLE"
  mkdir -p "$BUNDLE/lib" "$BUNDLE/sanitizer"
  cp "$WORK/cmake/fastsm2" "$WORK/cmake/fastsm2-speed" "$WORK/cmake/tests/gpu/test_gpu_device" \
     "$WORK/cmake/tests/gpu/test_gpu_arith" "$BUNDLE/" || return 1
  # libcrypto (the tests' and the benchmark's reference), in case the GPU
  # machine lacks it
  local crypto
  crypto=$(ldd "$BUNDLE/fastsm2-speed" "$BUNDLE/test_gpu_arith" | awk '/libcrypto/ {print $3; exit}')
  [ -n "$crypto" ] && cp -L "$crypto" "$BUNDLE/lib/"
  # compute-sanitizer from the same toolkit, when it has one
  local tk
  tk=$(cd "$(dirname "$FS2_NVCC")/.." && pwd)
  if [ -x "$tk/bin/compute-sanitizer" ]; then
    if [ -d "$tk/compute-sanitizer" ]; then # a full toolkit keeps it in its own folder
      cp -a "$tk/compute-sanitizer/." "$BUNDLE/sanitizer/"
    else                                    # the PyPI layout: bin/ and lib/
      cp -a "$tk/bin/compute-sanitizer" "$tk/bin/libsanitizer-collection.so" "$BUNDLE/sanitizer/" 2>/dev/null
      cp -a "$tk"/lib/libsanitizer* "$tk"/lib/libInterceptor* "$tk"/lib/libTreeLauncher* "$BUNDLE/sanitizer/" 2>/dev/null
    fi
  fi
  echo "gpu-device-check: bundle $(du -sh "$BUNDLE" | cut -f1) in $BUNDLE"
}

declare -a SUMMARY=()
FAILED=0
step() { # step NAME LOGFILE COMMAND...
  local name=$1 log=$2
  shift 2
  echo "== $name"
  "$@" >"$OUTDIR/$log" 2>&1
  local rc=$?
  tail -n 3 "$OUTDIR/$log"
  if [ $rc -eq 0 ]; then
    SUMMARY+=("PASS  $name  ($log)")
  else
    SUMMARY+=("FAIL  $name  ($log, exit $rc)")
    FAILED=1
  fi
}

RUN_TESTS=1
RUN_SPEED=1
do_run() {
  mkdir -p "$OUTDIR"
  if [ ! -x "$BUNDLE/test_gpu_device" ]; then
    echo "gpu-device-check: no bundle in $BUNDLE: building it here"
    do_build || { echo "gpu-device-check: cannot build (no nvcc/cmake here?)" >&2; return 1; }
  fi
  export LD_LIBRARY_PATH="$BUNDLE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  (nvidia-smi || true) >"$OUTDIR/nvidia-smi.txt" 2>&1
  head -n 15 "$OUTDIR/nvidia-smi.txt"
  [ $RUN_TESTS = 1 ] && run_tests
  [ $RUN_SPEED = 1 ] && run_speed
  {
    echo "gpu-device-check $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    grep -h -m1 -o 'device 0: .*' "$OUTDIR"/test_gpu_device_w16.log 2>/dev/null || true
    printf '%s\n' "${SUMMARY[@]}"
  } | tee "$OUTDIR/summary.txt"
  return $FAILED
}

run_tests() {
  for w in 16 12 8; do
    step "test_gpu_device, table width $w (and the constant-time mode)" "test_gpu_device_w$w.log" \
      env FASTSM2_GPU_TABLE_BITS=$w "$BUNDLE/test_gpu_device"
  done
  step "test_gpu_arith (device arithmetic as host code)" test_gpu_arith.log "$BUNDLE/test_gpu_arith"
  local san=""
  if [ -x "$BUNDLE/sanitizer/compute-sanitizer" ]; then
    san="$BUNDLE/sanitizer/compute-sanitizer"
  elif command -v compute-sanitizer >/dev/null 2>&1; then
    san=$(command -v compute-sanitizer)
  fi
  if [ -n "$san" ]; then
    step "compute-sanitizer memcheck (small batches)" memcheck.log \
      env FS2_GPU_TEST_SMALL=1 FASTSM2_GPU_TABLE_BITS=8 LD_LIBRARY_PATH="$BUNDLE/sanitizer:$LD_LIBRARY_PATH" \
      "$san" --tool memcheck --leak-check full --error-exitcode 99 "$BUNDLE/test_gpu_device"
  else
    SUMMARY+=("FAIL  compute-sanitizer: not found")
    FAILED=1
  fi
}

run_speed() {
  local batches=${FS2_GPU_BATCHES:-10-24} secs=${FS2_GPU_SECONDS:-1}
  step "fastsm2 speed --gpu --json (batches 2^$batches)" speed-gpu.json \
    "$BUNDLE/fastsm2-speed" --gpu --json --batches "$batches" --seconds "$secs"
  for w in 8 12 16; do
    step "sign/keygen at table width $w" "speed-gpu-w$w.json" \
      env FASTSM2_GPU_TABLE_BITS=$w "$BUNDLE/fastsm2-speed" --gpu --json --ops sign,keygen --batches 18-22 \
      --seconds "$secs"
  done
}

case "$MODE" in
  build) do_build ;;
  run) do_run ;;
  run-tests) RUN_SPEED=0 do_run ;;
  run-speed) RUN_TESTS=0 do_run ;;
  all) do_build && do_run ;;
  *) echo "usage: $0 [build|run|run-tests|run-speed|all]" >&2; exit 2 ;;
esac
