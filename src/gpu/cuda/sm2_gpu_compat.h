/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What sm2_gpu_kernels.cu needs from its GPU runtime, whichever it is:
 *  - CUDA (nvcc): <cuda_runtime.h>, launches with <<<>>>;
 *  - HIP (hipcc, __HIP__): <hip/hip_runtime.h> and the CUDA names mapped to
 *    HIP's (sm2_gpu_hip.h);
 *  - the emulated runtime of the tests (FS2G_EMU: tests/gpu/emu/, kernels run
 *    as host loops), where a launch is a function call, not <<<>>>.
 * Every launch is FS2G_LAUNCH(kernel, grid, block, stream, args...), so the
 * one source builds in all three.
 */
#ifndef FS2_GPU_COMPAT_H
#define FS2_GPU_COMPAT_H

#if defined(FS2G_EMU)
#include <cuda_runtime.h> /* tests/gpu/emu/cuda_runtime.h */
#define FS2G_LAUNCH(kernel, grid, block, stream, ...) FS2G_EMU_LAUNCH(kernel, grid, block, stream, __VA_ARGS__)
#elif defined(__HIP__)
#include "sm2_gpu_hip.h"
#define FS2G_LAUNCH(kernel, grid, block, stream, ...) kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__)
#else
#include <cuda_runtime.h>
#define FS2G_LAUNCH(kernel, grid, block, stream, ...) kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__)
#endif

#endif
