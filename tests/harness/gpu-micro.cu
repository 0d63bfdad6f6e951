// SPDX-License-Identifier: Apache-2.0
/*
 * Throughput microbenchmarks for a device (tests/harness/gpu-device-check.sh,
 * docs/GPU.md "Running the device checks"): what the SASS model and the
 * simulator assume, measured. Each kernel runs a fixed instruction mix in
 * a loop on every thread of a full grid and reports instructions per clock
 * per SM (SM clock from cudaDevAttrClockRate, reported beside the one
 * nvidia-smi gives):
 *   imad_wide  rows of mad.lo.cc / madc.hi.cc pairs on aligned register
 *              pairs, as the field product makes them (ptxas:
 *              IMAD.WIDE.U32 / IMAD.WIDE.U32.X; counted as one per pair);
 *   iadd3x     add.cc / addc.cc chains (IADD3 / IADD3.X, the carry
 *              chains of the reduction and of add/sub);
 *   fp_mul     the library's field product (fs2g_fp_mul) in dependent
 *              chains: products per second and per SM clock;
 *   shfl_ct    __shfl_sync with the source lane from data (a random lane
 *              per thread and step, as the constant-time selection does)
 *              against a fixed lane: the ratio of their times (1.00 means
 *              the lane pattern does not change the time).
 * One JSON object per line on stdout.
 * Usage: gpu-micro [seconds-per-kernel] (default 0.5)
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "sm2_gpu_field.cuh"

#define ITER   4096
#define CHAINS 8

/* rows of a field product: acc[0 .. 2 CHAINS) += a * b in one carry chain,
 * each product's halves on an aligned register pair (fs2g_mul_row's form) */
static __global__ void k_imad_wide(uint32_t *out, uint32_t seed, int iters)
{
    uint32_t a[CHAINS], acc[2 * CHAINS + 1], b = seed ^ threadIdx.x;
    for (int c = 0; c < CHAINS; c++)
        a[c] = seed * (threadIdx.x + 3 * c + 1);
    for (int c = 0; c < 2 * CHAINS + 1; c++)
        acc[c] = c;
    for (int i = 0; i < iters; i++) {
        uint32_t cf = 0;
        acc[0] = fs2g_mad_lo_cc(a[0], b, acc[0], cf);
        acc[1] = fs2g_madc_hi_cc(a[0], b, acc[1], cf);
#pragma unroll
        for (int c = 1; c < CHAINS; c++) {
            acc[2 * c] = fs2g_madc_lo_cc(a[c], b, acc[2 * c], cf);
            acc[2 * c + 1] = fs2g_madc_hi_cc(a[c], b, acc[2 * c + 1], cf);
        }
        acc[2 * CHAINS] = fs2g_addc(acc[2 * CHAINS], 0, cf);
        b ^= acc[1] ^ acc[2 * CHAINS];
    }
    uint32_t r = 0;
    for (int c = 0; c < 2 * CHAINS + 1; c++)
        r ^= acc[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

static __global__ void k_iadd3x(uint32_t *out, uint32_t seed, int iters)
{
    uint32_t x[CHAINS];
    for (int c = 0; c < CHAINS; c++)
        x[c] = seed * (threadIdx.x + c + 1);
    for (int i = 0; i < iters; i++) {
        /* one carry chain across the CHAINS words */
        asm volatile("add.cc.u32 %0, %0, %8;\n\t"
                     "addc.cc.u32 %1, %1, %0;\n\t"
                     "addc.cc.u32 %2, %2, %1;\n\t"
                     "addc.cc.u32 %3, %3, %2;\n\t"
                     "addc.cc.u32 %4, %4, %3;\n\t"
                     "addc.cc.u32 %5, %5, %4;\n\t"
                     "addc.cc.u32 %6, %6, %5;\n\t"
                     "addc.u32 %7, %7, %6;"
                     : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7])
                     : "r"(seed));
    }
    uint32_t r = 0;
    for (int c = 0; c < CHAINS; c++)
        r ^= x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

static __global__ void k_fp_mul(uint32_t *out, uint32_t seed, int iters)
{
    uint32_t a[8], b[8];
    for (int i = 0; i < 8; i++) {
        a[i] = seed * (threadIdx.x + i + 1);
        b[i] = seed ^ (blockIdx.x * 8 + i);
    }
    for (int i = 0; i < iters; i++) {
        fs2g_fp_mul(a, a, b);
        fs2g_fp_mul(b, b, a);
    }
    uint32_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= a[i] ^ b[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

/* random: the source lane comes from a per-thread generator; fixed: lane
 * 0; the same instructions otherwise */
static __global__ void k_shfl(uint32_t *out, uint32_t seed, int iters, int random)
{
    uint32_t v[16], x = seed * (threadIdx.x + 1) | 1u, acc = 0;
    for (int j = 0; j < 16; j++)
        v[j] = x * (j + 1);
    for (int i = 0; i < iters; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        const int lane = (int)(x & 31u) & -random;
#pragma unroll
        for (int j = 0; j < 16; j++)
            acc += __shfl_sync(0xFFFFFFFFu, v[j], lane);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

static int check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "gpu-micro: %s: %s\n", what, cudaGetErrorString(e));
        return 0;
    }
    return 1;
}

/* seconds of one launch of `launch(iters)` after a warm-up */
template <typename F> static double timed(F launch, int iters)
{
    cudaEvent_t a, b;
    float ms = 0;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    launch(1);
    cudaEventRecord(a);
    launch(iters);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms / 1e3;
}

int main(int argc, char **argv)
{
    double target = argc > 1 ? atof(argv[1]) : 0.5;
    cudaDeviceProp prop;
    int clock_khz = 0;
    if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties") ||
        !check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "cudaDeviceGetAttribute"))
        return 1;
    const int block = 256, grid = prop.multiProcessorCount * 8;
    const double threads = (double)block * grid, clock_hz = clock_khz * 1e3, sms = prop.multiProcessorCount;
    uint32_t *out;
    if (!check(cudaMalloc(&out, sizeof(uint32_t) * block * grid), "cudaMalloc"))
        return 1;
    printf("{\"device\": \"%s\", \"sms\": %d, \"clock_mhz\": %.0f, \"cc\": \"%d.%d\"}\n", prop.name,
           prop.multiProcessorCount, clock_hz / 1e6, prop.major, prop.minor);
    struct {
        const char *name;
        double ops_per_iter; /* per thread */
        int kind;
    } runs[] = {{"imad_wide", CHAINS, 0}, {"iadd3x", 8, 1}, {"fp_mul", 2, 2}};
    for (auto &r : runs) {
        auto launch = [&](int it) {
            if (r.kind == 0)
                k_imad_wide<<<grid, block>>>(out, 12345u, it);
            else if (r.kind == 1)
                k_iadd3x<<<grid, block>>>(out, 12345u, it);
            else
                k_fp_mul<<<grid, block>>>(out, 12345u, it);
        };
        int it = r.kind == 2 ? 64 : ITER;
        double t = timed(launch, it);
        while (t < target / 4 && it < (1 << 26)) {
            it *= 4;
            t = timed(launch, it);
        }
        if (!check(cudaGetLastError(), r.name))
            return 1;
        double ops = r.ops_per_iter * it * threads;
        /* imad_wide counts IMAD.WIDE instructions (one per mad pair),
         * iadd3x IADD3(.X) instructions, fp_mul products */
        printf("{\"kernel\": \"%s\", \"per_s\": %.4g, \"per_sm_per_clock\": %.3f, \"seconds\": %.3f}\n", r.name,
               ops / t, ops / t / sms / clock_hz, t);
    }
    double ts[2];
    for (int random = 0; random < 2; random++) {
        auto launch = [&](int it) { k_shfl<<<grid, block>>>(out, 777u, it, random); };
        int it = ITER;
        double t = timed(launch, it);
        while (t < target / 4 && it < (1 << 24)) {
            it *= 4;
            t = timed(launch, it);
        }
        ts[random] = t / it;
        if (!check(cudaGetLastError(), "shfl"))
            return 1;
        printf("{\"kernel\": \"shfl_%s\", \"shfl_per_sm_per_clock\": %.3f}\n", random ? "random_lane" : "fixed_lane",
               16.0 * it * threads / t / sms / clock_hz);
    }
    printf("{\"kernel\": \"shfl_ct\", \"random_over_fixed_time\": %.4f}\n", ts[1] / ts[0]);
    cudaFree(out);
    return 0;
}
