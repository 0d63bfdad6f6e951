/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CUDA kernels and runtime glue of the GPU backend (GB/T 32918.2 clauses 6.1
 * and 7.1 and GB/T 32918.1 clause 6.1 in batches, one thread per
 * operation). The arithmetic is in the .cuh headers beside this file; this
 * file moves bytes: it builds the fixed-base table on the device, streams
 * batches through in chunks (copies of one chunk overlap the kernel of the
 * previous one on another stream), and checks every CUDA call, turning a
 * failure into a FASTSM2_* code and a message (fs2_cuda_error).
 */
#include "sm2_gpu_compat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsm2.h"
#include "sm2_gpu_ops.cuh"
#include "gpu/gpu_cuda.h"

/* Threads per block of the sign, keygen, table and one-key verify kernels,
 * and the blocks per SM asked of ptxas (__launch_bounds__'s second argument;
 * 0: none, ptxas's own register target): build options for measuring
 * (tests/harness/gpu-device-check.sh builds variants; docs/GPU.md
 * "Occupancy"). */
#ifndef FS2G_BLOCK
#define FS2G_BLOCK 128
#endif
#ifndef FS2G_MIN_BLOCKS
#define FS2G_MIN_BLOCKS 0
#endif
#if FS2G_MIN_BLOCKS > 0
#define FS2G_BOUNDS(threads) __launch_bounds__(threads, FS2G_MIN_BLOCKS)
#else
#define FS2G_BOUNDS(threads) __launch_bounds__(threads)
#endif
/* The sign kernel's blocks per SM asked of ptxas: 3 (at most 168
 * registers at sm_86, three 128-thread blocks per SM) unless
 * FS2G_MIN_BLOCKS says otherwise; 0: ptxas's own target (179 registers at
 * sm_86 for two items a thread with the specialised first and last
 * additions: two blocks per SM; docs/GPU.md). */
#ifndef FS2G_SIGN_MIN_BLOCKS
#if FS2G_MIN_BLOCKS > 0
#define FS2G_SIGN_MIN_BLOCKS FS2G_MIN_BLOCKS
#else
#define FS2G_SIGN_MIN_BLOCKS 3
#endif
#endif
#if FS2G_SIGN_MIN_BLOCKS > 0
#define FS2G_SIGN_BOUNDS(threads) __launch_bounds__(threads, FS2G_SIGN_MIN_BLOCKS)
#else
#define FS2G_SIGN_BOUNDS(threads) __launch_bounds__(threads)
#endif
#define FS2G_STREAMS 3
/* Items per chunk: a build option (FASTSM2_GPU_CHUNK), small in the
 * emulator's tests so that a small batch spans several chunks. */
#ifndef FS2G_CHUNK_ITEMS
#define FS2G_CHUNK_ITEMS (1u << 20)
#endif
#define FS2G_CHUNK ((size_t)(FS2G_CHUNK_ITEMS))

/* ---- kernels ------------------------------------------------------------- */

__device__ __forceinline__ uint32_t fs2g_bswap(uint32_t x)
{
    return __byte_perm(x, 0, 0x0123);
}

/* 32 big-endian bytes at a 16-byte aligned address <-> words. */
__device__ __forceinline__ void fs2g_load_be_dev(uint32_t r[8], const unsigned char *p)
{
    const uint4 *q = (const uint4 *)p;
    uint4 a = q[0], b = q[1];
    r[7] = fs2g_bswap(a.x), r[6] = fs2g_bswap(a.y), r[5] = fs2g_bswap(a.z), r[4] = fs2g_bswap(a.w);
    r[3] = fs2g_bswap(b.x), r[2] = fs2g_bswap(b.y), r[1] = fs2g_bswap(b.z), r[0] = fs2g_bswap(b.w);
}

__device__ __forceinline__ void fs2g_store_be_dev(unsigned char *p, const uint32_t a[8])
{
    uint4 *q = (uint4 *)p;
    q[0] = make_uint4(fs2g_bswap(a[7]), fs2g_bswap(a[6]), fs2g_bswap(a[5]), fs2g_bswap(a[4]));
    q[1] = make_uint4(fs2g_bswap(a[3]), fs2g_bswap(a[2]), fs2g_bswap(a[1]), fs2g_bswap(a[0]));
}

/* The probe build (FS2G_SASS_CT_PROBE, sass-count.sh's constant-time check,
 * compiled with -cubin) has the probe kernel alone: a quarter of the
 * compile time of the whole file. */
#if !defined(FS2G_SASS_CT_PROBE)
static __global__ void __launch_bounds__(FS2G_BLOCK)
    fs2g_k_table(uint32_t *table, const uint32_t *bases, int w, uint32_t nent, size_t total)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total)
        return;
    size_t s = idx / nent;
    uint32_t i = (uint32_t)(idx % nent);
    fs2g_aff b, e;
    for (int j = 0; j < 8; j++) {
        b.x[j] = bases[s * 16 + j];
        b.y[j] = bases[s * 16 + 8 + j];
    }
    fs2g_table_entry(&e, &b, i);
    uint32_t *dst = table + idx * FS2G_ENTRY_WORDS;
    for (int j = 0; j < 8; j++) {
        dst[j] = e.x[j];
        dst[8 + j] = e.y[j];
    }
    (void)w;
}

struct fs2g_sign_params {
    const unsigned char *digests; /* chunk-relative: item i at digests + 32 i */
    const unsigned char *nonces;  /* NULL: derive */
    const uint32_t *keys;         /* per-item keys (16 words) or NULL */
    unsigned char *sigs;
    unsigned int *nbad;
    const uint32_t *table;
    uint32_t key[16];   /* the one key when keys is NULL */
    uint32_t prefix[8]; /* SM3 state after seed || d for the one key */
    uint32_t seed[8];
    unsigned long long first; /* batch index of the chunk's item 0 */
    unsigned long long n;
    int w, mode;
#if defined(FS2G_EMU)
    unsigned long long reject; /* tests: item reject - 1 is rejected (0: none) */
#endif
};

/* Item i's key (d, (1+d)^-1 R) and nonce prefix state. */
__device__ __forceinline__ void fs2g_sign_key(uint32_t d[8], uint32_t dinv[8], uint32_t pre[8],
                                              const fs2g_sign_params &p, size_t i)
{
    if (p.keys) {
        const uint4 *q = (const uint4 *)(p.keys + 16 * i);
        uint4 a = q[0], b = q[1], c = q[2], f = q[3];
        d[0] = a.x, d[1] = a.y, d[2] = a.z, d[3] = a.w, d[4] = b.x, d[5] = b.y, d[6] = b.z, d[7] = b.w;
        dinv[0] = c.x, dinv[1] = c.y, dinv[2] = c.z, dinv[3] = c.w;
        dinv[4] = f.x, dinv[5] = f.y, dinv[6] = f.z, dinv[7] = f.w;
        if (!p.nonces)
            fs2g_nonce_prefix(pre, p.seed, d);
    } else {
        for (int j = 0; j < 8; j++) {
            d[j] = p.key[j];
            dinv[j] = p.key[8 + j];
            pre[j] = p.prefix[j];
        }
    }
}

/* FS2G_SIGN_ITEMS items per thread (items t * FS2G_SIGN_ITEMS + j): kG for
 * each, then one inversion for all (fs2g_batch_x), then A5-A6. Which items
 * exist depends only on n (public). Every thread runs the multiplications,
 * a missing item with k = 1 (the constant-time mode's table reads need
 * the whole warp), and its result is not stored. */
static __global__ void FS2G_SIGN_BOUNDS(FS2G_BLOCK) fs2g_k_sign(const fs2g_sign_params p)
{
    size_t base = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * FS2G_SIGN_ITEMS;
    uint32_t X[FS2G_SIGN_ITEMS][8], Z[FS2G_SIGN_ITEMS][8], K[FS2G_SIGN_ITEMS][8], x1[FS2G_SIGN_ITEMS][8];
    uint32_t zero[FS2G_SIGN_ITEMS];
    FS2G_UNROLL
    for (int j = 0; j < FS2G_SIGN_ITEMS; j++) {
        size_t i = base + j;
        if (i < p.n) {
            uint32_t e[8], d[8], dinv[8], pre[8];
            fs2g_load_be_dev(e, p.digests + 32 * i);
            fs2g_sign_key(d, dinv, pre, p, i);
            if (p.nonces)
                fs2g_load_be_dev(K[j], p.nonces + 32 * i);
            else
                fs2g_nonce_derive(K[j], pre, e, p.first + i);
        } else {
            for (int t = 0; t < 8; t++)
                K[j][t] = t == 0;
        }
        fs2g_jac q;
        fs2g_ecmult_gen(&q, K[j], p.table, p.w, p.mode, 0);
        fs2g_copy(X[j], q.x);
        fs2g_copy(Z[j], q.z);
    }
    fs2g_batch_x(x1, zero, X, Z);
    FS2G_UNROLL
    for (int j = 0; j < FS2G_SIGN_ITEMS; j++) {
        size_t i = base + j;
        if (i >= p.n)
            break;
        uint32_t e[8], dinv[8], r[8], s[8];
        fs2g_load_be_dev(e, p.digests + 32 * i);
        for (int t = 0; t < 8; t++)
            dinv[t] = p.keys ? p.keys[16 * i + 8 + t] : p.key[8 + t];
        /* Z = 0: kG's exceptional case (sm2_gpu_point.cuh), signed on the CPU */
        uint32_t ok = fs2g_sign_finish(r, s, e, K[j], dinv, x1[j]) & ~zero[j];
#if defined(FS2G_EMU)
        if (p.first + i + 1 == p.reject) /* tests: the CPU re-sign path */
            ok = 0;
#endif
        /* ok is public: a rejected nonce is reported and never used */
        if (!ok) {
            for (int t = 0; t < 8; t++)
                r[t] = s[t] = 0;
            atomicAdd(p.nbad, 1u);
        }
        fs2g_store_be_dev(p.sigs + 64 * i, r);
        fs2g_store_be_dev(p.sigs + 64 * i + 32, s);
    }
}

struct fs2g_verify_params {
    const unsigned char *digests, *sigs;
    const uint32_t *pubs; /* per-item public keys or NULL */
    int *results;
    const uint32_t *table;
    const uint32_t *ktable; /* fs2g_k_verify_key: the one key's table */
    uint32_t pub[16];
    unsigned long long n;
    int w, kw;
};

/* Item i's digest, signature and public key. */
__device__ __forceinline__ void fs2g_verify_load(uint32_t e[8], uint32_t r[8], uint32_t s[8], fs2g_aff *pk,
                                                 const fs2g_verify_params &p, size_t i)
{
    fs2g_load_be_dev(e, p.digests + 32 * i);
    fs2g_load_be_dev(r, p.sigs + 64 * i);
    fs2g_load_be_dev(s, p.sigs + 64 * i + 32);
    const uint32_t *src = p.pubs ? p.pubs + 16 * i : p.pub;
    for (int j = 0; j < 8; j++) {
        pk->x[j] = src[j];
        pk->y[j] = src[8 + j];
    }
}

/* Threads per block of fs2g_k_verify: the block's window tables live in
 * shared memory, FS2G_VAR_ENTRIES x 64 bytes per thread (32 KiB for 64
 * threads at width 4). */
#define FS2G_VBLOCK 64

/* Verification with tP by the window of fs2g_ecmult_var, its table of odd
 * multiples in shared memory interleaved by thread. */
static __global__ void __launch_bounds__(FS2G_VBLOCK) fs2g_k_verify(const fs2g_verify_params p)
{
    __shared__ uint32_t vtab[FS2G_VAR_ENTRIES * 16 * FS2G_VBLOCK];
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n)
        return;
    uint32_t e[8], r[8], s[8];
    fs2g_aff pk;
    fs2g_verify_load(e, r, s, &pk, p, i);
    p.results[i] = fs2g_verify_item(e, r, s, &pk, p.table, p.w, NULL, 0, vtab + threadIdx.x, FS2G_VBLOCK);
}

/* Verification under one public key with a fixed-base table of that key
 * (p.ktable, width p.kw): tP as sG is made. */
static __global__ void FS2G_BOUNDS(FS2G_BLOCK) fs2g_k_verify_key(const fs2g_verify_params p)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n)
        return;
    uint32_t e[8], r[8], s[8];
    fs2g_aff pk;
    /* (never NULL here; the test tells the compiler so: without it, the
     * window path of fs2g_verify_item, with its NULL scratch, was compiled
     * in as a trap) */
    if (p.ktable == NULL) {
        p.results[i] = -1; /* the host verifies it */
        return;
    }
    fs2g_verify_load(e, r, s, &pk, p, i);
    p.results[i] = fs2g_verify_item(e, r, s, &pk, p.table, p.w, p.ktable, p.kw, NULL, 0);
}

struct fs2g_keygen_params {
    const unsigned char *privs;
    unsigned char *pubs;
    unsigned int *nbad;
    const uint32_t *table;
    unsigned long long n;
    int w, mode;
};

/* Every thread runs the multiplication (d = 1 past the end: the
 * constant-time mode's table reads need the whole warp). A key that meets
 * kG's exceptional case comes back as zeros and is counted in nbad; the
 * host computes it. */
static __global__ void FS2G_BOUNDS(FS2G_BLOCK) fs2g_k_keygen(const fs2g_keygen_params p)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t d[8];
    fs2g_aff a;
    if (i < p.n)
        fs2g_load_be_dev(d, p.privs + 32 * i);
    else
        for (int t = 0; t < 8; t++)
            d[t] = t == 0;
    uint32_t ok = fs2g_keygen_item(&a, d, p.table, p.w, p.mode);
    if (i >= p.n)
        return;
    if (!ok) /* public: the key is redone on the CPU */
        atomicAdd(p.nbad, 1u);
    unsigned char *o = p.pubs + 65 * i;
    o[0] = 4;
    fs2g_to_be(o + 1, a.x);
    fs2g_to_be(o + 33, a.y);
}

#endif /* !FS2G_SASS_CT_PROBE */

#if defined(FS2G_SASS_CT_PROBE)
/* Not part of the library: built by tests/harness/sass-count.sh only. The
 * constant-time signing path (nonce derivation, the full-scan kG, the
 * inversion, the scalar steps: fs2g_k_sign's body in FS2G_MODE_CT) with
 * every secret read from global memory, so that a data-flow check of its
 * SASS can tell secret values (loaded) from public ones (constants, kernel
 * parameters, thread indices) and require that no conditional branch
 * depends on a secret. FS2G_SASS_CT_INJECT adds a branch on the nonce, to
 * show that the check catches one. */
static __global__ void __launch_bounds__(FS2G_BLOCK)
    fs2g_k_ct_probe(const uint32_t *secrets, const unsigned char *digests, const uint32_t *table, unsigned char *sigs,
                    uint32_t *oks, unsigned long long n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) /* n is a multiple of the block size: whole warps */
        return;
    /* FS2G_SIGN_ITEMS items per thread, as fs2g_k_sign does them */
    uint32_t X[FS2G_SIGN_ITEMS][8], Z[FS2G_SIGN_ITEMS][8], K[FS2G_SIGN_ITEMS][8], x1[FS2G_SIGN_ITEMS][8];
    uint32_t zero[FS2G_SIGN_ITEMS];
    uint32_t e[8], dinv[8], pre[8], r[8], s[8], ok = ~0u;
    for (int j = 0; j < FS2G_SIGN_ITEMS; j++) {
        size_t it = i * FS2G_SIGN_ITEMS + j;
        fs2g_jac q;
        fs2g_load_be_dev(e, digests + 32 * it);
        for (int t = 0; t < 8; t++)
            pre[t] = secrets[24 * it + 8 + t];
        fs2g_nonce_derive(K[j], pre, e, it);
        fs2g_ecmult_gen(&q, K[j], table, FS2G_CT_W, FS2G_MODE_CT, 0);
        fs2g_copy(X[j], q.x);
        fs2g_copy(Z[j], q.z);
    }
    fs2g_batch_x(x1, zero, X, Z);
    for (int j = 0; j < FS2G_SIGN_ITEMS; j++) {
        size_t it = i * FS2G_SIGN_ITEMS + j;
        fs2g_load_be_dev(e, digests + 32 * it);
        for (int t = 0; t < 8; t++)
            dinv[t] = secrets[24 * it + t];
        ok &= fs2g_sign_finish(r, s, e, K[j], dinv, x1[j]) & ~zero[j];
        fs2g_store_be_dev(sigs + 64 * it, r);
        fs2g_store_be_dev(sigs + 64 * it + 32, s);
    }
    uint32_t *k = K[0];
#if defined(FS2G_SASS_CT_INJECT)
    for (uint32_t j = 0; j < (k[0] & 7u); j++)
        fs2g_fp_mul(r, r, s);
#endif
    oks[i] = ok ^ r[0];
}
#else /* the library's host side: not in the probe build */

/* ---- host side ----------------------------------------------------------------- */

/* A wipe the compiler keeps (the library's fs2_wipe: memset + a barrier), for
 * the host copies of kernel parameters that hold d, (1+d)^-1, the nonce
 * prefix and the seed. */
extern "C" void fs2_wipe(void *p, size_t n);

/* Zero n bytes of the stack below the caller: the frames of the functions
 * it has just called (the host SM3 of the nonce prefix holds seed || d in
 * its message block). */
static __attribute__((noinline)) void burn_stack(void)
{
    unsigned char buf[2048];
    fs2_wipe(buf, sizeof buf);
}

/* The one key's nonce prefix SM3(seed || d) state, on the host; its block
 * and schedule wiped with the stack they used. */
static __attribute__((noinline)) void host_prefix_inner(uint32_t st[8], const uint32_t seed[8], const uint32_t d[8])
{
    fs2g_nonce_prefix(st, seed, d);
}

static void host_prefix(uint32_t st[8], const uint32_t seed[8], const uint32_t d[8])
{
    host_prefix_inner(st, seed, d);
    burn_stack();
}

struct fs2_cuda {
    int device;
    int ct, w;
    char name[256];
    char err[256];
    uint32_t *table;
    uint32_t *ktable; /* the last one-key verification's table of the key */
    size_t kcap;      /* its allocation, bytes */
    cudaStream_t streams[FS2G_STREAMS];
    int nstreams;
    /* batch buffers, grown on demand and kept */
    void *buf[4];
    size_t cap[4];
    unsigned int *nbad;
};

/* Map a CUDA status to a FASTSM2 code, keeping the message. */
static int cu_fail(fs2_cuda *c, cudaError_t e, const char *what)
{
    if (c)
        snprintf(c->err, sizeof(c->err), "%s: %s", what, cudaGetErrorString(e));
    /* the runtime keeps the failure as its "last error" too: clear it, or
     * the next launch's cudaGetLastError() check reports it again and an
     * unrelated later call fails */
    (void)cudaGetLastError();
    if (e == cudaErrorMemoryAllocation)
        return FASTSM2_ERR_NO_MEMORY;
    return FASTSM2_ERR_UNSUPPORTED;
}

#define CU(call)                              \
    do {                                      \
        cudaError_t fs2_e_ = (call);          \
        if (fs2_e_ != cudaSuccess)            \
            return cu_fail(c, fs2_e_, #call); \
    } while (0)

extern "C" int fs2_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

extern "C" size_t fs2_cuda_chunk_items(void)
{
    return FS2G_CHUNK;
}

extern "C" const char *fs2_cuda_name(const fs2_cuda *c)
{
    return c ? c->name : "none";
}
extern "C" const char *fs2_cuda_error(const fs2_cuda *c)
{
    return c ? c->err : "";
}

static int ensure(fs2_cuda *c, int slot, size_t bytes)
{
    if (bytes <= c->cap[slot])
        return FASTSM2_OK;
    if (c->buf[slot]) {
        CU(cudaMemset(c->buf[slot], 0, c->cap[slot])); /* may have held keys or nonces */
        CU(cudaFree(c->buf[slot]));
        c->buf[slot] = NULL;
        c->cap[slot] = 0;
    }
    CU(cudaMalloc(&c->buf[slot], bytes));
    c->cap[slot] = bytes;
    return FASTSM2_OK;
}

static unsigned grid_for(size_t n, unsigned block = FS2G_BLOCK)
{
    return (unsigned)((n + block - 1) / block);
}

#if defined(FS2G_HOST_TABLE_HOOK)
/* GPGPU-Sim runs only (tests/harness/test-gpu-sim.sh builds with
 * FS2G_HOST_TABLE_HOOK): with FS2_GPU_HOST_TABLE=1 the fixed-base tables
 * are computed on the host by the same entry function, so that a width-12
 * or 16 table, days of simulated device time, takes seconds. Never in the
 * library's builds. */
static int host_table(uint32_t *dst, const uint32_t *bases, int nseg, uint32_t nent)
{
    const char *v = getenv("FS2_GPU_HOST_TABLE");
    if (!v || strcmp(v, "1") != 0)
        return 0;
    size_t total = (size_t)nseg * nent;
    uint32_t *h = (uint32_t *)malloc(total * FS2G_ENTRY_WORDS * sizeof(uint32_t));
    if (!h)
        return 0;
    for (size_t idx = 0; idx < total; idx++) {
        fs2g_aff b, e;
        size_t sg = idx / nent;
        for (int j = 0; j < 8; j++) {
            b.x[j] = bases[sg * 16 + j];
            b.y[j] = bases[sg * 16 + 8 + j];
        }
        fs2g_table_entry(&e, &b, (uint32_t)(idx % nent));
        memcpy(h + idx * FS2G_ENTRY_WORDS, e.x, 32);
        memcpy(h + idx * FS2G_ENTRY_WORDS + 8, e.y, 32);
    }
    cudaError_t err = cudaMemcpy(dst, h, total * FS2G_ENTRY_WORDS * sizeof(uint32_t), cudaMemcpyHostToDevice);
    free(h);
    return err == cudaSuccess;
}
#endif

/* The width-w table of the odd multiples of nseg segment bases (16 words
 * each: x then y) into dst (allocated by the caller), one device thread per
 * entry. */
static int fill_table(fs2_cuda *c, uint32_t *dst, const uint32_t *bases, int nseg, int w)
{
    uint32_t nent = fs2g_table_entries(w);
    size_t total = (size_t)nseg * nent;
    uint32_t *dbases = NULL;
#if defined(FS2G_HOST_TABLE_HOOK)
    if (host_table(dst, bases, nseg, nent))
        return FASTSM2_OK;
#endif
    CU(cudaMalloc(&dbases, (size_t)nseg * 16 * sizeof(uint32_t)));
    cudaError_t e = cudaMemcpy(dbases, bases, (size_t)nseg * 16 * sizeof(uint32_t), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        FS2G_LAUNCH(fs2g_k_table, grid_for(total), FS2G_BLOCK, 0, dst, dbases, w, nent, total);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    cudaError_t e2 = cudaFree(dbases);
    if (e != cudaSuccess)
        return cu_fail(c, e, "building a fixed-base table");
    if (e2 != cudaSuccess)
        return cu_fail(c, e2, "cudaFree");
    return FASTSM2_OK;
}

static size_t table_bytes(int w)
{
    return (size_t)fs2g_table_segments(w) * fs2g_table_entries(w) * FS2G_ENTRY_WORDS * sizeof(uint32_t);
}

static int build_table(fs2_cuda *c, const uint32_t *bases, int nseg)
{
    CU(cudaMalloc(&c->table, table_bytes(c->w)));
    return fill_table(c, c->table, bases, nseg, c->w);
}

static int cuda_new(fs2_cuda *c, int device, int ct, int w, const uint32_t *bases, int nseg)
{
    cudaDeviceProp prop;
    c->device = device;
    c->ct = ct;
    c->w = w;
    CU(cudaSetDevice(device));
    CU(cudaGetDeviceProperties(&prop, device));
    snprintf(c->name, sizeof(c->name), "%s", prop.name);
    for (int i = 0; i < FS2G_STREAMS; i++) {
        CU(cudaStreamCreateWithFlags(&c->streams[i], cudaStreamNonBlocking));
        c->nstreams = i + 1;
    }
    CU(cudaMalloc(&c->nbad, sizeof(unsigned int)));
    return build_table(c, bases, nseg);
}

extern "C" int fs2_cuda_new(fs2_cuda **out, int device, int ct, int w, const uint32_t *bases, int nseg)
{
    *out = NULL;
    if (w < 2 || w > 16 || (ct && w != FS2G_CT_W) || nseg != fs2g_table_segments(w))
        return FASTSM2_ERR_ARG;
    fs2_cuda *c = (fs2_cuda *)calloc(1, sizeof(*c));
    if (!c)
        return FASTSM2_ERR_NO_MEMORY;
    int ret = cuda_new(c, device, ct, w, bases, nseg);
    if (ret != FASTSM2_OK) {
        fs2_cuda_free(c);
        return ret;
    }
    *out = c;
    return FASTSM2_OK;
}

extern "C" void fs2_cuda_free(fs2_cuda *c)
{
    if (!c)
        return;
    if (cudaSetDevice(c->device) == cudaSuccess) {
        for (int i = 0; i < 4; i++)
            if (c->buf[i]) {
                (void)cudaMemset(c->buf[i], 0, c->cap[i]); /* keys, nonces */
                (void)cudaFree(c->buf[i]);
            }
        if (c->table)
            (void)cudaFree(c->table);
        if (c->ktable)
            (void)cudaFree(c->ktable);
        if (c->nbad)
            (void)cudaFree(c->nbad);
        for (int i = 0; i < c->nstreams; i++)
            (void)cudaStreamDestroy(c->streams[i]);
        (void)cudaGetLastError();
    }
    free(c);
}

/* The chunk loop shared by the three operations: for each chunk, the input
 * copies and the kernel go on stream (chunk mod S), and the output copy of
 * the previous chunk is queued after them, so that a pageable copy that
 * blocks the host still leaves the next kernel running. */
struct chunk_io {
    const void *src[3]; /* host inputs */
    void *dsrc[3];      /* their device copies */
    size_t in_size[3];  /* bytes per item (0: unused) */
    void *dst;          /* host output */
    void *ddst;
    size_t out_size;
};

/* Every path out of run_chunks, failures included, first waits for all
 * that it queued: an asynchronous copy of a failed call must not land in the
 * caller's buffer after the call returned (or was freed), and a queued
 * kernel must not outlive the buffers' next reuse; the events are destroyed
 * on every path. The first failure is the one reported. */
template <typename Launch>
static int run_chunks(fs2_cuda *c, const chunk_io &io, size_t n, double *kernel_s, Launch launch)
{
    size_t chunk = kernel_s ? n : FS2G_CHUNK;
    size_t nchunks = (n + chunk - 1) / chunk;
    cudaEvent_t ev[2] = {NULL, NULL};
    cudaError_t e = cudaSuccess, e2;
    const char *what = "";
#define FS2G_STEP(call)                                      \
    do {                                                     \
        if (e == cudaSuccess && (e = (call)) != cudaSuccess) \
            what = #call;                                    \
    } while (0)
    if (kernel_s) {
        FS2G_STEP(cudaEventCreate(&ev[0]));
        FS2G_STEP(cudaEventCreate(&ev[1]));
    }
    for (size_t ci = 0; ci <= nchunks && e == cudaSuccess; ci++) {
        if (ci < nchunks) {
            size_t off = ci * chunk, m = n - off < chunk ? n - off : chunk;
            cudaStream_t st = c->streams[ci % c->nstreams];
            for (int b = 0; b < 3; b++)
                if (io.in_size[b])
                    FS2G_STEP(cudaMemcpyAsync((char *)io.dsrc[b] + off * io.in_size[b],
                                              (const char *)io.src[b] + off * io.in_size[b], m * io.in_size[b],
                                              cudaMemcpyHostToDevice, st));
            if (kernel_s)
                FS2G_STEP(cudaEventRecord(ev[0], st));
            if (e != cudaSuccess)
                break;
            launch(st, off, m);
            FS2G_STEP(cudaGetLastError());
            if (kernel_s)
                FS2G_STEP(cudaEventRecord(ev[1], st));
        }
        if (ci > 0) {
            size_t off = (ci - 1) * chunk, m = n - off < chunk ? n - off : chunk;
            cudaStream_t st = c->streams[(ci - 1) % c->nstreams];
            FS2G_STEP(cudaMemcpyAsync((char *)io.dst + off * io.out_size, (const char *)io.ddst + off * io.out_size,
                                      m * io.out_size, cudaMemcpyDeviceToHost, st));
        }
    }
    for (int i = 0; i < c->nstreams; i++)
        if ((e2 = cudaStreamSynchronize(c->streams[i])) != cudaSuccess && e == cudaSuccess)
            e = e2, what = "cudaStreamSynchronize";
    if (kernel_s && e == cudaSuccess) {
        float ms = 0;
        FS2G_STEP(cudaEventElapsedTime(&ms, ev[0], ev[1]));
        *kernel_s = ms / 1e3;
    }
    for (int i = 0; i < 2; i++)
        if (ev[i] && (e2 = cudaEventDestroy(ev[i])) != cudaSuccess && e == cudaSuccess)
            e = e2, what = "cudaEventDestroy";
#undef FS2G_STEP
    return e == cudaSuccess ? FASTSM2_OK : cu_fail(c, e, what);
}

extern "C" int fs2_cuda_sign(fs2_cuda *c, unsigned char *sigs, const uint32_t *keys, size_t nkeys,
                             const unsigned char *digests, const unsigned char *nonces, const uint32_t seed[8],
                             size_t n, size_t *nbad, double *kernel_s)
{
    int ret;
    *nbad = 0;
    if (n == 0)
        return FASTSM2_OK;
    CU(cudaSetDevice(c->device));
    size_t kbytes = nkeys == 1 ? 0 : 64;
    if ((ret = ensure(c, 0, n * 32)) != FASTSM2_OK || (ret = ensure(c, 1, n * 64)) != FASTSM2_OK ||
        (kbytes && (ret = ensure(c, 2, n * kbytes)) != FASTSM2_OK) ||
        (nonces && (ret = ensure(c, 3, n * 32)) != FASTSM2_OK))
        return ret;
    CU(cudaMemset(c->nbad, 0, sizeof(unsigned int)));
    fs2g_sign_params p;
    memset(&p, 0, sizeof(p));
    p.nbad = c->nbad;
    p.table = c->table;
    p.w = c->w;
    p.mode = c->ct ? FS2G_MODE_CT : FS2G_MODE_FAST;
#if defined(FS2G_EMU)
    /* FS2_GPU_TEST_REJECT=i: item i - 1 comes back rejected, as a nonce
     * giving r = 0, r + k = n or s = 0 would (emulated builds only) */
    const char *rej = getenv("FS2_GPU_TEST_REJECT");
    p.reject = rej ? strtoull(rej, NULL, 10) : 0;
#endif
    memcpy(p.seed, seed, sizeof(p.seed));
    if (nkeys == 1) {
        memcpy(p.key, keys, sizeof(p.key));
        host_prefix(p.prefix, seed, keys); /* the same function, run on the host */
    }
    chunk_io io;
    memset(&io, 0, sizeof(io));
    io.src[0] = digests, io.dsrc[0] = c->buf[0], io.in_size[0] = 32;
    if (kbytes)
        io.src[1] = keys, io.dsrc[1] = c->buf[2], io.in_size[1] = kbytes;
    if (nonces)
        io.src[2] = nonces, io.dsrc[2] = c->buf[3], io.in_size[2] = 32;
    io.dst = sigs, io.ddst = c->buf[1], io.out_size = 64;
    ret = run_chunks(c, io, n, kernel_s, [&](cudaStream_t st, size_t off, size_t m) {
        fs2g_sign_params q = p;
        q.digests = (const unsigned char *)c->buf[0] + 32 * off;
        q.sigs = (unsigned char *)c->buf[1] + 64 * off;
        q.keys = kbytes ? (const uint32_t *)c->buf[2] + 16 * off : NULL;
        q.nonces = nonces ? (const unsigned char *)c->buf[3] + 32 * off : NULL;
        q.first = off;
        q.n = m;
        FS2G_LAUNCH(fs2g_k_sign, grid_for((m + FS2G_SIGN_ITEMS - 1) / FS2G_SIGN_ITEMS), FS2G_BLOCK, st, q);
        fs2_wipe(&q, sizeof q); /* the launch copied it */
    });
    /* wipe the device copies of keys and nonces (the context keeps the
     * buffers) */
    fs2_wipe(&p, sizeof p);
    cudaError_t e1 = kbytes ? cudaMemset(c->buf[2], 0, n * kbytes) : cudaSuccess;
    cudaError_t e2 = nonces ? cudaMemset(c->buf[3], 0, n * 32) : cudaSuccess;
    if (ret != FASTSM2_OK)
        return ret;
    CU(e1);
    CU(e2);
    unsigned int bad = 0;
    CU(cudaMemcpy(&bad, c->nbad, sizeof(bad), cudaMemcpyDeviceToHost));
    *nbad = bad;
    return FASTSM2_OK;
}

extern "C" int fs2_cuda_verify(fs2_cuda *c, int *results, const uint32_t *pubs, size_t npubs,
                               const unsigned char *digests, const unsigned char *sigs, size_t n, int kw,
                               const uint32_t *kbases, double *kernel_s)
{
    int ret;
    if (n == 0)
        return FASTSM2_OK;
    if (kw && (npubs != 1 || kw < 2 || kw > 16 || (!kbases && !c->ktable)))
        return FASTSM2_ERR_ARG;
    CU(cudaSetDevice(c->device));
    size_t pbytes = npubs == 1 ? 0 : 64;
    if ((ret = ensure(c, 0, n * 32)) != FASTSM2_OK || (ret = ensure(c, 1, n * 64)) != FASTSM2_OK ||
        (pbytes && (ret = ensure(c, 2, n * pbytes)) != FASTSM2_OK) ||
        (ret = ensure(c, 3, n * sizeof(int))) != FASTSM2_OK)
        return ret;
    if (kw && kbases) {
        /* the key's table, built on the device (the allocation kept) */
        size_t bytes = table_bytes(kw);
        if (bytes > c->kcap) {
            if (c->ktable)
                CU(cudaFree(c->ktable));
            c->ktable = NULL;
            c->kcap = 0;
            CU(cudaMalloc(&c->ktable, bytes));
            c->kcap = bytes;
        }
        if ((ret = fill_table(c, c->ktable, kbases, fs2g_table_segments(kw), kw)) != FASTSM2_OK)
            return ret;
    }
    fs2g_verify_params p;
    memset(&p, 0, sizeof(p));
    p.table = c->table;
    p.w = c->w;
    p.ktable = kw ? c->ktable : NULL;
    p.kw = kw;
    if (npubs == 1)
        memcpy(p.pub, pubs, sizeof(p.pub));
    chunk_io io;
    memset(&io, 0, sizeof(io));
    io.src[0] = digests, io.dsrc[0] = c->buf[0], io.in_size[0] = 32;
    io.src[1] = sigs, io.dsrc[1] = c->buf[1], io.in_size[1] = 64;
    if (pbytes)
        io.src[2] = pubs, io.dsrc[2] = c->buf[2], io.in_size[2] = pbytes;
    io.dst = results, io.ddst = c->buf[3], io.out_size = sizeof(int);
    return run_chunks(c, io, n, kernel_s, [&](cudaStream_t st, size_t off, size_t m) {
        fs2g_verify_params q = p;
        q.digests = (const unsigned char *)c->buf[0] + 32 * off;
        q.sigs = (const unsigned char *)c->buf[1] + 64 * off;
        q.pubs = pbytes ? (const uint32_t *)c->buf[2] + 16 * off : NULL;
        q.results = (int *)c->buf[3] + off;
        q.n = m;
        if (kw) {
            FS2G_LAUNCH(fs2g_k_verify_key, grid_for(m), FS2G_BLOCK, st, q);
        } else {
            FS2G_LAUNCH(fs2g_k_verify, grid_for(m, FS2G_VBLOCK), FS2G_VBLOCK, st, q);
        }
    });
}

extern "C" int fs2_cuda_keygen(fs2_cuda *c, unsigned char *pubs, const unsigned char *privs, size_t n, size_t *nbad,
                               double *kernel_s)
{
    int ret;
    *nbad = 0;
    if (n == 0)
        return FASTSM2_OK;
    CU(cudaSetDevice(c->device));
    if ((ret = ensure(c, 2, n * 32)) != FASTSM2_OK || (ret = ensure(c, 1, n * 65)) != FASTSM2_OK)
        return ret;
    CU(cudaMemset(c->nbad, 0, sizeof(unsigned int)));
    fs2g_keygen_params p;
    memset(&p, 0, sizeof(p));
    p.table = c->table;
    p.nbad = c->nbad;
    p.w = c->w;
    p.mode = c->ct ? FS2G_MODE_CT : FS2G_MODE_FAST;
    chunk_io io;
    memset(&io, 0, sizeof(io));
    io.src[0] = privs, io.dsrc[0] = c->buf[2], io.in_size[0] = 32;
    io.dst = pubs, io.ddst = c->buf[1], io.out_size = 65;
    ret = run_chunks(c, io, n, kernel_s, [&](cudaStream_t st, size_t off, size_t m) {
        fs2g_keygen_params q = p;
        q.privs = (const unsigned char *)c->buf[2] + 32 * off;
        q.pubs = (unsigned char *)c->buf[1] + 65 * off;
        q.n = m;
        FS2G_LAUNCH(fs2g_k_keygen, grid_for(m), FS2G_BLOCK, st, q);
    });
    CU(cudaMemset(c->buf[2], 0, n * 32)); /* private keys */
    if (ret != FASTSM2_OK)
        return ret;
    unsigned int bad = 0;
    CU(cudaMemcpy(&bad, c->nbad, sizeof(bad), cudaMemcpyDeviceToHost));
    *nbad = bad;
    return FASTSM2_OK;
}
#endif /* !FS2G_SASS_CT_PROBE */
