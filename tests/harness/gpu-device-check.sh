#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The CUDA backend's checks on a machine with a GPU (docs/GPU.md "Running
# the device checks").
#
# usage: tests/harness/gpu-device-check.sh [build|run|run-tests|run-speed|all]  (default: all)
#   build  compile, here or anywhere with nvcc (installed from PyPI into .cuda/
#          when missing), everything the run needs into a self-contained
#          bundle: build-gpudev/bundle/ (static CUDA runtime, libcrypto
#          copied in; under 64 MiB): the test programs, fastsm2-speed, the
#          same benchmark built with the launch-bounds variants (vNAME/), and
#          the microbenchmarks (gpu-micro).
#   run    on the GPU machine, with the bundle present (built there when it
#          is missing and nvcc + cmake are available), in about 5 minutes:
#            1. nvidia-smi: the device, its clocks (current and maximum) and
#               its power limit, before and after;
#            2. gpu-micro: IMAD.WIDE and IADD3.X throughput, field products
#               per second, and the shuffle timing with data-chosen lanes
#               (the constant-time selection's assumption);
#            3. test_gpu_device at table width 12 and in the constant-time
#               mode: fixed (d, e, k) bit-identical to the CPU, GPU
#               signatures verify on the CPU and CPU ones on the GPU,
#               invalid signatures flagged exactly, keygen equal to the
#               CPU's, argument errors, a 2^20+ batch; test_gpu_arith;
#            4. fastsm2-speed --gpu: sign and verify (one key and a key per
#               item) at table widths 8, 12 and 16, the constant-time mode,
#               the kernel alone and end to end, batches of 2^20 (2^18 for a
#               key per item);
#            5. the same at width 16 for each launch-bounds variant.
#          Logs and JSON go to $OUT when set (else build-gpudev/out/);
#          summary.txt lists every step; the exit status is 0 only if all
#          passed.
#   run-tests, run-speed: steps 1-3 or steps 1, 2, 4, 5 alone.
#   all    build, then run.
#
# Environment: FS2_GPU_ARCHS (default 90; e.g. "80;90"), FS2_GPU_SECONDS
# (seconds per benchmark record, default 0.5), FS2_GPU_SANITIZER=1 (also
# compute-sanitizer memcheck on small batches, about a minute more; the
# sanitizer is then bundled too).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
MODE=${1:-all}
WORK=$ROOT/build-gpudev
BUNDLE=$WORK/bundle
OUTDIR=${OUT:-$WORK/out}
ARCHS=${FS2_GPU_ARCHS:-90}
# the launch-bounds variants (docs/GPU.md "Occupancy"): name and nvcc flags
VARIANTS=("b64:-DFS2G_BLOCK=64" "b128m2:-DFS2G_MIN_BLOCKS=2" "b64m4:-DFS2G_BLOCK=64 -DFS2G_MIN_BLOCKS=4")

cmake_build() { # cmake_build DIR EXTRA_CUDA_FLAGS TARGETS...
  local dir=$1 flags=$2
  shift 2
  local gen=()
  command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
  cmake -S "$ROOT" -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DFASTSM2_CUDA=ON \
    -DCMAKE_CUDA_COMPILER="$FS2_NVCC" -DCMAKE_CUDA_ARCHITECTURES="$ARCHS" -DCMAKE_CUDA_FLAGS="$flags" \
    -DFASTSM2_CTIME=OFF >/dev/null || return 1
  cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" --target "$@" || return 1
}

do_build() {
  # shellcheck source=tools/cuda-env.sh
  . "$ROOT/tools/cuda-env.sh"
  fs2_cuda_env || return 1
  echo "gpu-device-check: nvcc $FS2_NVCC, sm_$ARCHS"
  cmake_build "$WORK/cmake" "" fastsm2 fastsm2-speed test_gpu_device test_gpu_arith || return 1
  rm -rf "$BUNDLE"
  mkdir -p "$BUNDLE/lib"
  cp "$WORK/cmake/fastsm2" "$WORK/cmake/fastsm2-speed" "$WORK/cmake/tests/gpu/test_gpu_device" \
     "$WORK/cmake/tests/gpu/test_gpu_arith" "$BUNDLE/" || return 1
  for v in "${VARIANTS[@]}"; do
    local name=${v%%:*} flags=${v#*:}
    cmake_build "$WORK/cmake-$name" "$flags" fastsm2-speed || return 1
    mkdir -p "$BUNDLE/v$name"
    cp "$WORK/cmake-$name/fastsm2-speed" "$BUNDLE/v$name/" || return 1
    echo "$flags" >"$BUNDLE/v$name/flags"
  done
  local gencode=()
  for a in ${ARCHS//;/ }; do gencode+=(-gencode "arch=compute_$a,code=sm_$a"); done
  "$FS2_NVCC" -O3 -std=c++17 "${gencode[@]}" -Isrc/gpu/cuda -cudart static -o "$BUNDLE/gpu-micro" \
    tests/harness/gpu-micro.cu || return 1
  # libcrypto (the tests' and the benchmark's reference), in case the GPU
  # machine lacks it
  local crypto
  crypto=$(ldd "$BUNDLE/fastsm2-speed" "$BUNDLE/test_gpu_arith" | awk '/libcrypto/ {print $3; exit}')
  [ -n "$crypto" ] && cp -L "$crypto" "$BUNDLE/lib/"
  # compute-sanitizer from the same toolkit, when asked for
  local tk
  tk=$(cd "$(dirname "$FS2_NVCC")/.." && pwd)
  if [ "${FS2_GPU_SANITIZER:-0}" = 1 ] && [ -x "$tk/bin/compute-sanitizer" ]; then
    mkdir -p "$BUNDLE/sanitizer"
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
  local name=$1 log=$2 t0
  shift 2
  echo "== $name"
  t0=$(date +%s)
  "$@" >"$OUTDIR/$log" 2>&1
  local rc=$?
  tail -n 3 "$OUTDIR/$log"
  if [ $rc -eq 0 ]; then
    SUMMARY+=("PASS  $name  ($log, $(($(date +%s) - t0)) s)")
  else
    SUMMARY+=("FAIL  $name  ($log, exit $rc)")
    FAILED=1
  fi
}

smi() { # smi LOG: the device, clocks, power
  {
    nvidia-smi || true
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.draw,power.limit,temperature.gpu \
      --format=csv || true
    nvidia-smi -q -d CLOCK,PERFORMANCE || true
  } >"$OUTDIR/$1" 2>&1
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
  local t0
  t0=$(date +%s)
  smi nvidia-smi-before.txt
  head -n 15 "$OUTDIR/nvidia-smi-before.txt"
  step "gpu-micro: IMAD.WIDE, IADD3.X, field products, shuffle timing" gpu-micro.json "$BUNDLE/gpu-micro" 0.5
  [ $RUN_TESTS = 1 ] && run_tests
  [ $RUN_SPEED = 1 ] && run_speed
  smi nvidia-smi-after.txt
  {
    echo "gpu-device-check $(date -u +%Y-%m-%dT%H:%M:%SZ), $(($(date +%s) - t0)) s"
    grep -h -m1 -o 'device 0: .*' "$OUTDIR"/test_gpu_device_w12.log 2>/dev/null || true
    printf '%s\n' "${SUMMARY[@]}"
  } | tee "$OUTDIR/summary.txt"
  return $FAILED
}

run_tests() {
  step "test_gpu_device, table width 12 and the constant-time mode" test_gpu_device_w12.log \
    env FASTSM2_GPU_TABLE_BITS=12 "$BUNDLE/test_gpu_device"
  step "test_gpu_arith (device arithmetic as host code)" test_gpu_arith.log "$BUNDLE/test_gpu_arith"
  if [ -x "$BUNDLE/sanitizer/compute-sanitizer" ]; then
    step "compute-sanitizer memcheck (small batches)" memcheck.log \
      env FS2_GPU_TEST_SMALL=1 FASTSM2_GPU_TABLE_BITS=8 LD_LIBRARY_PATH="$BUNDLE/sanitizer:$LD_LIBRARY_PATH" \
      "$BUNDLE/sanitizer/compute-sanitizer" --tool memcheck --leak-check full --error-exitcode 99 \
      "$BUNDLE/test_gpu_device"
  fi
}

run_speed() {
  local secs=${FS2_GPU_SECONDS:-0.5}
  for w in 8 12 16; do
    step "sign and verify at table width $w (and the constant-time mode)" "speed-gpu-w$w.json" \
      env FASTSM2_GPU_TABLE_BITS=$w "$BUNDLE/fastsm2-speed" --gpu --json --ops sign,verify,verify-keys \
      --batches 20-20 --seconds "$secs"
  done
  for v in "${VARIANTS[@]}"; do
    local name=${v%%:*}
    step "variant $name ($(cat "$BUNDLE/v$name/flags")): sign and verify at width 16" "speed-gpu-v$name.json" \
      env FASTSM2_GPU_TABLE_BITS=16 "$BUNDLE/v$name/fastsm2-speed" --gpu --json --ops sign,verify,verify-keys \
      --batches 20-20 --seconds "$secs"
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
