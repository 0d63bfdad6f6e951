#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-gpu-sim` / `make test-gpu-sim-brief`: the CUDA backend compiled
# with its PTX carry chains (not FS2G_NO_PTX) for sm_86 and executed in
# GPGPU-Sim (a cycle-level GPU simulator) with its Ampere RTX 3070
# configuration, results checked bit for bit against the CPU library and
# OpenSSL (docs/GPU.md "Simulated in GPGPU-Sim").
#
#   tests/harness/test-gpu-sim.sh brief   functional simulation: tests/gpu/sim/sim_arith
#                                 (field and scalar ops on edge values vs
#                                 OpenSSL) and one batch of each kernel
#                                 (sim_rate: sign, constant-time sign and
#                                 verify, checked on the CPU): minutes
#   tests/harness/test-gpu-sim.sh full    sim_arith with more random values,
#                                 test_gpu_device (FS2_GPU_TEST_SMALL=1,
#                                 bit for bit against the CPU library), then
#                                 the rates below: most of an hour
#   tests/harness/test-gpu-sim.sh arith   sim_arith only (both builds)
#   tests/harness/test-gpu-sim.sh device  test_gpu_device only (as in full)
#   tests/harness/test-gpu-sim.sh build   only build fastsm2's programs for the
#                                 simulator (no simulator needed)
#   tests/harness/test-gpu-sim.sh rates   the timing model on one batch of each
#                                 kernel: simulated rates (sim_stats.py);
#                                 FS2_GPU_SIM_W sets the fast table width
#                                 (default 4; 12 and 16 are the real
#                                 configurations: their tables are then
#                                 computed on the host, FS2_GPU_HOST_TABLE)
#
# GPGPU-Sim's source does not come from a package registry, so this script
# never downloads it: it builds (once, cached in ~/.cache/fastsm2/gpgpu-sim/)
# from GPGPUSIM_SRC=<a checkout of github.com/accel-sim/gpgpu-sim_distribution>
# or from a tree already in the cache, and exits 77 (skipped) when neither
# is there. What it installs itself: bison, flex, makedepend (apt), the
# CUDA 11.8 headers and ptxas from PyPI (GPGPU-Sim is built against them,
# in ~/.cache/fastsm2/cuda11/), CUDA 13's nvcc (tools/cuda-env.sh; the only
# nvcc on PyPI) that compiles fastsm2. The simulator is patched for PTX's
# carry flag, which it otherwise lacks (tests/gpu/sim/patch-gpgpusim.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
MODE=${1:-brief}
CACHE=${FS2_CACHE:-$HOME/.cache/fastsm2}
SIMDIR=$CACHE/gpgpu-sim
SIM=$SIMDIR/src
CUDA11=$CACHE/cuda11
BUILD=${FS2_GPU_SIM_BUILD:-build-gpu-sim}
JOBS=${JOBS:-2}
start=$(date +%s)

skip() {
  echo "skip test-gpu-sim $MODE: $*"
  exit 77
}

# ---- 1. the simulator's source -------------------------------------------
if [ ! -f "$SIM/setup_environment" ]; then
  if [ -n "${GPGPUSIM_SRC:-}" ] && [ -f "$GPGPUSIM_SRC/setup_environment" ]; then
    echo "test-gpu-sim: copying GPGPU-Sim from $GPGPUSIM_SRC into $SIM"
    mkdir -p "$SIMDIR"
    rm -rf "$SIM.tmp"
    cp -a "$GPGPUSIM_SRC" "$SIM.tmp"
    rm -rf "$SIM.tmp/build" "$SIM.tmp/lib"
    mv "$SIM.tmp" "$SIM"
  else
    skip "no GPGPU-Sim source: set GPGPUSIM_SRC to a checkout of" \
      "the Accel-Sim project's gpgpu-sim_distribution (branch dev), or put one in $SIM" \
      "(it is not on a package registry, so this script does not download it)"
  fi
fi

# brief (in make test-all) runs only with a simulator already built and
# cached: building it (about 20 minutes, and the CUDA 11.8 files from PyPI)
# is for the other modes, e.g. `tests/harness/test-gpu-sim.sh arith` once.
sim_built() { # the patched simulator's libcudart.so, newer than its sources
  local lib
  lib=$(ls -d "$SIM"/lib/gcc-*/cuda-11080/release 2>/dev/null | head -1 || true)
  [ -n "$lib" ] && [ -f "$lib/libcudart.so" ] && [ -x "$CUDA11/bin/nvcc" ] &&
    [ -z "$(find "$SIM/src/cuda-sim" -newer "$lib/libcudart.so" -name '*.cc' 2>/dev/null | head -1)" ]
}
if [ "$MODE" = brief ]; then
  # (patched only once built: a fresh source is left as it is)
  if ls "$SIM"/lib/gcc-*/cuda-11080/release/libcudart.so >/dev/null 2>&1; then
    python3 tests/gpu/sim/patch-gpgpusim.py "$SIM"
  fi
  sim_built || skip "GPGPU-Sim in $SIM is not built (or older than its patched sources, or the CUDA 11.8" \
    "files in $CUDA11 are missing): the brief check does not build it; run" \
    "tests/harness/test-gpu-sim.sh arith once (about 20 minutes)"
fi

# ---- 2. what building it needs -------------------------------------------
need=()
if [ "$MODE" != brief ]; then # the simulator's build (brief: built already)
  command -v bison >/dev/null 2>&1 || need+=(bison)
  command -v flex >/dev/null 2>&1 || need+=(flex)
  command -v makedepend >/dev/null 2>&1 || need+=(xutils-dev)
  [ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
fi
command -v g++ >/dev/null 2>&1 || need+=(g++)
[ -f /usr/include/openssl/bn.h ] || need+=(libssl-dev)
if [ ${#need[@]} -gt 0 ]; then
  echo "test-gpu-sim: installing ${need[*]} (apt)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# CUDA 11.8 headers and ptxas (PyPI); ptxas --version prints the release
# line GPGPU-Sim's build reads from `nvcc --version`, so it stands in for
# nvcc there (nothing is compiled with it).
if [ ! -x "$CUDA11/bin/nvcc" ]; then
  echo "test-gpu-sim: installing the CUDA 11.8 headers and ptxas from PyPI into $CUDA11"
  rm -rf "$CUDA11.tmp" "$CUDA11.pip"
  python3 -m pip install --no-input --disable-pip-version-check -q --target "$CUDA11.pip" \
    nvidia-cuda-nvcc-cu11==11.8.89 nvidia-cuda-runtime-cu11==11.8.89
  mkdir -p "$CUDA11.tmp/bin" "$CUDA11.tmp/include" "$CUDA11.tmp/lib64"
  cp -a "$CUDA11.pip/nvidia/cuda_runtime/include/." "$CUDA11.pip/nvidia/cuda_nvcc/include/." "$CUDA11.tmp/include/"
  rm -f "$CUDA11.tmp/include/__init__.py"
  cp -a "$CUDA11.pip/nvidia/cuda_nvcc/bin/ptxas" "$CUDA11.tmp/bin/"
  cp -a "$CUDA11.pip/nvidia/cuda_runtime/lib/libcudart.so.11.0" "$CUDA11.tmp/lib64/"
  ln -s ptxas "$CUDA11.tmp/bin/nvcc"
  # the one type GPGPU-Sim needs from cudaProfiler.h, which no CUDA 11 wheel ships
  cat >"$CUDA11.tmp/include/cudaProfiler.h" <<'EOF'
/* fastsm2 (tests/harness/test-gpu-sim.sh): the one type GPGPU-Sim's libcudart needs
 * from CUDA's cudaProfiler.h, which the CUDA 11 wheels on PyPI lack. */
#ifndef FS2SIM_CUDA_PROFILER_H
#define FS2SIM_CUDA_PROFILER_H
typedef enum { CU_OUT_KEY_VALUE_PAIR = 0, CU_OUT_CSV = 1 } CUoutput_mode;
#endif
EOF
  rm -rf "$CUDA11" "$CUDA11.pip"
  mv "$CUDA11.tmp" "$CUDA11"
fi

# ---- 3. the simulator, patched and built (cached) -------------------------
# (mode build: only fastsm2's programs, step 4, e.g. while the simulator
# is being built by another run)
if [ "$MODE" != build ]; then
python3 tests/gpu/sim/patch-gpgpusim.py "$SIM"
SIMLIB=$(ls -d "$SIM"/lib/gcc-*/cuda-11080/release 2>/dev/null | head -1 || true)
if [ -z "$SIMLIB" ] || [ ! -f "$SIMLIB/libcudart.so" ] ||
   [ -n "$(find "$SIM/src/cuda-sim" -newer "$SIMLIB/libcudart.so" -name '*.cc' 2>/dev/null | head -1)" ]; then
  echo "test-gpu-sim: building GPGPU-Sim in $SIM (once; about 20 minutes on 2 cores)"
  (
    cd "$SIM"
    export CUDA_INSTALL_PATH=$CUDA11
    export PATH=$CUDA11/bin:$PATH
    set +u
    # shellcheck disable=SC1091
    source setup_environment release >/dev/null
    set -u
    nice -n 10 make -j"$JOBS" >"$SIMDIR/build.log" 2>&1 || {
      grep -n "error" "$SIMDIR/build.log" | grep -v "unknown option" | tail -20
      echo "test-gpu-sim: GPGPU-Sim build failed (log: $SIMDIR/build.log)"
      exit 1
    }
  )
  SIMLIB=$(ls -d "$SIM"/lib/gcc-*/cuda-11080/release | head -1)
fi
echo "test-gpu-sim: simulator: $SIMLIB/libcudart.so"
fi

# ---- 4. fastsm2 for sm_86, linked against the simulator -------------------
# shellcheck source=tools/cuda-env.sh
. tools/cuda-env.sh
fs2_cuda_env
CU13=$(cd "$(dirname "$FS2_NVCC")/.." && pwd)
mkdir -p "$BUILD/sim"
cc -O2 -fPIC -shared -o "$BUILD/sim/libfs2simshim.so" tests/gpu/sim/sim_shim.c
# A linker script in place of the CUDA runtime: the shim and NVIDIA's CUDA
# 11.8 libcudart.so.11.0, so that the programs need "libcudart.so.11.0",
# which at run time (LD_LIBRARY_PATH) is the simulator's: GPGPU-Sim reads
# the app's CUDA version from that name in `ldd` and requires 11.
printf 'INPUT(%s %s)\n' "$ROOT/$BUILD/sim/libfs2simshim.so" "$CUDA11/lib64/libcudart.so.11.0" \
  >"$BUILD/sim/libcudart-sim.so"
# What the simulator runs at run time as $CUDA_INSTALL_PATH/bin/...: CUDA
# 13's cuobjdump (extracts the PTX) and ptxas (register counts). The ptxas
# wrapper drops what GPGPU-Sim's parser of the -v report does not know
# (", used N barriers", ", N bytes cumulative stack size", "Compile time")
# and keeps the report per input (ptxas takes minutes on the whole module).
# The reports are kept by the hash of ptxas's inputs in the simulator's
# cache folder, so that a later run (another clone too) with the same
# kernels skips ptxas.
mkdir -p "$BUILD/sim/cuda/bin" "$SIMDIR/ptxas-cache"
ln -sfn "$CU13/bin/cuobjdump" "$BUILD/sim/cuda/bin/cuobjdump"
cat >"$BUILD/sim/cuda/bin/ptxas" <<EOF
#!/bin/sh
key=\$(for a in "\$@"; do if [ -f "\$a" ]; then cat "\$a"; else echo "\$a"; fi; done | md5sum | cut -c1-32)
c="$SIMDIR/ptxas-cache/\$key"
if [ ! -f "\$c" ]; then
  "$CU13/bin/ptxas" "\$@" 2>"\$c.\$\$.tmp"
  rc=\$?
  if [ \$rc != 0 ]; then cat "\$c.\$\$.tmp" >&2; rm -f "\$c.\$\$.tmp"; exit \$rc; fi
  sed -e 's/, used [0-9]* barriers//' -e 's/, [0-9]* bytes cumulative stack size//' -e '/Compile time/d' \\
    "\$c.\$\$.tmp" >"\$c.\$\$"
  rm -f "\$c.\$\$.tmp"
  mv -f "\$c.\$\$" "\$c"
fi
cat "\$c" >&2
EOF
chmod +x "$BUILD/sim/cuda/bin/ptxas"
# FS2G_HOST_TABLE_HOOK: with FS2_GPU_HOST_TABLE=1 the fixed-base tables are
# computed on the host (the rates at width 12 and 16; the functional
# simulation of the device's table kernel would take hours to days);
# FS2_GPU_SIM_NVFLAGS: more nvcc flags, for a variant (e.g.
# -DFS2G_SIGN_ITEMS=4; give it its own FS2_GPU_SIM_BUILD)
NVFLAGS="-D__NV_LEGACY_LAUNCH -Xcompiler=-D__NV_LEGACY_LAUNCH -DFS2G_HOST_TABLE_HOOK ${FS2_GPU_SIM_NVFLAGS:-}"
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
cmake -S . -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DFASTSM2_CUDA=ON -DFASTSM2_CTIME=OFF \
  -DCMAKE_CUDA_COMPILER="$FS2_NVCC" -DCMAKE_CUDA_ARCHITECTURES=86 -DCMAKE_CUDA_FLAGS="$NVFLAGS" \
  -DCMAKE_CUDA_RUNTIME_LIBRARY=None -DCUDA_cudart_static_LIBRARY="$ROOT/$BUILD/sim/libcudart-sim.so" \
  -DFASTSM2_GPU_CHUNK="${FS2_GPU_SIM_CHUNK:-64}" >/dev/null
# test_gpu_device only where it runs
targets=(fastsm2_static)
case $MODE in full | device | build) targets+=(test_gpu_device) ;; esac
nice -n 10 cmake --build "$BUILD" -j "$JOBS" --target "${targets[@]}"
"$FS2_NVCC" -O3 $NVFLAGS -arch=sm_86 -Isrc/gpu/cuda -o "$BUILD/sim/sim_arith" tests/gpu/sim/sim_arith.cu \
  -L"$BUILD/sim" -l:libcudart-sim.so -lcrypto -cudart none
# the same with the portable primitives (FS2G_NO_PTX: plain 64-bit C
# arithmetic, no carry flag): a check of the simulator itself on the PTX
# nvcc emits for C (wide multiplies, 64-bit literals)
"$FS2_NVCC" -O3 $NVFLAGS -arch=sm_86 -Isrc/gpu/cuda -DFS2G_NO_PTX -o "$BUILD/sim/sim_arith_portable" \
  tests/gpu/sim/sim_arith.cu -L"$BUILD/sim" -l:libcudart-sim.so -lcrypto -cudart none
cc -O2 -Iinclude -Isrc -o "$BUILD/sim/sim_rate" tests/gpu/sim/sim_rate.c "$BUILD/libfastsm2.a" \
  -L"$BUILD/sim" -l:libcudart-sim.so -lstdc++ -lpthread -lm
echo "test-gpu-sim: built ($(($(date +%s) - start)) s)"
[ "$MODE" = build ] && exit 0

# ---- 5. runs in the simulator ----------------------------------------------
# sim RUN_DIR FUNCTIONAL(1|0) PROGRAM ARGS...: in a folder of its own with the
# RTX 3070 configuration; the simulator finds the kernels' PTX with CUDA 13's
# cuobjdump and their register counts with its ptxas (in $CU13/bin).
# CUDA_LAUNCH_BLOCKING=1: GPGPU-Sim then queues every copy and launch on its
# stream 0 and the host waits for each. Without it, operations on the
# library's (non-blocking) streams run in the simulator's own thread while
# the host thread sets up the next launch, unsynchronised: the kernels read
# zeros where cudaMemcpyAsync had copied the keys, digests and signatures
# (docs/GPU.md "Simulated in GPGPU-Sim"). The order of operations within
# each stream, which is all the library relies on, is kept.
sim() {
  local dir=$BUILD/sim/$1 func=$2 t0
  t0=$(date +%s)
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$SIM/configs/tested-cfgs/SM86_RTX3070/"* "$dir/"
  # The configuration gives 5 of the 6 integer latencies and initiation
  # intervals (ADD, MAX, MUL, MAD, DIV; not SHFL): the timing model read
  # the sixth uninitialised and aborted at the first shfl. GPGPU-Sim's
  # own defaults for SHFL (latency 32, interval 4) are added.
  sed -i -e 's/^\(-ptx_opcode_latency_int *[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*\) *$/\1,32/' \
    -e 's/^\(-ptx_opcode_initiation_int *[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*\) *$/\1,4/' "$dir/gpgpusim.config"
  if [ -n "${FS2_GPU_SIM_SMS:-}" ]; then
    sed -i "s/^-gpgpu_n_clusters .*/-gpgpu_n_clusters $FS2_GPU_SIM_SMS/" "$dir/gpgpusim.config"
    if [ -n "${FS2_GPU_SIM_MAX_CYCLES:-}" ]; then
      echo "-gpgpu_max_cycle $FS2_GPU_SIM_MAX_CYCLES" >>"$dir/gpgpusim.config"
    fi
  fi
  local prog
  prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  shift
  (
    cd "$dir"
    env LD_LIBRARY_PATH="$SIMLIB:$ROOT/$BUILD/sim" CUDA_INSTALL_PATH="$ROOT/$BUILD/sim/cuda" \
      PTXAS_CUDA_INSTALL_PATH="$ROOT/$BUILD/sim/cuda" CUOBJDUMP_SIM_FILE=jj CUDA_LAUNCH_BLOCKING=1 \
      PTX_SIM_MODE_FUNC="$func" "$prog" "$@" >out.log 2>&1
  ) || {
    grep -v "^GPGPU-Sim\|^Extracting\|^Processing\|^Running md5\|^\s*$" "$dir/out.log" | tail -40
    echo "test-gpu-sim: $(basename "$prog") failed in the simulator (log: $dir/out.log)"
    return 1
  }
  grep -E "^(sim_arith|sim_rate|test_gpu_device|device 0):|FAIL" "$dir/out.log" || true
  echo "test-gpu-sim: $(basename "$dir"): $(($(date +%s) - t0)) s"
}

NRAND=8
[ "$MODE" = full ] && NRAND=256
if [ "$MODE" != rates ] && [ "$MODE" != device ]; then
  sim arith 1 "$BUILD/sim/sim_arith" "$NRAND"
  grep -q "equal OpenSSL's, bit for bit" "$BUILD/sim/arith/out.log"
  sim arith-portable 1 "$BUILD/sim/sim_arith_portable" "$NRAND"
  grep -q "equal OpenSSL's, bit for bit" "$BUILD/sim/arith-portable/out.log"
fi
if [ "$MODE" = brief ]; then
  # one batch of each kernel (table width 4): device signatures verify on
  # the CPU, CPU signatures verify on the device (one key: a table of the
  # key; a key per item: the window)
  # (the constant-time mode's table, width 8, is made on the host: the
  # device's table kernel, the same at every width, is run by sign)
  for op in sign sign-ct verify verify-keys; do
    ht=0
    [ "$op" = sign-ct ] && ht=1
    FS2_GPU_HOST_TABLE=$ht FASTSM2_GPU_TABLE_BITS=4 sim "brief-$op" 1 "$BUILD/sim/sim_rate" "$op" 64
  done
fi
if [ "$MODE" = full ] || [ "$MODE" = device ]; then
  # the GPU API test (bit for bit against the CPU library) on small batches
  FS2_GPU_TEST_SMALL=1 FASTSM2_GPU_TABLE_BITS=4 sim device 1 "$BUILD/tests/gpu/test_gpu_device"
  grep -q "test_gpu_device: [0-9]* passed, 0 failed" "$BUILD/sim/device/out.log" || {
    tail -5 "$BUILD/sim/device/out.log"
    exit 1
  }
fi
if [ "$MODE" = full ] || [ "$MODE" = rates ]; then
  # The timing model on FS2_GPU_SIM_SMS SMs (default 1), one batch as one
  # launch, N items per SM (FS2_GPU_SIM_ITEMS, else the default of each
  # operation below: the blocks the registers and shared memory let one
  # SM hold at sm_86, so that the launch fills it once). The device
  # builds the tables in the simulator's functional mode, or on the host
  # (FS2_GPU_HOST_TABLE=1) for a width above 8, and only the timed launch
  # runs in the timing model (sim_rate, FS2_SIM_TIMED_ONLY); the fast mode
  # at table width FS2_GPU_SIM_W (default 4), the constant-time mode at its
  # own (8); verify: one key, with a table of the key
  # (FASTSM2_GPU_KEY_TABLE_BITS, default: the width a 2^20 batch would get,
  # 13); verify-keys: a key per item (the window).
  # FS2_GPU_SIM_OPS chooses the operations (default all four).
  # FS2_GPU_SIM_MAX_CYCLES=C stops each timed launch after C cycles: the
  # rate is then the window's IPC over the thread instructions per item of
  # the functional brief run (brief-OP, run here first if missing).
  SMS=${FS2_GPU_SIM_SMS:-1}
  export FS2_GPU_SIM_SMS=$SMS
  W=${FS2_GPU_SIM_W:-4}
  host_table=0
  [ "$W" -gt 8 ] && host_table=1
  export FASTSM2_GPU_KEY_TABLE_BITS=${FASTSM2_GPU_KEY_TABLE_BITS:-13}
  for op in ${FS2_GPU_SIM_OPS:-sign sign-ct verify verify-keys}; do
    case $op in
      # 3 blocks of 128 threads, FS2G_SIGN_ITEMS = 3 items each: the SM full
      sign | sign-ct) dflt=${FS2_GPU_SIM_SIGN_ITEMS:-1152} ;;
      verify) dflt=${FS2_GPU_SIM_VERIFY_ITEMS:-384} ;;
      *) dflt=${FS2_GPU_SIM_VERIFY_KEYS_ITEMS:-192} ;;
    esac
    n=${FS2_GPU_SIM_ITEMS:-$dflt}
    n=$((n * SMS))
    flog=""
    if [ -n "${FS2_GPU_SIM_MAX_CYCLES:-}" ]; then
      if ! grep -q "table width $W" "$BUILD/sim/brief-$op/out.log" 2>/dev/null ||
         ! grep -q "results checked on the CPU" "$BUILD/sim/brief-$op/out.log"; then
        FS2_GPU_SIM_SMS="" FS2_GPU_HOST_TABLE=$host_table FASTSM2_GPU_TABLE_BITS=$W \
          sim "brief-$op" 1 "$BUILD/sim/sim_rate" "$op" 64
      fi
      flog=$BUILD/sim/brief-$op/out.log
      # stopped early, its results are incomplete (sim_rate reports them
      # wrong): only the statistics count
      FS2_SIM_TIMED_ONLY=1 FS2_GPU_HOST_TABLE=$host_table FASTSM2_GPU_TABLE_BITS=$W \
        sim "rate-$op-w$W" 0 "$BUILD/sim/sim_rate" "$op" "$n" >/dev/null || true
    else
      FS2_SIM_TIMED_ONLY=1 FS2_GPU_HOST_TABLE=$host_table FASTSM2_GPU_TABLE_BITS=$W \
        sim "rate-$op-w$W" 0 "$BUILD/sim/sim_rate" "$op" "$n"
    fi
    python3 tests/gpu/sim/sim_stats.py "$BUILD/sim/rate-$op-w$W/out.log" "$op" "$n" "$SMS" $flog
  done
fi
if { [ "$MODE" = rates ] || [ "$MODE" = full ]; } && [ -n "${FS2_GPU_SIM_MAX_CYCLES:-}" ]; then
  echo "test-gpu-sim: $MODE: the timed launches stopped after $FS2_GPU_SIM_MAX_CYCLES cycles, their results" \
    "not checked ($(($(date +%s) - start)) s)"
else
  echo "test-gpu-sim: $MODE: the PTX path passed bit for bit in GPGPU-Sim ($(($(date +%s) - start)) s)"
fi
