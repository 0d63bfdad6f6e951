/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a CUDA 13 program calls that GPGPU-Sim's libcudart (built against
 * the CUDA 11.8 headers) lacks, for tests/harness/test-gpu-sim.sh only:
 *  - cudaGetDeviceProperties_v2 (CUDA 12+ headers rename
 *    cudaGetDeviceProperties): the simulator's answer in the CUDA 11
 *    layout, of which the device name (the first 256 bytes, the same in
 *    both layouts) is copied; the caller reads nothing else;
 *  - __cudaInitModule (the host stub's hook for managed variables, which
 *    fastsm2 has none of): nothing to do.
 * The programs are compiled with -D__NV_LEGACY_LAUNCH so that their
 * launches go through cudaLaunchKernel, which the simulator has.
 */
#include <string.h>

typedef int fs2sim_err;
extern fs2sim_err cudaGetDeviceProperties(void *prop, int device);

fs2sim_err cudaGetDeviceProperties_v2(void *prop, int device);
fs2sim_err cudaGetDeviceProperties_v2(void *prop, int device)
{
    static unsigned char p11[16384]; /* the CUDA 11 struct is under 1 KiB */
    fs2sim_err e = cudaGetDeviceProperties(p11, device);
    if (e == 0)
        memcpy(prop, p11, 256);
    return e;
}

char __cudaInitModule(void **handle);
char __cudaInitModule(void **handle)
{
    (void)handle;
    return 0;
}
