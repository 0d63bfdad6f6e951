# SPDX-License-Identifier: Apache-2.0
# Sourced by tests/harness/test-gpu.sh and tests/harness/gpu-device-check.sh: find a CUDA
# compiler, or install one from PyPI into the project-local, git-ignored
# folder .cuda/ (the nvidia-cuda-nvcc, -crt, -runtime and nvidia-nvvm
# wheels of CUDA 13.0, and compute-sanitizer). Sets FS2_NVCC (the nvcc path) and puts its folder on
# PATH; returns non-zero, with a message, when there is none and
# FS2_CUDA_INSTALL=0 forbids installing.
#
# Order: $CUDACXX, nvcc on PATH, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc,
# .cuda/ (installing it when missing).

FS2_CUDA_WHEELS="nvidia-cuda-nvcc==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-cuda-runtime==13.0.96 nvidia-nvvm==13.0.88 nvidia-cuda-sanitizer-api==13.0.85 nvidia-cuda-cuobjdump==13.2.51"
FS2_CUDA_SASS_WHEELS="nvidia-cuda-cuobjdump==13.2.51 nvidia-cuda-nvdisasm==13.2.51"

fs2_cuda_root() { cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd; }

fs2_find_nvcc() {
  local root local_nvcc c
  root=$(fs2_cuda_root)
  local_nvcc="$root/.cuda/nvidia/cu13/bin/nvcc"
  for c in "${CUDACXX:-}" "$(command -v nvcc 2>/dev/null || true)" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" \
           /usr/local/cuda/bin/nvcc "$local_nvcc"; do
    if [ -n "$c" ] && [ -x "$c" ]; then
      FS2_NVCC=$c
      return 0
    fi
  done
  if [ "${FS2_CUDA_INSTALL:-1}" = 0 ]; then
    echo "cuda-env: no nvcc found (CUDACXX, PATH, CUDA_HOME, /usr/local/cuda, .cuda/)" >&2
    return 1
  fi
  local py rc
  py=$(command -v python3 || true)
  if [ -z "$py" ]; then
    echo "cuda-env: python3 is needed to install nvcc" >&2
    return 1
  fi
  # one install at a time (make test-all runs a stage in the background):
  # the others wait for it and take its result
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$root/.cuda.lock"
    flock 9
    if [ -x "$local_nvcc" ]; then
      exec 9>&-
      FS2_NVCC=$local_nvcc
      return 0
    fi
  fi
  fs2_install_nvcc "$py" "$root" "$local_nvcc"
  rc=$?
  exec 9>&-
  return $rc
}

fs2_install_nvcc() { # PYTHON ROOT NVCC: the wheels into ROOT/.cuda
  local py=$1 root=$2 local_nvcc=$3
  echo "cuda-env: installing the CUDA compiler from PyPI into .cuda/ ($FS2_CUDA_WHEELS)" >&2
  rm -rf "$root/.cuda.tmp"
  # shellcheck disable=SC2086
  if ! "$py" -m pip install --no-input --disable-pip-version-check -q --target "$root/.cuda.tmp" $FS2_CUDA_WHEELS; then
    echo "cuda-env: pip install failed" >&2
    rm -rf "$root/.cuda.tmp"
    return 1
  fi
  # nvcc.profile looks for the libraries in lib64/, and CMake's
  # FindCUDAToolkit for an unversioned libcudart.so
  ln -sfn lib "$root/.cuda.tmp/nvidia/cu13/lib64"
  ln -sfn libcudart.so.13 "$root/.cuda.tmp/nvidia/cu13/lib/libcudart.so"
  rm -rf "$root/.cuda"
  mv "$root/.cuda.tmp" "$root/.cuda"
  if [ ! -x "$local_nvcc" ]; then
    echo "cuda-env: the wheels did not provide $local_nvcc" >&2
    return 1
  fi
  FS2_NVCC=$local_nvcc
}

fs2_cuda_env() {
  fs2_find_nvcc || return 1
  export FS2_NVCC
  PATH="$(dirname "$FS2_NVCC"):$PATH"
  export PATH
  # nvcc needs a host C++ compiler
  if ! command -v g++ >/dev/null 2>&1 && ! command -v c++ >/dev/null 2>&1; then
    echo "cuda-env: installing g++ (nvcc's host compiler)" >&2
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends g++ || return 1
  fi
  return 0
}

# cuobjdump and nvdisasm (tests/harness/sass-count.sh) beside nvcc: installed from
# PyPI into .cuda/ when missing there (an nvcc found elsewhere, e.g. a CUDA
# toolkit, comes with both).
fs2_cuda_sass_tools() {
  local bin root py
  bin=$(dirname "$FS2_NVCC")
  if [ -x "$bin/cuobjdump" ] && [ -x "$bin/nvdisasm" ]; then
    return 0
  fi
  root=$(fs2_cuda_root)
  py=$(command -v python3 || true)
  if [ -z "$py" ] || [ "${FS2_CUDA_INSTALL:-1}" = 0 ]; then
    echo "cuda-env: cuobjdump/nvdisasm missing beside $FS2_NVCC" >&2
    return 1
  fi
  echo "cuda-env: installing cuobjdump and nvdisasm from PyPI into .cuda/" >&2
  rm -rf "$root/.cuda.sass.tmp"
  # shellcheck disable=SC2086
  "$py" -m pip install --no-input --disable-pip-version-check -q --target "$root/.cuda.sass.tmp" \
    $FS2_CUDA_SASS_WHEELS || return 1
  mkdir -p "$root/.cuda/nvidia/cu13/bin"
  cp "$root/.cuda.sass.tmp/nvidia/cu13/bin/cuobjdump" "$root/.cuda.sass.tmp/nvidia/cu13/bin/nvdisasm" \
    "$root/.cuda/nvidia/cu13/bin/"
  rm -rf "$root/.cuda.sass.tmp"
  PATH="$root/.cuda/nvidia/cu13/bin:$PATH"
  export PATH
}
