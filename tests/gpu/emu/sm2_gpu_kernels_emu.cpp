/* SPDX-License-Identifier: Apache-2.0 */
/* src/gpu/cuda/sm2_gpu_kernels.cu compiled by the host C++ compiler against the
 * emulated CUDA runtime beside this file (FASTSM2_CUDA=EMU, docs/GPU.md). */
#include "gpu/cuda/sm2_gpu_kernels.cu"
