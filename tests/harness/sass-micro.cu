/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SASS cost of each unit of the cost model (tests/harness/sass-count.sh,
 * docs/GPU.md "SASS count"), inlined as in the library's kernels: for every
 * unit U a kernel k_U that reads U's N input words from global memory,
 * runs U once and stores its M output words, and a kernel io_U that reads
 * the same N words and stores M words folded from them by XOR (N - M
 * LOP3 when N > M). cost(U) = SASS(k_U) - SASS(io_U) + max(N - M, 0).
 * Compiled by tests/harness/sass-count.sh only (nvcc -cubin), never linked.
 */
#include "sm2_gpu_ops.cuh"

#define IN(n)                        \
    uint32_t in[n];                  \
    for (int i_ = 0; i_ < (n); i_++) \
        in[i_] = src[(size_t)blockIdx.x * (n) + i_];
#define OUT(m, v)                    \
    for (int i_ = 0; i_ < (m); i_++) \
        dst[(size_t)blockIdx.x * (m) + i_] = (v)[i_];
#define IO_KERNEL(name, n, m)                                     \
    __global__ void io_##name(uint32_t *dst, const uint32_t *src) \
    {                                                             \
        IN(n)                                                     \
        uint32_t o[m];                                            \
        for (int i_ = 0; i_ < (m); i_++)                          \
            o[i_] = 0;                                            \
        for (int i_ = 0; i_ < (n); i_++)                          \
            o[i_ % (m)] ^= in[i_];                                \
        OUT(m, o)                                                 \
    }

static __device__ void to_jac(fs2g_jac *p, const uint32_t *w)
{
    for (int i = 0; i < 8; i++) {
        p->x[i] = w[i];
        p->y[i] = w[8 + i];
        p->z[i] = w[16 + i];
    }
}
static __device__ void from_jac(uint32_t *w, const fs2g_jac *p)
{
    for (int i = 0; i < 8; i++) {
        w[i] = p->x[i];
        w[8 + i] = p->y[i];
        w[16 + i] = p->z[i];
    }
}

__global__ void k_fp_mul(uint32_t *dst, const uint32_t *src)
{
    IN(16)
    uint32_t r[8];
    fs2g_fp_mul(r, in, in + 8);
    OUT(8, r)
}
IO_KERNEL(fp_mul, 16, 8)

__global__ void k_fp_sqr(uint32_t *dst, const uint32_t *src)
{
    IN(8)
    uint32_t r[8];
    fs2g_fp_sqr(r, in);
    OUT(8, r)
}
IO_KERNEL(fp_sqr, 8, 8)

__global__ void k_fn_mont_mul(uint32_t *dst, const uint32_t *src)
{
    IN(16)
    uint32_t r[8];
    fs2g_fn_mont_mul(r, in, in + 8);
    OUT(8, r)
}
IO_KERNEL(fn_mont_mul, 16, 8)

__global__ void k_jac_dbl(uint32_t *dst, const uint32_t *src)
{
    IN(24)
    fs2g_jac a, r;
    uint32_t o[24];
    to_jac(&a, in);
    fs2g_jac_dbl(&r, &a);
    from_jac(o, &r);
    OUT(24, o)
}
IO_KERNEL(jac_dbl, 24, 24)

__global__ void k_jac_add_aff(uint32_t *dst, const uint32_t *src)
{
    IN(40)
    fs2g_jac a, r;
    fs2g_aff b;
    uint32_t o[24];
    to_jac(&a, in);
    for (int i = 0; i < 8; i++) {
        b.x[i] = in[24 + i];
        b.y[i] = in[32 + i];
    }
    fs2g_jac_add_aff(&r, &a, &b);
    from_jac(o, &r);
    OUT(24, o)
}
IO_KERNEL(jac_add_aff, 40, 24)

/* includes the doubling of its a = b case: the script subtracts jac_dbl */
__global__ void k_jac_add_var(uint32_t *dst, const uint32_t *src)
{
    IN(48)
    fs2g_jac a, b, r;
    uint32_t o[24];
    to_jac(&a, in);
    to_jac(&b, in + 24);
    fs2g_jac_add_var(&r, &a, &b);
    from_jac(o, &r);
    OUT(24, o)
}
IO_KERNEL(jac_add_var, 48, 24)

__global__ void k_select_fast(uint32_t *dst, const uint32_t *src, const uint32_t *seg)
{
    IN(1)
    fs2g_aff e;
    uint32_t o[16];
    fs2g_table_select_fast(&e, seg, in[0]);
    for (int i = 0; i < 8; i++) {
        o[i] = e.x[i];
        o[8 + i] = e.y[i];
    }
    OUT(16, o)
}
__global__ void io_select_fast(uint32_t *dst, const uint32_t *src, const uint32_t *seg)
{
    IN(1)
    uint32_t o[16];
    for (int i = 0; i < 16; i++)
        o[i] = in[0];
    (void)seg;
    OUT(16, o)
}

__global__ void k_select_ct(uint32_t *dst, const uint32_t *src, const uint32_t *seg)
{
    IN(1)
    fs2g_aff e;
    uint32_t o[16];
    for (int i = 0; i < 8; i++)
        e.x[i] = e.y[i] = 0;
    fs2g_table_select_ct(&e, seg, in[0]);
    for (int i = 0; i < 8; i++) {
        o[i] = e.x[i];
        o[8 + i] = e.y[i];
    }
    OUT(16, o)
}
__global__ void io_select_ct(uint32_t *dst, const uint32_t *src, const uint32_t *seg)
{
    IN(1)
    uint32_t o[16];
    for (int i = 0; i < 16; i++)
        o[i] = in[0];
    (void)seg;
    OUT(16, o)
}

/* y of an entry negated by a mask: entry (16 words) and the mask in, 16 out */
__global__ void k_aff_cneg(uint32_t *dst, const uint32_t *src)
{
    IN(17)
    fs2g_aff e;
    for (int i = 0; i < 8; i++) {
        e.x[i] = in[i];
        e.y[i] = in[8 + i];
    }
    fs2g_aff_cneg(&e, in[16]);
    uint32_t o[16];
    for (int i = 0; i < 8; i++) {
        o[i] = e.x[i];
        o[8 + i] = e.y[i];
    }
    OUT(16, o)
}
IO_KERNEL(aff_cneg, 17, 16)

__global__ void k_sm3_compress(uint32_t *dst, const uint32_t *src)
{
    IN(24)
    uint32_t st[8];
    for (int i = 0; i < 8; i++)
        st[i] = in[i];
    fs2g_sm3_compress(st, in + 8);
    OUT(8, st)
}
IO_KERNEL(sm3_compress, 24, 8)

/* one group of the inversion: z, f, g, d, e (37 words) in and out */
__global__ void k_fp_inv_group(uint32_t *dst, const uint32_t *src)
{
    IN(37)
    int32_t z = (int32_t)in[0], f[9], g[9], d[9], e[9];
    for (int i = 0; i < 9; i++) {
        f[i] = (int32_t)in[1 + i];
        g[i] = (int32_t)in[10 + i];
        d[i] = (int32_t)in[19 + i];
        e[i] = (int32_t)in[28 + i];
    }
    fs2g_fp_inv_group(&z, f, g, d, e);
    uint32_t o[37];
    o[0] = (uint32_t)z;
    for (int i = 0; i < 9; i++) {
        o[1 + i] = (uint32_t)f[i];
        o[10 + i] = (uint32_t)g[i];
        o[19 + i] = (uint32_t)d[i];
        o[28 + i] = (uint32_t)e[i];
    }
    OUT(37, o)
}
IO_KERNEL(fp_inv_group, 37, 37)

/* an entry of verification's window table, from shared memory interleaved
 * by thread (stride 64) as fs2g_k_verify keeps it */
__global__ void k_vtab_load(uint32_t *dst, const uint32_t *src)
{
    __shared__ uint32_t tab[FS2G_VAR_ENTRIES * 16 * 64];
    IN(1)
    for (int i = 0; i < FS2G_VAR_ENTRIES * 16; i++)
        tab[i * 64 + threadIdx.x] = src[i];
    __syncthreads();
    fs2g_aff e;
    fs2g_vtab_load(&e, tab + threadIdx.x, 64, in[0]);
    uint32_t o[16];
    for (int i = 0; i < 8; i++) {
        o[i] = e.x[i];
        o[8 + i] = e.y[i];
    }
    OUT(16, o)
}
__global__ void io_vtab_load(uint32_t *dst, const uint32_t *src)
{
    __shared__ uint32_t tab[FS2G_VAR_ENTRIES * 16 * 64];
    IN(1)
    for (int i = 0; i < FS2G_VAR_ENTRIES * 16; i++)
        tab[i * 64 + threadIdx.x] = src[i];
    __syncthreads();
    uint32_t o[16];
    for (int i = 0; i < 16; i++)
        o[i] = in[0] ^ tab[threadIdx.x];
    OUT(16, o)
}

__global__ void k_jac_add(uint32_t *dst, const uint32_t *src)
{
    IN(48)
    fs2g_jac a, b, r;
    uint32_t o[24];
    to_jac(&a, in);
    to_jac(&b, in + 24);
    fs2g_jac_add(&r, &a, &b);
    from_jac(o, &r);
    OUT(24, o)
}
IO_KERNEL(jac_add, 48, 24)
