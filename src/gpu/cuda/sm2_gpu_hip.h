/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA runtime names that sm2_gpu_kernels.cu uses, mapped to HIP's,
 * for a build with hipcc (ROCm; AMD and Hygon DCU GPUs; docs/GPU.md, "HIP").
 * Each HIP call takes the same arguments as its CUDA namesake. The device
 * side needs no names: __global__, __launch_bounds__, uint4, __ldg and
 * __byte_perm are HIP's too, and the inline PTX of sm2_gpu_field.cuh sits
 * behind __CUDA_ARCH__, which hipcc does not define (portable C++ there).
 */
#ifndef FS2_GPU_HIP_H
#define FS2_GPU_HIP_H

#include <hip/hip_runtime.h>

#define cudaError_t               hipError_t
#define cudaSuccess               hipSuccess
#define cudaErrorMemoryAllocation hipErrorOutOfMemory
#define cudaGetErrorString        hipGetErrorString
#define cudaGetLastError          hipGetLastError

#define cudaDeviceProp          hipDeviceProp_t
#define cudaGetDeviceCount      hipGetDeviceCount
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaSetDevice           hipSetDevice
#define cudaDeviceSynchronize   hipDeviceSynchronize

#define cudaMalloc             hipMalloc
#define cudaFree               hipFree
#define cudaMemset             hipMemset
#define cudaMemcpy             hipMemcpy
#define cudaMemcpyAsync        hipMemcpyAsync
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost

#define cudaStream_t              hipStream_t
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamNonBlocking     hipStreamNonBlocking
#define cudaStreamSynchronize     hipStreamSynchronize
#define cudaStreamDestroy         hipStreamDestroy

#define cudaEvent_t          hipEvent_t
#define cudaEventCreate      hipEventCreate
#define cudaEventRecord      hipEventRecord
#define cudaEventElapsedTime hipEventElapsedTime
#define cudaEventDestroy     hipEventDestroy

#endif
